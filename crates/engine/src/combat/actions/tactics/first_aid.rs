//! First aid: an action to stabilise a dying creature within 5 ft with a DC 10 Wisdom
//! (Medicine) check (SRD, "Stabilizing a Creature"). Taken with `use_special_ability` named
//! "First Aid" (or "Stabilize", "Medicine"); a healer's kit is not modelled (the DM decides).

use serde_json::json;
use tabletop_rules::Skill;
use tabletop_rules::d20::{D20Request, D20Test, roll_d20_test};

use super::stealth::with_caller;
use super::{distance, resolve, take_helped_check};
use crate::combat::actions::{ActionOutcome, Turn};
use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::character::Character;
use crate::model::names::name_key;

/// The DC of the Medicine check that stabilises.
pub const DC: i32 = 10;

/// Whether `name` asks for first aid.
pub fn is_first_aid(name: &str) -> bool {
    matches!(
        name_key(name).as_str(),
        "first aid" | "stabilize" | "stabilise" | "medicine" | "stabilize creature"
    )
}

/// Rolls the Medicine check on the target and marks it stable on a success.
pub fn first_aid(call: &mut Call<'_>, turn: &mut Turn<'_>, a: &Character) -> Result<ActionOutcome> {
    if turn.req.target.is_empty() {
        return Err(EngineError::invalid(
            "targetId",
            "say whom to stabilise (targetId or targetName): a creature at 0 HP within 5 ft",
        ));
    }
    let (cb, mut t) = resolve(call, &turn.encounter, &turn.req.target.clone(), "targetId")?;
    if t.dead {
        return Err(EngineError::Rule(format!(
            "{} is dead; first aid cannot help (revival magic such as Revivify can)",
            t.name
        )));
    }
    if t.hp > 0 {
        return Err(EngineError::Rule(format!(
            "{} has {} HP and is not dying; first aid stabilises a creature at 0 HP",
            t.name, t.hp
        )));
    }
    if t.death_saves.stable {
        return Err(EngineError::Rule(format!("{} is already stable", t.name)));
    }
    let d = distance(&turn.encounter, &a.id, &cb.character_id)?;
    turn.rule(
        d <= 5,
        format!(
            "{} is {d} ft from {}; first aid needs the creature within 5 ft",
            t.name, a.name
        ),
    )?;
    let mut req = D20Request::new(D20Test::SkillCheck {
        skill: Skill::Medicine,
    })
    .labelled(format!("{} Medicine (stabilise {})", a.name, t.name));
    if let Some(why) = take_helped_check(&mut turn.encounter, &a.id) {
        req = req.advantage(why);
    }
    req = with_caller(req, turn);
    let roll = roll_d20_test(&a.effective(), &req, call.rng()?);
    call.record_roll(&roll);
    let total = roll.total.unwrap_or(i32::MIN);
    let ok = roll.total.is_some() && total >= DC;
    let headline = if ok {
        t.death_saves.stable = true;
        crate::combat::put_sheet(call, &t)?;
        call.record_change("character", &t.id, format!("{} is stable", t.name));
        format!(
            "{} stabilises {} (Medicine {total} vs DC {DC}): stable at 0 HP, no more death saves.",
            a.name, t.name
        )
    } else {
        format!(
            "{} fails to stabilise {} (Medicine {total} vs DC {DC}); {} is still dying.",
            a.name, t.name, t.name
        )
    };
    Ok(ActionOutcome {
        headline,
        lines: vec![roll.summary()],
        details: json!({ "check": roll, "dc": DC, "stable": ok }),
        ..Default::default()
    })
}
