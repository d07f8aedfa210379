//! `check --bless`: write the actual outputs into the chapters' output
//! blocks.
//!
//! Only claims whose sole fault is their output text are blessed, and only
//! when the ```` ```output ```` block is literally in a chapter file (an
//! output that came through `{{#include}}` is reported, not rewritten).
//! Only the lines between the block's fences change; every other byte of
//! the file stays as it was. Files are written only inside the book's
//! `src`, after resolving symlinks.

use super::{Checked, Verdict};
use crate::markdown;
use anyhow::Context as _;
use std::collections::BTreeMap;
use std::ops::Range;
use std::path::{Path, PathBuf};

/// Blesses what can be blessed; returns one note per block written or
/// refused. Blessed claims become passed.
pub fn bless(src: &Path, checked: &mut [Checked]) -> anyhow::Result<Vec<String>> {
    let mut notes = Vec::new();
    let mut by_file: BTreeMap<PathBuf, Vec<(Range<usize>, String, usize)>> = BTreeMap::new();
    for (i, c) in checked.iter().enumerate() {
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
        let at = format!("{}:{}", c.claim.file, c.claim.line);
        match &c.claim.bless {
            None if c.claim.what.starts_with("rust example") => notes.push(format!(
                "{at}: not blessed: the output block comes through {{{{#include}}}}, not from the chapter file; update the included file"
            )),
            None => notes.push(format!(
                "{at}: not blessed: --bless does not rewrite the output blocks of comparison sides yet"
            )),
            Some(t) => by_file
                .entry(t.path.clone())
                .or_default()
                .push((t.range.clone(), actual.clone(), i)),
        }
    }
    let src = src
        .canonicalize()
        .with_context(|| format!("resolving the book's src {}", src.display()))?;
    for (path, mut edits) in by_file {
        let real = path
            .canonicalize()
            .with_context(|| format!("resolving {}", path.display()))?;
        if !real.starts_with(&src) {
            for (_, _, i) in &edits {
                let c = &checked[*i];
                notes.push(format!(
                    "{}:{}: not blessed: {} resolves to {}, outside the book's src",
                    c.claim.file,
                    c.claim.line,
                    path.display(),
                    real.display()
                ));
            }
            continue;
        }
        let file = std::fs::read_to_string(&real)
            .with_context(|| format!("reading {}", real.display()))?;
        // mdBook drops a byte-order mark before the chapter's offsets count.
        let (bom, text) = match file.strip_prefix('\u{feff}') {
            Some(rest) => ("\u{feff}", rest),
            None => ("", file.as_str()),
        };
        let fences = markdown::fences(text);
        edits.sort_by_key(|(r, _, _)| r.start);
        let mut reps = Vec::new();
        let mut blessed = Vec::new();
        for (range, actual, i) in edits {
            let c = &checked[i];
            let at = format!("{}:{}", c.claim.file, c.claim.line);
            let still_there = fences
                .iter()
                .any(|f| f.range == range && markdown::first_word(&f.info) == "output");
            if !still_there {
                notes.push(format!(
                    "{at}: not blessed: the chapter file changed while checking"
                ));
                continue;
            }
            match rewrite(text, &range, &actual) {
                Ok(new) => {
                    reps.push((range, new));
                    blessed.push(i);
                    notes.push(format!("{at}: blessed the output block"));
                }
                Err(why) => notes.push(format!("{at}: not blessed: {why}")),
            }
        }
        if reps.is_empty() {
            continue;
        }
        let new_text = format!("{bom}{}", markdown::splice(text, &reps));
        std::fs::write(&real, new_text).with_context(|| format!("writing {}", real.display()))?;
        for i in blessed {
            checked[i].outcome.verdict = Verdict::Passed;
        }
    }
    Ok(notes)
}

/// The output block at `range` with `actual` between its fences.
fn rewrite(text: &str, range: &Range<usize>, actual: &str) -> Result<String, String> {
    let block = &text[range.clone()];
    let line_start = text[..range.start].rfind('\n').map_or(0, |i| i + 1);
    let prefix: String = text[line_start..range.start]
        .chars()
        .map(|c| if c == '>' || c == '\t' { c } else { ' ' })
        .collect();
    let (Some(open_end), Some(close_start)) = (block.find('\n'), block.rfind('\n')) else {
        return Err("the output block has no closing fence".into());
    };
    let opening = block[..open_end].trim_end_matches('\r');
    let closing = &block[close_start + 1..];
    let fence_char = opening.chars().next().unwrap_or('`');
    let fence_len = opening.len() - opening.trim_start_matches(fence_char).len();
    let fence = fence_char.to_string().repeat(fence_len);
    let closing_fence = closing.trim_start_matches(|c: char| c.is_whitespace() || c == '>');
    if !closing_fence.starts_with(&fence) {
        return Err("the output block has no closing fence".into());
    }
    if actual.lines().any(|l| l.trim_start().starts_with(&fence)) {
        return Err(format!(
            "the actual output contains `{fence}`, which would close the block; use a longer fence"
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
            assert_eq!(rewrite(text, &r, actual).unwrap(), want, "{text:?}");
        }
    }

    #[test]
    fn keeps_block_quote_and_list_prefixes() {
        let text = "> ```output\n> old\n> ```\n";
        let r = range_of(text, "output");
        assert_eq!(
            rewrite(text, &r, "a\n\nb").unwrap(),
            "```output\n> a\n>\n> b\n> ```"
        );
        let text = "1. item\n\n   ```output\n   old\n   ```\n";
        let r = range_of(text, "output");
        assert_eq!(
            rewrite(text, &r, "new").unwrap(),
            "```output\n   new\n   ```"
        );
    }

    #[test]
    fn refuses_output_that_would_close_the_fence() {
        let text = "```output\nx\n```";
        let r = range_of(text, "output");
        assert!(
            rewrite(text, &r, "```")
                .unwrap_err()
                .contains("longer fence")
        );
    }
}
