//! Nothing lost: generated Markdown keeps every byte outside directives,
//! and no input makes the engine panic.

use mdbook_companion::cache::Cache;
use mdbook_companion::config::Config;
use mdbook_companion::directive::Target;
use mdbook_companion::process;
use proptest::prelude::*;
use std::path::PathBuf;

fn config() -> Config {
    Config::from_json(PathBuf::from("/nonexistent"), &serde_json::json!({})).expect("config")
}

/// Markdown that holds no directive, though much of it looks like one.
const PLAIN: &[&str] = &[
    "Plain prose with *emphasis*, `code` and a [link](https://example.org).\n",
    "Ünïcödé — 日本語 — עברית \u{202E}reversed\u{202C} zero\u{200B}width 🦀\n",
    "- one\n- two\n  - nested\n",
    "1. first\n2. second\n",
    "> quoted text\n> more\n",
    "| a | b |\n|---|---|\n| 1 | 2 |\n",
    "<div class=\"x\">\n```rust example\nfn main() {}\n```\n</div>\n",
    "````markdown\n```rust example\nfn main() {}\n```\n````\n",
    "~~~~\n~~~rust example\n~~~\n~~~~\n",
    "Use `` ```rust example `` to write one.\n",
    // After a list or a footnote, an indented line continues it; the HTML
    // comment at column 0 ends them, so this stays an indented code block.
    "<!-- break -->\n\n    ```rust example\n    indented code, not a fence\n",
    "\tTabbed\tline\twith\ttabs\n",
    "```rust\nfn main() { println!(\"example\"); }\n```\n",
    "Text first, so this output block follows no directive:\n\n```output\nnot attached to anything\n```\n",
    "# Heading {#id}\n",
    "Term\n: definition\n",
    "[^note]: A footnote.\n",
];

/// Directives, at the top level, in a list item, in a block quote.
const DIRECTIVES: &[&str] = &[
    "```rust example title=\"T\"\nfn main() {}\n```\n",
    "```rust example expect=panic\nfn main() { panic!(\"boom\") }\n```\n\n```output\nboom\n```\n",
    "- item\n\n  ```rust example\n  fn main() {}\n  ```\n",
    "> quote\n>\n> ```rust example editable\n> fn main() {}\n> ```\n",
    "~~~rust,example,edition2018\nfn main() {}\n~~~\n",
];

fn doc(pieces: &[(bool, usize)], crlf: bool) -> (String, Vec<String>, usize) {
    let mut text = String::new();
    let mut plain = Vec::new();
    let mut directives = 0;
    for &(is_directive, i) in pieces {
        let piece = if is_directive {
            directives += 1;
            DIRECTIVES[i % DIRECTIVES.len()]
        } else {
            let p = PLAIN[i % PLAIN.len()];
            plain.push(p.to_owned());
            p
        };
        text.push_str(piece);
        text.push('\n');
    }
    if crlf {
        text = text.replace('\n', "\r\n");
        plain = plain.into_iter().map(|p| p.replace('\n', "\r\n")).collect();
    }
    (text, plain, directives)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn chapters_without_directives_come_out_byte_identical(
        pieces in prop::collection::vec(0usize..100, 0..25),
        crlf in any::<bool>(),
    ) {
        let pieces: Vec<(bool, usize)> = pieces.into_iter().map(|i| (false, i)).collect();
        let (text, _, _) = doc(&pieces, crlf);
        for target in [Target::Html, Target::Test, Target::Markdown] {
            let out = process::chapter(&config(), &Cache::disabled(), target, "src/a.md", &text);
            prop_assert!(out.text.is_none(), "changed a chapter without directives");
            prop_assert!(out.errors.is_empty());
        }
    }

    #[test]
    fn text_around_directives_survives_in_order(
        pieces in prop::collection::vec((any::<bool>(), 0usize..100), 1..25),
        crlf in any::<bool>(),
    ) {
        let (text, plain, directives) = doc(&pieces, crlf);
        let out = process::chapter(&config(), &Cache::disabled(), Target::Html, "src/a.md", &text);
        prop_assert!(out.errors.is_empty(), "{:?}", out.errors);
        let new = out.text.unwrap_or_else(|| text.clone());
        // Every plain piece is still there, whole and in order.
        let mut at = 0;
        for p in &plain {
            let found = new[at..].find(p.as_str());
            prop_assert!(found.is_some(), "lost {p:?} in {new:?}");
            at += found.unwrap_or(0) + p.len();
        }
        prop_assert_eq!(new.matches("<div class=\"companion-example").count(), directives);
        if crlf {
            prop_assert!(!new.replace("\r\n", "").contains('\n'), "a bare LF in a CRLF chapter");
        }
    }

    #[test]
    fn arbitrary_text_never_panics(text in "(```|~~~|rust example|> |- |\n|\r\n|\t|[a-z =\"\\[\\]]|é|\u{200B})*") {
        for target in [Target::Html, Target::Test, Target::Markdown] {
            let out = process::chapter(&config(), &Cache::disabled(), target, "src/a.md", &text);
            if let Some(new) = out.text {
                prop_assert!(!new.is_empty() || text.is_empty());
            }
        }
    }
}
