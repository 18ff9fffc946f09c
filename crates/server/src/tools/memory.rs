//! Campaign memory tools: manage_quest, manage_npc, manage_secret and advance_time (DESIGN §12).
//! Parsing and rendering only; the engine's `memory` and `clock` modules hold the rules.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tabletop_engine::clock::{self, TimeOfDay, TimeRequest};
use tabletop_engine::memory::npcs::{self, NpcDraft};
use tabletop_engine::memory::quests::{self, QuestDraft};
use tabletop_engine::memory::secrets::{self, SecretDraft};
use tabletop_engine::memory::{Attitude, Npc, Quest, QuestStatus, Rewards, Secret};
use tabletop_engine::{Call, EngineError};

use super::{Access, EngineT, check_fields, invoke};
use crate::arg_enum;
use crate::render_memory as render;
use crate::reply::{Reply, ToolError};
use crate::schema::input_schema;
use crate::spec::{Category, ToolSpec};

fn need<'a>(v: &'a Option<String>, field: &str, what: &str) -> Result<&'a str, EngineError> {
    v.as_deref()
        .filter(|s| !s.trim().is_empty())
        .ok_or_else(|| EngineError::invalid(field, what.to_string()))
}

/// Runs a tool whose read operations are `reads`, in a read or write transaction.
fn handle<A: serde::de::DeserializeOwned>(
    engine: &mut EngineT,
    tool: &str,
    raw: &Value,
    table: &[(&str, &[&str])],
    reads: &[&str],
    run: fn(&mut Call<'_>, A) -> Result<Reply, EngineError>,
) -> Result<Reply, ToolError> {
    check_fields(tool, raw, table)?;
    let op = raw
        .get("operation")
        .and_then(Value::as_str)
        .map(tabletop_rules::vocab::normalize_key)
        .unwrap_or_default();
    let access = if reads.contains(&op.as_str()) {
        Access::Read
    } else {
        Access::Write
    };
    invoke(engine, tool, raw, access, run)
}

/// Lists as answered.
#[derive(Debug, Serialize, JsonSchema)]
pub struct QuestList {
    /// Quests.
    pub quests: Vec<Quest>,
}

/// NPCs as listed.
#[derive(Debug, Serialize, JsonSchema)]
pub struct NpcList {
    /// NPCs.
    pub npcs: Vec<Npc>,
}

/// Secrets as listed.
#[derive(Debug, Serialize, JsonSchema)]
pub struct SecretList {
    /// Secrets.
    pub secrets: Vec<Secret>,
}

// ---------------------------------------------------------------------------------------------
// manage_quest

arg_enum! {
    /// manage_quest operations.
    pub enum QuestOp {
        Create = "create",
        Get = "get",
        List = "list",
        Update = "update",
        AddObjective = "add_objective",
        CompleteObjective = "complete_objective",
        Complete = "complete",
        Fail = "fail",
        Delete = "delete",
    }
}

arg_enum! {
    /// Quest status.
    pub enum QuestStatusArg { Active = "active", Completed = "completed", Failed = "failed" }
}

/// Quest rewards.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RewardsArg {
    /// Split among the active party.
    pub xp: Option<u32>,
    /// Split among the active party.
    pub gp: Option<u32>,
    /// To the party leader.
    pub items: Option<Vec<String>>,
}

/// Arguments of `manage_quest`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ManageQuestArgs {
    pub operation: QuestOp,
    /// Id or title.
    pub quest_id: Option<String>,
    pub title: Option<String>,
    pub description: Option<String>,
    pub giver: Option<String>,
    pub places: Option<Vec<String>>,
    pub objectives: Option<Vec<String>>,
    pub rewards: Option<RewardsArg>,
    /// add_objective: text; complete_objective: number or text.
    pub objective: Option<String>,
    /// list filter.
    pub status: Option<QuestStatusArg>,
    /// fail: why.
    pub reason: Option<String>,
}

const QUEST_FIELDS: &[&str] = &["title", "description", "giver", "places", "rewards"];

fn quest_table() -> Vec<(&'static str, Vec<&'static str>)> {
    let mut create = QUEST_FIELDS.to_vec();
    create.push("objectives");
    let mut update = QUEST_FIELDS.to_vec();
    update.push("questId");
    vec![
        ("create", create),
        ("get", vec!["questId"]),
        ("list", vec!["status"]),
        ("update", update),
        ("add_objective", vec!["questId", "objective"]),
        ("complete_objective", vec!["questId", "objective"]),
        ("complete", vec!["questId"]),
        ("fail", vec!["questId", "reason"]),
        ("delete", vec!["questId"]),
    ]
}

fn quest_draft(a: &ManageQuestArgs) -> QuestDraft {
    QuestDraft {
        title: a.title.clone(),
        description: a.description.clone(),
        giver: a.giver.clone(),
        places: a.places.clone(),
        objectives: a.objectives.clone(),
        rewards: a.rewards.as_ref().map(|r| Rewards {
            xp: r.xp.unwrap_or(0),
            gp: r.gp.unwrap_or(0),
            items: r.items.clone().unwrap_or_default(),
        }),
    }
}

fn run_quest(call: &mut Call<'_>, a: ManageQuestArgs) -> Result<Reply, EngineError> {
    let id = || {
        need(
            &a.quest_id,
            "questId",
            "name the quest: questId (id or title)",
        )
    };
    let out = match a.operation {
        QuestOp::Create => quests::create(call, quest_draft(&a))?,
        QuestOp::Get => {
            let q = quests::get(call, id()?)?;
            return Ok(Reply::new(render::quest(&q), &q));
        }
        QuestOp::List => {
            let status = a.status.map(|s| match s {
                QuestStatusArg::Active => QuestStatus::Active,
                QuestStatusArg::Completed => QuestStatus::Completed,
                QuestStatusArg::Failed => QuestStatus::Failed,
            });
            let list = quests::list(call, status)?;
            return Ok(Reply::new(
                render::quest_list(&list),
                &QuestList { quests: list },
            ));
        }
        QuestOp::Update => quests::update(call, id()?, quest_draft(&a))?,
        QuestOp::AddObjective => quests::add_objective(
            call,
            id()?,
            need(&a.objective, "objective", "give the objective's text")?,
        )?,
        QuestOp::CompleteObjective => quests::complete_objective(
            call,
            id()?,
            need(
                &a.objective,
                "objective",
                "give the objective's number (from 1) or text",
            )?,
        )?,
        QuestOp::Complete => quests::complete(call, id()?)?,
        QuestOp::Fail => quests::fail(call, id()?, a.reason.as_deref())?,
        QuestOp::Delete => quests::delete(call, id()?)?,
    };
    Ok(Reply::new(render::quest_outcome(&out), &out))
}

// ---------------------------------------------------------------------------------------------
// manage_npc

arg_enum! {
    /// manage_npc operations.
    pub enum NpcOp {
        Create = "create",
        Get = "get",
        List = "list",
        Update = "update",
        Delete = "delete",
        Remember = "remember",
        Recall = "recall",
        Attitude = "attitude",
        Relate = "relate",
    }
}

arg_enum! {
    /// Attitude.
    pub enum AttitudeArg {
        Hostile = "hostile",
        Unfriendly = "unfriendly",
        Indifferent = "indifferent",
        Friendly = "friendly",
        Helpful = "helpful",
    }
}

/// Arguments of `manage_npc`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ManageNpcArgs {
    pub operation: NpcOp,
    /// Id or name.
    pub npc_id: Option<String>,
    pub name: Option<String>,
    /// Link a character sheet.
    pub character_id: Option<String>,
    pub description: Option<String>,
    pub location: Option<String>,
    pub factions: Option<Vec<String>>,
    /// remember/recall: a PC, "party" or an NPC.
    pub about: Option<String>,
    /// remember: what.
    pub memory: Option<String>,
    /// remember: 1-5 (default 3).
    pub importance: Option<u8>,
    /// recall: most (default 10).
    pub limit: Option<usize>,
    /// attitude: a PC or "party".
    pub toward: Option<String>,
    /// attitude (omit to read); create/update: toward the party.
    pub attitude: Option<AttitudeArg>,
    /// relate: an NPC or faction.
    pub with: Option<String>,
    /// relate: the tie ("rival"; "none" removes).
    pub relation: Option<String>,
    /// relate: with is a faction.
    #[serde(default)]
    pub faction: bool,
}

const NPC_FIELDS: &[&str] = &[
    "name",
    "characterId",
    "description",
    "location",
    "factions",
    "attitude",
];

fn npc_table() -> Vec<(&'static str, Vec<&'static str>)> {
    let mut update = NPC_FIELDS.to_vec();
    update.push("npcId");
    vec![
        ("create", NPC_FIELDS.to_vec()),
        ("get", vec!["npcId", "name"]),
        ("list", vec!["location", "factions"]),
        ("update", update),
        ("delete", vec!["npcId", "name"]),
        (
            "remember",
            vec!["npcId", "name", "about", "memory", "importance"],
        ),
        ("recall", vec!["npcId", "name", "about", "limit"]),
        (
            "attitude",
            vec!["npcId", "name", "toward", "about", "attitude"],
        ),
        (
            "relate",
            vec!["npcId", "name", "with", "relation", "faction"],
        ),
    ]
}

fn attitude(a: AttitudeArg) -> Attitude {
    match a {
        AttitudeArg::Hostile => Attitude::Hostile,
        AttitudeArg::Unfriendly => Attitude::Unfriendly,
        AttitudeArg::Indifferent => Attitude::Indifferent,
        AttitudeArg::Friendly => Attitude::Friendly,
        AttitudeArg::Helpful => Attitude::Helpful,
    }
}

fn npc_draft(a: &ManageNpcArgs, with_name: bool) -> NpcDraft {
    NpcDraft {
        name: if with_name { a.name.clone() } else { None },
        character: a.character_id.clone(),
        description: a.description.clone(),
        location: a.location.clone(),
        factions: a.factions.clone(),
        attitude: a.attitude.map(attitude),
    }
}

fn run_npc(call: &mut Call<'_>, a: ManageNpcArgs) -> Result<Reply, EngineError> {
    // With npcId, name is a new name (update); without, it finds the NPC.
    let who = || {
        a.npc_id
            .as_deref()
            .or(a.name.as_deref())
            .filter(|s| !s.trim().is_empty())
            .ok_or_else(|| EngineError::invalid("npcId", "name the NPC: npcId or name"))
    };
    let out = match a.operation {
        NpcOp::Create => npcs::create(call, npc_draft(&a, true))?,
        NpcOp::Get => {
            let n = npcs::find(call, who()?)?;
            return Ok(Reply::new(render::npc(&n), &n));
        }
        NpcOp::List => {
            let f = a
                .factions
                .as_ref()
                .and_then(|f| f.first())
                .map(String::as_str);
            let list = npcs::list(call, a.location.as_deref(), f)?;
            return Ok(Reply::new(render::npc_list(&list), &NpcList { npcs: list }));
        }
        NpcOp::Update => {
            let rename = a.npc_id.is_some();
            npcs::update(call, who()?, npc_draft(&a, rename))?
        }
        NpcOp::Delete => npcs::delete(call, who()?)?,
        NpcOp::Remember => npcs::remember(
            call,
            who()?,
            a.about.as_deref(),
            need(&a.memory, "memory", "give what the NPC remembers")?,
            a.importance,
        )?,
        NpcOp::Recall => {
            let r = npcs::recall(call, who()?, a.about.as_deref(), a.limit.unwrap_or(10))?;
            return Ok(Reply::new(render::recall(&r), &r));
        }
        NpcOp::Attitude => {
            npcs::attitude(call, who()?, a.toward.as_deref(), a.attitude.map(attitude))?
        }
        NpcOp::Relate => npcs::relate(
            call,
            who()?,
            need(&a.with, "with", "name the other NPC or the faction")?,
            need(
                &a.relation,
                "relation",
                "say what the tie is (\"rival\"; \"none\" removes it)",
            )?,
            a.faction,
        )?,
    };
    Ok(Reply::new(render::npc_outcome(&out), &out))
}

// ---------------------------------------------------------------------------------------------
// manage_secret

arg_enum! {
    /// manage_secret operations.
    pub enum SecretOp {
        Create = "create",
        Get = "get",
        List = "list",
        Update = "update",
        Reveal = "reveal",
        Delete = "delete",
        CheckLeaks = "check_leaks",
    }
}

/// Arguments of `manage_secret`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ManageSecretArgs {
    pub operation: SecretOp,
    /// Id or title.
    pub secret_id: Option<String>,
    pub title: Option<String>,
    pub content: Option<String>,
    pub reveal_condition: Option<String>,
    /// Words/phrases that give it away.
    pub key_terms: Option<Vec<String>>,
    /// reveal: how.
    pub how: Option<String>,
    /// list filter.
    pub revealed: Option<bool>,
    /// check_leaks: narration to check.
    pub text: Option<String>,
}

fn secret_table() -> Vec<(&'static str, Vec<&'static str>)> {
    let fields = vec!["title", "content", "revealCondition", "keyTerms"];
    let mut update = fields.clone();
    update.push("secretId");
    vec![
        ("create", fields),
        ("get", vec!["secretId"]),
        ("list", vec!["revealed"]),
        ("update", update),
        ("reveal", vec!["secretId", "how"]),
        ("delete", vec!["secretId"]),
        ("check_leaks", vec!["text"]),
    ]
}

fn secret_draft(a: &ManageSecretArgs) -> SecretDraft {
    SecretDraft {
        title: a.title.clone(),
        content: a.content.clone(),
        reveal_condition: a.reveal_condition.clone(),
        key_terms: a.key_terms.clone(),
    }
}

fn run_secret(call: &mut Call<'_>, a: ManageSecretArgs) -> Result<Reply, EngineError> {
    let id = || {
        need(
            &a.secret_id,
            "secretId",
            "name the secret: secretId (id or title)",
        )
    };
    let out = match a.operation {
        SecretOp::Create => secrets::create(call, secret_draft(&a))?,
        SecretOp::Get => {
            let s = secrets::get(call, id()?)?;
            return Ok(Reply::new(render::secret(&s), &s));
        }
        SecretOp::List => {
            let list = secrets::list(call, a.revealed)?;
            return Ok(Reply::new(
                render::secret_list(&list),
                &SecretList { secrets: list },
            ));
        }
        SecretOp::Update => secrets::update(call, id()?, secret_draft(&a))?,
        SecretOp::Reveal => secrets::reveal(call, id()?, a.how.as_deref())?,
        SecretOp::Delete => secrets::delete(call, id()?)?,
        SecretOp::CheckLeaks => {
            let c = secrets::check_leaks(call, a.text.as_deref().unwrap_or(""))?;
            return Ok(Reply::new(render::leaks(&c), &c));
        }
    };
    Ok(Reply::new(render::secret_outcome(&out), &out))
}

// ---------------------------------------------------------------------------------------------
// advance_time

arg_enum! {
    /// A time of day.
    pub enum UntilArg { Dawn = "dawn", Noon = "noon", Dusk = "dusk", Midnight = "midnight" }
}

/// `move_party` operation `wait`: moves the world clock.
pub(super) fn wait(
    call: &mut Call<'_>,
    minutes: Option<u64>,
    hours: Option<u64>,
    days: Option<u64>,
    until: Option<UntilArg>,
) -> Result<Reply, EngineError> {
    let out = clock::advance_time(
        call,
        &TimeRequest {
            minutes: minutes.unwrap_or(0),
            hours: hours.unwrap_or(0),
            days: days.unwrap_or(0),
            until: until.map(|u| match u {
                UntilArg::Dawn => TimeOfDay::Dawn,
                UntilArg::Noon => TimeOfDay::Noon,
                UntilArg::Dusk => TimeOfDay::Dusk,
                UntilArg::Midnight => TimeOfDay::Midnight,
            }),
        },
    )?;
    Ok(Reply::new(format!("Time passes: {}", out.summary), &out))
}

fn table_of<'a>(
    t: &'a [(&'static str, Vec<&'static str>)],
) -> Vec<(&'static str, &'a [&'static str])> {
    t.iter().map(|(o, f)| (*o, f.as_slice())).collect()
}

pub(super) fn specs() -> Vec<ToolSpec> {
    vec![
        ToolSpec {
            name: "manage_quest",
            title: "Quests",
            category: Category::World,
            description: "Quests; the last objective done pays the party.",
            read_only: false,
            destructive: true,
            idempotent: false,
            core: false,
            max_result_chars: 10_000,
            schema: input_schema::<ManageQuestArgs>,
            core_schema: None,
            handler: |e, n, raw| {
                let t = quest_table();
                handle(e, n, raw, &table_of(&t), &["get", "list"], run_quest)
            },
        },
        ToolSpec {
            name: "manage_npc",
            title: "NPCs",
            category: Category::World,
            description: "NPC memories, attitudes per PC, ties.",
            read_only: false,
            destructive: true,
            idempotent: false,
            core: false,
            max_result_chars: 10_000,
            schema: input_schema::<ManageNpcArgs>,
            core_schema: None,
            handler: |e, n, raw| {
                let t = npc_table();
                handle(
                    e,
                    n,
                    raw,
                    &table_of(&t),
                    &["get", "list", "recall"],
                    run_npc,
                )
            },
        },
        ToolSpec {
            name: "manage_secret",
            title: "Secrets",
            category: Category::World,
            description: "DM-only secrets; check_leaks flags narration.",
            read_only: false,
            destructive: true,
            idempotent: false,
            core: false,
            max_result_chars: 10_000,
            schema: input_schema::<ManageSecretArgs>,
            core_schema: None,
            handler: |e, n, raw| {
                let t = secret_table();
                handle(
                    e,
                    n,
                    raw,
                    &table_of(&t),
                    &["get", "list", "check_leaks"],
                    run_secret,
                )
            },
        },
    ]
}
