//! `execute_action`: every action a combatant can take, with the action economy enforced.
//!
//! [`execute`] checks who may act and what it costs ([`economy`]), then hands the request to the
//! module that owns the action: [`attack`] (weapon and stat-block attacks, two-weapon fighting,
//! opportunity attacks, DM damage and healing), [`movement`] (move, dash, disengage),
//! [`tactics`] (dodge, help, hide, ready, search, objects and magic items, grapple, shove,
//! special, legendary and lair actions) and [`spell`] (cast_spell).

pub mod ammo;
pub mod area_choice;
pub mod area_path;
pub mod attack;
pub mod costs;
pub mod damage_to;
pub mod dm;
pub mod economy;
pub mod extra;
mod forced;
pub mod gear_magic;
pub mod hit_hold;
pub mod hit_save;
pub mod mirror;
pub mod move_rules;
pub mod movement;
pub mod multiattack;
pub mod perceive;
pub mod profile;
pub mod reactions;
pub mod reveal;
pub mod riders;
pub mod sanctuary;
pub mod spell;
pub mod spell_riders;
pub mod strike;
pub mod tactics;
pub mod trait_riders;
pub mod vision;

use serde::{Deserialize, Serialize};
use tabletop_grid::Position;
use tabletop_rules::{Ability, DamageType};

use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::character::Character;
use crate::model::encounter::*;

/// The data of this family lives in the model; re-exported so the old paths keep working.
pub use crate::model::encounter::ActionCost;

/// What is done.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum ActionType {
    /// One attack with a weapon or a stat-block attack (or a multiattack).
    Attack,
    /// Cast a spell.
    CastSpell,
    /// Move along a path or to a square.
    Move,
    /// Gain extra movement equal to speed.
    Dash,
    /// Movement provokes no opportunity attacks this turn.
    Disengage,
    /// Attacks against the actor have disadvantage until its next turn.
    Dodge,
    /// Give an ally advantage on its next attack against a target (or next check).
    Help,
    /// Stealth check against the hostiles' passive Perception.
    Hide,
    /// Hold an action for a trigger; taken later as a reaction.
    Ready,
    /// Perception or Investigation to find something or someone.
    Search,
    /// Interact with an object.
    UseObject,
    /// Use an item from the inventory (potion, wand, …).
    UseMagicItem,
    /// A stat-block ability (breath weapon, recharge abilities) or class feature.
    UseSpecialAbility,
    /// Contested Athletics to grapple a creature.
    Grapple,
    /// Contested Athletics to knock prone or push 5 ft.
    Shove,
    /// The off-hand attack of two-weapon fighting (bonus action).
    TwoWeaponAttack,
    /// Damage applied by the game master.
    Damage,
    /// Healing applied by the game master.
    Heal,
    /// A legendary action (at the end of another creature's turn).
    LegendaryAction,
    /// A lair action (initiative count 20).
    LairAction,
    /// Answer the pending reaction (`answer`: accept or decline).
    React,
}

impl ActionType {
    /// "attack", "cast_spell", …
    pub fn key(self) -> &'static str {
        match self {
            ActionType::Attack => "attack",
            ActionType::CastSpell => "cast_spell",
            ActionType::Move => "move",
            ActionType::Dash => "dash",
            ActionType::Disengage => "disengage",
            ActionType::Dodge => "dodge",
            ActionType::Help => "help",
            ActionType::Hide => "hide",
            ActionType::Ready => "ready",
            ActionType::Search => "search",
            ActionType::UseObject => "use_object",
            ActionType::UseMagicItem => "use_magic_item",
            ActionType::UseSpecialAbility => "use_special_ability",
            ActionType::Grapple => "grapple",
            ActionType::Shove => "shove",
            ActionType::TwoWeaponAttack => "two_weapon_attack",
            ActionType::Damage => "damage",
            ActionType::Heal => "heal",
            ActionType::LegendaryAction => "legendary_action",
            ActionType::LairAction => "lair_action",
            ActionType::React => "react",
        }
    }
}

/// Shove: knock prone or push away.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum ShoveMode {
    /// Knock the target prone.
    #[default]
    Prone,
    /// Push it 5 ft away.
    Push,
}

/// The answer to a pending reaction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum ReactionAnswer {
    /// Take the reaction (`weapon` for an opportunity attack, `slotLevel` for a spell).
    Accept,
    /// Let the trigger pass; the reaction stays unspent.
    Decline,
}

/// A combatant named by id or name.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Who {
    /// Character id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Or name (case-insensitive).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

impl ActionRequest {
    /// Every creature the request names: `target`, then `targets`, the empty ones left out.
    pub fn named_targets(&self) -> Vec<&Who> {
        std::iter::once(&self.target)
            .chain(&self.targets)
            .filter(|w| !w.is_empty())
            .collect()
    }

    /// The creature the request names first: the first of `targets`, else `target` when it
    /// names someone.
    pub fn first_target(&self) -> Option<&Who> {
        self.targets
            .first()
            .or(Some(&self.target).filter(|w| !w.is_empty()))
    }
}

impl Who {
    /// Whether neither id nor name is given.
    pub fn is_empty(&self) -> bool {
        self.id.as_deref().is_none_or(|s| s.trim().is_empty())
            && self.name.as_deref().is_none_or(|s| s.trim().is_empty())
    }
}

/// One `execute_action` request. Fields beyond the actor and type are read by the actions that
/// need them; an action refuses fields that make no sense for it only when ignoring them would
/// mislead.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ActionRequest {
    /// Encounter (default: the active one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub encounter_id: Option<String>,
    /// Who acts (absent for DM damage/heal and lair actions).
    #[serde(default)]
    pub actor: Who,
    /// What is done.
    pub action_type: Option<ActionType>,
    /// What it costs (default per action: attack → action, two_weapon_attack → bonus_action, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action_cost: Option<ActionCost>,
    /// The target.
    #[serde(default)]
    pub target: Who,
    /// Several targets (spells, area damage).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub targets: Vec<Who>,
    /// Weapon (equipped item) or stat-block action ("Scimitar", "Multiattack").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weapon: Option<String>,
    /// Ability to attack with (finesse: STR or DEX) or to check with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ability: Option<Ability>,
    /// Destination square (move) or area origin/aim point (spells).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<Position>,
    /// Explicit path of squares for a move (each adjacent to the previous).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub path: Vec<Position>,
    /// Spell name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spell: Option<String>,
    /// Slot level to cast at (upcasting).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slot_level: Option<u8>,
    /// Cast the spell as a ritual (no slot; 10 minutes longer, so outside combat).
    #[serde(default)]
    pub ritual: bool,
    /// Direction of a cone or line: a compass point ("north", "ne") when `to` is not given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub direction: Option<String>,
    /// Damage or healing: dice or a number ("2d6+3", "7"); typed dice allowed (`1d8[fire]`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub amount: Option<String>,
    /// Damage type for `amount` without tags.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub damage_type: Option<DamageType>,
    /// The stat-block ability, feature, legendary or lair action used.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ability_name: Option<String>,
    /// Inventory item used (use_magic_item, use_object).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub item: Option<String>,
    /// A readied action's trigger.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trigger: Option<String>,
    /// The readied action itself (an execute_action request without actor).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub readied_action: Option<serde_json::Value>,
    /// Shove: prone (default) or push.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shove_mode: Option<ShoveMode>,
    /// Free text (what object, what is searched for, the lair action's effect).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Save DC of a lair action (or other DM effect); `ability` names the save.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dc: Option<i32>,
    /// The caller grants advantage.
    #[serde(default)]
    pub advantage: bool,
    /// The caller imposes disadvantage.
    #[serde(default)]
    pub disadvantage: bool,
    /// Situational bonus to the roll.
    #[serde(default)]
    pub bonus: i32,
    /// Override the action economy and turn order (the answer says what was overridden).
    #[serde(default)]
    pub force: bool,
    /// `false` declines Sneak Attack on this attack's hit (it stays unused this turn).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sneak_attack: Option<bool>,
    /// A summoning spell's creature, by SRD name ("wolf").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub creature: Option<String>,
    /// `react`: accept or decline the pending reaction.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<ReactionAnswer>,
    /// cast_spell: the sorcerer's Metamagic options applied (sorcery points spent).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub metamagic: Vec<crate::catalog::caster_rules::Metamagic>,
    /// Combatants that already answered a reaction this action triggered (set by the engine
    /// when it resumes a paused action, so the same trigger is not offered twice).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reactions_decided: Vec<String>,
}

/// What one action did.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ActionOutcome {
    /// Encounter id.
    pub encounter_id: String,
    /// Who acted.
    pub actor: String,
    /// What was done.
    pub action_type: Option<ActionType>,
    /// What it cost.
    pub cost: Option<ActionCost>,
    /// The lead line ("Hit! Goblin 1 takes 9 slashing (7 → 0 HP) and dies.").
    pub headline: String,
    /// What followed, in order (rolls explained, saves, concentration, opportunity attacks).
    pub lines: Vec<String>,
    /// Rules the DM overrode with `force`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub forced: Vec<String>,
    /// The actor's turn after the action.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub economy: Option<Economy>,
    /// Action-specific details (attack rolls, damage per type, path, saves).
    #[serde(skip_serializing_if = "serde_json::Value::is_null")]
    pub details: serde_json::Value,
}

/// The context an action runs in: the loaded encounter and the acting combatant's sheet.
pub struct Turn<'r> {
    /// The encounter, saved after the action.
    pub encounter: Encounter,
    /// The actor's sheet (absent for DM damage/heal and lair actions without an actor).
    pub actor: Option<Character>,
    /// The request.
    pub req: &'r ActionRequest,
    /// The cost charged.
    pub cost: ActionCost,
    /// What `force` overrode.
    pub forced: Vec<String>,
}

/// Hands an action whose cost is already spent to the module that owns it.
fn dispatch(
    call: &mut Call<'_>,
    turn: &mut Turn<'_>,
    action_type: ActionType,
) -> Result<ActionOutcome> {
    Ok(match action_type {
        ActionType::Attack | ActionType::TwoWeaponAttack => {
            match multiattack::attack(call, turn)? {
                Some(out) => out,
                None => attack::attack(call, turn)?,
            }
        }
        ActionType::Damage => dm::dm_damage(call, turn)?,
        ActionType::Heal => dm::dm_heal(call, turn)?,
        ActionType::Move | ActionType::Dash | ActionType::Disengage => {
            movement::run(call, turn, action_type)?
        }
        ActionType::CastSpell => spell::cast(call, turn)?,
        ActionType::Dodge
        | ActionType::Help
        | ActionType::Hide
        | ActionType::Ready
        | ActionType::Search
        | ActionType::UseObject
        | ActionType::UseMagicItem
        | ActionType::UseSpecialAbility
        | ActionType::Grapple
        | ActionType::Shove
        | ActionType::LegendaryAction
        | ActionType::LairAction => tactics::run(call, turn, action_type)?,
        ActionType::React => {
            return Err(EngineError::Rule(
                "internal: react is answered before the economy".into(),
            ));
        }
    })
}

impl Turn<'_> {
    /// Checks a rule of this action; with `force` a broken rule is recorded in `forced` instead
    /// of refused.
    pub fn rule(&mut self, ok: bool, why: impl Into<String>) -> Result<()> {
        economy::rule(ok, self.req.force, &mut self.forced, why)
    }
}

/// Runs one action: validates the actor and the economy, dispatches, saves the encounter.
pub fn execute(call: &mut Call<'_>, req: &ActionRequest) -> Result<ActionOutcome> {
    let Some(action_type) = req.action_type else {
        return Err(EngineError::invalid(
            "actionType",
            "say what is done: attack, cast_spell, move, dash, disengage, dodge, help, hide, ready, search, use_object, use_magic_item, use_special_ability, grapple, shove, two_weapon_attack, damage, heal, legendary_action, lair_action",
        ));
    };
    // Caller numbers are checked, never wrapped: a situational bonus is a few points.
    if !(-100..=100).contains(&req.bonus) {
        return Err(EngineError::invalid(
            "bonus",
            format!(
                "a situational bonus is between -100 and 100 (got {}); give the creature's real numbers on its sheet",
                req.bonus
            ),
        ));
    }
    // Outside any encounter a spell is cast on the named characters, without a map.
    if action_type == ActionType::CastSpell
        && let Some(out) = spell::cast_outside_combat(call, req)?
    {
        return Ok(out);
    }
    // Outside any encounter a dragonborn's breath is spent and its numbers said.
    if action_type == ActionType::UseSpecialAbility
        && let Some(out) = tactics::breath::outside_combat(call, req)?
    {
        return Ok(out);
    }
    // A spell's casting time decides its cost when the request names none.
    let costed;
    let req = if action_type == ActionType::CastSpell && req.action_cost.is_none() {
        costed = ActionRequest {
            action_cost: Some(costs::casting_cost(call, req)),
            ..req.clone()
        };
        &costed
    } else {
        req
    };
    let mut named: Vec<&Who> = vec![&req.actor, &req.target];
    named.extend(req.targets.iter());
    let encounter = super::load_for(call, req.encounter_id.as_deref(), &named)?;
    // A pending reaction is answered before anything else happens in the fight.
    if action_type == ActionType::React {
        return reactions::answer(call, encounter, req);
    }
    reactions::refuse_while_pending(&encounter)?;
    // A spell cast within sight of a hostile that can Counterspell may be stopped first.
    let (encounter, mut before) = if action_type == ActionType::CastSpell {
        match reactions::counter::before_cast(call, encounter, req)? {
            reactions::counter::CastGate::Stopped(out) => return Ok(*out),
            reactions::counter::CastGate::Goes(e, lines) => (*e, lines),
        }
    } else {
        (encounter, Vec::new())
    };
    let watch = reactions::rebuke::watch(call, &encounter, req)?;
    // A readied action released by its trigger runs as the held action, paid with the reaction.
    let released = tactics::basic::release_readied(&encounter, req)?;
    let (req, action_type, trigger) = match &released {
        Some((held, t, trigger)) => (held, *t, Some(trigger.clone())),
        None => (req, action_type, None),
    };
    let mut turn = economy::begin(call, encounter, req, action_type)?;
    let mut out = match &trigger {
        Some(trigger) => {
            if let Some(a) = &turn.actor {
                let id = a.id.clone();
                tactics::basic::clear_readied(&mut turn.encounter, &id);
            }
            let mut out = if action_type == ActionType::Ready {
                tactics::basic::released_description(&turn, trigger)?
            } else {
                dispatch(call, &mut turn, action_type)?
            };
            out.lines.insert(
                0,
                format!("Readied action released by its trigger: {trigger}"),
            );
            out
        }
        None => dispatch(call, &mut turn, action_type)?,
    };
    // Attacking or casting ends what lasts only until then (a Potion of Invisibility).
    let offense = matches!(
        action_type,
        ActionType::Attack | ActionType::TwoWeaponAttack | ActionType::CastSpell
    ) || (action_type == ActionType::UseMagicItem
        && out.details.get("spell").is_some());
    if let (true, Some(a)) = (offense, turn.actor.as_ref()) {
        let mut s = super::sheet(call, &a.id)?;
        let ended = crate::inventory::potion::end_on_offense(&mut s);
        if !ended.is_empty() {
            super::put_sheet(call, &s)?;
            out.lines.extend(ended);
            turn.actor = Some(s);
        }
    }
    if !before.is_empty() {
        before.append(&mut out.lines);
        out.lines = before;
    }
    // A grappler that fell, was stunned or moved away (or whose target was pushed) lets go.
    out.lines.extend(tactics::contest::release_broken_grapples(
        call,
        &mut turn.encounter,
    )?);
    // A creature the action left incapacitated (held, asleep, stunned) stops concentrating.
    out.lines
        .extend(super::lapsed_concentration(call, &turn.encounter)?);
    // A flyer the action knocked prone, put to sleep or held falls.
    out.lines.extend(super::falls::fall_grounded_flyers(
        call,
        &mut turn.encounter,
    )?);
    // Tokens follow sizes a spell or a form changed.
    out.lines
        .extend(super::spatial::sizes::sync(call, &mut turn.encounter)?);
    out.encounter_id = turn.encounter.id.clone();
    out.action_type = Some(action_type);
    out.cost = Some(turn.cost);
    out.forced.extend(turn.forced.iter().cloned());
    if let Some(a) = &turn.actor {
        out.actor = a.name.clone();
        out.economy = turn.encounter.combatant(&a.id).map(|c| c.economy.clone());
    }
    // The log names who acted ("Rook: Hit! Ogre takes 7 slashing").
    let head = if out.actor.is_empty() || out.headline.starts_with(&out.actor) {
        out.headline.clone()
    } else {
        format!("{}: {}", out.actor, out.headline)
    };
    let line = if out.forced.is_empty() {
        head
    } else {
        format!("{head} [forced: {}]", out.forced.join("; "))
    };
    turn.encounter.log(line);
    // Damage taken may offer Hellish Rebuke (taken now with `auto`, pending with `ask`).
    let rebuke = reactions::rebuke::after(call, &mut turn.encounter, &watch)?;
    out.lines
        .extend(super::martial::sync_auras(call, &turn.encounter)?);
    super::save(call, &turn.encounter)?;
    let id = turn.encounter.id.clone();
    call.record_change("encounter", &id, out.headline.clone());
    reactions::rebuke::finish(call, rebuke, &mut out)?;
    Ok(out)
}
