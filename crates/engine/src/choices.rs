//! Choices a build asks for, checked against what its sources allow (issue 16): a fighting style
//! the class offers (once it has the feature), an SRD subclass of the class, and the half-elf's
//! ability choices. Each refusal names the allowed values. Used by `create_character`.

use tabletop_srd::Compendium;

use crate::catalog::Catalog;
use crate::derive::{Build, Resolved};

/// The fighting styles `class_index` offers, by the mechanics catalog ("archery", "defense", …).
pub fn fighting_styles(catalog: &Catalog, class_index: &str) -> Vec<String> {
    let own = format!("{class_index}-fighting-style-");
    let mut out: Vec<String> = catalog
        .features
        .keys()
        .filter_map(|k| k.strip_prefix(&own).map(str::to_string))
        .collect();
    if out.is_empty() {
        out = catalog
            .features
            .keys()
            .filter_map(|k| k.strip_prefix("fighting-style-").map(str::to_string))
            .collect();
    }
    out
}

/// Every choice in `build` its sources do not allow, each with the allowed values.
pub fn problems(
    srd: &Compendium,
    catalog: &Catalog,
    build: &Build,
    resolved: &Resolved,
) -> Vec<String> {
    let mut out = Vec::new();
    // Subclasses: an SRD subclass of that class.
    for c in &build.classes {
        let (Some(sub), Some(class)) = (c.subclass.as_deref(), srd.class(&c.class)) else {
            continue;
        };
        let ok = srd
            .subclass(sub)
            .is_some_and(|s| s.class.index == class.index);
        if !ok {
            let allowed: Vec<&str> = class.subclasses.iter().map(|r| r.name.as_str()).collect();
            out.push(format!(
                "'{sub}' is not a {} subclass in the SRD (subclass); choose: {}",
                class.name,
                allowed.join(", ")
            ));
        }
    }
    // Fighting style: offered by a class that has the feature at its level.
    if let Some(style) = &build.choices.fighting_style {
        let key = style.to_lowercase().replace([' ', '_'], "-");
        let offering: Vec<(&str, Vec<String>)> = resolved
            .classes
            .iter()
            .filter(|c| {
                c.features
                    .iter()
                    .any(|(index, _)| index.ends_with("fighting-style"))
            })
            .filter_map(|c| {
                let idx = c.index.as_deref()?;
                Some((c.name.as_str(), fighting_styles(catalog, idx)))
            })
            .collect();
        if offering.is_empty() {
            out.push(format!(
                "fightingStyle '{style}': no class here has the Fighting Style feature at its level (fighter 1, paladin 2, ranger 2)"
            ));
        } else if !offering.iter().any(|(_, styles)| styles.contains(&key)) {
            let (class, styles) = &offering[0];
            out.push(format!(
                "fighting style '{style}' is not a {class} option (fightingStyle); choose: {}",
                styles.join(", ")
            ));
        }
    }
    // Draconic Ancestry: a dragonborn's racial choice, one of the SRD's colours.
    if let Some(colour) = &build.choices.draconic_ancestry {
        let race = resolved.race.as_ref();
        let key = colour.trim().to_lowercase();
        if race.and_then(|r| r.index.as_deref()) != Some("dragonborn") {
            let ancestor = crate::derive::options::choosable(catalog, "dragon-ancestor-")
                .into_iter()
                .find(|k| k.starts_with(&format!("dragon-ancestor-{key}-")))
                .unwrap_or_else(|| "dragon-ancestor-…".into());
            out.push(format!(
                "draconicAncestry '{colour}': only a dragonborn has a Draconic Ancestry, and this \
                 build's race is {} (a draconic sorcerer's Dragon Ancestor is an option: options \
                 [\"{ancestor}\"])",
                race.map_or("none", |r| r.name.as_str())
            ));
        } else if srd
            .racial_trait(&format!("draconic-ancestry-{key}"))
            .is_none()
        {
            out.push(format!(
                "draconicAncestry '{colour}' is not an SRD colour; choose: black, blue, brass, \
                 bronze, copper, gold, green, red, silver, white"
            ));
        }
    }
    // Feature options (hunter options, invocations, ancestry, land, pact boon): offered by a
    // class at its level, a catalog key, within the count, prerequisites met.
    let offers = crate::derive::options::offers(resolved, catalog);
    let mut per_offer = vec![0usize; offers.len()];
    for key in &build.choices.options {
        let Some(i) = offers.iter().position(|o| key.starts_with(&o.prefix)) else {
            let open: Vec<String> = offers
                .iter()
                .map(|o| format!("{} ({}*)", o.feature, o.prefix))
                .collect();
            out.push(format!(
                "option '{key}' is not offered by this build's features at their levels (options){}",
                if open.is_empty() {
                    String::new()
                } else {
                    format!("; offered: {}", open.join(", "))
                }
            ));
            continue;
        };
        let o = &offers[i];
        if !crate::derive::options::choosable(catalog, &o.prefix).contains(key) {
            out.push(format!(
                "option '{key}' is not a {} option (options); choose: {}",
                o.feature,
                crate::derive::options::choosable(catalog, &o.prefix).join(", ")
            ));
            continue;
        }
        per_offer[i] += 1;
        if per_offer[i] == o.count + 1 {
            out.push(format!(
                "{} gives {} option(s) at this level (options); more are given",
                o.feature, o.count
            ));
        }
        if let Some(why) = crate::derive::options::unmet(catalog, key, o, &build.choices.options) {
            out.push(format!("{}: {why} (options)", o.feature));
        }
    }
    // Ability choices (half-elf): from the race's options, no more than it grants.
    if let Some(race) = &resolved.race {
        let chosen = &build.choices.ability_choices;
        match &race.bonus_choice {
            None if !chosen.is_empty() => out.push(format!(
                "{} has no ability choices (abilityChoices); its bonuses are fixed",
                race.subrace.as_deref().unwrap_or(&race.name)
            )),
            Some((count, from)) if !chosen.is_empty() => {
                let names = |v: &[tabletop_rules::Ability]| {
                    v.iter()
                        .map(|a| a.abbr().to_lowercase())
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                let off: Vec<tabletop_rules::Ability> = chosen
                    .iter()
                    .copied()
                    .filter(|a| !from.is_empty() && !from.contains(a))
                    .collect();
                let mut unique = chosen.clone();
                unique.sort();
                unique.dedup();
                if !off.is_empty()
                    || chosen.len() > usize::from(*count)
                    || unique.len() < chosen.len()
                {
                    out.push(format!(
                        "{} chooses {count} different abilities for +1 (abilityChoices) from: {}; given: {}",
                        race.name,
                        names(from),
                        names(chosen)
                    ));
                }
            }
            _ => {}
        }
    }
    out
}
