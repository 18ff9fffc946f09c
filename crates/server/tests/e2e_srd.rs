//! `tabletop srd install|status` end to end: a download from a local HTTP server on 127.0.0.1
//! serving an archive built here from invented fixture files (never SRD data), verified against
//! sums given with the hidden `--sums` flag; checksum mismatches, broken downloads and network
//! failures leave nothing installed; `--from` a fixture folder.

use std::io::{Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use sha2::{Digest, Sha256};

const SPELLS: &str = r#"[{"index": "test-spark", "name": "Test Spark", "level": 0}]"#;
const CONDITIONS: &str = r#"[{"index": "dazzled", "name": "Dazzled", "desc": ["Invented."]}]"#;

fn tabletop(data: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tabletop"))
        .env_remove("TABLETOP_SRD_DIR")
        .env_remove("TABLETOP_DATA_DIR")
        .arg("--data-dir")
        .arg(data)
        .args(args)
        .output()
        .expect("run tabletop")
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn sha(s: &str) -> String {
    Sha256::digest(s.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A tar.gz laid out like a 5e-database release, holding the fixture files (plus noise).
fn archive() -> Vec<u8> {
    let gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    let mut tar = tar::Builder::new(gz);
    for (path, body) in [
        ("5e-database-test/README.md", "readme"),
        ("5e-database-test/src/2014/en/5e-SRD-Spells.json", SPELLS),
        (
            "5e-database-test/src/2014/en/5e-SRD-Conditions.json",
            CONDITIONS,
        ),
        ("5e-database-test/src/2024/en/5e-SRD-Spells.json", "[]"),
    ] {
        let mut h = tar::Header::new_gnu();
        h.set_size(body.len() as u64);
        h.set_mode(0o644);
        h.set_cksum();
        tar.append_data(&mut h, path, body.as_bytes()).unwrap();
    }
    tar.into_inner().unwrap().finish().unwrap()
}

/// Serves `body` to `n` requests on 127.0.0.1; `declared` overrides Content-Length (to cut a
/// download short).
fn serve(body: Vec<u8>, n: usize, declared: Option<usize>) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for _ in 0..n {
            let Ok((mut s, _)) = listener.accept() else {
                return;
            };
            let mut req = Vec::new();
            let mut buf = [0u8; 1024];
            while !req.windows(4).any(|w| w == b"\r\n\r\n") {
                match s.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(k) => req.extend_from_slice(&buf[..k]),
                }
            }
            let head = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: application/gzip\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                declared.unwrap_or(body.len())
            );
            let _ = s.write_all(head.as_bytes());
            let _ = s.write_all(&body);
        }
    });
    format!("http://{addr}/v0.0.0.tar.gz")
}

fn sums_file(dir: &Path, spells_sum: &str) -> PathBuf {
    let p = dir.join("SUMS");
    std::fs::write(
        &p,
        format!(
            "# fixture sums\n{spells_sum}  2014/5e-SRD-Spells.json\n{}  2014/5e-SRD-Conditions.json\n",
            sha(CONDITIONS)
        ),
    )
    .unwrap();
    p
}

/// Names in `dir` other than the ones the test made itself.
fn leftovers(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .filter(|n| n != "SUMS" && n != "fixture")
        .collect()
}

#[test]
fn download_is_verified_and_installed_whole() {
    let d = tempfile::tempdir().unwrap();
    let sums = sums_file(d.path(), &sha(SPELLS));
    let url = serve(archive(), 1, None);
    let sums_arg = sums.display().to_string();
    let o = tabletop(
        d.path(),
        &["srd", "install", "--url", &url, "--sums", &sums_arg],
    );
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("Installed 2 SRD files"), "{}", text(&o));
    let srd = d.path().join("srd");
    assert_eq!(
        std::fs::read_to_string(srd.join("5e-SRD-Spells.json")).unwrap(),
        SPELLS
    );
    let mut names = leftovers(d.path());
    names.sort();
    assert_eq!(names, vec!["srd"], "no temporary directory is left");
    let o = tabletop(d.path(), &["srd", "status", "--sums", &sums_arg]);
    assert!(text(&o).contains("Verified: 2 files match"), "{}", text(&o));
    // Installing again needs --force.
    let o = tabletop(
        d.path(),
        &["srd", "install", "--url", &url, "--sums", &sums_arg],
    );
    assert!(!o.status.success());
    assert!(text(&o).contains("--force"), "{}", text(&o));
}

#[test]
fn a_checksum_mismatch_installs_nothing_and_keeps_the_old_data() {
    let d = tempfile::tempdir().unwrap();
    let wrong = sums_file(d.path(), &"0".repeat(64));
    let url = serve(archive(), 2, None);
    let wrong_arg = wrong.display().to_string();
    let o = tabletop(
        d.path(),
        &["srd", "install", "--url", &url, "--sums", &wrong_arg],
    );
    assert!(!o.status.success());
    let t = text(&o);
    assert!(
        t.contains("checksum mismatch for 5e-SRD-Spells.json")
            && t.contains("Nothing was installed"),
        "{t}"
    );
    assert!(leftovers(d.path()).is_empty(), "{:?}", leftovers(d.path()));
    // Over an existing installation, --force with a bad download changes nothing.
    let srd = d.path().join("srd");
    std::fs::create_dir(&srd).unwrap();
    std::fs::write(srd.join("5e-SRD-Spells.json"), "[]").unwrap();
    let o = tabletop(
        d.path(),
        &[
            "srd", "install", "--url", &url, "--sums", &wrong_arg, "--force",
        ],
    );
    assert!(!o.status.success(), "{}", text(&o));
    assert_eq!(
        std::fs::read_to_string(srd.join("5e-SRD-Spells.json")).unwrap(),
        "[]"
    );
    assert_eq!(leftovers(d.path()), vec!["srd"]);
}

#[test]
fn broken_downloads_and_network_failures_are_clear_errors() {
    let d = tempfile::tempdir().unwrap();
    let sums = sums_file(d.path(), &sha(SPELLS));
    let sums_arg = sums.display().to_string();
    // The server promises more than it sends.
    let full = archive();
    let url = serve(full[..full.len() / 2].to_vec(), 1, Some(full.len()));
    let o = tabletop(
        d.path(),
        &["srd", "install", "--url", &url, "--sums", &sums_arg],
    );
    assert!(!o.status.success());
    assert!(text(&o).contains("nothing was installed"), "{}", text(&o));
    assert!(leftovers(d.path()).is_empty());
    // Nobody listens.
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("http://127.0.0.1:{port}/x.tar.gz");
    let o = tabletop(
        d.path(),
        &["srd", "install", "--url", &url, "--sums", &sums_arg],
    );
    assert!(!o.status.success());
    let t = text(&o);
    assert!(t.contains("cannot download") && t.contains("--from"), "{t}");
    assert!(leftovers(d.path()).is_empty());
    // Not an archive at all.
    let url = serve(b"<html>not found</html>".to_vec(), 1, None);
    let o = tabletop(
        d.path(),
        &["srd", "install", "--url", &url, "--sums", &sums_arg],
    );
    assert!(!o.status.success());
    assert!(text(&o).contains("not a tar.gz"), "{}", text(&o));
    assert!(leftovers(d.path()).is_empty());
}

#[test]
fn install_from_a_folder_and_status() {
    let d = tempfile::tempdir().unwrap();
    let o = tabletop(d.path(), &["srd", "status"]);
    assert!(!o.status.success());
    assert!(text(&o).contains("Not installed"), "{}", text(&o));
    let fixture = d.path().join("fixture").join("src").join("2014").join("en");
    std::fs::create_dir_all(&fixture).unwrap();
    std::fs::write(fixture.join("5e-SRD-Spells.json"), SPELLS).unwrap();
    std::fs::write(fixture.join("notes.txt"), "ignored").unwrap();
    let from = d.path().join("fixture").display().to_string();
    let o = tabletop(d.path(), &["srd", "install", "--from", &from]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("Installed 1 SRD files") && text(&o).contains("differ from the pinned"),
        "{}",
        text(&o)
    );
    let srd = d.path().join("srd");
    assert!(srd.join("5e-SRD-Spells.json").is_file());
    assert!(!srd.join("notes.txt").exists());
    let o = tabletop(d.path(), &["srd", "status"]);
    assert!(text(&o).contains("Not verified"), "{}", text(&o));
    // A folder without SRD files, or malformed JSON, is refused.
    let empty = tempfile::tempdir().unwrap();
    let e = empty.path().display().to_string();
    let o = tabletop(d.path(), &["srd", "install", "--from", &e, "--force"]);
    assert!(!o.status.success());
    assert!(text(&o).contains("no 5e-SRD-*.json"), "{}", text(&o));
    std::fs::write(empty.path().join("5e-SRD-Spells.json"), "{oops").unwrap();
    let o = tabletop(d.path(), &["srd", "install", "--from", &e, "--force"]);
    assert!(!o.status.success());
    assert!(text(&o).contains("not a JSON array"), "{}", text(&o));
    assert_eq!(
        std::fs::read_to_string(srd.join("5e-SRD-Spells.json")).unwrap(),
        SPELLS,
        "a failed install keeps the old data"
    );
}

/// `srd install --from` takes the parent of a `2014` folder (a copy holding `2014/` and `2024/`).
#[test]
fn install_from_the_parent_of_2014() {
    let d = tempfile::tempdir().unwrap();
    let parent = d.path().join("shared-srd");
    std::fs::create_dir_all(parent.join("2014")).unwrap();
    std::fs::create_dir_all(parent.join("2024")).unwrap();
    std::fs::write(parent.join("2014").join("5e-SRD-Spells.json"), SPELLS).unwrap();
    std::fs::write(parent.join("2024").join("5e-SRD-Spells.json"), "[]").unwrap();
    let from = parent.display().to_string();
    let o = tabletop(d.path(), &["srd", "install", "--from", &from]);
    assert!(o.status.success(), "{}", text(&o));
    let installed_from = parent.join("2014").display().to_string();
    assert!(
        text(&o).contains(&format!("Installed 1 SRD files from {installed_from} into")),
        "{}",
        text(&o)
    );
    assert_eq!(
        std::fs::read_to_string(d.path().join("srd").join("5e-SRD-Spells.json")).unwrap(),
        SPELLS
    );
    // The real data, when configured: its parent installs every collection, verified.
    if let Ok(real) = std::env::var("TABLETOP_SRD_DIR") {
        let real_parent = std::path::Path::new(&real)
            .parent()
            .unwrap()
            .display()
            .to_string();
        let o = tabletop(
            d.path(),
            &["srd", "install", "--from", &real_parent, "--force"],
        );
        assert!(o.status.success(), "{}", text(&o));
        assert!(
            text(&o).starts_with(&format!("Installed 25 SRD files from {real} into")),
            "{}",
            text(&o)
        );
        let o = tabletop(d.path(), &["srd", "status"]);
        assert!(o.status.success(), "{}", text(&o));
        assert!(
            text(&o).contains("Verified: 25 files match the pinned 5e-database v5.10.0 sums."),
            "{}",
            text(&o)
        );
    }
}
