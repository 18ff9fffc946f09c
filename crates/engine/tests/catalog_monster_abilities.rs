//! Every monster ability the catalog counts as mechanical, for all 334 SRD stat blocks, resolved
//! through execute_action with pinned dice (skipped without TABLETOP_SRD_DIR): attacks hit with
//! the SRD's to-hit bonus and roll its damage dice, save effects call for its DC and roll its
//! dice, Multiattack makes as many attacks as the SRD lists, checks roll. The expected numbers
//! are read from the SRD JSON at run time, not from the engine's stat-block reader.

use super::common;

use std::collections::BTreeMap;

use serde_json::{Value, json};
use tabletop_engine::catalog::monster_abilities::{Automation, Encoding, Section, classify};
use tabletop_engine::combat::actions::{ActionOutcome, ActionRequest, execute};
use tabletop_engine::combat::create::{
    CreateEncounter, ParticipantSource, ParticipantSpec, create_encounter,
};
use tabletop_engine::compendium::CompendiumSource;
use tabletop_engine::creation::{AbilityMethod, CreateMode, CreateRequest, create_character};
use tabletop_engine::update::{UpdateRequest, update_character};
use tabletop_engine::{Engine, EngineError, EngineOptions, SqliteStore};
use tabletop_grid::Position;
use tabletop_rules::Ability;
use tabletop_rules::Size;

type E = Engine<SqliteStore>;

fn act(e: &mut E, req: Value) -> Result<ActionOutcome, EngineError> {
    let r: ActionRequest = serde_json::from_value(req).unwrap();
    e.write("execute_action", &json!({}), |call| execute(call, &r))
}

/// "2d6+3" → {6: 2}: the dice of a damage expression by faces.
fn dice_of(expr: &str, into: &mut BTreeMap<u32, u32>, times: u32) {
    let l = expr.to_lowercase();
    let b = l.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'd' {
            let mut s = i;
            while s > 0 && b[s - 1].is_ascii_digit() {
                s -= 1;
            }
            let mut t = i + 1;
            while t < b.len() && b[t].is_ascii_digit() {
                t += 1;
            }
            if t > i + 1 {
                let n: u32 = if s == i { 1 } else { l[s..i].parse().unwrap() };
                let f: u32 = l[i + 1..t].parse().unwrap();
                *into.entry(f).or_default() += n * times;
            }
            i = t;
        } else {
            i += 1;
        }
    }
}

/// The dice an SRD JSON action's damage rolls on a hit (plain entries; choices apart), less a
/// saving throw's: see [`save_dice`].
fn json_dice(a: &Value) -> BTreeMap<u32, u32> {
    let mut m = BTreeMap::new();
    let save = save_dice(a);
    for (i, d) in a["damage"].as_array().into_iter().flatten().enumerate() {
        if let Some(s) = d["damage_dice"].as_str()
            && (i == 0 || save.as_ref().is_none_or(|(dice, _)| dice != s))
        {
            dice_of(s, &mut m, 1);
        }
    }
    m
}

/// A hit's saving-throw damage that its text always rolls ("taking 24 (7d6) poison damage on a
/// failed save, or half as much damage on a successful one"): its dice and the line the answer
/// shows them on ("Shortsword: 7d6[poison]").
fn save_dice(a: &Value) -> Option<(String, String)> {
    let desc = a["desc"].as_str()?;
    let after = &desc[desc.find("saving throw, taking ")? + "saving throw, taking ".len()..];
    if !after.contains("half as much damage") {
        return None;
    }
    let dice = after[after.find('(')? + 1..after.find(')')?].replace(' ', "");
    let kind = after[after.find(')')? + 1..].split_whitespace().next()?;
    let line = format!("{}: {dice}[{kind}]", a["name"].as_str()?);
    Some((dice, line))
}

/// Every die the engine rolled in a dice roll (JSON of a `DiceRoll`).
fn rolled_dice(roll: &Value) -> BTreeMap<u32, u32> {
    let mut m = BTreeMap::new();
    for t in roll["terms"].as_array().into_iter().flatten() {
        let n = t["notation"].as_str().unwrap_or("");
        if n.contains('d') {
            dice_of(n, &mut m, 1);
        }
    }
    m
}

fn covers(rolled: &BTreeMap<u32, u32>, want: &BTreeMap<u32, u32>, times: u32) -> bool {
    want.iter()
        .all(|(f, n)| rolled.get(f).copied().unwrap_or(0) >= n * times)
}

fn squares(s: Size) -> i32 {
    match s {
        Size::Large => 2,
        Size::Huge => 3,
        Size::Gargantuan => 4,
        _ => 1,
    }
}

struct Arena {
    e: E,
    pc: String,
    mon: String,
    _dir: tempfile::TempDir,
}

fn arena(srd: &std::sync::Arc<tabletop_srd::Compendium>, index: &str, size: Size) -> Arena {
    let dir = tempfile::tempdir().unwrap();
    let mut e = Engine::open(
        SqliteStore::open(&dir.path().join("m.sqlite")).unwrap(),
        "c",
        EngineOptions {
            seed: Some(11),
            compendium: CompendiumSource::ready(srd.clone()),
        },
    )
    .unwrap();
    let req = CreateRequest {
        name: "Tess".into(),
        class: Some("fighter".into()),
        level: Some(5),
        method: AbilityMethod::Manual,
        scores: Some(
            Ability::ALL
                .iter()
                .copied()
                .zip([16, 12, 14, 10, 10, 10])
                .collect(),
        ),
        mode: CreateMode::Create,
        ..Default::default()
    };
    let pc = e
        .write("create_character", &json!({}), |call| {
            create_character(call, req)
        })
        .unwrap()
        .character
        .id;
    let n = squares(size);
    let parts = vec![
        ParticipantSpec {
            source: ParticipantSource::Character {
                id: Some(pc.clone()),
                name: None,
            },
            side: None,
            positions: vec![Position::new(n, 0)],
            surprised: false,
            initiative: Some(30),
        },
        ParticipantSpec {
            source: ParticipantSource::Monster {
                monster: index.into(),
                count: 1,
                name: None,
            },
            side: None,
            positions: vec![Position::new(0, 0)],
            surprised: false,
            initiative: Some(1),
        },
    ];
    let created = e
        .write("create_encounter", &json!({}), |call| {
            create_encounter(
                call,
                CreateEncounter {
                    participants: parts,
                    ..Default::default()
                },
            )
        })
        .unwrap();
    let mon = created
        .encounter
        .order
        .iter()
        .find(|c| c.character_id != pc)
        .unwrap()
        .character_id
        .clone();
    Arena {
        e,
        pc,
        mon,
        _dir: dir,
    }
}

/// Keeps the target standing: a large pool of temporary hit points before each use.
fn shore_up(a: &mut Arena) {
    let pc = a.pc.clone();
    a.e.write("update_character", &json!({}), |call| {
        update_character(
            call,
            tabletop_engine::character::CharacterRef::new(Some(&pc), None),
            UpdateRequest {
                temp_hp: Some(100_000),
                ..Default::default()
            },
        )
    })
    .unwrap();
}

#[test]
fn every_mechanical_monster_ability_resolves_as_the_srd_says() {
    let Some(srd) = common::srd("catalog_monster_abilities") else {
        return;
    };
    let dir =
        common::srd_env::srd_dir("catalog_monster_abilities (its JSON half)").expect("SRD folder");
    let raw: Vec<Value> = serde_json::from_str(
        &std::fs::read_to_string(std::path::Path::new(&dir).join("5e-SRD-Monsters.json")).unwrap(),
    )
    .unwrap();
    let raw: BTreeMap<&str, &Value> = raw
        .iter()
        .map(|m| (m["index"].as_str().unwrap(), m))
        .collect();
    let mut failures = Vec::new();
    let mut by_kind: BTreeMap<&str, usize> = BTreeMap::new();
    assert_eq!(srd.monsters().len(), 334);
    for m in srd.monsters() {
        let jm = raw[m.index.as_str()];
        let mut a = arena(&srd, &m.index, m.size);
        for (section, ab) in tabletop_engine::catalog::monster_abilities::abilities(m) {
            let Encoding::Mechanical(kind) = classify(m, section, ab) else {
                continue;
            };
            if kind == Automation::Trait {
                continue; // traits are applied in play: tested by name in catalog_monsters
            }
            let list = match section {
                Section::Special => "special_abilities",
                Section::Action => "actions",
                Section::Legendary => "legendary_actions",
                Section::Reaction => "reactions",
            };
            let ja = jm[list]
                .as_array()
                .unwrap()
                .iter()
                .find(|x| x["name"] == ab.name.as_str())
                .unwrap();
            let who = format!("{}/{}", m.index, ab.name);
            // An effect that leaves its target immune for 24 hours (Frightful Presence, which
            // the Multiattack before it used) meets a fresh target.
            if kind == Automation::Effect
                && ab.desc.contains("immune to")
                && ab.desc.contains("24 hours")
            {
                a = arena(&srd, &m.index, m.size);
            }
            shore_up(&mut a);
            let target = json!({"id": a.pc});
            let actor = json!({"id": a.mon});
            let legendary = section == Section::Legendary;
            let req = match (kind, legendary) {
                (Automation::Multiattack, _) => {
                    json!({"actor": actor, "actionType": "attack", "weapon": "Multiattack", "target": target, "bonus": 60, "force": true})
                }
                (Automation::Attack, false) => {
                    json!({"actor": actor, "actionType": "attack", "weapon": ab.name, "target": target, "bonus": 60, "force": true})
                }
                (_, true) => {
                    json!({"actor": actor, "actionType": "legendary_action", "abilityName": ab.name, "target": target, "bonus": 60, "force": true})
                }
                (_, false) => {
                    let name = if ab.dc.is_none() && ab.damage.is_empty() {
                        ab.options
                            .first()
                            .map_or(ab.name.clone(), |o| o.name.clone())
                    } else {
                        ab.name.clone()
                    };
                    json!({"actor": actor, "actionType": "use_special_ability", "abilityName": name, "target": target, "force": true})
                }
            };
            *by_kind.entry(format!("{kind:?}").leak()).or_default() += 1;
            // An attack misses only on a natural 1 at +60: pinned dice, so the retry is fixed.
            let mut out = None;
            for _ in 0..4 {
                shore_up(&mut a);
                match act(&mut a.e, req.clone()) {
                    Ok(o) => {
                        let strikes = if legendary {
                            vec![o.details["effect"].clone()]
                        } else {
                            o.details["attacks"].as_array().cloned().unwrap_or_default()
                        };
                        let retry = matches!(
                            kind,
                            Automation::Attack | Automation::NamedAttack | Automation::Multiattack
                        ) && strikes.iter().any(|s| s["roll"]["natural1"] == true);
                        out = Some(o);
                        if !retry {
                            break;
                        }
                    }
                    Err(err) => {
                        failures.push(format!("{who}: {err}"));
                        break;
                    }
                }
            }
            let Some(out) = out else { continue };
            // A legendary action reports what it resolved under "effect".
            let d = if legendary {
                &out.details["effect"]
            } else {
                &out.details
            };
            match kind {
                Automation::Attack | Automation::NamedAttack => {
                    // Attack details: one strike (legendary ones report the strike itself).
                    let s = if d["attacks"].is_array() {
                        d["attacks"][0].clone()
                    } else {
                        d.clone()
                    };
                    let want_bonus = if kind == Automation::Attack {
                        ja["attack_bonus"].as_i64()
                    } else {
                        None
                    };
                    if let Some(b) = want_bonus {
                        let mods = &s["roll"]["modifiers"];
                        let has = mods.as_array().into_iter().flatten().any(|c| {
                            c["delta"].as_i64() == Some(b)
                                && c["source"].as_str().is_some_and(|x| x.ends_with("to hit"))
                        });
                        if !has {
                            failures.push(format!("{who}: to-hit {b} not in {mods}"));
                        }
                    }
                    if s["hit"] != true {
                        failures.push(format!("{who}: a +60 attack missed: {}", out.headline));
                        continue;
                    }
                    let times = if s["critical"] == true { 2 } else { 1 };
                    let want = if kind == Automation::Attack {
                        json_dice(ja)
                    } else {
                        BTreeMap::new()
                    };
                    if !covers(&rolled_dice(&s["damageRoll"]), &want, times) {
                        failures.push(format!(
                            "{who}: damage {} lacks {want:?}",
                            s["damageRoll"]["expression"]
                        ));
                    }
                    if kind == Automation::Attack
                        && let Some((_, line)) = save_dice(ja)
                        && !out.lines.iter().any(|l| l.starts_with(&line))
                    {
                        failures.push(format!("{who}: no '{line}' roll in {:?}", out.lines));
                    }
                }
                Automation::Multiattack => {
                    // The attacks of the first set: steps naming one of the block's attacks
                    // (form qualifiers and plurals set aside); a non-attack step is used, not
                    // counted; "Number of Heads" is the heads the block gives; dice are rolled.
                    let attack_of = |step: &str| {
                        let bare = |n: &str| n.split('(').next().unwrap_or(n).trim().to_lowercase();
                        let key = bare(step);
                        jm["actions"].as_array().into_iter().flatten().any(|x| {
                            let b = bare(x["name"].as_str().unwrap_or(""));
                            x["attack_bonus"].is_i64()
                                && (b == key
                                    || key.strip_suffix('s') == Some(b.as_str())
                                    || b.strip_suffix('s') == Some(key.as_str()))
                        })
                    };
                    let mut steps: Vec<Value> =
                        ja["actions"].as_array().cloned().unwrap_or_default();
                    if let Some(first) = ja["action_options"]["from"]["options"]
                        .as_array()
                        .and_then(|o| o.first())
                    {
                        if first["option_type"] == "multiple" {
                            steps.extend(first["items"].as_array().cloned().unwrap_or_default());
                        } else {
                            steps.push(first.clone());
                        }
                    }
                    let mut want = 0u64;
                    let mut rolled = false;
                    for st in &steps {
                        if !attack_of(st["action_name"].as_str().unwrap_or("")) {
                            continue;
                        }
                        want += match (&st["count"], st["count"].as_str()) {
                            (c, _) if c.is_u64() => c.as_u64().unwrap(),
                            (_, Some(t)) if t.to_lowercase().contains("head") => 5,
                            (_, Some(_)) => {
                                rolled = true;
                                1
                            }
                            _ => 0,
                        };
                    }
                    let got = d["attacks"].as_array().map_or(0, Vec::len) as u64;
                    if (rolled && got == 0) || (!rolled && got != want) {
                        failures.push(format!("{who}: {got} attacks, the SRD lists {want}"));
                    }
                }
                Automation::Effect => {
                    let dc = ja["dc"]["dc_value"].as_i64().or_else(|| {
                        ja["damage"]
                            .as_array()
                            .into_iter()
                            .flatten()
                            .find_map(|x| x["dc"]["dc_value"].as_i64())
                    });
                    let t0 = &d["targets"][0];
                    if let Some(dc) = dc
                        && t0["save"]["dc"].as_i64() != Some(dc)
                    {
                        failures.push(format!("{who}: save DC {} not {dc}", t0["save"]["dc"]));
                    }
                    let want = json_dice(ja);
                    if !want.is_empty() && !covers(&rolled_dice(&d["damageRoll"]), &want, 1) {
                        failures.push(format!(
                            "{who}: damage {} lacks {want:?}",
                            d["damageRoll"]["expression"]
                        ));
                    }
                    if d["targets"].as_array().is_none_or(Vec::is_empty) {
                        failures.push(format!("{who}: reached no one: {}", out.headline));
                    }
                }
                Automation::Check => {
                    if d["roll"]["total"].as_i64().is_none() {
                        failures.push(format!("{who}: no check rolled: {}", out.headline));
                    }
                }
                Automation::Trait => {}
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // How many of each kind ran (measured; a change in the reader shows here).
    assert_eq!(
        by_kind,
        BTreeMap::from([
            ("Attack", 514),
            ("Check", 21),
            ("Effect", 131),
            ("Multiattack", 148),
            ("NamedAttack", 32),
        ])
    );
}
