//! The first hour of a new user (issue 39): every mistake a newcomer makes
//! gets a hint that says what to do. A typo in a directive's word, an
//! example whose output nobody claims, `check` run in the wrong place,
//! rustc's diagnostics in the author's lines.

use super::check;
use crate::support::{BIN, TestBook};
use pretty_assertions::assert_eq;
use serde_json::json;
use std::process::Command;

/// A typo in the directive's word: a plain block whose claims nobody
/// checks, so check fails, naming the word and ours at the word's line
/// and column (a build only warns).
#[test]
fn typo_in_the_directive_word_fails_check_with_a_located_hint() {
    let chapter = "# C\n\n```rust exmaple title=\"Hi\"\nfn main() { println!(\"hi\"); }\n```\n\n```output\nbye\n```\n\n```comapre\n```\n";
    let book = TestBook::new().chapter("c.md", chapter);
    book.write();
    let (stdout, stderr, code) = check(&book, &[]);
    assert_eq!(code, 1, "{stdout}\n{stderr}");
    let hints: Vec<&str> = stdout
        .lines()
        .filter(|l| l.contains("unknown word"))
        .collect();
    assert_eq!(
        hints,
        [
            "FAILED  src/c.md:3:9: the block was not checked: unknown word `exmaple`; did you mean `example`?",
            "FAILED  src/c.md:11:4: the block was not checked: unknown word `comapre`; did you mean `compare`?",
        ],
        "{stdout}"
    );
    assert!(stdout.ends_with(" 2 failed\n"), "{stdout}");
}

/// rustdoc's words and other languages' fences get no hint.
#[test]
fn rustdoc_words_and_other_languages_get_no_hint() {
    let mut chapter = String::from("# C\n\n");
    for info in [
        "rust,ignore",
        "rust should_panic",
        "rust,no_run",
        "rust compile_fail,E0308",
        "rust edition2021",
        "rust,editable",
        "rust test_harness",
    ] {
        let code = if info.contains("compile_fail") {
            "fn main() { let x: i32 = \"a\"; }"
        } else if info.contains("should_panic") {
            "fn main() { panic!(\"p\"); }"
        } else if info.contains("test_harness") {
            "#[test]\nfn t() {}"
        } else {
            "fn main() {}"
        };
        chapter.push_str(&format!("```{info}\n{code}\n```\n\n"));
    }
    for lang in ["text", "console", "toml", "nasm", "rst", "just", "python"] {
        chapter.push_str(&format!("```{lang}\nx\n```\n\n"));
    }
    let book = TestBook::new().chapter("c.md", &chapter);
    book.write();
    let (stdout, stderr, code) = check(&book, &[]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert!(!stdout.contains("unknown word"), "{stdout}");
    assert!(
        stdout.ends_with("6 passed, 0 failed, 1 ignored\n"),
        "{stdout}"
    );
}

/// The build warns at the word too, on both of mdBook's paths: the
/// preprocessor on stdin (whose pre-filter skips chapters with no
/// directive) and `mdbook-companion build`.
#[test]
fn typo_in_the_directive_word_warns_at_build() {
    let chapter = "# C\n\n```rust exmaple\nfn main() {}\n```\n";
    let input = json!([
        {"root": "/tmp/book", "config": {"book": {"title": "x", "src": "src"},
            "preprocessor": {"companion": {"after": ["links"]}}},
         "renderer": "html", "mdbook_version": "0.5.4"},
        {"items": [{"Chapter": {"name": "C", "content": chapter, "number": [1], "sub_items": [],
            "path": "c.md", "source_path": "c.md", "parent_names": []}}]}
    ]);
    let out = TestBook::run_bin(&[], input.to_string().as_bytes());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("src/c.md:3:9: unknown word `exmaple`; did you mean `example`?"),
        "{stderr}"
    );
    let book = TestBook::new().chapter("c.md", chapter);
    book.write();
    let out = TestBook::run_bin(&["build", &book.root().display().to_string()], b"");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("src/c.md:3:9: unknown word `exmaple`; did you mean `example`?"),
        "{stderr}"
    );
}

/// An example that prints with no output block passes, and the report
/// says the output is not claimed; `--bless` adds the block, after
/// which the line is plain `ok`.
#[test]
fn unclaimed_output_is_reported_and_bless_adds_the_block() {
    let chapter = "# C\n\n> ```rust example title=\"Prints\"\n> fn main() { println!(\"hi\\n\\nthere\"); }\n> ```\n\nAfter.\n\n```rust example title=\"Silent\"\nfn main() {}\n```\n";
    let book = TestBook::new().chapter("c.md", chapter);
    book.write();
    let (stdout, _, code) = check(&book, &[]);
    assert_eq!(code, 0, "{stdout}");
    assert!(
        stdout.lines().any(|l| l
            == "ok      src/c.md:3: rust example \"Prints\" (expect=run) (output not claimed: add an output block, or --bless adds it)"),
        "{stdout}"
    );
    assert!(
        stdout
            .lines()
            .any(|l| l == "ok      src/c.md:9: rust example \"Silent\" (expect=run)"),
        "{stdout}"
    );
    let (stdout, _, code) = check(&book, &["--bless"]);
    assert_eq!(code, 0, "{stdout}");
    assert!(
        stdout.contains("bless: src/c.md:3: added an output block"),
        "{stdout}"
    );
    let written = std::fs::read_to_string(book.root().join("src/c.md")).unwrap();
    assert_eq!(
        written,
        "# C\n\n> ```rust example title=\"Prints\"\n> fn main() { println!(\"hi\\n\\nthere\"); }\n> ```\n>\n> ```output\n> hi\n>\n> there\n> ```\n\nAfter.\n\n```rust example title=\"Silent\"\nfn main() {}\n```\n"
    );
    let (stdout, _, code) = check(&book, &[]);
    assert_eq!(code, 0, "{stdout}");
    assert!(!stdout.contains("not claimed"), "{stdout}");
    assert!(
        stdout
            .lines()
            .any(|l| l == "ok      src/c.md:3: rust example \"Prints\" (expect=run)"),
        "{stdout}"
    );
}

fn check_in(dir: &std::path::Path, args: &[&str]) -> (String, i32) {
    let out = Command::new(BIN)
        .current_dir(dir)
        .arg("check")
        .args(args)
        .output()
        .expect("run check");
    (
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

/// `check` in the wrong place says where it is and what to pass.
#[test]
fn check_in_the_wrong_place_says_what_to_pass() {
    let book = TestBook::new().chapter("c.md", "# C\n");
    book.write();
    let root = book.root();
    std::fs::rename(root.join("book.toml"), root.join("book.toml.x")).unwrap();
    std::fs::create_dir(root.join("mybook")).unwrap();
    std::fs::rename(root.join("book.toml.x"), root.join("mybook/book.toml")).unwrap();
    std::fs::rename(root.join("src"), root.join("mybook/src")).unwrap();
    for (dir, args, want) in [
        (
            root.to_path_buf(),
            vec![],
            "found no book.toml (and no src/SUMMARY.md) in .; pass the book's root directory: ./mybook",
        ),
        (
            root.join("mybook"),
            vec!["src"],
            "found SUMMARY.md but no book.toml in src: it is the book's source directory; pass the book's root directory, .",
        ),
        (
            root.join("mybook/src"),
            vec![],
            "found SUMMARY.md but no book.toml in .: it is the book's source directory; pass the book's root directory, ..",
        ),
        (
            root.to_path_buf(),
            vec!["mybok"],
            "found no directory mybok; did you mean mybook? (pass the book's root directory, the one that holds book.toml)",
        ),
        (
            root.to_path_buf(),
            vec!["mybook/src/c.md"],
            "found the file mybook/src/c.md; expected the book's root directory: pass mybook",
        ),
    ] {
        let (stderr, code) = check_in(&dir, &args);
        assert_eq!(code, 1, "{args:?}: {stderr}");
        assert_eq!(
            stderr.trim_end(),
            format!("mdbook-companion: error: {want}"),
            "{args:?}"
        );
    }
    // `build` in the wrong place says what `check` says.
    for dir in [root.to_path_buf(), root.join("mybook/src")] {
        let built = Command::new(BIN)
            .current_dir(&dir)
            .arg("build")
            .output()
            .expect("run build");
        let (checked, _) = check_in(&dir, &[]);
        assert_eq!(built.status.code(), Some(1), "{}", dir.display());
        assert_eq!(String::from_utf8_lossy(&built.stderr), checked);
    }
}

/// A misspelled `[preprocessor.compaion]` with no `[preprocessor.companion]`:
/// `mdbook build` will not expand the directives the author meant it to,
/// so `check` fails, saying so.
#[test]
fn a_misspelled_preprocessor_table_fails_check() {
    let book = TestBook::new().chapter("c.md", "# C\n\n```rust example\nfn main() {}\n```\n");
    book.write();
    let toml = std::fs::read_to_string(book.root().join("book.toml")).unwrap();
    // The table as a newcomer types it: no `command` (one naming our
    // binary would register it under any name).
    let command = format!("command = {BIN:?}\n");
    assert!(toml.contains(&command), "{toml}");
    std::fs::write(
        book.root().join("book.toml"),
        toml.replace("[preprocessor.companion]", "[preprocessor.compaion]")
            .replace(&command, ""),
    )
    .unwrap();
    let (stdout, _, code) = check(&book, &[]);
    assert_eq!(code, 1, "{stdout}");
    let said: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("note:") || l.contains("preprocessor"))
        .collect();
    assert_eq!(
        said,
        [
            "FAILED  book.toml does not register [preprocessor.companion]; mdbook build will not expand these directives (did you mean `companion`?): it has `[preprocessor.compaion]`"
        ],
        "{stdout}"
    );
    assert!(stdout.ends_with("1 passed, 1 failed\n"), "{stdout}");
}

/// rustc's diagnostics name the chapter's lines and columns, not those
/// of the wrapped program; snippets carry the file's line numbers.
#[test]
fn compiler_diagnostics_point_into_the_chapter() {
    let chapter = "# C\n\nText.\n\n1. A list item:\n\n   ```rust example title=\"Bad\"\n   # use std::fmt::Debug;\n   let x: i32 = \"a\";\n   ```\n";
    let book = TestBook::new().chapter("c.md", chapter);
    book.write();
    let (stdout, _, code) = check(&book, &[]);
    assert_eq!(code, 1, "{stdout}");
    assert!(stdout.contains("    |  --> src/c.md:9:17\n"), "{stdout}");
    assert!(
        stdout.contains("    | 9 | let x: i32 = \"a\";\n"),
        "{stdout}"
    );
    assert!(!stdout.contains("main.rs"), "{stdout}");
}

/// The report is in book order: an unreadable directive stands among its
/// chapter's lines, not after later chapters'; an ignored block's line
/// claims nothing (`(ignore)` with no `(expect=run)`).
#[test]
fn report_is_in_book_order_and_ignored_lines_read_plainly() {
    let a = "# A\n\n```rust example colour=red\nfn main() {}\n```\n\n```rust example title=\"Fine\"\nfn main() {}\n```\n";
    let b = "# B\n\n```rust example title=\"Later\"\nfn main() {}\n```\n\n```rust,ignore\nfn main() {}\n```\n";
    let book = TestBook::new().chapter("a.md", a).chapter("b.md", b);
    book.write();
    let (stdout, _, code) = check(&book, &[]);
    assert_eq!(code, 1, "{stdout}");
    let lines: Vec<&str> = stdout
        .lines()
        .filter(|l| ["ok", "FAILED", "ignored"].iter().any(|w| l.starts_with(w)))
        .map(|l| l.split(": found").next().unwrap_or(l))
        .collect();
    assert_eq!(
        lines,
        [
            "FAILED  src/a.md:3:17",
            "ok      src/a.md:7: rust example \"Fine\" (expect=run)",
            "ok      src/b.md:3: rust example \"Later\" (expect=run)",
            "ignored src/b.md:7: rust block (ignore): not checked",
        ],
        "{stdout}"
    );
}

/// One mapping everywhere: the lock's recorded runs (what the Run button
/// replays) and the built page name the chapter's lines as `check`'s
/// report does; an indented block's diagnostics are mapped like a fenced
/// one's; the wrapper rustdoc adds is never quoted.
#[test]
fn the_chapters_lines_everywhere() {
    let chapter = "# C\n\n```rust example expect=compile-fail\nlet v = vec![1];\nlet w = v;\nprintln!(\"{:?}\", v);\n```\n\n```rust example expect=panic\nlet v: Vec<i32> = Vec::new();\nv[3];\n```\n\nIndented:\n\n    let y: i32 = \"b\";\n\nUnclosed:\n\n```rust\nlet z = {\n    1\n```\n";
    // A block that came through `{{#include}}` is not in the chapter's
    // lines: it keeps `main.rs`, in the lock and on the page alike.
    let included = "```rust example expect=compile-fail\nlet a: u8 = \"x\";\n```\n";
    let book = TestBook::new()
        .chapter("c.md", chapter)
        .chapter("inc.md", "# I\n\nText.\n\n{{#include ex.md}}\n")
        .file("src/ex.md", included);
    book.write();
    let (stdout, _, code) = check(&book, &[]);
    assert_eq!(code, 1, "{stdout}");
    // The indented block: line 16, its code after four spaces.
    assert!(stdout.contains("    |   --> src/c.md:16:18\n"), "{stdout}");
    assert!(
        stdout.contains("    | 16 | let y: i32 = \"b\";\n"),
        "{stdout}"
    );
    // The unclosed delimiter: at the block's closing fence, no wrapper.
    assert!(stdout.contains("    |  --> src/c.md:23:1\n"), "{stdout}");
    assert!(!stdout.contains("_doctest_main"), "{stdout}");
    assert!(!stdout.contains("main.rs"), "{stdout}");
    let lock = std::fs::read_to_string(book.root().join("companion.lock")).unwrap();
    assert!(lock.contains(" --> src/c.md:6:18\n"), "{lock}");
    assert!(lock.contains("4 | let v = vec![1];\n"), "{lock}");
    assert!(lock.contains("panicked at src/c.md:11:"), "{lock}");
    assert_eq!(lock.matches("main.rs").count(), 1, "{lock}");
    assert!(lock.contains(" --> main.rs:2:13\n"), "{lock}");
    // The page's Run buttons replay the same.
    book.build().unwrap();
    let page = |name: &str| std::fs::read_to_string(book.output_dir("html").join(name)).unwrap();
    let html = page("c.html");
    assert!(html.contains("src/c.md:6:18"), "the page's recorded run");
    assert!(!html.contains("main.rs"), "the page names main.rs");
    let html = page("inc.html");
    assert!(html.contains("main.rs:2:13"), "the included block's run");
    assert!(
        !html.contains("src/inc.md:"),
        "an included block placed in the chapter"
    );
}
