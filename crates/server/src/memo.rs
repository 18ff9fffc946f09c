//! Answers of read-only calls, kept while the campaign does not change, and spliced into the
//! outgoing message by the transport.
//!
//! A read-only tool's answer is a function of its arguments and of the state the engine reads.
//! [`tabletop_engine::Revision`] says whether that state moved: a commit through this engine or
//! through any other connection to the store (another process included), or the SRD finishing
//! its load. The memo keeps the last answers, each serialized once; the same call at the same
//! revision is answered from them without running the use case again.
//!
//! The kept answer is not rebuilt as a [`serde_json::Value`] either. On the transport's direct
//! path ([`crate::direct`]) it is written as it is into the response; on the SDK path the tool
//! result carries two placeholder strings (a per-process secret, a number, `t` or `s`) and the
//! transport ([`crate::stdio::LineTransport`]) replaces them, in the serialized message, with the
//! kept text and structured content. Only a transport that splices may be given a memo.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use rmcp::model::{CallToolResult, ContentBlock};
use serde_json::Value;
use tabletop_engine::Revision;

use crate::reply::Reply;

/// Answers kept at most; past it the memo starts over (a read is cheap to redo once).
const CAPACITY: usize = 64;
/// Placeholders handed out and not yet spliced, at most (a result never sent is forgotten).
const PENDING_CAPACITY: usize = 256;

/// One kept answer, serialized.
#[derive(Debug)]
pub struct Kept {
    /// The revision it was made at; `None` for a one-off answer that is only spliced.
    revision: Option<Revision>,
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
}

impl std::fmt::Debug for Memo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Memo")
            .field("kept", &self.kept.lock().map(|k| k.len()).unwrap_or(0))
            .finish_non_exhaustive()
    }
}

/// A plain `tools/call` request, read: its id as JSON text and its memo key.
pub struct PlainCall {
    /// The request id as it goes back in the response (a number or a JSON string).
    pub id: String,
    /// [`Memo::key`] of the call.
    pub key: String,
}

impl PlainCall {
    /// `message` when it is a `tools/call` request in its plainest form (`jsonrpc`, `id`,
    /// `method`, `params` with `name` and `arguments` only, see [`crate::direct::read`]);
    /// `None` otherwise.
    pub fn read(message: &[u8]) -> Option<Self> {
        let call = crate::direct::read(message)?;
        let args = crate::direct::arguments(call.arguments)?;
        Some(Self {
            key: Memo::key(&call.name, &args),
            id: call.id,
        })
    }
}

impl Kept {
    /// The text block, as a JSON string literal (quotes included).
    pub fn text_json(&self) -> &str {
        &self.text
    }

    /// The structured content as JSON, if the answer has one.
    pub fn structured_json(&self) -> Option<&str> {
        self.structured.as_deref()
    }
}

impl Memo {
    /// An empty memo.
    pub fn new() -> Arc<Self> {
        Arc::new(Self {
            secret: format!("tabletop-memo-{:032x}", rand::random::<u128>()),
            kept: Mutex::default(),
            pending: Mutex::default(),
            next: AtomicU64::new(1),
        })
    }

    /// The key of a call: its tool and its arguments as sent.
    pub fn key(tool: &str, args: &Value) -> String {
        format!("{tool}\u{0}{args}")
    }

    /// The key of a call whose arguments are given as JSON text (`null` for none). The same
    /// call sent with other spacing or key order has another key: it is not found, never
    /// mistaken for another call.
    pub fn key_text(tool: &str, args_json: &str) -> String {
        let mut key = String::with_capacity(tool.len() + 1 + args_json.len());
        key.push_str(tool);
        key.push('\u{0}');
        key.push_str(args_json);
        key
    }

    /// The answer kept for `key` at `revision`, if there is one.
    pub fn kept(&self, key: &str, revision: Revision) -> Option<Arc<Kept>> {
        let kept = self.kept.lock().ok()?.get(key).cloned()?;
        (kept.revision == Some(revision)).then_some(kept)
    }

    /// Keeps `reply` as the answer to `key` at `revision` and returns it; `None` (nothing
    /// kept) when the reply cannot be kept (an image).
    pub fn keep(&self, key: String, revision: Revision, reply: &Reply) -> Option<Arc<Kept>> {
        let kept = Arc::new(Self::serialized(Some(revision), reply)?);
        if let Ok(mut map) = self.kept.lock() {
            if map.len() >= CAPACITY && !map.contains_key(&key) {
                map.clear();
            }
            map.insert(key, kept.clone());
        }
        Some(kept)
    }

    /// The placeholder result of a one-off answer (a write's, a first read's): its JSON goes
    /// out as the tool serialized it. `None` when it cannot be spliced (an image).
    pub fn wrap(&self, reply: &Reply) -> Option<CallToolResult> {
        Some(self.placeholder(Arc::new(Self::serialized(None, reply)?)))
    }

    fn serialized(revision: Option<Revision>, reply: &Reply) -> Option<Kept> {
        if reply.image_png_base64.is_some() {
            return None;
        }
        Some(Kept {
            revision,
            text: serde_json::to_string(&reply.text).ok()?,
            structured: reply.structured_json().map(|s| s.into_owned()),
        })
    }

    /// The result the SDK path sends for `kept`: placeholders that [`Memo::splice`] replaces
    /// with the kept text and structured content.
    pub fn placeholder(&self, kept: Arc<Kept>) -> CallToolResult {
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
