//! A book laid out as the course book mdbook-quiz was made for: its quiz
//! files in `quizzes/` beside `src/`, each chapter `{{#quiz
//! ../quizzes/…}}`; a path out of the book's root refused. A Tracing key
//! holds on any line the compiler's first error labels, and the claims
//! page and the reader's page say which label it is; a key on a line the
//! error does not label fails naming the labelled lines.

use crate::support::{BookTest, Page};
use snapbox::str;

const OWNERSHIP: &str = include_str!("course/ch04-01-ownership.toml");
const REFERENCES: &str = include_str!("course/ch04-02-references.toml");

/// The line of the `n`-th `needle` (from 0) in `text`.
fn line_of(text: &str, needle: &str, n: usize) -> usize {
    let at = text.match_indices(needle).nth(n).expect("needle").0;
    text[..at].lines().count() + 1
}

/// The course book's layout: quizzes beside `src`, linked from chapters,
/// and a claims page.
fn course(ownership: &str) -> BookTest {
    BookTest::new()
        .chapter(
            "ch04-01-ownership.md",
            "# What is ownership?\n\nOwnership is Rust's way of managing memory.\n\n{{#quiz ../quizzes/ch04-01-ownership.toml}}\n",
        )
        .chapter(
            "ch04-02-references.md",
            "# References and borrowing\n\n```quiz src=\"../quizzes/ch04-02-references.toml\"\n```\n",
        )
        .chapter("claims.md", "# Claims\n\n```claims\n```\n")
        .file("quizzes/ch04-01-ownership.toml", ownership)
        .file("quizzes/ch04-02-references.toml", REFERENCES)
}

#[test]
fn a_book_laid_out_as_the_course_book_builds_and_checks() {
    let b = course(OWNERSHIP);
    b.run(&["check"], |cmd| {
        cmd.expect_stdout(str![[r#"
ok      quizzes/ch04-01-ownership.toml:15: quiz (question 1) (expect=compile-fail)
ok      quizzes/ch04-01-ownership.toml:29: quiz (question 2) (expect=run)
compiler runs: 2, program runs: 1, from cache: 0
2 passed, 0 failed

"#]]);
    });
    b.run(&["check", "--locked"], |_| {});
    b.build().unwrap();
    let page = b.page("ch04-01-ownership.md");
    assert_eq!(page.all("fieldset.companion-quiz-question").len(), 2);
    let page = b.page("ch04-02-references.md");
    assert_eq!(page.all("fieldset.companion-quiz-question").len(), 3);
}

#[test]
fn a_quiz_file_outside_the_books_root_is_refused() {
    let outside = tempfile::tempdir().expect("tempdir");
    std::fs::write(outside.path().join("q.toml"), REFERENCES).expect("write");
    for (link, want) in [
        (
            "../../quizzes/ch04-01-ownership.toml",
            "src/ch04-01-ownership.md:5:6: found src=\"../../quizzes/ch04-01-ownership.toml\", a path outside the book's root; expected a quiz file inside the book (relative to this chapter)".to_owned(),
        ),
        (
            "../quizzes/leaves.toml",
            format!(
                "src/ch04-01-ownership.md:5:6: found quizzes/leaves.toml pointing outside the book's root (to {})",
                outside.path().canonicalize().unwrap().join("q.toml").display()
            ),
        ),
    ] {
        let mut b = course(OWNERSHIP);
        b.set_chapter(
            "ch04-01-ownership.md",
            &format!("# What is ownership?\n\nOwnership.\n\n{{{{#quiz {link}}}}}\n"),
        );
        std::os::unix::fs::symlink(
            outside.path().join("q.toml"),
            b.root().join("quizzes/leaves.toml"),
        )
        .expect("symlink");
        let err = b.build_in_process().unwrap_err();
        assert!(err.contains(&want), "{want}\n{err}");
    }
}

/// The ownership quiz in `src/`, with a claims page.
fn in_src(ownership: &str) -> BookTest {
    BookTest::new()
        .chapter("ownership.md", "# Ownership\n\n{{#quiz ownership.toml}}\n")
        .chapter("claims.md", "# Claims\n\n```claims\n```\n")
        .file("src/ownership.toml", ownership)
}

#[test]
fn a_tracing_key_on_a_secondary_label_holds_and_the_pages_name_it() {
    // The key says line 5, where rustc's first error says "immutable
    // borrow later used here"; its primary line is 4.
    let b = in_src(OWNERSHIP);
    b.run(&["check"], |cmd| {
        cmd.expect_stdout(str![[r#"
ok      src/ownership.toml:15: quiz (question 1) (expect=compile-fail)
ok      src/ownership.toml:29: quiz (question 2) (expect=run)
compiler runs: 2, program runs: 1, from cache: 0
2 passed, 0 failed

"#]]);
    });
    b.build().unwrap();
    let claims = b.page("claims.md");
    let row = Page::text(claims.all("tr.companion-claim")[0]);
    assert!(
        row.contains("Answer key: line 5 (immutable borrow later used here)Holds"),
        "{row}"
    );
    // The reader's page takes every labelled line as right, and says
    // which label each is once answered.
    let page = b.page("ownership.md");
    let q = page.all("fieldset.companion-quiz-question")[0];
    let key: serde_json::Value =
        serde_json::from_str(q.value().attr("data-companion-key").unwrap()).unwrap();
    assert_eq!(key["line"], 5, "{key}");
    assert_eq!(key["lines"], serde_json::json!([4, 3, 5]), "{key}");
    let answer = crate::support::inside(q, "details.companion-quiz-answer")[0]
        .value()
        .attr("data-companion-answer")
        .unwrap()
        .to_owned();
    for words in [
        "line 4: mutable borrow occurs here",
        "line 3: immutable borrow occurs here",
        "line 5: immutable borrow later used here",
    ] {
        assert!(answer.contains(words), "{words}\n{answer}");
    }
}

#[test]
fn a_key_on_a_line_the_error_does_not_label_fails_naming_the_labelled_lines() {
    let wrong = OWNERSHIP.replace("answer.lineNumber = 5", "answer.lineNumber = 2");
    let b = in_src(&wrong);
    b.run(&["check"], |cmd| {
        cmd.expect_code(1).expect_stdout(str![[r#"
FAILED  src/ownership.toml:15: quiz (question 1) (expect=compile-fail): does not compile, but its first error is on line 4 and labels line 3 ("immutable borrow occurs here"), line 5 ("immutable borrow later used here"); the block says line 2
...
ok      src/ownership.toml:29: quiz (question 2) (expect=run)
compiler runs: 2, program runs: 1, from cache: 0
1 passed, 1 failed

"#]]);
    });
    // Nothing recorded: the page takes the key's own line only.
    b.build().unwrap();
    let page = b.page("ownership.md");
    let q = page.all("fieldset.companion-quiz-question")[0];
    let key: serde_json::Value =
        serde_json::from_str(q.value().attr("data-companion-key").unwrap()).unwrap();
    assert_eq!(key["lines"], serde_json::json!([2]), "{key}");
}

#[test]
fn bless_writes_a_stale_tracing_answer_into_the_quiz_file_keeping_its_comments() {
    // Both answers stale: a line the error does not label, and an old
    // output. The file is beside `src/`, where the chapter names it.
    let stale = OWNERSHIP
        .replace("answer.lineNumber = 5", "answer.lineNumber = 2")
        .replace("answer.stdout = \"5\"", "answer.stdout = \"five\"");
    let b = course(&stale);
    b.run(&["check", "--bless"], |cmd| {
        cmd.expect_stdout(str![[r#"
ok      quizzes/ch04-01-ownership.toml:15: quiz (question 1) (expect=compile-fail)
ok      quizzes/ch04-01-ownership.toml:29: quiz (question 2) (expect=run)
bless: quizzes/ch04-01-ownership.toml:15: blessed the quiz's answer (answer.doesCompile = false, answer.lineNumber = 4)
bless: quizzes/ch04-01-ownership.toml:29: blessed the quiz's answer (answer.doesCompile = true, answer.stdout)
compiler runs: 3, program runs: 2, from cache: 0
2 passed, 0 failed

"#]]);
    });
    // Only the answers changed: comments, order and layout are the file's.
    let written = std::fs::read_to_string(b.root().join("quizzes/ch04-01-ownership.toml")).unwrap();
    assert_eq!(
        written,
        OWNERSHIP.replace("answer.lineNumber = 5", "answer.lineNumber = 4")
    );
    b.run(&["check", "--locked"], |_| {});
    // A program that compiles, keyed as one that does not: its output is
    // found and written, its line key removed.
    let flipped = OWNERSHIP.replace("    v.push(4);\n", "    v.len();\n");
    let b = course(&flipped);
    let text = b.run(&["check", "--bless"], |_| {}).stdout;
    let written = std::fs::read_to_string(b.root().join("quizzes/ch04-01-ownership.toml")).unwrap();
    assert_eq!(
        written,
        flipped.replace(
            "answer.doesCompile = false\n# The line a learner points at: where the borrow is used later.\nanswer.lineNumber = 5\n",
            "answer.doesCompile = true\n# The line a learner points at: where the borrow is used later.\nanswer.stdout = \"1\"\n"
        ),
        "{text}"
    );
    b.run(&["check", "--locked"], |_| {});
}

#[test]
fn mdbook_quiz_options_that_are_code_stay_code_and_ids_are_anchors() {
    let b = course(OWNERSHIP);
    let page = b.html("ch04-02-references.md");
    let qs = page.all("fieldset.companion-quiz-question");
    // `id`: each question's anchor.
    let ids: Vec<&str> = qs
        .iter()
        .map(|q| q.value().attr("id").unwrap_or(""))
        .collect();
    assert_eq!(ids, ["which-moves", "integer-kinds", ""]);
    // Code options are code blocks, in the order `answerIndex` asks (the
    // answer second).
    let options = crate::support::inside(qs[0], "label.companion-quiz-option");
    let codes: Vec<String> = options
        .iter()
        .map(|o| {
            let code =
                crate::support::inside(*o, "pre.companion-quiz-option-code > code[data-lang=rust]");
            assert_eq!(code.len(), 1, "{}", o.html());
            // Its line ends kept.
            code[0].text().collect::<String>()
        })
        .collect();
    assert_eq!(
        codes,
        [
            "let t = &s;",
            "let t = s;\nprintln!(\"{t}\");",
            "let n = s.len();"
        ]
    );
    let key = qs[0].value().attr("data-companion-key").unwrap();
    assert_eq!(key, "{\"right\":[1]}");
    // `sortAnswers`: the options sorted, the answers found there.
    let sorted: Vec<String> = crate::support::inside(qs[1], "label.companion-quiz-option")
        .iter()
        .map(|o| Page::text(*o))
        .collect();
    assert_eq!(sorted, ["char", "f64", "i32", "u8"]);
    assert_eq!(
        qs[1].value().attr("data-companion-key").unwrap(),
        "{\"right\":[2,3]}"
    );
    // `context`: the explanation, shown once the reader answers, never
    // before.
    let answer = crate::support::inside(qs[0], "details.companion-quiz-answer")[0]
        .value()
        .attr("data-companion-answer")
        .unwrap()
        .to_owned();
    assert!(
        answer.contains("Assigning a <code>String</code> moves it"),
        "{answer}"
    );
    assert!(
        answer.contains("<pre class=\"companion-quiz-option-code\">"),
        "{answer}"
    );
    let main = Page::text(page.one("main"));
    assert!(!main.contains("Assigning"), "{main}");
}
