//! Sorcerer, bard, cleric and druid features through the real tools (issue 17), SRD-built
//! characters, SRD monsters and seeded dice: Metamagic on cast_spell (sorcery points spent,
//! options checked against the build), Flexible Casting, Sorcerous Restoration, Elemental
//! Affinity, Dragon Wings; Song of Rest and Superior Inspiration; Disciple of Life, Blessed
//! Healer, Supreme Healing and Divine Strike; Natural Recovery.

use super::common;
use super::spell_support::{self as s, E};

use tabletop_engine::EngineError;
use tabletop_engine::catalog::caster_rules::Metamagic;
use tabletop_engine::character::{Character, CharacterRef};
use tabletop_engine::combat::actions::{ActionCost, ActionRequest, ActionType};
use tabletop_engine::creation::{ClassRequest, CreateRequest, create_character};
use tabletop_engine::rest::{RestKind, take_rest};
use tabletop_engine::slots::{SlotOp, manage_spell_slots};
use tabletop_rules::Ability;

/// An SRD-built character of one class and subclass: DEX 14, CON 14, WIS 16, CHA 16.
fn make(
    e: &mut E,
    name: &str,
    class: &str,
    (level, subclass): (u32, &str),
    options: &[&str],
    spells: &[&str],
) -> Result<String, EngineError> {
    let req = CreateRequest {
        name: name.into(),
        class: Some(class.into()),
        level: Some(level),
        scores: Some(
            Ability::ALL
                .iter()
                .copied()
                .zip([12, 14, 14, 10, 16, 16])
                .collect(),
        ),
        classes: vec![ClassRequest {
            class: class.into(),
            level,
            subclass: (!subclass.is_empty()).then(|| subclass.to_string()),
        }],
        options: options.iter().map(|o| o.to_string()).collect(),
        spells: spells.iter().map(|o| o.to_string()).collect(),
        ..Default::default()
    };
    e.write("create_character", &serde_json::json!({}), |call| {
        create_character(call, req)
    })
    .map(|o| o.character.id)
}

fn sheet(e: &mut E, id: &str) -> Character {
    s::sheet(e, id)
}

/// Arranges a character's state for a test (hit points, resources), as the DM would.
fn arrange(e: &mut E, id: &str, f: impl FnOnce(&mut Character)) {
    let id = id.to_string();
    e.write("update_character", &serde_json::json!({}), |call| {
        let mut c = tabletop_engine::combat::sheet(call, &id)?;
        f(&mut c);
        let campaign = call.campaign();
        call.tx().put_character(campaign, &c)?;
        Ok(())
    })
    .unwrap();
}

fn points(c: &Character) -> u32 {
    c.resources
        .iter()
        .find(|r| r.name == "Sorcery Points")
        .map(|r| r.current)
        .unwrap()
}

fn resource(c: &Character, name: &str) -> u32 {
    c.resources
        .iter()
        .find(|r| r.name == name)
        .map(|r| r.current)
        .unwrap()
}

const RED: &str = "dragon-ancestor-red---fire-damage";

fn cast_out(
    e: &mut E,
    actor: &str,
    spell: &str,
    targets: &[&str],
    f: impl FnOnce(&mut ActionRequest),
) -> Result<tabletop_engine::combat::actions::ActionOutcome, EngineError> {
    let mut req = ActionRequest {
        actor: s::who(actor),
        action_type: Some(ActionType::CastSpell),
        spell: Some(spell.into()),
        targets: targets.iter().map(|t| s::who(t)).collect(),
        ..Default::default()
    };
    f(&mut req);
    s::act(e, req)
}

fn slots(e: &mut E, id: &str, op: SlotOp) -> Result<String, EngineError> {
    let id = id.to_string();
    e.write("manage_spell_slots", &serde_json::json!({}), |call| {
        manage_spell_slots(call, CharacterRef::new(Some(&id), None), op)
    })
    .map(|o| o.summary)
}

fn rest(e: &mut E, id: &str, kind: RestKind, dice: u32) -> Vec<String> {
    let id = id.to_string();
    e.write("take_rest", &serde_json::json!({}), |call| {
        take_rest(call, CharacterRef::new(Some(&id), None), kind, dice)
    })
    .unwrap()
    .changes
}

#[test]
fn metamagic_options_are_build_choices_counted_by_level() {
    let Some(srd) = common::srd("metamagic_choices") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = s::engine(&dir, &srd, 3);
    // Sorcerer 5 chooses two options (metamagic-1); a third is refused at creation.
    let err = make(
        &mut e,
        "Too",
        "sorcerer",
        (5, "Draconic"),
        &[
            RED,
            "metamagic-quickened-spell",
            "metamagic-twinned-spell",
            "metamagic-subtle-spell",
        ],
        &[],
    )
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("Metamagic gives 2 option(s) at this level (options); more are given"),
        "{err}"
    );
    let id = make(
        &mut e,
        "Sable",
        "sorcerer",
        (5, "Draconic"),
        &[RED, "metamagic-quickened-spell", "metamagic-twinned-spell"],
        &[],
    )
    .unwrap();
    let c = sheet(&mut e, &id);
    let d = c.derived.as_ref().unwrap();
    assert!(
        d.choices.iter().all(|l| !l.contains("Metamagic")),
        "{:?}",
        d.choices
    );
    assert_eq!(
        tabletop_engine::magic::class_magic::known(&c),
        vec![Metamagic::Quickened, Metamagic::Twinned]
    );
    assert_eq!(points(&c), 5);
    // Sorcerer 17 chooses four (metamagic-3).
    let id = make(
        &mut e,
        "Vel",
        "sorcerer",
        (17, "Draconic"),
        &[RED, "metamagic-heightened-spell"],
        &[],
    )
    .unwrap();
    let c = sheet(&mut e, &id);
    let open: Vec<&String> = c
        .derived
        .as_ref()
        .unwrap()
        .choices
        .iter()
        .filter(|l| l.contains("Metamagic"))
        .collect();
    assert_eq!(open.len(), 1, "{open:?}");
    assert!(
        open[0].contains("3 more option(s) to choose"),
        "{}",
        open[0]
    );
    assert!(!open[0].contains("metamagic-1"), "{}", open[0]);
}

/// Sorcerer 5 (Draconic, red; Quickened and Twinned) against SRD goblins.
fn sorcerer_fight(seed: u64) -> (tempfile::TempDir, E, String, Vec<(String, String)>) {
    let srd = common::srd("metamagic").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut e = s::engine(&dir, &srd, seed);
    let id = make(
        &mut e,
        "Sable",
        "sorcerer",
        (5, "Draconic"),
        &[RED, "metamagic-quickened-spell", "metamagic-twinned-spell"],
        &["Fire Bolt", "Fireball", "Hold Person"],
    )
    .unwrap();
    let order = s::fight(
        &mut e,
        vec![
            s::pc(&id, 0, 0, 20),
            s::monster("goblin", 2, &[(4, 0), (4, 2)]),
        ],
    );
    (dir, e, id, order)
}

#[test]
fn quickened_spell_casts_a_one_action_spell_with_the_bonus_action() {
    if common::srd("quickened").is_none() {
        return;
    }
    let (_dir, mut e, id, order) = sorcerer_fight(5);
    let g1 = s::id_of(&order, "Goblin 1");
    let out = s::cast(&mut e, &id, "Hold Person", |r| {
        r.target = s::who(&g1);
        r.metamagic = vec![Metamagic::Quickened];
    })
    .unwrap();
    assert_eq!(
        out.lines[0],
        "Quickened Spell: 2 sorcery point(s) spent (3 left); cast with a bonus action"
    );
    assert!(out.forced.is_empty(), "{:?}", out.forced);
    let eco = out.economy.as_ref().unwrap();
    assert!(eco.bonus_action, "the bonus action is spent");
    assert!(!eco.action, "the action is left");
    assert_eq!(points(&sheet(&mut e, &id)), 3);
    // Only a cantrip may follow with the action; the Fire Bolt is fine.
    let g2 = s::id_of(&order, "Goblin 2");
    let out = s::cast(&mut e, &id, "Fire Bolt", |r| r.target = s::who(&g2)).unwrap();
    assert!(out.economy.as_ref().unwrap().action);
}

#[test]
fn twinned_spell_gives_a_single_target_spell_a_second_target() {
    if common::srd("twinned").is_none() {
        return;
    }
    let (_dir, mut e, id, order) = sorcerer_fight(6);
    let (g1, g2) = (s::id_of(&order, "Goblin 1"), s::id_of(&order, "Goblin 2"));
    // Without Twinned, Fire Bolt refuses a second target.
    let err = s::cast(&mut e, &id, "Fire Bolt", |r| {
        r.targets = vec![s::who(&g1), s::who(&g2)];
    })
    .unwrap_err()
    .to_string();
    assert!(err.contains("at most 1 target"), "{err}");
    let out = s::cast(&mut e, &id, "Fire Bolt", |r| {
        r.targets = vec![s::who(&g1), s::who(&g2)];
        r.metamagic = vec![Metamagic::Twinned];
    })
    .unwrap();
    assert_eq!(
        out.lines[0],
        "Twinned Spell: 1 sorcery point(s) spent (4 left); a second creature is targeted"
    );
    let attacks = out
        .lines
        .iter()
        .filter(|l| l.starts_with("Sable — Fire Bolt spell attack vs Goblin"))
        .count();
    assert_eq!(attacks, 2, "{:?}", out.lines);
    assert_eq!(points(&sheet(&mut e, &id)), 4);
    // An area spell cannot be twinned; an unknown option is refused; nothing is spent.
    let err = s::cast(&mut e, &id, "Fireball", |r| {
        r.to = Some(tabletop_grid::Position::new(4, 1));
        r.action_cost = Some(ActionCost::Action);
        r.force = true;
        r.metamagic = vec![Metamagic::Twinned];
    })
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("Twinned Spell cannot apply to Fireball"),
        "{err}"
    );
    let err = s::cast(&mut e, &id, "Hold Person", |r| {
        r.target = s::who(&g1);
        r.force = true;
        r.metamagic = vec![Metamagic::Heightened];
    })
    .unwrap_err()
    .to_string();
    assert_eq!(
        err,
        "Sable does not know Heightened Spell (Metamagic known: Quickened Spell, Twinned Spell)"
    );
    let c = sheet(&mut e, &id);
    assert_eq!(points(&c), 4);
    assert_eq!(
        c.spell_slots.left(2),
        3,
        "no slot spent on a refused casting"
    );
}

#[test]
fn flexible_casting_trades_points_and_slots_and_created_slots_vanish_on_a_long_rest() {
    let Some(srd) = common::srd("flexible_casting") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = s::engine(&dir, &srd, 2);
    let id = make(
        &mut e,
        "Sable",
        "sorcerer",
        (5, "Draconic"),
        &[RED, "metamagic-quickened-spell", "metamagic-twinned-spell"],
        &["Hold Person"],
    )
    .unwrap();
    // 5 points: a 1st-level slot for 2 (a fifth 1st-level slot), another for 2.
    assert_eq!(
        slots(&mut e, &id, SlotOp::Create { level: Some(1) }).unwrap(),
        "1st 5/5, 2nd 3/3, 3rd 2/2"
    );
    assert_eq!(points(&sheet(&mut e, &id)), 3);
    let err = slots(&mut e, &id, SlotOp::Create { level: Some(3) })
        .unwrap_err()
        .to_string();
    assert_eq!(err, "a 3rd slot costs 5 sorcery point(s); Sable has 3 left");
    let err = slots(&mut e, &id, SlotOp::Create { level: Some(6) })
        .unwrap_err()
        .to_string();
    assert!(err.contains("1st–5th level"), "{err}");
    slots(&mut e, &id, SlotOp::Create { level: Some(1) }).unwrap();
    let c = sheet(&mut e, &id);
    assert_eq!((points(&c), c.spell_slots.max[0]), (1, 6));
    // Too few points for Quickened now: refused, no slot spent.
    s::fight(
        &mut e,
        vec![s::pc(&id, 0, 0, 20), s::monster("goblin", 1, &[(3, 0)])],
    );
    let gob = s::id_of(
        &s::encounter(&mut e)
            .order
            .iter()
            .map(|c| (c.name.clone(), c.character_id.clone()))
            .collect::<Vec<_>>(),
        "Goblin",
    );
    let err = s::cast(&mut e, &id, "Hold Person", |r| {
        r.target = s::who(&gob);
        r.metamagic = vec![Metamagic::Quickened];
    })
    .unwrap_err()
    .to_string();
    assert_eq!(err, "Quickened Spell costs 2 sorcery point(s); Sable has 1");
    // A 2nd-level slot back into 2 points (1 → 3).
    assert_eq!(
        slots(&mut e, &id, SlotOp::Convert { level: Some(2) }).unwrap(),
        "1st 6/6, 2nd 2/3, 3rd 2/2"
    );
    assert_eq!(points(&sheet(&mut e, &id)), 3);
    e.write("end_encounter", &serde_json::json!({}), |call| {
        tabletop_engine::combat::end::end_encounter(call, &Default::default())
    })
    .unwrap();
    rest(&mut e, &id, RestKind::Long, 0);
    let c = sheet(&mut e, &id);
    assert_eq!(c.spell_slots.summary(), "1st 4/4, 2nd 3/3, 3rd 2/2");
    assert_eq!(points(&c), 5);
}

#[test]
fn heightened_careful_and_empowered_change_the_resolution() {
    let Some(srd) = common::srd("heightened") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = s::engine(&dir, &srd, 11);
    let vel = make(
        &mut e,
        "Vel",
        "sorcerer",
        (17, "Draconic"),
        &[
            "dragon-ancestor-white---cold-damage",
            "metamagic-heightened-spell",
            "metamagic-careful-spell",
            "metamagic-empowered-spell",
            "metamagic-subtle-spell",
        ],
        &["Fireball", "Hold Person"],
    )
    .unwrap();
    make(&mut e, "Brom", "fighter", (5, "Champion"), &[], &[]).unwrap();
    make(&mut e, "Kell", "fighter", (5, "Champion"), &[], &[]).unwrap();
    // Heightened Hold Person: the target's first save has disadvantage.
    let out = cast_out(&mut e, &vel, "Hold Person", &["Brom"], |r| {
        r.metamagic = vec![Metamagic::Heightened];
    })
    .unwrap();
    assert_eq!(
        out.lines[0],
        "Heightened Spell: 3 sorcery point(s) spent (14 left)"
    );
    let save = out
        .lines
        .iter()
        .find(|l| l.starts_with("Brom — Wisdom save vs Hold Person"))
        .unwrap_or_else(|| panic!("{:?}", out.lines));
    assert!(save.contains("disadvantage: Heightened Spell"), "{save}");
    // Careful + Empowered Fireball on two: Careful protects up to CHA mod (3) creatures, here
    // both; Empowered rerolls up to 3 dice below average.
    let out = cast_out(&mut e, &vel, "Fireball", &["Brom", "Kell"], |r| {
        r.metamagic = vec![Metamagic::Careful, Metamagic::Empowered];
    })
    .unwrap();
    assert_eq!(
        out.lines[0],
        "Careful Spell + Empowered Spell: 2 sorcery point(s) spent (12 left)"
    );
    let emp = out
        .lines
        .iter()
        .find(|l| l.starts_with("Empowered Spell rerolls"))
        .unwrap();
    assert_eq!(
        emp,
        "Empowered Spell rerolls d6 1 → 2, d6 1 → 5, d6 2 → 5: damage 27 → 35"
    );
    // Brom, paralyzed by the Hold Person, would fail its DEX save and succeeds all the same;
    // Kell made it.
    let save = |n: &str| {
        out.lines
            .iter()
            .find(|l| l.starts_with(&format!("{n} — Dexterity save vs Fireball")))
            .cloned()
            .unwrap()
    };
    assert_eq!(
        save("Brom"),
        "Brom — Dexterity save vs Fireball (Careful Spell: succeeds automatically despite paralyzed): d20 [] + 2 vs DC 17 — success"
    );
    assert_eq!(
        save("Kell"),
        "Kell — Dexterity save vs Fireball: d20 [17] + 2 = 19 vs DC 17 — success"
    );
    // Both saved: half of 35.
    for n in ["Brom", "Kell"] {
        let c = e
            .read(|call| {
                tabletop_engine::characters::resolve(call, CharacterRef::new(None, Some(n)))
            })
            .unwrap();
        assert_eq!(c.max_hp - c.hp, 17, "{n}");
    }
    // Two options besides Empowered are refused.
    let err = cast_out(&mut e, &vel, "Fireball", &["Brom"], |r| {
        r.metamagic = vec![Metamagic::Careful, Metamagic::Heightened];
    })
    .unwrap_err()
    .to_string();
    assert!(
        err.starts_with("only one Metamagic option per spell"),
        "{err}"
    );
    assert_eq!(points(&sheet(&mut e, &vel)), 12);
}

#[test]
fn elemental_affinity_adds_charisma_to_a_spell_of_the_ancestry_type() {
    let Some(srd) = common::srd("elemental_affinity") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = s::engine(&dir, &srd, 4);
    let id = make(
        &mut e,
        "Sable",
        "sorcerer",
        (6, "Draconic"),
        &[RED, "metamagic-quickened-spell", "metamagic-twinned-spell"],
        &["Fireball", "Ray of Frost"],
    )
    .unwrap();
    make(&mut e, "Brom", "fighter", (5, "Champion"), &[], &[]).unwrap();
    let out = cast_out(&mut e, &id, "Fireball", &["Brom"], |_| {}).unwrap();
    assert!(
        out.lines
            .contains(&"Elemental Affinity (fire): +3 damage (CHA)".to_string()),
        "{:?}",
        out.lines
    );
    let dmg = out
        .lines
        .iter()
        .find(|l| l.starts_with("Fireball damage: "))
        .unwrap();
    assert!(dmg.starts_with("Fireball damage: 8d6 + 3: ["), "{dmg}");
    // Cold is not red's type: no bonus.
    let out = cast_out(&mut e, &id, "Ray of Frost", &["Brom"], |_| {}).unwrap();
    assert!(
        out.lines.iter().all(|l| !l.contains("Elemental Affinity")),
        "{:?}",
        out.lines
    );
}

#[test]
fn sorcerous_restoration_and_dragon_wings_at_high_level() {
    let Some(srd) = common::srd("sorcerous_restoration") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = s::engine(&dir, &srd, 4);
    let id = make(&mut e, "Ysra", "sorcerer", (20, "Draconic"), &[RED], &[]).unwrap();
    let c = sheet(&mut e, &id);
    assert_eq!(
        tabletop_engine::magic::wards::movement_modes(&c).get("fly"),
        Some(&30)
    );
    let low = make(&mut e, "Low", "sorcerer", (13, "Draconic"), &[RED], &[]).unwrap();
    let c = sheet(&mut e, &low);
    assert_eq!(
        tabletop_engine::magic::wards::movement_modes(&c).get("fly"),
        None
    );
    arrange(&mut e, &id, |c| {
        c.resources
            .iter_mut()
            .find(|r| r.name == "Sorcery Points")
            .unwrap()
            .current = 10;
    });
    let changes = rest(&mut e, &id, RestKind::Short, 0);
    assert!(
        changes.contains(&"Sorcerous Restoration: sorcery points 10 → 14".to_string()),
        "{changes:?}"
    );
    assert_eq!(points(&sheet(&mut e, &id)), 14);
    // The sorcerer 13 regains nothing on a short rest.
    arrange(&mut e, &low, |c| {
        c.resources
            .iter_mut()
            .find(|r| r.name == "Sorcery Points")
            .unwrap()
            .current = 2;
    });
    rest(&mut e, &low, RestKind::Short, 0);
    assert_eq!(points(&sheet(&mut e, &low)), 2);
}

#[test]
fn song_of_rest_adds_the_bards_die_to_hit_dice_healing_in_its_party() {
    let Some(srd) = common::srd("song_of_rest") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = s::engine(&dir, &srd, 8);
    let bard = make(&mut e, "Lyra", "bard", (6, "Lore"), &[], &[]).unwrap();
    let brom = make(&mut e, "Brom", "fighter", (5, "Champion"), &[], &[]).unwrap();
    let solo = make(&mut e, "Solo", "fighter", (5, "Champion"), &[], &[]).unwrap();
    e.write("manage_party", &serde_json::json!({}), |call| {
        use tabletop_engine::party::{PartyDraft, add_member, create_party};
        create_party(
            call,
            PartyDraft {
                name: "Band".into(),
                description: None,
                location: None,
                member: Some((CharacterRef::new(Some(&bard), None), Default::default())),
            },
        )?;
        add_member(
            call,
            tabletop_engine::party::PartyRef::new(None, Some("Band")),
            CharacterRef::new(Some(&brom), None),
            Default::default(),
            false,
        )
    })
    .unwrap();
    for id in [&brom, &solo] {
        arrange(&mut e, id, |c| c.hp = 10);
    }
    let changes = rest(&mut e, &brom, RestKind::Short, 1);
    let song = changes
        .iter()
        .find(|l| l.starts_with("Song of Rest (Lyra): 1d6 = "))
        .unwrap_or_else(|| panic!("{changes:?}"));
    assert_eq!(song, "Song of Rest (Lyra): 1d6 = 3 more; HP 15 → 18");
    assert_eq!(
        changes[0], "Brom spends 1 hit dice: d10 3 +2 = 5; HP 10 → 15",
        "{changes:?}"
    );
    assert_eq!(sheet(&mut e, &brom).hp, 18);
    // No bard in Solo's party: hit dice only.
    let changes = rest(&mut e, &solo, RestKind::Short, 1);
    assert!(
        changes.iter().all(|l| !l.contains("Song of Rest")),
        "{changes:?}"
    );
}

#[test]
fn superior_inspiration_gives_one_use_back_when_initiative_is_rolled() {
    let Some(srd) = common::srd("superior_inspiration") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = s::engine(&dir, &srd, 8);
    let bard = make(&mut e, "Lyra", "bard", (20, "Lore"), &[], &[]).unwrap();
    let low = make(&mut e, "Pip", "bard", (6, "Lore"), &[], &[]).unwrap();
    for id in [&bard, &low] {
        arrange(&mut e, id, |c| {
            c.resources
                .iter_mut()
                .find(|r| r.name == "Bardic Inspiration")
                .unwrap()
                .current = 0;
        });
    }
    s::fight(
        &mut e,
        vec![
            s::pc(&bard, 0, 0, 20),
            s::pc(&low, 0, 1, 19),
            s::monster("goblin", 1, &[(3, 0)]),
        ],
    );
    assert_eq!(resource(&sheet(&mut e, &bard), "Bardic Inspiration"), 1);
    assert_eq!(resource(&sheet(&mut e, &low), "Bardic Inspiration"), 0);
}

#[test]
fn life_domain_healing_disciple_blessed_healer_and_supreme_healing() {
    let Some(srd) = common::srd("life_domain") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = s::engine(&dir, &srd, 9);
    let cleric5 = make(&mut e, "Mara", "cleric", (5, "Life"), &[], &["Cure Wounds"]).unwrap();
    let cleric6 = make(&mut e, "Oren", "cleric", (6, "Life"), &[], &["Cure Wounds"]).unwrap();
    let cleric17 = make(&mut e, "Sol", "cleric", (17, "Life"), &[], &["Cure Wounds"]).unwrap();
    let brom = make(&mut e, "Brom", "fighter", (5, "Champion"), &[], &[]).unwrap();
    for id in [&brom, &cleric6, &cleric5] {
        arrange(&mut e, id, |c| c.hp = 5);
    }
    // Disciple of Life at a 2nd-level slot: +4.
    let out = cast_out(&mut e, &cleric5, "Cure Wounds", &["Brom"], |r| {
        r.slot_level = Some(2)
    })
    .unwrap();
    assert!(
        out.lines
            .contains(&"Disciple of Life: +4 (2 + spell level)".to_string()),
        "{:?}",
        out.lines
    );
    let heal = out
        .lines
        .iter()
        .find(|l| l.starts_with("Cure Wounds healing: "))
        .unwrap();
    assert_eq!(
        heal,
        "Cure Wounds healing: 2d8 + 3 + 4: [4, 7] + 3 + 4 = 18"
    );
    assert_eq!(sheet(&mut e, &brom).hp, 5 + 18);
    assert_eq!(
        sheet(&mut e, &cleric5).hp,
        5,
        "no Blessed Healer before 6th"
    );
    // Blessed Healer at 6th: healing another heals the cleric 2 + 1.
    arrange(&mut e, &brom, |c| c.hp = 5);
    let out = cast_out(&mut e, &cleric6, "Cure Wounds", &["Brom"], |_| {}).unwrap();
    assert!(
        out.lines
            .contains(&"Blessed Healer: Oren regains 3 HP (5 → 8)".to_string()),
        "{:?}",
        out.lines
    );
    assert_eq!(sheet(&mut e, &cleric6).hp, 8);
    // Supreme Healing at 17th: the dice heal their maximum (1d8+3 → 11), then +3.
    arrange(&mut e, &brom, |c| c.hp = 5);
    let out = cast_out(&mut e, &cleric17, "Cure Wounds", &["Brom"], |_| {}).unwrap();
    assert!(
        out.lines
            .contains(&"Supreme Healing: 1d8+3 heals its maximum, 11".to_string()),
        "{:?}",
        out.lines
    );
    assert_eq!(sheet(&mut e, &brom).hp, 5 + 11 + 3);
}

#[test]
fn divine_strike_adds_radiant_damage_once_per_turn() {
    let Some(srd) = common::srd("divine_strike") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = s::engine(&dir, &srd, 21);
    let id = make(&mut e, "Mara", "cleric", (8, "Life"), &[], &[]).unwrap();
    e.write("manage_inventory", &serde_json::json!({}), |call| {
        use tabletop_engine::inventory::ops::{GiveRequest, ItemRef, equip, give};
        give(
            call,
            CharacterRef::new(Some(&id), None),
            GiveRequest {
                srd_name: Some("Mace".into()),
                ..Default::default()
            },
        )?;
        equip(
            call,
            CharacterRef::new(Some(&id), None),
            ItemRef {
                id: None,
                name: Some("Mace"),
            },
            None,
        )
    })
    .unwrap();
    let order = s::fight(
        &mut e,
        vec![s::pc(&id, 0, 0, 20), s::monster("ogre", 1, &[(1, 0)])],
    );
    let ogre = s::id_of(&order, "Ogre");
    let mut lines = Vec::new();
    for _ in 0..4 {
        let out = s::act(
            &mut e,
            ActionRequest {
                actor: s::who(&id),
                action_type: Some(ActionType::Attack),
                target: s::who(&ogre),
                weapon: Some("Mace".into()),
                force: true,
                ..Default::default()
            },
        )
        .unwrap();
        lines.extend(out.lines);
    }
    let strikes: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("Divine Strike"))
        .collect();
    let hits = lines.iter().filter(|l| l.ends_with("— hit")).count();
    assert_eq!(hits, 2, "{lines:?}");
    assert_eq!(
        strikes,
        vec![
            "Divine Strike: +1d8 radiant (once per turn).",
            "Divine Strike already used this turn."
        ],
        "{lines:?}"
    );
    assert!(lines.contains(&"Damage: 1d6[bludgeoning] + 1[bludgeoning] + 1d8[radiant]: [6] bludgeoning + 1 bludgeoning + [6] radiant = 13 (bludgeoning 7, radiant 6)".to_string()));
}

#[test]
fn natural_recovery_brings_back_slots_once_between_long_rests() {
    let Some(srd) = common::srd("natural_recovery") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = s::engine(&dir, &srd, 4);
    let id = make(
        &mut e,
        "Fern",
        "druid",
        (5, "Land"),
        &["circle-of-the-land-forest"],
        &[],
    )
    .unwrap();
    for (level, count) in [(1, 2), (2, 1), (3, 1)] {
        slots(
            &mut e,
            &id,
            SlotOp::Expend {
                level: Some(level),
                count,
                pact: false,
            },
        )
        .unwrap();
    }
    // Half of 5 rounded up: 3 levels of slots, the highest first (the 3rd).
    let changes = rest(&mut e, &id, RestKind::Short, 0);
    assert!(
        changes.contains(
            &"Natural Recovery: 1 slot(s) come back (3rd); left: 1st 2/4, 2nd 2/3, 3rd 2/2"
                .to_string()
        ),
        "{changes:?}"
    );
    assert_eq!(resource(&sheet(&mut e, &id), "Natural Recovery"), 0);
    let changes = rest(&mut e, &id, RestKind::Short, 0);
    assert!(
        changes.contains(
            &"Natural Recovery was used since the last long rest: no slots come back".to_string()
        ),
        "{changes:?}"
    );
    assert_eq!(sheet(&mut e, &id).spell_slots.left(1), 2);
}

#[test]
fn bonus_cantrip_lets_a_circle_of_the_land_druid_know_one_more() {
    let Some(srd) = common::srd("bonus_cantrip") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = s::engine(&dir, &srd, 4);
    let land = ["circle-of-the-land-forest"];
    let four = ["Druidcraft", "Guidance", "Produce Flame", "Shillelagh"];
    make(&mut e, "Fern", "druid", (5, "Land"), &land, &four).unwrap();
    let five = [
        "Druidcraft",
        "Guidance",
        "Produce Flame",
        "Shillelagh",
        "Resistance",
    ];
    let err = make(&mut e, "Moss", "druid", (5, "Land"), &land, &five)
        .unwrap_err()
        .to_string();
    assert!(err.contains("knows 4 cantrips; 5 given"), "{err}");
    // Before the circle (druid 1): the table's 2.
    let err = make(&mut e, "Reed", "druid", (1, ""), &[], &four[..3])
        .unwrap_err()
        .to_string();
    assert!(err.contains("knows 2 cantrips; 3 given"), "{err}");
}
