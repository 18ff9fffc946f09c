//! MCP resources: what an agent can read without a tool call. `tabletop://characters` (the roster)
//! and `tabletop://characters/{id}` (one sheet), read through the same engine use cases and
//! renderers as the tools.

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
    ];
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
    ]
}

/// Reads one resource.
pub fn read(engine: &Mutex<EngineT>, uri: &str) -> Result<ReadResourceResult, ResourceError> {
    let path = uri.strip_prefix(SCHEME).ok_or_else(|| {
        ResourceError::NotFound(format!(
            "'{uri}' is not a Tabletop resource; URIs start with {SCHEME}"
        ))
    })?;
    let mut engine = engine
        .lock()
        .map_err(|_| ResourceError::Failed("engine lock poisoned".into()))?;
    let text = match path.split_once('/') {
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
                "no resource '{uri}'; available: {SCHEME}characters and {SCHEME}characters/{{id}}"
            )));
        }
    };
    Ok(ReadResourceResult::new(vec![
        ResourceContents::text(text, uri).with_mime_type("text/markdown"),
    ]))
}
