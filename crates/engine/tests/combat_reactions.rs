//! Issue 18 F: reactions as interrupts. A per-combatant policy (auto / ask / never) decides
//! opportunity attacks, Shield, Counterspell and Hellish Rebuke; with `ask` the triggering action
//! pauses until `react` answers. SRD party against SRD monsters, pinned dice, exact results.

use super::fidelity;

use fidelity::{FIGHTER, Member, Table, WIZARD};
use serde_json::json;
use tabletop_engine::combat::ReactionPolicy;
use tabletop_engine::combat::actions::Who;
use tabletop_engine::combat::manage::{ManageOp, manage_encounter};
use tabletop_engine::combat::view::{Verbosity, get_encounter};

const WARLOCK: Member = ("Ash", "warlock", 5, [8, 14, 14, 10, 12, 16], (2, 6), 16);
const VEX: Member = ("Vex", "wizard", 7, [8, 14, 14, 16, 12, 10], (8, 4), 15);

fn policy(t: &mut Table, who: &str, p: ReactionPolicy) -> String {
    let who = Who {
        id: None,
        name: Some(who.to_string()),
    };
    t.e.write("manage_encounter", &json!({}), |call| {
        manage_encounter(call, None, ManageOp::SetReactionPolicy(who, p))
    })
    .unwrap()
    .headline
}

fn pending_text(t: &mut Table) -> Option<String> {
    let v =
        t.e.read(|call| get_encounter(call, None, Verbosity::Standard))
            .unwrap();
    v.pending_reaction
        .map(|p| format!("{} / {} / {}", p.reactor, p.reaction, p.trigger))
}

fn ogre_on_wren(seed: u64) -> Option<Table> {
    let mut t = Table::new(
        seed,
        &[FIGHTER, WIZARD],
        vec![("ogre", "Ogre", vec![(3, 4)], 5)],
        (16, 16),
    )?;
    t.turn_of("Ogre");
    Some(t)
}

const CLUB: &str =
    r#"{"actorName": "Ogre", "actionType": "attack", "targetName": "Wren", "weapon": "Greatclub"}"#;

fn club() -> serde_json::Value {
    serde_json::from_str(CLUB).unwrap()
}

const ASK: &str = "answer with execute_action actionType react, answer accept or decline";

#[test]
fn shield_auto_turns_a_hit_into_a_miss_and_lasts_until_the_wizards_next_turn() {
    let Some(mut t) = ogre_on_wren(1) else { return };
    let o = t.act(club()).unwrap();
    assert_eq!(o.headline, "Miss (12 vs AC 17).");
    assert_eq!(
        o.lines,
        vec![
            "Ogre attack with Greatclub: d20 [6] + 6 = 12 vs AC 12 — hit",
            "Wren casts Shield as a reaction (1st-level slot): AC 12 → 17 until the start of its next turn.",
            "12 vs AC 17: the attack misses Wren (Shield).",
        ]
    );
    let w = t.sheet("Wren");
    assert_eq!(w.spell_slots.used[0], 1);
    assert_eq!(w.effective().armor_class.value, 17);
    let wid = t.ids["Wren"].clone();
    assert!(t.enc().combatant(&wid).unwrap().economy.reaction);
    // The standard view lists the effect; the ogre's used action shows on its line.
    let v =
        t.e.read(|call| get_encounter(call, None, Verbosity::Standard))
            .unwrap();
    let wren = v.combatants.iter().find(|c| c.name == "Wren").unwrap();
    assert_eq!(wren.effects, vec!["Shield"]);
    let ogre = v.combatants.iter().find(|c| c.name == "Ogre").unwrap();
    assert_eq!(ogre.used, vec!["action"]);
    // Ogre → Rook (round 2) → Wren: Shield ends at the start of Wren's turn.
    t.advance();
    assert_eq!(t.sheet("Wren").effective().armor_class.value, 17);
    t.advance();
    assert_eq!(t.sheet("Wren").effective().armor_class.value, 12);
    assert!(t.sheet("Wren").effects.is_empty());
}

#[test]
fn shield_ask_pauses_the_attack_with_its_roll_and_the_answer_decides() {
    let Some(mut t) = ogre_on_wren(1) else { return };
    assert_eq!(
        policy(&mut t, "Wren", ReactionPolicy::Ask),
        "Wren's reaction policy is ask: a trigger pauses the action with a pending reaction; answer it with execute_action actionType react (accept or decline)."
    );
    let o = t.act(club()).unwrap();
    let trigger =
        "Ogre's Greatclub attack hits Wren (12 vs AC 12); Shield (+5 AC) would make it miss";
    assert_eq!(
        o.headline,
        format!("Paused: {trigger}. Wren may cast Shield as a reaction: {ASK}.")
    );
    assert_eq!(
        pending_text(&mut t),
        Some(format!("Wren / Shield / {trigger}"))
    );
    assert_eq!(t.sheet("Wren").hp, 32);
    // Nothing else happens until the answer: no other action, no advance_turn.
    let waiting = format!(
        "Wren's reaction is pending (Shield: {trigger}); {}",
        ASK.replace("answer with", "answer it first with")
    );
    assert_eq!(
        t.refused(json!({"actorName": "Ogre", "actionType": "dodge"})),
        waiting
    );
    let adv = t.e.write("advance_turn", &json!({}), |call| {
        tabletop_engine::combat::turn::advance_turn(call, &Default::default())
    });
    assert_eq!(adv.unwrap_err().to_string(), waiting);
    // Only Wren answers.
    assert_eq!(
        t.refused(json!({"actionType": "react", "actorName": "Rook", "answer": "accept"})),
        format!("actorId: the pending reaction is Wren's (Shield: {trigger}), not Rook's")
    );
    // Declined: the same roll lands.
    let d = t
        .act(json!({"actionType": "react", "answer": "decline"}))
        .unwrap();
    assert_eq!(d.headline, "Hit! Wren takes 18 bludgeoning (32 → 14 HP).");
    assert_eq!(
        d.lines[0],
        "Ogre attack with Greatclub: d20 [6] + 6 = 12 vs AC 12 — hit"
    );
    assert_eq!(t.sheet("Wren").spell_slots.used[0], 0);
    assert_eq!(pending_text(&mut t), None);
    // Accepted on a fresh table: the same roll misses, the slot and reaction are spent.
    let Some(mut t) = ogre_on_wren(1) else { return };
    policy(&mut t, "Wren", ReactionPolicy::Ask);
    t.act(club()).unwrap();
    let a = t
        .act(json!({"actionType": "react", "actorName": "Wren", "answer": "accept"}))
        .unwrap();
    assert_eq!(a.headline, "Miss (12 vs AC 17).");
    assert_eq!(
        a.lines,
        vec![
            "Wren casts Shield as a reaction (1st-level slot): AC 12 → 17 until the start of its next turn.",
            "Ogre attack with Greatclub: d20 [6] + 6 = 12 vs AC 17 — miss",
        ]
    );
    assert_eq!(t.sheet("Wren").hp, 32);
    assert_eq!(t.sheet("Wren").spell_slots.used[0], 1);
    // Nothing pending: react is refused with the way to get one.
    assert!(
        t.refused(json!({"actionType": "react", "answer": "accept"}))
            .starts_with("no reaction is pending in encounter")
    );
}

#[test]
fn shield_never_lets_the_hit_land() {
    let Some(mut t) = ogre_on_wren(1) else { return };
    policy(&mut t, "Wren", ReactionPolicy::Never);
    let o = t.act(club()).unwrap();
    assert_eq!(o.headline, "Hit! Wren takes 18 bludgeoning (32 → 14 HP).");
    assert_eq!(t.sheet("Wren").spell_slots.used[0], 0);
}

fn goblin_by_rook(seed: u64) -> Option<Table> {
    let mut t = Table::new(
        seed,
        &[FIGHTER, WIZARD],
        vec![("goblin", "Goblin", vec![(3, 2)], 5)],
        (16, 16),
    )?;
    t.arm("Rook", "Longsword");
    t.turn_of("Goblin");
    Some(t)
}

fn goblin_runs() -> serde_json::Value {
    json!({"actorName": "Goblin", "actionType": "move", "to": {"x": 7, "y": 2}})
}

#[test]
fn an_opportunity_attack_asked_pauses_the_move_where_it_leaves_reach() {
    let Some(mut t) = goblin_by_rook(1) else {
        return;
    };
    policy(&mut t, "Rook", ReactionPolicy::Ask);
    let o = t.act(goblin_runs()).unwrap();
    assert_eq!(
        o.headline,
        "Goblin moves 0 ft to (3, 2) and waits there: a reaction is pending."
    );
    assert_eq!(
        o.lines,
        vec![format!(
            "Paused: Goblin leaves Rook's reach at (3, 2). Rook may make an opportunity attack: answer with execute_action actionType react, answer accept (weapon optional) or decline."
        )]
    );
    assert_eq!(
        pending_text(&mut t),
        Some("Rook / opportunity attack / Goblin leaves Rook's reach at (3, 2)".into())
    );
    let gid = t.ids["Goblin"].clone();
    assert_eq!(t.enc().position_of(&gid).map(|p| (p.x, p.y)), Some((3, 2)));
    let a = t
        .act(json!({"actionType": "react", "answer": "accept"}))
        .unwrap();
    assert_eq!(
        a.headline,
        "Rook makes an opportunity attack: Miss (12 vs AC 15)."
    );
    assert_eq!(
        a.lines,
        vec![
            "Opportunity attack: Rook with Longsword: d20 [6] + 6 = 12 vs AC 15 — miss",
            "Goblin goes on: Goblin moves 20 ft to (7, 2) (10 ft of movement left).",
        ]
    );
    assert_eq!(t.enc().position_of(&gid).map(|p| (p.x, p.y)), Some((7, 2)));
    let rid = t.ids["Rook"].clone();
    assert!(t.enc().combatant(&rid).unwrap().economy.reaction);
    // Declined: the goblin goes on and Rook keeps its reaction.
    let Some(mut t) = goblin_by_rook(1) else {
        return;
    };
    policy(&mut t, "Rook", ReactionPolicy::Ask);
    t.act(goblin_runs()).unwrap();
    let d = t
        .act(json!({"actionType": "react", "answer": "decline"}))
        .unwrap();
    assert_eq!(
        d.headline,
        "Rook lets Goblin go without an opportunity attack."
    );
    assert_eq!(
        d.lines,
        vec!["Goblin goes on: Goblin moves 20 ft to (7, 2) (10 ft of movement left)."]
    );
    assert!(!t.enc().combatant(&rid).unwrap().economy.reaction);
}

#[test]
fn a_readied_action_keeps_the_reaction_and_never_means_no_opportunity_attack() {
    let Some(mut t) = goblin_by_rook(1) else {
        return;
    };
    t.turn_of("Rook");
    t.act(json!({"actorName": "Rook", "actionType": "ready", "trigger": "a goblin casts a spell", "readiedAction": {"actionType": "attack", "targetName": "Goblin", "weapon": "Longsword"}}))
        .unwrap();
    t.turn_of("Goblin");
    let o = t.act(goblin_runs()).unwrap();
    assert_eq!(
        o.headline,
        "Goblin moves 20 ft to (7, 2) (10 ft of movement left)."
    );
    assert_eq!(
        o.lines,
        vec![
            "Rook keeps its reaction for its readied action (a goblin casts a spell) and makes no opportunity attack on Goblin."
        ]
    );
    let rid = t.ids["Rook"].clone();
    let e = t.enc();
    let rook = e.combatant(&rid).unwrap();
    assert!(!rook.economy.reaction);
    assert!(rook.flags.readied.is_some());
    // Policy never: no attack either.
    let Some(mut t) = goblin_by_rook(1) else {
        return;
    };
    policy(&mut t, "Rook", ReactionPolicy::Never);
    let o = t.act(goblin_runs()).unwrap();
    assert_eq!(
        o.lines,
        vec!["Rook lets Goblin go (reaction policy: never)."]
    );
    // Policy auto (the default) attacks as before.
    let Some(mut t) = goblin_by_rook(1) else {
        return;
    };
    let o = t.act(goblin_runs()).unwrap();
    assert_eq!(
        o.headline,
        "Goblin moves 20 ft to (7, 2) (10 ft of movement left). Opportunity attack by Rook: Miss (12 vs AC 15)."
    );
}

fn duel(seed: u64) -> Option<Table> {
    let mut t = Table::new(
        seed,
        &[FIGHTER, WIZARD, VEX],
        vec![("goblin", "Goblin", vec![(12, 12)], 5)],
        (16, 16),
    )?;
    let vex = t.ids["Vex"].clone();
    t.edit_enc(|e| {
        e.combatant_mut(&vex).unwrap().side = tabletop_engine::combat::Side::Enemy;
    });
    t.turn_of("Vex");
    Some(t)
}

fn fireball(slot: u8) -> serde_json::Value {
    json!({"actorName": "Vex", "actionType": "cast_spell", "spell": "Fireball", "slotLevel": slot, "to": {"x": 2, "y": 2}})
}

#[test]
fn counterspell_stops_a_third_level_spell_and_the_caster_loses_action_and_slot() {
    let Some(mut t) = duel(1) else { return };
    let o = t.act(fireball(3)).unwrap();
    assert_eq!(o.headline, "Vex's Fireball is countered: it has no effect.");
    assert_eq!(
        o.lines,
        vec![
            "Wren casts Counterspell as a reaction (3rd-level slot) against Vex's Fireball.",
            "Fireball of 3rd level is no higher than the Counterspell's 3rd: it fails.",
            "Vex's 3rd-level slot is spent all the same.",
        ]
    );
    assert_eq!(t.sheet("Rook").hp, 44);
    assert_eq!(t.sheet("Wren").spell_slots.used[2], 1);
    assert_eq!(t.sheet("Vex").spell_slots.used[2], 1);
    let vid = t.ids["Vex"].clone();
    assert!(t.enc().combatant(&vid).unwrap().economy.action);
    // Wren's reaction is spent: the next spell goes through.
    t.turn_of("Vex");
    let f = t.act(json!({"actorName": "Vex", "actionType": "cast_spell", "spell": "Fire Bolt", "targetName": "Rook"})).unwrap();
    assert!(f.headline.starts_with("Fire Bolt"), "{}", f.headline);
}

#[test]
fn counterspell_against_a_higher_slot_needs_the_check() {
    let Some(mut t) = duel(1) else { return };
    let o = t.act(fireball(4)).unwrap();
    assert_eq!(
        o.headline,
        "Fireball (4th level): Rook takes 30 fire (44 → 14 HP); Wren saves for half, Wren takes 15 fire (32 → 17 HP)."
    );
    assert_eq!(
        o.lines[..3],
        [
            "Wren casts Counterspell as a reaction (3rd-level slot) against Vex's Fireball.",
            "Intelligence check to counter Vex's Fireball: d20 [3] + 3 = 6 vs DC 14 — fail",
            "The Counterspell fails: Fireball goes ahead.",
        ]
    );
    assert_eq!(t.sheet("Wren").spell_slots.used[2], 1);
    // A check that meets DC 14 stops it; the slots are spent either way.
    let Some(mut t) = duel(6) else { return };
    let o = t.act(fireball(4)).unwrap();
    assert_eq!(o.headline, "Vex's Fireball is countered: it has no effect.");
    assert_eq!(
        o.lines,
        vec![
            "Wren casts Counterspell as a reaction (3rd-level slot) against Vex's Fireball.",
            "Intelligence check to counter Vex's Fireball: d20 [13] + 3 = 16 vs DC 14 — success",
            "Fireball is countered.",
            "Vex's 4th-level slot is spent all the same.",
        ]
    );
    assert_eq!(t.sheet("Vex").spell_slots.used[3], 1);
}

#[test]
fn counterspell_asked_pauses_the_casting_until_the_answer() {
    let Some(mut t) = duel(1) else { return };
    policy(&mut t, "Wren", ReactionPolicy::Ask);
    let o = t.act(fireball(3)).unwrap();
    assert_eq!(
        o.headline,
        "Paused: Vex casts Fireball (3rd level) within 60 ft of Wren. Wren may cast Counterspell as a reaction: answer with execute_action actionType react, answer accept (slotLevel 3 or higher) or decline."
    );
    assert_eq!(
        pending_text(&mut t),
        Some("Wren / Counterspell / Vex casts Fireball (3rd level) within 60 ft of Wren".into())
    );
    assert_eq!(t.sheet("Vex").spell_slots.used[2], 0);
    let d = t
        .act(json!({"actionType": "react", "answer": "decline"}))
        .unwrap();
    assert_eq!(
        d.headline,
        "Fireball (3rd level): Rook saves for half, Rook takes 16 fire (44 → 28 HP); Wren takes 33 fire (32 → 0 HP) and falls unconscious (death saves)."
    );
    assert_eq!(d.lines[0], "Wren lets the spell go.");
    assert_eq!(t.sheet("Vex").spell_slots.used[2], 1);
    // Accepted: countered with the slot the answer names.
    let Some(mut t) = duel(1) else { return };
    policy(&mut t, "Wren", ReactionPolicy::Ask);
    t.act(fireball(3)).unwrap();
    let a = t
        .act(json!({"actionType": "react", "answer": "accept", "slotLevel": 3}))
        .unwrap();
    assert_eq!(a.headline, "Vex's Fireball is countered: it has no effect.");
    assert_eq!(t.sheet("Rook").hp, 44);
}

fn ogre_on_ash(seed: u64) -> Option<Table> {
    let mut t = Table::new(
        seed,
        &[FIGHTER, WARLOCK],
        vec![("ogre", "Ogre", vec![(3, 6)], 5)],
        (16, 16),
    )?;
    t.turn_of("Ogre");
    Some(t)
}

fn club_ash() -> serde_json::Value {
    json!({"actorName": "Ogre", "actionType": "attack", "targetName": "Ash", "weapon": "Greatclub"})
}

#[test]
fn hellish_rebuke_answers_damage_taken() {
    let Some(mut t) = ogre_on_ash(1) else { return };
    let o = t.act(club_ash()).unwrap();
    assert_eq!(o.headline, "Hit! Ash takes 18 bludgeoning (38 → 20 HP).");
    assert_eq!(
        o.lines[3..7],
        [
            "Ash answers with Hellish Rebuke (reaction): Hellish Rebuke (3rd level): Ogre takes 16 fire (59 → 43 HP).",
            "Hellish Rebuke damage: 4d10: [4, 2, 9, 1] = 16",
            "Ogre — Dexterity save vs Hellish Rebuke: d20 [6] - 1 = 5 vs DC 14 — fail",
            "Ogre takes 16 (16 fire); 59 → 43 HP",
        ]
    );
    assert_eq!(t.sheet("Ogre").hp, 43);
    assert_eq!(t.sheet("Ash").spell_slots.pact.unwrap().used, 1);
    // Asked: pending after the hit, answered by accepting.
    let Some(mut t) = ogre_on_ash(1) else { return };
    policy(&mut t, "Ash", ReactionPolicy::Ask);
    let o = t.act(club_ash()).unwrap();
    assert_eq!(o.headline, "Hit! Ash takes 18 bludgeoning (38 → 20 HP).");
    assert_eq!(
        o.lines.last().unwrap(),
        "Pending: Ash was damaged by Ogre within 60 ft. Ash may cast Hellish Rebuke as a reaction: answer with execute_action actionType react, answer accept (slotLevel optional) or decline."
    );
    assert_eq!(t.sheet("Ogre").hp, 59);
    let a = t
        .act(json!({"actionType": "react", "answer": "accept"}))
        .unwrap();
    assert_eq!(
        a.headline,
        "Ash casts Hellish Rebuke as a reaction: Hellish Rebuke (3rd level): Ogre takes 16 fire (59 → 43 HP)."
    );
    assert_eq!(t.sheet("Ogre").hp, 43);
}

/// Issue 18: Shield answers Magic Missile (the darts do nothing) and a spell attack that hits
/// (+5 AC turns it into a miss), spending Wren's slot and reaction. (Wren's 3rd-level slots are
/// spent so Counterspell does not come first.)
#[test]
fn shield_stops_magic_missile_and_turns_a_spell_attack_hit_into_a_miss() {
    let Some(mut t) = duel(1) else { return };
    t.edit("Wren", |w| w.spell_slots.used[2] = 2);
    let hp = t.sheet("Wren").hp;
    let o = t
        .act(json!({"actorName": "Vex", "actionType": "cast_spell", "spell": "Magic Missile", "targetName": "Wren"}))
        .unwrap();
    assert_eq!(
        o.headline,
        "Magic Missile (1st level): Wren is untouched (Shield)."
    );
    assert_eq!(
        o.lines[..2],
        [
            "Wren casts Shield as a reaction (1st-level slot): AC 12 → 17 until the start of its next turn.",
            "Wren takes no damage from the Magic Missile darts (Shield).",
        ]
    );
    let w = t.sheet("Wren");
    assert_eq!((w.hp, w.spell_slots.used[0]), (hp, 1));
    assert_eq!(w.effective().armor_class.value, 17);
    let wid = t.ids["Wren"].clone();
    assert!(t.enc().combatant(&wid).unwrap().economy.reaction);
    // A Fire Bolt that hits AC 12 with 14 misses AC 17.
    let Some(mut t) = duel(3) else { return };
    t.edit("Wren", |w| w.spell_slots.used[2] = 2);
    let o = t
        .act(json!({"actorName": "Vex", "actionType": "cast_spell", "spell": "Fire Bolt", "targetName": "Wren"}))
        .unwrap();
    assert_eq!(o.headline, "Fire Bolt (cantrip): misses Wren.");
    assert_eq!(
        o.lines[..3],
        [
            "Vex — Fire Bolt spell attack vs Wren: d20 [8] + 6 = 14 vs AC 12 — hit",
            "Wren casts Shield as a reaction (1st-level slot): AC 12 → 17 until the start of its next turn.",
            "14 vs AC 17: the Fire Bolt misses Wren (Shield).",
        ]
    );
    let w = t.sheet("Wren");
    assert_eq!((w.hp, w.spell_slots.used[0]), (hp, 1));
    assert!(t.enc().combatant(&wid).unwrap().economy.reaction);
}
