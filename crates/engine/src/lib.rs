//! Tabletop's domain layer: campaigns, characters and the use cases the tools call.
//!
//! Each use case is a function taking a [`Call`] (one transaction, the campaign's dice stream, the
//! compendium and the event being recorded). The engine knows nothing of JSON-RPC or MCP; storage
//! sits behind the [`store::Store`] trait.

pub mod campaign;
pub mod catalog;
pub mod character;
pub mod checks;
pub mod combat;
pub mod compendium;
pub mod concentration;
pub mod conditions;
pub mod creation;
pub mod effects;
pub mod engine;
pub mod error;
pub mod event;
pub mod inventory;
pub mod levelling;
pub mod lookup;
pub mod magic;
pub mod monster;
pub mod notes;
pub mod party;
pub mod rest;
pub mod rolls;
pub mod session;
pub mod sheet;
pub mod slots;
pub mod store;
pub mod travel;
pub mod update;
pub mod world;

pub use engine::{Call, Engine, EngineOptions};
pub use error::{EngineError, Result};
pub use store::{SqliteStore, Store};
