//! Dawn: when the world clock passes 06:00, every item whose charges come back at dawn regains
//! them by its recharge dice (a Wand of Magic Missiles 1d6+1), once per dawn passed.

use crate::engine::Call;
use crate::error::Result;
use crate::inventory::recharge::{RechargeEvent, recharge};
use crate::model::inventory::Recharge;
use crate::model::memory::{DAY, HOUR};

/// How many dawns (06:00) lie in (from, to].
pub fn dawns_between(from: u64, to: u64) -> u64 {
    let day_of = |s: u64| (s + DAY - 6 * HOUR) / DAY;
    day_of(to).saturating_sub(day_of(from))
}

/// Recharges the dawn items of every character not in `skip`, once per dawn in `dawns` (at most
/// a few: after that every item is full); returns what changed, one line per item.
pub fn recharge_at_dawn(call: &mut Call<'_>, dawns: u64, skip: &[String]) -> Result<Vec<String>> {
    let mut lines = Vec::new();
    if dawns == 0 {
        return Ok(lines);
    }
    let campaign = call.campaign();
    let filter = crate::model::character::CharacterFilter::default();
    let (all, _) = call
        .tx_ref()
        .list_characters(campaign, &filter, usize::MAX, 0)?;
    for mut c in all {
        let due = c.inventory.items.iter().any(|it| {
            it.charges
                .as_ref()
                .is_some_and(|ch| ch.recharge == Recharge::Dawn && ch.current < ch.max)
        });
        if skip.contains(&c.id) || !due {
            continue;
        }
        let mut changed = Vec::new();
        for _ in 0..dawns.min(3) {
            changed.extend(recharge(&mut c, RechargeEvent::Dawn, call.rng()?)?);
        }
        if changed.is_empty() {
            continue;
        }
        call.tx().put_character(campaign, &c)?;
        call.record_change("character", &c.id, format!("dawn: {}", changed.join("; ")));
        lines.extend(
            changed
                .into_iter()
                .map(|l| format!("{} (dawn, {})", l, c.name)),
        );
    }
    Ok(lines)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dawns_are_counted_at_six() {
        assert_eq!(dawns_between(8 * HOUR, 20 * HOUR), 0);
        assert_eq!(dawns_between(8 * HOUR, DAY + 6 * HOUR), 1);
        assert_eq!(dawns_between(5 * HOUR, 6 * HOUR), 1);
        assert_eq!(dawns_between(6 * HOUR, 7 * HOUR), 0);
        assert_eq!(dawns_between(0, 3 * DAY), 3);
    }
}
