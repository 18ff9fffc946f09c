//! Answers of read-only calls, kept while the campaign does not change, and spliced into the
//! outgoing message by the transport.
//!
//! A read-only tool's answer is a function of its arguments and of the state the engine reads.
//! [`tabletop_engine::Revision`] says whether that state moved: a commit through this engine or
//! through any other connection to the store (another process included), or the SRD finishing
//! its load. The memo keeps the last answers, each serialized once; the same call at the same
//! revision is answered from them without running the use case again.
//!
//! The kept answer is not rebuilt as a [`serde_json::Value`] either: the tool result carries two
//! placeholder strings (a per-process secret, a number, `t` or `s`) and the transport
//! ([`crate::stdio::LineTransport`]) replaces them, in the serialized message, with the kept
//! text and structured content. Only a transport that splices may be given a memo.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use rmcp::model::{CallToolResult, ContentBlock};
use serde_json::{Map, Value};
use tabletop_engine::Revision;

use crate::reply::Reply;

/// Answers kept at most; past it the memo starts over (a read is cheap to redo once).
const CAPACITY: usize = 64;
/// Placeholders handed out and not yet spliced, at most (a result never sent is forgotten).
const PENDING_CAPACITY: usize = 256;

/// One kept answer, serialized.
#[derive(Debug)]
struct Kept {
    revision: Revision,
    /// The text block, as a JSON string literal (quotes included).
    text: String,
    /// The structured content as JSON, if the answer has one.
    structured: Option<String>,
}

/// The answers of read-only calls of one connection.
pub struct Memo {
    /// Starts every placeholder: random per process, so no caller's text can forge one.
    secret: String,
    kept: Mutex<HashMap<String, Arc<Kept>>>,
    pending: Mutex<HashMap<u64, Arc<Kept>>>,
    next: AtomicU64,
    /// Where the campaign's current revision is read (set by the server the memo serves).
    revision: OnceLock<RevisionSource>,
}

impl std::fmt::Debug for Memo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Memo")
            .field("kept", &self.kept.lock().map(|k| k.len()).unwrap_or(0))
            .finish_non_exhaustive()
    }
}

/// Reads the current revision of the campaign a memo serves (`None`: the store cannot say).
pub type RevisionSource = Box<dyn Fn() -> Option<Revision> + Send + Sync>;

/// A `tools/call` request line in its plainest form: the only shape the transport answers from
/// the memo itself. Anything else (a `_meta`, a progress token, another method) fails to read
/// and takes the full path.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct CallLine<'a> {
    #[serde(borrow)]
    jsonrpc: Cow<'a, str>,
    id: Value,
    #[serde(borrow)]
    method: Cow<'a, str>,
    #[serde(borrow)]
    params: CallParams<'a>,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct CallParams<'a> {
    #[serde(borrow)]
    name: Cow<'a, str>,
    #[serde(default)]
    arguments: Option<Map<String, Value>>,
}

impl Memo {
    /// An empty memo.
    pub fn new() -> Arc<Self> {
        Arc::new(Self {
            secret: format!("tabletop-memo-{:032x}", rand::random::<u128>()),
            kept: Mutex::default(),
            pending: Mutex::default(),
            next: AtomicU64::new(1),
            revision: OnceLock::new(),
        })
    }

    /// Tells the memo where to read the campaign's revision, so the transport can answer a
    /// repeated read by itself ([`Memo::answer_line`]). Set once; later calls are ignored.
    pub fn set_revision_source(&self, source: RevisionSource) {
        let _ = self.revision.set(source);
    }

    /// The complete response line to `line` (a JSON-RPC message without its newline) when it is
    /// a plain `tools/call` whose answer is kept at the campaign's current revision; `None` sends
    /// it down the full path. The transport calls this only while no earlier request is still
    /// being served, so the answer cannot overtake a write sent before it. The response is the
    /// one the full path would send: the same kept text and structured content.
    pub fn answer_line(&self, line: &[u8]) -> Option<Vec<u8>> {
        // Cheap refusals first: nothing kept, or not a tools/call at all.
        if self.kept.lock().ok()?.is_empty() {
            return None;
        }
        let call: CallLine = serde_json::from_slice(line).ok()?;
        if call.jsonrpc != "2.0" || call.method != "tools/call" {
            return None;
        }
        let id = match &call.id {
            Value::Number(n) if n.is_i64() || n.is_u64() => n.to_string(),
            Value::String(s) => serde_json::to_string(s).ok()?,
            _ => return None,
        };
        let args = call
            .params
            .arguments
            .map(Value::Object)
            .unwrap_or(Value::Null);
        let key = Self::key(&call.params.name, &args);
        let kept = self.kept.lock().ok()?.get(&key).cloned()?;
        let now = (self.revision.get()?)()?;
        if kept.revision != now {
            return None;
        }
        let structured = kept.structured.as_deref();
        let mut out =
            Vec::with_capacity(kept.text.len() + structured.map_or(0, str::len) + id.len() + 128);
        out.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"id\":");
        out.extend_from_slice(id.as_bytes());
        out.extend_from_slice(b",\"result\":{\"content\":[{\"type\":\"text\",\"text\":");
        out.extend_from_slice(kept.text.as_bytes());
        out.extend_from_slice(b"}]");
        if let Some(s) = structured {
            out.extend_from_slice(b",\"structuredContent\":");
            out.extend_from_slice(s.as_bytes());
        }
        out.extend_from_slice(b",\"isError\":false}}");
        Some(out)
    }

    /// The key of a call: its tool and its arguments as sent.
    pub fn key(tool: &str, args: &Value) -> String {
        format!("{tool}\u{0}{args}")
    }

    /// The placeholder result of the answer kept for `key` at `revision`, if there is one.
    pub fn answer(&self, key: &str, revision: Revision) -> Option<CallToolResult> {
        let kept = self.kept.lock().ok()?.get(key).cloned()?;
        (kept.revision == revision).then(|| self.placeholder(kept))
    }

    /// Keeps `reply` as the answer to `key` at `revision` and returns its placeholder result;
    /// `None` (nothing kept) when the reply cannot be kept (an image).
    pub fn keep(&self, key: String, revision: Revision, reply: &Reply) -> Option<CallToolResult> {
        if reply.image_png_base64.is_some() {
            return None;
        }
        let kept = Arc::new(Kept {
            revision,
            text: serde_json::to_string(&reply.text).ok()?,
            structured: if reply.structured.is_null() {
                None
            } else {
                Some(serde_json::to_string(&reply.structured).ok()?)
            },
        });
        if let Ok(mut map) = self.kept.lock() {
            if map.len() >= CAPACITY && !map.contains_key(&key) {
                map.clear();
            }
            map.insert(key, kept.clone());
        }
        Some(self.placeholder(kept))
    }

    fn placeholder(&self, kept: Arc<Kept>) -> CallToolResult {
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        let has_structured = kept.structured.is_some();
        if let Ok(mut p) = self.pending.lock() {
            if p.len() >= PENDING_CAPACITY {
                p.clear();
            }
            p.insert(n, kept);
        }
        let mut result =
            CallToolResult::success(vec![ContentBlock::text(format!("{}:{n}:t", self.secret))]);
        if has_structured {
            result.structured_content = Some(Value::String(format!("{}:{n}:s", self.secret)));
        }
        result
    }

    /// Replaces the placeholders in a serialized message with the kept answers. A message
    /// without placeholders comes back unchanged.
    pub fn splice(&self, message: Vec<u8>) -> Vec<u8> {
        let needle = format!("\"{}:", self.secret);
        let Ok(text) = std::str::from_utf8(&message) else {
            return message;
        };
        if !text.contains(&needle) {
            return message;
        }
        let mut out = String::with_capacity(message.len() + 16 * 1024);
        let mut rest = text;
        while let Some(at) = rest.find(&needle) {
            out.push_str(&rest[..at]);
            let after = &rest[at + needle.len()..];
            // `N:t"` or `N:s"`.
            let Some(end) = after.find('"') else { break };
            let (n, kind) = after[..end].split_once(':').unwrap_or(("", ""));
            let kept = n.parse::<u64>().ok().and_then(|n| {
                let mut p = self.pending.lock().ok()?;
                // The text block comes first: keep the entry until its structured part is out.
                let done = kind == "s" || p.get(&n).is_some_and(|k| k.structured.is_none());
                if done {
                    p.remove(&n)
                } else {
                    p.get(&n).cloned()
                }
            });
            match (kept, kind) {
                (Some(k), "t") => out.push_str(&k.text),
                (Some(k), "s") => out.push_str(k.structured.as_deref().unwrap_or("null")),
                // Never expected: leave the message as it was rather than guess.
                _ => out.push_str(&rest[at..at + needle.len() + end + 1]),
            }
            rest = &after[end + 1..];
        }
        out.push_str(rest);
        out.into_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_without_placeholders_is_untouched() {
        let m = Memo::new();
        let msg = br#"{"jsonrpc":"2.0","id":1,"result":{"content":[]}}"#.to_vec();
        assert_eq!(m.splice(msg.clone()), msg);
    }
}
