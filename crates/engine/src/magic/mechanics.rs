//! How the spell catalog's entries act on a casting (the entry itself is applied to the SRD's data
//! by `SpellDef::apply_catalog`): creature types a spell cannot touch ([`unaffected`]), the kinds that are
//! neither attacks, saves nor healing ([`resolve_special`]: narrative spells, HP pools such as
//! Sleep, AC formulas such as Mage Armor, Counterspell, revival, stabilising), riders on a hit
//! or failed save ([`apply_riders`]), persistent spells attacking again ([`persistent_level`])
//! and temporary HP each turn ([`start_of_turn`]).

use tabletop_rules::d20::{D20Request, D20Test, roll_d20_test};
use tabletop_rules::dice;
use tabletop_rules::modifiers::{Modifier, ModifierKind, RangeBand, RollTarget};
use tabletop_rules::{Ability, Condition};

use super::life6_items::consume;
use super::spellcasting::{CastPlan, CastReport, SpellDef, TargetResult, spell_ability};
pub use super::targets::{creature_type, unaffected};
use super::targets::{each_target, load, push_target, store, unique};
use crate::catalog::class_rules::ClassRule;
use crate::catalog::spells::{Rider, SpellEntry, SpellKind};
use crate::character::{Character, ConditionEntry};
use crate::concentration::ConcentrationLink;
use crate::effects::{ActiveEffect, Duration, EndTrigger, SpellGrant, TurnPoint};
use crate::engine::Call;
use crate::error::Result;
use crate::slots::ordinal;

pub use crate::model::sheet::{formula_ac, wears_armor};

/// `n` times one dart's dice: "1d4+1" × 3 = "3d4+3"; other shapes are repeated as terms.
pub fn times_dice(one: &str, n: u32) -> String {
    let compact: String = one.chars().filter(|c| !c.is_whitespace()).collect();
    let (dice, flat) = match compact.split_once('+') {
        Some((d, f)) => (d, f.parse::<u32>().ok()),
        None => (compact.as_str(), Some(0)),
    };
    match (dice.split_once('d'), flat) {
        (Some((c, f)), Some(flat)) if c.parse::<u32>().is_ok() && f.parse::<u32>().is_ok() => {
            let count = c.parse::<u32>().unwrap_or(1).saturating_mul(n);
            if flat == 0 {
                format!("{count}d{f}")
            } else {
                format!("{count}d{f}+{}", flat.saturating_mul(n))
            }
        }
        _ => std::iter::repeat_n(compact.clone(), n as usize)
            .collect::<Vec<_>>()
            .join("+"),
    }
}

fn roll(call: &mut Call<'_>, expr: &str) -> Result<dice::DiceRoll> {
    let r = dice::parse(expr)?.roll(call.rng()?)?;
    call.record_roll(&r);
    Ok(r)
}

/// Resolves the kinds that are not attacks, saves or healing into `report`; `false` when the
/// ordinary resolution applies. A mechanical entry's note on what is left to the DM is added.
pub fn resolve_special(
    call: &mut Call<'_>,
    caster: &mut Character,
    plan: &CastPlan,
    report: &mut CastReport,
) -> Result<bool> {
    let spell = &plan.spell;
    let Some(e) = spell.mechanics() else {
        return Ok(false);
    };
    if e.kind == SpellKind::Narrative {
        let why = e.reason.as_deref().unwrap_or("not encoded");
        let line = format!("no automation for {}: the DM decides ({why})", spell.name);
        report.lines.push(line.clone());
        report.automation = Some(line);
        return Ok(true);
    }
    if e.kind == SpellKind::Lore {
        let line = super::lore6::elsewhere(spell);
        report.lines.push(line.clone());
        report.automation = Some(line);
        return Ok(true);
    }
    if matches!(
        e.kind,
        SpellKind::Teleport
            | SpellKind::Summon
            | SpellKind::Banish
            | SpellKind::Globe
            | SpellKind::Detect
            | SpellKind::Shape
            | SpellKind::Door
    ) {
        let line = format!(
            "no automation outside an encounter for {}: it {} on the encounter map; cast it in an encounter (outside one the DM {})",
            spell.name,
            if e.kind == SpellKind::Teleport {
                "moves the caster to a chosen square"
            } else if e.kind == SpellKind::Banish {
                "takes the banished off the map while the caster concentrates"
            } else if e.kind == SpellKind::Detect {
                "senses what lies within its range on the encounter map"
            } else if e.kind == SpellKind::Globe {
                "raises a barrier on the encounter map that keeps lower-level spells out"
            } else if e.kind == SpellKind::Shape {
                "needs the chosen form (creature) from execute_action cast_spell"
            } else if e.kind == SpellKind::Door {
                "locks or unlocks a door of the encounter map"
            } else if !e.tokens.is_empty() {
                "puts its creatures or objects on the encounter map"
            } else {
                "adds the creatures beside the caster"
            },
            if e.kind == SpellKind::Detect {
                "says what the caster senses"
            } else if e.kind == SpellKind::Door {
                "opens or seals the door"
            } else {
                "places the creatures"
            }
        );
        report.lines.push(line.clone());
        report.automation = Some(line);
        return Ok(true);
    }
    if let Some(r) = &e.reason {
        report.lines.push(format!("left to the DM: {r}"));
    }
    match e.kind {
        SpellKind::HpPool => hp_pool(call, caster, plan, e, report).map(|()| true),
        SpellKind::AcFormula => ac_formula(call, caster, plan, e, report).map(|()| true),
        SpellKind::Counterspell => counterspell(call, caster, plan, report).map(|()| true),
        SpellKind::Revive => revive(call, caster, plan, e, report).map(|()| true),
        SpellKind::Stabilize => stabilize(call, caster, plan, report).map(|()| true),
        SpellKind::Cure => super::grants::cure(call, caster, plan, e, report).map(|()| true),
        SpellKind::Dispel => super::wards6::dispel(call, caster, plan, report).map(|()| true),
        SpellKind::HpThreshold => {
            super::grants::hp_threshold(call, caster, plan, e, report).map(|()| true)
        }
        SpellKind::Life => super::life6::resolve(call, caster, plan, e, report).map(|()| true),
        SpellKind::Persistent => {
            if !plan.repeat {
                mark_persistent(call, caster, plan, e, report)?;
            }
            Ok(false)
        }
        _ => Ok(false),
    }
}

/// Sleep, Color Spray: roll the pool, then creatures in ascending order of current HP take the
/// condition while the pool lasts (no damage); types, immunities and creatures already out
/// are skipped.
fn hp_pool(
    call: &mut Call<'_>,
    caster: &mut Character,
    plan: &CastPlan,
    e: &SpellEntry,
    report: &mut CastReport,
) -> Result<()> {
    let spell = &plan.spell;
    let Some(cond) = e.condition else {
        return Ok(());
    };
    let slot = plan.slot_level.max(spell.level);
    let expr = e.dice_at(spell.level, slot).unwrap_or_else(|| "0".into());
    let r = roll(call, &expr)?;
    let mut left = u32::try_from(r.total.max(0)).unwrap_or(0);
    report.lines.push(format!(
        "{} affects {left} hit points of creatures: {}",
        spell.name,
        r.summary()
    ));
    let mut candidates: Vec<Character> = Vec::new();
    for id in unique(&plan.targets) {
        let t = load(call, caster, &id)?;
        let out = if t.dead {
            Some(format!("{} is dead; unaffected", t.name))
        } else if let Some(why) = unaffected(spell, &t) {
            Some(why)
        } else if let Some(imm) = e
            .immune_if
            .into_iter()
            .chain([cond])
            .find(|c| t.effective().condition_immunities.contains_key(c))
        {
            Some(format!("{} is immune to being {imm}; unaffected", t.name))
        } else if e.magic_sleep && crate::combat::traits::no_magic_sleep(&t) {
            // Not counted against the pool: it is skipped before the pool is spent.
            Some(format!(
                "{} can't be put to sleep by magic ({}); unaffected",
                t.name,
                ClassRule::NoMagicSleep.label()
            ))
        } else if t.hp == 0 || t.has_condition(Condition::Unconscious) {
            Some(format!("{} is already unconscious; unaffected", t.name))
        } else if cond == Condition::Blinded && t.has_condition(Condition::Blinded) {
            Some(format!("{} cannot see; unaffected", t.name))
        } else {
            None
        };
        match out {
            Some(p) => {
                let tr = push_target(report, &t, p);
                report.targets.push(tr);
            }
            None => candidates.push(t),
        }
    }
    candidates.sort_by_key(|t| t.hp);
    let rounds = spell.duration_rounds();
    for mut t in candidates {
        if t.hp > left {
            let p = format!(
                "{} ({} HP) is beyond the {left} HP left; unaffected",
                t.name, t.hp
            );
            let tr = push_target(report, &t, p);
            report.targets.push(tr);
            left = 0;
            continue;
        }
        left -= t.hp;
        t.conditions.retain(|c| c.condition != cond);
        t.conditions.push(ConditionEntry {
            by: Some(caster.id.clone()),
            ends_on: condition_ends(spell),
            condition: cond,
            level: None,
            source: spell.name.clone(),
            duration: rounds.map(|n| Duration::Rounds { remaining: n }),
        });
        let mut p = format!(
            "{} ({} HP) is {cond}, no damage ({left} HP of the pool left)",
            t.name, t.hp
        );
        if cond == Condition::Unconscious {
            for l in crate::update::knocked_out(&mut t, &spell.name, true) {
                p.push_str(&format!("; {l}"));
            }
        }
        let mut tr = push_target(report, &t, p.clone());
        tr.condition = Some(cond);
        report.targets.push(tr);
        store(call, caster, t, &p)?;
    }
    if cond == Condition::Unconscious {
        report.lines.push(
            "a sleeper wakes when it takes damage (the engine ends the condition), or when someone uses an action to shake or slap it awake (remove the condition with manage_condition)"
        .to_string());
    }
    Ok(())
}

/// Mage Armor: an AC of base + DEX while the target wears no armor, for the spell's duration.
fn ac_formula(
    call: &mut Call<'_>,
    caster: &mut Character,
    plan: &CastPlan,
    e: &SpellEntry,
    report: &mut CastReport,
) -> Result<()> {
    let spell = &plan.spell;
    let Some(base) = e.ac_base else {
        return Ok(());
    };
    each_target(call, caster, plan, report, |call, caster, t, tr, _| {
        if e.unarmored_only && wears_armor(t) {
            let p = format!(
                "{} wears armor ({}); {} has no effect on an armored creature",
                t.name,
                t.effective()
                    .armor_class
                    .base_source
                    .clone()
                    .unwrap_or_default(),
                spell.name
            );
            return Ok((p, false));
        }
        t.effects.retain(|x| x.name != spell.name);
        let id = call.new_id("ef")?;
        t.effects.push(ActiveEffect {
            id,
            name: spell.name.clone(),
            source: Some(format!("{} ({})", spell.name, caster.name)),
            modifiers: Vec::new(),
            duration: e
                .rounds
                .or(spell.duration_rounds())
                .map_or(Duration::UntilDispelled, |n| Duration::Rounds {
                    remaining: n,
                }),
            ends_on: None,
            ends_when_attacked: false,
            damaged_since_turn: false,
            grant: Some(SpellGrant {
                ac_base: Some(base),
                ..Default::default()
            }),
        });
        let ac = t.effective().armor_class.value;
        tr.effect = Some(spell.name.clone());
        Ok((
            format!(
                "{}'s AC is {ac} ({} {base} + DEX while unarmored, for {})",
                t.name,
                spell.name,
                spell.duration.to_lowercase()
            ),
            true,
        ))
    })
}

/// Counterspell: a spell of the slot's level or lower fails; against a higher one the caster's
/// spellcasting check is rolled here and compared with DC 10 + that spell's level.
fn counterspell(
    call: &mut Call<'_>,
    caster: &mut Character,
    plan: &CastPlan,
    report: &mut CastReport,
) -> Result<()> {
    let slot = plan.slot_level.max(plan.spell.level);
    let ability = spell_ability(call, caster).unwrap_or(Ability::Intelligence);
    for id in unique(&plan.targets) {
        let t = load(call, caster, &id)?;
        let req = D20Request::new(D20Test::AbilityCheck { ability }).labelled(format!(
            "{} check to counter {}'s spell",
            ability.name(),
            t.name
        ));
        let out = roll_d20_test(&caster.effective(), &req, call.rng()?);
        call.record_roll(&out);
        let beats = out.total.unwrap_or(0) - 10;
        let p = format!(
            "{}'s spell of {} level or lower fails; against a higher-level spell {} rolled {} — it fails if its level is {} or lower (DC 10 + its level)",
            t.name,
            ordinal(slot),
            caster.name,
            out.summary(),
            beats.max(0)
        );
        let tr = push_target(report, &t, p);
        report.targets.push(tr);
    }
    Ok(())
}

/// Revivify and kin: a dead creature returns with 1 HP (or all), the costly material consumed
/// from the caster's inventory when it holds one (said when it does not); Raise Dead's penalty
/// on d20 tests becomes an effect.
fn revive(
    call: &mut Call<'_>,
    caster: &mut Character,
    plan: &CastPlan,
    e: &SpellEntry,
    report: &mut CastReport,
) -> Result<()> {
    let spell = &plan.spell;
    each_target(call, caster, plan, report, |call, caster, t, tr, lines| {
        if !t.dead {
            return Ok((
                format!("{} is not dead; {} has no effect", t.name, spell.name),
                false,
            ));
        }
        // Dust needs true resurrection or wish.
        if let Some(why) =
            super::dust::refuses(t, spell.index.as_deref().unwrap_or_default(), &spell.name)
        {
            return Err(crate::error::EngineError::Rule(why));
        }
        // Too long dead is refused before anything is spent.
        if let Some(r) = e.within_rounds {
            lines.push(crate::combat::death_time::revival_window(
                call,
                t,
                r,
                &spell.name,
            )?);
        }
        // A spell Wish duplicates needs no costly material.
        if let Some(m) = e
            .consumes
            .as_ref()
            .filter(|_| !plan.source.ends_with("(Wish)"))
        {
            lines.push(consume(caster, &m.item, m.gp, &spell.name));
        }
        t.dead = false;
        t.death_saves = Default::default();
        // The corpse's Gentle Repose ends with its death; true resurrection makes a new body
        // for a disintegrated creature.
        t.effects
            .retain(|x| x.name != super::life6::REPOSE && x.name != super::dust::DUST);
        let max = u32::try_from(t.effective().max_hp.value.max(1)).unwrap_or(1);
        t.hp = if e.full_hp { max } else { 1 };
        t.conditions
            .retain(|c| c.condition != Condition::Unconscious);
        // It comes back lying where it fell.
        crate::update::lie_prone(t);
        let mut p = format!("{} returns to life with {} HP, prone", t.name, t.hp);
        if let Some(pen) = e.penalty {
            let name = format!("{} ({pen:+})", spell.name);
            t.effects.retain(|x| x.name != name);
            let id = call.new_id("ef")?;
            t.effects.push(ActiveEffect {
                id,
                name: name.clone(),
                source: Some(format!("{} ({})", spell.name, caster.name)),
                modifiers: [
                    RollTarget::AttackRolls,
                    RollTarget::AllSaves,
                    RollTarget::AllChecks,
                ]
                .into_iter()
                .map(|on| Modifier::new(name.clone(), ModifierKind::RollBonus { on, amount: pen }))
                .collect(),
                duration: Duration::UntilDispelled,
                ends_on: None,
                ends_when_attacked: false,
                damaged_since_turn: false,
                grant: None,
            });
            p.push_str(&format!(
                " and {pen:+} to attack rolls, saving throws and ability checks (the penalty shrinks by 1 per long rest: lower or remove the {name} effect with manage_effect)"
            ));
        }
        tr.healed = Some(t.hp);
        Ok((p, true))
    })?;
    Ok(())
}

/// Spare the Dying: a living creature at 0 HP becomes stable.
fn stabilize(
    call: &mut Call<'_>,
    caster: &mut Character,
    plan: &CastPlan,
    report: &mut CastReport,
) -> Result<()> {
    let spell = &plan.spell;
    each_target(call, caster, plan, report, |_, _, t, _, _| {
        Ok(if let Some(why) = unaffected(spell, t) {
            (why, false)
        } else if t.dead {
            (
                format!("{} is dead; {} cannot help", t.name, spell.name),
                false,
            )
        } else if t.hp > 0 {
            (
                format!("{} is not dying ({} HP); no effect", t.name, t.hp),
                false,
            )
        } else if t.death_saves.stable {
            (format!("{} is already stable", t.name), false)
        } else {
            t.death_saves.stable = true;
            t.death_saves.successes = 0;
            t.death_saves.failures = 0;
            (
                format!("{} is stable at 0 HP (no more death saves)", t.name),
                true,
            )
        })
    })
}

/// A persistent spell (Spiritual Weapon) leaves a marker on its caster: while it lasts, casting
/// the spell again attacks at the same level without a slot.
fn mark_persistent(
    call: &mut Call<'_>,
    caster: &mut Character,
    plan: &CastPlan,
    e: &SpellEntry,
    report: &mut CastReport,
) -> Result<()> {
    let spell = &plan.spell;
    let duration = if spell.concentration {
        if let Some(c) = caster.concentration.as_mut() {
            c.add_link(ConcentrationLink::effect(&caster.id, &spell.name));
        }
        Duration::Concentration {
            caster_id: caster.id.clone(),
            spell: spell.name.clone(),
        }
    } else {
        e.rounds
            .or(spell.duration_rounds())
            .map_or(Duration::UntilDispelled, |n| Duration::Rounds {
                remaining: n,
            })
    };
    caster.effects.retain(|x| x.name != spell.name);
    let id = call.new_id("ef")?;
    caster.effects.push(ActiveEffect {
        id,
        name: spell.name.clone(),
        source: Some(format!(
            "{} ({} level)",
            spell.name,
            ordinal(plan.slot_level)
        )),
        modifiers: Vec::new(),
        duration,
        ends_on: None,
        ends_when_attacked: false,
        damaged_since_turn: false,
        grant: Some(SpellGrant {
            cast_level: Some(plan.slot_level),
            ..Default::default()
        }),
    });
    report.lines.push(format!(
        "{} lasts {}: on later turns cast_spell {} again attacks as a bonus action without a slot",
        spell.name,
        spell.duration.to_lowercase(),
        spell.name
    ));
    Ok(())
}

/// The slot level a persistent spell of `caster`'s is still active at (attack again, no slot).
pub fn persistent_level(caster: &Character, def: &SpellDef) -> Option<u8> {
    if def.mechanics()?.kind != SpellKind::Persistent {
        return None;
    }
    caster
        .effects
        .iter()
        .find(|e| e.name == def.name)
        .and_then(|e| e.grant.as_ref()?.cast_level)
}

/// Riders on a hit or a failed save: advantage on the next attack, speed loss, prone, no
/// reactions, a push (applied on the map by the caller), temporary HP.
pub fn apply_riders(
    call: &mut Call<'_>,
    caster: &Character,
    target: &mut Character,
    plan: &CastPlan,
    tr: &mut TargetResult,
) -> Result<Vec<String>> {
    let spell = &plan.spell;
    let Some(e) = spell.mechanics() else {
        return Ok(Vec::new());
    };
    if tr.hit == Some(false) {
        return Ok(Vec::new());
    }
    let mut lines = Vec::new();
    for r in &e.riders {
        match r {
            Rider::AdvantageNextAttack => {
                let name = format!("{} (next attack has advantage)", spell.name);
                push_effect(
                    call,
                    target,
                    &name,
                    &caster.name,
                    vec![ModifierKind::AttackedWithAdvantage {
                        range: RangeBand::Any,
                    }],
                    (2, TurnPoint::End, &caster.id),
                    true,
                )?;
                lines.push(format!(
                    "the next attack roll against {} before the end of {}'s next turn has advantage",
                    target.name, caster.name
                ));
            }
            Rider::SpeedMinus { feet } => {
                let name = format!("{} (speed −{feet} ft)", spell.name);
                push_effect(
                    call,
                    target,
                    &name,
                    &caster.name,
                    vec![ModifierKind::SpeedBonus {
                        feet: -i32::try_from(*feet).unwrap_or(0),
                    }],
                    (1, TurnPoint::Start, &caster.id),
                    false,
                )?;
                lines.push(format!(
                    "{}'s speed drops by {feet} ft until the start of {}'s next turn",
                    target.name, caster.name
                ));
            }
            Rider::Prone => {
                if target
                    .effective()
                    .condition_immunities
                    .contains_key(&Condition::Prone)
                {
                    lines.push(format!("{} cannot be knocked prone", target.name));
                } else if !target.has_condition(Condition::Prone) {
                    target.conditions.push(ConditionEntry {
                        by: None,
                        ends_on: None,
                        condition: Condition::Prone,
                        level: None,
                        source: spell.name.clone(),
                        duration: None,
                    });
                    lines.push(format!("{} falls prone", target.name));
                }
            }
            Rider::NoReactions => {
                tr.no_reactions = true;
                lines.push(format!(
                    "{} can't take reactions until the start of its next turn",
                    target.name
                ));
            }
            Rider::Push { feet } => {
                tr.push_ft = Some(*feet);
            }
        }
    }
    if let Some(th) = &e.temp_hp {
        let r = roll(call, &th.replace("MOD", &plan.modifier.max(0).to_string()))?;
        let n = u32::try_from(r.total.max(0)).unwrap_or(0);
        if n > target.temp_hp {
            target.temp_hp = n;
            lines.push(format!(
                "{} has {n} temporary HP ({})",
                target.name,
                r.summary()
            ));
        } else {
            lines.push(format!(
                "{} keeps its {} temporary HP (higher than the {n} rolled; they don't stack)",
                target.name, target.temp_hp
            ));
        }
    }
    Ok(lines)
}

fn push_effect(
    call: &mut Call<'_>,
    target: &mut Character,
    name: &str,
    caster_name: &str,
    kinds: Vec<ModifierKind>,
    (rounds, at, turn_of): (u32, TurnPoint, &str),
    ends_when_attacked: bool,
) -> Result<()> {
    target.effects.retain(|e| e.name != name);
    let id = call.new_id("ef")?;
    target.effects.push(ActiveEffect {
        id,
        name: name.to_string(),
        source: Some(caster_name.to_string()),
        modifiers: kinds
            .into_iter()
            .map(|k| Modifier::new(name.to_string(), k))
            .collect(),
        duration: Duration::Rounds { remaining: rounds },
        ends_on: Some(EndTrigger {
            at,
            turn_of: turn_of.to_string(),
        }),
        ends_when_attacked,
        damaged_since_turn: false,
        grant: None,
    });
    Ok(())
}

/// What an effect spell's entry carries beyond modifiers: Heroism's temporary HP each turn (the
/// caster's spellcasting modifier).
pub fn effect_grant(spell: &SpellDef, plan: &CastPlan) -> Option<SpellGrant> {
    let e = spell.mechanics()?;
    let each = e.temp_hp_each_turn.as_ref().and_then(|each| {
        let n = each.replace("MOD", &plan.modifier.max(0).to_string());
        n.trim().parse::<u32>().ok()
    });
    (each.is_some()
        || e.ac_floor.is_some()
        || e.death_ward
        || e.darkvision_ft.is_some()
        || e.truesight_ft.is_some()
        || e.grants_movement_or_ward()
        || e.mark_dice.is_some()
        || e.next_hit
        || e.combat.is_some())
    .then(|| {
        let mut g = SpellGrant {
            temp_hp_each_turn: each,
            ac_floor: e.ac_floor,
            death_ward: e.death_ward,
            darkvision_ft: e.darkvision_ft,
            truesight_ft: e.truesight_ft,
            ..Default::default()
        };
        super::wards::movement_and_wards(e, plan, &mut g);
        if let Some(d) = &e.mark_dice {
            g.hit_dice = Some(d.clone());
        } else if e.next_hit {
            let slot = plan.slot_level.max(spell.level);
            g.hit_dice = e.dice_at(spell.level, slot).map(|d| match e.damage_type {
                Some(t) => format!("{d}[{t}]"),
                None => d,
            });
            g.hit_once = true;
        } else {
            g.hit_dice = super::combat6::hit_dice(e, plan);
        }
        g.ends_on_damage = e.combat == Some(crate::catalog::spell_combat::CombatRule::EndsOnDamage);
        g
    })
}

/// At the start of a creature's turn: temporary HP its effects grant each turn (Heroism),
/// unless it already has as many.
pub fn start_of_turn(c: &mut Character) -> Vec<String> {
    let best = c
        .effects
        .iter()
        .filter_map(|e| Some((e.grant.as_ref()?.temp_hp_each_turn?, e.name.clone())))
        .max_by_key(|(n, _)| *n);
    match best {
        Some((n, name)) if n > c.temp_hp => {
            c.temp_hp = n;
            vec![format!(
                "{}: {} has {n} temporary HP ({name})",
                c.name, c.name
            )]
        }
        _ => Vec::new(),
    }
}

/// What ends a spell's condition early: its catalog's `ends_on`, else any damage for a magical
/// sleep (Sleep, Eyebite: the sleeper wakes if it takes damage).
pub fn condition_ends(spell: &SpellDef) -> Option<crate::model::character::ConditionEnds> {
    let e = spell.mechanics()?;
    e.ends_on.or(e
        .magic_sleep
        .then_some(crate::model::character::ConditionEnds::Damage))
}
