//! The effective sheet during one update: derived at most once for a call (or taken from the
//! one kept with the character as read), and what the update's answer shows of it.

use tabletop_rules::stats::EffectiveStats;

use crate::model::character::Character;
use crate::model::sheet::SheetInputs;

/// What an update's answer shows of the effective sheet.
#[derive(Debug, Clone, Copy, Default)]
pub struct ShownStats {
    /// Armor class.
    pub armor_class: i32,
    /// Speed in feet.
    pub speed: i32,
    /// Hit point maximum.
    pub max_hp: i32,
}

impl ShownStats {
    pub(super) fn of(e: &EffectiveStats) -> Self {
        Self {
            armor_class: e.armor_class.value,
            speed: e.speed.value,
            max_hp: e.max_hp.value,
        }
    }
}

/// A character's effective sheet during one update, kept with what it was derived from that an
/// update can change (conditions, effects, whether a form is worn, death): while those stay as
/// they were, a change of hit points, temporary HP or death saves leaves the sheet as it is.
#[derive(Default)]
pub(super) struct Sheet {
    derived: Option<(SheetInputs, Derived)>,
}

enum Derived {
    /// Derived in this call.
    Here(Box<EffectiveStats>),
    /// The sheet kept with the stored text the character was read from
    /// (`Character::read_sheet`), derived when first asked for.
    AsRead(std::sync::Arc<std::sync::OnceLock<EffectiveStats>>),
}

impl Sheet {
    /// The sheet of `c` exactly as the store read it (nothing changed on it yet).
    pub(super) fn as_read(c: &Character) -> Self {
        Self {
            derived: c
                .read_sheet
                .0
                .clone()
                .map(|kept| (SheetInputs::of(c), Derived::AsRead(kept))),
        }
    }

    /// The kept sheet of the text read, when it is still `c`'s: nothing it is derived from
    /// changed in this call (see `model::doc_state::same_effective_inputs`).
    pub(super) fn kept_for(&self, c: &Character) -> crate::model::character::ReadSheet {
        crate::model::character::ReadSheet(match &self.derived {
            Some((inputs, Derived::AsRead(kept))) if inputs.matches(c) => Some(kept.clone()),
            _ => None,
        })
    }

    /// `c`'s effective sheet, derived again when what it is derived from changed.
    pub(super) fn get(&mut self, c: &Character) -> &EffectiveStats {
        if self
            .derived
            .as_ref()
            .is_some_and(|(kept, _)| !kept.matches(c))
        {
            self.derived = None;
        }
        match self
            .derived
            .get_or_insert_with(|| (SheetInputs::of(c), Derived::Here(Box::new(c.effective()))))
        {
            (_, Derived::Here(e)) => e,
            (_, Derived::AsRead(kept)) => kept.get_or_init(|| c.effective()),
        }
    }
}
