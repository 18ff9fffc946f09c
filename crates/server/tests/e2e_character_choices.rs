//! create_character's choice fields through the real MCP tool calls against the SRD (issue 16):
//! skills, languages, fighting style, expertise, subclass, the half-elf's ability choices and
//! spells, each with its exact answer, and bad choices refused naming the allowed values.

use super::common;

use common::Session;
use serde_json::{Value, json};

/// The refusal text of a create_character call that must fail.
async fn refused(s: &Session, args: Value) -> String {
    let a = s
        .client
        .call("create_character", args.clone())
        .await
        .unwrap();
    assert!(a.is_error, "{args} should be refused: {}", a.text);
    a.text
}

fn line<'a>(text: &'a str, lead: &str) -> &'a str {
    text.lines()
        .find(|l| l.starts_with(lead))
        .unwrap_or_else(|| panic!("no line '{lead}' in {text}"))
}

#[tokio::test]
async fn choice_fields_shape_the_sheet_exactly() {
    if !common::srd("choice_fields_shape_the_sheet_exactly") {
        return;
    }
    let s = Session::start(3).await;
    // Fighter: two class skills, the Defense style, a human's extra language.
    let a = s
        .ok(
            "create_character",
            json!({"name": "Kell", "race": "human", "class": "fighter", "skills": ["athletics", "perception"],
                   "fightingStyle": "defense", "languages": ["Elvish"],
                   "stats": {"str": 15, "dex": 12, "con": 14, "int": 10, "wis": 13, "cha": 8}}),
        )
        .await;
    assert_eq!(
        line(&a.text, "Skills:"),
        "Skills: athletics +5, perception +4"
    );
    let c = &a.structured["character"];
    assert_eq!(
        c["skills"],
        json!({"athletics": "proficient", "perception": "proficient"})
    );
    assert_eq!(c["languages"], json!(["Common", "Elvish"]));
    assert_eq!(c["derived"]["fightingStyles"], json!(["defense"]));
    assert_eq!(
        c["derived"]["features"],
        json!(["Fighting Style", "Second Wind", "Fighting Style: Defense"])
    );
    // Rogue: expertise doubles the proficiency bonus (DEX 17: +3 + 2×2 = +7 Stealth).
    let a = s
        .ok(
            "create_character",
            json!({"name": "Nim", "race": "halfling", "subrace": "lightfoot halfling", "class": "rogue",
                   "skills": ["stealth", "acrobatics", "perception", "deception"], "expertise": ["stealth", "perception"],
                   "stats": {"str": 8, "dex": 15, "con": 14, "int": 12, "wis": 13, "cha": 10}}),
        )
        .await;
    assert_eq!(
        line(&a.text, "Skills:"),
        "Skills: acrobatics +5, deception +2, perception +5, stealth +7"
    );
    assert_eq!(
        a.structured["character"]["skills"],
        json!({"acrobatics": "proficient", "deception": "proficient", "perception": "expertise", "stealth": "expertise"})
    );
    // Half-elf: CHA +2 and the chosen STR and CON +1.
    let a = s
        .ok(
            "create_character",
            json!({"name": "Ara", "race": "half-elf", "class": "bard", "abilityChoices": ["str", "con"],
                   "skills": ["performance", "history", "insight", "arcana", "persuasion"],
                   "stats": {"str": 10, "dex": 14, "con": 12, "int": 10, "wis": 10, "cha": 15}}),
        )
        .await;
    assert_eq!(
        line(&a.text, "STR"),
        "STR 11 (+0), DEX 14 (+2), CON 13 (+1), INT 10 (+0), WIS 10 (+0), CHA 17 (+3)"
    );
    // Life cleric: domain spells always prepared, four prepared from the list.
    let a = s
        .ok(
            "create_character",
            json!({"name": "Bran", "race": "human", "classes": [{"class": "cleric", "level": 1, "subclass": "life"}],
                   "skills": ["medicine", "religion"],
                   "spells": ["sacred flame", "guidance", "light", "guiding bolt", "healing word", "shield of faith"],
                   "stats": {"str": 10, "dex": 12, "con": 14, "int": 10, "wis": 16, "cha": 8}}),
        )
        .await;
    assert!(
        a.text.ends_with("; cleric 1 spells: 3 cantrips; prepares WIS +3 + cleric level 1 = 4 from the class list; always prepared: Bless, Cure Wounds; spell levels up to 1"),
        "{}",
        a.text
    );
    assert_eq!(
        a.structured["character"]["build"]["classes"],
        json!([{"class": "Cleric", "level": 1, "subclass": "life"}])
    );
    s.client.close().await.unwrap();
}

#[tokio::test]
async fn bad_choices_are_refused_with_the_allowed_values() {
    if !common::srd("bad_choices_are_refused_with_the_allowed_values") {
        return;
    }
    let s = Session::start(3).await;
    let tail = ". Fix them, or check a build first with validateOnly";
    assert_eq!(
        refused(&s, json!({"name": "B1", "race": "human", "class": "fighter", "skills": ["arcana", "athletics"]})).await,
        format!("the build breaks 1 rule(s): Fighter cannot choose arcana; its skills are: acrobatics, animal_handling, athletics, history, insight, intimidation, perception, survival{tail}")
    );
    assert_eq!(
        refused(&s, json!({"name": "B2", "race": "human", "class": "fighter", "fightingStyle": "berserking"})).await,
        format!("the build breaks 1 rule(s): fighting style 'berserking' is not a Fighter option (fightingStyle); choose: archery, defense, dueling, great-weapon-fighting, protection, two-weapon-fighting{tail}")
    );
    assert_eq!(
        refused(
            &s,
            json!({"name": "B3", "race": "human", "class": "wizard", "fightingStyle": "defense"})
        )
        .await,
        format!(
            "the build breaks 1 rule(s): fightingStyle 'defense': no class here has the Fighting Style feature at its level (fighter 1, paladin 2, ranger 2){tail}"
        )
    );
    assert_eq!(
        refused(&s, json!({"name": "B4", "race": "human", "class": "rogue", "skills": ["stealth", "acrobatics", "perception", "deception"], "expertise": ["arcana"]})).await,
        format!("the build breaks 1 rule(s): expertise in arcana needs proficiency in it first (add it to skills){tail}")
    );
    assert_eq!(
        refused(&s, json!({"name": "B5", "race": "human", "classes": [{"class": "cleric", "level": 1, "subclass": "necromancy"}]})).await,
        format!("the build breaks 1 rule(s): 'necromancy' is not a Cleric subclass in the SRD (subclass); choose: Life{tail}")
    );
    assert_eq!(
        refused(&s, json!({"name": "B6", "race": "half-elf", "class": "bard", "abilityChoices": ["cha", "con"]})).await,
        format!("the build breaks 1 rule(s): Half-Elf chooses 2 different abilities for +1 (abilityChoices) from: str, dex, con, int, wis; given: cha, con{tail}")
    );
    assert_eq!(
        refused(&s, json!({"name": "B7", "race": "dwarf", "subrace": "hill dwarf", "class": "fighter", "abilityChoices": ["str"]})).await,
        format!("the build breaks 1 rule(s): Hill Dwarf has no ability choices (abilityChoices); its bonuses are fixed{tail}")
    );
    assert_eq!(
        refused(&s, json!({"name": "B8", "race": "human", "class": "bard", "spells": ["vicious mockery", "healing word", "cure wounds", "sleep", "charm person", "thunderwave"]})).await,
        format!("the build breaks 1 rule(s): a bard 1 knows 4 spells of 1st level and higher; 5 given (Healing Word, Cure Wounds, Sleep, Charm Person, Thunderwave){tail}")
    );
    // validateOnly answers with the same problems and stores nothing.
    let a = s
        .ok(
            "create_character",
            json!({"name": "B9", "race": "human", "class": "wizard", "validateOnly": true,
                   "spells": ["fire bolt", "light", "mage hand", "ray of frost", "fireball"],
                   "stats": {"str": 10, "dex": 12, "con": 14, "int": 16, "wis": 10, "cha": 8}}),
        )
        .await;
    assert_eq!(
        a.text,
        "Invalid build: 2 problem(s):\n- Fireball is a level-3 spell; a wizard 1 has slots up to level 1\n- a wizard 1 knows 3 cantrips; 4 given (Fire Bolt, Light, Mage Hand, Ray of Frost)"
    );
    let a = s
        .client
        .call("get_character", json!({"characterName": "B9"}))
        .await
        .unwrap();
    assert!(a.is_error, "nothing stored: {}", a.text);
    assert_eq!(
        a.text,
        "no character 'B9' in this campaign; there are no characters yet"
    );
    s.client.close().await.unwrap();
}

/// Multiclass spell slots from the play-test: only classes with their Spellcasting feature
/// count, and one such class follows its own table (SRD multiclassing, "Spell Slots").
#[tokio::test]
async fn multiclass_slots_follow_the_one_spellcasting_class() {
    if !common::srd("multiclass_slots_follow_the_one_spellcasting_class") {
        return;
    }
    let s = Session::start(7).await;
    let stats = json!({"str": 13, "dex": 13, "con": 12, "int": 13, "wis": 13, "cha": 13});
    // Ranger 1 / Rogue 1: ranger 1 has no Spellcasting yet (its table: no slots).
    let a = s
        .ok(
            "create_character",
            json!({"name": "Scout", "classes": [{"class": "ranger", "level": 1}, {"class": "rogue", "level": 1}],
                   "stats": stats}),
        )
        .await;
    assert!(
        !a.text.contains("Spell slots") && !a.text.contains("Spellcasting:"),
        "{}",
        a.text
    );
    // Ranger 3 / Fighter 1: the ranger's own table at ranger level 3.
    let a = s
        .ok(
            "create_character",
            json!({"name": "Warden", "classes": [{"class": "ranger", "level": 3}, {"class": "fighter", "level": 1}],
                   "stats": stats}),
        )
        .await;
    assert_eq!(
        line(&a.text, "Spell slots"),
        "Spell slots (left/max): 1st 3/3"
    );
    assert!(line(&a.text, "Spellcasting:").starts_with("Spellcasting: WIS"));
    // Fighter 1 / Paladin 5: the paladin's own 5th-level row, not caster level 2's.
    let a = s
        .ok(
            "create_character",
            json!({"name": "Ardent", "classes": [{"class": "fighter", "level": 1}, {"class": "paladin", "level": 5}],
                   "stats": stats}),
        )
        .await;
    assert_eq!(
        line(&a.text, "Spell slots"),
        "Spell slots (left/max): 1st 4/4, 2nd 2/2"
    );
    // Paladin 2 / Wizard 1: both cast, 1 + 1 on the multiclass table: three 1st-level slots.
    let a = s
        .ok(
            "create_character",
            json!({"name": "Oathsworn", "classes": [{"class": "paladin", "level": 2}, {"class": "wizard", "level": 1}],
                   "stats": stats}),
        )
        .await;
    assert_eq!(
        line(&a.text, "Spell slots"),
        "Spell slots (left/max): 1st 3/3"
    );
    s.client.close().await.unwrap();
}
