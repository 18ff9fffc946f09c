//! Spells known and prepared (SRD 5.1, "Spellcasting" of each class), read from the SRD class
//! level tables at run time:
//! - cantrips known: the level table's `cantrips_known`;
//! - known casters (a level table with `spells_known`: bard, ranger, sorcerer, warlock): at most
//!   that many spells of 1st level and higher;
//! - prepared casters (cleric, druid, paladin, wizard): at most the spellcasting ability
//!   modifier + the class level (half the level, rounded down, for half casters), minimum one;
//!   a wizard prepares from its spellbook, the others from the whole class list;
//! - every spell on the class's list (or its subclass's), of a level it has slots for;
//! - a subclass's spells of a prepared caster (a cleric's domain spells, a paladin's oath
//!   spells) are always prepared and not counted.
//!
//! A multiclassed caster counts per class, as if single-classed in each (SRD "Multiclassing:
//! Spellcasting"): each spell belongs to the class it was learned with (`spell_classes` on the
//! sheet; a spell on one of its classes' lists only is that class's, one on several lists goes to
//! the first class with room, and the answer says so), each class keeps its own cantrips,
//! known/prepared count and spell levels, and a spell is cast with its class's ability.

use tabletop_rules::Ability;
use tabletop_srd::{CasterKind, Compendium};

use crate::model::character::Character;
use crate::model::names::name_key;

/// How many spells a class keeps at its level, and which.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpellRules {
    /// Class display name.
    pub class: String,
    /// SRD class index.
    pub class_index: String,
    /// Class level.
    pub level: u32,
    /// Spellcasting ability.
    pub ability: Ability,
    /// Cantrips known (none when the class has no cantrips).
    pub cantrips: Option<u32>,
    /// Known caster: spells of 1st level and higher known.
    pub known: Option<u32>,
    /// Prepared caster: how many spells it prepares, and the sum in words.
    pub prepared: Option<(u32, String)>,
    /// A wizard prepares from its spellbook.
    pub spellbook: bool,
    /// The highest spell level its slots reach (0: no slots yet).
    pub max_spell_level: u8,
    /// Subclass spells always prepared (not counted), by display name.
    pub always_prepared: Vec<String>,
    /// Subclass spells added to the class list (known casters), by SRD index.
    pub extra_list: Vec<String>,
    /// Spells it may know from any class's list (Magical Secrets).
    pub any_list: u32,
    /// Cantrips from any class's list, beyond the class's count (Pact of the Tome).
    pub any_list_cantrips: u32,
    /// Levels above its slots of which it knows one spell (Mystic Arcanum).
    pub arcanum: Vec<u8>,
}

/// The class levels a character has: (class, level, subclass).
fn classes(c: &Character) -> Vec<(String, u32, Option<String>)> {
    match &c.build {
        Some(b) if !b.classes.is_empty() => b
            .classes
            .iter()
            .map(|k| (k.class.clone(), k.level, k.subclass.clone()))
            .collect(),
        _ => c.class.iter().map(|k| (k.clone(), c.level, None)).collect(),
    }
}

/// True when the character has levels in more than one class.
pub fn multiclassed(c: &Character) -> bool {
    classes(c).len() > 1
}

/// The spell rules of a single-class SRD caster; `None` for anyone else (a multiclassed caster
/// has one set per class: [`all_rules`]).
pub fn rules(srd: &Compendium, c: &Character) -> Option<SpellRules> {
    let all = classes(c);
    let [(class, level, subclass)] = all.as_slice() else {
        return None;
    };
    class_rules(srd, c, class, *level, subclass.as_deref())
}

/// The spell rules of every SRD casting class the character has levels in, in class order.
pub fn all_rules(srd: &Compendium, c: &Character) -> Vec<SpellRules> {
    classes(c)
        .iter()
        .filter_map(|(class, level, sub)| class_rules(srd, c, class, *level, sub.as_deref()))
        .collect()
}

/// The rules of one class at `level`, as if single-classed (its own level table row).
fn class_rules(
    srd: &Compendium,
    c: &Character,
    class: &str,
    level: u32,
    subclass: Option<&str>,
) -> Option<SpellRules> {
    let level = &level;
    let k = srd.class(class)?;
    let ability = k.spellcasting_ability?;
    let lvl = u8::try_from(*level).ok()?;
    let row = srd.class_level(&k.index, lvl)?;
    let max_spell_level = row
        .spell_slots
        .iter()
        .rposition(|n| *n > 0)
        .map_or(0, |i| i as u8 + 1)
        .max(row.pact_slots.as_ref().map_or(0, |p| p.slot_level));
    // A class whose table counts spells known is a known caster; the others prepare.
    let known_caster = (1..=20u8)
        .filter_map(|l| srd.class_level(&k.index, l))
        .any(|r| r.spells_known.is_some());
    let modifier = c.abilities.modifier(ability);
    let (prepared, known) = if known_caster {
        (None, Some(u32::from(row.spells_known.unwrap_or(0))))
    } else {
        let counted = match k.caster_kind {
            CasterKind::Half => level / 2,
            CasterKind::Third => level / 3,
            _ => *level,
        };
        let n = (i64::from(modifier) + i64::from(counted)).max(1);
        let how = if counted == *level {
            format!(
                "{} {modifier:+} + {} level {level}",
                ability.abbr(),
                k.name.to_lowercase()
            )
        } else {
            format!(
                "{} {modifier:+} + {counted} (a {} prepares with half its level {level})",
                ability.abbr(),
                k.name.to_lowercase()
            )
        };
        let n = if max_spell_level == 0 {
            0
        } else {
            u32::try_from(n).unwrap_or(1)
        };
        (Some((n, format!("{how} = {n}"))), None)
    };
    let mut always_prepared = Vec::new();
    let mut extra_list = Vec::new();
    // The subclass's spells, from the level of a feature whose catalog entry grants them
    // (Domain Spells, Oath Spells, Circle Spells); a land's circle spells need that land chosen.
    let chosen: &[String] = c.build.as_ref().map_or(&[], |b| &b.choices.options);
    let catalog = crate::catalog::Catalog::get();
    let grants_spells = |index: &str| {
        catalog.features.get(index).is_some_and(|e| {
            e.grants
                .iter()
                .any(|g| matches!(g, crate::catalog::Grant::SubclassSpells))
        })
    };
    // Magical Secrets: off-list spells its features allow, up to its level.
    let mut any_list = 0u32;
    let mut bonus_cantrips = 0u32;
    let sub_rows = subclass
        .and_then(|s| srd.subclass(s))
        .map(|s| srd.subclass_levels(&s.index))
        .unwrap_or_default();
    for row in (1..=lvl)
        .filter_map(|l| srd.class_level(&k.index, l))
        .chain(sub_rows.into_iter().filter(|r| r.level <= lvl))
    {
        for f in &row.features {
            for g in catalog
                .features
                .get(&f.index)
                .iter()
                .flat_map(|e| &e.grants)
            {
                match g {
                    crate::catalog::Grant::AnyListSpells { count } => any_list += count,
                    // Bonus Cantrip (Circle of the Land): one more cantrip of the class.
                    crate::catalog::Grant::CasterRule {
                        rule: crate::catalog::caster_rules::CasterRule::BonusCantrip,
                    } => bonus_cantrips += 1,
                    _ => {}
                }
            }
        }
    }
    // Chosen options (a pact boon) may add cantrips from any list; a pact caster's Mystic
    // Arcanum lets it know one spell of each arcanum level.
    let any_list_cantrips: u32 = chosen
        .iter()
        .filter_map(|o| catalog.features.get(o))
        .flat_map(|e| &e.grants)
        .map(|g| match g {
            crate::catalog::Grant::AnyListCantrips { count } => *count,
            _ => 0,
        })
        .sum();
    let arcanum: Vec<u8> = if row.pact_slots.is_some() {
        c.derived
            .iter()
            .flat_map(|d| &d.feature_spells)
            .filter(|f| f.spell.is_none())
            .filter_map(|f| f.level)
            .collect()
    } else {
        Vec::new()
    };
    if let Some(sub) = subclass.and_then(|s| srd.subclass(s)) {
        // The levels of the class's and subclass's features that grant them; a subclass whose
        // spells no feature names (the Fiend's expanded list) has them from their own levels.
        let class_rows = (1..=20u8).filter_map(|l| srd.class_level(&k.index, l));
        let mut granting: Vec<u32> = class_rows
            .flat_map(|r| r.features.iter().map(move |f| (r.level, f.index.as_str())))
            .chain(srd.features().iter().filter_map(|f| {
                f.subclass
                    .as_ref()
                    .filter(|r| r.index == sub.index)
                    .map(|_| (f.level, f.index.as_str()))
            }))
            .filter(|(_, i)| grants_spells(i))
            .map(|(l, _)| u32::from(l))
            .collect();
        granting.sort_unstable();
        let from = granting.first().copied().unwrap_or(1);
        for s in sub.spells.iter().filter(|s| {
            from <= u32::from(s.level)
                && u32::from(s.level) <= *level
                && s.features.iter().all(|f| chosen.contains(f))
        }) {
            if known_caster {
                extra_list.push(s.spell.index.clone());
            } else {
                always_prepared.push(s.spell.name.clone());
            }
        }
    }
    Some(SpellRules {
        class: k.name.clone(),
        class_index: k.index.clone(),
        level: *level,
        ability,
        cantrips: row.cantrips_known.map(|n| u32::from(n) + bonus_cantrips),
        known,
        prepared,
        spellbook: k.index == "wizard",
        max_spell_level,
        always_prepared,
        extra_list,
        any_list,
        any_list_cantrips,
        arcanum,
    })
}

impl SpellRules {
    /// Whether `name` is always prepared (a domain or oath spell).
    pub fn always(&self, name: &str) -> bool {
        let key = name_key(name);
        self.always_prepared.iter().any(|s| name_key(s) == key)
    }
}

/// Every rule `c`'s spell choices break (empty when they are legal, or when the character is
/// not an SRD caster). `spells` is the prepared/known list, `spellbook` the wizard's book; a
/// multiclassed caster's spells are checked per class (see [`assignment`]).
pub fn problems(srd: &Compendium, c: &Character) -> Vec<String> {
    let all = all_rules(srd, c);
    if all.is_empty() {
        return Vec::new();
    }
    if !multiclassed(c) {
        let spells: Vec<&String> = c.spells.iter().collect();
        return check_class(srd, c, &all[0], &spells);
    }
    let mut out = Vec::new();
    let classes = all
        .iter()
        .map(|r| r.class.to_lowercase())
        .collect::<Vec<_>>()
        .join(" or ");
    let assigned = assignment(srd, c, &all);
    for a in &assigned {
        match (&a.class, srd.spell(&a.spell)) {
            (_, None) => out.push(format!(
                "'{}' is not an SRD spell; give an SRD spell name (search_compendium type spells class {})",
                a.spell, all[0].class_index
            )),
            (None, Some(s)) => match &a.asked {
                Some(asked) => out.push(format!(
                    "{} is listed as a {asked} spell, but {} has no {asked} spellcasting levels (their casting classes: {})",
                    s.name,
                    c.name,
                    all.iter()
                        .map(|r| r.class.to_lowercase())
                        .collect::<Vec<_>>()
                        .join(", ")
                )),
                None => out.push(format!("{} is not on the {classes} spell list", s.name)),
            },
            (Some(_), Some(_)) => {}
        }
    }
    for (i, r) in all.iter().enumerate() {
        let mine: Vec<&String> = assigned
            .iter()
            .filter(|a| a.class == Some(i) && srd.spell(&a.spell).is_some())
            .map(|a| &a.spell)
            .collect();
        out.extend(check_class(srd, c, r, &mine));
    }
    out
}

/// The rules one class's spells break, as if single-classed.
fn check_class(srd: &Compendium, c: &Character, r: &SpellRules, spells: &[&String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut cantrips = Vec::new();
    let mut leveled = Vec::new();
    let mut secrets_left = r.any_list;
    let mut tome_left = r.any_list_cantrips;
    let mut arcana: Vec<u8> = Vec::new();
    for name in spells.iter().copied() {
        let Some(s) = srd.spell(name) else {
            out.push(format!(
                "'{name}' is not an SRD spell; give an SRD spell name (search_compendium type spells class {})",
                r.class_index
            ));
            continue;
        };
        let on_list = s.classes.iter().any(|k| k.index == r.class_index)
            || r.extra_list.contains(&s.index)
            || r.always(&s.name);
        if !on_list && s.level == 0 && tome_left > 0 {
            // Pact of the Tome: a cantrip of any class's list.
            tome_left -= 1;
            cantrips.push(s.name.clone());
            continue;
        } else if !on_list && secrets_left > 0 {
            // Magical Secrets: a spell of any class's list.
            secrets_left -= 1;
        } else if !on_list {
            out.push(format!(
                "{} is not on the {} spell list{}",
                s.name,
                r.class.to_lowercase(),
                if r.any_list > 0 {
                    format!(
                        " (Magical Secrets allows {} from other lists, all taken)",
                        r.any_list
                    )
                } else {
                    String::new()
                }
            ));
        }
        if s.level > r.max_spell_level && r.arcanum.contains(&s.level) {
            // Mystic Arcanum: one spell of the level, cast once per long rest, not counted.
            if arcana.contains(&s.level) {
                out.push(format!(
                    "{} is a second level-{} spell; Mystic Arcanum gives one spell of that level",
                    s.name, s.level
                ));
            }
            arcana.push(s.level);
            continue;
        }
        if s.level > r.max_spell_level {
            out.push(format!(
                "{} is a level-{} spell; a {} {} has slots up to level {}",
                s.name,
                s.level,
                r.class.to_lowercase(),
                r.level,
                r.max_spell_level
            ));
        }
        if s.level == 0 {
            cantrips.push(s.name.clone());
        } else if !r.always(&s.name) {
            leveled.push(s.name.clone());
        }
    }
    let max_cantrips = r.cantrips.unwrap_or(0) + (r.any_list_cantrips - tome_left);
    if cantrips.len() as u32 > max_cantrips {
        out.push(format!(
            "a {} {} knows {max_cantrips} cantrips; {} given ({})",
            r.class.to_lowercase(),
            r.level,
            cantrips.len(),
            cantrips.join(", ")
        ));
    }
    if let Some(n) = r.known
        && leveled.len() as u32 > n
    {
        out.push(format!(
            "a {} {} knows {n} spells of 1st level and higher; {} given ({})",
            r.class.to_lowercase(),
            r.level,
            leveled.len(),
            leveled.join(", ")
        ));
    }
    if let Some((n, how)) = &r.prepared
        && leveled.len() as u32 > *n
    {
        out.push(format!(
            "a {} {} prepares {n} spells ({how}); {} prepared ({}){}",
            r.class.to_lowercase(),
            r.level,
            leveled.len(),
            leveled.join(", "),
            if r.always_prepared.is_empty() {
                String::new()
            } else {
                format!(
                    "; {} always prepared, not counted",
                    r.always_prepared.join(", ")
                )
            }
        ));
    }
    if r.spellbook {
        let book: Vec<String> = c.spellbook.iter().map(|s| name_key(s)).collect();
        let missing: Vec<&String> = leveled
            .iter()
            .filter(|s| !book.contains(&name_key(s)))
            .collect();
        if !missing.is_empty() {
            out.push(format!(
                "a wizard prepares from its spellbook; not in it: {} (spellbook: {})",
                missing
                    .iter()
                    .map(|s| s.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
                if c.spellbook.is_empty() {
                    "empty".to_string()
                } else {
                    c.spellbook.join(", ")
                }
            ));
        }
        for name in &c.spellbook {
            match srd.spell(name) {
                Some(s) if s.level == 0 => out.push(format!(
                    "{} is a cantrip; cantrips go in spells, not the spellbook",
                    s.name
                )),
                Some(s) if !s.classes.iter().any(|k| k.index == "wizard") => {
                    out.push(format!("{} is not a wizard spell (spellbook)", s.name))
                }
                Some(_) => {}
                None => out.push(format!("'{name}' in the spellbook is not an SRD spell")),
            }
        }
    }
    out
}

/// One line saying what the character may keep, for answers and refusals.
pub fn summary(srd: &Compendium, c: &Character) -> Option<String> {
    let all = all_rules(srd, c);
    if all.is_empty() {
        return None;
    }
    Some(all.iter().map(class_summary).collect::<Vec<_>>().join(". "))
}

/// What one class keeps, in one line.
fn class_summary(r: &SpellRules) -> String {
    let mut parts = Vec::new();
    if let Some(n) = r.cantrips {
        parts.push(format!("{n} cantrips"));
    }
    if let Some(n) = r.known {
        parts.push(format!("{n} spells known"));
    }
    if let Some((_, how)) = &r.prepared {
        parts.push(format!(
            "prepares {how}{}",
            if r.spellbook {
                " from the spellbook"
            } else {
                " from the class list"
            }
        ));
    }
    if !r.always_prepared.is_empty() {
        parts.push(format!("always prepared: {}", r.always_prepared.join(", ")));
    }
    parts.push(format!("spell levels up to {}", r.max_spell_level));
    format!(
        "{} {} spells: {}",
        r.class.to_lowercase(),
        r.level,
        parts.join("; ")
    )
}

/// A wizard with no spellbook yet gets one holding its listed spells of 1st level and higher
/// (a sheet made before spellbooks were kept, or a creation that gave only `spells`). Returns
/// what was done, to say in the answer.
/// Writes the listed spells and the spellbook's SRD spells under their SRD names
/// ("magic-missile" → "Magic Missile"), so the two match however either was given.
pub fn canonical_spell_names(srd: &Compendium, c: &mut Character) {
    for name in c.spells.iter_mut().chain(c.spellbook.iter_mut()) {
        if let Some(s) = srd.spell(name) {
            name.clone_from(&s.name);
        }
    }
    // A spell written twice in the book is one page (the prepared list keeps what was given,
    // so its counts still say when a spell is listed twice).
    let mut seen = Vec::new();
    c.spellbook.retain(|n| {
        let k = name_key(n);
        let fresh = !seen.contains(&k);
        seen.push(k);
        fresh
    });
}

pub fn adopt_spellbook(srd: &Compendium, c: &mut Character) -> Option<String> {
    canonical_spell_names(srd, c);
    let r = rules(srd, c)?;
    if !r.spellbook || !c.spellbook.is_empty() {
        return None;
    }
    let book: Vec<String> = c
        .spells
        .iter()
        .filter_map(|s| srd.spell(s).filter(|x| x.level > 0))
        .map(|x| x.name.clone())
        .collect();
    if book.is_empty() {
        return None;
    }
    c.spellbook = book;
    Some(format!(
        "spellbook: {} (the listed spells of 1st level and higher; add more with spellbook)",
        c.spellbook.join(", ")
    ))
}

/// One listed spell and the class it belongs to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Assigned {
    /// The spell as listed.
    pub spell: String,
    /// Index into [`all_rules`]; `None` when on none of the character's class lists.
    pub class: Option<usize>,
    /// The class `spell_classes` names for it, when that names no casting class of the character.
    pub asked: Option<String>,
    /// It was on several of the classes' lists and the engine chose (said in the answer).
    pub chosen: bool,
}

fn on_list(r: &SpellRules, s: &tabletop_srd::model::Spell) -> bool {
    s.classes.iter().any(|k| k.index == r.class_index)
        || r.extra_list.contains(&s.index)
        || r.always(&s.name)
}

/// The class each listed spell belongs to: the one `spell_classes` names; else the only one of
/// the character's casting classes with it on its list; else (on several lists) the first of
/// those with room left in its count, or the first of them.
pub fn assignment(srd: &Compendium, c: &Character, all: &[SpellRules]) -> Vec<Assigned> {
    let named = |spell: &str| -> Option<&String> {
        let key = name_key(spell);
        c.spell_classes
            .iter()
            .find(|(k, _)| name_key(k) == key)
            .map(|(_, v)| v)
    };
    let index_of = |class: &str| {
        let key = name_key(class);
        all.iter()
            .position(|r| name_key(&r.class) == key || r.class_index == key)
    };
    let mut out: Vec<Assigned> = Vec::new();
    let mut open: Vec<(usize, Vec<usize>)> = Vec::new();
    // (cantrips, leveled) counted per class so far.
    let mut used = vec![(0u32, 0u32); all.len()];
    for name in &c.spells {
        let mut a = Assigned {
            spell: name.clone(),
            class: None,
            asked: None,
            chosen: false,
        };
        let spell = srd.spell(name);
        if all.len() == 1 {
            a.class = Some(0);
        } else if let Some(asked) = named(name) {
            a.class = index_of(asked);
            if a.class.is_none() {
                a.asked = Some(asked.to_lowercase());
            }
        } else if let Some(s) = spell {
            let lists: Vec<usize> = (0..all.len()).filter(|i| on_list(&all[*i], s)).collect();
            match lists.as_slice() {
                [one] => a.class = Some(*one),
                [] => {}
                _ => open.push((out.len(), lists)),
            }
        }
        if let (Some(i), Some(s)) = (a.class, spell) {
            count(&mut used[i], &all[i], s);
        }
        out.push(a);
    }
    for (at, lists) in open {
        let Some(s) = srd.spell(&out[at].spell) else {
            continue;
        };
        let room = lists
            .iter()
            .copied()
            .find(|i| has_room(used[*i], &all[*i], s.level))
            .unwrap_or(lists[0]);
        count(&mut used[room], &all[room], s);
        out[at].class = Some(room);
        out[at].chosen = true;
    }
    out
}

fn count(used: &mut (u32, u32), r: &SpellRules, s: &tabletop_srd::model::Spell) {
    if s.level == 0 {
        used.0 += 1;
    } else if !r.always(&s.name) {
        used.1 += 1;
    }
}

fn has_room(used: (u32, u32), r: &SpellRules, level: u8) -> bool {
    if level == 0 {
        return used.0 < r.cantrips.unwrap_or(0);
    }
    if level > r.max_spell_level {
        return false;
    }
    let cap = r.known.or(r.prepared.as_ref().map(|p| p.0)).unwrap_or(0);
    used.1 < cap
}

/// A multiclassed caster's spells are stored with their class (`spell_classes`): the ones the
/// engine placed are recorded and said; entries for spells no longer listed are dropped.
/// Nothing changes for a single-class caster.
pub fn record_classes(srd: &Compendium, c: &mut Character) -> Vec<String> {
    let all = all_rules(srd, c);
    if !multiclassed(c) || all.len() < 2 {
        return Vec::new();
    }
    let mut said = Vec::new();
    let assigned = assignment(srd, c, &all);
    let mut map = std::collections::BTreeMap::new();
    for a in &assigned {
        let Some(i) = a.class else {
            if let Some(asked) = &a.asked {
                map.insert(a.spell.clone(), asked.clone());
            }
            continue;
        };
        let class = all[i].class.to_lowercase();
        if a.chosen {
            said.push(format!(
                "{} counted as a {class} spell (it is on several of their class lists; spellClasses changes it)",
                a.spell
            ));
        }
        map.insert(a.spell.clone(), class);
    }
    c.spell_classes = map;
    said
}

/// The rules of the class `spell` is cast with: the class it was learned with when it is
/// listed, else the first of the character's casting classes that has it on its list (or always
/// prepared), else the first casting class.
pub fn rules_for_spell(srd: &Compendium, c: &Character, spell: &str) -> Option<SpellRules> {
    let mut all = all_rules(srd, c);
    if all.len() < 2 {
        return all.pop();
    }
    let key = name_key(spell);
    if let Some(a) = assignment(srd, c, &all)
        .into_iter()
        .find(|a| name_key(&a.spell) == key)
        && let Some(i) = a.class
    {
        return Some(all.swap_remove(i));
    }
    let i = srd
        .spell(spell)
        .and_then(|s| all.iter().position(|r| on_list(r, s)))
        .unwrap_or(0);
    Some(all.swap_remove(i))
}

/// Why a caster whose sheet lists no spells cannot cast: what each of its classes asks it to
/// choose or prepare first. `None` when it is no SRD caster.
pub fn choose_first(srd: &Compendium, c: &Character) -> Option<String> {
    let all = all_rules(srd, c);
    if all.is_empty() {
        return None;
    }
    let mut prepares = false;
    let mut parts = Vec::new();
    for r in &all {
        let class = r.class.to_lowercase();
        let list = format!(
            "the {class} spell list (search_compendium type spells class {})",
            r.class_index
        );
        let mut pick = Vec::new();
        if let Some(n) = r.cantrips.filter(|n| *n > 0) {
            pick.push(format!("{n} cantrips"));
        }
        if let Some(n) = r.known.filter(|n| *n > 0) {
            pick.push(format!("{n} spells of 1st level and higher"));
        }
        let mut said = Vec::new();
        if !pick.is_empty() {
            said.push(format!("picks {} from {list}", pick.join(" and ")));
        }
        if let Some((n, how)) = r.prepared.as_ref().filter(|p| p.0 > 0) {
            prepares = true;
            let from = if r.spellbook {
                "its spellbook (update_character spellbook)"
            } else if pick.is_empty() {
                list.as_str()
            } else {
                "that list"
            };
            said.push(format!("prepares {n} spells ({how}) from {from}"));
        }
        if said.is_empty() {
            parts.push(format!("a {class} {} has no spells yet", r.level));
        } else {
            parts.push(format!("a {class} {} {}", r.level, said.join(" and ")));
        }
    }
    let what = if prepares {
        "has no spells prepared: prepare spells first"
    } else {
        "knows no spells yet: choose them first"
    };
    Some(format!(
        "{} {what} ({}); set them with update_character spells",
        c.name,
        parts.join("; ")
    ))
}
