//! The `lore` spells that carry words, tricks or travellers (see [`super::lore6`]): Sending and
//! Animal Messenger (a message of at most 25 words; Sending's is kept as a campaign note, the
//! messenger beast carries it for its hours), Thaumaturgy and Prestidigitation (the option
//! chosen, its duration tracked on the caster, at most three lasting effects at a time),
//! Teleportation Circle (the caster's party moved to a place that holds a known permanent
//! circle).

use serde_json::json;
use tabletop_rules::Size;

use super::lore6_kit::{DAY_ROUNDS, mark, one_target};
use crate::combat::actions::ActionRequest;
use crate::effects::Duration;
use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::character::Character;
use crate::model::spell::SpellDef;

type Done = (String, Vec<String>, serde_json::Value);

/// The longest message Sending and Animal Messenger carry, in words.
pub const MAX_WORDS: usize = 25;

/// Resolves the spells of this file by SRD `index`; `None` for others.
pub fn cast(
    call: &mut Call<'_>,
    caster: &mut Character,
    def: &SpellDef,
    req: &ActionRequest,
    said: Option<&str>,
    slot: u8,
    index: &str,
) -> Result<Option<Done>> {
    Ok(Some(match index {
        "sending" => sending(call, caster, req, said)?,
        "animal-messenger" => messenger(call, caster, def, req, said, slot)?,
        "thaumaturgy" | "prestidigitation" => trick(call, caster, def, said)?,
        _ => return Ok(None),
    }))
}

/// The message, at most 25 words.
fn message<'a>(said: Option<&'a str>, spell: &str) -> Result<&'a str> {
    let m = said.ok_or_else(|| {
        EngineError::invalid(
            "description",
            format!("{spell} needs description: the message (25 words or fewer)"),
        )
    })?;
    let n = m.split_whitespace().count();
    if n > MAX_WORDS {
        return Err(EngineError::invalid(
            "description",
            format!("{spell} carries 25 words or fewer; the message has {n}"),
        ));
    }
    Ok(m)
}

/// Sending: the message delivered to a creature the caster knows, kept as a note.
fn sending(
    call: &mut Call<'_>,
    caster: &mut Character,
    req: &ActionRequest,
    said: Option<&str>,
) -> Result<Done> {
    let t = one_target(call, req, "Sending")?;
    if t.id == caster.id {
        return Err(EngineError::invalid(
            "targetId",
            "Sending reaches another creature",
        ));
    }
    let m = message(said, "Sending")?;
    let note = crate::notes::add_note(
        call,
        crate::notes::NoteDraft {
            content: Some(format!(
                "Sending from {} to {}: \"{m}\"",
                caster.name, t.name
            )),
            tags: Some(vec!["sending".into(), t.name.clone(), caster.name.clone()]),
            ..Default::default()
        },
    )?;
    let words = m.split_whitespace().count();
    let headline = format!(
        "{} casts Sending: {} hears \"{m}\" ({words} words) and recognises the sender; they may answer at once in 25 words or fewer.",
        caster.name, t.name
    );
    Ok((
        headline,
        vec![format!(
            "kept as note {}; if {} is on another plane, the DM rolls the 5% chance it does not arrive",
            note.id, t.name
        )],
        json!({ "message": { "to": t.name, "words": words, "note": note.id } }),
    ))
}

/// Animal Messenger: a Tiny beast carries the message for 24 hours (+48 per slot above 2nd).
fn messenger(
    call: &mut Call<'_>,
    caster: &mut Character,
    def: &SpellDef,
    req: &ActionRequest,
    said: Option<&str>,
    slot: u8,
) -> Result<Done> {
    let mut t = one_target(call, req, &def.name)?;
    let kind = super::targets::creature_type(&t).unwrap_or_default();
    if t.size != Size::Tiny || !kind.starts_with("beast") {
        return Err(EngineError::Rule(format!(
            "Animal Messenger needs a Tiny beast; {} is a {} {kind}",
            t.name,
            t.size.key()
        )));
    }
    let m = message(said, &def.name)?;
    let hours = 24u32.saturating_add(48u32.saturating_mul(u32::from(slot.saturating_sub(2))));
    let rounds = DAY_ROUNDS.saturating_mul(hours) / 24;
    let name = format!("Animal Messenger ({}): \"{m}\"", caster.name);
    t.effects
        .retain(|x| !x.name.starts_with("Animal Messenger ("));
    mark(
        call,
        &mut t,
        &caster.name,
        name,
        Duration::Rounds { remaining: rounds },
    )?;
    crate::combat::put_sheet(call, &t)?;
    call.record_change("character", &t.id, "carries an Animal Messenger message");
    let headline = format!(
        "{} casts Animal Messenger: {} carries \"{m}\" for {hours} hours (about 50 miles a day flying, 25 otherwise).",
        caster.name, t.name
    );
    Ok((
        headline,
        vec![
            "the DM places the destination and the recipient's description; the beast speaks the message there, then returns".into(),
        ],
        json!({ "messenger": { "beast": t.name, "hours": hours, "rounds": rounds } }),
    ))
}

/// A cantrip's option: its key, what it does, and how long it lasts (rounds; 0 instantaneous).
const TRICKS: &[(&str, &str, &str, u32)] = &[
    (
        "thaumaturgy",
        "voice",
        "voice booms up to three times as loud",
        10,
    ),
    (
        "thaumaturgy",
        "flames",
        "flames flicker, brighten, dim or change color",
        10,
    ),
    (
        "thaumaturgy",
        "tremors",
        "harmless tremors in the ground",
        0,
    ),
    (
        "thaumaturgy",
        "sound",
        "an instantaneous sound from a point",
        0,
    ),
    (
        "thaumaturgy",
        "door",
        "an unlocked door or window flies open or slams shut",
        0,
    ),
    (
        "thaumaturgy",
        "eyes",
        "the caster's eyes change appearance",
        10,
    ),
    (
        "prestidigitation",
        "sensory",
        "a harmless sensory effect",
        0,
    ),
    (
        "prestidigitation",
        "light",
        "a candle, torch or small fire lit or snuffed",
        0,
    ),
    (
        "prestidigitation",
        "clean",
        "an object of 1 cubic foot cleaned or soiled",
        0,
    ),
    (
        "prestidigitation",
        "chill",
        "nonliving material of 1 cubic foot chilled, warmed or flavored",
        600,
    ),
    (
        "prestidigitation",
        "mark",
        "a color, small mark or symbol on an object or surface",
        600,
    ),
    (
        "prestidigitation",
        "trinket",
        "a nonmagical trinket or illusory image in the hand",
        1,
    ),
];

/// Thaumaturgy, Prestidigitation: the option chosen; a lasting one tracked on the caster, at
/// most three at a time.
fn trick(
    call: &mut Call<'_>,
    caster: &mut Character,
    def: &SpellDef,
    said: Option<&str>,
) -> Result<Done> {
    let index = crate::catalog::spells::index_of(&def.name);
    let mine: Vec<&(&str, &str, &str, u32)> = TRICKS.iter().filter(|t| t.0 == index).collect();
    let offer = || {
        mine.iter()
            .map(|t| format!("{} ({})", t.1, t.2))
            .collect::<Vec<_>>()
            .join("; ")
    };
    let low = said.unwrap_or("").to_lowercase();
    fn alias(w: &str) -> &str {
        match w {
            "warm" | "flavor" | "flavour" => "chill",
            "snuff" | "fire" | "candle" => "light",
            "soil" => "clean",
            "color" | "symbol" => "mark",
            "image" => "trinket",
            other => other,
        }
    }
    let chosen = low
        .split(|c: char| !c.is_alphanumeric())
        .map(alias)
        .find_map(|w| mine.iter().find(|t| t.1 == w));
    let Some(&&(_, key, what, rounds)) = chosen else {
        return Err(EngineError::invalid(
            "description",
            format!("{} needs its option in description: {}", def.name, offer()),
        ));
    };
    let prefix = format!("{}: ", def.name);
    let who = caster.name.clone();
    if rounds == 0 {
        return Ok((
            format!("{who} casts {}: {what} (instantaneous).", def.name),
            Vec::new(),
            json!({ "trick": { "option": key, "rounds": 0 } }),
        ));
    }
    let active: Vec<String> = caster
        .effects
        .iter()
        .filter(|x| x.name.starts_with(&prefix))
        .map(|x| x.name.clone())
        .collect();
    if active.len() >= 3 {
        return Err(EngineError::Rule(format!(
            "{who} already has three {} effects active ({}); dismiss one first (manage_effect remove, an action)",
            def.name,
            active.join(", ")
        )));
    }
    let name = format!("{prefix}{what}");
    mark(
        call,
        caster,
        &who,
        name.clone(),
        Duration::Rounds { remaining: rounds },
    )?;
    let span = match rounds {
        1 => "until the end of the caster's next turn",
        10 => "1 minute",
        _ => "1 hour",
    };
    Ok((
        format!("{who} casts {}: {what} for {span}.", def.name),
        vec![format!(
            "{} of 3 lasting {} effects active; the DM describes it",
            active.len() + 1,
            def.name
        )],
        json!({ "trick": { "option": key, "rounds": rounds, "active": active.len() + 1 } }),
    ))
}
