//! What a player sees: the table's view of the campaign, for one character.
//!
//! A player sees the party (its members' sheets in summary), its own sheet in full, other
//! creatures only as the table would (name, a state instead of HP, visible conditions; no stat
//! block, AC or position numbers it could not know), notes marked `player`, and the ways out of
//! its place that are not hidden. Hidden combatants outside the party, DM notes and undiscovered
//! hidden connections never appear. Every player-facing read goes through here, so the decisions
//! live in one place.

use std::collections::BTreeSet;

use serde::Serialize;

use crate::character::{Character, CharacterRef, resolve};
use crate::combat::view::{EncounterView, Verbosity, view};
use crate::combat::{Encounter, EncounterStatus};
use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::notes::{self, Note, NoteDraft, NoteFilter, NoteSearch, Visibility};
use crate::party::{PartyView, party_view};
use crate::sheet::{Sheet, get_character};

/// The player a view is for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Viewer {
    /// The character the player plays.
    pub character_id: String,
}

/// HP as the table sees it: "down" at 0, "bloodied" at half or less, "hurt" below max,
/// "unhurt" at max.
pub fn hp_state(hp: u32, max_hp: u32) -> &'static str {
    if hp == 0 {
        "down"
    } else if u64::from(hp) * 2 <= u64::from(max_hp) {
        "bloodied"
    } else if hp < max_hp {
        "hurt"
    } else {
        "unhurt"
    }
}

/// The ids of the viewer and of every member of its party.
pub fn party_ids(call: &Call<'_>, viewer: &Viewer) -> Result<BTreeSet<String>> {
    let mut ids = BTreeSet::from([viewer.character_id.clone()]);
    if let Some(p) = party_of(call, viewer)? {
        ids.extend(p.members.into_iter().map(|m| m.character_id));
    }
    Ok(ids)
}

fn party_of(call: &Call<'_>, viewer: &Viewer) -> Result<Option<crate::party::Party>> {
    let campaign = call.campaign();
    match call
        .tx_ref()
        .party_of_character(campaign, &viewer.character_id)?
    {
        Some(pid) => Ok(call.tx_ref().party(campaign, &pid)?),
        None => Ok(None),
    }
}

/// The viewer's own character.
pub fn own(call: &Call<'_>, viewer: &Viewer) -> Result<Character> {
    call.tx_ref()
        .character(call.campaign(), &viewer.character_id)?
        .ok_or_else(|| {
            EngineError::Rule(
                "your character no longer exists in this campaign; ask the DM for a new token"
                    .into(),
            )
        })
}

/// The error a player gets for anything it may not see: the same as for nothing at all, and no
/// suggestions (they would name hidden creatures).
fn unseen(given: &str) -> EngineError {
    EngineError::NotFound {
        kind: "creature you can see",
        given: given.to_string(),
        suggestions: Vec::new(),
    }
}

/// The active encounters the viewer takes part in, newest first.
fn encounters_with(call: &Call<'_>, viewer: &Viewer) -> Result<Vec<Encounter>> {
    Ok(call
        .tx_ref()
        .list_encounters(call.campaign(), true)?
        .into_iter()
        .filter(|e| {
            e.order
                .iter()
                .any(|c| c.character_id == viewer.character_id && !c.removed)
        })
        .collect())
}

/// Whether a combatant can be seen by the viewer's side: not removed, and not hidden unless it is
/// one of the party.
fn seen_in(e: &Encounter, id: &str, party: &BTreeSet<String>) -> bool {
    e.order.iter().any(|c| {
        c.character_id == id && !c.removed && (c.flags.hidden.is_none() || party.contains(id))
    })
}

/// Another creature as the table sees it.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Glimpse {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// A member of the viewer's party.
    pub party_member: bool,
    /// "unhurt", "hurt", "bloodied" or "down".
    pub hp_state: &'static str,
    /// ok, unconscious, dying, stable or dead.
    pub status: &'static str,
    /// Visible conditions.
    pub conditions: Vec<String>,
    /// Race, class and level of a party member (what companions know of each other).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    /// HP of a party member.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hp: Option<(u32, u32)>,
}

fn glimpse(c: &Character, party_member: bool) -> Glimpse {
    let e = c.effective();
    let max = e.max_hp.value.max(1) as u32;
    Glimpse {
        id: c.id.clone(),
        name: c.name.clone(),
        party_member,
        hp_state: hp_state(c.hp, max),
        status: c.status(),
        conditions: e.conditions.clone(),
        summary: party_member.then(|| {
            let mut s = format!("level {}", c.level);
            for part in [&c.class, &c.race].into_iter().flatten() {
                s.push(' ');
                s.push_str(part);
            }
            s
        }),
        hp: party_member.then_some((c.hp, max)),
    }
}

/// What a player gets when looking a creature up.
#[derive(Debug, Clone)]
pub enum Look {
    /// The viewer's own sheet, in full.
    Own(Box<Sheet>),
    /// Someone else, as the table sees them.
    Other(Glimpse),
}

/// Looks a creature up for the viewer: its own sheet in full, a party member or a creature seen
/// in the viewer's fight as a [`Glimpse`]; anything else is "not found".
pub fn look(call: &Call<'_>, viewer: &Viewer, r: CharacterRef<'_>) -> Result<Look> {
    let given = r.id.or(r.name).unwrap_or("").to_string();
    let c = match r.id.or(r.name) {
        None => return Ok(Look::Own(Box::new(get_character(call, own_ref(viewer))?))),
        Some(_) => resolve(call, r).map_err(|_| unseen(&given))?,
    };
    if c.id == viewer.character_id {
        return Ok(Look::Own(Box::new(Sheet::of(c))));
    }
    let party = party_ids(call, viewer)?;
    if party.contains(&c.id) {
        return Ok(Look::Other(glimpse(&c, true)));
    }
    if encounters_with(call, viewer)?
        .iter()
        .any(|e| seen_in(e, &c.id, &party))
    {
        return Ok(Look::Other(glimpse(&c, false)));
    }
    Err(unseen(&given))
}

fn own_ref(viewer: &Viewer) -> CharacterRef<'_> {
    CharacterRef::new(Some(&viewer.character_id), None)
}

/// Everyone the viewer can see: its party, then the creatures seen in its fights.
pub fn visible_creatures(call: &Call<'_>, viewer: &Viewer) -> Result<Vec<Glimpse>> {
    let party = party_ids(call, viewer)?;
    let campaign = call.campaign();
    let mut out = Vec::new();
    let mut seen = BTreeSet::new();
    for id in &party {
        if let Some(c) = call.tx_ref().character(campaign, id)? {
            seen.insert(c.id.clone());
            out.push(glimpse(&c, true));
        }
    }
    for e in encounters_with(call, viewer)? {
        for cb in &e.order {
            if seen.contains(&cb.character_id) || !seen_in(&e, &cb.character_id, &party) {
                continue;
            }
            if let Some(c) = call.tx_ref().character(campaign, &cb.character_id)? {
                seen.insert(c.id.clone());
                out.push(glimpse(&c, false));
            }
        }
    }
    Ok(out)
}

/// The viewer's fight as the table sees it: hidden foes left out; for creatures outside the party
/// a state instead of HP, and no AC.
pub fn encounter(call: &Call<'_>, viewer: &Viewer, id: Option<&str>) -> Result<EncounterView> {
    let all = encounters_with(call, viewer)?;
    let e = match id {
        Some(id) => all.into_iter().find(|e| e.id == id).ok_or_else(|| {
            EngineError::Rule(format!(
                "your character is not in an active encounter '{id}'; leave encounterId out for your current fight"
            ))
        })?,
        None => all.into_iter().next().ok_or_else(|| {
            EngineError::Rule("your character is not in an active encounter".into())
        })?,
    };
    let party = party_ids(call, viewer)?;
    let mut v = view(call, &e, Verbosity::Standard)?;
    v.combatants.retain(|c| seen_in(&e, &c.id, &party));
    for c in &mut v.combatants {
        if !party.contains(&c.id) {
            c.hp_state = Some(hp_state(c.hp.unwrap_or(0), c.max_hp.unwrap_or(1)));
            c.hp = None;
            c.max_hp = None;
            c.temp_hp = None;
            c.hp_percent = None;
            c.ac = None;
            c.concentrating = None;
            c.death_saves = None;
            c.conditions.retain(|k| !k.starts_with("readied"));
        }
    }
    // Whose turn, when that creature is hidden from the viewer: not named.
    if let Some(t) = &v.turn_id
        && !seen_in(&e, t, &party)
    {
        v.turn = Some("someone unseen".into());
        v.turn_id = None;
    }
    Ok(v)
}

/// Whether it is the viewer's turn in its current fight (`None`: not in a fight).
pub fn is_own_turn(call: &Call<'_>, viewer: &Viewer) -> Result<Option<bool>> {
    Ok(encounters_with(call, viewer)?
        .first()
        .filter(|e| e.status == EncounterStatus::Active)
        .map(|e| e.current().map(|c| c.character_id.as_str()) == Some(&viewer.character_id)))
}

/// Where the viewer's party stands and what it knows of the place.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PlaceSeen {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// What the party sees.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The ways out the party knows: "door to Hall (loc2)".
    pub exits: Vec<String>,
}

/// The game as a player sees it.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TableContext {
    /// The viewer's character.
    pub you: Glimpse,
    /// The viewer's party.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub party: Option<PartyView>,
    /// Where the party is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub place: Option<PlaceSeen>,
    /// The viewer's fight.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub encounter: Option<EncounterView>,
    /// The latest notes shared with the players.
    pub notes: Vec<Note>,
}

/// The session context for a player.
pub fn context(call: &mut Call<'_>, viewer: &Viewer) -> Result<TableContext> {
    let me = own(call, viewer)?;
    let party = party_of(call, viewer)?;
    let campaign = call.campaign();
    let place = match party.as_ref().and_then(|p| p.location_id.clone()) {
        Some(lid) => match call.tx_ref().location(campaign, &lid)? {
            Some(l) => {
                let mut exits = Vec::new();
                for c in call.tx_ref().connections_of(campaign, &l.id)? {
                    if c.concealed() {
                        continue;
                    }
                    let Some(to) = c.exit_from(&l.id) else {
                        continue;
                    };
                    let name = call
                        .tx_ref()
                        .location(campaign, to)?
                        .filter(|x| x.discovered)
                        .map_or("somewhere unexplored".to_string(), |x| {
                            format!("{} ({})", x.name, x.id)
                        });
                    exits.push(format!("{} to {name}", c.kind.key()));
                }
                Some(PlaceSeen {
                    id: l.id,
                    name: l.name,
                    description: l.description,
                    exits,
                })
            }
            None => None,
        },
        None => None,
    };
    let party = match party {
        Some(p) => Some(party_view(call, &p)?),
        None => None,
    };
    let encounter = if encounters_with(call, viewer)?.is_empty() {
        None
    } else {
        Some(encounter(call, viewer, None)?)
    };
    let notes = notes::list_notes(call, &player_filter(NoteFilter::default()), 1, 10)?.notes;
    Ok(TableContext {
        you: glimpse(&me, true),
        party,
        place,
        encounter,
        notes,
    })
}

fn player_filter(mut f: NoteFilter) -> NoteFilter {
    f.visibility = Some(Visibility::Player);
    f
}

/// Notes a player may read: `filter` narrowed to visibility `player`.
pub fn search_notes(
    call: &mut Call<'_>,
    query: Option<&str>,
    filter: NoteFilter,
    limit: usize,
) -> Result<NoteSearch> {
    notes::search_notes(call, query, &player_filter(filter), limit)
}

/// A page of the notes a player may read.
pub fn list_notes(
    call: &mut Call<'_>,
    filter: NoteFilter,
    page: usize,
    per_page: usize,
) -> Result<notes::NotePage> {
    notes::list_notes(call, &player_filter(filter), page, per_page)
}

/// One note, if a player may read it (a DM note is "not found").
pub fn read_note(call: &mut Call<'_>, id: &str) -> Result<Note> {
    match notes::get_note(call, id) {
        Ok(n) if n.visibility == Visibility::Player => Ok(n),
        _ => Err(EngineError::NotFound {
            kind: "note",
            given: id.to_string(),
            suggestions: Vec::new(),
        }),
    }
}

/// A note written by a player: always visible to the players.
pub fn add_note(call: &mut Call<'_>, mut draft: NoteDraft) -> Result<Note> {
    draft.visibility = Some(Visibility::Player);
    notes::add_note(call, draft)
}

/// An action's outcome line as the table hears it: the exact HP a creature goes through
/// ("(7 → 0 HP)") and the AC it was hit against are numbers the players do not learn from the
/// narration; the rest (rolls, damage dealt, saves) is said aloud at the table.
pub fn as_heard(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while !rest.is_empty() {
        if let Some(len) = hp_change_len(rest) {
            // Drop the space before the parenthesis too.
            if out.ends_with(' ') {
                out.pop();
            }
            rest = &rest[len..];
            continue;
        }
        if let Some(after) = rest.strip_prefix("AC ") {
            let digits = after.chars().take_while(|c| c.is_ascii_digit()).count();
            if digits > 0 {
                out.push_str("AC");
                rest = &after[digits..];
                continue;
            }
        }
        let ch = rest.chars().next().unwrap_or(' ');
        out.push(ch);
        rest = &rest[ch.len_utf8()..];
    }
    out
}

/// The length of a leading "(N → M HP)", if `s` starts with one.
fn hp_change_len(s: &str) -> Option<usize> {
    let inner = s.strip_prefix('(')?;
    let end = inner.find(')')?;
    let body = &inner[..end];
    let (a, b) = body.split_once(" → ")?;
    let b = b.strip_suffix(" HP")?;
    (a.chars().all(|c| c.is_ascii_digit()) && b.chars().all(|c| c.is_ascii_digit()))
        .then_some(end + 2)
}

#[cfg(test)]
mod tests {
    use super::{as_heard, hp_state};

    #[test]
    fn hp_reads_as_a_state() {
        assert_eq!(hp_state(7, 7), "unhurt");
        assert_eq!(hp_state(4, 7), "hurt");
        assert_eq!(hp_state(3, 7), "bloodied");
        assert_eq!(hp_state(1, 2), "bloodied");
        assert_eq!(hp_state(0, 7), "down");
    }

    #[test]
    fn the_table_hears_no_hp_or_ac_numbers() {
        assert_eq!(
            as_heard("Hit! Goblin 1 takes 9 slashing (7 → 0 HP) and dies. 17 vs AC 15."),
            "Hit! Goblin 1 takes 9 slashing and dies. 17 vs AC."
        );
        assert_eq!(as_heard("Miss (AC 13)."), "Miss (AC).");
        assert_eq!(as_heard("(a → b HP) stays"), "(a → b HP) stays");
    }
}
