//! Converters for combat: actions, turns, encounters and their participants.

use serde_json::{Map, Value};

use crate::reply::ToolError;

/// Legacy `combat_action {action}` (and `use_reaction {reaction}`) → `actionType`.
pub(super) fn combat_action(args: &mut Map<String, Value>) -> Result<(), ToolError> {
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
pub(super) fn consume_action(args: &mut Map<String, Value>) -> Result<(), ToolError> {
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
    // The legacy call is the game master's bookkeeping ("mark it spent"), not an action a rule
    // must offer: it is taken as forced, and the answer says so.
    args.entry("force").or_insert(Value::Bool(true));
    args.entry("description").or_insert_with(|| {
        Value::String(format!(
            "spends its {} (consume_action)",
            cost.replace('_', " ")
        ))
    });
    Ok(())
}

/// A legacy participant `{id, name, hp, maxHp, initiativeBonus, isEnemy, conditions, position,
/// resistances…}` (no AC) → an inline stat block of ours (AC 10 when none was given, DEX from
/// the initiative bonus); an existing character by `characterId`/`characterName` passes through.
pub(super) fn legacy_participant(v: &mut Value) -> Result<(), ToolError> {
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
pub(super) fn legacy_squares(v: &mut Value) {
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
pub(super) fn legacy_encounter(args: &mut Map<String, Value>) -> Result<(), ToolError> {
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
pub(super) fn legacy_add(args: &mut Map<String, Value>) -> Result<(), ToolError> {
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
pub(super) fn legacy_batch_add(args: &mut Map<String, Value>) -> Result<(), ToolError> {
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
pub(super) fn drop_switch_key(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    args.remove("action");
    Ok(())
}

/// Legacy names of execute_action's fields.
/// Mirrors the `combat_action` set of the alias data (checked by a test).
pub(super) const COMBAT_ACTION: &[(&str, &str)] = &[
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
pub(super) fn legacy_action(args: &mut Map<String, Value>) -> Result<(), ToolError> {
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
pub(super) fn legacy_action_batch(args: &mut Map<String, Value>) -> Result<(), ToolError> {
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
