//! What a spell made of an item, kept on the item (issue 17, the life-and-creation spells):
//! when it spoils or vanishes on the world clock (Goodberry's berries, Create Food and Water's
//! food), whether it is broken (Mending repairs it) or tainted (Purify Food and Drink cleans
//! it). [`spoil`] takes off the items whose time ran out when the clock moves.

use serde::{Deserialize, Serialize};

use super::inventory::Inventory;

/// The state a spell gave an item.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ItemState {
    /// The world-clock second it spoils or vanishes at.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<u64>,
    /// Broken (a break or tear Mending repairs).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub broken: bool,
    /// Poisoned or diseased food or drink (Purify Food and Drink cleans it).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub tainted: bool,
}

/// Whether an item named `name` with `state` is broken: its state says so, or its name does
/// ("Broken Lantern", "Lantern (broken)").
pub fn is_broken(name: &str, state: Option<&ItemState>) -> bool {
    state.is_some_and(|s| s.broken) || name_marks(name, &["broken", "torn", "cracked"])
}

/// Whether food or drink named `name` with `state` is poisoned or diseased.
pub fn is_tainted(name: &str, state: Option<&ItemState>) -> bool {
    state.is_some_and(|s| s.tainted)
        || name_marks(name, &["poisoned", "diseased", "tainted", "spoiled"])
}

fn name_marks(name: &str, words: &[&str]) -> bool {
    let lower = name.to_lowercase();
    lower
        .split(|c: char| !c.is_alphanumeric())
        .any(|w| words.contains(&w))
}

/// `name` without the marking words (and their brackets): "Broken Lantern" → "Lantern",
/// "Ale (poisoned)" → "Ale".
pub fn unmarked(name: &str, words: &[&str]) -> String {
    let kept: Vec<&str> = name
        .split_whitespace()
        .filter(|w| {
            let bare: String = w
                .chars()
                .filter(|c| c.is_alphanumeric())
                .collect::<String>()
                .to_lowercase();
            !words.contains(&bare.as_str())
        })
        .collect();
    let out = kept.join(" ").replace("()", "");
    let out = out.trim().trim_end_matches(',').trim().to_string();
    if out.is_empty() {
        name.to_string()
    } else {
        out
    }
}

/// Takes off the items whose time ran out by `now` (seconds); what went, as "Goodberry ×10
/// (spoiled)".
pub fn spoil(inv: &mut Inventory, now: u64) -> Vec<String> {
    let mut gone = Vec::new();
    inv.items.retain(|i| {
        let expired = i
            .state
            .as_ref()
            .and_then(|s| s.expires_at)
            .is_some_and(|t| t <= now);
        if expired {
            gone.push(format!("{} ×{} (spoiled)", i.name, i.quantity));
        }
        !expired
    });
    gone
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_are_read_and_taken_off_names() {
        assert!(is_broken("Broken Lantern", None));
        assert!(is_broken("Lantern (cracked)", None));
        assert!(!is_broken("Lantern", None));
        assert!(is_tainted("Ale (poisoned)", None));
        assert_eq!(unmarked("Broken Lantern", &["broken"]), "Lantern");
        assert_eq!(unmarked("Ale (poisoned)", &["poisoned"]), "Ale");
    }
}
