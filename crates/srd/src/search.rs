//! Name index, fuzzy lookup, full-text and filtered search across every record kind.
//!
//! Names are normalised once at load (lower case, separators folded to one space, punctuation
//! dropped). A query is compiled once into a bit-parallel (Myers) edit-distance pattern, so
//! scoring a name allocates nothing.

use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use tabletop_rules::vocab::edit_distance;
use tabletop_rules::{Ability, DamageType, DieRoller, Size, UnknownName};

use crate::card::summary;
use crate::compendium::{Compendium, Entry};
use crate::error::SrdError;
use crate::model::{ArmorCategory, AttackRange, WeaponCategory};

/// Default page size of [`SearchQuery`].
pub const DEFAULT_PER_PAGE: u32 = 50;
/// Largest page size of [`SearchQuery`].
pub const MAX_PER_PAGE: u32 = 100;

/// The kinds of record a search or lookup can be restricted to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
#[allow(missing_docs)]
pub enum EntryKind {
    Spell,
    Monster,
    Class,
    Subclass,
    Race,
    Subrace,
    Background,
    Feat,
    /// All mundane equipment, including weapons and armor.
    Equipment,
    Weapon,
    Armor,
    MagicItem,
    Condition,
    /// Rules chapters and their sections.
    Rule,
    RuleSection,
    Skill,
    DamageType,
    MagicSchool,
    Feature,
    Trait,
    Proficiency,
    WeaponProperty,
    Language,
    Alignment,
}

impl EntryKind {
    /// Every kind.
    pub const ALL: &'static [EntryKind] = &[
        EntryKind::Spell,
        EntryKind::Monster,
        EntryKind::Class,
        EntryKind::Subclass,
        EntryKind::Race,
        EntryKind::Subrace,
        EntryKind::Background,
        EntryKind::Feat,
        EntryKind::Equipment,
        EntryKind::Weapon,
        EntryKind::Armor,
        EntryKind::MagicItem,
        EntryKind::Condition,
        EntryKind::Rule,
        EntryKind::RuleSection,
        EntryKind::Skill,
        EntryKind::DamageType,
        EntryKind::MagicSchool,
        EntryKind::Feature,
        EntryKind::Trait,
        EntryKind::Proficiency,
        EntryKind::WeaponProperty,
        EntryKind::Language,
        EntryKind::Alignment,
    ];

    /// The snake_case name ("magic_item").
    pub fn key(self) -> &'static str {
        match self {
            EntryKind::Spell => "spell",
            EntryKind::Monster => "monster",
            EntryKind::Class => "class",
            EntryKind::Subclass => "subclass",
            EntryKind::Race => "race",
            EntryKind::Subrace => "subrace",
            EntryKind::Background => "background",
            EntryKind::Feat => "feat",
            EntryKind::Equipment => "equipment",
            EntryKind::Weapon => "weapon",
            EntryKind::Armor => "armor",
            EntryKind::MagicItem => "magic_item",
            EntryKind::Condition => "condition",
            EntryKind::Rule => "rule",
            EntryKind::RuleSection => "rule_section",
            EntryKind::Skill => "skill",
            EntryKind::DamageType => "damage_type",
            EntryKind::MagicSchool => "magic_school",
            EntryKind::Feature => "feature",
            EntryKind::Trait => "trait",
            EntryKind::Proficiency => "proficiency",
            EntryKind::WeaponProperty => "weapon_property",
            EntryKind::Language => "language",
            EntryKind::Alignment => "alignment",
        }
    }

    /// Whether a search for `self` includes records of kind `other` (equipment includes
    /// weapons and armor; rule includes rule sections).
    pub fn includes(self, other: EntryKind) -> bool {
        self == other
            || (self == EntryKind::Equipment
                && matches!(other, EntryKind::Weapon | EntryKind::Armor))
            || (self == EntryKind::Rule && other == EntryKind::RuleSection)
    }
}

impl fmt::Display for EntryKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

impl FromStr for EntryKind {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Self, UnknownName> {
        let k = normalize(s).replace(' ', "_");
        let k = match k.as_str() {
            "species" => "race",
            "subspecies" => "subrace",
            "item" | "items" | "gear" => "equipment",
            "magic_items" | "magicitem" => "magic_item",
            other => other,
        };
        // Plurals: "spells", "classes", "armor" (already singular).
        let singular = [k.strip_suffix("es"), k.strip_suffix('s')];
        EntryKind::ALL
            .iter()
            .copied()
            .find(|e| e.key() == k)
            .or_else(|| {
                EntryKind::ALL
                    .iter()
                    .copied()
                    .find(|e| singular.iter().flatten().any(|s| *s == e.key()))
            })
            .ok_or_else(|| {
                unknown_name(
                    "kind",
                    s,
                    EntryKind::ALL.iter().map(|e| e.key().to_string()).collect(),
                )
            })
    }
}

/// Lower case, `-`/`_`/whitespace and most punctuation folded to single spaces, apostrophes
/// and other symbols dropped: "Bigby's Hand" and "bigbys-hand" both become "bigbys hand".
pub fn normalize(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut pending_space = false;
    for c in s.chars() {
        if c.is_alphanumeric() {
            if pending_space && !out.is_empty() {
                out.push(' ');
            }
            pending_space = false;
            out.extend(c.to_lowercase());
        } else if c.is_whitespace()
            || matches!(c, '-' | '_' | '/' | ',' | ':' | ';' | '(' | ')' | '.' | '&')
        {
            pending_space = true;
        }
    }
    out
}

/// Builds an [`UnknownName`] with the closest allowed value as suggestion.
pub(crate) fn unknown_name(kind: &'static str, given: &str, allowed: Vec<String>) -> UnknownName {
    let g = normalize(given);
    let suggestion = allowed
        .iter()
        .map(|a| (a, edit_distance(&g, &normalize(a))))
        .filter(|(a, d)| {
            *d <= (a.len().max(g.len()) / 3).max(2)
                || (!g.is_empty() && normalize(a).starts_with(&g))
        })
        .min_by_key(|(_, d)| *d)
        .map(|(a, _)| a.clone());
    UnknownName {
        kind,
        given: given.to_string(),
        suggestion,
        allowed,
    }
}

/// One searchable record.
#[derive(Debug)]
pub(crate) struct EntryMeta {
    pub kind: EntryKind,
    pub idx: u32,
    pub norm: Box<str>,
    /// [`char_mask`] of `norm`, to skip names that lack too many of the query's characters.
    pub mask: u64,
    /// [`bigram_mask`] of `norm`.
    pub bigrams: u64,
    pub text: Box<str>,
}

/// One bit per (hashed) pair of adjacent bytes present.
pub(crate) fn bigram_mask(s: &str) -> u64 {
    s.as_bytes().windows(2).fold(0u64, |m, w| {
        m | 1u64 << ((u32::from(w[0]) * 131 + u32::from(w[1])) % 64)
    })
}

/// One bit per byte class present: a–z, 0–9, space, anything else.
pub(crate) fn char_mask(s: &str) -> u64 {
    s.bytes().fold(0u64, |m, b| {
        m | 1u64
            << match b {
                b'a'..=b'z' => b - b'a',
                b'0'..=b'9' => 26 + b - b'0',
                b' ' => 36,
                _ => 37,
            }
    })
}

impl EntryMeta {
    pub(crate) fn entry<'a>(&self, c: &'a Compendium) -> Entry<'a> {
        let i = self.idx as usize;
        match self.kind {
            EntryKind::Spell => Entry::Spell(&c.spells[i]),
            EntryKind::Monster => Entry::Monster(&c.monsters[i]),
            EntryKind::Class => Entry::Class(&c.classes[i]),
            EntryKind::Subclass => Entry::Subclass(&c.subclasses[i]),
            EntryKind::Race => Entry::Race(&c.races[i]),
            EntryKind::Subrace => Entry::Subrace(&c.subraces[i]),
            EntryKind::Background => Entry::Background(&c.backgrounds[i]),
            EntryKind::Feat => Entry::Feat(&c.feats[i]),
            EntryKind::Equipment | EntryKind::Weapon | EntryKind::Armor => {
                Entry::Equipment(&c.equipment[i])
            }
            EntryKind::MagicItem => Entry::MagicItem(&c.magic_items[i]),
            EntryKind::Condition => Entry::Condition(&c.conditions[i]),
            EntryKind::Rule => Entry::Rule(&c.rules[i]),
            EntryKind::RuleSection => Entry::RuleSection(&c.rule_sections[i]),
            EntryKind::Skill => Entry::Skill(&c.skills[i]),
            EntryKind::DamageType => Entry::DamageType(&c.damage_types[i]),
            EntryKind::MagicSchool => Entry::MagicSchool(&c.magic_schools[i]),
            EntryKind::Feature => Entry::Feature(&c.features[i]),
            EntryKind::Trait => Entry::Trait(&c.traits[i]),
            EntryKind::Proficiency => Entry::Proficiency(&c.proficiencies[i]),
            EntryKind::WeaponProperty => Entry::WeaponProperty(&c.weapon_properties[i]),
            EntryKind::Language => Entry::Language(&c.languages[i]),
            EntryKind::Alignment => Entry::Alignment(&c.alignments[i]),
        }
    }
}

/// Normalised names, slugs and lower-cased text of every record.
#[derive(Debug, Default)]
pub(crate) struct SearchIndex {
    pub entries: Vec<EntryMeta>,
    pub by_name: HashMap<Box<str>, Vec<u32>>,
}

fn lower_text<'a>(parts: impl IntoIterator<Item = &'a String>) -> Box<str> {
    let mut s = String::new();
    for p in parts {
        if !s.is_empty() {
            s.push('\n');
        }
        s.push_str(p);
    }
    s.make_ascii_lowercase();
    s.into_boxed_str()
}

impl SearchIndex {
    pub(crate) fn build(c: &Compendium) -> SearchIndex {
        let mut ix = SearchIndex::default();
        let mut add = |kind: EntryKind, idx: usize, index: &str, name: &str, text: Box<str>| {
            let id = ix.entries.len() as u32;
            let norm = normalize(name);
            let slug = normalize(index);
            if slug != norm {
                ix.by_name
                    .entry(slug.into_boxed_str())
                    .or_default()
                    .push(id);
            }
            ix.by_name
                .entry(norm.clone().into_boxed_str())
                .or_default()
                .push(id);
            ix.entries.push(EntryMeta {
                kind,
                idx: idx as u32,
                mask: char_mask(&norm),
                bigrams: bigram_mask(&norm),
                norm: norm.into_boxed_str(),
                text,
            });
        };
        for (i, x) in c.spells.iter().enumerate() {
            add(
                EntryKind::Spell,
                i,
                &x.index,
                &x.name,
                lower_text(x.desc.iter().chain(&x.higher_level)),
            );
        }
        for (i, x) in c.monsters.iter().enumerate() {
            let acts = x
                .special_abilities
                .iter()
                .chain(&x.actions)
                .chain(&x.legendary_actions)
                .chain(&x.reactions)
                .flat_map(|a| [&a.name, &a.desc]);
            add(
                EntryKind::Monster,
                i,
                &x.index,
                &x.name,
                lower_text(x.desc.iter().chain(acts)),
            );
        }
        for (i, x) in c.classes.iter().enumerate() {
            add(
                EntryKind::Class,
                i,
                &x.index,
                &x.name,
                lower_text(&x.proficiency_choices),
            );
        }
        for (i, x) in c.subclasses.iter().enumerate() {
            add(
                EntryKind::Subclass,
                i,
                &x.index,
                &x.name,
                lower_text(&x.desc),
            );
        }
        for (i, x) in c.races.iter().enumerate() {
            let t = x
                .traits
                .iter()
                .flat_map(|t| std::iter::once(&t.name).chain(&t.desc));
            add(
                EntryKind::Race,
                i,
                &x.index,
                &x.name,
                lower_text(
                    [&x.alignment, &x.age, &x.size_description]
                        .into_iter()
                        .chain(t),
                ),
            );
        }
        for (i, x) in c.subraces.iter().enumerate() {
            add(
                EntryKind::Subrace,
                i,
                &x.index,
                &x.name,
                lower_text(&x.desc),
            );
        }
        for (i, x) in c.backgrounds.iter().enumerate() {
            add(
                EntryKind::Background,
                i,
                &x.index,
                &x.name,
                lower_text(&x.desc),
            );
        }
        for (i, x) in c.feats.iter().enumerate() {
            add(EntryKind::Feat, i, &x.index, &x.name, lower_text(&x.desc));
        }
        for (i, x) in c.equipment.iter().enumerate() {
            let kind = if x.weapon.is_some() {
                EntryKind::Weapon
            } else if x.armor.is_some() {
                EntryKind::Armor
            } else {
                EntryKind::Equipment
            };
            add(kind, i, &x.index, &x.name, lower_text(&x.desc));
        }
        for (i, x) in c.magic_items.iter().enumerate() {
            add(
                EntryKind::MagicItem,
                i,
                &x.index,
                &x.name,
                lower_text(&x.desc),
            );
        }
        for (i, x) in c.conditions.iter().enumerate() {
            add(
                EntryKind::Condition,
                i,
                &x.index,
                &x.name,
                lower_text(&x.desc),
            );
        }
        for (i, x) in c.rules.iter().enumerate() {
            add(EntryKind::Rule, i, &x.index, &x.name, lower_text(&x.desc));
        }
        for (i, x) in c.rule_sections.iter().enumerate() {
            add(
                EntryKind::RuleSection,
                i,
                &x.index,
                &x.name,
                lower_text(&x.desc),
            );
        }
        for (i, x) in c.skills.iter().enumerate() {
            add(EntryKind::Skill, i, &x.index, &x.name, lower_text(&x.desc));
        }
        for (i, x) in c.damage_types.iter().enumerate() {
            add(
                EntryKind::DamageType,
                i,
                &x.index,
                &x.name,
                lower_text(&x.desc),
            );
        }
        for (i, x) in c.magic_schools.iter().enumerate() {
            add(
                EntryKind::MagicSchool,
                i,
                &x.index,
                &x.name,
                lower_text(&x.desc),
            );
        }
        for (i, x) in c.features.iter().enumerate() {
            add(
                EntryKind::Feature,
                i,
                &x.index,
                &x.name,
                lower_text(&x.desc),
            );
        }
        for (i, x) in c.traits.iter().enumerate() {
            add(EntryKind::Trait, i, &x.index, &x.name, lower_text(&x.desc));
        }
        for (i, x) in c.proficiencies.iter().enumerate() {
            add(EntryKind::Proficiency, i, &x.index, &x.name, Box::from(""));
        }
        for (i, x) in c.weapon_properties.iter().enumerate() {
            add(
                EntryKind::WeaponProperty,
                i,
                &x.index,
                &x.name,
                lower_text(&x.desc),
            );
        }
        for (i, x) in c.languages.iter().enumerate() {
            add(
                EntryKind::Language,
                i,
                &x.index,
                &x.name,
                lower_text(&x.desc),
            );
        }
        for (i, x) in c.alignments.iter().enumerate() {
            add(
                EntryKind::Alignment,
                i,
                &x.index,
                &x.name,
                lower_text(&x.desc),
            );
        }
        ix
    }
}

// ---------------------------------------------------------------------------------------------
// Fuzzy name scoring

/// A compiled query: its normalised bytes and the Myers match vectors of its first 64 bytes.
pub(crate) struct Pattern {
    q: String,
    peq: [u64; 256],
    m: usize,
    max_edits: u32,
    multi_word: bool,
    mask: u64,
    bigrams: u64,
}

impl Pattern {
    pub(crate) fn new(query: &str) -> Pattern {
        let q = normalize(query);
        let bytes = q.as_bytes();
        let m = bytes.len().min(64);
        let mut peq = [0u64; 256];
        for (i, b) in bytes[..m].iter().enumerate() {
            peq[*b as usize] |= 1 << i;
        }
        let max_edits = match q.len() {
            0..=2 => 0,
            3..=4 => 1,
            5..=8 => 2,
            _ => 3,
        };
        let multi_word = q.contains(' ');
        let mask = char_mask(&q);
        let bigrams = bigram_mask(&q);
        Pattern {
            q,
            peq,
            m,
            max_edits,
            multi_word,
            mask,
            bigrams,
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.q.is_empty()
    }

    /// Edit distance of the pattern against `text` (Myers/Hyyrö bit-parallel, no allocation):
    /// against the whole text when `global`, else against its best-matching substring.
    fn distance(&self, text: &[u8], global: bool) -> u32 {
        let m = self.m;
        if m == 0 {
            return if global { text.len() as u32 } else { 0 };
        }
        let mask = if m == 64 { !0u64 } else { (1u64 << m) - 1 };
        let high = 1u64 << (m - 1);
        // Global: first row D[0][j] = j (carry 1 into row 0); substring: first row all zero.
        let carry = u64::from(global);
        let (mut pv, mut mv, mut score) = (mask, 0u64, m as u32);
        let mut best = score;
        for &b in text {
            let eq = self.peq[b as usize];
            let xv = eq | mv;
            let xh = (((eq & pv).wrapping_add(pv)) ^ pv) | eq;
            let mut ph = mv | !(xh | pv);
            let mut mh = pv & xh;
            if ph & high != 0 {
                score += 1;
            } else if mh & high != 0 {
                score -= 1;
            }
            ph = (ph << 1) | carry;
            mh <<= 1;
            pv = (mh | !(xv | ph)) & mask;
            mv = ph & xv & mask;
            best = best.min(score);
        }
        if global { score } else { best }
    }

    /// How well a normalised name matches, 0 for no match, 1 for equality, with the name's
    /// precomputed [`char_mask`] and [`bigram_mask`].
    ///
    /// The masks skip the edit-distance passes that cannot succeed: every character of the
    /// query missing from the name costs at least one edit, and every edit destroys at most
    /// two of the query's bigrams.
    pub(crate) fn score_masked(&self, name: &str, chars: u64, bigrams: u64) -> f32 {
        let q = self.q.as_str();
        if q.is_empty() {
            return 0.0;
        }
        if name == q {
            return 1.0;
        }
        let ratio = q.len() as f32 / name.len().max(1) as f32;
        if name.starts_with(q) {
            return 0.9 + 0.09 * ratio;
        }
        let (m, n, k) = (q.len(), name.len(), self.max_edits);
        let missing_chars = (self.mask & !chars).count_ones();
        let missing_bigrams = (self.bigrams & !bigrams).count_ones();
        let ks = k.min(2);
        let try_substring =
            missing_chars <= ks && missing_bigrams <= 2 * ks && n + ks as usize >= m;
        let try_global =
            missing_chars <= k && missing_bigrams <= 2 * k && n.abs_diff(m) <= k as usize;
        let (global, substring) = if m > 64 {
            (u32::MAX, if name.contains(q) { 0 } else { u32::MAX })
        } else {
            (
                if try_global {
                    self.distance(name.as_bytes(), true)
                } else {
                    u32::MAX
                },
                if try_substring {
                    self.distance(name.as_bytes(), false)
                } else {
                    u32::MAX
                },
            )
        };
        let mut best: f32 = 0.0;
        if substring == 0 {
            let at_word = name
                .match_indices(q)
                .any(|(p, _)| p > 0 && name.as_bytes()[p - 1] == b' ');
            if at_word {
                return 0.8 + 0.09 * ratio;
            }
            best = 0.7 + 0.09 * ratio;
        }
        if global <= k {
            best = best.max(0.85 - 0.1 * global as f32);
        }
        if m >= 5 && substring > 0 && substring <= ks {
            best = best.max(0.6 - 0.1 * substring as f32);
        }
        // Every query word is the prefix of some name word ("red dragon adult").
        if best < 0.78
            && self.multi_word
            && missing_chars == 0
            && q.split(' ')
                .all(|w| name.split(' ').any(|n| n.starts_with(w)))
        {
            best = 0.78 + 0.09 * ratio;
        }
        best
    }

    /// [`Pattern::score_masked`] computing the masks on the spot.
    #[cfg(test)]
    pub(crate) fn score(&self, name: &str) -> f32 {
        self.score_masked(name, char_mask(name), bigram_mask(name))
    }
}

// ---------------------------------------------------------------------------------------------
// Queries

/// Filters of a [`SearchQuery`], combined with AND. Each applies to some kinds only; giving one
/// that does not apply to the kind searched is an error. String values are validated against the
/// compendium (unknown values are rejected with the allowed ones and a suggestion).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct SearchFilters {
    /// Spell: on this class's list ("wizard"); subclass or feature: of this class.
    pub class: Option<String>,
    /// Spell: spell level 0–9; feature: gained at this level (1–20).
    pub level: Option<u8>,
    /// Spell: school ("evocation").
    pub school: Option<String>,
    /// Spell: requires concentration.
    pub concentration: Option<bool>,
    /// Spell: ritual.
    pub ritual: Option<bool>,
    /// Spell: deals this damage type.
    pub damage_type: Option<String>,
    /// Spell: calls for a save of this ability ("dex").
    pub save: Option<String>,
    /// Monster: minimum challenge rating.
    pub cr_min: Option<f32>,
    /// Monster: maximum challenge rating.
    pub cr_max: Option<f32>,
    /// Monster: creature type ("dragon").
    pub monster_type: Option<String>,
    /// Monster: size ("large").
    pub size: Option<String>,
    /// Monster: alignment ("chaotic evil").
    pub alignment: Option<String>,
    /// Magic item: rarity ("very rare").
    pub rarity: Option<String>,
    /// Equipment or magic item: category slug or name ("martial-weapons", "ring").
    pub category: Option<String>,
    /// Magic item: requires attunement.
    pub attunement: Option<bool>,
    /// Weapon: "simple", "martial", "melee", "ranged" or a pair ("martial ranged").
    pub weapon_category: Option<String>,
    /// Armor: "light", "medium", "heavy" or "shield".
    pub armor_category: Option<String>,
}

/// One search across the compendium.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct SearchQuery {
    /// Text matched fuzzily against names and literally against descriptions.
    pub query: Option<String>,
    /// Restrict to one kind of record.
    pub kind: Option<EntryKind>,
    /// Filters, combined with AND.
    pub filters: SearchFilters,
    /// Page number, from 1 (default 1).
    pub page: Option<u32>,
    /// Page size, 1–100 (default 50).
    pub per_page: Option<u32>,
    /// Return this many matches chosen at random instead of all of them.
    pub random: Option<usize>,
    /// Seed of the random choice (default 0), for [`Compendium::search`].
    pub seed: Option<u64>,
}

/// One search or lookup result.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Hit {
    /// Kind of the record.
    pub kind: EntryKind,
    /// Slug.
    pub index: String,
    /// Display name.
    pub name: String,
    /// Match quality, 0–1 (1 without a text query).
    pub score: f32,
    /// One-line summary ("3rd-level evocation").
    pub summary: String,
}

/// A page of search results.
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchPage {
    /// The hits of this page.
    pub hits: Vec<Hit>,
    /// Matches in all pages (with `random`, all matches before the choice).
    pub total: usize,
    /// This page number (from 1).
    pub page: u32,
    /// Page size.
    pub per_page: u32,
    /// More pages follow.
    pub has_more: bool,
}

/// The result of [`Compendium::get`].
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase", tag = "result")]
pub enum Lookup<'a> {
    /// One record matched, exactly or as a near-certain correction of a typo.
    Found {
        /// The record.
        entry: Entry<'a>,
        /// False when the name was corrected ("firebal" → Fireball).
        exact: bool,
    },
    /// No single match; the closest records, best first (may be empty).
    Closest {
        /// Candidates.
        candidates: Vec<Hit>,
    },
}

/// A small seedable generator used when a query asks for random results.
struct SplitMix(u64);

impl DieRoller for SplitMix {
    fn roll_die(&mut self, faces: u32) -> u32 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        (z % u64::from(faces.max(1))) as u32 + 1
    }
}

/// A filter, validated against the compendium.
#[derive(Debug, Default)]
struct Compiled {
    class: Option<String>,
    level: Option<u8>,
    school: Option<String>,
    concentration: Option<bool>,
    ritual: Option<bool>,
    damage_type: Option<DamageType>,
    save: Option<Ability>,
    cr_min: Option<f32>,
    cr_max: Option<f32>,
    monster_type: Option<String>,
    size: Option<Size>,
    alignment: Option<String>,
    rarity: Option<String>,
    category: Option<String>,
    attunement: Option<bool>,
    weapon: Option<(Option<WeaponCategory>, Option<AttackRange>)>,
    armor: Option<ArmorCategory>,
}

const SPELL: &[EntryKind] = &[EntryKind::Spell];
const CLASS: &[EntryKind] = &[EntryKind::Spell, EntryKind::Subclass, EntryKind::Feature];
const LEVEL: &[EntryKind] = &[EntryKind::Spell, EntryKind::Feature];
const MONSTER: &[EntryKind] = &[EntryKind::Monster];
const MAGIC: &[EntryKind] = &[EntryKind::MagicItem];
const CATEGORY: &[EntryKind] = &[
    EntryKind::Equipment,
    EntryKind::Weapon,
    EntryKind::Armor,
    EntryKind::MagicItem,
];
const WEAPON: &[EntryKind] = &[EntryKind::Weapon, EntryKind::Equipment];
const ARMOR: &[EntryKind] = &[EntryKind::Armor, EntryKind::Equipment];

fn kinds_text(k: &[EntryKind]) -> String {
    k.iter().map(|k| k.key()).collect::<Vec<_>>().join(", ")
}

/// The allowed value equal to `given` after normalisation, or an [`UnknownName`] error.
fn pick(kind: &'static str, given: &str, allowed: &[String]) -> Result<String, SrdError> {
    let g = normalize(given);
    allowed
        .iter()
        .find(|a| normalize(a) == g)
        .cloned()
        .ok_or_else(|| unknown_name(kind, given, allowed.to_vec()).into())
}

fn distinct(it: impl Iterator<Item = String>) -> Vec<String> {
    let mut v: Vec<String> = it.collect();
    v.sort();
    v.dedup();
    v
}

impl Compendium {
    /// Which filters are set, with the kinds each applies to.
    fn filter_kinds(f: &SearchFilters) -> Vec<(&'static str, &'static [EntryKind])> {
        let mut v = Vec::new();
        let mut add = |set: bool, name: &'static str, kinds: &'static [EntryKind]| {
            if set {
                v.push((name, kinds));
            }
        };
        add(f.class.is_some(), "class", CLASS);
        add(f.level.is_some(), "level", LEVEL);
        add(f.school.is_some(), "school", SPELL);
        add(f.concentration.is_some(), "concentration", SPELL);
        add(f.ritual.is_some(), "ritual", SPELL);
        add(f.damage_type.is_some(), "damageType", SPELL);
        add(f.save.is_some(), "save", SPELL);
        add(f.cr_min.is_some(), "crMin", MONSTER);
        add(f.cr_max.is_some(), "crMax", MONSTER);
        add(f.monster_type.is_some(), "monsterType", MONSTER);
        add(f.size.is_some(), "size", MONSTER);
        add(f.alignment.is_some(), "alignment", MONSTER);
        add(f.rarity.is_some(), "rarity", MAGIC);
        add(f.attunement.is_some(), "attunement", MAGIC);
        add(f.category.is_some(), "category", CATEGORY);
        add(f.weapon_category.is_some(), "weaponCategory", WEAPON);
        add(f.armor_category.is_some(), "armorCategory", ARMOR);
        v
    }

    fn compile(&self, kind: Option<EntryKind>, f: &SearchFilters) -> Result<Compiled, SrdError> {
        let set = Self::filter_kinds(f);
        match kind {
            Some(k) => {
                for (name, kinds) in &set {
                    if !kinds.contains(&k) {
                        return Err(SrdError::FilterNotApplicable {
                            filter: name,
                            target: format!("kind '{k}'"),
                            applies_to: kinds_text(kinds),
                        });
                    }
                }
            }
            None => {
                if let Some((first, first_kinds)) = set.first() {
                    for (name, kinds) in &set[1..] {
                        if !first_kinds.iter().any(|k| kinds.contains(k)) {
                            return Err(SrdError::FilterNotApplicable {
                                filter: name,
                                target: format!(
                                    "the kinds of filter '{first}' ({})",
                                    kinds_text(first_kinds)
                                ),
                                applies_to: kinds_text(kinds),
                            });
                        }
                    }
                }
            }
        }
        let mut c = Compiled::default();
        if let Some(v) = &f.class {
            let allowed: Vec<String> = self.classes.iter().map(|c| c.index.clone()).collect();
            let g = normalize(v);
            c.class = Some(
                match self.classes.iter().find(|k| normalize(&k.name) == g) {
                    Some(k) => k.index.clone(),
                    None => pick("class", v, &allowed)?,
                },
            );
        }
        if let Some(l) = f.level {
            let feature = kind == Some(EntryKind::Feature);
            if feature && !(1..=20).contains(&l) {
                return Err(SrdError::InvalidQuery(format!(
                    "feature level {l} is out of range 1–20"
                )));
            }
            if !feature && l > 9 {
                return Err(SrdError::InvalidQuery(format!(
                    "spell level {l} is out of range 0–9"
                )));
            }
            c.level = Some(l);
        }
        if let Some(v) = &f.school {
            let allowed = distinct(
                self.magic_schools
                    .iter()
                    .map(|s| s.index.clone())
                    .chain(self.spells.iter().map(|s| s.school.index.clone())),
            );
            c.school = Some(pick("school", v, &allowed)?);
        }
        c.concentration = f.concentration;
        c.ritual = f.ritual;
        if let Some(v) = &f.damage_type {
            c.damage_type = Some(v.parse::<DamageType>()?);
        }
        if let Some(v) = &f.save {
            c.save = Some(v.parse::<Ability>()?);
        }
        for (name, v) in [("crMin", f.cr_min), ("crMax", f.cr_max)] {
            if let Some(x) = v
                && !(x.is_finite() && x >= 0.0)
            {
                return Err(SrdError::InvalidQuery(format!(
                    "{name} must be a challenge rating ≥ 0, got {x}"
                )));
            }
        }
        if let (Some(a), Some(b)) = (f.cr_min, f.cr_max)
            && a > b
        {
            return Err(SrdError::InvalidQuery(format!(
                "crMin {a} is greater than crMax {b}"
            )));
        }
        c.cr_min = f.cr_min;
        c.cr_max = f.cr_max;
        if let Some(v) = &f.monster_type {
            let allowed = distinct(self.monsters.iter().map(|m| m.creature_type.to_lowercase()));
            c.monster_type = Some(pick("monster type", v, &allowed)?);
        }
        if let Some(v) = &f.size {
            c.size = Some(v.parse::<Size>()?);
        }
        if let Some(v) = &f.alignment {
            let allowed = distinct(self.monsters.iter().map(|m| m.alignment.to_lowercase()));
            c.alignment = Some(pick("alignment", v, &allowed)?);
        }
        if let Some(v) = &f.rarity {
            let allowed = distinct(self.magic_items.iter().map(|m| m.rarity.to_lowercase()));
            c.rarity = Some(pick("rarity", v, &allowed)?);
        }
        c.attunement = f.attunement;
        if let Some(v) = &f.category {
            let magic = kind == Some(EntryKind::MagicItem);
            let equip = matches!(
                kind,
                Some(EntryKind::Equipment | EntryKind::Weapon | EntryKind::Armor)
            );
            let mut allowed = Vec::new();
            if !magic {
                allowed.extend(
                    self.equipment_categories
                        .iter()
                        .map(|(r, _)| r.index.clone()),
                );
                allowed.extend(self.equipment.iter().map(|e| e.category.index.clone()));
            }
            if !equip {
                allowed.extend(self.magic_items.iter().map(|m| m.category.index.clone()));
            }
            let allowed = distinct(allowed.into_iter());
            let g = normalize(v);
            // Accept display names too ("Martial Weapons").
            let by_name = self
                .equipment_categories
                .iter()
                .map(|(r, _)| r)
                .chain(self.magic_items.iter().map(|m| &m.category))
                .find(|r| normalize(&r.name) == g && allowed.contains(&r.index));
            c.category = Some(match by_name {
                Some(r) => r.index.clone(),
                None => pick("category", v, &allowed)?,
            });
        }
        if let Some(v) = &f.weapon_category {
            let allowed: Vec<String> = [
                "simple",
                "martial",
                "melee",
                "ranged",
                "simple melee",
                "simple ranged",
                "martial melee",
                "martial ranged",
            ]
            .iter()
            .map(|s| s.to_string())
            .collect();
            let p = pick("weapon category", v, &allowed)?;
            let cat = if p.contains("simple") {
                Some(WeaponCategory::Simple)
            } else if p.contains("martial") {
                Some(WeaponCategory::Martial)
            } else {
                None
            };
            let range = if p.contains("melee") {
                Some(AttackRange::Melee)
            } else if p.contains("ranged") {
                Some(AttackRange::Ranged)
            } else {
                None
            };
            c.weapon = Some((cat, range));
        }
        if let Some(v) = &f.armor_category {
            let allowed: Vec<String> = ["light", "medium", "heavy", "shield"]
                .iter()
                .map(|s| s.to_string())
                .collect();
            let v = if normalize(v) == "shields" {
                "shield"
            } else {
                v.as_str()
            };
            c.armor = Some(match pick("armor category", v, &allowed)?.as_str() {
                "light" => ArmorCategory::Light,
                "medium" => ArmorCategory::Medium,
                "heavy" => ArmorCategory::Heavy,
                _ => ArmorCategory::Shield,
            });
        }
        Ok(c)
    }

    /// Whether an entry passes every compiled filter (filters of other kinds fail it).
    fn passes(&self, e: Entry<'_>, f: &Compiled) -> bool {
        let spell_filter = f.class.is_some()
            || f.level.is_some()
            || f.school.is_some()
            || f.concentration.is_some()
            || f.ritual.is_some()
            || f.damage_type.is_some()
            || f.save.is_some();
        let spell_only = f.school.is_some()
            || f.concentration.is_some()
            || f.ritual.is_some()
            || f.damage_type.is_some()
            || f.save.is_some();
        let monster_filter = f.cr_min.is_some()
            || f.cr_max.is_some()
            || f.monster_type.is_some()
            || f.size.is_some()
            || f.alignment.is_some();
        let magic_filter = f.rarity.is_some() || f.attunement.is_some();
        let equip_filter = f.weapon.is_some() || f.armor.is_some();
        match e {
            Entry::Spell(s) => {
                if monster_filter || magic_filter || equip_filter || f.category.is_some() {
                    return false;
                }
                f.class
                    .as_ref()
                    .is_none_or(|c| s.classes.iter().any(|k| &k.index == c))
                    && f.level.is_none_or(|l| s.level == l)
                    && f.school.as_ref().is_none_or(|x| &s.school.index == x)
                    && f.concentration.is_none_or(|x| s.concentration == x)
                    && f.ritual.is_none_or(|x| s.ritual == x)
                    && f.damage_type
                        .is_none_or(|d| s.damage.as_ref().is_some_and(|x| x.damage_type == Some(d)))
                    && f.save
                        .is_none_or(|a| s.dc.as_ref().is_some_and(|x| x.ability == a))
            }
            Entry::Monster(m) => {
                if spell_filter || magic_filter || equip_filter || f.category.is_some() {
                    return false;
                }
                f.cr_min.is_none_or(|x| m.challenge_rating >= x)
                    && f.cr_max.is_none_or(|x| m.challenge_rating <= x)
                    && f.monster_type
                        .as_ref()
                        .is_none_or(|x| m.creature_type.eq_ignore_ascii_case(x))
                    && f.size.is_none_or(|x| m.size == x)
                    && f.alignment
                        .as_ref()
                        .is_none_or(|x| m.alignment.eq_ignore_ascii_case(x))
            }
            Entry::MagicItem(m) => {
                if spell_filter || monster_filter || equip_filter {
                    return false;
                }
                f.rarity
                    .as_ref()
                    .is_none_or(|x| m.rarity.eq_ignore_ascii_case(x))
                    && f.attunement.is_none_or(|x| m.requires_attunement == x)
                    && f.category.as_ref().is_none_or(|x| &m.category.index == x)
            }
            Entry::Equipment(q) => {
                if spell_filter || monster_filter || magic_filter {
                    return false;
                }
                f.category.as_ref().is_none_or(|x| {
                    &q.category.index == x
                        || self
                            .equipment_categories
                            .iter()
                            .any(|(r, items)| &r.index == x && items.iter().any(|i| i == &q.index))
                }) && f.weapon.is_none_or(|(cat, range)| {
                    q.weapon.as_ref().is_some_and(|w| {
                        cat.is_none_or(|c| w.category == c)
                            && range.is_none_or(|r| w.range_kind == r)
                    })
                }) && f
                    .armor
                    .is_none_or(|a| q.armor.as_ref().is_some_and(|x| x.category == a))
            }
            Entry::Subclass(x) => {
                let other = f.level.is_some() || spell_only || monster_filter || magic_filter;
                !(other || equip_filter || f.category.is_some())
                    && f.class.as_ref().is_none_or(|c| &x.class.index == c)
            }
            Entry::Feature(x) => {
                let other = spell_only || monster_filter || magic_filter;
                !(other || equip_filter || f.category.is_some())
                    && f.class.as_ref().is_none_or(|c| &x.class.index == c)
                    && f.level.is_none_or(|l| x.level == l)
            }
            _ => {
                !(spell_filter
                    || monster_filter
                    || magic_filter
                    || equip_filter
                    || f.category.is_some())
            }
        }
    }

    fn hit(&self, id: u32, score: f32) -> Hit {
        let e = self.entry_at(id);
        Hit {
            kind: e.kind(),
            index: e.index().to_string(),
            name: e.name().to_string(),
            score,
            summary: summary(&e),
        }
    }

    /// Searches every record: fuzzy on names, literal on descriptions, with filters, pages and
    /// optional random choice (seeded by `query.seed`, default 0).
    pub fn search(&self, query: &SearchQuery) -> Result<SearchPage, SrdError> {
        let mut rng = SplitMix(query.seed.unwrap_or(0));
        self.search_with_roller(query, &mut rng)
    }

    /// [`Compendium::search`] drawing random choices from `roller` (ignores `query.seed`).
    pub fn search_with_roller(
        &self,
        query: &SearchQuery,
        roller: &mut impl DieRoller,
    ) -> Result<SearchPage, SrdError> {
        let page = query.page.unwrap_or(1);
        let per_page = query.per_page.unwrap_or(DEFAULT_PER_PAGE);
        if page == 0 {
            return Err(SrdError::InvalidQuery("page starts at 1".into()));
        }
        if per_page == 0 || per_page > MAX_PER_PAGE {
            return Err(SrdError::InvalidQuery(format!(
                "perPage must be between 1 and {MAX_PER_PAGE}, got {per_page}"
            )));
        }
        if query.random == Some(0) {
            return Err(SrdError::InvalidQuery("random must be at least 1".into()));
        }
        let filters = self.compile(query.kind, &query.filters)?;
        let text = query
            .query
            .as_deref()
            .map(str::trim)
            .filter(|q| !q.is_empty());
        let pattern = text.map(Pattern::new);
        // Literal words of the query, longest (usually rarest) first, each searched with a
        // prebuilt SIMD finder.
        let lowered = text.map(str::to_ascii_lowercase).unwrap_or_default();
        let mut words: Vec<&str> = lowered
            .split_whitespace()
            .filter(|w| w.len() >= 2)
            .collect();
        words.sort_by_key(|w| std::cmp::Reverse(w.len()));
        let finders: Vec<memchr::memmem::Finder<'_>> =
            words.iter().map(memchr::memmem::Finder::new).collect();
        let mut matches: Vec<(f32, u32)> = Vec::new();
        for (id, meta) in self.index.entries.iter().enumerate() {
            if let Some(k) = query.kind
                && !k.includes(meta.kind)
            {
                continue;
            }
            let score = match &pattern {
                None => 1.0,
                Some(p) => {
                    let s = p.score_masked(&meta.norm, meta.mask, meta.bigrams);
                    if s >= 0.3 {
                        s
                    } else if !finders.is_empty()
                        && finders
                            .iter()
                            .all(|f| f.find(meta.text.as_bytes()).is_some())
                    {
                        0.25
                    } else {
                        continue;
                    }
                }
            };
            if !self.passes(meta.entry(self), &filters) {
                continue;
            }
            matches.push((score, id as u32));
        }
        // Matches before a random choice; `total` always counts them.
        let total = matches.len();
        if let Some(n) = query.random {
            // Partial Fisher–Yates over the matches in index order.
            let len = matches.len();
            let take = n.min(len);
            for i in 0..take {
                let j = i + roller.roll_die((len - i) as u32) as usize - 1;
                matches.swap(i, j.min(len - 1));
            }
            matches.truncate(take);
        } else {
            let names = &self.index.entries;
            matches.sort_by(|a, b| {
                b.0.total_cmp(&a.0)
                    .then_with(|| names[a.1 as usize].kind.cmp(&names[b.1 as usize].kind))
                    .then_with(|| names[a.1 as usize].norm.cmp(&names[b.1 as usize].norm))
            });
        }
        let start = (page as usize - 1).saturating_mul(per_page as usize);
        let hits: Vec<Hit> = matches
            .iter()
            .skip(start)
            .take(per_page as usize)
            .map(|&(s, id)| self.hit(id, s))
            .collect();
        Ok(SearchPage {
            has_more: start.saturating_add(per_page as usize) < matches.len(),
            hits,
            total,
            page,
            per_page,
        })
    }

    /// Looks a record up by name or slug: an exact (normalised) match, a near-certain
    /// correction of a typo ("firebal" → Fireball), or else the closest candidates.
    pub fn get(&self, kind: Option<EntryKind>, name: &str) -> Lookup<'_> {
        let key = normalize(name);
        if let Some(ids) = self.index.by_name.get(key.as_str()) {
            let found: Vec<u32> = ids
                .iter()
                .copied()
                .filter(|&id| kind.is_none_or(|k| k.includes(self.index.entries[id as usize].kind)))
                .collect();
            match found.as_slice() {
                [one] => {
                    return Lookup::Found {
                        entry: self.entry_at(*one),
                        exact: true,
                    };
                }
                [] => {}
                many => {
                    return Lookup::Closest {
                        candidates: many.iter().map(|&id| self.hit(id, 1.0)).collect(),
                    };
                }
            }
        }
        let ranked = self.rank(kind, name, 5);
        match ranked.as_slice() {
            // A clear winner, or the only candidate and a good one.
            [(top, id), rest @ ..]
                if (*top >= 0.74 && rest.first().is_none_or(|(s, _)| *s < top - 0.1))
                    || (*top >= 0.55 && rest.is_empty()) =>
            {
                Lookup::Found {
                    entry: self.entry_at(*id),
                    exact: false,
                }
            }
            _ => Lookup::Closest {
                candidates: ranked.iter().map(|&(s, id)| self.hit(id, s)).collect(),
            },
        }
    }

    /// The `limit` names closest to `name` ("did you mean"), best first.
    pub fn suggest(&self, kind: Option<EntryKind>, name: &str, limit: usize) -> Vec<Hit> {
        self.rank(kind, name, limit)
            .into_iter()
            .map(|(s, id)| self.hit(id, s))
            .collect()
    }

    /// Scores every name of the kind against `name`; the best `limit` with score ≥ 0.3.
    pub(crate) fn rank(
        &self,
        kind: Option<EntryKind>,
        name: &str,
        limit: usize,
    ) -> Vec<(f32, u32)> {
        let p = Pattern::new(name);
        if p.is_empty() || limit == 0 {
            return Vec::new();
        }
        let mut best: Vec<(f32, u32)> = Vec::with_capacity(limit + 1);
        for (id, meta) in self.index.entries.iter().enumerate() {
            if let Some(k) = kind
                && !k.includes(meta.kind)
            {
                continue;
            }
            let s = p.score_masked(&meta.norm, meta.mask, meta.bigrams);
            if s < 0.3 || (best.len() == limit && best.last().is_some_and(|(b, _)| s <= *b)) {
                continue;
            }
            let pos = best.partition_point(|(b, _)| *b >= s);
            best.insert(pos, (s, id as u32));
            best.truncate(limit);
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalize_folds_case_separators_and_punctuation() {
        assert_eq!(normalize("  Magic-Missile "), "magic missile");
        assert_eq!(normalize("Bigby's Hand"), "bigbys hand");
        assert_eq!(normalize("bigbys_hand"), "bigbys hand");
        assert_eq!(normalize("Armor, +1"), "armor 1");
    }

    #[test]
    fn myers_distances_match_levenshtein() {
        for (a, b) in [
            ("firebal", "fireball"),
            ("magic missle", "magic missile"),
            ("kitten", "sitting"),
            ("abc", ""),
        ] {
            let p = Pattern::new(a);
            let g = p.distance(b.as_bytes(), true);
            assert_eq!(g as usize, edit_distance(&normalize(a), b), "{a} vs {b}");
        }
        assert_eq!(Pattern::new("missle").distance(b"magic missile", false), 1);
        assert_eq!(Pattern::new("missile").distance(b"magic missile", false), 0);
    }

    #[test]
    fn masks_gate_only_impossible_matches() {
        let p = Pattern::new("xyz");
        assert_eq!(p.score("fireball"), 0.0);
        // Transposition: two edits, bigrams partly destroyed, still found.
        assert!(Pattern::new("glitter spary").score("glitter spray") > 0.5);
        assert!(Pattern::new("misile").score("magic missile") > 0.3);
    }

    #[test]
    fn scores_rank_exact_prefix_typo() {
        let p = Pattern::new("firebal");
        assert!(p.score("fireball") > 0.9);
        assert!(p.score("fire bolt") < 0.5);
        assert_eq!(Pattern::new("fireball").score("fireball"), 1.0);
        assert!(Pattern::new("magic missle").score("magic missile") >= 0.74);
        assert!(Pattern::new("dragon").score("adult red dragon") >= 0.8);
        assert!(Pattern::new("red dragon adult").score("adult red dragon") >= 0.78);
    }

    #[test]
    fn entry_kinds_parse_with_plurals_and_suggestions() {
        assert_eq!("spells".parse::<EntryKind>().unwrap(), EntryKind::Spell);
        assert_eq!(
            "Magic Item".parse::<EntryKind>().unwrap(),
            EntryKind::MagicItem
        );
        assert_eq!("species".parse::<EntryKind>().unwrap(), EntryKind::Race);
        assert_eq!("class".parse::<EntryKind>().unwrap(), EntryKind::Class);
        assert_eq!("Classes".parse::<EntryKind>().unwrap(), EntryKind::Class);
        assert_eq!(
            "subclasses".parse::<EntryKind>().unwrap(),
            EntryKind::Subclass
        );
        assert_eq!("monsters".parse::<EntryKind>().unwrap(), EntryKind::Monster);
        assert_eq!("rules".parse::<EntryKind>().unwrap(), EntryKind::Rule);
        let e = "monstr".parse::<EntryKind>().unwrap_err();
        assert_eq!(e.suggestion.as_deref(), Some("monster"));
    }

    #[test]
    fn splitmix_rolls_in_range() {
        let mut r = SplitMix(7);
        for f in 1..30 {
            let v = r.roll_die(f);
            assert!((1..=f).contains(&v));
        }
    }
}
