//! `manage_notes`: session notes with a type, tags, importance and visibility; full-text search
//! with ranking (the store's index), tag, type and importance filters; lists recent first.

use serde::Serialize;

use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::names::name_key;

/// The data of this family lives in the model; re-exported so the old paths keep working.
pub use crate::model::notes::{
    Importance, Note, NoteFilter, NoteOrder, NoteType, ScoredNote, Visibility,
};

const MAX_CONTENT: usize = 10_000;

fn clean_tags(tags: Vec<String>) -> Result<Vec<String>> {
    let mut out: Vec<String> = Vec::new();
    for t in tags {
        let k = name_key(&t);
        if k.is_empty() {
            continue;
        }
        if k.chars().count() > 40 {
            return Err(EngineError::invalid(
                "tags",
                "a tag is at most 40 characters",
            ));
        }
        if !out.contains(&k) {
            out.push(k);
        }
    }
    if out.len() > 20 {
        return Err(EngineError::invalid("tags", "at most 20 tags per note"));
    }
    Ok(out)
}

fn clean_content(c: &str) -> Result<String> {
    let t = c.trim();
    if t.is_empty() {
        return Err(EngineError::invalid(
            "content",
            "a note needs content: the text to remember",
        ));
    }
    if t.chars().count() > MAX_CONTENT {
        return Err(EngineError::invalid(
            "content",
            format!("at most {MAX_CONTENT} characters; split it into several notes"),
        ));
    }
    Ok(t.to_string())
}

/// A new note, or the changes to one (absent = default for a new note, unchanged for an update).
#[derive(Debug, Clone, Default)]
pub struct NoteDraft {
    /// Text.
    pub content: Option<String>,
    /// Type.
    pub kind: Option<NoteType>,
    /// Tags (replace).
    pub tags: Option<Vec<String>>,
    /// Importance.
    pub importance: Option<Importance>,
    /// Visibility.
    pub visibility: Option<Visibility>,
}

/// Writes a new note.
pub fn add_note(call: &mut Call<'_>, d: NoteDraft) -> Result<Note> {
    let content = clean_content(d.content.as_deref().unwrap_or(""))?;
    let id = call.new_id("nt")?;
    let note = Note {
        id,
        content,
        kind: d.kind.unwrap_or_default(),
        tags: clean_tags(d.tags.unwrap_or_default())?,
        importance: d.importance.unwrap_or_default(),
        visibility: d.visibility.unwrap_or_default(),
        created_at: String::new(),
        updated_at: String::new(),
    };
    let campaign = call.campaign();
    call.tx().put_note(campaign, &note)?;
    call.record_change(
        "note",
        &note.id,
        format!("added {} ({})", note.kind.key(), note.importance.key()),
    );
    reread(call, &note.id)
}

fn reread(call: &Call<'_>, id: &str) -> Result<Note> {
    call.tx_ref()
        .note(call.campaign(), id)?
        .ok_or_else(|| EngineError::Rule(format!("internal: note {id} vanished")))
}

/// One note by id.
pub fn get_note(call: &mut Call<'_>, id: &str) -> Result<Note> {
    find(call, id)
}

fn find(call: &Call<'_>, id: &str) -> Result<Note> {
    let id = id.trim();
    if id.is_empty() {
        return Err(EngineError::invalid(
            "noteId",
            "name the note by its id (from add, list or search)",
        ));
    }
    call.tx_ref().note(call.campaign(), id)?.ok_or_else(|| {
        EngineError::invalid(
            "noteId",
            format!("no note '{id}' in this campaign; find ids with operation list or search"),
        )
    })
}

/// Changes a note.
pub fn update_note(call: &mut Call<'_>, id: &str, d: NoteDraft) -> Result<Note> {
    let mut n = find(call, id)?;
    let mut changed = Vec::new();
    if let Some(c) = d.content {
        n.content = clean_content(&c)?;
        changed.push("content");
    }
    if let Some(k) = d.kind {
        n.kind = k;
        changed.push("type");
    }
    if let Some(t) = d.tags {
        n.tags = clean_tags(t)?;
        changed.push("tags");
    }
    if let Some(i) = d.importance {
        n.importance = i;
        changed.push("importance");
    }
    if let Some(v) = d.visibility {
        n.visibility = v;
        changed.push("visibility");
    }
    if changed.is_empty() {
        return Err(EngineError::invalid(
            "operation",
            "nothing to change: give content, type, tags, importance or visibility",
        ));
    }
    let campaign = call.campaign();
    call.tx().put_note(campaign, &n)?;
    call.record_change("note", &n.id, format!("updated {}", changed.join(", ")));
    reread(call, &n.id)
}

/// Deletes a note; answers what it was.
pub fn delete_note(call: &mut Call<'_>, id: &str) -> Result<Note> {
    let n = find(call, id)?;
    let campaign = call.campaign();
    call.tx().delete_note(campaign, &n.id)?;
    call.record_change("note", &n.id, "deleted");
    Ok(n)
}

/// A page of notes.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NotePage {
    /// This page.
    pub notes: Vec<Note>,
    /// How many match.
    pub total: u64,
    /// Page, from 1.
    pub page: usize,
    /// Page size.
    pub per_page: usize,
    /// Whether more pages follow.
    pub has_more: bool,
}

fn check_page(page: usize, per_page: usize) -> Result<()> {
    if !(1..=100).contains(&per_page) {
        return Err(EngineError::invalid("limit", "a page holds 1–100 notes"));
    }
    if page == 0 {
        return Err(EngineError::invalid("page", "pages count from 1"));
    }
    Ok(())
}

/// Prepares a filter's tags like stored ones.
pub fn filter_of(
    kind: Option<NoteType>,
    min_importance: Option<Importance>,
    tags: Vec<String>,
    visibility: Option<Visibility>,
) -> Result<NoteFilter> {
    Ok(NoteFilter {
        kind,
        min_importance,
        tags: clean_tags(tags)?,
        visibility,
    })
}

/// Notes matching a filter, most recent first, paged.
pub fn list_notes(
    call: &mut Call<'_>,
    filter: &NoteFilter,
    page: usize,
    per_page: usize,
) -> Result<NotePage> {
    check_page(page, per_page)?;
    let (notes, total) = call.tx_ref().list_notes(
        call.campaign(),
        filter,
        NoteOrder::Recent,
        per_page,
        (page - 1).saturating_mul(per_page),
    )?;
    Ok(NotePage {
        has_more: (page * per_page) < total as usize,
        notes,
        total,
        page,
        per_page,
    })
}

/// What a search found.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NoteSearch {
    /// The words searched for.
    pub terms: Vec<String>,
    /// True when no note held every word and notes holding any of them are shown.
    pub any_word: bool,
    /// Best first.
    pub notes: Vec<ScoredNote>,
}

/// The words of a query, lower case (letters and digits; everything else separates words).
pub fn query_terms(query: &str) -> Vec<String> {
    let mut terms: Vec<String> = Vec::new();
    for w in query.split(|c: char| !c.is_alphanumeric()) {
        let w = w.to_lowercase();
        if !w.is_empty() && !terms.contains(&w) {
            terms.push(w);
        }
    }
    terms
}

/// Full-text search, ranked: notes holding every word (a word matches as a prefix, so "goblin"
/// finds "goblins"); when none holds them all, notes holding any. With no query, the filter alone
/// (most recent first).
pub fn search_notes(
    call: &mut Call<'_>,
    query: Option<&str>,
    filter: &NoteFilter,
    limit: usize,
) -> Result<NoteSearch> {
    check_page(1, limit)?;
    let terms = query.map(query_terms).unwrap_or_default();
    if terms.len() > 16 {
        return Err(EngineError::invalid("query", "at most 16 words"));
    }
    let campaign = call.campaign();
    if terms.is_empty() {
        if query.is_some_and(|q| !q.trim().is_empty()) {
            return Err(EngineError::invalid(
                "query",
                "the query has no words to search for (letters or digits)",
            ));
        }
        if filter == &NoteFilter::default() {
            return Err(EngineError::invalid(
                "query",
                "give query (words to find) or a filter (tagFilter, importance, type)",
            ));
        }
        let (notes, _) = call
            .tx_ref()
            .list_notes(campaign, filter, NoteOrder::Recent, limit, 0)?;
        return Ok(NoteSearch {
            terms,
            any_word: false,
            notes: notes
                .into_iter()
                .map(|note| ScoredNote { note, score: 0.0 })
                .collect(),
        });
    }
    let mut notes = call
        .tx_ref()
        .search_notes(campaign, &terms, true, filter, limit)?;
    let mut any_word = false;
    if notes.is_empty() && terms.len() > 1 {
        notes = call
            .tx_ref()
            .search_notes(campaign, &terms, false, filter, limit)?;
        any_word = true;
    }
    Ok(NoteSearch {
        terms,
        any_word,
        notes,
    })
}
