//! What a stat-block effect's own text says about whom it touches and what stays after it:
//! the creatures it leaves out ("Each non-undead creature", "that isn't a demon"), the 24-hour
//! immunity after a save ("the target is immune to the dragon's Frightful Presence for the
//! next 24 hours"), and the ageing of a save failed by 5 or more (the ghost's Horrifying
//! Visage), which has no game effect the engine tracks.

use tabletop_rules::Condition;

use super::ability_text::conditions_in;
use crate::engine::Call;
use crate::error::Result;
use crate::magic::targets::creature_type;
use crate::model::character::Character;
use crate::model::effects::{ActiveEffect, Duration};

/// 24 hours in rounds of 6 seconds.
const DAY_ROUNDS: u32 = 14_400;

/// Why the text leaves `c` out ("Each non-undead creature": an undead; "that isn't a demon":
/// a demon), if it does.
pub(crate) fn left_out(text: &str, c: &Character) -> Option<String> {
    let l = text.to_lowercase();
    let kind = creature_type(c)?;
    let sub = c
        .stat_block
        .as_ref()
        .and_then(|b| b.subtype.clone())
        .unwrap_or_default()
        .to_lowercase();
    let is = |t: &str| kind.starts_with(t) || (!sub.is_empty() && sub.contains(t));
    for (marker, suffix) in [
        ("non-", " creature"),
        ("that isn't an ", ""),
        ("that isn't a ", ""),
    ] {
        let mut from = 0;
        while let Some(i) = l[from..].find(marker) {
            let start = from + i + marker.len();
            from = start;
            let word: String = l[start..]
                .chars()
                .take_while(|ch| ch.is_ascii_alphabetic())
                .collect();
            if word.is_empty()
                || (!suffix.is_empty() && !l[start + word.len()..].starts_with(suffix))
            {
                continue;
            }
            if is(&word) {
                return Some(format!(
                    "{} is not affected: the text touches only creatures that are not {word} ({} is {kind})",
                    c.name, c.name
                ));
            }
        }
    }
    None
}

/// The name of the immunity the text grants after a save ("immune to the dragon's Frightful
/// Presence for the next 24 hours"), for `actor`'s `ability`.
pub(crate) fn immunity_name(text: &str, actor: &str, ability: &str) -> Option<String> {
    let l = text.to_lowercase();
    let i = l.find("immune to ")?;
    l[i..].find("24 hours")?;
    Some(format!("Immune to {actor}'s {ability}"))
}

/// Whether the immunity also follows a failed save once the effect ends ("If a creature's saving
/// throw is successful or the effect ends for it"); otherwise only a success gives it ("A target
/// that succeeds on the saving throw is immune").
pub(crate) fn immune_once_it_ends(text: &str) -> bool {
    let l = text.to_lowercase();
    l.contains("effect ends for it") || l.contains("possession ends")
}

/// Why `c` is not affected: it is still immune from an earlier save.
pub(crate) fn immune_now(c: &Character, name: &str) -> Option<String> {
    c.effects.iter().find(|e| e.name == name).map(|e| {
        format!(
            "{} is not affected: {} (for 24 hours after a save or the effect's end; {} left)",
            c.name,
            lower_first(name),
            e.duration.describe(|_| String::new())
        )
    })
}

fn lower_first(s: &str) -> String {
    let mut ch = s.chars();
    ch.next()
        .map(|f| f.to_lowercase().chain(ch).collect())
        .unwrap_or_default()
}

/// Records the 24-hour immunity on `c` (after its save, or with the effect it failed against:
/// once that ends it stays immune for the rest of the day; a repeat use while it lasts changes
/// nothing). Returns the line.
pub(crate) fn grant_immunity(
    call: &mut Call<'_>,
    c: &mut Character,
    name: &str,
    saved: bool,
) -> Result<String> {
    c.effects.retain(|e| e.name != name);
    c.effects.push(ActiveEffect {
        id: call.new_id("ef")?,
        name: name.to_string(),
        source: Some(name.trim_start_matches("Immune to ").to_string()),
        modifiers: Vec::new(),
        duration: Duration::Rounds {
            remaining: DAY_ROUNDS,
        },
        ends_on: None,
        ends_when_attacked: false,
        damaged_since_turn: false,
        grant: None,
    });
    Ok(if saved {
        format!("{} is {} for the next 24 hours", c.name, lower_first(name))
    } else {
        format!(
            "{} is {} for 24 hours once the effect ends for it (recorded now: a new use while it lasts changes nothing)",
            c.name,
            lower_first(name)
        )
    })
}

/// The conditions a failed save gives, and apart those its text gives only to a save failed by
/// 5 or more ("If the target fails the saving throw by 5 or more, it is also paralyzed").
pub(crate) fn conditions_by_margin(text: &str) -> (Vec<Condition>, Vec<Condition>) {
    let mut plain = Vec::new();
    let mut deep = Vec::new();
    for sentence in text.split(". ") {
        let into = if sentence.to_lowercase().contains("by 5 or more") {
            &mut deep
        } else {
            &mut plain
        };
        for c in conditions_in(sentence) {
            if !into.contains(&c) {
                into.push(c);
            }
        }
    }
    deep.retain(|c| !plain.contains(c));
    (plain, deep)
}

/// "If the save fails by 5 or more, the target also ages 1d4 × 10 years": rolled and said, the
/// DM's to narrate (no game effect the engine tracks).
pub(crate) fn ageing(
    call: &mut Call<'_>,
    text: &str,
    c: &Character,
    missed_by: i32,
) -> Result<Option<String>> {
    let l = text.to_lowercase();
    if missed_by < 5 || !l.contains("by 5 or more") {
        return Ok(None);
    }
    let Some(i) = l.find("ages ") else {
        return Ok(None);
    };
    let dice: String = l[i + 5..]
        .chars()
        .take_while(|ch| ch.is_ascii_alphanumeric())
        .collect();
    if tabletop_rules::dice::parse(&dice).is_err() || !l[i..].contains("10 years") {
        return Ok(None);
    }
    let roll = tabletop_rules::dice::roll(&dice, call.rng()?)?;
    call.record_roll(&roll);
    let years = roll.total.saturating_mul(10);
    Ok(Some(format!(
        "{} failed by {missed_by} and ages {years} years ({} × 10): no game effect the engine tracks; the DM narrates it (a greater restoration within 24 hours reverses it)",
        c.name,
        roll.summary()
    )))
}
