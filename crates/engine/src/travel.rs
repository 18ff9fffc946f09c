//! `move_party`: a party walks the graph of places. Locked ways are refused unless opened by a
//! key a member carries, a check (pick: DEX with thieves' tools; break: STR (Athletics)) or the
//! DM's force; hidden ways must be found first (a Perception or Investigation check against the
//! find DC); one-way ways are enforced. Every move notes its travel time.

use serde::Serialize;
use tabletop_rules::Skill;
use tabletop_rules::d20::D20Test;

use crate::characters::resolve;
use crate::checks::{CheckOutcome, CheckRequest, roll_check};
use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::character::{Character, CharacterRef};
use crate::model::names::name_key;
use crate::model::party::{Party, PartyRef};
use crate::model::world::{Connection, Location, LocationRef};
use crate::party::resolve_party;
use crate::world::{Exit, exits_of, resolve_location};

/// The data of this family lives in the model; re-exported so the old paths keep working.
pub use crate::model::travel::TravelEntry;

/// How a locked way is opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unlock {
    /// With the key item, carried by a member.
    Key,
    /// Pick the lock: a DEX check with thieves' tools (proficiency for rogues) vs the lock DC.
    Pick,
    /// Break it open: a STR (Athletics) check vs the lock DC.
    Break,
}

/// One move.
#[derive(Debug, Clone, Default)]
pub struct MoveRequest<'a> {
    /// Where to go (a place adjacent to the party's).
    pub to: Option<LocationRef<'a>>,
    /// Or the connection to take.
    pub connection_id: Option<&'a str>,
    /// How to open a locked way (a carried key is used by itself).
    pub unlock: Option<Unlock>,
    /// The DM overrides locks, hidden ways and one-way passages.
    pub force: bool,
    /// Who makes the check (default the leader).
    pub character: Option<CharacterRef<'a>>,
}

/// The result of a move: the party moved, or a check to open the way failed.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MoveOutcome {
    /// The party's id.
    pub party_id: String,
    /// Its name.
    pub party_name: String,
    /// Whether it moved.
    pub moved: bool,
    /// The entry written to its travel log (when it moved).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub travel: Option<TravelEntry>,
    /// The lock check, when one was rolled.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub check: Option<CheckOutcome>,
    /// One line of what happened.
    pub summary: String,
    /// The exits the party now knows.
    pub exits: Vec<Exit>,
}

fn here(call: &Call<'_>, p: &Party) -> Result<Location> {
    let id = p.location_id.as_deref().ok_or_else(|| {
        EngineError::Rule(format!(
            "{} ({}) is nowhere yet; place it with manage_party operation update and locationId",
            p.name, p.id
        ))
    })?;
    call.tx_ref()
        .location(call.campaign(), id)?
        .ok_or_else(|| {
            EngineError::Rule(format!(
                "{}'s location {id} no longer exists; place it with manage_party operation update and locationId",
                p.name
            ))
        })
}

fn members(call: &Call<'_>, p: &Party) -> Result<Vec<Character>> {
    let mut out = Vec::new();
    for m in &p.members {
        if let Some(c) = call.tx_ref().character(call.campaign(), &m.character_id)? {
            out.push(c);
        }
    }
    Ok(out)
}

/// The member who acts: the named one (who must be a member), else the leader, else the first
/// member able to act.
fn actor(call: &Call<'_>, p: &Party, who: Option<CharacterRef<'_>>) -> Result<Character> {
    if let Some(r) = who {
        let c = resolve(call, r)?;
        if !p.members.iter().any(|m| m.character_id == c.id) {
            return Err(EngineError::Rule(format!(
                "{} is not in {}; name a member or add_member first",
                c.label(),
                p.name
            )));
        }
        return Ok(c);
    }
    let all = members(call, p)?;
    let able = |c: &&Character| c.status() == "ok";
    all.iter()
        .filter(able)
        .find(|c| p.leader_id.as_deref() == Some(c.id.as_str()))
        .or_else(|| all.iter().find(able))
        .cloned()
        .ok_or_else(|| {
            EngineError::Rule(format!(
                "{} has no member able to act; add_member or heal one",
                p.name
            ))
        })
}

fn known_exits(call: &Call<'_>, loc: &Location) -> Result<Vec<Exit>> {
    let conns = call.tx_ref().connections_of(call.campaign(), &loc.id)?;
    exits_of(call, &loc.id, &conns, true)
}

fn exit_list(exits: &[Exit]) -> String {
    if exits.is_empty() {
        return "none known".into();
    }
    exits
        .iter()
        .map(|e| format!("{} ({})", e.to_name, e.connection_id))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Moves the party along one connection from where it stands.
pub fn move_party(
    call: &mut Call<'_>,
    r: PartyRef<'_>,
    req: MoveRequest<'_>,
) -> Result<MoveOutcome> {
    let mut p = resolve_party(call, r)?;
    let from = here(call, &p)?;
    let campaign = call.campaign();
    let conns = call.tx_ref().connections_of(campaign, &from.id)?;
    let known = exits_of(call, &from.id, &conns, true)?;
    let conn: Connection = if let Some(cid) =
        req.connection_id.map(str::trim).filter(|s| !s.is_empty())
    {
        conns.iter().find(|c| c.id == cid).cloned().ok_or_else(|| {
            EngineError::invalid(
                "connectionId",
                format!(
                    "no exit '{cid}' from {}; known exits: {}",
                    from.name,
                    exit_list(&known)
                ),
            )
        })?
    } else {
        let to = req.to.filter(LocationRef::is_given).ok_or_else(|| {
            EngineError::invalid(
                "to",
                format!(
                    "say where to: to (a place next to {}) or connectionId; known exits: {}",
                    from.name,
                    exit_list(&known)
                ),
            )
        })?;
        let dest = resolve_location(call, to, "to")?;
        if dest.id == from.id {
            return Err(EngineError::invalid(
                "to",
                format!("{} is already at {}", p.name, from.name),
            ));
        }
        conns
            .iter()
            .find(|c| c.other_end(&from.id) == dest.id)
            .cloned()
            .ok_or_else(|| {
                EngineError::Rule(format!(
                    "there is no way from {} to {}; known exits: {} (link them with manage_location, or place the party with manage_party update)",
                    from.name,
                    dest.name,
                    exit_list(&known)
                ))
            })?
    };
    let dest_id = conn.other_end(&from.id).to_string();
    let mut dest = call.tx_ref().location(campaign, &dest_id)?.ok_or_else(|| {
        EngineError::Rule(format!("internal: connection {} leads nowhere", conn.id))
    })?;
    let mut how = vec![conn.kind.key().to_string()];
    if conn.exit_from(&from.id).is_none() {
        if !req.force {
            return Err(EngineError::Rule(format!(
                "the {} from {} to {} is one-way ({}); it cannot be taken back. Known exits: {} (force: true lets the DM override)",
                conn.kind.key(),
                dest.name,
                from.name,
                conn.id,
                exit_list(&known)
            )));
        }
        how.push("against its one-way direction, forced by the DM".into());
    }
    if conn.concealed() {
        if !req.force {
            return Err(EngineError::Rule(format!(
                "the way from {} to {} is hidden and not yet found: search first (move_party operation search, a Perception or Investigation check against DC {})",
                from.name,
                dest.name,
                conn.find_dc.unwrap_or(Connection::DEFAULT_FIND_DC)
            )));
        }
        how.push("hidden way shown by the DM".into());
    }
    let mut check = None;
    let mut unlocked = false;
    if conn.locked {
        let dc = conn.lock_dc.unwrap_or(Connection::DEFAULT_LOCK_DC);
        let team = members(call, &p)?;
        let key_holder = conn.key_item.as_deref().and_then(|k| {
            let kk = name_key(k);
            team.iter()
                .find(|c| c.carried_names().any(|e| name_key(e).contains(&kk)))
                .map(|c| (c.name.clone(), k.to_string()))
        });
        let by_key = matches!(req.unlock, None | Some(Unlock::Key));
        match (req.unlock, key_holder) {
            (_, Some((holder, key))) if by_key => {
                how.push(format!("unlocked with {holder}'s {key}"));
                unlocked = true;
            }
            _ if by_key && req.force => {
                how.push("lock forced open by the DM".into());
                unlocked = true;
            }
            (Some(Unlock::Key), _) => {
                return Err(EngineError::Rule(match &conn.key_item {
                    Some(k) => format!(
                        "no member of {} carries '{k}'; try unlock pick (DEX, thieves' tools) or break (STR Athletics) against DC {dc}",
                        p.name
                    ),
                    None => format!(
                        "this lock has no key; try unlock pick (DEX, thieves' tools) or break (STR Athletics) against DC {dc}"
                    ),
                }));
            }
            (None, _) => {
                return Err(EngineError::Rule(format!(
                    "the {} to {} is locked (DC {dc}{}); pass unlock: pick (DEX, thieves' tools) or break (STR Athletics){}, or force: true",
                    conn.kind.key(),
                    dest.name,
                    conn.key_item
                        .as_deref()
                        .map(|k| format!(", key: {k}"))
                        .unwrap_or_default(),
                    if conn.key_item.is_some() {
                        ", or give a member the key"
                    } else {
                        ""
                    }
                )));
            }
            (Some(method), _) => {
                let who = actor(call, &p, req.character)?;
                let (test, reason, bonus) = match method {
                    Unlock::Pick => {
                        let tools = who.carried_names().any(|e| {
                            name_key(e).contains("thieves") && name_key(e).contains("tools")
                        });
                        if !tools {
                            return Err(EngineError::Rule(format!(
                                "{} carries no thieves' tools; give them with manage_inventory, let another member pick (characterName), or use unlock: break",
                                who.name
                            )));
                        }
                        let proficient =
                            who.class.as_deref().is_some_and(|c| name_key(c) == "rogue")
                                || who
                                    .features
                                    .iter()
                                    .any(|f| name_key(f).contains("thieves' tools"));
                        (
                            D20Test::AbilityCheck {
                                ability: tabletop_rules::Ability::Dexterity,
                            },
                            "pick the lock",
                            if proficient { who.proficiency_bonus } else { 0 },
                        )
                    }
                    _ => (
                        D20Test::SkillCheck {
                            skill: Skill::Athletics,
                        },
                        "break the lock",
                        0,
                    ),
                };
                let out = roll_check(
                    call,
                    CharacterRef::new(Some(&who.id), None),
                    &CheckRequest {
                        dc: Some(dc),
                        bonus,
                        reason: Some(reason.into()),
                        ..CheckRequest::of(test)
                    },
                )?;
                let ok = out.success() == Some(true);
                check = Some(out);
                if !ok {
                    let summary = format!(
                        "{} failed to {reason}; the {} to {} stays locked and {} stays at {}",
                        who.name,
                        conn.kind.key(),
                        dest.name,
                        p.name,
                        from.name
                    );
                    call.record_change(
                        "connection",
                        &conn.id,
                        format!("{} failed to {reason}", who.name),
                    );
                    return Ok(MoveOutcome {
                        party_id: p.id,
                        party_name: p.name,
                        moved: false,
                        travel: None,
                        check,
                        summary,
                        exits: known,
                    });
                }
                how.push(match method {
                    Unlock::Pick => format!("lock picked by {}", who.name),
                    _ => format!("lock broken by {}", who.name),
                });
                unlocked = true;
            }
        }
    }
    // The move first: short views of the event log keep an event's first change.
    call.record_change(
        "party",
        &p.id,
        format!(
            "moved {} → {} ({} min)",
            from.name, dest.name, conn.travel_minutes
        ),
    );
    if unlocked {
        let mut c = conn.clone();
        c.locked = false;
        call.tx().put_connection(campaign, &c)?;
        call.record_change("connection", &c.id, "unlocked");
    }
    if !dest.discovered {
        dest.discovered = true;
        call.tx().put_location(campaign, &dest)?;
        call.record_change("location", &dest.id, "discovered");
    }
    p.location_id = Some(dest.id.clone());
    p.elapsed_minutes = p
        .elapsed_minutes
        .saturating_add(u64::from(conn.travel_minutes));
    call.tx().put_party(campaign, &p)?;
    let entry = TravelEntry {
        from_id: Some(from.id.clone()),
        from_name: Some(from.name.clone()),
        to_id: dest.id.clone(),
        to_name: dest.name.clone(),
        connection_id: Some(conn.id.clone()),
        how: how.join(", "),
        minutes: conn.travel_minutes,
        elapsed_minutes: p.elapsed_minutes,
    };
    call.tx().append_travel(campaign, &p.id, &entry)?;
    let exits = known_exits(call, &dest)?;
    let clock = crate::clock::pass(call, u64::from(conn.travel_minutes) * 60)?;
    let summary = format!(
        "{} moved from {} to {} by {} ({} min; {} min travelled in all). Clock: {}",
        p.name, from.name, dest.name, entry.how, entry.minutes, p.elapsed_minutes, clock.summary
    );
    Ok(MoveOutcome {
        party_id: p.id,
        party_name: p.name,
        moved: true,
        travel: Some(entry),
        check,
        summary,
        exits,
    })
}

/// Where a party stands and the exits it knows.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TravelStatus {
    /// Party id.
    pub party_id: String,
    /// Party name.
    pub party_name: String,
    /// Where it is (absent: nowhere yet).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<Location>,
    /// Exits it knows.
    pub exits: Vec<ExitSeen>,
    /// Hidden ways here not yet found (the DM's knowledge: invite a search).
    pub unfound_hidden: usize,
    /// Minutes travelled.
    pub elapsed_minutes: u64,
}

/// An exit as a party knows it.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ExitSeen {
    /// Connection id.
    pub connection_id: String,
    /// Where it leads: id.
    pub to_id: String,
    /// Where it leads: name.
    pub to_name: String,
    /// Door, passage, …
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// Locked.
    pub locked: bool,
    /// One-way (no way back).
    pub one_way: bool,
    /// Minutes to go through.
    pub travel_minutes: u32,
}

impl From<&Exit> for ExitSeen {
    fn from(e: &Exit) -> Self {
        Self {
            connection_id: e.connection_id.clone(),
            to_id: e.to_id.clone(),
            to_name: e.to_name.clone(),
            kind: e.kind.key(),
            locked: e.locked,
            one_way: e.one_way,
            travel_minutes: e.travel_minutes,
        }
    }
}

/// Where a party is and what it can see of the way on.
pub fn status(call: &mut Call<'_>, r: PartyRef<'_>) -> Result<TravelStatus> {
    let p = resolve_party(call, r)?;
    status_of(call, &p)
}

/// [`status`] of a resolved party (read-only).
pub fn status_of(call: &Call<'_>, p: &Party) -> Result<TravelStatus> {
    let campaign = call.campaign();
    let location = match &p.location_id {
        Some(id) => call.tx_ref().location(campaign, id)?,
        None => None,
    };
    let (exits, unfound_hidden) = match &location {
        Some(l) => {
            let conns = call.tx_ref().connections_of(campaign, &l.id)?;
            let unfound = conns
                .iter()
                .filter(|c| c.concealed() && c.exit_from(&l.id).is_some())
                .count();
            (exits_of(call, &l.id, &conns, true)?, unfound)
        }
        None => (vec![], 0),
    };
    Ok(TravelStatus {
        party_id: p.id.clone(),
        party_name: p.name.clone(),
        location,
        exits: exits.iter().map(ExitSeen::from).collect(),
        unfound_hidden,
        elapsed_minutes: p.elapsed_minutes,
    })
}

/// The result of a search for hidden ways.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchOutcome {
    /// Who searched.
    pub searcher: String,
    /// The check.
    pub check: CheckOutcome,
    /// The hidden ways found (now known).
    pub found: Vec<ExitSeen>,
    /// One line of what happened.
    pub summary: String,
}

/// A member searches the party's location for hidden ways: one Perception (or Investigation)
/// check compared with each hidden way's find DC.
pub fn search(
    call: &mut Call<'_>,
    r: PartyRef<'_>,
    who: Option<CharacterRef<'_>>,
    skill: Skill,
) -> Result<SearchOutcome> {
    if !matches!(skill, Skill::Perception | Skill::Investigation) {
        return Err(EngineError::invalid(
            "skill",
            "a search uses perception or investigation",
        ));
    }
    let p = resolve_party(call, r)?;
    let loc = here(call, &p)?;
    let searcher = actor(call, &p, who)?;
    let check = roll_check(
        call,
        CharacterRef::new(Some(&searcher.id), None),
        &CheckRequest {
            reason: Some(format!("search {}", loc.name)),
            ..CheckRequest::of(D20Test::SkillCheck { skill })
        },
    )?;
    let total = match &check {
        CheckOutcome::Rolled { outcome, .. } => outcome.total,
        CheckOutcome::Passive { outcome, .. } => Some(outcome.value),
    };
    let campaign = call.campaign();
    let conns = call.tx_ref().connections_of(campaign, &loc.id)?;
    let mut found_ids = Vec::new();
    for c in conns
        .iter()
        .filter(|c| c.concealed() && c.exit_from(&loc.id).is_some())
    {
        let dc = c.find_dc.unwrap_or(Connection::DEFAULT_FIND_DC);
        if total.is_some_and(|t| t >= dc) {
            let mut f = c.clone();
            f.found = true;
            call.tx().put_connection(campaign, &f)?;
            call.record_change("connection", &f.id, format!("found by {}", searcher.name));
            found_ids.push(f.id);
        }
    }
    let conns = call.tx_ref().connections_of(campaign, &loc.id)?;
    let found: Vec<ExitSeen> = exits_of(call, &loc.id, &conns, true)?
        .iter()
        .filter(|e| found_ids.contains(&e.connection_id))
        .map(ExitSeen::from)
        .collect();
    let summary = if found.is_empty() {
        format!(
            "{} searched {} and found nothing new.",
            searcher.name, loc.name
        )
    } else {
        format!(
            "{} found a hidden way: {}.",
            searcher.name,
            found
                .iter()
                .map(|e| format!("{} to {} ({})", e.kind, e.to_name, e.connection_id))
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    Ok(SearchOutcome {
        searcher: searcher.name,
        check,
        found,
        summary,
    })
}

/// A party's travel log, newest first.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TravelHistory {
    /// Party id.
    pub party_id: String,
    /// Party name.
    pub party_name: String,
    /// Minutes travelled in all.
    pub elapsed_minutes: u64,
    /// Entries, newest first.
    pub entries: Vec<TravelEntry>,
}

/// The last `limit` moves of a party.
pub fn history(call: &mut Call<'_>, r: PartyRef<'_>, limit: usize) -> Result<TravelHistory> {
    if !(1..=100).contains(&limit) {
        return Err(EngineError::invalid("limit", "1–100 entries"));
    }
    let p = resolve_party(call, r)?;
    let entries = call
        .tx_ref()
        .travel_history(call.campaign(), &p.id, limit)?;
    Ok(TravelHistory {
        party_id: p.id,
        party_name: p.name,
        elapsed_minutes: p.elapsed_minutes,
        entries,
    })
}
