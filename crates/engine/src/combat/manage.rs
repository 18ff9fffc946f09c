//! `manage_encounter`: list encounters, add or remove participants mid-fight, and report what
//! the fight has changed so far (commit).

use serde::Serialize;

use super::create::{self, InitiativeRoll, MAX_COMBATANTS, ParticipantSpec};
use super::end::{CharacterDiff, diff};
use crate::combat::actions::Who;
use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::encounter::*;

/// A `manage_encounter` operation.
#[derive(Debug, Clone)]
pub enum ManageOp {
    /// Every encounter of the campaign, active first.
    List,
    /// A character, SRD monsters or an inline stat block join the fight.
    AddParticipant(Box<ParticipantSpec>),
    /// A combatant leaves the fight (stays in the log, off the map).
    RemoveParticipant(Who),
    /// What the fight has changed on the linked characters so far (nothing is ended).
    Commit,
    /// How a combatant's reactions are decided: auto, ask (pause for the agent) or never.
    SetReactionPolicy(Who, ReactionPolicy),
}

/// One encounter as listed.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EncounterListing {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Active or ended.
    pub status: EncounterStatus,
    /// Round.
    pub round: u32,
    /// Combatants still in the fight.
    pub combatants: usize,
    /// Whose turn (active encounters).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub turn: Option<String>,
    /// Outcome (ended encounters).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outcome: Option<String>,
}

/// What `manage_encounter` did.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ManageOutcome {
    /// The operation.
    pub operation: &'static str,
    /// The encounter acted on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub encounter_id: Option<String>,
    /// One line.
    pub headline: String,
    /// Details.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub lines: Vec<String>,
    /// list: the encounters.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub encounters: Vec<EncounterListing>,
    /// add_participant: who joined, with initiative.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub added: Vec<InitiativeRoll>,
    /// commit: the diff per linked character.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub diffs: Vec<CharacterDiff>,
}

impl ManageOutcome {
    fn new(operation: &'static str, encounter_id: Option<String>, headline: String) -> Self {
        ManageOutcome {
            operation,
            encounter_id,
            headline,
            lines: Vec::new(),
            encounters: Vec::new(),
            added: Vec::new(),
            diffs: Vec::new(),
        }
    }
}

/// Runs one `manage_encounter` operation on the encounter `encounter_id` (default: the active
/// one).
pub fn manage_encounter(
    call: &mut Call<'_>,
    encounter_id: Option<&str>,
    op: ManageOp,
) -> Result<ManageOutcome> {
    match op {
        ManageOp::List => list(call),
        ManageOp::AddParticipant(spec) => add(call, encounter_id, *spec),
        ManageOp::RemoveParticipant(who) => remove(call, encounter_id, &who),
        ManageOp::SetReactionPolicy(who, policy) => set_policy(call, encounter_id, &who, policy),
        ManageOp::Commit => {
            let enc = super::load(call, encounter_id)?;
            let diffs = diff(call, &enc)?;
            let mut out = ManageOutcome::new(
                "commit",
                Some(enc.id.clone()),
                format!(
                    "{} ({}), round {}: what the fight has changed so far (already on the sheets; nothing ended).",
                    enc.name, enc.id, enc.round
                ),
            );
            out.lines = diffs.iter().map(CharacterDiff::summary).collect();
            out.diffs = diffs;
            Ok(out)
        }
    }
}

fn list(call: &mut Call<'_>) -> Result<ManageOutcome> {
    let mut all = call.tx_ref().list_encounters(call.campaign(), false)?;
    all.sort_by_key(|e| !e.is_active());
    let encounters: Vec<EncounterListing> = all
        .iter()
        .map(|e| EncounterListing {
            id: e.id.clone(),
            name: e.name.clone(),
            status: e.status,
            round: e.round,
            combatants: e.order.iter().filter(|c| !c.removed).count(),
            turn: e
                .is_active()
                .then(|| e.current().map(|c| c.name.clone()))
                .flatten(),
            outcome: e.outcome.clone(),
        })
        .collect();
    let active = encounters
        .iter()
        .filter(|e| e.status == EncounterStatus::Active)
        .count();
    let mut out = ManageOutcome::new(
        "list",
        None,
        format!("{} encounter(s), {active} active.", encounters.len()),
    );
    out.encounters = encounters;
    Ok(out)
}

fn add(
    call: &mut Call<'_>,
    encounter_id: Option<&str>,
    spec: ParticipantSpec,
) -> Result<ManageOutcome> {
    let mut enc = super::load_active(call, encounter_id)?;
    let current_id = enc.current().map(|c| c.character_id.clone());
    let mut notes = Vec::new();
    let mut taken = create::taken_names(call)?;
    let mut joining = create::gather(call, std::slice::from_ref(&spec), &mut taken, &mut notes)?;
    let present = enc.order.iter().filter(|c| !c.removed).count();
    if present + joining.len() > MAX_COMBATANTS {
        return Err(EngineError::invalid(
            "participant",
            format!(
                "the encounter would have {} combatants; at most {MAX_COMBATANTS}",
                present + joining.len()
            ),
        ));
    }
    // A combatant that left and comes back takes a fresh place in the order.
    for j in &joining {
        enc.order
            .retain(|c| !(c.removed && c.character_id == j.character.id && !j.spawned));
    }
    create::place(call, &mut enc.map, &mut joining, &mut notes)?;
    let mut added = Vec::new();
    let campaign = call.campaign();
    for j in &joining {
        let (cb, roll) = create::enter(call, j)?;
        enc.order.push(cb);
        if j.spawned {
            call.tx().put_character(campaign, &j.character)?;
            call.record_change(
                "character",
                &j.character.id,
                format!("{} joins encounter {}", j.character.name, enc.id),
            );
        } else {
            enc.snapshots
                .entry(j.character.id.clone())
                .or_insert_with(|| Snapshot::of(&j.character));
        }
        added.push(roll);
        if !j.spawned {
            notes.extend(super::martial::perfect_self(call, &j.character.id)?);
        }
    }
    create::sort_initiative(&mut enc.order);
    enc.turn = current_id
        .and_then(|id| enc.order.iter().position(|c| c.character_id == id))
        .unwrap_or(0);
    rerate(call, &mut enc)?;
    let names: Vec<String> = added
        .iter()
        .map(|r| format!("{} (initiative {})", r.name, r.total))
        .collect();
    enc.log(format!("{} join the fight", names.join(", ")));
    notes.extend(super::martial::sync_auras(call, &enc)?);
    super::save(call, &enc)?;
    call.record_change("encounter", &enc.id, format!("added {}", names.join(", ")));
    let whose = enc.current().map(|c| c.name.clone()).unwrap_or_default();
    let mut out = ManageOutcome::new(
        "add_participant",
        Some(enc.id.clone()),
        format!(
            "{} join{} {}; it is still {whose}'s turn (round {}).",
            names.join(", "),
            if names.len() == 1 { "s" } else { "" },
            enc.name,
            enc.round
        ),
    );
    out.lines = added
        .iter()
        .map(|r| {
            let die = r.d20.map(|d| format!(" (d20 {d})")).unwrap_or_default();
            format!(
                "{} {}{die} — {} at ({}, {})",
                r.total, r.name, r.side, r.position.x, r.position.y
            )
        })
        .chain(notes.into_iter().map(|n| format!("Note: {n}")))
        .collect();
    out.added = added;
    Ok(out)
}

/// Rates the difficulty again from the combatants still in the fight.
fn rerate(call: &Call<'_>, enc: &mut Encounter) -> Result<()> {
    let mut levels = Vec::new();
    let mut xp = Vec::new();
    for cb in enc.order.iter().filter(|c| !c.removed) {
        let Some(c) = call.tx_ref().character(call.campaign(), &cb.character_id)? else {
            continue;
        };
        match cb.side {
            Side::Party => levels.push(c.level),
            Side::Enemy => xp.push(c.stat_block.as_ref().map_or(0, |b| b.xp)),
            _ => {}
        }
    }
    enc.difficulty = tabletop_rules::encounter::rate(&levels, &xp);
    Ok(())
}

fn remove(call: &mut Call<'_>, encounter_id: Option<&str>, who: &Who) -> Result<ManageOutcome> {
    let mut enc = super::load_active(call, encounter_id)?;
    let cb = super::find_combatant(&enc, who.id.as_deref(), who.name.as_deref(), "targetId")?;
    let (id, name) = (cb.character_id.clone(), cb.name.clone());
    if cb.removed {
        return Err(EngineError::Rule(format!(
            "{name} has already left encounter {}; add them back with operation add_participant",
            enc.id
        )));
    }
    let current = enc.current().is_some_and(|c| c.character_id == id);
    if let Some(cb) = enc.combatant_mut(&id) {
        cb.removed = true;
        cb.flags = TurnFlags::default();
    }
    let _ = enc.map.remove_creature(&id);
    enc.log(format!("{name} leaves the fight"));
    super::save(call, &enc)?;
    call.record_change("encounter", &enc.id, format!("{name} removed"));
    let mut out = ManageOutcome::new(
        "remove_participant",
        Some(enc.id.clone()),
        format!("{name} leaves {} and is taken off the map.", enc.name),
    );
    if current {
        out.lines.push(format!(
            "It was {name}'s turn: advance_turn moves on to the next creature."
        ));
    }
    Ok(out)
}

fn set_policy(
    call: &mut Call<'_>,
    encounter_id: Option<&str>,
    who: &Who,
    policy: ReactionPolicy,
) -> Result<ManageOutcome> {
    let mut enc = super::load_active(call, encounter_id)?;
    let cb = super::find_combatant(&enc, who.id.as_deref(), who.name.as_deref(), "targetId")?;
    let (id, name) = (cb.character_id.clone(), cb.name.clone());
    if let Some(cb) = enc.combatant_mut(&id) {
        cb.reaction_policy = policy;
    }
    let what = match policy {
        ReactionPolicy::Auto => {
            "the engine takes the reactions that help (opportunity attacks unless an action is readied, Shield against a hit it turns into a miss, Counterspell, Hellish Rebuke)"
        }
        ReactionPolicy::Ask => {
            "a trigger pauses the action with a pending reaction; answer it with execute_action actionType react (accept or decline)"
        }
        ReactionPolicy::Never => {
            "no reaction is taken for it; only an explicit reaction action spends it"
        }
    };
    enc.log(format!("{name}'s reaction policy: {}", policy.key()));
    super::save(call, &enc)?;
    call.record_change(
        "encounter",
        &enc.id,
        format!("{name}'s reaction policy is {}", policy.key()),
    );
    Ok(ManageOutcome::new(
        "set_reaction_policy",
        Some(enc.id.clone()),
        format!("{name}'s reaction policy is {}: {what}.", policy.key()),
    ))
}
