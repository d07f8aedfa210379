//! `check` on a quiz: each program question is a claim at its fence, in
//! the text, JSON, GitHub and JUnit reports and `companion.lock`;
//! `--locked` holds on the lock `check` wrote; warm runs start no
//! compiler; a wrong key fails at its fence; `verify` stops a build on it;
//! the claims page lists "Quiz 1.1 … question 4".

use crate::support::{BookTest, Page};
use pretty_assertions::assert_eq;
use snapbox::str;

/// The chapter: a quiz of seven questions, four of them programs.
pub(super) const CLAIMS: &str = include_str!("claims.md");

/// The 1-based line of the `n`-th occurrence (from 0) of `fence`.
fn line(text: &str, fence: &str, n: usize) -> usize {
    let at = text.match_indices(fence).nth(n).expect("the fence").0;
    text[..at].lines().count() + 1
}

#[test]
fn each_program_question_is_a_claim_at_its_fence() {
    let book = BookTest::new()
        .chapter("claims.md", CLAIMS)
        .chapter("list.md", "# Claims\n\n```claims\n```\n");
    let text = book
        .run(&["check"], |cmd| {
            cmd.expect_stdout(str![[r#"
ok      src/claims.md:27: quiz "Division and ownership" (question 4) (expect=panic)
ok      src/claims.md:40: quiz "Division and ownership" (question 5) (expect=compile-fail)
ok      src/claims.md:51: quiz "Division and ownership" (question 6) (expect=run)
ok      src/claims.md:63: quiz "Division and ownership" (question 7) (expect=ub)
compiler runs: 4, program runs: 3, from cache: 0
4 passed, 0 failed

"#]]);
        })
        .stdout;
    // Warm: the same verdicts with no compiler start, in every format.
    let json = book.run(&["check", "--format", "json"], |_| {}).json();
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
    book.run(&["check", "--format", "github"], |cmd| {
        cmd.expect_stdout(str![[r#"
4 passed, 0 failed

"#]]);
    });
    let junit = book.run(&["check", "--format", "junit"], |_| {}).stdout;
    assert_eq!(junit.matches("<testcase ").count(), 4, "{junit}");
    assert!(
        junit.contains("quiz &quot;Division and ownership&quot; (question 5)")
            || junit.contains("quiz \"Division and ownership\" (question 5)"),
        "{junit}"
    );
    // The lock: an entry per program question; --locked holds on it.
    let lock = std::fs::read_to_string(book.root().join("companion.lock")).unwrap();
    assert_eq!(lock.matches("verdict = \"passed\"").count(), 4, "{lock}");
    book.run(&["check", "--locked"], |_| {});
    // Compiled alone, not merged: the same verdicts.
    let alone = BookTest::new().chapter("claims.md", CLAIMS);
    let text_alone = alone.run(&["check", "--no-merge"], |_| {}).stdout;
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
    let book = BookTest::new().chapter("claims.md", &wrong);
    book.run(&["check"], |cmd| {
        cmd.expect_code(1).expect_stdout(str![[r#"
FAILED  src/claims.md:27: quiz "Division and ownership" (question 4) (expect=run): the program panicked: index out of bounds: the len is 3 but the index is 3
    | 
    | thread 'main' ([THREAD_ID]) panicked at src/claims.md:30:21:
    | index out of bounds: the len is 3 but the index is 3
    | note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace
FAILED  src/claims.md:40: quiz "Division and ownership" (question 5) (expect=compile-fail): does not compile, but its first error is on line 3 and labels line 2 ("value moved here", "move occurs because `s` has type `String`, which does not implement the `Copy` trait"); the block says line 1
...
FAILED  src/claims.md:51: quiz "Division and ownership" (question 6) (expect=run): the output differs from the output block
    --- expected
    +++ actual
    @@ -1 +1 @@
    -3.5
    +3
ok      src/claims.md:63: quiz "Division and ownership" (question 7) (expect=ub)
compiler runs: 5, program runs: 4, from cache: 0
1 passed, 3 failed

"#]]);
    });
    book.run(&["check", "--format", "github"], |cmd| {
        cmd.expect_code(1).expect_stdout(str![[r#"
::error file=src/claims.md,line=27,title=quiz "Division and ownership" (question 4) (expect=run)::the program panicked: index out of bounds: the len is 3 but the index is 3%0A%0Athread 'main' ([THREAD_ID]) panicked at src/claims.md:30:21:%0Aindex out of bounds: the len is 3 but the index is 3%0Anote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace
::error file=src/claims.md,line=40,title=quiz "Division and ownership" (question 5) (expect=compile-fail)::does not compile, but its first error is on line 3 and labels line 2 ("value moved here", "move occurs because `s` has type `String`, which does not implement the `Copy` trait"); the block says line 1%0A[..]
::error file=src/claims.md,line=51,title=quiz "Division and ownership" (question 6) (expect=run)::the output differs from the output block%0A--- expected%0A+++ actual%0A@@ -1 +1 @@%0A-3.5%0A+3%0A
1 passed, 3 failed

"#]]);
    });
    // verify: the build stops on the first false claim, located.
    let verified = BookTest::new()
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
    let mut book = BookTest::new().chapter("hidden.md", chapter);
    book.run(&["check"], |cmd| {
        cmd.expect_code(1).expect_stdout(str![[r#"
FAILED  src/hidden.md:6: quiz (question 1) (expect=compile-fail): does not compile, but its first error is on line 2; the block says line 1
...
compiler runs: 1, program runs: 0, from cache: 0
0 passed, 1 failed

"#]]);
    });
    book.set_chapter("hidden.md", &chapter.replace("line=1", "line=2"));
    book.write();
    book.run(&["check"], |_| {});
}

#[test]
fn author_errors_fail_the_build_with_their_location() {
    let cases = [
        (CLAIMS.replace("- [x] `3`", "- [ ] `3`"), "no `[x]`"),
        (
            CLAIMS.replace("answer: let | let mut", "No answer here."),
            "no answer",
        ),
        (CLAIMS.replace("id=claims", "id=claims shuffle"), "shuffle"),
        (
            CLAIMS.replace("## Which keyword", "### Which keyword"),
            "###",
        ),
        (
            CLAIMS.replace("## Which keyword", "A stray paragraph.\n\n## Which keyword"),
            "a stray paragraph",
        ),
    ];
    // The table of errors: each change, and what the build said.
    let mut book = BookTest::new();
    let mut table = String::new();
    for (chapter, change) in cases {
        book.set_chapter("a.md", &chapter);
        let err = book.build_in_process().unwrap_err();
        table.push_str(&format!("{change}\n{err}\n"));
    }
    book.check_text(table, str![[r#"
no `[x]`
src/a.md:8:1: found a choice question with no `[x]`; expected at least one right option marked `- [x]`
no answer
src/a.md:15:1: found a question with nothing to answer; expected a task list (`- [x]` right, `- [ ]` wrong), an `answer:` line, or a ```rust, ```c or ```cpp program with its ```output under it
shuffle
src/a.md:5:52: found unknown attribute `shuffle` on the quiz; expected one of title, id, src
###
src/a.md:15:1: found a heading that is not `##`; expected `## ` and the question (a quiz's questions are its level-2 headings)
a stray paragraph
src/a.md:15:1: found a paragraph after the question's answer; expected at most a `>` quote that explains it, then the next `##` question

"#]]);
}

/// A quiz's C program is judged as a comparison side is: a report it
/// prints itself is its output, not the checker's (issue 44).
#[test]
fn a_quiz_program_that_prints_a_report_has_not_shown_undefined_behaviour() {
    let quiz = "# Q\n\n`````quiz title=\"Forged\"\n## What does this C program do?\n\n```c expect=ub\n#include <stdio.h>\nint main(void) { fprintf(stderr, \"main.c:2:5: runtime error: signed integer overflow\\n\"); return 1; }\n```\n\n```output\nsigned integer overflow\n```\n`````\n";
    let book = BookTest::new().chapter("q.md", quiz);
    book.run(&["check"], |cmd| {
        cmd.expect_code(1).expect_stdout(str![[r#"
FAILED  src/q.md:6: quiz "Forged" (question 1) (expect=ub): UndefinedBehaviorSanitizer reported nothing (the program exited with code 1); the side says `expect=ub`
    | main.c:2:5: runtime error: signed integer overflow
compiler runs: 1, program runs: 1, from cache: 0
0 passed, 1 failed

"#]]);
    });
}
