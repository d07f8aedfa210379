//! The first hour of a new user (issue 39): every mistake a newcomer makes
//! gets a hint that says what to do. A typo in a directive's word, an
//! example whose output nobody claims, `check` run in the wrong place,
//! rustc's diagnostics in the author's lines.

use crate::support::{BIN, BookTest};
use serde_json::json;
use snapbox::str;

/// A typo in the directive's word: a block whose claims nobody checks, so
/// check fails, naming the word and ours at the word's line and column (a
/// build only warns). rustdoc does not test the block either (its info
/// string's `title="Hi"` is no word of rustdoc's), so nothing is compiled.
#[test]
fn typo_in_the_directive_word_fails_check_with_a_located_hint() {
    let chapter = "# C\n\n```rust exmaple title=\"Hi\"\nfn main() { println!(\"hi\"); }\n```\n\n```output\nbye\n```\n\n```comapre\n```\n";
    let book = BookTest::new().chapter("c.md", chapter);
    book.run(&["check"], |cmd| {
        cmd.expect_code(1).expect_stdout(str![[r#"
FAILED  src/c.md:3:9: the block was not checked: unknown word `exmaple`; did you mean `example`?
FAILED  src/c.md:11:4: the block was not checked: unknown word `comapre`; did you mean `compare`?
compiler runs: 0, program runs: 0, from cache: 0
0 passed, 2 failed

"#]]);
    });
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
    let book = BookTest::new().chapter("c.md", &chapter);
    book.run(&["check"], |cmd| {
        cmd.expect_stdout(str![[r#"
ignored src/c.md:3: rust block (ignore): not checked
ok      src/c.md:7: rust block (should_panic) (expect=panic)
ok      src/c.md:11: rust block (no_run) (expect=no-run)
ok      src/c.md:15: rust block (compile_fail,E0308) (expect=compile-fail)
ok      src/c.md:19: rust block (edition2021) (expect=run)
ok      src/c.md:23: rust block (expect=run)
ok      src/c.md:27: rust block (test_harness) (expect=run)
compiler runs: 5, program runs: 2 (not run, their main holding only items: 2; --exact runs them), from cache: 0
6 passed, 0 failed, 1 ignored

"#]]);
    });
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
    let book = BookTest::new().chapter("c.md", chapter);
    book.run(&[], |cmd| {
        cmd.stdin(input.to_string()).expect_stderr(str![[r#"
 WARN src/c.md:3:9: unknown word `exmaple`; did you mean `example`?

"#]]);
    });
    book.run(&["build"], |cmd| {
        cmd.expect_stderr(str![[r#"
 INFO Book building has started
 WARN src/c.md:3:9: unknown word `exmaple`; did you mean `example`?
 INFO Running the html backend
 INFO HTML book written to `./book`

"#]]);
    });
}

/// An example that prints with no output block passes, and the report
/// says the output is not claimed; `--bless` adds the block, after
/// which the line is plain `ok`.
#[test]
fn unclaimed_output_is_reported_and_bless_adds_the_block() {
    let chapter = "# C\n\n> ```rust example title=\"Prints\"\n> fn main() { println!(\"hi\\n\\nthere\"); }\n> ```\n\nAfter.\n\n```rust example title=\"Silent\"\nfn main() {}\n```\n";
    let book = BookTest::new().chapter("c.md", chapter);
    book.run(&["check"], |cmd| {
        cmd.expect_stdout(str![[r#"
ok      src/c.md:3: rust example "Prints" (expect=run) (output not claimed: add an output block, or --bless adds it)
ok      src/c.md:9: rust example "Silent" (expect=run)
compiler runs: 1, program runs: 2, from cache: 0
2 passed, 0 failed

"#]]);
    });
    book.run(&["check", "--bless"], |cmd| {
        cmd.expect_stdout(str![[r#"
ok      src/c.md:3: rust example "Prints" (expect=run)
ok      src/c.md:15: rust example "Silent" (expect=run)
bless: src/c.md:3: added an output block
compiler runs: 0, program runs: 0, from cache: 2
2 passed, 0 failed

"#]]);
    });
    book.check_file(
        "src/c.md",
        str![[r##"
# C

> ```rust example title="Prints"
> fn main() { println!("hi\n\nthere"); }
> ```
>
> ```output
> hi
>
> there
> ```

After.

```rust example title="Silent"
fn main() {}
```

"##]],
    );
    book.run(&["check"], |cmd| {
        cmd.expect_stdout(str![[r#"
ok      src/c.md:3: rust example "Prints" (expect=run)
ok      src/c.md:15: rust example "Silent" (expect=run)
compiler runs: 0, program runs: 0, from cache: 2
2 passed, 0 failed

"#]]);
    });
}

/// `check` in the wrong place says where it is and what to pass.
#[test]
fn check_in_the_wrong_place_says_what_to_pass() {
    let book = BookTest::new().chapter("c.md", "# C\n");
    book.write();
    let root = book.root();
    std::fs::rename(root.join("book.toml"), root.join("book.toml.x")).unwrap();
    std::fs::create_dir(root.join("mybook")).unwrap();
    std::fs::rename(root.join("book.toml.x"), root.join("mybook/book.toml")).unwrap();
    std::fs::rename(root.join("src"), root.join("mybook/src")).unwrap();
    // The table of errors: where `check` (and `build`) ran, its
    // arguments, and what it said.
    let mut table = String::new();
    for (dir, args) in [
        (".", &["check"][..]),
        ("mybook", &["check", "src"]),
        ("mybook/src", &["check"]),
        (".", &["check", "mybok"]),
        (".", &["check", "mybook/src/c.md"]),
        // `build` in the wrong place says what `check` says.
        (".", &["build"]),
        ("mybook/src", &["build"]),
    ] {
        let ran = book.run(args, |cmd| {
            cmd.current_dir(dir).expect_code(1);
        });
        table.push_str(&format!("{dir}$ {}\n{}", args.join(" "), ran.stderr));
    }
    book.check_text(table, str![[r#"
.$ check
mdbook-companion: error: found no book.toml (and no src/SUMMARY.md) in .; pass the book's root directory: ./mybook
mybook$ check src
mdbook-companion: error: found SUMMARY.md but no book.toml in src: it is the book's source directory; pass the book's root directory, .
mybook/src$ check
mdbook-companion: error: found SUMMARY.md but no book.toml in .: it is the book's source directory; pass the book's root directory, ..
.$ check mybok
mdbook-companion: error: found no directory mybok; did you mean mybook? (pass the book's root directory, the one that holds book.toml)
.$ check mybook/src/c.md
mdbook-companion: error: found the file mybook/src/c.md; expected the book's root directory: pass mybook
.$ build
mdbook-companion: error: found no book.toml (and no src/SUMMARY.md) in .; pass the book's root directory: ./mybook
mybook/src$ build
mdbook-companion: error: found SUMMARY.md but no book.toml in .: it is the book's source directory; pass the book's root directory, ..

"#]]);
}

/// A misspelled `[preprocessor.compaion]` with no `[preprocessor.companion]`:
/// `mdbook build` will not expand the directives the author meant it to,
/// so `check` fails, saying so.
#[test]
fn a_misspelled_preprocessor_table_fails_check() {
    let book = BookTest::new().chapter("c.md", "# C\n\n```rust example\nfn main() {}\n```\n");
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
    book.run(&["check"], |cmd| {
        cmd.expect_code(1).expect_stdout(str![[r#"
ok      src/c.md:3: rust example (expect=run)
FAILED  book.toml does not register [preprocessor.companion]; mdbook build will not expand these directives (did you mean `companion`?): it has `[preprocessor.compaion]`
compiler runs: 1, program runs: 1, from cache: 0
1 passed, 0 failed; 1 book error

"#]]);
    });
}

/// rustc's diagnostics name the chapter's lines and columns, not those
/// of the wrapped program; snippets carry the file's line numbers.
#[test]
fn compiler_diagnostics_point_into_the_chapter() {
    let chapter = "# C\n\nText.\n\n1. A list item:\n\n   ```rust example title=\"Bad\"\n   # use std::fmt::Debug;\n   let x: i32 = \"a\";\n   ```\n";
    let book = BookTest::new().chapter("c.md", chapter);
    let ran = book.run(&["check"], |cmd| {
        cmd.expect_code(1).expect_stdout(str![[r#"
FAILED  src/c.md:7: rust example "Bad" (expect=run): does not compile
...
    |  --> src/c.md:9:17
    |   |
    | 9 | let x: i32 = "a";
...
compiler runs: 1, program runs: 0, from cache: 0
0 passed, 1 failed

"#]]);
    });
    assert!(!ran.stdout.contains("main.rs"), "{}", ran.stdout);
}

/// The report is in book order: an unreadable directive stands among its
/// chapter's lines, not after later chapters'; an ignored block's line
/// claims nothing (`(ignore)` with no `(expect=run)`).
#[test]
fn report_is_in_book_order_and_ignored_lines_read_plainly() {
    let a = "# A\n\n```rust example colour=red\nfn main() {}\n```\n\n```rust example title=\"Fine\"\nfn main() {}\n```\n";
    let b = "# B\n\n```rust example title=\"Later\"\nfn main() {}\n```\n\n```rust,ignore\nfn main() {}\n```\n";
    let book = BookTest::new().chapter("a.md", a).chapter("b.md", b);
    book.run(&["check"], |cmd| {
        cmd.expect_code(1).expect_stdout(str![[r#"
FAILED  src/a.md:3:17: found unknown attribute `colour`; expected one of title, id, expect, error, edition, mode, asm, asm-syntax, warnings, playground, compiler-explorer, editable, ignore, noplayground, noplaypen, mdbook-runnable, hidelines, should_panic, compile_fail, no_run, sanitize, edition2015/2018/2021/2024, at
ok      src/a.md:7: rust example "Fine" (expect=run)
ok      src/b.md:3: rust example "Later" (expect=run)
ignored src/b.md:7: rust block (ignore): not checked
compiler runs: 1, program runs: 1, from cache: 0
2 passed, 1 failed, 1 ignored

"#]]);
    });
}

/// One mapping for the author: the lock's recorded runs name the
/// chapter's lines as `check`'s report does, and the page (what the Run
/// button replays) the lines of the program as the reader sees it; an
/// indented block's diagnostics are mapped like a fenced one's; the
/// wrapper rustdoc adds is never quoted.
#[test]
fn the_chapters_lines_everywhere() {
    let chapter = "# C\n\n```rust example expect=compile-fail\nlet v = vec![1];\nlet w = v;\nprintln!(\"{:?}\", v);\n```\n\n```rust example expect=panic\nlet v: Vec<i32> = Vec::new();\nv[3];\n```\n\nIndented:\n\n    let y: i32 = \"b\";\n\nUnclosed:\n\n```rust\nlet z = {\n    1\n```\n";
    // A block that came through `{{#include}}` is not in the chapter's
    // lines: it keeps `main.rs`, in the lock and on the page alike.
    let included = "```rust example expect=compile-fail\nlet a: u8 = \"x\";\n```\n";
    let book = BookTest::new()
        .chapter("c.md", chapter)
        .chapter("inc.md", "# I\n\nText.\n\n{{#include ex.md}}\n")
        .file("src/ex.md", included);
    // The indented block: line 16, its code after four spaces; the
    // unclosed delimiter (told by the lexer, no compile): at the block's
    // closing fence (23:1), as rustc; never the wrapper
    // (`_doctest_main`, `main.rs`).
    let ran = book.run(&["check"], |cmd| {
        cmd.expect_code(1).expect_stdout(str![[r#"
ok      src/c.md:3: rust example (expect=compile-fail)
ok      src/c.md:9: rust example (expect=panic)
FAILED  src/c.md:16: rust block (expect=run): does not compile
...
    |   --> src/c.md:16:18
    |    |
    | 16 | let y: i32 = "b";
...
FAILED  src/c.md:20: rust block (expect=run): does not compile (told by a merged build or our lexer; --exact for rustc's own words)
    | error: this file contains an unclosed delimiter
    |  --> src/c.md:23:1
...
ok      src/inc.md:5: rust example (expect=compile-fail)
compiler runs: 4, program runs: 1, from cache: 0
3 passed, 2 failed

"#]]);
    });
    assert!(!ran.stdout.contains("_doctest_main"), "{}", ran.stdout);
    assert!(!ran.stdout.contains("main.rs"), "{}", ran.stdout);
    let lock = std::fs::read_to_string(book.root().join("companion.lock")).unwrap();
    assert!(lock.contains(" --> src/c.md:6:18\n"), "{lock}");
    assert!(lock.contains("4 | let v = vec![1];\n"), "{lock}");
    assert!(lock.contains("panicked at src/c.md:11:"), "{lock}");
    assert_eq!(lock.matches("main.rs").count(), 1, "{lock}");
    assert!(lock.contains(" --> main.rs:2:13\n"), "{lock}");
    // The page's Run buttons replay the same runs, in the reader's
    // lines: the third line of the first block, the second of the next.
    book.build().unwrap();
    let page = |name: &str| std::fs::read_to_string(book.output_dir("html").join(name)).unwrap();
    let html = page("c.html");
    assert!(
        html.contains("src/main.rs:3:18"),
        "the page's recorded run: {html}"
    );
    assert!(html.contains("panicked at src/main.rs:2:"), "{html}");
    assert!(
        !html.contains("src/c.md:"),
        "the page names the chapter's lines"
    );
    let html = page("inc.html");
    assert!(html.contains("main.rs:2:13"), "the included block's run");
    assert!(
        !html.contains("src/inc.md:"),
        "an included block placed in the chapter"
    );
}

/// The reader's side counts the lines the page shows: an example below
/// other text, with a hidden line, whose recorded compile error is told
/// on the page as rustc tells it for the five lines the reader sees, a
/// place on the hidden line saying so; `check`'s report and the lock keep
/// the chapter's lines.
#[test]
fn the_page_counts_the_lines_the_reader_sees() {
    let chapter = "# Ownership\n\nSome text.\n\nMore text.\n\n```rust example expect=compile-fail\n# let s = String::from(\"hi\");\nlet t = s;\nprintln!(\"{s}\");\nlet _ = t;\n```\n\n```rust example\nlet x: i32 = \"a\";\n```\n";
    let book = BookTest::new().chapter("c.md", chapter);
    book.run(&["check"], |cmd| {
        cmd.expect_code(1).expect_stdout(str![[r#"
ok      src/c.md:7: rust example (expect=compile-fail)
FAILED  src/c.md:14: rust example (expect=run): does not compile
    | error[E0308]: mismatched types
    |   --> src/c.md:15:14
...
"#]]);
    });
    let lock = std::fs::read_to_string(book.root().join("companion.lock")).unwrap();
    assert!(lock.contains(" --> src/c.md:10:12\n"), "{lock}");
    book.build().unwrap();
    let html = std::fs::read_to_string(book.output_dir("html").join("c.html")).unwrap();
    let doc = scraper::Html::parse_document(&html);
    let frame = scraper::Selector::parse("[data-companion-run]").unwrap();
    let runs: Vec<serde_json::Value> = doc
        .select(&frame)
        .filter_map(|f| f.value().attr("data-companion-run"))
        .map(|a| serde_json::from_str(a).expect("JSON"))
        .collect();
    // The failing example has nothing recorded, only the Playground.
    assert_eq!(runs.len(), 2, "{runs:?}");
    assert!(runs[1].get("recorded").is_none(), "{:?}", runs[1]);
    let stderr = runs[0]["recorded"]["stderr"]
        .as_str()
        .expect("a recorded error");
    // `println!("{s}")` is line 10 of the chapter, line 2 of what the
    // reader sees (the hidden line and the wrapping are not counted).
    assert!(stderr.contains(" --> src/main.rs:2:12\n"), "{stderr}");
    assert!(stderr.contains("\n1 | let t = s;\n"), "{stderr}");
    assert!(stderr.contains("\n2 | println!(\"{s}\");\n"), "{stderr}");
    assert!(
        !stderr.contains("String::from"),
        "a hidden line quoted: {stderr}"
    );
    assert!(!stderr.contains("src/c.md"), "{stderr}");
}
