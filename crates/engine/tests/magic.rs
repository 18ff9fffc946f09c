//! Spellcasting against the real SRD (see `common::srd_env`): cast_spell in an
//! encounter (Fireball, Fire Bolt, Magic Missile, Cure Wounds, Hold Person, Bless, Shield),
//! spell scrolls, auras and improvised spells, every effect checked on the sheets afterwards.

use super::common;

use std::sync::Arc;

use tabletop_engine::character::Character;
use tabletop_engine::combat::actions::{ActionRequest, ActionType, Who, execute};
use tabletop_engine::combat::auras::{self, AuraAffects, AuraOp, AuraSave, NewAura};
use tabletop_engine::combat::create::{
    CreateEncounter, InlineStatBlock, ParticipantSource, ParticipantSpec, create_encounter,
};
use tabletop_engine::compendium::CompendiumSource;
use tabletop_engine::creation::{AbilityMethod, CreateMode, CreateRequest, create_character};
use tabletop_engine::effects::Duration;
use tabletop_engine::magic::scroll::{ScrollRequest, Targeting, use_scroll};
use tabletop_engine::magic::spellcasting::{AreaKind, SpellArea, SpellDef};
use tabletop_engine::magic::synthesis::{SynthKind, SynthRequest, synthesis_dc, synthesize_spell};
use tabletop_engine::{Engine, EngineError, EngineOptions, SqliteStore};
use tabletop_grid::Position;
use tabletop_rules::{Ability, Condition, DamageType};
use tabletop_srd::Compendium;

/// The dice faces of the first answer line that starts with `lead` ("… [3, 4, 2] …").
fn faces(lines: &serde_json::Value, lead: &str) -> Vec<i64> {
    let line = lines
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|l| l.as_str())
        .find(|l| l.starts_with(lead))
        .unwrap_or_else(|| panic!("no line starting '{lead}' in {lines}"));
    let inner = &line[line.find('[').unwrap() + 1..line.find(']').unwrap()];
    inner.split(", ").map(|f| f.parse().unwrap()).collect()
}

fn engine(dir: &tempfile::TempDir, srd: &Arc<Compendium>, seed: u64) -> Engine<SqliteStore> {
    Engine::open(
        SqliteStore::open(&dir.path().join("m.sqlite")).unwrap(),
        "c",
        EngineOptions {
            seed: Some(seed),
            compendium: CompendiumSource::ready(srd.clone()),
        },
    )
    .unwrap()
}

fn caster(name: &str, class: &str, level: u32, spells: &[&str]) -> CreateRequest {
    // STR DEX CON INT WIS CHA: INT and WIS 16 (+3).
    let scores = [10, 14, 14, 16, 16, 10];
    CreateRequest {
        name: name.into(),
        class: Some(class.into()),
        level: Some(level),
        method: AbilityMethod::Manual,
        scores: Some(Ability::ALL.iter().copied().zip(scores).collect()),
        spells: spells.iter().map(|s| s.to_string()).collect(),
        mode: CreateMode::Create,
        ..Default::default()
    }
}

fn make(e: &mut Engine<SqliteStore>, req: CreateRequest) -> String {
    e.write("create_character", &serde_json::json!({}), |call| {
        create_character(call, req)
    })
    .unwrap()
    .character
    .id
}

fn sheet(e: &mut Engine<SqliteStore>, id: &str) -> Character {
    let id = id.to_string();
    e.read(|call| tabletop_engine::combat::sheet(call, &id))
        .unwrap()
}

fn put(e: &mut Engine<SqliteStore>, c: &Character) {
    let c = c.clone();
    e.write("t", &serde_json::json!({}), |call| {
        tabletop_engine::combat::put_sheet(call, &c)
    })
    .unwrap();
}

fn pc(id: &str, x: i32, y: i32, init: i32) -> ParticipantSpec {
    ParticipantSpec {
        source: ParticipantSource::Character {
            id: Some(id.into()),
            name: None,
        },
        side: None,
        positions: vec![Position::new(x, y)],
        surprised: false,
        initiative: Some(init),
    }
}

fn monster(m: &str, count: u32, at: &[(i32, i32)]) -> ParticipantSpec {
    ParticipantSpec {
        source: ParticipantSource::Monster {
            monster: m.into(),
            count,
            name: None,
        },
        side: None,
        positions: at.iter().map(|&(x, y)| Position::new(x, y)).collect(),
        surprised: false,
        initiative: Some(1),
    }
}

fn inline(name: &str, hp: u32, wis: i64, at: (i32, i32)) -> ParticipantSpec {
    ParticipantSpec {
        source: ParticipantSource::Inline(Box::new(InlineStatBlock {
            name: name.into(),
            hp,
            ac: 12,
            stats: [(Ability::Wisdom, wis)].into_iter().collect(),
            ..Default::default()
        })),
        side: None,
        positions: vec![Position::new(at.0, at.1)],
        surprised: false,
        initiative: Some(1),
    }
}

fn fight(e: &mut Engine<SqliteStore>, parts: Vec<ParticipantSpec>) -> Vec<(String, String)> {
    let out = e
        .write("create_encounter", &serde_json::json!({}), |call| {
            create_encounter(
                call,
                CreateEncounter {
                    participants: parts,
                    ..Default::default()
                },
            )
        })
        .unwrap();
    out.encounter
        .order
        .iter()
        .map(|c| (c.name.clone(), c.character_id.clone()))
        .collect()
}

fn id_of(order: &[(String, String)], name: &str) -> String {
    order
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, id)| id.clone())
        .unwrap_or_else(|| panic!("{name} not in {order:?}"))
}

fn who(id: &str) -> Who {
    Who {
        id: Some(id.into()),
        name: None,
    }
}

fn cast(
    e: &mut Engine<SqliteStore>,
    actor: &str,
    spell: &str,
    f: impl FnOnce(&mut ActionRequest),
) -> Result<tabletop_engine::combat::actions::ActionOutcome, EngineError> {
    let mut req = ActionRequest {
        actor: who(actor),
        action_type: Some(ActionType::CastSpell),
        spell: Some(spell.into()),
        ..Default::default()
    };
    f(&mut req);
    e.write("execute_action", &serde_json::json!({}), |call| {
        execute(call, &req)
    })
}

#[test]
fn srd_spell_data_reads_as_the_rules_say() {
    let Some(srd) = common::srd("srd_spell_data") else {
        return;
    };
    let fireball = SpellDef::from_srd(srd.spell("fireball").unwrap());
    assert_eq!(fireball.level, 3);
    assert_eq!(fireball.damage_dice(3, 5, 3).as_deref(), Some("8d6"));
    assert_eq!(fireball.damage_dice(4, 5, 3).as_deref(), Some("9d6"));
    assert_eq!(fireball.damage_type, Some(DamageType::Fire));
    let save = fireball.save.unwrap();
    assert_eq!((save.ability, save.half), (Ability::Dexterity, true));
    assert_eq!(fireball.area.unwrap().size_ft, 20);
    assert_eq!(fireball.range_ft(), Some(150));
    let bolt = SpellDef::from_srd(srd.spell("fire bolt").unwrap());
    assert_eq!(bolt.damage_dice(0, 1, 3).as_deref(), Some("1d10"));
    assert_eq!(bolt.damage_dice(0, 5, 3).as_deref(), Some("2d10"));
    assert_eq!(bolt.damage_dice(0, 17, 3).as_deref(), Some("4d10"));
    let cure = SpellDef::from_srd(srd.spell("cure wounds").unwrap());
    assert_eq!(cure.heal_dice(1, 3).as_deref(), Some("1d8+3"));
    assert_eq!(cure.heal_dice(2, 3).as_deref(), Some("2d8+3"));
    assert_eq!(cure.range_ft(), Some(5));
    let hold = SpellDef::from_srd(srd.spell("hold person").unwrap());
    assert_eq!(hold.condition, Some(Condition::Paralyzed));
    assert!(hold.concentration && hold.repeat_save);
    assert_eq!(
        hold.max_targets(3, 5),
        Some(2),
        "one more humanoid per slot above 2nd"
    );
    let mm = SpellDef::from_srd(srd.spell("magic missile").unwrap());
    assert_eq!(mm.max_targets(1, 1), Some(3));
    assert_eq!(mm.max_targets(2, 3), Some(4));
    let shield = SpellDef::from_srd(srd.spell("shield").unwrap());
    assert_eq!(
        shield.cost(),
        Some(tabletop_engine::combat::actions::ActionCost::Reaction)
    );
}

#[test]
fn fireball_burns_everyone_in_the_sphere_and_spends_a_third_level_slot() {
    let Some(srd) = common::srd("fireball") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 7);
    let aria = make(
        &mut e,
        caster("Aria", "wizard", 5, &["Fireball", "Fire Bolt"]),
    );
    let order = fight(
        &mut e,
        vec![
            pc(&aria, 0, 0, 25),
            monster("ogre", 2, &[(10, 10), (12, 10)]),
            monster("goblin", 1, &[(19, 19)]),
        ],
    );
    let ogres = [id_of(&order, "Ogre 1"), id_of(&order, "Ogre 2")];
    let goblin = id_of(&order, "Goblin");
    // Bad inputs first: no point of origin, a typo, too far.
    let err = cast(&mut e, &aria, "Fireball", |_| {})
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("Fireball needs a point of origin: `to` {x, y} within 150 feet"),
        "{err}"
    );
    let err = cast(&mut e, &aria, "Firebal", |r| {
        r.to = Some(Position::new(10, 10))
    })
    .unwrap_err()
    .to_string();
    assert!(err.contains("Fireball"), "suggests the spell: {err}");
    let err = cast(&mut e, &aria, "Fireball", |r| {
        r.to = Some(Position::new(10, 10));
        r.slot_level = Some(2);
    })
    .unwrap_err()
    .to_string();
    assert!(err.contains("slotLevel"), "{err}");

    let out = cast(&mut e, &aria, "Fireball", |r| {
        r.to = Some(Position::new(10, 10))
    })
    .unwrap();
    assert!(
        out.headline.starts_with("Fireball (3rd level)"),
        "{}",
        out.headline
    );
    let d = &out.details;
    let targets = d["targets"].as_array().unwrap();
    assert_eq!(targets.len(), 2, "both ogres, not the far goblin: {d}");
    // One damage roll, 8d6, shared; each ogre (SRD: 59 HP, DEX 8 → save −1) saves against
    // DC 8 + 3 (proficiency at 5th level) + 3 (INT 16) = 14 and takes half on a success.
    let full: i64 = {
        let f = faces(&d["lines"], "Fireball damage: 8d6");
        assert_eq!(f.len(), 8);
        assert!(f.iter().all(|v| (1..=6).contains(v)), "{f:?}");
        f.iter().sum()
    };
    assert_eq!(full, 23, "seed 7: [1, 6, 2, 6, 3, 1, 3, 1]");
    assert_eq!(d["saveDc"], 14);
    let mut saves = Vec::new();
    for (i, (t, id)) in targets.iter().zip(&ogres).enumerate() {
        let d20 = faces(&d["lines"], &format!("Ogre {} — Dexterity save", i + 1))[0];
        let total = d20 - 1;
        let saved = total >= 14;
        saves.push(saved);
        assert_eq!(t["saved"], saved, "{t}");
        let took = if saved { full / 2 } else { full };
        assert_eq!(t["damageRolled"], took, "{t}");
        assert_eq!(sheet(&mut e, id).hp, (59 - took) as u32, "{t}");
    }
    // Seed 7: d20 18 and 17, both save: 11 each.
    assert_eq!(saves, [true, true]);
    assert_eq!(sheet(&mut e, &goblin).hp, 7, "outside the sphere");
    assert_eq!(
        sheet(&mut e, &aria).spell_slots.used[2],
        1,
        "a 3rd-level slot spent"
    );
    // The action is spent: a second action spell is refused.
    let err = cast(&mut e, &aria, "Fire Bolt", |r| r.target = who(&goblin))
        .unwrap_err()
        .to_string();
    assert!(err.contains("action"), "{err}");
}

/// Seed 8 pins the other branch: one ogre saves, the other fails and takes the full roll.
#[test]
fn fireball_a_failed_save_takes_the_full_roll_and_a_success_half() {
    let Some(srd) = common::srd("fireball_failed_save") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 8);
    let aria = make(&mut e, caster("Aria", "wizard", 5, &["Fireball"]));
    let order = fight(
        &mut e,
        vec![
            pc(&aria, 0, 0, 25),
            monster("ogre", 2, &[(10, 10), (12, 10)]),
        ],
    );
    let ogres = [id_of(&order, "Ogre 1"), id_of(&order, "Ogre 2")];
    let out = cast(&mut e, &aria, "Fireball", |r| {
        r.to = Some(Position::new(10, 10))
    })
    .unwrap();
    let d = &out.details;
    let full: i64 = faces(&d["lines"], "Fireball damage: 8d6").iter().sum();
    assert_eq!(full, 24, "seed 8's 8d6");
    assert_eq!(d["saveDc"], 14);
    let targets = d["targets"].as_array().unwrap();
    // Ogre 1: DEX save d20 7 − 1 = 6 < 14 → the full 24; Ogre 2: 16 − 1 = 15 → half, 12.
    let d20s: Vec<i64> = (1..=2)
        .map(|i| faces(&d["lines"], &format!("Ogre {i} — Dexterity save"))[0])
        .collect();
    assert_eq!(d20s, [7, 16]);
    assert_eq!(targets[0]["saved"], false);
    assert_eq!(targets[0]["damageRolled"], 24);
    assert_eq!(targets[1]["saved"], true);
    assert_eq!(targets[1]["damageRolled"], 12);
    assert_eq!(sheet(&mut e, &ogres[0]).hp, 35);
    assert_eq!(sheet(&mut e, &ogres[1]).hp, 47);
}

#[test]
fn fire_bolt_magic_missile_and_cure_wounds_apply_their_numbers() {
    let Some(srd) = common::srd("bolt_missile_cure") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 11);
    let aria = make(
        &mut e,
        caster("Aria", "wizard", 5, &["Fire Bolt", "Magic Missile"]),
    );
    let bran = make(
        &mut e,
        caster(
            "Bran",
            "cleric",
            3,
            &["Cure Wounds", "Bless", "Hold Person"],
        ),
    );
    let order = fight(
        &mut e,
        vec![
            pc(&aria, 0, 0, 25),
            pc(&bran, 1, 0, 24),
            monster("ogre", 1, &[(5, 0)]),
        ],
    );
    let ogre = id_of(&order, "Ogre");
    // Not a known spell: refused, nothing spent.
    let err = cast(&mut e, &aria, "Cure Wounds", |r| r.target = who(&bran))
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with(
            "Aria does not know Cure Wounds: it is not on the wizard spell list (their spells: Fire Bolt, Magic Missile)"
        ),
        "{err}"
    );
    let out = cast(&mut e, &aria, "Fire Bolt", |r| r.target = who(&ogre)).unwrap();
    let t = &out.details["targets"][0];
    // Attack +6 (proficiency 3 + INT 3) against the ogre's AC 11; 2d10 at 5th level.
    let d20 = faces(&out.details["lines"], "Aria — Fire Bolt spell attack")[0];
    assert_eq!(d20, 17, "seed 11");
    assert_eq!(t["hit"], d20 + 6 >= 11 && d20 != 1);
    assert!(t.get("critical").is_none(), "17 is no critical: {t}");
    let dmg: i64 = {
        let f = faces(&out.details["lines"], "Damage to Ogre: 2d10");
        assert_eq!(f.len(), 2);
        f.iter().sum()
    };
    assert_eq!(dmg, 9, "seed 11: [8, 1]");
    assert_eq!(t["damageRolled"], dmg);
    assert_eq!(sheet(&mut e, &ogre).hp, 59 - 9);
    assert_eq!(
        sheet(&mut e, &aria).spell_slots.used,
        [0; 9],
        "cantrips spend no slot"
    );
    // Magic Missile at 2nd level (forced: the action is spent): 4 darts of 1d4+1, never miss.
    let before = sheet(&mut e, &ogre).hp;
    let out = cast(&mut e, &aria, "Magic Missile", |r| {
        r.target = who(&ogre);
        r.slot_level = Some(2);
        r.force = true;
    })
    .unwrap();
    assert!(!out.forced.is_empty());
    // Four darts (one more than at 1st level), each 1d4 + 1: the total is the four faces + 4.
    let f = faces(&out.details["lines"], "4 darts at Ogre: 4d4 + 4");
    assert_eq!(f, [3, 4, 2, 4], "seed 11");
    let dmg = f.iter().sum::<i64>() + 4;
    assert_eq!(out.details["targets"][0]["damageRolled"], dmg);
    assert_eq!((before, sheet(&mut e, &ogre).hp), (50, 50 - 17));
    assert_eq!(sheet(&mut e, &aria).spell_slots.used[1], 1);
    // Cure Wounds upcast at 2nd: 2d8 + 3.
    let mut a = sheet(&mut e, &aria);
    a.hp = 1;
    put(&mut e, &a);
    let out = cast(&mut e, &bran, "Cure Wounds", |r| {
        r.target = who(&aria);
        r.slot_level = Some(2);
        r.force = true;
    })
    .unwrap();
    let healed = out.details["targets"][0]["healed"].as_u64().unwrap() as u32;
    assert!((5..=19).contains(&healed), "{}", out.details);
    assert_eq!(sheet(&mut e, &aria).hp, (1 + healed).min(a.max_hp));
    assert_eq!(sheet(&mut e, &bran).spell_slots.used[1], 1);
    // Out of touch range: force overrides the range too, and the answer says it was forced.
    let order2 = sheet(&mut e, &ogre);
    let out = cast(&mut e, &bran, "Cure Wounds", |r| {
        r.target = who(&order2.id);
        r.force = true;
    })
    .unwrap();
    assert!(
        out.forced
            .contains(&"Ogre is 20 ft from Bran; Cure Wounds has a range of Touch".to_string()),
        "{:?}",
        out.forced
    );
}

#[test]
fn hold_person_paralyzes_until_a_save_and_a_new_concentration_spell_ends_it() {
    let Some(srd) = common::srd("hold_person") else {
        return;
    };
    let mut failed_once = false;
    for seed in 1..30u64 {
        let dir = tempfile::tempdir().unwrap();
        let mut e = engine(&dir, &srd, seed);
        let bran = make(
            &mut e,
            caster("Bran", "cleric", 3, &["Hold Person", "Bless"]),
        );
        let aria = make(&mut e, caster("Aria", "wizard", 3, &[]));
        let order = fight(
            &mut e,
            vec![
                pc(&bran, 0, 0, 25),
                pc(&aria, 1, 0, 20),
                inline("Thug", 30, 1, (4, 0)),
            ],
        );
        let thug = id_of(&order, "Thug");
        let out = cast(&mut e, &bran, "Hold Person", |r| r.target = who(&thug)).unwrap();
        let t = &out.details["targets"][0];
        let b = sheet(&mut e, &bran);
        assert_eq!(b.concentration.as_ref().unwrap().spell, "Hold Person");
        let th = sheet(&mut e, &thug);
        if t["saved"].as_bool().unwrap() {
            assert!(!th.has_condition(Condition::Paralyzed));
            continue;
        }
        failed_once = true;
        let entry = th
            .conditions
            .iter()
            .find(|c| c.condition == Condition::Paralyzed)
            .expect("paralyzed on a failed save");
        // DC 8 + 2 + 3 = 13 WIS, repeated at the end of each of its turns, held by concentration.
        assert!(matches!(
            entry.duration,
            Some(Duration::ConcentrationSave {
                dc: 13,
                ability: Ability::Wisdom,
                ..
            })
        ));
        // The end-of-turn save: tick rolls it; success ends the condition.
        let tick = e
            .write("t", &serde_json::json!({}), |call| {
                tabletop_engine::conditions::manage_condition(
                    call,
                    tabletop_engine::character::CharacterRef::new(Some(&thug), None),
                    tabletop_engine::conditions::ConditionOp::Tick { rounds: 1 },
                )
            })
            .unwrap();
        let still = sheet(&mut e, &thug).has_condition(Condition::Paralyzed);
        let said = tick.changes.join(" ");
        assert!(said.contains("DC 13"), "{said}");
        assert_eq!(still, !said.contains("; paralyzed ends"), "{said}");
        if still {
            // Bless (a new concentration spell) ends Hold Person.
            let out = cast(&mut e, &bran, "Bless", |r| {
                r.targets = vec![who(&bran), who(&aria)];
                r.force = true;
            })
            .unwrap();
            assert!(
                out.lines
                    .iter()
                    .any(|l| l.contains("concentration on Hold Person ends")),
                "{:?}",
                out.lines
            );
            assert!(!sheet(&mut e, &thug).has_condition(Condition::Paralyzed));
            let a = sheet(&mut e, &aria);
            let bless = a
                .effects
                .iter()
                .find(|x| x.name == "Bless")
                .expect("blessed");
            assert!(
                bless
                    .modifiers
                    .iter()
                    .any(|m| m.kind.to_string().contains("1d4"))
            );
            assert_eq!(sheet(&mut e, &bran).concentration.unwrap().spell, "Bless");
            // Bless adds 1d4 to Aria's saves: the roll shows the die.
            let chk = e
                .write("t", &serde_json::json!({}), |call| {
                    tabletop_engine::concentration::roll_save(
                        call,
                        &sheet_in(call, &aria),
                        Ability::Wisdom,
                        10,
                        "test",
                    )
                })
                .unwrap();
            assert!(
                chk.dice.iter().any(|d| d.source.contains("Bless")),
                "{chk:?}"
            );
            return;
        }
    }
    panic!(
        "no seed reached a held thug that stays paralyzed (failed save at least: {failed_once})"
    );
}

fn sheet_in(call: &tabletop_engine::Call<'_>, id: &str) -> Character {
    tabletop_engine::combat::sheet(call, id).unwrap()
}

#[test]
fn shield_is_a_reaction_off_turn_for_plus_five_ac_until_the_casters_turn() {
    let Some(srd) = common::srd("shield") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 3);
    let aria = make(&mut e, caster("Aria", "wizard", 1, &["Shield"]));
    let order = fight(
        &mut e,
        vec![pc(&aria, 0, 0, 1), monster("goblin", 1, &[(1, 0)])],
    );
    let _ = order;
    let ac = sheet(&mut e, &aria).effective().armor_class.value;
    let out = cast(&mut e, &aria, "Shield", |_| {}).unwrap();
    assert_eq!(
        out.cost,
        Some(tabletop_engine::combat::actions::ActionCost::Reaction),
        "off-turn, the casting time makes it a reaction"
    );
    let a = sheet(&mut e, &aria);
    assert_eq!(a.effective().armor_class.value, ac + 5);
    let s = a.effects.iter().find(|x| x.name == "Shield").unwrap();
    assert_eq!(s.duration, Duration::Rounds { remaining: 1 });
    assert_eq!(s.ends_on.as_ref().unwrap().turn_of, aria);
    assert_eq!(a.spell_slots.used[0], 1);
    // The reaction is spent.
    let err = cast(&mut e, &aria, "Shield", |_| {})
        .unwrap_err()
        .to_string();
    assert!(err.contains("reaction"), "{err}");
}

fn give(e: &mut Engine<SqliteStore>, id: &str, item: &str) {
    let mut c = sheet(e, id);
    let mut it = tabletop_engine::inventory::catalog::plain(item);
    it.id = format!("it{}", c.inventory.items.len() + 100);
    c.inventory.items.push(it);
    put(e, &c);
}

#[test]
fn scrolls_cast_from_the_list_check_above_level_refuse_off_list_and_crumble() {
    let Some(srd) = common::srd("scrolls") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 5);
    let aria = make(&mut e, caster("Aria", "wizard", 5, &[]));
    let dummy = make(&mut e, common::fighter("Dummy", [10, 10, 10, 10, 10, 10]));
    give(&mut e, &aria, "Scroll of Magic Missile");
    give(&mut e, &aria, "Spell Scroll (Cone of Cold)");
    give(&mut e, &aria, "Scroll of Cure Wounds");
    let read = |e: &mut Engine<SqliteStore>, name: &str| {
        let req = ScrollRequest {
            caster: who(&aria),
            item_name: Some(name.into()),
            targeting: Targeting {
                targets: vec![who(&dummy)],
                ..Default::default()
            },
            ..Default::default()
        };
        e.write("use_scroll", &serde_json::json!({}), |call| {
            use_scroll(call, req)
        })
    };
    // Off the wizard list: unintelligible, not consumed.
    let err = read(&mut e, "Scroll of Cure Wounds")
        .unwrap_err()
        .to_string();
    assert!(
        err.to_lowercase().contains("not on the wizard spell list"),
        "{err}"
    );
    assert_eq!(sheet(&mut e, &aria).inventory.items.len(), 3);
    // Castable: no check, no slot, the scroll is gone.
    let hp = sheet(&mut e, &dummy).hp;
    let out = read(&mut e, "Scroll of Magic Missile").unwrap();
    assert!(out.cast && out.check.is_none());
    assert_eq!((out.save_dc, out.attack_bonus), (13, 5));
    // Three darts of 1d4 + 1 from a 1st-level scroll, on a 10-HP dummy.
    let f = faces(&out.details["lines"], "3 darts at Dummy: 3d4 + 3");
    assert_eq!(f, [1, 4, 3]);
    assert_eq!(out.details["targets"][0]["damageRolled"], 8 + 3);
    assert_eq!(
        (hp, sheet(&mut e, &dummy).hp),
        (10, 0),
        "11 damage drops it to 0"
    );
    let a = sheet(&mut e, &aria);
    assert_eq!(a.spell_slots.used, [0; 9], "a scroll spends no slot");
    assert!(
        !a.inventory
            .items
            .iter()
            .any(|i| i.name.contains("Magic Missile"))
    );
    // Cone of Cold is 5th level; Aria casts up to 3rd: INT check DC 15, consumed either way.
    let hp = sheet(&mut e, &dummy).hp;
    let out = read(&mut e, "Spell Scroll (Cone of Cold)").unwrap();
    let check = out.check.as_ref().expect("an ability check");
    assert_eq!(check.dc, Some(15));
    assert_eq!(out.cast, check.success == Some(true));
    assert_eq!((out.save_dc, out.attack_bonus), (17, 9));
    let after = sheet(&mut e, &dummy).hp;
    if out.cast {
        let t = &out.details["targets"][0];
        assert!(t["damageRolled"].as_i64().unwrap() > 0, "{t}");
        assert!(t["save"].as_str().unwrap().contains("DC 17"), "{t}");
        assert!(after <= hp);
    } else {
        assert_eq!(after, hp, "a wasted scroll does nothing");
    }
    let left: Vec<String> = sheet(&mut e, &aria)
        .inventory
        .items
        .iter()
        .map(|i| i.name.clone())
        .collect();
    assert_eq!(
        left,
        ["Scroll of Cure Wounds"],
        "every scroll read is gone, the unreadable one stays"
    );
}

#[test]
fn an_aura_hurts_at_turn_start_only_those_inside_and_ends_with_concentration() {
    let Some(srd) = common::srd("auras") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 9);
    let bran = make(&mut e, caster("Bran", "cleric", 5, &[]));
    let order = fight(
        &mut e,
        vec![pc(&bran, 0, 0, 25), monster("ogre", 2, &[(2, 0), (12, 0)])],
    );
    let (near, far) = (id_of(&order, "Ogre 1"), id_of(&order, "Ogre 2"));
    let op = AuraOp::Create(NewAura {
        name: "Spirit Guardians".into(),
        bearer: who(&bran),
        radius_ft: 15,
        damage: Some("3d8".into()),
        damage_type: Some(DamageType::Radiant),
        healing: None,
        condition: None,
        save: Some(AuraSave {
            ability: Ability::Wisdom,
            dc: 14,
            half: true,
        }),
        affects: AuraAffects::Enemies,
        rounds: Some(100),
        concentration: Some("Spirit Guardians".into()),
    });
    e.write("manage_aura", &serde_json::json!({}), |call| {
        auras::manage_aura(call, None, op)
    })
    .unwrap();
    assert_eq!(
        sheet(&mut e, &bran).concentration.unwrap().spell,
        "Spirit Guardians"
    );
    let lines = e
        .write("t", &serde_json::json!({}), |call| {
            let mut enc = tabletop_engine::combat::load_active(call, None)?;
            let mut l = auras::at_turn_start(call, &mut enc, &near)?;
            l.extend(auras::at_turn_start(call, &mut enc, &far)?);
            l.extend(auras::at_turn_start(call, &mut enc, &bran)?);
            tabletop_engine::combat::save(call, &enc)?;
            Ok(l)
        })
        .unwrap();
    let hurt = 59 - sheet(&mut e, &near).hp;
    assert!((1..=24).contains(&hurt), "3d8 (half on a save): {lines:?}");
    assert!(lines.iter().any(|l| l.contains("Wisdom save")), "{lines:?}");
    assert_eq!(sheet(&mut e, &far).hp, 59, "outside 15 ft");
    assert_eq!(
        sheet(&mut e, &bran).hp,
        sheet(&mut e, &bran).max_hp,
        "bearer untouched"
    );
    // Breaking concentration ends the aura.
    e.write("t", &serde_json::json!({}), |call| {
        tabletop_engine::concentration::break_concentration(
            call,
            tabletop_engine::character::CharacterRef::new(Some(&bran), None),
            None,
        )
    })
    .unwrap();
    let out = e
        .write("manage_aura", &serde_json::json!({}), |call| {
            auras::manage_aura(
                call,
                None,
                AuraOp::List {
                    target: Who::default(),
                },
            )
        })
        .unwrap();
    assert!(out.auras.is_empty(), "{:?}", out.lines);
    assert!(
        out.lines.iter().any(|l| l.contains("concentration")),
        "{:?}",
        out.lines
    );
}

fn synth(bran: &str, dummy: &str) -> SynthRequest {
    SynthRequest {
        caster: who(bran),
        name: Some("Frost Lash".into()),
        kind: SynthKind::Damage,
        level: 1,
        school: None,
        dice: Some("2d6".into()),
        damage_type: Some(DamageType::Cold),
        condition: None,
        area: None,
        save: Some(Ability::Constitution),
        range_ft: Some(30),
        concentration: false,
        costly_component: false,
        bonus_action: false,
        targeting: Targeting {
            targets: vec![who(dummy)],
            ..Default::default()
        },
    }
}

#[test]
fn synthesis_dc_formula_and_every_outcome_follows_the_check() {
    let Some(srd) = common::srd("synthesis") else {
        return;
    };
    let mut r = synth("a", "b");
    assert_eq!(synthesis_dc(&r), 12, "10 + 2×1");
    r.level = 3;
    r.area = Some(SpellArea {
        shape: AreaKind::Sphere,
        size_ft: 10,
    });
    r.condition = Some(Condition::Prone);
    r.costly_component = true;
    // 10 + 6 + 2 area + 2 condition + 1 second effect − 2 costly.
    assert_eq!(synthesis_dc(&r), 19);
    let mut seen = std::collections::BTreeSet::new();
    for seed in 1..40u64 {
        let dir = tempfile::tempdir().unwrap();
        let mut e = engine(&dir, &srd, seed);
        let aria = make(&mut e, caster("Aria", "wizard", 5, &[]));
        let dummy = make(&mut e, common::fighter("Dummy", [10, 10, 10, 10, 10, 10]));
        let mut req = synth(&aria, &dummy);
        req.level = 3; // DC 16 against Arcana +3.
        let out = e
            .write("synthesize_spell", &serde_json::json!({}), |call| {
                synthesize_spell(call, req)
            })
            .unwrap();
        let a = sheet(&mut e, &aria);
        assert_eq!(
            a.spell_slots.used[2], 1,
            "the slot is spent whatever happens"
        );
        let nat = out.check.kept.unwrap();
        let miss = out.dc - out.check.total.unwrap();
        let expect = match (out.check.success == Some(true), nat, miss) {
            (true, 20, _) => "mastered",
            (true, ..) => "success",
            (false, 1, _) => "wild_surge",
            (false, _, m) if m >= 10 => "wild_surge",
            (false, _, m) if m >= 5 => "backlash",
            _ => "fizzle",
        };
        assert_eq!(out.result, expect, "{:?}", out.lines);
        seen.insert(out.result);
        match out.result {
            "success" | "mastered" => {
                // 2d6 cold, CON save for half: the dummy (10 HP) loses exactly what the answer
                // says it took, at least 1 (half of the lowest roll, 2).
                let t = &out.details["targets"][0];
                let took = t["damageTaken"].as_u64().expect("damageTaken") as u32;
                let f = faces(&out.details["lines"], "Frost Lash damage: 2d6");
                assert_eq!(f.len(), 2, "{:?}", out.details["lines"]);
                let rolled = f.iter().sum::<i64>() as u32;
                let want = if t["saved"] == true {
                    rolled / 2
                } else {
                    rolled
                };
                assert_eq!(took, want, "{t}");
                assert_eq!(sheet(&mut e, &dummy).hp, 10u32.saturating_sub(took), "{t}");
                assert_eq!(
                    a.mastered_spells.len(),
                    usize::from(out.result == "mastered")
                );
            }
            "backlash" => assert!(a.hp < a.max_hp, "3d6 cold to the caster"),
            "fizzle" => assert_eq!(a.hp, a.max_hp),
            _ => {}
        }
    }
    assert!(
        seen.contains("success") && seen.contains("fizzle"),
        "{seen:?}"
    );
    // Bad input names the fix.
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 1);
    let aria = make(&mut e, caster("Aria", "wizard", 5, &[]));
    let mut req = synth(&aria, &aria);
    req.dice = None;
    let err = e
        .write("s", &serde_json::json!({}), |call| {
            synthesize_spell(call, req)
        })
        .unwrap_err()
        .to_string();
    assert!(err.contains("dice"), "{err}");
}

#[test]
fn spell_attacks_use_the_attack_situation_and_mastered_spells_cast_by_name() {
    let Some(srd) = common::srd("spell_attack_situation") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 21);
    let bran = make(&mut e, caster("Bran", "cleric", 3, &["Inflict Wounds"]));
    let mut b = sheet(&mut e, &bran);
    // An improvised spell mastered earlier: 1st level, 3d6 thunder, CON half, 30 ft.
    b.mastered_spells.push(SpellDef {
        name: "Thunder Clap".into(),
        level: 1,
        school: "Evocation".into(),
        casting_time: "1 action".into(),
        range: "30 feet".into(),
        components: vec!["V".into()],
        material: None,
        duration: "Instantaneous".into(),
        concentration: false,
        ritual: false,
        classes: Vec::new(),
        damage_type: Some(DamageType::Thunder),
        damage_at_slot: [(1u8, "3d6".to_string())].into_iter().collect(),
        damage_at_level: Default::default(),
        heal_at_slot: Default::default(),
        save: Some(tabletop_engine::magic::spellcasting::SpellSaveDef {
            ability: Ability::Constitution,
            half: true,
        }),
        attack: None,
        area: None,
        condition: None,
        repeat_save: false,
        effect: None,
        higher_level: None,
        synthesized: true,
        aura: None,
        index: None,
        many_targets: false,
        ignores_cover: false,
        inorganic_disadvantage: false,
    });
    put(&mut e, &b);
    let order = fight(
        &mut e,
        vec![pc(&bran, 0, 0, 25), monster("ogre", 1, &[(1, 0)])],
    );
    let ogre = id_of(&order, "Ogre");
    let mut o = sheet(&mut e, &ogre);
    o.conditions
        .push(tabletop_engine::character::ConditionEntry {
            by: None,
            ends_on: None,
            condition: Condition::Paralyzed,
            level: None,
            source: "test".into(),
            duration: None,
        });
    put(&mut e, &o);
    let out = cast(&mut e, &bran, "Inflict Wounds", |r| r.target = who(&ogre)).unwrap();
    let t = &out.details["targets"][0];
    let attack = t["attack"].as_str().unwrap();
    assert!(
        attack.contains("paralyzed"),
        "advantage from the paralyzed target: {attack}"
    );
    if t["hit"].as_bool().unwrap() {
        assert!(
            t["critical"].as_bool().unwrap(),
            "a hit within 5 ft of a paralyzed target crits: {t}"
        );
        let dmg = t["damageRolled"].as_i64().unwrap();
        assert!((6..=60).contains(&dmg), "6d10 on the crit: {t}");
    }
    let before = sheet(&mut e, &ogre).hp;
    let out = cast(&mut e, &bran, "Thunder Clap", |r| {
        r.target = who(&ogre);
        r.force = true;
    })
    .unwrap();
    let t = &out.details["targets"][0];
    let taken = t["damageTaken"].as_u64().unwrap() as u32;
    assert!(
        t["save"].as_str().unwrap().contains("Constitution save"),
        "{t}"
    );
    assert_eq!(sheet(&mut e, &ogre).hp, before.saturating_sub(taken));
    assert_eq!(
        sheet(&mut e, &bran).spell_slots.used[0],
        2,
        "two 1st-level slots spent"
    );
}

#[test]
fn moving_into_an_aura_applies_it_once_per_turn() {
    let Some(srd) = common::srd("aura_on_enter") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 2);
    let bran = make(&mut e, caster("Bran", "cleric", 5, &[]));
    let mut first = monster("ogre", 1, &[(8, 0)]);
    first.initiative = Some(30);
    let order = fight(&mut e, vec![first, pc(&bran, 0, 0, 1)]);
    let ogre = id_of(&order, "Ogre");
    let op = AuraOp::Create(NewAura {
        name: "Burning Halo".into(),
        bearer: who(&bran),
        radius_ft: 10,
        damage: Some("2d6".into()),
        damage_type: Some(DamageType::Fire),
        healing: None,
        condition: None,
        save: None,
        affects: AuraAffects::Enemies,
        rounds: None,
        concentration: None,
    });
    e.write("manage_aura", &serde_json::json!({}), |call| {
        auras::manage_aura(call, None, op)
    })
    .unwrap();
    let step = |e: &mut Engine<SqliteStore>, x: i32| {
        let req = ActionRequest {
            actor: who(&ogre),
            action_type: Some(ActionType::Move),
            to: Some(Position::new(x, 0)),
            ..Default::default()
        };
        e.write("execute_action", &serde_json::json!({}), |call| {
            execute(call, &req)
        })
        .unwrap()
    };
    // Still outside (the large ogre at x 6–7 is 30 ft from Bran's space): nothing.
    step(&mut e, 6);
    assert_eq!(sheet(&mut e, &ogre).hp, 59);
    // Into the halo (10 ft away): 2d6 fire.
    let out = step(&mut e, 2);
    let hurt = 59 - sheet(&mut e, &ogre).hp;
    assert!((2..=12).contains(&hurt), "{:?}", out.lines);
    assert!(
        out.lines.iter().any(|l| l.contains("Burning Halo")),
        "{:?}",
        out.lines
    );
    // Moving inside it again this turn does not burn twice.
    step(&mut e, 1);
    assert_eq!(59 - sheet(&mut e, &ogre).hp, hurt);
}

#[test]
fn outside_combat_spells_land_on_named_characters_and_rituals_spend_no_slot() {
    let Some(srd) = common::srd("outside_combat") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 13);
    let bran = make(
        &mut e,
        caster("Bran", "cleric", 3, &["Cure Wounds", "Detect Magic"]),
    );
    let aria = make(&mut e, caster("Aria", "wizard", 3, &["Detect Magic"]));
    let mut a = sheet(&mut e, &aria);
    a.hp = 2;
    put(&mut e, &a);
    let out = cast(&mut e, &bran, "Cure Wounds", |r| r.target = who(&aria)).unwrap();
    let healed = out.details["targets"][0]["healed"].as_u64().unwrap() as u32;
    assert!((4..=11).contains(&healed), "1d8 + 3: {}", out.details);
    assert_eq!(sheet(&mut e, &aria).hp, 2 + healed);
    assert_eq!(sheet(&mut e, &bran).spell_slots.used[0], 1);
    // Detect Magic as a ritual: concentration, no slot.
    let out = cast(&mut e, &aria, "Detect Magic", |r| r.ritual = true).unwrap();
    assert!(
        out.lines.iter().any(|l| l.contains("ritual")),
        "{:?}",
        out.lines
    );
    let a = sheet(&mut e, &aria);
    assert_eq!(a.spell_slots.used, [0; 9]);
    assert_eq!(a.concentration.unwrap().spell, "Detect Magic");
    // Cure Wounds has no ritual tag.
    let err = cast(&mut e, &bran, "Cure Wounds", |r| {
        r.target = who(&aria);
        r.ritual = true;
    })
    .unwrap_err()
    .to_string();
    assert!(err.contains("ritual tag"), "{err}");
    // In a fight a ritual is refused (it takes 10 minutes longer).
    fight(
        &mut e,
        vec![pc(&aria, 0, 0, 20), monster("goblin", 1, &[(5, 5)])],
    );
    let err = cast(&mut e, &aria, "Detect Magic", |r| r.ritual = true)
        .unwrap_err()
        .to_string();
    assert!(err.contains("outside combat"), "{err}");
}

#[test]
fn after_a_bonus_action_spell_only_a_cantrip_may_be_cast_with_the_action() {
    let Some(srd) = common::srd("bonus_action_spell") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 17);
    let bran = make(
        &mut e,
        caster(
            "Bran",
            "cleric",
            3,
            &["Healing Word", "Cure Wounds", "Sacred Flame"],
        ),
    );
    let order = fight(
        &mut e,
        vec![pc(&bran, 0, 0, 25), monster("ogre", 1, &[(3, 0)])],
    );
    let ogre = id_of(&order, "Ogre");
    let out = cast(&mut e, &bran, "Healing Word", |r| r.target = who(&bran)).unwrap();
    assert_eq!(
        out.cost,
        Some(tabletop_engine::combat::actions::ActionCost::BonusAction),
        "Healing Word's casting time is a bonus action"
    );
    let err = cast(&mut e, &bran, "Cure Wounds", |r| r.target = who(&bran))
        .unwrap_err()
        .to_string();
    assert!(err.contains("only a cantrip"), "{err}");
    assert_eq!(
        sheet(&mut e, &bran).spell_slots.used[0],
        1,
        "the refused spell spent nothing"
    );
    cast(&mut e, &bran, "Sacred Flame", |r| r.target = who(&ogre)).unwrap();
}

#[test]
fn spirit_guardians_cast_makes_an_aura_that_strikes_at_turn_start_not_at_once() {
    let Some(srd) = common::srd("spirit guardians") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 11);
    let bran = make(&mut e, caster("Bran", "cleric", 5, &["spirit guardians"]));
    let order = fight(
        &mut e,
        vec![pc(&bran, 0, 0, 25), monster("ogre", 2, &[(2, 0), (12, 0)])],
    );
    let (near, far) = (id_of(&order, "Ogre 1"), id_of(&order, "Ogre 2"));
    let slots_before = sheet(&mut e, &bran).spell_slots.left(3);
    let out = cast(&mut e, &bran, "Spirit Guardians", |_| {}).unwrap();
    assert!(out.headline.contains("aura"), "{}", out.headline);
    // Nobody is hurt when it is cast; the slot is spent and concentration begun.
    assert_eq!(sheet(&mut e, &near).hp, 59);
    let b = sheet(&mut e, &bran);
    assert_eq!(b.spell_slots.left(3), slots_before - 1);
    assert_eq!(b.concentration.unwrap().spell, "Spirit Guardians");
    // The SRD numbers: 3d8 radiant at 3rd level, WIS save for half, DC 8 + 3 + 3 = 14.
    let aura = &out.details["aura"];
    assert_eq!(aura["damage"], "3d8");
    assert_eq!(aura["damageType"], "radiant");
    assert_eq!(aura["radiusFt"], 15);
    assert_eq!(aura["save"]["dc"], 14);
    // At the start of the near ogre's turn it takes radiant damage; the far one does not.
    let lines = e
        .write("t", &serde_json::json!({}), |call| {
            let mut enc = tabletop_engine::combat::load_active(call, None)?;
            let mut l = auras::at_turn_start(call, &mut enc, &near)?;
            l.extend(auras::at_turn_start(call, &mut enc, &far)?);
            tabletop_engine::combat::save(call, &enc)?;
            Ok(l)
        })
        .unwrap();
    let hurt = 59 - sheet(&mut e, &near).hp;
    assert!((1..=24).contains(&hurt), "{lines:?}");
    assert_eq!(sheet(&mut e, &far).hp, 59);
}

/// Polymorph (issue 17, spells5a) on an SRD ogre (CR 2, WIS 7): a beast of CR 2 or lower, the
/// WIS save against the caster's DC 14 (pinned), the form's statistics on the ogre's sheet
/// (every one, mind included), the form's HP on top (damage past it carries over), and the end
/// of the caster's concentration ending the form.
#[test]
fn polymorph_turns_an_ogre_into_a_beast_until_concentration_ends() {
    let Some(srd) = common::srd("polymorph_ogre") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 4);
    let wiz = make(&mut e, caster("Mira", "wizard", 7, &["Polymorph"]));
    let order = fight(
        &mut e,
        vec![pc(&wiz, 0, 0, 20), monster("ogre", 1, &[(4, 0)])],
    );
    let ogre = id_of(&order, "Ogre");
    // A giant ape is CR 7, above the ogre's 2; a gelatinous cube is no beast.
    let ape = cast(&mut e, &wiz, "Polymorph", |r| {
        r.target = who(&ogre);
        r.creature = Some("giant ape".into());
    })
    .unwrap_err()
    .to_string();
    assert!(ape.contains("challenge rating 7 is above 2"), "{ape}");
    let cube = cast(&mut e, &wiz, "Polymorph", |r| {
        r.target = who(&ogre);
        r.creature = Some("gelatinous cube".into());
    })
    .unwrap_err()
    .to_string();
    assert!(cube.contains("not a beast"), "{cube}");
    let out = cast(&mut e, &wiz, "Polymorph", |r| {
        r.target = who(&ogre);
        r.creature = Some("frog".into());
    })
    .unwrap();
    let text = format!("{}\n{}", out.headline, out.lines.join("\n"));
    assert!(
        out.lines
            .iter()
            .any(|l| l == "Ogre — WIS save vs Polymorph: d20 [6] - 2 = 4 vs DC 14 — fail"),
        "{text}"
    );
    assert_eq!(out.headline, "Mira casts Polymorph: Ogre becomes a frog.");
    let o = sheet(&mut e, &ogre);
    let form = o.active_shape().expect("a frog");
    assert_eq!((form.form.as_str(), form.hp), ("Frog", 1));
    let eff = o.effective();
    assert_eq!(eff.armor_class.value, 11);
    assert_eq!(eff.speed.value, 20);
    // Every statistic is the frog's, its INT 1 and WIS 8 too.
    assert_eq!(eff.abilities[&Ability::Strength].value, 1);
    assert_eq!(eff.abilities[&Ability::Intelligence].value, 1);
    assert_eq!(eff.abilities[&Ability::Wisdom].value, 8);
    assert_eq!(
        sheet(&mut e, &wiz).concentration.unwrap().spell,
        "Polymorph"
    );
    // 6 damage: the frog's 1 HP, then 5 carry over to the ogre (59 → 54); the form is gone.
    e.write("execute_action", &serde_json::json!({}), |call| {
        execute(
            call,
            &ActionRequest {
                action_type: Some(ActionType::Damage),
                target: who(&ogre),
                amount: Some("6".into()),
                ..Default::default()
            },
        )
    })
    .unwrap();
    let o = sheet(&mut e, &ogre);
    assert!(o.active_shape().is_none());
    assert_eq!(o.hp, 54);
    assert_eq!(o.effective().armor_class.value, 11);
    assert_eq!(o.effective().abilities[&Ability::Strength].value, 19);
}

/// The form lasts as long as the caster's concentration: when it ends, the target is itself
/// again with the HP it had.
#[test]
fn a_polymorphed_creature_reverts_when_the_casters_concentration_ends() {
    let Some(srd) = common::srd("polymorph_concentration") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 4);
    let wiz = make(&mut e, caster("Mira", "wizard", 7, &["Polymorph"]));
    let order = fight(
        &mut e,
        vec![pc(&wiz, 0, 0, 20), monster("ogre", 1, &[(4, 0)])],
    );
    let ogre = id_of(&order, "Ogre");
    cast(&mut e, &wiz, "Polymorph", |r| {
        r.target = who(&ogre);
        r.creature = Some("frog".into());
    })
    .unwrap();
    assert!(sheet(&mut e, &ogre).active_shape().is_some());
    e.write("manage_concentration", &serde_json::json!({}), |call| {
        tabletop_engine::concentration::break_concentration(
            call,
            tabletop_engine::character::CharacterRef::new(Some(&wiz), None),
            None,
        )
    })
    .unwrap();
    let o = sheet(&mut e, &ogre);
    assert!(o.active_shape().is_none() && o.shape.is_none());
    assert_eq!(o.hp, 59);
    assert_eq!(o.effective().abilities[&Ability::Strength].value, 19);
}

/// A target that makes its save keeps its shape, and with no one changed the caster holds no
/// concentration on it.
#[test]
fn an_ogre_that_saves_against_polymorph_keeps_its_form() {
    let Some(srd) = common::srd("polymorph_saved") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut e = engine(&dir, &srd, 3);
    let wiz = make(&mut e, caster("Mira", "wizard", 7, &["Polymorph"]));
    let order = fight(
        &mut e,
        vec![pc(&wiz, 0, 0, 20), monster("ogre", 1, &[(4, 0)])],
    );
    let ogre = id_of(&order, "Ogre");
    let out = cast(&mut e, &wiz, "Polymorph", |r| {
        r.target = who(&ogre);
        r.creature = Some("frog".into());
    })
    .unwrap();
    assert!(
        out.lines
            .iter()
            .any(|l| l == "Ogre — WIS save vs Polymorph: d20 [19] - 2 = 17 vs DC 14 — success"),
        "{:?}",
        out.lines
    );
    assert_eq!(out.headline, "Mira casts Polymorph: no one changes form.");
    assert!(sheet(&mut e, &ogre).shape.is_none());
    assert!(sheet(&mut e, &wiz).concentration.is_none());
}
