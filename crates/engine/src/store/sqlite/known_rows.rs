//! Character rows a write transaction takes without reading them again.
//!
//! Nearly every call in play reads a character by name and writes it back (hit points, a check,
//! a spell slot). The store remembers, per connection, the rows such reads found and such writes
//! left: for a campaign and a name, the id, document and sheet text of every character with that
//! name. A later write transaction takes them from here instead of querying the two tables.
//!
//! They are trusted only while nothing else can have changed those tables:
//! - **Another connection** (another process on the same data directory): SQLite's
//!   `data_version` changes when any other connection commits. The rows are kept with the
//!   version they were seen at; a write transaction that sees another drops them all. Only a
//!   write transaction reads them: it holds the write lock, so no other connection commits
//!   while it lasts.
//! - **This connection**: an update hook counts every row changed in `characters`,
//!   `character_sheets` and `campaigns` (whose deletion cascades), and a rollback hook counts
//!   every rollback. The rows carry the count they account for. Only the store's character
//!   writer ([`SqliteTx::put_character_rows`](super::SqliteTx)) accounts for its own change, and
//!   only after its statements succeeded: it updates the row in place when the write kept the
//!   name, kind, class and level of a row that existed, and drops them all otherwise (a new
//!   character, a rename). Any other change (a delete, a campaign's deletion, raw SQL, a failed
//!   statement, a rolled-back transaction) leaves the count ahead of them, and they are dropped
//!   before their next use.
//!
//! A debug build checks every row it takes from here against the tables.

use std::cell::RefMut;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use rusqlite::Connection;

use super::SqliteTx;
use crate::store::character_text::Parts;
use crate::store::{CampaignId, StoreError};

/// How many names a connection remembers the rows of; past that it starts again.
const KNOWN_NAMES: usize = 64;

/// The count of changes to the character tables on one connection (see the module's doc).
pub(in crate::store) type Changes = Arc<AtomicU64>;

/// Installs the hooks that count this connection's changes to the character tables.
pub(super) fn count_changes(conn: &Connection) -> Result<Changes, StoreError> {
    let changes: Changes = Arc::default();
    let rows = changes.clone();
    conn.update_hook(Some(
        move |_: rusqlite::hooks::Action, _: &str, table: &str, _: i64| {
            if matches!(table, "characters" | "character_sheets" | "campaigns") {
                rows.fetch_add(1, Ordering::Relaxed);
            }
        },
    ))?;
    let rollbacks = changes.clone();
    conn.rollback_hook(Some(move || {
        rollbacks.fetch_add(1, Ordering::Relaxed);
    }))?;
    Ok(changes)
}

/// One stored character: its id, document and sheet text (none: no sheet row).
#[derive(Clone)]
pub(super) struct Row {
    pub(super) id: Box<str>,
    pub(super) doc: Arc<str>,
    pub(super) sheet: Option<Arc<str>>,
}

impl Row {
    pub(super) fn parts(&self) -> Parts<'_> {
        Parts {
            doc: &self.doc,
            sheet: self.sheet.as_deref(),
        }
    }
}

/// The characters of one campaign with one name key, by id: all of them.
struct Named {
    campaign: i64,
    key: Box<str>,
    rows: Vec<Row>,
}

/// The rows a connection remembers (see the module's doc).
#[derive(Default)]
pub(in crate::store) struct KnownRows {
    /// The data version they were seen at (none: nothing is known).
    version: Option<i64>,
    /// The count of changes they account for.
    seen: u64,
    names: Vec<Named>,
}

impl KnownRows {
    fn clear(&mut self) {
        self.names.clear();
    }

    fn row_mut(&mut self, campaign: CampaignId, id: &str) -> Option<&mut Row> {
        self.names
            .iter_mut()
            .filter(|n| n.campaign == campaign.0)
            .flat_map(|n| n.rows.iter_mut())
            .find(|r| *r.id == *id)
    }
}

impl SqliteTx<'_> {
    /// The remembered rows, dropped first when they may be stale; none outside a write
    /// transaction.
    fn known(&self) -> Result<Option<RefMut<'_, KnownRows>>, StoreError> {
        let Some(version) = self.data_version()? else {
            return Ok(None);
        };
        let changes = self.changes.load(Ordering::Relaxed);
        let mut known = self.known_rows.borrow_mut();
        if known.version != Some(version) || known.seen != changes {
            known.clear();
            known.version = Some(version);
            known.seen = changes;
        }
        Ok(Some(known))
    }

    /// Every character of `campaign` whose name key is `key`, by id, when known.
    pub(super) fn known_named(
        &self,
        campaign: CampaignId,
        key: &str,
    ) -> Result<Option<Vec<Row>>, StoreError> {
        Ok(self.known()?.and_then(|k| {
            k.names
                .iter()
                .find(|n| n.campaign == campaign.0 && *n.key == *key)
                .map(|n| n.rows.clone())
        }))
    }

    /// Character `id` of `campaign`, when known.
    pub(super) fn known_row(
        &self,
        campaign: CampaignId,
        id: &str,
    ) -> Result<Option<Row>, StoreError> {
        Ok(self
            .known()?
            .and_then(|mut k| k.row_mut(campaign, id).cloned()))
    }

    /// Remembers what a read of the tables found for `campaign` and `key`: every such row.
    pub(super) fn remember_named(
        &self,
        campaign: CampaignId,
        key: &str,
        rows: Vec<Row>,
    ) -> Result<(), StoreError> {
        if let Some(mut k) = self.known()? {
            if k.names.len() >= KNOWN_NAMES {
                k.clear();
            }
            k.names.push(Named {
                campaign: campaign.0,
                key: key.into(),
                rows,
            });
        }
        Ok(())
    }

    /// Before a character is written: drops the rows if something else changed the tables.
    pub(super) fn before_put(&self) -> Result<(), StoreError> {
        self.known().map(drop)
    }

    /// After character `id` of `campaign` was written as `stored` (its document, and its sheet
    /// row as the write left it). `in_place`: the write changed no listed column (name, kind,
    /// class, level) of a row that existed, so every name's set of characters is as it was.
    pub(super) fn after_put(
        &self,
        campaign: CampaignId,
        id: &str,
        stored: &crate::store::character_text::Encoded,
        in_place: bool,
    ) {
        let mut known = self.known_rows.borrow_mut();
        match known.row_mut(campaign, id) {
            Some(r) if in_place => {
                r.doc = stored.shared_doc();
                r.sheet = stored.shared_sheet();
            }
            _ if in_place => {}
            _ => known.clear(),
        }
        known.seen = self.changes.load(Ordering::Relaxed);
    }

    /// A debug build's check that rows taken from memory are what the tables hold: `rows` are
    /// every character of `campaign` with name key `key`, or (`by_id`) the one whose id is
    /// `key`.
    #[cfg(debug_assertions)]
    pub(super) fn check_known(&self, campaign: CampaignId, key: &str, by_id: bool, rows: &[Row]) {
        let column = if by_id { "id" } else { "name_key" };
        let mut stmt = self
            .tx
            .prepare(&format!(
                "SELECT c.id, c.doc, s.derived FROM characters c
                 LEFT JOIN character_sheets s ON s.campaign_id = c.campaign_id AND s.id = c.id
                 WHERE c.campaign_id = ?1 AND c.{column} = ?2 ORDER BY c.id"
            ))
            .expect("the check's query");
        let stored: Vec<(String, String, Option<String>)> = stmt
            .query_map(rusqlite::params![campaign.0, key], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?))
            })
            .and_then(|rows| rows.collect())
            .expect("the check's rows");
        let known: Vec<(String, String, Option<String>)> = rows
            .iter()
            .map(|r| {
                (
                    r.id.to_string(),
                    r.doc.to_string(),
                    r.sheet.as_deref().map(str::to_owned),
                )
            })
            .collect();
        assert!(
            stored == known,
            "the rows remembered for {key:?} are not the stored ones"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::super::SqliteStore;
    use crate::model::character::Character;
    use crate::store::{CampaignId, Store, Transaction, Tx};

    fn pc(id: &str, name: &str, hp: u32) -> Character {
        serde_json::from_value(serde_json::json!({
            "id": id, "name": name, "kind": "pc", "level": 1,
            "abilities": {"str": 10, "dex": 10, "con": 10, "int": 10, "wis": 10, "cha": 10},
            "proficiencyBonus": 2, "armorClass": 10, "armorSource": "none", "speed": 30,
            "size": "medium", "maxHp": 9, "hp": hp, "hitDie": 8, "hitDice": 1
        }))
        .unwrap()
    }

    /// The hit points of every character named `name`, read in a write transaction (committed).
    fn hps(store: &mut SqliteStore, a: CampaignId, name: &str) -> Vec<(String, u32)> {
        let tx = store.begin(true).unwrap();
        let found = tx.characters_named(a, name).unwrap();
        tx.commit().unwrap();
        found.into_iter().map(|c| (c.id, c.hp)).collect()
    }

    /// Reads `name`, sets its hit points and writes it back, in one transaction; commits it
    /// when `commit`.
    fn set_hp(store: &mut SqliteStore, a: CampaignId, name: &str, hp: u32, commit: bool) {
        let mut tx = store.begin(true).unwrap();
        let mut c = tx.characters_named(a, name).unwrap().remove(0);
        c.hp = hp;
        tx.put_character(a, &c).unwrap();
        if commit {
            tx.commit().unwrap();
        }
    }

    fn remembered(store: &SqliteStore) -> Vec<(String, Vec<String>)> {
        store
            .known_rows
            .borrow()
            .names
            .iter()
            .map(|n| {
                (
                    n.key.to_string(),
                    n.rows.iter().map(|r| r.doc.to_string()).collect(),
                )
            })
            .collect()
    }

    #[test]
    fn a_write_takes_remembered_rows_only_while_nothing_else_changed_them() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("k.sqlite");
        let mut one = SqliteStore::open(&path).unwrap();
        let mut two = SqliteStore::open(&path).unwrap();
        let mut tx = one.begin(true).unwrap();
        let a = tx.ensure_campaign("a").unwrap();
        tx.put_character(a, &pc("ona", "Ona", 9)).unwrap();
        tx.commit().unwrap();

        // A read remembers the rows it found; a write of one of them updates it in place.
        assert_eq!(hps(&mut one, a, "ONA"), vec![("ona".into(), 9)]);
        assert_eq!(remembered(&one).len(), 1);
        set_hp(&mut one, a, "ona", 4, true);
        let known = remembered(&one);
        assert_eq!(known[0].0, "ona");
        assert!(known[0].1[0].contains("\"hp\":4"), "{known:?}");
        assert_eq!(hps(&mut one, a, "Ona"), vec![("ona".into(), 4)]);

        // Another connection's commit: the remembered rows are not used.
        set_hp(&mut two, a, "ona", 2, true);
        assert_eq!(hps(&mut one, a, "ona"), vec![("ona".into(), 2)]);

        // A write rolled back leaves the stored row; the rows remembered after it are dropped.
        set_hp(&mut one, a, "ona", 7, false);
        assert_eq!(hps(&mut one, a, "ona"), vec![("ona".into(), 2)]);

        // A change this connection made without the store's writer (here raw SQL) is seen.
        one.conn
            .execute(
                "UPDATE characters SET doc = replace(doc, '\"hp\":2', '\"hp\":3')",
                [],
            )
            .unwrap();
        assert_eq!(hps(&mut one, a, "ona"), vec![("ona".into(), 3)]);

        // A second character of the same name, then a rename, then a delete.
        let mut tx = one.begin(true).unwrap();
        tx.put_character(a, &pc("ona2", "ona", 5)).unwrap();
        tx.commit().unwrap();
        assert_eq!(
            hps(&mut one, a, "Ona"),
            vec![("ona".into(), 3), ("ona2".into(), 5)]
        );
        let mut tx = one.begin(true).unwrap();
        let mut c = tx.character(a, "ona2").unwrap().unwrap();
        c.name = "Onatwo".into();
        tx.put_character(a, &c).unwrap();
        tx.commit().unwrap();
        assert_eq!(hps(&mut one, a, "ona"), vec![("ona".into(), 3)]);
        assert_eq!(hps(&mut one, a, "onatwo"), vec![("ona2".into(), 5)]);
        let mut tx = one.begin(true).unwrap();
        assert!(tx.delete_character(a, "ona").unwrap());
        tx.commit().unwrap();
        assert_eq!(hps(&mut one, a, "ona"), vec![]);
        // A name no character has yet is remembered as empty until one takes it.
        let mut tx = one.begin(true).unwrap();
        tx.put_character(a, &pc("ona3", "Ona", 8)).unwrap();
        tx.commit().unwrap();
        assert_eq!(hps(&mut one, a, "ona"), vec![("ona3".into(), 8)]);

        // By id, from what a read by name remembered.
        let tx = one.begin(true).unwrap();
        assert_eq!(tx.character(a, "ona3").unwrap().map(|c| c.hp), Some(8));
        drop(tx);

        // Deleting the campaign takes its characters along.
        let mut tx = one.begin(true).unwrap();
        assert!(tx.delete_campaign("a").unwrap());
        tx.commit().unwrap();
        let tx = one.begin(true).unwrap();
        assert_eq!(tx.characters_named(a, "ona").unwrap(), vec![]);
        assert_eq!(tx.character(a, "ona3").unwrap(), None);
    }

    /// The debug build's check catches a remembered row that is not the stored one.
    #[cfg(debug_assertions)]
    #[test]
    #[should_panic(expected = "are not the stored ones")]
    fn a_debug_build_checks_remembered_rows_against_the_tables() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = SqliteStore::open(&dir.path().join("k.sqlite")).unwrap();
        let mut tx = store.begin(true).unwrap();
        let a = tx.ensure_campaign("a").unwrap();
        tx.put_character(a, &pc("ona", "Ona", 9)).unwrap();
        tx.commit().unwrap();
        assert_eq!(hps(&mut store, a, "ona"), vec![("ona".into(), 9)]);
        let doc = store.known_rows.borrow().names[0].rows[0].doc.to_string();
        store.known_rows.borrow_mut().names[0].rows[0].doc =
            doc.replace("\"hp\":9", "\"hp\":1").into();
        hps(&mut store, a, "ona");
    }
}
