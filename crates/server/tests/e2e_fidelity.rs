//! Rules a DM's play-test found coming out wrong, end to end over the real binary with SRD-built
//! characters and SRD monsters: hit points set by hand, Aid's raised hit points on later reads,
//! an Attack action with the off-hand weapon, a ranged attack beside a hostile that cannot see,
//! Savage Attacks, a stat block's poison rider (damage on a failed save, half on a success,
//! paralysis only at 0 HP) checked against the SRD JSON, and `level_up`'s max HP line.

use super::common;

use common::{Session, srd_record};
use serde_json::{Value, json};

use common::srd_here as srd;

fn conditions_line(text: &str) -> String {
    text.lines()
        .find(|l| l.starts_with("Conditions:"))
        .unwrap_or("")
        .to_string()
}

async fn fighter(s: &Session, name: &str) {
    s.ok(
        "create_character",
        json!({"name": name, "race": "human", "class": "fighter", "level": 5,
               "stats": {"str": 10, "dex": 10, "con": 10, "int": 10, "wis": 10, "cha": 10}}),
    )
    .await;
}

#[tokio::test]
async fn hit_points_set_by_hand_leave_a_standing_creature_standing_and_zero_drops_it() {
    if !srd() {
        return;
    }
    let s = Session::start(7).await;
    // Fighter 5, CON 10: 10 + 4 × 6 = 34.
    fighter(&s, "B").await;
    let a = s
        .ok("update_character", json!({"characterName": "B", "hp": 30}))
        .await;
    assert!(a.text.starts_with("HP set 34 → 30."), "{}", a.text);
    let sheet = s.ok("get_character", json!({"characterName": "B"})).await;
    assert_eq!(conditions_line(&sheet.text), "", "{}", sheet.text);
    // Set to 0: down as from damage, unconscious and prone.
    let a = s
        .ok("update_character", json!({"characterName": "B", "hp": 0}))
        .await;
    assert!(a.text.starts_with("HP set 30 → 0"), "{}", a.text);
    assert!(
        a.text.contains("30 → 0 HP; falls unconscious"),
        "{}",
        a.text
    );
    let sheet = s.ok("get_character", json!({"characterName": "B"})).await;
    let line = conditions_line(&sheet.text);
    assert!(
        line.contains("prone") && line.contains("unconscious"),
        "{}",
        sheet.text
    );
    // Set above 0 again: it wakes, still on the ground.
    s.ok("update_character", json!({"characterName": "B", "hp": 12}))
        .await;
    let sheet = s.ok("get_character", json!({"characterName": "B"})).await;
    assert_eq!(conditions_line(&sheet.text), "Conditions: prone");
}

#[tokio::test]
async fn aid_raises_current_hit_points_that_later_reads_and_damage_keep() {
    if !srd() {
        return;
    }
    let s = Session::start(7).await;
    // Hill-dwarf cleric 5, CON 14 (16 with the dwarf's +2): 8 + 4 × 5 + 5 × 3 + 5 = 48.
    s.ok(
        "create_character",
        json!({"name": "Thora", "race": "dwarf", "subrace": "hill dwarf",
               "classes": [{"class": "cleric", "level": 5, "subclass": "life"}],
               "stats": {"str": 14, "dex": 10, "con": 14, "int": 10, "wis": 16, "cha": 10},
               "spells": ["sacred flame", "aid"]}),
    )
    .await;
    let a = s
        .ok(
            "execute_action",
            json!({"actorName": "Thora", "actionType": "cast_spell", "spell": "aid",
                   "targets": [{"name": "Thora"}], "slotLevel": 2}),
        )
        .await;
    assert!(a.text.contains("HP 48 → 53"), "{}", a.text);
    let sheet = s
        .ok("get_character", json!({"characterName": "Thora"}))
        .await;
    assert!(sheet.text.contains("HP 53/53"), "{}", sheet.text);
    let a = s
        .ok(
            "update_character",
            json!({"characterName": "Thora", "damage": [{"amount": 1, "type": "slashing"}]}),
        )
        .await;
    assert!(a.text.contains("53 → 52 HP"), "{}", a.text);
}

/// The damage line of an attack answer.
fn damage_line(text: &str) -> &str {
    text.lines()
        .find(|l| l.starts_with("Damage"))
        .unwrap_or_else(|| panic!("no damage line: {text}"))
}

#[tokio::test]
async fn an_attack_action_with_the_off_hand_weapon_adds_the_ability_modifier() {
    if !srd() {
        return;
    }
    let s = Session::start(3).await;
    s.ok(
        "create_character",
        json!({"name": "Grok", "race": "half-orc", "class": "barbarian", "level": 3,
               "stats": {"str": 14, "dex": 14, "con": 14, "int": 8, "wis": 10, "cha": 10},
               "equipment": ["handaxe", "dagger"]}),
    )
    .await;
    // STR 14 + 2 (half-orc) = 16: +3. The handaxe goes to the main hand, the dagger to the off hand.
    for item in ["Handaxe", "Dagger"] {
        s.ok(
            "manage_inventory",
            json!({"operation": "equip", "characterName": "Grok", "itemName": item}),
        )
        .await;
    }
    s.ok(
        "create_encounter",
        json!({"participants": [
            {"characterName": "Grok", "position": {"x": 5, "y": 5}, "initiative": 30},
            {"monster": "ogre", "position": {"x": 6, "y": 5}, "initiative": 1}
        ]}),
    )
    .await;
    // The ogre (AC 11) is hit by anything but a natural 1; retry a few swings until one lands.
    let mut attack = None;
    for _ in 0..3 {
        let a = s
            .ok(
                "execute_action",
                json!({"actorName": "Grok", "actionType": "attack", "targetName": "Ogre",
                       "weapon": "Dagger", "force": true}),
            )
            .await;
        if a.text.starts_with("Hit!") {
            attack = Some(a);
            break;
        }
    }
    let a = attack.expect("a +5 attack against AC 11 hit in three swings");
    let line = damage_line(&a.text);
    assert!(
        line.starts_with("Damage: 1d4[piercing] + 3[piercing]:"),
        "{line}"
    );
    // The bonus-action attack of two-weapon fighting: no modifier.
    let mut off = None;
    for _ in 0..3 {
        let a = s
            .ok(
                "execute_action",
                json!({"actorName": "Grok", "actionType": "two_weapon_attack",
                       "targetName": "Ogre", "force": true}),
            )
            .await;
        if a.text.starts_with("Hit!") {
            off = Some(a);
            break;
        }
    }
    let a = off.expect("an off-hand attack against AC 11 hit in three swings");
    let line = damage_line(&a.text);
    assert!(line.starts_with("Damage: 1d4[piercing]:"), "{line}");
}

#[tokio::test]
async fn a_blinded_hostile_beside_an_archer_does_not_spoil_the_shot() {
    if !srd() {
        return;
    }
    let s = Session::start(5).await;
    s.ok(
        "create_character",
        json!({"name": "Ash", "race": "human", "class": "fighter", "level": 1,
               "stats": {"str": 10, "dex": 16, "con": 12, "int": 10, "wis": 10, "cha": 10},
               "equipment": ["longbow", "arrows"]}),
    )
    .await;
    s.ok(
        "manage_inventory",
        json!({"operation": "equip", "characterName": "Ash", "itemName": "Longbow"}),
    )
    .await;
    s.ok(
        "create_encounter",
        json!({"participants": [
            {"characterName": "Ash", "position": {"x": 2, "y": 2}, "initiative": 30},
            {"monster": "goblin", "position": {"x": 3, "y": 2}, "initiative": 2},
            {"monster": "orc", "position": {"x": 2, "y": 8}, "initiative": 1}
        ]}),
    )
    .await;
    let spoiled = "ranged attack with a hostile within 5 ft (Goblin)";
    let a = s
        .ok(
            "execute_action",
            json!({"actorName": "Ash", "actionType": "attack", "targetName": "Orc", "force": true}),
        )
        .await;
    assert!(a.text.contains(spoiled), "{}", a.text);
    s.ok(
        "manage_condition",
        json!({"operation": "add", "characterName": "Goblin", "condition": "blinded"}),
    )
    .await;
    let a = s
        .ok(
            "execute_action",
            json!({"actorName": "Ash", "actionType": "attack", "targetName": "Orc", "force": true}),
        )
        .await;
    assert!(!a.text.contains(spoiled), "{}", a.text);
}

#[tokio::test]
async fn a_half_orc_rolls_one_more_weapon_die_on_a_critical_hit() {
    if !srd() {
        return;
    }
    let s = Session::start(11).await;
    s.ok(
        "create_character",
        json!({"name": "Ursk", "race": "half-orc", "class": "fighter", "level": 1,
               "stats": {"str": 15, "dex": 10, "con": 14, "int": 8, "wis": 10, "cha": 10},
               "equipment": ["greataxe"]}),
    )
    .await;
    s.ok(
        "manage_inventory",
        json!({"operation": "equip", "characterName": "Ursk", "itemName": "Greataxe"}),
    )
    .await;
    s.ok(
        "create_encounter",
        json!({"participants": [
            {"characterName": "Ursk", "position": {"x": 5, "y": 5}, "initiative": 30},
            {"monster": "ogre", "position": {"x": 6, "y": 5}, "initiative": 1}
        ]}),
    )
    .await;
    // A paralyzed target: every hit within 5 ft is a critical hit.
    s.ok(
        "manage_condition",
        json!({"operation": "add", "characterName": "Ogre", "condition": "paralyzed"}),
    )
    .await;
    let mut crit = None;
    for _ in 0..3 {
        let a = s
            .ok(
                "execute_action",
                json!({"actorName": "Ursk", "actionType": "attack", "targetName": "Ogre", "force": true}),
            )
            .await;
        if a.text.starts_with("Critical hit!") {
            crit = Some(a);
            break;
        }
    }
    let a = crit.expect("an attack with advantage against a paralyzed ogre hit in three swings");
    assert!(
        a.text
            .contains("Savage Attacks: +1d12 (extra weapon dice on a melee critical hit)."),
        "{}",
        a.text
    );
    // STR 15 + 2 = 17: +3. Doubled dice, then the Savage Attacks die.
    let line = damage_line(&a.text);
    assert!(
        line.starts_with(
            "Damage (critical: dice doubled): 2d12[slashing] + 3[slashing] + 1d12[slashing]:"
        ),
        "{line}"
    );
}

/// The SRD JSON's action `action` of `monster`.
fn srd_action(monster: &str, action: &str) -> Value {
    srd_record("Monsters", monster)["actions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["name"] == action)
        .cloned()
        .unwrap_or_else(|| panic!("no {monster} {action} in the SRD"))
}

/// "DC 15 Constitution saving throw, taking 24 (7d6) poison damage": the DC and the dice, read
/// from the SRD text.
fn srd_save_damage(desc: &str) -> (String, String) {
    let dc = desc.split("DC ").nth(1).unwrap().split(' ').next().unwrap();
    let dice = desc
        .split("saving throw")
        .nth(1)
        .unwrap()
        .split('(')
        .nth(1)
        .unwrap()
        .split(')')
        .next()
        .unwrap();
    (dc.to_string(), dice.replace(' ', ""))
}

#[tokio::test]
async fn a_monster_poison_rider_deals_its_damage_on_a_save_and_paralyzes_only_at_zero() {
    if !srd() {
        return;
    }
    let stinger = srd_action("wyvern", "Stinger");
    let (dc, dice) = srd_save_damage(stinger["desc"].as_str().unwrap());
    let bite = srd_action("giant-spider", "Bite");
    let (spider_dc, spider_dice) = srd_save_damage(bite["desc"].as_str().unwrap());
    let s = Session::start(7).await;
    fighter(&s, "Bruna").await;
    s.ok(
        "create_encounter",
        json!({"participants": [
            {"characterName": "Bruna", "position": {"x": 5, "y": 5}, "initiative": 30},
            {"monster": "wyvern", "position": {"x": 3, "y": 5}, "initiative": 2},
            {"monster": "giant spider", "position": {"x": 6, "y": 5}, "initiative": 1}
        ]}),
    )
    .await;
    let mut saw_fail = false;
    for _ in 0..6 {
        // Heal between bites, so that the poison never drops her to 0.
        s.ok(
            "update_character",
            json!({"characterName": "Bruna", "hp": "+40"}),
        )
        .await;
        let a = s
            .ok(
                "execute_action",
                json!({"actorName": "Giant Spider", "actionType": "attack",
                       "targetName": "Bruna", "force": true}),
            )
            .await;
        if !a.text.contains("— hit") {
            continue;
        }
        let save = "Constitution save (Bite): ";
        let line = a
            .text
            .lines()
            .find(|l| l.contains(save))
            .unwrap_or_else(|| panic!("no save: {}", a.text));
        assert!(line.contains(&format!("vs DC {spider_dc} — ")), "{line}");
        assert!(
            a.text.contains(&format!("Bite: {spider_dice}[poison]:")),
            "{}",
            a.text
        );
        assert!(!a.text.contains("Bruna is paralyzed"), "{}", a.text);
        if line.contains("— fail") {
            saw_fail = true;
            assert!(
                a.text.contains("Bruna is not poisoned or paralyzed: Bite imposes that only when its damage drops the target to 0 HP"),
                "{}",
                a.text
            );
        } else {
            assert!(a.text.contains(", halved on the save: "), "{}", a.text);
        }
    }
    assert!(saw_fail, "six bites and no failed save");
    // The wyvern's sting: its piercing on the hit, the poison after the save.
    s.ok(
        "update_character",
        json!({"characterName": "Bruna", "hp": "+40"}),
    )
    .await;
    let mut stung = None;
    for _ in 0..4 {
        let a = s
            .ok(
                "execute_action",
                json!({"actorName": "Wyvern", "actionType": "attack", "weapon": "Stinger",
                       "targetName": "Bruna", "force": true}),
            )
            .await;
        if a.text.contains("— hit") {
            stung = Some(a);
            break;
        }
    }
    let a = stung.expect("a +7 sting against AC 10 hit in four tries");
    assert!(
        damage_line(&a.text).starts_with("Damage: (2d6 + 4)[piercing]:"),
        "{}",
        a.text
    );
    assert!(
        a.text.contains("Constitution save (Stinger): "),
        "{}",
        a.text
    );
    assert!(a.text.contains(&format!("vs DC {dc} — ")), "{}", a.text);
    assert!(
        a.text.contains(&format!("Stinger: {dice}[poison]:")),
        "{}",
        a.text
    );
}

#[tokio::test]
async fn level_up_reports_the_max_hit_points_the_sheet_derives() {
    if !srd() {
        return;
    }
    let s = Session::start(7).await;
    // Hill-dwarf fighter 1, CON 13 + 2 = 15 (+2): 10 + 2 + 1 (Dwarven Toughness) = 13.
    s.ok(
        "create_character",
        json!({"name": "Dain", "race": "dwarf", "subrace": "hill dwarf", "class": "fighter", "level": 1,
               "stats": {"str": 15, "dex": 10, "con": 13, "int": 10, "wis": 10, "cha": 10}}),
    )
    .await;
    let a = s
        .ok(
            "level_up",
            json!({"characterName": "Dain", "targetLevel": 2}),
        )
        .await;
    // Level 2: 6 (the d10's average) + 2, and Dwarven Toughness's +1.
    assert!(
        a.text
            .contains("max HP 13 → 22 (L2 +8; +1 from the sheet's other sources at the new level)"),
        "{}",
        a.text
    );
    let sheet = s
        .ok("get_character", json!({"characterName": "Dain"}))
        .await;
    assert!(sheet.text.contains("HP 22/22"), "{}", sheet.text);
}

#[tokio::test]
async fn equipment_names_resolve_plurals_and_a_new_list_replaces_the_inventory() {
    if !srd() {
        return;
    }
    let s = Session::start(7).await;
    s.ok(
        "create_character",
        json!({"name": "Ash", "race": "human", "class": "fighter", "level": 1,
               "stats": {"str": 10, "dex": 16, "con": 12, "int": 10, "wis": 10, "cha": 10},
               "equipment": ["longbow", "arrows", "Chain Mail"]}),
    )
    .await;
    // The SRD's Arrow comes in a bundle: its quantity is read from the SRD JSON.
    let bundle = srd_record("Equipment", "arrow")["quantity"]
        .as_u64()
        .unwrap();
    let inv = s
        .ok(
            "manage_inventory",
            json!({"operation": "view", "characterName": "Ash"}),
        )
        .await;
    assert!(
        inv.text.contains(&format!("Arrow (ch1-eq2, ×{bundle})")),
        "{}",
        inv.text
    );
    let a = s
        .ok(
            "update_character",
            json!({"characterName": "Ash", "equipment": ["Longbow", "Arrow", "Rope, hempen (50 feet)"]}),
        )
        .await;
    assert!(
        a.text
            .contains("equipment replaced: removed Chain Mail; added Rope, hempen (50 feet)"),
        "{}",
        a.text
    );
    let inv = s
        .ok(
            "manage_inventory",
            json!({"operation": "view", "characterName": "Ash"}),
        )
        .await;
    assert!(!inv.text.contains("Chain Mail"), "{}", inv.text);
    assert!(inv.text.contains("Rope, hempen (50 feet)"), "{}", inv.text);
    assert!(inv.text.contains(&format!("×{bundle})")), "{}", inv.text);
}

#[tokio::test]
async fn a_spell_attack_names_the_cover_that_raised_the_ac() {
    if !srd() {
        return;
    }
    let ac = srd_record("Monsters", "skeleton")["armor_class"][0]["value"]
        .as_i64()
        .unwrap();
    let s = Session::start(7).await;
    s.ok(
        "create_character",
        json!({"name": "Wren", "race": "human", "class": "wizard", "level": 5,
               "stats": {"str": 8, "dex": 14, "con": 14, "int": 16, "wis": 12, "cha": 10},
               "spells": ["Fire Bolt", "Magic Missile"]}),
    )
    .await;
    s.ok(
        "create_encounter",
        json!({"participants": [
            {"characterName": "Wren", "position": {"x": 2, "y": 2}, "initiative": 30},
            {"monster": "goblin", "position": {"x": 4, "y": 2}, "initiative": 2},
            {"monster": "skeleton", "position": {"x": 6, "y": 2}, "initiative": 1}
        ]}),
    )
    .await;
    let a = s
        .ok(
            "execute_action",
            json!({"actorName": "Wren", "actionType": "cast_spell", "spell": "Fire Bolt",
                   "targets": [{"name": "Skeleton"}]}),
        )
        .await;
    // A creature in the way gives half cover: +2 AC.
    assert!(
        a.text.contains(&format!(
            "Skeleton has half cover: +2 AC ({ac} → {}).",
            ac + 2
        )),
        "{}",
        a.text
    );
    assert!(a.text.contains(&format!("vs AC {}", ac + 2)), "{}", a.text);
}

#[tokio::test]
async fn a_magic_item_says_what_of_it_is_left_to_the_dm_when_its_magic_starts() {
    if !srd() {
        return;
    }
    let s = Session::start(7).await;
    fighter(&s, "Vela").await;
    s.ok(
        "manage_inventory",
        json!({"operation": "give", "characterName": "Vela", "itemName": "Periapt of Wound Closure"}),
    )
    .await;
    let a = s
        .ok(
            "manage_inventory",
            json!({"operation": "equip", "characterName": "Vela", "itemName": "Periapt of Wound Closure"}),
        )
        .await;
    // It requires attunement: nothing of it works yet, so nothing is said of it yet.
    assert!(!a.text.contains("no automation for"), "{}", a.text);
    let a = s
        .ok(
            "manage_inventory",
            json!({"operation": "attune", "characterName": "Vela", "itemName": "Periapt of Wound Closure"}),
        )
        .await;
    assert!(
        a.text.contains(
            "no automation for Periapt of Wound Closure: doubling the hit points a Hit Die restores"
        ),
        "{}",
        a.text
    );
}

#[tokio::test]
async fn a_barbarian_20s_rages_read_unlimited() {
    if !srd() {
        return;
    }
    // The SRD's class table writes the 20th level's unlimited rages as 9999.
    let count = srd_record("Levels", "barbarian-20")["class_specific"]["rage_count"]
        .as_u64()
        .unwrap();
    assert_eq!(count, 9999);
    let s = Session::start(7).await;
    s.ok(
        "create_character",
        json!({"name": "Kor", "race": "human", "class": "barbarian", "level": 20,
               "stats": {"str": 16, "dex": 14, "con": 16, "int": 8, "wis": 10, "cha": 10}}),
    )
    .await;
    let sheet = s.ok("get_character", json!({"characterName": "Kor"})).await;
    assert!(sheet.text.contains("Rage unlimited"), "{}", sheet.text);
    assert!(!sheet.text.contains("9999"), "{}", sheet.text);
}

#[tokio::test]
async fn a_monster_sheet_shows_its_stat_block_hit_dice() {
    if !srd() {
        return;
    }
    // The thug's hit points are written as "<n>d8 + …" in the SRD JSON.
    let dice = srd_record("Monsters", "thug")["hit_dice"]
        .as_str()
        .unwrap()
        .to_string();
    let s = Session::start(7).await;
    s.ok(
        "create_encounter",
        json!({"participants": [{"monster": "thug", "position": {"x": 1, "y": 1}}]}),
    )
    .await;
    let sheet = s
        .ok("get_character", json!({"characterName": "Thug"}))
        .await;
    assert!(
        sheet.text.contains(&format!("\nHit dice: {dice}\n"))
            || sheet.text.ends_with(&format!("\nHit dice: {dice}")),
        "{}",
        sheet.text
    );
}

#[tokio::test]
async fn leaving_the_reach_of_a_hostile_whose_reaction_is_spent_is_said() {
    if !srd() {
        return;
    }
    let s = Session::start(7).await;
    fighter(&s, "Runa").await;
    s.ok(
        "create_encounter",
        json!({"participants": [
            {"characterName": "Runa", "position": {"x": 5, "y": 5}, "initiative": 30},
            {"monster": "goblin", "position": {"x": 5, "y": 4}, "initiative": 1}
        ]}),
    )
    .await;
    let away = json!({"actorName": "Runa", "actionType": "move", "to": {"x": 5, "y": 7}});
    let a = s.ok("execute_action", away.clone()).await;
    assert!(
        a.text
            .contains("Goblin makes an opportunity attack as Runa leaves its reach"),
        "{}",
        a.text
    );
    s.ok(
        "execute_action",
        json!({"actorName": "Runa", "actionType": "move", "to": {"x": 5, "y": 5}}),
    )
    .await;
    let a = s.ok("execute_action", away).await;
    assert!(
        a.text.contains(
            "Runa leaves Goblin's reach, which has already used its reaction this round: no opportunity attack"
        ),
        "{}",
        a.text
    );
}

#[tokio::test]
async fn a_rider_condition_keeps_the_duration_its_text_gives() {
    if !srd() {
        return;
    }
    // The ghoul's claws: "… saving throw or be paralyzed for 1 minute. The target can repeat
    // the saving throw at the end of each of its turns …" (its DC read from the SRD text).
    let claws = srd_action("ghoul", "Claws");
    let desc = claws["desc"].as_str().unwrap();
    assert!(desc.contains("repeat the saving throw"), "{desc}");
    let dc: i64 = desc
        .split("DC ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let s = Session::start(7).await;
    // A rogue with CON 8 (no CON save proficiency): a failed save is likely within a few hits.
    s.ok(
        "create_character",
        json!({"name": "Bruna", "race": "human", "class": "rogue", "level": 5,
               "stats": {"str": 10, "dex": 10, "con": 7, "int": 10, "wis": 10, "cha": 10}}),
    )
    .await;
    s.ok(
        "create_encounter",
        json!({"participants": [
            {"characterName": "Bruna", "position": {"x": 5, "y": 5}, "initiative": 30},
            {"monster": "ghoul", "position": {"x": 6, "y": 5}, "initiative": 1}
        ]}),
    )
    .await;
    let mut held = None;
    for _ in 0..20 {
        let a = s
            .ok(
                "execute_action",
                json!({"actorName": "Ghoul", "actionType": "attack", "weapon": "Claws",
                       "targetName": "Bruna", "force": true}),
            )
            .await;
        if a.text.contains("Bruna is paralyzed (Claws)") {
            held = Some(a);
            break;
        }
        s.ok(
            "update_character",
            json!({"characterName": "Bruna", "hp": "+40"}),
        )
        .await;
    }
    held.expect("a failed save against the claws in twenty tries");
    let sheet = s
        .ok("get_character", json!({"characterName": "Bruna"}))
        .await;
    let conditions = sheet.structured["character"]["conditions"]
        .as_array()
        .unwrap();
    let paralyzed = conditions
        .iter()
        .find(|c| c["condition"] == "paralyzed")
        .unwrap_or_else(|| panic!("{}", sheet.structured["character"]["conditions"]));
    let duration = paralyzed["duration"].to_string();
    assert!(
        duration.contains(&dc.to_string()) && duration.to_lowercase().contains("con"),
        "{paralyzed}"
    );
}
