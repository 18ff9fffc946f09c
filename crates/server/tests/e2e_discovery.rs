//! The core profile and `discover_tools`: one call enables a category, and the client is told its
//! tool list changed — by `notifications/tools/list_changed` (initialize-era) and by the
//! `subscriptions/listen` stream (2026-07-28). A client counts the notifications.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};
use tabletop_server::client::Client;

fn exe() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_tabletop"))
}

#[tokio::test]
async fn a_2026_client_hears_of_the_change_on_its_listen_stream() {
    let dir = tempfile::tempdir().unwrap();
    let args = vec![
        "--data-dir".to_string(),
        dir.path().display().to_string(),
        "--profile".into(),
        "core".into(),
    ];
    let c = Client::spawn(&exe(), &args).await.unwrap();
    let before: Vec<String> = c
        .tools()
        .await
        .unwrap()
        .iter()
        .map(|t| t.name.to_string())
        .collect();
    assert!(before.contains(&"discover_tools".to_string()));
    assert!(!before.contains(&"delete_character".to_string()));
    let mut sub = c.listen_for_tool_changes().await.unwrap();

    let a = c
        .call(
            "discover_tools",
            json!({"need": "I need to delete a character"}),
        )
        .await
        .unwrap();
    assert!(!a.is_error, "{}", a.text);
    assert!(a.text.contains("delete_character"), "{}", a.text);
    let first = tokio::time::timeout(Duration::from_secs(5), sub.next())
        .await
        .expect("a notification")
        .unwrap();
    assert!(
        format!("{first:?}").contains("ToolListChanged"),
        "{first:?}"
    );
    let after: Vec<String> = c
        .tools()
        .await
        .unwrap()
        .iter()
        .map(|t| t.name.to_string())
        .collect();
    assert!(after.contains(&"delete_character".to_string()));

    // Asking again changes nothing and announces nothing.
    let a = c
        .call("discover_tools", json!({"categories": ["characters"]}))
        .await
        .unwrap();
    assert!(a.text.starts_with("Already enabled"), "{}", a.text);
    assert!(
        tokio::time::timeout(Duration::from_millis(300), sub.next())
            .await
            .is_err(),
        "no second notification"
    );

    let a = c
        .call("discover_tools", json!({"need": "qwertyuiop"}))
        .await
        .unwrap();
    assert!(a.is_error && a.text.contains("compendium ("), "{}", a.text);
    let a = c
        .call("discover_tools", json!({"categories": ["fighting"]}))
        .await
        .unwrap();
    assert!(
        a.is_error && a.text.contains("allowed: characters"),
        "{}",
        a.text
    );
    c.close().await.unwrap();
}

#[test]
fn an_initialize_era_client_gets_one_list_changed_notification() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(exe())
        .args([
            "--data-dir",
            &dir.path().display().to_string(),
            "serve",
            "--profile",
            "core",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut notifications = 0;
    let mut request = |id: u64, method: &str, params: Value, notes: &mut i32| -> Value {
        writeln!(
            stdin,
            "{}",
            json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
        )
        .unwrap();
        stdin.flush().unwrap();
        loop {
            let mut line = String::new();
            assert!(out.read_line(&mut line).unwrap() > 0);
            let v: Value = serde_json::from_str(&line).unwrap();
            if v["method"] == "notifications/tools/list_changed" {
                *notes += 1;
            }
            if v["id"] == json!(id) {
                if id == 1 {
                    writeln!(
                        stdin,
                        "{}",
                        json!({"jsonrpc": "2.0", "method": "notifications/initialized"})
                    )
                    .unwrap();
                }
                return v;
            }
        }
    };
    request(
        1,
        "initialize",
        json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}),
        &mut notifications,
    );
    let r = request(
        2,
        "tools/call",
        json!({"name": "discover_tools", "arguments": {"categories": ["characters"]}}),
        &mut notifications,
    );
    assert_eq!(r["result"]["isError"], false, "{r}");
    // The notification may trail the answer: a ping flushes the stream.
    request(3, "ping", json!({}), &mut notifications);
    assert_eq!(notifications, 1);
    let listed = request(4, "tools/list", json!({}), &mut notifications);
    let names: Vec<&str> = listed["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"delete_character"), "{names:?}");
    request(
        5,
        "tools/call",
        json!({"name": "discover_tools", "arguments": {"categories": ["characters"]}}),
        &mut notifications,
    );
    request(6, "ping", json!({}), &mut notifications);
    assert_eq!(notifications, 1, "nothing new, nothing announced");
    child.kill().unwrap();
    child.wait().unwrap();
}
