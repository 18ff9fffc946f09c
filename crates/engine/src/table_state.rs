//! The live table view's one document: the battle map, initiative, whose turn, HP, conditions,
//! concentration, the last events and the party, as the DM or one player may see them.
//!
//! Read-only: built from the stored encounter and party. A player's document goes through the
//! same filters as every other player-facing read ([`crate::table`]): hidden foes, hidden props,
//! exact HP, AC and concentration of creatures outside the party, and the HP/AC numbers in log
//! lines never reach it. The server only serialises it; the page draws it.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;
use tabletop_grid::{BattleMap, DoorState, Position, Terrain};

use crate::combat::render::tokens;
use crate::combat::view::{CombatantView, Verbosity, view};
use crate::combat::{Encounter, EncounterStatus, Side};
use crate::engine::Call;
use crate::error::Result;
use crate::party::{Party, party_view};
use crate::table::{self, Viewer, as_heard, hp_state};

/// How many of the encounter's log lines the document carries.
pub const EVENTS_SHOWN: usize = 12;

/// The whole table as one viewer sees it.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TableState {
    /// The campaign's change counter (the sequence number of its last event): a client that
    /// saw this number has seen this state.
    pub version: i64,
    /// "dm" or "player".
    pub role: &'static str,
    /// The player's character id (players only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub you: Option<String>,
    /// The fight on the table, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub encounter: Option<TableEncounter>,
    /// The party and its hit points.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub party: Option<TableParty>,
}

/// A fight as the table sees it.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TableEncounter {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// "active" or "ended".
    pub status: EncounterStatus,
    /// Round.
    pub round: u32,
    /// Whose turn: name ("someone unseen" for a hidden creature, for players).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub turn: Option<String>,
    /// Whose turn: id (absent when unseen).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub turn_id: Option<String>,
    /// The battle map.
    pub map: TableMap,
    /// Combatants in initiative order.
    pub combatants: Vec<TableToken>,
    /// The last log lines, oldest first.
    pub events: Vec<TableEvent>,
}

/// One line of the fight's log.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TableEvent {
    /// Round.
    pub round: u32,
    /// What happened.
    pub text: String,
}

/// The map: terrain row by row, doors and props.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TableMap {
    /// Width in squares.
    pub width: u32,
    /// Height in squares.
    pub height: u32,
    /// One string per row, one character per square: `.` open, `#` wall, `O` obstacle, `=` low
    /// wall, `:` difficult, `~` water, `!` hazard.
    pub rows: Vec<String>,
    /// The hazards by square.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub hazards: Vec<TableHazard>,
    /// Doors.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub doors: Vec<TableDoor>,
    /// Props the viewer can see.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub props: Vec<TableProp>,
}

/// A hazard square.
#[derive(Debug, Clone, Serialize)]
pub struct TableHazard {
    /// Column.
    pub x: i32,
    /// Row.
    pub y: i32,
    /// Its name ("burning oil").
    pub name: String,
}

/// A door.
#[derive(Debug, Clone, Serialize)]
pub struct TableDoor {
    /// Column.
    pub x: i32,
    /// Row.
    pub y: i32,
    /// Open, closed or locked.
    pub state: DoorState,
}

/// A prop on the map.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TableProp {
    /// Name.
    pub name: String,
    /// Top-left column.
    pub x: i32,
    /// Top-left row.
    pub y: i32,
    /// Width in squares.
    pub w: i32,
    /// Height in squares.
    pub h: i32,
    /// Whether it blocks sight.
    pub blocks_sight: bool,
    /// Whether it blocks movement.
    pub blocks_movement: bool,
}

/// A combatant: its place in the order, its token on the map, its vitals as the viewer may see
/// them.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TableToken {
    /// Character id.
    pub id: String,
    /// Name.
    pub name: String,
    /// One or two characters drawn on the token ("G1").
    pub token: String,
    /// Side.
    pub side: Side,
    /// Initiative total.
    pub initiative: i32,
    /// Whether it is its turn.
    pub current: bool,
    /// ok, unconscious, dying, stable, dead or removed.
    pub status: String,
    /// "unhurt", "hurt", "bloodied" or "down": always set.
    pub hp_state: &'static str,
    /// Exact HP (DM, or the viewer's party).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hp: Option<u32>,
    /// Exact max HP (DM, or the viewer's party).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_hp: Option<u32>,
    /// Temporary HP (DM, or the viewer's party).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub temp_hp: Option<u32>,
    /// Conditions and combat states.
    pub conditions: Vec<String>,
    /// The spell it concentrates on (DM, or the viewer's party).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub concentrating: Option<String>,
    /// Where it stands (absent when off the map).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub position: Option<Position>,
    /// Squares on a side (1 up to medium, 2 large, 3 huge, 4 gargantuan).
    pub squares: i32,
}

/// The party's hit points.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TableParty {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Members.
    pub members: Vec<TableMember>,
}

/// One party member's vitals.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TableMember {
    /// Character id.
    pub id: String,
    /// Name.
    pub name: String,
    /// HP.
    pub hp: u32,
    /// Effective max HP.
    pub max_hp: i32,
    /// Temporary HP.
    pub temp_hp: u32,
    /// ok, unconscious, dying, stable or dead.
    pub status: &'static str,
    /// Conditions.
    pub conditions: Vec<String>,
}

/// The campaign's change counter: the sequence number of its last event (0 before any). Every
/// committed write records one event, so the number moves exactly when the state may have.
pub fn version(call: &Call<'_>) -> Result<i64> {
    Ok(call
        .tx_ref()
        .recent_events(call.campaign(), 1)?
        .first()
        .map_or(0, |e| e.seq))
}

/// The table for the DM (`viewer` `None`) or for one player.
pub fn table_state(call: &Call<'_>, viewer: Option<&Viewer>) -> Result<TableState> {
    let version = version(call)?;
    let campaign = call.campaign();
    let (encounter, party) = match viewer {
        None => {
            let enc = call
                .tx_ref()
                .list_encounters(campaign, true)?
                .into_iter()
                .next();
            let encounter = match enc {
                Some(e) => Some(dm_encounter(call, &e)?),
                None => None,
            };
            let parties = call.tx_ref().list_parties(campaign)?;
            let party = parties
                .iter()
                .find(|p| p.active)
                .or_else(|| parties.first())
                .cloned();
            (encounter, party)
        }
        Some(v) => {
            let party_ids = table::party_ids(call, v)?;
            let enc = call
                .tx_ref()
                .list_encounters(campaign, true)?
                .into_iter()
                .find(|e| {
                    e.order
                        .iter()
                        .any(|c| c.character_id == v.character_id && !c.removed)
                });
            let encounter = match enc {
                Some(e) => Some(player_encounter(call, v, &e, &party_ids)?),
                None => None,
            };
            let party = match call
                .tx_ref()
                .party_of_character(campaign, &v.character_id)?
            {
                Some(pid) => call.tx_ref().party(campaign, &pid)?,
                None => None,
            };
            (encounter, party)
        }
    };
    Ok(TableState {
        version,
        role: if viewer.is_some() { "player" } else { "dm" },
        you: viewer.map(|v| v.character_id.clone()),
        encounter,
        party: match party {
            Some(p) => Some(table_party(call, &p)?),
            None => None,
        },
    })
}

fn table_party(call: &Call<'_>, p: &Party) -> Result<TableParty> {
    let v = party_view(call, p)?;
    Ok(TableParty {
        id: v.id,
        name: v.name,
        members: v
            .members
            .into_iter()
            .map(|m| TableMember {
                id: m.character_id,
                name: m.name,
                hp: m.hp,
                max_hp: m.max_hp,
                temp_hp: m.temp_hp,
                status: m.status,
                conditions: m.conditions,
            })
            .collect(),
    })
}

fn dm_encounter(call: &Call<'_>, e: &Encounter) -> Result<TableEncounter> {
    let v = view(call, e, Verbosity::Standard)?;
    let labels = tokens(e);
    let combatants = v
        .combatants
        .into_iter()
        .filter(|c| c.status != "removed")
        .map(|c| token_of(e, &labels, c))
        .collect();
    let events = last_lines(e, |t| Some(t.to_string()));
    Ok(TableEncounter {
        id: v.id,
        name: v.name,
        status: v.status,
        round: v.round,
        turn: v.turn,
        turn_id: v.turn_id,
        map: map_of(&e.map, true),
        combatants,
        events,
    })
}

fn player_encounter(
    call: &Call<'_>,
    viewer: &Viewer,
    e: &Encounter,
    party: &BTreeSet<String>,
) -> Result<TableEncounter> {
    let v = table::encounter(call, viewer, Some(&e.id))?;
    let seen: BTreeSet<&str> = v.combatants.iter().map(|c| c.id.as_str()).collect();
    // Names of creatures the viewer does not see: a log line naming one is left out.
    let unseen: Vec<&str> = e
        .order
        .iter()
        .filter(|c| !seen.contains(c.character_id.as_str()) && !party.contains(&c.character_id))
        .map(|c| c.name.as_str())
        .collect();
    let labels = tokens(e);
    let combatants = v
        .combatants
        .into_iter()
        .map(|c| token_of(e, &labels, c))
        .collect();
    let events = last_lines(e, |t| {
        (!unseen.iter().any(|n| t.contains(n))).then(|| as_heard(t))
    });
    Ok(TableEncounter {
        id: v.id,
        name: v.name,
        status: v.status,
        round: v.round,
        turn: v.turn,
        turn_id: v.turn_id,
        map: map_of(&e.map, false),
        combatants,
        events,
    })
}

fn last_lines(e: &Encounter, keep: impl Fn(&str) -> Option<String>) -> Vec<TableEvent> {
    let mut out: Vec<TableEvent> = e
        .log
        .iter()
        .rev()
        .filter_map(|l| {
            keep(&l.text).map(|text| TableEvent {
                round: l.round,
                text,
            })
        })
        .take(EVENTS_SHOWN)
        .collect();
    out.reverse();
    out
}

fn token_of(e: &Encounter, labels: &BTreeMap<String, String>, c: CombatantView) -> TableToken {
    let state = c
        .hp_state
        .unwrap_or_else(|| hp_state(c.hp.unwrap_or(0), c.max_hp.unwrap_or(1)));
    let squares = e
        .map
        .creature(&c.id)
        .map_or(1, |m| tabletop_grid::size_squares(m.size));
    TableToken {
        token: labels.get(&c.id).cloned().unwrap_or_else(|| "?".into()),
        side: c.side,
        initiative: c.initiative,
        current: c.current,
        status: c.status,
        hp_state: state,
        hp: c.hp,
        max_hp: c.max_hp,
        temp_hp: c.temp_hp,
        conditions: c.conditions,
        concentrating: c.concentrating,
        position: c.position,
        squares,
        id: c.id,
        name: c.name,
    }
}

fn map_of(m: &BattleMap, dm: bool) -> TableMap {
    let mut rows = Vec::with_capacity(m.height() as usize);
    let mut hazards = Vec::new();
    for y in 0..m.height() as i32 {
        let mut row = String::with_capacity(m.width() as usize);
        for x in 0..m.width() as i32 {
            let ch = match m.terrain(Position::new(x, y)) {
                Ok(Terrain::Open) | Err(_) => '.',
                Ok(Terrain::Wall) => '#',
                Ok(Terrain::Obstacle) => 'O',
                Ok(Terrain::LowWall { .. }) => '=',
                Ok(Terrain::Difficult) => ':',
                Ok(Terrain::Water) => '~',
                Ok(Terrain::Hazard { name, .. }) => {
                    hazards.push(TableHazard {
                        x,
                        y,
                        name: name.clone(),
                    });
                    '!'
                }
            };
            row.push(ch);
        }
        rows.push(row);
    }
    let doors = m
        .doors()
        .map(|(p, state)| TableDoor {
            x: p.x,
            y: p.y,
            state,
        })
        .collect();
    let props = m
        .props()
        // A hidden prop (a trap not yet found) is the DM's to see.
        .filter(|p| dm || p.hidden_dc.is_none())
        .map(|p| {
            let (w, h) = p.footprint.squares().unwrap_or((1, 1));
            TableProp {
                name: p.name.clone(),
                x: p.position.x,
                y: p.position.y,
                w,
                h,
                blocks_sight: p.blocks_sight,
                blocks_movement: p.blocks_movement,
            }
        })
        .collect();
    TableMap {
        width: m.width(),
        height: m.height(),
        rows,
        hazards,
        doors,
        props,
    }
}
