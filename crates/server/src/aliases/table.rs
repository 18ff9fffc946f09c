//! The alias data: `crates/server/aliases.toml`, embedded at build time and parsed once, on first
//! use, into typed tables. The file's header documents the format.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use serde::Deserialize;
use serde_json::Value;

use super::convert::{self, Converter};

/// The data file, as built into the binary.
pub(super) static SOURCE: &str = include_str!("../../aliases.toml");

/// Why the alias data could not be read (a build-time file, so a test catches it first).
#[derive(Debug, Clone, thiserror::Error)]
pub enum AliasDataError {
    /// The file is not valid TOML of the documented shape.
    #[error("aliases.toml does not parse: {0}")]
    Parse(String),
    /// An entry names something that does not exist.
    #[error("aliases.toml, {entry}: {problem}")]
    Entry {
        /// The legacy name (or switch/action) of the entry.
        entry: String,
        /// What is wrong with it.
        problem: String,
    },
}

/// One legacy name (or one action of a switched composite).
#[derive(Debug)]
pub struct Alias {
    /// The legacy tool name.
    pub legacy: &'static str,
    /// The advertised tool it routes to.
    pub tool: &'static str,
    /// Arguments filled in when the caller gave none.
    pub set: Vec<(&'static str, Value)>,
    /// Argument names mapped, as (legacy name, new name), in order.
    pub rename: &'static [(String, String)],
    /// The converter's name in the data, if any.
    pub convert_name: Option<&'static str>,
    /// The converter for legacy shapes, run after renaming.
    pub convert: Option<Converter>,
}

/// A legacy composite whose `action` picks the tool it routes to.
#[derive(Debug)]
pub struct Switch {
    /// The legacy name.
    pub legacy: &'static str,
    /// One alias per `action` value, in the data's order.
    pub routes: Vec<(&'static str, Alias)>,
}

/// A family of legacy names for a system Tabletop does not have.
#[derive(Debug)]
pub struct Retired {
    /// Matches legacy names.
    pub names: Vec<NameMatch>,
    /// What the system was.
    pub what: &'static str,
    /// The nearest tool, and how it helps.
    pub instead: &'static str,
}

/// How a retired family matches a name.
#[derive(Debug, PartialEq, Eq)]
pub enum NameMatch {
    /// The exact name.
    Exact(&'static str),
    /// Names starting with this.
    Prefix(&'static str),
    /// Names containing this.
    Contains(&'static str),
}

impl NameMatch {
    /// Whether `name` belongs to this pattern.
    pub fn matches(&self, name: &str) -> bool {
        match self {
            NameMatch::Exact(n) => name == *n,
            NameMatch::Prefix(p) => name.starts_with(p),
            NameMatch::Contains(c) => name.contains(c),
        }
    }
}

/// Everything the data file holds, resolved.
#[derive(Debug)]
pub struct Tables {
    /// Plain aliases, in file order.
    pub aliases: Vec<Alias>,
    /// Switched composites.
    pub switches: Vec<Switch>,
    /// Retired families, first match wins.
    pub retired: Vec<Retired>,
    /// The shared rename sets, by name.
    pub renames: &'static BTreeMap<String, Vec<(String, String)>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    #[serde(default)]
    renames: BTreeMap<String, Vec<(String, String)>>,
    #[serde(default)]
    alias: Vec<RawAlias>,
    #[serde(default)]
    switch: Vec<RawSwitch>,
    #[serde(default)]
    retired: Vec<RawRetired>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAlias {
    legacy: String,
    tool: String,
    #[serde(default)]
    set: BTreeMap<String, Value>,
    rename: Option<RawRename>,
    convert: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSwitch {
    legacy: String,
    route: Vec<RawRoute>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRoute {
    action: String,
    tool: String,
    #[serde(default)]
    set: BTreeMap<String, Value>,
    rename: Option<RawRename>,
    convert: Option<String>,
}

/// `rename`: the name of a shared set, or the pairs themselves.
#[derive(Deserialize)]
#[serde(untagged)]
enum RawRename {
    Shared(String),
    Pairs(Vec<(String, String)>),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRetired {
    what: String,
    instead: String,
    #[serde(default)]
    exact: Vec<String>,
    #[serde(default)]
    prefix: Vec<String>,
    #[serde(default)]
    contains: Vec<String>,
}

static RAW: LazyLock<Result<RawFile, AliasDataError>> = LazyLock::new(|| parse(SOURCE));

static TABLES: LazyLock<Result<Tables, AliasDataError>> = LazyLock::new(|| {
    let raw = RAW.as_ref().map_err(Clone::clone)?;
    resolve(raw)
});

fn parse(text: &str) -> Result<RawFile, AliasDataError> {
    toml::from_str(text).map_err(|e| AliasDataError::Parse(e.to_string()))
}

/// Loads other alias data (tests: bad entries name themselves). The parsed file is kept for the
/// life of the process, as the built-in one is.
#[cfg(test)]
pub(super) fn load(text: &str) -> Result<Tables, AliasDataError> {
    let raw: &'static RawFile = Box::leak(Box::new(parse(text)?));
    resolve(raw)
}

/// The tables, or why the data did not load.
pub fn tables() -> Result<&'static Tables, &'static AliasDataError> {
    TABLES.as_ref()
}

/// Plain aliases (none when the data did not load).
pub(super) fn aliases() -> &'static [Alias] {
    tables().map(|t| t.aliases.as_slice()).unwrap_or_default()
}

/// Switched composites (none when the data did not load).
pub(super) fn switches() -> &'static [Switch] {
    tables().map(|t| t.switches.as_slice()).unwrap_or_default()
}

/// Retired families (none when the data did not load).
pub(super) fn retired() -> &'static [Retired] {
    tables().map(|t| t.retired.as_slice()).unwrap_or_default()
}

/// Borrowed fields of one alias or route, before resolution.
struct Target<'a> {
    entry: String,
    legacy: &'a str,
    tool: &'a str,
    set: &'a BTreeMap<String, Value>,
    rename: Option<&'a RawRename>,
    convert: Option<&'a str>,
}

fn resolve(raw: &'static RawFile) -> Result<Tables, AliasDataError> {
    let aliases = raw
        .alias
        .iter()
        .map(|a| {
            target(
                raw,
                Target {
                    entry: format!("alias {}", a.legacy),
                    legacy: &a.legacy,
                    tool: &a.tool,
                    set: &a.set,
                    rename: a.rename.as_ref(),
                    convert: a.convert.as_deref(),
                },
            )
        })
        .collect::<Result<Vec<_>, _>>()?;
    let switches = raw
        .switch
        .iter()
        .map(|s| {
            let routes = s
                .route
                .iter()
                .map(|r| {
                    let alias = target(
                        raw,
                        Target {
                            entry: format!("switch {} action {}", s.legacy, r.action),
                            legacy: &s.legacy,
                            tool: &r.tool,
                            set: &r.set,
                            rename: r.rename.as_ref(),
                            convert: r.convert.as_deref(),
                        },
                    )?;
                    Ok((r.action.as_str(), alias))
                })
                .collect::<Result<Vec<_>, AliasDataError>>()?;
            Ok(Switch {
                legacy: &s.legacy,
                routes,
            })
        })
        .collect::<Result<Vec<_>, AliasDataError>>()?;
    let retired = raw
        .retired
        .iter()
        .map(|r| {
            let names: Vec<NameMatch> = r
                .exact
                .iter()
                .map(|n| NameMatch::Exact(n))
                .chain(r.prefix.iter().map(|n| NameMatch::Prefix(n)))
                .chain(r.contains.iter().map(|n| NameMatch::Contains(n)))
                .collect();
            if names.is_empty() {
                return Err(AliasDataError::Entry {
                    entry: format!("retired {}", r.what),
                    problem: "no exact, prefix or contains names".into(),
                });
            }
            Ok(Retired {
                names,
                what: &r.what,
                instead: &r.instead,
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Tables {
        aliases,
        switches,
        retired,
        renames: &raw.renames,
    })
}

fn target(raw: &'static RawFile, t: Target<'static>) -> Result<Alias, AliasDataError> {
    let problem = |problem: String| AliasDataError::Entry {
        entry: t.entry.clone(),
        problem,
    };
    let rename: &'static [(String, String)] = match t.rename {
        None => &[],
        Some(RawRename::Pairs(p)) => p,
        Some(RawRename::Shared(name)) => raw
            .renames
            .get(name)
            .ok_or_else(|| problem(format!("rename names no [renames] set {name}")))?,
    };
    let convert = match t.convert {
        None => None,
        Some(name) => Some(
            convert::find(name)
                .ok_or_else(|| problem(format!("convert names no converter {name}")))?,
        ),
    };
    Ok(Alias {
        legacy: t.legacy,
        tool: t.tool,
        set: t.set.iter().map(|(k, v)| (k.as_str(), v.clone())).collect(),
        rename,
        convert_name: t.convert,
        convert,
    })
}
