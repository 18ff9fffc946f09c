//! The tool catalog as data: every tool's name, category, description, annotations, result cap,
//! profile membership, schema and handler in one table.

use std::collections::BTreeSet;
use std::sync::LazyLock;

use serde_json::{Map, Value};

use crate::reply::ToolError;
pub use crate::spec::{Category, Handler, ToolSpec};
use crate::tools;

/// A named set of advertised tools.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Profile {
    /// Every tool.
    Full,
    /// The tools most turns need.
    Core,
}

/// How much of each tool's input schema is advertised.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SchemaDetail {
    /// Field names, types, short enums and `required` (the default: it keeps `tools/list` within
    /// its token budget). Every field's description is at `tabletop://tools/{name}`.
    #[default]
    Compact,
    /// Every field with its description and nested shape.
    Full,
}

/// What one connection advertises: a profile and the categories enabled on top of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Surface {
    profile: Profile,
    enabled: BTreeSet<Category>,
    detail: SchemaDetail,
}

impl Surface {
    /// `full` with no categories enables every category; `full` with categories enables only
    /// those; `core` advertises the core tools and `discover_tools`, plus `categories`.
    pub fn new(profile: Profile, categories: &[Category]) -> Self {
        let enabled = match (profile, categories.is_empty()) {
            (Profile::Full, true) => Category::ALL.iter().copied().collect(),
            _ => categories.iter().copied().collect(),
        };
        Self {
            profile,
            enabled,
            detail: SchemaDetail::default(),
        }
    }

    /// The same surface advertising schemas at `detail`.
    pub fn with_detail(mut self, detail: SchemaDetail) -> Self {
        self.detail = detail;
        self
    }

    /// How much of each schema is advertised.
    pub fn detail(&self) -> SchemaDetail {
        self.detail
    }

    /// The profile.
    pub fn profile(&self) -> Profile {
        self.profile
    }

    /// The categories enabled in full.
    pub fn enabled(&self) -> &BTreeSet<Category> {
        &self.enabled
    }

    /// Whether this surface advertises `spec`.
    pub fn advertises(&self, spec: &ToolSpec) -> bool {
        (self.profile == Profile::Core && spec.core) || self.enabled.contains(&spec.category)
    }

    /// Whether `spec` is advertised with its lean core schema on this surface.
    pub fn lean(&self, spec: &ToolSpec) -> bool {
        spec.core_schema.is_some()
            && self.profile == Profile::Core
            && spec.core
            && !self.enabled.contains(&spec.category)
    }

    /// The schema this surface advertises for `spec`: compact unless full detail was asked for.
    pub fn schema_of(&self, spec: &ToolSpec) -> Map<String, Value> {
        let schema = match spec.core_schema {
            Some(lean) if self.lean(spec) => lean(),
            _ => (spec.schema)(),
        };
        match self.detail {
            SchemaDetail::Compact => crate::schema::compact(&schema, rare_fields(spec.name)),
            SchemaDetail::Full => schema,
        }
    }

    /// Whether `discover_tools` is advertised: some category is not fully enabled.
    pub fn offers_discovery(&self) -> bool {
        Category::ALL.iter().any(|c| !self.enabled.contains(c))
    }

    /// Enables `categories`; returns the ones that were not enabled before.
    pub fn enable(&mut self, categories: &[Category]) -> Vec<Category> {
        categories
            .iter()
            .copied()
            .filter(|c| self.enabled.insert(*c))
            .collect()
    }

    /// The advertised tools, in catalog order, `discover_tools` last when offered.
    pub fn tools(&self) -> Vec<&'static ToolSpec> {
        let mut v: Vec<&'static ToolSpec> = CATALOG.iter().filter(|t| self.advertises(t)).collect();
        if self.offers_discovery() {
            v.push(&DISCOVER_TOOLS);
        }
        v
    }
}

/// Fields most turns do not need, left out of compact schemas (the server still accepts them,
/// and `tabletop://tools/{name}` describes them).
const RARE_FIELDS: &[(&str, &[&str])] = &[
    (
        "execute_action",
        &[
            "ability",
            "advantage",
            "bonus",
            "dc",
            "direction",
            "disadvantage",
            "path",
            "readiedAction",
            "ritual",
            "description",
            "sneakAttack",
            "creature",
            "answer",
            "shoveMode",
            "metamagic",
        ],
    ),
    ("manage_encounter", &["reactionPolicy"]),
    // The kind is optional here (the name finds the entry); search_compendium lists the kinds.
    ("get_compendium_entry", &["type"]),
    (
        "search_compendium",
        &[
            "monsterType",
            "alignment",
            "armorCategory",
            "attunement",
            "category",
            "concentration",
            "damageType",
            "ritual",
            "save",
            "size",
            "weaponCategory",
            "perPage",
        ],
    ),
    (
        "update_character",
        &[
            "background",
            "characterType",
            "class",
            "critical",
            "defenses",
            "equipment",
            "expertise",
            "languages",
            "notes",
            "race",
            "resources",
            "saves",
            "size",
            "skills",
            "spellcastingAbility",
            "spells",
            "xp",
            "force",
            "spellbook",
            "addSpells",
            "removeSpells",
            "spellClasses",
        ],
    ),
    (
        "manage_location",
        &[
            "discovered",
            "findDC",
            "hazards",
            "hidden",
            "keyItem",
            "lighting",
            "lockDC",
            "locked",
            "oneWay",
            "page",
            "tags",
            "terrain",
            "travelMinutes",
        ],
    ),
    (
        "synthesize_spell",
        &[
            "condition",
            "areaShape",
            "areaSize",
            "bonusAction",
            "concentration",
            "costlyComponent",
            "direction",
            "force",
            "range",
            "school",
            "to",
            "targets",
        ],
    ),
    (
        "create_character",
        &[
            "background",
            "customClass",
            "customRace",
            "equipment",
            "notes",
            "previewTemplate",
            "saves",
            "skills",
            "spells",
            "subrace",
            "validateOnly",
            "speed",
            "abilityChoices",
            "expertise",
            "languages",
            "fightingStyle",
            "draconicAncestry",
            "asi",
            "spellbook",
            "spellClasses",
            "options",
        ],
    ),
    ("level_up", &["asi", "subclass", "options"]),
    (
        "manage_aura",
        &[
            "affects",
            "condition",
            "healing",
            "rounds",
            "saveAbility",
            "saveDC",
            "spell",
        ],
    ),
    (
        "place_prop",
        &[
            "scratchMap",
            "ac",
            "hiddenDc",
            "hp",
            "lengthFt",
            "symbol",
            "trap",
            "widthFt",
        ],
    ),
    (
        "roll_check",
        &[
            "bonus",
            "contestedBy",
            "group",
            "proficient",
            "reason",
            "vs",
        ],
    ),
    (
        "manage_notes",
        &["limit", "page", "visibility", "tagFilter"],
    ),
    (
        "manage_inventory",
        &[
            "charges",
            "currency",
            "silvered",
            "showEquipped",
            "showInventory",
            "showStats",
            "slot",
            "spell",
            "slotLevel",
        ],
    ),
    (
        "manage_condition",
        &["caster", "saveAbility", "saveDC", "source"],
    ),
    (
        "calculate_aoe",
        &["scratchMap", "atCorner", "heightFt", "widthFt", "metric"],
    ),
    ("manage_effect", &["caster", "endsOn", "turnOf", "source"]),
    (
        "modify_terrain",
        &[
            "scratchMap",
            "center",
            "damage",
            "hazardName",
            "radiusFt",
            "source",
            "light",
        ],
    ),
    ("manage_party", &["description", "locationId", "role"]),
    (
        "move_party",
        &["limit", "skill", "force", "minutes", "days"],
    ),
    ("use_scroll", &["direction", "force", "to", "targets"]),
    (
        "calculate_movement",
        &["scratchMap", "metric", "movementFt", "movementType"],
    ),
    ("manage_spell_slots", &["class", "count", "pact", "used"]),
    (
        "render_battlefield",
        &[
            "scratchMap",
            "legendDetail",
            "radiusFt",
            "showHidden",
            "viewport",
        ],
    ),
    ("measure_distance", &["scratchMap", "rangeFt"]),
    ("end_encounter", &["keepSpawned", "note"]),
    ("check_cover", &["scratchMap", "creaturesGiveCover"]),
    ("check_line_of_sight", &["scratchMap", "creaturesBlock"]),
    ("roll_dice", &["seed"]),
    ("get_session_context", &["format", "include"]),
    ("get_character", &["page", "perPage"]),
    ("manage_concentration", &["reason"]),
    ("manage_quest", &["giver", "places", "reason", "status"]),
    (
        "manage_npc",
        &[
            "characterId",
            "factions",
            "faction",
            "limit",
            "location",
            "toward",
            "importance",
        ],
    ),
    ("manage_secret", &["how", "revealed"]),
];

/// The rare fields of a tool.
pub fn rare_fields(tool: &str) -> &'static [&'static str] {
    RARE_FIELDS
        .iter()
        .find(|(t, _)| *t == tool)
        .map_or(&[], |(_, f)| f)
}

/// Every tool, in advertised order.
pub static CATALOG: LazyLock<Vec<ToolSpec>> = LazyLock::new(tools::specs);

/// The tool named `name`, if it exists (`discover_tools` included).
pub fn find(name: &str) -> Option<&'static ToolSpec> {
    CATALOG
        .iter()
        .find(|t| t.name == name)
        .or_else(|| (name == DISCOVER_TOOLS.name).then_some(&*DISCOVER_TOOLS))
}

/// The meta-tool that enables categories on demand. The MCP adapter runs it (it changes what the
/// connection advertises); its handler only explains that outside MCP.
pub static DISCOVER_TOOLS: LazyLock<ToolSpec> = LazyLock::new(|| ToolSpec {
    name: "discover_tools",
    title: "Discover tools",
    category: Category::Characters,
    description: "Enable more tools (and every field of core tools) by need in words or by category; lists them.",
    read_only: true,
    destructive: false,
    idempotent: true,
    core: true,
    max_result_chars: 6_000,
    schema: crate::schema::input_schema::<crate::discover::DiscoverArgs>,
    core_schema: None,
    handler: |_, _, _| {
        Err(ToolError(
            "discover_tools changes what an MCP connection advertises; outside MCP every tool is callable directly".into(),
        ))
    },
});
