//! Spells resolved on the encounter map rather than on targets: summoning SRD creatures
//! ([`summon`]: Conjure Animals, Find Familiar, Animate Dead — the creature read from the SRD
//! by the caster's choice, the count and CR limits from the spell and slot, placed beside the
//! caster on its side, with initiative per the rules) and teleportation
//! ([`super::teleport`]). Summoned creatures leave the fight when the summoner's concentration
//! on the spell ends or its duration runs out ([`expire`], at each turn change).

use tabletop_srd::Monster;

use super::actions::{ActionOutcome, Turn};
use super::create::{self, ParticipantSource, ParticipantSpec};
use crate::catalog::spell_moves::{SummonSpec, table_count};
use crate::catalog::spells::SpellKind;
use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::character::Character;
use crate::model::encounter::{Encounter, Side, Summoned};
use crate::model::names::name_key;
use crate::model::spell::SpellDef;
use tabletop_rules::CharacterType;

/// Casts a teleport or summoning spell in the encounter (slot already spent); `None` for
/// every other spell.
pub fn map_spell(
    call: &mut Call<'_>,
    turn: &mut Turn<'_>,
    caster: &mut Character,
    def: &SpellDef,
    slot: u8,
) -> Result<Option<ActionOutcome>> {
    let Some(e) = def.mechanics() else {
        return Ok(None);
    };
    match (e.kind, &e.teleport, &e.summon) {
        (SpellKind::Teleport, Some(t), _) => {
            super::teleport::cast(call, turn, caster, def, t).map(Some)
        }
        (SpellKind::Summon, _, Some(s)) => summon(call, turn, caster, def, s, slot).map(Some),
        (SpellKind::Summon, _, None) if !e.tokens.is_empty() => {
            super::objects::tokens(call, turn, caster, def, e, slot).map(Some)
        }
        (SpellKind::Door, _, _) => match e.door {
            Some(d) => super::objects::door(turn, caster, def, d).map(Some),
            None => Ok(None),
        },
        (SpellKind::Banish, _, _) => super::banish::cast(call, turn, caster, def, slot).map(Some),
        (SpellKind::Detect, _, _) => match &e.detect {
            Some(d) => super::divination::cast(call, turn, caster, def, d).map(Some),
            None => Ok(None),
        },
        (SpellKind::Shape, _, _) => match &e.shape {
            Some(s) => crate::shape::cast_in_encounter(call, turn, caster, def, s).map(Some),
            None => Ok(None),
        },
        (SpellKind::Globe, _, _) => {
            super::banish::raise_globe(call, turn, caster, def, slot).map(Some)
        }
        (SpellKind::Lore, _, _) => crate::magic::lore6::in_encounter(call, turn, caster, def, slot),
        _ => Ok(None),
    }
}

/// The creature chosen for a summoning spell and how many come at `slot`.
fn choose<'a>(
    call: &Call<'a>,
    def: &SpellDef,
    spec: &SummonSpec,
    creature: Option<&str>,
    slot: u8,
) -> Result<(&'a Monster, u32, Option<String>)> {
    let listed: Vec<&str> = spec.options.iter().map(|o| o.creature.as_str()).collect();
    let offer = || {
        let mut what = Vec::new();
        if !listed.is_empty() {
            what.push(listed.join(", "));
        }
        if !spec.types.is_empty() {
            let cr = spec
                .max_cr(slot)
                .map(|c| format!(" of challenge rating {c} or lower"))
                .unwrap_or_else(|| " of challenge rating 2 or lower".into());
            what.push(format!("an SRD {}{cr}", spec.types.join(" or ")));
        }
        what.join("; or ")
    };
    let given = match creature.map(str::trim).filter(|c| !c.is_empty()) {
        Some(c) => c.to_string(),
        None if listed.len() == 1 && spec.types.is_empty() => listed[0].to_string(),
        None => {
            return Err(EngineError::invalid(
                "creature",
                format!(
                    "{} calls a creature of the caster's choice: pass creature, {}",
                    def.name,
                    offer()
                ),
            ));
        }
    };
    let (m, note) = crate::monster::lookup(call, &given, "creature")?;
    if listed.contains(&m.index.as_str()) {
        return match spec.option_count(&m.index, def.level, slot) {
            Some(n) => Ok((m, n, note)),
            None => Err(EngineError::Rule(format!(
                "{} calls {} only with a higher slot than {}",
                def.name,
                m.name,
                crate::model::slots::ordinal(slot)
            ))),
        };
    }
    let kind = m.creature_type.to_lowercase();
    if spec.types.iter().any(|t| kind.starts_with(t.as_str())) {
        let cr = m.challenge_rating;
        if let Some(max) = spec.max_cr(slot) {
            if cr <= max {
                return Ok((m, 1, note));
            }
            return Err(EngineError::Rule(format!(
                "{} is challenge rating {cr}; {} at {} level calls one of challenge rating {max} or lower",
                m.name,
                def.name,
                crate::model::slots::ordinal(slot)
            )));
        }
        if spec.cr_table {
            return match table_count(cr) {
                Some(n) => Ok((m, n.saturating_mul(spec.multiplier(slot)), note)),
                None => Err(EngineError::Rule(format!(
                    "{} is challenge rating {cr}; {} calls creatures of challenge rating 2 or lower",
                    m.name, def.name
                ))),
            };
        }
    }
    Err(EngineError::invalid(
        "creature",
        format!(
            "{} ({}) is not a creature {} can call; it calls {}",
            m.name,
            kind,
            def.name,
            offer()
        ),
    ))
}

/// Adds the chosen creatures to the encounter beside the caster, on its side; concentration
/// begins for a concentration spell.
fn summon(
    call: &mut Call<'_>,
    turn: &mut Turn<'_>,
    caster: &mut Character,
    def: &SpellDef,
    spec: &SummonSpec,
    slot: u8,
) -> Result<ActionOutcome> {
    let (m, count, note) = choose(call, def, spec, turn.req.creature.as_deref(), slot)?;
    let mut lines: Vec<String> = note.into_iter().collect();
    let enc = &mut turn.encounter;
    let present = enc.order.iter().filter(|c| !c.removed).count();
    let count_us = count as usize;
    if present + count_us > create::MAX_COMBATANTS {
        return Err(EngineError::Rule(format!(
            "{count} {} would bring the encounter to {} combatants; at most {}",
            m.name,
            present + count_us,
            create::MAX_COMBATANTS
        )));
    }
    if def.concentration {
        crate::concentration::begin(call, caster, &def.name, &mut lines)?;
    }
    let side = enc.combatant(&caster.id).map_or(Side::Party, |c| c.side);
    let anchor = enc.map.require_creature(&caster.id)?.position;
    // Free spaces nearest the caster, each taken in turn on a copy of the map (a large
    // creature fills four squares).
    let mut probe = enc.map.clone();
    let mut positions = Vec::new();
    for i in 0..count {
        match super::teleport::free_near(&probe, anchor, m.size, &[]) {
            Some(p) => {
                probe.place_creature(format!("summon-probe-{i}"), p, m.size)?;
                positions.push(p);
            }
            None => break,
        }
    }
    let mut taken = create::taken_names(call)?;
    let mut notes = Vec::new();
    let mut joining = Vec::new();
    let mut left = count;
    while left > 0 {
        let n = left.min(20);
        let part = ParticipantSpec {
            source: ParticipantSource::Monster {
                monster: m.index.clone(),
                count: n,
                name: Some(format!("{}'s {}", caster.name, m.name)),
            },
            side: Some(side),
            positions: positions.drain(..positions.len().min(n as usize)).collect(),
            surprised: false,
            initiative: None,
        };
        joining.extend(create::gather(call, &[part], &mut taken, &mut notes)?);
        left -= n;
    }
    for j in &mut joining {
        j.character.kind = CharacterType::Npc;
    }
    create::place(call, &mut enc.map, &mut joining, &mut notes)?;
    let current_id = enc.current().map(|c| c.character_id.clone());
    let until_round = if def.concentration {
        None
    } else {
        def.duration_rounds().map(|r| enc.round.saturating_add(r))
    };
    let mut group: Option<i32> = None;
    let mut joined = Vec::new();
    let campaign = call.campaign();
    for j in &mut joining {
        if spec.group_initiative {
            j.initiative = group;
        }
        let (cb, roll) = create::enter(call, j)?;
        if spec.group_initiative && group.is_none() {
            group = Some(roll.total);
        }
        call.tx().put_character(campaign, &j.character)?;
        call.record_change(
            "character",
            &j.character.id,
            format!(
                "{} called by {}'s {}",
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
        let die = roll.d20.map(|d| format!(" (d20 {d})")).unwrap_or_default();
        joined.push(format!(
            "{} appears at {} — initiative {}{die}",
            roll.name, roll.position, roll.total
        ));
    }
    create::sort_initiative(&mut enc.order);
    enc.turn = current_id
        .and_then(|id| enc.order.iter().position(|c| c.character_id == id))
        .unwrap_or(0);
    enc.log(format!(
        "{} casts {}: {count} {} join the fight",
        caster.name, def.name, m.name
    ));
    lines.extend(joined);
    lines.extend(notes);
    if spec.group_initiative && count > 1 {
        lines.push("they act on one initiative count, as a group".into());
    }
    lines.push(if def.concentration {
        format!(
            "they obey {}'s commands and vanish when {}'s concentration on {} ends",
            caster.name, caster.name, def.name
        )
    } else {
        format!("they obey {}'s commands", caster.name)
    });
    if let Some(n) = &spec.note {
        lines.push(format!("left to the DM: {n}"));
    }
    let headline = format!(
        "{} casts {} ({} level): {count} {} join{} the fight on {}'s side.",
        caster.name,
        def.name,
        crate::model::slots::ordinal(slot),
        m.name,
        if count == 1 { "s" } else { "" },
        caster.name
    );
    Ok(ActionOutcome {
        headline,
        lines,
        details: serde_json::json!({ "spell": def.name, "creature": m.index, "count": count }),
        ..Default::default()
    })
}

/// Removes summoned creatures whose spell ended: the summoner's concentration on it is over
/// (or the summoner died or left), or its duration ran out. Says who vanished.
pub fn expire(call: &Call<'_>, e: &mut Encounter) -> Result<Vec<String>> {
    let mut lines = Vec::new();
    let mut kept = Vec::new();
    for s in std::mem::take(&mut e.summoned) {
        let Some(cb) = e.combatant(&s.id) else {
            continue;
        };
        if cb.removed {
            continue;
        }
        let name = cb.name.clone();
        let summoner = crate::combat::sheet(call, &s.summoner_id).ok();
        let why = if s.concentration {
            match &summoner {
                None => Some("its summoner is gone".to_string()),
                Some(c) => {
                    let holds = c
                        .concentration
                        .as_ref()
                        .is_some_and(|x| name_key(&x.spell) == name_key(&s.spell));
                    (!holds).then(|| format!("{}'s concentration on {} ended", c.name, s.spell))
                }
            }
        } else {
            s.until_round
                .filter(|r| e.round > *r)
                .map(|_| format!("{} is over", s.spell))
        };
        match why {
            Some(why) => {
                if let Some(cb) = e.combatant_mut(&s.id) {
                    cb.removed = true;
                }
                let _ = e.map.remove_creature(&s.id);
                lines.push(format!("{name} vanishes: {why}"));
            }
            None => kept.push(s),
        }
    }
    e.summoned = kept;
    for l in &lines {
        e.log(l.clone());
    }
    Ok(lines)
}
