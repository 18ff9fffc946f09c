//! `discover_tools`: turning a need in words, or a category name, into categories to enable.

use schemars::JsonSchema;
use serde::Deserialize;

use crate::catalog::{CATALOG, Category};

/// Arguments of `discover_tools`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct DiscoverArgs {
    /// What you want to do, in words.
    pub need: Option<String>,
    /// Categories to enable.
    #[serde(default)]
    pub categories: Vec<Category>,
}

/// Words that point at each category.
const KEYWORDS: &[(Category, &[&str])] = &[
    (
        Category::Characters,
        &[
            "character",
            "sheet",
            "stat",
            "hp",
            "hit point",
            "heal",
            "damage",
            "check",
            "skill",
            "saving throw",
            "save",
            "dice",
            "roll",
            "condition",
            "poison",
            "effect",
            "bless",
            "curse",
            "rest",
            "level",
            "exhaustion",
            "npc",
        ],
    ),
    (
        Category::Combat,
        &[
            "combat",
            "fight",
            "battle",
            "encounter",
            "initiative",
            "attack",
            "turn",
            "round",
            "death save",
            "opportunity",
            "grapple",
            "shove",
            "battlefield",
            "terrain",
            "monster fight",
        ],
    ),
    (
        Category::Magic,
        &[
            "spell",
            "magic",
            "slot",
            "cast",
            "concentration",
            "scroll",
            "aura",
            "ritual",
            "cantrip",
            "improvise",
        ],
    ),
    (
        Category::Spatial,
        &[
            "distance",
            "range",
            "area",
            "aoe",
            "cone",
            "sphere",
            "line of sight",
            "sight",
            "cover",
            "movement",
            "move",
            "path",
            "reach",
            "prop",
            "position",
            "grid",
            "square",
        ],
    ),
    (
        Category::World,
        &[
            "location",
            "room",
            "dungeon",
            "door",
            "travel",
            "party",
            "inventory",
            "item",
            "equip",
            "loot",
            "gold",
            "coin",
            "currency",
            "note",
            "session",
            "context",
            "recap",
            "explore",
            "potion",
        ],
    ),
    (
        Category::Compendium,
        &[
            "srd",
            "rule",
            "look up",
            "lookup",
            "compendium",
            "stat block",
            "description",
            "class feature",
            "race",
            "background",
            "feat",
            "equipment list",
            "magic item",
            "what does",
        ],
    ),
];

/// The categories a request asks for: the named ones, plus those whose keywords or tool names
/// appear in `need`.
pub fn categories_for(args: &DiscoverArgs) -> Vec<Category> {
    let mut out: Vec<Category> = args.categories.clone();
    if let Some(need) = &args.need {
        let need = need.to_lowercase();
        for (cat, words) in KEYWORDS {
            if words.iter().any(|w| need.contains(w)) {
                out.push(*cat);
            }
        }
        for t in CATALOG.iter() {
            if need.contains(t.name) || need.contains(&t.name.replace('_', " ")) {
                out.push(t.category);
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// The categories and what each covers, for an error when nothing matched.
pub fn category_menu() -> String {
    Category::ALL
        .iter()
        .map(|c| format!("{} ({})", c.key(), c.covers()))
        .collect::<Vec<_>>()
        .join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn need(s: &str) -> Vec<Category> {
        categories_for(&DiscoverArgs {
            need: Some(s.into()),
            categories: vec![],
        })
    }

    #[test]
    fn needs_in_words_find_their_categories() {
        assert!(need("I want to cast a spell").contains(&Category::Magic));
        assert!(need("start a fight with goblins").contains(&Category::Combat));
        assert!(need("what is in the party's inventory?").contains(&Category::World));
        assert!(need("look up the rules for grappling").contains(&Category::Compendium));
        assert!(need("zzz").is_empty());
        let named = categories_for(&DiscoverArgs {
            need: None,
            categories: vec![Category::Spatial],
        });
        assert_eq!(named, vec![Category::Spatial]);
    }
}
