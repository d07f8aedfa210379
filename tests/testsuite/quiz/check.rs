//! `check` on a quiz: each program question is a claim at its fence, in
//! the text, JSON, GitHub and JUnit reports and `companion.lock`;
//! `--locked` holds on the lock `check` wrote; warm runs start no
//! compiler; a wrong key fails at its fence; `verify` stops a build on it;
//! the claims page lists "Quiz 1.1 … question 4".

use crate::support::{BIN, Page, TestBook};
use pretty_assertions::assert_eq;
use serde_json::Value;
use std::process::Command;

/// The chapter: a quiz of seven questions, four of them programs.
pub(super) const CLAIMS: &str = include_str!("claims.md");

fn check(book: &TestBook, args: &[&str]) -> (String, i32) {
    let out = Command::new(BIN)
        .arg("check")
        .arg(book.root())
        .args(args)
        .output()
        .expect("run check");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

/// The 1-based line of the `n`-th occurrence (from 0) of `fence`.
fn line(text: &str, fence: &str, n: usize) -> usize {
    let at = text.match_indices(fence).nth(n).expect("the fence").0;
    text[..at].lines().count() + 1
}

#[test]
fn each_program_question_is_a_claim_at_its_fence() {
    let book = TestBook::new()
        .chapter("claims.md", CLAIMS)
        .chapter("list.md", "# Claims\n\n```claims\n```\n");
    book.write();
    let (text, code) = check(&book, &[]);
    assert_eq!(code, 0, "{text}");
    let at = |fence: &str, n: usize| format!("src/claims.md:{}", line(CLAIMS, fence, n));
    for want in [
        format!(
            "ok      {}: quiz \"Division and ownership\" (question 4) (expect=panic)",
            at("```rust", 0)
        ),
        format!(
            "ok      {}: quiz \"Division and ownership\" (question 5) (expect=compile-fail)",
            at("```rust", 1)
        ),
        format!(
            "ok      {}: quiz \"Division and ownership\" (question 6) (expect=run)",
            at("```c", 0)
        ),
        format!(
            "ok      {}: quiz \"Division and ownership\" (question 7) (expect=ub)",
            at("```c", 1)
        ),
    ] {
        assert!(text.lines().any(|l| l == want), "{want}\n{text}");
    }
    assert_eq!(text.lines().last(), Some("4 passed, 0 failed"));
    // Warm: the same verdicts with no compiler start, in every format.
    let (json, _) = check(&book, &["--format", "json"]);
    let json: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(json["compiler_runs"], 0, "warm: no compiler start");
    let results: Vec<(u64, String, String)> = json["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["line"].as_u64().unwrap(),
                r["expect"].as_str().unwrap().to_owned(),
                r["status"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let passed = |fence: &str, n: usize, expect: &str| {
        (
            line(CLAIMS, fence, n) as u64,
            expect.to_owned(),
            "passed".to_owned(),
        )
    };
    assert_eq!(
        results,
        [
            passed("```rust", 0, "panic"),
            passed("```rust", 1, "compile-fail"),
            passed("```c", 0, "run"),
            passed("```c", 1, "ub"),
        ]
    );
    let (github, code) = check(&book, &["--format", "github"]);
    assert_eq!(code, 0, "{github}");
    assert_eq!(
        github.lines().last(),
        Some("4 passed, 0 failed"),
        "{github}"
    );
    let (junit, _) = check(&book, &["--format", "junit"]);
    assert_eq!(junit.matches("<testcase ").count(), 4, "{junit}");
    assert!(
        junit.contains("quiz &quot;Division and ownership&quot; (question 5)")
            || junit.contains("quiz \"Division and ownership\" (question 5)"),
        "{junit}"
    );
    // The lock: an entry per program question; --locked holds on it.
    let lock = std::fs::read_to_string(book.root().join("companion.lock")).unwrap();
    assert_eq!(lock.matches("verdict = \"passed\"").count(), 4, "{lock}");
    let (locked, code) = check(&book, &["--locked"]);
    assert_eq!(code, 0, "{locked}");
    // Compiled alone, not merged: the same verdicts.
    let alone = TestBook::new().chapter("claims.md", CLAIMS);
    alone.write();
    let (text_alone, code) = check(&alone, &["--no-merge"]);
    assert_eq!(code, 0, "{text_alone}");
    let verdicts = |t: &str| -> Vec<String> {
        t.lines()
            .filter(|l| l.starts_with("ok ") || l.starts_with("FAILED"))
            .map(str::to_owned)
            .collect()
    };
    assert_eq!(verdicts(&text_alone), verdicts(&text));
    // The claims page: a row per program question under the quiz's
    // number, its badge naming no answer.
    book.build().unwrap();
    let page = book.page("list.md");
    let rows: Vec<String> = page
        .all("tr.companion-claim")
        .iter()
        .map(|r| Page::text(*r))
        .collect();
    assert_eq!(rows.len(), 4, "{rows:?}");
    // A line's key says which of the error's labels it is, in rustc's
    // words.
    for (row, n) in rows.iter().zip([4, 5, 6, 7]) {
        let key = match n {
            5 => "Answer key: line 3 (value borrowed here after move)",
            _ => "Answer key",
        };
        assert!(
            row.starts_with(&format!(
                "Quiz 1.1Division and ownership question {n}{key}Holds"
            )),
            "{row}"
        );
    }
}

#[test]
fn a_wrong_key_fails_at_its_fence_in_check_and_verify() {
    let wrong = CLAIMS
        .replace("line=3 error=E0382", "line=1 error=E0382")
        .replace("```output\n3\n```", "```output\n3.5\n```")
        .replace("```rust expect=panic", "```rust expect=run");
    let book = TestBook::new().chapter("claims.md", &wrong);
    book.write();
    let (text, code) = check(&book, &[]);
    assert_eq!(code, 1, "{text}");
    let at = |fence: &str, n: usize| format!("src/claims.md:{}", line(&wrong, fence, n));
    for want in [
        format!(
            "FAILED  {}: quiz \"Division and ownership\" (question 4) (expect=run): the program panicked: index out of bounds: the len is 3 but the index is 3",
            at("```rust", 0)
        ),
        format!(
            "FAILED  {}: quiz \"Division and ownership\" (question 5) (expect=compile-fail): does not compile, but its first error is on line 3 and labels line 2 (\"value moved here\", \"move occurs because `s` has type `String`, which does not implement the `Copy` trait\"); the block says line 1",
            at("```rust", 1)
        ),
        format!(
            "FAILED  {}: quiz \"Division and ownership\" (question 6) (expect=run): the output differs from the output block",
            at("```c", 0)
        ),
    ] {
        assert!(text.lines().any(|l| l == want), "{want}\n{text}");
    }
    assert_eq!(text.lines().last(), Some("1 passed, 3 failed"));
    let (github, _) = check(&book, &["--format", "github"]);
    assert!(
        github.contains(&format!(
            "::error file=src/claims.md,line={}",
            line(&wrong, "```rust", 1)
        )),
        "{github}"
    );
    // verify: the build stops on the first false claim, located.
    let verified = TestBook::new()
        .companion("verify = true")
        .chapter("claims.md", &wrong);
    let err = verified.build_in_process().unwrap_err();
    assert!(err.contains("src/claims.md:"), "{err}");
    assert!(err.contains("question"), "{err}");
}

#[test]
fn hidden_lines_count_as_the_reader_counts_them() {
    // The error stands on the reader's line 2: line 4 of the program
    // (a hidden line above it, `fn main` wrapped around the code).
    let chapter = "# Hidden\n\n`````quiz\n## Where does it fail?\n\n```rust expect=compile-fail line=1\n# let x: i32 = 1;\nlet y: i32 = x;\nlet z: u8 = \"no\";\n```\n`````\n";
    let book = TestBook::new().chapter("hidden.md", chapter);
    book.write();
    let (text, code) = check(&book, &[]);
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains("does not compile, but its first error is on line 2; the block says line 1"),
        "{text}"
    );
    let mut book = book;
    book.set_chapter("hidden.md", &chapter.replace("line=1", "line=2"));
    book.write();
    let (text, code) = check(&book, &[]);
    assert_eq!(code, 0, "{text}");
}

#[test]
fn author_errors_fail_the_build_with_their_location() {
    let cases = [
        (
            CLAIMS.replace("- [x] `3`", "- [ ] `3`"),
            "src/a.md:8:1: found a choice question with no `[x]`",
        ),
        (
            CLAIMS.replace("answer: let | let mut", "No answer here."),
            "src/a.md:15:1: found a question with nothing to answer",
        ),
        (
            CLAIMS.replace("id=claims", "id=claims shuffle"),
            "src/a.md:5:52: found unknown attribute `shuffle` on the quiz; expected one of title, id",
        ),
        (
            CLAIMS.replace("## Which keyword", "### Which keyword"),
            "src/a.md:15:1: found a heading that is not `##`",
        ),
        (
            CLAIMS.replace("## Which keyword", "A stray paragraph.\n\n## Which keyword"),
            "src/a.md:15:1: found a paragraph after the question's answer; expected at most a `>` quote that explains it, then the next `##` question",
        ),
    ];
    for (chapter, want) in cases {
        let book = TestBook::new().chapter("a.md", &chapter);
        let err = book.build_in_process().unwrap_err();
        assert!(err.contains(want), "{want}\n{err}");
    }
}

/// A quiz's C program is judged as a comparison side is: a report it
/// prints itself is its output, not the checker's (issue 44).
#[test]
fn a_quiz_program_that_prints_a_report_has_not_shown_undefined_behaviour() {
    let quiz = "# Q\n\n`````quiz title=\"Forged\"\n## What does this C program do?\n\n```c expect=ub\n#include <stdio.h>\nint main(void) { fprintf(stderr, \"main.c:2:5: runtime error: signed integer overflow\\n\"); return 1; }\n```\n\n```output\nsigned integer overflow\n```\n`````\n";
    let book = TestBook::new().chapter("q.md", quiz);
    book.write();
    let (text, code) = check(&book, &[]);
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains(&format!(
            "FAILED  src/q.md:{}: quiz \"Forged\" (question 1) (expect=ub): UndefinedBehaviorSanitizer reported nothing (the program exited with code 1); the side says `expect=ub`",
            line(quiz, "```c", 0)
        )),
        "{text}"
    );
}
