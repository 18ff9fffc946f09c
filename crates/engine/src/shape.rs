//! Taking another form (Wild Shape, Polymorph, Animal Shapes, Shapechange, True Polymorph): an
//! SRD stat block read at run time becomes a [`Shape`] worn over the creature's own sheet, held
//! by an effect of the same name (its duration: hours for Wild Shape, the caster's
//! concentration for the spells). Reverting is by choice ([`revert`]), when the effect ends, or
//! when the form drops to 0 HP (`update::damage` carries the excess over).

use tabletop_rules::Size;
use tabletop_srd::Monster;

use crate::catalog::shapes::{CrCap, ShapeSpec, wild_shape_limits};
use crate::combat::actions::{ActionOutcome, Turn, Who};
use crate::concentration::ConcentrationLink;
use crate::effects::{ActiveEffect, Duration};
use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::character::Character;
use crate::model::names::name_key;
use crate::model::shape::Shape;
use crate::model::spell::SpellDef;

/// What a form may be.
#[derive(Debug, Clone, Default)]
pub struct Limits {
    /// The effect that holds the form ("Wild Shape", "Polymorph").
    pub source: String,
    /// Allowed creature types (empty: any).
    pub types: Vec<String>,
    /// Forbidden creature types.
    pub not_types: Vec<String>,
    /// The highest challenge rating.
    pub max_cr: f32,
    /// Forms with a swimming speed allowed.
    pub swim: bool,
    /// Forms with a flying speed allowed.
    pub fly: bool,
    /// The largest size.
    pub max_size: Option<Size>,
    /// The creature keeps its mind and proficiencies.
    pub keeps_mind: bool,
    /// No spellcasting in the form.
    pub no_spells: bool,
}

fn cr(c: f32) -> String {
    tabletop_srd::cr_text(c)
}

/// The form `given` (an SRD monster, fuzzy name) under `l`, or why it is not allowed.
pub fn form(call: &Call<'_>, given: &str, l: &Limits) -> Result<(Shape, Option<String>)> {
    let (m, note) = crate::monster::lookup(call, given, "creature")?;
    check(m, l)?;
    let mut ignored = Vec::new();
    let f = crate::monster::from_stat_block(m, &mut ignored);
    let Some(block) = f.stat_block else {
        return Err(EngineError::Rule(format!(
            "internal: {} has no stat block",
            m.name
        )));
    };
    Ok((
        Shape {
            form: m.name.clone(),
            source: l.source.clone(),
            hp: f.max_hp,
            max_hp: f.max_hp,
            armor_class: f.armor_class,
            armor_source: f.armor_source,
            speed: f.speed,
            size: f.size,
            abilities: f.abilities,
            keeps_mind: l.keeps_mind,
            proficiency_bonus: f.proficiency_bonus,
            save_proficiencies: f.save_proficiencies,
            skills: f.skills,
            resistances: f.resistances,
            immunities: f.immunities,
            vulnerabilities: f.vulnerabilities,
            condition_immunities: f.condition_immunities,
            block,
            no_spells: l.no_spells,
        },
        note,
    ))
}

fn check(m: &Monster, l: &Limits) -> Result<()> {
    let t = m.creature_type.to_lowercase();
    let refuse = |why: String| {
        Err(EngineError::Rule(format!(
            "{} can't take the form of {}: {why}",
            l.source, m.name
        )))
    };
    if !l.types.is_empty() && !l.types.iter().any(|x| t.contains(x.as_str())) {
        return refuse(format!("it is a {t}, not a {}", l.types.join(" or ")));
    }
    if let Some(x) = l.not_types.iter().find(|x| t.contains(x.as_str())) {
        return refuse(format!("it is a {x}"));
    }
    if m.challenge_rating > l.max_cr {
        return refuse(format!(
            "its challenge rating {} is above {}",
            cr(m.challenge_rating),
            cr(l.max_cr)
        ));
    }
    if !l.swim && m.speed.swim.is_some() {
        return refuse("it has a swimming speed, not allowed yet".into());
    }
    if !l.fly && m.speed.fly.is_some() {
        return refuse("it has a flying speed, not allowed yet".into());
    }
    if let Some(max) = l.max_size
        && m.size > max
    {
        return refuse(format!("it is {}, larger than {max}", m.size));
    }
    Ok(())
}

/// Puts `shape` on `c` with the effect that holds it (`duration`); a form already worn ends
/// first. Returns what happened.
pub fn assume(
    call: &mut Call<'_>,
    c: &mut Character,
    shape: Shape,
    duration: Duration,
) -> Result<Vec<String>> {
    let mut lines = Vec::new();
    if let Some(l) = c.revert_shape("it takes a new form") {
        lines.push(l);
    }
    c.effects
        .retain(|e| name_key(&e.name) != name_key(&shape.source));
    c.effects.push(ActiveEffect {
        id: call.new_id("ef")?,
        name: shape.source.clone(),
        source: Some(format!("{} form", shape.form)),
        modifiers: Vec::new(),
        duration,
        ends_on: None,
        ends_when_attacked: false,
        damaged_since_turn: false,
        grant: None,
    });
    lines.push(format!(
        "{} takes the form of a {} ({}): {} HP form on top of its own {}/{}, AC {}, speed {} ft{}, STR {} DEX {} CON {}{}; attacks: {}",
        c.name,
        shape.form,
        shape.source,
        shape.hp,
        c.hp,
        c.max_hp,
        shape.armor_class,
        shape.speed,
        shape
            .block
            .other_speeds
            .iter()
            .map(|(k, v)| format!(", {k} {v} ft"))
            .collect::<String>(),
        shape.abilities.get(tabletop_rules::Ability::Strength),
        shape.abilities.get(tabletop_rules::Ability::Dexterity),
        shape.abilities.get(tabletop_rules::Ability::Constitution),
        if shape.keeps_mind {
            " (its INT, WIS, CHA and proficiencies kept)"
        } else {
            " (every statistic the form's)"
        },
        shape
            .block
            .actions
            .iter()
            .map(|a| a.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    ));
    if shape.no_spells {
        lines.push("no spellcasting in this form".into());
    }
    c.shape = Some(shape);
    Ok(lines)
}

/// The druid levels of `c`.
fn druid_level(c: &Character) -> u32 {
    if let Some(b) = &c.build
        && let Some(k) = b.classes.iter().find(|k| name_key(&k.class) == "druid")
    {
        return k.level;
    }
    if c.class.as_deref().is_some_and(|k| name_key(k) == "druid") {
        return c.level;
    }
    0
}

fn has_feature(c: &Character, name: &str) -> bool {
    c.features.iter().any(|f| name_key(f) == name_key(name))
}

/// Wild Shape (`use_special_ability "Wild Shape"` with `creature`): a druid of 2nd level or
/// higher spends a use and becomes an SRD beast within the class table's limits for half its
/// druid level in hours. Without `creature` while in a form, it reverts.
pub fn wild_shape(
    call: &mut Call<'_>,
    turn: &mut Turn<'_>,
    a: &Character,
) -> Result<ActionOutcome> {
    let level = druid_level(a);
    let Some((max_cr, swim, fly)) = wild_shape_limits(level) else {
        return Err(EngineError::Rule(format!(
            "{} has no Wild Shape (druids gain it at 2nd level)",
            a.name
        )));
    };
    let Some(given) = turn
        .req
        .creature
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
    else {
        if a.active_shape().is_some() {
            return revert(call, turn, a);
        }
        return Err(EngineError::invalid(
            "creature",
            format!(
                "name the beast (creature: \"wolf\"): an SRD beast of challenge rating {} or lower{}{}",
                cr(max_cr),
                if swim { "" } else { ", no swimming speed" },
                if fly { "" } else { ", no flying speed" }
            ),
        ));
    };
    let limits = Limits {
        source: "Wild Shape".into(),
        types: vec!["beast".into()],
        max_cr,
        swim,
        fly,
        keeps_mind: true,
        // Beast Spells (18th level): spells with verbal and somatic components in any form.
        no_spells: !has_feature(a, "Beast Spells"),
        ..Default::default()
    };
    let (shape, note) = form(call, given, &limits)?;
    let mut me = a.clone();
    let mut lines: Vec<String> = note.into_iter().collect();
    // Archdruid (20th level): unlimited uses.
    if has_feature(&me, "Archdruid") {
        lines.push("Archdruid: Wild Shape uses are unlimited".into());
    } else {
        let Some(r) = me
            .resources
            .iter_mut()
            .find(|r| name_key(&r.name) == "wild shape")
        else {
            return Err(EngineError::Rule(format!(
                "{} has no Wild Shape resource (set one with update_character resources)",
                a.name
            )));
        };
        turn.rule(
            r.current >= 1,
            format!(
                "{} has no Wild Shape use left ({}/{}); uses return on a short or long rest",
                a.name, r.current, r.max
            ),
        )?;
        r.current = r.current.saturating_sub(1);
        lines.push(format!("Wild Shape: {}/{} uses left", r.current, r.max));
    }
    let hours = (level / 2).max(1);
    let form_name = shape.form.clone();
    lines.extend(assume(
        call,
        &mut me,
        shape,
        Duration::Rounds {
            remaining: hours.saturating_mul(600),
        },
    )?);
    lines.push(format!(
        "it lasts up to {hours} hour{} (reverting early is a bonus action: use_special_ability \"Revert\")",
        if hours == 1 { "" } else { "s" }
    ));
    crate::combat::put_sheet(call, &me)?;
    let headline = format!("{} uses Wild Shape and becomes a {form_name}.", a.name);
    call.record_change("character", &me.id, headline.clone());
    turn.actor = Some(me);
    Ok(ActionOutcome {
        headline,
        lines,
        ..Default::default()
    })
}

/// Reverting to the normal form by choice (`use_special_ability "Revert"`).
pub fn revert(call: &mut Call<'_>, turn: &mut Turn<'_>, a: &Character) -> Result<ActionOutcome> {
    let mut me = a.clone();
    let Some(line) = me.revert_shape("by choice") else {
        return Err(EngineError::Rule(format!(
            "{} is in its normal form; nothing to revert",
            a.name
        )));
    };
    crate::combat::put_sheet(call, &me)?;
    call.record_change("character", &me.id, line.clone());
    turn.actor = Some(me);
    Ok(ActionOutcome {
        headline: format!("{line}."),
        ..Default::default()
    })
}

/// The limits of a shape-changing spell on `target` cast by `caster`.
fn spell_limits(
    def: &SpellDef,
    spec: &ShapeSpec,
    caster: &Character,
    target: &Character,
) -> Limits {
    let target_cr = target
        .stat_block
        .as_ref()
        .map_or(target.level as f32, |b| b.challenge_rating);
    Limits {
        source: def.name.clone(),
        types: spec.types.clone(),
        not_types: spec.not_types.clone(),
        max_cr: match spec.max_cr {
            CrCap::Target => target_cr,
            CrCap::CasterLevel => caster.level as f32,
            CrCap::Fixed(c) => c,
        },
        swim: true,
        fly: true,
        max_size: spec.max_size,
        keeps_mind: spec.keeps_mind,
        no_spells: spec.no_spells,
    }
}

/// Casts a shape-changing spell (slot already spent) on `targets` (ids; the caster's own id for
/// itself): each unwilling target (`hostile`) makes the spell's save against `dc`; the rest take
/// the form `creature`, held by the caster's concentration. `caster` is the caller's to store.
#[allow(clippy::too_many_arguments)]
pub fn cast(
    call: &mut Call<'_>,
    caster: &mut Character,
    def: &SpellDef,
    spec: &ShapeSpec,
    targets: &[String],
    creature: Option<&str>,
    dc: i32,
    hostile: &dyn Fn(&Character) -> bool,
) -> Result<(String, Vec<String>)> {
    let Some(given) = creature.map(str::trim).filter(|s| !s.is_empty()) else {
        return Err(EngineError::invalid(
            "creature",
            format!(
                "name the form {} gives (creature: \"giant ape\"): an SRD {}",
                def.name,
                if spec.types.is_empty() {
                    "creature".to_string()
                } else {
                    spec.types.join(" or ")
                }
            ),
        ));
    };
    let ids: Vec<String> = if spec.self_only || targets.is_empty() {
        vec![caster.id.clone()]
    } else {
        let mut v = targets.to_vec();
        v.dedup();
        v
    };
    if spec.self_only && ids.iter().any(|i| *i != caster.id) {
        return Err(EngineError::invalid(
            "targetId",
            format!("{} changes only its caster", def.name),
        ));
    }
    let mut lines = Vec::new();
    if def.concentration {
        crate::concentration::begin(call, caster, &def.name, &mut lines)?;
    }
    let duration = if def.concentration {
        Duration::Concentration {
            caster_id: caster.id.clone(),
            spell: def.name.clone(),
        }
    } else {
        Duration::Rounds {
            remaining: def.duration_rounds().unwrap_or(600),
        }
    };
    let mut changed = Vec::new();
    for id in ids {
        let mut t = if id == caster.id {
            caster.clone()
        } else {
            crate::combat::sheet(call, &id)?
        };
        let limits = spell_limits(def, spec, caster, &t);
        if t.dead || t.hp == 0 {
            lines.push(format!("{} is at 0 HP; {} has no effect", t.name, def.name));
            continue;
        }
        // A shapechanger by its type ("humanoid (human, shapechanger)") or by its trait
        // (an imp, a quasit, every lycanthrope's form).
        if spec.no_shapechangers
            && (t.stat_block.as_ref().is_some_and(|b| {
                b.subtype
                    .as_deref()
                    .is_some_and(|s| s.to_lowercase().contains("shapechanger"))
            }) || crate::combat::traits::has_trait(&t, "Shapechanger"))
        {
            lines.push(format!(
                "{} is a shapechanger; {} has no effect",
                t.name, def.name
            ));
            continue;
        }
        let (shape, note) = form(call, given, &limits)?;
        lines.extend(note);
        if let Some(ability) = spec.save.filter(|_| id != caster.id && hostile(&t)) {
            let mut sreq =
                tabletop_rules::d20::D20Request::new(tabletop_rules::d20::D20Test::Save {
                    ability,
                })
                .dc(dc)
                .labelled(format!("{} save vs {}", ability.abbr(), def.name));
            if crate::combat::traits::magic_resistance(&t) {
                sreq = sreq.advantage("Magic Resistance");
            }
            let out = tabletop_rules::d20::roll_d20_test(&t.effective(), &sreq, call.rng()?);
            call.record_roll(&out);
            lines.push(format!("{} — {}", t.name, out.summary()));
            if out.success == Some(true) {
                lines.push(format!("{} resists {}", t.name, def.name));
                continue;
            }
        }
        lines.extend(assume(call, &mut t, shape, duration.clone())?);
        if def.concentration
            && let Some(conc) = caster.concentration.as_mut()
        {
            conc.add_link(ConcentrationLink::effect(&t.id, &def.name));
        }
        changed.push(t.name.clone());
        if id == caster.id {
            let conc = caster.concentration.clone();
            *caster = t;
            caster.concentration = conc;
        } else {
            crate::combat::put_sheet(call, &t)?;
        }
    }
    if changed.is_empty() && def.concentration {
        crate::concentration::end(call, caster, "no one took the form", &mut lines)?;
    }
    let headline = if changed.is_empty() {
        format!("{} casts {}: no one changes form.", caster.name, def.name)
    } else {
        format!(
            "{} casts {}: {} become{} a {given}.",
            caster.name,
            def.name,
            changed.join(", "),
            if changed.len() == 1 { "s" } else { "" }
        )
    };
    Ok((headline, lines))
}

/// A shape-changing spell in an encounter: the targets the request names (sides decide who is
/// unwilling), the creature it names.
pub fn cast_in_encounter(
    call: &mut Call<'_>,
    turn: &mut Turn<'_>,
    caster: &mut Character,
    def: &SpellDef,
    spec: &ShapeSpec,
) -> Result<ActionOutcome> {
    let req = turn.req;
    let mut named: Vec<&Who> = Vec::new();
    if !req.target.is_empty() {
        named.push(&req.target);
    }
    named.extend(req.targets.iter().filter(|w| !w.is_empty()));
    let mut ids = Vec::new();
    for w in named {
        let c = crate::combat::find_combatant(
            &turn.encounter,
            w.id.as_deref(),
            w.name.as_deref(),
            "targetId",
        )?
        .clone();
        if let Some(range) = def.range_ft() {
            let d = turn.encounter.map.creature_distance_ft(
                &caster.id,
                &c.character_id,
                crate::combat::actions::attack::METRIC,
            )?;
            turn.rule(
                d <= range,
                format!(
                    "{} is {d} ft from {}; {} has a range of {}",
                    c.name, caster.name, def.name, def.range
                ),
            )?;
        }
        ids.push(c.character_id.clone());
    }
    if ids.is_empty() && !spec.self_only && def.range != "Self" {
        return Err(EngineError::invalid(
            "targetId",
            format!(
                "say whom {} changes: targetId/targetName, or targets",
                def.name
            ),
        ));
    }
    let mine = turn
        .encounter
        .combatant(&caster.id)
        .map(|c| c.side)
        .unwrap_or(crate::model::encounter::Side::Neutral);
    let sides: Vec<(String, crate::model::encounter::Side)> = turn
        .encounter
        .order
        .iter()
        .map(|c| (c.character_id.clone(), c.side))
        .collect();
    let hostile = move |t: &Character| {
        sides
            .iter()
            .find(|(id, _)| *id == t.id)
            .is_some_and(|(_, s)| s.hostile_to(mine))
    };
    let dc = crate::magic::spellcasting::caster_numbers(call, caster)?.save_dc;
    let (headline, lines) = cast(
        call,
        caster,
        def,
        spec,
        &ids,
        req.creature.as_deref(),
        dc,
        &hostile,
    )?;
    Ok(ActionOutcome {
        headline,
        lines,
        ..Default::default()
    })
}
