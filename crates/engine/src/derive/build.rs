//! Making a build at creation: the choices the sources ask for that the request leaves open,
//! chosen sensibly and said so.

use tabletop_rules::abilities::ability_modifier;
use tabletop_rules::{Ability, Skill};

use super::{Build, Resolved};
use crate::catalog::{Catalog, Grant};

/// How many skills of free choice the race's traits give (half-elf Skill Versatility: 2).
pub fn race_skill_choices(resolved: &Resolved, catalog: &Catalog) -> usize {
    let Some(r) = &resolved.race else { return 0 };
    r.traits
        .iter()
        .filter_map(|(i, _, _)| i.as_ref().and_then(|i| catalog.traits.get(i)))
        .flat_map(|e| &e.grants)
        .map(|g| match g {
            Grant::SkillChoice { count, .. } => usize::from(*count),
            _ => 0,
        })
        .sum()
}

/// The languages of the player's choice a build's sources give, each as (source, how many):
/// the race's own (a human's one), its traits' (a high elf's Extra Language), the background's
/// (an acolyte's two).
pub fn language_choices(resolved: &Resolved, catalog: &Catalog) -> Vec<(String, usize)> {
    let mut out = Vec::new();
    let count = |grants: &[Grant]| -> usize {
        grants
            .iter()
            .map(|g| match g {
                Grant::Language { choose, .. } => usize::from(*choose),
                _ => 0,
            })
            .sum()
    };
    if let Some(r) = &resolved.race {
        if let Some((n, _)) = &r.language_choice {
            out.push((format!("race: {}", r.name), usize::from(*n)));
        }
        for (i, name, _) in &r.traits {
            if let Some(e) = i.as_ref().and_then(|i| catalog.traits.get(i)) {
                let n = count(&e.grants);
                if n > 0 {
                    out.push((name.clone(), n));
                }
            }
        }
    }
    for c in &resolved.classes {
        for (i, name) in &c.features {
            if let Some(e) = catalog.features.get(i) {
                let n = count(&e.grants);
                if n > 0 {
                    out.push((format!("{} ({})", name, c.name), n));
                }
            }
        }
    }
    if let Some(b) = &resolved.background
        && let Some(e) = b.index.as_ref().and_then(|i| catalog.backgrounds.get(i))
    {
        let n = count(&e.grants);
        if n > 0 {
            out.push((format!("background: {}", b.name), n));
        }
    }
    out
}

/// The languages a build's sources give without a choice (the race's, named grants).
pub fn fixed_languages(resolved: &Resolved, catalog: &Catalog) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut named = |grants: &[Grant]| {
        for g in grants {
            if let Grant::Language { name: Some(n), .. } = g {
                out.push(n.clone());
            }
        }
    };
    for c in &resolved.classes {
        for (i, _) in &c.features {
            if let Some(e) = catalog.features.get(i) {
                named(&e.grants);
            }
        }
    }
    if let Some(r) = &resolved.race {
        for (i, _, _) in &r.traits {
            if let Some(e) = i.as_ref().and_then(|i| catalog.traits.get(i)) {
                named(&e.grants);
            }
        }
        out.extend(r.languages.iter().cloned());
    }
    out
}

/// The chosen languages that are not among `fixed` (each once): the ones that count against
/// the sources' choices.
pub fn chosen_beyond<'a>(fixed: &[String], chosen: &'a [String]) -> Vec<&'a String> {
    use crate::model::names::name_key;
    let mut extra: Vec<&String> = Vec::new();
    for l in chosen {
        let k = name_key(l);
        if !fixed.iter().any(|f| name_key(f) == k) && !extra.iter().any(|x| name_key(x) == k) {
            extra.push(l);
        }
    }
    extra
}

/// Chosen languages beyond the fixed ones, against what the sources allow: "Human chooses 1
/// language (race: Human 1); 3 were given: …", or `None` within the count.
pub fn language_excess(
    resolved: &Resolved,
    catalog: &Catalog,
    chosen: &[String],
) -> Option<String> {
    let fixed = fixed_languages(resolved, catalog);
    let extra = chosen_beyond(&fixed, chosen);
    let sources = language_choices(resolved, catalog);
    let allowed: usize = sources.iter().map(|(_, n)| n).sum();
    if extra.len() <= allowed {
        return None;
    }
    let from = if sources.is_empty() {
        "no source gives a choice".to_string()
    } else {
        sources
            .iter()
            .map(|(s, n)| format!("{s} {n}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    Some(format!(
        "languages: {allowed} of the player's choice ({from}) beyond {}; {} given: {} (a DM who grants more sets them afterwards with update_character languages)",
        if fixed.is_empty() {
            "none fixed".to_string()
        } else {
            fixed.join(", ")
        },
        extra.len(),
        extra
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    ))
}

/// Skills the background and race give without a choice.
pub fn granted_skills(resolved: &Resolved) -> Vec<Skill> {
    let mut v: Vec<Skill> = resolved
        .background
        .as_ref()
        .map(|b| b.skills.clone())
        .unwrap_or_default();
    if let Some(r) = &resolved.race {
        for (_, _, profs) in &r.traits {
            v.extend(
                profs
                    .iter()
                    .filter_map(|p| super::resolve::proficiency_skill(p)),
            );
        }
    }
    v
}

/// Makes the choices the request left open: class skills, the half-elf's two +1s and two
/// skills, expertise. Picks favour the character's best abilities; each pick is one line of
/// the answer ("chosen for you: …; give skills to choose yourself").
pub fn fill_choices(b: &mut Build, resolved: &Resolved, catalog: &Catalog) -> Vec<String> {
    let mut lines = Vec::new();
    // Scores with the race's fixed bonuses, to rank abilities.
    let mut scores = b.base_scores;
    if let Some(r) = &resolved.race {
        for (a, n, _) in &r.bonuses {
            let _ = scores.set(*a, (i64::from(scores.get(*a)) + i64::from(*n)).clamp(1, 30));
        }
        if let Some((count, from)) = &r.bonus_choice
            && b.choices.ability_choices.len() < usize::from(*count)
        {
            let mut opts: Vec<Ability> = from
                .iter()
                .copied()
                .filter(|a| !b.choices.ability_choices.contains(a))
                .collect();
            // Highest score first; an odd score gains most from +1.
            opts.sort_by_key(|a| {
                let s = i32::from(scores.get(*a));
                (-(s + (s % 2)), -s)
            });
            let need = usize::from(*count) - b.choices.ability_choices.len();
            let picked: Vec<Ability> = opts.into_iter().take(need).collect();
            for a in &picked {
                let _ = scores.set(*a, i64::from(scores.get(*a)) + 1);
            }
            lines.push(format!(
                "{}: +1 to {} chosen for you (give abilityChoices to choose)",
                r.name,
                picked
                    .iter()
                    .map(|a| a.abbr())
                    .collect::<Vec<_>>()
                    .join(" and ")
            ));
            b.choices.ability_choices.extend(picked);
        }
    }
    let rank = |s: &Skill| -ability_modifier(scores.get(s.ability()));
    let mut have: Vec<Skill> = granted_skills(resolved);
    // Class skills.
    if let Some(c) = resolved.classes.first()
        && let Some((count, from)) = &c.skill_choice
    {
        let on_list = b
            .choices
            .skills
            .iter()
            .filter(|s| (from.is_empty() || from.contains(s)) && !have.contains(s))
            .count();
        let need = usize::from(*count).saturating_sub(on_list);
        if need > 0 {
            let mut opts: Vec<Skill> = from
                .iter()
                .copied()
                .filter(|s| !b.choices.skills.contains(s) && !have.contains(s))
                .collect();
            opts.sort_by_key(rank);
            let picked: Vec<Skill> = opts.into_iter().take(need).collect();
            lines.push(format!(
                "{} skills chosen for you: {} (give skills to choose from {})",
                c.name,
                picked
                    .iter()
                    .map(|s| s.key())
                    .collect::<Vec<_>>()
                    .join(", "),
                from.iter().map(|s| s.key()).collect::<Vec<_>>().join(", ")
            ));
            b.choices.skills.extend(picked);
        }
    }
    have.extend(b.choices.skills.iter().copied());
    // Free skill choices of the race (Skill Versatility).
    let free = race_skill_choices(resolved, catalog);
    let class_count = resolved
        .classes
        .first()
        .and_then(|c| c.skill_choice.as_ref())
        .map_or(0, |(n, _)| usize::from(*n));
    let extra_given = b.choices.skills.len().saturating_sub(class_count);
    if free > extra_given {
        let mut opts: Vec<Skill> = Skill::ALL
            .iter()
            .copied()
            .filter(|s| !have.contains(s))
            .collect();
        opts.sort_by_key(rank);
        let picked: Vec<Skill> = opts.into_iter().take(free - extra_given).collect();
        lines.push(format!(
            "{} skill(s) of free choice chosen for you: {} (add them to skills to choose)",
            picked.len(),
            picked
                .iter()
                .map(|s| s.key())
                .collect::<Vec<_>>()
                .join(", ")
        ));
        b.choices.skills.extend(picked);
    }
    // Expertise (rogue 1st, bard 3rd, …).
    let expertise: usize = resolved
        .classes
        .iter()
        .flat_map(|c| &c.features)
        .filter_map(|(i, _)| catalog.features.get(i))
        .flat_map(|e| &e.grants)
        .map(|g| match g {
            Grant::Expertise { count } => usize::from(*count),
            _ => 0,
        })
        .sum();
    if expertise > b.choices.expertise.len() {
        let mut all: std::collections::BTreeSet<Skill> =
            granted_skills(resolved).into_iter().collect();
        all.extend(b.choices.skills.iter().copied());
        let mut opts: Vec<Skill> = all
            .into_iter()
            .filter(|s| !b.choices.expertise.contains(s))
            .collect();
        opts.sort_by_key(rank);
        let picked: Vec<Skill> = opts
            .into_iter()
            .take(expertise - b.choices.expertise.len())
            .collect();
        if !picked.is_empty() {
            lines.push(format!(
                "expertise chosen for you: {} (give expertise to choose)",
                picked
                    .iter()
                    .map(|s| s.key())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
            b.choices.expertise.extend(picked);
        }
    }
    lines
}

/// A paladin aura's effect on its bearer (the creatures around it get theirs in a fight, from
/// `combat::martial`): Aura of Protection adds the CHA modifier (min +1) to each of its saves
/// (not death saves: it must be conscious), Aura of Devotion makes it immune to charmed.
pub fn own_aura(
    d: &mut crate::model::build::Derived,
    rule: crate::catalog::class_rules::ClassRule,
    ctx: &crate::catalog::AmountContext<'_>,
    label: &str,
) {
    use crate::catalog::class_rules::ClassRule;
    use tabletop_rules::modifiers::{Modifier, ModifierKind, RollTarget};
    match rule {
        ClassRule::AuraOfProtection => {
            let bonus = ctx
                .modifiers
                .get(&Ability::Charisma)
                .copied()
                .unwrap_or(0)
                .max(1);
            for ability in Ability::ALL {
                d.modifiers.push(Modifier::new(
                    label,
                    ModifierKind::RollBonus {
                        on: RollTarget::Save { ability: *ability },
                        amount: bonus,
                    },
                ));
            }
        }
        ClassRule::AuraOfDevotion => {
            let c = tabletop_rules::Condition::Charmed;
            if !d.condition_immunities.iter().any(|x| x.value == c) {
                d.condition_immunities.push(crate::model::build::Sourced {
                    value: c,
                    source: label.to_string(),
                });
            }
        }
        _ => {}
    }
}

/// A breath weapon at the character's level (`ctx`): the ancestry's area, save and damage type
/// from the SRD, the dice of the highest level reached, DC 8 + `dc_ability` modifier +
/// proficiency. None until an ancestry with a breath weapon is chosen.
pub fn breath(
    data: Option<&tabletop_srd::TraitBreath>,
    dc_ability: Ability,
    ctx: &crate::catalog::AmountContext<'_>,
) -> Option<crate::model::build::AreaSave> {
    let b = data?;
    let dice = b.dice_at(ctx.level)?.to_string();
    Some(crate::model::build::AreaSave {
        shape: b.area.shape,
        size_ft: b.area.size,
        save: b.save,
        dc_ability,
        dc: 8 + ctx.modifiers.get(&dc_ability).copied().unwrap_or(0) + ctx.proficiency,
        half: b.success == tabletop_srd::SaveEffect::Half,
        dice,
        damage_type: b.damage_type,
    })
}
