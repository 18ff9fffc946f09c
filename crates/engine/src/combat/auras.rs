//! Auras centred on combatants (Spirit Guardians, a paladin's Aura of Protection), applied when a
//! creature starts its turn in them.
//!
//! This is the hook `advance_turn` calls; auras themselves arrive with `manage_aura`, which fills
//! this module in. Until then no creature has an aura and the hook reports nothing.

use super::model::Encounter;
use crate::engine::Call;
use crate::error::Result;

/// Applies every aura that affects `character_id` at the start of its turn (saves, damage,
/// healing), changing the sheets involved, and says what happened, one line each.
pub fn at_turn_start(
    _call: &mut Call<'_>,
    _encounter: &mut Encounter,
    _character_id: &str,
) -> Result<Vec<String>> {
    Ok(Vec::new())
}
