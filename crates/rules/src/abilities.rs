//! Ability scores and proficiency: modifiers, the standard array, point buy, rolled scores
//! (4d6 drop lowest), the proficiency bonus by level and proficiency levels.
//!
//! Racial and other bonuses are applied by the caller (or as modifiers, see
//! [`crate::modifiers`]); point buy validates scores *before* those bonuses.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::roller::DieRoller;
use crate::vocab::Ability;

/// Lowest legal ability score.
pub const MIN_SCORE: u8 = 1;
/// Highest legal ability score.
pub const MAX_SCORE: u8 = 30;
/// The standard array, highest first.
pub const STANDARD_ARRAY: [u8; 6] = [15, 14, 13, 12, 10, 8];
/// Points available for point buy.
pub const POINT_BUY_BUDGET: u32 = 27;
/// Lowest score point buy allows (before racial bonuses).
pub const POINT_BUY_MIN: u8 = 8;
/// Highest score point buy allows (before racial bonuses).
pub const POINT_BUY_MAX: u8 = 15;
/// Highest character level.
pub const MAX_LEVEL: u32 = 20;

/// A problem with ability scores or levels.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AbilityError {
    /// A score outside 1–30.
    #[error("{} {score} is out of range; ability scores are {MIN_SCORE}–{MAX_SCORE}", ability.abbr())]
    ScoreOutOfRange {
        /// The ability.
        ability: Ability,
        /// The score given.
        score: i64,
    },
    /// A character level outside 1–20.
    #[error("level {level} is out of range; levels are 1–{MAX_LEVEL}")]
    LevelOutOfRange {
        /// The level given.
        level: u32,
    },
}

/// The ability modifier of a score: floor((score − 10) / 2).
pub fn ability_modifier(score: u8) -> i32 {
    (i32::from(score) - 10).div_euclid(2)
}

/// The six ability scores of a creature.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct AbilityScores {
    /// Strength.
    #[serde(alias = "str")]
    pub strength: u8,
    /// Dexterity.
    #[serde(alias = "dex")]
    pub dexterity: u8,
    /// Constitution.
    #[serde(alias = "con")]
    pub constitution: u8,
    /// Intelligence.
    #[serde(alias = "int")]
    pub intelligence: u8,
    /// Wisdom.
    #[serde(alias = "wis")]
    pub wisdom: u8,
    /// Charisma.
    #[serde(alias = "cha")]
    pub charisma: u8,
}

impl Default for AbilityScores {
    /// All tens.
    fn default() -> Self {
        Self::uniform(10)
    }
}

impl AbilityScores {
    /// Scores in [`Ability::ALL`] order (STR, DEX, CON, INT, WIS, CHA).
    pub fn new(scores: [u8; 6]) -> Self {
        let [
            strength,
            dexterity,
            constitution,
            intelligence,
            wisdom,
            charisma,
        ] = scores;
        Self {
            strength,
            dexterity,
            constitution,
            intelligence,
            wisdom,
            charisma,
        }
    }

    /// Every score equal to `score`.
    pub fn uniform(score: u8) -> Self {
        Self::new([score; 6])
    }

    /// The score of one ability.
    pub fn get(&self, ability: Ability) -> u8 {
        match ability {
            Ability::Strength => self.strength,
            Ability::Dexterity => self.dexterity,
            Ability::Constitution => self.constitution,
            Ability::Intelligence => self.intelligence,
            Ability::Wisdom => self.wisdom,
            Ability::Charisma => self.charisma,
        }
    }

    /// Sets one score, rejecting values outside 1–30.
    pub fn set(&mut self, ability: Ability, score: i64) -> Result<(), AbilityError> {
        let s = check_score(ability, score)?;
        *self.slot(ability) = s;
        Ok(())
    }

    fn slot(&mut self, ability: Ability) -> &mut u8 {
        match ability {
            Ability::Strength => &mut self.strength,
            Ability::Dexterity => &mut self.dexterity,
            Ability::Constitution => &mut self.constitution,
            Ability::Intelligence => &mut self.intelligence,
            Ability::Wisdom => &mut self.wisdom,
            Ability::Charisma => &mut self.charisma,
        }
    }

    /// The modifier of one ability.
    pub fn modifier(&self, ability: Ability) -> i32 {
        ability_modifier(self.get(ability))
    }

    /// The scores in [`Ability::ALL`] order.
    pub fn to_array(&self) -> [u8; 6] {
        [
            self.strength,
            self.dexterity,
            self.constitution,
            self.intelligence,
            self.wisdom,
            self.charisma,
        ]
    }

    /// Every score outside 1–30, one error each (empty when all are legal).
    pub fn validate(&self) -> Vec<AbilityError> {
        Ability::ALL
            .iter()
            .filter_map(|&a| check_score(a, i64::from(self.get(a))).err())
            .collect()
    }
}

impl fmt::Display for AbilityScores {
    /// "STR 15 (+2), DEX 14 (+2), …".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, &a) in Ability::ALL.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{} {} ({:+})", a.abbr(), self.get(a), self.modifier(a))?;
        }
        Ok(())
    }
}

fn check_score(ability: Ability, score: i64) -> Result<u8, AbilityError> {
    u8::try_from(score)
        .ok()
        .filter(|s| (MIN_SCORE..=MAX_SCORE).contains(s))
        .ok_or(AbilityError::ScoreOutOfRange { ability, score })
}

/// Problems with a set of scores that should be the standard array (a permutation of
/// 15, 14, 13, 12, 10, 8); empty when it is one.
pub fn validate_standard_array(scores: &AbilityScores) -> Vec<String> {
    let mut given = scores.to_array();
    given.sort_unstable_by(|a, b| b.cmp(a));
    if given == STANDARD_ARRAY {
        return Vec::new();
    }
    let mut remaining: Vec<u8> = STANDARD_ARRAY.to_vec();
    let mut problems = Vec::new();
    for &a in Ability::ALL {
        let s = scores.get(a);
        if let Some(pos) = remaining.iter().position(|&r| r == s) {
            remaining.remove(pos);
        } else {
            problems.push(format!(
                "{} {s} is not an unused value of the standard array (15, 14, 13, 12, 10, 8)",
                a.abbr()
            ));
        }
    }
    if !remaining.is_empty() {
        let left: Vec<String> = remaining.iter().map(u8::to_string).collect();
        problems.push(format!(
            "standard array values not assigned: {}",
            left.join(", ")
        ));
    }
    problems
}

/// The point-buy cost of one score (8:0 … 13:5, 14:7, 15:9); `None` outside 8–15.
pub fn point_buy_cost(score: u8) -> Option<u32> {
    match score {
        8..=13 => Some(u32::from(score - 8)),
        14 => Some(7),
        15 => Some(9),
        _ => None,
    }
}

/// The result of checking a point-buy build.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct PointBuyReport {
    /// Points spent by the scores that are within 8–15.
    pub spent: u32,
    /// Points available (27).
    pub budget: u32,
    /// Every problem found, one sentence each; empty when the build is legal.
    pub problems: Vec<String>,
}

impl PointBuyReport {
    /// Whether the build is legal.
    pub fn is_valid(&self) -> bool {
        self.problems.is_empty()
    }
}

/// Checks scores (before racial bonuses) against point buy: each 8–15, exactly 27 points spent.
/// Reports every problem, e.g. "STR 16 is above the point-buy maximum 15", "spent 29 of 27 points".
pub fn validate_point_buy(scores: &AbilityScores) -> PointBuyReport {
    let mut problems = Vec::new();
    let mut spent = 0;
    for &a in Ability::ALL {
        let s = scores.get(a);
        match point_buy_cost(s) {
            Some(c) => spent += c,
            None if s > POINT_BUY_MAX => problems.push(format!(
                "{} {s} is above the point-buy maximum {POINT_BUY_MAX}",
                a.abbr()
            )),
            None => problems.push(format!(
                "{} {s} is below the point-buy minimum {POINT_BUY_MIN}",
                a.abbr()
            )),
        }
    }
    if spent != POINT_BUY_BUDGET {
        let detail = if spent < POINT_BUY_BUDGET {
            format!(
                " ({} unspent; point buy spends exactly {POINT_BUY_BUDGET})",
                POINT_BUY_BUDGET - spent
            )
        } else {
            format!(" ({} over budget)", spent - POINT_BUY_BUDGET)
        };
        problems.push(format!(
            "spent {spent} of {POINT_BUY_BUDGET} points{detail}"
        ));
    }
    PointBuyReport {
        spent,
        budget: POINT_BUY_BUDGET,
        problems,
    }
}

/// One ability rolled as 4d6, lowest die dropped.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct AbilityRoll {
    /// The ability the roll is for.
    pub ability: Ability,
    /// The four dice, in the order rolled.
    pub dice: [u32; 4],
    /// Index into `dice` of the dropped (lowest; first of equals) die.
    pub dropped: usize,
    /// The sum of the three kept dice.
    pub score: u8,
}

/// Six abilities rolled with 4d6 drop lowest, in [`Ability::ALL`] order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct RolledAbilityScores {
    /// Each ability's dice.
    pub rolls: Vec<AbilityRoll>,
    /// The resulting scores.
    pub scores: AbilityScores,
}

/// Rolls 4d6 and drops the lowest for one ability.
pub fn roll_4d6_drop_lowest(ability: Ability, roller: &mut impl DieRoller) -> AbilityRoll {
    let dice = [(); 4].map(|()| roller.roll_die(6).clamp(1, 6));
    let dropped = dice
        .iter()
        .enumerate()
        .min_by_key(|&(i, &d)| (d, i))
        .map_or(0, |(i, _)| i);
    let sum: u32 = dice
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != dropped)
        .map(|(_, &d)| d)
        .sum();
    // Three d6 sum to at most 18.
    let score = u8::try_from(sum).unwrap_or(18);
    AbilityRoll {
        ability,
        dice,
        dropped,
        score,
    }
}

/// Rolls all six abilities with 4d6 drop lowest, in STR, DEX, CON, INT, WIS, CHA order.
pub fn roll_ability_scores(roller: &mut impl DieRoller) -> RolledAbilityScores {
    let rolls: Vec<AbilityRoll> = Ability::ALL
        .iter()
        .map(|&a| roll_4d6_drop_lowest(a, roller))
        .collect();
    let mut scores = AbilityScores::default();
    for r in &rolls {
        *scores.slot(r.ability) = r.score;
    }
    RolledAbilityScores { rolls, scores }
}

/// The proficiency bonus of a character level: 2 + (level − 1) / 4, for levels 1–20.
/// (Monsters take theirs from their challenge rating, elsewhere.)
pub fn proficiency_bonus(level: u32) -> Result<i32, AbilityError> {
    if !(1..=MAX_LEVEL).contains(&level) {
        return Err(AbilityError::LevelOutOfRange { level });
    }
    Ok(2 + i32::try_from((level - 1) / 4).unwrap_or(0))
}

/// How proficient a creature is with a skill, save or tool.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum ProficiencyLevel {
    /// Not proficient: no bonus.
    #[default]
    None,
    /// Half proficiency (e.g. Jack of All Trades): half the bonus, rounded down.
    Half,
    /// Proficient: the full bonus.
    Proficient,
    /// Expertise: double the bonus.
    Expertise,
}

impl ProficiencyLevel {
    /// What this level adds given a proficiency bonus.
    pub fn bonus(self, proficiency_bonus: i32) -> i32 {
        match self {
            ProficiencyLevel::None => 0,
            ProficiencyLevel::Half => proficiency_bonus.div_euclid(2),
            ProficiencyLevel::Proficient => proficiency_bonus,
            ProficiencyLevel::Expertise => proficiency_bonus * 2,
        }
    }

    /// A short label for explanations ("proficiency", "expertise", …).
    pub fn label(self) -> &'static str {
        match self {
            ProficiencyLevel::None => "not proficient",
            ProficiencyLevel::Half => "half proficiency",
            ProficiencyLevel::Proficient => "proficiency",
            ProficiencyLevel::Expertise => "expertise",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::roller::ScriptedRoller;

    #[test]
    fn modifier_floors() {
        assert_eq!(ability_modifier(1), -5);
        assert_eq!(ability_modifier(8), -1);
        assert_eq!(ability_modifier(9), -1);
        assert_eq!(ability_modifier(10), 0);
        assert_eq!(ability_modifier(11), 0);
        assert_eq!(ability_modifier(15), 2);
        assert_eq!(ability_modifier(30), 10);
    }

    #[test]
    fn get_set_and_range() {
        let mut s = AbilityScores::default();
        s.set(Ability::Dexterity, 16).unwrap();
        assert_eq!(s.get(Ability::Dexterity), 16);
        assert_eq!(s.modifier(Ability::Dexterity), 3);
        assert!(s.set(Ability::Strength, 31).is_err());
        assert!(s.set(Ability::Strength, 0).is_err());
        let e = s.set(Ability::Strength, -3).unwrap_err();
        assert!(e.to_string().contains("STR -3"), "{e}");
        let bad = AbilityScores::new([0, 10, 31, 10, 10, 10]);
        assert_eq!(bad.validate().len(), 2);
    }

    #[test]
    fn serde_uses_names_and_short_aliases() {
        let s = AbilityScores::new([15, 14, 13, 12, 10, 8]);
        let json = serde_json::to_string(&s).unwrap();
        assert!(json.contains("\"strength\":15"), "{json}");
        let back: AbilityScores =
            serde_json::from_str(r#"{"str":15,"dex":14,"con":13,"int":12,"wis":10,"cha":8}"#)
                .unwrap();
        assert_eq!(back, s);
    }

    #[test]
    fn standard_array() {
        assert!(validate_standard_array(&AbilityScores::new([8, 10, 12, 13, 14, 15])).is_empty());
        let p = validate_standard_array(&AbilityScores::new([15, 15, 13, 12, 10, 8]));
        assert_eq!(p.len(), 2, "{p:?}");
        assert!(p[0].starts_with("DEX 15"), "{p:?}");
        assert!(p[1].contains("14"), "{p:?}");
    }

    #[test]
    fn point_buy_costs() {
        let costs: Vec<_> = (8..=15).map(|s| point_buy_cost(s).unwrap()).collect();
        assert_eq!(costs, [0, 1, 2, 3, 4, 5, 7, 9]);
        assert_eq!(point_buy_cost(7), None);
        assert_eq!(point_buy_cost(16), None);
    }

    #[test]
    fn point_buy_valid_build() {
        // 15,15,15 = 27.
        let r = validate_point_buy(&AbilityScores::new([15, 15, 15, 8, 8, 8]));
        assert!(r.is_valid(), "{:?}", r.problems);
        assert_eq!(r.spent, 27);
        // 15,14,13,12,10,8 = 9+7+5+4+2+0 = 27.
        assert!(validate_point_buy(&AbilityScores::new(STANDARD_ARRAY)).is_valid());
    }

    #[test]
    fn point_buy_over_budget_lists_every_problem() {
        let r = validate_point_buy(&AbilityScores::new([15, 15, 15, 9, 9, 8]));
        assert_eq!(r.spent, 29);
        assert_eq!(r.problems.len(), 1);
        assert!(
            r.problems[0].starts_with("spent 29 of 27 points"),
            "{:?}",
            r.problems
        );

        let r = validate_point_buy(&AbilityScores::new([16, 7, 15, 15, 8, 8]));
        assert!(
            r.problems
                .contains(&"STR 16 is above the point-buy maximum 15".to_string())
        );
        assert!(
            r.problems
                .contains(&"DEX 7 is below the point-buy minimum 8".to_string())
        );
        assert!(
            r.problems
                .iter()
                .any(|p| p.starts_with("spent 18 of 27 points")),
            "{:?}",
            r.problems
        );
        assert_eq!(r.problems.len(), 3);
    }

    #[test]
    fn rolls_4d6_drop_lowest_with_every_die() {
        let mut roller = ScriptedRoller::new(vec![3, 6, 1, 5]);
        let r = roll_4d6_drop_lowest(Ability::Strength, &mut roller);
        assert_eq!(r.dice, [3, 6, 1, 5]);
        assert_eq!(r.dropped, 2);
        assert_eq!(r.score, 14);

        // Ties drop the first lowest only.
        let mut roller = ScriptedRoller::new(vec![2, 2, 2, 2]);
        let r = roll_4d6_drop_lowest(Ability::Strength, &mut roller);
        assert_eq!((r.dropped, r.score), (0, 6));

        let mut roller = ScriptedRoller::new(vec![6, 6, 6, 1, 1, 1, 1, 1]);
        let all = roll_ability_scores(&mut roller);
        assert_eq!(roller.rolled(), 24);
        assert_eq!(all.rolls.len(), 6);
        assert_eq!(all.scores.strength, 18); // 6 6 6 [1]
        assert_eq!(all.scores.dexterity, 3); // 1 1 1 [1]
        assert_eq!(all.rolls[1].ability, Ability::Dexterity);
    }

    #[test]
    fn proficiency_by_level() {
        let pb: Vec<i32> = (1..=20).map(|l| proficiency_bonus(l).unwrap()).collect();
        assert_eq!(&pb[..5], &[2, 2, 2, 2, 3]);
        assert_eq!(pb[8], 4);
        assert_eq!(pb[12], 5);
        assert_eq!(pb[16], 6);
        assert_eq!(pb[19], 6);
        assert!(proficiency_bonus(0).is_err());
        assert!(proficiency_bonus(21).is_err());
    }

    #[test]
    fn proficiency_levels() {
        assert_eq!(ProficiencyLevel::None.bonus(3), 0);
        assert_eq!(ProficiencyLevel::Half.bonus(3), 1);
        assert_eq!(ProficiencyLevel::Proficient.bonus(3), 3);
        assert_eq!(ProficiencyLevel::Expertise.bonus(3), 6);
        assert_eq!(
            serde_json::to_string(&ProficiencyLevel::Expertise).unwrap(),
            "\"expertise\""
        );
    }
}
