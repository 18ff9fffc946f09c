//! The magic-item half of the mechanics catalog: our own encoding, keyed by SRD index, of what
//! each SRD magic item does — modifiers while worn (and attuned when it requires attunement), a
//! +N bonus on a base weapon or armor, healing when used, charges and their recharge, spell
//! scrolls — or `narrative` with a one-line reason. Data: `catalog/items.toml`, embedded and
//! parsed once; the tests hold every SRD magic item encoded and every key an SRD index.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde::Deserialize;
use tabletop_rules::modifiers::ModifierKind;

/// How an item works.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ItemKind {
    /// Modifiers while equipped (and attuned, if it requires attunement).
    Worn,
    /// A +N weapon, armor or ammunition on a base item.
    Bonus,
    /// Healing when used (potions).
    Consumable,
    /// Charges spent by use and regained at dawn.
    Charged,
    /// A spell scroll (cast with `use_scroll`).
    Scroll,
    /// Drunk or applied once: its modifiers become an active effect on the user for `minutes`
    /// (a potion of fire resistance, of giant strength).
    Potion,
    /// Not automated: the DM decides; `reason` says why.
    Narrative,
}

/// One item's entry.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ItemEntry {
    /// How it works.
    pub kind: ItemKind,
    /// What is left to the DM (required for narrative items).
    #[serde(default)]
    pub reason: Option<String>,
    /// Modifiers while active.
    #[serde(default)]
    pub modifiers: Vec<ModifierKind>,
    /// Healing dice when used.
    #[serde(default)]
    pub heal: Option<String>,
    /// Charges when full.
    #[serde(default)]
    pub charges: Option<u32>,
    /// Charges regained at dawn ("1d6+1").
    #[serde(default)]
    pub recharge: Option<String>,
    /// The +N of a bonus item.
    #[serde(default)]
    pub bonus: Option<i32>,
    /// How long a potion's modifiers last, in minutes.
    #[serde(default)]
    pub minutes: Option<u32>,
}

impl ItemEntry {
    /// Whether the engine applies it (anything but narrative).
    pub fn mechanical(&self) -> bool {
        self.kind != ItemKind::Narrative
    }
}

/// The catalog file, as committed.
pub const ITEMS_TOML: &str = include_str!("../../catalog/items.toml");

/// The parsed catalog, or why it does not parse.
pub fn try_catalog() -> Result<&'static BTreeMap<String, ItemEntry>, String> {
    static CAT: OnceLock<Result<BTreeMap<String, ItemEntry>, String>> = OnceLock::new();
    CAT.get_or_init(|| toml::from_str(ITEMS_TOML).map_err(|e| e.to_string()))
        .as_ref()
        .map_err(Clone::clone)
}

/// The parsed catalog (empty if the committed file did not parse: the tests refuse that).
pub fn catalog() -> &'static BTreeMap<String, ItemEntry> {
    static EMPTY: OnceLock<BTreeMap<String, ItemEntry>> = OnceLock::new();
    try_catalog().unwrap_or_else(|_| EMPTY.get_or_init(BTreeMap::new))
}

/// The entry of the item with this SRD index.
pub fn entry(index: &str) -> Option<&'static ItemEntry> {
    catalog().get(index)
}

/// Problems with one entry: narrative without a reason, worn without modifiers, dice that do
/// not parse, charges without a count.
pub fn check_entry(index: &str, e: &ItemEntry) -> Vec<String> {
    let mut bad = Vec::new();
    let ok = match e.kind {
        ItemKind::Narrative => e.reason.as_deref().is_some_and(|r| !r.trim().is_empty()),
        ItemKind::Worn => !e.modifiers.is_empty(),
        ItemKind::Bonus => e.bonus.is_some_and(|b| (1..=3).contains(&b)),
        ItemKind::Consumable => e.heal.is_some(),
        ItemKind::Charged => e.charges.is_some() || e.heal.is_some(),
        ItemKind::Scroll => true,
        ItemKind::Potion => !e.modifiers.is_empty() && e.minutes.is_some_and(|m| m > 0),
    };
    if !ok {
        bad.push(format!("{index}: {:?} lacks what it needs", e.kind));
    }
    for d in [&e.heal, &e.recharge].into_iter().flatten() {
        if tabletop_rules::dice::parse(d).is_err() {
            bad.push(format!("{index}: '{d}' is not dice"));
        }
    }
    bad
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_committed_item_catalog_parses_and_every_entry_is_coherent() {
        let cat = try_catalog().expect("catalog/items.toml parses");
        assert_eq!(cat.len(), 362);
        let bad: Vec<String> = cat.iter().flat_map(|(k, e)| check_entry(k, e)).collect();
        assert!(bad.is_empty(), "{bad:#?}");
        let ring = entry("ring-of-resistance-fire").unwrap();
        assert_eq!(
            ring.modifiers,
            vec![ModifierKind::Resistance {
                damage_type: Some(tabletop_rules::DamageType::Fire)
            }]
        );
    }
}
