//! The embedded store: one SQLite file in WAL mode, migrations embedded in the binary.

use std::path::Path;

use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};
use rusqlite_migration::{M, Migrations};

use super::{CampaignId, CampaignInfo, StoreError, Transaction, Tx};
use crate::character::{Character, CharacterFilter};
use crate::event::{Event, EventDraft};

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> Self {
        StoreError::Database(e.to_string())
    }
}

fn corrupt(what: &str, e: impl std::fmt::Display) -> StoreError {
    StoreError::Corrupt {
        what: what.to_string(),
        detail: e.to_string(),
    }
}

const NOW: &str = "strftime('%Y-%m-%dT%H:%M:%fZ','now')";

fn migrations() -> Migrations<'static> {
    Migrations::new(vec![M::up(include_str!(
        "../../migrations/001_initial.sql"
    ))])
}

/// A [`super::Store`] on a SQLite file.
///
/// WAL journal with `synchronous = FULL`: a call that has answered has been committed to disk, so a
/// crash or a kill loses nothing that was answered.
pub struct SqliteStore {
    conn: Connection,
}

impl SqliteStore {
    /// Opens (or creates) the database at `path` and brings its schema up to date.
    pub fn open(path: &Path) -> Result<Self, StoreError> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| {
                StoreError::Database(format!(
                    "cannot create data directory {}: {e}",
                    dir.display()
                ))
            })?;
        }
        let conn = Connection::open(path)?;
        Self::configure(conn)
    }

    /// An in-memory store (tests and one-off `call`s that need no persistence).
    pub fn in_memory() -> Result<Self, StoreError> {
        Self::configure(Connection::open_in_memory()?)
    }

    fn configure(mut conn: Connection) -> Result<Self, StoreError> {
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        migrations()
            .to_latest(&mut conn)
            .map_err(|e| StoreError::Database(format!("migration failed: {e}")))?;
        Ok(Self { conn })
    }
}

impl super::Store for SqliteStore {
    type Txn<'a> = SqliteTx<'a>;

    fn begin(&mut self, write: bool) -> Result<SqliteTx<'_>, StoreError> {
        let behavior = if write {
            TransactionBehavior::Immediate
        } else {
            TransactionBehavior::Deferred
        };
        Ok(SqliteTx {
            tx: self.conn.transaction_with_behavior(behavior)?,
        })
    }
}

/// One SQLite transaction; rolled back on drop unless committed.
pub struct SqliteTx<'a> {
    tx: rusqlite::Transaction<'a>,
}

impl Transaction for SqliteTx<'_> {
    fn commit(self) -> Result<(), StoreError> {
        Ok(self.tx.commit()?)
    }
}

fn decode_character(doc: &str) -> Result<Character, StoreError> {
    serde_json::from_str(doc).map_err(|e| corrupt("character", e))
}

fn row_event(
    row: &rusqlite::Row<'_>,
) -> rusqlite::Result<(i64, String, String, String, String, String)> {
    Ok((
        row.get(0)?,
        row.get(1)?,
        row.get(2)?,
        row.get(3)?,
        row.get(4)?,
        row.get(5)?,
    ))
}

fn decode_event(
    (seq, at, tool, args, rolls, changes): (i64, String, String, String, String, String),
) -> Result<Event, StoreError> {
    Ok(Event {
        seq,
        at,
        tool,
        args: serde_json::from_str(&args).map_err(|e| corrupt("event args", e))?,
        rolls: serde_json::from_str(&rolls).map_err(|e| corrupt("event rolls", e))?,
        changes: serde_json::from_str(&changes).map_err(|e| corrupt("event changes", e))?,
    })
}

impl Tx for SqliteTx<'_> {
    fn ensure_campaign(&mut self, name: &str) -> Result<CampaignId, StoreError> {
        if let Some(id) = self.find_campaign(name)? {
            return Ok(id);
        }
        self.tx.execute(
            &format!("INSERT INTO campaigns (name, created_at) VALUES (?1, {NOW})"),
            params![name],
        )?;
        Ok(CampaignId(self.tx.last_insert_rowid()))
    }

    fn find_campaign(&self, name: &str) -> Result<Option<CampaignId>, StoreError> {
        Ok(self
            .tx
            .query_row(
                "SELECT id FROM campaigns WHERE name = ?1",
                params![name],
                |r| r.get(0),
            )
            .optional()?
            .map(CampaignId))
    }

    fn list_campaigns(&self) -> Result<Vec<CampaignInfo>, StoreError> {
        let mut stmt = self.tx.prepare(
            "SELECT c.name, c.created_at,
                    (SELECT COUNT(*) FROM characters WHERE campaign_id = c.id),
                    (SELECT COUNT(*) FROM events WHERE campaign_id = c.id)
             FROM campaigns c ORDER BY c.name",
        )?;
        let rows = stmt.query_map([], |r| {
            Ok(CampaignInfo {
                name: r.get(0)?,
                created_at: r.get(1)?,
                characters: r.get::<_, i64>(2)?.max(0) as u64,
                events: r.get::<_, i64>(3)?.max(0) as u64,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    fn delete_campaign(&mut self, name: &str) -> Result<bool, StoreError> {
        Ok(self
            .tx
            .execute("DELETE FROM campaigns WHERE name = ?1", params![name])?
            > 0)
    }

    fn rng_state(&self, campaign: CampaignId) -> Result<Option<String>, StoreError> {
        Ok(self
            .tx
            .query_row(
                "SELECT rng_state FROM campaigns WHERE id = ?1",
                params![campaign.0],
                |r| r.get(0),
            )
            .optional()?
            .flatten())
    }

    fn set_rng_state(&mut self, campaign: CampaignId, state: &str) -> Result<(), StoreError> {
        self.tx.execute(
            "UPDATE campaigns SET rng_state = ?2 WHERE id = ?1",
            params![campaign.0, state],
        )?;
        Ok(())
    }

    fn next_id(&mut self, campaign: CampaignId, kind: &str) -> Result<u64, StoreError> {
        let n: i64 = self.tx.query_row(
            "INSERT INTO counters (campaign_id, kind, next) VALUES (?1, ?2, 1)
             ON CONFLICT (campaign_id, kind) DO UPDATE SET next = next + 1
             RETURNING next",
            params![campaign.0, kind],
            |r| r.get(0),
        )?;
        Ok(n.max(1) as u64)
    }

    fn character(&self, campaign: CampaignId, id: &str) -> Result<Option<Character>, StoreError> {
        let doc: Option<String> = self
            .tx
            .prepare_cached("SELECT doc FROM characters WHERE campaign_id = ?1 AND id = ?2")?
            .query_row(params![campaign.0, id], |r| r.get(0))
            .optional()?;
        doc.as_deref().map(decode_character).transpose()
    }

    fn characters_named(
        &self,
        campaign: CampaignId,
        name: &str,
    ) -> Result<Vec<Character>, StoreError> {
        let mut stmt = self.tx.prepare_cached(
            "SELECT doc FROM characters WHERE campaign_id = ?1 AND name_key = ?2 ORDER BY id",
        )?;
        let docs = stmt
            .query_map(params![campaign.0, crate::character::name_key(name)], |r| {
                r.get::<_, String>(0)
            })?
            .collect::<Result<Vec<_>, _>>()?;
        docs.iter().map(|d| decode_character(d)).collect()
    }

    fn list_characters(
        &self,
        campaign: CampaignId,
        filter: &CharacterFilter,
        limit: usize,
        offset: usize,
    ) -> Result<(Vec<Character>, u64), StoreError> {
        let mut clauses = vec!["campaign_id = :campaign".to_string()];
        let mut args: Vec<(&str, Box<dyn rusqlite::ToSql>)> =
            vec![(":campaign", Box::new(campaign.0))];
        if let Some(kind) = filter.kind {
            clauses.push("kind = :kind".into());
            args.push((":kind", Box::new(kind.key())));
        }
        if let Some(class) = &filter.class {
            clauses.push("class_key = :class".into());
            args.push((":class", Box::new(crate::character::name_key(class))));
        }
        if let Some(min) = filter.min_level {
            clauses.push("level >= :min".into());
            args.push((":min", Box::new(min)));
        }
        if let Some(max) = filter.max_level {
            clauses.push("level <= :max".into());
            args.push((":max", Box::new(max)));
        }
        if let Some(name) = &filter.name {
            clauses.push("instr(name_key, :name) > 0".into());
            args.push((":name", Box::new(crate::character::name_key(name))));
        }
        if let Some(cond) = filter.has_condition {
            clauses.push(
                "EXISTS (SELECT 1 FROM json_each(doc, '$.conditions') \
                 WHERE json_extract(value, '$.condition') = :cond)"
                    .into(),
            );
            args.push((":cond", Box::new(cond.key())));
        }
        let wh = clauses.join(" AND ");
        let params: Vec<(&str, &dyn rusqlite::ToSql)> =
            args.iter().map(|(k, v)| (*k, v.as_ref())).collect();
        let total: i64 = self.tx.query_row(
            &format!("SELECT COUNT(*) FROM characters WHERE {wh}"),
            params.as_slice(),
            |r| r.get(0),
        )?;
        let mut stmt = self.tx.prepare_cached(&format!(
            "SELECT doc FROM characters WHERE {wh} ORDER BY name_key, id LIMIT {} OFFSET {}",
            limit.min(i64::MAX as usize),
            offset.min(i64::MAX as usize)
        ))?;
        let docs = stmt
            .query_map(params.as_slice(), |r| r.get::<_, String>(0))?
            .collect::<Result<Vec<_>, _>>()?;
        let list = docs
            .iter()
            .map(|d| decode_character(d))
            .collect::<Result<_, _>>()?;
        Ok((list, total.max(0) as u64))
    }

    fn character_names(&self, campaign: CampaignId) -> Result<Vec<(String, String)>, StoreError> {
        let mut stmt = self.tx.prepare_cached(
            "SELECT id, name FROM characters WHERE campaign_id = ?1 ORDER BY name_key",
        )?;
        let rows = stmt.query_map(params![campaign.0], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    fn put_character(&mut self, campaign: CampaignId, c: &Character) -> Result<(), StoreError> {
        let doc = serde_json::to_string(c).map_err(|e| corrupt("character", e))?;
        self.tx
            .prepare_cached(&format!(
                "INSERT INTO characters (campaign_id, id, name, name_key, kind, class_key, level, doc, created_at, updated_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, {NOW}, {NOW})
                 ON CONFLICT (campaign_id, id) DO UPDATE SET
                   name = excluded.name, name_key = excluded.name_key, kind = excluded.kind,
                   class_key = excluded.class_key, level = excluded.level, doc = excluded.doc,
                   updated_at = excluded.updated_at"
            ))?
            .execute(params![
                campaign.0,
                c.id,
                c.name,
                crate::character::name_key(&c.name),
                c.kind.key(),
                c.class.as_deref().map(crate::character::name_key),
                c.level,
                doc
            ])?;
        Ok(())
    }

    fn delete_character(&mut self, campaign: CampaignId, id: &str) -> Result<bool, StoreError> {
        Ok(self.tx.execute(
            "DELETE FROM characters WHERE campaign_id = ?1 AND id = ?2",
            params![campaign.0, id],
        )? > 0)
    }

    fn append_event(&mut self, campaign: CampaignId, e: &EventDraft) -> Result<i64, StoreError> {
        let enc = |v: &dyn erased::Json| v.to_json().map_err(|err| corrupt("event", err));
        self.tx
            .prepare_cached(&format!(
                "INSERT INTO events (campaign_id, at, tool, args, rolls, changes)
                 VALUES (?1, {NOW}, ?2, ?3, ?4, ?5)"
            ))?
            .execute(params![
                campaign.0,
                e.tool,
                enc(&e.args)?,
                enc(&e.rolls)?,
                enc(&e.changes)?
            ])?;
        Ok(self.tx.last_insert_rowid())
    }

    fn recent_events(&self, campaign: CampaignId, limit: usize) -> Result<Vec<Event>, StoreError> {
        let mut stmt = self.tx.prepare_cached(
            "SELECT seq, at, tool, args, rolls, changes FROM events
             WHERE campaign_id = ?1 ORDER BY seq DESC LIMIT ?2",
        )?;
        let rows = stmt
            .query_map(
                params![campaign.0, limit.min(i64::MAX as usize) as i64],
                row_event,
            )?
            .collect::<Result<Vec<_>, _>>()?;
        rows.into_iter().map(decode_event).collect()
    }

    fn all_events(&self, campaign: CampaignId) -> Result<Vec<Event>, StoreError> {
        let mut stmt = self.tx.prepare_cached(
            "SELECT seq, at, tool, args, rolls, changes FROM events WHERE campaign_id = ?1 ORDER BY seq",
        )?;
        let rows = stmt
            .query_map(params![campaign.0], row_event)?
            .collect::<Result<Vec<_>, _>>()?;
        rows.into_iter().map(decode_event).collect()
    }

    fn import_event(&mut self, campaign: CampaignId, e: &Event) -> Result<(), StoreError> {
        let enc = |v: &dyn erased::Json| v.to_json().map_err(|err| corrupt("event", err));
        self.tx.execute(
            "INSERT INTO events (campaign_id, at, tool, args, rolls, changes) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![campaign.0, e.at, e.tool, enc(&e.args)?, enc(&e.rolls)?, enc(&e.changes)?],
        )?;
        Ok(())
    }
}

/// A tiny object-safe JSON encoder so closures can take any serializable field.
mod erased {
    pub trait Json {
        fn to_json(&self) -> Result<String, serde_json::Error>;
    }
    impl<T: serde::Serialize> Json for T {
        fn to_json(&self) -> Result<String, serde_json::Error> {
            serde_json::to_string(self)
        }
    }
}
