//! The spell catalog's encoding of spells that move creatures, call creatures or grant ways of
//! moving: teleportation on the encounter map ([`TeleportSpec`]: Misty Step, Dimension Door),
//! summoned SRD creatures ([`SummonSpec`]: Conjure Animals, Find Familiar, Animate Dead) and
//! movement modes an effect grants ([`SpeedGrant`]: Fly, Spider Climb). Types only; the casting
//! lives in `combat::summons` and `combat::teleport`.

use serde::Deserialize;

/// A teleport on the encounter map: the caster (and passengers) appear at the chosen square.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TeleportSpec {
    /// How far the destination may be, in feet (the SRD's range is "Self" for Misty Step).
    pub range_ft: u32,
    /// The caster must see the destination (Misty Step).
    #[serde(default)]
    pub sight: bool,
    /// Willing creatures within `passenger_reach_ft` the caster may bring along (Dimension Door:
    /// 1); they appear in free squares next to the destination.
    #[serde(default)]
    pub passengers: u32,
    /// Feet: how close a passenger must stand (5).
    #[serde(default = "five")]
    pub passenger_reach_ft: u32,
    /// Damage the caster (and passengers) take when the destination is occupied, and the
    /// teleport fails (Dimension Door: "4d6" force).
    #[serde(default)]
    pub occupied_damage: Option<String>,
}

fn five() -> u32 {
    5
}

/// One creature a summoning spell may call: an SRD monster index, how many at the spell's own
/// level (or at `min_slot`), how many more per slot level above.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SummonOption {
    /// The SRD monster index ("skeleton").
    pub creature: String,
    /// How many.
    #[serde(default = "one")]
    pub count: u32,
    /// More per slot level above the spell's level (or above `min_slot`).
    #[serde(default)]
    pub per_slot: u32,
    /// The lowest slot at which this option is open (Create Undead's ghasts at 8th).
    #[serde(default)]
    pub min_slot: Option<u8>,
}

fn one() -> u32 {
    1
}

/// A summoning spell: the creatures it may call, by name (`options`) or by type and challenge
/// rating (`types` with `max_cr_by_slot` for one creature, or `cr_table` for the conjure table:
/// one of CR 2, two of CR 1, four of CR 1/2 or eight of CR 1/4, times `multiplier_by_slot`).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SummonSpec {
    /// Creatures by name.
    #[serde(default)]
    pub options: Vec<SummonOption>,
    /// Creature types allowed by challenge rating ("beast").
    #[serde(default)]
    pub types: Vec<String>,
    /// One creature of at most this CR, by the slot (the highest `[slot, cr]` at or below the
    /// slot cast).
    #[serde(default)]
    pub max_cr_by_slot: Vec<(u8, f32)>,
    /// The conjure table by CR (2 → 1, 1 → 2, 1/2 → 4, 1/4 and lower → 8).
    #[serde(default)]
    pub cr_table: bool,
    /// The table's counts multiplied by slot (`[slot, times]`, the highest at or below).
    #[serde(default)]
    pub multiplier_by_slot: Vec<(u8, u32)>,
    /// The creatures roll one initiative as a group (the conjure spells); else each its own.
    #[serde(default)]
    pub group_initiative: bool,
    /// What the engine leaves to the DM about them ("it can't attack").
    #[serde(default)]
    pub note: Option<String>,
}

/// The conjure table: how many creatures of this CR the spell calls at its own level.
pub fn table_count(cr: f32) -> Option<u32> {
    match cr {
        c if c > 2.0 => None,
        c if c > 1.0 => Some(1),
        c if c > 0.5 => Some(2),
        c if c > 0.25 => Some(4),
        _ => Some(8),
    }
}

impl SummonSpec {
    /// The option for `creature` (an SRD index) at `slot`, for a spell of `level`: how many
    /// come; `None` when the spell does not list it or its slot is too low.
    pub fn option_count(&self, creature: &str, level: u8, slot: u8) -> Option<u32> {
        let o = self.options.iter().find(|o| o.creature == creature)?;
        let from = o.min_slot.unwrap_or(level);
        if slot < from {
            return None;
        }
        Some(
            o.count
                .saturating_add(o.per_slot.saturating_mul(u32::from(slot - from))),
        )
    }

    /// The highest CR the spell allows at `slot` (single-creature spells).
    pub fn max_cr(&self, slot: u8) -> Option<f32> {
        self.max_cr_by_slot
            .iter()
            .filter(|(s, _)| *s <= slot)
            .map(|(_, cr)| *cr)
            .next_back()
    }

    /// The table's multiplier at `slot`.
    pub fn multiplier(&self, slot: u8) -> u32 {
        self.multiplier_by_slot
            .iter()
            .filter(|(s, _)| *s <= slot)
            .map(|(_, m)| *m)
            .next_back()
            .unwrap_or(1)
    }
}

/// A movement mode an effect grants: a number of feet, or "walk" (equal to the walking speed).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(untagged)]
pub enum SpeedGrant {
    /// Feet.
    Feet(u32),
    /// "walk": the bearer's walking speed.
    Walk(String),
}

impl SpeedGrant {
    /// Feet, given the bearer's walking speed.
    pub fn feet(&self, walk: u32) -> u32 {
        match self {
            SpeedGrant::Feet(f) => *f,
            SpeedGrant::Walk(_) => walk,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summon_counts_scale_by_slot_and_table() {
        let cat = crate::catalog::spells::catalog();
        let dead = cat["animate-dead"].summon.as_ref().unwrap();
        assert_eq!(dead.option_count("skeleton", 3, 3), Some(1));
        assert_eq!(dead.option_count("zombie", 3, 5), Some(5));
        let undead = cat["create-undead"].summon.as_ref().unwrap();
        assert_eq!(undead.option_count("ghoul", 6, 8), Some(5));
        assert_eq!(undead.option_count("ghast", 6, 7), None);
        assert_eq!(undead.option_count("wight", 6, 9), Some(3));
        let animals = cat["conjure-animals"].summon.as_ref().unwrap();
        assert_eq!(table_count(0.25), Some(8));
        assert_eq!(table_count(2.0), Some(1));
        assert_eq!(table_count(3.0), None);
        assert_eq!(animals.multiplier(3), 1);
        assert_eq!(animals.multiplier(6), 2);
        let elemental = cat["conjure-elemental"].summon.as_ref().unwrap();
        assert_eq!(elemental.max_cr(5), Some(5.0));
        assert_eq!(elemental.max_cr(7), Some(7.0));
    }
}
