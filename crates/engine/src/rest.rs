//! `take_rest`: a short rest spends chosen hit dice (roll + CON each) and restores pact slots and
//! short-rest resources; a long rest restores HP, half the total hit dice (at least one), every
//! slot and resource, lowers exhaustion by 1 and ends "until rest" conditions and effects.
//! Both refuse while the character is in an active encounter.

use serde::Serialize;
use tabletop_rules::Condition;
use tabletop_rules::hp::HitDieSpend;

use crate::characters::resolve;
use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::character::{Character, CharacterRef, Recharge};
use crate::model::effects::Duration;
use crate::slots;

/// Short or long.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RestKind {
    /// At least an hour: hit dice, pact slots, short-rest resources.
    Short,
    /// Eight hours: everything.
    Long,
}

/// What a rest did.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RestOutcome {
    /// The character.
    pub character: String,
    /// Its id.
    pub character_id: String,
    /// Short or long.
    pub kind: RestKind,
    /// Each hit die spent (short rest).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub hit_dice_rolls: Vec<HitDieSpend>,
    /// HP before.
    pub hp_before: u32,
    /// HP after.
    pub hp_after: u32,
    /// Hit dice left after.
    pub hit_dice_left: u32,
    /// What happened.
    pub changes: Vec<String>,
}

/// The active encounter `c` takes part in, if any.
pub fn active_encounter_of(call: &Call<'_>, c: &Character) -> Result<Option<String>> {
    crate::combat::active_encounter_of(call, &c.id)
}

/// The refusal for a character in an active encounter.
pub fn refuse_in_encounter(c: &Character, encounter: Option<&str>) -> Result<()> {
    match encounter {
        None => Ok(()),
        Some(e) => Err(EngineError::Rule(format!(
            "{} is in active encounter {e} and cannot rest; end the encounter first (end_encounter)",
            c.name
        ))),
    }
}

/// Takes a rest; `hit_dice` is how many to spend on a short rest.
pub fn take_rest(
    call: &mut Call<'_>,
    who: CharacterRef<'_>,
    kind: RestKind,
    hit_dice: u32,
) -> Result<RestOutcome> {
    let mut c = resolve(call, who)?;
    let enc = active_encounter_of(call, &c)?;
    refuse_in_encounter(&c, enc.as_deref())?;
    if c.dead {
        return Err(EngineError::Rule(format!(
            "{} is dead and cannot rest",
            c.name
        )));
    }
    slots::ensure(call, &mut c);
    // A Dream nightmare spoils this rest: no benefit, damage on waking.
    if let Some(line) = crate::magic::life6::nightmare(call, &mut c)? {
        let hp_before = c.hp;
        let campaign = call.campaign();
        call.tx().put_character(campaign, &c)?;
        call.record_change("character", &c.id, line.clone());
        let mut changes = vec![line];
        if let Some(t) = crate::clock::rest_taken(call, kind == RestKind::Long)? {
            changes.push(format!("clock: {}", t.summary.trim_end_matches('.')));
        }
        return Ok(RestOutcome {
            character: c.name.clone(),
            character_id: c.id.clone(),
            kind,
            hit_dice_rolls: Vec::new(),
            hp_before,
            hp_after: c.hp,
            hit_dice_left: c.hit_dice,
            changes,
        });
    }
    let hp_before = c.hp;
    let mut changes = Vec::new();
    let mut rolls = Vec::new();
    let max_hp = u32::try_from(c.effective().max_hp.value.max(1)).unwrap_or(1);
    match kind {
        RestKind::Short => {
            if hit_dice > c.hit_dice {
                return Err(EngineError::invalid(
                    "hitDice",
                    format!(
                        "{} has {} hit dice (d{}) left, not {hit_dice}; spend 0–{}",
                        c.name, c.hit_dice, c.hit_die, c.hit_dice
                    ),
                ));
            }
            if hit_dice > 0 && c.hp == 0 {
                return Err(EngineError::Rule(format!(
                    "{} is at 0 HP; heal or stabilise it before spending hit dice",
                    c.name
                )));
            }
            let con = c
                .effective()
                .modifier(tabletop_rules::Ability::Constitution);
            let mut pools = crate::rest_dice::pools(&c);
            let mut single = c.hit_dice_pool();
            let mut each: Vec<String> = Vec::new();
            let mut unspent = 0u32;
            for k in 0..hit_dice {
                // A die spent at full HP heals nothing: the rest stops spending and says so.
                if c.hp >= max_hp {
                    unspent = hit_dice - k;
                    break;
                }
                let spent = match pools.as_mut() {
                    Some(p) => crate::rest_dice::spend_one(p, con, call.rng()?),
                    None => single
                        .spend(con, call.rng()?)
                        .map(|s| (String::new(), c.hit_die, s)),
                };
                let Some((_, faces, spend)) = spent else {
                    break;
                };
                call.record_roll(&spend);
                c.hp = (c.hp + spend.healing).min(max_hp);
                each.push(format!(
                    "d{faces} {} {:+} = {}",
                    spend.roll, spend.con_modifier, spend.healing
                ));
                rolls.push(spend);
            }
            match &pools {
                Some(p) => crate::rest_dice::store(&mut c, p),
                None => c.hit_dice = single.remaining(),
            }
            if !rolls.is_empty() {
                changes.push(format!(
                    "{} spends {} hit dice: {}; HP {hp_before} → {}",
                    c.name,
                    rolls.len(),
                    each.join(", "),
                    c.hp
                ));
            }
            if !rolls.is_empty() {
                crate::class_features::after_hit_dice(call, &mut c, max_hp, &mut changes)?;
            }
            if unspent > 0 {
                changes.push(format!(
                    "{} is at full HP ({}/{max_hp}): {unspent} hit dice not spent",
                    c.name, c.hp
                ));
            }
            if let Some(p) = &pools
                && p.len() > 1
            {
                changes.push(format!("hit dice: {}", crate::rest_dice::describe(p)));
            }
            if let Some(p) = c.spell_slots.pact.as_mut()
                && p.used > 0
            {
                p.used = 0;
                changes.push("pact slots restored".into());
            }
            for r in &mut c.resources {
                if r.recharge == Recharge::Short && r.current < r.max {
                    r.current = r.max;
                    changes.push(format!("{} restored to {}", r.name, r.max));
                }
            }
            crate::class_features::short_rest(&mut c, &mut changes);
            // What lasts until a short or long rest ends (a shadow's Strength Drain).
            let mut ended = Vec::new();
            c.effects.retain(|e| {
                let ends = e.duration == Duration::UntilShortRest;
                if ends {
                    ended.push(e.name.clone());
                }
                !ends
            });
            if !ended.is_empty() {
                changes.push(format!("ends: {}", ended.join(", ")));
            }
        }
        RestKind::Long => {
            if hit_dice > 0 {
                return Err(EngineError::invalid(
                    "hitDice",
                    "hit dice are spent on short rests; a long rest restores HP fully",
                ));
            }
            if c.hp == 0 {
                return Err(EngineError::Rule(format!(
                    "{} is at 0 HP and must have at least 1 HP to benefit from a long rest; heal it first",
                    c.name
                )));
            }
            if let Some(why) = crate::clock::long_rest_refusal(call, &c.id, &c.name)? {
                return Err(EngineError::Rule(why));
            }
            // Exhaustion first: level 4 halves max HP.
            if let Some(pos) = c
                .conditions
                .iter()
                .position(|e| e.condition == Condition::Exhaustion)
            {
                let cur = c.conditions[pos].level.unwrap_or(1);
                if cur <= 1 {
                    c.conditions.remove(pos);
                } else {
                    c.conditions[pos].level = Some(cur - 1);
                }
                changes.push(format!("exhaustion {cur} → {}", cur - 1));
            }
            let before = c.conditions.len();
            let mut ended: Vec<String> = Vec::new();
            c.conditions.retain(|e| {
                let ends = e.duration == Some(Duration::UntilRest);
                if ends {
                    ended.push(e.condition.to_string());
                }
                !ends
            });
            let _ = before;
            c.effects.retain(|e| {
                let ends = matches!(e.duration, Duration::UntilRest | Duration::UntilShortRest);
                if ends {
                    ended.push(e.name.clone());
                }
                !ends
            });
            if !ended.is_empty() {
                changes.push(format!("ends: {}", ended.join(", ")));
            }
            let max_hp = u32::try_from(c.effective().max_hp.value.max(1)).unwrap_or(1);
            c.hp = max_hp;
            c.death_saves = Default::default();
            match crate::rest_dice::pools(&c) {
                Some(mut pools) if pools.len() > 1 => {
                    let regained = crate::rest_dice::long_rest(&mut pools);
                    crate::rest_dice::store(&mut c, &pools);
                    changes.push(format!(
                        "HP {hp_before} → {max_hp}; regains {} hit dice ({}/{} left: {})",
                        if regained.is_empty() {
                            "no".to_string()
                        } else {
                            regained.join(" + ")
                        },
                        c.hit_dice,
                        c.level,
                        crate::rest_dice::describe(&pools)
                    ));
                }
                pools => {
                    let mut pool = c.hit_dice_pool();
                    let regained = pool.long_rest();
                    c.hit_dice = pool.remaining();
                    if let Some(mut p) = pools {
                        crate::rest_dice::long_rest(&mut p);
                        crate::rest_dice::store(&mut c, &p);
                    }
                    changes.push(format!(
                        "HP {hp_before} → {max_hp}; regains {regained} hit dice ({}/{} left)",
                        c.hit_dice, c.level
                    ));
                }
            }
            if crate::magic::life6_copy::no_slot_regain(&c) {
                changes.push("a simulacrum regains no spell slots".into());
            } else if !c.spell_slots.is_empty() {
                c.spell_slots.restore_all();
                changes.push("every spell slot restored".into());
            }
            for r in &mut c.resources {
                if r.current < r.max {
                    r.current = r.max;
                    changes.push(format!("{} restored to {}", r.name, r.max));
                }
            }
        }
    }
    if changes.is_empty() {
        changes.push(format!("{} rests; nothing to restore", c.name));
    }
    let campaign = call.campaign();
    call.tx().put_character(campaign, &c)?;
    call.record_change("character", &c.id, changes.join("; "));
    // The world clock: the rest's hour (or eight), once for everyone resting together.
    if let Some(t) = crate::clock::rest_taken(call, kind == RestKind::Long)? {
        changes.push(format!("clock: {}", t.summary.trim_end_matches('.')));
    }
    if kind == RestKind::Long {
        crate::clock::long_rest_ended(call, &c.id)?;
    }
    Ok(RestOutcome {
        character: c.name.clone(),
        character_id: c.id.clone(),
        kind,
        hit_dice_rolls: rolls,
        hp_before,
        hp_after: c.hp,
        hit_dice_left: c.hit_dice,
        changes,
    })
}
