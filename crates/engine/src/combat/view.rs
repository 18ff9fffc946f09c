//! `get_encounter`: the state of a fight at four levels of detail.

use serde::{Deserialize, Serialize};
use tabletop_grid::{Light, Position};

use crate::engine::Call;
use crate::error::Result;
use crate::model::encounter::*;

/// How much to show.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Verbosity {
    /// Id, round and whose turn.
    Minimal,
    /// Plus every combatant with HP as a percentage.
    Summary,
    /// Plus full HP, AC, conditions and positions (the default).
    #[default]
    Standard,
    /// Plus the map, the action economy, terrain, lighting and the log.
    Detailed,
}

/// One combatant as shown.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CombatantView {
    /// Character id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Side.
    pub side: Side,
    /// Initiative total.
    pub initiative: i32,
    /// Whether it is this creature's turn.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub current: bool,
    /// "ok", "unconscious", "dying", "stable", "dead" (or "removed").
    pub status: String,
    /// HP as a percentage of max (summary).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hp_percent: Option<u32>,
    /// HP as the table sees it ("unhurt", "hurt", "bloodied", "down"): set instead of the numbers
    /// in a player's view of a creature outside the party.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hp_state: Option<&'static str>,
    /// Current HP (standard and up).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hp: Option<u32>,
    /// Effective max HP (standard and up).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_hp: Option<u32>,
    /// Temporary HP, when any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub temp_hp: Option<u32>,
    /// Effective AC (standard and up).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ac: Option<i32>,
    /// Position (standard and up).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub position: Option<Position>,
    /// Conditions ("prone", "exhaustion 2"), plus dodging / hidden / readied.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<String>,
    /// The spell it concentrates on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub concentrating: Option<String>,
    /// Death saves, while dying.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub death_saves: Option<(u8, u8)>,
    /// What is spent of its turn (detailed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub economy: Option<Economy>,
    /// Movement left this turn in feet (detailed, current creature).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub movement_left_ft: Option<u32>,
    /// Active effects by name (standard and detailed).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub effects: Vec<String>,
    /// What the current creature has used of its turn (standard and detailed).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub used: Vec<String>,
    /// Its reaction policy when not `auto`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reaction_policy: Option<ReactionPolicy>,
}

/// An encounter as shown.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EncounterView {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// "active" or "ended".
    pub status: EncounterStatus,
    /// Round.
    pub round: u32,
    /// Whose turn: name.
    pub turn: Option<String>,
    /// Whose turn: character id.
    pub turn_id: Option<String>,
    /// Outcome once ended.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outcome: Option<String>,
    /// Combatants in initiative order (summary and up).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub combatants: Vec<CombatantView>,
    /// Map size in squares (detailed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub map_size: Option<(u32, u32)>,
    /// Default lighting (detailed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lighting: Option<Light>,
    /// The map as text (detailed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub map: Option<String>,
    /// Terrain changes that expire (detailed).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub timed_terrain: Vec<TimedTerrain>,
    /// Recent log lines (detailed).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub log: Vec<LogLine>,
    /// XP and difficulty (detailed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub difficulty: Option<tabletop_rules::encounter::Difficulty>,
    /// A reaction waiting for the agent's answer (every verbosity).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pending_reaction: Option<PendingReaction>,
}

/// Reads an encounter (the active one when `id` is `None`).
pub fn get_encounter(
    call: &Call<'_>,
    id: Option<&str>,
    verbosity: Verbosity,
) -> Result<EncounterView> {
    let e = super::load(call, id)?;
    view(call, &e, verbosity)
}

/// Builds the view of a loaded encounter.
pub fn view(call: &Call<'_>, e: &Encounter, verbosity: Verbosity) -> Result<EncounterView> {
    let current = e.current();
    let mut combatants = Vec::new();
    if verbosity >= Verbosity::Summary {
        for (i, cb) in e.order.iter().enumerate() {
            combatants.push(combatant_view(call, e, cb, i == e.turn, verbosity)?);
        }
    }
    let detailed = verbosity == Verbosity::Detailed;
    let map = if detailed {
        let m = super::render::ascii(call, e, &Default::default())?;
        let mut text = m.text;
        for l in &m.legend {
            text.push_str(&format!("\n{} {}", l.symbol, l.meaning));
        }
        Some(text)
    } else {
        None
    };
    Ok(EncounterView {
        id: e.id.clone(),
        name: e.name.clone(),
        status: e.status,
        round: e.round,
        turn: current.map(|c| c.name.clone()),
        turn_id: current.map(|c| c.character_id.clone()),
        outcome: e.outcome.clone(),
        combatants,
        map_size: detailed.then(|| (e.map.width(), e.map.height())),
        lighting: detailed.then(|| e.map.default_light()),
        map,
        timed_terrain: if detailed {
            e.timed_terrain.clone()
        } else {
            Vec::new()
        },
        log: if detailed { e.log.clone() } else { Vec::new() },
        difficulty: if detailed { e.difficulty.clone() } else { None },
        pending_reaction: e.pending_reaction.clone(),
    })
}

fn combatant_view(
    call: &Call<'_>,
    e: &Encounter,
    cb: &Combatant,
    current: bool,
    verbosity: Verbosity,
) -> Result<CombatantView> {
    let sheet = call.tx_ref().character(call.campaign(), &cb.character_id)?;
    let standard = verbosity >= Verbosity::Standard;
    let detailed = verbosity == Verbosity::Detailed;
    let (status, hp, max_hp, temp_hp, ac, mut conditions, concentrating, death_saves, speed) =
        match &sheet {
            Some(c) => {
                let eff = c.effective();
                let max = eff.max_hp.value.max(1) as u32;
                // The dead show as dead: what held them when they fell (a stun) is not shown.
                let conds: Vec<String> = c
                    .conditions
                    .iter()
                    .filter(|_| !c.dead)
                    .map(|x| match x.level {
                        Some(l) => format!("{} {l}", x.condition),
                        None => x.condition.to_string(),
                    })
                    .collect();
                (
                    if cb.removed { "removed" } else { c.status() }.to_string(),
                    c.hp,
                    max,
                    c.temp_hp,
                    eff.armor_class.value,
                    conds,
                    c.concentration.as_ref().map(|k| k.spell.clone()),
                    (c.hp == 0 && !c.dead && !c.death_saves.stable)
                        .then_some((c.death_saves.successes, c.death_saves.failures)),
                    eff.speed.value.max(0) as u32,
                )
            }
            None => ("gone".into(), 0, 1, 0, 0, Vec::new(), None, None, 0),
        };
    if cb.flags.dodging {
        conditions.push("dodging".into());
    }
    if let Some(s) = cb.flags.hidden {
        conditions.push(format!("hidden (Stealth {s})"));
    }
    if let Some(r) = &cb.flags.readied {
        conditions.push(format!("readied: {}", r.trigger));
    }
    if cb.surprised {
        conditions.push("surprised".into());
    }
    Ok(CombatantView {
        id: cb.character_id.clone(),
        name: cb.name.clone(),
        side: cb.side,
        initiative: cb.initiative,
        current,
        status,
        hp_percent: (!standard).then(|| hp * 100 / max_hp.max(1)),
        hp_state: None,
        hp: standard.then_some(hp),
        max_hp: standard.then_some(max_hp),
        temp_hp: (standard && temp_hp > 0).then_some(temp_hp),
        ac: standard.then_some(ac),
        position: if standard {
            e.position_of(&cb.character_id)
        } else {
            None
        },
        conditions,
        concentrating,
        death_saves,
        economy: detailed.then(|| cb.economy.clone()),
        movement_left_ft: (detailed && current).then(|| {
            (speed + cb.economy.movement_bonus_ft).saturating_sub(cb.economy.movement_used_ft)
        }),
        effects: match (&sheet, standard) {
            (Some(c), true) => c.effects.iter().map(|x| x.name.clone()).collect(),
            _ => Vec::new(),
        },
        used: if standard && current {
            used(&cb.economy)
        } else {
            Vec::new()
        },
        reaction_policy: (!cb.reaction_policy.is_auto()).then_some(cb.reaction_policy),
    })
}

/// What a creature has used of its turn, in words.
fn used(e: &Economy) -> Vec<String> {
    let mut out = Vec::new();
    if e.action {
        out.push("action".to_string());
    }
    if e.attacks_left > 0 {
        out.push(format!("attack ({} left)", e.attacks_left));
    }
    if e.bonus_action {
        out.push("bonus action".into());
    }
    if e.reaction {
        out.push("reaction".into());
    }
    if e.object_interaction {
        out.push("object interaction".into());
    }
    if e.movement_used_ft > 0 {
        out.push(format!("{} ft of movement", e.movement_used_ft));
    }
    out
}
