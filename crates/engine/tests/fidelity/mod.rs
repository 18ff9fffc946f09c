//! The party of the combat-fidelity tests (issue 18): SRD-built characters (fighter 5, rogue 3,
//! wizard 5, cleric 5) against SRD monsters, pinned dice, every action through execute_action.

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::{Value, json};
use tabletop_engine::character::{Character, CharacterRef};
use tabletop_engine::combat::actions::{ActionOutcome, ActionRequest, execute};
use tabletop_engine::combat::create::{
    CreateEncounter, ParticipantSource, ParticipantSpec, TerrainSpec, create_encounter,
};
use tabletop_engine::combat::{self, Encounter};
use tabletop_engine::creation::{CreateRequest, create_character};
use tabletop_engine::inventory::ops::{GiveRequest, ItemRef, equip, give};
use tabletop_engine::{Engine, EngineError, EngineOptions, SqliteStore};
use tabletop_grid::Position;
use tabletop_rules::Ability;
use tabletop_srd::Compendium;

/// A campaign with the party and the monsters of one fight.
pub struct Table {
    _dir: tempfile::TempDir,
    /// The engine.
    pub e: Engine<SqliteStore>,
    /// Character ids by name.
    pub ids: BTreeMap<String, String>,
}

/// (name, class, level, scores STR DEX CON INT WIS CHA, square, initiative)
pub type Member = (&'static str, &'static str, u32, [i64; 6], (i32, i32), i32);

/// The standard party.
pub const FIGHTER: Member = ("Rook", "fighter", 5, [16, 14, 14, 10, 12, 8], (2, 2), 20);
pub const ROGUE: Member = ("Nim", "rogue", 3, [10, 16, 12, 12, 12, 10], (2, 3), 19);
pub const WIZARD: Member = ("Wren", "wizard", 5, [8, 14, 14, 16, 12, 10], (2, 4), 18);
pub const CLERIC: Member = ("Mara", "cleric", 5, [14, 10, 14, 10, 16, 12], (2, 5), 17);

/// (SRD monster, base name, squares, initiative)
pub type Foe = (&'static str, &'static str, Vec<(i32, i32)>, i32);

impl Table {
    /// Creates the party and starts a fight on a `w`×`h` map against `foes`.
    pub fn new(seed: u64, party: &[Member], foes: Vec<Foe>, size: (u32, u32)) -> Option<Table> {
        Self::new_on(
            seed,
            party,
            foes,
            TerrainSpec {
                width: Some(size.0),
                height: Some(size.1),
                ..Default::default()
            },
        )
    }

    /// [`Table::new`] on a map with terrain (walls, light, …).
    pub fn new_on(
        seed: u64,
        party: &[Member],
        foes: Vec<Foe>,
        terrain: TerrainSpec,
    ) -> Option<Table> {
        let srd: Arc<Compendium> = crate::common::srd("fidelity")?;
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
        for &(name, class, level, s, _, _) in party {
            let req = CreateRequest {
                name: name.into(),
                class: Some(class.into()),
                level: Some(level),
                scores: Some(Ability::ALL.iter().copied().zip(s).collect()),
                ..Default::default()
            };
            let c = e
                .write("create_character", &json!({}), |call| {
                    create_character(call, req)
                })
                .unwrap()
                .character;
            // Casters know or have prepared their whole class list (the tests cast freely).
            crate::common::learn_class_list(&mut e, &c.id);
            ids.insert(name.to_string(), c.id);
        }
        let mut t = Table { _dir: dir, e, ids };
        let mut participants: Vec<ParticipantSpec> = party
            .iter()
            .map(|m| ParticipantSpec {
                source: ParticipantSource::Character {
                    id: Some(t.ids[m.0].clone()),
                    name: None,
                },
                side: None,
                positions: vec![Position::new(m.4.0, m.4.1)],
                surprised: false,
                initiative: Some(m.5),
            })
            .collect();
        for (monster, name, squares, init) in foes {
            participants.push(ParticipantSpec {
                source: ParticipantSource::Monster {
                    monster: monster.into(),
                    count: u32::try_from(squares.len()).unwrap(),
                    name: Some(name.into()),
                },
                side: None,
                positions: squares.iter().map(|&(x, y)| Position::new(x, y)).collect(),
                surprised: false,
                initiative: Some(init),
            });
        }
        let enc =
            t.e.write("create_encounter", &json!({}), |call| {
                create_encounter(
                    call,
                    CreateEncounter {
                        name: Some("Fidelity".into()),
                        participants,
                        terrain,
                        auto_end: false,
                    },
                )
            })
            .unwrap()
            .encounter;
        for c in &enc.order {
            t.ids
                .entry(c.name.clone())
                .or_insert(c.character_id.clone());
        }
        Some(t)
    }

    /// Runs one execute_action request given as JSON.
    /// `actorName` / `targetName` / `targetNames` stand for the nested `actor` / `target` /
    /// `targets` the engine reads (the server flattens them the same way).
    pub fn act(&mut self, mut req: Value) -> Result<ActionOutcome, EngineError> {
        let o = req.as_object_mut().unwrap();
        if let Some(n) = o.remove("actorName") {
            o.insert("actor".into(), json!({ "name": n }));
        }
        if let Some(n) = o.remove("targetName") {
            o.insert("target".into(), json!({ "name": n }));
        }
        if let Some(Value::Array(ns)) = o.remove("targetNames") {
            let v: Vec<Value> = ns.into_iter().map(|n| json!({ "name": n })).collect();
            o.insert("targets".into(), Value::Array(v));
        }
        let r: ActionRequest = serde_json::from_value(req).unwrap();
        self.e
            .write("execute_action", &json!({}), |call| execute(call, &r))
    }

    /// The error text of a refused request (panics when it was accepted).
    pub fn refused(&mut self, req: Value) -> String {
        match self.act(req) {
            Ok(o) => panic!("accepted: {} {:?}", o.headline, o.lines),
            Err(e) => e.to_string(),
        }
    }

    /// roll_death_save for `who`.
    pub fn death_save(
        &mut self,
        who: &str,
        force: bool,
    ) -> Result<tabletop_engine::combat::death::DeathSaveOutcome, EngineError> {
        let id = self.ids[who].clone();
        self.e.write("roll_death_save", &json!({}), |call| {
            tabletop_engine::combat::death::roll_death_save(
                call,
                CharacterRef::new(Some(&id), None),
                force,
            )
        })
    }

    /// advance_turn (reminders, not automatic death saves).
    pub fn advance(&mut self) -> tabletop_engine::combat::turn::TurnReport {
        self.e
            .write("advance_turn", &json!({}), |call| {
                tabletop_engine::combat::turn::advance_turn(
                    call,
                    &tabletop_engine::combat::turn::AdvanceRequest::default(),
                )
            })
            .unwrap()
    }

    /// DM damage of `amount` (dice or a number) to `who`.
    pub fn hurt(&mut self, who: &str, amount: &str) -> ActionOutcome {
        self.act(json!({"actionType": "damage", "targetName": who, "amount": amount, "damageType": "bludgeoning"}))
            .unwrap()
    }

    /// The names of `who`'s conditions.
    pub fn conditions(&mut self, who: &str) -> Vec<String> {
        self.sheet(who)
            .conditions
            .iter()
            .map(|c| format!("{:?}", c.condition))
            .collect()
    }

    /// A sheet by name.
    pub fn sheet(&mut self, who: &str) -> Character {
        let id = self.ids[who].clone();
        self.e.read(|call| combat::sheet(call, &id)).unwrap()
    }

    /// The active encounter.
    pub fn enc(&mut self) -> Encounter {
        self.e.read(|call| combat::load(call, None)).unwrap()
    }

    /// Makes `who`'s turn the current one (its economy fresh).
    pub fn turn_of(&mut self, who: &str) {
        let id = self.ids[who].clone();
        self.edit_enc(|enc| {
            enc.turn = enc.order.iter().position(|c| c.character_id == id).unwrap();
            enc.order[enc.turn].economy = Default::default();
        });
    }

    /// Edits the stored encounter (test setup).
    pub fn edit_enc(&mut self, f: impl FnOnce(&mut Encounter)) {
        self.e
            .write("edit", &json!({}), |call| {
                let mut enc: Encounter = combat::load_active(call, None)?;
                f(&mut enc);
                combat::save(call, &enc)
            })
            .unwrap();
    }

    /// Edits a sheet (test setup).
    pub fn edit(&mut self, who: &str, f: impl FnOnce(&mut Character)) {
        let id = self.ids[who].clone();
        self.e
            .write("edit", &json!({}), |call| {
                let mut c = combat::sheet(call, &id)?;
                f(&mut c);
                combat::put_sheet(call, &c)
            })
            .unwrap();
    }

    /// Gives an SRD item and equips it (main hand, or where it goes).
    pub fn arm(&mut self, who: &str, srd_name: &str) {
        self.arm_in(who, srd_name, None)
    }

    /// Gives an SRD item and equips it in `slot`.
    pub fn arm_in(
        &mut self,
        who: &str,
        srd_name: &str,
        slot: Option<tabletop_engine::inventory::Slot>,
    ) {
        let id = self.ids[who].clone();
        let name = srd_name.to_string();
        self.e
            .write("give", &json!({}), |call| {
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
                    slot,
                )
            })
            .unwrap();
    }

    /// Gives `qty` of an SRD item (not equipped).
    pub fn give(&mut self, who: &str, srd_name: &str, qty: u32) {
        let id = self.ids[who].clone();
        let name = srd_name.to_string();
        self.e
            .write("give", &json!({}), |call| {
                give(
                    call,
                    CharacterRef::new(Some(&id), None),
                    GiveRequest {
                        item: None,
                        srd_name: Some(name.clone()),
                        quantity: Some(qty),
                        currency: None,
                        silvered: false,
                    },
                )
            })
            .unwrap();
    }

    /// How many of items named `name` (case-insensitive) `who` carries.
    pub fn count(&mut self, who: &str, name: &str) -> u32 {
        self.sheet(who)
            .inventory
            .items
            .iter()
            .filter(|i| i.name.eq_ignore_ascii_case(name))
            .map(|i| i.quantity)
            .sum()
    }

    /// end_encounter (outcome victory).
    pub fn end(&mut self) -> tabletop_engine::combat::end::EndSummary {
        use tabletop_engine::combat::end::{EndRequest, Outcome, end_encounter};
        self.e
            .write("end_encounter", &json!({}), |call| {
                end_encounter(
                    call,
                    &EndRequest {
                        outcome: Some(Outcome::Victory),
                        ..Default::default()
                    },
                )
            })
            .unwrap()
    }
}
