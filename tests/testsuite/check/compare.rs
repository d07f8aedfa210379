//! Comparison sides checked with their locations.

use super::*;
use pretty_assertions::assert_eq;

pub(super) const COMPARE: &str = include_str!("compare/src/cmp.md");

#[test]
fn comparison_sides_are_checked_with_locations() {
    let book = BookTest::from_dir("check/compare");
    book.run(&["check"], |cmd| {
        cmd.expect_code(1).expect_stdout(str![[r#"
ok      src/cmp.md:4: compare side "C: UB" (expect=ub)
FAILED  src/cmp.md:13: compare side "C: no UB after all" (expect=ub): UndefinedBehaviorSanitizer reported nothing (the program exited successfully); the side says `expect=ub`
FAILED  src/cmp.md:17: compare side "C++: prints" (expect=run): the output differs from the output block
    --- expected
    +++ actual
    @@ -1 +1 @@
    -42
    +41
ok      src/cmp.md:26: compare side "C: compiles" (expect=compile)
ok      src/cmp.md:32: compare side "Rust: panics" (expect=panic)
compiler runs: 6, program runs: 5, from cache: 0
3 passed, 2 failed

"#]]);
    });
    // --bless rewrites the C++ side's output; a side that does not
    // behave as it says (no UB after all) is not an output to bless.
    book.run(&["check", "--bless"], |cmd| {
        cmd.expect_code(1).expect_stdout(str![[r#"
ok      src/cmp.md:4: compare side "C: UB" (expect=ub)
FAILED  src/cmp.md:13: compare side "C: no UB after all" (expect=ub): UndefinedBehaviorSanitizer reported nothing (the program exited successfully); the side says `expect=ub`
ok      src/cmp.md:17: compare side "C++: prints" (expect=run)
ok      src/cmp.md:26: compare side "C: compiles" (expect=compile)
ok      src/cmp.md:32: compare side "Rust: panics" (expect=panic)
bless: src/cmp.md:17: blessed the output block
compiler runs: 0, program runs: 0, from cache: 5
4 passed, 1 failed

"#]]);
    });
    assert_eq!(
        std::fs::read_to_string(book.root().join("src/cmp.md")).unwrap(),
        COMPARE.replace("```output\n42\n```", "```output\n41\n```")
    );
}

#[test]
fn missing_cc_is_reported_once_for_comparison_sides() {
    let book = BookTest::new()
        .companion("cc = \"/nonexistent/cc\"")
        .chapter("cmp.md", COMPARE);
    book.write();
    let (stdout, _, code) = check(&book, &[]);
    assert_eq!(code, 1);
    let errors: Vec<&str> = stdout.lines().filter(|l| l.starts_with("error:")).collect();
    let lines: Vec<String> = ["C: UB", "C: no UB after all", "C++: prints", "C: compiles"]
        .iter()
        .map(|c| {
            format!(
                "src/cmp.md:{}",
                line_of(COMPARE, &format!("caption=\"{c}\""))
            )
        })
        .collect();
    assert_eq!(
        errors,
        [format!(
            "error: the compiler `/nonexistent/cc` could not be run (set `cc` in [preprocessor.companion] to a compiler that runs); 4 blocks not checked: {}",
            lines.join(", ")
        )]
    );
    // The Rust side still ran: a missing cc does not hide Rust results.
    assert_eq!(stdout.lines().last(), Some("1 passed, 4 failed"));
}
