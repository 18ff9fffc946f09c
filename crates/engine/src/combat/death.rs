//! `roll_death_save`: a creature at 0 hit points rolls against death.
//!
//! The rule itself (d20 ≥ 10 succeeds, natural 1 counts twice, natural 20 brings it back with
//! 1 HP, three of a kind settle it) lives in `tabletop_rules::damage`; this module rolls it from
//! the sheet's effective stats (so Bless, exhaustion and other save modifiers apply), stores the
//! tally, and in an encounter keeps it to the creature's own turn.

use serde::Serialize;
use tabletop_rules::damage::{self, DamageError, DeathSaveResult, Vitals};

use crate::characters::resolve;
use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::character::{Character, CharacterRef};

/// What one death save did.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DeathSaveOutcome {
    /// Who rolled.
    pub character: String,
    /// Its id.
    pub character_id: String,
    /// The roll and the tally after it.
    pub result: DeathSaveResult,
    /// What changed, in words.
    pub changes: Vec<String>,
    /// Rules the game master overrode with `force`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub forced: Vec<String>,
}

/// Checks that `c` can make a death save, with an error that says why not.
pub fn check_can_roll(c: &Character) -> Result<()> {
    if c.dead {
        return Err(EngineError::Rule(format!(
            "{} is dead; death saves are for the dying",
            c.name
        )));
    }
    if c.hp > 0 {
        return Err(EngineError::Rule(format!(
            "{} has {} HP; death saves are only for a creature at 0 HP",
            c.name, c.hp
        )));
    }
    if c.death_saves.stable {
        return Err(EngineError::Rule(format!(
            "{} is stable and makes no more death saves; healing wakes them, or they regain 1 HP after 1d4 hours",
            c.name
        )));
    }
    Ok(())
}

/// Rolls one death save for `c` and stores the result on the sheet (not in the store): the
/// tally, death on the third failure, 1 HP and consciousness on a natural 20.
pub(crate) fn roll_on(
    call: &mut Call<'_>,
    c: &mut Character,
    changes: &mut Vec<String>,
) -> Result<DeathSaveResult> {
    check_can_roll(c)?;
    let eff = c.effective();
    let vitals = Vitals {
        hp: c.hp,
        max_hp: eff.max_hp.value.max(1) as u32,
        temp_hp: c.temp_hp,
        death_saves: c.death_saves,
        dead: c.dead,
    };
    let r = damage::roll_death_save(&vitals, &eff, call.rng()?)
        .map_err(|e: DamageError| EngineError::Rule(format!("{}: {e}", c.name)))?;
    if let Some(check) = &r.check {
        call.record_roll(check);
    }
    if r.hp_after > 0 {
        // A natural 20: 1 HP, awake, tally cleared.
        crate::update::heal(c, r.hp_after, &mut Vec::new())?;
    }
    c.death_saves = r.death_saves;
    c.dead = r.dead;
    changes.push(format!("{} — {}", c.name, r.summary()));
    Ok(r)
}

/// Rolls a death save for a character at 0 HP. In an active encounter it must be the
/// character's turn unless `force` (then the override is reported).
pub fn roll_death_save(
    call: &mut Call<'_>,
    who: CharacterRef<'_>,
    force: bool,
) -> Result<DeathSaveOutcome> {
    let mut c = resolve(call, who)?;
    check_can_roll(&c)?;
    let mut forced = Vec::new();
    let mut in_fight = None;
    if let Some(enc_id) = super::active_encounter_of(call, &c.id)? {
        let enc = super::load(call, Some(&enc_id))?;
        // One death save per turn: the one at the start of the creature's own turn.
        let now = (enc.round, enc.turn);
        if enc
            .combatant(&c.id)
            .is_some_and(|cb| cb.death_save_turn == Some(now))
        {
            let why = format!(
                "{} has already rolled its death save this turn (one per turn, at the start of its own); advance_turn to its next turn",
                c.name
            );
            if !force {
                return Err(EngineError::Rule(format!(
                    "{why} (pass force: true to roll again)"
                )));
            }
            forced.push(why);
        }
        let current = enc
            .current()
            .map(|x| (x.character_id.clone(), x.name.clone()));
        if let Some((id, name)) = current
            && id != c.id
        {
            let why = format!(
                "it is {name}'s turn in {}; {} rolls death saves at the start of their own turn",
                enc.id, c.name
            );
            if !force {
                return Err(EngineError::Rule(format!(
                    "{why} (advance_turn, or pass force: true to roll now)"
                )));
            }
            forced.push(why);
        }
        in_fight = Some(enc);
    }
    let mut changes = Vec::new();
    let result = roll_on(call, &mut c, &mut changes)?;
    if let Some(mut enc) = in_fight {
        let now = (enc.round, enc.turn);
        if let Some(cb) = enc.combatant_mut(&c.id) {
            cb.death_save_turn = Some(now);
        }
        // Three failures: the body stays where it fell, out of the initiative.
        if c.dead
            && let Some(line) = super::bodies::lay_body(&mut enc, &c.id, &c.name)?
        {
            changes.push(line);
        }
        super::save(call, &enc)?;
    }
    super::put_sheet(call, &c)?;
    call.record_change("character", &c.id, changes.join("; "));
    Ok(DeathSaveOutcome {
        character: c.name.clone(),
        character_id: c.id.clone(),
        result,
        changes,
        forced,
    })
}
