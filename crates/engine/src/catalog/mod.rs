//! The mechanics catalog (DESIGN §4a): our own typed encoding of every SRD trait, feature,
//! spell, item and monster ability, as pure data loaded once: committed as data files under
//! `crates/engine/catalog/` and checked by the tests, one module per category.
//!
//! What belongs here is data the use cases read (what a spell or item does, typed), not code
//! that reads the SRD at call time or touches the store. Layer rule: the catalog may use
//! [`crate::model`] types; it never imports a use case, a [`crate::engine::Call`] or the store.

pub mod coverage;
pub mod items;
pub mod monsters;
pub mod spells;
