//! Converters for the legacy quest, secret and NPC-memory tools (their shapes: objectives and
//! reveal conditions as objects, importance as words, the NPC named by its character id).

use serde_json::{Map, Value};

use crate::reply::ToolError;

fn rename(args: &mut Map<String, Value>, pairs: &[(&str, &str)]) {
    // Composite legacy tools (`quest_manage`, `secret_manage`) pick the operation by `action`.
    if let Some(a) = args.remove("action") {
        args.entry("operation").or_insert(a);
    }
    for (old, new) in pairs {
        if let Some(v) = args.remove(*old) {
            args.entry(*new).or_insert(v);
        }
    }
}

/// A text from a legacy string or object (`description`, `text`, `name`, `title`).
fn text_of(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Object(o) => ["description", "text", "name", "title", "condition"]
            .iter()
            .find_map(|k| o.get(*k).and_then(Value::as_str).map(str::to_string)),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// Legacy quests: `name` → title, objectives as objects → texts, `rewards.{experience, gold}`
/// → `{xp, gp}`, `objectiveId`/`objectiveIndex` → objective.
pub(super) fn legacy_quest(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    rename(
        args,
        &[
            ("id", "questId"),
            ("quest_id", "questId"),
            ("name", "title"),
            ("questGiver", "giver"),
            ("giverId", "giver"),
            ("objectiveId", "objective"),
            ("objective_id", "objective"),
            ("objectiveIndex", "objective"),
            ("location", "places"),
            ("locations", "places"),
        ],
    );
    if let Some(Value::Array(objs)) = args.get("objectives") {
        let texts: Vec<Value> = objs.iter().filter_map(text_of).map(Value::String).collect();
        args.insert("objectives".into(), Value::Array(texts));
    }
    if let Some(p) = args.get("places").cloned()
        && let Value::String(s) = p
    {
        args.insert("places".into(), Value::Array(vec![Value::String(s)]));
    }
    if let Some(o) = args.get("objective").cloned()
        && !o.is_string()
        && let Some(t) = text_of(&o)
    {
        args.insert("objective".into(), Value::String(t));
    }
    if let Some(Value::Object(r)) = args.get_mut("rewards") {
        for (old, new) in [("experience", "xp"), ("gold", "gp")] {
            if let Some(v) = r.remove(old) {
                r.entry(new).or_insert(v);
            }
        }
        if let Some(Value::Array(items)) = r.get("items") {
            let names: Vec<Value> = items
                .iter()
                .filter_map(text_of)
                .map(Value::String)
                .collect();
            r.insert("items".into(), Value::Array(names));
        }
        r.retain(|k, _| ["xp", "gp", "items"].contains(&k.as_str()));
    }
    // Legacy progress fields have no counterpart: completing is the one change.
    for k in [
        "progress",
        "completed",
        "status",
        "characterId",
        "character_id",
    ] {
        if k == "status" && args.get("operation").and_then(Value::as_str) == Some("list") {
            continue;
        }
        args.remove(k);
    }
    Ok(())
}

/// Legacy secrets: `name` → title, `description` → content, reveal conditions (objects) → one
/// text, `sensitiveKeywords`/`keywords` → keyTerms, narration → text.
pub(super) fn legacy_secret(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    rename(
        args,
        &[
            ("id", "secretId"),
            ("secret_id", "secretId"),
            ("name", "title"),
            ("description", "content"),
            ("keywords", "keyTerms"),
            ("sensitiveKeywords", "keyTerms"),
            ("revealConditions", "revealCondition"),
            ("narration", "text"),
            ("response", "text"),
            ("revealedBy", "how"),
            ("triggeredBy", "how"),
        ],
    );
    if let Some(rc) = args.get("revealCondition").cloned()
        && let Value::Array(items) = rc
    {
        let texts: Vec<String> = items.iter().filter_map(text_of).collect();
        args.insert("revealCondition".into(), Value::String(texts.join("; ")));
    }
    for k in [
        "type",
        "category",
        "sensitivity",
        "leakPatterns",
        "linkedEntityId",
        "linkedEntityType",
        "worldId",
        "context",
        "characterId",
    ] {
        args.remove(k);
    }
    Ok(())
}

/// Legacy NPC memory: the NPC by `npcId` (a character id: the sheet becomes an NPC), the PC by
/// `characterId` → about/toward, `summary` → memory, importance words → 1–5, disposition →
/// attitude.
pub(super) fn legacy_npc(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    rename(
        args,
        &[
            ("npc_id", "npcId"),
            ("summary", "memory"),
            ("content", "memory"),
            ("disposition", "attitude"),
        ],
    );
    if let Some(pc) = args
        .remove("characterId")
        .or_else(|| args.remove("character_id"))
    {
        let op = args.get("operation").and_then(Value::as_str).unwrap_or("");
        let field = if op == "attitude" { "toward" } else { "about" };
        args.entry(field).or_insert(pc);
    }
    if let Some(Value::String(i)) = args.get("importance").cloned() {
        let n = match i.to_lowercase().as_str() {
            "low" | "trivial" => 1,
            "medium" | "normal" => 3,
            "high" => 4,
            "critical" => 5,
            _ => 3,
        };
        args.insert("importance".into(), Value::from(n));
    }
    if let Some(Value::String(a)) = args.get("attitude").cloned()
        && matches!(a.to_lowercase().as_str(), "neutral")
    {
        args.insert("attitude".into(), Value::String("indifferent".into()));
    }
    for k in [
        "topics",
        "familiarity",
        "notes",
        "minImportance",
        "importanceFilter",
    ] {
        args.remove(k);
    }
    Ok(())
}
