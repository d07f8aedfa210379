//! `mdbook-companion adopt BOOK [--write]`: turn a book's runnable plain
//! blocks into examples, from what they were seen to do.
//!
//! The book is checked as `check` checks it (same cache), and every plain
//! Rust block that passed becomes an example: `example` joins its info
//! string, rustdoc's flags become attributes (`should_panic` →
//! `expect=panic`, `no_run` → `expect=no-run`, `compile_fail,E0308` →
//! `expect=compile-fail error=E0308`, `edition2018` → `edition=2018`), and
//! an ```` ```output ```` block with what it printed (a run's stdout, a
//! panic's message) follows it. A `compile_fail` block names its error
//! code instead, and no output block is added when the chapter's next
//! block already shows the output (a ```` ```text ````, `console`, `bash`,
//! `sh`, `shell`, `output` or bare fence holding the same lines). The
//! changes are printed as a unified diff; `--write` writes each file
//! atomically and registers the preprocessor as `install` does, then
//! checks the book as `check` does, which writes `companion.lock`
//! (`check --locked` passes right after). Nothing else in a file changes:
//! only the info string's line is rewritten and the output block
//! inserted after the closing fence (a byte-order mark and CRLF line ends
//! are kept). Files go through the
//! guard of [`author`]: a chapter outside the book's `src`, behind a link
//! leading out, or read-only is named and left alone, and the command then
//! fails.
//!
//! Blocks left as they are, and listed: those from `{{#include}}` (their
//! text is not in the chapter file), failing ones, ignored ones, and those
//! an example would read differently (`test_harness`, several error codes,
//! a flag examples do not take, a `fn main` rustdoc and mdBook would find
//! differently). A second run finds nothing more to change.

use super::author;
use super::check::{self, Checked, Options, Report};
use super::install;
use crate::book::load::{self, LineMap};
use crate::book::plain::{self, CodeBlock};
use crate::book::session::Session;
use mdbook_companion_core::code;
use mdbook_companion_core::diff;
use mdbook_companion_core::doctest::LangString;
use mdbook_companion_core::expect::Expect;
use mdbook_companion_core::markdown;
use mdbook_companion_core::tokens::starts_threads;
use mdbook_companion_engine::check::Verdict;
use rayon::prelude::*;
use stable::{Stable, stable};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

mod stable;

/// What `adopt` found and would change.
#[derive(Debug, Default)]
pub struct Adoption {
    /// Per chapter file: (shown name, path, text before, text after).
    pub files: Vec<(String, PathBuf, String, String)>,
    /// Blocks made examples, per entry of `files`.
    pub per_file: Vec<usize>,
    /// Blocks made examples.
    pub adopted: usize,
    /// The book's `src`, the only place `--write` writes in.
    pub src: PathBuf,
    /// Blocks left as they are: `file:line: why`.
    pub left: Vec<String>,
    /// Blocks whose output varies between runs, and what was recorded of
    /// it: `file:line: what`.
    pub varying: Vec<String>,
    /// Blocks whose output the block after them already shows (so no
    /// output block is added): `file:line: which`.
    pub shown: Vec<String>,
}

impl Adoption {
    /// The unified diff of every change.
    pub fn diff(&self) -> String {
        let mut out = String::new();
        for (file, _, before, after) in &self.files {
            out.push_str(&diff::unified(
                before,
                after,
                &format!("a/{file}"),
                &format!("b/{file}"),
            ));
        }
        out
    }
}

/// An edit of a chapter file: the info line (0-based) rewritten, and text
/// inserted after the closing fence's line.
struct Edit {
    line: usize,
    info_line: String,
    after_line: usize,
    insert: String,
}

/// The example attributes for a plain block's info string, or why it
/// stays plain.
fn attributes(info: &str, test_edition: u16, book_edition: u16) -> Result<String, String> {
    let lang = LangString::parse(info);
    if lang.ignore || !lang.ignore_on.is_empty() {
        return Err("ignored".to_owned());
    }
    if lang.test_harness {
        return Err("test_harness (an example has no test harness)".to_owned());
    }
    if lang.error_codes.len() > 1 {
        return Err("several error codes (an example names one)".to_owned());
    }
    let mut words = vec!["rust".to_owned(), "example".to_owned()];
    match lang.expect() {
        Expect::Panic => words.push("expect=panic".to_owned()),
        Expect::NoRun => words.push("expect=no-run".to_owned()),
        Expect::CompileFail => words.push("expect=compile-fail".to_owned()),
        _ => {}
    }
    if let Some(code) = lang.error_codes.first() {
        words.push(format!("error={code}"));
    }
    match lang.edition {
        Some(e) => words.push(format!("edition={e}")),
        None if test_edition != book_edition => words.push(format!("edition={test_edition}")),
        None => {}
    }
    for word in info.split([' ', ',', '\t']).filter(|w| !w.is_empty()) {
        match word {
            "rust" | "should_panic" | "no_run" | "compile_fail" => {}
            w if w.starts_with("edition") || (w.starts_with('E') && w.len() == 5) => {}
            "editable" | "noplayground" | "noplaypen" | "mdbook-runnable" => {
                words.push(word.to_owned())
            }
            other => return Err(format!("the flag `{other}`, which examples do not take")),
        }
    }
    Ok(words.join(" "))
}

/// The block's output block, if it printed something.
fn output_block(text: &str, unordered: bool, prefix: &str) -> Option<String> {
    let text = text.trim_end_matches('\n');
    if text.trim().is_empty() {
        return None;
    }
    let mut fence = "```".to_owned();
    while text.contains(fence.as_str()) {
        fence.push('`');
    }
    let blank = prefix.trim_end();
    let info = if unordered {
        "output unordered"
    } else {
        "output"
    };
    let mut s = format!("{blank}\n{prefix}{fence}{info}\n");
    for line in text.lines() {
        if line.is_empty() {
            s.push_str(blank);
        } else {
            s.push_str(prefix);
            s.push_str(line);
        }
        s.push('\n');
    }
    s.push_str(&format!("{prefix}{fence}\n"));
    Some(s)
}

/// Runs each passing plain block that printed something again (once, or
/// many times when it starts threads), and keeps what it printed in
/// [`Checked::others`]: what every run agrees on is what `adopt` writes.
fn second_runs(session: &Session, report: &mut Report, jobs: Option<usize>) -> anyhow::Result<()> {
    let pool = check::pool(jobs)?;
    let checker = &session.checker;
    pool.install(|| {
        report.checked.par_iter_mut().for_each(|c| {
            let printed = c.claim.program.doctest.is_some()
                && c.outcome.verdict == Verdict::Passed
                && matches!(c.claim.expectation.expect, Expect::Run | Expect::Panic)
                && c.outcome.actual.is_some();
            if printed {
                c.others = checker.other_actuals(&c.claim.stated());
            }
        });
    });
    Ok(())
}

/// The checked plain blocks of `report` (adopt's candidates), by chapter
/// file.
fn plain_by_file(report: &Report) -> BTreeMap<&str, Vec<&Checked>> {
    let mut by_file: BTreeMap<&str, Vec<&Checked>> = BTreeMap::new();
    for c in &report.checked {
        if c.claim.program.doctest.is_some() {
            let file = c.claim.origin.file.as_str();
            by_file.entry(file).or_default().push(c);
        }
    }
    by_file
}

/// Finds what `adopt` would change in the book at `root` (checking its
/// blocks, with the cache).
pub fn plan(root: &Path, jobs: Option<usize>) -> anyhow::Result<Adoption> {
    // Checked, and companion.lock left alone.
    let mut session = Session::open(root, None, &[])?;
    // A failing block's first error code goes into its info string.
    session.checker.exact_diagnostics();
    let options = Options {
        jobs,
        ..Options::default()
    };
    let mut report = check::checked_book(&mut session, &options)?;
    // Each program run at least twice: only what is stable is kept.
    second_runs(&session, &mut report, jobs)?;
    let loaded = &session.loaded;
    let by_file = plain_by_file(&report);
    let mut adoption = Adoption {
        src: loaded.root.join(&loaded.config.src),
        ..Adoption::default()
    };
    for chapter in &loaded.chapters {
        let Some(blocks) = by_file.get(chapter.file.as_str()) else {
            continue;
        };
        let map = LineMap::new(&chapter.raw, &chapter.expanded);
        let found = crate::book::plain::code_blocks(&chapter.expanded);
        let raw_lines: Vec<&str> = chapter.raw.split_inclusive('\n').collect();
        let mut edits = Vec::new();
        for c in blocks {
            let at = format!("{}:{}", c.claim.origin.file, c.claim.origin.line);
            match &c.outcome.verdict {
                Verdict::Passed => {}
                Verdict::Ignored => {
                    adoption.left.push(format!("{at}: ignored"));
                    continue;
                }
                Verdict::Failed { message, .. } => {
                    let first = message.lines().next().unwrap_or_default();
                    adoption.left.push(format!("{at}: fails ({first})"));
                    continue;
                }
                Verdict::Unchecked { tool, .. } => {
                    adoption
                        .left
                        .push(format!("{at}: not checked (`{tool}` could not be run)"));
                    continue;
                }
                Verdict::OtherArch { here, .. } => {
                    adoption.left.push(format!("{at}: not checked on {here}"));
                    continue;
                }
            }
            let offset = c.claim.origin.offset;
            let at_block = found.iter().position(|b| b.range.start == offset);
            let next = at_block.and_then(|i| found.get(i + 1));
            match at_block
                .and_then(|i| found.get(i))
                .ok_or_else(|| "not found again in the chapter".to_owned())
                .and_then(|b| edit(c, b, next, chapter, &map, &raw_lines, loaded))
            {
                Ok((e, varying, shown)) => {
                    if let Some(v) = varying {
                        adoption.varying.push(format!("{at}: {v}"));
                    }
                    if let Some(v) = shown {
                        adoption.shown.push(format!("{at}: {v}"));
                    }
                    edits.push(e)
                }
                Err(why) => adoption.left.push(format!("{at}: {why}")),
            }
        }
        if edits.is_empty() {
            continue;
        }
        adoption.adopted += edits.len();
        adoption.per_file.push(edits.len());
        let mut after = String::with_capacity(chapter.raw.len() + 200);
        for (i, line) in raw_lines.iter().enumerate() {
            match edits.iter().find(|e| e.line == i) {
                Some(e) => after.push_str(&e.info_line),
                None => after.push_str(line),
            }
            for e in edits.iter().filter(|e| e.after_line == i) {
                if !after.ends_with('\n') {
                    after.push('\n');
                }
                after.push_str(&e.insert);
            }
        }
        adoption.files.push((
            chapter.file.clone(),
            chapter.path.clone(),
            chapter.raw.clone(),
            after,
        ));
    }
    Ok(adoption)
}

/// What [`edit`] makes of a block: the edit, what varies in its output,
/// and the block after it that already shows its output.
type Made = (Edit, Option<&'static str>, Option<String>);

/// The edit that makes block `c` an example, or why it stays plain;
/// `next` is the chapter's code block after it.
fn edit(
    c: &Checked,
    block: &CodeBlock,
    next: Option<&CodeBlock>,
    chapter: &load::ChapterSource,
    map: &LineMap,
    raw_lines: &[&str],
    loaded: &load::Loaded,
) -> Result<Made, String> {
    let text = &chapter.expanded;
    let start = block.range.start;
    let first = markdown::line_col(text, start).0 - 1;
    let end = block.range.end;
    let last = markdown::line_col(text, end.saturating_sub(1).max(start)).0 - 1;
    let Some(line) = map.literal(first, last) else {
        return Err("comes from {{#include}}; left as it is".to_owned());
    };
    let fence_line = *raw_lines.get(line).ok_or("outside the file")?;
    let body = fence_line.trim_start_matches([' ', '\t', '>']);
    let prefix = &fence_line[..fence_line.len() - body.len()];
    let ticks = body
        .chars()
        .take_while(|&ch| ch == '`' || ch == '~')
        .count();
    if ticks < 3 {
        return Err("an indented block (examples are fenced)".to_owned());
    }
    let mut words = attributes(&block.info, loaded.test_edition, loaded.config.edition)?;
    let source = mdbook_companion_core::doctest::unhidden(&block.code);
    if c.claim.program.wrapped == code::has_main(&source) {
        return Err("`fn main` is found differently by rustdoc and mdBook".to_owned());
    }
    if c.claim.program.wrapped && source.trim_end().ends_with("(())") {
        return Err(
            "ends in `Ok(())`, which rustdoc returns from a wrapped `main` and mdBook does not"
                .to_owned(),
        );
    }
    // A compile failure names the code it failed with.
    if c.claim.expectation.expect == Expect::CompileFail
        && !words.contains(" error=")
        && let Some(code) = c
            .outcome
            .actual
            .as_deref()
            .and_then(|a| a.strip_prefix("error["))
            .and_then(|a| a.split_once(']'))
            .map(|(code, _)| code)
    {
        words.push_str(&format!(" error={code}"));
    }
    if c.claim.expectation.expect == Expect::Panic && c.outcome.actual.is_none() {
        return Err(
            "exits with a failure but does not panic (an example's `expect=panic` needs a panic)"
                .to_owned(),
        );
    }
    let newline = if fence_line.ends_with("\r\n") {
        "\r\n"
    } else if fence_line.ends_with('\n') {
        "\n"
    } else {
        ""
    };
    let info_line = format!("{prefix}{}{words}{newline}", &body[..ticks]);
    let printed = match c.claim.expectation.expect {
        Expect::Run | Expect::Panic => c.outcome.actual.as_deref(),
        _ => None,
    };
    let (kept, varying) = recorded(c, &source, printed);
    // The book shows the output already (a "will print" block after
    // it): shown once, as the author wrote it.
    let shown = printed
        .and_then(|p| plain::shows_output(next, text, p))
        .map(|info| format!("the {info} block after it shows its output already"));
    let (kept, varying) = match shown {
        Some(_) => (None, None),
        None => (kept, varying),
    };
    let mut insert = kept
        .and_then(|(text, unordered)| output_block(&text, unordered, prefix))
        .unwrap_or_default();
    if newline == "\r\n" {
        insert = insert.replace('\n', "\r\n");
    }
    Ok((
        Edit {
            line,
            info_line,
            after_line: line + (last - first),
            insert,
        },
        varying,
        shown,
    ))
}

/// The output block to record for block `c` (its text and whether its
/// lines come in any order) from what it `printed`, and a word on why it
/// is recorded so (or not at all) when the runs did not agree.
fn recorded(
    c: &Checked,
    source: &str,
    printed: Option<&str>,
) -> (Option<(String, bool)>, Option<&'static str>) {
    match printed.map(|p| stable(p, &c.others, c.claim.expectation.expect == Expect::Run)) {
        None => (None, None),
        // Threads print in the order they run, which two runs may
        // happen to share: their lines are taken in any order.
        Some(Stable::Same(text))
            if c.claim.expectation.expect == Expect::Run
                && text.lines().count() > 1
                && starts_threads(source) =>
        {
            (
                Some((text, true)),
                Some(
                    "it starts threads, whose lines may come in any order: recorded as ```output unordered",
                ),
            )
        }
        Some(Stable::Same(text)) => (Some((text, false)), None),
        Some(Stable::Unordered(text)) => (
            Some((text, true)),
            Some("its lines come in another order: recorded as ```output unordered"),
        ),
        Some(Stable::Spans(text)) => (
            Some((text, false)),
            Some("parts of its lines change: recorded with [..] for them"),
        ),
        Some(Stable::UnorderedSpans(text)) => (
            Some((text, true)),
            Some(
                "its lines come in another order and parts of them change: recorded as ```output unordered with [..] for them",
            ),
        ),
        Some(Stable::Varies) => (None, Some("it changes otherwise: no output block recorded")),
    }
}

/// What `--write` did.
#[derive(Debug, Default)]
pub struct Written {
    /// One note per file written or refused, and for book.toml.
    pub notes: Vec<String>,
    /// Blocks that became examples (in files that were written).
    pub adopted: usize,
    /// Files not written (refused, or changed since they were read).
    pub refused: usize,
    /// The book checked afterwards as `check` checks it, which wrote
    /// `companion.lock`: `check --locked` passes right after.
    pub checked: Report,
}

/// Writes the planned files (each through [`author`]'s guard: inside the
/// book's `src`, a link written through to its target, a read-only file
/// refused; atomically; only if unchanged since it was read; a
/// byte-order mark kept) and registers the preprocessor unless every file
/// was refused; then checks the book as `check` does (with `jobs`
/// workers), which writes the lock of the adopted book.
pub fn write(root: &Path, adoption: &Adoption, jobs: Option<usize>) -> anyhow::Result<Written> {
    let mut done = Written::default();
    for (n, (file, path, before, after)) in adoption.files.iter().enumerate() {
        let blocks = adoption.per_file.get(n).copied().unwrap_or(0);
        let real = match author::target(&adoption.src, "the book's src", path) {
            Ok(real) => real,
            Err(refused) => {
                done.refused += 1;
                done.notes
                    .push(format!("{file}: not written: {}", refused.why));
                continue;
            }
        };
        let now = std::fs::read_to_string(&real)?;
        // mdBook drops a byte-order mark before the chapter reaches us: the
        // file keeps it.
        let (bom, now) = match now.strip_prefix('\u{feff}') {
            Some(rest) => ("\u{feff}", rest),
            None => ("", now.as_str()),
        };
        if now != before {
            done.refused += 1;
            done.notes.push(format!(
                "{file}: not written: it changed while adopting; run adopt again"
            ));
            continue;
        }
        author::write(&real, format!("{bom}{after}").as_bytes())?;
        done.adopted += blocks;
        done.notes.push(format!("wrote {file}"));
    }
    // As before: registered unless every file was refused.
    if adoption.files.is_empty() || done.refused < adoption.files.len() {
        let installed = install::install(root, install::DEFAULT_CSS)?;
        if installed.book_toml {
            done.notes
                .push("registered the preprocessor in book.toml".to_owned());
        }
    }
    // The examples are new claims (and every block after an inserted
    // output block moved): the lock is the one `check` writes for the
    // book as it now is, by `check` itself. Most of it is in the cache.
    let options = Options {
        jobs,
        ..Options::default()
    };
    done.checked = check::run(root, &options)?;
    done.notes.push(format!(
        "checked the book and wrote companion.lock: {}",
        done.checked.summary()
    ));
    Ok(done)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rustdoc_flags_become_example_attributes() {
        for (info, want) in [
            ("", Ok("rust example")),
            ("rust", Ok("rust example")),
            ("rust,should_panic", Ok("rust example expect=panic")),
            ("no_run", Ok("rust example expect=no-run")),
            (
                "compile_fail,E0382",
                Ok("rust example expect=compile-fail error=E0382"),
            ),
            (
                "rust,edition2018,editable",
                Ok("rust example edition=2018 editable"),
            ),
            ("rust,ignore", Err("ignored")),
            (
                "test_harness",
                Err("test_harness (an example has no test harness)"),
            ),
            (
                "rust,mystery",
                Err("the flag `mystery`, which examples do not take"),
            ),
        ] {
            assert_eq!(
                attributes(info, 2021, 2021),
                want.map(str::to_owned).map_err(str::to_owned),
                "{info}"
            );
        }
        // A book without `[rust] edition`: rustdoc's 2015 is kept.
        assert_eq!(
            attributes("rust", 2015, 2021).as_deref(),
            Ok("rust example edition=2015")
        );
    }
}
