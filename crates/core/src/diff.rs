//! Line diffs: the runs of equal and changed lines between two texts
//! (imara-diff's Myers algorithm, with git's and GNU diff's heuristics for
//! large inputs), and a unified diff as `diff -u` prints it.
//!
//! One place for every diff we compute: the map from a chapter's file to
//! its expanded text, a block's lines in the program rustdoc compiles,
//! an output block against what was printed, `adopt`'s and `drift`'s
//! changes.

use imara_diff::{Algorithm, Diff, InternedInput};
use std::fmt::Write as _;
use std::ops::Range;

/// A run of lines: the same in both texts, or `old`'s replaced by `new`'s
/// (either may be empty: an insertion, a deletion).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Op {
    /// The lines are the same.
    pub equal: bool,
    /// The lines of the old text (0-based).
    pub old: Range<usize>,
    /// The lines of the new text (0-based).
    pub new: Range<usize>,
}

/// The runs turning `old` into `new`, lines compared with their line
/// ends (so a last line without one differs from the same line with one).
pub fn lines(old: &str, new: &str) -> Vec<Op> {
    let input = InternedInput::new(old, new);
    let mut diff = Diff::compute(Algorithm::Myers, &input);
    // Equal lines (blank ones above all) could line up either side of a
    // change: slid as git slides them, an `{{#include}}` line is replaced
    // by the text it brings, rather than text inserted before it.
    diff.postprocess_lines(&input);
    ops(&diff, input.before.len(), input.after.len())
}

/// The runs turning the items `old` into `new` (lines already split).
pub fn items(old: &[&str], new: &[&str]) -> Vec<Op> {
    let mut input = InternedInput::default();
    input.update_before(old.iter().copied());
    input.update_after(new.iter().copied());
    let mut diff = Diff::compute(Algorithm::Myers, &input);
    diff.postprocess_lines(&input);
    ops(&diff, old.len(), new.len())
}

/// The changed runs of `diff` with the equal runs between them, in order.
fn ops(diff: &Diff, old_len: usize, new_len: usize) -> Vec<Op> {
    let mut out = Vec::new();
    let (mut o, mut n) = (0, 0);
    for hunk in diff.hunks() {
        let old = hunk.before.start as usize..hunk.before.end as usize;
        let new = hunk.after.start as usize..hunk.after.end as usize;
        if old.start > o {
            out.push(Op {
                equal: true,
                old: o..old.start,
                new: n..new.start,
            });
        }
        (o, n) = (old.end, new.end);
        out.push(Op {
            equal: false,
            old,
            new,
        });
    }
    if o < old_len || n < new_len {
        out.push(Op {
            equal: true,
            old: o..old_len,
            new: n..new_len,
        });
    }
    out
}

/// The unified diff from `old` to `new` under the headers `--- from` and
/// `+++ to`, with three lines of context, as `diff -u` and git print it
/// (a last line without a line end is marked `\ No newline at end of
/// file`); empty when the texts are the same.
pub fn unified(old: &str, new: &str, from: &str, to: &str) -> String {
    const CONTEXT: usize = 3;
    let input = InternedInput::new(old, new);
    let mut diff = Diff::compute(Algorithm::Myers, &input);
    diff.postprocess_lines(&input);
    let ops = ops(&diff, input.before.len(), input.after.len());
    let old_lines: Vec<&str> = old.split_inclusive('\n').collect();
    let new_lines: Vec<&str> = new.split_inclusive('\n').collect();
    // Hunks: changed runs, joined when the equal run between them is no
    // longer than both contexts together.
    let changed: Vec<&Op> = ops.iter().filter(|op| !op.equal).collect();
    let mut hunks: Vec<Vec<&Op>> = Vec::new();
    for op in changed {
        match hunks.last_mut() {
            Some(h)
                if h.last()
                    .is_some_and(|l| op.old.start - l.old.end <= 2 * CONTEXT) =>
            {
                h.push(op)
            }
            _ => hunks.push(vec![op]),
        }
    }
    let mut out = String::new();
    if hunks.is_empty() {
        return out;
    }
    let _ = writeln!(out, "--- {from}\n+++ {to}");
    let line = |out: &mut String, sign: char, text: &str| {
        out.push(sign);
        out.push_str(text);
        if !text.ends_with('\n') {
            out.push_str("\n\\ No newline at end of file\n");
        }
    };
    for hunk in hunks {
        let (Some(first), Some(last)) = (hunk.first(), hunk.last()) else {
            continue;
        };
        let before = CONTEXT.min(first.old.start);
        let after = CONTEXT.min(old_lines.len() - last.old.end);
        let old_range = first.old.start - before..last.old.end + after;
        let new_range = first.new.start - before..last.new.end + after;
        let _ = writeln!(
            out,
            "@@ -{} +{} @@",
            hunk_range(&old_range),
            hunk_range(&new_range)
        );
        let mut at = old_range.start;
        for op in &hunk {
            for text in &old_lines[at..op.old.start] {
                line(&mut out, ' ', text);
            }
            for text in &old_lines[op.old.clone()] {
                line(&mut out, '-', text);
            }
            for text in &new_lines[op.new.clone()] {
                line(&mut out, '+', text);
            }
            at = op.old.end;
        }
        for text in &old_lines[at..old_range.end] {
            line(&mut out, ' ', text);
        }
    }
    out
}

/// A hunk's range as its header writes it: `start,len` (1-based), `start`
/// alone for one line, the line before for none.
fn hunk_range(r: &Range<usize>) -> String {
    match r.len() {
        1 => format!("{}", r.start + 1),
        0 => format!("{},0", r.start),
        n => format!("{},{n}", r.start + 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_cover_both_texts_in_order() {
        let ops = lines("a\nb\nc\nd\n", "a\nx\nc\nd\ne\n");
        assert_eq!(
            ops,
            vec![
                Op {
                    equal: true,
                    old: 0..1,
                    new: 0..1
                },
                Op {
                    equal: false,
                    old: 1..2,
                    new: 1..2
                },
                Op {
                    equal: true,
                    old: 2..4,
                    new: 2..4
                },
                Op {
                    equal: false,
                    old: 4..4,
                    new: 4..5
                },
            ]
        );
        assert_eq!(
            items(&["x", "y"], &["x", "y"]),
            vec![Op {
                equal: true,
                old: 0..2,
                new: 0..2
            }]
        );
        assert!(lines("", "").is_empty());
    }

    #[test]
    fn an_included_text_replaces_the_line_that_includes_it() {
        // The same text included twice; blank lines around both.
        let part = "```rust\nlet v = 1;\n```\n\n```output\n1\n```\n";
        let raw = "Before.\n\n````md\n{{#include p.md}}\n````\n\nOn the page:\n\n{{#include p.md}}\n\nMore.\n";
        let expanded = raw.replace("{{#include p.md}}\n", part);
        let changed: Vec<Op> = lines(raw, &expanded)
            .into_iter()
            .filter(|op| !op.equal)
            .collect();
        assert_eq!(
            changed,
            vec![
                Op {
                    equal: false,
                    old: 3..4,
                    new: 3..10
                },
                Op {
                    equal: false,
                    old: 8..9,
                    new: 14..21
                },
            ]
        );
    }

    #[test]
    fn unified_diffs_read_as_diff_u_prints_them() {
        assert_eq!(
            unified("hello\n", "hullo\n", "expected", "actual"),
            "--- expected\n+++ actual\n@@ -1 +1 @@\n-hello\n+hullo\n"
        );
        assert_eq!(unified("same\n", "same\n", "a", "b"), "");
        let old: String = (1..=20).map(|i| format!("{i}\n")).collect();
        let new = old
            .replacen("2\n", "two\n", 1)
            .replace("\n18\n", "\n18\n18b\n");
        assert_eq!(
            unified(&old, &new, "a/f", "b/f"),
            "--- a/f\n+++ b/f\n@@ -1,5 +1,5 @@\n 1\n-2\n+two\n 3\n 4\n 5\n\
             @@ -16,5 +16,6 @@\n 16\n 17\n 18\n+18b\n 19\n 20\n"
        );
        // Changes six lines apart share a hunk.
        assert_eq!(
            unified(
                "a\n1\n2\n3\n4\n5\n6\nb\n",
                "A\n1\n2\n3\n4\n5\n6\nB\n",
                "x",
                "y"
            ),
            "--- x\n+++ y\n@@ -1,8 +1,8 @@\n-a\n+A\n 1\n 2\n 3\n 4\n 5\n 6\n-b\n+B\n"
        );
        assert_eq!(
            unified("", "new\n", "x", "y"),
            "--- x\n+++ y\n@@ -0,0 +1 @@\n+new\n"
        );
        assert_eq!(
            unified("a\nend", "a\nend\n", "x", "y"),
            "--- x\n+++ y\n@@ -1,2 +1,2 @@\n a\n-end\n\\ No newline at end of file\n+end\n"
        );
    }
}
