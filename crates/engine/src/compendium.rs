//! The SRD compendium as the engine sees it: absent, ready, or loading in the background so that
//! starting the server never waits for it.

use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};
use std::thread::JoinHandle;

use tabletop_srd::Compendium;

/// Where the compendium comes from. Cloning shares the same load.
#[derive(Clone, Default)]
pub struct CompendiumSource {
    inner: Arc<Inner>,
}

#[derive(Default)]
struct Inner {
    ready: OnceLock<Option<Arc<Compendium>>>,
    loader: Mutex<Option<JoinHandle<Option<Arc<Compendium>>>>>,
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
        let handle = std::thread::Builder::new()
            .name("srd-load".into())
            .spawn(move || {
                let started = std::time::Instant::now();
                match Compendium::load(&dir) {
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
            });
        let s = Self::default();
        match handle {
            Ok(h) => {
                if let Ok(mut slot) = s.inner.loader.lock() {
                    *slot = Some(h);
                }
            }
            Err(e) => {
                tracing::warn!("cannot start the SRD loader thread: {e}");
                let _ = s.inner.ready.set(None);
            }
        }
        s
    }

    /// The compendium, waiting for a background load to finish.
    pub fn get(&self) -> Option<&Compendium> {
        self.inner
            .ready
            .get_or_init(|| {
                let handle = self.inner.loader.lock().ok().and_then(|mut h| h.take());
                handle.and_then(|h| h.join().ok().flatten())
            })
            .as_deref()
    }
}

impl std::fmt::Debug for CompendiumSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let state = match self.inner.ready.get() {
            Some(Some(_)) => "ready",
            Some(None) => "absent",
            None => "loading",
        };
        write!(f, "CompendiumSource({state})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_directory_loads_as_absent_without_blocking_forever() {
        let src = CompendiumSource::load_in_background(PathBuf::from("definitely/not/here"));
        assert!(src.get().is_none());
        assert!(src.clone().get().is_none(), "clones share the result");
        assert!(CompendiumSource::none().get().is_none());
    }
}
