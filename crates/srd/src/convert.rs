//! Converting raw 5e-database records ([`crate::raw`]) into the typed records of
//! [`crate::model`]: references, save DCs, spells, monster actions, equipment and magic items.
//! Every failure names the file and the JSON path of the value ([`Ctx`]).

use std::path::{Path, PathBuf};
use std::str::FromStr;

use tabletop_rules::{Ability, Condition, DamageType, Size, Skill};

use crate::error::SrdError;
use crate::model::*;
use crate::raw::*;

/// Where a conversion error happened.
pub(crate) struct Ctx {
    pub(crate) file: PathBuf,
}

impl Ctx {
    pub(crate) fn err(&self, path: impl Into<String>, message: impl Into<String>) -> SrdError {
        SrdError::Malformed {
            file: self.file.clone(),
            path: path.into(),
            message: message.into(),
        }
    }
    pub(crate) fn parse<T: FromStr>(&self, path: impl Into<String>, s: &str) -> Result<T, SrdError>
    where
        T::Err: std::fmt::Display,
    {
        T::from_str(s).map_err(|e| self.err(path, e.to_string()))
    }
}

pub(crate) fn r(x: RawRef) -> Ref {
    Ref {
        index: x.index,
        name: x.name,
    }
}

pub(crate) fn refs(x: Vec<RawRef>) -> Vec<Ref> {
    x.into_iter().map(r).collect()
}

/// Leading integer of "30 ft.".
pub(crate) fn feet(s: &str) -> Option<u32> {
    let digits: &str = &s[..s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len())];
    digits.parse().ok()
}

pub(crate) fn save_effect(s: Option<&str>) -> SaveEffect {
    match s {
        Some("half") => SaveEffect::Half,
        Some("none") => SaveEffect::None,
        _ => SaveEffect::Other,
    }
}

pub(crate) fn ctx(dir: &Path, file: &str) -> Ctx {
    Ctx {
        file: dir.join(file),
    }
}

pub(crate) fn ability_of(
    c: &Ctx,
    path: impl Into<String>,
    x: &RawRef,
) -> Result<Ability, SrdError> {
    c.parse(path, &x.index)
}

pub(crate) fn damage_type_of(
    c: &Ctx,
    path: impl Into<String>,
    x: &RawRef,
) -> Result<DamageType, SrdError> {
    c.parse(path, &x.index)
}

pub(crate) fn bonuses(
    c: &Ctx,
    path: &str,
    raw: &[RawAbilityBonus],
) -> Result<Vec<(Ability, i32)>, SrdError> {
    raw.iter()
        .enumerate()
        .map(|(j, b)| {
            Ok((
                ability_of(
                    c,
                    format!("{path}[{j}].ability_score.index"),
                    &b.ability_score,
                )?,
                b.bonus,
            ))
        })
        .collect()
}

/// Full, half, third, pact or none, from the base rows of a class's level table.
pub(crate) fn caster_kind<'a>(rows: impl Iterator<Item = &'a ClassLevel>) -> CasterKind {
    let mut max_slot_level = 0usize;
    let mut max_distinct = 0usize;
    let mut first_level_has_slots = false;
    for row in rows {
        let distinct = row.spell_slots.iter().filter(|n| **n > 0).count();
        max_distinct = max_distinct.max(distinct);
        if let Some(top) = row.spell_slots.iter().rposition(|n| *n > 0) {
            max_slot_level = max_slot_level.max(top + 1);
            if row.level == 1 {
                first_level_has_slots = true;
            }
        }
    }
    match (max_slot_level, max_distinct) {
        (0, _) => CasterKind::None,
        (_, 1) if max_slot_level > 1 && first_level_has_slots => CasterKind::Pact,
        (6..=9, _) => CasterKind::Full,
        (5, _) => CasterKind::Half,
        _ => CasterKind::Third,
    }
}

/// An area of effect ("cone", 15).
pub(crate) fn area_of(c: &Ctx, path: String, a: &RawArea) -> Result<AreaOfEffect, SrdError> {
    Ok(AreaOfEffect {
        shape: match a.kind.as_str() {
            "sphere" => AreaShape::Sphere,
            "cone" => AreaShape::Cone,
            "cube" => AreaShape::Cube,
            "cylinder" => AreaShape::Cylinder,
            "line" => AreaShape::Line,
            other => {
                return Err(c.err(
                    path,
                    format!(
                        "unknown area shape '{other}'; allowed: sphere, cone, cube, cylinder, line"
                    ),
                ));
            }
        },
        size: a.size,
    })
}

/// The breath weapon of trait `i` (a draconic ancestry): area, save and damage are required.
pub(crate) fn breath_of(c: &Ctx, i: usize, b: RawBreath) -> Result<TraitBreath, SrdError> {
    let at = format!("[{i}].trait_specific.breath_weapon");
    let area = b.area_of_effect.as_ref().ok_or_else(|| {
        c.err(
            format!("{at}.area_of_effect"),
            "a breath weapon needs an area",
        )
    })?;
    let dc =
        b.dc.as_ref()
            .ok_or_else(|| c.err(format!("{at}.dc"), "a breath weapon needs a save"))?;
    let damage = b
        .damage
        .into_iter()
        .next()
        .ok_or_else(|| c.err(format!("{at}.damage"), "a breath weapon needs damage"))?;
    let kind = damage
        .damage_type
        .as_ref()
        .ok_or_else(|| c.err(format!("{at}.damage[0].damage_type"), "no damage type"))?;
    Ok(TraitBreath {
        name: b.name,
        area: area_of(c, format!("{at}.area_of_effect.type"), area)?,
        save: ability_of(c, format!("{at}.dc.dc_type.index"), &dc.dc_type)?,
        success: save_effect(dc.success_type.as_deref()),
        damage_type: damage_type_of(c, format!("{at}.damage[0].damage_type.index"), kind)?,
        at_character_level: damage.damage_at_character_level,
    })
}

pub(crate) fn convert_spells(c: &Ctx, raw: Vec<RawSpell>) -> Result<Vec<Spell>, SrdError> {
    let mut out = Vec::with_capacity(raw.len());
    for (i, x) in raw.into_iter().enumerate() {
        let damage = match x.damage {
            Some(d) => Some(SpellDamage {
                damage_type: match &d.damage_type {
                    Some(t) => Some(damage_type_of(
                        c,
                        format!("[{i}].damage.damage_type.index"),
                        t,
                    )?),
                    None => None,
                },
                at_slot_level: d.damage_at_slot_level,
                at_character_level: d.damage_at_character_level,
            }),
            None => None,
        };
        let dc = match x.dc {
            Some(d) => Some(SpellSave {
                ability: ability_of(c, format!("[{i}].dc.dc_type.index"), &d.dc_type)?,
                success: save_effect(Some(d.dc_success.as_str())),
                desc: d.desc,
            }),
            None => None,
        };
        let area_of_effect = match x.area_of_effect {
            Some(a) => Some(area_of(c, format!("[{i}].area_of_effect.type"), &a)?),
            None => None,
        };
        let attack_type = match x.attack_type.as_deref() {
            None => None,
            Some("melee") => Some(AttackRange::Melee),
            Some("ranged") => Some(AttackRange::Ranged),
            Some(other) => {
                return Err(c.err(
                    format!("[{i}].attack_type"),
                    format!("unknown attack type '{other}'; allowed: melee, ranged"),
                ));
            }
        };
        out.push(Spell {
            index: x.index,
            name: x.name,
            level: x.level,
            school: r(x.school),
            casting_time: x.casting_time,
            range: x.range,
            components: x.components,
            material: x.material,
            duration: x.duration,
            concentration: x.concentration,
            ritual: x.ritual,
            classes: refs(x.classes),
            subclasses: refs(x.subclasses),
            desc: x.desc,
            higher_level: x.higher_level,
            damage,
            heal_at_slot_level: x.heal_at_slot_level,
            dc,
            area_of_effect,
            attack_type,
        });
    }
    Ok(out)
}

pub(crate) fn save_dc(c: &Ctx, path: &str, d: &RawDc) -> Result<SaveDc, SrdError> {
    Ok(SaveDc {
        ability: ability_of(c, format!("{path}.dc_type.index"), &d.dc_type)?,
        value: d.dc_value,
        success: save_effect(d.success_type.as_deref()),
    })
}

pub(crate) fn opt_dc(c: &Ctx, path: &str, d: &Option<RawDc>) -> Result<Option<SaveDc>, SrdError> {
    d.as_ref()
        .map(|d| save_dc(c, &format!("{path}.dc"), d))
        .transpose()
}

pub(crate) fn usage(u: RawUsage) -> Usage {
    Usage {
        kind: u.kind,
        times: u.times,
        dice: u.dice,
        min_value: u.min_value,
        rest_types: u.rest_types,
    }
}

pub(crate) fn step(s: RawMultiStep) -> MultiattackStep {
    let (count, count_text) = match s.count {
        IntOrText::Int(n) => (n, None),
        IntOrText::Text(t) => (t.parse().unwrap_or(0), Some(t)),
    };
    MultiattackStep {
        action_name: s.action_name,
        count,
        count_text,
        kind: s.kind,
    }
}

pub(crate) fn damage_entry(
    c: &Ctx,
    path: &str,
    d: &RawDamage,
) -> Result<Option<ActionDamage>, SrdError> {
    let Some(dice) = &d.damage_dice else {
        return Ok(None);
    };
    Ok(Some(ActionDamage {
        damage_type: match &d.damage_type {
            Some(t) => Some(damage_type_of(c, format!("{path}.damage_type.index"), t)?),
            None => None,
        },
        damage_dice: dice.clone(),
        dc: opt_dc(c, path, &d.dc)?,
        notes: d.notes.clone(),
    }))
}

pub(crate) fn damages(
    c: &Ctx,
    path: &str,
    raw: &[RawDamage],
) -> Result<(Vec<ActionDamage>, Vec<DamageChoice>), SrdError> {
    let mut plain = Vec::new();
    let mut choices = Vec::new();
    for (j, d) in raw.iter().enumerate() {
        let p = format!("{path}[{j}]");
        if let Some(e) = damage_entry(c, &p, d)? {
            plain.push(e);
        } else if let Some(from) = &d.from {
            let mut options = Vec::new();
            for (k, o) in from.options.iter().enumerate() {
                if let Some(e) = damage_entry(c, &format!("{p}.from.options[{k}]"), o)? {
                    options.push(e);
                }
            }
            choices.push(DamageChoice {
                choose: d.choose.unwrap_or(1),
                options,
            });
        }
    }
    Ok((plain, choices))
}

pub(crate) fn convert_action(c: &Ctx, path: &str, x: RawAction) -> Result<MonsterAction, SrdError> {
    let (damage, damage_choices) = damages(c, &format!("{path}.damage"), &x.damage)?;
    let dc = opt_dc(c, path, &x.dc)?;
    let multiattack =
        if x.multiattack_type.is_some() || !x.actions.is_empty() || x.action_options.is_some() {
            let (options, choose) = match x.action_options {
                Some(o) => (
                    o.from
                        .options
                        .into_iter()
                        .map(|opt| {
                            if opt.items.is_empty() {
                                opt.action_name
                                    .map(|n| {
                                        vec![step(RawMultiStep {
                                            action_name: n,
                                            count: opt.count.unwrap_or(IntOrText::Int(1)),
                                            kind: opt.kind,
                                        })]
                                    })
                                    .unwrap_or_default()
                            } else {
                                opt.items.into_iter().map(step).collect()
                            }
                        })
                        .collect(),
                    o.choose,
                ),
                None => (Vec::new(), 0),
            };
            Some(Multiattack {
                actions: x.actions.into_iter().map(step).collect(),
                options,
                choose,
            })
        } else {
            None
        };
    let mut options = Vec::new();
    let mut options_choose = 0;
    let mut add_options = |list: Vec<RawActionOption>, base: String| -> Result<(), SrdError> {
        for (k, o) in list.into_iter().enumerate() {
            let p = format!("{base}[{k}]");
            let (dmg, _) = damages(c, &format!("{p}.damage"), &o.damage)?;
            options.push(ActionOption {
                dc: opt_dc(c, &p, &o.dc)?,
                name: o.name,
                damage: dmg,
            });
        }
        Ok(())
    };
    if let Some(o) = x.options {
        options_choose = o.choose;
        add_options(o.from.options, format!("{path}.options.from.options"))?;
    }
    if !x.attacks.is_empty() {
        add_options(x.attacks, format!("{path}.attacks"))?;
    }
    let spellcasting = match x.spellcasting {
        Some(s) => Some(MonsterSpellcasting {
            ability: ability_of(c, format!("{path}.spellcasting.ability.index"), &s.ability)?,
            dc: s.dc,
            modifier: s.modifier,
            level: s.level,
            slots: s.slots,
            spells: s
                .spells
                .into_iter()
                .map(|sp| MonsterSpell {
                    name: sp.name,
                    level: sp.level,
                    usage: sp.usage.map(usage),
                    notes: sp.notes,
                })
                .collect(),
        }),
        None => None,
    };
    Ok(MonsterAction {
        name: x.name,
        desc: x.desc.join("\n"),
        attack_bonus: x.attack_bonus,
        damage,
        damage_choices,
        dc,
        usage: x.usage.map(usage),
        multiattack,
        options,
        options_choose,
        spellcasting,
    })
}

pub(crate) fn convert_actions(
    c: &Ctx,
    path: String,
    v: Vec<RawAction>,
) -> Result<Vec<MonsterAction>, SrdError> {
    v.into_iter()
        .enumerate()
        .map(|(j, a)| convert_action(c, &format!("{path}[{j}]"), a))
        .collect()
}

pub(crate) fn plain_types(v: &[String]) -> Vec<DamageType> {
    v.iter()
        .filter_map(|s| DamageType::from_str(s).ok())
        .collect()
}

pub(crate) fn convert_monsters(c: &Ctx, raw: Vec<RawMonster>) -> Result<Vec<Monster>, SrdError> {
    let mut out = Vec::with_capacity(raw.len());
    for (i, x) in raw.into_iter().enumerate() {
        let size = c.parse::<Size>(format!("[{i}].size"), &x.size)?;
        let mut saving_throws = Vec::new();
        let mut skills = Vec::new();
        for (j, p) in x.proficiencies.iter().enumerate() {
            let path = || format!("[{i}].proficiencies[{j}].proficiency.index");
            if let Some(a) = p.proficiency.index.strip_prefix("saving-throw-") {
                saving_throws.push((c.parse::<Ability>(path(), a)?, p.value));
            } else if let Some(s) = p.proficiency.index.strip_prefix("skill-") {
                skills.push((c.parse::<Skill>(path(), s)?, p.value));
            }
        }
        let condition_immunities = x
            .condition_immunities
            .iter()
            .enumerate()
            .map(|(j, ci)| {
                c.parse::<Condition>(format!("[{i}].condition_immunities[{j}].index"), &ci.index)
            })
            .collect::<Result<Vec<_>, _>>()?;
        let armor_class = x
            .armor_class
            .into_iter()
            .map(|a| ArmorClass {
                value: a.value,
                kind: a.kind,
                source: a
                    .armor
                    .into_iter()
                    .map(|r| r.name)
                    .chain(a.spell.map(|s| s.name))
                    .chain(a.condition.map(|s| s.name))
                    .collect(),
                desc: a.desc,
            })
            .collect();
        let sp = &x.speed;
        let f = |s: &Option<String>| s.as_deref().and_then(feet);
        let speed = Speed {
            walk: f(&sp.walk),
            fly: f(&sp.fly),
            swim: f(&sp.swim),
            climb: f(&sp.climb),
            burrow: f(&sp.burrow),
            hover: sp.hover,
        };
        out.push(Monster {
            size,
            creature_type: x.kind,
            subtype: x.subtype,
            alignment: x.alignment,
            armor_class,
            hit_points: x.hit_points,
            hit_dice: x.hit_dice,
            hit_points_roll: x.hit_points_roll,
            speed,
            scores: AbilityScores {
                strength: x.strength,
                dexterity: x.dexterity,
                constitution: x.constitution,
                intelligence: x.intelligence,
                wisdom: x.wisdom,
                charisma: x.charisma,
            },
            saving_throws,
            skills,
            vulnerable_to: plain_types(&x.damage_vulnerabilities),
            resistant_to: plain_types(&x.damage_resistances),
            immune_to: plain_types(&x.damage_immunities),
            damage_vulnerabilities: x.damage_vulnerabilities,
            damage_resistances: x.damage_resistances,
            damage_immunities: x.damage_immunities,
            condition_immunities,
            senses: Senses {
                blindsight: x.senses.blindsight,
                darkvision: x.senses.darkvision,
                tremorsense: x.senses.tremorsense,
                truesight: x.senses.truesight,
                passive_perception: x.senses.passive_perception,
            },
            languages: x.languages,
            challenge_rating: x.challenge_rating,
            proficiency_bonus: x.proficiency_bonus,
            xp: x.xp,
            special_abilities: convert_actions(
                c,
                format!("[{i}].special_abilities"),
                x.special_abilities,
            )?,
            actions: convert_actions(c, format!("[{i}].actions"), x.actions)?,
            legendary_actions: convert_actions(
                c,
                format!("[{i}].legendary_actions"),
                x.legendary_actions,
            )?,
            reactions: convert_actions(c, format!("[{i}].reactions"), x.reactions)?,
            desc: x.desc,
            index: x.index,
            name: x.name,
        });
    }
    Ok(out)
}

pub(crate) fn dice(c: &Ctx, path: String, d: Option<RawDice>) -> Result<Option<Dice>, SrdError> {
    let Some(d) = d else { return Ok(None) };
    Ok(Some(Dice {
        damage_type: match &d.damage_type {
            Some(t) => Some(damage_type_of(c, format!("{path}.damage_type.index"), t)?),
            None => None,
        },
        dice: d.damage_dice,
    }))
}

pub(crate) fn convert_equipment(
    c: &Ctx,
    raw: Vec<RawEquipment>,
) -> Result<Vec<Equipment>, SrdError> {
    let mut out = Vec::with_capacity(raw.len());
    for (i, x) in raw.into_iter().enumerate() {
        let cats: Vec<&str> = x
            .equipment_categories
            .iter()
            .map(|r| r.index.as_str())
            .collect();
        let has = |k: &str| cats.contains(&k);
        // 2014 names the category and weapon class directly; 2024 lists categories.
        let weapon_category = match x.weapon_category.as_deref() {
            Some(s) => Some(s.to_ascii_lowercase()),
            None if has("simple-weapons") => Some("simple".into()),
            None if has("martial-weapons") => Some("martial".into()),
            None => None,
        };
        let weapon = match weapon_category.as_deref() {
            Some(wc) => {
                let category = match wc {
                    "simple" => WeaponCategory::Simple,
                    "martial" => WeaponCategory::Martial,
                    other => {
                        return Err(c.err(
                            format!("[{i}].weapon_category"),
                            format!("unknown weapon category '{other}'; allowed: Simple, Martial"),
                        ));
                    }
                };
                let ranged = match x.weapon_range.as_deref() {
                    Some(s) => s.eq_ignore_ascii_case("ranged"),
                    None => has("ranged-weapons"),
                };
                let range = x.range.as_ref();
                Some(Weapon {
                    category,
                    range_kind: if ranged {
                        AttackRange::Ranged
                    } else {
                        AttackRange::Melee
                    },
                    normal_range: range.and_then(|r| r.normal).unwrap_or(5),
                    long_range: range.and_then(|r| r.long),
                    throw_range: x
                        .throw_range
                        .as_ref()
                        .and_then(|t| Some((t.normal?, t.long?))),
                    damage: dice(c, format!("[{i}].damage"), x.damage)?,
                    two_handed_damage: dice(
                        c,
                        format!("[{i}].two_handed_damage"),
                        x.two_handed_damage,
                    )?,
                    properties: refs(x.properties),
                    mastery: x.mastery.map(r),
                    special: x.special,
                })
            }
            None => None,
        };
        let armor_category = match x.armor_category.as_deref() {
            Some(s) => Some(s.to_ascii_lowercase()),
            None if has("light-armor") => Some("light".into()),
            None if has("medium-armor") => Some("medium".into()),
            None if has("heavy-armor") => Some("heavy".into()),
            None if has("shields") => Some("shield".into()),
            None => None,
        };
        let armor = match (armor_category.as_deref(), &x.armor_class) {
            (Some(cat), Some(ac)) => Some(Armor {
                category: match cat {
                    "light" => ArmorCategory::Light,
                    "medium" => ArmorCategory::Medium,
                    "heavy" => ArmorCategory::Heavy,
                    "shield" | "shields" => ArmorCategory::Shield,
                    other => {
                        return Err(c.err(
                            format!("[{i}].armor_category"),
                            format!("unknown armor category '{other}'; allowed: Light, Medium, Heavy, Shield"),
                        ));
                    }
                },
                base_ac: ac.base,
                dex_bonus: ac.dex_bonus,
                max_dex_bonus: ac.max_bonus,
                str_minimum: x.str_minimum.unwrap_or(0),
                stealth_disadvantage: x.stealth_disadvantage.unwrap_or(false),
            }),
            _ => None,
        };
        let category = match x.equipment_category {
            Some(cat) => r(cat),
            None => {
                // 2024: the broadest category listed ("weapons", "armor", "adventuring-gear", …).
                let pick = [
                    "weapons",
                    "armor",
                    "tools",
                    "adventuring-gear",
                    "mounts-and-vehicles",
                ]
                .iter()
                .find_map(|k| x.equipment_categories.iter().find(|r| r.index == *k))
                .or_else(|| x.equipment_categories.last());
                match pick {
                    Some(p) => Ref {
                        index: p.index.clone(),
                        name: p.name.clone(),
                    },
                    None => {
                        return Err(c.err(
                            format!("[{i}].equipment_category"),
                            "missing field `equipment_category`",
                        ));
                    }
                }
            }
        };
        out.push(Equipment {
            index: x.index,
            name: x.name,
            category,
            subcategory: x
                .gear_category
                .map(|g| g.name)
                .or(x.tool_category)
                .or(x.vehicle_category),
            cost: x.cost.map(|c| Cost {
                quantity: c.quantity,
                unit: c.unit,
            }),
            weight: x.weight,
            weapon,
            armor,
            quantity: x.quantity,
            contents: x
                .contents
                .into_iter()
                .map(|c| (r(c.item), c.quantity))
                .collect(),
            desc: x.desc,
        });
    }
    Ok(out)
}

/// "(requires attunement by a wizard)" in the first line of a 2014 magic item.
pub(crate) fn attunement(desc: &[String]) -> (bool, Option<String>) {
    let Some(first) = desc.first() else {
        return (false, None);
    };
    let lower = first.to_ascii_lowercase();
    let Some(pos) = lower.find("requires attunement") else {
        return (false, None);
    };
    let rest = &first[pos + "requires attunement".len()..];
    let note = rest.split(')').next().unwrap_or("").trim();
    (
        true,
        if note.is_empty() {
            None
        } else {
            Some(note.to_string())
        },
    )
}

pub(crate) fn convert_magic_item(x: RawMagicItem) -> MagicItem {
    let (parsed, note) = attunement(&x.desc);
    MagicItem {
        requires_attunement: x.attunement.unwrap_or(parsed),
        attunement_note: note,
        index: x.index,
        name: x.name,
        category: r(x.equipment_category),
        rarity: x.rarity.name,
        variants: refs(x.variants),
        is_variant: x.variant,
        desc: x.desc,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn feet_reads_leading_number() {
        assert_eq!(feet("30 ft."), Some(30));
        assert_eq!(feet("0 ft."), Some(0));
        assert_eq!(feet("ft."), None);
    }

    #[test]
    fn attunement_is_parsed_from_first_line() {
        let d = vec!["Ring, rare (requires attunement)".to_string()];
        assert_eq!(attunement(&d), (true, None));
        let d = vec![
            "Staff, rare (requires attunement by a druid, sorcerer, warlock, or wizard)"
                .to_string(),
        ];
        assert_eq!(
            attunement(&d),
            (
                true,
                Some("by a druid, sorcerer, warlock, or wizard".to_string())
            )
        );
        let d = vec!["Wondrous item, uncommon".to_string()];
        assert_eq!(attunement(&d), (false, None));
    }

    fn row(level: u8, slots: [u8; 9]) -> ClassLevel {
        ClassLevel {
            index: String::new(),
            class: "x".into(),
            subclass: None,
            level,
            prof_bonus: Some(2),
            ability_score_bonuses: Some(0),
            spell_slots: slots,
            pact_slots: None,
            cantrips_known: None,
            spells_known: None,
            features: Vec::new(),
            class_specific: Default::default(),
        }
    }

    #[test]
    fn caster_kind_is_derived_from_slots() {
        let full = [
            row(1, [2, 0, 0, 0, 0, 0, 0, 0, 0]),
            row(17, [4, 3, 3, 3, 2, 1, 1, 1, 1]),
        ];
        assert_eq!(caster_kind(full.iter()), CasterKind::Full);
        let half = [
            row(1, [0; 9]),
            row(2, [2, 0, 0, 0, 0, 0, 0, 0, 0]),
            row(17, [4, 3, 3, 3, 1, 0, 0, 0, 0]),
        ];
        assert_eq!(caster_kind(half.iter()), CasterKind::Half);
        let pact = [
            row(1, [1, 0, 0, 0, 0, 0, 0, 0, 0]),
            row(3, [0, 2, 0, 0, 0, 0, 0, 0, 0]),
        ];
        assert_eq!(caster_kind(pact.iter()), CasterKind::Pact);
        let third = [
            row(3, [2, 0, 0, 0, 0, 0, 0, 0, 0]),
            row(19, [4, 3, 3, 1, 0, 0, 0, 0, 0]),
        ];
        assert_eq!(caster_kind(third.iter()), CasterKind::Third);
        assert_eq!(caster_kind([row(1, [0; 9])].iter()), CasterKind::None);
    }
}
