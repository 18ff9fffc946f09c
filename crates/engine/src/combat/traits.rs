//! Monster traits in play, read from a creature's stat block: Pack Tactics (advantage when an
//! ally stands within 5 ft of the target), Magic Resistance (advantage on saves against spells),
//! damage resistance or immunity to nonmagical weapons (a mundane longsword does nothing to a
//! werewolf; a magic one hits normally), saving-throw riders on a hit and Undead Fortitude.
//! Abilities are recognised by the SRD's names and wording (`catalog::monsters`).

use tabletop_grid::Metric;
use tabletop_rules::damage::DamagePart;
use tabletop_rules::{Ability, Condition, DamageType};

use crate::character::Character;
use crate::combat::Encounter;
use crate::inventory::Rarity;

/// Whether the creature's stat block has a special ability of this name.
pub fn has_trait(c: &Character, name: &str) -> bool {
    c.stat_block.as_ref().is_some_and(|sb| {
        sb.special_abilities
            .iter()
            .any(|a| a.name.eq_ignore_ascii_case(name))
    })
}

/// Pack Tactics: advantage when at least one of the attacker's allies (not incapacitated) is
/// within 5 ft of the target. Says which ally.
pub fn pack_tactics(
    call: &crate::engine::Call<'_>,
    enc: &Encounter,
    attacker: &Character,
    target: &Character,
) -> Option<String> {
    if !has_trait(attacker, "Pack Tactics") {
        return None;
    }
    let me = enc.combatant(&attacker.id)?;
    let ally = enc.order.iter().find(|c| {
        c.character_id != attacker.id
            && c.character_id != target.id
            && !c.removed
            && !c.side.hostile_to(me.side)
            && enc
                .map
                .creature_distance_ft(&c.character_id, &target.id, Metric::Grid5e)
                .is_ok_and(|d| d <= 5)
            && crate::combat::sheet(call, &c.character_id)
                .is_ok_and(|s| !s.dead && !s.effective().is_incapacitated())
    })?;
    Some(format!(
        "Pack Tactics ({} is next to the target)",
        ally.name
    ))
}

/// Blood Frenzy: advantage on melee attack rolls against a creature that doesn't have all its
/// hit points. Says the target's hit points.
pub fn blood_frenzy(attacker: &Character, target: &Character) -> Option<String> {
    if !has_trait(attacker, "Blood Frenzy") {
        return None;
    }
    let max = u32::try_from(target.effective().max_hp.value.max(1)).unwrap_or(1);
    (target.hp < max).then(|| {
        format!(
            "Blood Frenzy ({} is wounded: {}/{max} HP)",
            target.name, target.hp
        )
    })
}

/// Fey Ancestry on a stat block: magic can't put the creature to sleep.
pub fn no_magic_sleep(c: &Character) -> bool {
    c.has_rule(crate::catalog::class_rules::ClassRule::NoMagicSleep)
        || c.stat_block.as_ref().is_some_and(|sb| {
            sb.special_abilities
                .iter()
                .any(|a| a.desc.to_lowercase().contains("magic can't put"))
        })
}

/// Magic Resistance: advantage on saving throws against spells (Limited Magic Immunity gives
/// it too, against the spells it is not immune to).
pub fn magic_resistance(c: &Character) -> bool {
    has_trait(c, "Magic Resistance") || has_trait(c, "Limited Magic Immunity")
}

/// Limited Magic Immunity (the rakshasa: "can't be affected or detected by spells of 6th level
/// or lower unless it wishes to be"): the line saying a spell cast at `level` (0: a cantrip)
/// does nothing to `c`, when its text's level covers it.
pub fn limited_magic_immunity(c: &Character, level: u8, spell: &str) -> Option<String> {
    let block = c.stat_block.as_ref()?;
    let a = block
        .special_abilities
        .iter()
        .find(|a| a.name.eq_ignore_ascii_case("Limited Magic Immunity"))?;
    let d = a.desc.to_lowercase();
    let i = d.find(" level or lower")?;
    let word = d[..i].split_whitespace().last()?;
    let max: u8 = word
        .trim_end_matches(|ch: char| ch.is_ascii_alphabetic())
        .parse()
        .ok()?;
    (level <= max).then(|| {
        format!(
            "{} is unaffected by {spell}: Limited Magic Immunity (spells of {word} level or lower; if it wishes to be affected, the DM applies the spell by hand)",
            c.name
        )
    })
}

/// Whether an attack is magical: a magic weapon (rarer than common, or with its own bonuses or
/// a "+N" in its name), or a stat block whose weapon attacks are magical.
pub fn magical_attack(attacker: &Character, item_id: Option<&str>) -> bool {
    if let Some(id) = item_id {
        return attacker.inventory.items.iter().any(|i| {
            i.id == id
                && (i.rarity != Rarity::Common
                    || !i.effects.is_empty()
                    || i.name.contains('+')
                    || crate::magic::combat6::shillelagh(attacker, i))
        });
    }
    attacker.stat_block.as_ref().is_some_and(|sb| {
        sb.special_abilities.iter().any(|a| {
            let d = a.desc.to_lowercase();
            d.contains("weapon attacks are magical")
        })
    })
}

/// Applies the target's defenses against nonmagical weapons ("bludgeoning, piercing, and
/// slashing from nonmagical weapons"): immunity removes those parts, resistance halves them. A
/// silvered weapon (`silvered`: its name) gets past one "that aren't silvered" (a werewolf's),
/// and a line says so.
/// Says what it did.
pub fn nonmagical_defense(
    target: &Character,
    magical: bool,
    silvered: Option<&str>,
    parts: Vec<DamagePart>,
    lines: &mut Vec<String>,
) -> Vec<DamagePart> {
    if magical {
        return parts;
    }
    // Worn armor that resists nonmagical damage (Armor of Invulnerability).
    let worn = target
        .inventory
        .items
        .iter()
        .any(|i| i.resists_nonmagical());
    let empty = Vec::new();
    let defenses = target
        .stat_block
        .as_ref()
        .map_or(&empty, |sb| &sb.qualified_defenses);
    let physical = |t: Option<DamageType>| {
        matches!(
            t,
            Some(DamageType::Bludgeoning | DamageType::Piercing | DamageType::Slashing)
        )
    };
    // "…from nonmagical attacks that aren't silvered": a silvered weapon gets past it. One that
    // "aren't adamantine" holds (the engine has no adamantine weapons).
    let mut passed = Vec::new();
    let applies: Vec<bool> = defenses
        .iter()
        .filter_map(|q| {
            let l = q.to_lowercase();
            let defense = l.starts_with("immune") || l.starts_with("resistant");
            if !defense || !l.contains("nonmagical") {
                return None;
            }
            if silvered.is_some() && l.contains("silvered") {
                passed.push(q.clone());
                return None;
            }
            Some(l.starts_with("immune"))
        })
        .collect();
    if let Some(weapon) = silvered
        && parts.iter().any(|p| physical(p.damage_type))
    {
        for q in &passed {
            let (kind, what) = q.split_once(": ").unwrap_or(("", q.as_str()));
            let kind = match kind {
                "immune" => "immunity",
                "resistant" => "resistance",
                _ => "defense",
            };
            lines.push(format!(
                "The {weapon} is silvered: {}'s {kind} to {what} does not apply",
                target.name
            ));
        }
    }
    // Immunity wins over resistance when both apply.
    let rule = applies.iter().copied().reduce(|a, b| a || b);
    let rule = rule.or(worn.then_some(false));
    let Some(immune) = rule else {
        return parts;
    };
    let mut out = Vec::new();
    for p in parts {
        if !physical(p.damage_type) {
            out.push(p);
            continue;
        }
        let amount = if immune { 0 } else { p.amount / 2 };
        lines.push(format!(
            "{} is {} nonmagical {} ({} → {amount})",
            target.name,
            if immune { "immune to" } else { "resistant to" },
            p.damage_type.map(|t| t.to_string()).unwrap_or_default(),
            p.amount
        ));
        out.push(DamagePart::new(p.damage_type, amount));
    }
    out
}

/// What a hit does beyond its damage, written in a stat-block action: a saving-throw rider
/// ("must succeed on a DC 11 Strength saving throw or be knocked prone"), a grapple, a drain,
/// and who they spare; with the action's text.
pub fn hit_rider<'c>(
    attacker: &'c Character,
    action: &str,
) -> Option<(crate::catalog::monster_riders::OnHit, &'c str)> {
    let sb = attacker.stat_block.as_ref()?;
    let a = sb
        .actions
        .iter()
        .find(|a| a.name.eq_ignore_ascii_case(action))?;
    let on = crate::catalog::monster_riders::on_hit(&a.desc);
    (!on.is_empty()).then_some((on, a.desc.as_str()))
}

/// Undead Fortitude: damage that drops the creature to 0 HP calls for a CON save of DC 5 + the
/// damage taken (not for radiant damage or a critical hit); on a success it drops to 1 HP
/// instead, and `r` then says so (1 HP, damaged, not dead), so that every answer built from it
/// (the headline, the status) tells the same story. Returns whether it held on.
pub fn undead_fortitude(
    call: &mut crate::engine::Call<'_>,
    c: &mut Character,
    parts: &[DamagePart],
    r: &mut tabletop_rules::damage::DamageResult,
    critical: bool,
    lines: &mut Vec<String>,
) -> crate::error::Result<bool> {
    if r.hp_after > 0 || r.hp_before == 0 || !has_trait(c, "Undead Fortitude") {
        return Ok(false);
    }
    if critical
        || parts
            .iter()
            .any(|p| p.damage_type == Some(DamageType::Radiant))
    {
        lines.push(format!(
            "{}'s Undead Fortitude does not hold against {}",
            c.name,
            if critical {
                "a critical hit"
            } else {
                "radiant damage"
            }
        ));
        return Ok(false);
    }
    let dc = 5 + i32::try_from(r.total).unwrap_or(i32::MAX - 5);
    let out =
        crate::concentration::roll_save(call, c, Ability::Constitution, dc, "Undead Fortitude")?;
    lines.push(format!("{} — {}", c.name, out.summary()));
    if out.success != Some(true) {
        return Ok(false);
    }
    c.hp = 1;
    c.dead = false;
    c.death_saves = Default::default();
    c.conditions
        .retain(|e| e.condition != Condition::Unconscious);
    r.hp_after = c.hp;
    r.dead = false;
    r.outcome = tabletop_rules::damage::DamageOutcome::Damaged;
    r.add_conditions.clear();
    r.concentration_ends = false;
    lines.push(format!(
        "{} drops to 1 HP instead (Undead Fortitude)",
        c.name
    ));
    Ok(true)
}
