//! Grapple, escaping a grapple, and shove: contested Athletics against the target's better of
//! Athletics and Acrobatics. Grapple and shove replace one attack of the Attack action.

use serde_json::json;
use tabletop_grid::{Position, size_rank};
use tabletop_rules::d20::{self, ContestWinner, D20Request, D20Test};
use tabletop_rules::{Condition, Skill};

use super::stealth::with_caller;
use super::{actor, add_condition, distance, resolve, rule, take_helped_check};
use crate::combat::actions::{ActionOutcome, ShoveMode, Turn};
use crate::combat::spatial::reach_ft;
use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::character::Character;
use crate::model::encounter::ActionCost;

pub use super::holds::{
    end_grapple, escape_dc_of, grapple_source, grapple_source_dc, grappler_of, held_by, held_source,
};

/// Grapple and shove replace one attack of the Attack action: the first begins the action
/// (the economy spent it), later ones use up an attack left.
fn use_attack(turn: &mut Turn<'_>, actor: &Character) {
    if turn.cost != ActionCost::Action {
        return;
    }
    let per = crate::combat::actions::attack::attacks_per_action(actor);
    if let Some(cb) = turn.encounter.combatant_mut(&actor.id) {
        if cb.economy.attacks_left > 0 {
            cb.economy.attacks_left -= 1;
        } else {
            cb.economy.attacks_left = per.saturating_sub(1);
        }
        cb.economy.attacked = true;
    }
}

/// A skill check request for `who` in a contest, with the Help action's advantage.
fn check(turn: &mut Turn<'_>, who: &Character, skill: Skill, caller: bool) -> D20Request {
    let mut r = D20Request::new(D20Test::SkillCheck { skill }).labelled(format!(
        "{} {}",
        who.name,
        skill_label(skill)
    ));
    if let Some(why) = take_helped_check(&mut turn.encounter, &who.id) {
        r = r.advantage(why);
    }
    if caller {
        r = with_caller(r, turn);
    }
    r
}

fn skill_label(s: Skill) -> &'static str {
    match s {
        Skill::Acrobatics => "Acrobatics",
        _ => "Athletics",
    }
}

/// The better of Athletics and Acrobatics for resisting.
fn better_resist(c: &Character) -> Skill {
    let stats = c.effective();
    let b = |s| d20::roll_stat_for(&stats, &D20Test::SkillCheck { skill: s }).bonus;
    if b(Skill::Acrobatics) > b(Skill::Athletics) {
        Skill::Acrobatics
    } else {
        Skill::Athletics
    }
}

/// Checks the size limit and reach shared by grapple and shove.
fn can_reach(turn: &mut Turn<'_>, a: &Character, t: &Character, what: &str) -> Result<()> {
    rule(
        turn,
        size_rank(t.size) <= size_rank(a.size) + 1,
        format!(
            "{} is too large for {} to {what} (at most one size larger)",
            t.name, a.name
        ),
    )?;
    let d = distance(&turn.encounter, &a.id, &t.id)?;
    let reach = reach_ft(a);
    rule(
        turn,
        d <= reach,
        format!(
            "{} is {d} ft away, beyond {}'s reach of {reach} ft",
            t.name, a.name
        ),
    )
}

/// A grapple needs a free hand (SRD Grappling: "Using at least one free hand, you try to seize
/// the target"): of `a`'s two hands, those its main- and off-hand items take (a two-handed
/// weapon both) and those holding creatures it already grapples are not free. Refused, unless
/// forced, with what it holds and how to free a hand. A creature with a stat block (a monster,
/// or a character in another form) is not checked: its grapples are its stat block's, and
/// many have no hands at all (a crab's claw, a constrictor snake's coils).
fn free_hand(call: &Call<'_>, turn: &mut Turn<'_>, a: &Character) -> Result<()> {
    if a.action_block().is_some() {
        return Ok(());
    }
    let mut holds: Vec<String> = crate::model::gear::held_in_hands(a)
        .into_iter()
        .map(|(item, hand, n)| match n {
            2 => format!("{item} in both hands"),
            _ => format!("{item} in the {hand}"),
        })
        .collect();
    let mut used: u8 = crate::model::gear::held_in_hands(a)
        .iter()
        .map(|(_, _, n)| n)
        .sum();
    for id in &turn.encounter.grappled {
        let held = crate::combat::sheet(call, id)?;
        if held
            .conditions
            .iter()
            .any(|e| grappler_of(e) == Some(a.id.as_str()))
        {
            used += 1;
            holds.push(format!("a grip on {}", held.name));
        }
    }
    turn.rule(
        used < 2,
        format!(
            "{} needs a free hand to grapple and has none ({}): free one first, with manage_inventory unequip (dropping an item costs nothing; stowing it is the turn's free object interaction) or by letting go of a creature it grapples (manage_condition remove grappled)",
            a.name,
            holds.join(", ")
        ),
    )
}

/// Grapple: contested Athletics; on a win the target is grappled (source the grappler; its
/// speed becomes 0). Against its own grappler, the actor tries to escape instead (its better of
/// Athletics and Acrobatics against the grappler's Athletics; an action).
pub fn grapple(call: &mut Call<'_>, turn: &mut Turn<'_>) -> Result<ActionOutcome> {
    let a = actor(turn, "grapple")?.clone();
    if turn.req.target.is_empty() {
        return Err(EngineError::invalid(
            "targetId",
            "name the creature to grapple (or, to escape, the grappler)",
        ));
    }
    let (_, mut t) = resolve(call, &turn.encounter, &turn.req.target.clone(), "targetId")?;
    if t.id == a.id {
        return Err(EngineError::invalid(
            "targetId",
            "a creature cannot grapple itself",
        ));
    }
    let escaping = a
        .conditions
        .iter()
        .any(|e| grappler_of(e) == Some(t.id.as_str()));
    if escaping {
        return escape(call, turn, a, t);
    }
    if t.dead {
        return Err(EngineError::Rule(format!("{} is dead", t.name)));
    }
    if t.conditions
        .iter()
        .any(|e| grappler_of(e) == Some(a.id.as_str()))
    {
        return Err(EngineError::Rule(format!(
            "{} already grapples {}",
            a.name, t.name
        )));
    }
    can_reach(turn, &a, &t, "grapple")?;
    free_hand(call, turn, &a)?;
    use_attack(turn, &a);
    // A grapple is a special melee attack (SRD "Grappling"): it counts as attacking the target.
    turn.encounter.mark_attack(&a.id, &t.id);
    let resist = better_resist(&t);
    let ra = check(turn, &a, Skill::Athletics, true);
    let rt = check(turn, &t, resist, false);
    let out = d20::roll_contest((&a.effective(), &ra), (&t.effective(), &rt), call.rng()?);
    call.record_roll(&out);
    let mut lines = vec![out.summary()];
    let headline = match out.winner {
        ContestWinner::First => {
            let line = add_condition(call, &mut t, Condition::Grappled, grapple_source(&a), None)?;
            crate::combat::put_sheet(call, &t)?;
            turn.encounter.grappled.insert(t.id.clone());
            if line.contains("immune") {
                format!("{} wins the grapple, but {line}.", a.name)
            } else {
                lines.push(format!("{}'s speed is 0 while grappled", t.name));
                format!(
                    "{} grapples {}: {} is grappled (speed 0).",
                    a.name, t.name, t.name
                )
            }
        }
        ContestWinner::Second => format!("{} fails to grapple {}.", a.name, t.name),
        ContestWinner::Tie => format!(
            "{} fails to grapple {}: a tie keeps things as they were.",
            a.name, t.name
        ),
    };
    Ok(ActionOutcome {
        headline,
        lines,
        details: json!({"contest": out}),
        ..Default::default()
    })
}

/// Escaping a grapple: the grappled actor's better of Athletics and Acrobatics against the
/// grappler's Athletics; a win removes the grappled condition.
fn escape(
    call: &mut Call<'_>,
    turn: &mut Turn<'_>,
    mut a: Character,
    grappler: Character,
) -> Result<ActionOutcome> {
    // Escaping takes an action of its own, not an attack of the Attack action.
    if turn.cost == ActionCost::Action
        && let Some(cb) = turn.encounter.combatant_mut(&a.id)
        && cb.economy.attacks_left > 0
    {
        let why = format!(
            "{} is in the middle of the Attack action; escaping a grapple takes an action",
            a.name
        );
        rule(turn, false, why)?;
    }
    let skill = better_resist(&a);
    let ra = check(turn, &a, skill, true);
    // A stat block's grapple gives its escape DC: a check against it, not a contest.
    let dc = a
        .conditions
        .iter()
        .filter(|e| grappler_of(e) == Some(grappler.id.as_str()))
        .find_map(escape_dc_of);
    let (escaped, summary, details) = match dc {
        Some(dc) => {
            let out = d20::roll_d20_test(&a.effective(), &ra.dc(dc), call.rng()?);
            call.record_roll(&out);
            let ok = out.success == Some(true);
            (
                ok,
                out.summary(),
                json!({"check": out, "escapeDc": dc, "escape": true}),
            )
        }
        None => {
            let rg = check(turn, &grappler, Skill::Athletics, false);
            let out = d20::roll_contest(
                (&a.effective(), &ra),
                (&grappler.effective(), &rg),
                call.rng()?,
            );
            call.record_roll(&out);
            (
                out.winner == ContestWinner::First,
                out.summary(),
                json!({"contest": out, "escape": true}),
            )
        }
    };
    let mut lines = vec![summary];
    let headline = if escaped {
        let tied: Vec<String> = a
            .conditions
            .iter()
            .filter(|e| held_by(e) == Some(grappler.id.as_str()))
            .map(|e| e.condition.to_string())
            .collect();
        end_grapple(&mut a, &grappler.id);
        if !tied.is_empty() {
            lines.push(format!(
                "{} is no longer {} (it lasted while grappled)",
                a.name,
                tied.join(" or ")
            ));
        }
        crate::combat::put_sheet(call, &a)?;
        turn.actor = Some(a.clone());
        format!("{} escapes {}'s grapple.", a.name, grappler.name)
    } else {
        format!("{} fails to escape {}'s grapple.", a.name, grappler.name)
    };
    Ok(ActionOutcome {
        headline,
        lines,
        details,
        ..Default::default()
    })
}

/// Shove: contested Athletics; on a win the target is knocked prone (`shoveMode: prone`, the
/// default) or pushed 5 ft straight away from the actor when that square is free.
pub fn shove(call: &mut Call<'_>, turn: &mut Turn<'_>) -> Result<ActionOutcome> {
    let a = actor(turn, "shove")?.clone();
    if turn.req.target.is_empty() {
        return Err(EngineError::invalid(
            "targetId",
            "name the creature to shove",
        ));
    }
    let (_, mut t) = resolve(call, &turn.encounter, &turn.req.target.clone(), "targetId")?;
    if t.id == a.id {
        return Err(EngineError::invalid(
            "targetId",
            "a creature cannot shove itself",
        ));
    }
    if t.dead {
        return Err(EngineError::Rule(format!("{} is dead", t.name)));
    }
    let mode = turn.req.shove_mode.unwrap_or_default();
    can_reach(turn, &a, &t, "shove")?;
    use_attack(turn, &a);
    // A shove is a special melee attack (SRD "Shoving a Creature"): it attacks the target.
    turn.encounter.mark_attack(&a.id, &t.id);
    let resist = better_resist(&t);
    let ra = check(turn, &a, Skill::Athletics, true);
    let rt = check(turn, &t, resist, false);
    let out = d20::roll_contest((&a.effective(), &ra), (&t.effective(), &rt), call.rng()?);
    call.record_roll(&out);
    let mut lines = vec![out.summary()];
    let mut moved_to = None;
    let headline = match (out.winner, mode) {
        (ContestWinner::First, ShoveMode::Prone) => {
            let line = add_condition(
                call,
                &mut t,
                Condition::Prone,
                format!("shoved by {}", a.name),
                None,
            )?;
            crate::combat::put_sheet(call, &t)?;
            if line.contains("immune") {
                format!("{} wins the shove, but {line}.", a.name)
            } else {
                format!("{} shoves {} prone.", a.name, t.name)
            }
        }
        (ContestWinner::First, ShoveMode::Push) => {
            let to = push_square(turn, &a, &t)?;
            match turn.encounter.map.move_creature(&t.id, to) {
                Ok(()) => {
                    moved_to = Some(to);
                    format!("{} shoves {} 5 ft away, to {to}.", a.name, t.name)
                }
                Err(e) => {
                    lines.push(format!("{to} is not free: {e}"));
                    format!(
                        "{} wins the shove, but {} cannot be pushed: {to} is blocked.",
                        a.name, t.name
                    )
                }
            }
        }
        (ContestWinner::Second, _) => format!("{} fails to shove {}.", a.name, t.name),
        (ContestWinner::Tie, _) => format!(
            "{} fails to shove {}: a tie keeps things as they were.",
            a.name, t.name
        ),
    };
    Ok(ActionOutcome {
        headline,
        lines,
        details: json!({"contest": out, "mode": mode, "movedTo": moved_to}),
        ..Default::default()
    })
}

/// The square 5 ft straight away from the shover: the target's anchor moved one step along
/// the sign of the vector between the two spaces' centres.
fn push_square(turn: &Turn<'_>, a: &Character, t: &Character) -> Result<Position> {
    let map = &turn.encounter.map;
    let ca = map.require_creature(&a.id)?;
    let ct = map.require_creature(&t.id)?;
    let centre = |p: Position, n: i32| (2 * p.x + n, 2 * p.y + n);
    let na = tabletop_grid::size_squares(ca.size);
    let nt = tabletop_grid::size_squares(ct.size);
    let (ax, ay) = centre(ca.position, na);
    let (tx, ty) = centre(ct.position, nt);
    let (dx, dy) = ((tx - ax).signum(), (ty - ay).signum());
    if dx == 0 && dy == 0 {
        return Err(EngineError::Rule(format!(
            "{} and {} share a square; there is no direction to push",
            a.name, t.name
        )));
    }
    Ok(ct.position.offset(dx, dy))
}

/// Ends every grapple whose grappled creature is dead or off the map, or whose grappler can no
/// longer hold on: it is dead, incapacitated, out of
/// the fight or off the map, or its target is beyond its reach (moved away or pushed). Returns
/// one line per grapple ended.
pub fn release_broken_grapples(
    call: &mut Call<'_>,
    enc: &mut crate::model::encounter::Encounter,
) -> Result<Vec<String>> {
    let mut lines = Vec::new();
    // Only the combatants a grapple of this fight has held can be grappled by one.
    let held_ids: Vec<String> = enc.grappled.iter().cloned().collect();
    for id in held_ids {
        let Some(cb) = enc.combatant(&id).filter(|c| !c.removed).cloned() else {
            enc.grappled.remove(&id);
            continue;
        };
        let mut held = crate::combat::sheet(call, &cb.character_id)?;
        // What lasted while a grapple held ends with it (a grapple the DM removed by hand).
        let orphans: Vec<usize> = held
            .conditions
            .iter()
            .enumerate()
            .filter(|(_, e)| {
                held_by(e)
                    .is_some_and(|g| !held.conditions.iter().any(|x| grappler_of(x) == Some(g)))
            })
            .map(|(i, _)| i)
            .collect();
        if !orphans.is_empty() {
            for i in orphans.iter().rev() {
                let e = held.conditions.remove(*i);
                lines.push(format!(
                    "{} is no longer {}: the grapple it lasted for has ended",
                    held.name, e.condition
                ));
            }
            crate::combat::put_sheet(call, &held)?;
        }
        if !held.conditions.iter().any(|e| grappler_of(e).is_some()) {
            enc.grappled.remove(&id);
            continue;
        }
        let before = held.conditions.len();
        let mut freed = Vec::new();
        // The held creature itself may be what ended it: dead (its body is off the map) or
        // gone from the map.
        let held_gone = if held.dead {
            Some("it is dead")
        } else if enc.map.creature(&cb.character_id).is_none() {
            Some("it is off the map")
        } else {
            None
        };
        for entry in &held.conditions {
            let Some(grappler_id) = grappler_of(entry) else {
                continue;
            };
            if let Some(why) = &held_gone {
                freed.push((
                    entry.source.clone(),
                    format!("{} is no longer grappled: {why}", held.name),
                ));
                continue;
            }
            let grappler = call.tx_ref().character(call.campaign(), grappler_id)?;
            let in_fight = enc.combatant(grappler_id).is_some_and(|g| !g.removed);
            let why = match &grappler {
                None => Some("is gone".to_string()),
                Some(g) if g.dead => Some("is dead".to_string()),
                Some(_) if !in_fight => Some("has left the fight".to_string()),
                Some(g) if crate::combat::actions::economy::incapacitated(g) => {
                    Some("is incapacitated".to_string())
                }
                Some(g) => match enc.map.creature_distance_ft(
                    grappler_id,
                    &cb.character_id,
                    crate::combat::actions::attack::METRIC,
                ) {
                    Ok(d) if d <= reach_ft(g) => None,
                    Ok(d) => Some(format!(
                        "is {d} ft away, beyond its {} ft reach",
                        reach_ft(g)
                    )),
                    Err(_) => Some("is off the map".to_string()),
                },
            };
            if let Some(why) = why {
                let name = grappler
                    .as_ref()
                    .map_or(grappler_id.to_string(), |g| g.name.clone());
                freed.push((
                    entry.source.clone(),
                    format!("{} is no longer grappled: {name} {why}", held.name),
                ));
            }
        }
        if freed.is_empty() {
            continue;
        }
        let ended: Vec<String> = held
            .conditions
            .iter()
            .filter(|e| freed.iter().any(|(source, _)| *source == e.source))
            .filter_map(|e| grappler_of(e).map(str::to_string))
            .collect();
        held.conditions.retain(|e| {
            !freed
                .iter()
                .any(|(source, _)| *source == e.source && e.condition == Condition::Grappled)
        });
        for g in &ended {
            end_grapple(&mut held, g);
        }
        if held.conditions.len() != before {
            crate::combat::put_sheet(call, &held)?;
            lines.extend(freed.into_iter().map(|(_, l)| l));
        }
        if !held.conditions.iter().any(|e| grappler_of(e).is_some()) {
            enc.grappled.remove(&id);
        }
    }
    Ok(lines)
}
