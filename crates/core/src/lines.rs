//! A block's program told in the author's lines.
//!
//! rustc and a panicking program name places in `main.rs`, the program
//! made of a block (wrapped in `fn main`, hidden lines shown). Told to the
//! author or the reader (a failure's message, the run a Run button
//! replays, the lock), `main.rs:4:12` reads `src/c.md:6:12`, the line and
//! column in the chapter file, and the line numbers of rustc's snippets
//! are the file's too, with the same rewriting a merged build uses to
//! give each example its own lines ([`relocate`], [`renumber_gutter`]).
//! A line the wrapping added (`fn main() {`, rustdoc's
//! `} _doctest_main() }`) is never quoted: a place on it is the block's
//! fence, and a snippet's line of it is left out (`...`).
//!
//! A program is placed only when every line of the block's code is found
//! in it, in order (lines the wrapping added are the only others): fenced
//! blocks and indented ones alike, in a list or a block quote too.

use crate::code::{relocate, renumber_gutter};
use crate::diff;

/// Lines the wrapping of a block adds to its program at most (`fn main()
/// {` and its `}`; rustdoc's wrapper and crate attributes count the same).
const WRAPPING: usize = 2;

/// Where the lines of a block's program stand in a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProgramLines {
    /// The file (`src/c.md`).
    pub file: String,
    /// For each line of the program (0-based): its line in the file
    /// (1-based) and how many characters stand before its text there;
    /// `None` for a line the wrapping added.
    pub lines: Vec<Option<(usize, usize)>>,
    /// The file's lines of the block's first line (its opening fence, or
    /// an indented block's first line) and its last.
    pub open: usize,
    /// See [`ProgramLines::open`].
    pub close: usize,
    /// The file's lines of the block's hidden lines (`# `), which the
    /// page does not show.
    pub hidden: Vec<usize>,
}

impl ProgramLines {
    /// The places of `program`'s lines, for the block whose fence (or,
    /// indented, first line) is line `first` (1-based) of `text`, told as
    /// lines of `text`; `None` when the block is not the program's code
    /// line for line.
    pub fn of_block(text: &str, first: usize, program: &str, file: &str) -> Option<ProgramLines> {
        let at = match first.checked_sub(2) {
            None => 0,
            Some(n) => memchr::memchr_iter(b'\n', text.as_bytes()).nth(n)? + 1,
        };
        ProgramLines::of_blocks(text, &[(at, first)], program, file, WRAPPING)
    }

    /// The same for a program made of several blocks' code, in order (an
    /// exercise's code and its tests), each given by the byte where its
    /// first line starts in `text` and that line's number, with at most
    /// `added` lines of its own between and around them. Only the lines
    /// a block can span are read (its program's, and its fences): a
    /// block's cost is its own size, however long the chapter.
    pub fn of_blocks(
        text: &str,
        starts: &[(usize, usize)],
        program: &str,
        file: &str,
        added: usize,
    ) -> Option<ProgramLines> {
        let most = program.lines().count() + 2;
        let mut code = Vec::new();
        let mut close = 0;
        for &(at, first) in starts {
            let lines: Vec<&str> = text.get(at..)?.lines().take(most).collect();
            let start = *lines.first()?;
            let (block, end) = match fenced(&lines, 1, start) {
                Some(found) => found,
                None => indented(&lines, 1)?,
            };
            // Lines of the window told as the text's.
            let shift = first - 1;
            code.extend(block.into_iter().map(|(t, l, b, h)| (t, l + shift, b, h)));
            close = end + shift;
        }
        of_code(&code, starts.first()?.1, close, program, file, added)
    }

    /// The places of `program`'s lines for code that stands whole (from
    /// column 1) on the lines of a file from line `first` on: a string of
    /// a data file (an mdbook-quiz file's program).
    pub fn of_lines(code: &str, first: usize, program: &str, file: &str) -> Option<ProgramLines> {
        let block: Vec<Line> = code
            .lines()
            .enumerate()
            .map(|(i, l)| (l.to_owned(), first + i, 0, false))
            .collect();
        let close = first + block.len();
        let open = first.saturating_sub(1).max(1);
        of_code(&block, open, close, program, file, WRAPPING)
    }

    /// The same places `by` lines further down (a block of an expanded
    /// text whose lines stand lower in the file).
    pub fn shifted(mut self, by: isize) -> ProgramLines {
        let move_line = |l: usize| l.saturating_add_signed(by);
        for (l, _) in self.lines.iter_mut().flatten() {
            *l = move_line(*l);
        }
        self.open = move_line(self.open);
        self.close = move_line(self.close);
        for l in &mut self.hidden {
            *l = move_line(*l);
        }
        self
    }

    /// The file's line and column of the program's line `line` and
    /// column `column` (1-based): a line the wrapping added before the
    /// code is the opening fence's, one after it the closing fence's.
    fn place(&self, line: usize, column: usize) -> Option<(usize, usize)> {
        let at = line.checked_sub(1)?;
        match self.lines.get(at)? {
            Some((l, before)) => Some((*l, column + before)),
            None => {
                let before_code = self.lines[..at].iter().all(Option::is_none);
                Some((if before_code { self.open } else { self.close }, 1))
            }
        }
    }

    /// `text` (rustc's diagnostics, a panic message) with every
    /// `main.rs:L:C` told as `FILE:L:C`, the line numbers of its snippets
    /// renumbered, and the lines the wrapping added left out of them.
    pub fn tell(&self, text: &str) -> String {
        if !text.contains("main.rs:") {
            return text.to_owned();
        }
        let file = &self.file;
        // A span (`{closure@main.rs:6:32: 6:39}`): its end too.
        static SPAN: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
        let span = SPAN.get_or_init(|| {
            // `main.rs` whole, not the end of a path (`src/main.rs`).
            regex::Regex::new(r"(^|[^\w/.])main\.rs:(\d+):(\d+): (\d+):(\d+)")
                .expect("a valid pattern")
        });
        let text = span.replace_all(text, |c: &regex::Captures<'_>| {
            let n = |i: usize| c[i].parse::<usize>().ok();
            let placed = (|| {
                let (l, col) = self.place(n(2)?, n(3)?)?;
                let (l2, col2) = self.place(n(4)?, n(5)?)?;
                Some(format!("{}{file}:{l}:{col}: {l2}:{col2}", &c[1]))
            })();
            placed.unwrap_or_else(|| c[0].to_owned())
        });
        let moved = relocate(&text, "main.rs:", |l, c| {
            let (line, column) = self.place(l, c)?;
            Some(format!("{file}:{line}:{column}"))
        });
        gutters(&moved, &format!("{file}:"), |l| {
            self.lines
                .get(l.checked_sub(1)?)
                .map(|p| p.map(|(line, _)| line))
        })
    }
}

/// The file a reader's program is told in: the Playground's, and
/// rustc's in a Cargo project (`--> src/main.rs:3:16`).
pub(crate) const READERS_FILE: &str = "src/main.rs";

/// What a place on a line the page does not show (a hidden line, the
/// wrapping) is told as.
const HIDDEN_PLACE: &str = "src/main.rs (a hidden line)";

impl ProgramLines {
    /// `told` (diagnostics or a panic message as [`ProgramLines::tell`]
    /// told them, in the author's file) told as the reader sees the
    /// program: `src/c.md:41:16` reads `src/main.rs:3:16` when line 41 is
    /// the third line the page shows of the block (hidden lines and the
    /// wrapping not counted), and the snippets' line numbers are the
    /// same. A place on a hidden line (or on the wrapping, told at the
    /// fence) reads `src/main.rs (a hidden line)`, and a snippet leaves
    /// such lines out (`...`) as it leaves the wrapping out.
    pub fn as_shown(&self, told: &str) -> String {
        let file = format!("{}:", self.file);
        if !told.contains(&file) {
            return told.to_owned();
        }
        // The file's line of each line the page shows, in order.
        let shown: Vec<(usize, usize)> = (self.lines.iter().flatten())
            .filter(|(l, _)| !self.hidden.contains(l))
            .copied()
            .collect();
        let rank = |line: usize| shown.iter().position(|(l, _)| *l == line).map(|i| i + 1);
        let place = |line: usize, column: usize| match rank(line) {
            Some(n) => {
                let before = shown[n - 1].1;
                format!(
                    "{READERS_FILE}:{n}:{}",
                    column.saturating_sub(before).max(1)
                )
            }
            None => HIDDEN_PLACE.to_owned(),
        };
        // A span (`{closure@src/c.md:6:32: 6:39}`): its end too.
        let span = regex::Regex::new(&format!(
            r"(^|[^\w/.]){}(\d+):(\d+): (\d+):(\d+)",
            regex::escape(&file)
        ));
        let text = match &span {
            Ok(span) => span.replace_all(told, |c: &regex::Captures<'_>| {
                let n = |i: usize| c[i].parse::<usize>().unwrap_or(0);
                match (rank(n(2)), rank(n(4))) {
                    (Some(_), Some(_)) => {
                        let end = place(n(4), n(5));
                        let end = end
                            .strip_prefix(&format!("{READERS_FILE}:"))
                            .unwrap_or(&end);
                        format!("{}{}: {end}", &c[1], place(n(2), n(3)))
                    }
                    _ => format!("{}{HIDDEN_PLACE}", &c[1]),
                }
            }),
            Err(_) => std::borrow::Cow::Borrowed(told),
        };
        let moved = relocate(&text, &file, |l, c| Some(place(l, c)));
        let open_or_close = |l: usize| l == self.open || l == self.close;
        let renumbered = gutters(&moved, READERS_FILE, |l| match rank(l) {
            Some(n) => Some(Some(n)),
            None if self.hidden.contains(&l) || open_or_close(l) => Some(None),
            None => None,
        });
        let mut out = String::with_capacity(renumbered.len());
        let mut chunk = String::new();
        for line in renumbered.split_inclusive('\n') {
            let t = line.trim_start();
            if t.starts_with("-->") || t.starts_with(":::") {
                out.push_str(&narrowed(&chunk));
                chunk.clear();
            }
            chunk.push_str(line);
        }
        out.push_str(&narrowed(&chunk));
        out
    }
}

/// A snippet whose gutter is wider than its numbers need (its lines
/// were numbered in a longer file) made as narrow as rustc makes it.
fn narrowed(snippet: &str) -> String {
    // A numbered line's gutter: blanks, then digits, then ` |`.
    let numbered = |line: &str| {
        let blanks = line.len() - line.trim_start_matches(' ').len();
        let digits = line[blanks..]
            .bytes()
            .take_while(u8::is_ascii_digit)
            .count();
        (digits > 0 && line[blanks + digits..].starts_with(" |")).then_some((blanks, digits))
    };
    let gutters: Vec<(usize, usize)> = snippet.lines().filter_map(numbered).collect();
    let width = gutters.iter().map(|(b, d)| b + d).max().unwrap_or(0);
    let needed = gutters.iter().map(|(_, d)| *d).max().unwrap_or(0);
    let cut = width - needed;
    if gutters.is_empty() || cut == 0 {
        return snippet.to_owned();
    }
    let mut out = String::with_capacity(snippet.len());
    for line in snippet.split_inclusive('\n') {
        let blanks = line.len() - line.trim_start_matches(' ').len();
        let t = &line[blanks..];
        let gutter = numbered(line).is_some()
            || t.starts_with('|')
            || t.starts_with("= ")
            || t.starts_with("-->")
            || t.starts_with(":::");
        match gutter && blanks >= cut {
            true => out.push_str(&line[cut..]),
            false => out.push_str(line),
        }
    }
    out
}

/// The places of `program`'s lines for a block's `code` lines (each with
/// its file line and the characters before its text), between the file's
/// lines `open` and `close`.
fn of_code(
    block: &[Line],
    open: usize,
    close: usize,
    program: &str,
    file: &str,
    added: usize,
) -> Option<ProgramLines> {
    let code: Vec<&str> = block.iter().map(|(t, _, _, _)| t.as_str()).collect();
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
    (matched == code.len() && prog.len() <= code.len() + added).then(|| ProgramLines {
        file: file.to_owned(),
        lines: out,
        open,
        close,
        hidden: (block.iter())
            .filter(|(_, _, _, hidden)| *hidden)
            .map(|(_, l, _, _)| *l)
            .collect(),
    })
}

/// A line of a block's code as the program has it (hidden lines shown),
/// with its file line, the characters before its text there, and whether
/// it is a hidden line.
type Line = (String, usize, usize, bool);

/// A fenced block at `lines[first - 1]`: its code lines, and the closing
/// fence's line.
type Code = (Vec<Line>, usize);

fn fenced(lines: &[&str], first: usize, fence: &str) -> Option<Code> {
    let indent = fence.len() - fence.trim_start_matches([' ', '\t', '>']).len();
    let opening = &fence[indent..];
    let fence_char = opening.chars().next().filter(|c| *c == '`' || *c == '~')?;
    let fence_len = opening.len() - opening.trim_start_matches(fence_char).len();
    let closing = fence_char.to_string().repeat(fence_len);
    let mut block = Vec::new();
    let mut close = None;
    for (i, line) in lines.iter().enumerate().skip(first) {
        let cut = line
            .char_indices()
            .take(indent)
            .take_while(|(_, c)| [' ', '\t', '>'].contains(c))
            .last()
            .map_or(0, |(at, c)| at + c.len_utf8());
        let rest = &line[cut..];
        if rest.trim_start().starts_with(&closing) {
            close = Some(i + 1);
            break;
        }
        block.push(code_line(rest, i + 1, line[..cut].chars().count()));
    }
    // A fence closed past the lines read is no block of this program.
    Some((block, close?))
}

/// An indented block starting at `lines[first - 1]`: its lines up to the
/// first that is indented less (blank lines inside kept, trailing ones
/// not), each cut at the block's indentation.
fn indented(lines: &[&str], first: usize) -> Option<Code> {
    let width = |l: &str| l.len() - l.trim_start_matches(' ').len();
    let start = *lines.get(first - 1)?;
    if width(start) < 4 || start.trim().is_empty() {
        return None;
    }
    let mut run: Vec<(usize, &str)> = Vec::new();
    for (i, line) in lines.iter().enumerate().skip(first - 1) {
        if !line.trim().is_empty() && width(line) < 4 {
            break;
        }
        run.push((i, line));
    }
    while run.last().is_some_and(|(_, l)| l.trim().is_empty()) {
        run.pop();
    }
    let indent = run
        .iter()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(_, l)| width(l))
        .min()?;
    let close = run.last().map_or(first, |(i, _)| i + 1);
    let block = run
        .iter()
        .map(|(i, l)| code_line(l.get(indent..).unwrap_or(""), i + 1, indent))
        .collect();
    Some((block, close))
}

/// A line of a block's code as the program has it: rustdoc's hidden
/// lines (`# `) shown, with the characters before its text.
fn code_line(rest: &str, line: usize, before: usize) -> Line {
    let (text, hidden) = match rest {
        "#" => ("", 1),
        r if r.starts_with("# ") => (&r[2..], 2),
        r => (r, 0),
    };
    (text.to_owned(), line, before + hidden, hidden > 0)
}

/// `text` with the snippets under a ` --> FILE` header (those of the
/// chapter, once relocated) renumbered by `to` (`Some(None)`: a line the
/// wrapping added, left out with the marks under it); snippets of other
/// files (the standard library's) keep their numbers.
fn gutters(text: &str, file: &str, to: impl Fn(usize) -> Option<Option<usize>> + Copy) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chunk = String::new();
    let mut ours = false;
    let flush = |out: &mut String, chunk: &str, ours: bool| match ours {
        true => out.push_str(&renumber_gutter(&without_wrapping(chunk, to), |l| {
            to(l).flatten()
        })),
        false => out.push_str(chunk),
    };
    for line in text.split_inclusive('\n') {
        let t = line.trim_start();
        if t.starts_with("-->") || t.starts_with(":::") {
            flush(&mut out, &chunk, ours);
            chunk = String::new();
            ours = t.contains(file);
        }
        chunk.push_str(line);
    }
    flush(&mut out, &chunk, ours);
    out
}

/// A snippet without its quoted lines that `to` says the wrapping added
/// (and the marks under them), each run of them told as `...`, as rustc
/// elides lines.
fn without_wrapping(snippet: &str, to: impl Fn(usize) -> Option<Option<usize>>) -> String {
    let numbered = |line: &str| {
        let t = line.trim_start();
        let digits = t.bytes().take_while(u8::is_ascii_digit).count();
        let n = t[..digits].parse::<usize>().ok()?;
        t[digits..].starts_with(" |").then_some(n)
    };
    let mut out = String::with_capacity(snippet.len());
    let mut skipping = false;
    for line in snippet.split_inclusive('\n') {
        let t = line.trim_start();
        if let Some(n) = numbered(line) {
            skipping = matches!(to(n), Some(None));
            if skipping {
                if !out.ends_with("...\n") {
                    out.push_str("...\n");
                }
                continue;
            }
        } else if skipping && (t.starts_with('|') && t.len() > 2) {
            // A mark under a left-out line (`|     ^`).
            continue;
        } else if !t.starts_with('|') {
            skipping = false;
        }
        if t == "...\n" && out.ends_with("...\n") {
            continue;
        }
        out.push_str(line);
    }
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
        let p = ProgramLines::of_block(raw, 5, program, "src/c.md").unwrap();
        assert_eq!(p.lines, vec![None, Some((6, 5)), Some((7, 3)), None]);
        assert_eq!((p.open, p.close), (5, 8));
    }

    #[test]
    fn a_data_files_string_maps_to_its_lines() {
        let program = "fn main() {\nlet x = 1;\nx = 2;\n}\n";
        let p = ProgramLines::of_lines("let x = 1;\nx = 2;\n", 24, program, "src/q.toml").unwrap();
        assert_eq!(p.lines, vec![None, Some((24, 0)), Some((25, 0)), None]);
        assert_eq!(
            p.tell("error[E0384]: cannot assign twice\n --> main.rs:3:1\n  |\n3 | x = 2;\n"),
            "error[E0384]: cannot assign twice\n  --> src/q.toml:25:1\n   |\n25 | x = 2;\n"
        );
    }

    #[test]
    fn a_span_is_placed_at_both_ends() {
        let raw = "# C\n\n```rust\nlet c = || 1;\n```\n";
        let program = "fn main() {\nlet c = || 1;\n}\n";
        let p = ProgramLines::of_block(raw, 3, program, "src/c.md").unwrap();
        assert_eq!(
            p.tell("within `{closure@main.rs:2:9: 2:11}` at src/main.rs:2:9: 2:11"),
            "within `{closure@src/c.md:4:9: 4:11}` at src/main.rs:2:9: 2:11"
        );
    }

    #[test]
    fn an_included_block_is_not_mapped() {
        let raw = "```rust\n{{#include x.rs}}\n```\n";
        assert_eq!(
            ProgramLines::of_block(raw, 1, "fn main() {}\n", "src/c.md"),
            None
        );
    }

    #[test]
    fn an_indented_block_maps_like_a_fenced_one() {
        let raw = "# C\n\nText:\n\n    let y: i32 = \"b\";\n\n    let z = 1;\n\nAfter.\n";
        let program = "fn main() {\nlet y: i32 = \"b\";\n\nlet z = 1;\n}\n";
        let p = ProgramLines::of_block(raw, 5, program, "src/c.md").unwrap();
        assert_eq!(
            p.lines,
            vec![None, Some((5, 4)), Some((6, 4)), Some((7, 4)), None]
        );
        assert_eq!(
            p.tell("error[E0308]: mismatched types\n --> main.rs:2:14\n  |\n2 | let y: i32 = \"b\";\n  |              ^^^\n"),
            "error[E0308]: mismatched types\n --> src/c.md:5:18\n  |\n5 | let y: i32 = \"b\";\n  |              ^^^\n"
        );
    }

    /// The reader's side counts the lines the page shows: hidden lines
    /// and the chapter's lines above the block are not counted.
    #[test]
    fn told_as_shown_counts_the_lines_the_page_shows() {
        let raw = "# C\n\nText.\n\n```rust\n# use std::fmt;\nfn main() {\n    let s = String::new();\n    let t = s;\n    println!(\"{s}\");\n}\n```\n";
        let program = "use std::fmt;\nfn main() {\n    let s = String::new();\n    let t = s;\n    println!(\"{s}\");\n}\n";
        let p = ProgramLines::of_block(raw, 5, program, "src/c.md").unwrap();
        assert_eq!(p.hidden, [6]);
        let rustc = "error[E0382]: borrow of moved value: `s`\n --> main.rs:5:15\n  |\n3 |     let s = String::new();\n  |         - move occurs because `s` has type `String`\n4 |     let t = s;\n  |             - value moved here\n5 |     println!(\"{s}\");\n  |               ^^^ value borrowed here after move\n";
        let told = p.tell(rustc);
        assert!(told.contains("--> src/c.md:10:15\n"), "{told}");
        assert_eq!(
            p.as_shown(&told),
            "error[E0382]: borrow of moved value: `s`\n --> src/main.rs:4:15\n  |\n2 |     let s = String::new();\n  |         - move occurs because `s` has type `String`\n3 |     let t = s;\n  |             - value moved here\n4 |     println!(\"{s}\");\n  |               ^^^ value borrowed here after move\n"
        );
        // A place on a hidden line says so, and its line is not quoted.
        let unused = p.tell("warning: unused import: `std::fmt`\n --> main.rs:1:5\n  |\n1 | use std::fmt;\n  |     ^^^^^^^^\n");
        assert_eq!(
            p.as_shown(&unused),
            "warning: unused import: `std::fmt`\n --> src/main.rs (a hidden line)\n  |\n...\n"
        );
        // A panic and a span, at both ends.
        let panic =
            p.tell("thread 'main' panicked at main.rs:4:9:\nin `{closure@main.rs:3:9: 3:14}`\n");
        assert_eq!(
            p.as_shown(&panic),
            "thread 'main' panicked at src/main.rs:3:9:\nin `{closure@src/main.rs:2:9: 2:14}`\n"
        );
    }

    /// In a list item the characters before a line's text are not the
    /// reader's columns.
    #[test]
    fn told_as_shown_counts_columns_in_the_program() {
        let raw = "# C\n\n1. item\n\n   ```rust\n   let x: i32 = \"a\";\n   ```\n";
        let program = "fn main() {\nlet x: i32 = \"a\";\n}\n";
        let p = ProgramLines::of_block(raw, 5, program, "src/c.md").unwrap();
        let told = p.tell(" --> main.rs:2:14\n");
        assert_eq!(told, " --> src/c.md:6:17\n");
        assert_eq!(p.as_shown(&told), " --> src/main.rs:1:14\n");
        // Text told in no file of ours is left as it is.
        assert_eq!(p.as_shown(" --> main.rs:2:14\n"), " --> main.rs:2:14\n");
    }

    /// rustdoc's wrapper is never quoted: its lines in a snippet are left
    /// out, and a place on them is the block's fence.
    #[test]
    fn the_wrapping_is_never_quoted() {
        let raw = "# C\n\n```rust\nlet z = {\n    1\n```\n";
        let program = "fn main() { #[allow(non_snake_case)] fn _doctest_main() {\nlet z = {\n    1\n} _doctest_main() }\n";
        let p = ProgramLines::of_block(raw, 3, program, "src/c.md").unwrap();
        let rustc = "error: this file contains an unclosed delimiter\n --> main.rs:4:21\n  |\n1 | fn main() { #[allow(non_snake_case)] fn _doctest_main() {\n  |           - unclosed delimiter\n2 | let z = {\n  |         - unclosed delimiter\n...\n4 | } _doctest_main() }\n  |                    ^\n\nerror: aborting due to 1 previous error\n";
        assert_eq!(
            p.tell(rustc),
            "error: this file contains an unclosed delimiter\n --> src/c.md:6:1\n  |\n...\n4 | let z = {\n  |         - unclosed delimiter\n...\n\nerror: aborting due to 1 previous error\n"
        );
    }
}
