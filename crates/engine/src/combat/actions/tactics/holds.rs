//! Who holds whom: the grappled condition's source names its grappler ("grappled by Thorn
//! (ch2)"; a stat-block grapple adds its escape DC), and a condition that lasts while a grapple
//! holds names it too ("while grappled by Constrictor Snake (ch5)"). Pure functions of the
//! condition entries, shared by the Attack action's grapple (`contest`) and a stat-block hit's
//! (`hit_hold`).

use tabletop_rules::Condition;

use crate::model::character::{Character, ConditionEntry};

/// The prefix of a grappled condition's source; the grappler's id follows in parentheses.
const GRAPPLE_SOURCE: &str = "grappled by";

/// The source recorded on the grappled condition: "grappled by Thorn (ch2)".
pub fn grapple_source(grappler: &Character) -> String {
    format!("{GRAPPLE_SOURCE} {} ({})", grappler.name, grappler.id)
}

/// The prefix of a condition that lasts while a grapple holds (a constrictor snake's
/// restrained); the grappler's id follows in parentheses.
const HELD_SOURCE: &str = "while grappled by";

/// The source of a grapple a stat-block attack imposes on a hit, with the escape DC its text
/// gives: "grappled by Constrictor Snake (escape DC 14) (ch5)".
pub fn grapple_source_dc(grappler: &Character, dc: i32) -> String {
    format!(
        "{GRAPPLE_SOURCE} {} (escape DC {dc}) ({})",
        grappler.name, grappler.id
    )
}

/// The source of a condition that lasts until `grappler`'s grapple ends: "while grappled by
/// Constrictor Snake (ch5)".
pub fn held_source(grappler: &Character) -> String {
    format!("{HELD_SOURCE} {} ({})", grappler.name, grappler.id)
}

/// The id in the trailing parentheses of a source.
fn trailing_id(source: &str) -> Option<&str> {
    let open = source.rfind('(')?;
    source[open + 1..].strip_suffix(')')
}

/// The grappler's character id of a grappled condition entry made by a grapple.
pub fn grappler_of(e: &ConditionEntry) -> Option<&str> {
    if e.condition != Condition::Grappled || !e.source.starts_with(GRAPPLE_SOURCE) {
        return None;
    }
    trailing_id(&e.source)
}

/// The grappler whose grapple a condition entry lasts for (a restrained that ends with it).
pub fn held_by(e: &ConditionEntry) -> Option<&str> {
    if e.condition == Condition::Grappled || !e.source.starts_with(HELD_SOURCE) {
        return None;
    }
    trailing_id(&e.source)
}

/// The escape DC of a grapple a stat-block attack imposed ("(escape DC 14)"); `None` for a
/// grapple made by the Attack action, escaped by a contest.
pub fn escape_dc_of(e: &ConditionEntry) -> Option<i32> {
    grappler_of(e)?;
    let i = e.source.find("(escape DC ")?;
    e.source[i + "(escape DC ".len()..]
        .split(')')
        .next()?
        .parse()
        .ok()
}

/// Ends `grappler_id`'s grapple on `c`: the grappled condition and what lasts while it holds.
pub fn end_grapple(c: &mut Character, grappler_id: &str) {
    c.conditions
        .retain(|e| grappler_of(e) != Some(grappler_id) && held_by(e) != Some(grappler_id));
}
