//! Shape-changing (`shape = {…}` in `catalog/spells.toml`, and Wild Shape's class table): which
//! SRD stat blocks a form may be taken from and what the creature keeps. Taking the form and
//! reverting is the `shape` use case; the form as worn is `model::shape`.

use serde::Deserialize;
use tabletop_rules::{Ability, Size};

/// How a form's challenge rating is capped.
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CrCap {
    /// The target's challenge rating, or its level when it has none (Polymorph, True
    /// Polymorph).
    Target,
    /// The caster's level (Shapechange).
    CasterLevel,
    /// A fixed rating (Animal Shapes: 1; 0.25 = CR 1/4).
    Fixed(f32),
}

/// What a shape-changing spell allows.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShapeSpec {
    /// The form must be of one of these creature types ("beast"); empty: any type.
    #[serde(default)]
    pub types: Vec<String>,
    /// The form can't be of these types ("construct", "undead").
    #[serde(default)]
    pub not_types: Vec<String>,
    /// The form's challenge rating cap.
    pub max_cr: CrCap,
    /// The form's largest size (Animal Shapes: Large).
    #[serde(default)]
    pub max_size: Option<Size>,
    /// The creature keeps its INT, WIS and CHA and its proficiencies (Animal Shapes,
    /// Shapechange); otherwise every statistic is the form's (Polymorph).
    #[serde(default)]
    pub keeps_mind: bool,
    /// The creature can't cast spells in the form.
    #[serde(default)]
    pub no_spells: bool,
    /// An unwilling target makes this save (Polymorph: WIS); the caster's allies are willing.
    #[serde(default)]
    pub save: Option<Ability>,
    /// Only the caster takes the form (Shapechange).
    #[serde(default)]
    pub self_only: bool,
    /// A target that is a shapechanger or at 0 HP is unaffected.
    #[serde(default)]
    pub no_shapechangers: bool,
}

impl ShapeSpec {
    /// Problems with the entry `index`.
    pub fn check(&self, index: &str) -> Vec<String> {
        let mut bad = Vec::new();
        if let CrCap::Fixed(c) = self.max_cr
            && !(0.0..=30.0).contains(&c)
        {
            bad.push(format!("{index}: max_cr {c} is out of 0–30"));
        }
        bad
    }
}

/// Wild Shape's limits at a druid level (the SRD class table): the highest challenge rating,
/// and whether forms with a swimming or flying speed are allowed; `None` before 2nd level.
pub fn wild_shape_limits(druid_level: u32) -> Option<(f32, bool, bool)> {
    match druid_level {
        0..=1 => None,
        2..=3 => Some((0.25, false, false)),
        4..=7 => Some((0.5, true, false)),
        _ => Some((1.0, true, true)),
    }
}
