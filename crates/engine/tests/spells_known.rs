//! Spells known and prepared (issue 16), through the real use cases against the SRD: the class
//! level tables say how many cantrips and spells a class keeps, prepared casters prepare ability
//! modifier + level (a wizard from its spellbook), domain spells are always prepared and not
//! counted, `validateOnly` reports what breaks the rules, `update_character` refuses illegal
//! lists unless forced, and casting a spell not prepared or known is refused (or forced, said so).

use super::common;

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

fn scores(v: [i64; 6]) -> std::collections::BTreeMap<Ability, i64> {
    Ability::ALL.iter().copied().zip(v).collect()
}

fn multi(
    name: &str,
    classes: &[(&str, u32, Option<&str>)],
    s: [i64; 6],
    spells: &[&str],
) -> CreateRequest {
    let mut r = req(name, "wizard", 1, spells);
    r.class = None;
    r.level = None;
    r.scores = Some(scores(s));
    r.classes = classes
        .iter()
        .map(|(c, l, sub)| ClassRequest {
            class: c.to_string(),
            level: *l,
            subclass: sub.map(|s| s.to_string()),
        })
        .collect();
    r
}

fn cast_on(
    e: &mut E,
    actor: &str,
    target: &str,
    spell: &str,
) -> tabletop_engine::combat::actions::ActionOutcome {
    let req = ActionRequest {
        actor: Who {
            id: Some(actor.into()),
            name: None,
        },
        target: Who {
            id: Some(target.into()),
            name: None,
        },
        action_type: Some(ActionType::CastSpell),
        spell: Some(spell.into()),
        ..Default::default()
    };
    e.write("execute_action", &serde_json::json!({}), |call| {
        execute(call, &req)
    })
    .unwrap()
}

#[test]
fn a_cleric_wizard_counts_each_class_and_casts_with_its_ability() {
    let Some(srd) = common::srd("a_cleric_wizard_counts_each_class_and_casts_with_its_ability")
    else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd);
    // Cleric 3 (Life) / wizard 2, WIS 16 (+3), INT 14 (+2): the cleric prepares 3 + 3 = 6 from
    // its list (spell levels up to 2), the wizard 2 + 2 = 4 from its book (level 1 only); each
    // keeps 3 cantrips.
    let spells = [
        "Sacred Flame",
        "Guidance",
        "Thaumaturgy",
        "Fire Bolt",
        "Mage Hand",
        "Ray of Frost",
        "Shield of Faith",
        "Guiding Bolt",
        "Healing Word",
        "Sanctuary",
        "Hold Person",
        "Detect Magic",
        "Magic Missile",
        "Shield",
        "Sleep",
        "Mage Armor",
    ];
    let mut r = multi(
        "Ilse",
        &[("cleric", 3, Some("life")), ("wizard", 2, None)],
        [10, 14, 14, 14, 16, 10],
        &spells,
    );
    r.spellbook = strings(&[
        "Magic Missile",
        "Shield",
        "Sleep",
        "Mage Armor",
        "Burning Hands",
        "Detect Magic",
    ]);
    let ok = validate(&mut e, r.clone());
    assert_eq!(ok.problems, Vec::<String>::new());
    for line in [
        "Hold Person counted as a cleric spell (it is on several of their class lists; spellClasses changes it)",
        "Detect Magic counted as a cleric spell (it is on several of their class lists; spellClasses changes it)",
        "cleric 3 spells: 3 cantrips; prepares WIS +3 + cleric level 3 = 6 from the class list; always prepared: Bless, Cure Wounds, Lesser Restoration, Spiritual Weapon; spell levels up to 2. wizard 2 spells: 3 cantrips; prepares INT +2 + wizard level 2 = 4 from the spellbook; spell levels up to 1",
    ] {
        assert!(
            ok.derivations.contains(&line.to_string()),
            "{line}: {:?}",
            ok.derivations
        );
    }
    // Too many for each class, a wizard spell above its own level, an off-list spell.
    let mut bad = r.clone();
    bad.spells.extend(strings(&[
        "Bane",
        "Web",
        "Burning Hands",
        "Fire Bolt",
        "Eldritch Blast",
    ]));
    let out = validate(&mut e, bad);
    assert_eq!(
        out.problems,
        strings(&[
            "Eldritch Blast is not on the cleric or wizard spell list",
            "a cleric 3 prepares 6 spells (WIS +3 + cleric level 3 = 6); 7 prepared (Shield of Faith, Guiding Bolt, Healing Word, Sanctuary, Hold Person, Detect Magic, Bane); Bless, Cure Wounds, Lesser Restoration, Spiritual Weapon always prepared, not counted",
            "Web is a level-2 spell; a wizard 2 has slots up to level 1",
            "a wizard 2 knows 3 cantrips; 4 given (Fire Bolt, Mage Hand, Ray of Frost, Fire Bolt)",
            "a wizard 2 prepares 4 spells (INT +2 + wizard level 2 = 4); 6 prepared (Magic Missile, Shield, Sleep, Mage Armor, Web, Burning Hands)",
            "a wizard prepares from its spellbook; not in it: Web (spellbook: Magic Missile, Shield, Sleep, Mage Armor, Burning Hands, Detect Magic)",
        ])
    );
    let created = create(&mut e, r).unwrap();
    let id = created.character.id;
    let c = sheet(&mut e, &id);
    // Each spell is stored with the class it was learned with.
    let cleric = [
        "Detect Magic",
        "Guidance",
        "Guiding Bolt",
        "Healing Word",
        "Hold Person",
        "Sacred Flame",
        "Sanctuary",
        "Shield of Faith",
        "Thaumaturgy",
    ];
    let wizard = [
        "Fire Bolt",
        "Mage Armor",
        "Mage Hand",
        "Magic Missile",
        "Ray of Frost",
        "Shield",
        "Sleep",
    ];
    let expect: std::collections::BTreeMap<String, String> = cleric
        .iter()
        .map(|s| (s.to_string(), "cleric".to_string()))
        .chain(wizard.iter().map(|s| (s.to_string(), "wizard".to_string())))
        .collect();
    assert_eq!(c.spell_classes, expect);
    // Detect Magic is moved to the wizard, whose four are already prepared: refused.
    let err = update(
        &mut e,
        &id,
        CharacterPatch {
            spell_classes: Some([("Detect Magic".to_string(), "wizard".to_string())].into()),
            ..Default::default()
        },
        false,
    )
    .unwrap_err()
    .to_string();
    assert!(
        err.starts_with("Ilse's spells break 1 rule(s): a wizard 2 prepares 4 spells (INT +2 + wizard level 2 = 4); 5 prepared (Detect Magic, Magic Missile, Shield, Sleep, Mage Armor). "),
        "{err}"
    );
    assert_eq!(
        sheet(&mut e, &id).spell_classes,
        expect,
        "refused: unchanged"
    );
    let foe = create(&mut e, req("Dummy", "fighter", 1, &[]))
        .unwrap()
        .character
        .id;
    let flame = cast_on(&mut e, &id, &foe, "Sacred Flame");
    // The cleric cantrip uses WIS: DC 8 + 3 + 3; the wizard cantrip INT: +3 + 2.
    assert_eq!(flame.details["saveDc"], 14);
    assert_eq!(
        flame.lines[1],
        "Dummy — Dexterity save vs Sacred Flame: d20 [5] + 2 = 7 vs DC 14 — fail"
    );
    let bolt = cast_on(&mut e, &id, &foe, "Fire Bolt");
    assert_eq!(
        bolt.lines[0],
        "Ilse — Fire Bolt spell attack vs Dummy: d20 [7] + 5 = 12 vs AC 12 — hit"
    );
}

#[test]
fn a_warlock_wizard_keeps_pact_slots_apart_and_casts_each_with_its_ability() {
    let Some(srd) =
        common::srd("a_warlock_wizard_keeps_pact_slots_apart_and_casts_each_with_its_ability")
    else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd);
    // Warlock 2 (CHA 14, +2) / wizard 3 (INT 16, +3): Mage Hand is on both lists and is named
    // a warlock cantrip.
    let mut r = multi(
        "Quill",
        &[("warlock", 2, None), ("wizard", 3, None)],
        [10, 14, 14, 16, 10, 14],
        &[
            "Eldritch Blast",
            "Mage Hand",
            "Fire Bolt",
            "Light",
            "Ray of Frost",
            "Hellish Rebuke",
            "Charm Person",
            "Unseen Servant",
            "Magic Missile",
            "Shield",
            "Sleep",
        ],
    );
    r.spell_classes = [
        ("Mage Hand".to_string(), "warlock".to_string()),
        ("Charm Person".to_string(), "warlock".to_string()),
        ("Unseen Servant".to_string(), "Warlock".to_string()),
    ]
    .into();
    r.spellbook = strings(&["Magic Missile", "Shield", "Sleep"]);
    let out = create(&mut e, r.clone()).unwrap();
    assert!(
        out.derivations.contains(&"warlock 2 spells: 2 cantrips; 3 spells known; spell levels up to 1. wizard 3 spells: 3 cantrips; prepares INT +3 + wizard level 3 = 6 from the spellbook; spell levels up to 2".to_string()),
        "{:?}",
        out.derivations
    );
    let id = out.character.id;
    let c = sheet(&mut e, &id);
    // The combined table counts the wizard only (caster level 3); the warlock's Pact Magic
    // slots stay apart.
    assert_eq!(c.spell_slots.max, [4, 2, 0, 0, 0, 0, 0, 0, 0]);
    let pact = c.spell_slots.pact.unwrap();
    assert_eq!((pact.level, pact.max, pact.used), (1, 2, 0));
    let warlock = [
        "Charm Person",
        "Eldritch Blast",
        "Hellish Rebuke",
        "Mage Hand",
        "Unseen Servant",
    ];
    assert_eq!(
        c.spell_classes
            .iter()
            .filter(|(_, k)| k.as_str() == "warlock")
            .map(|(s, _)| s.as_str())
            .collect::<Vec<_>>(),
        warlock
    );
    assert_eq!(c.spell_classes.len(), 11);
    // A fourth warlock spell is over the warlock's count even with wizard room left.
    let mut more = r.clone();
    more.name = "Quill2".into();
    more.spells.push("Expeditious Retreat".into());
    more.spell_classes
        .insert("Expeditious Retreat".into(), "warlock".into());
    assert_eq!(
        validate(&mut e, more).problems,
        strings(&[
            "a warlock 2 knows 3 spells of 1st level and higher; 4 given (Hellish Rebuke, Charm Person, Unseen Servant, Expeditious Retreat)"
        ])
    );
    let foe = create(&mut e, req("Dummy", "fighter", 1, &[]))
        .unwrap()
        .character
        .id;
    let eb = cast_on(&mut e, &id, &foe, "Eldritch Blast");
    // Eldritch Blast with CHA (+3 proficiency + 2), Fire Bolt with INT (+3 + 3).
    assert_eq!(
        eb.lines[0],
        "Quill — Eldritch Blast spell attack vs Dummy: d20 [18] + 5 = 23 vs AC 12 — hit"
    );
    let fb = cast_on(&mut e, &id, &foe, "Fire Bolt");
    assert_eq!(
        fb.lines[0],
        "Quill — Fire Bolt spell attack vs Dummy: d20 [7] + 6 = 13 vs AC 12 — hit"
    );
}

#[test]
fn a_caster_with_no_list_chooses_or_prepares_first() {
    let Some(srd) = common::srd("a_caster_with_no_list_chooses_or_prepares_first") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd);
    let bard = create(&mut e, req("Lute", "bard", 1, &[]))
        .unwrap()
        .character
        .id;
    assert_eq!(
        cast(&mut e, &bard, "Healing Word", false)
            .unwrap_err()
            .to_string(),
        "Lute knows no spells yet: choose them first (a bard 1 picks 2 cantrips and 4 spells of 1st level and higher from the bard spell list (search_compendium type spells class bard)); set them with update_character spells (pass force: true to override as the game master)"
    );
    let mut r = req("Bran", "cleric", 1, &[]);
    r.classes = vec![ClassRequest {
        class: "cleric".into(),
        level: 1,
        subclass: Some("life".into()),
    }];
    r.class = None;
    r.level = None;
    let cleric = create(&mut e, r).unwrap().character.id;
    let why = "Bran has no spells prepared: prepare spells first (a cleric 1 picks 3 cantrips from the cleric spell list (search_compendium type spells class cleric) and prepares 4 spells (WIS +3 + cleric level 1 = 4) from that list); set them with update_character spells";
    assert_eq!(
        cast(&mut e, &cleric, "Command", false)
            .unwrap_err()
            .to_string(),
        format!("{why} (pass force: true to override as the game master)")
    );
    assert_eq!(
        sheet(&mut e, &cleric).spell_slots.used[0],
        0,
        "refused: no slot"
    );
    // A domain spell is always prepared: it casts.
    cast(&mut e, &cleric, "Cure Wounds", false).unwrap();
    let forced = cast(&mut e, &cleric, "Command", true).unwrap();
    assert_eq!(forced.forced, vec![why.to_string()]);
    assert_eq!(
        sheet(&mut e, &cleric).spell_slots.used,
        [2, 0, 0, 0, 0, 0, 0, 0, 0]
    );
    let wiz = create(&mut e, req("Aria", "wizard", 1, &[]))
        .unwrap()
        .character
        .id;
    assert_eq!(
        cast(&mut e, &wiz, "Fire Bolt", false)
            .unwrap_err()
            .to_string(),
        "Aria has no spells prepared: prepare spells first (a wizard 1 picks 3 cantrips from the wizard spell list (search_compendium type spells class wizard) and prepares 4 spells (INT +3 + wizard level 1 = 4) from its spellbook (update_character spellbook)); set them with update_character spells (pass force: true to override as the game master)"
    );
    let m = create(
        &mut e,
        multi(
            "Mix",
            &[("sorcerer", 1, None), ("paladin", 2, None)],
            [14, 10, 14, 10, 10, 16],
            &[],
        ),
    )
    .unwrap()
    .character
    .id;
    assert_eq!(
        cast(&mut e, &m, "Bless", false).unwrap_err().to_string(),
        "Mix has no spells prepared: prepare spells first (a sorcerer 1 picks 4 cantrips and 2 spells of 1st level and higher from the sorcerer spell list (search_compendium type spells class sorcerer); a paladin 2 prepares 4 spells (CHA +3 + 1 (a paladin prepares with half its level 2) = 4) from the paladin spell list (search_compendium type spells class paladin)); set them with update_character spells (pass force: true to override as the game master)"
    );
}
