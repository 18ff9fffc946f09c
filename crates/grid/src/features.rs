//! What a square of the battle map can hold: terrain, doors, light, cover levels, props (with
//! their footprints) and creatures. Plain data with their own validation; the map that places
//! them and keeps the per-square index is [`crate::map::BattleMap`].

use std::str::FromStr;

use serde::{Deserialize, Serialize};
use tabletop_rules::Size;

use crate::error::{GridError, Result};
use crate::geometry::{Position, footprint, size_squares};

/// What covers one square of the map.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Terrain {
    /// Open floor.
    #[default]
    Open,
    /// Solid wall: blocks movement, sight and areas of effect; gives total cover.
    Wall,
    /// Full-height obstacle (pillar, boulder): blocks movement, sight and areas of effect.
    Obstacle,
    /// Half-height obstacle (low wall, barricade): gives half cover, does not block sight,
    /// blocks movement unless `passable` (then it can be climbed over as difficult terrain).
    #[serde(
        alias = "low_wall",
        alias = "halfHeightObstacle",
        alias = "half_height_obstacle"
    )]
    LowWall {
        /// Whether creatures may cross it (as difficult terrain). Default: no.
        #[serde(default)]
        passable: bool,
    },
    /// Difficult terrain: entering costs double movement.
    Difficult,
    /// Water: entering costs double movement for a creature without a swim speed.
    Water,
    /// A hazard (fire, acid, spikes): passable at normal cost; `damage` is a free-text note for
    /// the game master (e.g. "2d10 fire on entering").
    Hazard {
        /// Name shown in the legend ("burning oil").
        name: String,
        /// Damage note, e.g. "1d10 fire".
        #[serde(default, skip_serializing_if = "Option::is_none")]
        damage: Option<String>,
    },
}

impl Terrain {
    /// A low wall that blocks movement.
    pub const LOW_WALL: Terrain = Terrain::LowWall { passable: false };

    /// Short human description ("a wall", "water").
    pub fn describe(&self) -> String {
        match self {
            Terrain::Open => "open floor".into(),
            Terrain::Wall => "a wall".into(),
            Terrain::Obstacle => "an obstacle".into(),
            Terrain::LowWall { .. } => "a low wall".into(),
            Terrain::Difficult => "difficult terrain".into(),
            Terrain::Water => "water".into(),
            Terrain::Hazard { name, .. } => format!("hazard '{name}'"),
        }
    }
}

/// State of a door. Closed and locked doors block movement and sight; open doors neither.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum DoorState {
    /// Open: no effect on movement or sight.
    Open,
    /// Closed: blocks movement and sight until opened.
    Closed,
    /// Locked: like closed, and needs a key or a check to open.
    Locked,
}

impl DoorState {
    /// Whether the door blocks movement and sight.
    pub const fn is_shut(self) -> bool {
        !matches!(self, DoorState::Open)
    }
}

impl FromStr for DoorState {
    type Err = GridError;

    /// Parses `open`, `closed`, `locked` (case-insensitive).
    fn from_str(s: &str) -> Result<Self> {
        match s.trim().to_ascii_lowercase().as_str() {
            "open" => Ok(DoorState::Open),
            "closed" | "close" | "shut" => Ok(DoorState::Closed),
            "locked" | "lock" => Ok(DoorState::Locked),
            _ => Err(GridError::unknown_name(
                "door state",
                s,
                &["open", "closed", "locked"],
            )),
        }
    }
}

/// Light level of a square.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize,
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum Light {
    /// Bright light: normal vision.
    #[default]
    Bright,
    /// Dim light: lightly obscured (darkvision sees it as bright).
    Dim,
    /// Darkness: heavily obscured (darkvision sees it as dim).
    #[serde(alias = "dark")]
    Darkness,
    /// Magical darkness: heavily obscured even for darkvision; only truesight (and blindsight)
    /// perceive through it.
    #[serde(alias = "magical_darkness")]
    MagicalDarkness,
}

impl FromStr for Light {
    type Err = GridError;

    /// Parses `bright`, `dim`, `dark`/`darkness`, `magicalDarkness`.
    fn from_str(s: &str) -> Result<Self> {
        let k: String = s
            .trim()
            .to_ascii_lowercase()
            .chars()
            .filter(|c| c.is_ascii_alphabetic())
            .collect();
        match k.as_str() {
            "bright" => Ok(Light::Bright),
            "dim" => Ok(Light::Dim),
            "dark" | "darkness" => Ok(Light::Darkness),
            "magicaldarkness" | "magicdarkness" => Ok(Light::MagicalDarkness),
            _ => Err(GridError::unknown_name(
                "light level",
                s,
                &["bright", "dim", "darkness", "magicalDarkness"],
            )),
        }
    }
}

/// Degree of cover (ordered: `None < Half < ThreeQuarters < Total`). Also what a prop grants.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize,
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum Cover {
    /// No cover.
    #[default]
    None,
    /// Half cover: +2 AC and Dexterity saving throws.
    Half,
    /// Three-quarters cover: +5 AC and Dexterity saving throws.
    #[serde(alias = "three_quarters")]
    ThreeQuarters,
    /// Total cover: can't be targeted directly by an attack or a spell.
    Total,
}

impl Cover {
    /// Bonus to AC (and to Dexterity saves): 0, +2, +5; `None` for total cover (untargetable).
    pub const fn ac_bonus(self) -> Option<i32> {
        match self {
            Cover::None => Some(0),
            Cover::Half => Some(2),
            Cover::ThreeQuarters => Some(5),
            Cover::Total => None,
        }
    }

    /// Bonus to Dexterity saving throws (same as [`Cover::ac_bonus`]).
    pub const fn dex_save_bonus(self) -> Option<i32> {
        self.ac_bonus()
    }

    pub(crate) const fn level(self) -> u8 {
        match self {
            Cover::None => 0,
            Cover::Half => 1,
            Cover::ThreeQuarters => 2,
            Cover::Total => 3,
        }
    }

    pub(crate) const fn from_level(l: u8) -> Cover {
        match l {
            0 => Cover::None,
            1 => Cover::Half,
            2 => Cover::ThreeQuarters,
            _ => Cover::Total,
        }
    }
}

/// Size of a prop's footprint in feet (multiples of 5). Default 5×5 (one square).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Footprint {
    /// East–west extent in feet.
    pub width_ft: i32,
    /// North–south extent in feet.
    pub length_ft: i32,
}

impl Default for Footprint {
    fn default() -> Self {
        Footprint {
            width_ft: 5,
            length_ft: 5,
        }
    }
}

impl Footprint {
    /// Width and length in squares, after validating positive multiples of 5.
    pub fn squares(self) -> Result<(i32, i32)> {
        for (what, v) in [
            ("footprint width_ft", self.width_ft),
            ("footprint length_ft", self.length_ft),
        ] {
            GridError::check_positive(what, f64::from(v), "5 or 10")?;
            if v % 5 != 0 {
                return Err(GridError::NotMultipleOfFive {
                    what: what.into(),
                    value: v,
                });
            }
        }
        Ok((self.width_ft / 5, self.length_ft / 5))
    }
}

/// A thing on the map (table, statue, chest, trap) anchored at its top-left square.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Prop {
    /// Unique id on this map.
    pub id: String,
    /// Display name ("oak table").
    pub name: String,
    /// Top-left square of the footprint.
    pub position: Position,
    /// Footprint in feet (default one square).
    #[serde(default)]
    pub footprint: Footprint,
    /// Whether creatures cannot enter its squares.
    #[serde(default)]
    pub blocks_movement: bool,
    /// Whether it blocks line of sight (and areas of effect).
    #[serde(default)]
    pub blocks_sight: bool,
    /// Cover it grants to creatures behind it (a sight-blocking prop always counts as total).
    #[serde(default)]
    pub cover: Cover,
    /// Hit points, when destructible.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hp: Option<i32>,
    /// Armor class, when destructible.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ac: Option<i32>,
    /// When set, the prop is hidden and a Wisdom (Perception) or Intelligence (Investigation)
    /// check against this DC reveals it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hidden_dc: Option<u32>,
    /// Whether it is a trap.
    #[serde(default)]
    pub trap: bool,
    /// Letter used by the text renderer; assigned automatically (A, B, …) when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub symbol: Option<char>,
}

impl Prop {
    /// A one-square prop that blocks nothing and grants no cover; adjust the public fields.
    pub fn new(id: impl Into<String>, name: impl Into<String>, position: Position) -> Self {
        Prop {
            id: id.into(),
            name: name.into(),
            position,
            footprint: Footprint::default(),
            blocks_movement: false,
            blocks_sight: false,
            cover: Cover::None,
            hp: None,
            ac: None,
            hidden_dc: None,
            trap: false,
            symbol: None,
        }
    }

    /// The squares the prop covers (on its own level), after validating the footprint.
    pub fn squares(&self) -> Result<impl Iterator<Item = Position> + use<>> {
        let (w, h) = self.footprint.squares()?;
        let p = self.position;
        Ok((0..h).flat_map(move |dy| (0..w).map(move |dx| p.offset(dx, dy))))
    }

    /// Cover this prop provides as an obstacle on a line (sight blockers are total).
    pub fn effective_cover(&self) -> Cover {
        if self.blocks_sight {
            Cover::Total
        } else {
            self.cover
        }
    }
}

/// A creature on the map: its space is a cube of `size` squares anchored at the top-left,
/// lowest square `position`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Creature {
    /// Unique id on this map.
    pub id: String,
    /// Top-left (lowest) square of its space.
    pub position: Position,
    /// Size category (tiny–medium 1 square, large 2×2, huge 3×3, gargantuan 4×4).
    pub size: Size,
}

impl Creature {
    /// The squares of its space on its own level.
    pub fn squares(&self) -> impl Iterator<Item = Position> + use<> {
        footprint(self.position, self.size)
    }

    /// Whether its space contains the square `(x, y)` at elevation `z`.
    pub fn occupies(&self, pos: Position) -> bool {
        let n = size_squares(self.size);
        let p = self.position;
        (p.x..p.x + n).contains(&pos.x)
            && (p.y..p.y + n).contains(&pos.y)
            && (p.z..p.z + n).contains(&pos.z)
    }
}
