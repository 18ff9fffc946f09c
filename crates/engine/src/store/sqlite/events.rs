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
use super::{NEXT_EVENT_SEQ, SqliteTx};
use crate::model::event::{Event, EventDraft};
use crate::store::{CampaignId, StoreError};

/// The newest state carried by an event of campaign `?1` (none: the campaign's row holds it).
const NEWEST_EVENT_RNG: &str =
    "(SELECT rng FROM events WHERE campaign_id = ?1 ORDER BY seq DESC LIMIT 1)";

/// The dice stream's state of a campaign as this connection's last commit wrote it, and the
/// data version then: still the newest while a write transaction sees that version (no other
/// connection committed since; a connection's own commits leave its version as it is). It saves
/// reading the state back on every roll, and the subquery by which an event of a call that
/// rolled nothing copies the state on. The version is read once per write transaction that
/// needs it (the remembered character rows of `known_rows.rs` need it too).
pub(in crate::store) struct KnownStream {
    data_version: i64,
    campaign: CampaignId,
    state: String,
}

/// What a transaction did to a dice stream, for [`KnownStream`] at its commit.
pub(in crate::store) enum StreamWrite {
    /// Nothing: an event it wrote copied the state before it.
    None,
    /// Its newest event of `campaign` carries this state.
    Event(CampaignId, String),
    /// Something else (a campaign's row): read the state back next time.
    Other,
}

impl SqliteTx<'_> {
    /// The dice stream's state of `campaign`, as the last committed call (or this transaction)
    /// left it.
    pub(super) fn stream_state(&self, campaign: CampaignId) -> Result<Option<String>, StoreError> {
        if let Some((c, s)) = &self.pending_rng
            && *c == campaign
        {
            return Ok(Some(s.clone()));
        }
        if let Some(state) = self.remembered_state(campaign)? {
            return Ok(Some(state.to_owned()));
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

    /// The state this connection remembers for `campaign` (see [`KnownStream`]), when it is
    /// still the newest: no other connection committed since, and this transaction wrote no
    /// state.
    fn remembered_state(&self, campaign: CampaignId) -> Result<Option<&str>, StoreError> {
        Ok(match (self.known_stream.as_ref(), &self.stream_written) {
            (Some(known), StreamWrite::None)
                if known.campaign == campaign
                    && self.data_version()? == Some(known.data_version) =>
            {
                Some(&known.state)
            }
            _ => None,
        })
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
        self.stream_written = StreamWrite::Other;
        self.tx
            .prepare_cached("UPDATE campaigns SET rng_state = ?2 WHERE id = ?1")?
            .execute(params![campaign.0, state])?;
        Ok(())
    }

    /// The data version a write transaction sees (read once, when first needed); none in a
    /// read transaction, where another connection may commit meanwhile.
    pub(super) fn data_version(&self) -> Result<Option<i64>, StoreError> {
        if !self.write {
            return Ok(None);
        }
        if self.data_version.get().is_none() {
            let v = self
                .tx
                .prepare_cached("PRAGMA data_version")?
                .query_row([], |r| r.get::<_, i64>(0))?;
            self.data_version.set(Some(v));
        }
        Ok(self.data_version.get())
    }

    /// Before a commit: what the store should remember of the dice stream once it has
    /// committed (see [`KnownStream`]); none: keep what it remembers.
    pub(super) fn stream_to_remember(&mut self) -> Result<Option<Option<KnownStream>>, StoreError> {
        Ok(
            match std::mem::replace(&mut self.stream_written, StreamWrite::None) {
                StreamWrite::None => None,
                StreamWrite::Event(campaign, state) => {
                    Some(self.data_version()?.map(|data_version| KnownStream {
                        data_version,
                        campaign,
                        state,
                    }))
                }
                StreamWrite::Other => Some(None),
            },
        )
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
        // A call that rolled nothing copies the newest state on: the one this connection
        // remembers when it is still the newest, else the newest event's (a subquery).
        let copied = match rng {
            None => self.remembered_state(campaign)?,
            Some(_) => None,
        };
        // The time is formatted here, as `NOW` would: SQLite's `strftime` costs more per call.
        let now;
        let at = match at {
            Some(at) => at,
            None => {
                now = utc_text(now_millis());
                &now
            }
        };
        self.tx
            .prepare_cached(INSERT_EVENT.get_or_init(|| {
                format!(
                    "INSERT INTO events (seq, campaign_id, at, tool, args, rolls, changes, rng)
                     VALUES ({NEXT_EVENT_SEQ}, ?1, ?2, ?3, ?4, ?5, ?6,
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
                rng.as_deref().or(copied)
            ])?;
        self.stream_written = match (
            rng,
            std::mem::replace(&mut self.stream_written, StreamWrite::None),
        ) {
            (None, before) => before,
            (Some(state), StreamWrite::None | StreamWrite::Event(..)) => {
                StreamWrite::Event(campaign, state)
            }
            (Some(_), StreamWrite::Other) => StreamWrite::Other,
        };
        Ok(self.tx.last_insert_rowid())
    }
}

/// Milliseconds since the Unix epoch, now (0 on a clock set before it).
pub(super) fn now_millis() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// `ms` (since the Unix epoch) as `NOW` writes a time: `2026-11-26T15:04:05.123Z` (UTC).
pub(super) fn utc_text(ms: i64) -> String {
    let (days, ms) = (ms.div_euclid(86_400_000), ms.rem_euclid(86_400_000));
    // The civil date of a day number (days since 1970-01-01), proleptic Gregorian.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    let (s, milli) = (ms / 1000, ms % 1000);
    if !(0..=9999).contains(&year) {
        return format!(
            "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{milli:03}Z",
            s / 3600,
            s / 60 % 60,
            s % 60
        );
    }
    // Digit by digit: `format!` costs several times more, on every write.
    let mut out = [0u8; 24];
    let mut put = |at: usize, width: u32, v: i64| {
        for k in 0..width as usize {
            let digit = (v / 10_i64.pow(width - 1 - k as u32)) % 10;
            out[at + k] = b'0' + digit as u8;
        }
    };
    put(0, 4, year);
    put(5, 2, month);
    put(8, 2, day);
    put(11, 2, s / 3600);
    put(14, 2, s / 60 % 60);
    put(17, 2, s % 60);
    put(20, 3, milli);
    for (at, sep) in [
        (4, b'-'),
        (7, b'-'),
        (10, b'T'),
        (13, b':'),
        (16, b':'),
        (19, b'.'),
        (23, b'Z'),
    ] {
        out[at] = sep;
    }
    out.iter().map(|b| char::from(*b)).collect()
}

#[cfg(test)]
mod tests {
    use super::utc_text;

    /// The time an event is written at reads as SQLite's own `strftime` would write it.
    #[test]
    fn an_events_time_is_written_as_sqlite_writes_it() {
        let db = rusqlite::Connection::open_in_memory().unwrap();
        for ms in [
            0_i64,
            1,
            999,
            86_399_999,
            951_782_400_000,   // 2000-02-29
            4_107_542_400_000, // 2100-03-01
            1_795_000_000_123,
            1_764_171_845_007,
            253_402_300_799_999, // 9999-12-31T23:59:59.999
        ] {
            let sqlite: String = db
                .query_row(
                    "SELECT strftime('%Y-%m-%dT%H:%M:%fZ', ?1 / 1000.0, 'unixepoch')",
                    [ms],
                    |r| r.get(0),
                )
                .unwrap();
            assert_eq!(utc_text(ms), sqlite, "{ms}");
        }
    }
}
