//! Every legacy tool name the project promises to answer (the compat lists beside the workspace:
//! `shared/compat/*.txt` and `LEGACY.md`) is either routed (an advertised tool, an alias or a
//! composite switch) or answered as retired with the nearest tool. The names that still answer
//! "unknown tool" are listed in [`KNOWN_GAPS`] (issue 24 routes them); a new gap fails the test,
//! and so does a listed gap that has been closed (remove it from the list).

use std::collections::BTreeSet;
use std::path::PathBuf;

use super::{SWITCHES, find, retired};
use crate::catalog;

/// Legacy names that answer "unknown tool" today: none since issue 24 routed or retired each.
/// A new one fails the test: route it, or retire it with the nearest tool.
const KNOWN_GAPS: &[&str] = &[];

/// The compat directory: `../shared/compat` beside the workspace root.
fn compat_dir() -> Option<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = root.join("../shared/compat");
    dir.is_dir().then_some(dir)
}

fn is_name(s: &str) -> bool {
    s.contains('_')
        && s.chars().next().is_some_and(|c| c.is_ascii_lowercase())
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// Snake_case words of `text` outside `{…}` (argument shapes) and without wildcards.
fn names_outside_braces(text: &str, out: &mut BTreeSet<String>) {
    let mut depth = 0usize;
    let mut cleaned = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            _ if depth == 0 => cleaned.push(c),
            _ => {}
        }
    }
    for word in cleaned.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '*')) {
        if is_name(word) {
            out.insert(word.to_string());
        }
    }
}

/// Legacy names in LEGACY.md: section A's first column and prose, section B's list, and the
/// backticked names of section C's second column (composite actions in braces are not names).
fn legacy_md_names(md: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut section = ' ';
    for line in md.lines() {
        if let Some(h) = line.strip_prefix("## ") {
            section = h.chars().next().unwrap_or(' ');
            continue;
        }
        match section {
            'A' => {
                if let Some(row) = line.strip_prefix('|') {
                    let first = row.split('|').next().unwrap_or("").trim();
                    if is_name(first) {
                        out.insert(first.to_string());
                    }
                } else {
                    let before_arrows: String = line
                        .split(';')
                        .map(|part| part.split('→').next().unwrap_or(""))
                        .collect::<Vec<_>>()
                        .join(" ");
                    names_outside_braces(&before_arrows, &mut out);
                }
            }
            'B' => {
                let lhs = line.split('→').next().unwrap_or("");
                names_outside_braces(lhs, &mut out);
            }
            'C' => {
                let Some(row) = line.strip_prefix('|') else {
                    continue;
                };
                let cols: Vec<&str> = row.split('|').collect();
                if cols.len() < 2 || cols[0].contains("---") || cols[0].contains("Our (") {
                    continue;
                }
                for (i, chunk) in cols[1].split('`').enumerate() {
                    if i % 2 == 1 {
                        let name = chunk.split(['{', '(']).next().unwrap_or("").trim();
                        if is_name(name) && !name.contains('*') {
                            out.insert(name.to_string());
                        }
                    }
                }
            }
            _ => {}
        }
    }
    out
}

fn answered(name: &str) -> bool {
    catalog::find(name).is_some()
        || find(name).is_some()
        || SWITCHES.iter().any(|s| s.legacy == name)
        || retired(name).is_some()
}

#[test]
fn every_legacy_name_is_routed_or_retired() {
    let Some(dir) = compat_dir() else {
        if std::env::var_os("CI").is_some() {
            panic!("../shared/compat is missing beside the workspace; CI must provide it");
        }
        eprintln!(
            "skipped: ../shared/compat not found beside the workspace (legacy-name coverage not checked)"
        );
        return;
    };
    let mut names = BTreeSet::new();
    let mut files = 0;
    for entry in std::fs::read_dir(&dir).expect("read the compat directory") {
        let path = entry.expect("a compat entry").path();
        let text = std::fs::read_to_string(&path).expect("read a compat file");
        match path.extension().and_then(|e| e.to_str()) {
            Some("txt") => {
                files += 1;
                names.extend(
                    text.lines()
                        .map(str::trim)
                        .filter(|l| !l.is_empty() && !l.starts_with('#'))
                        .map(String::from),
                );
            }
            Some("md") => {
                files += 1;
                names.extend(legacy_md_names(&text));
            }
            _ => {}
        }
    }
    assert!(
        files >= 2 && names.len() > 250,
        "{files} files, {} names",
        names.len()
    );

    let gaps: BTreeSet<&str> = names
        .iter()
        .map(String::as_str)
        .filter(|n| !answered(n))
        .collect();
    let known: BTreeSet<&str> = KNOWN_GAPS.iter().copied().collect();
    let new: Vec<&&str> = gaps.difference(&known).collect();
    let closed: Vec<&&str> = known.difference(&gaps).collect();
    assert!(
        new.is_empty() && closed.is_empty(),
        "{} legacy names checked.\nNew gaps (answer 'unknown tool'; route or retire them): {new:?}\n\
         Closed gaps (now answered; remove from KNOWN_GAPS): {closed:?}",
        names.len()
    );
}
