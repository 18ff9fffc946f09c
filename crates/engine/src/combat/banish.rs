//! Banishment (and Maze, Imprisonment) on the encounter map: each target within range makes the
//! spell's save (Banishment CHA, Imprisonment WIS, Maze none) against the caster's DC; one that fails leaves the map and the initiative while the caster
//! concentrates, and comes back to the space it left (or the nearest free one) when the
//! concentration ends ([`expire`], at each turn change).

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
    let max = def.max_targets(slot, caster.cantrip_level()).unwrap_or(1);
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
    if def.concentration {
        crate::concentration::begin(call, caster, &def.name, &mut lines)?;
    }
    let save = def.save.map(|s| s.ability);
    // A timed space with no concentration (Rope Trick): the caster holds an effect for its
    // duration, and those inside come back when it ends.
    let timed = (!def.concentration)
        .then(|| def.duration_rounds())
        .flatten();
    if let Some(rounds) = timed {
        caster
            .effects
            .retain(|x| name_key(&x.name) != name_key(&def.name));
        caster.effects.push(crate::model::effects::ActiveEffect {
            id: call.new_id("ef")?,
            name: def.name.clone(),
            source: Some(format!("{} ({})", def.name, caster.name)),
            modifiers: Vec::new(),
            duration: crate::model::effects::Duration::Rounds { remaining: rounds },
            ends_on: None,
            ends_when_attacked: false,
            damaged_since_turn: false,
            grant: None,
        });
    }
    let mut gone = Vec::new();
    for id in ids {
        let mut t = crate::combat::sheet(call, &id)?;
        // The SRD's save (Banishment CHA, Imprisonment WIS); Maze has none.
        if let Some(ability) = save {
            let mut sreq = D20Request::new(D20Test::Save { ability })
                .dc(dc)
                .labelled(format!("{} save vs {}", ability.abbr(), def.name));
            if crate::combat::traits::magic_resistance(&t) {
                sreq = sreq.advantage("Magic Resistance");
            }
            let out = roll_d20_test(&t.effective(), &sreq, call.rng()?);
            call.record_roll(&out);
            lines.push(format!("{} — {}", t.name, out.summary()));
            let mut saved = out.success == Some(true);
            if !saved
                && let Some((ok, line)) =
                    crate::combat::legendary::on_failed_save(Some(&turn.encounter), &mut t)
            {
                saved = ok;
                lines.push(line);
                crate::combat::put_sheet(call, &t)?;
            }
            if saved {
                lines.push(format!("{} resists {}", t.name, def.name));
                continue;
            }
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
            lasting: !def.concentration && timed.is_none(),
        });
        let line = if let Some(rounds) = timed {
            format!(
                "{} leaves {} for {}'s space: off the map and the initiative until it ends ({} rounds)",
                t.name, spot.position, def.name, rounds
            )
        } else if !def.concentration && def.duration.eq_ignore_ascii_case("instantaneous") {
            format!(
                "{} is sent to another plane from {}: off the map and the initiative for good (it must find its own way back)",
                t.name, spot.position
            )
        } else if def.concentration {
            format!(
                "{} is banished from {}: off the map and the initiative while {} concentrates on {}",
                t.name, spot.position, caster.name, def.name
            )
        } else {
            format!(
                "{} is banished from {}: off the map and the initiative until {} is dispelled",
                t.name, spot.position, def.name
            )
        };
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
        let holds = b.lasting
            || caster.as_ref().is_some_and(|c| {
                !c.dead
                    && (c
                        .concentration
                        .as_ref()
                        .is_some_and(|x| name_key(&x.spell) == name_key(&b.spell))
                        || c.effects
                            .iter()
                            .any(|x| name_key(&x.name) == name_key(&b.spell)))
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
        // A concentration spell's end, or a timed one's (Rope Trick).
        let held = call
            .compendium()
            .and_then(|srd| srd.spell(&b.spell))
            .is_none_or(|s| s.concentration);
        let ended = if held {
            format!("concentration on {}", b.spell)
        } else {
            b.spell.clone()
        };
        let line = format!("{} returns at {at}: {who}'s {ended} ended", t.name);
        e.log(line.clone());
        lines.push(line);
    }
    e.banished = kept;
    Ok(lines)
}

/// Globe of Invulnerability: an immobile barrier centred on the caster's square, held by
/// concentration; the highest level it keeps out rises by one per slot above the spell's.
pub fn raise_globe(
    call: &mut Call<'_>,
    turn: &mut Turn<'_>,
    caster: &mut Character,
    def: &SpellDef,
    slot: u8,
) -> Result<ActionOutcome> {
    let Some(e) = def.mechanics() else {
        return Err(EngineError::Rule(format!(
            "{} has no globe encoded",
            def.name
        )));
    };
    let base = e.globe_max_level.unwrap_or(5);
    let radius_ft = e.globe_radius_ft.unwrap_or(10);
    let max_level = base.saturating_add(slot.saturating_sub(def.level)).min(9);
    let center = turn.encounter.map.require_creature(&caster.id)?.position;
    let mut lines = Vec::new();
    crate::concentration::begin(call, caster, &def.name, &mut lines)?;
    turn.encounter
        .globes
        .retain(|g| !(g.caster_id == caster.id && name_key(&g.spell) == name_key(&def.name)));
    turn.encounter.globes.push(crate::model::encounter::Globe {
        caster_id: caster.id.clone(),
        spell: def.name.clone(),
        center,
        radius_ft,
        max_level,
    });
    let headline = format!(
        "{} casts {}: an immobile {radius_ft}-ft barrier around {center}; spells of {} level or lower cast from outside it have no effect on creatures inside.",
        caster.name,
        def.name,
        crate::model::slots::ordinal(max_level)
    );
    turn.encounter.log(headline.clone());
    Ok(ActionOutcome {
        headline,
        lines,
        ..Default::default()
    })
}

/// Drops from `targets` the creatures inside a globe that keeps out a spell of `slot` cast by
/// `caster_id` from outside it; says who is spared.
pub fn screen(e: &Encounter, caster_id: &str, targets: &mut Vec<String>, slot: u8) -> Vec<String> {
    let metric = super::actions::attack::METRIC;
    let inside = |g: &crate::model::encounter::Globe, id: &str| {
        e.map.creature(id).is_some_and(|c| {
            tabletop_grid::distance_ft(g.center, c.position, metric) <= g.radius_ft
        })
    };
    let mut notes = Vec::new();
    for g in e.globes.iter().filter(|g| slot <= g.max_level) {
        if inside(g, caster_id) {
            continue;
        }
        targets.retain(|id| {
            let spared = inside(g, id);
            if spared {
                let name = e.combatant(id).map_or(id.clone(), |c| c.name.clone());
                let note = format!(
                    "{name} is inside {} (spells of {} level or lower from outside have no effect): unaffected",
                    g.spell,
                    crate::model::slots::ordinal(g.max_level)
                );
                if !notes.contains(&note) {
                    notes.push(note);
                }
            }
            !spared
        });
    }
    notes
}

/// Drops globes whose caster no longer concentrates on them.
pub fn expire_globes(call: &Call<'_>, e: &mut Encounter) -> Result<Vec<String>> {
    let mut lines = Vec::new();
    let mut kept = Vec::new();
    for g in std::mem::take(&mut e.globes) {
        let holds = crate::combat::sheet(call, &g.caster_id).is_ok_and(|c| {
            !c.dead
                && c.concentration
                    .as_ref()
                    .is_some_and(|x| name_key(&x.spell) == name_key(&g.spell))
        });
        if holds {
            kept.push(g);
        } else {
            lines.push(format!("{} at {} ends", g.spell, g.center));
        }
    }
    e.globes = kept;
    Ok(lines)
}
