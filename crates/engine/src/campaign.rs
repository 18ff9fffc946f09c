//! Campaign administration: list, export, import, delete.

mod check;

use serde::{Deserialize, Serialize};

pub use check::{MAX_ID_NUMBER, valid_name};

use crate::error::{EngineError, Result};
use crate::model::character::{Character, CharacterFilter};
use crate::model::encounter::Encounter;
use crate::model::event::Event;
use crate::model::memory::{MemoryKind, MemoryRecord, Npc, Quest, Secret, WorldClock};
use crate::model::notes::{Note, NoteFilter, NoteOrder};
use crate::model::party::Party;
use crate::model::travel::TravelEntry;
use crate::model::world::{Connection, Location};
use crate::store::{CampaignInfo, Tx};

/// Format version of [`CampaignExport`].
pub const EXPORT_FORMAT: u32 = 1;

/// A whole campaign as one JSON document.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CampaignExport {
    /// Format version (currently 1).
    pub format: u32,
    /// The campaign's name.
    pub name: String,
    /// The dice stream's state.
    pub rng_state: Option<String>,
    /// Every character.
    pub characters: Vec<Character>,
    /// The event log, in order.
    pub events: Vec<Event>,
    /// Every place.
    #[serde(default)]
    pub locations: Vec<Location>,
    /// Every way between places.
    #[serde(default)]
    pub connections: Vec<Connection>,
    /// Every party with its members.
    #[serde(default)]
    pub parties: Vec<Party>,
    /// Every party's travel log, oldest first.
    #[serde(default)]
    pub travel: Vec<PartyTravel>,
    /// Every note, oldest first.
    #[serde(default)]
    pub notes: Vec<Note>,
    /// Every encounter, active or ended, oldest first.
    #[serde(default)]
    pub encounters: Vec<Encounter>,
    /// Every quest, oldest first.
    #[serde(default)]
    pub quests: Vec<Quest>,
    /// Every NPC with what it remembers, oldest first.
    #[serde(default)]
    pub npcs: Vec<Npc>,
    /// Every secret, revealed or not, oldest first.
    #[serde(default)]
    pub secrets: Vec<Secret>,
    /// The world clock, if the campaign ever set one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<WorldClock>,
}

/// One entry of a party's travel log, in an export.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PartyTravel {
    /// The party.
    pub party_id: String,
    /// The entry.
    pub entry: TravelEntry,
}

const ALL: usize = usize::MAX >> 1;

/// Every campaign in the store.
pub fn list(tx: &dyn Tx) -> Result<Vec<CampaignInfo>> {
    Ok(tx.list_campaigns()?)
}

/// Exports the campaign `name`.
pub fn export(tx: &dyn Tx, name: &str) -> Result<CampaignExport> {
    let id = tx.find_campaign(name)?.ok_or_else(|| not_found(tx, name))?;
    let (characters, _) =
        tx.list_characters(id, &CharacterFilter::default(), usize::MAX >> 1, 0)?;
    let (locations, _) = tx.list_locations(id, ALL, 0)?;
    let mut connections: Vec<Connection> = Vec::new();
    for l in &locations {
        for c in tx.connections_of(id, &l.id)? {
            if !connections.iter().any(|x| x.id == c.id) {
                connections.push(c);
            }
        }
    }
    let parties = tx.list_parties(id)?;
    let mut travel = Vec::new();
    for p in &parties {
        let mut log = tx.travel_history(id, &p.id, ALL)?;
        log.reverse();
        travel.extend(log.into_iter().map(|entry| PartyTravel {
            party_id: p.id.clone(),
            entry,
        }));
    }
    let (mut notes, _) = tx.list_notes(id, &NoteFilter::default(), NoteOrder::Recent, ALL, 0)?;
    notes.reverse();
    let mut encounters = tx.list_encounters(id, false)?;
    encounters.reverse();
    let mut quests = Vec::new();
    let mut npcs = Vec::new();
    let mut secrets = Vec::new();
    for kind in [MemoryKind::Quest, MemoryKind::Npc, MemoryKind::Secret] {
        for r in tx.memories(id, kind, None)? {
            match r {
                MemoryRecord::Quest(q) => quests.push(q),
                MemoryRecord::Npc(n) => npcs.push(n),
                MemoryRecord::Secret(s) => secrets.push(s),
            }
        }
    }
    Ok(CampaignExport {
        format: EXPORT_FORMAT,
        name: name.to_string(),
        rng_state: tx.rng_state(id)?,
        characters,
        events: tx.all_events(id)?,
        locations,
        connections,
        parties,
        travel,
        notes,
        encounters,
        quests,
        npcs,
        secrets,
        clock: tx.clock(id)?,
    })
}

/// Imports an export as the campaign `given` (the export's own name when `None`). Refuses to
/// overwrite an existing campaign, and refuses a file that is not valid input (see the checks in
/// `check`): a name outside 1–64 characters, an undecodable dice-stream state, a malformed or
/// out-of-range id, an id twice, a reference to something not imported. On error the caller's
/// transaction is dropped, so nothing is written.
pub fn import(tx: &mut dyn Tx, data: &CampaignExport, given: Option<&str>) -> Result<String> {
    if data.format != EXPORT_FORMAT {
        return Err(EngineError::invalid(
            "format",
            format!(
                "export format {} is not supported; this version reads format {EXPORT_FORMAT}",
                data.format
            ),
        ));
    }
    // Everything is checked before anything is written; the caller's transaction makes the
    // writes all or nothing.
    let name = valid_name(
        if given.is_some() {
            "name"
        } else {
            "name (in the file)"
        },
        given.unwrap_or(&data.name),
    )?;
    let highest = check::check(data)?;
    if tx.find_campaign(&name)?.is_some() {
        return Err(EngineError::Rule(format!(
            "campaign '{name}' already exists; delete it first or import under another name (--name)"
        )));
    }
    let id = tx.ensure_campaign(&name)?;
    if let Some(rng) = &data.rng_state {
        tx.set_rng_state(id, rng)?;
    }
    for c in &data.characters {
        tx.put_character(id, c)?;
    }
    for l in &data.locations {
        tx.put_location(id, l)?;
    }
    for c in &data.connections {
        tx.put_connection(id, c)?;
    }
    for p in &data.parties {
        tx.put_party(id, p)?;
    }
    for t in &data.travel {
        tx.append_travel(id, &t.party_id, &t.entry)?;
    }
    for n in &data.notes {
        tx.put_note(id, n)?;
    }
    for e in &data.encounters {
        tx.put_encounter(id, e)?;
    }
    let memory = (data.quests.iter().cloned().map(MemoryRecord::Quest))
        .chain(data.npcs.iter().cloned().map(MemoryRecord::Npc))
        .chain(data.secrets.iter().cloned().map(MemoryRecord::Secret));
    for r in memory {
        tx.put_memory(id, &r)?;
    }
    if let Some(clock) = &data.clock {
        tx.set_clock(id, clock)?;
    }
    // New ids must not collide with imported ones: each counter moves past its highest imported
    // number in one step (ids are bounded, so this is constant time whatever the numbers).
    for (prefix, past) in highest {
        tx.advance_id(id, prefix, past)?;
    }
    for e in &data.events {
        tx.import_event(id, e)?;
    }
    Ok(name)
}

/// Deletes the campaign `name` and everything in it.
pub fn delete(tx: &mut dyn Tx, name: &str) -> Result<()> {
    if tx.delete_campaign(name)? {
        Ok(())
    } else {
        Err(not_found(tx, name))
    }
}

fn not_found(tx: &dyn Tx, name: &str) -> EngineError {
    let names: Vec<String> = tx
        .list_campaigns()
        .map(|l| l.into_iter().map(|c| c.name).collect())
        .unwrap_or_default();
    EngineError::NotFoundAmong {
        kind: "campaign",
        given: name.to_string(),
        suggestions: tabletop_rules::vocab::closest(name, names.iter().map(String::as_str))
            .map(|s| vec![s.to_string()])
            .unwrap_or_default(),
        existing: names,
    }
}
