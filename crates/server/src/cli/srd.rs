//! `tabletop srd install|status|coverage`: put the SRD (5e-database JSON) in place, from a local
//! folder or a verified download, report on what is installed, and measure how much of it the
//! mechanics catalog encodes.
//!
//! Installing never leaves a half-written directory: files go to a temporary directory beside the
//! destination, are checked, and only then renamed into place.

use std::collections::BTreeMap;
use std::fs;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Context, anyhow, bail};
use clap::Subcommand;
use indicatif::{ProgressBar, ProgressStyle};
use sha2::{Digest, Sha256};
use tabletop_server::config::Settings;
use tabletop_srd::Compendium;

/// The 5e-database release the pinned sums describe.
pub const PINNED_RELEASE: &str = "5e-database v5.10.0";
/// Where `--url` without a value downloads from.
pub const PINNED_URL: &str =
    "https://github.com/5e-bits/5e-database/archive/refs/tags/v5.10.0.tar.gz";
/// SHA-256 of every `src/2014/en/*.json` file of the pinned release.
const PINNED_SUMS: &str = include_str!("../srd_sums.txt");

/// Largest archive accepted, in bytes.
const MAX_ARCHIVE: u64 = 512 * 1024 * 1024;

/// `tabletop srd …`.
#[derive(Debug, Subcommand)]
pub enum SrdCommand {
    /// Install SRD data into `<data dir>/srd` (or --srd DIR).
    Install {
        /// A folder of 5e-database JSON: a checkout (its src/2014/en is used), a parent of `2014/`, or the files themselves.
        #[arg(long, conflicts_with = "url", required_unless_present = "url")]
        from: Option<PathBuf>,
        /// Download a 5e-database release archive (.tar.gz) and verify it [default: the pinned v5.10.0].
        #[arg(long, num_args = 0..=1, default_missing_value = PINNED_URL)]
        url: Option<String>,
        /// Replace an existing installation.
        #[arg(long)]
        force: bool,
        /// A SHA-256 sums file to verify against instead of the pinned one (for tests).
        #[arg(long, hide = true)]
        sums: Option<PathBuf>,
    },
    /// Where the SRD data is, whether it verifies against the pinned sums, and what it holds.
    Status {
        /// A SHA-256 sums file to verify against instead of the pinned one (for tests).
        #[arg(long, hide = true)]
        sums: Option<PathBuf>,
    },
    /// How much of the SRD the mechanics catalog encodes: per category total, mechanical,
    /// narrative and unencoded.
    Coverage {
        /// Print `{"categories": {"spells": {"total": …, …}, …}}` instead of a table.
        #[arg(long)]
        json: bool,
    },
}

/// Runs an `srd` subcommand.
pub fn run(s: &Settings, cmd: SrdCommand) -> anyhow::Result<ExitCode> {
    match cmd {
        SrdCommand::Install {
            from,
            url,
            force,
            sums,
        } => {
            let sums = load_sums(sums.as_deref())?;
            let dest = s.srd_dir()?;
            refuse_occupied(&dest, force)?;
            match (from, url) {
                (Some(dir), _) => install_from(&dir, &dest, force, &sums),
                (None, Some(url)) => install_url(&url, &dest, force, &sums),
                (None, None) => bail!("give --from DIR or --url [URL]"),
            }?;
            Ok(ExitCode::SUCCESS)
        }
        SrdCommand::Status { sums } => status(s, &load_sums(sums.as_deref())?),
        SrdCommand::Coverage { json } => {
            let dir = s.srd_dir()?;
            let srd = Compendium::load(&dir)
                .with_context(|| format!("loading the SRD from {}", dir.display()))?;
            let c = tabletop_engine::catalog::coverage::coverage(&srd);
            if json {
                println!("{}", serde_json::to_string_pretty(&c)?);
            } else {
                print!("{}", c.table());
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// Expected sums by file name.
type Sums = BTreeMap<String, String>;

/// Parses `sha256  name` lines (`#` comments and blank lines ignored; a leading `2014/` or `*`
/// on the name is dropped).
fn parse_sums(text: &str) -> anyhow::Result<Sums> {
    let mut out = Sums::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (sum, name) = line
            .split_once(char::is_whitespace)
            .ok_or_else(|| anyhow!("sums line {}: expected `SHA256  FILE`", i + 1))?;
        let name = name.trim().trim_start_matches('*');
        let name = name.rsplit('/').next().unwrap_or(name);
        if sum.len() != 64 || !sum.bytes().all(|b| b.is_ascii_hexdigit()) {
            bail!("sums line {}: '{sum}' is not a SHA-256", i + 1);
        }
        out.insert(name.to_string(), sum.to_ascii_lowercase());
    }
    if out.is_empty() {
        bail!("the sums file lists no files");
    }
    Ok(out)
}

fn load_sums(path: Option<&Path>) -> anyhow::Result<Sums> {
    match path {
        None => parse_sums(PINNED_SUMS),
        Some(p) => parse_sums(
            &fs::read_to_string(p).with_context(|| format!("cannot read {}", p.display()))?,
        ),
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Copies `r` to `path`, returning the SHA-256 of what was written.
fn write_hashed(mut r: impl Read, path: &Path) -> anyhow::Result<String> {
    let mut f =
        fs::File::create(path).with_context(|| format!("cannot write {}", path.display()))?;
    let mut h = Sha256::new();
    let mut buf = [0u8; 64 * 1024];
    loop {
        let n = r.read(&mut buf)?;
        if n == 0 {
            break;
        }
        h.update(&buf[..n]);
        f.write_all(&buf[..n])?;
    }
    f.sync_all()?;
    Ok(hex(&h.finalize()))
}

/// A collection file name of the 5e-database layout.
fn is_collection(name: &str) -> bool {
    name.starts_with("5e-SRD-") && name.ends_with(".json")
}

/// An existing, non-empty destination is replaced only with `--force`.
fn refuse_occupied(dest: &Path, force: bool) -> anyhow::Result<()> {
    let occupied = fs::read_dir(dest).is_ok_and(|mut d| d.next().is_some());
    if occupied && !force {
        bail!(
            "{} already holds files; pass --force to replace them (or --srd DIR to install elsewhere)",
            dest.display()
        );
    }
    Ok(())
}

/// Stages files in a temporary directory beside `dest` with `fill`, then moves it into place.
/// On any error nothing is left behind and an existing installation is untouched.
fn stage(
    dest: &Path,
    force: bool,
    fill: impl FnOnce(&Path) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    refuse_occupied(dest, force)?;
    if dest.exists() && !dest.is_dir() {
        bail!("{} exists and is not a directory", dest.display());
    }
    let parent = match dest.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    fs::create_dir_all(&parent).with_context(|| format!("cannot create {}", parent.display()))?;
    let tmp = tempfile::Builder::new()
        .prefix(".srd-install-")
        .tempdir_in(&parent)
        .with_context(|| {
            format!(
                "cannot create a temporary directory in {}",
                parent.display()
            )
        })?;
    fill(tmp.path())?;
    let old = parent.join(format!(".srd-old-{}", std::process::id()));
    let had_old = dest.exists();
    if had_old {
        fs::rename(dest, &old)
            .with_context(|| format!("cannot move the old {} aside", dest.display()))?;
    }
    let staged = tmp.keep();
    if let Err(e) = fs::rename(&staged, dest) {
        let _ = fs::remove_dir_all(&staged);
        if had_old {
            let _ = fs::rename(&old, dest);
        }
        return Err(e).with_context(|| format!("cannot move the new data to {}", dest.display()));
    }
    if had_old {
        let _ = fs::remove_dir_all(&old);
    }
    Ok(())
}

/// Compares hashes with the expected sums: (matching, mismatched, missing, unexpected).
struct Check {
    ok: Vec<String>,
    bad: Vec<(String, String, String)>,
    missing: Vec<String>,
    extra: Vec<String>,
}

impl Check {
    fn of(got: &BTreeMap<String, String>, sums: &Sums) -> Check {
        let mut c = Check {
            ok: vec![],
            bad: vec![],
            missing: vec![],
            extra: vec![],
        };
        for (name, want) in sums {
            match got.get(name) {
                Some(h) if h == want => c.ok.push(name.clone()),
                Some(h) => c.bad.push((name.clone(), want.clone(), h.clone())),
                None => c.missing.push(name.clone()),
            }
        }
        c.extra = got
            .keys()
            .filter(|k| !sums.contains_key(*k))
            .cloned()
            .collect();
        c
    }

    fn verified(&self) -> bool {
        self.bad.is_empty() && self.missing.is_empty() && self.extra.is_empty()
    }

    fn problems(&self) -> String {
        let mut p = Vec::new();
        for (n, want, got) in &self.bad {
            p.push(format!(
                "checksum mismatch for {n}: expected {want}, got {got}"
            ));
        }
        if !self.missing.is_empty() {
            p.push(format!("missing: {}", self.missing.join(", ")));
        }
        if !self.extra.is_empty() {
            p.push(format!("not in the sums: {}", self.extra.join(", ")));
        }
        p.join("; ")
    }
}

/// Hashes every collection file of `dir`.
fn hash_dir(dir: &Path) -> anyhow::Result<BTreeMap<String, String>> {
    let mut out = BTreeMap::new();
    for e in fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))? {
        let e = e?;
        let name = e.file_name().to_string_lossy().to_string();
        if !is_collection(&name) {
            continue;
        }
        let bytes = fs::read(e.path()).with_context(|| format!("cannot read {name}"))?;
        out.insert(name, hex(&Sha256::digest(&bytes)));
    }
    Ok(out)
}

/// Whether `dir` directly holds a `5e-SRD-*.json` collection.
fn holds_collections(dir: &Path) -> bool {
    fs::read_dir(dir).is_ok_and(|entries| {
        entries
            .filter_map(Result::ok)
            .any(|e| is_collection(&e.file_name().to_string_lossy()))
    })
}

fn install_from(src: &Path, dest: &Path, force: bool, sums: &Sums) -> anyhow::Result<()> {
    // The folder of JSON files itself, a 5e-database checkout, or a parent of `2014` (such as
    // a copy holding `2014/` and `2024/`): the first that holds SRD collections.
    let candidates = [
        src.to_path_buf(),
        src.join("src").join("2014").join("en"),
        src.join("2014").join("en"),
        src.join("2014"),
        src.join("en"),
    ];
    let src = candidates
        .iter()
        .find(|d| holds_collections(d))
        .cloned()
        .unwrap_or_else(|| src.to_path_buf());
    let files: Vec<PathBuf> = fs::read_dir(&src)
        .with_context(|| {
            format!(
                "cannot read {}; give a 5e-database checkout, its src/2014/en folder, or a folder holding 2014/",
                src.display()
            )
        })?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| is_collection(&n.to_string_lossy()))
        })
        .collect();
    if files.is_empty() {
        bail!(
            "{} holds no 5e-SRD-*.json files; give a 5e-database checkout, its src/2014/en folder, or a folder holding 2014/",
            src.display()
        );
    }
    if same_dir(&src, dest) {
        bail!("{} is already the SRD directory", dest.display());
    }
    let mut got = BTreeMap::new();
    stage(dest, force, |tmp| {
        for f in &files {
            let name = f
                .file_name()
                .map(|n| n.to_string_lossy().to_string())
                .unwrap_or_default();
            let bytes = fs::read(f).with_context(|| format!("cannot read {}", f.display()))?;
            serde_json::from_slice::<Vec<serde_json::Value>>(&bytes)
                .with_context(|| format!("{name} is not a JSON array of records"))?;
            let h = write_hashed(&bytes[..], &tmp.join(&name))?;
            got.insert(name, h);
        }
        Ok(())
    })?;
    let check = Check::of(&got, sums);
    outln!(
        "Installed {} SRD files from {} into {}.",
        got.len(),
        src.display(),
        dest.display()
    );
    if check.verified() {
        outln!("Verified: every file matches the pinned {PINNED_RELEASE} sums.");
    } else {
        outln!(
            "Note: the files differ from the pinned {PINNED_RELEASE} ({}); they are used as given.",
            check.problems()
        );
    }
    report_load(dest)?;
    Ok(())
}

fn same_dir(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}

fn install_url(url: &str, dest: &Path, force: bool, sums: &Sums) -> anyhow::Result<()> {
    let agent = ureq::Agent::config_builder()
        .timeout_connect(Some(Duration::from_secs(20)))
        .timeout_per_read(Some(Duration::from_secs(60)))
        .build()
        .new_agent();
    let resp = agent.get(url).call().map_err(|e| {
        anyhow!(
            "cannot download {url}: {e}. Check the address and the network, or install from a local copy with --from DIR; nothing was installed"
        )
    })?;
    let len = resp
        .headers()
        .get("content-length")
        .and_then(|v| v.to_str().ok())
        .and_then(|s| s.parse::<u64>().ok());
    if len.is_some_and(|n| n > MAX_ARCHIVE) {
        bail!("{url} is larger than {MAX_ARCHIVE} bytes; not an SRD release archive");
    }
    let bar = match len {
        Some(n) => ProgressBar::new(n).with_style(
            ProgressStyle::with_template("{bytes}/{total_bytes} {wide_bar} {eta}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        ),
        None => ProgressBar::new_spinner().with_style(
            ProgressStyle::with_template("{spinner} {bytes} {bytes_per_sec}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        ),
    };
    let reader = bar.wrap_read(resp.into_body().into_reader().take(MAX_ARCHIVE));
    let mut got = BTreeMap::new();
    let result = stage(dest, force, |tmp| {
        let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(reader));
        let entries = archive.entries().map_err(|e| archive_error(url, e))?;
        for entry in entries {
            let entry = entry.map_err(|e| archive_error(url, e))?;
            let path = entry
                .path()
                .map_err(|e| archive_error(url, e))?
                .into_owned();
            let Some(name) = release_file(&path) else {
                continue;
            };
            let h = write_hashed(entry, &tmp.join(&name)).map_err(|e| {
                anyhow!("the download of {url} broke off or is not a tar.gz ({e:#}); nothing was installed")
            })?;
            got.insert(name, h);
        }
        if got.is_empty() {
            bail!(
                "{url} holds no src/2014/en/5e-SRD-*.json files; is it a 5e-database release archive? Nothing was installed"
            );
        }
        let check = Check::of(&got, sums);
        if !check.verified() {
            bail!(
                "the downloaded files do not match the pinned {PINNED_RELEASE} sums: {}. Nothing was installed",
                check.problems()
            );
        }
        Ok(())
    });
    bar.finish_and_clear();
    result?;
    outln!(
        "Installed {} SRD files from {url} into {}; every file matches its pinned SHA-256.",
        got.len(),
        dest.display()
    );
    report_load(dest)?;
    Ok(())
}

fn archive_error(url: &str, e: io::Error) -> anyhow::Error {
    anyhow!("the download of {url} broke off or is not a tar.gz ({e}); nothing was installed")
}

/// The file name of a `…/src/2014/en/5e-SRD-*.json` archive entry.
fn release_file(path: &Path) -> Option<String> {
    let parts: Vec<String> = path
        .components()
        .map(|c| c.as_os_str().to_string_lossy().to_string())
        .collect();
    match parts.as_slice() {
        [.., a, b, c, name] if a == "src" && b == "2014" && c == "en" && is_collection(name) => {
            Some(name.clone())
        }
        _ => None,
    }
}

/// Prints whether the installed data loads, and what it holds.
fn report_load(dir: &Path) -> anyhow::Result<bool> {
    let started = Instant::now();
    match Compendium::load(dir) {
        Ok(c) => {
            outln!(
                "Loads in {:.0} ms: {} entries ({} spells, {} monsters, {} equipment, {} magic items, {} classes, {} races, {} conditions).",
                started.elapsed().as_secs_f64() * 1000.0,
                c.len(),
                c.spells().len(),
                c.monsters().len(),
                c.all_equipment().len(),
                c.magic_items().len(),
                c.classes().len(),
                c.races().len(),
                c.conditions().len()
            );
            Ok(true)
        }
        Err(e) => {
            outln!("Does not load: {e}");
            Ok(false)
        }
    }
}

fn status(s: &Settings, sums: &Sums) -> anyhow::Result<ExitCode> {
    let dir = s.srd_dir()?;
    let how = if s.srd.is_some() {
        "from --srd or TABLETOP_SRD_DIR"
    } else {
        "the default, <data dir>/srd"
    };
    outln!("SRD directory: {} ({how})", dir.display());
    if !dir.is_dir() {
        outln!(
            "Not installed. Run `tabletop srd install --url` (downloads and verifies {PINNED_RELEASE}) or `tabletop srd install --from DIR`."
        );
        return Ok(ExitCode::FAILURE);
    }
    let got = hash_dir(&dir)?;
    let check = Check::of(&got, sums);
    if check.verified() {
        outln!(
            "Verified: {} files match the pinned {PINNED_RELEASE} sums.",
            check.ok.len()
        );
    } else {
        outln!(
            "Not verified: {} of {} files match the pinned {PINNED_RELEASE} sums; {}.",
            check.ok.len(),
            sums.len(),
            check.problems()
        );
    }
    Ok(if report_load(&dir)? {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pinned_sums_cover_the_2014_collections() {
        let s = parse_sums(PINNED_SUMS).unwrap();
        assert_eq!(s.len(), 25);
        assert!(s.contains_key("5e-SRD-Spells.json"));
    }

    #[test]
    fn bad_sums_are_rejected() {
        assert!(parse_sums("xyz  a.json").is_err());
        assert!(parse_sums("# only a comment").is_err());
    }

    #[test]
    fn release_paths_are_recognised() {
        assert_eq!(
            release_file(Path::new(
                "5e-database-5.10.0/src/2014/en/5e-SRD-Spells.json"
            )),
            Some("5e-SRD-Spells.json".into())
        );
        assert_eq!(
            release_file(Path::new(
                "5e-database-5.10.0/src/2024/en/5e-SRD-Spells.json"
            )),
            None
        );
        assert_eq!(release_file(Path::new("README.md")), None);
    }
}
