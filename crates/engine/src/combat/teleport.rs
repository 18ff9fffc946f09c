//! Teleportation on the encounter map (Misty Step, Dimension Door): the caster appears at the
//! square `to`, within the spell's distance, unoccupied (and seen, when the spell says so);
//! willing passengers within reach appear in free squares next to it. A destination another
//! creature or an object fills makes Dimension Door fail with its damage. Across planes or off
//! the map stays the DM's (narrative spells).

use tabletop_grid::{Metric, Position, SightOptions};

use super::actions::{ActionOutcome, Turn};
use crate::catalog::spell_moves::TeleportSpec;
use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::character::Character;
use crate::model::spell::SpellDef;

const METRIC: Metric = Metric::Grid5e;

/// Moves the caster (and passengers) to `turn.req.to`; the slot is already spent.
pub fn cast(
    call: &mut Call<'_>,
    turn: &mut Turn<'_>,
    caster: &mut Character,
    def: &SpellDef,
    spec: &TeleportSpec,
) -> Result<ActionOutcome> {
    let req = turn.req;
    let Some(to) = req.to else {
        return Err(EngineError::invalid(
            "to",
            format!(
                "{} needs the destination square: `to` {{x, y}} within {} ft of the caster",
                def.name, spec.range_ft
            ),
        ));
    };
    let map = &turn.encounter.map;
    map.check(to)?;
    let me = map.require_creature(&caster.id)?.clone();
    let d = tabletop_grid::distance_ft(me.position, to, METRIC);
    if d > spec.range_ft {
        return Err(EngineError::Rule(format!(
            "({}, {}) is {d} ft from {}; {} reaches {} ft",
            to.x, to.y, caster.name, def.name, spec.range_ft
        )));
    }
    if spec.sight {
        let senses = crate::combat::spatial::senses_of(caster);
        let opts = SightOptions {
            creatures_block: false,
            metric: METRIC,
        };
        let seen = map.visibility(me.position, to, &senses, &opts)?;
        if !seen.can_see() {
            return Err(EngineError::Rule(format!(
                "{} cannot see ({}, {}); {} needs an unoccupied space the caster can see",
                caster.name, to.x, to.y, def.name
            )));
        }
    }
    // Passengers: willing creatures named as targets, within reach of the caster.
    let mut passengers: Vec<(String, String)> = Vec::new();
    let mut named: Vec<&super::actions::Who> = Vec::new();
    if !req.target.is_empty() {
        named.push(&req.target);
    }
    named.extend(req.targets.iter().filter(|w| !w.is_empty()));
    if named.len() > spec.passengers as usize {
        return Err(EngineError::invalid(
            "targets",
            if spec.passengers == 0 {
                format!("{} moves only the caster; name no targets", def.name)
            } else {
                format!(
                    "{} brings at most {} willing creature(s) along",
                    def.name, spec.passengers
                )
            },
        ));
    }
    for w in named {
        let c = super::find_combatant(
            &turn.encounter,
            w.id.as_deref(),
            w.name.as_deref(),
            "targetId",
        )?;
        let d = map.creature_distance_ft(&caster.id, &c.character_id, METRIC)?;
        if d > spec.passenger_reach_ft {
            return Err(EngineError::Rule(format!(
                "{} is {d} ft from {}; a passenger of {} must be within {} ft",
                c.name, caster.name, def.name, spec.passenger_reach_ft
            )));
        }
        passengers.push((c.character_id.clone(), c.name.clone()));
    }
    let mut lines = Vec::new();
    let from = me.position;
    // The destination must be free of creatures and objects (the caster itself aside).
    if let Err(why) = map.check_placement(to, me.size, Some(&caster.id)) {
        let Some(dice) = &spec.occupied_damage else {
            return Err(EngineError::Rule(format!(
                "({}, {}) is not an unoccupied space for {}: {why}",
                to.x, to.y, caster.name
            )));
        };
        let _ = why;
        lines.push(format!(
            "({}, {}) is occupied: {} fails and the travellers are not moved",
            to.x, to.y, def.name
        ));
        let mut hurt = vec![caster.id.clone()];
        hurt.extend(passengers.iter().map(|(id, _)| id.clone()));
        for id in hurt {
            lines.extend(occupied_damage(call, caster, &id, dice)?);
        }
        let headline = format!(
            "{} casts {}, but the destination is occupied.",
            caster.name, def.name
        );
        return Ok(ActionOutcome {
            headline,
            lines,
            ..Default::default()
        });
    }
    let map = &mut turn.encounter.map;
    map.move_creature(&caster.id, to)?;
    lines.push(format!(
        "{} teleports {d} ft from {from} to {to}",
        caster.name
    ));
    let mut placed = Vec::new();
    for (id, name) in &passengers {
        let size = map.require_creature(id)?.size;
        let spot = map
            .adjacent(to)
            .into_iter()
            .find(|p| map.check_placement(*p, size, Some(id)).is_ok());
        match spot {
            Some(p) => {
                map.move_creature(id, p)?;
                lines.push(format!("{name} appears beside them at {p}"));
                placed.push(name.clone());
            }
            None => lines.push(format!(
                "no free square next to {to} for {name}: it stays where it was"
            )),
        }
    }
    let headline = if placed.is_empty() {
        format!("{} casts {} and appears at {to}.", caster.name, def.name)
    } else {
        format!(
            "{} casts {} and appears at {to} with {}.",
            caster.name,
            def.name,
            placed.join(", ")
        )
    };
    Ok(ActionOutcome {
        headline,
        lines,
        details: serde_json::json!({ "spell": def.name, "from": from, "to": to }),
        ..Default::default()
    })
}

/// Dimension Door into an occupied space: each traveller takes the damage (force).
fn occupied_damage(
    call: &mut Call<'_>,
    caster: &mut Character,
    id: &str,
    dice: &str,
) -> Result<Vec<String>> {
    let roll = tabletop_rules::dice::parse(dice)?.roll(call.rng()?)?;
    call.record_roll(&roll);
    let amount = u32::try_from(roll.total.max(0)).unwrap_or(0);
    let mut lines = Vec::new();
    let parts = [tabletop_rules::damage::DamagePart::new(
        Some(tabletop_rules::DamageType::Force),
        amount,
    )];
    if id == caster.id {
        let r = crate::update::damage(caster, &parts, false, &mut lines)?;
        lines.insert(
            0,
            format!(
                "{} takes {} force ({})",
                caster.name,
                r.total,
                roll.summary()
            ),
        );
    } else {
        let mut t = crate::combat::sheet(call, id)?;
        let r = crate::update::damage(&mut t, &parts, false, &mut lines)?;
        lines.insert(
            0,
            format!("{} takes {} force ({})", t.name, r.total, roll.summary()),
        );
        crate::combat::put_sheet(call, &t)?;
    }
    Ok(lines)
}

/// Whether `p` is a free square for a creature of `size` (for summons placed beside a caster).
pub fn free_near(
    map: &tabletop_grid::BattleMap,
    anchor: Position,
    size: tabletop_rules::Size,
    taken: &[Position],
) -> Option<Position> {
    for r in 1..=12i32 {
        let mut ring: Vec<Position> = Vec::new();
        for dy in -r..=r {
            for dx in -r..=r {
                if dx.abs().max(dy.abs()) == r {
                    ring.push(anchor.offset(dx, dy));
                }
            }
        }
        if let Some(p) = ring.into_iter().find(|p| {
            map.contains(*p) && !taken.contains(p) && map.check_placement(*p, size, None).is_ok()
        }) {
            return Some(p);
        }
    }
    None
}
