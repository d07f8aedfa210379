//! Writing as authors write, as `check` sees it: `ignore` on every side
//! and example, output patterns (`...`, `[..]`), `output-filters`, and
//! `--bless` keeping the patterns that still match.

use super::*;
use pretty_assertions::assert_eq;

const IGNORED: &str = include_str!("ignored/src/ignored.md");

#[test]
fn ignored_sides_and_examples_are_reported_as_ignored_never_passed() {
    let book = TestBook::new().chapter("ignored.md", IGNORED);
    book.write();
    let (stdout, stderr, code) = check(&book, &[]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    let ignored: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("ignored "))
        .collect();
    assert_eq!(
        ignored,
        [
            "ignored src/ignored.md:4: compare side \"Not a whole program\": not checked",
            "ignored src/ignored.md:10: compare side C: not checked",
            "ignored src/ignored.md:16: compare side Rust: not checked",
        ],
        "{stdout}"
    );
    assert_eq!(stdout.lines().last(), Some("1 passed, 0 failed, 3 ignored"));
    assert!(
        stdout.contains("compiler runs: 1, program runs: 1"),
        "only the checked example is compiled: {stdout}"
    );
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
    let book = TestBook::new()
        .companion(r#"output-filters = { "[0-9]+ ms" = "[TIME]", "/tmp/[a-z0-9-]+" = "[TMP]" }"#)
        .chapter("patterns.md", PATTERNS);
    book.write();
    let (stdout, stderr, code) = check(&book, &[]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    for title in ["lines", "within a line", "panic pattern", "filtered"] {
        assert!(
            stdout
                .lines()
                .any(|l| l.starts_with("ok ") && l.contains(&format!("\"{title}\""))),
            "{title}: {stdout}"
        );
    }
    let line = line_of(PATTERNS, "title=\"wrong\"");
    assert!(
        stdout.contains(&format!(
            "FAILED  src/patterns.md:{line}: rust example \"wrong\" (expect=run): the output differs from the output block"
        )),
        "{stdout}"
    );
    // The diff is against the pattern: the matching `[..]` line is not
    // shown as a difference.
    assert!(
        stdout.contains("    @@ -1,2 +1,2 @@\n     id [..]\n    -total: 3\n    +total: 4\n"),
        "{stdout}"
    );
    assert_eq!(stdout.lines().last(), Some("4 passed, 1 failed"));
}

#[test]
fn bless_keeps_the_patterns_that_still_match() {
    let chapter = "```rust example\nprintln!(\"id 42\");\nprintln!(\"a\");\nprintln!(\"b\");\nprintln!(\"end\");\nprintln!(\"total: 4\");\n```\n\n```output\nid [..]\n...\nend\ntotal: 3\n```\n";
    let book = TestBook::new().chapter("bless.md", chapter);
    book.write();
    let (stdout, _, code) = check(&book, &["--bless"]);
    assert_eq!(code, 0, "{stdout}");
    let after = std::fs::read_to_string(book.root().join("src/bless.md")).unwrap();
    assert_eq!(
        after,
        chapter.replace("end\ntotal: 3\n", "end\ntotal: 4\n"),
        "only the changed line is rewritten"
    );
    let (stdout, _, code) = check(&book, &[]);
    assert_eq!(
        (code, stdout.lines().last()),
        (0, Some("1 passed, 0 failed"))
    );
}

#[test]
fn a_bad_output_filter_is_a_config_error() {
    let book = TestBook::new()
        .companion(r#"output-filters = { "(open" = "x" }"#)
        .chapter("a.md", "# A\n");
    book.write();
    let (_, stderr, code) = check(&book, &[]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("output-filters: `(open` is not a regular expression"),
        "{stderr}"
    );
}

#[test]
fn verify_skips_ignored_sides_and_mdbook_test_ignores_them() {
    let book = TestBook::new()
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
