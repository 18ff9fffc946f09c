//! Spells that act on objects of the encounter map or put objects and servants on it: a door
//! unlocked (Knock) or locked (Arcane Lock) at the square the caster names, and tokens with a
//! stat block the spell catalog encodes from the spell's own numbers (Mage Hand, Unseen
//! Servant, Arcane Eye, Arcane Hand, Animate Objects' table), placed at the point the caster
//! names (or beside the caster), on its side, leaving when the spell ends like summoned
//! creatures ([`super::summons::expire`]).

use std::collections::BTreeMap;

use tabletop_grid::{DoorState, Position};
use tabletop_rules::{Ability, CharacterType, Size};

use super::actions::{ActionOutcome, Turn};
use super::create::{self, InlineAttack, InlineStatBlock, ParticipantSource, ParticipantSpec};
use crate::catalog::spell_objects::{DoorSpell, TokenHp, TokenSpec};
use crate::catalog::spells::{SpellEntry, add_dice};
use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::character::{Character, ConditionEntry};
use crate::model::encounter::{Side, Summoned};
use crate::model::names::name_key;
use crate::model::spell::SpellDef;

/// The point the caster names (`to`), checked on the map and within the spell's range.
fn point_in_range(
    turn: &Turn<'_>,
    caster: &Character,
    def: &SpellDef,
    what: &str,
) -> Result<Option<Position>> {
    let Some(to) = turn.req.to else {
        return Ok(None);
    };
    turn.encounter.map.check(to)?;
    let me = turn.encounter.map.require_creature(&caster.id)?.position;
    let reach = def.range_ft().unwrap_or(5);
    let d = tabletop_grid::distance_ft(me, to, super::actions::attack::METRIC);
    if d > reach {
        return Err(EngineError::Rule(format!(
            "{what} at {to} is {d} ft from {}; {} has a range of {}",
            caster.name, def.name, def.range
        )));
    }
    Ok(Some(to))
}

/// Knock or Arcane Lock on the door at `to`.
pub fn door(
    turn: &mut Turn<'_>,
    caster: &Character,
    def: &SpellDef,
    spell: DoorSpell,
) -> Result<ActionOutcome> {
    let Some(to) = point_in_range(turn, caster, def, "the door")? else {
        return Err(EngineError::invalid(
            "to",
            format!(
                "{} acts on a door: give `to` {{x, y}}, the door's square within {}",
                def.name, def.range
            ),
        ));
    };
    let Some(state) = turn.encounter.map.door(to) else {
        return Err(EngineError::Rule(format!("there is no door at {to}")));
    };
    let (new, what) = match (spell, state) {
        (DoorSpell::Unlock, DoorState::Locked) => (
            DoorState::Closed,
            format!(
                "the door at {to} unlocks (closed, no longer locked); a loud knock audible 300 ft away"
            ),
        ),
        (DoorSpell::Unlock, s) => {
            return Err(EngineError::Rule(format!(
                "the door at {to} is {}, not locked: {} has nothing to open",
                if s == DoorState::Open {
                    "open"
                } else {
                    "closed"
                },
                def.name
            )));
        }
        (DoorSpell::Lock, DoorState::Closed | DoorState::Locked) => (
            DoorState::Locked,
            format!(
                "the door at {to} is magically locked: {} and creatures it names open it normally; others need Knock, or to break it (the DC to force or pick it is 10 higher)",
                caster.name
            ),
        ),
        (DoorSpell::Lock, DoorState::Open) => {
            return Err(EngineError::Rule(format!(
                "the door at {to} is open; close it first ({} locks a closed door)",
                def.name
            )));
        }
    };
    turn.encounter
        .map
        .set_door(to, new)
        .map_err(|e| EngineError::Rule(format!("the door at {to}: {e}")))?;
    turn.encounter
        .log(format!("{} casts {}: {what}", caster.name, def.name));
    Ok(ActionOutcome {
        headline: format!("{} casts {}: {what}.", caster.name, def.name),
        details: serde_json::json!({ "door": to, "state": new }),
        ..Default::default()
    })
}

/// The token the caster chose (`creature`) among the spell's, and how many come at `slot`.
fn choose<'a>(
    def: &SpellDef,
    e: &'a SpellEntry,
    creature: Option<&str>,
    slot: u8,
    caster_level: u32,
) -> Result<(&'a TokenSpec, u32)> {
    let names = || {
        e.tokens
            .iter()
            .map(|t| t.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let t = match creature.map(str::trim).filter(|c| !c.is_empty()) {
        None if e.tokens.len() == 1 => &e.tokens[0],
        None => {
            return Err(EngineError::invalid(
                "creature",
                format!("{} makes one of: {}; pass creature", def.name, names()),
            ));
        }
        Some(c) => e
            .tokens
            .iter()
            .find(|t| {
                name_key(&t.name) == name_key(c)
                    || name_key(&t.name)
                        .split(' ')
                        .next()
                        .is_some_and(|w| w == name_key(c))
            })
            .ok_or_else(|| {
                EngineError::invalid(
                    "creature",
                    format!("{} makes one of: {} (not {c})", def.name, names()),
                )
            })?,
    };
    let n = match t.units {
        Some(u) => {
            let pool = e.count_at(def.level, slot, caster_level).unwrap_or(1);
            u32::try_from(pool).unwrap_or(u32::MAX) / u.max(1)
        }
        None => 1,
    };
    if n == 0 {
        return Err(EngineError::Rule(format!(
            "{} at this slot animates too few objects for a {}",
            def.name, t.name
        )));
    }
    Ok((t, n))
}

/// The inline stat block of token `t` for `caster` at `slot`.
fn block(
    t: &TokenSpec,
    caster: &Character,
    def: &SpellDef,
    slot: u8,
    attack_bonus: i32,
) -> InlineStatBlock {
    let hp = match &t.hp {
        TokenHp::Fixed(n) => *n,
        TokenHp::Caster(_) => u32::try_from(caster.effective().max_hp.value.max(1)).unwrap_or(1),
    };
    let stats: BTreeMap<Ability, i64> = t
        .stats
        .map(|s| Ability::ALL.iter().copied().zip(s.map(i64::from)).collect())
        .unwrap_or_default();
    let up = u32::from(slot.saturating_sub(def.level));
    InlineStatBlock {
        name: format!("{}'s {}", caster.name, t.name),
        hp,
        ac: t.ac,
        speed: t.speed,
        size: Some(t.size.unwrap_or(Size::Medium)),
        stats,
        cr: None,
        attacks: t
            .attacks
            .iter()
            .map(|a| InlineAttack {
                name: a.name.clone(),
                bonus: a.bonus.unwrap_or(attack_bonus),
                damage: match (&a.per_slot, up) {
                    (Some(step), n) if n > 0 => add_dice(&a.damage, step, n),
                    _ => a.damage.clone(),
                },
                damage_type: Some(a.damage_type),
                reach_ft: a.reach_ft,
                range_ft: None,
            })
            .collect(),
        resistances: Vec::new(),
        immunities: t.immunities.clone(),
        vulnerabilities: Vec::new(),
        condition_immunities: t.condition_immunities.clone(),
    }
}

/// Puts the spell's tokens on the map (slot already spent): at `to` (within range) or beside
/// the caster, on its side, with initiative; they leave when the spell ends.
pub fn tokens(
    call: &mut Call<'_>,
    turn: &mut Turn<'_>,
    caster: &mut Character,
    def: &SpellDef,
    e: &SpellEntry,
    slot: u8,
) -> Result<ActionOutcome> {
    let (t, count) = choose(def, e, turn.req.creature.as_deref(), slot, caster.level)?;
    let anchor = match point_in_range(turn, caster, def, "the point")? {
        Some(p) => p,
        None => turn.encounter.map.require_creature(&caster.id)?.position,
    };
    let numbers = crate::magic::spellcasting::caster_numbers(call, caster)?;
    let sb = block(t, caster, def, slot, numbers.attack_bonus);
    let size = sb.size.unwrap_or(Size::Medium);
    let enc = &mut turn.encounter;
    let present = enc.order.iter().filter(|c| !c.removed).count();
    if present + count as usize > create::MAX_COMBATANTS {
        return Err(EngineError::Rule(format!(
            "{count} more would bring the encounter over {} combatants",
            create::MAX_COMBATANTS
        )));
    }
    let mut lines = Vec::new();
    if def.concentration {
        crate::concentration::begin(call, caster, &def.name, &mut lines)?;
    }
    let side = enc.combatant(&caster.id).map_or(Side::Party, |c| c.side);
    let mut probe = enc.map.clone();
    let mut positions = Vec::new();
    for i in 0..count {
        let free = if probe.check_placement(anchor, size, None).is_ok() {
            Some(anchor)
        } else {
            super::teleport::free_near(&probe, anchor, size, &[])
        };
        match free {
            Some(p) => {
                probe.place_creature(format!("token-probe-{i}"), p, size)?;
                positions.push(p);
            }
            None => break,
        }
    }
    let mut taken = create::taken_names(call)?;
    let mut notes = Vec::new();
    let parts: Vec<ParticipantSpec> = (0..count)
        .map(|k| ParticipantSpec {
            source: ParticipantSource::Inline(Box::new(InlineStatBlock {
                name: if count > 1 {
                    format!("{} {}", sb.name, k + 1)
                } else {
                    sb.name.clone()
                },
                ..sb.clone()
            })),
            side: Some(side),
            positions: positions.get(k as usize).copied().into_iter().collect(),
            surprised: false,
            initiative: None,
        })
        .collect();
    let mut joining = create::gather(call, &parts, &mut taken, &mut notes)?;
    for j in &mut joining {
        j.character.kind = CharacterType::Npc;
        for c in &t.conditions {
            j.character.conditions.push(ConditionEntry {
                by: None,
                ends_on: None,
                condition: *c,
                level: None,
                source: def.name.clone(),
                duration: None,
            });
        }
    }
    create::place(call, &mut enc.map, &mut joining, &mut notes)?;
    let current_id = enc.current().map(|c| c.character_id.clone());
    let until_round = if def.concentration {
        None
    } else {
        def.duration_rounds().map(|r| enc.round.saturating_add(r))
    };
    let campaign = call.campaign();
    for j in &mut joining {
        let (cb, roll) = create::enter(call, j)?;
        call.tx().put_character(campaign, &j.character)?;
        call.record_change(
            "character",
            &j.character.id,
            format!(
                "{} made by {}'s {}",
                j.character.name, caster.name, def.name
            ),
        );
        enc.order.push(cb);
        enc.summoned.push(Summoned {
            id: j.character.id.clone(),
            summoner_id: caster.id.clone(),
            spell: def.name.clone(),
            concentration: def.concentration,
            until_round,
        });
        lines.push(format!(
            "{} appears at {} — initiative {}",
            roll.name, roll.position, roll.total
        ));
    }
    create::sort_initiative(&mut enc.order);
    enc.turn = current_id
        .and_then(|id| enc.order.iter().position(|c| c.character_id == id))
        .unwrap_or(0);
    lines.extend(notes);
    let attacks: Vec<String> = sb
        .attacks
        .iter()
        .map(|a| {
            format!(
                "{} {:+}, {} {}",
                a.name,
                a.bonus,
                a.damage,
                a.damage_type.map(|d| d.to_string()).unwrap_or_default()
            )
        })
        .collect();
    lines.push(format!(
        "statistics (encoded from the spell): AC {}, {} HP, speed {} ft{}{}",
        sb.ac,
        sb.hp,
        sb.speed.unwrap_or(30),
        if attacks.is_empty() {
            "; no attacks".to_string()
        } else {
            format!("; {}", attacks.join("; "))
        },
        if t.conditions.is_empty() {
            String::new()
        } else {
            format!(
                "; {}",
                t.conditions
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        }
    ));
    lines.push(if def.concentration {
        format!(
            "it obeys {}'s commands and vanishes when {}'s concentration on {} ends",
            caster.name, caster.name, def.name
        )
    } else {
        format!(
            "it obeys {}'s commands and vanishes when {} ends",
            caster.name, def.name
        )
    });
    if let Some(n) = &t.note {
        lines.push(format!("left to the DM: {n}"));
    }
    enc.log(format!(
        "{} casts {}: {count} × {}",
        caster.name, def.name, t.name
    ));
    let headline = format!(
        "{} casts {} ({}): {count} {}{} on {}'s side.",
        caster.name,
        def.name,
        if def.level == 0 {
            "cantrip".to_string()
        } else {
            format!("{} level", crate::model::slots::ordinal(slot))
        },
        t.name,
        if count == 1 { " appears" } else { "s appear" },
        caster.name
    );
    Ok(ActionOutcome {
        headline,
        lines,
        details: serde_json::json!({ "spell": def.name, "token": t.name, "count": count, "hp": sb.hp, "ac": sb.ac }),
        ..Default::default()
    })
}
