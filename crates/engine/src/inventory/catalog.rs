//! Items from the SRD compendium: mundane equipment with its weapon and armor stats, "+N" magic
//! weapons and armor on any base ("Longsword +1"), and the magic items whose numbers the engine
//! knows (a Belt of Hill Giant Strength sets STR 21; a Potion of Healing heals 2d4+2).

use tabletop_rules::DamageType;
use tabletop_rules::modifiers::{ModifierKind, RollTarget};
use tabletop_srd::{AttackRange, Compendium, Entry, EntryKind, Equipment, Lookup, MagicItem};

use crate::error::{EngineError, Result};
use crate::model::inventory::{
    ArmorCategory, ItemType, Rarity, Recharge, WeaponCategory, WeaponProperty,
};
use crate::model::inventory::{ArmorStats, Charges, Item, WeaponStats};

/// An SRD item ready to be carried (its id is filled in when it is given), and how the name was
/// matched when it was not exact.
#[derive(Debug, Clone)]
pub struct SrdItem {
    /// The item.
    pub item: Item,
    /// "matched 'Longsword'" when the name was corrected or a base chosen.
    pub note: Option<String>,
}

fn blank(name: &str, item_type: ItemType) -> Item {
    Item {
        id: String::new(),
        name: name.to_string(),
        description: None,
        item_type,
        rarity: Rarity::Common,
        requires_attunement: false,
        attunement_restriction: None,
        attuned: false,
        slot: None,
        weapon: None,
        armor: None,
        effects: Vec::new(),
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

/// A plain item with only a name (a legacy equipment entry the compendium does not know).
pub fn plain(name: &str) -> Item {
    blank(name, ItemType::AdventuringGear)
}

/// A mundane SRD item with its stats.
pub fn from_equipment(e: &Equipment) -> Item {
    let category = e.category.name.to_lowercase();
    let sub = e.subcategory.as_deref().unwrap_or("").to_lowercase();
    let item_type = if e.weapon.is_some() {
        ItemType::Weapon
    } else if e.armor.is_some() {
        ItemType::Armor
    } else if sub.contains("ammunition") {
        ItemType::Ammunition
    } else if category.contains("tool") {
        ItemType::Tool
    } else {
        ItemType::AdventuringGear
    };
    let mut item = blank(&e.name, item_type);
    item.description = e.desc.first().cloned();
    item.value = e.cost.as_ref().map(|c| {
        let per = match c.unit.as_str() {
            "cp" => 0.01,
            "sp" => 0.1,
            "ep" => 0.5,
            "pp" => 10.0,
            _ => 1.0,
        };
        c.quantity * per
    });
    // Bundles (20 arrows for 1 gp, 1 lb) become a stack of single pieces.
    let bundle = e.quantity.unwrap_or(1).max(1);
    item.quantity = bundle;
    item.weight = e.weight.unwrap_or(0.0) / f64::from(bundle);
    if let Some(v) = item.value.as_mut() {
        *v /= f64::from(bundle);
    }
    item.stackable = matches!(
        item_type,
        ItemType::Ammunition | ItemType::AdventuringGear | ItemType::Consumable
    );
    if let Some(w) = &e.weapon {
        let ranged = w.range_kind == AttackRange::Ranged;
        let category = match (w.category, ranged) {
            (tabletop_srd::WeaponCategory::Simple, false) => WeaponCategory::SimpleMelee,
            (tabletop_srd::WeaponCategory::Simple, true) => WeaponCategory::SimpleRanged,
            (tabletop_srd::WeaponCategory::Martial, false) => WeaponCategory::MartialMelee,
            (tabletop_srd::WeaponCategory::Martial, true) => WeaponCategory::MartialRanged,
        };
        let properties = w
            .properties
            .iter()
            .filter_map(|p| {
                WeaponProperty::ALL
                    .iter()
                    .copied()
                    .find(|k| k.key() == p.index.replace('-', "_"))
            })
            .collect();
        let (range_normal, range_long) = match (ranged, w.throw_range) {
            (true, _) => (Some(w.normal_range), w.long_range),
            (false, Some((n, l))) => (Some(n), Some(l)),
            _ => (None, None),
        };
        let dice = w.damage.as_ref();
        item.weapon = Some(WeaponStats {
            damage_dice: dice.map_or_else(|| "0".to_string(), |d| d.dice.clone()),
            damage_type: dice
                .and_then(|d| d.damage_type)
                .unwrap_or(DamageType::Bludgeoning),
            category,
            properties,
            range_normal,
            range_long,
            versatile_damage: w.two_handed_damage.as_ref().map(|d| d.dice.clone()),
        });
    }
    if let Some(a) = &e.armor {
        let category = match a.category {
            tabletop_srd::ArmorCategory::Light => ArmorCategory::Light,
            tabletop_srd::ArmorCategory::Medium => ArmorCategory::Medium,
            tabletop_srd::ArmorCategory::Heavy => ArmorCategory::Heavy,
            tabletop_srd::ArmorCategory::Shield => ArmorCategory::Shield,
        };
        item.armor = Some(ArmorStats {
            base_ac: a.base_ac,
            category,
            max_dex_bonus: if a.dex_bonus { a.max_dex_bonus } else { None },
            stealth_disadvantage: a.stealth_disadvantage,
            strength_requirement: u8::try_from(a.str_minimum).ok().filter(|s| *s > 0),
        });
    }
    item
}

fn rarity(s: &str) -> Rarity {
    match s.to_lowercase().as_str() {
        "uncommon" => Rarity::Uncommon,
        "rare" => Rarity::Rare,
        "very rare" => Rarity::VeryRare,
        "legendary" => Rarity::Legendary,
        "artifact" => Rarity::Artifact,
        _ => Rarity::Common,
    }
}

/// The numbers of an SRD magic item the engine applies, from the item catalog: (effects,
/// healing, charges).
type Known = (Vec<ModifierKind>, Option<String>, Option<Charges>);

fn known(index: &str) -> Known {
    let Some(e) = crate::catalog::items::entry(index) else {
        return (Vec::new(), None, None);
    };
    if e.kind == crate::catalog::items::ItemKind::Potion {
        return (e.modifiers.clone(), e.heal.clone(), None);
    }
    let charges = e.charges.map(|max| Charges {
        current: max,
        max,
        recharge: if e.no_recharge {
            Recharge::Never
        } else {
            Recharge::Dawn
        },
        recharge_dice: e.recharge.clone(),
    });
    // Switched on by use for a while (Boots of Speed): not while merely worn.
    if e.kind == crate::catalog::items::ItemKind::Charged && e.minutes.is_some() {
        return (Vec::new(), e.heal.clone(), charges);
    }
    (e.modifiers.clone(), e.heal.clone(), charges)
}

/// The base an "any sword" / "(plate)" magic item is built on by default.
fn default_base(first_line: &str) -> Option<&'static str> {
    let l = first_line.to_lowercase();
    let inner = l.split_once('(')?.1.split(')').next()?.trim().to_string();
    Some(match inner.as_str() {
        s if s.contains("ammunition") => "arrow",
        s if s.contains("shield") => "shield",
        s if s.contains("plate") => "plate-armor",
        s if s.contains("chain shirt") => "chain-shirt",
        s if s.contains("scale") => "scale-mail",
        s if s.contains("leather") => "leather-armor",
        s if s.contains("sword") || s == "any" => "longsword",
        s if s.contains("axe") => "battleaxe",
        s if s.contains("hammer") => "warhammer",
        s if s.contains("mace") => "mace",
        s if s.contains("trident") => "trident",
        s if s.contains("javelin") => "javelin",
        s if s.contains("arrow") => "arrow",
        s if s.contains("medium or heavy") || s.contains("light, medium") => "chain-mail",
        _ => return None,
    })
}

/// A magic item, on `base` when it is a magic weapon or armor.
fn from_magic(m: &MagicItem, base: Option<&Equipment>) -> Item {
    let cat = m.category.name.to_lowercase();
    let item_type = match cat.as_str() {
        "weapon" => ItemType::Weapon,
        "armor" => ItemType::Armor,
        "potion" | "scroll" => ItemType::Consumable,
        "ammunition" => ItemType::Ammunition,
        _ => ItemType::Wondrous,
    };
    let mut item = match base {
        Some(b) => {
            let mut i = from_equipment(b);
            i.name = if m.name.to_lowercase().contains(&b.name.to_lowercase()) {
                m.name.clone()
            } else {
                format!("{} {}", m.name, b.name)
            };
            i.quantity = 1;
            i.stackable = false;
            i
        }
        None => blank(&m.name, item_type),
    };
    item.rarity = rarity(&m.rarity);
    item.srd = Some(m.index.clone());
    item.requires_attunement = m.requires_attunement;
    item.attunement_restriction = m.attunement_note.clone();
    item.description = m.desc.get(1).or(m.desc.first()).cloned();
    let (effects, heal, charges) = known(&m.index);
    item.effects.extend(effects);
    item.heal = heal;
    item.charges = charges;
    if let Some(e) = crate::catalog::items::entry(&m.index) {
        // A duration rolled when drunk (1d4 hours) is set then; an hour until.
        item.lasts_rounds = e
            .minutes
            .map(|min| min.saturating_mul(10))
            .or(e.hours_dice.as_ref().map(|_| 600))
            .or(e.minutes_dice.as_ref().map(|_| 10))
            .or(e.permanent.then_some(crate::model::effects::MAX_ROUNDS));
        // Drunk, read or sprinkled once: a consumable whatever its SRD category (a Manual, a
        // Dust).
        if e.kind == crate::catalog::items::ItemKind::Potion {
            item.item_type = ItemType::Consumable;
        }
        // A container weighs the same whatever it holds.
        if let Some(box_) = &e.container {
            item.weight = box_.weight;
        }
        // Mithral: no Strength requirement, no Stealth disadvantage.
        if e.light_as_mithral
            && let Some(a) = item.armor.as_mut()
        {
            a.stealth_disadvantage = false;
            a.strength_requirement = None;
        }
        // What the engine leaves to the DM is said on use and equip.
        if let Some(r) = &e.reason {
            item.effect = Some(format!("no automation for {}: {r}", m.name));
        }
    }
    if item_type == ItemType::Consumable {
        item.stackable = true;
        item.weight = 0.5;
    }
    item
}

/// Splits a "+N" magic bonus off a name: "Longsword +1", "+2 Shield", "Chain Mail, +1".
fn split_bonus(name: &str) -> Option<(String, i32)> {
    let pos = name.find('+')?;
    let digits: String = name[pos + 1..]
        .chars()
        .skip_while(|c| c.is_whitespace())
        .take_while(char::is_ascii_digit)
        .collect();
    let n: i32 = digits.parse().ok()?;
    if !(1..=3).contains(&n) {
        return None;
    }
    let after = name[pos + 1..].trim_start();
    let rest = format!("{} {}", &name[..pos], &after[digits.len()..]);
    let base = rest
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    Some((base, n))
}

fn magic_bonus_item(base: &Equipment, n: i32) -> Result<Item> {
    let mut item = from_equipment(base);
    item.name = format!("{} +{n}", base.name);
    item.quantity = 1;
    item.stackable = false;
    if item.weapon.is_some() {
        item.rarity = [Rarity::Uncommon, Rarity::Rare, Rarity::VeryRare][(n - 1) as usize];
        item.effects.push(ModifierKind::RollBonus {
            on: RollTarget::AttackRolls,
            amount: n,
        });
        item.effects.push(ModifierKind::DamageBonus { amount: n });
    } else if let Some(a) = &item.armor {
        item.rarity = if a.category == ArmorCategory::Shield {
            [Rarity::Uncommon, Rarity::Rare, Rarity::VeryRare][(n - 1) as usize]
        } else {
            [Rarity::Rare, Rarity::VeryRare, Rarity::Legendary][(n - 1) as usize]
        };
        item.effects.push(ModifierKind::AcBonus { amount: n });
    } else if item.item_type == ItemType::Ammunition {
        // Its bonus goes to the shot of the weapon firing it (equipped in the quiver).
        item.rarity = [Rarity::Uncommon, Rarity::Rare, Rarity::VeryRare][(n - 1) as usize];
        item.effects.push(ModifierKind::RollBonus {
            on: RollTarget::AttackRolls,
            amount: n,
        });
        item.effects.push(ModifierKind::DamageBonus { amount: n });
        item.stackable = true;
        item.srd = Some(format!("ammunition-{n}"));
    } else {
        return Err(EngineError::invalid(
            "itemName",
            format!(
                "'{}' is neither a weapon, armor nor ammunition, so it cannot be +{n}; name one, e.g. 'Longsword +1', 'Arrow +1'",
                base.name
            ),
        ));
    }
    Ok(item)
}

fn equipment_named<'a>(c: &'a Compendium, name: &str) -> Option<(&'a Equipment, bool)> {
    if let Some(e) = c.equipment(name) {
        return Some((e, true));
    }
    match c.get(Some(EntryKind::Equipment), name) {
        Lookup::Found {
            entry: Entry::Equipment(e),
            ..
        } => Some((e, false)),
        _ => None,
    }
}

fn resolve_variant<'a>(c: &'a Compendium, m: &'a MagicItem, given: &str) -> Result<&'a MagicItem> {
    if m.variants.is_empty() {
        return Ok(m);
    }
    let key = crate::model::names::name_key(given);
    if let Some(v) = m
        .variants
        .iter()
        .find(|v| crate::model::names::name_key(&v.name) == key)
        .and_then(|v| c.magic_item(&v.index))
    {
        return Ok(v);
    }
    let names: Vec<String> = m.variants.iter().map(|v| v.name.clone()).collect();
    Err(EngineError::invalid(
        "itemName",
        format!(
            "'{}' comes in variants; name one: {}",
            m.name,
            names.join(", ")
        ),
    ))
}

/// A family named with its variant: "Ring of Resistance (fire)", "Carpet of Flying: 4x6",
/// "Wand of the War Mage, +2" — the family's variant whose name holds every word given after
/// the family's name. `None` when `name` is not of that form; an error when no single variant
/// fits.
fn family_variant<'a>(c: &'a Compendium, name: &str) -> Result<Option<&'a MagicItem>> {
    let Some(cut) = name.find(['(', ':', ',']) else {
        return Ok(None);
    };
    let (head, tail) = (name[..cut].trim(), &name[cut + 1..]);
    // "Armor (+1)": the family's SRD name is "Armor, +1, +2, or +3".
    let key = crate::model::names::name_key(head);
    let Some(family) = c
        .magic_item(head)
        .filter(|m| !m.variants.is_empty())
        .or_else(|| {
            c.magic_items().iter().find(|m| {
                !m.variants.is_empty()
                    && m.name
                        .split(',')
                        .next()
                        .is_some_and(|n| crate::model::names::name_key(n) == key)
            })
        })
    else {
        return Ok(None);
    };
    let words = |s: &str| -> Vec<String> {
        s.to_lowercase()
            .split(|ch: char| !(ch.is_alphanumeric() || ch == '+'))
            .filter(|w| !w.is_empty())
            .map(str::to_string)
            .collect()
    };
    let want = words(tail);
    if want.is_empty() {
        return Ok(None);
    }
    let fits: Vec<&MagicItem> = family
        .variants
        .iter()
        .filter_map(|v| c.magic_item(&v.index))
        .filter(|v| {
            let have = words(&format!("{} {}", v.name, v.index.replace('-', " ")));
            want.iter().all(|w| have.contains(w))
        })
        .collect();
    match fits.as_slice() {
        [one] => Ok(Some(*one)),
        _ => {
            let names: Vec<String> = family.variants.iter().map(|v| v.name.clone()).collect();
            Err(EngineError::invalid(
                "itemName",
                format!(
                    "'{}' has no single variant '{}'; name one: {}",
                    family.name,
                    tail.trim().trim_end_matches(')'),
                    names.join(", ")
                ),
            ))
        }
    }
}

/// Finds an SRD item by name: "+N" magic weapons and armor on any base, magic items (on a base
/// weapon or armor when they need one: "Flame Tongue Scimitar"), then mundane equipment; a typo
/// is corrected when the match is clear, otherwise the error lists the closest names. An item
/// whose damage type is chosen (Armor of Resistance) takes it in parentheses: "Armor of
/// Resistance (fire)", "Armor of Vulnerability (slashing) Plate Armor".
pub fn lookup(c: &Compendium, name: &str) -> Result<SrdItem> {
    let name = name.trim();
    // A "(damage type)" anywhere in the name.
    let chosen = name.split_once('(').and_then(|(head, rest)| {
        let (inner, tail) = rest.split_once(')')?;
        let t = inner.trim().parse::<DamageType>().ok()?;
        Some((
            t,
            format!("{} {}", head.trim(), tail.trim())
                .trim()
                .to_string(),
        ))
    });
    let (choice, rest) = match &chosen {
        Some((t, rest)) => (Some(*t), rest.as_str()),
        None => (None, name),
    };
    let mut found = match lookup_plain(c, rest) {
        Ok(f) => f,
        // Not a choosing item: the parentheses are part of a name ("Ring of Resistance (fire)").
        Err(_) if choice.is_some() => return lookup_plain(c, name),
        Err(e) => return Err(e),
    };
    let Some(entry) = found
        .item
        .srd
        .as_deref()
        .and_then(crate::catalog::items::entry)
        .filter(|e| !e.resist_choice.is_empty())
    else {
        return match choice {
            Some(_) => lookup_plain(c, name),
            None => Ok(found),
        };
    };
    let options: Vec<String> = entry.resist_choice.iter().map(|t| t.to_string()).collect();
    let Some(t) = choice.filter(|t| entry.resist_choice.contains(t)) else {
        let base = found.item.name.clone();
        return Err(EngineError::invalid(
            "itemName",
            format!(
                "{base} resists one damage type, named in parentheses: e.g. '{base} ({})'; one of {}",
                options[0],
                options.join(", ")
            ),
        ));
    };
    let item = &mut found.item;
    item.name = format!("{} ({t})", item.name);
    item.effects.push(ModifierKind::Resistance {
        damage_type: Some(t),
    });
    if entry.cursed {
        for other in entry.resist_choice.iter().filter(|o| **o != t) {
            item.effects.push(ModifierKind::Vulnerability {
                damage_type: Some(*other),
            });
        }
    }
    Ok(found)
}

fn lookup_plain(c: &Compendium, name: &str) -> Result<SrdItem> {
    if let Some(m) = c.magic_item(name) {
        return magic(c, resolve_variant(c, m, name)?, None, None);
    }
    if let Some(v) = family_variant(c, name)? {
        return magic(c, v, None, None);
    }
    if let Some((base, n)) = split_bonus(name) {
        if let Some((e, exact)) = equipment_named(c, &base) {
            return Ok(SrdItem {
                item: magic_bonus_item(e, n)?,
                note: (!exact).then(|| format!("matched '{}'", e.name)),
            });
        }
        return Err(EngineError::invalid(
            "itemName",
            format!(
                "no SRD weapon or armor '{base}' to make +{n}; e.g. 'Longsword +1', 'Chain Mail +1', 'Shield +2'"
            ),
        ));
    }
    // "<magic weapon or armor> <base>", e.g. "Flame Tongue Scimitar".
    let words: Vec<&str> = name.split_whitespace().collect();
    for cut in 1..words.len() {
        let (head, tail) = (words[..cut].join(" "), words[cut..].join(" "));
        if let (Some(m), Some(e)) = (c.magic_item(&head), c.equipment(&tail))
            && (e.weapon.is_some() || e.armor.is_some())
        {
            return magic(c, m, Some(e), None);
        }
    }
    if let Some(e) = c.equipment(name) {
        return Ok(SrdItem {
            item: from_equipment(e),
            note: None,
        });
    }
    let magic_hit = match c.get(Some(EntryKind::MagicItem), name) {
        Lookup::Found {
            entry: Entry::MagicItem(m),
            ..
        } => Some(m),
        _ => None,
    };
    let gear_hit = match c.get(Some(EntryKind::Equipment), name) {
        Lookup::Found {
            entry: Entry::Equipment(e),
            ..
        } => Some(e),
        _ => None,
    };
    match (magic_hit, gear_hit) {
        (Some(m), None) => {
            let m = resolve_variant(c, m, &m.name)?;
            magic(c, m, None, Some(format!("matched '{}'", m.name)))
        }
        (None, Some(e)) => Ok(SrdItem {
            item: from_equipment(e),
            note: Some(format!("matched '{}'", e.name)),
        }),
        _ => {
            let mut hits = c.suggest(Some(EntryKind::MagicItem), name, 3);
            hits.extend(c.suggest(Some(EntryKind::Equipment), name, 3));
            if hits.is_empty() {
                // Several words that match nothing as a whole: try the telling ones alone.
                for w in name.split_whitespace().filter(|w| w.len() >= 4) {
                    hits.extend(c.suggest(Some(EntryKind::MagicItem), w, 2));
                    hits.extend(c.suggest(Some(EntryKind::Equipment), w, 2));
                }
            }
            hits.sort_by(|a, b| b.score.total_cmp(&a.score));
            let mut names: Vec<String> = Vec::new();
            for h in hits {
                if !names.contains(&h.name) && names.len() < 4 {
                    names.push(h.name);
                }
            }
            let hint = if names.is_empty() {
                String::new()
            } else {
                format!("did you mean: {}? ", names.join(", "))
            };
            Err(EngineError::invalid(
                "itemName",
                format!(
                    "no SRD item '{name}'; {hint}or give a custom item definition in item (name, type, stats)"
                ),
            ))
        }
    }
}

fn magic(
    c: &Compendium,
    m: &MagicItem,
    base: Option<&Equipment>,
    note: Option<String>,
) -> Result<SrdItem> {
    let cat = m.category.name.to_lowercase();
    let needs_base = cat == "weapon" || cat == "armor";
    let mut note = note;
    let base = match (base, needs_base) {
        (Some(b), _) => Some(b),
        (None, true) => {
            let first = m.desc.first().map(String::as_str).unwrap_or("");
            // "Weapon (dagger)": the named base itself, else a default for "(any sword)".
            let named = first
                .split_once('(')
                .and_then(|(_, r)| r.split(')').next())
                .and_then(|inner| c.equipment(inner.trim()))
                .filter(|e| e.weapon.is_some() || e.armor.is_some());
            let b = named.or_else(|| default_base(first).and_then(|i| c.equipment(i)));
            match b {
                Some(b) => {
                    note = Some(format!(
                        "built on a {}; name another base like '{} Scimitar' to change it",
                        b.name, m.name
                    ));
                    Some(b)
                }
                None => {
                    return Err(EngineError::invalid(
                        "itemName",
                        format!(
                            "{} is a magic {cat}: add its base, e.g. '{} Chain Mail' or '{} Longsword'",
                            m.name, m.name, m.name
                        ),
                    ));
                }
            }
        }
        (None, false) => None,
    };
    // "Weapon, +1", "Armor, +2": the +N on the base.
    if let (Some(b), Some(n)) = (
        base,
        crate::catalog::items::entry(&m.index)
            .filter(|e| e.kind == crate::catalog::items::ItemKind::Bonus)
            .and_then(|e| e.bonus),
    ) {
        let mut item = magic_bonus_item(b, n)?;
        item.srd = Some(m.index.clone());
        return Ok(SrdItem { item, note });
    }
    Ok(SrdItem {
        item: from_magic(m, base),
        note,
    })
}

/// Moves names from the legacy `equipment` list into the inventory as items (SRD stats when the
/// compendium knows the exact name), with ids derived from the character's so that reading and
/// writing agree.
pub fn adopt_legacy(call: &crate::engine::Call<'_>, c: &mut crate::model::character::Character) {
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
                .any(|it| crate::model::names::same_item(&it.name, name))
        {
            continue;
        }
        // The SRD item of that name, or of its singular ("arrows": Arrow ×20); a name that
        // matches only loosely stays the caller's own item.
        let mut item = call
            .compendium()
            .and_then(|comp| lookup(comp, name).ok())
            .filter(|s| s.note.is_none() || crate::model::names::same_item(&s.item.name, name))
            .map(|s| s.item)
            .unwrap_or_else(|| plain(name));
        let mut id = format!("{}-eq{}", c.id, i + 1);
        while c.inventory.items.iter().any(|it| it.id == id) {
            id.push('x');
        }
        item.id = id;
        c.inventory.items.push(item);
    }
}

/// Replaces `c`'s inventory with the items `v` names (update_character's `equipment`): the line
/// saying what left and what joined.
pub fn replace_equipment(c: &mut crate::model::character::Character, v: Vec<String>) -> String {
    // The whole list of what the character carries: items it does not name leave the
    // inventory (equipped, attuned or not: the answer names them); named ones it lacks join
    // it as SRD items where the name is one.
    let listed = |name: &str| v.iter().any(|n| crate::model::names::same_item(n, name));
    let (kept, gone): (Vec<_>, Vec<_>) = std::mem::take(&mut c.inventory.items)
        .into_iter()
        .partition(|it| listed(&it.name));
    c.inventory.items = kept;
    for it in &mut c.inventory.items {
        if it
            .inside
            .as_ref()
            .is_some_and(|id| gone.iter().any(|g| &g.id == id))
        {
            it.inside = None;
        }
    }
    let added: Vec<&String> = v
        .iter()
        .filter(|n| {
            !c.inventory
                .items
                .iter()
                .any(|it| crate::model::names::same_item(&it.name, n))
        })
        .collect();
    let names = |l: &mut dyn Iterator<Item = String>| l.collect::<Vec<_>>().join(", ");
    let line = format!(
        "equipment replaced: removed {}; added {}",
        if gone.is_empty() {
            "nothing".to_string()
        } else {
            names(&mut gone.iter().map(|g| g.name.clone()))
        },
        if added.is_empty() {
            "nothing".to_string()
        } else {
            names(&mut added.iter().map(|n| n.to_string()))
        }
    );
    c.equipment = v;
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bonuses_split_off_names() {
        assert_eq!(split_bonus("Longsword +1"), Some(("Longsword".into(), 1)));
        assert_eq!(split_bonus("+2 Shield"), Some(("Shield".into(), 2)));
        assert_eq!(
            split_bonus("Chain Mail, +3"),
            Some(("Chain Mail".into(), 3))
        );
        assert_eq!(split_bonus("Longsword"), None);
        assert_eq!(split_bonus("Longsword +7"), None);
    }

    #[test]
    fn default_bases() {
        assert_eq!(
            default_base("Weapon (any sword), rare (requires attunement)"),
            Some("longsword")
        );
        assert_eq!(
            default_base("Armor (plate), very rare"),
            Some("plate-armor")
        );
        assert_eq!(default_base("Wondrous item, rare"), None);
    }
}
