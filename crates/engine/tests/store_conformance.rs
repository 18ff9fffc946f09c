//! The store conformance suite: one test body per behaviour, generic over `impl Store`, run on
//! SQLite and on PostgreSQL. Each body drives the real use cases (character creation, notes,
//! places, parties, dice) and the store's transactions, and asserts exact results; the
//! PostgreSQL runs must give the same answers as the SQLite ones (ranked search included).
//!
//! PostgreSQL comes from `TABLETOP_TEST_DATABASE_URL` (see `test-support/pg_env.rs`): without it
//! the PostgreSQL half is skipped with a message, and fails under CI.

use serde_json::{Value, json};
use tabletop_engine::campaign;
use tabletop_engine::character::CharacterFilter;
use tabletop_engine::creation::{
    AbilityMethod, CreateMode, CreateRequest, CustomClass, create_character,
};
use tabletop_engine::notes::{self, Importance, NoteDraft, NoteFilter, NoteType, Visibility};
use tabletop_engine::rolls::{RollRequest, roll_dice};
use tabletop_engine::store::{StoredToken, Transaction, Tx};
use tabletop_engine::world::{self, LinkSpec, LocationPatch, LocationRef};
use tabletop_engine::{Engine, EngineOptions, PgStore, SqliteStore, Store};
use tabletop_rules::Ability;

use super::pg_env;

fn open<S: Store>(store: S, name: &str, seed: Option<u64>) -> Engine<S> {
    Engine::open(
        store,
        name,
        EngineOptions {
            seed,
            compendium: tabletop_engine::compendium::CompendiumSource::none(),
        },
    )
    .expect("open campaign")
}

fn fighter(name: &str) -> CreateRequest {
    CreateRequest {
        name: name.into(),
        custom_class: Some(CustomClass {
            name: "Fighter".into(),
            hit_die: 10,
            saves: vec![Ability::Strength, Ability::Constitution],
            spellcasting_ability: None,
            skill_choices: None,
        }),
        method: AbilityMethod::Manual,
        scores: Some(
            Ability::ALL
                .iter()
                .copied()
                .zip([16, 12, 14, 8, 10, 10])
                .collect(),
        ),
        mode: CreateMode::Create,
        ..Default::default()
    }
}

fn create<S: Store>(e: &mut Engine<S>, name: &str) -> String {
    e.write("create_character", &json!({}), |call| {
        create_character(call, fighter(name))
    })
    .expect("create")
    .character
    .id
}

fn note<S: Store>(
    e: &mut Engine<S>,
    content: &str,
    importance: Importance,
    tags: &[&str],
) -> String {
    e.write("manage_notes", &json!({}), |call| {
        notes::add_note(
            call,
            NoteDraft {
                content: Some(content.into()),
                kind: Some(NoteType::Lore),
                tags: Some(tags.iter().map(|t| t.to_string()).collect()),
                importance: Some(importance),
                visibility: Some(Visibility::Dm),
            },
        )
    })
    .unwrap()
    .id
}

fn place<S: Store>(e: &mut E2<S>, name: &str) -> String {
    e.write("manage_location", &json!({}), |call| {
        world::create_location(
            call,
            LocationPatch {
                name: Some(name.into()),
                description: Some(format!("The {name}.")),
                ..Default::default()
            },
        )
    })
    .unwrap()
    .location
    .id
}

type E2<S> = Engine<S>;

/// Runs `body` on a fresh SQLite store and, when a test PostgreSQL is configured, on a fresh
/// PostgreSQL database; both must return the same transcript.
macro_rules! on_both_stores {
    ($($name:ident),* $(,)?) => {$(
        mod $name {
            #[test]
            fn sqlite() {
                let t = super::$name(tabletop_engine::SqliteStore::in_memory().unwrap());
                let _ = t;
            }

            #[test]
            fn postgres() {
                let Some(url) = super::pg_env::fresh_database(concat!("conf_", stringify!($name)))
                else {
                    return;
                };
                let pg = super::$name(tabletop_engine::PgStore::open(&url).unwrap());
                let sqlite = super::$name(tabletop_engine::SqliteStore::in_memory().unwrap());
                assert_eq!(pg, sqlite, "PostgreSQL and SQLite answer differently");
            }
        }
    )*};
}

on_both_stores!(
    characters_list_in_name_order_with_filters_and_pages,
    search_ranks_like_fts5_bm25,
    events_are_ordered_and_the_dice_stream_is_one_stream,
    world_places_and_connections,
    campaigns_ids_are_never_reused_and_tokens_follow_campaigns,
    export_then_import_gives_the_same_campaign,
);

fn characters_list_in_name_order_with_filters_and_pages<S: Store>(store: S) -> Value {
    let mut e = open(store, "conf", Some(1));
    for n in ["brom", "Ilse", "Ana", "Zed", "aaron"] {
        create(&mut e, n);
    }
    let names = |e: &mut Engine<S>, f: CharacterFilter, limit, offset| {
        e.admin(|tx| {
            let id = tx.find_campaign("conf")?.unwrap();
            let (list, total) = tx.list_characters(id, &f, limit, offset)?;
            Ok((list.into_iter().map(|c| c.name).collect::<Vec<_>>(), total))
        })
        .unwrap()
    };
    let all = names(&mut e, CharacterFilter::default(), 10, 0);
    assert_eq!(
        all,
        (
            vec![
                "aaron".into(),
                "Ana".into(),
                "brom".into(),
                "Ilse".into(),
                "Zed".into()
            ],
            5
        )
    );
    let page = names(&mut e, CharacterFilter::default(), 2, 2);
    assert_eq!(page, (vec!["brom".into(), "Ilse".into()], 5));
    let contains = names(
        &mut e,
        CharacterFilter {
            name: Some("A".into()),
            ..Default::default()
        },
        10,
        0,
    );
    assert_eq!(contains, (vec!["aaron".into(), "Ana".into()], 2));
    let high = names(
        &mut e,
        CharacterFilter {
            min_level: Some(2),
            ..Default::default()
        },
        10,
        0,
    );
    assert_eq!(high, (vec![], 0));
    let (named, gone, ids) = e
        .admin(|tx| {
            let id = tx.find_campaign("conf")?.unwrap();
            let named = tx.characters_named(id, "  ILSE ")?;
            let gone = tx.delete_character(id, &named[0].id)?;
            let again = tx.delete_character(id, &named[0].id)?;
            assert!(!again);
            let ids: Vec<String> = tx.character_names(id)?.into_iter().map(|p| p.0).collect();
            Ok((named.len(), gone, ids))
        })
        .unwrap();
    assert_eq!((named, gone), (1, true));
    assert_eq!(ids, vec!["ch5", "ch3", "ch1", "ch4"]);
    json!({ "all": all, "page": page, "ids": ids })
}

fn search_ranks_like_fts5_bm25<S: Store>(store: S) -> Value {
    let mut e = open(store, "conf", Some(1));
    let texts = [
        (
            "The goblin king hides in the caves under the old mill.",
            Importance::High,
            &["goblins", "mill"][..],
        ),
        (
            "Goblins raided the mill twice; the miller wants them gone.",
            Importance::Medium,
            &[][..],
        ),
        (
            "A dragon sleeps beneath the mountain.",
            Importance::Critical,
            &["dragon"][..],
        ),
        (
            "Goblin goblin goblin: the tracks are everywhere near the mill.",
            Importance::Low,
            &[][..],
        ),
        (
            "The Café Élan sells maps of the mill road.",
            Importance::Low,
            &["maps"][..],
        ),
    ];
    for (t, i, tags) in texts {
        note(&mut e, t, i, tags);
    }
    // Another campaign's notes count in the statistics (FTS5 ranks over its whole table) but
    // are never returned.
    let mut other = e;
    other
        .admin(|tx| {
            tx.ensure_campaign("other")?;
            Ok(())
        })
        .unwrap();
    let search = |e: &mut Engine<S>, q: &str| {
        e.read(|call| notes::search_notes(call, Some(q), &NoteFilter::default(), 10))
            .unwrap()
    };
    let goblin = search(&mut other, "goblin");
    let order: Vec<&str> = goblin.notes.iter().map(|n| n.note.id.as_str()).collect();
    assert_eq!(order, vec!["nt4", "nt1", "nt2"]);
    let both = search(&mut other, "goblin mill");
    let both_order: Vec<&str> = both.notes.iter().map(|n| n.note.id.as_str()).collect();
    assert_eq!(both_order, vec!["nt4", "nt1", "nt2"]);
    let accents = search(&mut other, "cafe ELAN");
    assert_eq!(accents.notes.len(), 1);
    assert_eq!(accents.notes[0].note.id, "nt5");
    let any = search(&mut other, "dragon maps");
    assert!(any.any_word, "no note holds both words");
    let any_order: Vec<&str> = any.notes.iter().map(|n| n.note.id.as_str()).collect();
    assert_eq!(any_order, vec!["nt3", "nt5"]);
    let tagged = search(&mut other, "goblins");
    let tagged_order: Vec<&str> = tagged.notes.iter().map(|n| n.note.id.as_str()).collect();
    // Both hold the word once; the shorter note ranks first (BM25's length normalisation).
    assert_eq!(tagged_order, vec!["nt2", "nt1"]);
    let round = |v: &tabletop_engine::notes::NoteSearch| {
        v.notes
            .iter()
            .map(|n| json!([n.note.id, format!("{:.9}", n.score)]))
            .collect::<Vec<_>>()
    };
    json!({
        "goblin": round(&goblin),
        "both": round(&both),
        "any": round(&any),
        "tagged": round(&tagged),
    })
}

fn events_are_ordered_and_the_dice_stream_is_one_stream<S: Store>(store: S) -> Value {
    let mut e = open(store, "conf", Some(42));
    let mut totals = vec![];
    for _ in 0..5 {
        let out = e
            .write("roll_dice", &json!({ "expression": "1d20+1d6" }), |call| {
                roll_dice(
                    call,
                    &RollRequest {
                        expression: "1d20+1d6".into(),
                        ..Default::default()
                    },
                )
            })
            .unwrap();
        totals.push(out.roll.total);
    }
    // A failing call writes nothing: no event, the dice stream untouched.
    let bad: Result<(), _> = e.write("roll_dice", &json!({}), |call| {
        roll_dice(
            call,
            &RollRequest {
                expression: "1d20".into(),
                ..Default::default()
            },
        )?;
        Err(tabletop_engine::EngineError::Rule(
            "refused after rolling".into(),
        ))
    });
    assert!(bad.is_err());
    let next = e
        .write("roll_dice", &json!({}), |call| {
            roll_dice(
                call,
                &RollRequest {
                    expression: "1d20+1d6".into(),
                    ..Default::default()
                },
            )
        })
        .unwrap();
    totals.push(next.roll.total);
    assert_eq!(totals, vec![15, 20, 16, 4, 24, 12]);
    let (tools, seqs, recent) = e
        .admin(|tx| {
            let id = tx.find_campaign("conf")?.unwrap();
            let all = tx.all_events(id)?;
            let recent: Vec<i64> = tx.recent_events(id, 2)?.iter().map(|e| e.seq).collect();
            Ok((
                all.iter().map(|e| e.tool.clone()).collect::<Vec<_>>(),
                all.iter().map(|e| e.seq).collect::<Vec<_>>(),
                recent,
            ))
        })
        .unwrap();
    assert_eq!(tools.len(), 7, "the reseed and six rolls: {tools:?}");
    assert_eq!(tools[0], "server");
    assert!(seqs.windows(2).all(|w| w[0] < w[1]), "ordered: {seqs:?}");
    assert_eq!(recent, vec![seqs[6], seqs[5]]);
    json!({ "totals": totals, "tools": tools })
}

fn world_places_and_connections<S: Store>(store: S) -> Value {
    let mut e = open(store, "conf", Some(1));
    let gate = place(&mut e, "Gate");
    let vault = place(&mut e, "vault");
    let crypt = place(&mut e, "Crypt");
    for to in [&vault, &crypt] {
        e.write("manage_location", &json!({}), |call| {
            world::link(
                call,
                LocationRef::either(&gate),
                LocationRef::either(to),
                LinkSpec::default(),
            )
        })
        .unwrap();
    }
    let (names, links, after) = e
        .admin(|tx| {
            let id = tx.find_campaign("conf")?.unwrap();
            let (list, total) = tx.list_locations(id, 10, 0)?;
            assert_eq!(total, 3);
            let names: Vec<String> = list.into_iter().map(|l| l.name).collect();
            let links: Vec<String> = tx
                .connections_of(id, &gate)?
                .into_iter()
                .map(|c| c.to)
                .collect();
            assert!(tx.delete_location(id, &vault)?);
            let after = tx.connections_of(id, &gate)?.len();
            Ok((names, links, after))
        })
        .unwrap();
    assert_eq!(names, vec!["Crypt", "Gate", "vault"]);
    assert_eq!(links, vec![vault.clone(), crypt.clone()]);
    assert_eq!(after, 1, "deleting a place deletes its connections");
    json!({ "names": names, "links": links })
}

fn campaigns_ids_are_never_reused_and_tokens_follow_campaigns<S: Store>(mut store: S) -> Value {
    let mut tx = store.begin(true).unwrap();
    let a = tx.ensure_campaign("alpha").unwrap();
    let b = tx.ensure_campaign("beta").unwrap();
    assert_eq!(tx.ensure_campaign("alpha").unwrap(), a);
    tx.put_token(&StoredToken {
        id: "tk1".into(),
        campaign: b,
        campaign_name: String::new(),
        role: "player".into(),
        character_id: Some("ch1".into()),
        secret_hash: vec![1, 2, 3, 255],
        label: Some("Ana's laptop".into()),
        created_at: String::new(),
    })
    .unwrap();
    let t = tx.token("tk1").unwrap().unwrap();
    assert_eq!(
        (
            t.campaign_name.as_str(),
            t.secret_hash.clone(),
            t.role.as_str()
        ),
        ("beta", vec![1, 2, 3, 255], "player")
    );
    assert_eq!(tx.next_id(a, "ch").unwrap(), 1);
    assert_eq!(tx.next_id(a, "ch").unwrap(), 2);
    tx.advance_id(a, "ch", 10).unwrap();
    tx.advance_id(a, "ch", 3).unwrap();
    assert_eq!(tx.next_id(a, "ch").unwrap(), 11);
    assert!(tx.delete_campaign("beta").unwrap());
    assert!(
        tx.token("tk1").unwrap().is_none(),
        "a token dies with its campaign"
    );
    let c = tx.ensure_campaign("gamma").unwrap();
    assert!(c.0 > b.0, "a deleted campaign's id is not handed out again");
    assert!(!tx.campaign_exists(b).unwrap());
    tx.commit().unwrap();
    // A transaction dropped without commit leaves nothing.
    {
        let mut tx = store.begin(true).unwrap();
        tx.ensure_campaign("never").unwrap();
    }
    let tx = store.begin(false).unwrap();
    let names: Vec<String> = tx
        .list_campaigns()
        .unwrap()
        .into_iter()
        .map(|c| c.name)
        .collect();
    assert_eq!(names, vec!["alpha", "gamma"]);
    json!({ "names": names, "ids": [a.0, c.0] })
}

fn export_then_import_gives_the_same_campaign<S: Store>(store: S) -> Value {
    // The source is always SQLite; the target is the store under test.
    let mut src = open(SqliteStore::in_memory().unwrap(), "moved", Some(9));
    create(&mut src, "Brom");
    note(
        &mut src,
        "The goblin king hides under the mill.",
        Importance::High,
        &["goblins"],
    );
    place(&mut src, "Gate");
    src.write("roll_dice", &json!({}), |call| {
        roll_dice(
            call,
            &RollRequest {
                expression: "3d6".into(),
                ..Default::default()
            },
        )
    })
    .unwrap();
    // Campaign memory travels too (issue 24): a quest with its objectives.
    src.write("manage_quest", &json!({}), |call| {
        tabletop_engine::memory::quests::create(
            call,
            tabletop_engine::memory::quests::QuestDraft {
                title: Some("The mill's secret".into()),
                objectives: Some(vec!["Search the mill".into()]),
                ..Default::default()
            },
        )
    })
    .unwrap();
    let exported = src.admin(|tx| campaign::export(tx, "moved")).unwrap();
    assert_eq!(exported.quests.len(), 1);
    let mut target = store;
    let mut tx = target.begin(true).unwrap();
    let name = campaign::import(&mut tx, &exported, None).unwrap();
    tx.commit().unwrap();
    assert_eq!(name, "moved");
    let mut moved = open(target, "moved", None);
    let again = moved.admin(|tx| campaign::export(tx, "moved")).unwrap();
    let a = serde_json::to_value(&exported).unwrap();
    let b = serde_json::to_value(&again).unwrap();
    // Sequence numbers are the target's own, and an imported note is stamped when it is
    // imported (the import use case, on either store); everything else is the same.
    let strip = |mut v: Value| {
        for e in v["events"].as_array_mut().unwrap() {
            e.as_object_mut().unwrap().remove("seq");
        }
        for n in v["notes"].as_array_mut().unwrap() {
            n.as_object_mut().unwrap().remove("createdAt");
            n.as_object_mut().unwrap().remove("updatedAt");
        }
        v
    };
    assert_eq!(strip(a.clone()), strip(b));
    // The dice stream continues where it was.
    let roll = |e: &mut Engine<S>| {
        e.write("roll_dice", &json!({}), |call| {
            roll_dice(
                call,
                &RollRequest {
                    expression: "1d100".into(),
                    ..Default::default()
                },
            )
        })
        .unwrap()
        .roll
        .total
    };
    let next = roll(&mut moved);
    assert_eq!(next, 28);
    json!({ "characters": a["characters"].as_array().unwrap().len(), "next": next })
}

/// The two migration sets stay in step: every table and column the SQLite migrations create
/// exists in PostgreSQL, and nothing else but the PostgreSQL full-text columns and the schema
/// version table (SQLite keeps its full-text index in `notes_fts*` tables and its version in
/// `user_version`; its `event_seq_floor` remembers the event numbers a deleted campaign took,
/// which a PostgreSQL sequence never hands out again anyway; its `events.rng` carries the dice
/// stream's state so that a roll does not rewrite the campaign's row as well, a page write that
/// PostgreSQL, which locks the campaign's row on every write anyway, does not save; its
/// `events.mark` keeps its campaign index sparse, saving the index page a commit would write to
/// SQLite's WAL, where PostgreSQL's WAL logs the index entry rather than its page).
#[test]
fn both_migration_sets_create_the_same_tables_and_columns() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("schema.sqlite");
    drop(SqliteStore::open(&path).unwrap());
    let conn = rusqlite::Connection::open(&path).unwrap();
    let mut sqlite: Vec<String> = conn
        .prepare(
            "SELECT m.name || '.' || p.name FROM sqlite_master m, pragma_table_info(m.name) p
             WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' AND m.name NOT LIKE 'notes_fts%'
               AND m.name <> 'event_seq_floor' AND NOT (m.name = 'events' AND p.name IN ('rng', 'mark'))",
        )
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    sqlite.sort();
    assert!(sqlite.contains(&"campaigns.rng_state".to_string()));
    let Some(url) = pg_env::fresh_database("conf_schema") else {
        return;
    };
    drop(PgStore::open(&url).unwrap());
    let mut pg: Vec<String> = pg_env::rows(
        &url,
        "SELECT table_name || '.' || column_name FROM information_schema.columns
         WHERE table_schema = 'public' AND table_name <> 'tabletop_schema'
           AND NOT (table_name = 'notes' AND column_name IN ('fts', 'fts_tokens'))",
    )
    .into_iter()
    .map(|r| r[0].clone())
    .collect();
    pg.sort();
    assert_eq!(
        pg, sqlite,
        "the PostgreSQL migrations are out of step with the SQLite ones"
    );
}
