//! What a monster's attack does on a hit beyond its damage, end to end over the real tools with
//! SRD monsters and SRD-built characters, each SRD fact read from the SRD JSON at run time:
//! a ghoul's claws spare an elf and an undead (not a half-elf), a gladiator's Shield Bash and a
//! tyrannosaurus's bite spare a creature too large, a constrictor snake grapples and restrains
//! (escape DC 14, the restrained ending with the grapple), a wight's Life Drain lowers the hit
//! point maximum until a long rest, a shadow's Strength Drain lowers Strength until a short
//! rest, and a mummy's rot is said to be the DM's. Seeds are pinned.

use super::common;

use common::{Session, srd_record};
use serde_json::{Value, json};

use common::srd_here as srd;

/// The text of `monster`'s action `name`.
fn action(monster: &str, name: &str) -> String {
    let m = srd_record("Monsters", monster);
    m["actions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["name"] == name)
        .unwrap_or_else(|| panic!("{monster} has no {name}"))["desc"]
        .as_str()
        .unwrap()
        .to_string()
}

/// The text from "Hit:" on.
fn on_hit(desc: &str) -> &str {
    &desc[desc.find("Hit:").expect("a hit")..]
}

async fn pc(s: &Session, name: &str, race: &str, subrace: Option<&str>, class: &str) {
    let mut args = json!({"name": name, "race": race, "class": class, "level": 1,
        "stats": {"str": 14, "dex": 14, "con": 12, "int": 10, "wis": 12, "cha": 10}});
    if let Some(sr) = subrace {
        args["subrace"] = json!(sr);
    }
    s.ok("create_character", args).await;
}

async fn sheet(s: &Session, name: &str) -> Value {
    s.ok("get_character", json!({"characterName": name}))
        .await
        .structured["character"]
        .clone()
}

/// A fight of `monster` (first in initiative, at (1, 0)) against the creatures named, in a row.
async fn fight(s: &Session, monster: &str, pcs: &[&str], monsters: &[&str]) {
    let mut participants =
        vec![json!({"monster": monster, "position": {"x": 1, "y": 0}, "initiative": 30})];
    // The others stand beside the attacker's space (a Huge one takes 3 squares).
    let next_x = if srd_record("Monsters", monster)["size"] == "Huge" {
        4
    } else {
        2
    };
    for (i, n) in pcs.iter().enumerate() {
        participants.push(
            json!({"characterName": n, "position": {"x": 0, "y": i}, "initiative": 10 - i as i64}),
        );
    }
    for (i, m) in monsters.iter().enumerate() {
        participants.push(
            json!({"monster": m, "position": {"x": next_x + 3 * i as i64, "y": 0}, "initiative": 2}),
        );
    }
    s.ok("create_encounter", json!({"participants": participants}))
        .await;
}

fn attack(actor: &str, target: &str, weapon: &str) -> Value {
    json!({"actorName": actor, "actionType": "attack", "targetName": target, "weapon": weapon})
}

/// The lines of an answer.
fn lines(text: &str) -> Vec<&str> {
    text.lines().map(str::trim).collect()
}

fn has(text: &str, want: &str) {
    assert!(lines(text).contains(&want), "{want}\n---\n{text}");
}

/// The effective value of `ability` ("str") and the effective hit point maximum.
async fn figures(s: &Session, name: &str) -> (u64, u64) {
    let a = s.ok("get_character", json!({"characterName": name})).await;
    let e = &a.structured["effective"];
    (
        e["abilities"]["str"]["value"].as_u64().unwrap(),
        e["maxHp"]["value"].as_u64().unwrap(),
    )
}

#[tokio::test]
async fn a_ghouls_claws_spare_an_elf_and_an_undead_but_not_a_half_elf() {
    if !srd() {
        return;
    }
    let claws = action("ghoul", "Claws");
    assert!(
        on_hit(&claws).contains(
            "If the target is a creature other than an elf or undead, it must succeed on a DC 10 \
             Constitution saving throw or be paralyzed for 1 minute."
        ),
        "{claws}"
    );
    assert_eq!(srd_record("Monsters", "zombie")["type"], "undead");
    assert_eq!(srd_record("Races", "half-elf")["name"], "Half-Elf");
    // A high elf ranger: hit, no save, not paralyzed.
    let s = Session::start(4).await;
    pc(&s, "Ela", "elf", Some("high elf"), "ranger").await;
    pc(&s, "Hal", "half-elf", None, "ranger").await;
    fight(&s, "ghoul", &["Ela", "Hal"], &["zombie"]).await;
    let a = s
        .ok("execute_action", attack("Ghoul", "Ela", "Claws"))
        .await;
    has(&a.text, "Hit! Ela takes 4 slashing (11 → 7 HP).");
    has(
        &a.text,
        "Ela is an elf: Claws (DC 10 CON save or paralyzed) does not affect it",
    );
    assert!(!a.text.contains("Constitution save"), "{}", a.text);
    assert_eq!(sheet(&s, "Ela").await["conditions"], json!([]));
    // A zombie: undead.
    let s = Session::start(1).await;
    fight(&s, "ghoul", &[], &["zombie"]).await;
    let a = s
        .ok("execute_action", attack("Ghoul", "Zombie", "Claws"))
        .await;
    has(&a.text, "Hit! Zombie takes 7 slashing (22 → 15 HP).");
    has(
        &a.text,
        "Zombie is undead: Claws (DC 10 CON save or paralyzed) does not affect it",
    );
    assert_eq!(sheet(&s, "Zombie").await["conditions"], json!([]));
    // A half-elf is a race of its own: it makes the save.
    let s = Session::start(1).await;
    pc(&s, "Hal", "half-elf", None, "ranger").await;
    fight(&s, "ghoul", &["Hal"], &[]).await;
    let a = s
        .ok("execute_action", attack("Ghoul", "Hal", "Claws"))
        .await;
    has(&a.text, "Hit! Hal takes 7 slashing (11 → 4 HP).");
    has(
        &a.text,
        "Hal — Constitution save (Claws): d20 [15] + 1 = 16 vs DC 10 — success",
    );
    assert!(!a.text.contains("does not affect"), "{}", a.text);
}

#[tokio::test]
async fn a_rider_limited_by_size_spares_a_huge_giant() {
    if !srd() {
        return;
    }
    let bash = action("gladiator", "Shield Bash");
    assert!(
        on_hit(&bash).contains(
            "If the target is a Medium or smaller creature, it must succeed on a DC 15 Strength \
             saving throw or be knocked prone."
        ),
        "{bash}"
    );
    let bite = action("tyrannosaurus-rex", "Bite");
    assert!(
        on_hit(&bite).contains(
            "If the target is a Medium or smaller creature, it is grappled (escape DC 17). Until \
             this grapple ends, the target is restrained, and the tyrannosaurus can't bite \
             another target."
        ),
        "{bite}"
    );
    assert_eq!(srd_record("Monsters", "hill-giant")["size"], "Huge");
    let s = Session::start(1).await;
    fight(&s, "gladiator", &[], &["hill-giant"]).await;
    let a = s
        .ok(
            "execute_action",
            attack("Gladiator", "Hill Giant", "Shield Bash"),
        )
        .await;
    has(
        &a.text,
        "Hit! Hill Giant takes 9 bludgeoning (105 → 96 HP).",
    );
    has(
        &a.text,
        "Hill Giant is Huge: Shield Bash (DC 15 STR save or prone) affects only a Medium or smaller creature",
    );
    assert!(!a.text.contains("Strength save"), "{}", a.text);
    assert_eq!(sheet(&s, "Hill Giant").await["conditions"], json!([]));
    let s = Session::start(1).await;
    fight(&s, "tyrannosaurus-rex", &[], &["hill-giant"]).await;
    let a = s
        .ok(
            "execute_action",
            attack("Tyrannosaurus Rex", "Hill Giant", "Bite"),
        )
        .await;
    has(&a.text, "Hit! Hill Giant takes 43 piercing (105 → 62 HP).");
    has(
        &a.text,
        "Hill Giant is Huge: Bite (grappled, escape DC 17, and restrained while grappled) affects only a Medium or smaller creature",
    );
    assert_eq!(sheet(&s, "Hill Giant").await["conditions"], json!([]));
}

#[tokio::test]
async fn a_constrictor_snake_grapples_and_restrains_until_the_target_escapes_its_dc() {
    if !srd() {
        return;
    }
    let constrict = action("constrictor-snake", "Constrict");
    assert!(
        on_hit(&constrict).contains(
            "and the target is grappled (escape DC 14). Until this grapple ends, the creature is \
             restrained, and the snake can't constrict another target."
        ),
        "{constrict}"
    );
    let grappled = |id: &str| {
        json!([
            {"condition": "grappled", "source": format!("grappled by Constrictor Snake (escape DC 14) ({id})")},
            {"condition": "restrained", "source": format!("while grappled by Constrictor Snake ({id})")},
        ])
    };
    for (seed, roll, escapes) in [
        (5, "d20 [18] + 4 = 22 vs DC 14 — success", true),
        (1, "d20 [3] + 4 = 7 vs DC 14 — fail", false),
    ] {
        let s = Session::start(seed).await;
        pc(&s, "Ana", "human", None, "fighter").await;
        fight(&s, "constrictor-snake", &["Ana"], &[]).await;
        let a = s
            .ok(
                "execute_action",
                attack("Constrictor Snake", "Ana", "Constrict"),
            )
            .await;
        for want in [
            "Ana is grappled by Constrictor Snake (escape DC 14; speed 0) (Constrict)",
            "Ana is restrained until the grapple ends (Constrict)",
            "To escape, Ana uses its action: execute_action grapple naming Constrictor Snake (an Athletics or Acrobatics check against DC 14)",
            "Left to the DM (Constrict): the snake can't constrict another target",
        ] {
            has(&a.text, want);
        }
        let snake = sheet(&s, "Constrictor Snake").await["id"]
            .as_str()
            .unwrap()
            .to_string();
        assert_eq!(sheet(&s, "Ana").await["conditions"], grappled(&snake));
        s.ok("advance_turn", json!({})).await;
        // Escaping: Ana's action, a check against the stated DC (not a contest).
        let a = s
            .ok(
                "execute_action",
                json!({"actorName": "Ana", "actionType": "grapple", "targetName": "Constrictor Snake"}),
            )
            .await;
        has(&a.text, &format!("Ana Athletics: {roll}"));
        if escapes {
            has(&a.text, "Ana escapes Constrictor Snake's grapple.");
            has(
                &a.text,
                "Ana is no longer restrained (it lasted while grappled)",
            );
            assert_eq!(sheet(&s, "Ana").await["conditions"], json!([]));
        } else {
            has(&a.text, "Ana fails to escape Constrictor Snake's grapple.");
            assert_eq!(sheet(&s, "Ana").await["conditions"], grappled(&snake));
        }
    }
}

#[tokio::test]
async fn a_wights_life_drain_lowers_the_hit_point_maximum_until_a_long_rest() {
    if !srd() {
        return;
    }
    let drain = action("wight", "Life Drain");
    assert!(
        on_hit(&drain).contains(
            "The target must succeed on a DC 13 Constitution saving throw or its hit point \
             maximum is reduced by an amount equal to the damage taken. This reduction lasts \
             until the target finishes a long rest. The target dies if this effect reduces its \
             hit point maximum to 0."
        ),
        "{drain}"
    );
    let s = Session::start(1).await;
    pc(&s, "Ana", "human", None, "fighter").await;
    fight(&s, "wight", &["Ana"], &[]).await;
    assert_eq!(figures(&s, "Ana").await.1, 11);
    let a = s
        .ok("execute_action", attack("Wight", "Ana", "Life Drain"))
        .await;
    for want in [
        "Hit! Ana takes 4 necrotic (11 → 7 HP).",
        "Ana — Constitution save (Life Drain): d20 [3] + 3 = 6 vs DC 13 — fail",
        "Ana's hit point maximum is reduced by 4 until a long rest (Life Drain): 11 → 7; HP 7/7",
        "Left to the DM (Life Drain): A humanoid slain by this attack rises 24 hours later as a zombie under the wight's control, unless the humanoid is restored to life or its body is destroyed; The wight can have no more than twelve zombies under its control at one time",
    ] {
        has(&a.text, want);
    }
    // Derived: the base maximum is unchanged, the effect lowers the effective one.
    let c = sheet(&s, "Ana").await;
    assert_eq!(c["maxHp"], 11);
    assert_eq!(c["effects"][0]["name"], "Drained: hit point maximum");
    assert_eq!(c["effects"][0]["duration"], json!({"kind": "until_rest"}));
    assert_eq!(figures(&s, "Ana").await.1, 7);
    s.ok("end_encounter", json!({"outcome": "other"})).await;
    // A short rest keeps it; a long rest ends it.
    s.ok(
        "take_rest",
        json!({"characterName": "Ana", "type": "short"}),
    )
    .await;
    assert_eq!(figures(&s, "Ana").await.1, 7);
    let r = s
        .ok("take_rest", json!({"characterName": "Ana", "type": "long"}))
        .await;
    assert!(
        r.text.contains("ends: Drained: hit point maximum"),
        "{}",
        r.text
    );
    assert_eq!(figures(&s, "Ana").await.1, 11);
    assert_eq!(sheet(&s, "Ana").await["hp"], 11);
}

#[tokio::test]
async fn a_shadows_strength_drain_lowers_strength_until_a_short_rest() {
    if !srd() {
        return;
    }
    let drain = action("shadow", "Strength Drain");
    assert!(
        on_hit(&drain).contains(
            "and the target's Strength score is reduced by 1d4. The target dies if this reduces \
             its Strength to 0. Otherwise, the reduction lasts until the target finishes a short \
             or long rest."
        ),
        "{drain}"
    );
    let s = Session::start(1).await;
    pc(&s, "Ana", "human", None, "fighter").await;
    fight(&s, "shadow", &["Ana"], &[]).await;
    assert_eq!(figures(&s, "Ana").await.0, 15);
    let a = s
        .ok("execute_action", attack("Shadow", "Ana", "Strength Drain"))
        .await;
    for want in [
        "Hit! Ana takes 9 necrotic (11 → 2 HP).",
        "Ana's Strength is reduced by 3 until a short or long rest (Strength Drain; 1d4: [3] = 3): 15 → 12",
        "Left to the DM (Strength Drain): If a non-evil humanoid dies from this attack, a new shadow rises from the corpse 1d4 hours later",
    ] {
        has(&a.text, want);
    }
    let c = sheet(&s, "Ana").await;
    assert_eq!(c["abilities"]["strength"], 15, "the base score is kept");
    assert_eq!(
        c["effects"][0]["duration"],
        json!({"kind": "until_short_rest"})
    );
    assert_eq!(figures(&s, "Ana").await.0, 12);
    s.ok("end_encounter", json!({"outcome": "other"})).await;
    let r = s
        .ok(
            "take_rest",
            json!({"characterName": "Ana", "type": "short"}),
        )
        .await;
    assert!(r.text.contains("ends: Drained: Strength"), "{}", r.text);
    assert_eq!(figures(&s, "Ana").await.0, 15);
}

#[tokio::test]
async fn a_mummys_rot_is_said_to_be_the_dms_and_noted_on_the_sheet() {
    if !srd() {
        return;
    }
    let fist = action("mummy", "Rotting Fist");
    assert!(
        on_hit(&fist).contains(
            "If the target is a creature, it must succeed on a DC 12 Constitution saving throw or \
             be cursed with mummy rot. The cursed target can't regain hit points"
        ),
        "{fist}"
    );
    let s = Session::start(5).await;
    s.ok(
        "create_character",
        json!({"name": "Bo", "race": "human", "class": "fighter", "level": 5,
               "stats": {"str": 16, "dex": 12, "con": 14, "int": 10, "wis": 10, "cha": 10}}),
    )
    .await;
    fight(&s, "mummy", &["Bo"], &[]).await;
    let a = s
        .ok("execute_action", attack("Mummy", "Bo", "Rotting Fist"))
        .await;
    for want in [
        "Hit! Bo takes 6 bludgeoning + 7 necrotic (44 → 31 HP).",
        "Bo — Constitution save (Rotting Fist): d20 [3] + 5 = 8 vs DC 12 — fail",
        "Left to the DM (Rotting Fist, failed save): be cursed with mummy rot; The cursed target can't regain hit points, and its hit point maximum decreases by 10 (3d6) for every 24 hours that elapse; If the curse reduces the target's hit point maximum to 0, the target dies, and its body turns to dust; The curse lasts until removed by the remove curse spell or other magic; noted on Bo's sheet as the effect \"Rotting Fist (Mummy)\"",
    ] {
        has(&a.text, want);
    }
    let c = sheet(&s, "Bo").await;
    assert_eq!(c["effects"][0]["name"], "Rotting Fist (Mummy)");
    assert_eq!(
        c["effects"][0]["duration"],
        json!({"kind": "until_dispelled"})
    );
    assert_eq!(c["effects"][0]["modifiers"][0]["type"], "note");
}

/// The SRD asks one concentration save per source of damage: a giant spider's bite is one
/// source, its piercing and its poison together, so a concentrating cleric makes one save whose
/// DC comes from both.
#[tokio::test]
async fn one_bite_forces_one_concentration_save_for_all_its_damage() {
    if !srd() {
        return;
    }
    let bite = action("giant-spider", "Bite");
    assert!(
        on_hit(&bite).contains(
            "Hit: 7 (1d8 + 3) piercing damage, and the target must make a DC 11 Constitution \
             saving throw, taking 9 (2d8) poison damage on a failed save, or half as much damage \
             on a successful one."
        ),
        "{bite}"
    );
    let rule = srd_record("Rule-Sections", "casting-a-spell")["desc"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        rule.contains(
            "If you take damage from multiple sources, such as an arrow and a dragon's breath, you \
             make a separate saving throw for each source of damage."
        ),
        "{rule}"
    );
    let s = Session::start(1).await;
    s.ok(
        "create_character",
        json!({"name": "Bram", "race": "human", "class": "cleric", "level": 5,
               "stats": {"str": 14, "dex": 10, "con": 14, "int": 10, "wis": 16, "cha": 12}}),
    )
    .await;
    s.ok(
        "manage_concentration",
        json!({"operation": "set", "characterName": "Bram", "spellName": "Bless"}),
    )
    .await;
    fight(&s, "giant-spider", &["Bram"], &[]).await;
    let a = s
        .ok("execute_action", attack("Giant Spider", "Bram", "Bite"))
        .await;
    // The piercing and the poison land first, neither saying a save of its own; then one save
    // against DC max(10, (9 + 15) / 2) = 12.
    for want in [
        "Bram takes 9 (9 piercing); 38 → 29 HP",
        "Bram — Constitution save (Bite): d20 [3] + 2 = 5 vs DC 11 — fail",
        "Bram takes 15 (15 poison); 29 → 14 HP",
        "Bram — concentration on Bless after 24 damage, DC 12: Concentration save: d20 [2] + 2 = 4 vs DC 12 — fail; Bram's concentration on Bless ends (failed concentration save)",
    ] {
        has(&a.text, want);
    }
    let saves = lines(&a.text)
        .into_iter()
        .filter(|l| l.contains("concentration save") || l.contains("— concentration on"))
        .count();
    assert_eq!(saves, 1, "{}", a.text);
    has(
        &a.text,
        "Hit! Bram takes 9 piercing (38 → 29 HP), and 15 more from Bite's rider (→ 14 HP).",
    );
    let check = &a.structured["details"]["attacks"][0]["concentration"];
    assert_eq!(check["damage"], 24, "{check}");
    assert_eq!(check["dc"], 12, "{check}");
    let c = sheet(&s, "Bram").await;
    assert_eq!(c["hp"], 14);
    assert_eq!(c["concentration"], Value::Null);
}

/// "The target dies if this effect reduces its hit point maximum to 0": drained again and
/// again, a fighter dies of it, not of her wounds (no death saves).
#[tokio::test]
async fn a_life_drain_that_takes_the_whole_maximum_kills() {
    if !srd() {
        return;
    }
    let drain = action("wight", "Life Drain");
    assert!(
        on_hit(&drain)
            .contains("The target dies if this effect reduces its hit point maximum to 0."),
        "{drain}"
    );
    let s = Session::start(1).await;
    pc(&s, "Ana", "human", None, "fighter").await;
    fight(&s, "wight", &["Ana"], &[]).await;
    let mut texts = Vec::new();
    for _ in 0..12 {
        let a = s
            .ok("execute_action", attack("Wight", "Ana", "Life Drain"))
            .await;
        let done = a.text.contains("dies: Life Drain");
        texts.push(a.text);
        if done {
            break;
        }
        // Ana's turn passes; if she is down, she makes her death save and waits.
        s.ok("advance_turn", json!({})).await;
        s.ok("advance_turn", json!({})).await;
    }
    // The second drain: 8 necrotic drops her to 0 HP and takes 8 from a maximum of 7.
    assert_eq!(texts.len(), 2, "{texts:?}");
    for want in [
        "Hit! Ana takes 8 necrotic (7 → 0 HP) and falls unconscious (death saves), and dies of Life Drain's rider.",
        "Ana — Constitution save (Life Drain): d20 [2] + 3 = 5 vs DC 13 — fail",
        "Ana dies: Life Drain reduces its hit point maximum to 0 (7 − 8)",
    ] {
        has(&texts[1], want);
    }
    let c = sheet(&s, "Ana").await;
    assert_eq!(
        (c["hp"].clone(), c["dead"].clone()),
        (json!(0), json!(true))
    );
}

#[tokio::test]
async fn a_vampire_spawn_at_full_hp_says_its_bite_heals_nothing() {
    if !srd() {
        return;
    }
    let bite = action("vampire-spawn", "Bite");
    assert!(
        on_hit(&bite).contains(
            "The target's hit point maximum is reduced by an amount equal to the necrotic \
             damage taken, and the vampire regains hit points equal to that amount."
        ),
        "{bite}"
    );
    let spawn_hp = srd_record("Monsters", "vampire-spawn")["hit_points"].clone();
    assert_eq!(spawn_hp, 82);
    let s = Session::start(1).await;
    s.ok(
        "create_character",
        json!({"name": "Ana", "race": "human", "class": "fighter", "level": 5,
               "stats": {"str": 14, "dex": 14, "con": 12, "int": 10, "wis": 12, "cha": 10}}),
    )
    .await;
    fight(&s, "vampire-spawn", &["Ana"], &[]).await;
    s.ok(
        "manage_condition",
        json!({"operation": "add", "characterName": "Ana", "condition": "restrained"}),
    )
    .await;
    let a = s
        .ok("execute_action", attack("Vampire Spawn", "Ana", "Bite"))
        .await;
    has(
        &a.text,
        "Vampire Spawn is already at its hit point maximum (82 HP): it regains nothing (Bite)",
    );
    assert!(!a.text.contains("regains 0"), "{}", a.text);
}

#[tokio::test]
async fn a_web_restrains_on_a_hit_without_damage_and_says_how_to_break_free() {
    if !srd() {
        return;
    }
    // (monster, its name in the fight, the escape DC its text gives, the seed of a hit)
    for (monster, name, dc, seed) in [
        ("giant-spider", "Giant Spider", 12, 3),
        ("ettercap", "Ettercap", 11, 3),
    ] {
        let web = action(monster, "Web");
        let hit = on_hit(&web);
        assert!(
            hit.contains("is restrained by webbing.")
                && hit.contains(&format!("DC {dc} Strength check"))
                && !hit.split(". ").next().unwrap().contains("damage"),
            "{web}"
        );
        let s = Session::start(seed).await;
        pc(&s, "Ana", "human", None, "fighter").await;
        s.ok(
            "create_encounter",
            json!({"participants": [
                {"monster": monster, "position": {"x": 0, "y": 0}, "initiative": 30},
                {"characterName": "Ana", "position": {"x": 4, "y": 0}, "initiative": 10},
            ]}),
        )
        .await;
        let hp = sheet(&s, "Ana").await["hp"].clone();
        let a = s.ok("execute_action", attack(name, "Ana", "Web")).await;
        assert_eq!(a.text.lines().next(), Some("Hit! Ana is restrained (Web)."));
        assert!(
            !a.text.contains("Damage:") && !a.text.contains("untyped"),
            "{}",
            a.text
        );
        has(
            &a.text,
            &format!(
                "No automation for Web's hold: the DM decides; breaking free takes Ana's action: a DC {dc} Strength check (roll_check), then manage_condition remove on a success; {}",
                on_hit(&web)
                    .split(". ")
                    .skip(2)
                    .collect::<Vec<_>>()
                    .join("; ")
                    .trim_end_matches('.')
            ),
        );
        let ana = sheet(&s, "Ana").await;
        assert_eq!(ana["hp"], hp);
        assert_eq!(
            ana["conditions"],
            json!([{"condition": "restrained", "source": format!("Web ({name})")}])
        );
    }
}
