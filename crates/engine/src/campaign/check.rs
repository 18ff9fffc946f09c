//! Checks on an imported campaign before anything is written: an import is input like any other.
//!
//! What an export file may hold: a campaign name of 1–64 characters, a dice-stream state that
//! decodes, every top-level id of the form `<prefix><number>` (the prefix of its kind, a number
//! from 1 to [`MAX_ID_NUMBER`] without leading zeros), no id twice within a kind, and references
//! (connection ends, party members, travel logs) that point at imported records. Quests, NPCs
//! and secrets follow the same id rules (`qu`, `np`, `se`).

use std::collections::{HashMap, HashSet};

use serde_json::Value;
use tabletop_rules::dice::{DiceRng, RngState};

use super::CampaignExport;
use crate::error::{EngineError, Result};

/// The largest number an imported id may carry (12 digits). Counters are advanced past the
/// largest imported number in one step, so any number up to this imports in constant time.
pub const MAX_ID_NUMBER: u64 = 999_999_999_999;

/// The id counters a campaign keeps: (prefix, what the ids name).
pub const COUNTERS: [(&str, &str); 11] = [
    ("ch", "character"),
    ("loc", "location"),
    ("cn", "connection"),
    ("pt", "party"),
    ("nt", "note"),
    ("enc", "encounter"),
    ("it", "item"),
    ("ef", "effect"),
    ("qu", "quest"),
    ("np", "NPC"),
    ("se", "secret"),
];

/// How far each counter must advance: the largest well-formed number seen per prefix.
pub type Highest = HashMap<&'static str, u64>;

/// A campaign name, trimmed: 1–64 characters, no control characters.
pub fn valid_name(field: &str, name: &str) -> Result<String> {
    let trimmed = name.trim();
    let chars = trimmed.chars().count();
    if chars == 0 || chars > 64 {
        return Err(EngineError::invalid(
            field,
            format!(
                "a campaign name is 1–64 characters; this one has {chars}{}",
                if chars > 64 {
                    format!(
                        " (starts '{}…')",
                        trimmed.chars().take(40).collect::<String>()
                    )
                } else {
                    String::new()
                }
            ),
        ));
    }
    if trimmed.chars().any(char::is_control) {
        return Err(EngineError::invalid(
            field,
            "a campaign name may not hold control characters (line breaks, tabs, …)",
        ));
    }
    Ok(trimmed.to_string())
}

/// The number of a well-formed id `<prefix><number>`, if it is one.
pub fn id_number(prefix: &str, id: &str) -> Option<u64> {
    let digits = id.strip_prefix(prefix)?;
    if digits.is_empty()
        || digits.len() > 12
        || digits.starts_with('0')
        || !digits.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    digits.parse().ok().filter(|n| *n <= MAX_ID_NUMBER)
}

/// Checks everything in `data` that could break the campaign or collide later, and returns the
/// highest number per counter prefix (top-level ids and ids nested in documents, such as items
/// and effects).
pub fn check(data: &CampaignExport) -> Result<Highest> {
    if let Some(state) = &data.rng_state {
        let parsed: RngState = serde_json::from_str(state).map_err(|e| {
            EngineError::invalid(
                "rngState",
                format!("the dice-stream state does not decode ({e}); export the campaign again or remove rngState to start a fresh stream"),
            )
        })?;
        DiceRng::restore(&parsed).map_err(|e| {
            EngineError::invalid(
                "rngState",
                format!("the dice-stream state is unusable ({e}); remove rngState to start a fresh stream"),
            )
        })?;
    }
    let mut highest = Highest::new();
    let kinds: [(&str, &str, Vec<&str>); 9] = [
        (
            "characters",
            "ch",
            data.characters.iter().map(|c| c.id.as_str()).collect(),
        ),
        (
            "locations",
            "loc",
            data.locations.iter().map(|l| l.id.as_str()).collect(),
        ),
        (
            "connections",
            "cn",
            data.connections.iter().map(|c| c.id.as_str()).collect(),
        ),
        (
            "parties",
            "pt",
            data.parties.iter().map(|p| p.id.as_str()).collect(),
        ),
        (
            "notes",
            "nt",
            data.notes.iter().map(|n| n.id.as_str()).collect(),
        ),
        (
            "encounters",
            "enc",
            data.encounters.iter().map(|e| e.id.as_str()).collect(),
        ),
        (
            "quests",
            "qu",
            data.quests.iter().map(|q| q.id.as_str()).collect(),
        ),
        (
            "npcs",
            "np",
            data.npcs.iter().map(|n| n.id.as_str()).collect(),
        ),
        (
            "secrets",
            "se",
            data.secrets.iter().map(|s| s.id.as_str()).collect(),
        ),
    ];
    for (field, prefix, ids) in &kinds {
        let mut seen: HashMap<&str, usize> = HashMap::new();
        for (i, id) in ids.iter().enumerate() {
            let Some(n) = id_number(prefix, id) else {
                return Err(EngineError::invalid(
                    format!("{field}[{i}].id"),
                    format!(
                        "'{}' is not a well-formed id: expected '{prefix}' followed by a number from 1 to {MAX_ID_NUMBER} (no leading zeros), e.g. '{prefix}1'",
                        short(id)
                    ),
                ));
            };
            if let Some(first) = seen.insert(id, i) {
                return Err(EngineError::invalid(
                    format!("{field}[{i}].id"),
                    format!(
                        "id '{id}' appears twice ({field}[{first}] and {field}[{i}]); every id in an export is unique within its kind"
                    ),
                ));
            }
            let h = highest.entry(counter(prefix)).or_insert(0);
            *h = (*h).max(n);
        }
    }
    check_references(data, &kinds[0].2, &kinds[1].2, &kinds[3].2)?;
    npc_references(data, &mut highest);
    // Ids nested in documents (items, effects, …) advance their counters too.
    for c in &data.characters {
        nested_ids(
            &serde_json::to_value(c).unwrap_or(Value::Null),
            &mut highest,
        );
    }
    for e in &data.encounters {
        nested_ids(
            &serde_json::to_value(e).unwrap_or(Value::Null),
            &mut highest,
        );
    }
    Ok(highest)
}

fn counter(prefix: &str) -> &'static str {
    COUNTERS
        .iter()
        .find(|(p, _)| *p == prefix)
        .map(|(p, _)| *p)
        .unwrap_or("")
}

fn check_references(
    data: &CampaignExport,
    characters: &[&str],
    locations: &[&str],
    parties: &[&str],
) -> Result<()> {
    let characters: HashSet<&str> = characters.iter().copied().collect();
    let locations: HashSet<&str> = locations.iter().copied().collect();
    let parties: HashSet<&str> = parties.iter().copied().collect();
    for (i, c) in data.connections.iter().enumerate() {
        for (end, id) in [("from", &c.from), ("to", &c.to)] {
            if !locations.contains(id.as_str()) {
                return Err(EngineError::invalid(
                    format!("connections[{i}].{end}"),
                    format!(
                        "location '{}' is not among the imported locations",
                        short(id)
                    ),
                ));
            }
        }
    }
    let mut member_of: HashMap<&str, &str> = HashMap::new();
    for (i, p) in data.parties.iter().enumerate() {
        for (j, m) in p.members.iter().enumerate() {
            let field = format!("parties[{i}].members[{j}].characterId");
            if !characters.contains(m.character_id.as_str()) {
                return Err(EngineError::invalid(
                    field,
                    format!(
                        "character '{}' is not among the imported characters",
                        short(&m.character_id)
                    ),
                ));
            }
            if let Some(other) = member_of.insert(&m.character_id, &p.id) {
                return Err(EngineError::invalid(
                    field,
                    format!(
                        "character '{}' is already a member of party '{other}'; a character belongs to one party at most",
                        m.character_id
                    ),
                ));
            }
        }
    }
    for (i, t) in data.travel.iter().enumerate() {
        if !parties.contains(t.party_id.as_str()) {
            return Err(EngineError::invalid(
                format!("travel[{i}].partyId"),
                format!(
                    "party '{}' is not among the imported parties",
                    short(&t.party_id)
                ),
            ));
        }
    }
    Ok(())
}

/// What an NPC points at (its linked character, the NPCs it relates to, whom its memories and
/// attitudes are about) may name records deleted in the source campaign: those references are kept
/// as they were, and the counters move past them so that no later record takes their ids.
fn npc_references(data: &CampaignExport, highest: &mut Highest) {
    for n in &data.npcs {
        let refs = n
            .character_id
            .iter()
            .chain(
                n.relationships
                    .iter()
                    .filter(|r| !r.faction)
                    .map(|r| &r.with),
            )
            .chain(n.memories.iter().filter_map(|m| m.about.as_ref()))
            .chain(n.attitudes.keys());
        for id in refs {
            for prefix in ["ch", "np"] {
                if let Some(k) = id_number(prefix, id) {
                    let h = highest.entry(prefix).or_insert(0);
                    *h = (*h).max(k);
                }
            }
        }
    }
}

/// Every `"id"` string in `v` of a counter's form raises that counter's highest number.
fn nested_ids(v: &Value, highest: &mut Highest) {
    match v {
        Value::Object(map) => {
            if let Some(Value::String(id)) = map.get("id") {
                for (prefix, _) in COUNTERS {
                    if let Some(n) = id_number(prefix, id) {
                        let h = highest.entry(prefix).or_insert(0);
                        *h = (*h).max(n);
                    }
                }
            }
            map.values().for_each(|x| nested_ids(x, highest));
        }
        Value::Array(items) => items.iter().for_each(|x| nested_ids(x, highest)),
        _ => {}
    }
}

fn short(s: &str) -> String {
    if s.chars().count() > 40 {
        format!("{}…", s.chars().take(40).collect::<String>())
    } else {
        s.to_string()
    }
}
