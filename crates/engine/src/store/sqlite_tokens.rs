//! The SQL of access tokens (see `migrations/006_tokens.sql`).

use rusqlite::{Connection, OptionalExtension, Row, params};

use super::{CampaignId, StoreError, StoredToken};

const NOW: &str = "strftime('%Y-%m-%dT%H:%M:%fZ','now')";

const SELECT: &str = "SELECT t.id, t.campaign_id, c.name, t.role, t.character_id, t.secret_hash, \
     t.label, t.created_at FROM access_tokens t JOIN campaigns c ON c.id = t.campaign_id";

fn row(r: &Row<'_>) -> rusqlite::Result<StoredToken> {
    Ok(StoredToken {
        id: r.get(0)?,
        campaign: CampaignId(r.get(1)?),
        campaign_name: r.get(2)?,
        role: r.get(3)?,
        character_id: r.get(4)?,
        secret_hash: r.get(5)?,
        label: r.get(6)?,
        created_at: r.get(7)?,
    })
}

pub(super) fn put(conn: &Connection, t: &StoredToken) -> Result<(), StoreError> {
    conn.execute(
        &format!(
            "INSERT INTO access_tokens (id, campaign_id, role, character_id, secret_hash, label, created_at) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, {NOW})"
        ),
        params![
            t.id,
            t.campaign.0,
            t.role,
            t.character_id,
            t.secret_hash,
            t.label
        ],
    )?;
    Ok(())
}

pub(super) fn get(conn: &Connection, id: &str) -> Result<Option<StoredToken>, StoreError> {
    Ok(conn
        .prepare_cached(&format!("{SELECT} WHERE t.id = ?1"))?
        .query_row(params![id], row)
        .optional()?)
}

pub(super) fn list(
    conn: &Connection,
    campaign: Option<CampaignId>,
) -> Result<Vec<StoredToken>, StoreError> {
    let mut stmt = conn.prepare(&format!(
        "{SELECT} WHERE ?1 IS NULL OR t.campaign_id = ?1 ORDER BY t.created_at, t.id"
    ))?;
    let rows = stmt.query_map(params![campaign.map(|c| c.0)], row)?;
    Ok(rows.collect::<Result<_, _>>()?)
}

pub(super) fn delete(conn: &Connection, id: &str) -> Result<bool, StoreError> {
    Ok(conn.execute("DELETE FROM access_tokens WHERE id = ?1", params![id])? > 0)
}
