//! The SQL of campaign memory on PostgreSQL: quests, NPCs, secrets and the world clock (see
//! `migrations/postgres/007_memory.sql`); the same documents and order as the SQLite store.

use super::rows::NOW;
use super::tx::PgTx;
use crate::model::memory::{MemoryKind, MemoryRecord, WorldClock};
use crate::store::{CampaignId, StoreError};

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

impl PgTx<'_> {
    pub(super) fn memory_get(
        &self,
        campaign: CampaignId,
        kind: MemoryKind,
        id: &str,
    ) -> Result<Option<MemoryRecord>, StoreError> {
        let sql = format!(
            "SELECT doc FROM {} WHERE campaign_id = $1 AND id = $2",
            table(kind)
        );
        self.query_opt(&sql, &[&campaign.0, &id])?
            .map(|r| decode(kind, &r.get::<_, String>(0)))
            .transpose()
    }

    pub(super) fn memory_list(
        &self,
        campaign: CampaignId,
        kind: MemoryKind,
        status: Option<&str>,
    ) -> Result<Vec<MemoryRecord>, StoreError> {
        let sql = format!(
            "SELECT doc FROM {} WHERE campaign_id = $1 AND ($2::TEXT IS NULL OR status = $2)
             ORDER BY created_at COLLATE \"C\", length(id), id COLLATE \"C\"",
            table(kind)
        );
        self.docs(&sql, &[&campaign.0, &status])?
            .iter()
            .map(|d| decode(kind, d))
            .collect()
    }

    pub(super) fn memory_put(
        &self,
        campaign: CampaignId,
        r: &MemoryRecord,
    ) -> Result<(), StoreError> {
        let doc = encode(r)?;
        let sql = format!(
            "INSERT INTO {} (campaign_id, id, name, status, doc, created_at, updated_at)
             VALUES ($1, $2, $3, $4, $5, {NOW}, {NOW})
             ON CONFLICT (campaign_id, id) DO UPDATE SET
               name = excluded.name, status = excluded.status, doc = excluded.doc,
               updated_at = excluded.updated_at",
            table(r.kind())
        );
        self.exec(&sql, &[&campaign.0, &r.id(), &r.name(), &r.status(), &doc])?;
        Ok(())
    }

    pub(super) fn memory_delete(
        &self,
        campaign: CampaignId,
        kind: MemoryKind,
        id: &str,
    ) -> Result<bool, StoreError> {
        let sql = format!(
            "DELETE FROM {} WHERE campaign_id = $1 AND id = $2",
            table(kind)
        );
        Ok(self.exec(&sql, &[&campaign.0, &id])? > 0)
    }

    pub(super) fn clock_get(&self, campaign: CampaignId) -> Result<Option<WorldClock>, StoreError> {
        self.query_opt(
            "SELECT doc FROM world_clock WHERE campaign_id = $1",
            &[&campaign.0],
        )?
        .map(|r| {
            serde_json::from_str(&r.get::<_, String>(0)).map_err(|e| corrupt("world clock", e))
        })
        .transpose()
    }

    pub(super) fn clock_put(&self, campaign: CampaignId, c: &WorldClock) -> Result<(), StoreError> {
        let doc = serde_json::to_string(c).map_err(|e| corrupt("world clock", e))?;
        let seconds = i64::try_from(c.seconds).unwrap_or(i64::MAX);
        self.exec(
            "INSERT INTO world_clock (campaign_id, seconds, doc) VALUES ($1, $2, $3)
             ON CONFLICT (campaign_id) DO UPDATE SET seconds = excluded.seconds, doc = excluded.doc",
            &[&campaign.0, &seconds, &doc],
        )?;
        Ok(())
    }
}
