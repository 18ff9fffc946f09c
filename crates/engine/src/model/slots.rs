//! Spell slots as a character holds them: per level 1–9 and pact magic apart, filled from the SRD
//! class tables. Spending and restoring them by tool is the `slots` use case.

use serde::{Deserialize, Serialize};
use tabletop_srd::Compendium;
use tabletop_srd::model::CasterKind;

/// Pact-magic slots: `max` slots, all of `level`.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PactSlots {
    /// The level of every pact slot (1–5).
    pub level: u8,
    /// How many.
    pub max: u8,
    /// Used since the last rest.
    pub used: u8,
}

/// A character's spell slots.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct SpellSlots {
    /// Maximum per spell level 1–9.
    pub max: [u8; 9],
    /// Used per spell level 1–9.
    pub used: [u8; 9],
    /// Pact-magic slots, kept apart.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pact: Option<PactSlots>,
    /// Set by hand: level-ups leave them alone.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub manual: bool,
    /// Slots per level created beyond the table by Flexible Casting (counted in `max`; gone
    /// on a long rest).
    #[serde(skip_serializing_if = "no_created")]
    pub created: [u8; 9],
}

fn no_created(c: &[u8; 9]) -> bool {
    c.iter().all(|n| *n == 0)
}

/// The ordinal of a spell level ("1st", "2nd", "3rd", "4th").
pub fn ordinal(level: u8) -> String {
    match level {
        1 => "1st".into(),
        2 => "2nd".into(),
        3 => "3rd".into(),
        n => format!("{n}th"),
    }
}

impl SpellSlots {
    /// No slots at all.
    pub fn is_empty(&self) -> bool {
        self.max.iter().all(|m| *m == 0) && self.pact.is_none() && !self.manual
    }

    /// Slots left per level that has any ("1" … "9"), and "pact" for pact slots.
    pub fn remaining_by_level(&self) -> std::collections::BTreeMap<String, u32> {
        let mut out: std::collections::BTreeMap<String, u32> = (1..=9u8)
            .filter(|l| self.max[usize::from(l - 1)] > 0)
            .map(|l| (l.to_string(), u32::from(self.left(l))))
            .collect();
        if let Some(p) = self.pact {
            out.insert("pact".into(), u32::from(p.max.saturating_sub(p.used)));
        }
        out
    }

    /// Slots left at `level` (1–9), regular slots only.
    pub fn left(&self, level: u8) -> u8 {
        let i = usize::from(level.clamp(1, 9) - 1);
        self.max[i].saturating_sub(self.used[i])
    }

    /// "1st 3/4, 2nd 2/2; pact 2× 3rd 1/2" (left/max), or "none".
    pub fn summary(&self) -> String {
        let mut parts: Vec<String> = (1..=9u8)
            .filter(|l| self.max[usize::from(l - 1)] > 0)
            .map(|l| {
                format!(
                    "{} {}/{}",
                    ordinal(l),
                    self.left(l),
                    self.max[usize::from(l - 1)]
                )
            })
            .collect();
        if let Some(p) = &self.pact {
            parts.push(format!(
                "pact ({}) {}/{}",
                ordinal(p.level),
                p.max.saturating_sub(p.used),
                p.max
            ));
        }
        if parts.is_empty() {
            "none".into()
        } else {
            parts.join(", ")
        }
    }

    /// The SRD table's slots for `class` at `level`; `None` for a class the SRD lacks. Pact
    /// casters get pact slots only; used counts are kept (capped at the new maxima).
    pub fn from_srd(
        srd: &Compendium,
        class: &str,
        level: u32,
        keep: &SpellSlots,
    ) -> Option<SpellSlots> {
        let cls = srd.class(class)?;
        let lvl = u8::try_from(level.clamp(1, 20)).unwrap_or(20);
        let row = srd.class_level(&cls.index, lvl)?;
        let mut s = SpellSlots::default();
        if cls.caster_kind == CasterKind::Pact {
            if let Some(p) = row.pact_slots {
                s.pact = Some(PactSlots {
                    level: p.slot_level,
                    max: p.count,
                    used: keep.pact.map_or(0, |k| k.used.min(p.count)),
                });
            }
        } else {
            s.max = row.spell_slots;
        }
        s.keep_created(keep);
        Some(s)
    }

    /// Keeps `keep`'s Flexible Casting slots on top of these maxima, and its used counts
    /// (capped at the maxima).
    pub fn keep_created(&mut self, keep: &SpellSlots) {
        for i in 0..9 {
            self.created[i] = keep.created[i];
            self.max[i] = self.max[i].saturating_add(keep.created[i]);
            self.used[i] = keep.used[i].min(self.max[i]);
        }
    }

    /// Restores every slot (a long rest); Flexible Casting's created slots vanish.
    pub fn restore_all(&mut self) {
        for i in 0..9 {
            self.max[i] = self.max[i].saturating_sub(self.created[i]);
        }
        self.created = [0; 9];
        self.used = [0; 9];
        if let Some(p) = self.pact.as_mut() {
            p.used = 0;
        }
    }
}
