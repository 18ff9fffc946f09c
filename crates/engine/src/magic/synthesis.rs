//! `synthesize_spell`: improvised magic. The caster proposes an effect; the engine sets a DC,
//! spends a slot of the proposed level, rolls Arcana with the caster's effective stats, and on a
//! success casts the proposal through the same machinery as a real spell (targets, saves,
//! damage, concentration).
//!
//! **DC** = 10 + 2 × level, + 2 for an area, + 2 for a condition, + 1 per effect beyond the
//! first (damage, healing and condition each count as one), − 2 with a costly material
//! component; clamped to 10–40.
//!
//! **Failure tiers** (by how much the check missed): 1–4, the magic fizzles (the slot is lost);
//! 5–9, backlash: the caster takes 1d6 per spell level of the proposal's damage type (force when
//! none); 10 or more, or a natural 1, a wild surge: a d6 on [`SURGES`], applied. A natural 20
//! that succeeds masters the spell: it is stored on the caster and castable with cast_spell by
//! name from then on.

use serde::Serialize;
use tabletop_rules::d20::{D20Outcome, D20Request, D20Test, roll_d20_test};
use tabletop_rules::damage::DamagePart;
use tabletop_rules::{Ability, Condition, DamageType, Skill};

use super::scroll::{Targeting, deliver, open};
use super::spellcasting;
use crate::characters::resolve_with_fields;
use crate::combat::actions::{ActionRequest, Who};
use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::character::{CharacterRef, ConditionEntry};
use crate::model::effects::Duration;
use crate::model::encounter::ActionCost;
use crate::model::names::name_key;
use crate::model::spell::{AreaKind, SpellArea, SpellDef, SpellSaveDef};

/// What kind of effect is proposed.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SynthKind {
    /// Damage.
    Damage,
    /// Healing.
    Healing,
    /// A condition.
    Condition,
    /// Anything else (narrated; the check and slot still count).
    Utility,
}

/// A proposed improvised spell.
#[derive(Debug, Clone)]
pub struct SynthRequest {
    /// The caster.
    pub caster: Who,
    /// Name (default `Improvised <school> spell`).
    pub name: Option<String>,
    /// Main effect.
    pub kind: SynthKind,
    /// Level 1–9 (the slot spent).
    pub level: u8,
    /// School (default evocation).
    pub school: Option<String>,
    /// Damage or healing dice ("4d6").
    pub dice: Option<String>,
    /// Damage type.
    pub damage_type: Option<DamageType>,
    /// Condition imposed.
    pub condition: Option<Condition>,
    /// Area shape and size.
    pub area: Option<SpellArea>,
    /// Save ability (half damage on a success for damage, none otherwise).
    pub save: Option<Ability>,
    /// Range in feet (default 60).
    pub range_ft: Option<u32>,
    /// Needs concentration.
    pub concentration: bool,
    /// Has a costly material component (−2 DC).
    pub costly_component: bool,
    /// Cast as a bonus action instead of an action.
    pub bonus_action: bool,
    /// Where it lands.
    pub targeting: Targeting,
}

/// The DC of a proposal (see the module docs).
pub fn synthesis_dc(r: &SynthRequest) -> i32 {
    let mut dc = 10 + 2 * i32::from(r.level);
    if r.area.is_some() {
        dc += 2;
    }
    if r.condition.is_some() {
        dc += 2;
    }
    let effects = usize::from(r.dice.is_some() && r.kind != SynthKind::Condition)
        + usize::from(r.condition.is_some());
    dc += i32::try_from(effects.saturating_sub(1)).unwrap_or(0);
    if r.costly_component {
        dc -= 2;
    }
    dc.clamp(10, 40)
}

/// The wild-surge table (d6).
pub const SURGES: [&str; 6] = [
    "Backfire: the spell's dice strike the caster (force)",
    "Arcane burn: the caster takes 1d10 force per spell level",
    "Blinding flash: the caster is blinded for 1 round",
    "Slot drain: the caster loses another slot of the highest level it has left",
    "Concussive pop: the caster is knocked prone",
    "Harmless sparks: glitter and the smell of ozone, nothing more",
];

/// What synthesize_spell did.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SynthOutcome {
    /// The caster.
    pub caster: String,
    /// The spell as built.
    pub spell: SpellDef,
    /// The DC.
    pub dc: i32,
    /// The Arcana check.
    pub check: D20Outcome,
    /// success, mastered, fizzle, backlash or wild_surge.
    pub result: &'static str,
    /// The lead line.
    pub headline: String,
    /// What followed.
    pub lines: Vec<String>,
    /// The casting's details on success.
    #[serde(skip_serializing_if = "serde_json::Value::is_null")]
    pub details: serde_json::Value,
    /// Encounter, if in one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub encounter_id: Option<String>,
}

fn build(r: &SynthRequest, caster_level: u32) -> Result<SpellDef> {
    if !(1..=9).contains(&r.level) {
        return Err(EngineError::invalid(
            "level",
            format!(
                "{} is out of range; an improvised spell is level 1–9",
                r.level
            ),
        ));
    }
    let dice = r.dice.as_ref().map(|d| d.trim().to_string());
    if let Some(d) = &dice {
        let e = tabletop_rules::dice::parse(d)?;
        let max_dice = u32::from(r.level) * 2 + 2;
        if e.dice_count() > max_dice {
            return Err(EngineError::invalid(
                "dice",
                format!(
                    "'{d}' has {} dice; a level-{} improvised spell rolls at most {max_dice}",
                    e.dice_count(),
                    r.level
                ),
            ));
        }
    }
    match r.kind {
        SynthKind::Damage | SynthKind::Healing if dice.is_none() => {
            return Err(EngineError::invalid(
                "dice",
                "damage and healing need dice, e.g. \"4d6\"",
            ));
        }
        SynthKind::Condition if r.condition.is_none() => {
            return Err(EngineError::invalid(
                "condition",
                "a condition spell needs condition, e.g. \"restrained\"",
            ));
        }
        _ => {}
    }
    if r.kind == SynthKind::Damage && r.damage_type.is_none() {
        return Err(EngineError::invalid(
            "damageType",
            "a damage spell needs damageType, e.g. \"fire\"",
        ));
    }
    if let Some(a) = &r.area
        && !(5..=120).contains(&a.size_ft)
    {
        return Err(EngineError::invalid(
            "areaSize",
            format!("{} ft is out of range; an area is 5–120 ft", a.size_ft),
        ));
    }
    let school = r
        .school
        .clone()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "Evocation".into());
    let name = r
        .name
        .clone()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| format!("Improvised {} spell", school.to_lowercase()));
    if name.chars().count() > 80 {
        return Err(EngineError::invalid("name", "at most 80 characters"));
    }
    let _ = caster_level;
    let mut def = SpellDef {
        name,
        level: r.level,
        school,
        casting_time: if r.bonus_action {
            "1 bonus action".into()
        } else {
            "1 action".into()
        },
        range: format!("{} feet", r.range_ft.unwrap_or(60).clamp(5, 1000)),
        components: vec!["V".into(), "S".into()],
        material: r
            .costly_component
            .then(|| "a costly focus worth 100 gp, consumed".to_string()),
        duration: if r.concentration {
            "Concentration, up to 1 minute".into()
        } else {
            "Instantaneous".into()
        },
        concentration: r.concentration,
        ritual: false,
        classes: Vec::new(),
        damage_type: r
            .damage_type
            .or(Some(DamageType::Force))
            .filter(|_| r.kind == SynthKind::Damage),
        damage_at_slot: Default::default(),
        damage_at_level: Default::default(),
        heal_at_slot: Default::default(),
        save: r.save.map(|ability| SpellSaveDef {
            ability,
            half: r.kind == SynthKind::Damage,
        }),
        attack: None,
        area: r.area,
        condition: r.condition,
        repeat_save: r.condition.is_some() && r.save.is_some(),
        effect: None,
        higher_level: None,
        synthesized: true,
        aura: None,
        index: None,
        many_targets: false,
        ignores_cover: false,
        inorganic_disadvantage: false,
    };
    if def.costly_material().is_none() && r.costly_component {
        def.material = Some("a costly focus worth 100 gp".into());
    }
    if let Some(d) = dice {
        match r.kind {
            SynthKind::Healing => {
                def.heal_at_slot.insert(r.level, d);
            }
            SynthKind::Utility => {}
            _ => {
                def.damage_at_slot.insert(r.level, d);
            }
        }
    }
    if r.kind == SynthKind::Utility && def.area.is_none() && r.targeting.targets.is_empty() {
        def.range = "Self".into();
    }
    let _ = AreaKind::Sphere;
    Ok(def)
}

/// Attempts an improvised spell.
pub fn synthesize_spell(call: &mut Call<'_>, r: SynthRequest) -> Result<SynthOutcome> {
    let reader = resolve_with_fields(
        call,
        CharacterRef::new(r.caster.id.as_deref(), r.caster.name.as_deref()),
        "characterId",
        "characterName",
    )?;
    let def = build(&r, reader.level)?;
    let dc = synthesis_dc(&r);
    let mut areq = ActionRequest::default();
    let cost = if r.bonus_action {
        ActionCost::BonusAction
    } else {
        ActionCost::Action
    };
    let mut ctx = open(call, &reader, &r.targeting, &mut areq, Some(cost))?;
    let mut caster = ctx.caster(&reader);
    crate::slots::ensure(call, &mut caster);
    let numbers = spellcasting::caster_numbers(call, &caster)?;
    let slot = spellcasting::spend_slot(&mut caster, def.level, None)?;
    let mut lines = vec![format!(
        "{}{} slot spent; DC {dc} (10 + 2×{}{}{}{})",
        crate::model::slots::ordinal(slot.level),
        if slot.pact { " pact" } else { "" },
        r.level,
        if r.area.is_some() { " +2 area" } else { "" },
        if r.condition.is_some() {
            " +2 condition"
        } else {
            ""
        },
        if r.costly_component {
            " −2 costly component"
        } else {
            ""
        },
    )];
    let stats = caster.effective();
    let req = D20Request::new(D20Test::SkillCheck {
        skill: Skill::Arcana,
    })
    .dc(dc)
    .labelled(format!("Arcana check to synthesize {}", def.name));
    let check = roll_d20_test(&stats, &req, call.rng()?);
    call.record_roll(&check);
    lines.push(format!("{} — {}", caster.name, check.summary()));
    let natural = check.kept.unwrap_or(0);
    let total = check.total.unwrap_or(0);
    let ok = check.success == Some(true);
    if ok {
        let mastered = natural == 20;
        if mastered {
            let key = name_key(&def.name);
            caster.mastered_spells.retain(|s| name_key(&s.name) != key);
            caster.mastered_spells.push(def.clone());
            lines.push(format!(
                "natural 20: {} masters {}; cast it again with cast_spell by name",
                caster.name, def.name
            ));
        }
        let name = caster.name.clone();
        let d = deliver(
            call,
            &mut ctx,
            caster,
            def.clone(),
            numbers,
            slot,
            &r.targeting,
            "",
        )?;
        lines.extend(d.lines);
        let enc = ctx.close(call, &d.headline)?;
        return Ok(SynthOutcome {
            caster: name,
            spell: def,
            dc,
            check,
            result: if mastered { "mastered" } else { "success" },
            headline: format!("Synthesis succeeds! {}", d.headline),
            lines,
            details: d.details,
            encounter_id: enc.or(d.encounter_id),
        });
    }
    let miss = dc - total;
    let (result, headline) = if natural == 1 || miss >= 10 {
        let roll = tabletop_rules::dice::roll("1d6", call.rng()?)?;
        call.record_roll(&roll);
        let i = usize::try_from(roll.total.clamp(1, 6) - 1).unwrap_or(5);
        lines.push(format!("wild surge d6 = {}: {}", roll.total, SURGES[i]));
        let effect = surge(call, &mut caster, &def, i, &mut lines)?;
        (
            "wild_surge",
            format!(
                "Wild surge! {}'s {} goes wrong: {effect}.",
                caster.name, def.name
            ),
        )
    } else if miss >= 5 {
        let dtype = def.damage_type.unwrap_or(DamageType::Force);
        let taken = hurt(
            call,
            &mut caster,
            &format!("{}d6", def.level),
            dtype,
            &mut lines,
        )?;
        (
            "backlash",
            format!("Backlash! {}'s {} recoils: {taken}.", caster.name, def.name),
        )
    } else {
        (
            "fizzle",
            format!(
                "{}'s {} fizzles (missed by {miss}); the slot is lost.",
                caster.name, def.name
            ),
        )
    };
    crate::combat::put_sheet(call, &caster)?;
    call.record_change("character", &caster.id, headline.clone());
    let enc = ctx.close(call, &headline)?;
    Ok(SynthOutcome {
        caster: caster.name.clone(),
        spell: def,
        dc,
        check,
        result,
        headline,
        lines,
        details: serde_json::Value::Null,
        encounter_id: enc,
    })
}

fn hurt(
    call: &mut Call<'_>,
    c: &mut crate::model::character::Character,
    dice: &str,
    dtype: DamageType,
    lines: &mut Vec<String>,
) -> Result<String> {
    if c.dead {
        return Ok(format!("{} is dead", c.name));
    }
    let roll = tabletop_rules::dice::roll(dice, call.rng()?)?;
    call.record_roll(&roll);
    lines.push(format!("{dice} {dtype}: {}", roll.summary()));
    let amount = u32::try_from(roll.total.max(0)).unwrap_or(0);
    let mut changes = Vec::new();
    let r = crate::update::damage(
        c,
        &[DamagePart::new(Some(dtype), amount)],
        false,
        &mut changes,
    )?;
    lines.append(&mut changes);
    crate::concentration::after_damage(call, c, r.total, lines)?;
    crate::concentration::enforce(call, c, lines)?;
    Ok(format!("{} {}", c.name, r.summary()))
}

fn surge(
    call: &mut Call<'_>,
    c: &mut crate::model::character::Character,
    def: &SpellDef,
    i: usize,
    lines: &mut Vec<String>,
) -> Result<String> {
    Ok(match i {
        0 => {
            let dice = def
                .damage_at_slot
                .get(&def.level)
                .or_else(|| def.heal_at_slot.get(&def.level))
                .cloned()
                .unwrap_or_else(|| format!("{}d6", def.level));
            hurt(call, c, &dice, DamageType::Force, lines)?
        }
        1 => hurt(
            call,
            c,
            &format!("{}d10", def.level),
            DamageType::Force,
            lines,
        )?,
        2 => {
            add_condition(c, Condition::Blinded, Some(1));
            format!("{} is blinded for 1 round", c.name)
        }
        3 => {
            let top = (1..=9u8).rev().find(|l| c.spell_slots.left(*l) > 0);
            match top {
                Some(l) => {
                    c.spell_slots.used[usize::from(l - 1)] += 1;
                    format!(
                        "{} loses a {}-level slot too",
                        c.name,
                        crate::model::slots::ordinal(l)
                    )
                }
                None => format!("{} has no slot left to lose", c.name),
            }
        }
        4 => {
            add_condition(c, Condition::Prone, None);
            format!("{} is knocked prone", c.name)
        }
        _ => "nothing but harmless sparks".to_string(),
    })
}

fn add_condition(c: &mut crate::model::character::Character, cond: Condition, rounds: Option<u32>) {
    if c.effective().condition_immunities.contains_key(&cond) {
        return;
    }
    c.conditions.retain(|e| e.condition != cond);
    c.conditions.push(ConditionEntry {
        by: None,
        ends_on: None,
        condition: cond,
        level: None,
        source: "wild surge".into(),
        duration: rounds.map(|n| Duration::Rounds { remaining: n }),
    });
}

/// The improvised spells `who` has mastered (castable with cast_spell by name).
pub fn spellbook(call: &Call<'_>, who: CharacterRef<'_>) -> Result<(String, Vec<SpellDef>)> {
    let c = crate::characters::resolve(call, who)?;
    Ok((c.name, c.mastered_spells))
}
