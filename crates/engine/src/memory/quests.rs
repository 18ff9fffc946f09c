//! `manage_quest`: quests with objectives and rewards. Completing the last objective completes
//! the quest and hands its rewards to the active party.

use serde::Serialize;

use super::{clean, load, save};
use crate::characters::resolve;
use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::inventory::catalog;
use crate::model::character::CharacterRef;
use crate::model::inventory::Currency;
use crate::model::memory::{MemoryKind, MemoryRecord, Objective, Quest, QuestStatus, Rewards};
use crate::model::names::name_key;
use crate::party::{PartyRef, resolve_party};

/// A new quest, or changes to one (absent: unchanged).
#[derive(Debug, Clone, Default)]
pub struct QuestDraft {
    /// Title.
    pub title: Option<String>,
    /// Description.
    pub description: Option<String>,
    /// Giver.
    pub giver: Option<String>,
    /// Places (replace).
    pub places: Option<Vec<String>>,
    /// Objectives (create only; later ones with add_objective).
    pub objectives: Option<Vec<String>>,
    /// Rewards (replace).
    pub rewards: Option<Rewards>,
}

/// What a quest operation did.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct QuestOutcome {
    /// The quest as it now stands.
    pub quest: Quest,
    /// What changed, in order.
    pub changes: Vec<String>,
    /// Rewards handed out (when this call completed it).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rewarded: Vec<String>,
}

const MAX_OBJECTIVES: usize = 50;

fn find(call: &Call<'_>, id: &str) -> Result<Quest> {
    let id = id.trim();
    if id.is_empty() {
        return Err(EngineError::invalid(
            "questId",
            "name the quest: questId (or its title)",
        ));
    }
    if let Some(MemoryRecord::Quest(q)) = load(call, MemoryKind::Quest, id)? {
        return Ok(q);
    }
    let key = name_key(id);
    let all = list(call, None)?;
    let names: Vec<(String, String)> = all
        .iter()
        .map(|q| (q.id.clone(), q.title.clone()))
        .collect();
    all.into_iter()
        .find(|q| name_key(&q.title) == key)
        .ok_or_else(|| EngineError::NotFound {
            kind: "quest",
            given: id.into(),
            suggestions: crate::model::world::suggestions(id, &names),
        })
}

fn store(call: &mut Call<'_>, q: &Quest, what: String) -> Result<()> {
    save(call, MemoryRecord::Quest(q.clone()))?;
    call.record_change("quest", &q.id, what);
    Ok(())
}

fn check_rewards(r: &Rewards) -> Result<()> {
    if r.items.len() > 50 {
        return Err(EngineError::invalid("rewards", "at most 50 reward items"));
    }
    if r.xp > 1_000_000 || r.gp > 10_000_000 {
        return Err(EngineError::invalid(
            "rewards",
            "xp at most 1000000 and gp at most 10000000",
        ));
    }
    Ok(())
}

/// Creates a quest.
pub fn create(call: &mut Call<'_>, d: QuestDraft) -> Result<QuestOutcome> {
    let title = clean("title", d.title.as_deref(), 200)?;
    let objectives = d.objectives.unwrap_or_default();
    if objectives.len() > MAX_OBJECTIVES {
        return Err(EngineError::invalid("objectives", "at most 50 objectives"));
    }
    let objectives = objectives
        .iter()
        .map(|t| {
            Ok(Objective {
                text: clean("objectives", Some(t), 500)?,
                done: false,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let rewards = d.rewards.unwrap_or_default();
    check_rewards(&rewards)?;
    let q = Quest {
        id: call.new_id("qu")?,
        title,
        description: d.description.unwrap_or_default().trim().to_string(),
        giver: d.giver.filter(|g| !g.trim().is_empty()),
        places: d.places.unwrap_or_default(),
        objectives,
        rewards,
        status: QuestStatus::Active,
        outcome: None,
        created_at: crate::clock::now(call)?.seconds,
    };
    store(call, &q, format!("quest '{}' created", q.title))?;
    Ok(QuestOutcome {
        changes: vec![format!("created quest {} '{}'", q.id, q.title)],
        quest: q,
        rewarded: vec![],
    })
}

/// One quest by id or title.
pub fn get(call: &Call<'_>, id: &str) -> Result<Quest> {
    find(call, id)
}

/// Quests, only those with `status` when given, oldest first.
pub fn list(call: &Call<'_>, status: Option<QuestStatus>) -> Result<Vec<Quest>> {
    let recs = call.tx_ref().memories(
        call.campaign(),
        MemoryKind::Quest,
        status.map(QuestStatus::key),
    )?;
    Ok(recs
        .into_iter()
        .filter_map(|r| match r {
            MemoryRecord::Quest(q) => Some(q),
            _ => None,
        })
        .collect())
}

/// Changes a quest's fields.
pub fn update(call: &mut Call<'_>, id: &str, d: QuestDraft) -> Result<QuestOutcome> {
    let mut q = find(call, id)?;
    let mut changes = Vec::new();
    if let Some(t) = d.title.as_deref() {
        q.title = clean("title", Some(t), 200)?;
        changes.push(format!("title: {}", q.title));
    }
    if let Some(t) = d.description {
        q.description = t.trim().to_string();
        changes.push("description changed".into());
    }
    if let Some(g) = d.giver {
        q.giver = Some(g).filter(|g| !g.trim().is_empty());
        changes.push(format!("giver: {}", q.giver.as_deref().unwrap_or("none")));
    }
    if let Some(p) = d.places {
        q.places = p;
        changes.push(format!("places: {}", q.places.join(", ")));
    }
    if let Some(r) = d.rewards {
        check_rewards(&r)?;
        q.rewards = r;
        changes.push("rewards changed".into());
    }
    if d.objectives.is_some() {
        return Err(EngineError::invalid(
            "objectives",
            "objectives are added one at a time with operation add_objective",
        ));
    }
    if changes.is_empty() {
        return Err(EngineError::invalid(
            "title",
            "nothing to update: give title, description, giver, places or rewards",
        ));
    }
    store(call, &q, changes.join("; "))?;
    Ok(QuestOutcome {
        quest: q,
        changes,
        rewarded: vec![],
    })
}

fn must_be_active(q: &Quest) -> Result<()> {
    if q.status == QuestStatus::Active {
        Ok(())
    } else {
        Err(EngineError::Rule(format!(
            "quest '{}' is {}; only an active quest changes objectives",
            q.title,
            q.status.key()
        )))
    }
}

/// Adds an objective.
pub fn add_objective(call: &mut Call<'_>, id: &str, text: &str) -> Result<QuestOutcome> {
    let mut q = find(call, id)?;
    must_be_active(&q)?;
    if q.objectives.len() >= MAX_OBJECTIVES {
        return Err(EngineError::invalid("objective", "at most 50 objectives"));
    }
    let text = clean("objective", Some(text), 500)?;
    q.objectives.push(Objective {
        text: text.clone(),
        done: false,
    });
    let line = format!("objective {} added: {text}", q.objectives.len());
    store(call, &q, line.clone())?;
    Ok(QuestOutcome {
        quest: q,
        changes: vec![line],
        rewarded: vec![],
    })
}

/// The index of an objective named by its number (from 1) or its text.
fn objective_index(q: &Quest, which: &str) -> Result<usize> {
    let which = which.trim();
    if let Ok(n) = which.parse::<usize>() {
        if n >= 1 && n <= q.objectives.len() {
            return Ok(n - 1);
        }
        return Err(EngineError::invalid(
            "objective",
            format!(
                "quest '{}' has objectives 1–{}, not {n}",
                q.title,
                q.objectives.len()
            ),
        ));
    }
    let key = name_key(which);
    q.objectives
        .iter()
        .position(|o| name_key(&o.text) == key)
        .or_else(|| {
            let hits: Vec<usize> = q
                .objectives
                .iter()
                .enumerate()
                .filter(|(_, o)| name_key(&o.text).contains(&key))
                .map(|(i, _)| i)
                .collect();
            (hits.len() == 1 && !key.is_empty()).then(|| hits[0])
        })
        .ok_or_else(|| {
            let list: Vec<String> = q
                .objectives
                .iter()
                .enumerate()
                .map(|(i, o)| format!("{} {}", i + 1, o.text))
                .collect();
            EngineError::invalid(
                "objective",
                format!(
                    "no single objective matches '{which}'; give its number: {}",
                    list.join("; ")
                ),
            )
        })
}

/// Marks an objective done; the last one completes the quest and hands out its rewards.
pub fn complete_objective(call: &mut Call<'_>, id: &str, which: &str) -> Result<QuestOutcome> {
    let mut q = find(call, id)?;
    must_be_active(&q)?;
    let i = objective_index(&q, which)?;
    if q.objectives[i].done {
        return Err(EngineError::Rule(format!(
            "objective {} of '{}' ({}) is already done",
            i + 1,
            q.title,
            q.objectives[i].text
        )));
    }
    q.objectives[i].done = true;
    let (done, total) = q.progress();
    let mut changes = vec![format!(
        "objective {} done: {} ({done}/{total})",
        i + 1,
        q.objectives[i].text
    )];
    let mut rewarded = Vec::new();
    if done == total {
        q.status = QuestStatus::Completed;
        changes.push(format!("quest '{}' completed", q.title));
        rewarded = give_rewards(call, &q)?;
        q.outcome = Some(if rewarded.is_empty() {
            "completed".into()
        } else {
            format!("completed: {}", rewarded.join("; "))
        });
    }
    store(call, &q, changes.join("; "))?;
    Ok(QuestOutcome {
        quest: q,
        changes,
        rewarded,
    })
}

/// Completes a quest outright (every objective done), handing out its rewards.
pub fn complete(call: &mut Call<'_>, id: &str) -> Result<QuestOutcome> {
    let mut q = find(call, id)?;
    must_be_active(&q)?;
    for o in &mut q.objectives {
        o.done = true;
    }
    q.status = QuestStatus::Completed;
    let rewarded = give_rewards(call, &q)?;
    q.outcome = Some(if rewarded.is_empty() {
        "completed".into()
    } else {
        format!("completed: {}", rewarded.join("; "))
    });
    let changes = vec![format!("quest '{}' completed", q.title)];
    store(call, &q, changes.join("; "))?;
    Ok(QuestOutcome {
        quest: q,
        changes,
        rewarded,
    })
}

/// Fails a quest (no rewards).
pub fn fail(call: &mut Call<'_>, id: &str, reason: Option<&str>) -> Result<QuestOutcome> {
    let mut q = find(call, id)?;
    must_be_active(&q)?;
    q.status = QuestStatus::Failed;
    q.outcome = reason
        .map(|r| r.trim().to_string())
        .filter(|r| !r.is_empty());
    let line = match &q.outcome {
        Some(r) => format!("quest '{}' failed: {r}", q.title),
        None => format!("quest '{}' failed", q.title),
    };
    store(call, &q, line.clone())?;
    Ok(QuestOutcome {
        quest: q,
        changes: vec![line],
        rewarded: vec![],
    })
}

/// Deletes a quest.
pub fn delete(call: &mut Call<'_>, id: &str) -> Result<QuestOutcome> {
    let q = find(call, id)?;
    let campaign = call.campaign();
    call.tx()
        .delete_memory(campaign, MemoryKind::Quest, &q.id)?;
    call.record_change("quest", &q.id, "deleted");
    Ok(QuestOutcome {
        changes: vec![format!("deleted quest {} '{}'", q.id, q.title)],
        quest: q,
        rewarded: vec![],
    })
}

/// Hands a completed quest's rewards to the active party: XP and gold split evenly among its
/// members (the remainder of the gold, in copper, to the first), items to the leader.
fn give_rewards(call: &mut Call<'_>, q: &Quest) -> Result<Vec<String>> {
    let r = &q.rewards;
    if r.is_empty() {
        return Ok(vec![]);
    }
    let party = resolve_party(call, PartyRef::default()).map_err(|e| {
        EngineError::Rule(format!(
            "quest '{}' has rewards but there is no party to give them to ({e}); create one with manage_party (or set an active party), then complete it again",
            q.title
        ))
    })?;
    if party.members.is_empty() {
        return Err(EngineError::Rule(format!(
            "party {} has no members to reward; add them with manage_party",
            party.name
        )));
    }
    let n = party.members.len() as u64;
    let mut lines = Vec::new();
    let xp_each = u64::from(r.xp) / n;
    let cp_total = u64::from(r.gp) * 100;
    let (cp_each, cp_rest) = (cp_total / n, cp_total % n);
    let leader = party
        .leader_id
        .clone()
        .filter(|l| party.members.iter().any(|m| &m.character_id == l))
        .unwrap_or_else(|| party.members[0].character_id.clone());
    let campaign = call.campaign();
    for (i, m) in party.members.iter().enumerate() {
        let mut c = resolve(call, CharacterRef::new(Some(&m.character_id), None))?;
        let mut got = Vec::new();
        if xp_each > 0 {
            let add = u32::try_from(xp_each).unwrap_or(u32::MAX);
            c.xp = c.xp.saturating_add(add);
            got.push(format!("{add} XP (now {})", c.xp));
        }
        let cp = cp_each + if i == 0 { cp_rest } else { 0 };
        if cp > 0 {
            let coins = Currency::from_cp(cp);
            c.inventory.currency.add(&coins);
            got.push(coins.to_string());
        }
        if c.id == leader {
            for name in &r.items {
                let item = match call.compendium() {
                    Some(comp) => catalog::lookup(comp, name)
                        .map(|f| f.item)
                        .unwrap_or_else(|_| catalog::plain(name)),
                    None => catalog::plain(name),
                };
                got.push(item.name.clone());
                crate::inventory::ops::put_item(call, &mut c, item)?;
            }
        }
        if !got.is_empty() {
            call.tx().put_character(campaign, &c)?;
            call.record_change(
                "character",
                &c.id,
                format!("quest reward: {}", got.join(", ")),
            );
            lines.push(format!("{}: {}", c.name, got.join(", ")));
        }
    }
    if u64::from(r.xp) % n != 0 {
        lines.push(format!(
            "{} XP left over after an even split ({} each)",
            u64::from(r.xp) % n,
            xp_each
        ));
    }
    Ok(lines)
}
