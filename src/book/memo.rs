//! Whole chapters remembered across builds.
//!
//! `mdbook serve` runs the preprocessor on every save, and with `verify`
//! and `asm` each directive looks its results up in the cache (a file
//! read and a checksum each). A chapter whose text and every input of its
//! rendering are unchanged is handed back from one entry instead: the key
//! covers the chapter's file and text (after `{{#include}}`), the renderer,
//! the whole configuration, this binary (its version and file), the
//! reading-list and talks data files, the catalog of a translated book,
//! `companion.lock`, the compilers' and Valgrind's files and the content
//! of the book's crates. It is used in books that already have a cache (`verify`, `asm`, `check`). Only clean outcomes
//! are kept: a chapter with a warning or an error is rendered afresh, so a
//! problem (a time-out, a missing compiler) is never replayed from the
//! cache, and chapters whose text still holds `{{` (whose rendering also
//! reads the chapter's source on disk) are never kept.

use super::chapter::{ChapterOutcome, Page};
use mdbook_companion_core::config::{Config, Key};
use mdbook_companion_directives::{self as directive, Row, Shared, Target};
use mdbook_companion_engine::cache::Cache;
use mdbook_companion_engine::exec;
use serde::{Deserialize, Serialize};

/// The cache namespace of whole chapters.
pub const NAMESPACE: &str = "chapter";

/// What every chapter key of one run shares.
#[derive(Debug)]
pub struct Memo {
    shared: String,
}

/// What is stored: a clean outcome.
#[derive(Serialize, Deserialize)]
struct Stored {
    text: Option<String>,
    directives: usize,
    rows: Vec<Row>,
    #[serde(default)]
    claimed: Vec<super::resolve::Claimed>,
}

impl Memo {
    /// The shared part of the keys, or `None` when chapters are not
    /// remembered: the book has no cache yet (only `verify`, `asm` and
    /// `check` make one; a book that uses none of them stays as it was),
    /// or this binary cannot be identified. The book's chapter files are
    /// part of every key (a change to the list changes every key), and so
    /// is whether the book has a claims page (chapters then hash their
    /// claims for it).
    pub fn new(config: &Config, target: Target, shared: &Shared) -> Option<Memo> {
        // The template's pages of data files are made by the run, never
        // remembered.
        if !config
            .root
            .join(mdbook_companion_engine::cache::DIR)
            .is_dir()
            || target == Target::Xgettext
        {
            return None;
        }
        let binary = exec::describe(&std::env::current_exe().ok()?)?;
        // The directives' data files (the registry names them).
        let data: Vec<String> = mdbook_companion_directives::KINDS
            .iter()
            .flat_map(|k| k.keys)
            .filter_map(|k| match k {
                Key::File(d) => Some(d),
                Key::Flag(_) => None,
            })
            .map(|d| {
                let path = config.root.join(&config.src).join(config.data_file(d));
                exec::describe(&path).unwrap_or_default()
            })
            .collect();
        let shared = [
            env!("CARGO_PKG_VERSION").to_owned(),
            binary,
            format!("{target:?}"),
            format!("{config:?}"),
            data.join("\n"),
            // A translated book: its catalog.
            super::translate::po_file(config)
                .and_then(|po| exec::describe(&po))
                .unwrap_or_default(),
            // Talk moments link to chapters: a chapter leaving the book
            // must not leave a remembered link to it.
            shared.chapters.join("\n"),
            shared.claims_page.to_string(),
            // The lock: badges say what it vouches for, Run buttons
            // replay what it recorded.
            exec::describe(&config.root.join(mdbook_companion_engine::lock::FILE))
                .unwrap_or_default(),
            exec::tool_fingerprint(&config.cc).unwrap_or_default(),
            exec::tool_fingerprint(&config.rustc).unwrap_or_default(),
            // The checker of `sanitize=memcheck` claims.
            exec::tool_fingerprint(&config.valgrind).unwrap_or_default(),
            // The book's crates as they are now: an edited path crate
            // checks its examples again.
            match config.dependencies.is_empty() && config.cargo_manifest.is_none() {
                true => String::new(),
                false => mdbook_companion_engine::crates::for_book(config).content_key(),
            },
        ]
        .join("\n");
        Some(Memo { shared })
    }

    /// Whether a chapter is worth remembering and safe to: it may hold a
    /// directive, and nothing in it reads files beyond the key.
    fn applies(text: &str) -> bool {
        directive::may_contain(text) && !text.contains("{{") && !directive::reads_files(text)
    }

    fn key(&self, page: &Page<'_>, text: &str) -> String {
        Cache::key(&[
            b"chapter 2",
            self.shared.as_bytes(),
            page.file.as_bytes(),
            page.section.unwrap_or("\u{0}").as_bytes(),
            page.name.unwrap_or("\u{0}").as_bytes(),
            text.as_bytes(),
        ])
    }

    /// The outcome of a chapter rendered cleanly before with the same
    /// inputs, if the memo applies to it and holds it.
    pub fn recall(&self, cache: &Cache, page: &Page<'_>, text: &str) -> Option<ChapterOutcome> {
        if !Self::applies(text) {
            return None;
        }
        let stored = cache
            .get(NAMESPACE, &self.key(page, text))
            .and_then(|b| serde_json::from_slice::<Stored>(&b).ok())?;
        Some(ChapterOutcome {
            text: stored.text,
            directives: stored.directives,
            rows: stored.rows,
            claimed: stored.claimed,
            ..ChapterOutcome::default()
        })
    }

    /// Keeps a chapter's outcome when the memo applies to it and the
    /// outcome is clean (no error, warning or missing compiler) and does
    /// not hold a claims page (which reads every other chapter).
    pub fn remember(&self, cache: &Cache, page: &Page<'_>, text: &str, outcome: &ChapterOutcome) {
        if !Self::applies(text)
            || outcome.claims_page
            || !outcome.errors.is_empty()
            || !outcome.warnings.is_empty()
            || !outcome.unchecked.is_empty()
        {
            return;
        }
        let stored = Stored {
            text: outcome.text.clone(),
            directives: outcome.directives,
            rows: outcome.rows.clone(),
            claimed: outcome.claimed.clone(),
        };
        if let Ok(bytes) = serde_json::to_vec(&stored) {
            cache.put(NAMESPACE, &self.key(page, text), &bytes);
        }
    }
}
