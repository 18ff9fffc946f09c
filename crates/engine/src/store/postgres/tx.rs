//! The SQL of the PostgreSQL store: [`Tx`] on one open transaction. Text orderings use the
//! `"C"` collation, which compares bytes like SQLite's default, so both stores list in the
//! same order whatever the database's locale.

use super::character_docs::STORED_TEXT;
pub use super::pipe::PgTx;
use super::rows::{
    NOTE_COLUMNS, NOW, Param, TOKEN_SELECT, big, clamp, corrupt, decode, encode, note_filter_sql,
    refs, row_event, row_note, row_token,
};
use super::search::{self, Corpus};
use crate::model::character::{Character, CharacterFilter};
use crate::model::encounter::{Encounter, EncounterStatus};
use crate::model::event::{Event, EventDraft};
use crate::model::memory::{MemoryKind, MemoryRecord, WorldClock};
use crate::model::names::name_key;
use crate::model::notes::{Note, NoteFilter, NoteOrder, ScoredNote};
use crate::model::party::{Party, PartyMember, PartyRole};
use crate::model::travel::TravelEntry;
use crate::model::world::{Connection as WorldConnection, Location};
use crate::store::decoded::Written;
use crate::store::{CampaignId, CampaignInfo, StoreError, StoredToken, Tx};

impl Tx for PgTx<'_> {
    fn lock_campaign(&mut self, campaign: CampaignId) -> Result<bool, StoreError> {
        Ok(self
            .query_opt(
                "SELECT 1 FROM campaigns WHERE id = $1 FOR NO KEY UPDATE",
                &[&campaign.0],
            )?
            .is_some())
    }

    fn ensure_campaign(&mut self, name: &str) -> Result<CampaignId, StoreError> {
        if let Some(id) = self.find_campaign(name)? {
            return Ok(id);
        }
        // Past every id ever handed out (the mark) and every id present: never a reused id.
        // The mark's row lock serializes creators; one that lost the race to the same name
        // finds the winner's campaign.
        let id: i64 = self
            .query_opt(
                "UPDATE campaign_ids SET last = GREATEST(last, (SELECT COALESCE(MAX(id), 0) FROM campaigns)) + 1
                 RETURNING last",
                &[],
            )?
            .map(|r| r.get(0))
            .ok_or_else(|| corrupt("campaign id mark", "missing"))?;
        self.exec(
            &format!(
                "INSERT INTO campaigns (id, name, created_at) VALUES ($1, $2, {NOW})
                 ON CONFLICT (name) DO NOTHING"
            ),
            &[&id, &name],
        )?;
        self.find_campaign(name)?
            .ok_or_else(|| StoreError::Database(format!("campaign {name} vanished while created")))
    }

    fn find_campaign(&self, name: &str) -> Result<Option<CampaignId>, StoreError> {
        Ok(self
            .query_opt("SELECT id FROM campaigns WHERE name = $1", &[&name])?
            .map(|r| CampaignId(r.get(0))))
    }

    fn campaign_exists(&self, campaign: CampaignId) -> Result<bool, StoreError> {
        Ok(self
            .query_opt("SELECT 1 FROM campaigns WHERE id = $1", &[&campaign.0])?
            .is_some())
    }

    fn list_campaigns(&self) -> Result<Vec<CampaignInfo>, StoreError> {
        let rows = self.query(
            "SELECT c.name, c.created_at,
                    (SELECT COUNT(*) FROM characters WHERE campaign_id = c.id),
                    (SELECT COUNT(*) FROM events WHERE campaign_id = c.id)
             FROM campaigns c ORDER BY c.name COLLATE \"C\"",
            &[],
        )?;
        Ok(rows
            .iter()
            .map(|r| CampaignInfo {
                name: r.get(0),
                created_at: r.get(1),
                characters: r.get::<_, i64>(2).max(0) as u64,
                events: r.get::<_, i64>(3).max(0) as u64,
            })
            .collect())
    }

    fn delete_campaign(&mut self, name: &str) -> Result<bool, StoreError> {
        Ok(self.exec("DELETE FROM campaigns WHERE name = $1", &[&name])? > 0)
    }

    fn rng_state(&self, campaign: CampaignId) -> Result<Option<String>, StoreError> {
        Ok(self
            .query_opt(
                "SELECT rng_state FROM campaigns WHERE id = $1",
                &[&campaign.0],
            )?
            .and_then(|r| r.get(0)))
    }

    fn set_rng_state(&mut self, campaign: CampaignId, state: &str) -> Result<(), StoreError> {
        self.exec_later(
            "UPDATE campaigns SET rng_state = $2 WHERE id = $1",
            vec![Box::new(campaign.0), Box::new(state.to_string())],
        )
    }

    fn next_id(&mut self, campaign: CampaignId, kind: &str) -> Result<u64, StoreError> {
        let n: i64 = self
            .query_opt(
                "INSERT INTO counters (campaign_id, kind, next) VALUES ($1, $2, 1)
                 ON CONFLICT (campaign_id, kind) DO UPDATE SET next = counters.next + 1
                 RETURNING next",
                &[&campaign.0, &kind],
            )?
            .map(|r| r.get(0))
            .unwrap_or(1);
        Ok(n.max(1) as u64)
    }

    fn advance_id(
        &mut self,
        campaign: CampaignId,
        kind: &str,
        past: u64,
    ) -> Result<(), StoreError> {
        self.exec(
            "INSERT INTO counters (campaign_id, kind, next) VALUES ($1, $2, $3)
             ON CONFLICT (campaign_id, kind) DO UPDATE SET next = GREATEST(counters.next, excluded.next)",
            &[&campaign.0, &kind, &big(past)],
        )?;
        Ok(())
    }

    fn character(&self, campaign: CampaignId, id: &str) -> Result<Option<Character>, StoreError> {
        self.character_doc(campaign, id)?
            .first()
            .map(|d| self.decode_character(d))
            .transpose()
    }

    fn characters_named(
        &self,
        campaign: CampaignId,
        name: &str,
    ) -> Result<Vec<Character>, StoreError> {
        self.character_docs_named(campaign, name)?
            .iter()
            .map(|d| self.decode_character(d))
            .collect()
    }

    fn character_resolved(
        &self,
        campaign: CampaignId,
        id: &str,
        key: u64,
        resolve: &mut dyn FnMut(&mut Character),
    ) -> Result<Option<Character>, StoreError> {
        self.character_doc(campaign, id)?
            .first()
            .map(|d| self.resolve_character(d, key, resolve))
            .transpose()
    }

    fn characters_named_resolved(
        &self,
        campaign: CampaignId,
        name: &str,
        key: u64,
        resolve: &mut dyn FnMut(&mut Character),
    ) -> Result<Vec<Character>, StoreError> {
        self.character_docs_named(campaign, name)?
            .iter()
            .map(|d| self.resolve_character(d, key, resolve))
            .collect()
    }

    fn list_characters(
        &self,
        campaign: CampaignId,
        filter: &CharacterFilter,
        limit: usize,
        offset: usize,
    ) -> Result<(Vec<Character>, u64), StoreError> {
        let mut clauses = vec!["campaign_id = $1".to_string()];
        let mut args: Vec<Param> = vec![Box::new(campaign.0)];
        if let Some(kind) = filter.kind {
            args.push(Box::new(kind.key().to_string()));
            clauses.push(format!("kind = ${}", args.len()));
        }
        if let Some(class) = &filter.class {
            args.push(Box::new(name_key(class)));
            clauses.push(format!("class_key = ${}", args.len()));
        }
        if let Some(min) = filter.min_level {
            args.push(Box::new(i64::from(min)));
            clauses.push(format!("level >= ${}", args.len()));
        }
        if let Some(max) = filter.max_level {
            args.push(Box::new(i64::from(max)));
            clauses.push(format!("level <= ${}", args.len()));
        }
        if let Some(name) = &filter.name {
            args.push(Box::new(name_key(name)));
            clauses.push(format!("strpos(name_key, ${}) > 0", args.len()));
        }
        if let Some(cond) = filter.has_condition {
            args.push(Box::new(cond.key().to_string()));
            clauses.push(format!(
                "EXISTS (SELECT 1 FROM jsonb_array_elements(CASE WHEN jsonb_typeof(doc::jsonb -> 'conditions') = 'array' \
                 THEN doc::jsonb -> 'conditions' ELSE '[]'::jsonb END) c WHERE c ->> 'condition' = ${})",
                args.len()
            ));
        }
        let wh = clauses.join(" AND ");
        let total = self.count(
            &format!("SELECT COUNT(*) FROM characters WHERE {wh}"),
            &refs(&args),
        )?;
        let n = args.len();
        args.push(Box::new(clamp(limit)));
        args.push(Box::new(clamp(offset)));
        let docs = self.docs(
            &format!(
                "SELECT {STORED_TEXT} FROM characters LEFT JOIN character_sheets USING (campaign_id, id)
                 WHERE {wh}
                 ORDER BY name_key COLLATE \"C\", id COLLATE \"C\" LIMIT ${} OFFSET ${}",
                n + 1,
                n + 2
            ),
            &refs(&args),
        )?;
        let list = docs
            .iter()
            .map(|d| self.decode_character(d))
            .collect::<Result<_, _>>()?;
        Ok((list, total))
    }

    fn character_names(&self, campaign: CampaignId) -> Result<Vec<(String, String)>, StoreError> {
        Ok(self
            .query(
                "SELECT id, name FROM characters WHERE campaign_id = $1 ORDER BY name_key COLLATE \"C\"",
                &[&campaign.0],
            )?
            .iter()
            .map(|r| (r.get(0), r.get(1)))
            .collect())
    }

    fn put_character(&mut self, campaign: CampaignId, c: &Character) -> Result<(), StoreError> {
        self.put_encoded(campaign, Written::Copy(c), None)
    }

    fn put_character_doc(
        &mut self,
        campaign: CampaignId,
        c: &std::sync::Arc<Character>,
        doc: &crate::model::doc_state::Document,
    ) -> Result<(), StoreError> {
        self.put_encoded(campaign, Written::Shared(c), Some(doc))
    }

    fn delete_character(&mut self, campaign: CampaignId, id: &str) -> Result<bool, StoreError> {
        Ok(self.exec(
            "DELETE FROM characters WHERE campaign_id = $1 AND id = $2",
            &[&campaign.0, &id],
        )? > 0)
    }

    fn append_event(&mut self, campaign: CampaignId, e: &EventDraft) -> Result<i64, StoreError> {
        self.query_opt(
            &format!(
                "INSERT INTO events (campaign_id, at, tool, args, rolls, changes)
                 VALUES ($1, {NOW}, $2, $3, $4, $5) RETURNING seq"
            ),
            &[
                &campaign.0,
                &e.tool,
                &encode("event", &e.args)?,
                &encode("event", &e.rolls)?,
                &encode("event", &e.changes)?,
            ],
        )?
        .map(|r| r.get(0))
        .ok_or_else(|| StoreError::Database("the event insert returned no sequence".into()))
    }

    fn log_event(&mut self, campaign: CampaignId, e: &EventDraft) -> Result<(), StoreError> {
        self.exec_later(
            &format!(
                "INSERT INTO events (campaign_id, at, tool, args, rolls, changes)
                 VALUES ($1, {NOW}, $2, $3, $4, $5)"
            ),
            vec![
                Box::new(campaign.0),
                Box::new(e.tool.clone()),
                Box::new(encode("event", &e.args)?),
                Box::new(encode("event", &e.rolls)?),
                Box::new(encode("event", &e.changes)?),
            ],
        )
    }

    fn recent_events(&self, campaign: CampaignId, limit: usize) -> Result<Vec<Event>, StoreError> {
        self.query(
            "SELECT seq, at, tool, args, rolls, changes FROM events
             WHERE campaign_id = $1 ORDER BY seq DESC LIMIT $2",
            &[&campaign.0, &clamp(limit)],
        )?
        .iter()
        .map(row_event)
        .collect()
    }

    fn all_events(&self, campaign: CampaignId) -> Result<Vec<Event>, StoreError> {
        self.query(
            "SELECT seq, at, tool, args, rolls, changes FROM events WHERE campaign_id = $1 ORDER BY seq",
            &[&campaign.0],
        )?
        .iter()
        .map(row_event)
        .collect()
    }

    fn import_event(&mut self, campaign: CampaignId, e: &Event) -> Result<(), StoreError> {
        self.exec(
            "INSERT INTO events (campaign_id, at, tool, args, rolls, changes) VALUES ($1, $2, $3, $4, $5, $6)",
            &[
                &campaign.0,
                &e.at,
                &e.tool,
                &encode("event", &e.args)?,
                &encode("event", &e.rolls)?,
                &encode("event", &e.changes)?,
            ],
        )?;
        Ok(())
    }

    fn location(&self, campaign: CampaignId, id: &str) -> Result<Option<Location>, StoreError> {
        self.doc(
            "location",
            "SELECT doc FROM locations WHERE campaign_id = $1 AND id = $2",
            &[&campaign.0, &id],
        )
    }

    fn locations_named(
        &self,
        campaign: CampaignId,
        name: &str,
    ) -> Result<Vec<Location>, StoreError> {
        self.docs(
            "SELECT doc FROM locations WHERE campaign_id = $1 AND name_key = $2 ORDER BY id COLLATE \"C\"",
            &[&campaign.0, &name_key(name)],
        )?
        .iter()
        .map(|d| decode("location", d))
        .collect()
    }

    fn location_names(&self, campaign: CampaignId) -> Result<Vec<(String, String)>, StoreError> {
        Ok(self
            .query(
                "SELECT id, name FROM locations WHERE campaign_id = $1
                 ORDER BY name_key COLLATE \"C\", id COLLATE \"C\"",
                &[&campaign.0],
            )?
            .iter()
            .map(|r| (r.get(0), r.get(1)))
            .collect())
    }

    fn list_locations(
        &self,
        campaign: CampaignId,
        limit: usize,
        offset: usize,
    ) -> Result<(Vec<Location>, u64), StoreError> {
        let total = self.count(
            "SELECT COUNT(*) FROM locations WHERE campaign_id = $1",
            &[&campaign.0],
        )?;
        let list = self
            .docs(
                "SELECT doc FROM locations WHERE campaign_id = $1
                 ORDER BY name_key COLLATE \"C\", id COLLATE \"C\" LIMIT $2 OFFSET $3",
                &[&campaign.0, &clamp(limit), &clamp(offset)],
            )?
            .iter()
            .map(|d| decode("location", d))
            .collect::<Result<_, _>>()?;
        Ok((list, total))
    }

    fn put_location(&mut self, campaign: CampaignId, l: &Location) -> Result<(), StoreError> {
        let doc = encode("location", l)?;
        self.exec(
            &format!(
                "INSERT INTO locations (campaign_id, id, name, name_key, doc, created_at, updated_at)
                 VALUES ($1, $2, $3, $4, $5, {NOW}, {NOW})
                 ON CONFLICT (campaign_id, id) DO UPDATE SET
                   name = excluded.name, name_key = excluded.name_key, doc = excluded.doc,
                   updated_at = excluded.updated_at"
            ),
            &[&campaign.0, &l.id, &l.name, &name_key(&l.name), &doc],
        )?;
        Ok(())
    }

    fn delete_location(&mut self, campaign: CampaignId, id: &str) -> Result<bool, StoreError> {
        self.exec(
            "DELETE FROM connections WHERE campaign_id = $1 AND (from_id = $2 OR to_id = $2)",
            &[&campaign.0, &id],
        )?;
        Ok(self.exec(
            "DELETE FROM locations WHERE campaign_id = $1 AND id = $2",
            &[&campaign.0, &id],
        )? > 0)
    }

    fn connection(
        &self,
        campaign: CampaignId,
        id: &str,
    ) -> Result<Option<WorldConnection>, StoreError> {
        self.doc(
            "connection",
            "SELECT doc FROM connections WHERE campaign_id = $1 AND id = $2",
            &[&campaign.0, &id],
        )
    }

    fn connections_of(
        &self,
        campaign: CampaignId,
        location: &str,
    ) -> Result<Vec<WorldConnection>, StoreError> {
        self.docs(
            "SELECT doc FROM connections WHERE campaign_id = $1 AND (from_id = $2 OR to_id = $2)
             ORDER BY length(id), id COLLATE \"C\"",
            &[&campaign.0, &location],
        )?
        .iter()
        .map(|d| decode("connection", d))
        .collect()
    }

    fn put_connection(
        &mut self,
        campaign: CampaignId,
        c: &WorldConnection,
    ) -> Result<(), StoreError> {
        let doc = encode("connection", c)?;
        self.exec(
            "INSERT INTO connections (campaign_id, id, from_id, to_id, doc)
             VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (campaign_id, id) DO UPDATE SET
               from_id = excluded.from_id, to_id = excluded.to_id, doc = excluded.doc",
            &[&campaign.0, &c.id, &c.from, &c.to, &doc],
        )?;
        Ok(())
    }

    fn delete_connection(&mut self, campaign: CampaignId, id: &str) -> Result<bool, StoreError> {
        Ok(self.exec(
            "DELETE FROM connections WHERE campaign_id = $1 AND id = $2",
            &[&campaign.0, &id],
        )? > 0)
    }

    fn party(&self, campaign: CampaignId, id: &str) -> Result<Option<Party>, StoreError> {
        Ok(self.parties_where(campaign, Some(id))?.into_iter().next())
    }

    fn list_parties(&self, campaign: CampaignId) -> Result<Vec<Party>, StoreError> {
        self.parties_where(campaign, None)
    }

    fn party_of_character(
        &self,
        campaign: CampaignId,
        character: &str,
    ) -> Result<Option<String>, StoreError> {
        Ok(self
            .query_opt(
                "SELECT party_id FROM party_members WHERE campaign_id = $1 AND character_id = $2",
                &[&campaign.0, &character],
            )?
            .map(|r| r.get(0)))
    }

    fn put_party(&mut self, campaign: CampaignId, p: &Party) -> Result<(), StoreError> {
        self.exec(
            &format!(
                "INSERT INTO parties (campaign_id, id, name, name_key, description, location_id,
                                      leader_id, active, elapsed_minutes, created_at)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, {NOW})
                 ON CONFLICT (campaign_id, id) DO UPDATE SET
                   name = excluded.name, name_key = excluded.name_key,
                   description = excluded.description, location_id = excluded.location_id,
                   leader_id = excluded.leader_id, active = excluded.active,
                   elapsed_minutes = excluded.elapsed_minutes"
            ),
            &[
                &campaign.0,
                &p.id,
                &p.name,
                &name_key(&p.name),
                &p.description,
                &p.location_id,
                &p.leader_id,
                &p.active,
                &big(p.elapsed_minutes),
            ],
        )?;
        self.exec(
            "DELETE FROM party_members WHERE campaign_id = $1 AND party_id = $2",
            &[&campaign.0, &p.id],
        )?;
        for (i, m) in p.members.iter().enumerate() {
            self.exec(
                "INSERT INTO party_members (campaign_id, character_id, party_id, role, active, position)
                 VALUES ($1, $2, $3, $4, $5, $6)",
                &[
                    &campaign.0,
                    &m.character_id,
                    &p.id,
                    &m.role.key(),
                    &m.active,
                    &clamp(i),
                ],
            )?;
        }
        Ok(())
    }

    fn delete_party(&mut self, campaign: CampaignId, id: &str) -> Result<bool, StoreError> {
        for table in ["party_members", "party_travel"] {
            self.exec(
                &format!("DELETE FROM {table} WHERE campaign_id = $1 AND party_id = $2"),
                &[&campaign.0, &id],
            )?;
        }
        Ok(self.exec(
            "DELETE FROM parties WHERE campaign_id = $1 AND id = $2",
            &[&campaign.0, &id],
        )? > 0)
    }

    fn append_travel(
        &mut self,
        campaign: CampaignId,
        party: &str,
        entry: &TravelEntry,
    ) -> Result<(), StoreError> {
        let doc = encode("travel entry", entry)?;
        self.exec(
            "INSERT INTO party_travel (campaign_id, party_id, doc) VALUES ($1, $2, $3)",
            &[&campaign.0, &party, &doc],
        )?;
        Ok(())
    }

    fn travel_history(
        &self,
        campaign: CampaignId,
        party: &str,
        limit: usize,
    ) -> Result<Vec<TravelEntry>, StoreError> {
        self.docs(
            "SELECT doc FROM party_travel WHERE campaign_id = $1 AND party_id = $2
             ORDER BY seq DESC LIMIT $3",
            &[&campaign.0, &party, &clamp(limit)],
        )?
        .iter()
        .map(|d| decode("travel entry", d))
        .collect()
    }

    fn note(&self, campaign: CampaignId, id: &str) -> Result<Option<Note>, StoreError> {
        self.query_opt(
            &format!("SELECT {NOTE_COLUMNS} FROM notes n WHERE n.campaign_id = $1 AND n.id = $2"),
            &[&campaign.0, &id],
        )?
        .as_ref()
        .map(row_note)
        .transpose()
    }

    fn put_note(&mut self, campaign: CampaignId, n: &Note) -> Result<(), StoreError> {
        let tags = encode("note tags", &n.tags)?;
        let tags_text = n.tags.join(" ");
        let mut words = search::words(&n.content);
        words.extend(search::words(&tags_text));
        let tokens = clamp(words.len());
        words.sort();
        words.dedup();
        self.exec(
            &format!(
                "INSERT INTO notes (campaign_id, id, content, tags, tags_text, kind, importance,
                                    visibility, created_at, updated_at, fts, fts_tokens)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, {NOW}, {NOW}, array_to_tsvector($9::text[]), $10)
                 ON CONFLICT (campaign_id, id) DO UPDATE SET
                   content = excluded.content, tags = excluded.tags, tags_text = excluded.tags_text,
                   kind = excluded.kind, importance = excluded.importance,
                   visibility = excluded.visibility, updated_at = excluded.updated_at,
                   fts = excluded.fts, fts_tokens = excluded.fts_tokens"
            ),
            &[
                &campaign.0,
                &n.id,
                &n.content,
                &tags,
                &tags_text,
                &n.kind.key(),
                &n.importance.rank(),
                &n.visibility.key(),
                &words,
                &tokens,
            ],
        )?;
        Ok(())
    }

    fn delete_note(&mut self, campaign: CampaignId, id: &str) -> Result<bool, StoreError> {
        Ok(self.exec(
            "DELETE FROM notes WHERE campaign_id = $1 AND id = $2",
            &[&campaign.0, &id],
        )? > 0)
    }

    fn list_notes(
        &self,
        campaign: CampaignId,
        filter: &NoteFilter,
        order: NoteOrder,
        limit: usize,
        offset: usize,
    ) -> Result<(Vec<Note>, u64), StoreError> {
        let (clauses, mut args) = note_filter_sql(campaign, filter);
        let wh = clauses.join(" AND ");
        let total = self.count(
            &format!("SELECT COUNT(*) FROM notes n WHERE {wh}"),
            &refs(&args),
        )?;
        let order = match order {
            NoteOrder::Recent => "n.rowid DESC",
            NoteOrder::Importance => "n.importance DESC, n.rowid DESC",
        };
        let n = args.len();
        args.push(Box::new(clamp(limit)));
        args.push(Box::new(clamp(offset)));
        let notes = self
            .query(
                &format!(
                    "SELECT {NOTE_COLUMNS} FROM notes n WHERE {wh} ORDER BY {order} LIMIT ${} OFFSET ${}",
                    n + 1,
                    n + 2
                ),
                &refs(&args),
            )?
            .iter()
            .map(row_note)
            .collect::<Result<_, _>>()?;
        Ok((notes, total))
    }

    fn search_notes(
        &self,
        campaign: CampaignId,
        terms: &[String],
        all_terms: bool,
        filter: &NoteFilter,
        limit: usize,
    ) -> Result<Vec<ScoredNote>, StoreError> {
        let Some(phrases) = search::phrases(terms, all_terms) else {
            return Ok(vec![]);
        };
        let query = phrases
            .iter()
            .map(|p| p.prefilter())
            .collect::<Vec<_>>()
            .join(if all_terms { " & " } else { " | " });
        // The statistics of the whole store (FTS5 ranks against its whole table).
        let stats = self
            .query_opt(
                "SELECT COUNT(*), COALESCE(SUM(fts_tokens), 0)::BIGINT FROM notes",
                &[],
            )?
            .map(|r| (r.get::<_, i64>(0), r.get::<_, i64>(1)))
            .unwrap_or((0, 0));
        let mut hits = Vec::with_capacity(phrases.len());
        for p in &phrases {
            let n = if p.0.len() == 1 {
                self.count(
                    "SELECT COUNT(*) FROM notes WHERE fts @@ $1::text::tsquery",
                    &[&p.prefilter()],
                )?
            } else {
                // A phrase's words may be present out of order: count exact occurrences.
                self.query(
                    "SELECT content, tags_text FROM notes WHERE fts @@ $1::text::tsquery",
                    &[&p.prefilter()],
                )?
                .iter()
                .filter(|r| {
                    p.count_in(&search::words(r.get(0))) + p.count_in(&search::words(r.get(1))) > 0
                })
                .count() as u64
            };
            hits.push(n as f64);
        }
        let corpus = Corpus {
            rows: stats.0 as f64,
            tokens: stats.1 as f64,
            hits,
        };
        let (mut clauses, mut args) = note_filter_sql(campaign, filter);
        args.push(Box::new(query));
        clauses.push(format!("n.fts @@ ${}::text::tsquery", args.len()));
        let rows = self.query(
            &format!(
                "SELECT {NOTE_COLUMNS} FROM notes n WHERE {}",
                clauses.join(" AND ")
            ),
            &refs(&args),
        )?;
        let mut scored = Vec::new();
        for r in &rows {
            let content = search::words(r.get(1));
            let tags = search::words(r.get(9));
            if let Some(score) = search::score(&phrases, all_terms, &corpus, &[&content, &tags]) {
                let rowid: i64 = r.get(8);
                scored.push((score, rowid, row_note(r)?));
            }
        }
        // As SQLite: best rank, then importance, then the newest.
        scored.sort_by(|a, b| {
            b.0.total_cmp(&a.0)
                .then(b.2.importance.rank().cmp(&a.2.importance.rank()))
                .then(b.1.cmp(&a.1))
        });
        scored.truncate(limit);
        Ok(scored
            .into_iter()
            .map(|(score, _, note)| ScoredNote { note, score })
            .collect())
    }

    fn encounter(&self, campaign: CampaignId, id: &str) -> Result<Option<Encounter>, StoreError> {
        self.doc(
            "encounter",
            "SELECT doc FROM encounters WHERE campaign_id = $1 AND id = $2",
            &[&campaign.0, &id],
        )
    }

    fn list_encounters(
        &self,
        campaign: CampaignId,
        active_only: bool,
    ) -> Result<Vec<Encounter>, StoreError> {
        self.docs(
            "SELECT doc FROM encounters WHERE campaign_id = $1 AND ($2 = FALSE OR status = 'active')
             ORDER BY created_at COLLATE \"C\" DESC, id COLLATE \"C\" DESC",
            &[&campaign.0, &active_only],
        )?
        .iter()
        .map(|d| decode("encounter", d))
        .collect()
    }

    fn put_encounter(&mut self, campaign: CampaignId, e: &Encounter) -> Result<(), StoreError> {
        let doc = encode("encounter", e)?;
        let status = match e.status {
            EncounterStatus::Active => "active",
            EncounterStatus::Ended => "ended",
        };
        self.exec(
            &format!(
                "INSERT INTO encounters (campaign_id, id, name, status, doc, created_at, updated_at)
                 VALUES ($1, $2, $3, $4, $5, {NOW}, {NOW})
                 ON CONFLICT (campaign_id, id) DO UPDATE SET
                   name = excluded.name, status = excluded.status, doc = excluded.doc,
                   updated_at = excluded.updated_at"
            ),
            &[&campaign.0, &e.id, &e.name, &status, &doc],
        )?;
        Ok(())
    }

    fn memory(
        &self,
        campaign: CampaignId,
        kind: MemoryKind,
        id: &str,
    ) -> Result<Option<MemoryRecord>, StoreError> {
        self.memory_get(campaign, kind, id)
    }

    fn memories(
        &self,
        campaign: CampaignId,
        kind: MemoryKind,
        status: Option<&str>,
    ) -> Result<Vec<MemoryRecord>, StoreError> {
        self.memory_list(campaign, kind, status)
    }

    fn put_memory(&mut self, campaign: CampaignId, r: &MemoryRecord) -> Result<(), StoreError> {
        self.memory_put(campaign, r)
    }

    fn delete_memory(
        &mut self,
        campaign: CampaignId,
        kind: MemoryKind,
        id: &str,
    ) -> Result<bool, StoreError> {
        self.memory_delete(campaign, kind, id)
    }

    fn clock(&self, campaign: CampaignId) -> Result<Option<WorldClock>, StoreError> {
        self.clock_get(campaign)
    }

    fn set_clock(&mut self, campaign: CampaignId, clock: &WorldClock) -> Result<(), StoreError> {
        self.clock_put(campaign, clock)
    }

    fn delete_encounter(&mut self, campaign: CampaignId, id: &str) -> Result<bool, StoreError> {
        Ok(self.exec(
            "DELETE FROM encounters WHERE campaign_id = $1 AND id = $2",
            &[&campaign.0, &id],
        )? > 0)
    }

    fn put_token(&mut self, t: &StoredToken) -> Result<(), StoreError> {
        self.exec(
            &format!(
                "INSERT INTO access_tokens (id, campaign_id, role, character_id, secret_hash, label, created_at)
                 VALUES ($1, $2, $3, $4, $5, $6, {NOW})"
            ),
            &[
                &t.id,
                &t.campaign.0,
                &t.role,
                &t.character_id,
                &t.secret_hash,
                &t.label,
            ],
        )?;
        Ok(())
    }

    fn token(&self, id: &str) -> Result<Option<StoredToken>, StoreError> {
        Ok(self
            .query_opt(&format!("{TOKEN_SELECT} WHERE t.id = $1"), &[&id])?
            .as_ref()
            .map(row_token))
    }

    fn list_tokens(&self, campaign: Option<CampaignId>) -> Result<Vec<StoredToken>, StoreError> {
        Ok(self
            .query(
                &format!(
                    "{TOKEN_SELECT} WHERE $1::BIGINT IS NULL OR t.campaign_id = $1
                     ORDER BY t.created_at COLLATE \"C\", t.id COLLATE \"C\""
                ),
                &[&campaign.map(|c| c.0)],
            )?
            .iter()
            .map(row_token)
            .collect())
    }

    fn delete_token(&mut self, id: &str) -> Result<bool, StoreError> {
        Ok(self.exec("DELETE FROM access_tokens WHERE id = $1", &[&id])? > 0)
    }
}

impl PgTx<'_> {
    /// Writes `c`, with its document when the caller made it.
    fn put_encoded(
        &mut self,
        campaign: CampaignId,
        c: Written<'_>,
        doc: Option<&crate::model::doc_state::Document>,
    ) -> Result<(), StoreError> {
        let stored = self.conn.decoded.sheets.encode_with(&c, doc)?;
        self.conn.decoded.keep(&stored, c);
        self.exec_later(
            &format!(
                "INSERT INTO characters (campaign_id, id, name, name_key, kind, class_key, level, doc, created_at, updated_at)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, {NOW}, {NOW})
                 ON CONFLICT (campaign_id, id) DO UPDATE SET
                   name = excluded.name, name_key = excluded.name_key, kind = excluded.kind,
                   class_key = excluded.class_key, level = excluded.level, doc = excluded.doc,
                   updated_at = excluded.updated_at"
            ),
            vec![
                Box::new(campaign.0),
                Box::new(c.id.clone()),
                Box::new(c.name.clone()),
                Box::new(name_key(&c.name)),
                Box::new(c.kind.key().to_string()),
                Box::new(c.class.as_deref().map(name_key)),
                Box::new(i64::from(c.level)),
                Box::new(stored.doc().to_string()),
            ],
        )?;
        self.put_sheet(campaign, &c.id, stored.sheet())
    }

    fn party_members(
        &self,
        campaign: CampaignId,
        party: &str,
    ) -> Result<Vec<PartyMember>, StoreError> {
        self.query(
            "SELECT character_id, role, active FROM party_members
             WHERE campaign_id = $1 AND party_id = $2 ORDER BY position",
            &[&campaign.0, &party],
        )?
        .iter()
        .map(|r| {
            let role: String = r.get(1);
            Ok(PartyMember {
                character_id: r.get(0),
                role: PartyRole::from_key(&role).ok_or_else(|| corrupt("party role", &role))?,
                active: r.get(2),
            })
        })
        .collect()
    }

    fn parties_where(
        &self,
        campaign: CampaignId,
        id: Option<&str>,
    ) -> Result<Vec<Party>, StoreError> {
        let rows = self.query(
            "SELECT id, name, description, location_id, leader_id, active, elapsed_minutes
             FROM parties WHERE campaign_id = $1 AND ($2::TEXT IS NULL OR id = $2)
             ORDER BY created_at COLLATE \"C\", id COLLATE \"C\"",
            &[&campaign.0, &id],
        )?;
        rows.iter()
            .map(|r| {
                let id: String = r.get(0);
                Ok(Party {
                    members: self.party_members(campaign, &id)?,
                    id,
                    name: r.get(1),
                    description: r.get(2),
                    location_id: r.get(3),
                    leader_id: r.get(4),
                    active: r.get(5),
                    elapsed_minutes: r.get::<_, i64>(6).max(0) as u64,
                })
            })
            .collect()
    }
}
