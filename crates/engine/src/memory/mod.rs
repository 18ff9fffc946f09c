//! Campaign memory (DESIGN §12): quests ([`quests`]), NPCs who remember ([`npcs`]) and secrets
//! kept from players with a leak check ([`secrets`]). The world clock is [`crate::clock`].

pub mod npcs;
pub mod quests;
pub mod secrets;

use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::memory::{MemoryKind, MemoryRecord};

pub use crate::model::memory::{
    Attitude, Memory, Npc, Objective, Quest, QuestStatus, Relationship, Rewards, Secret,
};

/// A required text field, trimmed and bounded.
pub(crate) fn clean(field: &str, v: Option<&str>, max: usize) -> Result<String> {
    let t = v.unwrap_or("").trim();
    if t.is_empty() {
        return Err(EngineError::invalid(field, format!("{field} is required")));
    }
    if t.chars().count() > max {
        return Err(EngineError::invalid(
            field,
            format!("at most {max} characters"),
        ));
    }
    Ok(t.to_string())
}

pub(crate) fn load(call: &Call<'_>, kind: MemoryKind, id: &str) -> Result<Option<MemoryRecord>> {
    Ok(call.tx_ref().memory(call.campaign(), kind, id)?)
}

pub(crate) fn save(call: &mut Call<'_>, r: MemoryRecord) -> Result<()> {
    let campaign = call.campaign();
    call.tx().put_memory(campaign, &r)?;
    Ok(())
}
