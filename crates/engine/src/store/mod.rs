//! Persistence behind a trait the engine owns.
//!
//! The engine speaks to a [`Store`] through transactions ([`Transaction`]), one per tool call.
//! [`SqliteStore`] is the embedded implementation, [`PgStore`] the shared one (several server
//! processes on one PostgreSQL database); [`AnyStore`] is either, chosen at run time. Nothing
//! database-specific leaks past this module.

mod any;
mod character_text;
mod decoded;
pub mod error;
mod memory_codec;
mod postgres;
mod sqlite;
mod sqlite_memory;
mod sqlite_tokens;

pub use any::{AnyStore, AnyTx, StoreLocation};
pub use error::StoreError;
pub use postgres::{PgStore, PgTx, hide_password};
pub use sqlite::{SqliteStore, SqliteTx};

use serde::{Deserialize, Serialize};

use crate::model::character::{Character, CharacterFilter};
use crate::model::encounter::Encounter;
use crate::model::event::{Event, EventDraft};
use crate::model::memory::{MemoryKind, MemoryRecord, WorldClock};
use crate::model::notes::{Note, NoteFilter, NoteOrder, ScoredNote};
use crate::model::party::Party;
use crate::model::travel::TravelEntry;
use crate::model::world::{Connection, Location};

/// What a committed (answered) call survives.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Durability {
    /// Any crash of the process (a panic, `kill -9`, an out-of-memory kill): every commit is in
    /// the operating system's hands before the call answers, but the disk is synced only at
    /// checkpoints. A power loss or an OS crash may lose the last commits (never corrupts).
    /// SQLite: WAL with `synchronous = NORMAL`.
    #[default]
    Process,
    /// Power loss and operating-system crashes too: every commit is synced to the disk before
    /// the call answers. SQLite: WAL with `synchronous = FULL`.
    Power,
}

impl Durability {
    /// The name used in configuration: `process` or `power`.
    pub fn key(self) -> &'static str {
        match self {
            Durability::Process => "process",
            Durability::Power => "power",
        }
    }
}

/// The id of a campaign inside a store.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct CampaignId(pub i64);

/// A campaign as listed by the store.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CampaignInfo {
    /// The campaign's name.
    pub name: String,
    /// When it was created (RFC 3339, UTC).
    pub created_at: String,
    /// How many characters it holds.
    pub characters: u64,
    /// How many events its log holds.
    pub events: u64,
}

/// A persistent home for campaigns.
pub trait Store: Send {
    /// The transaction type this store hands out.
    type Txn<'a>: Transaction
    where
        Self: 'a;

    /// Starts a transaction; `write` asks for one that may modify state.
    fn begin(&mut self, write: bool) -> Result<Self::Txn<'_>, StoreError>;

    /// A number that changes whenever another connection (of this process or another) commits
    /// to the store, read cheaply between transactions (SQLite's `PRAGMA data_version`); `None`
    /// when the store cannot say without a round trip (PostgreSQL). Commits through this
    /// connection do not change it: the caller counts those itself.
    fn data_version(&mut self) -> Option<u64> {
        None
    }
}

/// A transaction that is either committed or rolled back when dropped.
pub trait Transaction: Tx {
    /// Makes every change of this transaction durable.
    fn commit(self) -> Result<(), StoreError>;
}

/// What the engine reads and writes inside one transaction.
pub trait Tx {
    /// Whether the campaign still exists, and (in a write transaction) holds it for this
    /// transaction: the writers of one campaign then run one after the other, each seeing what
    /// the previous one committed. SQLite needs no lock (`BEGIN IMMEDIATE` already admits one
    /// writer at a time); PostgreSQL locks the campaign's row.
    fn lock_campaign(&mut self, campaign: CampaignId) -> Result<bool, StoreError> {
        self.campaign_exists(campaign)
    }
    /// The id of the campaign called `name`, creating it when absent.
    fn ensure_campaign(&mut self, name: &str) -> Result<CampaignId, StoreError>;
    /// The id of the campaign called `name`, if it exists.
    fn find_campaign(&self, name: &str) -> Result<Option<CampaignId>, StoreError>;
    /// Whether the campaign still exists (another process may have deleted it; its id is never
    /// given to another campaign).
    fn campaign_exists(&self, campaign: CampaignId) -> Result<bool, StoreError>;
    /// Every campaign with its counts.
    fn list_campaigns(&self) -> Result<Vec<CampaignInfo>, StoreError>;
    /// Deletes a campaign and everything in it; false when there was none.
    fn delete_campaign(&mut self, name: &str) -> Result<bool, StoreError>;

    /// The campaign's saved dice-stream state, if any.
    fn rng_state(&self, campaign: CampaignId) -> Result<Option<String>, StoreError>;
    /// Saves the campaign's dice-stream state.
    fn set_rng_state(&mut self, campaign: CampaignId, state: &str) -> Result<(), StoreError>;
    /// The next number of a per-campaign counter (`kind` such as "ch"), starting at 1.
    fn next_id(&mut self, campaign: CampaignId, kind: &str) -> Result<u64, StoreError>;
    /// Moves a per-campaign counter so the next number it hands out is above `past` (it never
    /// moves back). One statement, whatever `past` is.
    fn advance_id(&mut self, campaign: CampaignId, kind: &str, past: u64)
    -> Result<(), StoreError>;

    /// One character by id.
    fn character(&self, campaign: CampaignId, id: &str) -> Result<Option<Character>, StoreError>;
    /// Characters whose name matches case-insensitively (exactly, after trimming).
    fn characters_named(
        &self,
        campaign: CampaignId,
        name: &str,
    ) -> Result<Vec<Character>, StoreError>;
    /// [`Tx::character`] passed through `resolve`, which must be a pure function of the stored
    /// character and of what `key` names: a store that keeps decoded characters may keep the
    /// result under the stored text and `key`, and hand it out again while both are the same.
    fn character_resolved(
        &self,
        campaign: CampaignId,
        id: &str,
        key: u64,
        resolve: &mut dyn FnMut(&mut Character),
    ) -> Result<Option<Character>, StoreError>;
    /// [`Tx::characters_named`] passed through `resolve` (see [`Tx::character_resolved`]).
    fn characters_named_resolved(
        &self,
        campaign: CampaignId,
        name: &str,
        key: u64,
        resolve: &mut dyn FnMut(&mut Character),
    ) -> Result<Vec<Character>, StoreError>;
    /// Characters matching a filter, ordered by name, with the total before paging.
    fn list_characters(
        &self,
        campaign: CampaignId,
        filter: &CharacterFilter,
        limit: usize,
        offset: usize,
    ) -> Result<(Vec<Character>, u64), StoreError>;
    /// Every character's id and name (for suggestions).
    fn character_names(&self, campaign: CampaignId) -> Result<Vec<(String, String)>, StoreError>;
    /// Inserts or replaces a character.
    fn put_character(
        &mut self,
        campaign: CampaignId,
        character: &Character,
    ) -> Result<(), StoreError>;
    /// [`Tx::put_character`] given the character's document as well: its text without the
    /// derived sheet ([`crate::model::doc_state::document_after_read`]), made once by a
    /// caller that also shows it. A store that stores another text ignores it. The character
    /// is shared, so a store that keeps what it wrote keeps it without a copy.
    fn put_character_doc(
        &mut self,
        campaign: CampaignId,
        character: &std::sync::Arc<Character>,
        doc: &crate::model::doc_state::Document,
    ) -> Result<(), StoreError> {
        let _ = doc;
        self.put_character(campaign, character)
    }
    /// Deletes a character; false when there was none.
    fn delete_character(&mut self, campaign: CampaignId, id: &str) -> Result<bool, StoreError>;

    /// Appends an event to the campaign's log and returns its sequence number.
    fn append_event(&mut self, campaign: CampaignId, event: &EventDraft)
    -> Result<i64, StoreError>;
    /// Appends an event to the campaign's log when its sequence number is not needed (a store
    /// may then send it with the commit).
    fn log_event(&mut self, campaign: CampaignId, event: &EventDraft) -> Result<(), StoreError> {
        self.append_event(campaign, event).map(|_| ())
    }
    /// The most recent events, newest first.
    fn recent_events(&self, campaign: CampaignId, limit: usize) -> Result<Vec<Event>, StoreError>;
    /// Every event in order (for export and audit).
    fn all_events(&self, campaign: CampaignId) -> Result<Vec<Event>, StoreError>;
    /// Re-inserts an exported event verbatim (import only).
    fn import_event(&mut self, campaign: CampaignId, event: &Event) -> Result<(), StoreError>;

    /// One location by id.
    fn location(&self, campaign: CampaignId, id: &str) -> Result<Option<Location>, StoreError>;
    /// Locations whose name matches case-insensitively (exactly, after trimming).
    fn locations_named(
        &self,
        campaign: CampaignId,
        name: &str,
    ) -> Result<Vec<Location>, StoreError>;
    /// Every location's id and name (for suggestions).
    fn location_names(&self, campaign: CampaignId) -> Result<Vec<(String, String)>, StoreError>;
    /// Locations ordered by name, with the total before paging.
    fn list_locations(
        &self,
        campaign: CampaignId,
        limit: usize,
        offset: usize,
    ) -> Result<(Vec<Location>, u64), StoreError>;
    /// Inserts or replaces a location.
    fn put_location(&mut self, campaign: CampaignId, location: &Location)
    -> Result<(), StoreError>;
    /// Deletes a location and the connections touching it; false when there was none.
    fn delete_location(&mut self, campaign: CampaignId, id: &str) -> Result<bool, StoreError>;

    /// One connection by id.
    fn connection(&self, campaign: CampaignId, id: &str) -> Result<Option<Connection>, StoreError>;
    /// Every connection with `location` at either end, ordered by id.
    fn connections_of(
        &self,
        campaign: CampaignId,
        location: &str,
    ) -> Result<Vec<Connection>, StoreError>;
    /// Inserts or replaces a connection.
    fn put_connection(
        &mut self,
        campaign: CampaignId,
        connection: &Connection,
    ) -> Result<(), StoreError>;
    /// Deletes a connection; false when there was none.
    fn delete_connection(&mut self, campaign: CampaignId, id: &str) -> Result<bool, StoreError>;

    /// One party by id, with its members.
    fn party(&self, campaign: CampaignId, id: &str) -> Result<Option<Party>, StoreError>;
    /// Every party, in creation order, with members.
    fn list_parties(&self, campaign: CampaignId) -> Result<Vec<Party>, StoreError>;
    /// The id of the party `character` belongs to, if any.
    fn party_of_character(
        &self,
        campaign: CampaignId,
        character: &str,
    ) -> Result<Option<String>, StoreError>;
    /// Inserts or replaces a party and its member list (a character in another party is a
    /// constraint error: check first).
    fn put_party(&mut self, campaign: CampaignId, party: &Party) -> Result<(), StoreError>;
    /// Deletes a party, its memberships and its travel log; false when there was none.
    fn delete_party(&mut self, campaign: CampaignId, id: &str) -> Result<bool, StoreError>;
    /// Appends to a party's travel log.
    fn append_travel(
        &mut self,
        campaign: CampaignId,
        party: &str,
        entry: &TravelEntry,
    ) -> Result<(), StoreError>;
    /// A party's travel log, newest first.
    fn travel_history(
        &self,
        campaign: CampaignId,
        party: &str,
        limit: usize,
    ) -> Result<Vec<TravelEntry>, StoreError>;

    /// One note by id.
    fn note(&self, campaign: CampaignId, id: &str) -> Result<Option<Note>, StoreError>;
    /// Inserts a note or replaces its fields (the store sets its timestamps); the full-text
    /// index follows.
    fn put_note(&mut self, campaign: CampaignId, note: &Note) -> Result<(), StoreError>;
    /// Deletes a note; false when there was none.
    fn delete_note(&mut self, campaign: CampaignId, id: &str) -> Result<bool, StoreError>;
    /// Notes matching a filter in `order`, with the total before paging.
    fn list_notes(
        &self,
        campaign: CampaignId,
        filter: &NoteFilter,
        order: NoteOrder,
        limit: usize,
        offset: usize,
    ) -> Result<(Vec<Note>, u64), StoreError>;
    /// Full-text search over content and tags, best first: notes holding every term
    /// (`all_terms`) or any of them; each term also matches as a word prefix. Ranking is the
    /// store's own (SQLite: FTS5 bm25).
    fn search_notes(
        &self,
        campaign: CampaignId,
        terms: &[String],
        all_terms: bool,
        filter: &NoteFilter,
        limit: usize,
    ) -> Result<Vec<ScoredNote>, StoreError>;

    // Encounters.
    /// An encounter by id.
    fn encounter(&self, campaign: CampaignId, id: &str) -> Result<Option<Encounter>, StoreError>;
    /// Encounters, newest first; only the active ones when `active_only`.
    fn list_encounters(
        &self,
        campaign: CampaignId,
        active_only: bool,
    ) -> Result<Vec<Encounter>, StoreError>;
    /// Inserts or replaces an encounter.
    fn put_encounter(
        &mut self,
        campaign: CampaignId,
        encounter: &Encounter,
    ) -> Result<(), StoreError>;
    /// Deletes an encounter; false when there was none.
    fn delete_encounter(&mut self, campaign: CampaignId, id: &str) -> Result<bool, StoreError>;

    // Campaign memory: quests, NPCs, secrets (one document each) and the world clock.
    /// One memory record of `kind` by id.
    fn memory(
        &self,
        campaign: CampaignId,
        kind: MemoryKind,
        id: &str,
    ) -> Result<Option<MemoryRecord>, StoreError>;
    /// Records of `kind` in creation order, only those with `status` when given.
    fn memories(
        &self,
        campaign: CampaignId,
        kind: MemoryKind,
        status: Option<&str>,
    ) -> Result<Vec<MemoryRecord>, StoreError>;
    /// Inserts or replaces a memory record.
    fn put_memory(&mut self, campaign: CampaignId, record: &MemoryRecord)
    -> Result<(), StoreError>;
    /// Deletes a memory record; false when there was none.
    fn delete_memory(
        &mut self,
        campaign: CampaignId,
        kind: MemoryKind,
        id: &str,
    ) -> Result<bool, StoreError>;
    /// The campaign's world clock, if it was ever set.
    fn clock(&self, campaign: CampaignId) -> Result<Option<WorldClock>, StoreError>;
    /// Saves the campaign's world clock.
    fn set_clock(&mut self, campaign: CampaignId, clock: &WorldClock) -> Result<(), StoreError>;

    // Access tokens of the HTTP transport.
    /// Stores a new access token.
    fn put_token(&mut self, token: &StoredToken) -> Result<(), StoreError>;
    /// One token by id, with its campaign's name.
    fn token(&self, id: &str) -> Result<Option<StoredToken>, StoreError>;
    /// Every token (of one campaign when given), oldest first.
    fn list_tokens(&self, campaign: Option<CampaignId>) -> Result<Vec<StoredToken>, StoreError>;
    /// Deletes a token; false when there was none.
    fn delete_token(&mut self, id: &str) -> Result<bool, StoreError>;
}

/// An access token as stored: only a hash of its secret is kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredToken {
    /// Public id ("tk…"), part of the token's text.
    pub id: String,
    /// Its campaign.
    pub campaign: CampaignId,
    /// Its campaign's name (filled in by reads).
    pub campaign_name: String,
    /// "dm" or "player".
    pub role: String,
    /// The character a player token acts for.
    pub character_id: Option<String>,
    /// SHA-256 of the secret.
    pub secret_hash: Vec<u8>,
    /// A free label ("Ana's laptop").
    pub label: Option<String>,
    /// When it was created (RFC 3339, UTC; set by the store).
    pub created_at: String,
}
