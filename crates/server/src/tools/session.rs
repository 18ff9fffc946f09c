//! Session tools: manage_notes and get_session_context.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;
use tabletop_engine::notes::{self, Importance, NoteDraft, NoteType, Visibility};
use tabletop_engine::party::PartyRef;
use tabletop_engine::session::{self, ContextRequest, Detail, Sections};
use tabletop_engine::{Call, EngineError};

use super::{Access, EngineT, check_fields, invoke};
use crate::arg_enum;
use crate::render_world as render;
use crate::reply::{Reply, ToolError};
use crate::schema::input_schema;
use crate::spec::{Category, ToolSpec};

// ---------------------------------------------------------------------------------------------
// manage_notes

arg_enum! {
    /// manage_notes operations.
    pub enum NotesOp {
        Add = "add",
        Search = "search",
        Get = "get",
        Update = "update",
        Delete = "delete",
        List = "list",
    }
}

arg_enum! {
    /// Note type.
    pub enum NoteTypeArg {
        PlotThread = "plot_thread",
        Npc = "npc",
        Location = "location",
        Clue = "clue",
        Foreshadowing = "foreshadowing",
        Lore = "lore",
        SessionLog = "session_log",
        General = "general",
    }
}

arg_enum! {
    /// Importance.
    pub enum ImportanceArg { Low = "low", Medium = "medium", High = "high", Critical = "critical" }
}

arg_enum! {
    /// Who may hear it.
    pub enum VisibilityArg { Dm = "dm", Player = "player" }
}

/// Arguments of `manage_notes`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ManageNotesArgs {
    /// What to do.
    pub operation: NotesOp,
    /// get/update/delete.
    pub note_id: Option<String>,
    /// add/update: text.
    pub content: Option<String>,
    /// Default general; search/list: only this.
    #[serde(rename = "type")]
    pub kind: Option<NoteTypeArg>,
    /// add/update.
    pub tags: Option<Vec<String>>,
    /// Default medium; search/list: at least.
    pub importance: Option<ImportanceArg>,
    /// Default dm (secret); search/list: only this.
    pub visibility: Option<VisibilityArg>,
    /// search: words (ranked full text).
    pub query: Option<String>,
    /// search/list: has all these tags.
    pub tag_filter: Option<Vec<String>>,
    /// search/list: 1–100 (default 10/20).
    pub limit: Option<usize>,
    /// list: page.
    pub page: Option<usize>,
}

fn notes_fields() -> Vec<(&'static str, Vec<&'static str>)> {
    let filters = ["type", "importance", "visibility", "tagFilter", "limit"];
    let mut search = vec!["query"];
    search.extend_from_slice(&filters);
    let mut list = vec!["page"];
    list.extend_from_slice(&filters);
    vec![
        (
            "add",
            vec!["content", "type", "tags", "importance", "visibility"],
        ),
        ("search", search),
        ("get", vec!["noteId"]),
        (
            "update",
            vec![
                "noteId",
                "content",
                "type",
                "tags",
                "importance",
                "visibility",
            ],
        ),
        ("delete", vec!["noteId"]),
        ("list", list),
    ]
}

fn note_type(t: NoteTypeArg) -> NoteType {
    match t {
        NoteTypeArg::PlotThread => NoteType::PlotThread,
        NoteTypeArg::Npc => NoteType::Npc,
        NoteTypeArg::Location => NoteType::Location,
        NoteTypeArg::Clue => NoteType::Clue,
        NoteTypeArg::Foreshadowing => NoteType::Foreshadowing,
        NoteTypeArg::Lore => NoteType::Lore,
        NoteTypeArg::SessionLog => NoteType::SessionLog,
        NoteTypeArg::General => NoteType::General,
    }
}

fn importance(i: ImportanceArg) -> Importance {
    match i {
        ImportanceArg::Low => Importance::Low,
        ImportanceArg::Medium => Importance::Medium,
        ImportanceArg::High => Importance::High,
        ImportanceArg::Critical => Importance::Critical,
    }
}

fn visibility(v: VisibilityArg) -> Visibility {
    match v {
        VisibilityArg::Dm => Visibility::Dm,
        VisibilityArg::Player => Visibility::Player,
    }
}

fn run_notes(call: &mut Call<'_>, a: ManageNotesArgs) -> Result<Reply, EngineError> {
    let draft = NoteDraft {
        content: a.content.clone(),
        kind: a.kind.map(note_type),
        tags: a.tags.clone(),
        importance: a.importance.map(importance),
        visibility: a.visibility.map(visibility),
    };
    let id = || {
        a.note_id.clone().ok_or_else(|| {
            EngineError::invalid(
                "noteId",
                "name the note by its id (from add, list or search)",
            )
        })
    };
    let filter = || {
        notes::filter_of(
            a.kind.map(note_type),
            a.importance.map(importance),
            a.tag_filter.clone().unwrap_or_default(),
            a.visibility.map(visibility),
        )
    };
    match a.operation {
        NotesOp::Add => {
            let n = notes::add_note(call, draft)?;
            Ok(Reply::new(format!("Added {}", render::note_line(&n)), &n))
        }
        NotesOp::Get => {
            let n = notes::get_note(call, &id()?)?;
            Ok(Reply::new(render::note_full(&n), &n))
        }
        NotesOp::Update => {
            let n = notes::update_note(call, &id()?, draft)?;
            Ok(Reply::new(format!("Updated {}", render::note_line(&n)), &n))
        }
        NotesOp::Delete => {
            let n = notes::delete_note(call, &id()?)?;
            Ok(Reply::new(format!("Deleted {}", render::note_line(&n)), &n))
        }
        NotesOp::Search => {
            let out =
                notes::search_notes(call, a.query.as_deref(), &filter()?, a.limit.unwrap_or(10))?;
            Ok(Reply::new(render::note_search(&out), &out))
        }
        NotesOp::List => {
            let out =
                notes::list_notes(call, &filter()?, a.page.unwrap_or(1), a.limit.unwrap_or(20))?;
            Ok(Reply::new(render::note_page(&out), &out))
        }
    }
}

fn handle_notes(engine: &mut EngineT, tool: &str, raw: &Value) -> Result<Reply, ToolError> {
    let table = notes_fields();
    let table: Vec<(&str, &[&str])> = table.iter().map(|(o, f)| (*o, f.as_slice())).collect();
    check_fields(tool, raw, &table)?;
    let read = matches!(
        raw.get("operation")
            .and_then(Value::as_str)
            .map(tabletop_rules::vocab::normalize_key)
            .as_deref(),
        Some("get" | "list" | "search")
    );
    invoke(
        engine,
        tool,
        raw,
        if read { Access::Read } else { Access::Write },
        run_notes,
    )
}

// ---------------------------------------------------------------------------------------------
// get_session_context

arg_enum! {
    /// A section of the context.
    pub enum SectionArg {
        Party = "party",
        Location = "location",
        Encounter = "encounter",
        Notes = "notes",
        Events = "events",
    }
}

arg_enum! {
    /// How much to say.
    pub enum FormatArg { Brief = "brief", Compact = "compact", Detailed = "detailed" }
}

/// Arguments of `get_session_context`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SessionContextArgs {
    /// Sections (default all).
    pub include: Option<Vec<SectionArg>>,
    /// Default compact.
    pub format: Option<FormatArg>,
    pub party_id: Option<String>,
    pub party_name: Option<String>,
}

fn run_context(call: &mut Call<'_>, a: SessionContextArgs) -> Result<Reply, EngineError> {
    let sections = match &a.include {
        None => Sections::default(),
        Some(list) if list.is_empty() => {
            return Err(EngineError::invalid(
                "include",
                "name at least one section: party, location, encounter, notes, events (or omit include for all)",
            ));
        }
        Some(list) => Sections {
            party: list.contains(&SectionArg::Party),
            location: list.contains(&SectionArg::Location),
            encounter: list.contains(&SectionArg::Encounter),
            notes: list.contains(&SectionArg::Notes),
            events: list.contains(&SectionArg::Events),
        },
    };
    let detail = match a.format {
        Some(FormatArg::Brief) => Detail::Brief,
        Some(FormatArg::Detailed) => Detail::Detailed,
        _ => Detail::Compact,
    };
    let out = session::session_context(
        call,
        &ContextRequest {
            party: PartyRef::new(a.party_id.as_deref(), a.party_name.as_deref()),
            sections,
            detail,
        },
    )?;
    Ok(Reply::new(render::context(&out), &out))
}

pub(super) fn specs() -> Vec<ToolSpec> {
    vec![
        ToolSpec {
            name: "manage_notes",
            title: "Manage notes",
            category: Category::World,
            description: "Add, search (ranked full text), read, update, delete or list session notes.",
            read_only: false,
            destructive: true,
            idempotent: false,
            core: false,
            max_result_chars: 10_000,
            schema: input_schema::<ManageNotesArgs>,
            core_schema: None,
            handler: handle_notes,
        },
        ToolSpec {
            name: "get_session_context",
            title: "Get session context",
            category: Category::World,
            description: "Where the game stands: party, place, encounter, notes, last events; call first when resuming.",
            read_only: true,
            destructive: false,
            idempotent: true,
            core: true,
            max_result_chars: 12_000,
            schema: input_schema::<SessionContextArgs>,
            core_schema: None,
            handler: |e, n, raw| invoke(e, n, raw, Access::Read, run_context),
        },
    ]
}
