//! `check_line_of_sight` and `check_cover`: what blocks the line between two places, what the
//! viewer perceives with its senses in the light there, and how much cover the target has.

use serde::Serialize;
use tabletop_grid::{
    CoverOptions, CoverReport, Metric, Position, Sense, Senses, SightOptions, Visibility,
    VisibilityReport,
};
use tabletop_rules::Condition;

use super::{Point, Spot, senses_of, spot};
use crate::engine::Call;
use crate::error::Result;

/// A `check_line_of_sight` request.
#[derive(Debug, Clone, Default)]
pub struct SightRequest {
    /// Encounter (default: the active one); an ended one by id too.
    pub encounter_id: Option<String>,
    /// A scratch map (plain squares, the terrain given) instead of an encounter's; used too
    /// when no encounter is active (see [`crate::combat::spatial::scratch`]).
    pub scratch: Option<crate::combat::create::TerrainSpec>,
    /// The viewer.
    pub from: Point,
    /// What is looked at.
    pub to: Point,
    /// Whether other creatures block the line.
    pub creatures_block: bool,
}

/// What a viewer sees of a target.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SightOutcome {
    /// Encounter id.
    pub encounter_id: String,
    /// The viewer.
    pub from: Spot,
    /// The target.
    pub to: Spot,
    /// Whether an unblocked line exists.
    pub line_of_sight: bool,
    /// The first square that blocks it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blocked_at: Option<Position>,
    /// What is there ("a wall", "a closed door", "Goblin 2").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blocked_by: Option<String>,
    /// The grid's judgement: light, senses, distance.
    pub visibility: VisibilityReport,
    /// The viewer's senses as read from its sheet.
    pub senses: Senses,
    /// The target is invisible and no sense of the viewer pierces it.
    pub unseen_invisible: bool,
    /// Whether the viewer can see the target (clear or lightly obscured, and not unseen).
    pub can_see: bool,
    /// The target's location is known without seeing it (tremorsense, blindsight).
    pub can_locate: bool,
}

/// Traces sight from one place to another and judges visibility.
pub fn check_line_of_sight(call: &Call<'_>, req: &SightRequest) -> Result<SightOutcome> {
    let e = crate::combat::spatial::scratch::map_to_read(
        call,
        req.encounter_id.as_deref(),
        req.scratch.as_ref(),
    )?;
    let from = spot(&e, &req.from, "from", "fromId")?;
    let to = spot(&e, &req.to, "to", "toId")?;
    let viewer = match &from.id {
        Some(id) => call.tx_ref().character(call.campaign(), id)?,
        None => None,
    };
    let target = match &to.id {
        Some(id) => call.tx_ref().character(call.campaign(), id)?,
        None => None,
    };
    let senses = viewer.as_ref().map(senses_of).unwrap_or_default();
    let opts = SightOptions {
        creatures_block: req.creatures_block,
        metric: Metric::Grid5e,
    };
    let vis = match (&from.id, &to.id) {
        (Some(a), Some(b)) => e.map.creature_visibility(a, b, &senses, &opts)?,
        _ => e
            .map
            .visibility(from.position, to.position, &senses, &opts)?,
    };
    let los = match (&from.id, &to.id) {
        (Some(a), Some(b)) => e.map.creature_line_of_sight(a, b, &opts)?,
        _ => e.map.line_of_sight(from.position, to.position, &opts)?,
    };
    let blocked_by = los.blocked_at.map(|p| {
        let creature = e
            .map
            .creatures_at(p)
            .find(|c| Some(&c.id) != from.id.as_ref() && Some(&c.id) != to.id.as_ref())
            .and_then(|c| e.combatant(&c.id))
            .map(|c| c.name.clone());
        match creature {
            Some(n) if e.map.blocks_sight(p) => format!("{} (and {n})", blocker(&e.map, p)),
            Some(n) => n,
            None => blocker(&e.map, p),
        }
    });
    let invisible = target
        .as_ref()
        .is_some_and(|t| t.has_condition(Condition::Invisible));
    let pierced = matches!(vis.sense, Some(Sense::Truesight | Sense::Blindsight));
    let unseen_invisible = invisible && !pierced;
    let can_see = vis.can_see() && !unseen_invisible;
    let can_locate = can_see
        || matches!(
            vis.sense,
            Some(Sense::Tremorsense | Sense::Blindsight | Sense::Truesight)
        );
    Ok(SightOutcome {
        encounter_id: e.id.clone(),
        line_of_sight: los.clear,
        blocked_at: los.blocked_at,
        blocked_by,
        visibility: vis,
        senses,
        unseen_invisible,
        can_see,
        can_locate,
        from,
        to,
    })
}

/// What blocks sight or movement at a square, in words.
fn blocker(map: &tabletop_grid::BattleMap, p: Position) -> String {
    if let Some(d) = map.door(p).filter(|d| d.is_shut()) {
        return format!(
            "a {} door",
            if d == tabletop_grid::DoorState::Locked {
                "locked"
            } else {
                "closed"
            }
        );
    }
    if let Some(prop) = map.props_at(p).find(|pr| pr.blocks_sight) {
        return format!("the {}", prop.name);
    }
    if map.obscured(p) && !map.blocks_sight(p) {
        return "a heavily obscured square (fog, sleet or magical darkness)".into();
    }
    map.terrain(p)
        .map(|t| t.describe())
        .unwrap_or_else(|_| "the map's edge".into())
}

impl SightOutcome {
    /// "Ada can see Goblin 1 (clear, darkvision, 30 ft)." or "No line of sight: a wall at (5, 3)."
    pub fn text(&self) -> String {
        let v = &self.visibility;
        let head = if !self.line_of_sight {
            format!(
                "No line of sight from {} to {}: blocked by {} at {}.",
                self.from.label,
                self.to.label,
                self.blocked_by.as_deref().unwrap_or("something"),
                self.blocked_at.map(super::square_label).unwrap_or_default()
            )
        } else if self.can_see {
            format!(
                "{} can see {} ({}, by {}, {} ft).",
                self.from.label,
                self.to.label,
                visibility_words(v.visibility),
                sense_words(v.sense),
                v.distance_ft
            )
        } else if self.unseen_invisible {
            format!(
                "{} cannot see {}: it is invisible (attacks against it have disadvantage, its attacks advantage); line of sight is clear at {} ft.",
                self.from.label, self.to.label, v.distance_ft
            )
        } else {
            format!(
                "{} cannot see {}: {} in {} light (the viewer is effectively blinded toward it); line of sight is clear at {} ft.",
                self.from.label,
                self.to.label,
                visibility_words(v.visibility),
                light_words(v.light),
                v.distance_ft
            )
        };
        let mut t = head;
        if !self.can_see && self.can_locate {
            t.push_str(&format!(
                " Its location is known by {}.",
                sense_words(v.sense)
            ));
        }
        if self.line_of_sight && self.can_see && v.visibility == Visibility::LightlyObscured {
            t.push_str(
                " Lightly obscured: disadvantage on Wisdom (Perception) checks relying on sight.",
            );
        }
        t.push_str(&format!("\nLight at the target: {}.", light_words(v.light)));
        let s = &self.senses;
        let senses: Vec<String> = [
            ("darkvision", s.darkvision_ft),
            ("blindsight", s.blindsight_ft),
            ("tremorsense", s.tremorsense_ft),
            ("truesight", s.truesight_ft),
        ]
        .iter()
        .filter(|(_, r)| *r > 0)
        .map(|(n, r)| format!("{n} {r} ft"))
        .collect();
        if !senses.is_empty() || s.blinded {
            t.push_str(&format!(
                " Viewer's senses: {}{}.",
                if senses.is_empty() {
                    "none".to_string()
                } else {
                    senses.join(", ")
                },
                if s.blinded { " (blinded)" } else { "" }
            ));
        }
        t
    }
}

fn visibility_words(v: Visibility) -> &'static str {
    match v {
        Visibility::Clear => "clearly",
        Visibility::LightlyObscured => "lightly obscured",
        Visibility::HeavilyObscured => "heavily obscured",
        Visibility::Blocked => "blocked",
    }
}

fn sense_words(s: Option<Sense>) -> &'static str {
    match s {
        Some(Sense::Sight) | None => "sight",
        Some(Sense::Darkvision) => "darkvision",
        Some(Sense::Blindsight) => "blindsight",
        Some(Sense::Tremorsense) => "tremorsense",
        Some(Sense::Truesight) => "truesight",
    }
}

fn light_words(l: tabletop_grid::Light) -> &'static str {
    match l {
        tabletop_grid::Light::Bright => "bright",
        tabletop_grid::Light::Dim => "dim",
        tabletop_grid::Light::Darkness => "darkness",
        tabletop_grid::Light::MagicalDarkness => "magical darkness",
    }
}

/// A `check_cover` request.
#[derive(Debug, Clone, Default)]
pub struct CoverRequest {
    /// Encounter (default: the active one); an ended one by id too.
    pub encounter_id: Option<String>,
    /// A scratch map (plain squares, the terrain given) instead of an encounter's; used too
    /// when no encounter is active (see [`crate::combat::spatial::scratch`]).
    pub scratch: Option<crate::combat::create::TerrainSpec>,
    /// The attacker (or the point an attack comes from).
    pub from: Point,
    /// The target.
    pub to: Point,
    /// Whether creatures in between give half cover.
    pub creatures_give_cover: bool,
}

/// The cover a target has against an attacker.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CoverOutcome {
    /// Encounter id.
    pub encounter_id: String,
    /// The attacker.
    pub from: Spot,
    /// The target.
    pub to: Spot,
    /// The grid's corner-rule report.
    pub report: CoverReport,
}

/// Cover by the corner-to-corner rule.
pub fn check_cover(call: &Call<'_>, req: &CoverRequest) -> Result<CoverOutcome> {
    let e = crate::combat::spatial::scratch::map_to_read(
        call,
        req.encounter_id.as_deref(),
        req.scratch.as_ref(),
    )?;
    let from = spot(&e, &req.from, "from", "fromId")?;
    let to = spot(&e, &req.to, "to", "toId")?;
    let opts = CoverOptions {
        creatures_give_cover: req.creatures_give_cover,
    };
    let report = match (&from.id, &to.id) {
        (Some(a), Some(b)) => e.map.creature_cover(a, b, &opts)?,
        _ => e
            .map
            .cover(from.position, from.size, to.position, to.size, &opts)?,
    };
    Ok(CoverOutcome {
        encounter_id: e.id.clone(),
        from,
        to,
        report,
    })
}

impl CoverOutcome {
    /// "Goblin 1 has half cover from Ada: +2 AC and DEX saves (2 of 4 lines blocked)."
    pub fn text(&self) -> String {
        use tabletop_grid::Cover;
        let r = &self.report;
        let what = match r.cover {
            Cover::None => "no cover".to_string(),
            Cover::Half => "half cover: +2 AC and Dexterity saves".to_string(),
            Cover::ThreeQuarters => "three-quarters cover: +5 AC and Dexterity saves".to_string(),
            Cover::Total => "total cover: it cannot be targeted directly".to_string(),
        };
        format!(
            "{} has {what} from {} ({} of 4 lines blocked from the best corner).",
            self.to.label, self.from.label, r.blocked_lines
        )
    }
}
