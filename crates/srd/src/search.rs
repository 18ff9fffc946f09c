//! Fuzzy lookup, full-text and filtered search across every record kind: the query types
//! ([`SearchQuery`], [`SearchFilters`]) and the compendium's `search`, `get` and `suggest`.
//! Names are scored with the index of [`crate::index`].

use serde::{Deserialize, Serialize};
use tabletop_rules::{Ability, DamageType, DieRoller, Size};

use crate::card::summary;
use crate::compendium::Compendium;
use crate::entry::Entry;
use crate::error::SrdError;
use crate::index::Pattern;
use crate::kind::{EntryKind, normalize, unknown_name};
use crate::model::{ArmorCategory, AttackRange, WeaponCategory};

/// Default page size of [`SearchQuery`].
pub const DEFAULT_PER_PAGE: u32 = 50;
/// Largest page size of [`SearchQuery`].
pub const MAX_PER_PAGE: u32 = 100;

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
    fn splitmix_rolls_in_range() {
        let mut r = SplitMix(7);
        for f in 1..30 {
            let v = r.roll_die(f);
            assert!((1..=f).contains(&v));
        }
    }
}
