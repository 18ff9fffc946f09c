//! Resolving a save-based (or automatic) effect where it lands: the named targets, or an area
//! (a stat block's text, a lair action's description, a dragonborn's breath) aimed from the
//! actor toward `to` or `direction`. Damage is rolled once; each target saves with its own
//! sheet (dodging DEX advantage, squeezing, cover against the area's origin), takes the damage
//! through the pipeline (half on a success when the save halves it) and, on a failed save, the
//! conditions the text names.

use serde_json::{Value, json};
use tabletop_grid::{
    AreaOfEffect, AreaOrigin, Compass, CoverOptions, Direction, Position, Shape, footprint,
};
use tabletop_rules::Ability;
use tabletop_rules::d20::{D20Request, D20Test, roll_d20_test};
use tabletop_rules::damage::DamagePart;
use tabletop_rules::dice;

use super::ability_text::{TextArea, duration_in, halves};
use super::{distance, dodging_dex_save_advantage, names, resolve, text_targets};
use crate::combat::actions::Turn;
use crate::combat::actions::attack::apply_damage_to;
use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::character::{StatAction, StatDamage};
use crate::model::encounter::Encounter;

/// Where the effect lands: ids of the targets and, for an area, its origin (for cover).
struct Landing {
    targets: Vec<String>,
    origin: Option<AreaOrigin>,
    area: Option<String>,
}

/// The square of `actor`'s space nearest to `aim` (the origin of a cone or line it breathes).
fn origin_square(enc: &Encounter, actor_id: &str, aim: Position) -> Result<Position> {
    let cr = enc.map.require_creature(actor_id)?;
    Ok(footprint(cr.position, cr.size)
        .min_by_key(|p| (p.x - aim.x).pow(2) + (p.y - aim.y).pow(2))
        .unwrap_or(cr.position))
}

/// The targets: `targets`/`target` when given; otherwise `area` (read from `text` for a stat
/// block) from the actor toward `to` or `direction` (creatures "of its choice" are only the
/// hostile ones).
fn landing(
    call: &Call<'_>,
    turn: &Turn<'_>,
    actor_id: Option<&str>,
    text: &str,
    area: Option<TextArea>,
) -> Result<Landing> {
    let enc = &turn.encounter;
    let mut named = Vec::new();
    if !turn.req.target.is_empty() {
        named.push(turn.req.target.clone());
    }
    named.extend(turn.req.targets.iter().filter(|w| !w.is_empty()).cloned());
    if !named.is_empty() {
        let mut ids = Vec::new();
        for (i, w) in named.iter().enumerate() {
            let field = if i == 0 && !turn.req.target.is_empty() {
                "targetId"
            } else {
                "targets"
            };
            let (cb, _) = resolve(call, enc, w, field)?;
            if !ids.contains(&cb.character_id) {
                ids.push(cb.character_id);
            }
        }
        return Ok(Landing {
            targets: ids,
            origin: None,
            area: None,
        });
    }
    let choice = text.to_lowercase().contains("choice");
    let side = actor_id.and_then(|a| enc.combatant(a)).map(|c| c.side);
    let keep = |id: &str| {
        let Some(cb) = enc.combatant(id) else {
            return false;
        };
        // The dead lie as bodies off the live map: areas and "each creature within" pass them.
        !cb.removed
            && enc.map.creature(id).is_some()
            && (!choice || side.is_none_or(|s| cb.side.hostile_to(s)))
    };
    match (area, actor_id) {
        (Some(TextArea::Within(ft)), Some(a)) => {
            let mut ids = Vec::new();
            for cb in &enc.order {
                if cb.character_id != a
                    && keep(&cb.character_id)
                    && distance(enc, a, &cb.character_id)? <= ft
                {
                    ids.push(cb.character_id.clone());
                }
            }
            Ok(Landing {
                targets: ids,
                origin: None,
                area: Some(format!("each creature within {ft} ft")),
            })
        }
        (Some(TextArea::Shape(shape)), _) => {
            let aim = turn.req.to;
            let direction = match (&turn.req.direction, aim) {
                (_, Some(p)) => Some(Direction::Toward(p)),
                (Some(d), None) => {
                    Some(Direction::Compass(d.parse::<Compass>().map_err(|e| {
                        EngineError::invalid("direction", e.to_string())
                    })?))
                }
                (None, None) => None,
            };
            let origin = match (shape.needs_direction(), actor_id) {
                (true, Some(a)) => {
                    let Some(dir) = direction else {
                        return Err(EngineError::invalid(
                            "to",
                            "aim the area: give to (a square) or direction (\"east\"), or list the targets",
                        ));
                    };
                    let toward = match dir {
                        Direction::Toward(p) => p,
                        Direction::Compass(c) => {
                            let (dx, dy) = c.step();
                            let p = enc.map.require_creature(a)?.position;
                            p.offset(dx * 100, dy * 100)
                        }
                        Direction::Vector { .. } => enc.map.require_creature(a)?.position,
                    };
                    AreaOrigin::Square(origin_square(enc, a, toward)?)
                }
                (true, None) => {
                    return Err(EngineError::invalid(
                        "targets",
                        "a cone or line needs an actor to start from; list the targets instead",
                    ));
                }
                (false, _) => match (aim, actor_id) {
                    (Some(p), _) => AreaOrigin::Square(p),
                    (None, Some(a)) => AreaOrigin::Square(enc.map.require_creature(a)?.position),
                    (None, None) => {
                        return Err(EngineError::invalid(
                            "to",
                            "give the area's centre square in to, or list the targets",
                        ));
                    }
                },
            };
            let aoe = match direction.filter(|_| shape.needs_direction()) {
                Some(d) => AreaOfEffect::directed(shape, origin, d),
                None => AreaOfEffect::new(shape, origin),
            }
            .with_metric(super::METRIC);
            let ids = enc
                .map
                .creatures_in_area(&aoe, actor_id)?
                .into_iter()
                .filter(|id| keep(id))
                .collect();
            Ok(Landing {
                targets: ids,
                origin: Some(origin),
                area: Some(shape_text(shape)),
            })
        }
        (Some(TextArea::Within(_)), None) | (None, _) => Err(EngineError::invalid(
            "targets",
            "name the targets (targets: [{name}]) — the text gives no area to find them by",
        )),
    }
}

fn shape_text(s: Shape) -> String {
    match s {
        Shape::Sphere { radius_ft } => format!("{radius_ft}-ft radius"),
        Shape::Cylinder { radius_ft, .. } => format!("{radius_ft}-ft cylinder"),
        Shape::Cone { length_ft } => format!("{length_ft}-ft cone"),
        Shape::Cube { size_ft } => format!("{size_ft}-ft cube"),
        Shape::Line {
            length_ft,
            width_ft,
        } => format!("{length_ft}-ft line {width_ft} ft wide"),
    }
}

/// The damage expression of a stat-block effect ("(18d6)[fire]").
fn expression(parts: &[StatDamage]) -> String {
    parts
        .iter()
        .map(|d| match d.damage_type {
            Some(t) => format!("({})[{t}]", d.dice),
            None => format!("({})", d.dice),
        })
        .collect::<Vec<_>>()
        .join(" + ")
}

/// What resolving an effect did.
pub(crate) struct Resolved {
    pub lines: Vec<String>,
    pub details: Value,
    pub summary: String,
}

/// Resolves a save-based (or automatic) effect on its landing (`area`, or the named targets):
/// damage rolled once, each target's save (effective stats, dodging DEX advantage, cover
/// against the area's origin), damage through the pipeline then concentration, conditions on
/// a failed save. Stat-block abilities, lair actions and a dragonborn's breath come here.
pub(crate) fn resolve_effect(
    call: &mut Call<'_>,
    turn: &mut Turn<'_>,
    actor_id: Option<&str>,
    action: &StatAction,
    area: Option<TextArea>,
) -> Result<Resolved> {
    let text = action.desc.clone();
    let land = landing(call, turn, actor_id, &text, area)?;
    let mut lines = Vec::new();
    if let Some(a) = &land.area {
        lines.push(format!("Area: {a}"));
    }
    let expr = expression(&action.damage);
    let roll = if expr.is_empty() {
        None
    } else {
        let r = dice::roll(&expr, call.rng()?)?;
        call.record_roll(&r);
        lines.push(format!("Damage roll: {}", r.summary()));
        Some(r)
    };
    // Conditions of a failed save, and those only of a save failed by 5 or more ("it is also
    // paralyzed": a mummy's Dreadful Glare).
    let (conditions, deep) = action
        .dc
        .as_ref()
        .map(|_| text_targets::conditions_by_margin(&text))
        .unwrap_or_default();
    let mut per_target = Vec::new();
    let mut failed = Vec::new();
    let mut saved = Vec::new();
    for id in &land.targets {
        let mut c = crate::combat::sheet(call, id)?;
        if c.dead {
            continue;
        }
        // Whom the text leaves out, and who is immune after an earlier save.
        let immunity = action.dc.as_ref().and_then(|_| {
            text_targets::immunity_name(
                &text,
                &actor_name(turn, actor_id),
                crate::catalog::monster_abilities::bare_name(&action.name),
            )
        });
        if let Some(why) = text_targets::left_out(&text, &c).or_else(|| {
            immunity
                .as_deref()
                .and_then(|n| text_targets::immune_now(&c, n))
        }) {
            lines.push(why);
            continue;
        }
        let mut fail = true;
        let mut share = crate::magic::evasion::Share::Full;
        let mut missed_by = 0;
        let mut save_json = Value::Null;
        if let Some(dc) = &action.dc {
            let mut req = D20Request::new(D20Test::Save {
                ability: dc.ability,
            })
            .dc(dc.value)
            .labelled(format!(
                "{} {:?} save vs {}",
                c.name, dc.ability, action.name
            ));
            if let Some(why) = dodging_dex_save_advantage(&turn.encounter, id, &c, dc.ability) {
                req = req.advantage(why);
            }
            // The target's traits (Danger Sense on a DEX save, Dwarven Resilience against
            // poison, Brave against fear): the same rule as a spell's save.
            let vs = crate::saves::SaveAgainst {
                conditions: conditions.clone(),
                damage: action.damage.iter().find_map(|d| d.damage_type),
                magic: false,
            };
            for why in crate::saves::trait_advantages(&c, dc.ability, &vs) {
                req = req.advantage(why);
            }
            if dc.ability == Ability::Dexterity && turn.encounter.map.is_squeezing(id) {
                req = req.disadvantage("squeezing into a smaller space");
            }
            if dc.ability == Ability::Dexterity
                && let Some(origin) = land.origin
                && let Some(cr) = turn.encounter.map.creature(id)
                && let Ok(cov) = turn.encounter.map.cover_from_origin(
                    origin,
                    cr.position,
                    cr.size,
                    &CoverOptions::default(),
                )
                && let Some(b) = cov.dex_save_bonus.filter(|b| *b > 0)
            {
                req = req.bonus("cover", b);
            }
            let save = roll_d20_test(&c.effective(), &req, call.rng()?);
            call.record_roll(&save);
            fail = save.success != Some(true);
            missed_by = save.dc.unwrap_or(0) - save.total.unwrap_or(0);
            lines.push(save.summary());
            // Legendary Resistance turns a failure into a success, before Evasion reads it.
            if fail
                && let Some((ok, line)) =
                    crate::combat::legendary::on_failed_save(Some(&turn.encounter), &mut c)
            {
                fail = !ok;
                lines.push(line);
                crate::combat::put_sheet(call, &c)?;
            }
            save_json = serde_json::to_value(&save).unwrap_or(Value::Null);
            // A Ring of Evasion, then Evasion: the one rule of a save against damage.
            let half = roll.is_some() && halves(dc, &text);
            let settled = crate::magic::evasion::settle(&mut c, dc.ability, half, !fail);
            if settled.saved && fail {
                crate::combat::put_sheet(call, &c)?;
            }
            lines.extend(settled.lines);
            fail = !settled.saved;
            share = settled.share;
        }
        let mut changes = Vec::new();
        let mut taken = None;
        if let Some(r) = &roll {
            let parts: Vec<DamagePart> = r
                .damage_by_type()
                .into_iter()
                .map(|(t, amount)| {
                    DamagePart::new(t, share.of(u32::try_from(amount.max(0)).unwrap_or(0)))
                })
                .collect();
            if parts.iter().any(|p| p.amount > 0) {
                let (res, _, after) =
                    apply_damage_to(call, &mut turn.encounter, id, &parts, false, &mut changes)?;
                c = after;
                taken = Some(res.total);
            }
        }
        if fail && !c.dead {
            let deep_now = if missed_by >= 5 { &deep[..] } else { &[] };
            if missed_by < 5 && !deep.is_empty() {
                changes.push(format!(
                    "{} failed by {missed_by}, less than 5: not {} (only a save failed by 5 or more)",
                    c.name,
                    deep.iter()
                        .map(|d| d.to_string())
                        .collect::<Vec<_>>()
                        .join(" or ")
                ));
            }
            for cond in conditions.iter().chain(deep_now) {
                let dur = action.dc.as_ref().and_then(|dc| duration_in(&text, dc));
                let line = super::add_condition(
                    call,
                    &mut c,
                    *cond,
                    format!("{} ({})", action.name, actor_name(turn, actor_id)),
                    dur,
                )?;
                changes.push(line);
            }
        }
        if fail && let Some(line) = text_targets::ageing(call, &text, &c, missed_by)? {
            changes.push(line);
        }
        if let Some(name) = &immunity
            && (!fail || text_targets::immune_once_it_ends(&text))
        {
            changes.push(text_targets::grant_immunity(call, &mut c, name, !fail)?);
        }
        crate::combat::put_sheet(call, &c)?;
        if !changes.is_empty() {
            call.record_change("character", &c.id, changes.join("; "));
        }
        lines.extend(changes.iter().cloned());
        if action.dc.is_some() {
            if fail {
                failed.push(c.name.clone())
            } else {
                saved.push(c.name.clone())
            }
        }
        per_target.push(json!({
            "id": c.id, "name": c.name, "save": save_json, "failed": fail,
            "damage": taken, "hp": c.hp, "dead": c.dead,
        }));
    }
    let summary = if land.targets.is_empty() {
        "it reaches no one".to_string()
    } else if action.dc.is_some() {
        format!("{} fail, {} succeed", names(&failed), names(&saved))
    } else {
        format!("it affects {}", per_target.len())
    };
    Ok(Resolved {
        lines,
        details: json!({"targets": per_target, "damageRoll": roll, "area": land.area}),
        summary,
    })
}

fn actor_name(turn: &Turn<'_>, actor_id: Option<&str>) -> String {
    actor_id
        .and_then(|a| turn.encounter.combatant(a))
        .map_or_else(|| "lair".into(), |c| c.name.clone())
}
