//! Stat-block special abilities (breath weapons, recharge and N/Day abilities), legendary
//! actions and lair actions, resolved with saves and damage against their targets or area
//! ([`super::area_effect`]).

use serde_json::{Value, json};
use tabletop_rules::Skill;
use tabletop_rules::d20::{D20Request, D20Test, roll_d20_test};
use tabletop_rules::dice;

use super::ability_text::{area_in, check_in, dc_in, legendary_cost, per_day, recharge_min};
use super::{actor, incapacitated, resolve, rule};
use crate::combat::actions::attack::{StrikeOptions, strike};
use crate::combat::actions::{ActionOutcome, Turn};
use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::character::{Character, StatAction, StatDamage, StatDc};
use crate::model::names::name_key;

/// A stat-block entry found by name: the effect to resolve, the name its usage is tracked
/// under, and its usage limit.
struct Found {
    action: StatAction,
    tracked: String,
    recharge: Option<String>,
}

/// Strips "(Costs 2 Actions)", "(Recharge 5–6)", "(3/Day)" from a name.
fn bare(name: &str) -> String {
    let n = match name.find('(') {
        Some(i) => &name[..i],
        None => name,
    };
    name_key(n.trim())
}

/// Finds `name` among `list` (exact after stripping parentheses, then prefix), including
/// alternative effects (a breath weapon's options).
fn find_in(list: &[StatAction], name: &str) -> Option<Found> {
    let key = bare(name);
    let hit = list
        .iter()
        .find(|a| bare(&a.name) == key)
        .or_else(|| list.iter().find(|a| bare(&a.name).starts_with(&key)));
    if let Some(a) = hit {
        return Some(Found {
            action: a.clone(),
            tracked: a.name.clone(),
            recharge: a.recharge.clone(),
        });
    }
    for a in list {
        if let Some(alt) = a.alternatives.iter().find(|x| bare(&x.name) == key) {
            let mut action = a.clone();
            action.name = alt.name.clone();
            action.damage = alt.damage.clone();
            action.dc = alt.dc.clone().or(a.dc.clone());
            action.alternatives.clear();
            return Some(Found {
                action,
                tracked: a.name.clone(),
                recharge: a.recharge.clone(),
            });
        }
    }
    None
}

fn names_of(list: &[StatAction]) -> String {
    let v: Vec<&str> = list.iter().map(|a| a.name.as_str()).collect();
    if v.is_empty() {
        "none".into()
    } else {
        v.join(", ")
    }
}

/// Whether a limited ability can be used now, and why not: `None` when it has no limit.
fn use_left(turn: &Turn<'_>, actor_id: &str, f: &Found) -> Option<(bool, String, usize)> {
    let limit = f.recharge.clone()?;
    let cb = turn.encounter.combatant(actor_id)?;
    let used = cb
        .spent_abilities
        .iter()
        .filter(|s| **s == f.tracked)
        .count();
    let (ok, why) = match per_day(&limit) {
        Some(n) => (
            used < n,
            format!(
                "{} has used {} {used} of {n} times today",
                cb.name, f.tracked
            ),
        ),
        None if recharge_min(&limit).is_some() => (
            used == 0,
            format!(
                "{}'s {} is spent until it recharges ({limit}: rolled at the start of its turn)",
                cb.name, f.tracked
            ),
        ),
        None => (
            used == 0,
            format!(
                "{}'s {} is spent until it rests ({limit})",
                cb.name, f.tracked
            ),
        ),
    };
    Some((ok, why, used))
}

/// Checks and records a usage limit: recharge abilities refused while spent, N/Day uses
/// counted, rest-recharged abilities once.
fn spend_use(turn: &mut Turn<'_>, actor_id: &str, f: &Found) -> Result<Option<String>> {
    let Some(limit) = f.recharge.clone() else {
        return Ok(None);
    };
    let Some((ok, why, used)) = use_left(turn, actor_id, f) else {
        return Ok(None);
    };
    rule(turn, ok, why)?;
    if let Some(cb) = turn.encounter.combatant_mut(actor_id) {
        cb.spent_abilities.push(f.tracked.clone());
    }
    Ok(Some(match per_day(&limit) {
        Some(n) => format!("{} {}/{n} uses today", f.tracked, used + 1),
        None => format!("{} is spent ({limit})", f.tracked),
    }))
}

/// A non-attack entry of the stat block used as one step of its Multiattack ("The dragon can
/// use its Frightful Presence", "uses Reel"): resolved as `use_special_ability` resolves it on
/// the multiattack's targets (or the area in its text), its usage limit spent; a spent one is
/// skipped and the answer says so. `None` when the block has no entry of that name.
pub(crate) fn use_in_multiattack(
    call: &mut Call<'_>,
    turn: &mut Turn<'_>,
    a: &Character,
    name: &str,
) -> Result<Option<(String, Vec<String>)>> {
    let Some(block) = a.action_block() else {
        return Ok(None);
    };
    let all: Vec<StatAction> = block
        .actions
        .iter()
        .chain(&block.special_abilities)
        .filter(|x| x.multiattack.is_empty())
        .cloned()
        .collect();
    let Some(found) = find_in(&all, name) else {
        return Ok(None);
    };
    if let Some((false, why, _)) = use_left(turn, &a.id, &found) {
        return Ok(Some((
            format!("{} is not used", found.action.name),
            vec![format!(
                "{} (part of its Multiattack) is not used: {why}.",
                found.action.name
            )],
        )));
    }
    let usage = spend_use(turn, &a.id, &found)?;
    let (summary, mut lines, _) = resolve_entry(call, turn, a, &found.action)?;
    lines.insert(
        0,
        format!(
            "{} uses {} (part of its Multiattack): {summary}.",
            a.name, found.action.name
        ),
    );
    if let Some(u) = usage {
        lines.push(u);
    }
    Ok(Some((format!("{}: {summary}.", found.action.name), lines)))
}

/// "makes a tail attack" / "makes one claw attack": the attack's name.
fn attack_named_in<'c>(c: &'c Character, text: &str) -> Option<&'c StatAction> {
    let l = text.to_lowercase();
    let i = l.find("makes ")?;
    let rest = &l[i + 6..];
    let end = rest.find(" attack")?;
    let words: Vec<&str> = rest[..end].split_whitespace().collect();
    let name = words.last()?;
    c.action_block()?
        .actions
        .iter()
        .find(|a| a.attack_bonus.is_some() && bare(&a.name).split_whitespace().any(|w| w == *name))
}

/// Resolves a stat-block entry: a named skill check, an effect with a save or damage, an
/// attack (through the attack module), or recorded as text.
fn resolve_entry(
    call: &mut Call<'_>,
    turn: &mut Turn<'_>,
    a: &Character,
    action: &StatAction,
) -> Result<(String, Vec<String>, Value)> {
    // "makes one tail attack": that attack of the block; otherwise its own attack roll (an
    // attack bonus with damage).
    let named = attack_named_in(a, &action.desc).cloned();
    if named.is_some() || (action.attack_bonus.is_some() && !action.damage.is_empty()) {
        let attack = named.unwrap_or_else(|| action.clone());
        return strike_with(call, turn, a, &attack);
    }
    if action.dc.is_some() || !action.damage.is_empty() {
        let r = super::area_effect::resolve_effect(
            call,
            turn,
            Some(&a.id),
            action,
            area_in(&action.desc),
        )?;
        return Ok((r.summary, r.lines, r.details));
    }
    if let Some(skill) = check_in(&action.desc) {
        let req = D20Request::new(D20Test::SkillCheck { skill }).labelled(format!(
            "{} {} ({})",
            a.name,
            skill_title(skill),
            action.name
        ));
        let roll = roll_d20_test(&a.effective(), &req, call.rng()?);
        call.record_roll(&roll);
        let total = roll.total.unwrap_or(0);
        return Ok((
            format!("{} {total}", skill_title(skill)),
            vec![roll.summary()],
            json!({"roll": roll}),
        ));
    }
    // Nothing to roll: say what the DM applies (the catalog's reason for this family).
    let why = crate::catalog::monster_abilities::narrative_reason(
        crate::catalog::monster_abilities::bare_name(&action.name),
        &action.desc,
    );
    Ok((
        why.clone(),
        vec![why.clone(), action.desc.clone()],
        json!({"text": action.desc, "automation": why}),
    ))
}

fn skill_title(s: Skill) -> String {
    let k = format!("{s:?}");
    k
}

/// An attack made by an ability or legendary action, through the attack core ([`strike`])
/// against `target`.
fn strike_with(
    call: &mut Call<'_>,
    turn: &mut Turn<'_>,
    a: &Character,
    attack: &StatAction,
) -> Result<(String, Vec<String>, Value)> {
    if turn.req.target.is_empty() {
        return Err(EngineError::invalid(
            "targetId",
            format!(
                "{} is an attack; name its target (targetId or targetName)",
                attack.name
            ),
        ));
    }
    let (cb, _) = resolve(call, &turn.encounter, &turn.req.target.clone(), "targetId")?;
    let opts = StrikeOptions {
        advantage: if turn.req.advantage {
            vec!["granted by the game master".into()]
        } else {
            Vec::new()
        },
        disadvantage: if turn.req.disadvantage {
            vec!["imposed by the game master".into()]
        } else {
            Vec::new()
        },
        bonus: turn.req.bonus,
        force: turn.req.force,
        ..Default::default()
    };
    let r = strike(
        call,
        &mut turn.encounter,
        &a.id,
        &cb.character_id,
        Some(&attack.name),
        &opts,
    )?;
    turn.forced.extend(r.forced.iter().cloned());
    let mut lines = r.lines.clone();
    lines.insert(
        0,
        format!("{} attacks {} with {}", r.attacker, r.target, r.weapon),
    );
    let details = serde_json::to_value(&r).unwrap_or(Value::Null);
    Ok((r.headline.trim_end_matches('.').to_string(), lines, details))
}

/// A stat-block ability by `abilityName` (breath weapon, recharge or N/Day ability, trait):
/// usage limits enforced, saves and damage resolved on `targets` or the area in its text.
pub fn use_special_ability(call: &mut Call<'_>, turn: &mut Turn<'_>) -> Result<ActionOutcome> {
    let a = actor(turn, "use_special_ability")?.clone();
    let name = turn
        .req
        .ability_name
        .as_deref()
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .ok_or_else(|| {
            EngineError::invalid(
                "abilityName",
                "name the stat-block ability (\"Fire Breath\")",
            )
        })?
        .to_string();
    if super::first_aid::is_first_aid(&name) {
        return super::first_aid::first_aid(call, turn, &a);
    }
    if bare(&name) == name_key(crate::combat::legendary::NAME) {
        return legendary_resistance(call, turn, &a);
    }
    match crate::model::names::name_key(&name).as_str() {
        "wild shape" => return crate::shape::wild_shape(call, turn, &a),
        "revert" | "revert form" | "normal form" => return crate::shape::revert(call, turn, &a),
        _ => {}
    }
    if let Some(out) = super::features::use_feature(call, turn, &a, &name)? {
        return Ok(out);
    }
    let Some(block) = a.action_block() else {
        return Err(EngineError::invalid(
            "abilityName",
            format!(
                "{} has no stat block; class features are narrated (or use cast_spell, attack, or manage_effect)",
                a.name
            ),
        ));
    };
    let all: Vec<StatAction> = block
        .actions
        .iter()
        .chain(&block.special_abilities)
        .chain(&block.reactions)
        .cloned()
        .collect();
    let Some(found) = find_in(&all, &name) else {
        return Err(EngineError::invalid(
            "abilityName",
            format!(
                "{} has no ability '{name}'; its abilities: {}",
                a.name,
                names_of(&all)
            ),
        ));
    };
    if found.action.dc.is_none()
        && found.action.damage.is_empty()
        && !found.action.alternatives.is_empty()
    {
        return Err(EngineError::invalid(
            "abilityName",
            format!(
                "{} has several effects; name one: {}",
                found.action.name,
                found
                    .action
                    .alternatives
                    .iter()
                    .map(|x| x.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ));
    }
    if !found.action.multiattack.is_empty() {
        return Err(EngineError::invalid(
            "abilityName",
            "Multiattack is an attack: use actionType attack with weapon \"Multiattack\"",
        ));
    }
    let usage = spend_use(turn, &a.id, &found)?;
    let (summary, mut lines, details) = resolve_entry(call, turn, &a, &found.action)?;
    if let Some(u) = usage {
        lines.push(u);
    }
    Ok(ActionOutcome {
        headline: format!("{} uses {}: {summary}.", a.name, found.action.name),
        lines,
        details,
        ..Default::default()
    })
}

/// Legendary Resistance used by the DM's choice (a combatant whose reaction policy is ask):
/// one use spent; the DM undoes what the failed save did.
fn legendary_resistance(
    call: &mut Call<'_>,
    turn: &mut Turn<'_>,
    a: &Character,
) -> Result<ActionOutcome> {
    use crate::combat::legendary::NAME;
    let mut c = crate::combat::sheet(call, &a.id)?;
    let Some(r) = crate::combat::legendary::resource(&mut c) else {
        return Err(EngineError::invalid(
            "abilityName",
            format!("{} has no {NAME}", a.name),
        ));
    };
    let (max, left) = (r.max, r.current);
    rule(
        turn,
        left > 0,
        format!(
            "{}'s {NAME} is spent (0/{max} left; a long rest restores it)",
            a.name
        ),
    )?;
    r.current = left.saturating_sub(1);
    crate::combat::put_sheet(call, &c)?;
    Ok(ActionOutcome {
        headline: format!(
            "{} uses {NAME}: its last failed save is a success instead ({}/{max} left today).",
            a.name,
            left.saturating_sub(1)
        ),
        lines: vec![format!(
            "no automation for undoing what the failed save already did: the DM ends it (manage_effect, update_character, or bringing a banished creature back)"
        )],
        ..Default::default()
    })
}

/// A legendary action at the end of another creature's turn: its cost ("Costs 2 Actions")
/// taken from the actions left this round, then resolved (attack, save effect, check, or text).
pub fn legendary_action(call: &mut Call<'_>, turn: &mut Turn<'_>) -> Result<ActionOutcome> {
    let a = actor(turn, "legendary_action")?.clone();
    let list = a
        .stat_block
        .as_ref()
        .map(|b| b.legendary_actions.clone())
        .unwrap_or_default();
    if list.is_empty() {
        return Err(EngineError::Rule(format!(
            "{} has no legendary actions",
            a.name
        )));
    }
    let name = turn
        .req
        .ability_name
        .as_deref()
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .ok_or_else(|| {
            EngineError::invalid(
                "abilityName",
                format!("name the legendary action: {}", names_of(&list)),
            )
        })?
        .to_string();
    let Some(found) = find_in(&list, &name) else {
        return Err(EngineError::invalid(
            "abilityName",
            format!(
                "{} has no legendary action '{name}'; its legendary actions: {}",
                a.name,
                names_of(&list)
            ),
        ));
    };
    rule(
        turn,
        !incapacitated(&a),
        format!(
            "{} is incapacitated and can take no legendary actions",
            a.name
        ),
    )?;
    let cost = legendary_cost(&found.action.name);
    let left = turn
        .encounter
        .combatant(&a.id)
        .map_or(0, |c| c.legendary_actions);
    rule(
        turn,
        left >= cost,
        format!(
            "{} has {left} legendary action{} left this round and {} costs {cost}; they return at the start of its turn",
            a.name,
            if left == 1 { "" } else { "s" },
            found.action.name
        ),
    )?;
    if let Some(cb) = turn.encounter.combatant_mut(&a.id) {
        cb.legendary_actions = left.saturating_sub(cost);
    }
    let (summary, mut lines, details) = resolve_entry(call, turn, &a, &found.action)?;
    let after = left.saturating_sub(cost);
    if let Some(line) = flies_after(&a, &found.action.desc) {
        lines.push(line);
    }
    lines.push(format!(
        "{} legendary action{} left this round",
        after,
        if after == 1 { "" } else { "s" }
    ));
    lines.push(
        "Timing: a legendary action comes only at the end of another creature's turn, one at a time; the engine has no step between a turn's end and the next one's start, so it takes it now: the DM keeps the timing (use it before advance_turn ends that creature's turn)"
            .into(),
    );
    Ok(ActionOutcome {
        headline: format!(
            "{} uses {} (legendary, cost {cost}): {summary}.",
            a.name, found.action.name
        ),
        lines,
        details: json!({"cost": cost, "left": after, "effect": details}),
        ..Default::default()
    })
}

/// "The dragon can then fly up to half its flying speed" (Wing Attack): the line saying how far,
/// the move being the DM's (execute_action move with force: it is not the creature's turn).
fn flies_after(a: &Character, desc: &str) -> Option<String> {
    let l = desc.to_lowercase();
    if !l.contains("fly up to half its flying speed") {
        return None;
    }
    let fly = a.action_block()?.other_speeds.get("fly").copied()?;
    Some(format!(
        "{} can then fly up to {} ft (half its fly speed of {fly} ft): no automation for that flight; move it with execute_action move and force: true (it is not its turn)",
        a.name,
        fly / 2
    ))
}

/// A lair action (initiative count 20, losing ties; not enforced): `description` says what
/// happens; a save is `dc` with `ability` (or "DC 15 Dexterity" in the description); damage is
/// `amount` (typed dice or `damageType`), halved on a success when the description says
/// "half"; targets are `targets`, or the area in the description ("20-foot radius") centred
/// on `to` or around the actor; conditions named in the description land on a failed save.
pub fn lair_action(call: &mut Call<'_>, turn: &mut Turn<'_>) -> Result<ActionOutcome> {
    let desc = turn
        .req
        .description
        .as_deref()
        .map(str::trim)
        .filter(|d| !d.is_empty())
        .ok_or_else(|| {
            EngineError::invalid(
                "description",
                "say what the lair does (\"Magma erupts: DC 15 Dexterity save, 20-foot radius\")",
            )
        })?
        .to_string();
    let dc = match (turn.req.dc, turn.req.ability) {
        (Some(v), Some(ab)) => Some((v, ab)),
        (Some(_), None) => {
            return Err(EngineError::invalid(
                "ability",
                "name the save's ability for the DC (ability: dex)",
            ));
        }
        (None, _) => dc_in(&desc),
    };
    if let Some((v, _)) = dc
        && !(1..=40).contains(&v)
    {
        return Err(EngineError::invalid(
            "dc",
            format!("{v} is out of range; a save DC is 1–40"),
        ));
    }
    let damage = match &turn.req.amount {
        Some(amount) => {
            dice::parse(amount).map_err(|e| EngineError::invalid("amount", e.to_string()))?;
            vec![StatDamage {
                dice: amount.clone(),
                damage_type: turn.req.damage_type,
            }]
        }
        None => Vec::new(),
    };
    let action = StatAction {
        name: turn
            .req
            .ability_name
            .clone()
            .unwrap_or_else(|| "Lair action".into()),
        desc: desc.clone(),
        attack_bonus: None,
        damage,
        dc: dc.map(|(value, ability)| StatDc {
            ability,
            value,
            success: if desc.to_lowercase().contains("half") {
                "half"
            } else {
                "none"
            }
            .into(),
        }),
        recharge: None,
        multiattack: Vec::new(),
        alternatives: Vec::new(),
    };
    let actor_id = turn.actor.as_ref().map(|a| a.id.clone());
    let owner = turn.actor.as_ref().map(|a| a.name.clone());
    let mut lines = vec!["Lair actions act on initiative count 20 (losing ties).".to_string()];
    let (summary, details) = if action.dc.is_some() || !action.damage.is_empty() {
        let r = super::area_effect::resolve_effect(
            call,
            turn,
            actor_id.as_deref(),
            &action,
            area_in(&desc),
        )?;
        lines.extend(r.lines);
        (format!(": {}", r.summary), r.details)
    } else {
        (String::new(), Value::Null)
    };
    Ok(ActionOutcome {
        headline: format!(
            "Lair action{}: {desc}{summary}.",
            owner.map(|o| format!(" ({o}'s lair)")).unwrap_or_default()
        ),
        lines,
        details,
        ..Default::default()
    })
}
