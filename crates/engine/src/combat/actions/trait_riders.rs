//! Damage a stat block's traits add to its weapon hits, read from their SRD text: Martial
//! Advantage (hobgoblin: once per turn, when an ally that isn't incapacitated is within 5 ft of
//! the target), Sneak Attack (spy, assassin: once per turn, with advantage, or with such an ally
//! beside the target and no disadvantage) and Surprise Attack (bugbear, doppelganger: a
//! surprised creature hit in the first round). The dice are the text's "extra 7 (2d6)".

use tabletop_rules::DamageType;
use tabletop_rules::stats::RollMode;

use crate::character::Character;
use crate::combat::Encounter;

/// The dice of "an extra 7 (2d6) damage" in a trait's text.
fn extra_dice(desc: &str) -> Option<String> {
    let rest = &desc[desc.find("extra ")?..];
    let open = rest.find('(')?;
    let close = rest[open..].find(')')? + open;
    let dice = rest[open + 1..close].trim();
    tabletop_rules::dice::parse(dice).ok()?;
    Some(dice.to_string())
}

/// Whether the stat block's action `name` ("Longsword (one handed)": a grip of "Longsword") is a
/// weapon attack ("Melee Weapon Attack").
fn weapon_attack(attacker: &Character, name: &str) -> bool {
    let name = crate::catalog::monster_abilities::bare_name(name);
    attacker.action_block().is_some_and(|b| {
        b.actions.iter().any(|a| {
            crate::catalog::monster_abilities::bare_name(&a.name).eq_ignore_ascii_case(name)
                && a.desc.contains("Weapon Attack")
        })
    })
}

/// Sneak Attack's other enemy of the target: an ally of the attacker within 5 ft of it that is
/// neither incapacitated nor dead.
pub(super) fn ally_next_to(
    call: &crate::engine::Call<'_>,
    enc: &Encounter,
    attacker: &str,
    target: &str,
) -> Option<String> {
    let side = enc.combatant(attacker)?.side;
    enc.order
        .iter()
        .filter(|c| !c.removed && c.character_id != attacker && c.character_id != target)
        .filter(|c| c.side == side)
        .find(|c| {
            enc.map
                .creature_distance_ft(&c.character_id, target, tabletop_grid::Metric::Grid5e)
                .is_ok_and(|d| d <= 5)
                && crate::combat::sheet(call, &c.character_id)
                    .is_ok_and(|s| !s.dead && !s.effective().is_incapacitated())
        })
        .map(|c| c.name.clone())
}

/// Adds what `attacker`'s traits deal on this weapon hit (`action`, the block's action name) on
/// `target`, `mode` being the attack roll's advantage state.
#[allow(clippy::too_many_arguments)]
pub fn on_hit(
    call: &crate::engine::Call<'_>,
    enc: &mut Encounter,
    attacker: &Character,
    target: &Character,
    action: &str,
    mode: RollMode,
    damage_type: DamageType,
    (expr, lines): (&mut String, &mut Vec<String>),
) {
    let Some(block) = attacker.action_block() else {
        return;
    };
    if !weapon_attack(attacker, action) {
        return;
    }
    let turn = (enc.round, enc.turn);
    for t in &block.special_abilities {
        let name = crate::catalog::monster_abilities::bare_name(&t.name);
        let Some(dice) = extra_dice(&t.desc) else {
            continue;
        };
        let why = match name {
            "Martial Advantage" | "Sneak Attack" => {
                if enc
                    .combatant(&attacker.id)
                    .is_some_and(|c| c.sneak_attack_turn == Some(turn))
                {
                    lines.push(format!("{name} already used this turn."));
                    continue;
                }
                let ally = ally_next_to(call, enc, &attacker.id, &target.id)
                    .map(|a| format!("{a} is within 5 ft of {}", target.name));
                match (name, mode, ally) {
                    ("Sneak Attack", RollMode::Advantage, _) => "advantage".to_string(),
                    ("Sneak Attack", RollMode::Disadvantage, _) | (_, _, None) => {
                        lines.push(format!(
                            "No {name}: it needs {}an ally within 5 ft of {} that isn't incapacitated{}.",
                            if name == "Sneak Attack" { "advantage, or " } else { "" },
                            target.name,
                            if name == "Sneak Attack" { " and no disadvantage" } else { "" }
                        ));
                        continue;
                    }
                    (_, _, Some(a)) => a,
                }
            }
            "Surprise Attack" => {
                let surprised = enc.combatant(&target.id).is_some_and(|c| c.surprised);
                if enc.round != 1 || !surprised {
                    continue;
                }
                format!("{} is surprised, in the first round", target.name)
            }
            _ => continue,
        };
        expr.push_str(&format!(" + {dice}[{damage_type}]"));
        let once = if name == "Surprise Attack" {
            String::new()
        } else {
            if let Some(cb) = enc.combatant_mut(&attacker.id) {
                cb.sneak_attack_turn = Some(turn);
            }
            "; once per turn".to_string()
        };
        lines.push(format!("{name}: +{dice} ({why}{once})."));
    }
}
