//! The MCP adapter: advertises the catalog and routes calls to it. No game logic here.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, RwLock};

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, GetPromptRequestParams,
    GetPromptResponse, Implementation, ListPromptsResult, ListResourceTemplatesResult,
    ListResourcesResult, ListToolsResult, MetaObject, PaginatedRequestParams, ProtocolVersion,
    ReadResourceRequestParams, ReadResourceResponse, ServerCapabilities, ServerConfig,
    SubscriptionFilter, Tool, ToolAnnotations,
};
use rmcp::service::{RequestContext, SubscriptionContext};
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::Value;
use tokio::sync::broadcast;

use crate::aliases;
use crate::args;
use crate::catalog::{self, CATALOG, Surface, ToolSpec};
use crate::direct::Outcome;
use crate::discover::{self, DiscoverArgs};
use crate::limits;
use crate::memo::Memo;
use crate::prompts;
use crate::reply::{Reply, ToolError, cap_text};
use crate::resources;
use crate::tools::EngineT;
use tabletop_engine::Revision;

/// What the server tells an agent on connect.
pub const INSTRUCTIONS: &str = "Tabletop is the rules engine and memory of a 5e (SRD 5.1) game; you narrate, it decides. \
Roll through its tools rather than inventing numbers: every roll is recorded and seedable. \
Name a character by characterId or characterName (case-insensitive), a party by partyId or partyName (default: the active party). \
Tools with a batch field take {\"batch\": [...]}: up to 20 objects of the tool's other fields, answered per item. \
Errors say what was wrong and how to fix it; read them and retry. \
A square on the map is {\"x\": column, \"y\": row, \"z\": height} counted in 5-ft squares from the top-left (0, 0). \
Schemas in tools/list are compact: every field by name, types, short enums; a field shown as {} is rarely needed and takes what tabletop://tools/{name} describes, with every field's description. \
SRD 5.1 content is by Wizards of the Coast LLC, licensed CC-BY-4.0.";

/// The key under which a tool's result-size cap is advertised in `_meta`.
pub const MAX_RESULT_META_KEY: &str = "anthropic/maxResultSizeChars";

/// The Tabletop MCP server: one engine (one campaign) shared by the connection's calls, and the
/// surface this connection advertises.
#[derive(Clone)]
pub struct TabletopServer {
    engine: Arc<Mutex<EngineT>>,
    surface: Arc<RwLock<Surface>>,
    list_changed: broadcast::Sender<()>,
    /// Receivers made when a `subscriptions/listen` is accepted, before its acknowledgment, so a
    /// change right after the acknowledgment is not missed; `listen` takes them in order.
    pending_listeners: Arc<Mutex<VecDeque<broadcast::Receiver<()>>>>,
    /// Answers of read-only calls while nothing changes; set only with a transport that splices.
    memo: Option<Arc<Memo>>,
}

impl TabletopServer {
    /// A server over `engine` advertising `surface`.
    pub fn new(engine: EngineT, surface: Surface) -> Self {
        let (list_changed, _) = broadcast::channel(16);
        Self {
            engine: Arc::new(Mutex::new(engine)),
            surface: Arc::new(RwLock::new(surface)),
            list_changed,
            pending_listeners: Arc::default(),
            memo: None,
        }
    }

    /// Answers repeated read-only calls from `memo` while the campaign is unchanged. The
    /// transport must splice the same memo's placeholders ([`crate::stdio::LineTransport::with_memo`]).
    pub fn with_memo(mut self, memo: Arc<Memo>) -> Self {
        self.memo = Some(memo);
        self
    }

    /// The memo and the campaign's revision now, when a call of `name` goes through the memo:
    /// `None` when it does not apply (no memo, a tool that writes or draws the table, an alias,
    /// a store that cannot say whether it changed).
    fn memo_for(&self, name: &str) -> Option<(&Memo, Revision)> {
        let memo = self.memo.as_deref()?;
        let spec = catalog::find(name)?;
        if !spec.read_only || crate::table_view::has_ui(name) {
            return None;
        }
        Some((memo, self.revision()?))
    }

    fn revision(&self) -> Option<Revision> {
        self.engine.lock().ok()?.revision()
    }

    /// Runs a read-only call the memo did not have, and keeps its answer under `key` if
    /// nothing committed while it ran (the answer is then the state's at `before`).
    fn run_kept(
        &self,
        memo: &Memo,
        before: Revision,
        key: String,
        name: &str,
        args: &Value,
    ) -> Answer {
        match self.call(name, args) {
            Ok(reply) if self.revision() == Some(before) => match memo.keep(key, before, &reply) {
                Some(kept) => Answer::Kept(kept),
                None => Answer::Ran(Ok(reply)),
            },
            other => Answer::Ran(other),
        }
    }

    /// A read-only call through the memo: the kept answer when the campaign has not changed
    /// since it was made, else the call run and its answer kept. `None` when the memo does not
    /// apply ([`Self::memo_for`]).
    fn call_kept(&self, name: &str, args: &Value) -> Option<Answer> {
        let (memo, before) = self.memo_for(name)?;
        let key = Memo::key(name, args);
        if let Some(kept) = memo.kept(&key, before) {
            return Some(Answer::Kept(kept));
        }
        Some(self.run_kept(memo, before, key, name, args))
    }

    /// The handle the stdio transport answers plain `tools/call` requests through
    /// ([`crate::stdio::LineTransport::with_direct`]).
    pub fn direct(&self) -> crate::direct::Direct {
        let server = self.clone();
        Arc::new(move |name: &str, args: Option<&str>, out: &mut Vec<u8>| {
            server.call_direct(name, args, out)
        })
    }

    /// Runs one `tools/call` as [`ServerHandler::call_tool`] does, its arguments given as sent
    /// (the JSON text of an object, `None` for none), and writes its result object into `out`,
    /// byte for byte as the SDK path serializes it for a peer of the initialize era (no
    /// `resultType`). A repeated read is found in the memo by the arguments' text, without
    /// reading them, and handed back to be written as it is kept. Declined, with nothing
    /// written or run, when the arguments cannot be read (a number out of range): the SDK path
    /// answers that. Never for `discover_tools`, whose
    /// list-changed announcement needs the SDK's peer.
    pub fn call_direct(&self, name: &str, raw_args: Option<&str>, out: &mut Vec<u8>) -> Outcome {
        self.warm();
        let started = std::time::Instant::now();
        if let Some((memo, before)) = self.memo_for(name) {
            let key = Memo::key_text(name, raw_args.unwrap_or("null"));
            let answer = match memo.kept(&key, before) {
                Some(kept) => Answer::Kept(kept),
                None => {
                    let Some(args) = crate::direct::arguments(raw_args) else {
                        return Outcome::Declined;
                    };
                    self.run_kept(memo, before, key, name, &args)
                }
            };
            tracing::debug!(tool = %name, micros = started.elapsed().as_micros() as u64, "read call");
            return match answer {
                // Written by the transport as it is kept.
                Answer::Kept(kept) => Outcome::Kept(kept),
                // A read-only tool never links the table view: nothing to attach.
                Answer::Ran(result) => {
                    write_result(out, to_result(result));
                    Outcome::Written
                }
            };
        }
        let Some(args) = crate::direct::arguments(raw_args) else {
            return Outcome::Declined;
        };
        let result = self.call(name, &args);
        tracing::debug!(tool = %name, ok = result.is_ok(), micros = started.elapsed().as_micros() as u64, "call");
        match result {
            // As the SDK path sends it through the memo: the tool's JSON as it was serialized.
            Ok(reply) if reply.image_png_base64.is_none() && self.memo.is_some() => {
                crate::direct::write_success(
                    out,
                    crate::direct::Text::Plain(&reply.text),
                    reply.structured_json().as_deref(),
                );
                if crate::table_view::has_ui(name) {
                    let mut view = CallToolResult::success(Vec::new());
                    crate::table_view::attach(&mut view, name, &self.engine, None);
                    if let Some(meta) = view.meta {
                        out.extend_from_slice(b",\"_meta\":");
                        crate::direct::write_json(out, &meta);
                    }
                }
                out.push(b'}');
            }
            other => {
                let mut result = to_result(other);
                crate::table_view::attach(&mut result, name, &self.engine, None);
                write_result(out, result);
            }
        }
        Outcome::Written
    }

    /// Starts loading the compendium in the background once the handshake is over.
    fn warm(&self) {
        if let Ok(engine) = self.engine.lock() {
            engine.warm_compendium();
        }
    }

    /// Runs one call by name, as `tools/call` would (used by the CLI's `call` too).
    pub fn call(&self, name: &str, args: &Value) -> Result<Reply, ToolError> {
        call_spec(&self.engine, name, args)
    }

    /// The tools this connection advertises now.
    pub fn advertised(&self) -> Vec<Tool> {
        match self.surface.read() {
            Ok(s) => s
                .tools()
                .into_iter()
                .map(|t| {
                    let mut tool = to_mcp_tool(t, s.schema_of(t), s.detail());
                    // Full detail also advertises what each answer's structuredContent holds.
                    if s.detail() == crate::catalog::SchemaDetail::Full {
                        tool.output_schema = crate::output::schema(t.name).map(Arc::new);
                    }
                    tool
                })
                .collect(),
            Err(_) => Vec::new(),
        }
    }

    /// Runs `discover_tools`: enables the categories asked for and says what is now available.
    /// Returns the reply and whether the advertised list changed.
    pub fn discover(&self, args: &Value) -> Result<(Reply, bool), ToolError> {
        limits::check("discover_tools", args)
            .map_err(|e| ToolError(limits::shorten_error(e.0, args)))?;
        let a: DiscoverArgs = args::parse("discover_tools", args)
            .map_err(|e| ToolError(limits::shorten_error(e.0, args)))?;
        let wanted = discover::categories_for(&a);
        if wanted.is_empty() {
            return Err(ToolError(format!(
                "no category matches{}; name one in categories: {}",
                a.need
                    .as_deref()
                    .map(|n| format!(" '{n}'"))
                    .unwrap_or_default(),
                discover::category_menu()
            )));
        }
        let mut surface = self.surface.write().map_err(|_| {
            ToolError("internal error: the surface lock was poisoned; restart the server".into())
        })?;
        let newly = surface.enable(&wanted);
        let tools: Vec<(&'static str, &'static str)> = CATALOG
            .iter()
            .filter(|t| wanted.contains(&t.category))
            .map(|t| (t.name, t.description))
            .collect();
        let keys: Vec<&str> = wanted.iter().map(|c| c.key()).collect();
        let mut text = if newly.is_empty() {
            format!("Already enabled: {}.", keys.join(", "))
        } else {
            format!("Enabled: {}. Available now:", keys.join(", "))
        };
        for (name, desc) in &tools {
            text.push_str(&format!("\n- {name}: {desc}"));
        }
        let data = crate::output::Discovered {
            enabled: keys.iter().map(|k| k.to_string()).collect(),
            newly_enabled: newly.iter().map(|c| c.key().to_string()).collect(),
            tools: tools.iter().map(|(n, _)| n.to_string()).collect(),
        };
        Ok((Reply::new(text, &data), !newly.is_empty()))
    }
}

/// Runs one call against an engine: advertised tools directly, hidden aliases after rewriting
/// their arguments, retired names with an error naming the nearest tool. Enforces the tool's
/// result cap.
pub fn call_spec(engine: &Mutex<EngineT>, name: &str, args: &Value) -> Result<Reply, ToolError> {
    call_capped(engine, name, args).map_err(|e| ToolError(limits::shorten_error(e.0, args)))
}

fn call_capped(engine: &Mutex<EngineT>, name: &str, args: &Value) -> Result<Reply, ToolError> {
    limits::check(name, args)?;
    let (spec, routed) = match catalog::find(name) {
        Some(spec) => (spec, None),
        None => match aliases::find_for(name, args)? {
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
    if name.chars().count() > limits::NAME_CAP {
        return ToolError(format!(
            "unknown tool '{}' ({} characters; tool names are short). Call tools/list for the tools this server offers.",
            limits::quote(name),
            name.chars().count()
        ));
    }
    if let Some(r) = aliases::retired(name) {
        return ToolError(format!(
            "'{name}' belonged to {}, which Tabletop does not have; instead use {}",
            r.what, r.instead
        ));
    }
    let names = CATALOG
        .iter()
        .map(|t| t.name)
        .chain(aliases::ALIASES.iter().map(|a| a.legacy))
        .chain(aliases::SWITCHES.iter().map(|c| c.legacy));
    match tabletop_rules::vocab::closest(name, names) {
        Some(n) => ToolError(format!(
            "unknown tool '{name}'; did you mean '{n}'? Call tools/list for the tools this server offers."
        )),
        None => ToolError(format!(
            "unknown tool '{name}'. Call tools/list for the tools this server offers."
        )),
    }
}

/// The MCP form of a catalog entry advertising `schema` (its full or its lean core schema) at
/// `detail`. Full detail adds the display title and the result-size cap
/// (`anthropic/maxResultSizeChars`); compact leaves both out of every `tools/list` (a client
/// shows the tool's name; every cap is below the clients' own output limits, and the server
/// enforces it either way).
pub fn to_mcp_tool(
    spec: &ToolSpec,
    schema: serde_json::Map<String, Value>,
    detail: crate::catalog::SchemaDetail,
) -> Tool {
    let full = detail == crate::catalog::SchemaDetail::Full;
    let mut meta = serde_json::Map::new();
    if full {
        meta.insert(
            MAX_RESULT_META_KEY.into(),
            Value::from(spec.max_result_chars),
        );
    }
    if crate::table_view::has_ui(spec.name) {
        // MCP Apps: hosts that render apps show the live table beside this tool's results.
        meta.insert("ui".into(), crate::table_view::tool_ui_meta());
    }
    // The title is advertised once, in the annotations: a top-level `title` repeats it in every
    // tool of every `tools/list`.
    // Only hints that differ from the MCP defaults are stated (readOnlyHint false,
    // destructiveHint true, idempotentHint false; openWorldHint's default is true, so false is
    // stated): the same meaning in fewer tokens on every `tools/list`. `destructiveHint` and
    // `idempotentHint` are meaningful only when `readOnlyHint` is false, so a read-only tool
    // states neither.
    let mut annotations = ToolAnnotations::new().open_world(false);
    if full {
        annotations.title = Some(spec.title.to_string());
    }
    if spec.read_only {
        annotations = annotations.read_only(true);
    } else {
        if !spec.destructive {
            annotations = annotations.destructive(false);
        }
        if spec.idempotent {
            annotations = annotations.idempotent(true);
        }
    }
    let mut tool =
        Tool::new(spec.name, spec.description, Arc::new(schema)).with_annotations(annotations);
    if !meta.is_empty() {
        tool.meta = Some(MetaObject(meta));
    }
    tool
}

/// How a read-only call through the memo was answered.
enum Answer {
    /// From the memo (kept now or earlier).
    Kept(Arc<crate::memo::Kept>),
    /// Run, and not kept.
    Ran(Result<Reply, ToolError>),
}

/// Writes a result object as the SDK serializes it for a peer of the initialize era (which
/// strips the `resultType` of a complete result).
fn write_result(out: &mut Vec<u8>, mut result: CallToolResult) {
    result.result_type = None;
    crate::direct::write_json(out, &result);
}

/// Turns a reply or an error into an MCP tool result.
pub fn to_result(r: Result<Reply, ToolError>) -> CallToolResult {
    match r {
        Ok(reply) => {
            let (text, png, structured) = reply.into_parts();
            let mut content = vec![ContentBlock::text(text)];
            if let Some(png) = png {
                content.push(ContentBlock::image(png, "image/png"));
            }
            let mut result = CallToolResult::success(content);
            if !structured.is_null() {
                result.structured_content = Some(structured);
            }
            result
        }
        Err(e) => CallToolResult::error(vec![ContentBlock::text(e.0)]),
    }
}

impl TabletopServer {
    /// What the server announces on connect (capabilities, name, instructions).
    #[allow(deprecated)] // logging: deprecated by SEP-2577, still part of the initialize era
    pub fn info() -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_tool_list_changed()
                .enable_resources()
                .enable_prompts()
                .enable_logging() // deprecated in 2026-07-28 (SEP-2577), still served to both families
                .build(),
        )
        .with_server_info(Implementation::new("tabletop", env!("CARGO_PKG_VERSION")))
        .with_instructions(INSTRUCTIONS)
    }
}

impl ServerHandler for TabletopServer {
    fn get_info(&self) -> ServerConfig {
        Self::info()
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        no_cursor(request.as_ref(), "tools/list")?;
        self.warm();
        Ok(ListToolsResult::with_all_items(self.advertised()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        self.warm();
        let args = request.arguments.map(Value::Object).unwrap_or(Value::Null);
        let name = request.name.to_string();
        let started = std::time::Instant::now();
        let result = if name == catalog::DISCOVER_TOOLS.name {
            match self.discover(&args) {
                Ok((reply, changed)) => {
                    if changed {
                        self.announce_list_changed(&context).await;
                    }
                    Ok(reply)
                }
                Err(e) => Err(e),
            }
        } else if let Some(memo) = &self.memo
            && let Some(answer) = self.call_kept(&name, &args)
        {
            tracing::debug!(tool = %name, micros = started.elapsed().as_micros() as u64, "read call");
            return Ok(CallToolResponse::Complete(match answer {
                Answer::Kept(kept) => memo.placeholder(kept),
                Answer::Ran(result) => to_result(result),
            }));
        } else {
            self.call(&name, &args)
        };
        tracing::debug!(tool = %name, ok = result.is_ok(), micros = started.elapsed().as_micros() as u64, "call");
        // Over stdio the answer's JSON is spliced in by the transport as it was serialized from
        // the tool's typed result (no `Value` tree built, serialized again and freed).
        let mut result = match (&self.memo, result) {
            (Some(memo), Ok(reply)) => memo.wrap(&reply).unwrap_or_else(|| to_result(Ok(reply))),
            (_, other) => to_result(other),
        };
        crate::table_view::attach(&mut result, &name, &self.engine, None);
        Ok(CallToolResponse::Complete(result))
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        no_cursor(request.as_ref(), "resources/list")?;
        resources::list(&self.engine).map_err(resource_error)
    }

    async fn list_resource_templates(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        no_cursor(request.as_ref(), "resources/templates/list")?;
        Ok(ListResourceTemplatesResult::with_all_items(
            resources::templates(),
        ))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        resources::read(&self.engine, &request.uri)
            .map(Into::into)
            .map_err(resource_error)
    }

    async fn list_prompts(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        no_cursor(request.as_ref(), "prompts/list")?;
        Ok(ListPromptsResult::with_all_items(prompts::list()))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        let args = request.arguments.unwrap_or_default();
        prompts::get(&request.name, &args)
            .map(Into::into)
            .map_err(|e| ErrorData::invalid_params(e, None))
    }

    #[allow(deprecated)]
    async fn set_level(
        &self,
        request: rmcp::model::SetLevelRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        let level = serde_json::to_value(request.level)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default();
        crate::logging::set_filter(crate::logging::directive(&level)).map_err(|e| {
            ErrorData::internal_error(format!("could not set the log level: {e}"), None)
        })
    }

    fn accepted_subscription_filter(
        &self,
        requested: &SubscriptionFilter,
    ) -> Option<SubscriptionFilter> {
        let mut accepted = SubscriptionFilter::new();
        accepted.tools_list_changed = requested.tools_list_changed;
        if let Ok(mut pending) = self.pending_listeners.lock() {
            pending.push_back(self.list_changed.subscribe());
        }
        Some(accepted)
    }

    async fn listen(&self, context: SubscriptionContext) -> Result<(), ErrorData> {
        let early = self
            .pending_listeners
            .lock()
            .ok()
            .and_then(|mut p| p.pop_front());
        let mut changes = early.unwrap_or_else(|| self.list_changed.subscribe());
        let wants_tools = context.accepted().tools_list_changed == Some(true);
        tracing::debug!(wants_tools, accepted = ?context.accepted(), "listen stream open");
        loop {
            tokio::select! {
                _ = context.cancelled() => return Ok(()),
                change = changes.recv() => match change {
                    Ok(()) | Err(broadcast::error::RecvError::Lagged(_)) => {
                        if wants_tools
                            && let Err(e) = context.sink().notify_tool_list_changed().await {
                                tracing::debug!("listen stream closed: {e}");
                                return Ok(());
                            }
                    }
                    Err(broadcast::error::RecvError::Closed) => return Ok(()),
                },
            }
        }
    }
}

/// Every list answers in one page, so no cursor is ever handed out: a cursor is refused rather
/// than ignored (ignoring it would answer the first page again, forever).
fn no_cursor(request: Option<&PaginatedRequestParams>, method: &str) -> Result<(), ErrorData> {
    match request.and_then(|r| r.cursor.as_deref()) {
        Some(c) => {
            let shown: String = c.chars().take(40).collect();
            Err(ErrorData::invalid_params(
                format!(
                    "Invalid params for {method}: unknown cursor '{shown}'; this server answers {method} in one page and gives no nextCursor: call it without `cursor`"
                ),
                None,
            ))
        }
        None => Ok(()),
    }
}

/// A resource failure as a protocol error.
pub fn resource_error(e: resources::ResourceError) -> ErrorData {
    match e {
        resources::ResourceError::NotFound(m) => ErrorData::resource_not_found(m, None),
        resources::ResourceError::Failed(m) => ErrorData::internal_error(m, None),
    }
}

impl TabletopServer {
    /// Tells the client its tool list changed: a `notifications/tools/list_changed` for
    /// initialize-era peers, and a message on every `subscriptions/listen` stream for 2026-07-28
    /// peers.
    async fn announce_list_changed(&self, context: &RequestContext<RoleServer>) {
        let modern = context.protocol_version().is_some_and(|v| {
            v.to_string().as_str() > ProtocolVersion::LATEST_WITH_INITIALIZE.to_string().as_str()
        });
        tracing::debug!(modern, version = ?context.protocol_version(), "tool list changed");
        if modern {
            let _ = self.list_changed.send(());
        } else if let Err(e) = context.peer.notify_tool_list_changed().await {
            tracing::debug!("could not send tools/list_changed: {e}");
        }
    }
}
