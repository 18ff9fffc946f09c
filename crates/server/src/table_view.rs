//! The live table view (DESIGN §11): one self-contained page, served two ways.
//!
//! - Over HTTP at `/table/{campaign}` (see `http::table`): the page loads the campaign's table
//!   state and follows it over Server-Sent Events.
//! - As an MCP App: the resource [`APP_URI`] (MIME type [`APP_MIME`]) is the same page; the map and
//!   encounter tools ([`UI_TOOLS`]) name it in their definition's `_meta.ui.resourceUri`, and
//!   their results carry the table state in `_meta` under [`STATE_META_KEY`], which the page
//!   draws when the host hands it the result (`ui/notifications/tool-result`).
//!
//! The state itself is built by the engine (`tabletop_engine::table_state`), filtered by role;
//! this module only serialises it.

use std::sync::Mutex;

use rmcp::model::{CallToolResult, MetaObject, ReadResourceResult, Resource, ResourceContents};
use serde_json::{Map, Value, json};
use tabletop_engine::table::Viewer;
use tabletop_engine::table_state::{TableState, table_state};

use crate::tools::EngineT;

/// The page: HTML, CSS and JS in one file, no network needed.
pub const PAGE: &str = include_str!("table_view/table.html");

/// The MCP App resource.
pub const APP_URI: &str = "ui://tabletop/table.html";

/// The MIME type MCP Apps hosts render.
pub const APP_MIME: &str = "text/html;profile=mcp-app";

/// Where a tool result carries the table state for the app.
pub const STATE_META_KEY: &str = "tabletop/table";

/// The tools whose definitions link the app and whose results carry the table state.
pub const UI_TOOLS: &[&str] = &["render_battlefield", "get_encounter"];

/// Whether `tool` is linked to the app.
pub fn has_ui(tool: &str) -> bool {
    UI_TOOLS.contains(&tool)
}

/// The `ui` entry of a linked tool's `_meta`.
pub fn tool_ui_meta() -> Value {
    json!({ "resourceUri": APP_URI })
}

/// The app resource as `resources/list` names it.
pub fn app_resource() -> Resource {
    Resource::new(APP_URI, "table view")
        .with_title("Live table (MCP App)")
        .with_description(
            "Battle map, initiative, HP and last events, drawn from map and encounter results",
        )
        .with_mime_type(APP_MIME)
}

/// Reads the app resource, if `uri` names it.
pub fn read_app(uri: &str) -> Option<ReadResourceResult> {
    (uri == APP_URI).then(|| {
        ReadResourceResult::new(vec![
            ResourceContents::text(PAGE, APP_URI).with_mime_type(APP_MIME),
        ])
    })
}

/// The table state of the campaign for the DM (`viewer` `None`) or one player.
pub fn state(
    engine: &Mutex<EngineT>,
    viewer: Option<&Viewer>,
) -> Result<TableState, tabletop_engine::EngineError> {
    let mut engine = engine.lock().map_err(|_| {
        tabletop_engine::EngineError::Rule("internal: the engine lock was poisoned".into())
    })?;
    engine.read(|call| table_state(call, viewer))
}

/// Puts the table state in the `_meta` of a successful result of a linked tool, so an MCP Apps
/// host can hand it to the page. A state that cannot be built leaves the result as it is.
pub fn attach(
    result: &mut CallToolResult,
    tool: &str,
    engine: &Mutex<EngineT>,
    viewer: Option<&Viewer>,
) {
    if !has_ui(tool) || result.is_error == Some(true) {
        return;
    }
    match state(engine, viewer).map(serde_json::to_value) {
        Ok(Ok(v)) => {
            let meta = result.meta.get_or_insert_with(|| MetaObject(Map::new()));
            meta.0.insert(STATE_META_KEY.into(), v);
        }
        Ok(Err(e)) => tracing::warn!("table state not serialised: {e}"),
        Err(e) => tracing::debug!("no table state for {tool}: {e}"),
    }
}
