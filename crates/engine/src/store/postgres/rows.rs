//! Rows to model values and back for the PostgreSQL store, and the note filter's SQL. No
//! connection here; [`super::tx`] runs the statements.

use tokio_postgres::Row;
use tokio_postgres::types::ToSql;

use crate::model::event::Event;
use crate::model::notes::{Importance, Note, NoteFilter, NoteType, Visibility};
use crate::store::{CampaignId, StoreError, StoredToken};

pub(super) const NOW: &str =
    "to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')";

pub(super) const NOTE_COLUMNS: &str = "n.id, n.content, n.tags, n.kind, n.importance, n.visibility, \
     n.created_at, n.updated_at, n.rowid, n.tags_text";

pub(super) type Param = Box<dyn ToSql + Sync + Send>;

pub(super) fn refs(args: &[Param]) -> Vec<&(dyn ToSql + Sync)> {
    args.iter()
        .map(|p| p.as_ref() as &(dyn ToSql + Sync))
        .collect()
}

pub(super) fn decode<T: serde::de::DeserializeOwned>(
    what: &str,
    doc: &str,
) -> Result<T, StoreError> {
    serde_json::from_str(doc).map_err(|e| corrupt(what, e))
}

pub(super) fn encode<T: serde::Serialize + ?Sized>(
    what: &str,
    v: &T,
) -> Result<String, StoreError> {
    serde_json::to_string(v).map_err(|e| corrupt(what, e))
}

pub(super) fn corrupt(what: &str, e: impl std::fmt::Display) -> StoreError {
    StoreError::Corrupt {
        what: what.to_string(),
        detail: e.to_string(),
    }
}

pub(super) fn clamp(n: usize) -> i64 {
    n.min(i64::MAX as usize) as i64
}

pub(super) fn big(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

pub(super) fn row_note(r: &Row) -> Result<Note, StoreError> {
    let kind: String = r.get(3);
    let importance: i64 = r.get(4);
    let visibility: String = r.get(5);
    Ok(Note {
        id: r.get(0),
        content: r.get(1),
        tags: decode("note tags", &r.get::<_, String>(2))?,
        kind: NoteType::from_key(&kind).ok_or_else(|| corrupt("note type", &kind))?,
        importance: Importance::from_rank(importance)
            .ok_or_else(|| corrupt("note importance", importance))?,
        visibility: Visibility::from_key(&visibility)
            .ok_or_else(|| corrupt("note visibility", &visibility))?,
        created_at: r.get(6),
        updated_at: r.get(7),
    })
}

pub(super) fn row_event(r: &Row) -> Result<Event, StoreError> {
    Ok(Event {
        seq: r.get(0),
        at: r.get(1),
        tool: r.get(2),
        args: decode("event args", &r.get::<_, String>(3))?,
        rolls: decode("event rolls", &r.get::<_, String>(4))?,
        changes: decode("event changes", &r.get::<_, String>(5))?,
    })
}

pub(super) fn row_token(r: &Row) -> StoredToken {
    StoredToken {
        id: r.get(0),
        campaign: CampaignId(r.get(1)),
        campaign_name: r.get(2),
        role: r.get(3),
        character_id: r.get(4),
        secret_hash: r.get(5),
        label: r.get(6),
        created_at: r.get(7),
    }
}

pub(super) const TOKEN_SELECT: &str = "SELECT t.id, t.campaign_id, c.name, t.role, t.character_id, \
     t.secret_hash, t.label, t.created_at FROM access_tokens t JOIN campaigns c ON c.id = t.campaign_id";

/// The WHERE clauses and parameters of a note filter (on alias `n`); parameters are numbered
/// from `$1`.
pub(super) fn note_filter_sql(campaign: CampaignId, f: &NoteFilter) -> (Vec<String>, Vec<Param>) {
    let mut clauses = vec!["n.campaign_id = $1".to_string()];
    let mut args: Vec<Param> = vec![Box::new(campaign.0)];
    if let Some(k) = f.kind {
        args.push(Box::new(k.key().to_string()));
        clauses.push(format!("n.kind = ${}", args.len()));
    }
    if let Some(i) = f.min_importance {
        args.push(Box::new(i.rank()));
        clauses.push(format!("n.importance >= ${}", args.len()));
    }
    if let Some(v) = f.visibility {
        args.push(Box::new(v.key().to_string()));
        clauses.push(format!("n.visibility = ${}", args.len()));
    }
    for t in &f.tags {
        args.push(Box::new(t.clone()));
        clauses.push(format!(
            "EXISTS (SELECT 1 FROM jsonb_array_elements_text(n.tags::jsonb) tag WHERE tag = ${})",
            args.len()
        ));
    }
    (clauses, args)
}
