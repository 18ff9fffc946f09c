//! Errors of loading and querying the compendium.

use std::path::PathBuf;

use tabletop_rules::UnknownName;

/// Everything that can go wrong in this crate.
#[derive(Debug, thiserror::Error)]
pub enum SrdError {
    /// The data directory does not exist or holds no SRD files.
    #[error(
        "no SRD data at {}; run `tabletop srd install --from <5e-database>/src/2014/en` or set TABLETOP_SRD_DIR",
        dir.display()
    )]
    NoData {
        /// The directory that was looked at.
        dir: PathBuf,
    },
    /// A file could not be read.
    #[error("cannot read {}: {source}", file.display())]
    Io {
        /// The file.
        file: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// A collection file the 2014 layout requires is absent.
    #[error("{}: required SRD collection file is missing", file.display())]
    MissingFile {
        /// The file that should exist.
        file: PathBuf,
    },
    /// A `5e-SRD-*.json` file this loader does not know.
    #[error("{}: unknown SRD collection file; known: {}", file.display(), known.join(", "))]
    UnknownFile {
        /// The file.
        file: PathBuf,
        /// The collection files this ruleset knows.
        known: Vec<&'static str>,
    },
    /// A file is not valid JSON or does not have the expected shape.
    #[error("{}: invalid data at `{path}`: {message}", file.display())]
    Malformed {
        /// The file.
        file: PathBuf,
        /// JSON path of the offending value (`[12].damage.damage_type`).
        path: String,
        /// What is wrong.
        message: String,
    },
    /// A filter, kind or other name was not one of the allowed values.
    #[error(transparent)]
    UnknownValue(#[from] UnknownName),
    /// A filter that does not apply to the kind searched.
    #[error("filter '{filter}' does not apply to {target}; it applies to: {applies_to}")]
    FilterNotApplicable {
        /// The filter name (`school`).
        filter: &'static str,
        /// What was searched ("kind 'monster'", or "the other filters given").
        target: String,
        /// The kinds it applies to.
        applies_to: String,
    },
    /// Another invalid query parameter (pagination, ranges, …).
    #[error("invalid query: {0}")]
    InvalidQuery(String),
}
