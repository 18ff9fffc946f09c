//! Move, dash and disengage: movement within the turn's budget along a grid path, standing up
//! from prone, and the opportunity attacks the engine resolves when a mover leaves a hostile's
//! reach.
//!
//! The budget is the effective speed (0 when grappled or restrained; exhaustion and effects
//! apply) plus what dash added, minus what was used. A path comes from `to` (A* on the grid:
//! walls impassable, difficult terrain and water double, allies passable but not to stop in,
//! hostiles only when two sizes apart) or from an explicit `path`, checked square by square.

use serde::Serialize;
use tabletop_grid::geometry::size_rank;
use tabletop_grid::{BattleMap, MoveOptions, Position, Terrain, Threat};
use tabletop_rules::Condition;

use super::attack::{METRIC, StrikeResult};
use super::profile::attack_profile;
use super::reactions::OaChoice;
use super::{ActionOutcome, ActionType, Turn};
use crate::combat;
use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::character::Character;
use crate::model::encounter::Encounter;

/// Runs move, dash or disengage.
pub fn run(call: &mut Call<'_>, turn: &mut Turn<'_>, t: ActionType) -> Result<ActionOutcome> {
    let Some(actor) = turn.actor.clone() else {
        return Err(EngineError::invalid(
            "actorId",
            "say who moves (actorId or actorName)",
        ));
    };
    let step = step_of_the_wind(call, turn, &actor, t)?;
    let mut out = match t {
        ActionType::Disengage => {
            if let Some(cb) = turn.encounter.combatant_mut(&actor.id) {
                cb.flags.disengaged = true;
            }
            ActionOutcome {
                headline: format!(
                    "{} disengages: its movement provokes no opportunity attacks this turn.",
                    actor.name
                ),
                ..Default::default()
            }
        }
        ActionType::Dash => dash(turn, &actor)?,
        _ => return walk(call, turn, &actor),
    };
    out.lines.extend(step);
    Ok(out)
}

/// A bonus-action Dash or Disengage asked as such (`execute_action dash`/`disengage`) that only
/// Step of the Wind allows (the cost check named it): its 1 ki is spent here, and the lines say
/// so and that the jump distance doubles.
fn step_of_the_wind(
    call: &mut Call<'_>,
    turn: &mut Turn<'_>,
    actor: &Character,
    t: ActionType,
) -> Result<Vec<String>> {
    use super::costs::{STEP_OF_THE_WIND, alternative, step_of_the_wind};
    use crate::model::encounter::ActionCost;
    if !matches!(t, ActionType::Dash | ActionType::Disengage)
        || turn.req.action_type != Some(t)
        || turn.cost != ActionCost::BonusAction
    {
        return Ok(Vec::new());
    }
    let Some(cb) = turn.encounter.combatant(&actor.id).cloned() else {
        return Ok(Vec::new());
    };
    let why = alternative(call, actor, &cb, turn.req, t, ActionCost::BonusAction);
    let Some(spec) = step_of_the_wind(actor).filter(|_| why.as_deref() == Some(STEP_OF_THE_WIND))
    else {
        return Ok(Vec::new());
    };
    let mut me = actor.clone();
    let mut lines = vec![format!("{} uses {}", me.name, spec.name)];
    let force = turn.req.force;
    if let Some(line) =
        super::tactics::feature_uses::spend(&mut me, &spec, 1, force, &mut turn.forced)?
    {
        lines.push(line);
    }
    lines.push(format!(
        "{}: its jump distance is doubled for the turn (no automation for jumps: the DM applies it)",
        spec.name
    ));
    combat::put_sheet(call, &me)?;
    turn.actor = Some(me);
    Ok(lines)
}

/// The creature's walking speed now, with why it is 0 when it is.
pub fn current_speed(c: &Character) -> (u32, Vec<String>) {
    let e = c.effective();
    if e.is_speed_zero() {
        return (0, e.speed_zero.clone());
    }
    if let Some((_, ft)) = innate_mode(c) {
        return (ft, Vec::new());
    }
    (u32::try_from(e.speed.value.max(0)).unwrap_or(0), Vec::new())
}

/// The stat block's own fly (else swim) speed of a creature that has no walking speed (a
/// ghost: "speed 0 ft., fly 40 ft. (hover)"): it moves that way. `None` when it walks, or
/// when its speed is 0 by a condition.
pub fn innate_mode(c: &Character) -> Option<(&'static str, u32)> {
    let e = c.effective();
    if e.is_speed_zero() || e.speed.value > 0 {
        return None;
    }
    let speeds = &c.action_block()?.other_speeds;
    ["fly", "swim"]
        .into_iter()
        .find_map(|m| speeds.get(m).filter(|ft| **ft > 0).map(|ft| (m, *ft)))
}

fn dash(turn: &mut Turn<'_>, actor: &Character) -> Result<ActionOutcome> {
    // A bonus-action Dash (Cunning Action) was checked with the cost.
    let forced = Vec::new();
    let (speed, why) = current_speed(actor);
    let Some(cb) = turn.encounter.combatant_mut(&actor.id) else {
        return Err(EngineError::Rule(
            "internal: the actor left the order".into(),
        ));
    };
    cb.economy.movement_bonus_ft += speed;
    let left = (speed_total(actor, &cb.economy)).saturating_sub(cb.economy.movement_used_ft);
    let mut headline = format!(
        "{} dashes: +{speed} ft of movement this turn ({left} ft left).",
        actor.name
    );
    if speed == 0 {
        headline.push_str(&format!(" Its speed is 0 ({}).", why.join(", ")));
    }
    Ok(ActionOutcome {
        headline,
        forced,
        ..Default::default()
    })
}

fn speed_total(c: &Character, e: &crate::model::encounter::Economy) -> u32 {
    current_speed(c).0 + e.movement_bonus_ft
}

fn terrain_label(map: &BattleMap, p: Position) -> String {
    map.terrain(p)
        .map(Terrain::describe)
        .unwrap_or_else(|_| "off the map".into())
}

/// The cost of one step of an explicit path, or why it cannot be taken.
fn step_cost(
    map: &BattleMap,
    from: Position,
    to: Position,
    opts: &MoveOptions,
    mover_size: tabletop_rules::Size,
) -> std::result::Result<u32, String> {
    let (dx, dy) = (to.x - from.x, to.y - from.y);
    if (dx, dy) == (0, 0) || dx.abs() > 1 || dy.abs() > 1 {
        return Err(format!(
            "{to} is not adjacent to {from}; each square of a path must touch the previous one"
        ));
    }
    if !map.contains(to) {
        return Err(format!("{to} is off the map"));
    }
    if map.blocks_movement(to) {
        return Err(format!("{to} is blocked ({})", terrain_label(map, to)));
    }
    if dx != 0 && dy != 0 {
        let a = Position::new(to.x, from.y);
        let b = Position::new(from.x, to.y);
        if map.blocks_movement(a) && map.blocks_movement(b) {
            return Err(format!(
                "the diagonal step {from} → {to} squeezes between two blocked squares"
            ));
        }
    }
    let mut double = false;
    for c in map.creatures_at(to) {
        if Some(&c.id) == opts.mover.as_ref() {
            continue;
        }
        let nimble = opts.through_larger && size_rank(c.size) > size_rank(mover_size);
        if opts.hostile_ids.contains(&c.id)
            && (size_rank(c.size) - size_rank(mover_size)).abs() < 2
            && !nimble
        {
            return Err(format!(
                "{to} is held by a hostile creature ({}); go around it",
                c.id
            ));
        }
        double = true;
    }
    match map.terrain(to) {
        Ok(Terrain::Difficult) | Ok(Terrain::LowWall { .. }) => double = true,
        Ok(Terrain::Water) if !opts.swim_speed => double = true,
        _ => {}
    }
    let mut cost = if double { 10 } else { 5 };
    // A Large or bigger mover whose space meets walls squeezes through the space one size
    // smaller: each foot costs 1 extra foot; two sizes smaller does not fit.
    let n = tabletop_grid::geometry::size_squares(mover_size);
    if n > 1 {
        let hits = |k: i32| {
            (to.y..to.y + k).any(|y| {
                (to.x..to.x + k).any(|x| {
                    let q = Position::new(x, y);
                    !map.contains(q) || map.blocks_movement(q)
                })
            })
        };
        if hits(n) {
            if hits(n - 1) {
                return Err(format!(
                    "a {} creature's space at {to} runs into walls even squeezed (one size smaller)",
                    mover_size
                ));
            }
            cost += 5;
        }
    }
    let rise = map.ground_z(to) - map.ground_z(from);
    if rise > 0 {
        cost += 10 * rise as u32;
    }
    Ok(cost)
}

/// Whether `c` may move through larger creatures' spaces (Halfling Nimbleness).
pub fn moves_through_larger(c: &Character) -> bool {
    c.derived
        .as_ref()
        .is_some_and(|d| !d.move_through_larger.is_empty())
}

fn hostile_ids(enc: &Encounter, id: &str) -> Vec<String> {
    let Some(me) = enc.combatant(id) else {
        return Vec::new();
    };
    enc.order
        .iter()
        .filter(|c| !c.removed && c.side.hostile_to(me.side))
        .map(|c| c.character_id.clone())
        .collect()
}

/// The path a move request asks for, with each step's cost.
fn plan(
    enc: &Encounter,
    actor: &Character,
    from: Position,
    req: &super::ActionRequest,
    opts: &MoveOptions,
    forced: &mut Vec<String>,
) -> Result<(Vec<Position>, Vec<u32>)> {
    let map = &enc.map;
    let size = map.creature(&actor.id).map_or(actor.size, |c| c.size);
    if !req.path.is_empty() {
        let mut squares = vec![from];
        let given: Vec<Position> = req
            .path
            .iter()
            .map(|p| Position::new_3d(p.x, p.y, map.ground_z(*p)))
            .collect();
        let rest = if given
            .first()
            .is_some_and(|p| p.x == from.x && p.y == from.y)
        {
            &given[1..]
        } else {
            &given[..]
        };
        let mut costs = Vec::new();
        for &p in rest {
            let prev = squares[squares.len() - 1];
            match step_cost(map, prev, p, opts, size) {
                Ok(c) => costs.push(c),
                Err(why) => {
                    if !req.force || !map.contains(p) {
                        return Err(EngineError::invalid(
                            "path",
                            format!(
                                "{} cannot take that path: {why}{}",
                                actor.name,
                                if map.contains(p) {
                                    " (pass force: true to override as the game master)"
                                } else {
                                    ""
                                }
                            ),
                        ));
                    }
                    forced.push(why);
                    costs.push(5);
                }
            }
            squares.push(p);
        }
        let last = squares[squares.len() - 1];
        if !map.can_stop_at(last, opts)? {
            return Err(EngineError::invalid(
                "path",
                format!(
                    "{} cannot end its move at {last}: another creature is there; stop elsewhere",
                    actor.name
                ),
            ));
        }
        return Ok((squares, costs));
    }
    let Some(to) = req.to else {
        return Err(EngineError::invalid(
            "to",
            "say where to move: to {x, y} or path [{x, y}, …]",
        ));
    };
    let to = Position::new_3d(to.x, to.y, map.ground_z(to));
    if !map.contains(to) {
        return Err(EngineError::invalid(
            "to",
            format!(
                "{to} is off the map ({}×{} squares, x 0–{}, y 0–{})",
                map.width(),
                map.height(),
                map.width() - 1,
                map.height() - 1
            ),
        ));
    }
    if to.x == from.x && to.y == from.y {
        return Ok((vec![from], Vec::new()));
    }
    let found = map.find_path(from, to, opts).map_err(|e| {
        EngineError::invalid("to", format!("{} cannot move to {to}: {e}", actor.name))
    })?;
    match found {
        Some(p) => Ok((p.squares, p.step_costs_ft)),
        None => {
            let why = format!(
                "no path for {} from {from} to {to}: walls or hostile creatures block every route",
                actor.name
            );
            if !req.force {
                return Err(EngineError::Rule(format!(
                    "{why} (pass force: true to place it there as the game master)"
                )));
            }
            forced.push(why);
            let d = tabletop_grid::geometry::distance_ft(from, to, METRIC);
            Ok((vec![from, to], vec![d]))
        }
    }
}

use super::vision::can_see;

/// Who may make an opportunity attack on `mover` now, with the reach of the melee weapon it
/// would strike with. Both the move action (which resolves the attacks) and
/// `calculate_movement` (which warns of them) use this, so they agree.
pub fn threats(call: &Call<'_>, enc: &Encounter, mover: &Character) -> Result<Vec<Threat>> {
    threats_by_reaction(call, enc, mover, false)
}

/// [`threats`], or (`spent`) the hostiles that would threaten `mover` but have used their
/// reaction, whom a move is told about rather than attacked by.
fn threats_by_reaction(
    call: &Call<'_>,
    enc: &Encounter,
    mover: &Character,
    spent: bool,
) -> Result<Vec<Threat>> {
    let mut out = Vec::new();
    for id in hostile_ids(enc, &mover.id) {
        let Some(cb) = enc.combatant(&id) else {
            continue;
        };
        if cb.economy.reaction != spent || cb.surprised || enc.map.creature(&id).is_none() {
            continue;
        }
        let h = combat::sheet(call, &id)?;
        if h.dead || h.effective().is_incapacitated() || !can_see(enc, &h, mover) {
            continue;
        }
        let reach_ft = attack_profile(call, &h, None, None, true)
            .ok()
            .and_then(|p| p.reach_ft)
            .unwrap_or(5);
        out.push(Threat { id, reach_ft });
    }
    Ok(out)
}

/// What a move did.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
struct MoveDetails {
    path: Vec<Position>,
    cost_ft: u32,
    budget_ft: u32,
    left_ft: u32,
    stood_up: bool,
    stopped_at: Option<Position>,
    opportunity_attacks: Vec<StrikeResult>,
}

fn walk(call: &mut Call<'_>, turn: &mut Turn<'_>, actor: &Character) -> Result<ActionOutcome> {
    let req = turn.req;
    let id = actor.id.clone();
    let Some(from) = turn.encounter.position_of(&id) else {
        return Err(EngineError::Rule(format!(
            "{} is not on the battle map (dead or removed) and cannot move",
            actor.name
        )));
    };
    let mut forced = Vec::new();
    let mut lines = Vec::new();
    let mut actor = actor.clone();
    let (speed, zero_why) = current_speed(&actor);
    // A spell's fly speed (Fly, Gaseous Form): the mover flies, over difficult terrain.
    let spell_fly = crate::magic::wards::spell_fly_ft(&actor).filter(|_| speed > 0);
    let speed = spell_fly.map_or(speed, |f| f.max(speed));
    let economy = turn
        .encounter
        .combatant(&id)
        .map(|c| c.economy.clone())
        .unwrap_or_default();
    let budget = (speed + economy.movement_bonus_ft).saturating_sub(economy.movement_used_ft);
    let mut used = 0u32;
    // Stand up first: half the speed.
    let prone =
        actor.has_condition(Condition::Prone) && !actor.has_condition(Condition::Unconscious);
    let mut stood_up = false;
    if prone {
        let cost = speed / 2;
        if speed == 0 || cost > budget {
            let why = if speed == 0 {
                format!(
                    "{} is prone and its speed is 0 ({}); it cannot stand up",
                    actor.name,
                    zero_why.join(", ")
                )
            } else {
                format!(
                    "{} is prone: standing up costs {cost} ft but it has {budget} ft of movement left",
                    actor.name
                )
            };
            if !req.force {
                return Err(EngineError::Rule(format!(
                    "{why} (pass force: true to override as the game master)"
                )));
            }
            forced.push(why);
        }
        actor.conditions.retain(|e| e.condition != Condition::Prone);
        combat::put_sheet(call, &actor)?;
        call.record_change("character", &id, format!("{} stands up", actor.name));
        used += cost;
        stood_up = true;
        lines.push(format!(
            "{} stands up from prone first (costs {cost} ft; no automation for crawling instead, \
             1 extra foot per foot: the DM decides, e.g. with force).",
            actor.name
        ));
    }
    let swim = actor
        .action_block()
        .is_some_and(|b| b.other_speeds.contains_key("swim"))
        || crate::magic::wards::walks_on_water(&actor).is_some();
    let innate_fly = innate_mode(&actor)
        .filter(|(m, _)| *m == "fly")
        .map(|(_, ft)| ft);
    if let Some(f) = spell_fly.or(innate_fly) {
        lines.push(format!(
            "{} flies (fly speed {f} ft{}): difficult terrain and water cost nothing extra",
            actor.name,
            if spell_fly.is_none() {
                "; it has no walking speed"
            } else {
                ""
            }
        ));
    }
    let opts = MoveOptions {
        metric: METRIC,
        mover: Some(id.clone()),
        size: None,
        hostile_ids: hostile_ids(&turn.encounter, &id),
        swim_speed: swim,
        flying: spell_fly.is_some() || innate_fly.is_some(),
        ignore_difficult_terrain: crate::magic::wards::ignores_difficult_terrain(&actor).is_some(),
        through_larger: moves_through_larger(&actor),
    };
    let (squares, mut costs) = plan(&turn.encounter, &actor, from, req, &opts, &mut forced)?;
    lines.extend(crate::combat::auras::slowed_costs(
        &turn.encounter,
        &id,
        &squares,
        &mut costs,
    ));
    // Fear holds the frightened back; a grappler drags what it holds at half speed.
    if let Some(why) = super::move_rules::fear(&turn.encounter, &actor, &squares) {
        if !req.force {
            return Err(EngineError::Rule(format!(
                "{why} (pass force: true to override as the game master)"
            )));
        }
        forced.push(why);
    }
    let mut held = super::move_rules::dragged(call, &turn.encounter, &actor)?;
    let my_size = turn
        .encounter
        .map
        .creature(&id)
        .map_or(actor.size, |c| c.size);
    let plain: u32 = costs.iter().sum();
    let dragging = squares.len() >= 2 && super::move_rules::halves(my_size, &held);
    if dragging && used + plain.saturating_mul(2) > budget && used + plain <= budget {
        // Too far to drag: the grappler moves alone and lets go (the grapple breaks below).
        let names: Vec<&str> = held.iter().map(|h| h.1.as_str()).collect();
        lines.push(format!(
            "{} lets go of {}: dragging would cost {} ft and it has {} ft left.",
            actor.name,
            names.join(", "),
            plain.saturating_mul(2),
            budget.saturating_sub(used)
        ));
        held.clear();
    } else if dragging {
        for c in costs.iter_mut() {
            *c = c.saturating_mul(2);
        }
        let names: Vec<&str> = held.iter().map(|h| h.1.as_str()).collect();
        lines.push(format!(
            "{} drags {} (grappled): every foot of movement costs 2 (half speed).",
            actor.name,
            names.join(", ")
        ));
    }
    let cost: u32 = costs.iter().sum();
    if used + cost > budget {
        let why = format!(
            "moving {} to {} costs {cost} ft{} but it has {} ft of movement left (speed {speed}{}{}, used {})",
            actor.name,
            squares[squares.len() - 1],
            if stood_up { " after standing up" } else { "" },
            budget.saturating_sub(used),
            if speed == 0 {
                format!(": {}", zero_why.join(", "))
            } else {
                String::new()
            },
            if economy.movement_bonus_ft > 0 {
                format!(", +{} from dash", economy.movement_bonus_ft)
            } else {
                String::new()
            },
            economy.movement_used_ft + used
        );
        if !req.force {
            return Err(EngineError::Rule(format!(
                "{why}; move less far or dash (pass force: true to override as the game master)"
            )));
        }
        forced.push(why);
    }
    // A hidden mover that walks into plain view is revealed there.
    let revealed = super::reveal::along(call, &turn.encounter, &actor, &squares)?;
    if let Some((_, line)) = &revealed {
        if let Some(cb) = turn.encounter.combatant_mut(&id) {
            cb.flags.hidden = None;
        }
        lines.push(line.clone());
    }
    // Opportunity attacks where the path leaves a hostile's reach.
    let disengaged = turn
        .encounter
        .combatant(&id)
        .is_some_and(|c| c.flags.disengaged);
    let risks = if disengaged || squares.len() < 2 {
        Vec::new()
    } else {
        let th = threats(call, &turn.encounter, &actor)?;
        // Hostiles whose reach the path leaves but whose reaction is spent: said, not silent
        // (one that spent it answering this very move, which goes on, is not told of again).
        let spent = threats_by_reaction(call, &turn.encounter, &actor, true)?;
        let mut told = Vec::new();
        for r in turn
            .encounter
            .map
            .opportunity_attack_risks(&squares, &id, &spent, METRIC)?
        {
            if !told.contains(&r.hostile_id)
                && !req.reactions_decided.contains(&r.hostile_id)
                && let Some(h) = turn.encounter.combatant(&r.hostile_id)
            {
                lines.push(format!(
                    "{} leaves {}'s reach, which has already used its reaction this round: no opportunity attack",
                    actor.name, h.name
                ));
                told.push(r.hostile_id.clone());
            }
        }
        turn.encounter
            .map
            .opportunity_attack_risks(&squares, &id, &th, METRIC)?
    };
    // Squares left while still hidden provoke nothing; a dragged creature comes along and
    // is never left behind.
    let risks: Vec<_> = risks
        .into_iter()
        .filter(|r| {
            revealed
                .as_ref()
                .is_none_or(|(k, _)| r.step.saturating_sub(1) >= *k)
        })
        .filter(|r| !held.iter().any(|h| h.0 == r.hostile_id))
        .collect();
    let mut oas = Vec::new();
    let mut stopped_at = None;
    let mut paused_at = None;
    let mut spent = cost;
    let mut at = from;
    for risk in &risks {
        if risk.from != at && turn.encounter.map.move_creature(&id, risk.from).is_ok() {
            at = risk.from;
        }
        let still_can = turn
            .encounter
            .combatant(&risk.hostile_id)
            .is_some_and(|c| !c.economy.reaction);
        if !still_can || req.reactions_decided.contains(&risk.hostile_id) {
            continue;
        }
        // The hostile's reaction policy decides (a readied action keeps the reaction).
        match super::reactions::opportunity_policy(&turn.encounter, &risk.hostile_id, &actor.name) {
            OaChoice::Skip(line) => {
                lines.push(line);
                continue;
            }
            OaChoice::Ask(reactor) => {
                let rest = rest_of_move(
                    req,
                    &id,
                    &squares[risk.step.saturating_sub(1)..],
                    &risk.hostile_id,
                );
                let line = super::reactions::ask_opportunity(
                    &mut turn.encounter,
                    &risk.hostile_id,
                    &reactor,
                    &actor.name,
                    risk.from,
                    rest,
                );
                lines.push(line);
                paused_at = Some(risk.from);
                spent = costs[..risk.step.saturating_sub(1)].iter().sum();
                break;
            }
            OaChoice::Take => {}
        }
        match super::reactions::opportunity(call, &mut turn.encounter, &risk.hostile_id, &id, None)
        {
            Ok(s) => {
                lines.push(format!(
                    "{} makes an opportunity attack as {} leaves its reach at {}: {}",
                    s.attacker, actor.name, risk.from, s.headline
                ));
                lines.extend(s.lines.iter().cloned());
                oas.push(s);
            }
            Err(e) => lines.push(format!(
                "{} cannot make its opportunity attack: {e}",
                risk.hostile_id
            )),
        }
        if let Some(cb) = turn.encounter.combatant_mut(&risk.hostile_id) {
            cb.economy.reaction = true;
        }
        // The mover's own Shield may pause the attack: the rest of the move waits with it.
        if turn.encounter.pending_reaction.is_some() {
            let rest = rest_of_move(
                req,
                &id,
                &squares[risk.step.saturating_sub(1)..],
                &risk.hostile_id,
            );
            super::reactions::set_then(
                &mut turn.encounter,
                serde_json::to_value(&rest).unwrap_or_default(),
            );
            paused_at = Some(risk.from);
            spent = costs[..risk.step.saturating_sub(1)].iter().sum();
            break;
        }
        let now = combat::sheet(call, &id)?;
        if now.dead || now.hp == 0 {
            stopped_at = Some(risk.from);
            spent = costs[..risk.step.saturating_sub(1)].iter().sum();
            break;
        }
    }
    let last = squares[squares.len() - 1];
    if stopped_at.is_none() && paused_at.is_none() {
        turn.encounter.map.move_creature(&id, last).map_err(|e| {
            EngineError::invalid(
                "to",
                format!("{} cannot end its move at {last}: {e}", actor.name),
            )
        })?;
        lines.extend(super::move_rules::drag_along(
            &mut turn.encounter,
            &held,
            &squares,
        ));
        // Auras entered for the first time this turn apply now.
        if squares.len() >= 2 {
            lines.extend(crate::combat::auras::on_enter(
                call,
                &mut turn.encounter,
                &id,
            )?);
            // Zones fixed on the map strike along the whole path (walls crossed, spikes).
            lines.extend(crate::combat::zones::crossed(
                call,
                &mut turn.encounter,
                &id,
                &squares,
            )?);
        }
    }
    let left = {
        let Some(cb) = turn.encounter.combatant_mut(&id) else {
            return Err(EngineError::Rule(
                "internal: the actor left the order".into(),
            ));
        };
        cb.economy.movement_used_ft += used + spent;
        (speed + cb.economy.movement_bonus_ft).saturating_sub(cb.economy.movement_used_ft)
    };
    let mut headline = match (stopped_at, paused_at) {
        (Some(p), _) => format!(
            "{} is stopped at {p} after {spent} ft: it drops to 0 HP.",
            actor.name
        ),
        (None, Some(p)) => format!(
            "{} moves {spent} ft to {p} and waits there: a reaction is pending.",
            actor.name
        ),
        (None, None) if squares.len() < 2 => format!(
            "{} stays at {from} ({left} ft of movement left).",
            actor.name
        ),
        (None, None) => format!(
            "{} moves {spent} ft to {last} ({left} ft of movement left).",
            actor.name
        ),
    };
    if stood_up {
        headline = format!("{} stands up. {headline}", actor.name);
    }
    for s in &oas {
        headline.push_str(&format!(
            " Opportunity attack by {}: {}",
            s.attacker, s.headline
        ));
    }
    for s in &oas {
        forced.extend(s.forced.iter().cloned());
    }
    let details = MoveDetails {
        path: squares,
        cost_ft: spent,
        budget_ft: budget,
        left_ft: left,
        stood_up,
        stopped_at,
        opportunity_attacks: oas,
    };
    Ok(ActionOutcome {
        headline,
        lines,
        forced,
        details: serde_json::to_value(&details).unwrap_or_default(),
        ..Default::default()
    })
}

/// The rest of a move paused at `squares[0]`: the same request along the squares left, with the
/// reactor that answers marked as decided.
fn rest_of_move(
    req: &super::ActionRequest,
    mover: &str,
    squares: &[Position],
    reactor: &str,
) -> super::ActionRequest {
    let mut rest = req.clone();
    rest.actor = super::Who {
        id: Some(mover.to_string()),
        name: None,
    };
    rest.action_type = Some(ActionType::Move);
    rest.action_cost = None;
    rest.to = None;
    rest.path = squares.to_vec();
    rest.reactions_decided.push(reactor.to_string());
    rest
}
