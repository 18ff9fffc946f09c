//! Input schemas: derived from the argument types with schemars, then cleaned for portability and
//! size (no `$schema`, `$defs` inlined, no `format: uint32`, optional fields typed `T` rather than
//! `[T, "null"]`, documented enum variants folded into one `enum`).

use schemars::JsonSchema;
use schemars::generate::SchemaSettings;
use serde_json::{Map, Value};

/// The cleaned JSON Schema object of `T`.
pub fn input_schema<T: JsonSchema>() -> Map<String, Value> {
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

/// Adds a `batch` property (1–20 items of the single form) and drops `required`, since either the
/// single form or `batch` is given.
pub fn with_batch(mut single: Map<String, Value>, what: &str) -> Map<String, Value> {
    let item = Value::Object(single.clone());
    let required = single.remove("required");
    if let Some(Value::Object(props)) = single.get_mut("properties") {
        props.insert(
            "batch".into(),
            serde_json::json!({
                "type": "array",
                "description": format!("1–20 {what} in one call, each with the fields above; answered per item"),
                "items": item,
                "minItems": 1,
                "maxItems": 20
            }),
        );
    }
    if let Some(Value::Array(req)) = required {
        if !req.is_empty() {
            let names: Vec<String> = req
                .iter()
                .filter_map(|v| v.as_str().map(str::to_string))
                .collect();
            let note = format!(" Required unless batch: {}.", names.join(", "));
            if let Some(Value::String(d)) = single.get_mut("description") {
                d.push_str(&note);
            }
        }
    }
    single
}

fn clean(v: &mut Value, root: bool) {
    match v {
        Value::Object(m) => {
            m.remove("$schema");
            m.remove("$defs");
            m.remove("definitions");
            if root {
                m.remove("title");
                m.remove("description");
            } else {
                m.remove("title");
            }
            if let Some(Value::String(f)) = m.get("format") {
                if matches!(
                    f.as_str(),
                    "uint"
                        | "uint8"
                        | "uint16"
                        | "uint32"
                        | "uint64"
                        | "int8"
                        | "int16"
                        | "int32"
                        | "int64"
                        | "double"
                        | "float"
                ) {
                    m.remove("format");
                }
            }
            // `type: ["T", "null"]` → `type: "T"`.
            if let Some(Value::Array(types)) = m.get("type") {
                let non_null: Vec<Value> = types
                    .iter()
                    .filter(|t| t.as_str() != Some("null"))
                    .cloned()
                    .collect();
                if non_null.len() == 1 {
                    m.insert("type".into(), non_null[0].clone());
                } else {
                    m.insert("type".into(), Value::Array(non_null));
                }
            }
            // `anyOf: [X, {type: null}]` → X.
            for key in ["anyOf", "oneOf"] {
                if let Some(Value::Array(alts)) = m.get(key) {
                    let non_null: Vec<Value> = alts
                        .iter()
                        .filter(|a| {
                            a.get("type").and_then(Value::as_str) != Some("null")
                                || a.as_object().is_some_and(|o| o.len() > 1)
                        })
                        .cloned()
                        .collect();
                    if non_null.len() < alts.len() && non_null.len() == 1 {
                        m.remove(key);
                        if let Value::Object(inner) = &non_null[0] {
                            for (k, val) in inner {
                                m.entry(k.clone()).or_insert_with(|| val.clone());
                            }
                        }
                    } else if non_null.len() < alts.len() {
                        m.insert(key.into(), Value::Array(non_null));
                    }
                }
            }
            // `oneOf: [{const: "a", description}, …]` (documented enum variants) → `enum: [...]`.
            if let Some(Value::Array(alts)) = m.get("oneOf") {
                let consts: Option<Vec<Value>> = alts
                    .iter()
                    .map(|a| {
                        a.get("const")
                            .or_else(|| {
                                a.get("enum").and_then(|e| {
                                    e.get(0)
                                        .filter(|_| e.as_array().is_some_and(|x| x.len() == 1))
                                })
                            })
                            .cloned()
                    })
                    .collect();
                if let Some(consts) = consts {
                    let all: Vec<Value> = alts
                        .iter()
                        .flat_map(|a| match a.get("enum") {
                            Some(Value::Array(e)) => e.clone(),
                            _ => a.get("const").cloned().into_iter().collect(),
                        })
                        .collect();
                    let _ = consts;
                    m.remove("oneOf");
                    m.insert("type".into(), Value::String("string".into()));
                    m.insert("enum".into(), Value::Array(all));
                }
            }
            if let Some(Value::String(_)) = m.get("const") {
                // Keep consts as single-value enums for older validators.
                if let Some(c) = m.remove("const") {
                    m.insert("enum".into(), Value::Array(vec![c]));
                }
            }
            // Defaults of null say nothing.
            if m.get("default") == Some(&Value::Null) {
                m.remove("default");
            }
            for (_, child) in m.iter_mut() {
                clean(child, false);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|i| clean(i, false)),
        _ => {}
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
    fn batch_form_adds_items_and_relaxes_required() {
        let s = with_batch(input_schema::<Args>(), "rolls");
        assert!(s.get("required").is_none());
        assert_eq!(s["properties"]["batch"]["maxItems"], 20);
        assert_eq!(
            s["properties"]["batch"]["items"]["required"],
            serde_json::json!(["mode"])
        );
    }
}
