//! Movement: shortest paths (A*), everywhere reachable within a budget (Dijkstra), and
//! opportunity-attack risks along a path.
//!
//! **Costs** (feet): an orthogonal step costs 5; a diagonal step costs 5 under
//! [`Metric::Grid5e`], alternately 5 and 10 under [`Metric::GridAlt`] (the parity is part of
//! the search state, so the alternation is exact), and 7 under [`Metric::Euclidean`] (5√2
//! rounded down). A step costs double when any square the mover enters is difficult terrain, a
//! passable low wall, water (unless it has a swim speed) or another creature's space. Walking
//! up onto higher ground adds 2 ft per foot climbed (climbing costs double); walking down is
//! free. Flyers ignore difficult terrain, water and elevation.
//!
//! **Blocking.** Walls, obstacles, impassable low walls, shut doors and movement-blocking props
//! can't be entered. A diagonal step can't squeeze between two blocking squares that touch at
//! the corner. A mover may pass through a non-hostile creature's space but not stop there; a
//! hostile's space is impassable unless the two differ by at least two size categories. Nobody
//! may end a move overlapping another creature unless one of them is tiny. Large and bigger
//! movers need every square of their space to be passable at every step, or else squeeze: where
//! walls or obstacles leave room only for the space one size smaller (a Large ogre through a
//! 5-ft gap), the step costs double (each foot 1 extra foot, on top of difficult terrain); a
//! space two sizes smaller stays closed. [`BattleMap::is_squeezing`] says who is squeezed.
//!
//! Walking movers follow the ground: path positions carry `z` = the ground level of each square.
//! Flyers keep their starting `z`. Only creatures at the mover's level are considered (walking:
//! creatures standing on the ground; flying: creatures whose space overlaps the mover's height).

use std::collections::HashSet;

use pathfinding::directed::astar::astar;
use pathfinding::directed::dijkstra::dijkstra_reach;
use serde::{Deserialize, Serialize};
use tabletop_rules::Size;

use crate::error::{GridError, Result};
use crate::geometry::{Metric, Position, footprint_distance_ft, size_squares};
use crate::map::{BattleMap, F_BLOCK_MOVE, F_DIFFICULT, F_WATER, sizes_apart};

/// Who is moving and how.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", default)]
pub struct MoveOptions {
    /// Diagonal rule.
    pub metric: Metric,
    /// Id of the moving creature, if it is on the map (its own space never blocks it; its size
    /// is used unless `size` is given).
    pub mover: Option<String>,
    /// Size of the mover (default: the mover's size on the map, else medium).
    pub size: Option<Size>,
    /// Ids of creatures hostile to the mover; every other creature is non-hostile.
    pub hostile_ids: Vec<String>,
    /// Whether the mover has a swim speed (water costs normal movement).
    pub swim_speed: bool,
    /// Whether the mover flies (ignores difficult terrain, water and elevation costs).
    pub flying: bool,
    /// Whether difficult terrain costs normal movement (e.g. a feature that ignores it).
    pub ignore_difficult_terrain: bool,
    /// Whether it may move through the space of any larger creature, hostile too (Halfling
    /// Nimbleness).
    pub through_larger: bool,
}

/// A path: the squares visited (start first) and what each step cost.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Path {
    /// Squares in order, the start included.
    pub squares: Vec<Position>,
    /// Cost in feet of each step (`squares.len() - 1` entries).
    pub step_costs_ft: Vec<u32>,
    /// Total cost in feet (the sum of `step_costs_ft`).
    pub cost_ft: u32,
}

impl Path {
    /// The longest prefix of this path costing at most `budget_ft` (at least the start). The
    /// prefix may stop in a square the mover can only pass through; check
    /// [`BattleMap::can_stop_at`] when that matters.
    pub fn within_ft(&self, budget_ft: u32) -> Path {
        let mut total = 0;
        let mut n = 0;
        for &c in &self.step_costs_ft {
            if total + c > budget_ft {
                break;
            }
            total += c;
            n += 1;
        }
        Path {
            squares: self.squares[..=n].to_vec(),
            step_costs_ft: self.step_costs_ft[..n].to_vec(),
            cost_ft: total,
        }
    }
}

/// A hostile creature threatening the mover, with its reach in feet (5 for most, 10 for
/// reach weapons).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Threat {
    /// Id of the hostile creature on the map.
    pub id: String,
    /// Its reach in feet.
    pub reach_ft: u32,
}

/// A point where a path leaves a hostile's reach, provoking an opportunity attack.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OpportunityRisk {
    /// The hostile that may attack.
    pub hostile_id: String,
    /// Index in the path of the square the mover steps to when it leaves reach.
    pub step: usize,
    /// Last square within reach (the attack happens as the mover leaves it).
    pub from: Position,
    /// First square out of reach.
    pub to: Position,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Node {
    x: i16,
    y: i16,
    /// Under grid_alt: the next diagonal costs 10.
    odd: bool,
}

impl std::hash::Hash for Node {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        // One word: x and y fit in 15 bits each (maps are at most 200 squares).
        state.write_u32(
            ((self.x as u16 as u32) << 16) | ((self.y as u16 as u32) << 1) | u32::from(self.odd),
        );
    }
}

const OCC_ANY: u8 = 1;
const OCC_NO_STOP: u8 = 2;
const OCC_HOSTILE_WALL: u8 = 4;

/// Entry codes of the precomputed per-anchor grid.
const ENTER_BLOCKED: u8 = 0;
const ENTER_NORMAL: u8 = 1;
const ENTER_DOUBLE: u8 = 2;
/// Squeezing (the space one size smaller is clear, the whole space is not): each foot costs 1
/// extra foot, on top of any other extra cost.
const ENTER_SQUEEZE: u8 = 3;
const ENTER_SQUEEZE_DOUBLE: u8 = 4;
const ENTER_UNKNOWN: u8 = u8::MAX;

const STEPS: [(i32, i32); 8] = [
    (0, -1),
    (1, -1),
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
];

/// Per-query movement context: everything a step needs, precomputed into dense grids.
struct Mover<'a> {
    map: &'a BattleMap,
    width: i32,
    height: i32,
    n: i32,
    opts: &'a MoveOptions,
    /// Creature occupancy bits per square.
    occ: Vec<u8>,
    /// Per anchor square, for movers bigger than one square: blocked / normal / double cost to
    /// enter with the whole space, filled lazily.
    enter: Vec<std::cell::Cell<u8>>,
    /// Ground level per square, when climbing matters (walking on a map with elevation).
    ground: Option<Vec<i32>>,
    flying_z: Option<i32>,
}

impl<'a> Mover<'a> {
    fn new(map: &'a BattleMap, from: Position, opts: &'a MoveOptions) -> Result<Self> {
        let me = match &opts.mover {
            Some(id) => Some(map.require_creature(id)?),
            None => None,
        };
        let size = opts.size.or(me.map(|c| c.size)).unwrap_or(Size::Medium);
        let n = size_squares(size);
        let (w, h) = (map.width() as i32, map.height() as i32);
        let cells = (w * h) as usize;
        let mut occ = vec![0u8; cells];
        let hostile: HashSet<&str> = opts.hostile_ids.iter().map(String::as_str).collect();
        for c in map.creatures() {
            if Some(c.id.as_str()) == opts.mover.as_deref() {
                continue;
            }
            let cn = size_squares(c.size);
            let relevant = if opts.flying {
                c.position.z < from.z + n && from.z < c.position.z + cn
            } else {
                c.position.z <= map.ground_z(c.position)
            };
            if !relevant {
                continue;
            }
            let mut bits = OCC_ANY;
            if c.size != Size::Tiny && size != Size::Tiny {
                bits |= OCC_NO_STOP;
            }
            let nimble = opts.through_larger
                && crate::geometry::size_rank(c.size) > crate::geometry::size_rank(size);
            if hostile.contains(c.id.as_str()) && sizes_apart(c.size, size) < 2 && !nimble {
                bits |= OCC_HOSTILE_WALL;
            }
            for q in c.squares() {
                if map.contains(q) {
                    occ[(q.y * w + q.x) as usize] |= bits;
                }
            }
        }
        let enter = if n > 1 {
            vec![std::cell::Cell::new(ENTER_UNKNOWN); cells]
        } else {
            Vec::new()
        };
        let ground = (!opts.flying && map.has_elevation()).then(|| {
            (0..h)
                .flat_map(|y| (0..w).map(move |x| (x, y)))
                .map(|(x, y)| map.ground_z(Position::new(x, y)))
                .collect()
        });
        Ok(Mover {
            map,
            width: w,
            height: h,
            n,
            opts,
            occ,
            enter,
            ground,
            flying_z: opts.flying.then_some(from.z),
        })
    }

    fn idx(&self, x: i32, y: i32) -> usize {
        (y * self.width + x) as usize
    }

    fn occ(&self, x: i32, y: i32) -> u8 {
        self.occ[self.idx(x, y)]
    }

    /// Entry code of one square for this mover.
    fn square_code(&self, x: i32, y: i32) -> u8 {
        let f = self.map.flags(x, y);
        let o = self.occ(x, y);
        if f & F_BLOCK_MOVE != 0 || o & OCC_HOSTILE_WALL != 0 {
            return ENTER_BLOCKED;
        }
        let terrain = !self.opts.flying
            && ((!self.opts.ignore_difficult_terrain && f & F_DIFFICULT != 0)
                || (!self.opts.swim_speed && f & F_WATER != 0));
        if terrain || o & OCC_ANY != 0 {
            ENTER_DOUBLE
        } else {
            ENTER_NORMAL
        }
    }

    /// Entry code of the space anchored at `(x, y)` (blocked when it leaves the map).
    fn enter(&self, x: i32, y: i32) -> u8 {
        if x < 0 || y < 0 || x + self.n > self.width || y + self.n > self.height {
            return ENTER_BLOCKED;
        }
        if self.n == 1 {
            return self.square_code(x, y);
        }
        let cached = &self.enter[self.idx(x, y)];
        if cached.get() != ENTER_UNKNOWN {
            return cached.get();
        }
        let mut code = self.space_code(x, y, self.n);
        // Walls leave no room for the whole space: a creature may squeeze through a space one
        // size smaller (a Large ogre through a 5-ft gap), never two.
        if code == ENTER_BLOCKED && self.walled(x, y, self.n) {
            code = match self.space_code(x, y, self.n - 1) {
                ENTER_NORMAL => ENTER_SQUEEZE,
                ENTER_DOUBLE => ENTER_SQUEEZE_DOUBLE,
                _ => ENTER_BLOCKED,
            };
        }
        cached.set(code);
        code
    }

    /// The entry code of the `n`×`n` space anchored at `(x, y)` (within the map).
    fn space_code(&self, x: i32, y: i32, n: i32) -> u8 {
        let mut code = ENTER_NORMAL;
        for yy in y..y + n {
            for xx in x..x + n {
                match self.square_code(xx, yy) {
                    ENTER_BLOCKED => return ENTER_BLOCKED,
                    c => code = code.max(c),
                }
            }
        }
        code
    }

    /// Whether the `n`×`n` space at `(x, y)` is kept out by walls or obstacles only (not by a
    /// creature): what squeezing can get around.
    fn walled(&self, x: i32, y: i32, n: i32) -> bool {
        (y..y + n).any(|yy| (x..x + n).any(|xx| self.map.flags(xx, yy) & F_BLOCK_MOVE != 0))
            && (y..y + n).all(|yy| (x..x + n).all(|xx| self.occ(xx, yy) & OCC_HOSTILE_WALL == 0))
    }

    /// Whether the mover may end its move with its space anchored at `(x, y)`.
    fn can_stop(&self, x: i32, y: i32) -> bool {
        self.enter(x, y) != ENTER_BLOCKED
            && (y..y + self.n)
                .all(|yy| (x..x + self.n).all(|xx| self.occ(xx, yy) & OCC_NO_STOP == 0))
    }

    fn ground(&self, x: i32, y: i32) -> i32 {
        self.ground.as_ref().map_or(0, |g| g[self.idx(x, y)])
    }

    fn successors(&self, node: Node) -> impl Iterator<Item = (Node, u32)> + '_ {
        let (x, y) = (i32::from(node.x), i32::from(node.y));
        STEPS.iter().filter_map(move |&(dx, dy)| {
            let (nx, ny) = (x + dx, y + dy);
            let code = self.enter(nx, ny);
            if code == ENTER_BLOCKED {
                return None;
            }
            let diagonal = dx != 0 && dy != 0;
            if diagonal
                && self.n == 1
                && self.map.flags(nx, y) & F_BLOCK_MOVE != 0
                && self.map.flags(x, ny) & F_BLOCK_MOVE != 0
            {
                return None; // no squeezing through a diagonal pinch
            }
            let (base, odd) = match (diagonal, self.opts.metric) {
                (false, _) => (5, node.odd),
                (true, Metric::Grid5e) => (5, false),
                (true, Metric::GridAlt) => (if node.odd { 10 } else { 5 }, !node.odd),
                (true, Metric::Euclidean) => (7, false),
            };
            let mut cost = match code {
                ENTER_DOUBLE | ENTER_SQUEEZE => 2 * base,
                ENTER_SQUEEZE_DOUBLE => 3 * base,
                _ => base,
            };
            if self.ground.is_some() {
                let rise = self.ground(nx, ny) - self.ground(x, y);
                if rise > 0 {
                    cost += 2 * 5 * rise as u32;
                }
            }
            Some((
                Node {
                    x: nx as i16,
                    y: ny as i16,
                    odd,
                },
                cost,
            ))
        })
    }

    fn heuristic(&self, node: &Node, goal: (i32, i32)) -> u32 {
        let dx = (goal.0 - i32::from(node.x)).unsigned_abs();
        let dy = (goal.1 - i32::from(node.y)).unsigned_abs();
        let (lo, hi) = (dx.min(dy), dx.max(dy));
        match self.opts.metric {
            Metric::Grid5e => 5 * hi,
            Metric::GridAlt => 5 * hi + 5 * ((lo + u32::from(node.odd)) / 2),
            Metric::Euclidean => 5 * (hi - lo) + 7 * lo,
        }
    }

    fn position(&self, x: i32, y: i32) -> Position {
        Position::new_3d(
            x,
            y,
            self.flying_z
                .unwrap_or_else(|| self.map.ground_z(Position::new(x, y))),
        )
    }
}

impl BattleMap {
    /// Whether a mover described by `opts` could end its move anchored at `pos`.
    pub fn can_stop_at(&self, pos: Position, opts: &MoveOptions) -> Result<bool> {
        self.check_with_z(pos)?;
        let m = Mover::new(self, pos, opts)?;
        Ok(m.can_stop(pos.x, pos.y))
    }

    /// The cheapest path from `from` to `to` (A*), or `None` when no route exists. Errors when
    /// either end is off the map or the mover could never stop at `to` (wall, occupied), naming
    /// the reason.
    pub fn find_path(
        &self,
        from: Position,
        to: Position,
        opts: &MoveOptions,
    ) -> Result<Option<Path>> {
        self.check_with_z(from)?;
        self.check(to)?;
        let m = Mover::new(self, from, opts)?;
        if !m.can_stop(to.x, to.y) {
            return Err(self.stop_error(&m, to));
        }
        let start = Node {
            x: from.x as i16,
            y: from.y as i16,
            odd: false,
        };
        let goal = (to.x, to.y);
        let found = astar(
            &start,
            |n| m.successors(*n),
            |n| m.heuristic(n, goal),
            |n| (i32::from(n.x), i32::from(n.y)) == goal,
        );
        let Some((nodes, cost)) = found else {
            return Ok(None);
        };
        let mut squares = Vec::with_capacity(nodes.len());
        let mut step_costs_ft = Vec::with_capacity(nodes.len().saturating_sub(1));
        for (i, n) in nodes.iter().enumerate() {
            squares.push(m.position(i32::from(n.x), i32::from(n.y)));
            if i > 0 {
                let prev = &nodes[i - 1];
                let c = m
                    .successors(*prev)
                    .find(|(s, _)| s == n)
                    .map(|(_, c)| c)
                    .unwrap_or(0);
                step_costs_ft.push(c);
            }
        }
        squares[0] = from;
        debug_assert_eq!(step_costs_ft.iter().sum::<u32>(), cost);
        Ok(Some(Path {
            squares,
            step_costs_ft,
            cost_ft: cost,
        }))
    }

    fn stop_error(&self, m: &Mover<'_>, to: Position) -> GridError {
        let n = m.n;
        for yy in to.y..to.y + n {
            for xx in to.x..to.x + n {
                let q = Position::new(xx, yy);
                if !self.contains(q) {
                    return GridError::FootprintOffMap {
                        what: "the mover".into(),
                        pos: to,
                        w: n as u32,
                        h: n as u32,
                        width: self.width(),
                        height: self.height(),
                    };
                }
                if self.flags(xx, yy) & F_BLOCK_MOVE != 0 {
                    return GridError::Blocked {
                        action: "end a move".into(),
                        pos: q,
                        reason: self.describe_blocker(q),
                    };
                }
                if m.occ(xx, yy) & (OCC_NO_STOP | OCC_HOSTILE_WALL) != 0 {
                    let who = self
                        .creatures_at(q)
                        .map(|c| c.id.clone())
                        .find(|id| Some(id) != m.opts.mover.as_ref())
                        .unwrap_or_default();
                    return GridError::Occupied {
                        action: "end a move".into(),
                        pos: q,
                        occupant: who,
                    };
                }
            }
        }
        GridError::Invalid(format!("cannot end a move at {to}"))
    }

    /// Every square the mover can end its move on within `movement_ft`, with the cheapest cost
    /// in feet (Dijkstra), sorted by cost then row-major. The start is included at 0 ft.
    pub fn reach(
        &self,
        from: Position,
        movement_ft: u32,
        opts: &MoveOptions,
    ) -> Result<Vec<(Position, u32)>> {
        self.check_with_z(from)?;
        let m = Mover::new(self, from, opts)?;
        let start = Node {
            x: from.x as i16,
            y: from.y as i16,
            odd: false,
        };
        let mut seen = HashSet::new();
        let mut out = Vec::new();
        for item in dijkstra_reach(&start, |n| m.successors(*n)) {
            if item.total_cost > movement_ft {
                break;
            }
            let (x, y) = (i32::from(item.node.x), i32::from(item.node.y));
            if seen.insert((x, y)) && ((x, y) == (from.x, from.y) || m.can_stop(x, y)) {
                let pos = if (x, y) == (from.x, from.y) {
                    from
                } else {
                    m.position(x, y)
                };
                out.push((pos, item.total_cost));
            }
        }
        out.sort_by_key(|(p, c)| (*c, p.y, p.x));
        Ok(out)
    }

    /// Which hostiles' reach the mover (by id, for its size) leaves while following `path`
    /// (start first), in path order; each hostile is reported once, at the first place the mover
    /// leaves its reach. Reach is measured between the nearest squares of the two spaces under
    /// `metric`, elevation included.
    pub fn opportunity_attack_risks(
        &self,
        path: &[Position],
        mover: &str,
        hostiles: &[Threat],
        metric: Metric,
    ) -> Result<Vec<OpportunityRisk>> {
        let size = self.require_creature(mover)?.size;
        let mut out: Vec<OpportunityRisk> = Vec::new();
        for t in hostiles {
            let h = self.require_creature(&t.id)?;
            let in_reach = |p: Position| {
                footprint_distance_ft(p, size, h.position, h.size, metric) <= t.reach_ft
            };
            for (i, w) in path.windows(2).enumerate() {
                if in_reach(w[0]) && !in_reach(w[1]) {
                    out.push(OpportunityRisk {
                        hostile_id: t.id.clone(),
                        step: i + 1,
                        from: w[0],
                        to: w[1],
                    });
                    break;
                }
            }
        }
        out.sort_by_key(|r| r.step);
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::{DoorState, Terrain};
    use proptest::prelude::*;

    fn p(x: i32, y: i32) -> Position {
        Position::new(x, y)
    }

    fn opts(metric: Metric) -> MoveOptions {
        MoveOptions {
            metric,
            ..Default::default()
        }
    }

    #[test]
    fn straight_and_diagonal_costs() {
        let m = BattleMap::new(20, 20).unwrap();
        let path = m
            .find_path(p(0, 0), p(4, 4), &opts(Metric::Grid5e))
            .unwrap()
            .unwrap();
        assert_eq!(path.cost_ft, 20);
        let path = m
            .find_path(p(0, 0), p(4, 4), &opts(Metric::GridAlt))
            .unwrap()
            .unwrap();
        assert_eq!(path.cost_ft, 30);
        assert_eq!(path.step_costs_ft.iter().sum::<u32>(), 30);
        let path = m
            .find_path(p(0, 0), p(3, 3), &opts(Metric::GridAlt))
            .unwrap()
            .unwrap();
        assert_eq!(path.cost_ft, 20);
        assert_eq!(
            m.find_path(p(0, 0), p(6, 2), &opts(Metric::GridAlt))
                .unwrap()
                .unwrap()
                .cost_ft,
            35
        );
        assert_eq!(
            m.find_path(p(0, 0), p(3, 3), &opts(Metric::Euclidean))
                .unwrap()
                .unwrap()
                .cost_ft,
            21
        );
        assert_eq!(
            m.find_path(p(2, 2), p(2, 2), &opts(Metric::Grid5e))
                .unwrap()
                .unwrap()
                .squares,
            vec![p(2, 2)]
        );
    }

    #[test]
    fn walls_doors_and_difficult_terrain() {
        let mut m = BattleMap::new(10, 10).unwrap();
        for y in 0..9 {
            m.set_terrain(p(5, y), Terrain::Wall).unwrap();
        }
        let path = m
            .find_path(p(0, 0), p(9, 0), &opts(Metric::Grid5e))
            .unwrap()
            .unwrap();
        assert!(
            path.squares.iter().any(|q| q.y == 9),
            "goes around the wall"
        );
        m.set_terrain(p(5, 4), Terrain::Open).unwrap();
        m.set_door(p(5, 4), DoorState::Locked).unwrap();
        assert!(
            path.cost_ft
                <= m.find_path(p(0, 0), p(9, 0), &opts(Metric::Grid5e))
                    .unwrap()
                    .unwrap()
                    .cost_ft
        );
        m.set_door(p(5, 4), DoorState::Open).unwrap();
        let through = m
            .find_path(p(0, 4), p(9, 4), &opts(Metric::Grid5e))
            .unwrap()
            .unwrap();
        assert_eq!(through.cost_ft, 45);
        m.fill_terrain(p(6, 0), p(6, 9), Terrain::Difficult)
            .unwrap();
        let rough = m
            .find_path(p(0, 4), p(9, 4), &opts(Metric::Grid5e))
            .unwrap()
            .unwrap();
        assert_eq!(rough.cost_ft, 50);
        assert_eq!(rough.step_costs_ft.iter().filter(|&&c| c == 10).count(), 1);
        m.fill_terrain(p(7, 0), p(7, 9), Terrain::Water).unwrap();
        assert_eq!(
            m.find_path(p(0, 4), p(7, 4), &opts(Metric::Grid5e))
                .unwrap()
                .unwrap()
                .cost_ft,
            45
        );
        let swimmer = MoveOptions {
            swim_speed: true,
            ..Default::default()
        };
        assert_eq!(
            m.find_path(p(0, 4), p(7, 4), &swimmer)
                .unwrap()
                .unwrap()
                .cost_ft,
            40
        );
        let e = m
            .find_path(p(0, 0), p(5, 0), &opts(Metric::Grid5e))
            .unwrap_err()
            .to_string();
        assert!(e.contains("the square is a wall"), "{e}");
        // Sealed off completely: no path.
        m.set_door(p(5, 4), DoorState::Closed).unwrap();
        m.set_terrain(p(5, 9), Terrain::Wall).unwrap();
        assert_eq!(
            m.find_path(p(0, 0), p(9, 0), &opts(Metric::Grid5e))
                .unwrap(),
            None
        );
    }

    #[test]
    fn a_large_creature_squeezes_through_a_5_ft_gap_at_double_cost_and_a_huge_one_cannot() {
        // A wall down column 6 with one gap at (6, 5).
        let mut m = BattleMap::new(14, 10).unwrap();
        for y in 0..10 {
            if y != 5 {
                m.set_terrain(Position::new(6, y), crate::Terrain::Wall)
                    .unwrap();
            }
        }
        m.place_creature("ogre", Position::new(2, 4), Size::Large)
            .unwrap();
        let opts = MoveOptions {
            mover: Some("ogre".into()),
            ..Default::default()
        };
        let p = m
            .find_path(Position::new(2, 4), Position::new(9, 4), &opts)
            .unwrap()
            .expect("squeezes through");
        // Every anchor whose 2×2 space overlaps the wall costs 10; the rest 5.
        let squeezed: Vec<u32> = p
            .squares
            .iter()
            .skip(1)
            .zip(&p.step_costs_ft)
            .map(|(q, c)| {
                let walled = (q.y..q.y + 2).any(|y| (q.x..q.x + 2).any(|x| x == 6 && y != 5));
                assert_eq!(*c, if walled { 10 } else { 5 }, "{q}");
                *c
            })
            .collect();
        assert!(squeezed.contains(&10));
        assert!(p.squares.iter().any(|q| q.x == 6 && q.y == 5));
        // It may stop squeezed in the gap, and is then squeezing.
        m.move_creature("ogre", Position::new(6, 5)).unwrap();
        assert!(m.is_squeezing("ogre"));
        m.move_creature("ogre", Position::new(8, 4)).unwrap();
        assert!(!m.is_squeezing("ogre"));
        // Huge (3×3) would need a 10-ft gap: two sizes smaller stays closed.
        let huge = MoveOptions {
            size: Some(Size::Huge),
            ..Default::default()
        };
        assert_eq!(
            m.find_path(Position::new(1, 3), Position::new(10, 3), &huge)
                .unwrap(),
            None
        );
    }

    #[test]
    fn no_squeezing_through_diagonal_pinch() {
        let mut m = BattleMap::new(3, 3).unwrap();
        m.set_terrain(p(1, 0), Terrain::Wall).unwrap();
        m.set_terrain(p(0, 1), Terrain::Wall).unwrap();
        m.set_terrain(p(2, 1), Terrain::Wall).unwrap();
        m.set_terrain(p(1, 2), Terrain::Wall).unwrap();
        assert_eq!(
            m.find_path(p(0, 0), p(1, 1), &opts(Metric::Grid5e))
                .unwrap(),
            None
        );
    }

    #[test]
    fn creatures_allies_and_hostiles() {
        let mut m = BattleMap::new(10, 3).unwrap();
        for x in 0..10 {
            m.set_terrain(p(x, 0), Terrain::Wall).unwrap();
            m.set_terrain(p(x, 2), Terrain::Wall).unwrap();
        }
        m.place_creature("hero", p(0, 1), Size::Medium).unwrap();
        m.place_creature("ally", p(4, 1), Size::Medium).unwrap();
        let mut o = MoveOptions {
            mover: Some("hero".into()),
            ..Default::default()
        };
        let path = m.find_path(p(0, 1), p(8, 1), &o).unwrap().unwrap();
        assert_eq!(path.cost_ft, 45, "an ally's space is difficult terrain");
        assert!(
            m.find_path(p(0, 1), p(4, 1), &o)
                .unwrap_err()
                .to_string()
                .contains("occupied by 'ally'")
        );
        o.hostile_ids = vec!["ally".into()];
        assert_eq!(
            m.find_path(p(0, 1), p(8, 1), &o).unwrap(),
            None,
            "a hostile blocks the corridor"
        );
        m.set_creature_size("ally", Size::Tiny).unwrap();
        assert!(
            m.find_path(p(0, 1), p(8, 1), &o).unwrap().is_some(),
            "two sizes smaller can be passed"
        );
        let r = m.reach(p(0, 1), 30, &o).unwrap();
        assert!(
            r.iter().any(|(q, _)| *q == p(4, 1)),
            "tiny creatures may share a square"
        );
    }

    #[test]
    fn large_movers_need_room() {
        let mut m = BattleMap::new(10, 10).unwrap();
        for y in 0..10 {
            if y != 5 {
                m.set_terrain(p(5, y), Terrain::Wall).unwrap();
            }
        }
        let big = MoveOptions {
            size: Some(Size::Large),
            ..Default::default()
        };
        // A 1-square gap: squeezed through, the squeezed steps at double cost.
        let squeezed = m.find_path(p(0, 0), p(8, 0), &big).unwrap().unwrap();
        assert_eq!(squeezed.cost_ft, 60);
        let huge = MoveOptions {
            size: Some(Size::Huge),
            ..Default::default()
        };
        assert_eq!(
            m.find_path(p(0, 0), p(7, 0), &huge).unwrap(),
            None,
            "a 1-square gap is two sizes too narrow for a huge creature"
        );
        m.set_terrain(p(5, 6), Terrain::Open).unwrap();
        let path = m.find_path(p(0, 0), p(8, 0), &big).unwrap().unwrap();
        assert!(path.squares.iter().any(|q| *q == p(4, 5) || *q == p(5, 5)));
        assert!(
            m.find_path(p(0, 0), p(9, 9), &big).is_err(),
            "space would leave the map"
        );
    }

    #[test]
    fn reach_respects_budget_and_costs() {
        let mut m = BattleMap::new(20, 20).unwrap();
        let r = m.reach(p(10, 10), 5, &opts(Metric::Grid5e)).unwrap();
        assert_eq!(r.len(), 9);
        assert_eq!(r[0], (p(10, 10), 0));
        let r = m.reach(p(10, 10), 30, &opts(Metric::Grid5e)).unwrap();
        assert_eq!(r.len(), 13 * 13);
        let r = m.reach(p(10, 10), 10, &opts(Metric::GridAlt)).unwrap();
        assert_eq!(r.len(), 5 * 5 - 4, "the far corners cost 15");
        m.set_terrain(p(11, 10), Terrain::Difficult).unwrap();
        let r = m.reach(p(10, 10), 5, &opts(Metric::Grid5e)).unwrap();
        assert_eq!(r.len(), 8);
        assert_eq!(
            m.reach(p(10, 10), 0, &opts(Metric::Grid5e)).unwrap(),
            vec![(p(10, 10), 0)]
        );
    }

    #[test]
    fn climbing_costs_and_flyers() {
        let mut m = BattleMap::new(10, 1).unwrap();
        m.set_elevation_ft(p(3, 0), 10).unwrap();
        let path = m
            .find_path(p(0, 0), p(5, 0), &opts(Metric::Grid5e))
            .unwrap()
            .unwrap();
        assert_eq!(path.step_costs_ft, vec![5, 5, 25, 5, 5]);
        assert_eq!(path.squares[3], Position::new_3d(3, 0, 2));
        let fly = MoveOptions {
            flying: true,
            ..Default::default()
        };
        let path = m
            .find_path(Position::new_3d(0, 0, 4), p(5, 0), &fly)
            .unwrap()
            .unwrap();
        assert_eq!(path.cost_ft, 25);
        assert!(path.squares.iter().all(|q| q.z == 4));
    }

    #[test]
    fn opportunity_attacks_where_reach_is_left() {
        let mut m = BattleMap::new(20, 20).unwrap();
        m.place_creature("rogue", p(5, 5), Size::Medium).unwrap();
        m.place_creature("orc", p(6, 5), Size::Medium).unwrap();
        m.place_creature("troll", p(6, 7), Size::Large).unwrap();
        let path = vec![p(5, 5), p(4, 5), p(3, 5), p(2, 5), p(1, 5)];
        let threats = [
            Threat {
                id: "orc".into(),
                reach_ft: 5,
            },
            Threat {
                id: "troll".into(),
                reach_ft: 10,
            },
        ];
        let r = m
            .opportunity_attack_risks(&path, "rogue", &threats, Metric::Grid5e)
            .unwrap();
        assert_eq!(
            r,
            vec![
                OpportunityRisk {
                    hostile_id: "orc".into(),
                    step: 1,
                    from: p(5, 5),
                    to: p(4, 5)
                },
                OpportunityRisk {
                    hostile_id: "troll".into(),
                    step: 2,
                    from: p(4, 5),
                    to: p(3, 5)
                },
            ]
        );
        // Moving around the orc while staying adjacent provokes nothing from it.
        let around = vec![p(5, 5), p(5, 4), p(6, 4), p(7, 4)];
        let r = m
            .opportunity_attack_risks(&around, "rogue", &threats[..1], Metric::Grid5e)
            .unwrap();
        assert!(r.is_empty());
        assert!(
            m.opportunity_attack_risks(
                &around,
                "rogue",
                &[Threat {
                    id: "x".into(),
                    reach_ft: 5
                }],
                Metric::Grid5e
            )
            .is_err()
        );
    }

    fn metric() -> impl Strategy<Value = Metric> {
        prop_oneof![
            Just(Metric::Grid5e),
            Just(Metric::GridAlt),
            Just(Metric::Euclidean)
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn paths_avoid_walls_and_costs_add_up(
            walls in proptest::collection::vec((0i32..15, 0i32..15), 0..60),
            rough in proptest::collection::vec((0i32..15, 0i32..15), 0..30),
            sx in 0i32..15, sy in 0i32..15, gx in 0i32..15, gy in 0i32..15,
            metric in metric(),
        ) {
            let mut m = BattleMap::new(15, 15).unwrap();
            for &(x, y) in &rough {
                m.set_terrain(p(x, y), Terrain::Difficult).unwrap();
            }
            for &(x, y) in &walls {
                if (x, y) != (sx, sy) && (x, y) != (gx, gy) {
                    m.set_terrain(p(x, y), Terrain::Wall).unwrap();
                }
            }
            let o = opts(metric);
            if let Some(path) = m.find_path(p(sx, sy), p(gx, gy), &o).unwrap() {
                prop_assert_eq!(path.squares.first().copied(), Some(p(sx, sy)));
                prop_assert_eq!(path.squares.last().copied(), Some(p(gx, gy)));
                prop_assert!(path.squares.iter().all(|q| !m.blocks_movement(*q)));
                prop_assert_eq!(path.step_costs_ft.iter().sum::<u32>(), path.cost_ft);
                prop_assert_eq!(path.step_costs_ft.len() + 1, path.squares.len());
                for w in path.squares.windows(2) {
                    prop_assert!((w[0].x - w[1].x).abs() <= 1 && (w[0].y - w[1].y).abs() <= 1);
                }
                // Never cheaper than the open-ground distance, and Dijkstra agrees with A*.
                let floor_metric = if metric == Metric::Euclidean { Metric::Grid5e } else { metric };
                let floor = crate::geometry::distance_ft(p(sx, sy), p(gx, gy), floor_metric);
                prop_assert!(path.cost_ft >= floor);
                let r = m.reach(p(sx, sy), path.cost_ft, &o).unwrap();
                prop_assert_eq!(r.iter().find(|(q, _)| *q == p(gx, gy)).map(|(_, c)| *c), Some(path.cost_ft));
            } else {
                let r = m.reach(p(sx, sy), 10_000, &o).unwrap();
                prop_assert!(r.iter().all(|(q, _)| *q != p(gx, gy)));
            }
        }
    }
}
