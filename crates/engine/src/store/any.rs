//! A store chosen at run time: the embedded SQLite file or a shared PostgreSQL database.

use std::path::PathBuf;

use super::{
    CampaignId, CampaignInfo, Durability, PgStore, PgTx, SqliteStore, SqliteTx, Store, StoreError,
    StoredToken, Transaction, Tx,
};
use crate::model::character::{Character, CharacterFilter};
use crate::model::encounter::Encounter;
use crate::model::event::{Event, EventDraft};
use crate::model::memory::{MemoryKind, MemoryRecord, WorldClock};
use crate::model::notes::{Note, NoteFilter, NoteOrder, ScoredNote};
use crate::model::party::Party;
use crate::model::travel::TravelEntry;
use crate::model::world::{Connection, Location};

/// Where campaigns live.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoreLocation {
    /// A SQLite file, with its durability.
    Sqlite(PathBuf, Durability),
    /// A PostgreSQL database (`postgres://…` URL).
    Postgres(String),
}

impl StoreLocation {
    /// Opens (creating or migrating as needed) the store.
    pub fn open(&self) -> Result<AnyStore, StoreError> {
        Ok(match self {
            StoreLocation::Sqlite(path, durability) => {
                AnyStore::Sqlite(SqliteStore::open_with(path, *durability)?)
            }
            StoreLocation::Postgres(url) => AnyStore::Postgres(Box::new(PgStore::open(url)?)),
        })
    }

    /// Whether a database URL names PostgreSQL (`postgres://` or `postgresql://`).
    pub fn is_postgres_url(url: &str) -> bool {
        url.starts_with("postgres://") || url.starts_with("postgresql://")
    }
}

/// Either store.
// One per engine, never moved on a hot path: the size difference costs nothing.
#[allow(clippy::large_enum_variant)]
pub enum AnyStore {
    /// The embedded store.
    Sqlite(SqliteStore),
    /// The shared store.
    Postgres(Box<PgStore>),
}

impl From<SqliteStore> for AnyStore {
    fn from(s: SqliteStore) -> Self {
        AnyStore::Sqlite(s)
    }
}

impl From<PgStore> for AnyStore {
    fn from(s: PgStore) -> Self {
        AnyStore::Postgres(Box::new(s))
    }
}

impl Store for AnyStore {
    type Txn<'a> = AnyTx<'a>;

    fn begin(&mut self, write: bool) -> Result<AnyTx<'_>, StoreError> {
        Ok(match self {
            AnyStore::Sqlite(s) => AnyTx::Sqlite(s.begin(write)?),
            AnyStore::Postgres(s) => AnyTx::Postgres(s.begin(write)?),
        })
    }

    fn data_version(&mut self) -> Option<u64> {
        match self {
            AnyStore::Sqlite(s) => s.data_version(),
            AnyStore::Postgres(s) => s.data_version(),
        }
    }
}

/// A transaction of either store.
pub enum AnyTx<'a> {
    /// On SQLite.
    Sqlite(SqliteTx<'a>),
    /// On PostgreSQL.
    Postgres(PgTx<'a>),
}

impl Transaction for AnyTx<'_> {
    fn commit(self) -> Result<(), StoreError> {
        match self {
            AnyTx::Sqlite(t) => t.commit(),
            AnyTx::Postgres(t) => t.commit(),
        }
    }
}

macro_rules! delegate {
    (ref $name:ident($($arg:ident : $ty:ty),*) -> $ret:ty) => {
        fn $name(&self, $($arg: $ty),*) -> $ret {
            match self {
                AnyTx::Sqlite(t) => t.$name($($arg),*),
                AnyTx::Postgres(t) => t.$name($($arg),*),
            }
        }
    };
    (mut $name:ident($($arg:ident : $ty:ty),*) -> $ret:ty) => {
        fn $name(&mut self, $($arg: $ty),*) -> $ret {
            match self {
                AnyTx::Sqlite(t) => t.$name($($arg),*),
                AnyTx::Postgres(t) => t.$name($($arg),*),
            }
        }
    };
}

impl Tx for AnyTx<'_> {
    delegate!(mut lock_campaign(campaign: CampaignId) -> Result<bool, StoreError>);
    delegate!(mut ensure_campaign(name: &str) -> Result<CampaignId, StoreError>);
    delegate!(ref find_campaign(name: &str) -> Result<Option<CampaignId>, StoreError>);
    delegate!(ref campaign_exists(campaign: CampaignId) -> Result<bool, StoreError>);
    delegate!(ref list_campaigns() -> Result<Vec<CampaignInfo>, StoreError>);
    delegate!(mut delete_campaign(name: &str) -> Result<bool, StoreError>);
    delegate!(ref rng_state(campaign: CampaignId) -> Result<Option<String>, StoreError>);
    delegate!(mut set_rng_state(campaign: CampaignId, state: &str) -> Result<(), StoreError>);
    delegate!(mut next_id(campaign: CampaignId, kind: &str) -> Result<u64, StoreError>);
    delegate!(mut advance_id(campaign: CampaignId, kind: &str, past: u64) -> Result<(), StoreError>);
    delegate!(ref character(campaign: CampaignId, id: &str) -> Result<Option<Character>, StoreError>);
    delegate!(ref characters_named(campaign: CampaignId, name: &str) -> Result<Vec<Character>, StoreError>);
    delegate!(ref character_resolved(campaign: CampaignId, id: &str, key: u64, resolve: &mut dyn FnMut(&mut Character)) -> Result<Option<Character>, StoreError>);
    delegate!(ref characters_named_resolved(campaign: CampaignId, name: &str, key: u64, resolve: &mut dyn FnMut(&mut Character)) -> Result<Vec<Character>, StoreError>);
    delegate!(ref list_characters(campaign: CampaignId, filter: &CharacterFilter, limit: usize, offset: usize) -> Result<(Vec<Character>, u64), StoreError>);
    delegate!(ref character_names(campaign: CampaignId) -> Result<Vec<(String, String)>, StoreError>);
    delegate!(mut put_character(campaign: CampaignId, character: &Character) -> Result<(), StoreError>);
    delegate!(mut put_character_doc(campaign: CampaignId, character: &std::sync::Arc<Character>, doc: &crate::model::doc_state::Document) -> Result<(), StoreError>);
    delegate!(mut delete_character(campaign: CampaignId, id: &str) -> Result<bool, StoreError>);
    delegate!(mut append_event(campaign: CampaignId, event: &EventDraft) -> Result<i64, StoreError>);
    delegate!(mut log_event(campaign: CampaignId, event: &EventDraft) -> Result<(), StoreError>);
    delegate!(ref recent_events(campaign: CampaignId, limit: usize) -> Result<Vec<Event>, StoreError>);
    delegate!(ref all_events(campaign: CampaignId) -> Result<Vec<Event>, StoreError>);
    delegate!(mut import_event(campaign: CampaignId, event: &Event) -> Result<(), StoreError>);
    delegate!(ref location(campaign: CampaignId, id: &str) -> Result<Option<Location>, StoreError>);
    delegate!(ref locations_named(campaign: CampaignId, name: &str) -> Result<Vec<Location>, StoreError>);
    delegate!(ref location_names(campaign: CampaignId) -> Result<Vec<(String, String)>, StoreError>);
    delegate!(ref list_locations(campaign: CampaignId, limit: usize, offset: usize) -> Result<(Vec<Location>, u64), StoreError>);
    delegate!(mut put_location(campaign: CampaignId, location: &Location) -> Result<(), StoreError>);
    delegate!(mut delete_location(campaign: CampaignId, id: &str) -> Result<bool, StoreError>);
    delegate!(ref connection(campaign: CampaignId, id: &str) -> Result<Option<Connection>, StoreError>);
    delegate!(ref connections_of(campaign: CampaignId, location: &str) -> Result<Vec<Connection>, StoreError>);
    delegate!(mut put_connection(campaign: CampaignId, connection: &Connection) -> Result<(), StoreError>);
    delegate!(mut delete_connection(campaign: CampaignId, id: &str) -> Result<bool, StoreError>);
    delegate!(ref party(campaign: CampaignId, id: &str) -> Result<Option<Party>, StoreError>);
    delegate!(ref list_parties(campaign: CampaignId) -> Result<Vec<Party>, StoreError>);
    delegate!(ref party_of_character(campaign: CampaignId, character: &str) -> Result<Option<String>, StoreError>);
    delegate!(mut put_party(campaign: CampaignId, party: &Party) -> Result<(), StoreError>);
    delegate!(mut delete_party(campaign: CampaignId, id: &str) -> Result<bool, StoreError>);
    delegate!(mut append_travel(campaign: CampaignId, party: &str, entry: &TravelEntry) -> Result<(), StoreError>);
    delegate!(ref travel_history(campaign: CampaignId, party: &str, limit: usize) -> Result<Vec<TravelEntry>, StoreError>);
    delegate!(ref note(campaign: CampaignId, id: &str) -> Result<Option<Note>, StoreError>);
    delegate!(mut put_note(campaign: CampaignId, note: &Note) -> Result<(), StoreError>);
    delegate!(mut delete_note(campaign: CampaignId, id: &str) -> Result<bool, StoreError>);
    delegate!(ref list_notes(campaign: CampaignId, filter: &NoteFilter, order: NoteOrder, limit: usize, offset: usize) -> Result<(Vec<Note>, u64), StoreError>);
    delegate!(ref search_notes(campaign: CampaignId, terms: &[String], all_terms: bool, filter: &NoteFilter, limit: usize) -> Result<Vec<ScoredNote>, StoreError>);
    delegate!(ref encounter(campaign: CampaignId, id: &str) -> Result<Option<Encounter>, StoreError>);
    delegate!(ref list_encounters(campaign: CampaignId, active_only: bool) -> Result<Vec<Encounter>, StoreError>);
    delegate!(mut put_encounter(campaign: CampaignId, encounter: &Encounter) -> Result<(), StoreError>);
    delegate!(mut delete_encounter(campaign: CampaignId, id: &str) -> Result<bool, StoreError>);
    delegate!(ref memory(campaign: CampaignId, kind: MemoryKind, id: &str) -> Result<Option<MemoryRecord>, StoreError>);
    delegate!(ref memories(campaign: CampaignId, kind: MemoryKind, status: Option<&str>) -> Result<Vec<MemoryRecord>, StoreError>);
    delegate!(mut put_memory(campaign: CampaignId, record: &MemoryRecord) -> Result<(), StoreError>);
    delegate!(mut delete_memory(campaign: CampaignId, kind: MemoryKind, id: &str) -> Result<bool, StoreError>);
    delegate!(ref clock(campaign: CampaignId) -> Result<Option<WorldClock>, StoreError>);
    delegate!(mut set_clock(campaign: CampaignId, clock: &WorldClock) -> Result<(), StoreError>);
    delegate!(mut put_token(token: &StoredToken) -> Result<(), StoreError>);
    delegate!(ref token(id: &str) -> Result<Option<StoredToken>, StoreError>);
    delegate!(ref list_tokens(campaign: Option<CampaignId>) -> Result<Vec<StoredToken>, StoreError>);
    delegate!(mut delete_token(id: &str) -> Result<bool, StoreError>);
}
