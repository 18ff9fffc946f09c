//! Worn magic that sharpens spells counts wherever the spell numbers do: a Robe of the
//! Archmagi (+2 spell save DC and spell attack bonus) and a Wand of the War Mage, +1 (+1 to spell
//! attack rolls) raise the sheet's numbers, a Fire Bolt's attack roll and a Burning Hands' DC.
//! SRD facts are read from the SRD JSON at run time; seeds are pinned.

use super::common;

use common::{Session, srd_desc};
use serde_json::json;

use common::srd_here as srd;

#[tokio::test]
async fn a_robe_and_a_war_mage_wand_raise_the_spell_attack_and_dc() {
    if !srd() {
        return;
    }
    let robe = srd_desc("Magic-Items", "robe-of-the-archmagi");
    assert!(
        robe.contains("your spell save dc and spell attack bonus each increase by 2"),
        "{robe}"
    );
    let wand = srd_desc("Magic-Items", "wand-of-the-war-mage-1");
    assert!(wand.contains("+1 bonus to spell attack rolls"), "{wand}");
    let s = Session::start(3).await;
    s.ok(
        "create_character",
        json!({"name": "Elara", "race": "elf", "subrace": "high-elf",
               "classes": [{"class": "wizard", "level": 5, "subclass": "evocation"}],
               "stats": {"str": 8, "dex": 14, "con": 14, "int": 15, "wis": 12, "cha": 10},
               "spells": ["fire-bolt", "burning-hands"], "spellbook": ["burning-hands"]}),
    )
    .await;
    // INT 15 + 1 (high elf) = 16: +3; proficiency +3.
    let sheet = s
        .ok("get_character", json!({"characterName": "Elara"}))
        .await;
    assert!(
        sheet
            .text
            .contains("Spellcasting: INT (save DC 14, attack +6)"),
        "{}",
        sheet.text
    );
    for item in ["Robe of the Archmagi", "Wand of the War Mage, +1"] {
        for op in ["give", "equip", "attune"] {
            s.ok(
                "manage_inventory",
                json!({"characterName": "Elara", "operation": op, "itemName": item}),
            )
            .await;
        }
    }
    let sheet = s
        .ok("get_character", json!({"characterName": "Elara"}))
        .await;
    assert!(
        sheet
            .text
            .contains("Spellcasting: INT (save DC 16, attack +9)"),
        "{}",
        sheet.text
    );
    s.ok(
        "create_encounter",
        json!({"participants": [
            {"characterName": "Elara", "position": {"x": 2, "y": 2}, "initiative": 25},
            {"monster": "ogre", "position": {"x": 5, "y": 2}, "initiative": 10}]}),
    )
    .await;
    let a = s
        .ok(
            "execute_action",
            json!({"actorName": "Elara", "actionType": "cast_spell", "spell": "Fire Bolt", "targetName": "Ogre"}),
        )
        .await;
    assert!(
        a.text
            .contains("Elara — Fire Bolt spell attack vs Ogre: d20 [19] + 9 = 28 vs AC 11 — hit"),
        "{}",
        a.text
    );
    s.ok("advance_turn", json!({})).await;
    s.ok("advance_turn", json!({})).await;
    let a = s
        .ok(
            "execute_action",
            json!({"actorName": "Elara", "actionType": "cast_spell", "spell": "Burning Hands", "direction": "e"}),
        )
        .await;
    assert!(
        a.text.contains("Ogre — Dexterity save vs Burning Hands: "),
        "{}",
        a.text
    );
    assert!(a.text.contains(" vs DC 16 — "), "{}", a.text);
}
