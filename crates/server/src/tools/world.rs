//! World tools: manage_location, move_party, manage_party. Notes and the session context are in
//! [`super::session`].

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Map, Value};
use tabletop_engine::character::CharacterRef;
use tabletop_engine::party::{self, PartyDraft, PartyPatch, PartyRef, PartyRole};
use tabletop_engine::travel::{self, MoveRequest, Unlock};
use tabletop_engine::world::{
    self, ConnectionType, Lighting, LinkSpec, LocationPatch, LocationRef,
};
use tabletop_engine::{Call, EngineError};
use tabletop_rules::Skill;

use super::{Access, EngineT, check_fields, invoke, invoke_batch};
use crate::arg_enum;
use crate::render_world as render;
use crate::reply::{Reply, ToolError};
use crate::schema::{input_schema, with_batch};
use crate::spec::{Category, ToolSpec};

fn opt_ref<'a>(id: &'a Option<String>, name: &'a Option<String>) -> Option<CharacterRef<'a>> {
    (id.is_some() || name.is_some()).then(|| CharacterRef::new(id.as_deref(), name.as_deref()))
}

// ---------------------------------------------------------------------------------------------
// manage_location

arg_enum! {
    /// manage_location operations.
    pub enum LocationOp {
        Create = "create",
        Get = "get",
        Update = "update",
        Delete = "delete",
        Link = "link",
        Unlink = "unlink",
        List = "list",
    }
}

arg_enum! {
    /// Light level.
    pub enum LightingArg { Bright = "bright", Dim = "dim", Dark = "dark" }
}

arg_enum! {
    /// Kind of connection.
    pub enum ConnectionTypeArg {
        Door = "door",
        Passage = "passage",
        Stairs = "stairs",
        Ladder = "ladder",
        Portal = "portal",
        Hidden = "hidden",
    }
}

/// Arguments of `manage_location`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ManageLocationArgs {
    /// What to do.
    pub operation: LocationOp,
    /// Place id or name.
    pub location_id: Option<String>,
    /// create: name; else finds the place (update with locationId: new name).
    pub name: Option<String>,
    /// Kind of place: room, cavern, tavern…
    #[serde(rename = "type")]
    pub kind: Option<String>,
    /// Of the place (link: of the way).
    pub description: Option<String>,
    /// Light.
    pub lighting: Option<LightingArg>,
    /// Terrain.
    pub terrain: Option<String>,
    /// Hazards.
    pub hazards: Option<Vec<String>>,
    /// Tags.
    pub tags: Option<Vec<String>>,
    /// Known to the party.
    pub discovered: Option<bool>,
    /// link/unlink: start (id or name).
    pub from_location_id: Option<String>,
    /// link/unlink: end.
    pub to_location_id: Option<String>,
    /// unlink: by id.
    pub connection_id: Option<String>,
    /// link: default passage.
    pub connection_type: Option<ConnectionTypeArg>,
    /// link: locked.
    pub locked: Option<bool>,
    /// link: DC to pick/break (default 15).
    #[serde(rename = "lockDC")]
    pub lock_dc: Option<i32>,
    /// link: item that unlocks.
    pub key_item: Option<String>,
    /// link: must be found first.
    pub hidden: Option<bool>,
    /// link: DC to find (default 15).
    #[serde(rename = "findDC")]
    pub find_dc: Option<i32>,
    /// link: from → to only.
    pub one_way: Option<bool>,
    /// link: minutes (default 1).
    pub travel_minutes: Option<u32>,
    /// list: page (50 per page).
    pub page: Option<usize>,
}

const PLACE_FIELDS: &[&str] = &[
    "name",
    "type",
    "description",
    "lighting",
    "terrain",
    "hazards",
    "tags",
    "discovered",
];

const LINK_FIELDS: &[&str] = &[
    "fromLocationId",
    "toLocationId",
    "connectionType",
    "locked",
    "lockDC",
    "keyItem",
    "hidden",
    "findDC",
    "oneWay",
    "travelMinutes",
    "description",
];

fn location_fields() -> Vec<(&'static str, Vec<&'static str>)> {
    let mut update = vec!["locationId"];
    update.extend_from_slice(PLACE_FIELDS);
    vec![
        ("create", PLACE_FIELDS.to_vec()),
        ("get", vec!["locationId", "name"]),
        ("update", update),
        ("delete", vec!["locationId", "name"]),
        ("link", LINK_FIELDS.to_vec()),
        (
            "unlink",
            vec!["fromLocationId", "toLocationId", "connectionId"],
        ),
        ("list", vec!["page"]),
    ]
}

fn lighting(l: LightingArg) -> Lighting {
    match l {
        LightingArg::Bright => Lighting::Bright,
        LightingArg::Dim => Lighting::Dim,
        LightingArg::Dark => Lighting::Dark,
    }
}

fn connection_type(c: ConnectionTypeArg) -> ConnectionType {
    match c {
        ConnectionTypeArg::Door => ConnectionType::Door,
        ConnectionTypeArg::Passage => ConnectionType::Passage,
        ConnectionTypeArg::Stairs => ConnectionType::Stairs,
        ConnectionTypeArg::Ladder => ConnectionType::Ladder,
        ConnectionTypeArg::Portal => ConnectionType::Portal,
        ConnectionTypeArg::Hidden => ConnectionType::Hidden,
    }
}

fn run_location(call: &mut Call<'_>, a: ManageLocationArgs) -> Result<Reply, EngineError> {
    let place_ref = LocationRef::new(a.location_id.as_deref(), a.name.as_deref());
    let need_place = |r: LocationRef<'_>| {
        if r.is_given() {
            Ok(())
        } else {
            Err(EngineError::invalid(
                "locationId",
                "name the place: locationId or name",
            ))
        }
    };
    let patch = |a: &ManageLocationArgs, with_name: bool| LocationPatch {
        name: if with_name { a.name.clone() } else { None },
        kind: a.kind.clone(),
        description: a.description.clone(),
        lighting: a.lighting.map(lighting),
        terrain: a.terrain.clone(),
        hazards: a.hazards.clone(),
        tags: a.tags.clone(),
        discovered: a.discovered,
    };
    match a.operation {
        LocationOp::Create => {
            let out = world::create_location(call, patch(&a, true))?;
            Ok(Reply::new(
                format!("Created {}", render::location(&out)),
                &out,
            ))
        }
        LocationOp::Get => {
            need_place(place_ref)?;
            let out = world::get_location(call, place_ref)?;
            Ok(Reply::new(render::location(&out), &out))
        }
        LocationOp::Update => {
            // With locationId, name is the new name; without, it finds the place.
            let (r, rename) = match &a.location_id {
                Some(id) => (LocationRef::new(Some(id), None), true),
                None => (LocationRef::new(None, a.name.as_deref()), false),
            };
            need_place(r)?;
            let out = world::update_location(call, r, patch(&a, rename))?;
            Ok(Reply::new(
                format!("Updated {}", render::location(&out)),
                &out,
            ))
        }
        LocationOp::Delete => {
            need_place(place_ref)?;
            let out = world::delete_location(call, place_ref)?;
            Ok(Reply::new(render::location_deletion(&out), &out))
        }
        LocationOp::Link => {
            let from = LocationRef::either(a.from_location_id.as_deref().unwrap_or(""));
            let to = LocationRef::either(a.to_location_id.as_deref().unwrap_or(""));
            let out = world::link(
                call,
                from,
                to,
                LinkSpec {
                    kind: a.connection_type.map(connection_type),
                    one_way: a.one_way,
                    locked: a.locked,
                    lock_dc: a.lock_dc,
                    key_item: a.key_item.clone(),
                    hidden: a.hidden,
                    find_dc: a.find_dc,
                    travel_minutes: a.travel_minutes,
                    description: a.description.clone(),
                },
            )?;
            Ok(Reply::new(render::link(&out), &out))
        }
        LocationOp::Unlink => {
            let from = LocationRef::either(a.from_location_id.as_deref().unwrap_or(""));
            let to = LocationRef::either(a.to_location_id.as_deref().unwrap_or(""));
            let out = world::unlink(call, a.connection_id.as_deref(), from, to)?;
            Ok(Reply::new(
                format!(
                    "Unlinked {} ({} {} {}).",
                    out.connection.id,
                    out.from_name,
                    out.connection.kind.key(),
                    out.to_name
                ),
                &out,
            ))
        }
        LocationOp::List => {
            let out = world::list_locations(call, a.page.unwrap_or(1), 50)?;
            Ok(Reply::new(render::location_list(&out), &out))
        }
    }
}

fn handle_location(engine: &mut EngineT, tool: &str, raw: &Value) -> Result<Reply, ToolError> {
    let table = location_fields();
    let table: Vec<(&str, &[&str])> = table.iter().map(|(o, f)| (*o, f.as_slice())).collect();
    check_fields(tool, raw, &table)?;
    let read = matches!(
        raw.get("operation")
            .and_then(Value::as_str)
            .map(tabletop_rules::vocab::normalize_key)
            .as_deref(),
        Some("get" | "list")
    );
    invoke(
        engine,
        tool,
        raw,
        if read { Access::Read } else { Access::Write },
        run_location,
    )
}

// ---------------------------------------------------------------------------------------------
// move_party

arg_enum! {
    /// move_party operations.
    pub enum MoveOp {
        Move = "move",
        Search = "search",
        Status = "status",
        History = "history",
        Wait = "wait",
    }
}

arg_enum! {
    /// How to open a locked way.
    pub enum UnlockArg { Key = "key", Pick = "pick", Break = "break" }
}

arg_enum! {
    /// Skill used to search.
    pub enum SearchSkill { Perception = "perception", Investigation = "investigation" }
}

/// Arguments of `move_party`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct MovePartyArgs {
    /// What to do.
    pub operation: MoveOp,
    pub party_id: Option<String>,
    pub party_name: Option<String>,
    /// move: adjacent place (id or name).
    pub to: Option<String>,
    /// move: or the connection.
    pub connection_id: Option<String>,
    /// move: open a lock (a carried key is used anyway).
    pub unlock: Option<UnlockArg>,
    /// move: DM override of locks, hidden and one-way.
    #[serde(default)]
    pub force: bool,
    /// Who picks, breaks or searches (default leader).
    pub character_id: Option<String>,
    /// Or their name.
    pub character_name: Option<String>,
    /// search: default perception.
    pub skill: Option<SearchSkill>,
    /// history: entries (default 10).
    pub limit: Option<usize>,
    /// wait: the world clock moves (no party needed).
    pub minutes: Option<u64>,
    pub hours: Option<u64>,
    pub days: Option<u64>,
    /// wait: then on to the next one.
    pub until: Option<super::memory::UntilArg>,
}

fn move_fields() -> Vec<(&'static str, Vec<&'static str>)> {
    let party = ["partyId", "partyName"];
    let with = |extra: &[&'static str]| {
        let mut v = party.to_vec();
        v.extend_from_slice(extra);
        v
    };
    vec![
        (
            "move",
            with(&[
                "to",
                "connectionId",
                "unlock",
                "force",
                "characterId",
                "characterName",
            ]),
        ),
        ("search", with(&["characterId", "characterName", "skill"])),
        ("status", with(&["characterId", "characterName"])),
        ("history", with(&["limit", "characterId", "characterName"])),
        ("wait", vec!["minutes", "hours", "days", "until"]),
    ]
}

fn run_move(call: &mut Call<'_>, a: MovePartyArgs) -> Result<Reply, EngineError> {
    if a.operation == MoveOp::Wait {
        return super::memory::wait(call, a.minutes, a.hours, a.days, a.until);
    }
    let who = opt_ref(&a.character_id, &a.character_name);
    let r = party_for(
        call,
        PartyRef::new(a.party_id.as_deref(), a.party_name.as_deref()),
        who,
    )?;
    let r = PartyRef::new(Some(&r), None);
    match a.operation {
        MoveOp::Move => {
            let out = travel::move_party(
                call,
                r,
                MoveRequest {
                    to: a.to.as_deref().map(LocationRef::either),
                    connection_id: a.connection_id.as_deref(),
                    unlock: a.unlock.map(|u| match u {
                        UnlockArg::Key => Unlock::Key,
                        UnlockArg::Pick => Unlock::Pick,
                        UnlockArg::Break => Unlock::Break,
                    }),
                    force: a.force,
                    character: who,
                },
            )?;
            Ok(Reply::new(render::moved(&out), &out))
        }
        MoveOp::Search => {
            let skill = match a.skill {
                Some(SearchSkill::Investigation) => Skill::Investigation,
                _ => Skill::Perception,
            };
            let out = travel::search(call, r, who, skill)?;
            Ok(Reply::new(
                format!("{}\n{}", out.summary, out.check.summary()),
                &out,
            ))
        }
        MoveOp::Status => {
            let out = travel::status(call, r)?;
            Ok(Reply::new(render::status(&out), &out))
        }
        MoveOp::History => {
            let out = travel::history(call, r, a.limit.unwrap_or(10))?;
            Ok(Reply::new(render::history(&out), &out))
        }
        MoveOp::Wait => unreachable_wait(),
    }
}

/// `wait` is answered before a party is looked up.
fn unreachable_wait() -> Result<Reply, EngineError> {
    Err(EngineError::Rule(
        "internal: move_party wait runs before the party is resolved".into(),
    ))
}

/// The id of the party meant: the named one; else the named character's party; else the active
/// (or only) party.
fn party_for(
    call: &Call<'_>,
    r: PartyRef<'_>,
    who: Option<CharacterRef<'_>>,
) -> Result<String, EngineError> {
    if r.id.is_none()
        && r.name.is_none()
        && let Some(w) = who
    {
        let c = tabletop_engine::character::resolve(call, w)?;
        if let Some(pid) = call.tx_ref().party_of_character(call.campaign(), &c.id)? {
            return Ok(pid);
        }
    }
    Ok(party::resolve_party(call, r)?.id)
}

/// The legacy `move_party` took `{partyId, targetX, targetY, locationName, poiId}` on a world
/// map: tell that shape apart and route what can be routed.
fn legacy_move(raw: &Value) -> Result<Option<Value>, ToolError> {
    let Some(obj) = raw.as_object() else {
        return Ok(None);
    };
    if obj.contains_key("operation") {
        return Ok(None);
    }
    let legacy = ["targetX", "targetY", "locationName", "poiId"];
    if !legacy.iter().any(|k| obj.contains_key(*k)) {
        return Ok(None);
    }
    if obj.contains_key("targetX") || obj.contains_key("targetY") || obj.contains_key("poiId") {
        return Err(ToolError(
            "world-map coordinates and points of interest (targetX/targetY/poiId) are not modelled: places are a graph of locations. Move by connection: {\"operation\": \"move\", \"to\": \"<adjacent place>\"} (see exits with operation status), or place the party with manage_party operation update and locationId".into(),
        ));
    }
    let mut m: Map<String, Value> = obj.clone();
    if let Some(to) = m.remove("locationName") {
        m.insert("to".into(), to);
    }
    m.insert("operation".into(), Value::String("move".into()));
    Ok(Some(Value::Object(m)))
}

fn handle_move(engine: &mut EngineT, tool: &str, raw: &Value) -> Result<Reply, ToolError> {
    let converted = legacy_move(raw)?;
    let raw = converted.as_ref().unwrap_or(raw);
    let table = move_fields();
    let table: Vec<(&str, &[&str])> = table.iter().map(|(o, f)| (*o, f.as_slice())).collect();
    check_fields(tool, raw, &table)?;
    let read = matches!(
        raw.get("operation")
            .and_then(Value::as_str)
            .map(tabletop_rules::vocab::normalize_key)
            .as_deref(),
        Some("status" | "history")
    );
    invoke(
        engine,
        tool,
        raw,
        if read { Access::Read } else { Access::Write },
        run_move,
    )
}

// ---------------------------------------------------------------------------------------------
// manage_party

arg_enum! {
    /// manage_party operations.
    pub enum PartyOp {
        Create = "create",
        Get = "get",
        Update = "update",
        Delete = "delete",
        AddMember = "add_member",
        RemoveMember = "remove_member",
        SetLeader = "set_leader",
        SetActive = "set_active",
        List = "list",
    }
}

arg_enum! {
    /// A member's role.
    pub enum RoleArg {
        Leader = "leader",
        Member = "member",
        Companion = "companion",
        Hireling = "hireling",
        Prisoner = "prisoner",
        Guest = "guest",
    }
}

/// Arguments of `manage_party`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ManagePartyArgs {
    /// What to do.
    pub operation: PartyOp,
    pub party_id: Option<String>,
    pub party_name: Option<String>,
    /// create: name; update: new name.
    pub name: Option<String>,
    /// Description.
    pub description: Option<String>,
    /// create/update: place it here (no travel).
    pub location_id: Option<String>,
    /// The member (create: first member; update: with role).
    pub character_id: Option<String>,
    /// Or their name.
    pub character_name: Option<String>,
    /// Default member; leader also leads.
    pub role: Option<RoleArg>,
}

fn party_fields() -> Vec<(&'static str, Vec<&'static str>)> {
    let p = ["partyId", "partyName"];
    let c = ["characterId", "characterName"];
    let mk = |a: &[&'static str]| {
        let mut v = p.to_vec();
        v.extend_from_slice(a);
        v
    };
    vec![
        (
            "create",
            vec!["name", "description", "locationId", c[0], c[1], "role"],
        ),
        ("get", mk(&[])),
        (
            "update",
            mk(&["name", "description", "locationId", c[0], c[1], "role"]),
        ),
        ("delete", mk(&[])),
        ("add_member", mk(&[c[0], c[1], "role"])),
        ("remove_member", mk(&c)),
        ("set_leader", mk(&c)),
        ("set_active", mk(&c)),
        ("list", vec![]),
    ]
}

fn role(r: Option<RoleArg>) -> (PartyRole, bool) {
    match r {
        None | Some(RoleArg::Member) => (PartyRole::Member, false),
        Some(RoleArg::Leader) => (PartyRole::Member, true),
        Some(RoleArg::Companion) => (PartyRole::Companion, false),
        Some(RoleArg::Hireling) => (PartyRole::Hireling, false),
        Some(RoleArg::Prisoner) => (PartyRole::Prisoner, false),
        Some(RoleArg::Guest) => (PartyRole::Guest, false),
    }
}

fn run_party(call: &mut Call<'_>, a: ManagePartyArgs) -> Result<Reply, EngineError> {
    let r = PartyRef::new(a.party_id.as_deref(), a.party_name.as_deref());
    let who = opt_ref(&a.character_id, &a.character_name);
    let need_who = || {
        who.ok_or_else(|| {
            EngineError::invalid(
                "characterId",
                "name the member: characterId or characterName",
            )
        })
    };
    let (role_, lead) = role(a.role);
    let view = |text: String, v: &party::PartyView| Reply::new(text, v);
    match a.operation {
        PartyOp::Create => {
            let name = a
                .name
                .clone()
                .or(a.party_name.clone())
                .ok_or_else(|| EngineError::invalid("name", "a new party needs a name"))?;
            let out = party::create_party(
                call,
                PartyDraft {
                    name,
                    description: a.description.clone(),
                    location: a.location_id.as_deref().map(LocationRef::either),
                    member: who.map(|w| (w, role_)),
                },
            )?;
            Ok(view(format!("Created {}", render::party(&out)), &out))
        }
        PartyOp::Get => {
            let out = party::get_party(call, r)?;
            Ok(view(render::party(&out), &out))
        }
        PartyOp::Update => {
            let mut out = None;
            if let Some(w) = who {
                let role_ = a.role.ok_or_else(|| {
                    EngineError::invalid(
                        "role",
                        "update with a character changes its role: give role",
                    )
                })?;
                let (pr, lead) = role(Some(role_));
                let mut v = party::set_role(call, r, w, pr)?;
                if lead {
                    v = party::set_leader(call, r, w)?;
                }
                out = Some(v);
            }
            if a.name.is_some()
                || a.description.is_some()
                || a.location_id.is_some()
                || out.is_none()
            {
                let pr = match &out {
                    Some(v) => v.id.clone(),
                    None => party::resolve_party(call, r)?.id,
                };
                out = Some(party::update_party(
                    call,
                    PartyRef::new(Some(&pr), None),
                    PartyPatch {
                        name: a.name.clone(),
                        description: a.description.clone(),
                        location: a.location_id.as_deref().map(LocationRef::either),
                    },
                )?);
            }
            let out = out.ok_or_else(|| EngineError::Rule("internal: nothing updated".into()))?;
            Ok(view(format!("Updated {}", render::party(&out)), &out))
        }
        PartyOp::Delete => {
            let out = party::delete_party(call, r)?;
            let released = if out.released.is_empty() {
                String::new()
            } else {
                format!(" Released (not deleted): {}.", out.released.join(", "))
            };
            Ok(Reply::new(
                format!("Deleted party {} ({}).{released}", out.name, out.id),
                &out,
            ))
        }
        PartyOp::AddMember => {
            let out = party::add_member(call, r, need_who()?, role_, lead)?;
            Ok(view(render::party(&out), &out))
        }
        PartyOp::RemoveMember => {
            let out = party::remove_member(call, r, need_who()?)?;
            Ok(view(render::party(&out), &out))
        }
        PartyOp::SetLeader => {
            let out = party::set_leader(call, r, need_who()?)?;
            Ok(view(render::party(&out), &out))
        }
        PartyOp::SetActive => {
            let out = party::set_active(call, r, who)?;
            Ok(view(render::party(&out), &out))
        }
        PartyOp::List => {
            let out = party::list_parties(call)?;
            Ok(Reply::new(
                render::party_list(&out),
                &crate::output::PartyList { parties: out },
            ))
        }
    }
}

fn handle_party(engine: &mut EngineT, tool: &str, raw: &Value) -> Result<Reply, ToolError> {
    let table = party_fields();
    let table: Vec<(&str, &[&str])> = table.iter().map(|(o, f)| (*o, f.as_slice())).collect();
    match raw.get("batch") {
        Some(Value::Array(items)) => {
            for item in items {
                check_fields(tool, item, &table)?;
            }
        }
        _ => check_fields(tool, raw, &table)?,
    }
    let read_op = |v: &Value| {
        matches!(
            v.get("operation")
                .and_then(Value::as_str)
                .map(tabletop_rules::vocab::normalize_key)
                .as_deref(),
            Some("get" | "list")
        )
    };
    let read = match raw.get("batch") {
        Some(Value::Array(items)) => items.iter().all(read_op),
        _ => read_op(raw),
    };
    invoke_batch(
        engine,
        tool,
        raw,
        if read { Access::Read } else { Access::Write },
        run_party,
    )
}

pub(super) fn specs() -> Vec<ToolSpec> {
    vec![
        ToolSpec {
            name: "manage_location",
            title: "Manage location",
            category: Category::World,
            description: "Create, read, update, delete or list places, and link or unlink the ways between them.",
            read_only: false,
            destructive: true,
            idempotent: false,
            core: false,
            max_result_chars: 8_000,
            schema: input_schema::<ManageLocationArgs>,
            core_schema: None,
            handler: handle_location,
        },
        ToolSpec {
            name: "move_party",
            title: "Move party",
            category: Category::World,
            description: "Move a party along a way (locks, hidden and one-way ways enforced); status, history, wait.",
            read_only: false,
            destructive: true,
            idempotent: false,
            core: false,
            max_result_chars: 6_000,
            schema: input_schema::<MovePartyArgs>,
            core_schema: None,
            handler: handle_move,
        },
        ToolSpec {
            name: "manage_party",
            title: "Manage party",
            category: Category::World,
            description: "Create, read, update, delete or list parties; add/remove members, set leader or active party.",
            read_only: false,
            destructive: true,
            idempotent: false,
            core: false,
            max_result_chars: 8_000,
            schema: || with_batch(input_schema::<ManagePartyArgs>(), "operations"),
            core_schema: None,
            handler: handle_party,
        },
    ]
}
