//! Reading a 5e-database directory into a [`Compendium`].
//!
//! Every collection file is parsed on its own scoped thread (the files are independent), then the
//! raw records are converted into the typed records of [`crate::model`], references are resolved
//! and the search index is built.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use serde::de::DeserializeOwned;
use tabletop_rules::{Ability, Condition, DamageType, Size, Skill};

use crate::compendium::{Compendium, Ruleset};
use crate::convert::*;
use crate::error::SrdError;
use crate::index::SearchIndex;
use crate::model::*;
use crate::raw::*;

/// Collection files of the 2014 layout (all required).
pub(crate) const FILES_2014: &[&str] = &[
    "5e-SRD-Ability-Scores.json",
    "5e-SRD-Alignments.json",
    "5e-SRD-Backgrounds.json",
    "5e-SRD-Classes.json",
    "5e-SRD-Conditions.json",
    "5e-SRD-Damage-Types.json",
    "5e-SRD-Equipment-Categories.json",
    "5e-SRD-Equipment.json",
    "5e-SRD-Feats.json",
    "5e-SRD-Features.json",
    "5e-SRD-Languages.json",
    "5e-SRD-Levels.json",
    "5e-SRD-Magic-Items.json",
    "5e-SRD-Magic-Schools.json",
    "5e-SRD-Monsters.json",
    "5e-SRD-Proficiencies.json",
    "5e-SRD-Races.json",
    "5e-SRD-Rule-Sections.json",
    "5e-SRD-Rules.json",
    "5e-SRD-Skills.json",
    "5e-SRD-Spells.json",
    "5e-SRD-Subclasses.json",
    "5e-SRD-Subraces.json",
    "5e-SRD-Traits.json",
    "5e-SRD-Weapon-Properties.json",
];

/// Collection files of the 2024 layout (all optional; Poisons and Weapon-Mastery-Properties are
/// recognised but not loaded).
pub(crate) const FILES_2024: &[&str] = &[
    "5e-SRD-Ability-Scores.json",
    "5e-SRD-Alignments.json",
    "5e-SRD-Backgrounds.json",
    "5e-SRD-Classes.json",
    "5e-SRD-Conditions.json",
    "5e-SRD-Damage-Types.json",
    "5e-SRD-Equipment-Categories.json",
    "5e-SRD-Equipment.json",
    "5e-SRD-Feats.json",
    "5e-SRD-Features.json",
    "5e-SRD-Languages.json",
    "5e-SRD-Levels.json",
    "5e-SRD-Magic-Items.json",
    "5e-SRD-Magic-Schools.json",
    "5e-SRD-Monsters.json",
    "5e-SRD-Poisons.json",
    "5e-SRD-Proficiencies.json",
    "5e-SRD-Rule-Sections.json",
    "5e-SRD-Rules.json",
    "5e-SRD-Skills.json",
    "5e-SRD-Species.json",
    "5e-SRD-Spells.json",
    "5e-SRD-Subclasses.json",
    "5e-SRD-Subspecies.json",
    "5e-SRD-Traits.json",
    "5e-SRD-Weapon-Mastery-Properties.json",
    "5e-SRD-Weapon-Properties.json",
];

/// Reads one collection file; a missing optional file is an empty collection.
fn parse<T: DeserializeOwned>(dir: &Path, name: &str, required: bool) -> Result<Vec<T>, SrdError> {
    let file = dir.join(name);
    let bytes = match std::fs::read(&file) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return if required {
                Err(SrdError::MissingFile { file })
            } else {
                Ok(Vec::new())
            };
        }
        Err(source) => return Err(SrdError::Io { file, source }),
    };
    // Fast path without path tracking; on failure parse again to locate the error.
    match serde_json::from_slice::<Vec<T>>(&bytes) {
        Ok(v) => Ok(v),
        Err(plain) => {
            let mut de = serde_json::Deserializer::from_slice(&bytes);
            let (path, message) = match serde_path_to_error::deserialize::<_, Vec<T>>(&mut de) {
                Err(e) => (e.path().to_string(), e.inner().to_string()),
                Ok(_) => (".".to_string(), plain.to_string()),
            };
            Err(SrdError::Malformed {
                file,
                path,
                message,
            })
        }
    }
}

/// Checks the directory and decides which layout it has.
fn detect(dir: &Path) -> Result<(PathBuf, Ruleset), SrdError> {
    let no_data = || SrdError::NoData {
        dir: dir.to_path_buf(),
    };
    if !dir.is_dir() {
        return Err(no_data());
    }
    let has = |d: &Path, f: &str| d.join(f).is_file();
    if has(dir, "5e-SRD-Races.json") || has(dir, "5e-SRD-Spells.json") {
        return Ok((dir.to_path_buf(), Ruleset::Srd51));
    }
    if has(dir, "5e-SRD-Species.json") || has(dir, "5e-SRD-Classes.json") {
        return Ok((dir.to_path_buf(), Ruleset::Srd52));
    }
    // A release root: prefer the complete 2014 set.
    for (sub, rs) in [("2014", Ruleset::Srd51), ("2024", Ruleset::Srd52)] {
        let d = dir.join(sub);
        if has(&d, "5e-SRD-Classes.json") {
            return Ok((d, rs));
        }
    }
    Err(no_data())
}

/// Rejects `5e-SRD-*.json` files this ruleset does not know.
fn check_unknown_files(dir: &Path, known: &'static [&'static str]) -> Result<(), SrdError> {
    let rd = std::fs::read_dir(dir).map_err(|source| SrdError::Io {
        file: dir.to_path_buf(),
        source,
    })?;
    for ent in rd.flatten() {
        let name = ent.file_name();
        let Some(name) = name.to_str() else { continue };
        if name.starts_with("5e-SRD-") && name.ends_with(".json") && !known.contains(&name) {
            return Err(SrdError::UnknownFile {
                file: ent.path(),
                known: known.to_vec(),
            });
        }
    }
    Ok(())
}

/// Every raw collection, parsed.
struct Raw {
    ability_scores: Vec<RawAbilityScore>,
    alignments: Vec<RawAlignment>,
    backgrounds: Vec<RawBackground>,
    classes: Vec<RawClass>,
    conditions: Vec<RawLore>,
    damage_types: Vec<RawLore>,
    equipment_categories: Vec<RawEquipmentCategory>,
    equipment: Vec<RawEquipment>,
    feats: Vec<RawFeat>,
    features: Vec<RawFeature>,
    languages: Vec<RawLanguage>,
    levels: Vec<RawLevel>,
    magic_items: Vec<RawMagicItem>,
    magic_schools: Vec<RawLore>,
    monsters: Vec<RawMonster>,
    proficiencies: Vec<RawProficiency>,
    races: Vec<RawRace>,
    rule_sections: Vec<RawLore>,
    rules: Vec<RawRule>,
    skills: Vec<RawSkill>,
    spells: Vec<RawSpell>,
    subclasses: Vec<RawSubclass>,
    subraces: Vec<RawSubrace>,
    traits: Vec<RawTrait>,
    weapon_properties: Vec<RawLore>,
}

/// Waits for a parser thread; a panic there becomes an error instead of a crash.
fn join<T>(h: std::thread::ScopedJoinHandle<'_, Result<T, SrdError>>) -> Result<T, SrdError> {
    h.join().unwrap_or_else(|_| {
        Err(SrdError::InvalidQuery(
            "a loader thread panicked".to_string(),
        ))
    })
}

fn read_all(dir: &Path, rs: Ruleset) -> Result<Raw, SrdError> {
    let req = rs == Ruleset::Srd51;
    let (race_file, subrace_file) = match rs {
        Ruleset::Srd51 => ("5e-SRD-Races.json", "5e-SRD-Subraces.json"),
        Ruleset::Srd52 => ("5e-SRD-Species.json", "5e-SRD-Subspecies.json"),
    };
    std::thread::scope(|s| {
        // The big files get their own threads; the rest are parsed on this one meanwhile.
        let monsters = s.spawn(|| parse::<RawMonster>(dir, "5e-SRD-Monsters.json", req));
        let spells = s.spawn(|| parse::<RawSpell>(dir, "5e-SRD-Spells.json", req));
        let items = s.spawn(|| parse::<RawMagicItem>(dir, "5e-SRD-Magic-Items.json", req));
        let features = s.spawn(|| parse::<RawFeature>(dir, "5e-SRD-Features.json", req));
        let rest = (|| {
            Ok::<_, SrdError>((
                parse(dir, "5e-SRD-Ability-Scores.json", req)?,
                parse(dir, "5e-SRD-Alignments.json", req)?,
                parse(dir, "5e-SRD-Backgrounds.json", req)?,
                parse(dir, "5e-SRD-Classes.json", req)?,
                parse(dir, "5e-SRD-Conditions.json", req)?,
                parse(dir, "5e-SRD-Damage-Types.json", req)?,
                parse(dir, "5e-SRD-Equipment-Categories.json", req)?,
                parse(dir, "5e-SRD-Equipment.json", req)?,
                parse(dir, "5e-SRD-Feats.json", req)?,
                parse(dir, "5e-SRD-Languages.json", req)?,
                parse(dir, "5e-SRD-Levels.json", req)?,
                parse(dir, "5e-SRD-Magic-Schools.json", req)?,
                parse(dir, "5e-SRD-Proficiencies.json", req)?,
                parse(dir, race_file, req)?,
                parse(dir, "5e-SRD-Rule-Sections.json", req)?,
                parse(dir, "5e-SRD-Rules.json", req)?,
                parse(dir, "5e-SRD-Skills.json", req)?,
                parse(dir, "5e-SRD-Subclasses.json", req)?,
                parse(dir, subrace_file, req)?,
                parse(dir, "5e-SRD-Traits.json", req)?,
                parse(dir, "5e-SRD-Weapon-Properties.json", req)?,
            ))
        })();
        let monsters = join(monsters);
        let spells = join(spells);
        let magic_items = join(items);
        let features = join(features);
        let (
            ability_scores,
            alignments,
            backgrounds,
            classes,
            conditions,
            damage_types,
            equipment_categories,
            equipment,
            feats,
            languages,
            levels,
            magic_schools,
            proficiencies,
            races,
            rule_sections,
            rules,
            skills,
            subclasses,
            subraces,
            traits,
            weapon_properties,
        ) = rest?;
        Ok(Raw {
            ability_scores,
            alignments,
            backgrounds,
            classes,
            conditions,
            damage_types,
            equipment_categories,
            equipment,
            feats,
            features: features?,
            languages,
            levels,
            magic_items: magic_items?,
            magic_schools,
            monsters: monsters?,
            proficiencies,
            races,
            rule_sections,
            rules,
            skills,
            spells: spells?,
            subclasses,
            subraces,
            traits,
            weapon_properties,
        })
    })
}

impl Compendium {
    /// Loads a 5e-database directory: a 2014 folder (`src/2014/en`, SRD 5.1), a 2024 folder
    /// (`src/2024/en`, SRD 5.2, partial) or a folder holding `2014/` and `2024/` (2014 is used).
    ///
    /// Errors name the file and JSON path of malformed data; a missing or empty directory gives
    /// an error that says how to install the data.
    pub fn load(dir: &Path) -> Result<Compendium, SrdError> {
        let (dir, ruleset) = detect(dir)?;
        let known = match ruleset {
            Ruleset::Srd51 => FILES_2014,
            Ruleset::Srd52 => FILES_2024,
        };
        check_unknown_files(&dir, known)?;
        let raw = read_all(&dir, ruleset)?;
        build(&dir, ruleset, raw)
    }
}

fn build(dir: &Path, ruleset: Ruleset, raw: Raw) -> Result<Compendium, SrdError> {
    let race_file = match ruleset {
        Ruleset::Srd51 => ("5e-SRD-Races.json", "5e-SRD-Subraces.json"),
        Ruleset::Srd52 => ("5e-SRD-Species.json", "5e-SRD-Subspecies.json"),
    };

    // Simple records.
    let lore = |v: Vec<RawLore>| -> Vec<Lore> {
        v.into_iter()
            .map(|x| Lore {
                index: x.index,
                name: x.name,
                desc: x.desc,
            })
            .collect()
    };
    let conditions = raw
        .conditions
        .into_iter()
        .map(|x| ConditionInfo {
            condition: Condition::from_str(&x.index).ok(),
            index: x.index,
            name: x.name,
            desc: x.desc,
        })
        .collect();
    let damage_types = raw
        .damage_types
        .into_iter()
        .map(|x| DamageTypeInfo {
            damage_type: DamageType::from_str(&x.index).ok(),
            index: x.index,
            name: x.name,
            desc: x.desc,
        })
        .collect();
    let c = ctx(dir, "5e-SRD-Skills.json");
    let skills = raw
        .skills
        .into_iter()
        .enumerate()
        .map(|(i, x)| {
            Ok(SkillInfo {
                skill: Skill::from_str(&x.index).ok(),
                ability: ability_of(&c, format!("[{i}].ability_score.index"), &x.ability_score)?,
                index: x.index,
                name: x.name,
                desc: x.desc,
            })
        })
        .collect::<Result<Vec<_>, SrdError>>()?;
    let rules = raw
        .rules
        .into_iter()
        .map(|x| Rule {
            index: x.index,
            name: x.name,
            desc: x.desc,
            subsections: refs(x.subsections),
        })
        .collect();
    let prof_kind: HashMap<&str, &str> = raw
        .proficiencies
        .iter()
        .map(|p| (p.index.as_str(), p.kind.as_str()))
        .collect();
    let languages = raw
        .languages
        .into_iter()
        .map(|x| Language {
            index: x.index,
            name: x.name,
            category: x.kind,
            typical_speakers: x.typical_speakers,
            script: x.script,
            desc: x.desc,
        })
        .collect();
    let alignments = raw
        .alignments
        .into_iter()
        .map(|x| Alignment {
            index: x.index,
            name: x.name,
            abbreviation: x.abbreviation,
            desc: x.desc,
        })
        .collect();

    // Classes need their level tables for the caster kind.
    let c = ctx(dir, "5e-SRD-Levels.json");
    let mut levels: Vec<ClassLevel> = Vec::with_capacity(raw.levels.len());
    for x in raw.levels {
        let sc = x.spellcasting.unwrap_or_default();
        let slots = [
            sc.spell_slots_level_1,
            sc.spell_slots_level_2,
            sc.spell_slots_level_3,
            sc.spell_slots_level_4,
            sc.spell_slots_level_5,
            sc.spell_slots_level_6,
            sc.spell_slots_level_7,
            sc.spell_slots_level_8,
            sc.spell_slots_level_9,
        ];
        let mut class_specific = x.class_specific.unwrap_or_default();
        if let Some(s) = x.subclass_specific {
            class_specific.extend(s);
        }
        levels.push(ClassLevel {
            index: x.index,
            class: x.class.index,
            subclass: x.subclass.map(|s| s.index),
            level: x.level,
            prof_bonus: x.prof_bonus,
            ability_score_bonuses: x.ability_score_bonuses,
            spell_slots: slots,
            pact_slots: None,
            cantrips_known: sc.cantrips_known,
            spells_known: sc.spells_known.or(sc.prepared_spells),
            features: refs(x.features),
            class_specific,
        });
    }

    let c_cls = ctx(dir, "5e-SRD-Classes.json");
    let mut classes = Vec::with_capacity(raw.classes.len());
    for (i, x) in raw.classes.into_iter().enumerate() {
        let saving_throws = x
            .saving_throws
            .iter()
            .enumerate()
            .map(|(j, s)| ability_of(&c_cls, format!("[{i}].saving_throws[{j}].index"), s))
            .collect::<Result<Vec<_>, _>>()?;
        let mut skill_choices = None;
        let mut proficiency_choices = Vec::new();
        for ch in &x.proficiency_choices {
            if let Some(d) = &ch.desc {
                proficiency_choices.push(d.clone());
            }
            let Some(from) = &ch.from else { continue };
            if skill_choices.is_some() || from.options.is_empty() {
                continue;
            }
            let skills: Option<Vec<Skill>> = from
                .options
                .iter()
                .map(|o| {
                    o.item
                        .as_ref()
                        .and_then(|it| it.index.strip_prefix("skill-"))
                        .and_then(|s| Skill::from_str(s).ok())
                })
                .collect();
            if let Some(from) = skills {
                skill_choices = Some(SkillChoice {
                    choose: ch.choose,
                    from,
                });
            }
        }
        let (mut armor, mut weapons, mut other) = (Vec::new(), Vec::new(), Vec::new());
        for p in &x.proficiencies {
            match prof_kind.get(p.index.as_str()).copied() {
                Some("Armor") => armor.push(p.name.clone()),
                Some("Weapons") => weapons.push(p.name.clone()),
                Some("Saving Throws") => {}
                _ if p.index.starts_with("saving-throw-") => {}
                _ => other.push(p.name.clone()),
            }
        }
        let (spellcasting_ability, spellcasting_level) = match &x.spellcasting {
            Some(sc) => (
                Some(ability_of(
                    &c_cls,
                    format!("[{i}].spellcasting.spellcasting_ability.index"),
                    &sc.spellcasting_ability,
                )?),
                sc.level,
            ),
            None => (None, None),
        };
        let caster_kind = caster_kind(
            levels
                .iter()
                .filter(|l| l.class == x.index && l.subclass.is_none()),
        );
        let mc = x.multi_classing.clone().unwrap_or_default();
        let minimums = |v: Option<&serde_json::Value>| -> Vec<AbilityMinimum> {
            v.and_then(|v| v.as_array())
                .map(|a| {
                    a.iter()
                        .filter_map(|p| {
                            let ab = p.get("ability_score")?.get("index")?.as_str()?;
                            let m = p.get("minimum_score")?.as_u64()?;
                            Some(AbilityMinimum {
                                ability: Ability::from_str(ab).ok()?,
                                minimum: u8::try_from(m).ok()?,
                            })
                        })
                        .collect()
                })
                .unwrap_or_default()
        };
        let multiclass_prerequisites = minimums(mc.get("prerequisites"));
        let multiclass_prerequisite_any = minimums(
            mc.get("prerequisite_options")
                .and_then(|o| o.get("from"))
                .and_then(|f| f.get("options")),
        );
        let multiclass_proficiencies: Vec<String> = mc
            .get("proficiencies")
            .and_then(|v| v.as_array())
            .map(|a| {
                a.iter()
                    .filter_map(|p| p.get("name")?.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        classes.push(Class {
            multiclassing: crate::multiclassing::Multiclassing {
                prerequisites: multiclass_prerequisites,
                prerequisite_any: multiclass_prerequisite_any,
                proficiencies: multiclass_proficiencies,
            },
            index: x.index,
            name: x.name,
            hit_die: x.hit_die,
            saving_throws,
            skill_choices,
            proficiency_choices,
            armor_proficiencies: armor,
            weapon_proficiencies: weapons,
            other_proficiencies: other,
            spellcasting_ability,
            spellcasting_level,
            caster_kind,
            subclasses: refs(x.subclasses),
        });
    }
    // Level rows must name a known class; pact casters get their pact slots.
    for (i, l) in levels.iter_mut().enumerate() {
        let Some(cls) = classes.iter().find(|k| k.index == l.class) else {
            return Err(c.err(
                format!("[{i}].class.index"),
                format!("unknown class '{}'", l.class),
            ));
        };
        if cls.caster_kind == CasterKind::Pact {
            l.pact_slots =
                l.spell_slots
                    .iter()
                    .enumerate()
                    .find(|(_, n)| **n > 0)
                    .map(|(lvl, n)| PactSlots {
                        count: *n,
                        slot_level: lvl as u8 + 1,
                    });
        }
    }

    let subclasses = raw
        .subclasses
        .into_iter()
        .map(|x| Subclass {
            index: x.index,
            name: x.name,
            class: r(x.class),
            flavor: x.subclass_flavor,
            desc: x.desc,
            spells: x
                .spells
                .into_iter()
                .filter_map(|s| {
                    // "cleric-3": the class level after the last dash.
                    let level = s
                        .prerequisites
                        .iter()
                        .find_map(|p| p.index.rsplit('-').next()?.parse::<u8>().ok())?;
                    // Other prerequisites name features ("circle-of-the-land-arctic").
                    let features = s
                        .prerequisites
                        .iter()
                        .filter(|p| {
                            p.index
                                .rsplit('-')
                                .next()
                                .is_none_or(|n| n.parse::<u8>().is_err())
                        })
                        .map(|p| p.index.clone())
                        .collect();
                    Some(SubclassSpell {
                        level,
                        spell: r(s.spell),
                        features,
                    })
                })
                .collect(),
        })
        .collect();
    let c = ctx(dir, "5e-SRD-Features.json");
    let features = raw
        .features
        .into_iter()
        .enumerate()
        .map(|(i, x)| {
            Ok(Feature {
                level: x
                    .level
                    .number()
                    .ok_or_else(|| c.err(format!("[{i}].level"), "no level number"))?,
                index: x.index,
                name: x.name,
                class: r(x.class),
                subclass: x.subclass.map(r),
                desc: x.desc,
            })
        })
        .collect::<Result<Vec<_>, SrdError>>()?;

    // Races, resolving traits.
    let trait_text: HashMap<&str, &RawTrait> =
        raw.traits.iter().map(|t| (t.index.as_str(), t)).collect();
    let resolve_traits = |v: &[RawRef]| -> Vec<NamedText> {
        v.iter()
            .map(|t| match trait_text.get(t.index.as_str()) {
                Some(tr) => NamedText {
                    name: tr.name.clone(),
                    desc: tr.desc.clone(),
                },
                None => NamedText {
                    name: t.name.clone(),
                    desc: Vec::new(),
                },
            })
            .collect()
    };
    let c = ctx(dir, race_file.0);
    let mut races = Vec::with_capacity(raw.races.len());
    for (i, x) in raw.races.into_iter().enumerate() {
        let size = match &x.size {
            Some(s) => Some(c.parse::<Size>(format!("[{i}].size"), s)?),
            None => None,
        };
        let ability_bonus_choice = match &x.ability_bonus_options {
            Some(ch) => Some(AbilityBonusChoice {
                choose: ch.choose,
                from: bonuses(
                    &c,
                    &format!("[{i}].ability_bonus_options.from.options"),
                    &ch.from.options,
                )?,
            }),
            None => None,
        };
        races.push(Race {
            ability_bonuses: bonuses(&c, &format!("[{i}].ability_bonuses"), &x.ability_bonuses)?,
            ability_bonus_choice,
            traits: resolve_traits(&x.traits),
            index: x.index,
            name: x.name,
            speed: x.speed,
            size,
            alignment: x.alignment,
            age: x.age,
            size_description: x.size_description,
            languages: x.languages.into_iter().map(|l| l.name).collect(),
            language_desc: x.language_desc,
            language_choice: x.language_options.as_ref().map(|ch| LanguageChoice {
                choose: ch.choose,
                from: ch
                    .from
                    .iter()
                    .flat_map(|f| &f.options)
                    .filter_map(|o| o.item.as_ref().map(|r| r.name.clone()))
                    .collect(),
            }),
            subraces: refs(x.subraces),
        });
    }
    let c = ctx(dir, race_file.1);
    let mut subraces = Vec::with_capacity(raw.subraces.len());
    for (i, x) in raw.subraces.into_iter().enumerate() {
        let own = bonuses(&c, &format!("[{i}].ability_bonuses"), &x.ability_bonuses)?;
        let Some(parent) = races.iter().find(|r| r.index == x.race.index) else {
            return Err(c.err(
                format!("[{i}].race.index"),
                format!("unknown race '{}'", x.race.index),
            ));
        };
        let mut total: Vec<(Ability, i32)> = parent.ability_bonuses.clone();
        for (a, b) in &own {
            match total.iter_mut().find(|(t, _)| t == a) {
                Some(slot) => slot.1 += b,
                None => total.push((*a, *b)),
            }
        }
        subraces.push(Subrace {
            traits: resolve_traits(&x.racial_traits),
            index: x.index,
            name: x.name,
            race: r(x.race),
            desc: x.desc,
            ability_bonuses: own,
            total_ability_bonuses: total,
        });
    }
    let c = ctx(dir, "5e-SRD-Traits.json");
    let traits = raw
        .traits
        .into_iter()
        .enumerate()
        .map(|(i, x)| {
            let breath_weapon = match x.trait_specific.and_then(|t| t.breath_weapon) {
                Some(b) => Some(breath_of(&c, i, b)?),
                None => None,
            };
            Ok(Trait {
                index: x.index,
                name: x.name,
                desc: x.desc,
                races: refs(x.races),
                subraces: refs(x.subraces),
                proficiencies: refs(x.proficiencies),
                breath_weapon,
            })
        })
        .collect::<Result<Vec<_>, SrdError>>()?;

    let c = ctx(dir, "5e-SRD-Backgrounds.json");
    let mut backgrounds = Vec::new();
    for (i, x) in raw.backgrounds.into_iter().enumerate() {
        let ability_scores = x
            .ability_scores
            .iter()
            .enumerate()
            .map(|(j, a)| ability_of(&c, format!("[{i}].ability_scores[{j}].index"), a))
            .collect::<Result<Vec<_>, _>>()?;
        let feature = x.feature.map(|f| NamedText {
            name: f.name,
            desc: f.desc,
        });
        let desc = if x.desc.is_empty() {
            feature.as_ref().map(|f| f.desc.clone()).unwrap_or_default()
        } else {
            x.desc
        };
        backgrounds.push(Background {
            index: x.index,
            name: x.name,
            proficiencies: refs(x.starting_proficiencies),
            feature,
            ability_scores,
            feat: x.feat.map(r),
            desc,
        });
    }
    let feats = raw
        .feats
        .into_iter()
        .map(|x| {
            let prerequisites = x
                .prerequisites
                .as_array()
                .map(Vec::as_slice)
                .unwrap_or_default()
                .iter()
                .filter_map(|p| {
                    let a = p.get("ability_score")?.get("index")?.as_str()?;
                    let m = p.get("minimum_score")?.as_u64()?;
                    Some(AbilityMinimum {
                        ability: Ability::from_str(a).ok()?,
                        minimum: u8::try_from(m).ok()?,
                    })
                })
                .collect();
            Feat {
                index: x.index,
                name: x.name,
                prerequisites,
                category: x.kind,
                desc: x.desc,
            }
        })
        .collect();
    let proficiencies = raw
        .proficiencies
        .into_iter()
        .map(|x| Proficiency {
            index: x.index,
            name: x.name,
            category: x.kind,
            classes: refs(x.classes),
            races: refs(x.races),
            reference: x.reference.map(r),
        })
        .collect();

    let spells = convert_spells(&ctx(dir, "5e-SRD-Spells.json"), raw.spells)?;
    let monsters = convert_monsters(&ctx(dir, "5e-SRD-Monsters.json"), raw.monsters)?;
    let equipment = convert_equipment(&ctx(dir, "5e-SRD-Equipment.json"), raw.equipment)?;
    let magic_items = raw
        .magic_items
        .into_iter()
        .map(convert_magic_item)
        .collect();
    let equipment_categories = raw
        .equipment_categories
        .into_iter()
        .map(|x| {
            (
                Ref {
                    index: x.index,
                    name: x.name,
                },
                x.equipment.into_iter().map(|e| e.index).collect(),
            )
        })
        .collect();
    let ability_scores = raw
        .ability_scores
        .into_iter()
        .map(|x| Lore {
            index: x.index,
            name: x.full_name,
            desc: x.desc,
        })
        .collect();

    static LOADS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    let mut comp = Compendium {
        id: LOADS.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
        ruleset,
        classes,
        levels,
        subclasses,
        features,
        races,
        subraces,
        traits,
        backgrounds,
        feats,
        conditions,
        rules,
        rule_sections: lore(raw.rule_sections),
        proficiencies,
        skills,
        damage_types,
        magic_schools: lore(raw.magic_schools),
        weapon_properties: lore(raw.weapon_properties),
        languages,
        alignments,
        ability_scores,
        equipment_categories,
        spells,
        monsters,
        equipment,
        magic_items,
        class_rows: HashMap::new(),
        subclass_rows: HashMap::new(),
        subclass_feature_map: HashMap::new(),
        index: SearchIndex::default(),
    };
    let level_map: HashMap<(String, u8), usize> = comp
        .levels
        .iter()
        .enumerate()
        .filter(|(_, l)| l.subclass.is_none())
        .map(|(i, l)| ((l.class.clone(), l.level), i))
        .collect();
    for ((class, level), &i) in &level_map {
        let rows = comp.class_rows.entry(class.clone()).or_default();
        let at = usize::from(*level);
        if rows.len() <= at {
            rows.resize(at + 1, None);
        }
        rows[at] = Some(i);
    }
    for (i, l) in comp.levels.iter().enumerate() {
        if let Some(sub) = &l.subclass {
            comp.subclass_rows.entry(sub.clone()).or_default().push(i);
        }
    }
    for rows in comp.subclass_rows.values_mut() {
        rows.sort_by_key(|&i| comp.levels[i].level);
    }
    for (i, f) in comp.features.iter().enumerate() {
        if let Some(sub) = &f.subclass {
            comp.subclass_feature_map
                .entry(sub.index.clone())
                .or_default()
                .push(i);
        }
    }
    comp.index = SearchIndex::build(&comp);
    Ok(comp)
}
