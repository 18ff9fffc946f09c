//! Divination spells on the encounter map, answered from the engine's state (the catalog's
//! `detect` kind): Detect Magic (magic items carried, magical effects on creatures, spell zones
//! within 30 ft), Detect Evil and Good and Locate Animals or Plants (creatures of the listed
//! types in range), Detect Poison and Disease (poisonous or poisoned creatures and poisons
//! carried), Find Traps (hidden props in range and sight: how many, not where), Locate
//! Creature and Locate Object (distance and direction when in range), Identify (the item's
//! catalog properties, `magic::divination`). The caster concentrates when the spell says so.

use tabletop_grid::{Compass, Metric, Position, SightOptions};
use tabletop_rules::{Condition, DamageType};

use super::actions::{ActionOutcome, Turn};
use crate::catalog::spell_senses::{DetectKind, DetectSpec};
use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::magic::divination::{identify, is_magic, magical_effects};
use crate::model::character::Character;
use crate::model::spell::SpellDef;

const METRIC: Metric = Metric::Grid5e;

/// One thing sensed.
struct Found {
    who: String,
    what: String,
    distance_ft: u32,
}

/// "north-east" from `from` toward `to` (north is −y), or "here".
pub fn direction(from: Position, to: Position) -> &'static str {
    let (dx, dy) = (to.x - from.x, to.y - from.y);
    if dx == 0 && dy == 0 {
        return "here";
    }
    let (ax, ay) = (dx.abs(), dy.abs());
    let c = if ax > ay.saturating_mul(2) {
        if dx > 0 { Compass::E } else { Compass::W }
    } else if ay > ax.saturating_mul(2) {
        if dy > 0 { Compass::S } else { Compass::N }
    } else {
        match (dx > 0, dy > 0) {
            (true, true) => Compass::SE,
            (true, false) => Compass::NE,
            (false, true) => Compass::SW,
            (false, false) => Compass::NW,
        }
    };
    match c {
        Compass::N => "north",
        Compass::NE => "north-east",
        Compass::E => "east",
        Compass::SE => "south-east",
        Compass::S => "south",
        Compass::SW => "south-west",
        Compass::W => "west",
        Compass::NW => "north-west",
    }
}

/// Whether divination magic can't sense `c`: an active spell (Nondetection, Mind Blank) or a
/// worn item (Amulet of Proof against Detection and Location).
pub fn hidden(c: &Character) -> bool {
    crate::model::senses::grants(c)
        .iter()
        .any(|(_, g)| g.nondetection)
}

/// Whether a creature is poisonous: an attack or ability that deals poison damage or poisons.
fn poisonous(c: &Character) -> bool {
    c.stat_block.as_ref().is_some_and(|sb| {
        sb.actions
            .iter()
            .chain(sb.special_abilities.iter())
            .any(|a| {
                a.damage
                    .iter()
                    .any(|d| d.damage_type == Some(DamageType::Poison))
                    || a.desc.to_lowercase().contains("poisoned")
            })
    })
}

/// Casts a divination on the encounter map (slot already spent).
pub fn cast(
    call: &mut Call<'_>,
    turn: &mut Turn<'_>,
    caster: &mut Character,
    def: &SpellDef,
    spec: &DetectSpec,
) -> Result<ActionOutcome> {
    let req = turn.req;
    let mut lines = Vec::new();
    if spec.what == DetectKind::Identify {
        let holder = if req.target.is_empty() {
            caster.clone()
        } else {
            let c = super::find_combatant(
                &turn.encounter,
                req.target.id.as_deref(),
                req.target.name.as_deref(),
                "targetId",
            )?;
            crate::combat::sheet(call, &c.character_id)?
        };
        let (headline, l, details) = identify(call, caster, &holder, req.item.as_deref())?;
        lines.extend(l);
        return Ok(ActionOutcome {
            headline,
            lines,
            details,
            ..Default::default()
        });
    }
    let range = spec
        .range_ft
        .or(def.area.map(|a| a.size_ft))
        .or(def.range_ft())
        .unwrap_or(30);
    if def.concentration {
        crate::concentration::begin(call, caster, &def.name, &mut lines)?;
    }
    let map = &turn.encounter.map;
    let me = map.require_creature(&caster.id)?.position;
    // Creatures on the map within range (the caster included), nearest first.
    let mut near: Vec<(u32, Character, Position)> = Vec::new();
    for cb in turn.encounter.order.iter().filter(|c| !c.removed) {
        let Some(m) = map.creature(&cb.character_id) else {
            continue;
        };
        let d = map.creature_distance_ft(&caster.id, &cb.character_id, METRIC)?;
        if d <= range {
            let c = if cb.character_id == caster.id {
                caster.clone()
            } else {
                crate::combat::sheet(call, &cb.character_id)?
            };
            // Nondetection and Mind Blank: divination senses neither it nor what it carries.
            if c.id != caster.id && hidden(&c) {
                continue;
            }
            near.push((d, c, m.position));
        }
    }
    near.sort_by_key(|(d, c, _)| (*d, c.name.clone()));
    let mut found: Vec<Found> = Vec::new();
    let mut extra: Option<String> = None;
    match spec.what {
        DetectKind::Magic => {
            for (d, c, _) in &near {
                for it in c.inventory.items.iter().filter(|i| is_magic(call, i)) {
                    found.push(Found {
                        who: c.name.clone(),
                        what: format!("{} (an item)", it.name),
                        distance_ft: *d,
                    });
                }
                for fx in magical_effects(c) {
                    found.push(Found {
                        who: c.name.clone(),
                        what: format!("{fx} (a spell's effect)"),
                        distance_ft: *d,
                    });
                }
            }
            for a in &turn.encounter.auras {
                let dist = a
                    .squares
                    .iter()
                    .map(|p| tabletop_grid::distance_ft(me, *p, METRIC))
                    .min()
                    .or_else(|| {
                        map.creature_distance_ft(&caster.id, &a.bearer_id, METRIC)
                            .ok()
                    });
                if let Some(dd) = dist.filter(|dd| *dd <= range) {
                    found.push(Found {
                        who: a.id.clone(),
                        what: format!("{} (a spell's zone)", a.name),
                        distance_ft: dd,
                    });
                }
            }
        }
        DetectKind::Types => {
            for (d, c, _) in near.iter().filter(|(_, c, _)| c.id != caster.id) {
                if let Some(t) = crate::magic::targets::creature_type(c)
                    && spec.types.iter().any(|k| t.starts_with(k.as_str()))
                {
                    found.push(Found {
                        who: c.name.clone(),
                        what: t,
                        distance_ft: *d,
                    });
                }
            }
        }
        DetectKind::Poison => {
            for (d, c, _) in &near {
                if c.id != caster.id && poisonous(c) {
                    found.push(Found {
                        who: c.name.clone(),
                        what: "a poisonous creature".into(),
                        distance_ft: *d,
                    });
                }
                if c.has_condition(Condition::Poisoned) {
                    found.push(Found {
                        who: c.name.clone(),
                        what: "poisoned".into(),
                        distance_ft: *d,
                    });
                }
                for it in &c.inventory.items {
                    if it.name.to_lowercase().contains("poison") {
                        found.push(Found {
                            who: c.name.clone(),
                            what: format!("{} (carried)", it.name),
                            distance_ft: *d,
                        });
                    }
                }
            }
        }
        DetectKind::Traps => {
            let opts = SightOptions {
                creatures_block: false,
                metric: METRIC,
            };
            let n = map
                .props()
                .filter(|p| p.hidden_dc.is_some())
                .filter(|p| tabletop_grid::distance_ft(me, p.position, METRIC) <= range)
                .filter(|p| {
                    map.line_of_sight(me, p.position, &opts)
                        .is_ok_and(|l| l.blocked_at.is_none())
                })
                .count();
            extra = Some(if n == 0 {
                format!("no trap within {range} ft and in sight")
            } else {
                format!(
                    "{n} trap{} within {range} ft and in sight (the nature of each is the DM's; not where)",
                    if n == 1 { "" } else { "s" }
                )
            });
        }
        DetectKind::Creature => {
            if req.target.is_empty() {
                return Err(EngineError::invalid(
                    "targetId",
                    format!(
                        "say which creature {} seeks: targetId or targetName",
                        def.name
                    ),
                ));
            }
            let c = super::find_combatant(
                &turn.encounter,
                req.target.id.as_deref(),
                req.target.name.as_deref(),
                "targetId",
            )?;
            let hid = hidden(&crate::combat::sheet(call, &c.character_id)?);
            let at = map
                .creature(&c.character_id)
                .map(|m| m.position)
                .filter(|_| !hid);
            let d = map
                .creature_distance_ft(&caster.id, &c.character_id, METRIC)
                .ok();
            match (at, d) {
                (Some(p), Some(d)) if d <= range && !c.removed => found.push(Found {
                    who: c.name.clone(),
                    what: direction(me, p).to_string(),
                    distance_ft: d,
                }),
                _ => {
                    extra = Some(format!(
                        "{} is not within {range} ft on the map: no sense of it",
                        c.name
                    ))
                }
            }
        }
        DetectKind::Object => {
            let Some(want) = req.item.as_deref().map(str::trim).filter(|s| !s.is_empty()) else {
                return Err(EngineError::invalid(
                    "item",
                    format!("say which object {} seeks: item", def.name),
                ));
            };
            let key = want.to_lowercase();
            for (d, c, p) in near.iter().filter(|(_, c, _)| c.id != caster.id) {
                for it in c
                    .inventory
                    .items
                    .iter()
                    .filter(|i| i.name.to_lowercase().contains(&key))
                {
                    found.push(Found {
                        who: c.name.clone(),
                        what: format!("{} ({})", it.name, direction(me, *p)),
                        distance_ft: *d,
                    });
                }
            }
            for prop in map.props().filter(|p| p.name.to_lowercase().contains(&key)) {
                let d = tabletop_grid::distance_ft(me, prop.position, METRIC);
                if d <= range {
                    found.push(Found {
                        who: prop.id.clone(),
                        what: format!("{} ({})", prop.name, direction(me, prop.position)),
                        distance_ft: d,
                    });
                }
            }
        }
        DetectKind::Identify => {}
    }
    let what = if let Some(x) = extra {
        x
    } else if found.is_empty() {
        format!("nothing within {range} ft")
    } else {
        found
            .iter()
            .map(|f| format!("{}: {} at {} ft", f.who, f.what, f.distance_ft))
            .collect::<Vec<_>>()
            .join("; ")
    };
    let headline = format!("{} casts {}: {what}.", caster.name, def.name);
    if let Some(r) = def.mechanics().and_then(|m| m.reason.as_deref()) {
        lines.push(format!("left to the DM: {r}"));
    }
    let details = serde_json::json!({
        "rangeFt": range,
        "detected": found
            .iter()
            .map(|f| serde_json::json!({ "who": f.who, "what": f.what, "distanceFt": f.distance_ft }))
            .collect::<Vec<_>>(),
    });
    Ok(ActionOutcome {
        headline,
        lines,
        details,
        ..Default::default()
    })
}

/// Identify cast outside an encounter (slot already spent): the touched item of the caster or
/// of the named creature. `None` for any other spell.
pub fn identify_outside(
    call: &mut Call<'_>,
    caster: &Character,
    def: &SpellDef,
    req: &super::actions::ActionRequest,
) -> Result<Option<ActionOutcome>> {
    use crate::catalog::spell_senses::DetectKind;
    let is_identify = def
        .mechanics()
        .and_then(|m| m.detect.as_ref())
        .is_some_and(|d| d.what == DetectKind::Identify);
    if !is_identify {
        return Ok(None);
    }
    let holder = if req.target.is_empty() {
        caster.clone()
    } else {
        crate::characters::resolve_with_fields(
            call,
            crate::model::character::CharacterRef::new(
                req.target.id.as_deref(),
                req.target.name.as_deref(),
            ),
            "targetId",
            "targetName",
        )?
    };
    let (headline, lines, details) = identify(call, caster, &holder, req.item.as_deref())?;
    call.record_change("character", &holder.id, headline.clone());
    Ok(Some(ActionOutcome {
        actor: caster.name.clone(),
        action_type: Some(super::actions::ActionType::CastSpell),
        headline,
        lines,
        details,
        ..Default::default()
    }))
}
