//! A flying creature that can no longer fly falls (SRD Movement and Position: "If a flying
//! creature is knocked prone, has its speed reduced to 0, or is otherwise deprived of the
//! ability to move, the creature falls, unless it has the ability to hover or it is being held
//! aloft by magic"), and takes falling damage (SRD The Environment: "1d6 bludgeoning damage for
//! every 10 feet it fell, to a maximum of 20d6. The creature lands prone"). Checked after every
//! action and turn change, so a creature put to sleep in the air drops at once.

use tabletop_grid::Position;
use tabletop_rules::damage::DamagePart;
use tabletop_rules::{Condition, DamageType, dice};

use crate::engine::Call;
use crate::error::Result;
use crate::model::encounter::Encounter;

/// Every combatant above the ground that is prone or whose speed is 0 and that neither hovers
/// nor flies by magic (an effect granting a flying speed, the Fly spell) falls to the ground of
/// its square; the lines say how far and what it took.
pub fn fall_grounded_flyers(call: &mut Call<'_>, enc: &mut Encounter) -> Result<Vec<String>> {
    let mut lines = Vec::new();
    let ids: Vec<String> = enc
        .order
        .iter()
        .filter(|c| !c.removed)
        .map(|c| c.character_id.clone())
        .collect();
    for id in ids {
        let Some(pos) = enc.map.creature(&id).map(|c| c.position) else {
            continue;
        };
        let ground = enc.map.ground_z(pos);
        if pos.z <= ground {
            continue;
        }
        let c = super::sheet(call, &id)?;
        if c.dead {
            continue;
        }
        let eff = c.effective();
        let grounded = c.has_condition(Condition::Prone) || eff.is_speed_zero();
        let hovers = c.stat_block.as_ref().is_some_and(|s| s.hover);
        let magic = c.effects.iter().any(|e| {
            e.grant
                .as_ref()
                .is_some_and(|g| g.speeds.contains_key("fly"))
        });
        if !grounded || hovers || magic {
            continue;
        }
        let feet = u32::try_from(pos.z - ground).unwrap_or(0).saturating_mul(5);
        enc.map.move_creature(&id, Position { z: ground, ..pos })?;
        let dice_n = (feet / 10).min(20);
        if dice_n == 0 {
            lines.push(format!(
                "{} falls {feet} ft to the ground (under 10 ft: no damage)",
                c.name
            ));
            continue;
        }
        let r = dice::parse(&format!("{dice_n}d6"))?.roll(call.rng()?)?;
        call.record_roll(&r);
        let amount = u32::try_from(r.total.max(0)).unwrap_or(0);
        lines.push(format!(
            "{} can't stay aloft and falls {feet} ft to the ground: {}d6 bludgeoning = {amount} ({})",
            c.name,
            dice_n,
            r.summary()
        ));
        let parts = [DamagePart::new(Some(DamageType::Bludgeoning), amount)];
        let (res, _, mut t) =
            super::actions::attack::apply_damage_to(call, enc, &id, &parts, false, &mut lines)?;
        if res.total > 0 && !t.dead && !t.has_condition(Condition::Prone) {
            t.conditions.push(crate::model::character::ConditionEntry {
                by: None,
                ends_on: None,
                condition: Condition::Prone,
                level: None,
                source: "a fall".into(),
                duration: None,
            });
            super::put_sheet(call, &t)?;
            lines.push(format!("{} lands prone", t.name));
        }
    }
    Ok(lines)
}
