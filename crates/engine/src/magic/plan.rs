//! One casting as data: the plan every casting tool builds ([`CastPlan`], with the caster's
//! choices) and what it did ([`CastReport`], per target [`TargetResult`]). Types only, so the
//! grant families can use them without importing the resolution.

use serde::Serialize;
use tabletop_grid::AreaOrigin;
use tabletop_rules::{Ability, Condition};

use crate::model::slots::ordinal;
use crate::model::spell::SpellDef;

/// How a casting rolls its attack.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttackNumbers {
    /// The caster's ability and proficiency (through its effective stats and effects), plus
    /// what worn magic adds to spell attacks.
    Caster(Ability, i32),
    /// A fixed bonus (a spell scroll's).
    Fixed(i32),
}

/// One casting, ready to apply.
#[derive(Debug, Clone)]
pub struct CastPlan {
    /// The spell.
    pub spell: SpellDef,
    /// The level it is cast at (0: cantrip).
    pub slot_level: u8,
    /// The save DC.
    pub save_dc: i32,
    /// How attacks roll.
    pub attack: AttackNumbers,
    /// The spellcasting modifier (for "MOD" in dice).
    pub modifier: i32,
    /// Target ids in order (a projectile spell repeats an id per dart or ray).
    pub targets: Vec<String>,
    /// The area's point of origin (cover on DEX saves is measured from it).
    pub origin: Option<AreaOrigin>,
    /// Extra advantage on spell attacks (reasons).
    pub advantage: Vec<String>,
    /// Extra disadvantage on spell attacks (reasons).
    pub disadvantage: Vec<String>,
    /// A situational bonus on spell attacks.
    pub bonus: i32,
    /// Label for the source ("Fireball", "Fireball (scroll)").
    pub source: String,
    /// A persistent spell attacking again with no new casting (Spiritual Weapon's bonus-action
    /// attack).
    pub repeat: bool,
    /// What the caster chose (a damage type, an ability) for spells that ask.
    pub choice: CastChoice,
    /// Metamagic that changes the resolution (sorcery points already spent).
    pub metamagic: MetamagicPlan,
    /// The game master overrode the rules (`force`): an attack its situation refuses (a target
    /// beyond a touch spell's reach) is rolled anyway, as the override says.
    pub forced: bool,
}

/// The Metamagic options [`super::spellcasting::resolve`] applies.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MetamagicPlan {
    /// Heightened Spell: the first target to save has disadvantage.
    pub heightened: bool,
    /// Careful Spell: this many of the caster's allies among the targets succeed on the save.
    pub careful: u32,
    /// Empowered Spell: this many damage dice below average are rerolled.
    pub empowered: u32,
    /// Twinned Spell: one more target than the spell's one.
    pub twinned: bool,
}

/// What a caster chooses when a spell asks: Protection from Energy's damage type
/// (`damageType`), Enhance Ability's ability (`ability`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CastChoice {
    /// A damage type.
    pub damage_type: Option<tabletop_rules::DamageType>,
    /// An ability.
    pub ability: Option<Ability>,
    /// Enlarge/Reduce: reduce rather than enlarge (`description: "reduce"`).
    pub reduce: bool,
    /// A carried item the spell acts on (`item`: Mending's broken item, Fabricate's material).
    pub item: Option<String>,
    /// What the caster asks for in words (`description`: Fabricate's product, the spell Wish
    /// duplicates).
    pub words: Option<String>,
}

/// What one casting did to one target.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TargetResult {
    /// Character id.
    pub id: String,
    /// Name.
    pub name: String,
    /// The spell attack (summary), if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attack: Option<String>,
    /// Whether the attack hit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hit: Option<bool>,
    /// A critical hit.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub critical: bool,
    /// The save (summary), if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub save: Option<String>,
    /// Whether the save succeeded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub saved: Option<bool>,
    /// Damage rolled (before defences).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub damage_rolled: Option<i64>,
    /// Damage taken.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub damage_taken: Option<u32>,
    /// HP healed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub healed: Option<u32>,
    /// HP after.
    pub hp_after: u32,
    /// Condition imposed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub condition: Option<Condition>,
    /// Effect applied.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub effect: Option<String>,
    /// Feet the target is to be pushed away from the caster (applied on the map).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub push_ft: Option<u32>,
    /// The target loses its reaction until the start of its next turn.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub no_reactions: bool,
    /// One phrase for the headline ("Goblin 1 takes 28 fire (7 → 0 HP), dies").
    pub phrase: String,
}

/// What a casting did.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CastReport {
    /// The spell.
    pub spell: String,
    /// Level cast at (0: cantrip).
    pub slot_level: u8,
    /// Save DC used (when a save was rolled).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub save_dc: Option<i32>,
    /// Per target.
    pub targets: Vec<TargetResult>,
    /// What happened, in order.
    pub lines: Vec<String>,
    /// Notes (components, costly material, targets beyond the data, concentration).
    pub notes: Vec<String>,
    /// What the engine leaves to the DM ("no automation for Wish: the DM decides …").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub automation: Option<String>,
    /// Targets that answered the spell with a reaction (Shield): the fight spends it.
    #[serde(skip)]
    pub reacted: Vec<String>,
}

impl CastReport {
    /// "Fireball (3rd level): Goblin 1 takes 28 fire …; Goblin 2 …".
    pub fn headline(&self) -> String {
        let lvl = if self.slot_level == 0 {
            "cantrip".to_string()
        } else {
            format!("{} level", ordinal(self.slot_level))
        };
        let phrases: Vec<&str> = self
            .targets
            .iter()
            .map(|t| t.phrase.as_str())
            .filter(|p| !p.is_empty())
            .collect();
        if let Some(a) = &self.automation
            && phrases.is_empty()
        {
            format!("{} ({lvl}): {a}.", self.spell)
        } else if phrases.is_empty() {
            format!("{} ({lvl}) is cast.", self.spell)
        } else {
            format!("{} ({lvl}): {}.", self.spell, phrases.join("; "))
        }
    }
}

/// Which slot a casting used.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SlotUse {
    /// The level the spell was cast at (0 for cantrips and rituals).
    pub level: u8,
    /// A pact-magic slot was spent.
    pub pact: bool,
    /// Whether a slot was spent at all.
    pub spent: bool,
}
