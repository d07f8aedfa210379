//! Naming the `{{#include}}` links mdBook could not expand, and only those.
//!
//! mdBook's `links` preprocessor runs before us. It leaves an
//! `{{#include …}}` (or `{{#rustdoc_include …}}`) as text in two cases that
//! look the same in our input: when it cannot read the file (it logs an
//! error and builds on), and when the author escaped the link as
//! `\{{#include …}}` to show it literally (it drops the backslash). Only the
//! first deserves a warning. The chapter's source on disk tells them apart:
//! we find its links as mdBook does (same pattern, same escape rule, same
//! base directories, following includes it could read, at most as deep),
//! and stay quiet about a link text that only comes out of escapes. When the
//! source cannot tell (no file, files outside the book, a link that fails
//! and is also escaped elsewhere), we warn as before.

use super::contract::Env;
use mdbook_companion_core::markdown::Block;
use mdbook_companion_core::problem::Problem;
use regex::Regex;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// mdBook's nesting limit for includes (`MAX_LINK_NESTED_DEPTH`).
const MAX_DEPTH: usize = 10;

/// At most this many files are read to tell escapes from failures.
const MAX_FILES: usize = 256;

/// mdBook 0.5.4's link pattern (`find_links` in its `links.rs`): an
/// escaped link, greedy to the last `}}` of its line, or a link.
fn links() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"\\\{\{\#.*\}\}|\{\{\s*\#([a-zA-Z0-9_]+)\s+([^}]+)\}\}")
            .unwrap_or_else(|e| unreachable!("constant pattern: {e}"))
    })
}

/// Whether a link type reads a file.
fn includes(kind: &str) -> bool {
    matches!(kind, "include" | "rustdoc_include")
}

/// What the chapter's sources say about link texts that reach us.
#[derive(Debug, Default)]
struct Origins {
    /// Texts of include links whose file mdBook could not read, or that we
    /// could not look at (outside the book).
    failed: HashSet<String>,
    /// The texts escaped links turn into (backslash dropped).
    escaped: Vec<String>,
    /// Files read so far.
    files: usize,
    /// The walk stopped early (too many files): it cannot clear anything.
    incomplete: bool,
}

impl Origins {
    /// Walks the chapter source at `chapter` (relative to the book's
    /// `src`); `None` when it cannot be read inside the book.
    fn of_chapter(root: &Path, src: &Path, chapter: &Path) -> Option<Origins> {
        let root = root.canonicalize().ok()?;
        let path = root.join(src).join(chapter);
        let text = read_inside(&root, &path).ok()??;
        let mut origins = Origins::default();
        let base = path.parent()?.to_path_buf();
        origins.walk(&root, &text, &base, 0);
        Some(origins)
    }

    /// mdBook's `replace_all`, keeping only what matters here.
    fn walk(&mut self, root: &Path, text: &str, base: &Path, depth: usize) {
        for cap in links().captures_iter(text) {
            let Some(whole) = cap.get(0) else { continue };
            let link = whole.as_str();
            if let Some(literal) = link.strip_prefix('\\') {
                self.escaped.push(literal.to_owned());
                continue;
            }
            let (Some(kind), Some(rest)) = (cap.get(1), cap.get(2)) else {
                continue;
            };
            let kind = kind.as_str();
            if !includes(kind) && kind != "playground" && kind != "playpen" {
                continue;
            }
            let Some(file) = rest.as_str().split_whitespace().next() else {
                continue;
            };
            let file = if includes(kind) {
                file.split(':').next().unwrap_or(file)
            } else {
                file
            };
            let target = base.join(file);
            self.files += 1;
            if self.files > MAX_FILES {
                self.incomplete = true;
                return;
            }
            match read_inside(root, &target) {
                // Read by mdBook too: what it included is walked in turn
                // (the whole file: a superset of the lines it took).
                Ok(Some(content)) => {
                    if depth + 1 < MAX_DEPTH
                        && let Some(dir) = target.parent()
                    {
                        self.walk(root, &content, dir, depth + 1);
                    }
                }
                // Unreadable (mdBook failed), or outside the book: not
                // looked at, so not cleared either.
                Ok(None) | Err(()) => {
                    if includes(kind) {
                        self.failed.insert(link.to_owned());
                    }
                }
            }
        }
    }

    /// Whether `link`, found as text in a directive, can only have come
    /// from an escape.
    fn only_escaped(&self, link: &str) -> bool {
        !self.incomplete
            && !self.failed.contains(link)
            && self.escaped.iter().any(|e| e.contains(link))
    }
}

/// Reads `path` as UTF-8 if it resolves inside `root` (symbolic links
/// followed): `Ok(None)` outside, `Err` when it cannot be read, as mdBook
/// would fail to.
fn read_inside(root: &Path, path: &Path) -> Result<Option<String>, ()> {
    let real: PathBuf = path.canonicalize().map_err(|_| ())?;
    if !real.starts_with(root) {
        return Ok(None);
    }
    std::fs::read_to_string(&real).map(Some).map_err(|_| ())
}

/// The chapter's path relative to the book's `src`, from the chapter
/// layer's `src/…` file name; `None` for a chapter without a file.
fn chapter_path<'a>(env: &'a Env<'_>) -> Option<&'a Path> {
    let src = env.config.src.to_string_lossy().replace('\\', "/");
    let rel = env.file.strip_prefix(&src)?.strip_prefix('/')?;
    Some(Path::new(rel))
}

/// mdBook's `links` preprocessor leaves an `{{#include …}}` it cannot
/// expand (a missing file, a file that is not UTF-8) as text, logging an
/// error but building on. Inside a directive that text would be shown (or
/// compiled) as code, so each one is named with its place in the chapter;
/// a link the author escaped (`\{{#include …}}`) is not.
pub(super) fn unexpanded_links(block: &Block, env: &Env<'_>) -> Vec<Problem> {
    let text = env.text;
    let mut found = Vec::new();
    // Most bodies hold no link at all: skip them without the pattern (whose
    // compilation alone costs more than the rest of a small book's run).
    if !block.fence.body.contains("{{") {
        return found;
    }
    let mut origins: Option<Option<Origins>> = None;
    for (i, line) in block.fence.body.split('\n').enumerate() {
        for cap in links().captures_iter(line) {
            let (Some(whole), Some(kind)) = (cap.get(0), cap.get(1)) else {
                continue;
            };
            if !includes(kind.as_str()) {
                continue;
            }
            let link = whole.as_str();
            let origins = origins.get_or_insert_with(|| {
                chapter_path(env)
                    .and_then(|p| Origins::of_chapter(&env.config.root, &env.config.src, p))
            });
            if origins.as_ref().is_some_and(|o| o.only_escaped(link)) {
                continue;
            }
            let start =
                mdbook_companion_core::markdown::body_line_offset(text, block.fence.body_offset, i);
            let chapter_line = text[start..].split('\n').next().unwrap_or("");
            let col = chapter_line.find(link).unwrap_or(0);
            found.push(Problem::at(
                start + col,
                format!(
                    "found `{link}` left as text: mdBook could not expand it (see mdBook's error above: a missing file or a file that is not UTF-8); expected the included text"
                ),
            ));
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::book;
    use crate::{Shared, Target};
    use mdbook_companion_core::config::Config;

    /// The messages for `text` (mdBook's output for the chapter) of
    /// `src/ch.md` in the book at `root`.
    fn warnings(root: &Path, text: &str) -> Vec<String> {
        let config = Config::from_json(root.to_path_buf(), &serde_json::json!({})).unwrap();
        let shared = Shared::disabled();
        let env = crate::testing::env(&config, &shared, Target::Html, text, "src/ch.md");
        crate::scan(text)
            .iter()
            .flat_map(|b| unexpanded_links(b, &env))
            .map(|p| {
                let (line, col) = mdbook_companion_core::markdown::line_col(text, p.offset);
                format!(
                    "{line}:{col}: {}",
                    &p.message[..p.message.find(" left").unwrap()]
                )
            })
            .collect()
    }

    /// Files besides `src/ch.md`, the chapter's body as written, as mdBook
    /// passes it on, and the warnings expected.
    type Case<'a> = (&'a [(&'a str, &'a str)], &'a str, &'a str, &'a [&'a str]);

    #[test]
    fn escapes_are_told_from_failures() {
        let example = |body: &str| format!("```rust example\n{body}\n```\n");
        let cases: &[Case<'_>] = &[
            // Escaped by the author: mdBook dropped the backslash.
            (
                &[],
                r"// \{{#include file.rs}}",
                "// {{#include file.rs}}",
                &[],
            ),
            // The greedy escape covers a second link on its line.
            (
                &[],
                r"\{{#include a.rs}} or {{#include b.rs}}",
                "{{#include a.rs}} or {{#include b.rs}}",
                &[],
            ),
            // A file that is missing: mdBook failed.
            (
                &[],
                "{{#include gone.rs}}",
                "{{#include gone.rs}}",
                &["2:1: found `{{#include gone.rs}}`"],
            ),
            (
                &[],
                "{{#rustdoc_include gone.rs:2}}",
                "{{#rustdoc_include gone.rs:2}}",
                &["2:1: found `{{#rustdoc_include gone.rs:2}}`"],
            ),
            // Failed here, escaped there: the source cannot clear it.
            (
                &[],
                "{{#include gone.rs}}\n\\{{#include gone.rs}}",
                "{{#include gone.rs}}\n{{#include gone.rs}}",
                &[
                    "2:1: found `{{#include gone.rs}}`",
                    "3:1: found `{{#include gone.rs}}`",
                ],
            ),
            // An escape inside a file that was included.
            (
                &[("src/inc/part.rs", "// \\{{#include x.rs}}\n")],
                "{{#include inc/part.rs}}",
                "// {{#include x.rs}}",
                &[],
            ),
            // A failure inside a file that was included (base: its folder).
            (
                &[
                    ("src/inc/part.rs", "{{#include x.rs}}\n"),
                    ("src/x.rs", "fn x() {}\n"),
                ],
                "{{#include inc/part.rs}}",
                "{{#include x.rs}}",
                &["2:1: found `{{#include x.rs}}`"],
            ),
            // Text that is in no source (another preprocessor added it).
            (
                &[],
                "fn main() {}",
                "{{#include new.rs}}",
                &["2:1: found `{{#include new.rs}}`"],
            ),
            // A file outside the book is not read, so not cleared.
            (
                &[("src/inc/part.rs", "x")],
                "{{#include ../../../../../../../../etc/hostname}}\n\\{{#include ../../../../../../../../etc/hostname}}",
                "{{#include ../../../../../../../../etc/hostname}}\n{{#include ../../../../../../../../etc/hostname}}",
                &[
                    "2:1: found `{{#include ../../../../../../../../etc/hostname}}`",
                    "3:1: found `{{#include ../../../../../../../../etc/hostname}}`",
                ],
            ),
        ];
        for (files, source, output, want) in cases {
            let mut all = files.to_vec();
            let chapter = example(source);
            all.push(("src/ch.md", &chapter));
            let dir = book(&all);
            let got = warnings(dir.path(), &example(output));
            assert_eq!(got, *want, "{source:?}");
        }
    }

    #[test]
    fn a_chapter_without_a_file_warns_as_before() {
        let dir = book(&[]);
        assert_eq!(
            warnings(dir.path(), "```rust example\n{{#include a.rs}}\n```\n"),
            ["2:1: found `{{#include a.rs}}`"]
        );
    }
}
