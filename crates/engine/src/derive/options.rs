//! Choices features ask for at a class level (issue 17): the subclass, a subclass
//! placeholder's features, the fighting style, and the catalog's options (hunter options,
//! eldritch invocations, the dragon ancestor, the land of a Circle of the Land druid, the pact
//! boon). Each is checked against the build and said on the sheet while open; a chosen
//! option's catalog entry joins what is in play, so its grants apply like any feature's.

use super::{Build, Derived, Resolved};
use crate::catalog::{AmountContext, Catalog, Entry, Grant};

/// A chosen option in play: its label, entry and the class offering it.
pub(super) struct Picked<'a> {
    pub label: String,
    pub entry: &'a Entry,
    pub class: usize,
}

/// One option choice a class offers at its level.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Offer {
    /// The options' key prefix ("hunters-prey-").
    pub prefix: String,
    /// How many to choose.
    pub count: usize,
    /// The offering feature's name ("Hunter's Prey").
    pub feature: String,
    /// The offering class (index in the build's classes) and its level.
    pub class: usize,
    /// The offering class's level.
    pub level: u32,
}

/// The catalog entries of each class's features (`resolved.classes[i].features[j]` →
/// `[i][j]`), looked up once per derivation.
pub(super) type FeatureEntries<'a> = Vec<Vec<Option<&'a Entry>>>;

/// Looks up the catalog entry of every class feature of `resolved`.
pub(super) fn feature_entries<'a>(resolved: &Resolved, catalog: &'a Catalog) -> FeatureEntries<'a> {
    resolved
        .classes
        .iter()
        .map(|c| {
            c.features
                .iter()
                .map(|(index, _)| catalog.features.get(index))
                .collect()
        })
        .collect()
}

/// The option choices `resolved`'s classes offer.
pub fn offers(resolved: &Resolved, catalog: &Catalog) -> Vec<Offer> {
    offers_with(resolved, &feature_entries(resolved, catalog))
}

/// [`offers`] with the features' entries looked up.
fn offers_with(resolved: &Resolved, entries: &FeatureEntries<'_>) -> Vec<Offer> {
    let mut out: Vec<Offer> = Vec::new();
    for (i, c) in resolved.classes.iter().enumerate() {
        let ctx = AmountContext {
            level: c.level,
            class_specific: Some(&c.class_specific),
            ..Default::default()
        };
        let looked = entries.get(i).map_or(&[][..], Vec::as_slice);
        for ((_, name), e) in c.features.iter().zip(looked) {
            let Some(e) = e else {
                continue;
            };
            for g in &e.grants {
                if let Grant::OptionChoice { prefix, count } = g {
                    let n = usize::try_from(count.eval(&ctx).max(0)).unwrap_or(0);
                    match out.iter_mut().find(|o| o.prefix == *prefix && o.class == i) {
                        Some(o) => o.count = o.count.max(n),
                        None => out.push(Offer {
                            prefix: prefix.clone(),
                            count: n,
                            feature: name.clone(),
                            class: i,
                            level: c.level,
                        }),
                    }
                }
            }
        }
    }
    out
}

/// The catalog keys an offer lets the player choose from.
pub fn choosable(catalog: &Catalog, prefix: &str) -> Vec<String> {
    catalog
        .features
        .iter()
        .filter(|(k, e)| k.starts_with(prefix) && k.len() > prefix.len() && !offering(e))
        .map(|(k, _)| k.clone())
        .collect()
}

/// An entry that offers the choice itself (Metamagic's "metamagic-2" under "metamagic-") is
/// no option of it.
fn offering(e: &Entry) -> bool {
    e.grants
        .iter()
        .any(|g| matches!(g, Grant::OptionChoice { .. }))
}

/// "eldritch-invocation-devils-sight" under "eldritch-invocation-" → "Devils Sight";
/// "dragon-ancestor-red---fire-damage" → "Red - Fire Damage".
pub fn title(key: &str, prefix: &str) -> String {
    let words = |s: &str| {
        s.split('-')
            .filter(|w| !w.is_empty())
            .map(|w| {
                let mut ch = w.chars();
                ch.next()
                    .map(|f| f.to_uppercase().collect::<String>() + ch.as_str())
                    .unwrap_or_default()
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    key.strip_prefix(prefix)
        .unwrap_or(key)
        .split("---")
        .map(words)
        .collect::<Vec<_>>()
        .join(" - ")
}

/// Why `key` cannot be chosen under `offer` (its prerequisites), if it cannot.
pub fn unmet(catalog: &Catalog, key: &str, offer: &Offer, chosen: &[String]) -> Option<String> {
    let e = catalog.features.get(key)?;
    for g in &e.grants {
        if let Grant::OptionPrerequisite { level, option } = g {
            if offer.level < *level {
                return Some(format!("{key} needs class level {level}"));
            }
            if let Some(o) = option
                && !chosen.iter().any(|c| c == o)
            {
                return Some(format!("{key} needs the option {o}"));
            }
        }
    }
    None
}

/// Says the open subclass, placeholder and fighting-style choices, and puts the chosen options
/// in play (each checked: offered, within the count, prerequisites met).
pub(super) fn apply<'a>(
    d: &mut Derived,
    build: &Build,
    resolved: &Resolved,
    catalog: &'a Catalog,
    entries: &FeatureEntries<'_>,
) -> Vec<Picked<'a>> {
    for (i, c) in resolved.classes.iter().enumerate() {
        let looked = entries.get(i).map_or(&[][..], Vec::as_slice);
        for ((index, name), e) in c.features.iter().zip(looked) {
            let Some(e) = e else {
                continue;
            };
            let at = c.feature_levels.get(index).copied().unwrap_or(c.level);
            for g in &e.grants {
                match g {
                    Grant::Subclass if c.subclass.is_none() => d.choices.push(format!(
                        "{} {}: {name} from level {at}: choose the subclass (subclass): {}",
                        c.name,
                        c.level,
                        c.subclass_options.join(", ")
                    )),
                    Grant::SubclassFeatures => match &c.subclass {
                        Some(sub) => {
                            let got: Vec<&str> = c
                                .subclass_features
                                .iter()
                                .filter(|(l, _)| *l == at)
                                .map(|(_, n)| n.as_str())
                                .collect();
                            if got.is_empty() {
                                d.choices.push(format!(
                                    "{name} ({} {at}): {sub} has no feature of this level in the SRD",
                                    c.name
                                ));
                            } else {
                                d.modifiers.push(tabletop_rules::modifiers::Modifier::new(
                                    format!("{name} ({} {at})", c.name.to_lowercase()),
                                    tabletop_rules::modifiers::ModifierKind::Note {
                                        text: format!("{sub}: {}", got.join(", ")),
                                    },
                                ));
                            }
                        }
                        None => d.choices.push(format!(
                            "{name} ({} {at}): the subclass's features of this level need a subclass (subclass): {}",
                            c.name,
                            c.subclass_options.join(", ")
                        )),
                    },
                    Grant::FightingStyleChoice if build.choices.fighting_style.is_none() => {
                        let styles = match &c.index {
                            Some(idx) => crate::choices::fighting_styles(catalog, idx),
                            None => Vec::new(),
                        };
                        d.choices.push(format!(
                            "{} {}: {name}: choose a fighting style (fightingStyle): {}",
                            c.name,
                            c.level,
                            styles.join(", ")
                        ));
                    }
                    _ => {}
                }
            }
        }
    }
    let mut picked = Vec::new();
    for offer in offers_with(resolved, entries) {
        let Some(c) = resolved.classes.get(offer.class) else {
            continue;
        };
        let mut taken: Vec<String> = Vec::new();
        for key in &build.choices.options {
            if !key.starts_with(&offer.prefix) || taken.contains(key) {
                continue;
            }
            let Some(entry) = catalog.features.get(key).filter(|e| !offering(e)) else {
                continue;
            };
            if taken.len() >= offer.count {
                d.choices.push(format!(
                    "{}: {key} is beyond the {} option(s) {} {} chooses (options): not applied",
                    offer.feature, offer.count, c.name, c.level
                ));
                continue;
            }
            if let Some(why) = unmet(catalog, key, &offer, &build.choices.options) {
                d.choices
                    .push(format!("{}: {why} (options): not applied", offer.feature));
                continue;
            }
            taken.push(key.clone());
            let t = title(key, &offer.prefix);
            // An option that is a feature of its own goes by its name (Evasion, Uncanny Dodge,
            // Agonizing Blast); a land or an ancestry by the feature's.
            if t.contains(" - ") || offer.prefix.starts_with("circle-of-the-land-") {
                d.features.push(format!("{}: {t}", offer.feature));
            } else if !d.features.contains(&t) {
                d.features.push(t.clone());
            }
            picked.push(Picked {
                label: format!(
                    "{}: {t} ({} {})",
                    offer.feature,
                    c.name.to_lowercase(),
                    c.level
                ),
                entry,
                class: offer.class,
            });
        }
        if taken.len() < offer.count {
            let left: Vec<String> = choosable(catalog, &offer.prefix)
                .into_iter()
                .filter(|k| {
                    !taken.contains(k)
                        && unmet(catalog, k, &offer, &build.choices.options).is_none()
                })
                .collect();
            d.choices.push(format!(
                "{} {}: {}: {} more option(s) to choose (options): {}",
                c.name,
                c.level,
                offer.feature,
                offer.count - taken.len(),
                left.join(", ")
            ));
        }
    }
    picked
}
