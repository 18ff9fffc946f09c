//! The actions besides attacks, movement and spells: dodge, help, hide, ready, search, objects
//! and magic items, grapple and shove, stat-block special abilities, legendary and lair actions.
//!
//! Each runs after [`super::economy::begin`] has checked the turn and spent the cost. The
//! helpers at the bottom are for the other action modules and for `advance_turn`:
//! [`dodging_dex_save_advantage`], [`take_help`], [`take_helped_check`], [`hidden_from`],
//! [`basic::release_readied`] and [`contest::grappler_of`]. Spent abilities are tracked in
//! `Combatant::spent_abilities` under the stat-block entry's exact name ("Fire Breath"), one
//! entry per use, which is what the start-of-turn recharge roll reads.

pub mod ability_text;
pub mod area_effect;
pub mod basic;
pub mod breath;
pub mod contest;
pub mod feature_saves;
pub mod feature_uses;
pub mod features;
pub mod first_aid;
pub mod flurry;
pub mod holds;
pub mod special;
pub mod stealth;
pub mod text_targets;

use tabletop_grid::{Metric, footprint_distance_ft};
use tabletop_rules::d20::{self, D20Request, D20Test};
use tabletop_rules::{Ability, Condition, Skill};

use super::{ActionOutcome, ActionType, Turn, Who};
use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::character::{Character, ConditionEntry};
use crate::model::encounter::{Combatant, Encounter};

/// Runs the action.
pub fn run(call: &mut Call<'_>, turn: &mut Turn<'_>, t: ActionType) -> Result<ActionOutcome> {
    match t {
        ActionType::Dodge => basic::dodge(call, turn),
        ActionType::Help => basic::help(call, turn),
        ActionType::Ready => basic::ready(call, turn),
        ActionType::UseObject => basic::use_object(call, turn),
        ActionType::UseMagicItem => basic::use_magic_item(call, turn),
        ActionType::Hide => stealth::hide(call, turn),
        ActionType::Search => stealth::search(call, turn),
        ActionType::Grapple => contest::grapple(call, turn),
        ActionType::Shove => contest::shove(call, turn),
        ActionType::UseSpecialAbility => special::use_special_ability(call, turn),
        ActionType::LegendaryAction => special::legendary_action(call, turn),
        ActionType::LairAction => special::lair_action(call, turn),
        other => Err(EngineError::Rule(format!(
            "internal: {} is not a tactics action",
            other.key()
        ))),
    }
}

/// Distances in combat use the 5e grid rule (every diagonal 5 ft).
pub(crate) const METRIC: Metric = Metric::Grid5e;

/// The acting character of a turn (tactics actions other than lair actions need one).
fn actor<'t>(turn: &'t Turn<'_>, what: &str) -> Result<&'t Character> {
    turn.actor.as_ref().ok_or_else(|| {
        EngineError::invalid(
            "actorId",
            format!("say who takes the {what} (actorId or actorName)"),
        )
    })
}

/// The combatant named by `who` in the encounter, with its sheet; `field` names the argument.
fn resolve(
    call: &Call<'_>,
    enc: &Encounter,
    who: &Who,
    field: &'static str,
) -> Result<(Combatant, Character)> {
    let cb =
        crate::combat::find_combatant(enc, who.id.as_deref(), who.name.as_deref(), field)?.clone();
    if cb.removed {
        return Err(EngineError::Rule(format!(
            "{} has left the encounter",
            cb.name
        )));
    }
    let c = crate::combat::sheet(call, &cb.character_id)?;
    Ok((cb, c))
}

/// Distance in feet between two combatants' nearest squares.
fn distance(enc: &Encounter, a: &str, b: &str) -> Result<u32> {
    Ok(enc.map.creature_distance_ft(a, b, METRIC)?)
}

/// Distance in feet from a combatant's space to a square.
fn distance_to_square(enc: &Encounter, a: &str, to: tabletop_grid::Position) -> Result<u32> {
    let cr = enc.map.require_creature(a)?;
    Ok(footprint_distance_ft(
        cr.position,
        cr.size,
        to,
        tabletop_rules::Size::Medium,
        METRIC,
    ))
}

/// Checks a rule; with `force` a broken rule is recorded in `turn.forced` instead of refused.
fn rule(turn: &mut Turn<'_>, ok: bool, why: impl Into<String>) -> Result<()> {
    turn.rule(ok, why)
}

/// Adds a condition to a sheet unless the creature is immune; returns the line saying what
/// happened.
pub(crate) fn add_condition(
    call: &mut Call<'_>,
    c: &mut Character,
    condition: Condition,
    source: String,
    duration: Option<crate::model::effects::Duration>,
) -> Result<String> {
    if c.effective().condition_immunities.contains_key(&condition) {
        return Ok(format!("{} is immune to {condition}", c.name));
    }
    c.conditions
        .retain(|e| !(e.condition == condition && e.source == source));
    c.conditions.push(ConditionEntry {
        by: None,
        ends_on: None,
        condition,
        level: None,
        source,
        duration,
    });
    let mut changes = Vec::new();
    crate::concentration::enforce(call, c, &mut changes)?;
    let mut line = format!("{} is {condition}", c.name);
    if !changes.is_empty() {
        line.push_str(&format!(" ({})", changes.join("; ")));
    }
    Ok(line)
}

/// Whether a sheet is incapacitated (directly or through another condition).
fn incapacitated(c: &Character) -> bool {
    super::economy::incapacitated(c)
}

/// The advantage reason a dodging creature gets on a Dexterity save: `Some("dodging")` when
/// `combatant_id` took the Dodge action, is not incapacitated and the save is DEX. Every
/// save rolled in combat (spells, special abilities, traps) should add it.
pub fn dodging_dex_save_advantage(
    enc: &Encounter,
    combatant_id: &str,
    sheet: &Character,
    ability: Ability,
) -> Option<&'static str> {
    let cb = enc.combatant(combatant_id)?;
    (ability == Ability::Dexterity && cb.flags.dodging && !incapacitated(sheet))
        .then_some("dodging")
}

/// The disadvantage reason for an attack against a dodging target (`Some("target is dodging")`
/// unless it is incapacitated). For the attack module.
pub fn dodge_disadvantage(
    enc: &Encounter,
    target_id: &str,
    target: &Character,
) -> Option<&'static str> {
    let cb = enc.combatant(target_id)?;
    (cb.flags.dodging && !incapacitated(target)).then_some("target is dodging")
}

/// Consumes the Help action's advantage of `attacker_id` against `target_id`: returns the
/// advantage reason and clears it (the first attack after the help uses it up).
pub fn take_help(enc: &mut Encounter, attacker_id: &str, target_id: &str) -> Option<String> {
    let cb = enc.combatant_mut(attacker_id)?;
    if !cb.flags.helped_against.iter().any(|t| t == target_id) {
        return None;
    }
    cb.flags.help_used(Some(target_id));
    Some("helped (Help action)".into())
}

/// What the running fight `enc` (the one active encounter, loaded once by the caller) gives a
/// check the DM rolls with roll_check for `c`: the Help on its next ability check (used up, the
/// encounter stored), the Dodge's advantage on a DEX save. Nothing outside a fight or for a
/// creature not in it.
pub fn roll_check_advantages(
    call: &mut Call<'_>,
    enc: Option<&mut Encounter>,
    c: &Character,
    test: &D20Test,
    passive: bool,
) -> Result<Vec<String>> {
    let Some(enc) = enc else {
        return Ok(Vec::new());
    };
    if passive || enc.combatant(&c.id).is_none_or(|cb| cb.removed) {
        return Ok(Vec::new());
    }
    match test {
        D20Test::Save { ability } => Ok(dodging_dex_save_advantage(enc, &c.id, c, *ability)
            .map(|w| vec![w.to_string()])
            .unwrap_or_default()),
        D20Test::AbilityCheck { .. } | D20Test::SkillCheck { .. } => {
            let Some(why) = take_helped_check(enc, &c.id) else {
                return Ok(Vec::new());
            };
            crate::combat::save(call, enc)?;
            Ok(vec![why])
        }
        _ => Ok(Vec::new()),
    }
}

/// Consumes the Help action's advantage on `combatant_id`'s next ability check: returns the
/// advantage reason and clears the flag.
pub fn take_helped_check(enc: &mut Encounter, combatant_id: &str) -> Option<String> {
    let cb = enc.combatant_mut(combatant_id)?;
    if !cb.flags.helped_check {
        return None;
    }
    cb.flags.help_used(None);
    Some("helped (Help action)".into())
}

/// A creature's passive Wisdom (Perception) from its effective stats.
pub fn passive_perception(c: &Character) -> i32 {
    d20::passive_score(
        &c.effective(),
        &D20Request::new(D20Test::SkillCheck {
            skill: Skill::Perception,
        }),
    )
    .value
}

/// Whether `hidden_id` is hidden from `observer`: it took the Hide action and its Stealth total
/// beats the observer's passive Perception. For the attack module (unseen attackers).
pub fn hidden_from(enc: &Encounter, hidden_id: &str, observer: &Character) -> bool {
    enc.combatant(hidden_id)
        .and_then(|c| c.flags.hidden)
        .is_some_and(|total| total > passive_perception(observer))
}

pub use crate::combat::spatial::senses_of;

/// The living, present combatants hostile to `side`, with their sheets.
fn hostiles_of(
    call: &Call<'_>,
    enc: &Encounter,
    actor: &Combatant,
) -> Result<Vec<(Combatant, Character)>> {
    let mut out = Vec::new();
    for cb in enc
        .order
        .iter()
        .filter(|c| !c.removed && c.side.hostile_to(actor.side))
    {
        let c = crate::combat::sheet(call, &cb.character_id)?;
        if !c.dead {
            out.push((cb.clone(), c));
        }
    }
    Ok(out)
}

/// A short name list: "Goblin 1, Goblin 2".
fn names(list: &[String]) -> String {
    if list.is_empty() {
        "no one".into()
    } else {
        list.join(", ")
    }
}
