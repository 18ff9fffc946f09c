//! The spell catalog's encoding of spells that act on objects and put objects or servants on
//! the map: a door locked or unlocked ([`DoorSpell`]: Knock, Arcane Lock) and tokens with a stat
//! block we encode from the spell's own numbers ([`TokenSpec`]: Mage Hand, Unseen Servant,
//! Arcane Hand, Animate Objects' table). Types only; the casting lives in `combat::objects`.

use serde::Deserialize;
use tabletop_rules::{Condition, DamageType, Size};

/// What a door spell does to the door at the square the caster names (`to`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DoorSpell {
    /// A locked door becomes closed and unlocked (Knock).
    Unlock,
    /// A closed door becomes locked (Arcane Lock).
    Lock,
}

/// The hit points of a token.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(untagged)]
pub enum TokenHp {
    /// A number.
    Fixed(u32),
    /// "caster_max_hp": the caster's hit point maximum (Arcane Hand).
    Caster(String),
}

/// One attack of a token.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TokenAttack {
    /// Its name ("Clenched Fist").
    pub name: String,
    /// To-hit bonus; absent: the caster's spell attack bonus.
    #[serde(default)]
    pub bonus: Option<i32>,
    /// Damage dice at the spell's level ("4d8").
    pub damage: String,
    /// Dice added per slot level above the spell's ("2d8").
    #[serde(default)]
    pub per_slot: Option<String>,
    /// Damage type.
    pub damage_type: DamageType,
    /// Reach in feet (5).
    #[serde(default)]
    pub reach_ft: Option<u32>,
}

/// A creature or object a spell puts on the map, with our encoding of its statistics.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TokenSpec {
    /// Its name ("Mage Hand"); the caster picks among several by it (`creature`).
    pub name: String,
    /// Size.
    #[serde(default)]
    pub size: Option<Size>,
    /// Armor class.
    pub ac: i32,
    /// Hit points.
    pub hp: TokenHp,
    /// Walking (or floating) speed in feet.
    #[serde(default)]
    pub speed: Option<u32>,
    /// STR, DEX, CON, INT, WIS, CHA (10 each when absent).
    #[serde(default)]
    pub stats: Option<[u8; 6]>,
    /// Its attacks.
    #[serde(default)]
    pub attacks: Vec<TokenAttack>,
    /// How many of the spell's `count` (objects at its level, `count_per_slot` more above)
    /// one of these uses (Animate Objects: Medium 2, Large 4, Huge 8); absent: one token.
    #[serde(default)]
    pub units: Option<u32>,
    /// Conditions it has from the start (an invisible servant or eye).
    #[serde(default)]
    pub conditions: Vec<Condition>,
    /// Damage immunities.
    #[serde(default)]
    pub immunities: Vec<DamageType>,
    /// Condition immunities.
    #[serde(default)]
    pub condition_immunities: Vec<Condition>,
    /// What the engine leaves to the DM about it ("it can't attack").
    #[serde(default)]
    pub note: Option<String>,
}

impl TokenSpec {
    /// The problems of one token: dice that parse, a unit count above 0.
    pub fn check(&self, index: &str) -> Vec<String> {
        let mut bad = Vec::new();
        for a in &self.attacks {
            for d in std::iter::once(&a.damage).chain(a.per_slot.iter()) {
                if tabletop_rules::dice::parse(d).is_err() {
                    bad.push(format!("{index}: token attack '{d}' is not dice"));
                }
            }
        }
        if let TokenHp::Caster(s) = &self.hp
            && s != "caster_max_hp"
        {
            bad.push(format!("{index}: token hp '{s}' is not caster_max_hp"));
        }
        if self.units == Some(0) {
            bad.push(format!("{index}: token units 0"));
        }
        bad
    }
}
