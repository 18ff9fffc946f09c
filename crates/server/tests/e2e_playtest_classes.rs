//! Class features a play-test with SRD-built characters found applied wrongly, end to end over
//! the real binary with SRD monsters, the SRD wording read from the JSON at run time: Evasion and
//! Danger Sense against a dragon's breath, Stunning Strike's duration and its one attempt per
//! hit, Lay on Hands on undead and beyond the hit points missing, Step of the Wind's Dash or
//! Disengage, Uncanny Dodge against a spell attack, Martial Arts' bonus unarmed strike, Turn
//! Defiance and Turn Resistance, Bardic Inspiration given in play, Arcane Recovery on a short
//! rest, and a paladin's aura when it drops.

use super::common;

use common::{Session, srd_desc, srd_record};
use serde_json::{Value, json};

use common::srd_here as srd;

fn stats(str_: u8, dex: u8, wis: u8, cha: u8) -> Value {
    json!({"str": str_, "dex": dex, "con": 14, "int": 12, "wis": wis, "cha": cha})
}

async fn pc(s: &Session, name: &str, class: &str, level: u32, subclass: &str, st: Value) {
    s.ok(
        "create_character",
        json!({"name": name, "race": "human", "stats": st,
               "classes": [{"class": class, "level": level, "subclass": subclass}]}),
    )
    .await;
}

/// The lines of an answer, as owned strings.
fn lines(text: &str) -> Vec<String> {
    text.lines().map(str::to_string).collect()
}

/// Attacks (forced) until one hits; the hit's answer.
async fn hit(s: &Session, args: Value) -> String {
    for _ in 0..12 {
        let a = s.ok("execute_action", args.clone()).await;
        if a.text.starts_with("Hit!") || a.text.starts_with("Critical hit!") {
            return a.text;
        }
    }
    panic!("no hit in 12 tries: {args}");
}

#[tokio::test]
async fn evasion_and_danger_sense_apply_to_a_dragons_breath() {
    if !srd() {
        return;
    }
    let evasion = srd_desc("Features", "monk-evasion");
    assert!(
        evasion.contains("such as a blue dragon's lightning breath or a fireball spell. when you are subjected to an effect that allows you to make a dexterity saving throw to take only half damage, you instead take no damage if you succeed on the saving throw, and only half damage if you fail"),
        "{evasion}"
    );
    let danger = srd_desc("Features", "danger-sense");
    assert!(
        danger.contains(
            "you have advantage on dexterity saving throws against effects that you can see"
        ),
        "{danger}"
    );
    let breath = srd_record("Monsters", "red-dragon-wyrmling")["actions"].to_string();
    assert!(
        breath.contains("DC 13 Dexterity saving throw, taking 24 (7d6) fire damage on a failed save, or half as much damage on a successful one"),
        "{breath}"
    );
    let s = Session::start(41).await;
    pc(&s, "Rog", "rogue", 7, "thief", stats(8, 16, 10, 10)).await;
    pc(
        &s,
        "Barb",
        "barbarian",
        9,
        "berserker",
        stats(16, 14, 10, 8),
    )
    .await;
    pc(&s, "Monk", "monk", 7, "open-hand", stats(10, 16, 14, 10)).await;
    s.ok(
        "create_encounter",
        json!({"participants": [
            {"monster": "red-dragon-wyrmling", "position": {"x": 8, "y": 5}, "initiative": 30},
            {"characterName": "Rog", "position": {"x": 5, "y": 4}, "initiative": 20},
            {"characterName": "Barb", "position": {"x": 5, "y": 5}, "initiative": 10},
            {"characterName": "Monk", "position": {"x": 5, "y": 6}, "initiative": 5}
        ]}),
    )
    .await;
    let mut seen = Vec::new();
    for _ in 0..2 {
        let a = s
            .ok(
                "execute_action",
                json!({"actorName": "Red Dragon Wyrmling", "actionType": "use_special_ability",
                       "abilityName": "Fire Breath", "targets": [{"name": "Rog"}, {"name": "Barb"}, {"name": "Monk"}],
                       "force": true}),
            )
            .await;
        seen.push(lines(&a.text));
    }
    let danger = "(advantage: Danger Sense (barbarian 9): DEX effects it can see)";
    // A failed save with Evasion: half of 27; a success: nothing. The barbarian rolls with
    // advantage and, without Evasion, takes it all.
    assert_eq!(
        seen[0][1..9],
        [
            "Damage roll: 7d6[fire]: [4, 6, 2, 5, 2, 5, 3] fire = 27 (fire 27)".to_string(),
            "Rog Dexterity save vs Fire Breath: d20 [3] + 6 = 9 vs DC 13 — fail".to_string(),
            "Rog fails: Evasion, half damage".to_string(),
            "Rog takes 13 (13 fire); 52 → 39 HP".to_string(),
            format!(
                "Barb Dexterity save vs Fire Breath: d20 [6, ~~3~~] {danger} + 2 = 8 vs DC 13 — fail"
            ),
            "Barb takes 27 (27 fire); 86 → 59 HP".to_string(),
            "Monk Dexterity save vs Fire Breath: d20 [17] + 6 = 23 vs DC 13 — success".to_string(),
            "Monk saves: Evasion, no damage".to_string(),
        ]
    );
    assert_eq!(
        seen[1][..8],
        [
            "Red Dragon Wyrmling uses Fire Breath: Barb fail, Rog, Monk succeed.".to_string(),
            "Damage roll: 7d6[fire]: [6, 3, 4, 4, 1, 3, 4] fire = 25 (fire 25)".to_string(),
            "Rog Dexterity save vs Fire Breath: d20 [7] + 6 = 13 vs DC 13 — success".to_string(),
            "Rog saves: Evasion, no damage".to_string(),
            format!(
                "Barb Dexterity save vs Fire Breath: d20 [7, ~~7~~] {danger} + 2 = 9 vs DC 13 — fail"
            ),
            "Barb takes 25 (25 fire); 59 → 34 HP".to_string(),
            "Monk Dexterity save vs Fire Breath: d20 [18] + 6 = 24 vs DC 13 — success".to_string(),
            "Monk saves: Evasion, no damage".to_string(),
        ]
    );
}

#[tokio::test]
async fn stunning_strike_stuns_until_the_end_of_the_monks_next_turn() {
    if !srd() {
        return;
    }
    let desc = srd_desc("Features", "stunning-strike");
    assert!(
        desc.contains("the target must succeed on a constitution saving throw or be stunned until the end of your next turn"),
        "{desc}"
    );
    let s = Session::start(9).await;
    pc(&s, "Monk", "monk", 5, "open-hand", stats(10, 16, 14, 10)).await;
    s.ok(
        "create_encounter",
        json!({"participants": [
            {"characterName": "Monk", "position": {"x": 5, "y": 5}, "initiative": 30},
            {"monster": "ogre", "position": {"x": 6, "y": 5}, "initiative": 10}
        ]}),
    )
    .await;
    let mut stunned = String::new();
    for _ in 0..10 {
        hit(
            &s,
            json!({"actorName": "Monk", "actionType": "attack", "targetName": "Ogre", "weapon": "unarmed strike", "force": true}),
        )
        .await;
        let a = s
            .ok(
                "execute_action",
                json!({"actorName": "Monk", "actionType": "use_special_ability", "abilityName": "Stunning Strike", "targetName": "Ogre"}),
            )
            .await;
        if a.text.contains("is stunned") {
            stunned = a.text;
            break;
        }
    }
    assert_eq!(
        lines(&stunned)[2..4],
        [
            "Ogre — Constitution save (Stunning Strike): d20 [5] + 3 = 8 vs DC 13 — fail",
            "Ogre is stunned until the end of Monk's next turn (Stunning Strike)",
        ]
    );
    // The end of the monk's own turn (the one it struck in) does not count; the ogre's turn
    // passes stunned.
    let ogres_turn = s.ok("advance_turn", json!({})).await;
    assert_eq!(
        lines(&ogres_turn.text),
        [
            "Round 1: Ogre's turn.",
            "! Ogre is incapacitated and can take no actions or reactions this turn",
            "End of Monk's turn:",
            "- stunned on Ogre: 1 round(s) left",
        ]
    );
    // Still stunned on the monk's next turn; it ends when that turn ends.
    s.ok("advance_turn", json!({})).await;
    let view = s
        .ok("get_encounter", json!({"verbosity": "standard"}))
        .await;
    assert_eq!(
        lines(&view.text)[2],
        "- 10 Ogre · enemy · HP 18/59 · AC 11 · (6, 5) · stunned"
    );
    let after = s.ok("advance_turn", json!({})).await;
    assert_eq!(
        lines(&after.text),
        [
            "Round 2: Ogre's turn.",
            "End of Monk's turn:",
            "- stunned on Ogre ends (duration over)",
        ]
    );
}

#[tokio::test]
async fn stunning_strike_is_one_attempt_per_hit() {
    if !srd() {
        return;
    }
    let desc = srd_desc("Features", "stunning-strike");
    assert!(
        desc.contains("when you hit another creature with a melee weapon attack, you can spend 1 ki point to attempt a stunning strike"),
        "{desc}"
    );
    let s = Session::start(4).await;
    pc(&s, "Monk", "monk", 5, "open-hand", stats(10, 16, 14, 10)).await;
    s.ok(
        "create_encounter",
        json!({"participants": [
            {"characterName": "Monk", "position": {"x": 5, "y": 5}, "initiative": 30},
            {"monster": "ogre", "position": {"x": 6, "y": 5}, "initiative": 10}
        ]}),
    )
    .await;
    let strike = json!({"actorName": "Monk", "actionType": "attack", "targetName": "Ogre", "weapon": "unarmed strike", "force": true});
    let stun = json!({"actorName": "Monk", "actionType": "use_special_ability", "abilityName": "Stunning Strike", "targetName": "Ogre"});
    hit(&s, strike.clone()).await;
    let first = s.ok("execute_action", stun.clone()).await;
    assert_eq!(
        lines(&first.text)[..3],
        [
            "Monk uses Stunning Strike (DC 13 CON save): 0 failed.",
            "Ki: 4/5 left",
            "Ogre — Constitution save (Stunning Strike): d20 [17] + 3 = 20 vs DC 13 — success",
        ]
    );
    s.err(
        "execute_action",
        stun.clone(),
        &["Stunning Strike is attempted once per melee weapon hit, and each of Monk's hits on Ogre this turn has had its attempt: hit it again first (execute_action attack)"],
    )
    .await;
    // The refusal spent nothing.
    let sheet = s
        .ok("get_character", json!({"characterName": "Monk"}))
        .await;
    assert!(
        lines(&sheet.text).contains(&"Resources: Ki 4/5 (short rest)".to_string()),
        "{}",
        sheet.text
    );
    // Another hit, another attempt.
    hit(&s, strike).await;
    let second = s.ok("execute_action", stun).await;
    assert_eq!(
        lines(&second.text)[..4],
        [
            "Monk uses Stunning Strike (DC 13 CON save): 1 failed.",
            "Ki: 3/5 left",
            "Ogre — Constitution save (Stunning Strike): d20 [1] + 3 = 4 vs DC 13 — fail (natural 1)",
            "Ogre is stunned until the end of Monk's next turn (Stunning Strike)",
        ]
    );
}

#[tokio::test]
async fn lay_on_hands_leaves_undead_and_constructs_and_spends_only_what_heals() {
    if !srd() {
        return;
    }
    let desc = srd_desc("Features", "lay-on-hands");
    assert!(
        desc.contains("this feature has no effect on undead and constructs"),
        "{desc}"
    );
    let s = Session::start(3).await;
    pc(&s, "Pal", "paladin", 5, "devotion", stats(16, 10, 10, 16)).await;
    s.ok(
        "create_encounter",
        json!({"participants": [
            {"characterName": "Pal", "position": {"x": 5, "y": 5}, "initiative": 30},
            {"monster": "zombie", "position": {"x": 6, "y": 5}, "initiative": 10},
            {"monster": "flying-sword", "position": {"x": 4, "y": 5}, "initiative": 5}
        ]}),
    )
    .await;
    s.ok(
        "update_character",
        json!({"characterName": "Zombie", "hp": "5"}),
    )
    .await;
    let loh = |t: &str, n: &str| json!({"actorName": "Pal", "actionType": "use_special_ability", "abilityName": "Lay on Hands", "targetName": t, "amount": n});
    s.err(
        "execute_action",
        loh("Zombie", "10"),
        &["Lay on Hands has no effect on undead and constructs, and Zombie is undead: no points spent"],
    )
    .await;
    s.err(
        "execute_action",
        loh("Flying Sword", "5"),
        &["Lay on Hands has no effect on undead and constructs, and Flying Sword is construct: no points spent"],
    )
    .await;
    s.err(
        "execute_action",
        loh("Pal", "5"),
        &["Pal is missing no hit points: Lay on Hands would heal nothing, and no points are spent"],
    )
    .await;
    s.ok(
        "update_character",
        json!({"characterName": "Pal", "damage": [{"amount": 3, "type": "slashing"}]}),
    )
    .await;
    let a = s.ok("execute_action", loh("Pal", "10")).await;
    assert_eq!(
        lines(&a.text),
        [
            "Pal uses Lay on Hands (3 points): Pal regains 3 HP (41 → 44).",
            "Lay on Hands: 22/25 left",
            "Pal heals 3 (41 → 44 HP)",
            "10 points asked; 3 spent, all the hit points missing (the rest stay in the pool)",
            "Pal has left: bonus action, reaction.",
        ]
    );
}

#[tokio::test]
async fn step_of_the_wind_takes_the_dash_or_the_disengage_for_a_ki_point() {
    if !srd() {
        return;
    }
    let desc = srd_desc("Features", "step-of-the-wind");
    assert!(
        desc.contains("you can spend 1 ki point to take the disengage or dash action as a bonus action on your turn, and your jump distance is doubled for the turn"),
        "{desc}"
    );
    let s = Session::start(3).await;
    pc(&s, "Monk", "monk", 4, "open-hand", stats(10, 16, 14, 10)).await;
    s.ok(
        "create_encounter",
        json!({"participants": [
            {"characterName": "Monk", "position": {"x": 5, "y": 5}, "initiative": 30},
            {"monster": "orc", "position": {"x": 6, "y": 5}, "initiative": 10}
        ]}),
    )
    .await;
    // As the feature, it says which action it takes; without one nothing is spent.
    s.err(
        "execute_action",
        json!({"actorName": "Monk", "actionType": "use_special_ability", "abilityName": "Step of the Wind"}),
        &["Step of the Wind takes the Dash or the Disengage action: say which (description: \"dash\" or \"disengage\"), or take execute_action dash or disengage with actionCost bonus_action"],
    )
    .await;
    let d = s
        .ok(
            "execute_action",
            json!({"actorName": "Monk", "actionType": "disengage", "actionCost": "bonus_action"}),
        )
        .await;
    assert_eq!(
        lines(&d.text),
        [
            "Monk disengages: its movement provokes no opportunity attacks this turn.",
            "Monk uses Step of the Wind",
            "Ki: 3/4 left",
            "Step of the Wind: its jump distance is doubled for the turn (no automation for jumps: the DM applies it)",
            "Monk has left: action, reaction.",
        ]
    );
    let m = s
        .ok(
            "execute_action",
            json!({"actorName": "Monk", "actionType": "move", "to": {"x": 13, "y": 5}}),
        )
        .await;
    assert_eq!(
        lines(&m.text),
        [
            "Monk moves 40 ft to (13, 5) (0 ft of movement left).",
            "Monk has left: action, reaction."
        ]
    );
    // Next turn, as the feature: the Dash.
    s.ok("advance_turn", json!({})).await;
    s.ok("advance_turn", json!({})).await;
    let dash = s
        .ok(
            "execute_action",
            json!({"actorName": "Monk", "actionType": "use_special_ability", "abilityName": "Step of the Wind", "description": "dash"}),
        )
        .await;
    assert_eq!(
        lines(&dash.text)[..4],
        [
            "Monk uses Step of the Wind (dash).",
            "Ki: 2/4 left",
            "Monk dashes: +40 ft of movement this turn (80 ft left).",
            "Step of the Wind: its jump distance is doubled for the turn (no automation for jumps: the DM applies it)",
        ]
    );
}

#[tokio::test]
async fn uncanny_dodge_halves_a_spell_attack_and_deflect_missiles_does_not_catch_one() {
    if !srd() {
        return;
    }
    let desc = srd_desc("Features", "uncanny-dodge");
    assert!(
        desc.contains("when an attacker that you can see hits you with an attack, you can use your reaction to halve the attack's damage against you"),
        "{desc}"
    );
    let deflect = srd_desc("Features", "deflect-missiles");
    assert!(
        deflect.contains("when you are hit by a ranged weapon attack"),
        "{deflect}"
    );
    let s = Session::start(2).await;
    pc(&s, "Rog", "rogue", 5, "thief", stats(8, 16, 10, 14)).await;
    pc(&s, "Monk", "monk", 5, "open-hand", stats(10, 16, 14, 10)).await;
    s.ok(
        "create_encounter",
        json!({"participants": [
            {"monster": "mage", "position": {"x": 10, "y": 5}, "initiative": 30},
            {"characterName": "Rog", "position": {"x": 5, "y": 5}, "initiative": 20},
            {"characterName": "Monk", "position": {"x": 5, "y": 7}, "initiative": 10}
        ]}),
    )
    .await;
    let bolt = |t: &str| json!({"actorName": "Mage", "actionType": "cast_spell", "spell": "Fire Bolt", "targetName": t, "force": true});
    let mut rog = String::new();
    for _ in 0..8 {
        let a = s.ok("execute_action", bolt("Rog")).await;
        if a.text.contains("— hit") {
            rog = a.text;
            break;
        }
    }
    assert_eq!(
        lines(&rog)[..5],
        [
            "Fire Bolt (cantrip): Rog takes 3 fire (38 → 35 HP).",
            "Mage — Fire Bolt spell attack vs Rog: d20 [16] + 6 = 22 vs AC 13 — hit",
            "Damage to Rog: 2d10: [6, 1] = 7",
            "Rog uses Uncanny Dodge (reaction): the attack's damage is halved (7 → 3)",
            "Rog takes 3 (3 fire); 38 → 35 HP",
        ]
    );
    let mut monk = String::new();
    for _ in 0..8 {
        let a = s.ok("execute_action", bolt("Monk")).await;
        if a.text.contains("— hit") {
            monk = a.text;
            break;
        }
    }
    // A spell attack is no ranged weapon attack: the monk's Deflect Missiles stays out of it.
    assert_eq!(
        lines(&monk)[..4],
        [
            "Fire Bolt (cantrip): Monk takes 13 fire (38 → 25 HP).",
            "Mage — Fire Bolt spell attack vs Monk: d20 [17] + 6 = 23 vs AC 15 — hit",
            "Damage to Monk: 2d10: [8, 5] = 13",
            "Monk takes 13 (13 fire); 38 → 25 HP",
        ]
    );
}

#[tokio::test]
async fn the_martial_arts_bonus_attack_is_an_unarmed_strike() {
    if !srd() {
        return;
    }
    let desc = srd_desc("Features", "martial-arts");
    assert!(
        desc.contains("when you use the attack action with an unarmed strike or a monk weapon on your turn, you can make one unarmed strike as a bonus action"),
        "{desc}"
    );
    let s = Session::start(3).await;
    s.ok(
        "create_character",
        json!({"name": "Monk", "race": "human", "stats": stats(10, 16, 14, 10),
               "classes": [{"class": "monk", "level": 3, "subclass": "open-hand"}], "equipment": ["shortsword"]}),
    )
    .await;
    s.ok(
        "manage_inventory",
        json!({"characterName": "Monk", "operation": "equip", "itemName": "Shortsword"}),
    )
    .await;
    s.ok(
        "create_encounter",
        json!({"participants": [
            {"characterName": "Monk", "position": {"x": 5, "y": 5}, "initiative": 30},
            {"monster": "ogre", "position": {"x": 6, "y": 5}, "initiative": 10}
        ]}),
    )
    .await;
    s.ok(
        "execute_action",
        json!({"actorName": "Monk", "actionType": "attack", "targetName": "Ogre", "weapon": "Shortsword"}),
    )
    .await;
    s.err(
        "execute_action",
        json!({"actorName": "Monk", "actionType": "attack", "targetName": "Ogre", "actionCost": "bonus_action", "weapon": "Shortsword"}),
        &["attack costs an action by the rules and no rule lets Monk take it as a bonus action; a bonus-action attack comes from two-weapon fighting (two_weapon_attack), Martial Arts (an unarmed strike after the Attack action: weapon \"unarmed strike\") or Frenzy"],
    )
    .await;
    // No weapon named: the bonus attack is the unarmed strike, not the shortsword in hand.
    let a = s
        .ok(
            "execute_action",
            json!({"actorName": "Monk", "actionType": "attack", "targetName": "Ogre", "actionCost": "bonus_action"}),
        )
        .await;
    assert_eq!(
        lines(&a.text)[..4],
        [
            "Hit! Ogre takes 6 bludgeoning (55 → 49 HP).",
            "Monk attack with Unarmed strike (Martial Arts d4): d20 [8] + 5 = 13 vs AC 11 — hit",
            "Damage: 1d4[bludgeoning] + 3[bludgeoning]: [3] bludgeoning + 3 bludgeoning = 6 (bludgeoning 6)",
            "Ogre takes 6 (6 bludgeoning); 55 → 49 HP",
        ]
    );
}

#[tokio::test]
async fn turn_undead_respects_turn_defiance_and_turn_resistance() {
    if !srd() {
        return;
    }
    let traits = |m: &str| srd_record("Monsters", m)["special_abilities"].to_string();
    assert!(
        traits("ghast").contains("The ghast and any ghouls within 30 ft. of it have advantage on saving throws against effects that turn undead."),
        "{}",
        traits("ghast")
    );
    assert!(
        traits("lich").contains(
            "The lich has advantage on saving throws against any effect that turns undead."
        ),
        "{}",
        traits("lich")
    );
    let s = Session::start(5).await;
    pc(&s, "Cler", "cleric", 8, "life", stats(14, 10, 20, 12)).await;
    s.ok(
        "create_encounter",
        json!({"participants": [
            {"characterName": "Cler", "position": {"x": 5, "y": 5}, "initiative": 30},
            {"monster": "ghoul", "name": "Near Ghoul", "position": {"x": 8, "y": 5}, "initiative": 9},
            {"monster": "ghast", "position": {"x": 8, "y": 7}, "initiative": 8},
            {"monster": "lich", "position": {"x": 8, "y": 3}, "initiative": 7},
            {"monster": "ghoul", "name": "Far Ghoul", "position": {"x": 5, "y": 0}, "initiative": 6}
        ],
        "terrain": {"width": 30, "height": 30}}),
    )
    .await;
    let a = s
        .ok(
            "execute_action",
            json!({"actorName": "Cler", "actionType": "use_special_ability", "abilityName": "Turn Undead"}),
        )
        .await;
    // The ghoul near the ghast and the ghast itself have advantage (Turn Defiance), the lich too
    // (Turn Resistance); the ghoul 30+ ft from the ghast does not.
    let l = lines(&a.text);
    assert_eq!(
        [l[2].as_str(), l[3].as_str(), l[5].as_str(), l[6].as_str()],
        [
            "Near Ghoul — Wisdom save (Turn Undead): d20 [19, ~~5~~] (advantage: Turn Defiance (Ghast, within 30 ft)) = 19 vs DC 16 — success",
            "Ghast — Wisdom save (Turn Undead): d20 [9, ~~3~~] (advantage: Turn Defiance) = 9 vs DC 16 — fail",
            "Lich — Wisdom save (Turn Undead): d20 [~~9~~, 18] (advantage: Turn Resistance) + 9 = 27 vs DC 16 — success",
            "Far Ghoul — Wisdom save (Turn Undead): d20 [16] = 16 vs DC 16 — success",
        ]
    );
}

#[tokio::test]
async fn bardic_inspiration_gives_a_die_to_another_creature_within_60_ft() {
    if !srd() {
        return;
    }
    let desc = srd_desc("Features", "bardic-inspiration-d6");
    assert!(
        desc.contains("you use a bonus action on your turn to choose one creature other than yourself within 60 feet of you who can hear you. that creature gains one bardic inspiration die"),
        "{desc}"
    );
    assert!(desc.contains("the die becomes a d8 at 5th level"), "{desc}");
    let s = Session::start(1).await;
    pc(&s, "Bard", "bard", 5, "lore", stats(8, 14, 10, 16)).await;
    pc(&s, "Fig", "fighter", 5, "champion", stats(16, 10, 10, 10)).await;
    pc(&s, "Far", "fighter", 5, "champion", stats(16, 10, 10, 10)).await;
    let sheet = s
        .ok("get_character", json!({"characterName": "Bard"}))
        .await;
    assert!(
        sheet
            .text
            .contains("Feature actions: Bardic Inspiration (d8)"),
        "{}",
        sheet.text
    );
    s.ok(
        "create_encounter",
        json!({"participants": [
            {"characterName": "Bard", "position": {"x": 2, "y": 5}, "initiative": 30},
            {"characterName": "Fig", "position": {"x": 3, "y": 5}, "initiative": 20},
            {"characterName": "Far", "position": {"x": 2, "y": 19}, "initiative": 15},
            {"monster": "orc", "position": {"x": 12, "y": 5}, "initiative": 10}
        ],
        "terrain": {"width": 20, "height": 20}}),
    )
    .await;
    let inspire = |t: &str| json!({"actorName": "Bard", "actionType": "use_special_ability", "abilityName": "Bardic Inspiration", "targetName": t});
    s.err(
        "execute_action",
        inspire("Bard"),
        &["Bardic Inspiration inspires another creature, not Bard itself"],
    )
    .await;
    s.err(
        "execute_action",
        inspire("Far"),
        &["Far is 70 ft from Bard; Bardic Inspiration reaches a creature within 60 ft that can hear it"],
    )
    .await;
    let a = s.ok("execute_action", inspire("Fig")).await;
    let held = "one d8 from Bard to add to one ability check, attack roll or saving throw within 10 minutes, after seeing the d20 and before the DM says how it went (no automation: the player rolls the d8 and the DM adds it, then removes this effect)";
    assert_eq!(
        lines(&a.text),
        [
            "Bard uses Bardic Inspiration on Fig (d8).".to_string(),
            "Bardic Inspiration: 2/3 left".to_string(),
            format!("Fig holds a Bardic Inspiration die (d8): {held}"),
            "Bard has left: action, reaction.".to_string(),
        ]
    );
    let fig = s.ok("get_character", json!({"characterName": "Fig"})).await;
    assert!(
        lines(&fig.text).contains(&format!(
            "Effect Bardic Inspiration (ef1): {held}; 100 rounds"
        )),
        "{}",
        fig.text
    );
    // One die at a time (next turn, with a bonus action again).
    for _ in 0..4 {
        s.ok("advance_turn", json!({})).await;
    }
    s.err(
        "execute_action",
        inspire("Fig"),
        &["Fig already holds a Bardic Inspiration die (one at a time): nothing is spent"],
    )
    .await;
}

#[tokio::test]
async fn arcane_recovery_restores_slots_on_a_short_rest() {
    if !srd() {
        return;
    }
    let desc = srd_desc("Features", "arcane-recovery");
    assert!(
        desc.contains("once per day when you finish a short rest, you can choose expended spell slots to recover. the spell slots can have a combined level that is equal to or less than half your wizard level (rounded up), and none of the slots can be 6th level or higher"),
        "{desc}"
    );
    let s = Session::start(1).await;
    pc(&s, "Wiz", "wizard", 3, "evocation", stats(8, 14, 10, 10)).await;
    s.ok(
        "manage_spell_slots",
        json!({"characterName": "Wiz", "operation": "expend", "level": 2, "count": 2}),
    )
    .await;
    s.ok(
        "manage_spell_slots",
        json!({"characterName": "Wiz", "operation": "expend", "level": 1, "count": 1}),
    )
    .await;
    let r = s
        .ok(
            "take_rest",
            json!({"characterName": "Wiz", "type": "short"}),
        )
        .await;
    // Wizard 3: two levels' worth, the highest spent first: one 2nd-level slot.
    assert_eq!(
        lines(&r.text)[0],
        "Wiz takes a short rest: Arcane Recovery: 1 slot(s) come back (2nd); left: 1st 3/4, 2nd 1/2; clock: Day 1, 08:00 → Day 1, 09:00 (1 h)."
    );
    let again = s
        .ok(
            "take_rest",
            json!({"characterName": "Wiz", "type": "short"}),
        )
        .await;
    assert_eq!(
        lines(&again.text)[0],
        "Wiz takes a short rest: Arcane Recovery was used since the last long rest: no slots come back."
    );
}

#[tokio::test]
async fn a_paladins_aura_leaves_at_once_when_it_is_set_to_0_hp_and_the_dead_show_no_stun() {
    if !srd() {
        return;
    }
    let aura = srd_desc("Features", "aura-of-protection");
    assert!(
        aura.contains("you must be conscious to grant this bonus"),
        "{aura}"
    );
    let s = Session::start(6).await;
    pc(&s, "Pal", "paladin", 6, "devotion", stats(16, 10, 10, 16)).await;
    pc(&s, "Fig", "fighter", 5, "champion", stats(16, 10, 10, 10)).await;
    s.ok(
        "create_encounter",
        json!({"participants": [
            {"characterName": "Pal", "position": {"x": 5, "y": 5}, "initiative": 30},
            {"characterName": "Fig", "position": {"x": 6, "y": 5}, "initiative": 20},
            {"monster": "goblin", "position": {"x": 9, "y": 5}, "initiative": 10}
        ]}),
    )
    .await;
    let effect =
        "Effect Aura of Protection (aura-aura-of-protection): +3 to saving throws; until dispelled"
            .to_string();
    let before = s.ok("get_character", json!({"characterName": "Fig"})).await;
    assert!(lines(&before.text).contains(&effect), "{}", before.text);
    let down = s
        .ok(
            "update_character",
            json!({"characterName": "Pal", "hp": "0"}),
        )
        .await;
    assert_eq!(
        lines(&down.text)[0],
        "HP set 52 → 0. Pal takes 52 (52 untyped); 52 → 0 HP; falls unconscious and starts death saves. Fig is no longer within Aura of Protection (Pal)."
    );
    let after = s.ok("get_character", json!({"characterName": "Fig"})).await;
    assert!(!after.text.contains("Aura of Protection"), "{}", after.text);
    // A stunned goblin that dies shows as dead, without its stun.
    s.ok(
        "manage_condition",
        json!({"characterName": "Goblin", "operation": "add", "condition": "stunned"}),
    )
    .await;
    s.ok(
        "update_character",
        json!({"characterName": "Goblin", "hp": "0"}),
    )
    .await;
    let view = s
        .ok("get_encounter", json!({"verbosity": "standard"}))
        .await;
    assert_eq!(
        lines(&view.text)[3],
        "- 10 Goblin · enemy · HP 0/7 · AC 15 · (9, 5) · dead"
    );
}
