//! Auras: effects centred on a combatant that move with it (Spirit Guardians, a fire
//! elemental's heat, a paladin's aura). Each has a radius, what it does to a creature inside
//! (damage or healing dice, a condition, a save for half or none), whom it touches (allies,
//! enemies, its bearer), a duration in rounds, and optionally the spell whose concentration
//! holds it up: once the caster stops concentrating on that spell the aura is gone.
//!
//! The turn loop calls [`at_turn_start`] when a creature starts its turn: every aura it stands in
//! applies to it (real positions from the map, real HP, saves rolled). Movement calls
//! [`on_enter`] after a creature's move: an aura it entered applies unless it already did to that
//! creature this turn. `manage_aura` creates, lists, removes and processes them by hand.

use serde::Serialize;
use tabletop_grid::Metric;
use tabletop_rules::damage::DamagePart;
use tabletop_rules::{Condition, DamageType};

use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::character::ConditionEntry;
use crate::model::effects::Duration;
use crate::model::encounter::{Encounter, Side};
use crate::model::names::name_key;

/// The data of this family lives in the model; re-exported so the old paths keep working.
pub use crate::model::aura::{Aura, AuraAffects, AuraSave};

/// A new aura as requested.
#[derive(Debug, Clone)]
pub struct NewAura {
    /// Name.
    pub name: String,
    /// Bearer (combatant id or name).
    pub bearer: crate::combat::actions::Who,
    /// Radius in feet.
    pub radius_ft: u32,
    /// Damage dice.
    pub damage: Option<String>,
    /// Damage type.
    pub damage_type: Option<DamageType>,
    /// Healing dice.
    pub healing: Option<String>,
    /// Condition.
    pub condition: Option<Condition>,
    /// Save.
    pub save: Option<AuraSave>,
    /// Whom.
    pub affects: AuraAffects,
    /// Rounds.
    pub rounds: Option<u32>,
    /// Spell held by the bearer's concentration (begun now if it is not already).
    pub concentration: Option<String>,
}

fn affects(a: &Aura, bearer_side: Side, target_side: Side, is_bearer: bool) -> bool {
    match a.affects {
        AuraAffects::Enemies => !is_bearer && bearer_side.hostile_to(target_side),
        AuraAffects::Allies => !is_bearer && !bearer_side.hostile_to(target_side),
        AuraAffects::All => !is_bearer,
        AuraAffects::AllAndSelf => true,
        AuraAffects::AlliesAndSelf => is_bearer || !bearer_side.hostile_to(target_side),
    }
}

/// Drops auras whose bearer left, died, or no longer concentrates on their spell; says which.
pub fn expire(call: &mut Call<'_>, e: &mut Encounter) -> Result<Vec<String>> {
    let mut lines = Vec::new();
    let mut kept = Vec::new();
    let mut gone_auras = Vec::new();
    for a in std::mem::take(&mut e.auras) {
        let gone = match e.combatant(&a.bearer_id) {
            None => Some("its bearer left".to_string()),
            Some(c) if c.removed => Some(format!("{} left the fight", c.name)),
            Some(_) => {
                let s = crate::combat::sheet(call, &a.bearer_id)?;
                if s.dead {
                    Some(format!("{} is dead", s.name))
                } else if let Some(spell) = &a.concentration {
                    let holds = s
                        .concentration
                        .as_ref()
                        .is_some_and(|c| name_key(&c.spell) == name_key(spell));
                    (!holds).then(|| format!("{}'s concentration on {spell} ended", s.name))
                } else {
                    None
                }
            }
        };
        match gone {
            Some(why) => {
                lines.push(format!("aura {} ({}) ends: {why}", a.name, a.id));
                gone_auras.push(a);
            }
            None => kept.push(a),
        }
    }
    e.auras = kept;
    for a in gone_auras {
        lines.extend(crate::combat::zones::ended(call, e, &a)?);
    }
    Ok(lines)
}

/// Doubles the cost of each step of `mover`'s path that ends inside an aura halving the speed
/// of the creatures it affects (Spirit Guardians); says so once per aura.
pub fn slowed_costs(
    e: &Encounter,
    mover: &str,
    squares: &[tabletop_grid::Position],
    costs: &mut [u32],
) -> Vec<String> {
    let mut lines = Vec::new();
    let Some(me) = e.combatant(mover) else {
        return lines;
    };
    for a in e
        .auras
        .iter()
        .filter(|a| a.halves_speed && a.squares.is_empty())
    {
        let (Some(b), Some(centre)) = (
            e.combatant(&a.bearer_id),
            e.map.creature(&a.bearer_id).map(|c| c.position),
        ) else {
            continue;
        };
        if !affects(a, b.side, me.side, a.bearer_id == mover) {
            continue;
        }
        let mut extra = 0;
        for (i, c) in costs.iter_mut().enumerate() {
            let Some(sq) = squares.get(i + 1) else { break };
            if tabletop_grid::distance_ft(centre, *sq, Metric::Grid5e) <= a.radius_ft {
                extra += *c;
                *c = c.saturating_mul(2);
            }
        }
        if extra > 0 {
            lines.push(format!(
                "{} moves at half speed inside {} ({}): +{extra} ft of movement",
                me.name, a.name, a.id
            ));
        }
    }
    lines
}

/// Whether `target` stands within `a`'s radius (from the bearer's space to the target's), or
/// on one of its squares for a zone fixed on the map.
fn inside(e: &Encounter, a: &Aura, target: &str) -> bool {
    if !a.squares.is_empty() {
        return crate::combat::zones::covers(e, a, target);
    }
    e.map
        .creature_distance_ft(&a.bearer_id, target, Metric::Grid5e)
        .is_ok_and(|d| d <= a.radius_ft)
}

/// Applies aura `index` to `target_id` now (inside or not: the caller checked), rolling the save
/// and the dice, through the damage pipeline and concentration saves. Marks it touched.
pub fn apply(
    call: &mut Call<'_>,
    e: &mut Encounter,
    index: usize,
    target_id: &str,
) -> Result<Vec<String>> {
    let Some(a) = e.auras.get(index).cloned() else {
        return Ok(Vec::new());
    };
    let mut t = crate::combat::sheet(call, target_id)?;
    let mut lines = Vec::new();
    if t.dead {
        return Ok(lines);
    }
    // A zone that touches only some creature types (Forbiddance: celestials, elementals, fey,
    // fiends and undead) leaves the others alone.
    if let Some(only) = crate::catalog::spells::by_name(&a.name)
        .map(|m| &m.only_types)
        .filter(|o| !o.is_empty())
    {
        let kind = crate::magic::targets::creature_type(&t).unwrap_or_default();
        if !only.iter().any(|o| kind.starts_with(o.as_str())) {
            return Ok(vec![format!(
                "{} is unaffected by {}: it harms only {} ({} is {})",
                t.name,
                a.name,
                only.join(", "),
                t.name,
                if kind.is_empty() {
                    "of no listed type"
                } else {
                    kind.as_str()
                }
            )]);
        }
    }
    let mut saved = false;
    let mut share = crate::magic::evasion::Share::Full;
    // A creature the zone already holds (restrained by Black Tentacles) takes its damage again
    // without a new save.
    let held = a.holds
        && a.condition.is_some_and(|c| {
            t.conditions
                .iter()
                .any(|x| x.condition == c && x.source == a.name && x.duration.is_none())
        });
    if held && a.damage.is_none() {
        return Ok(Vec::new());
    }
    if let Some(sv) = a.save.filter(|_| !held) {
        // A spell's aura is magic (Gnome Cunning); its damage type and condition count too.
        let vs = crate::saves::SaveAgainst {
            conditions: a.condition.into_iter().collect(),
            damage: a.damage_type,
            magic: a.concentration.is_some(),
        };
        let out = crate::saves::roll_save(call, &t, sv.ability, sv.dc, &a.name, &vs)?;
        lines.push(format!("{} — {}", t.name, out.summary()));
        // A Ring of Evasion, then Evasion (a DEX save for half): the one rule of a save
        // against damage.
        let settled = crate::magic::evasion::settle(
            &mut t,
            sv.ability,
            sv.half && a.damage.is_some(),
            out.success == Some(true),
        );
        saved = settled.saved;
        share = settled.share;
        lines.extend(settled.lines);
    }
    let negated = saved && share == crate::magic::evasion::Share::Nothing;
    if !negated {
        if let Some(d) = &a.damage {
            let r = tabletop_rules::dice::roll(d, call.rng()?)?;
            call.record_roll(&r);
            let amount = share.of(u32::try_from(r.total.max(0)).unwrap_or(0));
            let mut changes = Vec::new();
            let res = crate::update::damage(
                &mut t,
                &[DamagePart::new(a.damage_type, amount)],
                false,
                &mut changes,
            )?;
            lines.push(format!(
                "{} ({}): {} {}{}",
                a.name,
                r.summary(),
                t.name,
                res.summary(),
                if share == crate::magic::evasion::Share::Half {
                    " (half)"
                } else {
                    ""
                }
            ));
            crate::concentration::after_damage(call, &mut t, res.total, &mut lines)?;
            crate::concentration::enforce(call, &mut t, &mut lines)?;
        }
        if let Some(h) = &a.healing {
            let r = tabletop_rules::dice::roll(h, call.rng()?)?;
            call.record_roll(&r);
            let amount = u32::try_from(r.total.max(0)).unwrap_or(0);
            let mut changes = Vec::new();
            let res = crate::update::heal(&mut t, amount, &mut changes)?;
            lines.push(format!(
                "{} ({}): {} {}",
                a.name,
                r.summary(),
                t.name,
                res.summary()
            ));
        }
        if let Some(c) = a.condition
            && !saved
            && !held
            && !t.dead
            && !t.effective().condition_immunities.contains_key(&c)
        {
            t.conditions.retain(|x| x.condition != c);
            t.conditions.push(ConditionEntry {
                by: None,
                ends_on: None,
                condition: c,
                level: None,
                source: a.name.clone(),
                // Prone lasts until the creature stands up; a held condition while held.
                duration: (!a.holds && c != Condition::Prone)
                    .then_some(Duration::Rounds { remaining: 1 }),
            });
            lines.push(if a.holds {
                format!(
                    "{} is {c} ({}) while held; breaking free is left to the DM (manage_condition remove)",
                    t.name, a.name
                )
            } else {
                format!("{} is {c} ({})", t.name, a.name)
            });
        }
    } else {
        lines.push(format!("{} is unaffected by {}", t.name, a.name));
    }
    crate::combat::put_sheet(call, &t)?;
    call.record_change("character", &t.id, lines.join("; "));
    if t.dead
        && let Some(line) = crate::combat::bodies::lay_body(e, &t.id, &t.name)?
    {
        lines.push(line);
    }
    let (round, turn) = (e.round, e.turn);
    if let Some(a) = e.auras.get_mut(index) {
        a.touched
            .retain(|(id, r, tn)| !(id == target_id || *r < round || (*r == round && *tn != turn)));
        a.touched.push((target_id.to_string(), round, turn));
    }
    Ok(lines)
}

/// Whether `a` touched `id` already this turn.
pub(crate) fn touched_now(e: &Encounter, a: &Aura, id: &str) -> bool {
    a.touched
        .iter()
        .any(|(t, r, tn)| t == id && *r == e.round && *tn == e.turn)
}

/// Whether aura `index` affects `target_id` and the target is inside it now.
pub(crate) fn touches(call: &Call<'_>, e: &Encounter, index: usize, target_id: &str) -> bool {
    candidates(call, e, index, target_id).unwrap_or(false)
}

/// Whether zone `index` affects `target_id` by side, wherever the creature stands now: a wall
/// it crossed on its way strikes it though it ends its move beyond (Prismatic Wall).
pub(crate) fn affects_creature(e: &Encounter, index: usize, target_id: &str) -> bool {
    let Some(a) = e.auras.get(index) else {
        return false;
    };
    let (Some(bearer), Some(target)) = (e.combatant(&a.bearer_id), e.combatant(target_id)) else {
        return false;
    };
    !target.removed && affects(a, bearer.side, target.side, a.bearer_id == target_id)
}

fn candidates(call: &Call<'_>, e: &Encounter, index: usize, target_id: &str) -> Result<bool> {
    let Some(a) = e.auras.get(index) else {
        return Ok(false);
    };
    let (Some(bearer), Some(target)) = (e.combatant(&a.bearer_id), e.combatant(target_id)) else {
        return Ok(false);
    };
    if target.removed {
        return Ok(false);
    }
    let _ = call;
    Ok(affects(a, bearer.side, target.side, a.bearer_id == target_id) && inside(e, a, target_id))
}

/// Start of `combatant_id`'s turn: auras it bears count down (and expire), auras whose
/// concentration ended vanish, and every aura it stands in applies to it.
pub fn at_turn_start(
    call: &mut Call<'_>,
    e: &mut Encounter,
    combatant_id: &str,
) -> Result<Vec<String>> {
    let mut lines = expire(call, e)?;
    let mut kept = Vec::new();
    let mut over = Vec::new();
    for mut a in std::mem::take(&mut e.auras) {
        if a.bearer_id == combatant_id
            && let Some(n) = a.rounds_left.as_mut()
        {
            *n = n.saturating_sub(1);
            if *n == 0 {
                lines.push(format!("aura {} ({}) ends: duration over", a.name, a.id));
                over.push(a);
                continue;
            }
        }
        kept.push(a);
    }
    e.auras = kept;
    for a in over {
        lines.extend(crate::combat::zones::ended(call, e, &a)?);
    }
    for i in 0..e.auras.len() {
        let a = &e.auras[i];
        if a.strikes() && a.trigger.at_start() && candidates(call, e, i, combatant_id)? {
            lines.extend(apply(call, e, i, combatant_id)?);
        }
    }
    Ok(lines)
}

/// After `combatant_id` moved: every aura it is now inside that has not touched it this turn
/// applies (entering an aura for the first time on a turn).
pub fn on_enter(call: &mut Call<'_>, e: &mut Encounter, combatant_id: &str) -> Result<Vec<String>> {
    let mut lines = expire(call, e)?;
    for i in 0..e.auras.len() {
        let a = &e.auras[i];
        // Zones fixed on the map strike along the path (`zones::crossed`).
        let fresh = a.squares.is_empty() && a.strikes() && !touched_now(e, a, combatant_id);
        if fresh && candidates(call, e, i, combatant_id)? {
            lines.extend(apply(call, e, i, combatant_id)?);
        }
    }
    Ok(lines)
}

/// Creates an aura; a concentration spell is begun on the bearer (ending another).
pub fn create(call: &mut Call<'_>, e: &mut Encounter, n: NewAura) -> Result<(Aura, Vec<String>)> {
    let name = n.name.trim().to_string();
    if name.is_empty() || name.chars().count() > 80 {
        return Err(EngineError::invalid(
            "name",
            "give the aura a name of 1–80 characters",
        ));
    }
    if !(5..=300).contains(&n.radius_ft) {
        return Err(EngineError::invalid(
            "radius",
            format!("{} ft is out of range; a radius is 5–300 ft", n.radius_ft),
        ));
    }
    if n.damage.is_none() && n.healing.is_none() && n.condition.is_none() {
        return Err(EngineError::invalid(
            "damage",
            "say what the aura does: damage (dice and damageType), healing (dice) or condition",
        ));
    }
    for (field, d) in [("damage", &n.damage), ("healing", &n.healing)] {
        if let Some(d) = d {
            tabletop_rules::dice::parse(d).map_err(|err| {
                EngineError::invalid(
                    field,
                    format!("'{d}' is not dice notation ({err}); e.g. \"3d8\""),
                )
            })?;
        }
    }
    if let Some(s) = n.save
        && !(1..=40).contains(&s.dc)
    {
        return Err(EngineError::invalid(
            "saveDC",
            format!("{} is out of range; a DC is 1–40", s.dc),
        ));
    }
    if n.rounds
        .is_some_and(|r| !(1..=crate::model::effects::MAX_ROUNDS).contains(&r))
    {
        return Err(EngineError::invalid(
            "rounds",
            "give 1–14400 rounds, or none for until removed",
        ));
    }
    let bearer = crate::combat::find_combatant(
        e,
        n.bearer.id.as_deref(),
        n.bearer.name.as_deref(),
        "characterId",
    )?
    .clone();
    let mut lines = Vec::new();
    if let Some(spell) = &n.concentration {
        let mut s = crate::combat::sheet(call, &bearer.character_id)?;
        crate::concentration::begin(call, &mut s, spell, &mut lines)?;
        crate::combat::put_sheet(call, &s)?;
    }
    let next = e
        .auras
        .iter()
        .filter_map(|a| a.id.strip_prefix("au").and_then(|x| x.parse::<u32>().ok()))
        .max()
        .unwrap_or(0)
        + 1;
    let a = Aura {
        id: format!("au{next}"),
        name,
        bearer_id: bearer.character_id.clone(),
        radius_ft: n.radius_ft,
        damage: n.damage,
        damage_type: n.damage_type,
        healing: n.healing,
        condition: n.condition,
        save: n.save,
        affects: n.affects,
        rounds_left: n.rounds,
        concentration: n.concentration,
        touched: Vec::new(),
        halves_speed: false,
        squares: Vec::new(),
        origin: None,
        trigger: Default::default(),
        holds: false,
        per_5ft: None,
        moves_ft: None,
        ground: Default::default(),
        ward: None,
    };
    lines.push(format!(
        "aura {} ({}) surrounds {} ({} ft)",
        a.name, a.id, bearer.name, a.radius_ft
    ));
    e.auras.push(a.clone());
    // Concentration begun may have ended an aura held by the old spell.
    lines.extend(expire(call, e)?);
    Ok((a, lines))
}

/// Ids of the combatants inside aura `index` that it affects.
pub fn inside_now(call: &Call<'_>, e: &Encounter, index: usize) -> Result<Vec<String>> {
    let mut v = Vec::new();
    for c in &e.order {
        if candidates(call, e, index, &c.character_id)? {
            v.push(c.character_id.clone());
        }
    }
    Ok(v)
}

/// A `manage_aura` operation.
#[derive(Debug, Clone)]
pub enum AuraOp {
    /// Create an aura.
    Create(NewAura),
    /// Apply now: one aura (or all) to one combatant (or everyone inside).
    Process {
        /// Aura id or name (default: every aura).
        aura: Option<String>,
        /// Only this combatant.
        target: crate::combat::actions::Who,
    },
    /// Remove one aura, or every aura a combatant bears.
    Remove {
        /// Aura id or name.
        aura: Option<String>,
        /// Every aura of this bearer.
        bearer: crate::combat::actions::Who,
    },
    /// List auras (those affecting one combatant, when given).
    List {
        /// Only auras this combatant stands in and is affected by.
        target: crate::combat::actions::Who,
    },
}

/// What `manage_aura` answers.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AuraOutcome {
    /// Encounter id (absent when none is active).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub encounter_id: Option<String>,
    /// The auras now (or those listed).
    pub auras: Vec<Aura>,
    /// What happened.
    pub lines: Vec<String>,
}

fn find_aura(e: &Encounter, key: &str) -> Result<usize> {
    let k = name_key(key);
    e.auras
        .iter()
        .position(|a| a.id == key.trim() || name_key(&a.name) == k)
        .ok_or_else(|| EngineError::NotFound {
            kind: "aura",
            given: key.to_string(),
            suggestions: e
                .auras
                .iter()
                .map(|a| format!("{} ({})", a.name, a.id))
                .collect(),
        })
}

/// Runs one `manage_aura` operation on the encounter (default: the active one).
pub fn manage_aura(
    call: &mut Call<'_>,
    encounter_id: Option<&str>,
    op: AuraOp,
) -> Result<AuraOutcome> {
    if let AuraOp::List { target } = &op
        && encounter_id.is_none()
        && call
            .tx_ref()
            .list_encounters(call.campaign(), true)?
            .is_empty()
    {
        let _ = target;
        return Ok(AuraOutcome {
            encounter_id: None,
            auras: Vec::new(),
            lines: vec!["no encounter is active, so no auras".into()],
        });
    }
    let named = match &op {
        AuraOp::Create(n) => n.bearer.clone(),
        AuraOp::Process { target, .. } | AuraOp::List { target } => target.clone(),
        AuraOp::Remove { bearer, .. } => bearer.clone(),
    };
    let mut e = crate::combat::load_for(call, encounter_id, &[&named])?;
    let mut lines = expire(call, &mut e)?;
    let mut shown = None;
    match op {
        AuraOp::Create(n) => {
            let (_, l) = create(call, &mut e, n)?;
            lines.extend(l);
        }
        AuraOp::Process { aura, target } => {
            let idx: Vec<usize> = match aura {
                Some(k) => vec![find_aura(&e, &k)?],
                None => (0..e.auras.len()).collect(),
            };
            let only = if target.is_empty() {
                None
            } else {
                Some(
                    crate::combat::find_combatant(
                        &e,
                        target.id.as_deref(),
                        target.name.as_deref(),
                        "targetId",
                    )?
                    .character_id
                    .clone(),
                )
            };
            for i in idx {
                let ids = match &only {
                    Some(id) => {
                        if candidates(call, &e, i, id)? {
                            vec![id.clone()]
                        } else {
                            lines.push(format!(
                                "{} is not inside {} or not affected by it",
                                e.combatant(id).map_or(id.as_str(), |c| c.name.as_str()),
                                e.auras[i].name
                            ));
                            Vec::new()
                        }
                    }
                    None => inside_now(call, &e, i)?,
                };
                for id in ids {
                    lines.extend(apply(call, &mut e, i, &id)?);
                }
            }
        }
        AuraOp::Remove { aura, bearer } => {
            if let Some(k) = aura {
                let i = find_aura(&e, &k)?;
                let a = e.auras.remove(i);
                lines.push(format!("aura {} ({}) removed", a.name, a.id));
                lines.extend(crate::combat::zones::ended(call, &mut e, &a)?);
            } else if !bearer.is_empty() {
                let id = crate::combat::find_combatant(
                    &e,
                    bearer.id.as_deref(),
                    bearer.name.as_deref(),
                    "characterId",
                )?
                .character_id
                .clone();
                let (gone, kept): (Vec<Aura>, Vec<Aura>) = std::mem::take(&mut e.auras)
                    .into_iter()
                    .partition(|a| a.bearer_id == id);
                e.auras = kept;
                lines.push(format!("{} aura(s) removed", gone.len()));
                for a in &gone {
                    lines.extend(crate::combat::zones::ended(call, &mut e, a)?);
                }
            } else {
                return Err(EngineError::invalid(
                    "auraId",
                    "say which aura to remove (auraId) or whose (characterId/characterName)",
                ));
            }
        }
        AuraOp::List { target } => {
            if !target.is_empty() {
                let id = crate::combat::find_combatant(
                    &e,
                    target.id.as_deref(),
                    target.name.as_deref(),
                    "targetId",
                )?
                .character_id
                .clone();
                let mut v = Vec::new();
                for i in 0..e.auras.len() {
                    if candidates(call, &e, i, &id)? {
                        v.push(e.auras[i].clone());
                    }
                }
                shown = Some(v);
            }
        }
    }
    crate::combat::save(call, &e)?;
    if !lines.is_empty() {
        let id = e.id.clone();
        call.record_change("encounter", &id, lines.join("; "));
    }
    Ok(AuraOutcome {
        encounter_id: Some(e.id.clone()),
        auras: shown.unwrap_or_else(|| e.auras.clone()),
        lines,
    })
}
