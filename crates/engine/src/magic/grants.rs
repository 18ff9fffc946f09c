//! Grant families added to the spell catalog beyond attacks, saves and healing: choices the
//! caster makes for an effect ([`chosen_modifiers`]: Protection from Energy's damage type,
//! Enhance Ability's ability), cures that end conditions or effects ([`cure`]: Lesser and
//! Greater Restoration, Remove Curse) and outcomes by the target's current hit points
//! ([`hp_threshold`]: Power Word Kill, Power Word Stun, Divine Word).

use tabletop_rules::d20::{D20Request, D20Test, roll_d20_test};
use tabletop_rules::modifiers::{ModifierKind, RollTarget};
use tabletop_rules::{Ability, Condition};

use super::plan::{CastPlan, CastReport};
use super::targets::{each_target, unaffected};
use crate::catalog::spells::{AbilityChoice, Cure, SpellEntry};
use crate::character::{Character, ConditionEntry};
use crate::effects::Duration;
use crate::engine::Call;
use crate::error::{EngineError, Result};

/// The modifiers an effect gains from the caster's choice: resistance to the chosen damage type
/// (`damageType`), advantage on checks of the chosen ability (`ability`). A spell that asks and
/// gets no valid answer is refused, naming the options.
pub fn chosen_modifiers(e: &SpellEntry, plan: &CastPlan) -> Result<Vec<ModifierKind>> {
    let mut out = Vec::new();
    if !e.resist_choice.is_empty() {
        let options: Vec<String> = e.resist_choice.iter().map(|d| d.to_string()).collect();
        match plan.choice.damage_type {
            Some(d) if e.resist_choice.contains(&d) => out.push(ModifierKind::Resistance {
                damage_type: Some(d),
            }),
            other => {
                return Err(EngineError::invalid(
                    "damageType",
                    format!(
                        "{} grants resistance to one damage type of the caster's choice: pass damageType, one of {}{}",
                        plan.spell.name,
                        options.join(", "),
                        other
                            .map(|d| format!(" ({d} is not one)"))
                            .unwrap_or_default()
                    ),
                ));
            }
        }
    }
    if let Some(kind) = e.ability_choice {
        let Some(ability) = plan.choice.ability else {
            return Err(EngineError::invalid(
                "ability",
                format!(
                    "{} acts on one ability of the caster's choice: pass ability (str, dex, con, int, wis or cha)",
                    plan.spell.name
                ),
            ));
        };
        match kind {
            AbilityChoice::CheckAdvantage => out.push(ModifierKind::Advantage {
                on: RollTarget::AbilityChecks { ability },
            }),
            AbilityChoice::CheckAndSaveDisadvantage => {
                out.push(ModifierKind::Disadvantage {
                    on: RollTarget::AbilityChecks { ability },
                });
                out.push(ModifierKind::Disadvantage {
                    on: RollTarget::Save { ability },
                });
            }
        }
    }
    Ok(out)
}

/// Lesser Restoration, Greater Restoration, Remove Curse: ends the entry's `cures` on each
/// target, in order (only the first the target has when `cure_one`); says so when there is
/// nothing to end.
pub fn cure(
    call: &mut Call<'_>,
    caster: &mut Character,
    plan: &CastPlan,
    e: &SpellEntry,
    report: &mut CastReport,
) -> Result<()> {
    let spell = &plan.spell;
    need_targets(plan)?;
    each_target(call, caster, plan, report, |_, _, t, _, _| {
        if let Some(why) = unaffected(spell, t) {
            return Ok((why, false));
        }
        let mut ended: Vec<String> = Vec::new();
        for c in &e.cures {
            if let Some(what) = end_one(t, c) {
                ended.push(what);
                if e.cure_one {
                    break;
                }
            }
        }
        if ended.is_empty() {
            let names: Vec<String> = e.cures.iter().map(cure_name).collect();
            return Ok((
                format!(
                    "{} has none of what {} ends ({}); no effect",
                    t.name,
                    spell.name,
                    names.join(", ")
                ),
                false,
            ));
        }
        Ok((
            format!("{}: {} ends {}", t.name, spell.name, ended.join(", ")),
            true,
        ))
    })
}

fn cure_name(c: &Cure) -> String {
    match c {
        Cure::Condition { condition } => condition.to_string(),
        Cure::ExhaustionLevel => "a level of exhaustion".into(),
        Cure::EffectNamed { word } => format!("effects named {word}"),
    }
}

/// Ends one cure on `t`; what ended, or `None` when it had nothing of it.
pub(crate) fn end_one(t: &mut Character, c: &Cure) -> Option<String> {
    match c {
        Cure::Condition { condition } => {
            let before = t.conditions.len();
            t.conditions.retain(|x| x.condition != *condition);
            (t.conditions.len() < before).then(|| condition.to_string())
        }
        Cure::ExhaustionLevel => {
            let pos = t
                .conditions
                .iter()
                .position(|x| x.condition == Condition::Exhaustion)?;
            let level = t.conditions[pos].level.unwrap_or(1);
            if level <= 1 {
                t.conditions.remove(pos);
            } else {
                t.conditions[pos].level = Some(level - 1);
            }
            Some(format!("a level of exhaustion ({level} → {})", level - 1))
        }
        Cure::EffectNamed { word } => {
            let hit = |name: &str, src: Option<&str>| {
                name.to_lowercase().contains(word.as_str())
                    || src.is_some_and(|s| s.to_lowercase().contains(word.as_str()))
            };
            let names: Vec<String> = t
                .effects
                .iter()
                .filter(|x| hit(&x.name, x.source.as_deref()))
                .map(|x| x.name.clone())
                .collect();
            if names.is_empty() {
                return None;
            }
            t.effects.retain(|x| !hit(&x.name, x.source.as_deref()));
            Some(names.join(", "))
        }
    }
}

/// Power Word Kill and Stun, Divine Word: after the spell's save (if it has one), the first tier
/// whose `max_hp` the target's current HP does not exceed applies: death, or conditions (ended
/// by a repeated save or after some rounds).
pub fn hp_threshold(
    call: &mut Call<'_>,
    caster: &mut Character,
    plan: &CastPlan,
    e: &SpellEntry,
    report: &mut CastReport,
) -> Result<()> {
    let spell = &plan.spell;
    need_targets(plan)?;
    if spell.save.is_some() {
        report.save_dc = Some(plan.save_dc);
    }
    let rounds = spell.duration_rounds();
    each_target(call, caster, plan, report, |call, _, t, tr, lines| {
        if let Some(why) = unaffected(spell, t) {
            return Ok((why, false));
        }
        if let Some(sv) = spell.save {
            let mut req = D20Request::new(D20Test::Save {
                ability: sv.ability,
            })
            .dc(plan.save_dc)
            .labelled(format!("{} save vs {}", sv.ability.name(), spell.name));
            if crate::combat::traits::magic_resistance(t) {
                req = req.advantage("Magic Resistance");
            }
            let out = roll_d20_test(&t.effective(), &req, call.rng()?);
            call.record_roll(&out);
            lines.push(format!("{} — {}", t.name, out.summary()));
            tr.save = Some(out.summary());
            tr.saved = Some(out.success == Some(true));
            if out.success == Some(true) {
                return Ok((format!("{} saves; unaffected", t.name), false));
            }
        }
        let Some(tier) = e.tiers.iter().find(|x| t.hp <= x.max_hp) else {
            let top = e.tiers.last().map_or(0, |x| x.max_hp);
            return Ok((
                format!(
                    "{} has {} HP, more than {top}; {} has no effect",
                    t.name, t.hp, spell.name
                ),
                false,
            ));
        };
        if tier.dies {
            let was = t.hp;
            t.hp = 0;
            t.dead = true;
            tr.damage_taken = Some(was);
            return Ok((
                format!("{} ({was} HP, at most {}) dies", t.name, tier.max_hp),
                true,
            ));
        }
        let immune = t.effective().condition_immunities;
        let mut got: Vec<String> = Vec::new();
        let mut refused: Vec<String> = Vec::new();
        for &cond in &tier.conditions {
            if immune.contains_key(&cond) {
                refused.push(format!("immune to {cond}"));
                continue;
            }
            let duration = match (tier.save_ends, tier.rounds.or(rounds)) {
                (Some(ability), _) => Some(Duration::SaveEnds {
                    dc: plan.save_dc,
                    ability,
                }),
                (None, Some(n)) => Some(Duration::Rounds { remaining: n }),
                (None, None) => None,
            };
            t.conditions.retain(|x| x.condition != cond);
            t.conditions.push(ConditionEntry {
                by: None,
                ends_on: None,
                condition: cond,
                level: None,
                source: spell.name.clone(),
                duration,
            });
            tr.condition.get_or_insert(cond);
            got.push(cond.to_string());
        }
        let ends = match (tier.save_ends, tier.rounds) {
            (Some(a), _) => format!(
                " (a {} save at the end of each of its turns ends it)",
                ability_abbr(a)
            ),
            (None, Some(n)) => format!(" for {n} rounds"),
            (None, None) => String::new(),
        };
        let mut phrase = if got.is_empty() {
            format!("{} ({} HP) is unaffected", t.name, t.hp)
        } else {
            format!("{} ({} HP) is {}{ends}", t.name, t.hp, got.join(" and "))
        };
        if !refused.is_empty() {
            phrase.push_str(&format!(" — {}", refused.join(", ")));
        }
        Ok((phrase, !got.is_empty()))
    })
}

fn ability_abbr(a: Ability) -> &'static str {
    a.abbr()
}

fn need_targets(plan: &CastPlan) -> Result<()> {
    if plan.targets.is_empty() {
        return Err(EngineError::invalid(
            "targets",
            format!(
                "say whom {} affects: targets [{{id|name}}]",
                plan.spell.name
            ),
        ));
    }
    Ok(())
}
