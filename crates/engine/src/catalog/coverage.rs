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

/// The coverage of the catalog against `srd`: an SRD entry without a catalog entry counts as
/// unencoded.
pub fn coverage(srd: &Compendium) -> Coverage {
    let mut categories = BTreeMap::new();
    let spells = super::spells::catalog();
    categories.insert(
        "spells".to_string(),
        count(srd.spells().iter().map(|s| s.index.as_str()), |k| {
            spells.get(k).map(|e| e.mechanical())
        }),
    );
    let items = super::items::catalog();
    categories.insert(
        "magicItems".into(),
        count(srd.magic_items().iter().map(|s| s.index.as_str()), |k| {
            items.get(k).map(|e| e.mechanical())
        }),
    );
    // Monster abilities: every special ability, action, legendary action and reaction of the
    // stat blocks, classified by `catalog::monster_abilities` (mechanical when the engine
    // resolves it, narrative with a reason otherwise); a name written twice in one block counts
    // once, mechanical only if every occurrence is.
    let mut abilities: BTreeMap<String, bool> = BTreeMap::new();
    for m in srd.monsters() {
        for (section, a) in super::monster_abilities::abilities(m) {
            let key = format!("{}/{}", m.index, a.name);
            let mech = super::monster_abilities::classify(m, section, a).mechanical();
            let e = abilities.entry(key).or_insert(true);
            *e = *e && mech;
        }
    }
    categories.insert(
        "monsterAbilities".into(),
        count(abilities.keys().map(String::as_str), |k| {
            abilities.get(k).copied()
        }),
    );
    // Race traits, class and subclass features, backgrounds and feats: the issue-16 catalog
    // files. An entry is mechanical when it grants something the engine applies (or reads its
    // grants from the SRD's own data), narrative when it gives a reason or only a note.
    let cat = super::Catalog::get();
    // A text-only `note` modifier is shown, not applied: an entry of only those is not
    // mechanical.
    let of = |e: &super::Entry| {
        Some(
            e.srd_data
                || e.grants.iter().any(|g| {
                    !matches!(
                        g,
                        super::Grant::Modifier {
                            modifier: tabletop_rules::modifiers::ModifierKind::Note { .. }
                        } | super::Grant::OptionPrerequisite { .. }
                    )
                }),
        )
    };
    for (name, keys, section) in [
        (
            "traits",
            srd.traits()
                .iter()
                .map(|s| s.index.as_str())
                .collect::<Vec<_>>(),
            &cat.traits,
        ),
        (
            "features",
            srd.features().iter().map(|s| s.index.as_str()).collect(),
            &cat.features,
        ),
        (
            "backgrounds",
            srd.backgrounds().iter().map(|s| s.index.as_str()).collect(),
            &cat.backgrounds,
        ),
        (
            "feats",
            srd.feats().iter().map(|s| s.index.as_str()).collect(),
            &cat.feats,
        ),
    ] {
        categories.insert(
            name.to_string(),
            count(keys, |k| section.get(k).and_then(of)),
        );
    }
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
