//! Spell rules a DM play-test found applied wrongly or silently skipped, end to end over the
//! real tools with SRD-built characters and SRD monsters, each SRD fact read from the SRD JSON
//! at run time: Sacred Flame's save ignores cover.

use super::common;

use common::{Session, srd_desc};
use serde_json::json;

fn srd() -> bool {
    common::srd(std::thread::current().name().unwrap_or("an SRD test"))
}

#[tokio::test]
async fn sacred_flame_gives_no_benefit_from_cover() {
    if !srd() {
        return;
    }
    let text = srd_desc("Spells", "sacred-flame");
    assert!(
        text.contains("the target gains no benefit from cover for this saving throw"),
        "{text}"
    );
    let s = Session::start(6).await;
    s.ok(
        "create_character",
        json!({"name": "Hilda", "race": "dwarf", "subrace": "hill dwarf",
               "classes": [{"class": "cleric", "level": 5, "subclass": "life"}],
               "stats": {"str": 14, "dex": 10, "con": 14, "int": 10, "wis": 16, "cha": 12},
               "spells": ["Sacred Flame", "Guidance", "Thaumaturgy", "Bless"]}),
    )
    .await;
    s.ok(
        "create_encounter",
        json!({"participants": [
                {"characterName": "Hilda", "position": {"x": 5, "y": 5}, "initiative": 20},
                {"monster": "skeleton", "position": {"x": 5, "y": 9}, "initiative": 9}],
               "terrain": {"width": 15, "height": 15,
                           "lowWalls": [{"x": 4, "y": 8}, {"x": 5, "y": 8}, {"x": 6, "y": 8}]}}),
    )
    .await;
    let c = s
        .ok(
            "check_cover",
            json!({"fromName": "Hilda", "toName": "Skeleton"}),
        )
        .await;
    assert!(c.text.contains("half"), "{}", c.text);
    let a = s
        .ok(
            "execute_action",
            json!({"actorName": "Hilda", "actionType": "cast_spell", "spell": "Sacred Flame", "targetName": "Skeleton"}),
        )
        .await;
    // The skeleton's DEX save is +2; half cover's +2 is not added.
    for line in [
        "Skeleton gains no benefit from cover (+2) against Sacred Flame",
        "Skeleton — Dexterity save vs Sacred Flame: d20 [13] + 2 = 15 vs DC 14 — success",
    ] {
        assert!(a.text.lines().any(|l| l == line), "{line}: {}", a.text);
    }
}
