//! The player-specific tools and resources: each asks the engine's table view
//! (`tabletop_engine::table`) and renders what it returns.

use std::sync::Mutex;

use rmcp::model::{ListResourcesResult, ReadResourceResult, Resource, ResourceContents};
use serde::Deserialize;
use serde_json::{Map, Value, json};
use tabletop_engine::character::CharacterRef;
use tabletop_engine::notes::NoteDraft;
use tabletop_engine::table::{self, Glimpse, Look, Viewer};

use super::{own, refuse};
use crate::args;
use crate::catalog;
use crate::reply::{Reply, ToolError};
use crate::resources::{ResourceError, SCHEME};
use crate::tools::EngineT;
use crate::tools::combat::view_text;
use crate::tools::session::{ImportanceArg, NoteTypeArg, importance, note_type};
use crate::{render, render_world};

/// A player-specific tool.
pub type ViewFn = fn(&mut EngineT, &Viewer, &Value) -> Result<Reply, ToolError>;

fn glimpse_line(g: &Glimpse) -> String {
    let mut t = format!("{} ({})", g.name, g.id);
    if let Some(s) = &g.summary {
        t.push_str(&format!(", {s}"));
    }
    match g.hp {
        Some((hp, max)) => t.push_str(&format!(", HP {hp}/{max}")),
        None => t.push_str(&format!(", {}", g.hp_state)),
    }
    if g.status != "ok" {
        t.push_str(&format!(", {}", g.status));
    }
    if !g.conditions.is_empty() {
        t.push_str(&format!(" ({})", g.conditions.join(", ")));
    }
    t
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct LookArgs {
    character_id: Option<String>,
    character_name: Option<String>,
    #[serde(default)]
    list_all: bool,
}

/// `get_character` for a player: its own sheet in full, others as the table sees them.
pub fn get_character(
    engine: &mut EngineT,
    viewer: &Viewer,
    raw: &Value,
) -> Result<Reply, ToolError> {
    let a: LookArgs = args::parse("get_character", raw)?;
    if a.list_all {
        let all = engine.read(|call| table::visible_creatures(call, viewer))?;
        let text = all.iter().map(glimpse_line).collect::<Vec<_>>().join("\n");
        return Ok(Reply::new(text, &json!({ "characters": all })));
    }
    let look = engine.read(|call| {
        table::look(
            call,
            viewer,
            CharacterRef::new(a.character_id.as_deref(), a.character_name.as_deref()),
        )
    })?;
    Ok(match look {
        Look::Own(s) => Reply::new(render::sheet(&s), &s),
        Look::Other(g) => Reply::new(glimpse_line(&g), &g),
    })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct EncounterArgs {
    encounter_id: Option<String>,
    #[allow(dead_code)]
    verbosity: Option<Value>,
}

/// `get_encounter` for a player: the fight as the table sees it.
pub fn get_encounter(
    engine: &mut EngineT,
    viewer: &Viewer,
    raw: &Value,
) -> Result<Reply, ToolError> {
    let a: EncounterArgs = args::parse("get_encounter", raw)?;
    let v = engine.read(|call| table::encounter(call, viewer, a.encounter_id.as_deref()))?;
    Ok(Reply::new(view_text(&v), &v))
}

/// `execute_action` for a player: its own character, on its own turn (a reaction any time),
/// against creatures it can see; the outcome as the table hears it, then the fight.
pub fn execute_action(
    engine: &mut EngineT,
    viewer: &Viewer,
    raw: &Value,
) -> Result<Reply, ToolError> {
    let mut obj = raw.as_object().cloned().unwrap_or_default();
    refuse(
        "execute_action",
        &obj,
        &[
            "batch",
            "force",
            "bonus",
            "dc",
            "advantage",
            "disadvantage",
            "amount",
            "damageType",
        ],
    )?;
    let kind = obj.get("actionType").and_then(Value::as_str).unwrap_or("");
    if matches!(kind, "damage" | "heal") {
        return Err(ToolError(format!(
            "actionType {kind} is the DM's adjustment; a player deals damage and heals through attacks, spells and items"
        )));
    }
    own(engine, viewer, &mut obj, "actorId", "actorName")?;
    let reaction = obj.get("actionCost").and_then(Value::as_str) == Some("reaction");
    match engine.read(|call| table::is_own_turn(call, viewer))? {
        None => {
            return Err(ToolError(
                "your character is not in an active encounter; out of combat, use roll_check or ask the DM".into(),
            ));
        }
        Some(false) if !reaction => {
            return Err(ToolError(
                "it is not your turn; wait for it (or use actionCost reaction for a reaction)"
                    .into(),
            ));
        }
        _ => {}
    }
    see_targets(engine, viewer, &mut obj)?;
    let spec = catalog::find("execute_action")
        .ok_or_else(|| ToolError("internal: execute_action missing".into()))?;
    let done = (spec.handler)(engine, spec.name, &Value::Object(obj))?;
    let done = done.into_structured();
    let headline = done.get("headline").and_then(Value::as_str).unwrap_or("");
    let lines: Vec<String> = done
        .get("lines")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(table::as_heard)
        .collect();
    let heard = table::as_heard(headline);
    let fight = engine.read(|call| table::encounter(call, viewer, None))?;
    let mut text = heard.clone();
    for l in &lines {
        text.push_str(&format!("\n{l}"));
    }
    text.push_str(&format!("\n\n{}", view_text(&fight)));
    Ok(Reply::new(
        text,
        &json!({ "headline": heard, "lines": lines, "encounter": fight }),
    ))
}

/// Replaces every target a player names by the id of a creature it can see (anything else is
/// "not found", without suggestions).
fn see_targets(
    engine: &mut EngineT,
    viewer: &Viewer,
    obj: &mut Map<String, Value>,
) -> Result<(), ToolError> {
    let mut resolve = |id: Option<&Value>,
                       name: Option<&Value>|
     -> Result<Option<String>, ToolError> {
        let (id, name) = (id.and_then(Value::as_str), name.and_then(Value::as_str));
        if id.is_none() && name.is_none() {
            return Ok(None);
        }
        let look = engine.read(|call| table::look(call, viewer, CharacterRef::new(id, name)))?;
        Ok(Some(match look {
            Look::Own(s) => s.character.id.clone(),
            Look::Other(g) => g.id,
        }))
    };
    if let Some(t) = resolve(obj.get("targetId"), obj.get("targetName"))? {
        obj.remove("targetName");
        obj.insert("targetId".into(), Value::String(t));
    }
    if let Some(Value::Array(ts)) = obj.get("targets").cloned() {
        let mut out = Vec::new();
        for t in &ts {
            match resolve(t.get("id"), t.get("name"))? {
                Some(id) => out.push(json!({ "id": id })),
                None => out.push(t.clone()),
            }
        }
        obj.insert("targets".into(), Value::Array(out));
    }
    Ok(())
}

/// `advance_turn` for a player: only to end its own turn; answers with the fight as the table
/// sees it.
pub fn advance_turn(
    engine: &mut EngineT,
    viewer: &Viewer,
    raw: &Value,
) -> Result<Reply, ToolError> {
    let obj = raw.as_object().cloned().unwrap_or_default();
    refuse("advance_turn", &obj, &["autoDeathSaves", "encounterId"])?;
    if engine.read(|call| table::is_own_turn(call, viewer))? != Some(true) {
        return Err(ToolError(
            "a player ends only their own turn, and it is not your turn now".into(),
        ));
    }
    let spec = catalog::find("advance_turn")
        .ok_or_else(|| ToolError("internal: advance_turn missing".into()))?;
    (spec.handler)(engine, spec.name, &Value::Object(Map::new()))?;
    let fight = engine.read(|call| table::encounter(call, viewer, None))?;
    Ok(Reply::new(
        format!("Your turn ends.\n{}", view_text(&fight)),
        &fight,
    ))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct NotesArgs {
    operation: String,
    note_id: Option<String>,
    content: Option<String>,
    #[serde(rename = "type")]
    kind: Option<NoteTypeArg>,
    tags: Option<Vec<String>>,
    importance: Option<ImportanceArg>,
    query: Option<String>,
    tag_filter: Option<Vec<String>>,
    limit: Option<usize>,
    page: Option<usize>,
}

/// `manage_notes` for a player: add (always shared with the players), read, list and search the
/// notes shared with the players.
pub fn manage_notes(
    engine: &mut EngineT,
    _viewer: &Viewer,
    raw: &Value,
) -> Result<Reply, ToolError> {
    if raw
        .get("visibility")
        .is_some_and(|v| v.as_str() != Some("player"))
    {
        return Err(ToolError(
            "a player's notes are always visible to the players; leave visibility out".into(),
        ));
    }
    let mut raw = raw.clone();
    if let Some(o) = raw.as_object_mut() {
        o.remove("visibility");
    }
    let a: NotesArgs = args::parse("manage_notes", &raw)?;
    let filter = || {
        tabletop_engine::notes::filter_of(
            a.kind.map(note_type),
            a.importance.map(importance),
            a.tag_filter.clone().unwrap_or_default(),
            None,
        )
    };
    match a.operation.as_str() {
        "add" => {
            let draft = NoteDraft {
                content: a.content.clone(),
                kind: a.kind.map(note_type),
                tags: a.tags.clone(),
                importance: a.importance.map(importance),
                visibility: None,
            };
            let n = engine.write("manage_notes", &raw, |call| table::add_note(call, draft))?;
            Ok(Reply::new(
                format!("Added {}", render_world::note_line(&n)),
                &n,
            ))
        }
        "get" => {
            let id = a.note_id.clone().ok_or_else(|| {
                ToolError("noteId: name the note by its id (from list or search)".into())
            })?;
            let n = engine.read(|call| table::read_note(call, &id))?;
            Ok(Reply::new(render_world::note_full(&n), &n))
        }
        "search" => {
            let f = filter()?;
            let out = engine.read(|call| {
                table::search_notes(call, a.query.as_deref(), f, a.limit.unwrap_or(10))
            })?;
            Ok(Reply::new(render_world::note_search(&out), &out))
        }
        "list" => {
            let f = filter()?;
            let out = engine.read(|call| {
                table::list_notes(call, f, a.page.unwrap_or(1), a.limit.unwrap_or(20))
            })?;
            Ok(Reply::new(render_world::note_page(&out), &out))
        }
        other => Err(ToolError(format!(
            "a player may use manage_notes with operation add, get, list or search; ask the DM to {other} a note"
        ))),
    }
}

/// `get_session_context` for a player: the game as the table sees it.
pub fn session_context(
    engine: &mut EngineT,
    viewer: &Viewer,
    raw: &Value,
) -> Result<Reply, ToolError> {
    let obj = raw.as_object().cloned().unwrap_or_default();
    refuse("get_session_context", &obj, &["partyId", "partyName"])?;
    let c = engine.read(|call| table::context(call, viewer))?;
    Ok(Reply::new(context_text(&c), &c))
}

fn context_text(c: &table::TableContext) -> String {
    let mut t = format!("You: {}", glimpse_line(&c.you));
    if let Some(p) = &c.party {
        t.push_str(&format!("\nParty: {} ({})", p.name, p.id));
        for m in &p.members {
            t.push_str(&format!(
                "\n- {} ({}) HP {}/{} AC {} {}{}",
                m.name,
                m.character_id,
                m.hp,
                m.max_hp,
                m.ac,
                m.status,
                if m.conditions.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", m.conditions.join(", "))
                }
            ));
        }
    }
    if let Some(pl) = &c.place {
        t.push_str(&format!("\nPlace: {} ({})", pl.name, pl.id));
        if let Some(d) = &pl.description {
            t.push_str(&format!(" — {d}"));
        }
        if pl.exits.is_empty() {
            t.push_str("\nExits: none known");
        } else {
            t.push_str(&format!("\nExits: {}", pl.exits.join("; ")));
        }
    }
    if let Some(e) = &c.encounter {
        t.push_str(&format!("\n\n{}", view_text(e)));
    }
    if !c.notes.is_empty() {
        t.push_str("\n\nNotes:");
        for n in &c.notes {
            t.push_str(&format!("\n{}", render_world::note_line(n)));
        }
    }
    t
}

fn lock(engine: &Mutex<EngineT>) -> Result<std::sync::MutexGuard<'_, EngineT>, ResourceError> {
    engine
        .lock()
        .map_err(|_| ResourceError::Failed("engine lock poisoned".into()))
}

/// The resources a player may read: the session as the table sees it and its own sheet.
pub fn list_resources(
    engine: &Mutex<EngineT>,
    viewer: &Viewer,
) -> Result<ListResourcesResult, ResourceError> {
    let me = lock(engine)?
        .read(|call| table::own(call, viewer))
        .map_err(|e| ResourceError::Failed(e.to_string()))?;
    Ok(ListResourcesResult::with_all_items(vec![
        Resource::new(format!("{SCHEME}session"), "session")
            .with_title("Session (player view)")
            .with_description("Your character, party, place, fight and shared notes")
            .with_mime_type("text/markdown"),
        Resource::new(format!("{SCHEME}characters"), "characters")
            .with_title("Who you can see")
            .with_mime_type("text/markdown"),
        Resource::new(format!("{SCHEME}characters/{}", me.id), me.name.clone())
            .with_title(format!("{} (your sheet)", me.name))
            .with_mime_type("text/markdown"),
        crate::table_view::app_resource(),
    ]))
}

/// Reads a resource for a player; tool schemas only of the player's tools.
pub fn read_resource(
    engine: &Mutex<EngineT>,
    viewer: &Viewer,
    uri: &str,
) -> Result<ReadResourceResult, ResourceError> {
    if let Some(page) = crate::table_view::read_app(uri) {
        return Ok(page);
    }
    let path = uri.strip_prefix(SCHEME).unwrap_or("");
    if let Some(name) = path.strip_prefix("tools/") {
        if super::rule(name).is_none() {
            return Err(ResourceError::NotFound(format!(
                "no player tool '{name}'; tools/list names the tools you can use"
            )));
        }
        return crate::resources::read(engine, uri);
    }
    let fail = |e: ToolError| ResourceError::NotFound(e.0);
    let mut engine = lock(engine)?;
    let text = match path {
        "session" => {
            session_context(&mut engine, viewer, &Value::Null)
                .map_err(fail)?
                .text
        }
        "characters" => {
            get_character(&mut engine, viewer, &json!({ "listAll": true }))
                .map_err(fail)?
                .text
        }
        p => match p.strip_prefix("characters/") {
            Some(id) if !id.is_empty() => {
                get_character(&mut engine, viewer, &json!({ "characterId": id }))
                    .map_err(fail)?
                    .text
            }
            _ => {
                return Err(ResourceError::NotFound(format!(
                    "no resource '{uri}' for a player; available: {SCHEME}session, {SCHEME}characters, {SCHEME}characters/{{id}}, {SCHEME}tools/{{name}}"
                )));
            }
        },
    };
    Ok(ReadResourceResult::new(vec![
        ResourceContents::text(text, uri).with_mime_type("text/markdown"),
    ]))
}
