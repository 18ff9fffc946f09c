//! Magic shared by every tool that casts: the spellcasting model ([`spellcasting`]) over one
//! casting's data ([`plan`]), the catalog's grants by family ([`mechanics`]: pools, AC formulas,
//! revival, riders, persistent spells; [`grants`]: choices, cures, HP thresholds) over the shared
//! per-target loop ([`targets`]), spell scrolls ([`scroll`]) and improvised spells
//! ([`synthesis`]).

pub mod blessing;
pub mod class_magic;
pub mod combat6;
pub mod divination;
pub mod dust;
pub mod evasion;
pub mod feature_spells;
pub mod grants;
pub mod impose;
pub mod item_cast;
pub mod item_spells;
pub mod known;
pub mod life6;
pub mod life6_copy;
pub mod life6_items;
pub mod lore6;
pub mod lore6_bonds;
pub mod lore6_kit;
pub mod lore6_paths;
pub mod lore6_ways;
pub mod mechanics;
pub mod numbers;
pub mod plan;
pub mod scroll;
pub mod spell_lookup;
pub mod spellcasting;
pub mod synthesis;
pub mod targets;
pub mod wards;
pub mod wards6;
