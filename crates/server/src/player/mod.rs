//! The access policy of the player role: which tools a player token may call and how each is
//! narrowed to the player's own character. What a player may *see* is decided by the engine
//! (`tabletop_engine::table`); this module only routes and constrains.

mod views;

use std::sync::Mutex;

use serde_json::{Map, Value};
use tabletop_engine::table::{self, Viewer};

use crate::catalog::{self, CATALOG, ToolSpec};
use crate::reply::{Reply, ToolError};
use crate::tools::EngineT;

pub use views::{list_resources, read_resource};

/// How a player may use one tool.
pub enum Rule {
    /// As the DM would: the tool reads or rolls nothing hidden. `refused` fields are not allowed.
    Open {
        /// Fields a player may not send.
        refused: &'static [&'static str],
    },
    /// For the player's own character only: `character` fields are set to it (a different
    /// character named is refused), `refused` fields are not allowed, `ops` limits the
    /// `operation` values; `own_turn` requires that it is the character's turn.
    Own {
        /// The id field set to the player's character ("characterId", "actorId").
        id_field: &'static str,
        /// The matching name field, which must be absent or name the player's character.
        name_field: &'static str,
        /// Fields a player may not send.
        refused: &'static [&'static str],
        /// The operations allowed, when the tool has an `operation` field.
        ops: &'static [&'static str],
    },
    /// A player-specific reading or action built on the engine's table view.
    View(views::ViewFn),
}

/// The player surface: every tool a player token sees, with its rule. Anything not here is a DM
/// tool and is refused.
pub fn rules() -> &'static [(&'static str, Rule)] {
    &[
        ("roll_dice", Rule::Open { refused: &["seed"] }),
        ("get_character", Rule::View(views::get_character)),
        (
            "roll_check",
            Rule::Own {
                id_field: "characterId",
                name_field: "characterName",
                refused: &["batch", "contestedBy"],
                ops: &[],
            },
        ),
        (
            "roll_death_save",
            Rule::Own {
                id_field: "characterId",
                name_field: "characterName",
                refused: &["force"],
                ops: &[],
            },
        ),
        ("get_encounter", Rule::View(views::get_encounter)),
        ("execute_action", Rule::View(views::execute_action)),
        ("advance_turn", Rule::View(views::advance_turn)),
        (
            "manage_inventory",
            Rule::Own {
                id_field: "characterId",
                name_field: "characterName",
                refused: &[
                    "batch",
                    "targetId",
                    "targetName",
                    "toCharacterId",
                    "toCharacterName",
                ],
                ops: &["view", "equip", "unequip", "use"],
            },
        ),
        ("manage_notes", Rule::View(views::manage_notes)),
        ("get_session_context", Rule::View(views::session_context)),
        ("search_compendium", Rule::Open { refused: &[] }),
        ("get_compendium_entry", Rule::Open { refused: &[] }),
    ]
}

fn rule(name: &str) -> Option<&'static Rule> {
    rules().iter().find(|(n, _)| *n == name).map(|(_, r)| r)
}

/// The tools a player sees, in catalog order.
pub fn tools() -> Vec<&'static ToolSpec> {
    CATALOG.iter().filter(|t| rule(t.name).is_some()).collect()
}

/// Runs a call for a player. Legacy names are not offered to players: only the advertised names.
pub fn call(
    engine: &Mutex<EngineT>,
    viewer: &Viewer,
    name: &str,
    args: &Value,
) -> Result<Reply, ToolError> {
    let Some(r) = rule(name) else {
        return Err(if catalog::find(name).is_some() {
            ToolError(format!(
                "{name} is a DM tool: a player token cannot use it. Ask the DM, or call tools/list for what you can do."
            ))
        } else {
            ToolError(format!(
                "unknown tool '{name}'. Call tools/list for the tools a player can use."
            ))
        });
    };
    let spec = catalog::find(name).ok_or_else(|| ToolError(format!("internal: {name} missing")))?;
    let mut obj = match args {
        Value::Object(m) => m.clone(),
        Value::Null => Map::new(),
        _ => {
            return Err(ToolError(format!(
                "arguments for {name} must be a JSON object"
            )));
        }
    };
    let mut engine = engine.lock().map_err(|_| {
        ToolError("internal error: the engine lock was poisoned; restart the server".into())
    })?;
    let mut reply = match r {
        Rule::Open { refused } => {
            refuse(name, &obj, refused)?;
            (spec.handler)(&mut engine, spec.name, &Value::Object(obj))?
        }
        Rule::Own {
            id_field,
            name_field,
            refused,
            ops,
        } => {
            refuse(name, &obj, refused)?;
            if !ops.is_empty() {
                let op = obj.get("operation").and_then(Value::as_str).unwrap_or("");
                if !ops.contains(&op) {
                    return Err(ToolError(format!(
                        "a player may use {name} with operation {} only; ask the DM for '{op}'",
                        ops.join(", ")
                    )));
                }
            }
            own(&mut engine, viewer, &mut obj, id_field, name_field)?;
            (spec.handler)(&mut engine, spec.name, &Value::Object(obj))?
        }
        Rule::View(f) => f(&mut engine, viewer, &Value::Object(obj))?,
    };
    crate::reply::cap_text(&mut reply.text, spec.max_result_chars);
    Ok(reply)
}

/// Refuses any of `fields` present in the arguments.
pub(crate) fn refuse(
    tool: &str,
    obj: &Map<String, Value>,
    fields: &[&str],
) -> Result<(), ToolError> {
    match fields.iter().find(|f| obj.contains_key(**f)) {
        Some(f) => Err(ToolError(format!(
            "{f} is not available to players in {tool}; leave it out or ask the DM"
        ))),
        None => Ok(()),
    }
}

/// Points the call at the player's own character: a different character named is refused.
pub(crate) fn own(
    engine: &mut EngineT,
    viewer: &Viewer,
    obj: &mut Map<String, Value>,
    id_field: &str,
    name_field: &str,
) -> Result<(), ToolError> {
    let me = engine.read(|call| table::own(call, viewer))?;
    let id_ok = obj
        .get(id_field)
        .is_none_or(|v| v.as_str() == Some(me.id.as_str()));
    let name_ok = obj.get(name_field).is_none_or(|v| {
        v.as_str()
            .is_some_and(|n| n.trim().eq_ignore_ascii_case(me.name.trim()))
    });
    if !(id_ok && name_ok) {
        return Err(ToolError(format!(
            "a player acts only for their own character, {} ({}); leave {id_field} out",
            me.name, me.id
        )));
    }
    obj.remove(name_field);
    obj.insert(id_field.into(), Value::String(me.id));
    Ok(())
}
