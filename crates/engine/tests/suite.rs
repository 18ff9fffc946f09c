//! Every integration test of the engine crate, in one test binary: each file of this folder
//! is one module (`cargo test -p tabletop-engine --test suite magic::` runs one file's tests).
//! One binary links once, where one per file linked the whole engine each time.

// Support shared by the test modules (each used to compile its own copy).
mod combat_support;
mod common;
mod fidelity;
#[path = "../../../test-support/pg_env.rs"]
mod pg_env;
mod spell_support;
mod zone_support;

#[path = "asi.rs"]
mod asi;
#[path = "catalog_coverage.rs"]
mod catalog_coverage;
#[path = "catalog_items.rs"]
mod catalog_items;
#[path = "catalog_items_all.rs"]
mod catalog_items_all;
#[path = "catalog_monster_abilities.rs"]
mod catalog_monster_abilities;
#[path = "catalog_monsters.rs"]
mod catalog_monsters;
#[path = "catalog_spells.rs"]
mod catalog_spells;
#[path = "catalog_spells_all.rs"]
mod catalog_spells_all;
#[path = "characters.rs"]
mod characters;
#[path = "combat_attacks.rs"]
mod combat_attacks;
#[path = "combat_dying.rs"]
mod combat_dying;
#[path = "combat_economy.rs"]
mod combat_economy;
#[path = "combat_movement.rs"]
mod combat_movement;
#[path = "combat_reactions.rs"]
mod combat_reactions;
#[path = "combat_tactics.rs"]
mod combat_tactics;
#[path = "combat_turns.rs"]
mod combat_turns;
#[path = "combat_vision.rs"]
mod combat_vision;
#[path = "compendium.rs"]
mod compendium;
#[path = "derived.rs"]
mod derived;
#[path = "effective_pins.rs"]
mod effective_pins;
#[path = "features.rs"]
mod features;
#[path = "features_casters.rs"]
mod features_casters;
#[path = "features_martial.rs"]
mod features_martial;
#[path = "features_more.rs"]
mod features_more;
#[path = "features_pact.rs"]
mod features_pact;
#[path = "gear.rs"]
mod gear;
#[path = "inventory.rs"]
mod inventory;
#[path = "items_casting.rs"]
mod items_casting;
#[path = "lifecycle.rs"]
mod lifecycle;
#[path = "magic.rs"]
mod magic;
#[path = "multiclass_slots.rs"]
mod multiclass_slots;
#[path = "persistence.rs"]
mod persistence;
#[path = "potions.rs"]
mod potions;
#[path = "reliability.rs"]
mod reliability;
#[path = "resolution.rs"]
mod resolution;
#[path = "rests.rs"]
mod rests;
#[path = "save_traits.rs"]
mod save_traits;
#[path = "spatial.rs"]
mod spatial;
#[path = "spatial_metric.rs"]
mod spatial_metric;
#[path = "spatial_scratch.rs"]
mod spatial_scratch;
#[path = "spell_combat6.rs"]
mod spell_combat6;
#[path = "spell_life.rs"]
mod spell_life;
#[path = "spell_lore.rs"]
mod spell_lore;
#[path = "spell_movement.rs"]
mod spell_movement;
#[path = "spell_summons.rs"]
mod spell_summons;
#[path = "spell_terrain.rs"]
mod spell_terrain;
#[path = "spell_wards.rs"]
mod spell_wards;
#[path = "spell_zones.rs"]
mod spell_zones;
#[path = "spells_known.rs"]
mod spells_known;
#[path = "spells_wards6.rs"]
mod spells_wards6;
#[path = "srd_oracle.rs"]
mod srd_oracle;
#[path = "store_conformance.rs"]
mod store_conformance;
#[path = "store_postgres.rs"]
mod store_postgres;
#[path = "styles.rs"]
mod styles;
#[path = "world.rs"]
mod world;
