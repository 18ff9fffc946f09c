//! Compendium look-ups: filtered, paged search and fuzzy lookup of SRD entries, each answer
//! carrying the provenance of the content.

use serde::Serialize;
use tabletop_srd::{Entry, EntryKind, Hit, Lookup, SearchPage, SearchQuery, SrdError};

use crate::engine::Call;
use crate::error::{EngineError, Result};

/// Where compendium content comes from and under which license.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Source {
    /// "srd-5.1" or "srd-5.2".
    pub document: &'static str,
    /// "CC-BY-4.0".
    pub license: &'static str,
}

impl Source {
    /// "SRD 5.1, CC-BY-4.0", for the text of an answer.
    pub fn text(&self) -> String {
        let doc = self.document.replace("srd-", "SRD ");
        format!("{doc}, {}", self.license)
    }
}

/// The result of [`search_compendium`].
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchOutcome {
    /// The page of hits, with total and hasMore.
    #[serde(flatten)]
    pub page: SearchPage,
    /// The kind searched, if one was given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<EntryKind>,
    /// How many random matches were asked for, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub random: Option<usize>,
    /// Source document and license.
    pub provenance: Source,
}

/// The result of [`get_compendium_entry`].
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase", tag = "result")]
pub enum EntryOutcome<'a> {
    /// One entry matched.
    Found {
        /// The entry (the full record, with its `kind`).
        entry: Entry<'a>,
        /// False when the name was corrected ("firebal" → Fireball).
        exact: bool,
        /// Source document and license.
        provenance: Source,
    },
    /// No confident match: the closest entries, best first.
    Closest {
        /// The name asked for.
        given: String,
        /// Candidates.
        candidates: Vec<Hit>,
        /// Source document and license.
        provenance: Source,
    },
}

fn source(srd: &tabletop_srd::Compendium) -> Source {
    let p = srd.provenance();
    Source {
        document: p.document,
        license: p.license,
    }
}

/// A compendium error as an engine error naming the argument at fault.
pub fn srd_error(e: SrdError) -> EngineError {
    match e {
        SrdError::UnknownValue(u) => EngineError::UnknownName(u),
        SrdError::FilterNotApplicable { filter, .. } => EngineError::invalid(filter, e.to_string()),
        SrdError::InvalidQuery(m) => {
            let field = ["perPage", "page", "random", "crMin", "crMax", "level"]
                .into_iter()
                .find(|f| m.contains(f) || m.contains(&f.to_lowercase()))
                .unwrap_or("query");
            EngineError::invalid(field, m)
        }
        other => EngineError::Rule(other.to_string()),
    }
}

/// Searches the compendium: fuzzy names, literal text, filters (AND), pages. With `random`, the
/// matches are drawn from the campaign's dice stream (recorded) when the call may write, else
/// from `query.seed`.
pub fn search_compendium(call: &mut Call<'_>, query: &SearchQuery) -> Result<SearchOutcome> {
    let srd = call.require_compendium("search_compendium", "")?;
    let provenance = source(srd);
    let page = if query.random.is_some() && call.is_writable() {
        let rng = call.rng()?;
        srd.search_with_roller(query, rng).map_err(srd_error)?
    } else {
        srd.search(query).map_err(srd_error)?
    };
    if query.random.is_some() {
        let names: Vec<&str> = page.hits.iter().map(|h| h.name.as_str()).collect();
        call.record_roll(&serde_json::json!({ "randomCompendium": names }));
    }
    Ok(SearchOutcome {
        page,
        kind: query.kind,
        random: query.random,
        provenance,
    })
}

/// Looks one entry up by name or slug (typos corrected when the match is near-certain),
/// optionally of one kind; otherwise the closest entries. An empty name, or a name close to
/// nothing, is an error.
pub fn get_compendium_entry<'a>(
    call: &Call<'a>,
    kind: Option<EntryKind>,
    name: &str,
) -> Result<EntryOutcome<'a>> {
    let srd = call.require_compendium("get_compendium_entry", "")?;
    let provenance = source(srd);
    let name = name.trim();
    if name.is_empty() {
        return Err(EngineError::invalid(
            "name",
            "give the name of an entry, e.g. \"fireball\" or \"goblin\"",
        ));
    }
    match srd.get(kind, name) {
        Lookup::Found { entry, exact } => Ok(EntryOutcome::Found {
            entry,
            exact,
            provenance,
        }),
        Lookup::Closest { candidates } if !candidates.is_empty() => Ok(EntryOutcome::Closest {
            given: name.to_string(),
            candidates,
            provenance,
        }),
        Lookup::Closest { .. } => {
            let what = kind.map_or("entry".to_string(), |k| k.key().replace('_', " "));
            Err(EngineError::Rule(format!(
                "no SRD {what} is named like '{name}'; search_compendium with a word of its text (and no type) finds entries by description"
            )))
        }
    }
}
