//! Spells known and prepared (issue 16), through the real use cases against the SRD: the class
//! level tables say how many cantrips and spells a class keeps, prepared casters prepare ability
//! modifier + level (a wizard from its spellbook), domain spells are always prepared and not
//! counted, `validateOnly` reports what breaks the rules, `update_character` refuses illegal
//! lists unless forced, and casting a spell not prepared or known is refused (or forced, said so).

mod common;

use std::sync::Arc;

use tabletop_engine::character::{Character, CharacterRef};
use tabletop_engine::combat::actions::{ActionRequest, ActionType, Who, execute};
use tabletop_engine::compendium::CompendiumSource;
use tabletop_engine::creation::{
    AbilityMethod, ClassRequest, CreateMode, CreateOutcome, CreateRequest, create_character,
};
use tabletop_engine::sheet::get_character;
use tabletop_engine::update::{CharacterPatch, UpdateOutcome, UpdateRequest, update_character};
use tabletop_engine::{Engine, EngineError, EngineOptions, SqliteStore};
use tabletop_rules::Ability;
use tabletop_srd::Compendium;

type E = Engine<SqliteStore>;

fn engine(dir: &tempfile::TempDir, srd: &Arc<Compendium>) -> E {
    Engine::open(
        SqliteStore::open(&dir.path().join("k.sqlite")).unwrap(),
        "c",
        EngineOptions {
            seed: Some(7),
            compendium: CompendiumSource::ready(srd.clone()),
        },
    )
    .unwrap()
}

/// STR DEX CON INT WIS CHA 10 14 14 16 16 16: the casting ability is +3 for every class.
fn req(name: &str, class: &str, level: u32, spells: &[&str]) -> CreateRequest {
    CreateRequest {
        name: name.into(),
        class: Some(class.into()),
        level: Some(level),
        method: AbilityMethod::Manual,
        scores: Some(
            Ability::ALL
                .iter()
                .copied()
                .zip([10, 14, 14, 16, 16, 16])
                .collect(),
        ),
        spells: spells.iter().map(|s| s.to_string()).collect(),
        mode: CreateMode::Create,
        ..Default::default()
    }
}

fn create(e: &mut E, r: CreateRequest) -> Result<CreateOutcome, EngineError> {
    e.write("create_character", &serde_json::json!({}), |call| {
        create_character(call, r)
    })
}

fn validate(e: &mut E, mut r: CreateRequest) -> CreateOutcome {
    r.mode = CreateMode::Validate;
    create(e, r).unwrap()
}

fn update(
    e: &mut E,
    id: &str,
    patch: CharacterPatch,
    force: bool,
) -> Result<UpdateOutcome, EngineError> {
    e.write("update_character", &serde_json::json!({}), |call| {
        update_character(
            call,
            CharacterRef::new(Some(id), None),
            UpdateRequest {
                patch,
                force,
                ..Default::default()
            },
        )
    })
}

fn sheet(e: &mut E, id: &str) -> Character {
    e.read(|call| get_character(call, CharacterRef::new(Some(id), None)))
        .unwrap()
        .character
}

fn cast(
    e: &mut E,
    actor: &str,
    spell: &str,
    force: bool,
) -> Result<tabletop_engine::combat::actions::ActionOutcome, EngineError> {
    let me = Who {
        id: Some(actor.into()),
        name: None,
    };
    let req = ActionRequest {
        actor: me.clone(),
        target: me,
        action_type: Some(ActionType::CastSpell),
        spell: Some(spell.into()),
        force,
        ..Default::default()
    };
    e.write("execute_action", &serde_json::json!({}), |call| {
        execute(call, &req)
    })
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

#[test]
fn a_wizard_prepares_int_mod_plus_level_from_its_spellbook() {
    let Some(srd) = common::srd("a_wizard_prepares_int_mod_plus_level_from_its_spellbook") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd);
    // Wizard 3, INT 16: 3 cantrips, prepares 3 + 3 = 6 from the spellbook.
    let book = [
        "Magic Missile",
        "Shield",
        "Sleep",
        "Mage Armor",
        "Burning Hands",
        "Misty Step",
        "Web",
        "Detect Magic",
    ];
    let mut r = req(
        "Aria",
        "wizard",
        3,
        &[
            "Fire Bolt",
            "Light",
            "Mage Hand",
            "Magic Missile",
            "Shield",
            "Sleep",
            "Mage Armor",
            "Misty Step",
            "Web",
        ],
    );
    r.spellbook = strings(&book);
    let ok = validate(&mut e, r.clone());
    assert_eq!(ok.problems, Vec::<String>::new());
    assert!(
        ok.derivations.contains(
            &"wizard 3 spells: 3 cantrips; prepares INT +3 + wizard level 3 = 6 from the spellbook; spell levels up to 2"
                .to_string()
        ),
        "{:?}",
        ok.derivations
    );
    // One more prepared spell, a fourth cantrip, a spell outside the book and a 3rd-level spell.
    let mut bad = r.clone();
    bad.spells
        .extend(strings(&["Burning Hands", "Ray of Frost", "Fireball"]));
    bad.spells.push("Thunderwave".into());
    let out = validate(&mut e, bad);
    assert_eq!(
        out.problems,
        vec![
            "Fireball is a level-3 spell; a wizard 3 has slots up to level 2".to_string(),
            "a wizard 3 knows 3 cantrips; 4 given (Fire Bolt, Light, Mage Hand, Ray of Frost)"
                .to_string(),
            "a wizard 3 prepares 6 spells (INT +3 + wizard level 3 = 6); 9 prepared (Magic Missile, Shield, Sleep, Mage Armor, Misty Step, Web, Burning Hands, Fireball, Thunderwave)"
                .to_string(),
            "a wizard prepares from its spellbook; not in it: Fireball, Thunderwave (spellbook: Magic Missile, Shield, Sleep, Mage Armor, Burning Hands, Misty Step, Web, Detect Magic)"
                .to_string(),
        ]
    );
    // Create refuses the same list; the legal one is stored with its book.
    let mut bad = r.clone();
    bad.spells.push("Burning Hands".into());
    let err = create(&mut e, bad).unwrap_err().to_string();
    assert!(
        err.contains("the build breaks 1 rule(s): a wizard 3 prepares 6 spells (INT +3 + wizard level 3 = 6); 7 prepared"),
        "{err}"
    );
    let id = create(&mut e, r).unwrap().character.id;
    let w = sheet(&mut e, &id);
    assert_eq!(w.spellbook, strings(&book));
    // Preparing a book spell in place of another is fine; one outside the book is refused.
    let mut swap = w.spells.clone();
    swap.retain(|s| s != "Web");
    swap.push("Burning Hands".into());
    let out = update(
        &mut e,
        &id,
        CharacterPatch {
            spells: Some(swap.clone()),
            ..Default::default()
        },
        false,
    )
    .unwrap();
    assert_eq!(sheet(&mut e, &id).spells, swap);
    assert!(out.changes.contains(&"spells replaced".to_string()));
    let mut outside = swap.clone();
    outside.retain(|s| s != "Sleep");
    outside.push("Thunderwave".into());
    let err = update(
        &mut e,
        &id,
        CharacterPatch {
            spells: Some(outside.clone()),
            ..Default::default()
        },
        false,
    )
    .unwrap_err()
    .to_string();
    assert_eq!(
        err,
        "Aria's spells break 1 rule(s): a wizard prepares from its spellbook; not in it: Thunderwave (spellbook: Magic Missile, Shield, Sleep, Mage Armor, Burning Hands, Misty Step, Web, Detect Magic). wizard 3 spells: 3 cantrips; prepares INT +3 + wizard level 3 = 6 from the spellbook; spell levels up to 2. Fix the list, or pass force: true to keep it as the game master"
    );
    assert_eq!(sheet(&mut e, &id).spells, swap, "refused: unchanged");
    // Copying it into the book first makes it legal.
    let mut book2 = strings(&book);
    book2.push("Thunderwave".into());
    update(
        &mut e,
        &id,
        CharacterPatch {
            spells: Some(outside.clone()),
            spellbook: Some(book2),
            ..Default::default()
        },
        false,
    )
    .unwrap();
    assert_eq!(sheet(&mut e, &id).spells, outside);
    // Casting a book spell not prepared is refused, naming the list and the fix.
    let err = cast(&mut e, &id, "Sleep", false).unwrap_err().to_string();
    assert_eq!(
        err,
        "Aria does not have prepared Sleep (their spells: Fire Bolt, Light, Mage Hand, Magic Missile, Shield, Mage Armor, Misty Step, Burning Hands, Thunderwave); prepare it from the spellbook with update_character spells (after a long rest) (pass force: true to override as the game master)"
    );
    let slots_before = sheet(&mut e, &id).spell_slots.used;
    let forced = cast(&mut e, &id, "Sleep", true).unwrap();
    assert_eq!(
        forced.forced,
        vec!["Aria does not have prepared Sleep (their spells: Fire Bolt, Light, Mage Hand, Magic Missile, Shield, Mage Armor, Misty Step, Burning Hands, Thunderwave); prepare it from the spellbook with update_character spells (after a long rest)".to_string()]
    );
    let mut expect = slots_before;
    expect[0] += 1;
    assert_eq!(sheet(&mut e, &id).spell_slots.used, expect);
}

#[test]
fn a_cleric_prepares_wis_mod_plus_level_and_domain_spells_are_free() {
    let Some(srd) = common::srd("a_cleric_prepares_wis_mod_plus_level_and_domain_spells_are_free")
    else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd);
    // Cleric 1 (Life), WIS 16: 3 cantrips, prepares 3 + 1 = 4 from the whole list; Bless and
    // Cure Wounds always prepared.
    let mut r = req(
        "Bran",
        "cleric",
        1,
        &[
            "Sacred Flame",
            "Guidance",
            "Light",
            "Shield of Faith",
            "Guiding Bolt",
            "Healing Word",
            "Sanctuary",
            "Bless",
        ],
    );
    r.classes = vec![ClassRequest {
        class: "cleric".into(),
        level: 1,
        subclass: Some("life".into()),
    }];
    r.class = None;
    r.level = None;
    let ok = validate(&mut e, r.clone());
    assert_eq!(ok.problems, Vec::<String>::new());
    assert!(
        ok.derivations.contains(
            &"cleric 1 spells: 3 cantrips; prepares WIS +3 + cleric level 1 = 4 from the class list; always prepared: Bless, Cure Wounds; spell levels up to 1"
                .to_string()
        ),
        "{:?}",
        ok.derivations
    );
    let mut five = r.clone();
    five.spells.push("Command".into());
    five.spells.push("Fireball".into());
    let out = validate(&mut e, five);
    assert_eq!(
        out.problems,
        vec![
            "Fireball is not on the cleric spell list".to_string(),
            "Fireball is a level-3 spell; a cleric 1 has slots up to level 1".to_string(),
            "a cleric 1 prepares 4 spells (WIS +3 + cleric level 1 = 4); 6 prepared (Shield of Faith, Guiding Bolt, Healing Word, Sanctuary, Command, Fireball); Bless, Cure Wounds always prepared, not counted"
                .to_string(),
        ]
    );
    let id = create(&mut e, r).unwrap().character.id;
    // Cure Wounds is not in the list but always prepared: it casts.
    cast(&mut e, &id, "Cure Wounds", false).unwrap();
    assert_eq!(sheet(&mut e, &id).spell_slots.used[0], 1);
    // Command is on the cleric list but not prepared: refused, with the list and the fix.
    let err = cast(&mut e, &id, "Command", false).unwrap_err().to_string();
    assert_eq!(
        err,
        "Bran does not have prepared Command (their spells: Sacred Flame, Guidance, Light, Shield of Faith, Guiding Bolt, Healing Word, Sanctuary, Bless; always prepared: Bless, Cure Wounds); prepare it with update_character spells (after a long rest) (pass force: true to override as the game master)"
    );
    // Preparing a fifth counted spell is refused; forced, it is kept and the answer says so.
    let mut more = sheet(&mut e, &id).spells;
    more.push("Command".into());
    let err = update(
        &mut e,
        &id,
        CharacterPatch {
            spells: Some(more.clone()),
            ..Default::default()
        },
        false,
    )
    .unwrap_err()
    .to_string();
    assert!(
        err.starts_with("Bran's spells break 1 rule(s): a cleric 1 prepares 4 spells (WIS +3 + cleric level 1 = 4); 5 prepared (Shield of Faith, Guiding Bolt, Healing Word, Sanctuary, Command); Bless, Cure Wounds always prepared, not counted."),
        "{err}"
    );
    let out = update(
        &mut e,
        &id,
        CharacterPatch {
            spells: Some(more.clone()),
            ..Default::default()
        },
        true,
    )
    .unwrap();
    assert!(
        out.changes.contains(&"forced by the game master (the rules say otherwise): a cleric 1 prepares 4 spells (WIS +3 + cleric level 1 = 4); 5 prepared (Shield of Faith, Guiding Bolt, Healing Word, Sanctuary, Command); Bless, Cure Wounds always prepared, not counted".to_string()),
        "{:?}",
        out.changes
    );
    assert_eq!(sheet(&mut e, &id).spells, more);
    cast(&mut e, &id, "Command", false).unwrap();
}

#[test]
fn known_casters_keep_the_tables_count_and_cantrips() {
    let Some(srd) = common::srd("known_casters_keep_the_tables_count_and_cantrips") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd);
    // Bard 1: 2 cantrips, 4 spells known.
    let bard = validate(
        &mut e,
        req(
            "Lute",
            "bard",
            1,
            &[
                "Vicious Mockery",
                "Minor Illusion",
                "Mage Hand",
                "Healing Word",
                "Charm Person",
                "Sleep",
                "Thunderwave",
                "Disguise Self",
            ],
        ),
    );
    assert_eq!(
        bard.problems,
        vec![
            "a bard 1 knows 2 cantrips; 3 given (Vicious Mockery, Minor Illusion, Mage Hand)"
                .to_string(),
            "a bard 1 knows 4 spells of 1st level and higher; 5 given (Healing Word, Charm Person, Sleep, Thunderwave, Disguise Self)"
                .to_string(),
        ]
    );
    // Sorcerer 5 (CHA 16): 4 cantrips, 6 known, up to 3rd level; Cure Wounds is off its list.
    let sorc = validate(
        &mut e,
        req(
            "Vex",
            "sorcerer",
            5,
            &["Fire Bolt", "Fireball", "Cure Wounds", "Not A Spell"],
        ),
    );
    assert_eq!(
        sorc.problems,
        vec![
            "Cure Wounds is not on the sorcerer spell list".to_string(),
            "'Not A Spell' is not an SRD spell; give an SRD spell name (search_compendium type spells class sorcerer)"
                .to_string(),
        ]
    );
    // Ranger 1 has no spells yet.
    let ranger = validate(&mut e, req("Oak", "ranger", 1, &["Hunter's Mark"]));
    assert_eq!(
        ranger.problems,
        vec![
            "Hunter's Mark is a level-1 spell; a ranger 1 has slots up to level 0".to_string(),
            "a ranger 1 knows 0 spells of 1st level and higher; 1 given (Hunter's Mark)"
                .to_string(),
        ]
    );
    // Paladin 2 (CHA 16): prepares 3 + half of 2 = 4, no cantrips.
    let pal = validate(
        &mut e,
        req(
            "Sir Dane",
            "paladin",
            2,
            &[
                "Bless",
                "Command",
                "Heroism",
                "Shield of Faith",
                "Cure Wounds",
            ],
        ),
    );
    assert_eq!(
        pal.problems,
        vec!["a paladin 2 prepares 4 spells (CHA +3 + 1 (a paladin prepares with half its level 2) = 4); 5 prepared (Bless, Command, Heroism, Shield of Faith, Cure Wounds)".to_string()]
    );
    // A legal bard is created; a known caster casts only what it knows.
    let id = create(
        &mut e,
        req(
            "Lute",
            "bard",
            1,
            &["Vicious Mockery", "Healing Word", "Charm Person"],
        ),
    )
    .unwrap()
    .character
    .id;
    let err = cast(&mut e, &id, "Sleep", false).unwrap_err().to_string();
    assert_eq!(
        err,
        "Lute does not know Sleep (their spells: Vicious Mockery, Healing Word, Charm Person); learn it with update_character spells (on a level up) (pass force: true to override as the game master)"
    );
}
