//! The monster-ability half of the mechanics catalog: every special ability, action, reaction
//! and legendary action of the SRD stat blocks, keyed `<monster index>/<ability name>`, is
//! either mechanical (the engine resolves it: an attack with damage, a save or damage effect, a
//! Multiattack sequence of the block's own attacks, an ability check, or a trait applied in
//! play) or narrative with a one-line reason the agent sees when it is used.
//!
//! The encoding is by family rather than one line per stat block: the stat-block reader
//! (`monster.rs`) already turns the SRD's structured fields (attack bonus, damage dice, save
//! DC, usage, multiattack steps) into what `execute_action` resolves, so the catalog says
//! which of them resolve and names the traits by their SRD names. The data-driven test
//! `catalog_monster_abilities` runs every mechanical action of all 334 stat blocks through
//! `execute_action` with pinned dice and checks its to-hit, DC and dice against the SRD JSON.

use tabletop_srd::model::{Monster, MonsterAction};

/// Where an ability sits in a stat block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Section {
    /// Special abilities (traits).
    Special,
    /// Actions.
    Action,
    /// Legendary actions.
    Legendary,
    /// Reactions.
    Reaction,
}

/// How the engine resolves a mechanical ability.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Automation {
    /// An attack roll with damage (`execute_action` attack, weapon = its name; a legendary
    /// action through `legendary_action`).
    Attack,
    /// A legendary action that makes one of the block's attacks ("The dragon makes a tail
    /// attack").
    NamedAttack,
    /// A saving throw and/or damage on targets or an area (`use_special_ability`,
    /// `legendary_action`), usage limits (Recharge 5–6, N/Day) enforced.
    Effect,
    /// Multiattack: the block's own attacks, as many as the SRD says, in one action.
    Multiattack,
    /// An ability check ("makes a Wisdom (Perception) check").
    Check,
    /// A trait applied in play (Pack Tactics, Magic Resistance, Undead Fortitude,
    /// Spellcasting slots, magical weapon attacks, Regeneration, Relentless, Fey Ancestry,
    /// Blood Frenzy, Martial Advantage, Sneak Attack, Surprise Attack).
    Trait,
}

/// One ability's encoding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Encoding {
    /// The engine resolves it.
    Mechanical(Automation),
    /// The DM applies it; the reason is shown when it is used.
    Narrative(String),
}

impl Encoding {
    /// Whether the engine applies it.
    pub fn mechanical(&self) -> bool {
        matches!(self, Encoding::Mechanical(_))
    }
}

/// Traits the engine applies in play, by SRD name.
pub const APPLIED_TRAITS: &[&str] = &[
    "Pack Tactics",
    "Magic Resistance",
    "Undead Fortitude",
    "Spellcasting",
    "Magic Weapons",
    "Angelic Weapons",
    // Start of turn, stopped by the damage types its text names (`combat::regen`); sunlight and
    // running water are said to be the DM's when it heals.
    "Regeneration",
    // 1 HP instead of 0 from a small enough blow, spent until a rest (`combat::regen`).
    "Relentless",
    // Advantage on saves against being charmed; Sleep skips it (`model::gear`, `magic`).
    "Fey Ancestry",
    // Advantage on melee attacks against a wounded creature (`combat::traits`).
    "Blood Frenzy",
    // Extra weapon damage on a hit, as the text's dice (`combat::actions::trait_riders`).
    "Martial Advantage",
    "Sneak Attack",
    "Surprise Attack",
    // A failed save becomes a success by the reaction policy, uses on the sheet
    // (`combat::legendary`).
    "Legendary Resistance",
    // Spells of its text's level or lower do nothing; advantage on saves against the others
    // (`combat::traits`).
    "Limited Magic Immunity",
];

/// The name without "(Recharge 5–6)", "(3/Day)", "(Costs 2 Actions)".
pub fn bare_name(name: &str) -> &str {
    name.split('(').next().unwrap_or(name).trim()
}

/// An attack the engine can roll: an attack bonus and damage dice.
pub fn is_attack(a: &MonsterAction) -> bool {
    a.attack_bonus.is_some() && !a.damage.is_empty()
}

/// A save or damage effect the engine resolves: a DC or damage of its own, or named options
/// (breath weapons) that have them.
pub fn is_effect(a: &MonsterAction) -> bool {
    a.attack_bonus.is_none()
        && a.multiattack.is_none()
        && (a.dc.is_some()
            || !a.damage.is_empty()
            || a.options
                .iter()
                .any(|o| o.dc.is_some() || !o.damage.is_empty()))
}

/// The attacks of a Multiattack the engine makes in its first set (the fixed steps, then the
/// first option), when every step of every set names one of the block's entries (an attack,
/// with form qualifiers and plurals set aside: "Claws" is the Claw; or a non-attack action it
/// uses on the way, or its spellcasting) with a count the engine reads (a number, dice, or
/// "Number of Heads").
pub fn multiattack_plan(m: &Monster, a: &MonsterAction) -> Option<Vec<(String, u32)>> {
    let ma = a.multiattack.as_ref()?;
    let bare = |n: &str| bare_name(n).to_lowercase();
    let entry = |step: &str| {
        let key = bare(step);
        let all = || m.actions.iter().chain(&m.special_abilities);
        all()
            .find(|x| bare(&x.name) == key)
            .or_else(|| {
                all().find(|x| {
                    let b = bare(&x.name);
                    key.strip_suffix('s') == Some(b.as_str())
                        || b.strip_suffix('s') == Some(key.as_str())
                })
            })
            .filter(|x| x.multiattack.is_none())
    };
    let sets: Vec<Vec<_>> = if ma.options.is_empty() {
        vec![ma.actions.iter().collect()]
    } else {
        ma.options
            .iter()
            .map(|o| ma.actions.iter().chain(o).collect())
            .collect()
    };
    if sets.iter().all(Vec::is_empty) {
        return None;
    }
    let mut plan = Vec::new();
    for (k, set) in sets.iter().enumerate() {
        for s in set {
            let counted = s.count > 0
                || s.count_text.as_deref().is_some_and(|t| {
                    t.to_lowercase().contains("head") || tabletop_rules::dice::parse(t).is_ok()
                });
            if !counted {
                return None;
            }
            let spell = s.action_name.to_lowercase().contains("spellcasting");
            let target = entry(&s.action_name);
            if target.is_none() && !spell {
                return None;
            }
            if k == 0
                && let Some(t) = target.filter(|t| is_attack(t))
            {
                plan.push((t.name.clone(), s.count));
            }
        }
    }
    Some(plan)
}

/// The skill check an ability makes ("makes a Wisdom (Perception) check"), as written.
pub fn check_in(desc: &str) -> Option<String> {
    let l = desc.to_lowercase();
    let i = l.find("makes a ")?;
    let rest = &l[i..];
    let open = rest.find('(')?;
    let close = rest.find(") check")?;
    rest.get(open + 1..close).map(str::to_string)
}

/// "makes a tail attack": the attack of the block it names.
pub fn named_attack<'m>(m: &'m Monster, desc: &str) -> Option<&'m MonsterAction> {
    let l = desc.to_lowercase();
    let i = l.find("makes ")?;
    let rest = &l[i + 6..];
    let end = rest.find(" attack")?;
    let word = rest[..end].split_whitespace().last()?.to_string();
    m.actions.iter().find(|a| {
        is_attack(a)
            && bare_name(&a.name)
                .to_lowercase()
                .split_whitespace()
                .any(|w| w == word)
    })
}

/// The encoding of one ability of `m`.
pub fn classify(m: &Monster, section: Section, a: &MonsterAction) -> Encoding {
    let name = bare_name(&a.name);
    if section == Section::Special {
        if APPLIED_TRAITS.iter().any(|t| name.eq_ignore_ascii_case(t))
            && (name != "Spellcasting" || a.spellcasting.is_some())
        {
            return Encoding::Mechanical(Automation::Trait);
        }
        if is_effect(a) && a.usage.is_some() {
            return Encoding::Mechanical(Automation::Effect);
        }
        return Encoding::Narrative(narrative_reason(name, &a.desc));
    }
    if a.multiattack.is_some() {
        return match multiattack_plan(m, a) {
            Some(_) => Encoding::Mechanical(Automation::Multiattack),
            None => Encoding::Narrative(format!(
                "{name}: its attacks are chosen in prose (\"{}\"); make each attack with execute_action",
                first_sentence(&a.desc)
            )),
        };
    }
    if let Some(named) = named_attack(m, &a.desc) {
        // The engine makes the named attack of the block ("makes one tail attack").
        return if section == Section::Legendary || !is_effect(a) {
            Encoding::Mechanical(Automation::NamedAttack)
        } else {
            Encoding::Narrative(format!(
                "no automation for {name} beyond its {} attack: the engine rolls that attack, the DM applies the rest of its text",
                named.name
            ))
        };
    }
    if is_attack(a) {
        // A legendary action's own attack is rolled only when the block's actions list it.
        return if section != Section::Legendary
            || m.actions
                .iter()
                .any(|x| x.name.eq_ignore_ascii_case(&a.name))
        {
            Encoding::Mechanical(Automation::Attack)
        } else {
            Encoding::Narrative(format!(
                "no automation for {name}: its attack is not one of the block's actions; roll it with execute_action attack and a bonus"
            ))
        };
    }
    if is_effect(a) {
        return Encoding::Mechanical(Automation::Effect);
    }
    if check_in(&a.desc).is_some() {
        return Encoding::Mechanical(Automation::Check);
    }
    Encoding::Narrative(narrative_reason(name, &a.desc))
}

fn first_sentence(desc: &str) -> &str {
    desc.split(". ")
        .next()
        .unwrap_or(desc)
        .trim_end_matches('.')
}

/// Why an ability is left to the DM, by family; the fallback names the ability.
pub fn narrative_reason(name: &str, desc: &str) -> String {
    let n = name.to_lowercase();
    let d = desc.to_lowercase();
    let why = if n.starts_with("keen ") {
        "advantage on Perception checks that rely on that sense: the DM grants it when a check uses the sense"
    } else if n.contains("amphibious")
        || n.contains("water breathing")
        || n.contains("hold breath")
        || n.contains("limited amphibiousness")
    {
        "breathing and swimming: no effect on rolls; the DM narrates it"
    } else if n.contains("sunlight sensitivity") || n.contains("sunlight hypersensitivity") {
        "disadvantage on attacks and sight-based Perception in sunlight: the engine tracks no light level, so the DM gives the disadvantage"
    } else if n.contains("rejuvenation") {
        "coming back after it is destroyed is applied by the DM with update_character"
    } else if n.contains("spider climb") || n.contains("web walker") || n.contains("ice walk") {
        "climbing or moving on webs and ice: movement on walls is the DM's call"
    } else if n.contains("shapechanger") || n.contains("change shape") {
        "changing form: the DM swaps the stat block"
    } else if n.contains("false appearance")
        || n.contains("camouflage")
        || n.contains("mimicry")
        || n.contains("invisib")
    {
        "hiding and deception: the DM decides what creatures notice"
    } else if n.contains("charge") || n.contains("pounce") || n.contains("trampl") {
        "extra damage or a knockdown after moving a distance straight at a target: the DM adds it (execute_action damage)"
    } else if n.contains("swarm") {
        "a swarm's shared space and squeezing are run by the DM"
    } else if n.contains("telepath")
        || n.contains("sense")
        || n.contains("sight")
        || n.contains("echolocation")
    {
        "a sense or communication: no roll to make; the DM narrates what it perceives"
    } else if n.contains("innate spellcasting") {
        "innate spells at will or N/day: cast them with cast_spell using its DC; uses are tracked by the DM"
    } else if d.contains("legendary action") || n.contains("move") || n.contains("teleport") {
        "movement or repositioning: move the creature on the map with execute_action move"
    } else if n.contains("parry") || d.contains("reaction") {
        "a reaction whose trigger the DM judges: apply its effect with execute_action or update_character"
    } else if n.contains("cast a spell") || n.contains("cantrip") {
        "casting one of its spells: use cast_spell for the spell it chooses"
    } else if n.contains("weakness") || n.contains("susceptibility") || n.contains("aversion") {
        "a weakness the DM applies when its trigger happens"
    } else if n.contains("death burst") || n.contains("demise") {
        "something that happens when it dies: the DM resolves it (execute_action with a save)"
    } else if n.contains("immutable") || n.contains("amorphous") || n.contains("incorporeal") {
        "form and movement through spaces: the DM rules on it"
    } else {
        ""
    };
    if why.is_empty() {
        format!("no automation for {name}: the DM applies its text")
    } else {
        format!("no automation for {name}: {why}")
    }
}

/// Every ability of `m` with its section.
pub fn abilities(m: &Monster) -> impl Iterator<Item = (Section, &MonsterAction)> {
    m.special_abilities
        .iter()
        .map(|a| (Section::Special, a))
        .chain(m.actions.iter().map(|a| (Section::Action, a)))
        .chain(m.legendary_actions.iter().map(|a| (Section::Legendary, a)))
        .chain(m.reactions.iter().map(|a| (Section::Reaction, a)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reasons_name_the_ability_and_the_family() {
        assert_eq!(
            narrative_reason("Keen Smell", "The wolf has advantage"),
            "no automation for Keen Smell: advantage on Perception checks that rely on that sense: the DM grants it when a check uses the sense"
        );
        assert_eq!(
            narrative_reason("Heated Body", "A creature that touches"),
            "no automation for Heated Body: the DM applies its text"
        );
        assert_eq!(bare_name("Fire Breath (Recharge 5-6)"), "Fire Breath");
        assert_eq!(
            check_in("The dragon makes a Wisdom (Perception) check.").as_deref(),
            Some("perception")
        );
    }
}
