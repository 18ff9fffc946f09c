//! Potions through manage_inventory `use` with the SRD configured (skipped without
//! TABLETOP_SRD_DIR) and pinned seeds: each one's effect on the derived sheet for its duration,
//! ended by the world clock — Giant Strength sets STR, Speed doubles speed and adds AC, Heroism
//! gives temporary HP and Bless's d4, Invisibility makes the drinker invisible until it attacks,
//! Growth lasts a rolled 1d4 hours, Poison deals 3d6 and poisons on a failed save.

use super::common;

use std::sync::Arc;

use tabletop_engine::character::{Character, CharacterRef};
use tabletop_engine::clock::{TimeRequest, advance_time};
use tabletop_engine::combat::actions::{ActionRequest, ActionType, Who, execute};
use tabletop_engine::combat::create::{
    CreateEncounter, ParticipantSource, ParticipantSpec, create_encounter,
};
use tabletop_engine::compendium::CompendiumSource;
use tabletop_engine::creation::{AbilityMethod, CreateMode, CreateRequest, create_character};
use tabletop_engine::effects::Duration;
use tabletop_engine::inventory::ops::{self, GiveRequest, InventoryOutcome, ItemRef};
use tabletop_engine::{Engine, EngineError, EngineOptions, SqliteStore};
use tabletop_grid::Position;
use tabletop_rules::{Ability, Condition};
use tabletop_srd::Compendium;

type E = Engine<SqliteStore>;

fn engine(dir: &tempfile::TempDir, srd: &Arc<Compendium>, seed: u64) -> E {
    Engine::open(
        SqliteStore::open(&dir.path().join("p.sqlite")).unwrap(),
        "c",
        EngineOptions {
            seed: Some(seed),
            compendium: CompendiumSource::ready(srd.clone()),
        },
    )
    .unwrap()
}

fn make(e: &mut E, name: &str) -> String {
    // STR DEX CON INT WIS CHA.
    let req = CreateRequest {
        name: name.into(),
        class: Some("fighter".into()),
        level: Some(3),
        method: AbilityMethod::Manual,
        scores: Some(
            Ability::ALL
                .iter()
                .copied()
                .zip([14, 12, 14, 10, 10, 10])
                .collect(),
        ),
        mode: CreateMode::Create,
        ..Default::default()
    };
    e.write("create_character", &serde_json::json!({}), |call| {
        create_character(call, req)
    })
    .unwrap()
    .character
    .id
}

fn who(n: &str) -> CharacterRef<'_> {
    CharacterRef::new(None, Some(n))
}

fn inv(
    e: &mut E,
    f: impl FnOnce(&mut tabletop_engine::Call<'_>) -> Result<InventoryOutcome, EngineError>,
) -> Result<InventoryOutcome, EngineError> {
    e.write("manage_inventory", &serde_json::json!({}), f)
}

fn give(e: &mut E, to: &str, item: &str) {
    inv(e, |call| {
        ops::give(
            call,
            who(to),
            GiveRequest {
                srd_name: Some(item.into()),
                ..Default::default()
            },
        )
    })
    .unwrap();
}

fn drink(e: &mut E, user: &str, item: &str) -> InventoryOutcome {
    inv(e, |call| {
        ops::use_item(
            call,
            who(user),
            ItemRef {
                id: None,
                name: Some(item),
            },
            None,
            None,
        )
    })
    .unwrap()
}

fn character(e: &mut E, name: &str) -> Character {
    e.read(|call| tabletop_engine::characters::resolve(call, who(name)))
        .unwrap()
}

fn pass(e: &mut E, minutes: u64) -> Vec<String> {
    e.write("advance_time", &serde_json::json!({}), |call| {
        advance_time(
            call,
            &TimeRequest {
                minutes,
                ..Default::default()
            },
        )
    })
    .unwrap()
    .expired
    .into_iter()
    .map(|x| x.ended)
    .collect()
}

#[test]
fn giant_strength_and_speed_change_the_sheet_until_the_clock_ends_them() {
    let Some(srd) = common::srd("potions_strength_speed") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 3);
    make(&mut e, "Ada");
    give(&mut e, "Ada", "Potion of Frost Giant Strength");
    give(&mut e, "Ada", "Potion of Speed");
    let base = character(&mut e, "Ada").effective();
    assert_eq!(base.score(Ability::Strength), 14);
    drink(&mut e, "Ada", "Potion of Frost Giant Strength");
    let out = drink(&mut e, "Ada", "Potion of Speed");
    assert_eq!(
        out.changes[0],
        "Ada gains Potion of Speed for 1 minute(s) (+2 AC, speed ×2, advantage on DEX saves)"
    );
    let c = character(&mut e, "Ada").effective();
    assert_eq!(
        c.score(Ability::Strength),
        23,
        "set to the frost giant's 23"
    );
    assert_eq!(c.armor_class.value, base.armor_class.value + 2);
    assert_eq!(c.speed.value, base.speed.value * 2);
    // A minute later Speed is over; Giant Strength lasts the hour.
    assert_eq!(pass(&mut e, 1), ["Potion of Speed"]);
    let c = character(&mut e, "Ada").effective();
    assert_eq!(
        (c.score(Ability::Strength), c.speed.value),
        (23, base.speed.value)
    );
    assert_eq!(pass(&mut e, 59), ["Potion of Frost Giant Strength"]);
    assert_eq!(
        character(&mut e, "Ada")
            .effective()
            .score(Ability::Strength),
        14
    );
}

#[test]
fn heroism_gives_ten_temporary_hp_and_growth_lasts_its_rolled_hours() {
    let Some(srd) = common::srd("potions_heroism_growth") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 3);
    make(&mut e, "Ada");
    give(&mut e, "Ada", "Potion of Heroism");
    give(&mut e, "Ada", "Potion of Growth");
    let out = drink(&mut e, "Ada", "Potion of Heroism");
    assert_eq!(
        out.changes,
        [
            "Ada gains Potion of Heroism for 1 hour(s) (+1d4 to attack rolls, +1d4 to saving throws)",
            "Ada has 10 temporary HP (was 0)",
            "Potion of Heroism used up (0 left)",
        ]
    );
    assert_eq!(character(&mut e, "Ada").temp_hp, 10);
    let out = drink(&mut e, "Ada", "Potion of Growth");
    assert_eq!(
        out.changes[1], "Potion of Growth lasts 1d4 = 4 hours",
        "seed 3"
    );
    let c = character(&mut e, "Ada");
    let growth = c
        .effects
        .iter()
        .find(|x| x.name == "Potion of Growth")
        .unwrap();
    assert_eq!(growth.duration, Duration::Rounds { remaining: 2400 });
    assert_eq!(
        out.changes,
        [
            "Ada gains Potion of Growth for 1 hour(s) (advantage on STR checks, advantage on STR saves)",
            "Potion of Growth lasts 1d4 = 4 hours",
            "Potion of Growth used up (0 left)",
            "effect: no automation for Potion of Growth: Enlarge's size Large and +1d4 weapon damage: the DM adds the 1d4 (execute_action bonus) and the size",
        ]
    );
    assert_eq!(pass(&mut e, 60), ["Potion of Heroism"]);
    assert!(pass(&mut e, 179).is_empty());
    assert_eq!(pass(&mut e, 1), ["Potion of Growth"]);
}

#[test]
fn poison_deals_its_damage_and_poisons_on_a_failed_save() {
    let Some(srd) = common::srd("potion_poison") else {
        return;
    };
    let dm = "effect: no automation for Potion of Poison: the 3d6 poison damage at the start of each turn while poisoned, and the repeated saves that shrink it, are the DM's";
    // Seed 1: 8 damage and a failed save (6 + 4 vs DC 13); seed 5: 8 damage, a save (19 + 4).
    for (seed, save, poisoned) in [
        (1u64, "d20 [6] + 4 = 10 vs DC 13 — fail", true),
        (5, "d20 [19] + 4 = 23 vs DC 13 — success", false),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let mut e = engine(&dir, &srd, seed);
        make(&mut e, "Ada");
        give(&mut e, "Ada", "Potion of Poison");
        let out = drink(&mut e, "Ada", "Potion of Poison");
        let outcome = if poisoned {
            "Ada is poisoned for 1 hour"
        } else {
            "Ada is not poisoned"
        };
        assert_eq!(
            out.changes,
            [
                "Potion of Poison deals 3d6 = 8 poison → Ada takes 8 (28 → 20 HP)",
                "Ada takes 8 (8 poison); 28 → 20 HP",
                &format!("Ada — Constitution save vs Potion of Poison: {save}"),
                outcome,
                "Potion of Poison used up (0 left)",
                dm,
            ]
        );
        let c = character(&mut e, "Ada");
        assert_eq!(c.hp, 20);
        assert_eq!(c.has_condition(Condition::Poisoned), poisoned);
        if poisoned {
            assert_eq!(pass(&mut e, 60), ["poisoned"]);
        }
    }
}

#[test]
fn invisibility_lasts_until_the_drinker_attacks() {
    let Some(srd) = common::srd("potion_invisibility") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 9);
    let ada = make(&mut e, "Ada");
    give(&mut e, "Ada", "Potion of Invisibility");
    give(&mut e, "Ada", "Potion of Invisibility");
    give(&mut e, "Ada", "Longsword");
    inv(&mut e, |call| {
        ops::equip(
            call,
            who("Ada"),
            ItemRef {
                id: None,
                name: Some("Longsword"),
            },
            None,
        )
    })
    .unwrap();
    // Outside a fight it lasts the hour.
    let out = drink(&mut e, "Ada", "Potion of Invisibility");
    assert_eq!(
        out.changes[0],
        "Ada is invisible for 1 hour or until it attacks or casts a spell"
    );
    assert!(character(&mut e, "Ada").has_condition(Condition::Invisible));
    assert_eq!(pass(&mut e, 60), ["invisible"]);
    drink(&mut e, "Ada", "Potion of Invisibility");
    let out = e
        .write("create_encounter", &serde_json::json!({}), |call| {
            create_encounter(
                call,
                CreateEncounter {
                    participants: vec![
                        ParticipantSpec {
                            source: ParticipantSource::Character {
                                id: Some(ada.clone()),
                                name: None,
                            },
                            side: None,
                            positions: vec![Position::new(0, 0)],
                            surprised: false,
                            initiative: Some(20),
                        },
                        ParticipantSpec {
                            source: ParticipantSource::Monster {
                                monster: "ogre".into(),
                                count: 1,
                                name: None,
                            },
                            side: None,
                            positions: vec![Position::new(1, 0)],
                            surprised: false,
                            initiative: Some(1),
                        },
                    ],
                    ..Default::default()
                },
            )
        })
        .unwrap();
    let ogre = out
        .encounter
        .order
        .iter()
        .find(|c| c.name == "Ogre")
        .unwrap()
        .character_id
        .clone();
    let req = ActionRequest {
        actor: Who {
            id: Some(ada.clone()),
            name: None,
        },
        action_type: Some(ActionType::Attack),
        target: Who {
            id: Some(ogre),
            name: None,
        },
        weapon: Some("Longsword".into()),
        ..Default::default()
    };
    let out = e
        .write("execute_action", &serde_json::json!({}), |call| {
            execute(call, &req)
        })
        .unwrap();
    assert_eq!(
        out.details["attacks"][0]["roll"]["advantage"],
        serde_json::json!(["invisible"]),
        "the attack itself has advantage: {}",
        out.details
    );
    assert_eq!(
        out.lines.last().unwrap(),
        "Ada is no longer invisible (Potion of Invisibility ends: it attacked or cast a spell)"
    );
    assert!(!character(&mut e, "Ada").has_condition(Condition::Invisible));
}

#[test]
fn a_potion_of_flying_gives_a_fly_speed_for_an_hour_and_a_manual_raises_a_score_for_good() {
    let Some(srd) = common::srd("potions_flying_manual") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 3);
    make(&mut e, "Ada");
    give(&mut e, "Ada", "Potion of Flying");
    give(&mut e, "Ada", "Manual of Bodily Health");
    let out = drink(&mut e, "Ada", "Potion of Flying");
    assert_eq!(
        out.changes[0],
        "Ada gains Potion of Flying for 1 hour(s) (fly speed equal to its walking speed)"
    );
    let speeds = |e: &mut E| {
        tabletop_engine::sheet::Sheet::of(character(e, "Ada"))
            .speeds
            .into_iter()
            .collect::<Vec<_>>()
    };
    assert_eq!(speeds(&mut e), vec![("fly".to_string(), 30)]);
    assert_eq!(pass(&mut e, 60), ["Potion of Flying"]);
    assert!(speeds(&mut e).is_empty());
    // The Manual: CON 14 → 16 for good, the book spent.
    let out = drink(&mut e, "Ada", "Manual of Bodily Health");
    assert_eq!(
        out.changes[..2],
        [
            "Ada gains Manual of Bodily Health for good (+2 CON)".to_string(),
            "Manual of Bodily Health used up (0 left)".to_string()
        ]
    );
    let c = character(&mut e, "Ada");
    assert_eq!(c.effective().score(Ability::Constitution), 16);
    assert_eq!(
        c.effects
            .iter()
            .find(|x| x.name == "Manual of Bodily Health")
            .unwrap()
            .duration,
        Duration::UntilDispelled
    );
    assert!(c.inventory.items.is_empty());
    pass(&mut e, 60 * 24 * 30);
    assert_eq!(
        character(&mut e, "Ada")
            .effective()
            .score(Ability::Constitution),
        16,
        "a month later"
    );
}

#[test]
fn a_horn_of_blasting_deals_thunder_halved_on_a_save_and_deafens_on_a_failure() {
    let Some(srd) = common::srd("horn_of_blasting") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 3);
    make(&mut e, "Ada");
    make(&mut e, "Bo");
    give(&mut e, "Ada", "Horn of Blasting");
    let hp = character(&mut e, "Bo").hp;
    let out = inv(&mut e, |call| {
        ops::use_item(
            call,
            who("Ada"),
            ItemRef {
                id: None,
                name: Some("Horn of Blasting"),
            },
            Some(who("Bo")),
            None,
        )
    })
    .unwrap();
    let bo = character(&mut e, "Bo");
    // Seed 3: Bo fails (d20 4 + CON 2 + proficiency 2 = 8 vs 15) and takes the full 5d6.
    assert_eq!(
        out.changes[..4],
        [
            "Bo — Constitution save vs Horn of Blasting: d20 [4] + 4 = 8 vs DC 15 — fail",
            "Horn of Blasting deals 5d6 = 18 thunder → Bo takes 18 (28 → 10 HP)",
            "Bo takes 18 (18 thunder); 28 → 10 HP",
            "Bo is deafened for 1 minute",
        ]
    );
    assert_eq!((hp, bo.hp), (28, 10));
    assert!(bo.has_condition(Condition::Deafened));
    assert!(out.changes[4].starts_with("effect: no automation for Horn of Blasting: "));
    // The horn has no charges: it is still there.
    assert_eq!(character(&mut e, "Ada").inventory.items.len(), 1);
}

#[test]
fn a_ring_of_regeneration_heals_1d6_every_ten_minutes_of_the_clock_above_0_hp() {
    let Some(srd) = common::srd("regeneration_pearl") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 3);
    make(&mut e, "Ada");
    give(&mut e, "Ada", "Ring of Regeneration");
    let ring = ItemRef {
        id: None,
        name: Some("Ring of Regeneration"),
    };
    inv(&mut e, |call| ops::equip(call, who("Ada"), ring, None)).unwrap();
    inv(&mut e, |call| {
        tabletop_engine::inventory::attune::attune(call, who("Ada"), ring)
    })
    .unwrap();
    let mut c = character(&mut e, "Ada");
    c.hp = 5;
    e.write("t", &serde_json::json!({}), |call| {
        tabletop_engine::combat::put_sheet(call, &c)
    })
    .unwrap();
    // Nine minutes: nothing; the tenth: 1d6.
    pass(&mut e, 9);
    assert_eq!(character(&mut e, "Ada").hp, 5);
    pass(&mut e, 1);
    assert_eq!(character(&mut e, "Ada").hp, 5 + 4, "seed 3: 1d6 = 4");
    // At 0 HP it does nothing.
    let mut c = character(&mut e, "Ada");
    c.hp = 0;
    e.write("t", &serde_json::json!({}), |call| {
        tabletop_engine::combat::put_sheet(call, &c)
    })
    .unwrap();
    pass(&mut e, 60);
    assert_eq!(character(&mut e, "Ada").hp, 0);
}
