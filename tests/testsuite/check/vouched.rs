//! A page shows a proof only where one happened: a frame whose claim
//! companion.lock records as not checked, failed or stale says so in its
//! badge, and the build warns once; `warnings = "deny"` fails `check` on
//! what it would only warn about.

use crate::support::{BookTest, Page};
use pretty_assertions::assert_eq;
use snapbox::{IntoData, str};

/// Builds with `mdbook-companion build` (real mdBook, the preprocessor
/// in-process), which must succeed and print `said` on stderr; the
/// badges of the chapter's frames.
#[track_caller]
fn build(book: &BookTest, chapter: &str, said: impl IntoData) -> Vec<String> {
    book.run(&["build"], |cmd| {
        cmd.expect_stderr(said);
    });
    let page = book.page(chapter);
    page.all(".companion-header .companion-badge")
        .into_iter()
        .map(Page::text)
        .collect()
}

/// A Memcheck claim with no Valgrind to run it (`valgrind` names none):
/// the lock records it unchecked, and the page says "Not checked" with
/// the missing tool, never "Runs · Memcheck"; the build warns once.
#[test]
fn a_claim_not_checked_says_so_on_the_page_and_in_the_build() {
    let chapter = "# M\n\n```rust example sanitize=memcheck\nfn main() { println!(\"6\"); }\n```\n\n```output\n6\n```\n\n````compare\n```c sanitize=memcheck expect=run\nint main(void) { return 0; }\n```\n```rust\nfn main() {}\n```\n````\n";
    let book = BookTest::new()
        .companion("valgrind = \"/nonexistent/valgrind\"")
        .chapter("m.md", chapter);
    book.run(&["check"], |cmd| {
        cmd.expect_code(1).expect_stdout(str![[r#"
FAILED  src/m.md:3: rust example under Memcheck (expect=run): not checked, `/nonexistent/valgrind` could not be run
FAILED  src/m.md:12: compare side C under Memcheck (expect=run): not checked, `/nonexistent/valgrind` could not be run
ok      src/m.md:15: compare side Rust (expect=run)
error: the checker `/nonexistent/valgrind` could not be run (install Valgrind (`apt-get install valgrind`), or set `valgrind` in [preprocessor.companion] to its path); 2 blocks not checked: src/m.md:3, src/m.md:12
compiler runs: 1, program runs: 1, from cache: 0
1 passed, 2 failed

"#]]);
    });
    let badges = build(
        &book,
        "m.md",
        str![[r#"
 INFO Book building has started
 WARN companion.lock records 2 claims not checked (the first: src/m.md:3: rust example under Memcheck: `/nonexistent/valgrind` could not be run); their pages say so; install what is missing and run `mdbook-companion check`
 INFO Running the html backend
 INFO HTML book written to `./book`

"#]],
    );
    assert_eq!(
        badges,
        [
            "Not checked: valgrind was not found",
            "Not checked: valgrind was not found",
            "Runs"
        ]
    );
}

/// A claim the lock records as failed says "Check failed"; one changed
/// since the last check (the lock has no entry for it) says it was not
/// checked since; each is warned about once.
#[test]
fn failed_and_changed_claims_say_so_on_the_page() {
    let wrong = "```rust example title=\"Wrong\"\nfn main() { println!(\"hullo\"); }\n```\n\n```output\nhello\n```\n\n";
    let right = "```rust example title=\"Right\"\nfn main() { println!(\"hi\"); }\n```\n\n```output\nhi\n```\n";
    let mut book = BookTest::new().chapter("f.md", &format!("# F\n\n{wrong}{right}"));
    book.run(&["check"], |cmd| {
        cmd.expect_code(1).expect_stdout(str![[r#"
FAILED  src/f.md:3: rust example "Wrong" (expect=run): the output differs from the output block
    --- expected
    +++ actual
    @@ -1 +1 @@
    -hello
    +hullo
ok      src/f.md:11: rust example "Right" (expect=run)
compiler runs: 2, program runs: 3, from cache: 0
1 passed, 1 failed

"#]]);
    });
    let badges = build(
        &book,
        "f.md",
        str![[r#"
 INFO Book building has started
 WARN companion.lock records 1 failed claim (the first: src/f.md:3: rust example "Wrong"); run `mdbook-companion check` for the details
 INFO Running the html backend
 INFO HTML book written to `./book`

"#]],
    );
    assert_eq!(badges, ["Check failed", "Runs"]);
    let changed = right.replace("println!(\"hi\")", "println!(\"{}\", \"hi\")");
    book.set_chapter("f.md", &format!("# F\n\n{wrong}{changed}"));
    book.write();
    let badges = build(
        &book,
        "f.md",
        str![[r#"
 INFO Book building has started
 WARN companion.lock records 1 failed claim (the first: src/f.md:3: rust example "Wrong"); run `mdbook-companion check` for the details
 WARN companion.lock is stale: 1 block has no entry in it (the first: src/f.md:11: rust example "Right"); run `mdbook-companion check` and commit companion.lock
 INFO Running the html backend
 INFO HTML book written to `./book`

"#]],
    );
    assert_eq!(
        badges,
        ["Check failed", "Not checked since the code changed"]
    );
}

/// `warnings = "deny"`: what check prints as a warning (here the build's
/// own: an ```` ```asm ```` block that follows no example) fails it.
#[test]
fn warnings_deny_fails_check_on_a_warning() {
    let chapter = "# W\n\n```rust example\nfn main() {}\n```\n\nText.\n\n```asm\nCHECK: ret\n```\n";
    let book = BookTest::new().chapter("w.md", chapter);
    book.run(&["check"], |cmd| {
        cmd.expect_stdout(str![[r#"
ok      src/w.md:3: rust example (expect=run)
warning: src/w.md:9:4: found an ```asm block of FileCheck directives that follows no example or comparison side; it claims nothing and is shown as plain code; expected it right after the snippet (or its ```output), with only blank lines between
compiler runs: 1, program runs: 1, from cache: 0
1 passed, 0 failed

"#]]);
    });
    let book = BookTest::new()
        .companion("warnings = \"deny\"")
        .chapter("w.md", chapter);
    book.run(&["check"], |cmd| {
        cmd.expect_code(1).expect_stdout(str![[r#"
ok      src/w.md:3: rust example (expect=run)
FAILED  src/w.md:9:4: found an ```asm block of FileCheck directives that follows no example or comparison side; it claims nothing and is shown as plain code; expected it right after the snippet (or its ```output), with only blank lines between (warnings = "deny")
compiler runs: 1, program runs: 1, from cache: 0
1 passed, 0 failed; 1 book error

"#]]);
    });
}

/// Under `verify` the build's own check vouches, lock or not: a false
/// claim's badge says so (beside the warning and the box `verify` gives
/// under `on-failure = "continue"`).
#[test]
fn under_verify_the_builds_own_check_vouches() {
    let chapter = "# V\n\n```rust example\nfn main() { println!(\"hullo\"); }\n```\n\n```output\nhello\n```\n\n```rust example\nfn main() {}\n```\n";
    let book = BookTest::new()
        .companion("verify = true\non-failure = \"continue\"")
        .chapter("v.md", chapter);
    let badges = build(
        &book,
        "v.md",
        str![[r#"
 INFO Book building has started
 WARN src/v.md:3:4: rust example (expect=run) does not hold: the output differs from the output block
--- expected
+++ actual
@@ -1 +1 @@
-hello
+hullo

 INFO Running the html backend
 INFO HTML book written to `./book`

"#]],
    );
    assert_eq!(badges, ["Check failed", "Runs"]);
}
