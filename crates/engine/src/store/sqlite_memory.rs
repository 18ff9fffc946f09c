//! The SQL of campaign memory: quests, NPCs, secrets and the world clock (see
//! `migrations/007_memory.sql`).

use rusqlite::{Connection, OptionalExtension, params};

use super::{CampaignId, StoreError};
use crate::model::memory::{MemoryKind, MemoryRecord, WorldClock};

const NOW: &str = "strftime('%Y-%m-%dT%H:%M:%fZ','now')";

fn table(kind: MemoryKind) -> &'static str {
    match kind {
        MemoryKind::Quest => "quests",
        MemoryKind::Npc => "npcs",
        MemoryKind::Secret => "secrets",
    }
}

fn corrupt(what: &str, e: impl std::fmt::Display) -> StoreError {
    StoreError::Corrupt {
        what: what.into(),
        detail: e.to_string(),
    }
}

fn decode(kind: MemoryKind, doc: &str) -> Result<MemoryRecord, StoreError> {
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

fn encode(r: &MemoryRecord) -> Result<String, StoreError> {
    let what = table(r.kind());
    match r {
        MemoryRecord::Quest(q) => serde_json::to_string(q),
        MemoryRecord::Npc(n) => serde_json::to_string(n),
        MemoryRecord::Secret(s) => serde_json::to_string(s),
    }
    .map_err(|e| corrupt(what, e))
}

pub(super) fn get(
    conn: &Connection,
    campaign: CampaignId,
    kind: MemoryKind,
    id: &str,
) -> Result<Option<MemoryRecord>, StoreError> {
    let doc: Option<String> = conn
        .prepare_cached(&format!(
            "SELECT doc FROM {} WHERE campaign_id = ?1 AND id = ?2",
            table(kind)
        ))?
        .query_row(params![campaign.0, id], |r| r.get(0))
        .optional()?;
    doc.as_deref().map(|d| decode(kind, d)).transpose()
}

pub(super) fn list(
    conn: &Connection,
    campaign: CampaignId,
    kind: MemoryKind,
    status: Option<&str>,
) -> Result<Vec<MemoryRecord>, StoreError> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT doc FROM {} WHERE campaign_id = ?1 AND (?2 IS NULL OR status = ?2)
         ORDER BY created_at, length(id), id",
        table(kind)
    ))?;
    let docs = stmt
        .query_map(params![campaign.0, status], |r| r.get::<_, String>(0))?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    docs.iter().map(|d| decode(kind, d)).collect()
}

pub(super) fn put(
    conn: &Connection,
    campaign: CampaignId,
    r: &MemoryRecord,
) -> Result<(), StoreError> {
    let doc = encode(r)?;
    conn.prepare_cached(&format!(
        "INSERT INTO {} (campaign_id, id, name, status, doc, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, {NOW}, {NOW})
         ON CONFLICT (campaign_id, id) DO UPDATE SET
           name = excluded.name, status = excluded.status, doc = excluded.doc,
           updated_at = excluded.updated_at",
        table(r.kind())
    ))?
    .execute(params![campaign.0, r.id(), r.name(), r.status(), doc])?;
    Ok(())
}

pub(super) fn delete(
    conn: &Connection,
    campaign: CampaignId,
    kind: MemoryKind,
    id: &str,
) -> Result<bool, StoreError> {
    Ok(conn.execute(
        &format!(
            "DELETE FROM {} WHERE campaign_id = ?1 AND id = ?2",
            table(kind)
        ),
        params![campaign.0, id],
    )? > 0)
}

pub(super) fn clock(
    conn: &Connection,
    campaign: CampaignId,
) -> Result<Option<WorldClock>, StoreError> {
    let doc: Option<String> = conn
        .prepare_cached("SELECT doc FROM world_clock WHERE campaign_id = ?1")?
        .query_row(params![campaign.0], |r| r.get(0))
        .optional()?;
    doc.as_deref()
        .map(|d| serde_json::from_str(d).map_err(|e| corrupt("world clock", e)))
        .transpose()
}

pub(super) fn set_clock(
    conn: &Connection,
    campaign: CampaignId,
    c: &WorldClock,
) -> Result<(), StoreError> {
    let doc = serde_json::to_string(c).map_err(|e| corrupt("world clock", e))?;
    let seconds = i64::try_from(c.seconds).unwrap_or(i64::MAX);
    conn.prepare_cached(
        "INSERT INTO world_clock (campaign_id, seconds, doc) VALUES (?1, ?2, ?3)
         ON CONFLICT (campaign_id) DO UPDATE SET seconds = excluded.seconds, doc = excluded.doc",
    )?
    .execute(params![campaign.0, seconds, doc])?;
    Ok(())
}
