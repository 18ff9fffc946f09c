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

/// Every alias. Tests call each one.
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
];

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
        instead: "manage_notes (type plot thread) once it lands; until then keep quests in character notes via update_character",
    },
    Retired {
        names: &[
            NameMatch::Contains("secret"),
            NameMatch::Exact("check_for_leaks"),
        ],
        what: "secret tracking",
        instead: "manage_notes with DM-only visibility once it lands",
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
        instead: "manage_location (a graph of places) once it lands",
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
    Ok(Value::Object(map))
}

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
