//! Shield as a reaction: when an attack roll hits a creature that can cast Shield and the
//! spell's +5 AC would turn the hit into a miss, its policy decides: `auto` casts it (a 1st-level
//! slot or higher, the reaction, +5 AC until the start of its next turn, the attack misses),
//! `ask` pauses the attack with the roll kept, `never` lets it land. A critical hit (natural 20)
//! hits whatever the AC, so it offers nothing.

use serde::{Deserialize, Serialize};
use tabletop_rules::Ability;
use tabletop_rules::d20::D20Outcome;
use tabletop_rules::modifiers::Modifier;

use super::eligible;
use crate::combat;
use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::character::Character;
use crate::model::effects::{ActiveEffect, Duration, EndTrigger, TurnPoint};
use crate::model::encounter::{Encounter, PendingReaction, ReactionPolicy, Resume};
use crate::model::names::name_key;
use crate::model::slots::ordinal;

/// Shield's bonus to AC.
pub const SHIELD_AC: i32 = 5;

/// The options of a strike kept while it waits for an answer.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ResumeStrike {
    /// The attack's ability.
    pub ability: Option<Ability>,
    /// Forced past reach, range or cover.
    pub force: bool,
    /// A melee attack picked without a weapon name.
    pub melee_only: bool,
    /// The bonus-action attack of two-weapon fighting.
    pub off_hand: bool,
    /// Two-weapon fighting style on an off-hand attack.
    pub two_weapon_style: bool,
    /// The roll's label.
    pub label: Option<String>,
    /// Divine Smite slot.
    pub smite_slot: Option<u8>,
    /// Sneak Attack declined.
    pub decline_sneak_attack: bool,
    /// Combatants that already answered a reaction to this attack.
    pub decided: Vec<String>,
}

/// What became of a hit.
#[derive(Debug, Clone, PartialEq)]
pub enum ShieldStep {
    /// Nothing changed: the hit lands.
    Hit,
    /// Shield was cast and the attack now misses (lines say so).
    Missed(Vec<String>),
    /// The attack waits for the target's answer (the headline says so).
    Paused(String),
}

/// The kept roll of a paused attack, judged again against `ac` (Shield may have raised it).
pub fn replay(roll: &D20Outcome, ac: i32) -> D20Outcome {
    let mut r = roll.clone();
    r.dc = Some(ac);
    if let Some(total) = r.total {
        let hit = r.auto_fail.is_empty() && !r.natural_1 && (r.natural_20 || total >= ac);
        r.success = Some(hit);
        r.critical = r.critical && hit;
    }
    r
}

/// Whether `c` could cast Shield now: it knows it and has a slot.
pub fn can_cast(call: &Call<'_>, c: &Character) -> bool {
    eligible::lowest_slot(c, 1).is_some() && eligible::knows_spell(call, c, "Shield")
}

/// Offers Shield to the target of a hit (`roll` hit `ac`). With `auto` it is cast and `roll`
/// becomes the miss it is now; with `ask` the encounter gets the pending reaction.
#[allow(clippy::too_many_arguments)]
pub fn on_hit(
    call: &mut Call<'_>,
    enc: &mut Encounter,
    attacker: &Character,
    target: &Character,
    roll: &mut D20Outcome,
    ac: i32,
    weapon: &str,
    resume: &ResumeStrike,
) -> Result<ShieldStep> {
    let Some(total) = roll.total else {
        return Ok(ShieldStep::Hit);
    };
    if roll.natural_20 || total >= ac + SHIELD_AC || resume.decided.contains(&target.id) {
        return Ok(ShieldStep::Hit);
    }
    let policy = eligible::policy(enc, &target.id);
    if policy == ReactionPolicy::Never {
        return Ok(ShieldStep::Hit);
    }
    let Some(t) = eligible::reactor(call, enc, &target.id)? else {
        return Ok(ShieldStep::Hit);
    };
    if !can_cast(call, &t) {
        return Ok(ShieldStep::Hit);
    }
    if policy == ReactionPolicy::Ask {
        let trigger = format!(
            "{}'s {weapon} attack hits {} ({total} vs AC {ac}); Shield (+{SHIELD_AC} AC) would make it miss",
            attacker.name, t.name
        );
        enc.pending_reaction = Some(PendingReaction {
            reactor_id: t.id.clone(),
            reactor: t.name.clone(),
            reaction: "Shield".into(),
            trigger: trigger.clone(),
            resume: Resume::Hit {
                attacker_id: attacker.id.clone(),
                target_id: t.id.clone(),
                weapon: Some(weapon.to_string()),
                roll: Box::new(roll.clone()),
                options: serde_json::to_value(resume).unwrap_or_default(),
                rest: Vec::new(),
                then: None,
            },
        });
        return Ok(ShieldStep::Paused(format!(
            "Paused: {trigger}. {} may cast Shield as a reaction: answer with execute_action actionType react, answer accept or decline.",
            t.name
        )));
    }
    let mut lines = cast(call, enc, &t.id, None)?;
    let now = combat::sheet(call, &t.id)?.effective().armor_class.value;
    let raised = ac + (now - t.effective().armor_class.value);
    *roll = replay(roll, raised);
    lines.push(format!(
        "{total} vs AC {raised}: the attack misses {} (Shield).",
        t.name
    ));
    Ok(ShieldStep::Missed(lines))
}

/// Casts Shield for `id` as its reaction: spends the slot (`slot`, else its lowest), the
/// reaction, and gives +5 AC until the start of its next turn.
pub fn cast(
    call: &mut Call<'_>,
    enc: &mut Encounter,
    id: &str,
    slot: Option<u8>,
) -> Result<Vec<String>> {
    let mut c = combat::sheet(call, id)?;
    crate::slots::ensure(call, &mut c);
    let level = match slot {
        Some(l) => l,
        None => eligible::lowest_slot(&c, 1).ok_or_else(|| {
            EngineError::Rule(format!("{} has no spell slot left for Shield", c.name))
        })?,
    };
    if !eligible::spend_slot(&mut c, level) {
        return Err(EngineError::invalid(
            "slotLevel",
            format!(
                "{} has no {}-level slot left (slots left/max: {})",
                c.name,
                ordinal(level),
                c.spell_slots.summary()
            ),
        ));
    }
    let before = c.effective().armor_class.value;
    let kinds = crate::model::effects::preset("Shield")
        .map(|(k, _)| k)
        .unwrap_or_default();
    let key = name_key("Shield");
    c.effects.retain(|e| name_key(&e.name) != key);
    let ef = call.new_id("ef")?;
    c.effects.push(ActiveEffect {
        id: ef,
        name: "Shield".into(),
        source: Some(format!("Shield ({})", c.name)),
        modifiers: kinds
            .into_iter()
            .map(|k| Modifier::new("Shield", k))
            .collect(),
        duration: Duration::Rounds { remaining: 1 },
        ends_on: Some(EndTrigger {
            at: TurnPoint::Start,
            turn_of: c.id.clone(),
        }),
        ends_when_attacked: false,
        damaged_since_turn: false,
        grant: None,
    });
    let after = c.effective().armor_class.value;
    combat::put_sheet(call, &c)?;
    eligible::spend_reaction(enc, id);
    call.record_change(
        "character",
        id,
        format!("{} casts Shield as a reaction", c.name),
    );
    Ok(vec![format!(
        "{} casts Shield as a reaction ({}-level slot): AC {before} → {after} until the start of its next turn.",
        c.name,
        ordinal(level)
    )])
}

/// Puts the multiattack parts still to make into the pending attack.
pub fn set_rest(enc: &mut Encounter, parts: Vec<(String, String)>) {
    if let Some(PendingReaction {
        resume: Resume::Hit { rest, .. },
        ..
    }) = enc.pending_reaction.as_mut()
    {
        *rest = parts;
    }
}

/// Puts a request to run once a paused attack is resolved (the rest of a move).
pub fn set_then(enc: &mut Encounter, request: serde_json::Value) {
    if let Some(PendingReaction {
        resume: Resume::Hit { then, .. },
        ..
    }) = enc.pending_reaction.as_mut()
    {
        *then = Some(request);
    }
}
