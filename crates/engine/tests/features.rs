//! Class features used in combat through execute_action use_special_ability, with SRD-built
//! characters and pinned dice (issue 16 C): Rage, Second Wind, Action Surge, Lay on Hands.

use super::common;

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::json;
use tabletop_engine::character::CharacterRef;
use tabletop_engine::combat::actions::{
    ActionCost, ActionOutcome, ActionRequest, ActionType, Who, execute,
};
use tabletop_engine::combat::create::{
    CreateEncounter, InlineStatBlock, ParticipantSource, ParticipantSpec, TerrainSpec,
    create_encounter,
};
use tabletop_engine::combat::{self, Encounter};
use tabletop_engine::creation::{ClassRequest, CreateRequest, create_character};
use tabletop_engine::inventory::ops::{GiveRequest, ItemRef, equip, give};
use tabletop_engine::{Engine, EngineError, EngineOptions, SqliteStore};
use tabletop_grid::Position;
use tabletop_rules::{Ability, DamageType};
use tabletop_srd::Compendium;

struct Fight {
    _dir: tempfile::TempDir,
    e: Engine<SqliteStore>,
    ids: BTreeMap<String, String>,
}

fn scores(v: [i64; 6]) -> Option<BTreeMap<Ability, i64>> {
    Some(Ability::ALL.iter().copied().zip(v).collect())
}

type Member = (&'static str, &'static str, u32, [i64; 6], (i32, i32));

fn fight(srd: Arc<Compendium>) -> Fight {
    fight_with(
        srd,
        &[
            ("Ugra", "barbarian", 1, [16, 14, 16, 8, 10, 10], (2, 2)),
            ("Rook", "fighter", 2, [16, 12, 14, 10, 10, 8], (2, 3)),
            ("Ser", "paladin", 1, [16, 10, 14, 8, 10, 14], (2, 4)),
        ],
        (8, 8),
    )
}

/// The SRD's one subclass of each class.
fn srd_subclass(class: &str) -> &'static str {
    match class {
        "barbarian" => "Berserker",
        "bard" => "Lore",
        "cleric" => "Life",
        "druid" => "Land",
        "fighter" => "Champion",
        "monk" => "Open Hand",
        "paladin" => "Devotion",
        "ranger" => "Hunter",
        "rogue" => "Thief",
        "sorcerer" => "Draconic",
        "warlock" => "Fiend",
        _ => "Evocation",
    }
}

fn fight_with(srd: Arc<Compendium>, members: &[Member], gob: (i32, i32)) -> Fight {
    fight_vs(srd, members, gob, &[], 7)
}

/// SRD monsters joining a fight: (monster, position).
type Foe = (&'static str, (i32, i32));

fn fight_vs(
    srd: Arc<Compendium>,
    members: &[Member],
    gob: (i32, i32),
    foes: &[Foe],
    seed: u64,
) -> Fight {
    let dir = tempfile::tempdir().unwrap();
    let store = SqliteStore::open(&dir.path().join("t.sqlite")).unwrap();
    let mut e = Engine::open(
        store,
        "main",
        EngineOptions {
            seed: Some(seed),
            compendium: tabletop_engine::compendium::CompendiumSource::ready(srd),
        },
    )
    .unwrap();
    let mut ids = BTreeMap::new();
    for &(name, class, level, s, _) in members {
        let req = CreateRequest {
            name: name.into(),
            class: Some(class.into()),
            level: Some(level),
            scores: scores(s),
            classes: vec![ClassRequest {
                class: class.into(),
                level,
                subclass: (level >= 3).then(|| srd_subclass(class).to_string()),
            }],
            ..Default::default()
        };
        let c = e
            .write("create_character", &json!({}), |call| {
                create_character(call, req)
            })
            .unwrap()
            .character;
        ids.insert(name.to_string(), c.id);
    }
    let mut participants: Vec<ParticipantSpec> = members
        .iter()
        .enumerate()
        .map(|(i, m)| ParticipantSpec {
            source: ParticipantSource::Character {
                id: Some(ids[m.0].clone()),
                name: None,
            },
            side: None,
            positions: vec![Position::new(m.4.0, m.4.1)],
            surprised: false,
            initiative: Some(20 - i as i32),
        })
        .collect();
    participants.push(ParticipantSpec {
        source: ParticipantSource::Inline(Box::new(InlineStatBlock {
            name: "Gob".into(),
            hp: 30,
            ac: 12,
            ..Default::default()
        })),
        side: None,
        positions: vec![Position::new(gob.0, gob.1)],
        surprised: false,
        initiative: Some(5),
    });
    for &(monster, (x, y)) in foes {
        participants.push(ParticipantSpec {
            source: ParticipantSource::Monster {
                monster: monster.into(),
                count: 1,
                name: None,
            },
            side: None,
            positions: vec![Position::new(x, y)],
            surprised: false,
            initiative: Some(3),
        });
    }
    e.write("create_encounter", &json!({}), |call| {
        create_encounter(
            call,
            CreateEncounter {
                name: Some("Test".into()),
                participants,
                terrain: TerrainSpec {
                    width: Some(12),
                    height: Some(12),
                    ..Default::default()
                },
                auto_end: false,
            },
        )
    })
    .unwrap();
    Fight { _dir: dir, e, ids }
}

impl Fight {
    fn act(&mut self, r: ActionRequest) -> Result<ActionOutcome, EngineError> {
        self.e
            .write("execute_action", &json!({}), |call| execute(call, &r))
    }

    fn feature(&mut self, who: &str, name: &str) -> Result<ActionOutcome, EngineError> {
        let r = ActionRequest {
            actor: Who {
                id: Some(self.ids[who].clone()),
                name: None,
            },
            action_type: Some(ActionType::UseSpecialAbility),
            ability_name: Some(name.into()),
            ..Default::default()
        };
        self.act(r)
    }

    /// Makes `who`'s turn the current one.
    fn turn_of(&mut self, who: &str) {
        let id = self.ids[who].clone();
        self.e
            .write("edit", &json!({}), |call| {
                let mut enc: Encounter = combat::load_active(call, None)?;
                enc.turn = enc.order.iter().position(|c| c.character_id == id).unwrap();
                combat::save(call, &enc)
            })
            .unwrap();
    }

    fn sheet(&mut self, who: &str) -> tabletop_engine::character::Character {
        let id = self.ids[who].clone();
        self.e.read(|call| combat::sheet(call, &id)).unwrap()
    }
}

#[test]
fn rage_spends_a_use_and_a_bonus_action_and_applies_its_modifiers() {
    let Some(srd) = common::srd("rage") else {
        return;
    };
    let mut f = fight(srd);
    let out = f.feature("Ugra", "rage").unwrap();
    assert_eq!(out.headline, "Ugra uses Rage.");
    assert_eq!(out.cost, Some(ActionCost::BonusAction));
    assert_eq!(out.lines[0], "Rage: 1/2 left");
    let c = f.sheet("Ugra");
    let eff = c.effective();
    let slashing: Vec<&str> = eff
        .defenses
        .resistances
        .iter()
        .filter(|d| d.damage_type == Some(DamageType::Slashing))
        .map(|d| d.source.as_str())
        .collect();
    assert_eq!(slashing, vec!["Rage"]);
    assert_eq!(eff.damage.bonus, 2, "rage damage from the SRD table");
    assert_eq!(
        eff.saves[&Ability::Strength].advantage,
        vec!["Rage".to_string()]
    );
    // A second rage this turn needs a bonus action that is spent.
    let err = f.feature("Ugra", "Rage").unwrap_err().to_string();
    assert!(err.contains("already used its bonus action"), "{err}");
    // Out of uses: refused, naming the rest that brings them back.
    f.e.write("edit", &json!({}), |call| {
        let mut enc = combat::load_active(call, None)?;
        for c in &mut enc.order {
            c.economy.bonus_action = false;
        }
        combat::save(call, &enc)
    })
    .unwrap();
    let id = f.ids["Ugra"].clone();
    f.e.write("edit", &json!({}), |call| {
        let mut c = combat::sheet(call, &id)?;
        c.resources.iter_mut().for_each(|r| r.current = 0);
        combat::put_sheet(call, &c)
    })
    .unwrap();
    let err = f.feature("Ugra", "Rage").unwrap_err().to_string();
    assert!(
        err.contains("Ugra has 0/2 Rage left and needs 1; it returns on a long rest"),
        "{err}"
    );
}

#[test]
fn second_wind_heals_and_action_surge_gives_an_action_back() {
    let Some(srd) = common::srd("second_wind") else {
        return;
    };
    let mut f = fight(srd);
    f.turn_of("Rook");
    let id = f.ids["Rook"].clone();
    f.e.write("edit", &json!({}), |call| {
        let mut c = combat::sheet(call, &id)?;
        c.hp = 5;
        combat::put_sheet(call, &c)
    })
    .unwrap();
    let out = f.feature("Rook", "Second Wind").unwrap();
    assert_eq!(out.cost, Some(ActionCost::BonusAction));
    let c = f.sheet("Rook");
    // 1d10 + 2 (fighter level) with the campaign's pinned dice.
    let roll_line = out
        .lines
        .iter()
        .find(|l| l.starts_with("Healing roll"))
        .unwrap();
    assert_eq!(
        out.headline,
        "Rook uses Second Wind: regains 11 HP (5 → 16)."
    );
    assert_eq!(roll_line, "Healing roll: 1d10 + 2: [9] + 2 = 11");
    assert_eq!(c.hp, 16);
    assert_eq!(
        c.resources
            .iter()
            .find(|r| r.name == "Second Wind")
            .unwrap()
            .current,
        0
    );
    // Dodge (the action), Action Surge, then another action.
    let dodge = ActionRequest {
        actor: Who {
            id: Some(id.clone()),
            name: None,
        },
        action_type: Some(ActionType::Dodge),
        ..Default::default()
    };
    f.act(dodge.clone()).unwrap();
    let err = f.act(dodge.clone()).unwrap_err().to_string();
    assert!(err.contains("already used its action"), "{err}");
    let out = f.feature("Rook", "Action Surge").unwrap();
    assert_eq!(
        out.headline,
        "Rook uses Action Surge: one more action this turn."
    );
    assert_eq!(out.cost, Some(ActionCost::Free));
    f.act(dodge).unwrap();
}

#[test]
fn lay_on_hands_spends_points_from_the_pool() {
    let Some(srd) = common::srd("lay_on_hands") else {
        return;
    };
    let mut f = fight(srd);
    f.turn_of("Ser");
    let rook = f.ids["Rook"].clone();
    f.e.write("edit", &json!({}), |call| {
        let mut c = combat::sheet(call, &rook)?;
        c.hp = 10;
        combat::put_sheet(call, &c)
    })
    .unwrap();
    let r = ActionRequest {
        actor: Who {
            id: Some(f.ids["Ser"].clone()),
            name: None,
        },
        action_type: Some(ActionType::UseSpecialAbility),
        ability_name: Some("Lay on Hands".into()),
        targets: vec![Who {
            id: Some(rook.clone()),
            name: None,
        }],
        amount: Some("4".into()),
        ..Default::default()
    };
    let out = f.act(r.clone()).unwrap();
    assert_eq!(
        out.headline,
        "Ser uses Lay on Hands (4 points): Rook regains 4 HP (10 → 14)."
    );
    assert_eq!(out.lines[0], "Lay on Hands: 1/5 left");
    assert_eq!(f.sheet("Rook").hp, 14);
    // 1 point left: 4 more is refused.
    f.e.write("edit", &json!({}), |call| {
        let mut enc = combat::load_active(call, None)?;
        for c in &mut enc.order {
            c.economy.action = false;
        }
        combat::save(call, &enc)
    })
    .unwrap();
    let err = f.act(r).unwrap_err().to_string();
    assert!(
        err.contains("Ser has 1/5 Lay on Hands left and needs 4"),
        "{err}"
    );
}

fn give_and_equip(f: &mut Fight, who: &str, srd_name: &str) {
    let id = f.ids[who].clone();
    let name = srd_name.to_string();
    f.e.write("give", &json!({}), |call| {
        give(
            call,
            CharacterRef::new(Some(&id), None),
            GiveRequest {
                item: None,
                srd_name: Some(name.clone()),
                quantity: Some(1),
                currency: None,
                silvered: false,
            },
        )?;
        equip(
            call,
            CharacterRef::new(Some(&id), None),
            ItemRef {
                id: None,
                name: Some(&name),
            },
            None,
        )
    })
    .unwrap();
}

fn attack(f: &mut Fight, who: &str, weapon: &str, slot: Option<u8>, force: bool) -> ActionOutcome {
    let r = ActionRequest {
        actor: Who {
            id: Some(f.ids[who].clone()),
            name: None,
        },
        action_type: Some(ActionType::Attack),
        target: Who {
            id: None,
            name: Some("Gob".into()),
        },
        weapon: Some(weapon.into()),
        slot_level: slot,
        bonus: 20,
        force,
        ..Default::default()
    };
    f.act(r).unwrap()
}

#[test]
fn sneak_attack_once_per_turn_with_an_ally_next_to_the_target() {
    let Some(srd) = common::srd("sneak_attack") else {
        return;
    };
    let mut f = fight_with(
        srd,
        &[
            ("Nim", "rogue", 1, [10, 16, 12, 10, 12, 10], (2, 2)),
            ("Rook", "fighter", 1, [16, 12, 14, 10, 10, 8], (4, 2)),
        ],
        (3, 2),
    );
    give_and_equip(&mut f, "Nim", "Shortsword");
    let out = attack(&mut f, "Nim", "Shortsword", None, false);
    let all = out.lines.join(" | ");
    assert!(
        out.lines
            .iter()
            .any(|l| l == "Sneak Attack: +1d6 (Rook is within 5 ft of Gob; once per turn)."),
        "{all}"
    );
    assert!(
        all.contains("1d6[piercing] + 3[piercing] + 1d6[piercing]"),
        "{all}"
    );
    // A second hit in the same turn adds nothing.
    let out = attack(&mut f, "Nim", "Shortsword", None, true);
    assert!(
        out.lines
            .iter()
            .any(|l| l == "Sneak Attack already used this turn."),
        "{:?}",
        out.lines
    );
}

#[test]
fn sneak_attack_needs_a_finesse_or_ranged_weapon_and_divine_smite_spends_a_slot() {
    let Some(srd) = common::srd("smite") else {
        return;
    };
    let mut f = fight_with(
        srd,
        &[
            ("Nim", "rogue", 1, [14, 16, 12, 10, 12, 10], (2, 2)),
            ("Ser", "paladin", 2, [16, 10, 14, 8, 10, 14], (4, 2)),
        ],
        (3, 2),
    );
    give_and_equip(&mut f, "Nim", "Club");
    let out = attack(&mut f, "Nim", "Club", None, false);
    assert!(
        out.lines
            .iter()
            .any(|l| l == "No Sneak Attack: it needs a finesse or ranged weapon."),
        "{:?}",
        out.lines
    );
    f.turn_of("Ser");
    give_and_equip(&mut f, "Ser", "Longsword");
    let out = attack(&mut f, "Ser", "Longsword", Some(1), false);
    assert!(
        out.lines
            .iter()
            .any(|l| l == "Divine Smite: +2d8 radiant (1st level slot spent)."),
        "{:?}",
        out.lines
    );
    let c = f.sheet("Ser");
    assert_eq!(c.spell_slots.left(1), 1);
}

#[test]
fn martial_arts_uses_the_table_die_and_dex() {
    let Some(srd) = common::srd("martial_arts") else {
        return;
    };
    let mut f = fight_with(
        srd,
        &[("Lin", "monk", 1, [10, 16, 12, 10, 14, 8], (2, 2))],
        (3, 2),
    );
    let out = attack(&mut f, "Lin", "unarmed strike", None, false);
    let damage = out
        .lines
        .iter()
        .find(|l| l.starts_with("Damage"))
        .cloned()
        .unwrap_or_default();
    assert!(
        damage.starts_with("Damage: 1d4[bludgeoning] + 3[bludgeoning]"),
        "{:?}",
        out.lines
    );
}

/// Gives every combatant its action, bonus action and attacks back, and `heal` 500 HP.
fn fresh_turn(f: &mut Fight, heal: &str) {
    let heal = heal.to_string();
    f.e.write("edit", &json!({}), |call| {
        let mut enc = combat::load_active(call, None)?;
        for c in &mut enc.order {
            c.economy = Default::default();
        }
        let id = enc
            .order
            .iter()
            .find(|c| c.name == heal)
            .unwrap()
            .character_id
            .clone();
        combat::save(call, &enc)?;
        let mut c = combat::sheet(call, &id)?;
        c.max_hp = 500;
        c.hp = 500;
        combat::put_sheet(call, &c)
    })
    .unwrap();
}

/// Attacks Gob with `weapon` until the kept d20 is `natural` (the campaign's pinned dice).
fn attack_until(f: &mut Fight, who: &str, weapon: &str, natural: u32) -> ActionOutcome {
    for _ in 0..40 {
        fresh_turn(f, "Gob");
        let out = attack(f, who, weapon, None, true);
        let kept = out.details["attacks"][0]["roll"]["kept"].as_u64();
        if kept == Some(u64::from(natural)) {
            return out;
        }
    }
    panic!("no natural {natural} in 40 pinned attacks");
}

#[test]
fn improved_critical_crits_on_19_and_brutal_critical_adds_a_weapon_die() {
    let Some(srd) = common::srd("crits") else {
        return;
    };
    let mut f = fight_vs(
        srd,
        &[
            ("Rook", "fighter", 3, [16, 12, 14, 10, 10, 8], (2, 2)),
            ("Ugra", "barbarian", 9, [16, 14, 16, 8, 10, 10], (4, 2)),
        ],
        (3, 2),
        &[],
        14,
    );
    give_and_equip(&mut f, "Rook", "Longsword");
    give_and_equip(&mut f, "Ugra", "Greataxe");
    // Champion 3: a natural 19 is a critical hit, its dice doubled.
    let out = attack_until(&mut f, "Rook", "Longsword", 19);
    assert_eq!(
        out.headline,
        "Critical hit! Gob takes 19 slashing (500 → 481 HP)."
    );
    assert_eq!(
        out.lines[..2],
        [
            "Rook attack with Longsword: d20 [19] + 25 = 44 vs AC 12 — critical hit (natural 19)",
            "Damage (critical: dice doubled): 2d10[slashing] + 3[slashing]: [6, 10] slashing + 3 slashing = 19 (slashing 19)",
        ]
    );
    // A barbarian's 19 is a plain hit; its 20 adds Brutal Critical's extra die (barbarian 9),
    // rolled after the doubling so it is not doubled.
    f.turn_of("Ugra");
    let out = attack_until(&mut f, "Ugra", "Greataxe", 19);
    assert_eq!(out.headline, "Hit! Gob takes 8 slashing (500 → 492 HP).");
    let out = attack_until(&mut f, "Ugra", "Greataxe", 20);
    assert_eq!(
        out.lines[1..3],
        [
            "Brutal Critical: +1d12 (extra weapon dice on a melee critical hit).",
            "Damage (critical: dice doubled): 2d12[slashing] + 3[slashing] + 1d12[slashing]: [7, 1] slashing + 3 slashing + [12] slashing = 23 (slashing 23)",
        ]
    );
    assert_eq!(
        out.headline,
        "Critical hit! Gob takes 23 slashing (500 → 477 HP)."
    );
}

#[test]
fn turn_undead_turns_undead_in_range_destroys_low_cr_and_turned_ends_on_damage() {
    let Some(srd) = common::srd("turn_undead") else {
        return;
    };
    let mut f = fight_vs(
        srd,
        &[
            ("Vera", "cleric", 5, [10, 10, 14, 10, 16, 12], (2, 2)),
            ("Rook", "fighter", 1, [16, 12, 14, 10, 10, 8], (4, 3)),
        ],
        (3, 2),
        &[
            ("Zombie", (2, 5)),
            ("Ghoul", (5, 2)),
            ("Wight", (2, 8)),
            ("Skeleton", (10, 2)),
        ],
        7,
    );
    let out = f.feature("Vera", "Turn Undead").unwrap();
    let turned = "turned for 10 rounds or until it takes damage: it must spend its turns trying to move as far from the turner as it can, can't willingly move within 30 ft of it, takes no reactions, and may only Dash or Dodge (or escape restraints); the DM moves it";
    // Cleric 5: DC 8 + 3 + 3 (WIS 16); the skeleton 40 ft away and the (untyped) Gob are not
    // touched; the zombie (CR 1/4 ≤ 1/2) is destroyed, the ghoul and the wight are turned.
    assert_eq!(
        out.headline,
        "Vera uses Turn Undead (DC 14 WIS save) on every undead within 30 ft: 3 failed."
    );
    assert_eq!(
        out.lines,
        [
            "Channel Divinity: 0/1 left".to_string(),
            "Ghoul — Wisdom save (Turn Undead): d20 [4] = 4 vs DC 14 — fail".into(),
            format!("Ghoul is {turned}"),
            "Wight — Wisdom save (Turn Undead): d20 [3] + 1 = 4 vs DC 14 — fail".into(),
            format!("Wight is {turned}"),
            "Zombie — Wisdom save (Turn Undead): d20 [13] = 13 vs DC 14 — fail".into(),
            "Zombie is destroyed (Destroy Undead: CR 0.25 ≤ 0.5)".into(),
            "Zombie is dead; the body lies at (2, 5) (out of the initiative; revival brings it back there).".into(),
        ]
    );
    let sheet_of = |f: &mut Fight, name: &str| {
        let name = name.to_string();
        f.e.read(|call| {
            let enc = combat::load_active(call, None)?;
            let id = enc
                .order
                .iter()
                .find(|c| c.name == name)
                .unwrap()
                .character_id
                .clone();
            combat::sheet(call, &id)
        })
        .unwrap()
    };
    assert!(sheet_of(&mut f, "Zombie").dead);
    let effects = |c: &tabletop_engine::character::Character| -> Vec<String> {
        c.effects.iter().map(|e| e.name.clone()).collect()
    };
    assert_eq!(effects(&sheet_of(&mut f, "Ghoul")), ["Turned"]);
    assert_eq!(effects(&sheet_of(&mut f, "Wight")), ["Turned"]);
    assert!(effects(&sheet_of(&mut f, "Skeleton")).is_empty());
    // Damage ends the wight's turning; the ghoul stays turned.
    f.turn_of("Rook");
    let r = ActionRequest {
        actor: Who {
            id: Some(f.ids["Rook"].clone()),
            name: None,
        },
        action_type: Some(ActionType::Attack),
        target: Who {
            id: None,
            name: Some("Wight".into()),
        },
        weapon: Some("unarmed strike".into()),
        bonus: 20,
        force: true,
        ..Default::default()
    };
    let out = f.act(r).unwrap();
    assert!(
        out.lines
            .iter()
            .any(|l| l == "Wight's Turned ends: it took damage"),
        "{:?}",
        out.lines
    );
    assert!(effects(&sheet_of(&mut f, "Wight")).is_empty());
    assert_eq!(effects(&sheet_of(&mut f, "Ghoul")), ["Turned"]);
    // The one Channel Divinity use is spent.
    f.turn_of("Vera");
    fresh_turn(&mut f, "Gob");
    let err = f.feature("Vera", "Turn Undead").unwrap_err().to_string();
    assert!(
        err.contains(
            "Vera has 0/1 Channel Divinity left and needs 1; it returns on a short or long rest"
        ),
        "{err}"
    );
}

#[test]
fn stunning_strike_intimidating_presence_and_stillness_of_mind() {
    let Some(srd) = common::srd("stunning_strike") else {
        return;
    };
    let mut f = fight_vs(
        srd,
        &[
            ("Lin", "monk", 7, [10, 16, 12, 10, 14, 8], (2, 2)),
            ("Ugra", "barbarian", 10, [16, 14, 16, 8, 10, 14], (6, 6)),
        ],
        (9, 9),
        &[("Goblin", (3, 2)), ("Orc", (6, 7))],
        7,
    );
    let on = |who: &str, name: &str, target: &str| ActionRequest {
        actor: Who {
            id: None,
            name: Some(who.into()),
        },
        action_type: Some(ActionType::UseSpecialAbility),
        ability_name: Some(name.into()),
        target: Who {
            id: None,
            name: Some(target.into()),
        },
        ..Default::default()
    };
    // Stunning Strike follows a melee weapon hit on its target this turn: refused before one,
    // nothing spent.
    let err = f
        .act(on("Lin", "Stunning Strike", "Goblin"))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("Stunning Strike follows a melee weapon hit, and Lin has not hit Goblin"),
        "{err}"
    );
    // The hits, recorded as an attack records them (an attack here would roll dice the saves
    // below are pinned to): three on the goblin, one attempt each.
    let lin = f.ids["Lin"].clone();
    f.e.write("edit", &json!({}), |call| {
        let mut enc = combat::load_active(call, None)?;
        let turn = (enc.round, enc.turn);
        let gob = enc
            .order
            .iter()
            .find(|c| c.name == "Goblin")
            .unwrap()
            .character_id
            .clone();
        for id in [
            gob.clone(),
            gob.clone(),
            gob,
            enc.order
                .iter()
                .find(|c| c.name == "Orc")
                .unwrap()
                .character_id
                .clone(),
        ] {
            enc.combatant_mut(&lin)
                .unwrap()
                .flags
                .record_melee_hit(turn, &id);
        }
        combat::save(call, &enc)
    })
    .unwrap();
    // Monk 7: DC 8 + 3 + 2 (WIS 14), one ki point a use, a free action after a hit.
    let out = f.act(on("Lin", "Stunning Strike", "Goblin")).unwrap();
    assert_eq!(
        out.lines,
        [
            "Ki: 6/7 left",
            "Goblin — Constitution save (Stunning Strike): d20 [20] = 20 vs DC 13 — success (natural 20)",
        ]
    );
    f.act(on("Lin", "Stunning Strike", "Goblin")).unwrap();
    let out = f.act(on("Lin", "Stunning Strike", "Goblin")).unwrap();
    assert_eq!(
        out.headline,
        "Lin uses Stunning Strike (DC 13 CON save): 1 failed."
    );
    assert_eq!(
        out.lines,
        [
            "Ki: 4/7 left",
            "Goblin — Constitution save (Stunning Strike): d20 [4] = 4 vs DC 13 — fail",
            "Goblin is stunned until the end of Lin's next turn (Stunning Strike)",
        ]
    );
    let goblin =
        f.e.read(|call| {
            let enc = combat::load_active(call, None)?;
            let id = enc
                .order
                .iter()
                .find(|c| c.name == "Goblin")
                .unwrap()
                .character_id
                .clone();
            combat::sheet(call, &id)
        })
        .unwrap();
    assert!(goblin.has_condition(tabletop_rules::Condition::Stunned));
    // Out of reach: refused.
    let err = f
        .act(on("Lin", "Stunning Strike", "Orc"))
        .unwrap_err()
        .to_string();
    assert_eq!(
        err,
        "Orc is 25 ft from Lin; Stunning Strike reaches 5 ft (pass force: true to override as the game master)"
    );
    // Barbarian 10: DC 8 + 4 + 2 (CHA 14), an action.
    f.turn_of("Ugra");
    let out = f.act(on("Ugra", "Intimidating Presence", "Orc")).unwrap();
    assert_eq!(
        out.lines,
        [
            "Orc — Wisdom save (Intimidating Presence): d20 [3] = 3 vs DC 14 — fail",
            "Orc is frightened until the end of Ugra's next turn (Intimidating Presence)",
        ]
    );
    assert_eq!(out.cost, Some(ActionCost::Action));
    // Stillness of Mind ends the monk's own frightened condition.
    f.turn_of("Lin");
    fresh_turn(&mut f, "Gob");
    let id = f.ids["Lin"].clone();
    f.e.write("edit", &json!({}), |call| {
        let mut c = combat::sheet(call, &id)?;
        c.conditions
            .push(tabletop_engine::character::ConditionEntry {
                by: None,
                ends_on: None,
                condition: tabletop_rules::Condition::Frightened,
                level: None,
                source: "Orc".into(),
                duration: None,
            });
        combat::put_sheet(call, &c)
    })
    .unwrap();
    let out = f.feature("Lin", "Stillness of Mind").unwrap();
    assert_eq!(
        out.headline,
        "Lin uses Stillness of Mind: no longer frightened."
    );
    assert!(
        !f.sheet("Lin")
            .has_condition(tabletop_rules::Condition::Frightened)
    );
}

#[test]
fn preserve_life_divides_its_pool_up_to_half_each_maximum() {
    let Some(srd) = common::srd("preserve_life") else {
        return;
    };
    let mut f = fight_vs(
        srd,
        &[
            ("Vera", "cleric", 3, [10, 10, 14, 10, 16, 12], (2, 2)),
            ("Rook", "fighter", 3, [16, 12, 14, 10, 10, 8], (4, 2)),
        ],
        (9, 9),
        &[("Zombie", (2, 4))],
        7,
    );
    for (who, hp) in [("Vera", 5), ("Rook", 3)] {
        let id = f.ids[who].clone();
        f.e.write("edit", &json!({}), |call| {
            let mut c = combat::sheet(call, &id)?;
            c.hp = hp;
            combat::put_sheet(call, &c)
        })
        .unwrap();
    }
    assert_eq!((f.sheet("Vera").max_hp, f.sheet("Rook").max_hp), (24, 28));
    let heal = |targets: &[&str], amount: &str| ActionRequest {
        actor: Who {
            id: None,
            name: Some("Vera".into()),
        },
        action_type: Some(ActionType::UseSpecialAbility),
        ability_name: Some("Preserve Life".into()),
        targets: targets
            .iter()
            .map(|t| Who {
                id: None,
                name: Some((*t).into()),
            })
            .collect(),
        amount: Some(amount.into()),
        ..Default::default()
    };
    // Cleric 3: a pool of 15. More than the pool is refused, so is an undead.
    let err = f
        .act(heal(&["Vera", "Rook"], "10,6"))
        .unwrap_err()
        .to_string();
    assert_eq!(
        err,
        "Preserve Life has 15 HP to divide; the shares add up to 16"
    );
    let err = f.act(heal(&["Zombie"], "5")).unwrap_err().to_string();
    assert_eq!(err, "Preserve Life has no effect on Zombie (undead)");
    // Vera (24 max) stops at 12; Rook (28 max) takes all 5.
    let out = f.act(heal(&["Vera", "Rook"], "10,5")).unwrap();
    assert_eq!(out.headline, "Vera uses Preserve Life (15 of 15 HP).");
    assert_eq!(
        out.lines,
        [
            "Channel Divinity: 0/1 left",
            "Vera regains 7 HP (5 → 12); 10 asked, capped at half its maximum (12)",
            "Rook regains 5 HP (3 → 8)",
        ]
    );
    assert_eq!((f.sheet("Vera").hp, f.sheet("Rook").hp), (12, 8));
}

#[test]
fn elusive_takes_away_advantage_on_attacks_against_the_rogue() {
    let Some(srd) = common::srd("elusive") else {
        return;
    };
    let mut f = fight_with(
        srd,
        &[
            ("Rook", "fighter", 1, [16, 12, 14, 10, 10, 8], (2, 2)),
            ("Nim", "rogue", 18, [10, 16, 12, 10, 12, 10], (3, 2)),
        ],
        (8, 8),
    );
    give_and_equip(&mut f, "Rook", "Longsword");
    let r = ActionRequest {
        actor: Who {
            id: Some(f.ids["Rook"].clone()),
            name: None,
        },
        action_type: Some(ActionType::Attack),
        target: Who {
            id: None,
            name: Some("Nim".into()),
        },
        weapon: Some("Longsword".into()),
        advantage: true,
        ..Default::default()
    };
    let out = f.act(r.clone()).unwrap();
    assert_eq!(
        out.lines[..2],
        [
            "Rook attack with Longsword: d20 [7] + 5 = 12 vs AC 13 — miss",
            "No advantage against Nim (Elusive (rogue 18): not while it is incapacitated).",
        ]
    );
    // Stunned (incapacitated), Nim loses it: two dice are rolled.
    fresh_turn(&mut f, "Gob");
    let id = f.ids["Nim"].clone();
    f.e.write("edit", &json!({}), |call| {
        let mut c = combat::sheet(call, &id)?;
        c.conditions
            .push(tabletop_engine::character::ConditionEntry {
                by: None,
                ends_on: None,
                condition: tabletop_rules::Condition::Stunned,
                level: None,
                source: "test".into(),
                duration: None,
            });
        combat::put_sheet(call, &c)
    })
    .unwrap();
    let out = f.act(r).unwrap();
    assert_eq!(
        out.lines[0],
        "Rook attack with Longsword: d20 [~~19~~, 20] (advantage: target stunned, granted by the game master) + 5 = 25 vs AC 13 — critical hit"
    );
}
