//! Feature actions beyond heals and effects (`use_special_ability`): regaining the pact slots
//! (Eldritch Master), damage to the creature just hit (Hurl Through Hell) and a resistance
//! chosen by the user (Fiendish Resilience).

use tabletop_rules::damage::DamagePart;
use tabletop_rules::modifiers::{Modifier, ModifierKind};

use super::Turn;
use crate::catalog::{AmountContext, Use};
use crate::character::{Character, name_key};
use crate::derive::ActionSpec;
use crate::effects::{ActiveEffect, Duration};
use crate::engine::Call;
use crate::error::{EngineError, Result};

/// Eldritch Master: every expended pact slot comes back.
pub fn restore_pact_slots(
    me: &mut Character,
    spec: &ActionSpec,
    lines: &mut Vec<String>,
) -> String {
    match me.spell_slots.pact.as_mut() {
        Some(p) => {
            let back = p.used;
            p.used = 0;
            lines.push(format!("pact slots: {}", me.spell_slots.summary()));
            format!(
                "{} uses {}: regains {back} expended warlock slot{}",
                me.name,
                spec.name,
                if back == 1 { "" } else { "s" }
            )
        }
        None => format!("{} uses {}: it has no pact slots", me.name, spec.name),
    }
}

/// Hurl Through Hell: the named creature (the one just hit) takes the dice of `damage_type`,
/// unless it is of a type in `not_types` (a fiend).
pub fn damage(
    call: &mut Call<'_>,
    turn: &mut Turn<'_>,
    me: &Character,
    spec: &ActionSpec,
    lines: &mut Vec<String>,
) -> Result<String> {
    let Use::Damage {
        dice,
        damage_type,
        not_types,
    } = &spec.does
    else {
        return Ok(format!("{} uses {}", me.name, spec.name));
    };
    let damage_type = *damage_type;
    let who = turn.req.first_target().cloned().ok_or_else(|| {
        EngineError::invalid(
            "targetId",
            format!("say which creature {} sends away (targetId)", spec.name),
        )
    })?;
    let (cb, t) = super::resolve(call, &turn.encounter, &who, "targetId")?;
    let (n, f) = dice.eval(&AmountContext::default()).unwrap_or((1, 1));
    if let Some(kind) = crate::magic::mechanics::creature_type(&t)
        && not_types.iter().any(|x| name_key(x) == name_key(&kind))
    {
        lines.push(format!("{} is a {kind}: no damage", t.name));
        return Ok(format!("{} uses {} on {}", me.name, spec.name, t.name));
    }
    let r = tabletop_rules::dice::roll(&format!("{n}d{f}"), call.rng()?)?;
    call.record_roll(&r);
    lines.push(format!("{} damage: {}", spec.name, r.summary()));
    let amount = u32::try_from(r.total.max(0)).unwrap_or(0);
    let parts = [DamagePart::new(Some(damage_type), amount)];
    let (d, _, t) = crate::combat::actions::attack::apply_damage_to(
        call,
        &mut turn.encounter,
        &cb.character_id,
        &parts,
        false,
        lines,
    )?;
    Ok(format!(
        "{} uses {}: {} takes {}",
        me.name,
        spec.name,
        t.name,
        crate::combat::actions::attack::damage_phrase(&d),
    ))
}

/// Fiendish Resilience: resistance to the damage type named (`damageType`), replacing the one
/// chosen before.
pub fn chosen_resistance(
    call: &mut Call<'_>,
    turn: &Turn<'_>,
    me: &mut Character,
    spec: &ActionSpec,
) -> Result<String> {
    let Some(t) = turn.req.damage_type else {
        return Err(EngineError::invalid(
            "damageType",
            format!(
                "{} gives resistance to one damage type: pass damageType",
                spec.name
            ),
        ));
    };
    let key = name_key(&spec.name);
    me.effects.retain(|e| name_key(&e.name) != key);
    me.effects.push(ActiveEffect {
        id: call.new_id("ef")?,
        name: spec.name.clone(),
        source: Some(spec.source.clone()),
        modifiers: vec![Modifier::new(
            &spec.name,
            ModifierKind::Resistance {
                damage_type: Some(t),
            },
        )],
        duration: Duration::UntilDispelled,
        ends_on: None,
        ends_when_attacked: false,
        damaged_since_turn: false,
        grant: None,
    });
    Ok(format!(
        "{} uses {}: resistant to {t} damage until it chooses again",
        me.name, spec.name
    ))
}

/// Spends `points` of the resource of `spec` on `me` (refused when short, unless `force`);
/// the line saying what is left.
pub(crate) fn spend(
    me: &mut Character,
    spec: &ActionSpec,
    points: u32,
    force: bool,
    forced: &mut Vec<String>,
) -> Result<Option<String>> {
    let Some(res) = &spec.resource else {
        return Ok(None);
    };
    let rk = name_key(res);
    let name = me.name.clone();
    let Some(r) = me.resources.iter_mut().find(|r| name_key(&r.name) == rk) else {
        return Err(EngineError::Rule(format!(
            "{name} has no {res} resource (set one with update_character resources)"
        )));
    };
    let when = match r.recharge {
        crate::character::Recharge::Short => "short or long",
        crate::character::Recharge::Long => "long",
    };
    crate::combat::actions::forced::rule(
        r.current >= points,
        force,
        forced,
        format!(
            "{name} has {}/{} {} left and needs {points}; it returns on a {when} rest",
            r.current, r.max, r.name
        ),
    )?;
    r.current = r.current.saturating_sub(points);
    Ok(Some(format!("{}: {}/{} left", r.name, r.current, r.max)))
}

/// Who Lay on Hands heals and with how many of its points, settled before any is spent.
pub struct PoolHeal {
    /// The creature touched; `None`: the user.
    pub target: Option<Character>,
    /// The points spent: those asked, no more than the creature is missing.
    pub points: u32,
    /// The points asked.
    pub asked: u32,
}

/// Lay on Hands (`Use::PoolHeal`): the creature touched (`targets`/`targetName`, else the user)
/// and the points it takes from the pool. The feature has no effect on undead and constructs
/// (refused), and spends only the hit points the creature is missing (refused when it is
/// missing none), so nothing asked beyond them leaves the pool.
pub fn pool_heal_plan(
    call: &mut Call<'_>,
    turn: &Turn<'_>,
    me: &Character,
    spec: &ActionSpec,
    asked: u32,
) -> Result<PoolHeal> {
    let who = turn.req.first_target().cloned();
    let same = who.as_ref().is_none_or(|t| {
        t.id.as_deref() == Some(me.id.as_str())
            || t.name
                .as_deref()
                .is_some_and(|n| name_key(n) == name_key(&me.name))
    });
    let target = match who.filter(|_| !same) {
        Some(w) => Some(super::resolve(call, &turn.encounter, &w, "targetId")?.1),
        None => None,
    };
    let t = target.as_ref().unwrap_or(me);
    let kind = crate::magic::targets::creature_type(t).unwrap_or_default();
    if kind.starts_with("undead") || kind.starts_with("construct") {
        return Err(EngineError::Rule(format!(
            "{} has no effect on undead and constructs, and {} is {kind}: no points spent",
            spec.name, t.name
        )));
    }
    // What the points would heal: the hit points it is missing (its form's, when it wears one).
    let mut probe = t.clone();
    let healed = crate::update::heal(&mut probe, asked, &mut Vec::new())?.healed;
    if healed == 0 {
        return Err(EngineError::Rule(format!(
            "{} is missing no hit points: {} would heal nothing, and no points are spent",
            t.name, spec.name
        )));
    }
    Ok(PoolHeal {
        points: healed.min(asked),
        asked,
        target,
    })
}

/// Bardic Inspiration (`Use::Inspire`): one creature other than the user within `range_ft`
/// (named with `targetName` or `targets`) holds one inspiration die of `spec.heal_plus` faces
/// for 10 minutes, as the effect "Bardic Inspiration" on its sheet. Adding the die to one ability
/// check, attack roll or saving throw is the player's call and the table's roll (no
/// automation); a creature holds one such die at a time.
pub fn inspire(
    call: &mut Call<'_>,
    turn: &mut Turn<'_>,
    me: &Character,
    spec: &ActionSpec,
    range_ft: u32,
    lines: &mut Vec<String>,
) -> Result<String> {
    let Some(who) = turn.req.first_target().cloned() else {
        return Err(EngineError::invalid(
            "targetName",
            format!(
                "name the creature {} inspires (targetName): another creature within {range_ft} ft",
                spec.name
            ),
        ));
    };
    let (_, mut t) = super::resolve(call, &turn.encounter, &who, "targetId")?;
    if t.id == me.id {
        return Err(EngineError::invalid(
            "targetName",
            format!(
                "{} inspires another creature, not {} itself",
                spec.name, me.name
            ),
        ));
    }
    let d = super::distance(&turn.encounter, &me.id, &t.id)?;
    turn.rule(
        d <= range_ft,
        format!(
            "{} is {d} ft from {}; {} reaches a creature within {range_ft} ft that can hear it",
            t.name, me.name, spec.name
        ),
    )?;
    let key = name_key(&spec.name);
    if t.effects.iter().any(|e| name_key(&e.name) == key) {
        return Err(EngineError::Rule(format!(
            "{} already holds a {} die (one at a time): nothing is spent",
            t.name, spec.name
        )));
    }
    let faces = spec.heal_plus.max(1);
    let text = format!(
        "one d{faces} from {} to add to one ability check, attack roll or saving throw within 10 minutes, after seeing the d20 and before the DM says how it went (no automation: the player rolls the d{faces} and the DM adds it, then removes this effect)",
        me.name
    );
    t.effects.push(ActiveEffect {
        id: call.new_id("ef")?,
        name: spec.name.clone(),
        source: Some(me.name.clone()),
        modifiers: vec![Modifier::new(
            &spec.name,
            ModifierKind::Note { text: text.clone() },
        )],
        duration: Duration::Rounds { remaining: 100 },
        ends_on: None,
        ends_when_attacked: false,
        damaged_since_turn: false,
        grant: None,
    });
    crate::combat::put_sheet(call, &t)?;
    let line = format!(
        "{} holds a Bardic Inspiration die (d{faces}): {text}",
        t.name
    );
    call.record_change("character", &t.id, line.clone());
    lines.push(line);
    Ok(format!(
        "{} uses {} on {} (d{faces})",
        me.name, spec.name, t.name
    ))
}
