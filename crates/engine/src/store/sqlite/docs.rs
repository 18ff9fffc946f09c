//! The stored texts of characters, for the reads that decode (and resolve) them, and the write
//! of a character's derived sheet (see [`crate::store::character_text`]).
//!
//! A write transaction remembers the sheet rows it read or wrote ([`KnownSheets`]): a character
//! read and written back with the sheet it was read with (hit points, conditions, slots: nearly
//! every write in play) does not touch its sheet's row at all. Without that, the upsert that
//! leaves an equal sheet alone still reads the stored sheet (several pages) to compare it.
//!
//! Across transactions the connection remembers the rows its reads by name found and its writes
//! left (`sqlite/known_rows.rs`); a write transaction takes them instead of querying.

use std::cell::RefCell;
use std::sync::Arc;

use rusqlite::params;

use crate::store::decoded::Written;

use super::known_rows::Row;
use super::rows::corrupt;
use super::{NOW, SqliteTx};
use crate::model::character::Character;
use crate::model::names::name_key;
use crate::store::character_text::Parts;
use crate::store::{CampaignId, StoreError};

/// The stored text of a row whose first column is a character's document and whose second is
/// its derived sheet (NULL when it has none), borrowed from the row.
fn row_parts<'r>(r: &'r rusqlite::Row<'_>) -> Result<Parts<'r>, StoreError> {
    let text = |i: usize| -> Result<Option<&'r str>, StoreError> {
        r.get_ref(i)?
            .as_str_or_null()
            .map_err(|e| corrupt("character", e))
    };
    Ok(Parts {
        doc: text(0)?.ok_or_else(|| corrupt("character", "a document is NULL"))?,
        sheet: text(1)?,
    })
}

/// How many sheet rows a write transaction remembers (a call reads a few characters).
const KNOWN_SHEETS: usize = 16;

/// The sheet rows a write transaction has read or written, by campaign and character id: the
/// sheet text each row holds now (none: no row). Only a write transaction keeps them (no other
/// connection writes while it lasts), and every delete forgets them all.
#[derive(Default)]
pub(super) struct KnownSheets(RefCell<Vec<KnownSheet>>);

/// A campaign's id, a character's id, and the sheet text its row holds (none: no row).
type KnownSheet = (i64, Box<str>, Option<Arc<str>>);

impl KnownSheets {
    /// Notes that `id`'s sheet row holds `sheet` (none: there is no row).
    fn note(&self, campaign: CampaignId, id: &str, sheet: Option<Arc<str>>) {
        let mut known = self.0.borrow_mut();
        if let Some(k) = known.iter_mut().find(|k| k.0 == campaign.0 && *k.1 == *id) {
            k.2 = sheet;
        } else if known.len() < KNOWN_SHEETS {
            known.push((campaign.0, id.into(), sheet));
        }
    }

    /// Whether `id`'s sheet row is known to hold exactly `sheet` (none: to be absent).
    fn holds(&self, campaign: CampaignId, id: &str, sheet: Option<&str>) -> bool {
        self.0
            .borrow()
            .iter()
            .any(|k| k.0 == campaign.0 && *k.1 == *id && k.2.as_deref() == sheet)
    }

    /// Forgets every row (after a delete, which may remove sheet rows by cascade).
    pub(super) fn forget(&self) {
        self.0.borrow_mut().clear();
    }
}

/// A character made from a stored text (decoded, or decoded and resolved, by the store's
/// cache of decoded characters).
pub(super) type Make<'f> = dyn FnMut(Parts<'_>) -> Result<Character, StoreError> + 'f;

impl SqliteTx<'_> {
    /// Character `id`, made by `make` from its stored text.
    pub(super) fn character_row(
        &self,
        campaign: CampaignId,
        id: &str,
        make: &mut Make<'_>,
    ) -> Result<Option<Character>, StoreError> {
        if let Some(row) = self.known_row(campaign, id)? {
            #[cfg(debug_assertions)]
            self.check_known(campaign, id, true, std::slice::from_ref(&row));
            return self
                .made_known(campaign, &[row], make)
                .map(|c| c.into_iter().next());
        }
        let mut stmt = self.tx.prepare_cached(
            "SELECT c.doc, s.derived FROM characters c
             LEFT JOIN character_sheets s ON s.campaign_id = c.campaign_id AND s.id = c.id
             WHERE c.campaign_id = ?1 AND c.id = ?2",
        )?;
        let mut rows = stmt.query(params![campaign.0, id])?;
        match rows.next()? {
            Some(r) => {
                let parts = row_parts(r)?;
                self.note_read(campaign, id, parts);
                Ok(Some(make(parts)?))
            }
            None => Ok(None),
        }
    }

    /// The characters of remembered `rows` (see `sqlite/known_rows.rs`), each made by `make`.
    fn made_known(
        &self,
        campaign: CampaignId,
        rows: &[Row],
        make: &mut Make<'_>,
    ) -> Result<Vec<Character>, StoreError> {
        rows.iter()
            .map(|r| {
                self.sheets.note(campaign, &r.id, r.sheet.clone());
                make(r.parts())
            })
            .collect()
    }

    /// Notes, in a write transaction, the sheet row a character was read with.
    fn note_read(&self, campaign: CampaignId, id: &str, parts: Parts<'_>) {
        if self.write {
            self.sheets.note(campaign, id, parts.sheet.map(Arc::from));
        }
    }

    /// The characters with this name (case-insensitive), by id, each made by `make` from its
    /// stored text.
    pub(super) fn character_rows_named(
        &self,
        campaign: CampaignId,
        name: &str,
        make: &mut Make<'_>,
    ) -> Result<Vec<Character>, StoreError> {
        let key = name_key(name);
        if let Some(rows) = self.known_named(campaign, &key)? {
            #[cfg(debug_assertions)]
            self.check_known(campaign, &key, false, &rows);
            return self.made_known(campaign, &rows, make);
        }
        let mut stmt = self.tx.prepare_cached(
            "SELECT c.doc, s.derived, c.id FROM characters c
             LEFT JOIN character_sheets s ON s.campaign_id = c.campaign_id AND s.id = c.id
             WHERE c.campaign_id = ?1 AND c.name_key = ?2 ORDER BY c.id",
        )?;
        let mut seen = Vec::new();
        let out = self.collect(
            campaign,
            stmt.query(params![campaign.0, key])?,
            make,
            Some(&mut seen),
        )?;
        if self.write {
            self.remember_named(campaign, &key, seen)?;
        }
        Ok(out)
    }

    /// The characters of `rows` (document, sheet and id columns), each made by `make`; a write
    /// transaction notes the sheet row each was read with, and the rows themselves in `seen`
    /// when given (see `sqlite/known_rows.rs`).
    pub(super) fn collect(
        &self,
        campaign: CampaignId,
        mut rows: rusqlite::Rows<'_>,
        make: &mut Make<'_>,
        mut seen: Option<&mut Vec<Row>>,
    ) -> Result<Vec<Character>, StoreError> {
        let mut out = Vec::new();
        while let Some(r) = rows.next()? {
            let parts = row_parts(r)?;
            if self.write {
                let id = r
                    .get_ref(2)?
                    .as_str()
                    .map_err(|e| corrupt("character", e))?;
                let sheet = parts.sheet.map(Arc::from);
                if let Some(seen) = seen.as_deref_mut() {
                    seen.push(Row {
                        id: id.into(),
                        doc: parts.doc.into(),
                        sheet: sheet.clone(),
                    });
                }
                self.sheets.note(campaign, id, sheet);
            }
            out.push(make(parts)?);
        }
        Ok(out)
    }

    /// Writes character `c`: its row (document and listed columns) and its derived sheet.
    ///
    /// A write that leaves the listed columns as they were (hit points, conditions, items:
    /// nearly every write) updates the document alone, so the two list indexes over those
    /// columns are not rewritten: SQLite rewrites an index whenever an UPDATE assigns one of its
    /// columns, even to the value it had.
    pub(super) fn put_character_rows(
        &mut self,
        campaign: CampaignId,
        c: Written<'_>,
        doc: Option<&crate::model::doc_state::Document>,
    ) -> Result<(), StoreError> {
        self.before_put()?;
        let stored = self.decoded.sheets.encode_with(&c, doc)?;
        self.decoded.keep(&stored, c);
        let key = name_key(&c.name);
        let class = c.class.as_deref().map(name_key);
        let same_columns = self
            .tx
            .prepare_cached(
                "UPDATE characters SET doc = ?3, updated_at = ?9
                 WHERE campaign_id = ?1 AND id = ?2 AND name = ?4 AND name_key = ?5
                   AND kind = ?6 AND class_key IS ?7 AND level = ?8",
            )?
            .execute(params![
                campaign.0,
                c.id,
                stored.doc(),
                c.name,
                key,
                c.kind.key(),
                class,
                c.level,
                // As `NOW` would write it, made here: cheaper than SQLite's `strftime`.
                super::events::utc_text(super::events::now_millis())
            ])?;
        if same_columns == 0 {
            static UPSERT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
            self.tx
                .prepare_cached(UPSERT.get_or_init(|| {
                    format!(
                        "INSERT INTO characters (campaign_id, id, name, name_key, kind, class_key, level, doc, created_at, updated_at)
                         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, {NOW}, {NOW})
                         ON CONFLICT (campaign_id, id) DO UPDATE SET
                           name = excluded.name, name_key = excluded.name_key, kind = excluded.kind,
                           class_key = excluded.class_key, level = excluded.level, doc = excluded.doc,
                           updated_at = excluded.updated_at"
                    )
                }))?
                .execute(params![
                    campaign.0,
                    c.id,
                    c.name,
                    key,
                    c.kind.key(),
                    class,
                    c.level,
                    stored.doc()
                ])?;
        }
        if !self.sheets.holds(campaign, &c.id, stored.sheet()) {
            self.put_sheet(campaign, &c.id, stored.sheet())?;
            self.sheets.note(campaign, &c.id, stored.shared_sheet());
        }
        self.after_put(campaign, &c.id, &stored, same_columns == 1);
        Ok(())
    }

    /// Writes character `id`'s derived sheet (none: removes it). An equal sheet is left as it
    /// is: no page of the database changes.
    fn put_sheet(
        &mut self,
        campaign: CampaignId,
        id: &str,
        sheet: Option<&str>,
    ) -> Result<(), StoreError> {
        match sheet {
            Some(sheet) => self
                .tx
                .prepare_cached(
                    "INSERT INTO character_sheets (campaign_id, id, derived) VALUES (?1, ?2, ?3)
                     ON CONFLICT (campaign_id, id) DO UPDATE SET derived = excluded.derived
                     WHERE character_sheets.derived IS NOT excluded.derived",
                )?
                .execute(params![campaign.0, id, sheet])?,
            None => self
                .tx
                .prepare_cached("DELETE FROM character_sheets WHERE campaign_id = ?1 AND id = ?2")?
                .execute(params![campaign.0, id])?,
        };
        Ok(())
    }
}
