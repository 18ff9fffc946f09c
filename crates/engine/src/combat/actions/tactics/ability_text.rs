//! Reading stat-block rules text: usage limits ("Recharge 5–6", "3/Day", "Costs 2 Actions"),
//! areas, save DCs, conditions, durations, "half as much damage" and the check a text asks for.
//! Pure functions of the text; [`super::special`] acts on what they find.

pub(crate) use crate::catalog::monsters::{conditions_in, dc_in};
use tabletop_grid::Shape;
#[cfg(test)]
use tabletop_rules::Ability;
use tabletop_rules::Skill;

use crate::model::character::StatDc;
use crate::model::effects::Duration;

/// The X of "Recharge X–6" ("Recharge 6" → 6).
pub(crate) fn recharge_min(r: &str) -> Option<u32> {
    let l = r.to_lowercase();
    let rest = l.strip_prefix("recharge ")?;
    rest.split(|c: char| !c.is_ascii_digit())
        .find(|p| !p.is_empty())?
        .parse()
        .ok()
}

/// The N of "N/Day".
pub(crate) fn per_day(r: &str) -> Option<usize> {
    let l = r.to_lowercase();
    let i = l.find("/day")?;
    l[..i].trim().rsplit(' ').next()?.parse().ok()
}
/// An area read from rules text.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum TextArea {
    /// A shape with a point of origin.
    Shape(Shape),
    /// Each creature within this many feet of the user.
    Within(u32),
}

/// Reads "60-foot cone", "90-foot line that is 10 feet wide", "20-foot-radius sphere",
/// "within 10 ft. of the dragon" from rules text.
pub(crate) fn area_in(text: &str) -> Option<TextArea> {
    let l = text.to_lowercase().replace(['-', ','], " ");
    let words: Vec<&str> = l.split_whitespace().collect();
    for (i, w) in words.iter().enumerate() {
        let Ok(n) = w.trim_end_matches('.').parse::<i32>() else {
            continue;
        };
        let unit = words.get(i + 1).map(|u| u.trim_end_matches('.'));
        if !matches!(unit, Some("foot" | "feet" | "ft")) {
            if i > 0 && words[i - 1] == "within" {
                return u32::try_from(n).ok().map(TextArea::Within);
            }
            continue;
        }
        if i > 0 && words[i - 1] == "within" {
            return u32::try_from(n).ok().map(TextArea::Within);
        }
        let next: Vec<&str> = words.iter().skip(i + 2).take(2).copied().collect();
        let has = |s: &str| next.iter().any(|x| x.trim_end_matches('.') == s);
        let shape = if has("cone") {
            Shape::Cone { length_ft: n }
        } else if has("line") {
            let width = words
                .windows(3)
                .skip(i + 2)
                .find(|w| matches!(w[1], "feet" | "foot" | "ft") && w[2].starts_with("wide"))
                .and_then(|w| w[0].parse().ok())
                .unwrap_or(5);
            Shape::Line {
                length_ft: n,
                width_ft: width,
            }
        } else if has("cube") {
            Shape::Cube { size_ft: n }
        } else if has("radius") || has("sphere") {
            Shape::Sphere { radius_ft: n }
        } else if has("cylinder") {
            Shape::Cylinder {
                radius_ft: n,
                height_ft: n,
            }
        } else {
            continue;
        };
        return Some(TextArea::Shape(shape));
    }
    None
}

/// How long a condition from the text lasts: save-ends when the text repeats the save at the
/// end of each turn, 10 rounds for "1 minute", else until removed.
pub(crate) fn duration_in(text: &str, dc: &StatDc) -> Option<Duration> {
    let l = text.to_lowercase();
    if l.contains("repeat the saving throw at the end of each of its turns") {
        Some(Duration::SaveEnds {
            dc: dc.value,
            ability: dc.ability,
        })
    } else if l.contains("for 1 minute") {
        Some(Duration::Rounds { remaining: 10 })
    } else {
        None
    }
}

/// Whether a success halves the damage (the data's flag, or "half as much" in the text).
pub(crate) fn halves(dc: &StatDc, text: &str) -> bool {
    dc.success == "half" || text.to_lowercase().contains("half")
}
/// "makes a Wisdom (Perception) check" in rules text: the skill.
pub(crate) fn check_in(text: &str) -> Option<Skill> {
    let l = text.to_lowercase();
    let i = l.find("makes a ")?;
    let rest = &l[i..];
    let open = rest.find('(')?;
    let close = rest.find(") check")?;
    rest.get(open + 1..close)?.parse().ok()
}
/// "Costs 2 Actions" → 2 (default 1).
pub(crate) fn legendary_cost(name: &str) -> u32 {
    let l = name.to_lowercase();
    l.find("costs ")
        .and_then(|i| l[i + 6..].split_whitespace().next()?.parse().ok())
        .unwrap_or(1)
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn areas_are_read_from_rules_text() {
        assert_eq!(
            area_in("The dragon exhales fire in a 60-foot cone. Each creature"),
            Some(TextArea::Shape(Shape::Cone { length_ft: 60 }))
        );
        assert_eq!(
            area_in("exhales acid in a 90-foot line that is 10 feet wide."),
            Some(TextArea::Shape(Shape::Line {
                length_ft: 90,
                width_ft: 10
            }))
        );
        assert_eq!(
            area_in("Each creature within 10 ft. of the dragon must succeed"),
            Some(TextArea::Within(10))
        );
        assert_eq!(
            area_in("each creature in a 20-foot-radius sphere centered on that point"),
            Some(TextArea::Shape(Shape::Sphere { radius_ft: 20 }))
        );
        assert_eq!(area_in("The dragon makes a tail attack."), None);
    }

    #[test]
    fn usage_limits_and_costs_are_read() {
        assert_eq!(recharge_min("Recharge 5–6"), Some(5));
        assert_eq!(recharge_min("Recharge 6"), Some(6));
        assert_eq!(per_day("3/Day"), Some(3));
        assert_eq!(legendary_cost("Wing Attack (Costs 2 Actions)"), 2);
        assert_eq!(legendary_cost("Detect"), 1);
        assert_eq!(
            dc_in("must make a DC 15 Dexterity saving throw"),
            Some((15, Ability::Dexterity))
        );
        assert_eq!(
            check_in("The dragon makes a Wisdom (Perception) check."),
            Some(Skill::Perception)
        );
    }
}
