//! `get_session_context`: one read that tells an agent where the game stands — the active party
//! and its members' vitals, where it is and the exits it knows, the active encounter, the most
//! important and the most recent notes, and the last events. Sections and detail are chosen to
//! fit a token budget.

use serde::Serialize;

use crate::engine::Call;
use crate::error::Result;
use crate::model::event::Event;
use crate::model::notes::{Importance, Note, NoteFilter, NoteOrder};
use crate::model::party::PartyRef;
use crate::model::world::Lighting;
use crate::party::{MemberView, party_view, resolve_party};
use crate::travel::{ExitSeen, status_of};

/// How much to say.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Detail {
    /// The essentials: a few notes and events, short texts.
    Brief,
    /// The default.
    #[default]
    Compact,
    /// More of everything, full texts.
    Detailed,
}

impl Detail {
    fn notes(self) -> usize {
        match self {
            Detail::Brief => 3,
            Detail::Compact => 5,
            Detail::Detailed => 10,
        }
    }

    fn events(self) -> usize {
        match self {
            Detail::Brief => 3,
            Detail::Compact => 6,
            Detail::Detailed => 15,
        }
    }

    fn text_limit(self) -> Option<usize> {
        match self {
            Detail::Brief => Some(100),
            Detail::Compact => Some(240),
            Detail::Detailed => None,
        }
    }
}

/// Which sections to include.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sections {
    /// The party and its members.
    pub party: bool,
    /// The party's location and known exits.
    pub location: bool,
    /// The active encounter.
    pub encounter: bool,
    /// Important and recent notes.
    pub notes: bool,
    /// The last events.
    pub events: bool,
}

impl Default for Sections {
    fn default() -> Self {
        Self {
            party: true,
            location: true,
            encounter: true,
            notes: true,
            events: true,
        }
    }
}

/// What to gather.
#[derive(Debug, Clone, Default)]
pub struct ContextRequest<'a> {
    /// Which party (default: the active one).
    pub party: PartyRef<'a>,
    /// Sections.
    pub sections: Sections,
    /// Detail.
    pub detail: Detail,
}

/// The party section.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PartyContext {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// The leader's name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub leader: Option<String>,
    /// Minutes travelled.
    pub elapsed_minutes: u64,
    /// Members with HP, AC, status and conditions.
    pub members: Vec<MemberView>,
    /// Other parties, as "Name (id) at Place" (detailed only).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub other_parties: Vec<String>,
}

/// The location section.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LocationContext {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Kind of place.
    #[serde(rename = "type")]
    pub kind: String,
    /// Description (shortened unless detailed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Lighting.
    pub lighting: Lighting,
    /// Terrain.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub terrain: Option<String>,
    /// Hazards.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub hazards: Vec<String>,
    /// Exits the party knows.
    pub exits: Vec<ExitSeen>,
    /// Hidden ways not yet found (DM knowledge).
    pub unfound_hidden: usize,
}

/// The encounter section: the active encounter, compactly.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EncounterContext {
    /// Whether an encounter is running.
    pub active: bool,
    /// One line ("Goblin ambush (enc1), round 2, Aria's turn").
    pub summary: String,
    /// Encounter id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Round.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub round: Option<u32>,
    /// Whose turn.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub turn: Option<String>,
    /// One line per combatant in initiative order: "Goblin 1 3/7 HP (prone)".
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub combatants: Vec<String>,
}

/// The active encounter (the most recent, when several run), compactly.
fn encounter_context(call: &Call<'_>) -> Result<EncounterContext> {
    let active = call.tx_ref().list_encounters(call.campaign(), true)?;
    let Some(e) = active.first() else {
        return Ok(EncounterContext {
            active: false,
            summary: "no active encounter".into(),
            id: None,
            round: None,
            turn: None,
            combatants: Vec::new(),
        });
    };
    let turn = e.current().map(|c| c.name.clone());
    let mut combatants = Vec::new();
    for cb in e.order.iter().filter(|c| !c.removed) {
        let Some(c) = call.tx_ref().character(call.campaign(), &cb.character_id)? else {
            continue;
        };
        let max = c.effective().max_hp.value.max(1);
        let mut line = format!("{} {}/{max} HP", c.name, c.hp);
        let mut tags: Vec<String> = c
            .conditions
            .iter()
            .map(|x| x.condition.to_string())
            .collect();
        if c.status() != "ok" && c.status() != "unconscious" {
            tags.insert(0, c.status().to_string());
        }
        if !tags.is_empty() {
            line.push_str(&format!(" ({})", tags.join(", ")));
        }
        combatants.push(line);
    }
    let more = if active.len() > 1 {
        format!("; {} other encounter(s) active", active.len() - 1)
    } else {
        String::new()
    };
    Ok(EncounterContext {
        active: true,
        summary: format!(
            "{} ({}), round {}, {}'s turn{more}",
            e.name,
            e.id,
            e.round,
            turn.as_deref().unwrap_or("nobody")
        ),
        id: Some(e.id.clone()),
        round: Some(e.round),
        turn,
        combatants,
    })
}

/// A note as listed in the context.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NoteLine {
    /// Id.
    pub id: String,
    /// Type.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// Importance.
    pub importance: Importance,
    /// DM-only or player.
    pub visibility: &'static str,
    /// Content (shortened unless detailed).
    pub content: String,
    /// Tags.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
}

/// The notes section.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NotesContext {
    /// Most important first (high and critical).
    pub important: Vec<NoteLine>,
    /// Most recent first, not repeating the important ones.
    pub recent: Vec<NoteLine>,
    /// How many notes the campaign holds.
    pub total: u64,
}

/// An event as listed in the context.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EventLine {
    /// Position in the log.
    pub seq: i64,
    /// When (RFC 3339, UTC).
    pub at: String,
    /// The tool.
    pub tool: String,
    /// What changed.
    pub changes: Vec<String>,
}

/// Where the game stands.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionContext {
    /// The detail level used.
    pub detail: Detail,
    /// The in-game date and time.
    pub clock: crate::clock::ClockView,
    /// Active quests: "qu1 Rats in the cellar (1/3 objectives)".
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub quests: Vec<String>,
    /// The party (absent when excluded or there is none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub party: Option<PartyContext>,
    /// Where the party is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<LocationContext>,
    /// The active encounter.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub encounter: Option<EncounterContext>,
    /// Notes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notes: Option<NotesContext>,
    /// The last events, newest first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub events: Option<Vec<EventLine>>,
    /// What is missing and how to set it up.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub hints: Vec<String>,
}

fn shorten(s: &str, limit: Option<usize>) -> String {
    match limit {
        Some(n) if s.chars().count() > n => {
            let cut: String = s.chars().take(n.saturating_sub(1)).collect();
            format!("{}…", cut.trim_end())
        }
        _ => s.to_string(),
    }
}

fn note_line(n: &Note, detail: Detail) -> NoteLine {
    NoteLine {
        id: n.id.clone(),
        kind: n.kind.key(),
        importance: n.importance,
        visibility: n.visibility.key(),
        content: shorten(&n.content, detail.text_limit()),
        tags: if detail == Detail::Brief {
            vec![]
        } else {
            n.tags.clone()
        },
    }
}

fn event_line(e: &Event, detail: Detail) -> EventLine {
    let mut changes: Vec<String> = e
        .changes
        .iter()
        .map(|c| format!("{} {}: {}", c.entity, c.id, c.what))
        .collect();
    if detail == Detail::Brief {
        changes.truncate(1);
    } else if detail == Detail::Compact {
        changes.truncate(4);
    }
    EventLine {
        seq: e.seq,
        at: e.at.clone(),
        tool: e.tool.clone(),
        changes,
    }
}

/// Gathers the session context. Read-only.
pub fn session_context(call: &mut Call<'_>, req: &ContextRequest<'_>) -> Result<SessionContext> {
    let campaign = call.campaign();
    let d = req.detail;
    let mut hints = Vec::new();
    let named = req.party.id.is_some() || req.party.name.is_some();
    let party = match resolve_party(call, req.party) {
        Ok(p) => Some(p),
        Err(e) if named => return Err(e),
        Err(_) => None,
    };
    let quests = crate::memory::quests::list(call, Some(crate::memory::QuestStatus::Active))?
        .iter()
        .map(|q| {
            let (done, total) = q.progress();
            format!("{} {} ({done}/{total} objectives)", q.id, q.title)
        })
        .collect();
    let mut ctx = SessionContext {
        detail: d,
        clock: crate::clock::view(call)?,
        quests,
        party: None,
        location: None,
        encounter: None,
        notes: None,
        events: None,
        hints: vec![],
    };
    match &party {
        None => {
            let n = call.tx_ref().list_parties(campaign)?.len();
            hints.push(if n == 0 {
                "no party yet: create one with manage_party (operation create) and add members"
                    .to_string()
            } else {
                "no active party: choose one with manage_party operation set_active".to_string()
            });
        }
        Some(p) => {
            if req.sections.party {
                let v = party_view(call, p)?;
                let leader = v.members.iter().find(|m| m.leader).map(|m| m.name.clone());
                let other_parties = if d == Detail::Detailed {
                    let mut out = Vec::new();
                    for o in call.tx_ref().list_parties(campaign)? {
                        if o.id == p.id {
                            continue;
                        }
                        let at = match &o.location_id {
                            Some(l) => call
                                .tx_ref()
                                .location(campaign, l)?
                                .map(|l| format!(" at {}", l.name))
                                .unwrap_or_default(),
                            None => String::new(),
                        };
                        out.push(format!("{} ({}){at}", o.name, o.id));
                    }
                    out
                } else {
                    vec![]
                };
                if v.members.is_empty() {
                    hints.push(format!(
                        "{} has no members: manage_party operation add_member",
                        p.name
                    ));
                }
                ctx.party = Some(PartyContext {
                    id: v.id,
                    name: v.name,
                    leader,
                    elapsed_minutes: v.elapsed_minutes,
                    members: v.members,
                    other_parties,
                });
            }
            if req.sections.location {
                let st = status_of(call, p)?;
                match st.location {
                    Some(l) => {
                        ctx.location = Some(LocationContext {
                            id: l.id,
                            name: l.name,
                            kind: l.kind,
                            description: l
                                .description
                                .as_deref()
                                .filter(|_| d != Detail::Brief)
                                .map(|s| shorten(s, d.text_limit())),
                            lighting: l.lighting,
                            terrain: l.terrain,
                            hazards: l.hazards,
                            exits: st.exits,
                            unfound_hidden: st.unfound_hidden,
                        })
                    }
                    None => hints.push(format!(
                        "{} is nowhere: place it with manage_party operation update and locationId",
                        p.name
                    )),
                }
            }
        }
    }
    if req.sections.encounter {
        ctx.encounter = Some(encounter_context(call)?);
    }
    if req.sections.notes {
        let n = d.notes();
        let important_filter = NoteFilter {
            min_importance: Some(Importance::High),
            ..Default::default()
        };
        let (important, _) =
            call.tx_ref()
                .list_notes(campaign, &important_filter, NoteOrder::Importance, n, 0)?;
        let (recent, total) = call.tx_ref().list_notes(
            campaign,
            &NoteFilter::default(),
            NoteOrder::Recent,
            n + important.len(),
            0,
        )?;
        let recent: Vec<NoteLine> = recent
            .iter()
            .filter(|r| !important.iter().any(|i| i.id == r.id))
            .take(n)
            .map(|x| note_line(x, d))
            .collect();
        ctx.notes = Some(NotesContext {
            important: important.iter().map(|x| note_line(x, d)).collect(),
            recent,
            total,
        });
    }
    if req.sections.events {
        let events = call.tx_ref().recent_events(campaign, d.events())?;
        ctx.events = Some(events.iter().map(|e| event_line(e, d)).collect());
    }
    ctx.hints = hints;
    Ok(ctx)
}
