//! A quiz in a real browser, with every host name unresolvable: the page
//! shows no answer before the reader checks; every control is labelled
//! and takes the keyboard's focus; a wrong answer is said in words with
//! the right one and the explanation, a right one too, with a score; the
//! answers survive a reload (localStorage) and Try again clears them; no
//! request and no script error. Then AA contrast in the five themes with
//! the verdicts shown, nothing wider than a phone, and print: the
//! questions, the answers only with `print-answers = true`.

use super::standin::{Answer, StandIn};
use super::*;
use serde_json::json;

const SCENARIO: &str = include_str!("quiz-scenario.js");

/// The book with nothing added to its table, checked and built once:
/// the tests that only read its page share it.
fn shared() -> PathBuf {
    static PAGE: OnceLock<PathBuf> = OnceLock::new();
    PAGE.get_or_init(|| built("shared", "")).clone()
}

/// The quiz book: checked (its lock written), then built with no
/// compiler on PATH.
fn built(name: &str, companion: &str) -> PathBuf {
    let root = scratch(&format!("quiz-{name}"));
    std::fs::create_dir_all(root.join("src")).expect("src");
    std::fs::create_dir_all(root.join("theme")).expect("theme");
    std::fs::write(
        root.join("book.toml"),
        format!(
            "[book]\ntitle = \"Quiz\"\n\n[preprocessor.companion]\ncommand = {:?}\nafter = [\"links\"]\n{companion}\n\n\
             [output.html]\nadditional-css = [\"theme/companion.css\"]\nadditional-js = [\"theme/companion.js\"]\n",
            env!("CARGO_BIN_EXE_mdbook-companion")
        ),
    )
    .expect("book.toml");
    std::fs::write(
        root.join("theme/companion.css"),
        mdbook_companion_directives::assets::stamped_stylesheet(),
    )
    .expect("css");
    std::fs::write(
        root.join("theme/companion.js"),
        mdbook_companion_directives::assets::stamped_script(),
    )
    .expect("js");
    std::fs::write(
        root.join("src/SUMMARY.md"),
        "# Summary\n\n- [Claims](claims.md)\n",
    )
    .expect("summary");
    std::fs::write(
        root.join("src/claims.md"),
        include_str!("../testsuite/quiz/claims.md"),
    )
    .expect("chapter");
    // The examples are the same in every such book: a check after the
    // first compiles nothing again, it finds them in the cache it copied.
    static WARM: Mutex<Option<PathBuf>> = Mutex::new(None);
    let warm = WARM.lock().expect("warm cache").clone();
    if let Some(cache) = warm {
        copy_tree(&cache, &root.join(".companion-cache"));
    }
    let bin = env!("CARGO_BIN_EXE_mdbook-companion");
    let check = Command::new(bin)
        .arg("check")
        .arg(&root)
        .output()
        .expect("check");
    assert!(
        check.status.success(),
        "check: {}",
        String::from_utf8_lossy(&check.stdout)
    );
    let mut warm = WARM.lock().expect("warm cache");
    if warm.is_none() {
        let keep = scratch("quiz-warm-cache");
        copy_tree(&root.join(".companion-cache"), &keep);
        *warm = Some(keep);
    }
    drop(warm);
    let empty = tempfile::tempdir().expect("empty PATH");
    let build = Command::new(bin)
        .arg("build")
        .arg(&root)
        .env("PATH", empty.path())
        .output()
        .expect("build");
    assert!(
        build.status.success(),
        "build: {}",
        String::from_utf8_lossy(&build.stderr)
    );
    root.join("book/claims.html")
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap_or_else(|| panic!("not an array: {v}"))
        .iter()
        .map(|s| s.as_str().unwrap_or("").to_owned())
        .collect()
}

#[test]
fn a_reader_answers_checks_reloads_and_tries_again_offline() {
    let page = shared();
    let server = StandIn::start(Answer::Runs);
    let report = server.drive_with(
        &page,
        &json!({
            "wrong": [
                {"choose": ["0"]},
                {"text": "var"},
                {"choose": ["0"]},
                {"choose": ["prints"], "prints": "1 2 3"},
                {"choose": ["compile-fail"], "line": "1"},
                {"choose": ["prints"], "prints": "3.5"},
                {"choose": ["prints"], "prints": "-2147483648"},
            ],
            "right": [
                {"choose": ["1"]},
                {"text": "  LET  "},
                {"choose": ["0", "2"]},
                {"choose": ["panics"]},
                // Not the primary line: one the first error labels
                // ("value moved here"), right too.
                {"line": "2"},
                {"prints": "3\n"},
                {"choose": ["ub"]},
            ],
        }),
        SCENARIO,
    );
    // Before any answer: the questions, no answer and no explanation.
    let before = report["before"].as_str().expect("text");
    assert!(
        before.contains("What does 7 / 2 evaluate to in Rust?"),
        "{before}"
    );
    for secret in [
        "truncates",
        "Both operands",
        "index out of bounds",
        "is on line 3",
        "moved into",
        "signed integer overflow",
        "Answer",
    ] {
        assert!(
            !before.contains(secret),
            "{secret} shows before answering: {before}"
        );
    }
    assert_eq!(report["checkShown"], true);
    // Every control labelled and reached by the keyboard.
    let controls = array(&report, "controls");
    assert!(controls.len() > 20, "{controls:?}");
    for c in controls {
        assert_eq!(c["focused"], true, "{c}");
        assert!(c["tabIndex"].as_i64().unwrap_or(-1) >= 0, "{c}");
        assert!(!c["label"].as_str().unwrap_or("").trim().is_empty(), "{c}");
    }
    // Wrong answers: said in words, with the right answer and the why.
    let wrong = array(&report, "wrong");
    let feedback: Vec<String> = wrong
        .iter()
        .map(|v| v["feedback"].as_str().unwrap_or("").to_owned())
        .collect();
    assert!(
        feedback[0].starts_with("Not quite. The right answer: 3"),
        "{}",
        feedback[0]
    );
    assert!(
        feedback[0].contains("Integer division truncates toward zero."),
        "{}",
        feedback[0]
    );
    assert!(
        feedback[0].contains("Both operands are integers"),
        "{}",
        feedback[0]
    );
    assert!(
        feedback[1].starts_with("Not quite. Accepted answers: let, let mut"),
        "{}",
        feedback[1]
    );
    assert!(
        feedback[2].starts_with("Not quite. The right answers: i32; u8"),
        "{}",
        feedback[2]
    );
    assert!(
        feedback[3].starts_with("Not quite. It panics: index out of bounds"),
        "{}",
        feedback[3]
    );
    assert!(
        feedback[4].starts_with("Not quite. It does not compile: the first error is on line 3."),
        "{}",
        feedback[4]
    );
    assert!(feedback[4].contains("moved into"), "{}", feedback[4]);
    // The lines the first error labels, in rustc's words.
    assert!(
        feedback[4].contains("line 2: value moved here")
            && feedback[4].contains("line 3: value borrowed here after move"),
        "{}",
        feedback[4]
    );
    assert!(
        feedback[5].starts_with("Not quite. It prints: 3"),
        "{}",
        feedback[5]
    );
    assert!(
        feedback[6].starts_with("Not quite. Its behaviour is undefined: signed integer overflow"),
        "{}",
        feedback[6]
    );
    assert!(wrong.iter().all(|v| v["live"] == "polite"));
    assert_eq!(strings(&wrong[0]["marked"]), ["wrong", "right", ""]);
    assert_eq!(report["wrongScore"], "0 of 7 right");
    // Right answers (a text answer trimmed and in any case; an output
    // with its line end): said right, the explanation kept, full score.
    let right = array(&report, "right");
    for v in right {
        assert!(
            v["feedback"].as_str().unwrap_or("").starts_with("Right."),
            "{v}"
        );
    }
    assert!(
        right[0]["feedback"]
            .as_str()
            .unwrap_or("")
            .contains("truncates")
    );
    assert!(
        !right[0]["feedback"]
            .as_str()
            .unwrap_or("")
            .contains("The right answer")
    );
    assert_eq!(report["rightScore"], "7 of 7 right");
    assert_eq!(array(&report, "stored").len(), 1);
    // Reloaded: the answers and the check came back.
    assert_eq!(report["restoredScore"], "7 of 7 right");
    assert_eq!(report["restoredText"], "  LET  ");
    assert_eq!(report["restoredChosen"], json!([false, true, false]));
    // Try again: everything cleared, storage too, focus on the first
    // question.
    let again = &report["afterAgain"];
    assert_eq!(again["score"], "");
    assert_eq!(again["anyChecked"], false);
    assert!(strings(&again["feedback"]).iter().all(String::is_empty));
    assert_eq!(array(again, "stored").len(), 0);
    assert_eq!(again["focused"], "input");
    assert_eq!(again["againShown"], false);
    assert_eq!(array(&report, "requests").len(), 0, "no request: {report}");
    assert_eq!(array(&report, "errors").len(), 0, "{report}");
    assert!(server.requests().is_empty());
}

#[test]
fn answered_quizzes_are_readable_in_every_theme_and_fit_a_phone() {
    let page = shared();
    let m = measure(&page, "screen", DESKTOP, Variant::Answered);
    for theme in THEMES {
        let t = &m["contrast"][theme];
        let worst = array(t, "worst");
        for kind in [
            "companion-number",
            "companion-quiz-verdict",
            "companion-quiz-n",
            "companion-quiz-score",
            "companion-quiz-check",
        ] {
            assert!(
                worst
                    .iter()
                    .any(|w| w["what"].as_str().unwrap_or("").contains(kind)),
                "{theme}: no {kind} measured: {t}"
            );
        }
        assert!(
            num(&worst[0], "ratio") >= MIN_CONTRAST,
            "{theme}: contrast below {MIN_CONTRAST}:1: {worst:?}"
        );
    }
    for variant in [Variant::AsBuilt, Variant::Answered] {
        let phone = measure(&page, "screen", PHONE, variant);
        let o = &phone["overflow"];
        assert_eq!(num(o, "count"), 0.0, "{variant:?}: {o}");
        assert!(
            num(o, "pageScrollWidth") <= num(o, "viewport"),
            "{variant:?}: {o}"
        );
    }
}

#[test]
fn print_shows_the_questions_and_the_answers_only_when_asked() {
    for (name, companion, keys) in [
        ("print", "", 0),
        ("print-answers", "print-answers = true", 7),
    ] {
        let page = if companion.is_empty() {
            shared()
        } else {
            built(name, companion)
        };
        let m = measure(&page, "print", DESKTOP, Variant::AsBuilt);
        let quizzes = array(&m, "quizzes");
        assert_eq!(quizzes.len(), 1, "{m}");
        assert_eq!(quizzes[0]["questions"], 7, "{name}: {}", quizzes[0]);
        assert_eq!(quizzes[0]["keys"], keys, "{name}: {}", quizzes[0]);
        assert_eq!(quizzes[0]["buttons"], 0, "{name}: {}", quizzes[0]);
    }
}
