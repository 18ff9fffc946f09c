//! Auras as an encounter holds them: a radius around a bearer, what it does to a creature inside,
//! whom it touches and what holds it up. Applying them on the turn loop is `combat::auras`.

use serde::{Deserialize, Serialize};
use tabletop_grid::{Position, Terrain};
use tabletop_rules::{Ability, Condition, DamageType};

/// When a zone acts on a creature.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum ZoneTrigger {
    /// When it starts its turn inside or enters it for the first time on a turn (Spirit
    /// Guardians, Moonbeam, Cloudkill, Web).
    #[default]
    StartOrEnter,
    /// Only when it starts its turn inside (Stinking Cloud).
    Start,
    /// Only when it enters it for the first time on a turn (Guardian of Faith).
    Enter,
    /// When it enters the area or ends its turn there (Grease).
    EnterOrEnd,
    /// When it ends its turn inside (Wall of Fire).
    End,
    /// Only when the zone appears (Entangle): later turns bring no save.
    Never,
}

impl ZoneTrigger {
    fn is_default(&self) -> bool {
        *self == ZoneTrigger::StartOrEnter
    }

    /// Whether it acts on a creature starting its turn inside.
    pub fn at_start(self) -> bool {
        matches!(self, ZoneTrigger::StartOrEnter | ZoneTrigger::Start)
    }

    /// Whether it acts on a creature entering it.
    pub fn on_enter(self) -> bool {
        matches!(
            self,
            ZoneTrigger::StartOrEnter | ZoneTrigger::Enter | ZoneTrigger::EnterOrEnd
        )
    }

    /// Whether it acts on a creature ending its turn inside.
    pub fn at_end(self) -> bool {
        matches!(self, ZoneTrigger::EnterOrEnd | ZoneTrigger::End)
    }
}

/// What a zone fixed on the map did to its squares, undone when it ends or moves.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ZoneGround {
    /// Squares whose terrain it changed, with what they were before.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub terrain: Vec<(Position, Terrain)>,
    /// Squares it made heavily obscured (they were clear).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub obscured: Vec<Position>,
    /// Props it placed (a wall that blocks movement but not sight, a sheet that hides).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub props: Vec<String>,
    /// Squares whose light it changed (Light, Daylight), with each square's own light before.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub light: Vec<(Position, Option<tabletop_grid::Light>)>,
}

impl ZoneGround {
    /// Whether it changed nothing.
    pub fn is_empty(&self) -> bool {
        self.terrain.is_empty()
            && self.obscured.is_empty()
            && self.props.is_empty()
            && self.light.is_empty()
    }
}

/// Whom an aura touches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum AuraAffects {
    /// Creatures hostile to the bearer.
    Enemies,
    /// The bearer's side and its allies (not the bearer).
    Allies,
    /// Everyone but the bearer.
    All,
    /// Everyone, the bearer included.
    AllAndSelf,
    /// The bearer's allies and the bearer.
    AlliesAndSelf,
}

/// A saving throw against an aura.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AuraSave {
    /// Ability.
    pub ability: Ability,
    /// DC.
    pub dc: i32,
    /// A success halves the damage (otherwise it negates everything).
    pub half: bool,
}

/// An aura on the battlefield.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Aura {
    /// Id within the encounter ("au1").
    pub id: String,
    /// Name ("Spirit Guardians").
    pub name: String,
    /// The combatant it is centred on (moves with it).
    pub bearer_id: String,
    /// Radius in feet from the bearer's space.
    pub radius_ft: u32,
    /// Damage dice on a creature inside.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub damage: Option<String>,
    /// Damage type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub damage_type: Option<DamageType>,
    /// Healing dice on a creature inside.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub healing: Option<String>,
    /// Condition imposed (on a failed save, or outright), until the start of its next turn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<Condition>,
    /// The save.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub save: Option<AuraSave>,
    /// Whom it touches.
    pub affects: AuraAffects,
    /// Rounds left (counted at the start of the bearer's turns); absent: until removed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rounds_left: Option<u32>,
    /// The spell whose concentration (by the bearer) holds it up.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub concentration: Option<String>,
    /// Who it has touched this turn: (character id, round, turn index).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub touched: Vec<(String, u32, usize)>,
    /// An affected creature's speed is halved inside it (Spirit Guardians): each step that
    /// ends inside costs double.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub halves_speed: bool,
    /// A zone fixed on the map: the squares it covers (empty: the aura is centred on its
    /// bearer and reaches `radius_ft`). Its bearer is then the caster who owns it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub squares: Vec<Position>,
    /// A fixed zone's point of origin (moving it moves every square by the same step).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin: Option<Position>,
    /// When it acts.
    #[serde(default, skip_serializing_if = "ZoneTrigger::is_default")]
    pub trigger: ZoneTrigger,
    /// Its condition lasts while the creature stays held (until the zone ends or the
    /// creature leaves it), not one round; a held creature takes the damage again without a
    /// new save.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub holds: bool,
    /// Damage dice for every 5 ft a creature moves inside (Spike Growth).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per_5ft: Option<String>,
    /// How far its caster may move it by casting the spell again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moves_ft: Option<u32>,
    /// What it did to the map, undone when it ends.
    #[serde(default, skip_serializing_if = "ZoneGround::is_empty")]
    pub ground: ZoneGround,
    /// A ward's trip: an alarm on entering (Alarm), or a one-time burst (Glyph of Warding).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ward: Option<ZoneWard>,
}

/// What a warding zone does when a creature enters it.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ZoneWard {
    /// Entering it alerts its caster (the answer of the move says so).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub alarm: bool,
    /// It strikes once, then ends (Glyph of Warding).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub once: bool,
    /// When it strikes, every creature within this many feet of its origin is struck.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub burst_ft: Option<u32>,
    /// An illusion: an Intelligence (Investigation) check with the Search action against this
    /// DC sees through it, and its image stops blocking sight.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub illusion_dc: Option<i32>,
}

impl Aura {
    /// Whether it does anything to a creature (rather than only change the ground).
    pub fn strikes(&self) -> bool {
        self.damage.is_some() || self.healing.is_some() || self.condition.is_some()
    }
}
