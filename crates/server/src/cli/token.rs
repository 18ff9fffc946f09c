//! `tabletop token create|list|revoke`: the bearer tokens of the HTTP transport.

use std::process::ExitCode;

use anyhow::Context;
use clap::Subcommand;
use tabletop_engine::access::{self, Role};
use tabletop_server::config::Settings;

/// Token actions.
#[derive(Debug, Subcommand)]
pub enum TokenCommand {
    /// Create a token for a campaign (given with --campaign); prints the token as its last line.
    Create {
        /// dm (everything in the campaign) or player (one character).
        #[arg(long)]
        role: String,
        /// The character a player token acts for (name or id).
        #[arg(long)]
        character: Option<String>,
        /// A label to recognise it by in `token list` ("Ana's laptop").
        #[arg(long)]
        label: Option<String>,
    },
    /// List tokens (of --campaign when given); secrets are never shown.
    List,
    /// Revoke a token by id (from `token list`) or by its text.
    Revoke {
        /// Token id or full token.
        token: String,
    },
}

pub fn run(s: &Settings, action: TokenCommand) -> anyhow::Result<ExitCode> {
    let mut store = s.open_store()?;
    match action {
        TokenCommand::Create {
            role,
            character,
            label,
        } => {
            let campaign = s.campaign.clone().context(
                "name the campaign: tabletop token create --campaign NAME --role dm|player [--character NAME]",
            )?;
            let role = Role::from_key(&role)
                .with_context(|| format!("role '{role}' is unknown; use dm or player"))?;
            let (info, text) = access::create_token(
                &mut store,
                &campaign,
                role,
                character.as_deref(),
                label.as_deref(),
            )?;
            eprintln!(
                "Created {} token {} for campaign '{}'{}. It is shown only now; keep it secret \
                 (revoke with `tabletop token revoke {}`).",
                info.role.key(),
                info.id,
                info.campaign,
                info.character_id
                    .as_deref()
                    .map(|c| format!(", acting for character {c}"))
                    .unwrap_or_default(),
                info.id
            );
            println!("{text}");
        }
        TokenCommand::List => {
            let all = access::list_tokens(&mut store, s.campaign.as_deref())?;
            if all.is_empty() {
                println!("no tokens");
            }
            for t in all {
                println!(
                    "{}  {:<16} {:<6} {:<8} {}{}",
                    t.id,
                    t.campaign,
                    t.role.key(),
                    t.character_id.as_deref().unwrap_or("-"),
                    t.created_at,
                    t.label.map(|l| format!("  {l}")).unwrap_or_default()
                );
            }
        }
        TokenCommand::Revoke { token } => {
            if access::revoke_token(&mut store, &token)? {
                println!("revoked");
            } else {
                anyhow::bail!("no token '{token}'; `tabletop token list` shows the ids");
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
