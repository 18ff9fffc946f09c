//! The magic-item half of the mechanics catalog: our own encoding, keyed by SRD index, of what
//! each SRD magic item does — modifiers while worn (and attuned when it requires attunement), a
//! +N bonus on a base weapon or armor, healing when used, charges and their recharge, spell
//! scrolls — or `narrative` with a one-line reason. Data: `catalog/items.toml`, embedded and
//! parsed once; the tests hold every SRD magic item encoded and every key an SRD index.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde::Deserialize;
use tabletop_rules::modifiers::ModifierKind;

/// How an item works.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ItemKind {
    /// Modifiers while equipped (and attuned, if it requires attunement).
    Worn,
    /// A +N weapon, armor or ammunition on a base item.
    Bonus,
    /// Healing when used (potions).
    Consumable,
    /// Charges spent by use and regained at dawn.
    Charged,
    /// A spell scroll (cast with `use_scroll`).
    Scroll,
    /// Drunk or applied once: its modifiers become an active effect on the user for `minutes`
    /// (a potion of fire resistance, of giant strength).
    Potion,
    /// Casts its `spells` at will or by a daily use (Boots of Levitation, Circlet of Blasting).
    Spells,
    /// A family of SRD variants (Ring of Resistance, +N Weapon): giving it names a variant
    /// (`variants`), which is resolved to that variant's own entry and applied.
    Family,
    /// An extradimensional container (Bag of Holding): what is stowed in it with
    /// `manage_inventory` `transfer` weighs nothing, up to its `container` capacity.
    Container,
    /// Not automated: the DM decides; `reason` says why.
    Narrative,
}

/// What a container holds.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ItemContainer {
    /// What the container itself weighs, whatever it holds, in pounds.
    pub weight: f64,
    /// The most its contents may weigh, in pounds (none: no weight limit).
    #[serde(default)]
    pub capacity_lb: Option<f64>,
    /// Its volume in cubic feet (not enforced: items carry no volume; said in the answer).
    #[serde(default)]
    pub capacity_ft3: Option<f64>,
    /// Compartments that count objects instead of weighing them (Efficient Quiver): an item
    /// goes in the first whose `holds` it matches.
    #[serde(default)]
    pub compartments: Vec<Compartment>,
}

/// A compartment holding up to `max` objects of one shape.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Compartment {
    /// "ammunition" (arrows, bolts), "thrown" (javelins and the like), "long" (bows,
    /// quarterstaffs, spears: any other weapon).
    pub holds: String,
    /// How many objects.
    pub max: u32,
}

/// A spell an item casts (Wand of Magic Missiles: magic-missile for 1 charge at 1st level, one
/// more level per extra charge).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ItemSpell {
    /// The SRD spell index.
    pub spell: String,
    /// Charges one casting costs (0: at will, no charge).
    #[serde(default)]
    pub charges: u32,
    /// The slot level it is cast at for those charges (default: the spell's own level).
    #[serde(default)]
    pub level: Option<u8>,
    /// Each extra charge raises the slot level by one, up to `max_level` (default 9).
    #[serde(default)]
    pub upcast: bool,
    /// The highest slot level extra charges buy.
    #[serde(default)]
    pub max_level: Option<u8>,
}

/// What happens when an item's last charge is spent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LastCharge {
    /// Roll a d20: on a 1 the item is destroyed (most wands and staffs).
    DestroyedOn1,
    /// It is destroyed (Talisman of Pure Good, Scarab of Protection).
    Destroyed,
    /// Roll a d20: on a 1 it becomes a mundane item (Staff of the Woodlands, of Charming).
    MundaneOn1,
}

/// Something the wearer must not wear for a worn item's magic to work.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WornCondition {
    /// No body armor worn.
    NoArmor,
    /// No shield used.
    NoShield,
}

impl WornCondition {
    /// The condition in words ("wearing no armor").
    pub fn phrase(self) -> &'static str {
        match self {
            WornCondition::NoArmor => "wearing no armor",
            WornCondition::NoShield => "using no shield",
        }
    }
}

/// One item's entry.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ItemEntry {
    /// How it works.
    pub kind: ItemKind,
    /// What is left to the DM (required for narrative items).
    #[serde(default)]
    pub reason: Option<String>,
    /// Modifiers while active.
    #[serde(default)]
    pub modifiers: Vec<ModifierKind>,
    /// Healing dice when used.
    #[serde(default)]
    pub heal: Option<String>,
    /// Charges when full.
    #[serde(default)]
    pub charges: Option<u32>,
    /// Charges regained at dawn ("1d6+1").
    #[serde(default)]
    pub recharge: Option<String>,
    /// The +N of a bonus item.
    #[serde(default)]
    pub bonus: Option<i32>,
    /// How long a potion's modifiers last, in minutes.
    #[serde(default)]
    pub minutes: Option<u32>,
    /// Spells it casts (by charges, at will, or by a daily use).
    #[serde(default)]
    pub spells: Vec<ItemSpell>,
    /// The save DC of its spells when the SRD gives one (else the wielder's).
    #[serde(default)]
    pub spell_dc: Option<i32>,
    /// The attack bonus of its spells when the SRD gives one (else the wielder's).
    #[serde(default)]
    pub spell_attack: Option<i32>,
    /// What spending its last charge does.
    #[serde(default)]
    pub last_charge: Option<LastCharge>,
    /// A potion's temporary hit points (Heroism 10).
    #[serde(default)]
    pub temp_hp: Option<u32>,
    /// A condition the potion puts on the drinker for its duration (Invisibility: invisible),
    /// or on a failed `save` (Poison: poisoned).
    #[serde(default)]
    pub condition: Option<tabletop_rules::Condition>,
    /// The condition ends early when the bearer attacks or casts a spell.
    #[serde(default)]
    pub until_offense: bool,
    /// A duration rolled in hours when drunk ("1d4": Growth), instead of `minutes`.
    #[serde(default)]
    pub hours_dice: Option<String>,
    /// Damage when drunk ("3d6").
    #[serde(default)]
    pub damage: Option<String>,
    /// Its type.
    #[serde(default)]
    pub damage_type: Option<tabletop_rules::DamageType>,
    /// A save against `condition` when drunk.
    #[serde(default)]
    pub save: Option<ItemSave>,
    /// A duration rolled in minutes when used ("2d4": Dust of Disappearance).
    #[serde(default)]
    pub minutes_dice: Option<String>,
    /// What it carries beyond modifiers, while worn or for a potion's duration: movement modes
    /// (Winged Boots fly at walking speed, Ring of Swimming 40 ft), senses (Goggles of Night
    /// darkvision 60 ft), seeing invisible creatures, walking on water, an AC formula.
    #[serde(default)]
    pub grant: Option<crate::model::effects::SpellGrant>,
    /// Added to the bearer's spell attack rolls while active (Wand of the War Mage +N).
    #[serde(default)]
    pub spell_attack_bonus: i32,
    /// Added to the bearer's spell save DC while active (Robe of the Archmagi +2).
    #[serde(default)]
    pub spell_dc_bonus: i32,
    /// Extra damage dice of the weapon's type when its attack roll is a natural 20 (Vicious
    /// Weapon 2d6, Sword of Sharpness 4d6).
    #[serde(default)]
    pub natural_20_damage: Option<String>,
    /// Its type when not the weapon's (Sword of Life Stealing: necrotic).
    #[serde(default)]
    pub natural_20_type: Option<tabletop_rules::DamageType>,
    /// Added to the wearer's AC against ranged attacks (Arrow-Catching Shield +2).
    #[serde(default)]
    pub ranged_ac_bonus: i32,
    /// Resistance to the damage of ranged weapon attacks (Shield of Missile Attraction).
    #[serde(default)]
    pub ranged_resistance: bool,
    /// Added to damage with a longbow or shortbow (Bracers of Archery +2).
    #[serde(default)]
    pub bow_damage_bonus: i32,
    /// Resistance to bludgeoning, piercing and slashing damage from nonmagical attacks
    /// (Armor of Invulnerability).
    #[serde(default)]
    pub nonmagical_resistance: bool,
    /// Critical hits against the wearer become normal hits (Adamantine Armor).
    #[serde(default)]
    pub no_critical_hits: bool,
    /// The armor built on has no Strength requirement and no Stealth disadvantage (Mithral).
    #[serde(default)]
    pub light_as_mithral: bool,
    /// A used item's effect lasts until removed (the Manuals and Tomes: +2 to a score, and its
    /// maximum, for good).
    #[serde(default)]
    pub permanent: bool,
    /// A family's variants, by SRD index.
    #[serde(default)]
    pub variants: Vec<String>,
    /// SRD creatures it calls when used (Elemental Gem, Horn of Valhalla, Bag of Tricks).
    #[serde(default)]
    pub summon: Option<ItemSummon>,
    /// Its charges never come back (a gem broken, a token spent); else they return at dawn.
    #[serde(default)]
    pub no_recharge: bool,
    /// Used, it restores one expended spell slot of at most this level (Pearl of Power: 3).
    #[serde(default)]
    pub restore_slot: Option<u8>,
    /// Worn, a dying wearer stabilizes at the start of its turn (Periapt of Wound Closure).
    #[serde(default)]
    pub stabilize_when_dying: bool,
    /// Worn, a failed DEX save becomes a success for a charge (Ring of Evasion).
    #[serde(default)]
    pub evasion_charges: bool,
    /// Worn, hit points regained as time passes (Ring of Regeneration: 1d6 every 10 minutes).
    #[serde(default)]
    pub regenerate: Option<ItemRegen>,
    /// An extradimensional container's capacity (kind `container`).
    #[serde(default)]
    pub container: Option<ItemContainer>,
    /// The damage types one of which the item's name chooses ("Armor of Resistance (fire)"):
    /// resistance to it while worn and attuned.
    #[serde(default)]
    pub resist_choice: Vec<tabletop_rules::DamageType>,
    /// A curse (Armor of Vulnerability): attuned, the bearer is vulnerable to the
    /// `resist_choice` types not chosen, worn or not, and attunement ends only by Remove Curse.
    #[serde(default)]
    pub cursed: bool,
    /// Worn, the walking speed is at least this, and neither armor nor encumbrance lowers it
    /// (Boots of Striding and Springing: 30).
    #[serde(default)]
    pub speed_floor: Option<i32>,
    /// Advantage on the wearer's saves against these ("spells": every save against a spell;
    /// "poison", "charmed", "frightened" as the race traits say).
    #[serde(default)]
    pub save_advantages: Vec<String>,
    /// Worn, its modifiers and grant work only while all of these hold (Bracers of Defense:
    /// `["no_armor", "no_shield"]`); the sheet says when they do not.
    #[serde(default)]
    pub only_while: Vec<WornCondition>,
    /// Worn armor its wearer counts as proficient with, whatever its category (Elven Chain).
    #[serde(default)]
    pub proficient_without_training: bool,
}

/// Healing over time while worn, with at least 1 hit point.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ItemRegen {
    /// Minutes between heals.
    pub every_minutes: u32,
    /// Hit points each time ("1d6", "15").
    pub heal: String,
}

/// The creatures an item calls, made as NPCs from their SRD stat blocks.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ItemSummon {
    /// SRD monster indexes: one, or a table rolled with a die of as many faces (Bag of Tricks'
    /// d8).
    pub creatures: Vec<String>,
    /// How many come ("2d4+2"; default 1).
    #[serde(default)]
    pub count: Option<String>,
    /// Hours they stay (what the DM tracks: they vanish then).
    #[serde(default)]
    pub hours: Option<u32>,
}

/// A save an item calls for.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ItemSave {
    /// The ability.
    pub ability: tabletop_rules::Ability,
    /// The DC.
    pub dc: i32,
    /// The save is rolled before the damage, and a success halves it (Horn of Blasting).
    #[serde(default)]
    pub half: bool,
    /// The save is rolled before the damage, and a success avoids it (Bead of Force).
    #[serde(default)]
    pub negates: bool,
}

impl ItemEntry {
    /// Whether the engine applies it: anything but narrative; a family when every variant
    /// it resolves to is mechanical.
    pub fn mechanical(&self) -> bool {
        match self.kind {
            ItemKind::Narrative => false,
            ItemKind::Family => {
                !self.variants.is_empty()
                    && self.variants.iter().all(|v| {
                        entry(v).is_some_and(|e| e.kind != ItemKind::Family && e.mechanical())
                    })
            }
            _ => true,
        }
    }

    /// Whether, while worn, it does anything besides modifiers.
    fn worn_extras(&self) -> bool {
        self.grant.is_some()
            || self.spell_attack_bonus != 0
            || self.spell_dc_bonus != 0
            || self.natural_20_damage.is_some()
            || self.no_critical_hits
            || self.nonmagical_resistance
            || self.bow_damage_bonus != 0
            || self.ranged_ac_bonus != 0
            || self.ranged_resistance
            || self.light_as_mithral
            || !self.save_advantages.is_empty()
            || self.stabilize_when_dying
            || self.evasion_charges
            || self.regenerate.is_some()
            || !self.resist_choice.is_empty()
            || self.speed_floor.is_some()
            || self.proficient_without_training
    }
}

/// The catalog file, as committed.
pub const ITEMS_TOML: &str = include_str!("../../catalog/items.toml");

/// The parsed catalog, or why it does not parse.
pub fn try_catalog() -> Result<&'static BTreeMap<String, ItemEntry>, String> {
    static CAT: OnceLock<Result<BTreeMap<String, ItemEntry>, String>> = OnceLock::new();
    CAT.get_or_init(|| toml::from_str(ITEMS_TOML).map_err(|e| e.to_string()))
        .as_ref()
        .map_err(Clone::clone)
}

/// The parsed catalog (empty if the committed file did not parse: the tests refuse that).
pub fn catalog() -> &'static BTreeMap<String, ItemEntry> {
    static EMPTY: OnceLock<BTreeMap<String, ItemEntry>> = OnceLock::new();
    try_catalog().unwrap_or_else(|_| EMPTY.get_or_init(BTreeMap::new))
}

/// The entry of the item with this SRD index.
pub fn entry(index: &str) -> Option<&'static ItemEntry> {
    catalog().get(index)
}

/// Problems with one entry: narrative without a reason, worn without modifiers, dice that do
/// not parse, charges without a count.
pub fn check_entry(index: &str, e: &ItemEntry) -> Vec<String> {
    let mut bad = Vec::new();
    let ok = match e.kind {
        ItemKind::Narrative => e.reason.as_deref().is_some_and(|r| !r.trim().is_empty()),
        ItemKind::Worn if e.evasion_charges => e.charges.is_some(),
        ItemKind::Worn => !e.modifiers.is_empty() || e.worn_extras(),
        ItemKind::Family => !e.variants.is_empty() && e.reason.is_some(),
        ItemKind::Bonus => e.bonus.is_some_and(|b| (1..=3).contains(&b)),
        ItemKind::Consumable => e.heal.is_some(),
        ItemKind::Charged if e.summon.is_some() => {
            e.summon.as_ref().is_some_and(|s| !s.creatures.is_empty())
        }
        ItemKind::Charged => {
            e.charges.is_some() || e.heal.is_some() || e.damage.is_some() || e.condition.is_some()
        }
        ItemKind::Spells => !e.spells.is_empty(),
        ItemKind::Container => e.container.is_some(),
        ItemKind::Scroll => true,
        ItemKind::Potion => {
            (!e.modifiers.is_empty()
                || e.condition.is_some()
                || e.temp_hp.is_some()
                || e.damage.is_some()
                || e.grant.is_some())
                && (e.minutes.is_some_and(|m| m > 0)
                    || e.hours_dice.is_some()
                    || e.minutes_dice.is_some()
                    || e.permanent)
        }
    };
    if !ok {
        bad.push(format!("{index}: {:?} lacks what it needs", e.kind));
    }
    if !e.spells.is_empty()
        && !matches!(
            e.kind,
            ItemKind::Charged | ItemKind::Spells | ItemKind::Worn
        )
    {
        bad.push(format!("{index}: spells on a {:?} item", e.kind));
    }
    if !e.only_while.is_empty() && e.kind != ItemKind::Worn {
        bad.push(format!("{index}: only_while is for worn items"));
    }
    if e.proficient_without_training && e.kind != ItemKind::Worn {
        bad.push(format!(
            "{index}: proficient_without_training is for worn items"
        ));
    }
    for s in &e.spells {
        if s.charges > 0 && e.charges.is_none() {
            bad.push(format!("{index}: {} costs charges the item lacks", s.spell));
        }
    }
    for v in &e.variants {
        if entry(v).is_none_or(|x| x.kind == ItemKind::Family) {
            bad.push(format!("{index}: variant {v} is not a plain entry"));
        }
    }
    let count = e.summon.as_ref().and_then(|s| s.count.clone());
    let regen = e.regenerate.as_ref().map(|r| r.heal.clone());
    for d in [
        &e.heal,
        &e.recharge,
        &e.hours_dice,
        &e.damage,
        &e.minutes_dice,
        &e.natural_20_damage,
        &count,
        &regen,
    ]
    .into_iter()
    .flatten()
    {
        if tabletop_rules::dice::parse(d).is_err() {
            bad.push(format!("{index}: '{d}' is not dice"));
        }
    }
    bad
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_committed_item_catalog_parses_and_every_entry_is_coherent() {
        let cat = try_catalog().expect("catalog/items.toml parses");
        assert_eq!(cat.len(), 362);
        let bad: Vec<String> = cat.iter().flat_map(|(k, e)| check_entry(k, e)).collect();
        assert!(bad.is_empty(), "{bad:#?}");
        let ring = entry("ring-of-resistance-fire").unwrap();
        assert_eq!(
            ring.modifiers,
            vec![ModifierKind::Resistance {
                damage_type: Some(tabletop_rules::DamageType::Fire)
            }]
        );
    }
}
