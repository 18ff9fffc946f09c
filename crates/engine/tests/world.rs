//! The world on a real SQLite file: places, parties, travel and notes survive a restart, notes are
//! found by a word in the middle of a sentence, campaigns do not see each other's world, and
//! deleting a character takes it out of its party.

use super::common;

use serde_json::json;
use tabletop_engine::character::{CharacterRef, delete_character};
use tabletop_engine::notes::{
    self, Importance, NoteDraft, NoteFilter, NoteType, Visibility, filter_of,
};
use tabletop_engine::party::{self, PartyDraft, PartyPatch, PartyRef, PartyRole};
use tabletop_engine::session::{ContextRequest, Detail, session_context};
use tabletop_engine::travel::{self, MoveRequest, Unlock};
use tabletop_engine::world::{self, ConnectionType, LinkSpec, LocationPatch, LocationRef};
use tabletop_engine::{Engine, EngineError, SqliteStore};

type E = Engine<SqliteStore>;

fn place(e: &mut E, name: &str) -> String {
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

fn link(e: &mut E, from: &str, to: &str, spec: LinkSpec) -> String {
    e.write("manage_location", &json!({}), |call| {
        world::link(
            call,
            LocationRef::either(from),
            LocationRef::either(to),
            spec,
        )
    })
    .unwrap()
    .connection
    .id
}

fn note(e: &mut E, content: &str, kind: NoteType, importance: Importance, tags: &[&str]) -> String {
    e.write("manage_notes", &json!({}), |call| {
        notes::add_note(
            call,
            NoteDraft {
                content: Some(content.into()),
                kind: Some(kind),
                tags: Some(tags.iter().map(|t| t.to_string()).collect()),
                importance: Some(importance),
                visibility: Some(Visibility::Dm),
            },
        )
    })
    .unwrap()
    .id
}

/// A party "Company" of Brom (leader) and Ilse at the Gate, which leads to a locked Vault
/// (key: Iron Key) and, hidden, to a Crypt.
fn world(e: &mut E) {
    common::create(e, common::fighter("Brom", [16, 12, 14, 8, 10, 10]));
    common::create(e, common::fighter("Ilse", [10, 16, 12, 10, 14, 8]));
    place(e, "Gate");
    place(e, "Vault");
    place(e, "Crypt");
    link(
        e,
        "Gate",
        "Vault",
        LinkSpec {
            kind: Some(ConnectionType::Door),
            lock_dc: Some(18),
            key_item: Some("Iron Key".into()),
            ..Default::default()
        },
    );
    link(
        e,
        "Gate",
        "Crypt",
        LinkSpec {
            kind: Some(ConnectionType::Hidden),
            find_dc: Some(1),
            travel_minutes: Some(10),
            ..Default::default()
        },
    );
    e.write("manage_party", &json!({}), |call| {
        party::create_party(
            call,
            PartyDraft {
                name: "Company".into(),
                location: Some(LocationRef::either("gate")),
                member: Some((CharacterRef::new(None, Some("Brom")), PartyRole::Member)),
                ..Default::default()
            },
        )?;
        party::add_member(
            call,
            PartyRef::default(),
            CharacterRef::new(None, Some("Ilse")),
            PartyRole::Companion,
            false,
        )
    })
    .unwrap();
}

#[test]
fn the_world_survives_a_restart_and_the_context_is_identical() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.sqlite");
    let before = {
        let mut e = common::open(&db, "main", Some(9));
        world(&mut e);
        note(
            &mut e,
            "The lich sleeps beneath the chapel of dawn.",
            NoteType::PlotThread,
            Importance::Critical,
            &["lich"],
        );
        note(
            &mut e,
            "Ilse distrusts the ferryman.",
            NoteType::Npc,
            Importance::Low,
            &[],
        );
        // The hidden crypt must be found first; then the party walks there.
        let err = e
            .write("move_party", &json!({}), |call| {
                travel::move_party(
                    call,
                    PartyRef::default(),
                    MoveRequest {
                        to: Some(LocationRef::either("Crypt")),
                        ..Default::default()
                    },
                )
            })
            .unwrap_err();
        assert!(err.to_string().contains("search first"), "{err}");
        let found = e
            .write("move_party", &json!({}), |call| {
                travel::search(
                    call,
                    PartyRef::default(),
                    None,
                    tabletop_rules::Skill::Perception,
                )
            })
            .unwrap();
        assert_eq!(found.found.len(), 1, "DC 1 is found by any roll: {found:?}");
        let moved = e
            .write("move_party", &json!({}), |call| {
                travel::move_party(
                    call,
                    PartyRef::default(),
                    MoveRequest {
                        to: Some(LocationRef::either("crypt")),
                        ..Default::default()
                    },
                )
            })
            .unwrap();
        assert!(moved.moved);
        assert_eq!(moved.travel.as_ref().unwrap().minutes, 10);
        e.read(|call| {
            session_context(
                call,
                &ContextRequest {
                    detail: Detail::Detailed,
                    ..Default::default()
                },
            )
        })
        .unwrap()
    };
    let mut e = common::open(&db, "main", None);
    let after = e
        .read(|call| {
            session_context(
                call,
                &ContextRequest {
                    detail: Detail::Detailed,
                    ..Default::default()
                },
            )
        })
        .unwrap();
    assert_eq!(before, after);
    let party = after.party.as_ref().unwrap();
    assert_eq!(party.members.len(), 2);
    assert_eq!(party.leader.as_deref(), Some("Brom"));
    assert_eq!(party.elapsed_minutes, 10);
    assert_eq!(after.location.as_ref().unwrap().name, "Crypt");
    let notes = after.notes.as_ref().unwrap();
    assert_eq!(notes.important.len(), 1);
    assert!(notes.important[0].content.contains("lich"));
    assert_eq!(notes.recent.len(), 1);
    assert!(!after.encounter.as_ref().unwrap().active);
    let history = e
        .read(|call| travel::history(call, PartyRef::default(), 10))
        .unwrap();
    assert_eq!(history.entries.len(), 1);
    assert_eq!(history.entries[0].to_name, "Crypt");
}

#[test]
fn a_locked_door_opens_by_key_or_check_and_not_otherwise() {
    let dir = tempfile::tempdir().unwrap();
    let mut e = common::open(&dir.path().join("t.sqlite"), "main", Some(3));
    world(&mut e);
    let go = |e: &mut E, unlock: Option<Unlock>| {
        e.write("move_party", &json!({}), |call| {
            travel::move_party(
                call,
                PartyRef::default(),
                MoveRequest {
                    to: Some(LocationRef::either("Vault")),
                    unlock,
                    ..Default::default()
                },
            )
        })
    };
    let err = go(&mut e, None).unwrap_err().to_string();
    assert!(
        err.contains("locked") && err.contains("pick") && err.contains("Iron Key"),
        "{err}"
    );
    let err = go(&mut e, Some(Unlock::Key)).unwrap_err().to_string();
    assert!(err.contains("carries 'Iron Key'"), "{err}");
    let err = go(&mut e, Some(Unlock::Pick)).unwrap_err().to_string();
    assert!(err.contains("thieves' tools"), "{err}");
    // Breaking: a STR (Athletics) check against DC 18, recorded whether it works or not.
    let tried = go(&mut e, Some(Unlock::Break)).unwrap();
    assert!(tried.check.is_some());
    if !tried.moved {
        // The key, once carried, opens it.
        e.write("update_character", &json!({}), |call| {
            tabletop_engine::update::update_character(
                call,
                CharacterRef::new(None, Some("Ilse")),
                tabletop_engine::update::UpdateRequest {
                    patch: tabletop_engine::update::CharacterPatch {
                        equipment: Some(vec!["rusty iron key".into()]),
                        ..Default::default()
                    },
                    ..Default::default()
                },
            )
        })
        .unwrap();
        let moved = go(&mut e, None).unwrap();
        assert!(moved.moved);
        assert!(
            moved.summary.contains("Ilse's Iron Key"),
            "{}",
            moved.summary
        );
    }
    let st = e
        .read(|call| travel::status(call, PartyRef::default()))
        .unwrap();
    assert_eq!(st.location.unwrap().name, "Vault");
    // The door stays unlocked.
    let back = e
        .write("move_party", &json!({}), |call| {
            travel::move_party(
                call,
                PartyRef::default(),
                MoveRequest {
                    to: Some(LocationRef::either("Gate")),
                    ..Default::default()
                },
            )
        })
        .unwrap();
    assert!(back.moved);
}

#[test]
fn notes_are_found_by_a_word_in_the_middle_of_a_sentence() {
    let dir = tempfile::tempdir().unwrap();
    let mut e = common::open(&dir.path().join("t.sqlite"), "main", None);
    let a = note(
        &mut e,
        "The baron secretly funds the smugglers of Saltmarsh harbour.",
        NoteType::Clue,
        Importance::High,
        &["baron", "saltmarsh"],
    );
    let b = note(
        &mut e,
        "Smugglers were seen at the lighthouse.",
        NoteType::Clue,
        Importance::Low,
        &[],
    );
    note(
        &mut e,
        "Session 3: the party rested.",
        NoteType::SessionLog,
        Importance::Low,
        &[],
    );
    let found = e
        .read(|call| notes::search_notes(call, Some("funds"), &NoteFilter::default(), 10))
        .unwrap();
    assert_eq!(found.notes.len(), 1);
    assert_eq!(found.notes[0].note.id, a);
    // A prefix of a word, any case.
    let found = e
        .read(|call| notes::search_notes(call, Some("SMUGGLER"), &NoteFilter::default(), 10))
        .unwrap();
    assert_eq!(found.notes.len(), 2);
    // Filters narrow: tags and importance.
    let f = filter_of(None, Some(Importance::High), vec![], None).unwrap();
    let found = e
        .read(|call| notes::search_notes(call, Some("smugglers"), &f, 10))
        .unwrap();
    assert_eq!(found.notes.len(), 1);
    let f = filter_of(None, None, vec!["Saltmarsh".into()], None).unwrap();
    let found = e
        .read(|call| notes::search_notes(call, Some("smugglers"), &f, 10))
        .unwrap();
    assert_eq!(found.notes[0].note.id, a);
    // Updates reach the index; deletes leave it.
    e.write("manage_notes", &json!({}), |call| {
        notes::update_note(
            call,
            &b,
            NoteDraft {
                content: Some("A lantern burns in the abandoned lighthouse.".into()),
                ..Default::default()
            },
        )
    })
    .unwrap();
    let found = e
        .read(|call| notes::search_notes(call, Some("lantern"), &NoteFilter::default(), 10))
        .unwrap();
    assert_eq!(found.notes.len(), 1);
    e.write("manage_notes", &json!({}), |call| {
        notes::delete_note(call, &b)
    })
    .unwrap();
    let found = e
        .read(|call| notes::search_notes(call, Some("lantern"), &NoteFilter::default(), 10))
        .unwrap();
    assert!(found.notes.is_empty());
    // Words no note holds together fall back to any word.
    let found = e
        .read(|call| notes::search_notes(call, Some("baron rested"), &NoteFilter::default(), 10))
        .unwrap();
    assert!(found.any_word && found.notes.len() == 2, "{found:?}");
    // Operators are plain words.
    e.read(|call| notes::search_notes(call, Some("\"NEAR( AND*"), &NoteFilter::default(), 10))
        .unwrap();
    // Recent first.
    let page = e
        .read(|call| notes::list_notes(call, &NoteFilter::default(), 1, 10))
        .unwrap();
    assert!(page.notes[0].content.starts_with("Session 3"));
}

#[test]
fn campaigns_do_not_see_each_others_world() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.sqlite");
    {
        let mut a = common::open(&db, "a", None);
        world(&mut a);
        note(
            &mut a,
            "Only campaign a knows the password swordfish.",
            NoteType::Clue,
            Importance::High,
            &[],
        );
    }
    let mut b = common::open(&db, "b", None);
    let err = b
        .read(|call| world::get_location(call, LocationRef::either("Gate")))
        .unwrap_err();
    assert!(err.to_string().contains("no locations yet"), "{err}");
    let found = b
        .read(|call| notes::search_notes(call, Some("swordfish"), &NoteFilter::default(), 10))
        .unwrap();
    assert!(found.notes.is_empty());
    assert!(b.read(party::list_parties).unwrap().is_empty());
    // The same ids are free in b.
    let id = place(&mut b, "Gate");
    assert_eq!(id, "loc1");
}

#[test]
fn one_party_per_character_and_deletion_cascades() {
    let dir = tempfile::tempdir().unwrap();
    let mut e = common::open(&dir.path().join("t.sqlite"), "main", None);
    world(&mut e);
    let err = e
        .write("manage_party", &json!({}), |call| {
            party::create_party(
                call,
                PartyDraft {
                    name: "Rivals".into(),
                    member: Some((CharacterRef::new(None, Some("Ilse")), PartyRole::Member)),
                    ..Default::default()
                },
            )
        })
        .unwrap_err();
    assert!(
        err.to_string().contains("already in party 'Company'")
            && err.to_string().contains("remove_member"),
        "{err}"
    );
    let gone = e
        .write("delete_character", &json!({}), |call| {
            delete_character(call, CharacterRef::new(None, Some("Brom")))
        })
        .unwrap();
    assert!(gone.cascaded[0].contains("Company"), "{:?}", gone.cascaded);
    let p = e
        .read(|call| party::get_party(call, PartyRef::default()))
        .unwrap();
    assert_eq!(p.members.len(), 1);
    assert_eq!(p.members[0].name, "Ilse");
    assert!(p.members[0].leader, "the lead passes on");
    // Deleting a place removes its connections and unplaces the party.
    let d = e
        .write("manage_location", &json!({}), |call| {
            world::delete_location(call, LocationRef::either("Gate"))
        })
        .unwrap();
    assert_eq!(d.removed_connections.len(), 2);
    assert_eq!(d.unplaced_parties.len(), 1);
    let v = e
        .read(|call| world::get_location(call, LocationRef::either("Vault")))
        .unwrap();
    assert!(v.exits.is_empty());
    // Unknown places get suggestions.
    let err = e
        .write("manage_party", &json!({}), |call| {
            party::update_party(
                call,
                PartyRef::default(),
                PartyPatch {
                    location: Some(LocationRef::either("Vaultt")),
                    ..Default::default()
                },
            )
        })
        .unwrap_err();
    assert!(matches!(err, EngineError::NotFound { .. }));
    assert!(err.to_string().contains("Vault (loc2)"), "{err}");
}

#[test]
fn export_and_import_carry_the_world() {
    use tabletop_engine::campaign;
    use tabletop_engine::session::Sections;
    use tabletop_engine::store::{Store, Transaction};
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.sqlite");
    let no_events = ContextRequest {
        sections: Sections {
            events: false,
            ..Default::default()
        },
        detail: Detail::Detailed,
        ..Default::default()
    };
    let before = {
        let mut e = common::open(&db, "saga", None);
        world(&mut e);
        note(
            &mut e,
            "The ferryman is the lich's spy.",
            NoteType::Clue,
            Importance::High,
            &["ferry"],
        );
        e.read(|call| session_context(call, &no_events)).unwrap()
    };
    {
        let mut store = SqliteStore::open(&db).unwrap();
        let exported = {
            let tx = store.begin(false).unwrap();
            campaign::export(&tx, "saga").unwrap()
        };
        assert_eq!(exported.locations.len(), 3);
        assert_eq!(exported.connections.len(), 2);
        assert_eq!(exported.parties[0].members.len(), 2);
        let mut tx = store.begin(true).unwrap();
        campaign::import(&mut tx, &exported, Some("copy")).unwrap();
        tx.commit().unwrap();
    }
    let mut c = common::open(&db, "copy", None);
    let after = c.read(|call| session_context(call, &no_events)).unwrap();
    assert_eq!(before, after);
    let found = c
        .read(|call| notes::search_notes(call, Some("spy"), &NoteFilter::default(), 10))
        .unwrap();
    assert_eq!(found.notes.len(), 1, "the copy's notes are indexed");
    // New ids do not collide with imported ones.
    assert_eq!(place(&mut c, "Annex"), "loc4");
}
