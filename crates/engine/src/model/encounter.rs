//! The stored encounter: who fights, in what order, where they stand and what each has left
//! of its turn.
//!
//! Combatants are characters. Existing characters take part as themselves (every hit, condition
//! and spent slot lands on their sheet at once: nothing waits for a sync), and SRD monsters or
//! inline stat blocks are created as characters tagged with the encounter that spawned them. The
//! encounter keeps only what exists in combat: initiative, positions (on its [`BattleMap`]), the
//! action economy, readied actions, timed terrain, a short log, and a snapshot of each linked
//! character at the start so `end_encounter` can report what the fight changed.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use tabletop_grid::{BattleMap, Position, Terrain};
use tabletop_rules::Condition;

/// Which side a combatant fights on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// The player characters and those fighting with them as party members.
    Party,
    /// Hostile to the party.
    Enemy,
    /// Fighting with the party.
    Ally,
    /// On no side.
    Neutral,
}

impl Side {
    /// Whether two sides are hostile to each other (party and allies against enemies).
    pub fn hostile_to(self, other: Side) -> bool {
        matches!(
            (self, other),
            (Side::Enemy, Side::Party | Side::Ally) | (Side::Party | Side::Ally, Side::Enemy)
        )
    }

    /// Whether two sides fight together: the same side, or the party and its allies.
    pub fn friendly_to(self, other: Side) -> bool {
        self == other
            || matches!(
                (self, other),
                (Side::Party, Side::Ally) | (Side::Ally, Side::Party)
            )
    }

    /// "party", "enemy", …
    pub fn key(self) -> &'static str {
        match self {
            Side::Party => "party",
            Side::Enemy => "enemy",
            Side::Ally => "ally",
            Side::Neutral => "neutral",
        }
    }
}

impl std::fmt::Display for Side {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.key())
    }
}

/// Whether the encounter is running.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EncounterStatus {
    /// In progress.
    Active,
    /// Ended by `end_encounter`.
    Ended,
}

/// What a combatant has spent of its turn. Reset at the start of its turn (the reaction too).
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Economy {
    /// The action is spent.
    pub action: bool,
    /// The bonus action is spent.
    pub bonus_action: bool,
    /// The reaction is spent (refreshes at the start of its own turn).
    pub reaction: bool,
    /// The free object interaction is spent.
    pub object_interaction: bool,
    /// Feet of movement used this turn.
    pub movement_used_ft: u32,
    /// Extra movement granted this turn (dash adds the creature's speed).
    pub movement_bonus_ft: u32,
    /// Attacks left of an Attack action already begun (Extra Attack, multiattack parts).
    pub attacks_left: u32,
    /// The Attack action was taken this turn (two-weapon fighting needs it).
    pub attacked: bool,
    /// An attack roll was made since the turn began, with any action, a bonus action or a
    /// reaction (Reckless Attack is decided before the first).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub attack_made: bool,
    /// A spell was cast with the bonus action this turn (only a cantrip may follow as the action).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub bonus_action_spell: bool,
    /// A spell of 1st level or higher was cast with the action this turn (no bonus-action spell).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub leveled_action_spell: bool,
    /// The costs ("action", "bonus action", "reaction") with which a weapon of the loading
    /// property was fired this turn: one piece of ammunition per action, bonus action or
    /// reaction, whatever the number of attacks.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub loading_fired: Vec<String>,
}

/// An action held with `ready`, taken as a reaction when its trigger happens.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReadiedAction {
    /// The trigger in words ("when a goblin comes within reach").
    pub trigger: String,
    /// The action to take, as an `execute_action` request (JSON) or a description.
    pub action: serde_json::Value,
    /// Round it was readied in (it lapses at the start of the creature's next turn).
    pub round: u32,
}

/// A Help action's advantage and its giver.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct HelpGiven {
    /// The helper's id.
    pub helper: String,
    /// The foe the next attack is helped against; none for the next ability check.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub foe: Option<String>,
}

impl TurnFlags {
    /// Records `helper`'s Help: on the next attack against `foe`, or the next ability check.
    pub fn give_help(&mut self, helper: &str, foe: Option<&str>) {
        match foe {
            Some(f) if !self.helped_against.iter().any(|h| h == f) => {
                self.helped_against.push(f.to_string());
            }
            Some(_) => {}
            None => self.helped_check = true,
        }
        self.help_from
            .retain(|h| !(h.helper == helper && h.foe.as_deref() == foe));
        self.help_from.push(HelpGiven {
            helper: helper.to_string(),
            foe: foe.map(str::to_string),
        });
    }

    /// The help on the attack against `foe` (or, with none, the ability check) was used.
    pub fn help_used(&mut self, foe: Option<&str>) {
        match foe {
            Some(f) => self.helped_against.retain(|h| h != f),
            None => self.helped_check = false,
        }
        self.help_from.retain(|h| h.foe.as_deref() != foe);
    }

    /// The start of `helper`'s turn: the Help it gave and that is still unused lapses ("before
    /// the start of your next turn"). Whether any did.
    pub fn help_lapses(&mut self, helper: &str) -> bool {
        if !self.help_from.iter().any(|h| h.helper == helper) {
            return false;
        }
        self.help_from.retain(|h| h.helper != helper);
        let given = &self.help_from;
        self.helped_against
            .retain(|f| given.iter().any(|h| h.foe.as_deref() == Some(f.as_str())));
        self.helped_check = given.iter().any(|h| h.foe.is_none());
        true
    }
}

/// Transient states that end at a point in the turn order.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct TurnFlags {
    /// Dodging until the start of its next turn: attacks against it have disadvantage, DEX saves
    /// advantage.
    pub dodging: bool,
    /// Disengaged this turn: its movement provokes no opportunity attacks.
    pub disengaged: bool,
    /// Hidden, with the Stealth total that observers' Perception must beat.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hidden: Option<i32>,
    /// Combatant ids it has the Help action's advantage against (its next attack on them).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub helped_against: Vec<String>,
    /// Helped on its next ability check.
    pub helped_check: bool,
    /// Who gave those Help advantages: each lasts until it is used or the start of its
    /// helper's next turn ([`TurnFlags::help_lapses`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub help_from: Vec<HelpGiven>,
    /// A readied action waiting for its trigger.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub readied: Option<ReadiedAction>,
    /// It attacked a creature not on its side ([`Encounter::mark_attack`]) or took damage in
    /// the fight since its last turn ended (keeps a Rage going; damage also marks the Rage
    /// itself, `ActiveEffect::damaged_since_turn`, wherever it lands).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub fought: bool,
    /// The turn (round, index) its Colossus Slayer last added damage: once per turn.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub colossus_slayer_turn: Option<(u32, usize)>,
    /// The creatures it hit with a melee weapon attack (an unarmed strike too), once per hit,
    /// and the turn (round, index) they were hit in: what Stunning Strike needs (one attempt
    /// per hit takes one entry).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub melee_hits: Option<((u32, usize), Vec<String>)>,
    /// The hits of `melee_hits` already used, one entry per use (a Stunning Strike attempt).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub melee_hits_used: Vec<String>,
    /// A size its token could not take for want of room, said once (not after every action).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size_refused: Option<tabletop_rules::Size>,
}

impl TurnFlags {
    /// Records a melee weapon hit on `target` in `turn`.
    pub fn record_melee_hit(&mut self, turn: (u32, usize), target: &str) {
        match &mut self.melee_hits {
            Some((t, ids)) if *t == turn => ids.push(target.to_string()),
            _ => {
                self.melee_hits = Some((turn, vec![target.to_string()]));
                self.melee_hits_used.clear();
            }
        }
    }

    /// Whether it hit `target` with a melee weapon attack in `turn`.
    pub fn melee_hit(&self, turn: (u32, usize), target: &str) -> bool {
        self.melee_hits
            .as_ref()
            .is_some_and(|(t, ids)| *t == turn && ids.iter().any(|i| i == target))
    }

    /// Uses one melee weapon hit on `target` in `turn` (a Stunning Strike attempt follows one
    /// hit); false when every hit on it this turn has been used.
    pub fn use_melee_hit(&mut self, turn: (u32, usize), target: &str) -> bool {
        let hits = match &self.melee_hits {
            Some((t, ids)) if *t == turn => ids.iter().filter(|i| *i == target).count(),
            _ => 0,
        };
        let used = self.melee_hits_used.iter().filter(|i| *i == target).count();
        if hits > used {
            self.melee_hits_used.push(target.to_string());
            true
        } else {
            false
        }
    }
}

/// One combatant: a character in the initiative order.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Combatant {
    /// The character's id (also the creature's id on the map).
    pub character_id: String,
    /// Name at the time it joined (kept for logs; the sheet holds the live name).
    pub name: String,
    /// Side.
    pub side: Side,
    /// Initiative total.
    pub initiative: i32,
    /// Tie-breakers: DEX score, then a seeded roll; higher acts first.
    pub tiebreak: (i32, u32),
    /// Created by this encounter (an SRD monster or inline stat block).
    #[serde(default)]
    pub spawned: bool,
    /// Surprised: no actions or reactions until its first turn ends.
    #[serde(default)]
    pub surprised: bool,
    /// Left the fight (removed, fled): stays in the log, skipped in the order.
    #[serde(default)]
    pub removed: bool,
    /// What is spent of the current turn.
    #[serde(default)]
    pub economy: Economy,
    /// Dodge, disengage, hide, help, ready.
    #[serde(default)]
    pub flags: TurnFlags,
    /// Legendary actions left this round (stat blocks that have them).
    #[serde(default)]
    pub legendary_actions: u32,
    /// Stat-block abilities with a recharge that are spent ("Fire Breath").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spent_abilities: Vec<String>,
    /// The (round, turn) in which it last added Sneak Attack (once per turn).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sneak_attack_turn: Option<(u32, usize)>,
    /// The (round, turn) in which it last added Divine Strike (once per turn).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub divine_strike_turn: Option<(u32, usize)>,
    /// The (round, turn) in which it last rolled a death save (once per turn, its own).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub death_save_turn: Option<(u32, usize)>,
    /// How its reactions are decided when a trigger offers one (auto, ask, never).
    #[serde(default, skip_serializing_if = "ReactionPolicy::is_auto")]
    pub reaction_policy: ReactionPolicy,
}

/// How a combatant's reactions are decided when a trigger offers one (an opportunity attack,
/// Shield, Counterspell, Hellish Rebuke).
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReactionPolicy {
    /// The engine takes every reaction that helps (an opportunity attack unless an action is
    /// readied, Shield when it turns a hit into a miss, Counterspell against a spell of 1st
    /// level or higher, Hellish Rebuke).
    #[default]
    Auto,
    /// The triggering action pauses with a pending reaction the agent answers (`react`).
    Ask,
    /// The combatant never reacts on its own; only an explicit reaction action spends it.
    Never,
}

impl ReactionPolicy {
    /// Whether it is the default (`auto`).
    pub fn is_auto(&self) -> bool {
        *self == ReactionPolicy::Auto
    }

    /// "auto", "ask", "never".
    pub fn key(self) -> &'static str {
        match self {
            ReactionPolicy::Auto => "auto",
            ReactionPolicy::Ask => "ask",
            ReactionPolicy::Never => "never",
        }
    }
}

/// A reaction offered to a combatant with the `ask` policy: the triggering action waits for the
/// answer (`execute_action` with `actionType: react`, `answer: accept | decline`).
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PendingReaction {
    /// Who may react.
    pub reactor_id: String,
    /// Its name.
    pub reactor: String,
    /// The reaction offered ("opportunity attack", "Shield", "Counterspell", "Hellish Rebuke").
    pub reaction: String,
    /// What triggered it, in words.
    pub trigger: String,
    /// What happens after the answer.
    pub resume: Resume,
}

/// How a paused action goes on once the reaction is answered.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "kind")]
pub enum Resume {
    /// The rest of a move: an `execute_action` request (JSON) run after the answer.
    Action {
        /// The request.
        request: serde_json::Value,
    },
    /// An attack roll that hit: resolved after the answer with the same roll.
    Hit {
        /// The attacker.
        attacker_id: String,
        /// The target (the reactor).
        target_id: String,
        /// The weapon or stat-block action.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        weapon: Option<String>,
        /// The attack roll already made.
        roll: Box<tabletop_rules::d20::D20Outcome>,
        /// The strike's options (JSON).
        options: serde_json::Value,
        /// Multiattack parts still to make: (action, target id).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        rest: Vec<(String, String)>,
        /// A request to run afterwards (the rest of a move that provoked the attack).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        then: Option<serde_json::Value>,
    },
    /// Nothing waits: the trigger's action is over (damage taken → Hellish Rebuke).
    Done {
        /// The creature the reaction would answer.
        target_id: String,
    },
}

/// A dead creature's body: off the initiative and out of the way on the map (it blocks no
/// one), but still where it fell, for revival, looting and distances.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Body {
    /// The dead character's id.
    pub id: String,
    /// Its name when it fell.
    pub name: String,
    /// The top-left square of the space it fell in.
    pub position: Position,
    /// Its size.
    pub size: tabletop_rules::Size,
}

/// A terrain change that expires.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TimedTerrain {
    /// Squares changed.
    pub squares: Vec<Position>,
    /// What they were before (restored on expiry), in the same order.
    pub previous: Vec<Terrain>,
    /// What they became.
    pub terrain: Terrain,
    /// Round at the start of which it expires.
    pub expires_round: u32,
    /// Why ("Web", "Grease").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

/// What a linked character was like when the encounter began, for the end-of-fight diff.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Snapshot {
    /// Current HP.
    pub hp: u32,
    /// Temporary HP.
    pub temp_hp: u32,
    /// Conditions by name.
    pub conditions: Vec<Condition>,
    /// Slots left per level ("1": 2, …; "pact": 1).
    pub slots: BTreeMap<String, u32>,
    /// Resources left by name.
    pub resources: BTreeMap<String, u32>,
}

/// One line of the encounter's log.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LogLine {
    /// Round.
    pub round: u32,
    /// What happened.
    pub text: String,
}

/// How many log lines an encounter keeps (older lines stay in the campaign's event log).
pub const LOG_KEEP: usize = 60;

/// A stored encounter.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Encounter {
    /// Stable id ("enc1").
    pub id: String,
    /// Name ("Goblin ambush").
    pub name: String,
    /// Active or ended.
    pub status: EncounterStatus,
    /// Round, from 1.
    pub round: u32,
    /// Index into `order` of the creature whose turn it is.
    pub turn: usize,
    /// Combatants in initiative order (highest first).
    pub order: Vec<Combatant>,
    /// Terrain, lighting, props and every combatant's position.
    pub map: BattleMap,
    /// Terrain changes that expire.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub timed_terrain: Vec<TimedTerrain>,
    /// Whether the encounter ends itself when one side is down.
    #[serde(default)]
    pub auto_end: bool,
    /// Linked characters as they were at the start.
    #[serde(default)]
    pub snapshots: BTreeMap<String, Snapshot>,
    /// Recent happenings.
    #[serde(default)]
    pub log: Vec<LogLine>,
    /// Outcome once ended ("victory", "fled", …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<String>,
    /// XP of the spawned and enemy creatures, and the difficulty for the party, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub difficulty: Option<tabletop_rules::encounter::Difficulty>,
    /// Auras centred on combatants (see [`crate::combat::auras`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub auras: Vec<crate::model::aura::Aura>,
    /// Combatants held by a grapple made in this fight: the only sheets checked when grapples
    /// may break (see `tactics::contest::release_broken_grapples`).
    #[serde(default, skip_serializing_if = "std::collections::BTreeSet::is_empty")]
    pub grappled: std::collections::BTreeSet<String>,
    /// The bodies of the dead, where they fell (see `combat::bodies`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bodies: Vec<Body>,
    /// A reaction waiting for the agent's answer (see [`PendingReaction`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pending_reaction: Option<PendingReaction>,
    /// Creatures a spell called into this fight, gone when the spell ends (see
    /// `combat::summons`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub summoned: Vec<Summoned>,
    /// Creatures a spell sent away for a while (Banishment), to come back where they stood.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub banished: Vec<Banished>,
    /// Immobile barriers that keep spells out (Globe of Invulnerability).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub globes: Vec<Globe>,
    /// Ammunition fired and weapons thrown in this fight (see `combat::actions::ammo`), given
    /// back (half the ammunition, every thrown weapon) when the fight ends.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spent: Vec<SpentGear>,
}

/// Gear that left its owner in a fight: ammunition fired (`count` pieces of `item`) or a
/// weapon thrown (lying on the map as the prop `prop_id`).
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SpentGear {
    /// The owner's id.
    pub owner_id: String,
    /// The owner's name.
    pub owner: String,
    /// One of the items spent (quantity 1): its stack returns to this shape.
    pub item: crate::model::inventory::Item,
    /// How many were spent.
    pub count: u32,
    /// A thrown weapon: the prop marking where it lies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prop_id: Option<String>,
}

/// An immobile barrier: spells of `max_level` or lower cast from outside it have no effect on
/// creatures inside (Globe of Invulnerability).
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Globe {
    /// Who holds it (by concentration).
    pub caster_id: String,
    /// The spell.
    pub spell: String,
    /// Its centre square.
    pub center: Position,
    /// Its radius in feet.
    pub radius_ft: u32,
    /// The highest spell level it keeps out.
    pub max_level: u8,
}

/// A creature banished from the fight while its banisher concentrates.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Banished {
    /// The creature's character id.
    pub id: String,
    /// Who banished it.
    pub caster_id: String,
    /// The spell.
    pub spell: String,
    /// Where it stood (it returns there, or to the nearest free space).
    pub position: Position,
    /// The spell holds it without concentration (Imprisonment): it does not come back when
    /// the caster's concentration changes.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub lasting: bool,
}

/// A creature a spell called into the fight (Conjure Animals' wolves, a familiar).
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Summoned {
    /// The creature's character id.
    pub id: String,
    /// Who called it.
    pub summoner_id: String,
    /// The spell.
    pub spell: String,
    /// It lasts while the summoner concentrates on the spell.
    pub concentration: bool,
    /// The last round it stays (the spell's duration), when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub until_round: Option<u32>,
}

impl Encounter {
    /// The combatant whose turn it is.
    pub fn current(&self) -> Option<&Combatant> {
        self.order.get(self.turn)
    }

    /// The combatant with this character id.
    pub fn combatant(&self, character_id: &str) -> Option<&Combatant> {
        self.order.iter().find(|c| c.character_id == character_id)
    }

    /// `attacker` attacked `target` (any attack: a weapon or spell attack, a grapple, a shove):
    /// an attack on a creature not on its side keeps its Rage going through its turn's end
    /// (`flags.fought`). Attacking a friend does not.
    pub fn mark_attack(&mut self, attacker: &str, target: &str) {
        let Some(theirs) = self.combatant(target).map(|c| c.side) else {
            return;
        };
        if let Some(cb) = self.combatant_mut(attacker)
            && !cb.side.friendly_to(theirs)
        {
            cb.flags.fought = true;
        }
    }

    /// The combatant with this character id, mutably.
    pub fn combatant_mut(&mut self, character_id: &str) -> Option<&mut Combatant> {
        self.order
            .iter_mut()
            .find(|c| c.character_id == character_id)
    }

    /// Where a combatant stands.
    pub fn position_of(&self, character_id: &str) -> Option<Position> {
        self.map.creature(character_id).map(|c| c.position)
    }

    /// Adds a line to the log, dropping the oldest beyond [`LOG_KEEP`].
    pub fn log(&mut self, text: impl Into<String>) {
        self.log.push(LogLine {
            round: self.round,
            text: text.into(),
        });
        if self.log.len() > LOG_KEEP {
            let extra = self.log.len() - LOG_KEEP;
            self.log.drain(..extra);
        }
    }

    /// Why nothing else may happen in the fight while a reaction waits for its answer.
    pub fn pending_refusal(&self) -> Option<String> {
        self.pending_reaction.as_ref().map(|p| {
            format!(
                "{}'s reaction is pending ({}: {}); answer it first with execute_action actionType react, answer accept or decline",
                p.reactor, p.reaction, p.trigger
            )
        })
    }

    /// Whether the encounter is in progress.
    pub fn is_active(&self) -> bool {
        self.status == EncounterStatus::Active
    }
}
/// What part of the turn an action uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum ActionCost {
    /// The action.
    Action,
    /// The bonus action.
    BonusAction,
    /// The reaction (the only thing usable off-turn).
    Reaction,
    /// Nothing (object interaction, DM adjustments).
    Free,
    /// Movement only.
    Movement,
}
