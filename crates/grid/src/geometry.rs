//! Positions, metrics and distances, plus the exact segment traversal used by line of sight,
//! cover and areas of effect.
//!
//! Units: a [`Position`] is a square (1 square = 5 ft); every distance returned is in feet.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use tabletop_rules::Size;

use crate::error::{GridError, Result};

/// Feet per square side.
pub const SQUARE_FT: i32 = 5;

/// A square on the map: `x` grows east, `y` grows south, `(0, 0)` is the top-left square;
/// `z` is elevation in squares (5 ft each, 0 = ground level of a flat map).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize,
)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Position {
    /// Column, 0 at the west edge.
    pub x: i32,
    /// Row, 0 at the north edge.
    pub y: i32,
    /// Elevation in squares (1 = 5 ft up); defaults to 0.
    #[serde(default)]
    pub z: i32,
}

impl Position {
    /// A square at ground level (`z = 0`).
    pub const fn new(x: i32, y: i32) -> Self {
        Position { x, y, z: 0 }
    }

    /// A square at elevation `z` (in squares).
    pub const fn new_3d(x: i32, y: i32, z: i32) -> Self {
        Position { x, y, z }
    }

    /// The same square shifted by `(dx, dy)`, keeping `z`.
    pub const fn offset(self, dx: i32, dy: i32) -> Self {
        Position {
            x: self.x + dx,
            y: self.y + dy,
            z: self.z,
        }
    }

    /// The same column and row at another elevation.
    pub const fn with_z(self, z: i32) -> Self {
        Position {
            x: self.x,
            y: self.y,
            z,
        }
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.z == 0 {
            write!(f, "({}, {})", self.x, self.y)
        } else {
            write!(f, "({}, {}, z {})", self.x, self.y, self.z)
        }
    }
}

/// How distances are measured on the grid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum Metric {
    /// The 5e default: every diagonal step costs 5 ft (distance = 5 × the largest axis delta).
    #[default]
    #[serde(alias = "grid_5e", alias = "grid5E")]
    Grid5e,
    /// The DMG variant: diagonal steps alternate 5 ft, 10 ft, 5 ft, …
    #[serde(alias = "grid_alt")]
    GridAlt,
    /// Straight-line distance between square centres, rounded to the nearest foot.
    Euclidean,
}

impl Metric {
    /// Every metric, in documentation order.
    pub const ALL: [Metric; 3] = [Metric::Grid5e, Metric::GridAlt, Metric::Euclidean];

    /// Canonical name, as serialised.
    pub const fn name(self) -> &'static str {
        match self {
            Metric::Grid5e => "grid5e",
            Metric::GridAlt => "gridAlt",
            Metric::Euclidean => "euclidean",
        }
    }
}

impl FromStr for Metric {
    type Err = GridError;

    /// Parses `grid5e`/`grid_5e`/`5e`, `gridAlt`/`grid_alt`/`alt`, `euclidean`.
    fn from_str(s: &str) -> Result<Self> {
        let k: String = s
            .trim()
            .to_ascii_lowercase()
            .chars()
            .filter(|c| !matches!(c, '_' | '-' | ' '))
            .collect();
        match k.as_str() {
            "grid5e" | "5e" | "default" | "chebyshev" => Ok(Metric::Grid5e),
            "gridalt" | "alt" | "alternating" | "51015" | "5105" => Ok(Metric::GridAlt),
            "euclidean" | "euclid" => Ok(Metric::Euclidean),
            _ => Err(GridError::unknown_name(
                "metric",
                s,
                &["grid5e", "gridAlt", "euclidean"],
            )),
        }
    }
}

impl fmt::Display for Metric {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Distance in feet for per-axis square deltas (any sign) under `metric`.
///
/// Grid metrics treat elevation as a third axis: a step may change any of x, y, z by one, and
/// any step that changes more than one axis is a diagonal.
pub fn delta_distance_ft(dx: i32, dy: i32, dz: i32, metric: Metric) -> u32 {
    abs_distance_ft(
        [dx.unsigned_abs(), dy.unsigned_abs(), dz.unsigned_abs()],
        metric,
    )
}

/// [`delta_distance_ft`] on absolute deltas; saturates at `u32::MAX` instead of overflowing.
fn abs_distance_ft(mut d: [u32; 3], metric: Metric) -> u32 {
    d.sort_unstable();
    let [_, mid, max] = d;
    match metric {
        Metric::Grid5e => max.saturating_mul(5),
        Metric::GridAlt => max
            .saturating_mul(5)
            .saturating_add((mid / 2).saturating_mul(5)),
        Metric::Euclidean => {
            let [a, b, c] = d.map(f64::from);
            // `as` saturates for out-of-range floats.
            (5.0 * (a * a + b * b + c * c).sqrt()).round() as u32
        }
    }
}

/// Distance in feet between two squares (centre to centre) under `metric`, elevation included.
///
/// Under [`Metric::Grid5e`] a 3-square diagonal is 15 ft; under [`Metric::GridAlt`] it is 20 ft.
pub fn distance_ft(a: Position, b: Position, metric: Metric) -> u32 {
    abs_distance_ft(
        [a.x.abs_diff(b.x), a.y.abs_diff(b.y), a.z.abs_diff(b.z)],
        metric,
    )
}

/// Exact straight-line distance in feet between square centres (unrounded), for range checks
/// under [`Metric::Euclidean`].
pub fn euclidean_ft(a: Position, b: Position) -> f64 {
    let (dx, dy, dz) = (
        f64::from(b.x) - f64::from(a.x),
        f64::from(b.y) - f64::from(a.y),
        f64::from(b.z) - f64::from(a.z),
    );
    5.0 * (dx * dx + dy * dy + dz * dz).sqrt()
}

/// Squares per side a creature of `size` occupies (tiny–medium 1, large 2, huge 3, gargantuan 4).
/// Creatures are treated as cubes: they are also this many squares tall.
pub fn size_squares(size: Size) -> i32 {
    match size {
        Size::Tiny | Size::Small | Size::Medium => 1,
        Size::Large => 2,
        Size::Huge => 3,
        Size::Gargantuan => 4,
    }
}

/// Size category as a number (tiny 0 … gargantuan 5), for "two sizes larger" rules.
pub fn size_rank(size: Size) -> i32 {
    match size {
        Size::Tiny => 0,
        Size::Small => 1,
        Size::Medium => 2,
        Size::Large => 3,
        Size::Huge => 4,
        Size::Gargantuan => 5,
    }
}

/// Gap in squares between two inclusive intervals on one axis (0 when they overlap).
fn axis_gap(a0: i32, a_len: i32, b0: i32, b_len: i32) -> u32 {
    let (a0, b0) = (i64::from(a0), i64::from(b0));
    let a1 = a0 + i64::from(a_len) - 1;
    let b1 = b0 + i64::from(b_len) - 1;
    let gap = if b0 > a1 {
        b0 - a1
    } else if a0 > b1 {
        a0 - b1
    } else {
        0
    };
    u32::try_from(gap).unwrap_or(u32::MAX)
}

/// Distance in feet between two creatures' spaces: the distance between their nearest occupied
/// squares (each creature is a cube of [`size_squares`] squares anchored at its top-left, lowest
/// square). Adjacent creatures are 5 ft apart; overlapping ones 0 ft.
pub fn footprint_distance_ft(
    a: Position,
    a_size: Size,
    b: Position,
    b_size: Size,
    metric: Metric,
) -> u32 {
    let (sa, sb) = (size_squares(a_size), size_squares(b_size));
    let dx = axis_gap(a.x, sa, b.x, sb);
    let dy = axis_gap(a.y, sa, b.y, sb);
    let dz = axis_gap(a.z, sa, b.z, sb);
    abs_distance_ft([dx, dy, dz], metric)
}

/// The squares a creature of `size` anchored at `pos` covers on its own level (top-left first,
/// row by row).
pub fn footprint(pos: Position, size: Size) -> impl Iterator<Item = Position> {
    let n = size_squares(size);
    (0..n).flat_map(move |dy| (0..n).map(move |dx| pos.offset(dx, dy)))
}

/// One of the eight compass directions (north is −y, east is +x).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum Compass {
    /// North (−y).
    #[serde(alias = "n", alias = "north")]
    N,
    /// North-east.
    #[serde(alias = "ne", alias = "northeast")]
    NE,
    /// East (+x).
    #[serde(alias = "e", alias = "east")]
    E,
    /// South-east.
    #[serde(alias = "se", alias = "southeast")]
    SE,
    /// South (+y).
    #[serde(alias = "s", alias = "south")]
    S,
    /// South-west.
    #[serde(alias = "sw", alias = "southwest")]
    SW,
    /// West (−x).
    #[serde(alias = "w", alias = "west")]
    W,
    /// North-west.
    #[serde(alias = "nw", alias = "northwest")]
    NW,
}

impl Compass {
    /// All eight directions, clockwise from north.
    pub const ALL: [Compass; 8] = [
        Compass::N,
        Compass::NE,
        Compass::E,
        Compass::SE,
        Compass::S,
        Compass::SW,
        Compass::W,
        Compass::NW,
    ];

    /// The unit step `(dx, dy)` of this direction (diagonals are `(±1, ±1)`).
    pub const fn step(self) -> (i32, i32) {
        match self {
            Compass::N => (0, -1),
            Compass::NE => (1, -1),
            Compass::E => (1, 0),
            Compass::SE => (1, 1),
            Compass::S => (0, 1),
            Compass::SW => (-1, 1),
            Compass::W => (-1, 0),
            Compass::NW => (-1, -1),
        }
    }
}

impl FromStr for Compass {
    type Err = GridError;

    /// Parses `N`, `ne`, `north-east`, `South West`, … (case-insensitive).
    fn from_str(s: &str) -> Result<Self> {
        let k: String = s
            .trim()
            .to_ascii_lowercase()
            .chars()
            .filter(|c| c.is_ascii_alphabetic())
            .collect();
        Ok(match k.as_str() {
            "n" | "north" => Compass::N,
            "ne" | "northeast" => Compass::NE,
            "e" | "east" => Compass::E,
            "se" | "southeast" => Compass::SE,
            "s" | "south" => Compass::S,
            "sw" | "southwest" => Compass::SW,
            "w" | "west" => Compass::W,
            "nw" | "northwest" => Compass::NW,
            _ => {
                return Err(GridError::unknown_name(
                    "compass direction",
                    s,
                    &["N", "NE", "E", "SE", "S", "SW", "W", "NW"],
                ));
            }
        })
    }
}

/// What a traced segment touches, in order along the segment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Touch {
    /// The segment passes through the interior of this square `(x, y)`.
    Cell(i32, i32),
    /// The segment squeezes between these two squares without entering either: it passes
    /// exactly through the grid point where they meet diagonally, or runs along the edge they
    /// share. It is blocked there only if both squares block.
    Between((i32, i32), (i32, i32)),
}

/// Walks the segment from `a` to `b`, given in half-square units ("doubled" coordinates: square
/// `(x, y)` spans `[2x, 2x + 2]`; its centre is `(2x + 1, 2y + 1)`, its top-left corner
/// `(2x, 2y)`). Calls `f` for every [`Touch`] in order; stops early (returning `true`) when `f`
/// returns `true`. Exact integer arithmetic: no floating-point tie problems.
pub(crate) fn trace(a: (i32, i32), b: (i32, i32), mut f: impl FnMut(Touch) -> bool) -> bool {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let (sx, sy) = (dx.signum(), dy.signum());
    // Segment running along a grid line: squeezes between the two rows/columns beside it.
    if (sx == 0 && a.0 % 2 == 0) || (sy == 0 && a.1 % 2 == 0) {
        return trace_along_edge(a, b, &mut f);
    }
    let start = |p: i32, s: i32| {
        if p % 2 == 0 {
            if s > 0 { p / 2 } else { p / 2 - 1 }
        } else {
            p.div_euclid(2)
        }
    };
    let (mut cx, mut cy) = (start(a.0, sx), start(a.1, sy));
    if a == b {
        return f(Touch::Cell(cx, cy));
    }
    if f(Touch::Cell(cx, cy)) {
        return true;
    }
    let (adx, ady) = (i64::from(dx.abs()), i64::from(dy.abs()));
    loop {
        let distx = if sx > 0 {
            i64::from(2 * (cx + 1) - a.0)
        } else {
            i64::from(a.0 - 2 * cx)
        };
        let disty = if sy > 0 {
            i64::from(2 * (cy + 1) - a.1)
        } else {
            i64::from(a.1 - 2 * cy)
        };
        let x_ok = sx != 0 && distx < adx;
        let y_ok = sy != 0 && disty < ady;
        let ord = match (x_ok, y_ok) {
            (false, false) => return false,
            (true, false) => std::cmp::Ordering::Less,
            (false, true) => std::cmp::Ordering::Greater,
            (true, true) => (distx * ady).cmp(&(disty * adx)),
        };
        match ord {
            std::cmp::Ordering::Less => cx += sx,
            std::cmp::Ordering::Greater => cy += sy,
            std::cmp::Ordering::Equal => {
                if f(Touch::Between((cx + sx, cy), (cx, cy + sy))) {
                    return true;
                }
                cx += sx;
                cy += sy;
            }
        }
        if f(Touch::Cell(cx, cy)) {
            return true;
        }
    }
}

/// [`trace`] for a segment lying on a grid line.
fn trace_along_edge(a: (i32, i32), b: (i32, i32), f: &mut impl FnMut(Touch) -> bool) -> bool {
    // Normalise to "vertical" by swapping axes when needed.
    let vertical = a.0 == b.0 && a.0 % 2 == 0;
    let (line, from, to) = if vertical {
        (a.0 / 2, a.1, b.1)
    } else {
        (a.1 / 2, a.0, b.0)
    };
    let cell = |across: i32, along: i32| {
        if vertical {
            (across, along)
        } else {
            (along, across)
        }
    };
    let s = (to - from).signum();
    if s == 0 {
        return false;
    }
    // Walk unit edges; `p` is the current coordinate (half-square units) along the line.
    let mut p = from;
    while p != to {
        // Interior grid point (not the start): check both diagonal pinches.
        if p != from && p % 2 == 0 {
            let k = p / 2;
            if f(Touch::Between(cell(line - 1, k - 1), cell(line, k)))
                || f(Touch::Between(cell(line, k - 1), cell(line - 1, k)))
            {
                return true;
            }
        }
        let next = if p % 2 == 0 {
            p + 2 * s
        } else if s > 0 {
            p + 1
        } else {
            p - 1
        };
        let next = if s > 0 { next.min(to) } else { next.max(to) };
        let row = (p.min(next)).div_euclid(2);
        if f(Touch::Between(cell(line - 1, row), cell(line, row))) {
            return true;
        }
        p = next;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn metric() -> impl Strategy<Value = Metric> {
        prop_oneof![
            Just(Metric::Grid5e),
            Just(Metric::GridAlt),
            Just(Metric::Euclidean)
        ]
    }

    #[test]
    fn diagonals_under_each_metric() {
        let o = Position::new(0, 0);
        assert_eq!(distance_ft(o, Position::new(3, 3), Metric::Grid5e), 15);
        assert_eq!(distance_ft(o, Position::new(3, 3), Metric::GridAlt), 20);
        assert_eq!(distance_ft(o, Position::new(4, 4), Metric::Grid5e), 20);
        assert_eq!(distance_ft(o, Position::new(4, 4), Metric::GridAlt), 30);
        assert_eq!(distance_ft(o, Position::new(1, 1), Metric::GridAlt), 5);
        assert_eq!(distance_ft(o, Position::new(2, 2), Metric::GridAlt), 15);
        assert_eq!(distance_ft(o, Position::new(3, 4), Metric::Euclidean), 25);
        assert_eq!(distance_ft(o, Position::new(6, 0), Metric::GridAlt), 30);
    }

    #[test]
    fn elevation_is_a_third_axis() {
        let o = Position::new(0, 0);
        assert_eq!(
            distance_ft(o, Position::new_3d(0, 0, 6), Metric::Grid5e),
            30
        );
        assert_eq!(
            distance_ft(o, Position::new_3d(2, 0, 6), Metric::Grid5e),
            30
        );
        assert_eq!(
            distance_ft(o, Position::new_3d(3, 3, 3), Metric::GridAlt),
            20
        );
        assert_eq!(
            distance_ft(o, Position::new_3d(4, 0, 3), Metric::Euclidean),
            25
        );
    }

    #[test]
    fn big_creatures_use_nearest_squares() {
        let ogre = Position::new(0, 0); // large: (0..=1, 0..=1)
        assert_eq!(
            footprint_distance_ft(
                ogre,
                Size::Large,
                Position::new(2, 0),
                Size::Medium,
                Metric::Grid5e
            ),
            5
        );
        assert_eq!(
            footprint_distance_ft(
                ogre,
                Size::Large,
                Position::new(4, 3),
                Size::Medium,
                Metric::Grid5e
            ),
            15
        );
        assert_eq!(
            footprint_distance_ft(
                ogre,
                Size::Large,
                Position::new(1, 1),
                Size::Medium,
                Metric::Grid5e
            ),
            0
        );
        assert_eq!(
            footprint_distance_ft(
                Position::new(5, 5),
                Size::Medium,
                ogre,
                Size::Gargantuan,
                Metric::GridAlt
            ),
            15
        );
    }

    #[test]
    fn parses_names_with_suggestions() {
        assert_eq!("grid_alt".parse::<Metric>().unwrap(), Metric::GridAlt);
        assert_eq!("Grid 5e".parse::<Metric>().unwrap(), Metric::Grid5e);
        let err = "eucledian".parse::<Metric>().unwrap_err().to_string();
        assert!(err.contains("did you mean 'euclidean'"), "{err}");
        assert_eq!("north-east".parse::<Compass>().unwrap(), Compass::NE);
        assert!(
            "up".parse::<Compass>()
                .unwrap_err()
                .to_string()
                .contains("allowed: N, NE")
        );
        let m: Metric = serde_json::from_str("\"grid_5e\"").unwrap();
        assert_eq!(m, Metric::Grid5e);
        assert_eq!(
            serde_json::to_string(&Metric::GridAlt).unwrap(),
            "\"gridAlt\""
        );
    }

    fn collect(a: (i32, i32), b: (i32, i32)) -> Vec<Touch> {
        let mut v = Vec::new();
        trace(a, b, |t| {
            v.push(t);
            false
        });
        v
    }

    #[test]
    fn trace_diagonal_squeezes_through_corners() {
        // Centre of (0,0) to centre of (2,2): exact corners at (1,1) and (2,2).
        let t = collect((1, 1), (5, 5));
        assert_eq!(
            t,
            vec![
                Touch::Cell(0, 0),
                Touch::Between((1, 0), (0, 1)),
                Touch::Cell(1, 1),
                Touch::Between((2, 1), (1, 2)),
                Touch::Cell(2, 2)
            ]
        );
    }

    #[test]
    fn trace_shallow_line_and_edges() {
        // Centre (0,0) to centre (3,1).
        let cells: Vec<_> = collect((1, 1), (7, 3))
            .into_iter()
            .filter_map(|t| {
                if let Touch::Cell(x, y) = t {
                    Some((x, y))
                } else {
                    None
                }
            })
            .collect();
        assert_eq!(cells, vec![(0, 0), (1, 0), (2, 1), (3, 1)]);
        // Corner (1,0) down the grid line x=1 to corner (1,2): between columns 0 and 1.
        let t = collect((2, 0), (2, 4));
        assert_eq!(
            t,
            vec![
                Touch::Between((0, 0), (1, 0)),
                Touch::Between((0, 0), (1, 1)),
                Touch::Between((1, 0), (0, 1)),
                Touch::Between((0, 1), (1, 1))
            ]
        );
        // Corner start going up-left enters the square up-left of the corner.
        assert_eq!(collect((4, 4), (0, 2))[0], Touch::Cell(1, 1));
    }

    proptest! {
        #[test]
        fn distance_is_symmetric(ax in -50i32..50, ay in -50i32..50, az in -5i32..5, bx in -50i32..50, by in -50i32..50, bz in -5i32..5, m in metric()) {
            let (a, b) = (Position::new_3d(ax, ay, az), Position::new_3d(bx, by, bz));
            prop_assert_eq!(distance_ft(a, b, m), distance_ft(b, a, m));
        }

        #[test]
        fn extreme_positions_do_not_overflow(ax in any::<i32>(), ay in any::<i32>(), az in any::<i32>(), bx in any::<i32>(), by in any::<i32>(), m in metric()) {
            let (a, b) = (Position::new_3d(ax, ay, az), Position::new(bx, by));
            let _ = distance_ft(a, b, m);
            let _ = euclidean_ft(a, b);
            let _ = footprint_distance_ft(a, Size::Gargantuan, b, Size::Large, m);
        }

        #[test]
        fn grid5e_never_exceeds_the_others(ax in -50i32..50, ay in -50i32..50, az in -5i32..5, bx in -50i32..50, by in -50i32..50, bz in -5i32..5) {
            let (a, b) = (Position::new_3d(ax, ay, az), Position::new_3d(bx, by, bz));
            let g = distance_ft(a, b, Metric::Grid5e);
            prop_assert!(g <= distance_ft(a, b, Metric::GridAlt));
            prop_assert!(g <= distance_ft(a, b, Metric::Euclidean));
            prop_assert_eq!(g % 5, 0);
            prop_assert_eq!(distance_ft(a, b, Metric::GridAlt) % 5, 0);
        }

        #[test]
        fn trace_visits_connected_cells_from_start_to_end(ax in 0i32..30, ay in 0i32..30, bx in 0i32..30, by in 0i32..30) {
            let (a, b) = ((2 * ax + 1, 2 * ay + 1), (2 * bx + 1, 2 * by + 1));
            let cells: Vec<(i32, i32)> = collect(a, b).into_iter().filter_map(|t| if let Touch::Cell(x, y) = t { Some((x, y)) } else { None }).collect();
            prop_assert_eq!(cells.first().copied(), Some((ax, ay)));
            prop_assert_eq!(cells.last().copied(), Some((bx, by)));
            for w in cells.windows(2) {
                prop_assert!((w[0].0 - w[1].0).abs() <= 1 && (w[0].1 - w[1].1).abs() <= 1);
            }
        }
    }
}
