//! Character use cases that are not a tool family of their own: finding a character by id or
//! name, reading its sheet, listing the roster and deleting a character with what hangs on it.
//! The data they work on lives in [`crate::model::character`] and [`crate::model::sheet`].

use serde::Serialize;

use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::character::{Character, CharacterFilter, CharacterRef};
use crate::model::names::name_key;
use crate::model::sheet::{CharacterPage, CharacterSummary, MAX_PER_PAGE, Sheet};

/// Finds the character named by `r`: by id, else by exact case-insensitive name. Missing →
/// suggestions; several with that name → the candidates.
pub fn resolve(call: &Call<'_>, r: CharacterRef<'_>) -> Result<Character> {
    resolve_with_fields(call, r, "characterId", "characterName")
}

/// [`resolve`] with the caller's field names (actorId/actorName, targetId/targetName, …) so
/// errors name the field the caller used.
pub fn resolve_with_fields(
    call: &Call<'_>,
    r: CharacterRef<'_>,
    id_field: &'static str,
    name_field: &'static str,
) -> Result<Character> {
    find(call, r, id_field, name_field)
}

/// A character as the store read it, for a call that reads it and changes nothing on it: it
/// cannot be changed (it derefs to [`Character`] read-only; [`Read::into_inner`] gives a
/// character to change). Its effective sheet is derived once per stored text and shared by every
/// read of that text, so repeated checks of an unchanged character derive nothing.
pub struct Read {
    c: Character,
    own: std::sync::OnceLock<tabletop_rules::stats::EffectiveStats>,
}

impl Read {
    /// The character's effective sheet ([`Character::effective`]), derived at most once.
    pub fn effective(&self) -> &tabletop_rules::stats::EffectiveStats {
        match &self.c.read_sheet.0 {
            Some(shared) => shared.get_or_init(|| self.c.effective()),
            None => self.own.get_or_init(|| self.c.effective()),
        }
    }

    /// The character, to change.
    pub fn into_inner(self) -> Character {
        let mut c = self.c;
        c.read_sheet = Default::default();
        c
    }
}

impl std::ops::Deref for Read {
    type Target = Character;
    fn deref(&self) -> &Character {
        &self.c
    }
}

/// [`resolve_with_fields`], for a call that changes nothing on the character: see [`Read`].
pub fn read_with_fields(
    call: &Call<'_>,
    r: CharacterRef<'_>,
    id_field: &'static str,
    name_field: &'static str,
) -> Result<Read> {
    Ok(Read {
        c: find(call, r, id_field, name_field)?,
        own: std::sync::OnceLock::new(),
    })
}

/// What every read makes of a stored character: its sheet derived from its sources (an old
/// sheet is converted here), and old equipment strings turned into inventory items (one item
/// list). A pure function of the stored character and the compendium (settled before it runs),
/// so the store may keep its result under the stored text and the compendium's identity.
fn resolve_stored(call: &Call<'_>, c: &mut Character) {
    crate::derive::refresh(call, c);
    crate::inventory::ops::adopt_legacy(call, c);
}

fn find(
    call: &Call<'_>,
    r: CharacterRef<'_>,
    id_field: &'static str,
    name_field: &'static str,
) -> Result<Character> {
    let campaign = call.campaign();
    let tx = call.tx_ref();
    // Settle the compendium first: the key must name the compendium the sheet is derived from.
    let _ = call.compendium();
    let key = call.compendium_source().identity();
    let mut resolve = |c: &mut Character| resolve_stored(call, c);
    if let Some(id) = r.id.map(str::trim).filter(|s| !s.is_empty()) {
        if let Some(c) = tx.character_resolved(campaign, id, key, &mut resolve)? {
            return Ok(c);
        }
        // An id that is really a name is a common slip: accept it when unambiguous.
        let by_name = tx.characters_named_resolved(campaign, id, key, &mut resolve)?;
        if by_name.len() == 1 {
            return by_name.into_iter().next().ok_or_else(unreachable_err);
        }
        return Err(not_found(call, id));
    }
    let Some(name) = r.name.map(str::trim).filter(|s| !s.is_empty()) else {
        return Err(EngineError::invalid(
            id_field,
            format!("name the character with {id_field} or {name_field}"),
        ));
    };
    let found = tx.characters_named_resolved(campaign, name, key, &mut resolve)?;
    crate::error::one_match("character", id_field, name, found, Character::label, || {
        Ok(not_found(call, name))
    })
}

fn unreachable_err() -> EngineError {
    EngineError::Rule("internal: lookup changed during the call".into())
}

fn not_found(call: &Call<'_>, given: &str) -> EngineError {
    let names = call
        .tx_ref()
        .character_names(call.campaign())
        .unwrap_or_default();
    let key = name_key(given);
    let mut scored: Vec<(usize, String)> = names
        .iter()
        .map(|(id, name)| {
            let nk = name_key(name);
            let d = if nk.contains(&key) || key.contains(&nk) {
                0
            } else {
                tabletop_rules::vocab::edit_distance(&key, &nk)
            };
            (d, format!("{name} ({id})"))
        })
        .filter(|(d, _)| *d <= (key.len() / 3).max(2))
        .collect();
    scored.sort();
    EngineError::NotFoundAmong {
        kind: "character",
        given: given.to_string(),
        suggestions: scored.into_iter().take(3).map(|(_, s)| s).collect(),
        existing: names
            .iter()
            .map(|(id, name)| format!("{name} ({id})"))
            .collect(),
    }
}

/// What [`delete_character`] removed.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Deletion {
    /// The deleted character's id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Other records removed with it, in words.
    pub cascaded: Vec<String>,
}

/// Deletes a character and everything that references it.
pub fn delete_character(call: &mut Call<'_>, r: CharacterRef<'_>) -> Result<Deletion> {
    let mut c = resolve(call, r)?;
    let mut cascaded = Vec::new();
    // Its concentration ends with it, and what it held up on others goes too.
    if let Some(end) =
        crate::concentration::end(call, &mut c, "the caster was deleted", &mut Vec::new())?
    {
        cascaded.extend(end.removed);
    }
    let campaign = call.campaign();
    if let Some(pid) = call.tx_ref().party_of_character(campaign, &c.id)?
        && let Some(mut p) = call.tx_ref().party(campaign, &pid)?
    {
        p.members.retain(|m| m.character_id != c.id);
        let mut what = format!("membership of party '{}' ({})", p.name, p.id);
        if p.leader_id.as_deref() == Some(c.id.as_str()) {
            p.leader_id = p.members.first().map(|m| m.character_id.clone());
            what.push_str(" and its lead");
        }
        call.tx().put_party(campaign, &p)?;
        call.record_change("party", &p.id, format!("{} left (deleted)", c.name));
        cascaded.push(what);
    }
    // It leaves any fight it is in: marked removed (the log keeps it) and taken off the map.
    for mut e in call.tx_ref().list_encounters(campaign, true)? {
        let Some(cb) = e
            .order
            .iter_mut()
            .find(|x| x.character_id == c.id && !x.removed)
        else {
            continue;
        };
        cb.removed = true;
        let _ = e.map.remove_creature(&c.id);
        e.log(format!("{} leaves the fight (deleted)", c.name));
        call.tx().put_encounter(campaign, &e)?;
        call.record_change("encounter", &e.id, format!("{} removed (deleted)", c.name));
        cascaded.push(format!("place in encounter '{}' ({})", e.name, e.id));
    }
    call.tx().delete_character(campaign, &c.id)?;
    call.record_change("character", &c.id, format!("deleted {}", c.name));
    Ok(Deletion {
        id: c.id,
        name: c.name,
        cascaded,
    })
}
/// Lists characters matching `filter` (AND), by name.
pub fn list_characters(
    call: &Call<'_>,
    filter: &CharacterFilter,
    page: usize,
    per_page: usize,
) -> Result<CharacterPage> {
    if page == 0 {
        return Err(EngineError::invalid("page", "pages start at 1"));
    }
    if !(1..=MAX_PER_PAGE).contains(&per_page) {
        return Err(EngineError::invalid(
            "perPage",
            format!("{per_page} is out of range; use 1–{MAX_PER_PAGE}"),
        ));
    }
    if let (Some(lo), Some(hi)) = (filter.min_level, filter.max_level)
        && lo > hi
    {
        return Err(EngineError::invalid(
            "filter.minLevel",
            format!("minLevel {lo} is above maxLevel {hi}"),
        ));
    }
    let offset = (page - 1).saturating_mul(per_page);
    let (characters, total) =
        call.tx_ref()
            .list_characters(call.campaign(), filter, per_page, offset)?;
    let has_more = (offset + characters.len()) < total as usize;
    Ok(CharacterPage {
        characters: characters.iter().map(CharacterSummary::of).collect(),
        total,
        page,
        per_page,
        has_more,
    })
}

/// One character's sheet.
pub fn get_character(call: &Call<'_>, r: CharacterRef<'_>) -> Result<Sheet> {
    Ok(Sheet::of(resolve(call, r)?))
}
