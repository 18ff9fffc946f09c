//! The SRD compendium of Tabletop: loads the 5e-database JSON (SRD 5.1 `2014`, and the partial
//! SRD 5.2 `2024`) from a directory at run time into typed records, indexes them, and answers
//! fuzzy lookups and filtered searches.
//!
//! The data is never part of this crate: [`Compendium::load`] reads it from a directory (tests use
//! the `TABLETOP_SRD_DIR` environment variable). Records serialize as camelCase JSON; [`Card`]
//! renders a compact text card of any record for a language model.
//!
//! ```no_run
//! # use tabletop_srd::*;
//! let srd = Compendium::load(std::path::Path::new("srd/2014"))?;
//! let fireball = srd.spell("fireball").expect("in the SRD");
//! println!("{}", fireball.card());
//! let page = srd.search(&SearchQuery {
//!     kind: Some(EntryKind::Spell),
//!     filters: SearchFilters { class: Some("wizard".into()), level: Some(3), ..Default::default() },
//!     ..Default::default()
//! })?;
//! # Ok::<(), SrdError>(())
//! ```

#![warn(missing_docs)]

mod card;
mod compendium;
mod convert;
mod entry;
mod error;
mod index;
mod kind;
mod load;
pub mod model;
mod multiclassing;
mod raw;
mod search;

#[cfg(test)]
mod data_tests;

pub use card::{Card, cr_text, ordinal, summary};
pub use compendium::{Compendium, Provenance, Ruleset};
pub use entry::Entry;
pub use error::SrdError;
pub use kind::{EntryKind, normalize};
pub use model::*;
pub use multiclassing::Multiclassing;
pub use search::{
    DEFAULT_PER_PAGE, Hit, Lookup, MAX_PER_PAGE, SearchFilters, SearchPage, SearchQuery,
};
