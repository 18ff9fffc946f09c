//! `take_rest` and `level_up`.

use schemars::JsonSchema;
use serde::Deserialize;
use tabletop_engine::character::CharacterRef;
use tabletop_engine::levelling::{LevelChoices, LevelHpMethod, level_up_with};
use tabletop_engine::rest::{RestKind, take_rest};
use tabletop_engine::{Call, EngineError};
use tabletop_rules::hp::HpMethod;

use super::{Access, invoke_batch};
use crate::arg_enum;
use crate::reply::Reply;
use crate::schema::{input_schema, with_batch};
use crate::spec::{Category, ToolSpec};

arg_enum! {
    /// Short or long rest.
    pub enum RestType {
        Short = "short",
        Long = "long",
    }
}

/// Arguments of `take_rest`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct TakeRestArgs {
    pub character_id: Option<String>,
    pub character_name: Option<String>,
    /// short or long.
    #[serde(rename = "type", alias = "restType")]
    pub rest_type: RestType,
    /// Short rest: hit dice to spend (each rolls + CON).
    #[serde(default)]
    pub hit_dice: u32,
}

fn run_rest(call: &mut Call<'_>, a: TakeRestArgs) -> Result<Reply, EngineError> {
    let kind = match a.rest_type {
        RestType::Short => RestKind::Short,
        RestType::Long => RestKind::Long,
    };
    let out = take_rest(
        call,
        CharacterRef::new(a.character_id.as_deref(), a.character_name.as_deref()),
        kind,
        a.hit_dice,
    )?;
    let text = format!(
        "{} takes a {} rest: {}.\nHP {}, hit dice left {}.",
        out.character,
        match kind {
            RestKind::Short => "short",
            RestKind::Long => "long",
        },
        out.changes.join("; "),
        out.hp_after,
        out.hit_dice_left
    );
    Ok(Reply::new(text, &out))
}

arg_enum! {
    /// How hit points are gained per level.
    pub enum HpMethodArg {
        Average = "average",
        Roll = "roll",
        Max = "max",
        Manual = "manual",
    }
}

/// Arguments of `level_up`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct LevelUpArgs {
    pub character_id: Option<String>,
    pub character_name: Option<String>,
    /// Level to reach (default one more).
    pub target_level: Option<u32>,
    /// Default average.
    pub hp_method: Option<HpMethodArg>,
    /// manual: total HP gained.
    pub hp: Option<u32>,
    /// Class of the new levels (default the first; another multiclasses).
    pub class: Option<String>,
    /// ASI choices, level order.
    #[serde(default)]
    pub asi: Vec<tabletop_engine::derive::asi::AsiChoice>,
    /// SRD subclass of the class levelled (when it reaches the subclass level).
    pub subclass: Option<String>,
    /// Feature options by key, e.g. hunters-prey-colossus-slayer.
    #[serde(default)]
    pub options: Vec<String>,
}

fn run_level(call: &mut Call<'_>, a: LevelUpArgs) -> Result<Reply, EngineError> {
    let method = match (a.hp_method, a.hp) {
        (Some(HpMethodArg::Manual), Some(hp)) => LevelHpMethod::Manual(hp),
        (Some(HpMethodArg::Manual), None) => {
            return Err(EngineError::invalid(
                "hp",
                "hpMethod manual needs hp: the total HP gained",
            ));
        }
        (None, Some(hp)) => LevelHpMethod::Manual(hp),
        (Some(m), Some(_)) => {
            return Err(EngineError::invalid(
                "hp",
                format!(
                    "hp is for hpMethod manual, not {}; drop one",
                    HpMethodArg::KEYS[m as usize]
                ),
            ));
        }
        (m, None) => LevelHpMethod::Rules(match m {
            Some(HpMethodArg::Roll) => HpMethod::Roll,
            Some(HpMethodArg::Max) => HpMethod::Max,
            _ => HpMethod::Average,
        }),
    };
    let out = level_up_with(
        call,
        CharacterRef::new(a.character_id.as_deref(), a.character_name.as_deref()),
        a.class.as_deref(),
        a.target_level,
        method,
        LevelChoices {
            asi: a.asi,
            subclass: a.subclass,
            options: a.options,
        },
    )?;
    let text = format!(
        "{}.\nSpell slots: {}.",
        out.changes.join(". "),
        out.spell_slots
    );
    Ok(Reply::new(text, &out))
}

pub(super) fn specs() -> Vec<ToolSpec> {
    vec![
        ToolSpec {
            name: "take_rest",
            title: "Take rest",
            category: Category::Characters,
            description: "Short or long rest: hit dice, HP, slots, resources, exhaustion per the SRD; refused in combat.",
            read_only: false,
            destructive: true,
            idempotent: false,
            core: false,
            max_result_chars: 4_000,
            schema: || with_batch(input_schema::<TakeRestArgs>(), "rests"),
            core_schema: None,
            handler: |e, n, raw| invoke_batch(e, n, raw, Access::Write, run_rest),
        },
        ToolSpec {
            name: "level_up",
            title: "Level up",
            category: Category::Characters,
            description: "Raise a character's level: HP, hit dice, proficiency and spell slots; lists new features and ASIs.",
            read_only: false,
            destructive: true,
            idempotent: false,
            core: false,
            max_result_chars: 4_000,
            schema: || with_batch(input_schema::<LevelUpArgs>(), "level-ups"),
            core_schema: None,
            handler: |e, n, raw| invoke_batch(e, n, raw, Access::Write, run_level),
        },
    ]
}
