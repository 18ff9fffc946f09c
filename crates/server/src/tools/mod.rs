//! The tools, one module per category. Each turns arguments into engine calls and engine results
//! into a [`Reply`]; no game logic lives here.

mod characters;
mod checks;
pub(crate) mod combat;
mod compendium;
mod conditions;
mod dice;
mod effects;
mod encounter;
mod inventory;
mod magic;
pub(crate) mod memory;
mod rest;
pub(crate) mod session;
pub(crate) mod spatial;
mod spatial_args;
mod spells;
mod world;

use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use tabletop_engine::{Call, EngineError};

use crate::args;
use crate::reply::{Reply, ToolError};
pub use crate::spec::EngineT;
use crate::spec::ToolSpec;

/// Every tool spec, in advertised order.
pub fn specs() -> Vec<ToolSpec> {
    let mut v = Vec::new();
    v.extend(dice::specs());
    v.extend(characters::specs());
    v.extend(checks::specs());
    v.extend(effects::specs());
    v.extend(rest::specs());
    v.extend(conditions::specs());
    v.extend(combat::specs());
    v.extend(encounter::specs());
    v.extend(spatial::specs());
    v.extend(magic::specs());
    v.extend(spells::specs());
    v.extend(world::specs());
    v.extend(session::specs());
    v.extend(memory::specs());
    v.extend(inventory::specs());
    v.extend(compendium::specs());
    v
}

/// Whether a tool changes state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Reads only: runs in a read transaction, writes no event.
    Read,
    /// Writes: one transaction with its event.
    Write,
}

/// Most items a batch may hold.
pub const MAX_BATCH: usize = 20;

/// Runs a tool whose arguments are `A`, in one transaction.
pub fn invoke<A: DeserializeOwned>(
    engine: &mut EngineT,
    tool: &str,
    raw: &Value,
    access: Access,
    run: fn(&mut Call<'_>, A) -> Result<Reply, EngineError>,
) -> Result<Reply, ToolError> {
    let mut args: Option<A> = Some(args::parse(tool, raw)?);
    // A write the store retries (a conflict with another server) runs again on arguments
    // parsed afresh: they parsed once, so they parse the same way.
    let mut take = || -> Result<A, EngineError> {
        match args.take() {
            Some(a) => Ok(a),
            None => args::parse(tool, raw).map_err(|e| EngineError::Rule(e.0)),
        }
    };
    Ok(match access {
        Access::Read => engine.read(|call| run(call, take()?))?,
        Access::Write => engine.write_retrying(tool, raw, |call| run(call, take()?))?,
    })
}

/// Runs a tool that also accepts `{ "batch": [item, …] }`: every item in one transaction,
/// answered per item (an item's error does not stop the others).
pub fn invoke_batch<A: DeserializeOwned>(
    engine: &mut EngineT,
    tool: &str,
    raw: &Value,
    access: Access,
    run: fn(&mut Call<'_>, A) -> Result<Reply, EngineError>,
) -> Result<Reply, ToolError> {
    let Some(batch) = raw.get("batch") else {
        return invoke(engine, tool, raw, access, run);
    };
    let items = match batch {
        Value::Array(items) if (1..=MAX_BATCH).contains(&items.len()) => items,
        Value::Array(items) => {
            return Err(ToolError(format!(
                "batch holds {} items; send 1–{MAX_BATCH} (split larger batches into several calls)",
                items.len()
            )));
        }
        _ => return Err(ToolError("batch must be an array of items (1–20)".into())),
    };
    if raw.as_object().is_some_and(|o| o.len() > 1) {
        return Err(ToolError(
            "with batch, put every field inside the batch items, not beside batch".into(),
        ));
    }
    let parse = || -> Vec<Result<A, ToolError>> {
        items
            .iter()
            .map(|item| args::parse::<A>(tool, item))
            .collect()
    };
    let mut parsed = Some(parse());
    // A retried write (see `invoke`) parses the items again.
    let body = |call: &mut Call<'_>| -> Result<Vec<Result<Reply, String>>, EngineError> {
        Ok(parsed
            .take()
            .unwrap_or_else(parse)
            .into_iter()
            .map(|p| match p {
                Ok(a) => run(call, a).map_err(|e| ToolError::from(e).0),
                Err(e) => Err(e.0),
            })
            .collect())
    };
    let results = match access {
        Access::Read => engine.read(body)?,
        Access::Write => engine.write_retrying(tool, raw, body)?,
    };
    let ok = results.iter().filter(|r| r.is_ok()).count();
    let mut text = format!("Batch: {ok} of {} succeeded.", results.len());
    let mut structured = Vec::with_capacity(results.len());
    for (i, r) in results.into_iter().enumerate() {
        match r {
            Ok(reply) => {
                text.push_str(&format!("\n{}. {}", i + 1, reply.text));
                structured.push(json!({ "ok": true, "result": reply.into_structured() }));
            }
            Err(e) => {
                text.push_str(&format!("\n{}. Error: {e}", i + 1));
                structured.push(json!({ "ok": false, "error": e }));
            }
        }
    }
    Ok(Reply::from_value(text, json!({ "results": structured })))
}

/// Rejects fields the chosen operation does not use, naming the ones it does.
pub(crate) fn check_fields(
    tool: &str,
    raw: &Value,
    table: &[(&str, &[&str])],
) -> Result<(), ToolError> {
    let Some(obj) = raw.as_object() else {
        return Ok(());
    };
    let Some(op) = obj.get("operation").and_then(Value::as_str) else {
        return Ok(());
    };
    let op = tabletop_rules::vocab::normalize_key(op);
    let Some((_, allowed)) = table.iter().find(|(o, _)| *o == op) else {
        return Ok(());
    };
    let stray: Vec<&str> = obj
        .keys()
        .map(String::as_str)
        .filter(|k| *k != "operation" && !allowed.contains(k))
        // Fields no operation knows are left to the parser, which suggests the closest.
        .filter(|k| table.iter().any(|(_, f)| f.contains(k)))
        .collect();
    if stray.is_empty() {
        return Ok(());
    }
    let used_by: Vec<String> = stray
        .iter()
        .map(|k| {
            let ops: Vec<&str> = table
                .iter()
                .filter(|(_, f)| f.contains(k))
                .map(|(o, _)| *o)
                .collect();
            format!("{k} (used by {})", ops.join(", "))
        })
        .collect();
    Err(ToolError(format!(
        "{tool} operation {op} does not use {}; it takes {}",
        used_by.join(", "),
        if allowed.is_empty() {
            "no other field".to_string()
        } else {
            allowed.join(", ")
        }
    )))
}
