//! The mechanics catalog: our own typed encoding, keyed by SRD index, of what race traits, class
//! and subclass features, backgrounds and feats *do*.
//!
//! The SRD's JSON describes most of these in prose; the catalog says what the engine applies.
//! It is data in the repository (`crates/engine/catalog/*.toml`), embedded at build time and
//! parsed once into typed [`Grant`]s. Every entry is either mechanical (`grants = [...]`) or
//! `narrative = "one-line reason"`: the engine then says there is no automation for it.
//!
//! # Format
//! Each file holds one table per section (`[trait.<index>]`, `[feature.<index>]`,
//! `[background.<index>]`, `[feat.<index>]`; issue 17 adds `[spell.…]`, `[item.…]`,
//! `[monster_ability.…]` the same way). An entry is
//!
//! ```toml
//! [trait.dwarven-resilience]
//! grants = [
//!   { grant = "resistance", damage = "poison" },
//!   { grant = "save_advantage", against = "poison" },
//! ]
//!
//! [feature.stonecunning]
//! narrative = "History checks on stonework: the DM decides when double proficiency applies"
//! ```
//!
//! Level-scaled numbers are [`Amount`]s: a fixed number, or a table
//! `{ class_specific = "rage_count" }` read from the SRD level table of the granting class,
//! `{ per_level = 5 }` (× the class's level), `{ ability_mod = "cha", min = 1 }`,
//! `{ proficiency = true }`; the parts add up. New grant kinds are new [`Grant`] variants; an
//! unknown kind fails the catalog's build-time test.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};
use tabletop_rules::modifiers::ModifierKind;
use tabletop_rules::{Ability, Condition, DamageType, Skill};

// Spells, magic items and monster abilities (issue 17), and the coverage count over them all.
pub mod caster_rules;
pub mod class_rules;
pub mod coverage;
pub mod items;
pub mod life6;
pub mod monster_abilities;
pub mod monster_riders;
pub mod monsters;
pub mod shapes;
pub mod spell_combat;
pub mod spell_moves;
pub mod spell_objects;
pub mod spell_senses;
pub mod spells;
pub mod wards6;
pub mod zones;

/// When a resource comes back.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Recharge {
    /// On a short or a long rest.
    Short,
    /// On a long rest.
    #[default]
    Long,
}

/// The embedded catalog files, by name (parsed and checked by the catalog's tests).
pub const FILES: &[(&str, &str)] = &[
    ("races.toml", include_str!("../../catalog/races.toml")),
    ("classes.toml", include_str!("../../catalog/classes.toml")),
    ("features.toml", include_str!("../../catalog/features.toml")),
    (
        "backgrounds.toml",
        include_str!("../../catalog/backgrounds.toml"),
    ),
];

/// A number that may scale with the granting class's level or the character's scores.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Amount {
    /// A fixed number.
    Fixed(i64),
    /// A sum of parts.
    Scaled(AmountParts),
}

/// The parts of a scaled [`Amount`]; absent parts add nothing.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AmountParts {
    /// A counter of the SRD level table of the granting class ("rage_count").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub class_specific: Option<String>,
    /// This many per level of the granting class (Lay on Hands: 5).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per_level: Option<i64>,
    /// An ability modifier.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ability_mod: Option<Ability>,
    /// The proficiency bonus.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub proficiency: bool,
    /// A fixed part.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plus: Option<i64>,
    /// The least the amount can be.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<i64>,
}

/// What the numbers of an [`Amount`] are read from.
#[derive(Debug, Clone, Default)]
pub struct AmountContext<'a> {
    /// The granting class's level (or the character level for races).
    pub level: u32,
    /// The granting class's SRD level-table counters at that level.
    pub class_specific: Option<&'a serde_json::Map<String, serde_json::Value>>,
    /// Ability modifiers.
    pub modifiers: BTreeMap<Ability, i32>,
    /// Proficiency bonus.
    pub proficiency: i32,
}

impl Amount {
    /// The value in `ctx` (a missing counter counts 0).
    pub fn eval(&self, ctx: &AmountContext<'_>) -> i64 {
        match self {
            Amount::Fixed(n) => *n,
            Amount::Scaled(p) => {
                let mut v = p.plus.unwrap_or(0);
                if let Some(key) = &p.class_specific {
                    v += ctx
                        .class_specific
                        .and_then(|m| m.get(key))
                        .and_then(serde_json::Value::as_i64)
                        .unwrap_or(0);
                }
                if let Some(n) = p.per_level {
                    v += n * i64::from(ctx.level);
                }
                if let Some(a) = p.ability_mod {
                    v += i64::from(ctx.modifiers.get(&a).copied().unwrap_or(0));
                }
                if p.proficiency {
                    v += i64::from(ctx.proficiency);
                }
                if let Some(m) = p.min {
                    v = v.max(m);
                }
                v
            }
        }
    }
}

/// Dice whose count or size may come from the class table (Sneak Attack, Martial Arts).
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DiceSpec {
    /// A `{dice_count, dice_value}` counter of the class table ("sneak_attack").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub class_specific: Option<String>,
    /// Fixed count (when not from the table).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<u32>,
    /// Fixed faces (when not from the table).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub faces: Option<u32>,
}

impl DiceSpec {
    /// (count, faces) in `ctx`; None when the table has no such counter yet.
    pub fn eval(&self, ctx: &AmountContext<'_>) -> Option<(u32, u32)> {
        if let Some(key) = &self.class_specific {
            let v = ctx.class_specific?.get(key)?;
            let n = u32::try_from(v.get("dice_count")?.as_u64()?).ok()?;
            let f = u32::try_from(v.get("dice_value")?.as_u64()?).ok()?;
            return (n > 0 && f > 0).then_some((n, f));
        }
        Some((self.count?, self.faces?))
    }
}

/// When a damage rider may be added.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RiderWhen {
    /// Sneak Attack: once per turn, a finesse or ranged weapon, with advantage or an ally of the
    /// attacker within 5 ft of the target (and no disadvantage).
    SneakAttack,
    /// Divine Smite: on a melee weapon hit, spending a spell slot (2d8 + 1d8 per slot level above
    /// 1st, max 5d8; +1d8 against undead or fiends).
    DivineSmite,
    /// While an effect is active (Rage: melee weapon attacks using STR).
    WhileEffect,
}

/// An action the feature offers.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ActionCost {
    /// An action.
    Action,
    /// A bonus action.
    BonusAction,
    /// A reaction.
    Reaction,
    /// No action.
    Free,
}

/// What one feature use does when used through `use_special_ability`.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "does", rename_all = "snake_case")]
pub enum Use {
    /// Regain hit points (Second Wind: 1d10 + fighter level).
    Heal {
        /// Dice.
        dice: DiceSpec,
        /// Flat part.
        #[serde(default)]
        plus: Option<Amount>,
    },
    /// An active effect on the user with these modifiers for a number of rounds (Rage).
    Effect {
        /// Rounds it lasts.
        rounds: u32,
        /// Its modifiers (the rules' typed modifier kinds).
        modifiers: Vec<ModifierKind>,
        /// A flat damage bonus from the class table while it lasts (Rage damage).
        #[serde(default)]
        damage_bonus: Option<Amount>,
        /// Its rounds run out at the start of the user's turn, not the end: it lasts "until
        /// your next turn" (Reckless Attack, Patient Defense's Dodge).
        #[serde(default)]
        until_next_turn: bool,
        /// Decided with the first attack of the user's turn (Reckless Attack): refused once it
        /// has attacked this turn.
        #[serde(default)]
        first_attack: bool,
        /// Its benefits (the modifiers sourced to it, notes apart) are suspended while the user
        /// wears heavy armor (Rage); derived on every read, so donning heavy armor mid-effect
        /// loses them. See `model::sheet`.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        no_heavy_armor: bool,
    },
    /// An extra action this turn (Action Surge).
    ExtraAction,
    /// Heal a touched creature from the pool: `amount` points of the resource (Lay on Hands).
    PoolHeal,
    /// Creatures make a saving throw against the user's DC (8 + proficiency + `dc_ability`);
    /// on a failure they get `condition` or the effect `effect` (Turn Undead, Stunning Strike,
    /// Intimidating Presence). See `combat::actions::tactics::feature_saves`.
    SaveEffect(SaveEffect),
    /// Heal up to `pool` hit points divided among named creatures within `range_ft` (`amount`
    /// lists each one's share in order, "10,5"), none above half its maximum HP, no undead or
    /// constructs (Preserve Life).
    SplitHeal {
        /// The pool.
        pool: Amount,
        /// Reach in feet.
        range_ft: u32,
    },
    /// Ends these conditions on the user (Stillness of Mind).
    EndConditions {
        /// The conditions.
        conditions: Vec<Condition>,
    },
    /// An aura centred on the user for `rounds` rounds: `damage` of `damage_type` to each
    /// hostile creature that starts its turn within `radius_ft` (Holy Nimbus), run by the
    /// encounter's auras.
    Aura {
        /// Radius in feet.
        radius_ft: u32,
        /// Damage dice or a number ("10").
        damage: String,
        /// The damage type.
        damage_type: DamageType,
        /// Rounds it lasts.
        rounds: u32,
    },
    /// Regain every expended pact-magic slot (Eldritch Master).
    RestorePactSlots,
    /// Damage to the one named creature (Hurl Through Hell: 10d10 psychic, not to fiends).
    Damage {
        /// The dice.
        dice: DiceSpec,
        /// Its type.
        damage_type: tabletop_rules::DamageType,
        /// Creature types it does not harm.
        #[serde(default)]
        not_types: Vec<String>,
    },
    /// Resistance to the damage type the user names (`damageType`) until it is chosen again
    /// (Fiendish Resilience).
    ChosenResistance,
    /// An exhalation (Breath Weapon): each creature in the area saves against 8 + `dc_ability`
    /// modifier + proficiency, taking the damage, half on a success. Area, save, damage type
    /// and dice by character level come from the SRD breath weapon of the chosen draconic
    /// ancestry; it is resolved as a stat block's breath is (targets, or the area aimed).
    Breath {
        /// The ability whose modifier sets the DC.
        dc_ability: Ability,
    },
    /// Unarmed strikes after the Attack action this turn (Flurry of Blows: two), each a full
    /// attack at the named target or one per name in `targets`
    /// (`combat::actions::tactics::flurry`).
    UnarmedStrikes {
        /// How many.
        count: u32,
    },
    /// The Dash or the Disengage action, as this use's cost (Step of the Wind: a bonus action
    /// for 1 ki). Taken as `execute_action` `dash` or `disengage` with that `actionCost`, or as
    /// this use with `description` "dash" or "disengage".
    DashOrDisengage,
    /// One inspiration die given to another creature within `range_ft` (Bardic Inspiration):
    /// it holds it as an effect for 10 minutes, to add to one ability check, attack roll or
    /// saving throw (the player's choice, rolled by the table). `die`: its faces.
    Inspire {
        /// The die's faces ({ class_specific = "bardic_inspiration_die" }).
        die: Amount,
        /// Reach in feet.
        range_ft: u32,
    },
    /// Nothing the engine resolves: the resource is spent and the DM narrates.
    Narrate,
}

/// Who a [`Use::SaveEffect`] affects and what a failed save does.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SaveEffect {
    /// The save's ability.
    pub save: Ability,
    /// The ability whose modifier sets the DC.
    pub dc_ability: Ability,
    /// Every creature of these types within `range_ft` (not the user's side) is affected;
    /// empty: the named targets.
    #[serde(default)]
    pub creature_types: Vec<String>,
    /// How far it reaches (feet).
    pub range_ft: u32,
    /// At most this many named targets (when `creature_types` is empty).
    #[serde(default)]
    pub max_targets: Option<u32>,
    /// The condition a failure imposes.
    #[serde(default)]
    pub condition: Option<Condition>,
    /// Or the effect a failure gives, by name ("Turned"), with its text.
    #[serde(default)]
    pub effect: Option<String>,
    /// What the effect means for the DM (shown with it).
    #[serde(default)]
    pub effect_text: Option<String>,
    /// Rounds it lasts (ticking at the end of the bearer's turns, or of the user's with
    /// `until_user_turn`).
    pub rounds: u32,
    /// The condition lasts "until the end of your next turn": the user's turns count it, not
    /// the bearer's (Stunning Strike, Intimidating Presence).
    #[serde(default)]
    pub until_user_turn: bool,
    /// The effect ends when the bearer takes damage (Turned).
    #[serde(default)]
    pub ends_on_damage: bool,
    /// A failing creature of CR up to the sheet's Destroy Undead CR is destroyed.
    #[serde(default)]
    pub destroys: bool,
    /// Only on a creature the user hit with a melee weapon attack this turn (Stunning Strike).
    #[serde(default)]
    pub after_melee_hit: bool,
}

/// A rule that shapes the spells its bearer casts.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SpellShaping {
    /// Sculpt Spells: up to 1 + the spell's level of the caster's side in its evocation area
    /// automatically succeed on the save and take no damage.
    SculptSpells,
    /// Potent Cantrip: a creature that succeeds on the save against its damaging cantrip takes
    /// half the damage.
    PotentCantrip,
    /// Empowered Evocation: + INT modifier to one damage roll of its wizard evocation spells.
    EmpoweredEvocation,
    /// Overchannel: a wizard spell of 1st–5th level deals maximum damage (asked with
    /// `abilityName: "Overchannel"`); later uses before a long rest cost necrotic damage.
    Overchannel,
}

/// One typed thing a source grants.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "grant", rename_all = "snake_case")]
pub enum Grant {
    /// + to an ability score.
    AbilityBonus {
        /// The ability.
        ability: Ability,
        /// Points.
        amount: i32,
    },
    /// Proficiency in a skill.
    Skill {
        /// The skill.
        skill: Skill,
    },
    /// Choose skills (empty `from` = any skill).
    SkillChoice {
        /// How many.
        count: u8,
        /// From these.
        #[serde(default)]
        from: Vec<Skill>,
    },
    /// Choose skills (already proficient) to double the proficiency bonus of.
    Expertise {
        /// How many.
        count: u8,
    },
    /// Saving-throw proficiency.
    Save {
        /// The ability.
        ability: Ability,
    },
    /// Armor, weapon or tool proficiency, by SRD proficiency name ("Battleaxes", "Light Armor").
    Proficiency {
        /// The names.
        names: Vec<String>,
    },
    /// A language, or `choose` languages of the player's choice.
    Language {
        /// The language, when fixed.
        #[serde(default)]
        name: Option<String>,
        /// How many to choose, otherwise.
        #[serde(default)]
        choose: u8,
    },
    /// Damage resistance.
    Resistance {
        /// The type.
        damage: DamageType,
    },
    /// Damage immunity.
    Immunity {
        /// The type.
        damage: DamageType,
    },
    /// Condition immunity.
    ConditionImmunity {
        /// The condition.
        condition: Condition,
    },
    /// Advantage on saving throws against something ("poison", "charmed", "frightened").
    SaveAdvantage {
        /// Against what.
        against: String,
    },
    /// Advantage on saving throws of `ability` against effects it can see, such as traps and
    /// spells, while not blinded, deafened or incapacitated (Danger Sense).
    SeenSaveAdvantage {
        /// The ability.
        ability: Ability,
    },
    /// A sense ("darkvision", 60).
    Sense {
        /// Its name.
        sense: String,
        /// Range in feet.
        feet: u32,
    },
    /// + walking speed, optionally only without armor (and shield) or without heavy armor.
    Speed {
        /// Feet.
        feet: Amount,
        /// Only without armor or a shield (Unarmored Movement).
        #[serde(default)]
        unarmored: bool,
        /// Only without heavy armor (Fast Movement).
        #[serde(default)]
        no_heavy_armor: bool,
    },
    /// Heavy armor's Strength requirement does not reduce speed (dwarves).
    IgnoreHeavyArmorSpeed,
    /// May move through the space of any creature larger than itself, hostile or not
    /// (Halfling Nimbleness); it still may not end its move there.
    MoveThroughLarger,
    /// May try to hide when obscured only by a creature at least one size larger (Naturally
    /// Stealthy): such a creature between it and an observer counts for the hide.
    HideBehindLarger,
    /// Double the proficiency bonus (proficient or not) on checks of `skill` about one of
    /// `topics`, named in the check's reason (Stonecunning: History about stonework).
    TopicExpertise {
        /// The skill.
        skill: tabletop_rules::Skill,
        /// Words that name the topic in a check's reason ("stonework", "masonry").
        topics: Vec<String>,
    },
    /// An AC formula: `base` + the abilities' modifiers; the best formula applies when no armor
    /// is worn.
    AcFormula {
        /// The base.
        base: i32,
        /// Abilities whose modifiers add.
        abilities: Vec<Ability>,
        /// Whether a shield may be used with it.
        shield: bool,
    },
    /// + max HP per character level (Dwarven Toughness) or per class level (`per_class_level`).
    HpPerLevel {
        /// Points per level.
        amount: i32,
        /// Per level of the granting class only.
        #[serde(default)]
        per_class_level: bool,
    },
    /// A limited-use resource.
    Resource {
        /// Its name ("Rage").
        name: String,
        /// Its maximum.
        max: Amount,
        /// When it comes back.
        recharge: Recharge,
    },
    /// Extra damage on a condition.
    ExtraDamage {
        /// Name ("Sneak Attack").
        name: String,
        /// The dice.
        dice: DiceSpec,
        /// When it applies.
        when: RiderWhen,
    },
    /// An action the feature offers, usable with `use_special_ability` by name.
    Action {
        /// Name ("Rage").
        name: String,
        /// What it costs.
        cost: ActionCost,
        /// The resource a use spends (1 per use), if any.
        #[serde(default)]
        resource: Option<String>,
        /// What a use does.
        #[serde(rename = "use")]
        does: Use,
    },
    /// A typed modifier always in effect (the rules' modifier kinds).
    Modifier {
        /// The modifier.
        modifier: ModifierKind,
    },
    /// Attacks per Attack action (Extra Attack); the highest applies.
    ExtraAttack {
        /// Attacks.
        attacks: u32,
    },
    /// The unarmed strike / monk weapon die (Martial Arts).
    MartialArts {
        /// The die.
        dice: DiceSpec,
    },
    /// Weapon attacks score a critical hit on a natural roll of at least `min` (Improved
    /// Critical 19, Superior Critical 18); the lowest applies.
    CritRange {
        /// The lowest natural roll that crits.
        min: u32,
    },
    /// Extra weapon damage dice on a melee critical hit (Brutal Critical); the highest applies.
    BrutalCritical {
        /// Extra dice.
        dice: u32,
    },
    /// One more weapon damage die on a melee weapon critical hit (Savage Attacks), on top of
    /// Brutal Critical's.
    SavageAttacks,
    /// Half the proficiency bonus on checks of these abilities (all six when empty) without
    /// proficiency, initiative included (Jack of All Trades, Remarkable Athlete).
    HalfProficiency {
        /// The abilities.
        #[serde(default)]
        abilities: Vec<Ability>,
    },
    /// No attack roll has advantage against it while it is not incapacitated (Elusive).
    NoAdvantageAgainst,
    /// Turn Undead destroys a failing undead of at most this CR (Destroy Undead); the highest
    /// applies.
    DestroyUndead {
        /// The challenge rating.
        cr: f32,
    },
    /// A spellcasting class's rule applied where it happens (Metamagic, Song of Rest, Disciple
    /// of Life…): see [`caster_rules`].
    CasterRule {
        /// The rule.
        rule: caster_rules::CasterRule,
    },
    /// An Ability Score Improvement: the character's recorded choice for it (`asi`: +2 to one
    /// ability, +1 to two, or a feat) applies (see `derive::asi`).
    AbilityScoreImprovement,
    /// The class's subclass choice (Primal Path, Divine Domain…): the build's `subclass` is
    /// required from the class level that has this feature; the sheet asks for it until chosen
    /// and `create_character` / `level_up` check it is one of the class's SRD subclasses.
    Subclass,
    /// A subclass placeholder ("Primal Path improvement"): the chosen subclass's own features
    /// of this class level are granted (the derive reads them from the SRD subclass levels); the
    /// sheet says when no subclass is chosen yet.
    SubclassFeatures,
    /// A choice among catalog options keyed `<prefix><option>` (hunter options, eldritch
    /// invocations, draconic ancestry, land, pact boon): the build's `options` hold the chosen
    /// keys, `count` of them (a class-table counter such as `invocations_known`); each chosen
    /// option's grants apply, open or surplus choices are reported and refused at creation.
    OptionChoice {
        /// The options' key prefix ("hunters-prey-").
        prefix: String,
        /// How many to choose.
        count: Amount,
    },
    /// The class's fighting style choice (`fightingStyle`): checked against the class's styles
    /// and reported while open.
    FightingStyleChoice,
    /// A fighting style's rule, applied to attacks and AC by the gear rules (`archery`,
    /// `defense`, `dueling`, `great-weapon-fighting`, `two-weapon-fighting`).
    FightingStyle {
        /// The style key.
        style: String,
    },
    /// Spellcasting from the class's SRD level table: the class's spellcasting ability applies
    /// from the level with this feature (spell slots are the table's row).
    Spellcasting,
    /// The subclass's spells (domain, oath, circle, patron) from the SRD subclass data: always
    /// prepared for a prepared caster, added to the list of a known caster; Circle of the
    /// Land's need the land option chosen.
    SubclassSpells,
    /// Spells from any class's spell list, `count` of them, among the spells known (Magical
    /// Secrets): the spell rules accept that many off-list spells.
    AnyListSpells {
        /// How many.
        count: u32,
    },
    /// A class-feature rule applied in play where it bites (a save, a check, a hit, a turn's
    /// start, an action's cost): see [`class_rules::ClassRule`].
    Rule {
        /// The rule.
        rule: class_rules::ClassRule,
    },
    /// A spell the feature lets its bearer cast through `cast_spell` without the usual rules:
    /// `spell` (an SRD spell index), or with no `spell` the one spell of `level` among the
    /// caster's spells (Mystic Arcanum); cast at `level` (or the spell's own), no slot spent
    /// unless `pact_slot` (a warlock slot is spent: Mire the Mind); `resource` (1 per cast)
    /// limits the uses, none means at will; `self_only` limits it to the caster.
    FeatureSpell {
        /// The spell (SRD index), when fixed.
        #[serde(default)]
        spell: Option<String>,
        /// The level it is cast at (and, with no `spell`, the level of the chosen spell).
        #[serde(default)]
        level: Option<u8>,
        /// The resource one cast spends; none: at will.
        #[serde(default)]
        resource: Option<String>,
        /// A warlock spell slot is spent.
        #[serde(default)]
        pact_slot: bool,
        /// Only on the caster.
        #[serde(default)]
        self_only: bool,
    },
    /// A rider on one spell when this creature casts it (Agonizing Blast, Repelling Blast,
    /// Eldritch Spear on eldritch blast): damage added to each hit, a push per hit, a range.
    SpellRider {
        /// The spell (SRD index).
        spell: String,
        /// Added to the damage of each hit (beam).
        #[serde(default)]
        damage: Option<Amount>,
        /// Feet each hit pushes the target away.
        #[serde(default)]
        push_ft: Option<u32>,
        /// The spell's range becomes this many feet.
        #[serde(default)]
        range_ft: Option<u32>,
    },
    /// A rule shaping this creature's spells (Evocation wizards): see [`SpellShaping`].
    SpellShaping {
        /// The rule.
        rule: SpellShaping,
    },
    /// Temporary hit points when this creature reduces a hostile creature to 0 HP (Dark One's
    /// Blessing).
    KillTempHp {
        /// How many.
        amount: Amount,
    },
    /// Cantrips from any class's list, `count` of them, known beyond the class's count (Pact of
    /// the Tome): the spell rules accept them.
    AnyListCantrips {
        /// How many.
        count: u32,
    },
    /// What choosing this option needs: a class level of the offering class and/or another
    /// option chosen (Thirsting Blade: warlock 5 and `pact-of-the-blade`). Not an effect.
    OptionPrerequisite {
        /// The least class level.
        #[serde(default)]
        level: u32,
        /// An option that must be chosen too.
        #[serde(default)]
        option: Option<String>,
    },
}

/// One catalog entry: grants, or narrative with a reason.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// What it grants.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub grants: Vec<Grant>,
    /// Why it is not automated (the DM applies it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub narrative: Option<String>,
    /// What it grants is read from the SRD's own data (proficiencies a trait lists).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub srd_data: bool,
    /// A note shown on the sheet.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// A catalog file as written.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    #[serde(default, rename = "trait")]
    traits: BTreeMap<String, Entry>,
    #[serde(default)]
    feature: BTreeMap<String, Entry>,
    #[serde(default)]
    background: BTreeMap<String, Entry>,
    #[serde(default)]
    feat: BTreeMap<String, Entry>,
    #[serde(default)]
    class: BTreeMap<String, Entry>,
    #[serde(default)]
    race: BTreeMap<String, Entry>,
}

/// The whole catalog, by section and SRD index.
#[derive(Debug, Default)]
pub struct Catalog {
    /// Race and subrace traits.
    pub traits: BTreeMap<String, Entry>,
    /// Class and subclass features.
    pub features: BTreeMap<String, Entry>,
    /// Backgrounds.
    pub backgrounds: BTreeMap<String, Entry>,
    /// Feats.
    pub feats: BTreeMap<String, Entry>,
    /// Whole classes (grants every level of the class has, e.g. nothing yet).
    pub classes: BTreeMap<String, Entry>,
    /// Whole races: what the SRD says in a race's prose rather than a trait (dwarf speed).
    pub races: BTreeMap<String, Entry>,
}

/// A catalog file that does not parse, or an index written twice.
#[derive(Debug, thiserror::Error)]
pub enum CatalogError {
    /// Bad TOML or an unknown grant.
    #[error("catalog {file}: {message}")]
    Parse {
        /// The file.
        file: String,
        /// What is wrong.
        message: String,
    },
    /// The same index in two files.
    #[error("catalog: {section} '{index}' is written twice")]
    Duplicate {
        /// The section.
        section: &'static str,
        /// The index.
        index: String,
    },
}

impl Catalog {
    /// Parses catalog files.
    pub fn parse(files: &[(&str, &str)]) -> Result<Self, CatalogError> {
        let mut c = Catalog::default();
        for (name, text) in files {
            let f: File = toml::from_str(text).map_err(|e| CatalogError::Parse {
                file: (*name).to_string(),
                message: e.to_string(),
            })?;
            for (section, from, to) in [
                ("trait", f.traits, &mut c.traits),
                ("feature", f.feature, &mut c.features),
                ("background", f.background, &mut c.backgrounds),
                ("feat", f.feat, &mut c.feats),
                ("class", f.class, &mut c.classes),
                ("race", f.race, &mut c.races),
            ] {
                for (k, v) in from {
                    if to.insert(k.clone(), v).is_some() {
                        return Err(CatalogError::Duplicate { section, index: k });
                    }
                }
            }
        }
        Ok(c)
    }

    /// The embedded catalog (empty if it failed to parse, which its tests forbid).
    pub fn get() -> &'static Catalog {
        static CATALOG: OnceLock<Catalog> = OnceLock::new();
        CATALOG.get_or_init(|| match Catalog::parse(FILES) {
            Ok(c) => c,
            Err(e) => {
                tracing::error!("{e}");
                Catalog::default()
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_catalog_parses() {
        let c = Catalog::parse(FILES).unwrap();
        assert!(c.traits.contains_key("dwarven-toughness"));
        for (k, e) in c
            .traits
            .iter()
            .chain(&c.features)
            .chain(&c.backgrounds)
            .chain(&c.feats)
        {
            // An option's prerequisites may go with a narrative reason (they are no effect).
            let effects = e
                .grants
                .iter()
                .filter(|g| !matches!(g, Grant::OptionPrerequisite { .. }))
                .count();
            let kinds = usize::from(!e.grants.is_empty())
                + usize::from(e.narrative.is_some())
                + usize::from(e.srd_data);
            assert!(
                kinds >= 1 && (e.narrative.is_none() || effects == 0),
                "{k}: give grants, srd_data or a narrative reason (not grants and narrative)"
            );
        }
    }

    #[test]
    fn amounts_add_their_parts() {
        let mut m = serde_json::Map::new();
        m.insert("rage_count".into(), serde_json::json!(3));
        let ctx = AmountContext {
            level: 5,
            class_specific: Some(&m),
            modifiers: [(Ability::Charisma, 3)].into_iter().collect(),
            proficiency: 3,
        };
        let a: Amount = toml::from_str::<BTreeMap<String, Amount>>(
            "x = { class_specific = \"rage_count\", per_level = 5, ability_mod = \"cha\" }",
        )
        .unwrap()
        .remove("x")
        .unwrap();
        assert_eq!(a.eval(&ctx), 3 + 25 + 3);
        assert_eq!(Amount::Fixed(2).eval(&ctx), 2);
    }
}
