//! The SRD conditions and what they really do: each condition becomes [`Modifier`]s whose source
//! is the condition, so the effective sheet can explain every number it changes.
//!
//! Conditions imply others (paralyzed ⇒ incapacitated, unconscious ⇒ incapacitated and prone);
//! exhaustion is a level 1–6 whose effects are cumulative.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use crate::modifiers::{Modifier, ModifierKind, RangeBand, RollTarget};
use crate::vocab::{Ability, Condition, DamageType};

/// Highest exhaustion level (death).
pub const MAX_EXHAUSTION: u8 = 6;

/// An exhaustion level outside 0–6.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("exhaustion level {0} is out of range; levels are 0–6 (6 is death)")]
pub struct ExhaustionOutOfRange(pub u32);

/// The conditions on a creature, with its exhaustion level.
///
/// `Condition::Exhaustion` is never stored in the set: it is present exactly when the level is
/// above 0.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(
    rename_all = "camelCase",
    try_from = "ConditionSetRepr",
    into = "ConditionSetRepr"
)]
pub struct ConditionSet {
    conditions: BTreeSet<Condition>,
    exhaustion: u8,
}

/// The serialised form of a [`ConditionSet`].
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
struct ConditionSetRepr {
    #[serde(default)]
    conditions: BTreeSet<Condition>,
    #[serde(default, skip_serializing_if = "is_zero")]
    exhaustion: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl TryFrom<ConditionSetRepr> for ConditionSet {
    type Error = ExhaustionOutOfRange;
    fn try_from(r: ConditionSetRepr) -> Result<Self, Self::Error> {
        let mut s = ConditionSet::default();
        for c in r.conditions {
            s.insert(c);
        }
        if r.exhaustion > 0 {
            s.set_exhaustion(r.exhaustion)?;
        }
        Ok(s)
    }
}

impl From<ConditionSet> for ConditionSetRepr {
    fn from(s: ConditionSet) -> Self {
        Self {
            conditions: s.conditions,
            exhaustion: u32::from(s.exhaustion),
        }
    }
}

impl FromIterator<Condition> for ConditionSet {
    fn from_iter<T: IntoIterator<Item = Condition>>(iter: T) -> Self {
        let mut s = Self::default();
        for c in iter {
            s.insert(c);
        }
        s
    }
}

impl ConditionSet {
    /// No conditions.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a condition; adding `Exhaustion` raises a level of 0 to 1 (use
    /// [`set_exhaustion`](Self::set_exhaustion) for other levels).
    pub fn insert(&mut self, condition: Condition) {
        if condition == Condition::Exhaustion {
            self.exhaustion = self.exhaustion.max(1);
        } else {
            self.conditions.insert(condition);
        }
    }

    /// Removes a condition (removing `Exhaustion` sets the level to 0); whether it was present.
    pub fn remove(&mut self, condition: Condition) -> bool {
        if condition == Condition::Exhaustion {
            std::mem::replace(&mut self.exhaustion, 0) > 0
        } else {
            self.conditions.remove(&condition)
        }
    }

    /// Whether the condition is present (explicitly; see [`expanded`](Self::expanded) for implied).
    pub fn contains(&self, condition: Condition) -> bool {
        if condition == Condition::Exhaustion {
            self.exhaustion > 0
        } else {
            self.conditions.contains(&condition)
        }
    }

    /// The exhaustion level, 0–6.
    pub fn exhaustion(&self) -> u8 {
        self.exhaustion
    }

    /// Sets the exhaustion level (0–6).
    pub fn set_exhaustion(&mut self, level: u32) -> Result<(), ExhaustionOutOfRange> {
        self.exhaustion = u8::try_from(level)
            .ok()
            .filter(|l| *l <= MAX_EXHAUSTION)
            .ok_or(ExhaustionOutOfRange(level))?;
        Ok(())
    }

    /// The explicit conditions, in rules order (with `Exhaustion` when the level is above 0).
    pub fn iter(&self) -> impl Iterator<Item = Condition> + '_ {
        let exhausted = (self.exhaustion > 0).then_some(Condition::Exhaustion);
        self.conditions.iter().copied().chain(exhausted)
    }

    /// Whether no condition is present.
    pub fn is_empty(&self) -> bool {
        self.conditions.is_empty() && self.exhaustion == 0
    }

    /// Every condition in effect, explicit or implied, each with the label that explains it
    /// ("poisoned", "incapacitated (from paralyzed)", "exhaustion level 2"). Implied conditions
    /// already present explicitly are listed once, as explicit.
    pub fn expanded(&self) -> Vec<(Condition, String)> {
        let mut out: Vec<(Condition, String)> = self
            .conditions
            .iter()
            .map(|&c| (c, c.to_string()))
            .collect();
        for &c in &self.conditions {
            for &i in implied_conditions(c) {
                if !out.iter().any(|(have, _)| *have == i) {
                    out.push((i, format!("{i} (from {c})")));
                }
            }
        }
        if self.exhaustion > 0 {
            out.push((
                Condition::Exhaustion,
                format!("exhaustion level {}", self.exhaustion),
            ));
        }
        out
    }

    /// A copy without the conditions in `remove` (exhaustion too, if listed).
    pub fn without(&self, remove: &BTreeSet<Condition>) -> ConditionSet {
        ConditionSet {
            conditions: self.conditions.difference(remove).copied().collect(),
            exhaustion: if remove.contains(&Condition::Exhaustion) {
                0
            } else {
                self.exhaustion
            },
        }
    }
}

/// The conditions a condition includes (paralyzed, petrified and stunned ⇒ incapacitated;
/// unconscious ⇒ incapacitated and prone).
pub fn implied_conditions(condition: Condition) -> &'static [Condition] {
    match condition {
        Condition::Paralyzed | Condition::Petrified | Condition::Stunned => {
            &[Condition::Incapacitated]
        }
        Condition::Unconscious => &[Condition::Incapacitated, Condition::Prone],
        _ => &[],
    }
}

/// The effects of one condition (not including the conditions it implies), as modifier kinds.
/// For `Exhaustion` this is the cumulative effect of `exhaustion_level`.
pub fn condition_effects(condition: Condition, exhaustion_level: u8) -> Vec<ModifierKind> {
    use ModifierKind as K;
    let note = |t: &str| K::Note {
        text: t.to_string(),
    };
    let dis = |on| K::Disadvantage { on };
    let against_adv = K::AttackedWithAdvantage {
        range: RangeBand::Any,
    };
    let str_dex_fail = || {
        [
            K::AutoFailSave {
                ability: Ability::Strength,
            },
            K::AutoFailSave {
                ability: Ability::Dexterity,
            },
        ]
    };
    match condition {
        Condition::Blinded => vec![
            note("can't see; automatically fails any ability check that requires sight"),
            dis(RollTarget::AttackRolls),
            against_adv,
        ],
        Condition::Charmed => vec![note(
            "can't attack the charmer or target it with harmful abilities or magical effects; \
             the charmer has advantage on ability checks to interact socially with it",
        )],
        Condition::Deafened => {
            vec![note(
                "can't hear; automatically fails any ability check that requires hearing",
            )]
        }
        Condition::Frightened => vec![
            dis(RollTarget::AllChecks),
            dis(RollTarget::AttackRolls),
            note("while the source of its fear is in sight; can't willingly move closer to it"),
        ],
        Condition::Grappled => vec![K::SpeedZero],
        Condition::Incapacitated => vec![K::Incapacitated],
        Condition::Invisible => vec![
            K::Advantage {
                on: RollTarget::AttackRolls,
            },
            K::AttackedWithDisadvantage {
                range: RangeBand::Any,
            },
            note("impossible to see without special senses; heavily obscured for hiding"),
        ],
        Condition::Paralyzed => {
            let mut v = vec![K::SpeedZero];
            v.extend(str_dex_fail());
            v.extend([against_adv, K::CritWithin5Ft, note("can't move or speak")]);
            v
        }
        Condition::Petrified => {
            let mut v = vec![K::SpeedZero];
            v.extend(str_dex_fail());
            v.extend([
                against_adv,
                K::Resistance { damage_type: None },
                K::Immunity {
                    damage_type: Some(DamageType::Poison),
                },
                K::ConditionImmunity {
                    condition: Condition::Poisoned,
                },
                note("transformed into stone; unaware of its surroundings; immune to disease"),
            ]);
            v
        }
        Condition::Poisoned => vec![dis(RollTarget::AttackRolls), dis(RollTarget::AllChecks)],
        Condition::Prone => vec![
            dis(RollTarget::AttackRolls),
            K::AttackedWithAdvantage {
                range: RangeBand::Within5Ft,
            },
            K::AttackedWithDisadvantage {
                range: RangeBand::Beyond5Ft,
            },
            note("can only crawl; standing up costs half its speed"),
        ],
        Condition::Restrained => vec![
            K::SpeedZero,
            dis(RollTarget::AttackRolls),
            dis(RollTarget::Save {
                ability: Ability::Dexterity,
            }),
            against_adv,
        ],
        Condition::Stunned => {
            let mut v = vec![K::SpeedZero];
            v.extend(str_dex_fail());
            v.extend([against_adv, note("can speak only falteringly")]);
            v
        }
        Condition::Unconscious => {
            let mut v = vec![K::SpeedZero];
            v.extend(str_dex_fail());
            v.extend([
                against_adv,
                K::CritWithin5Ft,
                note("unaware of its surroundings; drops whatever it is holding"),
            ]);
            v
        }
        Condition::Exhaustion => exhaustion_effects(exhaustion_level)
            .into_iter()
            .flat_map(|(_, kinds)| kinds)
            .collect(),
    }
}

/// The cumulative effects of an exhaustion level, grouped by the level that adds them.
pub fn exhaustion_effects(level: u8) -> Vec<(u8, Vec<ModifierKind>)> {
    use ModifierKind as K;
    (1..=level.min(MAX_EXHAUSTION))
        .map(|l| {
            let kinds = match l {
                1 => vec![K::Disadvantage {
                    on: RollTarget::AllChecks,
                }],
                2 => vec![K::SpeedHalved],
                3 => vec![
                    K::Disadvantage {
                        on: RollTarget::AttackRolls,
                    },
                    K::Disadvantage {
                        on: RollTarget::AllSaves,
                    },
                ],
                4 => vec![K::MaxHpHalved],
                5 => vec![K::SpeedZero],
                _ => vec![K::Dead],
            };
            (l, kinds)
        })
        .collect()
}

/// Every modifier the conditions impose, implied conditions included, each sourced to its
/// condition ("poisoned", "incapacitated (from paralyzed)", "exhaustion level 2").
/// Conditions in `immune` are skipped (their effects are suspended), as are conditions implied
/// only by them.
pub fn condition_modifiers(set: &ConditionSet, immune: &BTreeSet<Condition>) -> Vec<Modifier> {
    let active = set.without(immune);
    let mut out = Vec::new();
    for (c, label) in active.expanded() {
        if immune.contains(&c) || c == Condition::Exhaustion {
            continue;
        }
        out.extend(
            condition_effects(c, 0)
                .into_iter()
                .map(|k| Modifier::new(label.clone(), k)),
        );
    }
    if active.exhaustion > 0 {
        for (level, kinds) in exhaustion_effects(active.exhaustion) {
            let source = format!("exhaustion level {level}");
            out.extend(kinds.into_iter().map(|k| Modifier::new(source.clone(), k)));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds_of(mods: &[Modifier]) -> Vec<&ModifierKind> {
        mods.iter().map(|m| &m.kind).collect()
    }

    #[test]
    fn set_tracks_exhaustion_as_level() {
        let mut s = ConditionSet::new();
        assert!(s.is_empty());
        s.insert(Condition::Exhaustion);
        assert_eq!(s.exhaustion(), 1);
        s.set_exhaustion(4).unwrap();
        assert!(s.contains(Condition::Exhaustion));
        assert!(s.set_exhaustion(7).is_err());
        assert_eq!(s.exhaustion(), 4);
        assert!(s.remove(Condition::Exhaustion));
        assert!(!s.contains(Condition::Exhaustion));
        s.insert(Condition::Prone);
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![Condition::Prone]);
    }

    #[test]
    fn set_serde_round_trips_and_rejects_bad_levels() {
        let mut s: ConditionSet = [Condition::Poisoned, Condition::Prone]
            .into_iter()
            .collect();
        s.set_exhaustion(2).unwrap();
        let json = serde_json::to_value(&s).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"conditions": ["poisoned", "prone"], "exhaustion": 2})
        );
        assert_eq!(serde_json::from_value::<ConditionSet>(json).unwrap(), s);
        assert!(serde_json::from_str::<ConditionSet>(r#"{"exhaustion": 9}"#).is_err());
        let with_tag: ConditionSet =
            serde_json::from_str(r#"{"conditions": ["exhaustion"]}"#).unwrap();
        assert_eq!(with_tag.exhaustion(), 1);
    }

    #[test]
    fn implication_is_expanded_with_labels() {
        let s: ConditionSet = [Condition::Unconscious].into_iter().collect();
        let e = s.expanded();
        assert!(e.contains(&(
            Condition::Incapacitated,
            "incapacitated (from unconscious)".into()
        )));
        assert!(e.contains(&(Condition::Prone, "prone (from unconscious)".into())));
        let s: ConditionSet = [Condition::Paralyzed, Condition::Stunned]
            .into_iter()
            .collect();
        assert_eq!(
            s.expanded()
                .iter()
                .filter(|(c, _)| *c == Condition::Incapacitated)
                .count(),
            1
        );
    }

    #[test]
    fn paralyzed_modifiers() {
        let s: ConditionSet = [Condition::Paralyzed].into_iter().collect();
        let mods = condition_modifiers(&s, &BTreeSet::new());
        let k = kinds_of(&mods);
        assert!(k.contains(&&ModifierKind::AutoFailSave {
            ability: Ability::Dexterity
        }));
        assert!(k.contains(&&ModifierKind::AutoFailSave {
            ability: Ability::Strength
        }));
        assert!(k.contains(&&ModifierKind::CritWithin5Ft));
        assert!(k.contains(&&ModifierKind::SpeedZero));
        assert!(mods.iter().any(|m| m.kind == ModifierKind::Incapacitated
            && m.source == "incapacitated (from paralyzed)"));
    }

    #[test]
    fn every_condition_has_an_effect() {
        for &c in Condition::ALL {
            assert!(!condition_effects(c, 1).is_empty(), "{c}");
        }
    }

    #[test]
    fn exhaustion_is_cumulative() {
        let e = exhaustion_effects(3);
        assert_eq!(e.len(), 3);
        assert_eq!(e[1].1, vec![ModifierKind::SpeedHalved]);
        let mut s = ConditionSet::new();
        s.set_exhaustion(6).unwrap();
        let mods = condition_modifiers(&s, &BTreeSet::new());
        assert!(
            mods.iter()
                .any(|m| m.kind == ModifierKind::Dead && m.source == "exhaustion level 6")
        );
        assert!(
            mods.iter()
                .any(|m| m.kind == ModifierKind::MaxHpHalved && m.source == "exhaustion level 4")
        );
        assert_eq!(mods.len(), 1 + 1 + 2 + 1 + 1 + 1);
    }

    #[test]
    fn immunity_suspends_a_condition() {
        let s: ConditionSet = [Condition::Poisoned, Condition::Unconscious]
            .into_iter()
            .collect();
        let immune: BTreeSet<_> = [Condition::Poisoned, Condition::Prone]
            .into_iter()
            .collect();
        let mods = condition_modifiers(&s, &immune);
        assert!(mods.iter().all(|m| m.source != "poisoned"));
        assert!(mods.iter().all(|m| !m.source.starts_with("prone")));
        assert!(mods.iter().any(|m| m.source == "unconscious"));
    }
}
