//! The live table view over HTTP (DESIGN §11):
//!
//! - `GET /table/{campaign}?token=…`: the page (HTML, CSS and JS in one document);
//! - `GET /table/{campaign}/state?token=…`: the table state as JSON, filtered by the token's role;
//! - `GET /table/{campaign}/events?token=…`: Server-Sent Events, one `state` event on connect and
//!   one each time the state the token may see changes.
//!
//! A browser cannot send an `Authorization` header with a page load or an `EventSource`, so these
//! routes take the token from the query string. It is never logged, and the page tells the
//! browser not to send it on in a `Referer`.
//!
//! How a change is noticed: a tool call that commits a write through this server announces its
//! campaign at once ([`Table::changed`], an in-process broadcast): subscribers rebuild their
//! state straight away. A write made by another process (the stdio server, the CLI) is noticed
//! by a per-campaign poller that reads the store's change counter (the campaign's last event
//! number) every [`POLL`], and only while that campaign has subscribers. A rebuilt state that
//! reads the same for the subscriber's role (a DM note, for a player) is not sent again.

use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde::Deserialize;
use tabletop_engine::access::Role;
use tabletop_engine::table::Viewer;
use tokio::sync::{broadcast, watch};

use super::Table;
use super::auth::Origins;
use crate::table_view;
use crate::tools::EngineT;

/// How often a campaign with subscribers is checked for changes made by other processes.
pub const POLL: Duration = Duration::from_millis(250);

/// The per-campaign pollers: the latest change counter each has seen.
#[derive(Default)]
pub struct Watches(Mutex<HashMap<String, watch::Sender<i64>>>);

/// What the routes share.
#[derive(Clone)]
pub struct TableRoutes {
    table: Arc<Table>,
    origins: Arc<Origins>,
}

#[derive(Deserialize)]
struct TokenQuery {
    token: Option<String>,
}

/// The three routes of the table view.
pub fn routes(table: Arc<Table>, origins: Arc<Origins>) -> Router {
    Router::new()
        .route("/table/{campaign}", get(page))
        .route("/table/{campaign}/", get(page))
        .route("/table/{campaign}/state", get(state))
        .route("/table/{campaign}/events", get(events))
        .with_state(TableRoutes { table, origins })
}

fn plain(status: StatusCode, message: &str) -> Response {
    let mut r = (status, message.to_string()).into_response();
    private(r.headers_mut());
    r
}

fn private(h: &mut HeaderMap) {
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    h.insert("referrer-policy", HeaderValue::from_static("no-referrer"));
}

/// The Origin check, then the token: it must be valid now and name this campaign. Answers the
/// viewer (`None` for the DM).
async fn authorise(
    r: &TableRoutes,
    headers: &HeaderMap,
    campaign: &str,
    token: Option<String>,
) -> Result<Option<Viewer>, Response> {
    if let Some(origin) = headers.get(header::ORIGIN)
        && !origin.to_str().is_ok_and(|o| r.origins.allows(o))
    {
        return Err(plain(
            StatusCode::FORBIDDEN,
            "this Origin is not allowed; the server's operator can allow it with --allowed-origin",
        ));
    }
    let Some(token) = token.filter(|t| !t.trim().is_empty()) else {
        return Err(plain(
            StatusCode::UNAUTHORIZED,
            "missing ?token=…: open the link the DM gave you (tabletop token create)",
        ));
    };
    let table = r.table.clone();
    let grant = tokio::task::spawn_blocking(move || table.verify(token.trim()))
        .await
        .ok()
        .flatten();
    let Some(grant) = grant.filter(|g| g.campaign == campaign) else {
        return Err(plain(
            StatusCode::UNAUTHORIZED,
            "invalid, revoked or expired token, or a token of another campaign; ask the DM for a new one",
        ));
    };
    match (grant.role, grant.character_id) {
        (Role::Dm, _) => Ok(None),
        (Role::Player, Some(c)) => Ok(Some(Viewer { character_id: c })),
        (Role::Player, None) => Err(plain(
            StatusCode::FORBIDDEN,
            "a player token without a character sees no table; ask the DM for one with --character",
        )),
    }
}

async fn page(
    State(r): State<TableRoutes>,
    Path(campaign): Path<String>,
    Query(q): Query<TokenQuery>,
    headers: HeaderMap,
) -> Response {
    if let Err(resp) = authorise(&r, &headers, &campaign, q.token).await {
        return resp;
    }
    let mut resp = (
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        table_view::PAGE,
    )
        .into_response();
    let h = resp.headers_mut();
    private(h);
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; \
             connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; \
             frame-ancestors 'none'",
        ),
    );
    resp
}

/// A free engine of the campaign (else the first).
fn pick(engines: &[Mutex<EngineT>]) -> &Mutex<EngineT> {
    for e in engines {
        if let Ok(g) = e.try_lock() {
            drop(g);
            return e;
        }
    }
    &engines[0]
}

/// The state as JSON, and the same without its change counter (what a subscriber compares to
/// decide whether anything it may see changed).
async fn build(
    table: Arc<Table>,
    campaign: String,
    viewer: Option<Viewer>,
) -> Result<(String, String, i64), String> {
    tokio::task::spawn_blocking(move || {
        let engines = table.engines(&campaign).map_err(|e| format!("{e:#}"))?;
        let mut st =
            table_view::state(pick(&engines), viewer.as_ref()).map_err(|e| e.to_string())?;
        let json = serde_json::to_string(&st).map_err(|e| e.to_string())?;
        let version = st.version;
        st.version = 0;
        let key = serde_json::to_string(&st).map_err(|e| e.to_string())?;
        Ok((json, key, version))
    })
    .await
    .map_err(|e| format!("internal: {e}"))?
}

async fn state(
    State(r): State<TableRoutes>,
    Path(campaign): Path<String>,
    Query(q): Query<TokenQuery>,
    headers: HeaderMap,
) -> Response {
    let viewer = match authorise(&r, &headers, &campaign, q.token).await {
        Ok(v) => v,
        Err(resp) => return resp,
    };
    match build(r.table.clone(), campaign, viewer).await {
        Ok((json, _, _)) => {
            let mut resp = ([(header::CONTENT_TYPE, "application/json")], json).into_response();
            private(resp.headers_mut());
            resp
        }
        Err(e) => plain(StatusCode::NOT_FOUND, &e),
    }
}

struct Feed {
    table: Arc<Table>,
    campaign: String,
    viewer: Option<Viewer>,
    changes: broadcast::Receiver<String>,
    polled: watch::Receiver<i64>,
    last: Option<String>,
    first: bool,
    done: bool,
}

impl Feed {
    /// Waits for a change that may concern this campaign; `false` once the server shuts down.
    async fn wait(&mut self) -> bool {
        loop {
            tokio::select! {
                r = self.changes.recv() => match r {
                    Ok(c) if c == self.campaign => return true,
                    Ok(_) => continue,
                    Err(broadcast::error::RecvError::Lagged(_)) => return true,
                    Err(broadcast::error::RecvError::Closed) => return false,
                },
                r = self.polled.changed() => return r.is_ok(),
            }
        }
    }

    /// The next event to send: the state when what this subscriber sees changed.
    async fn next(mut self) -> Option<(Result<Event, Infallible>, Self)> {
        if self.done {
            return None;
        }
        loop {
            if !self.first && !self.wait().await {
                return None;
            }
            self.first = false;
            match build(
                self.table.clone(),
                self.campaign.clone(),
                self.viewer.clone(),
            )
            .await
            {
                Ok((json, key, version)) => {
                    if self.last.as_deref() == Some(key.as_str()) {
                        continue;
                    }
                    self.last = Some(key);
                    let ev = Event::default()
                        .event("state")
                        .id(version.to_string())
                        .data(json);
                    return Some((Ok(ev), self));
                }
                Err(e) => {
                    // The campaign is gone (deleted) or unreadable: say so and end the stream.
                    self.done = true;
                    return Some((Ok(Event::default().event("gone").data(e)), self));
                }
            }
        }
    }
}

async fn events(
    State(r): State<TableRoutes>,
    Path(campaign): Path<String>,
    Query(q): Query<TokenQuery>,
    headers: HeaderMap,
) -> Response {
    let viewer = match authorise(&r, &headers, &campaign, q.token).await {
        Ok(v) => v,
        Err(resp) => return resp,
    };
    let feed = Feed {
        changes: r.table.changes(),
        polled: watch_campaign(&r.table, &campaign),
        table: r.table.clone(),
        campaign,
        viewer,
        last: None,
        first: true,
        done: false,
    };
    let stream = futures_util::stream::unfold(feed, Feed::next);
    let mut resp = Sse::new(stream)
        .keep_alive(KeepAlive::new().interval(Duration::from_secs(15)))
        .into_response();
    private(resp.headers_mut());
    resp
}

/// A receiver of the campaign's change counter as its poller reads it; starts the poller when
/// the campaign has none. The poller stops when its last subscriber is gone.
fn watch_campaign(table: &Arc<Table>, campaign: &str) -> watch::Receiver<i64> {
    let Ok(mut map) = table.watches.0.lock() else {
        // A poisoned registry: a receiver that never changes (in-process changes still arrive).
        return watch::channel(0).1;
    };
    if let Some(tx) = map.get(campaign) {
        return tx.subscribe();
    }
    let (tx, rx) = watch::channel(-1);
    map.insert(campaign.to_string(), tx.clone());
    drop(map);
    tokio::spawn(poll(table.clone(), campaign.to_string(), tx));
    rx
}

async fn poll(table: Arc<Table>, campaign: String, tx: watch::Sender<i64>) {
    let mut tick = tokio::time::interval(POLL);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Skip);
    let mut last: Option<i64> = None;
    loop {
        tick.tick().await;
        {
            let Ok(mut map) = table.watches.0.lock() else {
                return;
            };
            // Under the registry lock, so no subscriber joins between the count and the removal.
            if tx.receiver_count() == 0 {
                map.remove(&campaign);
                return;
            }
        }
        let t = table.clone();
        let c = campaign.clone();
        let seen = tokio::task::spawn_blocking(move || {
            let engines = t.engines(&c).ok()?;
            let mut e = pick(&engines).lock().ok()?;
            e.read(|call| tabletop_engine::table_state::version(call))
                .ok()
        })
        .await
        .ok()
        .flatten();
        if let Some(v) = seen
            && last != Some(v)
        {
            if last.is_some() {
                tx.send_replace(v);
            }
            last = Some(v);
        }
    }
}
