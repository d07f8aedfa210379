//! `verify = true`: the same checks during real mdBook builds.

use super::compare::COMPARE;
use super::*;
use pretty_assertions::assert_eq;
use snapbox::str;
use std::fmt::Write as _;

pub(super) const VERIFY: &str = "# Verify\n\n```rust example title=\"right\"\nprintln!(\"yes\");\n```\n\n```output\nyes\n```\n\n```rust example title=\"wrong\"\nprintln!(\"no\");\n```\n\n```output\nyes\n```\n";

#[test]
fn verify_fails_the_build_under_bail() {
    let book = BookTest::new()
        .companion("verify = true")
        .chapter("v.md", VERIFY);
    book.run(&["build"], |cmd| {
        cmd.expect_failure().expect_stderr(str![[r#"
 INFO Book building has started
mdbook-companion: error: src/v.md:11:4: rust example "wrong" (expect=run) does not hold: the output differs from the output block
--- expected
+++ actual
@@ -1 +1 @@
-yes
+no


"#]]);
    });
    // The real command preprocessor fails the build too.
    assert!(book.build().is_err());
}

#[test]
fn verify_marks_the_block_under_continue() {
    let book = BookTest::new()
        .companion("verify = true\non-failure = \"continue\"")
        .chapter("v.md", VERIFY);
    let page = book.html("v.md");
    let marks = page.all("main div.companion-verify");
    assert_eq!(marks.len(), 1);
    assert_eq!(
        Page::text(marks[0]),
        "mdbook-companion: src/v.md:11:4 rust example \"wrong\" (expect=run) does not hold: the output differs from the output block"
    );
    let next = marks[0]
        .next_siblings()
        .find_map(scraper::ElementRef::wrap)
        .expect("the example after the mark");
    assert_eq!(Page::text(inside(next, ".companion-title")[0]), "wrong");
    assert_eq!(page.all("main div.companion-example").len(), 2);
    // Verified from the cache: the check results are stored under the book.
    assert!(book.root().join(".companion-cache/check").is_dir());
}

#[test]
fn verify_without_a_compiler_says_so() {
    let book = BookTest::new()
        .companion("verify = true\non-failure = \"continue\"\nrustc = \"/nonexistent/rustc\"")
        .chapter("v.md", VERIFY);
    let page = book.html("v.md");
    let marks: Vec<String> = page
        .all("main div.companion-verify")
        .into_iter()
        .map(Page::text)
        .collect();
    assert_eq!(
        marks,
        [
            "mdbook-companion: src/v.md:3:4 rust example \"right\" (expect=run) was not checked: the compiler `/nonexistent/rustc` could not be run",
            "mdbook-companion: src/v.md:11:4 rust example \"wrong\" (expect=run) was not checked: the compiler `/nonexistent/rustc` could not be run",
        ]
    );
    let err = BookTest::new()
        .companion("verify = true\nrustc = \"/nonexistent/rustc\"")
        .chapter("v.md", VERIFY)
        .build_in_process()
        .unwrap_err();
    assert_eq!(
        err,
        "src/v.md:3:4: the compiler `/nonexistent/rustc` could not be run, so 2 blocks were not checked (the first is here); set `rustc` in [preprocessor.companion] to a compiler that runs"
    );
}

#[test]
fn verify_is_off_by_default() {
    let book = BookTest::new().chapter("v.md", VERIFY);
    let page = book.html("v.md");
    assert!(page.all("div.companion-verify").is_empty());
    assert!(!book.root().join(".companion-cache").exists());
}

#[test]
fn verify_marks_a_false_comparison_side() {
    let book = BookTest::new()
        .companion("verify = true\non-failure = \"continue\"")
        .chapter("cmp.md", COMPARE);
    let page = book.html("cmp.md");
    let marks: String = page
        .all("main div.companion-verify")
        .into_iter()
        .map(|m| Page::text(m) + "\n")
        .collect();
    book.check_text(marks, str![[r#"
mdbook-companion: src/cmp.md:13:4 compare side "C: no UB after all" (expect=ub) does not hold: UndefinedBehaviorSanitizer reported nothing (the program exited successfully); the side says `expect=ub`
mdbook-companion: src/cmp.md:17:4 compare side "C++: prints" (expect=run) does not hold: the output differs from the output block

"#]]);
}

/// Two C sides per chapter, for the missing-compiler tests.
pub(super) const TWO_C: &str = "# Two C sides\n\n`````compare title=\"Two\"\n```c caption=\"one\"\nint one(void) { return 1; }\n```\n\n```c caption=\"two\"\nint two(void) { return 2; }\n```\n`````\n";

fn two_chapters_without_cc(on_failure: &str) -> BookTest {
    BookTest::new()
        .companion(&format!(
            "verify = true\non-failure = \"{on_failure}\"\ncc = \"/nonexistent/cc\""
        ))
        .chapter("a.md", TWO_C)
        .chapter("b.md", TWO_C)
}

#[test]
fn verify_reports_a_missing_compiler_once_per_build_under_bail() {
    two_chapters_without_cc("bail").run(&["build"], |cmd| {
        cmd.expect_failure().expect_stderr(str![[r#"
 INFO Book building has started
mdbook-companion: error: src/a.md:4:4: the compiler `/nonexistent/cc` could not be run, so 4 blocks were not checked (the first is here); set `cc` in [preprocessor.companion] to a compiler that runs

"#]]);
    });
}

#[test]
fn verify_reports_a_missing_compiler_once_per_build_under_continue() {
    let book = two_chapters_without_cc("continue");
    book.run(&["build"], |cmd| {
        cmd.expect_stderr(str![[r#"
 INFO Book building has started
 WARN src/a.md:4:4: the compiler `/nonexistent/cc` could not be run, so 4 blocks were not checked (the first is here); set `cc` in [preprocessor.companion] to a compiler that runs
 INFO Running the html backend
 INFO HTML book written to `./book`

"#]]);
    });
    // The page still marks every unchecked side.
    for chapter in ["a.md", "b.md"] {
        let marks: Vec<String> = book
            .page(chapter)
            .all("main div.companion-verify")
            .into_iter()
            .map(Page::text)
            .collect();
        let file = format!("src/{chapter}");
        let want: Vec<String> = ["one", "two"]
            .iter()
            .map(|c| {
                format!(
                    "mdbook-companion: {file}:{}:4 compare side \"{c}\" (expect=compile) was not checked: the compiler `/nonexistent/cc` could not be run",
                    line_of(TWO_C, &format!("caption=\"{c}\""))
                )
            })
            .collect();
        assert_eq!(marks, want);
    }
}

#[test]
fn a_cold_verify_build_compiles_a_chapters_examples_together() {
    let mut chapter = String::from("# Many\n");
    for i in 0..6 {
        write!(
            chapter,
            "\n```rust example title=\"n{i}\"\nfn main() {{ println!(\"{i}\"); }}\n```\n\n```output\n{}\n```\n",
            if i == 4 { 40 } else { i }
        )
        .ok();
    }
    let book = BookTest::new().chapter("many.md", &chapter);
    let rustc = crate::support::logging_wrapper(&book, "rustc-log", "rustc");
    let book = book.companion(&format!(
        "verify = true\non-failure = \"continue\"\nrustc = \"{rustc}\""
    ));
    let page = book.html("many.md");
    // The false claim is marked, as when each example compiles alone.
    let marks: Vec<String> = page
        .all("main div.companion-verify")
        .into_iter()
        .map(Page::text)
        .collect();
    assert_eq!(
        marks,
        [
            "mdbook-companion: src/many.md:35:4 rust example \"n4\" (expect=run) does not hold: the output differs from the output block"
        ]
    );
    let log = std::fs::read_to_string(crate::support::compiler_log(book.root())).expect("log");
    let compiles = log.lines().filter(|l| l.contains(".rs")).count();
    assert!(
        (1..6).contains(&compiles),
        "6 examples, {compiles} compiler starts:\n{log}"
    );
}
