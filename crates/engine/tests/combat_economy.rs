//! Issue 18 A: the action economy as rules, not labels. SRD party (fighter 5, rogue 3, wizard 5)
//! against an SRD ogre, pinned dice, every action through execute_action.

use super::fidelity;

use fidelity::{FIGHTER, ROGUE, Table, WIZARD};
use serde_json::json;
use tabletop_engine::combat::actions::ActionCost;
use tabletop_engine::inventory::Slot;

fn ogre_fight(seed: u64, ogre: (i32, i32)) -> Option<Table> {
    Table::new(
        seed,
        &[FIGHTER, ROGUE, WIZARD],
        vec![("ogre", "Ogre", vec![ogre], 5)],
        (16, 16),
    )
}

const FORCE: &str = " (pass force: true to override as the game master)";
const ATTACK_HINT: &str =
    "; the Attack action's attacks (Extra Attack, Action Surge) each cost the action";

#[test]
fn a_third_attack_needs_force_whatever_its_label_and_action_surge_gives_two_more() {
    let Some(mut t) = ogre_fight(11, (3, 2)) else {
        return;
    };
    t.arm("Rook", "Longsword");
    let a = json!({"actorName": "Rook", "actionType": "attack", "targetName": "Ogre", "weapon": "Longsword"});
    assert_eq!(
        t.act(a.clone()).unwrap().headline,
        "Hit! Ogre takes 4 slashing (59 → 55 HP)."
    );
    assert_eq!(
        t.act(a.clone()).unwrap().headline,
        "Hit! Ogre takes 7 slashing (55 → 48 HP)."
    );
    assert_eq!(
        t.refused(a.clone()),
        format!("Rook has already used its action this turn{FORCE}")
    );
    for (cost, words) in [("free", "nothing (free)"), ("movement", "movement")] {
        let mut r = a.clone();
        r["actionCost"] = json!(cost);
        assert_eq!(
            t.refused(r),
            format!(
                "attack costs an action by the rules and no rule lets Rook take it as {words}{ATTACK_HINT}{FORCE}"
            )
        );
    }
    let mut r = a.clone();
    r["actionCost"] = json!("free");
    r["force"] = json!(true);
    let f = t.act(r).unwrap();
    assert_eq!(f.headline, "Hit! Ogre takes 5 slashing (48 → 43 HP).");
    assert_eq!(
        f.forced,
        vec![format!(
            "attack costs an action by the rules and no rule lets Rook take it as nothing (free){ATTACK_HINT}"
        )]
    );
    // The forced line is in the encounter log too, naming the attacker.
    assert_eq!(
        t.enc().log.last().unwrap().text,
        format!(
            "Rook: Hit! Ogre takes 5 slashing (48 → 43 HP). [forced: attack costs an action by the rules and no rule lets Rook take it as nothing (free){ATTACK_HINT}]"
        )
    );
    // Next turn: two attacks, Action Surge, two more, and a fifth is refused.
    t.turn_of("Rook");
    t.act(a.clone()).unwrap();
    t.act(a.clone()).unwrap();
    let s = t
        .act(json!({"actorName": "Rook", "actionType": "use_special_ability", "abilityName": "Action Surge"}))
        .unwrap();
    assert_eq!(
        s.headline,
        "Rook uses Action Surge: one more action this turn."
    );
    assert_eq!(
        t.act(a.clone()).unwrap().headline,
        "Miss (natural 1 vs AC 11)."
    );
    assert_eq!(
        t.act(a.clone()).unwrap().headline,
        "Hit! Ogre takes 8 slashing (27 → 19 HP)."
    );
    assert_eq!(
        t.refused(a),
        format!("Rook has already used its action this turn{FORCE}")
    );
}

#[test]
fn cunning_action_is_a_rogues_bonus_action_not_a_fighters() {
    let Some(mut t) = ogre_fight(12, (12, 12)) else {
        return;
    };
    for kind in ["disengage", "dash", "hide"] {
        let r = json!({"actorName": "Rook", "actionType": kind, "actionCost": "bonus_action"});
        assert_eq!(
            t.refused(r),
            format!(
                "{kind} costs an action by the rules and no rule lets Rook take it as a bonus action; Cunning Action (rogue 2+) makes them bonus actions{FORCE}"
            )
        );
    }
    t.turn_of("Nim");
    let d = t
        .act(json!({"actorName": "Nim", "actionType": "disengage", "actionCost": "bonus_action"}))
        .unwrap();
    assert_eq!(
        d.headline,
        "Nim disengages: its movement provokes no opportunity attacks this turn."
    );
    assert_eq!(d.cost, Some(ActionCost::BonusAction));
    assert!(d.forced.is_empty());
    let dash = t
        .act(json!({"actorName": "Nim", "actionType": "dash"}))
        .unwrap();
    assert_eq!(
        dash.headline,
        "Nim dashes: +30 ft of movement this turn (60 ft left)."
    );
    assert_eq!(dash.cost, Some(ActionCost::Action));
    assert_eq!(
        t.refused(json!({"actorName": "Nim", "actionType": "hide", "actionCost": "bonus_action"})),
        format!("Nim has already used its bonus action this turn{FORCE}")
    );
    // A forced bonus-action Disengage says it was forced.
    t.turn_of("Rook");
    let f = t
        .act(json!({"actorName": "Rook", "actionType": "disengage", "actionCost": "bonus_action", "force": true}))
        .unwrap();
    assert_eq!(f.cost, Some(ActionCost::BonusAction));
    assert_eq!(
        f.forced,
        vec![
            "disengage costs an action by the rules and no rule lets Rook take it as a bonus action; Cunning Action (rogue 2+) makes them bonus actions".to_string()
        ]
    );
}

#[test]
fn a_bonus_action_attack_needs_a_feature_and_two_weapon_fighting_an_attack_first() {
    let Some(mut t) = ogre_fight(13, (3, 2)) else {
        return;
    };
    t.arm("Rook", "Longsword");
    let r = json!({"actorName": "Rook", "actionType": "attack", "targetName": "Ogre", "weapon": "Longsword", "actionCost": "bonus_action"});
    assert_eq!(
        t.refused(r),
        format!(
            "attack costs an action by the rules and no rule lets Rook take it as a bonus action; a bonus-action attack comes from two-weapon fighting (two_weapon_attack), Martial Arts (an unarmed strike after the Attack action: weapon \"unarmed strike\") or Frenzy{FORCE}"
        )
    );
    t.turn_of("Nim");
    t.arm_in("Nim", "Shortsword", Some(Slot::Mainhand));
    t.arm_in("Nim", "Dagger", Some(Slot::Offhand));
    let off = json!({"actorName": "Nim", "actionType": "two_weapon_attack", "targetName": "Ogre"});
    assert_eq!(
        t.refused(off.clone()),
        format!("Nim must take the Attack action this turn before the off-hand attack{FORCE}")
    );
    let mut free = off.clone();
    free["actionCost"] = json!("free");
    assert_eq!(
        t.refused(free),
        format!(
            "two_weapon_attack costs a bonus action by the rules and no rule lets Nim take it as nothing (free){FORCE}"
        )
    );
    let m = t
        .act(json!({"actorName": "Nim", "actionType": "attack", "targetName": "Ogre", "weapon": "Shortsword"}))
        .unwrap();
    assert_eq!(m.headline, "Hit! Ogre takes 12 piercing (59 → 47 HP).");
    let o = t.act(off.clone()).unwrap();
    assert_eq!(o.headline, "Hit! Ogre takes 3 piercing (47 → 44 HP).");
    assert_eq!(o.cost, Some(ActionCost::BonusAction));
    assert_eq!(
        t.refused(off),
        format!("Nim has already used its bonus action this turn{FORCE}")
    );
}

#[test]
fn a_spell_costs_its_casting_time_and_fireball_fits_once_a_turn() {
    let Some(mut t) = ogre_fight(14, (12, 12)) else {
        return;
    };
    t.turn_of("Wren");
    let fb = json!({"actorName": "Wren", "actionType": "cast_spell", "spell": "Fireball", "to": {"x": 12, "y": 12}});
    let mut bonus = fb.clone();
    bonus["actionCost"] = json!("bonus_action");
    let spell_refusal = |words: &str| {
        format!(
            "cast_spell costs an action by the rules and no rule lets Wren take it as {words}; a spell costs its casting time{FORCE}"
        )
    };
    assert_eq!(t.refused(bonus), spell_refusal("a bonus action"));
    let one = t.act(fb.clone()).unwrap();
    assert_eq!(
        one.headline,
        "Fireball (3rd level): Ogre takes 22 fire (59 → 37 HP)."
    );
    assert_eq!(one.cost, Some(ActionCost::Action));
    assert_eq!(
        t.refused(fb.clone()),
        format!("Wren has already used its action this turn{FORCE}")
    );
    let mut free = fb.clone();
    free["actionCost"] = json!("free");
    assert_eq!(t.refused(free.clone()), spell_refusal("nothing (free)"));
    free["force"] = json!(true);
    let f = t.act(free).unwrap();
    assert_eq!(
        f.headline,
        "Fireball (3rd level): Ogre takes 22 fire (37 → 15 HP)."
    );
    assert_eq!(
        f.forced,
        vec![
            "cast_spell costs an action by the rules and no rule lets Wren take it as nothing (free); a spell costs its casting time".to_string()
        ]
    );
}

#[test]
fn off_turn_only_the_reactions_a_rule_offers() {
    let Some(mut t) = ogre_fight(15, (3, 2)) else {
        return;
    };
    t.arm("Rook", "Longsword");
    t.turn_of("Nim");
    let r = json!({"actorName": "Rook", "actionType": "attack", "targetName": "Ogre", "weapon": "Longsword", "actionCost": "reaction"});
    let why = "attack costs an action by the rules and no rule lets Rook take it as a reaction; opportunity attacks are made by the engine when a creature leaves a hostile's reach, and a readied attack is released with actionType ready, actionCost reaction";
    assert_eq!(t.refused(r.clone()), format!("{why}{FORCE}"));
    let mut f = r;
    f["force"] = json!(true);
    let out = t.act(f).unwrap();
    assert_eq!(out.headline, "Miss (natural 1 vs AC 11).");
    assert_eq!(out.cost, Some(ActionCost::Reaction));
    assert_eq!(out.forced, vec![why.to_string()]);
    assert!(
        t.enc()
            .combatant(&t.ids["Rook"].clone())
            .unwrap()
            .economy
            .reaction
    );
}

#[test]
fn caller_numbers_are_checked_not_wrapped() {
    let Some(mut t) = ogre_fight(16, (3, 2)) else {
        return;
    };
    t.arm("Rook", "Longsword");
    let r = json!({"actorName": "Rook", "actionType": "attack", "targetName": "Ogre", "weapon": "Longsword", "bonus": 2147483647});
    assert_eq!(
        t.refused(r),
        "bonus: a situational bonus is between -100 and 100 (got 2147483647); give the creature's real numbers on its sheet"
    );
    let hp = t.sheet("Rook").hp;
    assert_eq!(
        t.refused(json!({"actionType": "damage", "targetName": "Rook", "amount": "-5"})),
        "amount: '-5' is at most -5; damage and healing amounts are 0 or more (to heal, use healing or a heal action; to harm, damage)"
    );
    assert_eq!(
        t.refused(json!({"actionType": "heal", "targetName": "Rook", "amount": "-2"})),
        "amount: '-2' is at most -2; damage and healing amounts are 0 or more (to heal, use healing or a heal action; to harm, damage)"
    );
    assert_eq!(t.sheet("Rook").hp, hp, "nothing applied");
}
