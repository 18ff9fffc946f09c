//! Racial advantage on saving throws wherever saves are rolled (issue 16), through the real use
//! cases against the SRD with seeded dice: Dwarven Resilience (poison), Brave (frightened), Fey
//! Ancestry (charmed) and Gnome Cunning (INT/WIS/CHA saves against magic) on `roll_check` saves
//! that say what they resist, and on a monster's hit rider (a poisoning bite gives the dwarf
//! advantage, a wolf's prone bite does not).

use super::common;

use std::sync::Arc;

use serde_json::{Value, json};
use tabletop_engine::character::{Character, CharacterRef};
use tabletop_engine::checks::{CheckOutcome, CheckRequest, roll_check};
use tabletop_engine::combat::actions::{ActionOutcome, ActionRequest, execute};
use tabletop_engine::combat::create::{
    CreateEncounter, ParticipantSource, ParticipantSpec, create_encounter,
};
use tabletop_engine::compendium::CompendiumSource;
use tabletop_engine::creation::{AbilityMethod, CreateMode, CreateRequest, create_character};
use tabletop_engine::saves::SaveAgainst;
use tabletop_engine::{Engine, EngineError, EngineOptions, SqliteStore};
use tabletop_grid::Position;
use tabletop_rules::d20::{D20Outcome, D20Test};
use tabletop_rules::explained::RollMode;
use tabletop_rules::{Ability, Condition, DamageType};
use tabletop_srd::Compendium;

type E = Engine<SqliteStore>;

fn engine(dir: &tempfile::TempDir, srd: &Arc<Compendium>, seed: u64) -> E {
    Engine::open(
        SqliteStore::open(&dir.path().join("s.sqlite")).unwrap(),
        "c",
        EngineOptions {
            seed: Some(seed),
            compendium: CompendiumSource::ready(srd.clone()),
        },
    )
    .unwrap()
}

fn hero(e: &mut E, name: &str, race: &str, subrace: Option<&str>) -> String {
    let req = CreateRequest {
        name: name.into(),
        race: Some(race.into()),
        subrace: subrace.map(str::to_string),
        class: Some("fighter".into()),
        level: Some(1),
        method: AbilityMethod::Manual,
        scores: Some(
            Ability::ALL
                .iter()
                .copied()
                .zip([15, 12, 14, 10, 13, 8])
                .collect(),
        ),
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

fn save(e: &mut E, id: &str, ability: Ability, vs: SaveAgainst) -> D20Outcome {
    let req = CheckRequest {
        dc: Some(12),
        against: vs,
        ..CheckRequest::of(D20Test::Save { ability })
    };
    let out = e
        .write("roll_check", &json!({}), |call| {
            roll_check(call, CharacterRef::new(Some(id), None), &req)
        })
        .unwrap();
    match out {
        CheckOutcome::Rolled { outcome, .. } => outcome,
        other => panic!("{other:?}"),
    }
}

fn vs_condition(c: Condition) -> SaveAgainst {
    SaveAgainst {
        conditions: vec![c],
        ..Default::default()
    }
}

#[test]
fn roll_check_saves_get_the_racial_advantage_for_what_they_resist() {
    let Some(srd) = common::srd("roll_check_saves_get_the_racial_advantage") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 3);
    let dwarf = hero(&mut e, "Brom", "dwarf", Some("hill dwarf"));
    let halfling = hero(&mut e, "Pip", "halfling", Some("lightfoot halfling"));
    let elf = hero(&mut e, "Ilse", "elf", Some("high elf"));
    let gnome = hero(&mut e, "Fizz", "gnome", Some("rock gnome"));
    let human = hero(&mut e, "Hal", "human", None);
    let cases: Vec<(&str, Ability, SaveAgainst, Vec<&str>)> = vec![
        (
            &dwarf,
            Ability::Constitution,
            vs_condition(Condition::Poisoned),
            vec!["Dwarven Resilience (hill dwarf): poison"],
        ),
        (
            &dwarf,
            Ability::Constitution,
            SaveAgainst {
                damage: Some(DamageType::Poison),
                ..Default::default()
            },
            vec!["Dwarven Resilience (hill dwarf): poison"],
        ),
        (&dwarf, Ability::Constitution, SaveAgainst::none(), vec![]),
        (
            &dwarf,
            Ability::Constitution,
            vs_condition(Condition::Frightened),
            vec![],
        ),
        (
            &halfling,
            Ability::Wisdom,
            vs_condition(Condition::Frightened),
            vec!["Brave (lightfoot halfling): frightened"],
        ),
        (
            &halfling,
            Ability::Wisdom,
            vs_condition(Condition::Charmed),
            vec![],
        ),
        (
            &elf,
            Ability::Wisdom,
            vs_condition(Condition::Charmed),
            vec!["Fey Ancestry (high elf): charmed"],
        ),
        (
            &gnome,
            Ability::Intelligence,
            SaveAgainst {
                magic: true,
                ..Default::default()
            },
            vec!["Gnome Cunning (rock gnome): magic (INT, WIS and CHA saves)"],
        ),
        (
            &gnome,
            Ability::Dexterity,
            SaveAgainst {
                magic: true,
                ..Default::default()
            },
            vec![],
        ),
        (
            &human,
            Ability::Constitution,
            vs_condition(Condition::Poisoned),
            vec![],
        ),
    ];
    let mut got = Vec::new();
    let mut wanted = Vec::new();
    for (id, ability, vs, want) in cases {
        let out = save(&mut e, id, ability, vs.clone());
        let mode = if want.is_empty() {
            RollMode::Normal
        } else {
            RollMode::Advantage
        };
        let dice = if want.is_empty() { 1 } else { 2 };
        wanted.push((id.to_string(), ability, want.join("; "), mode, dice));
        got.push((
            id.to_string(),
            ability,
            out.advantage.join("; "),
            out.mode,
            out.rolls.len(),
        ));
    }
    assert_eq!(got, wanted);
}

fn part(source: ParticipantSource, at: (i32, i32), init: i32) -> ParticipantSpec {
    ParticipantSpec {
        source,
        side: None,
        positions: vec![Position::new(at.0, at.1)],
        surprised: false,
        initiative: Some(init),
    }
}

fn act(e: &mut E, req: Value) -> Result<ActionOutcome, EngineError> {
    let r: ActionRequest = serde_json::from_value(req).unwrap();
    e.write("execute_action", &json!({}), |call| execute(call, &r))
}

fn sheet(e: &mut E, id: &str) -> Character {
    let id = id.to_string();
    e.read(|call| tabletop_engine::character::resolve(call, CharacterRef::new(Some(&id), None)))
        .unwrap()
}

/// The rider save line of the first hit by `monster` on the dwarf within 20 tries.
fn rider_save_line(e: &mut E, dwarf: &str, monster: &str) -> String {
    for _ in 0..20 {
        let out = act(
            e,
            json!({"actor": {"name": monster}, "actionType": "attack", "target": {"id": dwarf}, "weapon": "Bite", "force": true}),
        )
        .unwrap();
        let mut d = sheet(e, dwarf);
        d.conditions.clear();
        d.hp = d.max_hp;
        e.write("t", &json!({}), |call| {
            tabletop_engine::combat::put_sheet(call, &d)
        })
        .unwrap();
        if out.details["attacks"][0]["hit"].as_bool() == Some(true) {
            return out
                .lines
                .iter()
                .find(|l| l.contains(" save ("))
                .unwrap_or_else(|| panic!("no save line: {:?}", out.lines))
                .clone();
        }
    }
    panic!("{monster} never hit in 20 tries");
}

#[test]
fn a_poisoning_bite_gives_a_dwarf_advantage_and_a_wolf_bite_does_not() {
    let Some(srd) = common::srd("a_poisoning_bite_gives_a_dwarf_advantage") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 5);
    let dwarf = hero(&mut e, "Brom", "dwarf", Some("hill dwarf"));
    e.write("create_encounter", &json!({}), |call| {
        create_encounter(
            call,
            CreateEncounter {
                participants: vec![
                    part(
                        ParticipantSource::Character {
                            id: Some(dwarf.clone()),
                            name: None,
                        },
                        (0, 0),
                        5,
                    ),
                    part(
                        ParticipantSource::Monster {
                            monster: "homunculus".into(),
                            count: 1,
                            name: None,
                        },
                        (1, 0),
                        20,
                    ),
                    part(
                        ParticipantSource::Monster {
                            monster: "wolf".into(),
                            count: 1,
                            name: None,
                        },
                        (0, 1),
                        15,
                    ),
                ],
                ..Default::default()
            },
        )
    })
    .unwrap();
    let poison = rider_save_line(&mut e, &dwarf, "Homunculus");
    let prone = rider_save_line(&mut e, &dwarf, "Wolf");
    assert_eq!(
        poison,
        "Brom — Constitution save (Bite): d20 [~~18~~, 19] (advantage: Dwarven Resilience (hill dwarf): poison) + 5 = 24 vs DC 10 — success"
    );
    assert_eq!(
        prone,
        "Brom — Strength save (Bite): d20 [18] + 4 = 22 vs DC 11 — success"
    );
}

fn add_save_ends(e: &mut E, id: &str, condition: Condition, source: &str, ability: Ability) {
    use tabletop_engine::conditions::{ConditionOp, manage_condition};
    use tabletop_engine::effects::DurationRequest;
    e.write("manage_condition", &json!({}), |call| {
        manage_condition(
            call,
            CharacterRef::new(Some(id), None),
            ConditionOp::Add {
                condition,
                level: None,
                source: Some(source.into()),
                duration: DurationRequest::SaveEnds { dc: 12, ability },
                caster: None,
            },
        )
    })
    .unwrap();
}

fn tick(e: &mut E, id: &str) -> Vec<String> {
    use tabletop_engine::conditions::{ConditionOp, manage_condition};
    e.write("manage_condition", &json!({}), |call| {
        manage_condition(
            call,
            CharacterRef::new(Some(id), None),
            ConditionOp::Tick { rounds: 1 },
        )
    })
    .unwrap()
    .changes
}

#[test]
fn repeated_saves_keep_the_racial_advantage_of_the_first() {
    let Some(srd) = common::srd("repeated_saves_keep_the_racial_advantage_of_the_first") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 11);
    let dwarf = hero(&mut e, "Brom", "dwarf", Some("hill dwarf"));
    let elf = hero(&mut e, "Ael", "elf", Some("high elf"));
    let halfling = hero(&mut e, "Pip", "halfling", Some("lightfoot halfling"));
    let gnome = hero(&mut e, "Fizz", "gnome", Some("rock gnome"));
    let human = hero(&mut e, "Hal", "human", None);
    add_save_ends(
        &mut e,
        &dwarf,
        Condition::Poisoned,
        "Giant Spider Bite",
        Ability::Constitution,
    );
    add_save_ends(
        &mut e,
        &elf,
        Condition::Charmed,
        "Charm Person",
        Ability::Wisdom,
    );
    add_save_ends(
        &mut e,
        &halfling,
        Condition::Frightened,
        "Dragon Fear",
        Ability::Wisdom,
    );
    add_save_ends(
        &mut e,
        &gnome,
        Condition::Paralyzed,
        "Hold Person",
        Ability::Wisdom,
    );
    add_save_ends(
        &mut e,
        &human,
        Condition::Frightened,
        "Dragon Fear",
        Ability::Wisdom,
    );
    // Each save-ends roll resists what the condition is, as the first save did.
    assert_eq!(
        tick(&mut e, &dwarf),
        [
            "Brom — Constitution save (ends poisoned): d20 [~~3~~, 11] (advantage: Dwarven Resilience (hill dwarf): poison) + 5 = 16 vs DC 12 — success; poisoned ends"
        ]
    );
    assert_eq!(
        tick(&mut e, &elf),
        [
            "Ael — Wisdom save (ends charmed): d20 [~~16~~, 17] (advantage: Fey Ancestry (high elf): charmed) + 1 = 18 vs DC 12 — success; charmed ends"
        ]
    );
    assert_eq!(
        tick(&mut e, &halfling),
        [
            "Pip — Wisdom save (ends frightened): d20 [~~8~~, 11] (advantage: Brave (lightfoot halfling): frightened) + 1 = 12 vs DC 12 — success; frightened ends"
        ]
    );
    // Hold Person is a spell: the gnome's WIS save against magic has advantage.
    assert_eq!(
        tick(&mut e, &gnome),
        [
            "Fizz — Wisdom save (ends paralyzed): d20 [19, ~~4~~] (advantage: Gnome Cunning (rock gnome): magic (INT, WIS and CHA saves)) + 1 = 20 vs DC 12 — success; paralyzed ends"
        ]
    );
    // A human has no trait: one die, and the fear stays.
    assert_eq!(
        tick(&mut e, &human),
        ["Hal — Wisdom save (ends frightened): d20 [6] + 2 = 8 vs DC 12 — fail"]
    );
    assert!(sheet(&mut e, &human).has_condition(Condition::Frightened));
    assert!(!sheet(&mut e, &dwarf).has_condition(Condition::Poisoned));
}

fn history(e: &mut E, id: &str, reason: Option<&str>) -> D20Outcome {
    let req = CheckRequest {
        reason: reason.map(str::to_string),
        against: SaveAgainst::default(),
        ..CheckRequest::of(D20Test::SkillCheck {
            skill: tabletop_rules::Skill::History,
        })
    };
    match e
        .write("roll_check", &json!({}), |call| {
            roll_check(call, CharacterRef::new(Some(id), None), &req)
        })
        .unwrap()
    {
        CheckOutcome::Rolled { outcome, .. } => outcome,
        other => panic!("{other:?}"),
    }
}

/// Stonecunning: a hill dwarf's History check about stonework adds double the proficiency
/// bonus (+4 at level 1, not proficient in History); about anything else, nothing. Artificer's
/// Lore does the same for a rock gnome's check about a magic item.
#[test]
fn stonecunning_and_artificers_lore_double_proficiency_on_history_about_their_topic() {
    let Some(srd) = common::srd("stonecunning") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 5);
    let dwarf = hero(&mut e, "Dain", "dwarf", Some("Hill Dwarf"));
    let plain = history(&mut e, &dwarf, Some("the old king's name"));
    let d20 = i32::try_from(plain.rolls[0]).unwrap();
    assert_eq!(plain.total, Some(d20));
    let stone = history(&mut e, &dwarf, Some("who cut this stonework"));
    assert_eq!(
        stone.total,
        Some(i32::try_from(stone.rolls[0]).unwrap() + 4),
        "{}",
        stone.summary()
    );
    assert!(
        stone.modifiers.iter().any(|m| m.source
            == "Stonecunning (hill dwarf) (double proficiency: stonework)"
            && m.delta == 4),
        "{:?}",
        stone.modifiers
    );
    let gnome = hero(&mut e, "Fizz", "gnome", Some("Rock Gnome"));
    let lore = history(&mut e, &gnome, Some("what this magic item is"));
    // INT 10 + racial +1 (rock gnome: CON; gnome: INT +2) → 12: +1, and double proficiency +4.
    assert_eq!(
        lore.total,
        Some(i32::try_from(lore.rolls[0]).unwrap() + 1 + 4),
        "{}",
        lore.summary()
    );
    let other = history(&mut e, &gnome, Some("the old king's name"));
    assert_eq!(
        other.total,
        Some(i32::try_from(other.rolls[0]).unwrap() + 1),
        "{}",
        other.summary()
    );
}
