//! Spatial tools on the encounter's map: `measure_distance`, `calculate_aoe`,
//! `check_line_of_sight`, `check_cover`, `place_prop`, `calculate_movement`; and the map tools of
//! the combat category, `modify_terrain` and `render_battlefield`. Legacy shapes of the same
//! names are told apart and converted here; the converters also serve the hidden aliases.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Map, Value, json};
use tabletop_engine::combat::actions::Who;
use tabletop_engine::combat::spatial::Point;
use tabletop_engine::combat::spatial::area::{AoeRequest, calculate_aoe};
use tabletop_engine::combat::spatial::measure::{MeasureRequest, measure_distance};
use tabletop_engine::combat::spatial::movement::{
    Locomotion, MoveMode, MovementRequest, calculate_movement,
};
use tabletop_engine::combat::spatial::props::{PropFields, PropOp, PropRequest, place_prop};
use tabletop_engine::combat::spatial::sight::{
    CoverRequest, SightRequest, check_cover, check_line_of_sight,
};
use tabletop_engine::combat::spatial::view::{LegendDetail, RenderRequest, render_battlefield};
use tabletop_engine::combat::terrain::{TerrainKind, TerrainOp, TerrainRequest, modify_terrain};
use tabletop_engine::{Call, EngineError};
use tabletop_grid::{Cover, Position, Viewport};

use super::{Access, EngineT, invoke};
use crate::arg_enum;
use crate::reply::{Reply, ToolError};
use crate::schema::input_schema;
use crate::spec::{Category, ToolSpec};

pub use super::spatial_args::{MetricArg, ScratchMapArg};

fn point(square: Option<Position>, id: Option<String>, name: Option<String>) -> Point {
    Point {
        square,
        who: Who { id, name },
    }
}

/// Arguments of `measure_distance`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct MeasureArgs {
    pub encounter_id: Option<String>,
    /// A scratch map (no encounter needed): plain squares with this terrain.
    pub scratch_map: Option<ScratchMapArg>,
    /// Square {x, y, z?} (or fromId/fromName).
    pub from: Option<Position>,
    pub from_id: Option<String>,
    pub from_name: Option<String>,
    pub to: Option<Position>,
    pub to_id: Option<String>,
    pub to_name: Option<String>,
    /// grid_5e (default, diagonals 5 ft), grid_alt (5-10-5), euclidean.
    pub mode: Option<MetricArg>,
    /// Also say whether within this range (ft).
    pub range_ft: Option<u32>,
}

fn run_measure(call: &mut Call<'_>, a: MeasureArgs) -> Result<Reply, EngineError> {
    let m = measure_distance(
        call,
        &MeasureRequest {
            encounter_id: a.encounter_id,
            scratch: a.scratch_map.map(ScratchMapArg::spec),
            from: point(a.from, a.from_id, a.from_name),
            to: point(a.to, a.to_id, a.to_name),
            metric: a.mode.map(Into::into).unwrap_or_default(),
            range_ft: a.range_ft,
        },
    )?;
    Ok(Reply::new(m.text(), &m))
}

/// Legacy measure_distance and check_* shapes: participant ids as strings in `from`/`to`, or
/// named source/target/observer/attacker fields.
pub(crate) fn legacy_endpoints(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    for (k, id) in [("from", "fromId"), ("to", "toId")] {
        if let Some(Value::String(s)) = args.get(k).cloned() {
            args.remove(k);
            args.entry(id).or_insert(Value::String(s));
        }
    }
    for (old, new) in [
        ("sourceId", "fromId"),
        ("participantId1", "fromId"),
        ("fromParticipantId", "fromId"),
        ("observerId", "fromId"),
        ("viewerId", "fromId"),
        ("attackerId", "fromId"),
        ("actorId", "fromId"),
        ("targetId", "toId"),
        ("participantId2", "toId"),
        ("toParticipantId", "toId"),
        ("defenderId", "toId"),
        ("metric", "mode"),
    ] {
        if let Some(v) = args.remove(old) {
            args.entry(new).or_insert(v);
        }
    }
    for k in ["action", "includeElevation"] {
        args.remove(k);
    }
    Ok(())
}

arg_enum! {
    /// Area shape.
    pub enum ShapeArg { Sphere = "sphere", Cylinder = "cylinder", Cone = "cone", Cube = "cube", Line = "line" }
}

/// Arguments of `calculate_aoe`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct AoeArgs {
    pub encounter_id: Option<String>,
    /// A scratch map (no encounter needed): plain squares with this terrain.
    pub scratch_map: Option<ScratchMapArg>,
    pub shape: ShapeArg,
    /// Radius (sphere, cylinder), length (cone, line) or side (cube), ft.
    pub size_ft: i32,
    /// Cylinder height (default: radius).
    pub height_ft: Option<i32>,
    /// Line width (default 5).
    pub width_ft: Option<i32>,
    /// Origin square (or originId/originName: centre of that creature).
    pub origin: Option<Position>,
    pub origin_id: Option<String>,
    pub origin_name: Option<String>,
    /// Origin at the square's top-left grid corner (DMG spheres).
    pub at_corner: Option<bool>,
    /// Aim square for cone/line/cube (or towardId/towardName, or direction).
    pub toward: Option<Position>,
    pub toward_id: Option<String>,
    pub toward_name: Option<String>,
    /// Compass: N, NE, E, SE, S, SW, W, NW.
    pub direction: Option<String>,
    /// Leave the origin creature out.
    pub exclude_caster: Option<bool>,
    /// Distance rule of spheres and cylinders, as ranges measure: grid_5e (default, the
    /// campaign's; square templates), grid_alt (5-10-5), euclidean (round templates).
    pub metric: Option<MetricArg>,
}

fn run_aoe(call: &mut Call<'_>, a: AoeArgs) -> Result<Reply, EngineError> {
    let out = calculate_aoe(
        call,
        &AoeRequest {
            encounter_id: a.encounter_id,
            scratch: a.scratch_map.map(ScratchMapArg::spec),
            shape: ShapeArg::KEYS[a.shape as usize].to_string(),
            size_ft: a.size_ft,
            height_ft: a.height_ft,
            width_ft: a.width_ft,
            origin: point(a.origin, a.origin_id, a.origin_name),
            at_corner: a.at_corner.unwrap_or(false),
            toward: point(a.toward, a.toward_id, a.toward_name),
            direction: a.direction,
            vector: None,
            exclude_caster: a.exclude_caster.unwrap_or(false),
            metric: a.metric.map(Into::into).unwrap_or_default(),
        },
    )?;
    Ok(Reply::new(out.text(), &out))
}

fn square_value(v: &Value) -> Option<Value> {
    match v {
        Value::Object(o) if o.contains_key("x") && o.contains_key("y") => Some(v.clone()),
        Value::Array(a) if a.len() >= 2 => Some(json!({"x": a[0], "y": a[1]})),
        Value::String(s) => {
            let mut it = s.split(',').map(|t| t.trim().parse::<i64>());
            match (it.next(), it.next()) {
                (Some(Ok(x)), Some(Ok(y))) => Some(json!({"x": x, "y": y})),
                _ => None,
            }
        }
        _ => None,
    }
}

fn squares_to_feet(v: &Value) -> Option<Value> {
    v.as_f64().map(|n| json!((n * 5.0).round() as i64))
}

/// Legacy `calculate_aoe` (rpg-mcp): shapes circle/square/cone/line, `radius`/`length`/`width`
/// in **squares**, `center`/`origin`, a direction vector; also `get_area_effect_targets` and
/// `get_creatures_in_range` (`range` in feet around a creature).
pub(crate) fn legacy_aoe(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    args.remove("action");
    if let Some(Value::String(s)) = args.get("shape").cloned() {
        let new = match s.to_ascii_lowercase().as_str() {
            "circle" | "radius" | "emanation" | "burst" => "sphere",
            "square" => "cube",
            _ => "",
        };
        if !new.is_empty() {
            args.insert("shape".into(), json!(new));
        }
    }
    if !args.contains_key("sizeFt") {
        for k in ["radius", "length", "size"] {
            if let Some(v) = args.remove(k) {
                let ft = squares_to_feet(&v).ok_or_else(|| {
                    ToolError(format!(
                        "{k} must be a number of squares (legacy) — or give sizeFt in feet"
                    ))
                })?;
                args.insert("sizeFt".into(), ft);
                break;
            }
        }
    }
    if let Some(v) = args.remove("width")
        && let Some(ft) = squares_to_feet(&v)
    {
        args.entry("widthFt").or_insert(ft);
    }
    if let Some(r) = args.remove("range") {
        args.entry("shape").or_insert(json!("sphere"));
        args.entry("sizeFt").or_insert(r);
    }
    for (old, new) in [
        ("center", "origin"),
        ("centerId", "originId"),
        ("casterId", "originId"),
        ("participantId", "originId"),
        ("sourceId", "originId"),
        ("target", "toward"),
        ("targetPoint", "toward"),
    ] {
        if let Some(v) = args.remove(old) {
            args.entry(new).or_insert(v);
        }
    }
    for k in ["origin", "toward"] {
        if let Some(v) = args.get(k).cloned() {
            match v {
                Value::String(s) if square_value(&Value::String(s.clone())).is_none() => {
                    args.remove(k);
                    args.entry(format!("{k}Id")).or_insert(Value::String(s));
                }
                other => {
                    if let Some(sq) = square_value(&other) {
                        args.insert(k.into(), sq);
                    }
                }
            }
        }
    }
    // A direction vector snaps to the nearest compass point.
    if let Some(Value::Object(d)) = args.get("direction").cloned() {
        let x = d.get("x").and_then(Value::as_f64).unwrap_or(0.0);
        let y = d.get("y").and_then(Value::as_f64).unwrap_or(0.0);
        if x == 0.0 && y == 0.0 {
            return Err(ToolError(
                "direction vector is zero; give a compass point (N, NE, …) or toward {x, y}".into(),
            ));
        }
        let names = ["E", "SE", "S", "SW", "W", "NW", "N", "NE"];
        let angle = y.atan2(x).to_degrees().rem_euclid(360.0);
        let i = ((angle + 22.5) / 45.0).floor() as usize % 8;
        args.insert("direction".into(), json!(names[i]));
    }
    args.remove("includeOrigin");
    Ok(())
}

/// Arguments of `check_line_of_sight`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SightArgs {
    pub encounter_id: Option<String>,
    /// A scratch map (no encounter needed): plain squares with this terrain.
    pub scratch_map: Option<ScratchMapArg>,
    /// Viewer square (or fromId/fromName).
    pub from: Option<Position>,
    pub from_id: Option<String>,
    pub from_name: Option<String>,
    pub to: Option<Position>,
    pub to_id: Option<String>,
    pub to_name: Option<String>,
    /// Creatures in between block.
    pub creatures_block: Option<bool>,
}

fn run_sight(call: &mut Call<'_>, a: SightArgs) -> Result<Reply, EngineError> {
    let out = check_line_of_sight(
        call,
        &SightRequest {
            encounter_id: a.encounter_id,
            scratch: a.scratch_map.map(ScratchMapArg::spec),
            from: point(a.from, a.from_id, a.from_name),
            to: point(a.to, a.to_id, a.to_name),
            creatures_block: a.creatures_block.unwrap_or(false),
        },
    )?;
    Ok(Reply::new(out.text(), &out))
}

/// Arguments of `check_cover`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CoverArgs {
    pub encounter_id: Option<String>,
    /// A scratch map (no encounter needed): plain squares with this terrain.
    pub scratch_map: Option<ScratchMapArg>,
    /// Attacker square (or fromId/fromName).
    pub from: Option<Position>,
    pub from_id: Option<String>,
    pub from_name: Option<String>,
    /// Target square (or toId/toName).
    pub to: Option<Position>,
    pub to_id: Option<String>,
    pub to_name: Option<String>,
    /// Creatures in between give half cover.
    pub creatures_give_cover: Option<bool>,
}

fn run_cover(call: &mut Call<'_>, a: CoverArgs) -> Result<Reply, EngineError> {
    let out = check_cover(
        call,
        &CoverRequest {
            encounter_id: a.encounter_id,
            scratch: a.scratch_map.map(ScratchMapArg::spec),
            from: point(a.from, a.from_id, a.from_name),
            to: point(a.to, a.to_id, a.to_name),
            creatures_give_cover: a.creatures_give_cover.unwrap_or(false),
        },
    )?;
    Ok(Reply::new(out.text(), &out))
}

arg_enum! {
    /// What to do with props.
    pub enum PropOpArg { Place = "place", Remove = "remove", Update = "update", Move = "move", List = "list" }
}

arg_enum! {
    /// Cover a prop grants.
    pub enum CoverArg { None = "none", Half = "half", ThreeQuarters = "three_quarters", Total = "total" }
}

/// Arguments of `place_prop`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct PropArgs {
    pub encounter_id: Option<String>,
    /// A scratch map (no encounter needed): plain squares with this terrain.
    pub scratch_map: Option<ScratchMapArg>,
    /// place (default with position), remove, update, move, list.
    pub operation: Option<PropOpArg>,
    /// Id or name (remove, update, move); optional id for place.
    pub prop_id: Option<String>,
    pub name: Option<String>,
    /// Top-left square.
    pub position: Option<Position>,
    /// Footprint in ft (default 5×5).
    pub width_ft: Option<i32>,
    pub length_ft: Option<i32>,
    pub blocks_movement: Option<bool>,
    /// Blocks sight and areas (total cover).
    pub blocks_sight: Option<bool>,
    pub cover: Option<CoverArg>,
    pub hp: Option<i32>,
    pub ac: Option<i32>,
    /// Hidden until found (Perception DC).
    pub hidden_dc: Option<u32>,
    pub trap: Option<bool>,
    /// Map letter.
    pub symbol: Option<char>,
}

fn run_prop(call: &mut Call<'_>, a: PropArgs) -> Result<Reply, EngineError> {
    let operation = match a.operation {
        Some(PropOpArg::Place) => PropOp::Place,
        Some(PropOpArg::Remove) => PropOp::Remove,
        Some(PropOpArg::Update) => PropOp::Update,
        Some(PropOpArg::Move) => PropOp::Move,
        Some(PropOpArg::List) => PropOp::List,
        None if a.position.is_some() && a.prop_id.is_none() => PropOp::Place,
        None if a.position.is_some() => PropOp::Move,
        None => PropOp::List,
    };
    let out = place_prop(
        call,
        &PropRequest {
            encounter_id: a.encounter_id,
            scratch: a.scratch_map.map(ScratchMapArg::spec),
            operation,
            prop_id: a.prop_id,
            fields: PropFields {
                name: a.name,
                position: a.position,
                width_ft: a.width_ft,
                length_ft: a.length_ft,
                blocks_movement: a.blocks_movement,
                blocks_sight: a.blocks_sight,
                cover: a.cover.map(|c| match c {
                    CoverArg::None => Cover::None,
                    CoverArg::Half => Cover::Half,
                    CoverArg::ThreeQuarters => Cover::ThreeQuarters,
                    CoverArg::Total => Cover::Total,
                }),
                hp: a.hp,
                ac: a.ac,
                hidden_dc: a.hidden_dc,
                trap: a.trap,
                symbol: a.symbol,
            },
        },
    )?;
    Ok(Reply::new(out.text(), &out))
}

/// Legacy `place_prop` (rpg-mcp): `propType` structure/cover/climbable/hazard/interactive/
/// decoration, `cover` "three_quarter"/"full", `label`, `x`/`y`, sizes in squares.
pub(crate) fn legacy_prop(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    args.remove("action");
    if let Some(l) = args.remove("label") {
        args.entry("name").or_insert(l);
    }
    if let (Some(x), Some(y)) = (args.remove("x"), args.remove("y")) {
        args.entry("position").or_insert(json!({"x": x, "y": y}));
    }
    if let Some(p) = args.get("position").and_then(square_value) {
        args.insert("position".into(), p);
    }
    for (old, new) in [
        ("width", "widthFt"),
        ("length", "lengthFt"),
        ("height", "lengthFt"),
    ] {
        if let Some(v) = args.remove(old)
            && let Some(ft) = squares_to_feet(&v)
        {
            args.entry(new).or_insert(ft);
        }
    }
    if let Some(Value::String(c)) = args.get("cover").cloned() {
        let new = match c.to_ascii_lowercase().replace(['-', ' '], "_").as_str() {
            "three_quarter" | "threequarter" | "three_quarters" => "three_quarters",
            "full" | "total" => "total",
            "half" => "half",
            "none" => "none",
            _ => return Ok(()),
        };
        args.insert("cover".into(), json!(new));
    }
    if let Some(Value::String(t)) = args.remove("propType") {
        let set = |args: &mut Map<String, Value>, k: &str, v: Value| {
            args.entry(k.to_string()).or_insert(v);
        };
        match t.to_ascii_lowercase().as_str() {
            "structure" => {
                set(args, "blocksMovement", json!(true));
                set(args, "blocksSight", json!(true));
            }
            "cover" => {
                set(args, "blocksMovement", json!(true));
                set(args, "cover", json!("half"));
            }
            "hazard" => set(args, "trap", json!(true)),
            "climbable" | "interactive" | "decoration" => {}
            other => {
                return Err(ToolError(format!(
                    "propType '{other}' is unknown; legacy types are structure, cover, climbable, hazard, interactive, decoration — or set blocksMovement, blocksSight and cover directly"
                )));
            }
        }
        args.entry("operation").or_insert(json!("place"));
    }
    for k in ["heightFeet", "description", "properties", "interactable"] {
        args.remove(k);
    }
    Ok(())
}

arg_enum! {
    /// What calculate_movement computes.
    pub enum MoveModeArg { Path = "path", Reach = "reach", Adjacent = "adjacent" }
}

arg_enum! {
    /// How the mover moves.
    pub enum LocomotionArg { Walk = "walk", Fly = "fly", Swim = "swim", Climb = "climb" }
}

/// Arguments of `calculate_movement`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct MovementArgs {
    pub encounter_id: Option<String>,
    /// A scratch map (no encounter needed): plain squares with this terrain.
    pub scratch_map: Option<ScratchMapArg>,
    /// path (default), reach, adjacent.
    pub mode: Option<MoveModeArg>,
    pub mover_id: Option<String>,
    pub mover_name: Option<String>,
    /// Start square (default: the mover's).
    pub from: Option<Position>,
    /// Destination (path).
    pub to: Option<Position>,
    /// Budget in ft (default: movement left this turn).
    pub movement_ft: Option<u32>,
    /// walk (default), fly, swim, climb: that speed from the stat block.
    pub movement_type: Option<LocomotionArg>,
    pub metric: Option<MetricArg>,
}

fn run_movement(call: &mut Call<'_>, a: MovementArgs) -> Result<Reply, EngineError> {
    let out = calculate_movement(
        call,
        &MovementRequest {
            encounter_id: a.encounter_id,
            scratch: a.scratch_map.map(ScratchMapArg::spec),
            mode: match a.mode {
                Some(MoveModeArg::Reach) => MoveMode::Reach,
                Some(MoveModeArg::Adjacent) => MoveMode::Adjacent,
                Some(MoveModeArg::Path) | None => MoveMode::Path,
            },
            mover: Who {
                id: a.mover_id,
                name: a.mover_name,
            },
            from: a.from,
            to: a.to,
            movement_ft: a.movement_ft,
            metric: a.metric.map(Into::into).unwrap_or_default(),
            locomotion: match a.movement_type {
                Some(LocomotionArg::Fly) => Locomotion::Fly,
                Some(LocomotionArg::Swim) => Locomotion::Swim,
                Some(LocomotionArg::Climb) => Locomotion::Climb,
                Some(LocomotionArg::Walk) | None => Locomotion::Walk,
            },
        },
    )?;
    Ok(Reply::new(out.text(), &out))
}

/// Legacy `get_adjacent_squares {x, y}` / `{position}` / `{participantId}`.
pub(crate) fn legacy_adjacent(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    if let (Some(x), Some(y)) = (args.remove("x"), args.remove("y")) {
        args.entry("from").or_insert(json!({"x": x, "y": y}));
    }
    for (old, new) in [
        ("position", "from"),
        ("participantId", "moverId"),
        ("creatureId", "moverId"),
        ("characterId", "moverId"),
    ] {
        if let Some(v) = args.remove(old) {
            args.entry(new).or_insert(v);
        }
    }
    if let Some(p) = args.get("from").and_then(square_value) {
        args.insert("from".into(), p);
    }
    args.remove("includeDiagonals");
    Ok(())
}

arg_enum! {
    /// add, remove, clear, light.
    pub enum TerrainOpArg { Add = "add", Remove = "remove", Clear = "clear", Light = "light" }
}

arg_enum! {
    /// Terrain kinds.
    pub enum TerrainArg { Obstacle = "obstacle", Wall = "wall", LowWall = "low_wall", Difficult = "difficult", Water = "water", Hazard = "hazard" }
}

/// A rectangle of squares.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct RectArg {
    pub x: i32,
    pub y: i32,
    pub width: u32,
    pub height: u32,
}

fn rect(r: &RectArg, field: &str) -> Result<(Position, Position), EngineError> {
    if r.width == 0 || r.height == 0 {
        return Err(EngineError::invalid(
            field,
            "width and height must be at least 1 square",
        ));
    }
    Ok((
        Position::new(r.x, r.y),
        Position::new(r.x + r.width as i32 - 1, r.y + r.height as i32 - 1),
    ))
}

/// Arguments of `modify_terrain`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct TerrainArgs {
    pub encounter_id: Option<String>,
    /// A scratch map (no encounter needed): plain squares with this terrain.
    pub scratch_map: Option<ScratchMapArg>,
    /// add (default), remove, clear (whole map), light (the squares' light, or the map's).
    pub operation: Option<TerrainOpArg>,
    /// light: bright, dim, darkness, magical_darkness.
    pub light: Option<super::combat::LightArg>,
    pub terrain: Option<TerrainArg>,
    pub squares: Option<Vec<Position>>,
    pub rect: Option<RectArg>,
    /// Centre square (with radiusFt: a sphere's squares).
    pub center: Option<Position>,
    pub radius_ft: Option<i32>,
    /// Hazard name and damage note ("1d10 fire").
    pub hazard_name: Option<String>,
    pub damage: Option<String>,
    /// Lasts this many rounds, then reverts.
    pub rounds: Option<u32>,
    /// Why ("Web").
    pub source: Option<String>,
}

fn run_terrain(call: &mut Call<'_>, a: TerrainArgs) -> Result<Reply, EngineError> {
    let out = modify_terrain(
        call,
        &TerrainRequest {
            encounter_id: a.encounter_id,
            scratch: a.scratch_map.map(ScratchMapArg::spec),
            operation: match a.operation {
                Some(TerrainOpArg::Remove) => TerrainOp::Remove,
                Some(TerrainOpArg::Clear) => TerrainOp::Clear,
                Some(TerrainOpArg::Light) => TerrainOp::Light,
                Some(TerrainOpArg::Add) | None => TerrainOp::Add,
            },
            light: a.light.map(Into::into),
            kind: a.terrain.map(|t| match t {
                TerrainArg::Obstacle => TerrainKind::Obstacle,
                TerrainArg::Wall => TerrainKind::Wall,
                TerrainArg::LowWall => TerrainKind::LowWall,
                TerrainArg::Difficult => TerrainKind::Difficult,
                TerrainArg::Water => TerrainKind::Water,
                TerrainArg::Hazard => TerrainKind::Hazard,
            }),
            hazard_name: a.hazard_name,
            hazard_damage: a.damage,
            squares: a.squares.unwrap_or_default(),
            rect: a.rect.as_ref().map(|r| rect(r, "rect")).transpose()?,
            radius_ft: a.radius_ft,
            center: a.center,
            rounds: a.rounds,
            source: a.source,
        },
    )?;
    Ok(Reply::new(out.text(), &out))
}

/// Legacy terrain edits (`update_terrain`, `generate_terrain_patch`/`_pattern`, `combat_map`):
/// `type`/`terrainType`, `positions` (objects, pairs or "x,y"), `x`/`y`, and a patch rectangle
/// `{x, y, width, height}` with a biome-like type.
pub(crate) fn legacy_terrain(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    args.remove("action");
    for k in ["type", "terrainType", "patchType", "pattern", "biome"] {
        if let Some(Value::String(t)) = args.remove(k) {
            let kind = match t.to_ascii_lowercase().replace(['-', ' '], "_").as_str() {
                "wall" | "walls" | "maze" | "room" => "wall",
                "obstacle" | "obstacles" | "pillar" | "pillars" | "boulder" | "rocks" => "obstacle",
                "low_wall" | "cover" | "barricade" => "low_wall",
                "difficult" | "difficult_terrain" | "rubble" | "forest" | "brush" | "mud"
                | "swamp" | "ice" => "difficult",
                "water" | "lake" | "river" | "pond" => "water",
                "hazard" | "fire" | "lava" | "acid" | "trap" | "spikes" => "hazard",
                other => {
                    return Err(ToolError(format!(
                        "terrain '{other}' has no equivalent; use terrain obstacle, wall, low_wall, difficult, water or hazard"
                    )));
                }
            };
            if kind == "hazard" && !matches!(t.as_str(), "hazard") {
                args.entry("hazardName").or_insert(json!(t));
            }
            args.entry("terrain").or_insert(json!(kind));
            break;
        }
    }
    if args.contains_key("width") && args.contains_key("height") {
        let r = json!({
            "x": args.remove("x").unwrap_or(json!(0)),
            "y": args.remove("y").unwrap_or(json!(0)),
            "width": args.remove("width"),
            "height": args.remove("height"),
        });
        args.entry("rect").or_insert(r);
    } else if let (Some(x), Some(y)) = (args.remove("x"), args.remove("y")) {
        args.entry("squares").or_insert(json!([{"x": x, "y": y}]));
    }
    for k in ["positions", "tiles", "cells", "obstacles"] {
        if let Some(Value::Array(items)) = args.remove(k) {
            let squares: Vec<Value> = items.iter().filter_map(square_value).collect();
            if squares.len() != items.len() {
                return Err(ToolError(format!(
                    "{k}: every square must be {{x, y}}, [x, y] or \"x,y\""
                )));
            }
            args.entry("squares").or_insert(Value::Array(squares));
        }
    }
    if let Some(Value::Array(items)) = args.get("squares").cloned() {
        let squares: Vec<Value> = items.iter().filter_map(square_value).collect();
        args.insert("squares".into(), Value::Array(squares));
    }
    if let Some(d) = args.remove("duration") {
        args.entry("rounds").or_insert(d);
    }
    for k in ["density", "seed", "blocksMovement", "blocksVision"] {
        args.remove(k);
    }
    Ok(())
}

arg_enum! {
    /// Output format.
    pub enum FormatArg { Text = "text", Png = "png" }
}

arg_enum! {
    /// Legend detail.
    pub enum LegendArg { None = "none", Compact = "compact", Full = "full" }
}

/// Arguments of `render_battlefield`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct RenderArgs {
    pub encounter_id: Option<String>,
    /// A scratch map (no encounter needed): plain squares with this terrain.
    pub scratch_map: Option<ScratchMapArg>,
    /// text (default) or png (an image).
    pub format: Option<FormatArg>,
    pub viewport: Option<RectArg>,
    /// Centre on a combatant.
    pub focus_id: Option<String>,
    pub focus_name: Option<String>,
    /// Around the focus, ft (default 30).
    pub radius_ft: Option<u32>,
    /// none, compact (default), full.
    pub legend_detail: Option<LegendArg>,
    /// Draw hidden props (default true).
    pub show_hidden: Option<bool>,
}

fn run_render(call: &mut Call<'_>, a: RenderArgs) -> Result<Reply, EngineError> {
    let viewport = match &a.viewport {
        Some(r) => {
            rect(r, "viewport")?;
            Some(Viewport {
                x: r.x,
                y: r.y,
                width: r.width,
                height: r.height,
            })
        }
        None => None,
    };
    let req = RenderRequest {
        encounter_id: a.encounter_id,
        scratch: a.scratch_map.map(ScratchMapArg::spec),
        viewport,
        focus: Who {
            id: a.focus_id,
            name: a.focus_name,
        },
        radius_ft: a.radius_ft,
        legend: match a.legend_detail {
            Some(LegendArg::None) => LegendDetail::None,
            Some(LegendArg::Full) => LegendDetail::Full,
            Some(LegendArg::Compact) | None => LegendDetail::Compact,
        },
        show_hidden: a.show_hidden.unwrap_or(true),
    };
    if a.format == Some(FormatArg::Png) {
        use base64::Engine as _;
        let (png, out, scale) = tabletop_engine::combat::spatial::view::render_png(call, &req)?;
        let mut reply = Reply::new(
            format!(
                "{}\n(PNG image attached: {} bytes.) {}",
                out.caption(),
                png.len(),
                scale.words()
            ),
            &out,
        );
        reply.image_png_base64 = Some(base64::engine::general_purpose::STANDARD.encode(png));
        return Ok(reply);
    }
    let out = render_battlefield(call, &req)?;
    Ok(Reply::new(out.text(), &out))
}

/// Legacy render/describe calls: `participantId` focus, `radius` in squares.
pub(crate) fn legacy_render(args: &mut Map<String, Value>) -> Result<(), ToolError> {
    args.remove("action");
    for (old, new) in [
        ("participantId", "focusId"),
        ("centerOn", "focusId"),
        ("focus", "focusId"),
    ] {
        if let Some(v) = args.remove(old) {
            args.entry(new).or_insert(v);
        }
    }
    if let Some(v) = args.remove("radius")
        && let Some(ft) = squares_to_feet(&v)
    {
        args.entry("radiusFt").or_insert(ft);
    }
    for k in [
        "showLegend",
        "includeTerrain",
        "style",
        "width",
        "height",
        "seed",
    ] {
        args.remove(k);
    }
    Ok(())
}

/// Runs `run` after converting a legacy shape of the same tool name.
fn legacy_then<A: serde::de::DeserializeOwned>(
    engine: &mut EngineT,
    tool: &str,
    raw: &Value,
    access: Access,
    convert: fn(&mut Map<String, Value>) -> Result<(), ToolError>,
    run: fn(&mut Call<'_>, A) -> Result<Reply, EngineError>,
) -> Result<Reply, ToolError> {
    let mut map = match raw {
        Value::Object(m) => m.clone(),
        _ => Map::new(),
    };
    convert(&mut map)?;
    invoke(engine, tool, &Value::Object(map), access, run)
}

pub(super) fn specs() -> Vec<ToolSpec> {
    vec![
        ToolSpec {
            name: "render_battlefield",
            title: "Render battlefield",
            category: Category::Combat,
            description: "Battle map as text or PNG: tokens, terrain, props, legend (HP, whose turn).",
            read_only: true,
            destructive: false,
            idempotent: true,
            core: false,
            max_result_chars: 16_000,
            schema: || input_schema::<RenderArgs>(),
            core_schema: None,
            handler: |e, n, raw| legacy_then(e, n, raw, Access::Read, legacy_render, run_render),
        },
        ToolSpec {
            name: "modify_terrain",
            title: "Modify terrain",
            category: Category::Combat,
            description: "Add, remove or clear walls, obstacles, difficult terrain, water or hazards; rounds makes it revert.",
            read_only: false,
            destructive: true,
            idempotent: false,
            core: false,
            max_result_chars: 4_000,
            schema: || input_schema::<TerrainArgs>(),
            core_schema: None,
            handler: |e, n, raw| legacy_then(e, n, raw, Access::Write, legacy_terrain, run_terrain),
        },
        ToolSpec {
            name: "measure_distance",
            title: "Measure distance",
            category: Category::Spatial,
            description: "Feet between squares or combatants (elevation included); grid_5e, grid_alt or euclidean.",
            read_only: true,
            destructive: false,
            idempotent: true,
            core: false,
            max_result_chars: 2_000,
            schema: || input_schema::<MeasureArgs>(),
            core_schema: None,
            handler: |e, n, raw| {
                legacy_then(e, n, raw, Access::Read, legacy_endpoints, run_measure)
            },
        },
        ToolSpec {
            name: "calculate_aoe",
            title: "Calculate area of effect",
            category: Category::Spatial,
            description: "Squares and combatants inside a sphere, cylinder, cone, cube or line; walls stop it.",
            read_only: true,
            destructive: false,
            idempotent: true,
            core: false,
            max_result_chars: 6_000,
            schema: || input_schema::<AoeArgs>(),
            core_schema: None,
            handler: |e, n, raw| legacy_then(e, n, raw, Access::Read, legacy_aoe, run_aoe),
        },
        ToolSpec {
            name: "check_line_of_sight",
            title: "Check line of sight",
            category: Category::Spatial,
            description: "Whether one square or combatant sees another: walls, doors, props, light, senses, invisibility.",
            read_only: true,
            destructive: false,
            idempotent: true,
            core: false,
            max_result_chars: 2_000,
            schema: || input_schema::<SightArgs>(),
            core_schema: None,
            handler: |e, n, raw| legacy_then(e, n, raw, Access::Read, legacy_endpoints, run_sight),
        },
        ToolSpec {
            name: "check_cover",
            title: "Check cover",
            category: Category::Spatial,
            description: "Target's cover from an attacker (corner rule): none, half (+2), three_quarters (+5), total.",
            read_only: true,
            destructive: false,
            idempotent: true,
            core: false,
            max_result_chars: 1_500,
            schema: || input_schema::<CoverArgs>(),
            core_schema: None,
            handler: |e, n, raw| legacy_then(e, n, raw, Access::Read, legacy_endpoints, run_cover),
        },
        ToolSpec {
            name: "place_prop",
            title: "Place prop",
            category: Category::Spatial,
            description: "Place, update, move, remove or list props: they block movement or sight, give cover as declared.",
            read_only: false,
            destructive: true,
            idempotent: false,
            core: false,
            max_result_chars: 4_000,
            schema: || input_schema::<PropArgs>(),
            core_schema: None,
            handler: |e, n, raw| {
                let read = raw
                    .get("operation")
                    .and_then(Value::as_str)
                    .is_some_and(|o| o.eq_ignore_ascii_case("list"));
                let access = if read { Access::Read } else { Access::Write };
                legacy_then(e, n, raw, access, legacy_prop, run_prop)
            },
        },
        ToolSpec {
            name: "calculate_movement",
            title: "Calculate movement",
            category: Category::Spatial,
            description: "A mover's path and cost, reachable or adjacent squares; warns of opportunity attacks.",
            read_only: true,
            destructive: false,
            idempotent: true,
            core: false,
            max_result_chars: 6_000,
            schema: || input_schema::<MovementArgs>(),
            core_schema: None,
            handler: |e, n, raw| {
                legacy_then(e, n, raw, Access::Read, legacy_adjacent, run_movement)
            },
        },
    ]
}
