//! Encounter flow tools: `advance_turn`, `roll_death_save`, `end_encounter`, `manage_encounter`.

use schemars::JsonSchema;
use serde::Deserialize;
use tabletop_engine::character::CharacterRef;
use tabletop_engine::combat::ReactionPolicy;
use tabletop_engine::combat::actions::Who;
use tabletop_engine::combat::death::{DeathSaveOutcome, roll_death_save};
use tabletop_engine::combat::end::{EndRequest, EndSummary, Outcome, end_encounter};
use tabletop_engine::combat::manage::{ManageOp, ManageOutcome, manage_encounter};
use tabletop_engine::combat::turn::{AdvanceRequest, TurnReport, advance_turn};
use tabletop_engine::{Call, EngineError};

use super::combat::{ParticipantArg, participant};
use super::{Access, invoke, invoke_batch};
use crate::arg_enum;
use crate::reply::Reply;
use crate::schema::{input_schema, with_batch};
use crate::spec::{Category, ToolSpec};

/// Arguments of `advance_turn`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct AdvanceTurnArgs {
    /// Default: the active encounter.
    pub encounter_id: Option<String>,
    /// Roll a dying PC's death save as its turn starts.
    pub auto_death_saves: Option<bool>,
}

fn run_advance(call: &mut Call<'_>, a: AdvanceTurnArgs) -> Result<Reply, EngineError> {
    let r = advance_turn(
        call,
        &AdvanceRequest {
            encounter_id: a.encounter_id,
            auto_death_saves: a.auto_death_saves.unwrap_or(false),
        },
    )?;
    Ok(Reply::new(turn_text(&r), &r))
}

/// The text of a turn change: whose turn it is first, then what ended and started.
pub fn turn_text(r: &TurnReport) -> String {
    if let Some(s) = &r.encounter_ended {
        let mut t = format!(
            "{}'s turn ends; one side is down, so the encounter ends by itself (autoEnd).\n",
            r.ended.as_deref().unwrap_or("nobody")
        );
        for l in &r.end_of_turn {
            t.push_str(&format!("- {l}\n"));
        }
        t.push_str(&end_text(s));
        return t;
    }
    let mut t = format!(
        "Round {}: {}'s turn{}.",
        r.round,
        r.current.as_deref().unwrap_or("nobody"),
        if r.new_round { " (new round)" } else { "" }
    );
    for l in &r.reminders {
        t.push_str(&format!("\n! {l}"));
    }
    if let Some(ended) = &r.ended {
        if r.end_of_turn.is_empty() {
            t.push_str(&format!("\nEnd of {ended}'s turn."));
        } else {
            t.push_str(&format!("\nEnd of {ended}'s turn:"));
            for l in &r.end_of_turn {
                t.push_str(&format!("\n- {l}"));
            }
        }
    }
    if !r.skipped.is_empty() {
        t.push_str(&format!("\nSkipped: {}.", r.skipped.join(", ")));
    }
    if !r.round_start.is_empty() {
        t.push_str(&format!("\nRound {} begins:", r.round));
        for l in &r.round_start {
            t.push_str(&format!("\n- {l}"));
        }
    }
    if !r.start_of_turn.is_empty() {
        t.push_str(&format!(
            "\nStart of {}'s turn:",
            r.current.as_deref().unwrap_or("its")
        ));
        for l in &r.start_of_turn {
            t.push_str(&format!("\n- {l}"));
        }
    }
    t
}

/// Arguments of `roll_death_save`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct DeathSaveArgs {
    pub character_id: Option<String>,
    pub character_name: Option<String>,
    /// Roll off-turn in an encounter (reported).
    pub force: Option<bool>,
}

fn run_death_save(call: &mut Call<'_>, a: DeathSaveArgs) -> Result<Reply, EngineError> {
    let out = roll_death_save(
        call,
        CharacterRef::new(a.character_id.as_deref(), a.character_name.as_deref()),
        a.force.unwrap_or(false),
    )?;
    Ok(Reply::new(death_text(&out), &out))
}

fn death_text(o: &DeathSaveOutcome) -> String {
    let mut t = o.changes.join("\n");
    if !o.forced.is_empty() {
        t.push_str(&format!("\nForced (DM override): {}.", o.forced.join("; ")));
    }
    t
}

arg_enum! {
    /// How the fight ended.
    pub enum OutcomeArg { Victory = "victory", Defeat = "defeat", Fled = "fled", Truce = "truce", Other = "other" }
}

impl From<OutcomeArg> for Outcome {
    fn from(o: OutcomeArg) -> Self {
        match o {
            OutcomeArg::Victory => Outcome::Victory,
            OutcomeArg::Defeat => Outcome::Defeat,
            OutcomeArg::Fled => Outcome::Fled,
            OutcomeArg::Truce => Outcome::Truce,
            OutcomeArg::Other => Outcome::Other,
        }
    }
}

/// Arguments of `end_encounter`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct EndEncounterArgs {
    /// Default: the active encounter.
    pub encounter_id: Option<String>,
    /// Default other.
    pub outcome: Option<OutcomeArg>,
    /// Free text about the outcome.
    pub note: Option<String>,
    /// Report only; end nothing.
    pub dry_run: Option<bool>,
    /// Keep created monsters as characters.
    pub keep_spawned: Option<bool>,
}

fn run_end(call: &mut Call<'_>, a: EndEncounterArgs) -> Result<Reply, EngineError> {
    let s = end_encounter(
        call,
        &EndRequest {
            encounter_id: a.encounter_id,
            outcome: a.outcome.map(Into::into),
            note: a.note,
            dry_run: a.dry_run.unwrap_or(false),
            keep_spawned: a.keep_spawned.unwrap_or(false),
        },
    )?;
    Ok(Reply::new(end_text(&s), &s))
}

/// The text of an encounter's end (or dry run): outcome, who fell, XP, then each character's diff.
pub fn end_text(s: &EndSummary) -> String {
    let mut t = format!(
        "{}{} ({}) {} after {} round{}: {}.",
        if s.dry_run {
            "Dry run — nothing changed. "
        } else {
            ""
        },
        s.name,
        s.encounter_id,
        if s.dry_run { "would end" } else { "ended" },
        s.rounds,
        if s.rounds == 1 { "" } else { "s" },
        s.outcome.as_deref().unwrap_or("other")
    );
    if !s.fallen.is_empty() {
        t.push_str(&format!("\nFallen: {}.", s.fallen.join(", ")));
    }
    if let Some(x) = &s.xp {
        t.push_str(&format!(
            "\nXP: {} total, {} each for {}.",
            x.total,
            x.per_member,
            x.members.join(", ")
        ));
    }
    if !s.damage_to_created.is_empty() {
        let d: Vec<String> = s
            .damage_to_created
            .iter()
            .map(|(n, v)| format!("{n} {v}"))
            .collect();
        t.push_str(&format!(
            "\nDamage taken by created creatures: {}.",
            d.join(", ")
        ));
    }
    if !s.diffs.is_empty() {
        t.push_str("\nChanges (already on the sheets):");
        for d in &s.diffs {
            t.push_str(&format!("\n- {}", d.summary()));
        }
    }
    for l in &s.cleared {
        t.push_str(&format!("\nCleared: {l}."));
    }
    if !s.removed_created.is_empty() {
        t.push_str(&format!(
            "\n{}: {}.",
            if s.dry_run { "Would delete" } else { "Deleted" },
            s.removed_created.join(", ")
        ));
    }
    if !s.kept_created.is_empty() {
        t.push_str(&format!(
            "\nKept as characters: {}.",
            s.kept_created.join(", ")
        ));
    }
    for l in &s.recovered {
        t.push_str(&format!("\nRecovered: {l}."));
    }
    t
}

arg_enum! {
    /// What `manage_encounter` does.
    pub enum ManageOpArg { List = "list", AddParticipant = "add_participant", RemoveParticipant = "remove_participant", Commit = "commit", SetReactionPolicy = "set_reaction_policy" }
}

arg_enum! {
    /// How a combatant's reactions are decided.
    pub enum PolicyArg { Auto = "auto", Ask = "ask", Never = "never" }
}

/// Arguments of `manage_encounter`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ManageEncounterArgs {
    pub operation: ManageOpArg,
    /// Default: the active encounter.
    pub encounter_id: Option<String>,
    /// add_participant: as in create_encounter.
    pub participant: Option<ParticipantArg>,
    /// remove_participant, set_reaction_policy.
    pub target_id: Option<String>,
    pub target_name: Option<String>,
    /// set_reaction_policy: auto, ask (pause for react) or never.
    pub reaction_policy: Option<PolicyArg>,
}

fn run_manage(call: &mut Call<'_>, a: ManageEncounterArgs) -> Result<Reply, EngineError> {
    let op = match a.operation {
        ManageOpArg::List => ManageOp::List,
        ManageOpArg::Commit => ManageOp::Commit,
        ManageOpArg::AddParticipant => {
            let p = a.participant.ok_or_else(|| {
                EngineError::invalid(
                    "participant",
                    "add_participant needs participant: {\"characterName\": \"Aria\"}, {\"monster\": \"goblin\", \"count\": 2} or an inline stat block",
                )
            })?;
            ManageOp::AddParticipant(Box::new(participant(p)?))
        }
        ManageOpArg::RemoveParticipant => ManageOp::RemoveParticipant(Who {
            id: a.target_id,
            name: a.target_name,
        }),
        ManageOpArg::SetReactionPolicy => {
            let p = a.reaction_policy.ok_or_else(|| {
                EngineError::invalid(
                    "reactionPolicy",
                    "set_reaction_policy needs reactionPolicy: auto, ask or never",
                )
            })?;
            ManageOp::SetReactionPolicy(
                Who {
                    id: a.target_id,
                    name: a.target_name,
                },
                match p {
                    PolicyArg::Auto => ReactionPolicy::Auto,
                    PolicyArg::Ask => ReactionPolicy::Ask,
                    PolicyArg::Never => ReactionPolicy::Never,
                },
            )
        }
    };
    let out = manage_encounter(call, a.encounter_id.as_deref(), op)?;
    Ok(Reply::new(manage_text(&out), &out))
}

fn manage_text(o: &ManageOutcome) -> String {
    let mut t = o.headline.clone();
    for e in &o.encounters {
        let mut line = format!("\n- {} ({}) — ", e.name, e.id);
        match (&e.turn, &e.outcome) {
            (Some(turn), _) => line.push_str(&format!("active, round {}, {turn}'s turn", e.round)),
            (None, Some(out)) => line.push_str(&format!("ended after {} rounds: {out}", e.round)),
            (None, None) => line.push_str(&format!("round {}", e.round)),
        }
        line.push_str(&format!(", {} combatants", e.combatants));
        t.push_str(&line);
    }
    for l in &o.lines {
        t.push_str(&format!("\n- {l}"));
    }
    t
}

pub(super) fn specs() -> Vec<ToolSpec> {
    vec![
        ToolSpec {
            name: "advance_turn",
            title: "Advance turn",
            category: Category::Combat,
            description: "End the turn (saves, durations) and start the next living combatant's (economy, recharges, auras).",
            read_only: false,
            destructive: true,
            idempotent: false,
            core: true,
            max_result_chars: 6_000,
            schema: || input_schema::<AdvanceTurnArgs>(),
            core_schema: None,
            handler: |e, n, raw| invoke(e, n, raw, Access::Write, run_advance),
        },
        ToolSpec {
            name: "roll_death_save",
            title: "Roll death save",
            category: Category::Combat,
            description: "Death saving throw for a character at 0 HP, tallied by the SRD rules.",
            read_only: false,
            destructive: true,
            idempotent: false,
            core: false,
            max_result_chars: 2_000,
            schema: || input_schema::<DeathSaveArgs>(),
            core_schema: None,
            handler: |e, n, raw| invoke(e, n, raw, Access::Write, run_death_save),
        },
        ToolSpec {
            name: "end_encounter",
            title: "End encounter",
            category: Category::Combat,
            description: "End the fight: outcome, who fell, XP and each character's changes; dryRun only reports.",
            read_only: false,
            destructive: true,
            idempotent: false,
            core: false,
            max_result_chars: 8_000,
            schema: || input_schema::<EndEncounterArgs>(),
            core_schema: None,
            handler: |e, n, raw| invoke(e, n, raw, Access::Write, run_end),
        },
        ToolSpec {
            name: "manage_encounter",
            title: "Manage encounter",
            category: Category::Combat,
            description: "List encounters, add or remove a participant mid-fight, set a reaction policy, or commit.",
            read_only: false,
            destructive: true,
            idempotent: false,
            core: false,
            max_result_chars: 6_000,
            schema: || with_batch(input_schema::<ManageEncounterArgs>(), "operations"),
            core_schema: None,
            handler: |e, n, raw| invoke_batch(e, n, raw, Access::Write, run_manage),
        },
    ]
}
