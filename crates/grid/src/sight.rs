//! Line of sight, lighting and senses.
//!
//! **Line of sight** is traced from the centre of one square to the centre of another with an
//! exact supercover traversal: every square whose interior the line crosses is checked. When the
//! line passes *exactly* through a grid corner (e.g. a perfect diagonal) it touches the two
//! squares beside that corner without entering them; the tie is broken permissively: it is
//! blocked there only if **both** squares block (a single wall corner is grazed, a diagonal
//! "pinch" of two walls seals the gap). The endpoints' own squares never block. Walls, obstacles,
//! shut doors and sight-blocking props block; creatures only when asked. Walls are treated as
//! full height: elevation does not let a line pass over them.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};

use crate::error::Result;
use crate::geometry::{Metric, Position, Touch, footprint, footprint_distance_ft, trace};
use crate::map::{BattleMap, F_BLOCK_SIGHT, Light};

/// Options for line-of-sight and visibility queries.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", default)]
pub struct SightOptions {
    /// Whether creatures' squares block the line (those at either end never do).
    pub creatures_block: bool,
    /// Metric used to compare distances with sense ranges.
    pub metric: Metric,
}

/// Result of a line-of-sight trace.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LineOfSight {
    /// True when nothing blocks the line.
    pub clear: bool,
    /// The first blocking square along the line (for a sealed corner, the square on the x side).
    pub blocked_at: Option<Position>,
    /// Every square the line touches, in order, endpoints included (supercover: both squares at
    /// an exact corner).
    pub squares: Vec<Position>,
}

/// A creature's special senses; ranges in feet (0 = lacks the sense).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", default)]
pub struct Senses {
    /// Darkvision range: dim light counts as bright, darkness as dim.
    pub darkvision_ft: u32,
    /// Blindsight range: perceives without sight (still needs an unblocked line).
    pub blindsight_ft: u32,
    /// Tremorsense range: pinpoints creatures touching the ground, through walls, without seeing.
    pub tremorsense_ft: u32,
    /// Truesight range: sees in normal and magical darkness.
    pub truesight_ft: u32,
    /// Whether the viewer is blinded (only blindsight and tremorsense work).
    pub blinded: bool,
}

/// How well a target can be seen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum Visibility {
    /// Seen clearly (or perceived by blindsight/truesight).
    Clear,
    /// Lightly obscured (dim light, or darkness within darkvision): disadvantage on Wisdom
    /// (Perception) checks that rely on sight.
    LightlyObscured,
    /// Heavily obscured (darkness without darkvision, magical darkness): effectively blinded
    /// toward the target.
    HeavilyObscured,
    /// No line of sight (wall, shut door, …).
    Blocked,
}

/// Which sense perceives the target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub enum Sense {
    /// Normal sight.
    Sight,
    /// Darkvision.
    Darkvision,
    /// Blindsight.
    Blindsight,
    /// Tremorsense (location only; the target is not seen).
    Tremorsense,
    /// Truesight.
    Truesight,
}

/// Full answer of a visibility query.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct VisibilityReport {
    /// How well the target is seen.
    pub visibility: Visibility,
    /// The sense that perceives it, `None` when it is not perceived at all.
    pub sense: Option<Sense>,
    /// Whether an unblocked line exists.
    pub line_of_sight: bool,
    /// First blocking square when there is no line of sight.
    pub blocked_at: Option<Position>,
    /// Light at the target's square.
    pub light: Light,
    /// Distance in feet under the chosen metric.
    pub distance_ft: u32,
}

impl VisibilityReport {
    /// Whether the viewer can see the target (clear or lightly obscured).
    pub fn can_see(&self) -> bool {
        matches!(
            self.visibility,
            Visibility::Clear | Visibility::LightlyObscured
        )
    }
}

pub(crate) fn centre2(p: Position) -> (i32, i32) {
    (2 * p.x + 1, 2 * p.y + 1)
}

impl BattleMap {
    /// Squares occupied by creatures (for `creatures_block`), except those covering `except`.
    pub(crate) fn creature_squares(
        &self,
        except_ids: &[&str],
        except_squares: &[Position],
    ) -> HashSet<(i32, i32)> {
        let mut set = HashSet::new();
        for c in self.creatures() {
            if except_ids.contains(&c.id.as_str())
                || c.squares()
                    .any(|q| except_squares.iter().any(|e| e.x == q.x && e.y == q.y))
            {
                continue;
            }
            set.extend(c.squares().map(|q| (q.x, q.y)));
        }
        set
    }

    /// First square blocking sight on the centre-to-centre line from `a` to `b` (endpoints never
    /// block); `None` when clear.
    pub(crate) fn sight_block(
        &self,
        a: Position,
        b: Position,
        occ: Option<&HashSet<(i32, i32)>>,
    ) -> Option<Position> {
        let blocks = |x: i32, y: i32| {
            (x, y) != (a.x, a.y)
                && (x, y) != (b.x, b.y)
                && (self.flags(x, y) & F_BLOCK_SIGHT != 0
                    || occ.is_some_and(|o| o.contains(&(x, y))))
        };
        let mut hit = None;
        trace(centre2(a), centre2(b), |t| match t {
            Touch::Cell(x, y) => {
                if blocks(x, y) {
                    hit = Some(Position::new(x, y));
                }
                hit.is_some()
            }
            Touch::Between(p, q) => {
                if blocks(p.0, p.1) && blocks(q.0, q.1) {
                    hit = Some(Position::new(p.0, p.1));
                }
                hit.is_some()
            }
        });
        hit
    }

    /// First heavily obscured square on the line from `a` to `b`, the endpoints included (a
    /// creature inside fog neither sees out nor is seen); `None` when the line is clear of it.
    pub(crate) fn obscured_block(&self, a: Position, b: Position) -> Option<Position> {
        if self.obscured(a) {
            return Some(a);
        }
        let mut hit = None;
        trace(centre2(a), centre2(b), |t| {
            let cells: &[(i32, i32)] = match &t {
                Touch::Cell(x, y) => &[(*x, *y)],
                Touch::Between(p, q) => &[*p, *q],
            };
            // Between two squares the line is hidden only when both sides are.
            if cells
                .iter()
                .all(|&(x, y)| self.obscured(Position::new(x, y)))
            {
                hit = Some(Position::new(cells[0].0, cells[0].1));
            }
            hit.is_some()
        });
        hit.or_else(|| self.obscured(b).then_some(b))
    }

    /// Line of sight between two squares (centre to centre). See the module docs for the
    /// corner tie-break.
    pub fn line_of_sight(
        &self,
        from: Position,
        to: Position,
        opts: &SightOptions,
    ) -> Result<LineOfSight> {
        self.check(from)?;
        self.check(to)?;
        let occ = opts
            .creatures_block
            .then(|| self.creature_squares(&[], &[from, to]));
        Ok(self.los_report(from, to, occ.as_ref()))
    }

    fn los_report(
        &self,
        from: Position,
        to: Position,
        occ: Option<&HashSet<(i32, i32)>>,
    ) -> LineOfSight {
        let blocked_at = self
            .sight_block(from, to, occ)
            .or_else(|| self.obscured_block(from, to));
        let mut squares = Vec::new();
        trace(centre2(from), centre2(to), |t| {
            match t {
                Touch::Cell(x, y) => squares.push(Position::new(x, y)),
                Touch::Between(p, q) => {
                    squares.push(Position::new(p.0, p.1));
                    squares.push(Position::new(q.0, q.1));
                }
            }
            false
        });
        LineOfSight {
            clear: blocked_at.is_none(),
            blocked_at,
            squares,
        }
    }

    /// Line of sight between two creatures: clear if any square of the viewer sees any square
    /// of the target. Other creatures block only with `creatures_block`.
    pub fn creature_line_of_sight(
        &self,
        viewer: &str,
        target: &str,
        opts: &SightOptions,
    ) -> Result<LineOfSight> {
        let v = self.require_creature(viewer)?;
        let t = self.require_creature(target)?;
        let occ = opts
            .creatures_block
            .then(|| self.creature_squares(&[viewer, target], &[]));
        let mut first = None;
        for a in v.squares() {
            for b in t.squares() {
                let r = self.los_report(a, b, occ.as_ref());
                if r.clear {
                    return Ok(r);
                }
                first.get_or_insert(r);
            }
        }
        Ok(first.unwrap_or(LineOfSight {
            clear: false,
            blocked_at: None,
            squares: Vec::new(),
        }))
    }

    /// What a viewer at `from` with `senses` perceives of the square `to`: line of sight, the
    /// target square's light, darkvision/truesight/blindsight ranges, and tremorsense (which
    /// needs no line of sight but only finds targets on the ground).
    pub fn visibility(
        &self,
        from: Position,
        to: Position,
        senses: &Senses,
        opts: &SightOptions,
    ) -> Result<VisibilityReport> {
        self.check(from)?;
        self.check(to)?;
        let occ = opts
            .creatures_block
            .then(|| self.creature_squares(&[], &[from, to]));
        let d = crate::geometry::distance_ft(from, to, opts.metric);
        Ok(self.judge(from, to, d, senses, occ.as_ref()))
    }

    /// [`BattleMap::visibility`] between two creatures, using the best pair of their squares and
    /// the distance between their nearest squares.
    pub fn creature_visibility(
        &self,
        viewer: &str,
        target: &str,
        senses: &Senses,
        opts: &SightOptions,
    ) -> Result<VisibilityReport> {
        let v = self.require_creature(viewer)?;
        let t = self.require_creature(target)?;
        let occ = opts
            .creatures_block
            .then(|| self.creature_squares(&[viewer, target], &[]));
        let d = footprint_distance_ft(v.position, v.size, t.position, t.size, opts.metric);
        let mut best: Option<VisibilityReport> = None;
        for a in footprint(v.position, v.size) {
            for b in footprint(t.position, t.size) {
                let r = self.judge(a, b, d, senses, occ.as_ref());
                let better = best.as_ref().is_none_or(|cur| {
                    (r.visibility, r.sense.is_none()) < (cur.visibility, cur.sense.is_none())
                });
                if better {
                    if r.visibility == Visibility::Clear {
                        return Ok(r);
                    }
                    best = Some(r);
                }
            }
        }
        best.ok_or_else(|| crate::error::GridError::Invalid("creature has no squares".into()))
    }

    fn judge(
        &self,
        from: Position,
        to: Position,
        d: u32,
        s: &Senses,
        occ: Option<&HashSet<(i32, i32)>>,
    ) -> VisibilityReport {
        let walled = self.sight_block(from, to, occ);
        let fog = walled
            .is_none()
            .then(|| self.obscured_block(from, to))
            .flatten();
        let blocked_at = walled.or(fog);
        let los = walled.is_none();
        let light = self.light_at(to);
        let in_range = |r: u32| r > 0 && d <= r;
        let (mut vis, mut sense) = if !los {
            (Visibility::Blocked, None)
        } else if s.blinded || fog.is_some() {
            (Visibility::HeavilyObscured, None)
        } else if in_range(s.truesight_ft) {
            (Visibility::Clear, Some(Sense::Truesight))
        } else {
            match light {
                Light::Bright => (Visibility::Clear, Some(Sense::Sight)),
                Light::Dim if in_range(s.darkvision_ft) => {
                    (Visibility::Clear, Some(Sense::Darkvision))
                }
                Light::Dim => (Visibility::LightlyObscured, Some(Sense::Sight)),
                Light::Darkness if in_range(s.darkvision_ft) => {
                    (Visibility::LightlyObscured, Some(Sense::Darkvision))
                }
                Light::Darkness | Light::MagicalDarkness => (Visibility::HeavilyObscured, None),
            }
        };
        if los && vis != Visibility::Clear && in_range(s.blindsight_ft) {
            vis = Visibility::Clear;
            sense = Some(Sense::Blindsight);
        }
        if sense.is_none()
            && in_range(s.tremorsense_ft)
            && to.z <= self.ground_z(to)
            && from.z <= self.ground_z(from)
        {
            sense = Some(Sense::Tremorsense);
        }
        VisibilityReport {
            visibility: vis,
            sense,
            line_of_sight: los,
            blocked_at,
            light,
            distance_ft: d,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::{DoorState, Prop, Terrain};
    use tabletop_rules::Size;

    fn p(x: i32, y: i32) -> Position {
        Position::new(x, y)
    }

    #[test]
    fn walls_and_doors_block_sight() {
        let mut m = BattleMap::new(10, 10).unwrap();
        m.set_terrain(p(3, 2), Terrain::Wall).unwrap();
        let o = SightOptions::default();
        let r = m.line_of_sight(p(0, 2), p(6, 2), &o).unwrap();
        assert!(!r.clear);
        assert_eq!(r.blocked_at, Some(p(3, 2)));
        assert!(m.line_of_sight(p(0, 1), p(6, 1), &o).unwrap().clear);
        m.set_door(p(4, 5), DoorState::Closed).unwrap();
        assert!(!m.line_of_sight(p(0, 5), p(9, 5), &o).unwrap().clear);
        m.set_door(p(4, 5), DoorState::Open).unwrap();
        assert!(m.line_of_sight(p(0, 5), p(9, 5), &o).unwrap().clear);
        let mut curtain = Prop::new("curtain", "curtain", p(5, 7));
        curtain.blocks_sight = true;
        m.place_prop(curtain).unwrap();
        assert_eq!(
            m.line_of_sight(p(0, 7), p(9, 7), &o).unwrap().blocked_at,
            Some(p(5, 7))
        );
        m.set_terrain(p(1, 8), Terrain::LOW_WALL).unwrap();
        assert!(m.line_of_sight(p(0, 8), p(9, 8), &o).unwrap().clear);
        assert!(
            m.line_of_sight(p(0, 0), p(20, 0), &o)
                .unwrap_err()
                .to_string()
                .contains("off the 10×10 map")
        );
    }

    #[test]
    fn exact_corners_block_only_when_both_sides_do() {
        let mut m = BattleMap::new(10, 10).unwrap();
        let o = SightOptions::default();
        m.set_terrain(p(1, 0), Terrain::Wall).unwrap();
        let r = m.line_of_sight(p(0, 0), p(3, 3), &o).unwrap();
        assert!(r.clear, "a single wall corner is grazed");
        assert!(
            r.squares.contains(&p(1, 0)) && r.squares.contains(&p(0, 1)),
            "supercover lists both"
        );
        m.set_terrain(p(0, 1), Terrain::Wall).unwrap();
        let r = m.line_of_sight(p(0, 0), p(3, 3), &o).unwrap();
        assert_eq!(
            r.blocked_at,
            Some(p(1, 0)),
            "a diagonal pinch seals the gap"
        );
    }

    #[test]
    fn creatures_block_only_when_asked() {
        let mut m = BattleMap::new(10, 10).unwrap();
        m.place_creature("a", p(0, 0), Size::Medium).unwrap();
        m.place_creature("ogre", p(3, 0), Size::Large).unwrap();
        m.place_creature("b", p(8, 0), Size::Medium).unwrap();
        assert!(
            m.creature_line_of_sight("a", "b", &SightOptions::default())
                .unwrap()
                .clear
        );
        let o = SightOptions {
            creatures_block: true,
            ..Default::default()
        };
        let r = m.creature_line_of_sight("a", "b", &o).unwrap();
        assert_eq!(r.blocked_at, Some(p(3, 0)));
        // The viewer and target never block themselves.
        assert!(m.creature_line_of_sight("a", "ogre", &o).unwrap().clear);
    }

    #[test]
    fn light_and_senses() {
        let mut m = BattleMap::new(30, 10).unwrap();
        m.set_default_light(Light::Darkness);
        m.set_light(p(2, 0), Some(Light::Bright)).unwrap();
        m.set_light(p(3, 0), Some(Light::Dim)).unwrap();
        m.set_light(p(4, 0), Some(Light::MagicalDarkness)).unwrap();
        let o = SightOptions::default();
        let human = Senses::default();
        let elf = Senses {
            darkvision_ft: 60,
            ..Default::default()
        };
        let v = |t: Position, s: &Senses| m.visibility(p(0, 0), t, s, &o).unwrap();
        assert_eq!(v(p(2, 0), &human).visibility, Visibility::Clear);
        assert_eq!(v(p(3, 0), &human).visibility, Visibility::LightlyObscured);
        assert_eq!(v(p(5, 0), &human).visibility, Visibility::HeavilyObscured);
        assert!(!v(p(5, 0), &human).can_see());
        assert_eq!(v(p(3, 0), &elf).visibility, Visibility::Clear);
        assert_eq!(v(p(3, 0), &elf).sense, Some(Sense::Darkvision));
        assert_eq!(v(p(5, 0), &elf).visibility, Visibility::LightlyObscured);
        assert_eq!(
            v(p(20, 0), &elf).visibility,
            Visibility::HeavilyObscured,
            "beyond 60 ft"
        );
        assert_eq!(
            v(p(4, 0), &elf).visibility,
            Visibility::HeavilyObscured,
            "magical darkness"
        );
        let devil = Senses {
            truesight_ft: 30,
            ..Default::default()
        };
        assert_eq!(v(p(4, 0), &devil).sense, Some(Sense::Truesight));
        let bat = Senses {
            blindsight_ft: 60,
            blinded: true,
            ..Default::default()
        };
        assert_eq!(v(p(5, 0), &bat).visibility, Visibility::Clear);
        assert_eq!(v(p(5, 0), &bat).sense, Some(Sense::Blindsight));
        m.set_terrain(p(1, 0), Terrain::Wall).unwrap();
        let worm = Senses {
            tremorsense_ft: 60,
            ..Default::default()
        };
        let r = m.visibility(p(0, 0), p(5, 0), &worm, &o).unwrap();
        assert_eq!(
            (r.visibility, r.sense, r.blocked_at),
            (Visibility::Blocked, Some(Sense::Tremorsense), Some(p(1, 0)))
        );
        let r = m
            .visibility(p(0, 0), Position::new_3d(5, 0, 2), &worm, &o)
            .unwrap();
        assert_eq!(r.sense, None, "tremorsense misses flyers");
    }
}
