//! `manage_effect`.

use schemars::JsonSchema;
use serde::Deserialize;
use tabletop_engine::character::CharacterRef;
use tabletop_engine::effects::{
    DurationRequest, EffectOutcome, EffectRequest, TurnPoint, add_effect, list_effects,
    remove_effect, tick_effects,
};
use tabletop_engine::{Call, EngineError};
use tabletop_rules::modifiers::ModifierKind;

use super::{Access, invoke_batch};
use crate::arg_enum;
use crate::reply::Reply;
use crate::schema::{input_schema, with_batch};
use crate::spec::{Category, ToolSpec};

arg_enum! {
    /// What to do with effects.
    pub enum EffectOperation {
        Add = "add",
        Remove = "remove",
        List = "list",
        Tick = "tick",
    }
}

arg_enum! {
    /// How long an effect lasts.
    pub enum EffectDuration {
        Rounds = "rounds",
        UntilRest = "until_rest",
        UntilDispelled = "until_dispelled",
        Concentration = "concentration",
    }
}

arg_enum! {
    /// Start or end of a turn.
    pub enum TurnPointArg {
        Start = "start",
        End = "end",
    }
}

impl From<TurnPointArg> for TurnPoint {
    fn from(t: TurnPointArg) -> Self {
        match t {
            TurnPointArg::Start => TurnPoint::Start,
            TurnPointArg::End => TurnPoint::End,
        }
    }
}

/// Arguments of `manage_effect`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ManageEffectArgs {
    pub character_id: Option<String>,
    pub character_name: Option<String>,
    /// add (same name replaces), remove, list or tick.
    pub operation: EffectOperation,
    /// Effect name or id; bless, bane, shield, shield of faith, haste, longstrider, heroism need no modifiers.
    pub name: Option<String>,
    /// Typed modifiers, e.g. {"type":"ac_bonus","amount":2}, {"type":"disadvantage","on":{"roll":"save","ability":"wis"}}, {"type":"roll_dice","on":{"roll":"attack_rolls"},"dice":{"count":1,"faces":4}}.
    #[schemars(with = "Option<Vec<serde_json::Map<String, serde_json::Value>>>")]
    pub modifiers: Option<Vec<ModifierKind>>,
    /// Who or what imposed it.
    pub source: Option<String>,
    /// Default until_dispelled (concentration for concentration spells).
    pub duration: Option<EffectDuration>,
    /// Rounds of duration; tick: rounds to count down (default 1).
    pub rounds: Option<u32>,
    /// Concentrating caster, id or name (default the character).
    pub caster: Option<String>,
    /// Rounds tick at the start or end (default) of a turn.
    pub ends_on: Option<TurnPointArg>,
    /// Whose turn ticks it, id or name (default the character).
    pub turn_of: Option<String>,
}

fn run(call: &mut Call<'_>, a: ManageEffectArgs) -> Result<Reply, EngineError> {
    let who = CharacterRef::new(a.character_id.as_deref(), a.character_name.as_deref());
    let name = || {
        a.name.clone().ok_or_else(|| {
            EngineError::invalid("name", "give the effect's name (or its id to remove)")
        })
    };
    let out = match a.operation {
        EffectOperation::Add => {
            let caster = a.caster.clone().map(|c| (Some(c), None));
            let req = EffectRequest {
                name: name()?,
                source: a.source.clone(),
                modifiers: a.modifiers.clone().unwrap_or_default(),
                duration: match a.duration {
                    None => DurationRequest::Default,
                    Some(EffectDuration::Rounds) => {
                        DurationRequest::Rounds(a.rounds.ok_or_else(|| {
                            EngineError::invalid("rounds", "duration rounds needs rounds, e.g. 10")
                        })?)
                    }
                    Some(EffectDuration::UntilRest) => DurationRequest::UntilRest,
                    Some(EffectDuration::UntilDispelled) => DurationRequest::UntilDispelled,
                    Some(EffectDuration::Concentration) => DurationRequest::Concentration,
                },
                caster,
                ends_on: a.ends_on.map(Into::into),
                turn_of: a.turn_of.clone().map(|t| (Some(t), None)),
            };
            add_effect(call, who, req)?
        }
        EffectOperation::Remove => remove_effect(call, who, &name()?)?,
        EffectOperation::List => list_effects(call, who)?,
        EffectOperation::Tick => {
            tick_effects(call, who, a.rounds.unwrap_or(1), a.ends_on.map(Into::into))?
        }
    };
    Ok(Reply::new(text(&out), &out))
}

fn text(o: &EffectOutcome) -> String {
    let mut t = if o.changes.is_empty() {
        format!("{}:", o.character)
    } else {
        format!("{}.", o.changes.join(". "))
    };
    if let Some(e) = &o.concentration_ended
        && !o.changes.iter().any(|c| c == &e.summary())
    {
        t.push_str(&format!("\n{}.", e.summary()));
    }
    if o.effects.is_empty() {
        t.push_str(&format!("\n{} has no effects.", o.character));
    }
    for e in &o.effects {
        let mods: Vec<String> = e.modifiers.iter().map(|m| m.kind.to_string()).collect();
        t.push_str(&format!(
            "\n- {} ({}): {}; {}",
            e.name,
            e.id,
            mods.join(", "),
            e.duration.describe(|id| id.to_string())
        ));
    }
    t
}

pub(super) fn specs() -> Vec<ToolSpec> {
    vec![ToolSpec {
        name: "manage_effect",
        title: "Manage effect",
        category: Category::Characters,
        description: "Add, remove, list or tick boons, curses and spell effects; typed modifiers that every roll applies.",
        read_only: false,
        destructive: true,
        idempotent: false,
        core: false,
        max_result_chars: 6_000,
        schema: || with_batch(input_schema::<ManageEffectArgs>(), "operations"),
        core_schema: None,
        handler: |e, n, raw| invoke_batch(e, n, raw, Access::Write, run),
    }]
}
