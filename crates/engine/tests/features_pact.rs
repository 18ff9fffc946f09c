//! Warlock and wizard features through the real tools (skipped without TABLETOP_SRD_DIR), SRD-built
//! characters, SRD monsters, pinned seeds: spells cast through invocations and Mystic Arcanum
//! (no slot, or a warlock slot once per long rest), eldritch blast's invocations, the Fiend's
//! features, and the School of Evocation's spell shaping.

use super::common;
use super::spell_support::{E, act, cast, engine, fight, id_of, monster, pc, sheet, who};

use tabletop_engine::character::CharacterRef;
use tabletop_engine::combat::actions::{ActionRequest, ActionType};
use tabletop_engine::creation::{
    AbilityMethod, ClassRequest, CreateMode, CreateRequest, create_character,
};
use tabletop_engine::rest::{RestKind, take_rest};
use tabletop_grid::Position;
use tabletop_rules::{Ability, DamageType};

/// An SRD-built character: STR 10, DEX 14, CON 14, INT 16, WIS 10, CHA 16.
fn make(
    e: &mut E,
    name: &str,
    class: &str,
    level: u32,
    subclass: Option<&str>,
    options: &[&str],
    spells: &[&str],
) -> String {
    let req = CreateRequest {
        name: name.into(),
        method: AbilityMethod::Manual,
        scores: Some(
            Ability::ALL
                .iter()
                .copied()
                .zip([10, 14, 14, 16, 10, 16])
                .collect(),
        ),
        classes: vec![ClassRequest {
            class: class.into(),
            level,
            subclass: subclass.map(str::to_string),
        }],
        options: options.iter().map(|s| s.to_string()).collect(),
        spells: spells.iter().map(|s| s.to_string()).collect(),
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

fn long_rest(e: &mut E, id: &str) {
    e.write("take_rest", &serde_json::json!({}), |call| {
        take_rest(call, CharacterRef::new(Some(id), None), RestKind::Long, 0)
    })
    .unwrap();
}

fn resource(e: &mut E, id: &str, name: &str) -> u32 {
    sheet(e, id)
        .resources
        .iter()
        .find(|r| r.name == name)
        .map(|r| r.current)
        .unwrap_or_else(|| panic!("no {name}"))
}

fn pact_used(e: &mut E, id: &str) -> u8 {
    sheet(e, id).spell_slots.pact.unwrap().used
}

fn feature(e: &mut E, actor: &str, name: &str, f: impl FnOnce(&mut ActionRequest)) -> String {
    let mut req = ActionRequest {
        actor: who(actor),
        action_type: Some(ActionType::UseSpecialAbility),
        ability_name: Some(name.into()),
        ..Default::default()
    };
    f(&mut req);
    let out = act(e, req).unwrap();
    format!("{} | {}", out.headline, out.lines.join(" | "))
}

const WARLOCK_SPELLS: &[&str] = &[
    "Eldritch Blast",
    "Chill Touch",
    "Charm Person",
    "Hold Person",
];

#[test]
fn invocation_spells_are_cast_without_a_slot_or_once_with_a_warlock_slot() {
    let Some(srd) = common::srd("invocation_spells") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 11);
    let v = make(
        &mut e,
        "Vell",
        "warlock",
        5,
        Some("Fiend"),
        &[
            "eldritch-invocation-mask-of-many-faces",
            "eldritch-invocation-mire-the-mind",
            "eldritch-invocation-fiendish-vigor",
            "pact-of-the-chain",
        ],
        WARLOCK_SPELLS,
    );
    // Outside a fight: Disguise Self at will (not a known spell), no slot.
    let out = cast(&mut e, &v, "Disguise Self", |_| {}).unwrap();
    assert!(
        out.lines.contains(
            &"Disguise Self cast through Mask Of Many Faces: no spell slot spent, at will".into()
        ),
        "{:?}",
        out.lines
    );
    assert_eq!(pact_used(&mut e, &v), 0);
    // Fiendish Vigor: False Life on itself as a 1st-level spell, 1d4+4 temporary HP.
    let out = cast(&mut e, &v, "False Life", |_| {}).unwrap();
    assert!(
        out.lines.contains(
            &"False Life cast through Fiendish Vigor: cast at 1st level, no spell slot spent, at will"
                .into()
        ),
        "{:?}",
        out.lines
    );
    let temp = sheet(&mut e, &v).temp_hp;
    // 1d4 + 4 with the pinned seed.
    assert_eq!(temp, 7);
    assert_eq!(pact_used(&mut e, &v), 0);
    // Pact of the Chain: Find Familiar with no slot.
    let out = cast(&mut e, &v, "Find Familiar", |_| {}).unwrap();
    assert!(
        out.lines
            .iter()
            .any(|l| l
                == "Find Familiar cast through Pact of the Chain: no spell slot spent, at will"),
        "{:?}",
        out.lines
    );
    assert_eq!(pact_used(&mut e, &v), 0);
    // Mire the Mind: Slow once per long rest with a warlock slot, in a fight.
    let order = fight(
        &mut e,
        vec![pc(&v, 0, 0, 20), monster("goblin", 2, &[(12, 0), (13, 0)])],
    );
    let g1 = id_of(&order, "Goblin 1");
    assert_eq!(sheet(&mut e, &g1).name, "Goblin 1");
    let out = cast(&mut e, &v, "Slow", |r| {
        r.to = Some(Position::new(12, 0));
        r.direction = Some("e".into());
    })
    .unwrap();
    assert!(
        out.lines.contains(
            &"Slow cast through Mire The Mind: with a 3rd-level warlock slot, Mire the Mind: 0/1 left (back on a long rest)".into()
        ) && out.lines.contains(&"Goblin 2 — Wisdom save vs Slow: d20 [11] - 1 = 10 vs DC 14 — fail".into()),
        "{:?}",
        out.lines
    );
    assert_eq!(pact_used(&mut e, &v), 1);
    assert_eq!(resource(&mut e, &v, "Mire the Mind"), 0);
    // Used: refused until a long rest (Slow is not a spell Vell knows).
    tabletop_engine_end(&mut e);
    let err = cast(&mut e, &v, "Slow", |r| {
        r.targets = vec![who(&g1)];
    })
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("Vell has used Mire The Mind (Slow once); it returns on a long rest"),
        "{err}"
    );
    long_rest(&mut e, &v);
    assert_eq!(resource(&mut e, &v, "Mire the Mind"), 1);
    assert_eq!(pact_used(&mut e, &v), 0);
}

/// Ends the encounter so rests are allowed.
fn tabletop_engine_end(e: &mut E) {
    e.write("end_encounter", &serde_json::json!({}), |call| {
        tabletop_engine::combat::end::end_encounter(
            call,
            &tabletop_engine::combat::end::EndRequest::default(),
        )
    })
    .unwrap();
}

#[test]
fn eldritch_blast_invocations_add_cha_per_beam_push_and_reach_300_ft_and_a_kill_blesses() {
    let Some(srd) = common::srd("eldritch_blast_invocations") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 5);
    let v = make(
        &mut e,
        "Vell",
        "warlock",
        5,
        Some("Fiend"),
        &[
            "eldritch-invocation-agonizing-blast",
            "eldritch-invocation-repelling-blast",
            "eldritch-invocation-eldritch-spear",
            "pact-of-the-tome",
        ],
        WARLOCK_SPELLS,
    );
    let order = super::spell_support::fight_on(
        &mut e,
        vec![
            pc(&v, 0, 0, 20),
            monster("ogre", 1, &[(26, 0)]),
            monster("goblin", 1, &[(2, 0)]),
        ],
        tabletop_engine::combat::create::TerrainSpec {
            width: Some(40),
            ..Default::default()
        },
    );
    let ogre = id_of(&order, "Ogre");
    let out = cast(&mut e, &v, "Eldritch Blast", |r| {
        r.targets = vec![who(&ogre)];
    })
    .unwrap();
    // Two beams, each 1d10 + CHA 3, each pushing the (large) ogre 10 ft; 130 ft is beyond the
    // 120 ft the spell has without Eldritch Spear.
    for l in [
        "Vell — Eldritch Blast spell attack vs Ogre: d20 [19] + 6 = 25 vs AC 11 — hit",
        "Damage to Ogre: 1d10 + 3: [8] + 3 = 11",
        "Ogre takes 11 (11 force); 59 → 48 HP",
        "Damage to Ogre: 1d10 + 3: [5] + 3 = 8",
        "Ogre takes 8 (8 force); 48 → 40 HP",
        "Ogre is pushed 10 ft away from Vell, to (28, 0)",
        "Ogre is pushed 10 ft away from Vell, to (30, 0)",
        "Agonizing Blast: +3 to each hit's damage",
        "Eldritch Spear: Eldritch Blast's range is 300 ft",
    ] {
        assert!(out.lines.contains(&l.to_string()), "{l}: {:?}", out.lines);
    }
    assert_eq!(
        super::spell_support::position(&mut e, &ogre),
        Some(Position::new(30, 0))
    );
    assert_eq!(sheet(&mut e, &ogre).hp, 40);
    // Next turn: the goblin drops; Dark One's Blessing gives CHA 3 + warlock 5 temporary HP.
    super::spell_support::advance(&mut e);
    while super::spell_support::encounter(&mut e)
        .current()
        .is_none_or(|c| c.character_id != v)
    {
        super::spell_support::advance(&mut e);
    }
    let gob = id_of(&order, "Goblin");
    let out = cast(&mut e, &v, "Eldritch Blast", |r| {
        r.targets = vec![who(&gob)];
    })
    .unwrap();
    for l in [
        "Goblin takes 6 (6 force); 7 → 1 HP",
        "Goblin takes 11 (11 force); 1 → 0 HP; dies",
        "Dark One's Blessing: Vell drops Goblin and gains 8 temporary HP",
        // The first beam pushes; the dead goblin is not pushed by the second.
        "Goblin is pushed 10 ft away from Vell, to (4, 0)",
        "Goblin is dead; the body lies at (4, 0) (out of the initiative; revival brings it back there).",
    ] {
        assert!(out.lines.contains(&l.to_string()), "{l}: {:?}", out.lines);
    }
    assert_eq!(sheet(&mut e, &v).temp_hp, 8);
}

#[test]
fn the_fiends_features_resist_hurl_and_luck_and_eldritch_master_regains_pact_slots() {
    let Some(srd) = common::srd("fiend_features") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 3);
    let v = make(
        &mut e,
        "Vell",
        "warlock",
        14,
        Some("Fiend"),
        &["pact-of-the-blade"],
        WARLOCK_SPELLS,
    );
    let order = fight(
        &mut e,
        vec![pc(&v, 0, 0, 20), monster("ogre", 1, &[(1, 0)])],
    );
    let ogre = id_of(&order, "Ogre");
    // Fiendish Resilience: resistance to the type named, in the effective sheet.
    let out = feature(&mut e, &v, "Fiendish Resilience", |r| {
        r.damage_type = Some(DamageType::Fire)
    });
    assert!(
        out.starts_with(
            "Vell uses Fiendish Resilience: resistant to fire damage until it chooses again."
        ),
        "{out}"
    );
    assert!(
        sheet(&mut e, &v)
            .effective()
            .defenses
            .resistance(Some(DamageType::Fire))
            .is_some()
    );
    // Chosen again: cold replaces fire.
    feature(&mut e, &v, "Fiendish Resilience", |r| {
        r.damage_type = Some(DamageType::Cold)
    });
    let eff = sheet(&mut e, &v).effective();
    assert!(eff.defenses.resistance(Some(DamageType::Cold)).is_some());
    assert!(eff.defenses.resistance(Some(DamageType::Fire)).is_none());
    // Hurl Through Hell: 10d10 psychic to the creature hit, once per long rest.
    let out = feature(&mut e, &v, "Hurl Through Hell", |r| {
        r.targets = vec![who(&ogre)]
    });
    assert_eq!(
        out,
        "Vell uses Hurl Through Hell: Ogre takes 52 psychic (59 → 7 HP). | Hurl Through Hell: 0/1 left | Hurl Through Hell damage: 10d10: [9, 1, 8, 7, 5, 2, 9, 1, 4, 6] = 52 | Ogre takes 52 (52 psychic); 59 → 7 HP"
    );
    assert_eq!(sheet(&mut e, &ogre).hp, 7);
    assert_eq!(resource(&mut e, &v, "Hurl Through Hell"), 0);
    // Dark One's Own Luck: +1d10 on checks and saves, once per rest.
    let out = feature(&mut e, &v, "Dark One's Own Luck", |_| {});
    assert_eq!(
        out,
        "Vell uses Dark One's Own Luck. | Dark One's Own Luck: 0/1 left | for 1 round(s): +1d10 to ability checks; +1d10 to saving throws"
    );
    assert_eq!(resource(&mut e, &v, "Dark One's Own Luck"), 0);
    // Dark One's Blessing on a weapon kill: the ogre at 1 HP, an unarmed strike drops it.
    e.write("update_character", &serde_json::json!({}), |call| {
        tabletop_engine::update::update_character(
            call,
            CharacterRef::new(Some(&ogre), None),
            tabletop_engine::update::UpdateRequest {
                hp: Some(tabletop_engine::update::HpChange::Set(1)),
                ..Default::default()
            },
        )
    })
    .unwrap();
    let out = act(
        &mut e,
        ActionRequest {
            actor: who(&v),
            action_type: Some(ActionType::Attack),
            targets: vec![who(&ogre)],
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(
        out.headline,
        "Hit! Ogre takes 1 bludgeoning (1 → 0 HP) and dies."
    );
    assert_eq!(
        out.lines.last().unwrap(),
        "Dark One's Blessing: Vell drops Ogre and gains 17 temporary HP"
    );
    // CHA 3 + warlock 14.
    assert_eq!(sheet(&mut e, &v).temp_hp, 17);
}

#[test]
fn eldritch_master_regains_every_pact_slot_once_per_long_rest() {
    let Some(srd) = common::srd("eldritch_master") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 3);
    let v = make(
        &mut e,
        "Vell",
        "warlock",
        20,
        Some("Fiend"),
        &[],
        WARLOCK_SPELLS,
    );
    let order = fight(
        &mut e,
        vec![pc(&v, 0, 0, 20), monster("goblin", 1, &[(3, 0)])],
    );
    let g = id_of(&order, "Goblin");
    cast(&mut e, &v, "Hold Person", |r| r.targets = vec![who(&g)]).unwrap();
    assert_eq!(pact_used(&mut e, &v), 1);
    let out = feature(&mut e, &v, "Eldritch Master", |_| {});
    assert_eq!(
        out,
        "Vell uses Eldritch Master: regains 1 expended warlock slot. | Eldritch Master: 0/1 left | pact slots: pact (5th) 4/4"
    );
    assert_eq!(pact_used(&mut e, &v), 0);
    assert_eq!(resource(&mut e, &v, "Eldritch Master"), 0);
}

#[test]
fn mystic_arcanum_casts_its_one_spell_once_per_long_rest_without_a_slot() {
    let Some(srd) = common::srd("mystic_arcanum") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 9);
    let mut spells = WARLOCK_SPELLS.to_vec();
    spells.push("Circle of Death");
    let v = make(&mut e, "Vell", "warlock", 11, Some("Fiend"), &[], &spells);
    let order = fight(
        &mut e,
        vec![pc(&v, 0, 0, 20), monster("goblin", 2, &[(15, 0), (16, 0)])],
    );
    let _ = id_of(&order, "Goblin 1");
    let out = cast(&mut e, &v, "Circle of Death", |r| {
        r.to = Some(Position::new(16, 0))
    })
    .unwrap();
    for l in [
        "Circle of Death damage: 8d6: [4, 5, 5, 1, 5, 3, 2, 6] = 31",
        "Goblin 1 takes 31 (31 necrotic); 7 → 0 HP; dies",
        "Circle of Death cast through Mystic Arcanum (6th level): cast at 6th level, no spell slot spent, Mystic Arcanum (6th level): 0/1 left (back on a long rest)",
    ] {
        assert!(out.lines.contains(&l.to_string()), "{l}: {:?}", out.lines);
    }
    assert_eq!(pact_used(&mut e, &v), 0);
    assert_eq!(resource(&mut e, &v, "Mystic Arcanum (6th level)"), 0);
    // Once per long rest: no 6th-level slot to fall back on.
    next_turn(&mut e, &v);
    let err = cast(&mut e, &v, "Circle of Death", |r| {
        r.to = Some(Position::new(16, 0))
    })
    .unwrap_err()
    .to_string();
    assert!(err.contains("Vell has no 6th-level slot left"), "{err}");
    // One arcanum spell per level: a second 6th-level spell is refused.
    let mut two = spells.clone();
    two.push("Eyebite");
    let req = CreateRequest {
        name: "Wren".into(),
        method: AbilityMethod::Manual,
        scores: Some(
            Ability::ALL
                .iter()
                .copied()
                .zip([10, 14, 14, 16, 10, 16])
                .collect(),
        ),
        classes: vec![ClassRequest {
            class: "warlock".into(),
            level: 11,
            subclass: Some("Fiend".into()),
        }],
        spells: two.iter().map(|s| s.to_string()).collect(),
        mode: CreateMode::Create,
        ..Default::default()
    };
    let err = e
        .write("create_character", &serde_json::json!({}), |call| {
            create_character(call, req)
        })
        .unwrap_err()
        .to_string();
    assert!(
        err.contains(
            "Eyebite is a second level-6 spell; Mystic Arcanum gives one spell of that level"
        ),
        "{err}"
    );
}

#[test]
fn pact_of_the_tome_knows_three_cantrips_of_any_list() {
    let Some(srd) = common::srd("pact_of_the_tome") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 9);
    // Warlock 3 knows 2 cantrips; the Book of Shadows adds three from any list.
    let v = make(
        &mut e,
        "Vell",
        "warlock",
        3,
        Some("Fiend"),
        &["pact-of-the-tome"],
        &[
            "Eldritch Blast",
            "Chill Touch",
            "Sacred Flame",
            "Fire Bolt",
            "Guidance",
            "Hold Person",
        ],
    );
    let order = fight(
        &mut e,
        vec![pc(&v, 0, 0, 20), monster("goblin", 1, &[(3, 0)])],
    );
    let g = id_of(&order, "Goblin");
    let out = cast(&mut e, &v, "Sacred Flame", |r| r.targets = vec![who(&g)]).unwrap();
    assert_eq!(
        out.headline,
        "Sacred Flame (cantrip): Goblin takes 8 radiant (7 → 0 HP) and dies."
    );
    // Without the pact, an off-list cantrip is refused at creation.
    let req = CreateRequest {
        name: "Wren".into(),
        method: AbilityMethod::Manual,
        scores: Some(
            Ability::ALL
                .iter()
                .copied()
                .zip([10, 14, 14, 16, 10, 16])
                .collect(),
        ),
        classes: vec![ClassRequest {
            class: "warlock".into(),
            level: 3,
            subclass: Some("Fiend".into()),
        }],
        options: vec!["pact-of-the-blade".into()],
        spells: vec!["Eldritch Blast".into(), "Sacred Flame".into()],
        mode: CreateMode::Create,
        ..Default::default()
    };
    let err = e
        .write("create_character", &serde_json::json!({}), |call| {
            create_character(call, req)
        })
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("Sacred Flame is not on the warlock spell list"),
        "{err}"
    );
}

#[test]
fn evocation_sculpts_its_allies_empowers_its_damage_and_its_cantrips_are_potent() {
    let Some(srd) = common::srd("evocation") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 4);
    let w = make(
        &mut e,
        "Aria",
        "wizard",
        10,
        Some("Evocation"),
        &[],
        &[
            "Fireball",
            "Acid Splash",
            "Poison Spray",
            "Fire Bolt",
            "Magic Missile",
            "Shield",
        ],
    );
    let b = make(&mut e, "Brom", "fighter", 10, Some("Champion"), &[], &[]);
    let order = fight(
        &mut e,
        vec![
            pc(&w, 0, 0, 20),
            pc(&b, 8, 0, 15),
            monster("ogre", 1, &[(9, 1)]),
            monster("goblin", 1, &[(7, 0)]),
            monster("hill-giant", 1, &[(0, 1)]),
        ],
    );
    let ogre = id_of(&order, "Ogre");
    let brom_hp = sheet(&mut e, &b).hp;
    let out = cast(&mut e, &w, "Fireball", |r| r.to = Some(Position::new(8, 0))).unwrap();
    // One 8d6 roll + INT 3 (Empowered Evocation); Brom, an ally in the area, is sculpted out;
    // the goblin's save halves the empowered total.
    assert_eq!(
        out.lines[..7],
        [
            "Fireball damage: 8d6: [5, 1, 5, 1, 6, 6, 6, 2] = 32",
            "Empowered Evocation: +3 → 35",
            "Brom is sculpted out of Fireball (Sculpt Spells): it succeeds on the save and takes no damage",
            "Ogre — Dexterity save vs Fireball: d20 [13] - 1 = 12 vs DC 15 — fail",
            "Ogre takes 35 (35 fire); 59 → 24 HP",
            "Goblin — Dexterity save vs Fireball: d20 [15] + 2 = 17 vs DC 15 — success",
            "Goblin takes 17 (17 fire); 7 → 0 HP; dies",
        ]
    );
    assert_eq!(sheet(&mut e, &b).hp, brom_hp);
    assert_eq!(sheet(&mut e, &ogre).hp, 24);
    // Potent Cantrip: the orc saves against Poison Spray and still takes half.
    let orc = id_of(&order, "Hill Giant");
    let mut last = Vec::new();
    for _ in 0..10 {
        next_turn(&mut e, &w);
        let out = cast(&mut e, &w, "Poison Spray", |r| r.targets = vec![who(&orc)]).unwrap();
        last = out.lines;
        if last.iter().any(|l| l.ends_with("success")) {
            break;
        }
    }
    assert_eq!(
        last[..3],
        [
            "Poison Spray damage: 2d12: [11, 3] = 14",
            "Hill Giant — Constitution save vs Poison Spray: d20 [17] + 4 = 21 vs DC 15 — success",
            "Hill Giant takes 7 (7 poison); 22 → 15 HP",
        ]
    );
}

#[test]
fn overchannel_maximises_a_wizard_spell_and_costs_necrotic_damage_the_second_time() {
    let Some(srd) = common::srd("overchannel") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 4);
    let w = make(
        &mut e,
        "Aria",
        "wizard",
        14,
        Some("Evocation"),
        &[],
        &["Fireball", "Fire Bolt", "Magic Missile", "Shield"],
    );
    let order = fight(
        &mut e,
        vec![pc(&w, 0, 0, 20), monster("ogre", 1, &[(4, 0)])],
    );
    let ogre = id_of(&order, "Ogre");
    let out = cast(&mut e, &w, "Magic Missile", |r| {
        r.targets = vec![who(&ogre)];
        r.ability_name = Some("Overchannel".into());
    })
    .unwrap();
    // Three darts at their maximum (4 + 1 each), then INT 3 from Empowered Evocation.
    for l in [
        "3 darts at Ogre: 4 + 1 + 4 + 1 + 4 + 1: 4 + 1 + 4 + 1 + 4 + 1 = 15",
        "Ogre takes 18 (18 force); 59 → 41 HP",
        "Overchannel: Magic Missile deals maximum damage (use 1 since the last long rest)",
    ] {
        assert!(out.lines.contains(&l.to_string()), "{l}: {:?}", out.lines);
    }
    let hp = sheet(&mut e, &w).hp;
    next_turn(&mut e, &w);
    let out = cast(&mut e, &w, "Magic Missile", |r| {
        r.targets = vec![who(&ogre)];
        r.ability_name = Some("Overchannel".into());
    })
    .unwrap();
    // The second use: 2d12 necrotic per spell level (1st) for the one use before it.
    assert_eq!(
        out.lines.last().unwrap(),
        &format!(
            "Overchannel again before a long rest: Aria takes 15 necrotic (2d12: [10, 5] = 15), ignoring resistance and immunity ({hp} → {} HP)",
            hp - 15
        )
    );
    assert_eq!(sheet(&mut e, &w).hp, hp - 15);
    // Not a spell of 1st–5th level: refused.
    next_turn(&mut e, &w);
    let err = cast(&mut e, &w, "Fire Bolt", |r| {
        r.targets = vec![who(&ogre)];
        r.ability_name = Some("Overchannel".into());
    })
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("Overchannel maximises a damaging wizard spell of 1st through 5th level; Fire Bolt is not one"),
        "{err}"
    );
}

/// Advances the encounter to `id`'s next turn.
fn next_turn(e: &mut E, id: &str) {
    super::spell_support::advance(e);
    while super::spell_support::encounter(e)
        .current()
        .is_none_or(|c| c.character_id != id)
    {
        super::spell_support::advance(e);
    }
}
