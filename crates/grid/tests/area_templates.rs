//! Area templates against square sets worked out by hand (not against `area_contains`): each
//! picture is the map, `#` an affected square, `o` the origin square when it is not affected,
//! `+` marking the grid corner of a corner origin (the square whose top-left corner it is; `*`
//! when that square is affected too). The rule worked by hand is the module's: a square is
//! affected when its centre lies in the shape, boundaries included (see `tabletop_grid::area`).
//! Spheres and cylinders follow the area's distance metric instead, the rule ranges use: 5-5-5
//! by default (square blocks), round under `Metric::Euclidean` (the earlier round pictures are
//! kept under that metric).

use tabletop_grid::{
    AreaOfEffect, AreaOrigin, BattleMap, Compass, Direction, Metric, Position, Shape,
};

/// The affected squares of a picture, row-major (the order `area_squares` lists them in).
fn picture(rows: &[&str]) -> Vec<(i32, i32)> {
    let mut out = Vec::new();
    for (y, row) in rows.iter().enumerate() {
        for (x, c) in row.chars().filter(|c| !c.is_whitespace()).enumerate() {
            if c == '#' || c == '*' {
                out.push((x as i32, y as i32));
            }
        }
    }
    out
}

fn map_for(rows: &[&str]) -> BattleMap {
    let w = rows[0].chars().filter(|c| !c.is_whitespace()).count() as u32;
    BattleMap::new(w, rows.len() as u32).unwrap()
}

fn got(m: &BattleMap, a: &AreaOfEffect) -> Vec<(i32, i32)> {
    m.area_squares(a)
        .unwrap()
        .into_iter()
        .map(|p| (p.x, p.y))
        .collect()
}

fn check(rows: &[&str], a: AreaOfEffect) {
    let m = map_for(rows);
    assert_eq!(
        got(&m, &a),
        picture(rows),
        "{a:?}\nexpected:\n{}",
        rows.join("\n")
    );
}

fn sq(x: i32, y: i32) -> AreaOrigin {
    AreaOrigin::Square(Position::new(x, y))
}

fn corner(x: i32, y: i32) -> AreaOrigin {
    AreaOrigin::Corner(Position::new(x, y))
}

fn cone(ft: i32) -> Shape {
    Shape::Cone { length_ft: ft }
}

fn line(ft: i32, width: i32) -> Shape {
    Shape::Line {
        length_ft: ft,
        width_ft: width,
    }
}

// Cones: along an axis, square k (k squares out) is in when |offset| ≤ k/2.

#[test]
fn cone_15_east() {
    // k=1: 0; k=2: ±1; k=3: ±1.
    check(
        &[
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . # #",
            ". . . . . o # # #",
            ". . . . . . . # #",
            ". . . . . . . . .",
        ],
        AreaOfEffect::directed(cone(15), sq(5, 3), Direction::Compass(Compass::E)),
    );
}

#[test]
fn cone_30_north() {
    // k=1: 0; 2–3: ±1; 4–5: ±2; 6: ±3 → 1+3+3+5+5+7 = 24 squares.
    let rows = [
        ". # # # # # # # .",
        ". . # # # # # . .",
        ". . # # # # # . .",
        ". . . # # # . . .",
        ". . . # # # . . .",
        ". . . . # . . . .",
        ". . . . o . . . .",
    ];
    assert_eq!(picture(&rows).len(), 24);
    check(
        &rows,
        AreaOfEffect::directed(cone(30), sq(4, 6), Direction::Compass(Compass::N)),
    );
}

#[test]
fn cone_15_south_east_diagonal() {
    // Offsets (dx, dy) with s = dx+dy ≤ 3√2 and 2|dx−dy| ≤ s: s=2 (1,1); s=3 (2,1) (1,2);
    // s=4 (2,2) (3,1) (1,3) — the last two exactly on the cone's edge.
    check(
        &[
            "o . . . .",
            ". # # # .",
            ". # # . .",
            ". # . . .",
            ". . . . .",
        ],
        AreaOfEffect::directed(cone(15), sq(0, 0), Direction::Compass(Compass::SE)),
    );
}

#[test]
fn cone_15_west_toward_a_square() {
    // The mirror of the eastward cone, aimed with `toward`.
    check(
        &[
            ". . . . . .",
            ". . . . . .",
            "# # . . . .",
            "# # # o . .",
            "# # . . . .",
        ],
        AreaOfEffect::directed(cone(15), sq(3, 3), Direction::Toward(Position::new(0, 3))),
    );
}

// Lines: 0 < t ≤ length, perpendicular distance ≤ width/2.

#[test]
fn line_30_east_5_wide() {
    check(
        &[
            ". . . . . . . . .",
            ". o # # # # # # .",
            ". . . . . . . . .",
        ],
        AreaOfEffect::directed(line(30, 5), sq(1, 1), Direction::Compass(Compass::E)),
    );
}

#[test]
fn line_15_diagonal_toward_a_square() {
    // Along (1,1)/√2: only a = b is within 2.5 ft of the axis; t = a√2 ≤ 3 → a = 1, 2.
    check(
        &[
            "o . . . .",
            ". # . . .",
            ". . # . .",
            ". . . . .",
            ". . . . .",
        ],
        AreaOfEffect::directed(
            line(15, 5),
            sq(0, 0),
            Direction::Toward(Position::new(4, 4)),
        ),
    );
}

// Cubes: the origin on the centre of the face toward the direction (or on the corner, for a
// diagonal).

#[test]
fn cube_15_east_from_a_square() {
    // 0 < dx ≤ 3, |dy| ≤ 1.5: 3 × 3.
    check(
        &[
            ". . . . . .",
            ". . # # # .",
            ". o # # # .",
            ". . # # # .",
            ". . . . . .",
        ],
        AreaOfEffect::directed(
            Shape::Cube { size_ft: 15 },
            sq(1, 2),
            Direction::Compass(Compass::E),
        ),
    );
}

#[test]
fn cube_10_south_east_from_a_corner() {
    // Corner (2,2): 0 < x+½−2 ≤ 2 and 0 < y+½−2 ≤ 2 → squares 2–3 × 2–3.
    check(
        &[
            ". . . . . .",
            ". . . . . .",
            ". . * # . .",
            ". . # # . .",
            ". . . . . .",
        ],
        AreaOfEffect::directed(
            Shape::Cube { size_ft: 10 },
            corner(2, 2),
            Direction::Compass(Compass::SE),
        ),
    );
}

#[test]
fn cube_20_north_west_from_a_corner() {
    // Corner (4,4) toward NW: −4 ≤ x+½−4 < 0 → squares 0–3, the same for y: 4 × 4.
    check(
        &[
            "# # # # . .",
            "# # # # . .",
            "# # # # . .",
            "# # # # . .",
            ". . . . + .",
            ". . . . . .",
        ],
        AreaOfEffect::directed(
            Shape::Cube { size_ft: 20 },
            corner(4, 4),
            Direction::Compass(Compass::NW),
        ),
    );
}

/// An even width along an axis from a square's centre puts the side boundaries exactly on square
/// centres; only one side counts (for a line the side left of its direction, for a cube the low
/// side in x and y), so a 10-ft cube is 2 × 2 squares, a 20-ft cube 4 × 4, and Gust of Wind's
/// 10-ft-wide line two rows.
#[test]
fn even_widths_from_a_square_centre_cover_exactly_their_size() {
    let east = Direction::Compass(Compass::E);
    check(
        &[
            ". . . . . . . .",
            ". . . . . . . .",
            ". . . . . . . .",
            ". . . . . . . .",
            ". . . # # . . .",
            ". . o # # . . .",
            ". . . . . . . .",
            ". . . . . . . .",
        ],
        AreaOfEffect::directed(Shape::Cube { size_ft: 10 }, sq(2, 5), east),
    );
    check(
        &[
            ". . . . . . . .",
            ". . . . . . . .",
            ". . . . . . . .",
            ". . . # # # # .",
            ". . . # # # # .",
            ". . o # # # # .",
            ". . . # # # # .",
            ". . . . . . . .",
        ],
        AreaOfEffect::directed(Shape::Cube { size_ft: 20 }, sq(2, 5), east),
    );
    check(
        &[
            ". . . . . . . .",
            ". . . . . . . .",
            ". . . . . . . .",
            ". . . . . . . .",
            ". . . # # # # .",
            ". . o # # # # .",
            ". . . . . . . .",
            ". . . . . . . .",
        ],
        AreaOfEffect::directed(line(20, 10), sq(2, 5), east),
    );
    // Westward, the left side is south.
    check(
        &[
            ". . . . . . . .",
            ". . . . . . . .",
            ". . . . . . . .",
            ". . . . . . . .",
            ". . . . . . . .",
            ". # # # # o . .",
            ". # # # # . . .",
            ". . . . . . . .",
        ],
        AreaOfEffect::directed(line(20, 10), sq(5, 5), Direction::Compass(Compass::W)),
    );
}

/// A 5-ft line from a grid corner along an axis runs between two rows of centres: one row.
#[test]
fn a_five_foot_line_from_a_corner_is_one_square_wide() {
    check(
        &[
            ". . . . . .",
            ". . . . . .",
            ". . # # # .",
            ". . + . . .",
            ". . . . . .",
        ],
        AreaOfEffect::directed(line(15, 5), corner(2, 3), Direction::Compass(Compass::E)),
    );
}

// Spheres and cylinders. Under 5-5-5 (the default) a square is in when the larger of its
// per-axis square counts from the origin, × 5 ft, is within the radius; from a corner the
// square touching the intersection counts 1.

#[test]
fn sphere_10_at_a_corner() {
    // 5-5-5: 2 squares out each way, the 4 × 4 block.
    check(
        &[
            ". . . . . . . .",
            ". . . . . . . .",
            ". . . . . . . .",
            ". . . # # # # .",
            ". . . # # # # .",
            ". . . # # * # .",
            ". . . # # # # .",
            ". . . . . . . .",
        ],
        AreaOfEffect::new(Shape::Sphere { radius_ft: 10 }, corner(5, 5)),
    );
}

#[test]
fn round_sphere_10_at_a_corner() {
    // Euclidean: centres at ±½, ±1½ from the corner; in when u² + w² ≤ 4: the 4 × 4 block but
    // its corners.
    check(
        &[
            ". . . . . . . .",
            ". . . . . . . .",
            ". . . . . . . .",
            ". . . . # # . .",
            ". . . # # # # .",
            ". . . # # * # .",
            ". . . . # # . .",
            ". . . . . . . .",
        ],
        AreaOfEffect::new(Shape::Sphere { radius_ft: 10 }, corner(5, 5))
            .with_metric(Metric::Euclidean),
    );
}

#[test]
fn sphere_20_at_a_corner_is_64_squares() {
    // 5-5-5: 4 squares out each way, the 8 × 8 block.
    let rows = [
        ". . . . . . . . . .",
        ". # # # # # # # # .",
        ". # # # # # # # # .",
        ". # # # # # # # # .",
        ". # # # # # # # # .",
        ". # # # # * # # # .",
        ". # # # # # # # # .",
        ". # # # # # # # # .",
        ". # # # # # # # # .",
        ". . . . . . . . . .",
    ];
    assert_eq!(picture(&rows).len(), 64);
    check(
        &rows,
        AreaOfEffect::new(Shape::Sphere { radius_ft: 20 }, corner(5, 5)),
    );
}

#[test]
fn round_sphere_20_at_a_corner_is_52_squares() {
    // Euclidean: per quadrant, 16 centres at (½..3½)²; out: (2½,3½), (3½,2½), (3½,3½) → 13 × 4.
    let rows = [
        ". . . . . . . . . .",
        ". . . # # # # . . .",
        ". . # # # # # # . .",
        ". # # # # # # # # .",
        ". # # # # # # # # .",
        ". # # # # * # # # .",
        ". # # # # # # # # .",
        ". . # # # # # # . .",
        ". . . # # # # . . .",
        ". . . . . . . . . .",
    ];
    assert_eq!(picture(&rows).len(), 52);
    check(
        &rows,
        AreaOfEffect::new(Shape::Sphere { radius_ft: 20 }, corner(5, 5))
            .with_metric(Metric::Euclidean),
    );
}

#[test]
fn sphere_10_on_a_square() {
    // 5-5-5: every square within 2 squares, the 5 × 5 block, the origin's own included.
    check(
        &[
            ". . . . . . .",
            ". # # # # # .",
            ". # # # # # .",
            ". # # # # # .",
            ". # # # # # .",
            ". # # # # # .",
            ". . . . . . .",
        ],
        AreaOfEffect::new(Shape::Sphere { radius_ft: 10 }, sq(3, 3)),
    );
    // 5-10-5: the second diagonal costs 10, so the block's 4 corners (2, 2 → 15 ft) are out.
    check(
        &[
            ". . . . . . .",
            ". . # # # . .",
            ". # # # # # .",
            ". # # # # # .",
            ". # # # # # .",
            ". . # # # . .",
            ". . . . . . .",
        ],
        AreaOfEffect::new(Shape::Sphere { radius_ft: 10 }, sq(3, 3)).with_metric(Metric::GridAlt),
    );
    // Euclidean: integer offsets with a² + b² ≤ 4: 13 squares.
    check(
        &[
            ". . . . . . .",
            ". . . # . . .",
            ". . # # # . .",
            ". # # # # # .",
            ". . # # # . .",
            ". . . # . . .",
            ". . . . . . .",
        ],
        AreaOfEffect::new(Shape::Sphere { radius_ft: 10 }, sq(3, 3)).with_metric(Metric::Euclidean),
    );
}

#[test]
fn sphere_and_cylinder_heights() {
    let m = BattleMap::new(10, 10).unwrap();
    let at = |x, y, z| Position::new_3d(x, y, z);
    // 5-5-5 sphere r 10 ft at corner (5,5) level 0: elevation is a third axis counted in levels
    // from the origin's; (5,5) at level 2 is (1, 1, 2) squares out → 10 ft, in; level 3 out.
    let s = AreaOfEffect::new(Shape::Sphere { radius_ft: 10 }, corner(5, 5));
    assert!(m.area_contains(&s, at(5, 5, 2)).unwrap());
    assert!(!m.area_contains(&s, at(5, 5, 3)).unwrap());
    assert!(m.area_contains(&s, at(6, 6, 2)).unwrap());
    assert!(!m.area_contains(&s, at(7, 5, 1)).unwrap());
    // Round: (5,5) at level 1 has its centre at (½, ½, 1) from it → 1.5 ≤ 4, in; at level 2,
    // (½, ½, 2) → 4.5, out. (6,5) level 1: (1½, ½, 1) → 3.5, in; (6,6) level 1: 5.5, out.
    let s = s.with_metric(Metric::Euclidean);
    assert!(m.area_contains(&s, at(5, 5, 1)).unwrap());
    assert!(!m.area_contains(&s, at(5, 5, 2)).unwrap());
    assert!(m.area_contains(&s, at(6, 5, 1)).unwrap());
    assert!(!m.area_contains(&s, at(6, 6, 1)).unwrap());
    // Cylinder r 10, h 20 at corner (5,5) level 0: from the floor (0) to 4, any square of the
    // footprint (5-5-5: the 4 × 4 block; round: 12 squares) whose centre height (z+½) is ≤ 4.
    let c = AreaOfEffect::new(
        Shape::Cylinder {
            radius_ft: 10,
            height_ft: 20,
        },
        corner(5, 5),
    );
    assert_eq!(got(&m, &c).len(), 16);
    assert_eq!(got(&m, &c.with_metric(Metric::Euclidean)).len(), 12);
    assert!(m.area_contains(&c, at(5, 5, 3)).unwrap());
    assert!(!m.area_contains(&c, at(5, 5, 4)).unwrap());
    assert!(m.area_contains(&c, at(6, 4, 3)).unwrap());
    assert!(m.area_contains(&c, at(6, 6, 0)).unwrap());
    assert!(
        !m.area_contains(&c.with_metric(Metric::Euclidean), at(6, 6, 0))
            .unwrap()
    );
    assert!(!m.area_contains(&c, at(7, 6, 0)).unwrap());
}
