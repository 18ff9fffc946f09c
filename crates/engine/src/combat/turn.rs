//! `advance_turn`: ends the current creature's turn and starts the next one's.
//!
//! End of turn: save-ends conditions and effects roll their save, round durations that tick at
//! the end of this creature's turn count down, surprise wears off. Then the next creature that is
//! still in the fight and alive is found (the dead are skipped; dying characters keep their
//! turns), wrapping into a new round where expired terrain changes revert. Start of turn: the
//! action economy and turn-long flags reset, legendary actions refresh, spent "Recharge X–6"
//! abilities roll to come back, durations that tick at the start of its turn count down, a hazard
//! it stands in hurts it, regeneration heals it, auras act on it, and a dying character rolls
//! (or is reminded to roll) its death save.

use serde::Serialize;
use tabletop_grid::Terrain;
use tabletop_rules::Condition;
use tabletop_rules::damage::{DamagePart, DeathSaveResult};
use tabletop_rules::roller::DieRoller;

use super::end::{EndSummary, Outcome};
use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::character::Character;
use crate::model::effects::{Duration, TurnPoint};
use crate::model::encounter::*;
use crate::model::names::name_key;

/// An `advance_turn` request.
#[derive(Debug, Clone, Default)]
pub struct AdvanceRequest {
    /// Encounter (default: the active one).
    pub encounter_id: Option<String>,
    /// Roll a dying character's death save at the start of its turn instead of reminding.
    pub auto_death_saves: bool,
}

/// What `advance_turn` did.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TurnReport {
    /// Encounter id.
    pub encounter_id: String,
    /// Whose turn ended.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ended: Option<String>,
    /// What happened at the end of that turn.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub end_of_turn: Vec<String>,
    /// Combatants passed over (dead).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub skipped: Vec<String>,
    /// The round now.
    pub round: u32,
    /// Whether a new round began.
    pub new_round: bool,
    /// What happened as the round began (terrain expiring).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub round_start: Vec<String>,
    /// Whose turn it is now.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub current: Option<String>,
    /// Its character id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub current_id: Option<String>,
    /// What happened at the start of its turn.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub start_of_turn: Vec<String>,
    /// The death save rolled for it (autoDeathSaves).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub death_save: Option<DeathSaveResult>,
    /// What the game master should do now (roll a death save, the creature can't act).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub reminders: Vec<String>,
    /// The encounter ended by itself (autoEnd) instead of starting a turn.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub encounter_ended: Option<EndSummary>,
}

/// Ends the current turn and starts the next creature's.
pub fn advance_turn(call: &mut Call<'_>, req: &AdvanceRequest) -> Result<TurnReport> {
    let mut enc = super::load_active(call, req.encounter_id.as_deref())?;
    if let Some(why) = enc.pending_refusal() {
        return Err(EngineError::Rule(why));
    }
    let mut report = TurnReport {
        encounter_id: enc.id.clone(),
        ..Default::default()
    };
    if let Some(cur) = enc.current().cloned() {
        report.ended = Some(cur.name.clone());
        if !cur.removed {
            end_of_turn(call, &mut enc, &cur.character_id, &mut report.end_of_turn)?;
        }
    }
    if enc.auto_end
        && let Some(outcome) = decided(call, &enc)?
    {
        report.round = enc.round;
        let summary = super::end::finish(call, enc, outcome, None, false)?;
        report.encounter_ended = Some(summary);
        return Ok(report);
    }
    report
        .end_of_turn
        .extend(super::summons::expire(call, &mut enc)?);
    report
        .end_of_turn
        .extend(super::banish::expire(call, &mut enc)?);
    report
        .end_of_turn
        .extend(super::banish::expire_globes(call, &mut enc)?);
    let (next, wrapped, skipped) = next_combatant(call, &enc)?;
    report.skipped = skipped;
    if wrapped {
        enc.round += 1;
        report.new_round = true;
        expire_terrain(&mut enc, &mut report.round_start)?;
        let ids: Vec<String> = enc.order.iter().map(|c| c.character_id.clone()).collect();
        report
            .round_start
            .extend(crate::clock::combat_round(call, &ids)?);
    }
    enc.turn = next;
    report.round = enc.round;
    // A creature the turn's end left incapacitated stops concentrating before the next begins.
    report
        .end_of_turn
        .extend(super::lapsed_concentration(call, &enc)?);
    report
        .end_of_turn
        .extend(super::falls::fall_grounded_flyers(call, &mut enc)?);
    start_of_turn(call, &mut enc, req.auto_death_saves, &mut report)?;
    report
        .start_of_turn
        .extend(super::lapsed_concentration(call, &enc)?);
    let name = report.current.clone().unwrap_or_default();
    enc.log(format!("Round {}: {name}'s turn", enc.round));
    report
        .start_of_turn
        .extend(super::martial::sync_auras(call, &enc)?);
    // Tokens follow sizes that changed as durations ran out (Enlarge ending).
    report
        .start_of_turn
        .extend(super::spatial::sizes::sync(call, &mut enc)?);
    super::save(call, &enc)?;
    call.record_change(
        "encounter",
        &enc.id,
        format!("round {}, {name}'s turn", enc.round),
    );
    Ok(report)
}

/// The next combatant to act after the current one: its index, whether the order wrapped into
/// a new round, and the dead passed over.
fn next_combatant(call: &Call<'_>, enc: &Encounter) -> Result<(usize, bool, Vec<String>)> {
    let n = enc.order.len();
    let mut idx = enc.turn;
    let mut wrapped = false;
    let mut skipped = Vec::new();
    for _ in 0..n {
        idx += 1;
        if idx >= n {
            idx = 0;
            wrapped = true;
        }
        let cb = &enc.order[idx];
        if cb.removed {
            continue;
        }
        match call.tx_ref().character(call.campaign(), &cb.character_id)? {
            None => continue,
            Some(c) if c.dead => skipped.push(format!("{} (dead)", c.name)),
            Some(_) => return Ok((idx, wrapped, skipped)),
        }
    }
    Err(EngineError::Rule(format!(
        "nobody is left to act in encounter {} ({}); end it with end_encounter",
        enc.id, enc.name
    )))
}

/// Whether one side is down: every enemy (victory) or every party member (defeat) is dead,
/// unconscious, at 0 HP or out of the fight.
pub(crate) fn decided(call: &Call<'_>, enc: &Encounter) -> Result<Option<Outcome>> {
    let mut enemies = (0, 0);
    let mut party = (0, 0);
    for cb in &enc.order {
        let tally = match cb.side {
            Side::Enemy => &mut enemies,
            Side::Party => &mut party,
            _ => continue,
        };
        tally.0 += 1;
        let down = cb.removed
            || call
                .tx_ref()
                .character(call.campaign(), &cb.character_id)?
                .is_none_or(|c| {
                    (c.dead || c.hp == 0 || c.has_condition(Condition::Unconscious))
                        && !super::regen::rises_again(&c)
                });
        if down {
            tally.1 += 1;
        }
    }
    Ok(if enemies.0 > 0 && enemies.0 == enemies.1 {
        Some(Outcome::Victory)
    } else if party.0 > 0 && party.0 == party.1 {
        Some(Outcome::Defeat)
    } else {
        None
    })
}

/// Counts down the durations that tick at `at` of `turn_of`'s turn on every combatant: effects
/// whose trigger names that turn point, the bearer's own untriggered effects at the end of its
/// turn, and (at the end of its turn) the bearer's timed conditions. Save-ends durations roll.
fn tick_turn_point(
    call: &mut Call<'_>,
    enc: &Encounter,
    turn_of: &str,
    at: TurnPoint,
    lines: &mut Vec<String>,
) -> Result<()> {
    for cb in enc.order.iter().filter(|cb| !cb.removed) {
        let Some(mut c) = call.tx_ref().character(call.campaign(), &cb.character_id)? else {
            continue;
        };
        if c.dead {
            continue;
        }
        let own = c.id == turn_of;
        let sheet = c.clone();
        let mut changes = Vec::new();
        let mut touched = false;
        let mut kept = Vec::new();
        let (mut ended, mut ended_conditions) = (Vec::new(), Vec::new());
        for mut e in std::mem::take(&mut c.effects) {
            let fires = match &e.ends_on {
                Some(t) => t.at == at && t.turn_of == turn_of,
                None => own && at == TurnPoint::End,
            };
            if fires {
                touched = true;
                let vs = crate::saves::against_effect(call, &e);
                if crate::effects::tick_duration(
                    call,
                    &sheet,
                    &mut e.duration,
                    1,
                    &e.name,
                    &vs,
                    &mut changes,
                )? {
                    ended.push(e);
                    continue;
                }
            }
            kept.push(e);
        }
        c.effects = kept;
        changes.extend(c.drop_stale_shape());
        // A condition's rounds count at the end of its bearer's turns, or at the point of the
        // turn its duration names ("until the end of your next turn": the imposer's; an
        // imposer out of the fight has no more turns, so every turn point counts then).
        let counts = |d: &Duration| match d {
            Duration::RoundsOf {
                turn_of: of, at: a, ..
            } => {
                (*a == at && of == turn_of)
                    || !enc
                        .order
                        .iter()
                        .any(|o| o.character_id == *of && !o.removed)
            }
            _ => own && at == TurnPoint::End,
        };
        if c.conditions
            .iter()
            .any(|e| e.duration.as_ref().is_some_and(counts))
        {
            let mut kept = Vec::new();
            for mut e in std::mem::take(&mut c.conditions) {
                // Fear's save only out of the caster's line of sight.
                if e.duration.as_ref().is_some_and(counts)
                    && let Some(l) = super::fear::save_withheld(enc, &sheet, &e)
                {
                    touched = true;
                    changes.push(l);
                    kept.push(e);
                    continue;
                }
                if let Some(d) = e.duration.as_mut().filter(|d| counts(d)) {
                    touched = true;
                    let label = e.condition.to_string();
                    let vs = crate::saves::against_condition(call, e.condition, &e.source);
                    if crate::effects::tick_duration(call, &sheet, d, 1, &label, &vs, &mut changes)?
                    {
                        ended_conditions.push(e);
                        continue;
                    }
                }
                kept.push(e);
            }
            c.conditions = kept;
        }
        // What a concentration held up and ended here: its caster lets go of it.
        crate::concentration::let_go(call, &mut c, &ended, &ended_conditions, &mut changes)?;
        if touched {
            super::put_sheet(call, &c)?;
            if !changes.is_empty() {
                call.record_change("character", &c.id, changes.join("; "));
            }
            lines.extend(changes);
        }
    }
    Ok(())
}

fn end_of_turn(
    call: &mut Call<'_>,
    enc: &mut Encounter,
    id: &str,
    lines: &mut Vec<String>,
) -> Result<()> {
    tick_turn_point(call, enc, id, TurnPoint::End, lines)?;
    // A round of the caster's concentration passes at the end of its turn.
    if let Some(mut c) = call.tx_ref().character(call.campaign(), id)?
        && c.concentration
            .as_ref()
            .is_some_and(|k| k.rounds_left.is_some())
    {
        let mut changes = Vec::new();
        crate::concentration::tick(call, &mut c, 1, &mut changes)?;
        super::put_sheet(call, &c)?;
        if !changes.is_empty() {
            call.record_change("character", &c.id, changes.join("; "));
        }
        lines.extend(changes);
    }
    // Zones that strike a creature ending its turn in them (and zones whose concentration just
    // ended go).
    lines.extend(super::zones::at_turn_end(call, enc, id)?);
    crate::magic::combat6::end_of_turn(call, id, lines)?;
    crate::combat::actions::tactics::features::rage_lapses(call, enc, id, lines)?;
    if let Some(cb) = enc.combatant_mut(id)
        && cb.surprised
    {
        cb.surprised = false;
        lines.push(format!("{} is no longer surprised", cb.name));
    }
    Ok(())
}

/// Restores the terrain of timed changes whose expiry round has come.
fn expire_terrain(enc: &mut Encounter, lines: &mut Vec<String>) -> Result<()> {
    let round = enc.round;
    let (expired, kept): (Vec<TimedTerrain>, Vec<TimedTerrain>) =
        std::mem::take(&mut enc.timed_terrain)
            .into_iter()
            .partition(|t| t.expires_round <= round);
    enc.timed_terrain = kept;
    for t in expired {
        for (sq, prev) in t.squares.iter().zip(&t.previous) {
            enc.map.set_terrain(*sq, prev.clone())?;
        }
        let what = t.source.clone().unwrap_or_else(|| t.terrain.describe());
        lines.push(format!(
            "{what} ends: {} square{} revert{}",
            t.squares.len(),
            if t.squares.len() == 1 { "" } else { "s" },
            if t.squares.len() == 1 { "s" } else { "" }
        ));
    }
    Ok(())
}

fn start_of_turn(
    call: &mut Call<'_>,
    enc: &mut Encounter,
    auto_death_saves: bool,
    report: &mut TurnReport,
) -> Result<()> {
    let idx = enc.turn;
    let Some(cb) = enc.order.get_mut(idx) else {
        return Err(EngineError::Rule(
            "internal: the turn points past the order".into(),
        ));
    };
    let id = cb.character_id.clone();
    let mut lines = Vec::new();
    let lines = &mut lines;
    cb.economy = Economy::default();
    cb.flags.dodging = false;
    cb.flags.disengaged = false;
    if let Some(r) = cb.flags.readied.take() {
        lines.push(format!(
            "{}'s readied action ({}) lapses",
            cb.name, r.trigger
        ));
    }
    // The Help this creature gave lapses unused at the start of its turn.
    let helper = enc.order[idx].name.clone();
    for other in enc.order.iter_mut() {
        if other.flags.help_lapses(&id) {
            lines.push(format!(
                "{helper}'s Help to {} lapses unused (its turn starts)",
                other.name
            ));
        }
    }
    tick_turn_point(call, enc, &id, TurnPoint::Start, lines)?;
    crate::magic::combat6::start_of_turn(call, enc, &id, lines)?;
    let mut c = super::sheet(call, &id)?;
    report.current = Some(c.name.clone());
    report.current_id = Some(c.id.clone());
    let legendary = super::create::legendary_count(&c);
    let spent = match enc.order.get_mut(idx) {
        Some(cb) => {
            if legendary > 0 && cb.legendary_actions < legendary {
                lines.push(format!(
                    "{} regains its legendary actions ({legendary})",
                    c.name
                ));
            }
            cb.legendary_actions = legendary;
            std::mem::take(&mut cb.spent_abilities)
        }
        None => Vec::new(),
    };
    let still_spent = roll_recharges(call, &c, spent, lines)?;
    if let Some(cb) = enc.order.get_mut(idx) {
        cb.spent_abilities = still_spent;
    }
    hazard(call, enc, &mut c, lines)?;
    if super::regen::at_turn_start(&mut c, lines)?
        && let Some(line) = super::bodies::lay_body(enc, &c.id, &c.name)?
    {
        lines.push(line);
    }
    if !c.dead {
        lines.extend(crate::magic::mechanics::start_of_turn(&mut c));
    }
    super::martial::survivor(&mut c, lines)?;
    super::put_sheet(call, &c)?;
    let aura_lines = super::auras::at_turn_start(call, enc, &id)?;
    lines.extend(aura_lines);
    lines.extend(super::actions::tactics::contest::release_broken_grapples(
        call, enc,
    )?);
    let mut c = super::sheet(call, &id)?;
    // A Periapt of Wound Closure stabilizes its dying wearer at the start of its turn.
    if !c.dead
        && c.hp == 0
        && !c.death_saves.stable
        && let Some(p) = crate::inventory::regen::stabilizer(&c)
    {
        c.death_saves.stable = true;
        lines.push(format!("{}'s {p} stabilizes it at 0 HP", c.name));
        super::put_sheet(call, &c)?;
    }
    if !c.dead && c.hp == 0 {
        if c.death_saves.stable {
            report.reminders.push(format!(
                "{} is stable at 0 HP and unconscious; the turn passes",
                c.name
            ));
        } else if auto_death_saves {
            let r = super::death::roll_on(call, &mut c, lines)?;
            let now = (enc.round, enc.turn);
            if let Some(cb) = enc.combatant_mut(&id) {
                cb.death_save_turn = Some(now);
            }
            if c.dead
                && let Some(line) = super::bodies::lay_body(enc, &c.id, &c.name)?
            {
                lines.push(line);
            }
            super::put_sheet(call, &c)?;
            call.record_change("character", &c.id, r.summary());
            report.death_save = Some(r);
        } else {
            report.reminders.push(format!(
                "{} is dying at 0 HP ({}): roll_death_save for them now",
                c.name, c.death_saves
            ));
        }
    } else if !c.dead && super::actions::economy::incapacitated(&c) {
        report.reminders.push(format!(
            "{} is incapacitated and can take no actions or reactions this turn",
            c.name
        ));
    }
    if c.dead {
        report
            .reminders
            .push(format!("{} died at the start of its turn", c.name));
    }
    report.start_of_turn.append(lines);
    Ok(())
}

/// A hazard square the creature starts its turn in: its damage note ("1d10 fire") is rolled and
/// applied through the damage pipeline, with the concentration save it forces.
fn hazard(
    call: &mut Call<'_>,
    enc: &Encounter,
    c: &mut Character,
    lines: &mut Vec<String>,
) -> Result<()> {
    if c.dead {
        return Ok(());
    }
    let Some(pos) = enc.position_of(&c.id) else {
        return Ok(());
    };
    let Ok(Terrain::Hazard { name, damage }) = enc.map.terrain(pos) else {
        return Ok(());
    };
    let (name, note) = (name.clone(), damage.clone());
    let Some(note) = note else {
        lines.push(format!(
            "{} starts its turn in {name} (no damage given)",
            c.name
        ));
        return Ok(());
    };
    let roll = match tabletop_rules::dice::roll(&hazard_expr(&note), call.rng()?) {
        Ok(r) => r,
        Err(e) => {
            lines.push(format!(
                "{} starts its turn in {name}, but its damage '{note}' could not be rolled ({e}); apply it with execute_action damage",
                c.name
            ));
            return Ok(());
        }
    };
    call.record_roll(&roll);
    let parts: Vec<DamagePart> = roll
        .damage_by_type()
        .into_iter()
        .map(|(t, v)| DamagePart::new(t, u32::try_from(v.max(0)).unwrap_or(0)))
        .collect();
    lines.push(format!(
        "{} starts its turn in {name}: {}",
        c.name,
        roll.summary()
    ));
    let r = crate::update::damage(c, &parts, false, lines)?;
    if r.concentration_ends {
        let why = if r.dead { "died" } else { "dropped to 0 HP" };
        crate::concentration::end(call, c, why, lines)?;
    } else {
        crate::concentration::after_damage(call, c, r.total, lines)?;
    }
    Ok(())
}

/// "1d10 fire" → "1d10[fire]" (dice followed by a damage type word); anything else unchanged.
fn hazard_expr(note: &str) -> String {
    let note = note.trim();
    if let Some((dice, kind)) = note.rsplit_once(char::is_whitespace)
        && kind.parse::<tabletop_rules::DamageType>().is_ok()
        && !dice.contains('[')
    {
        return format!("{}[{}]", dice.trim(), kind.to_lowercase());
    }
    note.to_string()
}

/// The lowest d6 face that recharges `ability` of `c` ("Recharge 5–6" → 5), if it recharges on
/// a roll.
pub fn recharge_threshold(c: &Character, ability: &str) -> Option<u32> {
    let b = c.stat_block.as_ref()?;
    let key = name_key(ability);
    let a = b
        .actions
        .iter()
        .chain(&b.special_abilities)
        .chain(&b.legendary_actions)
        .chain(&b.reactions)
        .find(|a| name_key(&a.name) == key)?;
    super::actions::tactics::ability_text::recharge_min(a.recharge.as_deref()?)
        .filter(|n| (1..=6).contains(n))
}

/// Rolls a d6 for each spent ability of `c` that recharges on a roll (at the start of its turn);
/// returns the abilities still spent. Abilities with another limit ("1/Day") stay spent.
pub fn roll_recharges(
    call: &mut Call<'_>,
    c: &Character,
    spent: Vec<String>,
    lines: &mut Vec<String>,
) -> Result<Vec<String>> {
    let mut still = Vec::new();
    for ability in spent {
        let Some(min) = recharge_threshold(c, &ability) else {
            still.push(ability);
            continue;
        };
        let d = call.rng()?.roll_die(6);
        call.record_roll(&serde_json::json!({
            "label": format!("{} {ability} recharge", c.name),
            "die": 6,
            "roll": d,
        }));
        let range = if min == 6 {
            "6".to_string()
        } else {
            format!("{min}–6")
        };
        if d >= min {
            lines.push(format!(
                "{}'s {ability} recharges (d6 {d}; needs {range})",
                c.name
            ));
        } else {
            lines.push(format!(
                "{}'s {ability} does not recharge (d6 {d}; needs {range})",
                c.name
            ));
            still.push(ability);
        }
    }
    Ok(still)
}
