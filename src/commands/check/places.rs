//! Compiler and program messages told in the author's lines.
//!
//! rustc and a panicking program name places in `main.rs`, the program
//! made of a block (wrapped in `fn main`, hidden lines shown). A failure's
//! message and detail are rewritten so that `main.rs:4:12` reads
//! `src/c.md:6:12`, the line and column in the chapter file, and the
//! line numbers of rustc's snippets are the file's too, with the same
//! rewriting a merged build uses to give each example its own lines
//! ([`mdbook_companion_core::code::relocate`], [`mdbook_companion_core::code::renumber_gutter`]).
//!
//! A program's line is placed only when the block stands literally in
//! the chapter file and every line of its code is found in the program
//! in order (lines the wrapping added are the only others): a block that
//! came through `{{#include}}` keeps `main.rs`.

use super::report::Checked;
use crate::book::load::Chapter;
use mdbook_companion_core::code::{relocate, renumber_gutter};
use mdbook_companion_core::diff;
use mdbook_companion_core::lang::Lang;
use mdbook_companion_engine::check::Verdict;

/// Lines the wrapping of a block adds to its program at most
/// (`fn main() {` and its `}`).
const WRAPPING: usize = 2;

/// For each line of `program` (0-based), its line in `raw` (1-based) and
/// how many characters stand before its text there; `None` when the
/// block whose fence is on line `fence_line` of `raw` is not the program's
/// code line for line.
pub fn program_lines(
    raw: &str,
    fence_line: usize,
    program: &str,
) -> Option<Vec<Option<(usize, usize)>>> {
    let lines: Vec<&str> = raw.lines().collect();
    let fence = *lines.get(fence_line.checked_sub(1)?)?;
    let indent = fence.len() - fence.trim_start_matches([' ', '\t', '>']).len();
    let opening = &fence[indent..];
    let fence_char = opening.chars().next().filter(|c| *c == '`' || *c == '~')?;
    let fence_len = opening.len() - opening.trim_start_matches(fence_char).len();
    let closing = fence_char.to_string().repeat(fence_len);
    // The block's code lines as the program has them, with the columns
    // that stand before them in the file.
    let mut block: Vec<(String, usize, usize)> = Vec::new();
    for (i, line) in lines.iter().enumerate().skip(fence_line) {
        let cut = line
            .char_indices()
            .take(indent)
            .take_while(|(_, c)| [' ', '\t', '>'].contains(c))
            .last()
            .map_or(0, |(at, c)| at + c.len_utf8());
        let rest = &line[cut..];
        if rest.trim_start().starts_with(&closing) {
            break;
        }
        let (text, hidden) = match rest {
            "#" => ("", 1),
            r if r.starts_with("# ") => (&r[2..], 2),
            r => (r, 0),
        };
        block.push((text.to_owned(), i + 1, line[..cut].chars().count() + hidden));
    }
    let code: Vec<&str> = block.iter().map(|(t, _, _)| t.as_str()).collect();
    let prog: Vec<&str> = program.lines().collect();
    let mut out = vec![None; prog.len()];
    let mut matched = 0;
    for op in diff::items(&code, &prog) {
        if !op.equal {
            continue;
        }
        for (o, n) in op.old.zip(op.new) {
            out[n] = Some((block[o].1, block[o].2));
            matched += 1;
        }
    }
    (matched == code.len() && prog.len() <= code.len() + WRAPPING).then_some(out)
}

/// Rewrites the failures of Rust blocks (not exercises, whose test crate
/// joins several fences) so that they name the chapter's lines.
pub fn in_chapters(checked: &mut [Checked], chapters: &[Chapter]) {
    for c in checked.iter_mut() {
        let claim = &c.claim;
        if claim.lang != Lang::Rust || claim.expect.tests() {
            continue;
        }
        let Verdict::Failed {
            message, detail, ..
        } = &mut c.outcome.verdict
        else {
            continue;
        };
        let mentions = |t: &str| t.contains("main.rs:");
        if !mentions(message) && !detail.as_deref().is_some_and(mentions) {
            continue;
        }
        let Some(chapter) = chapters.iter().find(|ch| ch.file == claim.file) else {
            continue;
        };
        let Some(map) = program_lines(&chapter.raw, claim.line, &claim.source) else {
            continue;
        };
        let file = &claim.file;
        let place = |l: usize, col: usize| {
            let (line, before) = (*map.get(l.checked_sub(1)?)?)?;
            Some(format!("{file}:{line}:{}", col + before))
        };
        *message = relocate(message, "main.rs:", place);
        if let Some(d) = detail {
            let moved = relocate(d, "main.rs:", place);
            *d = gutters(&moved, &format!("{file}:"), |l| {
                Some(map.get(l.checked_sub(1)?)?.as_ref()?.0)
            });
        }
    }
}

/// `text` with the snippets under a ` --> FILE` header (those of the
/// chapter, once relocated) renumbered by `to`; snippets of other files
/// (the standard library's) keep their numbers.
fn gutters(text: &str, file: &str, to: impl Fn(usize) -> Option<usize> + Copy) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chunk = String::new();
    let mut ours = false;
    for line in text.split_inclusive('\n') {
        let t = line.trim_start();
        if t.starts_with("-->") || t.starts_with(":::") {
            out.push_str(&if ours {
                renumber_gutter(&chunk, to)
            } else {
                chunk
            });
            chunk = String::new();
            ours = t.contains(file);
        }
        chunk.push_str(line);
    }
    out.push_str(&if ours {
        renumber_gutter(&chunk, to)
    } else {
        chunk
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn a_wrapped_block_maps_to_its_file_lines() {
        let raw =
            "# C\n\n1. item\n\n   ```rust\n   # use std::fmt;\n   let x: i32 = \"a\";\n   ```\n";
        let program = "fn main() {\nuse std::fmt;\nlet x: i32 = \"a\";\n}\n";
        assert_eq!(
            program_lines(raw, 5, program),
            Some(vec![None, Some((6, 5)), Some((7, 3)), None])
        );
    }

    #[test]
    fn an_included_block_is_not_mapped() {
        let raw = "```rust\n{{#include x.rs}}\n```\n";
        assert_eq!(program_lines(raw, 1, "fn main() {}\n"), None);
    }
}
