//! A directive's data file: a TOML file in the book's `src` (the reading
//! list's `reading-list.toml`, the talks' `talks.toml`), its path checked
//! to stay inside `src`, or one a chapter names anywhere in the book's
//! root (a quiz's mdbook-quiz file), read once per run, its faults
//! located in it.

use mdbook_companion_core::config::Config;
use mdbook_companion_core::markdown;
use mdbook_companion_core::problem::{Fault, FileLocation, Problem};
use std::path::{Component, PathBuf};

/// Where a translatable string was written in a data file or a block's
/// body: its byte offset and line there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Spot {
    /// The byte offset in the TOML text.
    pub offset: usize,
    /// Its line (1-based).
    pub line: usize,
}

impl Spot {
    /// The spot of `offset` in `text`.
    pub fn new(text: &str, offset: usize) -> Spot {
        Spot {
            offset,
            line: markdown::line_col(text, offset).0,
        }
    }
}

/// Why a data file could not be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LoadError {
    /// The file is missing, unreadable or outside the book: told at the
    /// block that asked.
    AtBlock(String),
    /// The file's content is wrong at a place in it.
    InFile(FileLocation, String),
}

impl LoadError {
    /// The problem of the block at `offset` that asked for the file.
    pub fn at(self, offset: usize) -> Problem {
        match self {
            LoadError::AtBlock(m) => Problem::at(offset, m),
            LoadError::InFile(loc, m) => Problem::in_file(offset, loc, m),
        }
    }
}

/// What a data file is, for its messages.
#[derive(Debug, Clone)]
pub struct DataFile<'a> {
    /// Its key in `[preprocessor.companion]` (`reading-list`).
    pub key: &'a str,
    /// Its path relative to `src`, as configured.
    pub rel: PathBuf,
    /// The tables it holds (`[[entry]]`).
    pub tables: &'a str,
    /// What it is, in words (`reading-list data file`).
    pub what: &'a str,
}

impl DataFile<'_> {
    /// Its path as shown in messages: `src/reading-list.toml`.
    pub fn shown(&self, config: &Config) -> String {
        config
            .src
            .join(&self.rel)
            .to_string_lossy()
            .replace('\\', "/")
    }

    /// Reads the file and parses it with `parse`, whose faults (a byte
    /// offset in the text and a message) are located in the file.
    pub fn load<T>(
        &self,
        config: &Config,
        parse: impl FnOnce(&str) -> Result<T, Fault>,
    ) -> Result<T, LoadError> {
        let shown = self.shown(config);
        let rel = &self.rel;
        if rel.as_os_str().is_empty()
            || rel
                .components()
                .any(|c| !matches!(c, Component::Normal(_) | Component::CurDir))
        {
            return Err(LoadError::AtBlock(format!(
                "found `{} = \"{}\"` in book.toml; expected a path inside the book's source directory, without `..`",
                self.key,
                rel.display()
            )));
        }
        let src_dir = config.root.join(&config.src);
        self.read(&src_dir, shown, "the book's source directory", parse)
    }

    /// [`DataFile::load`] of a file named by a path from the book's root
    /// (`rel`, already free of `..`): anywhere inside the book, as mdBook's
    /// `{{#include}}` reads (mdbook-quiz's files beside `src`), shown as
    /// that path.
    pub(crate) fn load_in_root<T>(
        &self,
        config: &Config,
        parse: impl FnOnce(&str) -> Result<T, Fault>,
    ) -> Result<T, LoadError> {
        let shown = self.rel.to_string_lossy().replace('\\', "/");
        self.read(&config.root, shown, "the book's root", parse)
    }

    /// Reads `rel` under `dir` (`inside` names it in messages), refusing a
    /// path that resolves outside it or is not a regular file.
    fn read<T>(
        &self,
        dir: &std::path::Path,
        shown: String,
        inside: &str,
        parse: impl FnOnce(&str) -> Result<T, Fault>,
    ) -> Result<T, LoadError> {
        let rel = &self.rel;
        let missing = |e: std::io::Error| {
            LoadError::AtBlock(format!(
                "found no readable {} at {shown} ({e}); expected a TOML file of {} tables there, or a `{}` path in [preprocessor.companion] of book.toml, or {} tables in this block's body",
                self.what, self.tables, self.key, self.tables
            ))
        };
        let real = dir.join(rel).canonicalize().map_err(missing)?;
        let real_dir = dir.canonicalize().map_err(missing)?;
        if !real.starts_with(&real_dir) {
            return Err(LoadError::AtBlock(format!(
                "found {shown} pointing outside {inside} (to {}); expected the data file inside it",
                real.display()
            )));
        }
        // A FIFO or a device would make the read wait (for a writer that
        // never comes) instead of failing: only a regular file is read.
        let meta = std::fs::metadata(&real).map_err(missing)?;
        if !meta.is_file() {
            return Err(LoadError::AtBlock(format!(
                "found {shown}, which is not a regular file ({}); expected the {} as a TOML file of {} tables",
                kind_of(&meta.file_type()),
                self.what,
                self.tables
            )));
        }
        let text = std::fs::read_to_string(&real).map_err(missing)?;
        parse(&text).map_err(|Fault { offset, message }| {
            let (line, column) = markdown::line_col(&text, offset);
            LoadError::InFile(
                FileLocation {
                    path: shown,
                    line,
                    column,
                },
                message,
            )
        })
    }
}

/// What a file that is not a regular file is, in words.
fn kind_of(t: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt as _;
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_socket() {
            return "a socket";
        }
        if t.is_block_device() || t.is_char_device() {
            return "a device";
        }
    }
    if t.is_dir() {
        "a directory"
    } else {
        "not a file"
    }
}
