//! `manage_location`: a graph of places and the ways between them (doors, passages, stairs,
//! ladders, portals, hidden ways), with locks, hidden exits and one-way passages.

use serde::Serialize;

use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::names::name_key;

use crate::model::world::suggestions;
/// The data of this family lives in the model; re-exported so the old paths keep working.
pub use crate::model::world::{Connection, ConnectionType, Lighting, Location, LocationRef};

/// Finds the location named by `r`: by id, else by case-insensitive name. Missing → the closest
/// names; several with that name → the candidates. `field` names the argument in errors.
pub fn resolve_location(call: &Call<'_>, r: LocationRef<'_>, field: &str) -> Result<Location> {
    let campaign = call.campaign();
    let tx = call.tx_ref();
    let given =
        r.id.map(str::trim)
            .filter(|s| !s.is_empty())
            .or(r.name.map(str::trim).filter(|s| !s.is_empty()))
            .ok_or_else(|| {
                EngineError::invalid(field, "name the location by its id or its name".to_string())
            })?;
    if r.id.is_some()
        && let Some(l) = tx.location(campaign, given)?
    {
        return Ok(l);
    }
    let found = tx.locations_named(campaign, given)?;
    crate::error::one_match(
        "location",
        "locationId",
        given,
        found,
        |l| format!("{} ({})", l.name, l.id),
        || {
            let names = tx.location_names(campaign)?;
            let mut s = suggestions(given, &names);
            if s.is_empty() && names.is_empty() {
                return Ok(EngineError::invalid(
                    field,
                    format!(
                        "no location '{given}': this campaign has no locations yet; create one with manage_location operation create"
                    ),
                ));
            }
            if s.is_empty() {
                s = names
                    .iter()
                    .take(5)
                    .map(|(id, n)| format!("{n} ({id})"))
                    .collect();
            }
            Ok(EngineError::NotFound {
                kind: "location",
                given: given.to_string(),
                suggestions: s,
            })
        },
    )
}

/// The fields of a new location, or the changes to one (absent = unchanged).
#[derive(Debug, Clone, Default)]
pub struct LocationPatch {
    /// Name.
    pub name: Option<String>,
    /// Kind of place.
    pub kind: Option<String>,
    /// Description.
    pub description: Option<String>,
    /// Lighting.
    pub lighting: Option<Lighting>,
    /// Terrain.
    pub terrain: Option<String>,
    /// Hazards (replaces).
    pub hazards: Option<Vec<String>>,
    /// Tags (replaces).
    pub tags: Option<Vec<String>>,
    /// Known to the party.
    pub discovered: Option<bool>,
}

/// One exit of a place as seen from it.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Exit {
    /// The connection's id.
    pub connection_id: String,
    /// Where it leads.
    pub to_id: String,
    /// That place's name.
    pub to_name: String,
    /// Door, passage, …
    #[serde(rename = "type")]
    pub kind: ConnectionType,
    /// Locked.
    pub locked: bool,
    /// Lock DC, when locked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lock_dc: Option<i32>,
    /// Key item, when locked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key_item: Option<String>,
    /// Hidden and not yet found (only in the DM's view).
    pub concealed: bool,
    /// Find DC, for hidden ways.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub find_dc: Option<i32>,
    /// "out" (can be taken from here), "in" (one-way, arrives here only).
    pub direction: &'static str,
    /// One-way.
    pub one_way: bool,
    /// Minutes to go through.
    pub travel_minutes: u32,
    /// Its description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
}

/// The exits of `here` from its connections. `known_only` leaves out unfound hidden ways and
/// one-way arrivals (what a party sees).
pub fn exits_of(
    call: &Call<'_>,
    here: &str,
    connections: &[Connection],
    known_only: bool,
) -> Result<Vec<Exit>> {
    let campaign = call.campaign();
    let mut out = Vec::new();
    for c in connections {
        let outgoing = c.exit_from(here).is_some();
        if known_only && (!outgoing || c.concealed()) {
            continue;
        }
        let to_id = c.other_end(here).to_string();
        let to_name = call
            .tx_ref()
            .location(campaign, &to_id)?
            .map(|l| l.name)
            .unwrap_or_else(|| to_id.clone());
        out.push(Exit {
            connection_id: c.id.clone(),
            to_id,
            to_name,
            kind: c.kind,
            locked: c.locked,
            lock_dc: c.locked.then_some(c.lock_dc).flatten(),
            key_item: c.locked.then(|| c.key_item.clone()).flatten(),
            concealed: c.concealed(),
            find_dc: c.hidden.then_some(c.find_dc).flatten(),
            direction: if outgoing { "out" } else { "in" },
            one_way: c.one_way,
            travel_minutes: c.travel_minutes,
            description: c.description.clone(),
        });
    }
    Ok(out)
}

/// A location with all its connections (the DM's view).
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LocationView {
    /// The place.
    pub location: Location,
    /// Every connection touching it, seen from it.
    pub exits: Vec<Exit>,
    /// Parties here, as "Name (id)".
    pub parties_here: Vec<String>,
}

fn view(call: &Call<'_>, location: Location) -> Result<LocationView> {
    let campaign = call.campaign();
    let conns = call.tx_ref().connections_of(campaign, &location.id)?;
    let exits = exits_of(call, &location.id, &conns, false)?;
    let parties_here = call
        .tx_ref()
        .list_parties(campaign)?
        .into_iter()
        .filter(|p| p.location_id.as_deref() == Some(location.id.as_str()))
        .map(|p| format!("{} ({})", p.name, p.id))
        .collect();
    Ok(LocationView {
        location,
        exits,
        parties_here,
    })
}

fn clean_list(v: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for s in v {
        let t = s.trim();
        if !t.is_empty() && !out.iter().any(|o| name_key(o) == name_key(t)) {
            out.push(t.to_string());
        }
    }
    out
}

fn check_name(field: &str, name: &str) -> Result<String> {
    let n = name.trim();
    if n.is_empty() || n.chars().count() > 80 {
        return Err(EngineError::invalid(
            field,
            "a name is 1–80 characters".to_string(),
        ));
    }
    Ok(n.to_string())
}

fn check_text(field: &str, s: Option<String>, max: usize) -> Result<Option<String>> {
    match s {
        Some(s) if s.chars().count() > max => Err(EngineError::invalid(
            field,
            format!("at most {max} characters"),
        )),
        Some(s) if s.trim().is_empty() => Ok(None),
        other => Ok(other.map(|s| s.trim().to_string())),
    }
}

fn apply(l: &mut Location, p: LocationPatch) -> Result<Vec<String>> {
    let mut changed = Vec::new();
    if let Some(n) = p.name {
        l.name = check_name("name", &n)?;
        changed.push("name".to_string());
    }
    if let Some(k) = p.kind {
        let k = k.trim().to_lowercase();
        if k.is_empty() || k.len() > 40 {
            return Err(EngineError::invalid(
                "type",
                "a place type is 1–40 characters, e.g. room, cavern, tavern",
            ));
        }
        l.kind = k;
        changed.push("type".into());
    }
    if p.description.is_some() {
        l.description = check_text("description", p.description, 4000)?;
        changed.push("description".into());
    }
    if let Some(x) = p.lighting {
        l.lighting = x;
        changed.push("lighting".into());
    }
    if p.terrain.is_some() {
        l.terrain = check_text("terrain", p.terrain, 200)?;
        changed.push("terrain".into());
    }
    if let Some(h) = p.hazards {
        l.hazards = clean_list(h);
        changed.push("hazards".into());
    }
    if let Some(t) = p.tags {
        l.tags = clean_list(t);
        changed.push("tags".into());
    }
    if let Some(d) = p.discovered {
        l.discovered = d;
        changed.push("discovered".into());
    }
    Ok(changed)
}

/// Creates a place.
pub fn create_location(call: &mut Call<'_>, patch: LocationPatch) -> Result<LocationView> {
    let name = check_name(
        "name",
        patch
            .name
            .as_deref()
            .ok_or_else(|| EngineError::invalid("name", "a new location needs a name"))?,
    )?;
    let campaign = call.campaign();
    if let Some(same) = call.tx_ref().locations_named(campaign, &name)?.first() {
        return Err(EngineError::Rule(format!(
            "a location named '{}' already exists ({}); choose another name or update it",
            same.name, same.id
        )));
    }
    let id = call.new_id("loc")?;
    let mut l = Location {
        id,
        name,
        kind: "room".into(),
        description: None,
        lighting: Lighting::Bright,
        terrain: None,
        hazards: vec![],
        tags: vec![],
        discovered: false,
    };
    apply(&mut l, patch)?;
    call.tx().put_location(campaign, &l)?;
    call.record_change("location", &l.id, format!("created {}", l.name));
    view(call, l)
}

/// One place with all its connections.
pub fn get_location(call: &mut Call<'_>, r: LocationRef<'_>) -> Result<LocationView> {
    let l = resolve_location(call, r, "locationId")?;
    view(call, l)
}

/// Changes a place's fields.
pub fn update_location(
    call: &mut Call<'_>,
    r: LocationRef<'_>,
    patch: LocationPatch,
) -> Result<LocationView> {
    let mut l = resolve_location(call, r, "locationId")?;
    let campaign = call.campaign();
    if let Some(n) = &patch.name
        && let Some(other) = call
            .tx_ref()
            .locations_named(campaign, n)?
            .into_iter()
            .find(|o| o.id != l.id)
    {
        return Err(EngineError::Rule(format!(
            "another location is named '{}' ({}); choose another name",
            other.name, other.id
        )));
    }
    let changed = apply(&mut l, patch)?;
    if changed.is_empty() {
        return Err(EngineError::invalid(
            "operation",
            "nothing to change: give name, type, description, lighting, terrain, hazards, tags or discovered",
        ));
    }
    call.tx().put_location(campaign, &l)?;
    call.record_change("location", &l.id, format!("updated {}", changed.join(", ")));
    view(call, l)
}

/// What deleting a place affected.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LocationDeletion {
    /// The deleted place's id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// The connections removed with it, in words.
    pub removed_connections: Vec<String>,
    /// Parties that stood there and are now nowhere, as "Name (id)".
    pub unplaced_parties: Vec<String>,
}

/// Deletes a place, its connections, and takes any party standing there off the map.
pub fn delete_location(call: &mut Call<'_>, r: LocationRef<'_>) -> Result<LocationDeletion> {
    let l = resolve_location(call, r, "locationId")?;
    let campaign = call.campaign();
    let conns = call.tx_ref().connections_of(campaign, &l.id)?;
    let mut removed = Vec::new();
    for c in &conns {
        let other = c.other_end(&l.id).to_string();
        let other_name = call
            .tx_ref()
            .location(campaign, &other)?
            .map(|o| o.name)
            .unwrap_or(other);
        call.tx().delete_connection(campaign, &c.id)?;
        call.record_change("connection", &c.id, "deleted with its location");
        removed.push(format!("{} {} to {}", c.id, c.kind.key(), other_name));
    }
    let mut unplaced = Vec::new();
    for mut p in call.tx_ref().list_parties(campaign)? {
        if p.location_id.as_deref() == Some(l.id.as_str()) {
            p.location_id = None;
            call.tx().put_party(campaign, &p)?;
            call.record_change(
                "party",
                &p.id,
                format!("no longer anywhere ({} deleted)", l.name),
            );
            unplaced.push(format!("{} ({})", p.name, p.id));
        }
    }
    call.tx().delete_location(campaign, &l.id)?;
    call.record_change("location", &l.id, format!("deleted {}", l.name));
    Ok(LocationDeletion {
        id: l.id,
        name: l.name,
        removed_connections: removed,
        unplaced_parties: unplaced,
    })
}

/// The properties of a connection made by `link` (absent = default, or unchanged when the two
/// places are already connected).
#[derive(Debug, Clone, Default)]
pub struct LinkSpec {
    /// Kind of connection (default passage).
    pub kind: Option<ConnectionType>,
    /// Only from → to.
    pub one_way: Option<bool>,
    /// Locked.
    pub locked: Option<bool>,
    /// Lock DC.
    pub lock_dc: Option<i32>,
    /// Key item.
    pub key_item: Option<String>,
    /// Hidden.
    pub hidden: Option<bool>,
    /// Find DC.
    pub find_dc: Option<i32>,
    /// Minutes to go through.
    pub travel_minutes: Option<u32>,
    /// Description.
    pub description: Option<String>,
}

/// The answer of `link`.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LinkOutcome {
    /// The connection.
    pub connection: Connection,
    /// The name of its `from` end.
    pub from_name: String,
    /// The name of its `to` end.
    pub to_name: String,
    /// True when an existing connection between the two places was changed.
    pub updated: bool,
}

fn check_dc(field: &str, dc: Option<i32>) -> Result<Option<i32>> {
    match dc {
        Some(d) if !(1..=40).contains(&d) => Err(EngineError::invalid(
            field,
            format!(
                "{d} is out of range; a DC is 1–40 (10 easy, 15 medium, 20 hard, 25 very hard)"
            ),
        )),
        other => Ok(other),
    }
}

/// Connects two places, or changes the connection that already joins them.
pub fn link(
    call: &mut Call<'_>,
    from: LocationRef<'_>,
    to: LocationRef<'_>,
    spec: LinkSpec,
) -> Result<LinkOutcome> {
    let a = resolve_location(call, from, "fromLocationId")?;
    let b = resolve_location(call, to, "toLocationId")?;
    if a.id == b.id {
        return Err(EngineError::invalid(
            "toLocationId",
            "a connection joins two different places",
        ));
    }
    check_dc("lockDC", spec.lock_dc)?;
    check_dc("findDC", spec.find_dc)?;
    if spec.travel_minutes.is_some_and(|m| m > 60 * 24 * 30) {
        return Err(EngineError::invalid(
            "travelMinutes",
            "at most 43200 minutes (30 days)",
        ));
    }
    let campaign = call.campaign();
    let existing = call
        .tx_ref()
        .connections_of(campaign, &a.id)?
        .into_iter()
        .find(|c| c.other_end(&a.id) == b.id);
    let updated = existing.is_some();
    let mut c = match existing {
        Some(c) => c,
        None => Connection {
            id: call.new_id("cn")?,
            from: a.id.clone(),
            to: b.id.clone(),
            kind: ConnectionType::Passage,
            one_way: false,
            locked: false,
            lock_dc: None,
            key_item: None,
            hidden: false,
            find_dc: None,
            found: false,
            travel_minutes: 1,
            description: None,
        },
    };
    c.from = a.id.clone();
    c.to = b.id.clone();
    if let Some(k) = spec.kind {
        c.kind = k;
        if k == ConnectionType::Portal && spec.travel_minutes.is_none() && !updated {
            c.travel_minutes = 0;
        }
    }
    if let Some(o) = spec.one_way {
        c.one_way = o;
    }
    if let Some(l) = spec.locked {
        c.locked = l;
    }
    if spec.lock_dc.is_some() || spec.key_item.is_some() {
        c.locked = spec.locked.unwrap_or(true);
    }
    if spec.lock_dc.is_some() {
        c.lock_dc = spec.lock_dc;
    }
    if let Some(k) = spec.key_item {
        c.key_item = Some(k.trim().to_string()).filter(|k| !k.is_empty());
    }
    if c.locked && c.lock_dc.is_none() {
        c.lock_dc = Some(Connection::DEFAULT_LOCK_DC);
    }
    if let Some(h) = spec.hidden {
        c.hidden = h;
        if !h {
            c.found = false;
        }
    }
    if spec.find_dc.is_some() || c.kind == ConnectionType::Hidden {
        c.hidden = spec.hidden.unwrap_or(true);
    }
    if spec.find_dc.is_some() {
        c.find_dc = spec.find_dc;
    }
    if c.hidden && c.find_dc.is_none() {
        c.find_dc = Some(Connection::DEFAULT_FIND_DC);
    }
    if let Some(m) = spec.travel_minutes {
        c.travel_minutes = m;
    }
    if spec.description.is_some() {
        c.description = check_text("description", spec.description, 1000)?;
    }
    call.tx().put_connection(campaign, &c)?;
    call.record_change(
        "connection",
        &c.id,
        format!(
            "{} {} {} {} ({})",
            if updated { "updated" } else { "linked" },
            a.name,
            if c.one_way { "→" } else { "↔" },
            b.name,
            c.kind.key()
        ),
    );
    Ok(LinkOutcome {
        connection: c,
        from_name: a.name,
        to_name: b.name,
        updated,
    })
}

/// What `unlink` removed.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct UnlinkOutcome {
    /// The removed connection.
    pub connection: Connection,
    /// Its `from` end's name.
    pub from_name: String,
    /// Its `to` end's name.
    pub to_name: String,
}

/// Removes the connection between two places (or the one given by id).
pub fn unlink(
    call: &mut Call<'_>,
    connection_id: Option<&str>,
    from: LocationRef<'_>,
    to: LocationRef<'_>,
) -> Result<UnlinkOutcome> {
    let campaign = call.campaign();
    let c = if let Some(id) = connection_id.map(str::trim).filter(|s| !s.is_empty()) {
        call.tx_ref().connection(campaign, id)?.ok_or_else(|| {
            EngineError::invalid(
                "connectionId",
                format!("no connection '{id}'; see the exits of manage_location operation get"),
            )
        })?
    } else {
        let a = resolve_location(call, from, "fromLocationId")?;
        let b = resolve_location(call, to, "toLocationId")?;
        call.tx_ref()
            .connections_of(campaign, &a.id)?
            .into_iter()
            .find(|c| c.other_end(&a.id) == b.id)
            .ok_or_else(|| {
                EngineError::Rule(format!(
                    "{} and {} are not connected; nothing to unlink",
                    a.name, b.name
                ))
            })?
    };
    let name = |id: &str| -> Result<String> {
        Ok(call
            .tx_ref()
            .location(campaign, id)?
            .map(|l| l.name)
            .unwrap_or_else(|| id.to_string()))
    };
    let (from_name, to_name) = (name(&c.from)?, name(&c.to)?);
    call.tx().delete_connection(campaign, &c.id)?;
    call.record_change(
        "connection",
        &c.id,
        format!("unlinked {from_name} and {to_name}"),
    );
    Ok(UnlinkOutcome {
        connection: c,
        from_name,
        to_name,
    })
}

/// One line of a location list.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LocationSummary {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Kind of place.
    #[serde(rename = "type")]
    pub kind: String,
    /// Known to the party.
    pub discovered: bool,
    /// How many connections touch it.
    pub connections: usize,
}

/// A page of locations.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LocationPage {
    /// This page.
    pub locations: Vec<LocationSummary>,
    /// How many exist.
    pub total: u64,
    /// Page number, from 1.
    pub page: usize,
    /// Page size.
    pub per_page: usize,
    /// Whether more pages follow.
    pub has_more: bool,
}

/// Lists places by name, paged.
pub fn list_locations(call: &mut Call<'_>, page: usize, per_page: usize) -> Result<LocationPage> {
    if !(1..=100).contains(&per_page) {
        return Err(EngineError::invalid("perPage", "a page holds 1–100"));
    }
    if page == 0 {
        return Err(EngineError::invalid("page", "pages count from 1"));
    }
    let campaign = call.campaign();
    let (list, total) =
        call.tx_ref()
            .list_locations(campaign, per_page, (page - 1).saturating_mul(per_page))?;
    let mut locations = Vec::with_capacity(list.len());
    for l in list {
        let n = call.tx_ref().connections_of(campaign, &l.id)?.len();
        locations.push(LocationSummary {
            id: l.id,
            name: l.name,
            kind: l.kind,
            discovered: l.discovered,
            connections: n,
        });
    }
    let has_more = (page * per_page) < total as usize;
    Ok(LocationPage {
        locations,
        total,
        page,
        per_page,
        has_more,
    })
}
