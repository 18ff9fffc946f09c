//! What a tool answers: one concise text block for the model and the same result as typed JSON.

use serde::Serialize;
use serde_json::Value;

/// A tool's successful answer.
#[derive(Debug, Clone)]
pub struct Reply {
    /// Text for the model: the outcome first, then what changed.
    pub text: String,
    /// The same result as structured JSON for programs (see [`Reply::structured`]).
    structured: Structured,
    /// An optional image (base64 PNG).
    pub image_png_base64: Option<String>,
}

/// A reply's structured result, kept as it was made: serialized text from a tool's typed
/// answer (the stdio transport sends it as it is, never building a [`Value`] tree), or a
/// [`Value`] a caller assembled.
#[derive(Debug, Clone)]
enum Structured {
    None,
    Json(String),
    Value(Value),
}

impl Reply {
    /// A reply with text and the serialized form of `data`.
    pub fn new(text: impl Into<String>, data: &impl Serialize) -> Self {
        let structured = match serde_json::to_string(data) {
            Ok(s) if s != "null" => Structured::Json(s),
            _ => Structured::None,
        };
        Self {
            text: text.into(),
            structured,
            image_png_base64: None,
        }
    }

    /// A reply with text and the serialized form of `data`: `recorded` when given (the JSON the
    /// event log recorded `data` as, the same bytes), else serialized now.
    pub fn recorded(
        text: impl Into<String>,
        data: &impl Serialize,
        recorded: Option<String>,
    ) -> Self {
        match recorded {
            Some(json) => Self {
                text: text.into(),
                structured: Structured::Json(json),
                image_png_base64: None,
            },
            None => Self::new(text, data),
        }
    }

    /// A reply with text and an assembled JSON value (`null`: no structured result).
    pub fn from_value(text: impl Into<String>, structured: Value) -> Self {
        Self {
            text: text.into(),
            structured: if structured.is_null() {
                Structured::None
            } else {
                Structured::Value(structured)
            },
            image_png_base64: None,
        }
    }

    /// The structured result as a JSON value (`null` when there is none).
    pub fn structured(&self) -> Value {
        match &self.structured {
            Structured::None => Value::Null,
            Structured::Json(s) => serde_json::from_str(s).unwrap_or(Value::Null),
            Structured::Value(v) => v.clone(),
        }
    }

    /// Takes the structured result as a JSON value (`null` when there is none).
    pub fn into_structured(self) -> Value {
        self.into_parts().2
    }

    /// The reply taken apart: its text, its image and its structured result as a JSON value
    /// (`null` when there is none).
    pub fn into_parts(self) -> (String, Option<String>, Value) {
        let structured = match self.structured {
            Structured::None => Value::Null,
            Structured::Json(s) => serde_json::from_str(&s).unwrap_or(Value::Null),
            Structured::Value(v) => v,
        };
        (self.text, self.image_png_base64, structured)
    }

    /// The structured result as JSON text, if there is one.
    pub fn structured_json(&self) -> Option<std::borrow::Cow<'_, str>> {
        match &self.structured {
            Structured::None => None,
            Structured::Json(s) => Some(std::borrow::Cow::Borrowed(s)),
            Structured::Value(v) => serde_json::to_string(v).ok().map(std::borrow::Cow::Owned),
        }
    }

    /// Whether the reply has a structured result.
    pub fn has_structured(&self) -> bool {
        !matches!(self.structured, Structured::None)
    }
}

/// A tool error: one line of what is wrong and how to fix it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolError(pub String);

impl std::fmt::Display for ToolError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<tabletop_engine::EngineError> for ToolError {
    /// The one place engine errors become tool errors; their messages already say what is wrong
    /// and what is allowed.
    fn from(e: tabletop_engine::EngineError) -> Self {
        ToolError(e.to_string())
    }
}

/// Caps `text` at `max` characters, saying how much was cut and how to get the rest.
pub fn cap_text(text: &mut String, max: usize) {
    if text.len() <= max {
        return;
    }
    let mut cut = max.saturating_sub(120);
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    let dropped = text.len() - cut;
    text.truncate(cut);
    text.push_str(&format!(
        "\n… truncated ({dropped} more characters): narrow the request or page through it (page/perPage)."
    ));
}
