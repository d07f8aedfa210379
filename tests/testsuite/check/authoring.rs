//! Writing as authors write, as `check` sees it: `ignore` on every side
//! and example, output patterns (`...`, `[..]`), `output-filters`, and
//! `--bless` keeping the patterns that still match.

use super::*;
use pretty_assertions::assert_eq;

const IGNORED: &str = include_str!("ignored/src/ignored.md");

#[test]
fn ignored_sides_and_examples_are_reported_as_ignored_never_passed() {
    let book = BookTest::from_dir("check/ignored");
    // Only the checked example is compiled.
    book.run(&["check"], |cmd| {
        cmd.expect_stdout(str![[r#"
ignored src/ignored.md:4: compare side "Not a whole program": not checked
ignored src/ignored.md:10: compare side C: not checked
ignored src/ignored.md:16: compare side Rust: not checked
ok      src/ignored.md:21: rust example "checked" (expect=run)
compiler runs: 1, program runs: 1, from cache: 0
1 passed, 0 failed, 3 ignored

"#]]);
    });
    let (json, code) = check_json(&book, &[]);
    assert_eq!(code, 0);
    assert_eq!(
        (json["passed"].as_u64(), json["ignored"].as_u64()),
        (Some(1), Some(3))
    );
    let statuses: Vec<&str> = json["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["status"].as_str().unwrap())
        .collect();
    assert_eq!(statuses, ["ignored", "ignored", "ignored", "passed"]);
}

const PATTERNS: &str = include_str!("patterns/src/patterns.md");

#[test]
fn patterns_and_filters_match_and_a_mismatch_is_a_located_diff_against_the_pattern() {
    let book = BookTest::from_dir("check/patterns")
        .companion(r#"output-filters = { "[0-9]+ ms" = "[TIME]", "/tmp/[a-z0-9-]+" = "[TMP]" }"#);
    let stdout = book
        .run(&["check"], |cmd| {
            cmd.expect_code(1).expect_stdout(str![[r#"
ok      src/patterns.md:3: rust example "lines" (expect=run)
ok      src/patterns.md:15: rust example "within a line" (expect=run)
ok      src/patterns.md:24: rust example "panic pattern" (expect=panic)
ok      src/patterns.md:34: rust example "filtered" (expect=run)
FAILED  src/patterns.md:42: rust example "wrong" (expect=run): the output differs from the output block
    --- expected
    +++ actual
    @@ -1,2 +1,2 @@
     id [..]
    -total: 3
    +total: 4
compiler runs: 3, program runs: 6, from cache: 0
4 passed, 1 failed

"#]]);
        })
        .stdout;
    // The diff is against the pattern: the matching `[..]` line is not
    // shown as a difference (`[..]` is a wildcard to snapbox too: the text
    // itself is checked).
    assert!(
        stdout.contains("    @@ -1,2 +1,2 @@\n     id [..]\n    -total: 3\n    +total: 4\n"),
        "{stdout}"
    );
}

#[test]
fn bless_keeps_the_patterns_that_still_match() {
    let chapter = "```rust example\nprintln!(\"id 42\");\nprintln!(\"a\");\nprintln!(\"b\");\nprintln!(\"end\");\nprintln!(\"total: 4\");\n```\n\n```output\nid [..]\n...\nend\ntotal: 3\n```\n";
    let book = BookTest::new().chapter("bless.md", chapter);
    book.run(&["check", "--bless"], |cmd| {
        cmd.expect_stdout(str![[r#"
ok      src/bless.md:1: rust example (expect=run)
bless: src/bless.md:1: blessed the output block
compiler runs: 2, program runs: 2, from cache: 0
1 passed, 0 failed

"#]]);
    });
    let after = std::fs::read_to_string(book.root().join("src/bless.md")).unwrap();
    assert_eq!(
        after,
        chapter.replace("end\ntotal: 3\n", "end\ntotal: 4\n"),
        "only the changed line is rewritten"
    );
    book.run(&["check"], |cmd| {
        cmd.expect_stdout(str![[r#"
ok      src/bless.md:1: rust example (expect=run)
compiler runs: 0, program runs: 0, from cache: 1
1 passed, 0 failed

"#]]);
    });
}

#[test]
fn a_bad_output_filter_is_a_config_error() {
    let book = BookTest::new()
        .companion(r#"output-filters = { "(open" = "x" }"#)
        .chapter("a.md", "# A\n");
    book.run(&["check"], |cmd| {
        cmd.expect_code(1).expect_stderr(str![[r#"
mdbook-companion: error: book.toml [preprocessor.companion]: output-filters: `(open` is not a regular expression (unclosed group); expected a pattern of the regex crate, such as "0x[0-9a-f]+"

"#]]);
    });
}

#[test]
fn verify_skips_ignored_sides_and_mdbook_test_ignores_them() {
    let book = BookTest::new()
        .companion("verify = true")
        .chapter("ignored.md", IGNORED);
    book.build_in_process()
        .expect("ignored fragments never fail a verified build");
    let page = book.html("ignored.md");
    let badges: Vec<String> = page
        .all("main .companion-compare .companion-badge")
        .into_iter()
        .map(Page::text)
        .collect();
    assert_eq!(badges, ["Not checked"; 4]);
    // The test renderer gets the Rust side as rustdoc's `ignore`: the
    // invalid Rust never fails `mdbook test`.
    let mut md = mdbook_driver::MDBook::load(book.root()).expect("load");
    md.test(vec![]).expect("ignored Rust passes mdbook test");
}
