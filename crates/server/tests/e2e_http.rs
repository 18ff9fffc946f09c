//! End to end over real HTTP against the real binary (`serve --http`): tokens and their 401s,
//! the Origin check, malformed bodies, campaign isolation, the player role and a sweep of every
//! tool and resource as a player for anything hidden.

use serde_json::{Value, json};

use super::common::http;

use http::{Mcp, cli, serve, token};

fn raw(url: &str) -> reqwest::RequestBuilder {
    reqwest::Client::new()
        .post(url)
        .header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream")
}

const INIT: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}"#;

/// Secrets planted by the DM that no player answer may contain.
const SECRETS: &[&str] = &[
    "DRAGON-UNDER-THE-HILL", // a DM note
    "Vault of Whispers",     // the far side of an unfound hidden exit
    "Lurker",                // a hidden monster
    "Venomfang",             // a monster's stat-block attack
    "37/37",                 // a monster's exact HP
    "\"maxHp\":37",
    "\"ac\":15",
    "BARON-IS-A-LICH",      // a secret's content
    "phylactery",           // its key term
    "WHISPERS-AT-THE-WELL", // an NPC's memory
    "Cult of Ashes",        // a faction only the DM's NPC record holds
];

fn assert_clean(what: &str, text: &str) {
    for s in SECRETS {
        assert!(!text.contains(s), "{what} leaked {s}: {text}");
    }
}

async fn plant(dm: &mut Mcp) {
    dm.ok(
        "create_character",
        json!({"name": "Aria", "class": "fighter", "race": "human", "characterType": "pc"}),
    )
    .await;
    dm.ok(
        "create_character",
        json!({"name": "Bram", "class": "cleric", "race": "dwarf", "characterType": "pc"}),
    )
    .await;
    for (name, discovered) in [("Gate", true), ("Vault of Whispers", false)] {
        dm.ok(
            "manage_location",
            json!({"operation": "create", "name": name, "discovered": discovered}),
        )
        .await;
    }
    dm.ok("manage_location", json!({"operation": "link", "fromLocationId": "Gate", "toLocationId": "Vault of Whispers", "connectionType": "hidden", "findDC": 30})).await;
    dm.ok(
        "manage_party",
        json!({"operation": "create", "name": "Heroes", "locationId": "Gate"}),
    )
    .await;
    for c in ["Aria", "Bram"] {
        dm.ok(
            "manage_party",
            json!({"operation": "add_member", "partyName": "Heroes", "characterName": c}),
        )
        .await;
    }
    dm.ok(
        "manage_notes",
        json!({"operation": "add", "content": "DRAGON-UNDER-THE-HILL waits", "visibility": "dm"}),
    )
    .await;
    dm.ok(
        "manage_notes",
        json!({"operation": "add", "content": "The gate stands open", "visibility": "player"}),
    )
    .await;
    // Campaign memory: a secret, an NPC who remembers, a quest.
    dm.ok(
        "manage_secret",
        json!({"operation": "create", "title": "The baron", "content": "BARON-IS-A-LICH",
               "keyTerms": ["phylactery"], "revealCondition": "the crypt is found"}),
    )
    .await;
    dm.ok(
        "manage_npc",
        json!({"operation": "create", "name": "Old Wenna", "factions": ["Cult of Ashes"]}),
    )
    .await;
    dm.ok(
        "manage_npc",
        json!({"operation": "remember", "npcId": "Old Wenna", "about": "Aria", "memory": "WHISPERS-AT-THE-WELL"}),
    )
    .await;
    dm.ok(
        "create_encounter",
        json!({"name": "Gatehouse", "participants": [
            {"name": "Lurker", "hp": 20, "ac": 12, "side": "enemy", "initiative": 25, "position": {"x": 9, "y": 9}},
            {"characterName": "Aria", "initiative": 20, "position": {"x": 1, "y": 1}},
            {"characterName": "Bram", "initiative": 15, "position": {"x": 1, "y": 2}},
            {"name": "Brute", "hp": 37, "ac": 15, "side": "enemy", "initiative": 5, "position": {"x": 2, "y": 1},
             "attacks": [{"name": "Venomfang", "bonus": 4, "damage": "1d6+2", "damageType": "piercing"}]}
        ]}),
    )
    .await;
    dm.ok(
        "execute_action",
        json!({"actorName": "Lurker", "actionType": "hide", "force": true}),
    )
    .await;
    let fight = dm.ok("get_encounter", json!({})).await;
    assert!(fight.contains("hidden (Stealth"), "{fight}");
    dm.ok("advance_turn", json!({})).await;
}

#[tokio::test]
async fn tokens_roles_isolation_and_no_leaks_over_http() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    cli(d, &["--campaign", "alpha", "campaign", "list"]);
    // Campaigns exist once something opens them; `call` does.
    cli(
        d,
        &[
            "--campaign",
            "alpha",
            "call",
            "roll_dice",
            r#"{"expression":"1"}"#,
        ],
    );
    cli(
        d,
        &[
            "--campaign",
            "beta",
            "call",
            "roll_dice",
            r#"{"expression":"1"}"#,
        ],
    );
    let dm_a = token(d, "alpha", "dm", None);
    let dm_b = token(d, "beta", "dm", None);
    let srv = serve(d);
    let url = srv.url.clone();

    // No token, a bad one, a foreign Origin.
    let r = raw(&url).body(INIT).send().await.unwrap();
    assert_eq!(r.status().as_u16(), 401);
    assert_eq!(r.headers()["www-authenticate"], "Bearer realm=\"tabletop\"");
    let r = raw(&url)
        .bearer_auth(format!("{dm_a}x"))
        .body(INIT)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 401);
    assert!(
        r.headers()["www-authenticate"]
            .to_str()
            .unwrap()
            .contains("invalid_token")
    );
    let r = raw(&url)
        .bearer_auth(&dm_a)
        .header("Origin", "https://evil.example")
        .body(INIT)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 403);
    let r = raw(&url)
        .bearer_auth(&dm_a)
        .header("Origin", "http://localhost:6274")
        .body(INIT)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 200);

    // Bad input: not JSON, not JSON-RPC, too big, unknown session, unsupported version.
    let r = raw(&url)
        .bearer_auth(&dm_a)
        .body("{nope")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 400);
    let v: Value = r.json().await.unwrap();
    assert_eq!(v["error"]["code"], -32700);
    assert_eq!(v["id"], Value::Null);
    let r = raw(&url)
        .bearer_auth(&dm_a)
        .body(r#"{"id":1}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 400);
    assert_eq!(r.json::<Value>().await.unwrap()["error"]["code"], -32600);
    let big = format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"ping","params":{{"pad":"{}"}}}}"#,
        "x".repeat(2 * 1024 * 1024)
    );
    let r = raw(&url).bearer_auth(&dm_a).body(big).send().await.unwrap();
    assert_eq!(r.status().as_u16(), 413);
    let r = raw(&url)
        .bearer_auth(&dm_a)
        .header("Mcp-Session-Id", "no-such-session")
        .body(r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 404);
    let r = raw(&url)
        .bearer_auth(&dm_a)
        .header("MCP-Protocol-Version", "1999-01-01")
        .body(r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 400);

    // The DM of alpha plants what players must not see.
    let mut dm = Mcp::new(&url, &dm_a).await;
    let dm_tools = dm.tool_names().await;
    assert_eq!(dm_tools.len(), 41, "{dm_tools:?}");
    plant(&mut dm).await;
    // Tokens are made while the server runs.
    let aria = token(d, "alpha", "player", Some("Aria"));

    // Isolation: beta's DM sees nothing of alpha and cannot change it.
    let mut other = Mcp::new(&url, &dm_b).await;
    let (err, text, _) = other
        .call("get_character", json!({"characterName": "Aria"}))
        .await;
    assert!(err, "{text}");
    assert!(
        text.starts_with("no character 'Aria' in this campaign"),
        "{text}"
    );
    let (err, _, _) = other
        .call(
            "update_character",
            json!({"characterName": "Aria", "damage": 5}),
        )
        .await;
    assert!(err);
    let sheet = dm
        .ok("get_character", json!({"characterName": "Aria"}))
        .await;
    assert!(!sheet.contains("HP 0/"), "{sheet}");
    // A session opened with alpha's token does not let beta's token into alpha.
    other.session = dm.session.clone();
    let (err, text, _) = other
        .call("get_character", json!({"characterName": "Aria"}))
        .await;
    assert!(err, "{text}");

    // The player: a narrower surface, DM tools refused.
    let mut p = Mcp::new(&url, &aria).await;
    let mine = p.tool_names().await;
    assert_eq!(
        mine,
        [
            "roll_dice",
            "get_character",
            "roll_check",
            "get_encounter",
            "execute_action",
            "advance_turn",
            "roll_death_save",
            "manage_notes",
            "get_session_context",
            "manage_inventory",
            "search_compendium",
            "get_compendium_entry"
        ]
    );
    let (err, text, _) = p.call("create_character", json!({"name": "Cheat"})).await;
    assert!(err);
    assert_eq!(
        text,
        "create_character is a DM tool: a player token cannot use it. Ask the DM, or call tools/list for what you can do."
    );
    let (err, text, _) = p
        .call(
            "roll_check",
            json!({"characterName": "Bram", "checkType": "skill", "skill": "athletics"}),
        )
        .await;
    assert!(err);
    assert!(
        text.starts_with("a player acts only for their own character, Aria (ch1)"),
        "{text}"
    );
    let own = p
        .ok(
            "roll_check",
            json!({"checkType": "skill", "skill": "athletics"}),
        )
        .await;
    assert!(own.contains("Aria"), "{own}");
    // Its own sheet in full, a companion in summary, a visible foe as a state, a hidden one not at all.
    let me = p.ok("get_character", json!({})).await;
    assert!(me.contains("Aria") && me.contains("Fighter"), "{me}");
    let bram = p
        .ok("get_character", json!({"characterName": "Bram"}))
        .await;
    assert!(
        bram.starts_with("Bram (ch2), level 1 Cleric Dwarf, HP "),
        "{bram}"
    );
    let brute = p
        .ok("get_character", json!({"characterName": "Brute"}))
        .await;
    assert!(brute.ends_with(", unhurt"), "{brute}");
    let (err, text, _) = p
        .call("get_character", json!({"characterName": "Lurker"}))
        .await;
    assert!(err);
    assert_eq!(text, "no creature you can see 'Lurker' in this campaign");
    let fight = p.ok("get_encounter", json!({})).await;
    assert!(fight.contains("Brute · enemy · unhurt"), "{fight}");
    assert!(fight.contains("Aria's turn"), "{fight}");
    // Its turn: it attacks; the outcome is heard without the foe's numbers.
    let hit = p
        .ok(
            "execute_action",
            json!({"actionType": "attack", "targetName": "Brute"}),
        )
        .await;
    assert_clean("execute_action", &hit);
    let (err, text, _) = p
        .call(
            "execute_action",
            json!({"actorName": "Bram", "actionType": "dodge"}),
        )
        .await;
    assert!(err, "{text}");
    p.ok("advance_turn", json!({})).await;
    let (err, text, _) = p.call("advance_turn", json!({})).await;
    assert!(err);
    assert_eq!(
        text,
        "a player ends only their own turn, and it is not your turn now"
    );
    // Notes: a player's note is shared; a DM note is "not found".
    p.ok(
        "manage_notes",
        json!({"operation": "add", "content": "Aria marks the door", "visibility": "player"}),
    )
    .await;
    let (err, _, _) = p
        .call(
            "manage_notes",
            json!({"operation": "add", "content": "x", "visibility": "dm"}),
        )
        .await;
    assert!(err);

    // The sweep: every tool with a spread of arguments, every resource, the prompts.
    let variants = [
        json!({}),
        json!({"listAll": true}),
        json!({"characterName": "Brute"}),
        json!({"characterId": "ch3"}),
        json!({"characterId": "ch4"}),
        json!({"operation": "list"}),
        json!({"operation": "view"}),
        json!({"operation": "search", "query": "dragon hill"}),
        json!({"operation": "get", "noteId": "nt1"}),
        json!({"operation": "get", "locationId": "loc2"}),
        json!({"operation": "status"}),
        json!({"verbosity": "detailed"}),
        json!({"detail": "full"}),
        json!({"expression": "1d20"}),
        json!({"query": "goblin"}),
        json!({"actionType": "attack", "targetId": "ch3"}),
        json!({"actionType": "search"}),
        json!({"operation": "recall", "npcId": "np1", "about": "Aria"}),
        json!({"operation": "get", "secretId": "se1"}),
        json!({"operation": "check_leaks", "text": "the phylactery glows"}),
        json!({"operation": "list", "revealed": false}),
    ];
    for tool in &dm_tools {
        for args in &variants {
            let (_, text, structured) = p.call(tool, args.clone()).await;
            assert_clean(&format!("{tool} {args}"), &text);
            assert_clean(
                &format!("{tool} {args} (structured)"),
                &structured.to_string(),
            );
        }
    }
    let (_, v) = p.rpc("resources/list", json!({})).await;
    assert_clean("resources/list", &v.to_string());
    let mut uris: Vec<String> = v["result"]["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["uri"].as_str().unwrap().to_string())
        .collect();
    uris.extend(
        [
            "tabletop://encounter",
            "tabletop://encounter/map.png",
            "tabletop://characters/ch3",
            "tabletop://characters/ch4",
            "tabletop://tools/create_encounter",
        ]
        .map(String::from),
    );
    for uri in &uris {
        let (_, v) = p.rpc("resources/read", json!({"uri": uri})).await;
        assert_clean(uri, &v.to_string());
    }
    let (_, v) = p.rpc("prompts/list", json!({})).await;
    assert_eq!(v["result"]["prompts"], json!([]));

    // The DM sees everything the player could not.
    let secret = dm
        .ok(
            "manage_secret",
            json!({"operation": "get", "secretId": "se1"}),
        )
        .await;
    assert!(secret.contains("BARON-IS-A-LICH"), "{secret}");
    let recall = dm
        .ok("manage_npc", json!({"operation": "recall", "npcId": "np1"}))
        .await;
    assert!(recall.contains("WHISPERS-AT-THE-WELL"), "{recall}");
    let notes = dm.ok("manage_notes", json!({"operation": "list"})).await;
    assert!(
        notes.contains("DRAGON-UNDER-THE-HILL") && notes.contains("Aria marks the door"),
        "{notes}"
    );

    // A revoked token and a deleted campaign's token: 401.
    let id = aria.split('_').nth(1).unwrap().to_string();
    cli(d, &["token", "revoke", &id]);
    let r = raw(&url)
        .bearer_auth(&aria)
        .body(INIT)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 401);
    cli(d, &["campaign", "delete", "beta", "--yes"]);
    let r = raw(&url)
        .bearer_auth(&dm_b)
        .body(INIT)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 401);
}

/// A repeated read is answered from the server's memo (no session round trip: the event stream
/// has no priming event) with the same answer, and only while nothing changed: a write through
/// HTTP or by another process is seen at once; a player never gets the DM's kept answer; a
/// closed session is not served.
#[tokio::test]
async fn repeated_reads_over_http_follow_every_change_and_each_caller() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for (name, hp) in [("Mira", 30), ("Pell", 20)] {
        cli(
            d,
            &[
                "--campaign",
                "alpha",
                "call",
                "create_character",
                &json!({"name": name, "class": "fighter", "level": 3, "hp": hp}).to_string(),
            ],
        );
    }
    let dm_token = token(d, "alpha", "dm", None);
    let player_token = token(d, "alpha", "player", Some("Pell"));
    let srv = serve(d);
    let mut dm = Mcp::new(&srv.url, &dm_token).await;
    let get = json!({"jsonrpc": "2.0", "id": 50, "method": "tools/call",
        "params": {"name": "get_character", "arguments": {"characterName": "Mira"}}});
    let (s1, _, first) = dm.post(get.clone()).await;
    let (s2, _, kept) = dm.post(get.clone()).await;
    assert_eq!((s1, s2), (200, 200));
    // The full path opens its stream with a priming event; the memo answers at once.
    assert!(first.starts_with("data: \n"), "{first}");
    assert!(kept.starts_with("data: {"), "{kept}");
    let (a, b) = (http::body_json(&first), http::body_json(&kept));
    assert_eq!(a, b);
    assert_eq!(b["result"]["structuredContent"]["character"]["hp"], 30);

    // A write through another session is seen by the next read.
    let mut dm2 = Mcp::new(&srv.url, &dm_token).await;
    dm2.ok(
        "update_character",
        json!({"characterName": "Mira", "hp": "-3"}),
    )
    .await;
    let (_, _, after) = dm.post(get.clone()).await;
    assert_eq!(
        http::body_json(&after)["result"]["structuredContent"]["character"]["hp"],
        27
    );
    // And a write by another process.
    cli(
        d,
        &[
            "--campaign",
            "alpha",
            "call",
            "update_character",
            r#"{"characterName":"Mira","hp":"-2"}"#,
        ],
    );
    let (_, _, later) = dm.post(get.clone()).await;
    let later = http::body_json(&later);
    assert_eq!(later["result"]["structuredContent"]["character"]["hp"], 25);

    // A player asking the same never gets the DM's kept sheet.
    let mut player = Mcp::new(&srv.url, &player_token).await;
    let (_, _, seen) = player.post(get.clone()).await;
    let seen = http::body_json(&seen);
    assert_ne!(seen["result"], later["result"], "{seen}");
    assert!(!seen.to_string().contains("\"maxHp\":30"), "{seen}");

    // A closed session is not answered from the memo.
    let session = dm.session.clone().unwrap();
    let r = reqwest::Client::new()
        .delete(&srv.url)
        .bearer_auth(&dm_token)
        .header("Mcp-Session-Id", &session)
        .send()
        .await
        .unwrap();
    assert!(r.status().is_success(), "{}", r.status());
    let (status, _, gone) = dm.post(get).await;
    assert_ne!(status, 200, "{gone}");
}
