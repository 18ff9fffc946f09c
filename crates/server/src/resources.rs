//! MCP resources: what an agent can read without a tool call. `tabletop://characters` (the roster),
//! `tabletop://characters/{id}` (one sheet), `tabletop://session` (where the game stands),
//! `tabletop://encounter` and `tabletop://encounter/map.png` (the active fight's map as text and
//! as an image), read through the same engine use cases and renderers as the tools, and
//! `tabletop://tools/{name}` (a tool's full input schema with every field's description, since
//! `tools/list` advertises compact schemas).

use std::sync::Mutex;

use rmcp::model::{
    ListResourcesResult, ReadResourceResult, Resource, ResourceContents, ResourceTemplate,
};
use tabletop_engine::character::{CharacterFilter, CharacterRef};
use tabletop_engine::sheet::{get_character, list_characters};

use crate::render;
use crate::tools::EngineT;

/// The URI scheme of every resource.
pub const SCHEME: &str = "tabletop://";

/// How many sheets `resources/list` names one by one (the roster covers the rest).
pub const LISTED_SHEETS: usize = 50;

/// Why a resource could not be read.
#[derive(Debug)]
pub enum ResourceError {
    /// No such resource.
    NotFound(String),
    /// Reading failed.
    Failed(String),
}

/// The resources to list: the roster and the first sheets.
pub fn list(engine: &Mutex<EngineT>) -> Result<ListResourcesResult, ResourceError> {
    let mut engine = engine
        .lock()
        .map_err(|_| ResourceError::Failed("engine lock poisoned".into()))?;
    let page = engine
        .read(|call| list_characters(call, &CharacterFilter::default(), 1, LISTED_SHEETS))
        .map_err(|e| ResourceError::Failed(e.to_string()))?;
    let mut out = vec![
        Resource::new(format!("{SCHEME}characters"), "characters")
            .with_title("Roster")
            .with_description("Every character with HP, AC and conditions")
            .with_mime_type("text/markdown"),
        Resource::new(format!("{SCHEME}session"), "session")
            .with_title("Session context")
            .with_description(
                "Party, location and exits, the active encounter, notes, recent events",
            )
            .with_mime_type("text/markdown"),
    ];
    let fighting = engine
        .read(|call| {
            Ok(!call
                .tx_ref()
                .list_encounters(call.campaign(), true)?
                .is_empty())
        })
        .map_err(|e| ResourceError::Failed(e.to_string()))?;
    if fighting {
        out.push(
            Resource::new(format!("{SCHEME}encounter"), "encounter")
                .with_title("Battle map")
                .with_description("The active encounter's map with tokens and legend")
                .with_mime_type("text/plain"),
        );
        out.push(
            Resource::new(format!("{SCHEME}encounter/map.png"), "encounter map image")
                .with_title("Battle map (PNG)")
                .with_mime_type("image/png"),
        );
    }
    out.push(crate::table_view::app_resource());
    for c in page.characters {
        out.push(
            Resource::new(format!("{SCHEME}characters/{}", c.id), c.name.clone())
                .with_title(format!("{} (sheet)", c.name))
                .with_mime_type("text/markdown"),
        );
    }
    Ok(ListResourcesResult::with_all_items(out))
}

/// The URI templates.
pub fn templates() -> Vec<ResourceTemplate> {
    vec![
        ResourceTemplate::new(format!("{SCHEME}characters/{{id}}"), "character sheet")
            .with_description("One character's sheet by id")
            .with_mime_type("text/markdown"),
        ResourceTemplate::new(format!("{SCHEME}tools/{{name}}"), "tool schema")
            .with_description("A tool's full input schema, every field described")
            .with_mime_type("application/json"),
    ]
}

/// Reads one resource.
pub fn read(engine: &Mutex<EngineT>, uri: &str) -> Result<ReadResourceResult, ResourceError> {
    if let Some(page) = crate::table_view::read_app(uri) {
        return Ok(page);
    }
    let path = uri.strip_prefix(SCHEME).ok_or_else(|| {
        ResourceError::NotFound(format!(
            "'{uri}' is not a Tabletop resource; URIs start with {SCHEME}"
        ))
    })?;
    if let Some(name) = path.strip_prefix("tools/") {
        return tool_schema(name, uri);
    }
    let mut engine = engine
        .lock()
        .map_err(|_| ResourceError::Failed("engine lock poisoned".into()))?;
    if path == "encounter/map.png" {
        use base64::Engine as _;
        let (png, _, _) = engine
            .read(|call| {
                tabletop_engine::combat::spatial::view::render_png(call, &Default::default())
            })
            .map_err(|e| ResourceError::NotFound(e.to_string()))?;
        let blob = base64::engine::general_purpose::STANDARD.encode(png);
        return Ok(ReadResourceResult::new(vec![
            ResourceContents::blob(blob, uri).with_mime_type("image/png"),
        ]));
    }
    let text = match path.split_once('/') {
        None if path == "session" => {
            let c = engine
                .read(|call| tabletop_engine::session::session_context(call, &Default::default()))
                .map_err(|e| ResourceError::Failed(e.to_string()))?;
            crate::render_world::context(&c)
        }
        None if path == "encounter" => {
            let b = engine
                .read(|call| {
                    tabletop_engine::combat::spatial::view::render_battlefield(
                        call,
                        &Default::default(),
                    )
                })
                .map_err(|e| ResourceError::NotFound(e.to_string()))?;
            b.text()
        }
        None if path == "characters" => {
            let page = engine
                .read(|call| {
                    list_characters(
                        call,
                        &CharacterFilter::default(),
                        1,
                        tabletop_engine::sheet::MAX_PER_PAGE,
                    )
                })
                .map_err(|e| ResourceError::Failed(e.to_string()))?;
            render::list(&page)
        }
        Some(("characters", id)) if !id.is_empty() => {
            let sheet = engine
                .read(|call| get_character(call, CharacterRef::new(Some(id), None)))
                .map_err(|e| ResourceError::NotFound(e.to_string()))?;
            render::sheet(&sheet)
        }
        _ => {
            return Err(ResourceError::NotFound(format!(
                "no resource '{uri}'; available: {SCHEME}characters, {SCHEME}characters/{{id}}, {SCHEME}session, {SCHEME}encounter, {SCHEME}encounter/map.png and {SCHEME}tools/{{name}}"
            )));
        }
    };
    Ok(ReadResourceResult::new(vec![
        ResourceContents::text(text, uri).with_mime_type("text/markdown"),
    ]))
}

/// The full schema of one tool, with its description, as JSON.
fn tool_schema(name: &str, uri: &str) -> Result<ReadResourceResult, ResourceError> {
    let spec = crate::catalog::find(name).ok_or_else(|| {
        let names: Vec<&str> = crate::catalog::CATALOG.iter().map(|t| t.name).collect();
        ResourceError::NotFound(format!(
            "no tool '{name}'{}",
            tabletop_rules::vocab::closest(name, names.iter().copied())
                .map(|c| format!("; did you mean '{c}'?"))
                .unwrap_or_default()
        ))
    })?;
    let doc = serde_json::json!({
        "name": spec.name,
        "title": spec.title,
        "description": spec.description,
        "maxResultChars": spec.max_result_chars,
        "inputSchema": (spec.schema)(),
        "outputSchema": crate::output::schema(spec.name),
    });
    let text =
        serde_json::to_string_pretty(&doc).map_err(|e| ResourceError::Failed(e.to_string()))?;
    Ok(ReadResourceResult::new(vec![
        ResourceContents::text(text, uri).with_mime_type("application/json"),
    ]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tool_resource_gives_its_title_cap_and_every_field() {
        let r = tool_schema("update_character", "tabletop://tools/update_character").unwrap();
        let text = match &r.contents[0] {
            ResourceContents::TextResourceContents { text, .. } => text.clone(),
            other => panic!("{other:?}"),
        };
        let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(doc["title"], "Update character");
        assert_eq!(doc["maxResultChars"], 6_000);
        assert!(doc["inputSchema"]["properties"]["xp"]["description"].is_string());
    }
}
