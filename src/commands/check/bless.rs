//! `check --bless`: write the actual outputs into the chapters' output
//! blocks, and add one after an `expect=run` example that printed with
//! none ([`super::report::unclaimed_output`]: not when the chapter's next
//! block shows that output already).
//!
//! Only claims whose sole fault is their output text are blessed, and only
//! when the ```` ```output ```` block is literally in a chapter file (an
//! output that came through `{{#include}}` is reported, not rewritten).
//! Only the lines between the block's fences change; every other byte of
//! the file stays as it was. Files are written through the one guard of
//! [`commands::author`](crate::commands::author): only inside the book's `src`
//! after resolving symlinks (a linked chapter is written through to its
//! target), never a read-only one, atomically.
//!
//! This holds for an example's output block and for one nested in a
//! comparison alike. For a comparison's C or C++ side, "only the text is
//! wrong" means: `expect=run` compiled, exited 0 and printed something
//! else (stdout is written), or `expect=ub` stopped with a sanitizer report
//! that does not contain the block (its `runtime error: …` line is
//! written, as a panic message is for `expect=panic`). A side that does not compile, a
//! `run` side that exits non-zero, a `ub` side the sanitizer says nothing
//! about, a time-out or a flood is a wrong claim, not a wrong text: it
//! stays failed and its block is left alone. A new output line must close
//! neither its own block nor the comparison around it.

use super::super::author;
use super::report::Checked;
use anyhow::Context as _;
use mdbook_companion_core::claim::BlessTarget;
use mdbook_companion_core::markdown;
use mdbook_companion_engine::check::Verdict;
use std::collections::BTreeMap;
use std::ops::Range;
use std::path::{Path, PathBuf};

/// One "not blessed" note for each claim of a file `--bless` may not
/// write (`refused` says why): the edits name their claims by index.
pub(super) fn refused_notes<A, B>(
    checked: &[Checked],
    edits: &[(A, B, usize)],
    refused: &impl std::fmt::Display,
    notes: &mut Vec<String>,
) {
    for (_, _, i) in edits {
        let c = &checked[*i];
        notes.push(format!(
            "{}:{}: not blessed: {refused}",
            c.claim.origin.file, c.claim.origin.line
        ));
    }
}

/// Blesses what can be blessed; returns one note per block written or
/// refused. Blessed claims become passed.
pub fn bless(src: &Path, checked: &mut [Checked]) -> anyhow::Result<Vec<String>> {
    let mut notes = Vec::new();
    let by_file = edits_by_file(checked, &mut notes);
    for (path, edits) in by_file {
        let real = match author::target(src, "the book's src", &path) {
            Ok(real) => real,
            Err(refused) => {
                refused_notes(checked, &edits, &refused, &mut notes);
                continue;
            }
        };
        let file = std::fs::read_to_string(&real)
            .with_context(|| format!("reading {}", real.display()))?;
        // mdBook drops a byte-order mark before the chapter's offsets count.
        let (bom, text) = match file.strip_prefix('\u{feff}') {
            Some(rest) => ("\u{feff}", rest),
            None => ("", file.as_str()),
        };
        let (reps, blessed) = replacements(text, edits, checked, &mut notes);
        if reps.is_empty() {
            continue;
        }
        let new_text = format!("{bom}{}", markdown::splice(text, &reps));
        author::write(&real, new_text.as_bytes())
            .with_context(|| format!("writing {}", real.display()))?;
        for i in blessed {
            let c = &mut checked[i];
            c.outcome.verdict = Verdict::Passed;
            if c.claim.origin.output_range.is_none() {
                // The book now claims what the program printed.
                c.claim.expectation.output = c.outcome.actual.clone();
            }
        }
    }
    Ok(notes)
}

/// The output blocks to write, by chapter file, each with the index of
/// its checked claim: an output block added to an example that printed
/// with none, a failing one's rewritten; the ones `--bless` cannot reach
/// (through `{{#include}}`) noted.
fn edits_by_file(
    checked: &[Checked],
    notes: &mut Vec<String>,
) -> BTreeMap<PathBuf, Vec<(BlessTarget, String, usize)>> {
    let mut by_file: BTreeMap<PathBuf, Vec<(BlessTarget, String, usize)>> = BTreeMap::new();
    for (i, c) in checked.iter().enumerate() {
        // A quiz file's answer is written by `bless_toml`.
        if c.claim.origin.bless.as_ref().is_some_and(|t| t.quiz_file) {
            continue;
        }
        // An example that prints with no output block: one is added.
        if let (Some(actual), Some(t)) = (super::report::unclaimed_output(c), &c.claim.origin.bless)
        {
            by_file
                .entry(t.path.clone())
                .or_default()
                .push((t.clone(), actual.to_owned(), i));
            continue;
        }
        let Verdict::Failed {
            expected: Some(_),
            actual: Some(_),
            ..
        } = &c.outcome.verdict
        else {
            continue;
        };
        let Some(actual) = &c.outcome.actual else {
            continue;
        };
        let at = format!("{}:{}", c.claim.origin.file, c.claim.origin.line);
        match &c.claim.origin.bless {
            None => notes.push(format!(
                "{at}: not blessed: the output block comes through {{{{#include}}}}, not from the chapter file; update the included file"
            )),
            Some(t) => by_file
                .entry(t.path.clone())
                .or_default()
                .push((t.clone(), actual.clone(), i)),
        }
    }
    by_file
}

/// The replacements that bless one chapter's `text` (sorted `edits`),
/// and the claims they bless; an edit that cannot be made (the file
/// changed, blocks overlap, no fence to rewrite) noted instead.
fn replacements(
    text: &str,
    mut edits: Vec<(BlessTarget, String, usize)>,
    checked: &[Checked],
    notes: &mut Vec<String>,
) -> (Vec<(Range<usize>, String)>, Vec<usize>) {
    edits.sort_by_key(|(t, _, _)| t.range.start);
    // The top-level fences, to find a comparison around an output block.
    let top = markdown::fences(text);
    let mut reps: Vec<(Range<usize>, String)> = Vec::new();
    let mut blessed = Vec::new();
    for (target, actual, i) in edits {
        let c = &checked[i];
        let at = format!("{}:{}", c.claim.origin.file, c.claim.origin.line);
        let range = target.range;
        if text.get(range.clone()) != Some(target.block.as_str()) {
            notes.push(format!(
                "{at}: not blessed: the chapter file changed while checking"
            ));
            continue;
        }
        if reps.last().is_some_and(|(r, _)| r.end > range.start) {
            notes.push(format!(
                "{at}: not blessed: the output block overlaps another one being blessed"
            ));
            continue;
        }
        let outer = top
            .iter()
            .find(|f| f.range != range && f.range.start <= range.start && range.end <= f.range.end)
            .and_then(|f| text.get(f.range.clone()))
            .map(fence_of);
        let adds = c.claim.origin.output_range.is_none();
        let new = if adds {
            Ok(add(text, &range, &actual))
        } else {
            rewrite(text, &range, &actual, outer.as_deref())
        };
        match new {
            Ok(new) => {
                reps.push((range, new));
                blessed.push(i);
                notes.push(if adds {
                    format!("{at}: added an output block")
                } else {
                    format!("{at}: blessed the output block")
                });
            }
            Err(why) => notes.push(format!("{at}: not blessed: {why}")),
        }
    }
    (reps, blessed)
}

/// The fence characters opening a block (```` ``` ````, `~~~~`...).
fn fence_of(block: &str) -> String {
    let opening = block.trim_start_matches(|c: char| c.is_whitespace() || c == '>');
    let fence_char = opening.chars().next().unwrap_or('`');
    let fence_len = opening.len() - opening.trim_start_matches(fence_char).len();
    fence_char.to_string().repeat(fence_len)
}

/// The prefix that continues a block's container (block quotes, list
/// indentation) on the lines after the one it starts on, at `start`.
fn container_prefix(text: &str, start: usize) -> String {
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    text[line_start..start]
        .chars()
        .map(|c| if c == '>' || c == '\t' { c } else { ' ' })
        .collect()
}

/// The code block at `range` followed by a new output block holding
/// `actual`, in the same container, fenced longer than any fence in it.
fn add(text: &str, range: &Range<usize>, actual: &str) -> String {
    let block = &text[range.clone()];
    let prefix = container_prefix(text, range.start);
    let longest = actual
        .lines()
        .map(|l| l.trim_start().chars().take_while(|&c| c == '`').count())
        .max()
        .unwrap_or(0);
    let fence = "`".repeat(longest.max(2) + 1);
    let eol = if block.contains("\r\n") { "\r\n" } else { "\n" };
    let mut s = block.to_owned();
    let ended = block.ends_with('\n');
    if !ended {
        s.push_str(eol);
    }
    s.push_str(prefix.trim_end());
    s.push_str(eol);
    s.push_str(&prefix);
    s.push_str(&fence);
    s.push_str("output");
    s.push_str(eol);
    for line in actual.lines() {
        if line.is_empty() {
            s.push_str(prefix.trim_end());
        } else {
            s.push_str(&prefix);
            s.push_str(line);
        }
        s.push_str(eol);
    }
    s.push_str(&prefix);
    s.push_str(&fence);
    if ended {
        s.push_str(eol);
    }
    s
}

/// The output block at `range` with `actual` between its fences. `outer`
/// is the fence of a block around it (a comparison's), which the new
/// lines must not close either.
fn rewrite(
    text: &str,
    range: &Range<usize>,
    actual: &str,
    outer: Option<&str>,
) -> Result<String, String> {
    let block = &text[range.clone()];
    let prefix = container_prefix(text, range.start);
    let (Some(open_end), Some(close_start)) = (block.find('\n'), block.rfind('\n')) else {
        return Err("the output block has no closing fence".into());
    };
    let opening = block[..open_end].trim_end_matches('\r');
    let closing = &block[close_start + 1..];
    let fence = fence_of(opening);
    let closing_fence = closing.trim_start_matches(|c: char| c.is_whitespace() || c == '>');
    if !closing_fence.starts_with(&fence) {
        return Err("the output block has no closing fence".into());
    }
    if actual.lines().any(|l| l.trim_start().starts_with(&fence)) {
        return Err(format!(
            "the actual output contains `{fence}`, which would close the block; use a longer fence"
        ));
    }
    if let Some(outer) = outer
        && actual.lines().any(|l| l.trim_start().starts_with(outer))
    {
        return Err(format!(
            "the actual output contains `{outer}`, which would close the comparison around the block; use a longer fence for the comparison"
        ));
    }
    let eol = if block.contains("\r\n") { "\r\n" } else { "\n" };
    let mut s = String::with_capacity(block.len() + actual.len());
    s.push_str(opening);
    s.push_str(eol);
    for line in actual.lines() {
        if line.is_empty() {
            s.push_str(prefix.trim_end());
        } else {
            s.push_str(&prefix);
            s.push_str(line);
        }
        s.push_str(eol);
    }
    s.push_str(&prefix);
    s.push_str(closing.trim_start_matches(|c: char| c.is_whitespace() || c == '>'));
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    fn range_of(text: &str, needle: &str) -> Range<usize> {
        let f = markdown::fences(text)
            .into_iter()
            .find(|f| f.info == needle)
            .unwrap();
        f.range
    }

    #[test]
    fn rewrites_only_between_the_fences() {
        for (text, actual, want) in [
            (
                "```output\nold\n```",
                "new\nlines",
                "```output\nnew\nlines\n```",
            ),
            ("```output\n```", "x", "```output\nx\n```"),
            (
                "```output\r\nold\r\n```",
                "a\n\nb",
                "```output\r\na\r\n\r\nb\r\n```",
            ),
            ("````output\nx\n````", "```", "````output\n```\n````"),
        ] {
            let r = range_of(text, markdown::fences(text)[0].info.as_str());
            assert_eq!(rewrite(text, &r, actual, None).unwrap(), want, "{text:?}");
        }
    }

    #[test]
    fn keeps_block_quote_and_list_prefixes() {
        let text = "> ```output\n> old\n> ```\n";
        let r = range_of(text, "output");
        assert_eq!(
            rewrite(text, &r, "a\n\nb", None).unwrap(),
            "```output\n> a\n>\n> b\n> ```"
        );
        let text = "1. item\n\n   ```output\n   old\n   ```\n";
        let r = range_of(text, "output");
        assert_eq!(
            rewrite(text, &r, "new", None).unwrap(),
            "```output\n   new\n   ```"
        );
    }

    #[test]
    fn refuses_output_that_would_close_the_comparison() {
        let text = "~~~~compare\n```c\nint x;\n```\n```output\nold\n```\n~~~~\n";
        let top = markdown::fences(text);
        let outer = fence_of(&text[top[0].range.clone()]);
        assert_eq!(outer, "~~~~");
        let start = text.find("```output").unwrap();
        let r = start..start + "```output\nold\n```".len();
        let err = rewrite(text, &r, "a\n  ~~~~ b", Some(&outer)).unwrap_err();
        assert!(err.contains("close the comparison"), "{err}");
        assert_eq!(
            rewrite(text, &r, "a\n~~~ b", Some(&outer)).unwrap(),
            "```output\na\n~~~ b\n```"
        );
    }

    #[test]
    fn adds_an_output_block_in_the_same_container() {
        let text = "> ```rust example\n> fn main() {}\n> ```\n";
        let r = range_of(text, "rust example");
        assert_eq!(
            add(text, &r, "hi\n\n```"),
            format!(
                "{}\n>\n> ````output\n> hi\n>\n> ```\n> ````",
                &text[r.clone()]
            )
        );
    }

    #[test]
    fn refuses_output_that_would_close_the_fence() {
        let text = "```output\nx\n```";
        let r = range_of(text, "output");
        assert!(
            rewrite(text, &r, "```", None)
                .unwrap_err()
                .contains("longer fence")
        );
    }
}
