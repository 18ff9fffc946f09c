//! Spells cast through a feature rather than the class's slots, and features that change the
//! spells their bearer casts, read from the derived sheet (`derive::spell_grants`):
//! - [`find`]/[`spend`]: a spell a feature grants (Mask of Many Faces: disguise self at will;
//!   Mire the Mind: slow once per long rest with a warlock slot; Mystic Arcanum: the one known
//!   spell of 6th–9th level once per long rest) is cast with no slot (or the pact slot the
//!   feature names), its uses spent from the feature's resource (restored by the rest it names);
//! - [`shape`]: riders on one spell (Agonizing Blast's damage per beam, Eldritch Spear's range),
//!   a self-only grant made self-ranged, Overchannel's maximum damage (`abilityName`);
//! - [`after_hits`]: Repelling Blast's push per beam that hits;
//! - [`shaping`]/[`sculpted`]/[`empower`]: Sculpt Spells, Potent Cantrip, Empowered Evocation
//!   inside the casting's resolution.

use tabletop_rules::Ability;

use super::plan::{SlotUse, TargetResult};
use crate::catalog::SpellShaping;
use crate::error::{EngineError, Result};
use crate::model::build::FeatureSpellSpec;
use crate::model::character::Character;
use crate::model::names::name_key;
use crate::model::slots::ordinal;
use crate::model::spell::SpellDef;

/// What a casting may go through.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Via {
    /// This feature casts it.
    Feature(FeatureSpellSpec),
    /// A feature grants it but cannot now (its use is spent, no warlock slot is left): why.
    Spent(String),
    /// No feature grants it: the ordinary rules.
    Ordinary,
}

/// The feature's short name: "Eldritch Invocations: Mask Of Many Faces (warlock 2)" → "Mask Of
/// Many Faces"; "Mystic Arcanum (6th level)" stays.
pub fn feature_name(spec: &FeatureSpellSpec) -> String {
    if let Some(boon) = spec.source.strip_prefix("Pact Boon: ") {
        let b = boon.split(" (").next().unwrap_or(boon);
        return format!("Pact of the {b}");
    }
    let s = spec
        .source
        .split_once(": ")
        .map_or(spec.source.as_str(), |(_, b)| b);
    match s.rfind(" (") {
        Some(i) if s.ends_with(')') && !s[i..].contains("level") => s[..i].to_string(),
        _ => s.to_string(),
    }
}

fn matches(c: &Character, spec: &FeatureSpellSpec, def: &SpellDef) -> bool {
    match &spec.spell {
        Some(s) => name_key(s) == name_key(&def.slug()),
        // The one spell of that level among the caster's spells (Mystic Arcanum).
        None => {
            spec.level == Some(def.level)
                && c.spells.iter().any(|x| name_key(x) == name_key(&def.name))
        }
    }
}

/// Whether `c` casts `def` through a feature: `named` (`abilityName`) picks the feature when
/// given; a `slot_level` other than the feature's casts it with a slot instead. At-will grants
/// come first, then limited ones with a use left.
pub fn find(c: &Character, def: &SpellDef, slot_level: Option<u8>, named: Option<&str>) -> Via {
    let Some(d) = &c.derived else {
        return Via::Ordinary;
    };
    let mut spent = None;
    let mut found: Vec<&FeatureSpellSpec> = d
        .feature_spells
        .iter()
        .filter(|s| matches(c, s, def))
        .filter(|s| named.is_none_or(|n| name_key(&s.source).contains(&name_key(n))))
        .collect();
    found.sort_by_key(|s| s.resource.is_some() || s.pact_slot);
    for spec in found {
        let level = spec.level.unwrap_or(def.level);
        if !spec.pact_slot && slot_level.is_some_and(|l| l != level) {
            continue;
        }
        let name = feature_name(spec);
        if let Some(res) = &spec.resource {
            let left = c
                .resources
                .iter()
                .find(|r| name_key(&r.name) == name_key(res))
                .map_or(0, |r| r.current);
            if left == 0 {
                spent = Some(format!(
                    "{} has used {name} ({} {}); it returns on a {} rest",
                    c.name,
                    def.name,
                    "once",
                    recharge_word(c, res)
                ));
                continue;
            }
        }
        if spec.pact_slot {
            let free = c.spell_slots.pact.is_some_and(|p| p.used < p.max);
            if !free {
                spent = Some(format!(
                    "{name} casts {} with a warlock spell slot; {} has none left (slots: {})",
                    def.name,
                    c.name,
                    c.spell_slots.summary()
                ));
                continue;
            }
        }
        return Via::Feature(spec.clone());
    }
    match spent {
        Some(why) => Via::Spent(why),
        None => Via::Ordinary,
    }
}

fn recharge_word(c: &Character, res: &str) -> &'static str {
    match c
        .resources
        .iter()
        .find(|r| name_key(&r.name) == name_key(res))
        .map(|r| r.recharge)
    {
        Some(crate::catalog::Recharge::Short) => "short or long",
        _ => "long",
    }
}

/// Spends what a feature casting costs (a use, a warlock slot) and says so.
pub fn spend(
    c: &mut Character,
    spec: &FeatureSpellSpec,
    def: &SpellDef,
) -> Result<(SlotUse, String)> {
    let name = feature_name(spec);
    let mut parts = Vec::new();
    let mut slot = SlotUse {
        level: spec.level.unwrap_or(def.level),
        pact: false,
        spent: false,
    };
    if spec.pact_slot {
        let Some(p) = c.spell_slots.pact.as_mut().filter(|p| p.used < p.max) else {
            return Err(EngineError::Rule(format!(
                "{name} needs a warlock spell slot; {} has none left",
                c.name
            )));
        };
        if p.level < def.level {
            return Err(EngineError::Rule(format!(
                "{name}: {}'s warlock slots are {} level, below {}'s {}",
                c.name,
                ordinal(p.level),
                def.name,
                ordinal(def.level)
            )));
        }
        p.used += 1;
        slot = SlotUse {
            level: p.level,
            pact: true,
            spent: true,
        };
        parts.push(format!("with a {}-level warlock slot", ordinal(p.level)));
    } else {
        parts.push("no spell slot spent".into());
    }
    match &spec.resource {
        Some(res) => {
            let word = recharge_word(c, res);
            if let Some(r) = c
                .resources
                .iter_mut()
                .find(|r| name_key(&r.name) == name_key(res))
            {
                r.current = r.current.saturating_sub(1);
                parts.push(format!(
                    "{}: {}/{} left (back on a {word} rest)",
                    r.name, r.current, r.max
                ));
            }
        }
        None => parts.push("at will".into()),
    }
    if spec.level.is_some() && !slot.pact {
        parts.insert(0, format!("cast at {} level", ordinal(slot.level)));
    }
    Ok((
        slot,
        format!("{} cast through {name}: {}", def.name, parts.join(", ")),
    ))
}

/// Changes `def` for this caster: a self-only feature grant makes it self-ranged; riders on the
/// spell (Eldritch Spear's range, Agonizing Blast's damage per hit); Overchannel's maximum
/// damage when `named` asks for it (a used Overchannel before a long rest costs necrotic damage:
/// returned as the dice to roll on the caster). Lines say what changed.
pub fn shape(
    c: &mut Character,
    def: &mut SpellDef,
    via: Option<&FeatureSpellSpec>,
    named: Option<&str>,
    lines: &mut Vec<String>,
) -> Result<Option<String>> {
    if via.is_some_and(|s| s.self_only) {
        def.range = "Self".into();
    }
    let slug = def.slug();
    let riders: Vec<_> = c
        .derived
        .as_ref()
        .map(|d| {
            d.spell_riders
                .iter()
                .filter(|r| name_key(&r.spell) == name_key(&slug))
                .cloned()
                .collect()
        })
        .unwrap_or_default();
    for r in riders {
        if let Some(ft) = r.range_ft {
            def.range = format!("{ft} feet");
            lines.push(format!(
                "{}: {}'s range is {ft} ft",
                short(&r.source),
                def.name
            ));
        }
        if r.damage != 0 {
            for d in def
                .damage_at_level
                .values_mut()
                .chain(def.damage_at_slot.values_mut())
            {
                *d = format!("{d}{:+}", r.damage);
            }
            lines.push(format!(
                "{}: {:+} to each hit's damage",
                short(&r.source),
                r.damage
            ));
        }
    }
    let over = named.is_some_and(|n| name_key(n) == "overchannel");
    if !over {
        return Ok(None);
    }
    if !has(c, SpellShaping::Overchannel) {
        return Err(EngineError::Rule(format!(
            "{} has no Overchannel feature",
            c.name
        )));
    }
    let wizard = def.classes.iter().any(|k| k == "wizard");
    if !(1..=5).contains(&def.level) || !wizard || def.damage_at_slot.is_empty() {
        return Err(EngineError::Rule(format!(
            "Overchannel maximises a damaging wizard spell of 1st through 5th level; {} is not one",
            def.name
        )));
    }
    for d in def.damage_at_slot.values_mut() {
        *d = maximised(d);
    }
    // Uses are counted down from the resource: the first since the long rest is free.
    let Some(r) = c
        .resources
        .iter_mut()
        .find(|r| name_key(&r.name) == "overchannel")
    else {
        return Err(EngineError::Rule(format!(
            "{} has no Overchannel resource on the sheet",
            c.name
        )));
    };
    if r.current == 0 {
        return Err(EngineError::Rule(format!(
            "{} has overchannelled {} times since the last long rest; no more",
            c.name, r.max
        )));
    }
    let before = r.max - r.current;
    r.current -= 1;
    lines.push(format!(
        "Overchannel: {} deals maximum damage (use {} since the last long rest)",
        def.name,
        before + 1
    ));
    if before == 0 {
        return Ok(None);
    }
    let n = 2 * u32::from(def.level) * before;
    Ok(Some(format!("{n}d12")))
}

/// Every `NdM` of a dice expression at its maximum ("8d6+3" → "48+3").
pub fn maximised(expr: &str) -> String {
    let mut out = String::new();
    let chars: Vec<char> = expr.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        if chars[i].is_ascii_digit() {
            let start = i;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            let n: String = chars[start..i].iter().collect();
            if i < chars.len() && chars[i] == 'd' {
                let fs = i + 1;
                let mut j = fs;
                while j < chars.len() && chars[j].is_ascii_digit() {
                    j += 1;
                }
                let f: String = chars[fs..j].iter().collect();
                if let (Ok(n), Ok(f)) = (n.parse::<u64>(), f.parse::<u64>()) {
                    out.push_str(&(n.saturating_mul(f)).to_string());
                    i = j;
                    continue;
                }
            }
            out.push_str(&n);
            continue;
        }
        out.push(chars[i]);
        i += 1;
    }
    out
}

fn short(source: &str) -> String {
    let s = source.split_once(": ").map_or(source, |(_, b)| b);
    match s.rfind(" (") {
        Some(i) => s[..i].to_string(),
        None => s.to_string(),
    }
}

/// Repelling Blast: each hit of the spell pushes its target (the map carries it out).
pub fn after_hits(c: &Character, def: &SpellDef, targets: &mut [TargetResult]) {
    let slug = def.slug();
    let push: u32 = c.derived.as_ref().map_or(0, |d| {
        d.spell_riders
            .iter()
            .filter(|r| name_key(&r.spell) == name_key(&slug))
            .map(|r| r.push_ft)
            .max()
            .unwrap_or(0)
    });
    if push == 0 {
        return;
    }
    for t in targets.iter_mut() {
        if t.hit == Some(true) && t.id != c.id && t.hp_after > 0 {
            t.push_ft = Some(t.push_ft.unwrap_or(0).max(push));
        }
    }
}

/// Whether `c` has the spell-shaping rule `rule`.
pub fn has(c: &Character, rule: SpellShaping) -> bool {
    c.derived
        .as_ref()
        .is_some_and(|d| d.spell_shaping.iter().any(|s| s.value == rule))
}

/// Potent Cantrip: a damaging cantrip of this caster still deals half on a successful save.
pub fn potent(c: &Character, def: &SpellDef) -> bool {
    def.level == 0 && has(c, SpellShaping::PotentCantrip)
}

fn wizard_evocation(def: &SpellDef) -> bool {
    def.school.eq_ignore_ascii_case("evocation") && def.classes.iter().any(|k| k == "wizard")
}

/// Sculpt Spells: the creatures of the caster's side (the caster first) among `targets` of its
/// evocation area spell, up to 1 + the spell's level, who automatically succeed and take no
/// damage. `side_of` tells a target's side as the caster sees it (true: an ally).
pub fn sculpted(
    c: &Character,
    def: &SpellDef,
    targets: &[String],
    ally: impl Fn(&str) -> bool,
) -> Vec<String> {
    if def.area.is_none() || !wizard_evocation(def) || !has(c, SpellShaping::SculptSpells) {
        return Vec::new();
    }
    let n = 1 + usize::from(def.level);
    let mut out: Vec<String> = Vec::new();
    for id in targets {
        if out.len() < n && (*id == c.id || ally(id)) && !out.contains(id) {
            out.push(id.clone());
        }
    }
    out
}

/// Empowered Evocation: the caster's INT modifier, to add to one damage roll of its wizard
/// evocation spell.
pub fn empower(c: &Character, def: &SpellDef) -> Option<i32> {
    (wizard_evocation(def) && has(c, SpellShaping::EmpoweredEvocation))
        .then(|| c.effective().modifier(Ability::Intelligence))
        .filter(|m| *m != 0)
}

/// Empowered Evocation's bonus on this roll, once.
pub fn empowered(
    bonus: &mut Option<i32>,
    r: &mut tabletop_rules::dice::DiceRoll,
    lines: &mut Vec<String>,
) {
    if let Some(b) = bonus.take() {
        r.total += i64::from(b);
        lines.push(format!("Empowered Evocation: {b:+} → {}", r.total));
    }
}
