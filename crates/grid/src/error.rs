//! The one error type of the crate. Every message says what was wrong and how to fix it.

use crate::geometry::Position;

/// Why a grid operation was rejected. The `Display` text names the fix.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum GridError {
    /// The map dimensions are outside 1–200.
    #[error("map size {width}×{height} is invalid; width and height must each be 1–{max}")]
    InvalidDimensions {
        /// Requested width in squares.
        width: u32,
        /// Requested height in squares.
        height: u32,
        /// Largest allowed side.
        max: u32,
    },
    /// A position lies outside the map.
    #[error(
        "position {pos} is off the {width}×{height} map; x must be 0–{} and y 0–{}",
        width - 1,
        height - 1
    )]
    OffMap {
        /// The offending position.
        pos: Position,
        /// Map width in squares.
        width: u32,
        /// Map height in squares.
        height: u32,
    },
    /// A multi-square thing (creature, prop) anchored at `pos` would stick out of the map.
    #[error(
        "{what} at {pos} covers {w}×{h} squares and would extend off the {width}×{height} map; anchor its top-left square so x is 0–{} and y 0–{}",
        width.saturating_sub(*w),
        height.saturating_sub(*h)
    )]
    FootprintOffMap {
        /// What was being placed ("large creature 'ogre'", "prop 'table'").
        what: String,
        /// The requested top-left anchor.
        pos: Position,
        /// Footprint width in squares.
        w: u32,
        /// Footprint height in squares.
        h: u32,
        /// Map width in squares.
        width: u32,
        /// Map height in squares.
        height: u32,
    },
    /// A measurement (radius, length, size, footprint, …) was zero, negative or not finite.
    #[error("{what} must be a positive number of feet (got {value}); give e.g. {example}")]
    NonPositiveSize {
        /// Which measurement ("sphere radius_ft").
        what: String,
        /// The value given.
        value: f64,
        /// A sensible example ("20").
        example: &'static str,
    },
    /// A measurement in feet must be a multiple of 5 (one square).
    #[error("{what} must be a multiple of 5 ft (got {value}); round it to {} or {}", value - value.rem_euclid(5), value - value.rem_euclid(5) + 5)]
    NotMultipleOfFive {
        /// Which measurement.
        what: String,
        /// The value given.
        value: i32,
    },
    /// A square is blocked for what was asked (placing a creature into a wall, …).
    #[error("cannot {action} at {pos}: the square is {reason}; choose another square")]
    Blocked {
        /// What was attempted ("place creature 'gob'").
        action: String,
        /// The blocked square.
        pos: Position,
        /// What is there ("a wall", "a closed door", "prop 'crate'").
        reason: String,
    },
    /// A creature would overlap another creature.
    #[error(
        "cannot {action} at {pos}: the square is occupied by '{occupant}'; choose a free square (only tiny creatures may share)"
    )]
    Occupied {
        /// What was attempted.
        action: String,
        /// The contested square.
        pos: Position,
        /// Id of the creature already there.
        occupant: String,
    },
    /// An id is already used on this map.
    #[error(
        "{kind} id '{id}' is already on the map; use a different id or update/move the existing one"
    )]
    DuplicateId {
        /// "creature" or "prop".
        kind: &'static str,
        /// The duplicate id.
        id: String,
    },
    /// An id is not on this map.
    #[error("no {kind} with id '{id}' on the map; known {kind}s: {known}")]
    UnknownId {
        /// "creature" or "prop".
        kind: &'static str,
        /// The id asked for.
        id: String,
        /// Comma-separated ids that exist (or "none").
        known: String,
    },
    /// There is no door at a square.
    #[error("there is no door at {pos}; place one with set_door first")]
    NoDoor {
        /// The square asked about.
        pos: Position,
    },
    /// An area of effect needs a direction and none (or a degenerate one) was given.
    #[error("{0}")]
    BadDirection(String),
    /// A name (metric, compass direction, shape, …) was not recognised.
    #[error("unknown {kind} '{given}'{}; allowed: {}", suggestion.as_ref().map(|s| format!(" (did you mean '{s}'?)")).unwrap_or_default(), allowed.join(", "))]
    UnknownName {
        /// What kind of name.
        kind: &'static str,
        /// The value given.
        given: String,
        /// The closest allowed name, if any.
        suggestion: Option<String>,
        /// Every allowed name.
        allowed: Vec<String>,
    },
    /// Any other invalid argument; the message says what to change.
    #[error("{0}")]
    Invalid(String),
    /// Drawing or encoding an image failed (a bug or out of memory, not bad input).
    #[error("could not render the map as an image: {0}")]
    Render(String),
}

/// Shorthand result type of this crate.
pub type Result<T, E = GridError> = std::result::Result<T, E>;

impl GridError {
    /// Builds an [`GridError::UnknownName`] with a did-you-mean suggestion.
    pub(crate) fn unknown_name(kind: &'static str, given: &str, allowed: &[&str]) -> Self {
        GridError::UnknownName {
            kind,
            given: given.to_string(),
            suggestion: tabletop_rules::vocab::closest(given, allowed.iter().copied())
                .map(str::to_string),
            allowed: allowed.iter().map(|s| s.to_string()).collect(),
        }
    }

    /// Checks that a size in feet is positive and finite.
    pub(crate) fn check_positive(what: &str, value: f64, example: &'static str) -> Result<()> {
        if value.is_finite() && value > 0.0 {
            Ok(())
        } else {
            Err(GridError::NonPositiveSize {
                what: what.to_string(),
                value,
                example,
            })
        }
    }
}
