//! Hidden aliases: legacy tool names that still work. Each alias is data: the tool it routes to,
//! the arguments it fills in, the argument names it maps, and (where an old tool of the same name
//! took another shape or unit) a converter that tells the shapes apart. Aliases are callable,
//! never advertised, and logged once per name as deprecated.
//!
//! Names of systems Tabletop does not have are answered with a tool error naming the nearest tool.

use std::collections::HashSet;
use std::sync::{LazyLock, Mutex};

use serde_json::{Map, Value};

use crate::reply::ToolError;
use crate::tools::spatial;

/// Rewrites arguments whose shape differs from the advertised tool's.
pub type Converter = fn(&mut Map<String, Value>) -> Result<(), ToolError>;

/// One legacy name.
pub struct Alias {
    /// The legacy tool name.
    pub legacy: &'static str,
    /// The advertised tool it routes to.
    pub tool: &'static str,
    /// Arguments filled in, as (name, JSON literal); a caller's own value wins.
    pub set: &'static [(&'static str, &'static str)],
    /// Argument names mapped, as (legacy name, new name).
    pub rename: &'static [(&'static str, &'static str)],
    /// A converter for legacy shapes, run after renaming.
    pub convert: Option<Converter>,
}

/// A family of legacy names for a system Tabletop does not have.
pub struct Retired {
    /// Matches legacy names (exact, prefix or substring, see [`NameMatch`]).
    pub names: &'static [NameMatch],
    /// What the system was.
    pub what: &'static str,
    /// The nearest tool, and how it helps.
    pub instead: &'static str,
}

/// How a retired family matches a name.
pub enum NameMatch {
    /// The exact name.
    Exact(&'static str),
    /// Names starting with this.
    Prefix(&'static str),
    /// Names containing this.
    Contains(&'static str),
}

impl NameMatch {
    fn matches(&self, name: &str) -> bool {
        match self {
            NameMatch::Exact(n) => name == *n,
            NameMatch::Prefix(p) => name.starts_with(p),
            NameMatch::Contains(c) => name.contains(c),
        }
    }
}

const fn alias(legacy: &'static str, tool: &'static str) -> Alias {
    Alias {
        legacy,
        tool,
        set: &[],
        rename: &[],
        convert: None,
    }
}

const fn alias_set(
    legacy: &'static str,
    tool: &'static str,
    set: &'static [(&'static str, &'static str)],
) -> Alias {
    Alias {
        legacy,
        tool,
        set,
        rename: &[],
        convert: None,
    }
}

/// Legacy `{amount, damageType}` damage → `damage: [{amount, type}]`.
fn damage_amount(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    if let Some(amount) = args.remove("amount") {
        let mut d = Map::new();
        d.insert("amount".into(), amount);
        if let Some(t) = args.remove("damageType").or_else(|| args.remove("type")) {
            d.insert("type".into(), t);
        }
        args.insert("damage".into(), Value::Array(vec![Value::Object(d)]));
    }
    Ok(())
}

/// Legacy `{amount}` healing → `healing`.
fn healing_amount(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    if let Some(amount) = args.remove("amount") {
        args.insert("healing".into(), amount);
    }
    Ok(())
}

/// Legacy `{name}` lookups → `characterName`.
fn name_is_character(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    if let Some(n) = args.remove("name") {
        args.entry("characterName").or_insert(n);
    }
    Ok(())
}

/// Legacy `{type: "npc"}`-free lists of NPCs → `filter.type`.
fn list_of(kind: &'static str) -> impl Fn(&mut Map<String, Value>) {
    move |args: &mut Map<String, Value>| {
        let filter = args
            .entry("filter")
            .or_insert_with(|| Value::Object(Map::new()));
        if let Value::Object(f) = filter {
            f.entry("type")
                .or_insert_with(|| Value::String(kind.into()));
        }
    }
}

fn list_npcs(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    list_of("npc")(args);
    Ok(())
}

const CHARACTER_ID: &[(&str, &str)] = &[
    ("id", "characterId"),
    ("character_id", "characterId"),
    ("npcId", "characterId"),
];

const ROOM: &[(&str, &str)] = &[
    ("roomId", "locationId"),
    ("room_id", "locationId"),
    ("id", "locationId"),
    ("fromRoomId", "fromLocationId"),
    ("toRoomId", "toLocationId"),
    ("from", "fromLocationId"),
    ("to", "toLocationId"),
    ("type", "connectionType"),
];

const PARTY: &[(&str, &str)] = &[("id", "partyId"), ("party_id", "partyId")];

const NOTE: &[(&str, &str)] = &[("id", "noteId"), ("note_id", "noteId")];

/// Legacy worlds: a campaign is the world, so `worldId` says nothing.
fn drop_world(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    args.remove("worldId");
    Ok(())
}

/// Legacy `create_room`-style calls named the place `name` and its kind `type`.
fn room_create(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    drop_world(args)?;
    if let Some(t) = args.remove("connectionType") {
        args.insert("type".into(), t);
    }
    if let Some(l) = args.remove("locationId") {
        args.entry("name").or_insert(l);
    }
    Ok(())
}

/// Legacy `create_party {name, initialMembers: [{characterId, role}]}` → a batch: create with
/// the first member, then add the others.
fn party_create(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    drop_world(args)?;
    let Some(members) = args
        .remove("initialMembers")
        .or_else(|| args.remove("members"))
    else {
        return Ok(());
    };
    let Value::Array(members) = members else {
        return Err(ToolError(
            "initialMembers must be an array of {characterId, role}".into(),
        ));
    };
    let name = args.get("name").cloned().unwrap_or(Value::Null);
    let mut first = args.clone();
    first.insert("operation".into(), Value::String("create".into()));
    let mut batch = Vec::new();
    for (i, m) in members.into_iter().enumerate() {
        let Value::Object(mut m) = m else {
            return Err(ToolError(
                "each initialMembers item is {characterId, role}".into(),
            ));
        };
        m.remove("isActive");
        if i == 0 {
            first.extend(m);
            batch.push(Value::Object(std::mem::take(&mut first)));
        } else {
            m.insert("operation".into(), Value::String("add_member".into()));
            m.insert("partyName".into(), name.clone());
            batch.push(Value::Object(m));
        }
    }
    if batch.is_empty() {
        return Ok(());
    }
    args.clear();
    args.insert("batch".into(), Value::Array(batch));
    Ok(())
}

/// Legacy member calls carried flags the new tool keeps elsewhere.
fn party_member(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    drop_world(args)?;
    args.remove("isActive");
    Ok(())
}

/// Legacy narrative notes: other type and visibility names, a `status` that becomes a tag.
fn narrative_note(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    drop_world(args)?;
    if let Some(Value::String(t)) = args.get("type") {
        let mapped = match t.as_str() {
            "canonical_moment" => "session_log",
            "npc_voice" => "npc",
            "quest" => "plot_thread",
            other => other,
        };
        args.insert("type".into(), Value::String(mapped.into()));
    }
    if let Some(Value::String(v)) = args.get("visibility") {
        let mapped = match v.as_str() {
            "dm_only" => "dm",
            "player_visible" => "player",
            other => other,
        };
        args.insert("visibility".into(), Value::String(mapped.into()));
    }
    if let Some(status) = args.remove("status") {
        let tag = Value::String(format!("status:{}", status.as_str().unwrap_or("unknown")));
        match args.entry("tags").or_insert_with(|| Value::Array(vec![])) {
            Value::Array(tags) => tags.push(tag),
            other => *other = Value::Array(vec![tag]),
        }
    }
    Ok(())
}

/// Legacy searches called the tag filter `tags`.
fn narrative_search(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    if let Some(t) = args.remove("tags") {
        args.entry("tagFilter").or_insert(t);
    }
    narrative_note(args)
}

/// Legacy world-state saves: the state (any JSON) becomes a lore note's content.
fn world_state(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    drop_world(args)?;
    let state = ["content", "state", "data", "summary"]
        .iter()
        .find_map(|k| args.remove(*k));
    match state {
        Some(Value::String(s)) => {
            args.insert("content".into(), Value::String(s));
        }
        Some(other) => {
            args.insert("content".into(), Value::String(other.to_string()));
        }
        None => {}
    }
    args.entry("type").or_insert(Value::String("lore".into()));
    Ok(())
}

/// Legacy story saves: `summary` → a session-log note.
fn story_progress(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    world_state(args)?;
    args.insert("type".into(), Value::String("session_log".into()));
    Ok(())
}

/// Legacy character moves: the character's party moves to the room.
fn character_move(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    for k in ["roomId", "locationId", "targetRoomId", "locationName"] {
        if let Some(v) = args.remove(k) {
            args.entry("to").or_insert(v);
        }
    }
    Ok(())
}

/// Legacy `*_manage` composites took `action`; map it onto `operation`.
fn action_to_operation(
    args: &mut Map<String, Value>,
    tool: &str,
    table: &[(&str, &str)],
) -> Result<(), ToolError> {
    let Some(action) = args.remove("action") else {
        return Ok(());
    };
    let a = action.as_str().unwrap_or_default();
    match table.iter().find(|(from, _)| *from == a) {
        Some((_, op)) => {
            args.insert("operation".into(), Value::String((*op).into()));
            Ok(())
        }
        None => Err(ToolError(format!(
            "action '{a}' has no equivalent in {tool}; its operations are: {}",
            table.iter().map(|(_, o)| *o).collect::<Vec<_>>().join(", ")
        ))),
    }
}

fn party_manage(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    action_to_operation(
        args,
        "manage_party",
        &[
            ("create", "create"),
            ("get", "get"),
            ("list", "list"),
            ("update", "update"),
            ("delete", "delete"),
            ("add_member", "add_member"),
            ("remove_member", "remove_member"),
            ("update_member", "update"),
            ("set_leader", "set_leader"),
            ("set_active", "set_active"),
            ("get_members", "get"),
        ],
    )?;
    party_member(args)
}

fn narrative_manage(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    action_to_operation(
        args,
        "manage_notes",
        &[
            ("add", "add"),
            ("search", "search"),
            ("get", "get"),
            ("update", "update"),
            ("delete", "delete"),
            ("list", "list"),
            ("get_context", "list"),
        ],
    )?;
    narrative_note(args)
}

fn session_manage(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    match args.remove("action") {
        None => {}
        Some(Value::String(a)) if a == "get_context" || a == "initialize" => {}
        Some(other) => {
            return Err(ToolError(format!(
                "session_manage action {other} has no equivalent; get_session_context answers get_context and initialize"
            )));
        }
    }
    drop_world(args)
}

const fn routed(
    legacy: &'static str,
    tool: &'static str,
    set: &'static [(&'static str, &'static str)],
    rename: &'static [(&'static str, &'static str)],
    convert: Option<Converter>,
) -> Alias {
    Alias {
        legacy,
        tool,
        set,
        rename,
        convert,
    }
}

/// Every alias. Tests call each one, in this order.
pub static ALIASES: &[Alias] = &[
    // Dice (consolidation ADR list A; rpg-mcp list C).
    alias("quick_roll", "roll_dice"),
    alias("dice_roll", "roll_dice"),
    alias("damage_roll", "roll_dice"),
    Alias {
        legacy: "math_manage",
        tool: "roll_dice",
        set: &[],
        rename: &[],
        convert: Some(drop_action),
    },
    // Checks.
    alias_set(
        "roll_skill_check",
        "roll_check",
        &[("checkType", "\"skill\"")],
    ),
    alias_set(
        "roll_ability_check",
        "roll_check",
        &[("checkType", "\"ability\"")],
    ),
    alias_set(
        "roll_saving_throw",
        "roll_check",
        &[("checkType", "\"save\"")],
    ),
    alias_set("saving_throw", "roll_check", &[("checkType", "\"save\"")]),
    alias_set(
        "roll_initiative",
        "roll_check",
        &[("checkType", "\"initiative\"")],
    ),
    alias_set(
        "initiative_roll",
        "roll_check",
        &[("checkType", "\"initiative\"")],
    ),
    // Characters.
    alias_set("list_characters", "get_character", &[("listAll", "true")]),
    Alias {
        legacy: "list_npcs",
        tool: "get_character",
        set: &[],
        rename: &[],
        convert: Some(list_npcs),
    },
    Alias {
        legacy: "get_character_by_name",
        tool: "get_character",
        set: &[],
        rename: &[],
        convert: Some(name_is_character),
    },
    Alias {
        legacy: "get_npc",
        tool: "get_character",
        set: &[],
        rename: CHARACTER_ID,
        convert: Some(name_is_character),
    },
    alias_set(
        "fetch_character_template",
        "create_character",
        &[("previewTemplate", "true")],
    ),
    alias_set(
        "validate_character_build",
        "create_character",
        &[("validateOnly", "true")],
    ),
    alias_set(
        "create_npc",
        "create_character",
        &[("characterType", "\"npc\"")],
    ),
    Alias {
        legacy: "update_npc",
        tool: "update_character",
        set: &[],
        rename: CHARACTER_ID,
        convert: Some(name_is_character),
    },
    Alias {
        legacy: "remove_npc",
        tool: "delete_character",
        set: &[],
        rename: CHARACTER_ID,
        convert: Some(name_is_character),
    },
    Alias {
        legacy: "apply_damage",
        tool: "update_character",
        set: &[],
        rename: CHARACTER_ID,
        convert: Some(damage_amount),
    },
    Alias {
        legacy: "apply_healing",
        tool: "update_character",
        set: &[],
        rename: CHARACTER_ID,
        convert: Some(healing_amount),
    },
    // World: places (list A, then rpg-mcp). Ordered so each sample call finds what it needs.
    routed(
        "create_location",
        "manage_location",
        &[("operation", "\"create\"")],
        &[],
        Some(room_create),
    ),
    routed(
        "generate_room_node",
        "manage_location",
        &[("operation", "\"create\"")],
        &[],
        Some(room_create),
    ),
    routed(
        "link_rooms",
        "manage_location",
        &[("operation", "\"link\"")],
        ROOM,
        None,
    ),
    routed(
        "get_location",
        "manage_location",
        &[("operation", "\"get\"")],
        ROOM,
        None,
    ),
    routed(
        "get_room_exits",
        "manage_location",
        &[("operation", "\"get\"")],
        ROOM,
        None,
    ),
    routed(
        "explore_room",
        "manage_location",
        &[("operation", "\"get\"")],
        ROOM,
        None,
    ),
    routed(
        "list_rooms",
        "manage_location",
        &[("operation", "\"list\"")],
        &[],
        Some(drop_world),
    ),
    routed(
        "get_room_graph",
        "manage_location",
        &[("operation", "\"list\"")],
        &[],
        Some(drop_world),
    ),
    // Parties.
    routed(
        "create_party",
        "manage_party",
        &[("operation", "\"create\"")],
        &[],
        Some(party_create),
    ),
    routed(
        "add_party_member",
        "manage_party",
        &[("operation", "\"add_member\"")],
        PARTY,
        Some(party_member),
    ),
    routed(
        "get_party",
        "manage_party",
        &[("operation", "\"get\"")],
        PARTY,
        None,
    ),
    routed(
        "get_party_members",
        "manage_party",
        &[("operation", "\"get\"")],
        PARTY,
        None,
    ),
    routed(
        "list_parties",
        "manage_party",
        &[("operation", "\"list\"")],
        &[],
        Some(drop_world),
    ),
    routed(
        "update_party",
        "manage_party",
        &[("operation", "\"update\"")],
        PARTY,
        Some(drop_world),
    ),
    routed(
        "update_party_member",
        "manage_party",
        &[("operation", "\"update\"")],
        PARTY,
        Some(party_member),
    ),
    routed(
        "set_party_leader",
        "manage_party",
        &[("operation", "\"set_leader\"")],
        PARTY,
        None,
    ),
    routed(
        "set_active_character",
        "manage_party",
        &[("operation", "\"set_active\"")],
        PARTY,
        None,
    ),
    routed(
        "party_manage",
        "manage_party",
        &[],
        PARTY,
        Some(party_manage),
    ),
    // Travel.
    routed(
        "move_character_to_room",
        "move_party",
        &[("operation", "\"move\"")],
        CHARACTER_ID,
        Some(character_move),
    ),
    routed(
        "travel_to_location",
        "move_party",
        &[("operation", "\"move\"")],
        PARTY,
        Some(character_move),
    ),
    routed(
        "get_party_position",
        "move_party",
        &[("operation", "\"status\"")],
        PARTY,
        None,
    ),
    routed(
        "look_at_surroundings",
        "move_party",
        &[("operation", "\"status\"")],
        &[("observerId", "characterId")],
        None,
    ),
    // Places again: unlinking last, so the moves above had their way.
    routed(
        "unlink_rooms",
        "manage_location",
        &[("operation", "\"unlink\"")],
        ROOM,
        None,
    ),
    routed(
        "manage_room_connections",
        "manage_location",
        &[("operation", "\"link\"")],
        ROOM,
        None,
    ),
    routed(
        "remove_party_member",
        "manage_party",
        &[("operation", "\"remove_member\"")],
        PARTY,
        None,
    ),
    routed(
        "delete_party",
        "manage_party",
        &[("operation", "\"delete\"")],
        PARTY,
        None,
    ),
    // Notes.
    routed(
        "add_session_note",
        "manage_notes",
        &[("operation", "\"add\"")],
        &[],
        None,
    ),
    routed(
        "search_notes",
        "manage_notes",
        &[("operation", "\"search\"")],
        &[],
        None,
    ),
    routed(
        "add_narrative_note",
        "manage_notes",
        &[("operation", "\"add\"")],
        &[],
        Some(narrative_note),
    ),
    routed(
        "search_narrative_notes",
        "manage_notes",
        &[("operation", "\"search\"")],
        &[],
        Some(narrative_search),
    ),
    routed(
        "get_narrative_note",
        "manage_notes",
        &[("operation", "\"get\"")],
        NOTE,
        None,
    ),
    routed(
        "update_narrative_note",
        "manage_notes",
        &[("operation", "\"update\"")],
        NOTE,
        Some(narrative_note),
    ),
    routed(
        "delete_narrative_note",
        "manage_notes",
        &[("operation", "\"delete\"")],
        NOTE,
        None,
    ),
    routed(
        "get_narrative_context_notes",
        "manage_notes",
        &[("operation", "\"list\"")],
        &[],
        Some(narrative_search),
    ),
    routed(
        "narrative_manage",
        "manage_notes",
        &[],
        NOTE,
        Some(narrative_manage),
    ),
    routed(
        "save_story_progress",
        "manage_notes",
        &[("operation", "\"add\"")],
        &[],
        Some(story_progress),
    ),
    routed(
        "save_world_state",
        "manage_notes",
        &[("operation", "\"add\"")],
        &[],
        Some(world_state),
    ),
    routed(
        "update_world_state",
        "manage_notes",
        &[("operation", "\"add\"")],
        &[],
        Some(world_state),
    ),
    routed(
        "append_world_state",
        "manage_notes",
        &[("operation", "\"add\"")],
        &[],
        Some(world_state),
    ),
    // Session.
    routed(
        "get_narrative_context",
        "get_session_context",
        &[],
        &[],
        Some(drop_world),
    ),
    routed(
        "initialize_session",
        "get_session_context",
        &[],
        &[],
        Some(drop_world),
    ),
    routed(
        "get_party_context",
        "get_session_context",
        &[],
        PARTY,
        Some(drop_world),
    ),
    routed(
        "session_manage",
        "get_session_context",
        &[],
        &[],
        Some(session_manage),
    ),
    // Concentration (consolidation ADR list A; rpg-mcp list C).
    Alias {
        legacy: "check_concentration",
        tool: "manage_concentration",
        set: &[("operation", "\"check\"")],
        rename: CONCENTRATION_ARGS,
        convert: None,
    },
    Alias {
        legacy: "check_concentration_save",
        tool: "manage_concentration",
        set: &[("operation", "\"check\"")],
        rename: CONCENTRATION_ARGS,
        convert: None,
    },
    Alias {
        legacy: "get_concentration",
        tool: "manage_concentration",
        set: &[("operation", "\"get\"")],
        rename: CONCENTRATION_ARGS,
        convert: None,
    },
    Alias {
        legacy: "get_concentration_state",
        tool: "manage_concentration",
        set: &[("operation", "\"get\"")],
        rename: CONCENTRATION_ARGS,
        convert: None,
    },
    Alias {
        legacy: "break_concentration",
        tool: "manage_concentration",
        set: &[("operation", "\"break\"")],
        rename: CONCENTRATION_ARGS,
        convert: None,
    },
    Alias {
        legacy: "concentration_manage",
        tool: "manage_concentration",
        set: &[],
        rename: CONCENTRATION_ARGS,
        convert: Some(action_is_operation),
    },
    // Rests.
    Alias {
        legacy: "take_short_rest",
        tool: "take_rest",
        set: &[("type", "\"short\"")],
        rename: REST_ARGS,
        convert: None,
    },
    Alias {
        legacy: "take_long_rest",
        tool: "take_rest",
        set: &[("type", "\"long\"")],
        rename: REST_ARGS,
        convert: None,
    },
    Alias {
        legacy: "rest_manage",
        tool: "take_rest",
        set: &[],
        rename: REST_ARGS,
        convert: Some(action_is_rest_type),
    },
    Alias {
        legacy: "rest_party",
        tool: "take_rest",
        set: &[],
        rename: &[],
        convert: Some(party_rest),
    },
    // Spell slots.
    Alias {
        legacy: "get_spell_slots",
        tool: "manage_spell_slots",
        set: &[("operation", "\"view\"")],
        rename: SLOT_ARGS,
        convert: None,
    },
    Alias {
        legacy: "use_spell_slot",
        tool: "manage_spell_slots",
        set: &[("operation", "\"expend\"")],
        rename: SLOT_ARGS,
        convert: None,
    },
    Alias {
        legacy: "recover_spell_slot",
        tool: "manage_spell_slots",
        set: &[("operation", "\"restore\""), ("count", "1")],
        rename: SLOT_ARGS,
        convert: None,
    },
    Alias {
        legacy: "reset_spell_slots",
        tool: "manage_spell_slots",
        set: &[("operation", "\"restore\"")],
        rename: SLOT_ARGS,
        convert: None,
    },
    // Effects.
    Alias {
        legacy: "apply_custom_effect",
        tool: "manage_effect",
        set: &[("operation", "\"add\"")],
        rename: EFFECT_ARGS,
        convert: None,
    },
    Alias {
        legacy: "get_custom_effects",
        tool: "manage_effect",
        set: &[("operation", "\"list\"")],
        rename: EFFECT_ARGS,
        convert: None,
    },
    Alias {
        legacy: "remove_custom_effect",
        tool: "manage_effect",
        set: &[("operation", "\"remove\"")],
        rename: EFFECT_ARGS,
        convert: None,
    },
    Alias {
        legacy: "advance_effect_durations",
        tool: "manage_effect",
        set: &[("operation", "\"tick\"")],
        rename: EFFECT_ARGS,
        convert: None,
    },
    Alias {
        legacy: "process_effect_triggers",
        tool: "manage_effect",
        set: &[("operation", "\"tick\"")],
        rename: EFFECT_ARGS,
        convert: None,
    },
    Alias {
        legacy: "improvisation_manage",
        tool: "manage_effect",
        set: &[],
        rename: EFFECT_ARGS,
        convert: Some(improvisation_effect),
    },
    // Inventory (rpg-mcp list C).
    inventory_alias("give_item", &[("operation", "\"give\"")], legacy_give),
    inventory_alias("add_item", &[("operation", "\"give\"")], legacy_give),
    inventory_alias(
        "create_item_template",
        &[("operation", "\"give\"")],
        legacy_give,
    ),
    Alias {
        legacy: "batch_distribute_items",
        tool: "manage_inventory",
        set: &[],
        rename: &[],
        convert: Some(distribute),
    },
    inventory_alias("get_inventory", &[("operation", "\"view\"")], legacy_ref),
    inventory_alias(
        "get_inventory_detailed",
        &[("operation", "\"view\""), ("showStats", "true")],
        legacy_ref,
    ),
    inventory_alias("list_items", &[("operation", "\"view\"")], legacy_ref),
    inventory_alias("equip_item", &[("operation", "\"equip\"")], legacy_ref),
    inventory_alias("unequip_item", &[("operation", "\"unequip\"")], legacy_ref),
    inventory_alias(
        "transfer_item",
        &[("operation", "\"transfer\"")],
        legacy_ref,
    ),
    inventory_alias("use_item", &[("operation", "\"use\"")], legacy_ref),
    inventory_alias("remove_item", &[("operation", "\"remove\"")], legacy_ref),
    inventory_alias("delete_item", &[("operation", "\"remove\"")], legacy_ref),
    Alias {
        legacy: "inventory_manage",
        tool: "manage_inventory",
        set: &[],
        rename: INVENTORY_RENAME,
        convert: Some(inventory_action),
    },
    Alias {
        legacy: "item_manage",
        tool: "manage_inventory",
        set: &[],
        rename: INVENTORY_RENAME,
        convert: Some(inventory_action),
    },
    // Compendium (ADR-005 names, list B).
    search("search_spells", T_SPELL),
    get("get_spell_details", T_SPELL, SPELL_NAME),
    get("get_spell_info", T_SPELL, SPELL_NAME),
    search("get_spell_by_level", T_SPELL),
    Alias {
        legacy: "get_spells_by_class",
        tool: "search_compendium",
        set: &[("type", "\"spell\"")],
        rename: &[("class_name", "class"), ("className", "class")],
        convert: None,
    },
    search("get_spells_by_school", T_SPELL),
    search("search_races", T_RACE),
    get(
        "get_race_details",
        T_RACE,
        &[("race_name", "name"), ("raceName", "name")],
    ),
    search("get_race_list", T_RACE),
    search("search_classes", T_CLASS),
    get("get_class_details", T_CLASS, CLASS_NAME),
    Alias {
        legacy: "get_subclass_list",
        tool: "search_compendium",
        set: &[("type", "\"subclass\"")],
        rename: &[("class_name", "class"), ("className", "class")],
        convert: None,
    },
    Alias {
        legacy: "get_class_features",
        tool: "search_compendium",
        set: &[("type", "\"feature\""), ("perPage", "100")],
        rename: &[
            ("class_name", "class"),
            ("className", "class"),
            ("feature_type", "query"),
        ],
        convert: None,
    },
    search("search_backgrounds", T_BACKGROUND),
    get(
        "get_background_details",
        T_BACKGROUND,
        &[("background_name", "name"), ("backgroundName", "name")],
    ),
    search("search_feats", T_FEAT),
    get(
        "get_feat_details",
        T_FEAT,
        &[("feat_name", "name"), ("featName", "name")],
    ),
    Alias {
        legacy: "get_weapon_list",
        tool: "search_compendium",
        set: &[("type", "\"weapon\"")],
        rename: &[
            ("category", "weaponCategory"),
            ("weapon_category", "weaponCategory"),
        ],
        convert: Some(category_words),
    },
    Alias {
        legacy: "get_armor_list",
        tool: "search_compendium",
        set: &[("type", "\"armor\"")],
        rename: &[("type", "armorCategory"), ("armor_type", "armorCategory")],
        convert: Some(category_words),
    },
    Alias {
        legacy: "get_magic_items",
        tool: "search_compendium",
        set: &[("type", "\"magic_item\"")],
        rename: &[("type", "category"), ("item_type", "category")],
        convert: None,
    },
    Alias {
        legacy: "get_adventuring_gear",
        tool: "search_compendium",
        set: &[
            ("type", "\"equipment\""),
            ("category", "\"adventuring-gear\""),
        ],
        rename: &[("name", "query")],
        convert: None,
    },
    Alias {
        legacy: "search_equipment",
        tool: "search_compendium",
        set: &[("type", "\"equipment\"")],
        rename: &[("type", "category"), ("name", "query")],
        convert: None,
    },
    Alias {
        legacy: "search_content",
        tool: "search_compendium",
        set: &[],
        rename: &[("content_type", "type"), ("contentType", "type")],
        convert: None,
    },
    Alias {
        legacy: "get_random_content",
        tool: "search_compendium",
        set: &[("random", "1")],
        rename: &[
            ("content_type", "type"),
            ("contentType", "type"),
            ("count", "random"),
        ],
        convert: Some(inline_filters),
    },
    Alias {
        legacy: "search_monsters",
        tool: "search_compendium",
        set: &[("type", "\"monster\"")],
        rename: &[("name", "query"), ("type", "monsterType")],
        convert: Some(exact_cr),
    },
    get(
        "get_monster_details",
        T_MONSTER,
        &[("monster_name", "name"), ("monsterName", "name")],
    ),
    search("search_conditions", T_CONDITION),
    get(
        "get_condition_details",
        T_CONDITION,
        &[("condition_name", "name"), ("conditionName", "name")],
    ),
    search("search_rules", T_RULE),
    // Magic: cast_spell, scrolls, auras, synthesis.
    Alias {
        legacy: "cast_spell",
        tool: "execute_action",
        set: &[("actionType", "\"cast_spell\"")],
        rename: CAST_ARGS,
        convert: None,
    },
    scroll_alias("use_spell_scroll", scroll_use),
    scroll_alias("get_scroll_use_dc", scroll_check),
    scroll_alias("check_scroll_usability", scroll_check),
    scroll_alias("get_scroll_details", scroll_check),
    scroll_alias("identify_scroll", scroll_check),
    Alias {
        legacy: "scroll_manage",
        tool: "use_scroll",
        set: &[],
        rename: SCROLL_ARGS,
        convert: Some(scroll_action),
    },
    Alias {
        legacy: "create_spell_scroll",
        tool: "manage_inventory",
        set: &[("operation", "\"give\"")],
        rename: &[],
        convert: Some(scroll_item),
    },
    aura_alias("create_aura", "\"create\""),
    aura_alias("get_active_auras", "\"list\""),
    aura_alias("get_auras_affecting_character", "\"list\""),
    aura_alias("expire_auras", "\"list\""),
    aura_alias("process_aura", "\"process\""),
    aura_alias("process_aura_effects", "\"process\""),
    aura_alias("remove_aura", "\"remove\""),
    aura_alias("remove_character_auras", "\"remove\""),
    Alias {
        legacy: "aura_manage",
        tool: "manage_aura",
        set: &[],
        rename: AURA_ARGS,
        convert: Some(aura_action),
    },
    Alias {
        legacy: "attempt_arcane_synthesis",
        tool: "synthesize_spell",
        set: &[("operation", "\"synthesize\"")],
        rename: SYNTH_ARGS,
        convert: None,
    },
    Alias {
        legacy: "get_synthesized_spells",
        tool: "synthesize_spell",
        set: &[("operation", "\"spellbook\"")],
        rename: SYNTH_ARGS,
        convert: None,
    },
    // Combat: attacks and movement (rpg-mcp list C → execute_action).
    routed(
        "resolve_attack",
        "execute_action",
        &[("actionType", "\"attack\"")],
        COMBAT_ACTION,
        Some(legacy_action),
    ),
    routed(
        "execute_multiattack",
        "execute_action",
        &[("actionType", "\"attack\""), ("weapon", "\"Multiattack\"")],
        COMBAT_ACTION,
        Some(legacy_action),
    ),
    routed(
        "execute_combat_action",
        "execute_action",
        &[],
        COMBAT_ACTION,
        Some(legacy_action),
    ),
    routed(
        "combat_action",
        "execute_action",
        &[],
        COMBAT_ACTION,
        Some(legacy_action),
    ),
    routed(
        "move_combatant",
        "execute_action",
        &[("actionType", "\"move\"")],
        COMBAT_ACTION,
        Some(legacy_action),
    ),
    routed(
        "move_creature",
        "execute_action",
        &[("actionType", "\"move\"")],
        COMBAT_ACTION,
        Some(legacy_action),
    ),
    routed(
        "batch_move_creatures",
        "execute_action",
        &[("actionType", "\"move\"")],
        &[("moves", "batch"), ("creatures", "batch")],
        Some(legacy_action_batch),
    ),
    routed(
        "batch_execute_action",
        "execute_action",
        &[],
        &[("actions", "batch")],
        Some(legacy_action_batch),
    ),
    // Encounters (rpg-mcp list C): created, read, joined and advanced.
    routed(
        "setup_tactical_encounter",
        "create_encounter",
        &[],
        &[],
        Some(legacy_encounter),
    ),
    routed(
        "spawn_preset_encounter",
        "create_encounter",
        &[],
        &[],
        Some(legacy_encounter),
    ),
    routed(
        "initialize_battlefield",
        "create_encounter",
        &[],
        &[],
        Some(legacy_encounter),
    ),
    routed(
        "get_encounter_state",
        "get_encounter",
        &[],
        ENCOUNTER_ID,
        None,
    ),
    routed(
        "get_encounter_summary",
        "get_encounter",
        &[("verbosity", "\"summary\"")],
        ENCOUNTER_ID,
        None,
    ),
    routed(
        "get_active_encounter",
        "get_encounter",
        &[],
        ENCOUNTER_ID,
        None,
    ),
    routed("load_encounter", "get_encounter", &[], ENCOUNTER_ID, None),
    routed(
        "get_tactical_summary",
        "get_encounter",
        &[("verbosity", "\"detailed\"")],
        ENCOUNTER_ID,
        None,
    ),
    routed(
        "add_to_encounter",
        "manage_encounter",
        &[],
        ENCOUNTER_ID,
        Some(legacy_add),
    ),
    routed(
        "place_creature",
        "manage_encounter",
        &[],
        ENCOUNTER_ID,
        Some(legacy_add),
    ),
    routed(
        "batch_add_to_encounter",
        "manage_encounter",
        &[],
        ENCOUNTER_ID,
        Some(legacy_batch_add),
    ),
    routed(
        "batch_place_creatures",
        "manage_encounter",
        &[],
        ENCOUNTER_ID,
        Some(legacy_batch_add),
    ),
    routed("next_turn", "advance_turn", &[], ENCOUNTER_ID, None),
    routed("end_turn", "advance_turn", &[], ENCOUNTER_ID, None),
    routed("start_turn", "advance_turn", &[], ENCOUNTER_ID, None),
    // Combat: tactics actions.
    routed(
        "consume_action",
        "execute_action",
        &[],
        COMBAT_RENAME,
        Some(consume_action),
    ),
    routed(
        "use_reaction",
        "execute_action",
        &[("actionType", "\"attack\""), ("actionCost", "\"reaction\"")],
        COMBAT_RENAME,
        Some(combat_action),
    ),
    routed(
        "use_legendary_action",
        "execute_action",
        &[("actionType", "\"legendary_action\"")],
        LEGENDARY_RENAME,
        None,
    ),
    routed(
        "execute_lair_action",
        "execute_action",
        &[("actionType", "\"lair_action\"")],
        LAIR_RENAME,
        None,
    ),
    routed(
        "trigger_lair_action",
        "execute_action",
        &[("actionType", "\"lair_action\"")],
        LAIR_RENAME,
        None,
    ),
    // Spatial and the battle map (rpg-mcp list C); they need an active encounter.
    routed(
        "get_area_effect_targets",
        "calculate_aoe",
        &[],
        &[],
        Some(spatial::legacy_aoe),
    ),
    routed(
        "get_creatures_in_range",
        "calculate_aoe",
        &[],
        &[],
        Some(spatial::legacy_aoe),
    ),
    routed(
        "check_flanking",
        "check_cover",
        &[],
        &[],
        Some(spatial::legacy_endpoints),
    ),
    routed(
        "check_height_advantage",
        "check_cover",
        &[],
        &[],
        Some(spatial::legacy_endpoints),
    ),
    routed(
        "get_adjacent_squares",
        "calculate_movement",
        &[("mode", "\"adjacent\"")],
        &[],
        Some(spatial::legacy_adjacent),
    ),
    routed(
        "update_terrain",
        "modify_terrain",
        &[],
        &[],
        Some(spatial::legacy_terrain),
    ),
    routed(
        "generate_terrain_patch",
        "modify_terrain",
        &[],
        &[],
        Some(spatial::legacy_terrain),
    ),
    routed(
        "generate_terrain_pattern",
        "modify_terrain",
        &[],
        &[],
        Some(spatial::legacy_terrain),
    ),
    routed(
        "render_map",
        "render_battlefield",
        &[],
        &[],
        Some(spatial::legacy_render),
    ),
    routed(
        "generate_battlefield_map",
        "render_battlefield",
        &[],
        &[],
        Some(spatial::legacy_render),
    ),
    routed(
        "describe_battlefield",
        "render_battlefield",
        &[("legendDetail", "\"full\"")],
        &[],
        Some(spatial::legacy_render),
    ),
];

/// Legacy snake_case combat arguments.
const COMBAT_RENAME: &[(&str, &str)] = &[
    ("encounter_id", "encounterId"),
    ("actor_id", "actorId"),
    ("actor_name", "actorName"),
    ("target_id", "targetId"),
    ("target_name", "targetName"),
    ("action_type", "actionType"),
];
const LEGENDARY_RENAME: &[(&str, &str)] = &[
    ("encounter_id", "encounterId"),
    ("actor_id", "actorId"),
    ("actor_name", "actorName"),
    ("target_id", "targetId"),
    ("target_name", "targetName"),
    ("action", "abilityName"),
    ("actionName", "abilityName"),
    ("legendaryAction", "abilityName"),
];

const LAIR_RENAME: &[(&str, &str)] = &[
    ("encounter_id", "encounterId"),
    ("actor_id", "actorId"),
    ("actor_name", "actorName"),
    ("effect", "description"),
    ("action", "description"),
];

/// Legacy `combat_action {action}` (and `use_reaction {reaction}`) → `actionType`.
fn combat_action(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    if let Some(a) = args.remove("action").or_else(|| args.remove("reaction")) {
        let key = a.as_str().unwrap_or_default().trim().to_lowercase();
        let t = match key.as_str() {
            "use_item" | "item" => "use_magic_item",
            "special" | "ability" => "use_special_ability",
            "lair" => "lair_action",
            "legendary" => "legendary_action",
            "opportunity_attack" => "attack",
            other => other,
        };
        args.insert("actionType".into(), Value::String(t.into()));
    }
    Ok(())
}

/// Legacy `consume_action {actionType: action|bonus|reaction}` spends that part of the turn.
fn consume_action(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    let spent = args
        .remove("actionType")
        .or_else(|| args.remove("type"))
        .and_then(|v| v.as_str().map(str::to_lowercase))
        .unwrap_or_else(|| "action".into());
    let cost = match spent.as_str() {
        "action" => "action",
        "bonus" | "bonus_action" | "bonusaction" => "bonus_action",
        "reaction" => "reaction",
        other => {
            return Err(ToolError(format!(
                "consume_action spends action, bonus_action or reaction, not '{other}'; use execute_action"
            )));
        }
    };
    args.insert("actionType".into(), Value::String("use_object".into()));
    args.insert("actionCost".into(), Value::String(cost.into()));
    args.entry("description").or_insert_with(|| {
        Value::String(format!(
            "spends its {} (consume_action)",
            cost.replace('_', " ")
        ))
    });
    Ok(())
}

const ENCOUNTER_ID: &[(&str, &str)] = &[("id", "encounterId"), ("encounter_id", "encounterId")];

/// A legacy participant `{id, name, hp, maxHp, initiativeBonus, isEnemy, conditions, position,
/// resistances…}` (no AC) → an inline stat block of ours (AC 10 when none was given, DEX from
/// the initiative bonus); an existing character by `characterId`/`characterName` passes through.
fn legacy_participant(v: &mut Value) -> Result<(), ToolError> {
    let Value::Object(p) = v else {
        return Err(ToolError(
            "each participant is an object {name, hp, ...}".into(),
        ));
    };
    if p.contains_key("characterId") || p.contains_key("characterName") || p.contains_key("monster")
    {
        return Ok(());
    }
    p.remove("id");
    p.remove("conditions");
    if let Some(max) = p.remove("maxHp") {
        p.insert("hp".into(), max);
    }
    if let Some(b) = p.remove("initiativeBonus") {
        let bonus = b.as_i64().unwrap_or(0).clamp(-5, 10);
        let stats = p
            .entry("stats")
            .or_insert_with(|| Value::Object(Map::new()));
        if let Value::Object(st) = stats {
            st.entry("dex").or_insert(Value::from(10 + 2 * bonus));
        }
    }
    match p.remove("isEnemy") {
        Some(Value::Bool(true)) => {
            p.entry("side").or_insert(Value::String("enemy".into()));
        }
        Some(Value::Bool(false)) => {
            p.entry("side").or_insert(Value::String("ally".into()));
        }
        _ => {}
    }
    for (from, to) in [
        ("resist", "resistances"),
        ("vuln", "vulnerabilities"),
        ("immun", "immunities"),
    ] {
        if let Some(x) = p.remove(from) {
            p.entry(to).or_insert(x);
        }
    }
    if p.contains_key("hp") {
        p.entry("ac").or_insert(Value::from(10));
    }
    Ok(())
}

/// Legacy square lists: `"x,y"` strings or `[x, y]` pairs → `{x, y}`.
fn legacy_squares(v: &mut Value) {
    if let Value::Array(items) = v {
        for it in items.iter_mut() {
            let xy: Option<(i64, i64)> = match it {
                Value::String(s) => s
                    .split_once(',')
                    .and_then(|(a, b)| Some((a.trim().parse().ok()?, b.trim().parse().ok()?))),
                Value::Array(a) if a.len() == 2 => a[0].as_i64().zip(a[1].as_i64()),
                _ => None,
            };
            if let Some((x, y)) = xy {
                *it = serde_json::json!({"x": x, "y": y});
            }
        }
    }
}

/// Legacy `create_encounter` shapes: `seed` (the campaign's dice stream is used instead),
/// participants without AC, terrain without width/height and with square strings.
fn legacy_encounter(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    args.remove("seed");
    args.remove("action");
    if let Some(Value::Array(ps)) = args.get_mut("participants") {
        for p in ps.iter_mut() {
            legacy_participant(p)?;
        }
    }
    if let Some(Value::Object(t)) = args.get_mut("terrain") {
        if let Some(d) = t.remove("difficultTerrain") {
            t.entry("difficult").or_insert(d);
        }
        for key in ["walls", "obstacles", "lowWalls", "difficult", "water"] {
            if let Some(v) = t.get_mut(key) {
                legacy_squares(v);
            }
        }
    }
    Ok(())
}

/// Legacy `add_to_encounter {encounterId, participant | name, hp, …}` and `place_creature
/// {characterId, x, y}` → `manage_encounter add_participant`.
fn legacy_add(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    args.remove("action");
    let encounter = args.remove("encounterId");
    let mut p = match args
        .remove("participant")
        .or_else(|| args.remove("creature"))
    {
        Some(p) => p,
        None => Value::Object(std::mem::take(args)),
    };
    if let Value::Object(m) = &mut p {
        if let (Some(x), Some(y)) = (m.remove("x"), m.remove("y")) {
            m.entry("position")
                .or_insert(serde_json::json!({"x": x, "y": y}));
        }
        if let Some(id) = m.remove("creatureId") {
            m.entry("characterId").or_insert(id);
        }
    }
    legacy_participant(&mut p)?;
    args.clear();
    args.insert("operation".into(), Value::String("add_participant".into()));
    args.insert("participant".into(), p);
    if let Some(e) = encounter {
        args.insert("encounterId".into(), e);
    }
    Ok(())
}

/// Legacy batch adds `{encounterId, participants|creatures: [...]}` → a batch of add_participant.
fn legacy_batch_add(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    let encounter = args.remove("encounterId");
    let Some(Value::Array(items)) = args
        .remove("participants")
        .or_else(|| args.remove("creatures"))
    else {
        return Err(ToolError(
            "participants must be an array of creatures".into(),
        ));
    };
    let mut batch = Vec::new();
    for it in items {
        let Value::Object(mut m) = it else {
            return Err(ToolError("each participant is an object".into()));
        };
        if let Some(e) = &encounter {
            m.insert("encounterId".into(), e.clone());
        }
        legacy_add(&mut m)?;
        batch.push(Value::Object(m));
    }
    args.clear();
    args.insert("batch".into(), Value::Array(batch));
    Ok(())
}

/// Drops the `action` a switched composite was picked by.
fn drop_switch_key(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    args.remove("action");
    Ok(())
}

/// A legacy composite whose `action` picks the tool it routes to.
pub struct Switch {
    /// The legacy name.
    pub legacy: &'static str,
    /// One alias per `action` value.
    pub routes: &'static [(&'static str, Alias)],
}

/// Legacy composites that route to several tools.
pub static SWITCHES: &[Switch] = &[
    Switch {
        legacy: "combat_manage",
        routes: &[
            (
                "create",
                routed(
                    "combat_manage",
                    "create_encounter",
                    &[],
                    &[],
                    Some(legacy_encounter),
                ),
            ),
            (
                "get",
                routed(
                    "combat_manage",
                    "get_encounter",
                    &[],
                    ENCOUNTER_ID,
                    Some(drop_switch_key),
                ),
            ),
            (
                "load",
                routed(
                    "combat_manage",
                    "get_encounter",
                    &[],
                    ENCOUNTER_ID,
                    Some(drop_switch_key),
                ),
            ),
            (
                "get_history",
                routed(
                    "combat_manage",
                    "get_encounter",
                    &[("verbosity", "\"detailed\"")],
                    ENCOUNTER_ID,
                    Some(drop_switch_key),
                ),
            ),
            (
                "advance",
                routed(
                    "combat_manage",
                    "advance_turn",
                    &[],
                    ENCOUNTER_ID,
                    Some(drop_switch_key),
                ),
            ),
            (
                "death_save",
                routed(
                    "combat_manage",
                    "roll_death_save",
                    &[],
                    CHARACTER_ID,
                    Some(drop_switch_key),
                ),
            ),
            (
                "end",
                routed(
                    "combat_manage",
                    "end_encounter",
                    &[],
                    ENCOUNTER_ID,
                    Some(drop_switch_key),
                ),
            ),
            (
                "spawn_quick_enemy",
                routed(
                    "combat_manage",
                    "manage_encounter",
                    &[],
                    ENCOUNTER_ID,
                    Some(legacy_add),
                ),
            ),
        ],
    },
    Switch {
        legacy: "combat_map",
        routes: &[
            (
                "measure",
                routed(
                    "combat_map",
                    "measure_distance",
                    &[],
                    &[],
                    Some(spatial::legacy_endpoints),
                ),
            ),
            (
                "aoe",
                routed(
                    "combat_map",
                    "calculate_aoe",
                    &[],
                    &[],
                    Some(spatial::legacy_aoe),
                ),
            ),
            (
                "render",
                routed(
                    "combat_map",
                    "render_battlefield",
                    &[],
                    &[],
                    Some(spatial::legacy_render),
                ),
            ),
            (
                "update_terrain",
                routed(
                    "combat_map",
                    "modify_terrain",
                    &[],
                    &[],
                    Some(spatial::legacy_terrain),
                ),
            ),
            (
                "place_prop",
                routed(
                    "combat_map",
                    "place_prop",
                    &[],
                    &[],
                    Some(spatial::legacy_prop),
                ),
            ),
            (
                "generate_patch",
                routed(
                    "combat_map",
                    "modify_terrain",
                    &[],
                    &[],
                    Some(spatial::legacy_terrain),
                ),
            ),
            (
                "generate_pattern",
                routed(
                    "combat_map",
                    "modify_terrain",
                    &[],
                    &[],
                    Some(spatial::legacy_terrain),
                ),
            ),
        ],
    },
];

/// The alias a call of `name` with `args` routes through: a plain alias, or for a switched
/// composite the route its `action` picks (an unknown action is an error listing the known ones).
pub fn find_for(name: &str, args: &Value) -> Result<Option<&'static Alias>, ToolError> {
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

const CAST_ARGS: &[(&str, &str)] = &[
    ("casterId", "actorId"),
    ("casterName", "actorName"),
    ("characterId", "actorId"),
    ("characterName", "actorName"),
    ("spellName", "spell"),
    ("spell_name", "spell"),
    ("level", "slotLevel"),
    ("castAtLevel", "slotLevel"),
];

const SCROLL_ARGS: &[(&str, &str)] = &[
    ("id", "characterId"),
    ("character_id", "characterId"),
    ("casterId", "characterId"),
    ("casterName", "characterName"),
    ("scrollId", "itemId"),
    ("scrollName", "itemName"),
    ("spellName", "spell"),
    ("spell_name", "spell"),
];

const AURA_ARGS: &[(&str, &str)] = &[
    ("id", "auraId"),
    ("aura_id", "auraId"),
    ("sourceId", "characterId"),
    ("ownerId", "characterId"),
    ("targetId", "characterId"),
    ("targetName", "characterName"),
    ("radiusFt", "radius"),
    ("duration", "rounds"),
    ("spellName", "spell"),
];

const SYNTH_ARGS: &[(&str, &str)] = &[
    ("casterId", "characterId"),
    ("casterName", "characterName"),
    ("spellName", "name"),
    ("spellLevel", "level"),
    ("damageDice", "dice"),
    ("effect", "effectType"),
];

const fn scroll_alias(legacy: &'static str, convert: Converter) -> Alias {
    Alias {
        legacy,
        tool: "use_scroll",
        set: &[],
        rename: SCROLL_ARGS,
        convert: Some(convert),
    }
}

fn scroll_use(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    args.entry("operation")
        .or_insert(Value::String("use".into()));
    Ok(())
}

fn scroll_check(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    args.entry("operation")
        .or_insert(Value::String("check".into()));
    Ok(())
}

/// `scroll_manage {action: use|get_dc|check|details|identify}` → use or check.
fn scroll_action(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    let op = match args.remove("action").as_ref().and_then(Value::as_str) {
        Some("use" | "cast" | "read") | None => "use",
        Some(_) => "check",
    };
    args.entry("operation").or_insert(Value::String(op.into()));
    Ok(())
}

/// `create_spell_scroll {characterId|characterName, spellName}` → give "Spell Scroll (Spell)".
fn scroll_item(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    for (from, to) in [("id", "characterId"), ("character_id", "characterId")] {
        if let Some(v) = args.remove(from) {
            args.entry(to).or_insert(v);
        }
    }
    let spell = args
        .remove("spellName")
        .or_else(|| args.remove("spell"))
        .or_else(|| args.remove("spell_name"));
    let Some(Value::String(spell)) = spell else {
        return Err(ToolError(
            "create_spell_scroll needs spellName; the scroll is given with manage_inventory".into(),
        ));
    };
    args.remove("spellLevel");
    let mut item = Map::new();
    item.insert(
        "name".into(),
        Value::String(format!("Spell Scroll ({spell})")),
    );
    args.insert("item".into(), Value::Object(item));
    Ok(())
}

const fn aura_alias(legacy: &'static str, op: &'static str) -> Alias {
    Alias {
        legacy,
        tool: "manage_aura",
        set: match op.as_bytes()[1] {
            b'c' => &[("operation", "\"create\"")],
            b'l' => &[("operation", "\"list\"")],
            b'p' => &[("operation", "\"process\"")],
            _ => &[("operation", "\"remove\"")],
        },
        rename: AURA_ARGS,
        convert: None,
    }
}

/// `aura_manage {action: create|list|get|process|remove|expire}` → operation.
fn aura_action(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    let op = match args.remove("action").as_ref().and_then(Value::as_str) {
        Some("create" | "add") => "create",
        Some("process" | "apply" | "tick") => "process",
        Some("remove" | "delete" | "remove_all") => "remove",
        _ => "list",
    };
    args.entry("operation").or_insert(Value::String(op.into()));
    Ok(())
}

/// Legacy names of execute_action's fields.
const COMBAT_ACTION: &[(&str, &str)] = &[
    ("attackerId", "actorId"),
    ("attackerName", "actorName"),
    ("combatantId", "actorId"),
    ("creatureId", "actorId"),
    ("participantId", "actorId"),
    ("characterId", "actorId"),
    ("defenderId", "targetId"),
    ("weaponName", "weapon"),
    ("position", "to"),
    ("targetPosition", "to"),
    ("destination", "to"),
];

/// Legacy combat actions: `action` names the action type, amounts were numbers, and the
/// caller's own to-hit and DC are not used (the engine takes them from the sheets).
fn legacy_action(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    if let Some(a) = args.remove("action") {
        let name = a.as_str().unwrap_or_default().to_ascii_lowercase();
        let t = match name.as_str() {
            "cast" | "spell" => "cast_spell",
            "use_item" | "item" => "use_magic_item",
            "special" | "ability" => "use_special_ability",
            "lair" => "lair_action",
            "legendary" => "legendary_action",
            "opportunity_attack" => "attack",
            "multiattack" => {
                args.entry("weapon")
                    .or_insert_with(|| Value::String("Multiattack".into()));
                "attack"
            }
            other => other,
        };
        args.entry("actionType")
            .or_insert_with(|| Value::String(t.to_string()));
    }
    if let Some(n) = args.get("amount").and_then(Value::as_i64) {
        args.insert("amount".into(), Value::String(n.to_string()));
    }
    for legacy_only in ["attackBonus", "dc", "seed"] {
        args.remove(legacy_only);
    }
    Ok(())
}

/// Legacy batches of combat actions: each item gets the same treatment as one call.
fn legacy_action_batch(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    let Some(Value::Array(items)) = args.get_mut("batch") else {
        return legacy_action(args);
    };
    for item in items.iter_mut() {
        if let Value::Object(m) = item {
            for (from, to) in COMBAT_ACTION {
                if let Some(v) = m.remove(*from) {
                    m.entry(*to).or_insert(v);
                }
            }
            legacy_action(m)?;
        }
    }
    Ok(())
}

const CONCENTRATION_ARGS: &[(&str, &str)] = &[
    ("id", "characterId"),
    ("character_id", "characterId"),
    ("damage", "damageAmount"),
    ("spell", "spellName"),
];

const REST_ARGS: &[(&str, &str)] = &[
    ("id", "characterId"),
    ("character_id", "characterId"),
    ("restType", "type"),
    ("hitDiceToSpend", "hitDice"),
];

const SLOT_ARGS: &[(&str, &str)] = &[
    ("id", "characterId"),
    ("character_id", "characterId"),
    ("slotLevel", "level"),
    ("spellLevel", "level"),
];

const EFFECT_ARGS: &[(&str, &str)] = &[
    ("id", "characterId"),
    ("character_id", "characterId"),
    ("targetId", "characterId"),
    ("targetName", "characterName"),
    ("effectName", "name"),
    ("effectId", "name"),
];

/// Legacy `*_manage` tools took `action`; here it names the operation.
fn action_is_operation(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    if let Some(a) = args.remove("action") {
        args.entry("operation").or_insert(a);
    }
    Ok(())
}

/// `rest_manage {action: short|long}` → `type`.
fn action_is_rest_type(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    if let Some(a) = args.remove("action") {
        args.entry("type").or_insert(a);
    }
    Ok(())
}

/// `improvisation_manage {action: apply_effect|get_effects|remove_effect|advance_durations|process_triggers}`.
fn improvisation_effect(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    let op = match args.remove("action").as_ref().and_then(Value::as_str) {
        Some("apply_effect") => "add",
        Some("get_effects") => "list",
        Some("remove_effect") => "remove",
        Some("advance_durations" | "process_triggers") => "tick",
        other => {
            return Err(ToolError(format!(
                "improvisation_manage action {} is not routed; effects live in manage_effect (add, list, remove, tick), stunts in roll_check, synthesize and get_spellbook in synthesize_spell",
                other.unwrap_or("(none)")
            )));
        }
    };
    args.insert("operation".into(), Value::String(op.into()));
    Ok(())
}

/// `rest_party {characterIds|characterNames, restType}` → a batch of rests, one per member.
fn party_rest(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    let kind = args
        .remove("restType")
        .or_else(|| args.remove("type"))
        .unwrap_or_else(|| Value::String("long".into()));
    let mut items = Vec::new();
    for (field, key) in [
        ("characterIds", "characterId"),
        ("characterNames", "characterName"),
    ] {
        if let Some(Value::Array(list)) = args.remove(field) {
            for v in list {
                let mut item = Map::new();
                item.insert(key.into(), v);
                item.insert("type".into(), kind.clone());
                items.push(Value::Object(item));
            }
        }
    }
    if items.is_empty() {
        return Err(ToolError(
            "rest_party needs characterIds or characterNames (parties arrive with manage_party); or call take_rest with batch".into(),
        ));
    }
    args.clear();
    args.insert("batch".into(), Value::Array(items));
    Ok(())
}

/// Item fields of a legacy item definition given at the top level.
const ITEM_FIELDS: &[&str] = &[
    "description",
    "type",
    "rarity",
    "requiresAttunement",
    "weaponStats",
    "armorStats",
    "mechanicalEffects",
    "value",
    "weight",
    "stackable",
    "heal",
    "effect",
];

/// Legacy item arguments: `name` (with top-level definition fields) → `item`, a string `item`
/// → `itemName` (an SRD item), `id`/`fromCharacter*` → the character fields.
fn legacy_item(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    let give = args
        .get("operation")
        .and_then(Value::as_str)
        .is_none_or(|o| o == "give");
    legacy_fields(args, give)
}

/// [`legacy_item`] for a give.
fn legacy_give(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    legacy_fields(args, true)
}

/// [`legacy_item`] for an operation on a carried item: `name` names it.
fn legacy_ref(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    legacy_fields(args, false)
}

fn legacy_fields(args: &mut Map<String, Value>, give: bool) -> Result<(), ToolError> {
    if let Some(Value::String(n)) = args.get("item").cloned() {
        args.remove("item");
        args.entry("itemName").or_insert(Value::String(n));
    }
    if let Some(name) = args.remove("name") {
        let mut item = Map::new();
        item.insert("name".into(), name);
        for f in ITEM_FIELDS {
            if let Some(v) = args.remove(*f) {
                item.insert((*f).to_string(), v);
            }
        }
        if give {
            args.entry("item").or_insert(Value::Object(item));
        } else if let Some(n) = item.remove("name") {
            args.entry("itemName").or_insert(n);
        }
    }
    Ok(())
}

/// Legacy `action` → `operation` (inventory_manage, item_manage).
fn inventory_action(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    if let Some(Value::String(a)) = args.remove("action") {
        let op = match a.as_str() {
            "give" | "add" | "create" => "give",
            "remove" | "delete" | "drop" => "remove",
            "equip" => "equip",
            "unequip" => "unequip",
            "get" | "list" | "view" | "get_detailed" => "view",
            "transfer" => "transfer",
            "use" => "use",
            other => {
                return Err(ToolError(format!(
                    "inventory action '{other}' is not supported; manage_inventory operations: give, remove, equip, unequip, attune, unattune, view, transfer, use"
                )));
            }
        };
        args.entry("operation")
            .or_insert(Value::String(op.to_string()));
    }
    legacy_item(args)
}

/// Legacy loot distribution `{distributions: [{characterName, item…}]}` → a batch of gives.
fn distribute(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    let Some(list) = args
        .remove("distributions")
        .or_else(|| args.remove("items"))
        .or_else(|| args.remove("batch"))
    else {
        return Err(ToolError(
            "batch_distribute_items needs distributions: [{characterName, item or itemName, quantity}]"
                .into(),
        ));
    };
    let Value::Array(items) = list else {
        return Err(ToolError("distributions must be an array".into()));
    };
    let mut batch = Vec::with_capacity(items.len());
    for item in items {
        let Value::Object(mut m) = item else {
            return Err(ToolError("each distribution is an object".into()));
        };
        for (from, to) in CHARACTER_ID {
            if let Some(v) = m.remove(*from) {
                m.entry(*to).or_insert(v);
            }
        }
        legacy_item(&mut m)?;
        m.entry("operation").or_insert(Value::String("give".into()));
        batch.push(Value::Object(m));
    }
    args.insert("batch".into(), Value::Array(batch));
    Ok(())
}

const INVENTORY_RENAME: &[(&str, &str)] = &[
    ("id", "characterId"),
    ("character_id", "characterId"),
    ("fromCharacterId", "characterId"),
    ("fromCharacterName", "characterName"),
    ("targetCharacterId", "targetId"),
    ("targetCharacterName", "targetName"),
];

const fn inventory_alias(
    legacy: &'static str,
    op: &'static [(&'static str, &'static str)],
    convert: Converter,
) -> Alias {
    Alias {
        legacy,
        tool: "manage_inventory",
        set: op,
        rename: INVENTORY_RENAME,
        convert: Some(convert),
    }
}

const SPELL_NAME: &[(&str, &str)] = &[
    ("spell_name", "name"),
    ("spellName", "name"),
    ("spell", "name"),
];
const CLASS_NAME: &[(&str, &str)] = &[("class_name", "name"), ("className", "name")];

/// A legacy `search_*` name: search_compendium with `type` filled in (`name` read as `query`).
const fn search(legacy: &'static str, set: &'static [(&'static str, &'static str)]) -> Alias {
    Alias {
        legacy,
        tool: "search_compendium",
        set,
        rename: &[("name", "query"), ("search", "query")],
        convert: None,
    }
}

const T_SPELL: &[(&str, &str)] = &[("type", "\"spell\"")];
const T_RACE: &[(&str, &str)] = &[("type", "\"race\"")];
const T_CLASS: &[(&str, &str)] = &[("type", "\"class\"")];
const T_BACKGROUND: &[(&str, &str)] = &[("type", "\"background\"")];
const T_FEAT: &[(&str, &str)] = &[("type", "\"feat\"")];
const T_MONSTER: &[(&str, &str)] = &[("type", "\"monster\"")];
const T_CONDITION: &[(&str, &str)] = &[("type", "\"condition\"")];
const T_RULE: &[(&str, &str)] = &[("type", "\"rule\"")];

/// Legacy `get_*_details` names: get_compendium_entry with `type` filled in and the legacy
/// name argument mapped to `name`.
const fn get(
    legacy: &'static str,
    set: &'static [(&'static str, &'static str)],
    rename: &'static [(&'static str, &'static str)],
) -> Alias {
    Alias {
        legacy,
        tool: "get_compendium_entry",
        set,
        rename,
        convert: None,
    }
}

/// Legacy categories (`Martial Weapons`, `light-armor`) → the filter values (`martial`, `light`).
fn category_words(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    for field in ["weaponCategory", "armorCategory"] {
        if let Some(Value::String(c)) = args.get_mut(field) {
            let k = c.trim().to_lowercase().replace(['-', ' '], "_");
            *c = ["_weapons", "_weapon", "_armor"]
                .iter()
                .find_map(|suffix| k.strip_suffix(suffix))
                .unwrap_or(&k)
                .to_string();
        }
    }
    Ok(())
}

/// Legacy `filters: {…}` → the filters beside the other arguments.
fn inline_filters(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    match args.remove("filters") {
        None | Some(Value::Null) => Ok(()),
        Some(Value::Object(f)) => {
            for (k, v) in f {
                args.entry(k).or_insert(v);
            }
            Ok(())
        }
        Some(other) => Err(ToolError(format!(
            "filters must be an object of search_compendium filters (e.g. {{\"level\": 3}}), got {other}"
        ))),
    }
}

/// Legacy `cr` / `challenge_rating` (one value) → `crMin` = `crMax`.
fn exact_cr(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    if let Some(v) = args
        .remove("cr")
        .or_else(|| args.remove("challenge_rating"))
    {
        args.entry("crMin").or_insert(v.clone());
        args.entry("crMax").or_insert(v);
    }
    Ok(())
}

/// Legacy composite tools took `action`; the routed tool has one operation.
fn drop_action(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    match args.remove("action") {
        None => Ok(()),
        Some(Value::String(a)) if a == "roll" => Ok(()),
        Some(other) => Err(ToolError(format!(
            "math_manage action {other} is not supported; only 'roll' survives, as roll_dice (probability and algebra tools were retired)"
        ))),
    }
}

/// Systems that were retired, and where their function went.
pub static RETIRED: &[Retired] = &[
    Retired {
        names: &[NameMatch::Contains("quest")],
        what: "quest tracking",
        instead: "manage_notes: add a note of type plot_thread (tags for the quest giver, importance for urgency) and search or update it as it advances",
    },
    Retired {
        names: &[
            NameMatch::Contains("secret"),
            NameMatch::Exact("check_for_leaks"),
        ],
        what: "secret tracking",
        instead: "manage_notes with visibility dm (the default): DM-only notes never need to be shared",
    },
    Retired {
        names: &[
            NameMatch::Prefix("generate_world"),
            NameMatch::Prefix("get_world_"),
            NameMatch::Contains("_poi"),
            NameMatch::Exact("world_manage"),
            NameMatch::Exact("world_map"),
            NameMatch::Contains("map_patch"),
        ],
        what: "world generation",
        instead: "manage_location (a graph of places linked by doors, passages, stairs…) and move_party to travel it",
    },
    Retired {
        names: &[
            NameMatch::Contains("probability"),
            NameMatch::Prefix("algebra_"),
            NameMatch::Prefix("physics_"),
        ],
        what: "math utilities",
        instead: "roll_dice, which rolls any dice expression",
    },
    Retired {
        names: &[
            NameMatch::Contains("npc_relationship"),
            NameMatch::Contains("conversation"),
            NameMatch::Exact("get_recent_interactions"),
            NameMatch::Exact("get_npc_context"),
            NameMatch::Exact("interact_socially"),
            NameMatch::Exact("npc_manage"),
        ],
        what: "NPC memory",
        instead: "get_character for the NPC's sheet and notes, and roll_check for social checks",
    },
    Retired {
        names: &[
            NameMatch::Contains("corpse"),
            NameMatch::Contains("loot_table"),
            NameMatch::Exact("generate_loot"),
        ],
        what: "corpse and loot tables",
        instead: "roll_dice on your own tables",
    },
    Retired {
        names: &[
            NameMatch::Contains("nation"),
            NameMatch::Exact("propose_alliance"),
            NameMatch::Exact("claim_region"),
            NameMatch::Exact("resolve_turn"),
            NameMatch::Exact("strategy_manage"),
        ],
        what: "grand strategy",
        instead: "roll_check for contested outcomes",
    },
    Retired {
        names: &[
            NameMatch::Exact("init_turn_state"),
            NameMatch::Exact("get_turn_status"),
            NameMatch::Exact("submit_turn_actions"),
            NameMatch::Exact("mark_ready"),
            NameMatch::Exact("poll_turn_results"),
            NameMatch::Exact("turn_manage"),
        ],
        what: "multiplayer turn submission",
        instead: "roll_check with checkType initiative; combat turns arrive with the combat tools",
    },
    Retired {
        names: &[
            NameMatch::Exact("execute_workflow"),
            NameMatch::Exact("list_templates"),
            NameMatch::Exact("get_template"),
            NameMatch::Exact("trace_tools"),
            NameMatch::Exact("trace_dependencies"),
            NameMatch::Exact("search_tools"),
            NameMatch::Exact("load_tool_schema"),
        ],
        what: "workflow and tool-registry meta tools",
        instead: "tools/list (every tool is listed with its schema) and batch on the tools that take one",
    },
    Retired {
        names: &[
            NameMatch::Exact("subscribe_to_events"),
            NameMatch::Exact("poll_events"),
            NameMatch::Exact("push_event"),
            NameMatch::Exact("get_event_history"),
            NameMatch::Exact("get_pending_event_count"),
        ],
        what: "event subscriptions",
        instead: "the campaign event log (tabletop campaign export) records every change",
    },
    Retired {
        names: &[
            NameMatch::Contains("steal"),
            NameMatch::Contains("fence"),
            NameMatch::Contains("heat"),
            NameMatch::Exact("theft_manage"),
        ],
        what: "theft and heat",
        instead: "roll_check (Sleight of Hand, Stealth) and update_character",
    },
    Retired {
        names: &[
            NameMatch::Contains("stronghold"),
            NameMatch::Contains("facility"),
            NameMatch::Contains("hireling"),
            NameMatch::Contains("business"),
            NameMatch::Exact("process_weekly_income"),
        ],
        what: "strongholds, hirelings and businesses",
        instead: "create_character for hirelings (characterType npc)",
    },
    Retired {
        names: &[
            NameMatch::Exact("add_spell"),
            NameMatch::Exact("remove_spell"),
            NameMatch::Exact("get_character_spells"),
            NameMatch::Exact("update_spell_status"),
        ],
        what: "per-spell list editing",
        instead: "update_character with spells (the whole list) and get_character to read it",
    },
    Retired {
        names: &[
            NameMatch::Exact("get_combat_log"),
            NameMatch::Exact("clear_combat_log"),
            NameMatch::Exact("agent_manage"),
            NameMatch::Exact("perception_manage"),
            NameMatch::Exact("scene_manage"),
            NameMatch::Exact("spawn_populated_location"),
            NameMatch::Exact("spawn_preset_location"),
        ],
        what: "that legacy system",
        instead: "the tools in tools/list; the event log keeps the history",
    },
];

/// The alias for `name`, if any.
pub fn find(name: &str) -> Option<&'static Alias> {
    ALIASES.iter().find(|a| a.legacy == name)
}

/// The retired family `name` belongs to, if any.
pub fn retired(name: &str) -> Option<&'static Retired> {
    RETIRED
        .iter()
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
        if let Some(v) = map.remove(*from) {
            map.entry(*to).or_insert(v);
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
                    fill(alias, m)?;
                }
            }
        }
        _ => fill(alias, &mut map)?,
    }
    Ok(Value::Object(map))
}

fn fill(alias: &Alias, map: &mut Map<String, Value>) -> Result<(), ToolError> {
    for (key, literal) in alias.set {
        if !map.contains_key(*key) {
            let v: Value = serde_json::from_str(literal).map_err(|e| {
                ToolError(format!(
                    "internal: alias {} has a bad default for {key}: {e}",
                    alias.legacy
                ))
            })?;
            map.insert((*key).to_string(), v);
        }
    }
    Ok(())
}

#[cfg(test)]
mod compat_tests;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog;

    #[test]
    fn every_alias_routes_to_an_advertised_tool_and_no_alias_shadows_one() {
        let mut seen = HashSet::new();
        for a in ALIASES {
            assert!(
                catalog::find(a.tool).is_some(),
                "{} routes to missing {}",
                a.legacy,
                a.tool
            );
            assert!(
                catalog::find(a.legacy).is_none(),
                "{} is advertised",
                a.legacy
            );
            assert!(seen.insert(a.legacy), "{} listed twice", a.legacy);
            for (_, lit) in a.set {
                assert!(
                    serde_json::from_str::<Value>(lit).is_ok(),
                    "{}: bad literal {lit}",
                    a.legacy
                );
            }
        }
    }

    #[test]
    fn switched_composites_route_to_advertised_tools() {
        for sw in SWITCHES {
            assert!(find(sw.legacy).is_none() && catalog::find(sw.legacy).is_none());
            for (_, a) in sw.routes {
                assert!(
                    catalog::find(a.tool).is_some(),
                    "{} routes to missing {}",
                    sw.legacy,
                    a.tool
                );
            }
        }
        let a = find_for("combat_manage", &serde_json::json!({"action": "advance"}))
            .unwrap()
            .unwrap();
        let v = route(a, &serde_json::json!({"action": "advance", "id": "enc1"})).unwrap();
        assert_eq!(
            (a.tool, v),
            ("advance_turn", serde_json::json!({"encounterId": "enc1"}))
        );
        assert!(find_for("combat_manage", &serde_json::json!({"action": "fly"})).is_err());
        let a = find("setup_tactical_encounter").unwrap();
        let v = route(a, &serde_json::json!({"seed": "x", "participants": [
            {"id": "g", "name": "Gob", "hp": 5, "maxHp": 7, "initiativeBonus": 2, "isEnemy": true}
        ]})).unwrap();
        assert_eq!(
            v,
            serde_json::json!({"participants": [
                {"name": "Gob", "hp": 7, "ac": 10, "stats": {"dex": 14}, "side": "enemy"}
            ]})
        );
    }

    #[test]
    fn composites_route_each_action_to_an_advertised_tool() {
        for c in SWITCHES {
            assert!(catalog::find(c.legacy).is_none() && find(c.legacy).is_none());
            for (action, a) in c.routes {
                assert!(catalog::find(a.tool).is_some(), "{}/{action}", c.legacy);
            }
        }
        let args = serde_json::json!({"action": "aoe", "shape": "circle", "radius": 4});
        let a = find_for("combat_map", &args).unwrap().unwrap();
        assert_eq!(a.tool, "calculate_aoe");
        let v = route(a, &args).unwrap();
        assert_eq!(v["shape"], "sphere");
        assert_eq!(v["sizeFt"], 20, "legacy radius is in squares");
        assert!(find_for("combat_map", &serde_json::json!({})).is_err());
    }

    #[test]
    fn retired_names_do_not_collide_with_aliases_or_tools() {
        for a in ALIASES {
            assert!(
                retired(a.legacy).is_none(),
                "{} is both routed and retired",
                a.legacy
            );
        }
        for t in catalog::CATALOG.iter() {
            assert!(
                retired(t.name).is_none(),
                "{} is both advertised and retired",
                t.name
            );
        }
        assert!(retired("add_quest").is_some());
        assert!(retired("probability_calculate").is_some());
    }

    #[test]
    fn routing_fills_renames_and_converts() {
        let a = find("apply_damage").unwrap();
        let v = route(
            a,
            &serde_json::json!({"id": "ch1", "amount": 7, "damageType": "fire"}),
        )
        .unwrap();
        assert_eq!(
            v,
            serde_json::json!({"characterId": "ch1", "damage": [{"amount": 7, "type": "fire"}]})
        );
        let a = find("roll_saving_throw").unwrap();
        let v = route(
            a,
            &serde_json::json!({"characterName": "X", "ability": "dex", "checkType": "ability"}),
        )
        .unwrap();
        assert_eq!(v["checkType"], "ability", "a caller's own value wins");
    }
}
