//! MCP over Streamable HTTP for a whole table: every campaign of the store in one process, each
//! request authorised by a bearer token that names its campaign and role.
//!
//! `/mcp` takes the [`auth::guard`] layer, which puts the request's [`Grant`] in its extensions;
//! the live table view ([`table`], `/table/{campaign}`) checks its query-string token itself.
//! [`Table::changes`] broadcasts the name of a campaign after each committed write.

pub mod auth;
mod handler;
mod memo;
pub mod table;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use anyhow::Context;
use axum::Router;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tabletop_engine::access::{self, Grant};
use tabletop_engine::compendium::CompendiumSource;
use tabletop_engine::{AnyStore, Engine, EngineOptions, StoreLocation};
use tokio::sync::broadcast;

pub use handler::TableServer;

use crate::tools::EngineT;

/// How the HTTP server runs.
#[derive(Debug, Clone)]
pub struct HttpOptions {
    /// Where to listen.
    pub addr: SocketAddr,
    /// Listening beyond loopback was asked for explicitly.
    pub public: bool,
    /// Browser origins allowed besides loopback ones ("https://table.example.org").
    pub allowed_origins: Vec<String>,
    /// Largest request body accepted, in bytes.
    pub max_body_bytes: usize,
    /// Engines (database connections) per campaign: concurrent calls of one campaign.
    pub engines_per_campaign: usize,
}

impl HttpOptions {
    /// Refuses a non-loopback address without `--public`, saying why and what to do.
    pub fn check(&self) -> anyhow::Result<()> {
        if !self.addr.ip().is_loopback() && !self.public {
            anyhow::bail!(
                "refusing to serve on {} without --public: that address is reachable from other machines, \
                 and plain HTTP carries every bearer token in clear text. To serve a table over a network, \
                 put a TLS-terminating reverse proxy (Caddy, nginx) in front of a loopback address \
                 (e.g. --http 127.0.0.1:8765), or pass --public once TLS is in front; hand each player \
                 a token from `tabletop token create --campaign NAME --role player --character NAME`",
                self.addr
            );
        }
        Ok(())
    }
}

/// The default request-body limit: 1 MiB (a tool call is a few KiB).
pub const DEFAULT_MAX_BODY: usize = 1024 * 1024;

/// Every campaign of one store, opened on demand, and the token check.
pub struct Table {
    location: StoreLocation,
    compendium: CompendiumSource,
    seed: Option<u64>,
    per_campaign: usize,
    engines: Mutex<HashMap<String, Arc<Vec<Mutex<EngineT>>>>>,
    auth: Mutex<AnyStore>,
    changes: broadcast::Sender<String>,
    watches: table::Watches,
    /// Repeated reads answered while their campaign is unchanged.
    memo: memo::HttpMemo,
}

impl Table {
    /// A table over the store at `location`.
    pub fn open(
        location: StoreLocation,
        compendium: CompendiumSource,
        seed: Option<u64>,
        per_campaign: usize,
    ) -> anyhow::Result<Self> {
        let auth = location
            .open()
            .context("cannot open the campaign database")?;
        let (changes, _) = broadcast::channel(64);
        Ok(Self {
            location,
            compendium,
            seed,
            per_campaign: per_campaign.max(1),
            engines: Mutex::default(),
            auth: Mutex::new(auth),
            changes,
            watches: table::Watches::default(),
            memo: memo::HttpMemo::default(),
        })
    }

    /// The grant of a presented token, if it is valid now.
    pub fn verify(&self, token: &str) -> Option<Grant> {
        let mut store = self.auth.lock().ok()?;
        match access::verify(&mut *store, token) {
            Ok(g) => g,
            Err(e) => {
                tracing::warn!("token check failed: {e}");
                None
            }
        }
    }

    /// The engines of a campaign (opened on first use).
    pub fn engines(&self, campaign: &str) -> anyhow::Result<Arc<Vec<Mutex<EngineT>>>> {
        let mut map = self
            .engines
            .lock()
            .map_err(|_| anyhow::anyhow!("the campaign registry lock was poisoned"))?;
        if let Some(e) = map.get(campaign) {
            return Ok(e.clone());
        }
        let mut v = Vec::with_capacity(self.per_campaign);
        for i in 0..self.per_campaign {
            let store = self.location.open()?;
            v.push(Mutex::new(Engine::open(
                store,
                campaign,
                EngineOptions {
                    // Reseed once per campaign, not once per connection.
                    seed: if i == 0 { self.seed } else { None },
                    compendium: self.compendium.clone(),
                },
            )?));
        }
        let v = Arc::new(v);
        map.insert(campaign.to_string(), v.clone());
        Ok(v)
    }

    /// The current revision of engine `index` of `campaign` (`None`: not open, or a store that
    /// cannot say whether it changed).
    pub(crate) fn revision(
        &self,
        campaign: &str,
        index: usize,
    ) -> Option<tabletop_engine::Revision> {
        let engines = self.engines.lock().ok()?.get(campaign)?.clone();
        let mut engine = engines.get(index)?.lock().ok()?;
        engine.revision()
    }

    /// Forgets a campaign's engines (after its deletion).
    pub fn forget(&self, campaign: &str) {
        if let Ok(mut map) = self.engines.lock() {
            map.remove(campaign);
        }
    }

    /// "Campaign X changed": sent after every committed write of a tool call.
    pub fn changes(&self) -> broadcast::Receiver<String> {
        self.changes.subscribe()
    }

    pub(crate) fn changed(&self, campaign: &str) {
        let _ = self.changes.send(campaign.to_string());
    }
}

/// The whole HTTP application: `/mcp` behind the token guard.
pub fn router(table: Arc<Table>, opts: &HttpOptions) -> Router {
    let mut config = StreamableHttpServerConfig::default()
        .with_max_request_body_bytes(opts.max_body_bytes)
        .with_sse_keep_alive(Some(std::time::Duration::from_secs(15)));
    if opts.public {
        // Any Host: the deployment names itself behind its proxy; tokens and the Origin check
        // guard the requests.
        config = config.disable_allowed_hosts();
    }
    let server = TableServer::new(table.clone());
    let mcp = StreamableHttpService::new(
        move || Ok(server.clone()),
        LocalSessionManager::default().into(),
        config,
    );
    let origins = Arc::new(auth::Origins::new(&opts.allowed_origins));
    let view = table::routes(table.clone(), origins.clone());
    let guard = auth::Guard {
        table,
        origins,
        max_body_bytes: opts.max_body_bytes,
    };
    Router::new()
        .route_service("/mcp", mcp)
        .layer(axum::middleware::from_fn_with_state(
            guard.clone(),
            auth::check_body,
        ))
        .layer(axum::middleware::from_fn_with_state(guard, auth::guard))
        // The table view takes its token from the query string (a browser page and an
        // EventSource cannot send a header): its routes check it themselves.
        .merge(view)
}

/// Serves until Ctrl-C.
pub async fn serve(table: Arc<Table>, opts: HttpOptions) -> anyhow::Result<()> {
    opts.check()?;
    let app = router(table, &opts);
    let listener = tokio::net::TcpListener::bind(opts.addr)
        .await
        .with_context(|| format!("cannot listen on {}", opts.addr))?;
    let local = listener.local_addr()?;
    eprintln!("tabletop: MCP over HTTP at http://{local}/mcp (Ctrl-C stops)");
    eprintln!("tabletop: live table view at http://{local}/table/CAMPAIGN?token=TOKEN");
    axum::serve(listener, app)
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await?;
    Ok(())
}
