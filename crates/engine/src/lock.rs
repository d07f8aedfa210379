//! `companion.lock`: the book's verified results, travelling with it.
//!
//! `check` writes one entry per block it looked at (where it stands, a
//! hash of everything compiled and expected, the outcome it claims, the
//! verdict and the toolchain that gave it) and the text of every assembly
//! panel. A build with `verify` or `asm` whose cache misses takes its
//! results from here, so a machine with no compiler builds the same pages;
//! `check --locked` fails when the lock does not match the book.
//!
//! The file is deterministic TOML (entries sorted, no times), so the same
//! book gives the same lock byte for byte, and it is written to a
//! temporary file and renamed, so a `check` killed at any moment leaves
//! the old lock or the new one, never half of one.
//!
//! The lock vouches for every fact a page shows: [`Entry::facts`] and
//! [`Assembly::facts`] name each field, and `check --locked` compares
//! each with what the check observed ([`changes`]).

use crate::cache::Cache;
use mdbook_companion_core::claim::Recorded;
use mdbook_companion_core::expect::Expect;
use mdbook_companion_core::run::RecordedRun;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The lock's file name, at the book root.
pub const FILE: &str = "companion.lock";

/// The format this binary writes and reads.
pub const VERSION: u32 = 1;

/// One checked block. Everything a page takes from the lock for a block
/// is a field here (its verdict, the run its Run button replays), and
/// [`Entry::facts`] names every field: the lock vouches for each, and
/// `check --locked` compares each.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// The chapter file (`src/intro.md`).
    pub chapter: String,
    /// The line of the block's info string.
    pub line: usize,
    /// What the block is (`rust example "Dividing by zero"`).
    pub what: String,
    /// The hash of everything compiled and expected ([`crate::check::Checker::claim_key`]).
    pub hash: String,
    /// The claimed outcome (`run`, `panic`, …).
    pub expect: Expect,
    /// `passed`, `failed`, `ignored` or `unchecked`.
    pub verdict: Recorded,
    /// The compiler's version that gave the verdict (empty when none ran).
    pub toolchain: String,
    /// The tool that could not be run, for an `unchecked` verdict (the
    /// page says the claim was not checked, and why).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub missing: Option<String>,
    /// What the program did, for the reader's Run button (a passed Rust
    /// claim of a directive whose program runs or fails to compile; a
    /// plain block has no Run button).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run: Option<RecordedRun>,
}

/// One assembly panel, every field of it named by [`Assembly::facts`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Assembly {
    /// The hash of the request ([`crate::asm::lock_key`]).
    pub hash: String,
    /// The compiler's version that made it.
    pub toolchain: String,
    /// The listing as the page shows it.
    pub listing: String,
    /// The source line of each of its lines (0: none), as the page
    /// colours them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lines: Vec<u32>,
}

/// The whole lock.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lock {
    /// The format version.
    pub version: u32,
    /// The checked blocks, sorted by chapter, line and hash.
    #[serde(default, rename = "block")]
    pub blocks: Vec<Entry>,
    /// The assembly panels, sorted by hash.
    #[serde(default, rename = "assembly")]
    pub assembly: Vec<Assembly>,
}

/// One fact of the lock: a field as the lock names it (`run.stderr`,
/// `assembly.listing`) and its value as text.
pub type LockField = (&'static str, String);

impl Entry {
    /// Every fact the entry records, each named by its field: what a page
    /// may take from the lock (its verdict, its recorded run) and what
    /// `check --locked` compares, field by field. Every field is named
    /// below (no `..`), so a field added to the entry or to its run does
    /// not compile until it is listed here, and so vouched for.
    pub fn facts(&self) -> Vec<LockField> {
        let Entry {
            chapter,
            line,
            what,
            hash,
            expect,
            verdict,
            toolchain,
            run,
            missing,
        } = self;
        let mut facts = vec![
            ("chapter", chapter.clone()),
            ("line", line.to_string()),
            ("what", what.clone()),
            ("hash", hash.clone()),
            ("expect", expect.name().to_owned()),
            ("verdict", verdict.to_string()),
            ("toolchain", toolchain.clone()),
            // The tool a page names for an unchecked claim.
            ("missing", or_none(missing)),
        ];
        match run {
            None => facts.push(("run", "none".to_owned())),
            Some(run) => {
                let RecordedRun {
                    compiled,
                    stdout,
                    stderr,
                    toolchain,
                    status,
                    report,
                } = run;
                facts.extend([
                    ("run", "recorded".to_owned()),
                    ("run.compiled", compiled.to_string()),
                    ("run.stdout", stdout.clone()),
                    ("run.stderr", stderr.clone()),
                    ("run.toolchain", toolchain.clone()),
                    // How a C program ended, and its checker's report.
                    ("run.status", or_none(status)),
                    ("run.report", or_none(report)),
                ]);
            }
        }
        facts
    }
}

/// An optional fact's value: `none` when absent.
fn or_none(value: &Option<String>) -> String {
    value.clone().unwrap_or_else(|| "none".to_owned())
}

impl Assembly {
    /// Every fact the panel records, each named by its field
    /// (`assembly.listing`), as [`Entry::facts`] names an entry's.
    pub fn facts(&self) -> Vec<LockField> {
        let Assembly {
            hash,
            toolchain,
            listing,
            lines,
        } = self;
        let lines: Vec<String> = lines.iter().map(u32::to_string).collect();
        vec![
            ("assembly.hash", hash.clone()),
            ("assembly.toolchain", toolchain.clone()),
            ("assembly.listing", listing.clone()),
            ("assembly.lines", lines.join(" ")),
        ]
    }
}

/// A fact the lock records otherwise than this check found it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// The field (`run.stderr`).
    pub field: &'static str,
    /// Its value in the lock.
    pub locked: String,
    /// Its value now.
    pub now: String,
}

/// The facts of `locked` whose value `now` differs, in `locked`'s order.
/// A fact only one side has (the fields of a run the other side lacks)
/// is not one: the fact that says whether there is one (`run`) differs.
pub fn changes(locked: &[LockField], now: &[LockField]) -> Vec<Change> {
    locked
        .iter()
        .filter_map(|(field, old)| {
            let (_, new) = now.iter().find(|(f, _)| f == field)?;
            (old != new).then(|| Change {
                field,
                locked: old.clone(),
                now: new.clone(),
            })
        })
        .collect()
}

/// Where and why a text is not a lock.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// The 1-based line.
    pub line: usize,
    /// The 1-based column, in characters.
    pub column: usize,
    /// What was found and what was expected.
    pub message: String,
}

impl std::fmt::Display for ParseError {
    /// `3:1: message`: a path goes before it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

/// Where the first line that opens, separates or closes a merge conflict
/// (`<<<<<<<`, `=======`, `>>>>>>>`, `|||||||`) starts.
fn conflict_marker(text: &str) -> Option<usize> {
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let l = line.trim_end_matches(['\r', '\n']);
        let marker = ["<<<<<<<", ">>>>>>>", "|||||||"]
            .iter()
            .any(|m| l.starts_with(m))
            || l == "=======";
        if marker {
            return Some(at);
        }
        at += line.len();
    }
    None
}

/// The 1-based line and column (in characters) of byte `offset`.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    mdbook_companion_core::markdown::line_col(text, offset)
}

/// Reading a lock: none there, one that does not parse, or one.
#[derive(Debug)]
pub enum Read {
    /// No lock file.
    Missing,
    /// A file that is not a lock of this version: why.
    Invalid(String),
    /// The lock.
    Lock(Lock),
}

impl Lock {
    /// The lock file of the book at `root`.
    pub fn path(root: &Path) -> PathBuf {
        root.join(FILE)
    }

    /// Reads the lock of the book at `root`.
    pub fn read(root: &Path) -> Read {
        let path = Lock::path(root);
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Read::Missing,
            Err(e) => return Read::Invalid(format!("{}: {e}", path.display())),
        };
        match Lock::parse(&text) {
            Ok(lock) => Read::Lock(lock),
            Err(e) => Read::Invalid(format!("{}:{e}", path.display())),
        }
    }

    /// Reads a lock from its text: the lock, or where and why it is not
    /// one (merge conflict markers, TOML that does not parse, fields
    /// that are not a lock's, another format version).
    pub fn parse(text: &str) -> Result<Lock, ParseError> {
        match toml::from_str::<Lock>(text) {
            Ok(lock) if lock.version == VERSION => Ok(lock),
            Ok(lock) => {
                let at = text.find("version").unwrap_or(0);
                let (line, column) = line_col(text, at);
                Err(ParseError {
                    line,
                    column,
                    message: format!(
                        "found format version {}; expected version {VERSION}, the one this mdbook-companion reads",
                        lock.version
                    ),
                })
            }
            // A merge conflict is not TOML; its first marker says more
            // than where the parser stumbled over one of them. (A lock
            // that parses holds no marker, only text that may look like
            // one in a program's output.)
            Err(e) => Err(match conflict_marker(text) {
                Some(at) => {
                    let (line, column) = line_col(text, at);
                    ParseError {
                        line,
                        column,
                        message: "found a merge conflict marker; expected a lock whose conflict is resolved".to_owned(),
                    }
                }
                None => {
                    let (line, column) = line_col(text, e.span().map_or(0, |s| s.start));
                    ParseError {
                        line,
                        column,
                        message: e.message().trim_end().to_owned(),
                    }
                }
            }),
        }
    }

    /// The lock, if there is a valid one (for builds: anything else is
    /// as good as none).
    pub fn load(root: &Path) -> Option<Lock> {
        match Lock::read(root) {
            Read::Lock(l) => Some(l),
            Read::Missing | Read::Invalid(_) => None,
        }
    }

    /// Sorts the entries, drops duplicate panels: the lock's one order.
    pub fn normalize(&mut self) {
        self.version = VERSION;
        self.blocks.sort_by(|a, b| {
            (&a.chapter, a.line, &a.hash, &a.what).cmp(&(&b.chapter, b.line, &b.hash, &b.what))
        });
        self.blocks.dedup();
        self.assembly.sort_by(|a, b| a.hash.cmp(&b.hash));
        self.assembly.dedup_by(|a, b| a.hash == b.hash);
    }

    /// The lock as written: deterministic TOML with a header.
    pub fn to_text(&self) -> String {
        let mut lock = self.clone();
        lock.normalize();
        let body = toml::to_string(&lock).unwrap_or_default();
        format!(
            "# companion.lock: what `mdbook-companion check` verified. Commit it; it is\n# rewritten by `check` and read by builds and `check --locked`.\n{body}"
        )
    }

    /// Writes the lock at `root` atomically (a temporary file in the same
    /// folder, then a rename); unchanged text is not rewritten.
    pub fn write(&self, root: &Path) -> std::io::Result<bool> {
        let path = Lock::path(root);
        let text = self.to_text();
        if std::fs::read_to_string(&path).ok().as_deref() == Some(text.as_str()) {
            return Ok(false);
        }
        let mut tmp = tempfile::NamedTempFile::new_in(root)?;
        std::io::Write::write_all(&mut tmp, text.as_bytes())?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            tmp.as_file()
                .set_permissions(std::fs::Permissions::from_mode(0o644))?;
        }
        tmp.as_file().sync_all()?;
        tmp.persist(&path).map_err(|e| e.error)?;
        Ok(true)
    }

    /// An index of the lock for lookups by hash.
    pub fn index(self) -> Index {
        let blocks = self
            .blocks
            .iter()
            .map(|e| (e.hash.clone(), e.clone()))
            .collect();
        let assembly = self
            .assembly
            .iter()
            .map(|a| (a.hash.clone(), a.clone()))
            .collect();
        Index { blocks, assembly }
    }
}

/// A lock by hash, for builds.
#[derive(Debug, Default)]
pub struct Index {
    blocks: HashMap<String, Entry>,
    assembly: HashMap<String, Assembly>,
}

impl Index {
    /// The entry of a claim with this hash.
    pub fn block(&self, hash: &str) -> Option<&Entry> {
        self.blocks.get(hash)
    }

    /// The panel with this hash.
    pub fn assembly(&self, hash: &str) -> Option<&Assembly> {
        self.assembly.get(hash)
    }
}

/// How the lock names a toolchain: the first line of its version answer
/// (`rustc 1.95.0 (59807616e 2026-04-14)`).
pub fn toolchain(version: &str) -> String {
    version.lines().next().unwrap_or("").trim().to_owned()
}

/// A hash of parts, as the cache hashes them.
pub fn hash(parts: &[&[u8]]) -> String {
    Cache::key(parts)
}

#[cfg(test)]
mod tests;
