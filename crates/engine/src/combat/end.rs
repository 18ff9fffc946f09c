//! `end_encounter`: closes a fight and says what it changed.
//!
//! Combatants are characters, so every hit, condition and spent slot is already on the sheets;
//! ending makes that explicit with a diff per linked character (its snapshot at the start against
//! its sheet now), clears what only existed because of the fight (conditions imposed by creatures
//! the encounter created or that left it), deletes the creatures the encounter created (unless
//! kept), and stores the outcome. A dry run reports all of it and changes nothing.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};
use tabletop_rules::Condition;

use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::character::CharacterRef;
use crate::model::encounter::*;
use crate::model::names::name_key;

/// How a fight ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// The party won.
    Victory,
    /// The party lost.
    Defeat,
    /// One side ran.
    Fled,
    /// They stopped fighting.
    Truce,
    /// Something else (say what in the note).
    Other,
}

impl Outcome {
    /// "victory", "defeat", …
    pub fn key(self) -> &'static str {
        match self {
            Outcome::Victory => "victory",
            Outcome::Defeat => "defeat",
            Outcome::Fled => "fled",
            Outcome::Truce => "truce",
            Outcome::Other => "other",
        }
    }
}

/// An `end_encounter` request.
#[derive(Debug, Clone, Default)]
pub struct EndRequest {
    /// Encounter (default: the active one).
    pub encounter_id: Option<String>,
    /// How it ended (default other).
    pub outcome: Option<Outcome>,
    /// Free text about the outcome.
    pub note: Option<String>,
    /// Report without ending.
    pub dry_run: bool,
    /// Keep the creatures the encounter created instead of deleting them.
    pub keep_spawned: bool,
}

/// A value before and after the fight.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Change {
    /// At the start.
    pub before: u32,
    /// Now.
    pub after: u32,
}

/// What the fight changed on one linked character.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CharacterDiff {
    /// Character id.
    pub id: String,
    /// Name.
    pub name: String,
    /// "ok", "dying", "stable", "dead", "unconscious", or "deleted".
    pub status: String,
    /// Hit points.
    pub hp: Change,
    /// Temporary hit points.
    pub temp_hp: Change,
    /// Conditions gained.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub conditions_gained: Vec<Condition>,
    /// Conditions lost.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub conditions_lost: Vec<Condition>,
    /// Spell slots left that changed, by level ("1", "pact").
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub slots: BTreeMap<String, Change>,
    /// Resources left that changed, by name.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub resources: BTreeMap<String, Change>,
}

impl CharacterDiff {
    /// "Aria: HP 24 → 9 (−15); gained poisoned; slots 1st 3 → 1; dying".
    pub fn summary(&self) -> String {
        let mut bits = Vec::new();
        if self.hp.before != self.hp.after {
            let d = i64::from(self.hp.after) - i64::from(self.hp.before);
            bits.push(format!("HP {} → {} ({d:+})", self.hp.before, self.hp.after));
        }
        if self.temp_hp.before != self.temp_hp.after {
            bits.push(format!(
                "temp HP {} → {}",
                self.temp_hp.before, self.temp_hp.after
            ));
        }
        if !self.conditions_gained.is_empty() {
            bits.push(format!("gained {}", join(&self.conditions_gained)));
        }
        if !self.conditions_lost.is_empty() {
            bits.push(format!("lost {}", join(&self.conditions_lost)));
        }
        for (k, c) in &self.slots {
            let level = if k == "pact" {
                "pact".to_string()
            } else {
                format!("level {k}")
            };
            bits.push(format!("{level} slots {} → {}", c.before, c.after));
        }
        for (k, c) in &self.resources {
            bits.push(format!("{k} {} → {}", c.before, c.after));
        }
        if self.status != "ok" {
            bits.push(self.status.clone());
        }
        if bits.is_empty() {
            bits.push("unchanged".into());
        }
        format!("{}: {}", self.name, bits.join("; "))
    }
}

fn join(c: &[Condition]) -> String {
    c.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// XP earned on a victory.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct XpAward {
    /// XP the opponents were worth.
    pub total: u32,
    /// Each party member's share.
    pub per_member: u32,
    /// The party members present.
    pub members: Vec<String>,
}

/// What `end_encounter` (or a dry run, or `manage_encounter commit`) reports.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EndSummary {
    /// Encounter id.
    pub encounter_id: String,
    /// Name.
    pub name: String,
    /// The outcome stored ("victory", "other: the bridge collapsed").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outcome: Option<String>,
    /// Nothing was changed.
    pub dry_run: bool,
    /// Rounds fought.
    pub rounds: u32,
    /// Who fell (dead, dying, stable or unconscious), with how.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub fallen: Vec<String>,
    /// Damage the created creatures took (their max HP less what is left), by name.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub damage_to_created: BTreeMap<String, u32>,
    /// XP earned (victory only, when the difficulty is known).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub xp: Option<XpAward>,
    /// What the fight changed on each linked character.
    pub diffs: Vec<CharacterDiff>,
    /// Combat-only state cleared (or that would be).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cleared: Vec<String>,
    /// Created creatures deleted (or that would be).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub removed_created: Vec<String>,
    /// Created creatures kept as characters.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub kept_created: Vec<String>,
    /// Ammunition and thrown weapons given back (half the ammunition fired, rounded down;
    /// every thrown weapon).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub recovered: Vec<String>,
}

/// The diff of every linked character: its snapshot at the start against its sheet now.
pub fn diff(call: &Call<'_>, enc: &Encounter) -> Result<Vec<CharacterDiff>> {
    let mut out = Vec::new();
    for (id, snap) in &enc.snapshots {
        let name = enc
            .combatant(id)
            .map(|c| c.name.clone())
            .unwrap_or_else(|| id.clone());
        let Some(c) = call.tx_ref().character(call.campaign(), id)? else {
            out.push(CharacterDiff {
                id: id.clone(),
                name,
                status: "deleted".into(),
                hp: Change {
                    before: snap.hp,
                    after: 0,
                },
                temp_hp: Change {
                    before: snap.temp_hp,
                    after: 0,
                },
                conditions_gained: Vec::new(),
                conditions_lost: Vec::new(),
                slots: BTreeMap::new(),
                resources: BTreeMap::new(),
            });
            continue;
        };
        let now = Snapshot::of(&c);
        let changed = |before: &BTreeMap<String, u32>, after: &BTreeMap<String, u32>| {
            let keys: BTreeSet<&String> = before.keys().chain(after.keys()).collect();
            keys.into_iter()
                .filter_map(|k| {
                    let (b, a) = (
                        before.get(k).copied().unwrap_or(0),
                        after.get(k).copied().unwrap_or(0),
                    );
                    (b != a).then(|| {
                        (
                            k.clone(),
                            Change {
                                before: b,
                                after: a,
                            },
                        )
                    })
                })
                .collect::<BTreeMap<_, _>>()
        };
        out.push(CharacterDiff {
            id: id.clone(),
            name: c.name.clone(),
            status: c.status().to_string(),
            hp: Change {
                before: snap.hp,
                after: now.hp,
            },
            temp_hp: Change {
                before: snap.temp_hp,
                after: now.temp_hp,
            },
            conditions_gained: now
                .conditions
                .iter()
                .filter(|x| !snap.conditions.contains(x))
                .copied()
                .collect(),
            conditions_lost: snap
                .conditions
                .iter()
                .filter(|x| !now.conditions.contains(x))
                .copied()
                .collect(),
            slots: changed(&snap.slots, &now.slots),
            resources: changed(&snap.resources, &now.resources),
        });
    }
    Ok(out)
}

/// Ends an encounter (or reports what ending it would do, with `dry_run`).
pub fn end_encounter(call: &mut Call<'_>, req: &EndRequest) -> Result<EndSummary> {
    let enc = super::load_active(call, req.encounter_id.as_deref())?;
    let note = req
        .note
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string);
    if note.as_ref().is_some_and(|n| n.chars().count() > 200) {
        return Err(EngineError::invalid("note", "at most 200 characters"));
    }
    let outcome = req.outcome.unwrap_or(Outcome::Other);
    if req.dry_run {
        return summarize(
            call,
            &enc,
            Some(outcome),
            note.as_deref(),
            true,
            req.keep_spawned,
        );
    }
    finish(call, enc, outcome, note, req.keep_spawned)
}

/// Builds the summary of `enc` without changing anything.
pub(crate) fn summarize(
    call: &mut Call<'_>,
    enc: &Encounter,
    outcome: Option<Outcome>,
    note: Option<&str>,
    dry_run: bool,
    keep_spawned: bool,
) -> Result<EndSummary> {
    let mut fallen = Vec::new();
    let mut damage_to_created = BTreeMap::new();
    let mut created = Vec::new();
    for cb in &enc.order {
        let Some(c) = call.tx_ref().character(call.campaign(), &cb.character_id)? else {
            continue;
        };
        let status = c.status();
        if status != "ok" {
            fallen.push(format!("{} ({status})", c.name));
        }
        if cb.spawned {
            let max = c.effective().max_hp.value.max(1) as u32;
            damage_to_created.insert(c.name.clone(), max.saturating_sub(c.hp));
            created.push(c.label());
        }
    }
    let xp = match (outcome, &enc.difficulty) {
        (Some(Outcome::Victory), Some(d)) => Some(XpAward {
            total: d.total_xp,
            per_member: d.xp_per_member,
            members: enc
                .order
                .iter()
                .filter(|c| c.side == Side::Party)
                .map(|c| c.name.clone())
                .collect(),
        }),
        _ => None,
    };
    let cleared = clear_combat_state(call, enc, false)?;
    let (removed_created, kept_created) = if keep_spawned {
        (Vec::new(), created)
    } else {
        (created, Vec::new())
    };
    Ok(EndSummary {
        encounter_id: enc.id.clone(),
        name: enc.name.clone(),
        outcome: outcome.map(|o| match note {
            Some(n) => format!("{}: {n}", o.key()),
            None => o.key().to_string(),
        }),
        dry_run,
        rounds: enc.round,
        fallen,
        damage_to_created,
        xp,
        diffs: diff(call, enc)?,
        cleared,
        removed_created,
        kept_created,
        recovered: super::actions::ammo::recover(call, &mut enc.clone(), false)?,
    })
}

/// Ends `enc` for real: summary, combat-only state cleared, created creatures deleted (unless
/// kept), status ended with the outcome. The path `advance_turn` takes with autoEnd too.
pub(crate) fn finish(
    call: &mut Call<'_>,
    mut enc: Encounter,
    outcome: Outcome,
    note: Option<String>,
    keep_spawned: bool,
) -> Result<EndSummary> {
    let mut summary = summarize(
        call,
        &enc,
        Some(outcome),
        note.as_deref(),
        false,
        keep_spawned,
    )?;
    summary.cleared = clear_combat_state(call, &enc, true)?;
    summary.recovered = super::actions::ammo::recover(call, &mut enc, true)?;
    enc.status = EncounterStatus::Ended;
    enc.outcome = summary.outcome.clone();
    enc.log(format!(
        "Encounter ends after {} round(s): {}",
        enc.round,
        summary.outcome.as_deref().unwrap_or("other")
    ));
    super::martial::sync_auras(call, &enc)?;
    super::save(call, &enc)?;
    if !keep_spawned {
        for cb in enc.order.iter().filter(|c| c.spawned) {
            if call
                .tx_ref()
                .character(call.campaign(), &cb.character_id)?
                .is_some()
            {
                crate::characters::delete_character(
                    call,
                    CharacterRef::new(Some(&cb.character_id), None),
                )?;
            }
        }
    }
    call.record_change(
        "encounter",
        &enc.id,
        format!("ended: {}", summary.outcome.as_deref().unwrap_or("other")),
    );
    Ok(summary)
}

/// Conditions on the encounter's surviving characters that a created creature or one that left
/// the fight imposed (grappled by a goblin that is gone). With `apply` they are removed and the
/// sheets stored; without, only listed.
fn clear_combat_state(call: &mut Call<'_>, enc: &Encounter, apply: bool) -> Result<Vec<String>> {
    let mut foreign: BTreeSet<String> = BTreeSet::new();
    for cb in enc.order.iter().filter(|c| c.spawned || c.removed) {
        foreign.insert(name_key(&cb.name));
        foreign.insert(name_key(&cb.character_id));
    }
    let mut lines = Vec::new();
    if foreign.is_empty() {
        return Ok(lines);
    }
    for cb in enc.order.iter().filter(|c| !c.spawned) {
        let Some(mut c) = call.tx_ref().character(call.campaign(), &cb.character_id)? else {
            continue;
        };
        let before = c.conditions.len();
        c.conditions.retain(|e| {
            let gone = foreign.contains(&name_key(&e.source));
            if gone {
                lines.push(format!(
                    "{} is no longer {} ({} is out of the fight)",
                    c.name, e.condition, e.source
                ));
            }
            !gone
        });
        if apply && c.conditions.len() != before {
            super::put_sheet(call, &c)?;
            call.record_change("character", &c.id, "combat-only conditions cleared");
        }
    }
    Ok(lines)
}
