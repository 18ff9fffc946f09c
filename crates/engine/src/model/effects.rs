//! Effects on a character: typed modifiers with a source, a duration and an end trigger, and the
//! presets of well-known spell effects. Adding, removing and ticking them is the `effects` use case.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use tabletop_rules::Ability;
use tabletop_rules::modifiers::{Modifier, ModifierKind};

/// How long an effect or condition lasts.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    tag = "kind",
    rename_all = "snake_case",
    rename_all_fields = "camelCase"
)]
pub enum Duration {
    /// A number of rounds; ticks down (see `tick`) and ends at 0.
    Rounds {
        /// Rounds left.
        remaining: u32,
    },
    /// Until the character finishes a long rest.
    UntilRest,
    /// Until the character finishes a short or a long rest (a shadow's Strength Drain).
    UntilShortRest,
    /// Until removed.
    UntilDispelled,
    /// As long as the caster keeps concentrating on the spell.
    Concentration {
        /// The caster's character id.
        caster_id: String,
        /// The spell.
        spell: String,
    },
    /// As long as the caster concentrates, or until the bearer succeeds on the save rolled at
    /// the end of each of its turns (Hold Person).
    ConcentrationSave {
        /// The caster's character id.
        caster_id: String,
        /// The spell.
        spell: String,
        /// The save DC.
        dc: i32,
        /// The save's ability.
        ability: Ability,
    },
    /// A number of rounds counted at a point of another creature's turn, not the bearer's (a
    /// condition "until the end of your next turn": a monk's Stunning Strike, Intimidating
    /// Presence).
    RoundsOf {
        /// Rounds left.
        remaining: u32,
        /// Whose turn counts them (character id).
        turn_of: String,
        /// Its start or its end.
        at: TurnPoint,
    },
    /// Until a saving throw succeeds (rolled at the end of the bearer's turn, on tick).
    SaveEnds {
        /// The save DC.
        dc: i32,
        /// The save's ability.
        ability: Ability,
    },
}

impl Duration {
    /// "3 rounds", "until a long rest", "concentration (Aria: Bless)", "until a DC 13 WIS save".
    pub fn describe(&self, caster_name: impl Fn(&str) -> String) -> String {
        match self {
            Duration::Rounds { remaining } => {
                format!(
                    "{remaining} round{}",
                    if *remaining == 1 { "" } else { "s" }
                )
            }
            Duration::RoundsOf {
                remaining,
                turn_of,
                at,
            } => {
                let point = match at {
                    TurnPoint::Start => "start",
                    TurnPoint::End => "end",
                };
                if *remaining <= 1 {
                    format!("until the {point} of {}'s turn", caster_name(turn_of))
                } else {
                    format!(
                        "until the {point} of {}'s turn after next ({remaining} of its turns)",
                        caster_name(turn_of)
                    )
                }
            }
            Duration::UntilRest => "until a long rest".into(),
            Duration::UntilShortRest => "until a short or long rest".into(),
            Duration::UntilDispelled => "until dispelled".into(),
            Duration::Concentration { caster_id, spell } => {
                format!("concentration ({}: {spell})", caster_name(caster_id))
            }
            Duration::SaveEnds { dc, ability } => {
                format!("until a DC {dc} {} save succeeds", ability.abbr())
            }
            Duration::ConcentrationSave {
                caster_id,
                spell,
                dc,
                ability,
            } => format!(
                "concentration ({}: {spell}) or a DC {dc} {} save at the end of each turn",
                caster_name(caster_id),
                ability.abbr()
            ),
        }
    }

    /// The caster whose concentration holds it, if any.
    pub fn caster(&self) -> Option<&str> {
        match self {
            Duration::Concentration { caster_id, .. }
            | Duration::ConcentrationSave { caster_id, .. } => Some(caster_id),
            _ => None,
        }
    }
}

/// Whether a trigger fires at the start or the end of a turn.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TurnPoint {
    /// At the start of the turn.
    Start,
    /// At the end of the turn.
    End,
}

/// When a round-based duration ticks: the start or end of whose turn.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EndTrigger {
    /// Start or end.
    pub at: TurnPoint,
    /// Whose turn (character id).
    pub turn_of: String,
}

/// An effect on a character.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ActiveEffect {
    /// Id within the campaign ("ef3").
    pub id: String,
    /// Name ("Bless"); same-name effects do not stack.
    pub name: String,
    /// Who or what imposed it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// What it does, each sourced to the effect's name.
    pub modifiers: Vec<Modifier>,
    /// How long it lasts.
    pub duration: Duration,
    /// When its rounds tick (default: the end of the bearer's turn).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ends_on: Option<EndTrigger>,
    /// It ends when the bearer is next attacked (Guiding Bolt's advantage).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub ends_when_attacked: bool,
    /// Its bearer took damage since its last turn ended, which keeps an effect that lapses
    /// unless its bearer fights going (Rage; see [`ActiveEffect::lapses_unless_fighting`]).
    /// Set wherever damage lands (`update::damage`), cleared at the end of the bearer's turn.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub damaged_since_turn: bool,
    /// What a spell effect carries beyond modifiers (see [`SpellGrant`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grant: Option<SpellGrant>,
}

/// Effects that end at the end of their bearer's turn when it has neither attacked a hostile
/// creature nor taken damage since its last turn (Rage).
const LAPSE_UNLESS_FIGHTING: &[&str] = &["rage"];

impl ActiveEffect {
    /// Whether it ends at the end of its bearer's turn unless the bearer attacked a hostile
    /// creature or took damage since its last turn (Rage).
    pub fn lapses_unless_fighting(&self) -> bool {
        LAPSE_UNLESS_FIGHTING.contains(&crate::model::names::name_key(&self.name).as_str())
    }
}

/// What a spell's effect carries beyond modifiers, from the spell catalog.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SpellGrant {
    /// The slot level it was cast at (a persistent spell attacks again at this level).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cast_level: Option<u8>,
    /// An AC formula: this base plus DEX, while no armor is worn (Mage Armor).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ac_base: Option<i32>,
    /// Temporary HP at the start of each of the bearer's turns (Heroism).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub temp_hp_each_turn: Option<u32>,
    /// The bearer's AC can't be less than this (Barkskin 16).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ac_floor: Option<i32>,
    /// The first drop to 0 HP from damage leaves the bearer at 1 HP and ends the effect (Death
    /// Ward).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub death_ward: bool,
    /// It ends when the bearer takes damage (Turn Undead's turned creature).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub ends_on_damage: bool,
    /// Darkvision out to this many feet (Darkvision).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub darkvision_ft: Option<u32>,
    /// Truesight out to this many feet (True Seeing).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub truesight_ft: Option<u32>,
    /// Movement modes in feet ("fly" → 60) (Fly, Gaseous Form).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub speeds: BTreeMap<String, u32>,
    /// Movement modes equal to the bearer's walking speed ("climb") (Spider Climb).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub speeds_as_walk: Vec<String>,
    /// Walks on water and other liquids as on ground (Water Walk).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub water_walk: bool,
    /// May Dash as a bonus action (Expeditious Retreat).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub dash_bonus_action: bool,
    /// Attacks by creatures of these types against the bearer have disadvantage (Protection
    /// from Evil and Good).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ward_types: Vec<String>,
    /// A creature attacking the bearer first makes a WIS save against this DC, and on a failure
    /// must choose a new target (Sanctuary).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sanctuary_dc: Option<i32>,
    /// Sees invisible creatures (See Invisibility).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub see_invisible: bool,
    /// Difficult terrain costs no extra movement (Freedom of Movement).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub ignore_difficult_terrain: bool,
    /// Divination magic can't target or sense the bearer (Nondetection, Mind Blank).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub nondetection: bool,
    /// Illusory duplicates left (Mirror Image): an attack may strike one instead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mirror_images: Option<u32>,
    /// Extra dice on weapon hits ("1d6", "2d6[radiant]"; untyped dice take the weapon's type):
    /// the bearer's own hits, or with `hit_by` the hits of that creature on the bearer (Hunter's
    /// Mark on its quarry).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hit_dice: Option<String>,
    /// Whose weapon hits on the bearer take `hit_dice` (the caster's id).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hit_by: Option<String>,
    /// The effect ends after its first weapon hit (Branding Smite).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub hit_once: bool,
    /// Ways of communicating while it lasts (Tongues, Speak with Animals), on the sheet.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub communication: Vec<String>,
    /// The d20 of the bearer's checks of one ability counts as at least this (Glibness).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub check_floor: Option<crate::catalog::wards6::CheckFloor>,
}

/// Known spell effects, so `{"name": "Bless"}` needs no modifiers: the spell catalog's effect
/// entries (modifiers, concentration).
pub fn preset(name: &str) -> Option<(Vec<ModifierKind>, bool)> {
    preset_entry(name).map(|e| (e.modifiers.clone(), e.concentration))
}

/// The catalog entry behind a preset: a spell whose kind is an effect with modifiers.
pub fn preset_entry(name: &str) -> Option<&'static crate::catalog::spells::SpellEntry> {
    crate::catalog::spells::by_name(name)
        .filter(|e| e.kind == crate::catalog::spells::SpellKind::Effect && !e.modifiers.is_empty())
}
/// Largest number of rounds a duration may have (a day of 6-second rounds).
pub const MAX_ROUNDS: u32 = 14_400;
