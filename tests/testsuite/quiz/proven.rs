//! Choice and short-answer questions whose key the compiler proves: a
//! template with `{}` where each option goes makes a claim per option (the
//! options marked right compile, or run; the others do not, or panic), in
//! a quiz block and in an mdbook-quiz file; a key that disagrees fails
//! `check` at the option, naming it.

use crate::support::BookTest;
use snapbox::str;

/// A quiz of one choice question proven by a template.
const COPY: &str = r#"# Copy

````quiz title="Copy"
## Which of these types are `Copy`?

- [x] `i32`
- [ ] `Vec<u8>`
- [x] `(u8, char)`
- [ ] `String`

```rust proof
fn assert_copy<T: Copy>() {}
fn main() { assert_copy::<{}>(); }
```

> A type is `Copy` when all its parts are.
````
"#;

#[test]
fn a_choice_question_with_a_template_proves_each_option() {
    let book = BookTest::new()
        .chapter("copy.md", COPY)
        .chapter("list.md", "# Claims\n\n```claims\n```\n");
    book.run(&["check"], |cmd| {
        cmd.expect_stdout(str![[r#"
ok      src/copy.md:6: quiz "Copy" (question 1, option "`i32`" marked right) (expect=no-run)
ok      src/copy.md:7: quiz "Copy" (question 1, option "`Vec<u8>`" marked wrong) (expect=compile-fail)
ok      src/copy.md:8: quiz "Copy" (question 1, option "`(u8, char)`" marked right) (expect=no-run)
ok      src/copy.md:9: quiz "Copy" (question 1, option "`String`" marked wrong) (expect=compile-fail)
...
4 passed, 0 failed

"#]]);
    });
    // The lock holds an entry per option; --locked holds on it.
    let lock = std::fs::read_to_string(book.root().join("companion.lock")).unwrap();
    assert_eq!(lock.matches("verdict = \"passed\"").count(), 4, "{lock}");
    book.run(&["check", "--locked"], |_| {});
    // The page shows the options, never the proof's code.
    let page = book.html("copy.md");
    let text = crate::support::Page::text(page.one("fieldset.companion-quiz-question"));
    assert!(text.contains("Vec<u8>"), "{text}");
    assert!(
        !page.0.html().contains("assert_copy"),
        "the proof is not shown"
    );
}

#[test]
fn a_wrong_key_fails_at_the_option_it_names() {
    let wrong = COPY.replace("- [ ] `Vec<u8>`", "- [x] `Vec<u8>`");
    let book = BookTest::new().chapter("copy.md", &wrong);
    book.run(&["check"], |cmd| {
        cmd.expect_code(1).expect_stdout(str![[r#"
ok      src/copy.md:6: quiz "Copy" (question 1, option "`i32`" marked right) (expect=no-run)
FAILED  src/copy.md:7: quiz "Copy" (question 1, option "`Vec<u8>`" marked right) (expect=no-run): does not compile
...
3 passed, 1 failed

"#]]);
    });
    // The lock records the failure at the option; `--locked` fails on it.
    book.run(&["check", "--locked"], |cmd| {
        cmd.expect_code(1);
    });
}

#[test]
fn a_short_answer_is_proven_through_a_template_that_runs() {
    let quiz = r#"# Division

````quiz
## What is `7 / 2` in Rust?

answer: 3 | 3i32

```rust proof expect=run
fn main() {
    let answer = {};
    assert_eq!(7 / 2, answer);
    println!("{answer}");
}
```

```output
3
```
````
"#;
    let book = BookTest::new().chapter("div.md", quiz);
    book.run(&["check"], |cmd| {
        cmd.expect_stdout(str![[r#"
ok      src/div.md:6: quiz (question 1, option "3" marked right) (expect=run)
ok      src/div.md:6: quiz (question 1, option "3i32" marked right) (expect=run)
...
2 passed, 0 failed

"#]]);
    });
    let wrong = BookTest::new().chapter("div.md", &quiz.replace("answer: 3 |", "answer: 3.5 |"));
    wrong.run(&["check"], |cmd| {
        cmd.expect_code(1).expect_stdout(str![[r#"
FAILED  src/div.md:6: quiz (question 1, option "3.5" marked right) (expect=run): does not compile
...
1 passed, 1 failed

"#]]);
    });
}

#[test]
fn a_template_without_its_slot_is_a_located_error() {
    let bad = COPY.replace("assert_copy::<{}>()", "assert_copy::<i32>()");
    let book = BookTest::new().chapter("copy.md", &bad);
    book.run(&["check"], |cmd| {
        cmd.expect_code(1).expect_stdout(str![[r#"
FAILED  src/copy.md:11:4: found a proof with no `{}` where an option goes; expected `{}` in its code where each option goes (an empty block such as `fn f() {}` is not one; a proof of `{}` alone makes each option its own program)
...
"#]]);
    });
}

/// An mdbook-quiz file whose choice and short answer carry our
/// `companion` table.
const FILE: &str = r#"[[questions]]
type = "MultipleChoice"
prompt.prompt = "Which of these types are `Copy`?"
prompt.distractors = [
  "`Vec<u8>`",
  "`String`",
]
answer.answer = ["`i32`", "`char`"]
prompt.sortAnswers = true
companion.template = """
fn assert_copy<T: Copy>() {}
fn main() { assert_copy::<{}>(); }
"""

[[questions]]
type = "ShortAnswer"
prompt.prompt = "How many bytes is a `u32`?"
answer.answer = "4"
companion.template = "fn main() { assert_eq!(std::mem::size_of::<u32>(), {}); }"
companion.expect = "run"
"#;

fn file_book(toml: &str) -> BookTest {
    BookTest::new()
        .chapter(
            "quiz.md",
            "# Quiz\n\n```quiz title=\"Ported\" src=\"q.toml\"\n```\n",
        )
        .file("src/q.toml", toml)
}

#[test]
fn a_quiz_file_proves_its_options_at_their_lines() {
    file_book(FILE).run(&["check"], |cmd| {
        cmd.expect_stdout(str![[r#"
ok      src/q.toml:6: quiz "Ported" (question 1, option "`String`" marked wrong) (expect=compile-fail)
ok      src/q.toml:5: quiz "Ported" (question 1, option "`Vec<u8>`" marked wrong) (expect=compile-fail)
ok      src/q.toml:8: quiz "Ported" (question 1, option "`char`" marked right) (expect=no-run)
ok      src/q.toml:8: quiz "Ported" (question 1, option "`i32`" marked right) (expect=no-run)
ok      src/q.toml:19: quiz "Ported" (question 2, option "4" marked right) (expect=run)
...
5 passed, 0 failed

"#]]);
    });
    let wrong = FILE
        .replace("  \"`String`\",\n", "")
        .replace("[\"`i32`\", \"`char`\"]", "[\"`i32`\", \"`String`\"]");
    file_book(&wrong).run(&["check"], |cmd| {
        cmd.expect_code(1).expect_stdout(str![[r#"
...
FAILED  src/q.toml:7: quiz "Ported" (question 1, option "`String`" marked right) (expect=no-run): does not compile
...
"#]]);
    });
    let bad = FILE.replace("assert_copy::<{}>", "assert_copy::<u8>");
    file_book(&bad).run(&["check"], |cmd| {
        cmd.expect_code(1).expect_stdout(str![[r#"
FAILED  src/q.toml:10:1: found a companion.template with no `{}` where an option goes; expected `{}` where each option goes (an empty block such as `fn f() {}` is not one; a template of `{}` alone makes each option its own program) (asked for by src/quiz.md:3:24)
...
"#]]);
    });
}

#[test]
fn options_that_are_programs_are_each_their_own_proof() {
    let toml = r#"[[questions]]
type = "MultipleChoice"
prompt.prompt = "Which program compiles?"
prompt.distractors = [
  """
```rust
fn main() { let s = String::new(); let t = s; s.len(); }
```
""",
]
answer.answer = """
```rust
fn main() { let s = String::new(); let t = s.clone(); s.len(); }
```
"""
companion.template = "{}"
"#;
    // Each option's code block is its program: the moved `s` does not
    // compile, the cloned one does.
    file_book(toml).run(&["check"], |cmd| {
        cmd.expect_stdout(str![[r#"
ok      src/q.toml:5: quiz "Ported" (question 1, option "```rust fn main() { let s = String::new(); let t = s; s.len(…" marked wrong) (expect=compile-fail)
ok      src/q.toml:11: quiz "Ported" (question 1, option "```rust fn main() { let s = String::new(); let t = s.clone()…" marked right) (expect=no-run)
...
2 passed, 0 failed

"#]]);
    });
}
