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
use crate::error::SrdError;
use crate::model::*;
use crate::raw::*;
use crate::search::SearchIndex;

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

/// Where a conversion error happened.
struct Ctx {
    file: PathBuf,
}

impl Ctx {
    fn err(&self, path: impl Into<String>, message: impl Into<String>) -> SrdError {
        SrdError::Malformed {
            file: self.file.clone(),
            path: path.into(),
            message: message.into(),
        }
    }
    fn parse<T: FromStr>(&self, path: impl Into<String>, s: &str) -> Result<T, SrdError>
    where
        T::Err: std::fmt::Display,
    {
        T::from_str(s).map_err(|e| self.err(path, e.to_string()))
    }
}

fn r(x: RawRef) -> Ref {
    Ref {
        index: x.index,
        name: x.name,
    }
}

fn refs(x: Vec<RawRef>) -> Vec<Ref> {
    x.into_iter().map(r).collect()
}

/// Leading integer of "30 ft.".
pub(crate) fn feet(s: &str) -> Option<u32> {
    let digits: &str = &s[..s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len())];
    digits.parse().ok()
}

fn save_effect(s: Option<&str>) -> SaveEffect {
    match s {
        Some("half") => SaveEffect::Half,
        Some("none") => SaveEffect::None,
        _ => SaveEffect::Other,
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

fn ctx(dir: &Path, file: &str) -> Ctx {
    Ctx {
        file: dir.join(file),
    }
}

fn ability_of(c: &Ctx, path: impl Into<String>, x: &RawRef) -> Result<Ability, SrdError> {
    c.parse(path, &x.index)
}

fn damage_type_of(c: &Ctx, path: impl Into<String>, x: &RawRef) -> Result<DamageType, SrdError> {
    c.parse(path, &x.index)
}

fn bonuses(c: &Ctx, path: &str, raw: &[RawAbilityBonus]) -> Result<Vec<(Ability, i32)>, SrdError> {
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
            multiclass_prerequisites,
            multiclass_prerequisite_any,
            multiclass_proficiencies,
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
    let traits = raw
        .traits
        .into_iter()
        .map(|x| Trait {
            index: x.index,
            name: x.name,
            desc: x.desc,
            races: refs(x.races),
            subraces: refs(x.subraces),
            proficiencies: refs(x.proficiencies),
        })
        .collect();

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

    let mut comp = Compendium {
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
        level_map: HashMap::new(),
        index: SearchIndex::default(),
    };
    comp.level_map = comp
        .levels
        .iter()
        .enumerate()
        .filter(|(_, l)| l.subclass.is_none())
        .map(|(i, l)| ((l.class.clone(), l.level), i))
        .collect();
    comp.index = SearchIndex::build(&comp);
    Ok(comp)
}

/// Full, half, third, pact or none, from the base rows of a class's level table.
fn caster_kind<'a>(rows: impl Iterator<Item = &'a ClassLevel>) -> CasterKind {
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

fn convert_spells(c: &Ctx, raw: Vec<RawSpell>) -> Result<Vec<Spell>, SrdError> {
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
            Some(a) => Some(AreaOfEffect {
                shape: match a.kind.as_str() {
                    "sphere" => AreaShape::Sphere,
                    "cone" => AreaShape::Cone,
                    "cube" => AreaShape::Cube,
                    "cylinder" => AreaShape::Cylinder,
                    "line" => AreaShape::Line,
                    other => {
                        return Err(c.err(
                            format!("[{i}].area_of_effect.type"),
                            format!("unknown area shape '{other}'; allowed: sphere, cone, cube, cylinder, line"),
                        ));
                    }
                },
                size: a.size,
            }),
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

fn save_dc(c: &Ctx, path: &str, d: &RawDc) -> Result<SaveDc, SrdError> {
    Ok(SaveDc {
        ability: ability_of(c, format!("{path}.dc_type.index"), &d.dc_type)?,
        value: d.dc_value,
        success: save_effect(d.success_type.as_deref()),
    })
}

fn opt_dc(c: &Ctx, path: &str, d: &Option<RawDc>) -> Result<Option<SaveDc>, SrdError> {
    d.as_ref()
        .map(|d| save_dc(c, &format!("{path}.dc"), d))
        .transpose()
}

fn usage(u: RawUsage) -> Usage {
    Usage {
        kind: u.kind,
        times: u.times,
        dice: u.dice,
        min_value: u.min_value,
        rest_types: u.rest_types,
    }
}

fn step(s: RawMultiStep) -> MultiattackStep {
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

fn damage_entry(c: &Ctx, path: &str, d: &RawDamage) -> Result<Option<ActionDamage>, SrdError> {
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

fn damages(
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

fn convert_action(c: &Ctx, path: &str, x: RawAction) -> Result<MonsterAction, SrdError> {
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

fn convert_actions(
    c: &Ctx,
    path: String,
    v: Vec<RawAction>,
) -> Result<Vec<MonsterAction>, SrdError> {
    v.into_iter()
        .enumerate()
        .map(|(j, a)| convert_action(c, &format!("{path}[{j}]"), a))
        .collect()
}

fn plain_types(v: &[String]) -> Vec<DamageType> {
    v.iter()
        .filter_map(|s| DamageType::from_str(s).ok())
        .collect()
}

fn convert_monsters(c: &Ctx, raw: Vec<RawMonster>) -> Result<Vec<Monster>, SrdError> {
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

fn dice(c: &Ctx, path: String, d: Option<RawDice>) -> Result<Option<Dice>, SrdError> {
    let Some(d) = d else { return Ok(None) };
    Ok(Some(Dice {
        damage_type: match &d.damage_type {
            Some(t) => Some(damage_type_of(c, format!("{path}.damage_type.index"), t)?),
            None => None,
        },
        dice: d.damage_dice,
    }))
}

fn convert_equipment(c: &Ctx, raw: Vec<RawEquipment>) -> Result<Vec<Equipment>, SrdError> {
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
fn attunement(desc: &[String]) -> (bool, Option<String>) {
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

fn convert_magic_item(x: RawMagicItem) -> MagicItem {
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
