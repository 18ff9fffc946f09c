//! What a stat-block attack does on a hit beyond its damage, read from its SRD text (pure: rules
//! and SRD types only). Besides the saving-throw rider of [`super::monsters::rider_in`]:
//!
//! - who the rider spares: "If the target is a creature other than an elf or undead", "If the
//!   target is a Medium or smaller creature", "If the target is a humanoid" ([`Limits`]);
//! - a grapple on a hit: "the target is grappled (escape DC 14). Until this grapple ends, the
//!   creature is restrained" ([`HitGrapple`]);
//! - a drain: "its hit point maximum is reduced by an amount equal to the damage taken … until
//!   the target finishes a long rest", "the target's Strength score is reduced by 1d4 … until
//!   the target finishes a short or long rest" ([`Drain`]);
//! - the sentences of those parts the engine does not apply, said to the DM ([`OnHit::manual`]).
//!
//! The use case that applies them is `combat::actions::hit_save`.

use tabletop_rules::{Ability, Condition, Size};

use super::monsters::{HitRider, conditions_in, dc_in, rider_in};

/// The creature types of the SRD, as its stat blocks name them.
const CREATURE_TYPES: &[&str] = &[
    "aberration",
    "beast",
    "celestial",
    "construct",
    "dragon",
    "elemental",
    "fey",
    "fiend",
    "giant",
    "humanoid",
    "monstrosity",
    "ooze",
    "plant",
    "undead",
];

/// Who a hit's rider affects, as its text limits it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Limits {
    /// Kinds of creature the rider spares ("other than an elf or undead": `["elf", "undead"]`):
    /// creature types, or a race ("elf").
    pub not_kinds: Vec<String>,
    /// The only creature types the rider affects ("If the target is a humanoid").
    pub only_types: Vec<String>,
    /// The largest size it affects ("Medium or smaller").
    pub max_size: Option<Size>,
}

impl Limits {
    /// Whether the text limits the rider at all.
    pub fn any(&self) -> bool {
        !self.not_kinds.is_empty() || !self.only_types.is_empty() || self.max_size.is_some()
    }
}

/// A grapple a hit imposes: "the target is grappled (escape DC 14)".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HitGrapple {
    /// The DC of a check to escape it.
    pub escape_dc: i32,
    /// Conditions the target has until the grapple ends ("Until this grapple ends, the target
    /// is restrained").
    pub while_held: Vec<Condition>,
    /// Only when the attacker holds no other creature ("if the behir isn't already
    /// constricting a creature").
    pub one_at_a_time: bool,
    /// What its text says that the engine does not apply ("the snake can't constrict another
    /// target"), as written.
    pub manual: Vec<String>,
}

/// What a drain reduces.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DrainKind {
    /// The hit point maximum, by the damage taken (of one type, when the text names it: a
    /// vampire's "necrotic damage taken").
    MaxHp {
        /// Only this type's damage counts.
        of_type: Option<tabletop_rules::DamageType>,
        /// The attacker regains hit points equal to the reduction (a vampire's bite).
        heals_attacker: bool,
    },
    /// The Strength score, by these dice ("1d4").
    Strength {
        /// The dice.
        dice: String,
    },
}

/// A drain on a hit: a lasting reduction, with the save that prevents it when the text gives
/// one; the target dies if it reduces the value to 0.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Drain {
    /// What is reduced.
    pub kind: DrainKind,
    /// The save that prevents it: DC and ability.
    pub save: Option<(i32, Ability)>,
    /// It lasts until a short or a long rest (else until a long rest).
    pub short_rest_ends: bool,
    /// What its text says that the engine does not apply ("A humanoid slain by this attack
    /// rises 24 hours later as a zombie"), as written.
    pub manual: Vec<String>,
}

/// Conditions a hit imposes with neither a save nor a grapple: "Hit: The target is restrained
/// by webbing" (a giant spider's or an ettercap's Web).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HitBind {
    /// The conditions.
    pub conditions: Vec<Condition>,
    /// The check that ends them, as an action: "a DC 12 Strength check" → (12, Strength).
    pub escape: Option<(i32, Ability)>,
    /// The text's other sentences, as written ("The webbing can also be attacked and destroyed
    /// (AC 10; hp 5; …)").
    pub manual: Vec<String>,
}

/// Everything a stat-block attack's text does on a hit beyond its damage.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct OnHit {
    /// Who it affects.
    pub limits: Limits,
    /// The saving-throw rider (damage, conditions, or a consequence left to the DM).
    pub save: Option<HitRider>,
    /// A grapple.
    pub grapple: Option<HitGrapple>,
    /// A drain.
    pub drain: Option<Drain>,
    /// Conditions without a save (a Web's restrained).
    pub bind: Option<HitBind>,
    /// What a failed save brings that the engine does not apply (a disease's course, a
    /// swallowed creature's fate), as written.
    pub save_manual: Vec<String>,
}

impl OnHit {
    /// Whether there is anything to do or say.
    pub fn is_empty(&self) -> bool {
        self.save.is_none() && self.grapple.is_none() && self.drain.is_none() && self.bind.is_none()
    }
}

/// The sentences of `text` (a paragraph break ends one too), trimmed, without their full stop.
fn sentences(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for para in text.split('\n') {
        let mut rest = para.trim();
        while !rest.is_empty() {
            let end = rest.find(". ").map_or(rest.len(), |i| i + 1);
            let s = rest[..end].trim().trim_end_matches('.').trim();
            if !s.is_empty() {
                out.push(s.to_string());
            }
            rest = rest[end..].trim_start();
        }
    }
    out
}

/// "an elf or undead" → `["elf", "undead"]`.
fn kinds_list(s: &str) -> Vec<String> {
    s.split(" or ")
        .map(|w| {
            let w = w.trim();
            w.strip_prefix("an ")
                .or_else(|| w.strip_prefix("a "))
                .unwrap_or(w)
                .trim()
                .to_string()
        })
        .filter(|w| !w.is_empty())
        .collect()
}

/// Who the rider of a hit's text (lowercase, from "hit:") affects; `whole` is the whole
/// lowercase description (a size limit may stand in the attack's target line: "one Large or
/// smaller creature").
fn limits_in(hit: &str, whole: &str) -> Limits {
    let mut l = Limits::default();
    if let Some(i) = hit.find("other than ") {
        let rest = &hit[i + "other than ".len()..];
        let end = rest.find([',', '.']).unwrap_or(rest.len());
        l.not_kinds = kinds_list(&rest[..end]);
    }
    for lead in ["if the target is a ", "if the target is an "] {
        if let Some(i) = hit.find(lead) {
            let word: String = hit[i + lead.len()..]
                .chars()
                .take_while(char::is_ascii_alphabetic)
                .collect();
            if CREATURE_TYPES.contains(&word.as_str()) {
                l.only_types.push(word);
            }
        }
    }
    if let Some(i) = whole.find(" or smaller") {
        l.max_size = whole[..i]
            .split_whitespace()
            .last()
            .and_then(|w| w.parse().ok());
    }
    l
}

/// The grapple of a hit's text (lowercase, from "hit:"), and what of it is left to the DM.
fn grapple_in(hit: &str, orig: &[String]) -> Option<HitGrapple> {
    let mut manual = Vec::new();
    let key = "grappled (escape dc ";
    let i = hit.find(key)?;
    let escape_dc = hit[i + key.len()..]
        .split(|c: char| !c.is_ascii_digit())
        .next()?
        .parse()
        .ok()?;
    let all = sentences(hit);
    let at = all.iter().position(|s| s.contains(key))?;
    let mut while_held = Vec::new();
    let own = &all[at];
    if own.contains("grapple ends") {
        while_held.extend(conditions_in(own));
    }
    if let Some(j) = own.find(" doesn't have ") {
        let from = own[..j].rfind(" and ").map_or(0, |k| k + 5);
        let written = orig.get(at).unwrap_or(own);
        manual.push(format!(
            "grappled only if {}",
            written.get(from..).unwrap_or(&own[from..])
        ));
    }
    for (k, s) in all.iter().enumerate().skip(at + 1) {
        let written = orig.get(k).unwrap_or(s);
        let held =
            s.starts_with("until this grapple ends") || s.starts_with("until the grapple ends");
        if !held {
            manual.push(written.clone());
            continue;
        }
        while_held.extend(conditions_in(s));
        for (clause, as_written) in s.split(", ").zip(written.split(", ")).skip(1) {
            let c = clause.trim().trim_start_matches("and ").trim();
            if !condition_only(c) {
                let w = as_written.trim();
                manual.push(w.strip_prefix("and ").unwrap_or(w).to_string());
            }
        }
    }
    while_held.dedup();
    Some(HitGrapple {
        escape_dc,
        while_held,
        one_at_a_time: own.contains("isn't already"),
        manual,
    })
}

/// "the target is restrained", "blinded": a clause that only names conditions.
fn condition_only(clause: &str) -> bool {
    let mut rest = clause;
    for lead in ["the target is ", "the creature is "] {
        rest = rest.strip_prefix(lead).unwrap_or(rest);
    }
    let words: Vec<&str> = rest
        .split(|c: char| !c.is_ascii_alphabetic())
        .filter(|w| !w.is_empty() && *w != "and")
        .collect();
    !words.is_empty()
        && words.iter().all(|w| {
            w.parse::<Condition>()
                .is_ok_and(|c| c != Condition::Exhaustion)
        })
}

/// The drain of a hit's text (lowercase, from "hit:"), and what of it is left to the DM.
fn drain_in(hit: &str, orig: &[String]) -> Option<Drain> {
    let mut manual = Vec::new();
    let all = sentences(hit);
    let max_hp = all
        .iter()
        .find(|s| s.contains("hit point maximum is reduced by an amount equal to"));
    let strength = all
        .iter()
        .find(|s| s.contains("strength score is reduced by "));
    let (sentence, kind) = match (max_hp, strength) {
        (Some(s), _) => {
            let of_type = s
                .split("equal to the ")
                .nth(1)
                .and_then(|r| r.split_whitespace().next())
                .and_then(|w| w.parse().ok());
            let heals_attacker = hit.contains("regains hit points equal to that amount");
            (
                s,
                DrainKind::MaxHp {
                    of_type,
                    heals_attacker,
                },
            )
        }
        (None, Some(s)) => {
            let at =
                s.find("strength score is reduced by ")? + "strength score is reduced by ".len();
            let dice: String = s[at..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '+')
                .collect();
            tabletop_rules::dice::parse(&dice).ok()?;
            (s, DrainKind::Strength { dice })
        }
        (None, None) => return None,
    };
    let save = sentence
        .contains("saving throw or")
        .then(|| dc_in(sentence))
        .flatten();
    // The sentences the drain applies: the reduction, how long it lasts, death at 0; the
    // damage line itself ("Hit: 9 (2d6 + 2) necrotic damage, and …") is the attack's.
    let applied = [
        "is reduced by",
        "reduction lasts",
        "dies if this",
        "hit:",
        "vampire regains",
    ];
    for (k, s) in all.iter().enumerate() {
        if !applied.iter().any(|a| s.contains(a)) {
            manual.push(orig.get(k).unwrap_or(s).clone());
        }
    }
    Some(Drain {
        kind,
        save,
        short_rest_ends: hit.contains("short or long rest"),
        manual,
    })
}

/// What a failed save brings that the engine does not apply ("be cursed with mummy rot",
/// "lose 5 (1d10) hit points at the start of each of its turns due to an infernal wound"), and
/// the sentences after it that describe it.
fn consequence_in(
    hit: &str,
    orig: &[String],
    rider: &HitRider,
    manual: &mut Vec<String>,
) -> Option<String> {
    let all = sentences(hit);
    let at = all.iter().position(|s| failure_at(s).is_some())?;
    let s = &all[at];
    let what = s[failure_at(s)?..].to_string();
    let said = rider.damage.is_some() || !rider.conditions.is_empty();
    // A disease or a curse goes on after the failed save ("Every 24 hours that elapse …"), and
    // a swallowed creature's fate is told after it: those sentences are the DM's too.
    if !said
        || ["disease", "curse", "swallow"]
            .iter()
            .any(|w| what.contains(w))
    {
        manual.extend((at + 1..all.len()).map(|k| orig.get(k).unwrap_or(&all[k]).clone()));
    }
    let written = orig
        .get(at)
        .and_then(|w| w.get(failure_at(s)?..))
        .unwrap_or(what.as_str());
    (!said).then(|| written.to_string())
}

/// Where a failed save's consequence begins in a sentence: after "saving throw or " or
/// "saving throw against disease or ".
fn failure_at(s: &str) -> Option<usize> {
    let i = s.find("saving throw")?;
    let j = s[i..].find(" or ")?;
    // "saving throw against disease or": a few words at most between the two.
    (j <= "saving throw against disease".len()).then_some(i + j + 4)
}

/// The conditions of a hit's text (lowercase, from "hit:") that its first sentence imposes with
/// neither damage, a save nor a grapple ("hit: the target is restrained by webbing"), the check
/// that ends them and the other sentences, as written.
fn bind_in(hit: &str, orig: &[String]) -> Option<HitBind> {
    let all = sentences(hit);
    let first = all.first()?.trim_start_matches("hit:").trim();
    let imposes = ["the target is ", "the creature is "]
        .iter()
        .any(|lead| first.starts_with(lead));
    if !imposes || first.contains("damage") || hit.contains("saving throw") {
        return None;
    }
    let conditions = conditions_in(first);
    if conditions.is_empty() {
        return None;
    }
    let mut escape = None;
    let mut manual = Vec::new();
    for (k, s) in all.iter().enumerate().skip(1) {
        if escape.is_none()
            && let Some(i) = s.find(" strength check")
        {
            let dc = s[..i]
                .rsplit("dc ")
                .next()
                .and_then(|n| n.trim().parse().ok());
            if let Some(dc) = dc {
                escape = Some((dc, Ability::Strength));
                continue;
            }
        }
        manual.push(orig.get(k).unwrap_or(s).clone());
    }
    Some(HitBind {
        conditions,
        escape,
        manual,
    })
}

/// What `desc`, a stat-block attack's text, does on a hit beyond its damage.
pub fn on_hit(desc: &str) -> OnHit {
    let whole = desc.to_lowercase();
    let Some(i) = whole.find("hit:") else {
        return OnHit::default();
    };
    let hit = &whole[i..];
    // The sentences as written, for what is said to the DM (lowercasing the SRD's text keeps
    // its byte offsets; when it would not, the lowercase text is said).
    let orig = if whole.len() == desc.len() {
        sentences(&desc[i..])
    } else {
        Vec::new()
    };
    let mut out = OnHit {
        limits: limits_in(hit, &whole),
        ..Default::default()
    };
    out.drain = drain_in(hit, &orig);
    if out.drain.is_none() {
        out.grapple = grapple_in(hit, &orig);
    }
    if out.drain.is_none() && out.grapple.is_none() {
        out.bind = bind_in(hit, &orig);
    }
    if out.drain.is_none() {
        out.save = rider_in(desc).or_else(|| {
            // A save whose failure the engine does not apply is still rolled, and its
            // consequence said.
            let s = sentences(hit)
                .into_iter()
                .find(|s| failure_at(s).is_some())?;
            let (dc, ability) = dc_in(&s)?;
            // "saving throw against disease or become poisoned until the disease is cured".
            let what = &s[failure_at(&s)?..];
            Some(HitRider {
                dc,
                ability,
                damage: None,
                half_on_success: false,
                conditions: conditions_in(what),
                at_zero: false,
                otherwise: None,
            })
        });
        if let Some(r) = out.save.as_mut() {
            let mut manual = Vec::new();
            r.otherwise = consequence_in(hit, &orig, r, &mut manual);
            out.save_manual = manual;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exclusions_sizes_grapples_and_drains_are_read() {
        let ghoul = on_hit(
            "Melee Weapon Attack: +4 to hit, reach 5 ft., one target. Hit: 7 (2d4 + 2) slashing damage. If the target is a creature other than an elf or undead, it must succeed on a DC 10 Constitution saving throw or be paralyzed for 1 minute.",
        );
        assert_eq!(ghoul.limits.not_kinds, vec!["elf", "undead"]);
        assert_eq!(
            ghoul.save.as_ref().map(|r| r.conditions.clone()),
            Some(vec![Condition::Paralyzed])
        );
        let snake = on_hit(
            "Melee Weapon Attack: +4 to hit, reach 5 ft., one creature. Hit: 6 (1d8 + 2) bludgeoning damage, and the target is grappled (escape DC 14). Until this grapple ends, the creature is restrained, and the snake can't constrict another target.",
        );
        assert_eq!(
            snake.grapple,
            Some(HitGrapple {
                escape_dc: 14,
                while_held: vec![Condition::Restrained],
                one_at_a_time: false,
                manual: vec!["the snake can't constrict another target".into()],
            })
        );
        let rex = on_hit(
            "Hit: 33 (4d12 + 7) piercing damage. If the target is a Medium or smaller creature, it is grappled (escape DC 17).",
        );
        assert_eq!(rex.limits.max_size, Some(Size::Medium));
        let shadow = on_hit(
            "Hit: 9 (2d6 + 2) necrotic damage, and the target's Strength score is reduced by 1d4. The target dies if this reduces its Strength to 0. Otherwise, the reduction lasts until the target finishes a short or long rest.\nIf a non-evil humanoid dies from this attack, a new shadow rises from the corpse 1d4 hours later.",
        );
        assert_eq!(
            shadow.drain,
            Some(Drain {
                kind: DrainKind::Strength { dice: "1d4".into() },
                save: None,
                short_rest_ends: true,
                manual: vec![
                    "If a non-evil humanoid dies from this attack, a new shadow rises from the corpse 1d4 hours later".into()
                ],
            })
        );
        let web = on_hit(
            "Ranged Weapon Attack: +5 to hit, range 30/60 ft., one creature. Hit: The target is restrained by webbing. As an action, the restrained target can make a DC 12 Strength check, bursting the webbing on a success. The webbing can also be attacked and destroyed (AC 10; hp 5; vulnerability to fire damage; immunity to bludgeoning, poison, and psychic damage).",
        );
        assert_eq!(
            web.bind,
            Some(HitBind {
                conditions: vec![Condition::Restrained],
                escape: Some((12, Ability::Strength)),
                manual: vec!["The webbing can also be attacked and destroyed (AC 10; hp 5; vulnerability to fire damage; immunity to bludgeoning, poison, and psychic damage)".into()],
            })
        );
        assert!(web.save.is_none() && web.grapple.is_none());
        assert!(snake.bind.is_none() && ghoul.bind.is_none());
        let wound = on_hit(
            "Hit: 8 (1d10 + 3) slashing damage. If the target is a creature other than an undead or a construct, it must succeed on a DC 12 Constitution saving throw or lose 5 (1d10) hit points at the start of each of its turns due to an infernal wound. Each time the devil hits the wounded target with this attack, the damage dealt by the wound increases by 5 (1d10).",
        );
        assert_eq!(wound.limits.not_kinds, vec!["undead", "construct"]);
        assert_eq!(
            wound.save.and_then(|r| r.otherwise).as_deref(),
            Some(
                "lose 5 (1d10) hit points at the start of each of its turns due to an infernal wound"
            )
        );
    }
}
