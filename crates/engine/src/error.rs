//! The engine's errors. Each message says what is wrong and what is allowed; the MCP layer turns
//! them into tool errors in one place.

use tabletop_rules::UnknownName;
use tabletop_rules::dice::DiceError;

use crate::store::error::StoreError;

/// Everything a use case can refuse or fail with.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// A referenced thing does not exist.
    #[error("no {kind} '{given}' in this campaign{}", suggest(suggestions))]
    NotFound {
        /// What was looked up ("character", …).
        kind: &'static str,
        /// The id or name given.
        given: String,
        /// Close names that do exist.
        suggestions: Vec<String>,
    },
    /// A name matched several things.
    #[error("'{given}' matches {} {kind}s: {}; pass {id_field} instead", candidates.len(), candidates.join(", "))]
    Ambiguous {
        /// What was looked up.
        kind: &'static str,
        /// The name given.
        given: String,
        /// Each candidate as "Name (id)".
        candidates: Vec<String>,
        /// The field that disambiguates ("characterId").
        id_field: &'static str,
    },
    /// An argument is out of range or inconsistent with another.
    #[error("{field}: {problem}")]
    Invalid {
        /// The argument at fault (camelCase, as the caller sent it).
        field: String,
        /// What is wrong and what is allowed.
        problem: String,
    },
    /// A value that is not one of the allowed names.
    #[error(transparent)]
    UnknownName(#[from] UnknownName),
    /// A dice expression that cannot be parsed or rolled.
    #[error(transparent)]
    Dice(#[from] DiceError),
    /// The damage pipeline refused (e.g. healing the dead).
    #[error(transparent)]
    Damage(#[from] tabletop_rules::damage::DamageError),
    /// A position, area or map edit the grid refused.
    #[error(transparent)]
    Grid(#[from] tabletop_grid::GridError),
    /// The rules forbid the action; the message says why and what would allow it.
    #[error("{0}")]
    Rule(String),
    /// SRD content was needed but the compendium is not installed.
    #[error(
        "{what} needs the SRD compendium, which is not installed: run `tabletop srd install --from DIR` (a 5e-database src/2014/en folder) or `tabletop srd install --url`, or set TABLETOP_SRD_DIR to that folder{}",
        or_else(alternative)
    )]
    NoCompendium {
        /// What needed it.
        what: String,
        /// What the caller can do without it (empty: nothing).
        alternative: String,
    },
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

fn or_else(alternative: &str) -> String {
    if alternative.is_empty() {
        String::new()
    } else {
        format!("; or use {alternative}")
    }
}

fn suggest(s: &[String]) -> String {
    match s {
        [] => String::new(),
        [one] => format!("; did you mean '{one}'?"),
        many => format!("; did you mean one of: {}?", many.join(", ")),
    }
}

impl EngineError {
    /// Shorthand for [`EngineError::Invalid`].
    pub fn invalid(field: impl Into<String>, problem: impl Into<String>) -> Self {
        EngineError::Invalid {
            field: field.into(),
            problem: problem.into(),
        }
    }
}

/// The single match of a lookup by name: the match, or `not_found()` when there is none, or an
/// [`EngineError::Ambiguous`] listing every candidate (as `label` shows it) when there are several.
pub(crate) fn one_match<T>(
    kind: &'static str,
    id_field: &'static str,
    given: &str,
    mut found: Vec<T>,
    label: impl Fn(&T) -> String,
    not_found: impl FnOnce() -> Result<EngineError>,
) -> Result<T> {
    match found.len() {
        0 => Err(not_found()?),
        1 => found
            .pop()
            .ok_or_else(|| EngineError::Rule("internal: lookup changed".into())),
        _ => Err(EngineError::Ambiguous {
            kind,
            given: given.to_string(),
            candidates: found.iter().map(label).collect(),
            id_field,
        }),
    }
}

/// The engine's result type.
pub type Result<T, E = EngineError> = std::result::Result<T, E>;
