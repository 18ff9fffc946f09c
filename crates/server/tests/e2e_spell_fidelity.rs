//! Spells a second DM play-test found applied wrongly, end to end over the real tools with
//! SRD-built characters and SRD monsters, each SRD fact read from the SRD JSON at run time:
//! Hypnotic Pattern's charmed creatures are incapacitated with a speed of 0 and come to when
//! damaged; Sleep's sleepers wake when damaged; Disintegrate strikes the one creature named
//! and leaves dust that Revivify can't restore. Seeds are pinned.

use super::common;

use common::{Session, srd_desc};
use serde_json::{Value, json};

use common::srd_here as srd;

use common::has_line as has;

async fn conditions(s: &Session, name: &str) -> Value {
    s.ok("get_character", json!({"characterName": name}))
        .await
        .structured["character"]["conditions"]
        .clone()
}

/// A wizard 5 (INT 18) with `spell` prepared, and a fighter 5.
async fn party(s: &Session, spell: &str) {
    s.ok(
        "create_character",
        json!({"name": "Wiz", "race": "human", "class": "wizard", "level": 5,
               "stats": {"str": 8, "dex": 14, "con": 14, "int": 18, "wis": 12, "cha": 10},
               "spellbook": [spell, "magic missile", "shield"],
               "spells": ["fire bolt", "light", "mage hand", spell, "magic missile"]}),
    )
    .await;
    s.ok(
        "create_character",
        json!({"name": "Bo", "race": "human", "class": "fighter", "level": 5,
               "stats": {"str": 16, "dex": 12, "con": 14, "int": 10, "wis": 10, "cha": 10}}),
    )
    .await;
}

#[tokio::test]
async fn hypnotic_patterns_charmed_are_incapacitated_with_speed_0_until_damaged() {
    if !srd() {
        return;
    }
    let text = srd_desc("Spells", "hypnotic-pattern");
    for clause in [
        "while charmed by this spell, the creature is incapacitated and has a speed of 0.",
        "the spell ends for an affected creature if it takes any damage",
    ] {
        assert!(text.contains(clause), "{clause}: {text}");
    }
    let s = Session::start(6).await;
    party(&s, "hypnotic pattern").await;
    s.ok(
        "create_encounter",
        json!({"participants": [
            {"characterName": "Wiz", "position": {"x": 2, "y": 2}, "initiative": 20},
            {"characterName": "Bo", "position": {"x": 7, "y": 3}, "initiative": 18},
            {"monster": "thug", "position": {"x": 8, "y": 2}, "initiative": 10},
            {"monster": "bandit", "position": {"x": 8, "y": 4}, "initiative": 5}]}),
    )
    .await;
    let a = s
        .ok(
            "execute_action",
            json!({"actorName": "Wiz", "actionType": "cast_spell", "spell": "hypnotic pattern",
                   "to": {"x": 7, "y": 1}, "direction": "east",
                   "targets": [{"name": "Thug"}, {"name": "Bandit"}]}),
        )
        .await;
    for want in [
        "Thug — Wisdom save vs Hypnotic Pattern: d20 [13] = 13 vs DC 15 — fail",
        "Bandit — Wisdom save vs Hypnotic Pattern: d20 [5] = 5 vs DC 15 — fail",
    ] {
        has(&a.text, want);
    }
    let q = s
        .ok(
            "manage_condition",
            json!({"operation": "query", "characterName": "Thug"}),
        )
        .await;
    has(
        &q.text,
        "- charmed (Hypnotic Pattern, concentration (Wiz: Hypnotic Pattern)): can't attack the \
         charmer or target it with harmful abilities or magical effects; the charmer has \
         advantage on ability checks to interact socially with it; can't take actions or \
         reactions (Hypnotic Pattern); speed 0 (Hypnotic Pattern); ends if it takes any damage",
    );
    // The fighter's first punch brings the bandit round; the thug stays entranced.
    s.ok("advance_turn", json!({})).await;
    let a = s
        .ok(
            "execute_action",
            json!({"actorName": "Bo", "actionType": "attack", "targetName": "Bandit", "weapon": "unarmed strike"}),
        )
        .await;
    for want in [
        "Bo attack with Unarmed strike: d20 [15] + 6 = 21 vs AC 12 — hit",
        "Bandit is no longer charmed (Hypnotic Pattern): it took damage",
        "Bandit takes 4 (4 bludgeoning); 11 → 7 HP",
    ] {
        has(&a.text, want);
    }
    assert_eq!(conditions(&s, "Bandit").await, json!([]));
    assert_eq!(conditions(&s, "Thug").await[0]["condition"], "charmed");
    s.ok("advance_turn", json!({})).await;
    s.err(
        "execute_action",
        json!({"actorName": "Thug", "actionType": "move", "to": {"x": 8, "y": 1}}),
        &["speed 0: Hypnotic Pattern"],
    )
    .await;
    s.err(
        "execute_action",
        json!({"actorName": "Thug", "actionType": "dash"}),
        &["Thug is incapacitated and can take no actions or reactions"],
    )
    .await;
}

#[tokio::test]
async fn a_creature_put_to_sleep_wakes_when_it_takes_damage() {
    if !srd() {
        return;
    }
    let text = srd_desc("Spells", "sleep");
    assert!(
        text.contains(
            "the sleeper takes damage, or someone uses an action to shake or slap the sleeper awake"
        ),
        "{text}"
    );
    let s = Session::start(2).await;
    party(&s, "sleep").await;
    s.ok(
        "create_encounter",
        json!({"participants": [
            {"characterName": "Wiz", "position": {"x": 2, "y": 2}, "initiative": 20},
            {"characterName": "Bo", "position": {"x": 7, "y": 3}, "initiative": 18},
            {"monster": "goblin", "position": {"x": 8, "y": 3}, "initiative": 10}]}),
    )
    .await;
    let a = s
        .ok(
            "execute_action",
            json!({"actorName": "Wiz", "actionType": "cast_spell", "spell": "sleep",
                   "to": {"x": 8, "y": 3}}),
        )
        .await;
    has(
        &a.text,
        "Goblin (7 HP) is unconscious, no damage (14 HP of the pool left); Goblin falls prone",
    );
    has(
        &a.text,
        "a sleeper wakes when it takes damage (the engine ends the condition), or when someone \
         uses an action to shake or slap it awake (remove the condition with manage_condition)",
    );
    assert_eq!(
        conditions(&s, "Goblin").await[0]["condition"],
        "unconscious"
    );
    s.ok("advance_turn", json!({})).await;
    let a = s
        .ok(
            "execute_action",
            json!({"actorName": "Bo", "actionType": "attack", "targetName": "Goblin", "weapon": "unarmed strike"}),
        )
        .await;
    for want in [
        "Goblin is no longer unconscious (Sleep): it took damage",
        "Goblin takes 4 (4 bludgeoning), critical; 7 → 3 HP",
    ] {
        has(&a.text, want);
    }
    let left: Vec<Value> = conditions(&s, "Goblin")
        .await
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["condition"] == "unconscious")
        .cloned()
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

/// Disintegrate is a ray at one target, not the 10-foot cube the SRD data lists (the portion of
/// a Huge object it destroys); a creature it leaves at 0 HP is dust, beyond Revivify.
#[tokio::test]
async fn disintegrate_strikes_its_one_target_and_leaves_dust() {
    if !srd() {
        return;
    }
    let text = srd_desc("Spells", "disintegrate");
    for clause in [
        "a thin green ray springs from your pointing finger to a target that you can see within range.",
        "if this damage reduces the target to 0 hit points, it is disintegrated.",
        "the creature can be restored to life only by means of a true resurrection or a wish spell.",
        "if the target is a huge or larger object or creation of force, this spell disintegrates a 10-foot-cube portion of it.",
    ] {
        assert!(text.contains(clause), "{clause}: {text}");
    }
    assert_eq!(
        common::srd_record("Spells", "disintegrate")["area_of_effect"]["size"],
        10
    );
    let s = Session::start(5).await;
    s.ok(
        "create_character",
        json!({"name": "Wiz", "race": "human", "class": "wizard", "level": 11,
               "stats": {"str": 8, "dex": 14, "con": 14, "int": 18, "wis": 12, "cha": 10},
               "spellbook": ["disintegrate", "magic missile", "shield"],
               "spells": ["fire bolt", "light", "mage hand", "disintegrate", "magic missile"]}),
    )
    .await;
    s.ok(
        "create_character",
        json!({"name": "Bo", "race": "human", "class": "fighter", "level": 5,
               "stats": {"str": 16, "dex": 12, "con": 18, "int": 10, "wis": 10, "cha": 10}}),
    )
    .await;
    s.ok(
        "create_character",
        json!({"name": "Cleo", "race": "dwarf", "subrace": "hill-dwarf", "class": "cleric", "level": 5,
               "stats": {"str": 14, "dex": 10, "con": 14, "int": 10, "wis": 16, "cha": 12},
               "spells": ["revivify", "cure wounds", "sacred flame", "guidance", "light", "thaumaturgy"]}),
    )
    .await;
    s.ok(
        "create_encounter",
        json!({"participants": [
            {"characterName": "Wiz", "position": {"x": 2, "y": 2}, "initiative": 20},
            {"characterName": "Cleo", "position": {"x": 8, "y": 4}, "initiative": 19},
            {"characterName": "Bo", "position": {"x": 8, "y": 3}, "initiative": 1},
            {"monster": "bandit", "position": {"x": 9, "y": 3}, "initiative": 4}]}),
    )
    .await;
    // Cast on the fighter (a charmed wizard's choice, say): the bandit beside him is not in it.
    let a = s
        .ok(
            "execute_action",
            json!({"actorName": "Wiz", "actionType": "cast_spell", "spell": "disintegrate",
                   "targetName": "Bo", "force": true}),
        )
        .await;
    for want in [
        "Disintegrate (6th level): Bo takes 79 force (54 → 0 HP) and dies.",
        "Bo — Dexterity save vs Disintegrate: d20 [2] + 1 = 3 vs DC 16 — fail",
        "Bo is disintegrated (Disintegrate): it and everything it wears and carries, except magic items, are reduced to a pile of fine gray dust; only true resurrection or wish restores it",
        "Bo is dust at (8, 3) (out of the initiative; only true resurrection or wish restores it).",
    ] {
        has(&a.text, want);
    }
    assert!(!a.text.contains("Bandit"), "{}", a.text);
    let bo = s
        .ok("get_character", json!({"characterName": "Bo"}))
        .await
        .structured["character"]
        .clone();
    assert_eq!(
        (bo["hp"].clone(), bo["dead"].clone()),
        (json!(0), json!(true))
    );
    s.ok("advance_turn", json!({})).await;
    s.err(
        "execute_action",
        json!({"actorName": "Cleo", "actionType": "cast_spell", "spell": "revivify", "targetName": "Bo"}),
        &["Bo was disintegrated: only true resurrection or wish restores it, not Revivify (nothing was spent)"],
    )
    .await;
}

/// A mage's Counterspell waits for a casting the caster can make: an unprepared Hold Person is
/// refused first, nothing spent on either side. A countered Guiding Bolt was still cast with the
/// action, so no bonus-action spell follows it.
#[tokio::test]
async fn counterspell_answers_only_a_legal_casting_and_a_countered_spell_was_cast() {
    if !srd() {
        return;
    }
    let counter = srd_desc("Spells", "counterspell");
    assert!(
        counter.contains("you attempt to interrupt a creature in the process of casting a spell."),
        "{counter}"
    );
    let casting = common::srd_record("Rule-Sections", "casting-a-spell")["desc"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        casting.contains(
            "You can't cast another spell during the same turn, except for a cantrip with a \
             casting time of 1 action."
        ),
        "{casting}"
    );
    let s = Session::start(1).await;
    s.ok(
        "create_character",
        json!({"name": "Wiz", "race": "human", "class": "wizard", "level": 5,
               "stats": {"str": 8, "dex": 14, "con": 14, "int": 18, "wis": 12, "cha": 10},
               "spellbook": ["magic missile", "shield", "hold person"],
               "spells": ["fire bolt", "light", "mage hand", "magic missile", "shield"]}),
    )
    .await;
    s.ok(
        "create_character",
        json!({"name": "Cleo", "race": "human", "level": 5,
               "classes": [{"class": "cleric", "level": 5, "subclass": "life"}],
               "stats": {"str": 14, "dex": 10, "con": 14, "int": 10, "wis": 18, "cha": 12},
               "spells": ["sacred flame", "guidance", "light", "bane", "guiding bolt", "spiritual weapon"]}),
    )
    .await;
    s.ok(
        "create_encounter",
        json!({"participants": [
            {"characterName": "Wiz", "position": {"x": 2, "y": 2}, "initiative": 20},
            {"characterName": "Cleo", "position": {"x": 2, "y": 4}, "initiative": 19},
            {"monster": "ogre", "position": {"x": 4, "y": 2}, "initiative": 5},
            {"monster": "mage", "position": {"x": 8, "y": 8}, "initiative": 4}]}),
    )
    .await;
    s.err(
        "execute_action",
        json!({"actorName": "Wiz", "actionType": "cast_spell", "spell": "hold person", "targetName": "Ogre"}),
        &["Wiz does not have prepared Hold Person"],
    )
    .await;
    let slots = |who: &'static str| {
        let s = &s;
        async move {
            s.ok(
                "manage_spell_slots",
                json!({"operation": "view", "characterName": who}),
            )
            .await
            .text
        }
    };
    has(
        &slots("Wiz").await,
        "Wiz slots (left/max): 1st 4/4, 2nd 3/3, 3rd 2/2.",
    );
    has(
        &slots("Mage").await,
        "Mage slots (left/max): 1st 4/4, 2nd 3/3, 3rd 3/3, 4th 3/3, 5th 1/1.",
    );
    s.ok("advance_turn", json!({})).await;
    let a = s
        .ok(
            "execute_action",
            json!({"actorName": "Cleo", "actionType": "cast_spell", "spell": "guiding bolt", "targetName": "Ogre"}),
        )
        .await;
    for want in [
        "Cleo's Guiding Bolt is countered: it has no effect.",
        "Mage casts Counterspell as a reaction (3rd-level slot) against Cleo's Guiding Bolt.",
        "Cleo's 1st-level slot is spent all the same.",
    ] {
        has(&a.text, want);
    }
    s.err(
        "execute_action",
        json!({"actorName": "Cleo", "actionType": "cast_spell", "spell": "spiritual weapon",
               "targetName": "Ogre", "to": {"x": 3, "y": 3}}),
        &["Cleo cast a spell of 1st level or higher with its action this turn; no bonus-action spell now"],
    )
    .await;
}
