//! The event log and the dice stream on SQLite.
//!
//! The dice stream's state after a call is stored in the row of the event that records the call
//! (`events.rng`, migration 010), so a call that rolls writes the event's page, and not the
//! campaign's row as well; the campaign index takes one event in 16 of a campaign played alone
//! (`events.mark`, migration 011), not every one.
//!
//! The rule that keeps one state per campaign:
//! - the state is the newest event's `rng` when it has one, else `campaigns.rng_state`;
//! - a state set in a transaction waits in the transaction ([`SqliteTx::set_rng_state`]) and is
//!   written with the next event of its campaign; an event of a call that rolled nothing copies
//!   the state of the event before it (none stays none, and the campaign's row still holds it);
//! - a state set with no event after it in the transaction (importing a campaign, with no
//!   stated event yet) goes to the campaign's row at commit. That is refused once an event
//!   carries a state, as the event's would hide it: every call that rolls also records an event.

use rusqlite::{OptionalExtension, params};

use super::SqliteTx;
use super::rows::{corrupt, erased};
use super::rows::{decode_event, row_event};
use crate::model::event::{Event, EventDraft};
use crate::store::{CampaignId, StoreError};

/// The newest marked event of campaign `?1` (`migrations/011_event_marks.sql`).
macro_rules! last_mark {
    () => {
        "(SELECT max(seq) FROM events WHERE campaign_id = ?1 AND mark = 1)"
    };
}

/// The events of campaign `?1` that may be its newest: its newest marked one and the 15 numbers
/// after it, as an event of the campaign past them would be marked
/// (`migrations/011_event_marks.sql`).
macro_rules! newest_events {
    () => {
        concat!(
            "campaign_id = ?1 AND seq BETWEEN ",
            last_mark!(),
            " AND ",
            last_mark!(),
            " + 15"
        )
    };
}

/// The runs of campaign `?1`'s events, its newest `?2` runs (all of them when `?2` is negative):
/// from each marked event `s` (included) to the next one or `s + 16`, whichever comes first (`e`,
/// excluded). Every event of the campaign is in exactly one run, and its newest `?2` runs hold
/// its `?2` newest events at least (a run holds one event at least, its mark).
macro_rules! event_runs {
    () => {
        "WITH marks AS (SELECT seq AS s FROM events WHERE campaign_id = ?1 AND mark = 1
                        ORDER BY seq DESC LIMIT ?2),
              runs AS (SELECT s, min(s + 16, LEAD(s, 1, s + 16) OVER (ORDER BY s)) AS e
                       FROM marks) "
    };
}

/// A campaign's events are marked at least once in this many numbers (the 16 of the SQL).
const EVENT_RUN: i64 = 16;

/// The newest event as the table has it: its campaign and number, and the floor of numbers a
/// deleted campaign took with it (`migrations/008_event_seq.sql`). Searches only.
const NEWEST_IN_TABLE: &str = "SELECT (SELECT campaign_id FROM events WHERE seq = m.s), m.s, \
     (SELECT last FROM event_seq_floor) FROM (SELECT max(seq) AS s FROM events) AS m";

/// The newest state carried by an event of campaign `?1` (none: the campaign's row holds it).
const NEWEST_EVENT_RNG: &str = concat!(
    "(SELECT rng FROM events WHERE ",
    newest_events!(),
    " ORDER BY seq DESC LIMIT 1)"
);

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

/// The newest event of the log as this connection's last commit left it, and the data version
/// then: still the newest while a write transaction sees that version. Its number is past the
/// floor of `event_seq_floor` (every insert takes one past it), so the next event takes the next
/// number, and its mark follows from its campaign, without reading the table
/// ([`SqliteTx::newest_in_table`]).
pub(in crate::store) struct KnownNewest {
    data_version: i64,
    campaign: CampaignId,
    seq: i64,
}

/// What a transaction knows of the newest event.
pub(in crate::store) enum Newest {
    /// What the connection remembers, if it is still the newest.
    Remembered,
    /// The newest event is this campaign's, with this number (this transaction wrote it).
    Known(CampaignId, i64),
    /// Nothing (a campaign was deleted): the insert asks the table.
    Unknown,
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
            .prepare_cached(concat!(
                "SELECT rng IS NOT NULL FROM events WHERE ",
                newest_events!(),
                " ORDER BY seq DESC LIMIT 1"
            ))?
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

    /// The number the next event takes, and whether it is marked, when it is of `campaign`
    /// (`migrations/011_event_marks.sql`): one past the newest number, where the newest number
    /// is the newest event's or a deleted campaign's (the floor); marked unless it follows an
    /// event of `campaign` and is not a multiple of 16.
    fn next_event(&self, campaign: CampaignId) -> Result<(i64, Option<i64>), StoreError> {
        let (newest, n) = match self.newest_event()? {
            Some((c, n)) => (Some(c), n),
            None => self.newest_in_table()?,
        };
        let seq = n
            .checked_add(1)
            .ok_or_else(|| StoreError::Database("the event log's numbers are used up".into()))?;
        let mark = (newest != Some(campaign) || seq % EVENT_RUN == 0).then_some(1);
        Ok((seq, mark))
    }

    /// The newest number and the campaign of its event (none: the floor is past every event's
    /// number, or there is no event), read from the table.
    fn newest_in_table(&self) -> Result<(Option<CampaignId>, i64), StoreError> {
        let (campaign, newest, floor): (Option<i64>, Option<i64>, i64) = self
            .tx
            .prepare_cached(NEWEST_IN_TABLE)?
            .query_row([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
        Ok(match (campaign, newest) {
            (Some(c), Some(n)) if n >= floor => (Some(CampaignId(c)), n),
            _ => (None, newest.unwrap_or(0).max(floor)),
        })
    }

    /// The newest event's campaign and number, when this transaction knows them without asking
    /// the table (see [`KnownNewest`]).
    fn newest_event(&self) -> Result<Option<(CampaignId, i64)>, StoreError> {
        let known = match self.newest {
            Newest::Known(c, seq) => Some((c, seq)),
            Newest::Unknown => None,
            Newest::Remembered => match self.known_newest.as_ref() {
                Some(k) if self.data_version()? == Some(k.data_version) => {
                    Some((k.campaign, k.seq))
                }
                _ => None,
            },
        };
        // A debug build checks what it knows against the table on every use.
        #[cfg(debug_assertions)]
        if let Some((campaign, seq)) = known {
            assert_eq!(
                self.newest_in_table()?,
                (Some(campaign), seq),
                "the newest event known is not the table's (or the floor is past it)"
            );
        }
        Ok(known)
    }

    /// Before a commit: what the store should remember of the newest event once it has
    /// committed; none: keep what it remembers.
    pub(super) fn newest_to_remember(&self) -> Result<Option<Option<KnownNewest>>, StoreError> {
        Ok(match self.newest {
            Newest::Remembered => None,
            Newest::Unknown => Some(None),
            Newest::Known(campaign, seq) => {
                Some(self.data_version()?.map(|data_version| KnownNewest {
                    data_version,
                    campaign,
                    seq,
                }))
            }
        })
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

    /// The events of `campaign` in order, or its `newest` ones, newest first.
    pub(super) fn event_rows(
        &self,
        campaign: CampaignId,
        newest: Option<usize>,
    ) -> Result<Vec<Event>, StoreError> {
        let mut stmt = self.tx.prepare_cached(concat!(
            event_runs!(),
            "SELECT ev.seq, ev.at, ev.tool, ev.args, ev.rolls, ev.changes FROM runs, events ev
             WHERE ev.seq >= runs.s AND ev.seq < runs.e AND ev.campaign_id = ?1
             ORDER BY ev.seq DESC LIMIT ?2"
        ))?;
        // SQLite reads a negative limit as none.
        let limit = newest.map_or(-1, |n| i64::try_from(n).unwrap_or(i64::MAX));
        let mut rows = stmt
            .query_map(params![campaign.0, limit], row_event)?
            .collect::<Result<Vec<_>, _>>()?;
        if newest.is_none() {
            rows.reverse();
        }
        rows.into_iter().map(decode_event).collect()
    }

    /// How many events `campaign` has. A run's events are its mark and the numbers right after
    /// it, so each run counts up to its newest event: one search per run, not a read of every
    /// event.
    pub(super) fn event_count(&self, campaign: CampaignId) -> Result<u64, StoreError> {
        let n: i64 = self
            .tx
            .prepare_cached(concat!(
                event_runs!(),
                "SELECT COALESCE(sum((SELECT max(ev.seq) FROM events ev
                                      WHERE ev.seq >= runs.s AND ev.seq < runs.e
                                        AND ev.campaign_id = ?1) - runs.s + 1), 0)
                 FROM runs"
            ))?
            .query_row(params![campaign.0, -1], |r| r.get(0))?;
        Ok(n.max(0) as u64)
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
        let (seq, mark) = self.next_event(campaign)?;
        self.tx
            .prepare_cached(INSERT_EVENT.get_or_init(|| {
                format!(
                    "INSERT INTO events (seq, campaign_id, at, tool, args, rolls, changes, rng, mark)
                     VALUES (?8, ?1, ?2, ?3, ?4, ?5, ?6, COALESCE(?7, {NEWEST_EVENT_RNG}), ?9)"
                )
            }))?
            .execute(params![
                campaign.0,
                at,
                tool,
                enc(args)?,
                enc(rolls)?,
                enc(changes)?,
                rng.as_deref().or(copied),
                seq,
                mark
            ])?;
        self.newest = Newest::Known(campaign, seq);
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
        Ok(seq)
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
#[path = "event_tests.rs"]
mod sparse_index_tests;

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
