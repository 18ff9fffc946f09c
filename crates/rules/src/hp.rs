//! Hit points by level and hit dice.
//!
//! Level 1: the hit die's maximum + CON modifier. Each later level: the average (die / 2 + 1),
//! a roll, or the maximum, + CON modifier; never less than 1 per level. A character has one hit
//! die per level; spending one on a short rest heals a roll + CON modifier, and a long rest
//! regains half the total (at least one).

use serde::{Deserialize, Serialize};

use crate::roller::DieRoller;

/// A hit die size.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum HitDie {
    /// d6 (sorcerer, wizard; small monsters use d6 too).
    D6,
    /// d8.
    D8,
    /// d10.
    D10,
    /// d12 (barbarian).
    D12,
}

impl HitDie {
    /// Faces of the die.
    pub fn faces(self) -> u32 {
        match self {
            HitDie::D6 => 6,
            HitDie::D8 => 8,
            HitDie::D10 => 10,
            HitDie::D12 => 12,
        }
    }

    /// The fixed (average) value per level: faces / 2 + 1.
    pub fn average(self) -> u32 {
        self.faces() / 2 + 1
    }

    /// The die with these faces, if it is a hit die.
    pub fn from_faces(faces: u32) -> Option<Self> {
        match faces {
            6 => Some(HitDie::D6),
            8 => Some(HitDie::D8),
            10 => Some(HitDie::D10),
            12 => Some(HitDie::D12),
            _ => None,
        }
    }
}

/// How hit points are gained on a level above 1.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum HpMethod {
    /// The fixed average (die / 2 + 1).
    #[default]
    Average,
    /// Roll the hit die.
    Roll,
    /// The die's maximum.
    Max,
}

/// Hit points gained at one level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct LevelHp {
    /// The level reached.
    pub level: u32,
    /// The die value used (maximum at level 1, else average, roll or maximum).
    pub die_value: u32,
    /// Whether `die_value` was rolled.
    pub rolled: bool,
    /// The CON modifier added.
    pub con_modifier: i32,
    /// Hit points gained (at least 1).
    pub gained: u32,
}

fn gain(die_value: u32, con_modifier: i32) -> u32 {
    u32::try_from((i64::from(die_value) + i64::from(con_modifier)).max(1)).unwrap_or(1)
}

/// Level-1 hit points: the die's maximum + CON modifier (at least 1).
pub fn first_level_hp(die: HitDie, con_modifier: i32) -> u32 {
    gain(die.faces(), con_modifier)
}

/// Hit points gained on reaching `level` (≥ 2) by `method`; level 1 always takes the maximum.
pub fn level_hp(
    level: u32,
    die: HitDie,
    con_modifier: i32,
    method: HpMethod,
    roller: &mut impl DieRoller,
) -> LevelHp {
    let (die_value, rolled) = if level <= 1 {
        (die.faces(), false)
    } else {
        match method {
            HpMethod::Average => (die.average(), false),
            HpMethod::Max => (die.faces(), false),
            HpMethod::Roll => (roller.roll_die(die.faces()).clamp(1, die.faces()), true),
        }
    };
    LevelHp {
        level,
        die_value,
        rolled,
        con_modifier,
        gained: gain(die_value, con_modifier),
    }
}

/// Hit points gained for each level from `from_level + 1` through `to_level` (use
/// `from_level = 0` for a new character); the sum is the maximum-HP increase.
pub fn hp_for_levels(
    from_level: u32,
    to_level: u32,
    die: HitDie,
    con_modifier: i32,
    method: HpMethod,
    roller: &mut impl DieRoller,
) -> Vec<LevelHp> {
    (from_level.saturating_add(1)..=to_level)
        .map(|l| level_hp(l, die, con_modifier, method, roller))
        .collect()
}

/// Maximum hit points of a character of `level` without rolling: level 1 takes the maximum,
/// later levels the average (`Average` or `Roll`) or the maximum (`Max`).
pub fn fixed_max_hp(level: u32, die: HitDie, con_modifier: i32, method: HpMethod) -> u32 {
    if level == 0 {
        return 0;
    }
    let per_level = match method {
        HpMethod::Max => die.faces(),
        HpMethod::Average | HpMethod::Roll => die.average(),
    };
    first_level_hp(die, con_modifier)
        .saturating_add((level - 1).saturating_mul(gain(per_level, con_modifier)))
}

/// A character's hit dice: one per level, some spent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct HitDice {
    /// The die size.
    pub die: HitDie,
    /// Total (= level).
    pub total: u32,
    /// Spent since the last long rest.
    #[serde(default)]
    pub spent: u32,
}

/// Hit points regained by spending one hit die.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct HitDieSpend {
    /// The die rolled.
    pub roll: u32,
    /// The CON modifier added.
    pub con_modifier: i32,
    /// Healing (roll + CON, at least 0).
    pub healing: u32,
}

impl HitDice {
    /// A full pool for a character of `level`.
    pub fn new(die: HitDie, level: u32) -> Self {
        Self {
            die,
            total: level,
            spent: 0,
        }
    }

    /// Hit dice left to spend.
    pub fn remaining(&self) -> u32 {
        self.total.saturating_sub(self.spent)
    }

    /// Spends one die on a short rest: roll + CON modifier (at least 0). `None` when none are left.
    pub fn spend(&mut self, con_modifier: i32, roller: &mut impl DieRoller) -> Option<HitDieSpend> {
        if self.remaining() == 0 {
            return None;
        }
        self.spent += 1;
        let roll = roller.roll_die(self.die.faces()).clamp(1, self.die.faces());
        let healing =
            u32::try_from((i64::from(roll) + i64::from(con_modifier)).max(0)).unwrap_or(0);
        Some(HitDieSpend {
            roll,
            con_modifier,
            healing,
        })
    }

    /// A long rest regains spent dice up to half the total (at least one); returns how many.
    pub fn long_rest(&mut self) -> u32 {
        let regained = self.spent.min((self.total / 2).max(1));
        self.spent -= regained;
        regained
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::roller::ScriptedRoller;

    #[test]
    fn first_level() {
        assert_eq!(first_level_hp(HitDie::D10, 2), 12);
        assert_eq!(first_level_hp(HitDie::D6, -1), 5);
        assert_eq!(first_level_hp(HitDie::D6, -9), 1);
    }

    #[test]
    fn later_levels_average_roll_max() {
        assert_eq!(HitDie::D8.average(), 5);
        assert_eq!(HitDie::D12.average(), 7);
        // Fighter 5, CON +2: 12 + 4 × (6 + 2) = 44.
        assert_eq!(fixed_max_hp(5, HitDie::D10, 2, HpMethod::Average), 44);
        assert_eq!(fixed_max_hp(5, HitDie::D10, 2, HpMethod::Max), 60);
        let mut roller = ScriptedRoller::new(vec![3, 1]);
        let gains = hp_for_levels(1, 3, HitDie::D8, -1, HpMethod::Roll, &mut roller);
        assert_eq!(gains.len(), 2);
        assert_eq!(
            (
                gains[0].level,
                gains[0].die_value,
                gains[0].rolled,
                gains[0].gained
            ),
            (2, 3, true, 2)
        );
        // 1 − 1 = 0, but never below 1.
        assert_eq!(gains[1].gained, 1);
        let new_char = hp_for_levels(0, 1, HitDie::D8, 1, HpMethod::Roll, &mut roller);
        assert_eq!((new_char[0].die_value, new_char[0].rolled), (8, false));
    }

    #[test]
    fn hit_dice_pool() {
        let mut hd = HitDice::new(HitDie::D8, 5);
        assert_eq!(hd.remaining(), 5);
        let mut roller = ScriptedRoller::new(vec![6, 1]);
        assert_eq!(hd.spend(2, &mut roller).unwrap().healing, 8);
        assert_eq!(hd.spend(-3, &mut roller).unwrap().healing, 0);
        hd.spent = 5;
        assert!(hd.spend(0, &mut roller).is_none());
        assert_eq!(hd.long_rest(), 2);
        assert_eq!(hd.remaining(), 2);
        let mut one = HitDice {
            die: HitDie::D6,
            total: 1,
            spent: 1,
        };
        assert_eq!(one.long_rest(), 1);
        assert_eq!(HitDie::from_faces(10), Some(HitDie::D10));
        assert_eq!(HitDie::from_faces(7), None);
    }
}
