//! Characters derived from their sources (DESIGN §4a).
//!
//! A character made by `create_character` keeps its [`Build`]: base scores and how they were
//! made, race and subrace, class levels (several: multiclass-ready), background, the choices
//! each source asks for, ability changes and explicit manual overrides. [`derive`] is the one
//! pure pipeline that turns a build, the grants its sources resolve to ([`Resolved`], from the
//! SRD data and the mechanics [`crate::catalog`]) into the [`Derived`] sheet values: ability
//! scores, max HP, AC formulas, speed, senses, proficiencies, saves, skills with expertise,
//! defences, resources with recharge, damage riders and the actions features offer. Every value
//! lists its sources. [`refresh`] runs it whenever a character is read or written, so a change
//! to a source (CON, a level, a choice) changes everything that follows from it; items,
//! conditions and effects are then layered on by the effective-stats pipeline
//! ([`crate::character::Character::effective`]).

pub mod asi;
pub mod build;
pub mod multiclass;
pub mod options;
mod pipeline;
mod refresh;
mod resolve;
mod spell_grants;

use crate::catalog::ActionCost;

/// The build and derived types live in the model (the sheet reads them); re-exported here.
pub use crate::model::build::*;
/// Gear rules over a derived sheet (armour and weapon proficiency, styles, save advantages) and
/// the armour-dependent sheet layer live in the model; re-exported here.
pub use crate::model::gear;
pub use crate::model::gear::sheet_layer;

pub use pipeline::derive;
pub(crate) use refresh::cap_hp;
pub use refresh::{absorb_edits, legacy_build, record_level_hp, refresh, refresh_with};
pub use resolve::{Resolved, ResolvedBackground, ResolvedClass, ResolvedRace, resolve};

/// The action cost of the feature action named `name` on `c`'s derived sheet, if it has one.
pub fn feature_cost(
    c: &crate::model::character::Character,
    name: Option<&str>,
) -> Option<ActionCost> {
    let key = crate::model::names::name_key(name?);
    c.derived
        .as_ref()?
        .actions
        .iter()
        .find(|a| crate::model::names::name_key(&a.name) == key)
        .map(|a| a.cost)
}
