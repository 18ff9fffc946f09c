//! Class rules applied where they happen outside casting (issue 17): a short rest's Sorcerous
//! Restoration (4 sorcery points), Natural Recovery (spell slots up to half the druid level,
//! once a day) and Song of Rest (a bard of the resting creature's party adds a die to hit-dice
//! healing); Superior Inspiration when initiative is rolled; Flexible Casting's conversions
//! between sorcery points and spell slots (`manage_spell_slots`).

use crate::catalog::caster_rules::{CasterRule, slot_cost};
use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::build::CasterRuleSpec;
use crate::model::character::Character;
use crate::model::slots::ordinal;

/// The class rules `c` has in play.
pub fn rules(c: &Character) -> &[CasterRuleSpec] {
    c.derived.as_ref().map_or(&[], |d| d.class_rules.as_slice())
}

/// The first rule of `c` that `f` picks.
pub fn find<T>(
    c: &Character,
    f: impl Fn(&CasterRule) -> Option<T>,
) -> Option<(T, &CasterRuleSpec)> {
    rules(c).iter().find_map(|r| f(&r.rule).map(|t| (t, r)))
}

/// Whether `c` has `rule`.
pub fn has(c: &Character, rule: CasterRule) -> bool {
    rules(c).iter().any(|r| r.rule == rule)
}

/// The sorcery points resource: (left, max).
pub fn sorcery_points(c: &Character) -> Option<(u32, u32)> {
    c.resources
        .iter()
        .find(|r| r.name.eq_ignore_ascii_case("Sorcery Points"))
        .map(|r| (r.current, r.max))
}

/// Spends `n` sorcery points, refusing when fewer are left.
pub fn spend_points(c: &mut Character, n: u32, what: &str) -> Result<u32> {
    let name = c.name.clone();
    let Some(r) = c
        .resources
        .iter_mut()
        .find(|r| r.name.eq_ignore_ascii_case("Sorcery Points"))
    else {
        return Err(EngineError::Rule(format!(
            "{name} has no sorcery points (Font of Magic, sorcerer 2) for {what}"
        )));
    };
    if r.current < n {
        return Err(EngineError::Rule(format!(
            "{what} costs {n} sorcery point(s); {name} has {} left",
            r.current
        )));
    }
    r.current -= n;
    Ok(r.current)
}

/// A short rest's class rules for `c` (after its hit dice are spent): Sorcerous Restoration,
/// Natural Recovery and Arcane Recovery. Lines say what came back.
pub fn short_rest(c: &mut Character, changes: &mut Vec<String>) {
    if let Some((points, _)) = find(c, |r| match r {
        CasterRule::SorcerousRestoration { points } => Some(*points),
        _ => None,
    }) && let Some(r) = c
        .resources
        .iter_mut()
        .find(|r| r.name.eq_ignore_ascii_case("Sorcery Points"))
        && r.current < r.max
    {
        let before = r.current;
        r.current = (r.current + points).min(r.max);
        changes.push(format!(
            "Sorcerous Restoration: sorcery points {before} → {}",
            r.current
        ));
    }
    for (rule, name) in [
        (CasterRule::NaturalRecovery, "Natural Recovery"),
        (CasterRule::ArcaneRecovery, "Arcane Recovery"),
    ] {
        recover_slots(c, rule, name, changes);
    }
}

/// Natural Recovery or Arcane Recovery (`rule`, its daily resource `name`) on a short rest:
/// expended slots totalling up to half the class level (rounded up), none 6th or higher, come
/// back, the highest first, spending the day's use.
fn recover_slots(c: &mut Character, rule: CasterRule, name: &str, changes: &mut Vec<String>) {
    let Some(level) = find(c, |r| (*r == rule).then_some(())).map(|(_, spec)| spec.level) else {
        return;
    };
    let ready = c
        .resources
        .iter()
        .any(|r| r.name.eq_ignore_ascii_case(name) && r.current > 0);
    if !ready {
        if c.spell_slots.used.iter().any(|u| *u > 0) {
            changes.push(format!(
                "{name} was used since the last long rest: no slots come back"
            ));
        }
        return;
    }
    let mut budget = level.div_ceil(2);
    let mut back: Vec<String> = Vec::new();
    for lvl in (1..=5u8).rev() {
        let i = usize::from(lvl - 1);
        while c.spell_slots.used[i] > 0 && u32::from(lvl) <= budget {
            c.spell_slots.used[i] -= 1;
            budget -= u32::from(lvl);
            back.push(ordinal(lvl));
        }
    }
    if back.is_empty() {
        return;
    }
    if let Some(r) = c
        .resources
        .iter_mut()
        .find(|r| r.name.eq_ignore_ascii_case(name))
    {
        r.current = r.current.saturating_sub(1);
    }
    changes.push(format!(
        "{name}: {} slot(s) come back ({}); left: {}",
        back.len(),
        back.join(", "),
        c.spell_slots.summary()
    ));
}

/// Song of Rest: the largest die a conscious bard of `c`'s parties (or `c` itself) grants.
fn song_of_rest(call: &Call<'_>, c: &Character) -> Result<Option<(u32, String)>> {
    let die = |b: &Character| {
        rules(b)
            .iter()
            .filter_map(|r| match r.rule {
                CasterRule::SongOfRest { faces } => Some(faces),
                _ => None,
            })
            .max()
    };
    let mut best: Option<(u32, String)> = die(c).map(|f| (f, c.name.clone()));
    let parties = call.tx_ref().list_parties(call.campaign())?;
    for p in parties
        .iter()
        .filter(|p| p.members.iter().any(|m| m.character_id == c.id))
    {
        for m in p.members.iter().filter(|m| m.character_id != c.id) {
            let Ok(b) = crate::combat::sheet(call, &m.character_id) else {
                continue;
            };
            if b.dead || b.hp == 0 {
                continue;
            }
            if let Some(f) = die(&b)
                && best.as_ref().is_none_or(|(g, _)| f > *g)
            {
                best = Some((f, b.name.clone()));
            }
        }
    }
    Ok(best)
}

/// After `c` spent hit dice on a short rest: Song of Rest's extra die, if a bard sings.
pub fn after_hit_dice(
    call: &mut Call<'_>,
    c: &mut Character,
    max_hp: u32,
    changes: &mut Vec<String>,
) -> Result<()> {
    let Some((faces, bard)) = song_of_rest(call, c)? else {
        return Ok(());
    };
    let r = crate::rolls::caller_amount("healing", &format!("1d{faces}"))?.roll(call.rng()?)?;
    call.record_roll(&r);
    let before = c.hp;
    let gain = u32::try_from(r.total.max(0)).unwrap_or(0);
    c.hp = (c.hp + gain).min(max_hp);
    changes.push(format!(
        "Song of Rest ({bard}): 1d{faces} = {} more; HP {before} → {}",
        r.total, c.hp
    ));
    Ok(())
}

/// Initiative is rolled with `c` in the fight: Superior Inspiration gives one Bardic Inspiration
/// back when none is left. Returns the line when it did.
pub fn on_initiative(c: &mut Character) -> Option<String> {
    if !has(c, CasterRule::SuperiorInspiration) {
        return None;
    }
    let r = c
        .resources
        .iter_mut()
        .find(|r| r.name.eq_ignore_ascii_case("Bardic Inspiration") && r.current == 0)?;
    r.current = 1;
    Some(format!(
        "Superior Inspiration: {} regains 1 Bardic Inspiration (none was left)",
        c.name
    ))
}

/// Flexible Casting: what a conversion did.
#[derive(Debug, Clone)]
pub struct Conversion {
    /// One line.
    pub line: String,
}

/// Flexible Casting, sorcery points into a slot of `level` (1st–5th) that lasts until the long
/// rest (a bonus action in combat: the DM charges it).
pub fn create_slot(c: &mut Character, level: u8) -> Result<Conversion> {
    if !has(c, CasterRule::FlexibleCasting) {
        return Err(EngineError::Rule(format!(
            "{} has no Flexible Casting (sorcerer 2)",
            c.name
        )));
    }
    let Some(cost) = slot_cost(level) else {
        return Err(EngineError::invalid(
            "slotLevel",
            "Flexible Casting creates slots of 1st–5th level (2, 3, 5, 6, 7 sorcery points)",
        ));
    };
    let i = usize::from(level - 1);
    if c.spell_slots.used[i] == 0 {
        // A created slot beyond the table's: the maximum grows until the long rest.
        spend_points(c, cost, &format!("a {} slot", ordinal(level)))?;
        c.spell_slots.max[i] = c.spell_slots.max[i].saturating_add(1);
        c.spell_slots.created[i] = c.spell_slots.created[i].saturating_add(1);
    } else {
        spend_points(c, cost, &format!("a {} slot", ordinal(level)))?;
        c.spell_slots.used[i] -= 1;
    }
    let left = sorcery_points(c).map_or(0, |p| p.0);
    Ok(Conversion {
        line: format!(
            "Flexible Casting: {cost} sorcery points → a {} slot; sorcery points left {left}; slots: {}",
            ordinal(level),
            c.spell_slots.summary()
        ),
    })
}

/// Flexible Casting, a slot of `level` into that many sorcery points (up to the maximum).
pub fn convert_slot(c: &mut Character, level: u8) -> Result<Conversion> {
    if !has(c, CasterRule::FlexibleCasting) {
        return Err(EngineError::Rule(format!(
            "{} has no Flexible Casting (sorcerer 2)",
            c.name
        )));
    }
    if !(1..=9).contains(&level) || c.spell_slots.left(level) == 0 {
        return Err(EngineError::Rule(format!(
            "{} has no {} slot left to convert; slots: {}",
            c.name,
            ordinal(level.clamp(1, 9)),
            c.spell_slots.summary()
        )));
    }
    let name = c.name.clone();
    let Some(r) = c
        .resources
        .iter_mut()
        .find(|r| r.name.eq_ignore_ascii_case("Sorcery Points"))
    else {
        return Err(EngineError::Rule(format!("{name} has no sorcery points")));
    };
    if r.current >= r.max {
        return Err(EngineError::Rule(format!(
            "{name}'s sorcery points are full ({}/{}); nothing to gain",
            r.current, r.max
        )));
    }
    let before = r.current;
    r.current = (r.current + u32::from(level)).min(r.max);
    let now = r.current;
    c.spell_slots.used[usize::from(level - 1)] += 1;
    Ok(Conversion {
        line: format!(
            "Flexible Casting: a {} slot → sorcery points {before} → {now}; slots: {}",
            ordinal(level),
            c.spell_slots.summary()
        ),
    })
}
