//! Turns, death saves, ending and managing encounters, played through the engine with fixed
//! seeds: every assertion reads the stored sheets and encounter after the fact.

use super::common;

use tabletop_engine::character::{CharacterRef, StatAction};
use tabletop_engine::combat::actions::Who;
use tabletop_engine::combat::create::{
    CreateEncounter, HazardSpec, InlineStatBlock, ParticipantSource, ParticipantSpec, TerrainSpec,
    create_encounter,
};
use tabletop_engine::combat::death::roll_death_save;
use tabletop_engine::combat::end::{EndRequest, Outcome, end_encounter};
use tabletop_engine::combat::manage::{ManageOp, manage_encounter};
use tabletop_engine::combat::turn::{AdvanceRequest, TurnReport, advance_turn};
use tabletop_engine::combat::{self, Encounter, TimedTerrain};
use tabletop_engine::conditions::{ConditionOp, manage_condition};
use tabletop_engine::effects::DurationRequest;
use tabletop_engine::rest::{RestKind, take_rest};
use tabletop_engine::{Call, Engine, EngineError, SqliteStore};
use tabletop_grid::{Position, Terrain};
use tabletop_rules::damage::DeathSaveOutcome;
use tabletop_rules::{Ability, Condition, DamageType};

type E = Engine<SqliteStore>;

fn w<R>(e: &mut E, f: impl FnOnce(&mut Call<'_>) -> Result<R, EngineError>) -> R {
    e.write("test", &serde_json::json!({}), f)
        .expect("call succeeds")
}

fn try_w<R>(
    e: &mut E,
    f: impl FnOnce(&mut Call<'_>) -> Result<R, EngineError>,
) -> Result<R, EngineError> {
    e.write("test", &serde_json::json!({}), f)
}

fn engine(dir: &tempfile::TempDir, seed: u64) -> E {
    common::open(&dir.path().join("t.sqlite"), "main", Some(seed))
}

fn pc(e: &mut E, name: &str) -> String {
    common::create(e, common::fighter(name, [16, 12, 14, 10, 10, 8]))
}

fn character(name: &str, initiative: i32, at: (i32, i32)) -> ParticipantSpec {
    ParticipantSpec {
        source: ParticipantSource::Character {
            id: None,
            name: Some(name.into()),
        },
        side: None,
        positions: vec![Position::new(at.0, at.1)],
        surprised: false,
        initiative: Some(initiative),
    }
}

fn brute(name: &str, hp: u32, initiative: i32, at: (i32, i32)) -> ParticipantSpec {
    ParticipantSpec {
        source: ParticipantSource::Inline(Box::new(InlineStatBlock {
            name: name.into(),
            hp,
            ac: 12,
            cr: Some(1.0),
            resistances: vec![],
            stats: [(Ability::Dexterity, 10)].into_iter().collect(),
            ..Default::default()
        })),
        side: None,
        positions: vec![Position::new(at.0, at.1)],
        surprised: false,
        initiative: Some(initiative),
    }
}

fn start(
    e: &mut E,
    participants: Vec<ParticipantSpec>,
    terrain: TerrainSpec,
    auto_end: bool,
) -> Encounter {
    w(e, |call| {
        create_encounter(
            call,
            CreateEncounter {
                name: Some("Test fight".into()),
                participants,
                terrain,
                auto_end,
            },
        )
    })
    .encounter
}

fn enc(e: &mut E) -> Encounter {
    e.read(|call| combat::load(call, None)).unwrap()
}

fn edit_enc(e: &mut E, f: impl FnOnce(&mut Encounter)) {
    w(e, |call| {
        let mut x = combat::load(call, None)?;
        f(&mut x);
        combat::save(call, &x)
    })
}

fn edit_sheet(e: &mut E, id: &str, f: impl FnOnce(&mut tabletop_engine::character::Character)) {
    let id = id.to_string();
    w(e, move |call| {
        let mut c = combat::sheet(call, &id)?;
        f(&mut c);
        combat::put_sheet(call, &c)
    })
}

fn sheet(e: &mut E, id: &str) -> tabletop_engine::character::Character {
    e.read(|call| combat::sheet(call, id)).unwrap()
}

fn advance(e: &mut E) -> TurnReport {
    w(e, |call| advance_turn(call, &AdvanceRequest::default()))
}

fn id_of(x: &Encounter, name: &str) -> String {
    x.order
        .iter()
        .find(|c| c.name == name)
        .unwrap_or_else(|| panic!("{name} in the order"))
        .character_id
        .clone()
}

#[test]
fn order_wraps_into_new_rounds_skips_the_dead_and_resets_the_economy() {
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, 11);
    pc(&mut e, "Aria");
    let x = start(
        &mut e,
        vec![
            character("Aria", 15, (1, 1)),
            brute("Ogre A", 30, 20, (5, 5)),
            brute("Ogre B", 30, 10, (6, 6)),
        ],
        TerrainSpec::default(),
        false,
    );
    let names: Vec<&str> = x.order.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["Ogre A", "Aria", "Ogre B"]);
    assert_eq!((x.round, x.turn), (1, 0));
    // Aria spent her action and reaction in an earlier turn; her turn resets them.
    let aria = id_of(&x, "Aria");
    edit_enc(&mut e, |x| {
        let c = x.combatant_mut(&aria).unwrap();
        c.economy.action = true;
        c.economy.reaction = true;
        c.economy.movement_used_ft = 30;
        c.flags.dodging = true;
    });
    let r = advance(&mut e);
    assert_eq!(
        (r.current.as_deref(), r.round, r.new_round),
        (Some("Aria"), 1, false)
    );
    let x = enc(&mut e);
    let c = x.combatant(&aria).unwrap();
    assert!(!c.economy.action && !c.economy.reaction && c.economy.movement_used_ft == 0);
    assert!(!c.flags.dodging);
    let r = advance(&mut e);
    assert_eq!(r.current.as_deref(), Some("Ogre B"));
    let r = advance(&mut e);
    assert_eq!(
        (r.current.as_deref(), r.round, r.new_round),
        (Some("Ogre A"), 2, true)
    );
    // Ogre B dies: its turn is passed over.
    let ogre_b = id_of(&x, "Ogre B");
    edit_sheet(&mut e, &ogre_b, |c| {
        c.hp = 0;
        c.dead = true;
    });
    advance(&mut e);
    let r = advance(&mut e);
    assert_eq!((r.current.as_deref(), r.round), (Some("Ogre A"), 3));
    assert_eq!(r.skipped, ["Ogre B (dead)"]);
}

#[test]
fn save_ends_conditions_roll_at_the_end_of_the_bearers_turn() {
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, 5);
    pc(&mut e, "Aria");
    pc(&mut e, "Bram");
    start(
        &mut e,
        vec![
            character("Aria", 20, (1, 1)),
            character("Bram", 10, (1, 3)),
            brute("Ogre", 30, 5, (8, 8)),
        ],
        TerrainSpec::default(),
        false,
    );
    for (name, dc) in [("Aria", 1), ("Bram", 30)] {
        w(&mut e, |call| {
            manage_condition(
                call,
                CharacterRef::new(None, Some(name)),
                ConditionOp::Add {
                    condition: Condition::Restrained,
                    level: None,
                    source: Some("Web".into()),
                    duration: DurationRequest::SaveEnds {
                        dc,
                        ability: Ability::Strength,
                    },
                    caster: None,
                },
            )
        });
    }
    // Aria's turn ends: DC 1 always succeeds. Bram's save has not been rolled yet.
    let r = advance(&mut e);
    assert!(
        r.end_of_turn.iter().any(|l| l.contains("restrained ends")),
        "{:?}",
        r.end_of_turn
    );
    let aria = e
        .read(|c| tabletop_engine::character::resolve(c, CharacterRef::new(None, Some("Aria"))))
        .unwrap();
    let bram = e
        .read(|c| tabletop_engine::character::resolve(c, CharacterRef::new(None, Some("Bram"))))
        .unwrap();
    assert!(!aria.has_condition(Condition::Restrained));
    assert!(bram.has_condition(Condition::Restrained));
    // Bram's turn ends: DC 30 fails, the condition stays.
    let r = advance(&mut e);
    assert!(
        r.end_of_turn
            .iter()
            .any(|l| l.contains("Bram") && l.contains("DC 30")),
        "{:?}",
        r.end_of_turn
    );
    let bram = sheet(&mut e, &bram.id);
    assert!(bram.has_condition(Condition::Restrained));
}

#[test]
fn legendary_actions_refresh_and_recharges_roll_at_the_start_of_the_turn() {
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, 21);
    pc(&mut e, "Aria");
    let x = start(
        &mut e,
        vec![
            character("Aria", 20, (1, 1)),
            brute("Drake", 80, 10, (8, 8)),
        ],
        TerrainSpec::default(),
        false,
    );
    let drake = id_of(&x, "Drake");
    let action = |name: &str, desc: &str, recharge: Option<&str>| StatAction {
        name: name.into(),
        desc: desc.into(),
        attack_bonus: None,
        damage: vec![],
        dc: None,
        recharge: recharge.map(str::to_string),
        multiattack: vec![],
        alternatives: vec![],
    };
    edit_sheet(&mut e, &drake, |c| {
        let b = c.stat_block.as_mut().unwrap();
        b.legendary_actions.push(action(
            "Tail",
            "The drake can take 2 legendary actions.",
            None,
        ));
        b.actions
            .push(action("Fire Breath", "Exhales fire.", Some("Recharge 5–6")));
        b.actions.push(action("Roar", "Roars.", Some("1/Day")));
    });
    let mut seen = (false, false);
    for _ in 0..40 {
        edit_enc(&mut e, |x| {
            let c = x.combatant_mut(&drake).unwrap();
            c.legendary_actions = 0;
            c.spent_abilities = vec!["Fire Breath".into(), "Roar".into()];
        });
        let r = advance(&mut e);
        assert_eq!(r.current.as_deref(), Some("Drake"));
        let line = r
            .start_of_turn
            .iter()
            .find(|l| l.contains("Fire Breath"))
            .expect("the recharge is rolled");
        let d6: u32 = line
            .split("d6 ")
            .nth(1)
            .and_then(|s| s.split(';').next())
            .and_then(|s| s.parse().ok())
            .expect("the die is named");
        let x = enc(&mut e);
        let c = x.combatant(&drake).unwrap();
        assert_eq!(c.legendary_actions, 2, "refreshed from the stat block");
        assert_eq!(
            c.spent_abilities.contains(&"Fire Breath".to_string()),
            d6 < 5,
            "d6 {d6}"
        );
        assert!(
            c.spent_abilities.contains(&"Roar".to_string()),
            "1/Day does not recharge"
        );
        if d6 >= 5 {
            seen.0 = true
        } else {
            seen.1 = true
        }
        advance(&mut e);
    }
    assert!(seen.0 && seen.1, "both outcomes came up with this seed");
}

#[test]
fn hazards_hurt_at_the_start_of_the_turn_and_timed_terrain_expires() {
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, 3);
    pc(&mut e, "Aria");
    let x = start(
        &mut e,
        vec![character("Aria", 20, (1, 1)), brute("Ogre", 40, 10, (4, 4))],
        TerrainSpec {
            hazards: vec![HazardSpec {
                at: Position::new(4, 4),
                name: "burning oil".into(),
                damage: Some("2d6 fire".into()),
            }],
            ..Default::default()
        },
        false,
    );
    let ogre = id_of(&x, "Ogre");
    let web = Position::new(2, 2);
    edit_enc(&mut e, |x| {
        x.map.set_terrain(web, Terrain::Difficult).unwrap();
        x.timed_terrain.push(TimedTerrain {
            squares: vec![web],
            previous: vec![Terrain::Open],
            terrain: Terrain::Difficult,
            expires_round: 2,
            source: Some("Web".into()),
        });
    });
    let r = advance(&mut e);
    assert_eq!(r.current.as_deref(), Some("Ogre"));
    let after = sheet(&mut e, &ogre).hp;
    let taken = 40 - after;
    assert!((2..=12).contains(&taken), "2d6 fire: took {taken}");
    assert!(
        r.start_of_turn.iter().any(|l| l.contains("burning oil"))
            && r.start_of_turn
                .iter()
                .any(|l| l.contains(&format!("40 → {after}"))),
        "{:?}",
        r.start_of_turn
    );
    // Fire immunity: the next time, nothing.
    edit_sheet(&mut e, &ogre, |c| {
        c.immunities.insert(DamageType::Fire);
    });
    let r = advance(&mut e);
    assert!(r.new_round);
    assert!(
        r.round_start.iter().any(|l| l.starts_with("Web ends")),
        "{:?}",
        r.round_start
    );
    let x = enc(&mut e);
    assert_eq!(x.map.terrain(web).unwrap(), &Terrain::Open);
    assert!(x.timed_terrain.is_empty());
    advance(&mut e);
    assert_eq!(sheet(&mut e, &ogre).hp, after, "immune to fire");
}

#[test]
fn regeneration_heals_at_the_start_of_the_turn() {
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, 3);
    pc(&mut e, "Aria");
    let x = start(
        &mut e,
        vec![
            character("Aria", 20, (1, 1)),
            brute("Troll", 80, 10, (6, 6)),
        ],
        TerrainSpec::default(),
        false,
    );
    let troll = id_of(&x, "Troll");
    edit_sheet(&mut e, &troll, |c| {
        c.hp = 50;
        c.stat_block
            .as_mut()
            .unwrap()
            .special_abilities
            .push(StatAction {
                name: "Regeneration".into(),
                desc: "The troll regains 10 hit points at the start of its turn.".into(),
                attack_bonus: None,
                damage: vec![],
                dc: None,
                recharge: None,
                multiattack: vec![],
                alternatives: vec![],
            });
    });
    advance(&mut e);
    assert_eq!(sheet(&mut e, &troll).hp, 60);
}

#[test]
fn death_saves_count_and_settle() {
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, 99);
    let aria = pc(&mut e, "Aria");
    let down = |c: &mut tabletop_engine::character::Character| {
        c.hp = 0;
        c.dead = false;
        c.death_saves = Default::default();
        if !c.has_condition(Condition::Unconscious) {
            c.conditions
                .push(tabletop_engine::character::ConditionEntry {
                    by: None,
                    ends_on: None,
                    condition: Condition::Unconscious,
                    level: None,
                    source: "0 HP".into(),
                    duration: None,
                });
        }
    };
    // Above 0 HP: refused.
    let err = try_w(&mut e, |call| {
        roll_death_save(call, CharacterRef::new(Some(&aria), None), false)
    })
    .unwrap_err()
    .to_string();
    assert!(err.contains("only for a creature at 0 HP"), "{err}");
    let (mut nat1, mut nat20) = (false, false);
    for _ in 0..200 {
        edit_sheet(&mut e, &aria, down);
        let before = sheet(&mut e, &aria).death_saves;
        let out = w(&mut e, |call| {
            roll_death_save(call, CharacterRef::new(Some(&aria), None), false)
        });
        let after = sheet(&mut e, &aria);
        match out.result.roll {
            1 => {
                nat1 = true;
                assert_eq!(out.result.outcome, DeathSaveOutcome::TwoFailures);
                assert_eq!(after.death_saves.failures, before.failures + 2);
            }
            20 => {
                nat20 = true;
                assert_eq!(after.hp, 1);
                assert!(!after.has_condition(Condition::Unconscious), "wakes");
            }
            n if n >= 10 => assert_eq!(after.death_saves.successes, 1),
            _ => assert_eq!(after.death_saves.failures, 1),
        }
        if nat1 && nat20 {
            break;
        }
    }
    assert!(nat1 && nat20, "both naturals came up with this seed");
    // Two successes, then rolls until one more success: stable; or failures to 3: dead.
    let mut stable_seen = false;
    let mut dead_seen = false;
    for _ in 0..100 {
        edit_sheet(&mut e, &aria, |c| {
            down(c);
            c.death_saves.successes = 2;
            c.death_saves.failures = 2;
        });
        let out = w(&mut e, |call| {
            roll_death_save(call, CharacterRef::new(Some(&aria), None), false)
        });
        let after = sheet(&mut e, &aria);
        match out.result.roll {
            20 => assert_eq!(after.hp, 1),
            n if n >= 10 => {
                stable_seen = true;
                assert!(after.death_saves.stable && !after.dead);
                let err = try_w(&mut e, |call| {
                    roll_death_save(call, CharacterRef::new(Some(&aria), None), false)
                })
                .unwrap_err()
                .to_string();
                assert!(err.contains("stable"), "{err}");
            }
            _ => {
                dead_seen = true;
                assert!(after.dead, "third failure kills");
                let err = try_w(&mut e, |call| {
                    roll_death_save(call, CharacterRef::new(Some(&aria), None), false)
                })
                .unwrap_err()
                .to_string();
                assert!(err.contains("dead"), "{err}");
            }
        }
        if stable_seen && dead_seen {
            break;
        }
    }
    assert!(stable_seen && dead_seen);
}

#[test]
fn dying_characters_keep_their_turns_and_roll_on_their_own_turn() {
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, 8);
    let aria = pc(&mut e, "Aria");
    start(
        &mut e,
        vec![brute("Ogre", 30, 20, (6, 6)), character("Aria", 10, (1, 1))],
        TerrainSpec::default(),
        false,
    );
    edit_sheet(&mut e, &aria, |c| c.hp = 0);
    // Not her turn: refused unless forced.
    let err = try_w(&mut e, |call| {
        roll_death_save(call, CharacterRef::new(Some(&aria), None), false)
    })
    .unwrap_err()
    .to_string();
    assert!(err.contains("Ogre's turn"), "{err}");
    let r = advance(&mut e);
    assert_eq!(r.current.as_deref(), Some("Aria"));
    assert!(
        r.reminders.iter().any(|l| l.contains("roll_death_save")),
        "{:?}",
        r.reminders
    );
    w(&mut e, |call| {
        roll_death_save(call, CharacterRef::new(Some(&aria), None), false)
    });
    // With autoDeathSaves the roll happens as her turn starts.
    advance(&mut e);
    let before = sheet(&mut e, &aria).death_saves;
    let r = w(&mut e, |call| {
        advance_turn(
            call,
            &AdvanceRequest {
                encounter_id: None,
                auto_death_saves: true,
            },
        )
    });
    let ds = r.death_save.expect("rolled automatically");
    let after = sheet(&mut e, &aria);
    assert_eq!(ds.death_saves, after.death_saves);
    assert_ne!(before, after.death_saves);
}

#[test]
fn end_encounter_reports_the_diff_and_removes_created_creatures() {
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, 4);
    let aria = pc(&mut e, "Aria");
    let x = start(
        &mut e,
        vec![
            character("Aria", 20, (1, 1)),
            brute("Goblin Boss", 20, 10, (6, 6)),
        ],
        TerrainSpec::default(),
        false,
    );
    let boss = id_of(&x, "Goblin Boss");
    edit_sheet(&mut e, &aria, |c| {
        c.hp -= 5;
        c.conditions
            .push(tabletop_engine::character::ConditionEntry {
                by: None,
                ends_on: None,
                condition: Condition::Grappled,
                level: None,
                source: "Goblin Boss".into(),
                duration: None,
            });
        c.conditions
            .push(tabletop_engine::character::ConditionEntry {
                by: None,
                ends_on: None,
                condition: Condition::Poisoned,
                level: None,
                source: "bad stew".into(),
                duration: None,
            });
    });
    let max = sheet(&mut e, &aria).max_hp;
    edit_sheet(&mut e, &boss, |c| {
        c.hp = 0;
        c.dead = true;
    });
    // Dry run: reported, nothing changed.
    let dry = w(&mut e, |call| {
        end_encounter(
            call,
            &EndRequest {
                outcome: Some(Outcome::Victory),
                dry_run: true,
                ..Default::default()
            },
        )
    });
    assert!(dry.dry_run);
    assert!(enc(&mut e).is_active());
    assert!(sheet(&mut e, &aria).has_condition(Condition::Grappled));
    assert_eq!(dry.removed_created.len(), 1);
    let s = w(&mut e, |call| {
        end_encounter(
            call,
            &EndRequest {
                outcome: Some(Outcome::Victory),
                ..Default::default()
            },
        )
    });
    assert_eq!(s.outcome.as_deref(), Some("victory"));
    let d = &s.diffs[0];
    assert_eq!((d.hp.before, d.hp.after), (max, max - 5));
    assert!(d.conditions_gained.contains(&Condition::Poisoned));
    assert!(s.fallen.iter().any(|f| f == "Goblin Boss (dead)"));
    assert_eq!(s.damage_to_created.get("Goblin Boss"), Some(&20));
    let xp = s.xp.expect("victory earns XP");
    assert_eq!((xp.total, xp.per_member), (200, 200));
    assert!(s.cleared.iter().any(|l| l.contains("grappled")));
    let a = sheet(&mut e, &aria);
    assert!(
        !a.has_condition(Condition::Grappled),
        "grappled by a creature that is gone"
    );
    assert!(
        a.has_condition(Condition::Poisoned),
        "other conditions stay"
    );
    assert!(
        e.read(|call| combat::sheet(call, &boss)).is_err(),
        "created creature deleted"
    );
    let x = e
        .read(|call| combat::load(call, Some(&s.encounter_id)))
        .unwrap();
    assert!(!x.is_active());
    assert_eq!(x.outcome.as_deref(), Some("victory"));
    // A second end is refused; a rest is allowed now.
    assert!(try_w(&mut e, |call| end_encounter(call, &EndRequest::default())).is_err());
    w(&mut e, |call| {
        take_rest(
            call,
            CharacterRef::new(Some(&aria), None),
            RestKind::Short,
            0,
        )
    });
}

#[test]
fn rest_is_refused_during_the_fight_and_allowed_after() {
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, 4);
    let aria = pc(&mut e, "Aria");
    start(
        &mut e,
        vec![character("Aria", 20, (1, 1)), brute("Ogre", 20, 10, (6, 6))],
        TerrainSpec::default(),
        false,
    );
    let err = try_w(&mut e, |call| {
        take_rest(
            call,
            CharacterRef::new(Some(&aria), None),
            RestKind::Long,
            0,
        )
    })
    .unwrap_err()
    .to_string();
    assert!(err.contains("enc"), "{err}");
    w(&mut e, |call| {
        end_encounter(
            call,
            &EndRequest {
                outcome: Some(Outcome::Fled),
                keep_spawned: true,
                ..Default::default()
            },
        )
    });
    w(&mut e, |call| {
        take_rest(
            call,
            CharacterRef::new(Some(&aria), None),
            RestKind::Long,
            0,
        )
    });
}

#[test]
fn add_participant_keeps_the_current_turn_and_remove_takes_it_off_the_map() {
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, 6);
    pc(&mut e, "Aria");
    pc(&mut e, "Bram");
    start(
        &mut e,
        vec![
            character("Aria", 20, (1, 1)),
            brute("Ogre", 30, 10, (6, 6)),
            brute("Imp", 10, 5, (7, 7)),
        ],
        TerrainSpec::default(),
        false,
    );
    advance(&mut e);
    assert_eq!(enc(&mut e).current().unwrap().name, "Ogre");
    let out = w(&mut e, |call| {
        manage_encounter(
            call,
            None,
            ManageOp::AddParticipant(Box::new(character("Bram", 25, (1, 2)))),
        )
    });
    assert_eq!(out.added.len(), 1);
    let x = enc(&mut e);
    assert_eq!(x.current().unwrap().name, "Ogre", "still the Ogre's turn");
    assert_eq!(x.order[0].name, "Bram");
    assert!(x.snapshots.contains_key(&x.order[0].character_id));
    assert!(x.position_of(&x.order[0].character_id).is_some());
    // The Imp leaves: off the map, skipped.
    let out = w(&mut e, |call| {
        manage_encounter(
            call,
            None,
            ManageOp::RemoveParticipant(Who {
                id: None,
                name: Some("Imp".into()),
            }),
        )
    });
    assert!(out.headline.contains("Imp leaves"));
    let x = enc(&mut e);
    let imp = id_of(&x, "Imp");
    assert!(x.combatant(&imp).unwrap().removed);
    assert!(x.position_of(&imp).is_none());
    let r = advance(&mut e);
    assert_eq!((r.current.as_deref(), r.round), (Some("Bram"), 2));
    // list and commit.
    let out = w(&mut e, |call| manage_encounter(call, None, ManageOp::List));
    assert_eq!(out.encounters[0].combatants, 3);
    let out = w(&mut e, |call| {
        manage_encounter(call, None, ManageOp::Commit)
    });
    assert_eq!(out.diffs.len(), 2);
    assert!(enc(&mut e).is_active(), "commit ends nothing");
}

#[test]
fn auto_end_closes_the_fight_when_a_side_is_down() {
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, 6);
    pc(&mut e, "Aria");
    let x = start(
        &mut e,
        vec![character("Aria", 20, (1, 1)), brute("Ogre", 30, 10, (6, 6))],
        TerrainSpec::default(),
        true,
    );
    let ogre = id_of(&x, "Ogre");
    advance(&mut e);
    edit_sheet(&mut e, &ogre, |c| {
        c.hp = 0;
        c.dead = true;
    });
    let r = advance(&mut e);
    let s = r.encounter_ended.expect("ended by itself");
    assert_eq!(s.outcome.as_deref(), Some("victory"));
    let x = e.read(|call| combat::load(call, Some(&x.id))).unwrap();
    assert!(!x.is_active());
}

#[test]
fn deleting_a_character_takes_it_out_of_the_fight() {
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, 6);
    let bram = pc(&mut e, "Bram");
    pc(&mut e, "Aria");
    start(
        &mut e,
        vec![
            character("Aria", 20, (1, 1)),
            character("Bram", 15, (1, 3)),
            brute("Ogre", 30, 10, (6, 6)),
        ],
        TerrainSpec::default(),
        false,
    );
    let d = w(&mut e, |call| {
        tabletop_engine::character::delete_character(call, CharacterRef::new(Some(&bram), None))
    });
    assert!(
        d.cascaded.iter().any(|c| c.contains("encounter")),
        "{:?}",
        d.cascaded
    );
    let x = enc(&mut e);
    assert!(x.combatant(&bram).unwrap().removed);
    assert!(x.position_of(&bram).is_none());
    let r = advance(&mut e);
    assert_eq!(r.current.as_deref(), Some("Ogre"));
    // The session context shows the fight.
    let ctx = w(&mut e, |call| {
        tabletop_engine::session::session_context(call, &Default::default())
    });
    let enc_ctx = ctx.encounter.expect("encounter section");
    assert!(enc_ctx.active);
    assert_eq!(enc_ctx.turn.as_deref(), Some("Ogre"));
    assert!(
        enc_ctx
            .combatants
            .iter()
            .any(|l| l.starts_with("Ogre 30/30 HP")),
        "{:?}",
        enc_ctx.combatants
    );
}
