//! Compendium use cases against the real SRD (see `common::srd_env`): look-ups with
//! provenance, filtered search, and characters made from stat blocks that survive a restart.

use super::common;

use tabletop_engine::compendium::CompendiumSource;
use tabletop_engine::creation::{CreateMode, CreateRequest, create_character};
use tabletop_engine::lookup::{EntryOutcome, get_compendium_entry, search_compendium};
use tabletop_engine::{Engine, EngineOptions, SqliteStore};
use tabletop_rules::abilities::ProficiencyLevel;
use tabletop_rules::{CharacterType, DamageType, Skill};
use tabletop_srd::{Entry, EntryKind, SearchFilters, SearchQuery};

fn engine(path: &std::path::Path, src: CompendiumSource) -> Engine<SqliteStore> {
    Engine::open(
        SqliteStore::open(path).unwrap(),
        "c",
        EngineOptions {
            seed: Some(1),
            compendium: src,
        },
    )
    .unwrap()
}

#[test]
fn goblin_from_monster_keeps_its_stat_block_across_a_restart() {
    let Some(srd) = common::srd("goblin_from_monster") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.sqlite");
    let mut e = engine(&db, CompendiumSource::ready(srd.clone()));
    let out = e
        .write("create_character", &serde_json::json!({}), |call| {
            create_character(
                call,
                CreateRequest {
                    from_monster: Some("Goblin".into()),
                    ..Default::default()
                },
            )
        })
        .unwrap();
    assert!(out.stored);
    let id = out.character.id.clone();
    drop(e);
    let mut e = engine(&db, CompendiumSource::none());
    let c = e
        .read(|call| {
            tabletop_engine::character::resolve(
                call,
                tabletop_engine::character::CharacterRef::new(Some(&id), None),
            )
        })
        .unwrap();
    assert_eq!(c.kind, CharacterType::Enemy);
    assert_eq!((c.armor_class, c.max_hp, c.hp), (15, 7, 7));
    assert_eq!((c.hit_dice, c.hit_die), (2, 6));
    assert_eq!(
        c.skills.get(&Skill::Stealth),
        Some(&ProficiencyLevel::Expertise)
    );
    let block = c.stat_block.as_ref().unwrap();
    assert_eq!(block.challenge_rating, 0.25);
    let scimitar = &block.actions[0];
    assert_eq!(scimitar.name, "Scimitar");
    assert_eq!(scimitar.attack_bonus, Some(4));
    assert_eq!(scimitar.damage[0].dice, "1d6+2");
    assert_eq!(scimitar.damage[0].damage_type, Some(DamageType::Slashing));
    assert_eq!(scimitar.summary(), "Scimitar +4, 1d6+2 slashing");
    assert_eq!(c.effective().skills[&Skill::Stealth].bonus, 6);
}

#[test]
fn previews_store_nothing_and_monsters_keep_their_defenses() {
    let Some(srd) = common::srd("monster_defenses") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir.path().join("t.sqlite"), CompendiumSource::ready(srd));
    let out = e
        .write("create_character", &serde_json::json!({}), |call| {
            create_character(
                call,
                CreateRequest {
                    from_monster: Some("lich".into()),
                    mode: CreateMode::Preview,
                    ..Default::default()
                },
            )
        })
        .unwrap();
    assert!(!out.stored);
    let c = &out.character;
    assert!(c.immunities.contains(&DamageType::Poison));
    assert!(!c.condition_immunities.is_empty());
    let block = c.stat_block.as_ref().unwrap();
    assert!(!block.legendary_actions.is_empty());
    assert!(!block.qualified_defenses.is_empty(), "{block:?}");
    assert!(c.spellcasting_ability.is_some() && !c.spells.is_empty());
}

#[test]
fn lookups_and_searches_carry_provenance() {
    let Some(srd) = common::srd("lookups") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir.path().join("t.sqlite"), CompendiumSource::ready(srd));
    e.read(|call| {
        match get_compendium_entry(call, None, "firebal")? {
            EntryOutcome::Found {
                entry: Entry::Spell(s),
                exact,
                provenance,
            } => {
                assert_eq!(s.name, "Fireball");
                assert!(!exact);
                assert_eq!(
                    (provenance.document, provenance.license),
                    ("srd-5.1", "CC-BY-4.0")
                );
            }
            other => panic!("{other:?}"),
        }
        let out = search_compendium(
            call,
            &SearchQuery {
                kind: Some(EntryKind::Spell),
                filters: SearchFilters {
                    class: Some("wizard".into()),
                    level: Some(3),
                    ..Default::default()
                },
                ..Default::default()
            },
        )?;
        assert!(out.page.hits.iter().any(|h| h.name == "Fireball"));
        assert_eq!(out.provenance.document, "srd-5.1");
        let e = search_compendium(
            call,
            &SearchQuery {
                kind: Some(EntryKind::Monster),
                filters: SearchFilters {
                    school: Some("evocation".into()),
                    ..Default::default()
                },
                ..Default::default()
            },
        )
        .unwrap_err();
        assert!(e.to_string().starts_with("school: "), "{e}");
        Ok(())
    })
    .unwrap();
}

#[test]
fn without_the_srd_lookups_explain_how_to_install_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir.path().join("t.sqlite"), CompendiumSource::none());
    let err = e
        .read(|call| get_compendium_entry(call, None, "fireball").map(|_| ()))
        .unwrap_err()
        .to_string();
    assert!(err.contains("tabletop srd install --from DIR"), "{err}");
    let err = e
        .write("create_character", &serde_json::json!({}), |call| {
            create_character(
                call,
                CreateRequest {
                    from_monster: Some("goblin".into()),
                    ..Default::default()
                },
            )
        })
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("srd install") && err.contains("custom build"),
        "{err}"
    );
}
