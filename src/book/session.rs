//! One loaded book for every command: the book loaded as mdBook loads it,
//! the run that renders its chapters (the cache, the book's crates, the
//! assembly it records), the checker that proves its claims, and
//! `companion.lock` as read once. `check`, `--bless`, `adopt` and `drift`
//! are policies over a [`Session`]: what they do with the claims of its
//! one walk ([`Session::walk`]) and their outcomes, never a second load
//! of the book or of its lock, nor a second parse of a chapter.
//! `exercises` is a policy over the [`LoadedBook`] alone: it proves nothing, so
//! it starts no checker, reads no lock and renders nothing.

use super::load::{self, Loaded};
use super::resolve::BookContext;
use super::walk::{self, BookOutcome, ForCheck, Slot};
use mdbook_companion_directives::Target;
use mdbook_companion_engine::cache::Cache;
use mdbook_companion_engine::check::Checker;
use mdbook_companion_engine::crates::{self, Crates, Libraries};
use mdbook_companion_engine::lock::{Lock, Read};
use mdbook_companion_engine::toolchain::Toolchain;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A book loaded once: its chapters and configuration as mdBook loads
/// them, and its crates. What every command over a book starts from.
#[derive(Debug)]
pub struct LoadedBook {
    /// The book as mdBook loads it (`rustc` is the toolchain's when one
    /// was given).
    pub loaded: Loaded,
    /// The book's own `rustc` (before `--toolchain`).
    pub book_rustc: String,
    /// The book's crates (read, not built: a build happens at most once,
    /// when something compiles with them).
    pub crates: Arc<Crates>,
}

impl LoadedBook {
    /// Loads the book at `root`; `toolchain` replaces the book's `rustc`
    /// (`--toolchain`), `library_path` holds compiled crates (`-L`).
    pub fn load(
        root: &Path,
        toolchain: Option<&Toolchain>,
        library_path: &[PathBuf],
    ) -> anyhow::Result<LoadedBook> {
        let mut loaded = load::load(root)?;
        let book_rustc = loaded.config.rustc.clone();
        if let Some(t) = toolchain {
            loaded.config.rustc = t.rustc.to_string_lossy().into_owned();
        }
        let libraries = Libraries::scan(library_path).map_err(anyhow::Error::msg)?;
        // One value of the book's crates for the session: rendering
        // (assembly panels) and checking read and build them once.
        let crates = crates::for_check(&loaded.config, libraries);
        Ok(LoadedBook {
            loaded,
            book_rustc,
            crates,
        })
    }
}

/// A loaded [`LoadedBook`] with what the commands that prove it share: the run
/// that renders it, the checker and the lock.
#[derive(Debug)]
pub struct Session {
    /// The book as mdBook loads it (`rustc` is the toolchain's when one
    /// was given).
    pub loaded: Loaded,
    /// The book's own `rustc` (before `--toolchain`).
    pub book_rustc: String,
    /// The book's crates, built at most once for the session.
    pub crates: Arc<Crates>,
    /// The run that renders the chapters: the cache, the crates, and the
    /// assembly panels it records for the lock.
    pub run: BookContext,
    /// The checker of the claims (its cache and memo hold every
    /// observation of the session).
    pub checker: Checker,
    /// `companion.lock` as it was when the book was loaded.
    pub lock: Read,
}

impl Session {
    /// Loads the book at `root` ([`LoadedBook::load`]) and opens a session over it.
    pub fn open(
        root: &Path,
        toolchain: Option<&Toolchain>,
        library_path: &[PathBuf],
    ) -> anyhow::Result<Session> {
        // The lock read, and the cache's verdicts, while mdBook loads the
        // book.
        let (book, (lock, ())) = rayon::join(
            || LoadedBook::load(root, toolchain, library_path),
            || {
                rayon::join(
                    || Lock::read(root),
                    || {
                        Cache::for_book(root)
                            .preload(mdbook_companion_engine::check::CACHE_NAMESPACE)
                    },
                )
            },
        );
        Ok(Session::with_lock(book?, lock))
    }

    /// A session over `book`: its run, its checker, its lock as read now.
    pub fn over(book: LoadedBook) -> Session {
        let lock = Lock::read(&book.loaded.root);
        Session::with_lock(book, lock)
    }

    /// A session over `book` and `lock`, the book's lock as read.
    fn with_lock(book: LoadedBook, lock: Read) -> Session {
        let LoadedBook {
            loaded,
            book_rustc,
            crates,
        } = book;
        let mut run = BookContext::new(Cache::for_book(&loaded.root))
            .recording_assembly()
            .with_crates(Arc::clone(&crates));
        run.shared.chapters = loaded.chapters.iter().map(|c| c.file.clone()).collect();
        let checker = Checker::new(&loaded.config).with_crates(Arc::clone(&crates));
        Session {
            loaded,
            book_rustc,
            crates,
            run,
            checker,
            lock,
        }
    }

    /// The one walk of `check` over the chapters `keep` keeps, rendered
    /// for `target` ([`super::walk::build_says`]): each chapter scanned,
    /// parsed, resolved and rendered once into what the build fails with
    /// and warns of, its near-miss fences, and its claims (directives and
    /// plain blocks, in book order, each with the file of the chapter that
    /// makes it: a quiz file's question is made by the chapter that links
    /// the file). Under `Html`, the assembly panels of the blocks at the
    /// places `panels` keeps (a chapter file and its line) are made and
    /// recorded for the lock; code they cannot compile is a build error
    /// when `faults` says so, never a directive that hides its claims.
    pub fn walk(
        &mut self,
        target: Target,
        keep: impl Fn(&str) -> bool,
        panels: &(dyn Fn(&str, usize) -> bool + Sync),
        faults: bool,
    ) -> BookOutcome {
        let loaded = &self.loaded;
        let mut texts: Vec<String> = {
            use rayon::prelude::*;
            (loaded.chapters.par_iter())
                .map(|c| c.expanded.clone())
                .collect()
        };
        let files = loaded.chapters.iter().map(|c| c.file.clone()).collect();
        let slots = (loaded.chapters.iter().zip(texts.iter_mut()))
            .filter(|(c, _)| keep(&c.file))
            .map(|(c, content)| Slot {
                content,
                file: c.file.clone(),
                section: None,
                name: Some(c.name.clone()),
                origin: Some(c),
            })
            .collect();
        let check = ForCheck {
            edition: loaded.test_edition,
            panels,
            faults,
        };
        walk::build_says(&loaded.config, target, &mut self.run, slots, files, &check)
    }

    /// The chapters `files` names loaded again from disk (after `--bless`
    /// rewrote them), every other chapter kept as it was loaded.
    pub fn reload(&mut self, files: &[String]) -> anyhow::Result<()> {
        if files.is_empty() {
            return Ok(());
        }
        let again = load::load(&self.loaded.root)?;
        for chapter in again.chapters {
            if files.contains(&chapter.file)
                && let Some(slot) = self
                    .loaded
                    .chapters
                    .iter_mut()
                    .find(|c| c.file == chapter.file)
            {
                *slot = chapter;
            }
        }
        Ok(())
    }
}
