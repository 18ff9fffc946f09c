//! Rows to model values and back: decoding the stored JSON documents, reading event and note
//! rows, and building the note filter and full-text query. No connection here; the transaction in
//! the parent module runs the SQL.

use crate::model::character::Character;
use crate::model::event::Event;
use crate::model::notes::{Importance, Note, NoteFilter, NoteType, Visibility};
use crate::store::CampaignId;
use crate::store::error::StoreError;

pub(super) fn decode<T: serde::de::DeserializeOwned>(
    what: &str,
    doc: &str,
) -> Result<T, StoreError> {
    serde_json::from_str(doc).map_err(|e| corrupt(what, e))
}

pub(super) fn encode<T: serde::Serialize>(what: &str, v: &T) -> Result<String, StoreError> {
    serde_json::to_string(v).map_err(|e| corrupt(what, e))
}

pub(super) fn clamp(n: usize) -> i64 {
    n.min(i64::MAX as usize) as i64
}

pub(super) const NOTE_COLUMNS: &str =
    "n.id, n.content, n.tags, n.kind, n.importance, n.visibility, n.created_at, n.updated_at";

pub(super) type NoteRow = (String, String, String, String, i64, String, String, String);

pub(super) fn row_note(r: &rusqlite::Row<'_>) -> rusqlite::Result<NoteRow> {
    Ok((
        r.get(0)?,
        r.get(1)?,
        r.get(2)?,
        r.get(3)?,
        r.get(4)?,
        r.get(5)?,
        r.get(6)?,
        r.get(7)?,
    ))
}

pub(super) fn decode_note(
    (id, content, tags, kind, importance, visibility, created_at, updated_at): NoteRow,
) -> Result<Note, StoreError> {
    Ok(Note {
        tags: decode("note tags", &tags)?,
        kind: NoteType::from_key(&kind).ok_or_else(|| corrupt("note type", &kind))?,
        importance: Importance::from_rank(importance)
            .ok_or_else(|| corrupt("note importance", importance))?,
        visibility: Visibility::from_key(&visibility)
            .ok_or_else(|| corrupt("note visibility", &visibility))?,
        id,
        content,
        created_at,
        updated_at,
    })
}

/// Named SQL parameters owned by a query builder.
pub(super) type NamedParams = Vec<(String, Box<dyn rusqlite::ToSql>)>;

/// An FTS5 query from plain words: each quoted (so no word is an operator) and matched as a
/// prefix.
pub(super) fn fts_query(terms: &[String], all: bool) -> String {
    terms
        .iter()
        .map(|t| format!("\"{}\"*", t.replace('"', "\"\"")))
        .collect::<Vec<_>>()
        .join(if all { " AND " } else { " OR " })
}

pub(super) fn decode_character(text: &str) -> Result<Character, StoreError> {
    crate::store::character_text::decode(text)
}

pub(super) fn row_event(
    row: &rusqlite::Row<'_>,
) -> rusqlite::Result<(i64, String, String, String, String, String)> {
    Ok((
        row.get(0)?,
        row.get(1)?,
        row.get(2)?,
        row.get(3)?,
        row.get(4)?,
        row.get(5)?,
    ))
}

pub(super) fn decode_event(
    (seq, at, tool, args, rolls, changes): (i64, String, String, String, String, String),
) -> Result<Event, StoreError> {
    Ok(Event {
        seq,
        at,
        tool,
        args: serde_json::from_str(&args).map_err(|e| corrupt("event args", e))?,
        rolls: serde_json::from_str(&rolls).map_err(|e| corrupt("event rolls", e))?,
        changes: serde_json::from_str(&changes).map_err(|e| corrupt("event changes", e))?,
    })
}

pub(super) fn corrupt(what: &str, e: impl std::fmt::Display) -> StoreError {
    StoreError::Corrupt {
        what: what.to_string(),
        detail: e.to_string(),
    }
}

/// The WHERE clauses and named parameters of a note filter (on alias `n`).
pub(super) fn note_filter_sql(campaign: CampaignId, f: &NoteFilter) -> (Vec<String>, NamedParams) {
    let mut clauses = vec!["n.campaign_id = :campaign".to_string()];
    let mut args: NamedParams = vec![(":campaign".into(), Box::new(campaign.0))];
    if let Some(k) = f.kind {
        clauses.push("n.kind = :kind".into());
        args.push((":kind".into(), Box::new(k.key())));
    }
    if let Some(i) = f.min_importance {
        clauses.push("n.importance >= :importance".into());
        args.push((":importance".into(), Box::new(i.rank())));
    }
    if let Some(v) = f.visibility {
        clauses.push("n.visibility = :visibility".into());
        args.push((":visibility".into(), Box::new(v.key())));
    }
    for (i, t) in f.tags.iter().enumerate() {
        let name = format!(":tag{i}");
        clauses.push(format!(
            "EXISTS (SELECT 1 FROM json_each(n.tags) WHERE value = {name})"
        ));
        args.push((name, Box::new(t.clone())));
    }
    (clauses, args)
}

/// A tiny object-safe JSON encoder so closures can take any serializable field.
pub(super) mod erased {
    pub trait Json {
        fn to_json(&self) -> Result<String, serde_json::Error>;
    }
    impl<T: serde::Serialize> Json for T {
        fn to_json(&self) -> Result<String, serde_json::Error> {
            serde_json::to_string(self)
        }
    }
}
