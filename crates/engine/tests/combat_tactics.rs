//! Tactics actions with real mechanics, scripted with fixed seeds: dodge, help, hide, search,
//! ready, objects and items, grapple and shove, special abilities, legendary and lair actions.
//! Outcomes that depend on dice are made certain with large situational bonuses, or checked
//! against the recorded rolls.

use super::common;

use serde_json::{Value, json};
use tabletop_engine::character::CharacterRef;
use tabletop_engine::character::{StatAction, StatDamage, StatDc};
use tabletop_engine::combat::actions::attack::{StrikeOptions, strike};
use tabletop_engine::combat::actions::{
    ActionCost, ActionOutcome, ActionRequest, ActionType, ShoveMode, Who, execute,
};
use tabletop_engine::combat::create::{
    CreateEncounter, InlineAttack, InlineStatBlock, ParticipantSource, ParticipantSpec,
    TerrainSpec, create_encounter,
};
use tabletop_engine::combat::{self, Encounter};
use tabletop_engine::inventory::ops::{GiveRequest, ItemDef, give};
use tabletop_engine::{Engine, EngineError, SqliteStore};
use tabletop_grid::{DoorState, Position, Prop};
use tabletop_rules::stats::RollMode;
use tabletop_rules::{Ability, Condition, DamageType, Size};

struct Fight {
    _dir: tempfile::TempDir,
    e: Engine<SqliteStore>,
    /// Thorn, the first fighter (initiative 20).
    thorn: String,
    /// Mira, the second fighter (initiative 15).
    mira: String,
    /// The goblin-like creature (initiative 10).
    gob: String,
}

fn p(x: i32, y: i32) -> Position {
    Position::new(x, y)
}

fn goblin(name: &str, size: Size) -> InlineStatBlock {
    InlineStatBlock {
        name: name.into(),
        hp: 30,
        ac: 12,
        size: Some(size),
        stats: [(Ability::Dexterity, 14)].into_iter().collect(),
        attacks: vec![InlineAttack {
            name: "Scimitar".into(),
            bonus: 4,
            damage: "1d6+2".into(),
            damage_type: Some(DamageType::Slashing),
            ..Default::default()
        }],
        ..Default::default()
    }
}

/// Thorn at (2,2), Mira at (2,3), the creature at (3,2); walls as given.
fn fight(seed: u64, size: Size, walls: Vec<Position>) -> Fight {
    let dir = tempfile::tempdir().unwrap();
    let mut e = common::open(&dir.path().join("t.sqlite"), "c", Some(seed));
    let thorn = common::create(&mut e, common::fighter("Thorn", [16, 12, 14, 10, 12, 8]));
    let mira = common::create(&mut e, common::fighter("Mira", [14, 14, 12, 10, 14, 10]));
    let created = e
        .write("create_encounter", &json!({}), |call| {
            create_encounter(
                call,
                CreateEncounter {
                    name: Some("Test".into()),
                    participants: vec![
                        ParticipantSpec {
                            source: ParticipantSource::Character {
                                id: Some(thorn.clone()),
                                name: None,
                            },
                            side: None,
                            positions: vec![p(2, 2)],
                            surprised: false,
                            initiative: Some(20),
                        },
                        ParticipantSpec {
                            source: ParticipantSource::Character {
                                id: Some(mira.clone()),
                                name: None,
                            },
                            side: None,
                            positions: vec![p(2, 3)],
                            surprised: false,
                            initiative: Some(15),
                        },
                        ParticipantSpec {
                            source: ParticipantSource::Inline(Box::new(goblin("Gob", size))),
                            side: None,
                            positions: vec![p(3, 2)],
                            surprised: false,
                            initiative: Some(10),
                        },
                    ],
                    terrain: TerrainSpec {
                        width: Some(12),
                        height: Some(12),
                        walls,
                        ..Default::default()
                    },
                    auto_end: false,
                },
            )
        })
        .unwrap();
    let gob = created
        .encounter
        .order
        .iter()
        .find(|c| c.name == "Gob")
        .unwrap()
        .character_id
        .clone();
    Fight {
        _dir: dir,
        e,
        thorn,
        mira,
        gob,
    }
}

fn who(id: &str) -> Who {
    Who {
        id: Some(id.into()),
        name: None,
    }
}

fn req(actor: &str, t: ActionType) -> ActionRequest {
    ActionRequest {
        actor: if actor.is_empty() {
            Who::default()
        } else {
            who(actor)
        },
        action_type: Some(t),
        ..Default::default()
    }
}

impl Fight {
    fn act(&mut self, r: ActionRequest) -> Result<ActionOutcome, EngineError> {
        self.e
            .write("execute_action", &json!({}), |call| execute(call, &r))
    }

    fn enc(&mut self) -> Encounter {
        self.e.read(|call| combat::load_active(call, None)).unwrap()
    }

    fn edit(&mut self, f: impl FnOnce(&mut Encounter)) {
        self.e
            .write("edit", &json!({}), |call| {
                let mut enc = combat::load_active(call, None)?;
                f(&mut enc);
                combat::save(call, &enc)
            })
            .unwrap();
    }

    fn sheet(&mut self, id: &str) -> tabletop_engine::character::Character {
        let id = id.to_string();
        self.e.read(|call| combat::sheet(call, &id)).unwrap()
    }

    fn edit_sheet(&mut self, id: &str, f: impl FnOnce(&mut tabletop_engine::character::Character)) {
        let id = id.to_string();
        self.e
            .write("edit", &json!({}), |call| {
                let mut c = combat::sheet(call, &id)?;
                f(&mut c);
                combat::put_sheet(call, &c)
            })
            .unwrap();
    }

    fn strike(
        &mut self,
        a: &str,
        t: &str,
    ) -> tabletop_engine::combat::actions::attack::StrikeResult {
        let (a, t) = (a.to_string(), t.to_string());
        self.e
            .write("strike", &json!({}), |call| {
                let mut enc = combat::load_active(call, None)?;
                let r = strike(call, &mut enc, &a, &t, None, &StrikeOptions::default())?;
                combat::save(call, &enc)?;
                Ok(r)
            })
            .unwrap()
    }
}

fn err_text(r: Result<ActionOutcome, EngineError>) -> String {
    match r {
        Ok(o) => panic!("expected a refusal, got: {}", o.headline),
        Err(e) => e.to_string(),
    }
}

#[test]
fn dodge_gives_attackers_disadvantage_and_dex_saves_advantage() {
    let mut f = fight(7, Size::Medium, vec![]);
    let out = f.act(req(&f.thorn.clone(), ActionType::Dodge)).unwrap();
    assert!(out.headline.contains("Dodge"), "{}", out.headline);
    assert!(f.enc().combatant(&f.thorn).unwrap().flags.dodging);
    let (gob, thorn) = (f.gob.clone(), f.thorn.clone());
    let r = f.strike(&gob, &thorn);
    assert_eq!(r.roll.mode, RollMode::Disadvantage, "{:?}", r.roll);
    assert_eq!(r.roll.rolls.len(), 2);
    assert_eq!(r.roll.kept, r.roll.rolls.iter().min().copied());
    let adv = f.e.read(|call| {
        let enc = combat::load_active(call, None)?;
        let c = combat::sheet(call, &thorn)?;
        Ok(
            tabletop_engine::combat::actions::tactics::dodging_dex_save_advantage(
                &enc,
                &thorn,
                &c,
                Ability::Dexterity,
            ),
        )
    });
    assert_eq!(adv.unwrap(), Some("dodging"));
    // A second action on the same turn is refused.
    let e = err_text(f.act(req(&f.thorn.clone(), ActionType::Dodge)));
    assert!(e.contains("already used its action"), "{e}");
}

#[test]
fn help_gives_the_ally_advantage_on_its_next_attack_and_is_used_up() {
    let mut f = fight(11, Size::Medium, vec![]);
    let (thorn, mira, gob) = (f.thorn.clone(), f.mira.clone(), f.gob.clone());
    let mut r = req(&thorn, ActionType::Help);
    r.target = who(&mira);
    r.targets = vec![who(&gob)];
    let out = f.act(r).unwrap();
    assert!(
        out.headline.contains("next attack against Gob"),
        "{}",
        out.headline
    );
    assert_eq!(
        f.enc().combatant(&mira).unwrap().flags.helped_against,
        vec![gob.clone()]
    );
    let s = f.strike(&mira, &gob);
    assert_eq!(s.roll.mode, RollMode::Advantage, "{:?}", s.roll);
    assert_eq!(s.roll.kept, s.roll.rolls.iter().max().copied());
    assert!(
        f.enc()
            .combatant(&mira)
            .unwrap()
            .flags
            .helped_against
            .is_empty()
    );
}

#[test]
fn help_refuses_a_foe_out_of_reach_and_helps_a_check_without_one() {
    let mut f = fight(12, Size::Medium, vec![]);
    let (thorn, mira, gob) = (f.thorn.clone(), f.mira.clone(), f.gob.clone());
    f.edit(|e| e.map.move_creature(&gob, p(9, 9)).unwrap());
    let mut r = req(&thorn, ActionType::Help);
    r.target = who(&mira);
    r.targets = vec![who(&gob)];
    let e = err_text(f.act(r.clone()));
    assert!(e.contains("within 5 ft"), "{e}");
    r.targets.clear();
    f.act(r).unwrap();
    assert!(f.enc().combatant(&mira).unwrap().flags.helped_check);
}

#[test]
fn hide_fails_in_plain_sight_and_works_behind_a_wall() {
    let mut f = fight(3, Size::Medium, vec![]);
    let thorn = f.thorn.clone();
    let e = err_text(f.act(req(&thorn, ActionType::Hide)));
    assert!(e.contains("cannot hide") && e.contains("Gob"), "{e}");
    // Forced: the DM overrides, and the answer says so.
    let mut r = req(&thorn, ActionType::Hide);
    r.force = true;
    let out = f.act(r).unwrap();
    assert!(!out.forced.is_empty());

    // Behind a wall: no line of sight from the goblin.
    let mut f = fight(3, Size::Medium, (0..12).map(|y| p(5, y)).collect());
    let (thorn, gob) = (f.thorn.clone(), f.gob.clone());
    f.edit(|e| e.map.move_creature(&gob, p(8, 2)).unwrap());
    let mut r = req(&thorn, ActionType::Hide);
    r.bonus = 40;
    let out = f.act(r).unwrap();
    assert!(out.headline.contains("hidden from Gob"), "{}", out.headline);
    let hidden = f.enc().combatant(&thorn).unwrap().flags.hidden;
    let total = out.details["roll"]["total"].as_i64().unwrap() as i32;
    assert_eq!(hidden, Some(total));
}

#[test]
fn search_reveals_a_hidden_goblin_and_a_hidden_trap() {
    let mut f = fight(5, Size::Medium, vec![]);
    let (thorn, gob) = (f.thorn.clone(), f.gob.clone());
    f.edit(|e| {
        e.combatant_mut(&gob).unwrap().flags.hidden = Some(12);
        let mut trap = Prop::new("pit", "pit trap", p(4, 4));
        trap.hidden_dc = Some(14);
        trap.trap = true;
        e.map.place_prop(trap).unwrap();
    });
    let mut r = req(&thorn, ActionType::Search);
    r.bonus = 40;
    let out = f.act(r).unwrap();
    assert!(
        out.headline.contains("Gob") && out.headline.contains("pit trap"),
        "{}",
        out.headline
    );
    let enc = f.enc();
    assert_eq!(enc.combatant(&gob).unwrap().flags.hidden, None);
    assert_eq!(enc.map.prop("pit").unwrap().hidden_dc, None);
}

#[test]
fn search_below_the_stealth_total_finds_nothing() {
    let mut f = fight(5, Size::Medium, vec![]);
    let (thorn, gob) = (f.thorn.clone(), f.gob.clone());
    f.edit(|e| e.combatant_mut(&gob).unwrap().flags.hidden = Some(60));
    let mut r = req(&thorn, ActionType::Search);
    r.ability = Some(Ability::Intelligence);
    let out = f.act(r).unwrap();
    assert!(
        out.headline.contains("Investigation") && out.headline.contains("nothing"),
        "{}",
        out.headline
    );
    assert_eq!(f.enc().combatant(&gob).unwrap().flags.hidden, Some(60));
}

#[test]
fn grapple_applies_grappled_speed_zero_and_the_grappled_can_escape() {
    let mut f = fight(9, Size::Medium, vec![]);
    let (thorn, gob) = (f.thorn.clone(), f.gob.clone());
    let mut r = req(&thorn, ActionType::Grapple);
    r.target = who(&gob);
    r.bonus = 40;
    let out = f.act(r).unwrap();
    assert!(out.headline.contains("grapples Gob"), "{}", out.headline);
    let g = f.sheet(&gob);
    let entry = g
        .conditions
        .iter()
        .find(|c| c.condition == Condition::Grappled)
        .unwrap();
    assert_eq!(
        tabletop_engine::combat::actions::tactics::contest::grappler_of(entry),
        Some(thorn.as_str())
    );
    assert_eq!(g.effective().speed.value, 0);
    // The grapple replaced the single attack of a level-1 fighter's Attack action.
    let eco = out.economy.unwrap();
    assert!(eco.action);
    assert_eq!(eco.attacks_left, 0);
    let mut again = req(&thorn, ActionType::Shove);
    again.target = who(&gob);
    assert!(err_text(f.act(again)).contains("already used its action"));
    // The goblin escapes (off-turn, forced), winning with a large bonus.
    let mut esc = req(&gob, ActionType::Grapple);
    esc.target = who(&thorn);
    esc.bonus = 40;
    esc.force = true;
    let out = f.act(esc).unwrap();
    assert!(out.headline.contains("escapes"), "{}", out.headline);
    assert!(!f.sheet(&gob).has_condition(Condition::Grappled));
}

#[test]
fn a_failed_grapple_changes_nothing_and_size_and_reach_are_enforced() {
    let mut f = fight(9, Size::Medium, vec![]);
    let (thorn, gob) = (f.thorn.clone(), f.gob.clone());
    let mut r = req(&thorn, ActionType::Grapple);
    r.target = who(&gob);
    r.bonus = -40;
    let out = f.act(r).unwrap();
    assert!(out.headline.contains("fails"), "{}", out.headline);
    assert!(!f.sheet(&gob).has_condition(Condition::Grappled));

    let mut f = fight(9, Size::Huge, vec![]);
    let (thorn, gob) = (f.thorn.clone(), f.gob.clone());
    let mut r = req(&thorn, ActionType::Grapple);
    r.target = who(&gob);
    let e = err_text(f.act(r));
    assert!(e.contains("too large"), "{e}");

    let mut f = fight(9, Size::Medium, vec![]);
    let (thorn, gob) = (f.thorn.clone(), f.gob.clone());
    f.edit(|e| e.map.move_creature(&gob, p(6, 2)).unwrap());
    let mut r = req(&thorn, ActionType::Shove);
    r.target = who(&gob);
    let e = err_text(f.act(r));
    assert!(e.contains("beyond") && e.contains("reach"), "{e}");
}

#[test]
fn shove_prone_gives_adjacent_attackers_advantage_and_push_moves_the_target() {
    let mut f = fight(21, Size::Medium, vec![]);
    let (thorn, mira, gob) = (f.thorn.clone(), f.mira.clone(), f.gob.clone());
    let mut r = req(&thorn, ActionType::Shove);
    r.target = who(&gob);
    r.bonus = 40;
    let out = f.act(r).unwrap();
    assert!(out.headline.contains("prone"), "{}", out.headline);
    assert!(f.sheet(&gob).has_condition(Condition::Prone));
    let s = f.strike(&mira, &gob);
    assert_eq!(s.roll.mode, RollMode::Advantage, "{:?}", s.roll);

    let mut f = fight(21, Size::Medium, vec![]);
    let (thorn, gob) = (f.thorn.clone(), f.gob.clone());
    let mut r = req(&thorn, ActionType::Shove);
    r.target = who(&gob);
    r.shove_mode = Some(ShoveMode::Push);
    r.bonus = 40;
    let out = f.act(r).unwrap();
    assert!(out.headline.contains("5 ft away"), "{}", out.headline);
    assert_eq!(f.enc().position_of(&gob), Some(p(4, 2)));
}

#[test]
fn shove_push_into_a_wall_says_so_and_leaves_the_target() {
    let mut f = fight(21, Size::Medium, vec![p(4, 2)]);
    let (thorn, gob) = (f.thorn.clone(), f.gob.clone());
    let mut r = req(&thorn, ActionType::Shove);
    r.target = who(&gob);
    r.shove_mode = Some(ShoveMode::Push);
    r.bonus = 40;
    let out = f.act(r).unwrap();
    assert!(
        out.headline.contains("cannot be pushed"),
        "{}",
        out.headline
    );
    assert_eq!(f.enc().position_of(&gob), Some(p(3, 2)));
}

fn fire_breath() -> StatAction {
    StatAction {
        name: "Fire Breath".into(),
        desc: "The creature exhales fire in a 15-foot cone. Each creature in that area must make a DC 13 Dexterity saving throw, taking 14 (4d6) fire damage on a failed save, or half as much damage on a successful one.".into(),
        attack_bonus: None,
        damage: vec![StatDamage {
            dice: "4d6".into(),
            damage_type: Some(DamageType::Fire),
        }],
        dc: Some(StatDc {
            ability: Ability::Dexterity,
            value: 13,
            success: "half".into(),
        }),
        recharge: Some("Recharge 5–6".into()),
        multiattack: vec![],
        alternatives: vec![],
    }
}

/// The dice faces of the first line starting with `lead` ("… [16] …").
fn faces_in(lines: &[String], lead: &str) -> Vec<i64> {
    let line = lines
        .iter()
        .find(|l| l.starts_with(lead))
        .unwrap_or_else(|| panic!("no line starting '{lead}' in {lines:?}"));
    // The first bracket that holds numbers ("[slashing]" is a damage tag).
    let start = line
        .match_indices('[')
        .map(|(i, _)| i + 1)
        .find(|i| line[*i..].starts_with(|c: char| c.is_ascii_digit()))
        .unwrap_or_else(|| panic!("no dice in '{line}'"));
    let inner = &line[start..start + line[start..].find(']').unwrap()];
    inner.split(", ").map(|f| f.parse().unwrap()).collect()
}

fn damage_of(details: &Value, id: &str) -> (bool, u64) {
    let targets = details["targets"].as_array().unwrap();
    let t = targets.iter().find(|t| t["id"] == id).unwrap();
    (
        t["failed"].as_bool().unwrap(),
        t["damage"].as_u64().unwrap_or(0),
    )
}

#[test]
fn fire_breath_saves_each_target_in_the_cone_and_is_refused_while_spent() {
    let mut f = fight(31, Size::Medium, vec![]);
    let (thorn, mira, gob) = (f.thorn.clone(), f.mira.clone(), f.gob.clone());
    f.edit_sheet(&gob, |c| {
        c.stat_block.as_mut().unwrap().actions.push(fire_breath())
    });
    // Thorn dodges first: its DEX save rolls with advantage.
    f.act(req(&thorn, ActionType::Dodge)).unwrap();
    let before = (f.sheet(&thorn).hp, f.sheet(&mira).hp);
    let mut r = req(&gob, ActionType::UseSpecialAbility);
    r.ability_name = Some("fire breath".into());
    r.direction = Some("west".into());
    r.force = true; // not Gob's turn
    let out = f.act(r.clone()).unwrap();
    assert!(out.headline.contains("Fire Breath"), "{}", out.headline);
    let rolled: u64 = out.details["damageRoll"]["total"].as_u64().unwrap();
    // West from (3,2): Thorn at (2,2) is in the cone; Mira at (2,3) is 45° off its axis, outside.
    let hit: Vec<&str> = out.details["targets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_str().unwrap())
        .collect();
    assert_eq!(hit, vec![thorn.as_str()], "{:?}", out.lines);
    assert_eq!(f.sheet(&mira).hp, before.1);
    let (failed, took) = damage_of(&out.details, &thorn);
    let expect = if failed { rolled } else { rolled / 2 };
    assert_eq!(took, expect, "{out:?}");
    assert_eq!(
        f.sheet(&thorn).hp as u64,
        (before.0 as u64).saturating_sub(took)
    );
    let thorn_save = out.details["targets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["id"] == thorn.as_str())
        .unwrap()["save"]
        .clone();
    assert_eq!(
        thorn_save["rolls"].as_array().unwrap().len(),
        2,
        "{thorn_save}"
    );
    assert!(thorn_save["advantage"].to_string().contains("dodging"));
    assert_eq!(
        f.enc().combatant(&gob).unwrap().spent_abilities,
        vec!["Fire Breath".to_string()]
    );
    // Spent: refused until it recharges, even for the DM without force.
    r.force = false;
    // A fresh action (its next turn), so only the recharge stands in the way.
    f.edit(|enc| {
        enc.order
            .iter_mut()
            .for_each(|c| c.economy = Default::default());
        enc.turn = enc.order.iter().position(|c| c.name == "Gob").unwrap();
    });
    let e = err_text(f.act(r));
    assert!(e.contains("spent until it recharges"), "{e}");
}

#[test]
fn per_day_abilities_are_counted() {
    let mut f = fight(32, Size::Medium, vec![]);
    let (thorn, gob) = (f.thorn.clone(), f.gob.clone());
    f.edit_sheet(&gob, |c| {
        let mut a = fire_breath();
        a.name = "Spit".into();
        a.desc = "One creature within 30 ft. must make a DC 10 Constitution saving throw or be poisoned for 1 minute.".into();
        a.damage.clear();
        a.dc = Some(StatDc { ability: Ability::Constitution, value: 10, success: "none".into() });
        a.recharge = Some("1/Day".into());
        c.stat_block.as_mut().unwrap().actions.push(a);
    });
    let mut r = req(&gob, ActionType::UseSpecialAbility);
    r.ability_name = Some("Spit".into());
    r.target = who(&thorn);
    r.force = true;
    let out = f.act(r.clone()).unwrap();
    let (failed, _) = damage_of(&out.details, &thorn);
    assert_eq!(f.sheet(&thorn).has_condition(Condition::Poisoned), failed);
    r.force = false;
    f.edit(|enc| {
        enc.order
            .iter_mut()
            .for_each(|c| c.economy = Default::default());
        enc.turn = enc.order.iter().position(|c| c.name == "Gob").unwrap();
    });
    let e = err_text(f.act(r));
    assert!(e.contains("1 of 1 times"), "{e}");
}

#[test]
fn unknown_ability_names_list_the_real_ones() {
    let mut f = fight(33, Size::Medium, vec![]);
    let gob = f.gob.clone();
    let mut r = req(&gob, ActionType::UseSpecialAbility);
    r.ability_name = Some("Laser Eyes".into());
    r.force = true;
    let e = err_text(f.act(r));
    assert!(e.contains("Scimitar"), "{e}");
}

#[test]
fn legendary_actions_cost_from_the_pool_and_refuse_at_zero() {
    let mut f = fight(41, Size::Medium, vec![]);
    let (thorn, gob) = (f.thorn.clone(), f.gob.clone());
    f.edit_sheet(&gob, |c| {
        let b = c.stat_block.as_mut().unwrap();
        b.legendary_actions = vec![
            StatAction {
                name: "Detect".into(),
                desc: "The creature makes a Wisdom (Perception) check.".into(),
                attack_bonus: None,
                damage: vec![],
                dc: None,
                recharge: None,
                multiattack: vec![],
                alternatives: vec![],
            },
            StatAction {
                name: "Slash Attack".into(),
                desc: "The creature makes a scimitar attack.".into(),
                attack_bonus: None,
                damage: vec![],
                dc: None,
                recharge: None,
                multiattack: vec![],
                alternatives: vec![],
            },
            StatAction {
                name: "Wing Attack (Costs 2 Actions)".into(),
                desc: "Each creature within 5 ft. of the creature must succeed on a DC 12 Dexterity saving throw or take 7 (2d6) bludgeoning damage and be knocked prone.".into(),
                attack_bonus: None,
                damage: vec![StatDamage { dice: "2d6".into(), damage_type: Some(DamageType::Bludgeoning) }],
                dc: Some(StatDc { ability: Ability::Dexterity, value: 12, success: "none".into() }),
                recharge: None,
                multiattack: vec![],
                alternatives: vec![],
            },
        ];
    });
    f.edit(|e| e.combatant_mut(&gob).unwrap().legendary_actions = 3);
    // Thorn's turn: legendary actions happen at the end of another creature's turn.
    let mut r = req(&gob, ActionType::LegendaryAction);
    r.ability_name = Some("Detect".into());
    let out = f.act(r.clone()).unwrap();
    assert!(out.headline.contains("Perception"), "{}", out.headline);
    assert_eq!(f.enc().combatant(&gob).unwrap().legendary_actions, 2);
    // An attack legendary action strikes through the attack core.
    let mut atk = req(&gob, ActionType::LegendaryAction);
    atk.ability_name = Some("Slash Attack".into());
    atk.target = who(&thorn);
    let out = f.act(atk).unwrap();
    // Scimitar +4 against Thorn's AC 11 (10 + DEX 12's +1); seed pinned: d20 16 hits, 1d6 + 2.
    let d20 = faces_in(&out.lines, "Gob attack with Scimitar: d20")[0];
    assert_eq!(d20, 16);
    assert!(d20 + 4 >= 11);
    let d6 = faces_in(&out.lines, "Damage: (1d6 + 2)")[0];
    assert_eq!(
        out.headline,
        format!(
            "Gob uses Slash Attack (legendary, cost 1): Hit! Thorn takes {} slashing (12 → {} HP).",
            d6 + 2,
            12 - (d6 + 2)
        )
    );
    assert_eq!(f.sheet(&thorn).hp, (12 - (d6 + 2)) as u32);
    assert_eq!(f.enc().combatant(&gob).unwrap().legendary_actions, 1);
    // Wing Attack costs 2: refused with 1 left.
    let mut wing = req(&gob, ActionType::LegendaryAction);
    wing.ability_name = Some("Wing Attack".into());
    let e = err_text(f.act(wing));
    assert!(
        e.contains("1 legendary action left") && e.contains("costs 2"),
        "{e}"
    );
    f.act(r.clone()).unwrap();
    let e = err_text(f.act(r));
    assert!(e.contains("0 legendary actions left"), "{e}");
}

#[test]
fn wing_attack_knocks_failed_savers_prone() {
    let mut f = fight(43, Size::Medium, vec![]);
    let (thorn, gob) = (f.thorn.clone(), f.gob.clone());
    f.edit_sheet(&gob, |c| {
        c.stat_block.as_mut().unwrap().legendary_actions = vec![StatAction {
            name: "Wing Attack (Costs 2 Actions)".into(),
            desc: "Each creature within 5 ft. of the creature must succeed on a DC 30 Dexterity saving throw or take 7 (2d6) bludgeoning damage and be knocked prone.".into(),
            attack_bonus: None,
            damage: vec![StatDamage { dice: "2d6".into(), damage_type: Some(DamageType::Bludgeoning) }],
            dc: Some(StatDc { ability: Ability::Dexterity, value: 30, success: "none".into() }),
            recharge: None,
            multiattack: vec![],
            alternatives: vec![],
        }];
    });
    f.edit(|e| e.combatant_mut(&gob).unwrap().legendary_actions = 3);
    let hp = f.sheet(&thorn).hp;
    let mut r = req(&gob, ActionType::LegendaryAction);
    r.ability_name = Some("wing attack".into());
    let out = f.act(r).unwrap();
    let (failed, took) = damage_of(&out.details["effect"], &thorn);
    assert!(failed);
    assert!(took >= 2);
    let t = f.sheet(&thorn);
    assert_eq!(t.hp as u64, hp as u64 - took);
    assert!(t.has_condition(Condition::Prone));
    // Mira at (2,3) is 5 ft from Gob at (3,2) too; Gob itself is not hit.
    assert_eq!(
        out.details["effect"]["targets"].as_array().unwrap().len(),
        2
    );
}

#[test]
fn lair_action_without_an_actor_saves_and_damages_its_targets() {
    let mut f = fight(51, Size::Medium, vec![]);
    let (thorn, mira) = (f.thorn.clone(), f.mira.clone());
    let hp = f.sheet(&thorn).hp;
    let mut r = req("", ActionType::LairAction);
    r.description = Some("Magma erupts beneath the intruders".into());
    r.dc = Some(30);
    r.ability = Some(Ability::Dexterity);
    r.amount = Some("2d6".into());
    r.damage_type = Some(DamageType::Fire);
    r.targets = vec![who(&thorn)];
    let out = f.act(r).unwrap();
    assert!(out.headline.starts_with("Lair action"), "{}", out.headline);
    let (failed, took) = damage_of(&out.details, &thorn);
    assert!(failed);
    assert_eq!(f.sheet(&thorn).hp as u64, hp as u64 - took);
    assert_eq!(f.sheet(&mira).hp, f.sheet(&mira).max_hp);
    // A DC without the save's ability names the fix.
    let mut bad = req("", ActionType::LairAction);
    bad.description = Some("Rocks fall".into());
    bad.dc = Some(12);
    bad.targets = vec![who(&mira)];
    assert!(err_text(f.act(bad)).contains("ability"));
}

#[test]
fn a_readied_attack_is_released_as_the_reaction() {
    let mut f = fight(61, Size::Medium, vec![]);
    let (thorn, gob) = (f.thorn.clone(), f.gob.clone());
    let mut r = req(&thorn, ActionType::Ready);
    r.trigger = Some("when Gob moves".into());
    r.readied_action = Some(json!({"actionType": "attack", "targetName": "Gob"}));
    let out = f.act(r).unwrap();
    assert!(out.economy.unwrap().action);
    assert!(f.enc().combatant(&thorn).unwrap().flags.readied.is_some());
    // The trigger: Thorn reacts (any turn) with actionCost reaction.
    let mut go = req(&thorn, ActionType::Ready);
    go.action_cost = Some(ActionCost::Reaction);
    let out = f.act(go).unwrap();
    assert_eq!(out.action_type, Some(ActionType::Attack));
    assert!(out.lines[0].contains("when Gob moves"), "{:?}", out.lines);
    assert!(out.details["attacks"][0]["targetId"] == Value::String(gob.clone()));
    let enc = f.enc();
    let cb = enc.combatant(&thorn).unwrap();
    assert!(cb.flags.readied.is_none());
    assert!(cb.economy.reaction);
    // Nothing readied any more: the same call is an ordinary ready, off its action budget.
    let mut again = req(&thorn, ActionType::Ready);
    again.ability_name = Some("readied".into());
    assert!(err_text(f.act(again)).contains("no readied action"));
}

#[test]
fn ready_needs_a_trigger_and_refuses_unreadiable_actions() {
    let mut f = fight(62, Size::Medium, vec![]);
    let thorn = f.thorn.clone();
    let mut r = req(&thorn, ActionType::Ready);
    r.readied_action = Some(json!({"actionType": "attack"}));
    assert!(err_text(f.act(r.clone())).contains("trigger"));
    r.trigger = Some("later".into());
    r.readied_action = Some(json!({"actionType": "legendary_action"}));
    assert!(err_text(f.act(r)).contains("cannot be readied"));
}

#[test]
fn use_object_opens_a_door_with_the_free_interaction_and_refuses_locked_ones() {
    let mut f = fight(71, Size::Medium, vec![]);
    let thorn = f.thorn.clone();
    f.edit(|e| {
        e.map.set_door(p(1, 2), DoorState::Closed).unwrap();
        e.map.set_door(p(1, 1), DoorState::Locked).unwrap();
    });
    let mut r = req(&thorn, ActionType::UseObject);
    r.to = Some(p(1, 2));
    let out = f.act(r.clone()).unwrap();
    assert!(out.headline.contains("opens the door"), "{}", out.headline);
    assert_eq!(f.enc().map.door(p(1, 2)), Some(DoorState::Open));
    let eco = out.economy.unwrap();
    assert!(eco.object_interaction && !eco.action);
    // The free interaction is spent; the action can still open the locked one — but it is locked.
    assert!(err_text(f.act(r)).contains("free object interaction"));
    let mut locked = req(&thorn, ActionType::UseObject);
    locked.to = Some(p(1, 1));
    locked.action_cost = Some(ActionCost::Action);
    assert!(err_text(f.act(locked)).contains("locked"));
    assert_eq!(f.enc().map.door(p(1, 1)), Some(DoorState::Locked));
}

#[test]
fn use_magic_item_drinks_a_potion_through_the_inventory() {
    let mut f = fight(81, Size::Medium, vec![]);
    let thorn = f.thorn.clone();
    f.e.write("give", &json!({}), |call| {
        give(
            call,
            CharacterRef::new(Some(&thorn), None),
            GiveRequest {
                item: Some(ItemDef {
                    name: "Potion of Healing".into(),
                    item_type: Some(tabletop_engine::inventory::ItemType::Consumable),
                    heal: Some("2d4+2".into()),
                    ..Default::default()
                }),
                srd_name: None,
                quantity: Some(2),
                currency: None,
                silvered: false,
            },
        )
    })
    .unwrap();
    f.edit_sheet(&thorn, |c| c.hp = 1);
    let mut r = req(&thorn, ActionType::UseMagicItem);
    r.item = Some("potion of healing".into());
    let out = f.act(r).unwrap();
    let healed = out.details["roll"]["total"].as_u64().unwrap();
    let c = f.sheet(&thorn);
    assert_eq!(c.hp as u64, (1 + healed).min(c.max_hp as u64));
    assert_eq!(
        c.inventory
            .items
            .iter()
            .find(|i| i.name == "Potion of Healing")
            .unwrap()
            .quantity,
        1
    );
    let mut none = req(&thorn, ActionType::UseMagicItem);
    none.action_cost = Some(ActionCost::BonusAction);
    assert!(err_text(f.act(none)).contains("item"));
}

#[test]
fn srd_dragon_breath_hits_the_cone() {
    let Some(srd) = common::srd("srd_dragon_breath_hits_the_cone") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = Engine::open(
        SqliteStore::open(&dir.path().join("t.sqlite")).unwrap(),
        "c",
        tabletop_engine::EngineOptions {
            seed: Some(5),
            compendium: tabletop_engine::compendium::CompendiumSource::ready(srd),
        },
    )
    .unwrap();
    let thorn = common::create(&mut e, common::fighter("Thorn", [16, 12, 14, 10, 12, 8]));
    e.write("create_encounter", &json!({}), |call| {
        create_encounter(
            call,
            CreateEncounter {
                name: None,
                participants: vec![
                    ParticipantSpec {
                        source: ParticipantSource::Character {
                            id: Some(thorn.clone()),
                            name: None,
                        },
                        side: None,
                        positions: vec![p(2, 5)],
                        surprised: false,
                        initiative: Some(1),
                    },
                    ParticipantSpec {
                        source: ParticipantSource::Monster {
                            monster: "young red dragon".into(),
                            count: 1,
                            name: None,
                        },
                        side: None,
                        positions: vec![p(8, 5)],
                        surprised: false,
                        initiative: Some(20),
                    },
                ],
                terrain: TerrainSpec {
                    width: Some(16),
                    height: Some(12),
                    ..Default::default()
                },
                auto_end: false,
            },
        )
    })
    .unwrap();
    let hp = e.read(|call| combat::sheet(call, &thorn)).unwrap().hp;
    let r = ActionRequest {
        actor: Who {
            id: None,
            name: Some("Young Red Dragon".into()),
        },
        action_type: Some(ActionType::UseSpecialAbility),
        ability_name: Some("Fire Breath".into()),
        to: Some(p(2, 5)),
        ..Default::default()
    };
    let out = e
        .write("execute_action", &json!({}), |call| execute(call, &r))
        .unwrap();
    assert!(
        out.lines.iter().any(|l| l.contains("30-ft cone")),
        "{:?}",
        out.lines
    );
    // SRD Fire Breath: 16d6 fire, DC 17 DEX save, half on a success. Thorn: DEX 12 (+1), 12 HP.
    let dice: Vec<u64> = out.details["damageRoll"]["terms"][0]["dice"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["value"].as_u64().unwrap())
        .collect();
    assert_eq!(dice.len(), 16);
    let rolled: u64 = dice.iter().sum();
    assert_eq!(rolled, 57, "seed 5");
    let t = &out.details["targets"][0];
    let d20 = t["save"]["rolls"][0].as_i64().unwrap();
    assert_eq!((d20, t["save"]["dc"].as_i64()), (8, Some(17)));
    let failed = d20 + 1 < 17;
    let (reported_failed, took) = damage_of(&out.details, &thorn);
    assert_eq!((reported_failed, took), (failed, rolled));
    // 57 against 12 HP: 45 left over ≥ the 12 maximum, so massive damage kills outright.
    let after = e.read(|call| combat::sheet(call, &thorn)).unwrap();
    assert_eq!((hp, after.hp, after.dead), (12, 0, true));
}

#[test]
fn a_grapple_ends_when_the_grappler_moves_away_or_drops() {
    // Moving farther than it could drag the goblin (20 ft, 40 at half speed): the grappler
    // goes alone and the goblin is left behind and free.
    let mut f = fight(9, Size::Medium, vec![]);
    let (thorn, gob) = (f.thorn.clone(), f.gob.clone());
    let mut r = req(&thorn, ActionType::Grapple);
    r.target = who(&gob);
    r.bonus = 40;
    f.act(r).unwrap();
    assert!(f.sheet(&gob).has_condition(Condition::Grappled));
    let mut mv = req(&thorn, ActionType::Move);
    mv.to = Some(p(2, 6));
    let out = f.act(mv).unwrap();
    assert!(!f.sheet(&gob).has_condition(Condition::Grappled));
    assert!(
        out.lines.iter().any(|l| l.contains("no longer grappled")),
        "{:?}",
        out.lines
    );
    // Dropping to 0 HP: the grappler is incapacitated and lets go.
    let mut f = fight(9, Size::Medium, vec![]);
    let (thorn, gob) = (f.thorn.clone(), f.gob.clone());
    let mut r = req(&thorn, ActionType::Grapple);
    r.target = who(&gob);
    r.bonus = 40;
    f.act(r).unwrap();
    let mut hit = req(&thorn, ActionType::Damage);
    hit.actor = Default::default();
    hit.target = who(&thorn);
    hit.amount = Some("200".into());
    let out = f.act(hit).unwrap();
    assert!(
        !f.sheet(&gob).has_condition(Condition::Grappled),
        "{:?}",
        out.lines
    );
}
