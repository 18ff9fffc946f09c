//! Banishment on the encounter map: each target within range makes a Charisma save against
//! the caster's DC; one that fails leaves the map and the initiative while the caster
//! concentrates, and comes back to the space it left (or the nearest free one) when the
//! concentration ends ([`expire`], at each turn change).

use tabletop_rules::Ability;
use tabletop_rules::d20::{D20Request, D20Test, roll_d20_test};

use super::actions::{ActionOutcome, Turn, Who};
use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::character::Character;
use crate::model::encounter::{Banished, Encounter, TurnFlags};
use crate::model::names::name_key;
use crate::model::spell::SpellDef;

/// Casts Banishment on the named targets (slot already spent).
pub fn cast(
    call: &mut Call<'_>,
    turn: &mut Turn<'_>,
    caster: &mut Character,
    def: &SpellDef,
    slot: u8,
) -> Result<ActionOutcome> {
    let req = turn.req;
    let mut named: Vec<&Who> = Vec::new();
    if !req.target.is_empty() {
        named.push(&req.target);
    }
    named.extend(req.targets.iter().filter(|w| !w.is_empty()));
    if named.is_empty() {
        return Err(EngineError::invalid(
            "targetId",
            format!(
                "say whom {} targets: targetId/targetName, or targets",
                def.name
            ),
        ));
    }
    let max = def.max_targets(slot, caster.level).unwrap_or(1);
    if named.len() > max {
        return Err(EngineError::invalid(
            "targets",
            format!(
                "{} at {} level affects at most {max} target(s)",
                def.name,
                crate::model::slots::ordinal(slot)
            ),
        ));
    }
    let range = def.range_ft().unwrap_or(60);
    let mut ids = Vec::new();
    for w in named {
        let c = super::find_combatant(
            &turn.encounter,
            w.id.as_deref(),
            w.name.as_deref(),
            "targetId",
        )?;
        let d = turn.encounter.map.creature_distance_ft(
            &caster.id,
            &c.character_id,
            super::actions::attack::METRIC,
        )?;
        if d > range {
            return Err(EngineError::Rule(format!(
                "{} is {d} ft from {}; {} has a range of {}",
                c.name, caster.name, def.name, def.range
            )));
        }
        ids.push(c.character_id.clone());
    }
    let dc = crate::magic::spellcasting::caster_numbers(call, caster)?.save_dc;
    let mut lines = Vec::new();
    crate::concentration::begin(call, caster, &def.name, &mut lines)?;
    let mut gone = Vec::new();
    for id in ids {
        let t = crate::combat::sheet(call, &id)?;
        let mut sreq = D20Request::new(D20Test::Save {
            ability: Ability::Charisma,
        })
        .dc(dc)
        .labelled(format!("CHA save vs {}", def.name));
        if crate::combat::traits::magic_resistance(&t) {
            sreq = sreq.advantage("Magic Resistance");
        }
        let out = roll_d20_test(&t.effective(), &sreq, call.rng()?);
        call.record_roll(&out);
        lines.push(format!("{} — {}", t.name, out.summary()));
        if out.success == Some(true) {
            lines.push(format!("{} resists {}", t.name, def.name));
            continue;
        }
        let enc = &mut turn.encounter;
        let Ok(spot) = enc.map.remove_creature(&id) else {
            continue;
        };
        if let Some(cb) = enc.combatant_mut(&id) {
            cb.removed = true;
            cb.flags = TurnFlags::default();
        }
        enc.banished.push(Banished {
            id: id.clone(),
            caster_id: caster.id.clone(),
            spell: def.name.clone(),
            position: spot.position,
        });
        let line = format!(
            "{} is banished from {}: off the map and the initiative while {} concentrates on {}",
            t.name, spot.position, caster.name, def.name
        );
        enc.log(line.clone());
        lines.push(line);
        gone.push(t.name.clone());
    }
    let headline = if gone.is_empty() {
        format!("{} casts {}: no one is banished.", caster.name, def.name)
    } else {
        format!(
            "{} casts {}: {} banished.",
            caster.name,
            def.name,
            gone.join(", ")
        )
    };
    Ok(ActionOutcome {
        headline,
        lines,
        ..Default::default()
    })
}

/// Brings back the banished whose banisher no longer concentrates on the spell, to the space
/// they left or the nearest free one, with their place in the initiative. Says who returned.
pub fn expire(call: &Call<'_>, e: &mut Encounter) -> Result<Vec<String>> {
    let mut lines = Vec::new();
    let mut kept = Vec::new();
    for b in std::mem::take(&mut e.banished) {
        let caster = crate::combat::sheet(call, &b.caster_id).ok();
        let holds = caster.as_ref().is_some_and(|c| {
            !c.dead
                && c.concentration
                    .as_ref()
                    .is_some_and(|x| name_key(&x.spell) == name_key(&b.spell))
        });
        if holds {
            kept.push(b);
            continue;
        }
        let Ok(t) = crate::combat::sheet(call, &b.id) else {
            continue;
        };
        let at = if e.map.check_placement(b.position, t.size, None).is_ok() {
            Some(b.position)
        } else {
            super::teleport::free_near(&e.map, b.position, t.size, &[])
        };
        let Some(at) = at else {
            lines.push(format!(
                "{} cannot return: no free space near {}",
                t.name, b.position
            ));
            continue;
        };
        e.map.place_creature(b.id.clone(), at, t.size)?;
        if let Some(cb) = e.combatant_mut(&b.id) {
            cb.removed = false;
        }
        let who = caster.map_or_else(|| "its banisher".to_string(), |c| c.name);
        let line = format!(
            "{} returns at {at}: {who}'s concentration on {} ended",
            t.name, b.spell
        );
        e.log(line.clone());
        lines.push(line);
    }
    e.banished = kept;
    Ok(lines)
}
