//! Spatial tools without a fight: which map a spatial tool works on.
//!
//! With `encounterId` the tools use that encounter's map, running or ended. Without one they use
//! the one active encounter; when no encounter is active (or the call gives a `scratch` map) they
//! work on a scratch map: plain squares (20×20 unless the call says) with the terrain given in the
//! call. A read-only question (distance, area, sight, cover, movement, rendering) is answered on a
//! transient scratch map that is not stored. A change (terrain, props) on a scratch map is kept as
//! a stored, ended map-only encounter, whose id the answer names so later calls can use it.

use crate::combat::create::{TerrainSpec, build_map};
use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::encounter::{Encounter, EncounterStatus};

/// The id a transient scratch map answers with.
pub const SCRATCH_ID: &str = "scratch";

/// A map-only encounter on `spec`'s map, with no combatants.
fn blank(id: String, spec: &TerrainSpec) -> Result<Encounter> {
    Ok(Encounter {
        id,
        name: "Scratch map".into(),
        status: EncounterStatus::Ended,
        round: 0,
        turn: 0,
        order: Vec::new(),
        map: build_map(spec)?,
        timed_terrain: Vec::new(),
        auto_end: false,
        snapshots: Default::default(),
        log: Vec::new(),
        outcome: Some("scratch map".into()),
        difficulty: None,
        auras: Vec::new(),
        grappled: Default::default(),
        bodies: Vec::new(),
        summoned: Vec::new(),
        banished: Vec::new(),
        globes: Vec::new(),
        pending_reaction: None,
        spent: Vec::new(),
    })
}

fn wants_scratch(call: &Call<'_>, id: Option<&str>, scratch: Option<&TerrainSpec>) -> Result<bool> {
    let id = id.map(str::trim).filter(|s| !s.is_empty());
    if scratch.is_some() {
        if let Some(id) = id {
            return Err(EngineError::invalid(
                "scratchMap",
                format!(
                    "give either encounterId ({id}) or a scratchMap, not both: a scratch map is for questions outside an encounter"
                ),
            ));
        }
        return Ok(true);
    }
    if id.is_some() {
        return Ok(false);
    }
    Ok(call
        .tx_ref()
        .list_encounters(call.campaign(), true)?
        .is_empty())
}

/// The map a read-only spatial tool asks about: the encounter `id` (running or ended), else the
/// active one, else a transient scratch map (`scratch`, or 20×20 plain squares).
pub fn map_to_read(
    call: &Call<'_>,
    id: Option<&str>,
    scratch: Option<&TerrainSpec>,
) -> Result<Encounter> {
    if wants_scratch(call, id, scratch)? {
        return blank(
            SCRATCH_ID.into(),
            scratch.unwrap_or(&TerrainSpec::default()),
        );
    }
    crate::combat::load(call, id)
}

/// The map a terrain or prop change goes on: the encounter `id` (running or ended), else the
/// active one, else a new stored scratch map (returned with the line that names it).
pub fn map_to_change(
    call: &mut Call<'_>,
    id: Option<&str>,
    scratch: Option<&TerrainSpec>,
) -> Result<(Encounter, Option<String>)> {
    if wants_scratch(call, id, scratch)? {
        let id = call.new_id("enc")?;
        let e = blank(id.clone(), scratch.unwrap_or(&TerrainSpec::default()))?;
        let note = format!(
            "No encounter is active: the change is on scratch map {id} ({}×{} squares), kept as an ended map-only encounter; pass encounterId: {id} to keep working on it.",
            e.map.width(),
            e.map.height()
        );
        return Ok((e, Some(note)));
    }
    Ok((crate::combat::load(call, id)?, None))
}
