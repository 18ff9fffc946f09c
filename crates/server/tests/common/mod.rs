//! The harness shared by the end-to-end tests: a real `tabletop serve` in a temporary data dir,
//! spoken to over MCP, with assertions for answers and for tool errors.

#![allow(dead_code)]

use std::path::PathBuf;

use serde_json::Value;
use tabletop_server::client::{Answer, Client};

#[path = "../../../../test-support/srd_env.rs"]
pub mod srd_env;

/// The Streamable HTTP harness (a `tabletop serve --http` and a client).
pub mod http;

/// `--srd DIR` (absolute) for a spawned server when the SRD data is there, else nothing: the
/// server would otherwise read a relative `TABLETOP_SRD_DIR` against the crate's folder.
pub fn srd_args() -> Vec<String> {
    let p = srd_env::srd_path();
    if p.join("5e-SRD-Monsters.json").is_file() {
        vec![
            "--srd".into(),
            p.canonicalize().unwrap_or(p).display().to_string(),
        ]
    } else {
        Vec::new()
    }
}

/// The SRD is there for `test` (see `srd_env::srd_dir`: panics under CI without it, otherwise
/// reports the skip where cargo shows it).
pub fn srd(test: &str) -> bool {
    srd_env::srd_dir(test).is_some()
}

/// [`srd`] for the running test, named by its thread.
pub fn srd_here() -> bool {
    srd(std::thread::current().name().unwrap_or("an SRD test"))
}

/// Asserts that a line of `text`, trimmed, is exactly `want`.
pub fn has_line(text: &str, want: &str) {
    assert!(
        text.lines().any(|l| l.trim() == want),
        "{want}\n---\n{text}"
    );
}

/// A server in its own data dir and a connected client.
pub struct Session {
    /// The connected client.
    pub client: Client,
    _dir: tempfile::TempDir,
}

impl Session {
    /// Starts a server whose dice stream is seeded with `seed`.
    pub async fn start(seed: u64) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let mut args = vec![
            "--data-dir".to_string(),
            dir.path().display().to_string(),
            "--seed".into(),
            seed.to_string(),
        ];
        args.extend(srd_args());
        let client = Client::spawn(&PathBuf::from(env!("CARGO_BIN_EXE_tabletop")), &args)
            .await
            .unwrap();
        Self { client, _dir: dir }
    }

    /// The server's data directory (for a second process on the same campaign).
    pub fn data_dir(&self) -> &std::path::Path {
        self._dir.path()
    }

    /// Calls `tool` and asserts it answered without a tool error.
    pub async fn ok(&self, tool: &str, args: Value) -> Answer {
        let a = self.client.call(tool, args.clone()).await.unwrap();
        assert!(!a.is_error, "{tool} {args} failed: {}", a.text);
        a
    }

    /// Asserts a tool error whose message contains every one of `needles`.
    pub async fn err(&self, tool: &str, args: Value, needles: &[&str]) {
        let a = self.client.call(tool, args.clone()).await.unwrap();
        assert!(
            a.is_error,
            "{tool} {args} should fail but answered: {}",
            a.text
        );
        for n in needles {
            assert!(
                a.text.contains(n),
                "{tool} {args}: error lacks '{n}': {}",
                a.text
            );
        }
    }
}

/// The record of SRD index `index` in the SRD JSON file `file` ("Monsters" for
/// 5e-SRD-Monsters.json), read at run time: the oracle of SRD facts.
pub fn srd_record(file: &str, index: &str) -> serde_json::Value {
    let path = srd_env::srd_path().join(format!("5e-SRD-{file}.json"));
    let all: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    all.as_array()
        .unwrap()
        .iter()
        .find(|r| r["index"] == index)
        .cloned()
        .unwrap_or_else(|| panic!("no {index} in the SRD's {file}"))
}

/// The `desc` paragraphs of SRD record `index` in `file`, joined by spaces and lowercased: the
/// text a test checks a rule's wording against.
pub fn srd_desc(file: &str, index: &str) -> String {
    srd_record(file, index)["desc"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d.as_str().unwrap())
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}
