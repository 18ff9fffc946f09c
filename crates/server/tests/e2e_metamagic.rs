//! Twinned Spell doubles a spell "that targets only one creature and doesn't have a range of
//! self": Haste and Poison Spray are twinned; Burning Hands (an area), Hold Person cast with a
//! higher slot (an additional creature per slot level) and a Self spell are refused, before any
//! sorcery point or slot is spent. SRD facts are read from the SRD JSON at run time.

use super::common;

use common::{Session, srd_desc};
use serde_json::{Value, json};

use common::srd_here as srd;

async fn sheet(s: &Session, name: &str) -> Value {
    s.ok("get_character", json!({"characterName": name}))
        .await
        .structured["character"]
        .clone()
}

fn cast(spell: &str, slot: Option<u8>, targets: &[&str]) -> Value {
    let list: Vec<Value> = targets.iter().map(|t| json!({"name": t})).collect();
    let mut a = json!({"actorName": "Sorin", "actionType": "cast_spell", "spell": spell,
                       "metamagic": ["twinned"], "targets": list});
    if let Some(n) = slot {
        a["slotLevel"] = json!(n);
    }
    a
}

#[tokio::test]
async fn twinned_spell_doubles_any_single_target_spell_and_nothing_else() {
    if !srd() {
        return;
    }
    let twinned = srd_desc("Features", "metamagic-twinned-spell");
    assert!(
        twinned.contains("a spell that targets only one creature and doesn't have a range of self"),
        "{twinned}"
    );
    let haste = srd_desc("Spells", "haste");
    assert!(
        haste.contains("choose a willing creature that you can see within range"),
        "{haste}"
    );
    let s = Session::start(3).await;
    s.ok(
        "create_character",
        json!({"name": "Sorin", "race": "human", "classes": [{"class": "sorcerer", "level": 6, "subclass": "draconic"}],
               "options": ["dragon-ancestor-red---fire-damage", "metamagic-twinned-spell", "metamagic-quickened-spell"],
               "stats": {"str": 8, "dex": 14, "con": 14, "int": 10, "wis": 12, "cha": 15},
               "spells": ["poison-spray", "fire-bolt", "burning-hands", "hold-person", "haste", "mirror-image"]}),
    )
    .await;
    s.ok(
        "create_character",
        json!({"name": "Ally", "race": "human", "class": "fighter", "level": 5,
               "stats": {"str": 15, "dex": 14, "con": 14, "int": 10, "wis": 12, "cha": 8}}),
    )
    .await;
    s.ok(
        "create_encounter",
        json!({"participants": [
            {"characterName": "Sorin", "position": {"x": 2, "y": 2}, "initiative": 25},
            {"characterName": "Ally", "position": {"x": 3, "y": 2}, "initiative": 20},
            {"monster": "thug", "position": {"x": 2, "y": 4}, "initiative": 5},
            {"monster": "bandit", "position": {"x": 3, "y": 4}, "initiative": 4}]}),
    )
    .await;
    let points = || async { sheet(&s, "Sorin").await["resources"].to_string() };
    let before = points().await;
    // Refused before anything is spent: an area, a higher-level Hold Person, a Self spell.
    s.err(
        "execute_action",
        cast("Burning Hands", None, &["Thug", "Bandit"]),
        &["Twinned Spell cannot apply to Burning Hands: it fills an area (it needs a spell that targets only one creature and whose range is not Self)"],
    )
    .await;
    s.err(
        "execute_action",
        cast("Hold Person", Some(3), &["Thug", "Bandit"]),
        &["Twinned Spell cannot apply to Hold Person: it can target more than one creature at level 3"],
    )
    .await;
    s.err(
        "execute_action",
        cast("Mirror Image", None, &["Sorin", "Ally"]),
        &["Twinned Spell cannot apply to Mirror Image: its range is Self"],
    )
    .await;
    assert_eq!(points().await, before);
    // Haste on the sorcerer and its ally.
    let a = s
        .ok("execute_action", cast("Haste", None, &["Sorin", "Ally"]))
        .await;
    for line in [
        "Twinned Spell: 3 sorcery point(s) spent (3 left); a second creature is targeted",
        "Sorin gains Haste (+2 AC, speed ×2, advantage on DEX saves)",
        "Ally gains Haste (+2 AC, speed ×2, advantage on DEX saves)",
    ] {
        assert!(a.text.lines().any(|l| l == line), "{line}: {}", a.text);
    }
    for name in ["Sorin", "Ally"] {
        assert!(
            sheet(&s, name).await["effects"]
                .to_string()
                .contains("Haste")
        );
    }
    // Next turn, a cantrip at two creatures: one sorcery point.
    for _ in 0..4 {
        s.ok("advance_turn", json!({})).await;
    }
    let a = s
        .ok(
            "execute_action",
            cast("Poison Spray", None, &["Thug", "Bandit"]),
        )
        .await;
    assert!(
        a.text.lines().any(|l| l
            == "Twinned Spell: 1 sorcery point(s) spent (2 left); a second creature is targeted"),
        "{}",
        a.text
    );
    assert!(
        a.text.contains("Thug — Constitution save vs Poison Spray"),
        "{}",
        a.text
    );
    assert!(
        a.text
            .contains("Bandit — Constitution save vs Poison Spray"),
        "{}",
        a.text
    );
}
