//! The stored texts of characters, for the reads that decode (and resolve) them.

use rusqlite::{OptionalExtension, params};

use super::SqliteTx;
use crate::store::{CampaignId, StoreError};

impl SqliteTx<'_> {
    /// The stored text of one character.
    pub(super) fn character_doc(
        &self,
        campaign: CampaignId,
        id: &str,
    ) -> Result<Option<String>, StoreError> {
        Ok(self
            .tx
            .prepare_cached("SELECT doc FROM characters WHERE campaign_id = ?1 AND id = ?2")?
            .query_row(params![campaign.0, id], |r| r.get(0))
            .optional()?)
    }

    /// The stored texts of the characters with this name (case-insensitive), by id.
    pub(super) fn character_docs_named(
        &self,
        campaign: CampaignId,
        name: &str,
    ) -> Result<Vec<String>, StoreError> {
        let mut stmt = self.tx.prepare_cached(
            "SELECT doc FROM characters WHERE campaign_id = ?1 AND name_key = ?2 ORDER BY id",
        )?;
        let docs = stmt
            .query_map(
                params![campaign.0, crate::model::names::name_key(name)],
                |r| r.get::<_, String>(0),
            )?
            .collect::<Result<Vec<_>, _>>()?;
        Ok(docs)
    }
}
