//! Loading a book as mdBook does, for `check` and the commands beside it,
//! and placing its chapters' blocks in their files.
//!
//! The book is loaded with `mdbook-driver` (book.toml with its environment
//! overrides, SUMMARY, chapter files; missing chapters are errors, not
//! created) and
//! its `links` preprocessor is run, so `{{#include}}` and friends are
//! expanded exactly as in a build. `check` walks the expanded text once,
//! as the build does ([`super::walk::build_says`]); a line diff between
//! the chapter file and its expanded text ([`LineMap`], [`FilePlace`])
//! maps each block back to a line of the file, and tells whether an
//! output block is literally in the file (so `--bless` may rewrite it) or
//! came through an include (so it may not).
//!
//! Other preprocessors book.toml lists (mdbook-spec, mdbook-gettext, …)
//! are not run: `check` must work where they cannot (a tool not
//! installed, a `cargo run` that needs the network), and they change
//! prose, not code blocks, in the books we compared. Their names are
//! reported ([`Loaded::other_preprocessors`]) so the author knows.

use anyhow::Context as _;
use mdbook_companion_core::claim::BlessTarget;
use mdbook_companion_core::config::Config;
use mdbook_companion_core::diff;
use mdbook_companion_core::markdown;
use mdbook_companion_core::offsets::LineIndex;
use mdbook_companion_core::problem::Located;
use mdbook_companion_directives::contract::{Package, Place};
use mdbook_companion_directives::{self as directive, Env, Shared, Target};
use mdbook_driver::MDBook;
use mdbook_driver::book::BookItem;
use mdbook_driver::builtin_preprocessors::LinkPreprocessor;
use mdbook_preprocessor::{Preprocessor as _, PreprocessorContext};
use std::ops::Range;
use std::path::{Path, PathBuf};

/// A chapter as written and as mdBook's `links` preprocessor leaves it.
#[derive(Debug, Clone)]
pub struct ChapterSource {
    /// Its title in SUMMARY.md (what `mdbook test --chapter` takes).
    pub name: String,
    /// The file as shown to the author: `src/intro.md`.
    pub file: String,
    /// The file on disk.
    pub path: PathBuf,
    /// The file's text.
    pub raw: String,
    /// The text after `{{#include}}` and the other links are expanded.
    pub expanded: String,
}

/// A loaded book.
#[derive(Debug, Clone)]
pub struct Loaded {
    /// The book root.
    pub root: PathBuf,
    /// The checked `[preprocessor.companion]` configuration.
    pub config: Config,
    /// The chapters that have a file, in book order.
    pub chapters: Vec<ChapterSource>,
    /// The edition `mdbook test` gives rustdoc: `[rust] edition`, else
    /// rustdoc's own default, 2015.
    pub test_edition: u16,
    /// The preprocessors book.toml lists besides ours and mdBook's own
    /// (`check` does not run them, see [`load`]).
    pub other_preprocessors: Vec<String>,
    /// Whether book.toml registers `[preprocessor.companion]` (without
    /// it, `mdbook build` leaves the directives as plain code blocks).
    pub registered: bool,
    /// The book's `[book] title`, when book.toml gives one.
    pub title: Option<String>,
}

/// Why `root` is not a book's root directory, and what to pass instead:
/// a path that does not exist (with a near name beside it that holds a
/// book), a file, a book's `src` directory, a directory with neither
/// book.toml nor `src/SUMMARY.md` (with the books below it). `None` when
/// it may be a book.
pub fn not_a_book(root: &Path) -> Option<String> {
    let shown = root.display();
    let is_book = |d: &Path| d.join("book.toml").is_file() || d.join("src/SUMMARY.md").is_file();
    // `.` (or `..`) is a directory whose parent is `..` (`../..`), not
    // the path with its last word cut.
    let parent = match (root.components().next_back(), root.parent()) {
        (Some(std::path::Component::CurDir), _) if root.components().count() == 1 => {
            PathBuf::from("..")
        }
        (Some(std::path::Component::CurDir | std::path::Component::ParentDir), _) => {
            root.join("..")
        }
        (_, Some(p)) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    if !root.exists() {
        let name = root.file_name().map(|n| n.to_string_lossy().into_owned());
        let near = name.and_then(|name| {
            std::fs::read_dir(&parent)
                .ok()?
                .flatten()
                .map(|e| e.path())
                .filter(|p| is_book(p))
                .filter_map(|p| {
                    let other = p.file_name()?.to_string_lossy().into_owned();
                    let d = strsim::osa_distance(&name.to_lowercase(), &other.to_lowercase());
                    (d <= 2).then(|| (d, root.with_file_name(other)))
                })
                .min()
                .map(|(_, p)| p)
        });
        return Some(match near {
            Some(p) => format!(
                "found no directory {shown}; did you mean {}? (pass the book's root directory, the one that holds book.toml)",
                p.display()
            ),
            None => format!(
                "found no directory {shown}; expected the book's root directory (the one that holds book.toml)"
            ),
        });
    }
    // The book a file or a source directory lies in.
    let above = || {
        root.ancestors()
            .skip(1)
            .map(|p| {
                if p.as_os_str().is_empty() {
                    Path::new(".")
                } else {
                    p
                }
            })
            .find(|p| p.join("book.toml").is_file())
            .map(|p| p.display().to_string())
    };
    if root.is_file() {
        return Some(match above() {
            Some(book) => {
                format!("found the file {shown}; expected the book's root directory: pass {book}")
            }
            None => format!(
                "found the file {shown}; expected the book's root directory (the one that holds book.toml)"
            ),
        });
    }
    if is_book(root) {
        return None;
    }
    if root.join("SUMMARY.md").is_file() {
        let book = above().unwrap_or_else(|| parent.display().to_string());
        return Some(format!(
            "found SUMMARY.md but no book.toml in {shown}: it is the book's source directory; pass the book's root directory, {book}"
        ));
    }
    let mut below: Vec<String> = std::fs::read_dir(root)
        .map(|rd| {
            rd.flatten()
                .map(|e| e.path())
                .filter(|p| p.join("book.toml").is_file())
                .map(|p| p.display().to_string())
                .collect()
        })
        .unwrap_or_default();
    below.sort();
    Some(if below.is_empty() {
        format!(
            "found no book.toml (and no src/SUMMARY.md) in {shown}; run it in a book's root directory, or pass that directory (the one that holds book.toml)"
        )
    } else {
        format!(
            "found no book.toml (and no src/SUMMARY.md) in {shown}; pass the book's root directory: {}",
            below.join(" or ")
        )
    })
}

/// Loads the book at `root` and expands its links.
pub fn load(root: &Path) -> anyhow::Result<Loaded> {
    if let Some(why) = not_a_book(root) {
        anyhow::bail!("{why}");
    }
    let toml = root.join("book.toml");
    let mut md_config = if toml.exists() {
        mdbook_driver::config::Config::from_disk(&toml)?
    } else {
        mdbook_driver::config::Config::default()
    };
    md_config.update_from_env()?;
    // Checking never writes chapters: a missing one is an error, not a new
    // empty file.
    md_config.build.create_missing = false;
    let mut md = MDBook::load_with_config(root, md_config)
        .with_context(|| format!("loading the book at {}", root.display()))?;
    let config_json = serde_json::to_value(&md.config)?;
    let config = crate::book::protocol::config(root.to_path_buf(), &config_json)?;
    let ctx = PreprocessorContext::new(root.to_path_buf(), md.config.clone(), "check".into());
    let expanded = LinkPreprocessor::new()
        .run(&ctx, md.book.clone())
        .context("expanding {{#include}} and the other links")?;
    let src = root.join(&config.src);
    let shown_src = config.src.to_string_lossy().replace('\\', "/");
    let mut chapters = Vec::new();
    // Each chapter's texts moved out of the two books, not copied.
    let originals = chapters_of(std::mem::take(&mut md.book.items));
    let processed = chapters_of(expanded.items);
    for (orig, done) in originals.into_iter().zip(processed) {
        let Some(rel) = orig.source_path.as_ref().or(orig.path.as_ref()) else {
            continue;
        };
        chapters.push(ChapterSource {
            file: format!("{shown_src}/{}", rel.to_string_lossy().replace('\\', "/")),
            path: src.join(rel),
            name: orig.name,
            raw: orig.content,
            expanded: done.content,
        });
    }
    let test_edition = match md.config.rust.edition {
        Some(mdbook_driver::config::RustEdition::E2018) => 2018,
        Some(mdbook_driver::config::RustEdition::E2021) => 2021,
        Some(mdbook_driver::config::RustEdition::E2024) => 2024,
        _ => 2015,
    };
    let listed = md.config.preprocessors::<toml::Value>().unwrap_or_default();
    // Ours by name, or under another name with our binary as its command.
    let registered = listed.iter().any(|(name, table)| {
        name == "companion"
            || table
                .get("command")
                .and_then(toml::Value::as_str)
                .is_some_and(|c| c.contains("mdbook-companion"))
    });
    let other_preprocessors = listed
        .into_keys()
        .filter(|name| !["links", "index", "companion"].contains(&name.as_str()))
        .collect();
    Ok(Loaded {
        root: root.to_path_buf(),
        config,
        chapters,
        test_edition,
        other_preprocessors,
        registered,
        title: md.config.book.title.clone(),
    })
}

/// The chapters of `items` that have a file, in the order of mdBook's
/// `Book::iter` (each before its sub-chapters), taken out of them.
fn chapters_of(items: Vec<BookItem>) -> Vec<mdbook_driver::book::Chapter> {
    let mut out = Vec::new();
    let mut stack: Vec<std::vec::IntoIter<BookItem>> = vec![items.into_iter()];
    while let Some(top) = stack.last_mut() {
        let Some(item) = top.next() else {
            stack.pop();
            continue;
        };
        if let BookItem::Chapter(mut ch) = item {
            let subs = std::mem::take(&mut ch.sub_items);
            if ch.path.is_some() {
                out.push(ch);
            }
            stack.push(subs.into_iter());
        }
    }
    out
}

/// Maps lines of the expanded text to lines of the chapter file.
#[derive(Debug, Clone)]
pub struct LineMap {
    /// For each expanded line (0-based): the file line (0-based) and whether
    /// the line is the same in the file (not produced by a link).
    lines: Vec<(usize, bool)>,
}

impl LineMap {
    /// The map between a file's text and its expanded text.
    pub fn new(raw: &str, expanded: &str) -> LineMap {
        let mut lines = Vec::new();
        if raw == expanded {
            let n = expanded.split_inclusive('\n').count();
            return LineMap {
                lines: (0..n).map(|i| (i, true)).collect(),
            };
        }
        for op in diff::lines(raw, expanded) {
            let (old, new) = (op.old, op.new);
            for (i, _) in new.clone().enumerate() {
                let entry = match op.equal {
                    true => (old.start + i, true),
                    // A link's expansion: it stands on the line of the link.
                    _ if old.is_empty() => (old.start.saturating_sub(1), false),
                    _ => (old.start + i.min(old.len() - 1), false),
                };
                lines.push(entry);
            }
        }
        LineMap { lines }
    }

    /// The file line (1-based) of an expanded line (0-based).
    pub fn file_line(&self, expanded_line: usize) -> usize {
        self.lines
            .get(expanded_line)
            .or(self.lines.last())
            .map_or(0, |(l, _)| *l)
            + 1
    }

    /// The file lines (0-based) of expanded lines `from..=to`, when every
    /// one of them is literally in the file, in a row.
    pub fn literal(&self, from: usize, to: usize) -> Option<usize> {
        let first = self.lines.get(from)?;
        for (k, line) in (from..=to).enumerate() {
            let (l, same) = *self.lines.get(line)?;
            if !same || l != first.0 + k {
                return None;
            }
        }
        Some(first.0)
    }
}

/// The Cargo packages a chapter (of a book of `of`) offers students (its exercises),
/// the starters' or, with `solutions`, the solutions', and the blocks
/// that could not be read, at their line of the chapter file.
pub fn packages(
    chapter: &ChapterSource,
    config: &Config,
    solutions: bool,
    of: usize,
) -> (Vec<Package>, Vec<Located>) {
    let text = &chapter.expanded;
    super::tally::parsed(&chapter.file, of);
    super::tally::scanned();
    let blocks = directive::scan_escaped(text, &directive::escaped_links(&chapter.raw, text));
    if blocks.is_empty() {
        return (Vec::new(), Vec::new());
    }
    let map = LineMap::new(&chapter.raw, text);
    let shared = Shared::default();
    let env = Env {
        config,
        target: Target::Markdown,
        text,
        file: &chapter.file,
        shared: &shared,
        numbers: Default::default(),
        place: &mdbook_companion_directives::contract::Unplaced,
    };
    let mut out = Vec::new();
    let mut invalid = Vec::new();
    for block in &blocks {
        match directive::parse(block, &env) {
            Ok(parsed) => out.extend(parsed.model.package(solutions)),
            Err(p) => {
                let (line, column) = markdown::line_col(text, p.offset);
                invalid.push(Located {
                    file: chapter.file.clone(),
                    line: map.file_line(line - 1),
                    column,
                    message: p.message,
                });
            }
        }
    }
    (out, invalid)
}

/// A chapter's offsets placed in its file: lines through the chapter's
/// [`LineMap`], `--bless` targets where the output block is literal. The
/// line starts of the expanded text and of the file are found once per
/// chapter: a chapter of n blocks asks for n lines and n targets, which
/// counting from the chapter's start for each made quadratic.
#[derive(Debug)]
pub struct FilePlace<'a> {
    chapter: &'a ChapterSource,
    map: LineMap,
    /// The expanded text's line starts.
    text: LineIndex,
    /// The file's line starts, once a block asks for a `--bless` target.
    raw: std::sync::OnceLock<LineIndex>,
}

impl<'a> FilePlace<'a> {
    /// The places of `chapter`'s expanded text in its file.
    pub fn new(chapter: &'a ChapterSource) -> FilePlace<'a> {
        FilePlace {
            chapter,
            map: LineMap::new(&chapter.raw, &chapter.expanded),
            text: LineIndex::new(&chapter.expanded),
            raw: std::sync::OnceLock::new(),
        }
    }

    /// The chapter placed.
    pub fn chapter(&self) -> &'a ChapterSource {
        self.chapter
    }

    /// The expanded text's lines in the file's.
    pub fn map(&self) -> &LineMap {
        &self.map
    }

    /// The expanded text's line starts.
    pub fn index(&self) -> &LineIndex {
        &self.text
    }
}

impl Place for FilePlace<'_> {
    fn line(&self, offset: usize) -> usize {
        self.map.file_line(self.text.line0(offset))
    }

    fn bless(&self, range: &Range<usize>) -> Option<BlessTarget> {
        let c = self.chapter;
        let raw = self.raw.get_or_init(|| LineIndex::new(&c.raw));
        let lines = Indexed {
            text: &self.text,
            raw,
        };
        bless_target(range, &c.expanded, &self.map, &c.raw, &c.path, &lines)
    }

    fn literal(&self, from: usize, to: usize) -> Option<usize> {
        self.map.literal(from, to)
    }

    fn text_line(&self, text: &str, offset: usize) -> usize {
        match std::ptr::eq(text, self.chapter.expanded.as_str()) {
            true => self.text.line0(offset) + 1,
            false => markdown::line_col(text, offset).0,
        }
    }
}

/// The line starts of a chapter's expanded text and of its file.
struct Indexed<'a> {
    text: &'a LineIndex,
    raw: &'a LineIndex,
}

/// Where in the chapter file the output block at `range` of the expanded
/// text stands, when every line of it is literally in the file, in a row
/// (not produced by `{{#include}}` or another link). Works the same for an
/// example's output block and for one nested in a comparison.
fn bless_target(
    range: &Range<usize>,
    text: &str,
    map: &LineMap,
    raw: &str,
    path: &Path,
    lines: &Indexed<'_>,
) -> Option<BlessTarget> {
    let block = text.get(range.clone())?;
    let first = lines.text.line0(range.start);
    let last = lines
        .text
        .line0(range.end.saturating_sub(1).max(range.start));
    let file_line = map.literal(first, last)?;
    let start = lines.raw.start(file_line) + (range.start - lines.text.start(first));
    let raw_range = start..start + block.len();
    // The lines are equal, so the bytes are; checked all the same.
    (raw.get(raw_range.clone()) == Some(block)).then(|| BlessTarget {
        path: path.to_path_buf(),
        range: raw_range,
        block: block.to_owned(),
        quiz_file: false,
    })
}

#[cfg(test)]
mod tests;
