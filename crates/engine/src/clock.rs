//! The world clock (DESIGN §12): `advance_time`, and the time that travel, rests and combat
//! rounds take. Moving the clock ends every effect and condition whose duration (kept in 6-second
//! rounds: Longstrider's hour is 600) runs out by then.

use serde::Serialize;

use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::character::{Character, CharacterFilter};
use crate::model::effects::Duration;
use crate::model::memory::{
    DAY, HOUR, MINUTE, ROUND, RestWindow, WorldClock, describe_time, part_of_day,
};

/// A time of day to advance to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeOfDay {
    /// 06:00.
    Dawn,
    /// 12:00.
    Noon,
    /// 18:00.
    Dusk,
    /// 00:00.
    Midnight,
}

impl TimeOfDay {
    fn hour(self) -> u64 {
        match self {
            TimeOfDay::Dawn => 6,
            TimeOfDay::Noon => 12,
            TimeOfDay::Dusk => 18,
            TimeOfDay::Midnight => 0,
        }
    }
}

/// How far to move the clock: the amounts add up; `until` goes on to the next such time after
/// them.
#[derive(Debug, Clone, Default)]
pub struct TimeRequest {
    /// Minutes.
    pub minutes: u64,
    /// Hours.
    pub hours: u64,
    /// Days.
    pub days: u64,
    /// Then on to the next dawn, noon, dusk or midnight.
    pub until: Option<TimeOfDay>,
}

/// What ran out when the clock moved.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Expiry {
    /// The bearer's id.
    pub character_id: String,
    /// The bearer's name.
    pub character: String,
    /// The effect or condition that ended.
    pub ended: String,
}

/// The clock as a tool shows it.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ClockView {
    /// Seconds since day 1, 00:00.
    pub seconds: u64,
    /// Day number, from 1.
    pub day: u64,
    /// "Day 3, 14:05".
    pub time: String,
    /// night, dawn, morning, afternoon, dusk or evening.
    pub part_of_day: &'static str,
}

impl ClockView {
    /// The view of a clock second.
    pub fn at(seconds: u64) -> Self {
        ClockView {
            seconds,
            day: seconds / DAY + 1,
            time: describe_time(seconds),
            part_of_day: part_of_day(seconds),
        }
    }
}

/// What moving the clock did.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TimeAdvance {
    /// Before.
    pub from: ClockView,
    /// After.
    pub to: ClockView,
    /// Seconds passed.
    pub elapsed_seconds: u64,
    /// Effects and conditions that ran out.
    pub expired: Vec<Expiry>,
    /// Items whose charges came back at dawn.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub recharged: Vec<String>,
    /// One line.
    pub summary: String,
}

/// The campaign's clock (a new campaign starts on day 1 at 08:00).
pub fn now(call: &Call<'_>) -> Result<WorldClock> {
    Ok(call.tx_ref().clock(call.campaign())?.unwrap_or_default())
}

/// The clock as shown.
pub fn view(call: &Call<'_>) -> Result<ClockView> {
    Ok(ClockView::at(now(call)?.seconds))
}

/// The longest single advance: a year.
const MAX_ADVANCE: u64 = 366 * DAY;

/// `advance_time`: moves the clock and ends what runs out.
pub fn advance_time(call: &mut Call<'_>, req: &TimeRequest) -> Result<TimeAdvance> {
    let total = req
        .minutes
        .checked_mul(MINUTE)
        .and_then(|m| req.hours.checked_mul(HOUR).and_then(|h| m.checked_add(h)))
        .and_then(|s| req.days.checked_mul(DAY).and_then(|d| s.checked_add(d)))
        .filter(|s| *s <= MAX_ADVANCE)
        .ok_or_else(|| EngineError::invalid("days", "at most a year (366 days) at a time"))?;
    let start = now(call)?.seconds;
    let mut seconds = total;
    if let Some(t) = req.until {
        let at = start.saturating_add(total);
        let target = t.hour() * HOUR;
        let in_day = at % DAY;
        let wait = if in_day < target {
            target - in_day
        } else {
            DAY - in_day + target
        };
        seconds = seconds.saturating_add(wait);
    } else if total == 0 {
        return Err(EngineError::invalid(
            "minutes",
            "say how long: minutes, hours or days (or until dawn, noon, dusk or midnight)",
        ));
    }
    let skip = in_combat(call)?;
    advance(call, seconds, &skip)
}

/// Moves the clock by `seconds` for everyone outside active encounters (travel).
pub fn pass(call: &mut Call<'_>, seconds: u64) -> Result<TimeAdvance> {
    let skip = in_combat(call)?;
    advance(call, seconds, &skip)
}

/// The characters in active encounters: their rounds tick on their turns, not by the clock.
fn in_combat(call: &Call<'_>) -> Result<Vec<String>> {
    let mut ids = Vec::new();
    for e in call.tx_ref().list_encounters(call.campaign(), true)? {
        ids.extend(e.order.iter().map(|c| c.character_id.clone()));
    }
    Ok(ids)
}

/// Moves the clock by `seconds`, ending the durations that run out on every character but those
/// in `skip`.
pub fn advance(call: &mut Call<'_>, seconds: u64, skip: &[String]) -> Result<TimeAdvance> {
    let campaign = call.campaign();
    let mut clock = now(call)?;
    let from = clock.seconds;
    let to = from.saturating_add(seconds);
    clock.seconds = to;
    call.tx().set_clock(campaign, &clock)?;
    // Rounds on the absolute clock, so short steps add up (ten 36-second steps are a minute).
    let rounds = to / ROUND - from / ROUND;
    let mut expired = Vec::new();
    let mut concentrating = Vec::new();
    if rounds > 0 {
        let (all, _) =
            call.tx_ref()
                .list_characters(campaign, &CharacterFilter::default(), usize::MAX, 0)?;
        for mut c in all {
            if skip.contains(&c.id) {
                continue;
            }
            if c.concentration
                .as_ref()
                .is_some_and(|k| k.rounds_left.is_some())
            {
                concentrating.push(c.id.clone());
            }
            let mut ended = tick(&mut c, rounds);
            // What spells made that spoils by now (Goodberry, Create Food and Water).
            ended.extend(crate::model::item_state::spoil(&mut c.inventory, to));
            // Worn regeneration (Ring of Regeneration) heals as the time passes.
            let healed = crate::inventory::regen::regenerate(call, &mut c, from, to)?;
            if ended.is_empty() && !touched(&c) && healed.is_none() {
                continue;
            }
            call.tx().put_character(campaign, &c)?;
            if let Some(h) = healed {
                call.record_change("character", &c.id, h);
            }
            if !ended.is_empty() {
                call.record_change("character", &c.id, format!("ended: {}", ended.join(", ")));
            }
            expired.extend(ended.into_iter().map(|e| Expiry {
                character_id: c.id.clone(),
                character: c.name.clone(),
                ended: e,
            }));
        }
    }
    if rounds > 0 {
        expire_concentration(call, rounds, concentrating, &mut expired)?;
    }
    let recharged =
        crate::dawn::recharge_at_dawn(call, crate::dawn::dawns_between(from, to), skip)?;
    let mut summary = format!(
        "{} → {} ({}).",
        describe_time(from),
        describe_time(to),
        span(seconds)
    );
    if !recharged.is_empty() {
        summary.push_str(&format!(" Dawn: {}.", recharged.join("; ")));
    }
    if !expired.is_empty() {
        let lines: Vec<String> = expired
            .iter()
            .map(|e| format!("{} on {}", e.ended, e.character))
            .collect();
        summary.push_str(&format!(" Ended: {}.", lines.join("; ")));
    }
    call.record_change("clock", "clock", summary.clone());
    Ok(TimeAdvance {
        from: ClockView::at(from),
        to: ClockView::at(to),
        elapsed_seconds: seconds,
        expired,
        recharged,
        summary,
    })
}

/// Counts `rounds` off the concentration of `ids` (those with a known duration, found while the
/// clock ticked everyone's durations; creatures in a fight are not among them, their rounds pass
/// on their turns); one that runs out ends with what it holds up.
fn expire_concentration(
    call: &mut Call<'_>,
    rounds: u64,
    ids: Vec<String>,
    expired: &mut Vec<Expiry>,
) -> Result<()> {
    let campaign = call.campaign();
    let rounds = u32::try_from(rounds).unwrap_or(u32::MAX);
    for id in ids {
        // Reloaded: ending an earlier concentration may have changed this character.
        let Some(mut c) = call.tx_ref().character(campaign, &id)? else {
            continue;
        };
        let mut changes = Vec::new();
        let ended = crate::concentration::tick(call, &mut c, rounds, &mut changes)?;
        call.tx().put_character(campaign, &c)?;
        if let Some(end) = ended {
            call.record_change("character", &c.id, changes.join("; "));
            expired.push(Expiry {
                character_id: c.id.clone(),
                character: c.name.clone(),
                ended: if end.removed.is_empty() {
                    format!("concentration on {}", end.spell)
                } else {
                    format!(
                        "concentration on {} (with it: {})",
                        end.spell,
                        end.removed.join(", ")
                    )
                },
            });
        }
    }
    Ok(())
}

/// Whether a character holds round durations that the clock shortened (it must be saved).
fn touched(c: &Character) -> bool {
    c.effects
        .iter()
        .any(|e| matches!(e.duration, Duration::Rounds { .. }))
        || c.conditions.iter().any(|e| {
            matches!(
                e.duration,
                Some(Duration::Rounds { .. } | Duration::RoundsOf { .. })
            )
        })
}

/// Takes `rounds` off every round duration on `c`; returns what ran out.
fn tick(c: &mut Character, rounds: u64) -> Vec<String> {
    let rounds = u32::try_from(rounds).unwrap_or(u32::MAX);
    let mut ended = Vec::new();
    c.effects.retain_mut(|e| match &mut e.duration {
        Duration::Rounds { remaining } if *remaining <= rounds => {
            ended.push(e.name.clone());
            false
        }
        Duration::Rounds { remaining } => {
            *remaining -= rounds;
            true
        }
        _ => true,
    });
    c.conditions.retain_mut(|e| match &mut e.duration {
        Some(Duration::Rounds { remaining } | Duration::RoundsOf { remaining, .. })
            if *remaining <= rounds =>
        {
            ended.push(e.condition.to_string());
            false
        }
        Some(Duration::Rounds { remaining } | Duration::RoundsOf { remaining, .. }) => {
            *remaining -= rounds;
            true
        }
        _ => true,
    });
    ended
}

pub use crate::model::memory::span;

/// Why `character_id` can't benefit from a long rest now: its last one ended less than 24
/// hours before this one would end (SRD: "A character can't benefit from more than one long
/// rest in a 24-hour period"). `None` when it can.
pub fn long_rest_refusal(
    call: &Call<'_>,
    character_id: &str,
    name: &str,
) -> Result<Option<String>> {
    let clock = now(call)?;
    let Some(&last) = clock.long_rests.get(character_id) else {
        return Ok(None);
    };
    // Resting with a party whose rest already moved the clock ends now; else in eight hours.
    let shared = clock
        .last_rest
        .as_ref()
        .is_some_and(|r| r.kind == "long" && r.ends_at == clock.seconds);
    let ends = if shared {
        clock.seconds
    } else {
        clock.seconds.saturating_add(8 * HOUR)
    };
    let next_end = last.saturating_add(24 * HOUR);
    if ends >= next_end {
        return Ok(None);
    }
    Ok(Some(format!(
        "{name} finished a long rest at {}, and a character can't benefit from more than one long rest in a 24-hour period: the next one can end at {} at the earliest (start it at {}; pass time with advance_time first), or take a short rest",
        describe_time(last),
        describe_time(next_end),
        describe_time(next_end.saturating_sub(8 * HOUR))
    )))
}

/// Records that `character_id`'s long rest ended now (after [`rest_taken`] moved the clock).
pub fn long_rest_ended(call: &mut Call<'_>, character_id: &str) -> Result<()> {
    let mut clock = now(call)?;
    clock
        .long_rests
        .insert(character_id.to_string(), clock.seconds);
    let campaign = call.campaign();
    call.tx().set_clock(campaign, &clock)?;
    Ok(())
}

/// A rest moves the clock by its length (short 1 hour, long 8 hours), once for everyone who
/// rests at that moment: a second character resting right after the first shares the same rest.
/// Returns the advance, or `None` when the rest was already counted.
pub fn rest_taken(call: &mut Call<'_>, long: bool) -> Result<Option<TimeAdvance>> {
    let kind = if long { "long" } else { "short" };
    let clock = now(call)?;
    if clock
        .last_rest
        .as_ref()
        .is_some_and(|r| r.kind == kind && r.ends_at == clock.seconds)
    {
        return Ok(None);
    }
    let length = if long { 8 * HOUR } else { HOUR };
    let skip = in_combat(call)?;
    let out = advance(call, length, &skip)?;
    let mut clock = now(call)?;
    clock.last_rest = Some(RestWindow {
        kind: kind.into(),
        ends_at: clock.seconds,
    });
    let campaign = call.campaign();
    call.tx().set_clock(campaign, &clock)?;
    Ok(Some(out))
}

/// A new combat round: six seconds pass for everyone outside the encounter (the combatants'
/// rounds tick on their turns). Returns what ran out, as lines.
pub fn combat_round(call: &mut Call<'_>, combatants: &[String]) -> Result<Vec<String>> {
    let out = advance(call, ROUND, combatants)?;
    Ok(out
        .expired
        .iter()
        .map(|e| format!("{} on {} ran out (outside the fight)", e.ended, e.character))
        .collect())
}
