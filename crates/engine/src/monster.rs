//! Characters made from SRD stat blocks (`create_character {fromMonster}`): the sheet's fields
//! from the monster, proficiencies derived from its bonuses, and the stat block kept whole.

use std::collections::{BTreeMap, BTreeSet};

use tabletop_rules::abilities::{AbilityScores, ProficiencyLevel};
use tabletop_rules::{Ability, CharacterType};
use tabletop_srd::{EntryKind, Lookup, Monster, MonsterAction, SaveDc, SaveEffect, Usage, cr_text};

use crate::creation::{CreateMode, CreateOutcome, CreateRequest};
use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::character::{
    Character, MultiattackPart, StatAction, StatAlternative, StatBlock, StatDamage, StatDc,
};

/// Builds an NPC or enemy from the SRD monster `req.from_monster` (fuzzy name); stores it unless
/// previewing or validating. Only name, type, notes and the mode may be given beside it.
pub fn create_from_monster(call: &mut Call<'_>, req: CreateRequest) -> Result<CreateOutcome> {
    let given = req.from_monster.clone().unwrap_or_default();
    let given = given.trim();
    if given.is_empty() {
        return Err(EngineError::invalid(
            "fromMonster",
            "name an SRD monster, e.g. \"goblin\"",
        ));
    }
    reject_build_fields(&req)?;
    let (monster, note) = lookup(call, given, "fromMonster")?;
    let mut derivations: Vec<String> = note.into_iter().collect();
    let name = match req.name.trim() {
        "" => monster.name.clone(),
        n if n.chars().count() > 80 => {
            return Err(EngineError::invalid(
                "name",
                "give a name of 1–80 characters",
            ));
        }
        n => n.to_string(),
    };
    let mut character = from_stat_block(monster, &mut derivations);
    character.name = name;
    character.kind = req.kind.unwrap_or(CharacterType::Enemy);
    character.notes = req.notes.clone();
    let same_name: Vec<String> = call
        .tx_ref()
        .characters_named(call.campaign(), &character.name)?
        .iter()
        .map(Character::label)
        .collect();
    let stored = req.mode == CreateMode::Create;
    if stored {
        character.id = call.new_id("ch")?;
        let campaign = call.campaign();
        call.tx().put_character(campaign, &character)?;
        call.record_change(
            "character",
            &character.id,
            format!("created {} from the SRD {}", character.name, monster.name),
        );
    }
    Ok(CreateOutcome {
        character,
        stored,
        problems: Vec::new(),
        derivations,
        rolled: None,
        same_name,
    })
}

/// The SRD monster named like `given` (fuzzy), and a note when the name was read as another;
/// `field` names the argument in errors.
pub fn lookup<'a>(
    call: &Call<'a>,
    given: &str,
    field: &str,
) -> Result<(&'a Monster, Option<String>)> {
    let srd = call.require_compendium(
        &format!("{field} '{given}'"),
        "a custom build: name, stats, hp, ac and characterType npc or enemy",
    )?;
    match srd.get(Some(EntryKind::Monster), given) {
        Lookup::Found {
            entry: tabletop_srd::Entry::Monster(m),
            exact,
        } => Ok((
            m,
            (!exact).then(|| format!("'{given}' read as the SRD monster {}", m.name)),
        )),
        Lookup::Found { .. } => Err(EngineError::Rule(
            "internal: a monster lookup found another kind".into(),
        )),
        Lookup::Closest { candidates } => Err(EngineError::Invalid {
            field: field.into(),
            problem: if candidates.is_empty() {
                format!(
                    "no SRD monster is named like '{given}'; search_compendium {{\"type\": \"monster\", \"query\": …}} lists them"
                )
            } else {
                let names: Vec<&str> = candidates.iter().map(|h| h.name.as_str()).collect();
                format!(
                    "no SRD monster '{given}'; did you mean one of: {}?",
                    names.join(", ")
                )
            },
        }),
    }
}

/// The fields a stat block fixes; giving one beside `fromMonster` is an error naming it.
fn reject_build_fields(req: &CreateRequest) -> Result<()> {
    let set: Vec<&str> = [
        ("race", req.race.is_some() || req.custom_race.is_some()),
        ("subrace", req.subrace.is_some()),
        ("class", req.class.is_some() || req.custom_class.is_some()),
        ("background", req.background.is_some()),
        ("level", req.level.is_some()),
        ("stats", req.scores.is_some()),
        (
            "skills",
            !req.skills.is_empty() || !req.expertise.is_empty(),
        ),
        ("saves", req.saves.is_some()),
        ("hp", req.max_hp.is_some()),
        ("ac", req.armor_class.is_some()),
        ("speed", req.speed.is_some()),
        ("equipment", !req.equipment.is_empty()),
        ("spells", !req.spells.is_empty()),
    ]
    .into_iter()
    .filter_map(|(n, s)| s.then_some(n))
    .collect();
    if set.is_empty() {
        Ok(())
    } else {
        Err(EngineError::invalid(
            "fromMonster",
            format!(
                "the stat block sets {}; give only name, characterType and notes with fromMonster, then change fields with update_character",
                set.join(", ")
            ),
        ))
    }
}

/// The proficiency level whose bonus explains `bonus` over `modifier` best, and whether it
/// explains it exactly.
fn proficiency_of(bonus: i32, modifier: i32, pb: i32) -> (ProficiencyLevel, bool) {
    let extra = bonus - modifier;
    [
        (ProficiencyLevel::None, 0),
        (ProficiencyLevel::Half, pb / 2),
        (ProficiencyLevel::Proficient, pb),
        (ProficiencyLevel::Expertise, 2 * pb),
    ]
    .into_iter()
    .min_by_key(|(_, b)| (extra - b).abs())
    .map_or((ProficiencyLevel::Proficient, false), |(l, b)| {
        (l, b == extra)
    })
}

/// The character fields of a stat block (id, name and type are the caller's).
pub fn from_stat_block(m: &Monster, derivations: &mut Vec<String>) -> Character {
    let mut abilities = AbilityScores::uniform(10);
    for a in Ability::ALL {
        let _ = abilities.set(*a, i64::from(m.scores.get(*a)));
    }
    let pb = m.proficiency_bonus;
    let mut saves = BTreeSet::new();
    for (a, bonus) in &m.saving_throws {
        let (level, exact) = proficiency_of(*bonus, m.scores.modifier(*a), pb);
        if level != ProficiencyLevel::None {
            saves.insert(*a);
        }
        if !exact || level == ProficiencyLevel::Expertise {
            derivations.push(format!(
                "{} save {bonus:+} is not modifier + proficiency; the sheet uses proficiency",
                a.abbr()
            ));
        }
    }
    let mut skills = BTreeMap::new();
    for (s, bonus) in &m.skills {
        let (level, exact) = proficiency_of(*bonus, m.scores.modifier(s.ability()), pb);
        if !exact {
            derivations.push(format!(
                "{} {bonus:+} is not a whole proficiency step; taken as {level:?}",
                s.key()
            ));
        }
        if level != ProficiencyLevel::None {
            skills.insert(*s, level);
        }
    }
    let (hit_count, hit_die) = parse_hit_dice(&m.hit_dice);
    let armor_source = m
        .armor_class
        .first()
        .map(|a| {
            if a.source.is_empty() {
                format!("stat block ({})", a.kind)
            } else {
                format!("stat block: {}", a.source.join(", ").to_lowercase())
            }
        })
        .unwrap_or_else(|| "stat block".into());
    let mut other_speeds = BTreeMap::new();
    for (k, v) in [
        ("burrow", m.speed.burrow),
        ("climb", m.speed.climb),
        ("fly", m.speed.fly),
        ("swim", m.speed.swim),
    ] {
        if let Some(v) = v {
            other_speeds.insert(k.to_string(), v);
        }
    }
    let mut senses = Vec::new();
    for (label, v) in [
        ("blindsight", &m.senses.blindsight),
        ("darkvision", &m.senses.darkvision),
        ("tremorsense", &m.senses.tremorsense),
        ("truesight", &m.senses.truesight),
    ] {
        if let Some(v) = v {
            senses.push(format!("{label} {v}"));
        }
    }
    senses.push(format!(
        "passive Perception {}",
        m.senses.passive_perception
    ));
    let plain = |written: &[String], parsed: usize| written.len() > parsed;
    let mut qualified = Vec::new();
    for (label, written, parsed) in [
        (
            "vulnerable",
            &m.damage_vulnerabilities,
            m.vulnerable_to.len(),
        ),
        ("resistant", &m.damage_resistances, m.resistant_to.len()),
        ("immune", &m.damage_immunities, m.immune_to.len()),
    ] {
        if plain(written, parsed) {
            for w in written {
                if w.parse::<tabletop_rules::DamageType>().is_err() {
                    qualified.push(format!("{label}: {w}"));
                }
            }
        }
    }
    if !qualified.is_empty() {
        derivations.push(format!(
            "kept as text (not applied automatically): {}",
            qualified.join("; ")
        ));
    }
    let languages: Vec<String> = m
        .languages
        .split(',')
        .map(str::trim)
        .filter(|l| !l.is_empty() && *l != "-" && *l != "—")
        .map(str::to_string)
        .collect();
    derivations.push(format!(
        "from the SRD stat block of {} (CR {}, {} XP)",
        m.name,
        cr_text(m.challenge_rating),
        m.xp
    ));
    let hp = u32::try_from(m.hit_points).unwrap_or(1).max(1);
    let mut c = Character {
        id: "(preview)".into(),
        name: m.name.clone(),
        kind: CharacterType::Enemy,
        race: None,
        subrace: None,
        class: None,
        background: None,
        level: 1,
        abilities,
        proficiency_bonus: pb,
        save_proficiencies: saves,
        skills,
        armor_class: m.ac(),
        armor_source,
        speed: m.speed.walk.unwrap_or(0),
        size: m.size,
        max_hp: hp,
        hp,
        temp_hp: 0,
        hit_die,
        hit_dice: hit_count,
        death_saves: Default::default(),
        dead: false,
        died_at: None,
        resistances: m.resistant_to.iter().copied().collect(),
        immunities: m.immune_to.iter().copied().collect(),
        vulnerabilities: m.vulnerable_to.iter().copied().collect(),
        condition_immunities: m.condition_immunities.iter().copied().collect(),
        conditions: Vec::new(),
        spellcasting_ability: m
            .special_abilities
            .iter()
            .find_map(|a| a.spellcasting.as_ref().map(|s| s.ability)),
        spells: m
            .special_abilities
            .iter()
            .filter_map(|a| a.spellcasting.as_ref())
            .flat_map(|s| s.spells.iter().map(|x| x.name.clone()))
            .collect(),
        equipment: Vec::new(),
        languages,
        features: m.special_abilities.iter().map(|a| a.name.clone()).collect(),
        notes: None,
        inventory: Default::default(),
        effects: Vec::new(),
        concentration: None,
        spell_slots: crate::slots::SpellSlots {
            max: crate::catalog::monsters::monster_slots(m),
            ..Default::default()
        },
        resources: Vec::new(),
        stat_block: Some(StatBlock {
            monster: m.index.clone(),
            creature_type: m.creature_type.clone(),
            subtype: m.subtype.clone(),
            alignment: m.alignment.clone(),
            challenge_rating: m.challenge_rating,
            xp: m.xp,
            proficiency_bonus: pb,
            hit_dice: m.hit_dice.clone(),
            other_speeds,
            hover: m.speed.hover,
            senses,
            languages: m.languages.clone(),
            qualified_defenses: qualified,
            special_abilities: m.special_abilities.iter().map(action).collect(),
            actions: m.actions.iter().map(action).collect(),
            legendary_actions: m.legendary_actions.iter().map(action).collect(),
            reactions: m.reactions.iter().map(action).collect(),
        }),
        shape: None,
        read_sheet: Default::default(),
        read_doc: Default::default(),
        mastered_spells: Vec::new(),
        spellbook: Vec::new(),
        spell_classes: Default::default(),
        xp: 0,
        build: None,
        derived: None,
    };
    // Legendary Resistance's uses a day show on the sheet as a resource.
    let _ = crate::combat::legendary::resource(&mut c);
    c
}

/// "2d6" → (2, 6); unreadable → (1, 8).
fn parse_hit_dice(s: &str) -> (u32, u32) {
    let mut parts = s.trim().splitn(2, 'd');
    let n = parts.next().and_then(|x| x.trim().parse().ok());
    let f = parts.next().and_then(|x| {
        x.trim()
            .split(|c: char| !c.is_ascii_digit())
            .next()
            .and_then(|d| d.parse().ok())
    });
    match (n, f) {
        (Some(n), Some(f)) if n > 0 && f > 0 => (n, f),
        _ => (1, 8),
    }
}

fn dc(d: &SaveDc) -> StatDc {
    StatDc {
        ability: d.ability,
        value: d.value,
        success: match d.success {
            SaveEffect::Half => "half",
            SaveEffect::None => "none",
            SaveEffect::Other => "other",
        }
        .into(),
    }
}

fn damage(d: &tabletop_srd::ActionDamage) -> StatDamage {
    StatDamage {
        dice: d.damage_dice.clone(),
        damage_type: d.damage_type,
    }
}

fn usage(u: &Usage) -> Option<String> {
    match (u.kind.as_str(), u.times, u.min_value) {
        ("per day", Some(n), _) => Some(format!("{n}/Day")),
        ("recharge on roll", _, Some(6)) => Some("Recharge 6".into()),
        ("recharge on roll", _, Some(m)) => Some(format!("Recharge {m}–6")),
        ("recharge after rest", _, _) => Some(format!(
            "Recharges after a {} Rest",
            u.rest_types.join(" or ")
        )),
        _ => None,
    }
}

fn action(a: &MonsterAction) -> StatAction {
    let mut alternatives: Vec<StatAlternative> = a
        .damage_choices
        .iter()
        .flat_map(|c| &c.options)
        .enumerate()
        .map(|(i, d)| StatAlternative {
            name: d
                .notes
                .clone()
                .unwrap_or_else(|| format!("option {}", i + 1)),
            damage: vec![damage(d)],
            dc: d.dc.as_ref().map(dc),
        })
        .collect();
    alternatives.extend(a.options.iter().map(|o| StatAlternative {
        name: o.name.clone(),
        damage: o.damage.iter().map(damage).collect(),
        dc: o.dc.as_ref().map(dc),
    }));
    let multiattack = a
        .multiattack
        .as_ref()
        .map(|m| {
            let fixed = m.actions.iter().map(|s| (0u8, s));
            let options = m.options.iter().enumerate().flat_map(|(k, set)| {
                let k = u8::try_from(k + 1).unwrap_or(u8::MAX);
                set.iter().map(move |s| (k, s))
            });
            fixed
                .chain(options)
                .map(|(option, s)| MultiattackPart {
                    action: s.action_name.clone(),
                    count: s.count_text.clone().unwrap_or_else(|| s.count.to_string()),
                    option,
                })
                .collect()
        })
        .unwrap_or_default();
    StatAction {
        name: a.name.clone(),
        desc: a.desc.clone(),
        attack_bonus: a.attack_bonus,
        damage: a.damage.iter().map(damage).collect(),
        dc: a
            .dc
            .as_ref()
            .or_else(|| a.damage.iter().find_map(|d| d.dc.as_ref()))
            .map(dc),
        recharge: a.usage.as_ref().and_then(usage),
        multiattack,
        alternatives,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proficiency_steps_are_read_from_bonuses() {
        assert_eq!(proficiency_of(6, 2, 2), (ProficiencyLevel::Expertise, true));
        assert_eq!(
            proficiency_of(4, 2, 2),
            (ProficiencyLevel::Proficient, true)
        );
        assert_eq!(proficiency_of(2, 2, 2), (ProficiencyLevel::None, true));
        assert_eq!(
            proficiency_of(9, 2, 3),
            (ProficiencyLevel::Expertise, false)
        );
    }

    #[test]
    fn hit_dice_parse() {
        assert_eq!(parse_hit_dice("2d6"), (2, 6));
        assert_eq!(parse_hit_dice("33d20"), (33, 20));
        assert_eq!(parse_hit_dice("junk"), (1, 8));
    }
}
