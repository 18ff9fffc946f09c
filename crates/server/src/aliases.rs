//! Hidden aliases: legacy tool names that still work. Each alias is data, in
//! `crates/server/aliases.toml` (embedded at build time, see [`table`]): the tool it routes to,
//! the arguments it fills in, the argument names it maps, and (where an old tool of the same name
//! took another shape or unit) a named converter ([`convert`]) that tells the shapes apart.
//! Aliases are callable, never advertised, and logged once per name as deprecated.
//!
//! Names of systems Tabletop does not have are answered with a tool error naming the nearest tool.

use std::collections::HashSet;
use std::ops::Deref;
use std::sync::{LazyLock, Mutex};

use serde_json::{Map, Value};

use crate::reply::ToolError;

pub mod convert;
pub mod table;

pub use convert::Converter;
pub use table::{Alias, AliasDataError, NameMatch, Retired, Switch};

/// Rows of the alias data, read like a static slice (`for a in ALIASES`, `ALIASES.iter()`).
pub struct Rows<T: 'static>(fn() -> &'static [T]);

impl<T> Clone for Rows<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Rows<T> {}

impl<T> Deref for Rows<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        (self.0)()
    }
}

impl<T> IntoIterator for Rows<T> {
    type Item = &'static T;
    type IntoIter = std::slice::Iter<'static, T>;
    fn into_iter(self) -> Self::IntoIter {
        (self.0)().iter()
    }
}

/// Every alias, in the data's order. Tests call each one, in this order.
pub static ALIASES: Rows<Alias> = Rows(table::aliases);

/// Legacy composites that route to several tools.
pub static SWITCHES: Rows<Switch> = Rows(table::switches);

/// Systems that were retired, and where their function went.
pub static RETIRED: Rows<Retired> = Rows(table::retired);

/// The alias a call of `name` with `args` routes through: a plain alias, or for a switched
/// composite the route its `action` picks (an unknown action is an error listing the known ones).
pub fn find_for(name: &str, args: &Value) -> Result<Option<&'static Alias>, ToolError> {
    if let Err(e) = table::tables() {
        return Err(ToolError(format!(
            "internal: legacy tool names are unavailable: {e}"
        )));
    }
    let Some(sw) = SWITCHES.iter().find(|s| s.legacy == name) else {
        return Ok(find(name));
    };
    let action = args
        .get("action")
        .and_then(Value::as_str)
        .unwrap_or_default();
    match sw.routes.iter().find(|(a, _)| *a == action) {
        Some((_, alias)) => Ok(Some(alias)),
        None => Err(ToolError(format!(
            "{name} needs action, one of: {} (or call the tools directly)",
            sw.routes
                .iter()
                .map(|(a, _)| *a)
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    }
}

/// The alias for `name`, if any.
pub fn find(name: &str) -> Option<&'static Alias> {
    ALIASES.into_iter().find(|a| a.legacy == name)
}

/// The retired family `name` belongs to, if any.
pub fn retired(name: &str) -> Option<&'static Retired> {
    RETIRED
        .into_iter()
        .find(|r| r.names.iter().any(|m| m.matches(name)))
}

static WARNED: LazyLock<Mutex<HashSet<&'static str>>> =
    LazyLock::new(|| Mutex::new(HashSet::new()));

/// Rewrites the arguments of a call to `alias` for its target tool. Logs the deprecation the
/// first time each legacy name is used.
pub fn route(alias: &'static Alias, args: &Value) -> Result<Value, ToolError> {
    if let Ok(mut warned) = WARNED.lock()
        && warned.insert(alias.legacy)
    {
        tracing::warn!(
            legacy = alias.legacy,
            replacement = alias.tool,
            "deprecated tool name used; call {} instead",
            alias.tool
        );
    }
    let mut map = match args {
        Value::Object(m) => m.clone(),
        Value::Null => Map::new(),
        _ => {
            return Err(ToolError(format!(
                "arguments for {} must be a JSON object",
                alias.legacy
            )));
        }
    };
    for (from, to) in alias.rename {
        if let Some(v) = map.remove(from) {
            map.entry(to.as_str()).or_insert(v);
        }
    }
    if let Some(convert) = alias.convert {
        convert(&mut map)?;
    }
    // A converter may have produced a batch: fill each item instead of the envelope.
    match map.get_mut("batch") {
        Some(Value::Array(items)) => {
            for item in items.iter_mut() {
                if let Value::Object(m) = item {
                    fill(alias, m);
                }
            }
        }
        _ => fill(alias, &mut map),
    }
    Ok(Value::Object(map))
}

fn fill(alias: &Alias, map: &mut Map<String, Value>) {
    for (key, value) in &alias.set {
        if !map.contains_key(*key) {
            map.insert((*key).to_string(), value.clone());
        }
    }
}

#[cfg(test)]
mod compat_tests;

#[cfg(test)]
mod tests;
