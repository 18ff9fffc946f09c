//! A stat block's Multiattack, all its parts in one action: the attacks it names (matched to
//! the block's attacks with form qualifiers and plurals set aside: "Unarmed Strike (Vampire
//! Form Only)" is the Unarmed Strike, "Claws" the Claw), the non-attack actions it uses on the
//! way ("The dragon can use its Frightful Presence", resolved as `use_special_ability` would,
//! its usage limit spent), counts written as prose ("as many bite attacks as it has heads":
//! the heads its stat block gives) or dice ("1d4 Rotting Touch attacks": rolled), and the
//! alternative sets ("or two ranged attacks with its longbow") chosen by number:
//! `weapon: "Multiattack 2"`.

use super::attack::{StrikeOptions, StrikeResult, resolve_targets, strike, strike_options};
use super::{ActionOutcome, ActionType, Turn};
use crate::combat;
use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::character::{Character, MultiattackPart, StatAction};
use crate::model::names::name_key;

/// One step of the plan.
enum Step {
    /// An attack of the block, by its own name.
    Attack(String),
    /// A non-attack entry of the block, by the multiattack's name for it.
    Use(String),
    /// Something the engine leaves to the DM (a spell, a conditional step): the line to say.
    Say(String),
}

/// The stat-block Multiattack `weapon` names ("Multiattack", or "Multiattack 2" for its second
/// set of attacks).
fn multiattack_of<'c>(c: &'c Character, weapon: Option<&str>) -> Option<&'c StatAction> {
    let key = name_key(weapon?);
    c.action_block()?.actions.iter().find(|a| {
        !a.multiattack.is_empty()
            && (key.starts_with(&name_key(&a.name)) || key.starts_with("multiattack"))
    })
}

/// An attack request naming the actor's Multiattack: all its parts in one action; `None` for
/// any other attack (the Attack action's, in [`super::attack`]).
pub(super) fn attack(call: &mut Call<'_>, turn: &mut Turn<'_>) -> Result<Option<ActionOutcome>> {
    let Some(actor) = turn.actor.clone() else {
        return Ok(None);
    };
    let req = turn.req;
    if req.action_type == Some(ActionType::TwoWeaponAttack) {
        return Ok(None);
    }
    let Some(multi) = multiattack_of(&actor, req.weapon.as_deref()).cloned() else {
        return Ok(None);
    };
    let targets = resolve_targets(&turn.encounter, req)?;
    if targets.is_empty() {
        return Err(EngineError::invalid(
            "targetId",
            "say whom to attack (targetId or targetName)",
        ));
    }
    let opts = strike_options(req);
    let weapon = req.weapon.clone().unwrap_or_default();
    run(call, turn, &actor, &multi, &weapon, &targets, &opts).map(Some)
}

/// Which alternative set `weapon` names: "Multiattack" the first, "Multiattack 2" the second.
fn set_index(weapon: &str, multi: &StatAction, sets: usize) -> Result<usize> {
    let key = name_key(weapon);
    let rest = key
        .strip_prefix(&name_key(&multi.name))
        .or_else(|| key.strip_prefix("multiattack"))
        .unwrap_or("")
        .trim()
        .trim_start_matches(['(', '#', ':'])
        .trim_end_matches(')')
        .trim()
        .trim_start_matches("option")
        .trim();
    let choices = || {
        (1..=sets)
            .map(|i| {
                if i == 1 {
                    format!("\"{}\"", multi.name)
                } else {
                    format!("\"{} {i}\"", multi.name)
                }
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    if rest.is_empty() {
        return Ok(0);
    }
    match rest.parse::<usize>() {
        Ok(n) if (1..=sets).contains(&n) => Ok(n - 1),
        _ => Err(EngineError::invalid(
            "weapon",
            format!(
                "{weapon}: the Multiattack has {sets} set{} of attacks; name one: {}",
                if sets == 1 { "" } else { "s" },
                choices()
            ),
        )),
    }
}

/// The name with "(Vampire Form Only)" and a plural "s" set aside.
fn bare(name: &str) -> String {
    name_key(name.split('(').next().unwrap_or(name).trim())
}

/// The block's attack a multiattack step names.
fn attack_named<'c>(c: &'c Character, step: &str) -> Option<&'c StatAction> {
    let key = bare(step);
    let attacks = || {
        c.action_block()
            .into_iter()
            .flat_map(|b| b.actions.iter())
            .filter(|a| a.attack_bonus.is_some() && a.multiattack.is_empty())
    };
    attacks()
        .find(|a| name_key(&a.name) == name_key(step))
        .or_else(|| attacks().find(|a| bare(&a.name) == key))
        .or_else(|| {
            attacks().find(|a| {
                let b = bare(&a.name);
                key.strip_suffix('s') == Some(b.as_str())
                    || b.strip_suffix('s') == Some(key.as_str())
            })
        })
}

/// The heads its stat block gives it ("The hydra has five heads.").
fn heads(c: &Character) -> Option<u32> {
    const WORDS: [&str; 12] = [
        "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
        "twelve",
    ];
    c.action_block()?.special_abilities.iter().find_map(|a| {
        let d = a.desc.to_lowercase();
        let i = d.find(" heads")?;
        let word = d[..i].split_whitespace().last()?;
        word.parse().ok().or_else(|| {
            WORDS
                .iter()
                .position(|w| *w == word)
                .and_then(|p| u32::try_from(p + 1).ok())
        })
    })
}

/// How many times a part is made, and the line saying how a prose or dice count was read.
fn count_of(
    call: &mut Call<'_>,
    c: &Character,
    p: &MultiattackPart,
) -> Result<(u32, Option<String>)> {
    let text = p.count.trim();
    if let Ok(n) = text.parse::<u32>() {
        return Ok((n.clamp(1, 10), None));
    }
    let l = text.to_lowercase();
    if l.contains("head") {
        let n = heads(c).unwrap_or(1).clamp(1, 12);
        return Ok((
            n,
            Some(format!(
                "{}: {n} {} attacks, one per head ({} has {n} heads by its stat block; heads lost and regrown are not tracked: the DM sets the count with separate {} attacks when it has fewer or more)",
                c.name, p.action, c.name, p.action
            )),
        ));
    }
    if tabletop_rules::dice::parse(text).is_ok() {
        let roll = tabletop_rules::dice::roll(text, call.rng()?)?;
        call.record_roll(&roll);
        let n = u32::try_from(roll.total.clamp(1, 10)).unwrap_or(1);
        return Ok((
            n,
            Some(format!(
                "{} makes {} {} attack{}: {}",
                c.name,
                n,
                p.action,
                if n == 1 { "" } else { "s" },
                roll.summary()
            )),
        ));
    }
    Ok((1, None))
}

/// The sentence of the Multiattack text that names `step`, when it makes the step depend on
/// something the engine does not judge ("If both attacks hit …", "If the chuul is grappling").
fn condition_for(desc: &str, step: &str) -> Option<String> {
    let key = bare(step);
    desc.split(". ").find_map(|sentence| {
        let l = sentence.to_lowercase().replace("if it can", "");
        (l.contains(&key) && (l.starts_with("if ") || l.contains(" if ")))
            .then(|| sentence.trim_end_matches('.').to_string())
    })
}

/// Runs the chosen multiattack of `actor` on `targets` (one per attack in turn, the last
/// taking the rest).
fn run(
    call: &mut Call<'_>,
    turn: &mut Turn<'_>,
    actor: &Character,
    multi: &StatAction,
    weapon: &str,
    targets: &[String],
    opts: &StrikeOptions,
) -> Result<ActionOutcome> {
    let sets = multi.multiattack_sets();
    let index = set_index(weapon, multi, sets.len())?;
    let chosen_set = &sets[index];
    let mut plan: Vec<Step> = Vec::new();
    let mut notes = Vec::new();
    for p in chosen_set {
        let (n, note) = count_of(call, actor, p)?;
        notes.extend(note);
        let step = if let Some(a) = attack_named(actor, &p.action) {
            Step::Attack(a.name.clone())
        } else if name_key(&p.action).contains("spellcasting") {
            Step::Say(format!(
                "{} casts one spell as part of its Multiattack: cast it with execute_action cast_spell and actionCost free",
                actor.name
            ))
        } else if let Some(cond) = condition_for(&multi.desc, &p.action).filter(|_| p.option == 0) {
            Step::Say(format!(
                "{} is part of the Multiattack only as its text says (\"{cond}\"): no automation for that condition; the DM decides, and uses it with use_special_ability and actionCost free",
                p.action
            ))
        } else {
            Step::Use(p.action.clone())
        };
        match step {
            Step::Attack(name) => plan.extend((0..n).map(|_| Step::Attack(name.clone()))),
            Step::Use(name) => plan.extend((0..n).map(|_| Step::Use(name.clone()))),
            Step::Say(line) => plan.push(Step::Say(line)),
        }
    }
    let many = plan.iter().filter(|s| matches!(s, Step::Attack(_))).count() > 1;
    let mut forced = Vec::new();
    let mut strikes: Vec<StrikeResult> = Vec::new();
    let mut used: Vec<String> = Vec::new();
    let mut lines: Vec<String> = Vec::new();
    let mut ti = 0usize;
    let mut i = 0usize;
    while i < plan.len() {
        match &plan[i] {
            Step::Say(line) => lines.push(line.clone()),
            Step::Use(name) => match super::tactics::special::use_in_multiattack(
                call, turn, actor, name,
            )? {
                Some((summary, l)) => {
                    used.push(summary);
                    lines.extend(l);
                }
                None => lines.push(format!(
                    "{} has no action '{name}' to use as part of its Multiattack; it is not used",
                    actor.name
                )),
            },
            Step::Attack(action) => {
                let mut target = &targets[ti.min(targets.len() - 1)];
                if combat::sheet(call, target)?.dead {
                    if ti + 1 < targets.len() {
                        ti += 1;
                        target = &targets[ti];
                    } else {
                        let left = plan[i..]
                            .iter()
                            .filter(|s| matches!(s, Step::Attack(_)))
                            .count();
                        lines.push(format!(
                            "{} is down; the remaining {left} attack(s) of the multiattack are not made.",
                            combat::sheet(call, target)?.name,
                        ));
                        break;
                    }
                }
                let s = strike(
                    call,
                    &mut turn.encounter,
                    &actor.id,
                    target,
                    Some(action),
                    opts,
                )?;
                let paused = s.paused;
                if many {
                    lines.push(format!("— {} → {}: {}", s.weapon, s.target, s.headline));
                }
                lines.extend(s.lines.iter().cloned());
                forced.extend(s.forced.iter().cloned());
                strikes.push(s);
                if targets.len() > 1 && ti + 1 < targets.len() {
                    ti += 1;
                }
                if paused {
                    // The attacks still to make wait with the paused one; a non-attack step
                    // after it is the DM's to use.
                    let mut rest: Vec<(String, String)> = Vec::new();
                    for s in &plan[i + 1..] {
                        match s {
                            Step::Attack(a) => rest.push((
                                a.clone(),
                                targets[(ti + rest.len()).min(targets.len() - 1)].clone(),
                            )),
                            Step::Use(name) => lines.push(format!(
                                "{name} (part of the Multiattack) waits for the reaction: use it with use_special_ability and actionCost free"
                            )),
                            Step::Say(line) => lines.push(line.clone()),
                        }
                    }
                    super::reactions::shield::set_rest(&mut turn.encounter, rest);
                    break;
                }
            }
        }
        i += 1;
    }
    if let Some(cb) = turn.encounter.combatant_mut(&actor.id) {
        cb.economy.attacks_left = 0;
        cb.economy.attacked = true;
    }
    let mut head: Vec<String> = used;
    head.extend(strikes.iter().map(|s| s.headline.clone()));
    let label = if sets.len() > 1 {
        let parts: Vec<String> = chosen_set
            .iter()
            .map(|p| format!("{}× {}", p.count, p.action))
            .collect();
        format!("Multiattack ({})", parts.join(", "))
    } else {
        "Multiattack".to_string()
    };
    let mut all_lines = notes;
    all_lines.extend(lines);
    Ok(ActionOutcome {
        headline: format!("{} uses {label}. {}", actor.name, head.join(" ")),
        lines: all_lines,
        forced,
        details: serde_json::json!({ "attacks": strikes, "set": index + 1 }),
        ..Default::default()
    })
}
