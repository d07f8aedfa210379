use super::*;
use crate::book::resolve::BookContext;
use crate::book::walk::{BookOutcome, ForCheck, Slot, build_says};
use mdbook_companion_core::claim::Claim;
use mdbook_companion_core::expect::Expect;
use mdbook_companion_core::links::Mode;
use pretty_assertions::assert_eq;

/// `check`'s walk over one chapter, rendered for `target`.
fn walked(chapter: &ChapterSource, config: &Config, target: Target) -> BookOutcome {
    let mut text = chapter.expanded.clone();
    let slot = Slot {
        content: &mut text,
        file: chapter.file.clone(),
        section: None,
        name: None,
        origin: Some(chapter),
    };
    let check = ForCheck {
        edition: 2015,
        panels: &|_, _| true,
        faults: true,
    };
    let files = vec![chapter.file.clone()];
    build_says(
        config,
        target,
        &mut BookContext::disabled(),
        vec![slot],
        files,
        &check,
    )
}

fn claims(chapter: &ChapterSource, config: &Config) -> Vec<Claim> {
    let walked = walked(chapter, config, Target::Test);
    walked.claims.into_iter().map(|(_, c)| c).collect()
}

fn config() -> Config {
    Config::from_json(PathBuf::from("/b"), &serde_json::json!({})).unwrap()
}

#[test]
fn lines_map_through_an_include() {
    let raw = "# T\n\n{{#include a.rs}}\n\n```rust example\nfn main() {}\n```\n";
    let expanded = "# T\n\nline one\nline two\nline three\n\n```rust example\nfn main() {}\n```\n";
    let map = LineMap::new(raw, expanded);
    assert_eq!(
        (0..9).map(|l| map.file_line(l)).collect::<Vec<_>>(),
        [1, 2, 3, 3, 3, 4, 5, 6, 7]
    );
    assert_eq!(map.literal(6, 8), Some(4));
    assert_eq!(map.literal(2, 4), None);
}

/// A chapter of book `/b` whose `{{#include out.md}}` expands to
/// `included`.
fn included(raw: &str, included: &str) -> ChapterSource {
    ChapterSource {
        name: String::new(),
        file: "src/a.md".into(),
        path: PathBuf::from("/b/src/a.md"),
        raw: raw.into(),
        expanded: raw.replace("{{#include out.md}}", included),
    }
}

#[test]
fn output_from_an_include_has_no_bless_target() {
    let raw = "```rust example\nfn main() { println!(\"hi\"); }\n```\n\n{{#include out.md}}\n\n```rust example\nfn main() {}\n```\n\n```output\n```\n";
    let claims = claims(&included(raw, "```output\nhi\n```"), &config());
    assert_eq!(claims.len(), 2);
    assert_eq!((claims[0].origin.line, claims[1].origin.line), (1, 7));
    assert_eq!(claims[0].expectation.output.as_deref(), Some("hi\n"));
    assert_eq!(claims[0].origin.bless, None);
    let target = claims[1]
        .origin
        .bless
        .clone()
        .expect("literal output block");
    assert_eq!(&raw[target.range], "```output\n```");
}

#[test]
fn comparison_sides_get_their_literal_output_blocks() {
    // The C side's output block is in the file; the Rust side's comes
    // through an include; the last side has none.
    let raw = "# T\r\n\r\n> ````compare\r\n> ```c expect=run\r\n> int main(void) { return 0; }\r\n> ```\r\n> ```output\r\n> old c\r\n> ```\r\n> ```rust\r\n> fn main() {}\r\n> ```\r\n> {{#include out.md}}\r\n> ```c\r\n> int x;\r\n> ```\r\n> ````\r\n";
    let chapter = included(raw, "```output\r\n> old rust\r\n> ```");
    let claims = claims(&chapter, &config());
    let got: Vec<_> = claims
        .iter()
        .map(|c| {
            (
                c.origin.line,
                c.expectation.output.as_deref(),
                c.origin.bless.as_ref().map(|t| &raw[t.range.clone()]),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            (4, Some("old c\n"), Some("```output\r\n> old c\r\n> ```")),
            (10, Some("old rust\n"), None),
            (14, None, None),
        ]
    );
    let target = claims[0].origin.bless.as_ref().unwrap();
    assert_eq!(target.block, &raw[target.range.clone()]);
}

#[test]
fn example_becomes_a_wrapped_program() {
    let text = "```rust example expect=panic edition=2024 mode=release\n# let x = 1;\nassert_eq!(x, 2);\n```\n\n```output\nassertion\n```\n";
    let chapter = ChapterSource {
        name: String::new(),
        file: "src/a.md".into(),
        path: PathBuf::from("/b/src/a.md"),
        raw: text.into(),
        expanded: text.into(),
    };
    let c = claims(&chapter, &config()).remove(0);
    assert_eq!(
        c.program.source,
        "fn main() {\nlet x = 1;\nassert_eq!(x, 2);\n}\n"
    );
    assert_eq!(
        (
            c.expectation.expect,
            c.program.edition,
            c.program.mode,
            c.expectation.output.as_deref()
        ),
        (Expect::Panic, 2024, Mode::Release, Some("assertion\n"))
    );
}

#[test]
fn bad_directive_is_a_located_problem() {
    let text =
        "x\n\n```rust example expect=maybe\nfn main() {}\n```\n\n```talk ids=\"nope\"\n```\n";
    let chapter = ChapterSource {
        name: String::new(),
        file: "src/a.md".into(),
        path: PathBuf::from("/b/src/a.md"),
        raw: text.into(),
        expanded: text.into(),
    };
    // The build's errors, every directive's, claims or not; no claims.
    let walked = walked(&chapter, &config(), Target::Html);
    assert!(walked.claims.is_empty());
    let errors = walked.errors;
    let at: Vec<_> = errors.iter().map(|e| (e.line, e.column)).collect();
    assert_eq!(at, [(3, 17), (7, 4)], "{errors:?}");
    assert!(errors[0].message.contains("expect"), "{errors:?}");
}
