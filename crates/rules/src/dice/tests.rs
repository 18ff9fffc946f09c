//! Tests of the whole dice engine: grammar, semantics, limits, errors and properties.

use proptest::prelude::*;

use super::*;
use crate::{DamageType, ScriptedRoller};

fn norm(s: &str) -> String {
    match parse(s) {
        Ok(e) => e.normalized(),
        Err(e) => panic!("'{s}' failed to parse: {e}"),
    }
}

fn roll_with(s: &str, faces: &[u32]) -> DiceRoll {
    let mut r = ScriptedRoller::new(faces.to_vec());
    roll(s, &mut r).unwrap()
}

fn err(s: &str) -> String {
    match parse(s) {
        Ok(e) => panic!("'{s}' parsed as '{e}' but should fail"),
        Err(e) => e.to_string(),
    }
}

// ---------------------------------------------------------------- grammar

#[test]
fn basic_notation_normalizes() {
    for (input, expected) in [
        ("1d20", "1d20"),
        ("d20", "1d20"),
        ("D20", "1d20"),
        ("d%", "1d100"),
        ("2D%", "2d100"),
        ("3", "3"),
        (" 2d6 + 3 ", "2d6 + 3"),
        ("1d8+2d6+3", "1d8 + 2d6 + 3"),
        ("1d20-1", "1d20 - 1"),
        ("1d4+1d4+1d4+1d4+1d4", "1d4 + 1d4 + 1d4 + 1d4 + 1d4"),
        ("\t1d6\n*2", "1d6 * 2"),
    ] {
        assert_eq!(norm(input), expected, "{input}");
    }
}

#[test]
fn keep_and_drop_forms() {
    for (input, expected) in [
        ("4d6kh3", "4d6kh3"),
        ("4d6k3", "4d6kh3"),
        ("4d6 kh 3", "4d6kh3"),
        ("4D6KH3", "4d6kh3"),
        ("4d6dl1", "4d6dl1"),
        ("4d6 dl 1", "4d6dl1"),
        ("4d6dh1", "4d6dh1"),
        ("2d20kl1", "2d20kl1"),
        ("2d20kh", "2d20kh1"),
        ("2d20k", "2d20kh1"),
    ] {
        assert_eq!(norm(input), expected, "{input}");
    }
}

#[test]
fn reroll_explode_min_max_forms() {
    for (input, expected) in [
        ("1d6r1", "1d6r1"),
        ("1d6ro1", "1d6r1"),
        ("1d6rr1", "1d6rr1"),
        ("1d6r<3", "1d6r<3"),
        ("1d6r>5", "1d6r>5"),
        ("1d6r=2", "1d6r2"),
        ("1d6r<=2", "1d6r<=2"),
        ("1d6rr >= 5", "1d6rr>=5"),
        ("1d6!", "1d6!"),
        ("1d6e", "1d6!"),
        ("1d6!>5", "1d6!>5"),
        ("1d6e6", "1d6!6"),
        ("2d6min2", "2d6min2"),
        ("2d6mi2", "2d6min2"),
        ("2d6 max 5", "2d6max5"),
        ("2d6ma5", "2d6max5"),
        // Any input order; canonical order is reroll, explode, min, max, keep/drop.
        ("4d6kh3r1!", "4d6r1!kh3"),
        ("1d6emin2", "1d6!min2"),
        ("4d6 max5 min2 dl1 ro1", "4d6r1min2max5dl1"),
    ] {
        assert_eq!(norm(input), expected, "{input}");
    }
}

#[test]
fn arithmetic_forms() {
    for (input, expected) in [
        ("2d6*2", "2d6 * 2"),
        ("(1d6+2)/2", "(1d6 + 2) / 2"),
        ("-1d4", "-1d4"),
        ("-(1d6+2)", "-1d6 - 2"),
        ("(1d6+2)", "1d6 + 2"),
        ("10-(1d4-1)", "10 - 1d4 + 1"),
        ("2*(3+1d4)", "2 * (3 + 1d4)"),
        ("-3*2", "-3 * 2"),
        ("-(3*2)", "-(3 * 2)"),
        ("1--3*2", "1 - -3 * 2"),
        ("2*-(-3)", "2 * --3"),
        ("+5", "5"),
        ("8/2/2", "8 / 2 / 2"),
        ("8/(2/2)", "8 / (2 / 2)"),
    ] {
        assert_eq!(norm(input), expected, "{input}");
        assert_eq!(norm(expected), expected, "{expected} is not stable");
    }
}

#[test]
fn tag_forms() {
    for (input, expected) in [
        ("1d8[slashing]+2d6[fire]+3", "1d8[slashing] + 2d6[fire] + 3"),
        ("2d6[FIRE]", "2d6[fire]"),
        ("2d6 [ Fire ]", "2d6[fire]"),
        ("(2d6*2)[fire]", "(2d6 * 2)[fire]"),
        ("3[fire]", "3[fire]"),
        ("4d6kh3[force]", "4d6kh3[force]"),
        ("-(1d6[fire]+2)", "-1d6[fire] - 2"),
        ("(1d6+2)[fire]", "(1d6 + 2)[fire]"),
        ("-(2d6*2)[fire]", "-(2d6 * 2)[fire]"),
    ] {
        assert_eq!(norm(input), expected, "{input}");
        assert_eq!(norm(expected), expected, "{expected} is not stable");
    }
}

// ---------------------------------------------------------------- semantics

#[test]
fn arithmetic_values() {
    for (input, total) in [
        ("2+3*4", 14),
        ("(2+3)*4", 20),
        ("-2*3", -6),
        ("7/2", 3),
        ("-7/2", -4),
        ("7/-2", -4),
        ("-7/-2", 3),
        ("6/3", 2),
        ("-6/3", -2),
        ("10-(1-1)", 10),
        ("1--3*2", 7),
        ("8/2/2", 2),
        ("8/(2/2)", 8),
    ] {
        assert_eq!(roll_with(input, &[1]).total, total, "{input}");
    }
    assert_eq!(roll_with("2d6*2", &[3, 4]).total, 14);
    assert_eq!(roll_with("(1d6+2)/2", &[5]).total, 3);
    assert_eq!(roll_with("-1d4", &[3]).total, -3);
    assert_eq!(roll_with("1d8+2d6+3", &[5, 3, 6]).total, 17);
}

#[test]
fn four_d6_keep_highest_three_drops_the_lowest() {
    let r = roll_with("4d6kh3", &[6, 1, 4, 3]);
    assert_eq!(r.total, 13);
    let t = &r.terms[0];
    assert_eq!(t.dice.iter().filter(|d| !d.kept).count(), 1);
    assert!(!t.dice[1].kept && t.dice[1].value == 1);
    assert_eq!(r.summary(), "4d6kh3: [6, ~~1~~, 4, 3] = 13");
    let r = roll_with("4d6dl1", &[6, 1, 4, 3]);
    assert_eq!(r.total, 13);
    assert_eq!(
        r.terms[0].dice.iter().map(|d| d.kept).collect::<Vec<_>>(),
        [true, false, true, true]
    );
}

#[test]
fn keep_variants_and_ties() {
    assert_eq!(roll_with("2d20kl1", &[15, 4]).total, 4);
    assert_eq!(roll_with("4d6dh1", &[6, 1, 4, 3]).total, 8);
    assert_eq!(roll_with("3d6kl2", &[5, 2, 3]).total, 5);
    // Ties keep the earlier die.
    let r = roll_with("2d20kh1", &[7, 7]);
    assert_eq!(
        r.terms[0].dice.iter().map(|d| d.kept).collect::<Vec<_>>(),
        [true, false]
    );
    let r = roll_with("3d6dl1", &[2, 5, 2]);
    assert_eq!(
        r.terms[0].dice.iter().map(|d| d.kept).collect::<Vec<_>>(),
        [true, true, false]
    );
    // Dropping every die is allowed and totals 0.
    assert_eq!(roll_with("2d6dl2", &[3, 4]).total, 0);
}

#[test]
fn reroll_once_and_until() {
    // r / ro rerolls once, even if the new face matches again.
    let r = roll_with("1d6r1", &[1, 1, 5]);
    let d = &r.terms[0].dice[0];
    assert_eq!(
        (d.value, d.rerolled, d.replaced.clone()),
        (1, true, vec![1])
    );
    assert_eq!(roll_with("1d6r<3", &[2, 5]).total, 5);
    assert_eq!(roll_with("1d6r>4", &[5, 2]).total, 2);
    assert_eq!(roll_with("1d6r=3", &[3, 4]).total, 4);
    assert!(!roll_with("1d6r1", &[4]).terms[0].dice[0].rerolled);
    // rr rerolls until no match.
    let r = roll_with("1d6rr1", &[1, 1, 1, 4]);
    let d = &r.terms[0].dice[0];
    assert_eq!((d.value, d.replaced.clone()), (4, vec![1, 1, 1]));
    assert_eq!(r.summary(), "1d6rr1: [1→1→1→4] = 4");
    assert!(!r.terms[0].capped);
    // Great Weapon Fighting.
    assert_eq!(roll_with("2d6r<3", &[1, 6, 2, 5]).total, 11);
}

#[test]
fn reroll_is_capped() {
    let mut roller = ScriptedRoller::new(vec![1]);
    let r = roll("1d6rr1", &mut roller).unwrap();
    let d = &r.terms[0].dice[0];
    assert_eq!(d.replaced.len(), MAX_REROLLS_PER_DIE as usize);
    assert_eq!(d.value, 1);
    assert!(r.terms[0].capped);
    assert_eq!(roller.rolled(), 1 + MAX_REROLLS_PER_DIE as usize);
    assert_eq!(
        r.summary(),
        "1d6rr1: [1 (after 100 rerolls)] = 1 (reroll/explosion cap reached)"
    );
}

#[test]
fn rerolls_are_capped_per_roll() {
    let r = roll_with("1000d6rr<6", &[1]);
    let rerolls: usize = r.terms[0].dice.iter().map(|d| d.replaced.len()).sum();
    assert_eq!(rerolls, MAX_REROLLS_PER_ROLL as usize);
    assert!(r.terms[0].capped);
}

#[test]
fn long_chains_do_not_overflow_the_stack() {
    for op in ["+", "-", "*", "/"] {
        let s = format!("1{}", format!("{op}1").repeat(127));
        let r = roll_with(&s, &[1]);
        assert!(!r.summary().is_empty());
        assert_eq!(norm(&norm(&s)), norm(&s));
    }
    let s = format!("{}1d20[fire]{}", "-(".repeat(16), ")".repeat(16));
    assert_eq!(roll_with(&s, &[20]).by_type["fire"], 20);
}

#[test]
fn explode_on_max_and_selector() {
    let r = roll_with("1d6!", &[6, 6, 2]);
    assert_eq!(r.total, 14);
    let flags: Vec<bool> = r.terms[0].dice.iter().map(|d| d.exploded).collect();
    assert_eq!(flags, [false, true, true]);
    assert_eq!(r.summary(), "1d6!: [6!, 6!, 2] = 14");
    assert_eq!(roll_with("1d6e", &[6, 3]).total, 9);
    assert_eq!(roll_with("1d6!>4", &[5, 6, 1]).total, 12);
    assert_eq!(roll_with("1d6e5", &[5, 6]).total, 11);
    assert_eq!(roll_with("2d6!", &[6, 1, 2]).total, 9);
    // Exploded dice go through rerolls too (roll → reroll → explode).
    let r = roll_with("1d6r1!", &[6, 1, 3]);
    assert_eq!(r.total, 9);
    let d = &r.terms[0].dice[1];
    assert!(d.exploded && d.rerolled && d.value == 3);
    // The face after rerolling decides the explosion.
    assert_eq!(roll_with("1d6r1!", &[1, 6, 2]).total, 8);
}

#[test]
fn explosions_are_capped_per_die_and_per_roll() {
    let r = roll_with("1d6!", &[6]);
    assert_eq!(r.terms[0].dice.len(), 1 + MAX_EXPLOSIONS_PER_DIE as usize);
    assert!(r.terms[0].capped);
    assert_eq!(r.total, 6 * 101);
    assert!(r.total <= parse("1d6!").unwrap().max_total());
    assert!(r.summary().ends_with("(reroll/explosion cap reached)"));
    // 20 dice could each add 100, but the roll as a whole adds at most MAX_EXPLODED_DICE.
    let r = roll_with("20d6!+1d4!", &[6]);
    let dice: usize = r.terms.iter().map(|t| t.dice.len()).sum();
    assert_eq!(dice, 21 + MAX_EXPLODED_DICE as usize);
    assert!(r.terms.iter().all(|t| t.capped));
}

#[test]
fn min_max_then_keep() {
    let r = roll_with("2d6min3", &[1, 5]);
    assert_eq!(r.total, 8);
    assert_eq!(r.terms[0].dice[0].clamped_from, Some(1));
    assert_eq!(r.terms[0].dice[1].clamped_from, None);
    assert_eq!(r.summary(), "2d6min3: [3 (rolled 1), 5] = 8");
    assert_eq!(roll_with("2d6max4", &[6, 2]).total, 6);
    assert_eq!(roll_with("2d6mi2ma5", &[1, 6]).total, 7);
    // Keep/drop sees the clamped values: [1→4, 3] keep lowest → 3.
    assert_eq!(roll_with("2d6min4kl1", &[1, 3]).total, 4);
    assert_eq!(roll_with("2d6kl1", &[1, 3]).total, 1);
    // Explosion looks at the face before max: 6 explodes, then counts as 5.
    assert_eq!(roll_with("1d6!max5", &[6, 2]).total, 7);
}

#[test]
fn damage_types_break_down() {
    let r = roll_with("1d8[slashing]+2d6[fire]", &[5, 3, 6]);
    assert_eq!(r.total, 14);
    assert_eq!(
        r.summary(),
        "1d8[slashing] + 2d6[fire]: [5] slashing + [3, 6] fire = 14 (slashing 5, fire 9)"
    );
    assert_eq!(r.by_type.get("slashing"), Some(&5));
    assert_eq!(r.by_type.get("fire"), Some(&9));
    assert_eq!(
        r.damage_by_type(),
        vec![(Some(DamageType::Slashing), 5), (Some(DamageType::Fire), 9)]
    );
    assert_eq!(r.terms[1].damage_type, Some(DamageType::Fire));

    let r = roll_with("1d8[slashing]+2d6[fire]+3", &[5, 3, 6]);
    assert_eq!(r.by_type.get("untyped"), Some(&3));
    assert_eq!(r.by_type.values().sum::<i64>(), r.total);
    assert!(
        r.summary()
            .ends_with("= 17 (slashing 5, fire 9, untyped 3)"),
        "{}",
        r.summary()
    );

    let r = roll_with("2d6[fire]-1+1d4[fire]", &[3, 4, 2]);
    assert_eq!(
        (r.by_type["fire"], r.by_type["untyped"], r.total),
        (9, -1, 8)
    );

    let r = roll_with("(2d6*2)[fire]+1", &[3, 4]);
    assert_eq!((r.by_type["fire"], r.total), (14, 15));
    assert_eq!(
        r.summary(),
        "(2d6 * 2)[fire] + 1: ([3, 4] * 2) fire + 1 = 15 (fire 14, untyped 1)"
    );

    // Without tags there is no breakdown.
    let r = roll_with("1d8+3", &[5]);
    assert!(r.by_type.is_empty());
    assert_eq!(r.damage_by_type(), vec![(None, 8)]);
}

#[test]
fn tag_errors_are_clear() {
    let e = err("1d6[fier]");
    assert!(
        e.contains("did you mean 'fire'") && e.contains("position 4"),
        "{e}"
    );
    let e = err("2d6[fire]*2");
    assert!(
        e.contains("'[fire]' at position 4") && e.contains("(2d6*2)[fire]"),
        "{e}"
    );
    assert!(err("(1d6[fire]+1)[cold]").contains("'[fire]'"));
    assert!(err("2*(1d6[fire])").contains("not on a whole added term"));
    assert!(err("1d6[fire").contains("never closed"));
    assert!(err("1d6[fire][cold]").contains("one damage tag"));
    assert!(err("1d6[]").contains("unknown damage type"));
}

#[test]
fn natural_twenty_and_one() {
    let nat = |s: &str, faces: &[u32]| roll_with(s, faces).natural;
    assert_eq!(nat("1d20", &[20]), Some(Natural::Twenty));
    assert_eq!(nat("1d20", &[1]), Some(Natural::One));
    assert_eq!(nat("1d20", &[10]), None);
    assert_eq!(nat("1d20+5", &[20]), Some(Natural::Twenty));
    assert_eq!(nat("d20 - 2", &[1]), Some(Natural::One));
    assert_eq!(nat("2d20kh1+3", &[20, 5]), Some(Natural::Twenty));
    assert_eq!(nat("2d20kh1+3", &[1, 5]), None);
    assert_eq!(nat("2d20kl1", &[1, 20]), Some(Natural::One));
    assert_eq!(nat("1d20+1d4", &[20, 4]), Some(Natural::Twenty));
    assert_eq!(nat("2d20", &[20, 5]), None);
    assert_eq!(nat("1d20+1d20", &[20, 20]), None);
    assert_eq!(nat("1d6", &[1]), None);
    assert_eq!(nat("1d20min10", &[1]), Some(Natural::One));
    let r = roll_with("1d20+5", &[20]);
    assert_eq!(r.summary(), "1d20 + 5: [20] + 5 = 25 (natural 20)");
}

#[test]
fn advantage_and_disadvantage() {
    let e = parse("1d20+5").unwrap();
    assert_eq!(
        e.with_d20_mode(D20Mode::Advantage).unwrap().normalized(),
        "2d20kh1 + 5"
    );
    assert_eq!(
        e.with_d20_mode(D20Mode::Disadvantage).unwrap().normalized(),
        "2d20kl1 + 5"
    );
    assert_eq!(e.with_d20_mode(D20Mode::Normal).unwrap(), e);
    let lucky = parse("1d20r1+2")
        .unwrap()
        .with_d20_mode(D20Mode::Advantage)
        .unwrap();
    assert_eq!(lucky.normalized(), "2d20r1kh1 + 2");
    let first = parse("1d4+1d20+1d20")
        .unwrap()
        .with_d20_mode(D20Mode::Advantage)
        .unwrap();
    assert_eq!(first.normalized(), "1d4 + 2d20kh1 + 1d20");
    let r = e
        .with_d20_mode(D20Mode::Advantage)
        .unwrap()
        .roll(&mut ScriptedRoller::new([4, 20]));
    assert_eq!(r.unwrap().natural, Some(Natural::Twenty));

    let e = parse("2d6")
        .unwrap()
        .with_d20_mode(D20Mode::Advantage)
        .unwrap_err()
        .to_string();
    assert!(e.contains("no plain 1d20 to roll with advantage"), "{e}");
    assert!(
        parse("2d20kh1")
            .unwrap()
            .with_d20_mode(D20Mode::Disadvantage)
            .is_err()
    );
    let e = parse("999d6+1d20")
        .unwrap()
        .with_d20_mode(D20Mode::Advantage)
        .unwrap_err();
    assert!(
        matches!(e, DiceError::TooManyDice { count: 1001, .. }),
        "{e}"
    );

    assert_eq!(D20Mode::from_sources(false, false), D20Mode::Normal);
    assert_eq!(D20Mode::from_sources(true, false), D20Mode::Advantage);
    assert_eq!(D20Mode::from_sources(false, true), D20Mode::Disadvantage);
    assert_eq!(D20Mode::from_sources(true, true), D20Mode::Normal);
    assert_eq!(
        serde_json::to_string(&D20Mode::Advantage).unwrap(),
        "\"advantage\""
    );
    let m: D20Mode = serde_json::from_str("\"disadvantage\"").unwrap();
    assert_eq!(m, D20Mode::Disadvantage);
}

#[test]
fn doubled_dice_for_crits() {
    let e = parse("1d8[slashing]+3")
        .unwrap()
        .with_doubled_dice()
        .unwrap();
    assert_eq!(e.normalized(), "2d8[slashing] + 3");
    assert_eq!(
        parse("4d6dl1")
            .unwrap()
            .with_doubled_dice()
            .unwrap()
            .normalized(),
        "8d6dl2"
    );
    assert!(matches!(
        parse("600d6").unwrap().with_doubled_dice(),
        Err(DiceError::TooManyDice { count: 1200, .. })
    ));
}

#[test]
fn bounds() {
    let b = |s: &str| {
        let e = parse(s).unwrap();
        (e.min_total(), e.max_total())
    };
    assert_eq!(b("1d20+5"), (6, 25));
    assert_eq!(b("4d6kh3"), (3, 18));
    assert_eq!(b("4d6dl1"), (3, 18));
    assert_eq!(b("2d6min2max5"), (4, 10));
    assert_eq!(b("-1d4"), (-4, -1));
    assert_eq!(b("(1d6+2)/2"), (1, 4));
    assert_eq!(b("10/(1d3-2)"), (-10, 10));
    assert_eq!(b("1d6!"), (1, 606));
    assert_eq!(b("2d6!kh1"), (1, 6));
    assert_eq!(b("(1d8*1)[fire]+2"), (3, 10));
    assert_eq!(parse("3d6").unwrap().dice_count(), 3);
    assert_eq!(parse("1d8+2d6+4d4kh1").unwrap().dice_count(), 7);
}

#[test]
fn json_shape_is_lean() {
    let r = roll_with("4d6kh3", &[6, 1, 4, 3]);
    let v = serde_json::to_value(&r).unwrap();
    assert_eq!(v["expression"], "4d6kh3");
    assert_eq!(v["total"], 13);
    assert!(v.get("byType").is_none() && v.get("natural").is_none());
    assert_eq!(
        v["terms"][0]["dice"][1],
        serde_json::json!({"faces": 6, "value": 1, "kept": false})
    );
    assert!(v["terms"][0].get("op").is_none());

    let r = roll_with("1d6rr1!+2d6[fire]-1", &[6, 1, 2, 3, 4]);
    let v = serde_json::to_value(&r).unwrap();
    assert_eq!(v["byType"], serde_json::json!({"fire": 7, "untyped": 7}));
    assert_eq!(v["terms"][0]["dice"][1]["exploded"], true);
    assert_eq!(v["terms"][0]["dice"][1]["rerolled"], true);
    assert_eq!(v["terms"][0]["dice"][1]["replaced"], serde_json::json!([1]));
    assert_eq!(v["terms"][1]["damageType"], "fire");
    assert_eq!(v["terms"][1]["op"], "+");
    assert_eq!(v["terms"][2]["op"], "-");
    let back: DiceRoll = serde_json::from_value(v).unwrap();
    assert_eq!(back, r);
    assert_eq!(back.summary(), r.summary());

    let r = roll_with("1d20", &[20]);
    assert_eq!(serde_json::to_value(&r).unwrap()["natural"], "twenty");
    let r = roll_with("2d6min3", &[1, 4]);
    assert_eq!(
        serde_json::to_value(&r).unwrap()["terms"][0]["dice"][0]["clampedFrom"],
        1
    );

    let e: DiceExpr = serde_json::from_str("\"4D6 kh3\"").unwrap();
    assert_eq!(serde_json::to_string(&e).unwrap(), "\"4d6kh3\"");
    assert!(serde_json::from_str::<DiceExpr>("\"4d6x\"").is_err());
}

#[test]
fn summary_renders_structure() {
    assert_eq!(
        roll_with("(1d6+2)/2", &[4]).summary(),
        "(1d6 + 2) / 2: ([4] + 2) / 2 = 3"
    );
    assert_eq!(
        roll_with("-1d4+10", &[3]).summary(),
        "-1d4 + 10: -[3] + 10 = 7"
    );
    assert_eq!(roll_with("5", &[]).summary(), "5: 5 = 5");
    let r = roll_with("1d6rr1", &[1, 1, 1, 1, 5]);
    assert_eq!(r.summary(), "1d6rr1: [5 (after 4 rerolls)] = 5");
    let r = roll_with("3d6!kh2", &[6, 1, 2, 3]);
    assert_eq!(r.summary(), "3d6!kh2: [6!, ~~1~~, ~~2~~, 3] = 9");
    // A roll whose expression cannot be re-read still summarises.
    let mut r = roll_with("1d6+2", &[4]);
    r.expression = "garbage(".into();
    assert_eq!(r.summary(), "garbage(: [4] + 2 = 6");
}

#[test]
fn term_ops_follow_the_text() {
    let r = roll_with("1d20+5-1d4*2/1", &[10, 2]);
    let ops: Vec<Option<TermOp>> = r.terms.iter().map(|t| t.op).collect();
    use TermOp::*;
    assert_eq!(ops, [None, Some(Add), Some(Sub), Some(Mul), Some(Div)]);
    assert_eq!(
        r.terms
            .iter()
            .map(|t| t.notation.as_str())
            .collect::<Vec<_>>(),
        ["1d20", "5", "1d4", "2", "1"]
    );
    assert_eq!(r.total, 11);
    assert_eq!(roll_with("-3", &[]).terms[0].op, Some(Sub));
}

#[test]
fn same_seed_same_rolls() {
    let a = roll("8d6!+4d20kh2+1d100", &mut DiceRng::from_seed(2024)).unwrap();
    let b = roll("8d6!+4d20kh2+1d100", &mut DiceRng::from_seed(2024)).unwrap();
    assert_eq!(a, b);
    let mut rng = DiceRng::from_seed(5);
    let first = roll("10d10", &mut rng).unwrap();
    let saved = serde_json::to_string(&rng.state()).unwrap();
    let next = roll("10d10", &mut rng).unwrap();
    let mut resumed = DiceRng::restore(&serde_json::from_str(&saved).unwrap()).unwrap();
    assert_eq!(roll("10d10", &mut resumed).unwrap(), next);
    assert_ne!(first.terms[0].dice, next.terms[0].dice);
}

// ---------------------------------------------------------------- limits and errors

#[test]
fn dice_limit() {
    assert_eq!(parse("1000d6").unwrap().dice_count(), 1000);
    let e = err("1001d6");
    assert!(
        e.contains("rolls 1001 dice") && e.contains("limit is 1000"),
        "{e}"
    );
    let e = err("500d6+501d6");
    assert!(e.contains("rolls 1001 dice"), "{e}");
    assert!(err("99999999999999999999999d6").contains("limit is 1000"));
    let e = err("0d6");
    assert!(e.contains("rolls no dice") && e.contains("1d6"), "{e}");
}

#[test]
fn faces_limit() {
    assert!(parse("1d10000").is_ok());
    let e = err("1d10001");
    assert!(
        e.contains("d10001 at position 2") && e.contains("between 1 and 10000"),
        "{e}"
    );
    assert!(err("1d0").contains("between 1 and 10000"));
    assert!(err("d999999999999999999999999").contains("between 1 and 10000"));
}

#[test]
fn length_limit() {
    let ok = format!("1{}", "+1".repeat(127));
    assert_eq!(ok.chars().count(), 255);
    assert!(parse(&ok).is_ok());
    let long = format!("1{}", " ".repeat(256));
    let e = err(&long);
    assert!(
        e.contains("257 characters") && e.contains("limit is 256"),
        "{e}"
    );
    assert!(
        parse(&"é".repeat(200))
            .unwrap_err()
            .to_string()
            .contains("unexpected 'é'")
    );
    // Canonical text longer than the limit is accepted back, anything else is not.
    let input = format!("d%{}", "+d%".repeat(85));
    assert_eq!(input.chars().count(), 257);
    assert!(err(&input).contains("257 characters"));
    let input = format!("d%{}", "+d%".repeat(84));
    let canonical = norm(&input);
    assert!(canonical.chars().count() > 600);
    assert_eq!(norm(&canonical), canonical);
    assert!(err(&format!("{canonical} ")).contains("characters long"));
    assert!(err(&canonical.replace("1d100", "1D100")).contains("characters long"));
}

#[test]
fn keep_count_limit() {
    let e = err("4d6kh5");
    assert!(
        e.contains("'kh5' at position 4")
            && e.contains("keeps 5 dice but 4d6 rolls 4")
            && e.contains("from 1 to 4"),
        "{e}"
    );
    assert!(err("4d6dl5").contains("drops 5 dice"));
    assert!(err("2d20kh0").contains("keeps 0 dice"));
    assert!(err("4d6kh3kl1").contains("repeats the keep/drop"));
}

#[test]
fn modifier_errors() {
    let e = err("1d6rr<7");
    assert!(
        e.contains("matches every face of a d6") && e.contains("never stop"),
        "{e}"
    );
    assert!(err("1d6!>0").contains("explodes on every face"));
    assert!(err("1d1!").contains("cannot explode a d1"));
    assert!(err("1d6e>=1").contains("explodes on every face"));
    assert!(
        parse("1d6r<7").is_ok(),
        "a single reroll of every face is harmless"
    );
    assert!(parse("1d6r9").is_ok());
    assert!(err("1d6r").contains("needs the faces to reroll"));
    assert!(err("1d6r+1").contains("needs the faces to reroll"));
    assert!(err("1d6r<").contains("a face number after the comparison"));
    assert!(err("2d6min7").contains("use min1 to min6"));
    assert!(err("2d6max0").contains("use max1 to max6"));
    assert!(err("2d6min").contains("needs a number"));
    assert!(err("2d6min4max3").contains("min4 is above max3"));
    assert!(err("2d6min2min3").contains("repeats the min"));
    assert!(err("2d6r1r2").contains("repeats the reroll"));
    assert!(err("2d6!!").contains("repeats the explosion"));
}

#[test]
fn parse_errors_say_what_where_and_how() {
    assert_eq!(
        err("2d6x"),
        "unexpected 'x' at position 4 in '2d6x'; expected an operator (+ - * /) or a modifier such as kh1, r1, !, min2, [fire]"
    );
    assert_eq!(
        err("2d6+"),
        "unexpected end of expression at position 5 in '2d6+'; expected a number, a die such as d6, '(' or '-'"
    );
    assert!(err("").contains("empty dice expression"));
    assert!(err("   ").contains("empty dice expression"));
    assert!(err("(1d6+2").contains("'(' at position 1 in '(1d6+2' is never closed"));
    assert!(err("1d6)").contains("this ')' has no matching '('"));
    assert!(err("(1d6 2)").contains("or ')'"));
    assert!(err("d").contains("the number of faces after 'd'"));
    assert!(err("2d").contains("position 3"));
    assert!(err("3 d6").contains("'d' right after the number"));
    assert!(err("1d6 dex").contains("unexpected 'd' at position 5"));
    assert!(err("2d6 * * 2").contains("unexpected '*' at position 7"));
    assert!(err("99999999999999999999").contains("too large"));
    assert!(parse("9223372036854775807").is_ok());
    assert!(err("9000000000000000000*2").contains("64-bit integer range"));
    assert!(err("1d6/0").contains("divides by zero"));
    assert!(err("1d6/(2-2)").contains("divides by zero"));
}

#[test]
fn division_by_a_rolled_zero_is_a_roll_error() {
    let e = parse("1d6/(1d2-1)").unwrap();
    let err = e.roll(&mut ScriptedRoller::new([3, 1])).unwrap_err();
    assert!(matches!(err, DiceError::DivisionByZero { .. }), "{err}");
    assert_eq!(e.roll(&mut ScriptedRoller::new([3, 2])).unwrap().total, 3);
}

#[test]
fn nesting_limit() {
    let deep = |n: usize| format!("{}1{}", "(".repeat(n), ")".repeat(n));
    assert!(parse(&deep(MAX_NESTING)).is_ok());
    assert!(err(&deep(MAX_NESTING + 1)).contains("levels deep"));
    assert!(err(&format!("{}1", "-".repeat(100))).contains("levels deep"));
    assert_eq!(norm(&format!("{}1", "-".repeat(10))), "1");
}

// ---------------------------------------------------------------- properties

/// A valid dice group with random modifiers.
fn group() -> impl Strategy<Value = String> {
    (
        1u32..=6,
        prop::sample::select(vec![1u32, 2, 3, 4, 6, 8, 10, 12, 20, 100]),
    )
        .prop_flat_map(|(n, f)| {
            let keep = prop::option::of((
                prop::sample::select(vec!["kh", "kl", "dh", "dl", "k"]),
                1..=n,
            ));
            let reroll = prop::option::of((prop::sample::select(vec!["r", "ro", "rr"]), 1..=f));
            let explode = prop::option::of(prop::sample::select(vec!["!", "e", "!>"]));
            let min = prop::option::of(1..=f);
            (Just(n), Just(f), keep, reroll, explode, min, any::<bool>()).prop_map(
                |(n, f, keep, reroll, explode, min, max)| {
                    let mut s = format!("{n}d{f}");
                    if let Some((kind, v)) = reroll {
                        // rr must leave a face: reroll exactly one face when there are several.
                        if kind != "rr" || f > 1 {
                            s += &format!("{kind}{v}");
                        }
                    }
                    if let Some(e) = explode
                        && f > 1
                    {
                        s += if e == "!>" { "!>1" } else { e };
                    }
                    if let Some(m) = min {
                        s += &format!("min{m}");
                        if max {
                            s += &format!("max{f}");
                        }
                    }
                    if let Some((kind, k)) = keep {
                        s += &format!("{kind}{k}");
                    }
                    s
                },
            )
        })
}

/// A tag-free term built from groups, constants, operators, parentheses and unary minus; divisors
/// are never zero.
fn term() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![group(), (0i64..30).prop_map(|n| n.to_string())];
    leaf.prop_recursive(3, 12, 2, |inner| {
        // Groups without keep/drop never total 0.
        let divisor = prop_oneof![
            (1u32..4, 1u32..12).prop_map(|(n, f)| format!("{n}d{f}")),
            (1i64..10).prop_map(|n| n.to_string()),
        ];
        prop_oneof![
            (
                inner.clone(),
                prop::sample::select(vec!["+", "-", "*"]),
                inner.clone()
            )
                .prop_map(|(a, op, b)| format!("({a} {op} {b})")),
            (inner.clone(), divisor).prop_map(|(a, b)| format!("({a}/{b})")),
            inner.prop_map(|a| format!("-{a}")),
        ]
    })
}

/// A whole expression: terms joined by + or -, some tagged.
fn expression() -> impl Strategy<Value = String> {
    let tag = prop::option::of(prop::sample::select(DamageType::ALL.to_vec()));
    prop::collection::vec((any::<bool>(), term(), tag), 1..4).prop_map(|parts| {
        let mut s = String::new();
        for (i, (minus, t, tag)) in parts.into_iter().enumerate() {
            if i > 0 {
                s += if minus { "-" } else { "+" };
            }
            s += &t;
            if let Some(tag) = tag {
                s += &format!("[{tag}]");
            }
        }
        s
    })
}

proptest! {
    #[test]
    fn totals_stay_within_bounds(s in expression(), seed in any::<u64>()) {
        let e = parse(&s).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let r = e.roll(&mut DiceRng::from_seed(seed)).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert!(e.min_total() <= r.total && r.total <= e.max_total(),
            "{s}: {} not in [{}, {}]", r.total, e.min_total(), e.max_total());
        if e.has_damage_types() {
            prop_assert_eq!(r.by_type.values().sum::<i64>(), r.total);
        }
        prop_assert!(!r.summary().is_empty());
    }

    #[test]
    fn normalized_round_trips(s in expression()) {
        let e = parse(&s).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let n = e.normalized();
        let again = parse(&n).map_err(|e| TestCaseError::fail(format!("{n}: {e}")))?;
        prop_assert_eq!(&again.normalized(), &n);
        prop_assert_eq!(&again, &e);
        let upper = parse(&s.to_uppercase()).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(upper.normalized(), n);
    }

    #[test]
    fn keep_counts_are_exact(
        (n, x, m) in (1u32..=30, 1u32..=30).prop_flat_map(|(n, x)| (Just(n), Just(x), 1..=n)),
        kind in prop::sample::select(vec!["kh", "kl", "dh", "dl"]),
        seed in any::<u64>(),
    ) {
        let r = roll(&format!("{n}d{x}{kind}{m}"), &mut DiceRng::from_seed(seed)).unwrap();
        let dice = &r.terms[0].dice;
        let kept: Vec<u32> = dice.iter().filter(|d| d.kept).map(|d| d.value).collect();
        let dropped: Vec<u32> = dice.iter().filter(|d| !d.kept).map(|d| d.value).collect();
        let expect_kept = if kind.starts_with('k') { m } else { n - m };
        prop_assert_eq!(kept.len(), expect_kept as usize);
        prop_assert_eq!(dropped.len(), (n - expect_kept) as usize);
        let keeps_high = kind == "kh" || kind == "dl";
        for k in &kept {
            for d in &dropped {
                let ordered = if keeps_high { k >= d } else { k <= d };
                prop_assert!(ordered, "kept {} vs dropped {}", k, d);
            }
        }
        prop_assert_eq!(r.total, kept.iter().map(|&v| i64::from(v)).sum::<i64>());
    }

    #[test]
    fn arbitrary_strings_never_panic(s in any::<String>()) {
        exercise(&s);
    }

    #[test]
    fn dice_like_strings_never_panic(s in "[0-9dDkKhHlLrRoOeE!<>=+*/()%mainx \\[\\]-]{0,40}|[0-9d+*/()kh!\\[\\]firecold-]{0,30}") {
        exercise(&s);
    }
}

/// Parses, rolls, renders and transforms `s`; everything must return, never panic.
fn exercise(s: &str) {
    let Ok(e) = parse(s) else { return };
    let n = e.normalized();
    assert!(
        n.chars().count() <= 3 * s.chars().count(),
        "{s} grew to {n}"
    );
    assert_eq!(
        parse(&n).map(|p| p.normalized()).ok(),
        Some(n.clone()),
        "{s}"
    );
    let _ = (e.min_total(), e.max_total(), e.dice_count());
    if let Ok(r) = e.roll(&mut DiceRng::from_seed(1)) {
        assert!(e.min_total() <= r.total && r.total <= e.max_total(), "{s}");
        let _ = r.summary();
    }
    let _ = e.with_d20_mode(D20Mode::Advantage);
    let _ = e.with_doubled_dice();
}

#[test]
fn a_d1_reroll_or_explosion_does_not_suggest_the_input_again() {
    for (input, what) in [
        ("1d1rr1", "reroll"),
        ("1d1!", "explode"),
        ("3d1rr<2", "reroll"),
    ] {
        let e = err(input);
        assert!(e.contains(&format!("cannot {what} a d1")), "{input}: {e}");
        assert!(
            !e.contains("e.g. rr1") && !e.contains("e.g. !>1"),
            "{input}: {e}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    /// Hostile text of the notation's own alphabet: parsing never panics, a parsed expression
    /// rolls within its bounds, and an error never offers the failing input back as the fix.
    #[test]
    fn hostile_notation_never_panics_or_suggests_itself(
        s in "[0-9dDkKhHlLrRoO!eE<>=+*/() %,\\-\\[\\]a-z]{0,32}",
        seed in any::<u64>(),
    ) {
        match parse(&s) {
            Ok(e) => {
                if let Ok(r) = e.roll(&mut DiceRng::from_seed(seed)) {
                    prop_assert!(e.min_total() <= r.total && r.total <= e.max_total(), "{s}");
                }
            }
            Err(e) => {
                let msg = e.to_string();
                prop_assert!(!msg.is_empty());
                if let Some(example) = msg.split("e.g. ").nth(1) {
                    let example = example.split([' ', ',', ';', ')']).next().unwrap_or("");
                    let tail = s.trim().to_lowercase();
                    prop_assert!(
                        example.len() < 2 || !tail.ends_with(&example.to_lowercase()),
                        "{s}: suggests its own tail '{example}': {msg}"
                    );
                }
            }
        }
    }
}
