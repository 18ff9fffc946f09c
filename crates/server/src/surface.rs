//! The advertised surface as a client sees it: the `tools/list` JSON per profile, its size in
//! bytes and in o200k tokens.

use serde_json::{Value, json};

use crate::catalog::{Profile, Surface};
use crate::mcp::to_mcp_tool;

/// The `tools/list` result a client of `profile` (with no extra categories) receives, as JSON.
pub fn tools_list_json(profile: Profile) -> Value {
    let surface = Surface::new(profile, &[]);
    let tools: Vec<Value> = surface
        .tools()
        .into_iter()
        .map(|t| {
            serde_json::to_value(to_mcp_tool(t, surface.schema_of(t), surface.detail()))
                .unwrap_or(Value::Null)
        })
        .collect();
    json!({ "tools": tools })
}

/// The advertised names of `profile`, in order.
pub fn tool_names(profile: Profile) -> Vec<&'static str> {
    Surface::new(profile, &[])
        .tools()
        .into_iter()
        .map(|t| t.name)
        .collect()
}

/// Size of the serialized `tools/list` of `profile`: (bytes, o200k tokens).
pub fn measure(profile: Profile) -> anyhow::Result<(usize, usize)> {
    let text = serde_json::to_string(&tools_list_json(profile))?;
    let bpe = tiktoken_rs::o200k_base()?;
    Ok((text.len(), bpe.encode_ordinary(&text).len()))
}
