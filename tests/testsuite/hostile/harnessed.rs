//! Issue 57: an exercise's solution passes only on the test harness's
//! whole report, so one that leaves the harness early fails.

use crate::support::BookTest;
use snapbox::str;

/// An exercise's solution that fails a test but leaves the harness early,
/// exiting 0 (what it prints inside a test is the harness's to capture,
/// and lost), as if every test had passed (issue 57, item 4).
const EXITS_EARLY: &str = "````exercise title=\"Clamp\"\n```rust starter\npub fn clamp(x: i32, lo: i32, hi: i32) -> i32 {\n    todo!()\n}\n```\n\n```rust tests\n#[test]\nfn inside_is_unchanged() {\n    assert_eq!(clamp(5, 0, 10), 5);\n}\n\n#[test]\nfn outside_goes_to_the_nearest_end() {\n    assert_eq!(clamp(42, 0, 10), 10);\n}\n```\n\n```rust solution\npub fn clamp(x: i32, lo: i32, hi: i32) -> i32 {\n    if x < lo || x > hi {\n        println!(\"test tests::outside_goes_to_the_nearest_end ... ok\");\n        println!(\"\\ntest result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\");\n        std::process::exit(0);\n    }\n    x\n}\n```\n````\n";

/// Exercise results need the harness's whole report: its summary, with
/// as many tests as the exercise has, each named once. A solution that
/// fails a test and exits 0 from inside it (printing a forged result and
/// summary, which the harness captures) fails; before, the `... ok` of
/// the tests that ran first and the exit status 0 passed it.
#[test]
fn a_solution_that_leaves_the_harness_early_fails() {
    let book = BookTest::new().chapter("ch.md", EXITS_EARLY);
    book.run(&["check"], |cmd| {
        cmd.expect_failure().expect_stdout(str![[r#"
ok      src/ch.md:2: exercise "Clamp" (starter) (expect=starter-compiles)
ok      src/ch.md:8: exercise "Clamp" (tests) (expect=starter-fails)
FAILED  src/ch.md:20: exercise "Clamp" (solution) (expect=solution-passes): the test harness ended without its summary (`test result: …`) after 1 of 2 tests: `tests::outside_goes_to_the_nearest_end` did not finish
    | 
    | running 2 tests
    | test tests::inside_is_unchanged ... ok
    | test tests::outside_goes_to_the_nearest_end ...
compiler runs: 1, program runs: 2, from cache: 0
2 passed, 1 failed

"#]]);
    });
}
