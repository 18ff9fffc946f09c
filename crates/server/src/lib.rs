//! The Tabletop MCP server: the tool catalog, argument parsing, rendering and the MCP adapter.
//! The `tabletop` binary (in `main.rs`) is a thin CLI over this library.

pub mod aliases;
pub mod args;
pub mod catalog;
pub mod client;
pub mod config;
pub mod direct;
pub mod discover;
pub mod http;
pub mod jsonrpc;
pub mod limits;
pub mod logging;
pub mod mcp;
pub mod memo;
pub mod output;
pub mod player;
pub mod prompts;
pub mod render;
pub mod render_memory;
pub mod render_world;
pub mod reply;
pub mod resources;
pub mod schema;
pub mod spec;
pub mod stdio;
pub mod surface;
pub mod table_view;
pub mod tools;
