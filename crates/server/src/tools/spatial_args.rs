//! Argument shapes shared by the spatial tools: the diagonal rule and the scratch map a spatial
//! question may bring when no encounter is running.

use schemars::JsonSchema;
use serde::Deserialize;
use tabletop_engine::combat::create::TerrainSpec;
use tabletop_grid::{Metric, Position};

use crate::arg_enum;

arg_enum! {
    /// Diagonal rule.
    pub enum MetricArg { Grid5e = "grid_5e", GridAlt = "grid_alt", Euclidean = "euclidean" }
}

impl From<MetricArg> for Metric {
    fn from(m: MetricArg) -> Self {
        match m {
            MetricArg::Grid5e => Metric::Grid5e,
            MetricArg::GridAlt => Metric::GridAlt,
            MetricArg::Euclidean => Metric::Euclidean,
        }
    }
}

/// A scratch map for spatial questions outside an encounter (default 20×20 open squares).
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ScratchMapArg {
    /// Squares (default 20; max 200).
    pub width: Option<u32>,
    pub height: Option<u32>,
    pub walls: Option<Vec<Position>>,
    pub obstacles: Option<Vec<Position>>,
    /// Half-height cover.
    pub low_walls: Option<Vec<Position>>,
    pub difficult: Option<Vec<Position>>,
    pub water: Option<Vec<Position>>,
    pub lighting: Option<super::combat::LightArg>,
}

impl ScratchMapArg {
    pub(super) fn spec(self) -> TerrainSpec {
        TerrainSpec {
            width: self.width,
            height: self.height,
            walls: self.walls.unwrap_or_default(),
            obstacles: self.obstacles.unwrap_or_default(),
            low_walls: self.low_walls.unwrap_or_default(),
            difficult: self.difficult.unwrap_or_default(),
            water: self.water.unwrap_or_default(),
            hazards: Vec::new(),
            lighting: self.lighting.map(Into::into),
        }
    }
}
