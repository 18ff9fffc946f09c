//! What a saving throw is against, and the advantage a character's traits give on it (Dwarven
//! Resilience vs poison, Brave vs frightened, Fey Ancestry vs charmed, Gnome Cunning on INT, WIS
//! and CHA saves vs magic). Every place a save is rolled passes what it knows; the traits come
//! from the derived sheet ([`crate::derive::gear::save_advantages`]).

use tabletop_rules::d20::{D20Outcome, D20Request, D20Test, roll_d20_test};
use tabletop_rules::{Ability, Condition, DamageType};

use crate::engine::Call;
use crate::error::Result;
use crate::model::character::Character;

/// What a save resists: the conditions a failure imposes, the damage it deals, whether it is
/// magic (a spell or magical effect).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SaveAgainst {
    /// Conditions a failed save imposes.
    pub conditions: Vec<Condition>,
    /// The damage type at stake.
    pub damage: Option<DamageType>,
    /// A spell or other magical effect.
    pub magic: bool,
}

impl SaveAgainst {
    /// Nothing known about the source.
    pub fn none() -> Self {
        Self::default()
    }

    /// Whether nothing is known.
    pub fn is_empty(&self) -> bool {
        self.conditions.is_empty() && self.damage.is_none() && !self.magic
    }
}

impl SaveAgainst {
    /// What a save resists, read from the words of its reason when the caller gave no `vs`
    /// ("poison" → poison damage, "fear" → frightened, "Hold Person" → a spell): the traits'
    /// advantages then apply as they would had the caller said so.
    pub fn from_reason(call: &Call<'_>, reason: &str) -> Self {
        let mut vs = Self::none();
        let words: Vec<String> = reason
            .split(|ch: char| !ch.is_alphanumeric() && ch != '\'')
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect();
        for w in &words {
            let cond = match w.as_str() {
                "fear" | "frighten" | "frightening" | "frightful" | "terrified" => {
                    Some(Condition::Frightened)
                }
                "charm" | "charming" => Some(Condition::Charmed),
                "venom" | "venomous" | "poisoning" => Some(Condition::Poisoned),
                other => other.parse::<Condition>().ok(),
            };
            if let Some(c) = cond
                && !vs.conditions.contains(&c)
            {
                vs.conditions.push(c);
            }
            if vs.damage.is_none() {
                vs.damage = w.parse::<DamageType>().ok();
            }
            if matches!(w.as_str(), "spell" | "spells" | "magic" | "magical") {
                vs.magic = true;
            }
        }
        // A spell named in the reason: the whole reason ("Fear"), or two to four words in a row
        // ("vs hold person"; one word alone is too often a plain word: "fear", "light").
        if !vs.magic {
            vs.magic = is_magic_spell(call, reason.trim())
                || (2..=4).any(|n| words.windows(n).any(|w| is_magic_spell(call, &w.join(" "))));
        }
        vs
    }
}

/// The advantages `c`'s traits give on a save of `ability` against `vs`, each as
/// "source: against" (no duplicates).
pub fn trait_advantages(c: &Character, ability: Ability, vs: &SaveAgainst) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let conditions: Vec<Option<Condition>> = if vs.conditions.is_empty() {
        vec![None]
    } else {
        vs.conditions.iter().copied().map(Some).collect()
    };
    for cond in conditions {
        for why in crate::derive::gear::save_advantages(c, ability, cond, vs.damage, vs.magic) {
            if !out.contains(&why) {
                out.push(why);
            }
        }
    }
    out
}

/// Rolls a save of `ability` against `dc` from the character's effective sheet, with the
/// advantage its traits give against `vs`.
pub fn roll_save(
    call: &mut Call<'_>,
    c: &Character,
    ability: Ability,
    dc: i32,
    why: &str,
    vs: &SaveAgainst,
) -> Result<D20Outcome> {
    roll_save_with(call, c, ability, dc, why, vs, &[])
}

/// [`roll_save`] with advantages the caller found besides the traits' (a lich's Turn
/// Resistance against Turn Undead).
pub fn roll_save_with(
    call: &mut Call<'_>,
    c: &Character,
    ability: Ability,
    dc: i32,
    why: &str,
    vs: &SaveAgainst,
    more: &[String],
) -> Result<D20Outcome> {
    let stats = c.effective();
    let mut req = D20Request::new(D20Test::Save { ability })
        .dc(dc)
        .labelled(format!("{} save ({why})", ability.name()));
    for a in trait_advantages(c, ability, vs)
        .into_iter()
        .chain(more.iter().cloned())
    {
        req = req.advantage(a);
    }
    let out = roll_d20_test(&stats, &req, call.rng()?);
    call.record_roll(&out);
    Ok(out)
}

/// What a repeated save against a timed condition resists: the condition itself, and magic when
/// its source is a spell (SRD data) or a magical source the sheet names.
pub fn against_condition(call: &Call<'_>, condition: Condition, source: &str) -> SaveAgainst {
    SaveAgainst {
        conditions: vec![condition],
        damage: None,
        magic: is_magic(call, source),
    }
}

/// What a repeated save against an effect resists: the condition it is named after, if any,
/// the conditions and damage its source spell imposes (SRD data), and magic when it comes from a
/// spell.
pub fn against_effect(call: &Call<'_>, e: &crate::model::effects::ActiveEffect) -> SaveAgainst {
    let mut vs = SaveAgainst::none();
    if let Ok(c) = e.name.trim().to_lowercase().parse::<Condition>() {
        vs.conditions.push(c);
    }
    let source = e.source.as_deref().unwrap_or(&e.name);
    vs.magic = e.grant.is_some() || is_magic(call, source) || is_magic(call, &e.name);
    vs
}

fn is_magic_spell(call: &Call<'_>, name: &str) -> bool {
    call.compendium()
        .is_some_and(|srd| srd.spell(name).is_some())
}

fn is_magic(call: &Call<'_>, source: &str) -> bool {
    let s = source.trim();
    if s.is_empty() {
        return false;
    }
    is_magic_spell(call, s) || s.to_lowercase().contains("spell")
}
