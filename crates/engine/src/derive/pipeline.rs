//! The derivation pipeline: build + resolved grants + catalog → derived sheet values. Pure: no
//! store, no dice, no clock.

use std::collections::BTreeMap;

use tabletop_rules::abilities::{ProficiencyLevel, ability_modifier, proficiency_bonus};
use tabletop_rules::hp::HitDie;
use tabletop_rules::modifiers::{Modifier, ModifierKind};
use tabletop_rules::stats::Contribution;
use tabletop_rules::{Ability, Skill};

use super::resolve::proficiency_skill;
use super::{
    AcFormula, ActionSpec, Build, Derived, Resolved, ResourceSpec, RiderSpec, Sourced, SpeedRule,
};
use crate::catalog::{AmountContext, Catalog, Entry, Grant, Use};

/// One catalog entry in play, with the label of its source and the class it comes from.
struct InPlay<'a> {
    entry: &'a Entry,
    label: String,
    class: Option<usize>,
}

fn push_unique(v: &mut Vec<Sourced<String>>, value: &str, source: &str) {
    if !v
        .iter()
        .any(|x| crate::model::names::same_name(&x.value, value))
    {
        v.push(Sourced {
            value: value.to_string(),
            source: source.to_string(),
        });
    }
}

/// `parts` joined into one string of the exact size (labels are made per feature per derive:
/// cheaper than `format!`).
fn joined(parts: &[&str]) -> String {
    let mut s = String::with_capacity(parts.iter().map(|p| p.len()).sum());
    for p in parts {
        s.push_str(p);
    }
    s
}

/// Derives the sheet values of `build` from its `resolved` grants and the `catalog`.
pub fn derive(build: &Build, resolved: &Resolved, catalog: &Catalog) -> Derived {
    let mut d = Derived::default();
    let class_levels: u32 = resolved.classes.iter().map(|c| c.level).sum();
    d.level = if class_levels > 0 {
        class_levels.min(20)
    } else {
        build.classless_level.unwrap_or(1).clamp(1, 20)
    };
    d.proficiency_bonus = proficiency_bonus(d.level).unwrap_or(2);

    // Which catalog entries are in play.
    let mut in_play: Vec<InPlay<'_>> = Vec::new();
    let race_label = resolved.race.as_ref().map(|r| {
        r.subrace
            .clone()
            .unwrap_or_else(|| r.name.clone())
            .to_lowercase()
    });
    if let Some(r) = &resolved.race {
        if let Some(entry) = r.index.as_ref().and_then(|i| catalog.races.get(i)) {
            in_play.push(InPlay {
                entry,
                label: format!("race: {}", r.name),
                class: None,
            });
        }
        for (index, name, _) in &r.traits {
            d.features.push(name.clone());
            let Some(index) = index else { continue };
            let label = format!("{name} ({})", race_label.as_deref().unwrap_or_default());
            match catalog.traits.get(index) {
                Some(entry) => in_play.push(InPlay {
                    entry,
                    label,
                    class: None,
                }),
                None => d.narrative.push(format!(
                    "{label}: not in the mechanics catalog yet; the DM applies it"
                )),
            }
        }
    }
    // Each class feature's catalog entry, looked up once.
    let entries = super::options::feature_entries(resolved, catalog);
    for (i, c) in resolved.classes.iter().enumerate() {
        let class_tag = format!("{} {}", c.name.to_lowercase(), c.level);
        let looked = entries.get(i).map_or(&[][..], Vec::as_slice);
        for ((index, name), entry) in c.features.iter().zip(looked) {
            if index.contains("ability-score-improvement") {
                continue;
            }
            if !d.features.contains(name) {
                d.features.push(name.clone());
            }
            match *entry {
                Some(entry) => in_play.push(InPlay {
                    entry,
                    label: joined(&[name, " (", &class_tag, ")"]),
                    class: Some(i),
                }),
                None => d.narrative.push(joined(&[
                    name,
                    " (",
                    &class_tag,
                    "): not in the mechanics catalog yet; no automation, the DM applies it",
                ])),
            }
        }
        // The chosen style applies once the class has its Fighting Style feature.
        let has_feature = c
            .features
            .iter()
            .any(|(index, _)| index.ends_with("fighting-style"));
        if let (Some(style), Some(idx), true) =
            (&build.choices.fighting_style, &c.index, has_feature)
        {
            let style = style.to_lowercase().replace([' ', '_'], "-");
            let key = if idx == "fighter" || idx == "ranger" {
                format!("{idx}-fighting-style-{style}")
            } else {
                format!("fighting-style-{style}")
            };
            let entry = catalog.features.get(&key);
            if entry.is_none() {
                d.choices.push(format!(
                    "fighting style '{style}' is not a {} option (fightingStyle): not applied",
                    c.name
                ));
            }
            if let Some(entry) = entry
                && !d.fighting_styles.contains(&style)
            {
                let title: Vec<String> = style
                    .split('-')
                    .map(|w| {
                        let mut ch = w.chars();
                        ch.next()
                            .map(|f| f.to_uppercase().collect::<String>() + ch.as_str())
                            .unwrap_or_default()
                    })
                    .collect();
                d.features.push(format!(
                    "Fighting Style: {}",
                    title.join(" ").replace("Two Weapon", "Two-Weapon")
                ));
                // The style's rule applies when its entry grants it (Protection's does not).
                if entry
                    .grants
                    .iter()
                    .any(|g| matches!(g, Grant::FightingStyle { style: s } if *s == style))
                {
                    d.fighting_styles.push(style.clone());
                }
                in_play.push(InPlay {
                    entry,
                    label: format!("fighting style: {style}"),
                    class: Some(i),
                });
            }
        }
    }
    // Subclass, placeholder, fighting-style and option choices; chosen options join the play.
    for p in super::options::apply(&mut d, build, resolved, catalog, &entries) {
        in_play.push(InPlay {
            entry: p.entry,
            label: p.label,
            class: Some(p.class),
        });
    }
    if let Some(b) = &resolved.background {
        if let Some(f) = &b.feature {
            d.features.push(f.clone());
        }
        if let Some(entry) = b.index.as_ref().and_then(|i| catalog.backgrounds.get(i)) {
            in_play.push(InPlay {
                entry,
                label: format!("background: {}", b.name),
                class: None,
            });
        }
    }
    // Ability Score Improvements: the recorded choices (feats join what is in play).
    let asi = super::asi::apply(&mut d, resolved, &build.choices.asi, catalog);
    for (label, entry) in &asi.feats {
        in_play.push(InPlay {
            entry,
            label: label.clone(),
            class: None,
        });
    }
    for p in &in_play {
        if let Some(reason) = &p.entry.narrative {
            d.narrative
                .push(joined(&[&p.label, ": no automation, ", reason]));
        }
    }

    // Ability scores: base → race → choices → catalog bonuses → later changes.
    let mut scores = build.base_scores;
    let mut add = |d: &mut Derived, a: Ability, n: i32, src: String| {
        if n == 0 {
            return;
        }
        let v = i64::from(scores.get(a)) + i64::from(n);
        let _ = scores.set(a, v.clamp(1, 30));
        d.ability_sources
            .entry(a)
            .or_default()
            .push(Contribution::new(src, n));
    };
    if let Some(r) = &resolved.race {
        for (a, n, src) in &r.bonuses {
            add(&mut d, *a, *n, src.clone());
        }
        if let Some((count, from)) = &r.bonus_choice {
            let chosen: Vec<Ability> = build
                .choices
                .ability_choices
                .iter()
                .copied()
                .filter(|a| from.is_empty() || from.contains(a))
                .take(usize::from(*count))
                .collect();
            for a in &chosen {
                add(&mut d, *a, 1, format!("race: {} (chosen)", r.name));
            }
            if chosen.len() < usize::from(*count) {
                d.choices.push(format!(
                    "{}: choose {} more abilit{} for +1 (abilityChoices)",
                    r.name,
                    usize::from(*count) - chosen.len(),
                    if usize::from(*count) - chosen.len() == 1 {
                        "y"
                    } else {
                        "ies"
                    }
                ));
            }
        }
    }
    for p in &in_play {
        for g in &p.entry.grants {
            if let Grant::AbilityBonus { ability, amount } = g {
                add(&mut d, *ability, *amount, p.label.clone());
            }
        }
    }
    for (label, a, n) in &asi.increases {
        let now = i32::from(build.base_scores.get(*a))
            + d.ability_sources
                .get(a)
                .map_or(0, |v| v.iter().map(|c| c.delta).sum::<i32>());
        let up = super::asi::capped(now, *n);
        if up < *n {
            d.choices.push(format!(
                "{label}: +{n} {} stops at 20 (+{up} applied)",
                a.abbr()
            ));
        }
        add(&mut d, *a, up, label.clone());
    }
    for (a, n) in &build.ability_changes {
        add(
            &mut d,
            *a,
            *n,
            "ability score changes (improvements, DM edits)".into(),
        );
    }
    d.abilities = scores;
    let mods: BTreeMap<Ability, i32> = Ability::ALL
        .iter()
        .map(|a| (*a, ability_modifier(scores.get(*a))))
        .collect();
    let pb = d.proficiency_bonus;
    let char_level = d.level;
    // One context per class and one for the other sources, made once.
    let class_ctx: Vec<AmountContext<'_>> = resolved
        .classes
        .iter()
        .map(|c| AmountContext {
            level: c.level,
            class_specific: Some(&c.class_specific),
            modifiers: mods.clone(),
            proficiency: pb,
        })
        .collect();
    let other_ctx = AmountContext {
        level: char_level,
        class_specific: None,
        modifiers: mods.clone(),
        proficiency: pb,
    };
    let ctx_for = |class: Option<usize>| -> &AmountContext<'_> {
        class.and_then(|i| class_ctx.get(i)).unwrap_or(&other_ctx)
    };
    let con = mods.get(&Ability::Constitution).copied().unwrap_or(0);

    // Hit points: the first level's die at its maximum, later levels as recorded (else the
    // average), CON modifier per level (each level gains at least 1), per-level grants.
    let mut hp: i64 = 0;
    let mut first = true;
    for (i, c) in resolved.classes.iter().enumerate() {
        let die = HitDie::from_faces(c.hit_die).unwrap_or(HitDie::D8);
        let recorded = build.classes.get(i).map(|b| &b.hp);
        let mut rolled = 0u32;
        let mut dice_total: i64 = 0;
        let mut con_total: i64 = 0;
        for l in 1..=c.level {
            let v = if first {
                first = false;
                die.faces()
            } else if let Some(v) = recorded.and_then(|m| m.get(&l)) {
                rolled += 1;
                *v
            } else {
                die.average()
            };
            let gain = (i64::from(v) + i64::from(con)).max(1);
            dice_total += i64::from(v);
            con_total += gain - i64::from(v);
        }
        hp += dice_total + con_total;
        let how = if rolled > 0 {
            format!("{rolled} recorded")
        } else {
            "maximum at 1st, average after".to_string()
        };
        d.max_hp_sources.push(Contribution::new(
            format!(
                "{} {}: d{} × {} ({how})",
                c.name, c.level, c.hit_die, c.level
            ),
            i32::try_from(dice_total).unwrap_or(i32::MAX),
        ));
        if con_total != 0 {
            d.max_hp_sources.push(Contribution::new(
                format!("CON {con:+} × {} levels", c.level),
                i32::try_from(con_total).unwrap_or(0),
            ));
        }
        d.hit_dice.push(Sourced {
            value: (c.hit_die, c.level),
            source: c.name.clone(),
        });
    }
    if resolved.classes.is_empty() {
        let die = HitDie::D8;
        let mut total: i64 = 0;
        for l in 1..=d.level {
            let v = if l == 1 { die.faces() } else { die.average() };
            total += (i64::from(v) + i64::from(con)).max(1);
        }
        hp = total;
        d.max_hp_sources.push(Contribution::new(
            format!(
                "no class: d8 × {} (maximum at 1st, average after) with CON {con:+}",
                d.level
            ),
            i32::try_from(total).unwrap_or(i32::MAX),
        ));
        d.hit_dice.push(Sourced {
            value: (8, d.level),
            source: "no class".into(),
        });
    }
    for p in &in_play {
        for g in &p.entry.grants {
            if let Grant::HpPerLevel {
                amount,
                per_class_level,
            } = g
            {
                let levels = match (
                    *per_class_level,
                    p.class.and_then(|i| resolved.classes.get(i)),
                ) {
                    (true, Some(c)) => c.level,
                    _ => d.level,
                };
                let n = i64::from(*amount) * i64::from(levels);
                hp += n;
                d.hp_grants += i32::try_from(n).unwrap_or(0);
                d.max_hp_sources.push(Contribution::new(
                    format!("{} ({amount:+} × {levels} levels)", p.label),
                    i32::try_from(n).unwrap_or(0),
                ));
            }
        }
    }
    if let Some(m) = build.overrides.max_hp {
        d.max_hp_sources = vec![Contribution::new(
            "max HP as set (manual override)",
            m as i32,
        )];
        hp = i64::from(m);
    }
    if build.overrides.max_hp_adjust != 0 {
        hp += i64::from(build.overrides.max_hp_adjust);
        d.max_hp_sources.push(Contribution::new(
            "manual adjustment (kept from the earlier sheet)",
            build.overrides.max_hp_adjust,
        ));
    }
    d.max_hp = u32::try_from(hp.clamp(1, 10_000)).unwrap_or(1);

    // Size, speed, AC.
    let race = resolved.race.as_ref();
    d.size = build
        .overrides
        .size
        .or(race.and_then(|r| r.size))
        .or(Some(tabletop_rules::Size::Medium));
    let base_speed = race.map_or(30, |r| r.speed);
    d.speed_sources.push(Contribution::new(
        race.map_or("no race: 30 ft".to_string(), |r| {
            format!("race: {}", r.name)
        }),
        i32::try_from(base_speed).unwrap_or(30),
    ));
    let mut speed = i64::from(base_speed);
    d.ac_formulas.push(AcFormula {
        source: "unarmored: 10 + DEX".into(),
        base: 10,
        abilities: vec![Ability::Dexterity],
        shield: true,
    });
    d.armor_class_override = build.overrides.armor_class;

    // Saves: the first class's (a later class gives none), then grants.
    if let Some(c) = resolved.classes.first() {
        for a in &c.saves {
            d.saves.insert(*a, format!("class: {}", c.name));
        }
    }
    // Skills from the background and traits, then choices.
    let skill = |d: &mut Derived, s: Skill, src: String| {
        d.skills.entry(s).or_insert(Sourced {
            value: ProficiencyLevel::Proficient,
            source: src,
        });
    };
    if let Some(b) = &resolved.background {
        for s in &b.skills {
            skill(&mut d, *s, format!("background: {}", b.name));
        }
        let src = format!("background: {}", b.name);
        for p in &b.proficiencies {
            push_unique(&mut d.proficiencies, p, &src);
        }
    }
    if let Some(r) = race {
        for (_, name, profs) in &r.traits {
            for p in profs {
                match proficiency_skill(p) {
                    Some(s) => skill(&mut d, s, format!("{name} ({})", r.name.to_lowercase())),
                    None => push_unique(
                        &mut d.proficiencies,
                        p,
                        &format!("{name} ({})", r.name.to_lowercase()),
                    ),
                }
            }
        }
        let src = format!("race: {}", r.name);
        for l in &r.languages {
            push_unique(&mut d.languages, l, &src);
        }
    }
    for (i, c) in resolved.classes.iter().enumerate() {
        let src = if i == 0 {
            format!("class: {}", c.name)
        } else {
            format!("class: {} (multiclass)", c.name)
        };
        for p in &c.proficiencies {
            push_unique(&mut d.proficiencies, p, &src);
        }
        // An SRD class casts from the level of its Spellcasting (Pact Magic) feature; a
        // custom class from its first.
        let casts = c.index.is_none()
            || entries.get(i).is_some_and(|looked| {
                looked
                    .iter()
                    .flatten()
                    .any(|e| e.grants.iter().any(|g| matches!(g, Grant::Spellcasting)))
            });
        if d.spellcasting_ability.is_none() && casts {
            d.spellcasting_ability = c.spellcasting;
        }
    }
    // Class skill choices: chosen skills on the class list count toward it.
    let mut chosen: Vec<Skill> = build.choices.skills.clone();
    if let Some(c) = resolved.classes.first()
        && let Some((count, from)) = &c.skill_choice
    {
        let mut taken = 0usize;
        chosen.retain(|s| {
            let fits = (from.is_empty() || from.contains(s))
                && taken < usize::from(*count)
                && !d.skills.contains_key(s);
            if fits {
                taken += 1;
                d.skills.insert(
                    *s,
                    Sourced {
                        value: ProficiencyLevel::Proficient,
                        source: format!("class: {} (chosen)", c.name),
                    },
                );
            }
            !fits
        });
        if taken < usize::from(*count) {
            let opts: Vec<&str> = from.iter().map(|s| s.key()).collect();
            d.choices.push(format!(
                "{}: {} class skill(s) still to choose from {}",
                c.name,
                usize::from(*count) - taken,
                opts.join(", ")
            ));
        }
    }
    for s in chosen {
        skill(&mut d, s, "chosen".into());
    }
    for l in &build.choices.languages {
        push_unique(&mut d.languages, l, "chosen");
    }

    // Grants.
    let mut resources: Vec<ResourceSpec> = Vec::new();
    let mut expertise_slots = 0usize;
    let mut skill_choice_slots = 0usize;
    for p in &in_play {
        let ctx = ctx_for(p.class);
        if let Some(n) = &p.entry.note {
            d.modifiers.push(Modifier::new(
                &p.label,
                ModifierKind::Note { text: n.clone() },
            ));
        }
        for g in &p.entry.grants {
            match g {
                Grant::AbilityBonus { .. }
                | Grant::HpPerLevel { .. }
                | Grant::AbilityScoreImprovement
                | Grant::Subclass
                | Grant::SubclassFeatures
                | Grant::OptionChoice { .. }
                | Grant::FightingStyleChoice
                | Grant::FightingStyle { .. }
                | Grant::Spellcasting
                | Grant::SubclassSpells
                | Grant::OptionPrerequisite { .. }
                | Grant::AnyListSpells { .. }
                | Grant::AnyListCantrips { .. } => {}
                Grant::Skill { skill: s } => skill(&mut d, *s, p.label.clone()),
                Grant::SkillChoice { count, .. } => skill_choice_slots += usize::from(*count),
                Grant::Expertise { count } => expertise_slots += usize::from(*count),
                Grant::Save { ability } => {
                    d.saves.entry(*ability).or_insert_with(|| p.label.clone());
                }
                Grant::Proficiency { names } => {
                    for n in names {
                        push_unique(&mut d.proficiencies, n, &p.label);
                    }
                }
                // The choices are counted once, below.
                Grant::Language { name, .. } => {
                    if let Some(n) = name {
                        push_unique(&mut d.languages, n, &p.label);
                    }
                }
                Grant::Resistance { damage } => d.resistances.push(Sourced {
                    value: *damage,
                    source: p.label.clone(),
                }),
                Grant::Immunity { damage } => d.immunities.push(Sourced {
                    value: *damage,
                    source: p.label.clone(),
                }),
                Grant::ConditionImmunity { condition } => d.condition_immunities.push(Sourced {
                    value: *condition,
                    source: p.label.clone(),
                }),
                Grant::SaveAdvantage { against } => {
                    d.save_advantages.push(Sourced {
                        value: against.clone(),
                        source: p.label.clone(),
                    });
                    d.modifiers.push(Modifier::new(
                        &p.label,
                        ModifierKind::Note {
                            text: format!("advantage on saving throws against {against}"),
                        },
                    ))
                }
                Grant::SeenSaveAdvantage { ability } => {
                    d.save_advantages.push(Sourced {
                        value: crate::model::gear::seen_effects(*ability),
                        source: p.label.clone(),
                    });
                    d.modifiers.push(Modifier::new(
                        &p.label,
                        ModifierKind::Note {
                            text: format!(
                                "advantage on {} saving throws against effects it can see (not \
                                 while blinded, deafened or incapacitated)",
                                ability.abbr()
                            ),
                        },
                    ))
                }
                Grant::Sense { sense, feet } => d.senses.push(Sourced {
                    value: (sense.clone(), *feet),
                    source: p.label.clone(),
                }),
                Grant::Speed {
                    feet,
                    unarmored,
                    no_heavy_armor,
                } => {
                    let f = i32::try_from(feet.eval(ctx)).unwrap_or(0);
                    if f == 0 {
                        continue;
                    }
                    if *unarmored || *no_heavy_armor {
                        d.speed_rules.push(SpeedRule {
                            source: p.label.clone(),
                            feet: f,
                            unarmored: *unarmored,
                            no_heavy_armor: *no_heavy_armor,
                        });
                    } else {
                        speed += i64::from(f);
                        d.speed_sources.push(Contribution::new(&p.label, f));
                    }
                }
                Grant::IgnoreHeavyArmorSpeed => d.ignore_heavy_armor_speed.push(p.label.clone()),
                Grant::MoveThroughLarger => d.move_through_larger.push(p.label.clone()),
                Grant::HideBehindLarger => d.hide_behind_larger.push(p.label.clone()),
                Grant::TopicExpertise { skill, topics } => d.topic_expertise.push(Sourced {
                    value: (*skill, topics.clone()),
                    source: p.label.clone(),
                }),
                Grant::AcFormula {
                    base,
                    abilities,
                    shield,
                } => {
                    let parts: Vec<&str> = abilities.iter().map(|a| a.abbr()).collect();
                    d.ac_formulas.push(AcFormula {
                        source: format!("{}: {base} + {}", p.label, parts.join(" + ")),
                        base: *base,
                        abilities: abilities.clone(),
                        shield: *shield,
                    });
                }
                Grant::Resource {
                    name,
                    max,
                    recharge,
                } => {
                    let m = u32::try_from(max.eval(ctx).max(0)).unwrap_or(0);
                    let spec = ResourceSpec {
                        name: name.clone(),
                        max: m,
                        recharge: *recharge,
                        source: p.label.clone(),
                    };
                    // A later grant of the same resource (Font of Inspiration) replaces it.
                    match resources
                        .iter_mut()
                        .find(|r| crate::model::names::same_name(&r.name, name))
                    {
                        Some(r) => *r = spec,
                        None => resources.push(spec),
                    }
                }
                Grant::ExtraDamage { name, dice, when } => {
                    if let Some((count, faces)) = dice.eval(ctx) {
                        d.riders.push(RiderSpec {
                            name: name.clone(),
                            count,
                            faces,
                            when: *when,
                            source: p.label.clone(),
                        });
                    }
                }
                Grant::Action {
                    name,
                    cost,
                    resource,
                    does,
                } => {
                    let (heal_plus, damage_bonus) = match does {
                        Use::Heal { plus, .. } => (plus.as_ref().map_or(0, |a| a.eval(ctx)), 0),
                        Use::SplitHeal { pool, .. } => (pool.eval(ctx), 0),
                        Use::Inspire { die, .. } => (die.eval(ctx), 0),
                        Use::Effect { damage_bonus, .. } => {
                            (0, damage_bonus.as_ref().map_or(0, |a| a.eval(ctx)))
                        }
                        _ => (0, 0),
                    };
                    let area_save = match does {
                        Use::Breath { dc_ability } => super::build::breath(
                            resolved.race.as_ref().and_then(|r| r.breath.as_ref()),
                            *dc_ability,
                            ctx,
                        ),
                        _ => None,
                    };
                    d.actions.retain(|a| a.name != *name);
                    d.actions.push(ActionSpec {
                        name: name.clone(),
                        cost: *cost,
                        resource: resource.clone(),
                        does: does.clone(),
                        heal_plus,
                        damage_bonus,
                        area_save,
                        source: p.label.clone(),
                    });
                }
                Grant::CasterRule { rule } => d.class_rules.push(super::CasterRuleSpec {
                    rule: *rule,
                    level: ctx.level,
                    source: p.label.clone(),
                }),
                Grant::Modifier { modifier } => {
                    d.modifiers.push(Modifier::new(&p.label, modifier.clone()))
                }
                Grant::MartialArts { dice } => d.martial_arts = dice.eval(ctx),
                Grant::CritRange { min } => {
                    d.crit_min = Some(d.crit_min.map_or(*min, |m| m.min(*min)));
                }
                Grant::HalfProficiency { abilities } => {
                    let all = if abilities.is_empty() {
                        Ability::ALL
                    } else {
                        abilities.as_slice()
                    };
                    for a in all {
                        d.half_proficiency.insert(*a, p.label.clone());
                    }
                }
                Grant::NoAdvantageAgainst => d.no_advantage_against = Some(p.label.clone()),
                Grant::Rule { rule } => {
                    if !d.has_rule(*rule) {
                        d.rules.push(Sourced {
                            value: *rule,
                            source: p.label.clone(),
                        });
                        super::build::own_aura(&mut d, *rule, ctx, &p.label);
                    }
                }
                Grant::BrutalCritical { dice } => d.brutal_critical = d.brutal_critical.max(*dice),
                Grant::SavageAttacks => d.savage_attacks = true,
                Grant::DestroyUndead { cr } => {
                    d.destroy_undead_cr = Some(d.destroy_undead_cr.map_or(*cr, |m| m.max(*cr)));
                }
                Grant::ExtraAttack { attacks } => {
                    d.attacks_per_action = d.attacks_per_action.max(*attacks);
                }
                Grant::FeatureSpell { .. }
                | Grant::SpellRider { .. }
                | Grant::SpellShaping { .. }
                | Grant::KillTempHp { .. } => {
                    crate::derive::spell_grants::apply(&mut d, g, ctx, &p.label)
                }
            }
        }
    }
    d.resources = resources;
    // Choices the sources ask for beyond the class's: Skill Versatility, expertise.
    let class_choice = resolved
        .classes
        .first()
        .and_then(|c| c.skill_choice.as_ref())
        .map_or(0, |(n, _)| usize::from(*n));
    let extra_chosen = build.choices.skills.len().saturating_sub(class_choice);
    if skill_choice_slots > extra_chosen {
        d.choices.push(format!(
            "{} more skill(s) of the player's choice (skills)",
            skill_choice_slots - extra_chosen
        ));
    }
    language_choices_open(&mut d, resolved, build, catalog);
    // A dragonborn's ancestry gives its resistance and its Breath Weapon's area, save and type.
    if resolved
        .race
        .as_ref()
        .is_some_and(|r| r.index.as_deref() == Some("dragonborn"))
        && build.choices.draconic_ancestry.is_none()
    {
        d.choices.push(
            "Draconic Ancestry: choose a colour (draconicAncestry at creation): black, blue, brass, bronze, copper, gold, green, red, silver, white; until then no damage resistance and Breath Weapon is the DM's"
                .into(),
        );
    }
    for s in &build.choices.expertise {
        if let Some(x) = d.skills.get_mut(s) {
            x.value = ProficiencyLevel::Expertise;
            x.source = format!("{} + expertise", x.source);
        } else {
            d.choices.push(format!(
                "expertise in {} needs proficiency in it first",
                s.key()
            ));
        }
    }
    if expertise_slots > build.choices.expertise.len() {
        d.choices.push(format!(
            "{} expertise choice(s) open (expertise)",
            expertise_slots - build.choices.expertise.len()
        ));
    }

    // Overrides.
    if let Some(saves) = &build.overrides.saves {
        d.saves = saves
            .iter()
            .map(|a| (*a, "as set (manual override)".to_string()))
            .collect();
    }
    if let Some(skills) = &build.overrides.skills {
        d.skills = skills
            .iter()
            .filter(|(_, l)| **l != ProficiencyLevel::None)
            .map(|(s, l)| {
                (
                    *s,
                    Sourced {
                        value: *l,
                        source: "as set (manual override)".into(),
                    },
                )
            })
            .collect();
    }
    if let Some(langs) = &build.overrides.languages {
        d.languages = langs
            .iter()
            .map(|l| Sourced {
                value: l.clone(),
                source: "as set (manual override)".into(),
            })
            .collect();
    }
    if let Some(s) = build.overrides.speed {
        d.speed_sources = vec![Contribution::new(
            "speed as set (manual override)",
            i32::try_from(s).unwrap_or(30),
        )];
        speed = i64::from(s);
    }
    d.speed = u32::try_from(speed.clamp(0, 1_000)).unwrap_or(0);
    d.resistances
        .retain(|r| !build.overrides.removed_resistances.contains(&r.value));
    for (list, extra) in [
        (&mut d.resistances, &build.overrides.resistances),
        (&mut d.immunities, &build.overrides.immunities),
        (&mut d.vulnerabilities, &build.overrides.vulnerabilities),
    ] {
        for t in extra {
            if !list.iter().any(|x| x.value == *t) {
                list.push(Sourced {
                    value: *t,
                    source: "as set (manual)".into(),
                });
            }
        }
    }
    for c in &build.overrides.condition_immunities {
        if !d.condition_immunities.iter().any(|x| x.value == *c) {
            d.condition_immunities.push(Sourced {
                value: *c,
                source: "as set (manual)".into(),
            });
        }
    }
    d.choices.extend(resolved.unresolved.iter().cloned());
    // Experience: the next level's threshold, and whether the XP already reaches it.
    d.xp = build.xp;
    d.next_level_xp = tabletop_rules::advancement::xp_for_level(d.level + 1);
    let reached = tabletop_rules::advancement::level_for_xp(build.xp);
    if reached > d.level && class_levels > 0 {
        d.can_level_to = Some(reached);
        d.choices.push(format!(
            "XP {} reaches level {reached}: level up with level_up ({} level{} to gain)",
            build.xp,
            reached - d.level,
            if reached - d.level == 1 { "" } else { "s" }
        ));
    }
    d
}

/// The languages of the player's choice the sources give and the build has not chosen yet, as
/// one open choice naming the sources.
fn language_choices_open(d: &mut Derived, resolved: &Resolved, build: &Build, catalog: &Catalog) {
    let sources = super::build::language_choices(resolved, catalog);
    let allowed: usize = sources.iter().map(|(_, n)| n).sum();
    let fixed = super::build::fixed_languages(resolved, catalog);
    let chosen = super::build::chosen_beyond(&fixed, &build.choices.languages).len();
    if allowed > chosen {
        let from: Vec<String> = sources.iter().map(|(s, n)| format!("{s} {n}")).collect();
        d.choices.push(format!(
            "{} language(s) of the player's choice (languages): {}",
            allowed - chosen,
            from.join(", ")
        ));
    }
}
