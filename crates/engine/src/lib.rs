//! Tabletop's domain layer: campaigns, characters and the use cases the tools call.
//!
//! Each use case is a function taking a [`Call`] (one transaction, the campaign's dice stream, the
//! compendium and the event being recorded). The engine knows nothing of JSON-RPC or MCP; storage
//! sits behind the [`store::Store`] trait.
//!
//! # Layers
//!
//! Inside the crate, imports point one way, from the top of this list to the bottom:
//!
//! - **use cases**, one module per tool family ([`characters`], [`creation`], [`update`],
//!   [`combat`], [`magic`], [`inventory`], [`effects`], [`conditions`], [`concentration`],
//!   [`slots`], [`rest`], [`levelling`], [`checks`], [`world`], [`party`], [`travel`], [`notes`],
//!   [`session`], …) and [`engine`] with its [`Call`]: load through the store, apply the rules to
//!   the model, save, say what changed. A use case may call another use case, never in a circle.
//! - [`catalog`]: the mechanics catalog, pure data (issue 13 fills it).
//! - [`store`]: the [`Store`] trait and its SQLite implementation. It persists model types, so
//!   it sits above the model and below the use cases.
//! - [`model`]: what a campaign holds, as data plus pure derivation (the character and its
//!   derived sheet, items, effects, concentration, slots, spells, encounters, places, parties,
//!   notes, events). It knows no use case, no [`Call`] and no store.
//! - [`error`]: the one error type; it wraps the store's error from [`store::error`], a leaf.
//!
//! Old paths stay valid: `character`, `sheet` and `event` are facades over the model and the
//! character use cases, and each use-case module re-exports the model data it works on
//! (`effects::ActiveEffect`, `combat::Encounter`, `inventory::Item`, …). New code inside the
//! engine imports from `model` directly.

pub mod access;
pub mod campaign;
pub mod catalog;
pub mod characters;
pub mod checks;
pub mod choices;
pub mod class_features;
pub mod class_rules;
pub mod clock;
pub mod combat;
pub mod compendium;
pub mod concentration;
pub mod conditions;
pub mod creation;
pub mod dawn;
pub mod derive;
pub mod effects;
pub mod engine;
pub mod error;
pub mod inventory;
pub mod levelling;
pub mod lookup;
pub mod magic;
pub mod memory;
pub mod model;
pub mod monster;
pub mod notes;
pub mod party;
pub mod rest;
pub mod rest_dice;
pub mod rolls;
pub mod saves;
pub mod session;
pub mod shape;
pub mod shape_end;
pub mod slots;
pub mod store;
pub mod table;
pub mod table_state;
pub mod travel;
pub mod update;
pub mod world;

/// Characters (old path): the data of [`model::character`] and the lookups of [`characters`].
pub mod character {
    pub use crate::characters::{Deletion, delete_character, resolve, resolve_with_fields};
    pub use crate::model::character::*;
}

/// Character sheets (old path): the data of [`model::sheet`] and the reads of [`characters`].
pub mod sheet {
    pub use crate::characters::{get_character, list_characters};
    pub use crate::model::sheet::*;
}

pub use model::event;

pub use engine::{Call, Engine, EngineOptions, Revision};
pub use error::{EngineError, Result};
pub use store::{AnyStore, Durability, PgStore, SqliteStore, Store, StoreLocation};
