//! Campaign memory records as stored documents: the table of each kind and the JSON both stores
//! (SQLite and PostgreSQL) write and read.

use super::StoreError;
use crate::model::memory::{MemoryKind, MemoryRecord};

pub(super) fn table(kind: MemoryKind) -> &'static str {
    match kind {
        MemoryKind::Quest => "quests",
        MemoryKind::Npc => "npcs",
        MemoryKind::Secret => "secrets",
    }
}

pub(super) fn corrupt(what: &str, e: impl std::fmt::Display) -> StoreError {
    StoreError::Corrupt {
        what: what.into(),
        detail: e.to_string(),
    }
}

pub(super) fn decode(kind: MemoryKind, doc: &str) -> Result<MemoryRecord, StoreError> {
    let what = table(kind);
    Ok(match kind {
        MemoryKind::Quest => {
            MemoryRecord::Quest(serde_json::from_str(doc).map_err(|e| corrupt(what, e))?)
        }
        MemoryKind::Npc => {
            MemoryRecord::Npc(serde_json::from_str(doc).map_err(|e| corrupt(what, e))?)
        }
        MemoryKind::Secret => {
            MemoryRecord::Secret(serde_json::from_str(doc).map_err(|e| corrupt(what, e))?)
        }
    })
}

pub(super) fn encode(r: &MemoryRecord) -> Result<String, StoreError> {
    let what = table(r.kind());
    match r {
        MemoryRecord::Quest(q) => serde_json::to_string(q),
        MemoryRecord::Npc(n) => serde_json::to_string(n),
        MemoryRecord::Secret(s) => serde_json::to_string(s),
    }
    .map_err(|e| corrupt(what, e))
}
