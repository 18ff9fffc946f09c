//! Weapon attacks from the inventory: whether a character is proficient with a weapon, the
//! numbers of an attack with it (`roll_check` and the combat attack use them) and finding the
//! equipped weapon by name.

use serde::Serialize;
use tabletop_rules::Ability;
use tabletop_rules::modifiers::ModifierKind;
use tabletop_rules::stats::{Contribution, EffectiveStats};

use super::locate::{ItemRef, find};
use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::character::Character;
use crate::model::inventory::Item;
use crate::model::inventory::WeaponProperty;

/// Whether `c` is proficient with a weapon: from its derived sheet's proficiencies (by the
/// weapon's category or its base weapon), else from its SRD class; `None` when it cannot tell.
pub fn weapon_proficiency(call: &Call<'_>, c: &Character, item: &Item) -> Option<bool> {
    // A derived sheet knows every source's proficiencies (class, race, multiclass, feats).
    if let Some(d) = &c.derived {
        return crate::derive::gear::weapon_proficient(d, item);
    }
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
/// DEX; ranged: DEX; melee: STR; a monk weapon under Martial Arts: the better of STR and DEX;
/// `ability` may pick within what the weapon allows), magic bonuses, and the typed damage
/// expression (versatile dice when the off hand is free; the Martial Arts die when larger).
pub fn weapon_attack(
    c: &Character,
    stats: &EffectiveStats,
    item: &Item,
    proficient: bool,
    ability: Option<Ability>,
    off_hand: bool,
) -> Result<WeaponAttack> {
    let Some(w) = &item.weapon else {
        return Err(EngineError::invalid(
            "weapon",
            format!("{} is not a weapon", item.name),
        ));
    };
    let allowed: Vec<Ability> = if w.has(WeaponProperty::Finesse) {
        vec![Ability::Strength, Ability::Dexterity]
    } else if w.category.is_ranged() {
        vec![Ability::Dexterity]
    } else {
        vec![Ability::Strength]
    };
    // Martial Arts: a monk weapon may use DEX instead of STR, and roll the monk's die.
    let martial_arts = crate::model::gear::is_monk_weapon(item)
        .then(|| crate::model::gear::martial_arts(c))
        .flatten();
    let mut allowed = allowed;
    if martial_arts.is_some() && !allowed.contains(&Ability::Dexterity) {
        allowed.push(Ability::Dexterity);
    }
    let allowed = crate::magic::combat6::weapon_abilities(c, item, allowed);
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
        // The better of the abilities (Strength on a tie), e.g. Shillelagh's WIS.
        None => allowed
            .iter()
            .copied()
            .rev()
            .max_by_key(|a| stats.modifier(*a))
            .unwrap_or(Ability::Strength),
    };
    let m = stats.modifier(ability);
    let style = crate::derive::gear::weapon_style(c, item);
    let mut weapon_bonuses: Vec<Contribution> = match item.attack_bonus() {
        0 => vec![],
        n => vec![Contribution::new(&item.name, n)],
    };
    // Magic ammunition in the quiver (Arrow +1 for a bow) adds its bonus to the shot.
    let ammo = magic_ammunition(c, item);
    if let Some(a) = ammo.filter(|a| a.attack_bonus() != 0) {
        weapon_bonuses.push(Contribution::new(&a.name, a.attack_bonus()));
    }
    if let Some((n, src)) = &style.to_hit {
        weapon_bonuses.push(Contribution::new(src, *n));
    }
    let to_hit =
        m + if proficient {
            stats.proficiency_bonus
        } else {
            0
        } + weapon_bonuses.iter().map(|b| b.delta).sum::<i32>()
            + stats.attack.bonus;
    let two_handed = crate::derive::gear::two_handed(c, item);
    let thrown = w.has(WeaponProperty::Thrown) && !w.category.is_ranged();
    let parts = DamageParts {
        c,
        stats,
        item,
        ability,
        modifier: m,
        off_hand,
        martial_arts,
        style: &style,
        ammo,
    };
    // Thrown, a melee weapon makes a ranged weapon attack: one hand (no versatile die, no
    // Great Weapon Fighting) and nothing that needs a melee weapon attack (Rage).
    let damage = parts.expr(if two_handed {
        Grip::TwoHands
    } else {
        Grip::OneHand
    });
    let thrown_damage = thrown.then(|| parts.expr(Grip::Thrown));
    Ok(WeaponAttack {
        weapon: item.name.clone(),
        item_id: item.id.clone(),
        ability,
        proficient,
        weapon_bonuses,
        to_hit,
        damage,
        thrown_damage,
        two_handed,
    })
}

/// How a weapon is used for one attack: in melee with one hand or two, or thrown (a ranged
/// weapon attack with a melee weapon).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Grip {
    OneHand,
    TwoHands,
    Thrown,
}

/// What the damage expression of one weapon attack is made of.
struct DamageParts<'a> {
    c: &'a Character,
    stats: &'a EffectiveStats,
    item: &'a Item,
    ability: Ability,
    modifier: i32,
    off_hand: bool,
    martial_arts: Option<(u32, u32)>,
    style: &'a crate::model::gear::StyleEffects,
    ammo: Option<&'a Item>,
}

impl DamageParts<'_> {
    /// The typed damage expression with this grip.
    fn expr(&self, grip: Grip) -> String {
        let (c, item) = (self.c, self.item);
        let Some(w) = &item.weapon else {
            return String::new();
        };
        let dice = match (&w.versatile_damage, grip) {
            (Some(v), Grip::TwoHands) if w.has(WeaponProperty::Versatile) => v.clone(),
            _ => w.damage_dice.clone(),
        };
        let dice = if crate::magic::combat6::shillelagh(c, item) {
            "1d8".to_string()
        } else {
            dice
        };
        // Martial Arts: the monk's die in place of the weapon's when it is larger.
        let dice = match self.martial_arts {
            Some((n, faces)) if doubled_mean(&dice).is_some_and(|m| m < n * (faces + 1)) => {
                format!("{n}d{faces}")
            }
            _ => dice,
        };
        // Great Weapon Fighting: 1s and 2s rerolled once (a melee attack in two hands).
        let dice = if self.style.reroll_low && grip == Grip::TwoHands {
            crate::derive::gear::reroll_low(&dice)
        } else {
            dice
        };
        let t = w.damage_type;
        let mut expr = format!("{dice}[{t}]");
        // The bonus-action attack of two-weapon fighting adds no positive ability modifier to
        // damage; an Attack action with the weapon in the off hand adds it as any attack does.
        let m = self.modifier;
        let ability_dmg = if self.off_hand { m.min(0) } else { m };
        // A melee weapon attack using Strength (Rage's bonus): not a ranged one, thrown or not.
        let strength_melee =
            self.ability == Ability::Strength && !w.category.is_ranged() && grip != Grip::Thrown;
        let flat = ability_dmg
            + item.damage_bonus()
            + self.ammo.map_or(0, Item::damage_bonus)
            + archery_bracers(c, item)
            + crate::derive::gear::damage_bonus(self.stats, strength_melee)
            + self.style.damage.as_ref().map_or(0, |(n, _)| *n);
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
        for e in &self.stats.damage.extra_dice {
            expr.push_str(&format!(" + {}[{}]", e.dice, e.damage_type));
        }
        expr
    }
}

/// Twice the mean of plain dice "NdX" (an integer): 1d8 → 9; `None` for anything else.
fn doubled_mean(dice: &str) -> Option<u32> {
    let (n, faces) = dice.trim().split_once('d')?;
    let n: u32 = if n.is_empty() { 1 } else { n.parse().ok()? };
    let faces: u32 = faces.parse().ok()?;
    Some(n * (faces + 1))
}

/// The magic ammunition `c` has equipped (in the quiver) that `weapon` fires: arrows for a bow,
/// bolts for a crossbow, bullets for a sling, needles for a blowgun.
pub fn magic_ammunition<'c>(c: &'c Character, weapon: &Item) -> Option<&'c Item> {
    let w = weapon.weapon.as_ref()?;
    if !w.has(WeaponProperty::Ammunition) {
        return None;
    }
    let n = weapon.name.to_lowercase();
    let kind = if n.contains("crossbow") {
        "bolt"
    } else if n.contains("bow") {
        "arrow"
    } else if n.contains("sling") {
        "bullet"
    } else if n.contains("blowgun") {
        "needle"
    } else {
        return None;
    };
    c.inventory.items.iter().find(|i| {
        i.item_type == crate::model::inventory::ItemType::Ammunition
            && i.slot.is_some()
            && i.quantity > 0
            && i.name.to_lowercase().contains(kind)
            && (i.attack_bonus() != 0 || i.damage_bonus() != 0)
    })
}

/// Damage worn magic adds to attacks with a longbow or shortbow (Bracers of Archery +2).
fn archery_bracers(c: &Character, weapon: &Item) -> i32 {
    let n = weapon.name.to_lowercase();
    if !(n.contains("longbow") || n.contains("shortbow")) {
        return 0;
    }
    c.inventory
        .items
        .iter()
        .filter_map(|i| i.active_entry())
        .map(|e| e.bow_damage_bonus)
        .sum()
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

/// A weapon attack's numbers.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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
    /// The damage expression with types, e.g. `1d8[slashing] + 4[slashing]`, of a melee attack
    /// with a melee weapon (a ranged one with a ranged weapon).
    pub damage: String,
    /// A melee weapon with the thrown property: the damage expression when it is thrown (a
    /// ranged weapon attack: one hand, no bonus that needs a melee weapon attack).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub thrown_damage: Option<String>,
    /// Wielded in two hands (versatile dice).
    pub two_handed: bool,
}
