//! `manage_party`: parties of characters with roles, a leader, the active party of the campaign
//! and its active character. A character belongs to at most one party.

use serde::Serialize;

use crate::characters::resolve;
use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::character::{Character, CharacterRef};
use crate::model::names::name_key;
use crate::model::world::{Location, LocationRef, suggestions};
use crate::world::resolve_location;

/// The data of this family lives in the model; re-exported so the old paths keep working.
pub use crate::model::party::{Party, PartyMember, PartyRef, PartyRole};

/// Finds the party named by `r`; with no name, the active party, else the only party.
pub fn resolve_party(call: &Call<'_>, r: PartyRef<'_>) -> Result<Party> {
    let campaign = call.campaign();
    let tx = call.tx_ref();
    let given =
        r.id.map(str::trim)
            .filter(|s| !s.is_empty())
            .or(r.name.map(str::trim).filter(|s| !s.is_empty()));
    let Some(given) = given else {
        let all = tx.list_parties(campaign)?;
        if let Some(p) = all.iter().find(|p| p.active) {
            return Ok(p.clone());
        }
        return match all.len() {
            0 => Err(EngineError::invalid(
                "partyId",
                "there is no party yet; create one with manage_party operation create",
            )),
            1 => all
                .into_iter()
                .next()
                .ok_or_else(|| EngineError::Rule("internal: lookup changed".into())),
            _ => Err(EngineError::invalid(
                "partyId",
                format!(
                    "no party is active and there are several: {}; pass partyId or partyName, or set_active one",
                    all.iter()
                        .map(|p| format!("{} ({})", p.name, p.id))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )),
        };
    };
    if r.id.is_some()
        && let Some(p) = tx.party(campaign, given)?
    {
        return Ok(p);
    }
    let key = name_key(given);
    let found: Vec<Party> = tx
        .list_parties(campaign)?
        .into_iter()
        .filter(|p| name_key(&p.name) == key)
        .collect();
    crate::error::one_match(
        "party",
        "partyId",
        given,
        found,
        |p| format!("{} ({})", p.name, p.id),
        || {
            let names: Vec<(String, String)> = tx
                .list_parties(campaign)?
                .into_iter()
                .map(|p| (p.id, p.name))
                .collect();
            let s = if names.len() <= 5 {
                names.iter().map(|(id, n)| format!("{n} ({id})")).collect()
            } else {
                suggestions(given, &names)
            };
            Ok(EngineError::NotFound {
                kind: "party",
                given: given.to_string(),
                suggestions: s,
            })
        },
    )
}

/// A member as shown: who, their role and vitals.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MemberView {
    /// Character id.
    pub character_id: String,
    /// Name.
    pub name: String,
    /// Role.
    pub role: PartyRole,
    /// The leader.
    pub leader: bool,
    /// The active character.
    pub active: bool,
    /// Current HP.
    pub hp: u32,
    /// Effective maximum HP.
    pub max_hp: i32,
    /// Temporary HP.
    pub temp_hp: u32,
    /// Effective AC.
    pub ac: i32,
    /// ok, unconscious, dying, stable or dead.
    pub status: &'static str,
    /// Active conditions.
    pub conditions: Vec<String>,
}

impl MemberView {
    /// The view of `c` as a member of `p`.
    pub fn of(c: &Character, m: &PartyMember, p: &Party) -> Self {
        let e = c.effective();
        Self {
            character_id: c.id.clone(),
            name: c.name.clone(),
            role: m.role,
            leader: p.leader_id.as_deref() == Some(c.id.as_str()),
            active: m.active,
            hp: c.hp,
            max_hp: e.max_hp.value,
            temp_hp: c.temp_hp,
            ac: e.armor_class.value,
            status: c.status(),
            conditions: e.conditions.clone(),
        }
    }
}

/// A party as shown.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PartyView {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Description.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The active party.
    pub active: bool,
    /// Where it is: location id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location_id: Option<String>,
    /// Where it is: location name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location_name: Option<String>,
    /// In-game minutes spent travelling.
    pub elapsed_minutes: u64,
    /// Members with vitals.
    pub members: Vec<MemberView>,
}

/// The view of a party: members resolved to their sheets, the location to its name.
pub fn party_view(call: &Call<'_>, p: &Party) -> Result<PartyView> {
    let campaign = call.campaign();
    let mut members = Vec::with_capacity(p.members.len());
    for m in &p.members {
        if let Some(c) = call.tx_ref().character(campaign, &m.character_id)? {
            members.push(MemberView::of(&c, m, p));
        }
    }
    let location_name = match &p.location_id {
        Some(id) => call.tx_ref().location(campaign, id)?.map(|l| l.name),
        None => None,
    };
    Ok(PartyView {
        id: p.id.clone(),
        name: p.name.clone(),
        description: p.description.clone(),
        active: p.active,
        location_id: p.location_id.clone(),
        location_name,
        elapsed_minutes: p.elapsed_minutes,
        members,
    })
}

/// Marks a place a party stands in as discovered; returns its id.
fn discover(call: &mut Call<'_>, mut l: Location) -> Result<String> {
    if !l.discovered {
        l.discovered = true;
        let campaign = call.campaign();
        call.tx().put_location(campaign, &l)?;
        call.record_change("location", &l.id, "discovered");
    }
    Ok(l.id)
}

/// A new party.
#[derive(Debug, Clone, Default)]
pub struct PartyDraft<'a> {
    /// Name.
    pub name: String,
    /// Description.
    pub description: Option<String>,
    /// Where it starts.
    pub location: Option<LocationRef<'a>>,
    /// Its first member (becomes leader).
    pub member: Option<(CharacterRef<'a>, PartyRole)>,
}

fn check_name(name: &str) -> Result<String> {
    let n = name.trim();
    if n.is_empty() || n.chars().count() > 80 {
        return Err(EngineError::invalid(
            "name",
            "a party name is 1–80 characters",
        ));
    }
    Ok(n.to_string())
}

fn ensure_free(call: &Call<'_>, c: &Character, joining: Option<&str>) -> Result<()> {
    if let Some(pid) = call.tx_ref().party_of_character(call.campaign(), &c.id)? {
        if Some(pid.as_str()) == joining {
            return Err(EngineError::Rule(format!(
                "{} is already a member of this party",
                c.label()
            )));
        }
        let pname = call
            .tx_ref()
            .party(call.campaign(), &pid)?
            .map(|p| p.name)
            .unwrap_or_else(|| pid.clone());
        return Err(EngineError::Rule(format!(
            "{} is already in party '{pname}' ({pid}); a character is in at most one party: remove_member from {pid} first",
            c.label()
        )));
    }
    Ok(())
}

/// Creates a party; the first party of a campaign becomes the active one.
pub fn create_party(call: &mut Call<'_>, d: PartyDraft<'_>) -> Result<PartyView> {
    let name = check_name(&d.name)?;
    let campaign = call.campaign();
    let all = call.tx_ref().list_parties(campaign)?;
    if let Some(same) = all.iter().find(|p| name_key(&p.name) == name_key(&name)) {
        return Err(EngineError::Rule(format!(
            "a party named '{}' already exists ({}); choose another name",
            same.name, same.id
        )));
    }
    let location_id = match d.location {
        Some(r) if r.is_given() => {
            let l = resolve_location(call, r, "locationId")?;
            Some(discover(call, l)?)
        }
        _ => None,
    };
    let mut p = Party {
        id: String::new(),
        name,
        description: d
            .description
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty()),
        location_id,
        leader_id: None,
        active: !all.iter().any(|p| p.active),
        elapsed_minutes: 0,
        members: vec![],
    };
    if let Some((r, role)) = d.member {
        let c = resolve(call, r)?;
        ensure_free(call, &c, None)?;
        p.leader_id = Some(c.id.clone());
        p.members.push(PartyMember {
            character_id: c.id.clone(),
            role,
            active: false,
        });
    }
    p.id = call.new_id("pt")?;
    call.tx().put_party(campaign, &p)?;
    call.record_change("party", &p.id, format!("created {}", p.name));
    party_view(call, &p)
}

/// One party (the active one when none is named).
pub fn get_party(call: &mut Call<'_>, r: PartyRef<'_>) -> Result<PartyView> {
    let p = resolve_party(call, r)?;
    party_view(call, &p)
}

/// Every party of the campaign.
pub fn list_parties(call: &mut Call<'_>) -> Result<Vec<PartyView>> {
    let all = call.tx_ref().list_parties(call.campaign())?;
    all.iter().map(|p| party_view(call, p)).collect()
}

/// Changes to a party (absent = unchanged).
#[derive(Debug, Clone, Default)]
pub struct PartyPatch<'a> {
    /// New name.
    pub name: Option<String>,
    /// New description.
    pub description: Option<String>,
    /// Place the party here without travelling.
    pub location: Option<LocationRef<'a>>,
}

/// Renames, redescribes or places a party.
pub fn update_party(
    call: &mut Call<'_>,
    r: PartyRef<'_>,
    patch: PartyPatch<'_>,
) -> Result<PartyView> {
    let mut p = resolve_party(call, r)?;
    let campaign = call.campaign();
    let mut changed = Vec::new();
    if let Some(n) = patch.name {
        let n = check_name(&n)?;
        if let Some(o) = call
            .tx_ref()
            .list_parties(campaign)?
            .into_iter()
            .find(|o| o.id != p.id && name_key(&o.name) == name_key(&n))
        {
            return Err(EngineError::Rule(format!(
                "another party is named '{}' ({})",
                o.name, o.id
            )));
        }
        changed.push(format!("renamed {} → {n}", p.name));
        p.name = n;
    }
    if let Some(d) = patch.description {
        p.description = Some(d.trim().to_string()).filter(|s| !s.is_empty());
        changed.push("description".into());
    }
    if let Some(l) = patch.location.filter(LocationRef::is_given) {
        let l = resolve_location(call, l, "locationId")?;
        changed.push(format!("placed at {}", l.name));
        p.location_id = Some(discover(call, l)?);
    }
    if changed.is_empty() {
        return Err(EngineError::invalid(
            "operation",
            "nothing to change: give name, description or locationId",
        ));
    }
    call.tx().put_party(campaign, &p)?;
    call.record_change("party", &p.id, changed.join(", "));
    party_view(call, &p)
}

/// What deleting a party did.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PartyDeletion {
    /// The party's id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// The characters released (they are not deleted).
    pub released: Vec<String>,
}

/// Deletes a party; its members are released, not deleted.
pub fn delete_party(call: &mut Call<'_>, r: PartyRef<'_>) -> Result<PartyDeletion> {
    let p = resolve_party(call, r)?;
    let campaign = call.campaign();
    let mut released = Vec::new();
    for m in &p.members {
        if let Some(c) = call.tx_ref().character(campaign, &m.character_id)? {
            released.push(c.label());
        }
    }
    call.tx().delete_party(campaign, &p.id)?;
    call.record_change("party", &p.id, format!("deleted {}", p.name));
    Ok(PartyDeletion {
        id: p.id,
        name: p.name,
        released,
    })
}

/// Adds a character to a party; `leader` makes it the leader (the first member leads anyway).
pub fn add_member(
    call: &mut Call<'_>,
    r: PartyRef<'_>,
    who: CharacterRef<'_>,
    role: PartyRole,
    leader: bool,
) -> Result<PartyView> {
    let mut p = resolve_party(call, r)?;
    let c = resolve(call, who)?;
    ensure_free(call, &c, Some(&p.id))?;
    if p.members.len() >= 50 {
        return Err(EngineError::Rule("a party holds at most 50 members".into()));
    }
    p.members.push(PartyMember {
        character_id: c.id.clone(),
        role,
        active: false,
    });
    if leader || p.leader_id.is_none() {
        p.leader_id = Some(c.id.clone());
    }
    let campaign = call.campaign();
    call.tx().put_party(campaign, &p)?;
    call.record_change(
        "party",
        &p.id,
        format!("{} joined as {}", c.name, role.key()),
    );
    party_view(call, &p)
}

fn member_index(p: &Party, c: &Character) -> Result<usize> {
    p.members
        .iter()
        .position(|m| m.character_id == c.id)
        .ok_or_else(|| {
            EngineError::Rule(format!(
                "{} is not a member of {} ({}); add_member first",
                c.label(),
                p.name,
                p.id
            ))
        })
}

/// Removes a member; a leaving leader passes the lead to the next member.
pub fn remove_member(
    call: &mut Call<'_>,
    r: PartyRef<'_>,
    who: CharacterRef<'_>,
) -> Result<PartyView> {
    let mut p = resolve_party(call, r)?;
    let c = resolve(call, who)?;
    let i = member_index(&p, &c)?;
    p.members.remove(i);
    if p.leader_id.as_deref() == Some(c.id.as_str()) {
        p.leader_id = p.members.first().map(|m| m.character_id.clone());
    }
    let campaign = call.campaign();
    call.tx().put_party(campaign, &p)?;
    call.record_change("party", &p.id, format!("{} left", c.name));
    party_view(call, &p)
}

/// Changes a member's role.
pub fn set_role(
    call: &mut Call<'_>,
    r: PartyRef<'_>,
    who: CharacterRef<'_>,
    role: PartyRole,
) -> Result<PartyView> {
    let mut p = resolve_party(call, r)?;
    let c = resolve(call, who)?;
    let i = member_index(&p, &c)?;
    if let Some(m) = p.members.get_mut(i) {
        m.role = role;
    }
    let campaign = call.campaign();
    call.tx().put_party(campaign, &p)?;
    call.record_change("party", &p.id, format!("{} is now {}", c.name, role.key()));
    party_view(call, &p)
}

/// Makes a member the leader.
pub fn set_leader(
    call: &mut Call<'_>,
    r: PartyRef<'_>,
    who: CharacterRef<'_>,
) -> Result<PartyView> {
    let mut p = resolve_party(call, r)?;
    let c = resolve(call, who)?;
    member_index(&p, &c)?;
    p.leader_id = Some(c.id.clone());
    let campaign = call.campaign();
    call.tx().put_party(campaign, &p)?;
    call.record_change("party", &p.id, format!("{} leads", c.name));
    party_view(call, &p)
}

/// Makes the party the campaign's active party; with a character, that member also becomes the
/// party's active character.
pub fn set_active(
    call: &mut Call<'_>,
    r: PartyRef<'_>,
    who: Option<CharacterRef<'_>>,
) -> Result<PartyView> {
    let mut p = resolve_party(call, r)?;
    let campaign = call.campaign();
    let mut what = Vec::new();
    if let Some(who) = who {
        let c = resolve(call, who)?;
        let i = member_index(&p, &c)?;
        for (j, m) in p.members.iter_mut().enumerate() {
            m.active = j == i;
        }
        what.push(format!("{} is the active character", c.name));
    }
    if !p.active {
        for mut o in call.tx_ref().list_parties(campaign)? {
            if o.active && o.id != p.id {
                o.active = false;
                call.tx().put_party(campaign, &o)?;
            }
        }
        p.active = true;
        what.push("active party".into());
    }
    if what.is_empty() {
        what.push("already the active party".into());
    }
    call.tx().put_party(campaign, &p)?;
    call.record_change("party", &p.id, what.join(", "));
    party_view(call, &p)
}
