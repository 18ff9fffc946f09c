//! The engine: a campaign opened on a store, and the context each tool call runs in.

use serde::Serialize;
use serde_json::Value;
use tabletop_rules::dice::{DiceRng, RngState};
use tabletop_srd::Compendium;

use crate::compendium::CompendiumSource;

use crate::error::{EngineError, Result};
use crate::model::event::{Change, EventDraft};
use crate::store::{CampaignId, Store, StoreError, Transaction, Tx};

/// How many times [`Engine::write_retrying`] runs a use case that keeps meeting write conflicts.
pub const WRITE_ATTEMPTS: u32 = 5;

/// How to open a campaign.
#[derive(Debug, Clone, Default)]
pub struct EngineOptions {
    /// Reseed the campaign's dice stream at start so every roll from here on is reproducible.
    pub seed: Option<u64>,
    /// The SRD compendium: absent, ready or loading.
    pub compendium: CompendiumSource,
}

/// One campaign of a store, ready to run use cases.
pub struct Engine<S: Store> {
    store: S,
    campaign: CampaignId,
    campaign_name: String,
    compendium: CompendiumSource,
    /// Commits made through this engine (see [`Engine::revision`]).
    commits: u64,
    /// The dice stream as the last committed call that rolled left it, with the state text it
    /// stored: a call whose store hands back that same text rolls on with it instead of parsing
    /// the text and setting a stream up again (see [`Call::rng`]).
    kept_rng: Option<(String, DiceRng)>,
}

/// What a read's answer depends on besides its arguments: the commits seen, and whether the SRD
/// has finished loading. Two equal revisions of one engine mean every read answers the same.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Revision {
    commits: u64,
    data_version: u64,
    compendium_ready: bool,
}

impl<S: Store> Engine<S> {
    /// Opens (creating if needed) the campaign `name` in `store`.
    pub fn open(mut store: S, name: &str, options: EngineOptions) -> Result<Self> {
        let name = &crate::campaign::valid_name("campaign", name)?;
        let campaign = {
            let mut tx = store.begin(true)?;
            let id = tx.ensure_campaign(name)?;
            tx.lock_campaign(id)?;
            if let Some(seed) = options.seed {
                tx.set_rng_state(id, &encode_rng(&DiceRng::from_seed(seed))?)?;
                tx.append_event(
                    id,
                    &EventDraft {
                        tool: "server".into(),
                        args: serde_json::json!({ "seed": seed }),
                        rolls: vec![],
                        changes: vec![Change {
                            entity: "campaign".into(),
                            id: name.into(),
                            what: format!("dice stream reseeded with {seed}"),
                        }],
                    },
                )?;
            }
            tx.commit()?;
            id
        };
        Ok(Self {
            store,
            campaign,
            campaign_name: name.to_string(),
            compendium: options.compendium,
            commits: 0,
            kept_rng: None,
        })
    }

    /// The state a read sees now, when the store can tell cheaply whether anything changed
    /// (SQLite); `None` otherwise. Equal revisions mean no commit happened in between, through
    /// this engine or any other connection, and the SRD is in the same state: a read-only call
    /// with the same arguments answers the same.
    pub fn revision(&mut self) -> Option<Revision> {
        Some(Revision {
            commits: self.commits,
            data_version: self.store.data_version()?,
            compendium_ready: self.compendium.get().is_some(),
        })
    }

    /// The campaign's name.
    pub fn campaign_name(&self) -> &str {
        &self.campaign_name
    }

    /// Starts loading a deferred compendium in the background (see [`CompendiumSource::warm`]).
    pub fn warm_compendium(&self) {
        self.compendium.warm();
    }

    /// The compendium, when one is installed (waits for a background load).
    pub fn compendium(&self) -> Option<&Compendium> {
        self.compendium.get()
    }

    /// Runs a read-only use case in its own transaction. Nothing is written.
    pub fn read<R>(&mut self, f: impl FnOnce(&mut Call<'_>) -> Result<R>) -> Result<R> {
        let mut tx = self.store.begin(false)?;
        still_there(&tx, self.campaign, &self.campaign_name)?;
        let mut call = Call::new(&mut tx, self.campaign, &self.compendium, None);
        f(&mut call)
    }

    /// Runs a mutating use case in one transaction: its changes, the dice stream and an event
    /// recording `tool`, `args`, the rolls and the changes are committed together before it
    /// returns. On error nothing is written.
    ///
    /// The transaction first holds the campaign ([`Tx::lock_campaign`]), so concurrent writers
    /// of one campaign (other processes on a shared store) run one after the other. A write
    /// conflict the store still reports ([`StoreError::Conflict`]) is returned as is ("the campaign
    /// is busy … retry"); [`Engine::write_retrying`] runs the use case again instead.
    pub fn write<R>(
        &mut self,
        tool: &str,
        args: &Value,
        f: impl FnOnce(&mut Call<'_>) -> Result<R>,
    ) -> Result<R> {
        let mut f = Some(f);
        self.write_once(tool, args, &mut |call| match f.take() {
            Some(f) => f(call),
            None => Err(EngineError::Rule("internal: a use case ran twice".into())),
        })
    }

    /// Like [`Engine::write`], but a write conflict ([`StoreError::Conflict`]) runs the whole use
    /// case again on fresh state, up to [`WRITE_ATTEMPTS`] times, before it is reported.
    pub fn write_retrying<R>(
        &mut self,
        tool: &str,
        args: &Value,
        mut f: impl FnMut(&mut Call<'_>) -> Result<R>,
    ) -> Result<R> {
        let mut attempt = 1;
        loop {
            match self.write_once(tool, args, &mut f) {
                Err(EngineError::Store(e)) if e.is_conflict() && attempt < WRITE_ATTEMPTS => {
                    tracing::debug!(tool, attempt, "write conflict, running the call again: {e}");
                    std::thread::sleep(std::time::Duration::from_millis(2 * u64::from(attempt)));
                    attempt += 1;
                }
                other => return other,
            }
        }
    }

    fn write_once<R>(
        &mut self,
        tool: &str,
        args: &Value,
        f: &mut impl FnMut(&mut Call<'_>) -> Result<R>,
    ) -> Result<R> {
        let mut tx = self.store.begin(true)?;
        if !tx.lock_campaign(self.campaign)? {
            return Err(deleted(&self.campaign_name));
        }
        let draft = EventDraft {
            tool: tool.to_string(),
            args: args.clone(),
            ..Default::default()
        };
        let mut call = Call::new(&mut tx, self.campaign, &self.compendium, Some(draft));
        call.kept_rng = self.kept_rng.take();
        let out = f(&mut call)?;
        call.finish()?;
        let kept = call.into_kept_rng();
        tx.commit()?;
        self.kept_rng = kept;
        self.commits = self.commits.wrapping_add(1);
        Ok(out)
    }

    /// Runs `f` on a raw transaction of the store (campaign administration).
    pub fn admin<R>(&mut self, f: impl FnOnce(&mut dyn Tx) -> Result<R>) -> Result<R> {
        let mut tx = self.store.begin(true)?;
        let out = f(&mut tx)?;
        tx.commit()?;
        self.commits = self.commits.wrapping_add(1);
        Ok(out)
    }
}

/// Refuses to run when the campaign was deleted (by another process) since it was opened:
/// its id is never reused, so nothing of another campaign can be read or written instead.
fn still_there(tx: &dyn Tx, campaign: CampaignId, name: &str) -> Result<()> {
    if tx.campaign_exists(campaign)? {
        Ok(())
    } else {
        Err(deleted(name))
    }
}

fn deleted(name: &str) -> EngineError {
    EngineError::Rule(format!(
        "campaign {} was deleted (by another process) after this server opened it; \
             nothing was read or written. Restart the server to start it afresh, or open \
             another campaign",
        name
    ))
}

fn encode_rng(rng: &DiceRng) -> Result<String> {
    serde_json::to_string(&rng.state()).map_err(|e| {
        StoreError::Corrupt {
            what: "dice stream".into(),
            detail: e.to_string(),
        }
        .into()
    })
}

/// The context of one tool call: its transaction, the campaign's dice stream, the compendium,
/// and the event being recorded.
pub struct Call<'a> {
    tx: &'a mut dyn Tx,
    campaign: CampaignId,
    compendium: &'a CompendiumSource,
    rng: Option<DiceRng>,
    rng_used: bool,
    event: Option<EventDraft>,
    /// The engine's kept stream, offered to this call (see [`Engine`]'s `kept_rng`).
    kept_rng: Option<(String, DiceRng)>,
    /// The state text this call stored for its stream.
    stored_rng: Option<String>,
}

impl<'a> Call<'a> {
    fn new(
        tx: &'a mut dyn Tx,
        campaign: CampaignId,
        compendium: &'a CompendiumSource,
        event: Option<EventDraft>,
    ) -> Self {
        Self {
            tx,
            campaign,
            compendium,
            rng: None,
            rng_used: false,
            event,
            kept_rng: None,
            stored_rng: None,
        }
    }

    /// The stream to keep once this call commits: the one it stored, else the one it was
    /// offered and did not use.
    fn into_kept_rng(self) -> Option<(String, DiceRng)> {
        match (self.stored_rng, self.rng) {
            (Some(text), Some(rng)) => Some((text, rng)),
            _ => self.kept_rng,
        }
    }

    /// The transaction, for store access.
    pub fn tx(&mut self) -> &mut dyn Tx {
        self.tx
    }

    /// The transaction, read-only.
    pub fn tx_ref(&self) -> &dyn Tx {
        self.tx
    }

    /// The campaign this call runs in.
    pub fn campaign(&self) -> CampaignId {
        self.campaign
    }

    /// The SRD compendium, if installed (the first use waits for a background load).
    pub fn compendium(&self) -> Option<&'a Compendium> {
        self.compendium.get()
    }

    /// Where the compendium comes from (and its derivation cache).
    pub fn compendium_source(&self) -> &'a CompendiumSource {
        self.compendium
    }

    /// The compendium, or an error explaining how to install it and what to do instead.
    pub fn require_compendium(&self, what: &str, alternative: &str) -> Result<&'a Compendium> {
        self.compendium
            .get()
            .ok_or_else(|| EngineError::NoCompendium {
                what: what.to_string(),
                alternative: alternative.to_string(),
            })
    }

    /// Whether this call may write (it runs inside [`Engine::write`]).
    pub fn is_writable(&self) -> bool {
        self.event.is_some()
    }

    /// The campaign's dice stream, resumed from the store on first use. Rolling is a change of
    /// state: only mutating calls may roll.
    pub fn rng(&mut self) -> Result<&mut DiceRng> {
        if self.event.is_none() {
            return Err(EngineError::Rule(
                "internal: a read-only call tried to roll dice; rolls must be recorded".into(),
            ));
        }
        if self.rng.is_none() {
            let kept = self.kept_rng.take();
            let rng = match (self.tx.rng_state(self.campaign)?, kept) {
                // The stream stored is the one kept: the same key at the same position, so the
                // same faces follow.
                (Some(s), Some((text, rng))) if text == s => rng,
                (Some(s), _) => {
                    let state: RngState =
                        serde_json::from_str(&s).map_err(|e| StoreError::Corrupt {
                            what: "dice stream".into(),
                            detail: e.to_string(),
                        })?;
                    DiceRng::restore(&state)?
                }
                (None, _) => DiceRng::from_entropy(),
            };
            self.rng = Some(rng);
        }
        self.rng_used = true;
        self.rng
            .as_mut()
            .ok_or_else(|| EngineError::Rule("internal: dice stream unavailable".into()))
    }

    /// Records a roll in the event log.
    pub fn record_roll(&mut self, roll: &impl Serialize) {
        self.push_roll(roll);
    }

    /// Records a roll in the event log and returns the JSON text it was recorded as (none when
    /// this call keeps no event), for an answer to show as it is.
    pub fn record_roll_text(&mut self, roll: &impl Serialize) -> Option<String> {
        self.push_roll(roll).map(|v| v.get().to_owned())
    }

    /// Records a roll in the event log; the recorded JSON.
    fn push_roll(&mut self, roll: &impl Serialize) -> Option<&serde_json::value::RawValue> {
        let ev = self.event.as_mut()?;
        ev.rolls.push(serde_json::value::to_raw_value(roll).ok()?);
        ev.rolls.last().map(|v| &**v)
    }

    /// Records a change in the event log.
    pub fn record_change(&mut self, entity: &str, id: &str, what: impl Into<String>) {
        if let Some(ev) = self.event.as_mut() {
            ev.changes.push(Change {
                entity: entity.into(),
                id: id.into(),
                what: what.into(),
            });
        }
    }

    /// A fresh id such as "ch3" from the campaign's counter for `prefix`.
    pub fn new_id(&mut self, prefix: &str) -> Result<String> {
        let n = self.tx.next_id(self.campaign, prefix)?;
        Ok(format!("{prefix}{n}"))
    }

    fn finish(&mut self) -> Result<()> {
        if self.rng_used
            && let Some(rng) = &self.rng
        {
            let s = encode_rng(rng)?;
            self.tx.set_rng_state(self.campaign, &s)?;
            self.stored_rng = Some(s);
        }
        if let Some(ev) = self.event.take() {
            self.tx.log_event(self.campaign, &ev)?;
        }
        Ok(())
    }
}
