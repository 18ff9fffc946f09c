//! The life-and-creation spells of the spell catalog (issue 17, lane "spells6c"): what a
//! `kind = "life"` entry's `life` table says the spell does. Each is resolved by
//! `magic::life6` (inventory spells in `magic::life6_items`).

use serde::Deserialize;
use tabletop_rules::{Ability, DamageType};

/// One item stack a creation spell puts in the caster's inventory.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MadeItem {
    /// Its name ("Goodberry").
    pub name: String,
    /// How many at the spell's level.
    pub quantity: u32,
    /// How many more per slot level above.
    #[serde(default)]
    pub per_slot: u32,
    /// Healing when one is used ("1").
    #[serde(default)]
    pub heal: Option<String>,
    /// Hours after which it spoils or vanishes (absent: it lasts).
    #[serde(default)]
    pub lasts_hours: Option<u32>,
    /// Weight of one, in pounds.
    #[serde(default)]
    pub weight: f64,
    /// What one is, for the sheet.
    #[serde(default)]
    pub description: Option<String>,
}

/// What a life-and-creation spell does.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(tag = "does", rename_all = "snake_case", deny_unknown_fields)]
pub enum LifeSpec {
    /// Items made in the caster's inventory (Goodberry, Create Food and Water).
    Create {
        /// The stacks.
        items: Vec<MadeItem>,
    },
    /// Create or Destroy Water: `gallons` (+ `per_slot` per slot level above) of water made
    /// in the caster's inventory, or, with `item` naming a carried water stack, destroyed.
    Water {
        /// Gallons at the spell's level.
        gallons: u32,
        /// More per slot level above.
        per_slot: u32,
    },
    /// Purify Food and Drink: poisoned or diseased food and drink carried by the caster (and
    /// the targets) are made clean.
    Purify,
    /// Mending: the named broken item is whole again.
    Mend,
    /// Fabricate: the carried raw material (`item`) becomes the product named in `description`.
    Fabricate,
    /// Gentle Repose: the corpse's days under the spell do not count against revival limits.
    GentleRepose {
        /// Days the spell lasts.
        days: u32,
    },
    /// Speak with Dead: a corpse with a mouth, not undead, answers `questions` questions for
    /// `rounds`; not the same corpse again within `again_days`.
    SpeakWithDead {
        /// Questions.
        questions: u32,
        /// Rounds the spell lasts.
        rounds: u32,
        /// Days before the corpse can be questioned again.
        again_days: u32,
    },
    /// Reincarnate: a humanoid dead at most `within_days` returns in a new body whose race is
    /// rolled on the SRD's d100 table.
    Reincarnate {
        /// Days.
        within_days: u32,
    },
    /// A save by the caster itself against a fixed DC: on a failure damage and an effect until
    /// a long rest (Contact Other Plane).
    CasterSave {
        /// The save.
        save: Ability,
        /// The DC.
        dc: i32,
        /// Damage on a failure.
        dice: String,
        /// Its type.
        damage_type: DamageType,
        /// The effect a failure gives until a long rest.
        effect: String,
    },
    /// Dream: a hostile messenger's target saves; on a failure it takes `dice` on waking and
    /// gains no benefit from that rest.
    Dream {
        /// The save.
        save: Ability,
        /// Damage on a failure.
        dice: String,
        /// Its type.
        damage_type: DamageType,
    },
    /// Wish: duplicates a spell of `max_level` or lower (named in `description`); anything
    /// else is the DM's and risks never casting Wish again.
    Wish {
        /// The highest level it duplicates.
        max_level: u8,
    },
    /// Awaken: a beast or plant gets INT `int` and is charmed by the caster for `charm_days`.
    Awaken {
        /// Its new Intelligence.
        int: u8,
        /// Days charmed.
        charm_days: u32,
    },
    /// Simulacrum: a new creature copying the touched beast or humanoid, with half its hit
    /// point maximum, friendly to the caster; it regains no spell slots, and the caster's
    /// earlier simulacrum is destroyed.
    Simulacrum,
}

impl LifeSpec {
    /// The entry's problems.
    pub fn check(&self, index: &str) -> Vec<String> {
        let mut bad = Vec::new();
        let dice = |d: &str, bad: &mut Vec<String>| {
            if tabletop_rules::dice::parse(d).is_err() {
                bad.push(format!("{index}: '{d}' is not dice"));
            }
        };
        match self {
            LifeSpec::Create { items } => {
                if items.is_empty() {
                    bad.push(format!("{index}: a creation needs items"));
                }
                for i in items {
                    if let Some(h) = &i.heal {
                        dice(h, &mut bad);
                    }
                    if i.quantity == 0 {
                        bad.push(format!("{index}: {} of quantity 0", i.name));
                    }
                }
            }
            LifeSpec::CasterSave { dice: d, .. } | LifeSpec::Dream { dice: d, .. } => {
                dice(d, &mut bad)
            }
            _ => {}
        }
        bad
    }
}
