//! Dodge, help, ready (and releasing a readied action), objects and magic items.

use serde_json::{Map, Value, json};
use tabletop_grid::DoorState;

use super::{actor, distance, distance_to_square, resolve, rule};
use crate::combat::actions::{ActionOutcome, ActionRequest, ActionType, Turn, Who};
use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::inventory::ops::{ItemRef, use_item};
use crate::model::character::CharacterRef;
use crate::model::encounter::ActionCost;
use crate::model::encounter::{Encounter, ReadiedAction};

/// Dodge: attacks against the actor have disadvantage and its DEX saves advantage until the
/// start of its next turn (`advance_turn` clears the flag).
pub fn dodge(_call: &mut Call<'_>, turn: &mut Turn<'_>) -> Result<ActionOutcome> {
    let a = actor(turn, "dodge")?.clone();
    if let Some(cb) = turn.encounter.combatant_mut(&a.id) {
        cb.flags.dodging = true;
    }
    Ok(ActionOutcome {
        headline: format!(
            "{} takes the Dodge action: attacks against it have disadvantage and its Dexterity saves advantage until its next turn.",
            a.name
        ),
        details: json!({"dodging": true}),
        ..Default::default()
    })
}

/// Help: `target` is the ally helped. With a foe (in `targets`, or as `target` with the ally
/// in `targets`) within 5 ft of the helper, the ally's next attack against that foe has
/// advantage; without one, the ally's next ability check does.
pub fn help(call: &mut Call<'_>, turn: &mut Turn<'_>) -> Result<ActionOutcome> {
    let helper = actor(turn, "help")?.clone();
    let helper_cb = turn
        .encounter
        .combatant(&helper.id)
        .cloned()
        .ok_or_else(|| EngineError::Rule("internal: the helper left the order".into()))?;
    let mut named: Vec<Who> = Vec::new();
    if !turn.req.target.is_empty() {
        named.push(turn.req.target.clone());
    }
    named.extend(turn.req.targets.iter().filter(|w| !w.is_empty()).cloned());
    if named.is_empty() {
        return Err(EngineError::invalid(
            "targetId",
            "name the ally helped (targetId or targetName), and for help on an attack the foe in targets",
        ));
    }
    if named.len() > 2 {
        return Err(EngineError::invalid(
            "targets",
            "help names one ally (target) and at most one foe (targets)",
        ));
    }
    let mut ally = None;
    let mut foe = None;
    for (i, w) in named.iter().enumerate() {
        let field = if i == 0 { "targetId" } else { "targets" };
        let (cb, c) = resolve(call, &turn.encounter, w, field)?;
        if cb.character_id == helper.id {
            return Err(EngineError::invalid(
                field,
                "the Help action aids someone else; name an ally",
            ));
        }
        if cb.side.hostile_to(helper_cb.side) {
            if foe.replace((cb, c)).is_some() {
                return Err(EngineError::invalid(
                    "targets",
                    "help names one foe; the other creature must be the ally helped",
                ));
            }
        } else if ally.replace((cb, c)).is_some() {
            return Err(EngineError::invalid(
                "targets",
                "help names one ally; put the foe it attacks in targets",
            ));
        }
    }
    let Some((ally_cb, ally)) = ally else {
        return Err(EngineError::invalid(
            "targetId",
            "name the ally helped (a creature not hostile to the helper)",
        ));
    };
    let headline = match foe {
        Some((foe_cb, foe)) => {
            let d = distance(&turn.encounter, &helper.id, &foe_cb.character_id)?;
            rule(
                turn,
                d <= 5,
                format!(
                    "{} is {d} ft from {}; the Help action aids an attack on a creature within 5 ft of the helper",
                    foe.name, helper.name
                ),
            )?;
            if let Some(cb) = turn.encounter.combatant_mut(&ally_cb.character_id) {
                cb.flags
                    .give_help(&helper.id, Some(foe_cb.character_id.as_str()));
            }
            format!(
                "{} helps {}: its next attack against {} before the start of {}'s next turn has advantage.",
                helper.name, ally.name, foe.name, helper.name
            )
        }
        None => {
            if let Some(cb) = turn.encounter.combatant_mut(&ally_cb.character_id) {
                cb.flags.give_help(&helper.id, None);
            }
            format!(
                "{} helps {}: its next ability check before the start of {}'s next turn has advantage.",
                helper.name, ally.name, helper.name
            )
        }
    };
    Ok(ActionOutcome {
        headline,
        details: json!({"ally": ally_cb.character_id}),
        ..Default::default()
    })
}

/// Action types that cannot be held with Ready.
const NOT_READIABLE: [ActionType; 4] = [
    ActionType::Ready,
    ActionType::LegendaryAction,
    ActionType::LairAction,
    ActionType::Dash,
];

/// Ready: holds an action (`readiedAction`, an execute_action item, or `description`) until
/// `trigger`; it is taken later as the actor's reaction and lapses at the start of its turn.
pub fn ready(_call: &mut Call<'_>, turn: &mut Turn<'_>) -> Result<ActionOutcome> {
    let a = actor(turn, "ready")?.clone();
    let trigger = turn
        .req
        .trigger
        .as_deref()
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .ok_or_else(|| {
            EngineError::invalid(
                "trigger",
                "say what triggers the readied action (\"when a goblin comes through the door\")",
            )
        })?
        .to_string();
    let action = match (&turn.req.readied_action, &turn.req.description) {
        (Some(v), _) => {
            let parsed = parse_readied(v)?;
            if let Some(t) = parsed.action_type
                && NOT_READIABLE.contains(&t)
            {
                return Err(EngineError::invalid(
                    "readiedAction",
                    format!(
                        "{} cannot be readied; hold an attack, a spell, a move or another action",
                        t.key()
                    ),
                ));
            }
            v.clone()
        }
        (None, Some(d)) if !d.trim().is_empty() => Value::String(d.trim().to_string()),
        _ => {
            return Err(EngineError::invalid(
                "readiedAction",
                "give the held action as an execute_action item ({\"actionType\": \"attack\", \"targetName\": \"Goblin 1\", \"weapon\": \"Longsword\"}) or describe it",
            ));
        }
    };
    let round = turn.encounter.round;
    if let Some(cb) = turn.encounter.combatant_mut(&a.id) {
        cb.flags.readied = Some(ReadiedAction {
            trigger: trigger.clone(),
            action: action.clone(),
            round,
        });
    }
    let what = match &action {
        Value::String(s) => s.clone(),
        v => v
            .get("actionType")
            .and_then(Value::as_str)
            .unwrap_or("an action")
            .replace('_', " "),
    };
    Ok(ActionOutcome {
        headline: format!(
            "{} readies {what} for when {trigger}; when it happens, call execute_action for {} with actionCost reaction (it lapses at the start of its next turn).",
            a.name, a.name
        ),
        details: json!({"trigger": trigger, "action": action}),
        ..Default::default()
    })
}

/// Reads a readied action given in `execute_action`'s own shape (flat `targetId`,
/// `targetName`, …) or the engine's (`target: {id, name}`).
fn parse_readied(v: &Value) -> Result<ActionRequest> {
    let Value::Object(m) = v else {
        return Err(EngineError::invalid(
            "readiedAction",
            "give an object: {\"actionType\": \"attack\", \"targetName\": \"Goblin 1\"}",
        ));
    };
    let mut m: Map<String, Value> = m.clone();
    for (id, name, to) in [
        ("targetId", "targetName", "target"),
        ("actorId", "actorName", "actor"),
    ] {
        let i = m.remove(id);
        let n = m.remove(name);
        if i.is_some() || n.is_some() {
            m.insert(to.into(), json!({"id": i, "name": n}));
        }
    }
    if let Some(Value::Array(ts)) = m.get("targets") {
        let fixed: Vec<Value> = ts
            .iter()
            .map(|t| match t {
                Value::String(s) => json!({"name": s}),
                other => other.clone(),
            })
            .collect();
        m.insert("targets".into(), Value::Array(fixed));
    }
    serde_json::from_value(Value::Object(m)).map_err(|e| {
        EngineError::invalid(
            "readiedAction",
            format!("not an execute_action item ({e}); e.g. {{\"actionType\": \"attack\", \"targetName\": \"Goblin 1\"}}"),
        )
    })
}

/// Whether `req` releases the actor's readied action: the actor has one, and the request
/// says `abilityName: "readied"`, or is `actionType: ready` as a reaction, or repeats the held
/// action type as a reaction. Returns the request to run (the held action, with the caller's
/// non-empty fields winning), its type, and the trigger; `None` when nothing is released.
///
/// `execute` calls this before the economy check, then clears the readied action with
/// [`clear_readied`] once the reaction is spent.
pub fn release_readied(
    enc: &Encounter,
    req: &ActionRequest,
) -> Result<Option<(ActionRequest, ActionType, String)>> {
    if req.actor.is_empty() {
        return Ok(None);
    }
    let Ok(cb) = crate::combat::find_combatant(
        enc,
        req.actor.id.as_deref(),
        req.actor.name.as_deref(),
        "actorId",
    ) else {
        return Ok(None);
    };
    let by_name = req
        .ability_name
        .as_deref()
        .is_some_and(|n| n.trim().eq_ignore_ascii_case("readied"));
    let Some(readied) = &cb.flags.readied else {
        if by_name {
            return Err(EngineError::Rule(format!(
                "{} has no readied action (it was used, or lapsed at the start of its turn); ready one with actionType ready",
                cb.name
            )));
        }
        return Ok(None);
    };
    let as_reaction = req.action_cost == Some(ActionCost::Reaction);
    let held = match &readied.action {
        Value::Object(_) => Some(parse_readied(&readied.action)?),
        _ => None,
    };
    let held_type = held.as_ref().and_then(|h| h.action_type);
    let matches = by_name
        || (as_reaction && req.action_type == Some(ActionType::Ready))
        || (as_reaction && held_type.is_some() && req.action_type == held_type);
    if !matches {
        return Ok(None);
    }
    let mut out = held.unwrap_or_default();
    let t = held_type.unwrap_or(ActionType::Ready);
    merge(&mut out, req);
    out.action_type = Some(t);
    out.action_cost = Some(ActionCost::Reaction);
    if out
        .ability_name
        .as_deref()
        .is_some_and(|n| n.eq_ignore_ascii_case("readied"))
    {
        out.ability_name = None;
    }
    if held_type.is_none() {
        out.description = match &readied.action {
            Value::String(s) => Some(s.clone()),
            _ => out.description,
        };
    }
    Ok(Some((out, t, readied.trigger.clone())))
}

/// Clears `combatant_id`'s readied action (once released, or when it lapses).
pub fn clear_readied(enc: &mut Encounter, combatant_id: &str) {
    if let Some(cb) = enc.combatant_mut(combatant_id) {
        cb.flags.readied = None;
    }
}

/// The caller's fields win over the held action's where given.
fn merge(held: &mut ActionRequest, now: &ActionRequest) {
    held.encounter_id = now.encounter_id.clone().or(held.encounter_id.take());
    held.actor = now.actor.clone();
    if !now.target.is_empty() {
        held.target = now.target.clone();
    }
    if !now.targets.is_empty() {
        held.targets = now.targets.clone();
    }
    macro_rules! opt {
        ($($f:ident),*) => {$(
            if now.$f.is_some() {
                held.$f = now.$f.clone();
            }
        )*};
    }
    opt!(
        weapon,
        ability,
        to,
        spell,
        slot_level,
        direction,
        amount,
        damage_type,
        ability_name,
        item,
        shove_mode,
        description
    );
    if !now.path.is_empty() {
        held.path = now.path.clone();
    }
    held.advantage |= now.advantage;
    held.disadvantage |= now.disadvantage;
    if now.bonus != 0 {
        held.bonus = now.bonus;
    }
    held.force |= now.force;
}

/// A readied action released without a held execute_action item: it is recorded.
pub fn released_description(turn: &Turn<'_>, trigger: &str) -> Result<ActionOutcome> {
    let a = actor(turn, "readied action")?;
    let what = turn
        .req
        .description
        .clone()
        .unwrap_or_else(|| "its readied action".into());
    Ok(ActionOutcome {
        headline: format!("{} reacts to \"{trigger}\": {what}.", a.name),
        details: json!({"readied": true}),
        ..Default::default()
    })
}

/// Use an object: a door on the map at `to` (opened or closed; `description` saying "close"
/// closes it, else it toggles), or anything else described in `description`. Costs the free
/// object interaction unless an action is given.
pub fn use_object(call: &mut Call<'_>, turn: &mut Turn<'_>) -> Result<ActionOutcome> {
    let a = actor(turn, "use_object")?.clone();
    if turn.req.item.is_some() {
        return use_magic_item(call, turn);
    }
    let desc = turn
        .req
        .description
        .as_deref()
        .map(str::trim)
        .filter(|d| !d.is_empty());
    let Some(to) = turn.req.to else {
        let Some(d) = desc else {
            return Err(EngineError::invalid(
                "description",
                "say what object is used (description), or give a door's square in to",
            ));
        };
        return Ok(ActionOutcome {
            headline: format!("{} uses an object: {d}.", a.name),
            details: json!({"description": d}),
            ..Default::default()
        });
    };
    let Some(state) = turn.encounter.map.door(to) else {
        let Some(d) = desc else {
            return Err(EngineError::invalid(
                "to",
                format!(
                    "there is no door at {to}; give a door's square, or describe the object instead"
                ),
            ));
        };
        return Ok(ActionOutcome {
            headline: format!("{} uses an object at {to}: {d}.", a.name),
            details: json!({"description": d, "at": to}),
            ..Default::default()
        });
    };
    let d = distance_to_square(&turn.encounter, &a.id, to)?;
    rule(
        turn,
        d <= 5,
        format!(
            "the door at {to} is {d} ft from {}; move next to it first",
            a.name
        ),
    )?;
    let wants_close = desc.is_some_and(|d| {
        let l = d.to_lowercase();
        l.contains("close") || l.contains("shut")
    });
    let new = if wants_close || !state.is_shut() {
        DoorState::Closed
    } else {
        DoorState::Open
    };
    if new == DoorState::Closed && state.is_shut() {
        return Err(EngineError::Rule(format!(
            "the door at {to} is already shut"
        )));
    }
    if state == DoorState::Locked {
        rule(
            turn,
            false,
            format!(
                "the door at {to} is locked: unlock it first (a key, or a check with roll_check such as thieves' tools DC 15)"
            ),
        )?;
    }
    turn.encounter.map.set_door(to, new).map_err(|e| {
        EngineError::Rule(format!("{} cannot change the door at {to}: {e}", a.name))
    })?;
    let verb = if new == DoorState::Open {
        "opens"
    } else {
        "closes"
    };
    Ok(ActionOutcome {
        headline: format!("{} {verb} the door at {to}.", a.name),
        details: json!({"door": to, "state": new}),
        ..Default::default()
    })
}

/// Use a magic item (or a potion) from the actor's inventory through the inventory's `use`
/// operation: healing rolled and applied, charges spent, consumables used up. `target` (within
/// 5 ft) receives it instead of the actor.
pub fn use_magic_item(call: &mut Call<'_>, turn: &mut Turn<'_>) -> Result<ActionOutcome> {
    let a = actor(turn, "use_magic_item")?.clone();
    let item = turn
        .req
        .item
        .as_deref()
        .map(str::trim)
        .filter(|i| !i.is_empty())
        .ok_or_else(|| {
            EngineError::invalid(
                "item",
                "name the item from the actor's inventory (\"Potion of Healing\")",
            )
        })?
        .to_string();
    // A wand or staff casts its spell on the grid like cast_spell, paid in charges.
    if let Some(i) = crate::inventory::ops::find_item(
        &a,
        ItemRef {
            id: None,
            name: Some(&item),
        },
    )
    .ok()
    .filter(|&i| crate::magic::item_spells::entry_of(call, &a.inventory.items[i]).is_some())
    {
        let req = turn.req;
        let cast =
            crate::magic::item_spells::plan(call, &a, i, req.spell.as_deref(), req.slot_level)?;
        // Once attuned and charged: a wand, staff or rod works "while holding it": in a hand.
        let it = &a.inventory.items[i];
        let kind = it.name.to_ascii_lowercase();
        if ["wand of", "staff of", "rod of"]
            .iter()
            .any(|k| kind.starts_with(k))
        {
            let held = matches!(
                it.slot,
                Some(
                    crate::model::inventory::Slot::Mainhand
                        | crate::model::inventory::Slot::Offhand
                )
            );
            let why = format!(
                "{} works while {} holds it: equip it in a hand first (manage_inventory equip, slot mainhand or offhand)",
                it.name, a.name
            );
            turn.rule(held, why)?;
        }
        let mut caster = a;
        let spent = crate::magic::item_spells::spend(call, &mut caster, &cast)?;
        let tag = format!(" ({})", cast.item_name);
        let mut out = crate::combat::actions::spell::cast_in_encounter(
            call,
            turn,
            caster,
            cast.def.clone(),
            cast.numbers,
            cast.slot,
            &tag,
        )?;
        let mut lines = spent;
        lines.append(&mut out.lines);
        lines.push(format!("{}; no slot spent", cast.numbers_note));
        if let Some(r) = &cast.left_to_dm {
            lines.push(format!("left to the DM: {r}"));
        }
        out.lines = lines;
        return Ok(out);
    }
    let target = if turn.req.target.is_empty() {
        None
    } else {
        let (cb, c) = resolve(call, &turn.encounter, &turn.req.target, "targetId")?;
        if cb.character_id != a.id {
            let d = distance(&turn.encounter, &a.id, &cb.character_id)?;
            rule(
                turn,
                d <= 5,
                format!(
                    "{} is {d} ft from {}; an item is given within 5 ft",
                    c.name, a.name
                ),
            )?;
        }
        Some(cb.character_id)
    };
    let out = use_item(
        call,
        CharacterRef::new(Some(&a.id), None),
        ItemRef {
            id: None,
            name: Some(&item),
        },
        target.as_deref().map(|t| CharacterRef::new(Some(t), None)),
        None,
    )
    .map_err(|e| match e {
        EngineError::NotFound { .. }
        | EngineError::NotFoundAmong { .. }
        | EngineError::Ambiguous { .. } => EngineError::invalid(
            "item",
            format!("{e}; see the actor's items with manage_inventory view"),
        ),
        other => other,
    })?;
    turn.actor = Some(crate::combat::sheet(call, &a.id)?);
    Ok(ActionOutcome {
        headline: out.summary.clone(),
        lines: Vec::new(),
        details: serde_json::to_value(&out).unwrap_or(Value::Null),
        ..Default::default()
    })
}
