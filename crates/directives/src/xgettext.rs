//! The `xgettext` target: what `mdbook-xgettext` extracts a translation
//! template from. mdbook-i18n-helpers sees a directive as one code block
//! and would extract only its string literals and comments; for this
//! renderer a directive is written instead as plain Markdown in which each
//! translatable string of ours is a message of its own (a plain string as
//! one escaped heading line, a note's Markdown as written, so each of its
//! paragraphs is one), and each piece of code a plain fence of its
//! language (extracted as any code block is). Expected outputs are left
//! out: they are what the program prints, never translated.
//!
//! `mdbook-xgettext` names a message's source by the line of the text it
//! is handed, so each piece is put on the chapter line it was written on
//! (or the first free line after it), and the replacement is padded to the
//! block's own lines, so the text after it keeps its line numbers too. A
//! title or caption shares its line with a fence; the code after it is then
//! written in a block quote, which needs no closing fence, so only that
//! code's own lines are referenced one line down. The strings of a data
//! file (a reading list, talks) go to a page of their own standing for the
//! file ([`DataMessage`], [`data_page`]), each on its line there.

use super::contract::{DataMessage, Env};
use mdbook_companion_core::i18n::heading;
use mdbook_companion_core::markdown::Out;
use std::ops::Range;

/// One piece of a directive for the translation template.
#[derive(Debug, Clone)]
pub enum Piece<'a> {
    /// An author's plain string (title, caption): one message.
    Text {
        /// Where it was written in the chapter.
        at: usize,
        /// The string.
        text: &'a str,
    },
    /// An author's Markdown (a note, an abstract): its own messages.
    Markdown {
        /// Where it starts in the chapter.
        at: usize,
        /// The Markdown.
        text: &'a str,
    },
    /// Code, as a plain fence.
    Code {
        /// Where its fence starts in the chapter.
        at: usize,
        /// The fence's info string (the language).
        info: &'a str,
        /// The code.
        code: &'a str,
    },
}

impl Piece<'_> {
    fn at(&self) -> usize {
        match self {
            Piece::Text { at, .. } | Piece::Markdown { at, .. } | Piece::Code { at, .. } => *at,
        }
    }
}

/// Writes a directive spanning `range` of the chapter as `pieces`, each on
/// its line, padded to the block's lines.
pub fn write(env: &Env<'_>, range: &Range<usize>, pieces: &[Piece<'_>]) -> Out {
    // Through the place, which may know the chapter's line starts: a
    // chapter of many directives counts no lines from its start for each.
    let line = |at: usize| env.place.text_line(env.text, at.min(env.text.len()));
    let first = line(range.start);
    let last = line(range.end.saturating_sub(1).max(range.start));
    let lines: Vec<(usize, &Piece<'_>)> = pieces.iter().map(|p| (line(p.at()), p)).collect();
    place(first, Some(last), &lines)
}

/// The page standing for a data file: each message on its line.
pub fn data_page(messages: &[&DataMessage]) -> String {
    let pieces: Vec<(usize, Piece<'_>)> = messages
        .iter()
        .map(|m| {
            let piece = if m.prose {
                Piece::Markdown {
                    at: 0,
                    text: &m.text,
                }
            } else {
                Piece::Text {
                    at: 0,
                    text: &m.text,
                }
            };
            (m.line, piece)
        })
        .collect();
    let lines: Vec<(usize, &Piece<'_>)> = pieces.iter().map(|(l, p)| (*l, p)).collect();
    let mut text = place(1, None, &lines).lines().join("\n");
    text.push('\n');
    text
}

/// Writes `pieces` from line `first` on, each on its line (or the first
/// free one after it), padded to line `last`.
fn place(first: usize, last: Option<usize>, pieces: &[(usize, &Piece<'_>)]) -> Out {
    let mut out = Out::new();
    let mut cur = first;
    // Whether the line before `cur` is part of a paragraph, which a new
    // paragraph must not continue.
    let mut in_paragraph = false;
    for &(want, piece) in pieces {
        let is_prose = matches!(piece, Piece::Markdown { .. });
        if is_prose && in_paragraph {
            out.blank();
            cur += 1;
        }
        while cur < want {
            out.blank();
            cur += 1;
        }
        let before = out.lines().len();
        match piece {
            // A heading: one line, which needs no blank line around it.
            Piece::Text { text, .. } => {
                out.line(heading(text));
            }
            Piece::Markdown { text, .. } => {
                for l in text.trim_end().split('\n') {
                    out.line(l.trim_end_matches('\r'));
                }
            }
            // On its own line, the fence keeps the code on the lines it
            // was written on; after a title or caption that took its line,
            // the code is quoted, which needs no closing line, so what
            // follows the code is back on its own line.
            Piece::Code { info, code, .. } => {
                if cur > want {
                    out.quoted_fence(info, code);
                } else {
                    out.fence(info, code);
                }
            }
        }
        cur += out.lines().len() - before;
        in_paragraph = is_prose;
    }
    while last.is_some_and(|last| cur <= last) {
        out.blank();
        cur += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Shared, Target};

    #[test]
    fn pieces_stand_on_their_lines_and_the_block_keeps_its_length() {
        let text = "Intro\n\n```x title=\"T\"\n\n\nbody\n\nnote\n```\nAfter\n";
        let (cfg, shared) = (crate::testing::config(), Shared::disabled());
        let env = crate::testing::env(&cfg, &shared, Target::Xgettext, text, "src/a.md");
        let start = text.find("```").unwrap();
        let end = text.find("```\nAfter").unwrap() + 3;
        let out = write(
            &env,
            &(start..end),
            &[
                Piece::Text {
                    at: start,
                    text: "T *x*",
                },
                // On the title's line: quoted, so it needs no closing line.
                Piece::Code {
                    at: start,
                    info: "c",
                    code: "int x;\n",
                },
                Piece::Code {
                    at: text.find("body").unwrap(),
                    info: "rust",
                    code: "fn f() {}\n",
                },
                Piece::Markdown {
                    at: text.find("note").unwrap(),
                    text: "note\n",
                },
            ],
        );
        assert_eq!(
            out.lines(),
            [
                "# T \\*x\\*",
                "> ```c",
                "> int x;",
                "```rust",
                "fn f() {}",
                "```",
                "note",
            ]
        );
    }

    #[test]
    fn a_data_page_puts_each_string_on_its_line() {
        let m = |line, prose, text: &str| DataMessage {
            file: "talks.toml".into(),
            line,
            prose,
            text: text.into(),
        };
        let (a, b, c) = (
            m(3, false, "Title"),
            m(4, true, "Para *one*."),
            m(5, true, "Two."),
        );
        assert_eq!(
            data_page(&[&a, &b, &c]),
            "\n\n# Title\nPara *one*.\n\nTwo.\n"
        );
    }
}
