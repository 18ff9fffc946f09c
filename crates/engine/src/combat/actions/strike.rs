//! What one attack takes and gives: the combat distance rule, the [`Situation`] of an attack,
//! the [`StrikeOptions`] a caller sets and the [`StrikeResult`] it gets back. Data only, so the
//! attack core (`attack`) and the modules it calls (ammunition, wards, Mirror Image, several
//! targets) can all name them without importing one another.

use serde::Serialize;
use tabletop_grid::{Cover, Metric};
use tabletop_rules::Ability;
use tabletop_rules::d20::D20Outcome;
use tabletop_rules::damage::DamageResult;
use tabletop_rules::dice::DiceRoll;

use super::profile::AttackKind;
use crate::concentration::ConcentrationCheck;

/// How distances are measured in combat (every diagonal 5 ft).
pub const METRIC: Metric = Metric::Grid5e;

/// What the battlefield and the combat state do to one attack.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Situation {
    /// Distance between the two spaces in feet.
    pub distance_ft: u32,
    /// The attacker is within 5 ft of the target.
    pub within_5_ft: bool,
    /// The target's cover.
    pub cover: Cover,
    /// Added to the target's AC (2 half, 5 three-quarters).
    pub cover_bonus: i32,
    /// Sources of advantage (besides the attacker's own sheet).
    pub advantage: Vec<String>,
    /// Sources of disadvantage (besides the attacker's own sheet).
    pub disadvantage: Vec<String>,
    /// Why a hit is automatically critical (paralyzed or unconscious target within 5 ft).
    pub crit_on_hit: Vec<String>,
    /// Why the attack cannot be made (out of reach or range, total cover); empty when it can.
    pub refusals: Vec<String>,
    /// Advantages of the attacker's own sheet this attack does not have ("invisible" when the
    /// target perceives it anyway: blindsight or truesight within range).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cancelled: Vec<String>,
    /// What the situation says beyond its advantages and disadvantages.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

impl Situation {
    /// The attacker's effective stats for this attack's roll: without the advantages the
    /// situation cancels.
    pub fn attacker_stats(
        &self,
        mut stats: tabletop_rules::stats::EffectiveStats,
    ) -> tabletop_rules::stats::EffectiveStats {
        if !self.cancelled.is_empty() {
            stats
                .attack
                .advantage
                .retain(|a| !self.cancelled.contains(a));
        }
        stats
    }

    /// "Skeleton has half cover: +2 AC (13 → 15)." when cover raises `target`'s AC from `from`
    /// to the `to` the attack roll meets; shared by weapon and spell attacks.
    pub fn cover_line(&self, target: &str, from: i32, to: i32) -> Option<String> {
        (self.cover_bonus > 0).then(|| {
            format!(
                "{target} has {} cover: +{} AC ({from} → {to}).",
                if self.cover == Cover::Half {
                    "half"
                } else {
                    "three-quarters"
                },
                self.cover_bonus,
            )
        })
    }
}

/// Options of one [`strike`].
#[derive(Debug, Clone, Default)]
pub struct StrikeOptions {
    /// The ability to attack with (finesse: STR or DEX).
    pub ability: Option<Ability>,
    /// Extra sources of advantage (the caller's).
    pub advantage: Vec<String>,
    /// Extra sources of disadvantage (the caller's).
    pub disadvantage: Vec<String>,
    /// A situational bonus to the attack roll.
    pub bonus: i32,
    /// Make the attack even when out of reach, out of range or behind total cover (reported).
    pub force: bool,
    /// Without a weapon name, pick a melee attack (opportunity attacks).
    pub melee_only: bool,
    /// The bonus-action attack of two-weapon fighting: its damage lacks a positive ability
    /// modifier unless `two_weapon_style`.
    pub off_hand: bool,
    /// The Two-Weapon Fighting style, on an `off_hand` attack: the ability modifier is added.
    pub two_weapon_style: bool,
    /// Label of the roll ("Opportunity attack").
    pub label: Option<String>,
    /// Divine Smite with a slot of this level on a melee weapon hit (`slotLevel`).
    pub smite_slot: Option<u8>,
    /// Sneak Attack declined on this hit.
    pub decline_sneak_attack: bool,
    /// The attack roll already made (a paused attack resumed after a reaction's answer).
    pub preset_roll: Option<D20Outcome>,
    /// Combatants that already answered a reaction to this attack.
    pub decided: Vec<String>,
}

/// What one [`strike`] did.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StrikeResult {
    /// The attacker's id.
    pub attacker_id: String,
    /// The attacker's name.
    pub attacker: String,
    /// The target's id.
    pub target_id: String,
    /// The target's name.
    pub target: String,
    /// The weapon or action used.
    pub weapon: String,
    /// Melee or ranged, with reach and range.
    pub kind: AttackKind,
    /// Distance, cover, advantage and disadvantage sources.
    pub situation: Situation,
    /// The attack roll (every d20, the kept one, modifiers, AC).
    pub roll: D20Outcome,
    /// Whether it hit.
    pub hit: bool,
    /// Whether it was a critical hit.
    pub critical: bool,
    /// The damage roll (dice doubled on a critical hit).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub damage_roll: Option<DiceRoll>,
    /// The damage as applied (per type, defenses, HP before and after).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub damage: Option<DamageResult>,
    /// The concentration save it forced.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub concentration: Option<ConcentrationCheck>,
    /// The target's HP after.
    pub target_hp: u32,
    /// The target's status after (ok, unconscious, dying, stable, dead).
    pub target_status: String,
    /// The outcome in one sentence ("Hit! Goblin 1 takes 9 slashing (7 → 0 HP) and dies.").
    pub headline: String,
    /// The rolls and what followed, in order.
    pub lines: Vec<String>,
    /// Rules set aside with `force`.
    pub forced: Vec<String>,
    /// The attack waits for a reaction's answer (the headline says which).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub paused: bool,
}
