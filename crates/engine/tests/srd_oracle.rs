//! Oracle tests: the SRD's raw JSON, read here with `serde_json::Value` (a small reading of its
//! own, not the engine's srd crate), says what a character built from it must be; the engine
//! builds it through the real `create_character` and `level_up` use cases, and the two are
//! compared field by field for every race/subrace × class at levels 1, 5, 11 and 20: scores, max
//! HP, hit dice, proficiency bonus, saves, speed, darkvision, resistances, race and background
//! skills, spell slots, the class features gained by each level, and the spells kept (cantrips
//! and spells known from the level table; a prepared caster's ability modifier + level).
//!
//! Where the engine does not follow the rules yet, the mismatch is listed in [`KNOWN_GAPS`] with
//! its issue. The test fails on any mismatch not listed, and on any listed gap that no longer
//! shows (fixed: remove it from the list), so the list stays honest.

use super::common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde_json::Value;
use tabletop_engine::character::{Character, CharacterRef};
use tabletop_engine::compendium::CompendiumSource;
use tabletop_engine::creation::{CreateRequest, create_character};
use tabletop_engine::levelling::{LevelHpMethod, level_up};
use tabletop_engine::sheet::get_character;
use tabletop_engine::{Engine, EngineOptions, SqliteStore};
use tabletop_rules::Ability;
use tabletop_rules::hp::HpMethod;

/// Rules the engine does not follow yet: (pattern, reason). A pattern is
/// `race/class/level/field` where any part may be `*`. Each must match at least one mismatch.
const KNOWN_GAPS: &[(&str, &str)] = &[];

/// Class features the SRD JSON lists at the wrong place, left out of the feature comparison:
/// Twinned Spell is one of the Metamagic options (its siblings name `metamagic-1` as parent,
/// it does not), and Supreme Healing is the Life Domain's 17th-level feature (SRD 5.1, Life
/// Domain), listed without its subclass.
const JSON_ERRATA: &[&str] = &["Metamagic: Twinned Spell", "Supreme Healing"];

/// The levels every combination is checked at.
const LEVELS: [u32; 4] = [1, 5, 11, 20];

/// Scores before racial bonuses, STR DEX CON INT WIS CHA.
const BASE: [i64; 6] = [15, 12, 14, 10, 13, 8];

fn read(dir: &Path, file: &str) -> Vec<Value> {
    let text = std::fs::read_to_string(dir.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
    serde_json::from_str::<Value>(&text)
        .unwrap_or_else(|e| panic!("{file}: {e}"))
        .as_array()
        .unwrap_or_else(|| panic!("{file} is not an array"))
        .clone()
}

fn idx(v: &Value) -> String {
    v["index"].as_str().unwrap_or_default().to_string()
}

fn indexes(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| a.iter().map(idx).collect())
        .unwrap_or_default()
}

/// "Strength" → STR.
fn ability_named(name: &str) -> Option<Ability> {
    Ability::ALL
        .iter()
        .zip([
            "Strength",
            "Dexterity",
            "Constitution",
            "Intelligence",
            "Wisdom",
            "Charisma",
        ])
        .find(|(_, n)| *n == name)
        .map(|(a, _)| *a)
}

/// What a class feature's text grants that the oracle checks: ability increases ("Your Strength
/// and Constitution scores increase by 4") and saving-throw proficiencies ("proficiency in all
/// saving throws", "proficiency in Wisdom saving throws").
#[derive(Default)]
struct FeatureGrants {
    increases: Vec<(Ability, i64)>,
    saves: BTreeSet<Ability>,
}

fn feature_grants(desc: &str) -> FeatureGrants {
    let mut g = FeatureGrants::default();
    for sentence in desc.split(". ") {
        if let Some(i) = sentence.find("scores increase by ") {
            let n: i64 = sentence[i + "scores increase by ".len()..]
                .split(|c: char| !c.is_ascii_digit())
                .next()
                .and_then(|d| d.parse().ok())
                .expect("an increase");
            for w in sentence[..i].split_whitespace() {
                if let Some(a) = ability_named(w) {
                    g.increases.push((a, n));
                }
            }
        }
        if sentence.contains("proficiency in all saving throws") {
            g.saves.extend(Ability::ALL);
        } else if let Some(i) = sentence.find("proficiency in ") {
            let rest = &sentence[i + "proficiency in ".len()..];
            let mut words = rest.split_whitespace();
            if let (Some(a), Some("saving")) = (words.next().and_then(ability_named), words.next())
            {
                g.saves.insert(a);
            }
        }
    }
    g
}

fn ability(short: &str) -> Ability {
    match short {
        "str" => Ability::Strength,
        "dex" => Ability::Dexterity,
        "con" => Ability::Constitution,
        "int" => Ability::Intelligence,
        "wis" => Ability::Wisdom,
        "cha" => Ability::Charisma,
        other => panic!("unknown ability {other}"),
    }
}

/// "resistance to fire damage" / "resistance against poison damage" in a trait's text.
fn resistance_in(desc: &str) -> Option<String> {
    let lower = desc.to_lowercase();
    for lead in ["resistance to ", "resistance against "] {
        if let Some(i) = lower.find(lead) {
            let rest = &lower[i + lead.len()..];
            let word = rest.split_whitespace().next()?;
            if rest[word.len()..].trim_start().starts_with("damage") && word != "the" {
                return Some(word.to_string());
            }
        }
    }
    None
}

/// "within 60 feet" in the darkvision trait's text.
fn feet_in(desc: &str) -> Option<u32> {
    let i = desc.find(" feet")?;
    desc[..i].rsplit(' ').next()?.parse().ok()
}

/// One race or subrace as the JSON describes it.
struct RaceFacts {
    /// "hill-dwarf", or the race for races without subraces.
    key: String,
    race: String,
    subrace: Option<String>,
    speed: u32,
    bonuses: BTreeMap<Ability, i64>,
    /// Chosen ability bonuses (the half-elf's two +1s): the first options the JSON offers,
    /// passed to the engine as `abilityChoices`.
    choices: Vec<Ability>,
    traits: BTreeSet<String>,
    /// Skill proficiencies the traits grant.
    skills: BTreeSet<String>,
    resistances: BTreeSet<String>,
    darkvision: Option<u32>,
}

/// One class level from Classes and Levels.
struct ClassFacts {
    key: String,
    hit_die: u32,
    saves: BTreeSet<Ability>,
    /// level → (proficiency bonus, slots per spell level 1–9).
    levels: BTreeMap<u32, (i32, [u8; 9])>,
    /// Class features (no subclass): the level gained and what the text grants.
    features: Vec<(u32, FeatureGrants)>,
    /// Class features (no subclass, no choice options): level gained and name.
    feature_names: Vec<(u32, String)>,
    /// The spellcasting ability (Classes JSON), if the class casts.
    casting: Option<Ability>,
    /// level → (cantrips known, spells known) from the level table.
    spell_counts: BTreeMap<u32, (Option<u64>, Option<u64>)>,
}

struct Oracle {
    races: Vec<RaceFacts>,
    classes: Vec<ClassFacts>,
    background_skills: BTreeSet<String>,
}

fn oracle(dir: &Path) -> Oracle {
    let traits: BTreeMap<String, Value> = read(dir, "5e-SRD-Traits.json")
        .into_iter()
        .map(|t| (idx(&t), t))
        .collect();
    let text = |t: &str| -> String {
        traits[t]["desc"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|d| d.as_str())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .unwrap_or_default()
    };
    let subraces: BTreeMap<String, Value> = read(dir, "5e-SRD-Subraces.json")
        .into_iter()
        .map(|s| (idx(&s), s))
        .collect();
    let mut races = Vec::new();
    for r in read(dir, "5e-SRD-Races.json") {
        let subs = indexes(&r["subraces"]);
        let variants: Vec<Option<String>> = if subs.is_empty() {
            vec![None]
        } else {
            subs.into_iter().map(Some).collect()
        };
        for sub in variants {
            let mut bonuses = BTreeMap::new();
            let mut trait_ids: Vec<String> = indexes(&r["traits"]);
            let mut add_bonuses = |v: &Value| {
                for b in v.as_array().into_iter().flatten() {
                    *bonuses
                        .entry(ability(&idx(&b["ability_score"])))
                        .or_insert(0) += b["bonus"].as_i64().unwrap();
                }
            };
            add_bonuses(&r["ability_bonuses"]);
            // Chosen bonuses: the first `choose` options, shaped like fixed ones.
            let opts = &r["ability_bonus_options"];
            let choose = opts["choose"].as_u64().unwrap_or(0) as usize;
            let picked: Vec<Value> = opts["from"]["options"]
                .as_array()
                .into_iter()
                .flatten()
                .take(choose)
                .cloned()
                .collect();
            add_bonuses(&Value::Array(picked.clone()));
            let choices: Vec<Ability> = picked
                .iter()
                .map(|o| ability(&idx(&o["ability_score"])))
                .collect();
            if let Some(s) = &sub {
                add_bonuses(&subraces[s]["ability_bonuses"]);
                trait_ids.extend(indexes(&subraces[s]["racial_traits"]));
            }
            let mut skills = BTreeSet::new();
            let mut resistances = BTreeSet::new();
            let mut darkvision = None;
            for t in &trait_ids {
                for p in indexes(&traits[t]["proficiencies"]) {
                    if let Some(skill) = p.strip_prefix("skill-") {
                        skills.insert(skill.to_string());
                    }
                }
                if let Some(d) = resistance_in(&text(t)) {
                    resistances.insert(d);
                }
                if t == "darkvision" {
                    darkvision = feet_in(&text(t));
                }
            }
            let mut key = sub.clone().unwrap_or_else(|| idx(&r));
            if trait_ids.iter().any(|t| t == "draconic-ancestry") {
                // The ancestry is a choice; the red dragon's (fire) is the one checked.
                let red = &traits["draconic-ancestry-red"]["trait_specific"]["damage_type"];
                resistances.insert(idx(red));
                key = format!("{key}-red");
            }
            races.push(RaceFacts {
                key,
                race: r["name"].as_str().unwrap().to_string(),
                subrace: sub.map(|s| subraces[&s]["name"].as_str().unwrap().to_string()),
                speed: r["speed"].as_u64().unwrap() as u32,
                bonuses,
                choices,
                traits: trait_ids.into_iter().collect(),
                skills,
                resistances,
                darkvision,
            });
        }
    }
    let levels = read(dir, "5e-SRD-Levels.json");
    let features = read(dir, "5e-SRD-Features.json");
    let classes = read(dir, "5e-SRD-Classes.json")
        .into_iter()
        .map(|c| {
            let key = idx(&c);
            let mut by_level = BTreeMap::new();
            let mut counts = BTreeMap::new();
            for l in levels
                .iter()
                .filter(|l| l.get("subclass").is_none() && idx(&l["class"]) == key)
            {
                let mut slots = [0u8; 9];
                for (i, s) in slots.iter_mut().enumerate() {
                    *s = l["spellcasting"][format!("spell_slots_level_{}", i + 1)]
                        .as_u64()
                        .unwrap_or(0) as u8;
                }
                by_level.insert(
                    l["level"].as_u64().unwrap() as u32,
                    (l["prof_bonus"].as_i64().unwrap() as i32, slots),
                );
                counts.insert(
                    l["level"].as_u64().unwrap() as u32,
                    (
                        l["spellcasting"]["cantrips_known"].as_u64(),
                        l["spellcasting"]["spells_known"].as_u64(),
                    ),
                );
            }
            ClassFacts {
                hit_die: c["hit_die"].as_u64().unwrap() as u32,
                saves: indexes(&c["saving_throws"])
                    .iter()
                    .map(|s| ability(s))
                    .collect(),
                levels: by_level,
                spell_counts: counts,
                casting: c["spellcasting"]["spellcasting_ability"]["index"]
                    .as_str()
                    .map(ability),
                feature_names: features
                    .iter()
                    .filter(|f| {
                        f.get("subclass").is_none()
                            && f.get("parent").is_none()
                            && idx(&f["class"]) == key
                            && !JSON_ERRATA.contains(&f["name"].as_str().unwrap_or(""))
                    })
                    .map(|f| {
                        (
                            f["level"].as_u64().unwrap() as u32,
                            f["name"].as_str().unwrap().to_string(),
                        )
                    })
                    .collect(),
                features: features
                    .iter()
                    .filter(|f| f.get("subclass").is_none() && idx(&f["class"]) == key)
                    .map(|f| {
                        let desc = f["desc"]
                            .as_array()
                            .map(|a| {
                                a.iter()
                                    .filter_map(|d| d.as_str())
                                    .collect::<Vec<_>>()
                                    .join(" ")
                            })
                            .unwrap_or_default();
                        (f["level"].as_u64().unwrap() as u32, feature_grants(&desc))
                    })
                    .collect(),
                key,
            }
        })
        .collect();
    let background_skills = read(dir, "5e-SRD-Backgrounds.json")
        .iter()
        .find(|b| idx(b) == "acolyte")
        .map(|b| {
            indexes(&b["starting_proficiencies"])
                .iter()
                .filter_map(|p| p.strip_prefix("skill-").map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    Oracle {
        races,
        classes,
        background_skills,
    }
}

fn modifier(score: i64) -> i64 {
    (score - 10).div_euclid(2)
}

/// Every field the oracle checks, as comparable strings.
fn expected(
    o: &Oracle,
    r: &RaceFacts,
    c: &ClassFacts,
    level: u32,
) -> BTreeMap<&'static str, String> {
    let mut out = BTreeMap::new();
    let gained: Vec<&FeatureGrants> = c
        .features
        .iter()
        .filter(|(l, _)| *l <= level)
        .map(|(_, g)| g)
        .collect();
    let scores: Vec<i64> = Ability::ALL
        .iter()
        .zip(BASE)
        .map(|(a, s)| {
            let raised: i64 = gained
                .iter()
                .flat_map(|g| g.increases.iter())
                .filter(|(x, _)| x == a)
                .map(|(_, n)| n)
                .sum();
            s + r.bonuses.get(a).copied().unwrap_or(0) + raised
        })
        .collect();
    out.insert("abilities", format!("{scores:?}"));
    let con = modifier(scores[2]);
    let die = i64::from(c.hit_die);
    // Maximum at 1st level, the fixed average (die/2 + 1) after; at least 1 per level.
    let mut hp = (die + con).max(1);
    for _ in 2..=level {
        hp += (die / 2 + 1 + con).max(1);
    }
    // Dwarven Toughness: +1 per level.
    if r.traits.contains("dwarven-toughness") {
        hp += i64::from(level);
    }
    out.insert("max_hp", hp.to_string());
    out.insert("hit_dice", format!("{level}d{}", c.hit_die));
    let (prof, slots) = c.levels[&level];
    out.insert("proficiency_bonus", prof.to_string());
    let mut saves = c.saves.clone();
    saves.extend(gained.iter().flat_map(|g| g.saves.iter().copied()));
    out.insert("saves", format!("{saves:?}"));
    out.insert("speed", r.speed.to_string());
    out.insert(
        "darkvision",
        r.darkvision.map(|d| format!("{d} ft.")).unwrap_or_default(),
    );
    out.insert("resistances", format!("{:?}", r.resistances));
    out.insert("race_skills", format!("{:?}", r.skills));
    out.insert("background_skills", format!("{:?}", o.background_skills));
    out.insert("spell_slots", format!("{slots:?}"));
    // Spells kept: cantrips and spells known from the level table; a class without a known
    // count prepares its ability modifier + its level (half for a half caster, one at least)
    // once it has slots (SRD "Spellcasting" of each class).
    let (cantrips, known) = c.spell_counts[&level];
    let prepared = match (c.casting, known) {
        (Some(a), None) if slots.iter().any(|n| *n > 0) => {
            let half = c.levels[&1].1.iter().all(|n| *n == 0);
            let counted = if half { level / 2 } else { level };
            let m = modifier(scores[Ability::ALL.iter().position(|x| *x == a).unwrap()]);
            Some((m + i64::from(counted)).max(1))
        }
        (Some(_), None) => Some(0),
        _ => None,
    };
    out.insert(
        "spells_kept",
        format!(
            "cantrips {cantrips:?}; known {:?}; prepared {prepared:?}",
            known.or(c.casting.filter(|_| prepared.is_none()).map(|_| 0))
        ),
    );
    let names: BTreeSet<String> = c
        .feature_names
        .iter()
        .filter(|(l, n)| *l <= level && n != "Ability Score Improvement")
        .map(|(_, n)| feature_key(n))
        .collect();
    out.insert("features", format!("{names:?}"));
    out
}

/// A feature name without its use count ("Action Surge (1 use)" → "action surge").
fn feature_key(name: &str) -> String {
    name.split(" (")
        .next()
        .unwrap_or(name)
        .trim()
        .to_lowercase()
}

/// The same fields read off the engine's character.
fn actual(
    srd: &tabletop_srd::Compendium,
    ch: &Character,
    o: &Oracle,
    c: &ClassFacts,
    level: u32,
    r: &RaceFacts,
) -> BTreeMap<&'static str, String> {
    let mut out = BTreeMap::new();
    let rules = tabletop_engine::magic::known::rules(srd, ch);
    out.insert(
        "spells_kept",
        format!(
            "cantrips {:?}; known {:?}; prepared {:?}",
            rules.as_ref().and_then(|r| r.cantrips.map(u64::from)),
            rules.as_ref().and_then(|r| r.known.map(u64::from)),
            rules
                .as_ref()
                .and_then(|r| r.prepared.as_ref().map(|p| i64::from(p.0)))
        ),
    );
    // The class's features up to this level that the sheet lists.
    let have: BTreeSet<String> = ch.features.iter().map(|f| feature_key(f)).collect();
    let names: BTreeSet<String> = c
        .feature_names
        .iter()
        .filter(|(l, n)| *l <= level && n != "Ability Score Improvement")
        .map(|(_, n)| feature_key(n))
        .filter(|n| have.contains(n))
        .collect();
    out.insert("features", format!("{names:?}"));
    let scores: Vec<i64> = Ability::ALL
        .iter()
        .map(|a| i64::from(ch.abilities.get(*a)))
        .collect();
    out.insert("abilities", format!("{scores:?}"));
    out.insert("max_hp", ch.max_hp.to_string());
    out.insert("hit_dice", format!("{}d{}", ch.hit_dice, ch.hit_die));
    out.insert("proficiency_bonus", ch.proficiency_bonus.to_string());
    out.insert("saves", format!("{:?}", ch.save_proficiencies));
    out.insert("speed", ch.speed.to_string());
    // Darkvision from the derived senses (with its range and source).
    let dv = ch
        .derived
        .iter()
        .flat_map(|d| d.senses.iter())
        .find(|s| s.value.0.eq_ignore_ascii_case("darkvision"))
        .map(|s| format!("{} ft.", s.value.1))
        .unwrap_or_default();
    out.insert("darkvision", dv);
    let res: BTreeSet<String> = ch
        .resistances
        .iter()
        .map(|d| format!("{d:?}").to_lowercase())
        .collect();
    out.insert("resistances", format!("{res:?}"));
    // The race's and background's skills the sheet has (the class's choices are free).
    let have: BTreeSet<String> = ch
        .skills
        .keys()
        .map(|s| s.to_string().replace('_', "-"))
        .collect();
    let held = |want: &BTreeSet<String>| -> BTreeSet<String> {
        want.iter().filter(|s| have.contains(*s)).cloned().collect()
    };
    out.insert("race_skills", format!("{:?}", held(&r.skills)));
    out.insert(
        "background_skills",
        format!("{:?}", held(&o.background_skills)),
    );
    let mut slots = ch.spell_slots.max;
    if let Some(p) = ch.spell_slots.pact.filter(|p| (1..=9).contains(&p.level)) {
        slots[usize::from(p.level - 1)] += p.max;
    }
    out.insert("spell_slots", format!("{slots:?}"));
    out
}

fn matches(pattern: &str, key: &str) -> bool {
    let p: Vec<&str> = pattern.split('/').collect();
    let k: Vec<&str> = key.split('/').collect();
    p.len() == k.len() && p.iter().zip(&k).all(|(p, k)| *p == "*" || p == k)
}

/// Compares `got` with `want` under `prefix` ("race/class/level"), collecting mismatches.
fn compare(
    prefix: &str,
    want: &BTreeMap<&'static str, String>,
    got: &BTreeMap<&'static str, String>,
    out: &mut Vec<String>,
) {
    for (field, w) in want {
        let g = &got[field];
        if g != w {
            out.push(format!("{prefix}/{field}: expected {w}, engine {g}"));
        }
    }
}

/// Fails on unlisted mismatches and on listed gaps that no longer show.
fn judge(mismatches: &[String], gaps: &[(&str, &str)]) {
    let key = |m: &String| m.split(':').next().unwrap_or_default().to_string();
    let unlisted: Vec<&String> = mismatches
        .iter()
        .filter(|m| !gaps.iter().any(|(p, _)| matches(p, &key(m))))
        .collect();
    let fixed: Vec<&(&str, &str)> = gaps
        .iter()
        .filter(|(p, _)| !mismatches.iter().any(|m| matches(p, &key(m))))
        .collect();
    assert!(
        unlisted.is_empty() && fixed.is_empty(),
        "{} mismatches not in KNOWN_GAPS:\n{}\n\n{} known gaps that now pass (remove them from the list):\n{}",
        unlisted.len(),
        unlisted
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n"),
        fixed.len(),
        fixed
            .iter()
            .map(|(p, r)| format!("{p} ({r})"))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

fn engine(dir: &Path, srd: std::sync::Arc<tabletop_srd::Compendium>) -> Engine<SqliteStore> {
    Engine::open(
        SqliteStore::open(&dir.join("oracle.sqlite")).unwrap(),
        "oracle",
        EngineOptions {
            seed: Some(1),
            compendium: CompendiumSource::ready(srd),
        },
    )
    .unwrap()
}

fn request(name: &str, r: &RaceFacts, c: &ClassFacts, level: u32) -> CreateRequest {
    CreateRequest {
        name: name.to_string(),
        race: Some(r.race.clone()),
        subrace: r.subrace.clone(),
        class: Some(c.key.clone()),
        background: Some("Acolyte".into()),
        level: Some(level),
        scores: Some(Ability::ALL.iter().copied().zip(BASE).collect()),
        ability_choices: r.choices.clone(),
        // "dragonborn-red": the red ancestry is the choice the variant stands for.
        draconic_ancestry: r.key.strip_prefix("dragonborn-").map(str::to_string),
        ..Default::default()
    }
}

#[test]
fn every_race_and_class_sheet_matches_the_srd_json() {
    let Some(srd) = common::srd("every_race_and_class_sheet_matches_the_srd_json") else {
        return;
    };
    let dir = common::srd_env::srd_dir("the oracle's JSON").expect("SRD folder");
    let o = oracle(&dir);
    assert_eq!(o.races.len(), 9, "9 race/subrace variants in the SRD");
    assert_eq!(o.classes.len(), 12);
    let tmp = tempfile::tempdir().unwrap();
    let mut e = engine(tmp.path(), srd.clone());
    let mut mismatches = Vec::new();
    let mut checked = 0;
    for r in &o.races {
        for c in &o.classes {
            // Built at level 1, then raised by level_up (average HP) to 5, 11 and 20.
            let name = format!("{}-{}", r.key, c.key);
            let created = e.write("create_character", &serde_json::json!({}), |call| {
                create_character(call, request(&name, r, c, 1))
            });
            let id = match created {
                Ok(out) => out.character.id,
                Err(err) => {
                    mismatches.push(format!("{}/{}/1/create: {err}", r.key, c.key));
                    continue;
                }
            };
            for level in LEVELS {
                if level > 1 {
                    e.write("level_up", &serde_json::json!({}), |call| {
                        level_up(
                            call,
                            CharacterRef::new(Some(&id), None),
                            Some(level),
                            LevelHpMethod::Rules(HpMethod::Average),
                        )
                    })
                    .unwrap_or_else(|err| panic!("{name} to {level}: {err}"));
                }
                let ch = e
                    .read(|call| get_character(call, CharacterRef::new(Some(&id), None)))
                    .unwrap()
                    .character;
                let prefix = format!("{}/{}/{level}", r.key, c.key);
                compare(
                    &prefix,
                    &expected(&o, r, c, level),
                    &actual(&srd, &ch, &o, c, level, r),
                    &mut mismatches,
                );
                checked += 1;
            }
            // Built directly at each level: the same sheet.
            for level in &LEVELS[1..] {
                let name = format!("{}-{}-{level}", r.key, c.key);
                let ch = e
                    .write("create_character", &serde_json::json!({}), |call| {
                        create_character(call, request(&name, r, c, *level))
                    })
                    .unwrap_or_else(|err| panic!("{name}: {err}"))
                    .character;
                let prefix = format!("{}/{}/{level}", r.key, c.key);
                let mut direct = Vec::new();
                compare(
                    &prefix,
                    &expected(&o, r, c, *level),
                    &actual(&srd, &ch, &o, c, *level, r),
                    &mut direct,
                );
                // A mismatch the levelled sheet already showed is reported once.
                for m in direct {
                    if !mismatches.contains(&m) {
                        mismatches.push(format!("{m} (created at this level)"));
                    }
                }
            }
        }
    }
    assert_eq!(checked, 9 * 12 * 4);
    judge(&mismatches, KNOWN_GAPS);
}

/// "30 ft." → 30.
fn feet(v: &Value) -> Option<u32> {
    v.as_str()?.split_whitespace().next()?.parse().ok()
}

/// Where the XP table (`xp_for_cr`) and a monster's `xp` in the JSON disagree, as for
/// [`KNOWN_GAPS`] (pattern `monster/field`). None is an engine bug: the stat block keeps the JSON's
/// `xp`, and the table is the SRD's.
const MONSTER_GAPS: &[(&str, &str)] = &[
    (
        "frog/xp_for_cr",
        "SRD 5.1: a CR 0 creature with no effective attack is worth 0 XP, not the table's 10",
    ),
    (
        "sea-horse/xp_for_cr",
        "SRD 5.1: a CR 0 creature with no effective attack is worth 0 XP, not the table's 10",
    ),
    (
        "brass-dragon-wyrmling/xp_for_cr",
        "5e-database data error: CR 1 is 200 XP in the SRD 5.1; the JSON says 100",
    ),
    (
        "deep-gnome-svirfneblin/xp_for_cr",
        "5e-database data error: CR 1/2 is 100 XP in the SRD 5.1; the JSON says 50",
    ),
    (
        "dretch/xp_for_cr",
        "5e-database data error: CR 1/4 is 50 XP in the SRD 5.1; the JSON says 25",
    ),
    (
        "riding-horse/xp_for_cr",
        "5e-database data error: CR 1/4 is 50 XP in the SRD 5.1; the JSON says 25",
    ),
];

#[test]
fn every_srd_monster_xp_and_stat_block_matches_the_json() {
    let Some(srd) = common::srd("every_srd_monster_xp_and_stat_block_matches_the_json") else {
        return;
    };
    let dir = common::srd_env::srd_dir("the oracle's JSON").expect("SRD folder");
    let monsters = read(&dir, "5e-SRD-Monsters.json");
    assert_eq!(monsters.len(), 334, "the SRD 5.1 has 334 monsters");
    let tmp = tempfile::tempdir().unwrap();
    let mut e = engine(tmp.path(), srd);
    let mut mismatches = Vec::new();
    for m in &monsters {
        let index = idx(m);
        let cr = m["challenge_rating"].as_f64().unwrap();
        let xp = m["xp"].as_u64().unwrap();
        let mut want: BTreeMap<&'static str, String> = BTreeMap::new();
        want.insert("xp_for_cr", xp.to_string());
        want.insert("monster", index.clone());
        want.insert("xp", xp.to_string());
        want.insert(
            "ac",
            m["armor_class"][0]["value"].as_i64().unwrap().to_string(),
        );
        want.insert("hp", m["hit_points"].as_u64().unwrap().to_string());
        want.insert("hit_dice", m["hit_dice"].as_str().unwrap().to_string());
        want.insert("speed", feet(&m["speed"]["walk"]).unwrap_or(0).to_string());
        let others: BTreeMap<String, u32> = ["burrow", "climb", "fly", "swim"]
            .iter()
            .filter_map(|k| feet(&m["speed"][*k]).map(|v| (k.to_string(), v)))
            .collect();
        want.insert("other_speeds", format!("{others:?}"));
        let scores: Vec<i64> = [
            "strength",
            "dexterity",
            "constitution",
            "intelligence",
            "wisdom",
            "charisma",
        ]
        .iter()
        .map(|a| m[*a].as_i64().unwrap())
        .collect();
        want.insert("abilities", format!("{scores:?}"));
        want.insert(
            "proficiency_bonus",
            m["proficiency_bonus"].as_i64().unwrap().to_string(),
        );

        let mut got: BTreeMap<&'static str, String> = BTreeMap::new();
        got.insert(
            "xp_for_cr",
            tabletop_rules::encounter::xp_for_cr(cr as f32).to_string(),
        );
        let req = CreateRequest {
            name: format!("m-{index}"),
            from_monster: Some(m["name"].as_str().unwrap().to_string()),
            ..Default::default()
        };
        let ch = match e.write("create_character", &serde_json::json!({}), |call| {
            create_character(call, req)
        }) {
            Ok(out) => out.character,
            Err(err) => {
                mismatches.push(format!("{index}/create: {err}"));
                continue;
            }
        };
        let block = ch
            .stat_block
            .clone()
            .expect("a fromMonster character keeps its stat block");
        got.insert("monster", block.monster.clone());
        got.insert("xp", block.xp.to_string());
        got.insert("ac", ch.armor_class.to_string());
        got.insert("hp", ch.max_hp.to_string());
        got.insert("hit_dice", block.hit_dice.clone());
        got.insert("speed", ch.speed.to_string());
        got.insert("other_speeds", format!("{:?}", block.other_speeds));
        let scores: Vec<i64> = Ability::ALL
            .iter()
            .map(|a| i64::from(ch.abilities.get(*a)))
            .collect();
        got.insert("abilities", format!("{scores:?}"));
        got.insert("proficiency_bonus", ch.proficiency_bonus.to_string());
        compare(&index, &want, &got, &mut mismatches);
    }
    judge(&mismatches, MONSTER_GAPS);
}

#[test]
#[should_panic(expected = "1 mismatches not in KNOWN_GAPS")]
fn an_unlisted_mismatch_fails() {
    judge(
        &["elf/wizard/1/speed: expected 30, engine 25".to_string()],
        &[],
    );
}

#[test]
#[should_panic(expected = "1 known gaps that now pass")]
fn a_listed_gap_that_passes_fails() {
    judge(&[], &[("elf/*/*/speed", "issue 16: example")]);
}

#[test]
fn a_listed_mismatch_passes() {
    judge(
        &["elf/wizard/1/speed: expected 30, engine 25 (created at this level)".to_string()],
        &[("elf/*/*/speed", "issue 16: example")],
    );
}
