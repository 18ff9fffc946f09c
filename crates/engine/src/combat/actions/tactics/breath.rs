//! A dragonborn's Breath Weapon (the catalog's `Use::Breath`). The derived sheet holds the
//! area save of the chosen ancestry at the character's level ([`AreaSave`]); a use spends the
//! "Breath Weapon" resource, then in an encounter it is resolved as a stat block's breath is
//! ([`super::area_effect::resolve_effect`]: the named targets, or the cone or line aimed with `to`
//! or `direction`, each creature saving for half). Outside any encounter the use is spent, the
//! damage rolled and the numbers said: who stands in the area is the DM's.

use serde_json::{Value, json};
use tabletop_grid::Shape;
use tabletop_rules::dice;
use tabletop_srd::AreaShape;

use super::Turn;
use super::ability_text::TextArea;
use crate::character::{Character, name_key};
use crate::combat::actions::{ActionOutcome, ActionRequest, ActionType};
use crate::derive::ActionSpec;
use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::build::AreaSave;
use crate::model::character::{CharacterRef, StatAction, StatDamage, StatDc};

/// The area save of `spec`, or why there is none (no ancestry chosen).
fn area_save<'s>(user: &Character, spec: &'s ActionSpec) -> Result<&'s AreaSave> {
    spec.area_save.as_ref().ok_or_else(|| {
        EngineError::Rule(format!(
            "{}'s {} has no draconic ancestry to take its area, save and damage from (create the dragonborn with draconicAncestry); the DM resolves it",
            user.name, spec.name
        ))
    })
}

/// The save DC as the user stands now: 8 + the ability's modifier + proficiency.
fn dc(user: &Character, a: &AreaSave) -> i32 {
    let prof = user.derived.as_ref().map_or(2, |d| d.proficiency_bonus);
    8 + prof + user.effective().modifier(a.dc_ability)
}

/// The grid shape of the area (a line is 5 ft wide).
fn shape(a: &AreaSave) -> Shape {
    let n = i32::try_from(a.size_ft).unwrap_or(i32::MAX);
    match a.shape {
        AreaShape::Cone => Shape::Cone { length_ft: n },
        AreaShape::Line => Shape::Line {
            length_ft: n,
            width_ft: 5,
        },
        AreaShape::Cube => Shape::Cube { size_ft: n },
        AreaShape::Sphere => Shape::Sphere { radius_ft: n },
        AreaShape::Cylinder => Shape::Cylinder {
            radius_ft: n,
            height_ft: n,
        },
    }
}

/// The breath as a stat-block effect: its save, its damage, its text.
fn effect(spec: &ActionSpec, a: &AreaSave, dc: i32) -> StatAction {
    StatAction {
        name: spec.name.clone(),
        desc: format!(
            "Each creature in the {}: DC {dc} {} save, {} {} damage, {} on a success.",
            a.area_text(),
            a.save.abbr(),
            a.dice,
            a.damage_type,
            if a.half { "half" } else { "none" }
        ),
        attack_bonus: None,
        damage: vec![StatDamage {
            dice: a.dice.clone(),
            damage_type: Some(a.damage_type),
        }],
        dc: Some(StatDc {
            ability: a.save,
            value: dc,
            success: if a.half { "half" } else { "none" }.into(),
        }),
        recharge: None,
        multiattack: Vec::new(),
        alternatives: Vec::new(),
    }
}

/// Breathes in an encounter: every creature in the area aimed (or the named targets) saves.
pub(super) fn breathe(
    call: &mut Call<'_>,
    turn: &mut Turn<'_>,
    me: &Character,
    spec: &ActionSpec,
    lines: &mut Vec<String>,
    details: &mut Value,
) -> Result<String> {
    let a = area_save(me, spec)?;
    // Its own sheet is stored after the use: it is not among the creatures it breathes on.
    let named = std::iter::once(&turn.req.target).chain(&turn.req.targets);
    for w in named.filter(|w| !w.is_empty()) {
        let (cb, _) = super::resolve(call, &turn.encounter, w, "targets")?;
        if cb.character_id == me.id {
            return Err(EngineError::invalid(
                "targets",
                format!("{} breathes on others, not on itself", me.name),
            ));
        }
    }
    let dc = dc(me, a);
    let action = effect(spec, a, dc);
    let area = TextArea::Shape(shape(a));
    let r = super::area_effect::resolve_effect(call, turn, Some(&me.id), &action, Some(area))?;
    lines.extend(r.lines);
    *details = r.details;
    Ok(format!(
        "{} uses {} (DC {dc} {} save, {} {}): {}",
        me.name,
        spec.name,
        a.save.abbr(),
        a.dice,
        a.damage_type,
        r.summary
    ))
}

/// `use_special_ability` of a Breath Weapon by a character in no active encounter (and no
/// encounterId given): the use is spent and the damage rolled; the answer says the DC, the
/// damage on a failure and on a success, and that the engine does not place the area or roll
/// the saves. `None` when the request is for the encounter path.
pub fn outside_combat(call: &mut Call<'_>, req: &ActionRequest) -> Result<Option<ActionOutcome>> {
    if req.encounter_id.is_some() || req.actor.is_empty() {
        return Ok(None);
    }
    let Some(name) = req.ability_name.as_deref().map(name_key) else {
        return Ok(None);
    };
    let Ok(mut me) = crate::characters::resolve_with_fields(
        call,
        CharacterRef::new(req.actor.id.as_deref(), req.actor.name.as_deref()),
        "actorId",
        "actorName",
    ) else {
        return Ok(None);
    };
    let Some(spec) = me
        .derived
        .as_ref()
        .and_then(|d| d.actions.iter().find(|x| name_key(&x.name) == name))
        .filter(|x| matches!(x.does, crate::catalog::Use::Breath { .. }))
        .cloned()
    else {
        return Ok(None);
    };
    if crate::combat::active_encounter_of(call, &me.id)?.is_some() {
        return Ok(None);
    }
    let a = area_save(&me, &spec)?.clone();
    let dc = dc(&me, &a);
    let mut forced = Vec::new();
    let mut lines = Vec::new();
    if let Some(line) = super::feature_uses::spend(&mut me, &spec, 1, req.force, &mut forced)? {
        lines.push(line);
    }
    let roll = dice::roll(&format!("({})[{}]", a.dice, a.damage_type), call.rng()?)?;
    call.record_roll(&roll);
    lines.push(format!("Damage roll: {}", roll.summary()));
    let full = u32::try_from(roll.total.max(0)).unwrap_or(0);
    let on_success = if a.half { full / 2 } else { 0 };
    lines.push(format!(
        "No encounter: the engine does not place the {} nor roll the saves. Each creature in it makes a DC {dc} {} save: {full} {} damage on a failure, {on_success} on a success (apply it with update_character damage, or breathe in an encounter).",
        a.area_text(),
        a.save.abbr(),
        a.damage_type
    ));
    crate::combat::put_sheet(call, &me)?;
    let headline = format!(
        "{} uses {} ({}, {}): DC {dc} {} save, {} {} damage, {} on a success.",
        me.name,
        spec.name,
        a.damage_type,
        a.area_text(),
        a.save.abbr(),
        a.dice,
        a.damage_type,
        if a.half { "half" } else { "none" }
    );
    call.record_change("character", &me.id, headline.clone());
    Ok(Some(ActionOutcome {
        actor: me.name.clone(),
        action_type: Some(ActionType::UseSpecialAbility),
        headline,
        lines,
        forced,
        details: json!({"dc": dc, "save": a.save, "area": a.area_text(),
                        "damageRoll": roll, "onFailure": full, "onSuccess": on_success}),
        ..Default::default()
    }))
}
