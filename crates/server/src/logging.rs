//! Logs: to stderr, without ANSI colour codes unless stderr is a terminal, with a filter that MCP's
//! `logging/setLevel` changes at run time.

use std::io::IsTerminal;
use std::sync::OnceLock;

use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::{EnvFilter, Registry, reload};

static FILTER: OnceLock<reload::Handle<EnvFilter, Registry>> = OnceLock::new();

/// Installs the process's logger: the filter from `TABLETOP_LOG` (default `warn`), to stderr.
pub fn init() {
    let filter = EnvFilter::try_from_env("TABLETOP_LOG").unwrap_or_else(|_| EnvFilter::new("warn"));
    let (filter, handle) = reload::Layer::new(filter);
    let fmt = tracing_subscriber::fmt::layer()
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal());
    if tracing_subscriber::registry()
        .with(filter)
        .with(fmt)
        .try_init()
        .is_ok()
    {
        let _ = FILTER.set(handle);
    }
}

/// The tracing filter directive for an MCP logging level (RFC 5424 names).
pub fn directive(level: &str) -> &'static str {
    match level {
        "debug" => "debug",
        "info" | "notice" => "info",
        "warning" => "warn",
        _ => "error",
    }
}

/// Sets the log filter to `directive` (e.g. `debug`). Errors when no logger was installed by
/// [`init`] (the library embedded elsewhere) or the directive does not parse.
pub fn set_filter(directive: &str) -> Result<(), String> {
    let handle = FILTER
        .get()
        .ok_or_else(|| "logging is not configured in this process".to_string())?;
    let filter = EnvFilter::try_new(directive).map_err(|e| e.to_string())?;
    handle.reload(filter).map_err(|e| e.to_string())?;
    tracing::info!(filter = directive, "log level changed");
    Ok(())
}
