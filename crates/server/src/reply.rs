//! What a tool answers: one concise text block for the model and the same result as typed JSON.

use serde::Serialize;
use serde_json::Value;

/// A tool's successful answer.
#[derive(Debug, Clone)]
pub struct Reply {
    /// Text for the model: the outcome first, then what changed.
    pub text: String,
    /// The same result as structured JSON for programs.
    pub structured: Value,
    /// An optional image (base64 PNG).
    pub image_png_base64: Option<String>,
}

impl Reply {
    /// A reply with text and the serialized form of `data`.
    pub fn new(text: impl Into<String>, data: &impl Serialize) -> Self {
        Self {
            text: text.into(),
            structured: serde_json::to_value(data).unwrap_or(Value::Null),
            image_png_base64: None,
        }
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
