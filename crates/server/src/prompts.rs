//! MCP prompts that teach an agent the intended flow. Each names the tools it relies on and is
//! offered only when the catalog has them.

use rmcp::model::{GetPromptResult, Prompt, PromptArgument, PromptMessage, Role};
use serde_json::{Map, Value};

use crate::catalog;

/// One prompt.
pub struct PromptSpec {
    /// Its name.
    pub name: &'static str,
    /// What it is for.
    pub description: &'static str,
    /// Its arguments: (name, description, required).
    pub arguments: &'static [(&'static str, &'static str, bool)],
    /// Tools it relies on; the prompt is offered only when all exist.
    pub requires: &'static [&'static str],
    /// Builds the message from the arguments.
    pub render: fn(&Map<String, Value>) -> String,
}

fn arg<'a>(args: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    args.get(key)
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|s| !s.is_empty())
}

/// Every prompt.
pub static PROMPTS: &[PromptSpec] = &[
    PromptSpec {
        name: "start_session",
        description: "Start or resume a game: learn the state, then run the table",
        arguments: &[("focus", "What the players want to do tonight", false)],
        requires: &["get_character", "roll_check", "roll_dice"],
        render: |args| {
            let focus = arg(args, "focus")
                .map(|f| format!(" Tonight's focus: {f}."))
                .unwrap_or_default();
            format!(
                "You are the game master of a 5e (SRD 5.1) game run through the Tabletop tools.{focus}\n\
                 1. Learn where the game stands: {context}get_character {{\"listAll\": true}} for the roster, then get_character on each hero you will use.\n\
                 2. Narrate, and let the engine decide: every uncertain action is a roll_check (skill, ability, save) with a DC you set; never invent a roll.\n\
                 3. Record consequences at once with update_character (damage with its type, healing, temporary HP); the engine applies resistances, 0 HP and death saves.\n\
                 4. Free-form dice (tables, improvised effects) go through roll_dice so they are recorded.\n\
                 5. When a tool answers with an error, read it: it says what to fix.",
                context = if catalog::find("get_session_context").is_some() {
                    "get_session_context, then "
                } else {
                    ""
                },
            )
        },
    },
    PromptSpec {
        name: "create_character",
        description: "Build a legal character from a concept",
        arguments: &[
            (
                "concept",
                "The idea, e.g. 'a dwarf fighter who was a soldier'",
                true,
            ),
            ("level", "Starting level (default 1)", false),
        ],
        requires: &["create_character"],
        render: |args| {
            let concept = arg(args, "concept").unwrap_or("a new adventurer");
            let level = arg(args, "level").unwrap_or("1");
            format!(
                "Create a level {level} character for: {concept}.\n\
                 1. Pick an SRD race, subrace and class that fit (search_compendium can list them when enabled).\n\
                 2. Choose abilityMethod standard_array or point_buy with stats before racial bonuses, and skills from the class list.\n\
                 3. Call create_character with validateOnly: true and fix every problem it lists.\n\
                 4. Call create_character again without validateOnly to store it, then show the sheet from get_character."
            )
        },
    },
    PromptSpec {
        name: "run_combat_round",
        description: "Run one round of combat through the engine",
        arguments: &[("encounterId", "The encounter", true)],
        requires: &["get_encounter", "execute_action", "advance_turn"],
        render: |args| {
            let id = arg(args, "encounterId").unwrap_or("the current encounter");
            format!(
                "Run one round of {id}.\n\
                 1. get_encounter (verbosity summary) to see whose turn it is.\n\
                 2. For each combatant in order, choose its action and call execute_action; the engine rolls attacks, damage, saves, opportunity attacks and death saves.\n\
                 3. Call advance_turn after each turn; it handles end-of-turn saves, durations and start-of-turn effects.\n\
                 4. Narrate what the results say; do not change numbers by hand."
            )
        },
    },
];

/// The prompts offered now.
pub fn available() -> impl Iterator<Item = &'static PromptSpec> {
    PROMPTS
        .iter()
        .filter(|p| p.requires.iter().all(|t| catalog::find(t).is_some()))
}

/// The MCP form of every available prompt.
pub fn list() -> Vec<Prompt> {
    available()
        .map(|p| {
            let args = p
                .arguments
                .iter()
                .map(|(n, d, r)| {
                    PromptArgument::new(*n)
                        .with_description(*d)
                        .with_required(*r)
                })
                .collect();
            Prompt::new(p.name, Some(p.description), Some(args))
        })
        .collect()
}

/// Renders the prompt `name`, or says which prompts exist and which arguments are missing.
pub fn get(name: &str, args: &Map<String, Value>) -> Result<GetPromptResult, String> {
    let Some(p) = available().find(|p| p.name == name) else {
        let names: Vec<&str> = available().map(|p| p.name).collect();
        return Err(format!(
            "no prompt '{name}'; available: {}",
            names.join(", ")
        ));
    };
    for (n, _, required) in p.arguments {
        if *required && arg(args, n).is_none() {
            return Err(format!("prompt {name} needs the argument '{n}'"));
        }
    }
    let text = (p.render)(args);
    Ok(
        GetPromptResult::new(vec![PromptMessage::new_text(Role::User, text)])
            .with_description(p.description),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prompts_are_offered_only_with_their_tools_and_check_arguments() {
        let names: Vec<&str> = available().map(|p| p.name).collect();
        assert!(names.contains(&"start_session"));
        for p in available() {
            for t in p.requires {
                assert!(catalog::find(t).is_some(), "{} needs {t}", p.name);
            }
        }
        let err = get("create_character", &Map::new()).unwrap_err();
        assert!(err.contains("concept"), "{err}");
        let mut args = Map::new();
        args.insert("concept".into(), Value::String("a gnome wizard".into()));
        assert!(get("create_character", &args).is_ok());
        assert!(get("nope", &args).unwrap_err().contains("available"));
    }
}
