//! Converters for magic (scrolls, auras), effects, rests, inventory and the compendium.

use serde_json::{Map, Value};

use crate::reply::ToolError;

use super::world::CHARACTER_ID;

pub(super) fn scroll_use(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    args.entry("operation")
        .or_insert(Value::String("use".into()));
    Ok(())
}

pub(super) fn scroll_check(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    args.entry("operation")
        .or_insert(Value::String("check".into()));
    Ok(())
}

/// `scroll_manage {action: use|get_dc|check|details|identify}` → use or check.
pub(super) fn scroll_action(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    let op = match args.remove("action").as_ref().and_then(Value::as_str) {
        Some("use" | "cast" | "read") | None => "use",
        Some(_) => "check",
    };
    args.entry("operation").or_insert(Value::String(op.into()));
    Ok(())
}

/// `create_spell_scroll {characterId|characterName, spellName}` → give "Spell Scroll (Spell)".
pub(super) fn scroll_item(args: &mut Map<String, Value>) -> Result<(), ToolError> {
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

/// `aura_manage {action: create|list|get|process|remove|expire}` → operation.
pub(super) fn aura_action(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    let op = match args.remove("action").as_ref().and_then(Value::as_str) {
        Some("create" | "add") => "create",
        Some("process" | "apply" | "tick") => "process",
        Some("remove" | "delete" | "remove_all") => "remove",
        _ => "list",
    };
    args.entry("operation").or_insert(Value::String(op.into()));
    Ok(())
}

/// Legacy `*_manage` tools took `action`; here it names the operation.
pub(super) fn action_is_operation(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    if let Some(a) = args.remove("action") {
        args.entry("operation").or_insert(a);
    }
    Ok(())
}

/// `rest_manage {action: short|long}` → `type`.
pub(super) fn action_is_rest_type(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    if let Some(a) = args.remove("action") {
        args.entry("type").or_insert(a);
    }
    Ok(())
}

/// `improvisation_manage {action: apply_effect|get_effects|remove_effect|advance_durations|process_triggers}`.
pub(super) fn improvisation_effect(args: &mut Map<String, Value>) -> Result<(), ToolError> {
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
pub(super) fn party_rest(args: &mut Map<String, Value>) -> Result<(), ToolError> {
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
pub(super) fn legacy_item(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    let give = args
        .get("operation")
        .and_then(Value::as_str)
        .is_none_or(|o| o == "give");
    legacy_fields(args, give)
}

/// [`legacy_item`] for a give.
pub(super) fn legacy_give(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    legacy_fields(args, true)
}

/// [`legacy_item`] for an operation on a carried item: `name` names it.
pub(super) fn legacy_ref(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    legacy_fields(args, false)
}

pub(super) fn legacy_fields(args: &mut Map<String, Value>, give: bool) -> Result<(), ToolError> {
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
pub(super) fn inventory_action(args: &mut Map<String, Value>) -> Result<(), ToolError> {
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
pub(super) fn distribute(args: &mut Map<String, Value>) -> Result<(), ToolError> {
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

/// Legacy categories (`Martial Weapons`, `light-armor`) → the filter values (`martial`, `light`).
pub(super) fn category_words(args: &mut Map<String, Value>) -> Result<(), ToolError> {
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
pub(super) fn inline_filters(args: &mut Map<String, Value>) -> Result<(), ToolError> {
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
pub(super) fn exact_cr(args: &mut Map<String, Value>) -> Result<(), ToolError> {
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
pub(super) fn drop_action(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    match args.remove("action") {
        None => Ok(()),
        Some(Value::String(a)) if a == "roll" => Ok(()),
        Some(other) => Err(ToolError(format!(
            "math_manage action {other} is not supported; only 'roll' survives, as roll_dice (probability and algebra tools were retired)"
        ))),
    }
}

/// Legacy `add_spell` / `remove_spell` name one spell; update_character takes a list.
pub(super) fn one_spell(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    for key in ["addSpells", "removeSpells"] {
        if let Some(v) = args.get_mut(key)
            && v.is_string()
        {
            *v = Value::Array(vec![v.take()]);
        }
    }
    Ok(())
}
