//! `manage_effect`: boons, curses and spell effects as typed modifiers on a character, with a
//! source, a duration, an end trigger and an optional link to a caster's concentration.
//!
//! Effects feed [`Character::effective`] (the one effective-stats pipeline), so every roll, AC,
//! speed, defence and max-HP figure sees them. Same-name effects do not stack: adding one again
//! replaces the old (fresh duration).

use serde::Serialize;
use tabletop_rules::Ability;
use tabletop_rules::modifiers::{Modifier, ModifierKind};

use crate::characters::{resolve, resolve_with_fields};
use crate::concentration::{self, ConcentrationEnd};
use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::character::{Character, CharacterRef};
use crate::model::concentration::ConcentrationLink;
use crate::model::names::name_key;

/// The data of this family lives in the model; re-exported so the old paths keep working.
pub use crate::model::effects::{
    ActiveEffect, Duration, EndTrigger, MAX_ROUNDS, SpellGrant, TurnPoint, preset, preset_entry,
};

/// A new effect as requested.
#[derive(Debug, Clone, Default)]
pub struct EffectRequest {
    /// Name (a preset such as Bless fills the modifiers when none are given).
    pub name: String,
    /// Who or what imposed it.
    pub source: Option<String>,
    /// What it does; empty uses the preset of `name`.
    pub modifiers: Vec<ModifierKind>,
    /// Rounds (with `duration` Rounds).
    pub duration: DurationRequest,
    /// The caster whose concentration holds it (default: the bearer).
    pub caster: Option<(Option<String>, Option<String>)>,
    /// When rounds tick.
    pub ends_on: Option<TurnPoint>,
    /// The turn whose start/end ticks it (default: the bearer's).
    pub turn_of: Option<(Option<String>, Option<String>)>,
}

/// A duration as a caller names it (the caster and spell are filled in by the engine).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum DurationRequest {
    /// The preset's (concentration for concentration spells), else until dispelled.
    #[default]
    Default,
    /// Rounds.
    Rounds(u32),
    /// Until a long rest.
    UntilRest,
    /// Until removed.
    UntilDispelled,
    /// The caster's concentration.
    Concentration,
    /// Until a save succeeds.
    SaveEnds {
        /// DC.
        dc: i32,
        /// Ability.
        ability: Ability,
    },
}

/// What `manage_effect` did.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EffectOutcome {
    /// The character.
    pub character: String,
    /// Its id.
    pub character_id: String,
    /// What happened, in words.
    pub changes: Vec<String>,
    /// The effects on it now.
    pub effects: Vec<ActiveEffect>,
    /// A concentration that ended because of this call.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub concentration_ended: Option<ConcentrationEnd>,
}

fn outcome(c: &Character, changes: Vec<String>, ended: Option<ConcentrationEnd>) -> EffectOutcome {
    EffectOutcome {
        character: c.name.clone(),
        character_id: c.id.clone(),
        changes,
        effects: c.effects.clone(),
        concentration_ended: ended,
    }
}

/// Checks a requested duration's numbers.
pub fn check_duration(d: &DurationRequest) -> Result<()> {
    match d {
        DurationRequest::Rounds(n) if !(1..=MAX_ROUNDS).contains(n) => Err(EngineError::invalid(
            "rounds",
            format!("{n} is out of range; give 1–{MAX_ROUNDS} rounds"),
        )),
        DurationRequest::SaveEnds { dc, .. } if !(1..=40).contains(dc) => Err(
            EngineError::invalid("saveDC", format!("{dc} is out of range; a DC is 1–40")),
        ),
        _ => Ok(()),
    }
}

/// Adds an effect; a same-name effect is replaced (effects do not stack).
pub fn add_effect(
    call: &mut Call<'_>,
    target: CharacterRef<'_>,
    req: EffectRequest,
) -> Result<EffectOutcome> {
    let name = req.name.trim().to_string();
    if name.is_empty() || name.chars().count() > 80 {
        return Err(EngineError::invalid(
            "name",
            "give the effect a name of 1–80 characters, e.g. \"Bless\"",
        ));
    }
    check_duration(&req.duration)?;
    let preset = preset(&name);
    let kinds = if req.modifiers.is_empty() {
        match &preset {
            Some((k, _)) => k.clone(),
            None => {
                return Err(EngineError::invalid(
                    "modifiers",
                    format!(
                        "'{name}' is not a known effect ({}); give modifiers, e.g. [{{\"type\":\"ac_bonus\",\"amount\":2}}]",
                        crate::catalog::spells::effect_names().join(", ")
                    ),
                ));
            }
        }
    } else {
        req.modifiers.clone()
    };
    check_modifiers(&kinds)?;
    let entry = preset_entry(&name);
    // A concentration preset is linked to a caster's concentration only when the caster is
    // named: the bearer's own concentration is never broken by a spell someone else cast.
    let wants_concentration = match req.duration {
        DurationRequest::Concentration => true,
        DurationRequest::Default => {
            preset.as_ref().is_some_and(|(_, c)| *c) && req.caster.is_some()
        }
        _ => false,
    };
    let until_caster_turn =
        req.duration == DurationRequest::Default && entry.is_some_and(|e| e.until.is_some());
    if req.caster.is_some() && !wants_concentration && !until_caster_turn {
        return Err(EngineError::invalid(
            "caster",
            "a caster links the effect to concentration; add duration \"concentration\"",
        ));
    }

    let mut bearer = resolve(call, target)?;
    let mut changes = Vec::new();
    let mut ended = None;
    let duration = if wants_concentration {
        let caster_ref = req
            .caster
            .as_ref()
            .map(|(id, name)| CharacterRef::new(id.as_deref(), name.as_deref()));
        let caster_id = match caster_ref {
            Some(r) => resolve_with_fields(call, r, "caster", "caster")?.id,
            None => bearer.id.clone(),
        };
        let link = ConcentrationLink::effect(&bearer.id, &name);
        if caster_id == bearer.id {
            ended = concentration::begin(call, &mut bearer, &name, &mut changes)?;
            if let Some(conc) = bearer.concentration.as_mut() {
                conc.add_link(link);
            }
        } else {
            let mut caster = resolve(call, CharacterRef::new(Some(&caster_id), None))?;
            ended = concentration::begin(call, &mut caster, &name, &mut changes)?;
            if let Some(conc) = caster.concentration.as_mut() {
                conc.add_link(link);
            }
            let campaign = call.campaign();
            call.tx().put_character(campaign, &caster)?;
            // The old concentration may have touched the bearer: reload it.
            bearer = resolve(call, CharacterRef::new(Some(&bearer.id), None))?;
        }
        Duration::Concentration {
            caster_id,
            spell: name.clone(),
        }
    } else {
        match req.duration {
            DurationRequest::Rounds(n) => Duration::Rounds { remaining: n },
            DurationRequest::UntilRest => Duration::UntilRest,
            DurationRequest::SaveEnds { dc, ability } => Duration::SaveEnds { dc, ability },
            // A preset lasts as its spell does (Shield: until the start of the caster's next
            // turn; Longstrider: 1 hour; Bless with no caster named: up to 1 minute).
            DurationRequest::Default => match entry {
                Some(e) if e.until.is_some() => Duration::Rounds { remaining: 1 },
                Some(e) => {
                    if e.concentration {
                        changes.push(format!(
                            "no caster named: {name} is linked to nobody's concentration and lasts its full duration; give caster to link it"
                        ));
                    }
                    e.rounds
                        .map_or(Duration::UntilDispelled, |n| Duration::Rounds {
                            remaining: n,
                        })
                }
                None => Duration::UntilDispelled,
            },
            _ => Duration::UntilDispelled,
        }
    };
    let preset_until = if until_caster_turn {
        let whose = match &req.caster {
            Some((id, n)) => {
                resolve_with_fields(
                    call,
                    CharacterRef::new(id.as_deref(), n.as_deref()),
                    "caster",
                    "caster",
                )?
                .id
            }
            None => bearer.id.clone(),
        };
        entry.and_then(|e| e.until).map(|u| EndTrigger {
            at: match u {
                crate::catalog::spells::Until::CasterNextTurnStart => TurnPoint::Start,
                crate::catalog::spells::Until::CasterNextTurnEnd => TurnPoint::End,
            },
            turn_of: whose,
        })
    } else {
        None
    };
    let ends_on = match (req.ends_on, &req.turn_of) {
        (None, None) => preset_until,
        (at, turn_of) => {
            let turn_of = match turn_of {
                Some((id, n)) => {
                    resolve_with_fields(
                        call,
                        CharacterRef::new(id.as_deref(), n.as_deref()),
                        "turnOf",
                        "turnOf",
                    )?
                    .id
                }
                None => bearer.id.clone(),
            };
            Some(EndTrigger {
                at: at.unwrap_or(TurnPoint::End),
                turn_of,
            })
        }
    };
    let key = name_key(&name);
    if let Some(pos) = bearer.effects.iter().position(|e| name_key(&e.name) == key) {
        let old = bearer.effects.remove(pos);
        changes.push(format!(
            "{} replaced (same-name effects do not stack)",
            old.name
        ));
    }
    // Heroism: temporary HP equal to the caster's spellcasting modifier each turn.
    let grant = match (
        entry.and_then(|e| e.temp_hp_each_turn.as_ref()),
        &req.caster,
    ) {
        (Some(_), Some((id, n))) => {
            let caster = resolve_with_fields(
                call,
                CharacterRef::new(id.as_deref(), n.as_deref()),
                "caster",
                "caster",
            )?;
            let m = crate::magic::spellcasting::caster_numbers(call, &caster)?.modifier;
            changes.push(format!(
                "{} gains {} temporary HP at the start of each of its turns ({}'s spellcasting modifier)",
                bearer.name,
                m.max(0),
                caster.name
            ));
            Some(SpellGrant {
                temp_hp_each_turn: Some(u32::try_from(m.max(0)).unwrap_or(0)),
                ..Default::default()
            })
        }
        (Some(_), None) => {
            changes.push(format!(
                "no caster named: {name}'s temporary HP each turn needs the caster's spellcasting modifier; give caster"
            ));
            None
        }
        _ => None,
    };
    let id = call.new_id("ef")?;
    let effect = ActiveEffect {
        id,
        name: name.clone(),
        source: req.source.clone(),
        modifiers: kinds
            .into_iter()
            .map(|k| Modifier::new(name.clone(), k))
            .collect(),
        duration,
        ends_on,
        ends_when_attacked: false,
        damaged_since_turn: false,
        grant,
    };
    changes.push(format!(
        "{} gains {} ({}; {})",
        bearer.name,
        effect.name,
        effect
            .modifiers
            .iter()
            .map(|m| m.kind.to_string())
            .collect::<Vec<_>>()
            .join(", "),
        effect.duration.describe(|id| caster_label(call, id))
    ));
    bearer.effects.push(effect);
    let incapacitated = concentration::enforce(call, &mut bearer, &mut changes)?;
    ended = ended.or(incapacitated);
    save(call, &bearer, &changes)?;
    Ok(outcome(&bearer, changes, ended))
}

fn check_modifiers(kinds: &[ModifierKind]) -> Result<()> {
    if kinds.len() > 20 {
        return Err(EngineError::invalid(
            "modifiers",
            "at most 20 modifiers per effect",
        ));
    }
    for k in kinds {
        let bad = match k {
            ModifierKind::RollDice { dice, .. } | ModifierKind::ExtraDamage { dice, .. } => {
                !(1..=20).contains(&dice.count) || !(1..=100).contains(&dice.faces)
            }
            ModifierKind::SpeedMultiplier { factor } => !(1..=4).contains(factor),
            ModifierKind::AcBonus { amount }
            | ModifierKind::RollBonus { amount, .. }
            | ModifierKind::DamageBonus { amount }
            | ModifierKind::AbilityBonus { amount, .. } => !(-30..=30).contains(amount),
            ModifierKind::SpeedBonus { feet } => !(-500..=500).contains(feet),
            ModifierKind::SizeSteps { steps } => !(-5..=5).contains(steps),
            ModifierKind::MaxHpBonus { amount } => !(-1000..=1000).contains(amount),
            ModifierKind::AbilitySetTo { score, .. } => !(1..=30).contains(score),
            _ => false,
        };
        if bad {
            return Err(EngineError::invalid(
                "modifiers",
                format!(
                    "'{k}' is out of range (dice 1–20 × d1–d100, bonuses ±30, speed ±500 ft, factor 1–4)"
                ),
            ));
        }
    }
    Ok(())
}

fn caster_label(call: &Call<'_>, id: &str) -> String {
    call.tx_ref()
        .character(call.campaign(), id)
        .ok()
        .flatten()
        .map_or_else(|| id.to_string(), |c| c.name)
}

fn save(call: &mut Call<'_>, c: &Character, changes: &[String]) -> Result<()> {
    let campaign = call.campaign();
    call.tx().put_character(campaign, c)?;
    call.record_change("character", &c.id, changes.join("; "));
    Ok(())
}

/// Removes an effect by id or name; a concentration effect also leaves its caster's links.
pub fn remove_effect(
    call: &mut Call<'_>,
    target: CharacterRef<'_>,
    effect: &str,
) -> Result<EffectOutcome> {
    let mut c = resolve(call, target)?;
    let key = name_key(effect);
    let Some(pos) = c
        .effects
        .iter()
        .position(|e| e.id == effect.trim() || name_key(&e.name) == key)
    else {
        let have: Vec<String> = c
            .effects
            .iter()
            .map(|e| format!("{} ({})", e.name, e.id))
            .collect();
        return Err(EngineError::NotFound {
            kind: "effect",
            given: format!("{effect}' on '{}", c.name),
            suggestions: have,
        });
    };
    let e = c.effects.remove(pos);
    let mut changes = vec![format!("{} loses {}", c.name, e.name)];
    // A form held by the effect (Wild Shape, Polymorph) ends with it.
    changes.extend(c.drop_stale_shape());
    if let Some(caster_id) = e.duration.caster() {
        let link = ConcentrationLink::effect(&c.id, &e.name);
        concentration::unlink(call, &mut c, caster_id, &link)?;
    }
    save(call, &c, &changes)?;
    Ok(outcome(&c, changes, None))
}

/// Lists a character's effects.
pub fn list_effects(call: &Call<'_>, target: CharacterRef<'_>) -> Result<EffectOutcome> {
    let c = resolve(call, target)?;
    Ok(outcome(&c, Vec::new(), None))
}

/// Ticks one timed effect or condition on `sheet` by `rounds`: counts `Rounds` down, or rolls one
/// save for `SaveEnds` with the sheet's own bonuses; other durations are untouched. Says what
/// happened in `changes`; returns whether it ended. `label` names what would end.
///
/// A save-ends roll carries what the save resists (`vs`), so the bearer's traits apply as on the
/// first save: a dwarf's advantage against poison, an elf's against being charmed, a halfling's
/// against being frightened, a gnome's against magic.
pub(crate) fn tick_duration(
    call: &mut Call<'_>,
    sheet: &Character,
    duration: &mut Duration,
    rounds: u32,
    label: &str,
    vs: &crate::saves::SaveAgainst,
    changes: &mut Vec<String>,
) -> Result<bool> {
    match duration {
        Duration::Rounds { remaining } | Duration::RoundsOf { remaining, .. } => {
            *remaining = remaining.saturating_sub(rounds);
            if *remaining == 0 {
                changes.push(format!("{label} on {} ends (duration over)", sheet.name));
                return Ok(true);
            }
            changes.push(format!(
                "{label} on {}: {remaining} round(s) left",
                sheet.name
            ));
            Ok(false)
        }
        Duration::SaveEnds { dc, ability } | Duration::ConcentrationSave { dc, ability, .. } => {
            let out =
                crate::saves::roll_save(call, sheet, *ability, *dc, &format!("ends {label}"), vs)?;
            let ok = out.success == Some(true);
            let ends = if ok {
                format!("; {label} ends")
            } else {
                String::new()
            };
            changes.push(format!("{} — {}{ends}", sheet.name, out.summary()));
            Ok(ok)
        }
        Duration::UntilRest
        | Duration::UntilShortRest
        | Duration::UntilDispelled
        | Duration::Concentration { .. } => Ok(false),
    }
}

/// Counts down round-based effects by `rounds` (those ticking at `at`, when given); expired
/// effects end. Save-ends effects roll their save.
pub fn tick_effects(
    call: &mut Call<'_>,
    target: CharacterRef<'_>,
    rounds: u32,
    at: Option<TurnPoint>,
) -> Result<EffectOutcome> {
    if !(1..=100).contains(&rounds) {
        return Err(EngineError::invalid(
            "rounds",
            format!("{rounds} is out of range; tick 1–100 rounds"),
        ));
    }
    let mut c = resolve(call, target)?;
    let mut changes = Vec::new();
    let mut kept = Vec::new();
    let mut ended = Vec::new();
    let sheet = c.clone();
    let effects = std::mem::take(&mut c.effects);
    for mut e in effects {
        let fires = match (at, &e.ends_on) {
            (None, _) => true,
            (Some(at), Some(t)) => t.at == at,
            (Some(at), None) => at == TurnPoint::End,
        };
        if !fires {
            kept.push(e);
            continue;
        }
        let vs = crate::saves::against_effect(call, &e);
        if tick_duration(
            call,
            &sheet,
            &mut e.duration,
            rounds,
            &e.name,
            &vs,
            &mut changes,
        )? {
            ended.push(e);
            continue;
        }
        kept.push(e);
    }
    c.effects = kept;
    // An effect a concentration held up has ended on its own: the caster lets go of it.
    concentration::let_go(call, &mut c, &ended, &[], &mut changes)?;
    changes.extend(c.drop_stale_shape());
    if changes.is_empty() {
        changes.push(format!("no round-based effects on {} to tick", c.name));
    }
    save(call, &c, &changes)?;
    Ok(outcome(&c, changes, None))
}
