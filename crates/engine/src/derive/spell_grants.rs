//! The catalog's spell-related grants on the derived sheet: spells features let a creature cast
//! (`FeatureSpell`: invocations, Mystic Arcanum), riders on one spell (`SpellRider`: Agonizing
//! Blast), rules shaping its spells (`SpellShaping`: Sculpt Spells) and temporary HP on a kill
//! (`KillTempHp`: Dark One's Blessing). Casting reads them in `magic::feature_spells`.

use super::{Derived, FeatureSpellSpec, Sourced, SpellRiderSpec};
use crate::catalog::{AmountContext, Grant};

/// Records one of these grants of the source labelled `label`.
pub(super) fn apply(d: &mut Derived, g: &Grant, ctx: &AmountContext<'_>, label: &str) {
    match g {
        Grant::FeatureSpell {
            spell,
            level,
            resource,
            pact_slot,
            self_only,
        } => d.feature_spells.push(FeatureSpellSpec {
            spell: spell.clone(),
            level: *level,
            resource: resource.clone(),
            pact_slot: *pact_slot,
            self_only: *self_only,
            source: label.to_string(),
        }),
        Grant::SpellRider {
            spell,
            damage,
            push_ft,
            range_ft,
        } => d.spell_riders.push(SpellRiderSpec {
            spell: spell.clone(),
            damage: damage.as_ref().map_or(0, |a| a.eval(ctx)),
            push_ft: push_ft.unwrap_or(0),
            range_ft: *range_ft,
            source: label.to_string(),
        }),
        Grant::SpellShaping { rule } => d.spell_shaping.push(Sourced {
            value: *rule,
            source: label.to_string(),
        }),
        Grant::KillTempHp { amount } => {
            d.kill_temp_hp = Some(Sourced {
                value: amount.eval(ctx),
                source: label.to_string(),
            })
        }
        _ => {}
    }
}
