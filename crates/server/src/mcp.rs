//! The MCP adapter: advertises the catalog and routes calls to it. No game logic here.

use std::sync::{Arc, Mutex};

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ListToolsResult, MetaObject, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
    ToolAnnotations,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::Value;

use crate::aliases;
use crate::catalog::{self, CATALOG, Profile, ToolSpec};
use crate::reply::{Reply, ToolError, cap_text};
use crate::tools::EngineT;

/// What the server tells an agent on connect.
pub const INSTRUCTIONS: &str = "Tabletop is the rules engine and memory of a 5e (SRD 5.1) game; you narrate, it decides. \
Roll through its tools rather than inventing numbers: every roll is recorded and seedable. \
Name characters by id or by name (case-insensitive). Tools that say so take {\"batch\": [...]} of up to 20 items. \
Errors say what was wrong and how to fix it; read them and retry. \
SRD 5.1 content is by Wizards of the Coast LLC, licensed CC-BY-4.0.";

/// The key under which a tool's result-size cap is advertised in `_meta`.
pub const MAX_RESULT_META_KEY: &str = "anthropic/maxResultSizeChars";

/// The Tabletop MCP server: one engine (one campaign) shared by the connection's calls.
#[derive(Clone)]
pub struct TabletopServer {
    engine: Arc<Mutex<EngineT>>,
    tools: Arc<Vec<Tool>>,
}

impl TabletopServer {
    /// A server over `engine` advertising `profile`.
    pub fn new(engine: EngineT, profile: Profile) -> Self {
        let tools = CATALOG
            .iter()
            .filter(|t| t.in_profile(profile))
            .map(to_mcp_tool)
            .collect();
        Self {
            engine: Arc::new(Mutex::new(engine)),
            tools: Arc::new(tools),
        }
    }

    /// Runs one call by name, as `tools/call` would (used by the CLI's `call` too).
    pub fn call(&self, name: &str, args: &Value) -> Result<Reply, ToolError> {
        call_spec(&self.engine, name, args)
    }
}

/// Runs one call against an engine: advertised tools directly, hidden aliases after rewriting
/// their arguments, retired names with an error naming the nearest tool. Enforces the tool's
/// result cap.
pub fn call_spec(engine: &Mutex<EngineT>, name: &str, args: &Value) -> Result<Reply, ToolError> {
    let (spec, routed) = match catalog::find(name) {
        Some(spec) => (spec, None),
        None => match aliases::find(name) {
            Some(alias) => {
                let spec = catalog::find(alias.tool).ok_or_else(|| {
                    ToolError(format!("internal: alias {name} routes to a missing tool"))
                })?;
                (spec, Some(aliases::route(alias, args)?))
            }
            None => return Err(unknown_tool(name)),
        },
    };
    let args = routed.as_ref().unwrap_or(args);
    if !(args.is_object() || args.is_null()) {
        return Err(ToolError(format!(
            "arguments for {name} must be a JSON object"
        )));
    }
    let mut engine = engine.lock().map_err(|_| {
        ToolError("internal error: the engine lock was poisoned; restart the server".into())
    })?;
    let mut reply = (spec.handler)(&mut engine, spec.name, args)?;
    cap_text(&mut reply.text, spec.max_result_chars);
    Ok(reply)
}

fn unknown_tool(name: &str) -> ToolError {
    if let Some(r) = aliases::retired(name) {
        return ToolError(format!(
            "'{name}' belonged to {}, which Tabletop does not have; instead use {}",
            r.what, r.instead
        ));
    }
    let names = CATALOG
        .iter()
        .map(|t| t.name)
        .chain(aliases::ALIASES.iter().map(|a| a.legacy));
    match tabletop_rules::vocab::closest(name, names) {
        Some(n) => ToolError(format!(
            "unknown tool '{name}'; did you mean '{n}'? Call tools/list for the tools this server offers."
        )),
        None => ToolError(format!(
            "unknown tool '{name}'. Call tools/list for the tools this server offers."
        )),
    }
}

/// The MCP form of a catalog entry.
pub fn to_mcp_tool(spec: &ToolSpec) -> Tool {
    let mut meta = serde_json::Map::new();
    meta.insert(
        MAX_RESULT_META_KEY.into(),
        Value::from(spec.max_result_chars),
    );
    let mut tool = Tool::new(spec.name, spec.description, Arc::new((spec.schema)()))
        .with_title(spec.title)
        .with_annotations(
            ToolAnnotations::with_title(spec.title)
                .read_only(spec.read_only)
                .destructive(spec.destructive)
                .idempotent(spec.idempotent)
                .open_world(false),
        );
    tool.meta = Some(MetaObject(meta));
    tool
}

/// Turns a reply or an error into an MCP tool result.
pub fn to_result(r: Result<Reply, ToolError>) -> CallToolResult {
    match r {
        Ok(reply) => {
            let mut content = vec![ContentBlock::text(reply.text)];
            if let Some(png) = reply.image_png_base64 {
                content.push(ContentBlock::image(png, "image/png"));
            }
            let mut result = CallToolResult::success(content);
            if !reply.structured.is_null() {
                result.structured_content = Some(reply.structured);
            }
            result
        }
        Err(e) => CallToolResult::error(vec![ContentBlock::text(e.0)]),
    }
}

impl ServerHandler for TabletopServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_tool_list_changed()
                .build(),
        )
        .with_server_info(Implementation::new("tabletop", env!("CARGO_PKG_VERSION")))
        .with_instructions(INSTRUCTIONS)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools.as_ref().clone()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let args = request.arguments.map(Value::Object).unwrap_or(Value::Null);
        let name = request.name.to_string();
        let started = std::time::Instant::now();
        let result = self.call(&name, &args);
        tracing::debug!(tool = %name, ok = result.is_ok(), micros = started.elapsed().as_micros() as u64, "call");
        Ok(CallToolResponse::Complete(to_result(result)))
    }
}
