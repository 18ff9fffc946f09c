//! Combat spells whose effect the engine carries out where it bites (issue 17, the `spells6a`
//! work): a rule named on the spell's catalog entry (`combat = "…"`), applied by
//! `magic::combat6` at the turn, the attack or the damage it changes.

use serde::Deserialize;

/// What an effect spell does beyond its modifiers, applied by `magic::combat6`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CombatRule {
    /// The effect ends when its bearer takes damage (Suggestion, Mass Suggestion).
    EndsOnDamage,
    /// The bearer's weapon attacks that use Strength deal half damage (Ray of Enfeeblement).
    HalfStrengthDamage,
    /// At the end of each of the bearer's turns a d20: on 11 or more it is on the Ethereal
    /// Plane until the start of its next turn, out of reach of attacks and spells (Blink).
    Blink,
    /// The bearer is enclosed: no attack or spell passes in or out of the sphere (Resilient
    /// Sphere).
    Enclosed,
    /// A d10 at the start of each of the bearer's turns decides what it may do (Confusion).
    Confused,
    /// Enlarge (or Reduce with `description: "reduce"`): the size changes one category, STR
    /// checks and saves gain advantage (disadvantage), weapon hits deal 1d4 more (less);
    /// a willing target makes no save.
    EnlargeReduce,
    /// The bearer's club or quarterstaff attacks with its spellcasting ability, deals a d8 and
    /// is magical (Shillelagh).
    Shillelagh,
    /// The glowing metal burns whoever holds or wears it: the damage lands with no save (the
    /// CON save only decides whether the object is dropped) (Heat Metal).
    HeatMetal,
}
