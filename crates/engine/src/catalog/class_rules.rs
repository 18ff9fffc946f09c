//! Class-feature rules the engine applies where the rule bites (a save, a check, a hit, the start
//! of a turn, an action's cost) rather than as a number on the sheet. A feature grants one with
//! `{ grant = "rule", rule = "relentless_rage" }`; the derived sheet lists them
//! (`Derived::rules`) and each place that applies one asks `Derived::has_rule`.

use serde::{Deserialize, Serialize};

/// One rule a class feature adds to play.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClassRule {
    /// While raging: one melee weapon attack as a bonus action each turn (Frenzy).
    Frenzy,
    /// While raging: immune to charmed and frightened (Mindless Rage).
    MindlessRage,
    /// At 0 HP while raging: a CON save (DC 10, +5 per use since the last rest) to drop to 1 HP
    /// instead (Relentless Rage).
    RelentlessRage,
    /// Rage does not lapse for want of attacking or being hurt (Persistent Rage).
    PersistentRage,
    /// A STR check total below the STR score uses the score (Indomitable Might).
    IndomitableMight,
    /// A reaction melee attack on a creature within 5 ft that damages it (Retaliation).
    Retaliation,
    /// At the start of its turn, with HP at most half and above 0: regain 5 + CON modifier
    /// (Survivor).
    Survivor,
    /// A reaction cutting a ranged weapon attack's damage by 1d10 + DEX + monk level (Deflect
    /// Missiles).
    DeflectMissiles,
    /// Unarmed strikes count as magical against resistance and immunity (Ki-Empowered Strikes).
    KiEmpoweredStrikes,
    /// Regains 4 ki when initiative is rolled with none left (Perfect Self).
    PerfectSelf,
    /// It and friendly creatures within 10 ft add its CHA modifier (min +1) to saves while it is
    /// conscious (Aura of Protection).
    AuraOfProtection,
    /// It and friendly creatures within 10 ft can't be charmed while it is conscious (Aura of
    /// Devotion).
    AuraOfDevotion,
    /// The paladin's auras reach 30 ft (Aura Improvements, 18th level).
    #[serde(rename = "aura_range_30")]
    AuraRange30,
    /// Once per turn, +1d8 weapon damage on a creature below its hit point maximum (Colossus
    /// Slayer).
    ColossusSlayer,
    /// Every melee weapon hit deals 1d8 more radiant damage (Improved Divine Smite).
    ImprovedDivineSmite,
    /// Opportunity attacks against it have disadvantage (Escape the Horde).
    EscapeTheHorde,
    /// After a creature hits it, +4 AC against that creature's later attacks this turn
    /// (Multiattack Defense).
    MultiattackDefense,
    /// A reaction halving the damage of an attack that hits it from an attacker it can see
    /// (Uncanny Dodge).
    UncannyDodge,
    /// No disadvantage on attacks against a creature it can't see (Feral Senses).
    FeralSenses,
    /// Dash, Disengage or Hide as a bonus action (Cunning Action).
    CunningAction,
    /// Use an Object as a bonus action (Fast Hands).
    FastHands,
    /// Hide as a bonus action (Vanish).
    Vanish,
    /// Advantage on the Hide check after moving no more than half its speed (Supreme Sneak).
    SupremeSneak,
    /// A d20 of 9 or lower counts as 10 on checks with proficiency (Reliable Talent).
    ReliableTalent,
    /// Magic can't put it to sleep: a spell that puts creatures to sleep leaves it unaffected
    /// (Fey Ancestry, a race trait).
    NoMagicSleep,
}

impl ClassRule {
    /// The feature's name, for the lines that say it applied.
    pub fn label(self) -> &'static str {
        match self {
            ClassRule::Frenzy => "Frenzy",
            ClassRule::MindlessRage => "Mindless Rage",
            ClassRule::RelentlessRage => "Relentless Rage",
            ClassRule::PersistentRage => "Persistent Rage",
            ClassRule::IndomitableMight => "Indomitable Might",
            ClassRule::Retaliation => "Retaliation",
            ClassRule::Survivor => "Survivor",
            ClassRule::DeflectMissiles => "Deflect Missiles",
            ClassRule::KiEmpoweredStrikes => "Ki-Empowered Strikes",
            ClassRule::PerfectSelf => "Perfect Self",
            ClassRule::AuraOfProtection => "Aura of Protection",
            ClassRule::AuraOfDevotion => "Aura of Devotion",
            ClassRule::AuraRange30 => "Aura Improvements",
            ClassRule::ColossusSlayer => "Colossus Slayer",
            ClassRule::ImprovedDivineSmite => "Improved Divine Smite",
            ClassRule::EscapeTheHorde => "Escape the Horde",
            ClassRule::MultiattackDefense => "Multiattack Defense",
            ClassRule::UncannyDodge => "Uncanny Dodge",
            ClassRule::FeralSenses => "Feral Senses",
            ClassRule::CunningAction => "Cunning Action",
            ClassRule::FastHands => "Fast Hands",
            ClassRule::Vanish => "Vanish",
            ClassRule::SupremeSneak => "Supreme Sneak",
            ClassRule::ReliableTalent => "Reliable Talent",
            ClassRule::NoMagicSleep => "Fey Ancestry",
        }
    }
}
