//! `manage_condition`.

use schemars::JsonSchema;
use serde::Deserialize;
use tabletop_engine::character::CharacterRef;
use tabletop_engine::conditions::{ConditionOp, ConditionOutcome, manage_condition};
use tabletop_engine::effects::DurationRequest;
use tabletop_engine::{Call, EngineError};
use tabletop_rules::{Ability, Condition};

use super::{Access, invoke_batch};
use crate::arg_enum;
use crate::reply::Reply;
use crate::schema::{input_schema, lean_schema, with_batch};
use crate::spec::{Category, ToolSpec};

arg_enum! {
    /// What to do with a condition.
    pub enum ConditionOperation {
        Add = "add",
        Remove = "remove",
        Query = "query",
        Tick = "tick",
    }
}

arg_enum! {
    /// How long a condition or effect lasts.
    pub enum DurationKind {
        Rounds = "rounds",
        UntilRest = "until_rest",
        UntilDispelled = "until_dispelled",
        Concentration = "concentration",
        SaveEnds = "save_ends",
    }
}

/// The engine's duration from the flat arguments, naming the missing field.
pub(super) fn duration(
    kind: Option<DurationKind>,
    rounds: Option<u32>,
    save_dc: Option<i32>,
    save_ability: Option<Ability>,
) -> Result<DurationRequest, EngineError> {
    Ok(match kind {
        None => DurationRequest::Default,
        Some(DurationKind::Rounds) => DurationRequest::Rounds(rounds.ok_or_else(|| {
            EngineError::invalid("rounds", "duration rounds needs rounds, e.g. 10")
        })?),
        Some(DurationKind::UntilRest) => DurationRequest::UntilRest,
        Some(DurationKind::UntilDispelled) => DurationRequest::UntilDispelled,
        Some(DurationKind::Concentration) => DurationRequest::Concentration,
        Some(DurationKind::SaveEnds) => match (save_dc, save_ability) {
            (Some(dc), Some(ability)) => DurationRequest::SaveEnds { dc, ability },
            _ => {
                return Err(EngineError::invalid(
                    "saveDC",
                    "duration save_ends needs saveDC and saveAbility, e.g. 13 and wis",
                ));
            }
        },
    })
}

/// Arguments of `manage_condition`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ManageConditionArgs {
    pub character_id: Option<String>,
    pub character_name: Option<String>,
    /// tick ends a turn: rounds count down, save_ends rolls.
    pub operation: ConditionOperation,
    /// The condition (required for add and remove).
    pub condition: Option<Condition>,
    /// Exhaustion 1–6 (add sets, default +1; remove lowers).
    pub level: Option<u8>,
    /// What imposed it; the spell for concentration.
    pub source: Option<String>,
    /// Default until removed.
    pub duration: Option<DurationKind>,
    /// Rounds of duration; tick: rounds to count down (default 1).
    pub rounds: Option<u32>,
    /// save_ends: the DC.
    #[serde(rename = "saveDC", alias = "saveDc")]
    pub save_dc: Option<i32>,
    /// save_ends: the ability.
    pub save_ability: Option<Ability>,
    /// Concentrating caster, id or name.
    pub caster: Option<String>,
}

fn need(c: Option<Condition>, op: &str) -> Result<Condition, EngineError> {
    c.ok_or_else(|| {
        EngineError::invalid(
            "condition",
            format!("{op} needs condition: one of {}", condition_keys()),
        )
    })
}

fn condition_keys() -> String {
    Condition::ALL
        .iter()
        .map(|c| c.key())
        .collect::<Vec<_>>()
        .join(", ")
}

fn run(call: &mut Call<'_>, a: ManageConditionArgs) -> Result<Reply, EngineError> {
    let who = CharacterRef::new(a.character_id.as_deref(), a.character_name.as_deref());
    let caster = a.caster.clone().map(|c| (Some(c), None));
    let op = match a.operation {
        ConditionOperation::Add => ConditionOp::Add {
            condition: need(a.condition, "add")?,
            level: a.level,
            source: a.source,
            duration: duration(a.duration, a.rounds, a.save_dc, a.save_ability)?,
            caster,
        },
        ConditionOperation::Remove => ConditionOp::Remove {
            condition: need(a.condition, "remove")?,
            level: a.level,
        },
        ConditionOperation::Query => ConditionOp::Query {
            condition: a.condition,
        },
        ConditionOperation::Tick => ConditionOp::Tick {
            rounds: a.rounds.unwrap_or(1),
        },
    };
    let out = manage_condition(call, who, op)?;
    Ok(Reply::new(text(&out), &out))
}

fn text(o: &ConditionOutcome) -> String {
    let mut t = if o.changes.is_empty() {
        match o.has {
            Some(true) => format!("{} has it.", o.character),
            Some(false) => format!("{} does not have it.", o.character),
            None => format!("{}:", o.character),
        }
    } else {
        format!("{}.", o.changes.join(". "))
    };
    if o.conditions.is_empty() {
        t.push_str(&format!("\n{} has no conditions.", o.character));
    }
    for c in &o.conditions {
        let lvl = c.level.map(|l| format!(" {l}")).unwrap_or_default();
        t.push_str(&format!(
            "\n- {}{lvl} ({}, {}): {}",
            c.condition,
            c.source,
            c.duration,
            c.effects.join("; ")
        ));
    }
    t
}

pub(super) fn specs() -> Vec<ToolSpec> {
    vec![ToolSpec {
        name: "manage_condition",
        title: "Manage condition",
        category: Category::Combat,
        description: "Add, remove, query or tick SRD conditions and exhaustion, with durations; immunities enforced.",
        read_only: false,
        destructive: true,
        idempotent: false,
        core: true,
        max_result_chars: 6_000,
        schema: || with_batch(input_schema::<ManageConditionArgs>(), "operations"),
        core_schema: Some(|| {
            lean_schema::<ManageConditionArgs>(&[
                "characterId",
                "characterName",
                "operation",
                "condition",
                "duration",
                "rounds",
                "level",
                "source",
            ])
        }),
        handler: |e, n, raw| invoke_batch(e, n, raw, Access::Write, run),
    }]
}
