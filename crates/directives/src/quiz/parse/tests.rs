use super::*;
use crate::quiz::Behaviour;
use crate::testing::{config, located};
use pretty_assertions::assert_eq;

const GOOD: &str = r#"# Chapter

`````quiz title="Division" id=div
## What does `7 / 2` evaluate to?

Think of the types.

- [ ] `3.5`
- [x] `3`
  > Integer division truncates toward zero.
- [ ] It does not compile.

> Both operands are integers.

## Which keyword declares a variable?

answer: let | let mut

## Which are integer types?

- [x] `i32`
- [ ] `f64`
- [x] `u8`

## What does this program do?

```rust expect=panic
fn main() { let v = vec![1, 2, 3]; println!("{}", v[v.len()]); }
```

```output
index out of bounds: the len is 3 but the index is 3
```

## Does this compile?

```rust expect=compile-fail line=2
# #![allow(unused)]
let s = String::from("hi"); let t = s;
println!("{s}");
```

> A moved value cannot be used.

## What does this C do?

```c expect=ub
#include <limits.h>
~ #include <stdio.h>
int main(void) { int x = INT_MAX; x += 1; printf("%d\n", x); }
```

```output
signed integer overflow
```
`````
"#;

fn parsed(text: &str) -> Result<Quiz, String> {
    let blocks = markdown::scan(text, &[PATTERN]);
    let block = blocks.first().expect("a quiz block");
    parse_body(block, text, &config()).map_err(|p| located(text, &p))
}

#[test]
fn every_kind_of_question_fills_the_model() {
    let quiz = parsed(GOOD).unwrap();
    assert_eq!(quiz.title.as_deref(), Some("Division"));
    assert_eq!(quiz.id.as_ref().unwrap().0, "div");
    assert_eq!(quiz.questions.len(), 6);
    let q = &quiz.questions[0];
    assert_eq!(q.prompt.text, "What does `7 / 2` evaluate to?");
    assert_eq!(&GOOD[q.prompt.at..][..9], "What does");
    assert_eq!(q.body[0].text, "Think of the types.");
    let Answer::Choices(c) = &q.answer else {
        panic!("choices")
    };
    let got: Vec<(&str, bool, Option<&str>)> = c
        .iter()
        .map(|c| {
            (
                c.text.text.as_str(),
                c.right,
                c.why.as_ref().map(|w| w.text.as_str()),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("`3.5`", false, None),
            ("`3`", true, Some("Integer division truncates toward zero.")),
            ("It does not compile.", false, None),
        ]
    );
    assert_eq!(&GOOD[c[1].text.at..][..3], "`3`");
    assert_eq!(&GOOD[c[1].why.as_ref().unwrap().at..][..7], "Integer");
    assert_eq!(q.why.as_ref().unwrap().text, "Both operands are integers.");
    assert!(!q.all_that_apply());
    assert_eq!(
        quiz.questions[1].answer,
        Answer::Text {
            accepted: vec!["let".into(), "let mut".into()],
            at: GOOD.find("answer: let").unwrap(),
        }
    );
    assert!(quiz.questions[2].all_that_apply());
    let program = |i: usize| match &quiz.questions[i].answer {
        Answer::Program(p) => p.clone(),
        other => panic!("not a program: {other:?}"),
    };
    let panics = program(3);
    assert_eq!(panics.outcome(), Behaviour::Panics);
    assert_eq!(
        panics.output.as_deref(),
        Some("index out of bounds: the len is 3 but the index is 3\n")
    );
    let fails = program(4);
    assert_eq!(fails.outcome(), Behaviour::DoesNotCompile);
    assert_eq!(fails.line, Some(2));
    // The hidden attribute line stays on top; `fn main` opens line 2.
    assert_eq!(fails.shown_lines, [3, 4]);
    assert_eq!(
        quiz.questions[4].why.as_ref().unwrap().text,
        "A moved value cannot be used."
    );
    let ub = program(5);
    assert_eq!((ub.lang, ub.outcome()), (Lang::C, Behaviour::Undefined));
    assert_eq!(ub.shown_lines, [1, 3]);
    assert!(ub.source.contains("#include <stdio.h>"));
    assert!(!ub.shown.contains("stdio"));
    assert_eq!(quiz.hash.len(), 16);
}

#[test]
fn a_quiz_edited_gets_another_hash() {
    let a = parsed(GOOD).unwrap().hash;
    let b = parsed(&GOOD.replace("let mut", "mut")).unwrap().hash;
    assert_ne!(a, b);
}

#[test]
fn author_errors_are_located_and_name_what_was_expected() {
    let cases = [
        (
            GOOD.replace("- [x] `3`", "- [ ] `3`"),
            "src/a.md:8:1: found a choice question with no `[x]`; expected at least one right option marked `- [x]`",
        ),
        (
            GOOD.replace("answer: let | let mut", "Just text."),
            "src/a.md:15:1: found a question with nothing to answer; expected a task list (`- [x]` right, `- [ ]` wrong), an `answer:` line, or a ```rust, ```c or ```cpp program with its ```output under it",
        ),
        (
            GOOD.replace("title=\"Division\"", "title=\"Division\" colour=red"),
            "src/a.md:3:28: found unknown attribute `colour` on the quiz; expected one of title, id",
        ),
        (
            GOOD.replace("```rust expect=panic", "```rust expect=panic colour=red"),
            "src/a.md:27:22: found unknown attribute `colour`; expected one of title, id, expect, error, edition, mode",
        ),
        (
            GOOD.replace("```rust expect=panic", "```rust expect=no-run"),
            "src/a.md:27:9: found `expect` on a quiz's program; expected expect=run, expect=panic or expect=compile-fail (what the reader predicts, and the build proves)",
        ),
        (
            GOOD.replace(" line=2", ""),
            "src/a.md:37:4: found `expect=compile-fail` without `line`; expected `line=N`, the line (from 1, as the reader sees the code) of the compiler's first error",
        ),
        (
            GOOD.replace("line=2", "line=9"),
            "src/a.md:37:29: found line=9 in a program the reader sees 2 lines of; expected a line the reader can see",
        ),
        (
            GOOD.replace("```c expect=ub", "```c expect=ub line=1"),
            "src/a.md:47:16: found `line` on a program that compiles; expected it only with expect=compile-fail",
        ),
        (
            GOOD.replace(
                "answer: let | let mut",
                "answer: let | let mut\n\nMore text.",
            ),
            "src/a.md:19:1: found a paragraph after the question's answer; expected at most a `>` quote that explains it, then the next `##` question",
        ),
        (
            GOOD.replace("## What does `7 / 2`", "Intro.\n\n## What does `7 / 2`"),
            "src/a.md:4:1: found a paragraph before the first question; expected a `##` heading that asks it",
        ),
        (
            GOOD.replace("## Which keyword", "### Which keyword"),
            "src/a.md:15:1: found a heading that is not `##`; expected `## ` and the question (a quiz's questions are its level-2 headings)",
        ),
        (
            GOOD.replace("- [ ] `f64`", "- `f64`"),
            "src/a.md:22:1: found an option without `[ ]` or `[x]` in a task list; expected every option to say whether it is right",
        ),
        (
            GOOD.replace("```c expect=ub", "```c expect=ub colour=red"),
            "src/a.md:47:16: found unknown attribute `colour` on a quiz's `c` program; expected one of expect, line, sanitize, asm, asm-syntax, flags, warnings",
        ),
        (
            GOOD.replace("```output\nsignal", "x")
                .replace("```rust expect=panic", "```rust")
                .replace(
                    "```output\nindex out of bounds: the len is 3 but the index is 3\n```\n",
                    "",
                ),
            "src/a.md:27:4: found a program question with no ```output block; expected what the program prints right after it (the reader's answer is compared with it, and the build proves it)",
        ),
        (
            "`````quiz\n`````\n".to_owned(),
            "src/a.md:1:6: found no question in the quiz; expected `##` headings, each with a task list (`- [x]` right, `- [ ]` wrong), an `answer:` line, or a ```rust, ```c or ```cpp program with its ```output",
        ),
    ];
    for (text, want) in cases {
        let got = parsed(&text).unwrap_err();
        assert!(got.starts_with(want), "{text}\ngot:  {got}\nwant: {want}");
    }
}

#[test]
fn a_printed_output_the_reader_predicts_is_literal() {
    let prints = GOOD.replace("```rust expect=panic", "```rust");
    let cases = [
        (
            prints.replace("the len is 3 but", "the len is [..] but"),
            "src/a.md:31:4: found a pattern (`[..]` or a `...` line) in the output a quiz's reader predicts; expected the exact output (the reader's page compares the reader's answer with it literally",
        ),
        (
            prints.replace(
                "```output\nindex out of bounds",
                "```output\n...\nindex out of bounds",
            ),
            "src/a.md:31:4: found a pattern",
        ),
        (
            prints.replace(
                "```output\nindex out of bounds",
                "```output unordered\nindex out of bounds",
            ),
            "src/a.md:31:4: found ```output unordered on a quiz's program; expected its output in the one order it is printed",
        ),
    ];
    for (text, want) in cases {
        let got = parsed(&text).unwrap_err();
        assert!(got.starts_with(want), "got:  {got}\nwant: {want}");
    }
    // A panic's message is found in what the program wrote, as the
    // build finds it; the page compares only the outcome.
    let panics = GOOD.replace("the len is 3 but", "the len is [..] but");
    assert!(parsed(&panics).is_ok());
}

#[test]
fn a_rust_fence_before_a_task_list_is_part_of_the_prompt() {
    let text = "`````quiz\n## What does it print?\n\n```rust\nfn main() { print!(\"1\"); }\n```\n\n- [x] 1\n- [ ] 2\n`````\n";
    let quiz = parsed(text).unwrap();
    assert!(matches!(quiz.questions[0].answer, Answer::Choices(_)));
    assert!(quiz.questions[0].body[0].text.starts_with("```rust"));
}

#[test]
fn inside_a_list_offsets_keep_the_indent() {
    let text: String = GOOD
        .lines()
        .enumerate()
        .map(|(i, l)| match (i, l.is_empty()) {
            (0..=1, _) => format!("{l}\n"),
            (2, _) => format!("- {l}\n"),
            (_, true) => "\n".to_owned(),
            _ => format!("  {l}\n"),
        })
        .collect();
    let quiz = parsed(&text).unwrap();
    let Answer::Choices(c) = &quiz.questions[0].answer else {
        panic!("choices")
    };
    assert_eq!(&text[c[1].text.at..][..3], "`3`");
    let bad = text.replace("line=2", "line=9");
    assert!(
        parsed(&bad)
            .unwrap_err()
            .starts_with("src/a.md:37:31: found line=9")
    );
}
