//! Class and race features used in combat with `use_special_ability` by name: the actions the
//! derived sheet offers (Rage, Second Wind, Action Surge, Lay on Hands, Patient Defense, Flurry
//! of Blows, …), each spending its resource and doing what the mechanics catalog says.

use tabletop_rules::Condition;
use tabletop_rules::modifiers::{Modifier, ModifierKind};

use super::{ActionOutcome, Turn};
use crate::catalog::class_rules::ClassRule;
use crate::catalog::{self, Use};
use crate::character::{Character, name_key};
use crate::effects::{ActiveEffect, Duration};
use crate::engine::Call;
use crate::error::{EngineError, Result};

/// Uses the feature `name` of `a`, if its sheet offers one by that name. `Ok(None)` when it
/// does not and the creature has a stat block to look in instead.
pub fn use_feature(
    call: &mut Call<'_>,
    turn: &mut Turn<'_>,
    a: &Character,
    name: &str,
) -> Result<Option<ActionOutcome>> {
    let key = name_key(name);
    let offered: Vec<String> = a
        .derived
        .as_ref()
        .map(|d| d.actions.iter().map(|x| x.name.clone()).collect())
        .unwrap_or_default();
    let Some(spec) = a
        .derived
        .as_ref()
        .and_then(|d| d.actions.iter().find(|x| name_key(&x.name) == key))
        .cloned()
    else {
        if a.action_block().is_some() {
            return Ok(None);
        }
        return Err(EngineError::invalid(
            "abilityName",
            format!(
                "{} has no feature action '{name}'; its feature actions: {} (other features are applied on the sheet, or narrated by the DM)",
                a.name,
                if offered.is_empty() {
                    "none".to_string()
                } else {
                    offered.join(", ")
                }
            ),
        ));
    };
    let mut me = a.clone();
    let mut lines = Vec::new();
    // Lay on Hands spends points, not uses: those asked, no more than the creature touched is
    // missing.
    let mut pool_heal = None;
    let points = match &spec.does {
        Use::PoolHeal => {
            let n: u32 = turn
                .req
                .amount
                .as_deref()
                .and_then(|s| s.trim().parse().ok())
                .filter(|n| *n >= 1)
                .ok_or_else(|| {
                    EngineError::invalid(
                        "amount",
                        format!("say how many {} points to spend (amount: \"5\")", spec.name),
                    )
                })?;
            let plan = super::feature_uses::pool_heal_plan(call, turn, &me, &spec, n)?;
            let points = plan.points;
            pool_heal = Some(plan);
            points
        }
        _ => 1,
    };
    let force = turn.req.force;
    if let Use::SaveEffect(se) = &spec.does
        && se.after_melee_hit
    {
        after_melee_hit(call, turn, a, &spec.name)?;
    }
    if let Use::UnarmedStrikes { .. } = &spec.does {
        super::flurry::check(turn, a, &spec.name)?;
    }
    // Step of the Wind: the Dash or the Disengage action, said before the ki is spent.
    let dash_or_disengage = match &spec.does {
        Use::DashOrDisengage => Some(dash_or_disengage(turn, &spec.name)?),
        _ => None,
    };
    if let Use::Effect {
        first_attack: true, ..
    } = &spec.does
    {
        let attacked = turn
            .encounter
            .combatant(&a.id)
            .is_some_and(|cb| cb.economy.attacked || cb.economy.attack_made);
        turn.rule(
            !attacked,
            format!(
                "{} is decided with the first attack of the turn, and {} has already attacked this turn: use it before the first attack next turn",
                spec.name, a.name
            ),
        )?;
    }
    if let Some(line) = super::feature_uses::spend(&mut me, &spec, points, force, &mut turn.forced)?
    {
        lines.push(line);
    }
    let mut details = serde_json::Value::Null;
    let headline = match &spec.does {
        Use::Heal { dice, .. } => {
            let (n, f) = dice
                .eval(&catalog::AmountContext::default())
                .unwrap_or((1, 1));
            let expr = if n == 0 {
                spec.heal_plus.to_string()
            } else {
                format!("{n}d{f}+{}", spec.heal_plus)
            };
            let r = tabletop_rules::dice::roll(&expr, call.rng()?)?;
            call.record_roll(&r);
            let amount = u32::try_from(r.total.max(0)).unwrap_or(0);
            let mut changes = Vec::new();
            let h = crate::update::heal(&mut me, amount, &mut changes)?;
            lines.push(format!("Healing roll: {}", r.summary()));
            lines.extend(changes);
            format!(
                "{} uses {}: regains {} HP ({} → {})",
                a.name, spec.name, h.healed, h.hp_before, h.hp_after
            )
        }
        Use::Effect {
            rounds,
            modifiers,
            until_next_turn,
            ..
        } => {
            let mut mods: Vec<Modifier> = modifiers
                .iter()
                .map(|k| Modifier::new(&spec.name, k.clone()))
                .collect();
            if spec.damage_bonus != 0 {
                mods.push(Modifier::new(
                    &spec.name,
                    ModifierKind::DamageBonus {
                        amount: i32::try_from(spec.damage_bonus).unwrap_or(0),
                    },
                ));
            }
            // Mindless Rage: no charm or fear while raging (one already on it is suspended).
            if key == "rage" && me.has_rule(ClassRule::MindlessRage) {
                for condition in [Condition::Charmed, Condition::Frightened] {
                    mods.push(Modifier::new(
                        ClassRule::MindlessRage.label(),
                        ModifierKind::ConditionImmunity { condition },
                    ));
                }
            }
            let what: Vec<String> = mods.iter().map(|m| m.kind.to_string()).collect();
            me.effects.retain(|e| name_key(&e.name) != key);
            me.effects.push(ActiveEffect {
                id: call.new_id("ef")?,
                name: spec.name.clone(),
                source: Some(spec.source.clone()),
                modifiers: mods,
                duration: Duration::Rounds { remaining: *rounds },
                ends_on: until_next_turn.then(|| crate::model::effects::EndTrigger {
                    at: crate::model::effects::TurnPoint::Start,
                    turn_of: a.id.clone(),
                }),
                ends_when_attacked: false,
                damaged_since_turn: false,
                grant: None,
            });
            lines.push(format!("for {rounds} round(s): {}", what.join("; ")));
            // Rage in heavy armor: the effect is on, its benefits are not.
            if let Some(why) = me.effects.last().and_then(|e| me.suspended_by_armor(e)) {
                lines.push(format!("{}: {why}", spec.name));
            }
            format!("{} uses {}", a.name, spec.name)
        }
        Use::ExtraAction => {
            if let Some(cb) = turn.encounter.combatant_mut(&a.id) {
                cb.economy.action = false;
                cb.economy.attacks_left = 0;
            }
            format!("{} uses {}: one more action this turn", a.name, spec.name)
        }
        Use::PoolHeal => {
            let plan = pool_heal.take().ok_or_else(|| {
                EngineError::Rule(format!("{} has no creature to heal", spec.name))
            })?;
            let mut changes = Vec::new();
            let line = match plan.target {
                None => {
                    let h = crate::update::heal(&mut me, points, &mut changes)?;
                    format!(
                        "{} regains {} HP ({} → {})",
                        a.name, h.healed, h.hp_before, h.hp_after
                    )
                }
                Some(mut t) => {
                    let h = crate::update::heal(&mut t, points, &mut changes)?;
                    crate::combat::put_sheet(call, &t)?;
                    format!(
                        "{} regains {} HP ({} → {})",
                        t.name, h.healed, h.hp_before, h.hp_after
                    )
                }
            };
            lines.extend(changes);
            if plan.asked > points {
                lines.push(format!(
                    "{} points asked; {points} spent, all the hit points missing (the rest stay in the pool)",
                    plan.asked
                ));
            }
            format!("{} uses {} ({points} points): {line}", a.name, spec.name)
        }
        Use::SplitHeal { range_ft, .. } => {
            super::feature_saves::split_heal(call, turn, &mut me, &spec, *range_ft, &mut lines)?
        }
        Use::SaveEffect(se) => super::feature_saves::run(call, turn, &me, &spec, se, &mut lines)?,
        Use::EndConditions { conditions } => {
            let before: Vec<String> = me
                .conditions
                .iter()
                .filter(|c| conditions.contains(&c.condition))
                .map(|c| c.condition.to_string())
                .collect();
            me.conditions.retain(|c| !conditions.contains(&c.condition));
            if before.is_empty() {
                format!("{} uses {}: it has no condition it ends", a.name, spec.name)
            } else {
                format!(
                    "{} uses {}: no longer {}",
                    a.name,
                    spec.name,
                    before.join(" or ")
                )
            }
        }
        Use::Aura {
            radius_ft,
            damage,
            damage_type,
            rounds,
        } => {
            let (aura, made) = crate::combat::auras::create(
                call,
                &mut turn.encounter,
                crate::combat::auras::NewAura {
                    name: spec.name.clone(),
                    bearer: crate::combat::actions::Who {
                        id: Some(a.id.clone()),
                        name: None,
                    },
                    radius_ft: *radius_ft,
                    damage: Some(damage.clone()),
                    damage_type: Some(*damage_type),
                    healing: None,
                    condition: None,
                    save: None,
                    affects: crate::combat::auras::AuraAffects::Enemies,
                    rounds: Some(*rounds),
                    concentration: None,
                },
            )?;
            lines.extend(made);
            // Only a creature starting its turn in it is hurt, not one entering it.
            if let Some(x) = turn.encounter.auras.iter_mut().find(|x| x.id == aura.id) {
                x.trigger = crate::model::aura::ZoneTrigger::Start;
            }
            format!(
                "{} uses {}: {damage} {damage_type} to each hostile creature starting its turn within {radius_ft} ft, for {rounds} rounds (aura {})",
                a.name, spec.name, aura.id
            )
        }
        Use::RestorePactSlots => {
            super::feature_uses::restore_pact_slots(&mut me, &spec, &mut lines)
        }
        Use::Damage { .. } => super::feature_uses::damage(call, turn, &me, &spec, &mut lines)?,
        Use::ChosenResistance => {
            super::feature_uses::chosen_resistance(call, turn, &mut me, &spec)?
        }
        Use::Breath { .. } => {
            super::breath::breathe(call, turn, &me, &spec, &mut lines, &mut details)?
        }
        Use::UnarmedStrikes { count } => {
            // The strikes read and write the sheets themselves: the ki spent goes first.
            crate::combat::put_sheet(call, &me)?;
            let head = super::flurry::strikes(call, turn, a, &spec.name, *count, &mut lines)?;
            me = crate::combat::sheet(call, &a.id)?;
            head
        }
        Use::Inspire { range_ft, .. } => {
            super::feature_uses::inspire(call, turn, &me, &spec, *range_ft, &mut lines)?
        }
        Use::DashOrDisengage => {
            let t = dash_or_disengage.unwrap_or(super::ActionType::Disengage);
            let saved = turn.actor.replace(me.clone());
            let out = crate::combat::actions::movement::run(call, turn, t)?;
            turn.actor = saved;
            lines.push(out.headline);
            lines.push(format!(
                "{}: its jump distance is doubled for the turn (no automation for jumps: the DM applies it)",
                spec.name
            ));
            format!("{} uses {} ({})", a.name, spec.name, t.key())
        }
        Use::Narrate => {
            lines.push(format!(
                "no automation for {}'s effect: the DM narrates it ({})",
                spec.name, spec.source
            ));
            format!("{} uses {}", a.name, spec.name)
        }
    };
    crate::combat::put_sheet(call, &me)?;
    turn.actor = Some(me);
    Ok(Some(ActionOutcome {
        headline: format!("{headline}."),
        lines,
        details,
        ..Default::default()
    }))
}

/// At the end of `id`'s turn: a Rage lapses when its bearer has not attacked a hostile creature
/// (`flags.fought`, [`crate::combat::Encounter::mark_attack`]) or taken damage (the flag, or
/// the mark damage leaves on the Rage wherever it lands) since its last turn (said in `lines`);
/// both marks start again for the next round.
pub fn rage_lapses(
    call: &mut Call<'_>,
    enc: &mut crate::combat::Encounter,
    id: &str,
    lines: &mut Vec<String>,
) -> Result<()> {
    let fought = enc
        .combatant_mut(id)
        .map(|cb| std::mem::take(&mut cb.flags.fought))
        .unwrap_or(true);
    let mut c = crate::combat::sheet(call, id)?;
    if !c.effects.iter().any(|e| e.lapses_unless_fighting()) {
        return Ok(());
    }
    let hurt = c
        .effects
        .iter()
        .any(|e| e.lapses_unless_fighting() && e.damaged_since_turn);
    // Persistent Rage: the rage ends early only when it falls unconscious or chooses to.
    if fought || hurt || c.has_rule(ClassRule::PersistentRage) {
        if hurt {
            for e in c.effects.iter_mut() {
                e.damaged_since_turn = false;
            }
            crate::combat::put_sheet(call, &c)?;
        }
        return Ok(());
    }
    let mut ended = Vec::new();
    c.effects.retain(|e| {
        let lapses = e.lapses_unless_fighting();
        if lapses {
            ended.push(e.name.clone());
        }
        !lapses
    });
    crate::combat::put_sheet(call, &c)?;
    for name in ended {
        let line = format!(
            "{}'s {name} ends: no attack on a hostile creature and no damage taken since its last turn",
            c.name
        );
        call.record_change("character", &c.id, line.clone());
        lines.push(line);
    }
    Ok(())
}

/// A feature used after a melee weapon hit (Stunning Strike) needs its target hit with one by
/// `a` this turn; refused otherwise (before anything is spent), unless forced.
fn after_melee_hit(
    call: &mut Call<'_>,
    turn: &mut Turn<'_>,
    a: &Character,
    feature: &str,
) -> Result<()> {
    let Some(who) = turn.req.first_target().cloned() else {
        return Err(EngineError::invalid(
            "targetName",
            format!("name the creature {feature} follows a melee weapon hit on"),
        ));
    };
    let (_, t) = super::resolve(call, &turn.encounter, &who, "targetId")?;
    let now = (turn.encounter.round, turn.encounter.turn);
    let hit = turn
        .encounter
        .combatant(&a.id)
        .is_some_and(|cb| cb.flags.melee_hit(now, &t.id));
    // One attempt per hit: each attempt uses up the hit it follows.
    let unused = turn
        .encounter
        .combatant_mut(&a.id)
        .is_some_and(|cb| cb.flags.use_melee_hit(now, &t.id));
    if hit && !unused {
        return turn.rule(
            false,
            format!(
                "{feature} is attempted once per melee weapon hit, and each of {}'s hits on {} this turn has had its attempt: hit it again first (execute_action attack)",
                a.name, t.name
            ),
        );
    }
    turn.rule(
        unused,
        format!(
            "{feature} follows a melee weapon hit, and {} has not hit {} with one this turn: attack it first (execute_action attack)",
            a.name, t.name
        ),
    )
}

/// Which action Step of the Wind takes: `description` "dash" or "disengage"; asked for when
/// absent (nothing is spent).
fn dash_or_disengage(turn: &Turn<'_>, feature: &str) -> Result<super::ActionType> {
    let said = turn
        .req
        .description
        .as_deref()
        .map(|d| d.trim().to_lowercase())
        .unwrap_or_default();
    match said.as_str() {
        "dash" => Ok(super::ActionType::Dash),
        "disengage" => Ok(super::ActionType::Disengage),
        _ => Err(EngineError::invalid(
            "description",
            format!(
                "{feature} takes the Dash or the Disengage action: say which (description: \"dash\" or \"disengage\"), or take execute_action dash or disengage with actionCost bonus_action"
            ),
        )),
    }
}
