//! Attacks: the shared attack core ([`situation`], [`attack_profile`], [`strike`]) that every
//! attack in combat goes through (the Attack action, two-weapon fighting, opportunity attacks,
//! and for other modules readied attacks, legendary actions, grapple). The game master's damage
//! and healing are in `dm`.
//!
//! [`situation`] reads the grid and the combat state: distance between the two spaces, reach and
//! range (refusals beyond them), cover by the corner rule (+2/+5 to AC, total refuses), and the
//! advantage/disadvantage sources of the target's conditions, dodging, hiding, Help, long range
//! and hostiles next to a ranged attacker. The attacker's own conditions and effects are not
//! listed there: the d20 roll reads them from its effective stats. [`strike`] rolls, applies the
//! damage through the character damage pipeline, the concentration save and death at 0 HP, and
//! reports.

use tabletop_grid::{Cover, CoverOptions};
use tabletop_rules::DamageType;
use tabletop_rules::d20::{D20Request, D20Test, roll_d20_test};
use tabletop_rules::damage::DamagePart;
use tabletop_rules::dice::{self, DiceRoll};
use tabletop_rules::stats::EffectiveStats;

/// Damage onto a combatant lives in [`super::damage_to`]; re-exported so
/// `attack::apply_damage_to` keeps its path.
pub use super::damage_to::{apply_damage_to, damage_phrase};
/// Attack profiles live in [`super::profile`]; re-exported so `attack::attack_profile` and the
/// like keep their paths.
pub use super::profile::{
    AttackKind, AttackProfile, Delivery, ProfileSource, attack_profile, attack_profile_as,
    parse_reach_range,
};
use super::profile::{is_melee_item, signed_flat};
/// The data of an attack lives in [`super::strike`]; re-exported so `attack::StrikeResult` and
/// the like keep their paths.
pub use super::strike::{METRIC, Situation, StrikeOptions, StrikeResult};
use super::{ActionOutcome, ActionType, Turn, Who};
use crate::combat;
use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::character::Character;
use crate::model::encounter::ActionCost;
use crate::model::encounter::{Encounter, Side};
use crate::model::inventory::{Slot, WeaponProperty};
use crate::model::names::name_key;

fn side_of(enc: &Encounter, id: &str) -> Side {
    enc.combatant(id).map_or(Side::Neutral, |c| c.side)
}

fn incapacitated(stats: &EffectiveStats) -> bool {
    stats.is_incapacitated()
}

/// The situation of an attack of `kind` by `attacker` on `target` (both combatants of `enc`,
/// both on its map).
pub fn situation(
    call: &Call<'_>,
    enc: &Encounter,
    attacker: &Character,
    target: &Character,
    kind: AttackKind,
) -> Result<Situation> {
    for c in [attacker, target] {
        if enc.map.creature(&c.id).is_none() {
            return Err(EngineError::Rule(format!(
                "{} is not on the battle map (dead or removed); it can neither attack nor be attacked",
                c.name
            )));
        }
    }
    let distance_ft = enc
        .map
        .creature_distance_ft(&attacker.id, &target.id, METRIC)?;
    let within_5_ft = distance_ft <= 5;
    let mut s = Situation {
        distance_ft,
        within_5_ft,
        cover: Cover::None,
        cover_bonus: 0,
        advantage: Vec::new(),
        disadvantage: Vec::new(),
        crit_on_hit: Vec::new(),
        refusals: Vec::new(),
        cancelled: Vec::new(),
        notes: Vec::new(),
    };
    match (kind.delivery, kind.range_ft) {
        (Delivery::Melee, _) | (Delivery::Ranged, None) => {
            if distance_ft > kind.reach_ft {
                s.refusals.push(format!(
                    "{} is {distance_ft} ft from {}, beyond its {} ft reach; move closer first",
                    target.name, attacker.name, kind.reach_ft
                ));
            }
        }
        (Delivery::Ranged, Some((normal, long))) => {
            if distance_ft > long {
                s.refusals.push(format!(
                    "{} is {distance_ft} ft from {}, beyond the long range of {long} ft; move closer first",
                    target.name, attacker.name
                ));
            } else if distance_ft > normal {
                s.disadvantage.push(format!(
                    "beyond normal range ({distance_ft} ft > {normal} ft)"
                ));
            }
            // A hostile within 5 ft that sees the attacker and is not incapacitated spoils a
            // ranged attack.
            let mine = side_of(enc, &attacker.id);
            for cb in &enc.order {
                if cb.removed || cb.character_id == attacker.id || !cb.side.hostile_to(mine) {
                    continue;
                }
                let Ok(d) = enc
                    .map
                    .creature_distance_ft(&attacker.id, &cb.character_id, METRIC)
                else {
                    continue;
                };
                if d > 5 {
                    continue;
                }
                let Ok(h) = combat::sheet(call, &cb.character_id) else {
                    continue;
                };
                if !h.dead
                    && !incapacitated(&h.effective())
                    && super::vision::can_see(enc, &h, attacker)
                {
                    s.disadvantage.push(format!(
                        "ranged attack with a hostile within 5 ft ({})",
                        h.name
                    ));
                    break;
                }
            }
        }
    }
    let cover = enc.map.creature_cover(
        &attacker.id,
        &target.id,
        &CoverOptions {
            creatures_give_cover: true,
        },
    )?;
    s.cover = cover.cover;
    match cover.ac_bonus {
        Some(b) => s.cover_bonus = b,
        None => s.refusals.push(format!(
            "{} has total cover from {}; it cannot be targeted",
            target.name, attacker.name
        )),
    }
    s.refusals
        .extend(crate::magic::combat6::sealed_off(attacker, target));
    s.refusals
        .extend(crate::combat::charm::refusal(attacker, target, "attack"));
    let t_stats = target.effective();
    let (adv, dis, crit) = t_stats.attacks_against.for_attacker(within_5_ft);
    s.advantage
        .extend(adv.into_iter().map(|r| format!("target {r}")));
    s.disadvantage
        .extend(dis.into_iter().map(|r| format!("target {r}")));
    s.crit_on_hit
        .extend(crit.into_iter().map(|r| format!("target {r}")));
    // Feral Senses: not seeing the target imposes no disadvantage.
    let feral = attacker.has_rule(crate::catalog::class_rules::ClassRule::FeralSenses);
    if let Some(t) = enc.combatant(&target.id) {
        if t.flags.dodging && !incapacitated(&t_stats) {
            s.disadvantage.push("target dodging".into());
        }
        if t.flags.hidden.is_some() && !feral {
            s.disadvantage.push("target hidden".into());
        }
    }
    // Squeezing through a space one size smaller (a Large ogre in a 5-ft gap).
    if enc.map.is_squeezing(&attacker.id) {
        s.disadvantage
            .push(format!("{} squeezing into a smaller space", attacker.name));
    }
    if enc.map.is_squeezing(&target.id) {
        s.advantage
            .push(format!("{} squeezing into a smaller space", target.name));
    }
    // Light, sight-blocking features and senses: who sees whom.
    if let Some(why) = super::vision::unseen(enc, attacker, &target.id).filter(|_| !feral) {
        s.disadvantage.push(format!(
            "{} can't see {} ({why})",
            attacker.name, target.name
        ));
    }
    if let Some(why) = super::vision::unseen(enc, target, &attacker.id) {
        s.advantage.push(format!(
            "{} can't see {} ({why})",
            target.name, attacker.name
        ));
    }
    if let Some(a) = enc.combatant(&attacker.id) {
        if a.flags.hidden.is_some() {
            s.advantage.push("attacker hidden (unseen)".into());
        }
        if a.flags.helped_against.contains(&target.id) {
            s.advantage.push("helped (Help action)".into());
        }
    }
    s.advantage.extend(crate::combat::traits::pack_tactics(
        call, enc, attacker, target,
    ));
    if kind.delivery == Delivery::Melee {
        s.advantage
            .extend(crate::combat::traits::blood_frenzy(attacker, target));
    }
    // Invisibility against a creature that perceives it anyway (blindsight, truesight).
    super::perceive::invisibility(enc, attacker, target, &mut s);
    crate::magic::wards::adjust_situation(attacker, target, &mut s.disadvantage);
    Ok(s)
}

impl StrikeOptions {
    /// What a paused strike keeps.
    pub fn resume(&self) -> super::reactions::shield::ResumeStrike {
        super::reactions::shield::ResumeStrike {
            ability: self.ability,
            force: self.force,
            melee_only: self.melee_only,
            off_hand: self.off_hand,
            two_weapon_style: self.two_weapon_style,
            label: self.label.clone(),
            smite_slot: self.smite_slot,
            decline_sneak_attack: self.decline_sneak_attack,
            decided: self.decided.clone(),
        }
    }
}

/// Converts a rolled damage expression into pipeline parts; untyped parts take `default_type`.
pub fn damage_parts(roll: &DiceRoll, default_type: Option<DamageType>) -> Vec<DamagePart> {
    roll.damage_by_type()
        .into_iter()
        .map(|(t, n)| {
            DamagePart::new(
                t.or(default_type),
                u32::try_from(n.max(0)).unwrap_or(u32::MAX),
            )
        })
        .collect()
}

/// One attack roll by `attacker_id` on `target_id` with `weapon` (see [`attack_profile`]):
/// refused beyond reach or range and behind total cover (unless `opts.force`), rolled with every
/// advantage source of [`situation`] and the attacker's sheet against AC + cover; on a hit the
/// damage (dice doubled on a crit) goes through the damage pipeline, concentration and death.
/// Attacking reveals a hidden attacker and uses up its Help advantage against the target.
/// Ammunition and thrown weapons are spent ([`super::ammo`]).
pub fn strike(
    call: &mut Call<'_>,
    enc: &mut Encounter,
    attacker_id: &str,
    target_id: &str,
    weapon: Option<&str>,
    opts: &StrikeOptions,
) -> Result<StrikeResult> {
    let spend = super::ammo::before(call, enc, attacker_id, target_id, weapon, opts)?;
    let mut out = strike_core(call, enc, attacker_id, target_id, weapon, opts)?;
    super::ammo::after(call, enc, spend, &mut out)?;
    if let Some(cb) = enc.combatant_mut(attacker_id) {
        cb.economy.attack_made = true;
    }
    Ok(out)
}

fn strike_core(
    call: &mut Call<'_>,
    enc: &mut Encounter,
    attacker_id: &str,
    target_id: &str,
    weapon: Option<&str>,
    opts: &StrikeOptions,
) -> Result<StrikeResult> {
    let attacker = combat::sheet(call, attacker_id)?;
    let target = combat::sheet(call, target_id)?;
    if attacker.id == target.id {
        return Err(EngineError::invalid(
            "targetId",
            format!(
                "{} cannot attack itself; name another target",
                attacker.name
            ),
        ));
    }
    if attacker.dead {
        return Err(EngineError::Rule(format!(
            "{} is dead and cannot attack",
            attacker.name
        )));
    }
    if target.dead {
        return Err(EngineError::Rule(format!(
            "{} is already dead; choose a living target",
            target.name
        )));
    }
    let (attacker, mut ward_lines) = super::sanctuary::attacker_side(call, attacker)?;
    let mut profile = attack_profile_as(
        call,
        &attacker,
        weapon,
        opts.ability,
        opts.melee_only,
        opts.off_hand,
    )?;
    let distance = enc
        .map
        .creature_distance_ft(&attacker.id, &target.id, METRIC)
        .ok();
    let kind = profile.kind_at(distance.unwrap_or(5));
    profile.for_kind(kind);
    if opts.off_hand && opts.two_weapon_style {
        // The Two-Weapon Fighting style adds the (positive) ability modifier the off hand lacks.
        if let Some(D20Test::Attack {
            ability: Some(a), ..
        }) = profile.test
        {
            let m = attacker.effective().modifier(a);
            if m > 0 {
                let t = first_damage_type(&profile.damage).unwrap_or(DamageType::Bludgeoning);
                profile.damage.push_str(&signed_flat(m, t));
            }
        }
    }
    let mut sit = situation(call, enc, &attacker, &target, kind)?;
    // A melee attack (Frenzy's melee weapon attack, Martial Arts' unarmed strike): not one
    // thrown at range.
    if opts.melee_only && kind.delivery != Delivery::Melee {
        sit.refusals.insert(
            0,
            format!(
                "this attack must be a melee attack, and {} with {} at {} ft would be a ranged one; move within reach first",
                attacker.name,
                profile.name,
                distance.unwrap_or(5)
            ),
        );
    }
    let mut forced = Vec::new();
    if let Some(first) = sit.refusals.first() {
        if !opts.force {
            return Err(EngineError::Rule(format!(
                "{first} (pass force: true to override as the game master)"
            )));
        }
        forced.extend(sit.refusals.iter().cloned());
    }
    if let Some(lost) =
        super::sanctuary::check(call, &attacker, &target, &profile.name, kind, &sit)?
    {
        return Ok(lost);
    }
    let (a_stats, fear) = crate::combat::fear::stats_for_roll(Some(enc), &attacker);
    let a_stats = sit.attacker_stats(a_stats);
    ward_lines.extend(fear);
    ward_lines.extend(sit.notes.iter().cloned());
    let t_stats = target.effective();
    // Worn magic against ranged attacks (Arrow-Catching Shield +2 AC).
    let ranged = kind.delivery == Delivery::Ranged;
    let ranged_ac = super::gear_magic::ranged_ac(&target, ranged);
    // Multiattack Defense: +4 AC against an attacker that already hit it this turn.
    let defense = crate::combat::martial::multiattack_defense_ac(&attacker, &target);
    let ac = t_stats.armor_class.value + sit.cover_bonus + ranged_ac + defense;
    let label = opts.label.clone().map_or_else(
        || format!("{} attack with {}", attacker.name, profile.name),
        |l| format!("{l}: {} with {}", attacker.name, profile.name),
    );
    let mut req = D20Request::new(profile.test.unwrap_or(D20Test::Attack {
        ability: None,
        proficient: false,
    }))
    .dc(ac)
    .labelled(label);
    for b in &profile.bonuses {
        req = req.bonus_part(b);
    }
    if opts.bonus != 0 {
        req = req.bonus("situational bonus", opts.bonus);
    }
    let elusive = super::riders::elusive(&target);
    for a in sit.advantage.iter().chain(&opts.advantage) {
        req = req.advantage(a.clone());
    }
    // Reckless Attack: a melee weapon attack using Strength, on the attacker's own turn.
    if kind.delivery == Delivery::Melee
        && matches!(
            profile.test,
            Some(D20Test::Attack {
                ability: Some(tabletop_rules::Ability::Strength),
                ..
            })
        )
        && enc.current().is_some_and(|c| c.character_id == attacker.id)
    {
        for a in &a_stats.melee_strength_advantage {
            req = req.advantage(a.clone());
        }
    }
    if let Some(line) = elusive.filter(|_| !req.advantage.is_empty()) {
        req.advantage.clear();
        ward_lines.push(line);
    }
    for d in sit
        .disadvantage
        .iter()
        .chain(&opts.disadvantage)
        .chain(&profile.disadvantage)
    {
        req = req.disadvantage(d.clone());
    }
    req.crit_on_hit.extend(sit.crit_on_hit.iter().cloned());
    req.crit_threshold = super::riders::crit_min(&attacker, &profile);
    let mut mirror = None;
    if opts.preset_roll.is_none()
        && let Some(r) = super::mirror::check(
            call,
            &attacker,
            &target,
            &profile.name,
            kind,
            &sit,
            &req,
            &mut mirror,
        )?
    {
        return Ok(r);
    }
    let mut roll = match &opts.preset_roll {
        Some(r) => super::reactions::shield::replay(r, ac),
        None => {
            let r = roll_d20_test(&a_stats, &req, call.rng()?);
            call.record_roll(&r);
            r
        }
    };
    let mut lines: Vec<String> = mirror.into_iter().chain([roll.summary()]).collect();
    lines.extend(ward_lines);
    if defense != 0 {
        lines.push(format!(
            "{}'s Multiattack Defense: +{defense} AC against {} (AC {ac}).",
            target.name, attacker.name
        ));
    }
    if ranged_ac != 0 {
        lines.push(format!(
            "{}'s magic gives {ranged_ac:+} AC against ranged attacks (AC {ac}).",
            target.name
        ));
    }
    // Effects that last until the target is next attacked (Guiding Bolt) are used up.
    if target.effects.iter().any(|e| e.ends_when_attacked) {
        let mut t = combat::sheet(call, &target.id)?;
        lines.extend(t.spend_on_attacked());
        combat::put_sheet(call, &t)?;
    }
    lines.extend(sit.cover_line(&target.name, t_stats.armor_class.value, ac));
    // Attacking gives a hidden attacker away; the Help advantage is used up.
    if let Some(cb) = enc.combatant_mut(&attacker.id) {
        if cb.flags.hidden.take().is_some() {
            lines.push(format!("{} is no longer hidden.", attacker.name));
        }
        cb.flags.help_used(Some(target.id.as_str()));
    }
    enc.mark_attack(&attacker.id, &target.id);
    // A hit may be answered by the target's Shield.
    let mut paused = None;
    if roll.success == Some(true) {
        use super::reactions::shield::{ShieldStep, on_hit};
        let resume = opts.resume();
        match on_hit(
            call,
            enc,
            &attacker,
            &target,
            &mut roll,
            ac,
            &profile.name,
            &resume,
        )? {
            ShieldStep::Hit => {}
            ShieldStep::Missed(l) => lines.extend(l),
            ShieldStep::Paused(h) => paused = Some(h),
        }
    }
    let hit = roll.success == Some(true) && paused.is_none();
    // Armor that turns critical hits into normal hits (Adamantine Armor).
    let crit_proof = super::gear_magic::crit_stopper(&target);
    let critical = hit && roll.critical && crit_proof.is_none();
    if hit
        && roll.critical
        && let Some(armor) = &crit_proof
    {
        lines.push(format!(
            "{}'s {armor} turns the critical hit into a normal hit.",
            target.name
        ));
    }
    let mut out = StrikeResult {
        attacker_id: attacker.id.clone(),
        attacker: attacker.name.clone(),
        target_id: target.id.clone(),
        target: target.name.clone(),
        weapon: profile.name.clone(),
        kind,
        situation: sit,
        roll,
        hit,
        critical,
        damage_roll: None,
        damage: None,
        concentration: None,
        target_hp: target.hp,
        target_status: target.status().to_string(),
        headline: String::new(),
        lines,
        forced,
        paused: paused.is_some(),
    };
    if let Some(h) = paused {
        out.headline = h;
        return Ok(out);
    }
    if !hit {
        let total = out.roll.total.unwrap_or(0);
        out.headline = if out.roll.natural_1 {
            format!("Miss (natural 1 vs AC {ac}).")
        } else {
            format!("Miss ({total} vs AC {}).", out.roll.dc.unwrap_or(ac))
        };
        return Ok(out);
    }
    // A melee weapon hit (an unarmed strike too) opens what needs one (Stunning Strike).
    if kind.delivery == Delivery::Melee && !matches!(profile.source, ProfileSource::StatBlock) {
        let turn = (enc.round, enc.turn);
        if let Some(cb) = enc.combatant_mut(&attacker.id) {
            cb.flags.record_melee_hit(turn, &target.id);
        }
    }
    // Class-feature riders (Sneak Attack, Divine Smite) from the attacker's derived sheet.
    let mut attacker = attacker;
    let t = first_damage_type(&profile.damage).unwrap_or(DamageType::Bludgeoning);
    let mode = out.roll.mode;
    let charges = attacker.effects.len();
    let riders = super::riders::on_hit(
        call,
        enc,
        &mut attacker,
        &target,
        &profile,
        kind,
        mode,
        opts.smite_slot,
        opts.decline_sneak_attack,
        t,
    )?;
    profile.damage.push_str(&riders.expr);
    out.lines.extend(riders.lines);
    // A weapon's extra damage on a natural 20 (Vicious Weapon 7, Sword of Sharpness 14).
    if out.roll.natural_20
        && let ProfileSource::Weapon { item_id } = &profile.source
        && let Some((expr, line)) = super::gear_magic::natural_20(&attacker, item_id, t)
    {
        profile.damage.push_str(&expr);
        out.lines.push(line);
    }
    // A slot spent (Divine Smite) or a spell charge used up (Branding Smite).
    if opts.smite_slot.is_some() || attacker.effects.len() != charges {
        combat::put_sheet(call, &attacker)?;
    }
    // An attack that deals no damage of its own (a roper's tendril: its hit grapples).
    let no_damage = profile.damage.trim().is_empty();
    let mut expr = dice::parse(match profile.damage.trim() {
        "" => "0",
        d => d,
    })?;
    if critical {
        expr = expr.with_doubled_dice()?;
        if let Some((more, line)) = super::riders::brutal_critical(&attacker, &profile, kind) {
            expr = dice::parse(&format!("{}{more}", expr.normalized()))?;
            out.lines.push(line);
        }
    }
    let droll = expr.roll(call.rng()?)?;
    call.record_roll(&droll);
    out.lines.extend((!no_damage).then(|| {
        format!(
            "Damage{}: {}",
            if critical {
                " (critical: dice doubled)"
            } else {
                ""
            },
            droll.summary()
        )
    }));
    let parts = damage_parts(&droll, None);
    // Defenses against nonmagical weapons (a werewolf and a mundane sword).
    let item_id = match &profile.source {
        ProfileSource::Weapon { item_id } => Some(item_id.as_str()),
        _ => None,
    };
    let magical = crate::combat::traits::magical_attack(&attacker, item_id)
        || crate::combat::martial::ki_empowered(
            &attacker,
            matches!(profile.source, ProfileSource::Unarmed),
        );
    let silvered = crate::inventory::silvered::is_silvered(&attacker, item_id)
        .then_some(profile.name.as_str());
    let parts = crate::combat::traits::nonmagical_defense(
        &target,
        magical,
        silvered,
        parts,
        &mut out.lines,
    );
    // Resistance to ranged weapon attacks (Shield of Missile Attraction).
    let ranged_weapon = ranged && item_id.is_some();
    let mut parts =
        super::gear_magic::ranged_resistance(&target, ranged_weapon, parts, &mut out.lines);
    let strength = crate::magic::combat6::uses_strength(
        profile.test,
        profile.reach_ft.is_some()
            && crate::combat::martial::stat_block_weapon(&attacker, &profile.name),
    );
    crate::magic::combat6::weapon_damage(call, &attacker, strength, &mut parts, &mut out.lines)?;
    // The target's reaction against the hit (Deflect Missiles, Uncanny Dodge).
    let ranged_weapon_attack = ranged
        && (item_id.is_some()
            || crate::combat::martial::stat_block_weapon(&attacker, &profile.name));
    crate::combat::martial::defend(
        call,
        enc,
        &attacker,
        &target.id,
        ranged_weapon_attack,
        &mut parts,
        &mut out.lines,
    )?;
    // One source of damage: the hit and its riders' damage force one concentration save, made
    // once they all landed.
    let mut dealt = Vec::new();
    let (r, t) = super::damage_to::apply_damage_deferring(
        call, enc, &target.id, &parts, critical, &mut dealt,
    )?;
    // No damage of its own and none added: no "takes 0" line.
    out.lines
        .extend(dealt.into_iter().filter(|_| !no_damage || r.total > 0));
    crate::combat::martial::after_hit(call, &attacker, &t.id, &mut out.lines)?;
    if r.total > 0 {
        crate::combat::charm::harm_ends(call, enc, attacker_id, &t.id, &mut out.lines)?;
    }
    // Dark One's Blessing: the attacker dropped a hostile creature.
    if t.hp == 0
        && attacker
            .derived
            .as_ref()
            .is_some_and(|d| d.kill_temp_hp.is_some())
    {
        let side = |x: &str| enc.combatant(x).map(|c| c.side);
        let hostile =
            matches!((side(attacker_id), side(&t.id)), (Some(a), Some(b)) if a.hostile_to(b));
        let mut me = combat::sheet(call, attacker_id)?;
        if let Some(line) = crate::magic::blessing::on_drop(&mut me, &t, target.hp, hostile) {
            combat::put_sheet(call, &me)?;
            out.lines.push(line);
        }
    }
    // A stat-block attack's saving-throw rider on a hit (a wolf's bite: STR save or prone; a
    // wyvern's sting: poison damage, half on a save).
    let mut t = t;
    let mut taken = r.total;
    if !t.dead
        && let Some((after, more)) = super::hit_save::resolve(
            call,
            enc,
            &attacker,
            &profile.name,
            &t.id,
            &r,
            &mut out.lines,
        )?
    {
        t = after;
        taken = taken.saturating_add(more);
    }
    let check = super::damage_to::concentration_after(call, &t.id, taken, &mut out.lines)?;
    if check.is_some() {
        t = combat::sheet(call, &t.id)?;
    }
    let rider = if taken > r.total {
        format!(
            ", and {} more from {}'s rider (→ {} HP)",
            taken - r.total,
            profile.name,
            t.hp
        )
    } else if t.dead && !r.dead {
        format!(", and dies of {}'s rider", profile.name)
    } else {
        String::new()
    };
    let hit = if critical { "Critical hit!" } else { "Hit!" };
    out.headline = if no_damage && taken == 0 {
        // What the hit did instead (a web's restrained, a tendril's grapple).
        let new: Vec<String> = t
            .conditions
            .iter()
            .filter(|e| !target.conditions.contains(e))
            .map(|e| e.condition.to_string())
            .collect();
        if new.is_empty() {
            format!("{hit} {} deals {} no damage.", profile.name, t.name)
        } else {
            let new = new.join(" and ");
            format!("{hit} {} is {new} ({}).", t.name, profile.name)
        }
    } else {
        format!("{hit} {} takes {}{rider}.", t.name, damage_phrase(&r))
    };
    out.target_hp = t.hp;
    out.target_status = t.status().to_string();
    out.damage_roll = Some(droll);
    out.damage = Some(r);
    out.concentration = check;
    Ok(out)
}

fn first_damage_type(expr: &str) -> Option<DamageType> {
    let i = expr.find('[')?;
    let j = expr[i..].find(']')?;
    expr[i + 1..i + j].trim().parse().ok()
}

/// Attacks per Attack action: Fighter 5/11/20 → 2/3/4; any "Extra Attack" feature → 2.
pub fn attacks_per_action(c: &Character) -> u32 {
    if let Some(d) = &c.derived
        && d.attacks_per_action > 0
    {
        return d.attacks_per_action;
    }
    let fighter = c
        .class
        .as_deref()
        .is_some_and(|k| name_key(k).contains("fighter"));
    if fighter {
        return match c.level {
            20.. => 4,
            11.. => 3,
            5.. => 2,
            _ => 1,
        };
    }
    if c.features
        .iter()
        .any(|f| name_key(f).contains("extra attack"))
    {
        return 2;
    }
    1
}

pub(super) fn resolve_targets(enc: &Encounter, req: &super::ActionRequest) -> Result<Vec<String>> {
    let mut whos: Vec<&Who> = Vec::new();
    if !req.target.is_empty() {
        whos.push(&req.target);
    }
    whos.extend(req.targets.iter().filter(|w| !w.is_empty()));
    whos.iter()
        .map(|w| {
            combat::find_combatant(enc, w.id.as_deref(), w.name.as_deref(), "targetId")
                .map(|c| c.character_id.clone())
        })
        .collect()
}

pub(super) fn strike_options(req: &super::ActionRequest) -> StrikeOptions {
    StrikeOptions {
        ability: req.ability,
        advantage: if req.advantage {
            vec!["granted by the game master".into()]
        } else {
            Vec::new()
        },
        disadvantage: if req.disadvantage {
            vec!["imposed by the game master".into()]
        } else {
            Vec::new()
        },
        bonus: req.bonus,
        force: req.force,
        smite_slot: req.slot_level,
        decline_sneak_attack: req.sneak_attack == Some(false),
        ..Default::default()
    }
}

/// The Attack action (one attack of it; Extra Attack spreads the action over several calls),
/// or the off-hand attack of two-weapon fighting (a stat block's Multiattack is
/// [`super::multiattack`]'s).
pub fn attack(call: &mut Call<'_>, turn: &mut Turn<'_>) -> Result<ActionOutcome> {
    let Some(actor) = turn.actor.clone() else {
        return Err(EngineError::invalid(
            "actorId",
            "say who attacks (actorId or actorName)",
        ));
    };
    let req = turn.req;
    let targets = resolve_targets(&turn.encounter, req)?;
    if targets.is_empty() {
        return Err(EngineError::invalid(
            "targetId",
            "say whom to attack (targetId or targetName)",
        ));
    }
    let is_twf = req.action_type == Some(ActionType::TwoWeaponAttack);
    if is_twf {
        return two_weapon(call, turn, &actor, &targets[0]);
    }
    let mut opts = strike_options(req);
    // A bonus-action attack of a character is a melee one (Frenzy, Martial Arts); two-weapon
    // fighting's, which may be thrown, is `two_weapon_attack`.
    opts.melee_only = turn.cost == ActionCost::BonusAction && actor.action_block().is_none();
    if targets.len() > 1 {
        let (strikes, notes) = super::extra::per_target(call, turn, &actor, &targets, &opts)?;
        let mut out = outcome_of(&strikes);
        out.lines.extend(notes);
        return Ok(out);
    }
    let weapon = super::costs::attack_weapon(call, &actor, &turn.encounter, req, turn.cost);
    let s = strike(
        call,
        &mut turn.encounter,
        &actor.id,
        &targets[0],
        weapon,
        &opts,
    )?;
    // Extra Attack: the first attack of the action sets how many follow.
    if turn.cost == ActionCost::Action
        && let Some(cb) = turn.encounter.combatant_mut(&actor.id)
    {
        if cb.economy.attacks_left > 0 {
            cb.economy.attacks_left -= 1;
        } else {
            cb.economy.attacks_left = attacks_per_action(&actor).saturating_sub(1);
        }
        cb.economy.attacked = true;
    }
    Ok(outcome_of(&[s]))
}

fn outcome_of(strikes: &[StrikeResult]) -> ActionOutcome {
    let mut out = ActionOutcome {
        headline: strikes
            .iter()
            .map(|s| s.headline.clone())
            .collect::<Vec<_>>()
            .join(" "),
        ..Default::default()
    };
    for s in strikes {
        if strikes.len() > 1 {
            out.lines
                .push(format!("— {} → {}: {}", s.weapon, s.target, s.headline));
        }
        out.lines.extend(s.lines.iter().cloned());
        out.forced.extend(s.forced.iter().cloned());
    }
    out.details = serde_json::json!({ "attacks": strikes });
    out
}

fn two_weapon(
    call: &mut Call<'_>,
    turn: &mut Turn<'_>,
    actor: &Character,
    target: &str,
) -> Result<ActionOutcome> {
    let req = turn.req;
    let mut forced = Vec::new();
    let mut rule = |ok: bool, why: String| super::forced::rule(ok, req.force, &mut forced, why);
    let attacked = turn
        .encounter
        .combatant(&actor.id)
        .is_some_and(|c| c.economy.attacked);
    rule(
        attacked,
        format!(
            "{} must take the Attack action this turn before the off-hand attack",
            actor.name
        ),
    )?;
    let light_melee = |slot: Slot| {
        actor
            .inventory
            .items
            .iter()
            .find(|it| it.slot == Some(slot) && it.weapon.is_some())
            .filter(|it| {
                is_melee_item(it)
                    && it
                        .weapon
                        .as_ref()
                        .is_some_and(|w| w.has(WeaponProperty::Light))
            })
    };
    let main = light_melee(Slot::Mainhand);
    let off = light_melee(Slot::Offhand);
    rule(
        main.is_some() && off.is_some(),
        format!(
            "two-weapon fighting needs a light melee weapon in each hand; {} holds none or a non-light one (equip them with manage_inventory)",
            actor.name
        ),
    )?;
    let weapon = match (req.weapon.as_deref(), off) {
        (Some(w), _) => Some(w.to_string()),
        (None, Some(o)) => Some(o.id.clone()),
        (None, None) => None,
    };
    let style = actor.features.iter().any(|f| {
        name_key(f).contains("two-weapon fighting") || name_key(f).contains("two weapon fighting")
    });
    let mut opts = strike_options(req);
    opts.off_hand = true;
    opts.two_weapon_style = style;
    opts.label = Some("Off-hand attack".into());
    let s = strike(
        call,
        &mut turn.encounter,
        &actor.id,
        target,
        weapon.as_deref(),
        &opts,
    )?;
    let mut out = outcome_of(&[s]);
    out.forced.extend(forced);
    Ok(out)
}
