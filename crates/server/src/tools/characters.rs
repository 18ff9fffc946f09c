//! Character tools: create_character, get_character, update_character, delete_character,
//! roll_check.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Deserialize;
use tabletop_engine::character::Recharge;
use tabletop_engine::character::{self, CharacterRef};
use tabletop_engine::creation::{
    AbilityMethod, ClassRequest, CreateMode, CreateRequest, CustomClass, CustomRace,
    create_character,
};
use tabletop_engine::sheet;
use tabletop_engine::update::{
    CharacterPatch, HpChange, ResourcePatch, UpdateRequest, XpChange, update_character,
};
use tabletop_engine::{Call, EngineError};
use tabletop_rules::damage::DamagePart;
use tabletop_rules::{Ability, CharacterType, Condition, DamageType, Size, Skill};

use super::{Access, invoke, invoke_batch};
use crate::arg_enum;
use crate::render;
use crate::reply::Reply;
use crate::schema::{input_schema, lean_schema, with_batch};
use crate::spec::{Category, ToolSpec};

/// Six ability scores by abbreviation; each optional where a method fills it.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[allow(missing_docs)]
pub struct StatsArg {
    #[serde(alias = "strength", alias = "STR")]
    pub str: Option<i64>,
    #[serde(alias = "dexterity", alias = "DEX")]
    pub dex: Option<i64>,
    #[serde(alias = "constitution", alias = "CON")]
    pub con: Option<i64>,
    #[serde(alias = "intelligence", alias = "INT")]
    pub int: Option<i64>,
    #[serde(alias = "wisdom", alias = "WIS")]
    pub wis: Option<i64>,
    #[serde(alias = "charisma", alias = "CHA")]
    pub cha: Option<i64>,
}

impl StatsArg {
    fn to_map(&self) -> BTreeMap<Ability, i64> {
        [
            (Ability::Strength, self.str),
            (Ability::Dexterity, self.dex),
            (Ability::Constitution, self.con),
            (Ability::Intelligence, self.int),
            (Ability::Wisdom, self.wis),
            (Ability::Charisma, self.cha),
        ]
        .into_iter()
        .filter_map(|(a, v)| v.map(|v| (a, v)))
        .collect()
    }
}

arg_enum! {
    /// How ability scores are produced.
    pub enum AbilityMethodArg {
        Manual = "manual",
        StandardArray = "standard_array",
        PointBuy = "point_buy",
        Roll = "roll",
    }
}

/// A class not in the SRD; its save proficiencies come from `saves`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CustomClassArg {
    /// Class name.
    pub name: String,
    /// Hit die: 6, 8, 10 or 12.
    pub hit_die: u32,
    /// Spellcasting ability, if it casts.
    pub spellcasting_ability: Option<Ability>,
}

/// A race not in the SRD; its speed comes from `speed` (default 30).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CustomRaceArg {
    /// Race name.
    pub name: String,
    /// Ability bonuses, e.g. {"str": 2, "con": 1}.
    pub ability_bonuses: Option<StatsArg>,
    /// Size (default medium).
    pub size: Option<Size>,
}

/// Arguments of `create_character`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CreateCharacterArgs {
    /// Default with fromMonster: the monster's.
    pub name: Option<String>,
    /// Default pc; only PCs make death saves.
    pub character_type: Option<CharacterType>,
    /// SRD race, e.g. dwarf.
    pub race: Option<String>,
    /// SRD subrace, e.g. hill dwarf.
    pub subrace: Option<String>,
    /// SRD class, e.g. wizard.
    pub class: Option<String>,
    /// Background.
    pub background: Option<String>,
    /// Level 1–20 (default 1).
    pub level: Option<u32>,
    /// Ability scores before racial bonuses.
    pub stats: Option<StatsArg>,
    /// How scores are made (default manual); standard_array and point_buy are validated, roll is 4d6 drop lowest.
    pub ability_method: Option<AbilityMethodArg>,
    /// Skill proficiencies (checked against the class list for PCs).
    #[serde(default)]
    pub skills: Vec<Skill>,
    /// Saving-throw proficiencies; default from the class.
    pub saves: Option<Vec<Ability>>,
    /// Equipment names.
    #[serde(default)]
    pub equipment: Vec<String>,
    /// Spells known or prepared, cantrips included (checked against the class rules).
    #[serde(default)]
    pub spells: Vec<String>,
    /// Wizard's spellbook; default its listed spells.
    #[serde(default)]
    pub spellbook: Vec<String>,
    /// Multiclass: the class each spell is learned with, e.g. {"Light": "wizard"}.
    #[serde(default)]
    pub spell_classes: std::collections::BTreeMap<String, String>,
    /// Max HP; default hit die max + CON at level 1, average after.
    pub hp: Option<u32>,
    /// Armor class; default 10 + DEX.
    pub ac: Option<i32>,
    /// Speed in feet; default from race.
    pub speed: Option<u32>,
    /// Define a class the SRD lacks.
    pub custom_class: Option<CustomClassArg>,
    /// Define a race the SRD lacks.
    pub custom_race: Option<CustomRaceArg>,
    /// Free-form notes.
    pub notes: Option<String>,
    /// Show what would be created; store nothing.
    #[serde(default)]
    pub preview_template: bool,
    /// Check the build and list every rule it breaks; store nothing.
    #[serde(default)]
    pub validate_only: bool,
    /// SRD monster whose stat block to use, e.g. goblin.
    pub from_monster: Option<String>,
    /// Multiclass levels instead of class + level, starting class first.
    #[serde(default)]
    pub classes: Vec<ClassLevelArg>,
    /// Half-elf: the two abilities given +1.
    #[serde(default)]
    pub ability_choices: Vec<Ability>,
    /// ASI choices, level order.
    #[serde(default)]
    pub asi: Vec<tabletop_engine::derive::asi::AsiChoice>,
    /// Skills with expertise.
    #[serde(default)]
    pub expertise: Vec<Skill>,
    /// Languages chosen.
    #[serde(default)]
    pub languages: Vec<String>,
    /// e.g. defense.
    pub fighting_style: Option<String>,
    /// Dragonborn colour, e.g. red.
    pub draconic_ancestry: Option<String>,
    /// Feature options by key, e.g. hunters-prey-colossus-slayer, eldritch-invocation-devils-sight.
    #[serde(default)]
    pub options: Vec<String>,
}

/// Levels in one class.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ClassLevelArg {
    /// SRD class.
    pub class: String,
    /// 1–20.
    pub level: u32,
    /// SRD subclass.
    pub subclass: Option<String>,
}

fn run_create(call: &mut Call<'_>, a: CreateCharacterArgs) -> Result<Reply, EngineError> {
    let mode = match (a.validate_only, a.preview_template) {
        (true, _) => CreateMode::Validate,
        (false, true) => CreateMode::Preview,
        _ => CreateMode::Create,
    };
    let custom_class = a.custom_class.map(|c| CustomClass {
        name: c.name,
        hit_die: c.hit_die,
        saves: a.saves.clone().unwrap_or_default(),
        spellcasting_ability: c.spellcasting_ability,
        skill_choices: None,
    });
    let custom_race = a.custom_race.map(|r| CustomRace {
        name: r.name,
        ability_bonuses: r
            .ability_bonuses
            .as_ref()
            .map(|b| b.to_map().into_iter().map(|(k, v)| (k, v as i32)).collect())
            .unwrap_or_default(),
        speed: a.speed,
        size: r.size,
        traits: vec![],
    });
    if a.name.is_none() && a.from_monster.is_none() {
        return Err(EngineError::invalid(
            "name",
            "give a name (1–80 characters), or fromMonster to name it after an SRD monster",
        ));
    }
    let req = CreateRequest {
        name: a.name.unwrap_or_default(),
        from_monster: a.from_monster,
        kind: a.character_type,
        race: a.race,
        subrace: a.subrace,
        class: a.class,
        background: a.background,
        level: a.level,
        method: match a.ability_method {
            None | Some(AbilityMethodArg::Manual) => AbilityMethod::Manual,
            Some(AbilityMethodArg::StandardArray) => AbilityMethod::StandardArray,
            Some(AbilityMethodArg::PointBuy) => AbilityMethod::PointBuy,
            Some(AbilityMethodArg::Roll) => AbilityMethod::Roll,
        },
        scores: a.stats.as_ref().map(StatsArg::to_map),
        skills: a.skills,
        saves: a.saves,
        equipment: a.equipment,
        spells: a.spells,
        spellbook: a.spellbook,
        spell_classes: a.spell_classes,
        max_hp: a.hp,
        armor_class: a.ac,
        speed: a.speed,
        custom_class,
        custom_race,
        notes: a.notes,
        mode,
        classes: a
            .classes
            .into_iter()
            .map(|c| ClassRequest {
                class: c.class,
                level: c.level,
                subclass: c.subclass,
            })
            .collect(),
        ability_choices: a.ability_choices,
        asi: a.asi,
        expertise: a.expertise,
        languages: a.languages,
        fighting_style: a.fighting_style,
        draconic_ancestry: a.draconic_ancestry,
        options: a.options,
        ..Default::default()
    };
    let out = create_character(call, req)?;
    let text = render::creation(&out, mode);
    Ok(Reply::new(text, &out))
}

/// Arguments of `delete_character`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct DeleteCharacterArgs {
    pub character_id: Option<String>,
    pub character_name: Option<String>,
}

fn run_delete(call: &mut Call<'_>, a: DeleteCharacterArgs) -> Result<Reply, EngineError> {
    let out = character::delete_character(
        call,
        CharacterRef::new(a.character_id.as_deref(), a.character_name.as_deref()),
    )?;
    let text = format!(
        "Deleted {} ({}).{}",
        out.name,
        out.id,
        if out.cascaded.is_empty() {
            String::new()
        } else {
            format!(" Also removed: {}.", out.cascaded.join(", "))
        }
    );
    Ok(Reply::new(text, &out))
}

/// Filters of a character list, combined with AND.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CharacterFilterArg {
    /// Only this type.
    #[serde(rename = "type")]
    pub kind: Option<CharacterType>,
    /// Only this class.
    pub class: Option<String>,
    /// Level at least.
    pub min_level: Option<u32>,
    /// Level at most.
    pub max_level: Option<u32>,
    /// Only characters with this condition.
    pub has_condition: Option<Condition>,
    /// Name contains.
    pub name: Option<String>,
}

/// Arguments of `get_character`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct GetCharacterArgs {
    pub character_id: Option<String>,
    pub character_name: Option<String>,
    /// List every character (combine with filter).
    #[serde(default)]
    pub list_all: bool,
    /// List the characters matching all of these.
    pub filter: Option<CharacterFilterArg>,
    /// List page, from 1.
    pub page: Option<usize>,
    /// List page size, 1–100 (default 50).
    pub per_page: Option<usize>,
}

fn run_get(call: &mut Call<'_>, a: GetCharacterArgs) -> Result<Reply, EngineError> {
    let wants_list = a.list_all || a.filter.is_some();
    if wants_list {
        if a.character_id.is_some() || a.character_name.is_some() {
            return Err(EngineError::invalid(
                "listAll",
                "either name one character (characterId/characterName) or list (listAll/filter), not both",
            ));
        }
        let f = a.filter.unwrap_or_default();
        let filter = character::CharacterFilter {
            kind: f.kind,
            class: f.class,
            min_level: f.min_level,
            max_level: f.max_level,
            has_condition: f.has_condition,
            name: f.name,
        };
        let page =
            sheet::list_characters(call, &filter, a.page.unwrap_or(1), a.per_page.unwrap_or(50))?;
        return Ok(Reply::new(render::list(&page), &page));
    }
    if a.page.is_some() || a.per_page.is_some() {
        return Err(EngineError::invalid(
            "page",
            "page/perPage apply to lists; add listAll or filter",
        ));
    }
    if a.character_id.is_none() && a.character_name.is_none() {
        return Err(EngineError::invalid(
            "characterId",
            "name a character (characterId or characterName), or list with listAll/filter",
        ));
    }
    let s = sheet::get_character(
        call,
        CharacterRef::new(a.character_id.as_deref(), a.character_name.as_deref()),
    )?;
    Ok(Reply::new(render::sheet(&s), &s))
}

/// A hit-point change: a number sets HP; "+5" heals; "-7" deals untyped damage.
#[derive(Debug)]
pub enum HpArg {
    /// Set HP to this value (negative numbers are damage).
    Absolute(i64),
    /// "+N" heals, "-N" damages, "N" sets.
    Delta(String),
}

impl<'de> Deserialize<'de> for HpArg {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match serde_json::Value::deserialize(d)? {
            serde_json::Value::Number(n) => n.as_i64().map(HpArg::Absolute).ok_or_else(|| {
                serde::de::Error::custom(format!("{n} is not a whole number of hit points"))
            }),
            serde_json::Value::String(s) => Ok(HpArg::Delta(s)),
            other => Err(serde::de::Error::custom(format!(
                "expected a number or a string like \"+5\" or \"-7\", got {other}"
            ))),
        }
    }
}

impl HpArg {
    fn to_change(&self) -> Result<HpChange, EngineError> {
        let bad = |v: &str| {
            EngineError::invalid(
                "hp",
                format!(
                    "'{v}' is not an HP value; use a number to set, \"+5\" to heal or \"-7\" to damage"
                ),
            )
        };
        match self {
            HpArg::Absolute(n) if *n >= 0 => Ok(HpChange::Set(
                u32::try_from(*n).map_err(|_| bad(&n.to_string()))?,
            )),
            HpArg::Absolute(n) => Ok(HpChange::Damage(
                u32::try_from(n.unsigned_abs()).map_err(|_| bad(&n.to_string()))?,
            )),
            HpArg::Delta(s) => {
                let t = s.trim();
                let num = |x: &str| x.trim().parse::<u32>().map_err(|_| bad(s));
                if let Some(r) = t.strip_prefix('+') {
                    Ok(HpChange::Heal(num(r)?))
                } else if let Some(r) = t.strip_prefix('-') {
                    Ok(HpChange::Damage(num(r)?))
                } else {
                    Ok(HpChange::Set(num(t)?))
                }
            }
        }
    }
}

impl HpArg {
    /// The same shapes for experience points: a number sets, "+300" gains, "-50" loses.
    fn to_xp(&self) -> Result<XpChange, EngineError> {
        let bad = |v: &str| {
            EngineError::invalid(
                "xp",
                format!("'{v}' is not an XP value; use a number to set it or \"+300\" to add"),
            )
        };
        match self {
            HpArg::Absolute(n) => u32::try_from(*n)
                .map(XpChange::Set)
                .map_err(|_| bad(&n.to_string())),
            HpArg::Delta(s) => {
                let t = s.trim();
                let num = |x: &str| x.trim().parse::<u32>().map_err(|_| bad(s));
                if let Some(r) = t.strip_prefix('+') {
                    Ok(XpChange::Add(i64::from(num(r)?)))
                } else if let Some(r) = t.strip_prefix('-') {
                    Ok(XpChange::Add(-i64::from(num(r)?)))
                } else {
                    Ok(XpChange::Set(num(t)?))
                }
            }
        }
    }
}

/// Damage of one type.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct DamageArg {
    /// Amount before resistances.
    pub amount: u32,
    /// Damage type; omit for untyped.
    #[serde(rename = "type", alias = "damageType")]
    pub damage_type: Option<DamageType>,
}

/// Arguments of `update_character`; applied in order: fields, hp, damage, healing, tempHp.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct UpdateCharacterArgs {
    pub character_id: Option<String>,
    pub character_name: Option<String>,
    /// "12" sets HP, "+5" heals, "-7" deals untyped damage through the pipeline.
    #[schemars(with = "Option<String>")]
    pub hp: Option<HpArg>,
    /// Experience points: 900 sets, "+300" adds; the sheet says when it can level up.
    #[schemars(with = "Option<String>")]
    pub xp: Option<HpArg>,
    /// Typed damage of one hit; defenses, temp HP and death saves apply.
    #[serde(default, deserialize_with = "crate::args::one_or_many")]
    pub damage: Option<Vec<DamageArg>>,
    /// The damage is from a critical hit (two death-save failures at 0 HP).
    #[serde(default)]
    pub critical: bool,
    /// Healing; wakes a creature at 0 HP.
    pub healing: Option<u32>,
    /// Temporary HP (the higher is kept; no stacking).
    pub temp_hp: Option<u32>,
    /// New name.
    pub name: Option<String>,
    /// New type.
    pub character_type: Option<CharacterType>,
    /// New race label.
    pub race: Option<String>,
    /// New class label.
    pub class: Option<String>,
    /// New background.
    pub background: Option<String>,
    /// Scores to set as they end up on the sheet, e.g. {"str": 16}.
    pub stats: Option<StatsArg>,
    /// Replace skill proficiencies.
    pub skills: Option<Vec<Skill>>,
    /// Replace expertise.
    pub expertise: Option<Vec<Skill>>,
    /// Replace save proficiencies.
    pub saves: Option<Vec<Ability>>,
    /// Base AC.
    pub ac: Option<i32>,
    /// Speed in feet.
    pub speed: Option<u32>,
    /// Size.
    pub size: Option<Size>,
    /// Base maximum HP.
    pub max_hp: Option<u32>,
    /// Replace the inventory with these items (SRD names; unnamed ones are removed).
    pub equipment: Option<Vec<String>>,
    /// Replace spells known or prepared (checked against the class rules).
    pub spells: Option<Vec<String>>,
    /// Replace a wizard's spellbook.
    pub spellbook: Option<Vec<String>>,
    /// Add spells to the known/prepared list (checked like spells).
    pub add_spells: Option<Vec<String>>,
    /// Take spells off the known/prepared list.
    pub remove_spells: Option<Vec<String>>,
    /// Multiclass: the class each spell is learned with, e.g. {"Light": "wizard"}.
    pub spell_classes: Option<std::collections::BTreeMap<String, String>>,
    /// Keep spells that break the class rules (DM override, said so).
    #[serde(default)]
    pub force: bool,
    /// Replace languages.
    pub languages: Option<Vec<String>>,
    /// Replace all resistances, immunities, vulnerabilities and condition immunities.
    pub defenses: Option<Vec<DefenseArg>>,
    /// Spellcasting ability.
    pub spellcasting_ability: Option<Ability>,
    /// Notes.
    pub notes: Option<String>,
    /// Add or change resources by name, e.g. [{"name":"Ki","max":4,"recharge":"short"}]; max 0 removes.
    pub resources: Option<Vec<ResourceArg>>,
}

arg_enum! {
    /// When a resource comes back.
    pub enum RechargeArg {
        Short = "short",
        Long = "long",
    }
}

/// One resource change.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ResourceArg {
    /// Name, e.g. Ki.
    pub name: String,
    /// Maximum (0 removes).
    pub max: Option<u32>,
    /// Uses left.
    pub current: Option<u32>,
    /// short or long (default) rest.
    pub recharge: Option<RechargeArg>,
}

arg_enum! {
    /// A kind of defense.
    pub enum DefenseKind {
        Resistance = "resistance",
        Immunity = "immunity",
        Vulnerability = "vulnerability",
        ConditionImmunity = "condition_immunity",
    }
}

/// What a defense is against: a damage type, or a condition for condition_immunity.
#[derive(Debug, Clone, Copy, JsonSchema)]
#[serde(untagged)]
pub enum DefenseTarget {
    /// A damage type.
    Damage(DamageType),
    /// A condition.
    Condition(Condition),
}

impl<'de> Deserialize<'de> for DefenseTarget {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        if let Ok(t) = s.parse::<DamageType>() {
            return Ok(DefenseTarget::Damage(t));
        }
        if let Ok(c) = s.parse::<Condition>() {
            return Ok(DefenseTarget::Condition(c));
        }
        let all: Vec<&str> = DamageType::ALL
            .iter()
            .map(|t| t.key())
            .chain(Condition::ALL.iter().map(|c| c.key()))
            .collect();
        let hint = tabletop_rules::vocab::closest(&s, all.iter().copied())
            .map(|c| format!(" (did you mean '{c}'?)"))
            .unwrap_or_default();
        Err(serde::de::Error::custom(format!(
            "'{s}' is neither a damage type nor a condition{hint}; allowed: {}",
            all.join(", ")
        )))
    }
}

/// One defense, e.g. {"kind": "resistance", "against": "fire"}.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct DefenseArg {
    /// Kind of defense.
    pub kind: DefenseKind,
    /// A damage type, or a condition for condition_immunity.
    pub against: DefenseTarget,
}

fn defenses_of(d: &Option<Vec<DefenseArg>>, kind: DefenseKind) -> Option<Vec<DamageType>> {
    d.as_ref().map(|d| {
        d.iter()
            .filter(|x| x.kind == kind)
            .filter_map(|x| match x.against {
                DefenseTarget::Damage(t) => Some(t),
                DefenseTarget::Condition(_) => None,
            })
            .collect()
    })
}

fn check_defenses(d: &Option<Vec<DefenseArg>>) -> Result<(), EngineError> {
    for x in d.iter().flatten() {
        match (x.kind, x.against) {
            (DefenseKind::ConditionImmunity, DefenseTarget::Damage(t)) => {
                return Err(EngineError::invalid(
                    "defenses",
                    format!("condition_immunity takes a condition, not the damage type '{t}'"),
                ));
            }
            (k, DefenseTarget::Condition(c)) if k != DefenseKind::ConditionImmunity => {
                return Err(EngineError::invalid(
                    "defenses",
                    format!(
                        "{} takes a damage type, not the condition '{c}'; use kind condition_immunity",
                        k_name(k)
                    ),
                ));
            }
            _ => {}
        }
    }
    Ok(())
}

fn k_name(k: DefenseKind) -> &'static str {
    match k {
        DefenseKind::Resistance => "resistance",
        DefenseKind::Immunity => "immunity",
        DefenseKind::Vulnerability => "vulnerability",
        DefenseKind::ConditionImmunity => "condition_immunity",
    }
}

fn run_update(call: &mut Call<'_>, a: UpdateCharacterArgs) -> Result<Reply, EngineError> {
    check_defenses(&a.defenses)?;
    let req = UpdateRequest {
        patch: CharacterPatch {
            name: a.name,
            xp: a.xp.as_ref().map(HpArg::to_xp).transpose()?,
            kind: a.character_type,
            race: a.race,
            class: a.class,
            background: a.background,
            stats: a.stats.as_ref().map(StatsArg::to_map),
            skills: a.skills,
            expertise: a.expertise,
            saves: a.saves,
            armor_class: a.ac,
            speed: a.speed,
            size: a.size,
            max_hp: a.max_hp,
            equipment: a.equipment,
            spells: a.spells,
            spellbook: a.spellbook,
            add_spells: a.add_spells,
            remove_spells: a.remove_spells,
            spell_classes: a.spell_classes,
            languages: a.languages,
            resistances: defenses_of(&a.defenses, DefenseKind::Resistance),
            immunities: defenses_of(&a.defenses, DefenseKind::Immunity),
            vulnerabilities: defenses_of(&a.defenses, DefenseKind::Vulnerability),
            condition_immunities: a.defenses.as_ref().map(|d| {
                d.iter()
                    .filter(|x| x.kind == DefenseKind::ConditionImmunity)
                    .filter_map(|x| match x.against {
                        DefenseTarget::Condition(c) => Some(c),
                        DefenseTarget::Damage(_) => None,
                    })
                    .collect()
            }),
            notes: a.notes,
            spellcasting_ability: a.spellcasting_ability,
            resources: a
                .resources
                .unwrap_or_default()
                .into_iter()
                .map(|r| ResourcePatch {
                    name: r.name,
                    max: r.max,
                    current: r.current,
                    recharge: r.recharge.map(|x| match x {
                        RechargeArg::Short => Recharge::Short,
                        RechargeArg::Long => Recharge::Long,
                    }),
                })
                .collect(),
        },
        hp: a.hp.as_ref().map(HpArg::to_change).transpose()?,
        damage: a
            .damage
            .unwrap_or_default()
            .into_iter()
            .map(|d| DamagePart::new(d.damage_type, d.amount))
            .collect(),
        critical: a.critical,
        healing: a.healing,
        temp_hp: a.temp_hp,
        force: a.force,
    };
    let out = update_character(
        call,
        CharacterRef::new(a.character_id.as_deref(), a.character_name.as_deref()),
        req,
    )?;
    let text = render::update(&out);
    Ok(Reply::new(text, &out))
}

pub(super) fn specs() -> Vec<ToolSpec> {
    vec![
        ToolSpec {
            name: "create_character",
            title: "Create character",
            category: Category::Characters,
            description: "Create a PC, NPC or enemy from SRD class and race, custom ones or an SRD monster; derives the sheet.",
            read_only: false,
            destructive: false,
            idempotent: false,
            core: true,
            max_result_chars: 6_000,
            schema: input_schema::<CreateCharacterArgs>,
            core_schema: Some(|| {
                lean_schema::<CreateCharacterArgs>(&[
                    "name",
                    "class",
                    "race",
                    "level",
                    "characterType",
                    "fromMonster",
                    "stats",
                ])
            }),
            handler: |e, n, raw| invoke(e, n, raw, Access::Write, run_create),
        },
        ToolSpec {
            name: "get_character",
            title: "Get character",
            category: Category::Characters,
            description: "Read character sheets with the source of every modifier, or list characters (listAll, filter).",
            read_only: true,
            destructive: false,
            idempotent: true,
            core: true,
            max_result_chars: 12_000,
            schema: || with_batch(input_schema::<GetCharacterArgs>(), "characters"),
            core_schema: Some(|| {
                with_batch(
                    lean_schema::<GetCharacterArgs>(&["characterId", "characterName", "listAll"]),
                    "characters",
                )
            }),
            handler: |e, n, raw| invoke_batch(e, n, raw, Access::Read, run_get),
        },
        ToolSpec {
            name: "update_character",
            title: "Update character",
            category: Category::Characters,
            description: "Change a sheet, or apply damage (resistances, temp HP, death saves), healing and temp HP.",
            read_only: false,
            destructive: true,
            idempotent: false,
            core: true,
            max_result_chars: 6_000,
            schema: || with_batch(input_schema::<UpdateCharacterArgs>(), "updates"),
            core_schema: Some(|| {
                lean_schema::<UpdateCharacterArgs>(&[
                    "characterId",
                    "characterName",
                    "hp",
                    "damage",
                    "healing",
                    "tempHp",
                    "critical",
                ])
            }),
            handler: |e, n, raw| invoke_batch(e, n, raw, Access::Write, run_update),
        },
        ToolSpec {
            name: "delete_character",
            title: "Delete character",
            category: Category::Characters,
            description: "Delete a character and everything that references it.",
            read_only: false,
            destructive: true,
            idempotent: false,
            core: false,
            max_result_chars: 2_000,
            schema: input_schema::<DeleteCharacterArgs>,
            core_schema: None,
            handler: |e, n, raw| invoke(e, n, raw, Access::Write, run_delete),
        },
    ]
}
