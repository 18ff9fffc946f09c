//! The life-and-creation spells (issue 17, lane "spells6c"): a `kind = "life"` entry's
//! [`LifeSpec`] applied through the casting tools. Inventory spells are in [`super::life6_items`];
//! here are the ones that act on creatures: Gentle Repose (the corpse's revival clock stops,
//! [`repose_seconds`]), Speak with Dead (once in 10 days per corpse), Reincarnate (a new race
//! rolled on the SRD's d100 table, the sheet re-derived), Contact Other Plane (the caster's
//! DC 15 INT save, 6d6 psychic and insanity until a long rest), Dream (a nightmare spoils the
//! target's next rest, [`nightmare`]), Awaken, and Wish (duplicating a spell of 8th level or
//! lower, [`wish`], or the stress of any other wish).

use tabletop_rules::d20::{D20Request, D20Test, roll_d20_test};
use tabletop_rules::damage::DamagePart;
use tabletop_rules::modifiers::ModifierKind;
use tabletop_rules::{Ability, Condition, DamageType};

use super::life6_items::{self as items, effect};
use super::plan::{CastPlan, CastReport};
use super::targets::{creature_type, each_target};
use crate::catalog::life6::LifeSpec;
use crate::catalog::spells::SpellEntry;
use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::character::{Character, ConditionEntry};
use crate::model::effects::Duration;
use crate::model::memory::{DAY, ROUND};

/// The effect Gentle Repose leaves on a corpse.
pub use crate::combat::death_time::REPOSE;
/// The effect that keeps a corpse from being questioned again (Speak with Dead).
pub const QUESTIONED: &str = "Questioned (Speak with Dead)";
/// The effect a Dream nightmare leaves until the target's next rest.
pub const NIGHTMARE: &str = "Nightmare (Dream)";
/// The effect of a wish beyond duplicating a spell that cost the caster Wish for good.
pub const WISH_LOST: &str = "Wish lost";
/// The stress of a wish beyond duplicating a spell, until a long rest.
pub const WISH_STRESS: &str = "Wish stress";

/// Resolves a `kind = "life"` casting.
pub fn resolve(
    call: &mut Call<'_>,
    caster: &mut Character,
    plan: &CastPlan,
    e: &SpellEntry,
    report: &mut CastReport,
) -> Result<()> {
    let Some(life) = &e.life else {
        return Ok(());
    };
    match life {
        LifeSpec::Create { items: made } => items::create(call, caster, plan, made, report),
        LifeSpec::Water { gallons, per_slot } => {
            items::water(call, caster, plan, (*gallons, *per_slot), report)
        }
        LifeSpec::Purify => items::purify(call, caster, plan, report),
        LifeSpec::Mend => items::mend(call, caster, plan, report),
        LifeSpec::Fabricate => items::fabricate(call, caster, plan, report),
        LifeSpec::GentleRepose { days } => gentle_repose(call, caster, plan, *days, report),
        LifeSpec::SpeakWithDead {
            questions,
            rounds,
            again_days,
        } => speak_with_dead(
            call,
            caster,
            plan,
            (*questions, *rounds, *again_days),
            report,
        ),
        LifeSpec::Reincarnate { within_days } => {
            reincarnate(call, caster, plan, e, *within_days, report)
        }
        LifeSpec::CasterSave {
            save,
            dc,
            dice,
            damage_type,
            effect,
        } => caster_save(
            call,
            caster,
            plan,
            (*save, *dc),
            (dice, *damage_type),
            effect,
            report,
        ),
        LifeSpec::Dream { save, .. } => dream(call, caster, plan, *save, report),
        LifeSpec::Wish { .. } => wish_other(call, caster, plan, report),
        LifeSpec::Awaken { int, charm_days } => {
            awaken(call, caster, plan, e, (*int, *charm_days), report)
        }
        LifeSpec::Simulacrum => super::life6_copy::simulacrum(call, caster, plan, e, report),
    }
}

fn need_targets(plan: &CastPlan, what: &str) -> Result<()> {
    if plan.targets.is_empty() {
        return Err(EngineError::invalid(
            "targets",
            format!(
                "say {what} {} acts on: targets [{{id|name}}]",
                plan.spell.name
            ),
        ));
    }
    Ok(())
}

fn rounds_of_days(days: u32) -> u32 {
    days.saturating_mul(u32::try_from(DAY / ROUND).unwrap_or(14_400))
}

pub use crate::combat::death_time::repose_seconds;

/// Gentle Repose: the corpse's days under the spell do not count against revival limits.
fn gentle_repose(
    call: &mut Call<'_>,
    caster: &mut Character,
    plan: &CastPlan,
    days: u32,
    report: &mut CastReport,
) -> Result<()> {
    need_targets(plan, "which corpse")?;
    let spell = plan.spell.name.clone();
    let length = u64::from(days).saturating_mul(DAY);
    each_target(call, caster, plan, report, |call, caster, t, tr, _| {
        if !t.dead {
            return Ok((
                format!("{} is not dead; {spell} keeps only a corpse", t.name),
                false,
            ));
        }
        // A renewal counts only the time added beyond what is still running.
        let left = repose_seconds(t);
        let shift = length.saturating_sub(left);
        if let Some(at) = t.died_at.as_mut() {
            *at = at.saturating_add(shift);
        }
        t.effects.retain(|x| x.name != REPOSE);
        let ef = effect(
            call,
            REPOSE,
            format!("{spell} ({})", caster.name),
            Vec::new(),
            Duration::Rounds {
                remaining: rounds_of_days(days),
            },
        )?;
        t.effects.push(ef);
        tr.effect = Some(REPOSE.into());
        Ok((
            format!(
                "{}'s remains are kept from decay for {days} days: those days do not count against revival spells' time limits{}",
                t.name,
                if t.died_at.is_none() {
                    " (no recorded time of death: the DM confirms the limit)"
                } else {
                    ""
                }
            ),
            true,
        ))
    })
}

/// Speak with Dead: a dead creature, not undead, not questioned within `again_days`.
fn speak_with_dead(
    call: &mut Call<'_>,
    caster: &mut Character,
    plan: &CastPlan,
    (questions, rounds, again_days): (u32, u32, u32),
    report: &mut CastReport,
) -> Result<()> {
    need_targets(plan, "which corpse")?;
    let spell = plan.spell.name.clone();
    for id in super::targets::unique(&plan.targets) {
        let t = crate::combat::sheet(call, &id)?;
        let why = if !t.dead {
            Some(format!("{} is alive; {spell} questions a corpse", t.name))
        } else if creature_type(&t).is_some_and(|k| k.starts_with("undead")) {
            Some(format!("{} is undead; {spell} fails on undead", t.name))
        } else if t.effects.iter().any(|x| x.name == QUESTIONED) {
            Some(format!(
                "{spell} was cast on {}'s corpse within the last {again_days} days; it fails",
                t.name
            ))
        } else {
            None
        };
        if let Some(w) = why {
            return Err(EngineError::Rule(w));
        }
    }
    each_target(call, caster, plan, report, |call, caster, t, tr, _| {
        t.effects
            .retain(|x| x.name != QUESTIONED && x.name != spell);
        let talk = effect(
            call,
            &spell,
            format!("{spell} ({})", caster.name),
            Vec::new(),
            Duration::Rounds { remaining: rounds },
        )?;
        let mark = effect(
            call,
            QUESTIONED,
            format!("{spell} ({})", caster.name),
            Vec::new(),
            Duration::Rounds {
                remaining: rounds_of_days(again_days),
            },
        )?;
        t.effects.push(talk);
        t.effects.push(mark);
        tr.effect = Some(spell.clone());
        Ok((
            format!(
                "{}'s corpse answers up to {questions} questions for {} minutes (it knows only what it knew in life); it can't be questioned so again for {again_days} days",
                t.name,
                rounds / 10
            ),
            true,
        ))
    })
}

/// The SRD's Reincarnate table: (highest d100 roll, race, subrace) — the subrace named only
/// when the SRD has it.
const REINCARNATE: &[(u32, &str, &str, Option<&str>)] = &[
    (4, "Dragonborn", "", None),
    (13, "Dwarf", "hill", Some("Hill Dwarf")),
    (21, "Dwarf", "mountain", None),
    (25, "Elf", "dark", None),
    (34, "Elf", "high", Some("High Elf")),
    (42, "Elf", "wood", None),
    (46, "Gnome", "forest", None),
    (52, "Gnome", "rock", Some("Rock Gnome")),
    (56, "Half-Elf", "", None),
    (60, "Half-Orc", "", None),
    (68, "Halfling", "lightfoot", Some("Lightfoot Halfling")),
    (76, "Halfling", "stout", None),
    (96, "Human", "", None),
    (100, "Tiefling", "", None),
];

/// The race a d100 roll gives: (race, the table's subrace word, the SRD subrace).
pub fn reincarnated_race(roll: u32) -> (&'static str, &'static str, Option<&'static str>) {
    let row = REINCARNATE
        .iter()
        .find(|r| roll <= r.0)
        .unwrap_or(&REINCARNATE[REINCARNATE.len() - 1]);
    (row.1, row.2, row.3)
}

/// Reincarnate: a dead humanoid (within the limit) returns in a body of a race rolled on the
/// d100 table; the sheet's race changes and its values are derived again.
fn reincarnate(
    call: &mut Call<'_>,
    caster: &mut Character,
    plan: &CastPlan,
    e: &SpellEntry,
    within_days: u32,
    report: &mut CastReport,
) -> Result<()> {
    need_targets(plan, "which dead humanoid")?;
    let spell = plan.spell.name.clone();
    each_target(call, caster, plan, report, |call, caster, t, tr, lines| {
        if !t.dead {
            return Ok((
                format!("{} is not dead; {spell} has no effect", t.name),
                false,
            ));
        }
        if !creature_type(t).is_some_and(|k| k.starts_with("humanoid")) {
            return Ok((
                format!("{} is not a humanoid; {spell} has no effect", t.name),
                false,
            ));
        }
        lines.push(crate::combat::death_time::revival_window(
            call,
            t,
            rounds_of_days(within_days),
            &spell,
        )?);
        if let Some(m) = &e.consumes {
            lines.push(super::life6_items::consume(caster, &m.item, m.gp, &spell));
        }
        let r = tabletop_rules::dice::roll("1d100", call.rng()?)?;
        call.record_roll(&r);
        let roll = u32::try_from(r.total.clamp(1, 100)).unwrap_or(100);
        let (race, sub, srd_sub) = reincarnated_race(roll);
        let old = t.race.clone().unwrap_or_else(|| "(no race)".into());
        t.race = Some(race.to_string());
        t.subrace = srd_sub.map(str::to_string);
        if let Some(b) = t.build.as_mut() {
            b.race = Some(race.to_string());
            b.subrace = srd_sub.map(str::to_string);
        }
        crate::derive::refresh(call, t);
        t.dead = false;
        t.effects.retain(|x| x.name != REPOSE);
        t.death_saves = Default::default();
        t.conditions
            .retain(|c| c.condition != Condition::Unconscious);
        let max = u32::try_from(t.effective().max_hp.value.max(1)).unwrap_or(1);
        t.hp = max;
        tr.healed = Some(max);
        let table = if sub.is_empty() {
            race.to_string()
        } else {
            format!("{race}, {sub}")
        };
        let subnote = match (sub.is_empty(), srd_sub) {
            (false, None) => format!(
                " (the SRD has no {sub} {race} subrace: the sheet is a {race} without one; the DM applies the subrace)"
            ),
            _ => String::new(),
        };
        Ok((
            format!(
                "d100 {roll}: {} returns to life in a new {table} body (was {old}) with {max} HP; race traits and scores are derived again{subnote}",
                t.name
            ),
            true,
        ))
    })
}

/// Contact Other Plane: the caster saves against a fixed DC; a failure deals damage and an
/// effect until a long rest (insanity: incapacitated).
fn caster_save(
    call: &mut Call<'_>,
    caster: &mut Character,
    plan: &CastPlan,
    (save, dc): (Ability, i32),
    (dice, damage_type): (&String, DamageType),
    name: &str,
    report: &mut CastReport,
) -> Result<()> {
    let spell = plan.spell.name.clone();
    let req = D20Request::new(D20Test::Save { ability: save })
        .dc(dc)
        .labelled(format!("{} save vs {spell}", save.name()));
    let out = roll_d20_test(&caster.effective(), &req, call.rng()?);
    call.record_roll(&out);
    report.save_dc = Some(dc);
    report
        .lines
        .push(format!("{} — {}", caster.name, out.summary()));
    if out.success == Some(true) {
        report.lines.push(format!(
            "{} keeps their mind: they may ask up to five questions (the DM answers; no automation for the answers)",
            caster.name
        ));
        return Ok(());
    }
    let r = tabletop_rules::dice::roll(dice, call.rng()?)?;
    call.record_roll(&r);
    let n = u32::try_from(r.total.max(0)).unwrap_or(0);
    let mut changes = Vec::new();
    let before = caster.hp;
    let d = crate::update::damage(
        caster,
        &[DamagePart::new(Some(damage_type), n)],
        false,
        &mut changes,
    )?;
    caster.effects.retain(|x| x.name != name);
    let ef = effect(
        call,
        name,
        format!("{spell} (failed DC {dc} save)"),
        vec![ModifierKind::Incapacitated],
        Duration::UntilRest,
    )?;
    caster.effects.push(ef);
    report.lines.push(format!(
        "{} fails: {} {damage_type} damage ({}; {before} → {} HP) and {name} until a long rest: incapacitated, can't understand others, read or speak sensibly (Greater Restoration ends it: remove the effect)",
        caster.name,
        d.total,
        r.summary(),
        caster.hp
    ));
    Ok(())
}

/// Dream: a hostile message (`description` saying "nightmare") makes the target save; on a
/// failure its next rest gives no benefit and it takes the damage on waking ([`nightmare`]).
fn dream(
    call: &mut Call<'_>,
    caster: &mut Character,
    plan: &CastPlan,
    save: Ability,
    report: &mut CastReport,
) -> Result<()> {
    need_targets(plan, "whom")?;
    let spell = plan.spell.name.clone();
    let hostile = plan.choice.words.as_deref().is_some_and(|w| {
        ["nightmare", "hostile", "monstrous", "terrif"]
            .iter()
            .any(|k| w.to_lowercase().contains(k))
    });
    if !hostile {
        report.lines.push(format!(
            "{spell}: the messenger speaks with the sleeping target (no automation for the conversation); to send a nightmare say so in description (\"nightmare\")"
        ));
        return Ok(());
    }
    report.save_dc = Some(plan.save_dc);
    each_target(call, caster, plan, report, |call, caster, t, tr, lines| {
        let req = D20Request::new(D20Test::Save { ability: save })
            .dc(plan.save_dc)
            .labelled(format!("{} save vs {spell}", save.name()));
        let out = roll_d20_test(&t.effective(), &req, call.rng()?);
        call.record_roll(&out);
        lines.push(format!("{} — {}", t.name, out.summary()));
        tr.save = Some(out.summary());
        tr.saved = Some(out.success == Some(true));
        if out.success == Some(true) {
            return Ok((
                format!("{} saves: the nightmare does not take hold", t.name),
                false,
            ));
        }
        t.effects.retain(|x| x.name != NIGHTMARE);
        let ef = effect(
            call,
            NIGHTMARE,
            format!("{spell} ({})", caster.name),
            Vec::new(),
            Duration::UntilDispelled,
        )?;
        t.effects.push(ef);
        tr.effect = Some(NIGHTMARE.into());
        Ok((
            format!(
                "{} fails: their next rest gives no benefit and they take psychic damage on waking (applied when they rest)",
                t.name
            ),
            true,
        ))
    })
}

/// A rest taken under a Dream nightmare: no benefit, the damage on waking, and the nightmare
/// ends. The line to report, or `None` without one.
pub fn nightmare(call: &mut Call<'_>, c: &mut Character) -> Result<Option<String>> {
    if !c.effects.iter().any(|x| x.name == NIGHTMARE) {
        return Ok(None);
    }
    c.effects.retain(|x| x.name != NIGHTMARE);
    let (dice, kind) = match crate::catalog::spells::entry("dream").and_then(|e| e.life.as_ref()) {
        Some(LifeSpec::Dream {
            dice, damage_type, ..
        }) => (dice.clone(), *damage_type),
        _ => ("3d6".to_string(), DamageType::Psychic),
    };
    let r = tabletop_rules::dice::roll(&dice, call.rng()?)?;
    call.record_roll(&r);
    let n = u32::try_from(r.total.max(0)).unwrap_or(0);
    let before = c.hp;
    let mut changes = Vec::new();
    let d = crate::update::damage(c, &[DamagePart::new(Some(kind), n)], false, &mut changes)?;
    Ok(Some(format!(
        "{}'s rest is haunted by a nightmare (Dream): no benefit from this rest; {} {kind} damage on waking ({}; {before} → {} HP)",
        c.name,
        d.total,
        r.summary(),
        c.hp
    )))
}

/// Awaken: a beast or plant of INT 3 or less gets INT `int` and is charmed by the caster.
fn awaken(
    call: &mut Call<'_>,
    caster: &mut Character,
    plan: &CastPlan,
    e: &SpellEntry,
    (int, charm_days): (u8, u32),
    report: &mut CastReport,
) -> Result<()> {
    need_targets(plan, "which beast or plant")?;
    let spell = plan.spell.name.clone();
    if let Some(m) = &e.consumes {
        report
            .lines
            .push(super::life6_items::consume(caster, &m.item, m.gp, &spell));
    }
    each_target(call, caster, plan, report, |call, caster, t, tr, _| {
        let kind = creature_type(t).unwrap_or_default();
        if !(kind.starts_with("beast") || kind.starts_with("plant")) {
            let what = if kind.is_empty() {
                "of no known type".to_string()
            } else {
                kind
            };
            return Ok((
                format!(
                    "{} is unaffected: {spell} touches a beast or plant ({} is {what})",
                    t.name, t.name
                ),
                false,
            ));
        }
        let score = t.effective().score(Ability::Intelligence);
        if score > 3 {
            return Ok((
                format!(
                    "{} is unaffected: {spell} works on a creature of Intelligence 3 or less ({} has {score})",
                    t.name, t.name
                ),
                false,
            ));
        }
        t.effects.retain(|x| x.name != spell);
        let ef = effect(
            call,
            &spell,
            format!("{spell} ({})", caster.name),
            vec![ModifierKind::AbilitySetTo {
                ability: Ability::Intelligence,
                score: int,
            }],
            Duration::UntilDispelled,
        )?;
        t.effects.push(ef);
        t.conditions
            .retain(|c| !(c.condition == Condition::Charmed && c.source.starts_with(&spell)));
        t.conditions.push(ConditionEntry {
            by: Some(caster.id.clone()),
            ends_on: Some(crate::model::character::ConditionEnds::Harm),
            condition: Condition::Charmed,
            level: None,
            source: format!("{spell} ({})", caster.name),
            duration: Some(Duration::Rounds {
                remaining: rounds_of_days(charm_days),
            }),
        });
        tr.effect = Some(spell.clone());
        tr.condition = Some(Condition::Charmed);
        Ok((
            format!(
                "{} awakens: Intelligence {} and charmed by {} for {charm_days} days (or until harmed by them or their companions: damage ends it, any other harm is the DM's to end with manage_condition)",
                t.name,
                t.effective().score(Ability::Intelligence),
                caster.name
            ),
            true,
        ))
    })
}

/// Before any casting: the stress of an earlier wish hurts the caster (1d10 necrotic per spell
/// level until a long rest), a caster who lost Wish can't cast it, and Wish naming a spell of
/// its `max_level` or lower in `description` becomes that spell's casting (no slot of its own,
/// no costly material). Returns the plan to resolve instead, if any.
pub fn wish(
    call: &mut Call<'_>,
    caster: &mut Character,
    plan: &CastPlan,
    lines: &mut Vec<String>,
) -> Result<Option<CastPlan>> {
    let is_wish = crate::model::names::name_key(&plan.spell.name) == "wish";
    if is_wish && caster.effects.iter().any(|x| x.name == WISH_LOST) {
        return Err(EngineError::Rule(format!(
            "{} can never cast Wish again (the stress of an earlier wish)",
            caster.name
        )));
    }
    if plan.spell.level > 0 && caster.effects.iter().any(|x| x.name == WISH_STRESS) {
        let dice = format!("{}d10", plan.spell.level);
        let r = tabletop_rules::dice::roll(&dice, call.rng()?)?;
        call.record_roll(&r);
        let n = u32::try_from(r.total.max(0)).unwrap_or(0);
        let before = caster.hp;
        let mut changes = Vec::new();
        let d = crate::update::damage(caster, &[DamagePart::new(None, n)], false, &mut changes)?;
        lines.push(format!(
            "Wish stress: {} takes {} necrotic casting a spell of level {} ({}; {before} → {} HP; it can't be reduced or prevented)",
            caster.name,
            d.total,
            plan.spell.level,
            r.summary(),
            caster.hp
        ));
    }
    let Some(LifeSpec::Wish { max_level }) = plan.spell.mechanics().and_then(|e| e.life.as_ref())
    else {
        return Ok(None);
    };
    let Some(words) = plan.choice.words.as_deref() else {
        return Ok(None);
    };
    let Ok(def) = super::spell_lookup::find_spell(call, caster, words) else {
        return Ok(None);
    };
    if def.level > *max_level || crate::model::names::name_key(&def.name) == "wish" {
        return Ok(None);
    }
    lines.push(format!(
        "Wish duplicates {} ({} level), with no costly material and no casting time of its own",
        def.name,
        crate::model::slots::ordinal(def.level.max(1))
    ));
    let mut p = plan.clone();
    p.source = format!("{} (Wish)", def.name);
    p.slot_level = def.level;
    // A projectile spell's darts or rays land on the named targets in turn.
    if def.per_projectile()
        && let Some(max) = def.max_targets(def.level, caster.cantrip_level())
    {
        let named = super::targets::unique(&p.targets);
        if !named.is_empty() {
            p.targets = (0..max).map(|i| named[i % named.len()].clone()).collect();
        }
    }
    p.spell = def;
    Ok(Some(p))
}

/// A wish beyond duplicating a spell: the DM decides what happens; the caster's stress is
/// applied (until a long rest each spell costs necrotic damage, Strength 3 for 2d4 days) and
/// a d100 of 33 or less means Wish is lost for good.
fn wish_other(
    call: &mut Call<'_>,
    caster: &mut Character,
    plan: &CastPlan,
    report: &mut CastReport,
) -> Result<()> {
    let Some(words) = plan.choice.words.clone() else {
        // Nothing said (an item's casting has no words): no wish is made yet.
        let line = format!(
            "no automation for {}: no wish was said — name a spell of 8th level or lower in description to duplicate it, or the wish in words (the DM decides it, and its stress applies)",
            plan.spell.name
        );
        report.lines.push(line.clone());
        report.automation = Some(line);
        return Ok(());
    };
    let days = tabletop_rules::dice::roll("2d4", call.rng()?)?;
    call.record_roll(&days);
    let d = u32::try_from(days.total.max(2)).unwrap_or(2);
    let lost = tabletop_rules::dice::roll("1d100", call.rng()?)?;
    call.record_roll(&lost);
    caster
        .effects
        .retain(|x| x.name != WISH_STRESS && x.name != "Wish stress (Strength)");
    let stress = effect(
        call,
        WISH_STRESS,
        "Wish".into(),
        Vec::new(),
        Duration::UntilRest,
    )?;
    let weak = effect(
        call,
        "Wish stress (Strength)",
        "Wish".into(),
        vec![ModifierKind::AbilityBonus {
            ability: Ability::Strength,
            amount: 3 - i32::from(caster.effective().score(Ability::Strength)),
        }],
        Duration::Rounds {
            remaining: rounds_of_days(d),
        },
    )?;
    caster.effects.push(stress);
    caster.effects.push(weak);
    let never = lost.total <= 33;
    if never {
        let ef = effect(
            call,
            WISH_LOST,
            "Wish".into(),
            Vec::new(),
            Duration::UntilDispelled,
        )?;
        caster.effects.push(ef);
    }
    let line = format!(
        "no automation for the wish \"{words}\": the DM decides what happens. The stress: until a long rest each spell {} casts deals 1d10 necrotic per its level to them; Strength 3 for {d} days ({}); d100 {} — {}",
        caster.name,
        days.summary(),
        lost.total,
        if never {
            "33 or less: they can never cast Wish again"
        } else {
            "above 33: Wish is not lost"
        }
    );
    report.lines.push(line.clone());
    report.automation = Some(line);
    Ok(())
}
