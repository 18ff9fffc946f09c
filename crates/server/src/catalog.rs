//! The tool catalog as data: every tool's name, category, description, annotations, result cap,
//! profile membership, schema and handler in one table.

use std::sync::LazyLock;

use serde_json::{Map, Value};

use crate::reply::{Reply, ToolError};
use crate::tools::{self, EngineT};

/// A group of tools that can be enabled together.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Category {
    /// Dice, sheets, checks, effects, rests, levelling.
    Characters,
    /// Encounters, actions, turns, conditions, the battle map.
    Combat,
    /// Concentration, slots, scrolls, auras, improvised spells.
    Magic,
    /// Distance, areas, sight, cover, props, movement.
    Spatial,
    /// Locations, travel, parties, inventory, notes, session context.
    World,
    /// SRD look-ups.
    Compendium,
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
        match self {
            Category::Characters => "characters",
            Category::Combat => "combat",
            Category::Magic => "magic",
            Category::Spatial => "spatial",
            Category::World => "world",
            Category::Compendium => "compendium",
        }
    }
}

/// A named set of advertised tools.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Profile {
    /// Every tool.
    Full,
    /// The tools most turns need.
    Core,
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
    /// It may destroy state.
    pub destructive: bool,
    /// Repeating it with the same arguments changes nothing more.
    pub idempotent: bool,
    /// It is part of the core profile.
    pub core: bool,
    /// The most characters of text it answers with.
    pub max_result_chars: usize,
    /// Builds the cleaned input schema.
    pub schema: fn() -> Map<String, Value>,
    /// Runs the call.
    pub handler: Handler,
}

impl ToolSpec {
    /// Whether `profile` advertises this tool.
    pub fn in_profile(&self, profile: Profile) -> bool {
        match profile {
            Profile::Full => true,
            Profile::Core => self.core,
        }
    }
}

/// Every tool, in advertised order.
pub static CATALOG: LazyLock<Vec<ToolSpec>> = LazyLock::new(tools::specs);

/// The tool named `name`, if it exists.
pub fn find(name: &str) -> Option<&'static ToolSpec> {
    CATALOG.iter().find(|t| t.name == name)
}
