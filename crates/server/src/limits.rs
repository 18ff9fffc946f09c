//! Input caps, enforced in one place for every tool before its arguments are parsed: each text
//! field has a cap (by name, else by its kind: ids, names, free text), arrays and whole calls are
//! bounded, and an error never quotes more than a short prefix of what the caller sent.
//!
//! The README's "Input limits" table lists [`FIELD_CAPS`] and the kind defaults; a test checks
//! that the two agree.

use serde_json::Value;

use crate::reply::ToolError;

/// Most characters of a value an error answer quotes before cutting it with "…".
pub const QUOTE_CHARS: usize = 40;

/// Most bytes of a whole call's arguments (as JSON).
pub const MAX_ARGS_BYTES: usize = 1024 * 1024;

/// Most items of any array argument: every square of the largest map (batches have their own,
/// smaller cap).
pub const MAX_ARRAY_ITEMS: usize = 40_000;

/// Most levels of nested objects and arrays.
pub const MAX_DEPTH: usize = 16;

/// Cap of an id field (`id`, `…Id`).
pub const ID_CAP: usize = 64;

/// Cap of a name field (`name`, `…Name`, and references such as `spell`, `weapon`, `monster`).
pub const NAME_CAP: usize = 100;

/// Cap of any other text field not listed in [`FIELD_CAPS`].
pub const DEFAULT_CAP: usize = 200;

/// Fields with their own cap, in characters.
pub const FIELD_CAPS: &[(&str, usize)] = &[
    // Dice expressions: the dice parser's own limit.
    ("expression", 256),
    ("dice", 256),
    ("damage", 256),
    ("damageDice", 256),
    ("bonusDamage", 256),
    ("versatileDamage", 256),
    ("healing", 256),
    ("heal", 256),
    ("rechargeDice", 256),
    ("amount", 256),
    // Free text kept in the campaign.
    ("reason", 500),
    ("note", 500),
    ("source", 100),
    ("trigger", 500),
    ("effect", 1_000),
    ("description", 4_000),
    ("notes", 4_000),
    ("content", 10_000),
    // Searches.
    ("query", 200),
    ("need", 200),
    ("tags", 40),
    ("tagFilter", 40),
];

/// Numbers that meet a rule (added to a d20, compared with a DC): their allowed ranges, so no sum
/// a rule makes can overflow and a typo such as 2147483647 is refused rather than wrapped.
pub const NUMBER_RANGES: &[(&str, i64, i64)] = &[
    ("bonus", -50, 50),
    ("attackBonus", -50, 50),
    ("damageBonus", -50, 50),
    ("saveBonus", -50, 50),
    ("acBonus", -50, 50),
    ("maxDexBonus", -50, 50),
    ("initiative", -50, 100),
    ("speedBonus", -500, 500),
    ("ac", 0, 100),
    ("baseAc", 0, 100),
    ("dc", 0, 100),
    ("saveDc", 0, 100),
    ("lockDc", 0, 100),
    ("findDc", 0, 100),
    ("hiddenDc", 0, 100),
    ("str", -30, 30),
    ("dex", -30, 30),
    ("con", -30, 30),
    ("int", -30, 30),
    ("wis", -30, 30),
    ("cha", -30, 30),
];

/// The cap of a text field named `field` (camelCase, as the schema spells it).
pub fn cap_of(field: &str) -> usize {
    if let Some((_, cap)) = FIELD_CAPS.iter().find(|(f, _)| *f == field) {
        return *cap;
    }
    if field == "id" || field.ends_with("Id") || field.ends_with("Ids") {
        ID_CAP
    } else if field == "name"
        || field.ends_with("Name")
        || field.ends_with("Names")
        || matches!(
            field,
            "spell"
                | "spells"
                | "weapon"
                | "monster"
                | "caster"
                | "item"
                | "class"
                | "race"
                | "subrace"
                | "subclass"
                | "background"
                | "to"
                | "turnOf"
                | "fromMonster"
                | "languages"
                | "equipment"
        )
    {
        NAME_CAP
    } else {
        DEFAULT_CAP
    }
}

/// At most [`QUOTE_CHARS`] characters of `s`, with "…" when cut.
pub fn quote(s: &str) -> String {
    let mut it = s.chars();
    let head: String = it.by_ref().take(QUOTE_CHARS).collect();
    if it.next().is_some() {
        format!("{head}…")
    } else {
        head
    }
}

/// Refuses arguments over any cap, naming the field (as a path), its size, the cap and the start
/// of the value.
pub fn check(tool: &str, args: &Value) -> Result<(), ToolError> {
    if !(args.is_object() || args.is_null()) {
        let shape = match args {
            Value::Array(_) => "an array",
            Value::String(_) => "a string",
            Value::Number(_) => "a number",
            _ => "true or false",
        };
        return Err(ToolError(format!(
            "arguments for {tool} must be a JSON object of its fields, not {shape}"
        )));
    }
    let bytes = serialized_len(args);
    if bytes > MAX_ARGS_BYTES {
        return Err(ToolError(format!(
            "arguments for {tool} are {bytes} bytes; the cap is {MAX_ARGS_BYTES} bytes per call (see the README's input limits): send less text or split the work over several calls"
        )));
    }
    walk(tool, args, "", "", 0)
}

/// The length of `v` serialized as compact JSON, counted without building the string.
fn serialized_len(v: &Value) -> usize {
    struct Count(usize);
    impl std::io::Write for Count {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0 = self.0.saturating_add(buf.len());
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut n = Count(0);
    match serde_json::to_writer(&mut n, v) {
        Ok(()) => n.0,
        Err(_) => 0,
    }
}

fn walk(tool: &str, v: &Value, path: &str, field: &str, depth: usize) -> Result<(), ToolError> {
    if depth > MAX_DEPTH {
        return Err(ToolError(format!(
            "{tool}: {} nests objects and arrays more than {MAX_DEPTH} levels deep; the schema needs far fewer",
            shown(path)
        )));
    }
    match v {
        Value::String(s) => {
            let cap = cap_of(field);
            let n = s.chars().count();
            if n > cap {
                return Err(ToolError(format!(
                    "{tool}: {} is {n} characters; the cap is {cap} (see the README's input limits). It begins '{}'",
                    shown(path),
                    quote(s)
                )));
            }
        }
        Value::Number(n) => {
            if let Some((_, lo, hi)) = NUMBER_RANGES.iter().find(|(f, _, _)| *f == field) {
                let ok = match n.as_i64() {
                    Some(i) => (*lo..=*hi).contains(&i),
                    None => n
                        .as_f64()
                        .is_some_and(|f| f >= *lo as f64 && f <= *hi as f64),
                };
                if !ok {
                    return Err(ToolError(format!(
                        "{tool}: {} is {}; allowed: {lo} to {hi}",
                        shown(path),
                        quote(&n.to_string())
                    )));
                }
            }
        }
        Value::Array(items) => {
            if items.len() > MAX_ARRAY_ITEMS {
                return Err(ToolError(format!(
                    "{tool}: {} holds {} items; the cap is {MAX_ARRAY_ITEMS}",
                    shown(path),
                    items.len()
                )));
            }
            for (i, item) in items.iter().enumerate() {
                walk(tool, item, &format!("{path}[{i}]"), field, depth + 1)?;
            }
        }
        Value::Object(map) => {
            for (k, item) in map {
                if k.chars().count() > NAME_CAP {
                    return Err(ToolError(format!(
                        "{tool}: a field name of {} characters ('{}') is not in the schema; field names are short",
                        k.chars().count(),
                        quote(k)
                    )));
                }
                let p = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                // Batch items and other wrappers keep their fields' own names.
                walk(tool, item, &p, k, depth + 1)?;
            }
        }
        _ => {}
    }
    Ok(())
}

fn shown(path: &str) -> String {
    if path.is_empty() {
        "the arguments".into()
    } else {
        path.to_string()
    }
}

/// Shortens every long value of `args` that `msg` quotes back to its first [`QUOTE_CHARS`]
/// characters, and caps the message itself.
pub fn shorten_error(mut msg: String, args: &Value) -> String {
    let mut long = Vec::new();
    collect_long(args, &mut long);
    long.sort_by_key(|s| std::cmp::Reverse(s.len()));
    for s in long {
        for form in [s.as_str(), s.trim()] {
            if form.chars().count() > QUOTE_CHARS && msg.contains(form) {
                msg = msg.replace(form, &quote(form));
            }
        }
    }
    const MAX_ERROR_CHARS: usize = 4_000;
    if msg.len() > MAX_ERROR_CHARS {
        let mut cut = MAX_ERROR_CHARS;
        while !msg.is_char_boundary(cut) {
            cut -= 1;
        }
        msg.truncate(cut);
        msg.push('…');
    }
    msg
}

fn collect_long(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) if s.chars().count() > QUOTE_CHARS => out.push(s.clone()),
        Value::Array(items) => items.iter().for_each(|i| collect_long(i, out)),
        Value::Object(map) => {
            for (k, i) in map {
                if k.chars().count() > QUOTE_CHARS {
                    out.push(k.clone());
                }
                collect_long(i, out);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_readme_table_lists_every_cap() {
        let readme = include_str!("../../../README.md");
        let section = readme
            .split("### Input limits")
            .nth(1)
            .and_then(|s| s.split("\n### ").next())
            .expect("README has an Input limits section");
        let row = |field: &str| {
            section
                .lines()
                .find(|l| l.starts_with('|') && l.contains(&format!("`{field}`")))
                .unwrap_or_else(|| panic!("README input limits lack `{field}`"))
                .to_string()
        };
        for (field, cap) in FIELD_CAPS {
            let shown = if *cap >= 1_000 {
                format!("{},{:03} characters", cap / 1_000, cap % 1_000)
            } else {
                format!("{cap} characters")
            };
            assert!(row(field).contains(&shown), "{field}: {}", row(field));
        }
        for (field, lo, hi) in NUMBER_RANGES {
            let shown = format!("{} to {hi}", lo.to_string().replace('-', "−"));
            assert!(row(field).contains(&shown), "{field}: {}", row(field));
        }
        assert!(row("id").contains(&format!("{ID_CAP} characters")));
        assert!(row("name").contains(&format!("{NAME_CAP} characters")));
    }

    #[test]
    fn caps_by_name_and_kind() {
        assert_eq!(cap_of("reason"), 500);
        assert_eq!(cap_of("characterId"), ID_CAP);
        assert_eq!(cap_of("partyName"), NAME_CAP);
        assert_eq!(cap_of("whatever"), DEFAULT_CAP);
    }

    #[test]
    fn oversized_text_is_refused_with_the_cap_and_a_short_prefix() {
        let big = "x".repeat(1_000_000);
        let e = check("roll_dice", &json!({"batch": [{"reason": big}]}))
            .unwrap_err()
            .0;
        assert_eq!(
            e,
            format!(
                "roll_dice: batch[0].reason is 1000000 characters; the cap is 500 (see the README's input limits). It begins '{}…'",
                "x".repeat(40)
            )
        );
        assert!(check("roll_dice", &json!({"reason": "x".repeat(500)})).is_ok());
    }

    #[test]
    fn rule_numbers_are_range_checked() {
        let e = check(
            "make_attack",
            &json!({"attacks": [{"bonus": 2147483647i64}]}),
        )
        .unwrap_err()
        .0;
        assert_eq!(
            e,
            "make_attack: attacks[0].bonus is 2147483647; allowed: -50 to 50"
        );
        assert!(check("make_attack", &json!({"bonus": -50})).is_ok());
    }

    #[test]
    fn errors_quote_a_prefix_only() {
        let name = "N".repeat(90);
        let msg = format!("no character '{name}' in this campaign");
        let out = shorten_error(msg, &json!({"characterName": name}));
        assert_eq!(
            out,
            format!("no character '{}…' in this campaign", "N".repeat(40))
        );
    }
}
