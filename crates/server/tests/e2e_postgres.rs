//! Several `tabletop serve` processes on one PostgreSQL campaign: four servers, each giving the
//! same character 50 gold pieces one call at a time, all at once; the character ends with every
//! one of the 200 and the event log holds the 200 calls in order. Also: a bad `--database` is
//! refused with the fix. Needs `TABLETOP_TEST_DATABASE_URL` (see `test-support/pg_env.rs`).

use std::path::PathBuf;

use serde_json::{Value, json};
use tabletop_server::client::Client;

#[path = "../../../test-support/pg_env.rs"]
mod pg_env;

fn exe() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_tabletop"))
}

async fn serve(url: &str, dir: &std::path::Path) -> Client {
    let args = vec![
        "--database".to_string(),
        url.to_string(),
        "--data-dir".to_string(),
        dir.display().to_string(),
        "--campaign".to_string(),
        "shared".to_string(),
    ];
    Client::spawn(&exe(), &args).await.unwrap()
}

fn gold(v: &Value) -> Option<u64> {
    match v {
        Value::Object(m) => m
            .get("currency")
            .and_then(|c| c.get("gp"))
            .and_then(Value::as_u64)
            .or_else(|| m.values().find_map(gold)),
        Value::Array(a) => a.iter().find_map(gold),
        _ => None,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn four_servers_write_to_one_character_and_lose_nothing() {
    let Some(url) = pg_env::fresh_database("e2e_four_servers") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let first = serve(&url, dir.path()).await;
    let made = first
        .call(
            "create_character",
            json!({"name": "Brom", "customClass": {"name": "Fighter", "hitDie": 10},
                   "saves": ["str", "con"],
                   "stats": {"str": 16, "dex": 12, "con": 14, "int": 10, "wis": 12, "cha": 8}}),
        )
        .await
        .unwrap();
    assert!(!made.is_error, "{}", made.text);
    let before = first
        .call("get_character", json!({"characterName": "Brom"}))
        .await
        .unwrap();
    let start = gold(&before.structured).unwrap_or(0);
    first.close().await.unwrap();

    let mut servers = Vec::new();
    for _ in 0..4 {
        servers.push(serve(&url, dir.path()).await);
    }
    let runs = servers.into_iter().map(|c| {
        tokio::spawn(async move {
            for _ in 0..50 {
                let a = c
                    .call(
                        "manage_inventory",
                        json!({"characterName": "Brom", "operation": "give", "currency": {"gp": 1}}),
                    )
                    .await
                    .unwrap();
                assert!(!a.is_error, "{}", a.text);
            }
            c.close().await.unwrap();
        })
    });
    for r in runs.collect::<Vec<_>>() {
        r.await.unwrap();
    }

    let last = serve(&url, dir.path()).await;
    let after = last
        .call("get_character", json!({"characterName": "Brom"}))
        .await
        .unwrap();
    assert_eq!(gold(&after.structured), Some(start + 200), "{}", after.text);
    last.close().await.unwrap();
    let events = pg_env::rows(
        &url,
        "SELECT COUNT(*), COUNT(DISTINCT seq) FROM events WHERE tool = 'manage_inventory'",
    );
    assert_eq!(events, vec![vec!["200".to_string(), "200".to_string()]]);
    // Nothing was written to the SQLite file of the data dir.
    assert!(!dir.path().join("tabletop.sqlite").exists());
}

#[test]
fn a_bad_database_setting_is_refused_with_the_fix() {
    let dir = tempfile::tempdir().unwrap();
    let run = |url: &str| {
        let out = std::process::Command::new(exe())
            .args([
                "--data-dir",
                &dir.path().display().to_string(),
                "--database",
                url,
            ])
            .args(["call", "roll_dice", r#"{"expression":"1d6"}"#])
            .output()
            .unwrap();
        assert!(!out.status.success());
        String::from_utf8_lossy(&out.stderr).to_string()
    };
    let wrong_kind = run("mysql://ana:pw@db/tt");
    assert!(
        wrong_kind
            .contains("is not a PostgreSQL URL; write postgres://USER:PASSWORD@HOST:PORT/DATABASE"),
        "{wrong_kind}"
    );
    assert!(
        !wrong_kind.contains("pw@"),
        "credentials are not echoed: {wrong_kind}"
    );
    let down = run("postgres://ana:pw@127.0.0.1:1/tt");
    assert!(
        down.contains("cannot connect to PostgreSQL at postgres://ana:***@127.0.0.1:1/tt")
            && down.contains("check that the server is running"),
        "{down}"
    );
}
