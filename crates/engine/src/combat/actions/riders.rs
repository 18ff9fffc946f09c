//! Damage riders of class features on a weapon hit, from the attacker's derived sheet:
//! Sneak Attack (once per turn, a finesse or ranged weapon, with advantage, or an ally of the
//! attacker within 5 ft of the target and no disadvantage) and Divine Smite (a melee weapon hit
//! with `slotLevel`: 2d8 radiant + 1d8 per slot level above 1st, max 5d8, +1d8 against undead
//! or fiends; the slot is spent).

use tabletop_rules::DamageType;
use tabletop_rules::stats::RollMode;

use super::profile::{AttackKind, AttackProfile, Delivery, ProfileSource};
use crate::catalog::RiderWhen;
use crate::character::Character;
use crate::combat::Encounter;
use crate::error::{EngineError, Result};
use crate::inventory::WeaponProperty;

/// What the riders add to a hit.
#[derive(Debug, Default)]
pub struct Riders {
    /// Typed dice to add to the damage expression (" + 2d6[piercing]").
    pub expr: String,
    /// What was added and why, one line each.
    pub lines: Vec<String>,
}

fn finesse(attacker: &Character, profile: &AttackProfile) -> bool {
    let ProfileSource::Weapon { item_id } = &profile.source else {
        return false;
    };
    attacker
        .inventory
        .items
        .iter()
        .find(|i| &i.id == item_id)
        .and_then(|i| i.weapon.as_ref())
        .is_some_and(|w| w.has(WeaponProperty::Finesse))
}

/// The riders `attacker`'s sheet adds to this hit on `target`. `mode` is the attack roll's
/// advantage state; `smite_slot` the slot level named for Divine Smite (spent here);
/// `decline_sneak` leaves Sneak Attack off this hit (the player's choice).
#[allow(clippy::too_many_arguments)]
pub fn on_hit(
    call: &crate::engine::Call<'_>,
    enc: &mut Encounter,
    attacker: &mut Character,
    target: &Character,
    profile: &AttackProfile,
    kind: AttackKind,
    mode: RollMode,
    smite_slot: Option<u8>,
    decline_sneak: bool,
    damage_type: DamageType,
) -> Result<Riders> {
    let mut out = Riders::default();
    // Spells on the attacker or its target that add to weapon hits (Hunter's Mark).
    if !matches!(profile.source, ProfileSource::StatBlock) {
        super::spell_riders::on_weapon_hit(attacker, target, damage_type, &mut out);
    }
    if matches!(profile.source, ProfileSource::StatBlock) {
        super::trait_riders::on_hit(
            call,
            enc,
            attacker,
            target,
            &profile.name,
            mode,
            damage_type,
            (&mut out.expr, &mut out.lines),
        );
    }
    let Some(d) = attacker.derived.clone() else {
        if smite_slot.is_some() {
            return Err(EngineError::invalid(
                "slotLevel",
                format!("{} has no Divine Smite", attacker.name),
            ));
        }
        return Ok(out);
    };
    let weapon = !matches!(profile.source, ProfileSource::StatBlock);
    for r in &d.riders {
        match r.when {
            RiderWhen::SneakAttack => {
                let turn = (enc.round, enc.turn);
                let used = enc
                    .combatant(&attacker.id)
                    .is_some_and(|c| c.sneak_attack_turn == Some(turn));
                let ranged = kind.delivery == Delivery::Ranged;
                let eligible_weapon = weapon
                    && !matches!(profile.source, ProfileSource::Unarmed)
                    && (ranged || finesse(attacker, profile));
                let why = match mode {
                    RollMode::Advantage => Some("advantage".to_string()),
                    RollMode::Disadvantage => None,
                    RollMode::Normal => {
                        super::trait_riders::ally_next_to(call, enc, &attacker.id, &target.id)
                            .map(|a| format!("{a} is within 5 ft of {}", target.name))
                    }
                };
                match (used, eligible_weapon, why) {
                    (false, true, Some(_)) if decline_sneak => out.lines.push(
                        "Sneak Attack declined (sneakAttack: false); still unused this turn."
                            .to_string(),
                    ),
                    (true, _, _) => out
                        .lines
                        .push("Sneak Attack already used this turn.".to_string()),
                    (false, true, Some(why)) => {
                        out.expr
                            .push_str(&format!(" + {}d{}[{damage_type}]", r.count, r.faces));
                        out.lines.push(format!(
                            "Sneak Attack: +{}d{} ({why}; once per turn).",
                            r.count, r.faces
                        ));
                        if let Some(cb) = enc.combatant_mut(&attacker.id) {
                            cb.sneak_attack_turn = Some(turn);
                        }
                    }
                    (false, false, _) => out.lines.push(
                        "No Sneak Attack: it needs a finesse or ranged weapon.".to_string(),
                    ),
                    (false, true, None) => out.lines.push(
                        "No Sneak Attack: it needs advantage, or an ally within 5 ft of the target that is not incapacitated, and no disadvantage."
                            .to_string(),
                    ),
                }
            }
            RiderWhen::DivineSmite => {
                let Some(level) = smite_slot else { continue };
                if kind.delivery != Delivery::Melee || !weapon {
                    return Err(EngineError::Rule(
                        "Divine Smite needs a melee weapon hit".into(),
                    ));
                }
                let level = level.clamp(1, 9);
                if attacker.spell_slots.left(level) == 0 {
                    return Err(EngineError::Rule(format!(
                        "{} has no {} level slot left for Divine Smite (slots: {})",
                        attacker.name,
                        crate::slots::ordinal(level),
                        attacker.spell_slots.summary()
                    )));
                }
                attacker.spell_slots.used[usize::from(level - 1)] += 1;
                let mut n = (1 + u32::from(level)).min(5);
                let ctype = target
                    .stat_block
                    .as_ref()
                    .map(|s| s.creature_type.to_lowercase())
                    .unwrap_or_default();
                let extra = ctype == "undead" || ctype == "fiend";
                if extra {
                    n += 1;
                }
                out.expr.push_str(&format!(" + {n}d8[radiant]"));
                out.lines.push(format!(
                    "Divine Smite: +{n}d8 radiant ({} level slot spent{}).",
                    crate::slots::ordinal(level),
                    if extra {
                        "; +1d8 against undead or fiends"
                    } else {
                        ""
                    }
                ));
            }
            RiderWhen::WhileEffect => {}
        }
    }
    colossus_slayer(enc, attacker, target, weapon, damage_type, &mut out);
    // Improved Divine Smite: every melee weapon hit, 1d8 radiant more.
    if weapon
        && kind.delivery == Delivery::Melee
        && !matches!(profile.source, ProfileSource::Unarmed)
        && attacker.has_rule(crate::catalog::class_rules::ClassRule::ImprovedDivineSmite)
    {
        out.expr.push_str(" + 1d8[radiant]");
        out.lines
            .push("Improved Divine Smite: +1d8 radiant (melee weapon hit).".to_string());
    }
    if weapon
        && let Some((ty, spec)) = crate::class_features::find(attacker, |r| match r {
            crate::catalog::caster_rules::CasterRule::DivineStrike { damage } => Some(*damage),
            _ => None,
        })
    {
        let turn = (enc.round, enc.turn);
        let n = if spec.level >= 14 { 2 } else { 1 };
        match enc.combatant_mut(&attacker.id) {
            Some(cb) if cb.divine_strike_turn == Some(turn) => out
                .lines
                .push("Divine Strike already used this turn.".to_string()),
            Some(cb) => {
                cb.divine_strike_turn = Some(turn);
                out.expr.push_str(&format!(" + {n}d8[{ty}]"));
                out.lines
                    .push(format!("Divine Strike: +{n}d8 {ty} (once per turn)."));
            }
            None => {}
        }
    }
    if smite_slot.is_some() && !d.riders.iter().any(|r| r.when == RiderWhen::DivineSmite) {
        return Err(EngineError::invalid(
            "slotLevel",
            format!("{} has no Divine Smite (paladin 2nd level)", attacker.name),
        ));
    }
    Ok(out)
}

/// Colossus Slayer: once per turn, +1d8 on a weapon hit against a creature below its hit point
/// maximum.
fn colossus_slayer(
    enc: &mut Encounter,
    attacker: &Character,
    target: &Character,
    weapon: bool,
    damage_type: DamageType,
    out: &mut Riders,
) {
    use crate::catalog::class_rules::ClassRule;
    if !weapon || !attacker.has_rule(ClassRule::ColossusSlayer) {
        return;
    }
    let max = u32::try_from(target.effective().max_hp.value.max(0)).unwrap_or(0);
    if target.hp >= max {
        out.lines.push(format!(
            "No Colossus Slayer: {} is at its hit point maximum.",
            target.name
        ));
        return;
    }
    let turn = (enc.round, enc.turn);
    let Some(cb) = enc.combatant_mut(&attacker.id) else {
        return;
    };
    if cb.flags.colossus_slayer_turn == Some(turn) {
        out.lines
            .push("Colossus Slayer already used this turn.".to_string());
        return;
    }
    cb.flags.colossus_slayer_turn = Some(turn);
    out.expr.push_str(&format!(" + 1d8[{damage_type}]"));
    out.lines.push(format!(
        "Colossus Slayer: +1d8 ({} is below its hit point maximum; once per turn).",
        target.name
    ));
}

/// The lowest natural roll `attacker`'s weapon attacks crit on (Improved Critical 19,
/// Superior Critical 18); `None` for 20 or a stat-block attack.
pub fn crit_min(attacker: &Character, profile: &AttackProfile) -> Option<u32> {
    if matches!(profile.source, ProfileSource::StatBlock) {
        return None;
    }
    attacker.derived.as_ref()?.crit_min.filter(|m| *m < 20)
}

/// Brutal Critical and Savage Attacks on a melee weapon critical hit: the extra weapon dice
/// (added after the crit doubling, so they are not doubled again) and the line saying so.
pub fn brutal_critical(
    attacker: &Character,
    profile: &AttackProfile,
    kind: AttackKind,
) -> Option<(String, String)> {
    let d = attacker.derived.as_ref()?;
    let n = d.brutal_critical + u32::from(d.savage_attacks);
    if n == 0
        || kind.delivery != Delivery::Melee
        || !matches!(profile.source, ProfileSource::Weapon { .. })
    {
        return None;
    }
    let (faces, typ) = first_die(&profile.damage)?;
    let by = match (d.brutal_critical, d.savage_attacks) {
        (0, _) => "Savage Attacks".to_string(),
        (_, false) => "Brutal Critical".to_string(),
        (_, true) => "Brutal Critical and Savage Attacks".to_string(),
    };
    Some((
        format!(" + {n}d{faces}{typ}"),
        format!("{by}: +{n}d{faces} (extra weapon dice on a melee critical hit)."),
    ))
}

/// The faces of the first die term of a damage expression and its "[type]" tag, if any.
fn first_die(expr: &str) -> Option<(u32, String)> {
    let b = expr.as_bytes();
    let i = (1..b.len()).find(|&i| b[i] == b'd' && b[i - 1].is_ascii_digit())?;
    let digits: String = expr[i + 1..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    let faces: u32 = digits.parse().ok()?;
    let rest = &expr[i + 1 + digits.len()..];
    let typ = if rest.starts_with('[') {
        rest.find(']')
            .map(|j| rest[..=j].to_string())
            .unwrap_or_default()
    } else {
        String::new()
    };
    Some((faces, typ))
}

/// Elusive (rogue 18): no attack roll has advantage against `target` while it is not
/// incapacitated; the line saying the advantage is lost.
pub fn elusive(target: &Character) -> Option<String> {
    let src = target.derived.as_ref()?.no_advantage_against.clone()?;
    if !target.effective().incapacitated.is_empty() {
        return None;
    }
    Some(format!(
        "No advantage against {} ({src}: not while it is incapacitated).",
        target.name
    ))
}
