//! Argument plumbing shared by every tool: strict, case-insensitive parsing with errors that name
//! the field, what was wrong and what is allowed.

use serde::de::DeserializeOwned;
use serde_json::Value;
use tabletop_rules::vocab::closest;

use crate::reply::ToolError;

/// Deserializes a tool's arguments, turning serde's complaint into a fix-it message.
pub fn parse<T: DeserializeOwned>(tool: &str, raw: &Value) -> Result<T, ToolError> {
    let empty = Value::Object(Default::default());
    let raw = if raw.is_null() { &empty } else { raw };
    serde_path_to_error::deserialize::<_, T>(raw).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner().to_string();
        ToolError(explain(tool, &path, &inner))
    })
}

fn explain(tool: &str, path: &str, msg: &str) -> String {
    let at = if path == "." || path.is_empty() {
        String::new()
    } else {
        format!(" at '{path}'")
    };
    let msg = &schema_words(msg, tool);
    let mut out = format!("invalid arguments for {tool}{at}: {msg}");
    // serde lists alternatives as "unknown field `x`, expected one of `a`, `b`": add a suggestion.
    if let Some(given) = msg.split('`').nth(1)
        && (msg.starts_with("unknown field") || msg.starts_with("unknown variant"))
    {
        let allowed: Vec<&str> = msg.split('`').skip(3).step_by(2).collect();
        let meant = if msg.starts_with("unknown field") {
            meant_fields(given, &allowed)
        } else {
            closest(given, allowed.iter().copied())
                .into_iter()
                .collect()
        };
        match meant.as_slice() {
            [] => {}
            [one] => out.push_str(&format!(" (did you mean `{one}`?)")),
            many => out.push_str(&format!(" (did you mean one of `{}`?)", many.join("`, `"))),
        }
    }
    out
}

/// The fields a caller plausibly meant by the unknown field `given`: the same name written
/// another way (`character_name`, `CharacterName` for `characterName`); else the fields that
/// begin or end with it, word by word (`name` for `characterName`, `target` for `targetId` and
/// `targetName`); else the closest by edit distance (`dcc` for `dc`).
fn meant_fields<'a>(given: &str, allowed: &[&'a str]) -> Vec<&'a str> {
    let squash = |s: &str| -> String {
        s.chars()
            .filter(|c| c.is_alphanumeric())
            .map(|c| c.to_ascii_lowercase())
            .collect()
    };
    let g = squash(given);
    if g.is_empty() {
        return Vec::new();
    }
    if let Some(same) = allowed.iter().find(|a| squash(a) == g) {
        return vec![same];
    }
    let ends: Vec<&str> = allowed
        .iter()
        .copied()
        .filter(|a| {
            let words = word_starts(a);
            words.iter().any(|&at| at > 0 && squash(&a[at..]) == g)
                || words.iter().any(|&at| at > 0 && squash(&a[..at]) == g)
        })
        .collect();
    if !ends.is_empty() {
        return ends;
    }
    closest(given, allowed.iter().copied())
        .into_iter()
        .collect()
}

/// Where each word of a camelCase or snake_case name begins (0 first).
fn word_starts(name: &str) -> Vec<usize> {
    let mut starts = vec![0];
    let mut prev: Option<char> = None;
    for (i, c) in name.char_indices() {
        let new_word = match prev {
            Some(p) => (c.is_uppercase() && !p.is_uppercase()) || (p == '_' && c != '_'),
            None => false,
        };
        if new_word && i > 0 {
            starts.push(i);
        }
        prev = Some(c);
    }
    starts
}

/// Rewrites serde's wording into the schema's: JSON shapes (object, array, whole number) instead
/// of the Rust types behind them (`struct WhoArg`, `u32`, `untagged enum …`).
pub fn schema_words(msg: &str, tool: &str) -> String {
    let mut out = msg.to_string();
    for (prefix, shape) in [
        (
            "data did not match any variant of untagged enum ",
            "UNTAGGED",
        ),
        ("expected tuple struct ", "an array"),
        ("expected unit struct ", "null"),
        ("expected struct variant ", "an object"),
        ("expected struct ", "an object"),
        ("expected enum ", "one of the allowed values"),
    ] {
        while let Some(at) = out.find(prefix) {
            let rest = &out[at + prefix.len()..];
            let ident = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            let with = if shape == "UNTAGGED" {
                format!(
                    "the value has none of the shapes this field accepts (see tabletop://tools/{tool} for them)"
                )
            } else {
                format!("expected {shape}")
            };
            out.replace_range(at..at + prefix.len() + ident, &with);
        }
    }
    for (rust, words) in [
        ("a sequence", "an array"),
        ("a map", "an object"),
        ("usize", "a whole number of 0 or more"),
        ("u64", "a whole number of 0 or more"),
        ("u32", "a whole number from 0 to 4294967295"),
        ("u16", "a whole number from 0 to 65535"),
        ("u8", "a whole number from 0 to 255"),
        ("i64", "a whole number"),
        ("i32", "a whole number from -2147483648 to 2147483647"),
        ("i16", "a whole number from -32768 to 32767"),
        ("i8", "a whole number from -128 to 127"),
        ("f64", "a number"),
        ("f32", "a number"),
        ("a borrowed string", "a string"),
        ("a boolean", "true or false"),
    ] {
        for tail in [",", " ", ""] {
            let from = format!("expected {rust}{tail}");
            if tail.is_empty() {
                if out.ends_with(&from) {
                    let n = out.len() - from.len();
                    out.truncate(n);
                    out.push_str(&format!("expected {words}"));
                }
            } else {
                out = out.replace(&from, &format!("expected {words}{tail}"));
            }
        }
    }
    out.replace("integer `", "`")
        .replace("floating point `", "`")
}

/// Deserializes one `T` or an array of them, keeping the inner error (serde's untagged enums
/// would replace it with "data did not match any variant").
pub fn one_or_many<'de, D, T>(d: D) -> Result<Option<Vec<T>>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: DeserializeOwned,
{
    use serde::Deserialize;
    use serde::de::Error;
    let v = Option::<Value>::deserialize(d)?;
    match v {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Array(items)) => items
            .into_iter()
            .enumerate()
            .map(|(i, item)| {
                serde_json::from_value(item)
                    .map_err(|e| D::Error::custom(format!("item {}: {e}", i + 1)))
            })
            .collect::<Result<Vec<T>, _>>()
            .map(Some),
        Some(one) => serde_json::from_value(one)
            .map(|t| Some(vec![t]))
            .map_err(D::Error::custom),
    }
}

/// Declares a closed string enum for tool arguments: snake_case values, parsed case-insensitively,
/// advertised in the schema with every value.
#[macro_export]
macro_rules! arg_enum {
    (
        $(#[$meta:meta])*
        pub enum $name:ident { $( $(#[$vmeta:meta])* $variant:ident = $key:literal ),+ $(,)? }
    ) => {
        $(#[$meta])*
        #[derive(
            Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, schemars::JsonSchema,
        )]
        pub enum $name { $( $(#[$vmeta])* #[serde(rename = $key)] $variant ),+ }

        impl $name {
            /// Every allowed value.
            pub const KEYS: &'static [&'static str] = &[$($key),+];
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let s = String::deserialize(d)?;
                let k = tabletop_rules::vocab::normalize_key(&s);
                match k.as_str() {
                    $($key => Ok($name::$variant),)+
                    _ => {
                        let hint = tabletop_rules::vocab::closest(&k, Self::KEYS.iter().copied())
                            .map(|c| format!(" (did you mean '{c}'?)"))
                            .unwrap_or_default();
                        Err(serde::de::Error::custom(format!(
                            "unknown value '{s}'{hint}; allowed: {}",
                            Self::KEYS.join(", ")
                        )))
                    }
                }
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    arg_enum! {
        /// A test enum.
        pub enum Kind { Skill = "skill", Save = "save" }
    }

    #[derive(serde::Deserialize, Debug)]
    #[serde(deny_unknown_fields, rename_all = "camelCase")]
    #[allow(dead_code)]
    struct A {
        check_type: Kind,
        dc: Option<i32>,
    }

    #[test]
    fn enum_values_are_case_insensitive_with_suggestions() {
        let a: A = parse("t", &serde_json::json!({"checkType": "SKILL"})).unwrap();
        assert_eq!(a.check_type, Kind::Skill);
        let e = parse::<A>("t", &serde_json::json!({"checkType": "skil"}))
            .unwrap_err()
            .0;
        assert!(e.contains("did you mean 'skill'"), "{e}");
        assert!(e.contains("checkType"), "{e}");
    }

    #[test]
    fn unknown_fields_are_rejected_with_a_suggestion() {
        let e = parse::<A>("t", &serde_json::json!({"checkType": "save", "dcc": 3}))
            .unwrap_err()
            .0;
        assert!(e.contains("unknown field `dcc`"), "{e}");
        assert!(e.contains("did you mean `dc`"), "{e}");
    }

    #[derive(serde::Deserialize, Debug)]
    #[serde(deny_unknown_fields, rename_all = "camelCase")]
    #[allow(dead_code)]
    struct Get {
        character_id: Option<String>,
        character_name: Option<String>,
        target_id: Option<String>,
        target_name: Option<String>,
        page: Option<u32>,
    }

    fn unknown(field: &str) -> String {
        let mut args = serde_json::Map::new();
        args.insert(field.into(), serde_json::json!("x"));
        parse::<Get>("t", &Value::Object(args)).unwrap_err().0
    }

    #[test]
    fn an_unknown_field_suggests_the_field_it_is_a_word_of() {
        // The closest by edit distance would be `page` (2 edits from `name`).
        let e = unknown("name");
        assert!(
            e.ends_with("(did you mean one of `characterName`, `targetName`?)"),
            "{e}"
        );
        let e = unknown("characterNam");
        assert!(e.ends_with("(did you mean `characterName`?)"), "{e}");
        assert!(
            unknown("id").ends_with("(did you mean one of `characterId`, `targetId`?)"),
            "{}",
            unknown("id")
        );
        assert!(
            unknown("target").ends_with("(did you mean one of `targetId`, `targetName`?)"),
            "{}",
            unknown("target")
        );
        for other_case in ["character_name", "CharacterName", "character-name"] {
            let e = unknown(other_case);
            assert!(e.ends_with("(did you mean `characterName`?)"), "{e}");
        }
        let e = unknown("pag");
        assert!(e.ends_with("(did you mean `page`?)"), "{e}");
        let e = unknown("zzzzzz");
        assert!(!e.contains("did you mean"), "{e}");
    }

    #[test]
    fn wrong_types_name_the_field() {
        let e = parse::<A>("t", &serde_json::json!({"checkType": "save", "dc": "high"}))
            .unwrap_err()
            .0;
        assert!(e.contains("'dc'"), "{e}");
    }

    #[derive(serde::Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct WhoArg {
        id: Option<String>,
    }

    #[derive(serde::Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct B {
        who: WhoArg,
        n: Option<u32>,
    }

    #[test]
    fn errors_use_json_shapes_not_rust_types() {
        let e = parse::<B>("t", &serde_json::json!({"who": "pt1"}))
            .unwrap_err()
            .0;
        assert_eq!(
            e,
            "invalid arguments for t at 'who': invalid type: string \"pt1\", expected an object"
        );
        let e = parse::<B>("t", &serde_json::json!({"who": {}, "n": -1}))
            .unwrap_err()
            .0;
        assert_eq!(
            e,
            "invalid arguments for t at 'n': invalid value: `-1`, expected a whole number from 0 to 4294967295"
        );
    }
}
