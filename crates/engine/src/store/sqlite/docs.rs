//! The stored texts of characters, for the reads that decode (and resolve) them, and the write
//! of a character's derived sheet (see [`crate::store::character_text`]).

use rusqlite::{OptionalExtension, params};

use super::SqliteTx;
use crate::store::character_text::join;
use crate::store::{CampaignId, StoreError};

/// The stored text of a row whose first column is a character's document and whose second is
/// its derived sheet (NULL when it has none).
pub(super) fn stored_text(r: &rusqlite::Row<'_>) -> rusqlite::Result<String> {
    let doc: String = r.get(0)?;
    let sheet = r.get_ref(1)?.as_str_or_null()?;
    Ok(join(doc, sheet))
}

impl SqliteTx<'_> {
    /// The stored text of one character.
    pub(super) fn character_doc(
        &self,
        campaign: CampaignId,
        id: &str,
    ) -> Result<Option<String>, StoreError> {
        Ok(self
            .tx
            .prepare_cached(
                "SELECT c.doc, s.derived FROM characters c
                 LEFT JOIN character_sheets s ON s.campaign_id = c.campaign_id AND s.id = c.id
                 WHERE c.campaign_id = ?1 AND c.id = ?2",
            )?
            .query_row(params![campaign.0, id], stored_text)
            .optional()?)
    }

    /// The stored texts of the characters with this name (case-insensitive), by id.
    pub(super) fn character_docs_named(
        &self,
        campaign: CampaignId,
        name: &str,
    ) -> Result<Vec<String>, StoreError> {
        let mut stmt = self.tx.prepare_cached(
            "SELECT c.doc, s.derived FROM characters c
             LEFT JOIN character_sheets s ON s.campaign_id = c.campaign_id AND s.id = c.id
             WHERE c.campaign_id = ?1 AND c.name_key = ?2 ORDER BY c.id",
        )?;
        let docs = stmt
            .query_map(
                params![campaign.0, crate::model::names::name_key(name)],
                stored_text,
            )?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(docs)
    }

    /// Writes character `id`'s derived sheet (none: removes it). An equal sheet is left as it
    /// is: no page of the database changes.
    pub(super) fn put_sheet(
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
