//! Converters for characters, places, parties, travel, notes and the session.

use serde_json::{Map, Value};

use crate::reply::ToolError;

/// Legacy `{amount, damageType}` damage → `damage: [{amount, type}]`.
pub(super) fn damage_amount(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    if let Some(amount) = args.remove("amount") {
        let mut d = Map::new();
        d.insert("amount".into(), amount);
        if let Some(t) = args.remove("damageType").or_else(|| args.remove("type")) {
            d.insert("type".into(), t);
        }
        args.insert("damage".into(), Value::Array(vec![Value::Object(d)]));
    }
    Ok(())
}

/// Legacy `{amount}` healing → `healing`.
pub(super) fn healing_amount(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    if let Some(amount) = args.remove("amount") {
        args.insert("healing".into(), amount);
    }
    Ok(())
}

/// Legacy `{name}` lookups → `characterName`.
pub(super) fn name_is_character(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    if let Some(n) = args.remove("name") {
        args.entry("characterName").or_insert(n);
    }
    Ok(())
}

/// Legacy `{type: "npc"}`-free lists of NPCs → `filter.type`.
pub(super) fn list_of(kind: &'static str) -> impl Fn(&mut Map<String, Value>) {
    move |args: &mut Map<String, Value>| {
        let filter = args
            .entry("filter")
            .or_insert_with(|| Value::Object(Map::new()));
        if let Value::Object(f) = filter {
            f.entry("type")
                .or_insert_with(|| Value::String(kind.into()));
        }
    }
}

pub(super) fn list_npcs(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    list_of("npc")(args);
    Ok(())
}

/// Mirrors the `character_id` set of the alias data (checked by a test).
pub(super) const CHARACTER_ID: &[(&str, &str)] = &[
    ("id", "characterId"),
    ("character_id", "characterId"),
    ("npcId", "characterId"),
];

/// Legacy worlds: a campaign is the world, so `worldId` says nothing.
pub(super) fn drop_world(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    args.remove("worldId");
    Ok(())
}

/// Legacy `create_room`-style calls named the place `name` and its kind `type`.
pub(super) fn room_create(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    drop_world(args)?;
    if let Some(t) = args.remove("connectionType") {
        args.insert("type".into(), t);
    }
    if let Some(l) = args.remove("locationId") {
        args.entry("name").or_insert(l);
    }
    Ok(())
}

/// Legacy `create_party {name, initialMembers: [{characterId, role}]}` → a batch: create with
/// the first member, then add the others.
pub(super) fn party_create(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    drop_world(args)?;
    let Some(members) = args
        .remove("initialMembers")
        .or_else(|| args.remove("members"))
    else {
        return Ok(());
    };
    let Value::Array(members) = members else {
        return Err(ToolError(
            "initialMembers must be an array of {characterId, role}".into(),
        ));
    };
    let name = args.get("name").cloned().unwrap_or(Value::Null);
    let mut first = args.clone();
    first.insert("operation".into(), Value::String("create".into()));
    let mut batch = Vec::new();
    for (i, m) in members.into_iter().enumerate() {
        let Value::Object(mut m) = m else {
            return Err(ToolError(
                "each initialMembers item is {characterId, role}".into(),
            ));
        };
        m.remove("isActive");
        if i == 0 {
            first.extend(m);
            batch.push(Value::Object(std::mem::take(&mut first)));
        } else {
            m.insert("operation".into(), Value::String("add_member".into()));
            m.insert("partyName".into(), name.clone());
            batch.push(Value::Object(m));
        }
    }
    if batch.is_empty() {
        return Ok(());
    }
    args.clear();
    args.insert("batch".into(), Value::Array(batch));
    Ok(())
}

/// Legacy member calls carried flags the new tool keeps elsewhere.
pub(super) fn party_member(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    drop_world(args)?;
    args.remove("isActive");
    Ok(())
}

/// Legacy narrative notes: other type and visibility names, a `status` that becomes a tag.
pub(super) fn narrative_note(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    drop_world(args)?;
    if let Some(Value::String(t)) = args.get("type") {
        let mapped = match t.as_str() {
            "canonical_moment" => "session_log",
            "npc_voice" => "npc",
            "quest" => "plot_thread",
            other => other,
        };
        args.insert("type".into(), Value::String(mapped.into()));
    }
    if let Some(Value::String(v)) = args.get("visibility") {
        let mapped = match v.as_str() {
            "dm_only" => "dm",
            "player_visible" => "player",
            other => other,
        };
        args.insert("visibility".into(), Value::String(mapped.into()));
    }
    if let Some(status) = args.remove("status") {
        let tag = Value::String(format!("status:{}", status.as_str().unwrap_or("unknown")));
        match args.entry("tags").or_insert_with(|| Value::Array(vec![])) {
            Value::Array(tags) => tags.push(tag),
            other => *other = Value::Array(vec![tag]),
        }
    }
    Ok(())
}

/// Legacy searches called the tag filter `tags`.
pub(super) fn narrative_search(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    if let Some(t) = args.remove("tags") {
        args.entry("tagFilter").or_insert(t);
    }
    narrative_note(args)
}

/// Legacy world-state saves: the state (any JSON) becomes a lore note's content.
pub(super) fn world_state(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    drop_world(args)?;
    let state = ["content", "state", "data", "summary"]
        .iter()
        .find_map(|k| args.remove(*k));
    match state {
        Some(Value::String(s)) => {
            args.insert("content".into(), Value::String(s));
        }
        Some(other) => {
            args.insert("content".into(), Value::String(other.to_string()));
        }
        None => {}
    }
    args.entry("type").or_insert(Value::String("lore".into()));
    Ok(())
}

/// Legacy story saves: `summary` → a session-log note.
pub(super) fn story_progress(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    world_state(args)?;
    args.insert("type".into(), Value::String("session_log".into()));
    Ok(())
}

/// Legacy character moves: the character's party moves to the room.
pub(super) fn character_move(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    for k in ["roomId", "locationId", "targetRoomId", "locationName"] {
        if let Some(v) = args.remove(k) {
            args.entry("to").or_insert(v);
        }
    }
    Ok(())
}

/// Legacy `*_manage` composites took `action`; map it onto `operation`.
pub(super) fn action_to_operation(
    args: &mut Map<String, Value>,
    tool: &str,
    table: &[(&str, &str)],
) -> Result<(), ToolError> {
    let Some(action) = args.remove("action") else {
        return Ok(());
    };
    let a = action.as_str().unwrap_or_default();
    match table.iter().find(|(from, _)| *from == a) {
        Some((_, op)) => {
            args.insert("operation".into(), Value::String((*op).into()));
            Ok(())
        }
        None => Err(ToolError(format!(
            "action '{a}' has no equivalent in {tool}; its operations are: {}",
            table.iter().map(|(_, o)| *o).collect::<Vec<_>>().join(", ")
        ))),
    }
}

pub(super) fn party_manage(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    action_to_operation(
        args,
        "manage_party",
        &[
            ("create", "create"),
            ("get", "get"),
            ("list", "list"),
            ("update", "update"),
            ("delete", "delete"),
            ("add_member", "add_member"),
            ("remove_member", "remove_member"),
            ("update_member", "update"),
            ("set_leader", "set_leader"),
            ("set_active", "set_active"),
            ("get_members", "get"),
        ],
    )?;
    party_member(args)
}

pub(super) fn narrative_manage(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    action_to_operation(
        args,
        "manage_notes",
        &[
            ("add", "add"),
            ("search", "search"),
            ("get", "get"),
            ("update", "update"),
            ("delete", "delete"),
            ("list", "list"),
            ("get_context", "list"),
        ],
    )?;
    narrative_note(args)
}

pub(super) fn session_manage(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    match args.remove("action") {
        None => {}
        Some(Value::String(a)) if a == "get_context" || a == "initialize" => {}
        Some(other) => {
            return Err(ToolError(format!(
                "session_manage action {other} has no equivalent; get_session_context answers get_context and initialize"
            )));
        }
    }
    drop_world(args)
}
