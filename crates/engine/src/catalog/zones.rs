//! How a zone spell sits on the battlefield, as the spell catalog encodes it (`zone = {…}` in
//! `catalog/spells.toml`): placed on a point the caster picks (`to`) rather than around the
//! caster, the ground it changes while it lasts (difficult terrain, heavy obscurement, walls),
//! when it strikes a creature, whether what it imposes holds until the creature escapes, and how
//! its caster may move it. The SRD data still gives the area, save, damage and duration; a
//! `shape`/`size_ft` here supplies an area the data lacks (walls). Applying it is
//! `combat::zones`.

use serde::Deserialize;

pub use crate::model::aura::ZoneTrigger;

/// A wall the zone raises on its squares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WallKind {
    /// Blocks movement and sight (Wall of Stone, Wall of Ice): wall terrain.
    Opaque,
    /// Blocks movement, not sight (Wall of Force): an invisible prop giving total cover.
    Transparent,
    /// Blocks sight, creatures may cross it (Wall of Fire's opaque sheet, Wall of Thorns).
    Screen,
    /// Three-quarters cover for creatures behind it, passable (Blade Barrier).
    ThreeQuarters,
}

/// Which creatures a zone touches.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ZoneAffects {
    /// Every creature, its caster included.
    #[default]
    All,
    /// Creatures hostile to the caster (Guardian of Faith).
    Enemies,
}

/// One spell's zone.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ZoneSpec {
    /// The area's shape when the SRD data has none ("line", "cube", "sphere", "cylinder").
    #[serde(default)]
    pub shape: Option<String>,
    /// Its size in feet (line length, cube side, radius).
    #[serde(default)]
    pub size_ft: Option<u32>,
    /// When it strikes.
    #[serde(default)]
    pub trigger: ZoneTrigger,
    /// Creatures inside when it appears are struck at once (Wall of Fire, Web, Entangle).
    #[serde(default)]
    pub on_cast: bool,
    /// Its squares are difficult terrain while it lasts.
    #[serde(default)]
    pub difficult: bool,
    /// Its squares are heavily obscured while it lasts.
    #[serde(default)]
    pub obscured: bool,
    /// A wall on its squares.
    #[serde(default)]
    pub wall: Option<WallKind>,
    /// Only the edge of the area: a cage's bars around its inside (Forcecage).
    #[serde(default)]
    pub ring: bool,
    /// Walls and obstacles on its squares are open floor while it lasts (Passwall).
    #[serde(default)]
    pub opens: bool,
    /// The condition it imposes lasts until the creature leaves or the zone ends, not one
    /// round (restrained by Web, Entangle, Black Tentacles); a creature it holds takes the
    /// damage again at the start of its turns without a new save.
    #[serde(default)]
    pub holds: bool,
    /// Damage dice for every 5 ft a creature moves inside (Spike Growth 2d4).
    #[serde(default)]
    pub per_5ft: Option<String>,
    /// Its caster may move it this many feet by casting it again (no slot).
    #[serde(default)]
    pub moves_ft: Option<u32>,
    /// Whom it touches.
    #[serde(default)]
    pub affects: ZoneAffects,
    /// The light it sheds on its squares (Light, Daylight bright; Dancing Lights dim): a square
    /// darker than this becomes this while it lasts.
    #[serde(default)]
    pub light: Option<tabletop_grid::Light>,
    /// Dim light for this many feet beyond the area (Light: bright 20 ft, dim 20 ft more).
    #[serde(default)]
    pub dim_ft: Option<u32>,
    /// A creature entering it alerts the caster (Alarm).
    #[serde(default)]
    pub alarm: bool,
    /// It strikes once, then ends (Glyph of Warding).
    #[serde(default)]
    pub once: bool,
    /// When it strikes, every creature within this many feet of its origin is struck
    /// (Glyph of Warding's 20-ft explosion).
    #[serde(default)]
    pub burst_ft: Option<u32>,
    /// The caster chooses the damage type among these when casting (`damageType`).
    #[serde(default)]
    pub damage_choice: Vec<tabletop_rules::DamageType>,
    /// An illusion: its wall (a screen) blocks sight until a creature's Intelligence
    /// (Investigation) check with the Search action meets the caster's spell save DC; then the
    /// image no longer blocks sight (Minor Illusion, Silent Image, Major Image).
    #[serde(default)]
    pub illusion: bool,
    /// Lasts this many rounds when the spell's own duration does not say (Ice Storm's ground:
    /// until the end of the caster's next turn = 1).
    #[serde(default)]
    pub rounds: Option<u32>,
}

impl ZoneSpec {
    /// The problems of one spell's zone table: an area shape the grid knows with its size,
    /// dice that parse, a move of at least 5 ft.
    pub fn check(&self, index: &str) -> Vec<String> {
        let mut bad = Vec::new();
        match (&self.shape, self.size_ft) {
            (Some(s), Some(n)) => {
                if !["sphere", "cylinder", "cube", "cone", "line"].contains(&s.as_str()) {
                    bad.push(format!("{index}: zone shape '{s}' is not an area shape"));
                }
                if n < 5 {
                    bad.push(format!("{index}: zone size_ft {n} is under 5 ft"));
                }
            }
            (None, None) => {}
            _ => bad.push(format!("{index}: zone shape and size_ft go together")),
        }
        if let Some(d) = &self.per_5ft
            && tabletop_rules::dice::parse(d).is_err()
        {
            bad.push(format!("{index}: zone per_5ft '{d}' is not dice"));
        }
        if self.dim_ft.is_some() && self.light.is_none() {
            bad.push(format!("{index}: zone dim_ft without light"));
        }
        if self.illusion && self.wall != Some(WallKind::Screen) {
            bad.push(format!("{index}: an illusion is a screen wall"));
        }
        if self.moves_ft.is_some_and(|m| m < 5) {
            bad.push(format!("{index}: zone moves_ft under 5 ft"));
        }
        bad
    }
}
