//! Campaign administration: list, export, import, delete.

use serde::{Deserialize, Serialize};

use crate::character::{Character, CharacterFilter};
use crate::error::{EngineError, Result};
use crate::event::Event;
use crate::store::{CampaignInfo, Tx};

/// Format version of [`CampaignExport`].
pub const EXPORT_FORMAT: u32 = 1;

/// A whole campaign as one JSON document.
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
}

/// Every campaign in the store.
pub fn list(tx: &dyn Tx) -> Result<Vec<CampaignInfo>> {
    Ok(tx.list_campaigns()?)
}

/// Exports the campaign `name`.
pub fn export(tx: &dyn Tx, name: &str) -> Result<CampaignExport> {
    let id = tx.find_campaign(name)?.ok_or_else(|| not_found(tx, name))?;
    let (characters, _) =
        tx.list_characters(id, &CharacterFilter::default(), usize::MAX >> 1, 0)?;
    Ok(CampaignExport {
        format: EXPORT_FORMAT,
        name: name.to_string(),
        rng_state: tx.rng_state(id)?,
        characters,
        events: tx.all_events(id)?,
    })
}

/// Imports an export as the campaign `name` (the export's own name when `None`). Refuses to
/// overwrite an existing campaign.
pub fn import(tx: &mut dyn Tx, data: &CampaignExport, name: Option<&str>) -> Result<String> {
    if data.format != EXPORT_FORMAT {
        return Err(EngineError::invalid(
            "format",
            format!(
                "export format {} is not supported; this version reads format {EXPORT_FORMAT}",
                data.format
            ),
        ));
    }
    let name = name.unwrap_or(&data.name).to_string();
    if tx.find_campaign(&name)?.is_some() {
        return Err(EngineError::Rule(format!(
            "campaign '{name}' already exists; delete it first or import under another name (--name)"
        )));
    }
    let id = tx.ensure_campaign(&name)?;
    if let Some(rng) = &data.rng_state {
        tx.set_rng_state(id, rng)?;
    }
    let mut max_seq: u64 = 0;
    for c in &data.characters {
        if let Some(n) = c.id.strip_prefix("ch").and_then(|n| n.parse::<u64>().ok()) {
            max_seq = max_seq.max(n);
        }
        tx.put_character(id, c)?;
    }
    for _ in 0..max_seq {
        tx.next_id(id, "ch")?;
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
    EngineError::NotFound {
        kind: "campaign",
        given: name.to_string(),
        suggestions: tabletop_rules::vocab::closest(name, names.iter().map(String::as_str))
            .map(|s| vec![s.to_string()])
            .unwrap_or(names),
    }
}
