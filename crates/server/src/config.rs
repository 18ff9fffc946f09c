//! Where state lives and how a campaign is opened: data dir, campaign, seed, SRD directory.

use std::path::PathBuf;

use anyhow::Context;
use tabletop_engine::compendium::CompendiumSource;
use tabletop_engine::{Engine, EngineOptions, SqliteStore};

use crate::tools::EngineT;

/// The name of the database file inside the data dir.
pub const DB_FILE: &str = "tabletop.sqlite";

/// Settings shared by every command.
#[derive(Debug, Clone, clap::Args)]
pub struct Settings {
    /// Directory holding the campaign database [default: the platform data dir].
    #[arg(long, global = true, env = "TABLETOP_DATA_DIR")]
    pub data_dir: Option<PathBuf>,
    /// Campaign to open; campaigns isolate all state.
    #[arg(
        long,
        global = true,
        env = "TABLETOP_CAMPAIGN",
        default_value = "default"
    )]
    pub campaign: String,
    /// Reseed the campaign's dice stream at start: every roll after it is reproducible.
    #[arg(long, global = true, env = "TABLETOP_SEED")]
    pub seed: Option<u64>,
    /// Directory of SRD 5e-database JSON [default: <data dir>/srd].
    #[arg(long, global = true, env = "TABLETOP_SRD_DIR")]
    pub srd: Option<PathBuf>,
}

impl Settings {
    /// The data directory in use.
    pub fn data_dir(&self) -> anyhow::Result<PathBuf> {
        if let Some(d) = &self.data_dir {
            return Ok(d.clone());
        }
        directories::ProjectDirs::from("", "", "tabletop")
            .map(|p| p.data_dir().to_path_buf())
            .context("no platform data directory; pass --data-dir or set TABLETOP_DATA_DIR")
    }

    /// The database file in use.
    pub fn db_path(&self) -> anyhow::Result<PathBuf> {
        Ok(self.data_dir()?.join(DB_FILE))
    }

    /// The SRD directory in use (it may not exist).
    pub fn srd_dir(&self) -> anyhow::Result<PathBuf> {
        match &self.srd {
            Some(d) => Ok(d.clone()),
            None => Ok(self.data_dir()?.join("srd")),
        }
    }

    /// Opens the store.
    pub fn open_store(&self) -> anyhow::Result<SqliteStore> {
        let path = self.db_path()?;
        SqliteStore::open(&path)
            .with_context(|| format!("cannot open the campaign database {}", path.display()))
    }

    /// Opens the configured campaign; the compendium (when installed) loads in the background.
    pub fn open_engine(&self) -> anyhow::Result<EngineT> {
        let dir = self.srd_dir()?;
        let compendium = if dir.exists() {
            CompendiumSource::load_in_background(dir)
        } else {
            tracing::info!(
                "no SRD data at {}; compendium features will explain how to install it",
                dir.display()
            );
            CompendiumSource::none()
        };
        let store = self.open_store()?;
        Ok(Engine::open(
            store,
            &self.campaign,
            EngineOptions {
                seed: self.seed,
                compendium,
            },
        )?)
    }
}
