//! What a potion does when drunk beyond its timed modifiers (which `use` puts on as an effect):
//! temporary hit points (Heroism), a condition for its duration (Invisibility: until the drinker
//! attacks or casts a spell), a duration rolled in hours (Growth, Diminution: 1d4 hours), damage
//! and a save against a condition (Poison). The effects and conditions end by the world clock.

use tabletop_rules::d20::{D20Request, D20Test, roll_d20_test};
use tabletop_rules::damage::DamagePart;
use tabletop_rules::dice;

use crate::catalog::items::{ItemEntry, ItemKind};
use crate::engine::Call;
use crate::error::Result;
use crate::model::character::{Character, ConditionEntry};
use crate::model::effects::Duration;
use crate::model::inventory::Item;

/// The words a condition's source ends with when it ends as its bearer attacks or casts.
pub const UNTIL_OFFENSE: &str = "(until it attacks or casts a spell)";

/// The catalog entry of a potion with more than modifiers, if `item` is one.
/// (a charged item that imposes a condition on a save — a Mace of Terror — works the same on
/// its target).
pub fn entry_of(call: &Call<'_>, item: &Item) -> Option<&'static ItemEntry> {
    let e = match item.catalog_entry() {
        Some(e) => e,
        None => {
            let m = call.compendium()?.magic_item(&item.name)?;
            crate::catalog::items::entry(&m.index)?
        }
    };
    (e.kind == ItemKind::Potion
        || (e.kind == ItemKind::Charged && (e.condition.is_some() || e.damage.is_some())))
    .then_some(e)
}

/// Applies `e`'s extras to `bearer`, who drank `item_name`; returns what changed.
pub fn drink(
    call: &mut Call<'_>,
    e: &ItemEntry,
    item_name: &str,
    bearer: &mut Character,
) -> Result<Vec<String>> {
    let mut changes = Vec::new();
    let mut rounds = e.minutes.map(|m| m.saturating_mul(10));
    if let Some(h) = &e.hours_dice {
        let r = dice::roll(h, call.rng()?)?;
        call.record_roll(&r);
        let hours = u32::try_from(r.total.max(1)).unwrap_or(1);
        let n = hours.saturating_mul(600);
        rounds = Some(n);
        for ef in bearer.effects.iter_mut().filter(|x| x.name == item_name) {
            ef.duration = Duration::Rounds { remaining: n };
        }
        changes.push(format!(
            "{item_name} lasts {h} = {hours} hour{}",
            if hours == 1 { "" } else { "s" }
        ));
    }
    if let Some(m) = &e.minutes_dice {
        let r = dice::roll(m, call.rng()?)?;
        call.record_roll(&r);
        let minutes = u32::try_from(r.total.max(1)).unwrap_or(1);
        let n = minutes.saturating_mul(10);
        rounds = Some(n);
        for ef in bearer.effects.iter_mut().filter(|x| x.name == item_name) {
            ef.duration = Duration::Rounds { remaining: n };
        }
        changes.push(format!(
            "{item_name} lasts {m} = {minutes} minute{}",
            if minutes == 1 { "" } else { "s" }
        ));
    }
    if let Some(t) = e.temp_hp {
        if t > bearer.temp_hp {
            changes.push(format!(
                "{} has {t} temporary HP (was {})",
                bearer.name, bearer.temp_hp
            ));
            bearer.temp_hp = t;
        } else {
            changes.push(format!(
                "{} keeps its {} temporary HP (more than the potion's {t})",
                bearer.name, bearer.temp_hp
            ));
        }
    }
    // A save against the damage itself comes first (Horn of Blasting: half on a success).
    let early = e.save.filter(|sv| sv.half || sv.negates);
    let mut early_saved = None;
    if let Some(sv) = early {
        let ok = save(call, bearer, sv, item_name, &mut changes)?;
        early_saved = Some(ok);
    }
    if let Some(d) = &e.damage {
        let r = dice::roll(d, call.rng()?)?;
        call.record_roll(&r);
        let rolled = u32::try_from(r.total.max(0)).unwrap_or(0);
        let amount = match (early, early_saved) {
            (Some(sv), Some(true)) if sv.negates => 0,
            (Some(_), Some(true)) => rolled / 2,
            _ => rolled,
        };
        if amount != rolled {
            changes.push(format!(
                "{} saves: {} damage instead of {rolled}",
                bearer.name, amount
            ));
        }
        let mut lines = Vec::new();
        let res = crate::update::damage(
            bearer,
            &[DamagePart::new(e.damage_type, amount)],
            false,
            &mut lines,
        )?;
        changes.push(format!(
            "{item_name} deals {d} = {amount}{} → {} takes {} ({} → {} HP)",
            e.damage_type.map(|t| format!(" {t}")).unwrap_or_default(),
            bearer.name,
            res.total,
            res.hp_before,
            res.hp_after
        ));
        changes.extend(lines);
    }
    let mut impose = e.condition.is_some();
    if let (Some(sv), Some(c)) = (e.save, e.condition) {
        let saved = match early_saved {
            Some(s) => s,
            None => save(call, bearer, sv, item_name, &mut changes)?,
        };
        impose = !saved;
        if !impose {
            changes.push(format!("{} is not {c}", bearer.name));
        }
    }
    if let (true, Some(c)) = (impose, e.condition) {
        if bearer.effective().is_immune_to(c) {
            changes.push(format!("{} is immune to {c}", bearer.name));
        } else {
            let source = if e.until_offense {
                format!("{item_name} {UNTIL_OFFENSE}")
            } else {
                item_name.to_string()
            };
            bearer
                .conditions
                .retain(|x| !(x.condition == c && x.source == source));
            bearer.conditions.push(ConditionEntry {
                by: None,
                ends_on: None,
                condition: c,
                level: None,
                source: source.clone(),
                duration: rounds.map(|r| Duration::Rounds { remaining: r }),
            });
            changes.push(format!(
                "{} is {c}{}{}",
                bearer.name,
                rounds
                    .map(|r| format!(" for {}", span(r)))
                    .unwrap_or_default(),
                if e.until_offense {
                    " or until it attacks or casts a spell"
                } else {
                    ""
                }
            ));
        }
    }
    Ok(changes)
}

/// Rolls `bearer`'s save against `item_name`; says so in `changes`; whether it succeeded.
fn save(
    call: &mut Call<'_>,
    bearer: &Character,
    sv: crate::catalog::items::ItemSave,
    item_name: &str,
    changes: &mut Vec<String>,
) -> Result<bool> {
    let stats = bearer.effective();
    let req = D20Request::new(D20Test::Save {
        ability: sv.ability,
    })
    .dc(sv.dc)
    .labelled(format!("{} save vs {item_name}", sv.ability.name()));
    let out = roll_d20_test(&stats, &req, call.rng()?);
    call.record_roll(&out);
    changes.push(format!("{} — {}", bearer.name, out.summary()));
    Ok(out.success == Some(true))
}

/// Ends the conditions on `c` that last until it attacks or casts a spell; returns a line for
/// each.
pub fn end_on_offense(c: &mut Character) -> Vec<String> {
    let mut ended = Vec::new();
    c.conditions.retain(|x| {
        let end = x.source.ends_with(UNTIL_OFFENSE);
        if end {
            ended.push(format!(
                "{} is no longer {} ({} ends: it attacked or cast a spell)",
                c.name,
                x.condition,
                x.source.trim_end_matches(UNTIL_OFFENSE).trim()
            ));
        }
        !end
    });
    ended
}

/// "1 hour", "3 hours", "10 minutes" for a duration in rounds.
fn span(rounds: u32) -> String {
    if rounds.is_multiple_of(600) {
        let h = rounds / 600;
        format!("{h} hour{}", if h == 1 { "" } else { "s" })
    } else {
        let m = rounds / 10;
        format!("{m} minute{}", if m == 1 { "" } else { "s" })
    }
}
