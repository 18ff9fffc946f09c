//! Stat-block traits that act on hit points outside an attack roll, read from their SRD text:
//! Regeneration (hit points back at the start of the creature's turn; the damage types its text
//! names stop it at the next turn start; a troll at 0 HP is not dead until a turn start without
//! regeneration) and Relentless (a blow of at most N damage that would drop a boar to 0 leaves
//! it at 1 HP, once until a rest when its text says it recharges after one).
//!
//! Damage taken is recorded on the sheet as it lands ([`after_damage`], called by the damage
//! pipeline `update::damage` that every source of damage goes through), as an effect named
//! [`STOPPED`] that the next turn start reads and removes ([`at_turn_start`]).

use tabletop_rules::DamageType;
use tabletop_rules::damage::{DamageOutcome, DamageResult};

use crate::catalog::Recharge;
use crate::model::character::{Character, Resource};
use crate::model::effects::{ActiveEffect, Duration};
use crate::model::names::name_key;

/// The effect that marks a Regeneration stopped at the next turn start.
pub const STOPPED: &str = "Regeneration stopped";

/// A Regeneration trait as its text writes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Regeneration {
    /// Hit points regained at the start of each turn.
    pub amount: u32,
    /// Damage types that stop it at the next turn start ("takes acid or fire damage").
    pub stopped_by: Vec<DamageType>,
    /// Holy water stops it too (the SRD's holy water deals radiant damage).
    pub holy_water: bool,
    /// Only with at least 1 hit point.
    pub needs_hp: bool,
    /// At 0 HP the creature is not dead until a turn start where it does not regenerate
    /// ("The troll dies only if it starts its turn with 0 hit points and doesn't regenerate").
    pub dies_at_turn_start: bool,
    /// Not in sunlight or running water: the engine tracks neither.
    pub sunlight: bool,
}

/// The creature's Regeneration ("regains 10 hit points at the start of its turn"), if any.
pub fn regeneration(c: &Character) -> Option<Regeneration> {
    let b = c.stat_block.as_ref()?;
    b.special_abilities
        .iter()
        .find_map(|a| regeneration_in(&a.desc))
}

/// A Regeneration read from its text.
pub fn regeneration_in(desc: &str) -> Option<Regeneration> {
    let d = desc.to_lowercase();
    let i = d.find("regains ")?;
    let rest = &d[i + 8..];
    let (n, tail) = rest.split_once(' ')?;
    if !tail.starts_with("hit points at the start of its turn") {
        return None;
    }
    let amount = n.parse().ok()?;
    // "If the troll takes acid or fire damage, this trait doesn't function …"
    let stopped_by = d
        .find("doesn't function")
        .and_then(|end| {
            let head = &d[..end];
            let s = head.rfind("takes ")?;
            let words = &head[s + 6..];
            let e = words.find(" damage")?;
            Some(
                words[..e]
                    .split([',', ' '])
                    .filter_map(|w| w.trim().parse::<DamageType>().ok())
                    .collect::<Vec<_>>(),
            )
        })
        .unwrap_or_default();
    Some(Regeneration {
        amount,
        stopped_by,
        holy_water: d.contains("holy water"),
        needs_hp: d.contains("at least 1 hit point"),
        dies_at_turn_start: d.contains("dies only if it starts its turn with 0 hit points"),
        sunlight: d.contains("sunlight") || d.contains("running water"),
    })
}

/// Whether `c` lies at 0 HP only until its next turn start regenerates it (a troll no fire or
/// acid has touched since): not down, for whether a fight is decided.
pub fn rises_again(c: &Character) -> bool {
    !c.dead
        && c.hp == 0
        && !c.effects.iter().any(|e| e.name == STOPPED)
        && regeneration(c).is_some_and(|r| r.dies_at_turn_start)
}

/// A Relentless trait: the most damage it shrugs off, and when a spent use comes back (`None`:
/// no limit written).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Relentless {
    /// "takes 7 damage or less".
    pub max_damage: u32,
    /// "Recharges after a Short or Long Rest".
    pub recharge: Option<Recharge>,
}

/// The creature's Relentless, if any.
pub fn relentless(c: &Character) -> Option<Relentless> {
    let b = c.stat_block.as_ref()?;
    b.special_abilities.iter().find_map(|a| {
        let name = crate::catalog::monster_abilities::bare_name(&a.name);
        if !name.eq_ignore_ascii_case("Relentless") {
            return None;
        }
        let d = a.desc.to_lowercase();
        let i = d.find("takes ")?;
        let (n, tail) = d[i + 6..].split_once(' ')?;
        if !tail.starts_with("damage or less that would reduce it to 0 hit points") {
            return None;
        }
        let limit = a.recharge.as_deref().unwrap_or(&a.name).to_lowercase();
        let recharge = if limit.contains("short") {
            Some(Recharge::Short)
        } else if limit.contains("long") {
            Some(Recharge::Long)
        } else {
            None
        };
        Some(Relentless {
            max_damage: n.parse().ok()?,
            recharge,
        })
    })
}

/// After the damage pipeline's result `r` for `c` (before it is stored): Relentless holds a
/// small enough drop to 0 at 1 HP; a creature whose Regeneration lets it live at 0 HP is not
/// killed; damage of a type that stops its Regeneration is recorded for its next turn start.
pub fn after_damage(c: &mut Character, r: &mut DamageResult, lines: &mut Vec<String>) {
    if c.dead {
        return;
    }
    hold_relentless(c, r, lines);
    let Some(g) = regeneration(c) else {
        return;
    };
    let stopping: Vec<DamageType> = r
        .by_type
        .iter()
        .filter(|t| t.taken > 0)
        .filter_map(|t| t.damage_type)
        .filter(|t| g.stopped_by.contains(t))
        .collect();
    if !stopping.is_empty() {
        let what = stopping
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" and ");
        let why = format!("took {what} damage");
        match c.effects.iter_mut().find(|e| e.name == STOPPED) {
            Some(e) => e.source = Some(why.clone()),
            None => c.effects.push(ActiveEffect {
                id: format!("regen-stopped-{}", c.id),
                name: STOPPED.into(),
                source: Some(why.clone()),
                modifiers: Vec::new(),
                duration: Duration::UntilDispelled,
                ends_on: None,
                ends_when_attacked: false,
                damaged_since_turn: false,
                grant: None,
            }),
        }
        lines.push(format!(
            "{}'s Regeneration does not work at the start of its next turn ({why})",
            c.name
        ));
    }
    if g.dies_at_turn_start && r.outcome == DamageOutcome::Killed {
        r.dead = false;
        r.outcome = DamageOutcome::Damaged;
        r.add_conditions = vec![tabletop_rules::Condition::Unconscious];
        lines.push(format!(
            "{} is at 0 HP but not dead (Regeneration): it dies only if it starts its turn with \
             0 hit points and doesn't regenerate",
            c.name
        ));
    }
}

/// Relentless: a drop from above 0 to 0 by at most its damage leaves `c` at 1 HP, and spends
/// the use until a rest when the trait recharges.
fn hold_relentless(c: &mut Character, r: &mut DamageResult, lines: &mut Vec<String>) {
    if r.hp_before == 0 || r.hp_after > 0 {
        return;
    }
    let Some(t) = relentless(c) else {
        return;
    };
    if r.total > t.max_damage {
        lines.push(format!(
            "{}'s Relentless does not hold: {} damage is more than {}",
            c.name, r.total, t.max_damage
        ));
        return;
    }
    if let Some(recharge) = t.recharge {
        let key = name_key("Relentless");
        match c.resources.iter_mut().find(|x| name_key(&x.name) == key) {
            Some(res) if res.current == 0 => {
                lines.push(format!(
                    "{}'s Relentless is spent (it recharges after a {} rest)",
                    c.name,
                    rest_words(recharge)
                ));
                return;
            }
            Some(res) => res.current -= 1,
            None => c.resources.push(Resource {
                name: "Relentless".into(),
                max: 1,
                current: 0,
                recharge,
            }),
        }
    }
    r.hp_after = 1;
    r.dead = false;
    r.outcome = DamageOutcome::Damaged;
    r.add_conditions.clear();
    r.concentration_ends = false;
    let back = t
        .recharge
        .map(|k| format!("; it recharges after a {} rest", rest_words(k)))
        .unwrap_or_default();
    lines.push(format!(
        "{} drops to 1 HP instead (Relentless: {} damage, at most {}{back})",
        c.name, r.total, t.max_damage
    ));
}

fn rest_words(k: Recharge) -> &'static str {
    match k {
        Recharge::Short => "short or long",
        Recharge::Long => "long",
    }
}

/// Regeneration at the start of `c`'s turn: the record of stopping damage is read and removed;
/// stopped (or at 0 HP when it needs 1) it does not heal, and a creature that may live at 0 HP
/// then dies; otherwise it heals its amount. Lines say what happened and what the engine does
/// not track (sunlight, running water). Whether it died.
pub fn at_turn_start(c: &mut Character, lines: &mut Vec<String>) -> crate::error::Result<bool> {
    let stopped = c
        .effects
        .iter()
        .position(|e| e.name == STOPPED)
        .map(|i| c.effects.remove(i))
        .map(|e| e.source.unwrap_or_default());
    let Some(g) = regeneration(c) else {
        return Ok(false);
    };
    if c.dead || (c.hp == 0 && !g.dies_at_turn_start) {
        return Ok(false);
    }
    if let Some(why) = stopped {
        lines.push(format!(
            "{}'s Regeneration does not work this turn ({why})",
            c.name
        ));
        if c.hp == 0 {
            c.dead = true;
            lines.push(format!(
                "{} dies: it starts its turn with 0 hit points and doesn't regenerate",
                c.name
            ));
            return Ok(true);
        }
        return Ok(false);
    }
    let max = c.effective().max_hp.value.max(1) as u32;
    if c.hp >= max {
        return Ok(false);
    }
    let mut changes = Vec::new();
    crate::update::heal(c, g.amount, &mut changes)?;
    lines.extend(changes.into_iter().map(|l| format!("Regeneration: {l}")));
    if g.sunlight {
        lines.push(format!(
            "no automation for sunlight or running water: the DM withholds {}'s Regeneration \
             there (take the hit points back with update_character)",
            c.name
        ));
    }
    Ok(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_srd_wording() {
        let troll = regeneration_in(
            "The troll regains 10 hit points at the start of its turn. If the troll takes acid or \
             fire damage, this trait doesn't function at the start of the troll's next turn. The \
             troll dies only if it starts its turn with 0 hit points and doesn't regenerate.",
        )
        .unwrap();
        assert_eq!(troll.amount, 10);
        assert_eq!(troll.stopped_by, vec![DamageType::Acid, DamageType::Fire]);
        assert!(troll.dies_at_turn_start && !troll.needs_hp && !troll.sunlight);
        let vampire = regeneration_in(
            "The vampire regains 20 hit points at the start of its turn if it has at least 1 hit \
             point and isn't in sunlight or running water. If the vampire takes radiant damage or \
             damage from holy water, this trait doesn't function at the start of the vampire's \
             next turn.",
        )
        .unwrap();
        assert_eq!(vampire.amount, 20);
        assert_eq!(vampire.stopped_by, vec![DamageType::Radiant]);
        assert!(vampire.holy_water && vampire.needs_hp && vampire.sunlight);
        assert!(!vampire.dies_at_turn_start);
        let oni = regeneration_in(
            "The oni regains 10 hit points at the start of its turn if it has at least 1 hit point.",
        )
        .unwrap();
        assert!(oni.stopped_by.is_empty() && oni.needs_hp);
    }
}
