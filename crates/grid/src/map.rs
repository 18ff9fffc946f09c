//! The battle map: terrain per square, doors, props and creatures, with placement rules.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use tabletop_rules::Size;

use crate::error::{GridError, Result};
pub use crate::features::{Cover, Creature, DoorState, Footprint, Light, Prop, Terrain};
use crate::geometry::{Compass, Position, footprint, size_rank, size_squares};

/// Largest allowed map side, in squares.
pub const MAX_SIDE: u32 = 200;

/// Largest allowed |elevation| of a creature or mover, in squares (10,000 ft).
pub const MAX_ELEVATION_SQUARES: i32 = 2_000;

pub(crate) const F_BLOCK_MOVE: u8 = 1;
pub(crate) const F_BLOCK_SIGHT: u8 = 2;
pub(crate) const F_DIFFICULT: u8 = 4;
pub(crate) const F_WATER: u8 = 8;
pub(crate) const F_HAZARD: u8 = 16;
pub(crate) const F_SOLID: u8 = 32;
const COVER_SHIFT: u8 = 6;

#[derive(Debug, Clone, Default, PartialEq)]
struct Cell {
    terrain: Terrain,
    elevation_ft: i32,
    light: Option<Light>,
    obscured: bool,
}

/// The battle map: `width × height` squares (1–200 each) of terrain, with doors, props and
/// creatures. All queries (distance, areas, sight, cover, movement, rendering) live in methods
/// on this type, spread across the crate's modules.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "MapData", into = "MapData")]
pub struct BattleMap {
    width: u32,
    height: u32,
    cells: Vec<Cell>,
    flags: Vec<u8>,
    any_elevation: bool,
    default_light: Light,
    doors: BTreeMap<(i32, i32), DoorState>,
    props: BTreeMap<String, Prop>,
    creatures: BTreeMap<String, Creature>,
}

impl BattleMap {
    /// An all-open, brightly lit map. Errors unless both sides are 1–200 squares.
    pub fn new(width: u32, height: u32) -> Result<Self> {
        if !(1..=MAX_SIDE).contains(&width) || !(1..=MAX_SIDE).contains(&height) {
            return Err(GridError::InvalidDimensions {
                width,
                height,
                max: MAX_SIDE,
            });
        }
        let n = (width * height) as usize;
        Ok(BattleMap {
            width,
            height,
            cells: vec![Cell::default(); n],
            flags: vec![0; n],
            any_elevation: false,
            default_light: Light::Bright,
            doors: BTreeMap::new(),
            props: BTreeMap::new(),
            creatures: BTreeMap::new(),
        })
    }

    /// Width in squares.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Height in squares.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// Whether `(pos.x, pos.y)` is on the map (elevation is not limited).
    pub fn contains(&self, pos: Position) -> bool {
        self.in_bounds(pos.x, pos.y)
    }

    pub(crate) fn in_bounds(&self, x: i32, y: i32) -> bool {
        x >= 0 && y >= 0 && (x as u32) < self.width && (y as u32) < self.height
    }

    /// `Ok` when `pos` is on the map, else an error naming the valid ranges.
    pub fn check(&self, pos: Position) -> Result<()> {
        if self.contains(pos) {
            Ok(())
        } else {
            Err(GridError::OffMap {
                pos,
                width: self.width,
                height: self.height,
            })
        }
    }

    /// `Ok` when `pos` is on the map and its elevation is within ±[`MAX_ELEVATION_SQUARES`].
    pub(crate) fn check_with_z(&self, pos: Position) -> Result<()> {
        self.check(pos)?;
        if pos.z.abs() > MAX_ELEVATION_SQUARES {
            return Err(GridError::Invalid(format!(
                "elevation z {} at {pos} is out of range; z is in squares (5 ft each) and must be -{MAX_ELEVATION_SQUARES}–{MAX_ELEVATION_SQUARES}",
                pos.z
            )));
        }
        Ok(())
    }

    fn idx(&self, x: i32, y: i32) -> usize {
        y as usize * self.width as usize + x as usize
    }

    /// Flags of a square; off-map squares have none.
    pub(crate) fn flags(&self, x: i32, y: i32) -> u8 {
        if self.in_bounds(x, y) {
            self.flags[self.idx(x, y)]
        } else {
            0
        }
    }

    /// Cover level (0–3) a square gives as an obstacle on a line.
    pub(crate) fn cover_level(&self, x: i32, y: i32) -> u8 {
        self.flags(x, y) >> COVER_SHIFT
    }

    /// Whether creatures cannot enter the square (wall, obstacle, impassable low wall, shut door,
    /// movement-blocking prop). Off-map squares block.
    pub fn blocks_movement(&self, pos: Position) -> bool {
        !self.contains(pos) || self.flags(pos.x, pos.y) & F_BLOCK_MOVE != 0
    }

    /// Whether the square blocks line of sight (wall, obstacle, shut door, sight-blocking prop).
    pub fn blocks_sight(&self, pos: Position) -> bool {
        self.flags(pos.x, pos.y) & F_BLOCK_SIGHT != 0
    }

    /// Whether the square is heavily obscured (fog, sleet, magical darkness): sight does not
    /// pass into, out of or through it. Off-map squares are not.
    pub fn obscured(&self, pos: Position) -> bool {
        self.in_bounds(pos.x, pos.y) && self.cells[self.idx(pos.x, pos.y)].obscured
    }

    /// Makes one square heavily obscured, or clear again.
    pub fn set_obscured(&mut self, pos: Position, obscured: bool) -> Result<()> {
        self.check(pos)?;
        let i = self.idx(pos.x, pos.y);
        self.cells[i].obscured = obscured;
        Ok(())
    }

    /// Terrain of a square.
    pub fn terrain(&self, pos: Position) -> Result<&Terrain> {
        self.check(pos)?;
        Ok(&self.cells[self.idx(pos.x, pos.y)].terrain)
    }

    /// Sets the terrain of one square. Refuses to put impassable terrain under a creature.
    pub fn set_terrain(&mut self, pos: Position, terrain: Terrain) -> Result<()> {
        self.check(pos)?;
        let blocks = matches!(
            terrain,
            Terrain::Wall | Terrain::Obstacle | Terrain::LowWall { passable: false }
        );
        if blocks && let Some(c) = self.creature_at_xy(pos.x, pos.y) {
            return Err(GridError::Occupied {
                action: format!("make {}", terrain.describe()),
                pos,
                occupant: c.id.clone(),
            });
        }
        if matches!(terrain, Terrain::Wall | Terrain::Obstacle)
            && self.doors.contains_key(&(pos.x, pos.y))
        {
            return Err(GridError::Blocked {
                action: format!("make {}", terrain.describe()),
                pos,
                reason: "a door (remove_door first)".into(),
            });
        }
        let i = self.idx(pos.x, pos.y);
        self.cells[i].terrain = terrain;
        self.refresh(pos.x, pos.y);
        Ok(())
    }

    /// Sets the terrain of every square in the rectangle spanned by two corners (inclusive).
    /// Nothing changes if any square is rejected.
    pub fn fill_terrain(
        &mut self,
        corner_a: Position,
        corner_b: Position,
        terrain: Terrain,
    ) -> Result<()> {
        self.check(corner_a)?;
        self.check(corner_b)?;
        let before = self.clone();
        for y in corner_a.y.min(corner_b.y)..=corner_a.y.max(corner_b.y) {
            for x in corner_a.x.min(corner_b.x)..=corner_a.x.max(corner_b.x) {
                if let Err(e) = self.set_terrain(Position::new(x, y), terrain.clone()) {
                    *self = before;
                    return Err(e);
                }
            }
        }
        Ok(())
    }

    /// Ground elevation of a square in feet (default 0).
    pub fn elevation_ft(&self, pos: Position) -> Result<i32> {
        self.check(pos)?;
        Ok(self.cells[self.idx(pos.x, pos.y)].elevation_ft)
    }

    /// Sets the ground elevation of a square in feet (a multiple of 5; may be negative for pits).
    pub fn set_elevation_ft(&mut self, pos: Position, elevation_ft: i32) -> Result<()> {
        self.check(pos)?;
        if elevation_ft % 5 != 0 {
            return Err(GridError::NotMultipleOfFive {
                what: "elevation_ft".into(),
                value: elevation_ft,
            });
        }
        let i = self.idx(pos.x, pos.y);
        self.cells[i].elevation_ft = elevation_ft;
        self.any_elevation = elevation_ft != 0 || self.cells.iter().any(|c| c.elevation_ft != 0);
        Ok(())
    }

    /// Whether any square has a non-zero elevation (lets flat maps skip climbing).
    pub(crate) fn has_elevation(&self) -> bool {
        self.any_elevation
    }

    /// Ground level of a square in squares (`elevation_ft / 5`); 0 off the map.
    pub fn ground_z(&self, pos: Position) -> i32 {
        if self.contains(pos) {
            self.cells[self.idx(pos.x, pos.y)].elevation_ft / 5
        } else {
            0
        }
    }

    /// Light level used where no square sets its own.
    pub fn default_light(&self) -> Light {
        self.default_light
    }

    /// Sets the map-wide light level.
    pub fn set_default_light(&mut self, light: Light) {
        self.default_light = light;
    }

    /// Overrides (or with `None` clears) the light of one square.
    pub fn set_light(&mut self, pos: Position, light: Option<Light>) -> Result<()> {
        self.check(pos)?;
        let i = self.idx(pos.x, pos.y);
        self.cells[i].light = light;
        Ok(())
    }

    /// A square's own light, when it overrides the map default.
    pub fn light_override(&self, pos: Position) -> Option<Light> {
        if self.contains(pos) {
            self.cells[self.idx(pos.x, pos.y)].light
        } else {
            None
        }
    }

    /// Light at a square: its own override, else the map default.
    pub fn light_at(&self, pos: Position) -> Light {
        if self.contains(pos) {
            self.cells[self.idx(pos.x, pos.y)]
                .light
                .unwrap_or(self.default_light)
        } else {
            self.default_light
        }
    }

    /// The door at a square, if any.
    pub fn door(&self, pos: Position) -> Option<DoorState> {
        self.doors.get(&(pos.x, pos.y)).copied()
    }

    /// Every door with its square, in row-major order.
    pub fn doors(&self) -> impl Iterator<Item = (Position, DoorState)> + '_ {
        self.doors
            .iter()
            .map(|(&(x, y), &s)| (Position::new(x, y), s))
    }

    /// Places a door at a square, or changes its state. A door stands in an opening, so the
    /// square must not be a wall or obstacle; a creature in the doorway prevents shutting it.
    pub fn set_door(&mut self, pos: Position, state: DoorState) -> Result<()> {
        self.check(pos)?;
        let i = self.idx(pos.x, pos.y);
        if matches!(self.cells[i].terrain, Terrain::Wall | Terrain::Obstacle) {
            return Err(GridError::Blocked {
                action: "place a door".into(),
                pos,
                reason: format!(
                    "{} (set the terrain to open first: a door fills a gap in the wall)",
                    self.cells[i].terrain.describe()
                ),
            });
        }
        if state.is_shut()
            && let Some(c) = self.creature_at_xy(pos.x, pos.y)
        {
            return Err(GridError::Occupied {
                action: "shut the door".into(),
                pos,
                occupant: c.id.clone(),
            });
        }
        self.doors.insert((pos.x, pos.y), state);
        self.refresh(pos.x, pos.y);
        Ok(())
    }

    /// Removes the door at a square, returning its state.
    pub fn remove_door(&mut self, pos: Position) -> Result<DoorState> {
        self.check(pos)?;
        let s = self
            .doors
            .remove(&(pos.x, pos.y))
            .ok_or(GridError::NoDoor { pos })?;
        self.refresh(pos.x, pos.y);
        Ok(s)
    }

    /// Places a new prop. Its footprint must be on the map and not inside walls; a prop that
    /// blocks movement cannot be dropped onto a creature.
    pub fn place_prop(&mut self, prop: Prop) -> Result<()> {
        if self.props.contains_key(&prop.id) {
            return Err(GridError::DuplicateId {
                kind: "prop",
                id: prop.id,
            });
        }
        self.validate_prop(&prop)?;
        let id = prop.id.clone();
        self.props.insert(id.clone(), prop);
        self.refresh_prop(&id);
        Ok(())
    }

    fn validate_prop(&self, prop: &Prop) -> Result<()> {
        if prop.id.trim().is_empty() {
            return Err(GridError::Invalid(
                "prop id is empty; give the prop a unique id such as \"table-1\"".into(),
            ));
        }
        let (w, h) = prop.footprint.squares()?;
        self.check_rect(&format!("prop '{}'", prop.id), prop.position, w, h)?;
        for sq in prop.squares()? {
            let cell = &self.cells[self.idx(sq.x, sq.y)];
            if matches!(cell.terrain, Terrain::Wall | Terrain::Obstacle) {
                return Err(GridError::Blocked {
                    action: format!("place prop '{}'", prop.id),
                    pos: sq,
                    reason: cell.terrain.describe(),
                });
            }
            if prop.blocks_movement
                && let Some(c) = self.creature_at_xy(sq.x, sq.y)
            {
                return Err(GridError::Occupied {
                    action: format!("place prop '{}'", prop.id),
                    pos: sq,
                    occupant: c.id.clone(),
                });
            }
        }
        Ok(())
    }

    /// Removes a prop, returning it.
    pub fn remove_prop(&mut self, id: &str) -> Result<Prop> {
        let prop = self
            .props
            .remove(id)
            .ok_or_else(|| self.unknown("prop", id))?;
        if let Ok(sq) = prop.squares() {
            for p in sq {
                self.refresh(p.x, p.y);
            }
        }
        Ok(prop)
    }

    /// Changes a prop in place through `edit` (any field except `id`); the result is validated
    /// like a new placement and nothing changes if it is rejected.
    pub fn update_prop(&mut self, id: &str, edit: impl FnOnce(&mut Prop)) -> Result<()> {
        let old = self
            .props
            .get(id)
            .cloned()
            .ok_or_else(|| self.unknown("prop", id))?;
        let mut new = old.clone();
        edit(&mut new);
        new.id = old.id.clone();
        let removed = self.remove_prop(id)?;
        if let Err(e) = self.validate_prop(&new) {
            self.props.insert(removed.id.clone(), removed);
            self.refresh_prop(id);
            return Err(e);
        }
        self.props.insert(new.id.clone(), new);
        self.refresh_prop(id);
        Ok(())
    }

    /// Moves a prop's top-left square to `to`.
    pub fn move_prop(&mut self, id: &str, to: Position) -> Result<()> {
        self.update_prop(id, |p| p.position = to)
    }

    /// A prop by id.
    pub fn prop(&self, id: &str) -> Option<&Prop> {
        self.props.get(id)
    }

    /// Every prop, ordered by id.
    pub fn props(&self) -> impl Iterator<Item = &Prop> + '_ {
        self.props.values()
    }

    /// Props whose footprint covers the square.
    pub fn props_at(&self, pos: Position) -> impl Iterator<Item = &Prop> + '_ {
        self.props.values().filter(move |p| {
            p.squares()
                .is_ok_and(|mut s| s.any(|q| q.x == pos.x && q.y == pos.y))
        })
    }

    /// Checks whether a creature of `size` could stand at `pos` (ignoring the creature `ignore`,
    /// normally itself): on the map, no blocking square, no overlap with another creature
    /// (tiny creatures may share).
    pub fn check_placement(&self, pos: Position, size: Size, ignore: Option<&str>) -> Result<()> {
        let n = size_squares(size);
        let label = match ignore {
            Some(id) => format!("{} creature '{id}'", size_name(size)),
            None => format!("{} creature", size_name(size)),
        };
        self.check_with_z(pos)?;
        self.check_rect(&label, pos, n, n)?;
        // Squeezed: the space one size smaller, at the same corner, is clear of walls.
        let squeezed = n > 1
            && footprint(pos, size).any(|sq| self.flags(sq.x, sq.y) & F_BLOCK_MOVE != 0)
            && (pos.y..pos.y + n - 1)
                .all(|y| (pos.x..pos.x + n - 1).all(|x| self.flags(x, y) & F_BLOCK_MOVE == 0));
        for sq in footprint(pos, size) {
            if !squeezed && self.flags(sq.x, sq.y) & F_BLOCK_MOVE != 0 {
                return Err(GridError::Blocked {
                    action: format!("place {label}"),
                    pos: sq,
                    reason: self.describe_blocker(sq),
                });
            }
        }
        let probe = Creature {
            id: String::new(),
            position: pos,
            size,
        };
        for c in self.creatures.values() {
            if Some(c.id.as_str()) == ignore || c.size == Size::Tiny || size == Size::Tiny {
                continue;
            }
            if let Some(sq) = overlap(&probe, c) {
                return Err(GridError::Occupied {
                    action: format!("place {label}"),
                    pos: sq,
                    occupant: c.id.clone(),
                });
            }
        }
        Ok(())
    }

    /// Places a new creature (see [`BattleMap::check_placement`] for the rules).
    pub fn place_creature(
        &mut self,
        id: impl Into<String>,
        pos: Position,
        size: Size,
    ) -> Result<()> {
        let id = id.into();
        if id.trim().is_empty() {
            return Err(GridError::Invalid(
                "creature id is empty; give the creature a unique id such as \"goblin-1\"".into(),
            ));
        }
        if self.creatures.contains_key(&id) {
            return Err(GridError::DuplicateId {
                kind: "creature",
                id,
            });
        }
        self.check_placement(pos, size, Some(&id))?;
        self.creatures.insert(
            id.clone(),
            Creature {
                id,
                position: pos,
                size,
            },
        );
        Ok(())
    }

    /// Changes a creature's size where it stands (its top-left square kept), when the new space
    /// is free (see [`BattleMap::check_placement`]).
    pub fn resize_creature(&mut self, id: &str, size: Size) -> Result<()> {
        self.replace_creature(id, None, Some(size))
    }

    /// Puts a placed creature at `to` and/or gives it `size`, when its new space is free.
    fn replace_creature(
        &mut self,
        id: &str,
        to: Option<Position>,
        size: Option<Size>,
    ) -> Result<()> {
        let c = self
            .creatures
            .get(id)
            .ok_or_else(|| self.unknown("creature", id))?;
        let (pos, size) = (to.unwrap_or(c.position), size.unwrap_or(c.size));
        self.check_placement(pos, size, Some(id))?;
        if let Some(c) = self.creatures.get_mut(id) {
            c.position = pos;
            c.size = size;
        }
        Ok(())
    }

    /// Moves a creature to `to` (teleport: no path or cost check; use the movement module for
    /// that).
    pub fn move_creature(&mut self, id: &str, to: Position) -> Result<()> {
        self.replace_creature(id, Some(to), None)
    }

    /// Whether a creature is squeezing: Large or bigger, its space runs into walls or obstacles
    /// and it fits only the space one size smaller (attack rolls and DEX saves at
    /// disadvantage, attacks against it at advantage).
    pub fn is_squeezing(&self, id: &str) -> bool {
        self.creatures.get(id).is_some_and(|c| {
            size_squares(c.size) > 1
                && c.squares()
                    .any(|q| self.contains(q) && self.flags(q.x, q.y) & F_BLOCK_MOVE != 0)
        })
    }

    /// Changes a creature's size (enlarge/reduce); its new space must be free.
    pub fn set_creature_size(&mut self, id: &str, size: Size) -> Result<()> {
        let pos = self
            .creatures
            .get(id)
            .ok_or_else(|| self.unknown("creature", id))?
            .position;
        self.check_placement(pos, size, Some(id))?;
        if let Some(c) = self.creatures.get_mut(id) {
            c.size = size;
        }
        Ok(())
    }

    /// Removes a creature, returning it.
    pub fn remove_creature(&mut self, id: &str) -> Result<Creature> {
        self.creatures
            .remove(id)
            .ok_or_else(|| self.unknown("creature", id))
    }

    /// A creature by id.
    pub fn creature(&self, id: &str) -> Option<&Creature> {
        self.creatures.get(id)
    }

    /// A creature by id, or an error listing the known ids.
    pub fn require_creature(&self, id: &str) -> Result<&Creature> {
        self.creatures
            .get(id)
            .ok_or_else(|| self.unknown("creature", id))
    }

    /// Every creature, ordered by id.
    pub fn creatures(&self) -> impl Iterator<Item = &Creature> + '_ {
        self.creatures.values()
    }

    /// Creatures whose space includes the square (any elevation).
    pub fn creatures_at(&self, pos: Position) -> impl Iterator<Item = &Creature> + '_ {
        self.creatures
            .values()
            .filter(move |c| c.squares().any(|q| q.x == pos.x && q.y == pos.y))
    }

    /// Distance in feet between two creatures' nearest occupied squares (see
    /// [`footprint_distance_ft`](crate::geometry::footprint_distance_ft)).
    pub fn creature_distance_ft(
        &self,
        a: &str,
        b: &str,
        metric: crate::geometry::Metric,
    ) -> Result<u32> {
        let a = self.require_creature(a)?;
        let b = self.require_creature(b)?;
        Ok(crate::geometry::footprint_distance_ft(
            a.position, a.size, b.position, b.size, metric,
        ))
    }

    /// The (up to 8) on-map squares around `pos`, clockwise from north, same elevation.
    pub fn adjacent(&self, pos: Position) -> Vec<Position> {
        Compass::ALL
            .iter()
            .map(|c| {
                let (dx, dy) = c.step();
                pos.offset(dx, dy)
            })
            .filter(|p| self.contains(*p))
            .collect()
    }

    /// What makes a square impassable, for error messages.
    pub(crate) fn describe_blocker(&self, pos: Position) -> String {
        if !self.contains(pos) {
            return "off the map".into();
        }
        let cell = &self.cells[self.idx(pos.x, pos.y)];
        if matches!(
            cell.terrain,
            Terrain::Wall | Terrain::Obstacle | Terrain::LowWall { passable: false }
        ) {
            return cell.terrain.describe();
        }
        if let Some(d) = self.door(pos).filter(|d| d.is_shut()) {
            return format!(
                "a {} door",
                if d == DoorState::Locked {
                    "locked"
                } else {
                    "closed"
                }
            );
        }
        if let Some(p) = self.props_at(pos).find(|p| p.blocks_movement) {
            return format!("prop '{}'", p.id);
        }
        cell.terrain.describe()
    }

    fn creature_at_xy(&self, x: i32, y: i32) -> Option<&Creature> {
        self.creatures_at(Position::new(x, y)).next()
    }

    fn check_rect(&self, what: &str, pos: Position, w: i32, h: i32) -> Result<()> {
        self.check(pos)?;
        if !self.in_bounds(pos.x + w - 1, pos.y + h - 1) {
            return Err(GridError::FootprintOffMap {
                what: what.to_string(),
                pos,
                w: w as u32,
                h: h as u32,
                width: self.width,
                height: self.height,
            });
        }
        Ok(())
    }

    pub(crate) fn unknown(&self, kind: &'static str, id: &str) -> GridError {
        let known: Vec<&str> = match kind {
            "prop" => self.props.keys().map(String::as_str).collect(),
            _ => self.creatures.keys().map(String::as_str).collect(),
        };
        GridError::UnknownId {
            kind,
            id: id.to_string(),
            known: if known.is_empty() {
                "none".into()
            } else {
                known.join(", ")
            },
        }
    }

    fn refresh_prop(&mut self, id: &str) {
        let squares: Vec<Position> = self
            .props
            .get(id)
            .and_then(|p| p.squares().ok())
            .map(Iterator::collect)
            .unwrap_or_default();
        for p in squares {
            self.refresh(p.x, p.y);
        }
    }

    /// Recomputes the cached flags of one square from terrain, door and props.
    fn refresh(&mut self, x: i32, y: i32) {
        if !self.in_bounds(x, y) {
            return;
        }
        let i = self.idx(x, y);
        let mut f = 0u8;
        let mut cover = Cover::None;
        match &self.cells[i].terrain {
            Terrain::Open => {}
            Terrain::Wall | Terrain::Obstacle => {
                f |= F_BLOCK_MOVE | F_BLOCK_SIGHT | F_SOLID;
                cover = Cover::Total;
            }
            Terrain::LowWall { passable } => {
                f |= if *passable { F_DIFFICULT } else { F_BLOCK_MOVE };
                cover = Cover::Half;
            }
            Terrain::Difficult => f |= F_DIFFICULT,
            Terrain::Water => f |= F_WATER,
            Terrain::Hazard { .. } => f |= F_HAZARD,
        }
        if self.doors.get(&(x, y)).is_some_and(|d| d.is_shut()) {
            f |= F_BLOCK_MOVE | F_BLOCK_SIGHT;
            cover = Cover::Total;
        }
        let pos = Position::new(x, y);
        for p in self.props_at(pos) {
            if p.blocks_movement {
                f |= F_BLOCK_MOVE;
            }
            if p.blocks_sight {
                f |= F_BLOCK_SIGHT;
            }
            cover = cover.max(p.effective_cover());
        }
        self.flags[i] = f | (cover.level() << COVER_SHIFT);
    }
}

fn size_name(size: Size) -> &'static str {
    match size {
        Size::Tiny => "tiny",
        Size::Small => "small",
        Size::Medium => "medium",
        Size::Large => "large",
        Size::Huge => "huge",
        Size::Gargantuan => "gargantuan",
    }
}

/// First square (on `a`'s level) where two creature spaces overlap in x, y and z.
fn overlap(a: &Creature, b: &Creature) -> Option<Position> {
    let (na, nb) = (size_squares(a.size), size_squares(b.size));
    let (pa, pb) = (a.position, b.position);
    let range = |a0: i32, la: i32, b0: i32, lb: i32| {
        let lo = a0.max(b0);
        let hi = (a0 + la).min(b0 + lb);
        (lo < hi).then_some(lo)
    };
    let x = range(pa.x, na, pb.x, nb)?;
    let y = range(pa.y, na, pb.y, nb)?;
    let z = range(pa.z, na, pb.z, nb)?;
    Some(Position::new_3d(x, y, z))
}

/// Size rank difference helper used by movement.
pub(crate) fn sizes_apart(a: Size, b: Size) -> i32 {
    (size_rank(a) - size_rank(b)).abs()
}

/// One square whose terrain, elevation or light differs from the default (sparse storage).
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct SquareData {
    x: i32,
    y: i32,
    #[serde(default, skip_serializing_if = "is_open")]
    terrain: Terrain,
    #[serde(default, skip_serializing_if = "is_zero")]
    elevation_ft: i32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    light: Option<Light>,
    /// Heavily obscured (fog, magical darkness, sleet): nothing sees into, out of or through it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    obscured: bool,
}

fn is_open(t: &Terrain) -> bool {
    *t == Terrain::Open
}

fn is_zero(v: &i32) -> bool {
    *v == 0
}

/// A door entry in the serialised map.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct DoorData {
    position: Position,
    state: DoorState,
}

/// Serialised form of [`BattleMap`]: only non-default squares are listed.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct MapData {
    width: u32,
    height: u32,
    #[serde(default)]
    default_light: Light,
    #[serde(default)]
    squares: Vec<SquareData>,
    #[serde(default)]
    doors: Vec<DoorData>,
    #[serde(default)]
    props: Vec<Prop>,
    #[serde(default)]
    creatures: Vec<Creature>,
}

impl From<BattleMap> for MapData {
    fn from(m: BattleMap) -> Self {
        let mut squares = Vec::new();
        for y in 0..m.height as i32 {
            for x in 0..m.width as i32 {
                let c = &m.cells[m.idx(x, y)];
                if *c != Cell::default() {
                    squares.push(SquareData {
                        x,
                        y,
                        terrain: c.terrain.clone(),
                        elevation_ft: c.elevation_ft,
                        light: c.light,
                        obscured: c.obscured,
                    });
                }
            }
        }
        MapData {
            width: m.width,
            height: m.height,
            default_light: m.default_light,
            squares,
            doors: m
                .doors
                .iter()
                .map(|(&(x, y), &state)| DoorData {
                    position: Position::new(x, y),
                    state,
                })
                .collect(),
            props: m.props.into_values().collect(),
            creatures: m.creatures.into_values().collect(),
        }
    }
}

impl TryFrom<MapData> for BattleMap {
    type Error = GridError;

    fn try_from(d: MapData) -> Result<Self> {
        let mut m = BattleMap::new(d.width, d.height)?;
        m.default_light = d.default_light;
        for s in d.squares {
            let p = Position::new(s.x, s.y);
            m.set_terrain(p, s.terrain)?;
            m.set_elevation_ft(p, s.elevation_ft)?;
            m.set_light(p, s.light)?;
            m.set_obscured(p, s.obscured)?;
        }
        for door in d.doors {
            m.set_door(door.position, door.state)?;
        }
        for p in d.props {
            m.place_prop(p)?;
        }
        for c in d.creatures {
            m.place_creature(c.id, c.position, c.size)?;
        }
        Ok(m)
    }
}

#[cfg(test)]
mod tests;
