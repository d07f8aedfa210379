//! `check` on a book of exercises: each of the three claims at its own
//! chapter:line with its own verdict in the text report, the JSON report
//! and `companion.lock`; a failure names the tests and shows their output;
//! `--locked` passes on the lock `check` wrote; warm: no compiler start;
//! the claims page lists each claim under the exercise's number.

use crate::support::{BookTest, Page};
use pretty_assertions::assert_eq;
use snapbox::str;

const VERDICTS: &str = include_str!("verdicts.md");

/// The 1-based line of `fence` in the chapter, after the exercise titled
/// `title`.
fn line(title: &str, fence: &str) -> usize {
    let start = VERDICTS
        .find(&format!("title=\"{title}\""))
        .expect("the exercise");
    let at = start + VERDICTS[start..].find(fence).expect("the fence");
    VERDICTS[..at].lines().count() + 1
}

#[test]
fn each_claim_is_reported_at_its_fence_with_its_own_verdict() {
    let book = BookTest::new()
        .chapter("verdicts.md", VERDICTS)
        .chapter("claims.md", "# Claims\n\n```claims\n```\n");
    // Each claim at its fence; the failing test's output under the
    // failure.
    book.run(&["check"], |cmd| {
        cmd.expect_code(1).expect_stdout(str![[r#"
ok      src/verdicts.md:6: exercise "Safe division" (starter) (expect=starter-compiles)
ok      src/verdicts.md:12: exercise "Safe division" (tests) (expect=starter-fails)
ok      src/verdicts.md:24: exercise "Safe division" (solution) (expect=solution-passes)
ok      src/verdicts.md:32: exercise "Tests that test nothing" (starter) (expect=starter-compiles)
FAILED  src/verdicts.md:38: exercise "Tests that test nothing" (tests) (expect=starter-fails): every test passes on the starter (`tests::doubles`); the tests must fail on it, or they test nothing the reader writes
ok      src/verdicts.md:45: exercise "Tests that test nothing" (solution) (expect=solution-passes)
ok      src/verdicts.md:53: exercise "A wrong solution" (starter) (expect=starter-compiles)
ok      src/verdicts.md:59: exercise "A wrong solution" (tests) (expect=starter-fails)
FAILED  src/verdicts.md:71: exercise "A wrong solution" (solution) (expect=solution-passes): 1 test fails on the solution: `tests::negative`
    | ---- tests::negative ----
    | thread 'tests::negative' ([THREAD_ID]) panicked at src/verdicts.md:67:5:
    | assertion `left == right` failed: abs(-5)
    |   left: 18446744073709551611
    |  right: 5
    | note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace
FAILED  src/verdicts.md:79: exercise "A starter the tests cannot use" (starter) (expect=starter-compiles): the starter does not compile with the tests
...
FAILED  src/verdicts.md:85: exercise "A starter the tests cannot use" (tests) (expect=starter-fails): the starter does not compile with the tests
...
ok      src/verdicts.md:92: exercise "A starter the tests cannot use" (solution) (expect=solution-passes)
compiler runs: 4, program runs: 7, from cache: 0
8 passed, 4 failed

"#]]);
    });
    // JSON: one result per claim, with its line and outcome.
    let json = book
        .run(&["check", "--format", "json"], |cmd| {
            cmd.expect_code(1);
        })
        .json();
    let results: Vec<(u64, String, String)> = json["results"]
        .as_array()
        .unwrap()
        .iter()
        .take(3)
        .map(|r| {
            (
                r["line"].as_u64().unwrap(),
                r["expect"].as_str().unwrap().to_owned(),
                r["status"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(
        results,
        [
            (
                line("Safe division", "```rust starter") as u64,
                "starter-compiles".into(),
                "passed".into()
            ),
            (
                line("Safe division", "```rust tests") as u64,
                "starter-fails".into(),
                "passed".into()
            ),
            (
                line("Safe division", "```rust solution") as u64,
                "solution-passes".into(),
                "passed".into()
            ),
        ]
    );
    assert_eq!(json["compiler_runs"], 0, "warm: no compiler start");
    // The lock: an entry per claim; --locked holds against it.
    let lock = std::fs::read_to_string(book.root().join("companion.lock")).unwrap();
    assert_eq!(
        lock.matches("expect = \"starter-fails\"").count(),
        4,
        "{lock}"
    );
    let locked = book
        .run(&["check", "--locked"], |cmd| {
            cmd.expect_code(1);
        })
        .stdout;
    assert!(!locked.contains("companion.lock"), "{locked}");
    // The claims page: each claim a row under the exercise's number.
    book.build().unwrap();
    let page = book.page("claims.md");
    let rows: Vec<String> = page
        .all("tr.companion-claim")
        .iter()
        .take(3)
        .map(|r| Page::text(*r))
        .collect();
    for (row, claim) in rows.iter().zip([
        "Compiles with the tests",
        "A test fails",
        "Every test passes",
    ]) {
        assert!(
            row.starts_with("Exercise 1.1Safe division Exercise"),
            "{row}"
        );
        assert!(row.contains(claim) && row.contains("Holds"), "{row}");
    }
}

#[test]
fn parts_come_from_files_through_include() {
    let chapter = "# Included\n\n````exercise title=\"Included\"\nThe task.\n\n```rust starter\n{{#include code/starter.rs}}\n```\n\n```rust tests\n{{#include code/tests.rs}}\n```\n\n```rust solution\n{{#include code/solution.rs}}\n```\n````\n";
    let book = BookTest::new()
        .chapter("included.md", chapter)
        .file(
            "src/code/starter.rs",
            "pub fn one() -> u8 {\n    todo!()\n}\n",
        )
        .file(
            "src/code/tests.rs",
            "#[test]\nfn is_one() {\n    assert_eq!(one(), 1);\n}\n",
        )
        .file("src/code/solution.rs", "pub fn one() -> u8 {\n    1\n}\n");
    book.run(&["check"], |cmd| {
        cmd.expect_stdout(str![[r#"
ok      src/included.md:6: exercise "Included" (starter) (expect=starter-compiles)
ok      src/included.md:10: exercise "Included" (tests) (expect=starter-fails)
ok      src/included.md:14: exercise "Included" (solution) (expect=solution-passes)
compiler runs: 1, program runs: 2, from cache: 0
3 passed, 0 failed

"#]]);
    });
    let page = book.html("included.md");
    let solution = Page::text(page.one(".companion-exercise-solution"));
    assert!(solution.contains("1 }"), "{solution}");
}

/// A test that panics on the solution is told at the solution's line in
/// the chapter, not in the test crate's `main.rs`.
#[test]
fn a_failing_test_names_the_chapters_lines() {
    let chapter = "# C\n\n`````exercise title=\"Div\"\nDivide.\n\n```rust starter\npub fn div(a: i32, b: i32) -> Option<i32> {\n    todo!()\n}\n```\n\n```rust tests\n#[test]\nfn by_zero() {\n    assert_eq!(div(1, 0), None);\n}\n```\n\n```rust solution\npub fn div(a: i32, b: i32) -> Option<i32> {\n    Some(a / b)\n}\n```\n`````\n";
    let book = BookTest::new().chapter("c.md", chapter);
    // `Some(a / b)`: line 21, column 10.
    let text = book
        .run(&["check"], |cmd| {
            cmd.expect_code(1).expect_stdout(str![[r#"
ok      src/c.md:6: exercise "Div" (starter) (expect=starter-compiles)
ok      src/c.md:12: exercise "Div" (tests) (expect=starter-fails)
FAILED  src/c.md:19: exercise "Div" (solution) (expect=solution-passes): 1 test fails on the solution: `tests::by_zero`
    | ---- tests::by_zero ----
    | thread 'tests::by_zero' ([THREAD_ID]) panicked at src/c.md:21:10:
    | attempt to divide by zero
    | note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace
compiler runs: 1, program runs: 2, from cache: 0
2 passed, 1 failed

"#]]);
        })
        .stdout;
    assert!(!text.contains("main.rs"), "{text}");
}
