//! Fear, found applied short by a play-test, end to end over the real tools with an SRD-built
//! wizard and fighter and an SRD orc, the spell's text read from the SRD JSON at run time: a
//! creature that fails the save drops whatever it is holding (a stat block's weapons are the
//! DM's, and the answer says so), and it repeats the save at the end of its turn only where it
//! doesn't have line of sight to the caster.

use super::common;

use common::{Session, srd_desc};
use serde_json::json;

use common::srd_here as srd;

use common::has_line as has;

#[tokio::test]
async fn fear_drops_what_is_held_and_allows_its_save_only_out_of_sight() {
    if !srd() {
        return;
    }
    let fear = srd_desc("Spells", "fear");
    for want in [
        "each creature in a 30-foot cone must succeed on a wisdom saving throw or drop whatever it is holding and become frightened for the duration.",
        "if the creature ends its turn in a location where it doesn't have line of sight to you, the creature can make a wisdom saving throw. on a successful save, the spell ends for that creature.",
    ] {
        assert!(fear.contains(want), "{fear}");
    }
    let s = Session::start(1).await;
    s.ok(
        "create_character",
        json!({"name": "Wiz", "race": "human", "class": "wizard", "level": 5,
               "stats": {"str": 8, "dex": 14, "con": 14, "int": 18, "wis": 12, "cha": 10},
               "spells": ["fire bolt", "fear", "shield"]}),
    )
    .await;
    s.ok(
        "create_character",
        json!({"name": "Bandit", "characterType": "enemy", "race": "human", "class": "fighter", "level": 3,
               "stats": {"str": 16, "dex": 14, "con": 14, "int": 10, "wis": 4, "cha": 10}}),
    )
    .await;
    for op in ["give", "equip"] {
        s.ok(
            "manage_inventory",
            json!({"operation": op, "characterName": "Bandit", "itemName": "Longsword"}),
        )
        .await;
    }
    s.ok(
        "create_encounter",
        json!({"participants": [
            {"characterName": "Wiz", "position": {"x": 2, "y": 5}, "initiative": 20},
            {"characterName": "Bandit", "position": {"x": 5, "y": 5}, "initiative": 10},
            {"monster": "orc", "position": {"x": 5, "y": 6}, "initiative": 5}],
               "terrain": {"width": 20, "height": 20}}),
    )
    .await;
    let a = s
        .ok(
            "execute_action",
            json!({"actorName": "Wiz", "actionType": "cast_spell", "spell": "fear", "to": {"x": 5, "y": 5}}),
        )
        .await;
    has(
        &a.text,
        "Bandit is frightened; Bandit drops Longsword (it lies in Bandit's space, unequipped; taking it up again is manage_inventory equip)",
    );
    has(
        &a.text,
        "Orc is frightened; Orc drops whatever it is holding (nothing held on its sheet: no automation for a stat block's weapons, the DM decides what it drops)",
    );
    has(
        &a.text,
        "left to the DM: the forced Dash away by the safest route is left to the DM",
    );
    s.ok("advance_turn", json!({})).await;
    // The bandit ends its turn in the open, in sight of the wizard: no save.
    let t = s.ok("advance_turn", json!({})).await;
    has(
        &t.text,
        "- Bandit ends its turn in line of sight of Wiz: no save against frightened (Fear); it may save only where it can't see Wiz",
    );
    // A wall between the orc and the wizard: the orc saves at the end of its turn.
    s.ok(
        "modify_terrain",
        json!({"operation": "add", "terrain": "wall",
               "squares": [{"x": 4, "y": 3}, {"x": 4, "y": 4}, {"x": 4, "y": 5},
                           {"x": 4, "y": 6}, {"x": 4, "y": 7}, {"x": 4, "y": 8}]}),
    )
    .await;
    let t = s.ok("advance_turn", json!({})).await;
    has(
        &t.text,
        "- Orc — Wisdom save (ends frightened): d20 [15] = 15 vs DC 15 — success; frightened ends",
    );
    assert!(
        !t.text.contains("Orc ends its turn in line of sight"),
        "{}",
        t.text
    );
    // The bandit, still in sight, stays frightened: the spell holds on it.
    let c = s
        .ok(
            "manage_concentration",
            json!({"operation": "get", "characterName": "Wiz"}),
        )
        .await;
    assert!(c.text.starts_with("Wiz concentrates on Fear"), "{}", c.text);
}
