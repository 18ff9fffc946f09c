//! Issue 18 B: dying and revival. SRD party (fighter 5, rogue 3, wizard 5, cleric 5) against SRD
//! monsters, pinned dice, through execute_action, roll_death_save and advance_turn.

use super::fidelity;

use fidelity::{CLERIC, FIGHTER, ROGUE, Table, WIZARD};
use serde_json::json;
use tabletop_grid::Position;

fn party_vs(seed: u64, foes: Vec<fidelity::Foe>) -> Option<Table> {
    Table::new(seed, &[FIGHTER, ROGUE, WIZARD, CLERIC], foes, (16, 16))
}

fn ogre() -> Vec<fidelity::Foe> {
    vec![("ogre", "Ogre", vec![(10, 10)], 5)]
}

#[test]
fn death_saves_once_per_turn_and_the_healed_wake_prone() {
    let Some(mut t) = party_vs(21, ogre()) else {
        return;
    };
    assert_eq!(t.sheet("Rook").hp, 44);
    let out = t.hurt("Rook", "44");
    assert_eq!(
        out.headline,
        "Rook takes 44 bludgeoning (44 → 0 HP) and falls unconscious (death saves)."
    );
    // Unconscious at 0 HP, and fallen prone.
    assert_eq!(t.conditions("Rook"), vec!["Prone", "Unconscious"]);
    // Its own turn (the first): one death save, a second refused, forced says so.
    let one = t.death_save("Rook", false).unwrap();
    assert_eq!(
        one.changes,
        vec!["Rook — Death save: d20 [10] = 10 — success (1 successes, 0 failures)"]
    );
    let why = "Rook has already rolled its death save this turn (one per turn, at the start of its own); advance_turn to its next turn";
    assert_eq!(
        t.death_save("Rook", false).unwrap_err().to_string(),
        format!("{why} (pass force: true to roll again)")
    );
    let forced = t.death_save("Rook", true).unwrap();
    assert_eq!(
        forced.changes,
        vec!["Rook — Death save: d20 [5] = 5 — failure (1 successes, 1 failures)"]
    );
    assert_eq!(forced.forced, vec![why.to_string()]);
    // Next creature's turn: not Rook's.
    let r = t.advance();
    assert_eq!(r.current.as_deref(), Some("Nim"));
    assert_eq!(
        t.death_save("Rook", false).unwrap_err().to_string(),
        "it is Nim's turn in enc1; Rook rolls death saves at the start of their own turn (advance_turn, or pass force: true to roll now)"
    );
    // Healed from 0 HP: awake, but on the ground.
    let h = t
        .act(json!({"actionType": "heal", "targetName": "Rook", "amount": "5"}))
        .unwrap();
    assert_eq!(
        h.headline,
        "Rook heals 5 (0 → 5 HP) and regains consciousness."
    );
    assert_eq!(t.conditions("Rook"), vec!["Prone"]);
    assert_eq!(t.sheet("Rook").hp, 5);
}

#[test]
fn spare_the_dying_and_a_dc_10_medicine_check_stabilise() {
    let Some(mut t) = party_vs(22, ogre()) else {
        return;
    };
    let nim = t.sheet("Nim").hp.to_string();
    t.hurt("Nim", &nim);
    let wren = t.sheet("Wren").hp.to_string();
    t.hurt("Wren", &wren);
    t.turn_of("Mara");
    let s = t
        .act(json!({"actorName": "Mara", "actionType": "cast_spell", "spell": "Spare the Dying", "targetName": "Wren"}))
        .unwrap();
    assert_eq!(
        s.headline,
        "Spare the Dying (cantrip): Wren is stable at 0 HP (no more death saves)."
    );
    assert!(t.sheet("Wren").death_saves.stable);
    // Rook (next to Nim) tries first aid: a natural 1 fails, the next turn's 14 succeeds.
    t.turn_of("Rook");
    let aid = json!({"actorName": "Rook", "actionType": "use_special_ability", "abilityName": "First Aid", "targetName": "Nim"});
    let a = t.act(aid.clone()).unwrap();
    assert_eq!(
        a.headline,
        "Rook fails to stabilise Nim (Medicine 2 vs DC 10); Nim is still dying."
    );
    assert_eq!(
        a.lines,
        vec!["Rook Medicine (stabilise Nim): d20 [1] + 1 = 2 — natural 1"]
    );
    assert!(!t.sheet("Nim").death_saves.stable);
    // It took the action.
    assert_eq!(
        t.refused(aid.clone()),
        "Rook has already used its action this turn (pass force: true to override as the game master)"
    );
    t.turn_of("Rook");
    let b = t.act(aid.clone()).unwrap();
    assert_eq!(
        b.headline,
        "Rook stabilises Nim (Medicine 15 vs DC 10): stable at 0 HP, no more death saves."
    );
    assert!(t.sheet("Nim").death_saves.stable);
    assert_eq!(
        t.death_save("Nim", true).unwrap_err().to_string(),
        "Nim is stable and makes no more death saves; healing wakes them, or they regain 1 HP after 1d4 hours"
    );
    // Out of reach: Wren (2, 4) is 10 ft from Rook (2, 2).
    let hp = t.sheet("Mara").hp.to_string();
    t.hurt("Mara", &hp);
    t.turn_of("Rook");
    assert_eq!(
        t.refused(json!({"actorName": "Rook", "actionType": "use_special_ability", "abilityName": "First Aid", "targetName": "Mara"})),
        "Mara is 15 ft from Rook; first aid needs the creature within 5 ft (pass force: true to override as the game master)"
    );
}

#[test]
fn the_dead_lie_where_they_fell_and_revivify_brings_them_back_there() {
    let Some(mut t) = party_vs(23, ogre()) else {
        return;
    };
    let rook = t.ids["Rook"].clone();
    let out = t.hurt("Rook", "200");
    assert_eq!(
        out.lines.last().unwrap(),
        "Rook is dead; the body lies at (2, 2) (out of the initiative; revival brings it back there)."
    );
    let enc = t.enc();
    assert!(enc.map.creature(&rook).is_none(), "off the live map");
    assert_eq!(enc.bodies.len(), 1);
    assert_eq!(enc.bodies[0].position, Position::new(2, 2));
    // Out of the initiative: the round wraps past the body.
    t.turn_of("Ogre");
    let r = t.advance();
    assert_eq!(r.skipped, vec!["Rook (dead)".to_string()]);
    assert_eq!(r.current.as_deref(), Some("Nim"));
    // The squares are free to walk through.
    t.turn_of("Nim");
    t.act(json!({"actorName": "Nim", "actionType": "move", "path": [{"x": 2, "y": 2}, {"x": 3, "y": 2}]}))
        .unwrap();
    // Revivify by touch (Mara steps next to the body).
    t.turn_of("Mara");
    t.act(json!({"actorName": "Mara", "actionType": "move", "to": {"x": 3, "y": 3}}))
        .unwrap();
    let r = t
        .act(json!({"actorName": "Mara", "actionType": "cast_spell", "spell": "Revivify", "targetName": "Rook"}))
        .unwrap();
    assert_eq!(
        r.headline,
        "Revivify (3rd level): Rook returns to life with 1 HP, prone."
    );
    assert!(
        r.lines
            .contains(&"Rook is back on the map where it fell, at (2, 2), prone.".to_string()),
        "{:?}",
        r.lines
    );
    let s = t.sheet("Rook");
    assert!(!s.dead);
    assert_eq!(s.hp, 1);
    assert_eq!(t.conditions("Rook"), vec!["Prone"]);
    let enc = t.enc();
    assert!(enc.bodies.is_empty());
    assert_eq!(enc.position_of(&rook), Some(Position::new(2, 2)));
    // Back in the initiative.
    t.turn_of("Ogre");
    let r = t.advance();
    assert!(r.skipped.is_empty());
    assert_eq!(r.current.as_deref(), Some("Rook"));
}

#[test]
fn each_creature_within_abilities_pass_over_the_dead() {
    // A Huge dragon filling (3..=5, 2..=4), next to the party in column 2.
    let Some(mut t) = party_vs(24, vec![("adult-red-dragon", "Dragon", vec![(3, 2)], 5)]) else {
        return;
    };
    let out = t.hurt("Nim", "200");
    assert_eq!(
        out.headline,
        "Nim takes 200 bludgeoning (21 → 0 HP) and dies (massive damage)."
    );
    t.turn_of("Dragon");
    let f = t
        .act(json!({"actorName": "Dragon", "actionType": "use_special_ability", "abilityName": "Frightful Presence"}))
        .unwrap();
    // Nim's body is not among them, and nothing fails on it.
    assert_eq!(
        f.headline,
        "Dragon uses Frightful Presence: Rook, Wren, Mara fail, no one succeed."
    );
    assert_eq!(f.lines[0], "Area: each creature within 120 ft");
    t.turn_of("Rook");
    let w = t
        .act(json!({"actorName": "Dragon", "actionType": "legendary_action", "abilityName": "Wing Attack"}))
        .unwrap();
    assert_eq!(
        w.headline,
        "Dragon uses Wing Attack (Costs 2 Actions) (legendary, cost 2): Rook, Mara fail, Wren succeed."
    );
    assert_eq!(t.sheet("Rook").hp, 28);
    assert_eq!(t.sheet("Mara").hp, 22);
    assert_eq!(t.sheet("Wren").hp, 24);
    assert!(t.sheet("Nim").dead);
}

fn wait(t: &mut Table, minutes: u64, days: u64) {
    use tabletop_engine::clock::{TimeRequest, advance_time};
    t.e.write("advance_time", &json!({}), |call| {
        advance_time(
            call,
            &TimeRequest {
                minutes,
                days,
                ..Default::default()
            },
        )
    })
    .unwrap();
}

/// Issue 18: the moment of death is kept (world clock; rounds move it 6 s), and revival spells
/// are refused past their limits as written: Revivify 1 minute, Raise Dead 10 days,
/// Resurrection 100 years.
#[test]
fn revivify_works_within_a_minute_raise_dead_ten_days_resurrection_beyond() {
    const SERA: fidelity::Member = ("Sera", "cleric", 13, [14, 10, 14, 10, 16, 12], (3, 2), 16);
    let Some(mut t) = Table::new(31, &[FIGHTER, SERA], ogre(), (16, 16)) else {
        return;
    };
    let cast = |spell: &str| json!({"actorName": "Sera", "actionType": "cast_spell", "spell": spell, "targetName": "Rook"});
    // An hour's casting in the middle of a fight is the DM's call: `force`, which does not
    // lift the time limit of death.
    let long = |spell: &str| json!({"actorName": "Sera", "actionType": "cast_spell", "spell": spell, "targetName": "Rook", "force": true});
    t.hurt("Rook", "200");
    assert_eq!(t.sheet("Rook").died_at, Some(8 * 3600));
    // Exactly a minute later Revivify still works.
    wait(&mut t, 1, 0);
    t.turn_of("Sera");
    let o = t.act(cast("Revivify")).unwrap();
    assert_eq!(
        o.headline,
        "Revivify (3rd level): Rook returns to life with 1 HP, prone."
    );
    assert!(
        o.lines
            .contains(&"Rook died 1 minute ago, within Revivify's 1 minute".to_string()),
        "{:?}",
        o.lines
    );
    assert_eq!(t.sheet("Rook").died_at, None);
    // Dead again; two minutes on, Revivify is refused (no slot spent), Raise Dead works.
    t.hurt("Rook", "200");
    wait(&mut t, 2, 0);
    t.turn_of("Sera");
    let slots = t.sheet("Sera").spell_slots.used;
    assert_eq!(
        t.refused(cast("Revivify")),
        "Rook died 2 minutes ago (Day 1, 08:01); Revivify works only on a creature dead for at most 1 minute"
    );
    assert_eq!(t.sheet("Sera").spell_slots.used, slots);
    assert!(t.sheet("Rook").dead);
    let o = t.act(long("Raise Dead")).unwrap();
    assert!(
        o.headline
            .starts_with("Raise Dead (5th level): Rook returns to life with 1 HP, prone"),
        "{}",
        o.headline
    );
    // Dead again for eleven days: Raise Dead is refused, Resurrection (100 years) works.
    t.hurt("Rook", "200");
    wait(&mut t, 0, 11);
    t.turn_of("Sera");
    assert_eq!(
        t.refused(long("Raise Dead")),
        "Rook died 11 days ago (Day 1, 08:03); Raise Dead works only on a creature dead for at most 10 days"
    );
    let o = t.act(long("Resurrection")).unwrap();
    assert_eq!(
        o.headline,
        "Resurrection (7th level): Rook returns to life with 44 HP, prone."
    );
    assert!(
        o.lines
            .contains(&"Rook died 11 days ago, within Resurrection's 36500 days".to_string()),
        "{:?}",
        o.lines
    );
}
