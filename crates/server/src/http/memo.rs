//! Repeated reads over HTTP, answered from kept results while their campaign is unchanged.
//!
//! Like the stdio memo ([`crate::memo`]): a read-only tool's answer is a function of its
//! arguments, of who asks (a DM and each player see different things) and of the campaign's
//! state. [`Table`](super::Table) keeps the last answers per campaign, each with the engine that
//! made it and that engine's [`Revision`]; a later plain `tools/call` of the same caller with
//! the same arguments, in a session this server opened, is answered from it while that engine's
//! revision is the same, without going through the MCP session machinery. Any commit, by this
//! process or another one, moves the revision (SQLite's `data_version`; PostgreSQL is never
//! memoized: its connections cannot say whether another process wrote).

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

use axum::http::request::Parts;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use tabletop_engine::Revision;
use tabletop_engine::access::{Grant, Role};

use crate::memo::PlainCall;

/// Answers kept at most; past it the memo starts over.
const CAPACITY: usize = 256;
/// Sessions tracked at most; past it the oldest are forgotten (and served the full way).
const SESSIONS: usize = 4096;

/// One kept answer.
struct Kept {
    campaign: String,
    engine: usize,
    revision: Revision,
    /// The serialized `result` object of the JSON-RPC response.
    result: String,
}

/// The kept answers and the sessions they may be served to.
#[derive(Default)]
pub struct HttpMemo {
    kept: Mutex<HashMap<String, Arc<Kept>>>,
    sessions: Mutex<HashSet<String>>,
}

/// The protocol version a request names in its header, if any: the SDK shapes its answers by
/// it, so a kept answer is served only to requests naming the same.
pub fn protocol_header(parts: &Parts) -> Option<&str> {
    parts.headers.get("mcp-protocol-version")?.to_str().ok()
}

/// The session a request names, if any.
pub fn session_of(parts: &Parts) -> Option<&str> {
    parts.headers.get("mcp-session-id")?.to_str().ok()
}

impl HttpMemo {
    /// The memo key of `call` made by `grant` with protocol header `version`.
    fn key(grant: &Grant, version: Option<&str>, call_key: &str) -> String {
        let role = match grant.role {
            Role::Dm => "dm",
            Role::Player => "player",
        };
        format!(
            "{}\u{0}{role}\u{0}{}\u{0}{}\u{0}{call_key}",
            grant.campaign,
            grant.character_id.as_deref().unwrap_or(""),
            version.unwrap_or("")
        )
    }

    /// Notes a session the MCP service opened (its id in a response).
    pub fn opened(&self, id: &str) {
        if let Ok(mut s) = self.sessions.lock() {
            if s.len() >= SESSIONS {
                s.clear();
            }
            s.insert(id.to_string());
        }
    }

    /// Forgets a session (closed by the client).
    pub fn closed(&self, id: &str) {
        if let Ok(mut s) = self.sessions.lock() {
            s.remove(id);
        }
    }

    /// Keeps `result` (a successful `CallToolResult`, serialized) as the answer to `call_key` by
    /// `grant`, made by engine `engine` at `revision`.
    pub fn keep(
        &self,
        grant: &Grant,
        version: Option<&str>,
        call_key: &str,
        engine: usize,
        revision: Revision,
        result: String,
    ) {
        if let Ok(mut map) = self.kept.lock() {
            if map.len() >= CAPACITY {
                map.clear();
            }
            map.insert(
                Self::key(grant, version, call_key),
                Arc::new(Kept {
                    campaign: grant.campaign.clone(),
                    engine,
                    revision,
                    result,
                }),
            );
        }
    }

    /// The response to `body` when it is a plain `tools/call` whose answer is kept, in a session
    /// this server opened, and the engine that made it is at the same revision. `revision`
    /// reads an engine's current revision (campaign, index).
    pub fn answer(
        &self,
        parts: &Parts,
        body: &[u8],
        revision: impl Fn(&str, usize) -> Option<Revision>,
    ) -> Option<Response> {
        if self.kept.lock().ok()?.is_empty() {
            return None;
        }
        let session = session_of(parts)?;
        if !self.sessions.lock().ok()?.contains(session) {
            return None;
        }
        // The client must take an event stream, as the session's own answers are.
        let accept = parts.headers.get(header::ACCEPT)?.to_str().ok()?;
        if !accept.contains("text/event-stream") {
            return None;
        }
        let grant = parts.extensions.get::<Grant>()?;
        let call = PlainCall::read(body)?;
        let kept = self
            .kept
            .lock()
            .ok()?
            .get(&Self::key(grant, protocol_header(parts), &call.key))
            .cloned()?;
        if kept.campaign != grant.campaign
            || revision(&kept.campaign, kept.engine)? != kept.revision
        {
            return None;
        }
        let mut sse = String::with_capacity(kept.result.len() + call.id.len() + 48);
        sse.push_str("data: {\"jsonrpc\":\"2.0\",\"id\":");
        sse.push_str(&call.id);
        sse.push_str(",\"result\":");
        sse.push_str(&kept.result);
        sse.push_str("}\n\n");
        let mut r = (StatusCode::OK, sse).into_response();
        let h = r.headers_mut();
        h.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/event-stream"),
        );
        h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
        Some(r)
    }
}
