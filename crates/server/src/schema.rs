//! Input schemas: derived from the argument types with schemars, then cleaned for portability and
//! size (no `$schema`, `$defs` inlined, no `format: uint32`, optional fields typed `T` rather than
//! `[T, "null"]`, documented enum variants folded into one `enum`).

use schemars::JsonSchema;
use schemars::generate::SchemaSettings;
use serde_json::{Map, Value};

/// The cleaned JSON Schema object of `T`, a long enum advertised once (see `share_enums`).
pub fn input_schema<T: JsonSchema>() -> Map<String, Value> {
    shared(cleaned::<T>())
}

/// The cleaned schema of `T` with only `fields` (and their `required`): a lean schema to
/// advertise where the full one costs too much. The server still accepts every field of `T`.
pub fn lean_schema<T: JsonSchema>(fields: &[&str]) -> Map<String, Value> {
    let mut schema = cleaned::<T>();
    if let Some(Value::Object(props)) = schema.get_mut("properties") {
        props.retain(|k, _| fields.contains(&k.as_str()));
    }
    if let Some(Value::Array(req)) = schema.get_mut("required") {
        req.retain(|r| r.as_str().is_some_and(|r| fields.contains(&r)));
    }
    shared(schema)
}

fn shared(schema: Map<String, Value>) -> Map<String, Value> {
    let mut value = Value::Object(schema);
    share_enums(&mut value, "", &mut Vec::new());
    match value {
        Value::Object(m) => m,
        _ => Map::new(),
    }
}

fn cleaned<T: JsonSchema>() -> Map<String, Value> {
    let mut settings = SchemaSettings::draft2020_12();
    settings.inline_subschemas = true;
    settings.meta_schema = None;
    let schema = settings.into_generator().into_root_schema_for::<T>();
    let mut value = schema.to_value();
    clean(&mut value, true);
    match value {
        Value::Object(mut m) => {
            m.entry("type")
                .or_insert_with(|| Value::String("object".into()));
            m
        }
        _ => Map::new(),
    }
}

/// Enums up to this many values are advertised whole in a compact schema (abilities, shapes,
/// rarities, schools…); a longer one (the 13 damage types, 15 conditions, 18 skills), unless
/// required or a selector, becomes a plain string: the words are the SRD's own, and the server
/// rejects an unknown value with the allowed list and a suggestion.
pub const COMPACT_ENUM_MAX: usize = 12;

/// Fields that select what a tool does: their values are always advertised.
const SELECTORS: &[&str] = &[
    "operation",
    "actionType",
    "checkType",
    "mode",
    "type",
    "shape",
    "verbosity",
];

/// The compact form of a cleaned schema, as advertised by default: every field a caller can set,
/// by name. Common fields keep their type, their enum when it is short (or the field selects
/// what the tool does) and a few words where the name and type are not enough ([`HINTS`]);
/// nested objects are `object`, arrays keep a plain item type. A tool's rarely used fields are
/// listed as `{}` (any value: the name alone, so an agent knows they exist and reads their shape
/// from `tabletop://tools/{name}`). An `xId` beside an `xName` is the same field by id (the
/// server's instructions say so once) and is not listed again. The full schema (every field's
/// description and nested shape) is what the server validates against.
pub fn compact(schema: &Map<String, Value>, rare: &[&str]) -> Map<String, Value> {
    let mut out = Map::new();
    out.insert("type".into(), Value::String("object".into()));
    let required: Vec<&str> = match schema.get("required") {
        Some(Value::Array(r)) => r.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    if let Some(Value::Object(props)) = schema.get("properties") {
        let props: Map<String, Value> = props
            .iter()
            .filter(|(k, _)| {
                let k = k.as_str();
                // `xId` beside `xName`: the name is advertised, the id still accepted.
                let paired = k
                    .strip_suffix("Id")
                    .is_some_and(|stem| props.contains_key(&format!("{stem}Name")));
                required.contains(&k) || !paired
            })
            .map(|(k, v)| {
                let ks = k.as_str();
                if !required.contains(&ks) && rare.contains(&ks) {
                    return (k.clone(), Value::Object(Map::new()));
                }
                let keep = required.contains(&ks) || SELECTORS.contains(&ks);
                (k.clone(), compact_field(k, v, keep))
            })
            .collect();
        out.insert("properties".into(), Value::Object(props));
    }
    if let Some(req) = schema.get("required") {
        out.insert("required".into(), req.clone());
    }
    // The batch alternative (`anyOf` of `required` sets) stays: it is what is required.
    if let Some(any) = schema.get("anyOf") {
        out.insert("anyOf".into(), any.clone());
    }
    out
}

/// A few words for compact fields whose name and type do not say what to send. Squares
/// (`{x, y, z?}`: `to`, `from`, `origin`, `position`…) are described once, in the server's
/// instructions.
const HINTS: &[(&str, &str)] = &[
    ("classes", "[{class, level, subclass?}]"),
    ("damage", "[{amount, type}]"),
    ("filter", "{class, race, type, minLevel, …}"),
    ("item", "{name, type?, quantity?, …}"),
    ("modifiers", "[{type, amount?, on?}]"),
    ("participant", "one of create_encounter's participants"),
    (
        "participants",
        "[{monster|characterName|name, count?, position?}]",
    ),
    ("rewards", "{xp?, gp?, items?}"),
    ("stats", "{str, dex, con, int, wis, cha}"),
    ("targets", "[{id|name}]"),
    ("terrain", "{width, height, walls?, obstacles?, …}"),
];

/// The hint for `name` when its compact form is an object or an array of objects.
fn hint(name: &str, v: &Value) -> Option<&'static str> {
    let shaped = match v.get("type").and_then(Value::as_str) {
        Some("object") => true,
        Some("array") => v.get("items").is_none_or(|i| {
            i.get("type") == Some(&"object".into()) || i.get("properties").is_some()
        }),
        _ => false,
    };
    if !shaped {
        return None;
    }
    HINTS.iter().find(|(n, _)| *n == name).map(|(_, h)| *h)
}

fn compact_field(name: &str, v: &Value, keep_enum: bool) -> Value {
    let batch = name == "batch";
    let mut m = Map::new();
    if let Some(Value::Array(values)) = v.get("enum")
        && (keep_enum || values.len() <= COMPACT_ENUM_MAX)
    {
        m.insert("enum".into(), Value::Array(values.clone()));
        return Value::Object(m);
    }
    match v.get("type") {
        Some(t) => {
            m.insert("type".into(), t.clone());
        }
        None if v.get("properties").is_some() => {
            m.insert("type".into(), Value::String("object".into()));
        }
        None => {}
    }
    // An array's items: a short enum in full; `batch` items as objects (of the tool's own
    // fields); other item shapes are in the full schema.
    if let Some(items) = v.get("items") {
        match items.get("enum") {
            Some(Value::Array(values)) if values.len() <= COMPACT_ENUM_MAX => {
                m.insert("items".into(), serde_json::json!({ "enum": values }));
            }
            _ if batch => {
                m.insert("items".into(), serde_json::json!({ "type": "object" }));
            }
            // A plain item type is short: `[string]`.
            _ => {
                if let Some(t @ Value::String(kind)) = items.get("type")
                    && matches!(kind.as_str(), "string" | "integer" | "number" | "boolean")
                    && items.get("enum").is_none()
                {
                    m.insert("items".into(), serde_json::json!({ "type": t }));
                }
            }
        }
    }
    if let Some(h) = hint(name, v) {
        m.insert("description".into(), Value::String(h.into()));
    }
    Value::Object(m)
}

/// Adds a `batch` property (1–20 items, each an object of this tool's own fields) and drops
/// `required`, since either the single form or `batch` is given. Items are not re-described:
/// repeating the schema would double the surface's size.
pub fn with_batch(mut single: Map<String, Value>, what: &str) -> Map<String, Value> {
    let required = single.remove("required");
    let names: Vec<String> = match &required {
        Some(Value::Array(req)) => req
            .iter()
            .filter_map(|v| v.as_str().map(str::to_string))
            .collect(),
        _ => vec![],
    };
    let must = if names.is_empty() {
        String::new()
    } else {
        format!("; {} required in each", names.join(", "))
    };
    // Either the single form's required fields or `batch`.
    if !names.is_empty() {
        single.insert(
            "anyOf".into(),
            serde_json::json!([{ "required": names }, { "required": ["batch"] }]),
        );
    }
    if let Some(Value::Object(props)) = single.get_mut("properties") {
        props.insert(
            "batch".into(),
            serde_json::json!({
                "type": "array",
                "description": format!("Up to 20 {what}{must}"),
                "items": {"type": "object"},
                "maxItems": 20
            }),
        );
    }
    single
}

/// The same long enum (8 values or more) advertised again in one schema is advertised once: later
/// fields keep their type and point to the first field by name ("values as skill"). Fields are
/// visited level by level in serialized (alphabetical) order, so the values come first.
fn share_enums(v: &mut Value, prefix: &str, seen: &mut Vec<(Vec<Value>, String)>) {
    let Some(props) = v.get_mut("properties").and_then(Value::as_object_mut) else {
        return;
    };
    for (name, field) in props.iter_mut() {
        let node = if field.get("items").is_some_and(|i| i.get("enum").is_some()) {
            &mut field["items"]
        } else {
            &mut *field
        };
        let Some(Value::Array(values)) = node.get("enum").cloned() else {
            continue;
        };
        if values.len() < 8 {
            continue;
        }
        let Some((_, first)) = seen.iter().find(|(v, _)| *v == values) else {
            seen.push((values, format!("{prefix}{name}")));
            continue;
        };
        let first = first.clone();
        if let Some(o) = node.as_object_mut() {
            o.remove("enum");
        }
        if let Some(o) = field.as_object_mut() {
            let d = o
                .get("description")
                .and_then(Value::as_str)
                .map(|d| format!("{} ", d.trim_end_matches('.')))
                .unwrap_or_default();
            o.insert(
                "description".into(),
                Value::String(format!("{d}(values as {first})")),
            );
        }
    }
    // Nested objects after this level's fields, so a top-level field keeps the values.
    for (name, field) in props.iter_mut() {
        let inner = format!("{prefix}{name}.");
        share_enums(field, &inner, seen);
        if let Some(items) = field.get_mut("items") {
            share_enums(items, &inner, seen);
        }
    }
}

/// Cleans a schema bottom-up: children first, then the node itself.
fn clean(v: &mut Value, root: bool) {
    match v {
        Value::Object(m) => {
            for (_, child) in m.iter_mut() {
                clean(child, false);
            }
            clean_node(m, root);
        }
        Value::Array(items) => items.iter_mut().for_each(|i| clean(i, false)),
        _ => {}
    }
}

/// The values of a single-value alternative: `{const: x}` or `{enum: [x, …]}`.
fn enum_values(alt: &Value) -> Option<Vec<Value>> {
    if let Some(c) = alt.get("const") {
        return Some(vec![c.clone()]);
    }
    alt.get("enum").and_then(Value::as_array).cloned()
}

fn clean_node(m: &mut Map<String, Value>, root: bool) {
    for key in [
        "$schema",
        "$defs",
        "definitions",
        "title",
        "additionalProperties",
    ] {
        // Unknown fields are rejected by the server with a suggestion; saying so in every object
        // of every schema costs tokens on every turn.
        m.remove(key);
    }
    if root {
        m.remove("description");
    }
    if let Some(Value::String(f)) = m.get("format")
        && (f.starts_with("int") || f.starts_with("uint") || f == "double" || f == "float")
    {
        m.remove("format");
    }
    // `type: ["T", "null"]` → `type: "T"`.
    if let Some(Value::Array(types)) = m.get("type") {
        let mut non_null: Vec<Value> = types
            .iter()
            .filter(|t| t.as_str() != Some("null"))
            .cloned()
            .collect();
        let t = if non_null.len() == 1 {
            non_null.remove(0)
        } else {
            Value::Array(non_null)
        };
        m.insert("type".into(), t);
    }
    for key in ["anyOf", "oneOf"] {
        let Some(Value::Array(alts)) = m.get(key) else {
            continue;
        };
        // Drop `{type: null}` alternatives: the field is simply optional.
        let alts: Vec<Value> = alts
            .iter()
            .filter(|a| {
                !(a.get("type").and_then(Value::as_str) == Some("null")
                    && a.as_object().is_some_and(|o| o.len() == 1))
            })
            .cloned()
            .collect();
        m.remove(key);
        // Alternatives that are all values (documented enum variants, untagged enum unions) →
        // one `enum`.
        let values: Option<Vec<Value>> = alts
            .iter()
            .map(enum_values)
            .collect::<Option<Vec<_>>>()
            .map(|v| v.concat());
        match values {
            Some(values) if !values.is_empty() => {
                m.insert("type".into(), Value::String("string".into()));
                m.insert("enum".into(), Value::Array(values));
            }
            _ if alts.len() == 1 => {
                if let Some(Value::Object(inner)) = alts.into_iter().next() {
                    for (k, val) in inner {
                        m.entry(k).or_insert(val);
                    }
                }
            }
            _ => {
                m.insert(key.into(), Value::Array(alts));
            }
        }
    }
    // An array's own description covers its items.
    if let Some(Value::Object(items)) = m.get_mut("items") {
        items.remove("description");
    }
    if let Some(c) = m.remove("const") {
        m.insert("enum".into(), Value::Array(vec![c]));
    }
    if let Some(Value::Array(values)) = m.get_mut("enum") {
        values.retain(|v| !v.is_null());
    }
    // Defaults that are null, false, 0 or empty say nothing a description does not.
    let trivial = match m.get("default") {
        Some(Value::Null | Value::Bool(false)) => true,
        Some(Value::Number(n)) => n.as_f64() == Some(0.0),
        Some(Value::Array(a)) => a.is_empty(),
        _ => false,
    };
    if trivial {
        m.remove("default");
    }
    // `minimum: 0` only restates an unsigned Rust type; the server rejects negatives with a
    // message anyway.
    if m.get("minimum").and_then(Value::as_f64) == Some(0.0) {
        m.remove("minimum");
    }
    // Likewise a maximum that is only the width of the Rust integer (u8, u16, u32).
    if matches!(
        m.get("maximum").and_then(Value::as_u64),
        Some(255 | 65_535 | 4_294_967_295)
    ) {
        m.remove("maximum");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Test arguments.
    #[derive(JsonSchema)]
    #[allow(dead_code)]
    struct Args {
        /// How many.
        count: Option<u32>,
        /// Which way.
        mode: Mode,
    }

    /// The mode.
    #[derive(JsonSchema)]
    #[serde(rename_all = "snake_case")]
    #[allow(dead_code)]
    enum Mode {
        /// Up.
        Up,
        /// Down.
        Down,
    }

    #[test]
    fn cleaned_schema_is_portable() {
        let s = Value::Object(input_schema::<Args>());
        let text = s.to_string();
        assert!(!text.contains("$schema"), "{text}");
        assert!(!text.contains("$defs"), "{text}");
        assert!(!text.contains("$ref"), "{text}");
        assert!(!text.contains("uint32"), "{text}");
        assert!(!text.contains("\"null\""), "{text}");
        assert_eq!(s["properties"]["count"]["type"], "integer");
        assert_eq!(
            s["properties"]["mode"]["enum"],
            serde_json::json!(["up", "down"])
        );
        assert_eq!(s["required"], serde_json::json!(["mode"]));
    }

    #[test]
    fn compact_schema_keeps_names_types_short_enums_and_required() {
        let full = with_batch(input_schema::<Args>(), "rolls");
        let c = Value::Object(compact(&input_schema::<Args>(), &[]));
        assert_eq!(
            c["properties"]["count"],
            serde_json::json!({"type": "integer"})
        );
        assert_eq!(
            c["properties"]["mode"],
            serde_json::json!({"enum": ["up", "down"]})
        );
        assert_eq!(c["required"], serde_json::json!(["mode"]));
        assert!(!c.to_string().contains("description"), "{c}");
        let b = Value::Object(compact(&full, &["count"]));
        assert_eq!(
            b["properties"]["batch"],
            serde_json::json!({"type": "array", "items": {"type": "object"}})
        );
        assert_eq!(
            b["anyOf"],
            serde_json::json!([{"required": ["mode"]}, {"required": ["batch"]}])
        );
        // A rare field is still listed, by name alone.
        assert_eq!(b["properties"]["count"], serde_json::json!({}));
    }

    #[test]
    fn batch_form_adds_items_and_relaxes_required() {
        let s = with_batch(input_schema::<Args>(), "rolls");
        assert!(s.get("required").is_none());
        assert_eq!(s["properties"]["batch"]["maxItems"], 20);
        assert_eq!(s["properties"]["batch"]["items"]["type"], "object");
        let d = s["properties"]["batch"]["description"].as_str().unwrap();
        assert!(d.contains("mode required in each"), "{d}");
    }
}
