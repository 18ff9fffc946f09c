//! Where state lives and how a campaign is opened: data dir, campaign, seed, SRD directory,
//! profile and categories. Flags and environment variables win over `tabletop.toml`, which wins
//! over the defaults.

use std::path::{Path, PathBuf};

use anyhow::Context;
use serde::Deserialize;
use tabletop_engine::compendium::CompendiumSource;
use tabletop_engine::{AnyStore, Durability, Engine, EngineOptions, StoreLocation};

use crate::catalog::{Category, Profile, SchemaDetail, Surface};
use crate::tools::EngineT;

/// The name of the database file inside the data dir.
pub const DB_FILE: &str = "tabletop.sqlite";

/// The name of the configuration file looked for in the data dir.
pub const CONFIG_FILE: &str = "tabletop.toml";

/// Settings shared by every command.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct Settings {
    /// Configuration file [default: tabletop.toml in the data dir, if present].
    #[arg(long, global = true, env = "TABLETOP_CONFIG")]
    pub config: Option<PathBuf>,
    /// Directory holding the campaign database [default: the platform data dir].
    #[arg(long, global = true, env = "TABLETOP_DATA_DIR")]
    pub data_dir: Option<PathBuf>,
    /// Campaign to open; campaigns isolate all state [default: default].
    #[arg(long, global = true, env = "TABLETOP_CAMPAIGN")]
    pub campaign: Option<String>,
    /// Reseed the campaign's dice stream at start: every roll after it is reproducible.
    #[arg(long, global = true, env = "TABLETOP_SEED")]
    pub seed: Option<u64>,
    /// Directory of SRD 5e-database JSON (default: `<data dir>/srd`).
    #[arg(long, global = true, env = "TABLETOP_SRD_DIR")]
    pub srd: Option<PathBuf>,
    /// What an answered call survives: `process` (any crash or kill of the server; the disk is
    /// synced at checkpoints) or `power` (a power loss too: a disk sync per commit)
    /// [default: process, or the config file's].
    #[arg(long, global = true, env = "TABLETOP_DURABILITY", value_parser = parse_durability)]
    pub durability: Option<Durability>,
    /// A PostgreSQL database shared by several servers (`postgres://USER:PASSWORD@HOST:PORT/DB`)
    /// instead of the SQLite file in the data dir [default: the config file's, else SQLite].
    #[arg(long, global = true, env = "TABLETOP_DATABASE_URL")]
    pub database: Option<String>,
}

/// Parses a durability mode, naming the allowed ones on error.
pub fn parse_durability(s: &str) -> anyhow::Result<Durability> {
    match s.trim().to_ascii_lowercase().as_str() {
        "process" => Ok(Durability::Process),
        "power" => Ok(Durability::Power),
        other => anyhow::bail!("durability '{other}' is unknown; use process or power"),
    }
}

/// Refuses a database setting that is not a PostgreSQL URL, naming both choices.
pub fn check_database_url(url: &str) -> anyhow::Result<()> {
    if StoreLocation::is_postgres_url(url.trim()) {
        Ok(())
    } else {
        anyhow::bail!(
            "database '{}' is not a PostgreSQL URL; write postgres://USER:PASSWORD@HOST:PORT/DATABASE, \
             or leave the database unset to use the SQLite file in the data directory (--data-dir)",
            if url.contains('@') {
                "(hidden: it holds credentials)"
            } else {
                url
            }
        )
    }
}

/// The contents of `tabletop.toml`; every key is optional.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
pub struct ConfigFile {
    /// Data directory.
    pub data_dir: Option<PathBuf>,
    /// Campaign name.
    pub campaign: Option<String>,
    /// Dice seed.
    pub seed: Option<u64>,
    /// SRD directory.
    pub srd: Option<PathBuf>,
    /// Profile served.
    pub profile: Option<String>,
    /// Categories enabled: with `full`, only these; with `core`, these in addition.
    pub categories: Option<Vec<String>>,
    /// Schema detail advertised: "compact" (default) or "full".
    pub schemas: Option<String>,
    /// What an answered call survives: "process" (default) or "power".
    pub durability: Option<String>,
    /// A PostgreSQL URL (`postgres://…`); absent: the SQLite file in the data dir.
    pub database: Option<String>,
}

impl ConfigFile {
    /// Reads and validates a configuration file.
    pub fn read(path: &Path) -> anyhow::Result<Self> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let c: ConfigFile = toml::from_str(&text)
            .with_context(|| format!("{} is not a valid Tabletop configuration", path.display()))?;
        c.surface_parts(None, &[], None)?;
        if let Some(d) = &c.durability {
            parse_durability(d).with_context(|| format!("in {}", path.display()))?;
        }
        if let Some(url) = &c.database {
            check_database_url(url).with_context(|| format!("in {}", path.display()))?;
        }
        Ok(c)
    }

    /// The profile and categories this file asks for, with command-line overrides applied.
    pub fn surface_parts(
        &self,
        profile: Option<Profile>,
        categories: &[Category],
        detail: Option<SchemaDetail>,
    ) -> anyhow::Result<Surface> {
        let detail = match (detail, self.schemas.as_deref()) {
            (Some(d), _) => d,
            (None, None | Some("compact")) => SchemaDetail::Compact,
            (None, Some("full")) => SchemaDetail::Full,
            (None, Some(other)) => {
                anyhow::bail!("schemas '{other}' is unknown; use compact or full")
            }
        };
        let profile = match (profile, self.profile.as_deref()) {
            (Some(p), _) => p,
            (None, Some("full")) | (None, None) => Profile::Full,
            (None, Some("core")) => Profile::Core,
            (None, Some(other)) => anyhow::bail!("profile '{other}' is unknown; use full or core"),
        };
        let mut cats = categories.to_vec();
        if cats.is_empty() {
            for c in self.categories.iter().flatten() {
                cats.push(parse_category(c)?);
            }
        }
        Ok(Surface::new(profile, &cats).with_detail(detail))
    }
}

/// Parses a category name, naming the allowed ones on error.
pub fn parse_category(s: &str) -> anyhow::Result<Category> {
    Category::ALL
        .iter()
        .copied()
        .find(|c| c.key().eq_ignore_ascii_case(s.trim()))
        .with_context(|| {
            let all: Vec<&str> = Category::ALL.iter().map(|c| c.key()).collect();
            format!("category '{s}' is unknown; allowed: {}", all.join(", "))
        })
}

impl Settings {
    /// The configuration file in use, if any (an explicit path must exist).
    pub fn config_file(&self) -> anyhow::Result<ConfigFile> {
        if let Some(p) = &self.config {
            return ConfigFile::read(p);
        }
        let dir = match &self.data_dir {
            Some(d) => Some(d.clone()),
            None => platform_data_dir().ok(),
        };
        match dir.map(|d| d.join(CONFIG_FILE)) {
            Some(p) if p.exists() => ConfigFile::read(&p),
            _ => Ok(ConfigFile::default()),
        }
    }

    /// The data directory in use.
    pub fn data_dir(&self) -> anyhow::Result<PathBuf> {
        if let Some(d) = &self.data_dir {
            return Ok(d.clone());
        }
        if let Some(d) = self.config_file()?.data_dir {
            return Ok(d);
        }
        platform_data_dir()
    }

    /// The campaign name in use.
    pub fn campaign(&self) -> anyhow::Result<String> {
        Ok(match &self.campaign {
            Some(c) => c.clone(),
            None => self
                .config_file()?
                .campaign
                .unwrap_or_else(|| "default".into()),
        })
    }

    /// The dice seed in use.
    pub fn seed(&self) -> anyhow::Result<Option<u64>> {
        Ok(match self.seed {
            Some(s) => Some(s),
            None => self.config_file()?.seed,
        })
    }

    /// The database file in use.
    pub fn db_path(&self) -> anyhow::Result<PathBuf> {
        Ok(self.data_dir()?.join(DB_FILE))
    }

    /// Refuses an export destination inside the data directory: the campaign store (and its
    /// journal files) live there, and writing over them destroys every campaign. Links are
    /// followed, and a hard link to the store elsewhere is refused too.
    pub fn check_export_target(&self, out: &Path) -> anyhow::Result<()> {
        let data = self.data_dir()?;
        let data = std::fs::canonicalize(&data)
            .or_else(|_| std::path::absolute(&data))
            .unwrap_or(data);
        let target = resolve(out);
        if target.starts_with(&data) || same_file(out, &self.db_path()?) {
            anyhow::bail!(
                "refusing to export to {}: it is inside the data directory {}, which holds the \
                 campaign store; write the export to a file outside it",
                out.display(),
                data.display()
            );
        }
        Ok(())
    }

    /// The SRD directory in use (it may not exist).
    pub fn srd_dir(&self) -> anyhow::Result<PathBuf> {
        if let Some(d) = &self.srd {
            return Ok(d.clone());
        }
        if let Some(d) = self.config_file()?.srd {
            return Ok(d);
        }
        Ok(self.data_dir()?.join("srd"))
    }

    /// The durability mode in use.
    pub fn durability(&self) -> anyhow::Result<Durability> {
        if let Some(d) = self.durability {
            return Ok(d);
        }
        match self.config_file()?.durability {
            Some(d) => parse_durability(&d),
            None => Ok(Durability::default()),
        }
    }

    /// Where campaigns live: the PostgreSQL database of `--database` / `TABLETOP_DATABASE_URL` /
    /// the config file's `database`, else the SQLite file in the data directory.
    pub fn store_location(&self) -> anyhow::Result<StoreLocation> {
        let url = match &self.database {
            Some(u) => Some(u.clone()),
            None => self.config_file()?.database,
        };
        match url.map(|u| u.trim().to_string()).filter(|u| !u.is_empty()) {
            Some(u) => {
                check_database_url(&u)?;
                Ok(StoreLocation::Postgres(u))
            }
            None => Ok(StoreLocation::Sqlite(self.db_path()?, self.durability()?)),
        }
    }

    /// The store in use, for messages (a PostgreSQL password is hidden).
    pub fn store_label(&self) -> anyhow::Result<String> {
        Ok(match self.store_location()? {
            StoreLocation::Sqlite(path, _) => path.display().to_string(),
            StoreLocation::Postgres(url) => tabletop_engine::store::hide_password(&url),
        })
    }

    /// Opens the store.
    pub fn open_store(&self) -> anyhow::Result<AnyStore> {
        let location = self.store_location()?;
        location.open().with_context(|| {
            format!(
                "cannot open the campaign database {}",
                self.store_label().unwrap_or_default()
            )
        })
    }

    /// The compendium, loaded in the background on first use (none when no SRD is installed).
    pub fn compendium_source(&self) -> anyhow::Result<CompendiumSource> {
        let dir = self.srd_dir()?;
        Ok(if dir.exists() {
            CompendiumSource::deferred(dir)
        } else {
            tracing::info!(
                "no SRD data at {}; compendium features will explain how to install it",
                dir.display()
            );
            CompendiumSource::none()
        })
    }

    /// Opens the configured campaign; the compendium (when installed) is loaded after the
    /// handshake, in the background (see [`CompendiumSource::deferred`]).
    pub fn open_engine(&self) -> anyhow::Result<EngineT> {
        let compendium = self.compendium_source()?;
        let store = self.open_store()?;
        Ok(Engine::open(
            store,
            &self.campaign()?,
            EngineOptions {
                seed: self.seed()?,
                compendium,
            },
        )?)
    }
}

/// `p` made absolute with links resolved, as far as it exists (a new file's folder).
fn resolve(p: &Path) -> PathBuf {
    if let Ok(c) = std::fs::canonicalize(p) {
        return c;
    }
    let abs = std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    match (abs.parent(), abs.file_name()) {
        (Some(dir), Some(name)) => resolve(dir).join(name),
        _ => abs,
    }
}

#[cfg(unix)]
fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
        _ => false,
    }
}

#[cfg(not(unix))]
fn same_file(_: &Path, _: &Path) -> bool {
    false
}

fn platform_data_dir() -> anyhow::Result<PathBuf> {
    directories::ProjectDirs::from("", "", "tabletop")
        .map(|p| p.data_dir().to_path_buf())
        .context("no platform data directory; pass --data-dir or set TABLETOP_DATA_DIR")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_config_file_is_strict_and_flags_win() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(CONFIG_FILE);
        std::fs::write(
            &path,
            "campaign = \"saga\"\nprofile = \"core\"\ncategories = [\"combat\"]\nseed = 4\n",
        )
        .unwrap();
        let s = Settings {
            data_dir: Some(dir.path().into()),
            ..Default::default()
        };
        assert_eq!(s.campaign().unwrap(), "saga");
        assert_eq!(s.seed().unwrap(), Some(4));
        let surface = s
            .config_file()
            .unwrap()
            .surface_parts(None, &[], None)
            .unwrap();
        assert_eq!(surface.profile(), Profile::Core);
        assert!(surface.enabled().contains(&Category::Combat));
        assert_eq!(s.durability().unwrap(), Durability::Process);
        let s2 = Settings {
            campaign: Some("flag".into()),
            ..s.clone()
        };
        assert_eq!(s2.campaign().unwrap(), "flag");
        std::fs::write(&path, "durability = \"power\"\n").unwrap();
        assert_eq!(s.durability().unwrap(), Durability::Power);
        let flag = Settings {
            durability: Some(Durability::Process),
            ..s.clone()
        };
        assert_eq!(
            flag.durability().unwrap(),
            Durability::Process,
            "the flag wins"
        );
        std::fs::write(&path, "durability = \"disk\"\n").unwrap();
        let err = format!("{:#}", s.config_file().unwrap_err());
        assert!(err.contains("use process or power"), "{err}");
        std::fs::write(&path, "campain = \"typo\"\n").unwrap();
        let err = format!("{:#}", s.config_file().unwrap_err());
        assert!(err.contains("campain"), "{err}");
        std::fs::write(&path, "categories = [\"combatt\"]\n").unwrap();
        let err = format!("{:#}", s.config_file().unwrap_err());
        assert!(err.contains("allowed: characters"), "{err}");
    }
}
