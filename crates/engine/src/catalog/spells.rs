//! The spell half of the mechanics catalog: our own typed encoding, keyed by SRD index, of what
//! each of the SRD's spells does when cast — the kind of resolution (spell attacks with N rays,
//! saves, auto-hit darts, an HP pool, healing, conditions, effects, an AC formula, reactions,
//! revival), the numbers the SRD data lacks or gets wrong, riders, creature-type restrictions —
//! or, for a spell the engine does not automate, `narrative` with a one-line reason the agent is
//! shown when it is cast.
//!
//! The data lives in `catalog/spells.toml` (embedded with `include_str!`, parsed once, checked
//! by the tests: every SRD spell has an entry and every key is an SRD index). The SRD's own
//! numbers (dice by slot, save, area, range) are still read from the SRD data at run time;
//! an entry only adds what the data cannot say.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde::Deserialize;
use tabletop_rules::modifiers::ModifierKind;
use tabletop_rules::{Ability, Condition, DamageType};

/// How a spell resolves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SpellKind {
    /// One or more spell attacks (rays, beams), damage and riders on a hit.
    Attack,
    /// A saving throw: damage (half or none on a success) and riders on a failure.
    Save,
    /// Darts that hit automatically (Magic Missile).
    Darts,
    /// A pool of hit points rolled and spent on creatures, lowest current HP first (Sleep).
    HpPool,
    /// Healing.
    Heal,
    /// A condition imposed (with or without a save).
    Condition,
    /// Typed modifiers on the targets for the spell's duration (Bless, Shield, Longstrider).
    Effect,
    /// An armor-class formula (Mage Armor: 13 + DEX while unarmored).
    AcFormula,
    /// Counterspell: stops a spell of the slot's level or lower, else an ability check.
    Counterspell,
    /// Brings a creature that died recently back with 1 HP (Revivify).
    Revive,
    /// Stabilises a creature at 0 HP (Spare the Dying).
    Stabilize,
    /// A zone around the caster that strikes enemies starting their turn in it (Spirit
    /// Guardians).
    Zone,
    /// A spell attack now and again as a bonus action on later turns while it lasts (Spiritual
    /// Weapon).
    Persistent,
    /// Ends conditions or effects on the targets (Lesser Restoration, Greater Restoration,
    /// Remove Curse): `cures` in order, one per casting when `cure_one`.
    Cure,
    /// An outcome by the target's current hit points (Power Word Kill, Power Word Stun, Divine
    /// Word): the first of `tiers` whose `max_hp` the target's HP does not exceed applies.
    HpThreshold,
    /// Not automated: the DM decides; `reason` says why.
    Narrative,
    // Movement and summons (issue 17, the `summons` work): kinds resolved on the encounter map.
    /// The caster (and passengers) appear at a chosen square of the map (`teleport`).
    Teleport,
    /// SRD creatures join the encounter on the caster's side (`summon`).
    Summon,
    /// Targets that fail the save leave the map while the caster concentrates, and come back
    /// to their space when it ends (Banishment).
    Banish,
    /// An immobile barrier around the caster: spells of `globe_max_level` or lower (one more
    /// per slot above) cast from outside have no effect on creatures inside (Globe of
    /// Invulnerability).
    Globe,
    /// A divination answered from the engine's state (`detect`): magic, creature types,
    /// poison, traps, a creature or object located, an item identified.
    Detect,
    /// Targets take the form of an SRD creature (`shape`): Polymorph, Animal Shapes,
    /// Shapechange, True Polymorph.
    Shape,
    /// A door on the encounter map locked or unlocked (`door`: Arcane Lock, Knock).
    Door,
    /// Travel, sensing, messages and the cantrips' tricks resolved by the spell's index from the
    /// cast request (`magic::lore6`): Augury, Scrying, Sending, Thaumaturgy, Teleportation Circle…
    Lore,
    /// Ends the spells on each target: those of the slot's level or lower at once, each higher
    /// one on the caster's spellcasting ability check against DC 10 + its level (Dispel
    /// Magic); see `magic::wards6`.
    Dispel,
    /// A life-and-creation spell (`life`): items made, mended or cleaned, corpses kept or
    /// questioned, reincarnation, Wish (see `catalog::life6`).
    Life,
}

/// What an effect does to rolls of the ability the caster chooses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AbilityChoice {
    /// Advantage on its ability checks (Enhance Ability).
    CheckAdvantage,
    /// Disadvantage on its ability checks and saving throws (Bestow Curse).
    CheckAndSaveDisadvantage,
}

/// One outcome of an HP-threshold spell.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HpTier {
    /// Applies to a creature with this many current hit points or fewer.
    pub max_hp: u32,
    /// The creature dies.
    #[serde(default)]
    pub dies: bool,
    /// Conditions imposed.
    #[serde(default)]
    pub conditions: Vec<Condition>,
    /// For how many rounds (absent: the spell's duration, else until removed).
    #[serde(default)]
    pub rounds: Option<u32>,
    /// The bearer repeats this save at the end of each of its turns to end the conditions.
    #[serde(default)]
    pub save_ends: Option<Ability>,
}

/// What a cure removes.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Cure {
    /// A condition.
    Condition {
        /// Which.
        condition: Condition,
    },
    /// One level of exhaustion.
    ExhaustionLevel,
    /// Effects whose name contains this word ("curse").
    EffectNamed {
        /// The word, lowercase.
        word: String,
    },
}

/// Something a spell does besides its damage, on a hit or a failed save.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Rider {
    /// The next attack roll against the target before the end of the caster's next turn has
    /// advantage (Guiding Bolt).
    AdvantageNextAttack,
    /// The target is pushed this many feet away from the caster (Thunderwave).
    Push {
        /// Feet.
        feet: u32,
    },
    /// The target's speed drops by this many feet until the start of the caster's next turn
    /// (Ray of Frost).
    SpeedMinus {
        /// Feet.
        feet: u32,
    },
    /// The target can't take reactions until the start of its next turn (Shocking Grasp).
    NoReactions,
    /// The target falls prone.
    Prone,
}

/// When an effect a spell grants ends, when not its written duration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Until {
    /// The start of the caster's next turn (Shield).
    CasterNextTurnStart,
    /// The end of the caster's next turn.
    CasterNextTurnEnd,
}

/// One spell's entry.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpellEntry {
    /// How it resolves.
    pub kind: SpellKind,
    /// For narrative spells, why the engine does not automate it (shown when cast); for
    /// others, what is left to the DM.
    #[serde(default)]
    pub reason: Option<String>,
    /// Overrides or supplies the attack (melee / ranged).
    #[serde(default)]
    pub attack: Option<AttackRangeKind>,
    /// Damage dice of one ray, dart or beam, or the spell's base dice when the SRD data has
    /// none or the wrong ones.
    #[serde(default)]
    pub dice: Option<String>,
    /// Dice added per slot level above the spell's.
    #[serde(default)]
    pub dice_per_slot: Option<String>,
    /// Damage type, when the SRD data has none.
    #[serde(default)]
    pub damage_type: Option<DamageType>,
    /// Rays, darts, beams or creatures at the spell's own level.
    #[serde(default)]
    pub count: Option<u32>,
    /// More of them per slot level above the spell's.
    #[serde(default)]
    pub count_per_slot: Option<u32>,
    /// Beams by caster level: 1, 2 at 5th, 3 at 11th, 4 at 17th (Eldritch Blast).
    #[serde(default)]
    pub beams_by_level: bool,
    /// The save, when the SRD data has none.
    #[serde(default)]
    pub save: Option<Ability>,
    /// A success halves the damage.
    #[serde(default)]
    pub half: Option<bool>,
    /// The condition imposed.
    #[serde(default)]
    pub condition: Option<Condition>,
    /// The bearer repeats the save at the end of each of its turns.
    #[serde(default)]
    pub repeat_save: bool,
    /// The repeated save only when the bearer ends its turn where it doesn't have line of
    /// sight to the caster (Fear).
    #[serde(default)]
    pub repeat_save_out_of_sight: bool,
    /// A target that fails the save drops whatever it is holding (Fear).
    #[serde(default)]
    pub drops_held: bool,
    /// Only creatures of these types are affected ("humanoid").
    #[serde(default)]
    pub only_types: Vec<String>,
    /// Creatures of these types are unaffected ("undead", "construct").
    #[serde(default)]
    pub no_effect_on: Vec<String>,
    /// Creatures immune to this condition are unaffected (Sleep: charmed).
    #[serde(default)]
    pub immune_if: Option<Condition>,
    /// Its condition is a magical sleep: creatures magic can't put to sleep are unaffected
    /// (Fey Ancestry; see `ClassRule::NoMagicSleep`).
    #[serde(default)]
    pub magic_sleep: bool,
    /// What ends its condition early besides the duration: `harm` (Charm Person: "until you or
    /// your companions do anything harmful to it"; damage from them ends it) or `damage` (any
    /// damage). A magical sleep (`magic_sleep`) ends on damage without saying so.
    #[serde(default)]
    pub ends_on: Option<crate::model::condition_ends::ConditionEnds>,
    /// A Self-range spell that still reaches another creature this many feet away, which the
    /// caller names: a spell attack (Vampiric Touch 5, Produce Flame 30), a gaze (Eyebite 60)
    /// or companions sharing it (Pass without Trace 30). Without it a Self spell with no area
    /// is cast on its caster alone.
    #[serde(default)]
    pub reach_ft: Option<u32>,
    /// The SRD data's area is not where the spell strikes: it hits the one target named
    /// (Disintegrate's 10-foot cube is the part of a Huge object it destroys).
    #[serde(default)]
    pub no_area: bool,
    /// A creature its damage leaves at 0 HP is turned to dust: dead, and only true
    /// resurrection or wish restores it (Disintegrate).
    #[serde(default)]
    pub dust_at_zero: bool,
    /// Every target after the first must stand within this many feet of the first (Chain
    /// Lightning's bolts leap 30 feet from its first target).
    #[serde(default)]
    pub leap_ft: Option<u32>,
    /// Riders on a hit or a failed save.
    #[serde(default)]
    pub riders: Vec<Rider>,
    /// Modifiers an effect grants.
    #[serde(default)]
    pub modifiers: Vec<ModifierKind>,
    /// When the effect ends, when not its written duration.
    #[serde(default)]
    pub until: Option<Until>,
    /// Temporary HP at the start of each of the bearer's turns ("MOD": the caster's
    /// spellcasting modifier) (Heroism).
    #[serde(default)]
    pub temp_hp_each_turn: Option<String>,
    /// Temporary HP when cast (False Life).
    #[serde(default)]
    pub temp_hp: Option<String>,
    /// AC formula base (Mage Armor 13); DEX is added.
    #[serde(default)]
    pub ac_base: Option<i32>,
    /// The formula applies only to a creature wearing no armor.
    #[serde(default)]
    pub unarmored_only: bool,
    /// Revival: how long ago (rounds) the creature may have died.
    #[serde(default)]
    pub within_rounds: Option<u32>,
    /// A material consumed, with its price ("diamond", 300).
    #[serde(default)]
    pub consumes: Option<Consumed>,
    /// Zone speed: enemies in it move at half speed (Spirit Guardians).
    #[serde(default)]
    pub halves_speed: bool,
    /// An effect needs the caster's concentration (used by `manage_effect` presets, which may
    /// run without the SRD loaded; the tests hold it equal to the SRD's).
    #[serde(default)]
    pub concentration: bool,
    /// An effect's longest duration in rounds (1 minute = 10), for presets.
    #[serde(default)]
    pub rounds: Option<u32>,
    /// A revival restores every hit point instead of 1 (Resurrection).
    #[serde(default)]
    pub full_hp: bool,
    /// A revived creature's penalty on attack rolls, saving throws and ability checks (Raise
    /// Dead −4), as an effect.
    #[serde(default)]
    pub penalty: Option<i32>,
    /// An effect's AC floor: the bearer's AC can't be less than this (Barkskin 16).
    #[serde(default)]
    pub ac_floor: Option<i32>,
    /// An effect grants resistance to one of these damage types, the caster's choice
    /// (`damageType`) (Protection from Energy).
    #[serde(default)]
    pub resist_choice: Vec<DamageType>,
    /// An effect on rolls of one ability, the caster's choice (`ability`): advantage on its
    /// checks (Enhance Ability) or disadvantage on its checks and saves (Bestow Curse).
    #[serde(default)]
    pub ability_choice: Option<AbilityChoice>,
    /// What a cure ends, in order of preference.
    #[serde(default)]
    pub cures: Vec<Cure>,
    /// A cure ends only the first of `cures` the target has (the SRD's "one condition").
    #[serde(default)]
    pub cure_one: bool,
    /// An HP-threshold spell's outcomes, lowest `max_hp` first.
    #[serde(default)]
    pub tiers: Vec<HpTier>,
    /// An effect: the first drop to 0 HP from damage leaves the bearer at 1 HP instead, and the
    /// effect ends (Death Ward).
    #[serde(default)]
    pub death_ward: bool,
    /// An effect grants senses: darkvision or truesight out to this many feet (Darkvision, True
    /// Seeing).
    #[serde(default)]
    pub darkvision_ft: Option<u32>,
    /// Truesight, in feet.
    #[serde(default)]
    pub truesight_ft: Option<u32>,
    /// A zone kind placed on the map at a point (`to`) rather than around the caster: the
    /// ground it changes, when it strikes, how it moves (see `catalog::zones`).
    #[serde(default)]
    pub zone: Option<crate::catalog::zones::ZoneSpec>,
    // Movement, summons and wards (issue 17, the `summons` work).
    /// A teleport on the map (Misty Step, Dimension Door).
    #[serde(default)]
    pub teleport: Option<super::spell_moves::TeleportSpec>,
    /// The creatures a summoning spell calls (Conjure Animals, Find Familiar).
    #[serde(default)]
    pub summon: Option<super::spell_moves::SummonSpec>,
    /// Movement modes an effect grants: `{ fly = 60 }`, `{ climb = "walk" }`.
    #[serde(default)]
    pub speeds: BTreeMap<String, super::spell_moves::SpeedGrant>,
    /// An effect lets the bearer walk on water and other liquids as on ground (Water Walk).
    #[serde(default)]
    pub water_walk: bool,
    /// An effect lets the bearer Dash as a bonus action (Expeditious Retreat).
    #[serde(default)]
    pub dash_bonus_action: bool,
    /// An effect raises the bearer's hit point maximum and current HP by this much at the
    /// spell's level (Aid 5).
    #[serde(default)]
    pub max_hp_bonus: Option<u32>,
    /// And by this much more per slot level above.
    #[serde(default)]
    pub max_hp_per_slot: Option<u32>,
    /// An effect: attacks by creatures of these types against the bearer have disadvantage
    /// (Protection from Evil and Good).
    #[serde(default)]
    pub ward_types: Vec<String>,
    /// An effect: a creature attacking the bearer first makes a WIS save against the caster's
    /// DC; on a failure it must pick another target (Sanctuary).
    #[serde(default)]
    pub sanctuary: bool,
    /// An effect lets the bearer see invisible creatures (See Invisibility).
    #[serde(default)]
    pub see_invisible: bool,
    /// An effect: difficult terrain costs the bearer no extra movement (Freedom of Movement).
    #[serde(default)]
    pub ignore_difficult_terrain: bool,
    /// A globe's highest spell level kept out at the spell's own level (Globe of
    /// Invulnerability 5).
    #[serde(default)]
    pub globe_max_level: Option<u8>,
    /// A globe's radius in feet (10).
    #[serde(default)]
    pub globe_radius_ft: Option<u32>,
    /// An effect: this many illusory duplicates that attacks may strike instead (Mirror
    /// Image 3).
    #[serde(default)]
    pub mirror_images: Option<u32>,
    /// An effect hides the bearer from divination spells (Nondetection, Mind Blank).
    #[serde(default)]
    pub nondetection: bool,
    /// What a divination senses (Detect Magic, Locate Creature, Identify).
    #[serde(default)]
    pub detect: Option<super::spell_senses::DetectSpec>,
    /// The forms a shape-changing spell allows (Polymorph, Shapechange).
    #[serde(default)]
    pub shape: Option<super::shapes::ShapeSpec>,
    /// An effect on the target: the caster's weapon hits on it deal these extra dice, of the
    /// weapon's type (Hunter's Mark "1d6").
    #[serde(default)]
    pub mark_dice: Option<String>,
    /// An effect on the caster: its next weapon hit deals `dice` (+ `dice_per_slot`) of
    /// `damage_type` more, then it ends (Branding Smite).
    #[serde(default)]
    pub next_hit: bool,
    /// An effect grants ways of communicating, on the bearer's sheet while it lasts (Tongues:
    /// "understands any spoken language and is understood by any creature that knows one").
    #[serde(default)]
    pub communication: Vec<String>,
    /// A door spell on the encounter map (`door`): Knock unlocks, Arcane Lock locks.
    #[serde(default)]
    pub door: Option<super::spell_objects::DoorSpell>,
    /// Creatures or objects a spell puts on the map with a stat block we encode from the
    /// spell's own numbers (Mage Hand, Arcane Hand, Animate Objects), as a `summon`.
    #[serde(default)]
    pub tokens: Vec<super::spell_objects::TokenSpec>,
    /// An effect: the d20 of the bearer's checks of one ability counts as at least `min`
    /// (Glibness: CHA, 15).
    #[serde(default)]
    pub check_floor: Option<super::wards6::CheckFloor>,
    /// A combat rule the effect carries out where it bites (Blink, Confusion, Suggestion…):
    /// see `catalog::spell_combat`.
    #[serde(default)]
    pub combat: Option<super::spell_combat::CombatRule>,
    /// What a life-and-creation spell does (`kind = "life"`).
    #[serde(default)]
    pub life: Option<super::life6::LifeSpec>,
}

/// A costly material the spell consumes.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Consumed {
    /// What ("diamond").
    pub item: String,
    /// Worth at least this many gp.
    pub gp: u32,
}

/// Melee or ranged, as the catalog writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AttackRangeKind {
    /// Melee spell attack.
    Melee,
    /// Ranged spell attack.
    Ranged,
}

impl SpellEntry {
    /// Whether the engine applies it (anything but narrative).
    pub fn mechanical(&self) -> bool {
        self.kind != SpellKind::Narrative
    }

    /// Whether an effect entry puts an active effect on its targets: modifiers, an AC floor or
    /// a choice the caster makes when casting.
    pub fn grants_effect(&self) -> bool {
        !self.modifiers.is_empty()
            || self.ac_floor.is_some()
            || !self.resist_choice.is_empty()
            || self.ability_choice.is_some()
            || self.death_ward
            || self.darkvision_ft.is_some()
            || self.truesight_ft.is_some()
            || self.grants_movement_or_ward()
            || self.mark_dice.is_some()
            || self.next_hit
            || self.combat.is_some()
    }

    /// Whether an effect entry grants a movement mode, a ward or a raised HP maximum.
    pub fn grants_movement_or_ward(&self) -> bool {
        !self.speeds.is_empty()
            || self.water_walk
            || self.dash_bonus_action
            || self.max_hp_bonus.is_some()
            || !self.ward_types.is_empty()
            || self.sanctuary
            || self.see_invisible
            || self.ignore_difficult_terrain
            || self.mirror_images.is_some()
            || self.nondetection
            || !self.communication.is_empty()
            || self.check_floor.is_some()
    }

    /// How many rays, darts, beams or creatures at `slot` (for a spell of `level`) and caster
    /// level `caster_level`, when the entry says.
    pub fn count_at(&self, level: u8, slot: u8, caster_level: u32) -> Option<usize> {
        if self.beams_by_level {
            return Some(match caster_level {
                0..=4 => 1,
                5..=10 => 2,
                11..=16 => 3,
                _ => 4,
            });
        }
        let base = self.count?;
        let up = u32::from(slot.saturating_sub(level));
        let n = base.saturating_add(self.count_per_slot.unwrap_or(0).saturating_mul(up));
        usize::try_from(n).ok()
    }

    /// The entry's dice at `slot` for a spell of `level`: `dice` plus `dice_per_slot` per level
    /// above ("5d8" + "2d8" × 2 = "9d8").
    pub fn dice_at(&self, level: u8, slot: u8) -> Option<String> {
        let base = self.dice.as_deref()?;
        let up = u32::from(slot.saturating_sub(level));
        Some(match (&self.dice_per_slot, up) {
            (Some(step), n) if n > 0 => add_dice(base, step, n),
            _ => base.to_string(),
        })
    }
}

/// `base` plus `n` times `step`: same-sized dice merge ("5d8" + 2 × "2d8" = "9d8"), others
/// are added as terms.
pub fn add_dice(base: &str, step: &str, n: u32) -> String {
    let parse = |d: &str| -> Option<(u32, u32)> {
        let (c, f) = d.split_once('d')?;
        Some((c.parse().ok()?, f.parse().ok()?))
    };
    match (parse(base), parse(step)) {
        (Some((bc, bf)), Some((sc, sf))) if bf == sf => {
            format!("{}d{bf}", bc.saturating_add(sc.saturating_mul(n)))
        }
        _ => std::iter::once(base.to_string())
            .chain(std::iter::repeat_n(step.to_string(), n as usize))
            .collect::<Vec<_>>()
            .join("+"),
    }
}

/// The catalog file, as committed.
pub const SPELLS_TOML: &str = include_str!("../../catalog/spells.toml");

/// The parsed catalog, or why it does not parse.
pub fn try_catalog() -> Result<&'static BTreeMap<String, SpellEntry>, String> {
    static CAT: OnceLock<Result<BTreeMap<String, SpellEntry>, String>> = OnceLock::new();
    CAT.get_or_init(|| toml::from_str(SPELLS_TOML).map_err(|e| e.to_string()))
        .as_ref()
        .map_err(Clone::clone)
}

/// The parsed catalog (empty if the committed file did not parse: the tests refuse that).
pub fn catalog() -> &'static BTreeMap<String, SpellEntry> {
    static EMPTY: OnceLock<BTreeMap<String, SpellEntry>> = OnceLock::new();
    try_catalog().unwrap_or_else(|_| EMPTY.get_or_init(BTreeMap::new))
}

/// The entry of the spell with this SRD index.
pub fn entry(index: &str) -> Option<&'static SpellEntry> {
    catalog().get(index)
}

/// The SRD index a spell name maps to ("Hunter's Mark" → "hunters-mark",
/// "Blindness/Deafness" → "blindness-deafness").
pub fn index_of(name: &str) -> String {
    name.split_whitespace()
        .collect::<Vec<_>>()
        .join("-")
        .to_lowercase()
        .replace(['\'', '’'], "")
        .replace('/', "-")
}

/// The entry of the spell with this name (or index).
/// What `condition`, imposed by the spell named `source`, carries beyond the condition's own
/// rules (Hypnotic Pattern's charmed: incapacitated, speed 0): the spell's `modifiers`, when
/// its entry imposes that condition.
pub fn condition_extras(source: &str, condition: Condition) -> &'static [ModifierKind] {
    by_name(source)
        .filter(|e| e.kind == SpellKind::Condition && e.condition == Some(condition))
        .map_or(&[], |e| e.modifiers.as_slice())
}

pub fn by_name(name: &str) -> Option<&'static SpellEntry> {
    entry(&index_of(name))
}

/// The names (indexes) of the spells that are effect presets.
pub fn effect_names() -> Vec<String> {
    catalog()
        .iter()
        .filter(|(_, e)| e.kind == SpellKind::Effect && !e.modifiers.is_empty())
        .map(|(k, _)| k.replace('-', " "))
        .collect()
}

/// Checks one entry is coherent: narrative has a reason; each kind has the fields it needs;
/// dice parse. Returns the problems.
pub fn check_entry(index: &str, e: &SpellEntry) -> Vec<String> {
    let mut bad = Vec::new();
    let need = |ok: bool, what: &str, bad: &mut Vec<String>| {
        if !ok {
            bad.push(format!("{index}: {:?} needs {what}", e.kind));
        }
    };
    match e.kind {
        SpellKind::Narrative => need(
            e.reason.as_deref().is_some_and(|r| !r.trim().is_empty()),
            "a reason",
            &mut bad,
        ),
        SpellKind::Darts => need(
            e.dice.is_some() && e.count.is_some(),
            "dice and count",
            &mut bad,
        ),
        SpellKind::HpPool => need(
            e.dice.is_some() && e.condition.is_some(),
            "dice and condition",
            &mut bad,
        ),
        SpellKind::Condition => need(e.condition.is_some(), "a condition", &mut bad),
        SpellKind::Effect => need(
            e.grants_effect() || e.temp_hp.is_some() || e.temp_hp_each_turn.is_some(),
            "modifiers, a grant or temporary HP",
            &mut bad,
        ),
        SpellKind::Cure => need(!e.cures.is_empty(), "cures", &mut bad),
        SpellKind::HpThreshold => {
            need(!e.tiers.is_empty(), "tiers", &mut bad);
            if !e.tiers.windows(2).all(|w| w[0].max_hp < w[1].max_hp) {
                bad.push(format!("{index}: tiers must rise by max_hp"));
            }
            if e.tiers.iter().any(|t| !t.dies && t.conditions.is_empty()) {
                bad.push(format!(
                    "{index}: a tier that neither kills nor imposes a condition"
                ));
            }
        }
        SpellKind::AcFormula => need(e.ac_base.is_some(), "ac_base", &mut bad),
        SpellKind::Revive => need(e.within_rounds.is_some(), "within_rounds", &mut bad),
        SpellKind::Zone => bad.extend(e.zone.iter().flat_map(|z| z.check(index))),
        SpellKind::Teleport => need(e.teleport.is_some(), "teleport", &mut bad),
        SpellKind::Detect => match &e.detect {
            Some(d) => bad.extend(d.check(index)),
            None => need(false, "detect", &mut bad),
        },
        SpellKind::Shape => match &e.shape {
            Some(s) => bad.extend(s.check(index)),
            None => need(false, "shape", &mut bad),
        },
        SpellKind::Globe => need(
            e.globe_max_level.is_some() && e.globe_radius_ft.is_some(),
            "globe_max_level and globe_radius_ft",
            &mut bad,
        ),
        SpellKind::Summon => {
            need(
                e.summon
                    .as_ref()
                    .is_some_and(|s| !s.options.is_empty() || !s.types.is_empty())
                    || !e.tokens.is_empty(),
                "summon options or types, or tokens",
                &mut bad,
            );
            bad.extend(e.tokens.iter().flat_map(|t| t.check(index)));
        }
        SpellKind::Door => need(e.door.is_some(), "door", &mut bad),
        SpellKind::Life => match &e.life {
            Some(l) => bad.extend(l.check(index)),
            None => need(false, "life", &mut bad),
        },
        _ => {}
    }
    if let Some(f) = &e.check_floor {
        bad.extend(f.check(index));
    }
    for d in [
        &e.dice,
        &e.dice_per_slot,
        &e.temp_hp,
        &e.temp_hp_each_turn,
        &e.mark_dice,
    ]
    .into_iter()
    .flatten()
    {
        let probe = d.replace("MOD", "3");
        if tabletop_rules::dice::parse(&probe).is_err() {
            bad.push(format!("{index}: '{d}' is not dice"));
        }
    }
    if e.kind != SpellKind::Narrative
        && e.modifiers
            .iter()
            .all(|m| matches!(m, ModifierKind::Note { .. }))
        && e.kind == SpellKind::Effect
        && e.ac_floor.is_none()
        && e.resist_choice.is_empty()
        && e.ability_choice.is_none()
        && !e.death_ward
        && e.darkvision_ft.is_none()
        && e.truesight_ft.is_none()
        && !e.grants_movement_or_ward()
        && e.mark_dice.is_none()
        && !e.next_hit
        && e.combat.is_none()
        && e.temp_hp.is_none()
        && e.temp_hp_each_turn.is_none()
    {
        bad.push(format!(
            "{index}: an effect of notes only is narrative, not mechanical"
        ));
    }
    bad
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_committed_spell_catalog_parses_and_every_entry_is_coherent() {
        let cat = try_catalog().expect("catalog/spells.toml parses");
        assert!(cat.len() >= 300, "{}", cat.len());
        let bad: Vec<String> = cat.iter().flat_map(|(k, e)| check_entry(k, e)).collect();
        assert!(bad.is_empty(), "{bad:#?}");
    }

    #[test]
    fn dice_and_counts_scale_by_slot() {
        assert_eq!(add_dice("5d8", "2d8", 2), "9d8");
        assert_eq!(add_dice("1d6", "1d8", 1), "1d6+1d8");
        let ray = by_name("Scorching Ray").unwrap();
        assert_eq!(ray.count_at(2, 2, 3), Some(3));
        assert_eq!(ray.count_at(2, 4, 7), Some(5));
        let blast = by_name("eldritch blast").unwrap();
        assert_eq!(blast.count_at(0, 0, 4), Some(1));
        assert_eq!(blast.count_at(0, 0, 11), Some(3));
        let sleep = by_name("Sleep").unwrap();
        assert_eq!(sleep.dice_at(1, 3).as_deref(), Some("9d8"));
        assert_eq!(index_of("Hunter's Mark"), "hunters-mark");
        assert_eq!(index_of("Blindness/Deafness"), "blindness-deafness");
    }
}
