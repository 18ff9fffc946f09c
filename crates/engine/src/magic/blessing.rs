//! Temporary hit points a creature gains when it drops a hostile creature to 0 HP (Dark One's
//! Blessing), from its derived sheet; called by spells and weapon attacks alike.

use crate::model::character::Character;

/// Dark One's Blessing: `c` gains its temporary HP (if more than it has) when it reduces a
/// hostile creature to 0 HP. `hp_before` is the target's HP before the damage.
pub fn on_drop(
    c: &mut Character,
    target: &Character,
    hp_before: u32,
    hostile: bool,
) -> Option<String> {
    if !hostile || hp_before == 0 || target.hp > 0 || target.id == c.id {
        return None;
    }
    let spec = c.derived.as_ref()?.kill_temp_hp.clone()?;
    let n = u32::try_from(spec.value.max(0)).ok()?;
    if n == 0 {
        return None;
    }
    let name = spec
        .source
        .split_once(": ")
        .map_or(spec.source.as_str(), |(_, b)| b)
        .split(" (")
        .next()
        .unwrap_or_default()
        .to_string();
    if c.temp_hp >= n {
        return Some(format!(
            "{name}: {} keeps its {} temporary HP (the blessing's {n} is not more)",
            c.name, c.temp_hp
        ));
    }
    c.temp_hp = n;
    Some(format!(
        "{name}: {} drops {} and gains {n} temporary HP",
        c.name, target.name
    ))
}
