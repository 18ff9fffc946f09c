//! The store keeps everything across restarts, isolates campaigns, and logs every change.

use super::common;

use tabletop_engine::campaign;
use tabletop_engine::character::CharacterRef;
use tabletop_engine::rolls::{RollRequest, roll_dice};
use tabletop_engine::sheet::get_character;
use tabletop_engine::store::{Store, Tx};
use tabletop_engine::update::{HpChange, UpdateRequest, update_character};
use tabletop_rules::damage::DamagePart;
use tabletop_rules::{Ability, DamageType};

fn roll(engine: &mut tabletop_engine::Engine<tabletop_engine::SqliteStore>, expr: &str) -> i64 {
    engine
        .write("roll_dice", &serde_json::json!({}), |call| {
            roll_dice(
                call,
                &RollRequest {
                    expression: expr.into(),
                    ..Default::default()
                },
            )
        })
        .expect("roll")
        .roll
        .total
}

#[test]
fn a_character_survives_a_restart_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.sqlite");
    let before = {
        let mut e = common::open(&db, "main", None);
        let id = common::create(&mut e, common::fighter("Brom", [16, 12, 14, 8, 10, 10]));
        e.write("update_character", &serde_json::json!({}), |call| {
            update_character(
                call,
                CharacterRef::new(Some(&id), None),
                UpdateRequest {
                    damage: vec![DamagePart::new(Some(DamageType::Fire), 5)],
                    temp_hp: Some(3),
                    ..Default::default()
                },
            )
        })
        .unwrap();
        e.read(|call| get_character(call, CharacterRef::new(None, Some("brom"))))
            .unwrap()
            .character
    };
    // Dropped: the connection is closed, as after a kill.
    let mut e = common::open(&db, "main", None);
    let after = e
        .read(|call| get_character(call, CharacterRef::new(Some(&before.id), None)))
        .unwrap()
        .character;
    assert_eq!(before, after);
    assert_eq!(after.hp, 12 - 5);
    assert_eq!(after.temp_hp, 3);
}

#[test]
fn the_dice_stream_resumes_exactly_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.sqlite");
    // Reference: six rolls in one process.
    let reference: Vec<i64> = {
        let mut e = common::open(&dir.path().join("ref.sqlite"), "main", Some(42));
        (0..6).map(|_| roll(&mut e, "1d1000")).collect()
    };
    // The same seed, with a restart after three rolls.
    let mut first: Vec<i64> = {
        let mut e = common::open(&db, "main", Some(42));
        (0..3).map(|_| roll(&mut e, "1d1000")).collect()
    };
    let mut e = common::open(&db, "main", None);
    first.extend((0..3).map(|_| roll(&mut e, "1d1000")));
    assert_eq!(reference, first);
}

/// An engine rolls on with the stream it kept from its last roll only while the store still
/// holds that stream: not after another connection rolled, nor after a call that rolled and
/// failed (rolled back).
#[test]
fn the_dice_stream_an_engine_kept_gives_way_to_the_stored_one() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.sqlite");
    let reference: Vec<i64> = {
        let mut e = common::open(&dir.path().join("ref.sqlite"), "main", Some(7));
        (0..5).map(|_| roll(&mut e, "1d1000")).collect()
    };
    let mut a = common::open(&db, "main", Some(7));
    let mut b = common::open(&db, "main", None);
    let mut got = vec![
        roll(&mut a, "1d1000"),
        roll(&mut b, "1d1000"),
        roll(&mut a, "1d1000"),
    ];
    let failed = a.write("roll_dice", &serde_json::json!({}), |call| {
        roll_dice(
            call,
            &RollRequest {
                expression: "1d1000".into(),
                ..Default::default()
            },
        )?;
        Err::<(), _>(tabletop_engine::EngineError::Rule(
            "refused after rolling".into(),
        ))
    });
    assert!(failed.is_err());
    got.extend([roll(&mut a, "1d1000"), roll(&mut a, "1d1000")]);
    assert_eq!(reference, got);
}

#[test]
fn a_per_call_seed_leaves_the_campaign_stream_alone() {
    let dir = tempfile::tempdir().unwrap();
    let mut a = common::open(&dir.path().join("a.sqlite"), "main", Some(9));
    let mut b = common::open(&dir.path().join("b.sqlite"), "main", Some(9));
    let seeded = |e: &mut tabletop_engine::Engine<tabletop_engine::SqliteStore>| {
        e.write("roll_dice", &serde_json::json!({}), |call| {
            roll_dice(
                call,
                &RollRequest {
                    expression: "3d6".into(),
                    seed: Some(1),
                    ..Default::default()
                },
            )
        })
        .unwrap()
        .roll
        .total
    };
    let s1 = seeded(&mut a);
    assert_eq!(
        s1,
        seeded(&mut a),
        "the same per-call seed gives the same roll"
    );
    assert_eq!(
        roll(&mut a, "1d1000"),
        roll(&mut b, "1d1000"),
        "the campaign stream did not move"
    );
}

#[test]
fn campaigns_are_isolated() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.sqlite");
    {
        let mut e = common::open(&db, "alpha", None);
        common::create(&mut e, common::fighter("Only In Alpha", [10; 6]));
    }
    let mut e = common::open(&db, "beta", None);
    let err = e
        .read(|call| get_character(call, CharacterRef::new(None, Some("Only In Alpha"))))
        .unwrap_err();
    assert!(
        err.to_string().contains("no character 'Only In Alpha'"),
        "{err}"
    );
}

#[test]
fn every_mutating_call_is_in_the_event_log_with_its_rolls() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.sqlite");
    let mut e = common::open(&db, "main", Some(5));
    let id = common::create(&mut e, common::fighter("Logged", [10; 6]));
    roll(&mut e, "2d6");
    e.write(
        "update_character",
        &serde_json::json!({"characterId": id, "hp": "-3"}),
        |call| {
            update_character(
                call,
                CharacterRef::new(Some(&id), None),
                UpdateRequest {
                    hp: Some(HpChange::Damage(3)),
                    ..Default::default()
                },
            )
        },
    )
    .unwrap();
    // A failed call writes nothing.
    let failed = e.write("update_character", &serde_json::json!({}), |call| {
        update_character(
            call,
            CharacterRef::new(Some("nobody"), None),
            UpdateRequest::default(),
        )
    });
    assert!(failed.is_err());
    drop(e);
    let mut store = tabletop_engine::SqliteStore::open(&db).unwrap();
    let tx = store.begin(false).unwrap();
    let c = tx.find_campaign("main").unwrap().unwrap();
    let events = tx.all_events(c).unwrap();
    let tools: Vec<&str> = events.iter().map(|e| e.tool.as_str()).collect();
    assert_eq!(
        tools,
        [
            "server",
            "create_character",
            "roll_dice",
            "update_character"
        ]
    );
    assert_eq!(events[2].rolls.len(), 1, "the roll is recorded");
    assert!(
        events[3].changes[0].what.contains("10 → 7"),
        "{:?}",
        events[3].changes
    );
    assert_eq!(events[3].args["hp"], "-3");
}

#[test]
fn export_and_import_round_trip_a_campaign() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.sqlite");
    {
        let mut e = common::open(&db, "saga", Some(3));
        common::create(&mut e, common::fighter("Exported", [12; 6]));
        roll(&mut e, "1d20");
    }
    let mut store = tabletop_engine::SqliteStore::open(&db).unwrap();
    let exported = {
        let tx = store.begin(false).unwrap();
        campaign::export(&tx, "saga").unwrap()
    };
    {
        let mut tx = store.begin(true).unwrap();
        let name = campaign::import(&mut tx, &exported, Some("saga-copy")).unwrap();
        assert_eq!(name, "saga-copy");
        let again = campaign::import(&mut tx, &exported, Some("saga-copy")).unwrap_err();
        assert!(again.to_string().contains("already exists"), "{again}");
        tabletop_engine::store::Transaction::commit(tx).unwrap();
    }
    drop(store);
    let mut a = common::open(&db, "saga", None);
    let mut b = common::open(&db, "saga-copy", None);
    let ca = a
        .read(|call| get_character(call, CharacterRef::new(None, Some("Exported"))))
        .unwrap();
    let cb = b
        .read(|call| get_character(call, CharacterRef::new(None, Some("Exported"))))
        .unwrap();
    assert_eq!(ca.character, cb.character);
    assert_eq!(
        roll(&mut a, "1d1000"),
        roll(&mut b, "1d1000"),
        "the dice stream was exported too"
    );
    // New ids in the copy do not collide with imported ones.
    let id = common::create(&mut b, common::fighter("New", [10; 6]));
    assert_ne!(id, ca.character.id);
}

/// A campaign file as an older version wrote it: the character's numbers stored (max HP 26 and
/// AC 16 as given, racial bonuses inside the scores), equipment as plain strings, no build, no
/// derived values, no inventory.
const OLD_CAMPAIGN: &str = r#"{
  "format": 1,
  "name": "old-saga",
  "rngState": null,
  "events": [],
  "characters": [{
    "id": "ch1", "name": "Brom", "kind": "pc",
    "race": "Dwarf", "subrace": "Hill Dwarf", "class": "Fighter", "level": 3,
    "abilities": {"strength": 15, "dexterity": 12, "constitution": 15, "intelligence": 10,
                  "wisdom": 13, "charisma": 8},
    "proficiencyBonus": 2,
    "saveProficiencies": ["str", "con"],
    "skills": {"athletics": "proficient", "survival": "proficient"},
    "armorClass": 16, "armorSource": "chain mail",
    "speed": 25, "size": "medium",
    "maxHp": 26, "hp": 20, "hitDie": 10, "hitDice": 3,
    "equipment": ["Chain Mail", "Longsword", "Thieves' Tools"],
    "features": ["Second Wind", "Action Surge"]
  }]
}"#;

#[test]
fn an_old_campaign_file_opens_and_derives_from_its_sources() {
    let Some(srd) = common::srd("an_old_campaign_file_opens_and_derives_from_its_sources") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.sqlite");
    let old: campaign::CampaignExport = serde_json::from_str(OLD_CAMPAIGN).unwrap();
    {
        let mut store = tabletop_engine::SqliteStore::open(&db).unwrap();
        let mut tx = store.begin(true).unwrap();
        assert_eq!(campaign::import(&mut tx, &old, None).unwrap(), "old-saga");
        tabletop_engine::store::Transaction::commit(tx).unwrap();
    }
    let mut e = tabletop_engine::Engine::open(
        tabletop_engine::SqliteStore::open(&db).unwrap(),
        "old-saga",
        tabletop_engine::EngineOptions {
            seed: Some(1),
            compendium: tabletop_engine::compendium::CompendiumSource::ready(srd),
        },
    )
    .unwrap();
    let s = e
        .read(|call| get_character(call, CharacterRef::new(None, Some("Brom"))))
        .unwrap();
    // The sheet gets its sources: base scores without the hill dwarf's +2 CON / +1 WIS, the
    // class levels, the stored AC kept as an explicit override, the stored max HP kept as an
    // adjustment (26) plus the Dwarven Toughness the old code never added (+3).
    let b = s.character.build.as_ref().expect("converted to sources");
    assert_eq!(b.method, "converted from an earlier sheet");
    assert_eq!(b.base_scores.get(Ability::Constitution), 13);
    assert_eq!(b.base_scores.get(Ability::Wisdom), 12);
    assert_eq!(b.classes.len(), 1);
    assert_eq!(
        (b.classes[0].class.as_str(), b.classes[0].level),
        ("Fighter", 3)
    );
    assert_eq!(b.overrides.armor_class, Some(16));
    assert_eq!(s.character.max_hp, 29);
    assert_eq!(s.character.hp, 20);
    assert_eq!(s.effective.armor_class.value, 16);
    assert!(s.character.resistances.contains(&DamageType::Poison));
    // One item list: the equipment strings became SRD inventory items.
    assert_eq!(s.character.equipment, Vec::<String>::new());
    let items: Vec<&str> = s
        .character
        .inventory
        .items
        .iter()
        .map(|i| i.name.as_str())
        .collect();
    assert_eq!(items, ["Chain Mail", "Longsword", "Thieves' Tools"]);
    assert_eq!(
        s.character.inventory.items[0]
            .armor
            .as_ref()
            .map(|a| a.base_ac),
        Some(16)
    );
    // A source change follows through the pipeline: CON 15 → 17 adds 1 × 3 levels.
    let out = e
        .write("update_character", &serde_json::json!({}), |call| {
            update_character(
                call,
                CharacterRef::new(None, Some("Brom")),
                UpdateRequest {
                    patch: tabletop_engine::update::CharacterPatch {
                        stats: Some([(Ability::Constitution, 17)].into_iter().collect()),
                        ..Default::default()
                    },
                    ..Default::default()
                },
            )
        })
        .unwrap();
    assert_eq!(out.character.max_hp, 32);
}

/// A roll's answer reuses the JSON its event recorded: the same bytes as serializing the outcome,
/// whatever the roll (advantage, a reason that needs escaping, a fixed seed).
#[test]
fn a_roll_answers_with_the_json_its_event_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.sqlite");
    let mut e = common::open(&db, "main", Some(7));
    let requests = [
        RollRequest {
            expression: "1d20+5".into(),
            reason: Some("a \"quoted\" reason\twith a tab".into()),
            advantage: true,
            ..Default::default()
        },
        RollRequest {
            expression: "4d6kh3".into(),
            seed: Some(42),
            ..Default::default()
        },
    ];
    let mut answers = Vec::new();
    for req in &requests {
        let (out, shown) = e
            .write("roll_dice", &serde_json::json!({}), |call| {
                tabletop_engine::rolls::roll_dice_recorded(call, req)
            })
            .unwrap();
        let made = serde_json::to_string(&out).unwrap();
        let shown = shown.expect("the event recorded the outcome");
        assert_eq!(shown, made);
        answers.push(shown);
    }
    drop(e);
    let mut store = tabletop_engine::SqliteStore::open(&db).unwrap();
    let tx = store.begin(false).unwrap();
    let c = tx.find_campaign("main").unwrap().unwrap();
    let recorded: Vec<serde_json::Value> = tx
        .all_events(c)
        .unwrap()
        .iter()
        .filter(|e| e.tool == "roll_dice")
        .map(|e| e.rolls[0].clone())
        .collect();
    let shown: Vec<serde_json::Value> = answers
        .iter()
        .map(|a| serde_json::from_str(a).unwrap())
        .collect();
    assert_eq!(recorded, shown);
    assert!(
        answers[0].contains(r#""reason":"a \"quoted\" reason\twith a tab""#),
        "{}",
        answers[0]
    );
}

/// A check's answer reuses the JSON its event recorded, as a roll's does.
#[test]
fn a_check_answers_with_the_json_its_event_recorded() {
    use tabletop_engine::checks::{CheckRequest, roll_check_recorded};
    let dir = tempfile::tempdir().unwrap();
    let mut e = common::open(&dir.path().join("t.sqlite"), "main", Some(3));
    common::create(&mut e, common::fighter("Brom", [16, 12, 14, 8, 10, 10]));
    let req = CheckRequest {
        dc: Some(12),
        advantage: Some("a \"good\" grip".into()),
        bonus: 1,
        reason: Some("lift the gate".into()),
        ..CheckRequest::of(tabletop_rules::d20::D20Test::AbilityCheck {
            ability: Ability::Strength,
        })
    };
    let (out, text) = e
        .write("roll_check", &serde_json::json!({}), |call| {
            roll_check_recorded(call, CharacterRef::new(None, Some("Brom")), &req)
        })
        .unwrap();
    let text = text.expect("the event recorded the outcome");
    assert_eq!(text, serde_json::to_string(&out).unwrap());
    assert!(text.contains("lift the gate"), "{text}");
}

/// The stored document of `name`, read straight from the file.
fn stored_doc(db: &std::path::Path, name: &str) -> String {
    rusqlite::Connection::open(db)
        .unwrap()
        .query_row("SELECT doc FROM characters WHERE name = ?1", [name], |r| {
            r.get(0)
        })
        .unwrap()
}

/// A write that changes only a character's state (hit points, conditions, death saves) rewrites
/// only the state part of its stored document and keeps the rest of the text as it was read;
/// a change to anything else writes the whole document again. Shown on an SRD-built hill-dwarf
/// cleric 5 with a member planted in its stored text that only a kept text can carry.
#[test]
fn a_state_change_rewrites_only_the_state_part_of_the_stored_document() {
    let Some(srd) =
        common::srd("a_state_change_rewrites_only_the_state_part_of_the_stored_document")
    else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.sqlite");
    let mut e = tabletop_engine::Engine::open(
        tabletop_engine::SqliteStore::open(&db).unwrap(),
        "main",
        tabletop_engine::EngineOptions {
            seed: Some(1),
            compendium: tabletop_engine::compendium::CompendiumSource::ready(srd),
        },
    )
    .unwrap();
    let req = tabletop_engine::creation::CreateRequest {
        name: "Hild".into(),
        race: Some("dwarf".into()),
        subrace: Some("hill dwarf".into()),
        class: Some("cleric".into()),
        level: Some(5),
        scores: Some(
            [
                (Ability::Strength, 14),
                (Ability::Dexterity, 10),
                (Ability::Constitution, 14),
                (Ability::Intelligence, 10),
                (Ability::Wisdom, 15),
                (Ability::Charisma, 8),
            ]
            .into_iter()
            .collect(),
        ),
        ..Default::default()
    };
    e.write("create_character", &serde_json::json!({}), |call| {
        tabletop_engine::creation::create_character(call, req)
    })
    .unwrap();
    let created = stored_doc(&db, "Hild");
    rusqlite::Connection::open(&db)
        .unwrap()
        .execute(
            "UPDATE characters SET doc = '{\"zz\":1,' || substr(doc, 2) WHERE name = 'Hild'",
            [],
        )
        .unwrap();
    let hp = |e: &mut tabletop_engine::Engine<tabletop_engine::SqliteStore>, change| {
        e.write("update_character", &serde_json::json!({}), |call| {
            update_character(
                call,
                CharacterRef::new(None, Some("Hild")),
                UpdateRequest {
                    hp: Some(change),
                    ..Default::default()
                },
            )
        })
        .unwrap()
    };
    // Hill dwarf cleric 5, CON 16: 8 + 4 × 5 + 3 × 5 + 5 (Dwarven Toughness) = 48.
    let out = hp(&mut e, HpChange::Damage(7));
    let doc = stored_doc(&db, "Hild");
    assert_eq!(out.character.hp, 41);
    assert_eq!(
        out.character_text.get(),
        doc,
        "the answer shows the stored text"
    );
    let whole = tabletop_engine::model::character::document_text(&out.character).unwrap();
    assert_eq!(doc, format!("{{\"zz\":1,{}", &whole[1..]));
    assert_ne!(whole, created);
    // A Dexterity save reads the sheet the write handed on: the same modifier as derived anew.
    let dex_save = |e: &mut tabletop_engine::Engine<tabletop_engine::SqliteStore>| {
        let out = e
            .write("roll_check", &serde_json::json!({}), |call| {
                tabletop_engine::checks::roll_check(
                    call,
                    CharacterRef::new(None, Some("Hild")),
                    &tabletop_engine::checks::CheckRequest::of(
                        tabletop_rules::d20::D20Test::Save {
                            ability: Ability::Dexterity,
                        },
                    ),
                )
            })
            .unwrap();
        match out {
            tabletop_engine::checks::CheckOutcome::Rolled { outcome, .. } => outcome,
            other => panic!("rolled: {other:?}"),
        }
    };
    let save = dex_save(&mut e);
    let fresh = out.character.effective().saves[&Ability::Dexterity].bonus;
    assert_eq!((save.modifier_total, save.auto_fail.len()), (fresh, 0));
    // Down to 0 HP: unconscious, death saves: still the state part only.
    let out = hp(&mut e, HpChange::Damage(60));
    assert_eq!(out.character.status(), "dying");
    let doc = stored_doc(&db, "Hild");
    let whole = tabletop_engine::model::character::document_text(&out.character).unwrap();
    assert!(
        whole.contains("{\"condition\":\"unconscious\",\"source\":\"0 HP\"}"),
        "{whole}"
    );
    assert_eq!(doc, format!("{{\"zz\":1,{}", &whole[1..]));
    let read = e
        .read(|call| get_character(call, CharacterRef::new(None, Some("Hild"))))
        .unwrap()
        .character;
    assert_eq!(read, *out.character);
    // Unconscious: a Dexterity save fails on its own (the sheet read before is not handed on).
    assert!(!dex_save(&mut e).auto_fail.is_empty());
    // A change to the base (a note): the whole document, as serialized now.
    let out = e
        .write("update_character", &serde_json::json!({}), |call| {
            update_character(
                call,
                CharacterRef::new(None, Some("Hild")),
                UpdateRequest {
                    patch: tabletop_engine::update::CharacterPatch {
                        notes: Some("keeps a ledger".into()),
                        ..Default::default()
                    },
                    ..Default::default()
                },
            )
        })
        .unwrap();
    let whole = tabletop_engine::model::character::document_text(&out.character).unwrap();
    assert_eq!(stored_doc(&db, "Hild"), whole);
    assert!(!whole.contains("zz"));
}
