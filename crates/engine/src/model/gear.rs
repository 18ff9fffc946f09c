//! What a character's gear does with its derived proficiencies and fighting style: armor worn
//! without proficiency (disadvantage on STR and DEX checks, saves and attacks; no spellcasting),
//! weapon proficiency by the base weapon (a "Longsword +1" is a longsword), a Small creature's
//! disadvantage with a heavy weapon, a monk's Martial Arts with monk weapons, and the fighting
//! styles (Defense +1 AC in armor, Archery +2 to ranged attacks, Dueling +2 damage, Great Weapon
//! Fighting rerolls 1s and 2s, Two-Weapon Fighting adds the modifier to the off hand, Protection
//! as a reaction note).

use tabletop_rules::modifiers::{Modifier, ModifierKind, RollTarget};
use tabletop_rules::{Ability, Size};

use tabletop_rules::abilities::ability_modifier;
use tabletop_rules::stats::{ArmorClass, BaseStats, equipped_score_with_traits};

use crate::model::build::Derived;
use crate::model::character::Character;
use crate::model::inventory::{
    ArmorCategory, EquipmentLayer, Item, Slot, WeaponCategory, WeaponProperty,
};

/// A proficiency or item name in one form: lower case, hyphens as spaces, "Crossbow, light" as
/// "light crossbow", a plural last word made singular ("Longswords" → "longsword").
fn normal(name: &str) -> String {
    let lower = name.to_lowercase().replace(['-', '_'], " ");
    let lower = match lower.split_once(", ") {
        Some((a, b)) => format!("{} {}", b.trim(), a.trim()),
        None => lower,
    };
    let mut words: Vec<String> = lower.split_whitespace().map(str::to_string).collect();
    if let Some(last) = words.last_mut()
        && last.len() > 3
        && last.ends_with('s')
        && !last.ends_with("ss")
    {
        last.pop();
    }
    words.join(" ")
}

/// The heavy armor `c` wears ("Chain Mail"), if any.
pub fn heavy_armor_worn(c: &Character) -> Option<&str> {
    c.inventory
        .items
        .iter()
        .filter(|i| i.slot.is_some())
        .find(|i| {
            i.armor
                .as_ref()
                .is_some_and(|a| a.category == ArmorCategory::Heavy)
        })
        .map(|i| i.name.as_str())
}

/// What `c` holds in its hands, from its equipment slots: each item in the main or off hand
/// with the hand it is in ("main hand", "off hand") and how many hands it takes (a two-handed
/// weapon takes both; a versatile weapon one, the other hand letting go of it freely).
pub fn held_in_hands(c: &Character) -> Vec<(&str, &'static str, u8)> {
    [(Slot::Mainhand, "main hand"), (Slot::Offhand, "off hand")]
        .into_iter()
        .filter_map(|(slot, hand)| {
            let i = c.inventory.in_slot(slot)?;
            Some((i.name.as_str(), hand, if i.is_two_handed() { 2 } else { 1 }))
        })
        .collect()
}

/// Whether the sheet's proficiencies cover armor of `category`.
pub fn armor_proficient(d: &Derived, category: ArmorCategory) -> bool {
    d.proficiencies.iter().any(|p| {
        let n = normal(&p.value);
        match category {
            ArmorCategory::Shield => n == "shield",
            ArmorCategory::Light => n == "light armor" || n == "all armor",
            ArmorCategory::Medium => n == "medium armor" || n == "all armor",
            ArmorCategory::Heavy => n == "heavy armor" || n == "all armor",
        }
    })
}

/// Whether the sheet's proficiencies cover the weapon `item`: its category (simple, martial) or
/// its base weapon named in the item's name ("Longsword +1", "Flame Tongue Longsword").
pub fn weapon_proficient(d: &Derived, item: &Item) -> Option<bool> {
    let w = item.weapon.as_ref()?;
    if d.proficiencies.is_empty() {
        // A custom class with no proficiencies listed: the engine cannot tell.
        return None;
    }
    let kind = if w.category.is_martial() {
        "martial weapon"
    } else {
        "simple weapon"
    };
    let name = format!(" {} ", normal(item.name.split(" +").next().unwrap_or("")));
    let words: String = item
        .name
        .to_lowercase()
        .split_whitespace()
        .map(|w| format!(" {} ", normal(w)))
        .collect();
    Some(d.proficiencies.iter().any(|p| {
        let n = normal(&p.value);
        n == kind || name.contains(&format!(" {n} ")) || words.contains(&format!(" {n} "))
    }))
}

/// The armor `c` wears without proficiency ("Plate Armor"), if any. Armor whose magic makes its
/// wearer proficient with it (Elven Chain) is never worn without proficiency.
pub fn unproficient_armor(c: &Character) -> Option<String> {
    let d = c.derived.as_ref().filter(|d| !d.proficiencies.is_empty())?;
    c.inventory
        .items
        .iter()
        .filter(|i| i.slot.is_some())
        .filter(|i| {
            !i.active_entry()
                .is_some_and(|e| e.proficient_without_training)
        })
        .find(|i| {
            i.armor
                .as_ref()
                .is_some_and(|a| !armor_proficient(d, a.category))
        })
        .map(|i| i.name.clone())
}

/// Whether `item` is a monk weapon (SRD Monk, Martial Arts): a shortsword, or a simple melee
/// weapon without the two-handed or heavy property.
pub fn is_monk_weapon(item: &Item) -> bool {
    let Some(w) = &item.weapon else { return false };
    match w.category {
        WeaponCategory::SimpleMelee => {
            !w.has(WeaponProperty::TwoHanded) && !w.has(WeaponProperty::Heavy)
        }
        WeaponCategory::MartialMelee => item
            .name
            .to_lowercase()
            .split(|ch: char| !ch.is_alphanumeric())
            .any(|word| normal(word) == "shortsword"),
        _ => false,
    }
}

/// The Martial Arts die (count, faces) while Martial Arts applies to `c` (SRD Monk): it has the
/// feature, wears no armor, uses no shield, and wields nothing but monk weapons in its hands.
/// Its unarmed strikes and monk weapons may then use DEX instead of STR and roll this die in
/// place of their own.
pub fn martial_arts(c: &Character) -> Option<(u32, u32)> {
    let die = c.derived.as_ref()?.martial_arts?;
    let applies = c
        .inventory
        .items
        .iter()
        .filter(|i| i.slot.is_some())
        .all(|i| {
            i.armor.is_none()
                && (i.weapon.is_none()
                    || !matches!(i.slot, Some(Slot::Mainhand | Slot::Offhand))
                    || is_monk_weapon(i))
        });
    applies.then_some(die)
}

/// The fighting styles the sheet applies (keys such as "archery").
fn has_style(d: &Derived, style: &str) -> bool {
    d.fighting_styles.iter().any(|s| s == style)
}

/// The gear rules as modifiers of the traits layer: armor without proficiency and Defense.
pub fn gear_modifiers(c: &Character, d: &Derived, out: &mut Vec<Modifier>) {
    if let Some(armor) = unproficient_armor(c) {
        let src = format!("{armor} worn without proficiency");
        for a in [Ability::Strength, Ability::Dexterity] {
            for on in [
                RollTarget::AbilityChecks { ability: a },
                RollTarget::Save { ability: a },
            ] {
                out.push(Modifier::new(&src, ModifierKind::Disadvantage { on }));
            }
        }
        out.push(Modifier::new(
            &src,
            ModifierKind::Disadvantage {
                on: RollTarget::AttackRolls,
            },
        ));
        out.push(Modifier::new(
            &src,
            ModifierKind::Note {
                text: "can't cast spells while wearing armor without proficiency".into(),
            },
        ));
    }
    let body_armor = c
        .inventory
        .items
        .iter()
        .any(|i| i.slot.is_some() && i.is_body_armor());
    if body_armor && has_style(d, "defense") {
        out.push(Modifier::new(
            "Fighting Style: Defense (wearing armor)",
            ModifierKind::AcBonus { amount: 1 },
        ));
    }
}

/// What the fighting style and size do to one weapon attack.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StyleEffects {
    /// A bonus to the attack roll and its source.
    pub to_hit: Option<(i32, String)>,
    /// A bonus to the damage and its source.
    pub damage: Option<(i32, String)>,
    /// Damage dice reroll 1s and 2s once (Great Weapon Fighting).
    pub reroll_low: bool,
    /// Disadvantage and its source.
    pub disadvantage: Option<String>,
}

/// Whether `c` wields `item` in two hands: a two-handed weapon, or a versatile one in the main
/// hand with the off hand free, unless the Dueling style makes one hand the better grip (its +2
/// beats the versatile die's step of one on average).
pub fn two_handed(c: &Character, item: &Item) -> bool {
    let Some(w) = &item.weapon else { return false };
    item.is_two_handed()
        || (w.has(WeaponProperty::Versatile)
            && item.slot == Some(Slot::Mainhand)
            && c.inventory.in_slot(Slot::Offhand).is_none()
            && !c.derived.as_ref().is_some_and(|d| has_style(d, "dueling")))
}

/// The fighting-style and size rules for an attack by `c` with `item`.
pub fn weapon_style(c: &Character, item: &Item) -> StyleEffects {
    let mut s = StyleEffects::default();
    let Some(w) = &item.weapon else { return s };
    if matches!(c.size, Size::Tiny | Size::Small) && w.has(WeaponProperty::Heavy) {
        s.disadvantage = Some(format!("{} is heavy and {} is Small", item.name, c.name));
    }
    let Some(d) = c.derived.as_ref() else {
        return s;
    };
    if w.category.is_ranged() {
        if has_style(d, "archery") {
            s.to_hit = Some((2, "Fighting Style: Archery".into()));
        }
        return s;
    }
    let other_weapon = c
        .inventory
        .items
        .iter()
        .any(|i| i.slot.is_some() && i.weapon.is_some() && i.id != item.id);
    let two_hands = two_handed(c, item);
    if has_style(d, "dueling") && !other_weapon && !two_hands {
        s.damage = Some((2, "Fighting Style: Dueling".into()));
    }
    if has_style(d, "great-weapon-fighting") && two_hands {
        s.reroll_low = true;
    }
    s
}

/// `dice` ("2d6") with 1s and 2s rerolled once ("2d6ro<=2").
pub fn reroll_low(dice: &str) -> String {
    format!("{dice}ro<=2")
}

/// Damage bonuses that count only for melee weapon attacks using Strength (Rage).
const STRENGTH_MELEE_ONLY: &[&str] = &["rage"];

/// The sheet-wide damage bonus for one attack: a Strength-only melee bonus (Rage) counts only
/// when `strength_melee`.
pub fn damage_bonus(stats: &tabletop_rules::stats::EffectiveStats, strength_melee: bool) -> i32 {
    if strength_melee {
        return stats.damage.bonus;
    }
    stats
        .damage
        .sources
        .iter()
        .filter(|s| !STRENGTH_MELEE_ONLY.contains(&s.source.to_lowercase().as_str()))
        .map(|s| s.delta)
        .sum()
}

/// The save advantage a [`crate::catalog::Grant::SeenSaveAdvantage`] records on the derived
/// sheet: "DEX effects it can see" (Danger Sense).
pub fn seen_effects(ability: Ability) -> String {
    format!("{} {SEEN_EFFECTS}", ability.abbr())
}

const SEEN_EFFECTS: &str = "effects it can see";

/// Whether `c` can make use of an advantage against effects it sees (Danger Sense): not while
/// blinded, deafened or incapacitated. The engine does not track what a creature sees: a trap,
/// spell or area effect that calls for the save is assumed seen unless the bearer is blinded
/// (nor does it model a hidden or invisible source here).
fn sees_danger(c: &Character) -> bool {
    use tabletop_rules::Condition;
    !c.has_condition(Condition::Blinded)
        && !c.has_condition(Condition::Deafened)
        && !c.effective().is_incapacitated()
}

/// The advantages `c`'s traits give on a save of `ability` against a spell or effect that
/// imposes `condition` or deals `damage` (`magic`: a spell): Dwarven Resilience (poison),
/// Fey Ancestry (charmed), Brave (frightened), Gnome Cunning (INT, WIS and CHA saves against
/// magic), Danger Sense (DEX saves against effects it can see, see [`sees_danger`]). Each is
/// "source: against".
pub fn save_advantages(
    c: &Character,
    ability: Ability,
    condition: Option<tabletop_rules::Condition>,
    damage: Option<tabletop_rules::DamageType>,
    magic: bool,
) -> Vec<String> {
    use tabletop_rules::{Condition, DamageType};
    // Worn magic items' (Mantle of Spell Resistance: every save against a spell).
    let items = c.inventory.items.iter().filter_map(|i| {
        let e = i.active_entry()?;
        Some(
            e.save_advantages
                .iter()
                .map(move |a| (i.name.clone(), a.clone())),
        )
    });
    let derived = c
        .derived
        .iter()
        .flat_map(|d| d.save_advantages.iter())
        .map(|s| (s.source.clone(), s.value.clone()));
    // A stat block's Fey Ancestry ("advantage on saving throws against being charmed").
    let block = c
        .stat_block
        .iter()
        .flat_map(|sb| sb.special_abilities.iter())
        .filter(|a| {
            a.desc
                .to_lowercase()
                .contains("advantage on saving throws against being charmed")
        })
        .map(|a| (a.name.clone(), "charmed".to_string()));
    derived
        .chain(items.flatten())
        .chain(block)
        .filter(|(_, value)| {
            let a = value.to_lowercase();
            match a.as_str() {
                "spells" => magic,
                "poison" => {
                    damage == Some(DamageType::Poison) || condition == Some(Condition::Poisoned)
                }
                "charmed" => condition == Some(Condition::Charmed),
                "frightened" => condition == Some(Condition::Frightened),
                _ if a.ends_with(SEEN_EFFECTS) => {
                    a.starts_with(&ability.abbr().to_lowercase()) && sees_danger(c)
                }
                _ if a.starts_with("magic") => {
                    magic
                        && matches!(
                            ability,
                            Ability::Intelligence | Ability::Wisdom | Ability::Charisma
                        )
                }
                _ => false,
            }
        })
        .map(|(source, value)| format!("{source}: {value}"))
        .collect()
}

/// The armor-dependent parts of a derived sheet, applied to the effective-stats inputs: with no
/// armor worn the best AC formula (by the equipped scores; Unarmored Defense of a monk only
/// without a shield), speed bonuses that need no armor or no heavy armor, and heavy armor's
/// Strength rule lifted for dwarves. The traits layer gets the derived defences, gear and speed
/// rules; the derived `modifiers` are not copied into it: they go first, passed to the pipeline
/// apart (`effective_stats_with_traits`, as `Character::effective` does).
pub fn sheet_layer(c: &Character, base: &mut BaseStats, gear: &mut EquipmentLayer) {
    let Some(d) = &c.derived else { return };
    gear_modifiers(c, d, &mut base.traits);
    // Defences with their sources rather than as bare "base" values.
    base.resistances.clear();
    base.immunities.clear();
    base.vulnerabilities.clear();
    base.condition_immunities.clear();
    for r in &d.resistances {
        let kind = ModifierKind::Resistance {
            damage_type: Some(r.value),
        };
        base.traits.push(Modifier::new(&r.source, kind));
    }
    for r in &d.immunities {
        let kind = ModifierKind::Immunity {
            damage_type: Some(r.value),
        };
        base.traits.push(Modifier::new(&r.source, kind));
    }
    for r in &d.vulnerabilities {
        let kind = ModifierKind::Vulnerability {
            damage_type: Some(r.value),
        };
        base.traits.push(Modifier::new(&r.source, kind));
    }
    for r in &d.condition_immunities {
        base.traits.push(Modifier::new(
            &r.source,
            ModifierKind::ConditionImmunity { condition: r.value },
        ));
    }
    let worn: Vec<ArmorCategory> = c
        .inventory
        .items
        .iter()
        .filter(|i| i.slot.is_some())
        .filter_map(|i| i.armor.as_ref().map(|a| a.category))
        .collect();
    let shield = worn.contains(&ArmorCategory::Shield);
    let body = worn.iter().any(|k| *k != ArmorCategory::Shield);
    let heavy = worn.contains(&ArmorCategory::Heavy);
    if gear.armor_class.is_none() && d.armor_class_override.is_none() {
        let mods = &gear.modifiers;
        let score = |a: Ability| equipped_score_with_traits(&d.modifiers, base, mods, a);
        if let Some(best) = d
            .ac_formulas
            .iter()
            .filter(|f| f.shield || !shield)
            .max_by_key(|f| formula_ac(f, score))
        {
            gear.armor_class = Some(ArmorClass {
                value: formula_ac(best, score),
                source: best.source.clone(),
            });
        }
    }
    for r in &d.speed_rules {
        let applies = (!r.unarmored || (!body && !shield)) && (!r.no_heavy_armor || !heavy);
        if applies {
            base.traits.push(Modifier::new(
                &r.source,
                ModifierKind::SpeedBonus { feet: r.feet },
            ));
        }
    }
    if !d.ignore_heavy_armor_speed.is_empty() {
        gear.modifiers.retain(|m| {
            !(matches!(m.kind, ModifierKind::SpeedBonus { .. }) && m.source.contains("(needs STR"))
        });
    }
}

/// The unarmored AC a formula gives with these scores.
pub fn formula_ac(f: &crate::model::build::AcFormula, score: impl Fn(Ability) -> u8) -> i32 {
    f.base
        + f.abilities
            .iter()
            .map(|a| ability_modifier(score(*a)))
            .sum::<i32>()
}
