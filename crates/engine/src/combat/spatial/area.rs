//! `calculate_aoe`: the squares an area of effect covers on the encounter's map and the combatants
//! inside it, with the cover each has from the point of origin (for Dexterity saves).

use std::str::FromStr;

use serde::Serialize;
use tabletop_grid::{
    AreaOfEffect, AreaOrigin, Compass, Cover, CoverOptions, Direction, Metric, Position, Shape,
    size_squares,
};

use super::{Point, Spot, spot};
use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::encounter::*;

/// A `calculate_aoe` request. Sizes are in feet.
#[derive(Debug, Clone, Default)]
pub struct AoeRequest {
    /// Encounter (default: the active one); an ended one by id too.
    pub encounter_id: Option<String>,
    /// A scratch map (plain squares, the terrain given) instead of an encounter's; used too
    /// when no encounter is active (see [`crate::combat::spatial::scratch`]).
    pub scratch: Option<crate::combat::create::TerrainSpec>,
    /// sphere, cylinder, cone, cube or line.
    pub shape: String,
    /// Radius (sphere, cylinder), length (cone, line) or side (cube), in feet.
    pub size_ft: i32,
    /// Cylinder height (default: the radius).
    pub height_ft: Option<i32>,
    /// Line width (default 5).
    pub width_ft: Option<i32>,
    /// Point of origin: a square's centre or a combatant (the centre of its space).
    pub origin: Point,
    /// Use the grid intersection at the top-left corner of the origin square instead.
    pub at_corner: bool,
    /// Aim at a square or combatant (cones, lines, cubes).
    pub toward: Point,
    /// Or a compass direction: N, NE, E, SE, S, SW, W, NW.
    pub direction: Option<String>,
    /// Or a vector {x, y, z} in squares.
    pub vector: Option<(f64, f64, f64)>,
    /// Leave the origin combatant out of the creatures affected.
    pub exclude_caster: bool,
    /// The distance rule spheres and cylinders measure their radius by, as every range is
    /// measured (default 5-5-5, the rule spells and attacks resolve with).
    pub metric: Metric,
}

/// A combatant caught in an area.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Caught {
    /// Character id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Side.
    pub side: Side,
    /// Where it stands.
    pub position: Position,
    /// Cover from the point of origin.
    pub cover: Cover,
    /// Its Dexterity saving throw bonus from that cover.
    pub dex_save_bonus: i32,
}

/// Squares spanned: `[minX, minY, maxX, maxY]`.
pub type Bounds = [i32; 4];

/// What an area covers.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AoeOutcome {
    /// Encounter id.
    pub encounter_id: String,
    /// The area as computed.
    pub area: AreaOfEffect,
    /// The origin as named.
    pub origin: Spot,
    /// How many squares.
    pub count: usize,
    /// Their bounding box.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bounds: Option<Bounds>,
    /// Every affected square (row-major).
    pub squares: Vec<Position>,
    /// The combatants inside.
    pub creatures: Vec<Caught>,
}

/// The point an area starts from when it is centred on a space of `n` squares anchored at `p`:
/// the centre square (odd sizes) or the grid intersection at the centre (even sizes).
fn centre_origin(p: Position, n: i32, corner: bool) -> AreaOrigin {
    if corner {
        AreaOrigin::Corner(p)
    } else if n % 2 == 1 {
        AreaOrigin::Square(p.offset((n - 1) / 2, (n - 1) / 2))
    } else {
        AreaOrigin::Corner(p.offset(n / 2, n / 2))
    }
}

/// Computes an area of effect on the encounter's map.
pub fn calculate_aoe(call: &Call<'_>, req: &AoeRequest) -> Result<AoeOutcome> {
    let e = crate::combat::spatial::scratch::map_to_read(
        call,
        req.encounter_id.as_deref(),
        req.scratch.as_ref(),
    )?;
    let mut shape = Shape::from_name(&req.shape, req.size_ft).map_err(|err| match err {
        tabletop_grid::GridError::NonPositiveSize { .. } => EngineError::invalid(
            "sizeFt",
            format!(
                "the area's size must be a positive number of feet (got {}); e.g. 20 for a fireball's radius, 15 for a cone's length",
                req.size_ft
            ),
        ),
        other => EngineError::invalid("shape", other.to_string()),
    })?;
    match &mut shape {
        Shape::Cylinder { height_ft, .. } => {
            if let Some(h) = req.height_ft {
                *height_ft = h;
            }
        }
        Shape::Line { width_ft, .. } => {
            if let Some(w) = req.width_ft {
                *width_ft = w;
            }
        }
        _ => {}
    }
    shape
        .validate()
        .map_err(|err| EngineError::invalid("heightFt/widthFt", err.to_string()))?;
    let origin = spot(&e, &req.origin, "origin", "originId")?;
    let n = size_squares(origin.size);
    let area_origin = centre_origin(origin.position, n, req.at_corner);
    let direction = if !req.toward.is_empty() {
        let t = spot(&e, &req.toward, "toward", "towardId")?;
        let m = size_squares(t.size);
        Some(Direction::Toward(
            t.position.offset((m - 1) / 2, (m - 1) / 2),
        ))
    } else if let Some(d) = req.direction.as_deref() {
        Some(Direction::Compass(Compass::from_str(d).map_err(|err| {
            EngineError::invalid("direction", err.to_string())
        })?))
    } else {
        req.vector.map(|(x, y, z)| Direction::Vector { x, y, z })
    };
    let area = AreaOfEffect {
        shape,
        origin: area_origin,
        direction: if shape.needs_direction() {
            direction
        } else {
            None
        },
        metric: req.metric,
    };
    let squares = e.map.area_squares(&area)?;
    let exclude = req.exclude_caster.then(|| origin.id.clone()).flatten();
    let ids = e.map.creatures_in_area(&area, exclude.as_deref())?;
    let mut creatures = Vec::new();
    for cb in e.order.iter().filter(|c| !c.removed) {
        if !ids.contains(&cb.character_id) {
            continue;
        }
        let Some(cr) = e.map.creature(&cb.character_id) else {
            continue;
        };
        let cover = e
            .map
            .cover_from_origin(area_origin, cr.position, cr.size, &CoverOptions::default())
            .map(|r| r.cover)
            .unwrap_or(Cover::None);
        creatures.push(Caught {
            id: cb.character_id.clone(),
            name: cb.name.clone(),
            side: cb.side,
            position: cr.position,
            cover,
            dex_save_bonus: cover.dex_save_bonus().unwrap_or(0),
        });
    }
    let bounds = squares.first().map(|f| {
        squares.iter().fold([f.x, f.y, f.x, f.y], |b, p| {
            [b[0].min(p.x), b[1].min(p.y), b[2].max(p.x), b[3].max(p.y)]
        })
    });
    Ok(AoeOutcome {
        encounter_id: e.id.clone(),
        area,
        origin,
        count: squares.len(),
        bounds,
        squares,
        creatures,
    })
}

/// A shape as words: "20-ft sphere", "15-ft cone".
fn shape_words(s: &Shape) -> String {
    match *s {
        Shape::Sphere { radius_ft } => format!("{radius_ft}-ft-radius sphere"),
        Shape::Cylinder {
            radius_ft,
            height_ft,
        } => format!("{radius_ft}-ft-radius, {height_ft}-ft-high cylinder"),
        Shape::Cone { length_ft } => format!("{length_ft}-ft cone"),
        Shape::Cube { size_ft } => format!("{size_ft}-ft cube"),
        Shape::Line {
            length_ft,
            width_ft,
        } => format!("{length_ft}-ft line {width_ft} ft wide"),
    }
}

/// Most squares listed in the text.
pub const TEXT_SQUARES: usize = 40;

impl AoeOutcome {
    /// "A 20-ft-radius sphere at (10, 10) covers 52 squares (x 6–14, y 6–14) and 2 combatants:
    /// Goblin 1 (enemy), …"
    pub fn text(&self) -> String {
        let who = if self.creatures.is_empty() {
            "no combatants".to_string()
        } else {
            format!(
                "{} combatant{}: {}",
                self.creatures.len(),
                if self.creatures.len() == 1 { "" } else { "s" },
                self.creatures
                    .iter()
                    .map(|c| {
                        let cover = match c.cover {
                            Cover::None => String::new(),
                            Cover::Total => ", total cover".into(),
                            other => format!(
                                ", {} cover +{} DEX save",
                                if other == Cover::Half {
                                    "half"
                                } else {
                                    "three-quarters"
                                },
                                c.dex_save_bonus
                            ),
                        };
                        format!("{} ({}{cover})", c.name, c.side)
                    })
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        let bounds = self
            .bounds
            .map(|b| format!(" (x {}–{}, y {}–{})", b[0], b[2], b[1], b[3]))
            .unwrap_or_default();
        let mut t = format!(
            "A {} from {} covers {} square{}{bounds} and {who}.",
            shape_words(&self.area.shape),
            self.origin.label,
            self.count,
            if self.count == 1 { "" } else { "s" },
        );
        if !self.squares.is_empty() {
            let listed: Vec<String> = self
                .squares
                .iter()
                .take(TEXT_SQUARES)
                .map(|p| format!("({},{})", p.x, p.y))
                .collect();
            let more = self.squares.len().saturating_sub(TEXT_SQUARES);
            t.push_str(&format!("\nSquares: {}", listed.join(" ")));
            if more > 0 {
                t.push_str(&format!(
                    " … and {more} more (all in structuredContent.squares)"
                ));
            }
        }
        t
    }
}
