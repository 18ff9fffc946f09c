//! Ability Score Improvements as recorded choices: each ASI feature a character's classes have
//! reached takes the next choice of `choices.asi` in order (classes in order, levels rising):
//! +2 to one ability, +1 to two, or a feat the catalog knows (the SRD's one: Grappler). The
//! derived scores include them (the base scores stay as rolled), an increase stops at 20, and
//! an ASI without a choice is an open choice on the sheet, never skipped in silence.

use tabletop_rules::Ability;

use super::{Derived, Resolved};
use crate::catalog::{Catalog, Entry};

pub use crate::model::build::AsiChoice;

fn feat_key(name: &str) -> String {
    name.trim().to_lowercase().replace([' ', '_'], "-")
}

/// What is wrong with `choices` as ASI choices (empty: nothing).
pub fn problems(choices: &[AsiChoice], catalog: &Catalog) -> Vec<String> {
    let mut v = Vec::new();
    for (i, c) in choices.iter().enumerate() {
        let n = i + 1;
        match (&c.feat, c.abilities.is_empty()) {
            (Some(_), false) => v.push(format!("asi {n}: either abilities or a feat, not both")),
            (None, true) => v.push(format!(
                "asi {n}: give abilities (+2 to one, or +1 to two) or a feat"
            )),
            (Some(f), true) => {
                if !catalog.feats.contains_key(&feat_key(f)) {
                    let known: Vec<&str> = catalog.feats.keys().map(String::as_str).collect();
                    v.push(format!(
                        "asi {n}: '{f}' is not a feat of the SRD (known: {})",
                        known.join(", ")
                    ));
                }
            }
            (None, false) => {
                let total: u32 = c.abilities.values().map(|x| u32::from(*x)).sum();
                let ok = total == 2
                    && c.abilities.len() <= 2
                    && c.abilities.values().all(|x| (1..=2).contains(x));
                if !ok {
                    v.push(format!(
                        "asi {n}: {} is not +2 to one ability or +1 to two",
                        describe(c)
                    ));
                }
            }
        }
    }
    v
}

/// "+2 STR", "+1 STR, +1 CON", "feat Grappler".
pub fn describe(c: &AsiChoice) -> String {
    if let Some(f) = &c.feat {
        return format!("feat {f}");
    }
    c.abilities
        .iter()
        .map(|(a, n)| format!("+{n} {}", a.abbr()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The ASIs `resolved`'s classes have reached, as labels ("Ability Score Improvement (fighter
/// 4)"), in the order choices apply to them.
pub fn slots(resolved: &Resolved) -> Vec<String> {
    let mut v = Vec::new();
    for c in &resolved.classes {
        let mut n = 0;
        let mut class: Option<String> = None;
        for (index, name) in &c.features {
            if index.contains("ability-score-improvement") {
                n += 1;
                let class = class.get_or_insert_with(|| c.name.to_lowercase());
                v.push(format!("{name} {n} ({class})"));
            }
        }
    }
    v
}

/// The ASIs applied: the ability increases (label, ability, points) and the feats' catalog
/// entries (label, entry); open and surplus choices go to `d.choices`.
pub struct Applied<'c> {
    /// Increases, before the cap of 20.
    pub increases: Vec<(String, Ability, i32)>,
    /// Feats taken.
    pub feats: Vec<(String, &'c Entry)>,
}

/// Matches the choices to the slots.
pub fn apply<'c>(
    d: &mut Derived,
    resolved: &Resolved,
    choices: &[AsiChoice],
    catalog: &'c Catalog,
) -> Applied<'c> {
    let mut out = Applied {
        increases: Vec::new(),
        feats: Vec::new(),
    };
    let slots = slots(resolved);
    let bad = problems(choices, catalog);
    for (i, label) in slots.iter().enumerate() {
        let Some(c) = choices.get(i) else {
            d.choices.push(format!(
                "{label}: choose it (asi: +2 to one ability, +1 to two, or a feat)"
            ));
            continue;
        };
        if bad
            .iter()
            .any(|b| b.starts_with(&format!("asi {}:", i + 1)))
        {
            d.choices.push(format!(
                "{label}: the choice {} is not valid, not applied",
                describe(c)
            ));
            continue;
        }
        if let Some(f) = &c.feat {
            if let Some(e) = catalog.feats.get(&feat_key(f)) {
                d.features.push(format!("Feat: {f}"));
                out.feats.push((format!("{label}: feat {f}"), e));
            }
            continue;
        }
        for (a, n) in &c.abilities {
            out.increases.push((label.clone(), *a, i32::from(*n)));
        }
    }
    if choices.len() > slots.len() {
        d.choices.push(format!(
            "asi: {} choice(s) given for {} Ability Score Improvement(s) reached; the extra ones wait for later levels",
            choices.len(),
            slots.len()
        ));
    }
    out
}

/// An increase of `n` to a score now at `now`, stopped at 20.
pub fn capped(now: i32, n: i32) -> i32 {
    n.min(20 - now).max(0)
}
