//! The mechanics catalog (DESIGN §4a): the project's own typed encoding, keyed by SRD index, of
//! what SRD content does, committed as data files under `crates/engine/catalog/` and checked by
//! the tests. Each category is its own module.

pub mod coverage;
pub mod items;
pub mod monsters;
pub mod spells;
