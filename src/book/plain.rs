//! The plain code blocks of a chapter: every block `mdbook test` would
//! hand to rustdoc that is not one of our directives, as a [`Claim`] with
//! rustdoc's meaning ([`mdbook_companion_core::doctest`]).
//!
//! rustdoc reads the chapter after mdBook's preprocessors, so the blocks
//! are found in the expanded text; each is placed at its opening fence in
//! the chapter file through the [`LineMap`](super::load::LineMap) (a
//! block inside an included file is placed at the `{{#include}}` line),
//! and also keeps the line `mdbook test` names it by. Indented code
//! blocks are Rust to rustdoc and are checked too.

use super::load::FilePlace;
use mdbook_companion_core::claim::Claim;
use mdbook_companion_core::doctest::{self, Doctest, LangString};
use mdbook_companion_core::lang::Lang;
use mdbook_companion_core::lines::ProgramLines;
use pulldown_cmark::{CodeBlockKind, Event, Options, Parser, Tag, TagEnd};
use std::ops::Range;

/// A code block as rustdoc finds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodeBlock {
    /// The info string (empty for an indented block).
    pub info: String,
    /// The code, container prefixes removed.
    pub code: String,
    /// The block's byte range in the text, fences included.
    pub range: Range<usize>,
}

/// The Markdown extensions rustdoc enables for a Markdown file.
fn options() -> Options {
    Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_SMART_PUNCTUATION
}

/// Every code block of `text`, fenced or indented, in order.
pub fn code_blocks(text: &str) -> Vec<CodeBlock> {
    super::tally::scanned();
    let mut out = Vec::new();
    let mut parser = Parser::new_ext(text, options()).into_offset_iter();
    while let Some((event, range)) = parser.next() {
        let Event::Start(Tag::CodeBlock(kind)) = event else {
            continue;
        };
        let info = match kind {
            CodeBlockKind::Fenced(info) => info.to_string(),
            CodeBlockKind::Indented => String::new(),
        };
        let mut code = String::new();
        for (event, _) in parser.by_ref() {
            match event {
                Event::Text(t) => code.push_str(&t),
                Event::End(TagEnd::CodeBlock) => break,
                _ => {}
            }
        }
        if code.contains('\r') {
            code = code.replace("\r\n", "\n");
        }
        out.push(CodeBlock { info, code, range });
    }
    out
}

/// The info strings of a block that may show what a program printed
/// (`""`: a fence with none).
const SHOWS_OUTPUT: [&str; 7] = ["text", "console", "bash", "output", "sh", "shell", ""];

/// Whether `next` (the chapter's next code block) is a fence that shows
/// `printed` already: one of `SHOWS_OUTPUT`, holding the same lines but
/// for trailing whitespace and blank lines at its end (a "will print"
/// block after an example: `adopt` and `--bless` add no output block
/// then). Its fence as the report names it (```` ```text ````) when it
/// is. `next` is a block of `text`.
pub fn shows_output(next: Option<&CodeBlock>, text: &str, printed: &str) -> Option<String> {
    let next = next?;
    let fence = text.get(next.range.clone())?;
    let fence = fence.trim_start_matches([' ', '\t', '>']);
    if !(fence.starts_with("```") || fence.starts_with("~~~")) {
        return None;
    }
    let info = next.info.split([' ', ',', '\t', '{']).next().unwrap_or("");
    let same = |t: &str| -> Vec<String> {
        let mut lines: Vec<String> = t.lines().map(|l| l.trim_end().to_owned()).collect();
        while lines.last().is_some_and(|l| l.is_empty()) {
            lines.pop();
        }
        lines
    };
    let printed = same(printed);
    (SHOWS_OUTPUT.contains(&info) && !printed.is_empty() && same(&next.code) == printed)
        .then(|| format!("```{info}"))
}

/// The claims of the plain Rust blocks of the chapter `place` places
/// (its line starts and its lines in the file, found once for the
/// chapter), those outside its `directives` (their ranges, in text
/// order, as the chapter's scan found them); `edition` is the one
/// `mdbook test` gives rustdoc, `triple` the target `ignore-TARGET` is
/// matched against.
pub fn claims(
    place: &FilePlace<'_>,
    directives: &[Range<usize>],
    edition: u16,
    triple: &str,
) -> Vec<Claim> {
    let chapter = place.chapter();
    let text = &chapter.expanded;
    let (index, map) = (place.index(), place.map());
    let mut out = Vec::new();
    for block in code_blocks(text) {
        // The directives are in text order and apart: only the last one
        // starting before the block may hold it (a search, not a walk
        // over all of them for every block).
        let before = directives.partition_point(|d| d.start <= block.range.start);
        if before > 0 && directives[before - 1].contains(&block.range.start) {
            continue;
        }
        let lang = LangString::parse(&block.info);
        if !lang.rust {
            continue;
        }
        let test_line = index.line0(block.range.start) + 1;
        let program = doctest::program(&doctest::unhidden(&block.code), lang.test_harness);
        let flags = lang.flags();
        let expect = lang.expect();
        let what = if flags.is_empty() {
            "rust block".to_owned()
        } else {
            format!("rust block ({flags})")
        };
        let at = text[..block.range.start].rfind('\n').map_or(0, |i| i + 1);
        let start = [(at, test_line)];
        let lines = ProgramLines::of_blocks(text, &start, &program.source, &chapter.file, 2)
            .and_then(|l| {
                let file = map.literal(l.open - 1, l.close - 1)?;
                let by = file as isize + 1 - l.open as isize;
                Some(l.shifted(by))
            });
        let mut claim = Claim::new(
            chapter.file.as_str(),
            block.range.start,
            what,
            Lang::Rust,
            program.source,
            expect,
        );
        claim.origin.line = map.file_line(test_line - 1);
        claim.program.lines = lines;
        claim.program.wrapped = program.wrapped;
        claim.program.edition = lang.edition.unwrap_or(edition);
        claim.expectation.error = lang.error_codes.first().cloned();
        claim.expectation.ignore = lang.ignored_on(triple);
        claim.program.doctest = Some(Doctest {
            test_harness: lang.test_harness,
            error_codes: lang.error_codes,
            test_line,
        });
        out.push(claim);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::load::ChapterSource;
    use mdbook_companion_core::expect::Expect;
    use mdbook_companion_directives as directive;
    use pretty_assertions::assert_eq;
    use std::path::PathBuf;

    fn chapter(raw: &str, expanded: &str) -> ChapterSource {
        ChapterSource {
            name: String::new(),
            file: "src/a.md".into(),
            path: PathBuf::from("/b/src/a.md"),
            raw: raw.into(),
            expanded: expanded.into(),
        }
    }

    #[test]
    fn rust_blocks_are_found_as_rustdoc_finds_them() {
        let text = "# T\n\n```\nlet a = 1;\n```\n\n```text\nnot rust\n```\n\n> ```rust,should_panic\n> panic!();\n> ```\n\n    let indented = 2;\n\n````compare\n```rust\nfn main() {}\n```\n````\n\n```rust example\nfn main() {}\n```\n\n~~~compile_fail,E0382\nlet v = vec![1];\n~~~\n";
        let directives: Vec<_> = directive::scan(text).into_iter().map(|b| b.range).collect();
        let claims = claims(
            &FilePlace::new(&chapter(text, text)),
            &directives,
            2021,
            "x86_64-unknown-linux-gnu",
        );
        let got: Vec<_> = claims
            .iter()
            .map(|c| (c.origin.line, c.origin.what.as_str(), c.expectation.expect))
            .collect();
        assert_eq!(
            got,
            [
                (3, "rust block", Expect::Run),
                (11, "rust block (should_panic)", Expect::Panic),
                (15, "rust block", Expect::Run),
                (27, "rust block (compile_fail,E0382)", Expect::CompileFail),
            ]
        );
        assert_eq!(claims[1].program.source.lines().nth(1), Some("panic!();"));
        assert_eq!(
            claims[3].program.doctest.as_ref().unwrap().error_codes,
            ["E0382"]
        );
        assert_eq!(claims[0].program.edition, 2021);
    }

    /// The block after a program shows its output when it is a fence of
    /// the kinds that show output and holds the same lines (trailing
    /// spaces and blank lines at its end aside); anything else does not.
    #[test]
    fn a_will_print_fence_shows_the_output_it_holds() {
        for (after, shown) in [
            ("```text\na  \nb\n\n```\n", Some("```text")),
            ("> ```console\n> a\n> b\n> ```\n", Some("```console")),
            ("~~~bash\na\nb\n~~~\n", Some("```bash")),
            ("```sh,ignore\na\nb\n```\n", Some("```sh")),
            ("```\na\nb\n```\n", Some("```")),
            ("```output\na\nb\n```\n", Some("```output")),
            // Another kind, other lines, an indented block: not shown.
            ("```json\na\nb\n```\n", None),
            ("```text\n$ cargo run\na\nb\n```\n", None),
            ("```text\na\n```\n", None),
            ("    a\n    b\n", None),
        ] {
            let text =
                format!("# T\n\n```rust\nprintln!(\"a\\nb\");\n```\n\nwill print\n\n{after}");
            let blocks = code_blocks(&text);
            assert_eq!(
                shows_output(blocks.get(1), &text, "a\nb\n").as_deref(),
                shown,
                "{after:?}"
            );
        }
        assert_eq!(shows_output(None, "", "a\n"), None);
    }

    #[test]
    fn blocks_are_placed_in_the_file_the_author_edits() {
        let raw = "# T\n\n{{#include intro.md}}\n\n```rust,edition2018\nfn main() {}\n```\n";
        let expanded = "# T\n\nline one\nline two\n\n```rust,edition2018\nfn main() {}\n```\n";
        let claims = claims(
            &FilePlace::new(&chapter(raw, expanded)),
            &[],
            2015,
            "x86_64-unknown-linux-gnu",
        );
        assert_eq!(claims.len(), 1);
        assert_eq!(
            (claims[0].origin.line, claims[0].program.edition),
            (5, 2018)
        );
        assert_eq!(claims[0].program.doctest.as_ref().unwrap().test_line, 6);
    }
}
