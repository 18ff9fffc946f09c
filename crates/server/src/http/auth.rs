//! The guards in front of every HTTP route: Origin (DNS-rebinding protection), bearer token
//! (which decides campaign and role), and for `/mcp` a body that is JSON-RPC at all.

use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http_body_util::{BodyExt, LengthLimitError, Limited};
use serde_json::{Value, json};

use super::Table;

/// What the guards need.
#[derive(Clone)]
pub struct Guard {
    /// The token check and the campaigns.
    pub table: Arc<Table>,
    /// Allowed browser origins.
    pub origins: Arc<Origins>,
    /// Largest body accepted.
    pub max_body_bytes: usize,
}

/// Browser origins allowed to call: loopback ones always, plus the configured ones.
#[derive(Debug, Clone, Default)]
pub struct Origins(Vec<String>);

impl Origins {
    /// Loopback plus `extra` ("https://table.example.org"; trailing slashes ignored).
    pub fn new(extra: &[String]) -> Self {
        Self(
            extra
                .iter()
                .map(|o| o.trim().trim_end_matches('/').to_ascii_lowercase())
                .filter(|o| !o.is_empty())
                .collect(),
        )
    }

    /// Whether a request carrying `Origin: origin` may proceed.
    pub fn allows(&self, origin: &str) -> bool {
        let o = origin.trim().trim_end_matches('/').to_ascii_lowercase();
        if self.0.iter().any(|a| *a == o || a == "*") {
            return true;
        }
        let Some(rest) = o
            .strip_prefix("http://")
            .or_else(|| o.strip_prefix("https://"))
        else {
            return false;
        };
        let host = if let Some(v6) = rest.strip_prefix('[') {
            v6.split(']').next().unwrap_or("")
        } else {
            rest.split(':').next().unwrap_or("")
        };
        matches!(host, "localhost" | "127.0.0.1" | "::1")
    }
}

/// A JSON-RPC error answer with no request id, at an HTTP status.
pub fn rpc_error(status: StatusCode, code: i64, message: &str) -> Response {
    (
        status,
        [(header::CONTENT_TYPE, "application/json")],
        json!({ "jsonrpc": "2.0", "id": null, "error": { "code": code, "message": message } })
            .to_string(),
    )
        .into_response()
}

fn unauthorized(message: &str, presented: bool) -> Response {
    let mut r = rpc_error(StatusCode::UNAUTHORIZED, -32001, message);
    let challenge = if presented {
        "Bearer realm=\"tabletop\", error=\"invalid_token\""
    } else {
        "Bearer realm=\"tabletop\""
    };
    r.headers_mut().insert(
        header::WWW_AUTHENTICATE,
        HeaderValue::from_static(challenge),
    );
    r
}

/// Origin, then the bearer token: puts the token's [`tabletop_engine::access::Grant`] in the
/// request's extensions for the routes behind it.
pub async fn guard(State(g): State<Guard>, mut req: Request, next: Next) -> Response {
    if let Some(origin) = req.headers().get(header::ORIGIN) {
        let ok = origin.to_str().is_ok_and(|o| g.origins.allows(o));
        if !ok {
            return rpc_error(
                StatusCode::FORBIDDEN,
                -32002,
                "this Origin is not allowed; the server's operator can allow it with --allowed-origin",
            );
        }
    }
    let Some(auth) = req.headers().get(header::AUTHORIZATION) else {
        return unauthorized(
            "missing Authorization: Bearer TOKEN; ask the DM for a token (tabletop token create)",
            false,
        );
    };
    let token = auth
        .to_str()
        .ok()
        .and_then(|a| {
            a.strip_prefix("Bearer ")
                .or_else(|| a.strip_prefix("bearer "))
        })
        .map(str::trim);
    let Some(token) = token else {
        return unauthorized("the Authorization header must read 'Bearer TOKEN'", true);
    };
    let table = g.table.clone();
    let token = token.to_string();
    let grant = tokio::task::spawn_blocking(move || table.verify(&token))
        .await
        .ok()
        .flatten();
    match grant {
        Some(grant) => {
            req.extensions_mut().insert(grant);
            next.run(req).await
        }
        None => unauthorized(
            "invalid, revoked or expired token (a token ends with its campaign); ask the DM for a new one",
            true,
        ),
    }
}

/// For `/mcp` POSTs: a body within the limit (413) that parses as JSON (400, -32700) and is one
/// JSON-RPC message (400, -32600), before the MCP service sees it.
pub async fn check_body(State(g): State<Guard>, req: Request, next: Next) -> Response {
    if req.method() == Method::DELETE
        && let Some(session) = req.headers().get("mcp-session-id")
        && let Ok(session) = session.to_str()
    {
        g.table.memo.closed(session);
    }
    if req.method() != Method::POST {
        return next.run(req).await;
    }
    let (parts, body) = req.into_parts();
    let bytes: Bytes = match Limited::new(body, g.max_body_bytes).collect().await {
        Ok(c) => c.to_bytes(),
        Err(e) if e.downcast_ref::<LengthLimitError>().is_some() => {
            return rpc_error(
                StatusCode::PAYLOAD_TOO_LARGE,
                -32600,
                &format!("request body exceeds {} bytes", g.max_body_bytes),
            );
        }
        Err(e) => {
            return rpc_error(
                StatusCode::BAD_REQUEST,
                -32600,
                &format!("cannot read the request body: {e}"),
            );
        }
    };
    // A repeated read answered from the memo, without the session machinery.
    if let Some(r) = g
        .table
        .memo
        .answer(&parts, &bytes, |c, i| g.table.revision(c, i))
    {
        return r;
    }
    let value: Value = match serde_json::from_slice(&bytes) {
        Ok(v) => v,
        Err(e) => {
            return rpc_error(
                StatusCode::BAD_REQUEST,
                -32700,
                &format!("Parse error: the body is not JSON ({e})"),
            );
        }
    };
    let problem = match &value {
        Value::Array(_) => Some("JSON-RPC batches are not supported; send one message per request"),
        Value::Object(o) if o.get("jsonrpc").and_then(Value::as_str) != Some("2.0") => {
            Some("Invalid Request: \"jsonrpc\": \"2.0\" is required")
        }
        Value::Object(o)
            if !o.contains_key("method")
                && !o.contains_key("result")
                && !o.contains_key("error") =>
        {
            Some("Invalid Request: a message needs a method (or a result or error)")
        }
        Value::Object(_) => None,
        _ => Some("Invalid Request: a JSON-RPC message is a JSON object"),
    };
    if let Some(p) = problem {
        return rpc_error(StatusCode::BAD_REQUEST, -32600, p);
    }
    if serde_json::from_value::<rmcp::model::ClientJsonRpcMessage>(value.clone()).is_err() {
        let id = value.get("id").cloned().unwrap_or(Value::Null);
        let method = value.get("method").and_then(Value::as_str).unwrap_or("");
        return (
            StatusCode::BAD_REQUEST,
            [(header::CONTENT_TYPE, "application/json")],
            json!({ "jsonrpc": "2.0", "id": id, "error": {
                "code": -32602,
                "message": format!("Invalid params for {method}: the params do not match the method's schema")
            }})
            .to_string(),
        )
            .into_response();
    }
    let response = next
        .run(Request::from_parts(parts, Body::from(bytes)))
        .await;
    if let Some(session) = response.headers().get("mcp-session-id")
        && let Ok(session) = session.to_str()
    {
        g.table.memo.opened(session);
    }
    response
}

#[cfg(test)]
mod tests {
    use super::Origins;

    #[test]
    fn loopback_and_configured_origins_pass_others_do_not() {
        let o = Origins::new(&["https://table.example.org/".into()]);
        assert!(o.allows("http://localhost:6274"));
        assert!(o.allows("http://127.0.0.1"));
        assert!(o.allows("http://[::1]:8080"));
        assert!(o.allows("https://table.example.org"));
        assert!(!o.allows("https://evil.example.com"));
        assert!(!o.allows("http://localhost.evil.com"));
        assert!(!o.allows("null"));
    }
}
