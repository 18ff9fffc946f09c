//! Inventory: items with their rules stats, equipment slots, attunement, currency, weight and
//! carrying capacity, stored inside the character document.
//!
//! Equipped items feed the one effective-stats pipeline as its `equipment` layer
//! ([`Inventory::equipment_layer`]): worn armor sets the base AC (light: base + DEX; medium: +
//! DEX up to 2; heavy: no DEX), a shield adds its bonus, unmet armor Strength costs 10 ft of
//! speed, stealthy-less armor imposes disadvantage on Stealth, and magic items add their typed
//! [`ModifierKind`]s once attuned when they need it. Weapon-bound bonuses (a +1 longsword's to-hit
//! and damage, a Flame Tongue's fire) apply only to attacks with that weapon.

use std::fmt;

use serde::{Deserialize, Serialize};
use tabletop_rules::modifiers::{Modifier, ModifierKind, RollTarget};
use tabletop_rules::stats::{ArmorClass, BaseStats, equipped_score};
use tabletop_rules::{Ability, DamageType, Skill, ability_modifier};

/// The most items that can be attuned at once.
pub const MAX_ATTUNED: usize = 3;
/// Coins that weigh one pound.
pub const COINS_PER_POUND: u64 = 50;

macro_rules! keyed_enum {
    (
        $(#[$meta:meta])*
        pub enum $name:ident { $( $(#[$vmeta:meta])* $variant:ident = $key:literal ),+ $(,)? }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
        #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
        pub enum $name { $( $(#[$vmeta])* #[serde(rename = $key)] $variant ),+ }

        /// Reads case-insensitively (`"Two-Handed"` is `two_handed`); an unknown value names the
        /// closest and every allowed one.
        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let s = String::deserialize(d)?;
                let k = tabletop_rules::vocab::normalize_key(&s);
                match k.as_str() {
                    $($key => Ok($name::$variant),)+
                    _ => {
                        let keys = [$($key),+];
                        let hint = tabletop_rules::vocab::closest(&k, keys.iter().copied())
                            .map(|c| format!(" (did you mean '{c}'?)"))
                            .unwrap_or_default();
                        Err(serde::de::Error::custom(format!(
                            "unknown value '{s}'{hint}; allowed: {}",
                            keys.join(", ")
                        )))
                    }
                }
            }
        }

        impl $name {
            /// Every value.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The snake_case name.
            pub fn key(self) -> &'static str {
                match self { $($name::$variant => $key),+ }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.key())
            }
        }
    };
}

keyed_enum! {
    /// What kind of thing an item is.
    pub enum ItemType {
        /// Swords, bows, …
        Weapon = "weapon",
        /// Body armor and shields.
        Armor = "armor",
        /// Potions, scrolls, food.
        Consumable = "consumable",
        /// Wondrous items: cloaks, rings, belts.
        Wondrous = "wondrous",
        /// Tools.
        Tool = "tool",
        /// Rope, torches, …
        AdventuringGear = "adventuring_gear",
        /// Gems, art (coins are currency).
        Treasure = "treasure",
        /// Arrows, bolts, bullets.
        Ammunition = "ammunition",
    }
}

keyed_enum! {
    /// How rare an item is.
    pub enum Rarity {
        /// Common.
        Common = "common",
        /// Uncommon.
        Uncommon = "uncommon",
        /// Rare.
        Rare = "rare",
        /// Very rare.
        VeryRare = "very_rare",
        /// Legendary.
        Legendary = "legendary",
        /// Artifact.
        Artifact = "artifact",
    }
}

keyed_enum! {
    /// Where an equipped item is worn or held.
    pub enum Slot {
        /// Primary hand (a two-handed weapon takes both hands).
        Mainhand = "mainhand",
        /// Shield or a second weapon.
        Offhand = "offhand",
        /// Body armor.
        Armor = "armor",
        /// Helmets, circlets, headbands.
        Head = "head",
        /// Boots.
        Feet = "feet",
        /// Gloves, gauntlets.
        Hands = "hands",
        /// Cloaks.
        Cloak = "cloak",
        /// Amulets, necklaces, periapts.
        Neck = "neck",
        /// First ring.
        Ring1 = "ring1",
        /// Second ring.
        Ring2 = "ring2",
        /// Belts.
        Belt = "belt",
        /// Ammunition at hand.
        Quiver = "quiver",
        /// Bracers (worn with gloves or gauntlets).
        Wrists = "wrists",
        /// On the person, any number: stones and charms whose magic works while carried
        /// (Luckstone, Ioun stones orbiting the head, Scarab of Protection).
        Person = "person",
    }
}

keyed_enum! {
    /// Simple or martial, melee or ranged.
    pub enum WeaponCategory {
        /// Simple melee.
        SimpleMelee = "simple_melee",
        /// Simple ranged.
        SimpleRanged = "simple_ranged",
        /// Martial melee.
        MartialMelee = "martial_melee",
        /// Martial ranged.
        MartialRanged = "martial_ranged",
    }
}

impl WeaponCategory {
    /// Whether it is a ranged weapon.
    pub fn is_ranged(self) -> bool {
        matches!(
            self,
            WeaponCategory::SimpleRanged | WeaponCategory::MartialRanged
        )
    }

    /// Whether it is a martial weapon.
    pub fn is_martial(self) -> bool {
        matches!(
            self,
            WeaponCategory::MartialMelee | WeaponCategory::MartialRanged
        )
    }
}

keyed_enum! {
    /// A weapon property.
    pub enum WeaponProperty {
        /// Needs ammunition.
        Ammunition = "ammunition",
        /// STR or DEX, the better.
        Finesse = "finesse",
        /// Small creatures have disadvantage.
        Heavy = "heavy",
        /// Two-weapon fighting.
        Light = "light",
        /// One shot per action.
        Loading = "loading",
        /// Has a range.
        Range = "range",
        /// +5 ft reach.
        Reach = "reach",
        /// Special rules.
        Special = "special",
        /// Can be thrown.
        Thrown = "thrown",
        /// Needs both hands.
        TwoHanded = "two_handed",
        /// One or two hands.
        Versatile = "versatile",
        /// Silvered (SRD: 100 gp): it overcomes a defense against nonmagical attacks "that
        /// aren't silvered" (a werewolf's immunity).
        Silvered = "silvered",
    }
}

keyed_enum! {
    /// Armor weight class.
    pub enum ArmorCategory {
        /// Base + DEX.
        Light = "light",
        /// Base + DEX (max 2).
        Medium = "medium",
        /// Base only.
        Heavy = "heavy",
        /// Adds its bonus to AC.
        Shield = "shield",
    }
}

keyed_enum! {
    /// When spent charges come back.
    pub enum Recharge {
        /// At dawn.
        Dawn = "dawn",
        /// At dusk.
        Dusk = "dusk",
        /// After a short or long rest.
        ShortRest = "short_rest",
        /// After a long rest.
        LongRest = "long_rest",
        /// Never.
        Never = "never",
    }
}

/// A weapon's attack stats.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WeaponStats {
    /// Damage dice ("1d8").
    pub damage_dice: String,
    /// Damage type.
    pub damage_type: DamageType,
    /// Simple/martial, melee/ranged.
    pub category: WeaponCategory,
    /// Properties.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub properties: Vec<WeaponProperty>,
    /// Normal range in feet (ranged or thrown).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range_normal: Option<u32>,
    /// Long range in feet.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range_long: Option<u32>,
    /// Two-handed damage dice of a versatile weapon ("1d10").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub versatile_damage: Option<String>,
}

impl WeaponStats {
    /// Whether it has `p`.
    pub fn has(&self, p: WeaponProperty) -> bool {
        self.properties.contains(&p)
    }
}

/// A piece of armor's stats.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ArmorStats {
    /// Base AC (the bonus, for a shield).
    pub base_ac: i32,
    /// Weight class.
    pub category: ArmorCategory,
    /// Cap on the DEX modifier (medium armor: 2); absent = the category's rule.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_dex_bonus: Option<i32>,
    /// Disadvantage on Stealth checks.
    #[serde(default)]
    pub stealth_disadvantage: bool,
    /// Strength score needed to avoid −10 ft speed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub strength_requirement: Option<u8>,
}

impl ArmorStats {
    /// The most DEX modifier this armor lets through (`None` = all of it).
    pub fn dex_cap(&self) -> Option<i32> {
        match self.category {
            ArmorCategory::Light => self.max_dex_bonus,
            ArmorCategory::Medium => Some(self.max_dex_bonus.unwrap_or(2)),
            ArmorCategory::Heavy | ArmorCategory::Shield => Some(0),
        }
    }
}

/// Charges of an item.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Charges {
    /// Charges left.
    pub current: u32,
    /// Most charges.
    pub max: u32,
    /// When they come back.
    pub recharge: Recharge,
    /// Charges regained (dice such as "1d6+1"); absent = all.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recharge_dice: Option<String>,
}

/// One item (or a stack of identical ones) a character carries.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Item {
    /// Stable id within the campaign ("it7").
    pub id: String,
    /// Display name.
    pub name: String,
    /// Free text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// What kind of thing it is.
    #[serde(rename = "type")]
    pub item_type: ItemType,
    /// Rarity.
    pub rarity: Rarity,
    /// Its magic works only while attuned.
    #[serde(default)]
    pub requires_attunement: bool,
    /// Who may attune ("by a cleric, druid, or paladin").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attunement_restriction: Option<String>,
    /// Attuned to its carrier.
    #[serde(default)]
    pub attuned: bool,
    /// Where it is equipped; absent = carried.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slot: Option<Slot>,
    /// Weapon stats.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weapon: Option<WeaponStats>,
    /// Armor stats.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub armor: Option<ArmorStats>,
    /// Mechanical effects while equipped (and attuned, if required), as typed rules modifiers.
    /// On a weapon, attack-roll bonuses, damage bonuses and extra damage apply to its own attacks.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub effects: Vec<ModifierKind>,
    /// Value of one, in gold pieces.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<f64>,
    /// Weight of one, in pounds.
    #[serde(default)]
    pub weight: f64,
    /// How many (a stack).
    pub quantity: u32,
    /// Identical items merge into one stack.
    #[serde(default)]
    pub stackable: bool,
    /// Charges.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub charges: Option<Charges>,
    /// Healing when used ("2d4+2").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub heal: Option<String>,
    /// What using it does, in words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effect: Option<String>,
    /// Rounds its `effects` last on whoever uses it (a potion of fire resistance: 600 rounds,
    /// one hour); `None` when they apply while it is equipped instead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lasts_rounds: Option<u32>,
    /// The SRD magic item it is (its catalog index), when it came from the compendium.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub srd: Option<String>,
    /// The id of the carried container it is stowed in (a Bag of Holding): what is inside one
    /// of the SRD's extradimensional containers weighs nothing on its carrier.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inside: Option<String>,
    /// What a spell made of it: when it spoils, broken, tainted (see `model::item_state`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<super::item_state::ItemState>,
}

impl Item {
    /// Whether its magic is working: equipped, and attuned if it needs to be.
    pub fn is_active(&self) -> bool {
        self.slot.is_some() && (!self.requires_attunement || self.attuned)
    }

    /// Its entry in the magic-item catalog, when it is an SRD magic item.
    pub fn catalog_entry(&self) -> Option<&'static crate::catalog::items::ItemEntry> {
        self.srd.as_deref().and_then(crate::catalog::items::entry)
    }

    /// Its catalog entry while its magic is working (equipped, attuned if it must be).
    pub fn active_entry(&self) -> Option<&'static crate::catalog::items::ItemEntry> {
        self.catalog_entry().filter(|_| self.is_active())
    }

    /// What its magic adds to a hit whose attack roll is a natural 20 ("2d6[slashing]": Vicious
    /// Weapon; "3d6[necrotic]": Sword of Life Stealing), `weapon_type` being the weapon's own.
    pub fn natural_20_extra(&self, weapon_type: tabletop_rules::DamageType) -> Option<String> {
        let e = self.active_entry()?;
        let t = e.natural_20_type.unwrap_or(weapon_type);
        Some(format!("{}[{t}]", e.natural_20_damage.as_deref()?))
    }

    /// Whether, worn, it turns critical hits against its wearer into normal hits (Adamantine).
    pub fn stops_critical_hits(&self) -> bool {
        self.active_entry().is_some_and(|e| e.no_critical_hits)
    }

    /// What, worn, it adds to AC against ranged attacks (Arrow-Catching Shield +2).
    pub fn ranged_ac_bonus(&self) -> i32 {
        self.active_entry().map_or(0, |e| e.ranged_ac_bonus)
    }

    /// Whether, worn, it resists ranged weapon damage (Shield of Missile Attraction).
    pub fn resists_ranged(&self) -> bool {
        self.active_entry().is_some_and(|e| e.ranged_resistance)
    }

    /// Whether, worn, it resists nonmagical weapon damage (Armor of Invulnerability).
    pub fn resists_nonmagical(&self) -> bool {
        self.active_entry().is_some_and(|e| e.nonmagical_resistance)
    }

    /// Whether it is a shield.
    pub fn is_shield(&self) -> bool {
        self.armor
            .as_ref()
            .is_some_and(|a| a.category == ArmorCategory::Shield)
    }

    /// Whether it is body armor (not a shield).
    pub fn is_body_armor(&self) -> bool {
        self.armor
            .as_ref()
            .is_some_and(|a| a.category != ArmorCategory::Shield)
    }

    /// Whether it needs both hands.
    pub fn is_two_handed(&self) -> bool {
        self.weapon
            .as_ref()
            .is_some_and(|w| w.has(WeaponProperty::TwoHanded))
    }

    /// Whether an effect belongs to this weapon's (or this ammunition's) own attacks rather than
    /// to the wearer.
    pub fn weapon_bound(&self, kind: &ModifierKind) -> bool {
        (self.weapon.is_some() || self.item_type == ItemType::Ammunition)
            && matches!(
                kind,
                ModifierKind::RollBonus {
                    on: RollTarget::AttackRolls,
                    ..
                } | ModifierKind::DamageBonus { .. }
                    | ModifierKind::ExtraDamage { .. }
            )
    }

    /// The magic bonus to this weapon's attack rolls.
    pub fn attack_bonus(&self) -> i32 {
        self.effects
            .iter()
            .filter_map(|k| match k {
                ModifierKind::RollBonus {
                    on: RollTarget::AttackRolls,
                    amount,
                } => Some(*amount),
                _ => None,
            })
            .sum()
    }

    /// The magic bonus to this weapon's damage.
    pub fn damage_bonus(&self) -> i32 {
        self.effects
            .iter()
            .filter_map(|k| match k {
                ModifierKind::DamageBonus { amount } => Some(*amount),
                _ => None,
            })
            .sum()
    }

    /// Total weight of the stack.
    pub fn total_weight(&self) -> f64 {
        self.weight * f64::from(self.quantity)
    }

    /// Whether `other` is the same kind of item (for stacking).
    pub fn same_kind(&self, other: &Item) -> bool {
        crate::model::names::name_key(&self.name) == crate::model::names::name_key(&other.name)
            && self.item_type == other.item_type
            && self.weapon == other.weapon
            && self.armor == other.armor
            && self.effects == other.effects
            && self.heal == other.heal
            && self.charges == other.charges
            && self.requires_attunement == other.requires_attunement
            && self.inside == other.inside
    }

    /// "Longsword +1 (it3, mainhand, attuned)".
    pub fn label(&self) -> String {
        let mut tags = vec![self.id.clone()];
        if self.quantity != 1 {
            tags.push(format!("×{}", self.quantity));
        }
        if let Some(s) = self.slot {
            tags.push(s.key().to_string());
        }
        if self.attuned {
            tags.push("attuned".into());
        } else if self.requires_attunement {
            tags.push("needs attunement".into());
        }
        if let Some(c) = &self.charges {
            tags.push(format!("{}/{} charges", c.current, c.max));
        }
        if let Some(c) = &self.inside {
            tags.push(format!("in {c}"));
        }
        format!("{} ({})", self.name, tags.join(", "))
    }
}

/// Coins by denomination.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Currency {
    /// Copper pieces.
    pub cp: u64,
    /// Silver pieces (10 cp).
    pub sp: u64,
    /// Electrum pieces (50 cp).
    pub ep: u64,
    /// Gold pieces (100 cp).
    pub gp: u64,
    /// Platinum pieces (1,000 cp).
    pub pp: u64,
}

/// Value of each denomination in copper, smallest first.
const DENOMINATIONS: [(&str, u64); 5] = [
    ("cp", 1),
    ("sp", 10),
    ("ep", 50),
    ("gp", 100),
    ("pp", 1_000),
];

impl Currency {
    fn get(&self, i: usize) -> u64 {
        [self.cp, self.sp, self.ep, self.gp, self.pp][i]
    }

    fn slot(&mut self, i: usize) -> &mut u64 {
        match i {
            0 => &mut self.cp,
            1 => &mut self.sp,
            2 => &mut self.ep,
            3 => &mut self.gp,
            _ => &mut self.pp,
        }
    }

    /// Whether there are no coins.
    pub fn is_empty(&self) -> bool {
        self.coins() == 0
    }

    /// Number of coins.
    pub fn coins(&self) -> u64 {
        (0..5).map(|i| self.get(i)).fold(0, u64::saturating_add)
    }

    /// Total value in copper.
    pub fn total_cp(&self) -> u64 {
        (0..5)
            .map(|i| self.get(i).saturating_mul(DENOMINATIONS[i].1))
            .fold(0, u64::saturating_add)
    }

    /// Total value in gold pieces.
    pub fn total_gp(&self) -> f64 {
        self.total_cp() as f64 / 100.0
    }

    /// Adds coins.
    pub fn add(&mut self, other: &Currency) {
        for i in 0..5 {
            let s = self.slot(i);
            *s = s.saturating_add(other.get(i));
        }
    }

    /// `value_cp` in the fewest coins (pp, gp, sp, cp; no electrum).
    pub fn from_cp(value_cp: u64) -> Currency {
        let mut c = Currency {
            pp: value_cp / 1_000,
            ..Default::default()
        };
        let mut rest = value_cp % 1_000;
        c.gp = rest / 100;
        rest %= 100;
        c.sp = rest / 10;
        c.cp = rest % 10;
        c
    }

    /// Pays `cost`: coins of each asked denomination first, then the shortfall from the smallest
    /// coins up, breaking a larger coin and taking change (in the fewest coins) when needed.
    /// Returns the change received, or `None` (nothing changed) when the purse is too light.
    pub fn pay(&mut self, cost: &Currency) -> Option<Currency> {
        if self.total_cp() < cost.total_cp() {
            return None;
        }
        let mut purse = *self;
        let mut short_cp = 0u64;
        for (i, &(_, v)) in DENOMINATIONS.iter().enumerate() {
            let take = purse.get(i).min(cost.get(i));
            *purse.slot(i) -= take;
            short_cp += (cost.get(i) - take) * v;
        }
        let mut paid_cp = 0u64;
        for (i, &(_, v)) in DENOMINATIONS.iter().enumerate() {
            if paid_cp >= short_cp {
                break;
            }
            let need = (short_cp - paid_cp).div_ceil(v);
            let take = purse.get(i).min(need);
            *purse.slot(i) -= take;
            paid_cp += take * v;
        }
        if paid_cp < short_cp {
            return None;
        }
        let change = Currency::from_cp(paid_cp - short_cp);
        purse.add(&change);
        *self = purse;
        Some(change)
    }
}

impl fmt::Display for Currency {
    /// "12 gp, 5 sp" (or "no coins").
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = (0..5)
            .rev()
            .filter(|&i| self.get(i) > 0)
            .map(|i| format!("{} {}", self.get(i), DENOMINATIONS[i].0))
            .collect();
        if parts.is_empty() {
            f.write_str("no coins")
        } else {
            f.write_str(&parts.join(", "))
        }
    }
}

/// Everything a character carries.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Inventory {
    /// Items and stacks, in the order received.
    pub items: Vec<Item>,
    /// Coins.
    pub currency: Currency,
}

/// The equipment layer of the effective-stats pipeline, with the reasons behind it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct EquipmentLayer {
    /// The base AC from worn armor, replacing the stored one.
    pub armor_class: Option<ArmorClass>,
    /// Modifiers of equipped (and attuned) items.
    pub modifiers: Vec<Modifier>,
}

impl Inventory {
    /// Whether nothing is carried.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty() && self.currency.is_empty()
    }

    /// The item in `slot`.
    pub fn in_slot(&self, slot: Slot) -> Option<&Item> {
        self.items.iter().find(|i| i.slot == Some(slot))
    }

    /// The walking speed a worn item guarantees, which armor and encumbrance do not lower
    /// (Boots of Striding and Springing: 30), with the item's name.
    pub fn speed_floor(&self) -> Option<(i32, &str)> {
        self.items
            .iter()
            .filter_map(|i| Some((i.active_entry()?.speed_floor?, i.name.as_str())))
            .max_by_key(|(f, _)| *f)
    }

    /// Why `item`'s worn magic does nothing with the rest of the gear worn, when it does not
    /// (Bracers of Defense with a shield: "no effect: it works only while wearing no armor and
    /// using no shield"); `None` when it works.
    pub fn blocked_magic(&self, item: &Item) -> Option<String> {
        use crate::catalog::items::WornCondition;
        let only = &item.catalog_entry()?.only_while;
        let worn = |shield: bool| {
            self.items.iter().any(|i| {
                i.slot.is_some()
                    && i.armor
                        .as_ref()
                        .is_some_and(|a| (a.category == ArmorCategory::Shield) == shield)
            })
        };
        let broken = only.iter().any(|w| match w {
            WornCondition::NoArmor => worn(false),
            WornCondition::NoShield => worn(true),
        });
        let phrases: Vec<&str> = only.iter().map(|w| w.phrase()).collect();
        broken.then(|| format!("no effect: it works only while {}", phrases.join(" and ")))
    }

    /// Items attuned now.
    pub fn attuned(&self) -> Vec<&Item> {
        self.items.iter().filter(|i| i.attuned).collect()
    }

    /// Total carried weight in pounds (coins: 50 to the pound); what is stowed in a container
    /// (the SRD's are all extradimensional: Bag of Holding, Handy Haversack, Portable Hole,
    /// Efficient Quiver) weighs nothing, the container its own fixed weight.
    pub fn weight(&self) -> f64 {
        self.items
            .iter()
            .filter(|i| i.inside.is_none())
            .map(Item::total_weight)
            .sum::<f64>()
            + self.currency.coins() as f64 / COINS_PER_POUND as f64
    }

    /// The equipment layer for a creature with `base` stats: worn armor's base AC (with the DEX
    /// its category allows, from the scores after the items' own ability changes), shield and
    /// item modifiers, Stealth disadvantage and the Strength-requirement speed penalty.
    pub fn equipment_layer(&self, base: &BaseStats) -> EquipmentLayer {
        let mut modifiers = Vec::new();
        for item in self
            .items
            .iter()
            .filter(|i| i.is_active() && i.lasts_rounds.is_none())
        {
            // Magic that works only without armor or a shield (Bracers of Defense) says why
            // it does nothing instead.
            if let Some(text) = self.blocked_magic(item) {
                modifiers.push(Modifier::new(&item.name, ModifierKind::Note { text }));
                continue;
            }
            for k in &item.effects {
                if !item.weapon_bound(k) {
                    modifiers.push(Modifier::new(&item.name, k.clone()));
                }
            }
        }
        // A cursed item's vulnerabilities follow its attuned bearer even when it is taken off
        // (Armor of Vulnerability): only Remove Curse ends them.
        for item in self
            .items
            .iter()
            .filter(|i| i.attuned && !i.is_active() && i.catalog_entry().is_some_and(|e| e.cursed))
        {
            for k in &item.effects {
                if matches!(k, ModifierKind::Vulnerability { .. }) {
                    modifiers.push(Modifier::new(format!("{} (curse)", item.name), k.clone()));
                }
            }
        }
        // Scores after the equipment's own ability changes decide DEX to AC and armor Strength.
        let dex_score = equipped_score(base, &modifiers, Ability::Dexterity);
        let str_score = equipped_score(base, &modifiers, Ability::Strength);
        let mut armor_class = None;
        for item in self.items.iter().filter(|i| i.slot.is_some()) {
            let Some(a) = &item.armor else { continue };
            if a.category == ArmorCategory::Shield {
                modifiers.push(Modifier::new(
                    &item.name,
                    ModifierKind::AcBonus { amount: a.base_ac },
                ));
                continue;
            }
            let dex = ability_modifier(dex_score);
            let dex_part = a.dex_cap().map_or(dex, |cap| dex.min(cap));
            let source = if dex_part == 0 && a.category == ArmorCategory::Heavy {
                item.name.to_lowercase()
            } else {
                format!(
                    "{}: {} + DEX {dex_part:+}",
                    item.name.to_lowercase(),
                    a.base_ac
                )
            };
            armor_class = Some(ArmorClass {
                value: a.base_ac + dex_part,
                source,
            });
            if a.stealth_disadvantage {
                modifiers.push(Modifier::new(
                    &item.name,
                    ModifierKind::Disadvantage {
                        on: RollTarget::SkillChecks {
                            skill: Skill::Stealth,
                        },
                    },
                ));
            }
            if let Some(need) = a.strength_requirement
                && str_score < need
                && self.speed_floor().is_none()
            {
                modifiers.push(Modifier::new(
                    format!("{} (needs STR {need})", item.name),
                    ModifierKind::SpeedBonus { feet: -10 },
                ));
            }
        }
        let capacity = carrying_capacity(str_score);
        let carried = self.weight();
        if carried > capacity && self.speed_floor().is_none() {
            modifiers.push(Modifier::new(
                format!("over carrying capacity ({carried:.0}/{capacity:.0} lb)"),
                ModifierKind::SpeedAtMost { feet: 5 },
            ));
        }
        EquipmentLayer {
            armor_class,
            modifiers,
        }
    }
}

/// Carrying capacity in pounds: Strength score × 15.
pub fn carrying_capacity(strength: u8) -> f64 {
    f64::from(strength) * 15.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paying_makes_change() {
        let mut purse = Currency {
            gp: 1,
            pp: 1,
            ..Default::default()
        };
        let change = purse
            .pay(&Currency {
                sp: 5,
                ..Default::default()
            })
            .unwrap();
        assert_eq!(
            change,
            Currency {
                sp: 5,
                ..Default::default()
            }
        );
        assert_eq!(purse.total_cp(), 1_100 - 50);
        assert_eq!(purse.gp, 0);
        assert_eq!(purse.pp, 1);
        let mut purse = Currency {
            pp: 2,
            ..Default::default()
        };
        purse
            .pay(&Currency {
                gp: 15,
                ..Default::default()
            })
            .unwrap();
        assert_eq!(
            purse,
            Currency {
                gp: 5,
                ..Default::default()
            }
        );
        let before = purse;
        assert!(
            purse
                .pay(&Currency {
                    pp: 1,
                    ..Default::default()
                })
                .is_none()
        );
        assert_eq!(purse, before, "a refused payment changes nothing");
        assert_eq!(
            Currency::from_cp(1_234).to_string(),
            "1 pp, 2 gp, 3 sp, 4 cp"
        );
        assert_eq!(
            Currency {
                ep: 2,
                ..Default::default()
            }
            .total_gp(),
            1.0
        );
    }

    fn armor(name: &str, stats: ArmorStats) -> Item {
        Item {
            id: "it1".into(),
            name: name.into(),
            description: None,
            item_type: ItemType::Armor,
            rarity: Rarity::Common,
            requires_attunement: false,
            attunement_restriction: None,
            attuned: false,
            slot: Some(if stats.category == ArmorCategory::Shield {
                Slot::Offhand
            } else {
                Slot::Armor
            }),
            weapon: None,
            armor: Some(stats),
            effects: vec![],
            value: None,
            weight: 0.0,
            quantity: 1,
            stackable: false,
            charges: None,
            heal: None,
            effect: None,
            lasts_rounds: None,
            srd: None,
            inside: None,
            state: None,
        }
    }

    #[test]
    fn armor_categories_cap_dex() {
        let mut base = BaseStats::default();
        base.abilities.set(Ability::Dexterity, 18).unwrap();
        let ac = |category, base_ac| {
            let inv = Inventory {
                items: vec![armor(
                    "A",
                    ArmorStats {
                        base_ac,
                        category,
                        max_dex_bonus: None,
                        stealth_disadvantage: false,
                        strength_requirement: None,
                    },
                )],
                ..Default::default()
            };
            inv.equipment_layer(&base).armor_class.map(|a| a.value)
        };
        assert_eq!(ac(ArmorCategory::Light, 11), Some(15));
        assert_eq!(ac(ArmorCategory::Medium, 14), Some(16));
        assert_eq!(ac(ArmorCategory::Heavy, 16), Some(16));
        assert_eq!(ac(ArmorCategory::Shield, 2), None);
    }
}
