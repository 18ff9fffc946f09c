//! The inventory tool family: `manage_inventory` and friends ([`ops`]) and turning SRD equipment
//! and magic items into items ([`catalog`]). The item data itself is [`crate::model::inventory`],
//! re-exported here so `inventory::Item` and the like keep their paths.

pub mod attune;
pub mod catalog;
pub mod containers;
pub mod equip;
pub mod in_fight;
pub mod item_def;
pub mod locate;
pub mod ops;
pub mod potion;
pub mod recharge;
pub mod regen;
pub mod silvered;
pub mod summon;
pub mod weapons;

pub use crate::model::inventory::*;
