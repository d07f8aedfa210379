//! mdBook's stdin/stdout protocol, both shapes, driven through the binary.

use crate::support::BookTest;
use pretty_assertions::assert_eq;
use serde_json::{Value, json};
use snapbox::str;

fn chapter(content: &str) -> Value {
    json!({"Chapter": {"name": "A", "content": content, "number": [1], "sub_items": [],
        "path": "a.md", "source_path": "a.md", "parent_names": []}})
}

fn context(version: &str, config: Value) -> Value {
    json!({"root": "/tmp/book", "config": config, "renderer": "html", "mdbook_version": version})
}

const EXAMPLE: &str = "Intro.\n\n```rust example title=\"T\"\nfn main() {}\n```\n";

#[test]
fn mdbook_0_5_input_gets_0_5_output() {
    let input = json!([
        context("0.5.4", json!({"book": {"title": "x", "src": "src"}, "preprocessor": {"companion": {"after": ["links"]}}})),
        {"items": [chapter(EXAMPLE), "Separator", {"PartTitle": "P"}]}
    ]);
    let ran = BookTest::new().run(&[], |cmd| {
        cmd.stdin(input.to_string()).expect_stderr(str![[r#"
 WARN this book uses mdbook-companion directives but its pages have no companion stylesheet (none of output.html.additional-css is one); run `mdbook-companion install` in the book

"#]]);
    });
    let book = ran.json();
    let items = book["items"].as_array().expect("items");
    assert_eq!(items.len(), 3);
    assert_eq!(items[1], "Separator");
    assert_eq!(items[2], json!({"PartTitle": "P"}));
    let content = items[0]["Chapter"]["content"].as_str().expect("content");
    assert!(
        content.starts_with("Intro.\n\n<div class=\"companion-example"),
        "{content}"
    );
    assert!(book.get("sections").is_none());
}

#[test]
fn mdbook_0_4_input_with_nulls_gets_0_4_output() {
    let input = json!([
        context("0.4.40", json!({"book": {"authors": [], "language": "en", "multilingual": false,
            "src": "src", "title": null}, "preprocessor": {"companion": {"verify": null, "on-failure": null}},
            "rust": {"edition": null}})),
        {"sections": [chapter(EXAMPLE)], "__non_exhaustive": null}
    ]);
    let out = BookTest::run_bin(&[], input.to_string().as_bytes());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let book: Value = serde_json::from_slice(&out.stdout).expect("json out");
    assert!(book.get("items").is_none());
    assert_eq!(book["__non_exhaustive"], Value::Null);
    let content = book["sections"][0]["Chapter"]["content"]
        .as_str()
        .expect("content");
    assert!(content.contains("companion-example"), "{content}");
}

#[test]
fn untested_mdbook_version_warns_on_stderr_and_still_works() {
    let input = json!([context("0.7.1", json!({})), {"items": [chapter(EXAMPLE)]}]);
    let ran = BookTest::new().run(&[], |cmd| {
        cmd.stdin(input.to_string()).expect_stderr(str![[r#"
 WARN mdbook-companion 0.1.0 is tested with mdBook >=0.4.36, <0.6.0, but is being called by mdBook 0.7.1; carrying on
 WARN this book uses mdbook-companion directives but its pages have no companion stylesheet (none of output.html.additional-css is one); run `mdbook-companion install` in the book

"#]]);
    });
    // Stdout stays the book.
    let book = ran.json();
    assert!(
        book["items"][0]["Chapter"]["content"]
            .as_str()
            .expect("c")
            .contains("companion-example")
    );
}

#[test]
fn bad_input_is_a_clear_error_with_nothing_on_stdout() {
    let cases = [
        "this is not json",
        "{\"items\": []}",
        "[{\"root\": \"/\", \"renderer\": \"html\"}, {\"chapters\": []}]",
        "[{\"root\": \"/\", \"renderer\": \"html\", \"config\": {\"preprocessor\": {\"companion\": {\"colour\": 1}}}}, {\"items\": []}]",
    ];
    let book = BookTest::new();
    let mut table = String::new();
    for input in cases {
        let ran = book.run(&[], |cmd| {
            cmd.stdin(input).expect_failure().expect_stdout(str![""]);
        });
        table.push_str(&format!("{input}\n{}", ran.stderr));
    }
    book.check_text(table, str![[r#"
this is not json
mdbook-companion: error: expected mdBook's JSON `[context, book]` on standard input, but it is not JSON (expected ident at line 1 column 2); run mdbook-companion through mdBook, or use `mdbook-companion build`
{"items": []}
mdbook-companion: error: expected a JSON array `[context, book]` on standard input; found an object
[{"root": "/", "renderer": "html"}, {"chapters": []}]
mdbook-companion: error: expected the book to have `items` (mdBook 0.5) or `sections` (mdBook 0.4); found neither
[{"root": "/", "renderer": "html", "config": {"preprocessor": {"companion": {"colour": 1}}}}, {"items": []}]
mdbook-companion: error: book.toml [preprocessor.companion]: unknown field `colour`, expected a key of the table
known keys: print-solutions, print-answers, reading-list, talks, playground-url, compiler-explorer-url, rust-compiler, c-compiler, cpp-compiler, on-failure, warnings, verify, cc, rustc, valgrind, timeout, hang-guard, memory, c-hidden-prefix, output-filters, dependencies, cargo-manifest, playground-crates, run, asm-syntax, asm-arch, isolation, languages (and mdBook's command, before, after, renderers, optional)

"#]]);
}

#[test]
fn directive_error_exits_non_zero_with_location() {
    let input = json!([context("0.5.4", json!({})), {"items": [chapter("x\n\n```rust example expect=maybe\nfn main() {}\n```\n")]}]);
    BookTest::new().run(&[], |cmd| {
        cmd.stdin(input.to_string())
            .expect_failure()
            .expect_stdout(str![""])
            .expect_stderr(str![[r#"
 WARN this book uses mdbook-companion directives but its pages have no companion stylesheet (none of output.html.additional-css is one); run `mdbook-companion install` in the book
mdbook-companion: error: src/a.md:3:17: found `maybe` for `expect`; expected one of run, panic, compile-fail, no-run

"#]]);
    });
}

#[test]
fn supports_every_renderer() {
    for r in ["html", "markdown", "test", "epub"] {
        let out = BookTest::run_bin(&["supports", r], b"");
        assert!(out.status.success(), "{r}");
    }
}

#[test]
fn closed_stdout_is_an_error_not_a_panic() {
    let big = "```rust example\nfn main() {}\n```\n".repeat(2_000);
    let input = json!([context("0.5.4", json!({})), {"items": [chapter(&big)]}]).to_string();
    BookTest::new().run(&[], |cmd| {
        cmd.stdin(input)
            .close_stdout()
            .expect_failure()
            .expect_stderr(str![[r#"
 WARN this book uses mdbook-companion directives but its pages have no companion stylesheet (none of output.html.additional-css is one); run `mdbook-companion install` in the book
mdbook-companion: error: could not write the book to standard output: Broken pipe (os error 32)

"#]]);
    });
}

#[test]
fn decoding_only_flagged_chapters_answers_as_decoding_all() {
    // Chapters with and without directives, nested, with a tab-indented
    // info string and text that looks like a fence but is not ours; the
    // binary's answer must equal the fully decoded path's, as JSON.
    let ch = |name: &str, content: &str, subs: Value| {
        json!({"Chapter": {"name": name, "content": content, "number": null, "sub_items": subs,
            "path": format!("{name}.md"), "source_path": format!("{name}.md"), "parent_names": []}})
    };
    let tabbed = "# T\n\n```\trust example\nfn main() {}\n```\n";
    let book = json!({"items": [
        ch("plain", "# Plain\n\n```rust\nfn main() {}\n```\n", json!([])),
        ch("ex", EXAMPLE, json!([ch("tab", tabbed, json!([])), ch("plain2", "no fences", json!([]))])),
        "Separator",
        ch("cmp", "````compare\n```c\nint x;\n```\n```python\nx = 1\n```\n````\n", json!([])),
    ]});
    let ctx = context(
        "0.5.4",
        json!({"book": {"src": "src"}, "preprocessor": {"companion": {}}}),
    );
    let out = BookTest::run_bin(&[], json!([ctx, book]).to_string().as_bytes());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lazy: Value = serde_json::from_slice(&out.stdout).expect("json out");
    let config =
        mdbook_companion_core::config::Config::from_json("/tmp/book".into(), &ctx["config"])
            .expect("config");
    let mut decoded = book.clone();
    let outcome = mdbook_companion::book::book(
        &config,
        mdbook_companion_directives::Target::Html,
        &mut decoded,
    );
    assert!(outcome.errors.is_empty(), "{:?}", outcome.errors);
    assert_eq!(lazy, decoded);
    // And the directives were really rendered, the tabbed one included.
    for (at, name) in [
        ("/items/1/Chapter/content", "ex"),
        ("/items/1/Chapter/sub_items/0/Chapter/content", "tab"),
    ] {
        let text = lazy.pointer(at).and_then(Value::as_str).expect(name);
        assert!(text.contains("companion-example"), "{name}: {text}");
    }
    assert_eq!(lazy["items"][0], book["items"][0]);
}

/// With no arguments on a terminal (a pseudo-terminal here) the binary
/// does not wait for JSON nobody types: it says what to do, at once.
#[test]
fn no_arguments_on_a_terminal_says_what_to_do_instead_of_waiting() {
    use std::os::fd::{FromRawFd as _, OwnedFd};
    use std::process::Stdio;
    use std::time::Duration;
    let (mut master, mut slave) = (-1, -1);
    // SAFETY: openpty writes two descriptors into the given integers; the
    // other arguments may be null.
    let rc = unsafe {
        libc::openpty(
            &mut master,
            &mut slave,
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            std::ptr::null_mut(),
        )
    };
    assert_eq!(rc, 0, "openpty: {}", std::io::Error::last_os_error());
    // SAFETY: both descriptors are fresh and owned here alone.
    let (master, slave) = unsafe { (OwnedFd::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) };
    // A hang fails the test instead of stalling it.
    BookTest::new().run(&[], |cmd| {
        cmd.command(move |c| {
            c.stdin(Stdio::from(slave));
        })
        .timeout(Duration::from_secs(20))
        .expect_failure()
        .expect_stdout(str![""])
        .expect_stderr(str![[r#"
mdbook-companion: error: expected mdBook's JSON `[context, book]` on standard input, but it is a terminal; run mdbook-companion through mdBook, or use `mdbook-companion build` (`mdbook-companion --help` lists the commands)

"#]]);
    });
    drop(master);
}
