//! `roll_check`: skill, ability, save, attack, initiative and passive checks from a character's
//! effective stats, contests and group checks. Advantage and disadvantage from the sheet
//! (conditions, effects) and from the caller are combined by the rules and cancel.

use serde::Serialize;
use tabletop_rules::d20::{
    self, ContestOutcome, D20Outcome, D20Request, D20Test, GroupOutcome, PassiveScore,
};
use tabletop_rules::dice::{self, DiceRoll};
use tabletop_rules::{Ability, DamageType};

use crate::characters::resolve_with_fields;
use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::inventory::weapons::{equipped_weapon, weapon_attack, weapon_proficiency};
use crate::model::character::{Character, CharacterRef, StatAction};

/// An attack made with an equipped weapon.
#[derive(Debug, Clone, Default)]
pub struct WeaponUse {
    /// The weapon's name or item id.
    pub name: String,
    /// Proficiency; default from the SRD class (else proficient).
    pub proficient: Option<bool>,
    /// The ability, within what the weapon allows (finesse: STR or DEX).
    pub ability: Option<Ability>,
}

/// One check to make.
#[derive(Debug, Clone)]
pub struct CheckRequest {
    /// What is rolled.
    pub test: D20Test,
    /// Passive score instead of a roll (checks only).
    pub passive: bool,
    /// Difficulty class (or AC for an attack).
    pub dc: Option<i32>,
    /// The caller grants advantage (with its reason).
    pub advantage: Option<String>,
    /// The caller imposes disadvantage (with its reason).
    pub disadvantage: Option<String>,
    /// A situational bonus (negative for a penalty).
    pub bonus: i32,
    /// Why the check is made.
    pub reason: Option<String>,
    /// Attack with this equipped weapon (its ability, proficiency, magic and damage dice).
    pub weapon: Option<WeaponUse>,
    /// A save: what it resists (the sheet's racial advantages against it apply).
    pub against: crate::saves::SaveAgainst,
}

impl CheckRequest {
    /// A plain `test`: rolled, no DC, no advantage or disadvantage, no bonus, no reason, no
    /// weapon, against nothing in particular. Set what differs with struct update syntax.
    pub fn of(test: D20Test) -> Self {
        Self {
            test,
            passive: false,
            dc: None,
            advantage: None,
            disadvantage: None,
            bonus: 0,
            reason: None,
            weapon: None,
            against: Default::default(),
        }
    }

    fn to_rules(&self) -> D20Request {
        let mut r = D20Request::new(self.test);
        if let Some(dc) = self.dc {
            r = r.dc(dc);
        }
        if let Some(a) = &self.advantage {
            r = r.advantage(a.clone());
        }
        if let Some(d) = &self.disadvantage {
            r = r.disadvantage(d.clone());
        }
        if self.bonus != 0 {
            r = r.bonus("situational bonus", self.bonus);
        }
        if let Some(reason) = &self.reason {
            r = r.labelled(format!("{} ({reason})", self.test.label()));
        }
        r
    }
}

/// The result of one character's check.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase", tag = "kind")]
pub enum CheckOutcome {
    /// A rolled check.
    Rolled {
        /// Who rolled.
        character: String,
        /// The roll.
        outcome: D20Outcome,
        /// A weapon attack's damage roll (on a hit, or when no AC was given); not applied.
        #[serde(skip_serializing_if = "Option::is_none")]
        damage: Option<Box<AttackDamage>>,
    },
    /// A passive score.
    Passive {
        /// Whose score.
        character: String,
        /// The score.
        outcome: PassiveScore,
    },
}

impl CheckOutcome {
    /// "Aria — Stealth check: …".
    pub fn summary(&self) -> String {
        match self {
            CheckOutcome::Rolled {
                character,
                outcome,
                damage,
            } => {
                let mut s = format!("{character} — {}", outcome.summary());
                if let Some(d) = damage {
                    s.push_str(&format!(
                        "\nDamage{} (not applied): {}",
                        if d.critical { ", critical" } else { "" },
                        d.roll.summary()
                    ));
                }
                s
            }
            CheckOutcome::Passive { character, outcome } => {
                format!("{character} — {}", outcome.summary())
            }
        }
    }

    /// Whether it met its DC (None without a DC).
    pub fn success(&self) -> Option<bool> {
        match self {
            CheckOutcome::Rolled { outcome, .. } => outcome.success,
            CheckOutcome::Passive { outcome, .. } => outcome.success,
        }
    }
}

fn validate(req: &CheckRequest) -> Result<()> {
    if req.passive
        && matches!(
            req.test,
            D20Test::Save { .. } | D20Test::Attack { .. } | D20Test::Concentration
        )
    {
        return Err(EngineError::invalid(
            "checkType",
            "passive scores exist for skills, abilities and initiative, not saves or attacks",
        ));
    }
    if let Some(dc) = req.dc
        && !(0..=60).contains(&dc)
    {
        return Err(EngineError::invalid(
            "dc",
            format!("{dc} is out of range; a DC is 0–60"),
        ));
    }
    if !(-50..=50).contains(&req.bonus) {
        return Err(EngineError::invalid(
            "bonus",
            format!("{} is out of range; use −50 to +50", req.bonus),
        ));
    }
    Ok(())
}

/// Damage of one type.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TypedAmount {
    /// The type (absent = untyped).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub damage_type: Option<DamageType>,
    /// The amount.
    pub amount: i64,
}

/// A weapon attack's damage roll. It is not applied: pass it to update_character (damage) or
/// let combat resolve it.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AttackDamage {
    /// The weapon.
    pub weapon: String,
    /// The expression rolled (dice doubled on a critical hit).
    pub expression: String,
    /// Total (at least 0).
    pub total: i64,
    /// Per damage type.
    pub by_type: Vec<TypedAmount>,
    /// A critical hit: the dice were doubled.
    pub critical: bool,
    /// Always false: applying damage is combat's job.
    pub applied: bool,
    /// The roll.
    pub roll: DiceRoll,
}

/// Rolls a hit's damage (dice doubled on a critical hit); the result is reported, not applied.
fn roll_damage(
    call: &mut Call<'_>,
    weapon: &str,
    expression: &str,
    critical: bool,
) -> Result<AttackDamage> {
    let mut expr = dice::parse(expression)?;
    if critical {
        expr = expr.with_doubled_dice()?;
    }
    let roll = expr.roll(call.rng()?)?;
    Ok(AttackDamage {
        weapon: weapon.to_string(),
        expression: roll.expression.clone(),
        total: roll.total.max(0),
        by_type: roll
            .damage_by_type()
            .into_iter()
            .map(|(damage_type, amount)| TypedAmount {
                damage_type,
                amount,
            })
            .collect(),
        critical,
        applied: false,
        roll,
    })
}

/// The stat-block action called `name` (case-insensitive) that makes an attack roll.
fn stat_block_attack<'c>(c: &'c Character, name: &str) -> Option<&'c StatAction> {
    let key = crate::model::names::name_key(name);
    c.stat_block
        .as_ref()?
        .actions
        .iter()
        .find(|a| a.attack_bonus.is_some() && crate::model::names::name_key(&a.name) == key)
}

/// Adds the stat block's attacks to a "no such weapon" error, so the fix is in the message.
fn with_stat_block_attacks(e: EngineError, c: &Character) -> EngineError {
    let attacks: Vec<&str> = c
        .stat_block
        .iter()
        .flat_map(|b| b.actions.iter())
        .filter(|a| a.attack_bonus.is_some())
        .map(|a| a.name.as_str())
        .collect();
    if attacks.is_empty() {
        return e;
    }
    EngineError::invalid(
        "weapon",
        format!(
            "{e}; {}'s stat-block attacks: {}",
            c.name,
            attacks.join(", ")
        ),
    )
}

/// Double proficiency on a skill check whose reason names a topic the character knows
/// (Stonecunning: History about stonework; Artificer's Lore: about magic items): the label and
/// what it adds over the skill's own proficiency.
fn topic_expertise(c: &Character, req: &CheckRequest) -> Option<(String, i32)> {
    let D20Test::SkillCheck { skill } = req.test else {
        return None;
    };
    let reason = req.reason.as_deref()?.to_lowercase();
    let d = c.derived.as_ref()?;
    let (source, topic) = d.topic_expertise.iter().find_map(|t| {
        let (s, topics) = &t.value;
        let hit = topics.iter().find(|w| reason.contains(&w.to_lowercase()))?;
        (*s == skill).then(|| (t.source.clone(), hit.clone()))
    })?;
    let prof = d.proficiency_bonus;
    let has = d.skills.get(&skill).map_or(0, |l| l.value.bonus(prof));
    let delta = 2 * prof - has;
    (delta > 0).then(|| (format!("{source} (double proficiency: {topic})"), delta))
}

/// Rolls (or computes the passive score of) one check for one character.
pub fn roll_check(
    call: &mut Call<'_>,
    who: CharacterRef<'_>,
    req: &CheckRequest,
) -> Result<CheckOutcome> {
    roll_check_recorded(call, who, req).map(|(out, _)| out)
}

/// [`roll_check`], with the JSON text the event log recorded the outcome as (none when the call
/// keeps no event): an answer shows it as it is rather than serializing the outcome again.
pub fn roll_check_recorded(
    call: &mut Call<'_>,
    who: CharacterRef<'_>,
    req: &CheckRequest,
) -> Result<(CheckOutcome, Option<String>)> {
    let out = check_outcome(call, who, req)?;
    let text = call.record_roll_text(&out);
    Ok((out, text))
}

/// One check's outcome, not yet recorded.
fn check_outcome(
    call: &mut Call<'_>,
    who: CharacterRef<'_>,
    req: &CheckRequest,
) -> Result<CheckOutcome> {
    validate(req)?;
    let c = crate::characters::read_with_fields(call, who, "characterId", "characterName")?;
    if c.dead {
        return Err(EngineError::Rule(format!(
            "{} is dead and makes no checks",
            c.name
        )));
    }
    // The running fight, read once: a frightened creature's disadvantage lapses while its
    // source is out of line of sight; a Help or a Dodge gives advantage (below).
    let mut enc = crate::combat::load_active(call, None).ok();
    let (fearless, fear) = crate::combat::fear::stats_for_roll(enc.as_ref(), &c);
    let stats = &fearless;
    let fear_note = |o: &mut d20::D20Outcome| {
        if let Some(f) = &fear {
            o.label = format!("{} ({f})", o.label);
        }
    };
    if let Some(w) = &req.weapon {
        if !matches!(req.test, D20Test::Attack { .. }) || req.passive {
            return Err(EngineError::invalid(
                "weapon",
                "weapon goes with checkType attack",
            ));
        }
        // A stat block's attack (a creature made from an SRD monster), when no equipped weapon
        // has that name: its to-hit already holds ability and proficiency.
        let item = match equipped_weapon(&c, &w.name) {
            Ok(item) => item,
            Err(e) => {
                let Some(action) = stat_block_attack(&c, &w.name) else {
                    return Err(with_stat_block_attacks(e, &c));
                };
                let mut with = req.clone();
                with.test = D20Test::Attack {
                    ability: None,
                    proficient: false,
                };
                let to_hit = action.attack_bonus.unwrap_or(0);
                let rules = with
                    .to_rules()
                    .labelled(match &req.reason {
                        Some(r) => format!("{} attack ({r})", action.name),
                        None => format!("{} attack", action.name),
                    })
                    .bonus(format!("{} to hit", action.name), to_hit);
                let outcome = d20::roll_d20_test(stats, &rules, call.rng()?);
                let expression = action
                    .damage
                    .iter()
                    .map(|d| match d.damage_type {
                        Some(t) => format!("({})[{t}]", d.dice),
                        None => format!("({})", d.dice),
                    })
                    .collect::<Vec<_>>()
                    .join(" + ");
                let damage = if outcome.success == Some(false) || expression.is_empty() {
                    None
                } else {
                    Some(Box::new(roll_damage(
                        call,
                        &action.name,
                        &expression,
                        outcome.critical,
                    )?))
                };
                let out = CheckOutcome::Rolled {
                    character: c.name.clone(),
                    outcome,
                    damage,
                };
                return Ok(out);
            }
        };
        let proficient = w
            .proficient
            .or_else(|| weapon_proficiency(call, &c, item))
            .unwrap_or(true);
        let attack = weapon_attack(&c, stats, item, proficient, w.ability, false)?;
        let mut with = req.clone();
        with.test = D20Test::Attack {
            ability: Some(attack.ability),
            proficient,
        };
        let mut rules = with.to_rules().labelled(match &req.reason {
            Some(r) => format!("Attack with {} ({r})", item.name),
            None => format!("Attack with {}", item.name),
        });
        for b in &attack.weapon_bonuses {
            rules = rules.bonus_part(b);
        }
        if let Some(why) = crate::derive::gear::weapon_style(&c, item).disadvantage {
            rules = rules.disadvantage(why);
        }
        let mut outcome = d20::roll_d20_test(stats, &rules, call.rng()?);
        fear_note(&mut outcome);
        let damage = if outcome.success == Some(false) {
            None
        } else {
            Some(Box::new(roll_damage(
                call,
                &item.name,
                &attack.damage,
                outcome.critical,
            )?))
        };
        let out = CheckOutcome::Rolled {
            character: c.name.clone(),
            outcome,
            damage,
        };
        return Ok(out);
    }
    let mut rules = req.to_rules();
    if let Some((why, delta)) = topic_expertise(&c, req) {
        rules = rules.bonus(why, delta);
    }
    // In a fight: the Help on the next ability check, the Dodge on a DEX save.
    for why in crate::combat::actions::tactics::roll_check_advantages(
        call,
        enc.as_mut(),
        &c,
        &req.test,
        req.passive,
    )? {
        rules = rules.advantage(why);
    }
    if let D20Test::Save { ability } = req.test {
        let against = match (&req.reason, req.against.is_empty()) {
            (Some(r), true) => crate::saves::SaveAgainst::from_reason(call, r),
            _ => req.against.clone(),
        };
        for why in crate::saves::trait_advantages(&c, ability, &against) {
            rules = rules.advantage(why);
        }
    }
    let out = if req.passive {
        CheckOutcome::Passive {
            character: c.name.clone(),
            outcome: d20::passive_score(stats, &rules),
        }
    } else {
        let mut outcome = d20::roll_d20_test(stats, &rules, call.rng()?);
        if !matches!(req.test, D20Test::Save { .. }) {
            fear_note(&mut outcome);
        }
        crate::class_rules::adjust_check(&c, &mut outcome);
        CheckOutcome::Rolled {
            character: c.name.clone(),
            outcome,
            damage: None,
        }
    };
    Ok(out)
}

/// A contest between two characters; a tie keeps the status quo.
pub fn roll_contest(
    call: &mut Call<'_>,
    first: (CharacterRef<'_>, &CheckRequest),
    second: (CharacterRef<'_>, &CheckRequest),
) -> Result<ContestOutcome> {
    validate(first.1)?;
    validate(second.1)?;
    if first.1.weapon.is_some() {
        return Err(EngineError::invalid(
            "weapon",
            "a weapon attack is not a contest; drop contestedBy and give the target's AC as dc",
        ));
    }
    if first.1.passive || second.1.passive {
        return Err(EngineError::invalid(
            "checkType",
            "a contest rolls both sides; passive is not allowed",
        ));
    }
    let a = resolve_with_fields(call, first.0, "characterId", "characterName")?;
    let b = resolve_with_fields(
        call,
        second.0,
        "contestedBy.characterId",
        "contestedBy.characterName",
    )?;
    let (sa, sb) = (a.effective(), b.effective());
    let (ra, rb) = (
        first
            .1
            .to_rules()
            .labelled(format!("{} {}", a.name, first.1.test.label())),
        second
            .1
            .to_rules()
            .labelled(format!("{} {}", b.name, second.1.test.label())),
    );
    let out = d20::roll_contest((&sa, &ra), (&sb, &rb), call.rng()?);
    call.record_roll(&out);
    Ok(out)
}

/// A group check: each member rolls; the group succeeds when at least half succeed.
pub fn roll_group(
    call: &mut Call<'_>,
    members: &[(CharacterRef<'_>, CheckRequest)],
) -> Result<GroupOutcome> {
    if members.is_empty() {
        return Err(EngineError::invalid(
            "batch",
            "a group check needs at least one member",
        ));
    }
    let mut outcomes = Vec::with_capacity(members.len());
    for (who, req) in members {
        validate(req)?;
        if req.dc.is_none() {
            return Err(EngineError::invalid(
                "dc",
                "every member of a group check needs the DC",
            ));
        }
        let c = resolve_with_fields(call, *who, "characterId", "characterName")?;
        let stats = c.effective();
        let rules = req
            .to_rules()
            .labelled(format!("{} {}", c.name, req.test.label()));
        let mut outcome = d20::roll_d20_test(&stats, &rules, call.rng()?);
        crate::class_rules::adjust_check(&c, &mut outcome);
        outcomes.push(outcome);
    }
    let out = d20::group_check(outcomes);
    call.record_roll(&out);
    Ok(out)
}
