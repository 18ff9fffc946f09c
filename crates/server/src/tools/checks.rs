//! `roll_check`.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;
use tabletop_engine::character::CharacterRef;
use tabletop_engine::checks::{
    CheckRequest, WeaponUse, roll_check_recorded, roll_contest, roll_group,
};
use tabletop_engine::{Call, EngineError};
use tabletop_rules::d20::D20Test;
use tabletop_rules::{Ability, Skill};

use super::{Access, EngineT, MAX_BATCH, invoke_batch};
use crate::arg_enum;
use crate::args;
use crate::reply::{Reply, ToolError};
use crate::schema::{input_schema, lean_schema, with_batch};
use crate::spec::{Category, ToolSpec};

arg_enum! {
    /// What kind of check.
    pub enum CheckType {
        Skill = "skill",
        Ability = "ability",
        Save = "save",
        Attack = "attack",
        Initiative = "initiative",
        Passive = "passive",
    }
}

/// The other side of a contest; it rolls the same check type with its own sheet.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ContestSide {
    pub character_id: Option<String>,
    pub character_name: Option<String>,
    /// Opponent's skill (default: the same).
    pub skill: Option<Skill>,
    /// Opponent's ability (default: the same).
    pub ability: Option<Ability>,
}

/// What a saving throw resists; racial traits give advantage against it (a dwarf vs poison, a
/// halfling vs frightened, an elf vs charmed, a gnome's INT/WIS/CHA saves vs magic).
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SaveVs {
    /// A condition a failure imposes (poisoned, frightened, charmed, …).
    pub condition: Option<tabletop_rules::Condition>,
    /// The damage type at stake (poison, …).
    pub damage_type: Option<tabletop_rules::DamageType>,
    /// A spell or magical effect.
    #[serde(default)]
    pub magic: bool,
}

/// Arguments of `roll_check`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct RollCheckArgs {
    pub character_id: Option<String>,
    pub character_name: Option<String>,
    /// passive is 10 + the bonus, no roll.
    pub check_type: CheckType,
    /// The skill (skill and passive checks).
    pub skill: Option<Skill>,
    /// The ability (ability, save, attack; passive ability).
    pub ability: Option<Ability>,
    /// DC to beat (AC for attacks); success is reported.
    pub dc: Option<i32>,
    /// Situational advantage (the sheet's own applies anyway).
    #[serde(default)]
    pub advantage: bool,
    /// Disadvantage from the situation.
    #[serde(default)]
    pub disadvantage: bool,
    /// Situational bonus or penalty.
    #[serde(default)]
    pub bonus: i32,
    /// Attack: add the proficiency bonus (default true; with weapon, from the class).
    pub proficient: Option<bool>,
    /// Attack with this equipped weapon, or a stat-block attack (e.g. scimitar).
    pub weapon: Option<String>,
    /// Why the check is made.
    pub reason: Option<String>,
    /// Roll a contest against this character; higher wins, a tie keeps the status quo.
    pub contested_by: Option<ContestSide>,
    /// Save: what it is against, for racial advantages.
    pub vs: Option<SaveVs>,
}

fn test_for(
    kind: CheckType,
    skill: Option<Skill>,
    ability: Option<Ability>,
    proficient: Option<bool>,
) -> Result<(D20Test, bool), EngineError> {
    let need_ability = |what: &str| {
        ability.ok_or_else(|| {
            EngineError::invalid(
                "ability",
                format!("a {what} needs ability: str, dex, con, int, wis or cha"),
            )
        })
    };
    Ok(match kind {
        CheckType::Skill => (
            D20Test::SkillCheck {
                skill: skill.ok_or_else(|| {
                    EngineError::invalid("skill", "a skill check needs skill, e.g. \"stealth\"")
                })?,
            },
            false,
        ),
        CheckType::Ability => (
            D20Test::AbilityCheck {
                ability: need_ability("ability check")?,
            },
            false,
        ),
        CheckType::Save => (
            D20Test::Save {
                ability: need_ability("saving throw")?,
            },
            false,
        ),
        CheckType::Attack => (
            D20Test::Attack {
                ability: Some(ability.unwrap_or(Ability::Strength)),
                proficient: proficient.unwrap_or(true),
            },
            false,
        ),
        CheckType::Initiative => (D20Test::Initiative, false),
        CheckType::Passive => match (skill, ability) {
            (Some(s), _) => (D20Test::SkillCheck { skill: s }, true),
            (None, Some(a)) => (D20Test::AbilityCheck { ability: a }, true),
            (None, None) => (
                D20Test::SkillCheck {
                    skill: Skill::Perception,
                },
                true,
            ),
        },
    })
}

fn request(a: &RollCheckArgs) -> Result<CheckRequest, EngineError> {
    let (test, passive) = test_for(a.check_type, a.skill, a.ability, a.proficient)?;
    if a.vs.is_some() && !matches!(test, D20Test::Save { .. }) {
        return Err(EngineError::invalid(
            "vs",
            "vs goes with checkType save (what the saving throw resists)",
        ));
    }
    Ok(CheckRequest {
        against: a
            .vs
            .as_ref()
            .map(|v| tabletop_engine::saves::SaveAgainst {
                conditions: v.condition.into_iter().collect(),
                damage: v.damage_type,
                magic: v.magic,
            })
            .unwrap_or_default(),
        test,
        passive,
        dc: a.dc,
        advantage: a.advantage.then(|| "advantage given".to_string()),
        disadvantage: a.disadvantage.then(|| "disadvantage given".to_string()),
        bonus: a.bonus,
        reason: a.reason.clone(),
        weapon: a.weapon.as_ref().map(|w| WeaponUse {
            name: w.clone(),
            proficient: a.proficient,
            ability: a.ability,
        }),
    })
}

fn run(call: &mut Call<'_>, a: RollCheckArgs) -> Result<Reply, EngineError> {
    let who = CharacterRef::new(a.character_id.as_deref(), a.character_name.as_deref());
    let req = request(&a)?;
    if let Some(other) = &a.contested_by {
        let (test, passive) = test_for(
            a.check_type,
            other.skill.or(a.skill),
            other.ability.or(a.ability),
            None,
        )?;
        let theirs = CheckRequest {
            passive,
            ..CheckRequest::of(test)
        };
        let out = roll_contest(
            call,
            (who, &req),
            (
                CharacterRef::new(
                    other.character_id.as_deref(),
                    other.character_name.as_deref(),
                ),
                &theirs,
            ),
        )?;
        return Ok(Reply::new(out.summary(), &out));
    }
    let (out, recorded) = roll_check_recorded(call, who, &req)?;
    Ok(Reply::recorded(out.summary(), &out, recorded))
}

fn handle(engine: &mut EngineT, tool: &str, raw: &Value) -> Result<Reply, ToolError> {
    let group = raw.get("group").and_then(Value::as_bool).unwrap_or(false);
    if !group {
        if raw.get("group").is_some() {
            let mut rest = raw.clone();
            if let Some(o) = rest.as_object_mut() {
                o.remove("group");
            }
            return invoke_batch(engine, tool, &rest, Access::Write, run);
        }
        return invoke_batch(engine, tool, raw, Access::Write, run);
    }
    let Some(Value::Array(items)) = raw.get("batch") else {
        return Err(ToolError(
            "group: true needs batch: one item per member, each with checkType and dc".into(),
        ));
    };
    if items.is_empty() || items.len() > MAX_BATCH {
        return Err(ToolError(format!(
            "a group check takes 1–{MAX_BATCH} members; {} given",
            items.len()
        )));
    }
    let parsed: Vec<RollCheckArgs> = items
        .iter()
        .map(|i| args::parse(tool, i))
        .collect::<Result<_, _>>()?;
    let reqs: Vec<CheckRequest> = parsed
        .iter()
        .map(request)
        .collect::<Result<_, _>>()
        .map_err(ToolError::from)?;
    let members: Vec<(CharacterRef<'_>, CheckRequest)> = parsed
        .iter()
        .zip(reqs)
        .map(|(a, r)| {
            (
                CharacterRef::new(a.character_id.as_deref(), a.character_name.as_deref()),
                r,
            )
        })
        .collect();
    let out = engine.write(tool, raw, |call| roll_group(call, &members))?;
    Ok(Reply::new(out.summary(), &out))
}

pub(super) fn specs() -> Vec<ToolSpec> {
    vec![ToolSpec {
        name: "roll_check",
        title: "Roll check",
        category: Category::Characters,
        description: "A character's skill, ability, save, attack or initiative roll with all its bonuses; contests, groups.",
        read_only: false,
        destructive: false,
        idempotent: false,
        core: true,
        max_result_chars: 8_000,
        schema: || {
            let mut s = with_batch(input_schema::<RollCheckArgs>(), "checks");
            if let Some(Value::Object(props)) = s.get_mut("properties") {
                props.insert(
                    "group".into(),
                    serde_json::json!({"type": "boolean", "description": "With batch: one group check; succeeds when at least half succeed."}),
                );
            }
            s
        },
        core_schema: Some(|| {
            lean_schema::<RollCheckArgs>(&[
                "characterId",
                "characterName",
                "checkType",
                "skill",
                "ability",
                "dc",
                "advantage",
                "disadvantage",
                "weapon",
            ])
        }),
        handler: handle,
    }]
}
