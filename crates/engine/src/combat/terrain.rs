//! `modify_terrain`: walls, obstacles, low walls, difficult terrain, water and hazards added to or
//! removed from the encounter's map, on squares, a rectangle or a spell-like radius; a change with
//! `rounds` is recorded in [`Encounter::timed_terrain`] with what each square was before, so the
//! turn engine restores it when its round arrives.

use serde::Serialize;
use tabletop_grid::{AreaOfEffect, AreaOrigin, Position, Shape, Terrain};

use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::encounter::*;

/// What to do.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum TerrainOp {
    /// Make the squares this terrain.
    #[default]
    Add,
    /// Make the squares open floor again (only those of `kind`, when given).
    Remove,
    /// Make every square of `kind` on the map (or every square, without `kind`) open floor.
    Clear,
    /// Set the light (`light`) on the squares named, or on the whole map when none are.
    Light,
}

/// A kind of terrain.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TerrainKind {
    /// Full-height obstacle (pillar, boulder): blocks movement and sight.
    Obstacle,
    /// Wall: blocks movement, sight and areas.
    Wall,
    /// Low wall: half cover, blocks movement.
    LowWall,
    /// Difficult terrain: double movement cost.
    Difficult,
    /// Water: double cost without a swim speed.
    Water,
    /// Hazard, with a name and a damage note.
    Hazard,
}

impl TerrainKind {
    fn matches(self, t: &Terrain) -> bool {
        matches!(
            (self, t),
            (TerrainKind::Obstacle, Terrain::Obstacle)
                | (TerrainKind::Wall, Terrain::Wall)
                | (TerrainKind::LowWall, Terrain::LowWall { .. })
                | (TerrainKind::Difficult, Terrain::Difficult)
                | (TerrainKind::Water, Terrain::Water)
                | (TerrainKind::Hazard, Terrain::Hazard { .. })
        )
    }
}

/// A `modify_terrain` request.
#[derive(Debug, Clone, Default)]
pub struct TerrainRequest {
    /// Encounter (default: the active one); an ended one by id too.
    pub encounter_id: Option<String>,
    /// A scratch map (plain squares, the terrain given) instead of an encounter's; used too
    /// when no encounter is active (see [`crate::combat::spatial::scratch`]).
    pub scratch: Option<crate::combat::create::TerrainSpec>,
    /// add, remove or clear.
    pub operation: TerrainOp,
    /// The terrain (required for add).
    pub kind: Option<TerrainKind>,
    /// Hazard name ("burning oil").
    pub hazard_name: Option<String>,
    /// Hazard damage note ("1d10 fire").
    pub hazard_damage: Option<String>,
    /// Squares.
    pub squares: Vec<Position>,
    /// A rectangle given by two opposite corners (inclusive).
    pub rect: Option<(Position, Position)>,
    /// A radius in feet around `center` (the squares a sphere there reaches; walls stop it).
    pub radius_ft: Option<i32>,
    /// Centre square of the radius.
    pub center: Option<Position>,
    /// The change lasts this many rounds (add only), then the squares revert.
    pub rounds: Option<u32>,
    /// Why ("Web", "Spike Growth").
    pub source: Option<String>,
    /// The light to set (operation light).
    pub light: Option<tabletop_grid::Light>,
}

/// What `modify_terrain` did.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TerrainOutcome {
    /// Encounter id.
    pub encounter_id: String,
    /// The lead line.
    pub headline: String,
    /// Squares changed.
    pub changed: Vec<Position>,
    /// The timed change recorded, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timed: Option<TimedTerrain>,
}

fn terrain_of(req: &TerrainRequest, kind: TerrainKind) -> Terrain {
    match kind {
        TerrainKind::Obstacle => Terrain::Obstacle,
        TerrainKind::Wall => Terrain::Wall,
        TerrainKind::LowWall => Terrain::LOW_WALL,
        TerrainKind::Difficult => Terrain::Difficult,
        TerrainKind::Water => Terrain::Water,
        TerrainKind::Hazard => Terrain::Hazard {
            name: req
                .hazard_name
                .as_deref()
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .unwrap_or("hazard")
                .to_string(),
            damage: req.hazard_damage.clone(),
        },
    }
}

/// The squares a request names, each once, in the order given (all checked to be on the map).
fn target_squares(e: &Encounter, req: &TerrainRequest) -> Result<Vec<Position>> {
    let mut out: Vec<Position> = Vec::new();
    let push = |p: Position, out: &mut Vec<Position>| {
        let p = Position::new(p.x, p.y);
        if !out.contains(&p) {
            out.push(p);
        }
    };
    for &p in &req.squares {
        e.map.check(p)?;
        push(p, &mut out);
    }
    if let Some((a, b)) = req.rect {
        e.map.check(a)?;
        e.map.check(b)?;
        for y in a.y.min(b.y)..=a.y.max(b.y) {
            for x in a.x.min(b.x)..=a.x.max(b.x) {
                push(Position::new(x, y), &mut out);
            }
        }
    }
    match (req.radius_ft, req.center) {
        (Some(r), Some(c)) => {
            if r <= 0 {
                return Err(EngineError::invalid(
                    "radiusFt",
                    format!("must be a positive number of feet (got {r}); e.g. 20"),
                ));
            }
            let area = AreaOfEffect::new(Shape::Sphere { radius_ft: r }, AreaOrigin::Square(c));
            for p in e.map.area_squares(&area)? {
                push(p, &mut out);
            }
        }
        (Some(_), None) => {
            return Err(EngineError::invalid(
                "center",
                "radiusFt needs a center square {x, y}",
            ));
        }
        (None, Some(c)) => {
            e.map.check(c)?;
            push(c, &mut out);
        }
        (None, None) => {}
    }
    Ok(out)
}

fn light_words(l: tabletop_grid::Light) -> &'static str {
    match l {
        tabletop_grid::Light::Bright => "bright light",
        tabletop_grid::Light::Dim => "dim light",
        tabletop_grid::Light::Darkness => "darkness",
        tabletop_grid::Light::MagicalDarkness => "magical darkness",
    }
}

/// Drops `squares` from every timed change (they no longer revert).
fn forget_timed(e: &mut Encounter, squares: &[Position]) {
    for t in &mut e.timed_terrain {
        let keep: Vec<(Position, Terrain)> = t
            .squares
            .iter()
            .copied()
            .zip(t.previous.iter().cloned())
            .filter(|(p, _)| !squares.iter().any(|s| s.x == p.x && s.y == p.y))
            .collect();
        (t.squares, t.previous) = keep.into_iter().unzip();
    }
    e.timed_terrain.retain(|t| !t.squares.is_empty());
}

/// Adds, removes or clears terrain on the encounter's map.
pub fn modify_terrain(call: &mut Call<'_>, req: &TerrainRequest) -> Result<TerrainOutcome> {
    let (mut e, scratch_note) = crate::combat::spatial::scratch::map_to_change(
        call,
        req.encounter_id.as_deref(),
        req.scratch.as_ref(),
    )?;
    if req.rounds.is_some() && !e.is_active() {
        return Err(EngineError::invalid(
            "rounds",
            format!(
                "{} is not a running fight, so no rounds pass on its map; change the terrain for good (omit rounds)",
                e.id
            ),
        ));
    }
    if req.rounds.is_some() && req.operation != TerrainOp::Add {
        return Err(EngineError::invalid(
            "rounds",
            "only an added terrain can be timed; remove it for good, or add with rounds",
        ));
    }
    if req.rounds == Some(0) {
        return Err(EngineError::invalid(
            "rounds",
            "must be at least 1 (or omit it for a lasting change)",
        ));
    }
    let (headline, changed, timed) = match req.operation {
        TerrainOp::Add => {
            let kind = req.kind.ok_or_else(|| {
                EngineError::invalid(
                    "terrain",
                    "say which terrain to add: obstacle, wall, low_wall, difficult, water, hazard",
                )
            })?;
            let squares = target_squares(&e, req)?;
            if squares.is_empty() {
                return Err(EngineError::invalid(
                    "squares",
                    "name the squares: squares [{x, y}], rect {from, to}, or center with radiusFt",
                ));
            }
            let terrain = terrain_of(req, kind);
            let mut map = e.map.clone();
            let mut previous = Vec::with_capacity(squares.len());
            for &p in &squares {
                previous.push(map.terrain(p)?.clone());
                if let Err(err) = map.set_terrain(p, terrain.clone()) {
                    return Err(match err {
                        tabletop_grid::GridError::Occupied { pos, occupant, .. } => {
                            EngineError::Rule(format!(
                                "cannot put {} at ({}, {}): {} stands there; move it first or leave that square out",
                                terrain.describe(),
                                pos.x,
                                pos.y,
                                e.combatant(&occupant)
                                    .map_or(occupant.clone(), |c| c.name.clone())
                            ))
                        }
                        other => other.into(),
                    });
                }
            }
            e.map = map;
            let timed = req.rounds.map(|r| TimedTerrain {
                squares: squares.clone(),
                previous,
                terrain: terrain.clone(),
                expires_round: e.round + r,
                source: req.source.clone(),
            });
            if timed.is_none() {
                forget_timed(&mut e, &squares);
            }
            let until = timed
                .as_ref()
                .map(|t| format!(" until the start of round {}", t.expires_round))
                .unwrap_or_default();
            let source = req
                .source
                .as_deref()
                .map(|s| format!(" ({s})"))
                .unwrap_or_default();
            if let Some(t) = &timed {
                e.timed_terrain.push(t.clone());
            }
            (
                format!(
                    "{} square{} became {}{source}{until}.",
                    squares.len(),
                    if squares.len() == 1 { "" } else { "s" },
                    terrain.describe()
                ),
                squares,
                timed,
            )
        }
        TerrainOp::Light => {
            let light = req.light.ok_or_else(|| {
                EngineError::invalid(
                    "light",
                    "say which light: bright, dim, darkness or magical_darkness",
                )
            })?;
            let squares = target_squares(&e, req)?;
            let words = light_words(light);
            if squares.is_empty() {
                e.map.set_default_light(light);
                (format!("The whole map is now in {words}."), squares, None)
            } else {
                for &p in &squares {
                    e.map.set_light(p, Some(light))?;
                }
                (
                    format!(
                        "{} square{} now in {words}.",
                        squares.len(),
                        if squares.len() == 1 { " is" } else { "s are" }
                    ),
                    squares,
                    None,
                )
            }
        }
        TerrainOp::Remove | TerrainOp::Clear => {
            let squares = if req.operation == TerrainOp::Clear {
                let (w, h) = (e.map.width() as i32, e.map.height() as i32);
                (0..h)
                    .flat_map(|y| (0..w).map(move |x| Position::new(x, y)))
                    .collect()
            } else {
                let s = target_squares(&e, req)?;
                if s.is_empty() {
                    return Err(EngineError::invalid(
                        "squares",
                        "name the squares to clear: squares [{x, y}], rect {from, to}, or center with radiusFt (or use operation clear)",
                    ));
                }
                s
            };
            let mut changed = Vec::new();
            for p in squares {
                let t = e.map.terrain(p)?;
                let hit = match req.kind {
                    Some(k) => k.matches(t),
                    None => *t != Terrain::Open,
                };
                if hit {
                    e.map.set_terrain(p, Terrain::Open)?;
                    changed.push(p);
                }
            }
            forget_timed(&mut e, &changed);
            let what = req
                .kind
                .map_or("terrain".to_string(), |k| terrain_of(req, k).describe());
            (
                format!(
                    "{} square{} of {what} cleared to open floor.",
                    changed.len(),
                    if changed.len() == 1 { "" } else { "s" }
                ),
                changed,
                None,
            )
        }
    };
    let headline = match scratch_note {
        Some(n) => format!("{headline} {n}"),
        None => headline,
    };
    e.log(headline.clone());
    super::save(call, &e)?;
    call.record_change("encounter", &e.id, headline.clone());
    Ok(TerrainOutcome {
        encounter_id: e.id.clone(),
        headline,
        changed,
        timed,
    })
}

impl TerrainOutcome {
    /// The headline, then the squares changed (up to 40).
    pub fn text(&self) -> String {
        let mut t = self.headline.clone();
        if !self.changed.is_empty() {
            let listed: Vec<String> = self
                .changed
                .iter()
                .take(40)
                .map(|p| format!("({},{})", p.x, p.y))
                .collect();
            t.push_str(&format!("\nSquares: {}", listed.join(" ")));
            if self.changed.len() > 40 {
                t.push_str(&format!(" … and {} more", self.changed.len() - 40));
            }
        }
        t
    }
}
