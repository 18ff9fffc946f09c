//! The router and the alias data.

use std::collections::HashSet;

use super::*;
use crate::catalog;

#[test]
fn every_alias_routes_to_an_advertised_tool_and_no_alias_shadows_one() {
    let mut seen = HashSet::new();
    for a in ALIASES {
        assert!(
            catalog::find(a.tool).is_some(),
            "{} routes to missing {}",
            a.legacy,
            a.tool
        );
        assert!(
            catalog::find(a.legacy).is_none(),
            "{} is advertised",
            a.legacy
        );
        assert!(seen.insert(a.legacy), "{} listed twice", a.legacy);
    }
}

#[test]
fn switched_composites_route_to_advertised_tools() {
    for sw in SWITCHES {
        assert!(find(sw.legacy).is_none() && catalog::find(sw.legacy).is_none());
        for (_, a) in &sw.routes {
            assert!(
                catalog::find(a.tool).is_some(),
                "{} routes to missing {}",
                sw.legacy,
                a.tool
            );
        }
    }
    let a = find_for("combat_manage", &serde_json::json!({"action": "advance"}))
        .unwrap()
        .unwrap();
    let v = route(a, &serde_json::json!({"action": "advance", "id": "enc1"})).unwrap();
    assert_eq!(
        (a.tool, v),
        ("advance_turn", serde_json::json!({"encounterId": "enc1"}))
    );
    assert!(find_for("combat_manage", &serde_json::json!({"action": "fly"})).is_err());
    let a = find("setup_tactical_encounter").unwrap();
    let v = route(
        a,
        &serde_json::json!({"seed": "x", "participants": [
            {"id": "g", "name": "Gob", "hp": 5, "maxHp": 7, "initiativeBonus": 2, "isEnemy": true}
        ]}),
    )
    .unwrap();
    assert_eq!(
        v,
        serde_json::json!({"participants": [
            {"name": "Gob", "hp": 7, "ac": 10, "stats": {"dex": 14}, "side": "enemy"}
        ]})
    );
}

#[test]
fn composites_route_each_action_to_an_advertised_tool() {
    for c in SWITCHES {
        assert!(catalog::find(c.legacy).is_none() && find(c.legacy).is_none());
        for (action, a) in &c.routes {
            assert!(catalog::find(a.tool).is_some(), "{}/{action}", c.legacy);
        }
    }
    let args = serde_json::json!({"action": "aoe", "shape": "circle", "radius": 4});
    let a = find_for("combat_map", &args).unwrap().unwrap();
    assert_eq!(a.tool, "calculate_aoe");
    let v = route(a, &args).unwrap();
    assert_eq!(v["shape"], "sphere");
    assert_eq!(v["sizeFt"], 20, "legacy radius is in squares");
    assert!(find_for("combat_map", &serde_json::json!({})).is_err());
}

#[test]
fn retired_names_do_not_collide_with_aliases_or_tools() {
    for a in ALIASES {
        assert!(
            retired(a.legacy).is_none(),
            "{} is both routed and retired",
            a.legacy
        );
    }
    for t in catalog::CATALOG.iter() {
        assert!(
            retired(t.name).is_none(),
            "{} is both advertised and retired",
            t.name
        );
    }
    assert!(retired("assign_quest_to_character").is_some());
    assert!(retired("probability_calculate").is_some());
}

#[test]
fn routing_fills_renames_and_converts() {
    let a = find("apply_damage").unwrap();
    let v = route(
        a,
        &serde_json::json!({"id": "ch1", "amount": 7, "damageType": "fire"}),
    )
    .unwrap();
    assert_eq!(
        v,
        serde_json::json!({"characterId": "ch1", "damage": [{"amount": 7, "type": "fire"}]})
    );
    let a = find("roll_saving_throw").unwrap();
    let v = route(
        a,
        &serde_json::json!({"characterName": "X", "ability": "dex", "checkType": "ability"}),
    )
    .unwrap();
    assert_eq!(v["checkType"], "ability", "a caller's own value wins");
}

#[test]
fn the_alias_data_parses_and_every_name_resolves() {
    let t = table::tables().expect("aliases.toml loads");
    assert!(t.aliases.len() > 150, "{} aliases", t.aliases.len());
    let mut names = HashSet::new();
    let routes = t
        .aliases
        .iter()
        .map(|a| (a.legacy, None, a))
        .chain(t.switches.iter().flat_map(|s| {
            s.routes
                .iter()
                .map(move |(action, a)| (s.legacy, Some(*action), a))
        }));
    for (legacy, action, a) in routes {
        assert!(
            catalog::find(a.tool).is_some(),
            "{legacy} {action:?} routes to missing tool {}",
            a.tool
        );
        match (a.convert_name, a.convert) {
            (None, None) => {}
            (Some(n), Some(f)) => assert!(
                convert::find(n).is_some_and(|g| g as usize == f as usize),
                "{legacy}: converter {n} does not resolve"
            ),
            (n, _) => panic!("{legacy}: converter {n:?} half resolved"),
        }
        if action.is_none() {
            assert!(names.insert(legacy), "alias {legacy} is listed twice");
        }
        for (from, to) in a.rename {
            assert!(
                !from.is_empty() && !to.is_empty() && from != to,
                "{legacy}: rename {from} -> {to}"
            );
        }
    }
    for s in &t.switches {
        assert!(names.insert(s.legacy), "switch {} is also listed", s.legacy);
        let mut actions = HashSet::new();
        for (action, _) in &s.routes {
            assert!(
                actions.insert(*action),
                "{}: action {action} twice",
                s.legacy
            );
        }
    }
    for r in &t.retired {
        assert!(!r.names.is_empty() && !r.what.is_empty() && !r.instead.is_empty());
    }
    let mut conv = HashSet::new();
    for (n, _) in convert::CONVERTERS {
        assert!(conv.insert(*n), "converter {n} registered twice");
    }
}

#[test]
fn a_bad_converter_or_rename_set_is_an_error_naming_the_entry() {
    fn load(text: &'static str) -> Result<table::Tables, AliasDataError> {
        table::load(text)
    }
    let bad = load("[[alias]]\nlegacy = \"x_y\"\ntool = \"roll_dice\"\nconvert = \"no_such_fn\"\n")
        .unwrap_err();
    assert_eq!(
        bad.to_string(),
        "aliases.toml, alias x_y: convert names no converter no_such_fn"
    );
    let bad =
        load("[[alias]]\nlegacy = \"x_y\"\ntool = \"roll_dice\"\nrename = \"nope\"\n").unwrap_err();
    assert_eq!(
        bad.to_string(),
        "aliases.toml, alias x_y: rename names no [renames] set nope"
    );
    assert!(matches!(
        load("[[alias]]\nlegacy = \"x_y\"\ntool = \"roll_dice\"\nconvrt = \"drop_world\"\n"),
        Err(AliasDataError::Parse(_))
    ));
    let ok = load(
        "[renames]\nid = [[\"b\", \"z\"], [\"a\", \"z\"]]\n[[alias]]\nlegacy = \"x_y\"\ntool = \"t\"\nrename = \"id\"\nset = { n = 2 }\nconvert = \"drop_world\"\n",
    )
    .unwrap();
    let a = &ok.aliases[0];
    let pairs: Vec<(&str, &str)> = a
        .rename
        .iter()
        .map(|(f, t)| (f.as_str(), t.as_str()))
        .collect();
    assert_eq!(
        pairs,
        [("b", "z"), ("a", "z")],
        "rename keeps the file's order"
    );
    assert_eq!(a.set, [("n", serde_json::json!(2))]);
    assert_eq!(a.convert_name, Some("drop_world"));
}

#[test]
fn the_sets_converters_apply_themselves_match_the_data() {
    let t = table::tables().unwrap();
    for (name, pairs) in convert::MIRRORED_SETS {
        let data: Vec<(&str, &str)> = t.renames[*name]
            .iter()
            .map(|(f, t)| (f.as_str(), t.as_str()))
            .collect();
        assert_eq!(&data, pairs, "[renames] {name}");
    }
}
