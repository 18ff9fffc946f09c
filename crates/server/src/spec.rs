//! What a tool is, as data: its [`Category`] and its [`ToolSpec`] (name, description,
//! annotations, schema, handler). The tool modules ([`crate::tools`]) fill specs; the catalog
//! ([`crate::catalog`]) lists them and decides what a connection advertises.

use serde_json::{Map, Value};
use tabletop_engine::{AnyStore, Engine};

use crate::reply::{Reply, ToolError};

/// The engine type the server runs.
pub type EngineT = Engine<AnyStore>;

crate::arg_enum! {
    /// A group of tools that can be enabled together.
    pub enum Category {
        /// Dice, sheets, checks, effects, rests, levelling.
        Characters = "characters",
        /// Encounters, actions, turns, conditions, the battle map.
        Combat = "combat",
        /// Concentration, slots, scrolls, auras, improvised spells.
        Magic = "magic",
        /// Distance, areas, sight, cover, props, movement.
        Spatial = "spatial",
        /// Locations, travel, parties, inventory, notes, session context.
        World = "world",
        /// SRD look-ups.
        Compendium = "compendium",
    }
}

impl Category {
    /// Every category.
    pub const ALL: &'static [Category] = &[
        Category::Characters,
        Category::Combat,
        Category::Magic,
        Category::Spatial,
        Category::World,
        Category::Compendium,
    ];

    /// The snake_case name.
    pub fn key(self) -> &'static str {
        Self::KEYS[Self::ALL.iter().position(|c| *c == self).unwrap_or(0)]
    }

    /// What the category covers, in a few words.
    pub fn covers(self) -> &'static str {
        match self {
            Category::Characters => "dice, sheets, checks, conditions, effects, rests, levelling",
            Category::Combat => {
                "encounters, initiative, attacks, turns, death saves, the battle map"
            }
            Category::Magic => "spell slots, concentration, scrolls, auras, improvised spells",
            Category::Spatial => "distance, areas of effect, line of sight, cover, props, movement",
            Category::World => "locations, travel, parties, inventory, notes, session context",
            Category::Compendium => "SRD rules, spells, monsters, classes, races, items",
        }
    }
}

/// How a tool call runs a handler.
pub type Handler = fn(&mut EngineT, &str, &Value) -> Result<Reply, ToolError>;

/// One tool.
pub struct ToolSpec {
    /// The advertised name.
    pub name: &'static str,
    /// A human title.
    pub title: &'static str,
    /// Its category.
    pub category: Category,
    /// What the model reads to pick it.
    pub description: &'static str,
    /// It changes nothing.
    pub read_only: bool,
    /// It may change or remove existing state (MCP `destructiveHint`): false only for read-only
    /// tools and purely additive ones (rolls, new characters, new encounters).
    pub destructive: bool,
    /// Repeating it with the same arguments changes nothing more.
    pub idempotent: bool,
    /// It is part of the core profile.
    pub core: bool,
    /// The most characters of text it answers with.
    pub max_result_chars: usize,
    /// Builds the cleaned input schema.
    pub schema: fn() -> Map<String, Value>,
    /// A leaner schema advertised while the tool is on a surface only as a core tool (its category
    /// not enabled): the fields most turns need. The server still accepts every field of `schema`;
    /// enabling the category (`discover_tools`) advertises them all.
    pub core_schema: Option<fn() -> Map<String, Value>>,
    /// Runs the call.
    pub handler: Handler,
}
