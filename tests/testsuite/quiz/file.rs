//! mdbook-quiz's TOML files (```quiz src="FILE"): every question type
//! read, each `Tracing` answer a claim placed at its line in the file, a
//! wrong one reported there; unknown types and keys located in the file;
//! paths stay inside the book.

use crate::support::{BIN, TestBook};
use std::process::Command;

const TALK: &str = include_str!("talk.toml");

fn check(book: &TestBook) -> (String, i32) {
    let out = Command::new(BIN)
        .arg("check")
        .arg(book.root())
        .output()
        .expect("run check");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

/// A book whose chapter `ch/quiz.md` reads `quizzes/talk.toml`.
fn book(toml: &str, src: &str) -> TestBook {
    TestBook::new()
        .chapter(
            "ch/quiz.md",
            &format!(
                "# From mdbook-quiz\n\n```quiz title=\"Ported\" src=\"{src}\"\n```\n\nAfter.\n"
            ),
        )
        .file("src/quizzes/talk.toml", toml)
}

fn line_of(text: &str, needle: &str, n: usize) -> usize {
    let at = text.match_indices(needle).nth(n).expect("needle").0;
    text[..at].lines().count() + 1
}

#[test]
fn tracing_answers_are_claims_at_their_line_in_the_file() {
    let b = book(TALK, "../quizzes/talk.toml");
    b.write();
    let (text, code) = check(&b);
    assert_eq!(code, 0, "{text}");
    for (n, expect) in [(0, "compile-fail"), (1, "run")] {
        let want = format!(
            "ok      src/quizzes/talk.toml:{}: quiz \"Ported\" (question {}) (expect={expect})",
            line_of(TALK, "answer.doesCompile", n),
            n + 3
        );
        assert!(text.lines().any(|l| l == want), "{want}\n{text}");
    }
    let page = b.html("ch/quiz.md");
    let kinds: Vec<&str> = page
        .all("fieldset.companion-quiz-question")
        .iter()
        .map(|q| q.value().attr("data-companion-kind").unwrap_or(""))
        .collect();
    assert_eq!(kinds, ["one", "text", "program", "program"]);
    // A wrong key: reported at its line in the file.
    let wrong = TALK
        .replace("answer.lineNumber = 4", "answer.lineNumber = 1")
        .replace("answer.stdout = \"6\"", "answer.stdout = \"7\"");
    let b = book(&wrong, "../quizzes/talk.toml");
    b.write();
    let (text, code) = check(&b);
    assert_eq!(code, 1, "{text}");
    for want in [
        format!(
            "FAILED  src/quizzes/talk.toml:{}: quiz \"Ported\" (question 3) (expect=compile-fail): does not compile, but its first error is on line 4 and labels line 2 (\"move occurs because `s` has type `String`, which does not implement the `Copy` trait\"), line 3 (\"value moved here\"); the block says line 1",
            line_of(&wrong, "answer.doesCompile", 0)
        ),
        format!(
            "FAILED  src/quizzes/talk.toml:{}: quiz \"Ported\" (question 4) (expect=run): the output differs from the output block",
            line_of(&wrong, "answer.doesCompile", 1)
        ),
    ] {
        assert!(text.lines().any(|l| l == want), "{want}\n{text}");
    }
}

#[test]
fn faults_of_the_file_are_located_in_it_and_paths_stay_in_the_book() {
    let cases = [
        (
            TALK.replace("\"ShortAnswer\"", "\"Essay\""),
            "../quizzes/talk.toml",
            "src/quizzes/talk.toml:10:1: found a question of type `Essay`; expected MultipleChoice, ShortAnswer or Tracing",
        ),
        (
            TALK.replace("id = \"division\"", "points = 1"),
            "../quizzes/talk.toml",
            "src/quizzes/talk.toml:2:1: found unknown key `points` in a question",
        ),
        (
            TALK.to_owned(),
            "../../../talk.toml",
            "src/ch/quiz.md:3:24: found src=\"../../../talk.toml\", a path outside the book's root; expected a quiz file inside the book (relative to this chapter)",
        ),
        (
            TALK.to_owned(),
            "missing.toml",
            "src/ch/quiz.md:3:24: found no readable mdbook-quiz file at src/ch/missing.toml",
        ),
    ];
    for (toml, src, want) in cases {
        let b = book(&toml, src);
        let err = b.build_in_process().unwrap_err();
        assert!(err.contains(want), "{want}\n{err}");
    }
}

#[test]
fn an_mdbook_quiz_link_reads_the_same_file() {
    // Escaped, as mdBook's `\\{{#include}}`: shown as written (in code
    // and out), no quiz.
    let chapter = "# Linked\n\nBefore.\n\n{{#quiz ../quizzes/talk.toml}}\n\n```text\n\\{{#quiz ../quizzes/talk.toml}}\n```\n\n\\{{#quiz ../quizzes/talk.toml}}\n\nAfter.\n";
    let b = TestBook::new()
        .chapter("ch/linked.md", chapter)
        .file("src/quizzes/talk.toml", TALK);
    b.write();
    let (text, code) = check(&b);
    assert_eq!(code, 0, "{text}");
    let want = format!(
        "ok      src/quizzes/talk.toml:{}: quiz (question 3) (expect=compile-fail)",
        line_of(TALK, "answer.doesCompile", 0)
    );
    assert!(text.lines().any(|l| l == want), "{want}\n{text}");
    assert_eq!(text.lines().last(), Some("2 passed, 0 failed"), "{text}");
    let page = b.html("ch/linked.md");
    assert_eq!(page.all("div.companion-quiz").len(), 1);
    assert_eq!(page.all("fieldset.companion-quiz-question").len(), 4);
    // The escaped link is shown as written, without its backslash; the
    // text around the quiz too.
    let code = crate::support::Page::text(page.one("code.language-text"));
    assert_eq!(code, "{{#quiz ../quizzes/talk.toml}}");
    let main = crate::support::Page::text(page.one("main"));
    assert!(main.starts_with("Linked Before."), "{main}");
    assert!(
        main.ends_with("{{#quiz ../quizzes/talk.toml}} After."),
        "{main}"
    );
}

/// A `Tracing` program's diagnostics name the quiz file's lines, in the
/// lock (what a Run button replays) as in the report.
#[test]
fn a_tracing_programs_diagnostics_name_the_quiz_files_lines() {
    let b = book(TALK, "../quizzes/talk.toml");
    b.write();
    let (text, code) = check(&b);
    assert_eq!(code, 0, "{text}");
    let lock = std::fs::read_to_string(b.root().join("companion.lock")).unwrap();
    let println = line_of(TALK, "    println!(\"{s} {t}\")", 0);
    assert!(
        lock.contains(&format!("--> src/quizzes/talk.toml:{println}:")),
        "{lock}"
    );
    assert!(!lock.contains("main.rs"), "{lock}");
}
