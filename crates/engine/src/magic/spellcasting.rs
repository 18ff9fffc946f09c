//! The spellcasting model every casting tool shares: a spell's rules data ([`SpellDef`], read
//! from the SRD or proposed by [`super::synthesis`]), the caster's numbers (save DC 8 plus
//! proficiency plus ability, attack bonus proficiency plus ability), whether it may cast it (known or
//! prepared spells, the class list), spell slots spent at the chosen level (pact slots too),
//! upcasting and cantrip scaling from the data, and [`resolve`]: one casting applied to its
//! targets (attack rolls or saves, damage through the damage pipeline and concentration saves,
//! healing, conditions and effects, concentration begun and linked).

use tabletop_grid::{BattleMap, CoverOptions};
use tabletop_rules::Ability;
use tabletop_rules::d20::{D20Request, D20Test, roll_d20_test};
use tabletop_rules::damage::DamagePart;
use tabletop_rules::dice;
use tabletop_rules::modifiers::{Modifier, ModifierKind};

use crate::combat::actions::profile::AttackKind;
use crate::concentration;
use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::character::Character;
use crate::model::concentration::ConcentrationLink;
use crate::model::effects::{ActiveEffect, Duration, EndTrigger, TurnPoint};
use crate::model::encounter::Encounter;
use crate::model::names::name_key;
use crate::model::slots::ordinal;

/// The plan and report types live in `plan`; re-exported so the old paths keep working.
pub use super::plan::{AttackNumbers, CastChoice, CastPlan, CastReport, SlotUse, TargetResult};
/// The data of this family lives in the model; re-exported so the old paths keep working.
use crate::model::spell::slug;
pub use crate::model::spell::{
    AreaKind, SpellArea, SpellAttack, SpellAura, SpellDef, SpellSaveDef, with_modifier,
};

pub use super::spell_lookup::find_spell;

pub use super::numbers::{CasterNumbers, caster_numbers, caster_numbers_for, spell_ability};

/// Whether `c`'s class has `spell` on its list (by the SRD data).
pub fn on_class_list(c: &Character, spell: &SpellDef) -> bool {
    if spell.synthesized {
        return true;
    }
    let Some(class) = c.class.as_deref() else {
        return false;
    };
    let k = slug(class);
    spell.classes.contains(&k)
}

/// Checks the caster may cast `spell`: no armor worn without proficiency, and a spell on its list
/// of known/prepared spells (a domain or oath spell is always prepared), or (with no list kept)
/// on its class's SRD list. Returns a refusal to report, or `None`.
pub fn cannot_cast(
    srd: Option<&tabletop_srd::Compendium>,
    c: &Character,
    spell: &SpellDef,
) -> Option<String> {
    if let Some(why) = cannot_cast_any(c) {
        return Some(why);
    }
    if spell.synthesized {
        return None;
    }
    let key = name_key(&spell.name);
    let rules = srd.and_then(|s| crate::magic::known::rules_for_spell(s, c, &spell.name));
    if rules.as_ref().is_some_and(|r| r.always(&spell.name)) {
        return None;
    }
    if !c.spells.is_empty() {
        if c.spells.iter().any(|s| name_key(s) == key) {
            return None;
        }
        let off_list = rules.as_ref().filter(|r| {
            !spell.classes.contains(&r.class_index) && !r.extra_list.contains(&spell.slug())
        });
        if let Some(r) = off_list {
            return Some(format!(
                "{} does not know {}: it is not on the {} spell list (their spells: {})",
                c.name,
                spell.name,
                r.class.to_lowercase(),
                c.spells.join(", ")
            ));
        }
        let what = match &rules {
            Some(r) if r.prepared.is_some() && spell.level > 0 => "have prepared",
            Some(_) => "know",
            None => "know or have prepared",
        };
        let always = rules
            .as_ref()
            .filter(|r| !r.always_prepared.is_empty())
            .map(|r| format!("; always prepared: {}", r.always_prepared.join(", ")))
            .unwrap_or_default();
        let fix = if spell.level > 0 && rules.as_ref().is_some_and(|r| r.spellbook) {
            "prepare it from the spellbook with update_character spells (after a long rest)"
        } else if rules.as_ref().is_some_and(|r| r.prepared.is_some()) {
            "prepare it with update_character spells (after a long rest)"
        } else {
            "learn it with update_character spells (on a level up)"
        };
        return Some(format!(
            "{} does not {what} {} (their spells: {}{always}); {fix}",
            c.name,
            spell.name,
            c.spells.join(", ")
        ));
    }
    // An SRD caster with no list casts nothing until it chooses (known) or prepares its spells.
    if let Some(why) = srd.and_then(|s| crate::magic::known::choose_first(s, c)) {
        return Some(why);
    }
    if on_class_list(c, spell) {
        return None;
    }
    Some(format!(
        "{} is not on {}'s class spell list ({}) and they list no spells; add it with update_character spells",
        spell.name,
        c.name,
        c.class.as_deref().unwrap_or("no class")
    ))
}

/// A wizard's Ritual Casting: a spell with the ritual tag in its spellbook is cast as a ritual
/// without being prepared (a cleric, druid or bard casts only the rituals it has prepared or
/// knows).
pub fn ritual_from_spellbook(c: &Character, spell: &SpellDef) -> bool {
    let wizard = |k: &str| name_key(k) == "wizard";
    let is_wizard = match &c.build {
        Some(b) => b.classes.iter().any(|k| wizard(&k.class)),
        None => c.class.as_deref().is_some_and(wizard),
    };
    spell.ritual
        && is_wizard
        && c.spellbook
            .iter()
            .any(|s| name_key(s) == name_key(&spell.name))
}

/// [`cannot_cast`] for a casting `as_ritual`: a wizard's ritual from its spellbook needs no
/// preparing; form and armor still stop it.
pub fn cannot_cast_as(
    srd: Option<&tabletop_srd::Compendium>,
    c: &Character,
    spell: &SpellDef,
    as_ritual: bool,
) -> Option<String> {
    if as_ritual && ritual_from_spellbook(c, spell) {
        return cannot_cast_any(c);
    }
    cannot_cast(srd, c, spell)
}

/// Why `c` can cast no spell at all right now (a form without spells, armor it is not
/// proficient with), whatever the spell.
fn cannot_cast_any(c: &Character) -> Option<String> {
    if let Some(shape) = c.active_shape().filter(|s| s.no_spells) {
        return Some(format!(
            "{} is in {} form ({}) and can't cast spells in it; revert first",
            c.name, shape.form, shape.source
        ));
    }
    crate::derive::gear::unproficient_armor(c).map(|armor| {
        format!(
            "{} wears {armor} without proficiency and can't cast spells in it; take it off (manage_inventory unequip)",
            c.name
        )
    })
}

/// Spends a slot of `level` (a regular slot first, else a pact slot of that level). With no
/// `level`, the spell's own level, or the pact slots' level when only those are left.
pub fn spend_slot(c: &mut Character, spell_level: u8, level: Option<u8>) -> Result<SlotUse> {
    if spell_level == 0 {
        return Ok(SlotUse {
            level: 0,
            pact: false,
            spent: false,
        });
    }
    if let Some(l) = level
        && !(spell_level..=9).contains(&l)
    {
        return Err(EngineError::invalid(
            "slotLevel",
            format!(
                "{l} is out of range; cast a {}-level spell with a slot of level {}–9",
                ordinal(spell_level),
                spell_level
            ),
        ));
    }
    let want = level.unwrap_or(spell_level);
    if c.spell_slots.left(want) > 0 {
        c.spell_slots.used[usize::from(want - 1)] += 1;
        return Ok(SlotUse {
            level: want,
            pact: false,
            spent: true,
        });
    }
    if let Some(p) = c.spell_slots.pact.as_mut()
        && p.used < p.max
        && (p.level == want || (level.is_none() && p.level >= spell_level))
    {
        p.used += 1;
        return Ok(SlotUse {
            level: p.level,
            pact: true,
            spent: true,
        });
    }
    Err(EngineError::Rule(format!(
        "{} has no {}-level slot left (slots left/max: {}); pass slotLevel for a higher slot, or restore slots with manage_spell_slots or a rest",
        c.name,
        ordinal(want),
        c.spell_slots.summary()
    )))
}

/// The highest spell level `c` can cast with its slots (0 when it has none).
pub fn highest_castable(c: &Character) -> u8 {
    let regular = (1..=9u8)
        .rev()
        .find(|l| c.spell_slots.max[usize::from(l - 1)] > 0)
        .unwrap_or(0);
    let pact = c.spell_slots.pact.map_or(0, |p| p.level);
    regular.max(pact)
}

fn roll_expr(call: &mut Call<'_>, expr: &str, critical: bool) -> Result<dice::DiceRoll> {
    roll_amount(call, "damage", expr, critical)
}

fn roll_amount(
    call: &mut Call<'_>,
    field: &str,
    expr: &str,
    critical: bool,
) -> Result<dice::DiceRoll> {
    let mut e = crate::rolls::caller_amount(field, expr)?;
    if critical {
        e = e.with_doubled_dice()?;
    }
    let r = e.roll(call.rng()?)?;
    call.record_roll(&r);
    Ok(r)
}

/// Applies one casting: spends nothing (the caller spent the slot), begins concentration when the
/// spell needs it (ending the old), then per target rolls the attack or the save and applies
/// damage, healing, conditions and effects. `caster` is the in-memory sheet the caller stores;
/// other targets are loaded and stored here. `map` gives cover (AC and DEX saves).
pub fn resolve(
    call: &mut Call<'_>,
    caster: &mut Character,
    plan: &CastPlan,
    enc: Option<&Encounter>,
) -> Result<CastReport> {
    // Wish's stress, or Wish duplicating another spell (resolved as that spell).
    let mut wish_lines = Vec::new();
    let wished = super::life6::wish(call, caster, plan, &mut wish_lines)?;
    let plan = wished.as_ref().unwrap_or(plan);
    let map: Option<&BattleMap> = enc.map(|e| &e.map);
    let dodging: Vec<String> = enc
        .map(|e| {
            e.order
                .iter()
                .filter(|c| c.flags.dodging)
                .map(|c| c.character_id.clone())
                .collect()
        })
        .unwrap_or_default();
    let spell = &plan.spell;
    let mut report = CastReport {
        spell: spell.name.clone(),
        slot_level: plan.slot_level,
        lines: wish_lines,
        ..Default::default()
    };
    if spell.concentration {
        concentration::begin(call, caster, &spell.name, &mut report.lines)?;
    }
    // Kinds that are not attacks, saves or healing (an HP pool, an AC formula, revival,
    // Counterspell, narrative spells) resolve in `mechanics`.
    if super::mechanics::resolve_special(call, caster, plan, &mut report)? {
        return Ok(report);
    }
    // A zone around the caster (Spirit Guardians) strikes in a fight; cast outside one it has
    // no one to strike, and the answer says so.
    if let (Some(aura), None) = (&spell.aura, enc) {
        let line = format!(
            "no automation outside an encounter for {}: its {}-ft aura is made only in an encounter (cast it there; it strikes enemies that start their turn in it or enter it)",
            spell.name, aura.radius_ft
        );
        report.lines.push(line.clone());
        report.automation = Some(line);
        return Ok(report);
    }
    // A zone placed on the map (Moonbeam, Web, Wall of Stone) exists only on an encounter's map.
    if enc.is_none()
        && spell
            .mechanics()
            .is_some_and(|m| m.kind == crate::catalog::spells::SpellKind::Zone && m.zone.is_some())
    {
        let line = format!(
            "no automation outside an encounter for {}: its zone is made only in an encounter (cast it there with `to`; it changes the map and strikes creatures as its text says)",
            spell.name
        );
        report.lines.push(line.clone());
        report.automation = Some(line);
        return Ok(report);
    }
    let mut mm = super::class_magic::Resolving::new(caster, plan, enc);
    let damage = super::class_magic::affinity(
        caster,
        spell,
        spell.damage_dice(plan.slot_level, caster.cantrip_level(), plan.modifier),
        &mut report.lines,
    );
    let heal = super::class_magic::healing(
        caster,
        plan.slot_level,
        spell.heal_dice(plan.slot_level, plan.modifier),
        &mut report.lines,
    )?;
    if spell.save.is_some() {
        report.save_dc = Some(plan.save_dc);
    }
    // A save-for-half area rolls its damage once for everyone (PHB "Combining effects").
    let shared_damage = if spell.attack.is_none() && !spell.per_projectile() {
        match &damage {
            Some(d) => Some(roll_expr(call, d, false)?),
            None => None,
        }
    } else {
        None
    };
    // Empowered Evocation: + INT to one damage roll (the shared one, else the first).
    let mut empower = super::feature_spells::empower(caster, spell);
    let mut shared_damage = shared_damage;
    if let Some(r) = shared_damage.as_mut()
        && let Some(l) = super::class_magic::empower(call, r, plan.metamagic.empowered)?
    {
        report.lines.push(l);
    }
    if let Some(r) = shared_damage.as_mut() {
        report
            .lines
            .push(format!("{} damage: {}", spell.name, r.summary()));
        super::feature_spells::empowered(&mut empower, r, &mut report.lines);
    }
    // Sculpt Spells: the caster's side in its evocation area is spared.
    let sculpted = super::feature_spells::sculpted(caster, spell, &plan.targets, |id| {
        enc.is_some_and(|e| {
            let side = |x: &str| e.combatant(x).map(|c| c.side);
            matches!((side(&caster.id), side(id)), (Some(a), Some(b)) if !a.hostile_to(b))
        })
    });
    let potent = super::feature_spells::potent(caster, spell);
    let shared_heal = match &heal {
        Some(h) => {
            let r = roll_amount(call, "healing", h, false)?;
            report
                .lines
                .push(format!("{} healing: {}", spell.name, r.summary()));
            Some(r)
        }
        None => None,
    };
    // Projectiles landing on one target add up (magic missile darts).
    let mut darts: Vec<(String, u32)> = Vec::new();
    let mut order: Vec<String> = Vec::new();
    for id in &plan.targets {
        if spell.per_projectile() && spell.attack.is_none() {
            match darts.iter_mut().find(|(t, _)| t == id) {
                Some((_, n)) => *n += 1,
                None => darts.push((id.clone(), 1)),
            }
        }
        // Each ray of an attack-roll projectile spell is its own attack; others hit once.
        if (spell.per_projectile() && spell.attack.is_some()) || !order.contains(id) {
            order.push(id.clone());
        }
    }
    for id in order {
        let own = id == caster.id;
        let mut target = if own {
            caster.clone()
        } else {
            crate::combat::sheet(call, &id)?
        };
        if target.dead {
            report
                .lines
                .push(format!("{} is dead; unaffected", target.name));
            continue;
        }
        let mut tr = TargetResult {
            id: target.id.clone(),
            name: target.name.clone(),
            ..Default::default()
        };
        // Creature types the spell cannot touch (Hold Person: humanoids only; Cure Wounds: no
        // effect on undead or constructs).
        if let Some(why) = super::mechanics::unaffected(spell, &target)
            .or_else(|| super::combat6::out_of_reach(plan, caster, &target))
            .or_else(|| {
                crate::combat::traits::limited_magic_immunity(&target, plan.slot_level, &spell.name)
            })
        {
            report.lines.push(why.clone());
            tr.phrase = why;
            tr.hp_after = target.hp;
            report.targets.push(tr);
            continue;
        }
        if sculpted.contains(&id) {
            let why = format!(
                "{} is sculpted out of {} (Sculpt Spells): it succeeds on the save and takes no damage",
                target.name, spell.name
            );
            report.lines.push(why.clone());
            tr.saved = spell.save.map(|_| true);
            tr.phrase = why;
            tr.hp_after = target.hp;
            report.targets.push(tr);
            continue;
        }
        let hp_before = target.hp;
        let mut phrase: Vec<String> = Vec::new();
        let mut affected = true;
        let mut critical = false;
        let mut damage_total: Option<dice::DiceRoll> = None;
        // Attack roll: the shared attack situation (cover, target conditions, dodging, hiding,
        // Help, a hostile next to a ranged caster) when on a map.
        if let Some(kind) = spell.attack {
            let t_eff = target.effective();
            let (test, bonus) = match plan.attack {
                AttackNumbers::Caster(a, worn) => (
                    D20Test::Attack {
                        ability: Some(a),
                        proficient: true,
                    },
                    worn,
                ),
                AttackNumbers::Fixed(b) => (
                    D20Test::Attack {
                        ability: None,
                        proficient: false,
                    },
                    b,
                ),
            };
            let range = spell.range_ft().unwrap_or(5).max(5);
            let situation = match enc {
                Some(e) if !own => Some(crate::combat::actions::attack::situation(
                    call,
                    e,
                    caster,
                    &target,
                    match kind {
                        SpellAttack::Melee => AttackKind::melee(range),
                        SpellAttack::Ranged => AttackKind::ranged(range, range),
                    },
                )?),
                _ => None,
            };
            if let Some(sit) = &situation
                && !sit.refusals.is_empty()
                && plan.forced
            {
                report.lines.push(format!(
                    "Forced (DM override): {}; the attack is rolled",
                    sit.refusals.join("; ")
                ));
            } else if let Some(sit) = &situation
                && !sit.refusals.is_empty()
            {
                let why = sit.refusals.join("; ");
                report.lines.push(why.clone());
                tr.phrase = why;
                tr.hp_after = target.hp;
                report.targets.push(tr);
                continue;
            }
            let mut req = D20Request::new(test)
                .dc(t_eff.armor_class.value)
                .labelled(format!("{} spell attack vs {}", spell.name, target.name));
            match &situation {
                Some(sit) => {
                    for a in &sit.advantage {
                        req = req.advantage(a.clone());
                    }
                    for d in &sit.disadvantage {
                        req = req.disadvantage(d.clone());
                    }
                    req.crit_on_hit.extend(sit.crit_on_hit.iter().cloned());
                    if sit.cover_bonus > 0 {
                        req = req.dc(t_eff.armor_class.value + sit.cover_bonus);
                        req = req.bonus(format!("target cover (+{} AC)", sit.cover_bonus), 0);
                        let ac = t_eff.armor_class.value;
                        report
                            .lines
                            .extend(sit.cover_line(&target.name, ac, ac + sit.cover_bonus));
                    }
                }
                None => req = req.against(&t_eff, false),
            }
            if bonus != 0 {
                req = req.bonus("scroll attack bonus", bonus);
            }
            if plan.bonus != 0 {
                req = req.bonus("situational bonus", plan.bonus);
            }
            for a in &plan.advantage {
                req = req.advantage(a.clone());
            }
            for d in &plan.disadvantage {
                req = req.disadvantage(d.clone());
            }
            let stats = match &situation {
                Some(sit) => sit.attacker_stats(caster.effective()),
                None => caster.effective(),
            };
            let mut out = roll_d20_test(&stats, &req, call.rng()?);
            call.record_roll(&out);
            // A hit may be answered by the target's Shield.
            let mut shield_lines = Vec::new();
            if let Some(e) = enc
                && !own
                && out.success == Some(true)
            {
                use crate::combat::actions::reactions::shield_spell::{SpellShield, on_spell_hit};
                let ac = out.dc.unwrap_or(t_eff.armor_class.value);
                let summary = out.summary();
                match on_spell_hit(call, e, &target, &mut out, ac, &spell.name)? {
                    SpellShield::Cast(l) => {
                        shield_lines.push(format!("{} — {summary}", caster.name));
                        shield_lines.extend(l);
                        report.reacted.push(target.id.clone());
                        target = crate::combat::sheet(call, &id)?;
                    }
                    SpellShield::Lands(l) => shield_lines.extend(l),
                }
            }
            report.lines.extend(target.spend_on_attacked());
            let hit = out.success == Some(true);
            critical = hit && out.critical;
            tr.attack = Some(out.summary());
            tr.hit = Some(hit);
            tr.critical = critical;
            if shield_lines.is_empty() {
                report
                    .lines
                    .push(format!("{} — {}", caster.name, out.summary()));
            } else {
                report.lines.extend(shield_lines);
            }
            report
                .lines
                .extend(situation.iter().flat_map(|s| s.notes.iter().cloned()));
            if !hit {
                affected = false;
                phrase.push(format!("misses {}", target.name));
            } else if critical {
                phrase.push(format!("critical hit on {}", target.name));
            }
        }
        // Saving throw.
        let mut saved = false;
        let mut evading = false;
        if affected
            && let Some(sv) = spell.save
            && !super::combat6::skips_save(plan, caster, &target, enc)
        {
            let eff = target.effective();
            let mut req = D20Request::new(D20Test::Save {
                ability: sv.ability,
            })
            .dc(plan.save_dc)
            .labelled(format!("{} save vs {}", sv.ability.name(), spell.name));
            req = mm.before_save(req);
            if spell.inorganic_disadvantage
                && let Some(sb) = &target.stat_block
                && crate::model::spell::made_of_stone_or_metal(&sb.creature_type, &sb.monster)
            {
                req = req.disadvantage(format!("{} is made of stone or metal", target.name));
            }
            if sv.ability == Ability::Dexterity && !own {
                let cover = map.and_then(|m| match plan.origin {
                    Some(o) => {
                        let c = m.creature(&id)?;
                        m.cover_from_origin(o, c.position, c.size, &CoverOptions::default())
                            .ok()
                    }
                    None => m
                        .creature_cover(&caster.id, &id, &CoverOptions::default())
                        .ok(),
                });
                if let Some(b) = cover.and_then(|c| c.dex_save_bonus).filter(|b| *b > 0) {
                    if spell.ignores_cover {
                        report.lines.push(format!(
                            "{} gains no benefit from cover (+{b}) against {}",
                            target.name, spell.name
                        ));
                    } else {
                        req = req.bonus("cover", b);
                    }
                }
                if dodging.contains(&id) {
                    req = req.advantage("dodging");
                }
                if map.is_some_and(|m| m.is_squeezing(&id)) {
                    req = req.disadvantage("squeezing into a smaller space");
                }
            }
            if crate::combat::traits::magic_resistance(&target) {
                req = req.advantage("Magic Resistance");
            }
            for why in crate::derive::gear::save_advantages(
                &target,
                sv.ability,
                spell.condition,
                spell.damage_type,
                true,
            ) {
                req = req.advantage(why);
            }
            let mut out = roll_d20_test(&eff, &req, call.rng()?);
            call.record_roll(&out);
            mm.after_save(&id, &mut out);
            saved = out.success == Some(true);
            tr.save = Some(out.summary());
            report
                .lines
                .push(format!("{} — {}", target.name, out.summary()));
            if !saved
                && let Some((ok, line)) = crate::combat::legendary::on_failed_save(enc, &mut target)
            {
                saved = ok;
                report.lines.push(line);
            }
            if !saved
                && sv.ability == Ability::Dexterity
                && let Some(line) = crate::inventory::regen::evade(&mut target)
            {
                saved = true;
                report.lines.push(line);
            }
            tr.saved = Some(saved);
            let half = sv.half || (potent && shared_damage.is_some());
            evading = shared_damage.is_some() && super::evasion::applies(&target, sv.ability, half);
            if saved && evading {
                affected = false;
                phrase.push(format!("{} saves: Evasion, no damage", target.name));
            } else if saved && !(half && shared_damage.is_some()) {
                affected = false;
                phrase.push(format!("{} saves", target.name));
            } else if evading {
                phrase.push(format!("{} fails: Evasion, half damage", target.name));
            } else if saved && !sv.half {
                phrase.push(format!(
                    "{} saves: half damage (Potent Cantrip)",
                    target.name
                ));
            } else if saved {
                phrase.push(format!("{} saves for half", target.name));
            }
        }
        // Magic Missile's darts may be stopped by the target's Shield.
        if affected
            && !own
            && let Some(e) = enc
            && darts.iter().any(|(t, _)| *t == id)
        {
            use crate::combat::actions::reactions::shield_spell::{SpellShield, on_darts};
            match on_darts(call, e, &target, &spell.name)? {
                SpellShield::Cast(l) => {
                    report.lines.extend(l);
                    report.reacted.push(target.id.clone());
                    target = crate::combat::sheet(call, &id)?;
                    affected = false;
                    phrase.push(format!("{} is untouched (Shield)", target.name));
                }
                SpellShield::Lands(l) => report.lines.extend(l),
            }
        }
        // Damage.
        if affected {
            let amount: Option<i64> = if let Some(&(_, n)) = darts.iter().find(|(t, _)| *t == id) {
                let one = damage.clone().unwrap_or_else(|| "1d4+1".into());
                let mut r = roll_expr(call, &super::mechanics::times_dice(&one, n), false)?;
                report.lines.push(format!(
                    "{n} dart{} at {}: {}",
                    if n == 1 { "" } else { "s" },
                    target.name,
                    r.summary()
                ));
                super::feature_spells::empowered(&mut empower, &mut r, &mut report.lines);
                let t = r.total;
                damage_total = Some(r);
                Some(t)
            } else if let Some(r) = &shared_damage {
                Some(if saved || evading {
                    r.total / 2
                } else {
                    r.total
                })
            } else if let Some(d) = &damage {
                let mut r = roll_expr(call, d, critical)?;
                if let Some(l) =
                    super::class_magic::empower(call, &mut r, plan.metamagic.empowered)?
                {
                    report.lines.push(l);
                }
                report
                    .lines
                    .push(format!("Damage to {}: {}", target.name, r.summary()));
                super::feature_spells::empowered(&mut empower, &mut r, &mut report.lines);
                let t = r.total;
                damage_total = Some(r);
                Some(t)
            } else {
                None
            };
            let _ = &damage_total;
            if let Some(amount) = amount {
                let amount = u32::try_from(amount.max(0)).unwrap_or(u32::MAX);
                tr.damage_rolled = Some(i64::from(amount));
                let mut changes = Vec::new();
                let mut parts = [DamagePart::new(spell.damage_type, amount)];
                // A spell attack is an attack: Uncanny Dodge may halve it.
                if let Some(e) = enc.filter(|_| spell.attack.is_some() && !own)
                    && !report.reacted.contains(&id)
                    && crate::combat::martial::defend_from_spell(
                        call,
                        e,
                        caster,
                        &id,
                        &mut parts,
                        &mut changes,
                    )?
                {
                    report.reacted.push(id.clone());
                }
                let mut r = crate::update::damage(&mut target, &parts, critical, &mut changes)?;
                crate::combat::traits::undead_fortitude(
                    call,
                    &mut target,
                    &parts,
                    &mut r,
                    critical,
                    &mut changes,
                )?;
                crate::combat::martial::relentless_rage(call, &mut target, &mut r, &mut changes)?;
                if spell.mechanics().is_some_and(|e| e.dust_at_zero) && target.hp == 0 {
                    changes.push(super::dust::turn_to_dust(call, &mut target, &spell.name)?);
                    r.dead = true;
                    r.outcome = tabletop_rules::damage::DamageOutcome::Killed;
                }
                if r.total > 0 {
                    changes.extend(crate::combat::charm::end_by_harm(
                        enc,
                        &caster.id,
                        &mut target,
                    ));
                }
                tr.damage_taken = Some(r.total);
                phrase.push(format!(
                    "{} takes {}",
                    target.name,
                    crate::combat::actions::attack::damage_phrase(&r)
                ));
                report.lines.append(&mut changes);
                let mut conc = Vec::new();
                concentration::after_damage(call, &mut target, r.total, &mut conc)?;
                concentration::enforce(call, &mut target, &mut conc)?;
                report.lines.append(&mut conc);
            }
            if let Some(r) = &shared_heal {
                let amount = u32::try_from(r.total.max(0)).unwrap_or(0);
                let mut changes = Vec::new();
                let h = crate::update::heal(&mut target, amount, &mut changes)?;
                // What the healing also ends (Heal: blindness, deafness, diseases).
                if let Some(e) = spell.mechanics() {
                    let ended: Vec<String> = e
                        .cures
                        .iter()
                        .filter_map(|c| super::grants::end_one(&mut target, c))
                        .collect();
                    if !ended.is_empty() {
                        changes.push(format!(
                            "{}: {} ends {}",
                            target.name,
                            spell.name,
                            ended.join(", ")
                        ));
                    }
                }
                tr.healed = Some(h.healed);
                mm.healed(own, h.healed);
                phrase.push(format!("{} {}", target.name, h.summary()));
                report.lines.append(&mut changes);
            }
            // A save-for-half spell's condition lands only on a failed save (Sunburst).
            if let Some(cond) = spell.condition
                && !target.dead
                && !saved
            {
                match super::impose::impose_condition(call, caster, &mut target, plan, cond) {
                    Ok(line) => {
                        tr.condition = Some(cond);
                        phrase.push(line.clone());
                        report.lines.push(line);
                    }
                    Err(why) => {
                        phrase.push(why.clone());
                        report.lines.push(why);
                    }
                }
            }
            if let Some(effect) = &spell.effect
                && !target.dead
            {
                let line = apply_effect(call, caster, &mut target, plan, effect)?;
                tr.effect = Some(effect.clone());
                phrase.push(line.clone());
                report.lines.push(line);
            }
            if !saved && !target.dead {
                let lines =
                    super::mechanics::apply_riders(call, caster, &mut target, plan, &mut tr)?;
                phrase.extend(lines.iter().cloned());
                report.lines.extend(lines);
            }
        }
        // Dark One's Blessing: a hostile creature dropped to 0 HP.
        let hostile = !own
            && enc.is_some_and(|e| {
                let side = |x: &str| e.combatant(x).map(|c| c.side);
                matches!((side(&caster.id), side(&id)), (Some(a), Some(b)) if a.hostile_to(b))
            });
        if let Some(line) = super::blessing::on_drop(caster, &target, hp_before, hostile) {
            report.lines.push(line);
        }
        // A target the spell held or put to sleep stops concentrating (incapacitated).
        let mut lapsed = Vec::new();
        concentration::enforce(call, &mut target, &mut lapsed)?;
        report.lines.append(&mut lapsed);
        tr.hp_after = target.hp;
        tr.phrase = phrase.join(", ");
        if own {
            // The caster's links were added to the in-memory caster; keep them unless the
            // target copy lost concentration.
            let conc = caster.concentration.clone();
            *caster = target;
            if caster.concentration.is_some() {
                caster.concentration = conc;
            }
        } else {
            crate::combat::put_sheet(call, &target)?;
            call.record_change("character", &target.id, tr.phrase.clone());
        }
        report.targets.push(tr);
    }
    report.lines.extend(mm.finish(caster, plan.slot_level));
    concentration::release_if_unheld(call, caster, spell, &mut report.lines)?;
    Ok(report)
}

fn apply_effect(
    call: &mut Call<'_>,
    caster: &mut Character,
    target: &mut Character,
    plan: &CastPlan,
    name: &str,
) -> Result<String> {
    let spell = &plan.spell;
    let entry = spell.mechanics();
    let kinds = match (crate::model::effects::preset(name), entry) {
        (Some((kinds, _)), _) => kinds,
        (None, Some(e)) if e.grants_effect() => e.modifiers.clone(),
        _ => {
            return Ok(format!(
                "{name}: no preset; apply its effect with manage_effect"
            ));
        }
    };
    let mut kinds = kinds;
    if let Some(e) = entry {
        kinds.extend(super::grants::chosen_modifiers(e, plan)?);
        kinds.extend(super::wards::slot_modifiers(e, plan));
        kinds.extend(super::combat6::modifiers(e, plan));
    }
    let (duration, ends_on) = if spell.concentration && caster.concentration.is_some() {
        if let Some(c) = caster.concentration.as_mut() {
            c.add_link(ConcentrationLink::effect(&target.id, name));
        }
        (super::combat6::held(caster, plan), None)
    } else if let Some(until) = spell.mechanics().and_then(|e| e.until) {
        // Until the start (Shield) or end of the caster's next turn: rounds tick on the caster's
        // turns, so the end of its *next* turn is two ticks away when cast on its own turn.
        use crate::catalog::spells::Until;
        let (at, n) = match until {
            Until::CasterNextTurnStart => (TurnPoint::Start, 1),
            Until::CasterNextTurnEnd => (TurnPoint::End, 2),
        };
        (
            Duration::Rounds { remaining: n },
            Some(EndTrigger {
                at,
                turn_of: caster.id.clone(),
            }),
        )
    } else {
        (
            spell
                .duration_rounds()
                .map_or(Duration::UntilDispelled, |n| Duration::Rounds {
                    remaining: n,
                }),
            None,
        )
    };
    let key = name_key(name);
    target.effects.retain(|e| name_key(&e.name) != key);
    let id = call.new_id("ef")?;
    let mods: Vec<Modifier> = kinds
        .into_iter()
        .map(|k: ModifierKind| Modifier::new(name.to_string(), k))
        .collect();
    let mut what: Vec<String> = mods.iter().map(|m| m.kind.to_string()).collect();
    target.effects.push(ActiveEffect {
        id,
        name: name.to_string(),
        source: Some(format!("{} ({})", spell.name, caster.name)),
        modifiers: mods,
        duration,
        ends_on,
        ends_when_attacked: false,
        damaged_since_turn: false,
        grant: super::mechanics::effect_grant(spell, plan).map(|mut g| {
            // A mark (Hunter's Mark) answers its caster's hits only.
            if entry.is_some_and(|e| e.mark_dice.is_some()) {
                g.hit_by = Some(caster.id.clone());
            }
            g
        }),
    });
    if let Some(e) = entry {
        what.extend(super::wards::after_effect(e, plan, target));
        if let Some(d) = &e.mark_dice {
            what.push(format!("{}'s weapon hits on it deal +{d}", caster.name));
        } else if e.next_hit
            && let Some(d) = target
                .effects
                .last()
                .and_then(|x| x.grant.as_ref()?.hit_dice.clone())
        {
            what.push(format!("its next weapon hit deals +{d}"));
        }
    }
    if let Some(floor) = entry.and_then(|e| e.ac_floor) {
        let ac = target.effective().armor_class.value;
        what.push(format!("AC can't be less than {floor}: now {ac}"));
    }
    Ok(format!(
        "{} gains {name} ({})",
        target.name,
        what.join(", ")
    ))
}
