//! The stored texts of characters, for the reads that decode (and resolve) them, and the write
//! of a character's derived sheet (see [`crate::store::character_text`]).

use super::pipe::PgTx;
use crate::model::character::Character;
use crate::model::names::name_key;
use crate::store::character_text::Parts;
use crate::store::{CampaignId, StoreError};

/// The stored text of a character, selected from `characters` joined (left) with
/// `character_sheets` on the campaign and id: the document, and U+0001 and the sheet when it has
/// one (the join `character_text` makes on SQLite's side).
pub(super) const STORED_TEXT: &str = "doc || COALESCE(chr(1) || derived, '')";

impl PgTx<'_> {
    /// The character stored as `text`, decoded once per text (see [`super::super::decoded`]).
    pub(super) fn decode_character(&self, text: &str) -> Result<Character, StoreError> {
        self.conn.decoded.character(Parts::of(text), decode_text)
    }

    /// The character stored as `text` resolved under `key`, kept per text and key (see
    /// [`super::super::decoded`]).
    pub(super) fn resolve_character(
        &self,
        text: &str,
        key: u64,
        resolve: &mut dyn FnMut(&mut Character),
    ) -> Result<Character, StoreError> {
        self.conn
            .decoded
            .resolved(Parts::of(text), key, decode_text, resolve)
    }

    /// The stored text of character `id` (none or one).
    pub(super) fn character_doc(
        &self,
        campaign: CampaignId,
        id: &str,
    ) -> Result<Vec<String>, StoreError> {
        self.docs(
            &format!(
                "SELECT {STORED_TEXT} FROM characters LEFT JOIN character_sheets USING (campaign_id, id)
                 WHERE campaign_id = $1 AND id = $2"
            ),
            &[&campaign.0, &id],
        )
    }

    /// The stored texts of the characters named `name` (case-insensitively), by id.
    pub(super) fn character_docs_named(
        &self,
        campaign: CampaignId,
        name: &str,
    ) -> Result<Vec<String>, StoreError> {
        self.docs(
            &format!(
                "SELECT {STORED_TEXT} FROM characters LEFT JOIN character_sheets USING (campaign_id, id)
                 WHERE campaign_id = $1 AND name_key = $2 ORDER BY id COLLATE \"C\""
            ),
            &[&campaign.0, &name_key(name)],
        )
    }

    /// Writes character `id`'s derived sheet (none: removes it); an equal sheet is left as it is.
    pub(super) fn put_sheet(
        &mut self,
        campaign: CampaignId,
        id: &str,
        sheet: Option<&str>,
    ) -> Result<(), StoreError> {
        match sheet {
            Some(sheet) => self.exec_later(
                "INSERT INTO character_sheets (campaign_id, id, derived) VALUES ($1, $2, $3)
                 ON CONFLICT (campaign_id, id) DO UPDATE SET derived = excluded.derived
                 WHERE character_sheets.derived IS DISTINCT FROM excluded.derived",
                vec![
                    Box::new(campaign.0),
                    Box::new(id.to_string()),
                    Box::new(sheet.to_string()),
                ],
            ),
            None => self.exec_later(
                "DELETE FROM character_sheets WHERE campaign_id = $1 AND id = $2",
                vec![Box::new(campaign.0), Box::new(id.to_string())],
            ),
        }
    }
}

/// Decodes a stored text (a pure function, as the decoded cache requires).
fn decode_text(text: &str) -> Result<Character, StoreError> {
    crate::store::character_text::decode(text)
}
