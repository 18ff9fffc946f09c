//! The direct path of a plain `tools/call` over stdio.
//!
//! Most of what an agent sends is a `tools/call` in its plainest form: `jsonrpc`, an integer or
//! string `id`, `method`, and `params` holding only `name` and `arguments`. The stdio transport
//! ([`crate::stdio::LineTransport`]) answers such a line itself, through a [`Direct`] handle the
//! server gives it ([`crate::mcp::TabletopServer::direct`]), when the session was opened with
//! `initialize`, no earlier request is still being served and the tool is not `discover_tools`
//! (which announces list changes through the SDK's peer). The answer is the very message the SDK
//! path would send, byte for byte (the e2e tests compare them), written straight into the output
//! buffer: no SDK message tree is parsed or serialized and no task is spawned per request.
//! Anything else (a `_meta`, a progress token, a float id, another method) takes the SDK path.

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;

use crate::memo::Kept;
use serde_json::{Map, Value};

/// Runs a plain tool call by name with its arguments (the JSON text of an object, `None` when
/// absent or null) and writes the complete JSON-RPC `result` object into the buffer, as the SDK
/// path would serialize it, or hands back the kept answer to write as it is.
pub type Direct = Arc<dyn Fn(&str, Option<&str>, &mut Vec<u8>) -> Outcome + Send + Sync>;

/// What a [`Direct`] call did.
pub enum Outcome {
    /// The result object is in the buffer.
    Written,
    /// Nothing written: the result is this kept answer (see [`kept_parts`]).
    Kept(Arc<Kept>),
    /// Nothing written or run: the arguments cannot be read (a number out of range); the SDK
    /// path answers the line with its parse error.
    Declined,
}

/// The response carrying a kept answer, in pieces written with one vectored write (the kept
/// JSON is not copied): `head` (the response up to `"result":`), the result object, the
/// response's closing brace and the line's newline. The same bytes as [`write_success`] makes.
pub fn kept_parts<'a>(head: &'a [u8], kept: &'a Kept) -> Vec<&'a [u8]> {
    let mut parts = Vec::with_capacity(6);
    parts.push(head);
    parts.push(&b"{\"content\":[{\"type\":\"text\",\"text\":"[..]);
    parts.push(kept.text_json().as_bytes());
    match kept.structured_json() {
        Some(s) => {
            parts.push(&b"}],\"structuredContent\":"[..]);
            parts.push(s.as_bytes());
            parts.push(&b",\"isError\":false}}\n"[..]);
        }
        None => parts.push(&b"}],\"isError\":false}}\n"[..]),
    }
    parts
}

/// A plain `tools/call` request, read.
#[derive(Debug)]
pub struct PlainCall<'a> {
    /// The request id as it goes back in the response (an integer or a JSON string).
    pub id: String,
    /// The tool's name (never blank: a blank name is answered by the full path's validation).
    pub name: Cow<'a, str>,
    /// The arguments as sent: the JSON text of an object (`None` when absent or null). Its
    /// syntax is checked, not its numbers' range: [`arguments`] reads it.
    pub arguments: Option<&'a str>,
}

/// The arguments of a plain call as a value (`Null` for none); `None` when they cannot be read
/// (a number out of range).
pub fn arguments(raw: Option<&str>) -> Option<Value> {
    match raw {
        None => Some(Value::Null),
        Some(text) => serde_json::from_str::<Map<String, Value>>(text)
            .ok()
            .map(Value::Object),
    }
}

/// `message` when it is a `tools/call` request in its plainest form; `None` otherwise (the
/// message then takes the full path, which validates and answers it).
pub fn read(message: &[u8]) -> Option<PlainCall<'_>> {
    let mut de = serde_json::Deserializer::from_slice(message);
    let line = Line::deserialize_map(&mut de).ok()?;
    de.end().ok()?;
    let name = line.name?;
    if line.jsonrpc? != "2.0" || line.method? != "tools/call" || name.trim().is_empty() {
        return None;
    }
    let arguments = match line.arguments {
        None => None,
        Some(raw) if raw.get().starts_with('{') => Some(raw.get()),
        Some(_) => return None,
    };
    Some(PlainCall {
        id: line.id?,
        name,
        arguments,
    })
}

/// The message's fields; an unknown or repeated field, or a value of the wrong type, fails
/// the read.
#[derive(Default)]
struct Line<'a> {
    jsonrpc: Option<Cow<'a, str>>,
    id: Option<String>,
    method: Option<Cow<'a, str>>,
    name: Option<Cow<'a, str>>,
    arguments: Option<&'a RawValue>,
    params: bool,
}

impl<'a> Line<'a> {
    fn deserialize_map<D: Deserializer<'a>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(LineVisitor)
    }
}

struct LineVisitor;

impl<'de> Visitor<'de> for LineVisitor {
    type Value = Line<'de>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON-RPC request object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Line<'de>, A::Error> {
        let mut line = Line::default();
        while let Some(key) = m.next_key::<Str<'de>>()? {
            match key.0.as_ref() {
                "jsonrpc" if line.jsonrpc.is_none() => {
                    line.jsonrpc = Some(m.next_value::<Str>()?.0)
                }
                "id" if line.id.is_none() => line.id = Some(m.next_value::<Id>()?.0),
                "method" if line.method.is_none() => line.method = Some(m.next_value::<Str>()?.0),
                "params" if !line.params => {
                    let p = m.next_value::<Params>()?;
                    line.params = true;
                    line.name = Some(p.name.ok_or_else(|| de::Error::missing_field("name"))?);
                    line.arguments = p.arguments;
                }
                _ => return Err(de::Error::custom("not a plain tools/call")),
            }
        }
        Ok(line)
    }
}

/// `params`: an object with `name` and, optionally, `arguments` (an object or null).
struct Params<'a> {
    name: Option<Cow<'a, str>>,
    arguments: Option<&'a RawValue>,
}

impl<'de> de::Deserialize<'de> for Params<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Params<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("tools/call params")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Params<'de>, A::Error> {
                let mut p = Params {
                    name: None,
                    arguments: None,
                };
                let mut seen_arguments = false;
                while let Some(key) = m.next_key::<Str<'de>>()? {
                    match key.0.as_ref() {
                        "name" if p.name.is_none() => p.name = Some(m.next_value::<Str>()?.0),
                        "arguments" if !seen_arguments => {
                            seen_arguments = true;
                            p.arguments = m.next_value::<Option<&'de RawValue>>()?;
                        }
                        _ => return Err(de::Error::custom("not a plain tools/call")),
                    }
                }
                Ok(p)
            }
        }
        d.deserialize_map(V)
    }
}

/// A JSON string, borrowed from the message when it has no escapes.
struct Str<'a>(Cow<'a, str>);

impl<'de> de::Deserialize<'de> for Str<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Str<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Str<'de>, E> {
                Ok(Str(Cow::Borrowed(s)))
            }
            fn visit_str<E>(self, s: &str) -> Result<Str<'de>, E> {
                Ok(Str(Cow::Owned(s.to_owned())))
            }
            fn visit_string<E>(self, s: String) -> Result<Str<'de>, E> {
                Ok(Str(Cow::Owned(s)))
            }
        }
        d.deserialize_str(V)
    }
}

/// A request id as it goes back: an integer that fits an `i64`, or a string (as JSON). A
/// float, even an integral one, or anything else takes the full path.
struct Id(String);

impl<'de> de::Deserialize<'de> for Id {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Id;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an integer or a string")
            }
            fn visit_i64<E>(self, n: i64) -> Result<Id, E> {
                Ok(Id(n.to_string()))
            }
            fn visit_u64<E: de::Error>(self, n: u64) -> Result<Id, E> {
                i64::try_from(n)
                    .map(|n| Id(n.to_string()))
                    .map_err(|_| E::custom("id out of range"))
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Id, E> {
                serde_json::to_string(s).map(Id).map_err(E::custom)
            }
        }
        d.deserialize_any(V)
    }
}

/// The text block of a result: already JSON (a kept answer), or the text itself.
pub enum Text<'a> {
    /// A JSON string literal, quotes included.
    Json(&'a str),
    /// The text, written as a JSON string.
    Plain(&'a str),
}

/// Writes a successful tool result of a text block and, if any, the structured content
/// (JSON), as the SDK serializes a `CallToolResult` for a peer of the initialize era, without
/// its closing brace (a `_meta` may follow).
pub fn write_success(out: &mut Vec<u8>, text: Text<'_>, structured_json: Option<&str>) {
    let (Text::Json(t) | Text::Plain(t)) = text;
    // Room for the whole answer and the response's tail: one allocation, no regrowth.
    out.reserve(t.len() + structured_json.map_or(0, str::len) + 96);
    out.extend_from_slice(b"{\"content\":[{\"type\":\"text\",\"text\":");
    match text {
        Text::Json(t) => out.extend_from_slice(t.as_bytes()),
        Text::Plain(t) => write_str(out, t),
    }
    out.extend_from_slice(b"}]");
    if let Some(s) = structured_json {
        out.extend_from_slice(b",\"structuredContent\":");
        out.extend_from_slice(s.as_bytes());
    }
    out.extend_from_slice(b",\"isError\":false");
}

/// Writes a JSON string.
pub fn write_str(out: &mut Vec<u8>, s: &str) {
    // Writing a `str` into a `Vec` cannot fail.
    let _ = serde_json::to_writer(&mut *out, s);
}

/// Writes a value as JSON (`null` if it cannot be serialized, which no tool result does).
pub fn write_json(out: &mut Vec<u8>, v: &impl serde::Serialize) {
    let at = out.len();
    if serde_json::to_writer(&mut *out, v).is_err() {
        out.truncate(at);
        out.extend_from_slice(b"null");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plain_call_is_read() {
        let c = read(br#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"roll_dice","arguments":{"expression":"d6"}}}"#).unwrap();
        assert_eq!(c.id, "7");
        assert_eq!(c.name, "roll_dice");
        assert_eq!(c.arguments, Some(r#"{"expression":"d6"}"#));
        assert_eq!(
            arguments(c.arguments),
            Some(serde_json::json!({"expression": "d6"}))
        );
        let c = read(br#" {"params":{"arguments":null,"name":"x"},"method":"tools/call","id":"a\"b","jsonrpc":"2.0"} "#).unwrap();
        assert_eq!(c.id, r#""a\"b""#);
        assert_eq!(c.arguments, None);
        assert_eq!(arguments(c.arguments), Some(Value::Null));
        let c = read(br#"{"jsonrpc":"2.0","id":-3,"method":"tools/call","params":{"name":"x"}}"#)
            .unwrap();
        assert_eq!(c.id, "-3");
        // Read as sent; a number out of range is found when the arguments are read.
        let c = read(br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"n":1e400}}}"#).unwrap();
        assert_eq!(c.arguments, Some(r#"{"n":1e400}"#));
        assert_eq!(arguments(c.arguments), None);
    }

    #[test]
    fn anything_else_takes_the_full_path() {
        for line in [
            // Arrays read as structs by derived deserializers: not here.
            &br#"["2.0",1,"tools/call",{"name":"x"}]"#[..],
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":["x",{}]}"#,
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","_meta":{"progressToken":1}}}"#,
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"},"extra":1}"#,
            br#"{"jsonrpc":"2.0","id":1.0,"method":"tools/call","params":{"name":"x"}}"#,
            br#"{"jsonrpc":"2.0","id":9223372036854775808,"method":"tools/call","params":{"name":"x"}}"#,
            br#"{"jsonrpc":"2.0","id":null,"method":"tools/call","params":{"name":"x"}}"#,
            br#"{"jsonrpc":"2.0","method":"tools/call","params":{"name":"x"}}"#,
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/call"}"#,
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":" "}}"#,
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"arguments":{}}}"#,
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":[]}}"#,
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":"{}"}}"#,
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"a":NaN}}}"#,
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","name":"y"}}"#,
            br#"{"jsonrpc":"2.0","id":1,"id":2,"method":"tools/call","params":{"name":"x"}}"#,
            br#"{"jsonrpc":"1.0","id":1,"method":"tools/call","params":{"name":"x"}}"#,
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"name":"x"}}"#,
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}} x"#,
            b"\xEF\xBB\xBF{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"x\"}}",
        ] {
            assert!(read(line).is_none(), "{}", String::from_utf8_lossy(line));
        }
    }
}
