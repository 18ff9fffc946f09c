//! Class rules the use cases apply where they happen (casting, resting, healing), granted by
//! sorcerer, bard, cleric and druid features: `{ grant = "caster_rule", rule = { rule = "…" } }`.
//! The derive puts each in play with the granting class's level ([`crate::model::build::Derived`]'s
//! `class_rules`); casting (`magic::class_magic`), resting (`rest_features`) and slot
//! conversion read them.

use serde::{Deserialize, Serialize};
use tabletop_rules::DamageType;

/// One rule a feature puts in play.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "rule", rename_all = "snake_case")]
pub enum CasterRule {
    /// A known Metamagic option: `cast_spell` accepts it and spends its sorcery points.
    Metamagic {
        /// The option.
        option: Metamagic,
    },
    /// Flexible Casting: sorcery points ↔ spell slots (`manage_spell_slots`).
    FlexibleCasting,
    /// Regain this many sorcery points on a short rest (Sorcerous Restoration).
    SorcerousRestoration {
        /// Points.
        points: u32,
    },
    /// The dragon ancestor's damage type (Elemental Affinity, Draconic Ancestry).
    DraconicAncestry {
        /// The type.
        damage: DamageType,
    },
    /// + CHA modifier to one damage roll of a spell of the ancestry's type.
    ElementalAffinity,
    /// A flying speed equal to the walking speed (Dragon Wings).
    DragonWings,
    /// Creatures of the bard's party spending hit dice on a short rest regain this die more.
    SongOfRest {
        /// Die faces.
        faces: u32,
    },
    /// Healing spells of 1st level or higher heal 2 + the spell's level more.
    DiscipleOfLife,
    /// Healing another with a spell of 1st level or higher heals the caster 2 + its level.
    BlessedHealer,
    /// Healing spells heal their dice's maximum.
    SupremeHealing,
    /// Spell slots recovered on a short rest (half the class level, rounded up; none 6th+).
    NaturalRecovery,
    /// The wizard's Arcane Recovery: as Natural Recovery, with its own daily use.
    ArcaneRecovery,
    /// One Bardic Inspiration regained when initiative is rolled with none left.
    SuperiorInspiration,
    /// One more cantrip known of the class (Circle of the Land).
    BonusCantrip,
    /// Once per turn a weapon hit deals 1d8 more of this type (2d8 from class level 14).
    DivineStrike {
        /// The type.
        damage: DamageType,
    },
}

/// The sorcerer's Metamagic options (SRD 5.1).
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Metamagic {
    /// Chosen creatures (up to CHA modifier) succeed on the spell's save: 1 point.
    Careful,
    /// Range doubled (touch becomes 30 ft): 1 point.
    Distant,
    /// Reroll up to CHA-modifier damage dice: 1 point.
    Empowered,
    /// Duration doubled (at most 24 hours): 1 point.
    Extended,
    /// One target has disadvantage on its first save: 3 points.
    Heightened,
    /// Cast with a bonus action: 2 points.
    Quickened,
    /// No somatic or verbal components: 1 point.
    Subtle,
    /// A second target for a single-target spell: points = spell level (1 for a cantrip).
    Twinned,
}

impl Metamagic {
    /// Every option.
    pub const ALL: [Metamagic; 8] = [
        Metamagic::Careful,
        Metamagic::Distant,
        Metamagic::Empowered,
        Metamagic::Extended,
        Metamagic::Heightened,
        Metamagic::Quickened,
        Metamagic::Subtle,
        Metamagic::Twinned,
    ];

    /// The sorcery points it costs on a spell of `level` (0: cantrip).
    pub fn cost(self, level: u8) -> u32 {
        match self {
            Metamagic::Heightened => 3,
            Metamagic::Quickened => 2,
            Metamagic::Twinned => u32::from(level.max(1)),
            _ => 1,
        }
    }

    /// "Quickened Spell".
    pub fn name(self) -> &'static str {
        match self {
            Metamagic::Careful => "Careful Spell",
            Metamagic::Distant => "Distant Spell",
            Metamagic::Empowered => "Empowered Spell",
            Metamagic::Extended => "Extended Spell",
            Metamagic::Heightened => "Heightened Spell",
            Metamagic::Quickened => "Quickened Spell",
            Metamagic::Subtle => "Subtle Spell",
            Metamagic::Twinned => "Twinned Spell",
        }
    }

    /// "quickened", "Quickened Spell", "quickened-spell" → the option.
    pub fn parse(s: &str) -> Option<Metamagic> {
        let k = s.trim().to_ascii_lowercase();
        let k = k.trim_start_matches("metamagic-");
        let k = k
            .trim_end_matches(" spell")
            .trim_end_matches("-spell")
            .trim_end_matches("_spell");
        Metamagic::ALL
            .into_iter()
            .find(|m| m.name().to_ascii_lowercase().trim_end_matches(" spell") == k)
    }
}

/// Sorcery points to create a spell slot of `level` (SRD Flexible Casting table; 1st–5th).
pub fn slot_cost(level: u8) -> Option<u32> {
    match level {
        1 => Some(2),
        2 => Some(3),
        3 => Some(5),
        4 => Some(6),
        5 => Some(7),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metamagic_names_parse_and_cost() {
        assert_eq!(Metamagic::parse("quickened"), Some(Metamagic::Quickened));
        assert_eq!(Metamagic::parse("Twinned Spell"), Some(Metamagic::Twinned));
        assert_eq!(
            Metamagic::parse("metamagic-careful-spell"),
            Some(Metamagic::Careful)
        );
        assert_eq!(Metamagic::parse("sneaky"), None);
        assert_eq!(Metamagic::Twinned.cost(0), 1);
        assert_eq!(Metamagic::Twinned.cost(3), 3);
        assert_eq!(Metamagic::Heightened.cost(1), 3);
        assert_eq!(slot_cost(3), Some(5));
        assert_eq!(slot_cost(6), None);
    }
}
