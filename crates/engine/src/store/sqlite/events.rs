//! The event log and the dice stream on SQLite.
//!
//! The dice stream's state after a call is stored in the row of the event that records the call
//! (`events.rng`, migration 010), so a call that rolls writes the event's page and its index
//! entry, and not the campaign's row as well. The rule that keeps one state per campaign:
//! - the state is the newest event's `rng` when it has one, else `campaigns.rng_state`;
//! - a state set in a transaction waits in the transaction ([`SqliteTx::set_rng_state`]) and is
//!   written with the next event of its campaign; an event of a call that rolled nothing copies
//!   the state of the event before it (none stays none, and the campaign's row still holds it);
//! - a state set with no event after it in the transaction (importing a campaign, with no
//!   stated event yet) goes to the campaign's row at commit. That is refused once an event
//!   carries a state, as the event's would hide it: every call that rolls also records an event.

use rusqlite::{OptionalExtension, params};

use super::rows::{corrupt, erased};
use super::{NEXT_EVENT_SEQ, NOW, SqliteTx};
use crate::model::event::{Event, EventDraft};
use crate::store::{CampaignId, StoreError};

/// The newest state carried by an event of campaign `?1` (none: the campaign's row holds it).
const NEWEST_EVENT_RNG: &str =
    "(SELECT rng FROM events WHERE campaign_id = ?1 ORDER BY seq DESC LIMIT 1)";

impl SqliteTx<'_> {
    /// The dice stream's state of `campaign`, as the last committed call (or this transaction)
    /// left it.
    pub(super) fn stream_state(&self, campaign: CampaignId) -> Result<Option<String>, StoreError> {
        if let Some((c, s)) = &self.pending_rng
            && *c == campaign
        {
            return Ok(Some(s.clone()));
        }
        static READ: std::sync::OnceLock<String> = std::sync::OnceLock::new();
        Ok(self
            .tx
            .prepare_cached(READ.get_or_init(|| {
                format!(
                    "SELECT COALESCE({NEWEST_EVENT_RNG}, rng_state) FROM campaigns WHERE id = ?1"
                )
            }))?
            .query_row(params![campaign.0], |r| r.get::<_, Option<String>>(0))
            .optional()?
            .flatten())
    }

    /// Keeps `state` as `campaign`'s until its next event is written (or the commit).
    pub(super) fn keep_stream_state(
        &mut self,
        campaign: CampaignId,
        state: &str,
    ) -> Result<(), StoreError> {
        if self
            .pending_rng
            .as_ref()
            .is_some_and(|(c, _)| *c != campaign)
        {
            self.flush_stream_state()?;
        }
        self.pending_rng = Some((campaign, state.to_owned()));
        Ok(())
    }

    /// Writes a state no event took to the campaign's row (see the module's doc).
    pub(super) fn flush_stream_state(&mut self) -> Result<(), StoreError> {
        let Some((campaign, state)) = self.pending_rng.take() else {
            return Ok(());
        };
        let hidden: Option<bool> = self
            .tx
            .prepare_cached(
                "SELECT rng IS NOT NULL FROM events WHERE campaign_id = ?1 ORDER BY seq DESC LIMIT 1",
            )?
            .query_row(params![campaign.0], |r| r.get(0))
            .optional()?;
        if hidden == Some(true) {
            return Err(StoreError::Database(
                "internal: a dice stream state was set with no event to record it, and an \
                 event already carries one; nothing was written"
                    .into(),
            ));
        }
        self.tx
            .prepare_cached("UPDATE campaigns SET rng_state = ?2 WHERE id = ?1")?
            .execute(params![campaign.0, state])?;
        Ok(())
    }

    /// The state an event of `campaign` written now carries: the one waiting for it, if any.
    fn state_for_event(&mut self, campaign: CampaignId) -> Option<String> {
        match &self.pending_rng {
            Some((c, _)) if *c == campaign => self.pending_rng.take().map(|(_, s)| s),
            _ => None,
        }
    }

    /// Appends `e` to `campaign`'s log; its number.
    pub(super) fn append_event_row(
        &mut self,
        campaign: CampaignId,
        e: &EventDraft,
    ) -> Result<i64, StoreError> {
        self.insert_event(campaign, None, &e.tool, [&e.args, &e.rolls, &e.changes])
    }

    /// Appends an event from another store's log (an import), as it was.
    pub(super) fn import_event_row(
        &mut self,
        campaign: CampaignId,
        e: &Event,
    ) -> Result<(), StoreError> {
        self.insert_event(
            campaign,
            Some(&e.at),
            &e.tool,
            [&e.args, &e.rolls, &e.changes],
        )
        .map(drop)
    }

    /// Inserts an event of `campaign` written `at` (none: now) with its arguments, rolls and
    /// changes, carrying the dice stream's state (see the module's doc); its number.
    fn insert_event(
        &mut self,
        campaign: CampaignId,
        at: Option<&str>,
        tool: &str,
        [args, rolls, changes]: [&dyn erased::Json; 3],
    ) -> Result<i64, StoreError> {
        // The statement's text, made once (the statement cache is looked up by it on every call).
        static INSERT_EVENT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
        let enc = |v: &dyn erased::Json| v.to_json().map_err(|err| corrupt("event", err));
        let rng = self.state_for_event(campaign);
        self.tx
            .prepare_cached(INSERT_EVENT.get_or_init(|| {
                format!(
                    "INSERT INTO events (seq, campaign_id, at, tool, args, rolls, changes, rng)
                     VALUES ({NEXT_EVENT_SEQ}, ?1, COALESCE(?2, {NOW}), ?3, ?4, ?5, ?6,
                             COALESCE(?7, {NEWEST_EVENT_RNG}))"
                )
            }))?
            .execute(params![
                campaign.0,
                at,
                tool,
                enc(args)?,
                enc(rolls)?,
                enc(changes)?,
                rng
            ])?;
        Ok(self.tx.last_insert_rowid())
    }
}
