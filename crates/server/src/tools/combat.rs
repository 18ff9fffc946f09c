//! Combat tools: `create_encounter`, `get_encounter`, `execute_action`.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Deserialize;
use tabletop_engine::catalog::caster_rules::Metamagic;
use tabletop_engine::combat::Side;
use tabletop_engine::combat::actions::{
    ActionCost, ActionOutcome, ActionRequest, ActionType, ReactionAnswer, ShoveMode, Who, execute,
};
use tabletop_engine::combat::create::{
    CreateEncounter, CreatedEncounter, HazardSpec, InlineAttack, InlineStatBlock,
    ParticipantSource, ParticipantSpec, TerrainSpec, create_encounter,
};
use tabletop_engine::combat::view::{EncounterView, Verbosity, get_encounter};
use tabletop_engine::{Call, EngineError};
use tabletop_grid::{Light, Position};
use tabletop_rules::{Ability, Condition, DamageType, Size};

use super::{Access, invoke, invoke_batch};
use crate::arg_enum;
use crate::reply::Reply;
use crate::schema::{input_schema, with_batch};
use crate::spec::{Category, ToolSpec};

arg_enum! {
    /// Which side a combatant fights on.
    pub enum SideArg { Party = "party", Enemy = "enemy", Ally = "ally", Neutral = "neutral" }
}

impl From<SideArg> for Side {
    fn from(s: SideArg) -> Self {
        match s {
            SideArg::Party => Side::Party,
            SideArg::Enemy => Side::Enemy,
            SideArg::Ally => Side::Ally,
            SideArg::Neutral => Side::Neutral,
        }
    }
}

arg_enum! {
    /// Light on the battlefield.
    pub enum LightArg { Bright = "bright", Dim = "dim", Darkness = "darkness", MagicalDarkness = "magical_darkness" }
}

impl From<LightArg> for Light {
    fn from(l: LightArg) -> Self {
        match l {
            LightArg::Bright => Light::Bright,
            LightArg::Dim => Light::Dim,
            LightArg::Darkness => Light::Darkness,
            LightArg::MagicalDarkness => Light::MagicalDarkness,
        }
    }
}

/// An attack of an inline stat block.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct AttackArg {
    pub name: String,
    /// To-hit bonus.
    pub bonus: i32,
    /// Damage dice, e.g. "1d6+2" or "1d8[piercing]+1d6[poison]".
    pub damage: String,
    pub damage_type: Option<DamageType>,
    /// Melee reach in feet (default 5).
    pub reach: Option<u32>,
    /// Ranged: [normal, long] in feet.
    pub range: Option<(u32, u32)>,
}

/// One participant: an existing character, SRD monsters, or an inline stat block.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ParticipantArg {
    pub character_id: Option<String>,
    pub character_name: Option<String>,
    /// SRD monster name, e.g. "goblin".
    pub monster: Option<String>,
    /// How many of the monster (1–20).
    pub count: Option<u32>,
    /// Inline creature's name (or base name for monsters).
    pub name: Option<String>,
    pub hp: Option<u32>,
    pub ac: Option<i32>,
    /// Speed in feet.
    pub speed: Option<u32>,
    pub size: Option<Size>,
    pub stats: Option<BTreeMap<Ability, i64>>,
    pub cr: Option<f32>,
    pub attacks: Option<Vec<AttackArg>>,
    pub resistances: Option<Vec<DamageType>>,
    pub immunities: Option<Vec<DamageType>>,
    pub vulnerabilities: Option<Vec<DamageType>>,
    pub condition_immunities: Option<Vec<Condition>>,
    /// Default from character type; monsters enemy.
    pub side: Option<SideArg>,
    /// Square {x, y, z?}; for count > 1 use positions.
    pub position: Option<Position>,
    pub positions: Option<Vec<Position>>,
    pub surprised: Option<bool>,
    /// Fixed initiative total instead of a roll.
    pub initiative: Option<i32>,
}

/// A hazard square.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct HazardArg {
    pub x: i32,
    pub y: i32,
    pub name: String,
    /// e.g. "1d10 fire".
    pub damage: Option<String>,
}

/// The battlefield; squares are {x, y}.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct TerrainArg {
    /// Squares (default 20; max 200).
    pub width: Option<u32>,
    pub height: Option<u32>,
    pub walls: Option<Vec<Position>>,
    pub obstacles: Option<Vec<Position>>,
    /// Half-height cover.
    pub low_walls: Option<Vec<Position>>,
    pub difficult: Option<Vec<Position>>,
    pub water: Option<Vec<Position>>,
    pub hazards: Option<Vec<HazardArg>>,
}

/// Arguments of `create_encounter`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CreateEncounterArgs {
    pub name: Option<String>,
    pub participants: Vec<ParticipantArg>,
    pub terrain: Option<TerrainArg>,
    pub lighting: Option<LightArg>,
    /// End by itself when one side is down.
    pub auto_end: Option<bool>,
}

pub(super) fn participant(p: ParticipantArg) -> Result<ParticipantSpec, EngineError> {
    let mut positions: Vec<Position> = p.position.into_iter().collect();
    positions.extend(p.positions.unwrap_or_default());
    let inline = p.hp.is_some() || p.ac.is_some() || p.attacks.is_some();
    let source = if p.character_id.is_some() || p.character_name.is_some() {
        ParticipantSource::Character {
            id: p.character_id,
            name: p.character_name,
        }
    } else if let Some(m) = p.monster {
        ParticipantSource::Monster {
            monster: m,
            count: p.count.unwrap_or(1),
            name: p.name,
        }
    } else if inline {
        ParticipantSource::Inline(Box::new(InlineStatBlock {
            name: p.name.unwrap_or_default(),
            hp: p.hp.ok_or_else(|| {
                EngineError::invalid("participants[].hp", "an inline stat block needs hp and ac")
            })?,
            ac: p.ac.ok_or_else(|| {
                EngineError::invalid("participants[].ac", "an inline stat block needs hp and ac")
            })?,
            speed: p.speed,
            size: p.size,
            stats: p.stats.unwrap_or_default(),
            cr: p.cr,
            attacks: p
                .attacks
                .unwrap_or_default()
                .into_iter()
                .map(|a| InlineAttack {
                    name: a.name,
                    bonus: a.bonus,
                    damage: a.damage,
                    damage_type: a.damage_type,
                    reach_ft: a.reach,
                    range_ft: a.range,
                })
                .collect(),
            resistances: p.resistances.unwrap_or_default(),
            immunities: p.immunities.unwrap_or_default(),
            vulnerabilities: p.vulnerabilities.unwrap_or_default(),
            condition_immunities: p.condition_immunities.unwrap_or_default(),
        }))
    } else {
        return Err(EngineError::invalid(
            "participants[]",
            "each participant needs characterId/characterName, monster (+count), or an inline stat block (name, hp, ac, attacks)",
        ));
    };
    Ok(ParticipantSpec {
        source,
        side: p.side.map(Into::into),
        positions,
        surprised: p.surprised.unwrap_or(false),
        initiative: p.initiative,
    })
}

fn run_create(call: &mut Call<'_>, a: CreateEncounterArgs) -> Result<Reply, EngineError> {
    let t = a.terrain.unwrap_or_default();
    let req = CreateEncounter {
        name: a.name,
        participants: a
            .participants
            .into_iter()
            .map(participant)
            .collect::<Result<_, _>>()?,
        terrain: TerrainSpec {
            width: t.width,
            height: t.height,
            walls: t.walls.unwrap_or_default(),
            obstacles: t.obstacles.unwrap_or_default(),
            low_walls: t.low_walls.unwrap_or_default(),
            difficult: t.difficult.unwrap_or_default(),
            water: t.water.unwrap_or_default(),
            hazards: t
                .hazards
                .unwrap_or_default()
                .into_iter()
                .map(|h| HazardSpec {
                    at: Position::new(h.x, h.y),
                    name: h.name,
                    damage: h.damage,
                })
                .collect(),
            lighting: a.lighting.map(Into::into),
        },
        auto_end: a.auto_end.unwrap_or(false),
    };
    let out = create_encounter(call, req)?;
    let view = tabletop_engine::combat::view::view(call, &out.encounter, Verbosity::Standard)?;
    Ok(Reply::new(
        created_text(&out, &view),
        &crate::output::EncounterCreated {
            encounter_id: out.encounter.id.clone(),
            name: out.encounter.name.clone(),
            round: out.encounter.round,
            initiative: out.initiative.clone(),
            spawned: out.spawned.clone(),
            difficulty: out.encounter.difficulty.clone(),
            notes: out.notes.clone(),
            encounter: view,
        },
    ))
}

fn created_text(out: &CreatedEncounter, view: &EncounterView) -> String {
    let e = &out.encounter;
    let mut t = format!(
        "Encounter {} ({}) begins: round 1, {} acts first.",
        e.name,
        e.id,
        view.turn.as_deref().unwrap_or("nobody")
    );
    if let Some(d) = &e.difficulty {
        t.push_str(&format!("\nDifficulty: {}.", d.summary()));
    }
    t.push_str("\nInitiative:");
    for r in &out.initiative {
        let die = r.d20.map(|d| format!(" (d20 {d})")).unwrap_or_default();
        t.push_str(&format!(
            "\n- {} {}{die} — {} at ({}, {})",
            r.total, r.name, r.side, r.position.x, r.position.y
        ));
    }
    if !out.spawned.is_empty() {
        t.push_str(&format!("\nCreated: {}.", out.spawned.join(", ")));
    }
    for n in &out.notes {
        t.push_str(&format!("\nNote: {n}."));
    }
    t
}

arg_enum! {
    /// How much of the encounter to show.
    pub enum VerbosityArg { Minimal = "minimal", Summary = "summary", Standard = "standard", Detailed = "detailed" }
}

impl From<VerbosityArg> for Verbosity {
    fn from(v: VerbosityArg) -> Self {
        match v {
            VerbosityArg::Minimal => Verbosity::Minimal,
            VerbosityArg::Summary => Verbosity::Summary,
            VerbosityArg::Standard => Verbosity::Standard,
            VerbosityArg::Detailed => Verbosity::Detailed,
        }
    }
}

/// Arguments of `get_encounter`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct GetEncounterArgs {
    /// Default: the active encounter.
    pub encounter_id: Option<String>,
    /// minimal, summary, standard (default), detailed.
    pub verbosity: Option<VerbosityArg>,
}

fn run_get(call: &mut Call<'_>, a: GetEncounterArgs) -> Result<Reply, EngineError> {
    let v = get_encounter(
        call,
        a.encounter_id.as_deref(),
        a.verbosity.map(Into::into).unwrap_or_default(),
    )?;
    Ok(Reply::new(view_text(&v), &v))
}

/// The text of an encounter view: a header, then one line per combatant.
pub fn view_text(v: &EncounterView) -> String {
    let mut t = format!(
        "{} ({}) — {}, round {}, {}'s turn.",
        v.name,
        v.id,
        match v.status {
            tabletop_engine::combat::EncounterStatus::Active => "active",
            tabletop_engine::combat::EncounterStatus::Ended => "ended",
        },
        v.round,
        v.turn.as_deref().unwrap_or("nobody")
    );
    if let Some(o) = &v.outcome {
        t.push_str(&format!(" Outcome: {o}."));
    }
    for c in &v.combatants {
        let marker = if c.current { "▶" } else { "-" };
        let hp = match (c.hp, c.max_hp, c.hp_percent) {
            (Some(h), Some(m), _) => {
                let tmp = c.temp_hp.map(|x| format!("+{x}")).unwrap_or_default();
                format!("HP {h}{tmp}/{m}")
            }
            (_, _, Some(p)) => format!("HP {p}%"),
            _ => c.hp_state.map(str::to_string).unwrap_or_default(),
        };
        let mut bits = vec![
            format!("{} {}", c.initiative, c.name),
            c.side.to_string(),
            hp,
        ];
        if let Some(ac) = c.ac {
            bits.push(format!("AC {ac}"));
        }
        if let Some(p) = c.position {
            bits.push(if p.z == 0 {
                format!("({}, {})", p.x, p.y)
            } else {
                format!("({}, {}, z{})", p.x, p.y, p.z)
            });
        }
        if c.status != "ok" {
            bits.push(c.status.clone());
        }
        if let Some((s, f)) = c.death_saves {
            bits.push(format!("death saves {s}✓ {f}✗"));
        }
        if !c.conditions.is_empty() {
            bits.push(c.conditions.join(", "));
        }
        if let Some(k) = &c.concentrating {
            bits.push(format!("concentrating on {k}"));
        }
        if let Some(m) = c.movement_left_ft {
            bits.push(format!("{m} ft movement left"));
        }
        if !c.effects.is_empty() {
            bits.push(format!("effects: {}", c.effects.join(", ")));
        }
        if !c.used.is_empty() {
            bits.push(format!("used: {}", c.used.join(", ")));
        }
        if let Some(p) = c.reaction_policy {
            bits.push(format!("reactions: {}", p.key()));
        }
        bits.retain(|b| !b.is_empty());
        t.push_str(&format!("\n{marker} {}", bits.join(" · ")));
    }
    if let Some(p) = &v.pending_reaction {
        t.push_str(&format!(
            "\nPending reaction: {} may take {} ({}); answer with execute_action actionType react, answer accept or decline.",
            p.reactor, p.reaction, p.trigger
        ));
    }
    if let Some(m) = &v.map {
        t.push_str(&format!("\n\n{m}"));
    }
    if let Some(d) = &v.difficulty {
        t.push_str(&format!("\nDifficulty: {}.", d.summary()));
    }
    if !v.log.is_empty() {
        t.push_str("\nLog:");
        for l in &v.log {
            t.push_str(&format!("\n[r{}] {}", l.round, l.text));
        }
    }
    t
}

arg_enum! {
    /// Action types.
    pub enum ActionTypeArg {
        Attack = "attack", CastSpell = "cast_spell", Move = "move", Dash = "dash",
        Disengage = "disengage", Dodge = "dodge", Help = "help", Hide = "hide", Ready = "ready",
        Search = "search", UseObject = "use_object", UseMagicItem = "use_magic_item",
        UseSpecialAbility = "use_special_ability", Grapple = "grapple", Shove = "shove",
        TwoWeaponAttack = "two_weapon_attack", Damage = "damage", Heal = "heal",
        LegendaryAction = "legendary_action", LairAction = "lair_action", React = "react",
    }
}

impl From<ActionTypeArg> for ActionType {
    fn from(a: ActionTypeArg) -> Self {
        use ActionTypeArg as A;
        match a {
            A::Attack => ActionType::Attack,
            A::CastSpell => ActionType::CastSpell,
            A::Move => ActionType::Move,
            A::Dash => ActionType::Dash,
            A::Disengage => ActionType::Disengage,
            A::Dodge => ActionType::Dodge,
            A::Help => ActionType::Help,
            A::Hide => ActionType::Hide,
            A::Ready => ActionType::Ready,
            A::Search => ActionType::Search,
            A::UseObject => ActionType::UseObject,
            A::UseMagicItem => ActionType::UseMagicItem,
            A::UseSpecialAbility => ActionType::UseSpecialAbility,
            A::Grapple => ActionType::Grapple,
            A::Shove => ActionType::Shove,
            A::TwoWeaponAttack => ActionType::TwoWeaponAttack,
            A::Damage => ActionType::Damage,
            A::Heal => ActionType::Heal,
            A::LegendaryAction => ActionType::LegendaryAction,
            A::LairAction => ActionType::LairAction,
            A::React => ActionType::React,
        }
    }
}

arg_enum! {
    /// What part of the turn an action uses.
    pub enum ActionCostArg {
        Action = "action", BonusAction = "bonus_action", Reaction = "reaction", Free = "free", Movement = "movement",
    }
}

impl From<ActionCostArg> for ActionCost {
    fn from(a: ActionCostArg) -> Self {
        match a {
            ActionCostArg::Action => ActionCost::Action,
            ActionCostArg::BonusAction => ActionCost::BonusAction,
            ActionCostArg::Reaction => ActionCost::Reaction,
            ActionCostArg::Free => ActionCost::Free,
            ActionCostArg::Movement => ActionCost::Movement,
        }
    }
}

arg_enum! {
    /// react: take or let pass the pending reaction.
    pub enum AnswerArg { Accept = "accept", Decline = "decline" }
}

arg_enum! {
    /// Shove: knock prone or push 5 ft.
    pub enum ShoveArg { Prone = "prone", Push = "push" }
}

/// A combatant by id or name.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct WhoArg {
    pub id: Option<String>,
    pub name: Option<String>,
}

/// Arguments of `execute_action`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ExecuteActionArgs {
    /// Default: the active encounter.
    pub encounter_id: Option<String>,
    pub actor_id: Option<String>,
    pub actor_name: Option<String>,
    pub action_type: ActionTypeArg,
    /// Default per action (attack: action, two_weapon_attack: bonus_action, move: movement).
    pub action_cost: Option<ActionCostArg>,
    pub target_id: Option<String>,
    pub target_name: Option<String>,
    /// Several targets [{id|name}].
    pub targets: Option<Vec<WhoArg>>,
    /// Equipped weapon or stat-block action ("Scimitar", "Multiattack").
    pub weapon: Option<String>,
    pub ability: Option<Ability>,
    /// Destination or aim square {x, y, z?}.
    pub to: Option<Position>,
    /// Explicit path of adjacent squares.
    pub path: Option<Vec<Position>>,
    pub spell: Option<String>,
    pub slot_level: Option<u8>,
    /// Cast as a ritual: no slot, outside combat.
    pub ritual: Option<bool>,
    /// Cone/line direction ("north", "se") when no aim square.
    pub direction: Option<String>,
    /// Damage/heal dice or number ("2d6+3", "1d8[fire]").
    pub amount: Option<String>,
    pub damage_type: Option<DamageType>,
    /// Special, legendary or lair ability name.
    pub ability_name: Option<String>,
    /// Inventory item (use_magic_item, use_object).
    pub item: Option<String>,
    /// ready: the trigger.
    pub trigger: Option<String>,
    /// ready: the held action (an execute_action item).
    #[schemars(with = "Option<serde_json::Map<String, serde_json::Value>>")]
    pub readied_action: Option<serde_json::Value>,
    pub shove_mode: Option<ShoveArg>,
    pub description: Option<String>,
    /// lair_action: save DC (ability names the save).
    pub dc: Option<i32>,
    pub advantage: Option<bool>,
    pub disadvantage: Option<bool>,
    pub bonus: Option<i32>,
    /// DM override of turn order and economy (reported).
    pub force: Option<bool>,
    /// false: decline Sneak Attack on this hit.
    pub sneak_attack: Option<bool>,
    /// Summoning spell: the SRD creature ("wolf").
    pub creature: Option<String>,
    /// react: accept or decline the pending reaction.
    pub answer: Option<AnswerArg>,
    /// Sorcerer's options ("quickened", "twinned"…).
    pub metamagic: Option<Vec<String>>,
}

fn metamagic(names: Option<Vec<String>>) -> Result<Vec<Metamagic>, EngineError> {
    names
        .unwrap_or_default()
        .iter()
        .map(|n| {
            Metamagic::parse(n).ok_or_else(|| {
                EngineError::invalid(
                    "metamagic",
                    format!(
                        "'{n}' is no Metamagic option; use careful, distant, empowered, extended, heightened, quickened, subtle, twinned"
                    ),
                )
            })
        })
        .collect()
}

fn who(id: Option<String>, name: Option<String>) -> Who {
    Who { id, name }
}

fn run_action(call: &mut Call<'_>, a: ExecuteActionArgs) -> Result<Reply, EngineError> {
    let req = ActionRequest {
        encounter_id: a.encounter_id,
        actor: who(a.actor_id, a.actor_name),
        action_type: Some(a.action_type.into()),
        action_cost: a.action_cost.map(Into::into),
        target: who(a.target_id, a.target_name),
        targets: a
            .targets
            .unwrap_or_default()
            .into_iter()
            .map(|w| who(w.id, w.name))
            .collect(),
        weapon: a.weapon,
        ability: a.ability,
        to: a.to,
        path: a.path.unwrap_or_default(),
        spell: a.spell,
        slot_level: a.slot_level,
        ritual: a.ritual.unwrap_or(false),
        direction: a.direction,
        amount: a.amount,
        damage_type: a.damage_type,
        ability_name: a.ability_name,
        item: a.item,
        trigger: a.trigger,
        readied_action: a.readied_action,
        shove_mode: a.shove_mode.map(|s| match s {
            ShoveArg::Prone => ShoveMode::Prone,
            ShoveArg::Push => ShoveMode::Push,
        }),
        description: a.description,
        dc: a.dc,
        advantage: a.advantage.unwrap_or(false),
        disadvantage: a.disadvantage.unwrap_or(false),
        bonus: a.bonus.unwrap_or(0),
        force: a.force.unwrap_or(false),
        sneak_attack: a.sneak_attack,
        creature: a.creature,
        answer: a.answer.map(|x| match x {
            AnswerArg::Accept => ReactionAnswer::Accept,
            AnswerArg::Decline => ReactionAnswer::Decline,
        }),
        reactions_decided: Vec::new(),
        metamagic: metamagic(a.metamagic)?,
    };
    let out = execute(call, &req)?;
    Ok(Reply::new(action_text(&out), &out))
}

/// The text of an action: the outcome first, then what followed.
pub fn action_text(o: &ActionOutcome) -> String {
    let mut t = o.headline.clone();
    for l in &o.lines {
        t.push_str(&format!("\n{l}"));
    }
    if !o.forced.is_empty() {
        t.push_str(&format!("\nForced (DM override): {}.", o.forced.join("; ")));
    }
    if let Some(e) = &o.economy {
        let mut left = Vec::new();
        if !e.action {
            left.push("action".to_string());
        }
        if e.attacks_left > 0 {
            left.push(format!("{} attack(s) of the Attack action", e.attacks_left));
        }
        if !e.bonus_action {
            left.push("bonus action".into());
        }
        if !e.reaction {
            left.push("reaction".into());
        }
        if !left.is_empty() {
            t.push_str(&format!("\n{} has left: {}.", o.actor, left.join(", ")));
        }
    }
    t
}

pub(super) fn specs() -> Vec<ToolSpec> {
    vec![
        ToolSpec {
            name: "create_encounter",
            title: "Create encounter",
            category: Category::Combat,
            description: "Start a fight: characters, SRD monsters or inline stat blocks on a grid map; rolls initiative.",
            read_only: false,
            destructive: false,
            idempotent: false,
            core: true,
            max_result_chars: 8_000,
            schema: || input_schema::<CreateEncounterArgs>(),
            core_schema: None,
            handler: |e, n, raw| invoke(e, n, raw, Access::Write, run_create),
        },
        ToolSpec {
            name: "get_encounter",
            title: "Get encounter",
            category: Category::Combat,
            description: "Fight state: round, whose turn, HP, AC, conditions, positions; detailed adds map and log.",
            read_only: true,
            destructive: false,
            idempotent: true,
            core: true,
            max_result_chars: 12_000,
            schema: || input_schema::<GetEncounterArgs>(),
            core_schema: None,
            handler: |e, n, raw| invoke(e, n, raw, Access::Read, run_get),
        },
        ToolSpec {
            name: "execute_action",
            title: "Execute action",
            category: Category::Combat,
            description: "A combatant acts (attack, cast_spell, move, dodge, grapple, …); the engine rolls and applies every rule.",
            read_only: false,
            destructive: true,
            idempotent: false,
            core: true,
            max_result_chars: 10_000,
            schema: || with_batch(input_schema::<ExecuteActionArgs>(), "actions"),
            core_schema: None,
            handler: |e, n, raw| invoke_batch(e, n, raw, Access::Write, run_action),
        },
    ]
}
