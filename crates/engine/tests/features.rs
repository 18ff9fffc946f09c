//! Class features used in combat through execute_action use_special_ability, with SRD-built
//! characters and pinned dice (issue 16 C): Rage, Second Wind, Action Surge, Lay on Hands.

mod common;

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::json;
use tabletop_engine::combat::actions::{
    ActionCost, ActionOutcome, ActionRequest, ActionType, Who, execute,
};
use tabletop_engine::combat::create::{
    CreateEncounter, InlineStatBlock, ParticipantSource, ParticipantSpec, TerrainSpec,
    create_encounter,
};
use tabletop_engine::combat::{self, Encounter};
use tabletop_engine::creation::{CreateRequest, create_character};
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

fn fight(srd: Arc<Compendium>) -> Fight {
    let dir = tempfile::tempdir().unwrap();
    let store = SqliteStore::open(&dir.path().join("t.sqlite")).unwrap();
    let mut e = Engine::open(
        store,
        "main",
        EngineOptions {
            seed: Some(7),
            compendium: tabletop_engine::compendium::CompendiumSource::ready(srd),
        },
    )
    .unwrap();
    let mut ids = BTreeMap::new();
    for (name, class, level, s) in [
        ("Ugra", "barbarian", 1, [16, 14, 16, 8, 10, 10]),
        ("Rook", "fighter", 2, [16, 12, 14, 10, 10, 8]),
        ("Ser", "paladin", 1, [16, 10, 14, 8, 10, 14]),
    ] {
        let req = CreateRequest {
            name: name.into(),
            class: Some(class.into()),
            level: Some(level),
            scores: scores(s),
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
    let mut participants: Vec<ParticipantSpec> = ["Ugra", "Rook", "Ser"]
        .iter()
        .enumerate()
        .map(|(i, n)| ParticipantSpec {
            source: ParticipantSource::Character {
                id: Some(ids[*n].clone()),
                name: None,
            },
            side: None,
            positions: vec![Position::new(2, 2 + i as i32)],
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
        positions: vec![Position::new(8, 8)],
        surprised: false,
        initiative: Some(5),
    });
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
