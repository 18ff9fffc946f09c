//! Every integration test of the server crate, in one test binary: each file of this folder
//! is one module (`cargo test -p tabletop-server --test suite magic::` runs one file's tests).
//! One binary links once, where one per file linked the whole engine each time.

// Support shared by the test modules (each used to compile its own copy).
mod common;

#[path = "crash_loop.rs"]
mod crash_loop;
#[path = "e2e_aliases.rs"]
mod e2e_aliases;
#[path = "e2e_bounded.rs"]
mod e2e_bounded;
#[path = "e2e_breath.rs"]
mod e2e_breath;
#[path = "e2e_campaign_files.rs"]
mod e2e_campaign_files;
#[path = "e2e_character_choices.rs"]
mod e2e_character_choices;
#[path = "e2e_combat.rs"]
mod e2e_combat;
#[path = "e2e_compendium.rs"]
mod e2e_compendium;
#[path = "e2e_concentration_lapses.rs"]
mod e2e_concentration_lapses;
#[path = "e2e_conformance.rs"]
mod e2e_conformance;
#[path = "e2e_discovery.rs"]
mod e2e_discovery;
#[path = "e2e_fidelity.rs"]
mod e2e_fidelity;
#[path = "e2e_full_fight.rs"]
mod e2e_full_fight;
#[path = "e2e_http.rs"]
mod e2e_http;
#[path = "e2e_inventory.rs"]
mod e2e_inventory;
#[path = "e2e_magic.rs"]
mod e2e_magic;
#[path = "e2e_memory.rs"]
mod e2e_memory;
#[path = "e2e_metamagic.rs"]
mod e2e_metamagic;
#[path = "e2e_monster_riders.rs"]
mod e2e_monster_riders;
#[path = "e2e_monster_traits.rs"]
mod e2e_monster_traits;
#[path = "e2e_output.rs"]
mod e2e_output;
#[path = "e2e_playtest.rs"]
mod e2e_playtest;
#[path = "e2e_playtest_classes.rs"]
mod e2e_playtest_classes;
#[path = "e2e_playtest_combat.rs"]
mod e2e_playtest_combat;
#[path = "e2e_playtest_fear.rs"]
mod e2e_playtest_fear;
#[path = "e2e_playtest_forms.rs"]
mod e2e_playtest_forms;
#[path = "e2e_playtest_martial.rs"]
mod e2e_playtest_martial;
#[path = "e2e_playtest_monsters.rs"]
mod e2e_playtest_monsters;
#[path = "e2e_playtest_rules.rs"]
mod e2e_playtest_rules;
#[path = "e2e_playtest_senses.rs"]
mod e2e_playtest_senses;
#[path = "e2e_playtest_silver.rs"]
mod e2e_playtest_silver;
#[path = "e2e_playtest_spells.rs"]
mod e2e_playtest_spells;
#[path = "e2e_playtest_table.rs"]
mod e2e_playtest_table;
#[path = "e2e_postgres.rs"]
mod e2e_postgres;
#[path = "e2e_protocol.rs"]
mod e2e_protocol;
#[path = "e2e_self_range.rs"]
mod e2e_self_range;
#[path = "e2e_spatial.rs"]
mod e2e_spatial;
#[path = "e2e_spell_choices.rs"]
mod e2e_spell_choices;
#[path = "e2e_spell_fidelity.rs"]
mod e2e_spell_fidelity;
#[path = "e2e_spell_numbers.rs"]
mod e2e_spell_numbers;
#[path = "e2e_srd.rs"]
mod e2e_srd;
#[path = "e2e_surface.rs"]
mod e2e_surface;
#[path = "e2e_table.rs"]
mod e2e_table;
#[path = "e2e_tactics.rs"]
mod e2e_tactics;
#[path = "e2e_tools.rs"]
mod e2e_tools;
#[path = "e2e_traits.rs"]
mod e2e_traits;
#[path = "e2e_turns.rs"]
mod e2e_turns;
#[path = "e2e_world.rs"]
mod e2e_world;
#[path = "fuzz_tools.rs"]
mod fuzz_tools;
