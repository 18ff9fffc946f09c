//! Multiclassing by the SRD rules: ability prerequisites (of the classes held and the new one),
//! the proficiencies a later class gives, hit dice per class and the combined spell-slot table.

use tabletop_rules::abilities::AbilityScores;
use tabletop_srd::Compendium;
use tabletop_srd::model::CasterKind;

use super::ClassLevels;
use crate::catalog::{Catalog, Grant};
use crate::character::{Character, name_key};
use crate::error::{EngineError, Result};
use crate::slots::{PactSlots, SpellSlots};

/// The prerequisites `class` misses with `scores`, one line each ("DEX 13 (has 12)").
pub fn missing_prerequisites(srd: &Compendium, class: &str, scores: &AbilityScores) -> Vec<String> {
    let Some(c) = srd.class(class) else {
        return Vec::new();
    };
    let mut out: Vec<String> = c
        .multiclassing
        .prerequisites
        .iter()
        .filter(|m| scores.get(m.ability) < m.minimum)
        .map(|m| {
            format!(
                "{} needs {} {} (has {})",
                c.name,
                m.ability.abbr(),
                m.minimum,
                scores.get(m.ability)
            )
        })
        .collect();
    if !c.multiclassing.prerequisite_any.is_empty()
        && !c
            .multiclassing
            .prerequisite_any
            .iter()
            .any(|m| scores.get(m.ability) >= m.minimum)
    {
        let opts: Vec<String> = c
            .multiclassing
            .prerequisite_any
            .iter()
            .map(|m| format!("{} {}", m.ability.abbr(), m.minimum))
            .collect();
        out.push(format!("{} needs {}", c.name, opts.join(" or ")));
    }
    out
}

/// Every prerequisite a set of classes misses (only when there are two or more).
pub fn check_all(srd: &Compendium, classes: &[ClassLevels], scores: &AbilityScores) -> Vec<String> {
    if classes.len() < 2 {
        return Vec::new();
    }
    classes
        .iter()
        .filter(|c| c.custom.is_none())
        .flat_map(|c| missing_prerequisites(srd, &c.class, scores))
        .collect()
}

/// Prepares a level in `class` for `c`: the index of its entry in the build (a new entry when
/// it is a class the character does not have yet, after checking the prerequisites), and the
/// hit die of that class.
pub fn prepare_level(
    srd: Option<&Compendium>,
    c: &mut Character,
    class: Option<&str>,
) -> Result<(usize, u32)> {
    let scores = c.abilities;
    let Some(b) = c.build.as_mut() else {
        return Ok((0, c.hit_die));
    };
    let die_of = |b: &ClassLevels| -> u32 {
        b.custom.as_ref().map(|x| x.hit_die).unwrap_or_else(|| {
            srd.and_then(|s| s.class(&b.class))
                .map_or(8, |k| u32::from(k.hit_die))
        })
    };
    let Some(name) = class.map(str::trim).filter(|s| !s.is_empty()) else {
        return Ok((0, b.classes.first().map_or(c.hit_die, die_of)));
    };
    if let Some(i) = b
        .classes
        .iter()
        .position(|x| name_key(&x.class) == name_key(name))
    {
        return Ok((i, die_of(&b.classes[i])));
    }
    let srd = srd.ok_or_else(|| {
        EngineError::invalid(
            "class",
            "multiclassing into an SRD class needs the SRD (tabletop srd install)",
        )
    })?;
    let Some(k) = srd.class(name) else {
        let names: Vec<&str> = srd.classes().iter().map(|c| c.name.as_str()).collect();
        return Err(EngineError::NotFound {
            kind: "SRD class",
            given: name.to_string(),
            suggestions: names.iter().map(|s| s.to_string()).collect(),
        });
    };
    let mut all = b.classes.clone();
    all.push(ClassLevels {
        class: k.name.clone(),
        ..Default::default()
    });
    let missing = check_all(srd, &all, &scores);
    if !missing.is_empty() {
        return Err(EngineError::Rule(format!(
            "{} cannot multiclass into {}: {} (multiclassing needs the prerequisites of every class held)",
            c.name,
            k.name,
            missing.join("; ")
        )));
    }
    b.classes.push(ClassLevels {
        class: k.name.clone(),
        ..Default::default()
    });
    Ok((b.classes.len() - 1, u32::from(k.hit_die)))
}

/// Whether the class of `cl` (an SRD class) has its Spellcasting feature (Pact Magic for a
/// warlock) at its level: a feature its table, or its subclass's, gives by then is a
/// `spellcasting` grant of the mechanics catalog, or its table gives it slots at that level. A
/// paladin or ranger has it from 2nd level.
pub fn casts_at_level(srd: &Compendium, cl: &ClassLevels) -> bool {
    let Some(k) = srd.class(&cl.class) else {
        return false;
    };
    let level = u8::try_from(cl.level.min(20)).unwrap_or(20);
    if srd.spell_slots(&k.index, level).iter().any(|n| *n > 0) {
        return true;
    }
    let catalog = Catalog::get();
    let grants = |f: &tabletop_srd::model::Ref| {
        catalog
            .features
            .get(&f.index)
            .is_some_and(|e| e.grants.iter().any(|g| matches!(g, Grant::Spellcasting)))
    };
    let own = (1..=level)
        .filter_map(|l| srd.class_level(&k.index, l))
        .any(|row| row.features.iter().any(grants));
    own || cl.subclass.as_deref().is_some_and(|sub| {
        srd.subclass_levels(sub)
            .iter()
            .filter(|row| row.level <= level)
            .any(|row| row.features.iter().any(grants))
    })
}

/// The spell slots of a multiclassed character (SRD multiclassing, "Spell Slots"). Only the
/// classes that have their Spellcasting feature at their level count (a paladin or ranger 1 has
/// none yet). With one such class the character follows that class's own table at its class
/// level; with two or more, their levels are added (full casters' whole, half casters' —
/// paladin, ranger — halved and third casters' divided by three, each rounded down) and read
/// on the multiclass spellcaster table, which is the full casters' (wizard) table. A warlock's
/// Pact Magic slots are kept apart and make no class count. `None` with fewer than two classes
/// (the single-class table applies).
pub fn combined_slots(
    srd: &Compendium,
    classes: &[ClassLevels],
    keep: &SpellSlots,
) -> Option<SpellSlots> {
    if classes.len() < 2 {
        return None;
    }
    let mut casting: Vec<(&str, u32, CasterKind)> = Vec::new();
    let mut pact = None;
    for cl in classes {
        let Some(k) = srd.class(&cl.class) else {
            continue;
        };
        match k.caster_kind {
            CasterKind::Pact => {
                let lvl = u8::try_from(cl.level.clamp(1, 20)).unwrap_or(20);
                pact = srd.class_level(&k.index, lvl).and_then(|r| r.pact_slots);
            }
            CasterKind::None => {}
            kind => {
                if casts_at_level(srd, cl) {
                    casting.push((&k.index, cl.level, kind));
                }
            }
        }
    }
    let mut s = SpellSlots::default();
    match casting.as_slice() {
        [] => {}
        [(index, level, _)] => {
            let lvl = u8::try_from((*level).clamp(1, 20)).unwrap_or(20);
            s.max = srd.spell_slots(index, lvl);
        }
        several => {
            let caster_level: u32 = several
                .iter()
                .map(|(_, level, kind)| match kind {
                    CasterKind::Half => level / 2,
                    CasterKind::Third => level / 3,
                    _ => *level,
                })
                .sum();
            let lvl = u8::try_from(caster_level.clamp(1, 20)).unwrap_or(20);
            s.max = srd.spell_slots("wizard", lvl);
        }
    }
    if let Some(p) = pact {
        s.pact = Some(PactSlots {
            level: p.slot_level,
            max: p.count,
            used: keep.pact.map_or(0, |k| k.used.min(p.count)),
        });
    }
    s.keep_created(keep);
    Some(s)
}
