//! The per-target plumbing every grant family shares: which creatures a spell cannot touch by
//! type ([`unaffected`]), loading and storing targets (the in-memory caster when it is one), and
//! the one loop a grant runs over its targets ([`each_target`]).

use super::plan::{CastPlan, CastReport, TargetResult};
use crate::character::Character;
use crate::engine::Call;
use crate::error::Result;
use crate::model::spell::SpellDef;

/// A creature's type, lowercase ("humanoid", "undead"): its stat block's, else humanoid (every
/// SRD race is); `None` for improvised stat blocks of unknown type.
pub fn creature_type(c: &Character) -> Option<String> {
    match &c.stat_block {
        Some(sb) => {
            let t = sb.creature_type.to_lowercase();
            (t != "custom" && !t.is_empty()).then_some(t)
        }
        None => Some("humanoid".into()),
    }
}

/// Why `target` is untouched by `spell` because of its creature type, if it is.
pub fn unaffected(spell: &SpellDef, target: &Character) -> Option<String> {
    let e = spell.mechanics()?;
    let t = creature_type(target)?;
    if !e.only_types.is_empty() && !e.only_types.iter().any(|o| t.starts_with(o.as_str())) {
        return Some(format!(
            "{} is unaffected: {} affects only {} ({} is {})",
            target.name,
            spell.name,
            plural(&e.only_types),
            target.name,
            article(&t)
        ));
    }
    if e.no_effect_on.iter().any(|o| t.starts_with(o.as_str())) {
        return Some(format!(
            "{} is unaffected: {} has no effect on {} ({} is {})",
            target.name,
            spell.name,
            plural(&e.no_effect_on),
            target.name,
            article(&t)
        ));
    }
    None
}

fn plural(types: &[String]) -> String {
    types
        .iter()
        .map(|t| format!("{t}s"))
        .collect::<Vec<_>>()
        .join(" or ")
}

fn article(t: &str) -> String {
    if t.starts_with(['a', 'e', 'i', 'o', 'u']) {
        format!("an {t}")
    } else {
        format!("a {t}")
    }
}

pub(super) fn load(call: &Call<'_>, caster: &Character, id: &str) -> Result<Character> {
    if id == caster.id {
        Ok(caster.clone())
    } else {
        crate::combat::sheet(call, id)
    }
}

pub(super) fn store(
    call: &mut Call<'_>,
    caster: &mut Character,
    t: Character,
    phrase: &str,
) -> Result<()> {
    if t.id == caster.id {
        *caster = t;
    } else {
        crate::combat::put_sheet(call, &t)?;
        call.record_change("character", &t.id, phrase.to_string());
    }
    Ok(())
}

pub(super) fn unique(ids: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for id in ids {
        if !out.contains(id) {
            out.push(id.clone());
        }
    }
    out
}

/// The loop every per-target grant shares: each distinct target is loaded (the in-memory caster
/// when it targets itself), `f` changes it and says what happened (and whether it changed), the
/// phrase and target result are reported and a changed target is stored. `f` gets the call, the
/// caster, the target, its result and lines to report before the phrase.
pub(super) fn each_target<F>(
    call: &mut Call<'_>,
    caster: &mut Character,
    plan: &CastPlan,
    report: &mut CastReport,
    mut f: F,
) -> Result<()>
where
    F: FnMut(
        &mut Call<'_>,
        &mut Character,
        &mut Character,
        &mut TargetResult,
        &mut Vec<String>,
    ) -> Result<(String, bool)>,
{
    for id in unique(&plan.targets) {
        let mut t = load(call, caster, &id)?;
        let mut tr = TargetResult {
            id: t.id.clone(),
            name: t.name.clone(),
            ..Default::default()
        };
        let mut lines = Vec::new();
        let (phrase, changed) = f(call, caster, &mut t, &mut tr, &mut lines)?;
        report.lines.append(&mut lines);
        report.lines.push(phrase.clone());
        tr.hp_after = t.hp;
        tr.phrase = phrase.clone();
        report.targets.push(tr);
        if changed {
            store(call, caster, t, &phrase)?;
        }
    }
    Ok(())
}

pub(super) fn push_target(report: &mut CastReport, t: &Character, phrase: String) -> TargetResult {
    let tr = TargetResult {
        id: t.id.clone(),
        name: t.name.clone(),
        hp_after: t.hp,
        phrase: phrase.clone(),
        ..Default::default()
    };
    report.lines.push(phrase);
    tr
}
