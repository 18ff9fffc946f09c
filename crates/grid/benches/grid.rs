//! Benchmarks for the hot spatial queries on 20×20, 100×100 and 200×200 maps with obstacles.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use tabletop_grid::{
    AreaOfEffect, AreaOrigin, BattleMap, Compass, CoverOptions, Direction, Metric, MoveOptions,
    Position, Shape, SightOptions, Size, Terrain,
};

/// A map with ~15% scattered walls and ~10% difficult terrain (deterministic), corners clear.
fn map(n: u32) -> BattleMap {
    let mut m = BattleMap::new(n, n).unwrap();
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    for y in 0..n as i32 {
        for x in 0..n as i32 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let r = (seed >> 33) % 100;
            let near_corner = (x < 2 && y < 2) || (x >= n as i32 - 2 && y >= n as i32 - 2);
            if near_corner {
                continue;
            }
            if r < 15 {
                m.set_terrain(Position::new(x, y), Terrain::Wall).unwrap();
            } else if r < 25 {
                m.set_terrain(Position::new(x, y), Terrain::Difficult)
                    .unwrap();
            }
        }
    }
    m
}

fn benches(c: &mut Criterion) {
    for n in [20u32, 100, 200] {
        let m = map(n);
        let far = Position::new(n as i32 - 1, n as i32 - 1);
        let mid = Position::new(n as i32 / 2, n as i32 / 2);
        for metric in [Metric::Grid5e, Metric::GridAlt] {
            let opts = MoveOptions {
                metric,
                ..Default::default()
            };
            assert!(
                m.find_path(Position::new(0, 0), far, &opts)
                    .unwrap()
                    .is_some()
            );
            c.bench_function(&format!("path corner-to-corner {n}x{n} {metric}"), |b| {
                b.iter(|| {
                    m.find_path(black_box(Position::new(0, 0)), black_box(far), &opts)
                        .unwrap()
                })
            });
        }
        let opts = MoveOptions::default();
        c.bench_function(&format!("reach 30ft {n}x{n}"), |b| {
            b.iter(|| m.reach(black_box(Position::new(0, 0)), 30, &opts).unwrap())
        });
        let fireball = AreaOfEffect::new(Shape::Sphere { radius_ft: 20 }, AreaOrigin::Corner(mid));
        c.bench_function(&format!("aoe sphere 20ft {n}x{n}"), |b| {
            b.iter(|| m.area_squares(black_box(&fireball)).unwrap())
        });
        let cone = AreaOfEffect::directed(
            Shape::Cone { length_ft: 60 },
            AreaOrigin::Square(mid),
            Direction::Compass(Compass::SE),
        );
        c.bench_function(&format!("aoe cone 60ft {n}x{n}"), |b| {
            b.iter(|| m.area_squares(black_box(&cone)).unwrap())
        });
        let line = AreaOfEffect::directed(
            Shape::Line {
                length_ft: 100,
                width_ft: 5,
            },
            AreaOrigin::Square(mid),
            Direction::Toward(far),
        );
        c.bench_function(&format!("aoe line 100ft {n}x{n}"), |b| {
            b.iter(|| m.area_squares(black_box(&line)).unwrap())
        });
        let so = SightOptions::default();
        c.bench_function(&format!("los corner-to-corner {n}x{n}"), |b| {
            b.iter(|| {
                m.line_of_sight(black_box(Position::new(0, 0)), black_box(far), &so)
                    .unwrap()
            })
        });
        let a = Position::new(0, 0);
        let t = Position::new((n as i32 / 4).min(12), (n as i32 / 4).min(12) + 1);
        c.bench_function(&format!("cover 60ft apart {n}x{n}"), |b| {
            b.iter(|| {
                m.cover(
                    black_box(a),
                    Size::Medium,
                    black_box(t),
                    Size::Medium,
                    &CoverOptions::default(),
                )
                .unwrap()
            })
        });
        c.bench_function(&format!("cover corner-to-corner {n}x{n}"), |b| {
            b.iter(|| {
                m.cover(
                    black_box(a),
                    Size::Medium,
                    black_box(far),
                    Size::Medium,
                    &CoverOptions::default(),
                )
                .unwrap()
            })
        });
    }
}

/// PNG rendering (feature `png`): the whole 20×20 map at 32 px per square, and a 100×100 map
/// (shrunk to 20 px per square by the 2048 px limit), with a few tokens.
#[cfg(feature = "png")]
fn png_benches(c: &mut Criterion) {
    use tabletop_grid::{PngOptions, Rgb, TokenStyle};
    for n in [20u32, 100] {
        let mut m = map(n);
        let mut opts = PngOptions::default();
        // The squares near the top-left corner are kept clear by `map`.
        for (id, x, y) in [("hero", 0, 0), ("orc1", 1, 0), ("orc2", 0, 1)] {
            m.place_creature(id, Position::new(x, y), Size::Medium)
                .unwrap();
            opts.styles.insert(
                id.to_string(),
                TokenStyle {
                    color: Some(Rgb(200, 40, 40)),
                    hp_fraction: Some(0.6),
                },
            );
        }
        opts.current_turn = Some("hero".into());
        c.bench_function(&format!("render_png {n}x{n}"), |b| {
            b.iter(|| m.render_png(black_box(&opts)).unwrap())
        });
    }
}

#[cfg(not(feature = "png"))]
fn png_benches(_: &mut Criterion) {}

criterion_group!(grid, benches, png_benches);
criterion_main!(grid);
