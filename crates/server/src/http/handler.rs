//! The MCP handler of the HTTP transport: every request runs in the campaign and role of its
//! token (put in the request by the guard). DM requests go through the same catalog as stdio;
//! player requests through the player policy.

use std::sync::{Arc, Mutex};

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, GetPromptRequestParams, GetPromptResponse,
    ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult, ListToolsResult,
    PaginatedRequestParams, ReadResourceRequestParams, ReadResourceResponse, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::Value;
use tabletop_engine::access::{Grant, Role};
use tabletop_engine::table::Viewer;

use super::Table;
use crate::catalog::{self, Profile, Surface};
use crate::mcp::{self, TabletopServer};
use crate::tools::EngineT;
use crate::{player, prompts, resources};

/// One handler for every session: the campaign and role come with each request.
#[derive(Clone)]
pub struct TableServer {
    table: Arc<Table>,
}

struct Who {
    grant: Grant,
    engines: Arc<Vec<Mutex<EngineT>>>,
}

impl Who {
    /// An engine of the campaign, preferring one no other call holds.
    fn engine(&self) -> &Mutex<EngineT> {
        for e in self.engines.iter() {
            if let Ok(g) = e.try_lock() {
                drop(g);
                return e;
            }
        }
        &self.engines[0]
    }

    fn viewer(&self) -> Option<Viewer> {
        match self.grant.role {
            Role::Dm => None,
            Role::Player => self
                .grant
                .character_id
                .clone()
                .map(|c| Viewer { character_id: c }),
        }
    }
}

impl TableServer {
    /// A handler over `table`.
    pub fn new(table: Arc<Table>) -> Self {
        Self { table }
    }

    fn who(&self, ctx: &RequestContext<RoleServer>) -> Result<Who, ErrorData> {
        let grant = ctx
            .extensions
            .get::<axum::http::request::Parts>()
            .and_then(|p| p.extensions.get::<Grant>())
            .cloned()
            .ok_or_else(|| ErrorData::internal_error("no token grant on this request", None))?;
        let engines = self
            .table
            .engines(&grant.campaign)
            .map_err(|e| ErrorData::internal_error(format!("{e:#}"), None))?;
        Ok(Who { grant, engines })
    }
}

fn player_viewer(who: &Who) -> Result<Option<Viewer>, ErrorData> {
    match (who.grant.role, who.viewer()) {
        (Role::Dm, _) => Ok(None),
        (Role::Player, Some(v)) => Ok(Some(v)),
        (Role::Player, None) => Err(ErrorData::internal_error(
            "a player token without a character",
            None,
        )),
    }
}

impl ServerHandler for TableServer {
    fn get_info(&self) -> ServerConfig {
        // Same capabilities and instructions as stdio.
        TabletopServer::info()
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let who = self.who(&context)?;
        let surface = Surface::new(Profile::Full, &[]);
        let specs = match player_viewer(&who)? {
            None => surface.tools(),
            Some(_) => player::tools(),
        };
        Ok(ListToolsResult::with_all_items(
            specs
                .into_iter()
                .map(|t| mcp::to_mcp_tool(t, surface.schema_of(t), surface.detail()))
                .collect(),
        ))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let who = self.who(&context)?;
        let args = request.arguments.map(Value::Object).unwrap_or(Value::Null);
        let name = request.name.to_string();
        let engine = who.engine();
        engine.lock().map(|e| e.warm_compendium()).ok();
        let viewer = player_viewer(&who)?;
        // A plain read-only call may be kept and answered again while nothing changes.
        let read_only = catalog::find(&name).is_some_and(|s| s.read_only);
        let keepable = read_only && !crate::table_view::has_ui(&name);
        let revision = || engine.lock().ok()?.revision();
        let before = if keepable { revision() } else { None };
        let result = match &viewer {
            None => mcp::call_spec(engine, &name, &args),
            Some(v) => player::call(engine, v, &name, &args),
        };
        if result.is_ok() && !read_only {
            self.table.changed(&who.grant.campaign);
        }
        let ok = result.is_ok();
        let mut result = mcp::to_result(result);
        crate::table_view::attach(&mut result, &name, engine, viewer.as_ref());
        if let Some(before) = before
            && ok
            && revision() == Some(before)
            && let Some(index) = who.engines.iter().position(|e| std::ptr::eq(e, engine))
            && let Ok(mut wire) = serde_json::to_value(&result)
        {
            // As the SDK sends it: `resultType` on 2026-07-28 and later, not before.
            let modern = context
                .protocol_version()
                .is_some_and(|v| v.as_str() >= rmcp::model::ProtocolVersion::V_2026_07_28.as_str());
            if let Some(o) = wire.as_object_mut() {
                if modern {
                    o.insert("resultType".into(), Value::String("complete".into()));
                } else {
                    o.remove("resultType");
                }
            }
            let header = context
                .extensions
                .get::<axum::http::request::Parts>()
                .and_then(super::memo::protocol_header);
            let key = crate::memo::Memo::key(&name, &args);
            self.table
                .memo
                .keep(&who.grant, header, &key, index, before, wire.to_string());
        }
        Ok(CallToolResponse::Complete(result))
    }

    /// `logging/setLevel` is accepted from any token and changes nothing shared: the level of
    /// the log notifications this server sends a client (none: its logs go to stderr), while the
    /// server's own log level, shared by every campaign it hosts, is set when it starts
    /// (`RUST_LOG`), never by one table's client.
    #[allow(deprecated)] // logging: deprecated by SEP-2577, still part of the initialize era
    async fn set_level(
        &self,
        _request: rmcp::model::SetLevelRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.who(&context)?;
        Ok(())
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let who = self.who(&context)?;
        match player_viewer(&who)? {
            None => resources::list(who.engine()),
            Some(v) => player::list_resources(who.engine(), &v),
        }
        .map_err(mcp::resource_error)
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        self.who(&context)?;
        Ok(ListResourceTemplatesResult::with_all_items(
            resources::templates(),
        ))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let who = self.who(&context)?;
        match player_viewer(&who)? {
            None => resources::read(who.engine(), &request.uri),
            Some(v) => player::read_resource(who.engine(), &v, &request.uri),
        }
        .map(Into::into)
        .map_err(mcp::resource_error)
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        let who = self.who(&context)?;
        // The prompts script the DM's work; a player has none.
        Ok(ListPromptsResult::with_all_items(
            match player_viewer(&who)? {
                None => prompts::list(),
                Some(_) => Vec::new(),
            },
        ))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        let who = self.who(&context)?;
        if player_viewer(&who)?.is_some() {
            return Err(ErrorData::invalid_params(
                format!("no prompt '{}' for a player", request.name),
                None,
            ));
        }
        let args = request.arguments.unwrap_or_default();
        prompts::get(&request.name, &args)
            .map(Into::into)
            .map_err(|e| ErrorData::invalid_params(e, None))
    }
}
