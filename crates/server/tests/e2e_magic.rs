//! The magic tools end to end over the real binary: cast_spell through execute_action (Fireball
//! on the grid, slots spent), use_scroll, manage_aura applied by hand, synthesize_spell, and the
//! errors that name the fix. SRD-dependent parts need the SRD data (see `common::srd_env`).

use super::common;

use common::Session;
use serde_json::json;

use common::srd_here as srd;

#[tokio::test]
async fn a_wizard_casts_scrolls_auras_and_improvises_in_a_fight() {
    if !srd() {
        return;
    }
    let s = Session::start(4).await;
    s.ok(
        "create_character",
        json!({"name": "Wren", "class": "wizard", "level": 5,
               "stats": {"str": 8, "dex": 14, "con": 14, "int": 16, "wis": 12, "cha": 10},
               "spells": ["Fire Bolt", "Ray of Frost", "Light", "Mage Hand", "Fireball",
                          "Magic Missile", "Shield", "Misty Step", "Burning Hands", "Sleep",
                          "Thunderwave", "Mage Armor"]}),
    )
    .await;
    s.ok(
        "create_encounter",
        json!({"participants": [
            {"characterName": "Wren", "position": {"x": 0, "y": 0}, "initiative": 30},
            {"monster": "ogre", "count": 2, "positions": [{"x": 8, "y": 8}, {"x": 10, "y": 8}], "initiative": 1}
        ]}),
    )
    .await;
    // Fireball needs a point of origin, within 150 ft.
    s.err(
        "execute_action",
        json!({"actorName": "Wren", "actionType": "cast_spell", "spell": "Fireball"}),
        &["Fireball needs a point of origin: `to` {x, y} within 150 feet"],
    )
    .await;
    let a = s
        .ok(
            "execute_action",
            json!({"actorName": "Wren", "actionType": "cast_spell", "spell": "Fireball", "to": {"x": 9, "y": 8}}),
        )
        .await;
    assert!(
        a.text.starts_with("Fireball (3rd level): Ogre 1"),
        "{}",
        a.text
    );
    let targets = a.structured["details"]["targets"].as_array().unwrap();
    assert_eq!(targets.len(), 2, "{}", a.text);
    for t in targets {
        let taken = t["damageTaken"].as_u64().unwrap();
        assert_eq!(t["hpAfter"].as_u64().unwrap(), 59 - taken, "{t}");
    }
    assert!(a.text.contains("3rd slot spent"), "{}", a.text);
    let slots = s
        .ok(
            "manage_spell_slots",
            json!({"characterName": "Wren", "operation": "view"}),
        )
        .await;
    assert!(slots.text.contains("3rd 1/2"), "{}", slots.text);
    // A scroll read in the fight (forced: the action is spent), consumed, no slot.
    s.ok(
        "manage_inventory",
        json!({"characterName": "Wren", "operation": "give", "item": {"name": "Scroll of Magic Missile"}}),
    )
    .await;
    let a = s
        .ok(
            "use_scroll",
            json!({"characterName": "Wren", "itemName": "Scroll of Magic Missile", "targetName": "Ogre 1", "force": true}),
        )
        .await;
    assert!(
        a.text.starts_with("Magic Missile (scroll) (1st level)"),
        "{}",
        a.text
    );
    assert!(a.text.contains("crumbles"), "{}", a.text);
    s.err(
        "use_scroll",
        json!({"characterName": "Wren", "spell": "Cure Wounds", "targetName": "Wren"}),
        &["not on the", "spell list"],
    )
    .await;
    // An aura around Ogre 2 hurting its enemies within 5 ft: Wren is far, so nothing happens.
    let a = s
        .ok(
            "manage_aura",
            json!({"operation": "create", "characterName": "Ogre 2", "name": "Stench", "radius": 5,
                   "damage": "1d4", "damageType": "poison", "affects": "enemies"}),
        )
        .await;
    assert!(a.text.contains("Stench (au1)"), "{}", a.text);
    let a = s
        .ok(
            "manage_aura",
            json!({"operation": "process", "auraId": "au1"}),
        )
        .await;
    assert!(!a.text.contains("Wren"), "Wren is outside: {}", a.text);
    let a = s
        .ok(
            "manage_aura",
            json!({"operation": "list", "characterName": "Wren"}),
        )
        .await;
    assert!(a.text.contains("No auras"), "{}", a.text);
    s.err(
        "manage_aura",
        json!({"operation": "create", "characterName": "Ogre 2", "radius": 5}),
        &["damage", "healing", "condition"],
    )
    .await;
    // Improvised magic: the answer says the DC and the tier.
    let a = s
        .ok(
            "synthesize_spell",
            json!({"characterName": "Wren", "name": "Frost Lash", "effectType": "damage", "level": 1,
                   "dice": "2d6", "damageType": "cold", "saveAbility": "con", "targetName": "Ogre 1", "force": true}),
        )
        .await;
    assert!(a.text.contains("DC 12"), "{}", a.text);
    let result = a.structured["result"].as_str().unwrap();
    assert!(
        ["success", "mastered", "fizzle", "backlash", "wild_surge"].contains(&result),
        "{}",
        a.text
    );
    s.err(
        "synthesize_spell",
        json!({"characterName": "Wren", "effectType": "damage", "level": 12, "dice": "1d6", "damageType": "fire"}),
        &["level", "1–9"],
    )
    .await;
}
