//! Combat spells carried out where they bite (the `spells6a` work), through the real tools with
//! the SRD configured (skipped without TABLETOP_SRD_DIR) and seeded dice.

use super::common;
use super::spell_support;

use spell_support::*;
use tabletop_engine::combat::actions::{ActionOutcome, ActionRequest, ActionType};
use tabletop_engine::error::EngineError;
use tabletop_grid::Position;

fn strike(e: &mut E, by: &str, at: &str, weapon: &str) -> Result<ActionOutcome, EngineError> {
    act(
        e,
        ActionRequest {
            actor: who(by),
            action_type: Some(ActionType::Attack),
            target: who(at),
            weapon: Some(weapon.into()),
            ..Default::default()
        },
    )
}

fn show(tag: &str, out: &Result<ActionOutcome, EngineError>) {
    match out {
        Ok(o) => eprintln!("{tag}: {:?}\n{:#?}", o.headline, o.lines),
        Err(e) => eprintln!("{tag}: ERR {e}"),
    }
}

fn names(e: &mut E, id: &str) -> Vec<String> {
    sheet(e, id)
        .effects
        .iter()
        .map(|x| x.name.clone())
        .collect()
}

#[test]
fn explore() {
    let Some(srd) = common::srd("c6_explore") else {
        return;
    };
    for seed in 1..4u64 {
        eprintln!("======== SEED {seed}");
        // Suggestion + ghoul immunity
        let dir = tempfile::tempdir().unwrap();
        let mut e = engine(&dir, &srd, seed);
        let wiz = caster(
            &mut e,
            "Wren",
            "wizard",
            5,
            &[
                "Suggestion",
                "Blink",
                "Ray of Enfeeblement",
                "Enlarge/Reduce",
            ],
        );
        let tor = caster(&mut e, "Tor", "fighter", 5, &[]);
        let order = fight(
            &mut e,
            vec![
                pc(&wiz, 5, 5, 20),
                pc(&tor, 7, 5, 15),
                monster("goblin", 1, &[(8, 5)]),
                monster("ghoul", 1, &[(5, 8)]),
            ],
        );
        let gob = id_of(&order, "Goblin");
        let ghoul = id_of(&order, "Ghoul");
        let out = cast(&mut e, &wiz, "Suggestion", |r| r.targets = vec![who(&gob)]);
        show("sugg", &out);
        advance(&mut e);
        let out = strike(&mut e, &tor, &gob, "unarmed strike");
        show("punch", &out);
        eprintln!("gob effects {:?}", names(&mut e, &gob));
        let _ = ghoul;
        let mut wz = sheet(&mut e, &wiz);
        wz.concentration = None;
        // Blink on the next round
        let r = advance(&mut e);
        eprintln!("adv {:?} {:?}", r.end_of_turn, r.start_of_turn);
        let r = advance(&mut e);
        eprintln!("adv {:?} {:?}", r.end_of_turn, r.start_of_turn);
        let r = advance(&mut e);
        eprintln!("adv {:?} {:?}", r.end_of_turn, r.start_of_turn);
        let out = cast(&mut e, &wiz, "Blink", |_| {});
        show("blink", &out);
        let r = advance(&mut e);
        eprintln!("adv end {:?} start {:?}", r.end_of_turn, r.start_of_turn);
        let out = strike(&mut e, &tor, &wiz, "unarmed strike");
        show("punch wiz", &out);
        let r = advance(&mut e);
        eprintln!("adv end {:?} start {:?}", r.end_of_turn, r.start_of_turn);
        let r = advance(&mut e);
        eprintln!("adv end {:?} start {:?}", r.end_of_turn, r.start_of_turn);
        let r = advance(&mut e);
        eprintln!(
            "adv end {:?} start {:?} cur {:?}",
            r.end_of_turn, r.start_of_turn, r.current
        );
        eprintln!("wiz effects {:?}", names(&mut e, &wiz));
    }
}

#[test]
fn explore2() {
    let Some(srd) = common::srd("c6_explore2") else {
        return;
    };
    for seed in 1..4u64 {
        eprintln!("======== SEED {seed}");
        let dir = tempfile::tempdir().unwrap();
        let mut e = engine(&dir, &srd, seed);
        let wiz = caster(
            &mut e,
            "Wren",
            "wizard",
            9,
            &[
                "Ray of Enfeeblement",
                "Enlarge/Reduce",
                "Confusion",
                "Resilient Sphere",
            ],
        );
        let tor = caster(&mut e, "Tor", "fighter", 5, &[]);
        let order = fight(
            &mut e,
            vec![
                pc(&wiz, 5, 5, 20),
                pc(&tor, 7, 5, 15),
                monster("ogre", 1, &[(8, 5)]),
                monster("goblin", 2, &[(12, 12), (13, 12)]),
            ],
        );
        let ogre = id_of(&order, "Ogre");
        let g1 = id_of(&order, "Goblin 1");
        let out = cast(&mut e, &wiz, "Ray of Enfeeblement", |r| {
            r.target = who(&ogre)
        });
        show("ray", &out);
        eprintln!("ogre effects {:?}", names(&mut e, &ogre));
        advance(&mut e);
        let out = cast(&mut e, &tor, "x", |_| {});
        let _ = out;
        advance(&mut e);
        eprintln!("order {:?}", order);
        let out = strike(&mut e, &ogre, &tor, "Greatclub");
        show("ogre hits", &out);
        let r = advance(&mut e);
        eprintln!(
            "adv end {:?} start {:?} cur {:?}",
            r.end_of_turn, r.start_of_turn, r.current
        );
        let r = advance(&mut e);
        eprintln!(
            "adv end {:?} start {:?} cur {:?}",
            r.end_of_turn, r.start_of_turn, r.current
        );
        let r = advance(&mut e);
        eprintln!(
            "adv end {:?} start {:?} cur {:?}",
            r.end_of_turn, r.start_of_turn, r.current
        );
        // wizard again: Confusion on goblins
        let out = cast(&mut e, &wiz, "Confusion", |r| {
            r.to = Some(Position::new(12, 12))
        });
        show("confusion", &out);
        let r = advance(&mut e);
        eprintln!(
            "adv end {:?} start {:?} cur {:?}",
            r.end_of_turn, r.start_of_turn, r.current
        );
        let r = advance(&mut e);
        eprintln!(
            "adv end {:?} start {:?} cur {:?}",
            r.end_of_turn, r.start_of_turn, r.current
        );
        let r = advance(&mut e);
        eprintln!(
            "adv end {:?} start {:?} cur {:?}",
            r.end_of_turn, r.start_of_turn, r.current
        );
        eprintln!(
            "enc {:?}",
            encounter(&mut e)
                .order
                .iter()
                .map(|c| (c.name.clone(), c.economy.clone()))
                .collect::<Vec<_>>()
        );
        let r = advance(&mut e);
        eprintln!(
            "adv end {:?} start {:?} cur {:?}",
            r.end_of_turn, r.start_of_turn, r.current
        );
        let r = advance(&mut e);
        eprintln!(
            "adv end {:?} start {:?} cur {:?}",
            r.end_of_turn, r.start_of_turn, r.current
        );
    }
}

#[test]
fn explore3() {
    let Some(srd) = common::srd("c6_explore3") else {
        return;
    };
    for seed in 1..4u64 {
        eprintln!("======== SEED {seed}");
        let dir = tempfile::tempdir().unwrap();
        let mut e = engine(&dir, &srd, seed);
        let wiz = caster(
            &mut e,
            "Wren",
            "wizard",
            9,
            &["Enlarge/Reduce", "Resilient Sphere"],
        );
        let tor = caster(&mut e, "Tor", "fighter", 5, &[]);
        let order = fight(
            &mut e,
            vec![
                pc(&wiz, 5, 5, 20),
                pc(&tor, 7, 5, 15),
                monster("ogre", 1, &[(8, 5)]),
                monster("goblin", 1, &[(6, 6)]),
            ],
        );
        let ogre = id_of(&order, "Ogre");
        let gob = id_of(&order, "Goblin");
        let out = cast(&mut e, &wiz, "Enlarge/Reduce", |r| r.target = who(&tor));
        show("enlarge", &out);
        advance(&mut e);
        let out = strike(&mut e, &tor, &ogre, "unarmed strike");
        show("tor hits", &out);
        advance(&mut e);
        advance(&mut e);
        advance(&mut e);
        let out = cast(&mut e, &wiz, "Enlarge/Reduce", |r| {
            r.target = who(&ogre);
            r.description = Some("reduce".into());
        });
        show("reduce", &out);
        advance(&mut e);
        advance(&mut e);
        let out = strike(&mut e, &ogre, &tor, "Greatclub");
        show("ogre hits", &out);
        advance(&mut e);
        advance(&mut e);
        let out = cast(&mut e, &wiz, "Resilient Sphere", |r| r.target = who(&gob));
        show("sphere", &out);
        advance(&mut e);
        let out = strike(&mut e, &tor, &gob, "unarmed strike");
        show("tor hits gob", &out);
        advance(&mut e);
        advance(&mut e);
        let out = strike(&mut e, &gob, &wiz, "Scimitar");
        show("gob hits wiz", &out);
    }
}
