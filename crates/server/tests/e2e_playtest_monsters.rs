//! Monster rules a DM play-test found wrong, end to end over the real tools with SRD monsters
//! and SRD-built characters, the SRD wording read from the JSON at run time: a Multiattack
//! that uses a non-attack action (a dragon's Frightful Presence, a mummy's Dreadful Glare), names
//! its attacks with form qualifiers (a vampire) or offers alternative sets (a medusa's longbows),
//! a hydra biting once per head, a ghost flying with no walking speed, Legendary Resistance by
//! the reaction policy, a rakshasa's Limited Magic Immunity, the 24-hour immunity after a save,
//! an area that spares undead and ages on a save failed by 5, a mage's cantrip at its
//! spellcaster level, and a legendary action's timing and Wing Attack's flight said. Seeds are
//! pinned.

use super::common;

use common::{Session, srd_record};
use serde_json::{Value, json};

use common::srd_here as srd;

/// The text of `monster`'s entry `name` in `list` ("actions", "special_abilities", …).
fn entry(monster: &str, list: &str, name: &str) -> String {
    let m = srd_record("Monsters", monster);
    m[list]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["name"] == name)
        .unwrap_or_else(|| panic!("{monster} has no {name}"))["desc"]
        .as_str()
        .unwrap()
        .to_string()
}

fn has(text: &str, want: &str) {
    assert!(
        text.lines().map(str::trim).any(|l| l == want),
        "{want}\n---\n{text}"
    );
}

fn count(text: &str, line_start: &str) -> usize {
    text.lines().filter(|l| l.starts_with(line_start)).count()
}

async fn fighter(s: &Session, name: &str) {
    s.ok(
        "create_character",
        json!({"name": name, "class": "fighter", "race": "human", "level": 11,
            "stats": {"str": 18, "dex": 14, "con": 16, "int": 8, "wis": 12, "cha": 10}}),
    )
    .await;
}

/// A fight: each `(who, x, y, initiative)`; a `who` starting with "pc:" is a character.
async fn fight(s: &Session, who: &[(&str, i64, i64, i64)]) {
    let participants: Vec<Value> = who
        .iter()
        .map(|(w, x, y, init)| match w.strip_prefix("pc:") {
            Some(n) => {
                json!({"characterName": n, "position": {"x": x, "y": y}, "initiative": init})
            }
            None => json!({"monster": w, "position": {"x": x, "y": y}, "initiative": init}),
        })
        .collect();
    s.ok("create_encounter", json!({"participants": participants}))
        .await;
}

fn multiattack(actor: &str, target: &str, weapon: &str) -> Value {
    json!({"actorName": actor, "actionType": "attack", "targetName": target, "weapon": weapon})
}

#[tokio::test]
async fn a_multiattack_uses_its_non_attack_action_and_its_qualified_attacks() {
    if !srd() {
        return;
    }
    let dragon = entry("adult-blue-dragon", "actions", "Multiattack");
    assert_eq!(
        dragon,
        "The dragon can use its Frightful Presence. It then makes three attacks: one with its bite and two with its claws."
    );
    let mummy = entry("mummy", "actions", "Multiattack");
    assert_eq!(
        mummy,
        "The mummy can use its Dreadful Glare and makes one attack with its rotting fist."
    );
    let vampire = srd_record("Monsters", "vampire-vampire");
    let va = &vampire["actions"][0]["action_options"]["from"]["options"][0]["items"];
    assert_eq!(va[0]["action_name"], "Unarmed Strike (Vampire Form Only)");
    assert_eq!(va[1]["action_name"], "Bite (Bat or Vampire Form Only)");
    // The dragon: Frightful Presence, then a bite and two claws.
    let s = Session::start(2).await;
    fighter(&s, "Fighter").await;
    fight(
        &s,
        &[
            ("adult blue dragon", 10, 5, 30),
            ("pc:Fighter", 9, 5, 20),
            ("mummy", 8, 5, 10),
            ("Vampire, Vampire Form", 9, 6, 5),
        ],
    )
    .await;
    let a = s
        .ok(
            "execute_action",
            multiattack("Adult Blue Dragon", "Fighter", "Multiattack"),
        )
        .await;
    has(
        &a.text,
        "Adult Blue Dragon uses Frightful Presence (part of its Multiattack): Fighter fail, no one succeed.",
    );
    has(&a.text, "Fighter is frightened");
    assert_eq!(count(&a.text, "— Bite → Fighter:"), 1, "{}", a.text);
    assert_eq!(count(&a.text, "— Claw → Fighter:"), 2, "{}", a.text);
    s.ok("advance_turn", json!({})).await;
    s.ok("advance_turn", json!({})).await;
    // The mummy: Dreadful Glare, then its rotting fist.
    let a = s
        .ok(
            "execute_action",
            multiattack("Mummy", "Fighter", "Multiattack"),
        )
        .await;
    has(
        &a.text,
        "Mummy uses Dreadful Glare (part of its Multiattack): no one fail, Fighter succeed.",
    );
    has(
        &a.text,
        "Fighter Wisdom save vs Dreadful Glare: d20 [10] + 1 = 11 vs DC 11 — success",
    );
    assert_eq!(
        count(&a.text, "Mummy attack with Rotting Fist:"),
        1,
        "{}",
        a.text
    );
    s.ok("advance_turn", json!({})).await;
    // The vampire: its first set is an unarmed strike and a bite, by their action names.
    let a = s
        .ok(
            "execute_action",
            multiattack("Vampire, Vampire Form", "Fighter", "Multiattack"),
        )
        .await;
    assert!(
        a.text.starts_with("Vampire, Vampire Form uses Multiattack (1× Unarmed Strike (Vampire Form Only), 1× Bite (Bat or Vampire Form Only))."),
        "{}",
        a.text
    );
    assert_eq!(
        count(&a.text, "— Unarmed Strike → Fighter:"),
        1,
        "{}",
        a.text
    );
    assert_eq!(count(&a.text, "— Bite → Fighter:"), 1, "{}", a.text);
}

#[tokio::test]
async fn a_medusa_chooses_its_second_set_of_attacks() {
    if !srd() {
        return;
    }
    let medusa = entry("medusa", "actions", "Multiattack");
    assert!(
        medusa.ends_with("or two ranged attacks with its longbow."),
        "{medusa}"
    );
    let s = Session::start(2).await;
    fighter(&s, "Fighter").await;
    fight(&s, &[("medusa", 8, 2, 30), ("pc:Fighter", 2, 2, 10)]).await;
    let sheet = s
        .ok("get_character", json!({"characterName": "Medusa"}))
        .await;
    has(
        &sheet.text,
        "Actions: Multiattack: 1× Snake Hair, 2× Shortsword | Multiattack 2: 2× Longbow; Snake Hair +5, 1d4+2 piercing + 4d6 poison; Shortsword +5, 1d6+2 piercing; Longbow +5, 1d8+2 piercing + 2d6 poison",
    );
    s.err(
        "execute_action",
        multiattack("Medusa", "Fighter", "Multiattack 3"),
        &["Multiattack 3: the Multiattack has 2 sets of attacks; name one: \"Multiattack\", \"Multiattack 2\""],
    )
    .await;
    let a = s
        .ok(
            "execute_action",
            multiattack("Medusa", "Fighter", "Multiattack 2"),
        )
        .await;
    assert!(
        a.text.starts_with("Medusa uses Multiattack (2× Longbow)."),
        "{}",
        a.text
    );
    assert_eq!(count(&a.text, "— Longbow → Fighter:"), 2, "{}", a.text);
}

#[tokio::test]
async fn a_hydra_bites_once_per_head() {
    if !srd() {
        return;
    }
    assert_eq!(
        entry("hydra", "actions", "Multiattack"),
        "The hydra makes as many bite attacks as it has heads."
    );
    assert!(
        entry("hydra", "special_abilities", "Multiple Heads")
            .starts_with("The hydra has five heads."),
    );
    let s = Session::start(3).await;
    fighter(&s, "Fighter").await;
    fight(&s, &[("hydra", 3, 2, 30), ("pc:Fighter", 2, 2, 10)]).await;
    let a = s
        .ok(
            "execute_action",
            multiattack("Hydra", "Fighter", "Multiattack"),
        )
        .await;
    has(
        &a.text,
        "Hydra: 5 Bite attacks, one per head (Hydra has 5 heads by its stat block; heads lost and regrown are not tracked: the DM sets the count with separate Bite attacks when it has fewer or more)",
    );
    assert_eq!(count(&a.text, "— Bite → Fighter:"), 5, "{}", a.text);
}

#[tokio::test]
async fn a_ghost_flies_with_no_walking_speed() {
    if !srd() {
        return;
    }
    let ghost = srd_record("Monsters", "ghost");
    assert_eq!(
        ghost["speed"],
        json!({"walk": "0 ft.", "fly": "40 ft.", "hover": true})
    );
    let s = Session::start(1).await;
    fighter(&s, "Fighter").await;
    fight(&s, &[("ghost", 8, 2, 30), ("pc:Fighter", 2, 2, 10)]).await;
    let a = s
        .ok(
            "execute_action",
            json!({"actorName": "Ghost", "actionType": "move", "to": {"x": 3, "y": 2}}),
        )
        .await;
    has(
        &a.text,
        "Ghost moves 25 ft to (3, 2) (15 ft of movement left).",
    );
    has(
        &a.text,
        "Ghost flies (fly speed 40 ft; it has no walking speed): difficult terrain and water cost nothing extra",
    );
    s.err(
        "execute_action",
        json!({"actorName": "Ghost", "actionType": "move", "to": {"x": 7, "y": 2}}),
        &["costs 20 ft but it has 15 ft of movement left (speed 40, used 25)"],
    )
    .await;
}

#[tokio::test]
async fn legendary_resistance_follows_the_reaction_policy() {
    if !srd() {
        return;
    }
    assert_eq!(
        entry(
            "vampire-vampire",
            "special_abilities",
            "Legendary Resistance"
        ),
        "If the vampire fails a saving throw, it can choose to succeed instead."
    );
    let s = Session::start(1).await;
    s.ok(
        "create_character",
        json!({"name": "Cleo", "class": "cleric", "race": "human", "level": 11,
            "classes": [{"class": "cleric", "level": 11, "subclass": "life"}],
            "stats": {"str": 14, "dex": 10, "con": 14, "int": 10, "wis": 18, "cha": 12},
            "spells": ["sacred flame", "banishment", "bane"]}),
    )
    .await;
    fight(
        &s,
        &[
            ("pc:Cleo", 2, 2, 30),
            ("Vampire, Vampire Form", 6, 2, 20),
            ("adult blue dragon", 6, 8, 10),
        ],
    )
    .await;
    let sheet = s
        .ok(
            "get_character",
            json!({"characterName": "Vampire, Vampire Form"}),
        )
        .await;
    has(
        &sheet.text,
        "Resources: Legendary Resistance 3/3 (long rest)",
    );
    let a = s
        .ok(
            "execute_action",
            json!({"actorName": "Cleo", "actionType": "cast_spell", "spell": "banishment",
                "targetName": "Vampire, Vampire Form"}),
        )
        .await;
    has(
        &a.text,
        "Vampire, Vampire Form — CHA save vs Banishment: d20 [6] + 9 = 15 vs DC 16 — fail",
    );
    has(
        &a.text,
        "Vampire, Vampire Form uses Legendary Resistance: it succeeds instead (2/3 left today)",
    );
    has(&a.text, "Vampire, Vampire Form resists Banishment");
    let sheet = s
        .ok(
            "get_character",
            json!({"characterName": "Vampire, Vampire Form"}),
        )
        .await;
    has(
        &sheet.text,
        "Resources: Legendary Resistance 2/3 (long rest)",
    );
    // The dragon's policy is ask: the engine does not use it, and says so.
    s.ok(
        "manage_encounter",
        json!({"operation": "set_reaction_policy", "reactionPolicy": "ask", "targetName": "Adult Blue Dragon"}),
    )
    .await;
    s.ok("advance_turn", json!({})).await;
    s.ok("advance_turn", json!({})).await;
    s.ok("advance_turn", json!({})).await;
    let a = s
        .ok(
            "execute_action",
            json!({"actorName": "Cleo", "actionType": "cast_spell", "spell": "bane",
                "targets": [{"name": "Adult Blue Dragon"}]}),
        )
        .await;
    has(
        &a.text,
        "Adult Blue Dragon — Charisma save vs Bane: d20 [3] + 9 = 12 vs DC 16 — fail",
    );
    has(
        &a.text,
        "Adult Blue Dragon could use Legendary Resistance to succeed instead (3/3 left today), but its reaction policy is ask: the engine uses it only with auto (manage_encounter set_reaction_policy); the DM decides, and use_special_ability Legendary Resistance (actionCost free) spends a use (force: true off its turn)",
    );
    has(
        &a.text,
        "Adult Blue Dragon gains Bane (−1d4 to attack rolls, −1d4 to saving throws)",
    );
}

#[tokio::test]
async fn limited_magic_immunity_stops_spells_of_6th_level_or_lower() {
    if !srd() {
        return;
    }
    assert_eq!(
        entry("rakshasa", "special_abilities", "Limited Magic Immunity"),
        "The rakshasa can't be affected or detected by spells of 6th level or lower unless it wishes to be. It has advantage on saving throws against all other spells and magical effects."
    );
    let s = Session::start(2).await;
    s.ok(
        "create_character",
        json!({"name": "Wiz", "class": "wizard", "race": "human", "level": 11,
            "stats": {"str": 8, "dex": 14, "con": 14, "int": 18, "wis": 12, "cha": 10},
            "spellbook": ["magic missile", "fireball"],
            "spells": ["fire bolt", "light", "mage hand", "magic missile", "fireball"]}),
    )
    .await;
    fight(&s, &[("pc:Wiz", 2, 2, 30), ("rakshasa", 8, 2, 10)]).await;
    let a = s
        .ok(
            "execute_action",
            json!({"actorName": "Wiz", "actionType": "cast_spell", "spell": "fire bolt", "targetName": "Rakshasa"}),
        )
        .await;
    has(
        &a.text,
        "Rakshasa is unaffected by Fire Bolt: Limited Magic Immunity (spells of 6th level or lower; if it wishes to be affected, the DM applies the spell by hand)",
    );
    assert!(!a.text.contains("spell attack"), "{}", a.text);
    let hp = s
        .ok("get_character", json!({"characterName": "Rakshasa"}))
        .await;
    assert_eq!(hp.structured["character"]["hp"], 110);
}

#[tokio::test]
async fn frightful_presence_leaves_a_24_hour_immunity() {
    if !srd() {
        return;
    }
    let fp = entry("adult-blue-dragon", "actions", "Frightful Presence");
    assert!(
        fp.ends_with("If a creature's saving throw is successful or the effect ends for it, the creature is immune to the dragon's Frightful Presence for the next 24 hours."),
        "{fp}"
    );
    let s = Session::start(4).await;
    fighter(&s, "Fighter").await;
    fight(
        &s,
        &[("adult blue dragon", 10, 5, 30), ("pc:Fighter", 9, 5, 10)],
    )
    .await;
    let use_fp = json!({"actorName": "Adult Blue Dragon", "actionType": "use_special_ability",
        "abilityName": "Frightful Presence", "targetName": "Fighter"});
    let a = s.ok("execute_action", use_fp.clone()).await;
    has(
        &a.text,
        "Fighter Wisdom save vs Frightful Presence: d20 [6] + 1 = 7 vs DC 17 — fail",
    );
    has(
        &a.text,
        "Fighter is immune to Adult Blue Dragon's Frightful Presence for 24 hours once the effect ends for it (recorded now: a new use while it lasts changes nothing)",
    );
    s.ok("advance_turn", json!({})).await;
    s.ok("advance_turn", json!({})).await;
    let a = s.ok("execute_action", use_fp).await;
    assert!(
        a.text
            .starts_with("Adult Blue Dragon uses Frightful Presence: no one fail, no one succeed."),
        "{}",
        a.text
    );
    has(
        &a.text,
        "Fighter is not affected: immune to Adult Blue Dragon's Frightful Presence (for 24 hours after a save or the effect's end; 14399 rounds left)",
    );
}

#[tokio::test]
async fn horrifying_visage_spares_undead_and_ages_on_a_save_failed_by_5() {
    if !srd() {
        return;
    }
    let hv = entry("ghost", "actions", "Horrifying Visage");
    assert!(
        hv.starts_with("Each non-undead creature within 60 ft. of the ghost that can see it must succeed on a DC 13 Wisdom saving throw or be frightened for 1 minute. If the save fails by 5 or more, the target also ages 1d4 × 10 years."),
        "{hv}"
    );
    assert_eq!(srd_record("Monsters", "zombie")["type"], "undead");
    let s = Session::start(1).await;
    s.ok(
        "create_character",
        json!({"name": "Wiz", "class": "wizard", "race": "human", "level": 3,
            "stats": {"str": 8, "dex": 14, "con": 14, "int": 18, "wis": 8, "cha": 10}}),
    )
    .await;
    fight(
        &s,
        &[
            ("ghost", 6, 2, 30),
            ("pc:Wiz", 2, 2, 10),
            ("zombie", 8, 2, 5),
        ],
    )
    .await;
    let a = s
        .ok(
            "execute_action",
            json!({"actorName": "Ghost", "actionType": "use_special_ability", "abilityName": "Horrifying Visage"}),
        )
        .await;
    has(
        &a.text,
        "Zombie is not affected: the text touches only creatures that are not undead (Zombie is undead)",
    );
    has(
        &a.text,
        "Wiz Wisdom save vs Horrifying Visage: d20 [6] + 1 = 7 vs DC 13 — fail",
    );
    has(
        &a.text,
        "Wiz failed by 6 and ages 30 years (1d4: [3] = 3 × 10): no game effect the engine tracks; the DM narrates it (a greater restoration within 24 hours reverses it)",
    );
    assert!(
        a.text
            .starts_with("Ghost uses Horrifying Visage: Wiz fail, no one succeed."),
        "{}",
        a.text
    );
}

#[tokio::test]
async fn a_mages_cantrip_scales_with_its_spellcaster_level() {
    if !srd() {
        return;
    }
    let sc = entry("mage", "special_abilities", "Spellcasting");
    assert!(
        sc.starts_with("The mage is a 9th-level spellcaster."),
        "{sc}"
    );
    let fb = srd_record("Spells", "fire-bolt");
    assert_eq!(fb["damage"]["damage_at_character_level"]["5"], "2d10");
    let s = Session::start(2).await;
    fighter(&s, "Fighter").await;
    fight(&s, &[("mage", 10, 5, 30), ("pc:Fighter", 5, 5, 10)]).await;
    let a = s
        .ok(
            "execute_action",
            json!({"actorName": "Mage", "actionType": "cast_spell", "spell": "Fire Bolt", "targetName": "Fighter"}),
        )
        .await;
    has(&a.text, "Damage to Fighter: 2d10: [1, 1] = 2");
}

#[tokio::test]
async fn a_legendary_action_says_its_timing_and_wing_attacks_flight() {
    if !srd() {
        return;
    }
    let wing = entry(
        "adult-blue-dragon",
        "legendary_actions",
        "Wing Attack (Costs 2 Actions)",
    );
    assert!(
        wing.ends_with("The dragon can then fly up to half its flying speed."),
        "{wing}"
    );
    let s = Session::start(4).await;
    fighter(&s, "Fighter").await;
    fight(
        &s,
        &[("pc:Fighter", 9, 5, 30), ("adult blue dragon", 10, 5, 10)],
    )
    .await;
    let a = s
        .ok(
            "execute_action",
            json!({"actorName": "Adult Blue Dragon", "actionType": "legendary_action", "abilityName": "Wing Attack"}),
        )
        .await;
    has(
        &a.text,
        "Adult Blue Dragon can then fly up to 40 ft (half its fly speed of 80 ft): no automation for that flight; move it with execute_action move and force: true (it is not its turn)",
    );
    has(
        &a.text,
        "Timing: a legendary action comes only at the end of another creature's turn, one at a time; the engine has no step between a turn's end and the next one's start, so it takes it now: the DM keeps the timing (use it before advance_turn ends that creature's turn)",
    );
}

#[tokio::test]
async fn dreadful_glare_paralyzes_only_on_a_save_failed_by_5() {
    if !srd() {
        return;
    }
    let glare = entry("mummy", "actions", "Dreadful Glare");
    assert!(
        glare.contains("must succeed on a DC 11 Wisdom saving throw against this magic or become frightened until the end of the mummy's next turn. If the target fails the saving throw by 5 or more, it is also paralyzed for the same duration."),
        "{glare}"
    );
    let s = Session::start(4).await;
    s.ok(
        "create_character",
        json!({"name": "Wiz", "class": "wizard", "race": "human", "level": 3,
            "stats": {"str": 8, "dex": 14, "con": 14, "int": 18, "wis": 8, "cha": 10}}),
    )
    .await;
    fight(&s, &[("mummy", 4, 2, 30), ("pc:Wiz", 2, 2, 10)]).await;
    let a = s
        .ok(
            "execute_action",
            json!({"actorName": "Mummy", "actionType": "use_special_ability", "abilityName": "Dreadful Glare", "targetName": "Wiz"}),
        )
        .await;
    has(
        &a.text,
        "Wiz Wisdom save vs Dreadful Glare: d20 [6] + 1 = 7 vs DC 11 — fail",
    );
    has(
        &a.text,
        "Wiz failed by 4, less than 5: not paralyzed (only a save failed by 5 or more)",
    );
    has(&a.text, "Wiz is frightened");
    // Immune only after a success ("A target that succeeds on the saving throw is immune").
    assert!(!a.text.contains("immune"), "{}", a.text);
    let sheet = s.ok("get_character", json!({"characterName": "Wiz"})).await;
    let conditions: Vec<&str> = sheet.structured["character"]["conditions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["condition"].as_str().unwrap())
        .collect();
    assert_eq!(conditions, ["frightened"]);
}
