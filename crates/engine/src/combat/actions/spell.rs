//! cast_spell inside an encounter: the spell's casting time decides the cost (action, bonus
//! action, reaction; longer casting times cannot be cast in a round), the caster must know the
//! spell, a slot is spent at the chosen level, targets are checked against the spell's range on
//! the grid (total cover blocks), and areas take their targets from the map (walls block). Then
//! [`crate::magic::spellcasting::resolve`] applies it.

use tabletop_grid::{AreaOfEffect, AreaOrigin, Compass, Direction, Position};

use super::{ActionOutcome, ActionRequest, Turn};
use crate::catalog::caster_rules::Metamagic;
use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::magic::class_magic;
use crate::magic::feature_spells::{self, Via};
use crate::magic::spellcasting::{self, AttackNumbers, CastPlan, CasterNumbers, SlotUse};
use crate::model::character::Character;
use crate::model::encounter::ActionCost;
use crate::model::encounter::Encounter;
use crate::model::spell::SpellDef;

/// Casts a spell from the actor's own slots and numbers.
pub fn cast(call: &mut Call<'_>, turn: &mut Turn<'_>) -> Result<ActionOutcome> {
    let req = turn.req;
    let Some(mut caster) = turn.actor.clone() else {
        return Err(EngineError::invalid(
            "actorId",
            "say who casts (actorId or actorName)",
        ));
    };
    let Some(name) = req.spell.as_deref() else {
        return Err(EngineError::invalid(
            "spell",
            "name the spell to cast, e.g. \"Fireball\"",
        ));
    };
    let mut def = spellcasting::find_spell(call, &caster, name)?;
    let named = req.ability_name.as_deref();
    // A feature may cast it (an invocation, Mystic Arcanum): no slot, its own uses.
    let feature = match feature_spells::find(&caster, &def, req.slot_level, named) {
        Via::Feature(s) => Some(s),
        Via::Spent(why)
            if spellcasting::cannot_cast(call.compendium(), &caster, &def).is_some() =>
        {
            rule(turn, why)?;
            None
        }
        _ => None,
    };
    if feature.is_none()
        && let Some(why) =
            spellcasting::cannot_cast_as(call.compendium(), &caster, &def, req.ritual)
    {
        rule(turn, why)?;
    }
    crate::slots::ensure(call, &mut caster);
    let numbers = spellcasting::caster_numbers_for(call, &caster, &def.name)?;
    let mut feature_lines = Vec::new();
    let backlash = feature_spells::shape(
        &mut caster,
        &mut def,
        feature.as_ref(),
        named,
        &mut feature_lines,
    )?;
    // A zone its caster already holds on the map moves instead (Moonbeam), no slot spent.
    if let Some(z) = crate::combat::zones::spec(&def)
        && z.moves_ft.is_some()
        && let Some(i) = crate::combat::zones::active(&turn.encounter, &caster.id, &def)
    {
        return crate::combat::zones::move_zone(call, turn, &caster, &def, i);
    }
    // A persistent spell still active attacks again at its level, no slot and no new casting.
    let again = crate::magic::mechanics::persistent_level(&caster, &def);
    // A mark whose quarry dropped to 0 HP moves to a new creature with no new slot (Hunter's
    // Mark), while the caster still concentrates on it. Instant Summons' recall is an action
    // that crushes the sapphire, no casting.
    let moved = super::spell_riders::mark_moves(call, &caster, &def);
    let slot = if let Some(level) = again {
        SlotUse {
            level,
            pact: false,
            spent: false,
        }
    } else if moved || crate::magic::lore6::is_trigger(&caster, &def, req) {
        SlotUse {
            level: def.level,
            pact: false,
            spent: false,
        }
    } else if req.ritual {
        ritual_check(&caster, &def)?;
        rule(
            turn,
            format!(
                "a ritual takes 10 minutes longer than {}'s casting time; cast it outside combat, or with a slot",
                def.name
            ),
        )?;
        SlotUse {
            level: def.level,
            pact: false,
            spent: false,
        }
    } else if let Some(spec) = &feature {
        let (slot, line) = feature_spells::spend(&mut caster, spec, &def)?;
        feature_lines.push(line);
        slot
    } else {
        spellcasting::spend_slot(&mut caster, def.level, req.slot_level)?
    };
    let mut out = if again.is_some() {
        cast_in_encounter_again(call, turn, caster, def.clone(), numbers, slot)?
    } else {
        let chosen = class_magic::check(&caster, &def, slot.level, &req.metamagic)?;
        let line = class_magic::apply(&mut caster, &mut def, &chosen)?;
        let mut out = cast_in_encounter(call, turn, caster, def.clone(), numbers, slot, "")?;
        if let Some(l) = line {
            out.lines.insert(0, l);
        }
        out
    };
    out.lines.extend(feature_lines);
    if let Some(dice) = backlash {
        out.lines.push(overchannel_backlash(call, turn, &dice)?);
    }
    if moved {
        out.lines.push(format!(
            "{} moves to a new creature: its last one dropped to 0 HP (no slot spent)",
            def.name
        ));
    }
    Ok(out)
}

/// A persistent spell's later attack: the bonus action spent, no spell cast (the bonus-action
/// spell rule does not apply), resolved as the spell's attack at its level.
fn cast_in_encounter_again(
    call: &mut Call<'_>,
    turn: &mut Turn<'_>,
    caster: Character,
    def: SpellDef,
    numbers: CasterNumbers,
    slot: SlotUse,
) -> Result<ActionOutcome> {
    let id = caster.id.clone();
    let before = turn.encounter.combatant(&id).map(|c| c.economy.clone());
    let mut out = cast_in_encounter(call, turn, caster, def.clone(), numbers, slot, " (again)")?;
    if let (Some(b), Some(cb)) = (before, turn.encounter.combatant_mut(&id)) {
        cb.economy.bonus_action_spell = b.bonus_action_spell;
        cb.economy.leveled_action_spell = b.leveled_action_spell;
    }
    out.lines.push(format!(
        "{} attacks again while it lasts (no slot spent, no spell cast)",
        def.name
    ));
    Ok(out)
}

/// Classes whose feature lets them cast ritual spells (SRD: bard, cleric, druid, wizard).
const RITUAL_CASTERS: &[&str] = &["bard", "cleric", "druid", "wizard"];

/// Refuses a ritual casting of a spell without the ritual tag, or by a class without ritual
/// casting.
pub fn ritual_check(c: &Character, def: &SpellDef) -> Result<()> {
    if !def.ritual {
        return Err(EngineError::invalid(
            "ritual",
            format!("{} has no ritual tag; cast it with a slot", def.name),
        ));
    }
    let class = c.class.as_deref().map(crate::model::names::name_key);
    if !class.is_some_and(|k| RITUAL_CASTERS.contains(&k.as_str())) {
        return Err(EngineError::Rule(format!(
            "{}'s class ({}) has no Ritual Casting feature (bards, clerics, druids and wizards do); cast it with a slot",
            c.name,
            c.class.as_deref().unwrap_or("none")
        )));
    }
    Ok(())
}

/// cast_spell for a character in no active encounter (and no encounterId given): the spell
/// lands on the named characters (no map, no range), a ritual spends no slot. `None` when the
/// caster is in an encounter (the encounter path applies).
pub fn cast_outside_combat(
    call: &mut Call<'_>,
    req: &ActionRequest,
) -> Result<Option<ActionOutcome>> {
    if req.encounter_id.is_some() || req.actor.is_empty() {
        return Ok(None);
    }
    let Ok(caster) = crate::characters::resolve_with_fields(
        call,
        crate::model::character::CharacterRef::new(
            req.actor.id.as_deref(),
            req.actor.name.as_deref(),
        ),
        "actorId",
        "actorName",
    ) else {
        return Ok(None);
    };
    if crate::combat::active_encounter_of(call, &caster.id)?.is_some() {
        return Ok(None);
    }
    let Some(name) = req.spell.as_deref() else {
        return Err(EngineError::invalid(
            "spell",
            "name the spell to cast, e.g. \"Cure Wounds\"",
        ));
    };
    let mut def = spellcasting::find_spell(call, &caster, name)?;
    let named = req.ability_name.as_deref();
    let mut forced = Vec::new();
    let feature = match feature_spells::find(&caster, &def, req.slot_level, named) {
        Via::Feature(s) => Some(s),
        Via::Spent(why)
            if !req.force
                && spellcasting::cannot_cast(call.compendium(), &caster, &def).is_some() =>
        {
            return Err(EngineError::Rule(format!(
                "{why} (pass force: true to override as the game master)"
            )));
        }
        _ => None,
    };
    if feature.is_none()
        && let Some(why) =
            spellcasting::cannot_cast_as(call.compendium(), &caster, &def, req.ritual)
    {
        if !req.force {
            return Err(EngineError::Rule(format!(
                "{why} (pass force: true to override as the game master)"
            )));
        }
        forced.push(why);
    }
    let mut caster = caster;
    crate::slots::ensure(call, &mut caster);
    let numbers = spellcasting::caster_numbers_for(call, &caster, &def.name)?;
    let mut feature_lines = Vec::new();
    let backlash = feature_spells::shape(
        &mut caster,
        &mut def,
        feature.as_ref(),
        named,
        &mut feature_lines,
    )?;
    let slot = if crate::magic::lore6::is_trigger(&caster, &def, req) {
        crate::magic::lore6::no_slot(&def)
    } else if let Some(spec) = &feature {
        let (slot, line) = feature_spells::spend(&mut caster, spec, &def)?;
        feature_lines.push(line);
        slot
    } else if req.ritual {
        ritual_check(&caster, &def)?;
        SlotUse {
            level: def.level,
            pact: false,
            spent: false,
        }
    } else {
        spellcasting::spend_slot(&mut caster, def.level, req.slot_level)?
    };
    if let Some(dice) = &backlash {
        feature_lines.push(class_magic::overchannel_self(call, &mut caster, dice)?);
    }
    // A shape-changing spell (Polymorph) changes the named characters: no map needed.
    if let Some(spec) = def.mechanics().and_then(|m| m.shape.as_ref()) {
        let mut ids = Vec::new();
        for w in std::iter::once(&req.target).chain(&req.targets) {
            if w.is_empty() {
                continue;
            }
            let t = crate::characters::resolve_with_fields(
                call,
                crate::model::character::CharacterRef::new(w.id.as_deref(), w.name.as_deref()),
                "targetId",
                "targetName",
            )?;
            ids.push(t.id);
        }
        let mine = caster.kind;
        let hostile = move |t: &Character| {
            (t.kind == tabletop_rules::CharacterType::Enemy)
                != (mine == tabletop_rules::CharacterType::Enemy)
        };
        let (headline, mut lines) = crate::shape::cast(
            call,
            &mut caster,
            &def,
            spec,
            &ids,
            req.creature.as_deref(),
            numbers.save_dc,
            &hostile,
        )?;
        lines.extend(std::mem::take(&mut feature_lines));
        lines.extend(component_notes(&def, false));
        crate::combat::put_sheet(call, &caster)?;
        call.record_change("character", &caster.id, headline.clone());
        return Ok(Some(ActionOutcome {
            actor: caster.name.clone(),
            action_type: Some(super::ActionType::CastSpell),
            headline,
            lines,
            forced,
            ..Default::default()
        }));
    }
    let chosen = class_magic::check(&caster, &def, slot.level, &req.metamagic)?;
    let mm_line = class_magic::apply(&mut caster, &mut def, &chosen)?;
    // Identify reads the touched item (or creature) anywhere: no map needed.
    if let Some(out) = crate::combat::divination::identify_outside(call, &caster, &def, req)? {
        if slot.spent || def.concentration {
            crate::combat::put_sheet(call, &caster)?;
        }
        return Ok(Some(out));
    }
    // Travel, sensing and messages (magic::lore6) read the request's own fields.
    let notes = [feature_lines.clone(), component_notes(&def, false)].concat();
    let dc = numbers.save_dc;
    if let Some(out) = crate::magic::lore6::outside(call, &mut caster, &def, req, dc, slot, notes)?
    {
        return Ok(Some(ActionOutcome { forced, ..out }));
    }
    let mut targets: Vec<super::Who> = Vec::new();
    if !req.target.is_empty() {
        targets.push(req.target.clone());
    }
    targets.extend(req.targets.iter().filter(|w| !w.is_empty()).cloned());
    let targeting = crate::magic::scroll::Targeting {
        targets,
        damage_type: req.damage_type,
        ability: req.ability,
        metamagic: class_magic::plan(&caster, &chosen.options),
        item: req.item.clone(),
        words: req.description.clone(),
        ..Default::default()
    };
    let mut areq = ActionRequest::default();
    let mut ctx = crate::magic::scroll::open(call, &caster, &targeting, &mut areq, None)?;
    let name = caster.name.clone();
    let slot_note = if slot.spent {
        format!(
            "{}{} slot spent; left: {}",
            crate::model::slots::ordinal(slot.level),
            if slot.pact { " pact" } else { "" },
            caster.spell_slots.summary()
        )
    } else if req.ritual {
        format!(
            "cast as a ritual ({} + 10 minutes), no slot spent",
            def.casting_time
        )
    } else {
        String::new()
    };
    let d =
        crate::magic::scroll::deliver(call, &mut ctx, caster, def, numbers, slot, &targeting, "")?;
    let mut lines = d.lines;
    if let Some(l) = mm_line {
        lines.insert(0, l);
    }
    if !slot_note.is_empty() {
        lines.push(slot_note);
    }
    lines.extend(feature_lines);
    Ok(Some(ActionOutcome {
        actor: name,
        action_type: Some(super::ActionType::CastSpell),
        headline: d.headline,
        lines,
        forced,
        details: d.details,
        ..Default::default()
    }))
}

/// [`class_magic::overchannel_self`] on the caster stored in the encounter after its casting.
fn overchannel_backlash(call: &mut Call<'_>, turn: &mut Turn<'_>, dice: &str) -> Result<String> {
    let Some(mut c) = turn.actor.clone() else {
        return Ok(String::new());
    };
    let line = class_magic::overchannel_self(call, &mut c, dice)?;
    crate::combat::put_sheet(call, &c)?;
    turn.actor = Some(c);
    Ok(line)
}

/// A broken rule: refused, or recorded when forced.
fn rule(turn: &mut Turn<'_>, why: String) -> Result<()> {
    turn.rule(false, why)
}

/// Casts `def` for `caster` (slot already spent, `numbers` the caster's or a scroll's) on the
/// targets and area the request names, within the encounter; stores the caster. `tag` is added
/// to the spell's name in the headline (" (scroll)").
pub fn cast_in_encounter(
    call: &mut Call<'_>,
    turn: &mut Turn<'_>,
    mut caster: Character,
    def: SpellDef,
    numbers: CasterNumbers,
    slot: SlotUse,
    tag: &str,
) -> Result<ActionOutcome> {
    let req = turn.req;
    match def.cost() {
        None if !crate::magic::lore6::is_trigger(&caster, &def, req) => rule(
            turn,
            format!(
                "{} takes {} to cast, longer than a round; cast it outside combat",
                def.name, def.casting_time
            ),
        )?,
        Some(ActionCost::Action)
            if turn.cost == ActionCost::BonusAction
                && tag.is_empty()
                && req.metamagic.contains(&Metamagic::Quickened) => {}
        Some(c) if c != turn.cost && turn.cost != ActionCost::Free => {
            turn.forced.push(format!(
                "{} is cast with {}, charged as {}",
                def.name,
                def.casting_time,
                key(turn.cost)
            ));
        }
        _ => {}
    }
    // A bonus-action spell allows only a cantrip as the action, and the reverse.
    let (bonus_spell, leveled) = turn
        .encounter
        .combatant(&caster.id)
        .map_or((false, false), |c| {
            (c.economy.bonus_action_spell, c.economy.leveled_action_spell)
        });
    match turn.cost {
        ActionCost::Action if bonus_spell && def.level > 0 => rule(
            turn,
            format!(
                "{} cast a spell with its bonus action this turn; only a cantrip may be cast with the action",
                caster.name
            ),
        )?,
        ActionCost::BonusAction if leveled => rule(
            turn,
            format!(
                "{} cast a spell of 1st level or higher with its action this turn; no bonus-action spell now",
                caster.name
            ),
        )?,
        _ => {}
    }
    if let Some(why) = crate::magic::wards6::antimagic_refusal(&turn.encounter, &caster.id) {
        rule(turn, why)?;
    }
    super::economy::mark_cast(&mut turn.encounter, &caster.id, turn.cost, def.level);
    // A zone placed on the map (Moonbeam, Web, Wall of Stone): recorded with its ground.
    if let Some(z) = crate::combat::zones::spec(&def) {
        let mut out =
            crate::combat::zones::place(call, turn, &mut caster, &def, z, &numbers, &slot, tag)?;
        out.lines.extend(component_notes(&def, !tag.is_empty()));
        return Ok(out);
    }
    // Teleports and summons act on the map (combat::summons); travel, sensing and messages
    // read the request (magic::lore6).
    if let Some(mut out) =
        crate::combat::summons::map_spell(call, turn, &mut caster, &def, slot.level)?
    {
        out.lines.extend(component_notes(&def, !tag.is_empty()));
        if slot.spent {
            out.lines.push(format!(
                "{}{} slot spent; left: {}",
                crate::model::slots::ordinal(slot.level),
                if slot.pact { " pact" } else { "" },
                caster.spell_slots.summary()
            ));
        }
        crate::combat::put_sheet(call, &caster)?;
        call.record_change("character", &caster.id, out.headline.clone());
        turn.actor = Some(caster);
        return Ok(out);
    }
    // A concentration spell centred on the caster that deals damage (Spirit Guardians) is an
    // aura: it harms enemies that start their turn in it or enter it, not everyone now.
    if let Some(aura) = emanation(&caster, &def, &numbers, slot.level) {
        crate::combat::put_sheet(call, &caster)?;
        let (a, mut lines) = crate::combat::auras::create(call, &mut turn.encounter, aura)?;
        if def.mechanics().is_some_and(|m| m.halves_speed)
            && let Some(x) = turn.encounter.auras.iter_mut().find(|x| x.id == a.id)
        {
            x.halves_speed = true;
            lines.push(format!(
                "enemies move at half speed inside {} (each step inside costs double)",
                def.name
            ));
        }
        lines.extend(component_notes(&def, !tag.is_empty()));
        if slot.spent {
            lines.push(format!(
                "{}{} slot spent; left: {}",
                crate::model::slots::ordinal(slot.level),
                if slot.pact { " pact" } else { "" },
                caster.spell_slots.summary()
            ));
        }
        let headline = format!(
            "{} casts {}{tag}: a {}-ft aura of {} {} moves with them, striking enemies that start their turn in it or enter it{}.",
            caster.name,
            def.name,
            a.radius_ft,
            a.damage.as_deref().unwrap_or_default(),
            a.damage_type.map(|t| t.to_string()).unwrap_or_default(),
            a.save
                .map(|s| format!(
                    " ({} save DC {}{})",
                    s.ability,
                    s.dc,
                    if s.half { " for half" } else { "" }
                ))
                .unwrap_or_default()
        );
        call.record_change("character", &caster.id, headline.clone());
        turn.actor = Some(crate::combat::sheet(call, &caster.id)?);
        return Ok(ActionOutcome {
            headline,
            lines,
            details: serde_json::json!({ "aura": a }),
            ..Default::default()
        });
    }
    let mut range_forced = Vec::new();
    let (mut targets, origin, mut notes) = pick_targets(
        &turn.encounter,
        &caster,
        &def,
        req,
        (
            slot.level,
            tag.is_empty() && req.metamagic.contains(&Metamagic::Twinned),
        ),
        &mut range_forced,
    )?;
    turn.forced.extend(range_forced);
    for why in crate::combat::charm::spell_refusals(call, &caster, &def, &targets)? {
        rule(turn, why)?;
    }
    notes.extend(crate::combat::banish::screen(
        &turn.encounter,
        &caster.id,
        &mut targets,
        slot.level,
    ));
    let mut disadvantage = Vec::new();
    if req.disadvantage {
        disadvantage.push("caller".to_string());
    }
    let repeat = tag == " (again)";
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
        targets,
        origin,
        advantage: if req.advantage {
            vec!["caller".into()]
        } else {
            Vec::new()
        },
        disadvantage,
        bonus: req.bonus,
        source: format!("{}{tag}", def.name),
        repeat,
        choice: crate::magic::spellcasting::CastChoice {
            damage_type: req.damage_type,
            ability: req.ability,
            reduce: req
                .description
                .as_deref()
                .is_some_and(|d| d.to_ascii_lowercase().contains("reduce")),
            item: req.item.clone(),
            words: req.description.clone(),
        },
        metamagic: if tag.is_empty() {
            class_magic::plan(&caster, &req.metamagic)
        } else {
            Default::default()
        },
        forced: req.force,
    };
    let enc = turn.encounter.clone();
    let mut report = spellcasting::resolve(call, &mut caster, &plan, Some(&enc))?;
    // A target that answered with Shield has spent its reaction.
    for id in &report.reacted {
        super::reactions::eligible::spend_reaction(&mut turn.encounter, id);
    }
    report.spell = format!("{}{tag}", def.name);
    crate::combat::martial::spell_fought(&mut turn.encounter, &caster.id, &report.targets);
    // Riders the map carries out: pushes away from the caster (Repelling Blast's per hit),
    // lost reactions.
    feature_spells::after_hits(&caster, &def, &mut report.targets);
    report
        .lines
        .extend(apply_map_riders(turn, &caster, &report.targets));
    // The dead leave the live map for their bodies, as after any attack; the revived return.
    for t in &report.targets {
        let sheet = crate::combat::sheet(call, &t.id).ok();
        let dead = sheet.as_ref().is_some_and(|s| s.dead);
        let line = if dead {
            let dust = sheet.as_ref().is_some_and(crate::magic::dust::is_dust);
            crate::combat::bodies::lay_remains(&mut turn.encounter, &t.id, &t.name, dust)?
        } else {
            crate::combat::bodies::raise_body(&mut turn.encounter, &t.id)?
        };
        if let Some(line) = line {
            report.lines.push(line);
        }
    }
    notes.extend(component_notes(&def, !tag.is_empty()));
    if slot.spent {
        notes.push(format!(
            "{}{} slot spent; left: {}",
            crate::model::slots::ordinal(slot.level),
            if slot.pact { " pact" } else { "" },
            caster.spell_slots.summary()
        ));
    }
    report.notes = notes;
    crate::combat::put_sheet(call, &caster)?;
    call.record_change("character", &caster.id, report.headline());
    let mut lines = report.lines.clone();
    lines.extend(report.notes.iter().cloned());
    turn.actor = Some(caster);
    Ok(ActionOutcome {
        headline: report.headline(),
        lines,
        details: serde_json::to_value(&report).unwrap_or_default(),
        ..Default::default()
    })
}

/// The aura a spell makes when it is a zone centred on its caster that strikes creatures starting
/// their turn in it (Spirit Guardians, read from its text): damage at the slot level, the
/// caster's save DC, held by concentration.
fn emanation(
    caster: &Character,
    def: &SpellDef,
    numbers: &CasterNumbers,
    slot_level: u8,
) -> Option<crate::combat::auras::NewAura> {
    let zone = def.aura.as_ref()?;
    Some(crate::combat::auras::NewAura {
        name: def.name.clone(),
        bearer: super::Who {
            id: Some(caster.id.clone()),
            name: None,
        },
        radius_ft: zone.radius_ft,
        damage: Some(zone.dice_at(def.level, slot_level)),
        damage_type: zone.damage_type,
        healing: None,
        condition: None,
        save: zone.save.as_ref().map(|s| crate::model::aura::AuraSave {
            ability: s.ability,
            dc: numbers.save_dc,
            half: s.half,
        }),
        affects: crate::model::aura::AuraAffects::Enemies,
        rounds: None,
        concentration: Some(def.name.clone()),
    })
}

fn key(c: ActionCost) -> &'static str {
    match c {
        ActionCost::Action => "an action",
        ActionCost::BonusAction => "a bonus action",
        ActionCost::Reaction => "a reaction",
        ActionCost::Free => "free",
        ActionCost::Movement => "movement",
    }
}

/// Components in words: "components V, S, M (a tiny ball of bat guano…)"; costly materials
/// flagged. A scroll needs no material component.
pub fn component_notes(def: &SpellDef, scroll: bool) -> Vec<String> {
    let mut v = Vec::new();
    if !def.components.is_empty() {
        let mut s = format!("components {}", def.components.join(", "));
        if scroll {
            s.push_str(" (from a scroll or an item: no material component needed)");
        } else if let Some(m) = &def.material {
            s.push_str(&format!(" ({m})"));
        }
        v.push(s);
    }
    if !scroll && let Some(m) = def.costly_material() {
        v.push(format!("costly material component required: {m}"));
    }
    v
}

/// Parses a compass direction ("north", "ne").
pub fn compass(s: &str) -> Result<Compass> {
    s.parse::<Compass>().map_err(|_| {
        EngineError::invalid(
            "direction",
            format!("'{s}' is not a direction; use n, ne, e, se, s, sw, w, nw (or give `to`)"),
        )
    })
}

/// The targets of a casting in an encounter: the area's creatures from the map, or the named
/// targets (range and total cover checked), or the caster for self spells.
fn pick_targets(
    e: &Encounter,
    caster: &Character,
    def: &SpellDef,
    req: &ActionRequest,
    (slot, twin): (u8, bool),
    forced: &mut Vec<String>,
) -> Result<(Vec<String>, Option<AreaOrigin>, Vec<String>)> {
    let mut notes = Vec::new();
    // Out of range is refused, or with `force` taken and reported like any forced rule.
    let mut out_of_range = |why: String| -> Result<()> {
        if req.force {
            forced.push(why);
            Ok(())
        } else {
            Err(EngineError::Rule(format!(
                "{why} (pass force: true to override as the game master)"
            )))
        }
    };
    let range = def.range_ft();
    let Some(me) = e.map.creature(&caster.id) else {
        return Err(EngineError::Rule(format!(
            "{} is not on the encounter's map",
            caster.name
        )));
    };
    let me_pos = me.position;
    if let Some(area) = def.area {
        let shape = area.shape.shape(area.size_ft)?;
        let (origin, direction, exclude) = if def.self_range() {
            let dir = match (req.to, req.direction.as_deref()) {
                (Some(to), _) => Some(Direction::Toward(to)),
                (None, Some(d)) => Some(Direction::Compass(compass(d)?)),
                (None, None) if area.shape.directed() => {
                    return Err(EngineError::invalid(
                        "direction",
                        format!(
                            "{} is a {}-ft {:?} from the caster: give direction (n, ne, …) or `to` (a square to aim at)",
                            def.name, area.size_ft, area.shape
                        )
                        .to_lowercase(),
                    ));
                }
                (None, None) => None,
            };
            (AreaOrigin::Square(me_pos), dir, Some(caster.id.as_str()))
        } else {
            let Some(to) = req.to else {
                return Err(EngineError::invalid(
                    "to",
                    format!(
                        "{} needs a point of origin: `to` {{x, y}} within {} of the caster",
                        def.name, def.range
                    ),
                ));
            };
            e.map.check(to)?;
            if let Some(r) = range {
                let d = tabletop_grid::distance_ft(me_pos, to, super::attack::METRIC);
                if d > r {
                    out_of_range(format!(
                        "({}, {}) is {d} ft from {}; {} has a range of {}",
                        to.x, to.y, caster.name, def.name, def.range
                    ))?;
                }
            }
            let (to, moved) =
                super::area_path::near_side(&e.map, me_pos, to, &caster.name, &def.name)?;
            notes.extend(moved);
            let dir = match req.direction.as_deref() {
                Some(d) => Some(Direction::Compass(compass(d)?)),
                None if area.shape.directed() => Some(Direction::Toward(away(me_pos, to))),
                None => None,
            };
            (AreaOrigin::Square(to), dir, None)
        };
        // Ranges and templates by one rule: the area measures its radius as the range above.
        let aoe = match direction {
            Some(d) => AreaOfEffect::directed(shape, origin, d),
            None => AreaOfEffect::new(shape, origin),
        }
        .with_metric(super::attack::METRIC);
        let ids = e.map.creatures_in_area(&aoe, exclude)?;
        let ids: Vec<String> = ids
            .into_iter()
            .filter(|id| e.combatant(id).is_some_and(|c| !c.removed))
            .collect();
        if ids.is_empty() {
            notes.push(format!("no creature is inside the {}", def.name));
        }
        let ids = match super::area_choice::limit(def) {
            Some(n) => super::area_choice::choose(e, caster, def, req, ids, n, &mut notes)?,
            None => ids,
        };
        return Ok((ids, Some(origin), notes));
    }
    if def.self_only() {
        return Ok((vec![caster.id.clone()], None, notes));
    }
    let named = req.named_targets();
    if named.is_empty() {
        return Err(EngineError::invalid(
            "targetId",
            format!(
                "say whom {} targets: targetId/targetName, or targets [{{id|name}}]",
                def.name
            ),
        ));
    }
    let mut ids = Vec::new();
    for w in named {
        let c = crate::combat::find_combatant(e, w.id.as_deref(), w.name.as_deref(), "targetId")?;
        if c.removed {
            return Err(EngineError::Rule(format!(
                "{} has left the encounter",
                c.name
            )));
        }
        if c.character_id != caster.id {
            if let Some(r) = range {
                let d = match crate::combat::bodies::distance_ft(
                    e,
                    &caster.id,
                    &c.character_id,
                    super::attack::METRIC,
                ) {
                    Some(d) => d,
                    None => e.map.creature_distance_ft(
                        &caster.id,
                        &c.character_id,
                        super::attack::METRIC,
                    )?,
                };
                if d > r.max(5) {
                    out_of_range(format!(
                        "{} is {d} ft from {}; {} has a range of {}",
                        c.name,
                        caster.name,
                        def.name,
                        def.range_label()
                    ))?;
                }
            }
            // A body lies on the ground: only live creatures on the map have cover.
            let on_map = e.map.creature(&c.character_id).is_some();
            let cover = if on_map {
                Some(e.map.creature_cover(
                    &caster.id,
                    &c.character_id,
                    &tabletop_grid::CoverOptions::default(),
                )?)
            } else {
                None
            };
            if cover.is_some_and(|c| c.ac_bonus.is_none()) {
                return Err(EngineError::Rule(format!(
                    "{} has total cover from {}; a spell needs a clear path to its target",
                    c.name, caster.name
                )));
            }
        }
        ids.push(c.character_id.clone());
    }
    super::area_choice::leap(e, def, &ids)?;
    if let Some(max) = def.max_targets(slot, caster.cantrip_level()) {
        let max = max + usize::from(twin);
        if twin && ids.len() == 2 && ids[0] == ids[1] {
            return Err(EngineError::invalid(
                "targets",
                "Twinned Spell's second target must be another creature",
            ));
        }
        if def.per_projectile() {
            // Cycle the named targets over every dart, ray or beam.
            let named = ids.clone();
            ids = (0..max).map(|i| named[i % named.len()].clone()).collect();
            notes.push(format!("{max} projectiles: {}", projectile_split(&ids, e)));
        } else if ids.len() > max {
            return Err(EngineError::invalid(
                "targets",
                format!(
                    "{} at {} level affects at most {max} target{}; name fewer (or cast at a higher slotLevel)",
                    def.name,
                    crate::model::slots::ordinal(slot.max(1)),
                    if max == 1 { "" } else { "s" }
                ),
            ));
        }
    } else if let Some(h) = &def.higher_level
        && slot > def.level
        && h.to_ascii_lowercase().contains("additional creature")
    {
        notes.push(format!("at higher levels: {h}"));
    }
    Ok((ids, None, notes))
}

/// Pushes targets away from the caster square by square (stopping at anything in the way) and
/// spends the reactions a rider takes away.
fn apply_map_riders(
    turn: &mut Turn<'_>,
    caster: &Character,
    targets: &[spellcasting::TargetResult],
) -> Vec<String> {
    let mut lines = Vec::new();
    for t in targets {
        if t.no_reactions
            && let Some(cb) = turn.encounter.combatant_mut(&t.id)
        {
            cb.economy.reaction = true;
        }
        let Some(feet) = t.push_ft else { continue };
        let map = &mut turn.encounter.map;
        let (Some(ca), Some(ct)) = (map.creature(&caster.id), map.creature(&t.id)) else {
            continue;
        };
        let (dx, dy) = (
            (ct.position.x - ca.position.x).signum(),
            (ct.position.y - ca.position.y).signum(),
        );
        if (dx, dy) == (0, 0) {
            continue;
        }
        let start = ct.position;
        let mut moved = 0;
        for _ in 0..feet / 5 {
            let Some(now) = map.creature(&t.id).map(|c| c.position) else {
                break;
            };
            if map.move_creature(&t.id, now.offset(dx, dy)).is_err() {
                break;
            }
            moved += 5;
        }
        let end = map.creature(&t.id).map_or(start, |c| c.position);
        lines.push(if moved == feet {
            format!("{} is pushed {feet} ft away from {}, to {end}", t.name, caster.name)
        } else if moved > 0 {
            format!(
                "{} is pushed {moved} ft (of {feet}) away from {}, to {end}: something blocks the rest",
                t.name, caster.name
            )
        } else {
            format!("{} cannot be pushed: the square behind it is blocked", t.name)
        });
    }
    lines
}

fn projectile_split(ids: &[String], e: &Encounter) -> String {
    let mut counts: Vec<(String, usize)> = Vec::new();
    for id in ids {
        let name = e.combatant(id).map_or(id.clone(), |c| c.name.clone());
        match counts.iter_mut().find(|(n, _)| *n == name) {
            Some((_, k)) => *k += 1,
            None => counts.push((name, 1)),
        }
    }
    counts
        .into_iter()
        .map(|(n, k)| format!("{k} at {n}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A square past `to` seen from `from` (so a cone aimed at a point points that way).
fn away(from: Position, to: Position) -> Position {
    if from == to {
        return Position::new(to.x, to.y - 1);
    }
    to
}
