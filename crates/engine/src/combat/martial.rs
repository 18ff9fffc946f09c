//! Class-feature rules of the martial classes applied in a fight (catalog
//! [`ClassRule`]): Survivor at the start of a turn, Relentless Rage at 0 HP, Perfect Self when
//! initiative is rolled, the reactions that cut an attack's damage (Deflect Missiles, Uncanny
//! Dodge), Multiattack Defense, Ki-Empowered Strikes, and the paladin's auras (Aura of
//! Protection, Aura of Devotion), kept on the creatures within reach as effects whenever the
//! encounter is stored.

use tabletop_rules::damage::{DamageOutcome, DamagePart, DamageResult};
use tabletop_rules::modifiers::{Modifier, ModifierKind, RollTarget};
use tabletop_rules::{Ability, Condition};

use super::actions::reactions::eligible;
use crate::catalog::class_rules::ClassRule;
use crate::engine::Call;
use crate::error::Result;
use crate::model::character::Character;
use crate::model::effects::{ActiveEffect, Duration, EndTrigger, TurnPoint};
use crate::model::encounter::{Encounter, EncounterStatus, ReactionPolicy};
use crate::model::names::name_key;

/// The level of `class` ("monk") on `c`'s sheet (multiclass aware when built).
pub fn class_level(c: &Character, class: &str) -> u32 {
    if let Some(b) = &c.build
        && let Some(k) = b.classes.iter().find(|k| name_key(&k.class) == class)
    {
        return k.level;
    }
    if c.class.as_deref().is_some_and(|k| name_key(k) == class) {
        return c.level;
    }
    0
}

fn raging(c: &Character) -> bool {
    c.effects.iter().any(|e| name_key(&e.name) == "rage")
}

/// Survivor: at the start of its turn, with at most half its hit points and more than 0, it
/// regains 5 + its CON modifier.
pub fn survivor(c: &mut Character, lines: &mut Vec<String>) -> Result<()> {
    if c.dead || c.hp == 0 || !c.has_rule(ClassRule::Survivor) {
        return Ok(());
    }
    let stats = c.effective();
    let max = u32::try_from(stats.max_hp.value.max(1)).unwrap_or(1);
    if c.hp * 2 > max {
        return Ok(());
    }
    let n = u32::try_from((5 + stats.modifier(Ability::Constitution)).max(0)).unwrap_or(0);
    let mut changes = Vec::new();
    let h = crate::update::heal(c, n, &mut changes)?;
    lines.push(format!(
        "Survivor: {} regains {} HP at the start of its turn ({} → {}; 5 + CON, at no more than half its {max} HP)",
        c.name, h.healed, h.hp_before, h.hp_after
    ));
    Ok(())
}

/// The resource that counts Relentless Rage's uses since the last rest.
pub const RELENTLESS_RAGE: &str = "Relentless Rage";

/// Relentless Rage: dropped to 0 HP (not killed outright) while raging, a CON save against DC 10
/// (+5 for each use since its last rest) leaves it at 1 HP instead; when the save fails,
/// Relentless Endurance may still. Says whether it (or Endurance) held.
pub fn relentless_rage(
    call: &mut Call<'_>,
    c: &mut Character,
    r: &mut DamageResult,
    lines: &mut Vec<String>,
) -> Result<bool> {
    if r.hp_after > 0
        || r.hp_before == 0
        || c.dead
        || !raging(c)
        || !c.has_rule(ClassRule::RelentlessRage)
    {
        return Ok(false);
    }
    let key = name_key(RELENTLESS_RAGE);
    let Some(res) = c.resources.iter().position(|x| name_key(&x.name) == key) else {
        return Ok(false);
    };
    if c.resources[res].current == 0 {
        return Ok(false);
    }
    let dc = c.resources[res].rising_dc().unwrap_or(10);
    c.resources[res].current -= 1;
    let out = crate::saves::roll_save(
        call,
        c,
        Ability::Constitution,
        dc,
        RELENTLESS_RAGE,
        &crate::saves::SaveAgainst::none(),
    )?;
    lines.push(format!("{} — {}", c.name, out.summary()));
    if out.success != Some(true) {
        lines.push(format!(
            "{}'s Relentless Rage fails (DC {dc}); the next use is DC {}",
            c.name,
            dc + 5
        ));
        // Relentless Endurance, if it has it, still holds.
        return Ok(super::endurance::relentless_endurance(c, r, lines));
    }
    c.hp = 1;
    c.death_saves = Default::default();
    c.conditions
        .retain(|e| e.condition != Condition::Unconscious);
    r.hp_after = 1;
    r.outcome = DamageOutcome::Damaged;
    r.add_conditions.clear();
    r.concentration_ends = false;
    lines.push(format!(
        "{} drops to 1 HP instead (Relentless Rage, DC {dc}; the next use is DC {})",
        c.name,
        dc + 5
    ));
    Ok(true)
}

/// Perfect Self: a creature with no ki left regains 4 when initiative is rolled. The stored
/// sheet of `id` is updated; the line says so.
pub fn perfect_self(call: &mut Call<'_>, id: &str) -> Result<Option<String>> {
    let mut c = super::sheet(call, id)?;
    if !c.has_rule(ClassRule::PerfectSelf) {
        return Ok(None);
    }
    let Some(ki) = c.resources.iter_mut().find(|r| name_key(&r.name) == "ki") else {
        return Ok(None);
    };
    if ki.current > 0 {
        return Ok(None);
    }
    ki.current = ki.max.min(4);
    let line = format!(
        "Perfect Self: {} had no ki left and regains {} as initiative is rolled",
        c.name, ki.current
    );
    super::put_sheet(call, &c)?;
    call.record_change("character", id, line.clone());
    Ok(Some(line))
}

/// Takes `by` points off the damage parts, first part first.
fn reduce(parts: &mut [DamagePart], mut by: u32) {
    for p in parts.iter_mut() {
        let cut = by.min(p.amount);
        p.amount -= cut;
        by -= cut;
    }
}

/// The target's reaction against an attack that hit it (a weapon attack, or a spell attack
/// through [`defend_from_spell`]), before the damage lands: Deflect Missiles on a ranged weapon
/// attack (1d10 + DEX + monk level off the damage), else Uncanny
/// Dodge against an attacker it can see (the damage halved). Taken with reaction policy `auto`;
/// with `ask` a line says it was not taken (the engine does not pause for it).
pub fn defend(
    call: &mut Call<'_>,
    enc: &mut Encounter,
    attacker: &Character,
    target_id: &str,
    ranged_weapon: bool,
    parts: &mut [DamagePart],
    lines: &mut Vec<String>,
) -> Result<()> {
    let total: u32 = parts.iter().map(|p| p.amount).sum();
    if total == 0 {
        return Ok(());
    }
    let Some(t) = eligible::reactor(call, enc, target_id)? else {
        return Ok(());
    };
    let deflect = ranged_weapon && t.has_rule(ClassRule::DeflectMissiles);
    let dodge =
        !deflect && t.has_rule(ClassRule::UncannyDodge) && eligible::sees(enc, &t, attacker);
    if !deflect && !dodge {
        return Ok(());
    }
    let name = if deflect {
        ClassRule::DeflectMissiles.label()
    } else {
        ClassRule::UncannyDodge.label()
    };
    match eligible::policy(enc, target_id) {
        ReactionPolicy::Never => return Ok(()),
        ReactionPolicy::Ask => {
            lines.push(format!(
                "{} could use {name} (reaction) but its reaction policy is ask: the engine takes it only with auto (manage_encounter set_reaction_policy); the DM may restore the damage with update_character",
                t.name
            ));
            return Ok(());
        }
        ReactionPolicy::Auto => {}
    }
    let cut = if deflect {
        let stats = t.effective();
        let level = class_level(&t, "monk");
        let expr = format!(
            "1d10+{}",
            stats.modifier(Ability::Dexterity) + i32::try_from(level).unwrap_or(0)
        );
        let roll = tabletop_rules::dice::roll(&expr, call.rng()?)?;
        call.record_roll(&roll);
        let n = u32::try_from(roll.total.max(0)).unwrap_or(0);
        lines.push(format!(
            "{} uses Deflect Missiles (reaction): {} — the damage drops by {n} ({total} → {})",
            t.name,
            roll.summary(),
            total.saturating_sub(n)
        ));
        if n >= total {
            lines.push(format!(
                "no automation for catching and throwing the missile back (1 ki): the DM decides whether {} catches it",
                t.name
            ));
        }
        n
    } else {
        let cut = total - total / 2;
        lines.push(format!(
            "{} uses Uncanny Dodge (reaction): the attack's damage is halved ({total} → {})",
            t.name,
            total / 2
        ));
        cut
    };
    reduce(parts, cut);
    eligible::spend_reaction(enc, target_id);
    call.record_change("character", target_id, format!("{} uses {name}", t.name));
    Ok(())
}

/// [`defend`] against a spell attack that hit `target_id` (a spell attack is an attack:
/// Uncanny Dodge halves it; Deflect Missiles, for ranged weapon attacks only, does not apply).
/// The encounter is the spell's read-only view: whether the reaction was taken is returned, for
/// the caller to spend it on the real one.
pub fn defend_from_spell(
    call: &mut Call<'_>,
    enc: &Encounter,
    caster: &Character,
    target_id: &str,
    parts: &mut [DamagePart],
    lines: &mut Vec<String>,
) -> Result<bool> {
    let mut scratch = enc.clone();
    defend(call, &mut scratch, caster, target_id, false, parts, lines)?;
    Ok(scratch
        .combatant(target_id)
        .is_some_and(|c| c.economy.reaction)
        && !enc.combatant(target_id).is_some_and(|c| c.economy.reaction))
}

fn defense_name(attacker: &Character) -> String {
    format!("Multiattack Defense vs {}", attacker.name)
}

/// Multiattack Defense: the AC bonus `target` has against `attacker`'s attack now (+4 after
/// that attacker hit it this turn).
pub fn multiattack_defense_ac(attacker: &Character, target: &Character) -> i32 {
    let key = name_key(&defense_name(attacker));
    if target.effects.iter().any(|e| name_key(&e.name) == key) {
        4
    } else {
        0
    }
}

/// After `attacker` hits `target`: a target with Multiattack Defense gets +4 AC against that
/// attacker's later attacks until the end of the attacker's turn.
pub fn after_hit(
    call: &mut Call<'_>,
    attacker: &Character,
    target_id: &str,
    lines: &mut Vec<String>,
) -> Result<()> {
    let mut t = super::sheet(call, target_id)?;
    if t.dead || !t.has_rule(ClassRule::MultiattackDefense) {
        return Ok(());
    }
    let name = defense_name(attacker);
    let key = name_key(&name);
    if t.effects.iter().any(|e| name_key(&e.name) == key) {
        return Ok(());
    }
    t.effects.push(ActiveEffect {
        id: call.new_id("ef")?,
        name: name.clone(),
        source: Some(ClassRule::MultiattackDefense.label().into()),
        modifiers: vec![Modifier::new(
            ClassRule::MultiattackDefense.label(),
            ModifierKind::Note {
                text: format!("+4 AC against {}'s attacks this turn", attacker.name),
            },
        )],
        duration: Duration::Rounds { remaining: 1 },
        ends_on: Some(EndTrigger {
            at: TurnPoint::End,
            turn_of: attacker.id.clone(),
        }),
        ends_when_attacked: false,
        damaged_since_turn: false,
        grant: None,
    });
    super::put_sheet(call, &t)?;
    lines.push(format!(
        "{}'s Multiattack Defense: +4 AC against {}'s further attacks this turn",
        t.name, attacker.name
    ));
    Ok(())
}

/// Ki-Empowered Strikes: an unarmed strike of a creature with the rule counts as magical.
pub fn ki_empowered(attacker: &Character, unarmed: bool) -> bool {
    unarmed && attacker.has_rule(ClassRule::KiEmpoweredStrikes)
}

/// The effect names the paladin auras put on the creatures they reach.
pub const PROTECTION: &str = "Aura of Protection";
/// See [`PROTECTION`].
pub const DEVOTION: &str = "Aura of Devotion";

/// A paladin aura's bearer: conscious, on the map, in the fight.
/// After an edit of `c`'s hit points outside an action (`update_character`): when `c` bears a
/// paladin aura and went down or came back up (`was_up` before), the aura follows at once in
/// its active encounter, as after an attack. Lines say what changed.
pub fn after_hp_edit(call: &mut Call<'_>, c: &Character, was_up: bool) -> Result<Vec<String>> {
    if was_up == bearer_up(c)
        || !(c.has_rule(ClassRule::AuraOfProtection) || c.has_rule(ClassRule::AuraOfDevotion))
    {
        return Ok(Vec::new());
    }
    let Some(id) = super::active_encounter_of(call, &c.id)? else {
        return Ok(Vec::new());
    };
    let enc = super::load(call, Some(&id))?;
    sync_auras(call, &enc)
}

fn bearer_up(c: &Character) -> bool {
    !c.dead && c.hp > 0 && !c.has_condition(Condition::Unconscious)
}

/// Keeps the paladin auras on the creatures they reach: every combatant (the bearer apart, whose
/// own sheet has its aura) within 10 ft (30 ft with Aura Improvements) of a conscious friendly
/// paladin with Aura of Protection gets an effect adding that paladin's CHA modifier (min +1) to
/// its saving throws, the best one if several reach it; Aura of Devotion makes it immune to
/// charmed. Out of reach, or once the encounter has ended, the effects go. Lines say what
/// changed.
pub fn sync_auras(call: &mut Call<'_>, enc: &Encounter) -> Result<Vec<String>> {
    let mut lines = Vec::new();
    let active = enc.status == EncounterStatus::Active;
    let mut sheets = Vec::new();
    for cb in &enc.order {
        if let Ok(c) = super::sheet(call, &cb.character_id) {
            sheets.push((cb.clone(), c));
        }
    }
    let bearers: Vec<(usize, u32)> = sheets
        .iter()
        .enumerate()
        .filter(|(_, (cb, c))| {
            active
                && !cb.removed
                && enc.map.creature(&c.id).is_some()
                && bearer_up(c)
                && (c.has_rule(ClassRule::AuraOfProtection)
                    || c.has_rule(ClassRule::AuraOfDevotion))
        })
        .map(|(i, (_, c))| {
            let reach = if c.has_rule(ClassRule::AuraRange30) {
                30
            } else {
                10
            };
            (i, reach)
        })
        .collect();
    if bearers.is_empty()
        && !sheets.iter().any(|(_, c)| {
            c.effects
                .iter()
                .any(|e| e.name == PROTECTION || e.name == DEVOTION)
        })
    {
        return Ok(lines);
    }
    for (cb, c) in &sheets {
        let mut best: Option<(i32, String)> = None;
        let mut devotion: Option<String> = None;
        if !cb.removed {
            for (bi, reach) in &bearers {
                let (bcb, b) = &sheets[*bi];
                if b.id == c.id || bcb.side.hostile_to(cb.side) {
                    continue;
                }
                let near = eligible::distance(enc, &b.id, &c.id).is_some_and(|d| d <= *reach);
                if !near {
                    continue;
                }
                if b.has_rule(ClassRule::AuraOfProtection)
                    && !c.has_rule(ClassRule::AuraOfProtection)
                {
                    let bonus = b.effective().modifier(Ability::Charisma).max(1);
                    if best.as_ref().is_none_or(|(n, _)| bonus > *n) {
                        best = Some((bonus, b.name.clone()));
                    }
                }
                if b.has_rule(ClassRule::AuraOfDevotion) && !c.has_rule(ClassRule::AuraOfDevotion) {
                    devotion.get_or_insert_with(|| b.name.clone());
                }
            }
        }
        let wanted: Vec<ActiveEffect> = [
            best.map(|(bonus, from)| {
                (
                    PROTECTION,
                    from,
                    ModifierKind::RollBonus {
                        on: RollTarget::AllSaves,
                        amount: bonus,
                    },
                )
            }),
            devotion.map(|from| {
                (
                    DEVOTION,
                    from,
                    ModifierKind::ConditionImmunity {
                        condition: Condition::Charmed,
                    },
                )
            }),
        ]
        .into_iter()
        .flatten()
        .map(|(name, from, kind)| ActiveEffect {
            id: format!("aura-{}", name_key(name).replace(' ', "-")),
            name: name.to_string(),
            source: Some(format!("{name} ({from})")),
            modifiers: vec![Modifier::new(format!("{name} ({from})"), kind)],
            duration: Duration::UntilDispelled,
            ends_on: None,
            ends_when_attacked: false,
            damaged_since_turn: false,
            grant: None,
        })
        .collect();
        let had: Vec<&ActiveEffect> = c
            .effects
            .iter()
            .filter(|e| e.name == PROTECTION || e.name == DEVOTION)
            .collect();
        if had.len() == wanted.len() && had.iter().zip(&wanted).all(|(a, b)| **a == *b) {
            continue;
        }
        let mut s = c.clone();
        s.effects
            .retain(|e| e.name != PROTECTION && e.name != DEVOTION);
        for h in &had {
            if !wanted.iter().any(|w| w.name == h.name) {
                lines.push(format!(
                    "{} is no longer within {}",
                    s.name,
                    h.source.clone().unwrap_or_default()
                ));
            }
        }
        for w in &wanted {
            if !had.iter().any(|h| **h == *w) {
                lines.push(format!(
                    "{} is within {}",
                    s.name,
                    w.source.clone().unwrap_or_default()
                ));
            }
        }
        s.effects.extend(wanted);
        super::put_sheet(call, &s)?;
    }
    Ok(lines)
}

/// Whether `attacker`'s stat-block action `name` is a weapon attack ("Ranged Weapon Attack").
pub fn stat_block_weapon(attacker: &Character, name: &str) -> bool {
    let key = name_key(name);
    attacker.stat_block.as_ref().is_some_and(|b| {
        b.actions
            .iter()
            .find(|a| name_key(&a.name) == key)
            .is_some_and(|a| a.desc.to_lowercase().contains("weapon attack"))
    })
}

/// What a spell did that keeps a Rage going: a spell attack attacks its target
/// ([`crate::combat::Encounter::mark_attack`]); damage taken marks its target.
pub fn spell_fought(
    enc: &mut crate::combat::Encounter,
    caster_id: &str,
    targets: &[crate::magic::plan::TargetResult],
) {
    for t in targets {
        if t.attack.is_some() {
            enc.mark_attack(caster_id, &t.id);
        }
        if t.damage_taken.is_some_and(|n| n > 0)
            && let Some(cb) = enc.combatant_mut(&t.id)
        {
            cb.flags.fought = true;
        }
    }
}
