//! A page shows a proof only where one happened: a frame whose claim
//! companion.lock records as not checked, failed or stale says so in its
//! badge, and the build warns once; `warnings = "deny"` fails `check` on
//! what it would only warn about.

use super::check;
use crate::support::{BookTest, Page};
use pretty_assertions::assert_eq;

/// Builds with `mdbook-companion build` (real mdBook, the preprocessor
/// in-process); the build's log and the badges of the chapter's frames.
fn build(book: &BookTest, chapter: &str) -> (String, Vec<String>) {
    let root = book.root().display().to_string();
    let out = BookTest::run_bin(&["build", &root], b"");
    let said = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{said}");
    let page = book.page(chapter);
    let badges = page
        .all(".companion-header .companion-badge")
        .into_iter()
        .map(Page::text)
        .collect();
    (said, badges)
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
    book.write();
    let (stdout, _, code) = check(&book, &[]);
    assert_eq!(code, 1, "{stdout}");
    let (said, badges) = build(&book, "m.md");
    assert_eq!(
        badges,
        [
            "Not checked: valgrind was not found",
            "Not checked: valgrind was not found",
            "Runs"
        ]
    );
    let warning = "companion.lock records 2 claims not checked (the first: src/m.md:3: rust example under Memcheck: `/nonexistent/valgrind` could not be run); their pages say so; install what is missing and run `mdbook-companion check`";
    assert_eq!(said.matches(warning).count(), 1, "{said}");
    assert_eq!(said.matches("not checked (the first").count(), 1, "{said}");
}

/// A claim the lock records as failed says "Check failed"; one changed
/// since the last check (the lock has no entry for it) says it was not
/// checked since; each is warned about once.
#[test]
fn failed_and_changed_claims_say_so_on_the_page() {
    let wrong = "```rust example title=\"Wrong\"\nfn main() { println!(\"hullo\"); }\n```\n\n```output\nhello\n```\n\n";
    let right = "```rust example title=\"Right\"\nfn main() { println!(\"hi\"); }\n```\n\n```output\nhi\n```\n";
    let mut book = BookTest::new().chapter("f.md", &format!("# F\n\n{wrong}{right}"));
    book.write();
    let (stdout, _, code) = check(&book, &[]);
    assert_eq!(code, 1, "{stdout}");
    let (said, badges) = build(&book, "f.md");
    assert_eq!(badges, ["Check failed", "Runs"]);
    assert_eq!(said.matches("records 1 failed claim").count(), 1, "{said}");
    let changed = right.replace("println!(\"hi\")", "println!(\"{}\", \"hi\")");
    book.set_chapter("f.md", &format!("# F\n\n{wrong}{changed}"));
    book.write();
    let (said, badges) = build(&book, "f.md");
    assert_eq!(
        badges,
        ["Check failed", "Not checked since the code changed"]
    );
    assert_eq!(said.matches("companion.lock is stale").count(), 1, "{said}");
}

/// `warnings = "deny"`: what check prints as a warning (here the build's
/// own: an ```` ```asm ```` block that follows no example) fails it.
#[test]
fn warnings_deny_fails_check_on_a_warning() {
    let chapter = "# W\n\n```rust example\nfn main() {}\n```\n\nText.\n\n```asm\nCHECK: ret\n```\n";
    let message = "src/w.md:9:4: found an ```asm block of FileCheck directives that follows no example or comparison side";
    let book = BookTest::new().chapter("w.md", chapter);
    book.write();
    let (stdout, _, code) = check(&book, &[]);
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.contains(&format!("warning: {message}")), "{stdout}");
    let book = BookTest::new()
        .companion("warnings = \"deny\"")
        .chapter("w.md", chapter);
    book.write();
    let (stdout, _, code) = check(&book, &[]);
    assert_eq!(code, 1, "{stdout}");
    assert!(stdout.contains(&format!("FAILED  {message}")), "{stdout}");
    assert!(
        stdout.contains("(warnings = \"deny\")\n") && stdout.ends_with("1 passed, 1 failed\n"),
        "{stdout}"
    );
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
    book.write();
    let (_, badges) = build(&book, "v.md");
    assert_eq!(badges, ["Check failed", "Runs"]);
}
