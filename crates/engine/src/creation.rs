//! Creating characters: ability-score methods, SRD or custom class and race, derived HP, AC,
//! proficiencies and saves; preview and validate-only modes.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;
use tabletop_rules::abilities::{
    self, AbilityScores, POINT_BUY_BUDGET, ProficiencyLevel, RolledAbilityScores, STANDARD_ARRAY,
};
use tabletop_rules::{Ability, CharacterType, Condition, DamageType, Size, Skill};

use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::character::{Character, ConditionEntry};
use crate::model::names::name_key;

/// How ability scores are produced.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum AbilityMethod {
    /// Scores given as they are (1–30).
    #[default]
    Manual,
    /// The standard array 15, 14, 13, 12, 10, 8 assigned to abilities.
    StandardArray,
    /// 27-point buy, scores 8–15 before racial bonuses.
    PointBuy,
    /// 4d6, drop the lowest, in order STR, DEX, CON, INT, WIS, CHA.
    Roll,
}

/// A class not in the SRD.
#[derive(Debug, Clone, Default)]
pub struct CustomClass {
    /// Its name.
    pub name: String,
    /// Hit die (6, 8, 10 or 12).
    pub hit_die: u32,
    /// Saving-throw proficiencies.
    pub saves: Vec<Ability>,
    /// Spellcasting ability, if it casts.
    pub spellcasting_ability: Option<Ability>,
    /// How many skills it chooses, and from which (empty = any).
    pub skill_choices: Option<(u8, Vec<Skill>)>,
}

/// A race not in the SRD.
#[derive(Debug, Clone, Default)]
pub struct CustomRace {
    /// Its name.
    pub name: String,
    /// Ability score bonuses.
    pub ability_bonuses: BTreeMap<Ability, i32>,
    /// Walking speed (default 30).
    pub speed: Option<u32>,
    /// Size (default medium).
    pub size: Option<Size>,
    /// Trait names.
    pub traits: Vec<String>,
}

/// What to do with the build.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum CreateMode {
    /// Store it.
    #[default]
    Create,
    /// Show what would be created; store nothing.
    Preview,
    /// Check the build against the rules and report every problem; store nothing.
    Validate,
}

/// Everything `create_character` accepts.
#[derive(Debug, Clone, Default)]
pub struct CreateRequest {
    /// Name (required).
    pub name: String,
    /// pc (default), npc, enemy or neutral.
    pub kind: Option<CharacterType>,
    /// SRD race name.
    pub race: Option<String>,
    /// SRD subrace name.
    pub subrace: Option<String>,
    /// SRD class name.
    pub class: Option<String>,
    /// Background.
    pub background: Option<String>,
    /// Level 1–20 (default 1).
    pub level: Option<u32>,
    /// How scores are produced.
    pub method: AbilityMethod,
    /// Scores before racial bonuses (manual, standard array, point buy).
    pub scores: Option<BTreeMap<Ability, i64>>,
    /// Skill proficiencies chosen.
    pub skills: Vec<Skill>,
    /// Skills with expertise (must also be proficient).
    pub expertise: Vec<Skill>,
    /// Saving-throw proficiencies (overrides the class's).
    pub saves: Option<Vec<Ability>>,
    /// Equipment names.
    pub equipment: Vec<String>,
    /// Spells known or prepared (cantrips included).
    pub spells: Vec<String>,
    /// A wizard's spellbook (spells of 1st level and higher); by default its listed spells.
    pub spellbook: Vec<String>,
    /// A multiclassed caster: the class each spell is learned with (spell → class); a spell on
    /// one of its class lists only needs no entry.
    pub spell_classes: BTreeMap<String, String>,
    /// Languages.
    pub languages: Vec<String>,
    /// Maximum HP (overrides the derived value).
    pub max_hp: Option<u32>,
    /// Armor class (overrides 10 + DEX).
    pub armor_class: Option<i32>,
    /// Speed in feet (overrides the race's).
    pub speed: Option<u32>,
    /// Size (overrides the race's).
    pub size: Option<Size>,
    /// Damage resistances.
    pub resistances: Vec<DamageType>,
    /// Damage immunities.
    pub immunities: Vec<DamageType>,
    /// Damage vulnerabilities.
    pub vulnerabilities: Vec<DamageType>,
    /// Condition immunities.
    pub condition_immunities: Vec<Condition>,
    /// A class not in the SRD.
    pub custom_class: Option<CustomClass>,
    /// A race not in the SRD.
    pub custom_race: Option<CustomRace>,
    /// Notes.
    pub notes: Option<String>,
    /// Create, preview or validate.
    pub mode: CreateMode,
    /// An SRD monster whose stat block becomes the character (see [`crate::monster`]).
    pub from_monster: Option<String>,
    /// Half-elf: the two abilities that get +1 (chosen for you when absent).
    pub ability_choices: Vec<Ability>,
    /// Fighting style ("defense", "archery", …).
    pub fighting_style: Option<String>,
    /// Dragonborn ancestry colour ("red", "gold", …).
    pub draconic_ancestry: Option<String>,
    /// Ability Score Improvements, in the order the levels reach them.
    pub asi: Vec<crate::derive::asi::AsiChoice>,
    /// Feature options chosen, by catalog key ("hunters-prey-colossus-slayer",
    /// "eldritch-invocation-devils-sight", "circle-of-the-land-forest"; see `options`).
    pub options: Vec<String>,
    /// Class levels of a multiclassed character, the starting class first (instead of
    /// `class` + `level`).
    pub classes: Vec<ClassRequest>,
}

/// Levels in one class at creation.
#[derive(Debug, Clone, Default)]
pub struct ClassRequest {
    /// SRD class name.
    pub class: String,
    /// Levels in it (1–20).
    pub level: u32,
    /// Subclass (SRD name).
    pub subclass: Option<String>,
}

/// The result of [`create_character`].
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CreateOutcome {
    /// The character built (stored only in create mode).
    pub character: Character,
    /// Whether it was stored.
    pub stored: bool,
    /// Every rule the build breaks (validate mode lists them; create refuses when any).
    pub problems: Vec<String>,
    /// How derived values were obtained, one line each.
    pub derivations: Vec<String>,
    /// The 4d6-drop-lowest rolls, when rolled.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rolled: Option<RolledAbilityScores>,
    /// Other characters already using this name.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub same_name: Vec<String>,
}

struct ClassData {
    name: String,
    hit_die: u32,
    saves: Vec<Ability>,
    spellcasting: Option<Ability>,
    skill_choices: Option<(u8, Vec<Skill>)>,
    features: Vec<String>,
}

struct RaceData {
    name: String,
    subrace: Option<String>,
    bonuses: Vec<(Ability, i32)>,
    speed: u32,
    size: Size,
    traits: Vec<String>,
    languages: Vec<String>,
}

/// Builds a character from `req`; stores it unless previewing or validating.
pub fn create_character(call: &mut Call<'_>, req: CreateRequest) -> Result<CreateOutcome> {
    let mut req = req;
    if !req.classes.is_empty() {
        let total = req
            .classes
            .iter()
            .try_fold(0u32, |acc, c| {
                (1..=20)
                    .contains(&c.level)
                    .then(|| acc.saturating_add(c.level))
            })
            .ok_or_else(|| EngineError::invalid("classes.level", "each class level is 1–20"))?;
        if req.level.is_some_and(|l| l != total) {
            return Err(EngineError::invalid(
                "level",
                format!(
                    "level {} differs from the classes' total {total}; give one or the other",
                    req.level.unwrap_or(0)
                ),
            ));
        }
        req.level = Some(total);
        if req.class.is_none() {
            req.class = Some(req.classes[0].class.clone());
        }
    }
    if req.from_monster.is_some() {
        return crate::monster::create_from_monster(call, req);
    }
    let mut problems = Vec::new();
    let mut derivations = Vec::new();
    let name = req.name.trim().to_string();
    if name.is_empty() || name.chars().count() > 80 {
        return Err(EngineError::invalid(
            "name",
            "give a name of 1–80 characters",
        ));
    }
    let kind = req.kind.unwrap_or(CharacterType::Pc);
    let level = req.level.unwrap_or(1);
    if !(1..=20).contains(&level) {
        return Err(EngineError::invalid(
            "level",
            format!("{level} is out of range; a level is 1–20"),
        ));
    }

    let class = class_data(call, &req, level, &mut problems)?;
    let race = race_data(call, &req, &mut problems)?;

    // Ability scores.
    let mut rolled = None;
    let mut scores = match req.method {
        AbilityMethod::Roll => {
            if req.scores.is_some() {
                problems.push(
                    "stats are rolled with abilityMethod 'roll'; omit stats or use 'manual'".into(),
                );
            }
            let r = abilities::roll_ability_scores(call.rng()?);
            derivations.push(format!("abilities rolled 4d6 drop lowest: {}", r.scores));
            call.record_roll(&r);
            let s = r.scores;
            rolled = Some(r);
            s
        }
        AbilityMethod::StandardArray => {
            let s = match &req.scores {
                Some(given) => scores_from_map(given, &mut problems),
                None => {
                    let s = assign_standard_array(
                        class.as_ref().map(|c| c.saves.as_slice()).unwrap_or(&[]),
                    );
                    derivations.push(format!("standard array assigned (class saves first): {s}"));
                    s
                }
            };
            problems.extend(abilities::validate_standard_array(&s));
            s
        }
        AbilityMethod::PointBuy => {
            let Some(given) = &req.scores else {
                return Err(EngineError::invalid(
                    "stats",
                    format!(
                        "point buy needs stats: six scores 8–15 costing {POINT_BUY_BUDGET} points"
                    ),
                ));
            };
            let s = scores_from_map(given, &mut problems);
            let report = abilities::validate_point_buy(&s);
            problems.extend(report.problems);
            derivations.push(format!(
                "point buy: {} of {} points spent",
                report.spent, report.budget
            ));
            s
        }
        AbilityMethod::Manual => match &req.scores {
            Some(given) => scores_from_map(given, &mut problems),
            None => {
                derivations.push("no stats given: every ability 10".into());
                AbilityScores::uniform(10)
            }
        },
    };
    let base_scores = scores;
    if let Some(r) = &race {
        for (ability, bonus) in &r.bonuses {
            let v = i64::from(scores.get(*ability)) + i64::from(*bonus);
            if scores.set(*ability, v).is_err() {
                problems.push(format!(
                    "{} {v} after racial bonus is above 30",
                    ability.abbr()
                ));
            }
        }
        if !r.bonuses.is_empty() {
            let list: Vec<String> = r
                .bonuses
                .iter()
                .map(|(a, b)| format!("{} {b:+}", a.abbr()))
                .collect();
            derivations.push(format!(
                "{} bonuses: {}",
                r.subrace.as_deref().unwrap_or(&r.name),
                list.join(", ")
            ));
        }
    }

    let prof = abilities::proficiency_bonus(level).unwrap_or(2);
    let con = scores.modifier(Ability::Constitution);
    let dex = scores.modifier(Ability::Dexterity);

    // Hit points.
    let hit_die = class.as_ref().map(|c| c.hit_die).unwrap_or(8);
    let max_hp = match req.max_hp {
        Some(hp) if (1..=10_000).contains(&hp) => {
            derivations.push(format!("max HP {hp} as given"));
            hp
        }
        Some(hp) => {
            return Err(EngineError::invalid(
                "hp",
                format!("{hp} is not a maximum HP; give 1–10000"),
            ));
        }
        None => {
            let first = (hit_die as i32 + con).max(1) as u32;
            let later = ((hit_die as i32 / 2 + 1) + con).max(1) as u32 * (level - 1);
            first + later
        }
    };

    // Armor class.
    let (armor_class, armor_source) = match req.armor_class {
        Some(ac) if (1..=40).contains(&ac) => (ac, "as given".to_string()),
        Some(ac) => {
            return Err(EngineError::invalid(
                "ac",
                format!("{ac} is out of range; AC is 1–40"),
            ));
        }
        None => (10 + dex, format!("unarmored: 10 + DEX {dex:+}")),
    };

    // Saves.
    let save_proficiencies: BTreeSet<Ability> = match &req.saves {
        Some(s) => s.iter().copied().collect(),
        None => class
            .as_ref()
            .map(|c| c.saves.iter().copied().collect())
            .unwrap_or_default(),
    };

    // The build: the request's sources, open choices made (and said so).
    let method = match req.method {
        AbilityMethod::Manual => "manual",
        AbilityMethod::StandardArray => "standard_array",
        AbilityMethod::PointBuy => "point_buy",
        AbilityMethod::Roll => "roll",
    };
    let mut build = build_from_request(
        &req,
        base_scores,
        method,
        level,
        class.as_ref().map(|c| c.name.as_str()),
        race.as_ref().map(|r| r.name.as_str()),
        race.as_ref().and_then(|r| r.subrace.as_deref()),
    );
    if !req.classes.is_empty() {
        build.classes = req
            .classes
            .iter()
            .map(|c| crate::derive::ClassLevels {
                class: call
                    .compendium()
                    .and_then(|s| s.class(&c.class))
                    .map_or_else(|| c.class.clone(), |k| k.name.clone()),
                level: c.level,
                subclass: c.subclass.clone(),
                ..Default::default()
            })
            .collect();
        if let Some(srd) = call.compendium() {
            for c in &build.classes {
                if srd.class(&c.class).is_none() {
                    problems.push(format!("'{}' is not an SRD class", c.class));
                }
            }
            problems.extend(crate::derive::multiclass::check_all(
                srd,
                &build.classes,
                &scores,
            ));
        }
    }
    let resolved = crate::derive::resolve(&build, call.compendium());
    let catalog = crate::catalog::Catalog::get();
    problems.extend(crate::derive::asi::problems(&req.asi, catalog));
    let reached = crate::derive::asi::slots(&resolved).len();
    if req.asi.len() > reached {
        problems.push(format!(
            "asi: {} choice(s) for the {reached} Ability Score Improvement(s) this build reaches",
            req.asi.len()
        ));
    }
    if let Some(why) = crate::derive::build::language_excess(&resolved, catalog, &req.languages) {
        problems.push(why);
    }
    let race_free_skills = crate::derive::build::race_skill_choices(&resolved, catalog);
    let granted_skills = crate::derive::build::granted_skills(&resolved);
    derivations.extend(crate::derive::build::fill_choices(
        &mut build, &resolved, catalog,
    ));
    if let Some(srd) = call.compendium() {
        problems.extend(crate::choices::problems(srd, catalog, &build, &resolved));
    }

    // Skills.
    let mut skills: BTreeMap<Skill, ProficiencyLevel> = BTreeMap::new();
    if let (Some(c), CharacterType::Pc) = (&class, kind)
        && let Some((choose, from)) = &c.skill_choices
    {
        let off_list: Vec<String> = req
            .skills
            .iter()
            .filter(|s| !from.is_empty() && !from.contains(s) && !granted_skills.contains(s))
            .map(|s| s.key().to_string())
            .collect();
        if off_list.len() > race_free_skills {
            let allowed: Vec<&str> = from.iter().map(|s| s.key()).collect();
            problems.push(format!(
                "{} cannot choose {}; its skills are: {}",
                c.name,
                off_list.join(", "),
                allowed.join(", ")
            ));
        }
        let on_list = req
            .skills
            .iter()
            .filter(|s| (from.is_empty() || from.contains(s)) && !granted_skills.contains(s))
            .count();
        if on_list > usize::from(*choose) + race_free_skills {
            problems.push(format!(
                "{} chooses {choose} skills; {} were given",
                c.name,
                req.skills.len()
            ));
        }
    }
    for s in &req.skills {
        skills.insert(*s, ProficiencyLevel::Proficient);
    }
    for s in &req.expertise {
        if !skills.contains_key(s) && !granted_skills.contains(s) {
            problems.push(format!(
                "expertise in {} needs proficiency in it first (add it to skills)",
                s.key()
            ));
        }
        skills.insert(*s, ProficiencyLevel::Expertise);
    }

    let (speed, size) = (
        req.speed.or(race.as_ref().map(|r| r.speed)).unwrap_or(30),
        req.size
            .or(race.as_ref().map(|r| r.size))
            .unwrap_or(Size::Medium),
    );
    let mut features = race.as_ref().map(|r| r.traits.clone()).unwrap_or_default();
    if let Some(c) = &class {
        features.extend(c.features.iter().cloned());
    }
    let mut languages = race
        .as_ref()
        .map(|r| r.languages.clone())
        .unwrap_or_default();
    for l in &req.languages {
        if !languages.iter().any(|x| name_key(x) == name_key(l)) {
            languages.push(l.clone());
        }
    }

    let same_name: Vec<String> = call
        .tx_ref()
        .characters_named(call.campaign(), &name)?
        .iter()
        .map(Character::label)
        .collect();

    let id = if req.mode == CreateMode::Create {
        call.new_id("ch")?
    } else {
        "(preview)".to_string()
    };
    let character = Character {
        id,
        name,
        kind,
        race: race.as_ref().map(|r| r.name.clone()),
        subrace: race.as_ref().and_then(|r| r.subrace.clone()),
        class: class.as_ref().map(|c| c.name.clone()),
        background: req.background.clone(),
        level,
        abilities: scores,
        proficiency_bonus: prof,
        save_proficiencies,
        skills,
        armor_class,
        armor_source,
        speed,
        size,
        max_hp,
        hp: max_hp,
        temp_hp: 0,
        hit_die,
        hit_dice: level,
        death_saves: Default::default(),
        dead: false,
        died_at: None,
        resistances: req.resistances.iter().copied().collect(),
        immunities: req.immunities.iter().copied().collect(),
        vulnerabilities: req.vulnerabilities.iter().copied().collect(),
        condition_immunities: req.condition_immunities.iter().copied().collect(),
        conditions: Vec::<ConditionEntry>::new(),
        spellcasting_ability: class.as_ref().and_then(|c| c.spellcasting),
        spells: req.spells.clone(),
        equipment: req.equipment.clone(),
        inventory: Default::default(),
        languages,
        features,
        notes: req.notes.clone(),
        effects: Vec::new(),
        concentration: None,
        spell_slots: Default::default(),
        resources: Vec::new(),
        stat_block: None,
        shape: None,
        read_sheet: Default::default(),
        read_doc: Default::default(),
        mastered_spells: Vec::new(),
        spellbook: req.spellbook.clone(),
        spell_classes: req.spell_classes.clone(),
        xp: 0,
        build: None,
        derived: None,
    };
    scores = character.abilities;
    let _ = scores;
    let mut character = character;
    character.build = Some(build);
    crate::derive::refresh(call, &mut character);
    crate::inventory::ops::adopt_legacy(call, &mut character);
    character.hp = character.max_hp;
    character.hit_dice = character.level;
    if let Some(d) = &character.derived {
        derivations.push(format!(
            "max HP {} = {}",
            character.max_hp,
            tabletop_rules::stats::explain_contributions(&d.max_hp_sources)
        ));
        derivations.push(format!(
            "AC {} ({})",
            character.armor_class, character.armor_source
        ));
        for line in &d.choices {
            derivations.push(format!("open choice: {line}"));
        }
    }
    crate::slots::ensure(call, &mut character);
    if let Some(srd) = call.compendium() {
        derivations.extend(crate::magic::known::adopt_spellbook(srd, &mut character));
        derivations.extend(crate::magic::known::record_classes(srd, &mut character));
        problems.extend(crate::magic::known::problems(srd, &character));
        derivations.extend(crate::magic::known::summary(srd, &character));
    }

    let stored = match req.mode {
        CreateMode::Create => {
            if !problems.is_empty() {
                return Err(EngineError::Rule(format!(
                    "the build breaks {} rule(s): {}. Fix them, or check a build first with validateOnly",
                    problems.len(),
                    problems.join("; ")
                )));
            }
            let campaign = call.campaign();
            call.tx().put_character(campaign, &character)?;
            call.record_change(
                "character",
                &character.id,
                format!("created {}", character.name),
            );
            true
        }
        CreateMode::Preview | CreateMode::Validate => false,
    };
    Ok(CreateOutcome {
        character,
        stored,
        problems,
        derivations,
        rolled,
        same_name,
    })
}

fn scores_from_map(given: &BTreeMap<Ability, i64>, problems: &mut Vec<String>) -> AbilityScores {
    let mut s = AbilityScores::uniform(10);
    for a in Ability::ALL {
        match given.get(a) {
            Some(v) => {
                if let Err(e) = s.set(*a, *v) {
                    problems.push(e.to_string());
                }
            }
            None => problems.push(format!(
                "stats is missing {} (give all six: str, dex, con, int, wis, cha)",
                a.key()
            )),
        }
    }
    s
}

fn assign_standard_array(priority: &[Ability]) -> AbilityScores {
    let mut order: Vec<Ability> = priority.to_vec();
    for a in [
        Ability::Dexterity,
        Ability::Constitution,
        Ability::Strength,
        Ability::Wisdom,
        Ability::Intelligence,
        Ability::Charisma,
    ] {
        if !order.contains(&a) {
            order.push(a);
        }
    }
    let mut s = AbilityScores::uniform(10);
    for (a, v) in order.iter().zip(STANDARD_ARRAY) {
        let _ = s.set(*a, i64::from(v));
    }
    s
}

fn class_data(
    call: &Call<'_>,
    req: &CreateRequest,
    level: u32,
    problems: &mut Vec<String>,
) -> Result<Option<ClassData>> {
    if let Some(c) = &req.custom_class {
        if ![6, 8, 10, 12].contains(&c.hit_die) {
            return Err(EngineError::invalid(
                "customClass.hitDie",
                format!("d{} is not a hit die; use 6, 8, 10 or 12", c.hit_die),
            ));
        }
        if c.name.trim().is_empty() {
            return Err(EngineError::invalid(
                "customClass.name",
                "give the class a name",
            ));
        }
        return Ok(Some(ClassData {
            name: c.name.trim().to_string(),
            hit_die: c.hit_die,
            saves: c.saves.clone(),
            spellcasting: c.spellcasting_ability,
            skill_choices: c.skill_choices.clone(),
            features: vec![],
        }));
    }
    let Some(name) = req.class.as_deref() else {
        return Ok(None);
    };
    let srd = call.require_compendium(
        &format!("class '{name}'"),
        "customClass {name, hitDie, saves} to define the class yourself",
    )?;
    let Some(class) = srd.class(name) else {
        let names: Vec<&str> = srd.classes().iter().map(|c| c.name.as_str()).collect();
        return Err(EngineError::NotFound {
            kind: "SRD class",
            given: name.to_string(),
            suggestions: tabletop_rules::vocab::closest(name, names.iter().copied())
                .map(|s| vec![s.to_string()])
                .unwrap_or_else(|| names.iter().map(|s| s.to_string()).collect()),
        });
    };
    let _ = problems;
    let mut features = Vec::new();
    for l in 1..=level {
        if let Some(cl) = srd.class_level(&class.index, l as u8) {
            features.extend(cl.features.iter().map(|f| f.name.clone()));
        }
    }
    Ok(Some(ClassData {
        name: class.name.clone(),
        hit_die: u32::from(class.hit_die),
        saves: class.saving_throws.clone(),
        // An SRD class's spellcasting ability comes from the derived sheet, from the level of
        // its Spellcasting feature (a paladin or ranger 1 has none yet).
        spellcasting: None,
        skill_choices: class
            .skill_choices
            .as_ref()
            .map(|c| (c.choose, c.from.clone())),
        features,
    }))
}

fn race_data(
    call: &Call<'_>,
    req: &CreateRequest,
    problems: &mut Vec<String>,
) -> Result<Option<RaceData>> {
    if let Some(r) = &req.custom_race {
        if r.name.trim().is_empty() {
            return Err(EngineError::invalid(
                "customRace.name",
                "give the race a name",
            ));
        }
        return Ok(Some(RaceData {
            name: r.name.trim().to_string(),
            subrace: None,
            bonuses: r.ability_bonuses.iter().map(|(a, b)| (*a, *b)).collect(),
            speed: r.speed.unwrap_or(30),
            size: r.size.unwrap_or(Size::Medium),
            traits: r.traits.clone(),
            languages: vec![],
        }));
    }
    let Some(name) = req.race.as_deref() else {
        if req.subrace.is_some() {
            problems.push("subrace given without race".into());
        }
        return Ok(None);
    };
    let srd = call.require_compendium(
        &format!("race '{name}'"),
        "customRace {name, abilityBonuses, speed, size} to define the race yourself",
    )?;
    let Some(race) = srd.race(name) else {
        let names: Vec<&str> = srd.races().iter().map(|r| r.name.as_str()).collect();
        return Err(EngineError::NotFound {
            kind: "SRD race",
            given: name.to_string(),
            suggestions: tabletop_rules::vocab::closest(name, names.iter().copied())
                .map(|s| vec![s.to_string()])
                .unwrap_or_else(|| names.iter().map(|s| s.to_string()).collect()),
        });
    };
    let mut bonuses = race.ability_bonuses.clone();
    let mut traits: Vec<String> = race.traits.iter().map(|t| t.name.clone()).collect();
    let mut subrace_name = None;
    if let Some(sub) = req.subrace.as_deref() {
        match srd.subrace(sub) {
            Some(s) if s.race.index == race.index => {
                bonuses.extend(s.ability_bonuses.iter().copied());
                traits.extend(s.traits.iter().map(|t| t.name.clone()));
                subrace_name = Some(s.name.clone());
            }
            Some(s) => problems.push(format!(
                "{} is a subrace of {}, not {}",
                s.name, s.race.name, race.name
            )),
            None => {
                let subs: Vec<&str> = race.subraces.iter().map(|r| r.name.as_str()).collect();
                problems.push(format!(
                    "unknown subrace '{sub}' for {}; SRD subraces: {}",
                    race.name,
                    if subs.is_empty() {
                        "none".to_string()
                    } else {
                        subs.join(", ")
                    }
                ));
            }
        }
    }
    Ok(Some(RaceData {
        name: race.name.clone(),
        subrace: subrace_name,
        bonuses,
        speed: race.speed,
        size: race.size.unwrap_or(Size::Medium),
        traits,
        languages: race.languages.clone(),
    }))
}

/// The build a creation request describes. `base_scores` are before racial bonuses.
fn build_from_request(
    req: &CreateRequest,
    base_scores: AbilityScores,
    method: &str,
    level: u32,
    class: Option<&str>,
    race: Option<&str>,
    subrace: Option<&str>,
) -> crate::derive::Build {
    let mut b = crate::derive::Build {
        base_scores,
        method: method.to_string(),
        race: race.map(str::to_string),
        subrace: subrace.map(str::to_string),
        background: req.background.clone(),
        ..Default::default()
    };
    if let Some(r) = &req.custom_race {
        b.custom_race = Some(crate::derive::CustomRaceSource {
            ability_bonuses: r.ability_bonuses.clone(),
            speed: r.speed,
            size: r.size,
            traits: r.traits.clone(),
        });
    }
    match (class, &req.custom_class) {
        (Some(name), Some(c)) => b.classes.push(crate::derive::ClassLevels {
            class: name.to_string(),
            level,
            custom: Some(crate::derive::CustomClassSource {
                hit_die: c.hit_die,
                saves: c.saves.clone(),
                spellcasting_ability: c.spellcasting_ability,
                skill_choices: c.skill_choices.clone(),
            }),
            ..Default::default()
        }),
        (Some(name), None) => b.classes.push(crate::derive::ClassLevels {
            class: name.to_string(),
            level,
            ..Default::default()
        }),
        (None, _) => b.classless_level = Some(level),
    }
    b.choices.skills = req.skills.clone();
    b.choices.expertise = req.expertise.clone();
    b.choices.languages = req.languages.clone();
    b.choices.ability_choices = req.ability_choices.clone();
    b.choices.fighting_style = req.fighting_style.clone();
    b.choices.draconic_ancestry = req.draconic_ancestry.clone();
    b.choices.asi = req.asi.clone();
    b.choices.options = req.options.clone();
    b.overrides.max_hp = req.max_hp;
    b.overrides.armor_class = req.armor_class;
    b.overrides.speed = req.speed;
    b.overrides.size = req.size;
    b.overrides.saves = req.saves.as_ref().map(|s| s.iter().copied().collect());
    b.overrides.resistances = req.resistances.iter().copied().collect();
    b.overrides.immunities = req.immunities.iter().copied().collect();
    b.overrides.vulnerabilities = req.vulnerabilities.iter().copied().collect();
    b.overrides.condition_immunities = req.condition_immunities.iter().copied().collect();
    b
}
