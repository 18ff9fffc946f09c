//! `place_prop`: things on the battle map (tables, pillars, chests, traps) that block movement or
//! sight and give cover as declared, stored on the encounter's map.

use serde::Serialize;
use tabletop_grid::{Cover, Footprint, Position, Prop};

use crate::engine::Call;
use crate::error::{EngineError, Result};

/// What to do with props.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum PropOp {
    /// Put a new prop on the map.
    Place,
    /// Take one off.
    Remove,
    /// Change its fields.
    Update,
    /// Move it to another square.
    Move,
    /// List every prop.
    #[default]
    List,
}

/// The fields of a prop; absent fields keep their value (update) or default (place).
#[derive(Debug, Clone, Default)]
pub struct PropFields {
    /// Display name.
    pub name: Option<String>,
    /// Top-left square.
    pub position: Option<Position>,
    /// East–west extent in feet (default 5).
    pub width_ft: Option<i32>,
    /// North–south extent in feet (default 5).
    pub length_ft: Option<i32>,
    /// Creatures cannot enter it.
    pub blocks_movement: Option<bool>,
    /// It blocks sight (and areas of effect): total cover.
    pub blocks_sight: Option<bool>,
    /// Cover it grants.
    pub cover: Option<Cover>,
    /// Hit points, when destructible.
    pub hp: Option<i32>,
    /// Armor class, when destructible.
    pub ac: Option<i32>,
    /// Hidden: Perception/Investigation DC to notice it.
    pub hidden_dc: Option<u32>,
    /// It is a trap.
    pub trap: Option<bool>,
    /// Letter drawn on the map.
    pub symbol: Option<char>,
}

/// A `place_prop` request.
#[derive(Debug, Clone, Default)]
pub struct PropRequest {
    /// Encounter (default: the active one); an ended one by id too.
    pub encounter_id: Option<String>,
    /// A scratch map (plain squares, the terrain given) instead of an encounter's; used too
    /// when no encounter is active (see [`crate::combat::spatial::scratch`]).
    pub scratch: Option<crate::combat::create::TerrainSpec>,
    /// What to do.
    pub operation: PropOp,
    /// The prop's id (or name) for remove, update, move; an id to use for place.
    pub prop_id: Option<String>,
    /// Fields.
    pub fields: PropFields,
}

/// What `place_prop` did.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PropOutcome {
    /// Encounter id.
    pub encounter_id: String,
    /// The lead line.
    pub headline: String,
    /// The prop acted on (absent for list).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub prop: Option<Prop>,
    /// Every prop on the map after the operation.
    pub props: Vec<Prop>,
}

fn slug(name: &str) -> String {
    let s: String = name
        .trim()
        .to_ascii_lowercase()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let s = s.trim_matches('-').to_string();
    if s.is_empty() { "prop".into() } else { s }
}

/// Finds a prop by id or (case-insensitive) name.
fn find_prop(map: &tabletop_grid::BattleMap, given: Option<&str>) -> Result<String> {
    let Some(given) = given.map(str::trim).filter(|s| !s.is_empty()) else {
        return Err(EngineError::invalid(
            "propId",
            "name the prop by propId (see operation list)",
        ));
    };
    if map.prop(given).is_some() {
        return Ok(given.to_string());
    }
    let hits: Vec<&Prop> = map
        .props()
        .filter(|p| p.name.eq_ignore_ascii_case(given))
        .collect();
    match hits.as_slice() {
        [one] => Ok(one.id.clone()),
        [] => Err(EngineError::invalid(
            "propId",
            format!("no prop '{given}' on the map; props: {}", list_ids(map)),
        )),
        many => Err(EngineError::Ambiguous {
            kind: "prop",
            given: given.to_string(),
            candidates: many
                .iter()
                .map(|p| format!("{} ({})", p.name, p.id))
                .collect(),
            id_field: "propId",
        }),
    }
}

fn list_ids(map: &tabletop_grid::BattleMap) -> String {
    let ids: Vec<String> = map
        .props()
        .map(|p| format!("{} ({})", p.id, p.name))
        .collect();
    if ids.is_empty() {
        "none".into()
    } else {
        ids.join(", ")
    }
}

fn apply(p: &mut Prop, f: &PropFields) {
    if let Some(n) = &f.name {
        p.name = n.trim().to_string();
    }
    if let Some(pos) = f.position {
        p.position = pos;
    }
    if let Some(w) = f.width_ft {
        p.footprint.width_ft = w;
    }
    if let Some(l) = f.length_ft {
        p.footprint.length_ft = l;
    }
    if let Some(b) = f.blocks_movement {
        p.blocks_movement = b;
    }
    if let Some(b) = f.blocks_sight {
        p.blocks_sight = b;
    }
    if let Some(c) = f.cover {
        p.cover = c;
    }
    if f.hp.is_some() {
        p.hp = f.hp;
    }
    if f.ac.is_some() {
        p.ac = f.ac;
    }
    if f.hidden_dc.is_some() {
        p.hidden_dc = f.hidden_dc;
    }
    if let Some(t) = f.trap {
        p.trap = t;
    }
    if f.symbol.is_some() {
        p.symbol = f.symbol;
    }
}

/// One line about a prop: "Stone pillar (pillar) at (5, 4), 5×5 ft: blocks movement, sight".
pub fn describe(p: &Prop) -> String {
    let mut traits = Vec::new();
    if p.blocks_movement {
        traits.push("blocks movement".to_string());
    }
    if p.blocks_sight {
        traits.push("blocks sight (total cover)".to_string());
    } else if p.cover != Cover::None {
        traits.push(format!(
            "{} cover",
            match p.cover {
                Cover::Half => "half",
                Cover::ThreeQuarters => "three-quarters",
                _ => "total",
            }
        ));
    }
    if let (Some(hp), Some(ac)) = (p.hp, p.ac) {
        traits.push(format!("AC {ac}, {hp} HP"));
    } else if let Some(hp) = p.hp {
        traits.push(format!("{hp} HP"));
    }
    if let Some(dc) = p.hidden_dc {
        traits.push(format!("hidden (DC {dc})"));
    }
    if p.trap {
        traits.push("trap".into());
    }
    format!(
        "{} ({}) at {}, {}×{} ft{}",
        p.name,
        p.id,
        super::square_label(p.position),
        p.footprint.width_ft,
        p.footprint.length_ft,
        if traits.is_empty() {
            String::new()
        } else {
            format!(": {}", traits.join(", "))
        }
    )
}

/// Places, removes, updates, moves or lists props.
pub fn place_prop(call: &mut Call<'_>, req: &PropRequest) -> Result<PropOutcome> {
    if req.operation == PropOp::List {
        let e = crate::combat::spatial::scratch::map_to_read(
            call,
            req.encounter_id.as_deref(),
            req.scratch.as_ref(),
        )?;
        return Ok(listing(&e));
    }
    let (mut e, scratch_note) = crate::combat::spatial::scratch::map_to_change(
        call,
        req.encounter_id.as_deref(),
        req.scratch.as_ref(),
    )?;
    let f = &req.fields;
    for (field, v) in [("hp", f.hp), ("ac", f.ac)] {
        if v.is_some_and(|v| v < 0) {
            return Err(EngineError::invalid(field, "must be 0 or more"));
        }
    }
    let (headline, prop) = match req.operation {
        PropOp::Place => {
            let name = f
                .name
                .as_deref()
                .map(str::trim)
                .filter(|n| !n.is_empty())
                .ok_or_else(|| {
                    EngineError::invalid("name", "a new prop needs a name (\"stone pillar\")")
                })?;
            let position = f.position.ok_or_else(|| {
                EngineError::invalid(
                    "position",
                    "a new prop needs a position {x, y} (its top-left square)",
                )
            })?;
            let id = match req
                .prop_id
                .as_deref()
                .map(str::trim)
                .filter(|s| !s.is_empty())
            {
                Some(id) => id.to_string(),
                None => {
                    let base = slug(name);
                    (1..)
                        .map(|n| format!("{base}-{n}"))
                        .find(|id| e.map.prop(id).is_none())
                        .unwrap_or(base)
                }
            };
            let mut p = Prop::new(id, name, position);
            p.footprint = Footprint::default();
            apply(&mut p, f);
            e.map.place_prop(p.clone())?;
            (format!("Placed {}.", describe(&p)), p)
        }
        PropOp::Remove => {
            let id = find_prop(&e.map, req.prop_id.as_deref().or(f.name.as_deref()))?;
            let p = e.map.remove_prop(&id)?;
            (format!("Removed {} ({}).", p.name, p.id), p)
        }
        PropOp::Update | PropOp::Move => {
            let id = find_prop(
                &e.map,
                req.prop_id.as_deref().or(if req.operation == PropOp::Move {
                    f.name.as_deref()
                } else {
                    None
                }),
            )?;
            if req.operation == PropOp::Move && f.position.is_none() {
                return Err(EngineError::invalid(
                    "position",
                    "move needs the new position {x, y}",
                ));
            }
            e.map.update_prop(&id, |p| apply(p, f))?;
            let p = e
                .map
                .prop(&id)
                .cloned()
                .ok_or_else(|| EngineError::Rule("internal: prop vanished".into()))?;
            let verb = if req.operation == PropOp::Move {
                "Moved"
            } else {
                "Updated"
            };
            (format!("{verb} {}.", describe(&p)), p)
        }
        PropOp::List => return Ok(listing(&e)),
    };
    let headline = match scratch_note {
        Some(n) => format!("{headline} {n}"),
        None => headline,
    };
    e.log(headline.clone());
    super::super::save(call, &e)?;
    call.record_change("encounter", &e.id, headline.clone());
    Ok(PropOutcome {
        encounter_id: e.id.clone(),
        headline,
        prop: Some(prop),
        props: e.map.props().cloned().collect(),
    })
}

/// Every prop of an encounter.
fn listing(e: &crate::model::encounter::Encounter) -> PropOutcome {
    let props: Vec<Prop> = e.map.props().cloned().collect();
    PropOutcome {
        encounter_id: e.id.clone(),
        headline: format!(
            "{} prop{} on the map.",
            props.len(),
            if props.len() == 1 { "" } else { "s" }
        ),
        prop: None,
        props,
    }
}

impl PropOutcome {
    /// The headline, then every prop.
    pub fn text(&self) -> String {
        let mut t = self.headline.clone();
        if self.prop.is_none() || self.props.len() > 1 {
            for p in &self.props {
                t.push_str(&format!("\n- {}", describe(p)));
            }
        }
        t
    }
}
