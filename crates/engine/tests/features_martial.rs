//! Martial class features applied in play (issue 17): SRD-built barbarians, fighters, monks,
//! paladins, rangers and rogues with their SRD subclasses and options, against SRD monsters,
//! every action through execute_action, pinned seeds and exact results. Each test also takes the
//! rule away from the sheet (or compares with a creature without it) so it fails if the rule is
//! not what changed the result.

use super::common;

use std::collections::BTreeMap;

use serde_json::{Value, json};
use tabletop_engine::catalog::class_rules::ClassRule;
use tabletop_engine::character::{Character, CharacterRef, ConditionEntry};
use tabletop_engine::combat::actions::{ActionOutcome, ActionRequest, execute};
use tabletop_engine::combat::create::{
    CreateEncounter, ParticipantSource, ParticipantSpec, TerrainSpec, create_encounter,
};
use tabletop_engine::combat::{self, Encounter, Side};
use tabletop_engine::creation::{AbilityMethod, ClassRequest, CreateMode, CreateRequest};
use tabletop_engine::{Engine, EngineError, EngineOptions, SqliteStore};
use tabletop_grid::Position;
use tabletop_rules::{Ability, Condition};

/// (name, class, level, subclass, options, scores STR DEX CON INT WIS CHA, square)
type Hero = (
    &'static str,
    &'static str,
    u32,
    &'static str,
    &'static [&'static str],
    [i64; 6],
    (i32, i32),
);

struct Fight {
    _dir: tempfile::TempDir,
    e: Engine<SqliteStore>,
    ids: BTreeMap<String, String>,
}

impl Fight {
    /// The heroes (party side, initiative 20, 19, …) against SRD monsters (initiative 5), on a
    /// 20×20 map.
    fn new(seed: u64, heroes: &[Hero], foes: &[(&str, &str, (i32, i32))]) -> Option<Fight> {
        Self::new_with(seed, heroes, foes, |_| {})
    }

    /// [`Fight::new`], with `prep` run on the heroes before the fight starts.
    fn new_with(
        seed: u64,
        heroes: &[Hero],
        foes: &[(&str, &str, (i32, i32))],
        prep: impl FnOnce(&mut Fight),
    ) -> Option<Fight> {
        let srd = common::srd("features_martial")?;
        let dir = tempfile::tempdir().unwrap();
        let store = SqliteStore::open(&dir.path().join("m.sqlite")).unwrap();
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
        let mut participants = Vec::new();
        for (i, &(name, class, level, sub, options, s, (x, y))) in heroes.iter().enumerate() {
            let req = CreateRequest {
                name: name.into(),
                method: AbilityMethod::Manual,
                scores: Some(Ability::ALL.iter().copied().zip(s).collect()),
                classes: vec![ClassRequest {
                    class: class.into(),
                    level,
                    subclass: Some(sub.into()),
                }],
                options: options.iter().map(|o| o.to_string()).collect(),
                mode: CreateMode::Create,
                ..Default::default()
            };
            let c = e
                .write("create_character", &json!({}), |call| {
                    tabletop_engine::creation::create_character(call, req)
                })
                .unwrap()
                .character;
            participants.push(ParticipantSpec {
                source: ParticipantSource::Character {
                    id: Some(c.id.clone()),
                    name: None,
                },
                side: Some(Side::Party),
                positions: vec![Position::new(x, y)],
                surprised: false,
                initiative: Some(20 - i32::try_from(i).unwrap()),
            });
            ids.insert(name.to_string(), c.id);
        }
        for &(monster, name, (x, y)) in foes {
            participants.push(ParticipantSpec {
                source: ParticipantSource::Monster {
                    monster: monster.into(),
                    count: 1,
                    name: Some(name.into()),
                },
                side: Some(Side::Enemy),
                positions: vec![Position::new(x, y)],
                surprised: false,
                initiative: Some(5),
            });
        }
        let mut f = Fight { _dir: dir, e, ids };
        prep(&mut f);
        f.start(participants);
        Some(f)
    }

    fn start(&mut self, participants: Vec<ParticipantSpec>) {
        let enc = self
            .e
            .write("create_encounter", &json!({}), |call| {
                create_encounter(
                    call,
                    CreateEncounter {
                        name: Some("Martial".into()),
                        participants,
                        terrain: TerrainSpec {
                            width: Some(20),
                            height: Some(20),
                            ..Default::default()
                        },
                        auto_end: false,
                    },
                )
            })
            .unwrap()
            .encounter;
        for c in &enc.order {
            self.ids
                .entry(c.name.clone())
                .or_insert(c.character_id.clone());
        }
    }

    /// execute_action; `actorName` / `targetName` stand for the nested `actor` / `target`.
    fn act(&mut self, mut req: Value) -> Result<ActionOutcome, EngineError> {
        let o = req.as_object_mut().unwrap();
        if let Some(n) = o.remove("actorName") {
            o.insert("actor".into(), json!({ "name": n }));
        }
        if let Some(n) = o.remove("targetName") {
            o.insert("target".into(), json!({ "name": n }));
        }
        let r: ActionRequest = serde_json::from_value(req).unwrap();
        self.e
            .write("execute_action", &json!({}), |call| execute(call, &r))
    }

    fn sheet(&mut self, who: &str) -> Character {
        let id = self.ids[who].clone();
        self.e.read(|call| combat::sheet(call, &id)).unwrap()
    }

    fn enc(&mut self) -> Encounter {
        self.e.read(|call| combat::load(call, None)).unwrap()
    }

    fn turn_of(&mut self, who: &str) {
        let id = self.ids[who].clone();
        self.edit_enc(|enc| {
            enc.turn = enc.order.iter().position(|c| c.character_id == id).unwrap();
            enc.order[enc.turn].economy = Default::default();
        });
    }

    fn edit_enc(&mut self, f: impl FnOnce(&mut Encounter)) {
        self.e
            .write("edit", &json!({}), |call| {
                let mut enc: Encounter = combat::load_active(call, None)?;
                f(&mut enc);
                combat::save(call, &enc)
            })
            .unwrap();
    }

    fn edit(&mut self, who: &str, f: impl FnOnce(&mut Character)) {
        let id = self.ids[who].clone();
        self.e
            .write("edit", &json!({}), |call| {
                let mut c = combat::sheet(call, &id)?;
                f(&mut c);
                combat::put_sheet(call, &c)
            })
            .unwrap();
    }

    /// Takes `rule` off `who`'s derived sheet (the control case).
    fn without(&mut self, who: &str, rule: ClassRule) {
        self.edit(who, |c| {
            if let Some(d) = c.derived.as_mut() {
                std::sync::Arc::make_mut(d)
                    .rules
                    .retain(|r| r.value != rule);
            }
        });
    }

    fn arm(&mut self, who: &str, srd_name: &str) {
        use tabletop_engine::inventory::ops::{GiveRequest, equip, give};
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
                    tabletop_engine::inventory::ops::ItemRef {
                        id: None,
                        name: Some(&name),
                    },
                    None,
                )
            })
            .unwrap();
    }

    fn give(&mut self, who: &str, srd_name: &str, qty: u32) {
        use tabletop_engine::inventory::ops::{GiveRequest, give};
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
}

impl Fight {
    fn advance(&mut self) -> tabletop_engine::combat::turn::TurnReport {
        use tabletop_engine::combat::turn::{AdvanceRequest, advance_turn};
        self.e
            .write("advance_turn", &json!({}), |call| {
                advance_turn(call, &AdvanceRequest::default())
            })
            .unwrap()
    }

    fn hurt(&mut self, who: &str, amount: u32) -> ActionOutcome {
        self.act(json!({"actionType": "damage", "targetName": who, "amount": amount.to_string(), "damageType": "bludgeoning"}))
            .unwrap()
    }

    fn check(&mut self, who: &str, test: tabletop_rules::d20::D20Test, dc: i32) -> String {
        let req = tabletop_engine::checks::CheckRequest {
            dc: Some(dc),
            ..tabletop_engine::checks::CheckRequest::of(test)
        };
        let id = self.ids[who].clone();
        self.e
            .write("roll_check", &json!({}), |call| {
                tabletop_engine::checks::roll_check(call, CharacterRef::new(Some(&id), None), &req)
            })
            .unwrap()
            .summary()
    }

    /// The flat bonus of `who`'s save of `ability` (effective sheet).
    fn save_bonus(&mut self, who: &str, ability: Ability) -> i32 {
        let c = self.sheet(who);
        tabletop_rules::d20::roll_stat_for(
            &c.effective(),
            &tabletop_rules::d20::D20Test::Save { ability },
        )
        .bonus
    }
}

const GROK: Hero = (
    "Grok",
    "barbarian",
    11,
    "Berserker",
    &[],
    [18, 14, 16, 8, 10, 10],
    (5, 5),
);

/// Relentless Rage (barbarian 11): dropped to 0 HP while raging, a CON save against DC 10 (+5
/// per use) leaves it at 1 HP; Mindless Rage makes the raging barbarian immune to charm and fear
/// (a fear already on it is suspended).
#[test]
fn relentless_and_mindless_rage() {
    let Some(mut f) = Fight::new(3, &[GROK], &[("ogre", "Ogre", (6, 5))]) else {
        return;
    };
    f.turn_of("Grok");
    f.edit("Grok", |c| {
        c.conditions.push(ConditionEntry {
            by: None,
            ends_on: None,
            condition: Condition::Frightened,
            level: None,
            source: "test".into(),
            duration: None,
        })
    });
    let g = f.sheet("Grok").effective();
    assert!(!g.is_immune_to(Condition::Frightened) && !g.is_immune_to(Condition::Charmed));
    let r = f
        .act(json!({"actorName": "Grok", "actionType": "use_special_ability", "abilityName": "Rage"}))
        .unwrap();
    assert!(
        r.lines[1].ends_with("+3 damage; immune to charmed; immune to frightened"),
        "{:?}",
        r.lines
    );
    let g = f.sheet("Grok").effective();
    assert!(g.is_immune_to(Condition::Frightened) && g.is_immune_to(Condition::Charmed));
    // First use: DC 10, a 19 holds.
    f.edit("Grok", |c| c.hp = 5);
    let o = f.hurt("Grok", 20);
    assert_eq!(
        o.headline,
        "Grok takes 10 bludgeoning (20 rolled, halved by resistance) (5 → 1 HP)."
    );
    assert_eq!(
        o.lines[2..],
        [
            "Grok — Constitution save (Relentless Rage): d20 [19] + 7 = 26 vs DC 10 — success",
            "Grok drops to 1 HP instead (Relentless Rage, DC 10; the next use is DC 15)"
        ]
    );
    assert_eq!(f.sheet("Grok").hp, 1);
    assert_eq!(
        f.sheet("Grok")
            .resources
            .iter()
            .find(|r| r.name == "Relentless Rage")
            .map(|r| (r.current, r.max)),
        Some((9, 10))
    );
    // Second use: DC 15, a natural 1 fails and it falls.
    f.edit("Grok", |c| c.hp = 5);
    let o = f.hurt("Grok", 20);
    assert_eq!(
        o.lines[2..],
        [
            "Grok — Constitution save (Relentless Rage): d20 [1] + 7 = 8 vs DC 15 — fail (natural 1)",
            "Grok's Relentless Rage fails (DC 15); the next use is DC 20"
        ]
    );
    assert_eq!(f.sheet("Grok").hp, 0);
    // Without the rule: no save at all.
    f.edit("Grok", |c| c.hp = 5);
    f.without("Grok", ClassRule::RelentlessRage);
    let o = f.hurt("Grok", 20);
    assert_eq!(o.lines.len(), 2, "{:?}", o.lines);
    assert_eq!(f.sheet("Grok").hp, 0);
}

const URSA: Hero = (
    "Ursa",
    "barbarian",
    18,
    "Berserker",
    &[],
    [18, 14, 16, 8, 10, 10],
    (5, 5),
);

/// Retaliation (barbarian 14): damaged by the ogre beside it, it swings back with its reaction.
#[test]
fn retaliation_answers_damage_from_a_creature_within_five_feet() {
    let Some(mut f) = Fight::new(5, &[URSA], &[("ogre", "Ogre", (6, 5))]) else {
        return;
    };
    f.arm("Ursa", "Greataxe");
    f.turn_of("Ogre");
    let o = f
        .act(json!({"actorName": "Ogre", "actionType": "attack", "targetName": "Ursa", "weapon": "Greatclub"}))
        .unwrap();
    assert_eq!(o.headline, "Hit! Ursa takes 13 bludgeoning (185 → 172 HP).");
    assert_eq!(
        o.lines[3..],
        [
            "Ursa answers with Retaliation (reaction, melee attack): Hit! Ogre takes 13 slashing (59 → 46 HP).",
            "Ursa attack with Greataxe: d20 [19] + 10 = 29 vs AC 11 — hit",
            "Damage: 1d12[slashing] + 4[slashing]: [9] slashing + 4 slashing = 13 (slashing 13)",
            "Ogre takes 13 (13 slashing); 59 → 46 HP"
        ]
    );
    assert_eq!(f.sheet("Ogre").hp, 46);
    let uid = f.ids["Ursa"].clone();
    assert!(f.enc().combatant(&uid).unwrap().economy.reaction);
    // Its reaction is spent: a second hit this round brings no second swing.
    f.turn_of("Ogre");
    let o = f
        .act(json!({"actorName": "Ogre", "actionType": "attack", "targetName": "Ursa", "weapon": "Greatclub"}))
        .unwrap();
    assert!(
        !o.lines.iter().any(|l| l.contains("Retaliation")),
        "{:?}",
        o.lines
    );
}

/// Persistent Rage (barbarian 15): a turn without attacking or being hurt does not end the rage
/// (it does without the rule); Indomitable Might (18): a Strength check totalling less than the
/// Strength score uses the score.
#[test]
fn persistent_rage_and_indomitable_might() {
    let Some(mut f) = Fight::new(5, &[URSA], &[("ogre", "Ogre", (12, 12))]) else {
        return;
    };
    let rage = |f: &mut Fight| {
        f.turn_of("Ursa");
        f.act(json!({"actorName": "Ursa", "actionType": "use_special_ability", "abilityName": "Rage"}))
            .unwrap();
        f.advance();
        f.sheet("Ursa").effects.iter().any(|e| e.name == "Rage")
    };
    assert!(rage(&mut f));
    f.without("Ursa", ClassRule::PersistentRage);
    assert!(!rage(&mut f));
    let str_check = tabletop_rules::d20::D20Test::AbilityCheck {
        ability: Ability::Strength,
    };
    // 11 + 4 = 15 becomes 18; a 19 + 4 = 23 stays.
    assert_eq!(
        f.check("Ursa", str_check, 20),
        "Ursa — Strength check (Indomitable Might: total 15 becomes the STR score 18): d20 [11] + 7 = 18 vs DC 20 — fail"
    );
    assert_eq!(
        f.check("Ursa", str_check, 20),
        "Ursa — Strength check: d20 [19] + 4 = 23 vs DC 20 — success"
    );
}

const LIN: Hero = (
    "Lin",
    "monk",
    11,
    "Open Hand",
    &[],
    [10, 18, 14, 10, 16, 8],
    (5, 5),
);

/// Deflect Missiles (monk 3): a goblin's arrow loses 1d10 + DEX + monk level; Ki-Empowered
/// Strikes (6): unarmed strikes get past a gargoyle's resistance to nonmagical blows.
#[test]
fn deflect_missiles_and_ki_empowered_strikes() {
    let Some(mut f) = Fight::new(
        11,
        &[LIN],
        &[
            ("goblin", "Goblin", (5, 11)),
            ("gargoyle", "Gargoyle", (6, 5)),
        ],
    ) else {
        return;
    };
    f.turn_of("Goblin");
    let o = f
        .act(json!({"actorName": "Goblin", "actionType": "attack", "targetName": "Lin", "weapon": "Shortbow"}))
        .unwrap();
    assert_eq!(o.headline, "Hit! Lin takes 0 piercing (80 → 80 HP).");
    assert_eq!(
        o.lines[2..4],
        [
            "Lin uses Deflect Missiles (reaction): 1d10 + 15: [1] + 15 = 16 — the damage drops by 16 (4 → 0)",
            "no automation for catching and throwing the missile back (1 ki): the DM decides whether Lin catches it"
        ]
    );
    let lid = f.ids["Lin"].clone();
    assert!(f.enc().combatant(&lid).unwrap().economy.reaction);
    f.turn_of("Lin");
    let o = f
        .act(json!({"actorName": "Lin", "actionType": "attack", "targetName": "Gargoyle", "weapon": "unarmed strike"}))
        .unwrap();
    assert_eq!(
        o.headline,
        "Hit! Gargoyle takes 12 bludgeoning (52 → 40 HP)."
    );
    // Without Ki-Empowered Strikes the gargoyle's resistance halves the blow.
    f.without("Lin", ClassRule::KiEmpoweredStrikes);
    let mut last = None;
    for _ in 0..2 {
        f.turn_of("Lin");
        last = f
            .act(json!({"actorName": "Lin", "actionType": "attack", "targetName": "Gargoyle", "weapon": "unarmed strike"}))
            .ok();
    }
    let o = last.unwrap();
    assert_eq!(
        o.headline,
        "Hit! Gargoyle takes 3 bludgeoning (40 → 37 HP)."
    );
    assert_eq!(
        o.lines[2],
        "Gargoyle is resistant to nonmagical bludgeoning (6 → 3)"
    );
}

const MASTER: Hero = (
    "Master",
    "monk",
    20,
    "Open Hand",
    &[],
    [10, 18, 14, 10, 16, 8],
    (5, 5),
);

/// Perfect Self (monk 20): with no ki left when initiative is rolled, it regains 4.
#[test]
fn perfect_self_regains_four_ki_at_initiative() {
    let Some(mut f) = Fight::new_with(3, &[MASTER], &[("ogre", "Ogre", (12, 12))], |f| {
        f.edit("Master", |c| {
            let ki = c.resources.iter_mut().find(|r| r.name == "Ki").unwrap();
            ki.current = 0;
        })
    }) else {
        return;
    };
    let ki = |f: &mut Fight| {
        let c = f.sheet("Master");
        let k = c.resources.iter().find(|r| r.name == "Ki").unwrap();
        (k.current, k.max)
    };
    assert_eq!(ki(&mut f), (4, 20));
}

const PELL: Hero = (
    "Pell",
    "paladin",
    6,
    "Devotion",
    &[],
    [16, 10, 14, 8, 10, 16],
    (5, 5),
);
const ROOK: Hero = (
    "Rook",
    "fighter",
    5,
    "Champion",
    &[],
    [16, 14, 14, 10, 12, 8],
    (6, 5),
);

/// Aura of Protection (paladin 6): the paladin and a friend within 10 ft add its CHA modifier
/// (+3) to their saves, wherever the save is rolled; out of reach, or with the paladin down, the
/// friend's bonus is gone.
#[test]
fn aura_of_protection_reaches_friends_within_ten_feet() {
    let Some(mut f) = Fight::new(7, &[PELL, ROOK], &[("ogre", "Ogre", (12, 12))]) else {
        return;
    };
    // WIS 10: Pell +3 proficiency +3 aura; Rook +1 (WIS 12) +3 aura.
    assert_eq!(f.save_bonus("Pell", Ability::Wisdom), 6);
    assert_eq!(f.save_bonus("Rook", Ability::Wisdom), 4);
    assert_eq!(
        f.check(
            "Rook",
            tabletop_rules::d20::D20Test::Save {
                ability: Ability::Wisdom
            },
            15
        ),
        "Rook — Wisdom save: d20 [7] + 4 = 11 vs DC 15 — fail"
    );
    f.turn_of("Rook");
    let o = f
        .act(json!({"actorName": "Rook", "actionType": "move", "to": {"x": 9, "y": 5}}))
        .unwrap();
    assert_eq!(
        o.lines,
        ["Rook is no longer within Aura of Protection (Pell)"]
    );
    assert_eq!(f.save_bonus("Rook", Ability::Wisdom), 1);
    let o = f
        .act(json!({"actorName": "Rook", "actionType": "move", "to": {"x": 7, "y": 5}}))
        .unwrap();
    assert_eq!(o.lines, ["Rook is within Aura of Protection (Pell)"]);
    assert_eq!(f.save_bonus("Rook", Ability::Wisdom), 4);
    // A paladin at 0 HP grants nothing.
    f.edit("Pell", |c| c.hp = 1);
    let o = f.act(json!({"actionType": "damage", "targetName": "Pell", "amount": "5", "damageType": "bludgeoning"})).unwrap();
    assert_eq!(
        o.lines.last().unwrap(),
        "Rook is no longer within Aura of Protection (Pell)"
    );
    assert_eq!(f.save_bonus("Rook", Ability::Wisdom), 1);
}

const SERA: Hero = (
    "Sera",
    "paladin",
    18,
    "Devotion",
    &[],
    [16, 10, 14, 8, 10, 18],
    (5, 5),
);

/// Aura Improvements (paladin 18): Aura of Protection (+4) and Aura of Devotion (no charm) reach
/// a friend 25 ft away, not one 35 ft away.
#[test]
fn paladin_18_auras_reach_thirty_feet() {
    let far_rook: Hero = (
        "Rook",
        "fighter",
        5,
        "Champion",
        &[],
        [16, 14, 14, 10, 12, 8],
        (10, 5),
    );
    let Some(mut f) = Fight::new(7, &[SERA, far_rook], &[("ogre", "Ogre", (12, 12))]) else {
        return;
    };
    let r = f.sheet("Rook");
    let names: Vec<String> = r.effects.iter().map(|e| e.name.clone()).collect();
    assert_eq!(names, ["Aura of Protection", "Aura of Devotion"]);
    assert!(r.effective().is_immune_to(Condition::Charmed));
    assert_eq!(f.save_bonus("Rook", Ability::Wisdom), 5);
    assert_eq!(f.save_bonus("Sera", Ability::Wisdom), 10);
    assert!(f.sheet("Sera").effective().is_immune_to(Condition::Charmed));
    f.turn_of("Rook");
    let o = f
        .act(json!({"actorName": "Rook", "actionType": "move", "to": {"x": 12, "y": 5}}))
        .unwrap();
    assert_eq!(
        o.lines,
        [
            "Rook is no longer within Aura of Protection (Sera)",
            "Rook is no longer within Aura of Devotion (Sera)"
        ]
    );
    let r = f.sheet("Rook");
    assert!(r.effects.is_empty() && !r.effective().is_immune_to(Condition::Charmed));
    assert_eq!(f.save_bonus("Rook", Ability::Wisdom), 1);
}

const VESS: Hero = (
    "Vess",
    "ranger",
    11,
    "Hunter",
    &[
        "hunters-prey-colossus-slayer",
        "defensive-tactics-multiattack-defense",
        "multiattack-volley",
    ],
    [12, 18, 14, 10, 14, 8],
    (5, 5),
);

/// Colossus Slayer (ranger 3, Hunter): +1d8 once per turn against a creature below its hit point
/// maximum, none against one at full health.
#[test]
fn colossus_slayer_adds_a_d8_once_per_turn_to_a_hurt_target() {
    let Some(mut f) = Fight::new(13, &[VESS], &[("ogre", "Ogre", (5, 9))]) else {
        return;
    };
    f.arm("Vess", "Longbow");
    f.give("Vess", "Arrow", 20);
    f.turn_of("Vess");
    let shot = json!({"actorName": "Vess", "actionType": "attack", "targetName": "Ogre", "weapon": "Longbow"});
    let o = f.act(shot.clone()).unwrap();
    assert_eq!(o.headline, "Hit! Ogre takes 7 piercing (59 → 52 HP).");
    assert_eq!(
        o.lines[1],
        "No Colossus Slayer: Ogre is at its hit point maximum."
    );
    // Extra Attack: the ogre is hurt now.
    let o = f.act(shot.clone()).unwrap();
    assert_eq!(o.headline, "Hit! Ogre takes 14 piercing (52 → 38 HP).");
    assert_eq!(
        o.lines[1..3],
        [
            "Colossus Slayer: +1d8 (Ogre is below its hit point maximum; once per turn).",
            "Damage: 1d8[piercing] + 4[piercing] + 1d8[piercing]: [7] piercing + 4 piercing + [3] piercing = 14 (piercing 14)"
        ]
    );
    // Once per turn: a further attack this turn (forced past the spent action) adds nothing.
    let o = f
        .act(json!({"actorName": "Vess", "actionType": "attack", "targetName": "Ogre", "weapon": "Longbow", "force": true}))
        .unwrap();
    assert_eq!(o.lines[1], "Colossus Slayer already used this turn.");
    assert_eq!(o.headline, "Hit! Ogre takes 9 piercing (38 → 29 HP).");
}

/// Multiattack Defense (ranger 7, Hunter): once a brown bear's bite hits, its claws face +4 AC.
#[test]
fn multiattack_defense_raises_ac_against_the_same_attacker() {
    let bear = |without: bool| {
        let mut f = Fight::new(27, &[VESS], &[("brown-bear", "Bear", (6, 5))])?;
        if without {
            f.without("Vess", ClassRule::MultiattackDefense);
        }
        f.turn_of("Bear");
        Some(
            f.act(json!({"actorName": "Bear", "actionType": "attack", "targetName": "Vess", "weapon": "Multiattack"}))
                .unwrap(),
        )
    };
    let Some(o) = bear(false) else { return };
    // The bite hits AC 14; the claws' 17 meets AC 18 and misses.
    assert_eq!(
        o.headline,
        "Bear uses Multiattack. Hit! Vess takes 7 piercing (92 → 85 HP). Miss (17 vs AC 18)."
    );
    assert_eq!(
        o.lines[4..],
        [
            "Vess's Multiattack Defense: +4 AC against Bear's further attacks this turn",
            "— Claws → Vess: Miss (17 vs AC 18).",
            "Bear attack with Claws: d20 [12] + 5 = 17 vs AC 18 — miss",
            "Vess's Multiattack Defense: +4 AC against Bear (AC 18)."
        ]
    );
    // The same rolls without the rule: the claws hit.
    let o = bear(true).unwrap();
    assert!(
        o.headline.starts_with(
            "Bear uses Multiattack. Hit! Vess takes 7 piercing (92 → 85 HP). Hit! Vess takes"
        ),
        "{}",
        o.headline
    );
}

const NIM: Hero = (
    "Nim",
    "rogue",
    11,
    "Thief",
    &[],
    [10, 18, 14, 12, 12, 10],
    (5, 5),
);

/// Uncanny Dodge (rogue 5): an ogre's hit deals half; Fast Hands (Thief 3): Use an Object as a
/// bonus action, which a fighter may not.
#[test]
fn uncanny_dodge_and_fast_hands() {
    let Some(mut f) = Fight::new(17, &[NIM, ROOK], &[("ogre", "Ogre", (6, 6))]) else {
        return;
    };
    f.turn_of("Ogre");
    let o = f
        .act(json!({"actorName": "Ogre", "actionType": "attack", "targetName": "Nim", "weapon": "Greatclub"}))
        .unwrap();
    assert_eq!(o.headline, "Hit! Nim takes 5 bludgeoning (80 → 75 HP).");
    assert_eq!(
        o.lines[2],
        "Nim uses Uncanny Dodge (reaction): the attack's damage is halved (11 → 5)"
    );
    assert_eq!(f.sheet("Nim").hp, 75);
    let lock = |who: &str| json!({"actorName": who, "actionType": "use_object", "actionCost": "bonus_action", "description": "picks the chest's lock"});
    f.turn_of("Nim");
    let o = f.act(lock("Nim")).unwrap();
    assert_eq!(o.headline, "Nim uses an object: picks the chest's lock.");
    let eco = o.economy.unwrap();
    assert!(eco.bonus_action && !eco.action && !eco.object_interaction);
    f.turn_of("Rook");
    assert_eq!(
        f.act(lock("Rook")).unwrap_err().to_string(),
        "use_object costs nothing (free) by the rules and no rule lets Rook take it as a bonus action (pass force: true to override as the game master)"
    );
}

/// Reliable Talent (rogue 11): a d20 of 1 on a Stealth check (expertise) counts as 10; a fighter
/// without it keeps the 1. Supreme Sneak (Thief 9): advantage on the Hide check after moving no
/// more than half its speed.
#[test]
fn reliable_talent_and_supreme_sneak() {
    let Some(mut f) = Fight::new(17, &[NIM, ROOK], &[("ogre", "Ogre", (12, 12))]) else {
        return;
    };
    let stealth = tabletop_rules::d20::D20Test::SkillCheck {
        skill: tabletop_rules::Skill::Stealth,
    };
    assert_eq!(
        f.check("Nim", stealth, 15),
        "Nim — Stealth check: d20 [14] + 12 = 26 vs DC 15 — success"
    );
    // A 5 counts as 10: +12 and +5.
    assert_eq!(
        f.check("Nim", stealth, 15),
        "Nim — Stealth check (Reliable Talent: d20 5 counts as 10): d20 [5] + 17 = 22 vs DC 15 — success"
    );
    assert_eq!(
        f.check("Nim", stealth, 15),
        "Nim — Stealth check: d20 [14] + 12 = 26 vs DC 15 — success"
    );
    assert_eq!(
        f.check("Nim", stealth, 15),
        "Nim — Stealth check: d20 [17] + 12 = 29 vs DC 15 — success"
    );
    f.edit("Nim", |c| {
        c.conditions.push(ConditionEntry {
            by: None,
            ends_on: None,
            condition: Condition::Invisible,
            level: None,
            source: "test".into(),
            duration: None,
        })
    });
    f.turn_of("Nim");
    let o = f
        .act(json!({"actorName": "Nim", "actionType": "hide"}))
        .unwrap();
    assert_eq!(
        o.headline,
        "Nim hides (Stealth 25), hidden from Ogre (passive 8)."
    );
    assert_eq!(
        o.lines[0],
        "Nim Stealth (hide): d20 [~~10~~, 13] (advantage: Supreme Sneak (moved 0 ft of 30 ft this turn)) + 12 = 25"
    );
    // After moving 20 ft of its 30, no advantage.
    f.turn_of("Nim");
    f.act(json!({"actorName": "Nim", "actionType": "move", "to": {"x": 9, "y": 5}}))
        .unwrap();
    let o = f
        .act(json!({"actorName": "Nim", "actionType": "hide"}))
        .unwrap();
    assert!(!o.lines[0].contains("advantage"), "{}", o.lines[0]);
}

/// Survivor (champion 18): at the start of its turn with no more than half its hit points it
/// regains 5 + CON; above half, nothing.
#[test]
fn survivor_heals_at_the_start_of_the_turn() {
    let champ: Hero = (
        "Champ",
        "fighter",
        18,
        "Champion",
        &[],
        [16, 14, 16, 10, 12, 8],
        (5, 5),
    );
    let Some(mut f) = Fight::new(3, &[champ], &[("ogre", "Ogre", (12, 12))]) else {
        return;
    };
    assert_eq!(f.sheet("Champ").max_hp, 166);
    f.edit("Champ", |c| c.hp = 60);
    f.turn_of("Ogre");
    let rep = f.advance();
    assert_eq!(
        rep.start_of_turn,
        [
            "Survivor: Champ regains 8 HP at the start of its turn (60 → 68; 5 + CON, at no more than half its 166 HP)"
        ]
    );
    assert_eq!(f.sheet("Champ").hp, 68);
    // Above half: nothing.
    f.edit("Champ", |c| c.hp = 84);
    f.turn_of("Ogre");
    assert!(f.advance().start_of_turn.is_empty());
    assert_eq!(f.sheet("Champ").hp, 84);
}

/// Escape the Horde (ranger 7): the ogre's opportunity attack on the leaving ranger has
/// disadvantage; Feral Senses (18): a hidden goblin gives its attacks no disadvantage.
#[test]
fn escape_the_horde_and_feral_senses() {
    let wild: Hero = (
        "Wild",
        "ranger",
        18,
        "Hunter",
        &[
            "hunters-prey-colossus-slayer",
            "defensive-tactics-escape-the-horde",
            "multiattack-volley",
            "superior-hunters-defense-evasion",
        ],
        [12, 18, 14, 10, 14, 8],
        (5, 5),
    );
    let Some(mut f) = Fight::new(
        3,
        &[wild],
        &[("ogre", "Ogre", (6, 5)), ("goblin", "Goblin", (5, 12))],
    ) else {
        return;
    };
    f.arm("Wild", "Longbow");
    f.give("Wild", "Arrow", 20);
    f.turn_of("Wild");
    let o = f
        .act(json!({"actorName": "Wild", "actionType": "move", "to": {"x": 3, "y": 5}}))
        .unwrap();
    assert_eq!(
        o.lines[1],
        "Opportunity attack: Ogre with Greatclub: d20 [1, ~~8~~] (disadvantage: Escape the Horde (the mover's)) + 6 = 7 vs AC 14 — miss (natural 1)"
    );
    let gid = f.ids["Goblin"].clone();
    f.edit_enc(|e| e.combatant_mut(&gid).unwrap().flags.hidden = Some(30));
    let shot = json!({"actorName": "Wild", "actionType": "attack", "targetName": "Goblin", "weapon": "Longbow"});
    let o = f.act(shot.clone()).unwrap();
    assert_eq!(
        o.lines[0],
        "Wild attack with Longbow: d20 [7] + 10 = 17 vs AC 15 — hit"
    );
    // Without Feral Senses the hidden goblin imposes disadvantage.
    f.without("Wild", ClassRule::FeralSenses);
    let o = f.act(shot).unwrap();
    assert!(
        o.lines[0].contains("(disadvantage: target hidden)"),
        "{}",
        o.lines[0]
    );
    // Vanish (ranger 14): Hide as a bonus action (unseen while invisible).
    f.edit("Wild", |c| {
        c.conditions.push(ConditionEntry {
            by: None,
            ends_on: None,
            condition: Condition::Invisible,
            level: None,
            source: "test".into(),
            duration: None,
        })
    });
    let hide = json!({"actorName": "Wild", "actionType": "hide", "actionCost": "bonus_action"});
    let o = f.act(hide.clone()).unwrap();
    assert_eq!(
        o.cost,
        Some(tabletop_engine::combat::actions::ActionCost::BonusAction)
    );
    f.without("Wild", ClassRule::Vanish);
    f.turn_of("Wild");
    assert!(f.act(hide).unwrap_err().to_string().starts_with(
        "hide costs an action by the rules and no rule lets Wild take it as a bonus action"
    ));
}

/// Frenzy (Berserker 3): while raging, a melee weapon attack as a bonus action; not before the
/// rage, and not for a barbarian without the feature.
#[test]
fn frenzy_gives_a_bonus_action_attack_while_raging() {
    let Some(mut f) = Fight::new(5, &[GROK], &[("ogre", "Ogre", (6, 5))]) else {
        return;
    };
    f.arm("Grok", "Greataxe");
    f.turn_of("Grok");
    let bonus = json!({"actorName": "Grok", "actionType": "attack", "targetName": "Ogre", "weapon": "Greataxe", "actionCost": "bonus_action"});
    assert!(f.act(bonus.clone()).unwrap_err().to_string().starts_with(
        "attack costs an action by the rules and no rule lets Grok take it as a bonus action"
    ));
    f.act(json!({"actorName": "Grok", "actionType": "use_special_ability", "abilityName": "Rage"}))
        .unwrap();
    f.turn_of("Grok");
    let o = f.act(bonus.clone()).unwrap();
    let eco = o.economy.unwrap();
    assert!(eco.bonus_action && !eco.action);
    // Without the feature, raging is not enough.
    f.without("Grok", ClassRule::Frenzy);
    f.edit("Grok", |c| c.features.retain(|x| x != "Frenzy"));
    f.turn_of("Grok");
    assert!(f.act(bonus).is_err());
}

/// Holy Nimbus (Devotion 20): once per long rest, for 10 rounds each hostile creature starting
/// its turn within 30 ft takes 10 radiant; one farther away does not.
#[test]
fn holy_nimbus_burns_enemies_starting_their_turn_near_the_paladin() {
    let avatar: Hero = (
        "Avatar",
        "paladin",
        20,
        "Devotion",
        &[],
        [16, 10, 14, 8, 10, 18],
        (5, 5),
    );
    let Some(mut f) = Fight::new(
        9,
        &[avatar],
        &[("ogre", "Ogre", (9, 5)), ("goblin", "Goblin", (15, 15))],
    ) else {
        return;
    };
    f.turn_of("Avatar");
    let o = f
        .act(json!({"actorName": "Avatar", "actionType": "use_special_ability", "abilityName": "Holy Nimbus"}))
        .unwrap();
    assert_eq!(
        o.headline,
        "Avatar uses Holy Nimbus: 10 radiant to each hostile creature starting its turn within 30 ft, for 10 rounds (aura au1)."
    );
    assert_eq!(o.lines[0], "Holy Nimbus: 0/1 left");
    let rep = f.advance();
    assert_eq!(rep.current.as_deref(), Some("Goblin"));
    assert!(rep.start_of_turn.is_empty(), "{:?}", rep.start_of_turn);
    let rep = f.advance();
    assert_eq!(rep.current.as_deref(), Some("Ogre"));
    assert_eq!(
        rep.start_of_turn,
        ["Holy Nimbus (10: 10 = 10): Ogre takes 10 (10 radiant); 59 → 49 HP"]
    );
    assert_eq!(f.sheet("Ogre").hp, 49);
    assert_eq!(f.sheet("Goblin").hp, 7);
    // Spent until a long rest.
    f.turn_of("Avatar");
    assert!(
        f.act(json!({"actorName": "Avatar", "actionType": "use_special_ability", "abilityName": "Holy Nimbus"}))
            .is_err()
    );
}
