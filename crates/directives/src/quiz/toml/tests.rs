use super::*;
use crate::testing::config;
use mdbook_companion_core::expect::Expect;
use pretty_assertions::assert_eq;

const FILE: &str = r#"[[questions]]
id = "q1"
type = "MultipleChoice"
prompt.prompt = "What is `7 / 2` in Rust?"
prompt.distractors = ["3.5", "4"]
answer.answer = "3"
context = "Integer division truncates."

[[questions]]
type = "ShortAnswer"
prompt.prompt = "Which keyword declares a variable?"
answer.answer = "let"
answer.alternatives = ["let mut"]

[[questions]]
type = "Tracing"
prompt.program = """
fn main() {
    let s = String::from("hi");
    let t = s;
    println!("{s}");
}
"""
answer.doesCompile = false
answer.lineNumber = 4

[[questions]]
type = "Tracing"
prompt.program = """
fn main() { println!("{}", 7 / 2); }
"""
answer.doesCompile = true
answer.stdout = "3"

[[questions]]
type = "MultipleChoice"
prompt.prompt = "Which are integers?"
prompt.distractors = ["f64"]
prompt.sortAnswers = true
answer.answer = ["u8", "i32"]
"#;

#[test]
fn every_type_becomes_a_question_of_ours() {
    let qs = questions(FILE, "src/q.toml", 7, &config()).unwrap();
    assert_eq!(qs.len(), 5);
    let Answer::Choices(c) = &qs[0].answer else {
        panic!("choices")
    };
    let mut texts: Vec<(&str, bool)> = c.iter().map(|c| (c.text.text.as_str(), c.right)).collect();
    texts.sort();
    assert_eq!(texts, [("3", true), ("3.5", false), ("4", false)]);
    assert_eq!(qs[0].body[0].text, "What is `7 / 2` in Rust?");
    assert_eq!(
        qs[0].why.as_ref().unwrap().text,
        "Integer division truncates."
    );
    assert_eq!(
        qs[1].answer,
        Answer::Text {
            accepted: vec!["let".into(), "let mut".into()],
            at: 7
        }
    );
    let Answer::Program(p) = &qs[2].answer else {
        panic!("program")
    };
    assert_eq!((p.expect(), p.line), (Expect::CompileFail, Some(4)));
    assert_eq!(p.placed, Some(("src/q.toml".to_owned(), 24)));
    let (code, first) = p.placed_code.clone().unwrap();
    assert_eq!(first, 18);
    assert!(code.starts_with("fn main() {\n    let s"), "{code}");
    let Answer::Program(p) = &qs[3].answer else {
        panic!("program")
    };
    assert_eq!((p.expect(), p.output.as_deref()), (Expect::Run, Some("3")));
    let Answer::Choices(c) = &qs[4].answer else {
        panic!("choices")
    };
    let sorted: Vec<(&str, bool)> = c.iter().map(|c| (c.text.text.as_str(), c.right)).collect();
    assert_eq!(sorted, [("f64", false), ("i32", true), ("u8", true)]);
}

#[test]
fn unknown_types_and_keys_are_located_in_the_file() {
    let at = |text: &str| {
        let Fault { offset, message } = questions(text, "src/q.toml", 0, &config()).unwrap_err();
        let (l, c) = mdbook_companion_core::markdown::line_col(text, offset);
        format!("{l}:{c}: {message}")
    };
    assert_eq!(
        at(&FILE.replace("\"ShortAnswer\"", "\"Essay\"")),
        "10:1: found a question of type `Essay`; expected MultipleChoice, ShortAnswer or Tracing"
    );
    assert_eq!(
        at(&FILE.replace("id = \"q1\"", "points = 3")),
        "2:1: found unknown key `points` in a question; expected one of type, id, multipart, prompt, answer, context, promptExplanation, companion"
    );
    assert!(
            at(&FILE.replace("answer.alternatives", "answer.others"))
                .starts_with("9:1: found a ShortAnswer question that does not fit mdbook-quiz's schema (unknown field `others`"),
        );
    assert_eq!(
        at(&FILE.replace("answer.lineNumber = 4\n", "")),
        "24:8: found doesCompile = false without answer.lineNumber; expected the line of the first error"
    );
    assert!(
        at(&FILE.replace("answer.stdout = \"3\"", "answer.stdout = \"[..]\"")).starts_with(
            "33:8: found a pattern (`[..]` or a `...` line) in the output a quiz's reader predicts"
        ),
        "{}",
        at(&FILE.replace("answer.stdout = \"3\"", "answer.stdout = \"[..]\""))
    );
    assert!(
        at("questions = 3\n").starts_with("1:13: found invalid type"),
        "{}",
        at("questions = 3\n")
    );
}
