//! Item definitions as a caller gives them (`give` with a custom item): mechanical effects named
//! as the inventory design names them, checked and turned into typed rules modifiers.

use std::collections::BTreeMap;

use tabletop_rules::dice::{self};
use tabletop_rules::modifiers::{DiceCount, ModifierKind, RollTarget};
use tabletop_rules::{Ability, Condition, DamageType, Skill};

use crate::error::{EngineError, Result};
use crate::model::inventory::{Charges, Item, WeaponStats};
use crate::model::inventory::{ItemType, Rarity};

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
    pub(crate) fn build(self) -> Result<Item> {
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
            lasts_rounds: None,
            srd: None,
            inside: None,
            state: None,
        })
    }
}
