//! Class-feature rules that change a d20 roll after it is rolled (catalog
//! [`ClassRule`](crate::catalog::class_rules::ClassRule)): Reliable Talent (a d20 of 9 or lower
//! counts as 10 on a check with proficiency) and Indomitable Might (a Strength check's total is
//! at least the Strength score). Every place a check is rolled from a sheet passes its outcome
//! here; the outcome's total, success and modifiers say what changed.

use tabletop_rules::abilities::ProficiencyLevel;
use tabletop_rules::d20::{D20Outcome, D20Test};
use tabletop_rules::stats::Contribution;
use tabletop_rules::{Ability, Skill};

use crate::catalog::class_rules::ClassRule;
use crate::model::character::Character;

/// Whether `c` is proficient in `skill` (expertise included).
fn proficient(c: &Character, skill: Skill) -> bool {
    let from_derived = c
        .derived
        .as_ref()
        .and_then(|d| d.skills.get(&skill))
        .map(|s| s.value);
    let level = from_derived.or_else(|| c.skills.get(&skill).copied());
    matches!(
        level,
        Some(ProficiencyLevel::Proficient | ProficiencyLevel::Expertise)
    )
}

fn raise(out: &mut D20Outcome, source: String, by: i32) {
    if by <= 0 {
        return;
    }
    let Some(total) = out.total else { return };
    out.modifiers.push(Contribution::new(source, by));
    out.modifier_total += by;
    out.total = Some(total + by);
    if let Some(dc) = out.dc
        && out.auto_fail.is_empty()
    {
        out.success = Some(total + by >= dc);
    }
}

/// Applies `c`'s check rules to a rolled ability or skill check; the lines say what changed.
pub fn adjust_check(c: &Character, out: &mut D20Outcome) -> Vec<String> {
    let mut lines = Vec::new();
    let (ability, skill) = match out.test {
        D20Test::SkillCheck { skill } => (skill.ability(), Some(skill)),
        D20Test::AbilityCheck { ability } => (ability, None),
        _ => return lines,
    };
    if out.total.is_none() || !out.auto_fail.is_empty() {
        return lines;
    }
    if let (Some(s), Some(kept)) = (skill, out.kept)
        && kept < 10
        && c.has_rule(ClassRule::ReliableTalent)
        && proficient(c, s)
    {
        let by = 10 - i32::try_from(kept).unwrap_or(10);
        raise(
            out,
            format!("Reliable Talent (d20 {kept} counts as 10)"),
            by,
        );
        out.label
            .push_str(&format!(" (Reliable Talent: d20 {kept} counts as 10)"));
        lines.push(format!(
            "{}'s Reliable Talent: the d20 of {kept} counts as 10 (total {}).",
            c.name,
            out.total.unwrap_or(0)
        ));
    }
    lines.extend(crate::magic::wards6::check_floor(c, out));
    if ability == Ability::Strength && c.has_rule(ClassRule::IndomitableMight) {
        let score = i32::from(c.effective().score(Ability::Strength));
        let total = out.total.unwrap_or(score);
        if total < score {
            raise(
                out,
                format!("Indomitable Might (total becomes the STR score {score})"),
                score - total,
            );
            out.label.push_str(&format!(
                " (Indomitable Might: total {total} becomes the STR score {score})"
            ));
            lines.push(format!(
                "{}'s Indomitable Might: the total {total} becomes its Strength score {score}.",
                c.name
            ));
        }
    }
    lines
}
