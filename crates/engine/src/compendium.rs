//! The SRD compendium as the engine sees it: absent, ready, deferred, or loading in the
//! background, so that starting the server never waits for it.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};
use std::thread::JoinHandle;

use tabletop_srd::Compendium;

use crate::derive::{Build, Derived};

/// Where the compendium comes from. Cloning shares the same load.
#[derive(Clone, Default)]
pub struct CompendiumSource {
    inner: Arc<Inner>,
}

#[derive(Default)]
struct Inner {
    /// This source's identity (see [`CompendiumSource::identity`]).
    identity: Identity,
    ready: OnceLock<Option<Arc<Compendium>>>,
    loader: Mutex<Option<JoinHandle<Option<Arc<Compendium>>>>>,
    /// A directory not yet being loaded (see [`CompendiumSource::deferred`]).
    pending: Mutex<Option<PathBuf>>,
    /// Sheets derived from builds against this compendium (see [`CompendiumSource::derived`]).
    derived: Mutex<DerivedCache>,
}

/// A number no other compendium source of this process has.
struct Identity(u64);

impl Default for Identity {
    fn default() -> Self {
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
        Self(NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
    }
}

/// How many builds' derivations are remembered (a table's characters, with room to spare).
const DERIVED_CACHE_SIZE: usize = 64;

/// Recently derived builds, most recent last.
#[derive(Default)]
struct DerivedCache {
    entries: Vec<(Build, Derivation)>,
}

/// What the derivation pipeline makes of a build against this compendium: the derived values
/// and whether every source resolved.
#[derive(Debug, Clone, PartialEq)]
pub struct Derivation {
    /// The derived sheet values (shared: every character read with this build holds them).
    pub derived: Arc<Derived>,
    /// Whether every source of the build was found.
    pub resolved: bool,
}

fn load(dir: &Path) -> Option<Arc<Compendium>> {
    let started = std::time::Instant::now();
    match Compendium::load(dir) {
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

impl CompendiumSource {
    /// No compendium: SRD-backed features explain how to install it.
    pub fn none() -> Self {
        let s = Self::default();
        let _ = s.inner.ready.set(None);
        s
    }

    /// A compendium already loaded.
    pub fn ready(c: Arc<Compendium>) -> Self {
        let s = Self::default();
        let _ = s.inner.ready.set(Some(c));
        s
    }

    /// Starts loading `dir` on a background thread; the first [`Self::get`] waits for it.
    /// A directory that fails to load is logged and treated as absent.
    pub fn load_in_background(dir: PathBuf) -> Self {
        let s = Self::default();
        s.spawn_loader(dir);
        s
    }

    /// Remembers `dir` without reading it: [`Self::warm`] starts a background load, and
    /// [`Self::get`] loads it at once if nothing started it. A server uses this so that answering
    /// `initialize` never competes with the load for the CPU.
    pub fn deferred(dir: PathBuf) -> Self {
        let s = Self::default();
        if let Ok(mut p) = s.inner.pending.lock() {
            *p = Some(dir);
        }
        s
    }

    /// Starts a deferred load in the background, if it has not started.
    pub fn warm(&self) {
        let dir = self.inner.pending.lock().ok().and_then(|mut p| p.take());
        if let Some(dir) = dir {
            self.spawn_loader(dir);
        }
    }

    fn spawn_loader(&self, dir: PathBuf) {
        let spawned = std::thread::Builder::new()
            .name("srd-load".into())
            .spawn(move || load(&dir));
        match spawned {
            Ok(h) => {
                if let Ok(mut slot) = self.inner.loader.lock() {
                    *slot = Some(h);
                }
            }
            Err(e) => {
                tracing::warn!("cannot start the SRD loader thread: {e}");
                let _ = self.inner.ready.set(None);
            }
        }
    }

    /// The compendium: waits for a background load, or loads a deferred one now.
    pub fn get(&self) -> Option<&Compendium> {
        self.inner
            .ready
            .get_or_init(|| {
                if let Some(dir) = self.inner.pending.lock().ok().and_then(|mut p| p.take()) {
                    return load(&dir);
                }
                let handle = self.inner.loader.lock().ok().and_then(|mut h| h.take());
                handle.and_then(|h| h.join().ok().flatten())
            })
            .as_deref()
    }

    /// A number that names this source (its clones share it) and no other source of this
    /// process: what was made from the compendium, once settled (see [`Self::get`]), can be kept
    /// under it. The compendium behind a source never changes once settled; a reloaded
    /// compendium is a new source with a new identity.
    pub fn identity(&self) -> u64 {
        self.inner.identity.0
    }

    /// The derivation of `build` against this compendium: remembered for the last
    /// [`DERIVED_CACHE_SIZE`] builds, so that reading a sheet does not run the whole pipeline
    /// again while its build is unchanged; `compute` runs on a miss. The pipeline's result
    /// depends only on the build, this compendium (fixed once loaded: the compendium is settled
    /// first) and the built-in catalog, so an equal build gives an equal derivation.
    pub fn derived(&self, build: &Build, compute: impl FnOnce() -> Derivation) -> Derivation {
        // Settle the compendium first: a derivation made while it was loading is not remembered.
        let _ = self.get();
        if let Ok(mut cache) = self.inner.derived.lock()
            && let Some(i) = cache.entries.iter().rposition(|(b, _)| b == build)
        {
            let entry = cache.entries.remove(i);
            let out = entry.1.clone();
            cache.entries.push(entry);
            return out;
        }
        let out = compute();
        if let Ok(mut cache) = self.inner.derived.lock() {
            if cache.entries.len() >= DERIVED_CACHE_SIZE {
                cache.entries.remove(0);
            }
            cache.entries.push((build.clone(), out.clone()));
        }
        out
    }
}

impl std::fmt::Debug for CompendiumSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let state = match self.inner.ready.get() {
            Some(Some(_)) => "ready",
            Some(None) => "absent",
            None => "loading or deferred",
        };
        write!(f, "CompendiumSource({state})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_directories_load_as_absent_whichever_way_they_are_loaded() {
        let src = CompendiumSource::load_in_background(PathBuf::from("definitely/not/here"));
        assert!(src.get().is_none());
        assert!(src.clone().get().is_none(), "clones share the result");
        assert!(CompendiumSource::none().get().is_none());
        let deferred = CompendiumSource::deferred(PathBuf::from("not/here/either"));
        deferred.warm();
        deferred.warm();
        assert!(deferred.get().is_none());
        let lazy = CompendiumSource::deferred(PathBuf::from("nor/here"));
        assert!(
            lazy.get().is_none(),
            "get loads a deferred source by itself"
        );
    }

    #[test]
    fn every_source_has_its_own_identity_and_clones_share_it() {
        let a = CompendiumSource::none();
        let b = CompendiumSource::none();
        assert_ne!(a.identity(), b.identity());
        assert_eq!(a.clone().identity(), a.identity());
    }

    #[test]
    fn a_derivation_is_remembered_per_build_and_made_again_when_the_build_changes() {
        let src = CompendiumSource::none();
        let runs = std::cell::Cell::new(0);
        let derive = |b: &Build| {
            src.derived(b, || {
                runs.set(runs.get() + 1);
                let derived = Derived {
                    level: b.classes.len() as u32 + 1,
                    ..Default::default()
                };
                Derivation {
                    derived: Arc::new(derived),
                    resolved: b.race.is_none(),
                }
            })
        };
        let plain = Build::default();
        let elf = Build {
            race: Some("elf".into()),
            ..Build::default()
        };
        assert_eq!(derive(&plain).derived.level, 1);
        assert_eq!(derive(&plain).derived.level, 1);
        assert_eq!(runs.get(), 1, "the same build is derived once");
        let d = derive(&elf);
        assert_eq!(
            (d.resolved, runs.get()),
            (false, 2),
            "a changed build runs again"
        );
        assert!(derive(&plain).resolved);
        assert_eq!(runs.get(), 2, "both builds are remembered");
        // More builds than the cache holds: the oldest is forgotten and derived again.
        for level in 0..DERIVED_CACHE_SIZE as u32 {
            let b = Build {
                classless_level: Some(level),
                ..Build::default()
            };
            derive(&b);
        }
        assert_eq!(runs.get(), 2 + DERIVED_CACHE_SIZE);
        derive(&elf);
        assert_eq!(
            runs.get(),
            3 + DERIVED_CACHE_SIZE,
            "the oldest entry was dropped"
        );
    }
}
