//! Cover by the DMG's corner-to-corner grid rule.
//!
//! Pick a corner of the attacker's space (or an area's point of origin); trace lines from it to
//! the four corners of one square of the target's space; count the lines that are blocked. The
//! attacker uses the corner (and target square) that gives the **least** cover:
//!
//! | blocked lines | cover |
//! |---|---|
//! | 0 | none |
//! | 1–2 | half (+2 AC and Dexterity saves) |
//! | 3–4 | three-quarters (+5) |
//! | 4, all by total-cover obstacles, and no line of sight | total |
//!
//! **What blocks a line.** Walls, obstacles, shut doors and sight-blocking props are total-cover
//! obstacles; low walls give half cover and props give what they declare. With
//! `creatures_give_cover`, other creatures' squares count as half-cover obstacles. A line's
//! strength is its strongest obstacle, and the result is capped by the strongest line: 3–4 lines
//! blocked only by low walls or creatures is still half cover; blocked only by a three-quarters
//! prop at most three-quarters. The attacker's and the target's own squares never block.
//!
//! **Edge cases.** Lines run between exact grid points, so they often graze: a line that only
//! touches a blocking square's corner or runs along its edge is **not** blocked, unless the
//! squares on both sides block (running along the seam between two walls, or squeezing through a
//! diagonal pinch of two blocking squares). Consequently an obstacle exactly in line with a
//! medium target gives half cover (the attacker can always sight along its edges), while one on
//! the diagonal gives three-quarters. Walls are full height; elevation is ignored.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};
use tabletop_rules::Size;

use crate::area::AreaOrigin;
use crate::error::{GridError, Result};
use crate::geometry::{Position, Touch, footprint, size_squares, trace};
use crate::map::{BattleMap, Cover};
use crate::sight::centre2;

/// Options for cover queries.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", default)]
pub struct CoverOptions {
    /// Whether other creatures' squares count as (half-cover) obstacles.
    pub creatures_give_cover: bool,
}

/// The cover a target has, with how it was found.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CoverReport {
    /// The degree of cover.
    pub cover: Cover,
    /// AC bonus (`None` = total cover: cannot be targeted).
    pub ac_bonus: Option<i32>,
    /// Dexterity saving throw bonus (`None` = total cover).
    pub dex_save_bonus: Option<i32>,
    /// Lines blocked (0–4) from the chosen corner.
    pub blocked_lines: u8,
    /// The attacker's corner used, as a grid intersection: the top-left corner of this square
    /// (for an area origin at a square centre, that square).
    pub attacker_corner: Position,
    /// The target square whose corners were used.
    pub target_square: Position,
}

/// Strength (0–3) of the obstacles on one line.
fn line_strength(a: (i32, i32), b: (i32, i32), level: &impl Fn(i32, i32) -> u8) -> u8 {
    let mut s = 0u8;
    trace(a, b, |t| {
        let l = match t {
            Touch::Cell(x, y) => level(x, y),
            Touch::Between(p, q) => level(p.0, p.1).min(level(q.0, q.1)),
        };
        s = s.max(l);
        s >= 3
    });
    s
}

impl BattleMap {
    /// Cover of a target (anchored at `target`, of `target_size`) against an attacker anchored
    /// at `attacker` of `attacker_size`. Creatures standing on either space never count.
    pub fn cover(
        &self,
        attacker: Position,
        attacker_size: Size,
        target: Position,
        target_size: Size,
        opts: &CoverOptions,
    ) -> Result<CoverReport> {
        self.check(attacker)?;
        self.check(target)?;
        let n = size_squares(attacker_size);
        let corners: Vec<(i32, i32)> = (0..=n)
            .flat_map(|dy| (0..=n).map(move |dx| (2 * (attacker.x + dx), 2 * (attacker.y + dy))))
            .collect();
        let own: Vec<Position> = footprint(attacker, attacker_size)
            .chain(footprint(target, target_size))
            .collect();
        let occ = opts
            .creatures_give_cover
            .then(|| self.creature_squares(&[], &own));
        self.cover_core(
            &corners,
            &footprint(attacker, attacker_size).collect::<Vec<_>>(),
            target,
            target_size,
            &own,
            occ.as_ref(),
        )
    }

    /// [`BattleMap::cover`] between two creatures on the map, by id.
    pub fn creature_cover(
        &self,
        attacker: &str,
        target: &str,
        opts: &CoverOptions,
    ) -> Result<CoverReport> {
        let a = self.require_creature(attacker)?;
        let t = self.require_creature(target)?;
        if !opts.creatures_give_cover {
            return self.cover(a.position, a.size, t.position, t.size, opts);
        }
        let n = size_squares(a.size);
        let corners: Vec<(i32, i32)> = (0..=n)
            .flat_map(|dy| {
                (0..=n).map(move |dx| (2 * (a.position.x + dx), 2 * (a.position.y + dy)))
            })
            .collect();
        let own: Vec<Position> = a.squares().chain(t.squares()).collect();
        let occ = self.creature_squares(&[attacker, target], &own);
        self.cover_core(
            &corners,
            &a.squares().collect::<Vec<_>>(),
            t.position,
            t.size,
            &own,
            Some(&occ),
        )
    }

    /// Cover of a target against an area of effect's point of origin (for Dexterity saves).
    pub fn cover_from_origin(
        &self,
        origin: AreaOrigin,
        target: Position,
        target_size: Size,
        opts: &CoverOptions,
    ) -> Result<CoverReport> {
        self.check(target)?;
        let (point, mut own, from_squares) = match origin {
            AreaOrigin::Square(p) => {
                self.check(p)?;
                (centre2(p), vec![p], vec![p])
            }
            AreaOrigin::Corner(p) => {
                self.check_corner(p)?;
                let sq: Vec<Position> = [(0, 0), (-1, 0), (0, -1), (-1, -1)]
                    .iter()
                    .map(|&(dx, dy)| p.offset(dx, dy))
                    .filter(|q| self.contains(*q))
                    .collect();
                ((2 * p.x, 2 * p.y), Vec::new(), sq)
            }
        };
        own.extend(footprint(target, target_size));
        let occ = opts
            .creatures_give_cover
            .then(|| self.creature_squares(&[], &own));
        self.cover_core(
            &[point],
            &from_squares,
            target,
            target_size,
            &own,
            occ.as_ref(),
        )
    }

    fn cover_core(
        &self,
        corners: &[(i32, i32)],
        from_squares: &[Position],
        target: Position,
        target_size: Size,
        own: &[Position],
        occ: Option<&HashSet<(i32, i32)>>,
    ) -> Result<CoverReport> {
        let level = |x: i32, y: i32| {
            if own.iter().any(|p| p.x == x && p.y == y) {
                return 0;
            }
            let l = self.cover_level(x, y);
            if occ.is_some_and(|o| o.contains(&(x, y))) {
                l.max(1)
            } else {
                l
            }
        };
        let mut best: Option<(u8, u8, (i32, i32), Position)> = None; // (cover level, blocked, corner, square)
        'search: for &c in corners {
            for sq in footprint(target, target_size) {
                let mut blocked = 0u8;
                let mut strongest = 0u8;
                let mut all_total = true;
                for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                    let s = line_strength(c, (2 * (sq.x + dx), 2 * (sq.y + dy)), &level);
                    if s > 0 {
                        blocked += 1;
                    }
                    strongest = strongest.max(s);
                    all_total &= s >= 3;
                }
                let cover = match blocked {
                    0 => 0,
                    1 | 2 => 1,
                    _ if all_total && blocked == 4 => 3,
                    _ => strongest.min(2),
                };
                if best.is_none_or(|b| (cover, blocked) < (b.0, b.1)) {
                    best = Some((cover, blocked, c, sq));
                    if cover == 0 {
                        break 'search;
                    }
                }
            }
        }
        let Some((mut cover, blocked, c, sq)) = best else {
            return Err(GridError::Invalid(
                "no attacker corner to measure cover from".into(),
            ));
        };
        if cover == 3 {
            let seen = from_squares.iter().any(|&a| {
                footprint(target, target_size).any(|b| self.sight_block(a, b, None).is_none())
            });
            if seen {
                cover = 2;
            }
        }
        let cover = Cover::from_level(cover);
        Ok(CoverReport {
            cover,
            ac_bonus: cover.ac_bonus(),
            dex_save_bonus: cover.dex_save_bonus(),
            blocked_lines: blocked,
            attacker_corner: Position::new(c.0.div_euclid(2), c.1.div_euclid(2)),
            target_square: sq,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::{Prop, Terrain};

    fn p(x: i32, y: i32) -> Position {
        Position::new(x, y)
    }

    fn cover(m: &BattleMap, a: Position, t: Position) -> Cover {
        m.cover(a, Size::Medium, t, Size::Medium, &CoverOptions::default())
            .unwrap()
            .cover
    }

    #[test]
    fn open_ground_gives_no_cover() {
        let m = BattleMap::new(20, 20).unwrap();
        let r = m
            .cover(
                p(0, 0),
                Size::Medium,
                p(7, 3),
                Size::Medium,
                &CoverOptions::default(),
            )
            .unwrap();
        assert_eq!(
            (r.cover, r.blocked_lines, r.ac_bonus),
            (Cover::None, 0, Some(0))
        );
    }

    #[test]
    fn archer_behind_a_low_wall_has_half_cover() {
        let mut m = BattleMap::new(20, 20).unwrap();
        // Archer at (5,5) crouching behind a low wall at (4,5); attacker to the west at (0,5).
        m.set_terrain(p(4, 5), Terrain::LOW_WALL).unwrap();
        let r = m
            .cover(
                p(0, 5),
                Size::Medium,
                p(5, 5),
                Size::Medium,
                &CoverOptions::default(),
            )
            .unwrap();
        assert_eq!(r.cover, Cover::Half);
        assert_eq!(r.ac_bonus, Some(2));
        // A whole low parapet in front still caps at half.
        for y in 3..=7 {
            m.set_terrain(p(4, y), Terrain::LOW_WALL).unwrap();
        }
        assert_eq!(cover(&m, p(0, 5), p(5, 5)), Cover::Half);
        // From an oblique angle too.
        assert_eq!(cover(&m, p(0, 1), p(5, 5)), Cover::Half);
    }

    #[test]
    fn pillar_between_gives_three_quarters() {
        let mut m = BattleMap::new(20, 20).unwrap();
        m.set_terrain(p(2, 2), Terrain::Obstacle).unwrap();
        let r = m
            .cover(
                p(0, 0),
                Size::Medium,
                p(4, 4),
                Size::Medium,
                &CoverOptions::default(),
            )
            .unwrap();
        assert_eq!(r.cover, Cover::ThreeQuarters);
        assert_eq!(r.blocked_lines, 3);
        assert_eq!(r.ac_bonus, Some(5));
        // In line with the target the attacker can sight along the pillar's edges: half.
        let mut m = BattleMap::new(20, 20).unwrap();
        m.set_terrain(p(3, 5), Terrain::Obstacle).unwrap();
        assert_eq!(cover(&m, p(0, 5), p(5, 5)), Cover::Half);
    }

    #[test]
    fn wall_gives_total_and_arrow_slit_three_quarters() {
        let mut m = BattleMap::new(20, 20).unwrap();
        for y in 0..20 {
            m.set_terrain(p(5, y), Terrain::Wall).unwrap();
        }
        let r = m
            .cover(
                p(2, 5),
                Size::Medium,
                p(8, 5),
                Size::Medium,
                &CoverOptions::default(),
            )
            .unwrap();
        assert_eq!(
            (r.cover, r.blocked_lines, r.ac_bonus),
            (Cover::Total, 4, None)
        );
        // An arrow slit: a one-square gap in the wall.
        m.set_terrain(p(5, 5), Terrain::Open).unwrap();
        let m2 = m;
        // Target right behind the slit: attacker lines through the gap are clear.
        assert_eq!(cover(&m2, p(0, 5), p(6, 5)), Cover::None);
        // Seen at an angle through the slit, only one corner line gets through.
        let r = m2
            .cover(
                p(1, 1),
                Size::Medium,
                p(6, 5),
                Size::Medium,
                &CoverOptions::default(),
            )
            .unwrap();
        assert_eq!((r.cover, r.blocked_lines), (Cover::ThreeQuarters, 3));
    }

    #[test]
    fn creatures_give_at_most_half() {
        let mut m = BattleMap::new(20, 20).unwrap();
        m.place_creature("archer", p(0, 5), Size::Medium).unwrap();
        m.place_creature("ogre", p(3, 4), Size::Large).unwrap();
        m.place_creature("target", p(6, 5), Size::Medium).unwrap();
        let no = m
            .creature_cover("archer", "target", &CoverOptions::default())
            .unwrap();
        assert_eq!(no.cover, Cover::None);
        let yes = m
            .creature_cover(
                "archer",
                "target",
                &CoverOptions {
                    creatures_give_cover: true,
                },
            )
            .unwrap();
        assert_eq!(yes.cover, Cover::Half);
        assert!(
            m.creature_cover("archer", "ghost", &CoverOptions::default())
                .is_err()
        );
    }

    #[test]
    fn props_grant_what_they_declare() {
        let mut m = BattleMap::new(20, 20).unwrap();
        let mut slit = Prop::new("portcullis", "portcullis", p(2, 2));
        slit.cover = Cover::ThreeQuarters;
        m.place_prop(slit).unwrap();
        assert_eq!(cover(&m, p(0, 0), p(4, 4)), Cover::ThreeQuarters);
        let mut crate_ = Prop::new("crate", "crate", p(2, 2));
        crate_.cover = Cover::Half;
        m.remove_prop("portcullis").unwrap();
        m.place_prop(crate_).unwrap();
        assert_eq!(cover(&m, p(0, 0), p(4, 4)), Cover::Half);
    }

    #[test]
    fn area_origin_cover() {
        let mut m = BattleMap::new(20, 20).unwrap();
        m.set_terrain(p(4, 5), Terrain::LOW_WALL).unwrap();
        let r = m
            .cover_from_origin(
                AreaOrigin::Corner(p(0, 5)),
                p(5, 5),
                Size::Medium,
                &CoverOptions::default(),
            )
            .unwrap();
        assert_eq!(r.cover, Cover::Half);
        let r = m
            .cover_from_origin(
                AreaOrigin::Square(p(5, 1)),
                p(5, 5),
                Size::Medium,
                &CoverOptions::default(),
            )
            .unwrap();
        assert_eq!(r.cover, Cover::None);
    }
}
