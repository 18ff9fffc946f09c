//! Converters: the few argument-shape rewrites renaming cannot express, as small named Rust
//! functions. The alias data (`aliases.toml`) names them in `convert`; [`CONVERTERS`] is the
//! registry those names resolve through (an unknown name fails the alias tests).

use serde_json::{Map, Value};

use crate::reply::ToolError;
use crate::tools::spatial;

mod combat;
mod gear;
mod memory;
mod world;

/// Rewrites arguments whose shape differs from the advertised tool's.
pub type Converter = fn(&mut Map<String, Value>) -> Result<(), ToolError>;

/// Every converter, by the name the alias data uses.
pub static CONVERTERS: &[(&str, Converter)] = &[
    // Characters, places, parties, travel, notes, session.
    ("damage_amount", world::damage_amount),
    ("healing_amount", world::healing_amount),
    ("name_is_character", world::name_is_character),
    ("list_npcs", world::list_npcs),
    ("drop_world", world::drop_world),
    ("room_create", world::room_create),
    ("party_create", world::party_create),
    ("party_member", world::party_member),
    ("party_manage", world::party_manage),
    ("character_move", world::character_move),
    ("narrative_note", world::narrative_note),
    ("narrative_search", world::narrative_search),
    ("narrative_manage", world::narrative_manage),
    ("world_state", world::world_state),
    ("story_progress", world::story_progress),
    ("session_manage", world::session_manage),
    // Combat.
    ("combat_action", combat::combat_action),
    ("consume_action", combat::consume_action),
    ("legacy_action", combat::legacy_action),
    ("legacy_action_batch", combat::legacy_action_batch),
    ("legacy_encounter", combat::legacy_encounter),
    ("legacy_add", combat::legacy_add),
    ("legacy_batch_add", combat::legacy_batch_add),
    ("drop_switch_key", combat::drop_switch_key),
    // Spatial and the battle map (the shapes live beside the spatial tools).
    ("spatial_adjacent", spatial::legacy_adjacent),
    ("spatial_aoe", spatial::legacy_aoe),
    ("spatial_endpoints", spatial::legacy_endpoints),
    ("spatial_prop", spatial::legacy_prop),
    ("spatial_render", spatial::legacy_render),
    ("spatial_terrain", spatial::legacy_terrain),
    // Magic, effects, rests, inventory, compendium.
    ("one_spell", gear::one_spell),
    ("scroll_use", gear::scroll_use),
    ("scroll_check", gear::scroll_check),
    ("scroll_action", gear::scroll_action),
    ("scroll_item", gear::scroll_item),
    ("aura_action", gear::aura_action),
    ("action_is_operation", gear::action_is_operation),
    ("action_is_rest_type", gear::action_is_rest_type),
    ("improvisation_effect", gear::improvisation_effect),
    ("party_rest", gear::party_rest),
    ("legacy_give", gear::legacy_give),
    ("legacy_ref", gear::legacy_ref),
    ("inventory_action", gear::inventory_action),
    ("distribute", gear::distribute),
    ("category_words", gear::category_words),
    ("inline_filters", gear::inline_filters),
    ("exact_cr", gear::exact_cr),
    ("drop_action", gear::drop_action),
    // Campaign memory: quests, secrets, NPC memory.
    ("legacy_quest", memory::legacy_quest),
    ("legacy_secret", memory::legacy_secret),
    ("legacy_npc", memory::legacy_npc),
];

/// The converter registered as `name`.
pub fn find(name: &str) -> Option<Converter> {
    CONVERTERS.iter().find(|(n, _)| *n == name).map(|(_, c)| *c)
}

/// Rename pairs the converters apply themselves, by the [renames] set of the data they mirror
/// (a test checks each equals that set).
#[cfg(test)]
pub(super) static MIRRORED_SETS: &[(&str, &[(&str, &str)])] = &[
    ("character_id", world::CHARACTER_ID),
    ("combat_action", combat::COMBAT_ACTION),
];
