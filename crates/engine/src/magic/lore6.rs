//! Travel, sensing, messages and the cantrips' small tricks (the spell kind `lore`), resolved by
//! the spell's SRD index from an `execute_action cast_spell` request's existing fields
//! (`description` for the question, message, option or destination; the target for a creature):
//!
//! - [`oracle`]: Augury, Divination and Commune count their castings since the caster's last long
//!   rest (an effect that ends on the rest) and roll the cumulative 25 % chance of a random
//!   reading (Augury: the omen rolled; Divination) or of no answer (Commune); Commune's three
//!   questions are counted; Divination consumes its incense, Legend Lore its 250 gp incense.
//! - [`scrying`]: the WIS save with the SRD's knowledge and connection modifiers; a failure puts
//!   the sensor on the target while the caster concentrates, a success protects the target from
//!   this caster's Scrying for 24 hours (enforced).
//! - Clairvoyance: a sensor at a named place, seeing or hearing, while the caster concentrates.
//! - [`super::lore6_ways`]: Sending and Animal Messenger (25 words, the messenger a Tiny beast,
//!   its hours tracked), Thaumaturgy and Prestidigitation (their options, durations, and at most
//!   three lasting effects); [`super::lore6_bonds`]: Planar Binding, Instant Summons.
//! - [`super::lore6_paths`]: Teleportation Circle and Transport via Plants (the caster's party
//!   moved to a place with a known circle, or plants at both ends), Find the Path (the route of
//!   fewest travel minutes over the world's connections, while the caster concentrates).
//!
//! What stays the DM's (the answers, omens and what the sensor shows) is said in each answer.

use serde_json::json;
use tabletop_rules::Ability;
use tabletop_rules::d20::{D20Request, D20Test, roll_d20_test};

use crate::catalog::spells::SpellKind;
use crate::combat::actions::{ActionOutcome, ActionRequest, ActionType};
use crate::effects::Duration;
use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::character::Character;
use crate::model::spell::SpellDef;

use super::lore6_kit::{DAY_ROUNDS, concentrate, mark, one_target, roll};

/// Casts a `lore` spell from `req` for `caster` (slot already spent, none for a trigger that is
/// no casting: [`is_trigger`]; `dc` the caster's save DC); `None` for every other spell.
pub fn cast(
    call: &mut Call<'_>,
    caster: &mut Character,
    def: &SpellDef,
    req: &ActionRequest,
    dc: i32,
    slot: u8,
) -> Result<Option<ActionOutcome>> {
    let Some(e) = def.mechanics() else {
        return Ok(None);
    };
    if e.kind != SpellKind::Lore {
        return Ok(None);
    }
    let index = crate::catalog::spells::index_of(&def.name);
    let said = req
        .description
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty());
    let (headline, lines, details) = match index.as_str() {
        "augury" | "divination" | "commune" | "legend-lore" => oracle(call, caster, def, said)?,
        "scrying" => scrying(call, caster, def, req, said, dc)?,
        "clairvoyance" => clairvoyance(call, caster, def, said)?,
        "planar-binding" => super::lore6_bonds::binding(call, caster, def, req, dc, slot)?,
        "instant-summons" => super::lore6_bonds::summons(call, caster, req)?,
        "teleportation-circle" => super::lore6_paths::circle(call, caster, said)?,
        "transport-via-plants" => super::lore6_paths::plants(call, caster, said)?,
        "find-the-path" => super::lore6_paths::find_path(call, caster, def, said)?,
        _ => match super::lore6_ways::cast(call, caster, def, req, said, slot, &index)? {
            Some(x) => x,
            None => return Ok(None),
        },
    };
    Ok(Some(ActionOutcome {
        actor: caster.name.clone(),
        action_type: Some(ActionType::CastSpell),
        headline,
        lines,
        details,
        ..Default::default()
    }))
}

pub use super::lore6_bonds::is_trigger;

/// The SRD indexes this module resolves (every `lore` entry of the catalog must be one).
pub const HANDLED: &[&str] = &[
    "animal-messenger",
    "augury",
    "clairvoyance",
    "commune",
    "divination",
    "find-the-path",
    "instant-summons",
    "legend-lore",
    "planar-binding",
    "prestidigitation",
    "scrying",
    "sending",
    "teleportation-circle",
    "thaumaturgy",
    "transport-via-plants",
];

/// Whether a `lore` entry with this index is resolved here.
pub fn handles(index: &str) -> bool {
    HANDLED.contains(&index)
}

/// No slot: Instant Summons' recall is the sapphire crushed as an action.
pub fn no_slot(def: &SpellDef) -> super::plan::SlotUse {
    super::plan::SlotUse {
        level: def.level,
        pact: false,
        spent: false,
    }
}

/// [`cast`] outside an encounter: `notes` (feature and component lines) and the slot spent are
/// added, the caster stored.
pub fn outside(
    call: &mut Call<'_>,
    caster: &mut Character,
    def: &SpellDef,
    req: &ActionRequest,
    dc: i32,
    slot: super::plan::SlotUse,
    notes: Vec<String>,
) -> Result<Option<ActionOutcome>> {
    let Some(mut out) = cast(call, caster, def, req, dc, slot.level)? else {
        return Ok(None);
    };
    out.lines.extend(notes);
    if slot.spent {
        out.lines.push(format!(
            "{}{} slot spent; left: {}",
            crate::model::slots::ordinal(slot.level),
            if slot.pact { " pact" } else { "" },
            caster.spell_slots.summary()
        ));
    }
    crate::combat::put_sheet(call, caster)?;
    call.record_change("character", &caster.id, out.headline.clone());
    Ok(Some(out))
}

/// [`cast`] in an encounter (from `combat::summons::map_spell`, which stores the caster).
pub fn in_encounter(
    call: &mut Call<'_>,
    turn: &mut crate::combat::actions::Turn<'_>,
    caster: &mut Character,
    def: &SpellDef,
    slot: u8,
) -> Result<Option<ActionOutcome>> {
    let dc = super::numbers::caster_numbers_for(call, caster, &def.name)?.save_dc;
    let out = cast(call, caster, def, turn.req, dc, slot)?;
    Ok(out.map(|o| ActionOutcome {
        encounter_id: turn.encounter.id.clone(),
        ..o
    }))
}

/// What a `lore` spell cast another way (a scroll, an item) is told: how to cast it.
pub fn elsewhere(def: &SpellDef) -> String {
    format!(
        "no automation for {} this way: cast it with execute_action cast_spell (description: the question, message, option or place) so the engine applies it; the DM decides otherwise",
        def.name
    )
}

/// Augury, Divination, Commune, Legend Lore: the castings since a long rest counted (an effect
/// that the long rest ends), the cumulative chance rolled, the material consumed.
fn oracle(
    call: &mut Call<'_>,
    caster: &mut Character,
    def: &SpellDef,
    said: Option<&str>,
) -> Result<(String, Vec<String>, serde_json::Value)> {
    let index = crate::catalog::spells::index_of(&def.name);
    let what = match index.as_str() {
        "augury" => "the course of action to be taken within 30 minutes",
        "commune" => "up to three yes-or-no questions",
        "legend-lore" => "the person, place or object of legend",
        _ => "the one question about a goal, event or activity within 7 days",
    };
    let Some(asked) = said else {
        return Err(EngineError::invalid(
            "description",
            format!("{} needs description: {what}", def.name),
        ));
    };
    let questions = asked.matches('?').count().max(1);
    if index == "commune" && questions > 3 {
        return Err(EngineError::invalid(
            "description",
            format!("Commune answers up to three yes-or-no questions; {questions} asked"),
        ));
    }
    if index == "divination" && questions > 1 {
        return Err(EngineError::invalid(
            "description",
            format!("Divination answers one question; {questions} asked"),
        ));
    }
    let mut lines = Vec::new();
    if let Some(m) = def.mechanics().and_then(|e| e.consumes.as_ref()) {
        lines.push(super::life6_items::consume(
            caster, &m.item, m.gp, &def.name,
        ));
    }
    if index == "legend-lore" {
        let headline = format!(
            "{} casts Legend Lore about {asked}: the DM tells the significant lore (none if the subject is not of legendary importance; more detail the more the caster knows of it).",
            caster.name
        );
        return Ok((
            headline,
            lines,
            json!({ "lore": { "subject": asked, "consumed": def.mechanics().and_then(|e| e.consumes.as_ref()).map(|m| &m.item) } }),
        ));
    }
    let prefix = format!("{} casting ", def.name);
    let before = caster
        .effects
        .iter()
        .filter(|x| x.name.starts_with(&prefix))
        .count();
    let n = before.saturating_add(1);
    mark(
        call,
        caster,
        &caster.name.clone(),
        format!("{prefix}{n} since a long rest"),
        Duration::UntilRest,
    )?;
    let chance = u32::try_from(before.saturating_mul(25).min(100)).unwrap_or(100);
    let mut details = json!({ "oracle": {
        "spell": def.name, "asked": asked, "questions": questions,
        "castingSinceLongRest": n, "chance": chance,
    }});
    let failed = if chance > 0 {
        let r = roll(call, "1d100")?;
        details["oracle"]["roll"] = json!(r);
        let f = r <= i64::from(chance);
        lines.push(format!(
            "casting {n} since a long rest: a {chance}% chance of {}; d100 {r}: {}",
            if index == "commune" {
                "no answer"
            } else {
                "a random reading"
            },
            if f {
                "it happens"
            } else {
                "the answer is true"
            }
        ));
        f
    } else {
        lines.push("the first casting since a long rest: the answer is true".into());
        false
    };
    details["oracle"]["reading"] = json!(if failed { "random" } else { "true" });
    let headline = match (index.as_str(), failed) {
        ("augury", true) => {
            let omens = ["weal", "woe", "weal and woe", "nothing"];
            let k = usize::try_from(roll(call, "1d4")?.clamp(1, 4) - 1).unwrap_or(0);
            details["oracle"]["omen"] = json!(omens[k]);
            format!(
                "{} casts Augury on {asked}: a random reading, the omen is {} (d4), whatever the truth.",
                caster.name, omens[k]
            )
        }
        ("augury", false) => format!(
            "{} casts Augury on {asked}: the DM gives the true omen (weal, woe, weal and woe, or nothing) for results within 30 minutes.",
            caster.name
        ),
        ("commune", true) => format!(
            "{} casts Commune: no answer comes to the {questions} question(s) this time.",
            caster.name
        ),
        ("commune", false) => format!(
            "{} casts Commune: the DM answers the {questions} question(s) truthfully with one word each (yes, no, or unclear).",
            caster.name
        ),
        (_, true) => format!(
            "{} casts {}: a random reading — the DM gives an unreliable answer to: {asked}",
            caster.name, def.name
        ),
        (_, false) => format!(
            "{} casts {}: the DM gives a truthful reply (a short phrase, cryptic rhyme or omen) to: {asked}",
            caster.name, def.name
        ),
    };
    Ok((headline, lines, details))
}

/// Scrying's save modifier from the caster's knowledge of and connection to the target, read
/// from the description's words; the words found.
pub fn scrying_modifier(said: &str) -> (i32, Vec<&'static str>) {
    let s = said.to_lowercase();
    let mut total = 0;
    let mut why = Vec::new();
    let knowledge = [
        ("familiar", -5, "familiar (−5)"),
        ("firsthand", 0, "firsthand (+0)"),
        ("secondhand", 5, "secondhand (+5)"),
    ];
    match knowledge.iter().find(|(w, ..)| s.contains(w)) {
        Some((_, m, l)) => {
            total += m;
            why.push(*l);
        }
        None => {
            total += 10;
            why.push("no knowledge (+10)");
        }
    }
    let connection = [
        ("body part", -10, "body part (−10)"),
        ("hair", -10, "body part (−10)"),
        ("nail", -10, "body part (−10)"),
        ("possession", -4, "possession or garment (−4)"),
        ("garment", -4, "possession or garment (−4)"),
        ("likeness", -2, "likeness or picture (−2)"),
        ("picture", -2, "likeness or picture (−2)"),
    ];
    if let Some((_, m, l)) = connection.iter().find(|(w, ..)| s.contains(w)) {
        total += m;
        why.push(*l);
    }
    (total, why)
}

/// Scrying: a WIS save with the knowledge and connection modifiers; the sensor on a failure, 24
/// hours of protection from this caster's Scrying on a success.
fn scrying(
    call: &mut Call<'_>,
    caster: &mut Character,
    def: &SpellDef,
    req: &ActionRequest,
    said: Option<&str>,
    dc: i32,
) -> Result<(String, Vec<String>, serde_json::Value)> {
    let mut t = one_target(call, req, &def.name)?;
    if t.id == caster.id {
        return Err(EngineError::invalid(
            "targetId",
            "Scrying watches another creature",
        ));
    }
    let guard = format!("Scrying refused ({})", caster.name);
    if t.effects.iter().any(|x| x.name == guard) {
        return Err(EngineError::Rule(format!(
            "{} succeeded on a save against {}'s Scrying within 24 hours; it can't be scried by them again until then",
            t.name, caster.name
        )));
    }
    if crate::combat::divination::hidden(&t) {
        let headline = format!(
            "{} casts Scrying on {}: divination magic can't target {} (warded); no sensor.",
            caster.name, t.name, t.name
        );
        return Ok((
            headline,
            Vec::new(),
            json!({ "scrying": { "hidden": true } }),
        ));
    }
    let (m, why) = scrying_modifier(said.unwrap_or(""));
    let stats = t.effective();
    let mut r = D20Request::new(D20Test::Save {
        ability: Ability::Wisdom,
    })
    .dc(dc)
    .labelled("Wisdom save (Scrying)");
    if m != 0 {
        r = r.bonus(why.join(", "), m);
    }
    let out = roll_d20_test(&stats, &r, call.rng()?);
    call.record_roll(&out);
    let saved = out.success.unwrap_or(false);
    let mut lines = vec![format!(
        "{}: {} (knowledge and connection: {})",
        t.name,
        out.summary(),
        why.join(", ")
    )];
    let headline = if saved {
        mark(
            call,
            &mut t,
            &caster.name,
            guard,
            Duration::Rounds {
                remaining: DAY_ROUNDS,
            },
        )?;
        format!(
            "{} casts Scrying on {}: {} saves; no sensor, and {} can't scry them again for 24 hours.",
            caster.name, t.name, t.name, caster.name
        )
    } else {
        let name = format!("Scrying sensor ({})", caster.name);
        let d = concentrate(call, caster, def, &t.id, &name, &mut lines)?;
        mark(call, &mut t, &caster.name, name, d)?;
        lines.push(format!(
            "{} concentrates on Scrying (up to 10 minutes); the invisible sensor moves with {}; the DM describes what is seen and heard",
            caster.name, t.name
        ));
        format!(
            "{} casts Scrying on {}: {} fails; a sensor appears within 10 feet of {}.",
            caster.name, t.name, t.name, t.name
        )
    };
    let phrase = format!("Scrying: {}", if saved { "saved" } else { "sensor" });
    crate::combat::put_sheet(call, &t)?;
    call.record_change("character", &t.id, phrase);
    let details = json!({ "scrying": {
        "target": t.name, "modifier": m, "dc": dc, "total": out.total, "saved": saved,
    }});
    Ok((headline, lines, details))
}

/// Clairvoyance: a sensor at a named place, seeing or hearing, while the caster concentrates.
fn clairvoyance(
    call: &mut Call<'_>,
    caster: &mut Character,
    def: &SpellDef,
    said: Option<&str>,
) -> Result<(String, Vec<String>, serde_json::Value)> {
    let Some(place) = said else {
        return Err(EngineError::invalid(
            "description",
            "Clairvoyance needs description: the place within 1 mile, and \"seeing\" or \"hearing\"",
        ));
    };
    let low = place.to_lowercase();
    let sense = match (low.contains("hearing"), low.contains("seeing")) {
        (true, false) => "hearing",
        (false, true) => "seeing",
        _ => {
            return Err(EngineError::invalid(
                "description",
                "Clairvoyance: choose one sense, \"seeing\" or \"hearing\" (with the place)",
            ));
        }
    };
    let name = format!("Clairvoyance sensor ({sense}): {place}");
    caster
        .effects
        .retain(|x| !x.name.starts_with("Clairvoyance sensor"));
    let who = caster.name.clone();
    let mut lines = Vec::new();
    let id = caster.id.clone();
    let d = concentrate(call, caster, def, &id, &name, &mut lines)?;
    mark(call, caster, &who, name.clone(), d)?;
    let headline = format!(
        "{who} casts Clairvoyance: an invisible sensor for {sense} at {place} while {who} concentrates (up to 10 minutes); the DM describes what is {}.",
        if sense == "seeing" { "seen" } else { "heard" }
    );
    lines.push(format!(
        "{who} may switch between {sense} and their own senses as an action"
    ));
    Ok((
        headline,
        lines,
        json!({ "sensor": { "sense": sense, "place": place } }),
    ))
}
