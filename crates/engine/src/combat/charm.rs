//! Charmed, by whom, and what ends it: a charmed creature can't attack its charmer or target it
//! with harmful abilities or magical effects ([`refusal`]); a charm that lasts "until you or
//! your companions do anything harmful to it" (Charm Person, Awaken) ends when the charmer or a
//! creature on its side damages the bearer ([`end_by_harm`], [`harm_ends`]).

use tabletop_rules::Condition;

use crate::engine::Call;
use crate::error::Result;
use crate::model::character::{Character, ConditionEnds, ConditionEntry};
use crate::model::encounter::Encounter;
use crate::model::names::name_key;

/// Whether `e` charms its bearer on behalf of the creature `id` named `name`: the condition
/// knows its charmer, or (a condition the DM added) its source names it.
fn charms_for(e: &ConditionEntry, id: &str, name: &str) -> bool {
    if e.condition != Condition::Charmed {
        return false;
    }
    match &e.by {
        Some(by) => by == id,
        None => {
            let src = name_key(&e.source);
            let n = name_key(name);
            src == n || src.ends_with(&format!("({n})"))
        }
    }
}

/// Why `actor` may not attack `target` or aim a harmful spell or ability at it: it is charmed
/// by it. `None` when it is not.
pub fn refusal(actor: &Character, target: &Character, what: &str) -> Option<String> {
    let e = actor
        .conditions
        .iter()
        .find(|e| charms_for(e, &target.id, &target.name))?;
    Some(format!(
        "{} is charmed by {} ({}) and can't {what} its charmer",
        actor.name, target.name, e.source
    ))
}

/// Whether `dealer` is the charmer `by` or one of its companions (a creature on its side).
fn companion(enc: Option<&Encounter>, by: &str, dealer: &str) -> bool {
    if by == dealer {
        return true;
    }
    enc.is_some_and(|e| {
        let side = |x: &str| e.combatant(x).map(|c| c.side);
        matches!((side(by), side(dealer)), (Some(a), Some(b)) if !a.hostile_to(b))
    })
}

/// Damage `dealer_id` dealt to `t` ends the charms on it that end when the charmer or its
/// companions harm it; the lines saying so.
pub fn end_by_harm(enc: Option<&Encounter>, dealer_id: &str, t: &mut Character) -> Vec<String> {
    let mut lines = Vec::new();
    let name = t.name.clone();
    t.conditions.retain(|e| {
        let ends = e.ends_on == Some(ConditionEnds::Harm)
            && e.by
                .as_deref()
                .is_some_and(|by| companion(enc, by, dealer_id));
        if ends {
            lines.push(format!(
                "{name} is no longer {} ({}): its charmer's side harmed it",
                e.condition, e.source
            ));
        }
        !ends
    });
    lines
}

/// [`end_by_harm`] on the stored sheet of `target_id` (after an attack's damage).
pub fn harm_ends(
    call: &mut Call<'_>,
    enc: &Encounter,
    dealer_id: &str,
    target_id: &str,
    lines: &mut Vec<String>,
) -> Result<()> {
    let mut t = super::sheet(call, target_id)?;
    let ended = end_by_harm(Some(enc), dealer_id, &mut t);
    if ended.is_empty() {
        return Ok(());
    }
    super::put_sheet(call, &t)?;
    call.record_change("character", &t.id, ended.join("; "));
    lines.extend(ended);
    Ok(())
}

/// Whether a spell harms what it targets: it deals damage, or it attacks, forces a save or
/// imposes a condition by its catalog kind.
pub fn harmful(def: &crate::model::spell::SpellDef) -> bool {
    use crate::catalog::spells::SpellKind as K;
    def.damage_type.is_some()
        || !def.damage_at_slot.is_empty()
        || !def.damage_at_level.is_empty()
        || def.mechanics().is_some_and(|e| {
            matches!(
                e.kind,
                K::Attack
                    | K::Save
                    | K::Darts
                    | K::HpPool
                    | K::Condition
                    | K::Persistent
                    | K::HpThreshold
            )
        })
}

/// Why a harmful spell aimed by `caster` at `targets` is refused: a target is its charmer. An
/// area is not aimed at anyone; a charmer caught in one is the DM's call.
pub fn spell_refusals(
    call: &Call<'_>,
    caster: &Character,
    def: &crate::model::spell::SpellDef,
    targets: &[String],
) -> Result<Vec<String>> {
    let mut out = Vec::new();
    if def.area.is_some() || !harmful(def) {
        return Ok(out);
    }
    for id in targets {
        let t = super::sheet(call, id)?;
        out.extend(refusal(caster, &t, "target with a harmful spell"));
    }
    Ok(out)
}
