//! A small MCP client over a spawned `tabletop serve`, used by the demo and the end-to-end tests.

use std::path::Path;

use anyhow::Context;
use rmcp::RoleClient;
use rmcp::model::ProtocolVersion;
use rmcp::model::{CallToolRequestParams, CallToolResult, ContentBlock, Tool};
use rmcp::service::RunningService;
use rmcp::service::{ClientLifecycleMode, serve_client_with_lifecycle};
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use serde_json::Value;

/// A connected client of a child `tabletop serve` process.
pub struct Client {
    service: RunningService<RoleClient, ()>,
}

/// What a call answered.
#[derive(Debug, Clone)]
pub struct Answer {
    /// The text blocks, joined.
    pub text: String,
    /// The structured content.
    pub structured: Value,
    /// Whether it was a tool error.
    pub is_error: bool,
    /// How many image blocks came back.
    pub images: usize,
}

impl Client {
    /// Spawns `exe serve` with `args` (e.g. `--data-dir`, `--seed`) and connects to it with the
    /// 2026-07-28 lifecycle (`server/discover`, per-request metadata, `subscriptions/listen`).
    pub async fn spawn(exe: &Path, args: &[String]) -> anyhow::Result<Self> {
        Self::spawn_with(
            exe,
            args,
            ClientLifecycleMode::Discover {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
            },
        )
        .await
    }

    /// Like [`Client::spawn`], with the initialize-era handshake (`initialize`, up to 2025-11-25).
    pub async fn spawn_legacy(exe: &Path, args: &[String]) -> anyhow::Result<Self> {
        Self::spawn_with(exe, args, ClientLifecycleMode::Initialize).await
    }

    async fn spawn_with(
        exe: &Path,
        args: &[String],
        lifecycle: ClientLifecycleMode,
    ) -> anyhow::Result<Self> {
        let cmd = tokio::process::Command::new(exe).configure(|c| {
            c.arg("serve").args(args);
        });
        let transport = TokioChildProcess::builder(cmd)
            .stderr(if std::env::var_os("TABLETOP_CLIENT_STDERR").is_some() {
                std::process::Stdio::inherit()
            } else {
                std::process::Stdio::null()
            })
            .spawn()
            .map(|(t, _)| t)
            .with_context(|| format!("cannot start {}", exe.display()))?;
        let service = serve_client_with_lifecycle((), transport, lifecycle)
            .await
            .context("MCP connection failed")?;
        Ok(Self { service })
    }

    /// The advertised tools.
    pub async fn tools(&self) -> anyhow::Result<Vec<Tool>> {
        Ok(self.service.list_all_tools().await?)
    }

    /// Calls `tool` with `args` (a JSON object).
    pub async fn call(&self, tool: &str, args: Value) -> anyhow::Result<Answer> {
        let mut params = CallToolRequestParams::new(tool.to_string());
        if let Value::Object(map) = args {
            params = params.with_arguments(map);
        }
        let r: CallToolResult = self.service.call_tool(params).await?;
        let mut text = Vec::new();
        let mut images = 0;
        for block in &r.content {
            match block {
                ContentBlock::Text(t) => text.push(t.text.clone()),
                ContentBlock::Image(_) => images += 1,
                _ => {}
            }
        }
        Ok(Answer {
            text: text.join("\n"),
            structured: r.structured_content.unwrap_or(Value::Null),
            is_error: r.is_error.unwrap_or(false),
            images,
        })
    }

    /// Opens a 2026-07-28 `subscriptions/listen` stream for tool-list changes.
    pub async fn listen_for_tool_changes(&self) -> anyhow::Result<rmcp::service::Subscription> {
        let filter = rmcp::model::SubscriptionFilter::builder()
            .tools_list_changed()
            .build();
        Ok(self.service.peer().listen(filter).await?)
    }

    /// Closes the connection and waits for the server to exit.
    pub async fn close(self) -> anyhow::Result<()> {
        self.service.cancel().await?;
        Ok(())
    }
}
