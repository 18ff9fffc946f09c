//! Hide and search.

use serde_json::json;
use tabletop_grid::{Cover, CoverOptions, Sense, SightOptions, Visibility};
use tabletop_rules::d20::{D20Request, D20Test, roll_d20_test};
use tabletop_rules::{Ability, Condition, Skill};

use super::{
    METRIC, actor, hostiles_of, incapacitated, names, passive_perception, rule, senses_of,
    take_helped_check,
};
use crate::combat::actions::{ActionOutcome, Turn};
use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::character::Character;
use crate::model::encounter::Combatant;

/// Why `observer` cannot see `hider` clearly enough to stop it hiding, or `None` when it sees it
/// clearly (clear or lightly obscured, no more than half cover, not invisible to it).
fn unseen_because(
    turn: &Turn<'_>,
    hider: &Character,
    observer: &Combatant,
    observer_sheet: &Character,
) -> Result<Option<String>> {
    let enc = &turn.encounter;
    if incapacitated(observer_sheet) {
        return Ok(Some("incapacitated".into()));
    }
    let senses = senses_of(observer_sheet);
    let opts = SightOptions {
        creatures_block: false,
        metric: METRIC,
    };
    let v = enc
        .map
        .creature_visibility(&observer.character_id, &hider.id, &senses, &opts)?;
    match v.visibility {
        Visibility::Blocked => return Ok(Some("no line of sight".into())),
        Visibility::HeavilyObscured => return Ok(Some("heavily obscured".into())),
        Visibility::Clear | Visibility::LightlyObscured => {}
    }
    let special = matches!(v.sense, Some(Sense::Blindsight | Sense::Truesight));
    if hider.has_condition(Condition::Invisible) && !special {
        return Ok(Some("invisible".into()));
    }
    if senses.blinded && !special {
        return Ok(Some("blinded".into()));
    }
    let cover =
        enc.map
            .creature_cover(&observer.character_id, &hider.id, &CoverOptions::default())?;
    if cover.cover >= Cover::ThreeQuarters {
        return Ok(Some(format!(
            "{} cover",
            if cover.cover == Cover::Total {
                "total"
            } else {
                "three-quarters"
            }
        )));
    }
    // Naturally Stealthy: a creature at least one size larger between them obscures it.
    if let Some(source) = hider
        .derived
        .as_ref()
        .and_then(|d| d.hide_behind_larger.first())
        && let Some(me) = enc.map.creature(&hider.id)
    {
        let mut only_larger = enc.map.clone();
        let smaller: Vec<String> = only_larger
            .creatures()
            .filter(|c| {
                c.id != hider.id
                    && c.id != observer.character_id
                    && tabletop_grid::geometry::size_rank(c.size)
                        <= tabletop_grid::geometry::size_rank(me.size)
            })
            .map(|c| c.id.clone())
            .collect();
        for id in smaller {
            let _ = only_larger.remove_creature(&id);
        }
        let behind = only_larger.creature_cover(
            &observer.character_id,
            &hider.id,
            &CoverOptions {
                creatures_give_cover: true,
            },
        )?;
        if behind.cover >= Cover::Half {
            return Ok(Some(format!("{source}: obscured by a larger creature")));
        }
    }
    Ok(None)
}

/// Hide: a Stealth check (effective stats, so armor's Stealth disadvantage counts) against each
/// hostile's passive Perception. Refused while a hostile sees the actor clearly (less than
/// three-quarters cover, not heavily obscured, not invisible to it). Sets `hidden` to the total.
pub fn hide(call: &mut Call<'_>, turn: &mut Turn<'_>) -> Result<ActionOutcome> {
    let a = actor(turn, "hide")?.clone();
    let me = turn
        .encounter
        .combatant(&a.id)
        .cloned()
        .ok_or_else(|| EngineError::Rule("internal: the actor left the order".into()))?;
    let hostiles = hostiles_of(call, &turn.encounter, &me)?;
    let mut seen_by = Vec::new();
    let mut lines = Vec::new();
    for (cb, c) in &hostiles {
        match unseen_because(turn, &a, cb, c)? {
            Some(why) => lines.push(format!("{}: cannot see {} clearly ({why})", c.name, a.name)),
            None => seen_by.push(c.name.clone()),
        }
    }
    rule(
        turn,
        seen_by.is_empty(),
        format!(
            "{} cannot hide while {} can see it clearly; get three-quarters cover, darkness or invisibility first",
            a.name,
            names(&seen_by)
        ),
    )?;
    let mut req = D20Request::new(D20Test::SkillCheck {
        skill: Skill::Stealth,
    })
    .labelled(format!("{} Stealth (hide)", a.name));
    if let Some(why) = take_helped_check(&mut turn.encounter, &a.id) {
        req = req.advantage(why);
    }
    // Supreme Sneak: no more than half its speed moved this turn.
    let speed = u32::try_from(a.effective().speed.value.max(0)).unwrap_or(0);
    if a.has_rule(crate::catalog::class_rules::ClassRule::SupremeSneak)
        && me.economy.movement_used_ft * 2 <= speed
    {
        req = req.advantage(format!(
            "Supreme Sneak (moved {} ft of {speed} ft this turn)",
            me.economy.movement_used_ft
        ));
    }
    req = with_caller(req, turn);
    let mut roll = roll_d20_test(&a.effective(), &req, call.rng()?);
    let adjusted = crate::class_rules::adjust_check(&a, &mut roll);
    call.record_roll(&roll);
    let total = roll.total.unwrap_or(i32::MIN);
    lines.insert(0, roll.summary());
    lines.splice(1..1, adjusted);
    let mut hidden_from = Vec::new();
    let mut noticed_by = Vec::new();
    for (_, c) in &hostiles {
        let pp = passive_perception(c);
        if total > pp {
            hidden_from.push(format!("{} (passive {pp})", c.name));
        } else {
            noticed_by.push(format!("{} (passive {pp})", c.name));
        }
    }
    let ok = roll.total.is_some() && (hostiles.is_empty() || !hidden_from.is_empty());
    let cb = turn.encounter.combatant_mut(&a.id);
    let headline = if ok {
        if let Some(cb) = cb {
            cb.flags.hidden = Some(total);
        }
        if noticed_by.is_empty() {
            format!(
                "{} hides (Stealth {total}), hidden from {}.",
                a.name,
                names(&hidden_from)
            )
        } else {
            format!(
                "{} hides (Stealth {total}), hidden from {}; {} still notice it.",
                a.name,
                names(&hidden_from),
                names(&noticed_by)
            )
        }
    } else {
        if let Some(cb) = cb {
            cb.flags.hidden = None;
        }
        format!(
            "{} fails to hide (Stealth {}): {} notice it.",
            a.name,
            roll.total
                .map_or("automatic fail".into(), |t| t.to_string()),
            names(&noticed_by)
        )
    };
    Ok(ActionOutcome {
        headline,
        lines,
        details: json!({"roll": roll, "hidden": ok, "hiddenFrom": hidden_from, "noticedBy": noticed_by}),
        ..Default::default()
    })
}

/// Search: Wisdom (Perception), or Intelligence (Investigation) with `ability: int`. Reveals
/// hidden combatants in line of sight whose Stealth total it meets, and hidden props or traps
/// in line of sight whose `hiddenDc` it meets.
pub fn search(call: &mut Call<'_>, turn: &mut Turn<'_>) -> Result<ActionOutcome> {
    let a = actor(turn, "search")?.clone();
    let skill = match turn.req.ability {
        None | Some(Ability::Wisdom) => Skill::Perception,
        Some(Ability::Intelligence) => Skill::Investigation,
        Some(other) => {
            return Err(EngineError::invalid(
                "ability",
                format!("a search uses wis (Perception) or int (Investigation), not {other:?}"),
            ));
        }
    };
    let mut req = D20Request::new(D20Test::SkillCheck { skill }).labelled(format!(
        "{} {} (search)",
        a.name,
        skill_name(skill)
    ));
    if let Some(why) = take_helped_check(&mut turn.encounter, &a.id) {
        req = req.advantage(why);
    }
    req = with_caller(req, turn);
    let mut roll = roll_d20_test(&a.effective(), &req, call.rng()?);
    let adjusted = crate::class_rules::adjust_check(&a, &mut roll);
    call.record_roll(&roll);
    let total = roll.total.unwrap_or(i32::MIN);
    let mut lines = vec![roll.summary()];
    lines.extend(adjusted);
    let senses = senses_of(&a);
    let opts = SightOptions {
        creatures_block: false,
        metric: METRIC,
    };
    let mut found = Vec::new();
    let mut missed = 0usize;
    let hidden: Vec<(String, String, i32)> = turn
        .encounter
        .order
        .iter()
        .filter(|c| c.character_id != a.id && !c.removed)
        .filter_map(|c| {
            c.flags
                .hidden
                .map(|h| (c.character_id.clone(), c.name.clone(), h))
        })
        .collect();
    for (id, name, stealth) in hidden {
        let v = turn
            .encounter
            .map
            .creature_visibility(&a.id, &id, &senses, &opts)?;
        if v.visibility == Visibility::Blocked && v.sense.is_none() {
            continue;
        }
        if total >= stealth {
            if let Some(cb) = turn.encounter.combatant_mut(&id) {
                cb.flags.hidden = None;
            }
            found.push(format!("{name} (Stealth {stealth})"));
        } else {
            missed += 1;
        }
    }
    let me = turn
        .encounter
        .position_of(&a.id)
        .ok_or_else(|| EngineError::Rule(format!("{} is not on the map", a.name)))?;
    let props: Vec<(String, String, u32, tabletop_grid::Position, bool)> = turn
        .encounter
        .map
        .props()
        .filter_map(|p| {
            p.hidden_dc
                .map(|dc| (p.id.clone(), p.name.clone(), dc, p.position, p.trap))
        })
        .collect();
    let sight = SightOptions {
        creatures_block: false,
        metric: METRIC,
    };
    for (id, name, dc, at, trap) in props {
        let los = turn.encounter.map.line_of_sight(me, at, &sight)?;
        if !los.clear {
            continue;
        }
        if total >= i32::try_from(dc).unwrap_or(i32::MAX) {
            turn.encounter
                .map
                .update_prop(&id, |p| p.hidden_dc = None)?;
            found.push(format!(
                "{}{name} at {at} (DC {dc})",
                if trap { "a trap: " } else { "" }
            ));
        } else {
            missed += 1;
        }
    }
    if skill == Skill::Investigation {
        let (seen, unseen) = see_through(&mut turn.encounter, me, total)?;
        found.extend(seen);
        missed += unseen;
    }
    if let Some(d) = turn
        .req
        .description
        .as_deref()
        .filter(|d| !d.trim().is_empty())
    {
        lines.push(format!("Searching for: {}", d.trim()));
    }
    let headline = if found.is_empty() {
        format!(
            "{} searches ({} {total}) and finds nothing hidden.",
            a.name,
            skill_name(skill)
        )
    } else {
        format!(
            "{} searches ({} {total}) and finds {}.",
            a.name,
            skill_name(skill),
            found.join(", ")
        )
    };
    Ok(ActionOutcome {
        headline,
        lines,
        details: json!({"roll": roll, "found": found, "stillHidden": missed}),
        ..Default::default()
    })
}

/// Illusions (zones with an illusion DC) within line of sight of `me`: a total that meets the
/// DC sees through one, and its image no longer blocks sight (its screen is lifted). Says
/// which were seen through and how many held.
fn see_through(
    e: &mut crate::model::encounter::Encounter,
    me: tabletop_grid::Position,
    total: i32,
) -> Result<(Vec<String>, usize)> {
    let sight = SightOptions {
        creatures_block: false,
        metric: METRIC,
    };
    let mut seen = Vec::new();
    let mut held = 0;
    let mut auras = std::mem::take(&mut e.auras);
    for a in auras.iter_mut() {
        let Some(dc) = a.ward.as_ref().and_then(|w| w.illusion_dc) else {
            continue;
        };
        if a.ground.props.is_empty() {
            continue;
        }
        let mut visible = false;
        for &q in &a.squares {
            if e.map.line_of_sight(me, q, &sight)?.clear {
                visible = true;
                break;
            }
        }
        if !visible {
            continue;
        }
        if total >= dc {
            crate::combat::zone_ground::lift(e, a);
            seen.push(format!(
                "that {} ({}) is an illusion (DC {dc}): seen through, it no longer blocks sight",
                a.name, a.id
            ));
        } else {
            held += 1;
        }
    }
    e.auras = auras;
    Ok((seen, held))
}

fn skill_name(s: Skill) -> &'static str {
    match s {
        Skill::Investigation => "Investigation",
        _ => "Perception",
    }
}

/// The caller's advantage, disadvantage and bonus.
pub(super) fn with_caller(mut req: D20Request, turn: &Turn<'_>) -> D20Request {
    if turn.req.advantage {
        req = req.advantage("granted by the game master");
    }
    if turn.req.disadvantage {
        req = req.disadvantage("imposed by the game master");
    }
    if turn.req.bonus != 0 {
        req = req.bonus("situational bonus", turn.req.bonus);
    }
    req
}
