//! Class features the engine applies through the real tools (skipped without TABLETOP_SRD_DIR),
//! pinned seeds: Evasion (rogue 7) against a Fireball from a Wand of Fireballs — a saved DEX save
//! takes nothing and a failed one half, where a fighter beside it takes half and all.

use super::common;

use std::sync::Arc;

use tabletop_engine::character::{Character, CharacterRef};
use tabletop_engine::combat::actions::Who;
use tabletop_engine::compendium::CompendiumSource;
use tabletop_engine::creation::{AbilityMethod, CreateMode, CreateRequest, create_character};
use tabletop_engine::inventory::attune::attune;
use tabletop_engine::inventory::ops::{self, GiveRequest, ItemRef};
use tabletop_engine::magic::item_cast::{ItemSpellRequest, cast_from_item};
use tabletop_engine::magic::scroll::Targeting;
use tabletop_engine::{Engine, EngineOptions, SqliteStore};
use tabletop_rules::Ability;
use tabletop_srd::Compendium;

type E = Engine<SqliteStore>;

fn engine(dir: &tempfile::TempDir, srd: &Arc<Compendium>, seed: u64) -> E {
    Engine::open(
        SqliteStore::open(&dir.path().join("f.sqlite")).unwrap(),
        "c",
        EngineOptions {
            seed: Some(seed),
            compendium: CompendiumSource::ready(srd.clone()),
        },
    )
    .unwrap()
}

fn make(e: &mut E, name: &str, class: &str, level: u32) {
    let req = CreateRequest {
        name: name.into(),
        class: Some(class.into()),
        level: Some(level),
        method: AbilityMethod::Manual,
        // STR DEX CON INT WIS CHA.
        scores: Some(
            Ability::ALL
                .iter()
                .copied()
                .zip([10, 16, 14, 12, 10, 10])
                .collect(),
        ),
        mode: CreateMode::Create,
        ..Default::default()
    };
    e.write("create_character", &serde_json::json!({}), |call| {
        create_character(call, req)
    })
    .unwrap();
}

fn character(e: &mut E, name: &str) -> Character {
    e.read(|call| tabletop_engine::characters::resolve(call, CharacterRef::new(None, Some(name))))
        .unwrap()
}

fn who(n: &str) -> Who {
    Who {
        id: None,
        name: Some(n.into()),
    }
}

/// Fireball (DC 15) from a wand on Vex (rogue 7, Evasion) and Brom (fighter 7): the damage
/// each took, whether each saved, and the shared roll.
fn fireball(seed: u64) -> ((bool, u32), (bool, u32), i64) {
    let srd = common::srd("evasion").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, seed);
    make(&mut e, "Aria", "wizard", 5);
    make(&mut e, "Vex", "rogue", 7);
    make(&mut e, "Brom", "fighter", 7);
    e.write("manage_inventory", &serde_json::json!({}), |call| {
        ops::give(
            call,
            CharacterRef::new(None, Some("Aria")),
            GiveRequest {
                srd_name: Some("Wand of Fireballs".into()),
                ..Default::default()
            },
        )?;
        attune(
            call,
            CharacterRef::new(None, Some("Aria")),
            ItemRef {
                id: None,
                name: Some("Wand of Fireballs"),
            },
        )
    })
    .unwrap();
    let hp = (character(&mut e, "Vex").hp, character(&mut e, "Brom").hp);
    let out = e
        .write("manage_inventory", &serde_json::json!({}), |call| {
            cast_from_item(
                call,
                ItemSpellRequest {
                    caster: who("Aria"),
                    item_name: Some("Wand of Fireballs".into()),
                    targeting: Targeting {
                        targets: vec![who("Vex"), who("Brom")],
                        ..Default::default()
                    },
                    ..Default::default()
                },
            )
        })
        .unwrap();
    let t = out.details["targets"].as_array().unwrap().clone();
    let saved = |i: usize| t[i]["saved"].as_bool().unwrap();
    let rolled: i64 = out
        .lines
        .iter()
        .find(|l| l.starts_with("Fireball damage: 8d6"))
        .and_then(|l| l.rsplit("= ").next())
        .and_then(|x| x.split_whitespace().next())
        .and_then(|x| x.parse().ok())
        .unwrap_or_else(|| panic!("{:#?}", out.lines));
    (
        (saved(0), hp.0 - character(&mut e, "Vex").hp),
        (saved(1), hp.1 - character(&mut e, "Brom").hp),
        rolled,
    )
}

#[test]
fn evasion_takes_nothing_on_a_save_and_half_on_a_failure() {
    if common::srd("evasion").is_none() {
        return;
    }
    // Seed 3: 29 fire; Vex saves and takes nothing, Brom fails and takes 29.
    assert_eq!(fireball(3), ((true, 0), (false, 29), 29));
    // Seed 7: 33 fire; Vex fails and takes half (16), Brom saves and takes half (16).
    assert_eq!(fireball(7), ((false, 16), (true, 16), 33));
}

// ---- Choices features make at a level (issue 17): subclass, placeholders, options. ----

use tabletop_engine::creation::{ClassRequest, CreateOutcome};
use tabletop_engine::error::EngineError;
use tabletop_engine::levelling::{LevelChoices, LevelHpMethod, level_up_with};

/// Creates `name`, a `class` `level` with `subclass` and feature `options` (scores STR 10,
/// DEX 16, CON 14, INT 12, WIS 10, CHA 16).
fn build(
    e: &mut E,
    name: &str,
    class: &str,
    level: u32,
    subclass: Option<&str>,
    options: &[&str],
) -> Result<CreateOutcome, EngineError> {
    let req = CreateRequest {
        name: name.into(),
        method: AbilityMethod::Manual,
        scores: Some(
            Ability::ALL
                .iter()
                .copied()
                .zip([10, 16, 14, 12, 10, 16])
                .collect(),
        ),
        classes: vec![ClassRequest {
            class: class.into(),
            level,
            subclass: subclass.map(str::to_string),
        }],
        options: options.iter().map(|s| s.to_string()).collect(),
        mode: CreateMode::Create,
        ..Default::default()
    };
    e.write("create_character", &serde_json::json!({}), |call| {
        create_character(call, req)
    })
}

fn derived(e: &mut E, name: &str) -> tabletop_engine::derive::Derived {
    std::sync::Arc::unwrap_or_clone(character(e, name).derived.unwrap())
}

#[test]
fn a_subclass_is_asked_for_at_its_level_and_its_features_come_with_it() {
    let Some(srd) = common::srd("subclass") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 7);
    // A cleric 1 without a domain is told to pick one; with Life it has the domain's features.
    build(&mut e, "Ansel", "cleric", 1, None, &[]).unwrap();
    let d = derived(&mut e, "Ansel");
    assert!(
        d.choices.contains(
            &"Cleric 1: Divine Domain from level 1: choose the subclass (subclass): Life".into()
        ),
        "{:?}",
        d.choices
    );
    assert!(!d.features.contains(&"Disciple of Life".to_string()));
    assert!(!d.proficiencies.iter().any(|p| p.value == "Heavy Armor"));
    build(&mut e, "Bess", "cleric", 1, Some("Life"), &[]).unwrap();
    let d = derived(&mut e, "Bess");
    assert!(
        !d.choices.iter().any(|l| l.contains("(subclass)")),
        "{:?}",
        d.choices
    );
    assert!(d.features.contains(&"Disciple of Life".to_string()));
    let heavy = d
        .proficiencies
        .iter()
        .find(|p| p.value == "Heavy Armor")
        .unwrap();
    assert_eq!(heavy.source, "Bonus Proficiency (cleric 1)");
    // Domain spells: always prepared from cleric 1 (Bless, Cure Wounds).
    let c = character(&mut e, "Bess");
    let rules = tabletop_engine::magic::known::rules(&srd, &c).unwrap();
    assert_eq!(rules.always_prepared, ["Bless", "Cure Wounds"]);
    // A fighter 2 levels to 3 as a Champion: the placeholder's level brings Improved Critical.
    build(&mut e, "Cato", "fighter", 2, None, &[]).unwrap();
    let d = derived(&mut e, "Cato");
    assert!(
        !d.choices.iter().any(|l| l.contains("(subclass)")),
        "{:?}",
        d.choices
    );
    let refused = e
        .write("level_up", &serde_json::json!({}), |call| {
            level_up_with(
                call,
                CharacterRef::new(None, Some("Cato")),
                None,
                None,
                LevelHpMethod::Rules(tabletop_rules::hp::HpMethod::Average),
                LevelChoices {
                    subclass: Some("Life".into()),
                    ..Default::default()
                },
            )
        })
        .unwrap_err();
    assert_eq!(
        refused.to_string(),
        "subclass: 'Life' is not a Fighter subclass in the SRD (subclass); choose: Champion"
    );
    let out = e
        .write("level_up", &serde_json::json!({}), |call| {
            level_up_with(
                call,
                CharacterRef::new(None, Some("Cato")),
                None,
                None,
                LevelHpMethod::Rules(tabletop_rules::hp::HpMethod::Average),
                LevelChoices {
                    subclass: Some("Champion".into()),
                    ..Default::default()
                },
            )
        })
        .unwrap();
    assert_eq!(
        out.features_gained,
        ["Martial Archetype", "Improved Critical"]
    );
    // Its fighting style (fighter 1) is still open; the subclass is not.
    assert!(
        out.changes.iter().any(|l| l
            == "open choice: Fighter 3: Fighting Style: choose a fighting style (fightingStyle): archery, defense, dueling, great-weapon-fighting, protection, two-weapon-fighting"),
        "{:?}",
        out.changes
    );
    assert!(
        !out.changes.iter().any(|l| l.contains("(subclass)")),
        "{:?}",
        out.changes
    );
    // Without a subclass, the levels that bring one say so.
    build(&mut e, "Dara", "fighter", 2, None, &[]).unwrap();
    let out = e
        .write("level_up", &serde_json::json!({}), |call| {
            level_up_with(
                call,
                CharacterRef::new(None, Some("Dara")),
                None,
                Some(7),
                LevelHpMethod::Rules(tabletop_rules::hp::HpMethod::Average),
                LevelChoices::default(),
            )
        })
        .unwrap();
    let open: Vec<&String> = out
        .changes
        .iter()
        .filter(|l| l.starts_with("open choice") && l.contains("(subclass)"))
        .collect();
    assert_eq!(
        open,
        [
            "open choice: Fighter 7: Martial Archetype from level 3: choose the subclass (subclass): Champion",
            "open choice: Martial Archetype feature (Fighter 7): the subclass's features of this level need a subclass (subclass): Champion"
        ]
    );
    // A fighter 7 Champion has Remarkable Athlete from the level-7 placeholder.
    build(&mut e, "Edda", "fighter", 7, Some("Champion"), &[]).unwrap();
    let d = derived(&mut e, "Edda");
    assert!(d.features.contains(&"Remarkable Athlete".to_string()));
    assert!(
        d.modifiers
            .iter()
            .any(|m| m.source == "Martial Archetype feature (fighter 7)"
                && format!("{:?}", m.kind).contains("Champion: Remarkable Athlete"))
    );
}

#[test]
fn paladin_spellcasting_starts_with_its_feature() {
    let Some(srd) = common::srd("spellcasting_feature") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 7);
    build(&mut e, "Pell", "paladin", 1, None, &[]).unwrap();
    build(&mut e, "Quin", "paladin", 2, None, &[]).unwrap();
    assert_eq!(derived(&mut e, "Pell").spellcasting_ability, None);
    assert_eq!(
        derived(&mut e, "Quin").spellcasting_ability,
        Some(Ability::Charisma)
    );
}

#[test]
fn hunter_options_are_chosen_checked_and_applied() {
    let Some(srd) = common::srd("hunter_options") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 7);
    // Steel Will: advantage on saves against being frightened, through the save rules.
    build(
        &mut e,
        "Rook",
        "ranger",
        7,
        Some("Hunter"),
        &[
            "hunters-prey-colossus-slayer",
            "defensive-tactics-steel-will",
        ],
    )
    .unwrap();
    let c = character(&mut e, "Rook");
    let d = c.derived.clone().unwrap();
    assert!(d.features.contains(&"Colossus Slayer".to_string()));
    assert!(d.features.contains(&"Steel Will".to_string()));
    assert!(
        !d.choices.iter().any(|l| l.contains("(options)")),
        "{:?}",
        d.choices
    );
    assert_eq!(
        tabletop_engine::derive::gear::save_advantages(
            &c,
            Ability::Wisdom,
            Some(tabletop_rules::Condition::Frightened),
            None,
            true
        ),
        ["Defensive Tactics: Steel Will (ranger 7): frightened"]
    );
    // Open: a ranger 7 Hunter who chose nothing is told what is left.
    build(&mut e, "Sable", "ranger", 3, Some("Hunter"), &[]).unwrap();
    assert!(derived(&mut e, "Sable").choices.contains(
        &"Ranger 3: Hunter's Prey: 1 more option(s) to choose (options): hunters-prey-colossus-slayer, hunters-prey-giant-killer, hunters-prey-horde-breaker".into()
    ));
    // Two Hunter's Prey options, an unknown one, one from a level not reached: refused.
    let err = build(
        &mut e,
        "Tam",
        "ranger",
        3,
        Some("Hunter"),
        &[
            "hunters-prey-colossus-slayer",
            "hunters-prey-horde-breaker",
            "defensive-tactics-steel-will",
        ],
    )
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("Hunter's Prey gives 1 option(s) at this level (options); more are given"),
        "{err}"
    );
    assert!(
        err.contains("option 'defensive-tactics-steel-will' is not offered by this build's features at their levels (options)"),
        "{err}"
    );
}

#[test]
fn eldritch_invocations_are_counted_by_the_warlock_table_and_applied() {
    let Some(srd) = common::srd("invocations") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 7);
    // Warlock 5: three invocations.
    build(
        &mut e,
        "Vell",
        "warlock",
        5,
        Some("Fiend"),
        &[
            "eldritch-invocation-armor-of-shadows",
            "eldritch-invocation-devils-sight",
            "eldritch-invocation-beguiling-influence",
            "pact-of-the-tome",
        ],
    )
    .unwrap();
    let c = character(&mut e, "Vell");
    let d = c.derived.clone().unwrap();
    assert!(
        !d.choices.iter().any(|l| l.contains("(options)")),
        "{:?}",
        d.choices
    );
    // Armor of Shadows: 13 + DEX 3 unarmored.
    assert_eq!(c.effective().armor_class.value, 16);
    assert_eq!(
        d.skills[&tabletop_rules::Skill::Persuasion].source,
        "Eldritch Invocations: Beguiling Influence (warlock 5)"
    );
    assert_eq!(
        tabletop_engine::model::senses::senses_of(&c).darkvision_ft,
        120
    );
    // Thirsting Blade needs the Pact of the Blade; a fourth invocation is one too many at 5.
    let err = build(
        &mut e,
        "Wren",
        "warlock",
        5,
        Some("Fiend"),
        &[
            "eldritch-invocation-thirsting-blade",
            "eldritch-invocation-armor-of-shadows",
            "eldritch-invocation-devils-sight",
            "eldritch-invocation-beast-speech",
            "pact-of-the-tome",
        ],
    )
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("Eldritch Invocations: eldritch-invocation-thirsting-blade needs the option pact-of-the-blade (options)"),
        "{err}"
    );
    assert!(
        err.contains(
            "Eldritch Invocations gives 3 option(s) at this level (options); more are given"
        ),
        "{err}"
    );
    // With the blade pact it is a second attack.
    build(
        &mut e,
        "Xan",
        "warlock",
        5,
        Some("Fiend"),
        &["eldritch-invocation-thirsting-blade", "pact-of-the-blade"],
    )
    .unwrap();
    let d = derived(&mut e, "Xan");
    assert_eq!(d.attacks_per_action, 2);
    assert!(d.choices.contains(
        &"Warlock 5: Eldritch Invocations: 2 more option(s) to choose (options): eldritch-invocation-agonizing-blast, eldritch-invocation-armor-of-shadows, eldritch-invocation-beast-speech, eldritch-invocation-beguiling-influence, eldritch-invocation-devils-sight, eldritch-invocation-eldritch-sight, eldritch-invocation-eldritch-spear, eldritch-invocation-eyes-of-the-rune-keeper, eldritch-invocation-fiendish-vigor, eldritch-invocation-gaze-of-two-minds, eldritch-invocation-mask-of-many-faces, eldritch-invocation-mire-the-mind, eldritch-invocation-misty-visions, eldritch-invocation-one-with-shadows, eldritch-invocation-repelling-blast, eldritch-invocation-sign-of-ill-omen, eldritch-invocation-thief-of-five-fates".into()
    ), "{:?}", d.choices);
}

#[test]
fn a_land_druid_prepares_its_lands_circle_spells_only() {
    let Some(srd) = common::srd("land") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 7);
    build(
        &mut e,
        "Yew",
        "druid",
        3,
        Some("Land"),
        &["circle-of-the-land-forest"],
    )
    .unwrap();
    let c = character(&mut e, "Yew");
    let rules = tabletop_engine::magic::known::rules(&srd, &c).unwrap();
    assert_eq!(rules.always_prepared, ["Barkskin", "Spider Climb"]);
    assert!(
        c.derived
            .unwrap()
            .features
            .contains(&"Circle of the Land: Forest".to_string())
    );
    build(&mut e, "Zed", "druid", 3, Some("Land"), &[]).unwrap();
    let c = character(&mut e, "Zed");
    assert!(
        tabletop_engine::magic::known::rules(&srd, &c)
            .unwrap()
            .always_prepared
            .is_empty()
    );
    assert!(c.derived.unwrap().choices.iter().any(|l| l.starts_with(
        "Druid 3: Circle of the Land: 1 more option(s) to choose (options): circle-of-the-land-arctic"
    )));
}

#[test]
fn magical_secrets_allow_spells_of_other_lists_and_natures_ward_is_an_immunity() {
    let Some(srd) = common::srd("magical_secrets") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 7);
    build(&mut e, "Lyra", "bard", 10, Some("Lore"), &[]).unwrap();
    build(&mut e, "Mott", "bard", 9, Some("Lore"), &[]).unwrap();
    let mut lyra = character(&mut e, "Lyra");
    // Lore 6 (Additional Magical Secrets) and bard 10 (Magical Secrets): four off-list spells.
    lyra.spells = ["Fireball", "Counterspell", "Haste", "Fly"]
        .map(String::from)
        .to_vec();
    assert_eq!(
        tabletop_engine::magic::known::problems(&srd, &lyra),
        Vec::<String>::new()
    );
    lyra.spells.push("Lightning Bolt".into());
    assert_eq!(
        tabletop_engine::magic::known::problems(&srd, &lyra),
        [
            "Lightning Bolt is not on the bard spell list (Magical Secrets allows 4 from other lists, all taken)"
        ]
    );
    let mut mott = character(&mut e, "Mott");
    mott.spells = ["Fireball", "Counterspell", "Haste"]
        .map(String::from)
        .to_vec();
    assert_eq!(
        tabletop_engine::magic::known::problems(&srd, &mott),
        [
            "Haste is not on the bard spell list (Magical Secrets allows 2 from other lists, all taken)"
        ]
    );
    // A land druid 10: Nature's Ward makes it immune to poison damage and the poisoned condition.
    build(
        &mut e,
        "Oak",
        "druid",
        10,
        Some("Land"),
        &["circle-of-the-land-swamp"],
    )
    .unwrap();
    let oak = character(&mut e, "Oak");
    assert!(oak.immunities.contains(&tabletop_rules::DamageType::Poison));
    assert!(
        oak.condition_immunities
            .contains(&tabletop_rules::Condition::Poisoned)
    );
}

fn check(e: &mut E, who: &str, test: tabletop_rules::d20::D20Test, passive: bool) -> String {
    let req = tabletop_engine::checks::CheckRequest {
        passive,
        dc: Some(10),
        ..tabletop_engine::checks::CheckRequest::of(test)
    };
    e.write("roll_check", &serde_json::json!({}), |call| {
        tabletop_engine::checks::roll_check(call, CharacterRef::new(None, Some(who)), &req)
    })
    .unwrap()
    .summary()
}

/// Jack of All Trades (bard 2) adds half the proficiency bonus to every check it is not
/// proficient in, initiative included; Remarkable Athlete (champion 7) only to STR, DEX and
/// CON checks; a proficient skill keeps its full bonus.
#[test]
fn jack_of_all_trades_and_remarkable_athlete_add_half_proficiency() {
    use tabletop_rules::Skill;
    use tabletop_rules::d20::D20Test;
    let Some(srd) = common::srd("half_proficiency") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 5);
    make(&mut e, "Lark", "bard", 2);
    let req = CreateRequest {
        name: "Brom".into(),
        classes: vec![tabletop_engine::creation::ClassRequest {
            class: "fighter".into(),
            level: 7,
            subclass: Some("Champion".into()),
        }],
        method: AbilityMethod::Manual,
        scores: Some(
            Ability::ALL
                .iter()
                .copied()
                .zip([10, 16, 14, 12, 10, 10])
                .collect(),
        ),
        skills: vec![Skill::Athletics, Skill::Perception],
        ..Default::default()
    };
    e.write("create_character", &serde_json::json!({}), |call| {
        create_character(call, req)
    })
    .unwrap();
    let stealth = D20Test::SkillCheck {
        skill: Skill::Stealth,
    };
    let arcana = D20Test::SkillCheck {
        skill: Skill::Arcana,
    };
    let athletics = D20Test::SkillCheck {
        skill: Skill::Athletics,
    };
    // Bard 2 (proficiency +2): half is +1 on an unproficient skill, on a raw check and on
    // initiative.
    assert_eq!(
        check(&mut e, "Lark", arcana, true),
        "Lark — Passive Arcana: 10 + 1 + 1 = 12 vs DC 10 — success"
    );
    let strength = D20Test::AbilityCheck {
        ability: Ability::Strength,
    };
    assert_eq!(
        check(&mut e, "Lark", strength, true),
        "Lark — Passive Strength: 10 + 0 + 1 = 11 vs DC 10 — success"
    );
    assert_eq!(
        check(&mut e, "Lark", D20Test::Initiative, false),
        "Lark — Initiative: d20 [5] + 4 = 9 vs DC 10 — fail"
    );
    // Champion 7 (proficiency +3): +1 on Stealth (DEX), nothing on Arcana (INT); Athletics
    // keeps its full +3.
    assert_eq!(
        check(&mut e, "Brom", stealth, true),
        "Brom — Passive Stealth: 10 + 3 + 1 = 14 vs DC 10 — success"
    );
    assert_eq!(
        check(&mut e, "Brom", arcana, true),
        "Brom — Passive Arcana: 10 + 1 = 11 vs DC 10 — success"
    );
    assert_eq!(
        check(&mut e, "Brom", athletics, true),
        "Brom — Passive Athletics: 10 + 0 + 3 = 13 vs DC 10 — success"
    );
}

// Wild Shape (issue 17, spells5a): an SRD-built druid takes an SRD beast's form through
// use_special_ability; the class table's CR and movement limits, the uses, the form's numbers
// on the sheet and its attacks, no spellcasting, damage past the form's HP carried over.
mod wild_shape {
    use super::super::spell_support as ss;
    use tabletop_engine::combat::actions::{ActionRequest, ActionType};
    use tabletop_rules::Ability;

    fn shape(e: &mut ss::E, id: &str, beast: Option<&str>) -> Result<String, String> {
        ss::act(
            e,
            ActionRequest {
                actor: ss::who(id),
                action_type: Some(ActionType::UseSpecialAbility),
                ability_name: Some("Wild Shape".into()),
                creature: beast.map(str::to_string),
                // Reverting is a bonus action.
                action_cost: beast
                    .is_none()
                    .then_some(tabletop_engine::model::encounter::ActionCost::BonusAction),
                ..Default::default()
            },
        )
        .map(|o| format!("{}\n{}", o.headline, o.lines.join("\n")))
        .map_err(|e| e.to_string())
    }

    #[test]
    fn a_2nd_level_druid_becomes_a_wolf_and_damage_past_its_hp_carries_over() {
        let Some(srd) = super::common::srd("wild_shape_wolf") else {
            return;
        };
        let dir = tempfile::tempdir().unwrap();
        let mut e = ss::engine(&dir, &srd, 7);
        let d = ss::caster(&mut e, "Ash", "druid", 2, &[]);
        let order = ss::fight(
            &mut e,
            vec![ss::pc(&d, 0, 0, 20), ss::monster("goblin", 1, &[(1, 0)])],
        );
        let gob = ss::id_of(&order, "Goblin");
        let before = ss::sheet(&mut e, &d);
        assert_eq!((before.hp, before.max_hp), (17, 17));
        // CR 1 is above a 2nd-level druid's CR 1/4; a swimmer is not allowed yet.
        let bear = shape(&mut e, &d, Some("brown bear")).unwrap_err();
        assert!(bear.contains("challenge rating 1 is above 1/4"), "{bear}");
        let crab = shape(&mut e, &d, Some("giant crab")).unwrap_err();
        assert!(crab.contains("swimming speed"), "{crab}");
        let out = shape(&mut e, &d, Some("wolf")).unwrap();
        assert!(out.contains("Wild Shape: 1/2 uses left"), "{out}");
        let s = ss::sheet(&mut e, &d);
        let form = s.active_shape().expect("in wolf form");
        assert_eq!((form.form.as_str(), form.hp, form.max_hp), ("Wolf", 11, 11));
        let eff = s.effective();
        assert_eq!(eff.armor_class.value, 13);
        assert_eq!(eff.speed.value, 40);
        assert_eq!(eff.abilities[&Ability::Strength].value, 12);
        assert_eq!(eff.abilities[&Ability::Dexterity].value, 15);
        // The druid's own WIS (16) stays.
        assert_eq!(eff.abilities[&Ability::Wisdom].value, 16);
        // The goblin's turn, then Ash's again.
        ss::advance(&mut e);
        ss::advance(&mut e);
        // No spells in beast form.
        let spell = ss::cast(&mut e, &d, "Produce Flame", |r| r.target = ss::who(&gob))
            .unwrap_err()
            .to_string();
        assert!(spell.contains("in Wolf form"), "{spell}");
        // The wolf's bite: +4 to hit, 2d4+2 piercing; a scimitar is not the wolf's.
        let refused = ss::act(
            &mut e,
            ActionRequest {
                actor: ss::who(&d),
                action_type: Some(ActionType::Attack),
                target: ss::who(&gob),
                weapon: Some("scimitar".into()),
                ..Default::default()
            },
        )
        .unwrap_err()
        .to_string();
        assert!(
            refused.contains("attacks with its attacks only: Bite"),
            "{refused}"
        );
        let bite = ss::act(
            &mut e,
            ActionRequest {
                actor: ss::who(&d),
                action_type: Some(ActionType::Attack),
                target: ss::who(&gob),
                ..Default::default()
            },
        )
        .unwrap();
        let text = format!("{}\n{}", bite.headline, bite.lines.join("\n"));
        assert!(text.contains("Bite"), "{text}");
        // 15 damage: the wolf's 11 HP go, 4 carry over to the druid (17 → 13).
        let hit = ss::act(
            &mut e,
            ActionRequest {
                action_type: Some(ActionType::Damage),
                target: ss::who(&d),
                amount: Some("15".into()),
                ..Default::default()
            },
        )
        .unwrap();
        let text = format!("{}\n{}", hit.headline, hit.lines.join("\n"));
        assert!(text.contains("4 damage carries over"), "{text}");
        let s = ss::sheet(&mut e, &d);
        assert!(s.active_shape().is_none() && s.shape.is_none());
        assert_eq!(s.hp, 13);
        assert_eq!(
            s.effective().armor_class.value,
            before.effective().armor_class.value
        );
        assert!(!s.effects.iter().any(|x| x.name == "Wild Shape"));
    }

    #[test]
    fn an_8th_level_druid_becomes_a_brown_bear_and_reverts_by_choice() {
        let Some(srd) = super::common::srd("wild_shape_bear") else {
            return;
        };
        let dir = tempfile::tempdir().unwrap();
        let mut e = ss::engine(&dir, &srd, 7);
        let d = ss::caster(&mut e, "Oak", "druid", 8, &[]);
        ss::fight(
            &mut e,
            vec![ss::pc(&d, 0, 0, 20), ss::monster("goblin", 1, &[(3, 0)])],
        );
        shape(&mut e, &d, Some("brown bear")).unwrap();
        let s = ss::sheet(&mut e, &d);
        let form = s.active_shape().unwrap();
        assert_eq!((form.hp, form.armor_class, form.speed), (34, 11, 40));
        assert_eq!(s.effective().abilities[&Ability::Strength].value, 19);
        // Four hours (2,400 rounds) of Wild Shape.
        let held = s.effects.iter().find(|x| x.name == "Wild Shape").unwrap();
        assert_eq!(
            held.duration,
            tabletop_engine::effects::Duration::Rounds { remaining: 2400 }
        );
        // Damage under the form's HP stays in the form.
        ss::act(
            &mut e,
            ActionRequest {
                action_type: Some(ActionType::Damage),
                target: ss::who(&d),
                amount: Some("10".into()),
                ..Default::default()
            },
        )
        .unwrap();
        let s = ss::sheet(&mut e, &d);
        assert_eq!((s.active_shape().unwrap().hp, s.hp), (24, s.max_hp));
        // Reverting by choice (no creature named while in a form).
        let out = shape(&mut e, &d, None).unwrap();
        assert!(out.contains("reverts from Brown Bear form"), "{out}");
        let s = ss::sheet(&mut e, &d);
        assert!(s.shape.is_none());
        assert_eq!(s.hp, s.max_hp);
    }
}
