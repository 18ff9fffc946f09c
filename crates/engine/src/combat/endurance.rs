//! Relentless Endurance (half-orc): reduced to 0 hit points but not killed outright, the
//! creature drops to 1 hit point instead, once per long rest. The player would always choose
//! it, so it is applied automatically and the answer says so. Relentless Rage goes first
//! (see [`crate::combat::martial::relentless_rage`]): when it holds, Endurance is not needed.

use tabletop_rules::Condition;
use tabletop_rules::damage::{DamageOutcome, DamageResult};

use crate::catalog::class_rules::ClassRule;
use crate::model::character::Character;
use crate::model::names::name_key;

/// The resource that counts Relentless Endurance's use.
pub const RELENTLESS_ENDURANCE: &str = "Relentless Endurance";

/// Whether Relentless Rage would be tried for `c` dropped to 0 HP: raging, with the rule and a
/// use left. Endurance then waits for the save.
pub fn relentless_rage_ready(c: &Character) -> bool {
    // The resource `martial::RELENTLESS_RAGE` names (not imported: martial calls this file).
    let rage = name_key("Relentless Rage");
    c.effects.iter().any(|e| name_key(&e.name) == "rage")
        && c.has_rule(ClassRule::RelentlessRage)
        && c.resources
            .iter()
            .any(|x| name_key(&x.name) == rage && x.current > 0)
}

/// Relentless Endurance: `r` dropped `c` from above 0 to 0 HP without killing it outright (not
/// massive damage) and a use is left: it spends the use, leaves `c` (and `r`) at 1 HP, awake,
/// with no death saves, and says so. Whether it held.
pub fn relentless_endurance(
    c: &mut Character,
    r: &mut DamageResult,
    lines: &mut Vec<String>,
) -> bool {
    if r.hp_after > 0 || r.hp_before == 0 || r.dead || c.dead {
        return false;
    }
    let key = name_key(RELENTLESS_ENDURANCE);
    let Some(res) = c
        .resources
        .iter_mut()
        .find(|x| name_key(&x.name) == key && x.current > 0)
    else {
        return false;
    };
    res.current -= 1;
    c.hp = 1;
    c.death_saves = Default::default();
    c.conditions
        .retain(|e| e.condition != Condition::Unconscious);
    r.hp_after = 1;
    r.death_saves = Default::default();
    r.outcome = DamageOutcome::Damaged;
    r.add_conditions.clear();
    r.concentration_ends = false;
    lines.push(format!(
        "{} drops to 1 HP instead (Relentless Endurance, used automatically since it is always \
         the better choice; it returns after a long rest)",
        c.name
    ));
    true
}
