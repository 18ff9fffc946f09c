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
    assert!((5..=8).contains(&temp), "{temp}");
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
