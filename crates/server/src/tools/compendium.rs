//! Compendium tools: search_compendium, get_compendium_entry.

use std::borrow::Cow;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::Deserialize;
use tabletop_engine::lookup::{
    EntryOutcome, SearchOutcome, get_compendium_entry, search_compendium,
};
use tabletop_engine::{Call, EngineError};
use tabletop_rules::{Ability, DamageType, Size};
use tabletop_srd::{Card, EntryKind, SearchFilters, SearchQuery};

use super::{Access, invoke};
use crate::arg_enum;
use crate::reply::Reply;
use crate::schema::input_schema;
use crate::spec::{Category, ToolSpec};

/// A kind of SRD entry; accepts plurals and common synonyms ("spells", "species", "item").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KindArg(pub EntryKind);

impl<'de> Deserialize<'de> for KindArg {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse::<EntryKind>()
            .map(KindArg)
            .map_err(serde::de::Error::custom)
    }
}

impl JsonSchema for KindArg {
    fn schema_name() -> Cow<'static, str> {
        "EntryKind".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        let keys: Vec<&str> = EntryKind::ALL.iter().map(|k| k.key()).collect();
        json_schema!({ "type": "string", "enum": keys })
    }
}

arg_enum! {
    /// A school of magic.
    pub enum SchoolArg {
        Abjuration = "abjuration",
        Conjuration = "conjuration",
        Divination = "divination",
        Enchantment = "enchantment",
        Evocation = "evocation",
        Illusion = "illusion",
        Necromancy = "necromancy",
        Transmutation = "transmutation",
    }
}

arg_enum! {
    /// A creature type.
    pub enum MonsterTypeArg {
        Aberration = "aberration",
        Beast = "beast",
        Celestial = "celestial",
        Construct = "construct",
        Dragon = "dragon",
        Elemental = "elemental",
        Fey = "fey",
        Fiend = "fiend",
        Giant = "giant",
        Humanoid = "humanoid",
        Monstrosity = "monstrosity",
        Ooze = "ooze",
        Plant = "plant",
        Swarm = "swarm",
        Undead = "undead",
    }
}

arg_enum! {
    /// A magic item rarity.
    pub enum RarityArg {
        Common = "common",
        Uncommon = "uncommon",
        Rare = "rare",
        VeryRare = "very_rare",
        Legendary = "legendary",
        Artifact = "artifact",
        Varies = "varies",
    }
}

arg_enum! {
    /// A weapon category.
    pub enum WeaponCategoryArg {
        Simple = "simple",
        Martial = "martial",
        Melee = "melee",
        Ranged = "ranged",
    }
}

arg_enum! {
    /// An armor category.
    pub enum ArmorCategoryArg {
        Light = "light",
        Medium = "medium",
        Heavy = "heavy",
        Shield = "shield",
    }
}

/// The key of an `arg_enum!` value (its serialized name).
fn key<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_value(v)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

/// A challenge rating: a number or a fraction string ("1/4").
fn cr<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<f32>, D::Error> {
    use serde::de::Error;
    let bad = |v: &str| {
        D::Error::custom(format!(
            "'{v}' is not a challenge rating; use e.g. 0.25, \"1/4\" or 5"
        ))
    };
    match Option::<serde_json::Value>::deserialize(d)? {
        None | Some(serde_json::Value::Null) => Ok(None),
        Some(serde_json::Value::Number(n)) => n
            .as_f64()
            .map(|x| Some(x as f32))
            .ok_or_else(|| bad(&n.to_string())),
        Some(serde_json::Value::String(s)) => {
            let t = s.trim();
            let v = match t.split_once('/') {
                Some((a, b)) => match (a.trim().parse::<f32>(), b.trim().parse::<f32>()) {
                    (Ok(a), Ok(b)) if b != 0.0 => a / b,
                    _ => return Err(bad(&s)),
                },
                None => t.parse::<f32>().map_err(|_| bad(&s))?,
            };
            Ok(Some(v))
        }
        Some(other) => Err(bad(&other.to_string())),
    }
}

/// Arguments of `search_compendium`. Filters combine with AND; each applies to some types only.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SearchCompendiumArgs {
    /// Fuzzy name, or words of the text.
    pub query: Option<String>,
    /// Entry type; equipment includes weapon, armor.
    #[serde(rename = "type")]
    pub kind: Option<KindArg>,
    /// Spells, subclasses or features of this class.
    pub class: Option<String>,
    /// Spell level 0–9, or feature level.
    pub level: Option<u8>,
    /// Spell school.
    pub school: Option<SchoolArg>,
    /// Spell: concentration.
    pub concentration: Option<bool>,
    /// Spell: ritual.
    pub ritual: Option<bool>,
    /// Spell damage type.
    pub damage_type: Option<DamageType>,
    /// Spell save.
    pub save: Option<Ability>,
    /// Monster CR ≥, e.g. 0.25 or "1/4".
    #[serde(default, deserialize_with = "cr")]
    #[schemars(with = "Option<f32>")]
    pub cr_min: Option<f32>,
    /// Monster CR ≤.
    #[serde(default, deserialize_with = "cr")]
    #[schemars(with = "Option<f32>")]
    pub cr_max: Option<f32>,
    /// Monster type.
    pub monster_type: Option<MonsterTypeArg>,
    /// Monster size.
    pub size: Option<Size>,
    /// Monster alignment.
    pub alignment: Option<String>,
    /// Magic item rarity.
    pub rarity: Option<RarityArg>,
    /// Item category slug, e.g. ring.
    pub category: Option<String>,
    /// Magic item: attunement.
    pub attunement: Option<bool>,
    /// Weapon category.
    pub weapon_category: Option<WeaponCategoryArg>,
    /// Armor category.
    pub armor_category: Option<ArmorCategoryArg>,
    /// Page, from 1.
    pub page: Option<u32>,
    /// 1–100, default 50.
    pub per_page: Option<u32>,
    /// n random matches instead of a list.
    pub random: Option<usize>,
}

impl SearchCompendiumArgs {
    fn query(self) -> SearchQuery {
        SearchQuery {
            query: self.query,
            kind: self.kind.map(|k| k.0),
            filters: SearchFilters {
                class: self.class,
                level: self.level,
                school: self.school.as_ref().map(key),
                concentration: self.concentration,
                ritual: self.ritual,
                damage_type: self.damage_type.map(|d| d.key().to_string()),
                save: self.save.map(|a| a.key().to_string()),
                cr_min: self.cr_min,
                cr_max: self.cr_max,
                monster_type: self.monster_type.map(|t| match t {
                    MonsterTypeArg::Swarm => "swarm of tiny beasts".to_string(),
                    other => key(&other),
                }),
                size: self.size.map(|s| s.key().to_string()),
                alignment: self.alignment,
                rarity: self.rarity.as_ref().map(key),
                category: self.category,
                attunement: self.attunement,
                weapon_category: self.weapon_category.as_ref().map(key),
                armor_category: self.armor_category.as_ref().map(key),
            },
            page: self.page,
            per_page: self.per_page,
            random: self.random,
            seed: None,
        }
    }
}

fn search_text(out: &SearchOutcome, query: Option<&str>) -> String {
    let p = &out.page;
    let what = out.kind.map_or("entries".to_string(), |k| {
        format!("{} entries", k.key().replace('_', " "))
    });
    let source = out.provenance.text();
    if p.hits.is_empty() {
        return if p.total == 0 {
            let q = query.map(|q| format!(" for '{q}'")).unwrap_or_default();
            format!("No {what} match{q}. Loosen a filter, or search without type. ({source})")
        } else {
            format!(
                "Page {} is past the end: {} {what} match ({} per page). ({source})",
                p.page, p.total, p.per_page
            )
        };
    }
    let mut t = match out.random {
        Some(_) => format!(
            "{} random pick(s) of {} matching {what} ({source}):",
            p.hits.len(),
            p.total
        ),
        None => {
            let first = (p.page as usize - 1) * p.per_page as usize + 1;
            format!(
                "{} {what} match, showing {first}–{} ({source}):",
                p.total,
                first + p.hits.len() - 1
            )
        }
    };
    for h in &p.hits {
        let kind = if out.kind == Some(h.kind) {
            String::new()
        } else {
            format!(" ({})", h.kind.key().replace('_', " "))
        };
        if h.summary.is_empty() {
            t.push_str(&format!("\n- {}{kind}", h.name));
        } else {
            t.push_str(&format!("\n- {}{kind}: {}", h.name, h.summary));
        }
    }
    if p.has_more && out.random.is_none() {
        t.push_str(&format!("\nMore: page {}.", p.page + 1));
    }
    t
}

fn run_search(call: &mut Call<'_>, a: SearchCompendiumArgs) -> Result<Reply, EngineError> {
    let words = a.query.clone();
    let out = search_compendium(call, &a.query())?;
    Ok(Reply::new(search_text(&out, words.as_deref()), &out))
}

/// Arguments of `get_compendium_entry`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct GetCompendiumEntryArgs {
    /// Name or slug; typos are corrected, e.g. firebal.
    pub name: String,
    /// Entry type, to disambiguate.
    #[serde(rename = "type")]
    pub kind: Option<KindArg>,
}

fn entry_text(out: &EntryOutcome<'_>) -> String {
    match out {
        EntryOutcome::Found {
            entry,
            exact,
            provenance,
        } => {
            let mut t = String::new();
            if !exact {
                t.push_str(&format!("(closest match: {})\n", entry.name()));
            }
            t.push_str(&entry.card());
            t.push_str(&format!("\nSource: {}", provenance.text()));
            t
        }
        EntryOutcome::Closest {
            given,
            candidates,
            provenance,
        } => {
            let list: Vec<String> = candidates
                .iter()
                .map(|h| format!("{} ({})", h.name, h.kind.key().replace('_', " ")))
                .collect();
            format!(
                "No entry named '{given}'. Closest: {}. Ask again with one of these names. ({})",
                list.join(", "),
                provenance.text()
            )
        }
    }
}

fn run_get(call: &mut Call<'_>, a: GetCompendiumEntryArgs) -> Result<Reply, EngineError> {
    let out = get_compendium_entry(call, a.kind.map(|k| k.0), &a.name)?;
    Ok(Reply::new(entry_text(&out), &out))
}

pub(super) fn specs() -> Vec<ToolSpec> {
    vec![
        ToolSpec {
            name: "search_compendium",
            title: "Search compendium",
            category: Category::Compendium,
            description: "Search SRD 5.1 spells, monsters, classes, races, items and rules by fuzzy name or text, with filters.",
            read_only: true,
            destructive: false,
            idempotent: true,
            core: false,
            max_result_chars: 10_000,
            schema: input_schema::<SearchCompendiumArgs>,
            core_schema: None,
            handler: |e, n, raw| {
                // Random picks come from the campaign's recorded dice stream.
                let access = if raw.get("random").is_some_and(|v| !v.is_null()) {
                    Access::Write
                } else {
                    Access::Read
                };
                invoke(e, n, raw, access, run_search)
            },
        },
        ToolSpec {
            name: "get_compendium_entry",
            title: "Get compendium entry",
            category: Category::Compendium,
            description: "One SRD 5.1 entry as a full card (spell, stat block, class, item, rule…) by fuzzy name.",
            read_only: true,
            destructive: false,
            idempotent: true,
            core: false,
            max_result_chars: 16_000,
            schema: input_schema::<GetCompendiumEntryArgs>,
            core_schema: None,
            handler: |e, n, raw| invoke(e, n, raw, Access::Read, run_get),
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args::parse;
    use serde_json::json;

    #[test]
    fn filters_parse_to_the_query() {
        let a: SearchCompendiumArgs = parse(
            "search_compendium",
            &json!({"type": "spells", "class": "wizard", "level": 3, "school": "EVOCATION",
                    "crMin": "1/4"}),
        )
        .unwrap();
        let q = a.query();
        assert_eq!(q.kind, Some(EntryKind::Spell));
        assert_eq!(q.filters.school.as_deref(), Some("evocation"));
        assert_eq!(q.filters.cr_min, Some(0.25));
    }

    #[test]
    fn bad_values_list_the_allowed_ones() {
        let e = parse::<SearchCompendiumArgs>("search_compendium", &json!({"school": "evocaton"}))
            .unwrap_err()
            .0;
        assert!(
            e.contains("did you mean 'evocation'") && e.contains("abjuration"),
            "{e}"
        );
        let e = parse::<SearchCompendiumArgs>("search_compendium", &json!({"type": "monstr"}))
            .unwrap_err()
            .0;
        assert!(e.contains("did you mean 'monster'"), "{e}");
        let e = parse::<SearchCompendiumArgs>("search_compendium", &json!({"crMax": "lots"}))
            .unwrap_err()
            .0;
        assert!(e.contains("crMax") && e.contains("1/4"), "{e}");
    }

    #[test]
    fn schemas_are_clean() {
        let s = serde_json::Value::Object(input_schema::<SearchCompendiumArgs>()).to_string();
        assert!(s.contains("\"magic_item\""), "{s}");
        assert!(!s.contains("$ref"), "{s}");
    }
}
