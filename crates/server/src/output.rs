//! Output schemas: each tool's `structuredContent` described by the JSON Schema of the Rust types
//! it is serialized from (schemars), one schema per tool. A tool with several answer shapes (one
//! per operation) has `anyOf` them; a tool with `batch` also answers `{results: [...]}`.
//! Advertised with `--schemas full` and served by `tabletop://tools/{name}` (compact `tools/list`
//! leaves them out to stay within its token budget).

use schemars::JsonSchema;
use schemars::generate::{SchemaGenerator, SchemaSettings};
use serde::Serialize;
use serde_json::{Map, Value, json};
use tabletop_engine as e;
use tabletop_engine::combat as c;

/// The `structuredContent` of `create_encounter`: the new encounter and its standard view.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct EncounterCreated {
    /// The encounter's id.
    pub encounter_id: String,
    /// Its name.
    pub name: String,
    /// The round (1).
    pub round: u32,
    /// Initiative rolls in order.
    pub initiative: Vec<c::create::InitiativeRoll>,
    /// Creatures created for it.
    pub spawned: Vec<String>,
    /// Difficulty for the party present.
    pub difficulty: Option<tabletop_rules::encounter::Difficulty>,
    /// How the request was read.
    pub notes: Vec<String>,
    /// The standard view of the fight.
    pub encounter: c::view::EncounterView,
}

/// The `structuredContent` of a text-only answer (`use_scroll` `check`).
#[derive(Serialize, JsonSchema)]
pub struct Answer {
    /// The answer in words.
    pub answer: String,
}

/// The `structuredContent` of `synthesize_spell` `spellbook`.
#[derive(Serialize, JsonSchema)]
pub struct Spellbook {
    /// Whose spellbook.
    pub character: String,
    /// The mastered improvised spells.
    pub spells: Vec<e::magic::spellcasting::SpellDef>,
}

/// The `structuredContent` of `manage_party` `list`.
#[derive(Serialize, JsonSchema)]
pub struct PartyList {
    /// Every party.
    pub parties: Vec<e::party::PartyView>,
}

/// The `structuredContent` of `discover_tools`.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Discovered {
    /// The categories asked for.
    pub enabled: Vec<String>,
    /// The ones that were not enabled before.
    pub newly_enabled: Vec<String>,
    /// The tools of those categories.
    pub tools: Vec<String>,
}

/// One item of a batch answer.
#[derive(Serialize, JsonSchema)]
#[allow(dead_code)]
struct BatchItem {
    /// Whether the item succeeded.
    ok: bool,
    /// Its answer (the tool's single-call shape), when it succeeded.
    #[serde(skip_serializing_if = "Option::is_none")]
    result: Option<Value>,
    /// What went wrong, when it failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

/// Collects the schemas of a tool's answer types in one generator (shared `$defs`).
struct Shapes {
    generator: SchemaGenerator,
    alternatives: Vec<Value>,
}

impl Shapes {
    fn new() -> Self {
        // The serialization contract: a field skipped when empty is optional, as in the answer.
        let mut settings = SchemaSettings::draft2020_12().for_serialize();
        settings.meta_schema = None;
        Self {
            generator: settings.into_generator(),
            alternatives: Vec::new(),
        }
    }

    fn with<T: JsonSchema>(mut self) -> Self {
        let s = self.generator.subschema_for::<T>();
        self.alternatives.push(s.to_value());
        self
    }

    /// The root schema: `type: object`, the answer shape(s), and the batch shape when `batch`.
    fn build(mut self, batch: bool) -> Map<String, Value> {
        let mut alts = std::mem::take(&mut self.alternatives);
        if batch {
            let item = self.generator.subschema_for::<BatchItem>().to_value();
            alts.push(json!({
                "type": "object",
                "properties": {"results": {"type": "array", "items": item}},
                "required": ["results"]
            }));
        }
        let mut root = Map::new();
        root.insert("type".into(), Value::String("object".into()));
        if alts.len() == 1 {
            root.insert("allOf".into(), Value::Array(alts));
        } else {
            root.insert("anyOf".into(), Value::Array(alts));
        }
        let defs: Map<String, Value> = self.generator.take_definitions(true).into_iter().collect();
        if !defs.is_empty() {
            root.insert("$defs".into(), Value::Object(defs));
        }
        let mut v = Value::Object(root);
        clean(&mut v);
        match v {
            Value::Object(m) => m,
            _ => Map::new(),
        }
    }
}

/// Drops what only restates Rust integer widths (`format: uint32`, …) and titles.
fn clean(v: &mut Value) {
    match v {
        Value::Object(m) => {
            if let Some(Value::String(f)) = m.get("format")
                && (f.starts_with("int") || f.starts_with("uint") || f == "double" || f == "float")
            {
                m.remove("format");
            }
            m.remove("title");
            m.values_mut().for_each(clean);
        }
        Value::Array(a) => a.iter_mut().for_each(clean),
        _ => {}
    }
}

/// The output schema of `tool`, if it has one.
pub fn schema(tool: &str) -> Option<Map<String, Value>> {
    let s = Shapes::new();
    let (shapes, batch) = match tool {
        "roll_dice" => (s.with::<e::rolls::RollOutcome>(), true),
        "create_character" => (s.with::<e::creation::CreateOutcome>(), false),
        "get_character" => (
            s.with::<e::sheet::Sheet>()
                .with::<e::sheet::CharacterPage>(),
            true,
        ),
        "update_character" => (s.with::<e::update::UpdateOutcome>(), true),
        "delete_character" => (s.with::<e::character::Deletion>(), false),
        "roll_check" => (
            s.with::<e::checks::CheckOutcome>()
                .with::<tabletop_rules::d20::ContestOutcome>()
                .with::<tabletop_rules::d20::GroupOutcome>(),
            true,
        ),
        "manage_effect" => (s.with::<e::effects::EffectOutcome>(), true),
        "take_rest" => (s.with::<e::rest::RestOutcome>(), true),
        "level_up" => (s.with::<e::levelling::LevelUpOutcome>(), true),
        "manage_condition" => (s.with::<e::conditions::ConditionOutcome>(), true),
        "create_encounter" => (s.with::<EncounterCreated>(), false),
        "get_encounter" => (s.with::<c::view::EncounterView>(), false),
        "execute_action" => (s.with::<c::actions::ActionOutcome>(), true),
        "advance_turn" => (s.with::<c::turn::TurnReport>(), false),
        "roll_death_save" => (s.with::<c::death::DeathSaveOutcome>(), false),
        "end_encounter" => (s.with::<c::end::EndSummary>(), false),
        "manage_encounter" => (s.with::<c::manage::ManageOutcome>(), true),
        "render_battlefield" => (s.with::<c::spatial::view::Battlefield>(), false),
        "modify_terrain" => (s.with::<c::terrain::TerrainOutcome>(), false),
        "measure_distance" => (s.with::<c::spatial::measure::Measurement>(), false),
        "calculate_aoe" => (s.with::<c::spatial::area::AoeOutcome>(), false),
        "check_line_of_sight" => (s.with::<c::spatial::sight::SightOutcome>(), false),
        "check_cover" => (s.with::<c::spatial::sight::CoverOutcome>(), false),
        "place_prop" => (s.with::<c::spatial::props::PropOutcome>(), false),
        "calculate_movement" => (s.with::<c::spatial::movement::MovementOutcome>(), false),
        "manage_concentration" => (s.with::<e::concentration::ConcentrationOutcome>(), false),
        "manage_spell_slots" => (s.with::<e::slots::SlotOutcome>(), true),
        "use_scroll" => (
            s.with::<e::magic::scroll::ScrollOutcome>().with::<Answer>(),
            false,
        ),
        "manage_aura" => (s.with::<c::auras::AuraOutcome>(), false),
        "synthesize_spell" => (
            s.with::<e::magic::synthesis::SynthOutcome>()
                .with::<Spellbook>(),
            false,
        ),
        "manage_location" => (
            s.with::<e::world::LocationView>()
                .with::<e::world::LocationDeletion>()
                .with::<e::world::LinkOutcome>()
                .with::<e::world::UnlinkOutcome>()
                .with::<e::world::LocationPage>(),
            false,
        ),
        "move_party" => (
            s.with::<e::travel::MoveOutcome>()
                .with::<e::travel::SearchOutcome>()
                .with::<e::travel::TravelStatus>()
                .with::<e::travel::TravelHistory>()
                .with::<e::clock::TimeAdvance>(),
            false,
        ),
        "manage_party" => (
            s.with::<e::party::PartyView>()
                .with::<e::party::PartyDeletion>()
                .with::<PartyList>(),
            true,
        ),
        "manage_notes" => (
            s.with::<e::notes::Note>()
                .with::<e::notes::NoteSearch>()
                .with::<e::notes::NotePage>(),
            false,
        ),
        "get_session_context" => (s.with::<e::session::SessionContext>(), false),
        "manage_quest" => (
            s.with::<e::memory::quests::QuestOutcome>()
                .with::<e::memory::Quest>()
                .with::<crate::tools::memory::QuestList>(),
            false,
        ),
        "manage_npc" => (
            s.with::<e::memory::npcs::NpcOutcome>()
                .with::<e::memory::Npc>()
                .with::<e::memory::npcs::Recall>()
                .with::<crate::tools::memory::NpcList>(),
            false,
        ),
        "manage_secret" => (
            s.with::<e::memory::secrets::SecretOutcome>()
                .with::<e::memory::Secret>()
                .with::<e::memory::secrets::LeakCheck>()
                .with::<crate::tools::memory::SecretList>(),
            false,
        ),
        "manage_inventory" => (
            s.with::<e::inventory::ops::InventoryOutcome>()
                .with::<e::inventory::ops::InventoryView>(),
            true,
        ),
        "search_compendium" => (s.with::<e::lookup::SearchOutcome>(), false),
        "get_compendium_entry" => (s.with::<e::lookup::EntryOutcome<'static>>(), false),
        "discover_tools" => (s.with::<Discovered>(), false),
        _ => return None,
    };
    Some(shapes.build(batch))
}
