//! Rules a play-test of the general rules found applied wrongly, end to end over the real binary
//! with SRD-built characters and SRD monsters, the SRD wording read from the JSON at run time:
//! an incapacitated creature uses no object itself and a potion costs the action on both routes;
//! a charmed creature can't attack its charmer, and the charmer's side harming it ends Charm
//! Person; Help lapses at the start of the helper's next turn and roll_check applies it; a
//! loading weapon fires once per action and a one-handed one needs a free hand to load.

use super::common;

use common::{Session, srd_desc as desc};
use serde_json::{Value, json};

use common::srd_here as srd;

fn stats() -> Value {
    json!({"str": 16, "dex": 14, "con": 14, "int": 10, "wis": 12, "cha": 10})
}

async fn fighter(s: &Session, name: &str) {
    s.ok(
        "create_character",
        json!({"name": name, "race": "human", "class": "fighter", "level": 5, "stats": stats()}),
    )
    .await;
}

async fn give(s: &Session, who: &str, item: &str, n: u32) {
    s.ok(
        "manage_inventory",
        json!({"operation": "give", "characterName": who, "itemName": item, "quantity": n}),
    )
    .await;
}

async fn equip(s: &Session, who: &str, item: &str) {
    s.ok(
        "manage_inventory",
        json!({"operation": "equip", "characterName": who, "itemName": item}),
    )
    .await;
}

/// The last line of an answer ("Bram has left: …").
fn last(text: &str) -> &str {
    text.lines().last().unwrap_or_default()
}

#[tokio::test]
async fn an_incapacitated_creature_drinks_nothing_itself_and_a_potion_costs_the_action() {
    if !srd() {
        return;
    }
    let use_object = common::srd_record("Rule-Sections", "actions-in-combat")["desc"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        use_object.contains(
            "When an object requires your action for its use, you take the Use an Object action."
        ),
        "{use_object}"
    );
    let incap = desc("Conditions", "incapacitated");
    assert!(
        incap.contains("an incapacitated creature can't take actions or reactions"),
        "{incap}"
    );
    let s = Session::start(41).await;
    fighter(&s, "Bram").await;
    fighter(&s, "Rin").await;
    give(&s, "Bram", "Potion of Healing", 2).await;
    give(&s, "Rin", "Potion of Healing", 1).await;
    s.ok(
        "create_encounter",
        json!({"participants": [
            {"characterName": "Bram", "position": {"x": 5, "y": 5}, "initiative": 30},
            {"characterName": "Rin", "position": {"x": 5, "y": 6}, "initiative": 20},
            {"monster": "goblin", "position": {"x": 9, "y": 5}, "initiative": 10}
        ]}),
    )
    .await;
    s.ok(
        "update_character",
        json!({"characterName": "Bram", "damage": [{"amount": 44, "type": "slashing"}]}),
    )
    .await;
    // Unconscious at 0 HP: no potion drunk through either route, nor through the inventory.
    s.err(
        "execute_action",
        json!({"actorName": "Bram", "actionType": "use_object", "item": "Potion of Healing"}),
        &["Bram is incapacitated and can take no actions or reactions (pass force: true"],
    )
    .await;
    // Nor the free object interaction.
    s.err(
        "execute_action",
        json!({"actorName": "Bram", "actionType": "use_object", "description": "pulls the lever"}),
        &["Bram is incapacitated and can take no actions or reactions, nor use an object itself (another creature may administer a potion to it: use_magic_item with targetName)"],
    )
    .await;
    s.err(
        "manage_inventory",
        json!({"operation": "use", "characterName": "Bram", "itemName": "Potion of Healing"}),
        &["Bram is incapacitated and can take no actions: it cannot use Potion of Healing itself; another creature can administer a potion to it (give it the potion, then use it with targetName Bram)"],
    )
    .await;
    // Rin, on its turn, administers its own potion to Bram: allowed, and it costs Rin's action.
    s.ok("advance_turn", json!({})).await;
    let r = s
        .ok(
            "execute_action",
            json!({"actorName": "Rin", "actionType": "use_object", "item": "Potion of Healing", "targetName": "Bram"}),
        )
        .await;
    assert_eq!(
        r.text.lines().next().unwrap_or_default(),
        "Rin uses Potion of Healing on Bram: Bram heals 9 (0 → 9 HP); regains consciousness; Potion of Healing used up (0 left).",
        "{}",
        r.text
    );
    assert_eq!(
        last(&r.text),
        "Rin has left: bonus action, reaction.",
        "{}",
        r.text
    );
    // Back on Bram's turn, awake: the potion is the action, not the free interaction.
    s.ok("advance_turn", json!({})).await;
    s.ok("advance_turn", json!({})).await;
    s.err(
        "execute_action",
        json!({"actorName": "Bram", "actionType": "use_object", "item": "Potion of Healing", "actionCost": "free"}),
        &["use_object costs an action by the rules and no rule lets Bram take it as nothing (free)"],
    )
    .await;
    let r = s
        .ok(
            "execute_action",
            json!({"actorName": "Bram", "actionType": "use_object", "item": "Potion of Healing"}),
        )
        .await;
    assert_eq!(
        r.text.lines().next().unwrap_or_default(),
        "Bram uses Potion of Healing: Bram heals 10 (9 → 19 HP); Potion of Healing used up (1 left).",
        "{}",
        r.text
    );
    assert_eq!(
        last(&r.text),
        "Bram has left: bonus action, reaction.",
        "{}",
        r.text
    );
    // A paralyzed creature is incapacitated too.
    s.ok(
        "manage_condition",
        json!({"operation": "add", "characterName": "Bram", "condition": "paralyzed"}),
    )
    .await;
    s.err(
        "manage_inventory",
        json!({"operation": "use", "characterName": "Bram", "itemName": "Potion of Healing"}),
        &["Bram is incapacitated and can take no actions: it cannot use Potion of Healing itself"],
    )
    .await;
}

#[tokio::test]
async fn a_charmed_orc_cannot_attack_its_charmer_and_harm_from_the_charmer_ends_the_charm() {
    if !srd() {
        return;
    }
    let charmed = desc("Conditions", "charmed");
    assert!(
        charmed.contains("a charmed creature can't attack the charmer or target the charmer with harmful abilities or magical effects"),
        "{charmed}"
    );
    let charm = desc("Spells", "charm-person");
    assert!(
        charm.contains("it is charmed by you until the spell ends or until you or your companions do anything harmful to it"),
        "{charm}"
    );
    let s = Session::start(43).await;
    s.ok(
        "create_character",
        json!({"name": "Wiz", "race": "human", "class": "wizard", "level": 3, "spells": ["charm-person"],
               "stats": {"str": 8, "dex": 14, "con": 12, "int": 16, "wis": 12, "cha": 10}}),
    )
    .await;
    fighter(&s, "Bram").await;
    give(&s, "Bram", "Dagger", 1).await;
    equip(&s, "Bram", "Dagger").await;
    s.ok(
        "create_encounter",
        json!({"participants": [
            {"characterName": "Wiz", "position": {"x": 5, "y": 5}, "initiative": 30},
            {"monster": "orc", "position": {"x": 6, "y": 5}, "initiative": 20},
            {"characterName": "Bram", "position": {"x": 7, "y": 5}, "initiative": 10}
        ]}),
    )
    .await;
    let mut charmed_now = false;
    for _ in 0..4 {
        let r = s
            .ok(
                "execute_action",
                json!({"actorName": "Wiz", "actionType": "cast_spell", "spell": "Charm Person", "targetName": "Orc", "force": true}),
            )
            .await;
        if r.text.contains("Orc is charmed") {
            charmed_now = true;
            break;
        }
    }
    assert!(charmed_now, "the orc never failed its save");
    s.ok("advance_turn", json!({})).await;
    s.err(
        "execute_action",
        json!({"actorName": "Orc", "actionType": "attack", "targetName": "Wiz", "weapon": "Greataxe"}),
        &["Orc is charmed by Wiz (Charm Person) and can't attack its charmer"],
    )
    .await;
    // Bram, Wiz's companion, stabs the orc: the charm ends.
    s.ok("advance_turn", json!({})).await;
    let mut hit = String::new();
    for _ in 0..8 {
        let r = s
            .ok(
                "execute_action",
                json!({"actorName": "Bram", "actionType": "attack", "targetName": "Orc", "weapon": "Dagger", "force": true}),
            )
            .await;
        if r.text.starts_with("Hit!") || r.text.starts_with("Critical hit!") {
            hit = r.text;
            break;
        }
    }
    assert!(
        hit.lines()
            .any(|l| l == "Orc is no longer charmed (Charm Person): its charmer's side harmed it"),
        "{hit}"
    );
    let q = s
        .ok(
            "manage_condition",
            json!({"operation": "query", "characterName": "Orc"}),
        )
        .await;
    assert_eq!(q.text.trim(), "Orc:\nOrc has no conditions.", "{}", q.text);
}

#[tokio::test]
async fn help_lapses_at_the_start_of_the_helpers_next_turn_and_roll_check_applies_it() {
    if !srd() {
        return;
    }
    let help = common::srd_record("Rule-Sections", "actions-in-combat")["desc"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        help.contains("the creature you aid gains advantage on the next ability check it makes to perform the task you are helping with, provided that it makes the check before the start of your next turn."),
        "{help}"
    );
    assert!(
        help.contains("If your ally attacks the target before your next turn, the first attack roll is made with advantage."),
        "{help}"
    );
    let s = Session::start(47).await;
    fighter(&s, "Bram").await;
    fighter(&s, "Rin").await;
    s.ok(
        "create_encounter",
        json!({"participants": [
            {"characterName": "Rin", "position": {"x": 6, "y": 6}, "initiative": 30},
            {"characterName": "Bram", "position": {"x": 5, "y": 5}, "initiative": 20},
            {"monster": "orc", "position": {"x": 6, "y": 5}, "initiative": 10}
        ]}),
    )
    .await;
    // (a) Help on a check survives Bram's own turn start and roll_check applies it once.
    s.ok(
        "execute_action",
        json!({"actorName": "Rin", "actionType": "help", "targetName": "Bram"}),
    )
    .await;
    s.ok("advance_turn", json!({})).await;
    let c = s
        .ok(
            "roll_check",
            json!({"characterName": "Bram", "checkType": "skill", "skill": "athletics"}),
        )
        .await;
    assert_eq!(
        c.text.lines().next().unwrap_or_default(),
        "Bram — Athletics check: d20 [~~1~~, 7] (advantage: helped (Help action)) + 6 = 13",
        "{}",
        c.text
    );
    let c = s
        .ok(
            "roll_check",
            json!({"characterName": "Bram", "checkType": "skill", "skill": "athletics"}),
        )
        .await;
    assert!(
        c.text.starts_with("Bram — Athletics check: d20 [") && !c.text.contains("advantage"),
        "the help is used up: {}",
        c.text
    );
    // (b) Help on an attack lapses at the start of Rin's next turn.
    s.ok("advance_turn", json!({})).await;
    s.ok("advance_turn", json!({})).await;
    s.ok(
        "execute_action",
        json!({"actorName": "Rin", "actionType": "help", "targetName": "Bram", "targets": [{"name": "Orc"}]}),
    )
    .await;
    s.ok("advance_turn", json!({})).await;
    s.ok("advance_turn", json!({})).await;
    let t = s.ok("advance_turn", json!({})).await;
    assert!(
        t.text
            .lines()
            .any(|l| l == "- Rin's Help to Bram lapses unused (its turn starts)"),
        "{}",
        t.text
    );
    s.ok("advance_turn", json!({})).await;
    let a = s
        .ok(
            "execute_action",
            json!({"actorName": "Bram", "actionType": "attack", "targetName": "Orc"}),
        )
        .await;
    assert!(!a.text.contains("helped"), "{}", a.text);
}

#[tokio::test]
async fn a_loading_crossbow_fires_once_per_action_and_needs_a_free_hand_to_load() {
    if !srd() {
        return;
    }
    let loading = desc("Weapon-Properties", "loading");
    assert!(
        loading.contains("you can fire only one piece of ammunition from it when you use an action, bonus action, or reaction to fire it, regardless of the number of attacks you can normally make"),
        "{loading}"
    );
    let ammo = desc("Weapon-Properties", "ammunition");
    assert!(
        ammo.contains("you need a free hand to load a one-handed weapon"),
        "{ammo}"
    );
    let s = Session::start(53).await;
    fighter(&s, "Bram").await;
    fighter(&s, "Ash").await;
    give(&s, "Bram", "Crossbow, light", 1).await;
    give(&s, "Bram", "Crossbow Bolt", 10).await;
    equip(&s, "Bram", "Crossbow, light").await;
    give(&s, "Ash", "Crossbow, hand", 1).await;
    give(&s, "Ash", "Shield", 1).await;
    give(&s, "Ash", "Crossbow Bolt", 10).await;
    equip(&s, "Ash", "Crossbow, hand").await;
    equip(&s, "Ash", "Shield").await;
    s.ok(
        "create_encounter",
        json!({"participants": [
            {"characterName": "Bram", "position": {"x": 5, "y": 5}, "initiative": 30},
            {"characterName": "Ash", "position": {"x": 5, "y": 8}, "initiative": 20},
            {"monster": "ogre", "position": {"x": 10, "y": 5}, "initiative": 10}
        ]}),
    )
    .await;
    let r = s
        .ok(
            "execute_action",
            json!({"actorName": "Bram", "actionType": "attack", "targetName": "Ogre", "weapon": "Crossbow, light"}),
        )
        .await;
    assert!(
        r.text
            .lines()
            .any(|l| l == "Bram fires one Crossbow bolt from the Crossbow, light (9 left)."),
        "{}",
        r.text
    );
    assert_eq!(
        last(&r.text),
        "Bram has left: 1 attack(s) of the Attack action, bonus action, reaction.",
        "{}",
        r.text
    );
    s.err(
        "execute_action",
        json!({"actorName": "Bram", "actionType": "attack", "targetName": "Ogre", "weapon": "Crossbow, light"}),
        &["the Crossbow, light has the loading property: Bram already fired it with this action"],
    )
    .await;
    s.ok("advance_turn", json!({})).await;
    s.err(
        "execute_action",
        json!({"actorName": "Ash", "actionType": "attack", "targetName": "Ogre", "weapon": "Crossbow, hand"}),
        &["Ash needs a free hand to load the Crossbow, hand (a one-handed weapon) and has none (Crossbow, hand in the main hand, Shield in the off hand)"],
    )
    .await;
}

#[tokio::test]
async fn a_second_long_rest_within_24_hours_is_refused_and_a_party_shares_one() {
    if !srd() {
        return;
    }
    let resting = common::srd_record("Rule-Sections", "resting")["desc"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        resting
            .contains("A character can't benefit from more than one long rest in a 24-hour period"),
        "{resting}"
    );
    let s = Session::start(59).await;
    fighter(&s, "Bram").await;
    fighter(&s, "Rin").await;
    s.ok(
        "manage_condition",
        json!({"operation": "add", "characterName": "Bram", "condition": "exhaustion", "level": 3}),
    )
    .await;
    let r = s
        .ok(
            "take_rest",
            json!({"characterName": "Bram", "type": "long"}),
        )
        .await;
    assert!(
        r.text.contains("exhaustion 3 → 2")
            && r.text.contains("clock: Day 1, 08:00 → Day 1, 16:00 (8 h)"),
        "{}",
        r.text
    );
    // Rin rests beside Bram: the same rest, the clock does not move again.
    let r = s
        .ok("take_rest", json!({"characterName": "Rin", "type": "long"}))
        .await;
    assert!(!r.text.contains("clock:"), "{}", r.text);
    // Bram again at once: refused, nothing restored, the clock where it was.
    s.err(
        "take_rest",
        json!({"characterName": "Bram", "type": "long"}),
        &["Bram finished a long rest at Day 1, 16:00, and a character can't benefit from more than one long rest in a 24-hour period: the next one can end at Day 2, 16:00 at the earliest (start it at Day 2, 08:00; pass time with advance_time first), or take a short rest"],
    )
    .await;
    s.ok("advance_time", json!({"hours": 15})).await;
    s.err(
        "take_rest",
        json!({"characterName": "Bram", "type": "long"}),
        &["the next one can end at Day 2, 16:00 at the earliest"],
    )
    .await;
    s.ok("advance_time", json!({"hours": 1})).await;
    let r = s
        .ok(
            "take_rest",
            json!({"characterName": "Bram", "type": "long"}),
        )
        .await;
    assert!(
        r.text.contains("exhaustion 2 → 1")
            && r.text.contains("clock: Day 2, 08:00 → Day 2, 16:00 (8 h)"),
        "{}",
        r.text
    );
}

#[tokio::test]
async fn roll_check_gives_a_dodging_creature_advantage_on_a_dex_save() {
    if !srd() {
        return;
    }
    let dodge = common::srd_record("Rule-Sections", "actions-in-combat")["desc"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        dodge.contains("you make Dexterity saving throws with advantage"),
        "{dodge}"
    );
    let s = Session::start(61).await;
    fighter(&s, "Bram").await;
    s.ok(
        "create_encounter",
        json!({"participants": [
            {"characterName": "Bram", "position": {"x": 5, "y": 5}, "initiative": 30},
            {"monster": "goblin", "position": {"x": 6, "y": 5}, "initiative": 10}
        ]}),
    )
    .await;
    s.ok(
        "execute_action",
        json!({"actorName": "Bram", "actionType": "dodge"}),
    )
    .await;
    s.ok("advance_turn", json!({})).await;
    let r = s
        .ok(
            "roll_check",
            json!({"characterName": "Bram", "checkType": "save", "ability": "dex", "dc": 15, "reason": "pit trap"}),
        )
        .await;
    assert_eq!(
        r.text.lines().next().unwrap_or_default(),
        "Bram — Dexterity save (pit trap): d20 [4, ~~1~~] (advantage: dodging) + 2 = 6 vs DC 15 — fail",
        "{}",
        r.text
    );
    // A STR save gets nothing from the Dodge.
    let r = s
        .ok(
            "roll_check",
            json!({"characterName": "Bram", "checkType": "save", "ability": "str", "dc": 15}),
        )
        .await;
    assert!(!r.text.contains("advantage"), "{}", r.text);
}

#[tokio::test]
async fn a_sleeper_falls_prone_and_a_sleeping_flyer_falls_from_the_air() {
    if !srd() {
        return;
    }
    let unconscious = desc("Conditions", "unconscious");
    assert!(
        unconscious.contains("the creature drops whatever it's holding and falls prone"),
        "{unconscious}"
    );
    let flying = common::srd_record("Rule-Sections", "movement-and-position")["desc"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        flying.contains("If a flying creature is knocked prone, has its speed reduced to 0, or is otherwise deprived of the ability to move, the creature falls, unless it has the ability to hover"),
        "{flying}"
    );
    let falling = common::srd_record("Rule-Sections", "the-environment")["desc"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        falling.contains("At the end of a fall, a creature takes 1d6 bludgeoning damage for every 10 feet it fell, to a maximum of 20d6. The creature lands prone"),
        "{falling}"
    );
    let s = Session::start(67).await;
    s.ok(
        "create_character",
        json!({"name": "Wiz", "race": "human", "class": "wizard", "level": 3, "spells": ["sleep"],
               "stats": {"str": 8, "dex": 14, "con": 12, "int": 16, "wis": 12, "cha": 10}}),
    )
    .await;
    s.ok(
        "create_encounter",
        json!({"participants": [
            {"characterName": "Wiz", "position": {"x": 5, "y": 5}, "initiative": 30},
            {"monster": "blood-hawk", "position": {"x": 10, "y": 5, "z": 2}, "initiative": 20},
            {"monster": "goblin", "position": {"x": 10, "y": 7}, "initiative": 10}
        ]}),
    )
    .await;
    let r = s
        .ok(
            "execute_action",
            json!({"actorName": "Wiz", "actionType": "cast_spell", "spell": "Sleep", "to": {"x": 10, "y": 6, "z": 1}}),
        )
        .await;
    for line in [
        "Blood Hawk can't stay aloft and falls 10 ft to the ground: 1d6 bludgeoning = 1 (1d6: [1] = 1)",
        "Blood Hawk is no longer unconscious (Sleep): it took damage",
        "Blood Hawk takes 1 (1 bludgeoning); 7 → 6 HP",
    ] {
        assert!(r.text.lines().any(|l| l == line), "{line}: {}", r.text);
    }
    assert!(
        r.text.lines().any(|l| l == "Goblin (7 HP) is unconscious, no damage (7 HP of the pool left); Goblin falls prone"),
        "{}",
        r.text
    );
    let g = s
        .ok(
            "manage_condition",
            json!({"operation": "query", "characterName": "Goblin"}),
        )
        .await;
    assert!(
        g.text
            .lines()
            .any(|l| l.starts_with("- prone (Sleep, until removed)")),
        "{}",
        g.text
    );
    let e = s.ok("get_encounter", json!({})).await;
    assert!(
        e.text
            .lines()
            .any(|l| l == "- 20 Blood Hawk · enemy · HP 6/7 · AC 12 · (10, 5) · prone"),
        "on the ground, awake and prone: {}",
        e.text
    );
    // The goblin is woken (a slap): still prone, it stands up before it walks.
    s.ok(
        "manage_condition",
        json!({"operation": "remove", "characterName": "Goblin", "condition": "unconscious"}),
    )
    .await;
    s.ok("advance_turn", json!({})).await;
    let t = s.ok("advance_turn", json!({})).await;
    assert!(t.text.starts_with("Round 1: Goblin's turn."), "{}", t.text);
    let m = s
        .ok(
            "execute_action",
            json!({"actorName": "Goblin", "actionType": "move", "to": {"x": 10, "y": 10}}),
        )
        .await;
    assert_eq!(
        m.text.lines().next().unwrap_or_default(),
        "Goblin stands up. Goblin moves 15 ft to (10, 10) (0 ft of movement left).",
        "{}",
        m.text
    );
}

#[tokio::test]
async fn a_fighter_dropped_to_0_hp_drops_its_sword_and_takes_it_up_again() {
    if !srd() {
        return;
    }
    let s = Session::start(71).await;
    fighter(&s, "Bram").await;
    give(&s, "Bram", "Longsword", 1).await;
    give(&s, "Bram", "Shield", 1).await;
    equip(&s, "Bram", "Longsword").await;
    equip(&s, "Bram", "Shield").await;
    s.ok(
        "create_encounter",
        json!({"participants": [
            {"characterName": "Bram", "position": {"x": 5, "y": 5}, "initiative": 30},
            {"monster": "goblin", "position": {"x": 6, "y": 5}, "initiative": 10}
        ]}),
    )
    .await;
    let r = s
        .ok(
            "update_character",
            json!({"characterName": "Bram", "damage": [{"amount": 44, "type": "slashing"}]}),
        )
        .await;
    assert_eq!(
        r.text.lines().next().unwrap_or_default(),
        "Bram takes 44 (44 slashing); 44 → 0 HP; falls unconscious and starts death saves. Bram drops Longsword (it lies in Bram's space, unequipped; taking it up again is manage_inventory equip).",
        "{}",
        r.text
    );
    let v = s
        .ok(
            "manage_inventory",
            json!({"operation": "view", "characterName": "Bram"}),
        )
        .await;
    assert!(
        v.text
            .lines()
            .any(|l| l == "Equipped: Shield (it2, offhand)")
            && v.text.lines().any(|l| l == "Carried: Longsword (it1)"),
        "the strapped shield stays worn, the sword is dropped: {}",
        v.text
    );
    s.ok(
        "update_character",
        json!({"characterName": "Bram", "healing": 5}),
    )
    .await;
    s.err(
        "execute_action",
        json!({"actorName": "Bram", "actionType": "attack", "targetName": "Goblin", "weapon": "Longsword"}),
        &["Bram carries Longsword but has not equipped it: equip it first"],
    )
    .await;
    equip(&s, "Bram", "Longsword").await;
    let a = s
        .ok(
            "execute_action",
            json!({"actorName": "Bram", "actionType": "attack", "targetName": "Goblin", "weapon": "Longsword"}),
        )
        .await;
    assert!(
        a.text
            .lines()
            .any(|l| l.starts_with("Bram attack with Longsword: d20 [")),
        "{}",
        a.text
    );
}

#[tokio::test]
async fn fear_imposes_no_disadvantage_while_its_source_is_out_of_line_of_sight() {
    if !srd() {
        return;
    }
    let frightened = desc("Conditions", "frightened");
    assert!(
        frightened.contains("a frightened creature has disadvantage on ability checks and attack rolls while the source of its fear is within line of sight"),
        "{frightened}"
    );
    let s = Session::start(73).await;
    fighter(&s, "Bram").await;
    give(&s, "Bram", "Longsword", 1).await;
    equip(&s, "Bram", "Longsword").await;
    s.ok(
        "create_encounter",
        json!({"participants": [
            {"characterName": "Bram", "position": {"x": 5, "y": 5}, "initiative": 30},
            {"monster": "ogre", "position": {"x": 6, "y": 5}, "initiative": 20},
            {"monster": "goblin", "position": {"x": 5, "y": 11}, "initiative": 10}
        ]}),
    )
    .await;
    s.ok(
        "modify_terrain",
        json!({"operation": "add", "terrain": "wall", "rect": {"x": 0, "y": 8, "width": 20, "height": 1}}),
    )
    .await;
    s.ok(
        "manage_condition",
        json!({"operation": "add", "characterName": "Bram", "condition": "frightened", "source": "Goblin"}),
    )
    .await;
    let a = s
        .ok(
            "execute_action",
            json!({"actorName": "Bram", "actionType": "attack", "targetName": "Ogre", "weapon": "Longsword"}),
        )
        .await;
    assert_eq!(
        a.text.lines().nth(1).unwrap_or_default(),
        "Bram attack with Longsword: d20 [20] + 6 = 26 vs AC 11 — critical hit",
        "a single d20, no disadvantage: {}",
        a.text
    );
    assert!(
        a.text
            .lines()
            .any(|l| l == "Bram's fear of Goblin: out of its line of sight, no disadvantage"),
        "{}",
        a.text
    );
    let c = s
        .ok(
            "roll_check",
            json!({"characterName": "Bram", "checkType": "skill", "skill": "athletics"}),
        )
        .await;
    assert_eq!(
        c.text.lines().next().unwrap_or_default(),
        "Bram — Athletics check (Bram's fear of Goblin: out of its line of sight, no disadvantage): d20 [11] + 6 = 17",
        "{}",
        c.text
    );
    // Afraid of the ogre beside it instead: in sight, disadvantage.
    s.ok(
        "manage_condition",
        json!({"operation": "add", "characterName": "Bram", "condition": "frightened", "source": "Ogre"}),
    )
    .await;
    let c = s
        .ok(
            "roll_check",
            json!({"characterName": "Bram", "checkType": "skill", "skill": "athletics"}),
        )
        .await;
    assert_eq!(
        c.text.lines().next().unwrap_or_default(),
        "Bram — Athletics check: d20 [~~11~~, 4] (disadvantage: frightened) + 6 = 10",
        "{}",
        c.text
    );
    // A source that is no creature on the map: the disadvantage stays, and the roll says why.
    s.ok(
        "manage_condition",
        json!({"operation": "add", "characterName": "Bram", "condition": "frightened", "source": "a dragon's roar"}),
    )
    .await;
    let c = s
        .ok(
            "roll_check",
            json!({"characterName": "Bram", "checkType": "skill", "skill": "athletics"}),
        )
        .await;
    assert_eq!(
        c.text.lines().next().unwrap_or_default(),
        "Bram — Athletics check (Bram's fear of a dragon's roar: not a creature on the map, so the engine can't check its line of sight; the disadvantage stays): d20 [8, ~~10~~] (disadvantage: frightened) + 6 = 14",
        "{}",
        c.text
    );
}

#[tokio::test]
async fn no_armor_or_attunement_in_a_fight_and_a_shield_takes_the_action() {
    if !srd() {
        return;
    }
    let attunement = common::srd_record("Rule-Sections", "attunement")["desc"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        attunement.contains("Attuning to an item requires a creature to spend a short rest focused on only that item"),
        "{attunement}"
    );
    let s = Session::start(79).await;
    fighter(&s, "Bram").await;
    for item in [
        "Plate Armor",
        "Shield",
        "Longsword",
        "Ring of Protection",
        "Leather Armor",
    ] {
        give(&s, "Bram", item, 1).await;
    }
    equip(&s, "Bram", "Leather Armor").await;
    equip(&s, "Bram", "Longsword").await;
    s.ok(
        "create_encounter",
        json!({"participants": [
            {"characterName": "Bram", "position": {"x": 5, "y": 5}, "initiative": 30},
            {"monster": "goblin", "position": {"x": 6, "y": 5}, "initiative": 10}
        ]}),
    )
    .await;
    s.err(
        "manage_inventory",
        json!({"operation": "unequip", "characterName": "Bram", "itemName": "Leather Armor"}),
        &["Bram is in active encounter enc1: doffing Leather Armor takes 1 minute (light armor 1 minute to don, medium 5, heavy 10; doffing 1, 1 and 5), not a moment of a fight; change armor once the encounter ends"],
    )
    .await;
    s.err(
        "manage_inventory",
        json!({"operation": "equip", "characterName": "Bram", "itemName": "Plate Armor"}),
        &["Bram is in active encounter enc1: donning Plate Armor takes 10 minutes"],
    )
    .await;
    s.err(
        "manage_inventory",
        json!({"operation": "attune", "characterName": "Bram", "itemName": "Ring of Protection"}),
        &["Bram is in active encounter enc1: attuning to Ring of Protection takes a short rest spent with it, and no rest is taken in a fight; attune once the encounter ends"],
    )
    .await;
    let r = s
        .ok(
            "manage_inventory",
            json!({"operation": "equip", "characterName": "Bram", "itemName": "Shield"}),
        )
        .await;
    assert_eq!(
        r.text.lines().next().unwrap_or_default(),
        "Bram: Shield equipped (offhand); donning Shield takes Bram's action (a shield takes an action to don or doff). AC 13 → 15.",
        "{}",
        r.text
    );
    s.err(
        "execute_action",
        json!({"actorName": "Bram", "actionType": "attack", "targetName": "Goblin", "weapon": "Longsword"}),
        &["Bram has already used its action this turn"],
    )
    .await;
    s.err(
        "manage_inventory",
        json!({"operation": "unequip", "characterName": "Bram", "itemName": "Shield"}),
        &["doffing Shield takes an action and Bram has already used its action this turn"],
    )
    .await;
}

#[tokio::test]
async fn an_srd_item_given_by_bare_name_or_by_its_words_reordered_is_the_srd_item() {
    if !srd() {
        return;
    }
    let plate = common::srd_record("Equipment", "plate-armor");
    assert_eq!(plate["armor_class"]["base"], 18, "{plate}");
    let xbow = common::srd_record("Equipment", "crossbow-light");
    assert_eq!(xbow["name"], "Crossbow, light", "{xbow}");
    let s = Session::start(83).await;
    fighter(&s, "Bram").await;
    let r = s
        .ok(
            "manage_inventory",
            json!({"operation": "give", "characterName": "Bram", "item": {"name": "Plate Armor"}}),
        )
        .await;
    assert_eq!(
        r.text.lines().next().unwrap_or_default(),
        "Bram received Plate Armor; item gave only a name: the SRD's Plate Armor was given (define its numbers in item for a custom one).",
        "{}",
        r.text
    );
    let r = s
        .ok(
            "manage_inventory",
            json!({"operation": "equip", "characterName": "Bram", "itemName": "Plate Armor"}),
        )
        .await;
    assert_eq!(
        r.text.lines().next().unwrap_or_default(),
        "Bram: Plate Armor equipped (armor). AC 12 → 18.",
        "{}",
        r.text
    );
    give(&s, "Bram", "Light Crossbow", 1).await;
    let r = s
        .ok(
            "manage_inventory",
            json!({"operation": "equip", "characterName": "Bram", "itemName": "Light Crossbow"}),
        )
        .await;
    assert_eq!(
        r.text.lines().next().unwrap_or_default(),
        "Bram: Crossbow, light equipped (mainhand).",
        "{}",
        r.text
    );
    give(&s, "Bram", "Crossbow Bolt", 10).await;
    s.ok(
        "create_encounter",
        json!({"participants": [
            {"characterName": "Bram", "position": {"x": 5, "y": 5}, "initiative": 30},
            {"monster": "ogre", "position": {"x": 10, "y": 5}, "initiative": 10}
        ]}),
    )
    .await;
    let a = s
        .ok(
            "execute_action",
            json!({"actorName": "Bram", "actionType": "attack", "targetName": "Ogre", "weapon": "Light Crossbow"}),
        )
        .await;
    assert!(
        a.text
            .lines()
            .any(|l| l == "Bram fires one Crossbow bolt from the Crossbow, light (9 left)."),
        "{}",
        a.text
    );
}
