//! Attack profiles: what an attack is before it is rolled. Melee or ranged with its reach or
//! range ([`AttackKind`]), and the to-hit and damage of an attack from a stat-block action, an
//! equipped weapon or an unarmed strike ([`attack_profile`]), reading "reach N ft." and ranges
//! from stat-block text. [`super::attack`] rolls them.

use serde::Serialize;
use tabletop_rules::d20::D20Test;
use tabletop_rules::stats::{Contribution, EffectiveStats};
use tabletop_rules::{Ability, DamageType};

use crate::engine::Call;
use crate::error::{EngineError, Result};
use crate::inventory::weapons::{equipped_weapon, weapon_attack, weapon_proficiency};
use crate::model::character::{Character, StatAction};
use crate::model::inventory::Item;
use crate::model::inventory::{Slot, WeaponProperty};
use crate::model::names::name_key;

/// Where an attack's numbers come from.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum ProfileSource {
    /// An equipped weapon.
    Weapon {
        /// Its item id.
        item_id: String,
    },
    /// A stat-block action.
    StatBlock,
    /// An unarmed strike.
    Unarmed,
}

/// One attack's numbers: to-hit parts, damage expression, reach and range.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AttackProfile {
    /// The weapon or action name.
    pub name: String,
    /// Where it comes from.
    pub source: ProfileSource,
    /// The d20 test (ability and proficiency; none for a stat block's to-hit).
    #[serde(skip)]
    pub test: Option<D20Test>,
    /// Flat to-hit bonuses beyond the ability and proficiency (magic, a stat block's to-hit).
    pub bonuses: Vec<Contribution>,
    /// Typed damage expression (`1d8[slashing] + 3[slashing]`).
    pub damage: String,
    /// The damage expression of a ranged attack with what can also strike in melee (a thrown
    /// handaxe, a stat block's "Melee or Ranged Weapon Attack"): a ranged weapon attack, which
    /// no melee-only bonus such as Rage's adds to; [`AttackProfile::for_kind`] picks it.
    #[serde(skip)]
    pub thrown_damage: Option<String>,
    /// Melee reach in feet, when it can be used in melee.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reach_ft: Option<u32>,
    /// Normal and long range in feet, when it can be used at range (ranged or thrown).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub range_ft: Option<(u32, u32)>,
    /// A light weapon (two-weapon fighting).
    pub light: bool,
    /// Sources of disadvantage the attack itself brings (a heavy weapon in Small hands).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub disadvantage: Vec<String>,
}

impl AttackProfile {
    /// This profile as the attack of `kind`: a thrown melee weapon used at range deals its
    /// thrown damage.
    pub fn for_kind(&mut self, kind: AttackKind) {
        if kind.delivery == Delivery::Ranged
            && let Some(d) = self.thrown_damage.take()
        {
            self.damage = d;
        }
    }

    /// The kind of attack at `distance_ft`: melee within reach, else ranged when it can be.
    pub fn kind_at(&self, distance_ft: u32) -> AttackKind {
        match (self.reach_ft, self.range_ft) {
            (Some(r), _) if distance_ft <= r => AttackKind::melee(r),
            (_, Some((n, l))) => AttackKind::ranged(n, l),
            (Some(r), None) => AttackKind::melee(r),
            (None, None) => AttackKind::melee(5),
        }
    }
}

/// "reach 10 ft." → 10; "range 80/320 ft." → (80, 320), from a stat block's rules text.
pub fn parse_reach_range(desc: &str) -> (Option<u32>, Option<(u32, u32)>) {
    let d = desc.to_lowercase();
    let num_after = |key: &str| -> Option<String> {
        let i = d.find(key)?;
        Some(
            d[i + key.len()..]
                .trim_start()
                .chars()
                .take_while(|c| c.is_ascii_digit() || *c == '/')
                .collect(),
        )
    };
    let reach = num_after("reach ").and_then(|n| n.parse().ok());
    let range = num_after("range ").and_then(|n| {
        let mut it = n.split('/');
        let a: u32 = it.next()?.parse().ok()?;
        let b: u32 = it.next().and_then(|b| b.parse().ok()).unwrap_or(a);
        Some((a, b))
    });
    let melee = d.contains("melee");
    let ranged = d.contains("ranged");
    match (melee, ranged) {
        (true, false) => (Some(reach.unwrap_or(5)), None),
        (false, true) => (None, Some(range.unwrap_or((30, 120)))),
        (true, true) => (Some(reach.unwrap_or(5)), range),
        // No words: trust the numbers, else a 5 ft melee attack.
        (false, false) => match (reach, range) {
            (None, None) => (Some(5), None),
            other => other,
        },
    }
}

fn stat_block_attacks(c: &Character) -> impl Iterator<Item = &StatAction> {
    c.action_block()
        .into_iter()
        .flat_map(|b| b.actions.iter())
        .filter(|a| a.attack_bonus.is_some())
}

pub(crate) fn signed_flat(n: i32, t: DamageType) -> String {
    match n {
        0 => String::new(),
        n if n > 0 => format!(" + {n}[{t}]"),
        n => format!(" - {}[{t}]", -n),
    }
}

fn stat_block_profile(a: &StatAction, stats: &EffectiveStats) -> AttackProfile {
    let (reach_ft, range_ft) = parse_reach_range(&a.desc);
    // Damage the stat block lists beside the hit's but its text makes a saving throw's (an
    // assassin's poison, half on a save) is the rider's, rolled after the save.
    let rider = crate::catalog::monsters::rider_in(&a.desc).and_then(|r| r.damage);
    let the_riders = |d: &&crate::model::character::StatDamage| {
        rider.as_ref().is_some_and(|(dice, t)| {
            d.damage_type == Some(*t)
                && d.dice
                    .chars()
                    .filter(|c| !c.is_whitespace())
                    .eq(dice.chars())
        })
    };
    // A weapon the stat block gives a choice of damage for (a hobgoblin's longsword: one handed
    // 1d8 + 1 or two handed 1d10 + 1) strikes with its first option, which the name says.
    let (own, grip) = match (a.damage.is_empty(), a.alternatives.first()) {
        (true, Some(alt)) if !alt.damage.is_empty() => (&alt.damage, Some(alt.name.to_lowercase())),
        _ => (&a.damage, None),
    };
    let damage = own
        .iter()
        .enumerate()
        .filter(|(i, d)| *i == 0 || !the_riders(d))
        .map(|(_, d)| d)
        .map(|d| match d.damage_type {
            Some(t) => format!("({})[{t}]", d.dice),
            None => format!("({})", d.dice),
        })
        .collect::<Vec<_>>()
        .join(" + ");
    let first_type = own.iter().find_map(|d| d.damage_type);
    // The sheet's damage bonus: one that needs a melee weapon attack (Rage) is not added to a
    // ranged one (a thrown javelin).
    let with_bonus = |mut damage: String, melee: bool| {
        if let Some(t) = first_type {
            let bonus = crate::derive::gear::damage_bonus(stats, melee);
            damage.push_str(&signed_flat(bonus, t));
        }
        for e in &stats.damage.extra_dice {
            damage.push_str(&format!(" + {}[{}]", e.dice, e.damage_type));
        }
        damage
    };
    let thrown_damage = range_ft.map(|_| with_bonus(damage.clone(), false));
    let damage = with_bonus(damage, reach_ft.is_some());
    AttackProfile {
        name: match grip {
            Some(g) => format!("{} ({g})", a.name),
            None => a.name.clone(),
        },
        source: ProfileSource::StatBlock,
        test: Some(D20Test::Attack {
            ability: None,
            proficient: false,
        }),
        bonuses: vec![Contribution::new(
            format!("{} to hit", a.name),
            a.attack_bonus.unwrap_or(0),
        )],
        damage,
        thrown_damage,
        reach_ft,
        range_ft,
        light: false,
        disadvantage: Vec::new(),
    }
}

fn unarmed_profile(stats: &EffectiveStats) -> AttackProfile {
    let t = DamageType::Bludgeoning;
    let m = stats.modifier(Ability::Strength) + stats.damage.bonus;
    AttackProfile {
        name: "Unarmed strike".into(),
        source: ProfileSource::Unarmed,
        test: Some(D20Test::Attack {
            ability: Some(Ability::Strength),
            proficient: true,
        }),
        bonuses: Vec::new(),
        damage: format!("1[{t}]{}", signed_flat(m, t)),
        thrown_damage: None,
        reach_ft: Some(5),
        range_ft: None,
        light: false,
        disadvantage: Vec::new(),
    }
}

fn weapon_profile(
    call: &Call<'_>,
    c: &Character,
    stats: &EffectiveStats,
    item: &Item,
    ability: Option<Ability>,
    off_hand: bool,
) -> Result<AttackProfile> {
    let proficient = weapon_proficiency(call, c, item).unwrap_or(true);
    let a = weapon_attack(c, stats, item, proficient, ability, off_hand)?;
    let style = crate::derive::gear::weapon_style(c, item);
    let Some(w) = &item.weapon else {
        return Err(EngineError::invalid(
            "weapon",
            format!("{} is not a weapon", item.name),
        ));
    };
    let ranged = w.category.is_ranged();
    let reach_ft = (!ranged).then(|| if w.has(WeaponProperty::Reach) { 10 } else { 5 });
    let range_ft = if ranged {
        Some((w.range_normal.unwrap_or(80), w.range_long.unwrap_or(320)))
    } else if w.has(WeaponProperty::Thrown) {
        Some((w.range_normal.unwrap_or(20), w.range_long.unwrap_or(60)))
    } else {
        None
    };
    Ok(AttackProfile {
        name: item.name.clone(),
        source: ProfileSource::Weapon {
            item_id: item.id.clone(),
        },
        test: Some(D20Test::Attack {
            ability: Some(a.ability),
            proficient,
        }),
        bonuses: a.weapon_bonuses,
        damage: a.damage,
        thrown_damage: a.thrown_damage,
        reach_ft,
        range_ft,
        light: w.has(WeaponProperty::Light),
        disadvantage: style.disadvantage.into_iter().collect(),
    })
}

pub(crate) fn is_melee_item(item: &Item) -> bool {
    item.weapon
        .as_ref()
        .is_some_and(|w| !w.category.is_ranged())
}

/// The attack `c` makes with `weapon`: an equipped weapon (by name or item id), a stat-block
/// attack by name, or "unarmed strike". Without a name: the main-hand weapon, else the first
/// stat-block attack, else an unarmed strike (`melee_only` skips ranged choices).
pub fn attack_profile(
    call: &Call<'_>,
    c: &Character,
    weapon: Option<&str>,
    ability: Option<Ability>,
    melee_only: bool,
) -> Result<AttackProfile> {
    attack_profile_as(call, c, weapon, ability, melee_only, false)
}

/// [`attack_profile`]; `off_hand` for the bonus-action attack of two-weapon fighting, whose
/// damage lacks a positive ability modifier.
pub fn attack_profile_as(
    call: &Call<'_>,
    c: &Character,
    weapon: Option<&str>,
    ability: Option<Ability>,
    melee_only: bool,
    off_hand: bool,
) -> Result<AttackProfile> {
    let stats = c.effective();
    let name = weapon.map(str::trim).filter(|s| !s.is_empty());
    // A creature in another form (Wild Shape, Polymorph) attacks with the form's attacks only:
    // its gear has merged into the form.
    if let Some(shape) = c.active_shape() {
        let found = match name {
            Some(n) => stat_block_attacks(c).find(|a| name_key(&a.name) == name_key(n)),
            None => stat_block_attacks(c)
                .find(|a| !melee_only || stat_block_profile(a, &stats).reach_ft.is_some()),
        };
        return match found {
            Some(a) => Ok(stat_block_profile(a, &stats)),
            None => Err(EngineError::invalid(
                "weapon",
                format!(
                    "{} is in {} form and attacks with its attacks only: {}",
                    c.name,
                    shape.form,
                    stat_block_attacks(c)
                        .map(|a| a.name.clone())
                        .chain(
                            shape
                                .block
                                .actions
                                .iter()
                                .filter(|a| !a.multiattack.is_empty())
                                .map(|_| "Multiattack".to_string())
                        )
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )),
        };
    }
    if let Some(name) = name {
        let key = name_key(name);
        let own_attack = stat_block_attacks(c).any(|a| name_key(&a.name) == key);
        if (key == name_key("unarmed strike") || key == "unarmed") && !own_attack {
            return Ok(martial_arts(c, &stats, unarmed_profile(&stats)));
        }
        return match equipped_weapon(c, name) {
            Ok(item) => weapon_profile(call, c, &stats, item, ability, off_hand),
            Err(e) => match stat_block_attacks(c).find(|a| name_key(&a.name) == key) {
                Some(a) => Ok(stat_block_profile(a, &stats)),
                None => {
                    let mut options: Vec<String> = c
                        .inventory
                        .items
                        .iter()
                        .filter(|it| it.slot.is_some() && it.weapon.is_some())
                        .map(|it| it.name.clone())
                        .collect();
                    options.extend(stat_block_attacks(c).map(|a| a.name.clone()));
                    if c.action_block()
                        .into_iter()
                        .any(|b| b.actions.iter().any(|a| !a.multiattack.is_empty()))
                    {
                        options.push("Multiattack".into());
                    }
                    options.push("unarmed strike".into());
                    Err(EngineError::invalid(
                        "weapon",
                        format!(
                            "{} has no attack '{name}' ({e}); use one of: {}",
                            c.name,
                            options.join(", ")
                        ),
                    ))
                }
            },
        };
    }
    let main = c
        .inventory
        .items
        .iter()
        .find(|it| it.slot == Some(Slot::Mainhand) && it.weapon.is_some())
        .filter(|it| !melee_only || is_melee_item(it));
    if let Some(item) = main {
        return weapon_profile(call, c, &stats, item, ability, off_hand);
    }
    for a in stat_block_attacks(c) {
        let p = stat_block_profile(a, &stats);
        if !melee_only || p.reach_ft.is_some() {
            return Ok(p);
        }
    }
    Ok(martial_arts(c, &stats, unarmed_profile(&stats)))
}
/// Melee or ranged.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Delivery {
    /// A melee attack (reach applies).
    Melee,
    /// A ranged attack (normal and long range apply).
    Ranged,
}

/// How an attack reaches its target.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AttackKind {
    /// Melee or ranged.
    pub delivery: Delivery,
    /// Reach in feet (melee).
    pub reach_ft: u32,
    /// Normal and long range in feet (ranged).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub range_ft: Option<(u32, u32)>,
}

impl AttackKind {
    /// A melee attack with this reach.
    pub fn melee(reach_ft: u32) -> Self {
        Self {
            delivery: Delivery::Melee,
            reach_ft,
            range_ft: None,
        }
    }

    /// A ranged attack with normal and long range.
    pub fn ranged(normal_ft: u32, long_ft: u32) -> Self {
        Self {
            delivery: Delivery::Ranged,
            reach_ft: 5,
            range_ft: Some((normal_ft, long_ft.max(normal_ft))),
        }
    }
}

/// Martial Arts: a monk's unarmed strike uses the class table's die and DEX when it is higher
/// than STR, while Martial Arts applies (no armor, no shield, only monk weapons wielded).
pub fn martial_arts(c: &Character, stats: &EffectiveStats, mut p: AttackProfile) -> AttackProfile {
    let Some((count, faces)) = crate::model::gear::martial_arts(c) else {
        return p;
    };
    let (str_m, dex_m) = (
        stats.modifier(Ability::Strength),
        stats.modifier(Ability::Dexterity),
    );
    let ability = if dex_m > str_m {
        Ability::Dexterity
    } else {
        Ability::Strength
    };
    let m =
        str_m.max(dex_m) + crate::derive::gear::damage_bonus(stats, ability == Ability::Strength);
    let t = DamageType::Bludgeoning;
    p.test = Some(D20Test::Attack {
        ability: Some(ability),
        proficient: true,
    });
    p.damage = match m {
        0 => format!("{count}d{faces}[{t}]"),
        m if m > 0 => format!("{count}d{faces}[{t}] + {m}[{t}]"),
        m => format!("{count}d{faces}[{t}] - {}[{t}]", -m),
    };
    p.name = format!("Unarmed strike (Martial Arts d{faces})");
    p
}
