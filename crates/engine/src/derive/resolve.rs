//! What a build's sources grant according to the SRD data: hit dice, saving throws,
//! proficiencies, ability bonuses, speed, size, languages, trait and feature lists and the class
//! level-table counters. Custom (non-SRD) sources carry their own numbers.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use serde::Serialize;
use tabletop_rules::{Ability, Size, Skill};
use tabletop_srd::Compendium;

use super::Build;

/// A race as its grants.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ResolvedRace {
    /// Race name.
    pub name: String,
    /// SRD index.
    pub index: Option<String>,
    /// Subrace name.
    pub subrace: Option<String>,
    /// Not in the SRD.
    pub custom: bool,
    /// Fixed ability bonuses with their source.
    pub bonuses: Vec<(Ability, i32, String)>,
    /// "Choose N abilities for +1" (half-elf), excluding the listed ones.
    pub bonus_choice: Option<(u8, Vec<Ability>)>,
    /// Walking speed.
    pub speed: u32,
    /// Size.
    pub size: Option<Size>,
    /// Languages.
    pub languages: Vec<String>,
    /// Languages of the player's choice the race itself gives (a human's one): how many, and
    /// the options.
    pub language_choice: Option<(u8, Vec<String>)>,
    /// Traits: SRD index (when known), name, proficiencies the SRD lists for it.
    pub traits: Vec<(Option<String>, String, Vec<String>)>,
    /// The breath weapon of its chosen draconic ancestry (SRD data).
    pub breath: Option<tabletop_srd::TraitBreath>,
}

/// A class (levels in it) as its grants.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ResolvedClass {
    /// Class name.
    pub name: String,
    /// SRD index (none for a custom class).
    pub index: Option<String>,
    /// Levels.
    pub level: u32,
    /// Hit die faces.
    pub hit_die: u32,
    /// Saving throws.
    pub saves: Vec<Ability>,
    /// Armor, weapon and tool proficiencies.
    pub proficiencies: Vec<String>,
    /// Skill choice: how many, from which.
    pub skill_choice: Option<(u8, Vec<Skill>)>,
    /// Spellcasting ability.
    pub spellcasting: Option<Ability>,
    /// Level-table counters at its level.
    pub class_specific: serde_json::Map<String, serde_json::Value>,
    /// Features gained up to its level (class and subclass): SRD index and name.
    pub features: Vec<(String, String)>,
    /// The class level at which each feature index is gained.
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub feature_levels: std::collections::BTreeMap<String, u32>,
    /// The chosen subclass, when it is one of this class's SRD subclasses.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subclass: Option<String>,
    /// The class's SRD subclasses (the choice's options).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub subclass_options: Vec<String>,
    /// The chosen subclass's features up to its level: class level and name.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub subclass_features: Vec<(u32, String)>,
}

/// A background as its grants.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ResolvedBackground {
    /// Name.
    pub name: String,
    /// SRD index (none when custom).
    pub index: Option<String>,
    /// Skills it gives.
    pub skills: Vec<Skill>,
    /// Other proficiencies it gives.
    pub proficiencies: Vec<String>,
    /// Its feature's name.
    pub feature: Option<String>,
}

/// A build's sources as grants.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Resolved {
    /// Race.
    pub race: Option<ResolvedRace>,
    /// Classes, in the build's order (an SRD class's grants are made once and shared).
    #[serde(serialize_with = "shared_classes")]
    #[cfg_attr(feature = "schema", schemars(with = "Vec<ResolvedClass>"))]
    pub classes: Vec<Arc<ResolvedClass>>,
    /// Background.
    pub background: Option<ResolvedBackground>,
    /// Sources not found (no SRD configured, or custom names), one line each.
    pub unresolved: Vec<String>,
}

fn shared_classes<S: serde::Serializer>(v: &[Arc<ResolvedClass>], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(v.iter().map(|c| &**c))
}

fn skill_of(index: &str) -> Option<Skill> {
    index
        .strip_prefix("skill-")
        .and_then(|s| s.replace('-', "_").parse().ok())
}

/// Resolves `build`'s sources against the SRD (when configured).
pub fn resolve(build: &Build, srd: Option<&Compendium>) -> Resolved {
    let mut out = Resolved::default();
    // Race.
    if let Some(c) = &build.custom_race {
        out.race = Some(ResolvedRace {
            name: build.race.clone().unwrap_or_else(|| "custom race".into()),
            custom: true,
            bonuses: c
                .ability_bonuses
                .iter()
                .map(|(a, b)| (*a, *b, "custom race".to_string()))
                .collect(),
            speed: c.speed.unwrap_or(30),
            size: Some(c.size.unwrap_or(Size::Medium)),
            traits: c.traits.iter().map(|t| (None, t.clone(), vec![])).collect(),
            ..Default::default()
        });
    } else if let Some(name) = &build.race {
        match srd.and_then(|s| s.race(name).map(|r| (s, r))) {
            Some((srd, race)) => {
                let mut r = ResolvedRace {
                    name: race.name.clone(),
                    index: Some(race.index.clone()),
                    speed: race.speed,
                    size: Some(race.size.unwrap_or(Size::Medium)),
                    languages: race.languages.clone(),
                    language_choice: race
                        .language_choice
                        .as_ref()
                        .map(|c| (c.choose, c.from.clone())),
                    bonuses: race
                        .ability_bonuses
                        .iter()
                        .map(|(a, b)| (*a, *b, format!("race: {}", race.name)))
                        .collect(),
                    bonus_choice: race.ability_bonus_choice.as_ref().map(|c| {
                        (
                            c.choose,
                            c.from.iter().map(|(a, _)| *a).collect::<Vec<Ability>>(),
                        )
                    }),
                    ..Default::default()
                };
                let mut trait_names: Vec<String> =
                    race.traits.iter().map(|t| t.name.clone()).collect();
                if let Some(sub) = build.subrace.as_deref()
                    && let Some(s) = srd.subrace(sub)
                    && s.race.index == race.index
                {
                    r.subrace = Some(s.name.clone());
                    r.bonuses.extend(
                        s.ability_bonuses
                            .iter()
                            .map(|(a, b)| (*a, *b, format!("subrace: {}", s.name))),
                    );
                    trait_names.extend(s.traits.iter().map(|t| t.name.clone()));
                }
                if let Some(colour) = build.choices.draconic_ancestry.as_deref()
                    && race.index == "dragonborn"
                {
                    trait_names.push(format!("draconic-ancestry-{}", colour.to_lowercase()));
                }
                for n in trait_names {
                    match srd.racial_trait(&n) {
                        Some(t) => {
                            if t.breath_weapon.is_some() {
                                r.breath = t.breath_weapon.clone();
                            }
                            r.traits.push((
                                Some(t.index.clone()),
                                t.name.clone(),
                                t.proficiencies.iter().map(|p| p.index.clone()).collect(),
                            ))
                        }
                        None => r.traits.push((None, n, vec![])),
                    }
                }
                out.race = Some(r);
            }
            None => {
                out.unresolved.push(format!(
                    "race '{name}' is not in the SRD (or no SRD is configured): no racial grants"
                ));
                out.race = Some(ResolvedRace {
                    name: name.clone(),
                    custom: true,
                    speed: 30,
                    size: Some(Size::Medium),
                    ..Default::default()
                });
            }
        }
    }
    // Classes.
    for cl in &build.classes {
        if let Some(c) = &cl.custom {
            out.classes.push(Arc::new(ResolvedClass {
                name: cl.class.clone(),
                level: cl.level,
                hit_die: c.hit_die,
                saves: c.saves.clone(),
                skill_choice: c.skill_choices.clone(),
                spellcasting: c.spellcasting_ability,
                ..Default::default()
            }));
            continue;
        }
        let Some((srd, class)) = srd.and_then(|s| s.class(&cl.class).map(|c| (s, c))) else {
            out.unresolved.push(format!(
                "class '{}' is not in the SRD (or no SRD is configured): d8 hit die, no class grants",
                cl.class
            ));
            out.classes.push(Arc::new(ResolvedClass {
                name: cl.class.clone(),
                level: cl.level,
                hit_die: 8,
                ..Default::default()
            }));
            continue;
        };
        let subclass = cl
            .subclass
            .as_deref()
            .and_then(|s| srd.subclass(s))
            .filter(|s| s.class.index == class.index);
        out.classes.push(class_grants(
            srd,
            class,
            cl.level,
            subclass,
            out.classes.is_empty(),
        ));
    }
    // Background.
    if let Some(name) = &build.background {
        match srd.and_then(|s| s.background(name)) {
            Some(b) => {
                let mut skills = Vec::new();
                let mut proficiencies = Vec::new();
                for p in &b.proficiencies {
                    match skill_of(&p.index) {
                        Some(s) => skills.push(s),
                        None => proficiencies.push(p.name.clone()),
                    }
                }
                out.background = Some(ResolvedBackground {
                    name: b.name.clone(),
                    index: Some(b.index.clone()),
                    skills,
                    proficiencies,
                    feature: b.feature.as_ref().map(|f| f.name.clone()),
                });
            }
            None => {
                out.unresolved.push(format!(
                    "background '{name}' is not in the SRD: custom, no grants (give its skills with skills)"
                ));
                out.background = Some(ResolvedBackground {
                    name: name.clone(),
                    ..Default::default()
                });
            }
        }
    }
    out
}

/// What a class's grants depend on: the compendium (its load id: it never changes once loaded),
/// the class, its level, the chosen subclass (when it is one of the class's) and whether it is
/// the first class (a later class gives only its multiclassing proficiencies).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct ClassKey {
    srd: u64,
    class: String,
    level: u32,
    subclass: Option<String>,
    first: bool,
}

/// How many resolved classes are remembered (a handful per character in play).
const CLASS_CACHE_SIZE: usize = 512;

/// The grants of `level` levels in `class` (with `subclass`), made once per key and shared.
fn class_grants(
    srd: &Compendium,
    class: &tabletop_srd::model::Class,
    level: u32,
    subclass: Option<&tabletop_srd::model::Subclass>,
    first: bool,
) -> Arc<ResolvedClass> {
    static CACHE: OnceLock<Mutex<HashMap<ClassKey, Arc<ResolvedClass>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    let key = ClassKey {
        srd: srd.id(),
        class: class.index.clone(),
        level,
        subclass: subclass.map(|s| s.index.clone()),
        first,
    };
    if let Ok(map) = cache.lock()
        && let Some(hit) = map.get(&key)
    {
        return hit.clone();
    }
    let made = Arc::new(make_class(srd, class, level, subclass, first));
    if let Ok(mut map) = cache.lock() {
        if map.len() >= CLASS_CACHE_SIZE {
            map.clear();
        }
        map.insert(key, made.clone());
    }
    made
}

/// Resolves `level` levels in the SRD `class` (with `subclass`; `first`: the character's first
/// class).
fn make_class(
    srd: &Compendium,
    class: &tabletop_srd::model::Class,
    level: u32,
    subclass: Option<&tabletop_srd::model::Subclass>,
    first: bool,
) -> ResolvedClass {
    let lvl = u8::try_from(level.clamp(1, 20)).unwrap_or(20);
    let mut features = Vec::new();
    let mut feature_levels = std::collections::BTreeMap::new();
    for l in 1..=lvl {
        if let Some(row) = srd.class_row(&class.index, l) {
            for f in &row.features {
                features.push((f.index.clone(), f.name.clone()));
                feature_levels
                    .entry(f.index.clone())
                    .or_insert(u32::from(l));
            }
        }
    }
    let mut subclass_features = Vec::new();
    if let Some(sub) = subclass {
        for row in srd.subclass_levels(&sub.index) {
            if row.level <= lvl {
                for f in &row.features {
                    features.push((f.index.clone(), f.name.clone()));
                    feature_levels
                        .entry(f.index.clone())
                        .or_insert(u32::from(row.level));
                    subclass_features.push((u32::from(row.level), f.name.clone()));
                }
            }
        }
        // Subclass features the SRD lists but no level row names (Circle of the Land,
        // Circle Spells); an option of another feature ("circle-of-the-land-forest") is not
        // one: it is chosen (options).
        let own: Vec<&tabletop_srd::model::Feature> = srd.subclass_features(&sub.index).collect();
        for f in &own {
            let option = own.iter().any(|p| {
                f.index
                    .strip_prefix(p.index.as_str())
                    .is_some_and(|rest| rest.starts_with('-'))
            });
            if f.level <= lvl && !option && !feature_levels.contains_key(&f.index) {
                features.push((f.index.clone(), f.name.clone()));
                feature_levels.insert(f.index.clone(), u32::from(f.level));
                subclass_features.push((u32::from(f.level), f.name.clone()));
            }
        }
    }
    // A later class gives only its multiclassing proficiencies.
    let proficiencies = if first {
        let mut p = class.armor_proficiencies.clone();
        p.extend(class.weapon_proficiencies.iter().cloned());
        p.extend(class.other_proficiencies.iter().cloned());
        p
    } else {
        class.multiclassing.proficiencies.clone()
    };
    ResolvedClass {
        name: class.name.clone(),
        index: Some(class.index.clone()),
        level,
        hit_die: u32::from(class.hit_die),
        saves: class.saving_throws.clone(),
        proficiencies,
        skill_choice: class
            .skill_choices
            .as_ref()
            .map(|c| (c.choose, c.from.clone())),
        spellcasting: class.spellcasting_ability,
        class_specific: srd
            .class_row(&class.index, lvl)
            .map(|r| r.class_specific.clone())
            .unwrap_or_default(),
        features,
        feature_levels,
        subclass: subclass.map(|s| s.name.clone()),
        subclass_options: class.subclasses.iter().map(|r| r.name.clone()).collect(),
        subclass_features,
    }
}

/// The skill a proficiency index names ("skill-perception" → Perception).
pub(crate) fn proficiency_skill(index: &str) -> Option<Skill> {
    skill_of(index)
}
