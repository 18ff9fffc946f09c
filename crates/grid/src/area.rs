//! Areas of effect: spheres, cylinders, cones, cubes and lines, and which squares and creatures
//! they touch.
//!
//! **Geometry.** Cones, cubes and lines are true geometric shapes measured in feet. A square is
//! affected when its **centre** lies inside the shape (boundaries count as inside).
//!
//! **Spheres and cylinders follow the distance [`Metric`](crate::Metric)** of the area (the
//! campaign's, 5-5-5 [`Metric::Grid5e`](crate::Metric::Grid5e) by default), the same rule every
//! range uses: a square is inside when its distance from the origin by that metric is within the
//! radius. From a square's centre that is [`distance_ft`](crate::distance_ft) between the two
//! squares (so a square 15 ft away by `measure_distance` is inside a 20-ft sphere, and a 10-ft
//! sphere on a square under 5-5-5 is the 5 × 5 block around it); from a corner each axis counts
//! the squares out from the intersection (a square touching the corner is 1 square away, 5 ft),
//! so a 20-ft sphere from a corner is an 8 × 8 block under 5-5-5. Under
//! [`Metric::Euclidean`](crate::Metric::Euclidean) the template is round: the straight-line
//! distance to the centre, rounded to the nearest foot as `measure_distance` rounds it. A
//! cylinder measures its radius horizontally only. Coordinates are in squares:
//! square `(x, y)` spans `[x, x+1] × [y, y+1]`, its centre is `(x+0.5, y+0.5)`, and level `z`
//! spans `[z, z+1]` vertically.
//!
//! **Origin.** [`AreaOrigin::Square`] is the centre of a square (use it for cones, lines and
//! cubes cast from the caster's square, and for spheres/emanations centred on a creature);
//! [`AreaOrigin::Corner`] is the grid intersection at the top-left corner of a square (the DMG's
//! recommended point of origin for spheres and cylinders; `x` may be `0..=width`). Vertically the
//! origin sits in the middle of its level. Cones, lines and cubes never include their point of
//! origin (so the caster's own square is excluded when the origin is a square).
//!
//! **Shapes.** A cone's width at any distance equals that distance (≈53° total angle). A line
//! has a length and a width (default 5 ft) centred on its axis. A cube is axis-aligned: its
//! direction is snapped to the nearest of the 8 compass directions (or straight up/down), the
//! origin lies on the centre of the face (or on the corner, for diagonals) facing that way.
//! A cylinder stands on the origin's level and rises `height_ft`.
//!
//! **Blocking.** An area spreads in straight lines from its origin: a square (or creature) is
//! affected only if the line from the origin to its centre is not blocked by anything giving
//! total cover (walls, obstacles, shut doors, sight-blocking props). Corner tie-breaks follow
//! line of sight: a line through an exact grid corner is stopped only when both squares beside
//! it block. Solid wall and obstacle squares themselves are never listed.

use serde::{Deserialize, Serialize};

use crate::error::{GridError, Result};
use crate::geometry::{Compass, Metric, Position, Touch, delta_distance_ft, size_squares, trace};
use crate::map::{BattleMap, F_SOLID};
use crate::sight::centre2;

const EPS: f64 = 1e-9;

/// The shape and size of an area of effect; every size is in feet and must be positive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(
    tag = "shape",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum Shape {
    /// Every point within `radius_ft` of the origin.
    Sphere {
        /// Radius in feet.
        radius_ft: i32,
    },
    /// A circle of `radius_ft` around the origin, rising `height_ft` from the origin's level.
    Cylinder {
        /// Radius in feet.
        radius_ft: i32,
        /// Height in feet.
        height_ft: i32,
    },
    /// A cone `length_ft` long whose width at any distance equals that distance.
    Cone {
        /// Length in feet.
        length_ft: i32,
    },
    /// An axis-aligned cube with sides of `size_ft`.
    Cube {
        /// Side length in feet.
        size_ft: i32,
    },
    /// A line `length_ft` long and `width_ft` wide.
    Line {
        /// Length in feet.
        length_ft: i32,
        /// Width in feet (default 5).
        #[serde(default = "five")]
        width_ft: i32,
    },
}

fn five() -> i32 {
    5
}

impl Shape {
    /// Names accepted for the `shape` tag.
    pub const NAMES: [&'static str; 5] = ["sphere", "cylinder", "cone", "cube", "line"];

    /// Builds a shape from its name and main size in feet (cylinders get `height_ft = size_ft`,
    /// lines a 5-ft width). Unknown names are an error listing the allowed ones.
    pub fn from_name(name: &str, size_ft: i32) -> Result<Shape> {
        let shape = match name.trim().to_ascii_lowercase().as_str() {
            "sphere" | "radius" | "circle" | "emanation" => Shape::Sphere { radius_ft: size_ft },
            "cylinder" => Shape::Cylinder {
                radius_ft: size_ft,
                height_ft: size_ft,
            },
            "cone" => Shape::Cone { length_ft: size_ft },
            "cube" | "square" => Shape::Cube { size_ft },
            "line" => Shape::Line {
                length_ft: size_ft,
                width_ft: 5,
            },
            _ => return Err(GridError::unknown_name("shape", name, &Shape::NAMES)),
        };
        shape.validate()?;
        Ok(shape)
    }

    /// Checks that every size is positive.
    pub fn validate(&self) -> Result<()> {
        let check = |what: &str, v: i32| GridError::check_positive(what, f64::from(v), "20");
        match *self {
            Shape::Sphere { radius_ft } => check("sphere radius_ft", radius_ft),
            Shape::Cylinder {
                radius_ft,
                height_ft,
            } => {
                check("cylinder radius_ft", radius_ft)?;
                check("cylinder height_ft", height_ft)
            }
            Shape::Cone { length_ft } => check("cone length_ft", length_ft),
            Shape::Cube { size_ft } => check("cube size_ft", size_ft),
            Shape::Line {
                length_ft,
                width_ft,
            } => {
                check("line length_ft", length_ft)?;
                check("line width_ft", width_ft)
            }
        }
    }

    /// Whether the shape needs a [`Direction`] (cones, cubes, lines).
    pub const fn needs_direction(&self) -> bool {
        matches!(
            self,
            Shape::Cone { .. } | Shape::Cube { .. } | Shape::Line { .. }
        )
    }

    fn name(&self) -> &'static str {
        match self {
            Shape::Sphere { .. } => "sphere",
            Shape::Cylinder { .. } => "cylinder",
            Shape::Cone { .. } => "cone",
            Shape::Cube { .. } => "cube",
            Shape::Line { .. } => "line",
        }
    }
}

/// Where an area starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum AreaOrigin {
    /// The centre of this square.
    Square(Position),
    /// The grid intersection at the top-left corner of this square (`x` in `0..=width`, `y` in
    /// `0..=height`).
    Corner(Position),
}

/// Which way a cone, line or cube points.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum Direction {
    /// Toward the centre of a square (elevation included).
    Toward(Position),
    /// A compass direction (horizontal).
    Compass(Compass),
    /// A free vector in squares (`x` east, `y` south, `z` up); its length is ignored.
    Vector {
        /// East component.
        x: f64,
        /// South component.
        y: f64,
        /// Up component.
        #[serde(default)]
        z: f64,
    },
}

/// A complete area of effect: shape, origin and (for cones, lines, cubes) direction.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct AreaOfEffect {
    /// Shape and size.
    pub shape: Shape,
    /// Point of origin.
    pub origin: AreaOrigin,
    /// Direction; required for cones, lines and cubes, ignored for spheres and cylinders.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub direction: Option<Direction>,
    /// The distance rule spheres and cylinders measure their radius by (default 5-5-5, the
    /// campaign default; see the module docs).
    #[serde(default)]
    pub metric: Metric,
}

impl AreaOfEffect {
    /// An area with no direction (spheres, cylinders).
    pub fn new(shape: Shape, origin: AreaOrigin) -> Self {
        AreaOfEffect {
            shape,
            origin,
            direction: None,
            metric: Metric::default(),
        }
    }

    /// An area pointing in `direction`.
    pub fn directed(shape: Shape, origin: AreaOrigin, direction: Direction) -> Self {
        AreaOfEffect {
            shape,
            origin,
            direction: Some(direction),
            metric: Metric::default(),
        }
    }

    /// The same area measured by `metric` (spheres and cylinders; see the module docs).
    pub fn with_metric(mut self, metric: Metric) -> Self {
        self.metric = metric;
        self
    }
}

/// A validated area in square units, ready for point tests.
#[derive(Debug, Clone, Copy)]
struct Compiled {
    shape: Shape,
    /// Origin point (x, y, z) in squares.
    o: [f64; 3],
    /// Unit direction.
    d: [f64; 3],
    /// Snapped axis signs for cubes.
    cube: [i8; 3],
    /// Origin in half-square units, for blocking traces.
    o2: (i32, i32),
    /// The origin square, never a blocker for its own area (square origins only).
    origin_cell: Option<(i32, i32)>,
    /// The distance rule of spheres and cylinders.
    metric: Metric,
}

fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

impl Compiled {
    /// Conservative horizontal bounding box `[xmin, xmax, ymin, ymax]` in squares.
    fn bbox(&self) -> [f64; 4] {
        let ft = |v: i32| f64::from(v) / 5.0;
        let ball = |c: [f64; 3], r: f64| [c[0] - r, c[0] + r, c[1] - r, c[1] + r];
        let hull = |a: [f64; 4], b: [f64; 4]| {
            [
                a[0].min(b[0]),
                a[1].max(b[1]),
                a[2].min(b[2]),
                a[3].max(b[3]),
            ]
        };
        let tip = |l: f64| [self.o[0] + self.d[0] * l, self.o[1] + self.d[1] * l, 0.0];
        match self.shape {
            Shape::Sphere { radius_ft } | Shape::Cylinder { radius_ft, .. } => {
                ball(self.o, ft(radius_ft))
            }
            Shape::Cone { length_ft } => hull(
                ball(self.o, 0.0),
                ball(tip(ft(length_ft)), ft(length_ft) / 2.0),
            ),
            Shape::Line {
                length_ft,
                width_ft,
            } => hull(
                ball(self.o, ft(width_ft) / 2.0),
                ball(tip(ft(length_ft)), ft(width_ft) / 2.0),
            ),
            Shape::Cube { size_ft } => {
                let s = ft(size_ft);
                let axis = |i: usize| match self.cube[i] {
                    1 => (self.o[i], self.o[i] + s),
                    -1 => (self.o[i] - s, self.o[i]),
                    _ => (self.o[i] - s / 2.0, self.o[i] + s / 2.0),
                };
                let ((x0, x1), (y0, y1)) = (axis(0), axis(1));
                [x0, x1, y0, y1]
            }
        }
    }

    /// Distance in feet by the area's metric from the origin to a square centre offset by `v`
    /// (squares). Each axis counts whole squares out from the origin: an integer offset from a
    /// square's centre, or a half-integer one from a corner rounded up (the square touching the
    /// corner is 1 square away).
    fn metric_ft(&self, v: [f64; 3]) -> u32 {
        if self.metric == Metric::Euclidean {
            // `as` saturates for out-of-range floats.
            return (5.0 * dot(v, v).sqrt()).round() as u32;
        }
        let n = |a: f64| (a.abs() - EPS).ceil().max(0.0) as i32;
        delta_distance_ft(n(v[0]), n(v[1]), n(v[2]), self.metric)
    }

    fn contains(&self, c: [f64; 3]) -> bool {
        let v = [c[0] - self.o[0], c[1] - self.o[1], c[2] - self.o[2]];
        let within = |r: i32, v: [f64; 3]| u32::try_from(r).is_ok_and(|r| self.metric_ft(v) <= r);
        match self.shape {
            Shape::Sphere { radius_ft } => within(radius_ft, v),
            Shape::Cylinder {
                radius_ft,
                height_ft,
            } => {
                let base = self.o[2] - 0.5;
                within(radius_ft, [v[0], v[1], 0.0])
                    && c[2] >= base - EPS
                    && c[2] <= base + f64::from(height_ft) / 5.0 + EPS
            }
            Shape::Cone { length_ft } => {
                let t = dot(v, self.d);
                let perp2 = (dot(v, v) - t * t).max(0.0);
                t > EPS && t <= f64::from(length_ft) / 5.0 + EPS && perp2 <= t * t / 4.0 + EPS
            }
            Shape::Line {
                length_ft,
                width_ft,
            } => {
                let t = dot(v, self.d);
                let perp2 = (dot(v, v) - t * t).max(0.0);
                let hw = f64::from(width_ft) / 10.0;
                let within = if (perp2 - hw * hw).abs() <= EPS {
                    // A centre exactly on a side boundary (an even width along an axis from a
                    // square's centre, or a 5-ft line from a corner): only one side counts, so
                    // the line is as many squares wide as its width says.
                    on_kept_side(v, self.d)
                } else {
                    perp2 < hw * hw
                };
                t > EPS && t <= f64::from(length_ft) / 5.0 + EPS && within
            }
            Shape::Cube { size_ft } => {
                let s = f64::from(size_ft) / 5.0;
                (0..3).all(|i| match self.cube[i] {
                    1 => v[i] > EPS && v[i] <= s + EPS,
                    -1 => v[i] < -EPS && v[i] >= -s - EPS,
                    // Centred on the origin: half-open, so an even size from a square's centre
                    // covers exactly `s` squares (the low side's boundary in x and y, the high
                    // side's in z: upward, where flyers are).
                    _ if i == 2 => v[i] > -s / 2.0 + EPS && v[i] <= s / 2.0 + EPS,
                    _ => v[i] >= -s / 2.0 - EPS && v[i] < s / 2.0 - EPS,
                })
            }
        }
    }
}

/// For a centre on a line's side boundary: whether that side is the one kept. The kept side is
/// the one to the left of the direction on the map (the signed cross product in the plane is
/// positive: north of an eastward line); straight above or below the line, the upper side.
fn on_kept_side(v: [f64; 3], d: [f64; 3]) -> bool {
    let cross = v[0] * d[1] - v[1] * d[0];
    if cross.abs() > EPS {
        cross > 0.0
    } else {
        v[2] > 0.0
    }
}

impl BattleMap {
    /// `Ok` when `p` is a grid intersection of the map (`x` in `0..=width`, `y` in `0..=height`).
    pub(crate) fn check_corner(&self, p: Position) -> Result<()> {
        let (w, h) = (self.width() as i32, self.height() as i32);
        if (0..=w).contains(&p.x) && (0..=h).contains(&p.y) {
            Ok(())
        } else {
            Err(GridError::Invalid(format!(
                "corner {p} is off the {w}×{h} map; corners run x 0–{w} and y 0–{h}"
            )))
        }
    }

    fn compile(&self, area: &AreaOfEffect) -> Result<Compiled> {
        area.shape.validate()?;
        let (o, o2, origin_cell) = match area.origin {
            AreaOrigin::Square(p) => {
                self.check(p)?;
                (
                    [
                        f64::from(p.x) + 0.5,
                        f64::from(p.y) + 0.5,
                        f64::from(p.z) + 0.5,
                    ],
                    centre2(p),
                    Some((p.x, p.y)),
                )
            }
            AreaOrigin::Corner(p) => {
                self.check_corner(p)?;
                (
                    [f64::from(p.x), f64::from(p.y), f64::from(p.z) + 0.5],
                    (2 * p.x, 2 * p.y),
                    None,
                )
            }
        };
        let mut d = [1.0, 0.0, 0.0];
        let mut cube = [0i8; 3];
        if area.shape.needs_direction() {
            let Some(dir) = area.direction else {
                return Err(GridError::BadDirection(format!(
                    "a {} needs a direction: give toward (a square), compass (N, NE, E, SE, S, SW, W, NW) or vector {{x, y, z}}",
                    area.shape.name()
                )));
            };
            let raw = match dir {
                Direction::Toward(t) => [
                    f64::from(t.x) + 0.5 - o[0],
                    f64::from(t.y) + 0.5 - o[1],
                    f64::from(t.z) + 0.5 - o[2],
                ],
                Direction::Compass(c) => {
                    let (x, y) = c.step();
                    [f64::from(x), f64::from(y), 0.0]
                }
                Direction::Vector { x, y, z } => [x, y, z],
            };
            let len = dot(raw, raw).sqrt();
            if !len.is_finite() || len < 1e-6 {
                return Err(GridError::BadDirection(match dir {
                    Direction::Toward(t) => format!("direction toward {t} points at the origin itself; aim at another square or use a compass direction"),
                    _ => "direction vector is zero or not finite; give a non-zero vector such as {x: 1, y: 0}".into(),
                }));
            }
            d = raw.map(|c| c / len);
            let m = d.iter().fold(0.0f64, |a, c| a.max(c.abs()));
            // tan(22.5°): snap to the nearest of the 26 axis/diagonal directions.
            cube = d.map(|c| {
                if c.abs() >= m * 0.414_213_56 {
                    c.signum() as i8
                } else {
                    0
                }
            });
        }
        Ok(Compiled {
            shape: area.shape,
            o,
            d,
            cube,
            o2,
            origin_cell,
            metric: area.metric,
        })
    }

    /// Whether nothing giving total cover lies on the line from the area's origin to the centre
    /// of square `(x, y)`.
    fn area_reaches(&self, c: &Compiled, x: i32, y: i32) -> bool {
        let blocks = |cx: i32, cy: i32| {
            (cx, cy) != (x, y) && Some((cx, cy)) != c.origin_cell && self.cover_level(cx, cy) >= 3
        };
        !trace(c.o2, centre2(Position::new(x, y)), |t| match t {
            Touch::Cell(cx, cy) => blocks(cx, cy),
            Touch::Between(p, q) => blocks(p.0, p.1) && blocks(q.0, q.1),
        })
    }

    /// The squares on the origin's level affected by an area, in row-major order (`z` = the
    /// origin's `z`). See the module docs for the geometry and blocking rules.
    pub fn area_squares(&self, area: &AreaOfEffect) -> Result<Vec<Position>> {
        let c = self.compile(area)?;
        let z = match area.origin {
            AreaOrigin::Square(p) | AreaOrigin::Corner(p) => p.z,
        };
        let [xmin, xmax, ymin, ymax] = c.bbox();
        let (x0, x1) = (
            ((xmin - 0.5).floor() as i32).max(0),
            ((xmax - 0.5).ceil() as i32).min(self.width() as i32 - 1),
        );
        let (y0, y1) = (
            ((ymin - 0.5).floor() as i32).max(0),
            ((ymax - 0.5).ceil() as i32).min(self.height() as i32 - 1),
        );
        let mut out = Vec::new();
        for y in y0..=y1 {
            for x in x0..=x1 {
                let centre = [f64::from(x) + 0.5, f64::from(y) + 0.5, f64::from(z) + 0.5];
                if c.contains(centre)
                    && self.flags(x, y) & F_SOLID == 0
                    && self.area_reaches(&c, x, y)
                {
                    out.push(Position::new_3d(x, y, z));
                }
            }
        }
        Ok(out)
    }

    /// Whether one square (at any elevation) is affected by an area.
    pub fn area_contains(&self, area: &AreaOfEffect, pos: Position) -> Result<bool> {
        let c = self.compile(area)?;
        self.check(pos)?;
        let centre = [
            f64::from(pos.x) + 0.5,
            f64::from(pos.y) + 0.5,
            f64::from(pos.z) + 0.5,
        ];
        Ok(c.contains(centre)
            && self.flags(pos.x, pos.y) & F_SOLID == 0
            && self.area_reaches(&c, pos.x, pos.y))
    }

    /// Ids of creatures with any occupied square (creatures are cubes, so elevation counts)
    /// inside the area, ordered by id; `exclude` (e.g. the caster) is left out.
    pub fn creatures_in_area(
        &self,
        area: &AreaOfEffect,
        exclude: Option<&str>,
    ) -> Result<Vec<String>> {
        let c = self.compile(area)?;
        let mut out = Vec::new();
        for cr in self.creatures() {
            if Some(cr.id.as_str()) == exclude {
                continue;
            }
            let n = size_squares(cr.size);
            let p = cr.position;
            let hit = (0..n).any(|dz| {
                (0..n).any(|dy| {
                    (0..n).any(|dx| {
                        let (x, y, z) = (p.x + dx, p.y + dy, p.z + dz);
                        let centre = [f64::from(x) + 0.5, f64::from(y) + 0.5, f64::from(z) + 0.5];
                        c.contains(centre) && self.area_reaches(&c, x, y)
                    })
                })
            });
            if hit {
                out.push(cr.id.clone());
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::{DoorState, Terrain};
    use proptest::prelude::*;
    use tabletop_rules::Size;

    fn p(x: i32, y: i32) -> Position {
        Position::new(x, y)
    }

    fn squares(m: &BattleMap, a: AreaOfEffect) -> Vec<(i32, i32)> {
        m.area_squares(&a)
            .unwrap()
            .into_iter()
            .map(|q| (q.x, q.y))
            .collect()
    }

    #[test]
    fn fifteen_foot_cone_east_from_a_square() {
        let m = BattleMap::new(20, 20).unwrap();
        let a = AreaOfEffect::directed(
            Shape::Cone { length_ft: 15 },
            AreaOrigin::Square(p(5, 5)),
            Direction::Compass(Compass::E),
        );
        // Column 1 square, then 3, then 3:
        //   . . X X      (y = 4)
        //   C X X X      (y = 5; C = caster, excluded)
        //   . . X X      (y = 6)
        let mut want = vec![(6, 5), (7, 4), (7, 5), (7, 6), (8, 4), (8, 5), (8, 6)];
        want.sort_by_key(|&(x, y)| (y, x));
        assert_eq!(squares(&m, a), want);
        // Toward a target square to the east gives the same cone.
        let b = AreaOfEffect::directed(
            Shape::Cone { length_ft: 15 },
            AreaOrigin::Square(p(5, 5)),
            Direction::Toward(p(9, 5)),
        );
        assert_eq!(squares(&m, b), want);
    }

    #[test]
    fn fifteen_foot_cone_diagonal() {
        let m = BattleMap::new(20, 20).unwrap();
        let a = AreaOfEffect::directed(
            Shape::Cone { length_ft: 15 },
            AreaOrigin::Square(p(5, 5)),
            Direction::Compass(Compass::SE),
        );
        let mut want = vec![(6, 6), (7, 6), (6, 7), (7, 7), (8, 6), (6, 8)];
        want.sort_by_key(|&(x, y)| (y, x));
        assert_eq!(squares(&m, a), want);
    }

    #[test]
    fn twenty_foot_sphere_counts() {
        let m = BattleMap::new(40, 40).unwrap();
        let corner = AreaOfEffect::new(
            Shape::Sphere { radius_ft: 20 },
            AreaOrigin::Corner(p(20, 20)),
        );
        let square = AreaOfEffect::new(
            Shape::Sphere { radius_ft: 20 },
            AreaOrigin::Square(p(20, 20)),
        );
        let count = |a: AreaOfEffect| m.area_squares(&a).unwrap().len();
        // 5-5-5 (the default): 4 squares out every way, an 8 × 8 block from an intersection and
        // a 9 × 9 one from a square.
        assert_eq!(count(corner), 64);
        assert_eq!(count(square), 81);
        // 5-10-5: from a square, max + ⌊min/2⌋ ≤ 4 squares (9 × 9 less 5 per corner).
        let alt = (-4i32..=4)
            .flat_map(|dx| (-4i32..=4).map(move |dy| (dx.abs(), dy.abs())))
            .filter(|&(a, b)| a.max(b) + a.min(b) / 2 <= 4)
            .count();
        assert_eq!(alt, 61);
        assert_eq!(count(square.with_metric(Metric::GridAlt)), alt);
        // Round (euclidean): 13 squares per quadrant from an intersection, a 9-wide disc of 49
        // from a square.
        assert_eq!(count(corner.with_metric(Metric::Euclidean)), 52);
        assert_eq!(count(square.with_metric(Metric::Euclidean)), 49);
    }

    #[test]
    fn cube_line_and_cylinder() {
        let m = BattleMap::new(20, 20).unwrap();
        let thunderwave = AreaOfEffect::directed(
            Shape::Cube { size_ft: 15 },
            AreaOrigin::Square(p(5, 5)),
            Direction::Compass(Compass::E),
        );
        let got = squares(&m, thunderwave);
        assert_eq!(got.len(), 9);
        assert!(
            got.iter()
                .all(|&(x, y)| (6..=8).contains(&x) && (4..=6).contains(&y))
        );
        let diag = AreaOfEffect::directed(
            Shape::Cube { size_ft: 10 },
            AreaOrigin::Corner(p(5, 5)),
            Direction::Compass(Compass::NW),
        );
        assert_eq!(squares(&m, diag), vec![(3, 3), (4, 3), (3, 4), (4, 4)]);
        let bolt = AreaOfEffect::directed(
            Shape::Line {
                length_ft: 30,
                width_ft: 5,
            },
            AreaOrigin::Square(p(2, 2)),
            Direction::Compass(Compass::S),
        );
        assert_eq!(
            squares(&m, bolt),
            (3..=8).map(|y| (2, y)).collect::<Vec<_>>()
        );
        let col = AreaOfEffect::new(
            Shape::Cylinder {
                radius_ft: 10,
                height_ft: 40,
            },
            AreaOrigin::Corner(p(10, 10)),
        );
        // 5-5-5: 2 squares out every way from the intersection, a 4 × 4 footprint.
        assert_eq!(m.area_squares(&col).unwrap().len(), 16);
        let round = col.with_metric(Metric::Euclidean);
        assert_eq!(m.area_squares(&round).unwrap().len(), 12);
        assert!(m.area_contains(&col, Position::new_3d(10, 10, 7)).unwrap());
        assert!(!m.area_contains(&col, Position::new_3d(10, 10, 8)).unwrap());
    }

    #[test]
    fn walls_stop_the_spread() {
        let mut m = BattleMap::new(20, 20).unwrap();
        for y in 0..20 {
            m.set_terrain(p(10, y), Terrain::Wall).unwrap();
        }
        m.set_door(p(10, 10), DoorState::Open).unwrap_err(); // a wall square
        m.set_terrain(p(10, 10), Terrain::Open).unwrap();
        m.set_door(p(10, 10), DoorState::Closed).unwrap();
        let fireball =
            AreaOfEffect::new(Shape::Sphere { radius_ft: 20 }, AreaOrigin::Corner(p(9, 5)));
        let got = m.area_squares(&fireball).unwrap();
        assert!(
            got.iter().all(|q| q.x < 10),
            "nothing past the wall: {got:?}"
        );
        // The 8 × 8 block (x 5–12, y 1–8) west of the wall: 5 columns × 8 rows.
        assert_eq!(got.len(), 40);
        // Through an open door the blast leaks in a narrow fan only.
        m.set_door(p(10, 10), DoorState::Open).unwrap();
        let at_door = AreaOfEffect::new(
            Shape::Sphere { radius_ft: 20 },
            AreaOrigin::Square(p(8, 10)),
        );
        let past: Vec<_> = m
            .area_squares(&at_door)
            .unwrap()
            .into_iter()
            .filter(|q| q.x > 10)
            .collect();
        assert_eq!(past, vec![p(11, 10), p(12, 10)]);
    }

    #[test]
    fn creatures_in_area_uses_any_square_and_elevation() {
        let mut m = BattleMap::new(20, 20).unwrap();
        m.place_creature("wizard", p(5, 5), Size::Medium).unwrap();
        m.place_creature("ogre", p(8, 2), Size::Large).unwrap();
        m.place_creature("gob", p(7, 5), Size::Small).unwrap();
        m.place_creature("bat", Position::new_3d(6, 5, 3), Size::Tiny)
            .unwrap();
        m.place_creature("far", p(15, 15), Size::Medium).unwrap();
        let cone = AreaOfEffect::directed(
            Shape::Cone { length_ft: 30 },
            AreaOrigin::Square(p(5, 5)),
            Direction::Compass(Compass::E),
        );
        assert_eq!(
            m.creatures_in_area(&cone, Some("wizard")).unwrap(),
            vec!["gob".to_string(), "ogre".to_string()]
        );
        let ball = AreaOfEffect::new(Shape::Sphere { radius_ft: 20 }, AreaOrigin::Square(p(6, 5)));
        assert_eq!(
            m.creatures_in_area(&ball, None).unwrap(),
            vec!["bat", "gob", "ogre", "wizard"]
        );
    }

    #[test]
    fn bad_areas_are_rejected_with_the_fix() {
        let m = BattleMap::new(20, 20).unwrap();
        let e = m
            .area_squares(&AreaOfEffect::new(
                Shape::Sphere { radius_ft: 0 },
                AreaOrigin::Square(p(1, 1)),
            ))
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "sphere radius_ft must be a positive number of feet (got 0); give e.g. 20"
        );
        assert!(
            m.area_squares(&AreaOfEffect::new(
                Shape::Line {
                    length_ft: 30,
                    width_ft: -5
                },
                AreaOrigin::Square(p(1, 1))
            ))
            .is_err()
        );
        let e = m
            .area_squares(&AreaOfEffect::new(
                Shape::Cone { length_ft: 15 },
                AreaOrigin::Square(p(1, 1)),
            ))
            .unwrap_err();
        assert!(e.to_string().contains("a cone needs a direction"), "{e}");
        let e = m
            .area_squares(&AreaOfEffect::directed(
                Shape::Cone { length_ft: 15 },
                AreaOrigin::Square(p(1, 1)),
                Direction::Toward(p(1, 1)),
            ))
            .unwrap_err();
        assert!(e.to_string().contains("points at the origin itself"), "{e}");
        let e = m
            .area_squares(&AreaOfEffect::new(
                Shape::Sphere { radius_ft: 10 },
                AreaOrigin::Square(p(25, 3)),
            ))
            .unwrap_err();
        assert!(e.to_string().contains("x must be 0–19"), "{e}");
        assert!(
            m.area_squares(&AreaOfEffect::new(
                Shape::Sphere { radius_ft: 10 },
                AreaOrigin::Corner(p(20, 20))
            ))
            .is_ok()
        );
        let e = Shape::from_name("blob", 20).unwrap_err().to_string();
        assert!(
            e.contains("unknown shape 'blob'")
                && e.contains("allowed: sphere, cylinder, cone, cube, line"),
            "{e}"
        );
        assert!(Shape::from_name("cone", -5).is_err());
        assert_eq!(
            Shape::from_name("Line", 60).unwrap(),
            Shape::Line {
                length_ft: 60,
                width_ft: 5
            }
        );
    }

    #[test]
    fn serde_shapes() {
        let a: AreaOfEffect = serde_json::from_str(
            r#"{"shape":{"shape":"line","lengthFt":60},"origin":{"square":{"x":1,"y":2}},"direction":{"compass":"NE"}}"#,
        )
        .unwrap();
        assert_eq!(
            a.shape,
            Shape::Line {
                length_ft: 60,
                width_ft: 5
            }
        );
        assert_eq!(a.direction, Some(Direction::Compass(Compass::NE)));
        let e = serde_json::from_str::<Shape>(r#"{"shape":"blob","radiusFt":5}"#)
            .unwrap_err()
            .to_string();
        assert!(e.contains("expected one of"), "{e}");
    }

    proptest! {
        #[test]
        fn square_in_sphere_iff_within_radius_by_the_metric(r in 1i32..60, ox in 0i32..=30, oy in 0i32..=30, corner in any::<bool>(), metric in prop_oneof![Just(Metric::Grid5e), Just(Metric::GridAlt), Just(Metric::Euclidean)]) {
            let m = BattleMap::new(30, 30).unwrap();
            let (ox, oy) = if corner { (ox, oy) } else { (ox.min(29), oy.min(29)) };
            let origin = if corner { AreaOrigin::Corner(p(ox, oy)) } else { AreaOrigin::Square(p(ox, oy)) };
            let area = AreaOfEffect::new(Shape::Sphere { radius_ft: r }, origin).with_metric(metric);
            let got = m.area_squares(&area).unwrap();
            for y in 0..30 {
                for x in 0..30 {
                    // Worked independently: from a square, the same `distance_ft` ranges use;
                    // from a corner, squares counted out from the intersection on each axis
                    // (round: the straight line to the centre, rounded to the foot).
                    let d = if !corner {
                        crate::distance_ft(p(ox, oy), p(x, y), metric)
                    } else if metric == Metric::Euclidean {
                        let (dx, dy) = (f64::from(x) + 0.5 - f64::from(ox), f64::from(y) + 0.5 - f64::from(oy));
                        (5.0 * (dx * dx + dy * dy).sqrt()).round() as u32
                    } else {
                        let n = |a: i32, o: i32| if a >= o { a - o + 1 } else { o - a };
                        crate::delta_distance_ft(n(x, ox), n(y, oy), 0, metric)
                    };
                    prop_assert_eq!(got.contains(&p(x, y)), d <= r as u32, "({}, {}) at {} ft", x, y, d);
                }
            }
        }
    }

    proptest! {
        #[test]
        fn area_squares_matches_a_full_scan(
            kind in 0u8..4, size in 1i32..80, ox in 0i32..30, oy in 0i32..30,
            dx in -5i32..=5, dy in -5i32..=5, dz in -2i32..=2, corner in any::<bool>(),
        ) {
            prop_assume!(dx != 0 || dy != 0 || dz != 0);
            let m = BattleMap::new(30, 30).unwrap();
            let shape = match kind {
                0 => Shape::Cone { length_ft: size },
                1 => Shape::Line { length_ft: size, width_ft: 5 + size % 15 },
                2 => Shape::Cube { size_ft: size },
                _ => Shape::Cylinder { radius_ft: size, height_ft: 10 },
            };
            let origin = if corner { AreaOrigin::Corner(p(ox, oy)) } else { AreaOrigin::Square(p(ox, oy)) };
            let dir = Direction::Vector { x: f64::from(dx), y: f64::from(dy), z: f64::from(dz) };
            let area = AreaOfEffect::directed(shape, origin, dir);
            let got = m.area_squares(&area).unwrap();
            let mut want = Vec::new();
            for y in 0..30 {
                for x in 0..30 {
                    if m.area_contains(&area, p(x, y)).unwrap() {
                        want.push(p(x, y));
                    }
                }
            }
            prop_assert_eq!(got, want);
        }
    }
}
