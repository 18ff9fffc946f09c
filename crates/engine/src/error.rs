//! The engine's errors. Each message says what is wrong and what is allowed; the MCP layer turns
//! them into tool errors in one place.

use tabletop_rules::UnknownName;
use tabletop_rules::dice::DiceError;

use crate::store::error::StoreError;

/// Everything a use case can refuse or fail with.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// A referenced thing does not exist.
    #[error("{}{}", missing(kind, given), suggest(suggestions))]
    NotFound {
        /// What was looked up ("character", …).
        kind: &'static str,
        /// The id or name given.
        given: String,
        /// Close names that do exist.
        suggestions: Vec<String>,
    },
    /// A referenced thing does not exist; the answer lists close names and the ones that exist.
    #[error("{}{}{}", missing(kind, given), suggest(suggestions), among(kind, existing, !suggestions.is_empty()))]
    NotFoundAmong {
        /// What was looked up ("character", …).
        kind: &'static str,
        /// The id or name given.
        given: String,
        /// Close names that do exist.
        suggestions: Vec<String>,
        /// Every one that exists (the answer shows the first 20).
        existing: Vec<String>,
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

/// "no character 'x' in this campaign" (campaigns are not inside one; a blank name says so).
fn missing(kind: &str, given: &str) -> String {
    let shown: String = {
        let mut it = given.chars();
        let head: String = it.by_ref().take(40).collect();
        if it.next().is_some() {
            format!("{head}…")
        } else {
            head
        }
    };
    match (kind, given.trim().is_empty()) {
        ("campaign", true) => "no campaign name given: a campaign name is 1–64 characters".into(),
        ("campaign", false) => format!("no campaign '{shown}'"),
        (_, true) => format!("no {kind} given: the {kind} name or id is empty"),
        _ => format!("no {kind} '{shown}' in this campaign"),
    }
}

fn among(kind: &str, existing: &[String], after_question: bool) -> String {
    const SHOWN: usize = 20;
    let lead = if after_question {
        format!(" All {kind}s: ")
    } else {
        format!("; {kind}s: ")
    };
    match existing.len() {
        0 => format!("; there are no {kind}s yet"),
        n if n <= SHOWN => format!("{lead}{}", existing.join(", ")),
        n => format!(
            "{lead}{}, … ({n} in all; list them to see every one)",
            existing[..SHOWN].join(", ")
        ),
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

#[cfg(test)]
mod not_found_tests {
    use super::EngineError;

    #[test]
    fn not_found_names_what_exists_and_campaigns_are_not_in_a_campaign() {
        let e = EngineError::NotFoundAmong {
            kind: "campaign",
            given: String::new(),
            suggestions: Vec::new(),
            existing: vec!["alpha".into()],
        };
        assert_eq!(
            e.to_string(),
            "no campaign name given: a campaign name is 1–64 characters; campaigns: alpha"
        );
        let e = EngineError::NotFoundAmong {
            kind: "campaign",
            given: "alpah".into(),
            suggestions: vec!["alpha".into()],
            existing: vec!["alpha".into(), "beta".into()],
        };
        assert_eq!(
            e.to_string(),
            "no campaign 'alpah'; did you mean 'alpha'? All campaigns: alpha, beta"
        );
        let e = EngineError::NotFoundAmong {
            kind: "character",
            given: "pt1".into(),
            suggestions: Vec::new(),
            existing: Vec::new(),
        };
        assert_eq!(
            e.to_string(),
            "no character 'pt1' in this campaign; there are no characters yet"
        );
    }
}
