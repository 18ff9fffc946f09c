//! # tabletop-grid
//!
//! The one spatial model of a Tabletop battle map (SRD 5.1): terrain, doors, props and
//! creatures on a square grid, and every spatial question combat asks of it — distances, areas
//! of effect, line of sight and visibility, cover, movement and opportunity attacks — plus a
//! compact text rendering. A pure library: no I/O, no storage.
//!
//! ## Conventions
//! * One square is 5 ft. A [`Position`] is a square: `x` grows east, `y` grows south, `(0, 0)`
//!   is the top-left square, `z` is elevation **in squares**.
//! * Every distance, range, radius, size, reach and speed in the API is in **feet**.
//! * Creatures are anchored at their top-left square and occupy a cube of
//!   [`size_squares`] squares (tiny–medium 1, large 2, huge 3, gargantuan 4).
//! * Errors ([`GridError`]) say what to change, e.g. "position (25, 3) is off the 20×20 map;
//!   x must be 0–19 and y 0–19".
//!
//! ## Map of the crate
//! * [`map`] — [`BattleMap`], [`Terrain`], doors, [`Prop`]s, [`Creature`]s, light.
//! * [`geometry`] — [`Position`], [`Metric`], [`distance_ft`], [`footprint_distance_ft`].
//! * [`area`] — [`Shape`], [`AreaOfEffect`], `area_squares`, `creatures_in_area`.
//! * [`sight`] — `line_of_sight`, `visibility` with [`Senses`] and light.
//! * [`cover`] — the DMG corner-to-corner rule, `cover`, `creature_cover`.
//! * [`movement`] — `find_path` (A*), `reach` (Dijkstra), `opportunity_attack_risks`.
//! * [`render`] — `render_ascii`.
//! * [`png`] (feature `png`) — `render_png`: squares, walls, terrain, doors, props and
//!   creature tokens with side colours, HP bars and the current turn.

#![warn(missing_docs)]

pub mod area;
pub mod cover;
pub mod error;
pub mod features;
pub mod geometry;
pub mod map;
pub mod movement;
#[cfg(feature = "png")]
pub mod png;
pub mod render;
pub mod sight;

pub use area::{AreaOfEffect, AreaOrigin, Direction, Shape};
pub use cover::{CoverOptions, CoverReport};
pub use error::{GridError, Result};
pub use geometry::{
    Compass, Metric, Position, SQUARE_FT, delta_distance_ft, distance_ft, euclidean_ft, footprint,
    footprint_distance_ft, size_rank, size_squares,
};
pub use map::{
    BattleMap, Cover, Creature, DoorState, Footprint, Light, MAX_ELEVATION_SQUARES, MAX_SIDE, Prop,
    Terrain,
};
pub use movement::{MoveOptions, OpportunityRisk, Path, Threat};
#[cfg(feature = "png")]
pub use png::{PngOptions, Rgb, TokenStyle};
pub use render::{AsciiMap, Focus, LegendEntry, RenderOptions, Viewport};
pub use sight::{LineOfSight, Sense, Senses, SightOptions, Visibility, VisibilityReport};
pub use tabletop_rules::Size;

#[cfg(all(test, feature = "schema"))]
mod schema_tests {
    use super::*;

    #[test]
    fn schemas_use_camel_case() {
        let area = serde_json::to_string(&schemars::schema_for!(AreaOfEffect)).unwrap();
        assert!(
            area.contains("radiusFt") && area.contains("widthFt"),
            "{area}"
        );
        let terrain = serde_json::to_string(&schemars::schema_for!(Terrain)).unwrap();
        assert!(terrain.contains("lowWall"), "{terrain}");
        for s in [
            serde_json::to_string(&schemars::schema_for!(Position)).unwrap(),
            serde_json::to_string(&schemars::schema_for!(Metric)).unwrap(),
            serde_json::to_string(&schemars::schema_for!(MoveOptions)).unwrap(),
            serde_json::to_string(&schemars::schema_for!(Prop)).unwrap(),
            serde_json::to_string(&schemars::schema_for!(RenderOptions)).unwrap(),
            serde_json::to_string(&schemars::schema_for!(Senses)).unwrap(),
        ] {
            assert!(!s.is_empty());
        }
    }
}
