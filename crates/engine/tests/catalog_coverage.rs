//! The coverage targets of the mechanics catalog (issue 17), measured against the SRD (skipped
//! without TABLETOP_SRD_DIR): every SRD entry of every category is encoded (mechanical or
//! narrative with a reason: `unencoded` 0), and features, spells and magic items are at least
//! 85 % mechanical. Targets not met yet are held as known gaps with their measured numbers, so
//! closing one fails this test until the plain assertion replaces it.

use super::common;

use tabletop_engine::catalog::coverage::{Counts, coverage};

fn pct(c: &Counts) -> f64 {
    c.mechanical as f64 * 100.0 / c.total.max(1) as f64
}

#[test]
fn every_category_is_encoded_and_the_mechanical_targets_hold() {
    let Some(srd) = common::srd("catalog_coverage") else {
        return;
    };
    let c = coverage(&srd);
    let json = serde_json::to_value(&c).unwrap();
    let keys: Vec<&String> = json["categories"].as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        [
            "backgrounds",
            "feats",
            "features",
            "magicItems",
            "monsterAbilities",
            "spells",
            "traits"
        ]
    );
    for (k, n) in &c.categories {
        assert_eq!(n.unencoded, 0, "{k}: every SRD entry has a catalog entry");
        assert_eq!(n.total, n.mechanical + n.narrative, "{k}");
        assert!(n.total > 0, "{k}");
        // The JSON shape of `tabletop srd coverage --json`.
        let j = &json["categories"][k];
        assert_eq!(
            (
                j["total"].as_u64(),
                j["mechanical"].as_u64(),
                j["narrative"].as_u64(),
                j["unencoded"].as_u64()
            ),
            (
                Some(n.total as u64),
                Some(n.mechanical as u64),
                Some(n.narrative as u64),
                Some(0)
            )
        );
    }
    let at = |k: &str| c.categories[k];
    // Totals are the SRD's.
    assert_eq!(at("magicItems").total, 362);
    assert_eq!(at("spells").total, 319);
    assert_eq!(at("features").total, srd.features().len());
    assert_eq!(at("traits").total, srd.traits().len());
    assert_eq!(at("backgrounds").total, srd.backgrounds().len());
    assert_eq!(at("feats").total, srd.feats().len());
    let features = at("features");
    assert_eq!(
        (features.total, features.mechanical, features.narrative),
        PINNED_FEATURES,
        "features"
    );
    assert!(pct(&features) >= 85.0, "features mechanical ≥ 85 %");
    // Measured today (see README): held so that a change is deliberate.
    let items = at("magicItems");
    assert_eq!(
        (items.mechanical, items.narrative),
        PINNED_ITEMS,
        "magic items"
    );
    assert!(pct(&items) >= 85.0, "magic items mechanical ≥ 85 %");
    let spells = at("spells");
    assert_eq!(
        (spells.mechanical, spells.narrative),
        PINNED_SPELLS,
        "spells"
    );
    assert!(pct(&spells) >= 85.0, "spells mechanical ≥ 85 %");
    let monsters = at("monsterAbilities");
    assert_eq!(
        (monsters.total, monsters.mechanical, monsters.narrative),
        PINNED_MONSTER_ABILITIES
    );
}

// Improved Divine Smite became a rule (it was a note): 354 → 355 mechanical.
const PINNED_FEATURES: (usize, usize, usize) = (407, 355, 52);
const PINNED_ITEMS: (usize, usize) = (308, 54);
const PINNED_SPELLS: (usize, usize) = (284, 35);
// Regeneration (7 stat blocks), Relentless (5), Fey Ancestry (2) and Blood Frenzy (5) became
// traits applied in play (they were narrative): 884 → 903 mechanical. Martial Advantage (1),
// Sneak Attack (2) and Surprise Attack (2) add their dice to weapon hits: 903 → 908. Multiattacks
// that use a non-attack action, name attacks with form qualifiers or plurals, or count heads or
// dice (37) became mechanical, and Legendary Resistance (25) and Limited Magic Immunity (1) are
// applied in play: 908 → 971.
const PINNED_MONSTER_ABILITIES: (usize, usize, usize) = (1501, 971, 530);
