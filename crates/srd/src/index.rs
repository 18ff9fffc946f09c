//! The name index of a loaded compendium and fuzzy name scoring.
//!
//! Names are normalised once at load (lower case, separators folded to one space, punctuation
//! dropped). A query is compiled once into a bit-parallel (Myers) edit-distance pattern, so
//! scoring a name allocates nothing. Filtered search over the index is in [`crate::search`].

use std::collections::HashMap;

use crate::compendium::Compendium;
use crate::entry::Entry;
use crate::kind::{EntryKind, normalize};

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

#[cfg(test)]
mod tests {
    use super::*;
    use tabletop_rules::vocab::edit_distance;

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
}
