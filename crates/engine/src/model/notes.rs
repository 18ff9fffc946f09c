//! Session notes as data: type, importance, visibility, the note itself and how a list of notes is
//! filtered and ordered. Adding, searching and listing them is the `notes` use case.

use serde::{Deserialize, Serialize};

/// What a note is about.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NoteType {
    /// A thread of the plot (quests included).
    PlotThread,
    /// About an NPC.
    Npc,
    /// About a place.
    Location,
    /// A clue.
    Clue,
    /// Foreshadowing.
    Foreshadowing,
    /// World lore.
    Lore,
    /// What happened in a session.
    SessionLog,
    /// Anything else.
    #[default]
    General,
}

impl NoteType {
    /// The snake_case name.
    pub fn key(self) -> &'static str {
        match self {
            NoteType::PlotThread => "plot_thread",
            NoteType::Npc => "npc",
            NoteType::Location => "location",
            NoteType::Clue => "clue",
            NoteType::Foreshadowing => "foreshadowing",
            NoteType::Lore => "lore",
            NoteType::SessionLog => "session_log",
            NoteType::General => "general",
        }
    }

    /// Every type.
    pub const ALL: &'static [NoteType] = &[
        NoteType::PlotThread,
        NoteType::Npc,
        NoteType::Location,
        NoteType::Clue,
        NoteType::Foreshadowing,
        NoteType::Lore,
        NoteType::SessionLog,
        NoteType::General,
    ];

    /// Parses a stored key.
    pub fn from_key(k: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|t| t.key() == k)
    }
}

/// How much a note matters.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Importance {
    /// Low.
    Low,
    /// Medium (default).
    #[default]
    Medium,
    /// High.
    High,
    /// Critical.
    Critical,
}

impl Importance {
    /// 1 (low) to 4 (critical).
    pub fn rank(self) -> i64 {
        match self {
            Importance::Low => 1,
            Importance::Medium => 2,
            Importance::High => 3,
            Importance::Critical => 4,
        }
    }

    /// From [`Importance::rank`].
    pub fn from_rank(r: i64) -> Option<Self> {
        Some(match r {
            1 => Importance::Low,
            2 => Importance::Medium,
            3 => Importance::High,
            4 => Importance::Critical,
            _ => return None,
        })
    }

    /// The snake_case name.
    pub fn key(self) -> &'static str {
        match self {
            Importance::Low => "low",
            Importance::Medium => "medium",
            Importance::High => "high",
            Importance::Critical => "critical",
        }
    }
}

/// Who may hear a note.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Visibility {
    /// The DM only (secrets).
    #[default]
    Dm,
    /// May be shared with the players.
    Player,
}

impl Visibility {
    /// The snake_case name.
    pub fn key(self) -> &'static str {
        match self {
            Visibility::Dm => "dm",
            Visibility::Player => "player",
        }
    }

    /// Parses a stored key.
    pub fn from_key(k: &str) -> Option<Self> {
        match k {
            "dm" => Some(Visibility::Dm),
            "player" => Some(Visibility::Player),
            _ => None,
        }
    }
}

/// A note as stored.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Note {
    /// Stable id within the campaign ("nt3").
    pub id: String,
    /// The text.
    pub content: String,
    /// What it is about.
    #[serde(rename = "type")]
    pub kind: NoteType,
    /// Tags (lower case).
    #[serde(default)]
    pub tags: Vec<String>,
    /// Importance.
    pub importance: Importance,
    /// DM-only or player-visible.
    pub visibility: Visibility,
    /// When it was written (RFC 3339, UTC; set by the store).
    #[serde(default)]
    pub created_at: String,
    /// When it last changed (set by the store).
    #[serde(default)]
    pub updated_at: String,
}

/// Which notes a list or search returns; every field narrows it (AND).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct NoteFilter {
    /// Only this type.
    pub kind: Option<NoteType>,
    /// At least this important.
    pub min_importance: Option<Importance>,
    /// Carrying every one of these tags (lower case).
    pub tags: Vec<String>,
    /// Only this visibility.
    pub visibility: Option<Visibility>,
}

/// The order of a list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum NoteOrder {
    /// Most recently written first.
    #[default]
    Recent,
    /// Most important first, then most recent.
    Importance,
}

/// A note found by a search, with its rank (higher is better).
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ScoredNote {
    /// The note.
    #[serde(flatten)]
    pub note: Note,
    /// Relevance (higher is better; comparable within one search only).
    pub score: f64,
}
