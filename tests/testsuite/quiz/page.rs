//! A quiz on the page through real mdBook: real inputs, each labelled;
//! no answer or explanation in the text a reader sees before checking
//! (only in the closed disclosure and the `data-` key); hostile Markdown
//! shown as text; the text around the block untouched; `print-answers`
//! marks the quiz printed; other renderers get the questions without the
//! answers.

use super::check::CLAIMS;
use crate::support::{BookTest, Page, inside};
use scraper::ElementRef;

/// The text of `el` outside its `details.companion-quiz-answer`.
fn visible(el: ElementRef<'_>) -> String {
    let mut out = String::new();
    for node in el.descendants() {
        if let Some(text) = node.value().as_text() {
            let hidden = node.ancestors().any(|a| {
                ElementRef::wrap(a).is_some_and(|e| {
                    e.value().name() == "details"
                        && e.value().classes().any(|c| c == "companion-quiz-answer")
                })
            });
            if !hidden {
                out.push_str(text);
            }
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn every_question_has_labelled_inputs_and_no_visible_answer() {
    let book = BookTest::new().chapter("claims.md", CLAIMS);
    let page = book.html("claims.md");
    let quiz = page.one("div.companion-quiz");
    assert_eq!(quiz.value().attr("id"), Some("claims"));
    let header = Page::text(page.one(".companion-quiz .companion-header"));
    assert_eq!(header, "Quiz 1.1Division and ownership");
    let kinds: Vec<&str> = page
        .all("fieldset.companion-quiz-question")
        .iter()
        .map(|q| q.value().attr("data-companion-kind").unwrap_or(""))
        .collect();
    assert_eq!(
        kinds,
        [
            "one", "text", "all", "program", "program", "program", "program"
        ]
    );
    // Every input is inside a label or named by aria-label.
    let inputs = page.all(".companion-quiz input, .companion-quiz textarea");
    assert!(inputs.len() > 20, "{}", inputs.len());
    for input in &inputs {
        let labelled = input.value().attr("aria-label").is_some()
            || input
                .ancestors()
                .any(|a| ElementRef::wrap(a).is_some_and(|e| e.value().name() == "label"));
        assert!(labelled, "{:?}", input.value());
    }
    let types: Vec<&str> = inside(page.all("fieldset.companion-quiz-question")[0], "input")
        .iter()
        .map(|i| i.value().attr("type").unwrap_or(""))
        .collect();
    assert_eq!(types, ["radio"; 3]);
    let types: Vec<&str> = inside(page.all("fieldset.companion-quiz-question")[2], "input")
        .iter()
        .map(|i| i.value().attr("type").unwrap_or(""))
        .collect();
    assert_eq!(types, ["checkbox"; 3]);
    // A Rust program offers Panics; a C program Undefined behaviour.
    let outcomes = |i: usize| -> Vec<String> {
        inside(
            page.all("fieldset.companion-quiz-question")[i],
            "input[type=radio]",
        )
        .iter()
        .map(|r| r.value().attr("value").unwrap_or("").to_owned())
        .collect()
    };
    assert_eq!(outcomes(3), ["prints", "panics", "compile-fail"]);
    assert_eq!(outcomes(5), ["prints", "compile-fail", "ub"]);
    // What the reader sees before checking holds no answer and no
    // explanation; the disclosure holds them.
    let seen = visible(quiz);
    for secret in [
        "Integer division truncates",
        "Both operands",
        "index out of bounds",
        "the first error is on line 3",
        "moved into",
        "signed integer overflow",
        "The right answer",
        "Accepted answers",
    ] {
        assert!(!seen.contains(secret), "{secret} is visible: {seen}");
    }
    let shown = page.answers_shown();
    let answers: String = shown
        .all("details.companion-quiz-answer")
        .iter()
        .map(|d| Page::text(*d))
        .collect();
    for said in [
        "Integer division truncates toward zero.",
        "Accepted answers: let, let mut",
        "It panics: index out of bounds",
        "It does not compile: the first error is on line 3.",
        "It prints: 3",
        "signed integer overflow",
    ] {
        assert!(answers.contains(said), "{said}: {answers}");
    }
    // The text around the block is left as written.
    let main = Page::text(page.one("main"));
    assert!(
        main.starts_with("What the compiler proves A quiz on the talk"),
        "{main}"
    );
    assert!(main.ends_with("After the quiz."), "{main}");
    // The C program's hidden line is hidden; the Rust program stays a
    // Rust block mdBook does not send to the Playground.
    let code: Vec<String> = page
        .all(".companion-quiz pre code")
        .iter()
        .map(|c| Page::text(*c))
        .collect();
    assert!(
        code.iter()
            .all(|c| !c.contains("limits.h") || c.contains("INT_MAX")),
        "{code:?}"
    );
    assert!(
        page.all(".companion-quiz code.language-rust.noplayground")
            .len()
            == 2
    );
}

#[test]
fn hostile_markdown_in_prompts_and_options_is_shown_as_text() {
    let chapter = "# Hostile\n\n`````quiz title=\"<b>bold</b>\"\n## <script>alert(1)</script> What?\n\n<img src=x onerror=alert(2)>\n\n- [x] <iframe src=\"https://example.org\"></iframe>\n  > <script>alert(3)</script>\n- [ ] [a link](javascript:alert(4))\n`````\n";
    let book = BookTest::new().chapter("h.md", chapter);
    let err = book.build_in_process().unwrap_err();
    assert!(
        err.contains("found a link to `javascript:alert(4)`"),
        "{err}"
    );
    let chapter = chapter.replace("[a link](javascript:alert(4))", "plain");
    let book = BookTest::new().chapter("h.md", &chapter);
    let page = book.html("h.md");
    let quiz = page.one("div.companion-quiz");
    for tag in ["script", "img", "iframe", "b"] {
        assert!(inside(quiz, tag).is_empty(), "a <{tag}> in the quiz");
    }
    let text = Page::text(quiz);
    assert!(text.contains("<script>alert(1)</script> What?"), "{text}");
    assert!(text.contains("<img src=x onerror=alert(2)>"), "{text}");
    assert!(text.contains("<b>bold</b>"), "{text}");
}

#[test]
fn print_answers_marks_the_quiz_printed_and_other_renderers_hide_answers() {
    let book = BookTest::new().chapter("claims.md", CLAIMS);
    let page = book.html("claims.md");
    assert!(page.all(".companion-quiz-printed").is_empty());
    let book = BookTest::new()
        .companion("print-answers = true")
        .chapter("claims.md", CLAIMS);
    let page = book.html("claims.md");
    assert_eq!(
        page.all("div.companion-quiz.companion-quiz-printed").len(),
        1
    );
    // The markdown renderer: questions and options, no answer.
    let book = BookTest::new()
        .toml("[output.html]\n[output.markdown]\n")
        .chapter("claims.md", CLAIMS);
    book.build().unwrap();
    let md = std::fs::read_to_string(book.output_dir("markdown").join("claims.md")).unwrap();
    assert!(md.contains("**Quiz 1.1 — Division and ownership**"), "{md}");
    assert!(md.contains("- [ ] `3`"), "{md}");
    assert!(!md.contains("[x]"), "{md}");
    assert!(!md.contains("Integer division truncates"), "{md}");
    assert!(md.contains("After the quiz."), "{md}");
}
