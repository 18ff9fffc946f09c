//! `calculate_movement`: the cheapest path to a square (A*, terrain costs, the mover's size and
//! other creatures' spaces), every square reachable with the movement left this turn, or the
//! squares around a creature; warns which hostiles would get an opportunity attack.

use serde::Serialize;
use tabletop_grid::{Metric, MoveOptions, OpportunityRisk, Path, Position, footprint};

use super::{Spot, combatant_spot, sheets, speed_ft};
use crate::combat::actions::Who;
use crate::engine::Call;
use crate::error::{EngineError, Result};

/// What to compute.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum MoveMode {
    /// The cheapest path to `to`.
    #[default]
    Path,
    /// Every square reachable with the movement left.
    Reach,
    /// The squares around the mover.
    Adjacent,
}

/// How the mover moves.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Locomotion {
    /// On foot (walking speed).
    #[default]
    Walk,
    /// Flying (fly speed; ignores difficult terrain, water and climbing).
    Fly,
    /// Swimming (swim speed; water costs normal movement).
    Swim,
    /// Climbing (climb speed as the budget).
    Climb,
}

impl Locomotion {
    fn key(self) -> &'static str {
        match self {
            Locomotion::Walk => "walk",
            Locomotion::Fly => "fly",
            Locomotion::Swim => "swim",
            Locomotion::Climb => "climb",
        }
    }
}

/// A `calculate_movement` request.
#[derive(Debug, Clone, Default)]
pub struct MovementRequest {
    /// Encounter (default: the active one); an ended one by id too.
    pub encounter_id: Option<String>,
    /// A scratch map (plain squares, the terrain given) instead of an encounter's; used too
    /// when no encounter is active (see [`crate::combat::spatial::scratch`]).
    pub scratch: Option<crate::combat::create::TerrainSpec>,
    /// What to compute.
    pub mode: MoveMode,
    /// The moving combatant.
    pub mover: Who,
    /// Start square (default: the mover's square; required without a mover).
    pub from: Option<Position>,
    /// Destination (path).
    pub to: Option<Position>,
    /// Movement budget in feet (default: what the mover has left this turn).
    pub movement_ft: Option<u32>,
    /// Diagonal rule (default grid_5e).
    pub metric: Metric,
    /// Walk (default), fly, swim or climb.
    pub locomotion: Locomotion,
}

/// A hostile that would get an opportunity attack.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OpportunityWarning {
    /// Its character id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Its reach in feet.
    pub reach_ft: u32,
    /// Where the mover leaves its reach.
    pub risk: OpportunityRisk,
}

/// One square around the mover.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Neighbour {
    /// The square.
    pub position: Position,
    /// Its terrain in words.
    pub terrain: String,
    /// Who stands there.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub occupant: Option<String>,
    /// Whether creatures cannot enter it (wall, shut door, blocking prop, off the map).
    pub blocked: bool,
}

/// What `calculate_movement` found.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MovementOutcome {
    /// Encounter id.
    pub encounter_id: String,
    /// The mover, when a combatant.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mover: Option<Spot>,
    /// Start square.
    pub from: Position,
    /// How it moves.
    pub locomotion: &'static str,
    /// Movement budget in feet.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub budget_ft: Option<u32>,
    /// Path mode: the cheapest path (start first), or none when no route exists.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<Path>,
    /// Path mode: whether the whole path fits the budget.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub within_budget: Option<bool>,
    /// Path mode: the farthest square along the path the budget reaches and the mover can stop
    /// on, when the whole path does not fit.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stops_at: Option<Position>,
    /// Path mode: hostiles whose reach the path leaves.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub opportunity_attacks: Vec<OpportunityWarning>,
    /// The mover has disengaged: its movement provokes no opportunity attacks.
    pub disengaged: bool,
    /// Reach mode: every square it can end on, with the cost in feet.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub reachable: Vec<(Position, u32)>,
    /// Adjacent mode: the squares around its space.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub adjacent: Vec<Neighbour>,
    /// How the request was read.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// Paths, reach and neighbours on the encounter's map.
pub fn calculate_movement(call: &Call<'_>, req: &MovementRequest) -> Result<MovementOutcome> {
    let e = crate::combat::spatial::scratch::map_to_read(
        call,
        req.encounter_id.as_deref(),
        req.scratch.as_ref(),
    )?;
    let sheets = sheets(call, &e)?;
    let mover = if req.mover.is_empty() {
        None
    } else {
        Some(super::super::find_combatant(
            &e,
            req.mover.id.as_deref(),
            req.mover.name.as_deref(),
            "moverId",
        )?)
    };
    let spot = mover.map(|m| combatant_spot(&e, m)).transpose()?;
    let from = match (req.from, &spot) {
        (Some(f), _) => f,
        (None, Some(s)) => s.position,
        (None, None) => {
            return Err(EngineError::invalid(
                "moverId",
                "name the moving combatant (moverId/moverName) or give from {x, y}",
            ));
        }
    };
    e.map.check(from)?;
    let sheet = mover.and_then(|m| sheets.get(&m.character_id));
    let mut notes = Vec::new();
    let speed = match sheet {
        Some(s) => {
            let v = speed_ft(s, req.locomotion.key());
            if v.is_none() && req.movement_ft.is_none() && req.mode != MoveMode::Adjacent {
                return Err(EngineError::Rule(format!(
                    "{} has no {} speed; use locomotion walk, or give movementFt",
                    s.name,
                    req.locomotion.key()
                )));
            }
            v
        }
        None => None,
    };
    let budget_ft = match (req.movement_ft, mover, speed) {
        (Some(b), _, _) => Some(b),
        (None, Some(m), Some(speed)) => {
            Some((speed + m.economy.movement_bonus_ft).saturating_sub(m.economy.movement_used_ft))
        }
        _ => None,
    };
    if req.locomotion == Locomotion::Climb {
        notes.push(
            "climbing: the climb speed is the budget; the map charges height climbed as on foot"
                .into(),
        );
    }
    let swim = sheet.is_some_and(|s| {
        speed_ft(s, "swim").is_some() || crate::magic::wards::walks_on_water(s).is_some()
    }) || req.locomotion == Locomotion::Swim;
    let opts = MoveOptions {
        metric: req.metric,
        mover: mover.map(|m| m.character_id.clone()),
        size: spot.as_ref().map(|s| s.size),
        hostile_ids: match mover {
            Some(m) => e
                .order
                .iter()
                .filter(|c| !c.removed && c.side.hostile_to(m.side))
                .filter(|c| sheets.get(&c.character_id).is_some_and(|s| !s.dead))
                .map(|c| c.character_id.clone())
                .collect(),
            None => Vec::new(),
        },
        swim_speed: swim,
        flying: req.locomotion == Locomotion::Fly,
        ignore_difficult_terrain: sheet
            .is_some_and(|s| crate::magic::wards::ignores_difficult_terrain(s).is_some()),
        through_larger: sheet.is_some_and(crate::combat::actions::movement::moves_through_larger),
    };
    let disengaged = mover.is_some_and(|m| m.flags.disengaged);
    let mut out = MovementOutcome {
        encounter_id: e.id.clone(),
        mover: spot.clone(),
        from,
        locomotion: req.locomotion.key(),
        budget_ft,
        path: None,
        within_budget: None,
        stops_at: None,
        opportunity_attacks: Vec::new(),
        disengaged,
        reachable: Vec::new(),
        adjacent: Vec::new(),
        notes,
    };
    match req.mode {
        MoveMode::Path => {
            let to = req.to.ok_or_else(|| {
                EngineError::invalid("to", "path mode needs the destination square to {x, y}")
            })?;
            let Some(path) = e.map.find_path(from, to, &opts)? else {
                out.notes.push(format!(
                    "no route from {} to {}: walls, shut doors or hostile creatures close every way",
                    super::square_label(from),
                    super::square_label(to)
                ));
                return Ok(out);
            };
            if let Some(b) = budget_ft {
                let fits = path.cost_ft <= b;
                out.within_budget = Some(fits);
                if !fits {
                    let part = path.within_ft(b);
                    out.stops_at = part
                        .squares
                        .iter()
                        .rev()
                        .find(|p| e.map.can_stop_at(**p, &opts).unwrap_or(false) || **p == from)
                        .copied();
                }
            }
            if let Some(m) = mover
                && !disengaged
            {
                let mover_sheet = super::super::sheet(call, &m.character_id)?;
                let threats = crate::combat::actions::movement::threats(call, &e, &mover_sheet)?;
                let risks = e.map.opportunity_attack_risks(
                    &path.squares,
                    &m.character_id,
                    &threats,
                    req.metric,
                )?;
                out.opportunity_attacks = risks
                    .into_iter()
                    .map(|r| OpportunityWarning {
                        name: e
                            .combatant(&r.hostile_id)
                            .map(|c| c.name.clone())
                            .unwrap_or_else(|| r.hostile_id.clone()),
                        reach_ft: threats
                            .iter()
                            .find(|t| t.id == r.hostile_id)
                            .map_or(5, |t| t.reach_ft),
                        id: r.hostile_id.clone(),
                        risk: r,
                    })
                    .collect();
            }
            out.path = Some(path);
        }
        MoveMode::Reach => {
            let b = budget_ft.ok_or_else(|| {
                EngineError::invalid(
                    "movementFt",
                    "reach needs a mover (its movement left) or movementFt",
                )
            })?;
            out.reachable = e.map.reach(from, b, &opts)?;
        }
        MoveMode::Adjacent => {
            let size = spot
                .as_ref()
                .map_or(tabletop_grid::Size::Medium, |s| s.size);
            let n = tabletop_grid::size_squares(size);
            let own: Vec<Position> = footprint(from, size).collect();
            let ring: Vec<Position> = if n == 1 {
                e.map.adjacent(from)
            } else {
                (from.y - 1..=from.y + n)
                    .flat_map(|y| {
                        (from.x - 1..=from.x + n).map(move |x| Position::new_3d(x, y, from.z))
                    })
                    .filter(|p| e.map.contains(*p) && !own.iter().any(|o| o.x == p.x && o.y == p.y))
                    .collect()
            };
            out.adjacent = ring
                .into_iter()
                .map(|p| Neighbour {
                    terrain: e
                        .map
                        .terrain(p)
                        .map(|t| t.describe())
                        .unwrap_or_else(|_| "off the map".into()),
                    occupant: e
                        .map
                        .creatures_at(p)
                        .find(|c| Some(&c.id) != opts.mover.as_ref())
                        .map(|c| {
                            e.combatant(&c.id)
                                .map(|cb| cb.name.clone())
                                .unwrap_or_else(|| c.id.clone())
                        }),
                    blocked: e.map.blocks_movement(p),
                    position: p,
                })
                .collect();
        }
    }
    Ok(out)
}

impl MovementOutcome {
    /// The result first: cost and fit, then opportunity attacks; or the reachable area; or the
    /// neighbours.
    pub fn text(&self) -> String {
        let who = self
            .mover
            .as_ref()
            .map_or_else(|| "A creature".to_string(), |s| s.label.clone());
        let from = super::square_label(self.from);
        let mut t: String;
        if let Some(p) = &self.path {
            let to = p.squares.last().copied().unwrap_or(self.from);
            t = format!(
                "Path for {who} from {from} to {}: {} ft over {} squares",
                super::square_label(to),
                p.cost_ft,
                p.squares.len().saturating_sub(1)
            );
            match (self.budget_ft, self.within_budget) {
                (Some(b), Some(true)) => t.push_str(&format!(" — within the {b} ft left.")),
                (Some(b), Some(false)) => {
                    t.push_str(&format!(" — more than the {b} ft left"));
                    if let Some(s) = self.stops_at {
                        t.push_str(&format!(
                            "; this turn it gets as far as {}",
                            super::square_label(s)
                        ));
                    }
                    t.push('.');
                }
                _ => t.push('.'),
            }
            let steps: Vec<String> = p
                .squares
                .iter()
                .map(|q| format!("({},{})", q.x, q.y))
                .collect();
            t.push_str(&format!("\nRoute: {}", steps.join(" → ")));
            if self.disengaged {
                t.push_str("\nDisengaged: no opportunity attacks.");
            } else if self.mover.is_some() {
                if self.opportunity_attacks.is_empty() {
                    t.push_str("\nNo opportunity attacks along this path.");
                } else {
                    let w: Vec<String> = self
                        .opportunity_attacks
                        .iter()
                        .map(|o| {
                            format!(
                                "{} (leaving its {} ft reach at {})",
                                o.name,
                                o.reach_ft,
                                super::square_label(o.risk.from)
                            )
                        })
                        .collect();
                    t.push_str(&format!(
                        "\nWarning: opportunity attacks from {} (disengage first to avoid them).",
                        w.join(", ")
                    ));
                }
            }
        } else if !self.reachable.is_empty() {
            let b = self.budget_ft.unwrap_or(0);
            let far = self.reachable.iter().map(|(_, c)| *c).max().unwrap_or(0);
            let (mut x0, mut y0, mut x1, mut y1) = (i32::MAX, i32::MAX, i32::MIN, i32::MIN);
            for (p, _) in &self.reachable {
                x0 = x0.min(p.x);
                y0 = y0.min(p.y);
                x1 = x1.max(p.x);
                y1 = y1.max(p.y);
            }
            t = format!(
                "{who} can reach {} squares from {from} with {b} ft ({}; x {x0}–{x1}, y {y0}–{y1}; the farthest cost {far} ft).",
                self.reachable.len(),
                self.locomotion
            );
            let listed: Vec<String> = self
                .reachable
                .iter()
                .rev()
                .take(super::area::TEXT_SQUARES)
                .map(|(p, c)| format!("({},{}) {c}", p.x, p.y))
                .collect();
            t.push_str(&format!("\nFarthest first: {}", listed.join(", ")));
            if self.reachable.len() > super::area::TEXT_SQUARES {
                t.push_str(" … (all in structuredContent.reachable)");
            }
        } else if !self.adjacent.is_empty() {
            let free = self
                .adjacent
                .iter()
                .filter(|n| !n.blocked && n.occupant.is_none())
                .count();
            t = format!(
                "{} squares around {who} at {from}, {free} free:",
                self.adjacent.len()
            );
            for n in &self.adjacent {
                let mut bits = vec![n.terrain.clone()];
                if let Some(o) = &n.occupant {
                    bits.push(format!("occupied by {o}"));
                }
                if n.blocked {
                    bits.push("blocked".into());
                }
                t.push_str(&format!(
                    "\n- {} {}",
                    super::square_label(n.position),
                    bits.join(", ")
                ));
            }
        } else if let Some(n) = self.notes.iter().find(|n| n.starts_with("no route")) {
            return format!("No route for {who}: {}.", n.trim_start_matches("no route "));
        } else if self.budget_ft == Some(0) {
            t = format!("{who} has no movement left this turn.");
        } else {
            t = format!("{who} cannot move from {from}.");
        }
        for n in &self.notes {
            t.push_str(&format!("\nNote: {n}."));
        }
        t
    }
}
