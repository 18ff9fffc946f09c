//! Issue 18 E: vision. The map's light (set with modify_terrain's light operation) and the
//! creatures' senses decide who sees whom: an attacker that cannot see its target has
//! disadvantage, a target that cannot see its attacker gives advantage. SRD party against SRD
//! goblins (darkvision 60 ft), pinned dice, exact results.

mod common;
mod fidelity;

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
