//! `manage_npc`: NPCs who remember. Each NPC may be linked to a character sheet, keeps
//! memories about PCs, the party or other NPCs (ranked by importance, then recency), an attitude
//! toward each PC, and ties to other NPCs and factions.

use serde::Serialize;

use super::{clean, load, save};
use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::character::CharacterRef;
use crate::model::memory::{Attitude, Memory, MemoryKind, MemoryRecord, Npc, PARTY, Relationship};
use crate::model::names::name_key;

/// A new NPC, or changes to one (absent: unchanged).
#[derive(Debug, Clone, Default)]
pub struct NpcDraft {
    /// Name (with a linked character: defaults to its name).
    pub name: Option<String>,
    /// Link to an existing character sheet (id or name).
    pub character: Option<String>,
    /// Who they are.
    pub description: Option<String>,
    /// Where they are found.
    pub location: Option<String>,
    /// Factions (replace).
    pub factions: Option<Vec<String>>,
    /// Starting attitude toward the party.
    pub attitude: Option<Attitude>,
}

/// What an NPC operation did.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NpcOutcome {
    /// The NPC as it now stands.
    pub npc: Npc,
    /// What changed.
    pub changes: Vec<String>,
}

/// What an NPC recalls.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Recall {
    /// The NPC's id.
    pub npc_id: String,
    /// The NPC's name.
    pub npc: String,
    /// Whom the recall was about, if asked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub about: Option<String>,
    /// The attitude toward them (when about a PC or the party).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub attitude: Option<Attitude>,
    /// Memories, best first: importance, then the most recent.
    pub memories: Vec<Memory>,
    /// How many matched before the limit.
    pub total: usize,
}

const MAX_MEMORIES: usize = 500;

/// Whom something is about: ("party", "the party"), a character's (id, name) or an NPC's.
fn resolve_about(call: &Call<'_>, given: &str, field: &str) -> Result<(String, String)> {
    let g = given.trim();
    if name_key(g) == PARTY || name_key(g) == "the party" {
        return Ok((PARTY.into(), "the party".into()));
    }
    if let Some(c) = call.tx_ref().character(call.campaign(), g)? {
        return Ok((c.id, c.name));
    }
    let named = call.tx_ref().characters_named(call.campaign(), g)?;
    if named.len() == 1 {
        return Ok((named[0].id.clone(), named[0].name.clone()));
    }
    if let Ok(n) = find(call, g) {
        return Ok((n.id, n.name));
    }
    Err(EngineError::invalid(
        field,
        format!(
            "'{g}' is not \"party\", a character or an NPC of this campaign (give an id or exact name)"
        ),
    ))
}

fn all(call: &Call<'_>) -> Result<Vec<Npc>> {
    Ok(call
        .tx_ref()
        .memories(call.campaign(), MemoryKind::Npc, None)?
        .into_iter()
        .filter_map(|r| match r {
            MemoryRecord::Npc(n) => Some(n),
            _ => None,
        })
        .collect())
}

/// An NPC by id or name.
pub fn find(call: &Call<'_>, id: &str) -> Result<Npc> {
    let id = id.trim();
    if id.is_empty() {
        return Err(EngineError::invalid("npcId", "name the NPC: npcId or name"));
    }
    if let Some(MemoryRecord::Npc(n)) = load(call, MemoryKind::Npc, id)? {
        return Ok(n);
    }
    let key = name_key(id);
    let every = all(call)?;
    let names: Vec<(String, String)> = every
        .iter()
        .map(|n| (n.id.clone(), n.name.clone()))
        .collect();
    every
        .into_iter()
        .find(|n| name_key(&n.name) == key || n.character_id.as_deref() == Some(id))
        .ok_or_else(|| EngineError::NotFound {
            kind: "NPC",
            given: id.into(),
            suggestions: crate::model::world::suggestions(id, &names),
        })
}

/// An NPC by id or name; failing that, a character sheet of that id or name becomes an NPC
/// linked to it (so a memory or attitude can be kept for any character).
fn find_or_link(call: &mut Call<'_>, id: &str) -> Result<Npc> {
    match find(call, id) {
        Ok(n) => Ok(n),
        Err(e @ EngineError::NotFound { .. }) => {
            let Some(c) = call
                .tx_ref()
                .character(call.campaign(), id.trim())?
                .or_else(|| {
                    call.tx_ref()
                        .characters_named(call.campaign(), id.trim())
                        .ok()
                        .filter(|v| v.len() == 1)
                        .and_then(|mut v| v.pop())
                })
            else {
                return Err(e);
            };
            Ok(create(
                call,
                NpcDraft {
                    character: Some(c.id),
                    ..Default::default()
                },
            )?
            .npc)
        }
        Err(e) => Err(e),
    }
}

fn store(call: &mut Call<'_>, n: &Npc, what: String) -> Result<()> {
    save(call, MemoryRecord::Npc(n.clone()))?;
    call.record_change("npc", &n.id, what);
    Ok(())
}

fn out(n: Npc, changes: Vec<String>) -> NpcOutcome {
    NpcOutcome { npc: n, changes }
}

/// Creates an NPC, optionally linked to an existing character.
pub fn create(call: &mut Call<'_>, d: NpcDraft) -> Result<NpcOutcome> {
    let linked = match d.character.as_deref() {
        Some(c) => Some(
            crate::characters::resolve(call, CharacterRef::new(Some(c), None))
                .or_else(|_| crate::characters::resolve(call, CharacterRef::new(None, Some(c))))?,
        ),
        None => None,
    };
    let name = match (&d.name, &linked) {
        (Some(n), _) => clean("name", Some(n), 100)?,
        (None, Some(c)) => c.name.clone(),
        (None, None) => clean("name", None, 100)?,
    };
    let key = name_key(&name);
    if all(call)?.iter().any(|n| name_key(&n.name) == key) {
        return Err(EngineError::Rule(format!(
            "an NPC named {name} already exists; NPC names are unique (get it, or pick another name)"
        )));
    }
    let mut attitudes = std::collections::BTreeMap::new();
    if let Some(a) = d.attitude {
        attitudes.insert(PARTY.to_string(), a);
    }
    let n = Npc {
        id: call.new_id("np")?,
        name,
        character_id: linked.as_ref().map(|c| c.id.clone()),
        description: d.description.unwrap_or_default().trim().to_string(),
        location: d.location.filter(|l| !l.trim().is_empty()),
        factions: d.factions.unwrap_or_default(),
        attitudes,
        memories: vec![],
        relationships: vec![],
    };
    let line = match &linked {
        Some(c) => format!(
            "created NPC {} {} (linked to {} {})",
            n.id, n.name, c.id, c.name
        ),
        None => format!("created NPC {} {}", n.id, n.name),
    };
    store(call, &n, line.clone())?;
    Ok(out(n, vec![line]))
}

/// Every NPC, in creation order (only those at `location` or in `faction` when given).
pub fn list(call: &Call<'_>, location: Option<&str>, faction: Option<&str>) -> Result<Vec<Npc>> {
    let (l, f) = (location.map(name_key), faction.map(name_key));
    Ok(all(call)?
        .into_iter()
        .filter(|n| {
            l.as_ref()
                .is_none_or(|l| n.location.as_deref().map(name_key).as_ref() == Some(l))
        })
        .filter(|n| {
            f.as_ref()
                .is_none_or(|f| n.factions.iter().any(|x| &name_key(x) == f))
        })
        .collect())
}

/// Changes an NPC's fields.
pub fn update(call: &mut Call<'_>, id: &str, d: NpcDraft) -> Result<NpcOutcome> {
    let mut n = find(call, id)?;
    let mut changes = Vec::new();
    if let Some(name) = d.name.as_deref() {
        n.name = clean("name", Some(name), 100)?;
        changes.push(format!("name: {}", n.name));
    }
    if let Some(t) = d.description {
        n.description = t.trim().to_string();
        changes.push("description changed".into());
    }
    if let Some(l) = d.location {
        n.location = Some(l).filter(|l| !l.trim().is_empty());
        changes.push(format!(
            "location: {}",
            n.location.as_deref().unwrap_or("none")
        ));
    }
    if let Some(f) = d.factions {
        n.factions = f;
        changes.push(format!("factions: {}", n.factions.join(", ")));
    }
    if let Some(a) = d.attitude {
        n.attitudes.insert(PARTY.into(), a);
        changes.push(format!("attitude toward the party: {}", a.key()));
    }
    if let Some(c) = d.character.as_deref() {
        let c = crate::characters::resolve(call, CharacterRef::new(Some(c), None))
            .or_else(|_| crate::characters::resolve(call, CharacterRef::new(None, Some(c))))?;
        changes.push(format!("linked to {} {}", c.id, c.name));
        n.character_id = Some(c.id);
    }
    if changes.is_empty() {
        return Err(EngineError::invalid(
            "name",
            "nothing to update: give name, description, location, factions, attitude or characterId",
        ));
    }
    store(call, &n, changes.join("; "))?;
    Ok(out(n, changes))
}

/// Deletes an NPC (its linked character sheet stays).
pub fn delete(call: &mut Call<'_>, id: &str) -> Result<NpcOutcome> {
    let n = find(call, id)?;
    let campaign = call.campaign();
    call.tx().delete_memory(campaign, MemoryKind::Npc, &n.id)?;
    call.record_change("npc", &n.id, "deleted");
    let line = format!("deleted NPC {} {}", n.id, n.name);
    Ok(out(n, vec![line]))
}

/// Records a memory: about whom (a PC, "party", an NPC, or nobody), what, how important (1–5,
/// default 3).
pub fn remember(
    call: &mut Call<'_>,
    id: &str,
    about: Option<&str>,
    text: &str,
    importance: Option<u8>,
) -> Result<NpcOutcome> {
    let mut n = find_or_link(call, id)?;
    let text = clean("memory", Some(text), 2_000)?;
    let importance = importance.unwrap_or(3);
    if !(1..=5).contains(&importance) {
        return Err(EngineError::invalid(
            "importance",
            format!("{importance} is out of range; 1 (trivia) to 5 (life-changing)"),
        ));
    }
    let about = about
        .filter(|a| !a.trim().is_empty())
        .map(|a| resolve_about(call, a, "about"))
        .transpose()?;
    if n.memories.len() >= MAX_MEMORIES {
        // The least important, oldest memory fades.
        if let Some(pos) =
            (0..n.memories.len()).min_by_key(|&i| (n.memories[i].importance, n.memories[i].at))
        {
            n.memories.remove(pos);
        }
    }
    let num = n.memories.iter().map(|m| m.n).max().unwrap_or(0) + 1;
    let at = crate::clock::now(call)?.seconds;
    let line = format!(
        "{} remembers{}: {text} (importance {importance})",
        n.name,
        about
            .as_ref()
            .map(|(_, nm)| format!(" about {nm}"))
            .unwrap_or_default()
    );
    n.memories.push(Memory {
        n: num,
        about: about.as_ref().map(|(i, _)| i.clone()),
        about_name: about.map(|(_, nm)| nm),
        text,
        importance,
        at,
    });
    store(call, &n, line.clone())?;
    Ok(out(n, vec![line]))
}

/// What an NPC remembers, best first (importance, then most recent); only about `about` when
/// given (memories about the party count for each of its members).
pub fn recall(call: &Call<'_>, id: &str, about: Option<&str>, limit: usize) -> Result<Recall> {
    let n = find(call, id)?;
    let about = about
        .filter(|a| !a.trim().is_empty())
        .map(|a| resolve_about(call, a, "about"))
        .transpose()?;
    let member_of_party = |who: &str| -> Result<bool> {
        Ok(who != PARTY
            && call
                .tx_ref()
                .party_of_character(call.campaign(), who)?
                .is_some())
    };
    let include_party = match &about {
        Some((who, _)) => member_of_party(who)?,
        None => false,
    };
    let mut mems: Vec<Memory> = n
        .memories
        .iter()
        .filter(|m| match &about {
            None => true,
            Some((who, _)) => {
                m.about.as_deref() == Some(who.as_str())
                    || (include_party && m.about.as_deref() == Some(PARTY))
            }
        })
        .cloned()
        .collect();
    mems.sort_by(|a, b| {
        b.importance
            .cmp(&a.importance)
            .then(b.at.cmp(&a.at))
            .then(b.n.cmp(&a.n))
    });
    let total = mems.len();
    mems.truncate(limit.max(1));
    let attitude = about.as_ref().and_then(|(who, _)| {
        let is_npc = who.starts_with("np");
        (!is_npc).then(|| n.attitude_toward(who))
    });
    Ok(Recall {
        npc_id: n.id,
        npc: n.name,
        about: about.map(|(_, nm)| nm),
        attitude,
        memories: mems,
        total,
    })
}

/// Sets (or, without `value`, reads) the attitude toward a PC or the party.
pub fn attitude(
    call: &mut Call<'_>,
    id: &str,
    toward: Option<&str>,
    value: Option<Attitude>,
) -> Result<NpcOutcome> {
    let mut n = find_or_link(call, id)?;
    let (who, who_name) = resolve_about(call, toward.unwrap_or(PARTY), "toward")?;
    if who.starts_with("np") && call.tx_ref().character(call.campaign(), &who)?.is_none() {
        return Err(EngineError::invalid(
            "toward",
            "attitudes are toward PCs or the party; tie NPCs together with operation relate",
        ));
    }
    let Some(value) = value else {
        let a = n.attitude_toward(&who);
        let line = format!("{} is {} toward {who_name}", n.name, a.key());
        return Ok(out(n, vec![line]));
    };
    let before = n.attitude_toward(&who);
    n.attitudes.insert(who.clone(), value);
    let line = format!(
        "{}'s attitude toward {who_name}: {} → {}",
        n.name,
        before.key(),
        value.key()
    );
    store(call, &n, line.clone())?;
    Ok(out(n, vec![line]))
}

/// Ties an NPC to another NPC or a faction ("brother", "member", "rival"); kind "none" removes
/// the tie. A tie to another NPC is mirrored on it.
pub fn relate(
    call: &mut Call<'_>,
    id: &str,
    with: &str,
    kind: &str,
    faction: bool,
) -> Result<NpcOutcome> {
    let mut n = find(call, id)?;
    let kind = clean("relationship", Some(kind), 100)?;
    let remove = name_key(&kind) == "none";
    let (with_id, with_name, other) = if faction {
        let f = clean("with", Some(with), 100)?;
        (name_key(&f), f, None)
    } else {
        let o = find(call, with)?;
        if o.id == n.id {
            return Err(EngineError::invalid(
                "with",
                "an NPC cannot be tied to itself",
            ));
        }
        (o.id.clone(), o.name.clone(), Some(o))
    };
    n.relationships.retain(|r| r.with != with_id);
    if faction {
        let key = name_key(&with_name);
        if remove {
            n.factions.retain(|f| name_key(f) != key);
        } else if !n.factions.iter().any(|f| name_key(f) == key) {
            n.factions.push(with_name.clone());
        }
    }
    let line = if remove {
        format!("{} and {with_name}: tie removed", n.name)
    } else {
        n.relationships.push(Relationship {
            with: with_id,
            with_name: with_name.clone(),
            faction,
            kind: kind.clone(),
        });
        format!("{} → {with_name}: {kind}", n.name)
    };
    if let Some(mut o) = other {
        o.relationships.retain(|r| r.with != n.id);
        if !remove {
            o.relationships.push(Relationship {
                with: n.id.clone(),
                with_name: n.name.clone(),
                faction: false,
                kind: format!("{kind} (of {})", n.name),
            });
        }
        store(call, &o, format!("tie with {}", n.name))?;
    }
    store(call, &n, line.clone())?;
    Ok(out(n, vec![line]))
}
