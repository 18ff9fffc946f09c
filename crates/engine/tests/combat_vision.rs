//! Issue 18 E: vision. The map's light (set with modify_terrain's light operation) and the
//! creatures' senses decide who sees whom: an attacker that cannot see its target has
//! disadvantage, a target that cannot see its attacker gives advantage. SRD party against SRD
//! goblins (darkvision 60 ft), pinned dice, exact results.

use super::fidelity;

#[allow(unused_imports)]
use fidelity::ROGUE;
use fidelity::{FIGHTER, Table, WIZARD};
use serde_json::json;
use tabletop_engine::combat::terrain::{TerrainOp, TerrainRequest, modify_terrain};
use tabletop_grid::{Light, Position};

fn fight(seed: u64) -> Option<Table> {
    let mut t = Table::new(
        seed,
        &[FIGHTER, WIZARD],
        vec![("goblin", "Goblin", vec![(3, 2)], 5)],
        (16, 16),
    )?;
    t.arm("Rook", "Longsword");
    Some(t)
}

fn light(t: &mut Table, squares: Vec<Position>, l: Light) -> String {
    t.e.write("modify_terrain", &json!({}), |call| {
        modify_terrain(
            call,
            &TerrainRequest {
                operation: TerrainOp::Light,
                squares: squares.clone(),
                light: Some(l),
                ..Default::default()
            },
        )
    })
    .unwrap()
    .headline
}

fn roll_sources(
    o: &tabletop_engine::combat::actions::ActionOutcome,
) -> (String, Vec<String>, Vec<String>) {
    let r = &o.details["attacks"][0]["roll"];
    let v = |k: &str| -> Vec<String> {
        r[k].as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_str().unwrap().to_string())
            .collect()
    };
    (
        r["mode"].as_str().unwrap_or_default().to_string(),
        v("advantage"),
        v("disadvantage"),
    )
}

#[test]
fn in_darkness_the_fighter_without_darkvision_attacks_at_disadvantage_and_is_attacked_at_advantage()
{
    let Some(mut t) = fight(3) else { return };
    assert_eq!(
        light(&mut t, Vec::new(), Light::Darkness),
        "The whole map is now in darkness."
    );
    t.turn_of("Rook");
    let o = t
        .act(json!({"actorName": "Rook", "actionType": "attack", "targetName": "Goblin", "weapon": "Longsword"}))
        .unwrap();
    assert_eq!(
        o.lines[0],
        "Rook attack with Longsword: d20 [1, ~~8~~] (disadvantage: Rook can't see Goblin (darkness and no sense that pierces it)) + 6 = 7 vs AC 15 — miss (natural 1)"
    );
    let (mode, adv, dis) = roll_sources(&o);
    assert_eq!(adv, Vec::<String>::new());
    assert_eq!(
        dis,
        vec!["Rook can't see Goblin (darkness and no sense that pierces it)"]
    );
    assert_eq!(mode, "disadvantage");
    // The goblin sees Rook with darkvision: advantage, not disadvantage.
    t.turn_of("Goblin");
    let o = t
        .act(json!({"actorName": "Goblin", "actionType": "attack", "targetName": "Rook", "weapon": "Scimitar"}))
        .unwrap();
    assert_eq!(
        o.lines[0],
        "Goblin attack with Scimitar: d20 [7, ~~5~~] (advantage: Rook can't see Goblin (darkness and no sense that pierces it)) + 4 = 11 vs AC 12 — miss"
    );
    let (mode, adv, dis) = roll_sources(&o);
    assert_eq!(
        adv,
        vec!["Rook can't see Goblin (darkness and no sense that pierces it)"]
    );
    assert_eq!(dis, Vec::<String>::new());
    assert_eq!(mode, "advantage");
}

#[test]
fn dim_light_and_a_lit_square_change_nothing_and_magical_darkness_blinds_darkvision_too() {
    let Some(mut t) = fight(3) else { return };
    assert_eq!(
        light(
            &mut t,
            vec![Position::new(2, 2), Position::new(3, 2)],
            Light::Dim
        ),
        "2 squares are now in dim light."
    );
    t.turn_of("Rook");
    let o = t
        .act(json!({"actorName": "Rook", "actionType": "attack", "targetName": "Goblin", "weapon": "Longsword"}))
        .unwrap();
    let (mode, adv, dis) = roll_sources(&o);
    assert_eq!((mode.as_str(), adv.len(), dis.len()), ("normal", 0, 0));
    // Magical darkness on the goblin's square: Rook cannot see into it (no darkvision would
    // help either); the goblin still sees Rook's dim square.
    light(&mut t, vec![Position::new(3, 2)], Light::MagicalDarkness);
    t.turn_of("Rook");
    let o = t
        .act(json!({"actorName": "Rook", "actionType": "attack", "targetName": "Goblin", "weapon": "Longsword"}))
        .unwrap();
    let (mode, adv, dis) = roll_sources(&o);
    assert_eq!(
        dis,
        vec!["Rook can't see Goblin (magical darkness and no sense that pierces it)"]
    );
    assert_eq!(adv, Vec::<String>::new());
    assert_eq!(mode, "disadvantage");
}

/// Issue 18 G: `force` overrides a spell's range like any other rule, and says so.
#[test]
fn force_overrides_a_spells_range_and_the_answer_says_so() {
    let Some(mut t) = fight(3) else { return };
    t.turn_of("Wren");
    let req = json!({"actorName": "Wren", "actionType": "cast_spell", "spell": "Shocking Grasp", "targetName": "Goblin"});
    let why = "Goblin is 10 ft from Wren; Shocking Grasp has a range of Touch";
    assert_eq!(
        t.refused(req.clone()),
        format!("{why} (pass force: true to override as the game master)")
    );
    let mut forced = req;
    forced["force"] = json!(true);
    let o = t.act(forced).unwrap();
    assert_eq!(o.forced, vec![why.to_string()]);
    assert!(o.headline.starts_with("Shocking Grasp"), "{}", o.headline);
}

/// Issue 18: a Fireball's creatures are those with a clear line of effect from its point (the
/// goblin behind the wall is untouched); a point behind a wall from the caster moves to the near
/// side of the wall, as the SRD says; a low wall between the point and a goblin gives it half
/// cover (+2) on its Dexterity save.
#[test]
fn a_fireball_stops_at_walls_and_starts_on_the_casters_side_of_them() {
    let walls: Vec<Position> = (0..16).map(|y| Position::new(9, y)).collect();
    let Some(mut t) = Table::new_on(
        7,
        &[WIZARD],
        vec![("goblin", "Goblin", vec![(7, 4), (10, 4), (7, 8)], 5)],
        tabletop_engine::combat::create::TerrainSpec {
            width: Some(16),
            height: Some(16),
            walls,
            low_walls: vec![Position::new(7, 7)],
            ..Default::default()
        },
    ) else {
        return;
    };
    t.turn_of("Wren");
    let o = t
        .act(json!({"actorName": "Wren", "actionType": "cast_spell", "spell": "Fireball", "to": {"x": 8, "y": 4}}))
        .unwrap();
    assert_eq!(
        o.headline,
        "Fireball (3rd level): Goblin 1 saves for half, Goblin 1 takes 11 fire (7 → 0 HP) and dies; Goblin 3 saves for half, Goblin 3 takes 11 fire (7 → 0 HP) and dies."
    );
    // Goblin 3's +4: DEX +2 and +2 for the low wall between it and the point.
    assert_eq!(
        o.lines[1..4],
        [
            "Goblin 1 — Dexterity save vs Fireball: d20 [18] + 2 = 20 vs DC 14 — success",
            "Goblin 1 takes 11 (11 fire); 7 → 0 HP; dies",
            "Goblin 3 — Dexterity save vs Fireball: d20 [17] + 4 = 21 vs DC 14 — success",
        ]
    );
    assert_eq!(t.sheet("Goblin 2").hp, 7);
    t.turn_of("Wren");
    // Aimed behind the wall: Goblin 2 at (10, 4) is 10 ft from (12, 4), but the spell blooms at
    // (8, 4), and the wall shields it from there.
    let o = t
        .act(json!({"actorName": "Wren", "actionType": "cast_spell", "spell": "Fireball", "to": {"x": 12, "y": 4}}))
        .unwrap();
    assert_eq!(o.headline, "Fireball (3rd level) is cast.");
    assert_eq!(
        o.lines[1..3],
        [
            "Wren has no clear path to (12, 4): an obstruction at (9, 4) is in the way, so the Fireball starts on the near side at (8, 4).",
            "no creature is inside the Fireball",
        ]
    );
    assert_eq!(t.sheet("Goblin 2").hp, 7);
    assert_eq!(t.sheet("Wren").spell_slots.used[2], 2);
}

/// Issue 18: a rogue hidden behind a wall is revealed at the first square of its move where the
/// goblin sees it clearly; its next attack from hiding would have had advantage, but now it
/// has none and the log says why.
#[test]
fn a_hidden_rogue_walking_into_view_is_revealed_where_it_is_seen() {
    let Some(mut t) = Table::new_on(
        2,
        &[fidelity::ROGUE],
        vec![("goblin", "Goblin", vec![(10, 3)], 5)],
        tabletop_engine::combat::create::TerrainSpec {
            width: Some(16),
            height: Some(16),
            walls: vec![
                Position::new(6, 2),
                Position::new(6, 3),
                Position::new(6, 4),
            ],
            ..Default::default()
        },
    ) else {
        return;
    };
    t.turn_of("Nim");
    let o = t
        .act(json!({"actorName": "Nim", "actionType": "hide"}))
        .unwrap();
    assert_eq!(
        o.headline,
        "Nim hides (Stealth 18), hidden from Goblin (passive 9)."
    );
    let nid = t.ids["Nim"].clone();
    // One step along the wall keeps it out of sight: still hidden.
    let o = t
        .act(json!({"actorName": "Nim", "actionType": "move", "to": {"x": 3, "y": 3}}))
        .unwrap();
    assert_eq!(
        o.headline,
        "Nim moves 5 ft to (3, 3) (25 ft of movement left)."
    );
    assert!(o.lines.is_empty(), "{:?}", o.lines);
    assert_eq!(t.enc().combatant(&nid).unwrap().flags.hidden, Some(18));
    let o = t
        .act(json!({"actorName": "Nim", "actionType": "move", "to": {"x": 2, "y": 8}}))
        .unwrap();
    assert_eq!(
        o.lines,
        vec!["Nim steps into Goblin's view at (4, 6) and is no longer hidden."]
    );
    assert_eq!(t.enc().combatant(&nid).unwrap().flags.hidden, None);
}
