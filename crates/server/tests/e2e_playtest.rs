//! Rules a second DM play-test found displayed but not applied, end to end over the real binary
//! with SRD-built characters, each SRD fact read from the SRD JSON at run time: Hold Person on a
//! creature it cannot hold, a save whose reason names what it resists, speed over carrying
//! capacity in heavy armor, bracers beside gauntlets and a Luckstone on the person, resources
//! that are not counts, a multiclass level-up's features, a spellbook given by SRD index, and a
//! race's languages of choice.

use super::common;

use common::{Session, srd_record};
use serde_json::json;

use common::srd_here as srd;

async fn hill_dwarf_cleric(s: &Session, name: &str) {
    s.ok(
        "create_character",
        json!({"name": name, "race": "dwarf", "subrace": "hill-dwarf", "class": "cleric", "level": 5,
               "stats": {"str": 10, "dex": 10, "con": 14, "int": 10, "wis": 16, "cha": 10},
               "spells": ["hold-person", "bless"]}),
    )
    .await;
}

#[tokio::test]
async fn hold_person_on_a_creature_it_cannot_hold_spends_the_slot_and_holds_no_concentration() {
    if !srd() {
        return;
    }
    let s = Session::start(11).await;
    hill_dwarf_cleric(&s, "Cleo").await;
    let zombie_type = srd_record("Monsters", "zombie")["type"]
        .as_str()
        .unwrap()
        .to_string();
    assert_ne!(zombie_type, "humanoid");
    s.ok(
        "create_encounter",
        json!({"participants": [
            {"characterName": "Cleo", "position": {"x": 2, "y": 2}, "initiative": 30},
            {"monster": "zombie", "position": {"x": 4, "y": 2}, "initiative": 1}
        ]}),
    )
    .await;
    let a = s
        .ok(
            "execute_action",
            json!({"actorName": "Cleo", "actionType": "cast_spell", "spell": "Hold Person", "targetName": "Zombie"}),
        )
        .await;
    let lines: Vec<&str> = a.text.lines().collect();
    let unaffected = format!(
        "Zombie is unaffected: Hold Person affects only humanoids (Zombie is an {zombie_type})"
    );
    assert!(lines.contains(&unaffected.as_str()), "{}", a.text);
    assert!(
        lines.contains(
            &"Cleo's concentration on Hold Person ends (no target was affected, so it holds nothing)"
        ),
        "{}",
        a.text
    );
    // The slot is spent (an invalid target wastes it) and no concentration is left.
    let sheet = s
        .ok("get_character", json!({"characterName": "Cleo"}))
        .await;
    assert!(
        sheet
            .text
            .contains("Spell slots (left/max): 1st 4/4, 2nd 2/3, 3rd 2/2"),
        "{}",
        sheet.text
    );
    assert!(
        sheet.structured["character"]["concentration"].is_null(),
        "{}",
        sheet.structured["character"]
    );
    // A spell that does hold someone keeps its concentration: Bless on the cleric, next turn.
    for _ in 0..2 {
        s.ok("advance_turn", json!({})).await;
    }
    let a = s
        .ok(
            "execute_action",
            json!({"actorName": "Cleo", "actionType": "cast_spell", "spell": "Bless", "targetName": "Cleo"}),
        )
        .await;
    assert!(!a.text.contains("holds nothing"), "{}", a.text);
    let sheet = s
        .ok("get_character", json!({"characterName": "Cleo"}))
        .await;
    assert_eq!(
        sheet.structured["character"]["concentration"]["spell"], "Bless",
        "{}",
        sheet.structured["character"]
    );
}

#[tokio::test]
async fn a_save_whose_reason_names_poison_or_fear_gets_the_racial_advantage() {
    if !srd() {
        return;
    }
    let s = Session::start(5).await;
    hill_dwarf_cleric(&s, "Dwa").await;
    s.ok(
        "create_character",
        json!({"name": "Pip", "race": "halfling", "subrace": "lightfoot-halfling", "class": "rogue", "level": 3,
               "stats": {"str": 10, "dex": 16, "con": 12, "int": 10, "wis": 10, "cha": 12}}),
    )
    .await;
    // The SRD says what each trait resists.
    let resilience = srd_record("Traits", "dwarven-resilience")["desc"][0]
        .as_str()
        .unwrap()
        .to_lowercase();
    assert!(
        resilience.contains("advantage on saving throws against poison"),
        "{resilience}"
    );
    let brave = srd_record("Traits", "brave")["desc"][0]
        .as_str()
        .unwrap()
        .to_lowercase();
    assert!(
        brave.contains("advantage on saving throw against being frightened"),
        "{brave}"
    );
    let dwarf_adv = "(advantage: Dwarven Resilience (hill dwarf): poison)";
    for reason in ["poison", "giant spider venom", "poisoned dart trap"] {
        let a = s
            .ok(
                "roll_check",
                json!({"characterName": "Dwa", "checkType": "save", "ability": "con", "dc": 12, "reason": reason}),
            )
            .await;
        assert!(a.text.contains(dwarf_adv), "{reason}: {}", a.text);
    }
    // Nothing named: no advantage.
    let a = s
        .ok(
            "roll_check",
            json!({"characterName": "Dwa", "checkType": "save", "ability": "con", "dc": 12, "reason": "a rolling boulder"}),
        )
        .await;
    assert!(!a.text.contains("advantage"), "{}", a.text);
    let a = s
        .ok(
            "roll_check",
            json!({"characterName": "Pip", "checkType": "save", "ability": "wis", "dc": 12, "reason": "the dragon's frightful presence"}),
        )
        .await;
    assert!(
        a.text
            .contains("(advantage: Brave (lightfoot halfling): frightened)"),
        "{}",
        a.text
    );
    // `vs` given still decides over the reason's words.
    let a = s
        .ok(
            "roll_check",
            json!({"characterName": "Pip", "checkType": "save", "ability": "wis", "dc": 12, "reason": "fear",
                   "vs": {"condition": "charmed"}}),
        )
        .await;
    assert!(!a.text.contains("advantage"), "{}", a.text);
}

#[tokio::test]
async fn over_carrying_capacity_in_heavy_armor_leaves_five_feet_of_speed() {
    if !srd() {
        return;
    }
    let s = Session::start(3).await;
    let plate = srd_record("Equipment", "plate-armor");
    let str_min = plate["str_minimum"].as_u64().unwrap();
    let plate_lb = plate["weight"].as_f64().unwrap();
    let pot_lb = srd_record("Equipment", "pot-iron")["weight"]
        .as_f64()
        .unwrap();
    // STR 8 (+1 human = 9): under plate's minimum; capacity 9 × 15 = 135 lb.
    s.ok(
        "create_character",
        json!({"name": "Tank", "race": "human", "class": "fighter", "level": 1,
               "stats": {"str": 8, "dex": 10, "con": 14, "int": 10, "wis": 10, "cha": 10},
               "equipment": ["plate armor"]}),
    )
    .await;
    assert!(9 < str_min);
    let a = s
        .ok(
            "manage_inventory",
            json!({"operation": "equip", "characterName": "Tank", "itemName": "Plate Armor"}),
        )
        .await;
    assert!(a.text.contains("speed 30 → 20 ft"), "{}", a.text);
    let capacity = 9.0 * 15.0;
    let pots = ((capacity - plate_lb) / pot_lb).floor() as u64 + 1;
    s.ok(
        "manage_inventory",
        json!({"operation": "give", "characterName": "Tank", "itemName": "Iron Pot", "quantity": pots}),
    )
    .await;
    let sheet = s
        .ok("get_character", json!({"characterName": "Tank"}))
        .await;
    assert!(
        sheet.text.lines().nth(1).unwrap().contains("speed 5 ft"),
        "{}",
        sheet.text
    );
    assert_eq!(sheet.structured["effective"]["speed"]["value"], 5);
}

#[tokio::test]
async fn bracers_go_beside_gauntlets_and_a_luckstone_works_on_the_person() {
    if !srd() {
        return;
    }
    let s = Session::start(9).await;
    let luck = srd_record("Magic-Items", "stone-of-good-luck-luckstone")["desc"][1]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        luck.contains("on your person, you gain a +1 bonus to ability checks and saving throws"),
        "{luck}"
    );
    s.ok(
        "create_character",
        json!({"name": "Kai", "race": "human", "class": "monk", "level": 5,
               "stats": {"str": 10, "dex": 16, "con": 14, "int": 10, "wis": 14, "cha": 10}}),
    )
    .await;
    for (item, slot) in [
        ("Bracers of Defense", "wrists"),
        ("Gauntlets of Ogre Power", "hands"),
        ("Stone of Good Luck", "person"),
        ("Ioun Stone of Protection", "person"),
    ] {
        s.ok(
            "manage_inventory",
            json!({"operation": "give", "characterName": "Kai", "itemName": item}),
        )
        .await;
        let a = s
            .ok(
                "manage_inventory",
                json!({"operation": "equip", "characterName": "Kai", "itemName": item}),
            )
            .await;
        assert!(a.text.contains(&format!("equipped ({slot})")), "{}", a.text);
        assert!(!a.text.contains("unequipped"), "{}", a.text);
    }
    let before = s
        .ok(
            "roll_check",
            json!({"characterName": "Kai", "checkType": "save", "ability": "wis", "dc": 10}),
        )
        .await;
    assert!(!before.text.contains("Luckstone"), "{}", before.text);
    s.ok(
        "manage_inventory",
        json!({"operation": "attune", "characterName": "Kai", "itemName": "Stone of Good Luck"}),
    )
    .await;
    let after = s
        .ok(
            "roll_check",
            json!({"characterName": "Kai", "checkType": "save", "ability": "wis", "dc": 10}),
        )
        .await;
    // WIS 14 (+2) + proficiency 3 (monk WIS saves? no: STR and DEX) = +2, +1 Luckstone = +3.
    assert!(after.text.contains("+ 3 = "), "{}", after.text);
    let sheet = s.ok("get_character", json!({"characterName": "Kai"})).await;
    let items = sheet.structured["character"]["inventory"]["items"]
        .as_array()
        .unwrap();
    let slot_of = |name: &str| {
        items
            .iter()
            .find(|i| i["name"].as_str().unwrap().starts_with(name))
            .map(|i| i["slot"].clone())
            .unwrap()
    };
    assert_eq!(slot_of("Bracers of Defense"), "wrists");
    assert_eq!(slot_of("Gauntlets of Ogre Power"), "hands");
    assert_eq!(slot_of("Stone of Good Luck"), "person");
    assert_eq!(slot_of("Ioun Stone of Protection"), "person");
}

#[tokio::test]
async fn relentless_rage_shows_its_next_dc_and_archdruid_wild_shape_is_unlimited() {
    if !srd() {
        return;
    }
    let s = Session::start(2).await;
    let rr = srd_record("Features", "relentless-rage");
    let rr_level = rr["level"].as_u64().unwrap();
    assert!(
        rr["desc"][0].as_str().unwrap().contains("DC 10"),
        "{}",
        rr["desc"]
    );
    let arch_level = srd_record("Features", "archdruid")["level"]
        .as_u64()
        .unwrap();
    s.ok(
        "create_character",
        json!({"name": "Rag", "race": "half-orc", "class": "barbarian", "level": rr_level,
               "stats": {"str": 16, "dex": 14, "con": 14, "int": 8, "wis": 10, "cha": 8}}),
    )
    .await;
    let sheet = s.ok("get_character", json!({"characterName": "Rag"})).await;
    assert!(
        sheet
            .text
            .contains("Relentless Rage: next save DC 10 (short rest resets it)"),
        "{}",
        sheet.text
    );
    s.ok(
        "create_character",
        json!({"name": "Dru", "race": "human", "class": "druid", "level": arch_level,
               "stats": {"str": 10, "dex": 14, "con": 14, "int": 10, "wis": 18, "cha": 8}}),
    )
    .await;
    let sheet = s.ok("get_character", json!({"characterName": "Dru"})).await;
    assert!(
        sheet.text.contains("Wild Shape unlimited"),
        "{}",
        sheet.text
    );
    // One level lower: the class table's two uses.
    s.ok(
        "create_character",
        json!({"name": "Dru2", "race": "human", "class": "druid", "level": arch_level - 1,
               "stats": {"str": 10, "dex": 14, "con": 14, "int": 10, "wis": 18, "cha": 8}}),
    )
    .await;
    let sheet = s
        .ok("get_character", json!({"characterName": "Dru2"}))
        .await;
    assert!(
        sheet.text.contains("Wild Shape 2/2 (short rest)"),
        "{}",
        sheet.text
    );
}

#[tokio::test]
async fn levelling_the_first_class_of_a_multiclass_lists_that_class_level_features() {
    if !srd() {
        return;
    }
    let s = Session::start(4).await;
    let names = |index: &str| -> Vec<String> {
        srd_record("Levels", index)["features"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["name"].as_str().unwrap().to_string())
            .collect()
    };
    let fighter2 = names("fighter-2");
    let fighter3 = names("fighter-3");
    assert!(!fighter2.is_empty() && !fighter3.is_empty());
    s.ok(
        "create_character",
        json!({"name": "Multi", "race": "human",
               "classes": [{"class": "fighter", "level": 1}, {"class": "rogue", "level": 1}],
               "stats": {"str": 15, "dex": 14, "con": 13, "int": 13, "wis": 10, "cha": 8}}),
    )
    .await;
    let a = s
        .ok(
            "level_up",
            json!({"characterName": "Multi", "class": "fighter"}),
        )
        .await;
    let gained: Vec<String> = a.structured["featuresGained"]
        .as_array()
        .unwrap_or_else(|| panic!("{}", a.structured))
        .iter()
        .map(|f| f.as_str().unwrap().to_string())
        .collect();
    assert_eq!(gained, fighter2, "{}", a.text);
    assert!(
        a.text.contains("classes: Fighter 2 / Rogue 1"),
        "{}",
        a.text
    );
    for f in &fighter3 {
        assert!(!a.text.contains(f.as_str()), "{f}: {}", a.text);
    }
}

#[tokio::test]
async fn a_spellbook_given_by_srd_index_matches_the_prepared_spells() {
    if !srd() {
        return;
    }
    let s = Session::start(6).await;
    let mm = srd_record("Spells", "magic-missile")["name"]
        .as_str()
        .unwrap()
        .to_string();
    let a = s
        .ok(
            "create_character",
            json!({"name": "Wiz", "race": "elf", "subrace": "high-elf", "class": "wizard", "level": 3,
                   "stats": {"str": 8, "dex": 14, "con": 12, "int": 16, "wis": 10, "cha": 10},
                   "languages": ["Sylvan"],
                   "spells": ["magic-missile", "shield", "fire-bolt"],
                   "spellbook": ["magic-missile", "shield", "sleep"]}),
        )
        .await;
    assert!(
        a.text.contains(&format!("Spells: {mm}, Shield, Fire Bolt")),
        "{}",
        a.text
    );
    let sheet = s.ok("get_character", json!({"characterName": "Wiz"})).await;
    let book: Vec<&str> = sheet.structured["character"]["spellbook"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap())
        .collect();
    assert_eq!(book, vec![mm.as_str(), "Shield", "Sleep"]);
}

#[tokio::test]
async fn a_human_chooses_one_extra_language_and_no_more() {
    if !srd() {
        return;
    }
    let s = Session::start(8).await;
    let human = srd_record("Races", "human");
    let choose = human["language_options"]["choose"].as_u64().unwrap();
    assert_eq!(choose, 1);
    let stats = json!({"str": 15, "dex": 14, "con": 13, "int": 10, "wis": 10, "cha": 8});
    // None chosen: an open choice that says how many and from where.
    let a = s
        .ok(
            "create_character",
            json!({"name": "Hu", "race": "human", "class": "fighter", "level": 1, "stats": stats}),
        )
        .await;
    assert!(
        a.text.contains(&format!(
            "open choice: {choose} language(s) of the player's choice (languages): race: Human {choose}"
        )),
        "{}",
        a.text
    );
    // One chosen: no open choice, and the sheet has it.
    let a = s
        .ok(
            "create_character",
            json!({"name": "Hu2", "race": "human", "class": "fighter", "level": 1, "stats": stats,
                   "languages": ["Elvish"]}),
        )
        .await;
    assert!(
        !a.text.contains("language(s) of the player's choice"),
        "{}",
        a.text
    );
    let sheet = s.ok("get_character", json!({"characterName": "Hu2"})).await;
    assert_eq!(
        sheet.structured["character"]["languages"],
        json!(["Common", "Elvish"])
    );
    // Three chosen: refused, naming the count and the fix.
    s.err(
        "create_character",
        json!({"name": "Hu3", "race": "human", "class": "fighter", "level": 1, "stats": stats,
               "languages": ["Elvish", "Dwarvish", "Giant"]}),
        &[
            "languages: 1 of the player's choice (race: Human 1) beyond Common; 3 given: Elvish, Dwarvish, Giant",
            "update_character languages",
        ],
    )
    .await;
    // A high elf acolyte: Extra Language 1 + the background's 2.
    let a = s
        .ok(
            "create_character",
            json!({"name": "El", "race": "elf", "subrace": "high-elf", "class": "wizard", "level": 1,
                   "background": "acolyte", "stats": stats, "languages": ["Sylvan"]}),
        )
        .await;
    assert!(
        a.text.contains(
            "open choice: 2 language(s) of the player's choice (languages): Extra Language 1, background: Acolyte 2"
        ),
        "{}",
        a.text
    );
}

#[tokio::test]
async fn a_dragonborn_made_without_an_ancestry_is_told_to_choose_one() {
    if !srd() {
        return;
    }
    let s = Session::start(8).await;
    // The SRD's ancestries, as the choice lists them.
    let colours: Vec<String> = srd_record("Traits", "draconic-ancestry")["trait_specific"]
        ["subtrait_options"]["from"]["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| {
            o["item"]["index"]
                .as_str()
                .unwrap()
                .trim_start_matches("draconic-ancestry-")
                .to_string()
        })
        .collect();
    assert_eq!(colours.len(), 10);
    let a = s
        .ok(
            "create_character",
            json!({"name": "Drak", "race": "dragonborn", "class": "fighter", "level": 3,
                   "stats": {"str": 15, "dex": 12, "con": 14, "int": 10, "wis": 10, "cha": 12}}),
        )
        .await;
    assert!(
        a.text.contains(&format!(
            "open choice: Draconic Ancestry: choose a colour (draconicAncestry at creation): {}; until then no damage resistance and Breath Weapon is the DM's",
            colours.join(", ")
        )),
        "{}",
        a.text
    );
    let a = s
        .ok(
            "create_character",
            json!({"name": "Rax", "race": "dragonborn", "class": "fighter", "level": 3, "draconicAncestry": "red",
                   "stats": {"str": 15, "dex": 12, "con": 14, "int": 10, "wis": 10, "cha": 12}}),
        )
        .await;
    assert!(!a.text.contains("Draconic Ancestry: choose"), "{}", a.text);
    // Another race has no Draconic Ancestry: the colour is refused, not turned into a resistance.
    let human = json!({"name": "Sorin", "race": "human", "class": "sorcerer", "level": 6, "draconicAncestry": "red",
                       "stats": {"str": 8, "dex": 14, "con": 14, "int": 10, "wis": 10, "cha": 16}});
    s.err(
        "create_character",
        human.clone(),
        &["draconicAncestry 'red': only a dragonborn has a Draconic Ancestry, and this build's race is Human (a draconic sorcerer's Dragon Ancestor is an option: options [\"dragon-ancestor-red---fire-damage\"])"],
    )
    .await;
    let mut check = human;
    check["validateOnly"] = json!(true);
    let v = s.ok("create_character", check).await;
    assert!(
        v.text.starts_with("Invalid build: 1 problem(s):\n- draconicAncestry 'red': only a dragonborn has a Draconic Ancestry"),
        "{}",
        v.text
    );
    s.err(
        "create_character",
        json!({"name": "Vex", "race": "dragonborn", "class": "fighter", "level": 1, "draconicAncestry": "purple",
               "stats": {"str": 15, "dex": 12, "con": 14, "int": 10, "wis": 10, "cha": 12}}),
        &["draconicAncestry 'purple' is not an SRD colour; choose: black, blue, brass, bronze, copper, gold, green, red, silver, white"],
    )
    .await;
}
