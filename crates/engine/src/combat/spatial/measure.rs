//! `measure_distance`: feet between two squares or combatants (nearest squares of their spaces),
//! elevation included, under the chosen diagonal rule.

use serde::Serialize;
use tabletop_grid::{Metric, footprint_distance_ft};

use super::{Point, Spot, spot};
use crate::engine::Call;
use crate::error::Result;

/// A `measure_distance` request.
#[derive(Debug, Clone, Default)]
pub struct MeasureRequest {
    /// Encounter (default: the active one); an ended one by id too.
    pub encounter_id: Option<String>,
    /// A scratch map (plain squares, the terrain given) instead of an encounter's; used too
    /// when no encounter is active (see [`crate::combat::spatial::scratch`]).
    pub scratch: Option<crate::combat::create::TerrainSpec>,
    /// One end.
    pub from: Point,
    /// The other end.
    pub to: Point,
    /// Diagonal rule (default grid_5e).
    pub metric: Metric,
    /// A range in feet to compare with.
    pub range_ft: Option<u32>,
}

/// The distance between two places.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Measurement {
    /// Encounter id.
    pub encounter_id: String,
    /// One end.
    pub from: Spot,
    /// The other end.
    pub to: Spot,
    /// The rule used.
    pub metric: Metric,
    /// Distance in feet.
    pub distance_ft: u32,
    /// The same in 5-ft squares (rounded down).
    pub squares: u32,
    /// Height difference in feet (to minus from).
    pub elevation_diff_ft: i32,
    /// Within 5 ft (adjacent, melee reach).
    pub within_5ft: bool,
    /// The range asked about.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub range_ft: Option<u32>,
    /// Whether the distance is within that range.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub within_range: Option<bool>,
    /// The distance under every rule: grid_5e, grid_alt, euclidean.
    pub by_metric: [(Metric, u32); 3],
}

/// Measures between two squares or combatants.
pub fn measure_distance(call: &Call<'_>, req: &MeasureRequest) -> Result<Measurement> {
    let e = crate::combat::spatial::scratch::map_to_read(
        call,
        req.encounter_id.as_deref(),
        req.scratch.as_ref(),
    )?;
    let from = spot(&e, &req.from, "from", "fromId")?;
    let to = spot(&e, &req.to, "to", "toId")?;
    let d = |m: Metric| footprint_distance_ft(from.position, from.size, to.position, to.size, m);
    let distance_ft = d(req.metric);
    Ok(Measurement {
        encounter_id: e.id.clone(),
        metric: req.metric,
        distance_ft,
        squares: distance_ft / 5,
        elevation_diff_ft: (to.position.z - from.position.z) * 5,
        within_5ft: distance_ft <= 5,
        range_ft: req.range_ft,
        within_range: req.range_ft.map(|r| distance_ft <= r),
        by_metric: Metric::ALL.map(|m| (m, d(m))),
        from,
        to,
    })
}

impl Measurement {
    /// "Ada → Goblin 1: 15 ft (3 squares, grid_5e); within 5 ft: no; within 30 ft: yes."
    pub fn text(&self) -> String {
        let mut t = format!(
            "{} → {}: {} ft ({} squares, {}).",
            self.from.label,
            self.to.label,
            self.distance_ft,
            self.squares,
            super::metric_key(self.metric)
        );
        t.push_str(&format!(
            " Within 5 ft: {}.",
            if self.within_5ft { "yes" } else { "no" }
        ));
        if let (Some(r), Some(w)) = (self.range_ft, self.within_range) {
            t.push_str(&format!(
                " Within {r} ft: {}.",
                if w { "yes" } else { "no" }
            ));
        }
        if self.elevation_diff_ft != 0 {
            t.push_str(&format!(
                " Elevation difference {:+} ft.",
                self.elevation_diff_ft
            ));
        }
        let others: Vec<String> = self
            .by_metric
            .iter()
            .filter(|(m, _)| *m != self.metric)
            .map(|(m, d)| format!("{} {d} ft", super::metric_key(*m)))
            .collect();
        t.push_str(&format!("\nOther rules: {}.", others.join(", ")));
        t
    }
}
