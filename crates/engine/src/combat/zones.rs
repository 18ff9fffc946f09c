//! Zones fixed on the map: a spell of the `zone` kind whose catalog entry places it on a point
//! the caster picks (Moonbeam, Cloudkill, Web, Wall of Stone, Fog Cloud, Spike Growth…). Such
//! a zone is an [`Aura`] with squares instead of a radius around its bearer (the bearer is its
//! caster and owner), so the turn loop, concentration and `manage_aura` treat both alike; this
//! module places it, changes the ground under it (difficult terrain, heavy obscurement, walls)
//! and restores that ground when it ends, strikes creatures that cross it or end their turn in
//! it, and moves it when its caster casts the spell again.

use tabletop_grid::{AreaOfEffect, AreaOrigin, Cover, Direction, Position, Prop, Terrain};
use tabletop_rules::damage::DamagePart;

use crate::catalog::zones::{WallKind, ZoneAffects, ZoneSpec};
use crate::combat::actions::{ActionOutcome, Turn};
use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::magic::spellcasting::{CasterNumbers, SlotUse};
use crate::model::aura::{Aura, AuraAffects, AuraSave, ZoneGround, ZoneWard};
use crate::model::character::Character;
use crate::model::encounter::Encounter;
use crate::model::names::name_key;
use crate::model::spell::SpellDef;

/// The zone a spell places on the map, when its catalog entry says it is one.
pub fn spec(def: &SpellDef) -> Option<&'static ZoneSpec> {
    let m = def.mechanics()?;
    (m.kind == crate::catalog::spells::SpellKind::Zone)
        .then_some(m.zone.as_ref())
        .flatten()
}

/// The index of the zone of this spell that `caster_id` already holds on the map.
pub fn active(e: &Encounter, caster_id: &str, def: &SpellDef) -> Option<usize> {
    e.auras.iter().position(|a| {
        a.bearer_id == caster_id
            && !a.squares.is_empty()
            && name_key(&a.name) == name_key(&def.name)
    })
}

/// Whether `id` (any square of its space) stands on one of the zone's squares.
pub fn covers(e: &Encounter, a: &Aura, id: &str) -> bool {
    e.map.creature(id).is_some_and(|c| {
        c.squares()
            .any(|q| a.squares.iter().any(|s| s.x == q.x && s.y == q.y))
    })
}

fn on(squares: &[Position], p: Position) -> bool {
    squares.iter().any(|s| s.x == p.x && s.y == p.y)
}

/// The squares of the spell's area at `to` (aimed by `direction` for lines and cubes).
fn area_squares(
    e: &Encounter,
    def: &SpellDef,
    z: &ZoneSpec,
    to: Position,
    direction: Option<&str>,
) -> Result<Vec<Position>> {
    let (shape, size, directed) = match (&z.shape, z.size_ft, def.area) {
        (Some(s), Some(n), _) => {
            let size = i32::try_from(n).unwrap_or(i32::MAX);
            let shape = tabletop_grid::Shape::from_name(s, size)?;
            let directed = matches!(s.as_str(), "line" | "cube" | "cone");
            (shape, n, directed)
        }
        (_, _, Some(a)) => (a.shape.shape(a.size_ft)?, a.size_ft, a.shape.directed()),
        _ => {
            return Err(EngineError::Rule(format!(
                "{} has no area to place (internal: its catalog entry names none)",
                def.name
            )));
        }
    };
    let dir = match direction {
        Some(d) => Some(Direction::Compass(
            d.parse::<tabletop_grid::Compass>().map_err(|_| {
                EngineError::invalid(
                    "direction",
                    format!("'{d}' is not a direction; use n, ne, e, se, s, sw, w, nw"),
                )
            })?,
        )),
        None if directed => {
            return Err(EngineError::invalid(
                "direction",
                format!(
                    "{} is a {size}-ft area starting at `to`: give direction (n, ne, e, se, s, sw, w, nw) to lay it out",
                    def.name
                ),
            ));
        }
        None => None,
    };
    // A wall laid as a line starts on the chosen square and runs `size` feet that way, one
    // square per 5 ft (a line template from a square would leave that square out).
    if let (Some(Direction::Compass(c)), Some("line")) = (dir, line_shape(def, z)) {
        let (dx, dy) = c.step();
        let n = i32::try_from(size / 5).unwrap_or(0).max(1);
        let mut out = Vec::new();
        for k in 0..n {
            let p = to.offset(dx * k, dy * k);
            if !e.map.contains(p) || (e.map.blocks_movement(p) && !z.opens) {
                break;
            }
            out.push(p);
        }
        return Ok(out);
    }
    let aoe = match dir {
        Some(d) => AreaOfEffect::directed(shape, AreaOrigin::Square(to), d),
        None => AreaOfEffect::new(shape, AreaOrigin::Square(to)),
    }
    .with_metric(crate::combat::actions::attack::METRIC);
    Ok(e.map.area_squares(&aoe)?)
}

/// The squares of `area` with a side on a square outside it.
fn edge(area: &[Position]) -> Vec<Position> {
    area.iter()
        .copied()
        .filter(|p| {
            [(1, 0), (-1, 0), (0, 1), (0, -1)]
                .iter()
                .any(|&(dx, dy)| !on(area, p.offset(dx, dy)))
        })
        .collect()
}

fn line_shape(def: &SpellDef, z: &ZoneSpec) -> Option<&'static str> {
    match (&z.shape, def.area) {
        (Some(s), _) if s == "line" => Some("line"),
        (None, Some(a)) if a.shape == crate::model::spell::AreaKind::Line => Some("line"),
        _ => None,
    }
}

/// Changes the ground of the zone's squares as its spell says, recording what it replaced;
/// says what changed (and what could not: a wall is not raised on a creature's square).
fn lay_ground(e: &mut Encounter, a: &mut Aura, z: &ZoneSpec) -> Vec<String> {
    let mut lines = Vec::new();
    let mut g = ZoneGround::default();
    let mut skipped = Vec::new();
    for (n, &p) in a.squares.clone().iter().enumerate() {
        let Ok(before) = e.map.terrain(p).cloned() else {
            continue;
        };
        if z.difficult
            && before == Terrain::Open
            && e.map.set_terrain(p, Terrain::Difficult).is_ok()
        {
            g.terrain.push((p, before.clone()));
        }
        if z.opens
            && matches!(before, Terrain::Wall | Terrain::Obstacle)
            && e.map.set_terrain(p, Terrain::Open).is_ok()
        {
            g.terrain.push((p, before.clone()));
        }
        if z.obscured && !e.map.obscured(p) && e.map.set_obscured(p, true).is_ok() {
            g.obscured.push(p);
        }
        match z.wall {
            Some(WallKind::Opaque) => {
                if before == Terrain::Open && e.map.set_terrain(p, Terrain::Wall).is_ok() {
                    g.terrain.push((p, before));
                } else if before == Terrain::Open {
                    skipped.push(p);
                }
            }
            Some(kind) => {
                let mut prop = Prop::new(format!("{}-{}", a.id, n + 1), a.name.clone(), p);
                match kind {
                    WallKind::Transparent => {
                        prop.blocks_movement = true;
                        prop.cover = Cover::Total;
                    }
                    WallKind::Screen => prop.blocks_sight = true,
                    WallKind::ThreeQuarters => prop.cover = Cover::ThreeQuarters,
                    WallKind::Opaque => {}
                }
                let id = prop.id.clone();
                if e.map.place_prop(prop).is_ok() {
                    g.props.push(id);
                } else {
                    skipped.push(p);
                }
            }
            None => {}
        }
    }
    let lit = shed_light(e, a, z, &mut g);
    let n = a.squares.len();
    let mut what = Vec::new();
    if let Some(l) = lit {
        what.push(l);
    }
    if g.terrain
        .iter()
        .any(|(p, _)| e.map.terrain(*p).is_ok_and(|t| *t == Terrain::Difficult))
    {
        what.push("difficult terrain");
    }
    if !g.obscured.is_empty() {
        what.push("heavily obscured (no sight into, out of or through it)");
    }
    if z.opens && !g.terrain.is_empty() {
        what.push("a passage: its walls are open floor while it lasts");
    }
    match z.wall {
        Some(WallKind::Opaque) => what.push("a wall blocking movement and sight"),
        Some(WallKind::Transparent) => what.push("an invisible wall blocking movement, not sight"),
        Some(WallKind::Screen) => what.push("an opaque sheet creatures can cross"),
        Some(WallKind::ThreeQuarters) => what.push("three-quarters cover for those behind it"),
        None => {}
    }
    if !what.is_empty() {
        lines.push(format!(
            "{} ({}) covers {n} square{}: {}",
            a.name,
            a.id,
            if n == 1 { "" } else { "s" },
            what.join("; ")
        ));
    }
    if !skipped.is_empty() {
        lines.push(format!(
            "no automation for the wall on {} square{} a creature or prop occupies ({}): the DM pushes the creature to a side of its choice",
            skipped.len(),
            if skipped.len() == 1 { "" } else { "s" },
            skipped.iter().map(|p| p.to_string()).collect::<Vec<_>>().join(", ")
        ));
    }
    a.ground = g;
    lines
}

/// Sheds the zone's light: each of its squares darker than the spell's light takes it, and the
/// squares within `dim_ft` beyond the area that are darker than dim become dim (a light spell
/// does not light magical darkness). Records each square's own light before, to restore it.
/// Says what changed, if anything did.
fn shed_light(
    e: &mut Encounter,
    a: &Aura,
    z: &ZoneSpec,
    g: &mut ZoneGround,
) -> Option<&'static str> {
    use tabletop_grid::Light;
    let light = z.light?;
    let mut set = |e: &mut Encounter, p: Position, to: Light| {
        let now = e.map.light_at(p);
        let darker = now > to && (now != Light::MagicalDarkness || to == Light::MagicalDarkness);
        if darker {
            let own = e.map.light_override(p);
            if e.map.set_light(p, Some(to)).is_ok() {
                g.light.push((p, own));
            }
        }
    };
    for &p in &a.squares {
        set(e, p, light);
    }
    if let (Some(dim), Some(o)) = (z.dim_ft, a.origin) {
        let r = i32::try_from(a.radius_ft.saturating_add(dim)).unwrap_or(i32::MAX);
        if let Ok(shape) = tabletop_grid::Shape::from_name("sphere", r) {
            let aoe = AreaOfEffect::new(shape, AreaOrigin::Square(o))
                .with_metric(crate::combat::actions::attack::METRIC);
            for p in e.map.area_squares(&aoe).unwrap_or_default() {
                if !on(&a.squares, p) {
                    set(e, p, Light::Dim);
                }
            }
        }
    }
    if g.light.is_empty() {
        return None;
    }
    Some(match light {
        Light::Bright => "bright light (dim beyond) where it was darker",
        Light::Dim => "dim light where it was darker",
        Light::Darkness | Light::MagicalDarkness => {
            "magical darkness: darkvision cannot see through it, truesight can"
        }
    })
}

/// A zone has ended (concentration, duration, removal): its ground is restored and the
/// creatures it held are released. Says what happened.
pub fn ended(call: &mut Call<'_>, e: &mut Encounter, a: &Aura) -> Result<Vec<String>> {
    let mut lines = Vec::new();
    let mut a = a.clone();
    if !a.ground.is_empty() {
        let n = a.squares.len();
        crate::combat::zone_ground::lift(e, &mut a);
        lines.push(format!(
            "the ground under {} ({}) is as it was ({n} square{})",
            a.name,
            a.id,
            if n == 1 { "" } else { "s" }
        ));
    }
    if a.holds
        && let Some(c) = a.condition
    {
        for id in e
            .order
            .iter()
            .map(|c| c.character_id.clone())
            .collect::<Vec<_>>()
        {
            let mut s = crate::combat::sheet(call, &id)?;
            let before = s.conditions.len();
            s.conditions
                .retain(|x| !(x.condition == c && x.source == a.name && x.duration.is_none()));
            if s.conditions.len() != before {
                lines.push(format!("{} is no longer {c} ({} ended)", s.name, a.name));
                crate::combat::put_sheet(call, &s)?;
            }
        }
    }
    Ok(lines)
}

/// Casts a zone spell in an encounter: the area at `to` (within range), the ground changed,
/// the zone recorded with its caster's save DC and the slot's dice, held by concentration or
/// lasting its duration; creatures inside are struck at once when the spell says so.
#[allow(clippy::too_many_arguments)]
pub fn place(
    call: &mut Call<'_>,
    turn: &mut Turn<'_>,
    caster: &mut Character,
    def: &SpellDef,
    z: &ZoneSpec,
    numbers: &CasterNumbers,
    slot: &SlotUse,
    tag: &str,
) -> Result<ActionOutcome> {
    let req = turn.req;
    let Some(to) = req.to else {
        return Err(EngineError::invalid(
            "to",
            format!(
                "{} is placed on the map: give `to` {{x, y}}, its point of origin within {}",
                def.name, def.range
            ),
        ));
    };
    turn.encounter.map.check(to)?;
    let me = turn.encounter.map.require_creature(&caster.id)?.position;
    if let Some(r) = def.range_ft() {
        let d = tabletop_grid::distance_ft(me, to, crate::combat::actions::attack::METRIC);
        if d > r {
            return Err(EngineError::Rule(format!(
                "({}, {}) is {d} ft from {}; {} has a range of {}",
                to.x, to.y, caster.name, def.name, def.range
            )));
        }
    }
    let mut squares = area_squares(&turn.encounter, def, z, to, req.direction.as_deref())?;
    if z.ring {
        squares = edge(&squares);
    }
    let entry = def.mechanics();
    let mut lines = Vec::new();
    // A new casting replaces the caster's old zone of the same spell.
    if let Some(i) = active(&turn.encounter, &caster.id, def) {
        let old = turn.encounter.auras.remove(i);
        lines.extend(ended(call, &mut turn.encounter, &old)?);
    }
    if def.concentration {
        crate::concentration::begin(call, caster, &def.name, &mut lines)?;
    }
    crate::combat::put_sheet(call, caster)?;
    lines.extend(crate::combat::auras::expire(call, &mut turn.encounter)?);
    let next = turn
        .encounter
        .auras
        .iter()
        .filter_map(|a| a.id.strip_prefix("au").and_then(|x| x.parse::<u32>().ok()))
        .max()
        .unwrap_or(0)
        + 1;
    // The catalog's dice when the SRD data has none (Glyph of Warding 5d8, +1d8 a slot).
    let damage = def
        .damage_dice(slot.level, caster.cantrip_level(), numbers.modifier)
        .or_else(|| entry.and_then(|m| m.dice_at(def.level, slot.level)));
    let damage_type = if z.damage_choice.is_empty() {
        def.damage_type
    } else {
        match req.damage_type {
            Some(t) if z.damage_choice.contains(&t) => Some(t),
            other => {
                return Err(EngineError::invalid(
                    "damageType",
                    format!(
                        "{} needs damageType, one of {}{}",
                        def.name,
                        z.damage_choice
                            .iter()
                            .map(ToString::to_string)
                            .collect::<Vec<_>>()
                            .join(", "),
                        other
                            .map(|t| format!(" ({t} is not one)"))
                            .unwrap_or_default()
                    ),
                ));
            }
        }
    };
    let condition = entry.and_then(|m| m.condition);
    let mut a = Aura {
        id: format!("au{next}"),
        name: def.name.clone(),
        bearer_id: caster.id.clone(),
        radius_ft: z.size_ft.or(def.area.map(|x| x.size_ft)).unwrap_or(5),
        damage: damage.clone(),
        damage_type,
        healing: None,
        condition,
        save: def.save.map(|s| AuraSave {
            ability: s.ability,
            dc: numbers.save_dc,
            half: s.half,
        }),
        affects: match z.affects {
            ZoneAffects::All => AuraAffects::AllAndSelf,
            ZoneAffects::Enemies => AuraAffects::Enemies,
        },
        rounds_left: z.rounds.or_else(|| def.duration_rounds()),
        concentration: def.concentration.then(|| def.name.clone()),
        touched: Vec::new(),
        halves_speed: false,
        squares,
        origin: Some(to),
        trigger: z.trigger,
        holds: z.holds,
        per_5ft: z.per_5ft.clone(),
        moves_ft: z.moves_ft,
        ground: ZoneGround::default(),
        ward: (z.alarm || z.once || z.burst_ft.is_some() || z.illusion).then_some(ZoneWard {
            alarm: z.alarm,
            once: z.once,
            burst_ft: z.burst_ft,
            illusion_dc: z.illusion.then_some(numbers.save_dc),
        }),
    };
    lines.extend(lay_ground(&mut turn.encounter, &mut a, z));
    let strikes = a.damage.is_some() || a.condition.is_some() || a.per_5ft.is_some();
    let mut summary = describe(&a, strikes);
    if let Some(w) = &a.ward {
        if w.alarm {
            summary.push_str(&format!(
                "; a creature that enters it alerts {}",
                caster.name
            ));
        }
        if let Some(r) = w.burst_ft {
            summary.push_str(&format!(", bursting {r} ft around its origin"));
        }
        if w.once {
            summary.push_str(", once: then it ends");
        }
        if let Some(dc) = w.illusion_dc {
            summary.push_str(&format!(
                "; an illusion: a Search with Investigation (ability int) against DC {dc} sees through it"
            ));
        }
    }
    turn.encounter.auras.push(a.clone());
    if z.on_cast && strikes && a.per_5ft.is_none() {
        let index = turn.encounter.auras.len() - 1;
        let inside = crate::combat::auras::inside_now(call, &turn.encounter, index)?;
        if inside.is_empty() {
            lines.push(format!("no creature is inside {} as it appears", def.name));
        }
        for id in inside {
            lines.extend(crate::combat::auras::apply(
                call,
                &mut turn.encounter,
                index,
                &id,
            )?);
        }
    }
    if let Some(r) = entry.and_then(|m| m.reason.as_deref()) {
        lines.push(format!("left to the DM: {r}"));
    }
    if slot.spent {
        lines.push(format!(
            "{}{} slot spent; left: {}",
            crate::model::slots::ordinal(slot.level),
            if slot.pact { " pact" } else { "" },
            caster.spell_slots.summary()
        ));
    }
    let headline = format!(
        "{} casts {}{tag}: a zone ({}) on {} square{} from ({}, {}){}.",
        caster.name,
        def.name,
        a.id,
        a.squares.len(),
        if a.squares.len() == 1 { "" } else { "s" },
        to.x,
        to.y,
        summary
    );
    call.record_change("character", &caster.id, headline.clone());
    turn.actor = Some(crate::combat::sheet(call, &caster.id)?);
    Ok(ActionOutcome {
        headline,
        lines,
        details: serde_json::json!({ "zone": a }),
        ..Default::default()
    })
}

fn describe(a: &Aura, strikes: bool) -> String {
    if !strikes {
        return String::new();
    }
    let when = match a.trigger {
        crate::model::aura::ZoneTrigger::StartOrEnter => {
            "a creature that starts its turn in it or enters it for the first time on a turn"
        }
        crate::model::aura::ZoneTrigger::Start => "a creature that starts its turn in it",
        crate::model::aura::ZoneTrigger::Enter => {
            "a creature that enters it for the first time on a turn"
        }
        crate::model::aura::ZoneTrigger::EnterOrEnd => {
            "a creature that enters it or ends its turn in it"
        }
        crate::model::aura::ZoneTrigger::End => "a creature that ends its turn in it",
        crate::model::aura::ZoneTrigger::Never => "creatures inside as it appears",
    };
    let mut what = Vec::new();
    if let Some(d) = &a.damage {
        what.push(format!(
            "{d}{}",
            a.damage_type.map(|t| format!(" {t}")).unwrap_or_default()
        ));
    }
    if let Some(c) = a.condition {
        what.push(if a.holds {
            format!("{c} while held")
        } else {
            c.to_string()
        });
    }
    if let Some(d) = &a.per_5ft {
        what.push(format!(
            "{d}{} for every 5 ft moved inside",
            a.damage_type.map(|t| format!(" {t}")).unwrap_or_default()
        ));
    }
    let save = a
        .save
        .map(|s| {
            format!(
                " ({} save DC {}{})",
                s.ability,
                s.dc,
                if s.half { " for half" } else { "" }
            )
        })
        .unwrap_or_default();
    format!("; it strikes {when}: {}{save}", what.join(", "))
}

/// Casting the spell of a zone its caster already holds moves it (no slot, no new casting):
/// to `to`, at most `moves_ft` from where it is. A creature the zone moves onto is not struck
/// for that (it did not enter the zone); it is at the start of its turn.
pub fn move_zone(
    call: &mut Call<'_>,
    turn: &mut Turn<'_>,
    caster: &Character,
    def: &SpellDef,
    index: usize,
) -> Result<ActionOutcome> {
    let e = &mut turn.encounter;
    let Some(mut a) = e.auras.get(index).cloned() else {
        return Err(EngineError::Rule("internal: the zone vanished".into()));
    };
    let Some(max) = a.moves_ft else {
        return Err(EngineError::Rule(format!(
            "{} ({}) is already on the map and does not move; it lasts while {} holds it (end it with manage_concentration break)",
            a.name, a.id, caster.name
        )));
    };
    let Some(to) = turn.req.to else {
        return Err(EngineError::invalid(
            "to",
            format!(
                "{} is already on the map: give `to` {{x, y}} to move it (up to {max} ft), no slot spent",
                a.name
            ),
        ));
    };
    e.map.check(to)?;
    let from = a.origin.unwrap_or(to);
    let d = tabletop_grid::distance_ft(from, to, crate::combat::actions::attack::METRIC);
    if d > max {
        return Err(EngineError::Rule(format!(
            "{} moves at most {max} ft; ({}, {}) is {d} ft from its place ({}, {})",
            a.name, to.x, to.y, from.x, from.y
        )));
    }
    let (dx, dy) = (to.x - from.x, to.y - from.y);
    crate::combat::zone_ground::lift(e, &mut a);
    let moved: Vec<Position> = a
        .squares
        .iter()
        .map(|p| p.offset(dx, dy))
        .filter(|p| e.map.contains(*p))
        .collect();
    a.squares = moved;
    a.origin = Some(to);
    let spec = spec(def);
    let mut lines = match spec {
        Some(z) => lay_ground(e, &mut a, z),
        None => Vec::new(),
    };
    lines.push(format!(
        "a creature {} moves onto is not struck for that; it is when it starts its turn there or enters it",
        a.name
    ));
    let headline = format!(
        "{} moves {} ({}) {d} ft to ({}, {}) (no slot spent, no spell cast).",
        caster.name, a.name, a.id, to.x, to.y
    );
    e.auras[index] = a.clone();
    call.record_change("character", &caster.id, headline.clone());
    Ok(ActionOutcome {
        headline,
        lines,
        details: serde_json::json!({ "zone": a }),
        ..Default::default()
    })
}

/// After `id` moved along `path` (start first): every fixed zone the path enters strikes it
/// once this turn (walls and clouds crossed, not only the square it ends on), and a zone that
/// hurts per 5 ft (Spike Growth) deals its dice for every step inside.
pub fn crossed(
    call: &mut Call<'_>,
    e: &mut Encounter,
    id: &str,
    path: &[Position],
) -> Result<Vec<String>> {
    let mut lines = Vec::new();
    let Some(size) = e.map.creature(id).map(|c| c.size) else {
        return Ok(lines);
    };
    let mut spent: Vec<usize> = Vec::new();
    for i in 0..e.auras.len() {
        let a = &e.auras[i];
        // It strikes a creature that ends its move inside, or one that came from outside and
        // crossed it (a wall passed through).
        let from_outside = path
            .first()
            .is_some_and(|p| !tabletop_grid::footprint(*p, size).any(|q| on(&a.squares, q)));
        if a.squares.is_empty()
            || !(crate::combat::auras::touches(call, e, i, id)
                || (from_outside && crate::combat::auras::affects_creature(e, i, id)))
        {
            continue;
        }
        let steps_inside = path
            .iter()
            .skip(1)
            .filter(|p| tabletop_grid::footprint(**p, size).any(|q| on(&a.squares, q)))
            .count();
        if steps_inside == 0 {
            continue;
        }
        if let Some(per) = a.per_5ft.clone() {
            let n = u32::try_from(steps_inside).unwrap_or(u32::MAX);
            let expr = crate::catalog::spells::add_dice(&per, &per, n - 1);
            lines.extend(hurt(call, e, i, id, &expr, steps_inside)?);
        }
        let a = &e.auras[i];
        let fresh = !crate::combat::auras::touched_now(e, a, id);
        let ward = a.ward.clone().unwrap_or_default();
        if ward.alarm && fresh {
            lines.push(alarm(e, i, id));
        }
        let a = &e.auras[i];
        let strikes = a.damage.is_some() || a.condition.is_some();
        if strikes && a.trigger.on_enter() && fresh {
            match (ward.burst_ft, a.origin) {
                (Some(r), Some(o)) => {
                    lines.push(format!(
                        "{} ({}) is triggered: it bursts {r} ft around ({}, {})",
                        a.name, a.id, o.x, o.y
                    ));
                    for who in burst(call, e, i, o, r)? {
                        lines.extend(crate::combat::auras::apply(call, e, i, &who)?);
                    }
                }
                _ => lines.extend(crate::combat::auras::apply(call, e, i, id)?),
            }
            if ward.once {
                spent.push(i);
            }
        }
    }
    lines.extend(release_outside(call, e, id)?);
    for i in spent.into_iter().rev() {
        let a = e.auras.remove(i);
        lines.push(format!("{} ({}) is spent and ends", a.name, a.id));
        lines.extend(ended(call, e, &a)?);
    }
    Ok(lines)
}

/// A creature that moved out of zones holding it (frightened by Antipathy) is released from
/// what they imposed.
fn release_outside(call: &mut Call<'_>, e: &Encounter, id: &str) -> Result<Vec<String>> {
    let out: Vec<(tabletop_rules::Condition, String)> = e
        .auras
        .iter()
        .filter(|a| a.holds && !a.squares.is_empty() && !covers(e, a, id))
        .filter_map(|a| Some((a.condition?, a.name.clone())))
        .collect();
    let mut lines = Vec::new();
    if out.is_empty() {
        return Ok(lines);
    }
    let mut s = crate::combat::sheet(call, id)?;
    for (c, name) in out {
        let before = s.conditions.len();
        s.conditions
            .retain(|x| !(x.condition == c && x.source == name && x.duration.is_none()));
        if s.conditions.len() != before {
            lines.push(format!("{} is no longer {c}: it left {name}", s.name));
        }
    }
    if !lines.is_empty() {
        crate::combat::put_sheet(call, &s)?;
    }
    Ok(lines)
}

/// Alarm: `id` entered ward `index`; its caster is alerted (and the zone remembers it touched
/// `id` this turn, so one entry is one alarm).
fn alarm(e: &mut Encounter, index: usize, id: &str) -> String {
    let (round, turn) = (e.round, e.turn);
    let who = e
        .combatant(id)
        .map_or_else(|| id.to_string(), |c| c.name.clone());
    let Some(a) = e.auras.get(index) else {
        return String::new();
    };
    let caster = e
        .combatant(&a.bearer_id)
        .map_or_else(|| a.bearer_id.clone(), |c| c.name.clone());
    let line = format!(
        "{} ({}): {who} enters the warded area; {caster} is alerted",
        a.name, a.id
    );
    e.log(line.clone());
    if let Some(a) = e.auras.get_mut(index) {
        a.touched.push((id.to_string(), round, turn));
    }
    line
}

/// The creatures zone `index` affects within `r` ft of `o`.
fn burst(call: &Call<'_>, e: &Encounter, index: usize, o: Position, r: u32) -> Result<Vec<String>> {
    let a = &e.auras[index];
    let mut out = Vec::new();
    for c in e.order.iter().filter(|c| !c.removed) {
        let Some(m) = e.map.creature(&c.character_id) else {
            continue;
        };
        let d = m
            .squares()
            .map(|q| tabletop_grid::distance_ft(o, q, crate::combat::actions::attack::METRIC))
            .min()
            .unwrap_or(u32::MAX);
        let side_ok = match a.affects {
            AuraAffects::Enemies => e.combatant(&a.bearer_id).is_none_or(|b| b.side != c.side),
            _ => true,
        };
        let _ = call;
        if d <= r && side_ok {
            out.push(c.character_id.clone());
        }
    }
    Ok(out)
}

fn hurt(
    call: &mut Call<'_>,
    e: &mut Encounter,
    index: usize,
    id: &str,
    expr: &str,
    steps: usize,
) -> Result<Vec<String>> {
    let a = e.auras[index].clone();
    let mut t = crate::combat::sheet(call, id)?;
    let mut lines = Vec::new();
    if t.dead {
        return Ok(lines);
    }
    let r = tabletop_rules::dice::roll(expr, call.rng()?)?;
    call.record_roll(&r);
    let amount = u32::try_from(r.total.max(0)).unwrap_or(0);
    let mut changes = Vec::new();
    let res = crate::update::damage(
        &mut t,
        &[DamagePart::new(a.damage_type, amount)],
        false,
        &mut changes,
    )?;
    lines.push(format!(
        "{} ({} ft moved inside, {}): {} {}",
        a.name,
        steps * 5,
        r.summary(),
        t.name,
        res.summary()
    ));
    crate::concentration::after_damage(call, &mut t, res.total, &mut lines)?;
    crate::concentration::enforce(call, &mut t, &mut lines)?;
    crate::combat::put_sheet(call, &t)?;
    call.record_change("character", &t.id, lines.join("; "));
    if t.dead
        && let Some(line) = crate::combat::bodies::lay_body(e, &t.id, &t.name)?
    {
        lines.push(line);
    }
    Ok(lines)
}

/// End of `id`'s turn: every zone that strikes creatures ending their turn in it (Wall of
/// Fire, Grease) and that it stands in applies.
pub fn at_turn_end(call: &mut Call<'_>, e: &mut Encounter, id: &str) -> Result<Vec<String>> {
    let mut lines = crate::combat::auras::expire(call, e)?;
    for i in 0..e.auras.len() {
        let a = &e.auras[i];
        let strikes = a.damage.is_some() || a.condition.is_some();
        if strikes && a.trigger.at_end() && crate::combat::auras::touches(call, e, i, id) {
            lines.extend(crate::combat::auras::apply(call, e, i, id)?);
        }
    }
    Ok(lines)
}
