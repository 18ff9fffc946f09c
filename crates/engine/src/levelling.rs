//! `level_up`: one or several levels at once. Hit points by average, roll, maximum or a manual
//! amount (never below 1 per level), hit dice, proficiency bonus, spell slots from the SRD class
//! table (full, half, third and pact casters), the class features gained, and the levels that
//! bring an Ability Score Improvement.

use serde::Serialize;
use tabletop_rules::Ability;
use tabletop_rules::abilities::proficiency_bonus;
use tabletop_rules::hp::{HitDie, HpMethod, LevelHp, hp_for_levels};

use crate::characters::resolve;
use crate::derive::asi::AsiChoice;
use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::character::CharacterRef;
use crate::model::slots::SpellSlots;

/// How hit points are gained.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LevelHpMethod {
    /// Average, roll or maximum of the hit die, + CON.
    Rules(HpMethod),
    /// The DM's total for all the levels gained (at least 1 per level).
    Manual(u32),
}

/// The levels that bring an Ability Score Improvement in most SRD classes.
pub const DEFAULT_ASI_LEVELS: [u32; 5] = [4, 8, 12, 16, 19];

/// What `level_up` did.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LevelUpOutcome {
    /// The character.
    pub character: String,
    /// Its id.
    pub character_id: String,
    /// Level before.
    pub from_level: u32,
    /// Level after.
    pub to_level: u32,
    /// HP gained per level (manual: one entry with the total).
    pub hp_gains: Vec<LevelHp>,
    /// Max HP before → after.
    pub max_hp: (u32, u32),
    /// Proficiency bonus before → after.
    pub proficiency_bonus: (i32, i32),
    /// Hit dice total after.
    pub hit_dice_total: u32,
    /// Spell slots after, in words.
    pub spell_slots: String,
    /// Class features gained (SRD classes).
    pub features_gained: Vec<String>,
    /// Levels gained that bring an Ability Score Improvement (apply it with update_character stats).
    pub asi_levels: Vec<u32>,
    /// What happened.
    pub changes: Vec<String>,
}

/// Raises the character to `target` (default: one level up) in its first class.
pub fn level_up(
    call: &mut Call<'_>,
    who: CharacterRef<'_>,
    target: Option<u32>,
    method: LevelHpMethod,
) -> Result<LevelUpOutcome> {
    level_up_in(call, who, None, target, method)
}

/// Raises the character to `target` (default: one level up), the levels taken in `class`
/// (default: its first class; another class multiclasses, prerequisites checked).
pub fn level_up_in(
    call: &mut Call<'_>,
    who: CharacterRef<'_>,
    class: Option<&str>,
    target: Option<u32>,
    method: LevelHpMethod,
) -> Result<LevelUpOutcome> {
    level_up_choosing(call, who, class, target, method, Vec::new())
}

/// [`level_up_in`] with the choices for the Ability Score Improvements the new levels reach
/// (in order; one missing stays an open choice on the sheet).
pub fn level_up_choosing(
    call: &mut Call<'_>,
    who: CharacterRef<'_>,
    class: Option<&str>,
    target: Option<u32>,
    method: LevelHpMethod,
    asi_choices: Vec<AsiChoice>,
) -> Result<LevelUpOutcome> {
    level_up_with(
        call,
        who,
        class,
        target,
        method,
        LevelChoices {
            asi: asi_choices,
            ..Default::default()
        },
    )
}

/// The choices made with new levels.
#[derive(Debug, Clone, Default)]
pub struct LevelChoices {
    /// Ability Score Improvements the new levels reach, in order.
    pub asi: Vec<AsiChoice>,
    /// The subclass of the class levelled (an SRD subclass of it).
    pub subclass: Option<String>,
    /// Feature options chosen at the new levels (catalog keys, see `Choices::options`).
    pub options: Vec<String>,
}

/// [`level_up_in`] with the choices the new levels ask for: Ability Score Improvements, the
/// subclass, feature options (hunter options, invocations…). A subclass or option the class
/// does not offer at its new level is refused; one still open is said in the changes.
pub fn level_up_with(
    call: &mut Call<'_>,
    who: CharacterRef<'_>,
    class: Option<&str>,
    target: Option<u32>,
    method: LevelHpMethod,
    choices: LevelChoices,
) -> Result<LevelUpOutcome> {
    let LevelChoices {
        asi: asi_choices,
        subclass,
        options,
    } = choices;
    let bad = crate::derive::asi::problems(&asi_choices, crate::catalog::Catalog::get());
    if !bad.is_empty() {
        return Err(EngineError::invalid("asi", bad.join("; ")));
    }
    let mut c = resolve(call, who)?;
    let from = c.level;
    let to = target.unwrap_or(from + 1);
    if from >= 20 {
        return Err(EngineError::Rule(format!(
            "{} is already level 20, the highest level",
            c.name
        )));
    }
    if to <= from || to > 20 {
        return Err(EngineError::invalid(
            "targetLevel",
            format!(
                "{to} is not above {}'s level {from}; give {}–20",
                c.name,
                from + 1
            ),
        ));
    }
    if c.dead {
        return Err(EngineError::Rule(format!("{} is dead", c.name)));
    }
    if let Some(sb) = &c.stat_block {
        return Err(EngineError::Rule(format!(
            "{} is a stat-block creature ({}): it has no class levels; change its numbers with update_character",
            c.name, sb.monster
        )));
    }
    let gained_levels = to - from;
    let features_before = c.features.clone();
    let slots_before = c.spell_slots.clone();
    let (class_idx, die_faces) =
        crate::derive::multiclass::prepare_level(call.compendium(), &mut c, class)?;
    let die = HitDie::from_faces(die_faces).unwrap_or(HitDie::D8);
    let con = c.abilities.modifier(Ability::Constitution);
    let hp_gains = match method {
        LevelHpMethod::Rules(m) => {
            let g = hp_for_levels(from, to, die, con, m, call.rng()?);
            if m == HpMethod::Roll {
                call.record_roll(&g);
            }
            g
        }
        LevelHpMethod::Manual(total) => {
            if total < gained_levels || total > gained_levels * 100 {
                return Err(EngineError::invalid(
                    "hp",
                    format!(
                        "{total} HP for {gained_levels} level(s) is out of range; give {gained_levels}–{} (at least 1 per level)",
                        gained_levels * 100
                    ),
                ));
            }
            vec![LevelHp {
                level: to,
                die_value: total,
                rolled: false,
                con_modifier: 0,
                gained: total,
            }]
        }
    };
    let gained_hp: u32 = hp_gains.iter().map(|g| g.gained).sum();
    let mut changes = vec![format!("{} rises from level {from} to {to}", c.name)];
    // The maximum as every source makes it (worn magic's Constitution too): what the new levels
    // add to it is what the current hit points gain, once the sheet is derived again below.
    let max_before = effective_max(&c);
    c.max_hp = c.max_hp.saturating_add(gained_hp).min(10_000);
    let per_level: Vec<String> = hp_gains
        .iter()
        .map(|g| {
            if g.rolled {
                format!(
                    "L{} rolled {} {:+} = {}",
                    g.level, g.die_value, g.con_modifier, g.gained
                )
            } else {
                format!("L{} +{}", g.level, g.gained)
            }
        })
        .collect();
    // Written once the sheet is derived again: other sources follow the new levels too (the
    // hill dwarf's +1 per level, a Constitution raised by an Ability Score Improvement).
    let max_hp_line = changes.len();
    changes.push(String::new());
    let prof_before = c.proficiency_bonus;
    c.proficiency_bonus = proficiency_bonus(to).unwrap_or(c.proficiency_bonus);
    if c.proficiency_bonus != prof_before {
        changes.push(format!(
            "proficiency bonus {prof_before:+} → {:+}",
            c.proficiency_bonus
        ));
    }
    c.level = to;
    c.hit_dice = (c.hit_dice + gained_levels).min(to);
    changes.push(format!("hit dice d{} × {to}", c.hit_die));

    let mut features = Vec::new();
    let mut asi = Vec::new();
    let multiclassed = c.build.as_ref().is_some_and(|b| b.classes.len() > 1);
    // One class: its table at the character's levels. A multiclassed build's features and
    // Ability Score Improvements follow each class's own levels (below), never the total.
    let srd_class = call
        .compendium()
        .filter(|_| class_idx == 0 && !multiclassed)
        .and_then(|srd| {
            c.class
                .as_deref()
                .and_then(|n| srd.class(n))
                .map(|k| (srd, k))
        });
    match srd_class {
        Some((srd, class)) => {
            let mut prev_asi = srd
                .class_level(&class.index, u8::try_from(from).unwrap_or(20))
                .and_then(|r| r.ability_score_bonuses)
                .unwrap_or(0);
            for l in from + 1..=to {
                let Some(row) = srd.class_level(&class.index, u8::try_from(l).unwrap_or(20)) else {
                    continue;
                };
                for f in &row.features {
                    if f.name.contains("Ability Score Improvement") {
                        continue;
                    }
                    features.push(f.name.clone());
                }
                let n = row.ability_score_bonuses.unwrap_or(prev_asi);
                if n > prev_asi {
                    asi.push(l);
                }
                prev_asi = n;
            }
            // One class: its own table at its level. A multiclassed build's slots are derived
            // from all its classes below (`refresh`).
            if !c.spell_slots.manual
                && !multiclassed
                && let Some(s) = SpellSlots::from_srd(srd, &class.name, to, &c.spell_slots)
                && (s != c.spell_slots)
            {
                changes.push(format!(
                    "spell slots {} → {}",
                    c.spell_slots.summary(),
                    s.summary()
                ));
                c.spell_slots = s;
            }
        }
        None => {
            asi = DEFAULT_ASI_LEVELS
                .iter()
                .copied()
                .filter(|l| (from + 1..=to).contains(l))
                .collect();
        }
    }
    for f in &features {
        if !c.features.contains(f) {
            c.features.push(f.clone());
        }
    }
    if !features.is_empty() {
        changes.push(format!("features gained: {}", features.join(", ")));
    }
    if !asi.is_empty() {
        let list: Vec<String> = asi.iter().map(u32::to_string).collect();
        changes.push(format!(
            "Ability Score Improvement at level {}: {}",
            list.join(", "),
            if asi_choices.is_empty() {
                "choose it with asi (+2 to one ability, +1 to two, or a feat); open until then"
                    .to_string()
            } else {
                asi_choices
                    .iter()
                    .map(crate::derive::asi::describe)
                    .collect::<Vec<_>>()
                    .join("; ")
            }
        ));
    }
    // The levels and their hit-die values become sources; the sheet is derived from them.
    let manual = match method {
        LevelHpMethod::Manual(total) => Some(total),
        LevelHpMethod::Rules(_) => None,
    };
    crate::derive::record_level_hp(
        &mut c,
        class_idx,
        gained_levels,
        die_faces,
        &hp_gains,
        manual,
    );
    if !asi_choices.is_empty() {
        let Some(b) = c.build.as_mut() else {
            return Err(EngineError::Rule(format!(
                "{} has no recorded build to hold Ability Score Improvements",
                c.name
            )));
        };
        b.choices.asi.extend(asi_choices.iter().cloned());
    }
    if subclass.is_some() || !options.is_empty() {
        let Some(b) = c.build.as_mut() else {
            return Err(EngineError::Rule(format!(
                "{} has no recorded build to hold a subclass or options",
                c.name
            )));
        };
        if let Some(sub) = &subclass
            && let Some(k) = b.classes.get_mut(class_idx)
        {
            k.subclass = Some(sub.clone());
        }
        for o in &options {
            if !b.choices.options.contains(o) {
                b.choices.options.push(o.clone());
            }
        }
        if let (Some(srd), Some(b)) = (call.compendium(), c.build.as_ref()) {
            let catalog = crate::catalog::Catalog::get();
            let resolved = crate::derive::resolve(b, Some(srd));
            let bad = crate::choices::problems(srd, catalog, b, &resolved);
            if !bad.is_empty() {
                let field = if subclass.is_some() && bad.iter().any(|l| l.contains("(subclass)")) {
                    "subclass"
                } else {
                    "options"
                };
                return Err(EngineError::invalid(field, bad.join("; ")));
            }
        }
    }
    crate::derive::refresh(call, &mut c);
    let max_after = effective_max(&c);
    c.hp = c.hp.saturating_add(max_after.saturating_sub(max_before));
    crate::derive::cap_hp(&mut c);
    let by_levels = max_before.saturating_add(gained_hp);
    let others = i64::from(max_after) - i64::from(by_levels);
    changes[max_hp_line] = if others == 0 {
        format!(
            "max HP {max_before} → {max_after} ({})",
            per_level.join(", ")
        )
    } else {
        format!(
            "max HP {max_before} → {max_after} ({}; {others:+} from the sheet's other sources at the new level)",
            per_level.join(", ")
        )
    };
    if multiclassed && c.spell_slots != slots_before {
        changes.push(format!(
            "spell slots {} → {}",
            slots_before.summary(),
            c.spell_slots.summary()
        ));
    }
    // What the derived sheet gained beyond the class table (the subclass's features, options).
    for f in &c.features {
        if !features_before.contains(f) && !features.contains(f) {
            features.push(f.clone());
        }
    }
    if let Some(d) = &c.derived {
        for line in d.choices.iter().filter(|l| {
            l.contains("(subclass)") || l.contains("(options)") || l.contains("(fightingStyle)")
        }) {
            changes.push(format!("open choice: {line}"));
        }
    }
    let open_after = open_asi(call, &c);
    if open_after < 0 {
        return Err(EngineError::invalid(
            "asi",
            format!(
                "{} choice(s) given, but the new levels reach only {} Ability Score Improvement(s) without one",
                asi_choices.len(),
                i64::try_from(asi_choices.len()).unwrap_or(0) + open_after
            ),
        ));
    }
    let asi_lines: Vec<String> = c
        .derived
        .as_ref()
        .map(|d| {
            d.ability_sources
                .iter()
                .flat_map(|(a, v)| {
                    v.iter()
                        .filter(|x| x.source.starts_with("Ability Score Improvement"))
                        .map(move |x| format!("{} {:+} ({})", a.abbr(), x.delta, x.source))
                })
                .collect()
        })
        .unwrap_or_default();
    if multiclassed {
        // A level in one class of several: its features are what the derived sheet gained;
        // its Ability Score Improvements follow that class's own table.
        asi.clear();
        if let (Some(srd), Some(k)) = (
            call.compendium(),
            c.build.as_ref().and_then(|b| b.classes.get(class_idx)),
        ) {
            let at = |l: u32| {
                srd.class_level(&k.class, u8::try_from(l).unwrap_or(20))
                    .and_then(|r| r.ability_score_bonuses)
                    .unwrap_or(0)
            };
            let from_class = k.level.saturating_sub(gained_levels);
            for l in from_class + 1..=k.level {
                if at(l) > at(l.saturating_sub(1)) {
                    asi.push(to - (k.level - l));
                }
            }
        }
        changes.retain(|l| {
            !l.starts_with("hit dice d") && !l.starts_with("Ability Score Improvement")
        });
        if let Some(d) = &c.derived {
            let dice: Vec<String> = d
                .hit_dice
                .iter()
                .map(|h| format!("d{} × {} ({})", h.value.0, h.value.1, h.source))
                .collect();
            changes.push(format!("hit dice {}", dice.join(", ")));
        }
        features = c
            .features
            .iter()
            .filter(|f| !features_before.contains(f))
            .cloned()
            .collect();
        if let Some(b) = &c.build {
            let parts: Vec<String> = b
                .classes
                .iter()
                .map(|k| format!("{} {}", k.class, k.level))
                .collect();
            changes.push(format!("classes: {}", parts.join(" / ")));
        }
        if !features.is_empty() {
            changes.push(format!("features gained: {}", features.join(", ")));
        }
        changes.push(format!("spell slots: {}", c.spell_slots.summary()));
    }
    if !asi_choices.is_empty() {
        changes.push(format!(
            "Ability Score Improvements on the sheet: {}",
            asi_lines.join(", ")
        ));
    }
    let campaign = call.campaign();
    call.tx().put_character(campaign, &c)?;
    call.record_change("character", &c.id, changes.join("; "));
    Ok(LevelUpOutcome {
        character: c.name.clone(),
        character_id: c.id.clone(),
        from_level: from,
        to_level: to,
        hp_gains,
        max_hp: (max_before, effective_max(&c)),
        proficiency_bonus: (prof_before, c.proficiency_bonus),
        hit_dice_total: to,
        spell_slots: c.spell_slots.summary(),
        features_gained: features,
        asi_levels: asi,
        changes,
    })
}

/// Ability Score Improvements reached without a choice, less choices beyond those reached
/// (negative: too many choices).
fn open_asi(call: &Call<'_>, c: &crate::model::character::Character) -> i64 {
    let Some(b) = &c.build else { return 0 };
    let resolved = crate::derive::resolve(b, call.compendium());
    let reached = crate::derive::asi::slots(&resolved).len();
    i64::try_from(reached).unwrap_or(0) - i64::try_from(b.choices.asi.len()).unwrap_or(0)
}

/// The hit point maximum as the sheet's every source makes it (a worn Amulet of Health's
/// Constitution, a hill dwarf's toughness, effects).
fn effective_max(c: &crate::model::character::Character) -> u32 {
    u32::try_from(c.effective().max_hp.value.max(0)).unwrap_or(0)
}
