//! The embedded store: one SQLite file in WAL mode, migrations embedded in the binary.

use std::path::Path;

use rusqlite::{Connection, OptionalExtension, params};
use rusqlite_migration::{M, Migrations};

mod cached;
mod docs;
mod events;
mod known_rows;
mod parties;
mod rows;

use super::decoded::Written;
use super::{CampaignId, CampaignInfo, Durability, StoreError, Transaction, Tx};
use crate::model::character::{Character, CharacterFilter};
use crate::model::encounter::{Encounter, EncounterStatus};
use crate::model::event::{Event, EventDraft};
use crate::model::memory::{MemoryKind, MemoryRecord, WorldClock};
use crate::model::names::name_key;
use crate::model::notes::{Note, NoteFilter, NoteOrder, ScoredNote};
use crate::model::party::Party;
use crate::model::travel::TravelEntry;
use crate::model::world::{Connection as WorldConnection, Location};
use rows::{
    NOTE_COLUMNS, clamp, decode, decode_character, decode_note, encode, fts_query, note_filter_sql,
    row_note,
};

const NOW: &str = "strftime('%Y-%m-%dT%H:%M:%fZ','now')";

fn migrations() -> Migrations<'static> {
    Migrations::new(vec![
        M::up(include_str!("../../migrations/001_initial.sql")),
        M::up(include_str!("../../migrations/002_world.sql")),
        M::up(include_str!("../../migrations/003_encounters.sql")),
        M::up(include_str!("../../migrations/004_list_index.sql")),
        M::up(include_str!("../../migrations/005_campaign_ids.sql")),
        M::up(include_str!("../../migrations/006_tokens.sql")),
        M::up(include_str!("../../migrations/007_memory.sql")),
        M::up(include_str!("../../migrations/008_event_seq.sql")),
        M::up(include_str!("../../migrations/009_character_sheets.sql")),
        M::up(include_str!("../../migrations/010_event_rng.sql")),
        M::up(include_str!("../../migrations/011_event_marks.sql")),
    ])
}

/// A [`super::Store`] on a SQLite file.
///
/// WAL journal; `synchronous = NORMAL` by default ([`Durability::Process`]: a call that has
/// answered survives any crash or kill of the process) or `FULL` ([`Durability::Power`]: it
/// survives a power loss too).
pub struct SqliteStore {
    conn: Connection,
    /// Characters decoded from their stored text (see [`super::decoded`]).
    decoded: super::decoded::Decoded,
    /// The dice stream's state as this connection's last commit left it (`sqlite/events.rs`).
    known_stream: Option<events::KnownStream>,
    /// The newest event as this connection's last commit left it (`sqlite/events.rs`).
    known_newest: Option<events::KnownNewest>,
    /// Character rows a write transaction takes without reading them (`sqlite/known_rows.rs`).
    known_rows: std::cell::RefCell<known_rows::KnownRows>,
    /// This connection's changes to the character tables, counted by hooks.
    changes: known_rows::Changes,
}

impl SqliteStore {
    /// Opens (or creates) the database at `path` with the default durability
    /// ([`Durability::Process`]) and brings its schema up to date.
    pub fn open(path: &Path) -> Result<Self, StoreError> {
        Self::open_with(path, Durability::default())
    }

    /// Opens (or creates) the database at `path` with `durability`.
    pub fn open_with(path: &Path, durability: Durability) -> Result<Self, StoreError> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| {
                StoreError::Database(format!(
                    "cannot create data directory {}: {e}",
                    dir.display()
                ))
            })?;
        }
        let conn = Connection::open(path)?;
        Self::configure(conn, durability)
    }

    /// An in-memory store (tests and one-off `call`s that need no persistence).
    pub fn in_memory() -> Result<Self, StoreError> {
        Self::configure(Connection::open_in_memory()?, Durability::default())
    }

    fn configure(mut conn: Connection, durability: Durability) -> Result<Self, StoreError> {
        conn.pragma_update(None, "journal_mode", "WAL")?;
        // In WAL mode NORMAL writes every commit to the WAL file before COMMIT returns (so the
        // OS holds it whatever happens to the process) and syncs at checkpoints; FULL also syncs
        // the WAL on every commit.
        let sync = match durability {
            Durability::Process => "NORMAL",
            Durability::Power => "FULL",
        };
        conn.pragma_update(None, "synchronous", sync)?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.busy_timeout(super::error::BUSY_TIMEOUT)?;
        // Room for every statement the store prepares (one per filter combination for lists).
        conn.set_prepared_statement_cache_capacity(128);
        migrations()
            .to_latest(&mut conn)
            .map_err(|e| StoreError::Database(format!("migration failed: {e}")))?;
        let changes = known_rows::count_changes(&conn)?;
        Ok(Self {
            conn,
            decoded: Default::default(),
            known_stream: None,
            known_newest: None,
            known_rows: Default::default(),
            changes,
        })
    }
}

impl super::Store for SqliteStore {
    type Txn<'a> = SqliteTx<'a>;

    fn begin(&mut self, write: bool) -> Result<SqliteTx<'_>, StoreError> {
        // BEGIN/COMMIT/ROLLBACK run as cached prepared statements: a read-only call is a
        // handful of microseconds cheaper than re-parsing them on every call.
        if !self.conn.is_autocommit() {
            // A transaction left open by a failed rollback: end it before starting anew.
            self.conn.prepare_cached("ROLLBACK")?.execute([])?;
        }
        let begin = if write {
            "BEGIN IMMEDIATE"
        } else {
            "BEGIN DEFERRED"
        };
        self.conn.prepare_cached(begin)?.execute([])?;
        Ok(SqliteTx {
            tx: &self.conn,
            open: true,
            decoded: &self.decoded,
            pending_rng: None,
            write,
            data_version: std::cell::Cell::new(None),
            known_stream: &mut self.known_stream,
            stream_written: events::StreamWrite::None,
            known_newest: &mut self.known_newest,
            newest: events::Newest::Remembered,
            sheets: docs::KnownSheets::default(),
            known_rows: &self.known_rows,
            changes: &self.changes,
        })
    }

    fn data_version(&mut self) -> Option<u64> {
        let v = self
            .conn
            .prepare_cached("PRAGMA data_version")
            .and_then(|mut s| s.query_row([], |r| r.get::<_, i64>(0)));
        v.ok().and_then(|v| u64::try_from(v).ok())
    }
}

/// One SQLite transaction; rolled back on drop unless committed.
pub struct SqliteTx<'a> {
    tx: &'a Connection,
    /// Whether COMMIT or ROLLBACK is still due.
    open: bool,
    decoded: &'a super::decoded::Decoded,
    /// A dice stream state waiting for its campaign's next event (see `sqlite/events.rs`).
    pending_rng: Option<(CampaignId, String)>,
    /// Whether this is a write transaction (no other connection commits while it lasts).
    write: bool,
    /// The data version of a write transaction, read when first needed (`sqlite/events.rs`).
    data_version: std::cell::Cell<Option<i64>>,
    /// The store's [`events::KnownStream`], renewed by a commit.
    known_stream: &'a mut Option<events::KnownStream>,
    /// What this transaction did to a dice stream.
    stream_written: events::StreamWrite,
    /// The store's [`events::KnownNewest`], renewed by a commit.
    known_newest: &'a mut Option<events::KnownNewest>,
    /// What this transaction knows of the newest event.
    newest: events::Newest,
    /// The sheet rows this write transaction read or wrote (see `sqlite/docs.rs`).
    sheets: docs::KnownSheets,
    /// The store's remembered character rows (see `sqlite/known_rows.rs`).
    known_rows: &'a std::cell::RefCell<known_rows::KnownRows>,
    /// The store's count of changes to the character tables.
    changes: &'a std::sync::atomic::AtomicU64,
}

impl Transaction for SqliteTx<'_> {
    fn commit(mut self) -> Result<(), StoreError> {
        self.flush_stream_state()?;
        let remember = self.stream_to_remember()?;
        let newest = self.newest_to_remember()?;
        self.open = false;
        let done = self.tx.prepare_cached("COMMIT")?.execute([]);
        if done.is_err() && !self.tx.is_autocommit() {
            let _ = self
                .tx
                .prepare_cached("ROLLBACK")
                .and_then(|mut s| s.execute([]));
        }
        done?;
        if let Some(known) = remember {
            *self.known_stream = known;
        }
        if let Some(known) = newest {
            *self.known_newest = known;
        }
        Ok(())
    }
}

impl Drop for SqliteTx<'_> {
    fn drop(&mut self) {
        if self.open && !self.tx.is_autocommit() {
            // Nothing to report to: the next `begin` ends a transaction this leaves open.
            let _ = self
                .tx
                .prepare_cached("ROLLBACK")
                .and_then(|mut s| s.execute([]));
        }
    }
}

impl Tx for SqliteTx<'_> {
    fn ensure_campaign(&mut self, name: &str) -> Result<CampaignId, StoreError> {
        if let Some(id) = self.find_campaign(name)? {
            return Ok(id);
        }
        // Past every id ever handed out (the mark) and every id present: never a reused id.
        let id: i64 = self.query_row(
            "UPDATE campaign_ids SET last = max(last, (SELECT COALESCE(MAX(id), 0) FROM campaigns)) + 1
             RETURNING last",
            [],
            |r| r.get(0),
        )?;
        self.execute(
            &format!("INSERT INTO campaigns (id, name, created_at) VALUES (?1, ?2, {NOW})"),
            params![id, name],
        )?;
        Ok(CampaignId(id))
    }

    fn campaign_exists(&self, campaign: CampaignId) -> Result<bool, StoreError> {
        Ok(self
            .tx
            .prepare_cached("SELECT 1 FROM campaigns WHERE id = ?1")?
            .query_row(params![campaign.0], |_| Ok(()))
            .optional()?
            .is_some())
    }

    fn find_campaign(&self, name: &str) -> Result<Option<CampaignId>, StoreError> {
        Ok(self
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
                    c.id
             FROM campaigns c ORDER BY c.name",
        )?;
        let rows = stmt
            .query_map([], |r| {
                Ok((
                    CampaignInfo {
                        name: r.get(0)?,
                        created_at: r.get(1)?,
                        characters: r.get::<_, i64>(2)?.max(0) as u64,
                        events: 0,
                    },
                    r.get::<_, i64>(3)?,
                ))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        rows.into_iter()
            .map(|(mut info, id)| {
                info.events = self.event_count(CampaignId(id))?;
                Ok(info)
            })
            .collect()
    }

    fn memory(
        &self,
        c: CampaignId,
        k: MemoryKind,
        id: &str,
    ) -> Result<Option<MemoryRecord>, StoreError> {
        super::sqlite_memory::get(self.tx, c, k, id)
    }

    fn memories(
        &self,
        c: CampaignId,
        k: MemoryKind,
        status: Option<&str>,
    ) -> Result<Vec<MemoryRecord>, StoreError> {
        super::sqlite_memory::list(self.tx, c, k, status)
    }

    fn put_memory(&mut self, c: CampaignId, r: &MemoryRecord) -> Result<(), StoreError> {
        super::sqlite_memory::put(self.tx, c, r)
    }

    fn delete_memory(
        &mut self,
        c: CampaignId,
        k: MemoryKind,
        id: &str,
    ) -> Result<bool, StoreError> {
        super::sqlite_memory::delete(self.tx, c, k, id)
    }

    fn clock(&self, c: CampaignId) -> Result<Option<WorldClock>, StoreError> {
        super::sqlite_memory::clock(self.tx, c)
    }

    fn set_clock(&mut self, c: CampaignId, clock: &WorldClock) -> Result<(), StoreError> {
        super::sqlite_memory::set_clock(self.tx, c, clock)
    }

    fn put_token(&mut self, token: &super::StoredToken) -> Result<(), StoreError> {
        super::sqlite_tokens::put(self.tx, token)
    }

    fn token(&self, id: &str) -> Result<Option<super::StoredToken>, StoreError> {
        super::sqlite_tokens::get(self.tx, id)
    }

    fn list_tokens(
        &self,
        campaign: Option<CampaignId>,
    ) -> Result<Vec<super::StoredToken>, StoreError> {
        super::sqlite_tokens::list(self.tx, campaign)
    }

    fn delete_token(&mut self, id: &str) -> Result<bool, StoreError> {
        super::sqlite_tokens::delete(self.tx, id)
    }

    fn delete_campaign(&mut self, name: &str) -> Result<bool, StoreError> {
        self.sheets.forget();
        // The campaign's events go, and the floor of event numbers may rise.
        self.newest = events::Newest::Unknown;
        Ok(self.execute("DELETE FROM campaigns WHERE name = ?1", params![name])? > 0)
    }

    fn rng_state(&self, campaign: CampaignId) -> Result<Option<String>, StoreError> {
        self.stream_state(campaign)
    }

    fn set_rng_state(&mut self, campaign: CampaignId, state: &str) -> Result<(), StoreError> {
        self.keep_stream_state(campaign, state)
    }

    fn next_id(&mut self, campaign: CampaignId, kind: &str) -> Result<u64, StoreError> {
        let n: i64 = self.query_row(
            "INSERT INTO counters (campaign_id, kind, next) VALUES (?1, ?2, 1)
             ON CONFLICT (campaign_id, kind) DO UPDATE SET next = next + 1
             RETURNING next",
            params![campaign.0, kind],
            |r| r.get(0),
        )?;
        Ok(n.max(1) as u64)
    }

    fn advance_id(
        &mut self,
        campaign: CampaignId,
        kind: &str,
        past: u64,
    ) -> Result<(), StoreError> {
        let past = i64::try_from(past).unwrap_or(i64::MAX);
        self.execute(
            "INSERT INTO counters (campaign_id, kind, next) VALUES (?1, ?2, ?3)
             ON CONFLICT (campaign_id, kind) DO UPDATE SET next = max(next, excluded.next)",
            params![campaign.0, kind, past],
        )?;
        Ok(())
    }

    fn character(&self, campaign: CampaignId, id: &str) -> Result<Option<Character>, StoreError> {
        self.character_row(campaign, id, &mut |t| {
            self.decoded.character(t, decode_character)
        })
    }

    fn characters_named(
        &self,
        campaign: CampaignId,
        name: &str,
    ) -> Result<Vec<Character>, StoreError> {
        self.character_rows_named(campaign, name, &mut |t| {
            self.decoded.character(t, decode_character)
        })
    }

    fn character_resolved(
        &self,
        campaign: CampaignId,
        id: &str,
        key: u64,
        resolve: &mut dyn FnMut(&mut Character),
    ) -> Result<Option<Character>, StoreError> {
        self.character_row(campaign, id, &mut |t| {
            self.decoded.resolved(t, key, decode_character, resolve)
        })
    }

    fn characters_named_resolved(
        &self,
        campaign: CampaignId,
        name: &str,
        key: u64,
        resolve: &mut dyn FnMut(&mut Character),
    ) -> Result<Vec<Character>, StoreError> {
        self.character_rows_named(campaign, name, &mut |t| {
            self.decoded.resolved(t, key, decode_character, resolve)
        })
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
            args.push((":class", Box::new(crate::model::names::name_key(class))));
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
            args.push((":name", Box::new(crate::model::names::name_key(name))));
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
        let total: i64 = self.query_row(
            &format!("SELECT COUNT(*) FROM characters WHERE {wh}"),
            params.as_slice(),
            |r| r.get(0),
        )?;
        // The page is chosen from the covering name index (no documents sorted or skipped),
        // then only its rows' documents are read.
        // Limit and offset are bound, so every page reuses one cached statement.
        let mut stmt = self.tx.prepare_cached(&format!(
            "SELECT c.doc, s.derived, c.id FROM characters c JOIN (
                 SELECT rowid AS r FROM characters WHERE {wh}
                 ORDER BY name_key, id LIMIT :limit OFFSET :offset
             ) page ON c.rowid = page.r
             LEFT JOIN character_sheets s ON s.campaign_id = c.campaign_id AND s.id = c.id
             ORDER BY c.name_key, c.id"
        ))?;
        let (limit, offset) = (clamp(limit), clamp(offset));
        let mut params = params;
        params.push((":limit", &limit));
        params.push((":offset", &offset));
        let list = self.collect(
            campaign,
            stmt.query(params.as_slice())?,
            &mut |t| self.decoded.character(t, decode_character),
            None,
        )?;
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
        self.put_character_rows(campaign, Written::Copy(c), None)
    }

    fn put_character_doc(
        &mut self,
        campaign: CampaignId,
        c: &std::sync::Arc<Character>,
        doc: &crate::model::doc_state::Document,
    ) -> Result<(), StoreError> {
        self.put_character_rows(campaign, Written::Shared(c), Some(doc))
    }

    fn delete_character(&mut self, campaign: CampaignId, id: &str) -> Result<bool, StoreError> {
        self.sheets.forget();
        Ok(self.execute(
            "DELETE FROM characters WHERE campaign_id = ?1 AND id = ?2",
            params![campaign.0, id],
        )? > 0)
    }

    fn append_event(&mut self, campaign: CampaignId, e: &EventDraft) -> Result<i64, StoreError> {
        self.append_event_row(campaign, e)
    }

    fn recent_events(&self, campaign: CampaignId, limit: usize) -> Result<Vec<Event>, StoreError> {
        self.event_rows(campaign, Some(limit))
    }

    fn all_events(&self, campaign: CampaignId) -> Result<Vec<Event>, StoreError> {
        self.event_rows(campaign, None)
    }

    fn import_event(&mut self, campaign: CampaignId, e: &Event) -> Result<(), StoreError> {
        self.import_event_row(campaign, e)
    }

    fn location(&self, campaign: CampaignId, id: &str) -> Result<Option<Location>, StoreError> {
        let doc: Option<String> = self
            .tx
            .prepare_cached("SELECT doc FROM locations WHERE campaign_id = ?1 AND id = ?2")?
            .query_row(params![campaign.0, id], |r| r.get(0))
            .optional()?;
        doc.as_deref().map(|d| decode("location", d)).transpose()
    }

    fn locations_named(
        &self,
        campaign: CampaignId,
        name: &str,
    ) -> Result<Vec<Location>, StoreError> {
        let mut stmt = self.tx.prepare_cached(
            "SELECT doc FROM locations WHERE campaign_id = ?1 AND name_key = ?2 ORDER BY id",
        )?;
        let docs = stmt
            .query_map(params![campaign.0, name_key(name)], |r| {
                r.get::<_, String>(0)
            })?
            .collect::<Result<Vec<_>, _>>()?;
        docs.iter().map(|d| decode("location", d)).collect()
    }

    fn location_names(&self, campaign: CampaignId) -> Result<Vec<(String, String)>, StoreError> {
        let mut stmt = self.tx.prepare_cached(
            "SELECT id, name FROM locations WHERE campaign_id = ?1 ORDER BY name_key, id",
        )?;
        let rows = stmt.query_map(params![campaign.0], |r| Ok((r.get(0)?, r.get(1)?)))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    fn list_locations(
        &self,
        campaign: CampaignId,
        limit: usize,
        offset: usize,
    ) -> Result<(Vec<Location>, u64), StoreError> {
        let total: i64 = self.query_row(
            "SELECT COUNT(*) FROM locations WHERE campaign_id = ?1",
            params![campaign.0],
            |r| r.get(0),
        )?;
        let mut stmt = self.tx.prepare_cached(
            "SELECT doc FROM locations WHERE campaign_id = ?1 ORDER BY name_key, id LIMIT ?2 OFFSET ?3",
        )?;
        let docs = stmt
            .query_map(params![campaign.0, clamp(limit), clamp(offset)], |r| {
                r.get::<_, String>(0)
            })?
            .collect::<Result<Vec<_>, _>>()?;
        let list = docs
            .iter()
            .map(|d| decode("location", d))
            .collect::<Result<_, _>>()?;
        Ok((list, total.max(0) as u64))
    }

    fn put_location(&mut self, campaign: CampaignId, l: &Location) -> Result<(), StoreError> {
        let doc = encode("location", l)?;
        self.tx
            .prepare_cached(&format!(
                "INSERT INTO locations (campaign_id, id, name, name_key, doc, created_at, updated_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, {NOW}, {NOW})
                 ON CONFLICT (campaign_id, id) DO UPDATE SET
                   name = excluded.name, name_key = excluded.name_key, doc = excluded.doc,
                   updated_at = excluded.updated_at"
            ))?
            .execute(params![campaign.0, l.id, l.name, name_key(&l.name), doc])?;
        Ok(())
    }

    fn delete_location(&mut self, campaign: CampaignId, id: &str) -> Result<bool, StoreError> {
        self.execute(
            "DELETE FROM connections WHERE campaign_id = ?1 AND (from_id = ?2 OR to_id = ?2)",
            params![campaign.0, id],
        )?;
        Ok(self.execute(
            "DELETE FROM locations WHERE campaign_id = ?1 AND id = ?2",
            params![campaign.0, id],
        )? > 0)
    }

    fn connection(
        &self,
        campaign: CampaignId,
        id: &str,
    ) -> Result<Option<WorldConnection>, StoreError> {
        let doc: Option<String> = self
            .tx
            .prepare_cached("SELECT doc FROM connections WHERE campaign_id = ?1 AND id = ?2")?
            .query_row(params![campaign.0, id], |r| r.get(0))
            .optional()?;
        doc.as_deref().map(|d| decode("connection", d)).transpose()
    }

    fn connections_of(
        &self,
        campaign: CampaignId,
        location: &str,
    ) -> Result<Vec<WorldConnection>, StoreError> {
        let mut stmt = self.tx.prepare_cached(
            "SELECT doc FROM connections WHERE campaign_id = ?1 AND (from_id = ?2 OR to_id = ?2)
             ORDER BY length(id), id",
        )?;
        let docs = stmt
            .query_map(params![campaign.0, location], |r| r.get::<_, String>(0))?
            .collect::<Result<Vec<_>, _>>()?;
        docs.iter().map(|d| decode("connection", d)).collect()
    }

    fn put_connection(
        &mut self,
        campaign: CampaignId,
        c: &WorldConnection,
    ) -> Result<(), StoreError> {
        let doc = encode("connection", c)?;
        self.tx
            .prepare_cached(
                "INSERT INTO connections (campaign_id, id, from_id, to_id, doc)
                 VALUES (?1, ?2, ?3, ?4, ?5)
                 ON CONFLICT (campaign_id, id) DO UPDATE SET
                   from_id = excluded.from_id, to_id = excluded.to_id, doc = excluded.doc",
            )?
            .execute(params![campaign.0, c.id, c.from, c.to, doc])?;
        Ok(())
    }

    fn delete_connection(&mut self, campaign: CampaignId, id: &str) -> Result<bool, StoreError> {
        Ok(self.execute(
            "DELETE FROM connections WHERE campaign_id = ?1 AND id = ?2",
            params![campaign.0, id],
        )? > 0)
    }

    fn party(&self, campaign: CampaignId, id: &str) -> Result<Option<Party>, StoreError> {
        Ok(self.parties_where(campaign, Some(id))?.into_iter().next())
    }

    fn list_parties(&self, campaign: CampaignId) -> Result<Vec<Party>, StoreError> {
        self.parties_where(campaign, None)
    }

    fn party_of_character(
        &self,
        campaign: CampaignId,
        character: &str,
    ) -> Result<Option<String>, StoreError> {
        Ok(self
            .tx
            .prepare_cached(
                "SELECT party_id FROM party_members WHERE campaign_id = ?1 AND character_id = ?2",
            )?
            .query_row(params![campaign.0, character], |r| r.get(0))
            .optional()?)
    }

    fn put_party(&mut self, campaign: CampaignId, p: &Party) -> Result<(), StoreError> {
        self.tx
            .prepare_cached(&format!(
                "INSERT INTO parties (campaign_id, id, name, name_key, description, location_id,
                                      leader_id, active, elapsed_minutes, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, {NOW})
                 ON CONFLICT (campaign_id, id) DO UPDATE SET
                   name = excluded.name, name_key = excluded.name_key,
                   description = excluded.description, location_id = excluded.location_id,
                   leader_id = excluded.leader_id, active = excluded.active,
                   elapsed_minutes = excluded.elapsed_minutes"
            ))?
            .execute(params![
                campaign.0,
                p.id,
                p.name,
                name_key(&p.name),
                p.description,
                p.location_id,
                p.leader_id,
                p.active,
                i64::try_from(p.elapsed_minutes).unwrap_or(i64::MAX)
            ])?;
        self.execute(
            "DELETE FROM party_members WHERE campaign_id = ?1 AND party_id = ?2",
            params![campaign.0, p.id],
        )?;
        let mut stmt = self.tx.prepare_cached(
            "INSERT INTO party_members (campaign_id, character_id, party_id, role, active, position)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        )?;
        for (i, m) in p.members.iter().enumerate() {
            stmt.execute(params![
                campaign.0,
                m.character_id,
                p.id,
                m.role.key(),
                m.active,
                i as i64
            ])?;
        }
        Ok(())
    }

    fn delete_party(&mut self, campaign: CampaignId, id: &str) -> Result<bool, StoreError> {
        for table in ["party_members", "party_travel"] {
            self.execute(
                &format!("DELETE FROM {table} WHERE campaign_id = ?1 AND party_id = ?2"),
                params![campaign.0, id],
            )?;
        }
        Ok(self.execute(
            "DELETE FROM parties WHERE campaign_id = ?1 AND id = ?2",
            params![campaign.0, id],
        )? > 0)
    }

    fn append_travel(
        &mut self,
        campaign: CampaignId,
        party: &str,
        entry: &TravelEntry,
    ) -> Result<(), StoreError> {
        let doc = encode("travel entry", entry)?;
        self.tx
            .prepare_cached(
                "INSERT INTO party_travel (campaign_id, party_id, doc) VALUES (?1, ?2, ?3)",
            )?
            .execute(params![campaign.0, party, doc])?;
        Ok(())
    }

    fn travel_history(
        &self,
        campaign: CampaignId,
        party: &str,
        limit: usize,
    ) -> Result<Vec<TravelEntry>, StoreError> {
        let mut stmt = self.tx.prepare_cached(
            "SELECT doc FROM party_travel WHERE campaign_id = ?1 AND party_id = ?2
             ORDER BY seq DESC LIMIT ?3",
        )?;
        let docs = stmt
            .query_map(params![campaign.0, party, clamp(limit)], |r| {
                r.get::<_, String>(0)
            })?
            .collect::<Result<Vec<_>, _>>()?;
        docs.iter().map(|d| decode("travel entry", d)).collect()
    }

    fn note(&self, campaign: CampaignId, id: &str) -> Result<Option<Note>, StoreError> {
        let row = self
            .tx
            .prepare_cached(&format!(
                "SELECT {NOTE_COLUMNS} FROM notes n WHERE n.campaign_id = ?1 AND n.id = ?2"
            ))?
            .query_row(params![campaign.0, id], row_note)
            .optional()?;
        row.map(decode_note).transpose()
    }

    fn put_note(&mut self, campaign: CampaignId, n: &Note) -> Result<(), StoreError> {
        let tags = encode("note tags", &n.tags)?;
        self.tx
            .prepare_cached(&format!(
                "INSERT INTO notes (campaign_id, id, content, tags, tags_text, kind, importance,
                                    visibility, created_at, updated_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, {NOW}, {NOW})
                 ON CONFLICT (campaign_id, id) DO UPDATE SET
                   content = excluded.content, tags = excluded.tags, tags_text = excluded.tags_text,
                   kind = excluded.kind, importance = excluded.importance,
                   visibility = excluded.visibility, updated_at = excluded.updated_at"
            ))?
            .execute(params![
                campaign.0,
                n.id,
                n.content,
                tags,
                n.tags.join(" "),
                n.kind.key(),
                n.importance.rank(),
                n.visibility.key()
            ])?;
        Ok(())
    }

    fn delete_note(&mut self, campaign: CampaignId, id: &str) -> Result<bool, StoreError> {
        Ok(self.execute(
            "DELETE FROM notes WHERE campaign_id = ?1 AND id = ?2",
            params![campaign.0, id],
        )? > 0)
    }

    fn list_notes(
        &self,
        campaign: CampaignId,
        filter: &NoteFilter,
        order: NoteOrder,
        limit: usize,
        offset: usize,
    ) -> Result<(Vec<Note>, u64), StoreError> {
        let (clauses, args) = note_filter_sql(campaign, filter);
        let wh = clauses.join(" AND ");
        let params: Vec<(&str, &dyn rusqlite::ToSql)> =
            args.iter().map(|(k, v)| (k.as_str(), v.as_ref())).collect();
        let total: i64 = self.query_row(
            &format!("SELECT COUNT(*) FROM notes n WHERE {wh}"),
            params.as_slice(),
            |r| r.get(0),
        )?;
        let order = match order {
            NoteOrder::Recent => "n.rowid DESC",
            NoteOrder::Importance => "n.importance DESC, n.rowid DESC",
        };
        let mut stmt = self.tx.prepare_cached(&format!(
            "SELECT {NOTE_COLUMNS} FROM notes n WHERE {wh} ORDER BY {order} LIMIT :limit OFFSET :offset"
        ))?;
        let (limit, offset) = (clamp(limit), clamp(offset));
        let mut params = params;
        params.push((":limit", &limit));
        params.push((":offset", &offset));
        let rows = stmt
            .query_map(params.as_slice(), row_note)?
            .collect::<Result<Vec<_>, _>>()?;
        let notes = rows
            .into_iter()
            .map(decode_note)
            .collect::<Result<_, _>>()?;
        Ok((notes, total.max(0) as u64))
    }

    fn search_notes(
        &self,
        campaign: CampaignId,
        terms: &[String],
        all_terms: bool,
        filter: &NoteFilter,
        limit: usize,
    ) -> Result<Vec<ScoredNote>, StoreError> {
        if terms.is_empty() {
            return Ok(vec![]);
        }
        let (mut clauses, mut args) = note_filter_sql(campaign, filter);
        clauses.push("notes_fts MATCH :query".into());
        args.push((":query".into(), Box::new(fts_query(terms, all_terms))));
        let wh = clauses.join(" AND ");
        let params: Vec<(&str, &dyn rusqlite::ToSql)> =
            args.iter().map(|(k, v)| (k.as_str(), v.as_ref())).collect();
        let mut stmt = self.tx.prepare_cached(&format!(
            "SELECT {NOTE_COLUMNS}, bm25(notes_fts) AS rank
             FROM notes_fts JOIN notes n ON n.rowid = notes_fts.rowid
             WHERE {wh} ORDER BY rank, n.importance DESC, n.rowid DESC LIMIT :limit"
        ))?;
        let limit = clamp(limit);
        let mut params = params;
        params.push((":limit", &limit));
        let rows = stmt
            .query_map(params.as_slice(), |r| {
                Ok((row_note(r)?, r.get::<_, f64>(8)?))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        rows.into_iter()
            .map(|(row, rank)| {
                Ok(ScoredNote {
                    note: decode_note(row)?,
                    score: -rank,
                })
            })
            .collect()
    }

    fn encounter(&self, campaign: CampaignId, id: &str) -> Result<Option<Encounter>, StoreError> {
        let doc: Option<String> = self
            .tx
            .prepare_cached("SELECT doc FROM encounters WHERE campaign_id = ?1 AND id = ?2")?
            .query_row(params![campaign.0, id], |r| r.get(0))
            .optional()?;
        doc.as_deref().map(|d| decode("encounter", d)).transpose()
    }

    fn list_encounters(
        &self,
        campaign: CampaignId,
        active_only: bool,
    ) -> Result<Vec<Encounter>, StoreError> {
        let mut stmt = self.tx.prepare_cached(
            "SELECT doc FROM encounters WHERE campaign_id = ?1 AND (?2 = 0 OR status = 'active')
             ORDER BY created_at DESC, id DESC",
        )?;
        let docs = stmt
            .query_map(params![campaign.0, active_only], |r| r.get::<_, String>(0))?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        docs.iter().map(|d| decode("encounter", d)).collect()
    }

    fn put_encounter(&mut self, campaign: CampaignId, e: &Encounter) -> Result<(), StoreError> {
        let doc = encode("encounter", e)?;
        let status = match e.status {
            EncounterStatus::Active => "active",
            EncounterStatus::Ended => "ended",
        };
        self.tx
            .prepare_cached(&format!(
                "INSERT INTO encounters (campaign_id, id, name, status, doc, created_at, updated_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, {NOW}, {NOW})
                 ON CONFLICT (campaign_id, id) DO UPDATE SET
                   name = excluded.name, status = excluded.status, doc = excluded.doc,
                   updated_at = excluded.updated_at"
            ))?
            .execute(params![campaign.0, e.id, e.name, status, doc])?;
        Ok(())
    }

    fn delete_encounter(&mut self, campaign: CampaignId, id: &str) -> Result<bool, StoreError> {
        Ok(self.execute(
            "DELETE FROM encounters WHERE campaign_id = ?1 AND id = ?2",
            params![campaign.0, id],
        )? > 0)
    }
}

#[cfg(test)]
mod tests;
