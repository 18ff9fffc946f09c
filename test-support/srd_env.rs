//! Where the tests find the SRD data (the 5e-database `2014` JSON folder), shared by the test code
//! of every crate (included with `#[path]`, so it needs no crate of its own).
//!
//! - `TABLETOP_SRD_DIR`, when set: an absolute path as is, a relative one against the workspace
//!   root (the folder holding `Cargo.lock`), whatever folder cargo runs the test binary from.
//! - Otherwise `<workspace root>/../shared/srd/2014`.
//!
//! When the folder has no SRD data: with the environment variable `CI` set, or with
//! `TABLETOP_SRD_DIR` set explicitly, the test panics (missing data is a failure, never a silent
//! pass); otherwise the test is skipped with a line written straight to the terminal's stderr
//! (past libtest's output capture, so `cargo test` shows it) that names the test and the folder.

#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The workspace root: the nearest folder above this crate's manifest that holds `Cargo.lock`.
pub fn workspace_root() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest
        .ancestors()
        .find(|d| d.join("Cargo.lock").is_file())
        .unwrap_or(manifest)
        .to_path_buf()
}

/// The folder the tests read the SRD from (resolved as the module docs say; it may not exist).
pub fn srd_path() -> PathBuf {
    match std::env::var_os("TABLETOP_SRD_DIR").filter(|v| !v.is_empty()) {
        Some(v) => {
            let p = PathBuf::from(v);
            if p.is_absolute() {
                p
            } else {
                workspace_root().join(p)
            }
        }
        None => workspace_root().join("../shared/srd/2014"),
    }
}

/// Whether `CI` is set (to anything but empty, `0` or `false`).
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "0" && v != "false")
}

static SKIPPED: AtomicUsize = AtomicUsize::new(0);

/// The SRD folder (absolute, canonical) when it holds the data. Without the data: panics under
/// CI or when `TABLETOP_SRD_DIR` was set explicitly; otherwise reports `test` as skipped and
/// returns `None`.
pub fn srd_dir(test: &str) -> Option<PathBuf> {
    let explicit = std::env::var_os("TABLETOP_SRD_DIR").is_some_and(|v| !v.is_empty());
    decide(&srd_path(), explicit, in_ci(), test)
}

/// [`srd_dir`]'s decision for the folder `p`.
pub fn decide(p: &Path, explicit: bool, ci: bool, test: &str) -> Option<PathBuf> {
    if p.join("5e-SRD-Monsters.json").is_file() {
        return Some(p.canonicalize().unwrap_or_else(|_| p.to_path_buf()));
    }
    if ci || explicit {
        panic!(
            "{test}: no SRD data at {} ({}); the SRD tests must run here — put the 5e-database \
             `src/2014/en` folder there or point TABLETOP_SRD_DIR at it",
            p.display(),
            if explicit {
                "TABLETOP_SRD_DIR"
            } else {
                "CI is set"
            }
        );
    }
    let n = SKIPPED.fetch_add(1, Ordering::SeqCst) + 1;
    // Straight to the process's stderr: libtest captures only the print macros.
    let _ = writeln!(
        std::io::stderr(),
        "SKIPPED {test}: no SRD data at {} (set TABLETOP_SRD_DIR or put the 5e-database 2014 \
         folder at ../shared/srd/2014; CI=1 turns this into a failure) [{n} skipped in this binary]",
        p.display()
    );
    None
}
