//! `tabletop campaign export|import` with hostile paths and files (issue 25): an export never
//! writes over the store or anything in the data dir; an import is checked before any write.

use std::path::Path;
use std::process::{Command, Output};

fn tabletop(data: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tabletop"))
        .env_remove("TABLETOP_SRD_DIR")
        .env_remove("TABLETOP_DATA_DIR")
        .env_remove("TABLETOP_CONFIG")
        .env_remove("TABLETOP_CAMPAIGN")
        .arg("--data-dir")
        .arg(data)
        .args(args)
        .output()
        .expect("run tabletop")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).trim().to_string()
}

const ALPHA: &str = r#"{"format": 1, "name": "alpha", "rngState": null,
  "characters": [], "events": []}"#;

#[test]
fn export_refuses_the_store_and_anything_in_the_data_dir() {
    let root = tempfile::tempdir().unwrap();
    let data = root.path().join("data");
    let file = root.path().join("alpha.json");
    std::fs::write(&file, ALPHA).unwrap();
    let o = tabletop(&data, &["campaign", "import", file.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stderr(&o),
        "imported campaign 'alpha' (0 characters, 0 events)"
    );
    let data_c = std::fs::canonicalize(&data).unwrap();
    std::fs::create_dir(data.join("sub")).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(data.join("tabletop.sqlite"), root.path().join("link.json"))
        .unwrap();
    let store = data.join("tabletop.sqlite");
    let dotted = data.join("sub").join("..").join("tabletop.sqlite");
    let inside = data.join("sub").join("alpha.json");
    let wal = data.join("tabletop.sqlite-wal");
    let link = root.path().join("link.json");
    let mut targets = vec![store, dotted, inside, wal];
    if cfg!(unix) {
        targets.push(link);
    }
    for out in targets {
        let o = tabletop(
            &data,
            &[
                "campaign",
                "export",
                "alpha",
                "--out",
                out.to_str().unwrap(),
            ],
        );
        assert!(!o.status.success(), "{} was written", out.display());
        assert_eq!(
            stderr(&o),
            format!(
                "error: refusing to export to {}: it is inside the data directory {}, which holds \
                 the campaign store; write the export to a file outside it",
                out.display(),
                data_c.display()
            )
        );
    }
    // The store is intact and a file outside the data dir is written.
    let o = tabletop(&data, &["campaign", "list"]);
    assert!(
        String::from_utf8_lossy(&o.stdout).starts_with("alpha "),
        "{o:?}"
    );
    let out = root.path().join("copy.json");
    let o = tabletop(
        &data,
        &[
            "campaign",
            "export",
            "alpha",
            "--out",
            out.to_str().unwrap(),
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let back: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(back["name"], "alpha");
}

#[test]
fn a_refused_import_writes_nothing() {
    let root = tempfile::tempdir().unwrap();
    let data = root.path().join("data");
    let file = root.path().join("bad.json");
    std::fs::write(
        &file,
        r#"{"format": 1, "name": "", "rngState": null, "characters": [], "events": []}"#,
    )
    .unwrap();
    let o = tabletop(&data, &["campaign", "import", file.to_str().unwrap()]);
    assert!(!o.status.success());
    assert_eq!(
        stderr(&o),
        "error: name (in the file): a campaign name is 1–64 characters; this one has 0"
    );
    let o = tabletop(&data, &["campaign", "list"]);
    assert!(
        String::from_utf8_lossy(&o.stdout).starts_with("no campaigns yet in "),
        "{o:?}"
    );
}
