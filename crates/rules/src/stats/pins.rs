//! Pins the whole output of [`effective_stats`] over many generated sheets, so a rewrite of the
//! pipeline (for speed) provably changes nothing: every value, every source and its order, every
//! note. Each case is built from a fixed pseudo-random sequence (base, equipment, conditions,
//! effects, with sources drawn from a small pool so duplicates occur); its serialized result is
//! hashed and compared with `pins.txt`, generated from the pipeline as it was before. An intended
//! change of the output regenerates the file with `TABLETOP_UPDATE_PINS=1`.

use super::*;
use crate::abilities::AbilityScores;
use crate::modifiers::{DiceCount, RangeBand};
use crate::vocab::DamageType;

/// How many generated cases are pinned.
const CASES: u64 = 1500;

/// splitmix64: a stable sequence independent of any crate's versioned algorithms.
struct Gen(u64);

impl Gen {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// 0..n.
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn int(&mut self, lo: i32, hi: i32) -> i32 {
        lo + i32::try_from(self.below(u64::try_from(hi - lo + 1).unwrap())).unwrap()
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[usize::try_from(self.below(items.len() as u64)).unwrap()]
    }

    fn subset<T: Copy + Ord>(&mut self, items: &[T], percent: u64) -> BTreeSet<T> {
        items
            .iter()
            .copied()
            .filter(|_| self.chance(percent))
            .collect()
    }
}

const SOURCES: &[&str] = &[
    "Bless",
    "Ring of Protection",
    "Haste",
    "poisoned",
    "Dwarven Resilience (hill dwarf)",
    "Belt of Hill Giant Strength",
    "Slow",
    "Shield of Faith",
];

fn target(g: &mut Gen) -> RollTarget {
    match g.below(9) {
        0 => RollTarget::AttackRolls,
        1 => RollTarget::AllSaves,
        2 => RollTarget::Save {
            ability: g.pick(Ability::ALL),
        },
        3 => RollTarget::AllChecks,
        4 => RollTarget::AbilityChecks {
            ability: g.pick(Ability::ALL),
        },
        5 => RollTarget::SkillChecks {
            skill: g.pick(Skill::ALL),
        },
        6 => RollTarget::Initiative,
        7 => RollTarget::ConcentrationSaves,
        _ => RollTarget::DeathSaves,
    }
}

fn range(g: &mut Gen) -> RangeBand {
    g.pick(&[RangeBand::Any, RangeBand::Within5Ft, RangeBand::Beyond5Ft])
}

fn damage_type(g: &mut Gen) -> Option<DamageType> {
    g.chance(80).then(|| g.pick(DamageType::ALL))
}

fn dice(g: &mut Gen) -> DiceCount {
    DiceCount::new(u32::try_from(g.int(1, 3)).unwrap(), g.pick(&[4, 6, 8, 10]))
}

fn modifier(g: &mut Gen) -> Modifier {
    let kind = match g.below(27) {
        0 => ModifierKind::AcBonus {
            amount: g.int(-2, 3),
        },
        1 => ModifierKind::AbilityBonus {
            ability: g.pick(Ability::ALL),
            amount: g.int(-12, 12),
        },
        2 => ModifierKind::AbilitySetTo {
            ability: g.pick(Ability::ALL),
            score: u8::try_from(g.int(8, 29)).unwrap(),
        },
        3 => ModifierKind::SpeedBonus {
            feet: g.int(-40, 30),
        },
        4 => ModifierKind::SpeedMultiplier {
            factor: u32::try_from(g.int(0, 3)).unwrap(),
        },
        5 => ModifierKind::SpeedHalved,
        6 => ModifierKind::SpeedZero,
        7 => ModifierKind::RollBonus {
            on: target(g),
            amount: g.int(-3, 3),
        },
        8 => ModifierKind::RollDice {
            on: target(g),
            dice: dice(g),
            subtract: g.chance(30),
        },
        9 => ModifierKind::Advantage { on: target(g) },
        10 => ModifierKind::Disadvantage { on: target(g) },
        11 => ModifierKind::AutoFailSave {
            ability: g.pick(Ability::ALL),
        },
        12 => ModifierKind::DamageBonus {
            amount: g.int(-2, 4),
        },
        13 => ModifierKind::ExtraDamage {
            dice: dice(g),
            damage_type: g.pick(DamageType::ALL),
        },
        14 => ModifierKind::AttackedWithAdvantage { range: range(g) },
        15 => ModifierKind::AttackedWithDisadvantage { range: range(g) },
        16 => ModifierKind::CritWithin5Ft,
        17 => ModifierKind::Resistance {
            damage_type: damage_type(g),
        },
        18 => ModifierKind::Immunity {
            damage_type: damage_type(g),
        },
        19 => ModifierKind::Vulnerability {
            damage_type: damage_type(g),
        },
        20 | 21 => ModifierKind::ConditionImmunity {
            condition: g.pick(Condition::ALL),
        },
        22 => ModifierKind::MaxHpBonus {
            amount: g.int(-30, 20),
        },
        23 => ModifierKind::MaxHpHalved,
        24 => ModifierKind::Incapacitated,
        25 => ModifierKind::Dead,
        _ => ModifierKind::Note {
            text: format!("note {}", g.below(4)),
        },
    };
    Modifier::new(g.pick(SOURCES), kind)
}

fn modifiers(g: &mut Gen, max: u64) -> Vec<Modifier> {
    let n = g.below(max + 1);
    (0..n).map(|_| modifier(g)).collect()
}

fn base(g: &mut Gen) -> BaseStats {
    let mut scores = [0u8; 6];
    for s in &mut scores {
        *s = u8::try_from(if g.chance(10) {
            g.pick(&[1, 2, 29, 30])
        } else {
            g.int(3, 20)
        })
        .unwrap();
    }
    let mut b = BaseStats::character(
        u32::try_from(g.int(1, 20)).unwrap(),
        AbilityScores::new(scores),
    )
    .unwrap();
    if g.chance(15) {
        b.level = 0;
    }
    b.save_proficiencies = g.subset(Ability::ALL, 30);
    for &k in Skill::ALL {
        if g.chance(35) {
            let p = g.pick(&[
                ProficiencyLevel::None,
                ProficiencyLevel::Half,
                ProficiencyLevel::Proficient,
                ProficiencyLevel::Expertise,
            ]);
            b.skill_proficiencies.insert(k, p);
        }
    }
    if g.chance(25) {
        b.half_proficiency = g.subset(Ability::ALL, 50);
    }
    if g.chance(60) {
        b.armor_class = ArmorClass {
            value: g.int(10, 20),
            source: g
                .pick(&["chain mail", "natural armor", "10 + DEX"])
                .to_string(),
        };
    }
    b.speed = u32::try_from(g.int(0, 12) * 5).unwrap();
    b.max_hp = u32::try_from(g.int(1, 150)).unwrap();
    b.size = g.pick(Size::ALL);
    b.resistances = g.subset(DamageType::ALL, 8);
    b.immunities = g.subset(DamageType::ALL, 5);
    b.vulnerabilities = g.subset(DamageType::ALL, 4);
    b.condition_immunities = g.subset(Condition::ALL, 6);
    b.traits = modifiers(g, 4);
    b
}

fn condition_set(g: &mut Gen) -> ConditionSet {
    let percent = if g.chance(30) { 0 } else { 15 };
    let mut set: ConditionSet = g.subset(Condition::ALL, percent).into_iter().collect();
    if g.chance(25) {
        set.set_exhaustion(u32::try_from(g.int(1, 6)).unwrap())
            .unwrap();
    }
    set
}

/// FNV-1a, 64 bits: stable across Rust versions (unlike `DefaultHasher`).
fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The cases' inputs, in order.
fn cases() -> Vec<(BaseStats, Vec<Modifier>, ConditionSet, Vec<Modifier>)> {
    let mut g = Gen(0x7ab1_e70b);
    (0..CASES)
        .map(|i| {
            let b = base(&mut g);
            // Some cases have no equipment, conditions or effects at all (the common sheet).
            let bare = i % 5 == 0;
            let equipment = if bare {
                Vec::new()
            } else {
                modifiers(&mut g, 4)
            };
            let conditions = if bare {
                ConditionSet::new()
            } else {
                condition_set(&mut g)
            };
            let effects = if bare {
                Vec::new()
            } else {
                modifiers(&mut g, 5)
            };
            (b, equipment, conditions, effects)
        })
        .collect()
}

fn rendered(e: &EffectiveStats) -> String {
    // The serialized form and the explanation: both must stay byte-identical.
    format!("{}\n{}", serde_json::to_string(e).unwrap(), e.explain())
}

#[test]
fn effective_stats_output_is_pinned_for_generated_sheets() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/stats/pins.txt");
    let mut lines = Vec::new();
    let mut rendered_cases = Vec::new();
    for (i, (b, eq, cs, ef)) in cases().iter().enumerate() {
        let e = effective_stats(b, eq, cs, ef);
        let text = rendered(&e);
        lines.push(format!("{i} {:016x}", fnv(text.as_bytes())));
        rendered_cases.push((text, b.clone(), eq.clone(), cs.clone(), ef.clone()));
    }
    if std::env::var_os("TABLETOP_UPDATE_PINS").is_some() {
        std::fs::write(path, lines.join("\n") + "\n").unwrap();
        return;
    }
    let pinned = std::fs::read_to_string(path).expect("pins.txt");
    let pinned: Vec<&str> = pinned.lines().collect();
    assert_eq!(pinned.len(), lines.len(), "number of pinned cases");
    for (i, (want, got)) in pinned.iter().zip(&lines).enumerate() {
        let (text, b, eq, cs, ef) = &rendered_cases[i];
        assert_eq!(
            *want, got,
            "case {i} changed:\n{text}\nbase {b:?}\nequipment {eq:?}\nconditions {cs:?}\neffects {ef:?}"
        );
    }
}

#[test]
fn generated_cases_reach_every_branch() {
    // The pins are only worth as much as the cases: every kind of output occurs in some case.
    let mut seen = BTreeSet::new();
    for (b, eq, cs, ef) in cases() {
        let e = effective_stats(&b, &eq, &cs, &ef);
        let mut flag = |name: &'static str, on: bool| {
            if on {
                seen.insert(name);
            }
        };
        flag(
            "clamped",
            e.abilities
                .values()
                .any(|a| a.sources.iter().any(|c| c.source == "score limit 1–30")),
        );
        flag(
            "set_to",
            e.abilities
                .values()
                .any(|a| a.sources.iter().any(|c| c.source.contains("(becomes"))),
        );
        flag("speed_zero", e.is_speed_zero());
        flag(
            "speed_multiplied",
            e.speed.sources.iter().any(|c| c.source.contains('×')),
        );
        flag(
            "speed_negative",
            e.speed
                .sources
                .iter()
                .any(|c| c.source == "speed cannot be negative"),
        );
        flag(
            "max_hp_halved",
            e.max_hp
                .sources
                .iter()
                .any(|c| c.source.contains("(halved)")),
        );
        flag(
            "max_hp_min",
            e.max_hp.sources.iter().any(|c| c.source == "minimum 1"),
        );
        flag(
            "con_change",
            e.max_hp
                .sources
                .iter()
                .any(|c| c.source.starts_with("CON modifier")),
        );
        flag(
            "auto_fail",
            e.saves.values().any(|s| !s.auto_fail.is_empty()),
        );
        flag(
            "advantage",
            e.skills.values().any(|s| !s.advantage.is_empty()),
        );
        flag(
            "disadvantage",
            e.saves.values().any(|s| !s.disadvantage.is_empty()),
        );
        flag("dice", e.attack.dice.iter().any(|d| d.subtract));
        flag(
            "passive_adv",
            e.passive_perception
                .sources
                .iter()
                .any(|c| c.source.starts_with("advantage")),
        );
        flag(
            "passive_dis",
            e.passive_perception
                .sources
                .iter()
                .any(|c| c.source.starts_with("disadvantage")),
        );
        flag(
            "half_prof",
            e.initiative
                .sources
                .iter()
                .any(|c| c.source == "half proficiency"),
        );
        flag(
            "expertise",
            e.skills
                .values()
                .any(|s| s.sources.iter().any(|c| c.source == "expertise")),
        );
        flag(
            "damage",
            e.damage.bonus != 0 && !e.damage.extra_dice.is_empty(),
        );
        flag(
            "attacked",
            !e.attacks_against.advantage.is_empty() && !e.attacks_against.disadvantage.is_empty(),
        );
        flag("crit", !e.attacks_against.crit_within_5_ft.is_empty());
        flag(
            "defenses",
            !e.defenses.resistances.is_empty()
                && !e.defenses.immunities.is_empty()
                && !e.defenses.vulnerabilities.is_empty(),
        );
        flag(
            "cond_immune_multi",
            e.condition_immunities.values().any(|v| v.len() > 1),
        );
        flag(
            "cond_immune_from_condition",
            e.condition_immunities
                .values()
                .any(|v| v.iter().any(|s| s == "petrified")),
        );
        flag(
            "conditions",
            e.conditions.iter().any(|c| c.contains("(from")),
        );
        flag("suspended", cs.iter().any(|c| e.is_immune_to(c)));
        flag("incapacitated", e.is_incapacitated());
        flag("dead", e.is_dead());
        flag("notes", e.notes.len() > 1);
        flag(
            "exhaustion",
            e.speed
                .sources
                .iter()
                .any(|c| c.source.starts_with("exhaustion")),
        );
    }
    assert_eq!(seen.len(), 28, "branches reached: {seen:?}");
}

#[test]
fn traits_passed_apart_give_the_same_sheet_as_traits_in_the_base() {
    for (i, (b, eq, cs, ef)) in cases().iter().enumerate().take(400) {
        let split = i % (b.traits.len() + 1);
        let mut rest = b.clone();
        let prefix: Vec<Modifier> = rest.traits.drain(..split).collect();
        assert_eq!(
            effective_stats_with_traits(&prefix, &rest, eq, cs, ef),
            effective_stats(b, eq, cs, ef),
            "case {i}"
        );
        for &a in Ability::ALL {
            assert_eq!(
                equipped_score_with_traits(&prefix, &rest, eq, a),
                equipped_score(b, eq, a),
                "case {i} {a}"
            );
        }
    }
}
