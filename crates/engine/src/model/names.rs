//! Names as lookups compare them. A leaf of the model: every file that finds things by name uses it.

/// The normalized form of a name used for lookups: trimmed, lower case, single spaces.
pub fn name_key(name: &str) -> String {
    name.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}
