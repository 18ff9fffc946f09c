//! Monster abilities through execute_action with SRD monsters and seeded dice (skipped without
//! TABLETOP_SRD_DIR): a wolf's bite knocks prone on a failed STR save and Pack Tactics gives
//! advantage; a werewolf shrugs off a mundane longsword but not a +1 one; Magic Resistance gives
//! advantage on saves against spells; the SRD Mage has its slots and casts.

use super::common;

use std::sync::Arc;

use serde_json::{Value, json};
use tabletop_engine::character::Character;
use tabletop_engine::combat::actions::{ActionOutcome, ActionRequest, execute};
use tabletop_engine::combat::create::{
    CreateEncounter, ParticipantSource, ParticipantSpec, create_encounter,
};
use tabletop_engine::combat::turn::{AdvanceRequest, advance_turn};
use tabletop_engine::compendium::CompendiumSource;
use tabletop_engine::creation::{AbilityMethod, CreateMode, CreateRequest, create_character};
use tabletop_engine::inventory::ops::{self, GiveRequest, ItemRef};
use tabletop_engine::{Engine, EngineError, EngineOptions, SqliteStore};
use tabletop_grid::Position;
use tabletop_rules::{Ability, Condition};
use tabletop_srd::Compendium;

type E = Engine<SqliteStore>;

fn engine(dir: &tempfile::TempDir, srd: &Arc<Compendium>, seed: u64) -> E {
    Engine::open(
        SqliteStore::open(&dir.path().join("m.sqlite")).unwrap(),
        "c",
        EngineOptions {
            seed: Some(seed),
            compendium: CompendiumSource::ready(srd.clone()),
        },
    )
    .unwrap()
}

fn hero(e: &mut E, name: &str, class: &str, spells: &[&str]) -> String {
    let req = CreateRequest {
        name: name.into(),
        class: Some(class.into()),
        level: Some(5),
        method: AbilityMethod::Manual,
        scores: Some(
            Ability::ALL
                .iter()
                .copied()
                .zip([16, 12, 14, 10, 16, 10])
                .collect(),
        ),
        spells: spells.iter().map(|s| s.to_string()).collect(),
        mode: CreateMode::Create,
        ..Default::default()
    };
    e.write("create_character", &json!({}), |call| {
        create_character(call, req)
    })
    .unwrap()
    .character
    .id
}

fn part(source: ParticipantSource, at: &[(i32, i32)], init: i32) -> ParticipantSpec {
    ParticipantSpec {
        source,
        side: None,
        positions: at.iter().map(|&(x, y)| Position::new(x, y)).collect(),
        surprised: false,
        initiative: Some(init),
    }
}

fn pc(id: &str, x: i32, y: i32, init: i32) -> ParticipantSpec {
    part(
        ParticipantSource::Character {
            id: Some(id.into()),
            name: None,
        },
        &[(x, y)],
        init,
    )
}

fn monster(m: &str, count: u32, at: &[(i32, i32)], init: i32) -> ParticipantSpec {
    part(
        ParticipantSource::Monster {
            monster: m.into(),
            count,
            name: None,
        },
        at,
        init,
    )
}

fn fight(e: &mut E, parts: Vec<ParticipantSpec>) {
    e.write("create_encounter", &json!({}), |call| {
        create_encounter(
            call,
            CreateEncounter {
                participants: parts,
                ..Default::default()
            },
        )
    })
    .unwrap();
}

fn act(e: &mut E, req: Value) -> Result<ActionOutcome, EngineError> {
    let r: ActionRequest = serde_json::from_value(req).unwrap();
    e.write("execute_action", &json!({}), |call| execute(call, &r))
}

fn sheet(e: &mut E, name: &str) -> Character {
    let name = name.to_string();
    e.read(|call| {
        tabletop_engine::character::resolve(
            call,
            tabletop_engine::character::CharacterRef::new(None, Some(&name)),
        )
    })
    .unwrap()
}

fn advance(e: &mut E) {
    e.write("advance_turn", &json!({}), |call| {
        advance_turn(call, &AdvanceRequest::default())
    })
    .unwrap();
}

#[test]
fn a_wolf_bite_knocks_prone_on_a_failed_save_and_pack_tactics_gives_advantage() {
    let Some(srd) = common::srd("wolf") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 2);
    let kell = hero(&mut e, "Kell", "fighter", &[]);
    fight(
        &mut e,
        vec![
            monster("wolf", 2, &[(1, 0), (0, 1)], 20),
            pc(&kell, 0, 0, 10),
        ],
    );
    let mut hits = 0;
    let mut prone = 0;
    for round in 0..10 {
        let out = act(
            &mut e,
            json!({"actor": {"name": "Wolf 1"}, "actionType": "attack", "target": {"name": "Kell"}, "weapon": "Bite"}),
        )
        .unwrap();
        let a = &out.details["attacks"][0];
        let roll = a["roll"].to_string();
        assert!(
            roll.contains("Pack Tactics (Wolf 2 is next to the target)"),
            "round {round}: {roll}"
        );
        let lines = out.lines.join("\n");
        if a["hit"].as_bool().unwrap() {
            assert!(
                lines.contains("Strength save") && lines.contains("DC 11"),
                "{lines}"
            );
            hits += 1;
            let failed = lines.contains("vs DC 11 — fail");
            prone += usize::from(failed);
            assert_eq!(
                sheet(&mut e, "Kell").has_condition(Condition::Prone),
                failed,
                "{lines}"
            );
            if failed {
                assert!(lines.contains("Kell is prone (Bite)"), "{lines}");
            }
        }
        let mut k = sheet(&mut e, "Kell");
        k.conditions.clear();
        k.hp = k.max_hp;
        let k2 = k.clone();
        e.write("t", &json!({}), |call| {
            tabletop_engine::combat::put_sheet(call, &k2)
        })
        .unwrap();
        for _ in 0..3 {
            advance(&mut e);
        }
    }
    assert_eq!((hits, prone), PINNED_WOLF, "seed 2");
}
const PINNED_WOLF: (usize, usize) = (7, 1);

#[test]
fn a_werewolf_ignores_a_mundane_longsword_but_not_a_magic_one() {
    let Some(srd) = common::srd("werewolf") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 4);
    let kell = hero(&mut e, "Kell", "fighter", &[]);
    for n in ["Longsword", "Longsword +1"] {
        e.write("manage_inventory", &json!({}), |call| {
            ops::give(
                call,
                tabletop_engine::character::CharacterRef::new(Some(&kell), None),
                GiveRequest {
                    srd_name: Some(n.into()),
                    ..Default::default()
                },
            )
        })
        .unwrap();
    }
    let equip = |e: &mut E, n: &str| {
        let kell = kell.clone();
        let n = n.to_string();
        e.write("manage_inventory", &json!({}), |call| {
            ops::equip(
                call,
                tabletop_engine::character::CharacterRef::new(Some(&kell), None),
                ItemRef {
                    id: None,
                    name: Some(&n),
                },
                None,
            )
        })
        .unwrap();
    };
    equip(&mut e, "Longsword");
    fight(
        &mut e,
        vec![
            pc(&kell, 0, 0, 20),
            part(
                ParticipantSource::Monster {
                    monster: "werewolf-hybrid".into(),
                    count: 1,
                    name: Some("Werewolf".into()),
                },
                &[(1, 0)],
                10,
            ),
        ],
    );
    let mut mundane_hits = 0;
    let mut magic_hits = 0;
    for _ in 0..6 {
        let before = sheet(&mut e, "Werewolf").hp;
        let out = act(
            &mut e,
            json!({"actor": {"name": "Kell"}, "actionType": "attack", "target": {"name": "Werewolf"}, "weapon": "Longsword", "force": true}),
        )
        .unwrap();
        if out.details["attacks"][0]["hit"].as_bool().unwrap() {
            mundane_hits += 1;
            assert!(
                out.lines
                    .iter()
                    .any(|l| l.starts_with("Werewolf is immune to nonmagical slashing")),
                "{:?}",
                out.lines
            );
            assert_eq!(sheet(&mut e, "Werewolf").hp, before);
        }
        advance(&mut e);
        advance(&mut e);
    }
    assert!(mundane_hits > 0, "seed 4 lands a hit");
    let mut k = sheet(&mut e, "Kell");
    for i in k.inventory.items.iter_mut() {
        i.slot = None;
    }
    e.write("t", &json!({}), |call| {
        tabletop_engine::combat::put_sheet(call, &k)
    })
    .unwrap();
    equip(&mut e, "Longsword +1");
    for _ in 0..6 {
        let before = sheet(&mut e, "Werewolf").hp;
        let out = act(
            &mut e,
            json!({"actor": {"name": "Kell"}, "actionType": "attack", "target": {"name": "Werewolf"}, "weapon": "Longsword +1", "force": true}),
        )
        .unwrap();
        let a = &out.details["attacks"][0];
        if a["hit"].as_bool().unwrap() {
            magic_hits += 1;
            let taken = a["damage"]["total"].as_u64().unwrap() as u32;
            assert!(taken > 0, "{a}");
            assert_eq!(sheet(&mut e, "Werewolf").hp, before.saturating_sub(taken));
        }
        advance(&mut e);
        advance(&mut e);
    }
    assert!(magic_hits > 0, "seed 4 lands a magic hit");
}

#[test]
fn magic_resistance_and_the_srd_mage_casting_from_its_slots() {
    let Some(srd) = common::srd("mage") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 6);
    let bran = hero(&mut e, "Bran", "cleric", &["Sacred Flame"]);
    fight(
        &mut e,
        vec![
            monster("mage", 1, &[(0, 0)], 20),
            pc(&bran, 6, 0, 15),
            monster("dryad", 1, &[(4, 4)], 1),
        ],
    );
    let m = sheet(&mut e, "Mage");
    assert_eq!(&m.spell_slots.max[..5], &[4, 3, 3, 3, 1]);
    let out = act(
        &mut e,
        // At (9, 0): Bran (6, 0) is 15 ft from it, the dryad (4, 4) 25 ft (5-5-5), outside.
        json!({"actor": {"name": "Mage"}, "actionType": "cast_spell", "spell": "Fireball", "to": {"x": 9, "y": 0}}),
    )
    .unwrap();
    assert!(
        out.headline.starts_with("Fireball (3rd level)"),
        "{}",
        out.headline
    );
    assert_eq!(sheet(&mut e, "Mage").spell_slots.used[2], 1);
    advance(&mut e);
    // The dryad has Magic Resistance: its DEX save against Sacred Flame has advantage.
    let out = act(
        &mut e,
        json!({"actor": {"name": "Bran"}, "actionType": "cast_spell", "spell": "Sacred Flame", "target": {"name": "Dryad"}}),
    )
    .unwrap();
    let save = out.details["targets"][0]["save"].as_str().unwrap();
    assert!(save.contains("advantage"), "{save}");
}

#[test]
fn undead_fortitude_keeps_a_zombie_at_1_hp_on_a_con_save_but_not_against_radiant() {
    let Some(srd) = common::srd("zombie") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 5);
    let kell = hero(&mut e, "Kell", "fighter", &[]);
    let bran = hero(&mut e, "Bran", "cleric", &["Sacred Flame"]);
    fight(
        &mut e,
        vec![
            pc(&kell, 0, 0, 20),
            pc(&bran, 0, 2, 19),
            monster("zombie", 2, &[(1, 0), (1, 2)], 10),
        ],
    );
    let mut held = Vec::new();
    for z in ["Zombie 1", "Zombie 2"] {
        let mut s = sheet(&mut e, z);
        s.hp = 1;
        e.write("t", &json!({}), |call| {
            tabletop_engine::combat::put_sheet(call, &s)
        })
        .unwrap();
    }
    let out = act(
        &mut e,
        json!({"actor": {"name": "Kell"}, "actionType": "attack", "target": {"name": "Zombie 1"}, "force": true}),
    )
    .unwrap();
    let lines = out.lines.join("\n");
    assert!(
        out.details["attacks"][0]["hit"].as_bool().unwrap(),
        "seed 5 hits: {lines}"
    );
    assert!(
        lines.contains("Zombie 1 — Constitution save (Undead Fortitude)"),
        "{lines}"
    );
    let z = sheet(&mut e, "Zombie 1");
    let saved = lines.contains("Zombie 1 drops to 1 HP instead (Undead Fortitude)");
    assert_eq!(
        (z.dead, z.hp),
        if saved { (false, 1) } else { (true, 0) },
        "{lines}"
    );
    // The headline tells the same story as the sheet: a zombie that holds on does not "die".
    if saved {
        assert!(
            out.headline.starts_with("Hit! Zombie 1 takes ")
                && out.headline.ends_with(" (1 → 1 HP).")
                && !out.headline.contains("dies"),
            "{}",
            out.headline
        );
        assert_eq!(out.details["attacks"][0]["targetStatus"], "ok");
    }
    held.push(saved);
    advance(&mut e);
    // Radiant damage: no save.
    let out = act(
        &mut e,
        json!({"actor": {"name": "Bran"}, "actionType": "cast_spell", "spell": "Sacred Flame", "target": {"name": "Zombie 2"}}),
    )
    .unwrap();
    let lines = out.lines.join("\n");
    if out.details["targets"][0]["saved"] == false {
        assert!(
            lines.contains("Zombie 2's Undead Fortitude does not hold against radiant damage"),
            "{lines}"
        );
        assert!(sheet(&mut e, "Zombie 2").dead);
    }
    assert_eq!(held, vec![PINNED_ZOMBIE_HELD]);
}
const PINNED_ZOMBIE_HELD: bool = true;
