//! Sanctuary on attacks: a creature attacking a warded creature first makes a Wisdom save
//! against the caster's DC; on a failure it must choose a new target, and this attack is lost
//! ([`check`]). The ward ends when the warded creature itself attacks ([`attacker_side`]).

use tabletop_rules::Ability;
use tabletop_rules::d20::{D20Request, D20Test, roll_d20_test};

use super::profile::AttackKind;
use super::strike::{Situation, StrikeResult};
use crate::combat;
use crate::engine::Call;
use crate::error::Result;
use crate::model::character::Character;

/// The warded creature attacks: its own Sanctuary ends (stored); the sheet to go on with and
/// what ended.
pub fn attacker_side(call: &mut Call<'_>, attacker: Character) -> Result<(Character, Vec<String>)> {
    let warded = |e: &crate::effects::ActiveEffect| {
        e.grant.as_ref().is_some_and(|g| g.sanctuary_dc.is_some())
    };
    if !attacker.effects.iter().any(warded) {
        return Ok((attacker, Vec::new()));
    }
    let mut a = attacker;
    let names: Vec<String> = a
        .effects
        .iter()
        .filter(|e| warded(e))
        .map(|e| e.name.clone())
        .collect();
    a.effects.retain(|e| !warded(e));
    combat::put_sheet(call, &a)?;
    let line = format!("{} attacks: its {} ends", a.name, names.join(", "));
    call.record_change("character", &a.id, line.clone());
    Ok((a, vec![line]))
}

/// The attacker's save against the target's Sanctuary; on a failure the attack is lost (the
/// result says so, with the save as its roll).
pub fn check(
    call: &mut Call<'_>,
    attacker: &Character,
    target: &Character,
    weapon: &str,
    kind: AttackKind,
    sit: &Situation,
) -> Result<Option<StrikeResult>> {
    let Some((name, dc)) = target
        .effects
        .iter()
        .find_map(|e| Some((e.name.clone(), e.grant.as_ref()?.sanctuary_dc?)))
    else {
        return Ok(None);
    };
    let req = D20Request::new(D20Test::Save {
        ability: Ability::Wisdom,
    })
    .dc(dc)
    .labelled(format!(
        "{} WIS save vs {name} on {}",
        attacker.name, target.name
    ));
    let out = roll_d20_test(&attacker.effective(), &req, call.rng()?);
    call.record_roll(&out);
    if out.success == Some(true) {
        return Ok(None);
    }
    let headline = format!(
        "{} fails its save against {name} on {}: it must choose a new target, and this attack is lost.",
        attacker.name, target.name
    );
    Ok(Some(StrikeResult {
        attacker_id: attacker.id.clone(),
        attacker: attacker.name.clone(),
        target_id: target.id.clone(),
        target: target.name.clone(),
        weapon: weapon.to_string(),
        kind,
        situation: sit.clone(),
        lines: vec![out.summary()],
        roll: out,
        hit: false,
        critical: false,
        damage_roll: None,
        damage: None,
        concentration: None,
        target_hp: target.hp,
        target_status: "ok".into(),
        headline,
        forced: Vec::new(),
        paused: false,
    }))
}
