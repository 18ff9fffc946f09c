//! What a creature perceives and how it moves beyond walking, read off its sheet: special
//! senses (stat block, race traits, spells) and movement modes (stat block, spells). Plain data
//! rules the sheet, the map and the spells all use; they live here, under the use cases.

use tabletop_grid::Senses;
use tabletop_rules::Condition;

use crate::model::character::Character;
use crate::model::effects::SpellGrant;

/// What `c`'s active spells and worn magic items grant (movement modes, senses, walking on
/// water…), each with the name of its source: the effects first, then every item whose magic
/// is working (equipped, attuned if it must be).
pub fn grants(c: &Character) -> Vec<(&str, &SpellGrant)> {
    let mut out: Vec<(&str, &SpellGrant)> = c
        .effects
        .iter()
        .filter_map(|e| Some((e.name.as_str(), e.grant.as_ref()?)))
        .collect();
    out.extend(c.inventory.items.iter().filter_map(|i| {
        let e = i
            .active_entry()
            .filter(|e| e.kind == crate::catalog::items::ItemKind::Worn)?;
        if c.inventory.blocked_magic(i).is_some() {
            return None;
        }
        Some((i.name.as_str(), e.grant.as_ref()?))
    }));
    out
}

/// What a grant gives, one phrase each ("fly speed 60 ft", "darkvision 60 ft").
pub fn grant_lines(g: &SpellGrant) -> Vec<String> {
    let mut out = Vec::new();
    for (mode, ft) in &g.speeds {
        out.push(format!("{mode} speed {ft} ft"));
    }
    for mode in &g.speeds_as_walk {
        out.push(format!("{mode} speed equal to its walking speed"));
    }
    if let Some(ft) = g.darkvision_ft {
        out.push(format!("darkvision {ft} ft"));
    }
    if let Some(ft) = g.truesight_ft {
        out.push(format!("truesight {ft} ft"));
    }
    if let Some(ac) = g.ac_base {
        out.push(format!("AC {ac} + DEX without armor"));
    }
    if g.water_walk {
        out.push("walks on water and other liquids as on solid ground".into());
    }
    if g.ignore_difficult_terrain {
        out.push("difficult terrain costs it no extra movement".into());
    }
    if g.see_invisible {
        out.push("sees invisible creatures".into());
    }
    out.extend(g.communication.iter().cloned());
    out
}

/// The ways of communicating `c`'s active spells and worn items grant, each with its source
/// ("understands every spoken language (Comprehend Languages)").
pub fn communication(c: &Character) -> Vec<String> {
    grants(c)
        .into_iter()
        .flat_map(|(n, g)| g.communication.iter().map(move |w| format!("{w} ({n})")))
        .collect()
}

/// The first number in a text ("darkvision 60 ft." → 60).
fn first_number(s: &str) -> Option<u32> {
    let digits: String = s
        .chars()
        .skip_while(|c| !c.is_ascii_digit())
        .take_while(|c| c.is_ascii_digit())
        .collect();
    digits.parse().ok()
}

/// Races that see in the dark (60 ft) by the SRD.
const DARKVISION_RACES: [&str; 6] = ["dwarf", "elf", "gnome", "half-elf", "half-orc", "tiefling"];

/// A creature's special senses: the stat block's senses ("darkvision 60 ft.", "blindsight 10
/// ft."), race traits (Darkvision 60 ft., Superior Darkvision 120 ft.) and the blinded
/// condition.
pub fn senses_of(c: &Character) -> Senses {
    let mut s = Senses {
        blinded: c.has_condition(Condition::Blinded),
        ..Senses::default()
    };
    let stat_senses = c.stat_block.iter().flat_map(|b| b.senses.iter());
    for text in stat_senses.map(|t| t.to_ascii_lowercase()) {
        let range = first_number(&text).unwrap_or(0);
        let slot = if text.contains("darkvision") {
            &mut s.darkvision_ft
        } else if text.contains("blindsight") {
            &mut s.blindsight_ft
        } else if text.contains("tremorsense") {
            &mut s.tremorsense_ft
        } else if text.contains("truesight") {
            &mut s.truesight_ft
        } else {
            continue;
        };
        *slot = (*slot).max(range);
    }
    // Race traits name the sense; the SRD ranges are 60 ft (120 ft for Superior Darkvision).
    // A sheet without its traits still has its race's.
    if let Some(r) = &c.race
        && DARKVISION_RACES.contains(&r.to_ascii_lowercase().as_str())
    {
        s.darkvision_ft = s.darkvision_ft.max(60);
    }
    // Senses an active spell or a worn item grants (Darkvision, True Seeing, Goggles of Night).
    for (_, g) in grants(c) {
        if let Some(ft) = g.darkvision_ft {
            s.darkvision_ft = s.darkvision_ft.max(ft);
        }
        if let Some(ft) = g.truesight_ft {
            s.truesight_ft = s.truesight_ft.max(ft);
        }
    }
    // Senses the derived sheet's sources grant (Devil's Sight: darkvision 120 ft).
    for sense in c.derived.iter().flat_map(|d| d.senses.iter()) {
        let (name, ft) = (&sense.value.0, sense.value.1);
        let slot = match name.to_ascii_lowercase().as_str() {
            "darkvision" => &mut s.darkvision_ft,
            "blindsight" => &mut s.blindsight_ft,
            "tremorsense" => &mut s.tremorsense_ft,
            "truesight" => &mut s.truesight_ft,
            _ => continue,
        };
        *slot = (*slot).max(ft);
    }
    for f in c.features.iter().map(|f| f.to_ascii_lowercase()) {
        if f.contains("darkvision") {
            let default = if f.contains("superior") { 120 } else { 60 };
            s.darkvision_ft = s.darkvision_ft.max(first_number(&f).unwrap_or(default));
        }
    }
    s
}

/// Movement modes `c` has beyond walking: its stat block's, then those its effects grant
/// (the best of each), in feet.
pub fn movement_modes(c: &Character) -> std::collections::BTreeMap<String, u32> {
    let mut out: std::collections::BTreeMap<String, u32> = c
        .action_block()
        .map(|b| b.other_speeds.clone())
        .unwrap_or_default();
    let walk = u32::try_from(c.effective().speed.value.max(0)).unwrap_or(0);
    for (_, g) in grants(c) {
        for (mode, ft) in &g.speeds {
            let v = out.entry(mode.clone()).or_insert(0);
            *v = (*v).max(*ft);
        }
        for mode in &g.speeds_as_walk {
            let v = out.entry(mode.clone()).or_insert(0);
            *v = (*v).max(walk);
        }
    }
    // Dragon Wings: a flying speed equal to the walking speed.
    if c.derived.as_ref().is_some_and(|d| {
        d.class_rules
            .iter()
            .any(|r| r.rule == crate::catalog::caster_rules::CasterRule::DragonWings)
    }) {
        let v = out.entry("fly".into()).or_insert(0);
        *v = (*v).max(walk);
    }
    out
}

/// The effect that lets `c` see invisible creatures (See Invisibility, or truesight from True
/// Seeing), if any.
pub fn sees_invisible(c: &Character) -> Option<String> {
    grants(c)
        .into_iter()
        .find(|(_, g)| g.see_invisible || g.truesight_ft.is_some())
        .map(|(n, _)| n.to_string())
}
