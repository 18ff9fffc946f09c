//! Applying the pipeline to a stored character: on every read and write the sheet's values are
//! re-derived from its build; an old sheet (stored before builds existed) is converted to a
//! build on first read (a lazy upgrade that keeps its numbers, adding what the old code missed);
//! direct edits are recorded as sources; the armor-dependent rules join the effective stats.

use std::collections::BTreeSet;

use tabletop_rules::Ability;
use tabletop_rules::abilities::ProficiencyLevel;
use tabletop_rules::hp::{HitDie, LevelHp};
use tabletop_srd::Compendium;

use super::{Build, ClassLevels, CustomClassSource, Derived, derive, resolve};
use crate::catalog::Catalog;
use crate::character::{Character, Resource};
use crate::compendium::Derivation;
use crate::engine::Call;

/// Re-derives `c`'s sheet values from its build (converting an old sheet first). Stat-block
/// creatures are left as they are. When a source cannot be resolved (no SRD configured), the
/// values last derived are kept.
pub fn refresh(call: &Call<'_>, c: &mut Character) {
    let source = call.compendium_source();
    refresh_by(call.compendium(), c, |build, srd| {
        source.derived(build, || derivation(build, srd))
    });
}

/// [`refresh`] with the compendium given.
pub fn refresh_with(srd: Option<&Compendium>, c: &mut Character) {
    refresh_by(srd, c, derivation);
}

/// Runs the pipeline on `build`.
fn derivation(build: &Build, srd: Option<&Compendium>) -> Derivation {
    let resolved = resolve(build, srd);
    Derivation {
        derived: std::sync::Arc::new(derive(build, &resolved, Catalog::get())),
        resolved: resolved.unresolved.is_empty(),
    }
}

/// What it reads of `c`, besides its sources (build, stat block) and its stored derived sheet: a
/// form and the effects that may hold it, hit points (only to hold them to the maximum), hit
/// dice, slots, resources and the derived block. It reads none of temporary hit points, death
/// saves, death, conditions and concentration; `model::doc_state::resolution_carries` relies on
/// this, and `tests/resolution.rs` holds it on SRD-built characters.
fn refresh_by(
    srd: Option<&Compendium>,
    c: &mut Character,
    derive_build: impl FnOnce(&Build, Option<&Compendium>) -> Derivation,
) {
    // A form whose holding effect ended (its duration, concentration, dismissal) is gone.
    let _ = c.drop_stale_shape();
    if c.stat_block.is_some() {
        return;
    }
    if c.build.is_none() {
        c.build = Some(legacy_build(c, srd));
    }
    let Some(build) = c.build.as_ref() else {
        return;
    };
    let Derivation {
        derived: d,
        resolved,
    } = derive_build(build, srd);
    if !resolved && c.derived.is_some() && srd.is_none() {
        return;
    }
    let combined =
        srd.and_then(|s| super::multiclass::combined_slots(s, &build.classes, &c.spell_slots));
    apply(c, d);
    if let Some(s) = combined
        && !c.spell_slots.manual
    {
        c.spell_slots = s;
    }
}

fn apply(c: &mut Character, d: std::sync::Arc<Derived>) {
    let had = c.derived.is_some();
    let old_max = c.max_hp;
    c.abilities = d.abilities;
    c.level = d.level;
    c.proficiency_bonus = d.proficiency_bonus;
    c.max_hp = d.max_hp;
    if had && d.max_hp > old_max {
        c.hp = c.hp.saturating_add(d.max_hp - old_max);
    }
    c.save_proficiencies = d.saves.keys().copied().collect();
    c.skills = d.skills.iter().map(|(s, v)| (*s, v.value)).collect();
    match d.armor_class_override {
        Some(ac) => {
            c.armor_class = ac;
            c.armor_source = "as set".into();
        }
        None => {
            let abilities = c.abilities;
            if let Some(best) = d
                .ac_formulas
                .iter()
                .max_by_key(|f| crate::model::gear::formula_ac(f, |a| abilities.get(a)))
            {
                c.armor_class = crate::model::gear::formula_ac(best, |a| abilities.get(a));
                c.armor_source = best.source.clone();
            }
        }
    }
    c.speed = d.speed;
    c.size = d.size.unwrap_or(c.size);
    c.resistances = d.resistances.iter().map(|s| s.value).collect();
    c.immunities = d.immunities.iter().map(|s| s.value).collect();
    c.vulnerabilities = d.vulnerabilities.iter().map(|s| s.value).collect();
    c.condition_immunities = d.condition_immunities.iter().map(|s| s.value).collect();
    if let Some(first) = d.hit_dice.first() {
        c.hit_die = first.value.0;
    }
    c.hit_dice = c.hit_dice.min(c.level);
    c.features = d.features.clone();
    c.languages = d.languages.iter().map(|l| l.value.clone()).collect();
    if d.spellcasting_ability.is_some() {
        c.spellcasting_ability = d.spellcasting_ability;
    }
    // Resources: derived ones follow their maximum (a rise adds the new uses); ones no source
    // grants any more go; ones the DM added stay.
    let same = crate::model::names::same_name;
    let old: &[super::ResourceSpec] = c.derived.as_ref().map_or(&[], |o| &o.resources);
    c.resources.retain(|r| {
        !old.iter().any(|o| same(&o.name, &r.name))
            || d.resources.iter().any(|n| same(&n.name, &r.name))
    });
    for spec in &d.resources {
        match c.resources.iter_mut().find(|r| same(&r.name, &spec.name)) {
            Some(r) => {
                if spec.max > r.max {
                    r.current = r.current.saturating_add(spec.max - r.max);
                }
                r.max = spec.max;
                r.current = r.current.min(r.max);
                r.recharge = spec.recharge;
            }
            None => c.resources.push(Resource {
                name: spec.name.clone(),
                max: spec.max,
                current: spec.max,
                recharge: spec.recharge,
            }),
        }
    }
    c.derived = Some(d);
    cap_hp(c);
}

/// Caps current hit points above the sheet's own maximum at the effective maximum, which what
/// raises it (Aid, an Amulet of Health's Constitution) lets them reach. Derived only then.
pub(crate) fn cap_hp(c: &mut Character) {
    if c.hp > c.max_hp {
        let cap = u32::try_from(c.effective().max_hp.value.max(1)).unwrap_or(1);
        c.hp = c.hp.min(cap);
    }
}

/// A build from an old sheet's stored numbers: its scores less the racial bonuses, its class and
/// level, skills, languages and overrides where the numbers differ from what the sources give.
/// Its max HP is kept (as an adjustment) except for per-level grants the old code never added.
pub fn legacy_build(c: &Character, srd: Option<&Compendium>) -> Build {
    let mut b = Build {
        method: "converted from an earlier sheet".into(),
        race: c.race.clone(),
        subrace: c.subrace.clone(),
        background: c.background.clone(),
        ..Default::default()
    };
    match (&c.class, srd) {
        (Some(name), Some(s)) if s.class(name).is_some() => b.classes.push(ClassLevels {
            class: name.clone(),
            level: c.level,
            ..Default::default()
        }),
        (Some(name), _) => b.classes.push(ClassLevels {
            class: name.clone(),
            level: c.level,
            custom: Some(CustomClassSource {
                hit_die: c.hit_die,
                saves: c.save_proficiencies.iter().copied().collect(),
                spellcasting_ability: c.spellcasting_ability,
                skill_choices: None,
            }),
            ..Default::default()
        }),
        (None, _) if c.hit_die != 8 => b.classes.push(ClassLevels {
            class: "(no class)".into(),
            level: c.level,
            custom: Some(CustomClassSource {
                hit_die: c.hit_die,
                saves: c.save_proficiencies.iter().copied().collect(),
                ..Default::default()
            }),
            ..Default::default()
        }),
        (None, _) => b.classes_less(c.level),
    }
    let resolved = resolve(&b, srd);
    let mut base = c.abilities;
    if let Some(r) = &resolved.race {
        for (a, n, _) in &r.bonuses {
            let _ = base.set(*a, (i64::from(base.get(*a)) - i64::from(*n)).clamp(1, 30));
        }
    }
    b.base_scores = base;
    b.choices.skills = c.skills.keys().copied().collect();
    b.choices.expertise = c
        .skills
        .iter()
        .filter(|(_, l)| **l == ProficiencyLevel::Expertise)
        .map(|(s, _)| *s)
        .collect();
    b.choices.languages = c.languages.clone();
    let class_saves: BTreeSet<Ability> = resolved
        .classes
        .first()
        .map(|x| x.saves.iter().copied().collect())
        .unwrap_or_default();
    if c.save_proficiencies != class_saves {
        b.overrides.saves = Some(c.save_proficiencies.clone());
    }
    if !c.armor_source.starts_with("unarmored") {
        b.overrides.armor_class = Some(c.armor_class);
    }
    let race_speed = resolved.race.as_ref().map_or(30, |r| r.speed);
    if c.speed != race_speed {
        b.overrides.speed = Some(c.speed);
    }
    let race_size = resolved
        .race
        .as_ref()
        .and_then(|r| r.size)
        .unwrap_or(tabletop_rules::Size::Medium);
    if c.size != race_size {
        b.overrides.size = Some(c.size);
    }
    b.overrides.resistances = c.resistances.clone();
    b.overrides.immunities = c.immunities.clone();
    b.overrides.vulnerabilities = c.vulnerabilities.clone();
    b.overrides.condition_immunities = c.condition_immunities.clone();
    let d = derive(&b, &resolved, Catalog::get());
    let without_grants = i64::from(d.max_hp) - i64::from(d.hp_grants);
    b.overrides.max_hp_adjust = i32::try_from(i64::from(c.max_hp) - without_grants).unwrap_or(0);
    b
}

impl Build {
    fn classes_less(&mut self, level: u32) {
        self.classless_level = Some(level);
    }
}

/// Records `levels` new levels in the build's class `class` (an index into its classes) with
/// the hit-die value of each (every value, so a rolled or maximum level stays as it was); a
/// manual total becomes an adjustment over the average.
pub fn record_level_hp(
    c: &mut Character,
    class: usize,
    levels: u32,
    die_faces: u32,
    gains: &[LevelHp],
    manual: Option<u32>,
) {
    let con = c.abilities.modifier(Ability::Constitution);
    let die = HitDie::from_faces(die_faces).unwrap_or(HitDie::D8);
    let Some(b) = c.build.as_mut() else { return };
    let Some(entry) = b.classes.get_mut(class) else {
        b.classless_level = Some(b.classless_level.unwrap_or(1).saturating_add(levels));
        return;
    };
    let from = entry.level;
    entry.level = from.saturating_add(levels);
    match manual {
        Some(total) => {
            let average: i64 = (0..levels)
                .map(|_| (i64::from(die.average()) + i64::from(con)).max(1))
                .sum();
            b.overrides.max_hp_adjust = b
                .overrides
                .max_hp_adjust
                .saturating_add(i32::try_from(i64::from(total) - average).unwrap_or(0));
        }
        None => {
            for (k, g) in gains.iter().enumerate() {
                let class_level = from + 1 + u32::try_from(k).unwrap_or(0);
                entry.hp.insert(class_level, g.die_value);
            }
        }
    }
}

/// Records direct edits of an update (made on the stored values) as sources of the build:
/// ability changes, and overrides for skills, saves, AC, speed, size, max HP, languages and
/// damage defences.
pub fn absorb_edits(before: &Character, c: &mut Character) {
    let Some(b) = c.build.as_mut() else { return };
    for a in Ability::ALL {
        let diff = i32::from(c.abilities.get(*a)) - i32::from(before.abilities.get(*a));
        if diff != 0 {
            *b.ability_changes.entry(*a).or_insert(0) += diff;
        }
    }
    b.ability_changes.retain(|_, v| *v != 0);
    if c.skills != before.skills {
        b.overrides.skills = Some(c.skills.clone());
    }
    if c.save_proficiencies != before.save_proficiencies {
        b.overrides.saves = Some(c.save_proficiencies.clone());
    }
    if c.armor_class != before.armor_class || c.armor_source != before.armor_source {
        b.overrides.armor_class = Some(c.armor_class);
    }
    if c.speed != before.speed {
        b.overrides.speed = Some(c.speed);
    }
    if c.size != before.size {
        b.overrides.size = Some(c.size);
    }
    if c.max_hp != before.max_hp {
        b.overrides.max_hp = Some(c.max_hp);
        b.overrides.max_hp_adjust = 0;
    }
    if c.languages != before.languages {
        b.overrides.languages = Some(c.languages.clone());
    }
    let granted = |list: &[super::Sourced<tabletop_rules::DamageType>]| -> BTreeSet<_> {
        list.iter()
            .filter(|s| !s.source.starts_with("as set"))
            .map(|s| s.value)
            .collect()
    };
    let none = Derived::default();
    let d = c.derived.as_deref().unwrap_or(&none);
    if c.resistances != before.resistances {
        let g = granted(&d.resistances);
        b.overrides.resistances = c.resistances.difference(&g).copied().collect();
        b.overrides.removed_resistances = g.difference(&c.resistances).copied().collect();
    }
    if c.immunities != before.immunities {
        let g = granted(&d.immunities);
        b.overrides.immunities = c.immunities.difference(&g).copied().collect();
    }
    if c.vulnerabilities != before.vulnerabilities {
        b.overrides.vulnerabilities = c.vulnerabilities.clone();
    }
    if c.condition_immunities != before.condition_immunities {
        b.overrides.condition_immunities = c.condition_immunities.clone();
    }
}
