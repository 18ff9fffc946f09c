//! Measured coverage of the mechanics catalog against the SRD (`tabletop srd coverage`): per
//! category, how many SRD entries there are, how many the engine applies (mechanical), how many
//! are marked narrative with a reason, and how many have no entry at all (unencoded).

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;
use tabletop_srd::Compendium;

/// One category's counts.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    /// SRD entries.
    pub total: usize,
    /// Encoded and applied by the engine.
    pub mechanical: usize,
    /// Encoded as narrative, with a reason shown when used.
    pub narrative: usize,
    /// No catalog entry.
    pub unencoded: usize,
}

/// Counts for every category, keyed `traits`, `features`, `spells`, `magicItems`,
/// `monsterAbilities`, `backgrounds`, `feats`.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Coverage {
    /// Per category.
    pub categories: BTreeMap<String, Counts>,
}

/// Counts one category: `keys` are the SRD's indexes, `mechanical(k)` says whether an entry
/// exists and is mechanical (`Some(true)`), narrative (`Some(false)`) or missing (`None`).
fn count<'a>(
    keys: impl IntoIterator<Item = &'a str>,
    entry: impl Fn(&str) -> Option<bool>,
) -> Counts {
    let keys: BTreeSet<&str> = keys.into_iter().collect();
    let mut c = Counts {
        total: keys.len(),
        ..Default::default()
    };
    for k in keys {
        match entry(k) {
            Some(true) => c.mechanical += 1,
            Some(false) => c.narrative += 1,
            None => c.unencoded += 1,
        }
    }
    c
}

/// The coverage of the catalog against `srd`. Categories this catalog does not encode yet
/// count every SRD entry as unencoded.
pub fn coverage(srd: &Compendium) -> Coverage {
    let mut categories = BTreeMap::new();
    let spells = super::spells::catalog();
    categories.insert(
        "spells".to_string(),
        count(srd.spells().iter().map(|s| s.index.as_str()), |k| {
            spells.get(k).map(|e| e.mechanical())
        }),
    );
    let none = |_: &str| None;
    let items = super::items::catalog();
    categories.insert(
        "magicItems".into(),
        count(srd.magic_items().iter().map(|s| s.index.as_str()), |k| {
            items.get(k).map(|e| e.mechanical())
        }),
    );
    // Monster abilities: the traits and hit riders `catalog::monsters` applies count as
    // mechanical; the rest has no entry yet.
    let mut applied: BTreeSet<String> = BTreeSet::new();
    let abilities: Vec<String> = srd
        .monsters()
        .iter()
        .flat_map(|m| {
            let mut keys = Vec::new();
            for a in m
                .special_abilities
                .iter()
                .chain(&m.actions)
                .chain(&m.legendary_actions)
                .chain(&m.reactions)
            {
                let key = format!("{}/{}", m.index, a.name);
                if super::monsters::APPLIED_TRAITS
                    .iter()
                    .any(|t| a.name.eq_ignore_ascii_case(t))
                    || super::monsters::rider_in(&a.desc).is_some()
                {
                    applied.insert(key.clone());
                }
                keys.push(key);
            }
            keys
        })
        .collect();
    categories.insert(
        "monsterAbilities".into(),
        count(abilities.iter().map(String::as_str), |k| {
            applied.contains(k).then_some(true)
        }),
    );
    categories.insert(
        "traits".into(),
        count(srd.traits().iter().map(|s| s.index.as_str()), none),
    );
    categories.insert(
        "features".into(),
        count(srd.features().iter().map(|s| s.index.as_str()), none),
    );
    categories.insert(
        "backgrounds".into(),
        count(srd.backgrounds().iter().map(|s| s.index.as_str()), none),
    );
    categories.insert(
        "feats".into(),
        count(srd.feats().iter().map(|s| s.index.as_str()), none),
    );
    Coverage { categories }
}

impl Coverage {
    /// A table for the terminal.
    pub fn table(&self) -> String {
        let mut s = format!(
            "{:<18}{:>7}{:>12}{:>11}{:>11}{:>13}\n",
            "category", "total", "mechanical", "narrative", "unencoded", "mechanical %"
        );
        for (k, c) in &self.categories {
            let pct = if c.total == 0 {
                0.0
            } else {
                c.mechanical as f64 * 100.0 / c.total as f64
            };
            s.push_str(&format!(
                "{k:<18}{:>7}{:>12}{:>11}{:>11}{:>12.1}%\n",
                c.total, c.mechanical, c.narrative, c.unencoded, pct
            ));
        }
        s
    }
}
