//! Where state lives and how a campaign is opened: data dir, campaign, seed, SRD directory.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::Context;
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

    /// Opens the configured campaign with the compendium when it is installed.
    pub fn open_engine(&self) -> anyhow::Result<EngineT> {
        let compendium = load_compendium(&self.srd_dir()?);
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

/// Loads the compendium from `dir`, or logs why not (the server works without it).
pub fn load_compendium(dir: &Path) -> Option<Arc<tabletop_srd::Compendium>> {
    if !dir.exists() {
        tracing::info!(
            "no SRD data at {}; compendium tools will explain how to install it",
            dir.display()
        );
        return None;
    }
    let started = std::time::Instant::now();
    match tabletop_srd::Compendium::load(dir) {
        Ok(c) => {
            tracing::info!(
                ms = started.elapsed().as_secs_f64() * 1000.0,
                "SRD loaded from {}",
                dir.display()
            );
            Some(Arc::new(c))
        }
        Err(e) => {
            tracing::warn!("SRD not loaded: {e}");
            None
        }
    }
}
