//! `use_scroll`: reading a spell scroll. The spell must be on the reader's class list (otherwise
//! the scroll is unintelligible and stays unused); of a level the reader can cast (it has slots
//! of that level, or it is a cantrip) it is simply cast; higher, the reader first makes an
//! ability check with its spellcasting ability, DC 10 + the spell's level, and a failure wastes
//! the scroll. Save DC and attack bonus come from the SRD Spell Scroll table, not the reader. No
//! slot is spent; the scroll is consumed either way. Inside an encounter reading it takes the
//! spell's casting time (an action for most) and the spell is cast on the grid like cast_spell;
//! outside, on the named targets. [`deliver`] is the shared "cast here, in or out of combat" step
//! that synthesize_spell uses too.

use serde::Serialize;
use tabletop_grid::Position;
use tabletop_rules::d20::{D20Outcome, D20Request, D20Test, roll_d20_test};

use super::spellcasting::{self, AttackNumbers, CastPlan, CasterNumbers, SlotUse};
use crate::characters::{resolve, resolve_with_fields};
use crate::combat::actions::{ActionRequest, ActionType, Who, economy};
use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::character::{Character, CharacterRef};
use crate::model::encounter::ActionCost;
use crate::model::names::name_key;
use crate::model::slots::ordinal;
use crate::model::spell::SpellDef;

/// The Spell Scroll table (SRD): save DC and attack bonus by spell level.
pub fn scroll_numbers(level: u8) -> (i32, i32) {
    match level {
        0..=2 => (13, 5),
        3 | 4 => (15, 7),
        5 => (17, 9),
        6..=8 => (18, 10),
        _ => (19, 11),
    }
}

/// The spell a scroll's name holds: "Spell Scroll (Fireball)", "Scroll of Fireball",
/// "Fireball scroll".
pub fn spell_of_scroll(item_name: &str) -> Option<String> {
    let n = item_name.trim();
    let lower = n.to_ascii_lowercase();
    if let (Some(a), Some(b)) = (n.find('('), n.rfind(')'))
        && a < b
        && lower.contains("scroll")
    {
        let inner = n[a + 1..b].trim();
        // "Spell Scroll (1st)" names a level, not a spell.
        if !inner.is_empty() && !inner.chars().next().is_some_and(|c| c.is_ascii_digit()) {
            return Some(inner.to_string());
        }
    }
    if let Some(i) = lower.find("scroll of ") {
        return Some(n[i + "scroll of ".len()..].trim().to_string());
    }
    if let Some(s) = lower.strip_suffix(" scroll") {
        return Some(n[..s.len()].trim().to_string());
    }
    None
}

/// Where a casting lands.
#[derive(Debug, Clone, Default)]
pub struct Targeting {
    /// Encounter (default: the caster's active one, if any).
    pub encounter_id: Option<String>,
    /// Targets, by id or name.
    pub targets: Vec<Who>,
    /// Area origin or aim square (in an encounter).
    pub to: Option<Position>,
    /// Cone or line direction (in an encounter).
    pub direction: Option<String>,
    /// Override the action economy (in an encounter).
    pub force: bool,
    /// A damage type the spell asks the caster to choose (Protection from Energy).
    pub damage_type: Option<tabletop_rules::DamageType>,
    /// An ability the spell asks the caster to choose (Enhance Ability).
    pub ability: Option<tabletop_rules::Ability>,
    /// Metamagic already paid for (a sorcerer's own casting outside an encounter).
    pub metamagic: super::plan::MetamagicPlan,
    /// A carried item the spell acts on, and the caster's words (see `CastChoice`).
    pub item: Option<String>,
    /// The caster's words.
    pub words: Option<String>,
}

/// A `use_scroll` request.
#[derive(Debug, Clone, Default)]
pub struct ScrollRequest {
    /// The reader.
    pub caster: Who,
    /// The scroll item, by id.
    pub item_id: Option<String>,
    /// The scroll item, by name.
    pub item_name: Option<String>,
    /// Or the spell on it.
    pub spell: Option<String>,
    /// Where it lands.
    pub targeting: Targeting,
}

/// What reading a scroll did.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ScrollOutcome {
    /// The reader.
    pub caster: String,
    /// The spell.
    pub spell: String,
    /// Its level.
    pub level: u8,
    /// Save DC and attack bonus of the scroll.
    pub save_dc: i32,
    /// Attack bonus of the scroll.
    pub attack_bonus: i32,
    /// The ability check for a spell above the reader's level.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub check: Option<D20Outcome>,
    /// Whether the spell was cast.
    pub cast: bool,
    /// The scroll item consumed (absent when none was carried).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub consumed: Option<String>,
    /// The lead line.
    pub headline: String,
    /// What followed.
    pub lines: Vec<String>,
    /// The casting's details (targets, rolls).
    #[serde(skip_serializing_if = "serde_json::Value::is_null")]
    pub details: serde_json::Value,
    /// The encounter it was read in.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub encounter_id: Option<String>,
}

/// A casting delivered: its headline, lines and details.
#[derive(Debug, Clone, Default)]
pub struct Delivered {
    /// The lead line.
    pub headline: String,
    /// What followed.
    pub lines: Vec<String>,
    /// Details.
    pub details: serde_json::Value,
    /// The encounter, if it happened in one.
    pub encounter_id: Option<String>,
}

/// An open casting context: in an encounter (the turn begun, its cost spent) or outside.
pub struct Context<'r> {
    turn: Option<crate::combat::actions::Turn<'r>>,
}

/// Opens the context for `caster`: inside its active encounter (or the one named) the action
/// economy is checked and `cost` spent now, before anything is rolled.
pub fn open<'r>(
    call: &mut Call<'_>,
    caster: &Character,
    targeting: &Targeting,
    areq: &'r mut ActionRequest,
    cost: Option<ActionCost>,
) -> Result<Context<'r>> {
    let enc_id = match targeting.encounter_id.clone() {
        Some(id) => Some(id),
        None => crate::combat::active_encounter_of(call, &caster.id)?,
    };
    let Some(enc_id) = enc_id else {
        return Ok(Context { turn: None });
    };
    let encounter = crate::combat::load_active(call, Some(&enc_id))?;
    let mut targets = targeting.targets.clone();
    *areq = ActionRequest {
        encounter_id: Some(enc_id),
        actor: Who {
            id: Some(caster.id.clone()),
            name: None,
        },
        action_type: Some(ActionType::UseMagicItem),
        action_cost: Some(cost.unwrap_or(ActionCost::Action)),
        target: if targets.len() == 1 {
            targets.remove(0)
        } else {
            Who::default()
        },
        targets,
        to: targeting.to,
        direction: targeting.direction.clone(),
        force: targeting.force,
        damage_type: targeting.damage_type,
        ability: targeting.ability,
        ..Default::default()
    };
    let turn = economy::begin(call, encounter, areq, ActionType::UseMagicItem)?;
    Ok(Context { turn: Some(turn) })
}

impl Context<'_> {
    /// The caster as this context holds it (the encounter's loaded sheet, or `c`).
    pub fn caster(&self, c: &Character) -> Character {
        self.turn
            .as_ref()
            .and_then(|t| t.actor.clone())
            .unwrap_or_else(|| c.clone())
    }

    /// Whether the casting happens in an encounter.
    pub fn in_combat(&self) -> bool {
        self.turn.is_some()
    }

    /// Saves the encounter (with a log line) when there is one.
    pub fn close(self, call: &mut Call<'_>, line: &str) -> Result<Option<String>> {
        let Some(mut t) = self.turn else {
            return Ok(None);
        };
        let mut text = line.to_string();
        if !t.forced.is_empty() {
            text.push_str(&format!(" [forced: {}]", t.forced.join("; ")));
        }
        t.encounter.log(text);
        crate::combat::save(call, &t.encounter)?;
        Ok(Some(t.encounter.id.clone()))
    }
}

/// Casts `def` for `caster` here: on the grid inside the encounter, or on the named targets
/// outside. The caster is stored.
#[allow(clippy::too_many_arguments)]
pub fn deliver(
    call: &mut Call<'_>,
    ctx: &mut Context<'_>,
    caster: Character,
    def: SpellDef,
    numbers: CasterNumbers,
    slot: SlotUse,
    targeting: &Targeting,
    tag: &str,
) -> Result<Delivered> {
    if let Some(turn) = ctx.turn.as_mut() {
        let out = crate::combat::actions::spell::cast_in_encounter(
            call, turn, caster, def, numbers, slot, tag,
        )?;
        let mut lines = out.lines;
        lines.extend(out.forced.iter().map(|f| format!("forced: {f}")));
        return Ok(Delivered {
            headline: out.headline,
            lines,
            details: out.details,
            encounter_id: Some(turn.encounter.id.clone()),
        });
    }
    let mut caster = caster;
    let mut ids = Vec::new();
    if def.self_only() {
        ids.push(caster.id.clone());
    } else {
        for w in &targeting.targets {
            let t = resolve_with_fields(
                call,
                CharacterRef::new(w.id.as_deref(), w.name.as_deref()),
                "targetId",
                "targetName",
            )?;
            ids.push(t.id);
        }
        let applies = !def.damage_at_slot.is_empty()
            || !def.damage_at_level.is_empty()
            || !def.heal_at_slot.is_empty()
            || def.condition.is_some()
            || def.effect.is_some();
        if ids.is_empty() && applies && (!def.self_range() || def.reach_ft().is_some()) {
            return Err(EngineError::invalid(
                "targets",
                format!("say whom {} affects: targets [{{id|name}}]", def.name),
            ));
        }
        if let Some(max) = def.max_targets(slot.level, caster.cantrip_level()) {
            if def.per_projectile() && !ids.is_empty() {
                let named = ids.clone();
                ids = (0..max).map(|i| named[i % named.len()].clone()).collect();
            } else if ids.len() > max + usize::from(targeting.metamagic.twinned) {
                return Err(EngineError::invalid(
                    "targets",
                    format!("{} affects at most {max} target(s) at this level", def.name),
                ));
            }
        }
    }
    let plan = CastPlan {
        spell: def.clone(),
        slot_level: slot.level,
        save_dc: numbers.save_dc,
        attack: if numbers.fixed {
            AttackNumbers::Fixed(numbers.attack_bonus)
        } else {
            AttackNumbers::Caster(numbers.ability, numbers.worn_attack_bonus)
        },
        modifier: numbers.modifier,
        targets: ids,
        origin: None,
        advantage: Vec::new(),
        disadvantage: Vec::new(),
        bonus: 0,
        source: format!("{}{tag}", def.name),
        repeat: false,
        choice: spellcasting::CastChoice {
            damage_type: targeting.damage_type,
            ability: targeting.ability,
            reduce: false,
            item: targeting.item.clone(),
            words: targeting.words.clone(),
        },
        metamagic: targeting.metamagic,
        forced: false,
    };
    let mut report = spellcasting::resolve(call, &mut caster, &plan, None)?;
    report.spell = format!("{}{tag}", def.name);
    report.notes = crate::combat::actions::spell::component_notes(&def, !tag.is_empty());
    crate::combat::put_sheet(call, &caster)?;
    call.record_change("character", &caster.id, report.headline());
    let mut lines = report.lines.clone();
    lines.extend(report.notes.iter().cloned());
    Ok(Delivered {
        headline: report.headline(),
        lines,
        details: serde_json::to_value(&report).unwrap_or_default(),
        encounter_id: None,
    })
}

/// Reads a spell scroll.
pub fn use_scroll(call: &mut Call<'_>, req: ScrollRequest) -> Result<ScrollOutcome> {
    let reader = resolve_with_fields(
        call,
        CharacterRef::new(req.caster.id.as_deref(), req.caster.name.as_deref()),
        "characterId",
        "characterName",
    )?;
    // The scroll: an item carried, or the spell named (a scroll found on the spot).
    let item_index;
    let spell_name = if req.item_id.is_some() || req.item_name.is_some() {
        let i = crate::inventory::ops::find_item(
            &reader,
            crate::inventory::ops::ItemRef {
                id: req.item_id.as_deref(),
                name: req.item_name.as_deref(),
            },
        )?;
        item_index = Some(i);
        let item = &reader.inventory.items[i];
        match req.spell.clone().or_else(|| spell_of_scroll(&item.name)) {
            Some(s) => s,
            None => {
                return Err(EngineError::invalid(
                    "spell",
                    format!(
                        "'{}' does not say which spell it holds; pass spell (e.g. \"Fireball\")",
                        item.name
                    ),
                ));
            }
        }
    } else if let Some(s) = req.spell.clone() {
        let key = name_key(&s);
        item_index = reader
            .inventory
            .items
            .iter()
            .position(|it| spell_of_scroll(&it.name).is_some_and(|x| name_key(&x) == key));
        s
    } else {
        return Err(EngineError::invalid(
            "itemName",
            "name the scroll (itemName or itemId) or its spell (spell)",
        ));
    };
    let srd = call.require_compendium("reading spell scrolls", "none")?;
    let Some(spell) = srd.spell(&spell_name) else {
        return Err(EngineError::NotFound {
            kind: "spell",
            given: spell_name,
            suggestions: Vec::new(),
        });
    };
    let def = SpellDef::from_srd(spell);
    if !spellcasting::on_class_list(&reader, &def) {
        return Err(EngineError::Rule(format!(
            "{} cannot use a scroll of {}: it is not on the {} spell list, so the scroll is unintelligible (it is not consumed)",
            reader.name,
            def.name,
            reader.class.as_deref().unwrap_or("(no class)")
        )));
    }
    let ability = spellcasting::spell_ability(call, &reader)?;
    let (dc, attack) = scroll_numbers(def.level);
    let mut areq = ActionRequest::default();
    let mut ctx = open(call, &reader, &req.targeting, &mut areq, def.cost())?;
    let mut caster = ctx.caster(&reader);
    crate::slots::ensure(call, &mut caster);
    let mut lines = Vec::new();
    // Consume the scroll (one of a stack) whatever happens next.
    let consumed = match item_index {
        Some(i) if i < caster.inventory.items.len() => {
            let it = &mut caster.inventory.items[i];
            let name = it.name.clone();
            if it.quantity > 1 {
                it.quantity -= 1;
            } else {
                caster.inventory.items.remove(i);
            }
            Some(name)
        }
        _ => {
            lines.push(format!(
                "{} carries no scroll of {}: read as one found on the spot",
                caster.name, def.name
            ));
            None
        }
    };
    let mut check = None;
    if def.level > 0 && def.level > spellcasting::highest_castable(&caster) {
        let stats = caster.effective();
        let r = D20Request::new(D20Test::AbilityCheck { ability })
            .dc(10 + i32::from(def.level))
            .labelled(format!(
                "{} check to read a {}-level scroll",
                ability.name(),
                ordinal(def.level)
            ));
        let out = roll_d20_test(&stats, &r, call.rng()?);
        call.record_roll(&out);
        lines.push(format!("{} — {}", caster.name, out.summary()));
        let ok = out.success == Some(true);
        check = Some(out);
        if !ok {
            let headline = format!(
                "{} fails to read the scroll of {}: the spell fades from it, wasted.",
                caster.name, def.name
            );
            crate::combat::put_sheet(call, &caster)?;
            call.record_change("character", &caster.id, headline.clone());
            let enc = ctx.close(call, &headline)?;
            return Ok(ScrollOutcome {
                caster: caster.name.clone(),
                spell: def.name.clone(),
                level: def.level,
                save_dc: dc,
                attack_bonus: attack,
                check,
                cast: false,
                consumed,
                headline,
                lines,
                details: serde_json::Value::Null,
                encounter_id: enc,
            });
        }
    }
    let numbers = CasterNumbers {
        ability,
        modifier: caster.effective().modifier(ability),
        save_dc: dc,
        attack_bonus: attack,
        fixed: true,
        worn_attack_bonus: 0,
    };
    let slot = SlotUse {
        level: def.level,
        pact: false,
        spent: false,
    };
    let name = caster.name.clone();
    let d = deliver(
        call,
        &mut ctx,
        caster,
        def.clone(),
        numbers,
        slot,
        &req.targeting,
        " (scroll)",
    )?;
    lines.extend(d.lines);
    lines.push(format!(
        "scroll DC {dc}, attack +{attack}; no slot spent; the scroll crumbles to dust"
    ));
    let enc = ctx.close(call, &d.headline)?;
    Ok(ScrollOutcome {
        caster: name,
        spell: def.name,
        level: def.level,
        save_dc: dc,
        attack_bonus: attack,
        check,
        cast: true,
        consumed,
        headline: d.headline,
        lines,
        details: d.details,
        encounter_id: enc.or(d.encounter_id),
    })
}

/// Whether `who` can read a scroll of `spell`, and how (no roll, no change).
pub fn scroll_check(call: &Call<'_>, who: CharacterRef<'_>, spell: &str) -> Result<String> {
    let c = resolve(call, who)?;
    let srd = call.require_compendium("reading spell scrolls", "none")?;
    let Some(s) = srd.spell(spell) else {
        return Err(EngineError::NotFound {
            kind: "spell",
            given: spell.to_string(),
            suggestions: Vec::new(),
        });
    };
    let def = SpellDef::from_srd(s);
    let (dc, atk) = scroll_numbers(def.level);
    if !spellcasting::on_class_list(&c, &def) {
        return Ok(format!(
            "{} cannot use a scroll of {}: not on the {} spell list.",
            c.name,
            def.name,
            c.class.as_deref().unwrap_or("(no class)")
        ));
    }
    let mut c2 = c.clone();
    crate::slots::ensure(call, &mut c2);
    let top = spellcasting::highest_castable(&c2);
    Ok(if def.level == 0 || def.level <= top {
        format!(
            "{} can cast {} from a scroll (scroll DC {dc}, attack +{atk}).",
            c.name, def.name
        )
    } else {
        format!(
            "{} needs a DC {} {} check to cast {} ({}-level) from a scroll; failure wastes it (scroll DC {dc}, attack +{atk}).",
            c.name,
            10 + u32::from(def.level),
            spellcasting::spell_ability(call, &c)
                .map(|a| a.name())
                .unwrap_or("spellcasting ability"),
            def.name,
            ordinal(def.level)
        )
    })
}
