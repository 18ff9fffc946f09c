//! `manage_inventory`: give, remove, equip, unequip, view, transfer and use, each one
//! transaction; and the weapon-attack numbers `roll_check` uses.

use std::collections::BTreeMap;

use serde::Serialize;
use tabletop_rules::damage::HealResult;
use tabletop_rules::dice::{self, DiceRoll};
use tabletop_rules::modifiers::{DiceCount, ModifierKind, RollTarget};
use tabletop_rules::stats::{Contribution, EffectiveStats, Stat};
use tabletop_rules::{Ability, Condition, DamageType, DieRoller, Skill};

use super::catalog;
use super::{
    Charges, Currency, Item, ItemType, MAX_ATTUNED, Rarity, Recharge, Slot, WeaponProperty,
    WeaponStats, carrying_capacity,
};
use crate::character::{Character, CharacterRef, name_key, resolve, resolve_with_fields};
use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::update;

/// Mechanical effects of an item definition, as the inventory design names them; they become
/// typed rules modifiers.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MechanicalEffects {
    /// AC bonus (Ring of Protection +1).
    pub ac_bonus: Option<i32>,
    /// Bonus to saving throws (all, or `save_bonus_ability`'s).
    pub save_bonus: Option<i32>,
    /// The one ability `save_bonus` applies to.
    pub save_bonus_ability: Option<Ability>,
    /// Attack-roll bonus (a weapon's own attacks, or every attack for other items).
    pub attack_bonus: Option<i32>,
    /// Damage bonus (likewise).
    pub damage_bonus: Option<i32>,
    /// Extra damage dice ("2d6").
    pub bonus_damage: Option<String>,
    /// Their damage type.
    pub bonus_damage_type: Option<DamageType>,
    /// Ability score bonuses.
    pub ability_bonus: BTreeMap<Ability, i32>,
    /// Ability scores set to a value unless already higher (Belt of Giant Strength).
    pub ability_set: BTreeMap<Ability, i64>,
    /// Speed bonus in feet.
    pub speed_bonus: Option<i32>,
    /// Speed multiplier.
    pub speed_multiplier: Option<u32>,
    /// Advantage on these skills' checks.
    pub advantage_on: Vec<Skill>,
    /// Damage resistances.
    pub resistances: Vec<DamageType>,
    /// Damage immunities.
    pub immunities: Vec<DamageType>,
    /// Condition immunities.
    pub condition_immunities: Vec<Condition>,
}

/// Parses "2d6" (or "d6") into dice.
pub fn dice_count(s: &str, field: &str) -> Result<DiceCount> {
    let bad = || {
        EngineError::invalid(
            field,
            format!("'{s}' is not dice like \"2d6\"; give a count and faces"),
        )
    };
    let t = s.trim().to_lowercase();
    let (n, f) = t.split_once('d').ok_or_else(bad)?;
    let count = if n.is_empty() {
        1
    } else {
        n.parse::<u32>().map_err(|_| bad())?
    };
    let faces = f.parse::<u32>().map_err(|_| bad())?;
    if !(1..=100).contains(&count) || !(1..=100).contains(&faces) {
        return Err(bad());
    }
    Ok(DiceCount::new(count, faces))
}

impl MechanicalEffects {
    /// The effects as typed modifiers.
    pub fn to_modifiers(&self) -> Result<Vec<ModifierKind>> {
        let mut v = Vec::new();
        if let Some(amount) = self.ac_bonus {
            v.push(ModifierKind::AcBonus { amount });
        }
        if let Some(amount) = self.save_bonus {
            let on = match self.save_bonus_ability {
                Some(ability) => RollTarget::Save { ability },
                None => RollTarget::AllSaves,
            };
            v.push(ModifierKind::RollBonus { on, amount });
        }
        if let Some(amount) = self.attack_bonus {
            v.push(ModifierKind::RollBonus {
                on: RollTarget::AttackRolls,
                amount,
            });
        }
        if let Some(amount) = self.damage_bonus {
            v.push(ModifierKind::DamageBonus { amount });
        }
        match (&self.bonus_damage, self.bonus_damage_type) {
            (Some(d), Some(damage_type)) => v.push(ModifierKind::ExtraDamage {
                dice: dice_count(d, "mechanicalEffects.bonusDamage")?,
                damage_type,
            }),
            (Some(_), None) => {
                return Err(EngineError::invalid(
                    "mechanicalEffects.bonusDamageType",
                    "bonusDamage needs bonusDamageType, e.g. fire",
                ));
            }
            _ => {}
        }
        for (&ability, &amount) in &self.ability_bonus {
            v.push(ModifierKind::AbilityBonus { ability, amount });
        }
        for (&ability, &score) in &self.ability_set {
            let score = u8::try_from(score)
                .ok()
                .filter(|s| (1..=30).contains(s))
                .ok_or_else(|| {
                    EngineError::invalid(
                        "mechanicalEffects.abilitySet",
                        format!("{score} is not a score; give 1–30"),
                    )
                })?;
            v.push(ModifierKind::AbilitySetTo { ability, score });
        }
        if let Some(feet) = self.speed_bonus {
            v.push(ModifierKind::SpeedBonus { feet });
        }
        if let Some(factor) = self.speed_multiplier {
            v.push(ModifierKind::SpeedMultiplier { factor });
        }
        for &skill in &self.advantage_on {
            v.push(ModifierKind::Advantage {
                on: RollTarget::SkillChecks { skill },
            });
        }
        for &t in &self.resistances {
            v.push(ModifierKind::Resistance {
                damage_type: Some(t),
            });
        }
        for &t in &self.immunities {
            v.push(ModifierKind::Immunity {
                damage_type: Some(t),
            });
        }
        for &condition in &self.condition_immunities {
            v.push(ModifierKind::ConditionImmunity { condition });
        }
        Ok(v)
    }
}

/// A custom item definition.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ItemDef {
    /// Name.
    pub name: String,
    /// Description.
    pub description: Option<String>,
    /// Type (default: from the stats, else adventuring_gear).
    pub item_type: Option<ItemType>,
    /// Rarity (default common).
    pub rarity: Option<Rarity>,
    /// Its magic needs attunement.
    pub requires_attunement: bool,
    /// Who may attune.
    pub attunement_restriction: Option<String>,
    /// Weapon stats.
    pub weapon: Option<WeaponStats>,
    /// Armor stats.
    pub armor: Option<super::ArmorStats>,
    /// Mechanical effects.
    pub effects: MechanicalEffects,
    /// Value in gp.
    pub value: Option<f64>,
    /// Weight in lb.
    pub weight: Option<f64>,
    /// How many.
    pub quantity: Option<u32>,
    /// Identical items stack.
    pub stackable: Option<bool>,
    /// Charges.
    pub charges: Option<Charges>,
    /// Healing dice when used.
    pub heal: Option<String>,
    /// Effect in words ("Heal 2d4+2 HP" also sets the healing).
    pub effect: Option<String>,
}

fn check_dice(expr: &str, field: &str) -> Result<()> {
    dice::parse(expr)
        .map(|_| ())
        .map_err(|e| EngineError::invalid(field, format!("'{expr}' is not a dice expression: {e}")))
}

/// "Heal 2d4+2 HP" → "2d4+2".
fn heal_in_words(effect: &str) -> Option<String> {
    let lower = effect.to_lowercase();
    let at = lower.find("heal")?;
    let rest = &lower[at..];
    let start = rest.find(|c: char| c.is_ascii_digit())?;
    let expr: String = rest[start..]
        .chars()
        .take_while(|c| c.is_ascii_digit() || matches!(c, 'd' | '+' | '-' | ' '))
        .collect();
    let expr = expr.split_whitespace().collect::<String>();
    dice::parse(&expr).ok().map(|_| expr)
}

impl ItemDef {
    fn build(self) -> Result<Item> {
        let name = self.name.trim().to_string();
        if name.is_empty() || name.chars().count() > 80 {
            return Err(EngineError::invalid(
                "item.name",
                "give the item a name of 1–80 characters",
            ));
        }
        if let Some(w) = &self.weapon {
            check_dice(&w.damage_dice, "item.weaponStats.damageDice")?;
            if let Some(v) = &w.versatile_damage {
                check_dice(v, "item.weaponStats.versatileDamage")?;
            }
        }
        if let Some(a) = &self.armor
            && !(0..=30).contains(&a.base_ac)
        {
            return Err(EngineError::invalid(
                "item.armorStats.baseAc",
                format!("{} is out of range; 0–30", a.base_ac),
            ));
        }
        let heal = self
            .heal
            .clone()
            .or_else(|| self.effect.as_deref().and_then(heal_in_words));
        if let Some(h) = &heal {
            check_dice(h, "item.heal")?;
        }
        if let Some(c) = &self.charges {
            if c.max == 0 || c.current > c.max || c.max > 1_000 {
                return Err(EngineError::invalid(
                    "item.mechanicalEffects.charges",
                    format!(
                        "charges {}/{} do not fit; give maxCharges 1–1000 and charges ≤ maxCharges",
                        c.current, c.max
                    ),
                ));
            }
            if let Some(d) = &c.recharge_dice {
                check_dice(d, "item.rechargeDice")?;
            }
        }
        let quantity = self.quantity.unwrap_or(1);
        if !(1..=100_000).contains(&quantity) {
            return Err(EngineError::invalid(
                "quantity",
                format!("{quantity} is out of range; 1–100000"),
            ));
        }
        let weight = self.weight.unwrap_or(0.0);
        if !(0.0..=10_000.0).contains(&weight) {
            return Err(EngineError::invalid("item.weight", "weight is 0–10000 lb"));
        }
        let item_type = self.item_type.unwrap_or(if self.weapon.is_some() {
            ItemType::Weapon
        } else if self.armor.is_some() {
            ItemType::Armor
        } else if heal.is_some() {
            ItemType::Consumable
        } else {
            ItemType::AdventuringGear
        });
        let stackable = self.stackable.unwrap_or(matches!(
            item_type,
            ItemType::Consumable | ItemType::Ammunition | ItemType::Treasure
        ));
        Ok(Item {
            id: String::new(),
            name,
            description: self.description,
            item_type,
            rarity: self.rarity.unwrap_or(Rarity::Common),
            requires_attunement: self.requires_attunement,
            attunement_restriction: self.attunement_restriction,
            attuned: false,
            slot: None,
            weapon: self.weapon,
            armor: self.armor,
            effects: self.effects.to_modifiers()?,
            value: self.value,
            weight,
            quantity,
            stackable,
            charges: self.charges,
            heal,
            effect: self.effect,
        })
    }
}

/// What to give.
#[derive(Debug, Clone, Default)]
pub struct GiveRequest {
    /// A custom item.
    pub item: Option<ItemDef>,
    /// An SRD item by name (fuzzy).
    pub srd_name: Option<String>,
    /// How many (overrides the definition's).
    pub quantity: Option<u32>,
    /// Coins.
    pub currency: Option<Currency>,
}

/// How a call names a carried item.
#[derive(Debug, Clone, Copy, Default)]
pub struct ItemRef<'a> {
    /// Its id.
    pub id: Option<&'a str>,
    /// Its name (case-insensitive; a unique prefix works).
    pub name: Option<&'a str>,
}

/// What an inventory operation did.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InventoryOutcome {
    /// The operation.
    pub operation: &'static str,
    /// Whose inventory.
    pub character: String,
    /// One line: the outcome.
    pub summary: String,
    /// Each change.
    pub changes: Vec<String>,
    /// Things to know (over capacity, …).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
    /// The item concerned, after the operation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub item: Option<Item>,
    /// The healing roll of a used item.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub roll: Option<DiceRoll>,
    /// The healing applied through the pipeline.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub healing: Option<HealResult>,
    /// Coins after.
    pub currency: Currency,
    /// Carried weight after, lb.
    pub weight: f64,
    /// Carrying capacity (STR × 15), lb.
    pub capacity: f64,
}

/// A weapon attack's numbers.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WeaponAttack {
    /// The weapon.
    pub weapon: String,
    /// Its item id.
    pub item_id: String,
    /// The ability used.
    pub ability: Ability,
    /// Whether proficiency applies.
    pub proficient: bool,
    /// Bonuses of the weapon itself (magic), added to the attack roll.
    pub weapon_bonuses: Vec<Contribution>,
    /// The whole to-hit bonus (ability, proficiency, weapon and sheet-wide bonuses).
    pub to_hit: i32,
    /// The damage expression with types, e.g. `1d8[slashing] + 4[slashing]`.
    pub damage: String,
    /// Wielded in two hands (versatile dice).
    pub two_handed: bool,
}

/// What a character carries, with the numbers equipment gives.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InventoryView {
    /// Whose.
    pub character: String,
    /// Equipped items.
    pub equipped: Vec<Item>,
    /// Carried items.
    pub carried: Vec<Item>,
    /// Coins.
    pub currency: Currency,
    /// Their value in gp.
    pub currency_gp: f64,
    /// Carried weight, lb.
    pub weight: f64,
    /// Carrying capacity (STR × 15), lb.
    pub capacity: f64,
    /// Attuned items (at most 3).
    pub attuned: Vec<String>,
    /// Effective AC and its sources.
    pub armor_class: Stat,
    /// Effective speed and its sources.
    pub speed: Stat,
    /// Every modifier the equipment gives, "Ring of Protection: +1 AC".
    pub bonuses: Vec<String>,
    /// Attacks with the equipped weapons.
    pub attacks: Vec<WeaponAttack>,
}

const COIN_NAMES: [(&str, usize); 5] = [("cp", 0), ("sp", 1), ("ep", 2), ("gp", 3), ("pp", 4)];

/// Coins named as an item ("Gold", "gp", "Silver Pieces") → the denomination index.
fn coin_kind(name: &str) -> Option<usize> {
    let k = name_key(name);
    let k = k
        .trim_end_matches(" pieces")
        .trim_end_matches(" piece")
        .trim_end_matches(" coins")
        .trim_end_matches(" coin");
    match k {
        "copper" | "cp" => Some(0),
        "silver" | "sp" => Some(1),
        "electrum" | "ep" => Some(2),
        "gold" | "gp" => Some(3),
        "platinum" | "pp" => Some(4),
        _ => COIN_NAMES.iter().find(|(n, _)| *n == k).map(|(_, i)| *i),
    }
}

fn coins(i: usize, n: u64) -> Currency {
    let mut c = Currency::default();
    match i {
        0 => c.cp = n,
        1 => c.sp = n,
        2 => c.ep = n,
        3 => c.gp = n,
        _ => c.pp = n,
    }
    c
}

/// Moves names from the legacy `equipment` list into the inventory as items (SRD stats when the
/// compendium knows the exact name), with ids derived from the character's so that reading and
/// writing agree.
pub fn adopt_legacy(call: &Call<'_>, c: &mut Character) {
    if c.equipment.is_empty() {
        return;
    }
    let names = std::mem::take(&mut c.equipment);
    for (i, name) in names.iter().enumerate() {
        let name = name.trim();
        if name.is_empty()
            || c.inventory
                .items
                .iter()
                .any(|it| name_key(&it.name) == name_key(name))
        {
            continue;
        }
        let mut item = call
            .compendium()
            .and_then(|comp| catalog::lookup(comp, name).ok())
            .filter(|s| s.note.is_none())
            .map(|s| s.item)
            .unwrap_or_else(|| catalog::plain(name));
        let mut id = format!("{}-eq{}", c.id, i + 1);
        while c.inventory.items.iter().any(|it| it.id == id) {
            id.push('x');
        }
        item.id = id;
        c.inventory.items.push(item);
    }
}

pub(crate) fn load(call: &Call<'_>, who: CharacterRef<'_>) -> Result<Character> {
    let mut c = resolve(call, who)?;
    adopt_legacy(call, &mut c);
    Ok(c)
}

pub(crate) fn save(call: &mut Call<'_>, c: &Character, changes: &[String]) -> Result<()> {
    let campaign = call.campaign();
    call.tx().put_character(campaign, c)?;
    call.record_change("character", &c.id, changes.join("; "));
    Ok(())
}

fn capacity(c: &Character) -> f64 {
    carrying_capacity(c.effective().score(Ability::Strength))
}

/// Finds a carried item by id, exact name, or unique name part; of identical copies, the one in
/// the pack.
pub fn find_item(c: &Character, r: ItemRef<'_>) -> Result<usize> {
    find(c, r, false)
}

fn find(c: &Character, r: ItemRef<'_>, prefer_equipped: bool) -> Result<usize> {
    let items = &c.inventory.items;
    if let Some(id) = r.id.map(str::trim).filter(|s| !s.is_empty()) {
        if let Some(i) = items.iter().position(|it| it.id == id) {
            return Ok(i);
        }
        return Err(not_carried(c, id, "itemId"));
    }
    let Some(name) = r.name.map(str::trim).filter(|s| !s.is_empty()) else {
        return Err(EngineError::invalid(
            "itemName",
            "name the item with itemName or itemId",
        ));
    };
    let key = name_key(name);
    let exact: Vec<usize> = (0..items.len())
        .filter(|&i| name_key(&items[i].name) == key)
        .collect();
    let pick = |found: Vec<usize>| -> Result<Option<usize>> {
        match found.as_slice() {
            [] => Ok(None),
            [one] => Ok(Some(*one)),
            many => {
                // Identical copies: the equipped one or the one in the pack, as asked.
                if many.iter().all(|&i| items[i].same_kind(&items[many[0]])) {
                    return Ok(Some(
                        many.iter()
                            .copied()
                            .find(|&i| items[i].slot.is_some() == prefer_equipped)
                            .unwrap_or(many[0]),
                    ));
                }
                Err(EngineError::Ambiguous {
                    kind: "item",
                    given: name.to_string(),
                    candidates: many.iter().map(|&i| items[i].label()).collect(),
                    id_field: "itemId",
                })
            }
        }
    };
    if let Some(i) = pick(exact)? {
        return Ok(i);
    }
    let partial: Vec<usize> = (0..items.len())
        .filter(|&i| name_key(&items[i].name).contains(&key))
        .collect();
    if let Some(i) = pick(partial)? {
        return Ok(i);
    }
    Err(not_carried(c, name, "itemName"))
}

fn not_carried(c: &Character, given: &str, field: &str) -> EngineError {
    let key = name_key(given);
    let mut scored: Vec<(usize, String)> = c
        .inventory
        .items
        .iter()
        .map(|it| {
            (
                tabletop_rules::vocab::edit_distance(&key, &name_key(&it.name)),
                it.label(),
            )
        })
        .collect();
    scored.sort();
    let carried: Vec<String> = scored.into_iter().take(5).map(|(_, s)| s).collect();
    EngineError::invalid(
        field,
        if carried.is_empty() {
            format!(
                "{} carries nothing called '{given}' (the inventory is empty; give items first)",
                c.name
            )
        } else {
            format!(
                "{} carries nothing called '{given}'; closest carried: {}",
                c.name,
                carried.join(", ")
            )
        },
    )
}

pub(crate) fn outcome(
    op: &'static str,
    c: &Character,
    summary: String,
    changes: Vec<String>,
) -> InventoryOutcome {
    let mut warnings = Vec::new();
    let (w, cap) = (c.inventory.weight(), capacity(c));
    if w > cap {
        warnings.push(format!(
            "{} carries {w:.1} lb, over the carrying capacity of {cap:.0} lb (STR × 15): speed 5 ft until lightened",
            c.name
        ));
    }
    InventoryOutcome {
        operation: op,
        character: c.name.clone(),
        summary,
        changes,
        warnings,
        item: None,
        roll: None,
        healing: None,
        currency: c.inventory.currency,
        weight: (w * 100.0).round() / 100.0,
        capacity: cap,
    }
}

fn check_lift(c: &Character) -> Result<()> {
    let (w, cap) = (c.inventory.weight(), capacity(c));
    if w > 2.0 * cap {
        return Err(EngineError::Rule(format!(
            "{} would carry {w:.1} lb, more than twice the carrying capacity of {cap:.0} lb (the most a creature can push, drag or lift); leave something behind or give it to someone else",
            c.name
        )));
    }
    Ok(())
}

/// Adds `item` to `c`, merging it into an identical carried stack when it stacks. Returns the
/// index of the stack it ended in.
fn put_item(call: &mut Call<'_>, c: &mut Character, mut item: Item) -> Result<usize> {
    if item.stackable
        && let Some(i) = c
            .inventory
            .items
            .iter()
            .position(|it| it.slot.is_none() && it.stackable && it.same_kind(&item))
    {
        let stack = &mut c.inventory.items[i];
        stack.quantity = stack.quantity.saturating_add(item.quantity);
        return Ok(i);
    }
    if item.id.is_empty() {
        item.id = call.new_id("it")?;
    }
    c.inventory.items.push(item);
    Ok(c.inventory.items.len() - 1)
}

/// Gives an item (custom or SRD) and/or coins.
pub fn give(
    call: &mut Call<'_>,
    who: CharacterRef<'_>,
    req: GiveRequest,
) -> Result<InventoryOutcome> {
    let mut c = load(call, who)?;
    let mut changes = Vec::new();
    let mut note = None;
    if let Some(cur) = &req.currency {
        c.inventory.currency.add(cur);
        changes.push(format!("received {cur}"));
    }
    let item = match (req.item, req.srd_name) {
        (Some(_), Some(_)) => {
            return Err(EngineError::invalid(
                "item",
                "give either item (a definition) or itemName (an SRD item), not both",
            ));
        }
        (Some(def), None) => Some(def.build()?),
        (None, Some(name)) => {
            let comp = call.require_compendium(
                "giving an SRD item by name",
                "a custom item definition in item",
            )?;
            let found = catalog::lookup(comp, &name)?;
            note = found.note;
            Some(found.item)
        }
        (None, None) => None,
    };
    let mut given = None;
    if let Some(mut item) = item {
        if let Some(q) = req.quantity {
            if !(1..=100_000).contains(&q) {
                return Err(EngineError::invalid(
                    "quantity",
                    format!("{q} is out of range; 1–100000"),
                ));
            }
            item.quantity = q;
        }
        if let Some(kind) = coin_kind(&item.name)
            && matches!(
                item.item_type,
                ItemType::Treasure | ItemType::AdventuringGear
            )
        {
            let cur = coins(kind, u64::from(item.quantity));
            c.inventory.currency.add(&cur);
            changes.push(format!("received {cur} (coins go to the purse)"));
        } else {
            let label = if item.quantity == 1 {
                item.name.clone()
            } else {
                format!("{} ×{}", item.name, item.quantity)
            };
            let i = put_item(call, &mut c, item)?;
            changes.push(format!("received {label}"));
            given = Some(c.inventory.items[i].clone());
        }
    }
    if changes.is_empty() {
        return Err(EngineError::invalid(
            "item",
            "nothing to give: pass item (a definition), itemName (an SRD item) or currency",
        ));
    }
    if let Some(n) = note {
        changes.push(n);
    }
    check_lift(&c)?;
    save(call, &c, &changes)?;
    let summary = format!("{} {}.", c.name, changes.join("; "));
    let mut out = outcome("give", &c, summary, changes);
    out.item = given;
    Ok(out)
}

/// Removes items (default 1) and/or pays coins (making change).
pub fn remove(
    call: &mut Call<'_>,
    who: CharacterRef<'_>,
    item: Option<ItemRef<'_>>,
    quantity: Option<u32>,
    currency: Option<Currency>,
) -> Result<InventoryOutcome> {
    let mut c = load(call, who)?;
    let mut changes = Vec::new();
    if let Some(cost) = currency {
        pay(&mut c, &cost, &mut changes)?;
    }
    let mut removed = None;
    if let Some(r) = item {
        let (it, ch) = take(&mut c, r, quantity)?;
        changes.extend(ch);
        changes.push(format!("removed {}", stack_label(&it)));
        removed = Some(it);
    }
    if changes.is_empty() {
        return Err(EngineError::invalid(
            "itemName",
            "nothing to remove: name the item (itemName or itemId) or give currency",
        ));
    }
    save(call, &c, &changes)?;
    let summary = format!("{}: {}.", c.name, changes.join("; "));
    let mut out = outcome("remove", &c, summary, changes);
    out.item = removed;
    Ok(out)
}

fn stack_label(it: &Item) -> String {
    if it.quantity == 1 {
        it.name.clone()
    } else {
        format!("{} ×{}", it.name, it.quantity)
    }
}

fn pay(c: &mut Character, cost: &Currency, changes: &mut Vec<String>) -> Result<()> {
    if cost.is_empty() {
        return Err(EngineError::invalid(
            "currency",
            "give at least one coin, e.g. {\"gp\": 5}",
        ));
    }
    let before = c.inventory.currency;
    match c.inventory.currency.pay(cost) {
        Some(change) => {
            changes.push(if change.is_empty() {
                format!("paid {cost}")
            } else {
                format!("paid {cost} (change: {change})")
            });
            Ok(())
        }
        None => Err(EngineError::Rule(format!(
            "{} has {before} (worth {:.2} gp), not enough to pay {cost} ({:.2} gp)",
            c.name,
            before.total_gp(),
            cost.total_gp()
        ))),
    }
}

/// Takes `quantity` (default 1) of an item out of `c`'s inventory: unequipped and unattuned.
fn take(c: &mut Character, r: ItemRef<'_>, quantity: Option<u32>) -> Result<(Item, Vec<String>)> {
    let i = find_item(c, r)?;
    let have = c.inventory.items[i].quantity;
    let q = quantity.unwrap_or(1);
    if q == 0 || q > have {
        return Err(EngineError::invalid(
            "quantity",
            format!(
                "{} has {have} of {}; give a quantity of 1–{have}",
                c.name, c.inventory.items[i].name
            ),
        ));
    }
    let mut changes = Vec::new();
    let mut taken = if q == have {
        c.inventory.items.remove(i)
    } else {
        let stack = &mut c.inventory.items[i];
        stack.quantity -= q;
        let mut t = stack.clone();
        t.id = String::new();
        t.quantity = q;
        t
    };
    if let Some(s) = taken.slot.take() {
        changes.push(format!("{} unequipped from {s}", taken.name));
    }
    if taken.attuned {
        taken.attuned = false;
        changes.push(format!("attunement to {} ends", taken.name));
    }
    Ok((taken, changes))
}

/// The slots an item can go in; empty = none known.
pub fn natural_slots(item: &Item) -> Vec<Slot> {
    if item.is_shield() {
        return vec![Slot::Offhand];
    }
    if item.is_body_armor() {
        return vec![Slot::Armor];
    }
    if item.item_type == ItemType::Ammunition {
        return vec![Slot::Quiver];
    }
    if item.weapon.is_some() {
        return if item.is_two_handed() {
            vec![Slot::Mainhand]
        } else {
            vec![Slot::Mainhand, Slot::Offhand]
        };
    }
    let lower = item.name.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let has = |list: &[&str]| words.iter().any(|w| list.contains(w));
    if has(&["ring"]) {
        vec![Slot::Ring1, Slot::Ring2]
    } else if has(&["belt", "girdle"]) {
        vec![Slot::Belt]
    } else if has(&["boots", "slippers", "shoes", "sandals"]) {
        vec![Slot::Feet]
    } else if has(&["gloves", "gauntlets", "bracers"]) {
        vec![Slot::Hands]
    } else if has(&["cloak", "cape", "mantle", "robe"]) {
        vec![Slot::Cloak]
    } else if has(&[
        "amulet",
        "necklace",
        "periapt",
        "medallion",
        "pendant",
        "scarab",
        "brooch",
        "talisman",
    ]) {
        vec![Slot::Neck]
    } else if has(&[
        "helm", "helmet", "headband", "circlet", "hat", "crown", "diadem", "cap", "goggles",
    ]) {
        vec![Slot::Head]
    } else if has(&["quiver"]) {
        vec![Slot::Quiver]
    } else if has(&["wand", "rod", "staff", "orb", "torch", "lantern"]) {
        vec![Slot::Mainhand, Slot::Offhand]
    } else {
        Vec::new()
    }
}

fn choose_slot(c: &Character, item: &Item, requested: Option<Slot>) -> Result<Slot> {
    let inv = &c.inventory;
    let allowed = natural_slots(item);
    if let Some(s) = requested {
        if !allowed.is_empty() && !allowed.contains(&s) {
            let list: Vec<&str> = allowed.iter().map(|s| s.key()).collect();
            return Err(EngineError::invalid(
                "slot",
                format!("{} goes in {}, not {s}", item.name, list.join(" or ")),
            ));
        }
        if allowed.is_empty() && s == Slot::Armor {
            return Err(EngineError::invalid(
                "slot",
                format!(
                    "only body armor goes in the armor slot; {} is not armor",
                    item.name
                ),
            ));
        }
        return Ok(s);
    }
    match allowed.as_slice() {
        [] => {
            let all: Vec<&str> = Slot::ALL.iter().map(|s| s.key()).collect();
            Err(EngineError::invalid(
                "slot",
                format!(
                    "{} has no natural equipment slot; give slot: {}",
                    item.name,
                    all.join(", ")
                ),
            ))
        }
        [Slot::Ring1, Slot::Ring2] => match (inv.in_slot(Slot::Ring1), inv.in_slot(Slot::Ring2)) {
            (None, _) => Ok(Slot::Ring1),
            (_, None) => Ok(Slot::Ring2),
            (Some(a), Some(b)) => Err(EngineError::Rule(format!(
                "both ring slots are taken ({} on ring1, {} on ring2): unequip one, or give slot ring1 or ring2 to swap",
                a.name, b.name
            ))),
        },
        [Slot::Mainhand, Slot::Offhand] => {
            let main = inv.in_slot(Slot::Mainhand);
            let light = |it: &Item| {
                it.weapon
                    .as_ref()
                    .is_some_and(|w| w.has(WeaponProperty::Light))
            };
            match main {
                None => Ok(Slot::Mainhand),
                Some(m) if light(m) && light(item) && inv.in_slot(Slot::Offhand).is_none() => {
                    Ok(Slot::Offhand)
                }
                Some(_) => Ok(Slot::Mainhand),
            }
        }
        [one, ..] => Ok(*one),
    }
}

pub(crate) fn effective_line(before: &EffectiveStats, after: &EffectiveStats) -> Vec<String> {
    let mut v = Vec::new();
    if before.armor_class.value != after.armor_class.value {
        v.push(format!(
            "AC {} → {}",
            before.armor_class.value, after.armor_class.value
        ));
    }
    if before.speed.value != after.speed.value {
        v.push(format!(
            "speed {} → {} ft",
            before.speed.value, after.speed.value
        ));
    }
    for &a in Ability::ALL {
        if before.score(a) != after.score(a) {
            v.push(format!(
                "{} {} → {}",
                a.abbr(),
                before.score(a),
                after.score(a)
            ));
        }
    }
    v
}

pub(crate) fn attunement_allowed(c: &Character, item: &Item) -> Result<Option<String>> {
    let attuned: Vec<String> = c
        .inventory
        .items
        .iter()
        .filter(|i| i.attuned && i.id != item.id)
        .map(|i| i.name.clone())
        .collect();
    if attuned.len() >= MAX_ATTUNED {
        return Err(EngineError::Rule(format!(
            "{} cannot attune to {}: already attuned to {} items ({}), the most a creature can be; unattune one of them first (manage_inventory unattune)",
            c.name,
            item.name,
            attuned.len(),
            attuned.join(", ")
        )));
    }
    let Some(rule) = &item.attunement_restriction else {
        return Ok(None);
    };
    let text = rule.to_lowercase();
    const WHO: &[&str] = &[
        "barbarian",
        "bard",
        "cleric",
        "druid",
        "fighter",
        "monk",
        "paladin",
        "ranger",
        "rogue",
        "sorcerer",
        "warlock",
        "wizard",
        "dwarf",
        "elf",
        "halfling",
        "human",
        "dragonborn",
        "gnome",
        "tiefling",
        "orc",
        "spellcaster",
    ];
    let named: Vec<&str> = WHO.iter().copied().filter(|w| text.contains(w)).collect();
    if named.is_empty() {
        return Ok(Some(format!(
            "{} requires attunement {rule}; the engine cannot check that, so it is on the DM",
            item.name
        )));
    }
    let class = c.class.as_deref().unwrap_or("").to_lowercase();
    let race = format!(
        "{} {}",
        c.race.as_deref().unwrap_or(""),
        c.subrace.as_deref().unwrap_or("")
    )
    .to_lowercase();
    let ok = named.iter().any(|w| {
        (*w == "spellcaster" && c.spellcasting_ability.is_some())
            || (!class.is_empty() && class.contains(w))
            || race.contains(w)
    });
    if ok {
        Ok(None)
    } else {
        Err(EngineError::Rule(format!(
            "{} requires attunement {rule}; {} is {} {}",
            item.name,
            c.name,
            c.race.as_deref().unwrap_or("a creature"),
            c.class.as_deref().unwrap_or("without a class")
        )))
    }
}

/// Equips an item; the slot is detected unless given. Attunement-bound items attune (at most 3).
pub fn equip(
    call: &mut Call<'_>,
    who: CharacterRef<'_>,
    r: ItemRef<'_>,
    slot: Option<Slot>,
) -> Result<InventoryOutcome> {
    let mut c = load(call, who)?;
    let before = c.effective();
    let i = find_item(&c, r)?;
    let item = c.inventory.items[i].clone();
    if let Some(s) = item.slot {
        return Err(EngineError::invalid(
            "itemName",
            format!(
                "{} is already equipped ({s}); unequip it first to move it",
                item.name
            ),
        ));
    }
    let slot = choose_slot(&c, &item, slot)?;
    let inv = &c.inventory;
    if slot == Slot::Mainhand
        && item.is_two_handed()
        && let Some(off) = inv.in_slot(Slot::Offhand)
    {
        return Err(EngineError::Rule(format!(
            "{} is two-handed, but {} is in the off hand: unequip {} first",
            item.name, off.name, off.name
        )));
    }
    if slot == Slot::Offhand
        && let Some(main) = inv.in_slot(Slot::Mainhand)
        && main.is_two_handed()
    {
        return Err(EngineError::Rule(format!(
            "{} is two-handed and fills both hands: unequip it before equipping {}",
            main.name, item.name
        )));
    }
    let mut warnings = Vec::new();
    let mut changes = Vec::new();
    // Whatever held the slot goes back to the pack (a two-handed weapon empties the off hand too).
    let mut freed = vec![slot];
    if slot == Slot::Mainhand && item.is_two_handed() {
        freed.push(Slot::Offhand);
    }
    for it in c.inventory.items.iter_mut() {
        if it.slot.is_some_and(|s| freed.contains(&s)) {
            it.slot = None;
            changes.push(format!("{} unequipped from {slot}", it.name));
        }
    }
    let idx = if c.inventory.items[i].quantity > 1 {
        let stack = &mut c.inventory.items[i];
        stack.quantity -= 1;
        let mut one = stack.clone();
        one.quantity = 1;
        one.id = call.new_id("it")?;
        c.inventory.items.push(one);
        c.inventory.items.len() - 1
    } else {
        i
    };
    let it = &mut c.inventory.items[idx];
    it.slot = Some(slot);
    changes.push(format!("{} equipped ({slot})", it.name));
    // Attunement is its own step (manage_inventory attune); an unattuned item that requires it
    // gives none of its magic.
    if it.requires_attunement && !it.attuned {
        warnings.push(format!(
            "{} requires attunement: its magic works only once {} attunes to it (manage_inventory attune)",
            it.name, c.name
        ));
    }
    let after = c.effective();
    let effect = effective_line(&before, &after);
    save(call, &c, &changes)?;
    let summary = if effect.is_empty() {
        format!("{}: {}.", c.name, changes.join("; "))
    } else {
        format!("{}: {}. {}.", c.name, changes.join("; "), effect.join(", "))
    };
    let mut out = outcome("equip", &c, summary, changes);
    out.changes.extend(effect);
    out.warnings.extend(warnings);
    out.item = Some(c.inventory.items[idx].clone());
    Ok(out)
}

/// Unequips an item (named, or whatever is in `slot`); its attunement ends.
pub fn unequip(
    call: &mut Call<'_>,
    who: CharacterRef<'_>,
    r: Option<ItemRef<'_>>,
    slot: Option<Slot>,
) -> Result<InventoryOutcome> {
    let mut c = load(call, who)?;
    let before = c.effective();
    let i = match (r, slot) {
        (Some(r), _) if r.id.is_some() || r.name.is_some() => find(&c, r, true)?,
        (_, Some(s)) => c
            .inventory
            .items
            .iter()
            .position(|it| it.slot == Some(s))
            .ok_or_else(|| {
                EngineError::invalid("slot", format!("{} has nothing equipped in {s}", c.name))
            })?,
        _ => {
            return Err(EngineError::invalid(
                "itemName",
                "name the item (itemName or itemId) or the slot to empty",
            ));
        }
    };
    let Some(from) = c.inventory.items[i].slot else {
        return Err(EngineError::invalid(
            "itemName",
            format!("{} is carried, not equipped", c.inventory.items[i].name),
        ));
    };
    let mut changes = Vec::new();
    let mut item = c.inventory.items.remove(i);
    item.slot = None;
    changes.push(format!("{} unequipped from {from}", item.name));
    if item.attuned {
        changes.push(format!(
            "{} stays attuned to {} (unattune to end it)",
            c.name, item.name
        ));
    }
    let idx = put_item(call, &mut c, item)?;
    let after = c.effective();
    let effect = effective_line(&before, &after);
    save(call, &c, &changes)?;
    let summary = if effect.is_empty() {
        format!("{}: {}.", c.name, changes.join("; "))
    } else {
        format!("{}: {}. {}.", c.name, changes.join("; "), effect.join(", "))
    };
    let mut out = outcome("unequip", &c, summary, changes);
    out.changes.extend(effect);
    out.item = c.inventory.items.get(idx).cloned();
    Ok(out)
}

/// Whether `c` is proficient with a weapon, from its SRD class when the compendium knows it;
/// `None` when it cannot tell.
pub fn weapon_proficiency(call: &Call<'_>, c: &Character, item: &Item) -> Option<bool> {
    let w = item.weapon.as_ref()?;
    let class = call.compendium()?.class(c.class.as_deref()?)?;
    let profs: Vec<String> = class
        .weapon_proficiencies
        .iter()
        .map(|p| p.to_lowercase())
        .collect();
    let kind = if w.category.is_martial() {
        "martial weapons"
    } else {
        "simple weapons"
    };
    let base = item
        .name
        .to_lowercase()
        .split(" +")
        .next()
        .unwrap_or("")
        .trim()
        .to_string();
    Some(profs.iter().any(|p| {
        p == kind || (!base.is_empty() && (p.trim_end_matches('s') == base || p == &base))
    }))
}

/// The numbers of an attack with `item` (equipped): the ability (finesse: the better of STR and
/// DEX; ranged: DEX; melee: STR; `ability` may pick within what the weapon allows), magic
/// bonuses, and the typed damage expression (versatile dice when the off hand is free).
pub fn weapon_attack(
    c: &Character,
    stats: &EffectiveStats,
    item: &Item,
    proficient: bool,
    ability: Option<Ability>,
) -> Result<WeaponAttack> {
    let Some(w) = &item.weapon else {
        return Err(EngineError::invalid(
            "weapon",
            format!("{} is not a weapon", item.name),
        ));
    };
    let (str_m, dex_m) = (
        stats.modifier(Ability::Strength),
        stats.modifier(Ability::Dexterity),
    );
    let allowed: Vec<Ability> = if w.has(WeaponProperty::Finesse) {
        vec![Ability::Strength, Ability::Dexterity]
    } else if w.category.is_ranged() {
        vec![Ability::Dexterity]
    } else {
        vec![Ability::Strength]
    };
    let ability = match ability {
        Some(a) if allowed.contains(&a) => a,
        Some(a) => {
            let list: Vec<&str> = allowed.iter().map(|a| a.key()).collect();
            return Err(EngineError::invalid(
                "ability",
                format!(
                    "{} attacks with {}, not {}",
                    item.name,
                    list.join(" or "),
                    a.key()
                ),
            ));
        }
        None if allowed.len() == 2 => {
            if dex_m > str_m {
                Ability::Dexterity
            } else {
                Ability::Strength
            }
        }
        None => allowed[0],
    };
    let m = stats.modifier(ability);
    let weapon_bonuses: Vec<Contribution> = match item.attack_bonus() {
        0 => vec![],
        n => vec![Contribution::new(&item.name, n)],
    };
    let to_hit =
        m + if proficient {
            stats.proficiency_bonus
        } else {
            0
        } + item.attack_bonus()
            + stats.attack.bonus;
    let off_free = c.inventory.in_slot(Slot::Offhand).is_none();
    let two_handed = item.is_two_handed()
        || (w.has(WeaponProperty::Versatile) && off_free && item.slot == Some(Slot::Mainhand));
    let dice = match (
        &w.versatile_damage,
        two_handed && w.has(WeaponProperty::Versatile),
    ) {
        (Some(v), true) => v.clone(),
        _ => w.damage_dice.clone(),
    };
    let t = w.damage_type;
    let mut expr = format!("{dice}[{t}]");
    // An off-hand attack adds no positive ability modifier to damage.
    let ability_dmg = if item.slot == Some(Slot::Offhand) {
        m.min(0)
    } else {
        m
    };
    let flat = ability_dmg + item.damage_bonus() + stats.damage.bonus;
    if flat > 0 {
        expr.push_str(&format!(" + {flat}[{t}]"));
    } else if flat < 0 {
        expr.push_str(&format!(" - {}[{t}]", -flat));
    }
    for k in &item.effects {
        if let ModifierKind::ExtraDamage { dice, damage_type } = k {
            expr.push_str(&format!(" + {dice}[{damage_type}]"));
        }
    }
    for e in &stats.damage.extra_dice {
        expr.push_str(&format!(" + {}[{}]", e.dice, e.damage_type));
    }
    Ok(WeaponAttack {
        weapon: item.name.clone(),
        item_id: item.id.clone(),
        ability,
        proficient,
        weapon_bonuses,
        to_hit,
        damage: expr,
        two_handed,
    })
}

/// The equipped weapon `name` of `c` (by item id or name).
pub fn equipped_weapon<'c>(c: &'c Character, name: &str) -> Result<&'c Item> {
    let i = find(
        c,
        ItemRef {
            id: c.inventory.items.iter().any(|it| it.id == name).then_some(name),
            name: Some(name),
        },
        true,
    )
    .map_err(|_| {
        let equipped: Vec<String> = c
            .inventory
            .items
            .iter()
            .filter(|it| it.slot.is_some() && it.weapon.is_some())
            .map(|it| it.name.clone())
            .collect();
        EngineError::invalid(
            "weapon",
            if equipped.is_empty() {
                format!(
                    "{} carries no weapon '{name}' and has none equipped; give one and equip it with manage_inventory",
                    c.name
                )
            } else {
                format!(
                    "{} has no weapon '{name}'; equipped: {}",
                    c.name,
                    equipped.join(", ")
                )
            },
        )
    })?;
    let item = &c.inventory.items[i];
    if item.weapon.is_none() {
        return Err(EngineError::invalid(
            "weapon",
            format!("{} is not a weapon", item.name),
        ));
    }
    if item.slot.is_none() {
        return Err(EngineError::Rule(format!(
            "{} carries {} but has not equipped it: equip it first (manage_inventory operation equip)",
            c.name, item.name
        )));
    }
    Ok(item)
}

/// What a character carries, with every bonus its equipment gives.
pub fn view(call: &Call<'_>, who: CharacterRef<'_>) -> Result<InventoryView> {
    let c = load(call, who)?;
    let stats = c.effective();
    let layer = c.inventory.equipment_layer(&c.base_stats());
    let mut attacks = Vec::new();
    for it in c
        .inventory
        .items
        .iter()
        .filter(|i| i.slot.is_some() && i.weapon.is_some())
    {
        let prof = weapon_proficiency(call, &c, it).unwrap_or(true);
        attacks.push(weapon_attack(&c, &stats, it, prof, None)?);
    }
    let mut bonuses: Vec<String> = layer.modifiers.iter().map(ToString::to_string).collect();
    if let Some(ac) = &layer.armor_class {
        bonuses.insert(0, format!("base AC {} ({})", ac.value, ac.source));
    }
    for it in c.inventory.items.iter().filter(|i| i.is_active()) {
        for k in it.effects.iter().filter(|k| it.weapon_bound(k)) {
            bonuses.push(format!("{} (its own attacks): {k}", it.name));
        }
    }
    let (equipped, carried): (Vec<Item>, Vec<Item>) = c
        .inventory
        .items
        .iter()
        .cloned()
        .partition(|i| i.slot.is_some());
    Ok(InventoryView {
        character: c.name.clone(),
        equipped,
        carried,
        currency: c.inventory.currency,
        currency_gp: c.inventory.currency.total_gp(),
        weight: (c.inventory.weight() * 100.0).round() / 100.0,
        capacity: carrying_capacity(stats.score(Ability::Strength)),
        attuned: c
            .inventory
            .attuned()
            .iter()
            .map(|i| i.name.clone())
            .collect(),
        armor_class: stats.armor_class.clone(),
        speed: stats.speed.clone(),
        bonuses,
        attacks,
    })
}

/// Moves items (default 1) and/or coins from one character to another in one transaction.
pub fn transfer(
    call: &mut Call<'_>,
    from: CharacterRef<'_>,
    to: CharacterRef<'_>,
    item: Option<ItemRef<'_>>,
    quantity: Option<u32>,
    currency: Option<Currency>,
) -> Result<InventoryOutcome> {
    let mut giver = load(call, from)?;
    let mut taker = {
        let mut t = resolve_with_fields(call, to, "toCharacterId", "toCharacterName")?;
        adopt_legacy(call, &mut t);
        t
    };
    if giver.id == taker.id {
        return Err(EngineError::invalid(
            "toCharacterName",
            format!(
                "{} cannot transfer to themself; name another character",
                giver.name
            ),
        ));
    }
    let mut changes = Vec::new();
    if let Some(cost) = currency {
        pay(&mut giver, &cost, &mut changes)?;
        taker.inventory.currency.add(&cost);
        changes.push(format!("{} received {cost}", taker.name));
    }
    let mut moved = None;
    if let Some(r) = item {
        let (it, ch) = take(&mut giver, r, quantity)?;
        changes.extend(ch);
        changes.push(format!(
            "{} → {}: {}",
            giver.name,
            taker.name,
            stack_label(&it)
        ));
        let i = put_item(call, &mut taker, it)?;
        moved = Some(taker.inventory.items[i].clone());
    }
    if changes.is_empty() {
        return Err(EngineError::invalid(
            "itemName",
            "nothing to transfer: name the item (itemName or itemId) or give currency",
        ));
    }
    check_lift(&taker)?;
    let campaign = call.campaign();
    call.tx().put_character(campaign, &giver)?;
    call.tx().put_character(campaign, &taker)?;
    call.record_change("character", &giver.id, changes.join("; "));
    call.record_change("character", &taker.id, changes.join("; "));
    let summary = format!("{}.", changes.join("; "));
    let mut out = outcome("transfer", &giver, summary, changes);
    if taker.inventory.weight() > capacity(&taker) {
        out.warnings.push(format!(
            "{} is now over the carrying capacity: speed 5 ft until lightened",
            taker.name
        ));
    }
    out.item = moved;
    Ok(out)
}

/// Uses an item: healing (rolled, through the healing pipeline, on the user or `target`),
/// charges spent, consumables used up.
pub fn use_item(
    call: &mut Call<'_>,
    who: CharacterRef<'_>,
    r: ItemRef<'_>,
    target: Option<CharacterRef<'_>>,
    charges: Option<u32>,
) -> Result<InventoryOutcome> {
    let mut c = load(call, who)?;
    let i = find_item(&c, r)?;
    let item = c.inventory.items[i].clone();
    let mut other = match target {
        Some(t) if t.id.is_some() || t.name.is_some() => {
            let o = resolve_with_fields(call, t, "targetId", "targetName")?;
            (o.id != c.id).then_some(o)
        }
        _ => None,
    };
    let spend = charges.unwrap_or(u32::from(item.charges.is_some()));
    if charges.is_some() && item.charges.is_none() {
        return Err(EngineError::invalid(
            "charges",
            format!("{} has no charges", item.name),
        ));
    }
    if let Some(ch) = &item.charges
        && ch.current < spend
    {
        let back = match ch.recharge {
            Recharge::Never => "they do not come back".to_string(),
            r => format!(
                "they come back at {}{}",
                r.key().replace('_', " "),
                ch.recharge_dice
                    .as_ref()
                    .map(|d| format!(" ({d})"))
                    .unwrap_or_default()
            ),
        };
        return Err(EngineError::Rule(format!(
            "{} has {}/{} charges, not the {spend} this use needs; {back}",
            item.name, ch.current, ch.max
        )));
    }
    if item.heal.is_none() && item.charges.is_none() && item.item_type != ItemType::Consumable {
        return Err(EngineError::Rule(format!(
            "{} has no use the engine applies (no healing, charges, or consumable effect){}; narrate it, or redefine it with heal or charges",
            item.name,
            item.effect
                .as_ref()
                .map(|e| format!("; its effect: {e}"))
                .unwrap_or_default()
        )));
    }
    if item.requires_attunement && !item.attuned && (item.heal.is_some() || item.charges.is_some())
    {
        return Err(EngineError::Rule(format!(
            "{} works only for a creature attuned to it: equip it (which attunes) first",
            item.name
        )));
    }
    let mut changes = Vec::new();
    let mut roll = None;
    let mut healing = None;
    if let Some(h) = &item.heal {
        let r = dice::roll(h, call.rng()?)?;
        call.record_roll(&r);
        let amount = u32::try_from(r.total.max(0)).unwrap_or(0);
        let result = match other.as_mut() {
            Some(o) => update::heal(o, amount, &mut changes)?,
            None => update::heal(&mut c, amount, &mut changes)?,
        };
        healing = Some(result);
        roll = Some(r);
    }
    let it = &mut c.inventory.items[i];
    if let Some(ch) = it.charges.as_mut()
        && spend > 0
    {
        ch.current -= spend;
        changes.push(format!(
            "{} spends {spend} charge{} ({}/{} left)",
            it.name,
            if spend == 1 { "" } else { "s" },
            ch.current,
            ch.max
        ));
    }
    let mut left = Some(it.clone());
    if it.item_type == ItemType::Consumable {
        it.quantity -= 1;
        changes.push(format!("{} used up ({} left)", it.name, it.quantity));
        if it.quantity == 0 {
            c.inventory.items.remove(i);
            left = None;
        } else {
            left = Some(c.inventory.items[i].clone());
        }
    }
    if let Some(e) = item.effect.as_ref().filter(|_| item.heal.is_none()) {
        changes.push(format!("effect: {e}"));
    }
    let campaign = call.campaign();
    if let Some(o) = &other {
        call.tx().put_character(campaign, o)?;
        call.record_change("character", &o.id, changes.join("; "));
    }
    save(call, &c, &changes)?;
    let on = other
        .as_ref()
        .map(|o| format!(" on {}", o.name))
        .unwrap_or_default();
    let summary = format!("{} uses {}{on}: {}.", c.name, item.name, changes.join("; "));
    let mut out = outcome("use", &c, summary, changes);
    out.item = left;
    out.roll = roll;
    out.healing = healing;
    Ok(out)
}

/// When charges come back: a rest or a time of day.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RechargeEvent {
    /// Dawn.
    Dawn,
    /// Dusk.
    Dusk,
    /// The end of a short rest.
    ShortRest,
    /// The end of a long rest.
    LongRest,
}

/// Recharges `c`'s items whose charges come back at `event` (rolling their recharge dice);
/// for the rest and time-keeping tools. Returns what changed.
pub fn recharge(
    c: &mut Character,
    event: RechargeEvent,
    roller: &mut impl DieRoller,
) -> Result<Vec<String>> {
    let mut changes = Vec::new();
    for it in &mut c.inventory.items {
        let Some(ch) = it.charges.as_mut() else {
            continue;
        };
        let due = matches!(
            (ch.recharge, event),
            (Recharge::Dawn, RechargeEvent::Dawn)
                | (Recharge::Dusk, RechargeEvent::Dusk)
                | (
                    Recharge::ShortRest,
                    RechargeEvent::ShortRest | RechargeEvent::LongRest
                )
                | (Recharge::LongRest, RechargeEvent::LongRest)
        );
        if !due || ch.current >= ch.max {
            continue;
        }
        let gain = match &ch.recharge_dice {
            Some(d) => u32::try_from(dice::roll(d, roller)?.total.max(0)).unwrap_or(0),
            None => ch.max,
        };
        let before = ch.current;
        ch.current = ch.current.saturating_add(gain).min(ch.max);
        changes.push(format!(
            "{} recharges {before} → {}/{}",
            it.name, ch.current, ch.max
        ));
    }
    Ok(changes)
}
