//! The game master's damage and healing: an amount rolled once and applied to every target
//! through the damage pipeline (concentration, death) or healing (waking at 0 HP).

use tabletop_rules::damage::HealResult;
use tabletop_rules::dice::DiceRoll;

use super::attack::{apply_damage_to, damage_parts, damage_phrase, resolve_targets};
use super::{ActionOutcome, Turn};
use crate::combat;
use crate::engine::Call;
use crate::error::{EngineError, Result};

fn amount_roll(call: &mut Call<'_>, req: &super::ActionRequest, what: &str) -> Result<DiceRoll> {
    let Some(amount) = req
        .amount
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
    else {
        return Err(EngineError::invalid(
            "amount",
            format!("give the {what} as dice or a number (\"2d6+3\", \"7\", \"1d8[fire]\")"),
        ));
    };
    let roll = crate::rolls::caller_amount("amount", amount)?.roll(call.rng()?)?;
    call.record_roll(&roll);
    if roll.total < 0 {
        return Err(EngineError::invalid(
            "amount",
            format!(
                "the {what} came to {} ({}); it must be 0 or more (to undo damage, heal; to undo healing, damage)",
                roll.total,
                roll.summary()
            ),
        ));
    }
    Ok(roll)
}

fn dm_targets(turn: &Turn<'_>) -> Result<Vec<String>> {
    let t = resolve_targets(&turn.encounter, turn.req)?;
    if t.is_empty() {
        return Err(EngineError::invalid(
            "targetId",
            "say who is affected (targetId, targetName or targets)",
        ));
    }
    Ok(t)
}

/// Damage applied by the game master (free; no actor needed): `amount` rolled once and dealt to
/// every target through the damage pipeline, with concentration saves and death.
pub fn dm_damage(call: &mut Call<'_>, turn: &mut Turn<'_>) -> Result<ActionOutcome> {
    let targets = dm_targets(turn)?;
    let roll = amount_roll(call, turn.req, "damage")?;
    let parts = damage_parts(&roll, turn.req.damage_type);
    let mut lines = vec![format!("Damage: {}", roll.summary())];
    let mut heads = Vec::new();
    let mut results = Vec::new();
    for id in &targets {
        let (r, check, t) =
            apply_damage_to(call, &mut turn.encounter, id, &parts, false, &mut lines)?;
        heads.push(format!("{} takes {}.", t.name, damage_phrase(&r)));
        results.push(serde_json::json!({
            "target": t.name, "targetId": t.id, "damage": r, "concentration": check,
            "hp": t.hp, "status": t.status(),
        }));
    }
    Ok(ActionOutcome {
        headline: heads.join(" "),
        lines,
        details: serde_json::json!({ "roll": roll, "targets": results }),
        ..Default::default()
    })
}

/// Healing applied by the game master (free; no actor needed): `amount` rolled once for every
/// target; a creature at 0 HP wakes and its death saves reset.
pub fn dm_heal(call: &mut Call<'_>, turn: &mut Turn<'_>) -> Result<ActionOutcome> {
    let targets = dm_targets(turn)?;
    let roll = amount_roll(call, turn.req, "healing")?;
    let amount = u32::try_from(roll.total.max(0)).unwrap_or(u32::MAX);
    let mut lines = vec![format!("Healing: {}", roll.summary())];
    let mut heads = Vec::new();
    let mut results: Vec<(String, HealResult)> = Vec::new();
    for id in &targets {
        let mut t = combat::sheet(call, id)?;
        if t.dead {
            return Err(EngineError::Rule(format!(
                "{} is dead; healing cannot help (a spell such as revivify is needed)",
                t.name
            )));
        }
        let r = crate::update::heal(&mut t, amount, &mut lines)?;
        combat::put_sheet(call, &t)?;
        call.record_change("character", &t.id, format!("{} {}", t.name, r.summary()));
        let mut h = format!(
            "{} heals {} ({} → {} HP)",
            t.name, r.healed, r.hp_before, r.hp_after
        );
        if r.regains_consciousness {
            h.push_str(" and regains consciousness");
        }
        h.push('.');
        heads.push(h);
        results.push((t.id.clone(), r));
    }
    Ok(ActionOutcome {
        headline: heads.join(" "),
        lines,
        details: serde_json::json!({ "roll": roll, "healed": results }),
        ..Default::default()
    })
}
