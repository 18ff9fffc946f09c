//! `tabletop campaign list|export|import|delete`.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::Subcommand;
use tabletop_engine::campaign::{self, CampaignExport};
use tabletop_engine::store::{Store, Transaction};
use tabletop_server::config::Settings;

#[derive(Debug, Subcommand)]
pub enum CampaignCommand {
    /// List the campaigns in the data dir.
    List,
    /// Write a campaign as JSON (to stdout, or --out FILE).
    Export {
        /// Campaign name.
        name: String,
        /// File to write.
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Read a campaign exported as JSON.
    Import {
        /// The export file.
        file: PathBuf,
        /// Import under this name instead of the exported one.
        #[arg(long)]
        name: Option<String>,
    },
    /// Delete a campaign and everything in it.
    Delete {
        /// Campaign name.
        name: String,
        /// Confirm the deletion.
        #[arg(long)]
        yes: bool,
    },
}

pub fn run(s: &Settings, cmd: CampaignCommand) -> anyhow::Result<ExitCode> {
    let mut store = s.open_store()?;
    let mut tx = store.begin(true)?;
    match cmd {
        CampaignCommand::List => {
            let list = campaign::list(&tx)?;
            if list.is_empty() {
                outln!("no campaigns yet in {}", s.store_label()?);
            }
            for c in list {
                outln!(
                    "{:<24} {:>6} characters {:>7} events  created {}",
                    c.name,
                    c.characters,
                    c.events,
                    c.created_at
                );
            }
        }
        CampaignCommand::Export { name, out } => {
            if let Some(path) = &out {
                s.check_export_target(path)?;
            }
            let data = campaign::export(&tx, &name)?;
            let json = serde_json::to_string_pretty(&data)?;
            match out {
                Some(path) => {
                    std::fs::write(&path, json)
                        .with_context(|| format!("cannot write {}", path.display()))?;
                    eprintln!("exported '{name}' to {}", path.display());
                }
                None => outln!("{json}"),
            }
        }
        CampaignCommand::Import { file, name } => {
            let text = std::fs::read_to_string(&file)
                .with_context(|| format!("cannot read {}", file.display()))?;
            let data: CampaignExport = serde_json::from_str(&text)
                .with_context(|| format!("{} is not a Tabletop campaign export", file.display()))?;
            let name = campaign::import(&mut tx, &data, name.as_deref())?;
            eprintln!(
                "imported campaign '{name}' ({} characters, {} events)",
                data.characters.len(),
                data.events.len()
            );
        }
        CampaignCommand::Delete { name, yes } => {
            if !yes {
                anyhow::bail!(
                    "deleting '{name}' removes all its state; run again with --yes to confirm"
                );
            }
            campaign::delete(&mut tx, &name)?;
            eprintln!("deleted campaign '{name}'");
        }
    }
    tx.commit()?;
    Ok(ExitCode::SUCCESS)
}
