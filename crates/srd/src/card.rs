//! Compact text cards of records, for a language model to read.

use std::fmt::Write;

use crate::entry::Entry;
use crate::model::*;

/// A record that can render itself as a compact text card.
pub trait Card {
    /// The card: a header line of key facts, then the rules text.
    fn card(&self) -> String;
}

/// "1st", "2nd", "3rd", "4th", …
pub fn ordinal(n: u8) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, x) if x != 11 => "st",
        (2, x) if x != 12 => "nd",
        (3, x) if x != 13 => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// Challenge rating as written in stat blocks ("1/4", "2").
pub fn cr_text(cr: f32) -> String {
    if cr == 0.125 {
        "1/8".into()
    } else if cr == 0.25 {
        "1/4".into()
    } else if cr == 0.5 {
        "1/2".into()
    } else {
        format!("{cr}")
    }
}

fn signed(n: i32) -> String {
    if n >= 0 {
        format!("+{n}")
    } else {
        n.to_string()
    }
}

fn names(v: &[Ref]) -> String {
    v.iter()
        .map(|r| r.name.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

fn body(out: &mut String, desc: &[String]) {
    for p in desc {
        if !p.trim().is_empty() {
            out.push('\n');
            out.push_str(p.trim_end());
        }
    }
}

fn level_school(s: &Spell) -> String {
    let school = s.school.name.to_lowercase();
    let ritual = if s.ritual { " (ritual)" } else { "" };
    if s.level == 0 {
        format!("{school} cantrip{ritual}")
    } else {
        format!("{}-level {school}{ritual}", ordinal(s.level))
    }
}

fn abbr_range(s: &str) -> String {
    s.replace(" feet", " ft").replace(" foot", " ft")
}

fn scaling(map: &std::collections::BTreeMap<u8, String>, label: &str) -> Option<String> {
    let mut it = map.iter();
    let (_, base) = it.next()?;
    let rest: Vec<String> = it.map(|(k, v)| format!("{k}: {v}")).collect();
    Some(if rest.is_empty() {
        base.clone()
    } else {
        format!("{base} ({label} {})", rest.join(", "))
    })
}

impl Card for Spell {
    fn card(&self) -> String {
        let mut parts = vec![
            format!("{} — {}", self.name, level_school(self)),
            self.casting_time.clone(),
            abbr_range(&self.range),
        ];
        let mut comps = self.components.join(", ");
        if let Some(m) = &self.material {
            let m = m.trim().trim_end_matches('.');
            let mut chars = m.chars();
            let m = match chars.next() {
                Some(c) => c.to_lowercase().chain(chars).collect::<String>(),
                None => String::new(),
            };
            let _ = write!(comps, " ({m})");
        }
        parts.push(comps);
        parts.push(self.duration.clone());
        if let Some(a) = self.attack_type {
            parts.push(match a {
                AttackRange::Melee => "melee spell attack".into(),
                AttackRange::Ranged => "ranged spell attack".into(),
            });
        }
        if let Some(d) = &self.damage {
            let ty = d.damage_type.map(|t| format!(" {t}")).unwrap_or_default();
            let s = if !d.at_slot_level.is_empty() {
                scaling(&d.at_slot_level, "slot").map(|s| insert_type(&s, &ty))
            } else {
                scaling(&d.at_character_level, "level").map(|s| insert_type(&s, &ty))
            };
            if let Some(s) = s {
                parts.push(format!("damage {s}"));
            }
        }
        if let Some(h) = scaling(&self.heal_at_slot_level, "slot") {
            parts.push(format!("heals {h}"));
        }
        if let Some(dc) = &self.dc {
            parts.push(match dc.success {
                SaveEffect::Half => format!("{} save, half", dc.ability.abbr()),
                SaveEffect::None => format!("{} save, negates", dc.ability.abbr()),
                SaveEffect::Other => format!("{} save", dc.ability.abbr()),
            });
        }
        if let Some(a) = &self.area_of_effect {
            parts.push(format!("{}-ft {}", a.size, serde_key(&a.shape)));
        }
        if !self.classes.is_empty() {
            parts.push(format!("classes: {}", names(&self.classes)));
        }
        let mut out = parts.join(" | ");
        body(&mut out, &self.desc);
        if !self.higher_level.is_empty() {
            out.push_str("\nAt higher levels:");
            body(&mut out, &self.higher_level);
        }
        out
    }
}

/// "8d6 (slot 4: 9d6)" + " fire" → "8d6 fire (slot 4: 9d6)".
fn insert_type(s: &str, ty: &str) -> String {
    match s.find(" (") {
        Some(p) => format!("{}{ty}{}", &s[..p], &s[p..]),
        None => format!("{s}{ty}"),
    }
}

fn serde_key<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_value(v)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

fn usage_text(u: &Usage) -> String {
    match (u.kind.as_str(), u.times, u.min_value) {
        ("per day", Some(n), _) => format!(" ({n}/Day)"),
        ("recharge on roll", _, Some(6)) => " (Recharge 6)".into(),
        ("recharge on roll", _, Some(m)) => format!(" (Recharge {m}–6)"),
        ("recharge after rest", _, _) => {
            format!(
                " (Recharges after a {})",
                u.rest_types
                    .join(" or ")
                    .replace("short", "Short")
                    .replace("long", "Long")
                    + " Rest"
            )
        }
        _ => String::new(),
    }
}

fn actions(out: &mut String, title: &str, list: &[MonsterAction]) {
    if list.is_empty() {
        return;
    }
    let _ = write!(out, "\n{title}:");
    for a in list {
        let u = a.usage.as_ref().map(usage_text).unwrap_or_default();
        let _ = write!(out, "\n- {}{u}. {}", a.name, a.desc.trim());
    }
}

impl Card for Monster {
    fn card(&self) -> String {
        let mut out = String::new();
        let sub = self
            .subtype
            .as_ref()
            .map(|s| format!(" ({s})"))
            .unwrap_or_default();
        let _ = write!(
            out,
            "{} — {} {}{sub}, {}",
            self.name,
            serde_key(&self.size).to_uppercase_first(),
            self.creature_type,
            self.alignment
        );
        let ac: Vec<String> = self
            .armor_class
            .iter()
            .map(|a| {
                if a.source.is_empty() {
                    if a.kind == "dex" {
                        a.value.to_string()
                    } else {
                        format!("{} ({} armor)", a.value, a.kind)
                    }
                } else {
                    format!("{} ({})", a.value, a.source.join(", ").to_lowercase())
                }
            })
            .collect();
        let mut speed = Vec::new();
        for (label, v) in [
            ("", self.speed.walk),
            ("burrow ", self.speed.burrow),
            ("climb ", self.speed.climb),
            ("fly ", self.speed.fly),
            ("swim ", self.speed.swim),
        ] {
            if let Some(v) = v {
                let hover = if label == "fly " && self.speed.hover {
                    " (hover)"
                } else {
                    ""
                };
                speed.push(format!("{label}{v} ft.{hover}"));
            }
        }
        let _ = write!(
            out,
            "\nAC {} | HP {} ({}) | Speed {}",
            ac.join(", "),
            self.hit_points,
            self.hit_points_roll_or_dice(),
            speed.join(", ")
        );
        let s = &self.scores;
        let scores: Vec<String> = tabletop_rules::Ability::ALL
            .iter()
            .map(|a| format!("{} {} ({})", a.abbr(), s.get(*a), signed(s.modifier(*a))))
            .collect();
        let _ = write!(out, "\n{}", scores.join(" | "));
        let mut extra = Vec::new();
        if !self.saving_throws.is_empty() {
            let v: Vec<String> = self
                .saving_throws
                .iter()
                .map(|(a, b)| format!("{} {}", a.abbr(), signed(*b)))
                .collect();
            extra.push(format!("Saves {}", v.join(", ")));
        }
        if !self.skills.is_empty() {
            let v: Vec<String> = self
                .skills
                .iter()
                .map(|(k, b)| {
                    format!(
                        "{} {}",
                        serde_key(k).replace('_', " ").to_uppercase_first(),
                        signed(*b)
                    )
                })
                .collect();
            extra.push(format!("Skills {}", v.join(", ")));
        }
        for (label, v) in [
            ("Vulnerable", &self.damage_vulnerabilities),
            ("Resist", &self.damage_resistances),
            ("Immune", &self.damage_immunities),
        ] {
            if !v.is_empty() {
                extra.push(format!("{label} {}", v.join("; ")));
            }
        }
        if !self.condition_immunities.is_empty() {
            let v: Vec<String> = self
                .condition_immunities
                .iter()
                .map(|c| c.to_string())
                .collect();
            extra.push(format!("Condition immunities {}", v.join(", ")));
        }
        if !extra.is_empty() {
            let _ = write!(out, "\n{}", extra.join(" | "));
        }
        let mut senses = Vec::new();
        for (label, v) in [
            ("blindsight", &self.senses.blindsight),
            ("darkvision", &self.senses.darkvision),
            ("tremorsense", &self.senses.tremorsense),
            ("truesight", &self.senses.truesight),
        ] {
            if let Some(v) = v {
                senses.push(format!("{label} {v}"));
            }
        }
        senses.push(format!(
            "passive Perception {}",
            self.senses.passive_perception
        ));
        let langs = if self.languages.is_empty() {
            "—"
        } else {
            self.languages.as_str()
        };
        let _ = write!(
            out,
            "\nSenses {} | Languages {langs} | CR {} ({} XP) | PB {}",
            senses.join(", "),
            cr_text(self.challenge_rating),
            self.xp,
            signed(self.proficiency_bonus)
        );
        actions(&mut out, "Traits", &self.special_abilities);
        actions(&mut out, "Actions", &self.actions);
        actions(&mut out, "Reactions", &self.reactions);
        actions(&mut out, "Legendary actions", &self.legendary_actions);
        out
    }
}

impl Monster {
    fn hit_points_roll_or_dice(&self) -> &str {
        if self.hit_points_roll.is_empty() {
            &self.hit_dice
        } else {
            &self.hit_points_roll
        }
    }
}

trait UpperFirst {
    fn to_uppercase_first(&self) -> String;
}

impl UpperFirst for str {
    fn to_uppercase_first(&self) -> String {
        let mut c = self.chars();
        match c.next() {
            Some(f) => f.to_uppercase().chain(c).collect(),
            None => String::new(),
        }
    }
}

impl Card for Class {
    fn card(&self) -> String {
        let saves: Vec<&str> = self.saving_throws.iter().map(|a| a.abbr()).collect();
        let mut parts = vec![
            format!("{} — class | hit die d{}", self.name, self.hit_die),
            format!("saves: {}", saves.join(", ")),
        ];
        if let Some(sc) = &self.skill_choices {
            let v: Vec<String> = sc
                .from
                .iter()
                .map(|s| serde_key(s).replace('_', " "))
                .collect();
            parts.push(format!(
                "skills: choose {} from {}",
                sc.choose,
                v.join(", ")
            ));
        }
        let or_none = |v: &[String]| {
            if v.is_empty() {
                "none".to_string()
            } else {
                v.join(", ")
            }
        };
        parts.push(format!("armor: {}", or_none(&self.armor_proficiencies)));
        parts.push(format!("weapons: {}", or_none(&self.weapon_proficiencies)));
        if !self.other_proficiencies.is_empty() {
            parts.push(format!("tools: {}", self.other_proficiencies.join("; ")));
        }
        if let Some(a) = self.spellcasting_ability {
            parts.push(format!(
                "spellcasting: {} ({} caster)",
                a.abbr(),
                serde_key(&self.caster_kind)
            ));
        }
        if !self.subclasses.is_empty() {
            parts.push(format!("subclasses: {}", names(&self.subclasses)));
        }
        let mut out = parts.join(" | ");
        body(&mut out, &self.proficiency_choices);
        out
    }
}

fn bonus_text(v: &[(tabletop_rules::Ability, i32)]) -> String {
    v.iter()
        .map(|(a, b)| format!("{} {}", a.abbr(), signed(*b)))
        .collect::<Vec<_>>()
        .join(", ")
}

fn traits_text(out: &mut String, traits: &[NamedText]) {
    for t in traits {
        let _ = write!(out, "\n- {}. {}", t.name, t.desc.join(" "));
    }
}

impl Card for Race {
    fn card(&self) -> String {
        let size = self
            .size
            .map(|s| serde_key(&s).to_uppercase_first())
            .unwrap_or_else(|| "Size varies".into());
        let mut parts = vec![format!(
            "{} — race | {size} | speed {} ft",
            self.name, self.speed
        )];
        if !self.ability_bonuses.is_empty() {
            parts.push(bonus_text(&self.ability_bonuses));
        }
        if let Some(c) = &self.ability_bonus_choice {
            parts.push(format!("choose {} of {}", c.choose, bonus_text(&c.from)));
        }
        if !self.languages.is_empty() {
            parts.push(format!("languages: {}", self.languages.join(", ")));
        }
        if !self.subraces.is_empty() {
            parts.push(format!("subraces: {}", names(&self.subraces)));
        }
        let mut out = parts.join(" | ");
        traits_text(&mut out, &self.traits);
        out
    }
}

impl Card for Subrace {
    fn card(&self) -> String {
        let mut out = format!(
            "{} — subrace of {} | {} (total {})",
            self.name,
            self.race.name,
            bonus_text(&self.ability_bonuses),
            bonus_text(&self.total_ability_bonuses)
        );
        body(&mut out, &self.desc);
        traits_text(&mut out, &self.traits);
        out
    }
}

fn dice_text(d: &Dice) -> String {
    match d.damage_type {
        Some(t) => format!("{} {t}", d.dice),
        None => d.dice.clone(),
    }
}

impl Card for Equipment {
    fn card(&self) -> String {
        let mut parts = vec![format!("{} — {}", self.name, equipment_line(self))];
        if let Some(w) = &self.weapon {
            if let Some(d) = &w.damage {
                let two = w
                    .two_handed_damage
                    .as_ref()
                    .map(|t| format!(" (two-handed {})", dice_text(t)))
                    .unwrap_or_default();
                parts.push(format!("{}{two}", dice_text(d)));
            }
            if w.range_kind == AttackRange::Ranged || w.long_range.is_some() {
                parts.push(format!(
                    "range {}/{} ft",
                    w.normal_range,
                    w.long_range.unwrap_or(w.normal_range)
                ));
            }
            if let Some((n, l)) = w.throw_range {
                parts.push(format!("thrown {n}/{l} ft"));
            }
            if !w.properties.is_empty() {
                parts.push(format!("properties: {}", names(&w.properties)));
            }
            if let Some(m) = &w.mastery {
                parts.push(format!("mastery: {}", m.name));
            }
        }
        if let Some(a) = &self.armor {
            let dex = match (a.dex_bonus, a.max_dex_bonus) {
                (true, Some(m)) => format!(" + Dex (max {m})"),
                (true, None) => " + Dex".into(),
                _ => String::new(),
            };
            if a.category == ArmorCategory::Shield {
                parts.push(format!("AC +{}", a.base_ac));
            } else {
                parts.push(format!("AC {}{dex}", a.base_ac));
            }
            if a.str_minimum > 0 {
                parts.push(format!("Str {}", a.str_minimum));
            }
            if a.stealth_disadvantage {
                parts.push("stealth disadvantage".into());
            }
        }
        if let Some(c) = &self.cost {
            parts.push(format!("{} {}", c.quantity, c.unit));
        }
        if let Some(w) = self.weight {
            parts.push(format!("{w} lb"));
        }
        let mut out = parts.join(" | ");
        if let Some(w) = &self.weapon {
            body(&mut out, &w.special);
        }
        body(&mut out, &self.desc);
        out
    }
}

fn equipment_line(e: &Equipment) -> String {
    if let Some(w) = &e.weapon {
        format!(
            "{} {} weapon",
            serde_key(&w.category),
            serde_key(&w.range_kind)
        )
    } else if let Some(a) = &e.armor {
        if a.category == ArmorCategory::Shield {
            "shield".into()
        } else {
            format!("{} armor", serde_key(&a.category))
        }
    } else {
        match &e.subcategory {
            Some(s) => format!("{} ({s})", e.category.name.to_lowercase()),
            None => e.category.name.to_lowercase(),
        }
    }
}

impl Card for MagicItem {
    fn card(&self) -> String {
        let att = match (&self.requires_attunement, &self.attunement_note) {
            (true, Some(n)) => format!("requires attunement {n}"),
            (true, None) => "requires attunement".into(),
            (false, _) => "no attunement".into(),
        };
        let mut out = format!(
            "{} — {}, {} | {att}",
            self.name,
            self.category.name,
            self.rarity.to_lowercase()
        );
        if !self.variants.is_empty() {
            let _ = write!(out, " | variants: {}", names(&self.variants));
        }
        body(&mut out, &self.desc);
        out
    }
}

/// Card of a record that is only a name and text.
fn plain(name: &str, what: &str, extra: &[String], desc: &[String]) -> String {
    let mut out = format!("{name} — {what}");
    for e in extra {
        let _ = write!(out, " | {e}");
    }
    body(&mut out, desc);
    out
}

impl Card for Entry<'_> {
    fn card(&self) -> String {
        match *self {
            Entry::Spell(x) => x.card(),
            Entry::Monster(x) => x.card(),
            Entry::Class(x) => x.card(),
            Entry::Race(x) => x.card(),
            Entry::Subrace(x) => x.card(),
            Entry::Equipment(x) => x.card(),
            Entry::MagicItem(x) => x.card(),
            Entry::Subclass(x) => plain(
                &x.name,
                &format!("{} subclass", x.class.name),
                &x.flavor.iter().cloned().collect::<Vec<_>>(),
                &x.desc,
            ),
            Entry::Background(x) => {
                let mut extra = Vec::new();
                if !x.proficiencies.is_empty() {
                    extra.push(format!("proficiencies: {}", names(&x.proficiencies)));
                }
                if let Some(f) = &x.feature {
                    extra.push(format!("feature: {}", f.name));
                }
                if let Some(f) = &x.feat {
                    extra.push(format!("feat: {}", f.name));
                }
                plain(&x.name, "background", &extra, &x.desc)
            }
            Entry::Feat(x) => {
                let pre: Vec<String> = x
                    .prerequisites
                    .iter()
                    .map(|p| format!("prerequisite: {} {}", p.ability.abbr(), p.minimum))
                    .collect();
                plain(&x.name, "feat", &pre, &x.desc)
            }
            Entry::Condition(x) => plain(&x.name, "condition", &[], &x.desc),
            Entry::Rule(x) => plain(
                &x.name,
                "rules chapter",
                &[format!("sections: {}", names(&x.subsections))],
                &x.desc,
            ),
            Entry::RuleSection(x) => plain(&x.name, "rules section", &[], &x.desc),
            Entry::Skill(x) => plain(
                &x.name,
                &format!("{} skill", x.ability.abbr()),
                &[],
                &x.desc,
            ),
            Entry::DamageType(x) => plain(&x.name, "damage type", &[], &x.desc),
            Entry::MagicSchool(x) => plain(&x.name, "school of magic", &[], &x.desc),
            Entry::Feature(x) => {
                let by = match &x.subclass {
                    Some(s) => format!("{} ({}) level {}", x.class.name, s.name, x.level),
                    None => format!("{} level {}", x.class.name, x.level),
                };
                plain(&x.name, &format!("feature | {by}"), &[], &x.desc)
            }
            Entry::Trait(x) => {
                let who: Vec<String> = if x.races.is_empty() && x.subraces.is_empty() {
                    Vec::new()
                } else {
                    vec![format!(
                        "{}",
                        names(&[x.races.clone(), x.subraces.clone()].concat())
                    )]
                };
                plain(&x.name, "racial trait", &who, &x.desc)
            }
            Entry::Proficiency(x) => {
                let mut extra = Vec::new();
                if !x.classes.is_empty() {
                    extra.push(format!("classes: {}", names(&x.classes)));
                }
                if !x.races.is_empty() {
                    extra.push(format!("races: {}", names(&x.races)));
                }
                plain(
                    &x.name,
                    &format!("proficiency ({})", x.category),
                    &extra,
                    &[],
                )
            }
            Entry::WeaponProperty(x) => plain(&x.name, "weapon property", &[], &x.desc),
            Entry::Language(x) => {
                let mut extra = Vec::new();
                if !x.typical_speakers.is_empty() {
                    extra.push(format!("speakers: {}", x.typical_speakers.join(", ")));
                }
                if let Some(s) = &x.script {
                    extra.push(format!("script: {s}"));
                }
                plain(
                    &x.name,
                    format!(
                        "{} language",
                        x.category.as_deref().unwrap_or("").to_lowercase()
                    )
                    .trim(),
                    &extra,
                    &x.desc,
                )
            }
            Entry::Alignment(x) => plain(
                &x.name,
                &format!("alignment ({})", x.abbreviation),
                &[],
                &x.desc,
            ),
        }
    }
}

/// The first sentence-ish of some text, at most `max` characters.
fn first_words(desc: &[String], max: usize) -> String {
    let text = desc
        .iter()
        .flat_map(|p| p.lines())
        .map(str::trim)
        .find(|s| !s.is_empty() && !s.starts_with('#'))
        .unwrap_or("");
    if text.chars().count() <= max {
        return text.to_string();
    }
    let cut: String = text.chars().take(max).collect();
    match cut.rfind(' ') {
        Some(p) => format!("{}…", &cut[..p]),
        None => format!("{cut}…"),
    }
}

/// A one-line summary of a record, for search hits.
pub fn summary(e: &Entry<'_>) -> String {
    match *e {
        Entry::Spell(s) => {
            let mut out = level_school(s);
            if s.concentration {
                out.push_str(", concentration");
            }
            out
        }
        Entry::Monster(m) => format!(
            "{} {}{}, CR {}",
            serde_key(&m.size).to_uppercase_first(),
            m.creature_type,
            m.subtype
                .as_ref()
                .map(|s| format!(" ({s})"))
                .unwrap_or_default(),
            cr_text(m.challenge_rating)
        ),
        Entry::Class(c) => format!(
            "d{} hit die, {} caster",
            c.hit_die,
            serde_key(&c.caster_kind)
        ),
        Entry::Subclass(s) => format!("{} subclass", s.class.name),
        Entry::Race(r) => format!("speed {} ft, {}", r.speed, bonus_text(&r.ability_bonuses)),
        Entry::Subrace(s) => format!(
            "subrace of {}, {}",
            s.race.name,
            bonus_text(&s.ability_bonuses)
        ),
        Entry::Equipment(q) => {
            let mut out = equipment_line(q);
            if let Some(d) = q.weapon.as_ref().and_then(|w| w.damage.as_ref()) {
                let _ = write!(out, ", {}", dice_text(d));
            }
            if let Some(a) = &q.armor {
                let _ = write!(out, ", AC {}", a.base_ac);
            }
            out
        }
        Entry::MagicItem(m) => format!(
            "{}, {}{}",
            m.category.name,
            m.rarity.to_lowercase(),
            if m.requires_attunement {
                " (requires attunement)"
            } else {
                ""
            }
        ),
        Entry::Feature(f) => format!("{} level {}", f.class.name, f.level),
        Entry::Proficiency(p) => p.category.clone(),
        Entry::Skill(s) => format!("{} skill", s.ability.abbr()),
        Entry::Background(x) => first_words(&x.desc, 80),
        Entry::Feat(x) => first_words(&x.desc, 80),
        Entry::Condition(x) => first_words(&x.desc, 80),
        Entry::Rule(x) => format!("rules chapter: {}", names(&x.subsections)),
        Entry::RuleSection(x) => first_words(&x.desc, 80),
        Entry::DamageType(x) => first_words(&x.desc, 80),
        Entry::MagicSchool(x) => first_words(&x.desc, 80),
        Entry::Trait(x) => first_words(&x.desc, 80),
        Entry::WeaponProperty(x) => first_words(&x.desc, 80),
        Entry::Language(x) => x.category.clone().unwrap_or_default(),
        Entry::Alignment(x) => x.abbreviation.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinals() {
        assert_eq!(ordinal(1), "1st");
        assert_eq!(ordinal(2), "2nd");
        assert_eq!(ordinal(3), "3rd");
        assert_eq!(ordinal(4), "4th");
        assert_eq!(ordinal(11), "11th");
    }

    #[test]
    fn cr_fractions() {
        assert_eq!(cr_text(0.25), "1/4");
        assert_eq!(cr_text(0.125), "1/8");
        assert_eq!(cr_text(17.0), "17");
    }

    #[test]
    fn damage_type_goes_before_scaling() {
        assert_eq!(
            insert_type("8d6 (slot 4: 9d6)", " fire"),
            "8d6 fire (slot 4: 9d6)"
        );
        assert_eq!(insert_type("1d10", " fire"), "1d10 fire");
    }
}
