//! Magic tools beyond slots and concentration: `use_scroll`, `manage_aura`, `synthesize_spell`.
//! (cast_spell is `execute_action` with actionType cast_spell.)

use schemars::JsonSchema;
use serde::Deserialize;
use tabletop_engine::character::CharacterRef;
use tabletop_engine::combat::actions::Who;
use tabletop_engine::combat::auras::{self, AuraAffects, AuraOp, AuraOutcome, AuraSave, NewAura};
use tabletop_engine::magic::scroll::{ScrollRequest, Targeting, scroll_check, use_scroll};
use tabletop_engine::magic::spellcasting::{AreaKind, SpellArea};
use tabletop_engine::magic::synthesis::{SynthKind, SynthRequest, spellbook, synthesize_spell};
use tabletop_engine::{Call, EngineError};
use tabletop_grid::Position;
use tabletop_rules::{Ability, Condition, DamageType};

use super::combat::WhoArg;
use super::{Access, invoke};
use crate::arg_enum;
use crate::reply::Reply;
use crate::schema::input_schema;
use crate::spec::{Category, ToolSpec};

fn who(id: Option<String>, name: Option<String>) -> Who {
    Who { id, name }
}

fn targets(t: Option<Vec<WhoArg>>, id: Option<String>, name: Option<String>) -> Vec<Who> {
    let mut v: Vec<Who> = t
        .unwrap_or_default()
        .into_iter()
        .map(|w| who(w.id, w.name))
        .collect();
    let one = who(id, name);
    if !one.is_empty() {
        v.insert(0, one);
    }
    v
}

fn text(headline: &str, lines: &[String]) -> String {
    let mut t = headline.to_string();
    for l in lines {
        t.push_str(&format!("\n{l}"));
    }
    t
}

arg_enum! {
    /// use (read and cast) or check (can it be read, and how).
    pub enum ScrollOperation { Use = "use", Check = "check" }
}

/// Arguments of `use_scroll`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct UseScrollArgs {
    pub character_id: Option<String>,
    pub character_name: Option<String>,
    /// Default use.
    pub operation: Option<ScrollOperation>,
    /// The scroll carried ("Spell Scroll (Fireball)").
    pub item_id: Option<String>,
    pub item_name: Option<String>,
    /// Or the spell on it.
    pub spell: Option<String>,
    pub target_id: Option<String>,
    pub target_name: Option<String>,
    /// Several targets [{id|name}].
    pub targets: Option<Vec<WhoArg>>,
    /// In combat: area origin square.
    pub to: Option<Position>,
    /// In combat: cone/line direction.
    pub direction: Option<String>,
    pub encounter_id: Option<String>,
    pub force: Option<bool>,
}

fn run_scroll(call: &mut Call<'_>, a: UseScrollArgs) -> Result<Reply, EngineError> {
    if a.operation == Some(ScrollOperation::Check) {
        let spell = a.spell.clone().or_else(|| {
            a.item_name
                .as_deref()
                .and_then(tabletop_engine::magic::scroll::spell_of_scroll)
        });
        let Some(spell) = spell else {
            return Err(EngineError::invalid(
                "spell",
                "check needs spell (or an itemName naming it)",
            ));
        };
        let who = CharacterRef::new(a.character_id.as_deref(), a.character_name.as_deref());
        let t = scroll_check(call, who, &spell)?;
        return Ok(Reply::new(t.clone(), &crate::output::Answer { answer: t }));
    }
    let req = ScrollRequest {
        caster: who(a.character_id, a.character_name),
        item_id: a.item_id,
        item_name: a.item_name,
        spell: a.spell,
        targeting: Targeting {
            encounter_id: a.encounter_id,
            targets: targets(a.targets, a.target_id, a.target_name),
            to: a.to,
            direction: a.direction,
            force: a.force.unwrap_or(false),
            ..Default::default()
        },
    };
    let out = use_scroll(call, req)?;
    Ok(Reply::new(text(&out.headline, &out.lines), &out))
}

arg_enum! {
    /// What to do with auras.
    pub enum AuraOperation { Create = "create", Process = "process", Remove = "remove", List = "list" }
}

arg_enum! {
    /// Whom an aura touches.
    pub enum AffectsArg { Enemies = "enemies", Allies = "allies", All = "all", AllAndSelf = "all_and_self", AlliesAndSelf = "allies_and_self" }
}

/// Arguments of `manage_aura`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ManageAuraArgs {
    pub operation: AuraOperation,
    pub encounter_id: Option<String>,
    /// Aura id or name (process, remove).
    pub aura_id: Option<String>,
    /// create/remove: the bearer; process/list: the creature affected.
    pub character_id: Option<String>,
    pub character_name: Option<String>,
    pub name: Option<String>,
    /// Feet from the bearer.
    pub radius: Option<u32>,
    /// Dice ("3d8").
    pub damage: Option<String>,
    pub damage_type: Option<DamageType>,
    /// Dice.
    pub healing: Option<String>,
    pub condition: Option<Condition>,
    pub save_ability: Option<Ability>,
    #[serde(rename = "saveDC")]
    pub save_dc: Option<i32>,
    /// Save halves damage (default true; false: negates).
    pub half_on_save: Option<bool>,
    /// Default enemies.
    pub affects: Option<AffectsArg>,
    /// Default: until removed.
    pub rounds: Option<u32>,
    /// Spell whose concentration holds it.
    pub spell: Option<String>,
}

fn run_aura(call: &mut Call<'_>, a: ManageAuraArgs) -> Result<Reply, EngineError> {
    let w = who(a.character_id, a.character_name);
    let op = match a.operation {
        AuraOperation::Create => {
            let save = match (a.save_ability, a.save_dc) {
                (Some(ability), Some(dc)) => Some(AuraSave {
                    ability,
                    dc,
                    half: a.half_on_save.unwrap_or(true),
                }),
                (None, None) => None,
                _ => {
                    return Err(EngineError::invalid(
                        "saveDC",
                        "a save needs both saveAbility and saveDC",
                    ));
                }
            };
            if w.is_empty() {
                return Err(EngineError::invalid(
                    "characterId",
                    "create needs the bearer: characterId or characterName",
                ));
            }
            AuraOp::Create(NewAura {
                name: a
                    .name
                    .or_else(|| a.spell.clone())
                    .unwrap_or_else(|| "Aura".into()),
                bearer: w,
                radius_ft: a.radius.ok_or_else(|| {
                    EngineError::invalid("radius", "create needs radius in feet, e.g. 15")
                })?,
                damage: a.damage,
                damage_type: a.damage_type,
                healing: a.healing,
                condition: a.condition,
                save,
                affects: match a.affects.unwrap_or(AffectsArg::Enemies) {
                    AffectsArg::Enemies => AuraAffects::Enemies,
                    AffectsArg::Allies => AuraAffects::Allies,
                    AffectsArg::All => AuraAffects::All,
                    AffectsArg::AllAndSelf => AuraAffects::AllAndSelf,
                    AffectsArg::AlliesAndSelf => AuraAffects::AlliesAndSelf,
                },
                rounds: a.rounds,
                concentration: a.spell,
            })
        }
        AuraOperation::Process => AuraOp::Process {
            aura: a.aura_id,
            target: w,
        },
        AuraOperation::Remove => AuraOp::Remove {
            aura: a.aura_id,
            bearer: w,
        },
        AuraOperation::List => AuraOp::List { target: w },
    };
    let out = auras::manage_aura(call, a.encounter_id.as_deref(), op)?;
    Ok(Reply::new(aura_text(&out), &out))
}

fn aura_text(o: &AuraOutcome) -> String {
    let mut t: Vec<String> = o.lines.clone();
    if o.auras.is_empty() {
        t.push("No auras.".into());
    } else {
        t.push(format!("Auras ({}):", o.auras.len()));
        for a in &o.auras {
            let mut what = Vec::new();
            if let Some(d) = &a.damage {
                what.push(format!(
                    "{d} {}",
                    a.damage_type
                        .map_or("damage".to_string(), |x| x.to_string())
                ));
            }
            if let Some(h) = &a.healing {
                what.push(format!("heals {h}"));
            }
            if let Some(c) = a.condition {
                what.push(c.to_string());
            }
            if let Some(s) = a.save {
                what.push(format!(
                    "DC {} {} {}",
                    s.dc,
                    s.ability.abbr(),
                    if s.half { "half" } else { "negates" }
                ));
            }
            t.push(format!(
                "- {} ({}) on {}, {} ft: {}{}{}",
                a.name,
                a.id,
                a.bearer_id,
                a.radius_ft,
                what.join(", "),
                a.rounds_left
                    .map(|r| format!("; {r} rounds"))
                    .unwrap_or_default(),
                a.concentration
                    .as_ref()
                    .map(|s| format!("; concentration ({s})"))
                    .unwrap_or_default()
            ));
        }
    }
    t.join("\n")
}

arg_enum! {
    /// synthesize (attempt) or spellbook (mastered spells).
    pub enum SynthOperation { Synthesize = "synthesize", Spellbook = "spellbook" }
}

arg_enum! {
    /// The main effect.
    pub enum EffectTypeArg { Damage = "damage", Healing = "healing", Condition = "condition", Utility = "utility" }
}

arg_enum! {
    /// Area shape.
    pub enum AreaShapeArg { Sphere = "sphere", Cone = "cone", Cube = "cube", Cylinder = "cylinder", Line = "line" }
}

/// Arguments of `synthesize_spell`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SynthesizeArgs {
    pub character_id: Option<String>,
    pub character_name: Option<String>,
    /// Default synthesize.
    pub operation: Option<SynthOperation>,
    pub name: Option<String>,
    pub effect_type: Option<EffectTypeArg>,
    /// 1–9: the slot spent.
    pub level: Option<u8>,
    pub school: Option<String>,
    /// Damage or healing dice.
    pub dice: Option<String>,
    pub damage_type: Option<DamageType>,
    pub condition: Option<Condition>,
    pub area_shape: Option<AreaShapeArg>,
    /// Feet.
    pub area_size: Option<u32>,
    pub save_ability: Option<Ability>,
    /// Feet (default 60).
    pub range: Option<u32>,
    pub concentration: Option<bool>,
    /// −2 DC.
    pub costly_component: Option<bool>,
    pub bonus_action: Option<bool>,
    pub target_id: Option<String>,
    pub target_name: Option<String>,
    pub targets: Option<Vec<WhoArg>>,
    pub to: Option<Position>,
    pub direction: Option<String>,
    pub encounter_id: Option<String>,
    pub force: Option<bool>,
}

fn run_synth(call: &mut Call<'_>, a: SynthesizeArgs) -> Result<Reply, EngineError> {
    if a.operation == Some(SynthOperation::Spellbook) {
        let who = CharacterRef::new(a.character_id.as_deref(), a.character_name.as_deref());
        let (name, spells) = spellbook(call, who)?;
        let t = if spells.is_empty() {
            format!("{name} has mastered no improvised spells.")
        } else {
            format!(
                "{name}'s mastered spells: {}.",
                spells
                    .iter()
                    .map(|s| format!("{} ({})", s.name, s.kind_label()))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        return Ok(Reply::new(
            t,
            &crate::output::Spellbook {
                character: name,
                spells,
            },
        ));
    }
    let kind = match a.effect_type {
        Some(EffectTypeArg::Damage) => SynthKind::Damage,
        Some(EffectTypeArg::Healing) => SynthKind::Healing,
        Some(EffectTypeArg::Condition) => SynthKind::Condition,
        Some(EffectTypeArg::Utility) => SynthKind::Utility,
        None => {
            return Err(EngineError::invalid(
                "effectType",
                "say what the spell does: damage, healing, condition or utility",
            ));
        }
    };
    let area = match (a.area_shape, a.area_size) {
        (Some(s), Some(size)) => Some(SpellArea {
            shape: match s {
                AreaShapeArg::Sphere => AreaKind::Sphere,
                AreaShapeArg::Cone => AreaKind::Cone,
                AreaShapeArg::Cube => AreaKind::Cube,
                AreaShapeArg::Cylinder => AreaKind::Cylinder,
                AreaShapeArg::Line => AreaKind::Line,
            },
            size_ft: size,
        }),
        (None, None) => None,
        _ => {
            return Err(EngineError::invalid(
                "areaSize",
                "an area needs both areaShape and areaSize (feet)",
            ));
        }
    };
    let req = SynthRequest {
        caster: who(a.character_id, a.character_name),
        name: a.name,
        kind,
        level: a.level.ok_or_else(|| {
            EngineError::invalid("level", "give the spell's level, 1–9 (the slot spent)")
        })?,
        school: a.school,
        dice: a.dice,
        damage_type: a.damage_type,
        condition: a.condition,
        area,
        save: a.save_ability,
        range_ft: a.range,
        concentration: a.concentration.unwrap_or(false),
        costly_component: a.costly_component.unwrap_or(false),
        bonus_action: a.bonus_action.unwrap_or(false),
        targeting: Targeting {
            encounter_id: a.encounter_id,
            targets: targets(a.targets, a.target_id, a.target_name),
            to: a.to,
            direction: a.direction,
            force: a.force.unwrap_or(false),
            ..Default::default()
        },
    };
    let out = synthesize_spell(call, req)?;
    Ok(Reply::new(text(&out.headline, &out.lines), &out))
}

pub(super) fn specs() -> Vec<ToolSpec> {
    vec![
        ToolSpec {
            name: "use_scroll",
            title: "Use spell scroll",
            category: Category::Magic,
            description: "Read a spell scroll by the SRD rules (class list, check when too high); it is used up.",
            read_only: false,
            destructive: true,
            idempotent: false,
            core: false,
            max_result_chars: 8_000,
            schema: input_schema::<UseScrollArgs>,
            core_schema: None,
            handler: |e, n, raw| invoke(e, n, raw, Access::Write, run_scroll),
        },
        ToolSpec {
            name: "manage_aura",
            title: "Manage auras",
            category: Category::Magic,
            description: "Create, process, remove or list auras around a combatant; applied at turn start and on entry.",
            read_only: false,
            destructive: true,
            idempotent: false,
            core: false,
            max_result_chars: 6_000,
            schema: input_schema::<ManageAuraArgs>,
            core_schema: None,
            handler: |e, n, raw| invoke(e, n, raw, Access::Write, run_aura),
        },
        ToolSpec {
            name: "synthesize_spell",
            title: "Synthesize spell",
            category: Category::Magic,
            description: "Improvised magic: Arcana against a DC set by the proposal; success casts it, failure has tiers.",
            read_only: false,
            destructive: true,
            idempotent: false,
            core: false,
            max_result_chars: 8_000,
            schema: input_schema::<SynthesizeArgs>,
            core_schema: None,
            handler: |e, n, raw| invoke(e, n, raw, Access::Write, run_synth),
        },
    ]
}
