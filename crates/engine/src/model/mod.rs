//! The model: what a campaign holds, as data plus pure derivation.
//!
//! Characters as stored ([`character`]; a document's base and state parts, [`doc_state`]) and as
//! read ([`sheet`]: effective values through the rules
//! crate's one pipeline), items and inventories, effects, concentration, spell slots, spells,
//! encounters and their auras, places, parties, notes, the travel log and the event log.
//!
//! Layer rule: nothing here knows a use case, a [`crate::engine::Call`] or the store. Model files
//! import only each other, [`crate::error`] and the rules, grid and srd crates. The store persists
//! these types (store → model), and the use cases load them through the store, apply the rules and
//! save them back.

pub mod aura;
pub mod build;
pub mod character;
pub mod concentration;
pub mod condition_ends;
pub mod doc_state;
pub mod effects;
pub mod encounter;
pub mod event;
pub mod gear;
pub mod inventory;
pub mod item_state;
pub mod memory;
pub mod names;
pub mod notes;
pub mod party;
pub mod senses;
pub mod shape;
pub mod sheet;
pub mod slots;
pub mod spell;
pub mod travel;
pub mod world;
