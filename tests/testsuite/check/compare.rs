//! Comparison sides checked with their locations.

use super::*;
use pretty_assertions::assert_eq;

pub(super) const COMPARE: &str = include_str!("compare/src/cmp.md");

#[test]
fn comparison_sides_are_checked_with_locations() {
    let book = TestBook::new().chapter("cmp.md", COMPARE);
    book.write();
    let (stdout, stderr, code) = check(&book, &[]);
    assert_eq!(code, 1, "{stdout}\n{stderr}");
    let at = |caption: &str| {
        format!(
            "src/cmp.md:{}: compare side \"{caption}\"",
            line_of(COMPARE, &format!("caption=\"{caption}\""))
        )
    };
    let want = [
        format!("ok      {} (expect=ub)", at("C: UB")),
        format!(
            "FAILED  {} (expect=ub): UndefinedBehaviorSanitizer reported nothing (the program exited successfully); the side says `expect=ub`",
            at("C: no UB after all")
        ),
        format!(
            "FAILED  {} (expect=run): the output differs from the output block",
            at("C++: prints")
        ),
        format!("ok      {} (expect=compile)", at("C: compiles")),
        format!("ok      {} (expect=panic)", at("Rust: panics")),
    ];
    let got: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("ok ") || l.starts_with("FAILED "))
        .collect();
    assert_eq!(got, want);
    assert!(stdout.contains("    -42\n    +41\n"), "{stdout}");
    assert_eq!(stdout.lines().last(), Some("3 passed, 2 failed"));
    // --bless rewrites the C++ side's output; a side that does not
    // behave as it says (no UB after all) is not an output to bless.
    let (stdout, _, code) = check(&book, &["--bless"]);
    assert_eq!(code, 1, "{stdout}");
    let blessed: Vec<&str> = stdout.lines().filter(|l| l.starts_with("bless:")).collect();
    assert_eq!(
        blessed,
        [format!(
            "bless: src/cmp.md:{}: blessed the output block",
            line_of(COMPARE, "caption=\"C++: prints\"")
        )]
    );
    assert_eq!(stdout.lines().last(), Some("4 passed, 1 failed"));
    assert_eq!(
        std::fs::read_to_string(book.root().join("src/cmp.md")).unwrap(),
        COMPARE.replace("```output\n42\n```", "```output\n41\n```")
    );
}

#[test]
fn missing_cc_is_reported_once_for_comparison_sides() {
    let book = TestBook::new()
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
