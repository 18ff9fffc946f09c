//! Gear and proficiency through the real tools, with SRD-built characters and pinned dice
//! (issue 16): armor worn without proficiency, heavy armor's Strength rule (dwarves exempt), a
//! Small creature with a heavy weapon, weapon proficiency by the base weapon, the fighting
//! styles, a monk's Martial Arts with monk weapons, magic that works only without armor or a
//! shield (Bracers of Defense) and armor that makes its wearer proficient (Elven Chain).

use super::common;

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::json;
use tabletop_engine::character::CharacterRef;
use tabletop_engine::checks::{CheckOutcome, CheckRequest, WeaponUse, roll_check};
use tabletop_engine::combat::actions::{ActionRequest, ActionType, Who, execute};
use tabletop_engine::creation::{CreateRequest, create_character};
use tabletop_engine::inventory::ops::{GiveRequest, ItemRef, equip, give, unequip, view};
use tabletop_engine::{Engine, EngineOptions, SqliteStore};
use tabletop_rules::Ability;
use tabletop_rules::d20::{D20Outcome, D20Test};
use tabletop_rules::explained::RollMode;
use tabletop_srd::Compendium;

struct Table {
    _dir: tempfile::TempDir,
    e: Engine<SqliteStore>,
}

fn table(srd: Arc<Compendium>) -> Table {
    let dir = tempfile::tempdir().unwrap();
    let store = SqliteStore::open(&dir.path().join("t.sqlite")).unwrap();
    let e = Engine::open(
        store,
        "main",
        EngineOptions {
            seed: Some(7),
            compendium: tabletop_engine::compendium::CompendiumSource::ready(srd),
        },
    )
    .unwrap();
    Table { _dir: dir, e }
}

fn scores(v: [i64; 6]) -> Option<BTreeMap<Ability, i64>> {
    Some(Ability::ALL.iter().copied().zip(v).collect())
}

impl Table {
    fn create(&mut self, req: CreateRequest) -> String {
        self.e
            .write("create_character", &json!({}), |call| {
                create_character(call, req)
            })
            .unwrap()
            .character
            .id
    }

    fn pc(&mut self, name: &str, race: &str, class: &str, s: [i64; 6]) -> String {
        self.create(CreateRequest {
            name: name.into(),
            race: Some(race.into()),
            class: Some(class.into()),
            level: Some(1),
            scores: scores(s),
            ..Default::default()
        })
    }

    fn give_equip(&mut self, id: &str, srd_name: &str) {
        let name = srd_name.to_string();
        self.e
            .write("give", &json!({}), |call| {
                let out = give(
                    call,
                    CharacterRef::new(Some(id), None),
                    GiveRequest {
                        item: None,
                        srd_name: Some(name.clone()),
                        quantity: Some(1),
                        currency: None,
                        silvered: false,
                    },
                )?;
                let item = out.item.unwrap().id;
                equip(
                    call,
                    CharacterRef::new(Some(id), None),
                    ItemRef {
                        id: Some(&item),
                        name: None,
                    },
                    None,
                )
            })
            .unwrap();
    }

    fn leveled(&mut self, name: &str, class: &str, level: u32, s: [i64; 6]) -> String {
        self.create(CreateRequest {
            name: name.into(),
            class: Some(class.into()),
            level: Some(level),
            scores: scores(s),
            ..Default::default()
        })
    }

    fn attune(&mut self, id: &str, name: &str) {
        self.e
            .write("attune", &json!({}), |call| {
                tabletop_engine::inventory::attune::attune(
                    call,
                    CharacterRef::new(Some(id), None),
                    ItemRef {
                        id: None,
                        name: Some(name),
                    },
                )
            })
            .unwrap();
    }

    fn unequip(&mut self, id: &str, name: &str) {
        self.e
            .write("unequip", &json!({}), |call| {
                unequip(
                    call,
                    CharacterRef::new(Some(id), None),
                    Some(ItemRef {
                        id: None,
                        name: Some(name),
                    }),
                    None,
                )
            })
            .unwrap();
    }

    /// The to-hit bonus and damage of an attack with the equipped `weapon`, as
    /// `manage_inventory view` lists them.
    fn weapon(&mut self, id: &str, weapon: &str) -> (i32, String) {
        let v = self
            .e
            .read(|call| view(call, CharacterRef::new(Some(id), None)))
            .unwrap();
        let a = v.attacks.iter().find(|a| a.weapon == weapon).unwrap();
        (a.to_hit, a.damage.clone())
    }

    fn roll(&mut self, id: &str, test: D20Test, weapon: Option<&str>) -> D20Outcome {
        let req = CheckRequest {
            weapon: weapon.map(|w| WeaponUse {
                name: w.into(),
                proficient: None,
                ability: None,
            }),
            ..CheckRequest::of(test)
        };
        match self
            .e
            .write("roll_check", &json!({}), |call| {
                roll_check(call, CharacterRef::new(Some(id), None), &req)
            })
            .unwrap()
        {
            CheckOutcome::Rolled { outcome, .. } => outcome,
            other => panic!("not rolled: {other:?}"),
        }
    }

    fn sheet(&mut self, id: &str) -> tabletop_engine::character::Character {
        self.e
            .read(|call| tabletop_engine::combat::sheet(call, id))
            .unwrap()
    }
}

fn save(a: Ability) -> D20Test {
    D20Test::Save { ability: a }
}

fn check(a: Ability) -> D20Test {
    D20Test::AbilityCheck { ability: a }
}

#[test]
fn armor_without_proficiency_gives_disadvantage_and_stops_spellcasting() {
    let Some(srd) = common::srd("armor_without_proficiency") else {
        return;
    };
    let mut t = table(srd);
    let wiz = t.pc("Mira", "human", "wizard", [8, 14, 12, 16, 12, 10]);
    // Proficient state first: no disadvantage on a DEX save.
    let before = t.roll(&wiz, save(Ability::Dexterity), None);
    assert_eq!(before.mode, RollMode::Normal);
    t.give_equip(&wiz, "Leather Armor");
    let why = "Leather Armor worn without proficiency".to_string();
    for test in [
        save(Ability::Strength),
        save(Ability::Dexterity),
        check(Ability::Strength),
        check(Ability::Dexterity),
    ] {
        let r = t.roll(&wiz, test, None);
        assert_eq!(r.disadvantage, vec![why.clone()], "{test:?}");
        assert_eq!(r.mode, RollMode::Disadvantage);
    }
    // CON and INT are untouched.
    assert_eq!(
        t.roll(&wiz, save(Ability::Constitution), None).mode,
        RollMode::Normal
    );
    assert_eq!(
        t.roll(&wiz, check(Ability::Intelligence), None).mode,
        RollMode::Normal
    );
    // Attack rolls too.
    t.give_equip(&wiz, "Dagger");
    let atk = t.roll(
        &wiz,
        D20Test::Attack {
            ability: None,
            proficient: true,
        },
        Some("Dagger"),
    );
    assert_eq!(atk.disadvantage, vec![why.clone()]);
    // No spellcasting while it is worn (force overrides and says so).
    let cast = |force: bool| ActionRequest {
        actor: Who {
            id: Some(wiz.clone()),
            name: None,
        },
        action_type: Some(ActionType::CastSpell),
        spell: Some("Magic Missile".into()),
        targets: vec![Who {
            id: Some(wiz.clone()),
            name: None,
        }],
        force,
        ..Default::default()
    };
    let r = cast(false);
    let err =
        t.e.write("execute_action", &json!({}), |call| execute(call, &r))
            .unwrap_err()
            .to_string();
    assert!(
        err.contains(
            "Mira wears Leather Armor without proficiency and can't cast spells in it; take it off (manage_inventory unequip) (pass force: true to override as the game master)"
        ),
        "{err}"
    );
    // A fighter in the same armor has no penalty.
    let f = t.pc("Bran", "human", "fighter", [16, 14, 14, 10, 10, 10]);
    t.give_equip(&f, "Leather Armor");
    assert_eq!(
        t.roll(&f, save(Ability::Dexterity), None).mode,
        RollMode::Normal
    );
}

#[test]
fn heavy_armor_strength_rule_and_the_dwarf_exemption() {
    let Some(srd) = common::srd("heavy_armor_strength") else {
        return;
    };
    let mut t = table(srd);
    // A human fighter with STR 13 in plate (STR 15): 30 − 10 = 20 ft.
    let weak = t.pc("Wen", "human", "fighter", [12, 14, 14, 10, 10, 10]);
    t.give_equip(&weak, "Plate Armor");
    let eff = t.sheet(&weak).effective();
    assert_eq!(eff.speed.value, 20);
    assert_eq!(eff.armor_class.value, 18);
    // A hill dwarf fighter with STR 13 (12 + 0 racial) in plate: 25 ft kept (Dwarf speed).
    let dwarf = t.pc("Durin", "dwarf", "fighter", [12, 10, 14, 10, 10, 10]);
    t.give_equip(&dwarf, "Plate Armor");
    let eff = t.sheet(&dwarf).effective();
    assert_eq!(eff.speed.value, 25);
    assert_eq!(eff.armor_class.value, 18);
    // A strong human (STR 15) keeps 30 ft.
    let strong = t.pc("Hale", "human", "fighter", [14, 10, 14, 10, 10, 10]);
    t.give_equip(&strong, "Plate Armor");
    assert_eq!(t.sheet(&strong).effective().speed.value, 30);
}

#[test]
fn small_creature_with_a_heavy_weapon_has_disadvantage() {
    let Some(srd) = common::srd("small_heavy_weapon") else {
        return;
    };
    let mut t = table(srd);
    let pip = t.pc("Pip", "halfling", "fighter", [16, 12, 14, 10, 10, 10]);
    t.give_equip(&pip, "Greatsword");
    let atk = t.roll(
        &pip,
        D20Test::Attack {
            ability: None,
            proficient: true,
        },
        Some("Greatsword"),
    );
    assert_eq!(
        atk.disadvantage,
        vec!["Greatsword is heavy and Pip is Small".to_string()]
    );
    // A human with the same sword: none.
    let hum = t.pc("Hal", "human", "fighter", [16, 12, 14, 10, 10, 10]);
    t.give_equip(&hum, "Greatsword");
    let atk = t.roll(
        &hum,
        D20Test::Attack {
            ability: None,
            proficient: true,
        },
        Some("Greatsword"),
    );
    assert!(atk.disadvantage.is_empty(), "{:?}", atk.disadvantage);
}

fn attack_modifiers(o: &D20Outcome) -> Vec<(String, i32)> {
    o.modifiers
        .iter()
        .map(|c| (c.source.to_string(), c.delta))
        .collect()
}

#[test]
fn weapon_proficiency_follows_the_base_weapon() {
    let Some(srd) = common::srd("weapon_proficiency_base") else {
        return;
    };
    let mut t = table(srd);
    // A wizard (daggers, darts, slings, quarterstaffs, light crossbows) with a Longsword +1:
    // no proficiency bonus; with a Dagger +1: proficient.
    let wiz = t.pc("Mira", "human", "wizard", [14, 14, 12, 16, 12, 10]);
    t.give_equip(&wiz, "Longsword +1");
    let atk = t.roll(
        &wiz,
        D20Test::Attack {
            ability: None,
            proficient: true,
        },
        Some("Longsword +1"),
    );
    assert_eq!(
        attack_modifiers(&atk),
        vec![
            ("STR modifier".to_string(), 2),
            ("Longsword +1".to_string(), 1)
        ]
    );
    // An elf wizard: Elf Weapon Training makes the same Longsword +1 proficient.
    let elf = t.create(CreateRequest {
        name: "Lia".into(),
        race: Some("elf".into()),
        subrace: Some("high elf".into()),
        class: Some("wizard".into()),
        level: Some(1),
        scores: scores([14, 14, 12, 16, 12, 10]),
        ..Default::default()
    });
    t.give_equip(&elf, "Longsword +1");
    let atk = t.roll(
        &elf,
        D20Test::Attack {
            ability: None,
            proficient: true,
        },
        Some("Longsword +1"),
    );
    assert_eq!(
        attack_modifiers(&atk),
        vec![
            ("STR modifier".to_string(), 2),
            ("proficiency".to_string(), 2),
            ("Longsword +1".to_string(), 1)
        ]
    );
    // A light crossbow ("Crossbow, light") is on the wizard's list.
    t.give_equip(&wiz, "Crossbow, light");
    let atk = t.roll(
        &wiz,
        D20Test::Attack {
            ability: None,
            proficient: true,
        },
        Some("Crossbow, light"),
    );
    assert_eq!(
        attack_modifiers(&atk),
        vec![
            ("DEX modifier".to_string(), 2),
            ("proficiency".to_string(), 2)
        ]
    );
}

#[test]
fn racial_save_advantages_apply_to_spell_saves() {
    let Some(srd) = common::srd("racial_save_advantage") else {
        return;
    };
    let mut t = table(srd);
    let wiz = t.pc("Mira", "human", "wizard", [8, 14, 12, 16, 12, 10]);
    common::learn_class_list(&mut t.e, &wiz);
    let dwarf = t.create(CreateRequest {
        name: "Durin".into(),
        race: Some("dwarf".into()),
        subrace: Some("hill dwarf".into()),
        class: Some("fighter".into()),
        level: Some(1),
        scores: scores([16, 10, 14, 10, 10, 10]),
        ..Default::default()
    });
    let elf = t.pc("Lia", "elf", "fighter", [16, 10, 14, 10, 10, 10]);
    let human = t.pc("Hal", "human", "fighter", [16, 10, 14, 10, 10, 10]);
    let cast = |t: &mut Table, spell: &str, target: &str| {
        let r = ActionRequest {
            actor: Who {
                id: Some(wiz.clone()),
                name: None,
            },
            action_type: Some(ActionType::CastSpell),
            spell: Some(spell.into()),
            targets: vec![Who {
                id: Some(target.to_string()),
                name: None,
            }],
            ..Default::default()
        };
        let out =
            t.e.write("execute_action", &json!({}), |call| execute(call, &r))
                .unwrap();
        out.details.clone()
    };
    let out = cast(&mut t, "Poison Spray", &dwarf);
    assert_eq!(
        out["targets"][0]["save"],
        "Constitution save vs Poison Spray: d20 [20, ~~5~~] (advantage: Dwarven Resilience (hill dwarf): poison) + 5 = 25 vs DC 13 — success (natural 20)"
    );
    let out = cast(&mut t, "Charm Person", &elf);
    let save = out["targets"][0]["save"].as_str().unwrap();
    assert!(
        save.starts_with("Wisdom save vs Charm Person: d20 [")
            && save.contains("(advantage: Fey Ancestry (elf): charmed)"),
        "{out}"
    );
    let out = cast(&mut t, "Poison Spray", &human);
    let save = out["targets"][0]["save"].as_str().unwrap();
    assert!(!save.contains("advantage"), "{out}");
}

fn attack() -> D20Test {
    D20Test::Attack {
        ability: None,
        proficient: true,
    }
}

/// The Martial Arts die of a monk of `level`, from the SRD's class table.
fn martial_arts_die(srd: &Compendium, level: u8) -> u64 {
    srd.class_level("monk", level).unwrap().class_specific["martial_arts"]["dice_value"]
        .as_u64()
        .unwrap()
}

#[test]
fn martial_arts_uses_dex_and_the_monk_die_with_monk_weapons() {
    let Some(srd) = common::srd("martial_arts_monk_weapons") else {
        return;
    };
    // The SRD's Martial Arts die: d6 at monk 5, d10 at monk 17.
    assert_eq!(martial_arts_die(&srd, 5), 6);
    assert_eq!(martial_arts_die(&srd, 17), 10);
    let mut t = table(srd);
    // STR 12 (+1), DEX 16 (+3), proficiency +3 at 5th level.
    let mo = t.leveled("Mo", "monk", 5, [12, 16, 12, 10, 14, 10]);
    t.give_equip(&mo, "Quarterstaff");
    // A quarterstaff is a simple melee weapon without two-handed or heavy: DEX, the better;
    // held in both hands its versatile d8 beats the d6 of Martial Arts.
    assert_eq!(
        t.weapon(&mo, "Quarterstaff"),
        (6, "1d8[bludgeoning] + 3[bludgeoning]".to_string())
    );
    let atk = t.roll(&mo, attack(), Some("Quarterstaff"));
    assert_eq!(
        attack_modifiers(&atk),
        vec![
            ("DEX modifier".to_string(), 3),
            ("proficiency".to_string(), 3)
        ]
    );
    // A club's d4 gives way to the d6.
    let club = t.leveled("Cub", "monk", 5, [12, 16, 12, 10, 14, 10]);
    t.give_equip(&club, "Club");
    assert_eq!(
        t.weapon(&club, "Club"),
        (6, "1d6[bludgeoning] + 3[bludgeoning]".to_string())
    );
    // A greatclub is two-handed: no monk weapon, Strength and its own d8.
    let great = t.leveled("Gus", "monk", 5, [12, 16, 12, 10, 14, 10]);
    t.give_equip(&great, "Greatclub");
    assert_eq!(
        t.weapon(&great, "Greatclub"),
        (4, "1d8[bludgeoning] + 1[bludgeoning]".to_string())
    );
    // A shortsword is a monk weapon too (martial, finesse already): d6 either way.
    let sword = t.leveled("Sol", "monk", 5, [12, 16, 12, 10, 14, 10]);
    t.give_equip(&sword, "Shortsword");
    assert_eq!(
        t.weapon(&sword, "Shortsword"),
        (6, "1d6[piercing] + 3[piercing]".to_string())
    );
    // Monk 17 (proficiency +6): the d10 beats the quarterstaff's d8.
    let old = t.leveled("Ora", "monk", 17, [12, 16, 12, 10, 14, 10]);
    t.give_equip(&old, "Quarterstaff");
    assert_eq!(
        t.weapon(&old, "Quarterstaff"),
        (9, "1d10[bludgeoning] + 3[bludgeoning]".to_string())
    );
    // In armor Martial Arts stops: Strength and the staff's own die (and no proficiency with
    // leather armor: disadvantage).
    t.give_equip(&mo, "Leather Armor");
    assert_eq!(
        t.weapon(&mo, "Quarterstaff"),
        (4, "1d8[bludgeoning] + 1[bludgeoning]".to_string())
    );
    // A fighter with the same staff and scores attacks with Strength.
    let f = t.leveled("Fen", "fighter", 5, [12, 16, 12, 10, 14, 10]);
    t.give_equip(&f, "Quarterstaff");
    assert_eq!(
        t.weapon(&f, "Quarterstaff"),
        (4, "1d8[bludgeoning] + 1[bludgeoning]".to_string())
    );
}

#[test]
fn bracers_of_defense_work_only_without_armor_or_shield() {
    let Some(srd) = common::srd("bracers_of_defense") else {
        return;
    };
    // The SRD's numbers: a shield +2, chain mail 16 (no DEX).
    let base_ac = |name: &str| {
        srd.equipment(name)
            .and_then(|e| e.armor.as_ref())
            .map(|a| a.base_ac)
    };
    assert_eq!(base_ac("Shield"), Some(2));
    assert_eq!(base_ac("Chain Mail"), Some(16));
    let mut t = table(srd);
    // A fighter with DEX 14: 12 unarmored.
    let f = t.pc("Bram", "human", "fighter", [15, 13, 14, 10, 10, 10]);
    let ac = |t: &mut Table| t.sheet(&f).effective().armor_class.value;
    assert_eq!(ac(&mut t), 12);
    t.give_equip(&f, "Bracers of Defense");
    t.attune(&f, "Bracers of Defense");
    assert_eq!(ac(&mut t), 14);
    // With a shield the bracers stop: 12 + 2 for the shield, and the sheet says why.
    t.give_equip(&f, "Shield");
    assert_eq!(ac(&mut t), 14);
    let eff = t.sheet(&f).effective();
    assert!(
        eff.notes.iter().any(|n| n.source == "Bracers of Defense"
            && n.text == "no effect: it works only while wearing no armor and using no shield"),
        "{:?}",
        eff.notes
    );
    // In chain mail, shield off: 16.
    t.unequip(&f, "Shield");
    t.give_equip(&f, "Chain Mail");
    assert_eq!(ac(&mut t), 16);
    // Armor off again: the +2 is back.
    t.unequip(&f, "Chain Mail");
    assert_eq!(ac(&mut t), 14);
}

#[test]
fn elven_chain_is_worn_with_proficiency_by_anyone() {
    let Some(srd) = common::srd("elven_chain") else {
        return;
    };
    let mut t = table(srd);
    // A wizard has no medium armor proficiency: a plain chain shirt gives disadvantage.
    let plain = t.pc("Mira", "human", "wizard", [8, 14, 12, 16, 12, 10]);
    t.give_equip(&plain, "Chain Shirt");
    assert_eq!(
        t.roll(&plain, save(Ability::Dexterity), None).disadvantage,
        vec!["Chain Shirt worn without proficiency".to_string()]
    );
    // Elven Chain (a chain shirt, +1): proficient, no disadvantage; AC 13 + DEX 2 + 1.
    let wiz = t.pc("Ilse", "human", "wizard", [8, 14, 12, 16, 12, 10]);
    t.give_equip(&wiz, "Elven Chain");
    for test in [
        save(Ability::Strength),
        save(Ability::Dexterity),
        check(Ability::Dexterity),
    ] {
        let r = t.roll(&wiz, test, None);
        assert!(r.disadvantage.is_empty(), "{test:?}: {:?}", r.disadvantage);
        assert_eq!(r.mode, RollMode::Normal);
    }
    assert_eq!(t.sheet(&wiz).effective().armor_class.value, 16);
}
