//! Request validation shared by every transport: one incoming JSON-RPC message (a stdio line or an
//! HTTP body) is either delivered to the MCP service, answered at once with a JSON-RPC error, or
//! ignored (a malformed notification, which gets no answer by definition).
//!
//! The server never stays silent on a request it cannot read: unparseable input (invalid JSON or
//! UTF-8, `NaN`, a number out of range, a lone surrogate, an oversized message) is answered with
//! `-32700`, a request whose `params` do not fit its method with `-32602` naming the field and the
//! fix, and any other malformed request with `-32600`.

use rmcp::RoleServer;
use rmcp::model::{
    CallToolRequestParams, GetPromptRequestParams, InitializeRequestParams, PaginatedRequestParams,
    ReadResourceRequestParams,
};
use rmcp::service::RxJsonRpcMessage;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

/// The most bytes one message may have (the stdio line limit of the MCP SDKs).
pub const MAX_MESSAGE_BYTES: usize = 16 * 1024 * 1024;

/// JSON-RPC: the input is not valid JSON.
pub const PARSE_ERROR: i64 = -32700;
/// JSON-RPC: the JSON is not a valid request object.
pub const INVALID_REQUEST: i64 = -32600;
/// JSON-RPC: the method's parameters are invalid.
pub const INVALID_PARAMS: i64 = -32602;

/// What to do with one incoming message.
#[derive(Debug)]
pub enum Verdict {
    /// A well-formed message for the MCP service.
    Deliver(Box<RxJsonRpcMessage<RoleServer>>),
    /// Answer with this JSON-RPC error response (a complete message) and deliver nothing.
    Answer(Value),
    /// Nothing to deliver and nothing to answer (blank input, a malformed notification).
    Ignore,
}

/// A JSON-RPC error response.
pub fn error_response(id: Value, code: i64, message: impl Into<String>) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message.into()}})
}

/// The answer to a message longer than [`MAX_MESSAGE_BYTES`] (its id cannot be read).
pub fn oversized() -> Value {
    error_response(
        Value::Null,
        PARSE_ERROR,
        format!(
            "Parse error: the message is longer than {} MiB and was discarded; send smaller requests",
            MAX_MESSAGE_BYTES / (1024 * 1024)
        ),
    )
}

/// Inspects one message (without its line terminator).
pub fn inspect(bytes: &[u8]) -> Verdict {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Verdict::Ignore;
    }
    if bytes.len() > MAX_MESSAGE_BYTES {
        return Verdict::Answer(oversized());
    }
    let text = match std::str::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            return Verdict::Answer(error_response(
                Value::Null,
                PARSE_ERROR,
                format!(
                    "Parse error: the message is not valid UTF-8 (bad byte at offset {}); send UTF-8 JSON",
                    e.valid_up_to()
                ),
            ));
        }
    };
    if let Some(msg) = well_formed(text) {
        return Verdict::Deliver(Box::new(msg));
    }
    let value: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => {
            return Verdict::Answer(error_response(
                Value::Null,
                PARSE_ERROR,
                format!(
                    "Parse error: {e}; send one JSON-RPC object per message (no NaN or Infinity, numbers within the double range, paired surrogates)"
                ),
            ));
        }
    };
    inspect_value(value)
}

/// The message, when it reads straight into the SDK's types as a request or notification of a
/// method the SDK knows, with `params` an object when present and a tool name that is not blank:
/// the common case, read without first building a [`Value`]. Anything else (`None`) goes through
/// [`inspect_value`], which finds what is wrong and says so.
fn well_formed(text: &str) -> Option<RxJsonRpcMessage<RoleServer>> {
    use rmcp::model::{ClientNotification, ClientRequest, JsonRpcMessage};
    // Serde also reads a struct from an array: `params` must be seen to be an object first.
    let probe: Probe = serde_json::from_str(text).ok()?;
    if !matches!(probe.params, None | Some(Params::Object | Params::Null)) {
        return None;
    }
    let msg: RxJsonRpcMessage<RoleServer> = serde_json::from_str(text).ok()?;
    let standard = match &msg {
        JsonRpcMessage::Request(r) => match &r.request {
            ClientRequest::CustomRequest(_) => false,
            ClientRequest::CallToolRequest(c) => !c.params.name.trim().is_empty(),
            _ => true,
        },
        JsonRpcMessage::Notification(n) => {
            !matches!(n.notification, ClientNotification::CustomNotification(_))
        }
        _ => false,
    };
    standard.then_some(msg)
}

/// The JSON type of a message's `params`, read without keeping them.
#[derive(serde::Deserialize)]
struct Probe {
    params: Option<Params>,
}

enum Params {
    Object,
    Null,
    Other,
}

impl<'de> serde::Deserialize<'de> for Params {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Kind;
        impl<'de> serde::de::Visitor<'de> for Kind {
            type Value = Params;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut m: A) -> Result<Params, A::Error> {
                while m
                    .next_entry::<serde::de::IgnoredAny, serde::de::IgnoredAny>()?
                    .is_some()
                {}
                Ok(Params::Object)
            }
            fn visit_unit<E>(self) -> Result<Params, E> {
                Ok(Params::Null)
            }
            fn visit_none<E>(self) -> Result<Params, E> {
                Ok(Params::Null)
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut s: A) -> Result<Params, A::Error> {
                while s.next_element::<serde::de::IgnoredAny>()?.is_some() {}
                Ok(Params::Other)
            }
            fn visit_bool<E>(self, _: bool) -> Result<Params, E> {
                Ok(Params::Other)
            }
            fn visit_i64<E>(self, _: i64) -> Result<Params, E> {
                Ok(Params::Other)
            }
            fn visit_u64<E>(self, _: u64) -> Result<Params, E> {
                Ok(Params::Other)
            }
            fn visit_f64<E>(self, _: f64) -> Result<Params, E> {
                Ok(Params::Other)
            }
            fn visit_str<E>(self, _: &str) -> Result<Params, E> {
                Ok(Params::Other)
            }
        }
        d.deserialize_any(Kind)
    }
}

/// Inspects one parsed message.
pub fn inspect_value(value: Value) -> Verdict {
    let Value::Object(obj) = &value else {
        let what = if value.is_array() {
            "a JSON-RPC batch (an array), which MCP does not use; send one object per message"
        } else {
            "not a JSON-RPC object; send {\"jsonrpc\":\"2.0\",\"id\":1,\"method\":...}"
        };
        return Verdict::Answer(error_response(
            Value::Null,
            INVALID_REQUEST,
            format!("Invalid Request: the message is {what}"),
        ));
    };
    let id = match obj.get("id") {
        Some(id @ (Value::String(_) | Value::Number(_))) => Some(id.clone()),
        Some(_) => {
            return Verdict::Answer(error_response(
                Value::Null,
                INVALID_REQUEST,
                "Invalid Request: `id` must be a string or a number",
            ));
        }
        None => None,
    };
    let method = match obj.get("method") {
        Some(Value::String(m)) => Some(m.clone()),
        Some(_) => {
            return answer_or_ignore(
                id,
                INVALID_REQUEST,
                "Invalid Request: `method` must be a string".into(),
            );
        }
        None => None,
    };
    if let (Some(id), Some(method)) = (&id, &method)
        && let Some(problem) = params_problem(method, obj.get("params"))
    {
        return Verdict::Answer(error_response(
            id.clone(),
            INVALID_PARAMS,
            format!("Invalid params for {method}: {problem}"),
        ));
    }
    match serde_json::from_value::<RxJsonRpcMessage<RoleServer>>(value) {
        Ok(msg) => Verdict::Deliver(Box::new(msg)),
        Err(e) => answer_or_ignore(
            id,
            INVALID_REQUEST,
            format!(
                "Invalid Request: {e}; send {{\"jsonrpc\":\"2.0\",\"id\":…,\"method\":…,\"params\":{{…}}}}"
            ),
        ),
    }
}

fn answer_or_ignore(id: Option<Value>, code: i64, message: String) -> Verdict {
    match id {
        Some(id) => Verdict::Answer(error_response(id, code, message)),
        None => {
            tracing::debug!("ignoring a malformed notification: {message}");
            Verdict::Ignore
        }
    }
}

/// What is wrong with a standard method's `params`, in the words of the protocol, with the fix.
fn params_problem(method: &str, params: Option<&Value>) -> Option<String> {
    if let Some(p) = params
        && !(p.is_object() || p.is_null())
    {
        return Some(format!(
            "`params` must be a JSON object (got {}); send named parameters",
            kind(p)
        ));
    }
    let empty = Value::Object(Default::default());
    let p = params.filter(|p| !p.is_null()).unwrap_or(&empty);
    match method {
        "tools/call" => {
            match p.get("name") {
                None | Some(Value::Null) => {
                    return Some(
                        "`params.name` is missing: give the tool's name, e.g. {\"name\":\"roll_dice\",\"arguments\":{\"expression\":\"2d6\"}}".into(),
                    );
                }
                Some(Value::String(s)) if s.trim().is_empty() => {
                    return Some(
                        "`params.name` is empty: give the tool's name (tools/list lists them)"
                            .into(),
                    );
                }
                Some(Value::String(_)) => {}
                Some(other) => {
                    return Some(format!(
                        "`params.name` must be a string (got {}): the tool's name, e.g. \"roll_dice\"",
                        kind(other)
                    ));
                }
            }
            if let Some(a) = p.get("arguments")
                && !(a.is_object() || a.is_null())
            {
                return Some(format!(
                    "`params.arguments` must be a JSON object of the tool's fields (got {}), e.g. {{\"expression\":\"2d6\"}}; omit it or send {{}} for none",
                    kind(a)
                ));
            }
            typed::<CallToolRequestParams>(p)
        }
        "tools/list" | "resources/list" | "resources/templates/list" | "prompts/list" => {
            typed::<PaginatedRequestParams>(p)
        }
        "resources/read" => typed::<ReadResourceRequestParams>(p),
        "prompts/get" => typed::<GetPromptRequestParams>(p),
        "initialize" => typed::<InitializeRequestParams>(p),
        #[allow(deprecated)]
        "logging/setLevel" => typed::<rmcp::model::SetLevelRequestParams>(p),
        _ => None,
    }
}

fn typed<T: DeserializeOwned>(p: &Value) -> Option<String> {
    let de = serde_json::from_value::<T>(p.clone());
    de.err()
        .map(|e| format!("{e}; see the MCP specification for this method's params"))
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(line: &[u8]) -> Value {
        match inspect(line) {
            Verdict::Answer(v) => v,
            other => panic!(
                "expected an answer to {:?}, got {other:?}",
                String::from_utf8_lossy(line)
            ),
        }
    }

    #[test]
    fn unparseable_input_is_a_parse_error() {
        for line in [
            &b"{not json"[..],
            b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"x\":NaN}}",
            b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"x\":1e400}}",
            b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"x\":\"\\ud800\"}}",
            b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"p\xffing\"}",
        ] {
            let a = answer(line);
            assert_eq!(a["error"]["code"], PARSE_ERROR, "{a}");
            assert_eq!(a["id"], Value::Null, "{a}");
        }
    }

    #[test]
    fn bad_tool_call_params_name_the_field() {
        let a = answer(br#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"roll_dice","arguments":[1]}}"#);
        assert_eq!(a["id"], 7);
        assert_eq!(a["error"]["code"], INVALID_PARAMS);
        let m = a["error"]["message"].as_str().unwrap();
        assert!(m.starts_with("Invalid params for tools/call: `params.arguments` must be a JSON object of the tool's fields (got an array)"), "{m}");
        let a = answer(
            br#"{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"arguments":{}}}"#,
        );
        assert_eq!(a["id"], "x");
        assert!(
            a["error"]["message"]
                .as_str()
                .unwrap()
                .contains("`params.name` is missing")
        );
    }

    #[test]
    fn good_and_blank_lines_pass() {
        assert!(matches!(
            inspect(br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"roll_dice","arguments":{"expression":"d6"}}}"#),
            Verdict::Deliver(_)
        ));
        assert!(matches!(inspect(b"  \r"), Verdict::Ignore));
        assert!(matches!(
            inspect(br#"{"jsonrpc":"2.0","method":"notifications/x","params":5}"#),
            Verdict::Ignore
        ));
    }
}
