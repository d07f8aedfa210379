//! mdbook-quiz's TOML files (```quiz src="FILE"): every question type
//! read, each `Tracing` answer a claim placed at its line in the file, a
//! wrong one reported there; unknown types and keys located in the file;
//! paths stay inside the book.

use crate::support::BookTest;
use snapbox::str;

const TALK: &str = include_str!("talk.toml");

/// The chapter `ch/quiz.md`, whose quiz reads the file at `src`.
fn quiz_chapter(src: &str) -> String {
    format!("# From mdbook-quiz\n\n```quiz title=\"Ported\" src=\"{src}\"\n```\n\nAfter.\n")
}

/// A book whose chapter `ch/quiz.md` reads `quizzes/talk.toml`.
fn book(toml: &str, src: &str) -> BookTest {
    BookTest::new()
        .chapter("ch/quiz.md", &quiz_chapter(src))
        .file("src/quizzes/talk.toml", toml)
}

fn line_of(text: &str, needle: &str, n: usize) -> usize {
    let at = text.match_indices(needle).nth(n).expect("needle").0;
    text[..at].lines().count() + 1
}

#[test]
fn tracing_answers_are_claims_at_their_line_in_the_file() {
    let b = book(TALK, "../quizzes/talk.toml");
    b.run(&["check"], |cmd| {
        cmd.expect_stdout(str![[r#"
ok      src/quizzes/talk.toml:24: quiz "Ported" (question 3) (expect=compile-fail)
ok      src/quizzes/talk.toml:37: quiz "Ported" (question 4) (expect=run)
compiler runs: 2, program runs: 1, from cache: 0
2 passed, 0 failed

"#]]);
    });
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
    b.run(&["check"], |cmd| {
        cmd.expect_code(1).expect_stdout(str![[r#"
FAILED  src/quizzes/talk.toml:24: quiz "Ported" (question 3) (expect=compile-fail): does not compile, but its first error is on line 4 and labels line 2 ("move occurs because `s` has type `String`, which does not implement the `Copy` trait"), line 3 ("value moved here"); the block says line 1
...
FAILED  src/quizzes/talk.toml:37: quiz "Ported" (question 4) (expect=run): the output differs from the output block
    --- expected
    +++ actual
    @@ -1 +1 @@
    -7
    +6
compiler runs: 3, program runs: 2, from cache: 0
0 passed, 2 failed

"#]]);
    });
}

#[test]
fn faults_of_the_file_are_located_in_it_and_paths_stay_in_the_book() {
    let cases = [
        (
            TALK.replace("\"ShortAnswer\"", "\"Essay\""),
            "../quizzes/talk.toml",
            "(a ShortAnswer becomes an Essay)",
        ),
        (
            TALK.replace("id = \"division\"", "points = 1"),
            "../quizzes/talk.toml",
            "(an id becomes points)",
        ),
        (TALK.to_owned(), "../../../talk.toml", ""),
        (TALK.to_owned(), "missing.toml", ""),
    ];
    // The table of errors: each case's `src`, the file's first change,
    // and what the build said.
    let mut b = book(TALK, "../quizzes/talk.toml");
    let mut table = String::new();
    for (toml, src, change) in cases {
        b.set_chapter("ch/quiz.md", &quiz_chapter(src));
        std::fs::write(b.root().join("src/quizzes/talk.toml"), &toml).expect("quiz file");
        let err = b.build_in_process().unwrap_err();
        table.push_str(&format!("src=\"{src}\" {change}\n{err}\n"));
    }
    b.check_text(table, str![[r#"
src="../quizzes/talk.toml" (a ShortAnswer becomes an Essay)
src/quizzes/talk.toml:10:1: found a question of type `Essay`; expected MultipleChoice, ShortAnswer or Tracing (asked for by src/ch/quiz.md:3:24)
src="../quizzes/talk.toml" (an id becomes points)
src/quizzes/talk.toml:2:1: found unknown key `points` in a question; expected one of type, id, multipart, prompt, answer, context, promptExplanation, companion (asked for by src/ch/quiz.md:3:24)
src="../../../talk.toml" 
src/ch/quiz.md:3:24: found src="../../../talk.toml", a path outside the book's root; expected a quiz file inside the book (relative to this chapter)
src="missing.toml" 
src/ch/quiz.md:3:24: found no readable mdbook-quiz file at src/ch/missing.toml (No such file or directory (os error 2)); expected a TOML file of [[questions]] tables there, or a `src` path in [preprocessor.companion] of book.toml, or [[questions]] tables in this block's body

"#]]);
}

#[test]
fn an_mdbook_quiz_link_reads_the_same_file() {
    // Escaped, as mdBook's `\\{{#include}}`: shown as written (in code
    // and out), no quiz.
    let chapter = "# Linked\n\nBefore.\n\n{{#quiz ../quizzes/talk.toml}}\n\n```text\n\\{{#quiz ../quizzes/talk.toml}}\n```\n\n\\{{#quiz ../quizzes/talk.toml}}\n\nAfter.\n";
    let b = BookTest::new()
        .chapter("ch/linked.md", chapter)
        .file("src/quizzes/talk.toml", TALK);
    b.run(&["check"], |cmd| {
        cmd.expect_stdout(str![[r#"
ok      src/quizzes/talk.toml:24: quiz (question 3) (expect=compile-fail)
ok      src/quizzes/talk.toml:37: quiz (question 4) (expect=run)
compiler runs: 2, program runs: 1, from cache: 0
2 passed, 0 failed

"#]]);
    });
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
    b.run(&["check"], |_| {});
    let lock = std::fs::read_to_string(b.root().join("companion.lock")).unwrap();
    let println = line_of(TALK, "    println!(\"{s} {t}\")", 0);
    assert!(
        lock.contains(&format!("--> src/quizzes/talk.toml:{println}:")),
        "{lock}"
    );
    assert!(!lock.contains("main.rs"), "{lock}");
}

/// A quiz file's answers are kept by the page under a key of the file's
/// text, as a quiz in a block is under its own: the same text, the same
/// key whatever our code makes of it (it was a hash of the parsed
/// questions' debug text, which changed when a type of ours was renamed,
/// and readers' answers were lost); a changed file, a new key.
#[test]
fn a_quiz_files_answers_are_kept_under_a_key_of_its_text() {
    let key = |toml: &str| {
        let page = book(toml, "../quizzes/talk.toml").html("ch/quiz.md");
        let quiz = page.all("div.companion-quiz");
        quiz[0]
            .value()
            .attr("data-companion-quiz")
            .expect("a key")
            .to_owned()
    };
    let text_key = |toml: &str| {
        mdbook_companion_core::hash::key(&[b"quiz-file", toml.as_bytes()])[..16].to_owned()
    };
    assert_eq!(key(TALK), text_key(TALK));
    let edited = format!("{TALK}\n# edited\n");
    assert_eq!(key(&edited), text_key(&edited));
    assert_ne!(key(&edited), key(TALK));
}
