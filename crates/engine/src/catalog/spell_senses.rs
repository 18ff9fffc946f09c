//! Divination spells answered from the engine's state (`detect = {…}` in
//! `catalog/spells.toml`): what the spell senses and how far. Applying it is
//! `combat::divination` (on the encounter map) and `magic::divination` (Identify, anywhere).

use serde::Deserialize;

/// What a divination spell senses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DetectKind {
    /// Magic items carried, magical effects on creatures and spell zones within range
    /// (Detect Magic).
    Magic,
    /// Creatures of the listed types within range, with their type and distance (Detect Evil
    /// and Good, Locate Animals or Plants).
    Types,
    /// Poisonous creatures (an attack or ability that poisons), poisoned creatures and poisons
    /// carried within range (Detect Poison and Disease).
    Poison,
    /// Hidden props (traps) within range and line of sight: how many, not where (Find Traps).
    Traps,
    /// The named creature: its distance and direction when within range (Locate Creature).
    Creature,
    /// An object by name (`item`): who carries it or where it lies, distance and direction
    /// (Locate Object).
    Object,
    /// An item's properties from the catalog (Identify): rarity, attunement, charges, what it
    /// grants; or a creature's magical effects.
    Identify,
}

/// One divination spell.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DetectSpec {
    /// What it senses.
    pub what: DetectKind,
    /// How far, in feet (absent: the SRD area's or range's).
    #[serde(default)]
    pub range_ft: Option<u32>,
    /// Creature types sensed (`types`).
    #[serde(default)]
    pub types: Vec<String>,
}

impl DetectSpec {
    /// The problems of one spell's detect table.
    pub fn check(&self, index: &str) -> Vec<String> {
        let mut bad = Vec::new();
        if (self.what == DetectKind::Types) == self.types.is_empty() {
            bad.push(format!(
                "{index}: detect types go with what = \"types\" and only with it"
            ));
        }
        bad
    }
}
