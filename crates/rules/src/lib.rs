//! Pure SRD 5.1 mechanics for Tabletop.
//!
//! Nothing here knows about storage, JSON-RPC or MCP: functions take values and return values.
//! Randomness enters only through [`DieRoller`]; [`dice::DiceRng`] is the seedable stream whose
//! state the engine persists per campaign.

pub mod dice;
pub mod roller;
pub mod vocab;

pub use roller::{DieRoller, ScriptedRoller};
pub use vocab::{Ability, CharacterType, Condition, DamageType, Size, Skill, UnknownName};

pub mod abilities;
pub mod advancement;
pub mod conditions;
pub mod d20;
pub mod damage;
pub mod defenses;
pub mod encounter;
pub mod explained;
pub mod hp;
pub mod modifiers;
pub mod stats;

pub use abilities::{AbilityScores, ProficiencyLevel, ability_modifier, proficiency_bonus};
pub use conditions::ConditionSet;
pub use d20::{D20Outcome, D20Request, D20Test, roll_d20_test};
pub use damage::{
    DamageOutcome, DamagePart, DamageResult, DamageTarget, DeathSaves, Vitals, apply_damage,
    apply_healing, grant_temp_hp,
};
pub use hp::{HitDie, HpMethod};
pub use modifiers::{Modifier, ModifierKind, RollTarget};
pub use stats::{BaseStats, EffectiveStats, effective_stats};
