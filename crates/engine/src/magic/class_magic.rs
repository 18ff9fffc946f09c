//! Class rules that change a casting (issue 17): the sorcerer's Metamagic (checked against the
//! options the build chose, sorcery points spent), Elemental Affinity (+CHA to a damage roll of
//! the dragon ancestor's type), and the Life domain's healing (Disciple of Life, Supreme
//! Healing, Blessed Healer).

use tabletop_rules::Ability;
use tabletop_rules::DieRoller;
use tabletop_rules::dice::DiceRoll;

use super::plan::MetamagicPlan;
use crate::catalog::caster_rules::{CasterRule, Metamagic};
use crate::class_features::{find, has, rules, sorcery_points, spend_points};
use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::model::character::Character;
use crate::model::spell::SpellDef;

/// The Metamagic options a caster applies to one casting, checked, and what they cost.
#[derive(Debug, Clone, Default)]
pub struct Chosen {
    /// The options.
    pub options: Vec<Metamagic>,
    /// Sorcery points in all.
    pub cost: u32,
}

impl Chosen {
    /// Whether `m` is among them.
    pub fn has(&self, m: Metamagic) -> bool {
        self.options.contains(&m)
    }
}

/// The options `c` knows.
pub fn known(c: &Character) -> Vec<Metamagic> {
    rules(c)
        .iter()
        .filter_map(|r| match r.rule {
            CasterRule::Metamagic { option } => Some(option),
            _ => None,
        })
        .collect()
}

/// Checks `asked` for `def` cast at `slot` by `c` (known options, one besides Empowered, what
/// each needs of the spell, enough sorcery points); spends nothing.
pub fn check(c: &Character, def: &SpellDef, slot: u8, asked: &[Metamagic]) -> Result<Chosen> {
    let mut out = Chosen::default();
    if asked.is_empty() {
        return Ok(out);
    }
    let knows = known(c);
    for m in asked {
        if out.options.contains(m) {
            continue;
        }
        if !knows.contains(m) {
            let list: Vec<&str> = knows.iter().map(|k| k.name()).collect();
            return Err(EngineError::Rule(format!(
                "{} does not know {} (Metamagic known: {})",
                c.name,
                m.name(),
                if list.is_empty() {
                    "none".to_string()
                } else {
                    list.join(", ")
                }
            )));
        }
        let why = match m {
            Metamagic::Quickened
                if def.cost() != Some(crate::model::encounter::ActionCost::Action) =>
            {
                Some(format!(
                    "its casting time is {}, not 1 action",
                    def.casting_time
                ))
            }
            Metamagic::Twinned
                if def.area.is_some()
                    || def.self_range()
                    || def.per_projectile()
                    || def.more_than_one_target(slot)
                    || def
                        .max_targets(slot, c.cantrip_level())
                        .is_some_and(|n| n != 1) =>
            {
                Some(format!(
                    "{} (it needs a spell that targets only one creature and whose range is not Self)",
                    if def.area.is_some() {
                        "it fills an area".to_string()
                    } else if def.self_range() {
                        "its range is Self".to_string()
                    } else {
                        format!("it can target more than one creature at level {slot}")
                    }
                ))
            }
            Metamagic::Careful | Metamagic::Heightened if def.save.is_none() => {
                Some("it forces no saving throw".into())
            }
            Metamagic::Empowered if def.damage_dice(slot, c.cantrip_level(), 0).is_none() => {
                Some("it rolls no damage".into())
            }
            Metamagic::Distant if def.self_range() || def.range_ft().is_none() => {
                Some(format!("its range is {}", def.range))
            }
            Metamagic::Extended if def.duration_rounds().is_none_or(|r| r < 10) => {
                Some(format!("its duration is {}", def.duration))
            }
            _ => None,
        };
        if let Some(why) = why {
            return Err(EngineError::Rule(format!(
                "{} cannot apply to {}: {why}",
                m.name(),
                def.name
            )));
        }
        out.options.push(*m);
        out.cost += m.cost(slot);
    }
    let besides: Vec<&str> = out
        .options
        .iter()
        .filter(|m| **m != Metamagic::Empowered)
        .map(|m| m.name())
        .collect();
    if besides.len() > 1 {
        return Err(EngineError::Rule(format!(
            "only one Metamagic option per spell (Empowered Spell aside): {}",
            besides.join(", ")
        )));
    }
    let left = sorcery_points(c).map_or(0, |p| p.0);
    if left < out.cost {
        return Err(EngineError::Rule(format!(
            "{} costs {} sorcery point(s); {} has {left}",
            out.options
                .iter()
                .map(|m| m.name())
                .collect::<Vec<_>>()
                .join(" + "),
            out.cost,
            c.name
        )));
    }
    Ok(out)
}

/// Spends the points of `chosen` and changes `def` as Distant and Extended say; the line.
pub fn apply(c: &mut Character, def: &mut SpellDef, chosen: &Chosen) -> Result<Option<String>> {
    if chosen.options.is_empty() {
        return Ok(None);
    }
    let names: Vec<&str> = chosen.options.iter().map(|m| m.name()).collect();
    let left = spend_points(c, chosen.cost, &names.join(" + "))?;
    let mut what = Vec::new();
    if chosen.has(Metamagic::Distant) {
        let to = match def.range_ft() {
            Some(5) if def.range.to_ascii_lowercase().starts_with("touch") => 30,
            Some(r) => r.saturating_mul(2),
            None => 0,
        };
        what.push(format!("range {} → {to} feet", def.range));
        def.range = format!("{to} feet");
    }
    if chosen.has(Metamagic::Extended) {
        let before = def.duration.clone();
        def.duration = doubled(&def.duration);
        what.push(format!("duration {before} → {}", def.duration));
    }
    if chosen.has(Metamagic::Subtle) {
        what.push(
            "no verbal or somatic components (it cannot be seen cast: no Counterspell)".into(),
        );
        def.components.retain(|k| k != "V" && k != "S");
    }
    if chosen.has(Metamagic::Quickened) {
        what.push("cast with a bonus action".into());
    }
    if chosen.has(Metamagic::Twinned) {
        what.push("a second creature is targeted".into());
    }
    Ok(Some(format!(
        "{}: {} sorcery point(s) spent ({left} left){}",
        names.join(" + "),
        chosen.cost,
        if what.is_empty() {
            String::new()
        } else {
            format!("; {}", what.join("; "))
        }
    )))
}

/// "Up to 1 minute" → "Up to 2 minutes"; "8 hours" → "16 hours"; at most 24 hours.
fn doubled(duration: &str) -> String {
    let lower = duration.to_ascii_lowercase();
    let Some(n) = lower
        .split(|ch: char| !ch.is_ascii_digit())
        .find(|p| !p.is_empty())
        .and_then(|p| p.parse::<u32>().ok())
    else {
        return duration.to_string();
    };
    let unit = ["round", "minute", "hour", "day"]
        .into_iter()
        .find(|u| lower.contains(u))
        .unwrap_or("minute");
    let (mut m, mut unit) = (n.saturating_mul(2), unit);
    if unit == "hour" && m > 24 || unit == "day" {
        (m, unit) = (24, "hour");
    }
    let prefix = if lower.starts_with("up to") {
        "Up to "
    } else {
        ""
    };
    format!("{prefix}{m} {unit}{}", if m == 1 { "" } else { "s" })
}

/// What `resolve` applies for the options of `asked` (checked before).
pub fn plan(c: &Character, asked: &[Metamagic]) -> MetamagicPlan {
    let cha = c.effective().modifier(Ability::Charisma).max(1);
    let cha = u32::try_from(cha).unwrap_or(1);
    MetamagicPlan {
        heightened: asked.contains(&Metamagic::Heightened),
        careful: if asked.contains(&Metamagic::Careful) {
            cha
        } else {
            0
        },
        empowered: if asked.contains(&Metamagic::Empowered) {
            cha
        } else {
            0
        },
        twinned: asked.contains(&Metamagic::Twinned),
    }
}

/// Empowered Spell: rerolls up to `n` of `r`'s damage dice that rolled below their average,
/// lowest first, keeping the new faces. The line, when any die was rerolled.
pub fn empower(call: &mut Call<'_>, r: &mut DiceRoll, n: u32) -> Result<Option<String>> {
    if n == 0 {
        return Ok(None);
    }
    let mut low: Vec<(usize, usize, u32)> = Vec::new();
    for (ti, t) in r.terms.iter().enumerate() {
        if t.op == Some(tabletop_rules::dice::TermOp::Sub) {
            continue;
        }
        for (di, d) in t.dice.iter().enumerate() {
            if d.kept && d.value * 2 < d.faces + 1 {
                low.push((ti, di, d.value));
            }
        }
    }
    low.sort_by_key(|x| x.2);
    low.truncate(usize::try_from(n).unwrap_or(usize::MAX));
    if low.is_empty() {
        return Ok(None);
    }
    let before = r.total;
    let mut swaps = Vec::new();
    for (ti, di, old) in low {
        let faces = r.terms[ti].dice[di].faces;
        let new = call.rng()?.roll_die(faces);
        let d = &mut r.terms[ti].dice[di];
        d.replaced.push(old);
        d.value = new;
        d.rerolled = true;
        r.terms[ti].value += i64::from(new) - i64::from(old);
        r.total += i64::from(new) - i64::from(old);
        swaps.push(format!("d{faces} {old} → {new}"));
    }
    let delta = r.total - before;
    if r.by_type.len() == 1
        && let Some(t) = r.by_type.values_mut().next()
    {
        *t += delta;
    }
    Ok(Some(format!(
        "Empowered Spell rerolls {}: damage {before} → {}",
        swaps.join(", "),
        r.total
    )))
}

/// Elemental Affinity: `damage` with the caster's CHA modifier added when the spell's type is
/// its dragon ancestor's (one roll: not for darts or rays).
pub fn affinity(
    c: &Character,
    def: &SpellDef,
    damage: Option<String>,
    lines: &mut Vec<String>,
) -> Option<String> {
    let d = damage?;
    if !has(c, CasterRule::ElementalAffinity) || def.per_projectile() {
        return Some(d);
    }
    let Some((ty, _)) = find(c, |r| match r {
        CasterRule::DraconicAncestry { damage } => Some(*damage),
        _ => None,
    }) else {
        return Some(d);
    };
    if def.damage_type != Some(ty) {
        return Some(d);
    }
    let cha = c.effective().modifier(Ability::Charisma);
    if cha <= 0 {
        return Some(d);
    }
    lines.push(format!("Elemental Affinity ({ty}): +{cha} damage (CHA)"));
    Some(format!("{d}+{cha}"))
}

/// The Life domain on a healing spell cast at `slot`: Supreme Healing makes the dice their
/// maximum, Disciple of Life adds 2 + the slot level (1st level or higher).
pub fn healing(
    c: &Character,
    slot: u8,
    heal: Option<String>,
    lines: &mut Vec<String>,
) -> Result<Option<String>> {
    let Some(mut h) = heal else {
        return Ok(None);
    };
    if has(c, CasterRule::SupremeHealing) {
        let max = crate::rolls::caller_amount("healing", &h)?.max_total();
        lines.push(format!("Supreme Healing: {h} heals its maximum, {max}"));
        h = max.to_string();
    }
    if slot >= 1 && has(c, CasterRule::DiscipleOfLife) {
        let more = 2 + u32::from(slot);
        lines.push(format!("Disciple of Life: +{more} (2 + spell level)"));
        h = format!("{h}+{more}");
    }
    Ok(Some(h))
}

/// Blessed Healer: after a healing spell of 1st level or higher healed another creature, the
/// caster regains 2 + the slot level.
pub fn blessed_healer(c: &mut Character, slot: u8, healed_other: bool) -> Option<String> {
    if slot == 0 || !healed_other || !has(c, CasterRule::BlessedHealer) || c.hp == 0 {
        return None;
    }
    let max = u32::try_from(c.effective().max_hp.value.max(1)).unwrap_or(1);
    let before = c.hp;
    c.hp = (c.hp + 2 + u32::from(slot)).min(max);
    Some(format!(
        "Blessed Healer: {} regains {} HP ({before} → {})",
        c.name,
        c.hp - before,
        c.hp
    ))
}

/// What one resolution tracks for the class rules: Heightened Spell's one disadvantage, the
/// creatures Careful Spell protects, whether another creature was healed (Blessed Healer).
#[derive(Debug, Default)]
pub struct Resolving {
    heightened: bool,
    careful: Vec<String>,
    healed_other: bool,
}

impl Resolving {
    /// For `plan` cast by `caster`: Careful Spell protects the caster's allies among the targets
    /// (in an encounter: its side; outside one: the first named), up to its CHA modifier.
    pub fn new(
        caster: &Character,
        plan: &super::plan::CastPlan,
        enc: Option<&crate::model::encounter::Encounter>,
    ) -> Self {
        let mut careful: Vec<String> = Vec::new();
        let n = usize::try_from(plan.metamagic.careful).unwrap_or(0);
        if n > 0 {
            let side = enc.and_then(|e| e.combatant(&caster.id)).map(|c| c.side);
            for id in &plan.targets {
                if careful.len() >= n || careful.contains(id) {
                    continue;
                }
                let ally = match (enc, side) {
                    (Some(e), Some(s)) => e
                        .combatant(id)
                        .is_some_and(|c| c.side == s || *id == caster.id),
                    _ => true,
                };
                if ally {
                    careful.push(id.clone());
                }
            }
        }
        Resolving {
            heightened: plan.metamagic.heightened,
            careful,
            healed_other: false,
        }
    }

    /// Heightened Spell: the first saving throw rolls with disadvantage.
    pub fn before_save(
        &mut self,
        req: tabletop_rules::d20::D20Request,
    ) -> tabletop_rules::d20::D20Request {
        if std::mem::take(&mut self.heightened) {
            req.disadvantage("Heightened Spell")
        } else {
            req
        }
    }

    /// Careful Spell: a protected creature's save succeeds whatever it rolled.
    pub fn after_save(&self, id: &str, out: &mut tabletop_rules::d20::D20Outcome) {
        if self.careful.iter().any(|c| c == id) && out.success != Some(true) {
            out.success = Some(true);
            let despite = if out.auto_fail.is_empty() {
                String::new()
            } else {
                format!(" despite {}", std::mem::take(&mut out.auto_fail).join(", "))
            };
            out.label = format!(
                "{} (Careful Spell: succeeds automatically{despite})",
                out.label
            );
        }
    }

    /// A target was healed.
    pub fn healed(&mut self, own: bool, amount: u32) {
        if !own && amount > 0 {
            self.healed_other = true;
        }
    }

    /// After every target: Blessed Healer.
    pub fn finish(&self, caster: &mut Character, slot: u8) -> Option<String> {
        blessed_healer(caster, slot, self.healed_other)
    }
}

/// Overchannel's necrotic backlash on the caster (ignores resistance and immunity).
pub(crate) fn overchannel_self(
    call: &mut Call<'_>,
    c: &mut Character,
    dice: &str,
) -> Result<String> {
    let r = tabletop_rules::dice::roll(dice, call.rng()?)?;
    call.record_roll(&r);
    let n = u32::try_from(r.total.max(0)).unwrap_or(0);
    let mut changes = Vec::new();
    let parts = [tabletop_rules::damage::DamagePart::new(None, n)];
    let before = c.hp;
    let d = crate::update::damage(c, &parts, false, &mut changes)?;
    Ok(format!(
        "Overchannel again before a long rest: {} takes {} necrotic ({}), ignoring resistance and immunity ({before} → {} HP)",
        c.name,
        d.total,
        r.summary(),
        c.hp
    ))
}
