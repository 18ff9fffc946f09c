//! Charges coming back: at dawn, at dusk, or after a rest, by the item's recharge dice.

use tabletop_rules::DieRoller;
use tabletop_rules::dice;

use crate::error::Result;
use crate::model::character::Character;
use crate::model::inventory::Recharge;

/// When charges come back: a rest or a time of day.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RechargeEvent {
    /// Dawn.
    Dawn,
    /// Dusk.
    Dusk,
    /// The end of a short rest.
    ShortRest,
    /// The end of a long rest.
    LongRest,
}

/// Recharges `c`'s items whose charges come back at `event` (rolling their recharge dice);
/// for the rest and time-keeping tools. Returns what changed.
pub fn recharge(
    c: &mut Character,
    event: RechargeEvent,
    roller: &mut impl DieRoller,
) -> Result<Vec<String>> {
    let mut changes = Vec::new();
    for it in &mut c.inventory.items {
        let Some(ch) = it.charges.as_mut() else {
            continue;
        };
        let due = matches!(
            (ch.recharge, event),
            (Recharge::Dawn, RechargeEvent::Dawn)
                | (Recharge::Dusk, RechargeEvent::Dusk)
                | (
                    Recharge::ShortRest,
                    RechargeEvent::ShortRest | RechargeEvent::LongRest
                )
                | (Recharge::LongRest, RechargeEvent::LongRest)
        );
        if !due || ch.current >= ch.max {
            continue;
        }
        let gain = match &ch.recharge_dice {
            Some(d) => u32::try_from(dice::roll(d, roller)?.total.max(0)).unwrap_or(0),
            None => ch.max,
        };
        let before = ch.current;
        ch.current = ch.current.saturating_add(gain).min(ch.max);
        changes.push(format!(
            "{} recharges {before} → {}/{}",
            it.name, ch.current, ch.max
        ));
    }
    Ok(changes)
}
