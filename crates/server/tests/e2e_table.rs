//! The live table view (DESIGN §11) end to end against the real binary (`serve --http`): the
//! page, the JSON state and its role filter, the Server-Sent Events stream (changes made through
//! this server and by another process), the MCP App resource and tool links, and the page in a
//! real headless Chromium: updating without a reload, laid out for a phone (390 px, one column,
//! nothing wider than the screen), and run as an MCP App inside a page playing the host.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::common::http;

use http::{Mcp, Server, cli, serve, srd_env, token};

/// A campaign "keep" with an SRD party (Aria, human fighter; Bram, dwarf cleric) against two
/// SRD goblins and a hidden lurker, on a map with walls and water; the DM's and Aria's tokens.
async fn setup(dir: &Path) -> (Server, String, String) {
    cli(
        dir,
        &[
            "--campaign",
            "keep",
            "call",
            "roll_dice",
            r#"{"expression":"1"}"#,
        ],
    );
    let dm = token(dir, "keep", "dm", None);
    let srv = serve(dir);
    let mut m = Mcp::new(&srv.url, &dm).await;
    for (name, class, race) in [("Aria", "fighter", "human"), ("Bram", "cleric", "dwarf")] {
        m.result(
            "create_character",
            json!({"name": name, "class": class, "race": race, "characterType": "pc"}),
        )
        .await;
    }
    m.result(
        "manage_party",
        json!({"operation": "create", "name": "Heroes"}),
    )
    .await;
    for c in ["Aria", "Bram"] {
        m.result(
            "manage_party",
            json!({"operation": "add_member", "partyName": "Heroes", "characterName": c}),
        )
        .await;
    }
    m.result(
        "create_encounter",
        json!({"name": "Ambush at the ford",
               "terrain": {"width": 8, "height": 6,
                           "walls": [{"x": 0, "y": 0}, {"x": 1, "y": 0}, {"x": 2, "y": 0}],
                           "water": [{"x": 5, "y": 4}, {"x": 6, "y": 4}]},
               "participants": [
            {"characterName": "Aria", "initiative": 20, "position": {"x": 1, "y": 2}},
            {"characterName": "Bram", "initiative": 15, "position": {"x": 1, "y": 3}},
            {"monster": "goblin", "count": 2, "initiative": 10,
             "positions": [{"x": 2, "y": 2}, {"x": 4, "y": 4}]},
            {"name": "Lurker", "hp": 20, "ac": 12, "side": "enemy", "initiative": 5,
             "position": {"x": 7, "y": 5}}
        ]}),
    )
    .await;
    m.result(
        "execute_action",
        json!({"actorName": "Lurker", "actionType": "hide", "force": true}),
    )
    .await;
    let aria = token(dir, "keep", "player", Some("Aria"));
    (srv, dm, aria)
}

async fn get(url: &str) -> (u16, String, String) {
    let r = reqwest::get(url).await.unwrap();
    let status = r.status().as_u16();
    let ct = r
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    (status, ct, r.text().await.unwrap())
}

fn combatant<'a>(st: &'a Value, name: &str) -> &'a Value {
    st["encounter"]["combatants"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == name)
        .unwrap_or_else(|| panic!("no {name} in {st}"))
}

/// One Server-Sent Events stream, read event by event.
struct Sse {
    resp: reqwest::Response,
    buf: String,
}

impl Sse {
    async fn open(url: &str) -> Self {
        let resp = reqwest::get(url).await.unwrap();
        assert_eq!(resp.status().as_u16(), 200);
        assert!(
            resp.headers()["content-type"]
                .to_str()
                .unwrap()
                .starts_with("text/event-stream")
        );
        Self {
            resp,
            buf: String::new(),
        }
    }

    /// The next event's name and data, waiting at most `wait`.
    async fn next(&mut self, wait: Duration) -> Option<(String, String)> {
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            if let Some(end) = self.buf.find("\n\n") {
                let block: String = self.buf.drain(..end + 2).collect();
                let mut name = String::from("message");
                let mut data = String::new();
                for l in block.lines() {
                    if let Some(n) = l.strip_prefix("event:") {
                        name = n.trim().to_string();
                    } else if let Some(d) = l.strip_prefix("data:") {
                        data.push_str(d.strip_prefix(' ').unwrap_or(d));
                    }
                }
                if data.is_empty() {
                    continue; // a keep-alive comment
                }
                return Some((name, data));
            }
            let chunk = tokio::time::timeout_at(deadline, self.resp.chunk())
                .await
                .ok()?
                .ok()??;
            self.buf.push_str(&String::from_utf8_lossy(&chunk));
        }
    }

    async fn state(&mut self, wait: Duration) -> Option<Value> {
        let (name, data) = self.next(wait).await?;
        assert_eq!(name, "state", "{data}");
        Some(serde_json::from_str(&data).unwrap())
    }
}

#[tokio::test]
async fn table_view_over_http_roles_events_and_mcp_app() {
    if srd_env::srd_dir("table_view_over_http_roles_events_and_mcp_app").is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (srv, dm, aria) = setup(d).await;
    let base = &srv.base;

    // The page: no token, a wrong one, a foreign Origin, a token of another campaign.
    let (s, _, _) = get(&format!("{base}/table/keep")).await;
    assert_eq!(s, 401);
    let (s, _, _) = get(&format!("{base}/table/keep?token={aria}x")).await;
    assert_eq!(s, 401);
    let (s, _, _) = get(&format!("{base}/table/keep/state")).await;
    assert_eq!(s, 401);
    let (s, _, _) = get(&format!("{base}/table/keep/events?token=nope")).await;
    assert_eq!(s, 401);
    let (s, _, _) = get(&format!("{base}/table/other?token={aria}")).await;
    assert_eq!(s, 401);
    let r = reqwest::Client::new()
        .get(format!("{base}/table/keep?token={aria}"))
        .header("Origin", "https://evil.example")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 403);
    let (s, ct, page) = get(&format!("{base}/table/keep?token={aria}")).await;
    assert_eq!((s, ct.as_str()), (200, "text/html; charset=utf-8"));
    assert!(page.contains("<svg id=\"map\""), "{page}");
    assert!(!page.contains("http://") || page.contains("http://www.w3.org/2000/svg"));

    // The DM's state: everyone, exact HP.
    let (s, ct, text) = get(&format!("{base}/table/keep/state?token={dm}")).await;
    assert_eq!((s, ct.as_str()), (200, "application/json"), "{text}");
    let st: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(st["role"], "dm");
    let enc = &st["encounter"];
    assert_eq!(enc["name"], "Ambush at the ford");
    assert_eq!(
        (enc["map"]["width"].clone(), enc["map"]["height"].clone()),
        (json!(8), json!(6))
    );
    assert_eq!(enc["map"]["rows"][0], "###.....");
    assert_eq!(enc["map"]["rows"][4], ".....~~.");
    let names: Vec<&str> = enc["combatants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Aria", "Bram", "Goblin 1", "Goblin 2", "Lurker"]);
    let g1 = combatant(&st, "Goblin 1");
    assert_eq!(
        (g1["hp"].clone(), g1["maxHp"].clone()),
        (json!(7), json!(7))
    );
    assert_eq!(g1["hpState"], "unhurt");
    assert_eq!(g1["side"], "enemy");
    assert_eq!(g1["position"], json!({"x": 2, "y": 2, "z": 0}));
    assert_eq!(enc["turn"], "Aria");
    let members: Vec<&str> = st["party"]["members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["name"].as_str().unwrap())
        .collect();
    assert_eq!(members, ["Aria", "Bram"]);

    // Aria's state: no hidden lurker, goblins as states, the party exact.
    let (_, _, text) = get(&format!("{base}/table/keep/state?token={aria}")).await;
    let pst: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(pst["role"], "player");
    assert!(!text.contains("Lurker"), "{text}");
    let pg1 = combatant(&pst, "Goblin 1");
    assert_eq!(pg1["hpState"], "unhurt");
    assert!(
        pg1.get("hp").is_none() && pg1.get("maxHp").is_none(),
        "{pg1}"
    );
    let aria_c = combatant(&pst, "Aria");
    assert!(aria_c["hp"].as_u64().unwrap() > 0);
    assert_eq!(aria_c["hp"], aria_c["maxHp"]);

    // Events: the state on connect, then each visible change.
    let mut feed = Sse::open(&format!("{base}/table/keep/events?token={aria}")).await;
    let first = feed
        .state(Duration::from_secs(10))
        .await
        .expect("no first state");
    assert_eq!(first["version"], pst["version"]);
    // A DM note changes nothing Aria sees: no event for it.
    let mut m = Mcp::new(&srv.url, &dm).await;
    m.result(
        "manage_notes",
        json!({"operation": "add", "content": "the lurker waits", "visibility": "dm"}),
    )
    .await;
    assert!(
        feed.next(Duration::from_millis(800)).await.is_none(),
        "a DM note was pushed to a player"
    );
    // An attack through this server: pushed at once. The seed (7) pins the dice.
    let attack = m
        .result(
            "execute_action",
            json!({"actorName": "Aria", "actionType": "attack", "targetName": "Goblin 1"}),
        )
        .await;
    let text = attack["content"][0]["text"].as_str().unwrap().to_string();
    let sent = Instant::now();
    let after = feed
        .state(Duration::from_secs(10))
        .await
        .expect("no event after an attack");
    eprintln!(
        "table view: SSE event {:?} after the attack answered",
        sent.elapsed()
    );
    assert!(after["version"].as_i64() > first["version"].as_i64());
    let g1_after = combatant(&after, "Goblin 1");
    let dm_after: Value =
        serde_json::from_str(&get(&format!("{base}/table/keep/state?token={dm}")).await.2).unwrap();
    // Seed 7: Aria (no weapon drawn) lands an unarmed critical for 1: Goblin 1 at 6/7.
    assert_eq!(combatant(&dm_after, "Goblin 1")["hp"], 6, "{text}");
    assert_eq!(g1_after["hpState"], "hurt", "{text}");
    assert!(g1_after.get("hp").is_none());
    let lines: Vec<&str> = after["encounter"]["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["text"].as_str().unwrap())
        .collect();
    assert_eq!(
        lines,
        [
            "Encounter begins; Aria acts first",
            "Aria: Critical hit! Goblin 1 takes 1 bludgeoning."
        ]
    );
    assert!(
        lines
            .iter()
            .all(|l| !l.contains(" HP)") && !l.contains("AC 15")),
        "HP/AC numbers reached a player: {lines:?}"
    );

    // A change by another process (the CLI on the same store): noticed by the poller.
    cli(d, &["--campaign", "keep", "call", "advance_turn", "{}"]);
    let turned = feed
        .state(Duration::from_secs(10))
        .await
        .expect("no event after another process's turn change");
    assert_eq!(turned["encounter"]["turn"], "Bram");

    // The MCP App: the resource, listed and readable; the tools linked; results carrying state.
    let v = m.rpc("resources/list", json!({})).await.1;
    let app = v["result"]["resources"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["uri"] == "ui://tabletop/table.html")
        .unwrap_or_else(|| panic!("{v}"))
        .clone();
    assert_eq!(app["mimeType"], "text/html;profile=mcp-app");
    let v = m
        .rpc("resources/read", json!({"uri": "ui://tabletop/table.html"}))
        .await
        .1;
    let c = &v["result"]["contents"][0];
    assert_eq!(c["mimeType"], "text/html;profile=mcp-app");
    assert_eq!(c["text"].as_str().unwrap(), page);
    let v = m.rpc("tools/list", json!({})).await.1;
    for name in ["render_battlefield", "get_encounter"] {
        let t = v["result"]["tools"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == name)
            .unwrap();
        assert_eq!(
            t["_meta"]["ui"]["resourceUri"], "ui://tabletop/table.html",
            "{t}"
        );
    }
    let r = m.result("get_encounter", json!({})).await;
    assert_eq!(r["_meta"]["tabletop/table"]["role"], "dm");
    assert_eq!(r["_meta"]["tabletop/table"]["encounter"]["turn"], "Bram");
    let mut p = Mcp::new(&srv.url, &aria).await;
    let v = p.rpc("resources/list", json!({})).await.1;
    assert!(v.to_string().contains("ui://tabletop/table.html"), "{v}");
    let r = p.result("get_encounter", json!({})).await;
    let ps = r["_meta"]["tabletop/table"].to_string();
    assert!(ps.contains("\"role\":\"player\""), "{r}");
    assert!(!ps.contains("Lurker"), "{ps}");
}

/// Chromium: `CHROME`, else `chromium` / `chromium-browser` / `google-chrome` on the PATH.
fn chrome() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("CHROME").filter(|p| !p.is_empty()) {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH")?;
    for dir in std::env::split_paths(&path) {
        for name in ["chromium", "chromium-browser", "google-chrome"] {
            let p = dir.join(name);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    None
}

fn artifacts() -> PathBuf {
    let d = srd_env::workspace_root().join("target/artifacts");
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn table_view_in_a_real_browser() {
    let Some(chrome) = chrome() else {
        let msg = "table_view_in_a_real_browser: no Chromium (set CHROME or install chromium)";
        if srd_env::in_ci() {
            panic!("{msg}: CI must run the browser test");
        }
        eprintln!("SKIPPED {msg}");
        return;
    };
    if srd_env::srd_dir("table_view_in_a_real_browser").is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (srv, dm, aria) = setup(dir.path()).await;
    let url = format!("{}/table/keep?token={aria}", srv.base);

    let tab_url = url.clone();
    let (browser, tab) = tokio::task::spawn_blocking(move || {
        use headless_chrome::{Browser, LaunchOptions};
        let browser = Browser::new(
            LaunchOptions::default_builder()
                .path(Some(chrome))
                .headless(true)
                .sandbox(false)
                .window_size(Some((1280, 860)))
                .idle_browser_timeout(Duration::from_secs(120))
                .build()
                .unwrap(),
        )
        .unwrap();
        let tab = browser.new_tab().unwrap();
        tab.navigate_to(&tab_url).unwrap();
        tab.wait_until_navigated().unwrap();
        (browser, tab)
    })
    .await
    .unwrap();
    let eval = |js: &str| -> Value {
        tab.evaluate(js, false)
            .unwrap_or_else(|e| panic!("{js}: {e}"))
            .value
            .unwrap_or(Value::Null)
    };
    // Waits (without asserting any timing) until `js` is true.
    let wait_for = |js: &str| {
        let deadline = Instant::now() + Duration::from_secs(15);
        while eval(js) != json!(true) {
            assert!(Instant::now() < deadline, "never true: {js}");
            std::thread::sleep(Duration::from_millis(50));
        }
    };
    wait_for("document.querySelectorAll('#map .token').length > 0");
    assert_eq!(eval("document.body.dataset.mode"), "web");
    assert_eq!(eval("document.body.dataset.role"), "player");
    let order = eval("document.getElementById('order').innerText");
    let order = order.as_str().unwrap();
    for name in ["Aria", "Bram", "Goblin 1", "Goblin 2"] {
        assert!(order.contains(name), "{name} not in {order}");
    }
    assert!(!order.contains("Lurker"), "{order}");
    assert_eq!(
        eval(
            "[document.getElementById('map').dataset.width, document.getElementById('map').dataset.height].join('x')"
        ),
        "8x6"
    );
    assert_eq!(eval("document.querySelectorAll('#map .token').length"), 4);
    assert_eq!(
        eval("document.querySelectorAll('#map rect.t[data-t=\"#\"]').length"),
        3
    );
    assert_eq!(
        eval("document.querySelector('#map .token[data-name=\"Goblin 1\"]').dataset.hpState"),
        "unhurt"
    );
    assert_eq!(
        eval("document.getElementById('turn').innerText"),
        "Aria's turn"
    );
    let v0 = eval("window.tabletopState.version").as_i64().unwrap();

    // The DM attacks; the page redraws from the event stream, without a reload.
    let mut m = Mcp::new(&srv.url, &dm).await;
    m.result(
        "execute_action",
        json!({"actorName": "Aria", "actionType": "attack", "targetName": "Goblin 1"}),
    )
    .await;
    m.result("advance_turn", json!({})).await;
    wait_for(&format!(
        "window.tabletopState.version > {v0} && document.getElementById('turn').innerText === \"Bram's turn\""
    ));
    assert_eq!(eval("window.tabletopLoads"), 1, "the page was reloaded");
    let dm_state: Value = serde_json::from_str(
        &get(&format!("{}/table/keep/state?token={dm}", srv.base))
            .await
            .2,
    )
    .unwrap();
    assert_eq!(combatant(&dm_state, "Goblin 1")["hp"], 6);
    assert_eq!(
        eval("document.querySelector('#map .token[data-name=\"Goblin 1\"]').dataset.hpState"),
        "hurt"
    );
    assert_eq!(
        eval(
            "document.querySelector('#map .token[data-name=\"Goblin 1\"] .hpbar').dataset.fraction"
        ),
        "0.700"
    );
    let events = eval("document.getElementById('events').innerText");
    assert!(
        events
            .as_str()
            .unwrap()
            .contains("R1Aria: Critical hit! Goblin 1 takes 1 bludgeoning."),
        "no event line about the attack: {events}"
    );

    // The screenshot artifact (taken while this tab is in front).
    let (png, browser) = tokio::task::spawn_blocking(move || {
        use headless_chrome::protocol::cdp::Page::CaptureScreenshotFormatOption;
        let png = tab
            .capture_screenshot(CaptureScreenshotFormatOption::Png, None, None, true)
            .unwrap();
        (png, browser)
    })
    .await
    .unwrap();
    assert!(png.starts_with(b"\x89PNG"));
    let out = artifacts().join("table.png");
    std::fs::write(&out, &png).unwrap();
    eprintln!("table view screenshot: {}", out.display());

    // On a phone (390×844, mobile): one column, nothing wider than the screen, every name shown.
    let phone = browser.new_tab().unwrap();
    {
        use headless_chrome::protocol::cdp::Emulation::SetDeviceMetricsOverride;
        phone
            .call_method(SetDeviceMetricsOverride {
                width: 390,
                height: 844,
                device_scale_factor: 2.0,
                mobile: true,
                scale: None,
                screen_width: None,
                screen_height: None,
                position_x: None,
                position_y: None,
                dont_set_visible_size: None,
                screen_orientation: None,
                viewport: None,
                display_feature: None,
                device_posture: None,
            })
            .unwrap();
    }
    phone.navigate_to(&url).unwrap();
    phone.wait_until_navigated().unwrap();
    let peval = |js: &str| -> Value {
        phone
            .evaluate(js, false)
            .unwrap_or_else(|e| panic!("{js}: {e}"))
            .value
            .unwrap_or(Value::Null)
    };
    let deadline = Instant::now() + Duration::from_secs(15);
    while peval("document.querySelectorAll('#map .token').length > 0") != json!(true) {
        assert!(
            Instant::now() < deadline,
            "the phone page never drew the map"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(peval("window.innerWidth"), 390);
    assert_eq!(
        peval(
            "getComputedStyle(document.querySelector('main')).gridTemplateColumns.split(' ').length"
        ),
        1,
        "one column on a phone"
    );
    assert_eq!(
        peval("document.documentElement.scrollWidth <= window.innerWidth"),
        true,
        "the page scrolls sideways on a phone"
    );
    assert_eq!(
        peval("document.getElementById('map').getBoundingClientRect().right <= window.innerWidth"),
        true,
        "the map is wider than the phone"
    );
    let order = peval("document.getElementById('order').innerText");
    for name in ["Aria", "Bram", "Goblin 1", "Goblin 2"] {
        assert!(
            order.as_str().unwrap().contains(name),
            "{name} not in {order}"
        );
    }
    let phone_png = {
        use headless_chrome::protocol::cdp::Page::CaptureScreenshotFormatOption;
        phone
            .capture_screenshot(CaptureScreenshotFormatOption::Png, None, None, true)
            .unwrap()
    };
    std::fs::write(artifacts().join("table-phone.png"), &phone_png).unwrap();

    // As an MCP App in a host: the `ui://` resource in a sandboxed frame of a page that plays
    // the host (answers `ui/initialize`, then hands over a tool result as
    // `ui/notifications/tool-result`); the app draws the fight from that result alone.
    let (_, read) = m
        .rpc("resources/read", json!({"uri": "ui://tabletop/table.html"}))
        .await;
    let page = read["result"]["contents"][0]["text"]
        .as_str()
        .unwrap()
        .to_string();
    let result = m.result("get_encounter", json!({})).await;
    let host = browser.new_tab().unwrap();
    host.navigate_to("about:blank").unwrap();
    host.wait_until_navigated().unwrap();
    let heval = |js: &str| -> Value {
        host.evaluate(js, false)
            .unwrap_or_else(|e| panic!("{js}: {e}"))
            .value
            .unwrap_or(Value::Null)
    };
    // "</" is escaped so the page's own closing tags stay inside the string.
    let literal = |v: &Value| v.to_string().replace("</", "<\\/");
    heval(&format!(
        r#"(function () {{
  window.hostLog = [];
  var f = document.createElement('iframe');
  f.style.width = '900px'; f.style.height = '700px';
  window.addEventListener('message', function (ev) {{
    if (ev.source !== f.contentWindow) return;
    var m = ev.data;
    window.hostLog.push(m.method || ('answer ' + m.id));
    if (m.method === 'ui/initialize')
      f.contentWindow.postMessage({{ jsonrpc: '2.0', id: m.id, result: {{
        protocolVersion: '2026-01-26', hostInfo: {{ name: 'test-host', version: '1' }},
        hostCapabilities: {{}}, hostContext: {{ theme: 'dark' }} }} }}, '*');
    if (m.method === 'ui/notifications/initialized')
      f.contentWindow.postMessage({{ jsonrpc: '2.0', method: 'ui/notifications/tool-result',
        params: {result} }}, '*');
  }});
  f.srcdoc = {page};
  document.body.appendChild(f);
  return true;
}})()"#,
        result = literal(&result),
        page = literal(&Value::String(page)),
    ));
    let app = "document.querySelector('iframe').contentDocument";
    let deadline = Instant::now() + Duration::from_secs(15);
    while heval(&format!(
        "!!{app} && {app}.querySelectorAll('#map .token').length > 0"
    )) != json!(true)
    {
        assert!(
            Instant::now() < deadline,
            "the app never drew: {}",
            heval("JSON.stringify(window.hostLog)")
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(heval(&format!("{app}.body.dataset.mode")), "app");
    assert_eq!(heval(&format!("{app}.body.dataset.role")), "dm");
    let order = heval(&format!("{app}.getElementById('order').innerText"));
    for name in ["Aria", "Bram", "Goblin 1", "Goblin 2"] {
        assert!(
            order.as_str().unwrap().contains(name),
            "{name} not in {order}"
        );
    }
    assert_eq!(
        heval(&format!("{app}.getElementById('turn').innerText")),
        "Bram's turn"
    );
    assert_eq!(
        heval("JSON.stringify(window.hostLog.slice(0, 3))"),
        r#"["ui/initialize","ui/notifications/initialized","ui/notifications/size-changed"]"#
    );

    drop(browser);
}
