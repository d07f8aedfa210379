//! Green means true (issue 44, items 6 and 7): a quiz key the reader's
//! page can match, answers kept out of the search index, and every
//! command failing, located and escaped, when it could not do its work.

use crate::support::{BIN, TestBook};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Runs the binary with `args`, killed after a minute (a hang is a
/// failure, not a stuck suite): (stdout, stderr, exit code).
fn run(args: &[&dyn AsRef<std::ffi::OsStr>]) -> (String, String, i32) {
    let mut child = Command::new(BIN)
        .args(args.iter().map(|a| a.as_ref()))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run the binary");
    let start = Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if start.elapsed() > Duration::from_secs(60) {
            child.kill().expect("kill");
            let _ = child.wait();
            panic!(
                "mdbook-companion {:?} hangs",
                args.iter().map(|a| a.as_ref()).collect::<Vec<_>>()
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = child.wait_with_output().expect("output");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

fn mkfifo(path: &Path) {
    let status = Command::new("mkfifo").arg(path).status().expect("mkfifo");
    assert!(status.success());
}

#[test]
fn a_data_file_that_is_not_a_regular_file_is_a_located_error_not_a_wait() {
    let cases = [
        (
            "```quiz src=\"q.toml\"\n```\n",
            "q.toml",
            "src/ch.md:1:9: found src/q.toml, which is not a regular file (a FIFO); expected the mdbook-quiz file",
        ),
        (
            "{{#quiz q.toml}}\n",
            "q.toml",
            "src/ch.md:1:6: found src/q.toml, which is not a regular file (a FIFO)",
        ),
        (
            "```reading-list\n```\n",
            "reading-list.toml",
            "src/ch.md:1:4: found src/reading-list.toml, which is not a regular file (a FIFO); expected the reading-list data file",
        ),
        (
            "```talk\n```\n",
            "talks.toml",
            "src/ch.md:1:4: found src/talks.toml, which is not a regular file (a FIFO); expected the talk data file",
        ),
    ];
    for (chapter, data, want) in cases {
        let book = TestBook::new().chapter("ch.md", chapter);
        book.write();
        mkfifo(&book.root().join("src").join(data));
        // `check` reads the quiz files (their claims); it never waits.
        let (out, err, code) = run(&[&"check", &book.root()]);
        if data == "q.toml" {
            assert_eq!(code, 1, "{out}{err}");
            assert!(out.contains(&format!("FAILED  {want}")), "{want}\n{out}");
        }
        let (out, err, code) = run(&[&"build", &book.root()]);
        assert_ne!(code, 0, "{out}{err}");
        let want = want.replace("invalid directive: ", "");
        assert!(err.contains(&want), "{want}\n{err}");
    }
}

#[test]
fn a_fault_of_a_quiz_file_is_located_in_the_file_by_every_report() {
    let toml = "[[questions]]\ntype = \"ShortAnswer\"\nprompt.prompt = \"Which keyword?\"\nanswer.answer = \"let\"\n\n[[questions]]\ntype = \"Essay\"\n";
    let book = TestBook::new()
        .chapter("ch/quiz.md", "# Quiz\n\nBefore.\n\n{{#quiz q.toml}}\n")
        .file("src/ch/q.toml", toml);
    book.write();
    let (out, _, code) = run(&[&"check", &book.root()]);
    assert_eq!(code, 1, "{out}");
    let want = "src/ch/q.toml:7:1: found a question of type `Essay`; expected MultipleChoice, ShortAnswer or Tracing (asked for by src/ch/quiz.md:5:6)";
    assert!(
        out.lines().any(|l| l == format!("FAILED  {want}")),
        "{want}\n{out}"
    );
    let (out, _, _) = run(&[&"check", &book.root(), &"--format", &"github"]);
    assert!(
        out.contains("::error file=src/ch/q.toml,line=7,col=1,title=the build fails::found a question of type `Essay`"),
        "{out}"
    );
    let (out, _, _) = run(&[&"check", &book.root(), &"--format", &"json"]);
    let json: serde_json::Value = serde_json::from_str(&out).expect("json");
    let i = &json["invalid"][0];
    assert_eq!(
        (i["file"].as_str(), i["line"].as_u64(), i["column"].as_u64()),
        (Some("src/ch/q.toml"), Some(7), Some(1)),
        "{out}"
    );
    // --chapter keeps the fault of the file the chapter asked for.
    let (out, _, code) = run(&[&"check", &book.root(), &"--chapter", &"ch/quiz.md"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains(want), "{out}");
}

/// The characters a terminal would act on (and XML forbids).
const ACTING: [char; 4] = ['\u{1b}', '\u{7}', '\u{9b}', '\u{fffe}'];

#[test]
fn every_report_format_and_message_escapes_control_characters() {
    let chapter = "```rust example\nfn main() {\n    println!(\"\\u{1b}[2J\\u{1b}]0;owned\\u{7}\\u{9b}31m\");\n}\n```\n\n```output\nquiet\n```\n";
    let book = TestBook::new().chapter("ch.md", chapter);
    book.write();
    // A chapter title that would reset the terminal and ring its bell.
    std::fs::write(
        book.root().join("src/SUMMARY.md"),
        "# Summary\n\n- [Bad \u{1b}c\u{7} title](ch.md)\n",
    )
    .unwrap();
    for format in ["text", "github", "junit"] {
        let (out, err, code) = run(&[&"check", &book.root(), &"--format", &format]);
        assert_eq!(code, 1, "{out}{err}");
        assert!(
            !out.contains(ACTING),
            "{format}: raw control characters: {out:?}"
        );
        assert!(out.contains("\\u{1b}[2J"), "{format}: {out}{err}");
    }
    let (out, err, code) = run(&[&"check", &book.root(), &"--chapter", &"nope"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(!err.contains(ACTING), "raw control characters: {err:?}");
    assert!(
        err.contains("Bad \\u{1b}c\\u{7} title (src/ch.md)"),
        "{err}"
    );
}

#[test]
fn drift_and_check_with_a_toolchain_that_cannot_run_fail_naming_it() {
    let book = TestBook::new().chapter(
        "ch.md",
        "```rust example\nfn main() { println!(\"hi\"); }\n```\n\n```output\nhi\n```\n",
    );
    book.write();
    let (out, err, code) = run(&[&"check", &book.root()]);
    assert_eq!(code, 0, "{out}{err}");
    for command in ["drift", "check"] {
        let (out, err, code) = run(&[&command, &book.root(), &"--toolchain", &"/bin/false"]);
        assert_eq!(code, 2, "{command}: {out}{err}");
        assert!(
            err.contains("--toolchain /bin/false: the compiler /bin/false could not be run"),
            "{command}: {err}"
        );
        let (xml, _, code) = run(&[
            &command,
            &book.root(),
            &"--toolchain",
            &"/bin/false",
            &"--format",
            &"junit",
        ]);
        assert_eq!(code, 2, "{xml}");
        assert!(xml.contains("errors=\"1\""), "{command}: {xml}");
        assert!(
            xml.contains(
                "<error message=\"--toolchain /bin/false: the compiler /bin/false could not be run"
            ),
            "{command}: {xml}"
        );
    }
}

#[test]
fn drift_fails_when_a_compiler_the_book_needs_cannot_run() {
    let chapter = "````compare\n```c\n~ #include <stdio.h>\nint main(void) { printf(\"2\\n\"); }\n```\n```output\n2\n```\n```rust\nfn main() { println!(\"2\"); }\n```\n```output\n2\n```\n````\n";
    let book = TestBook::new().chapter("ch.md", chapter);
    book.write();
    let (out, err, code) = run(&[&"check", &book.root()]);
    assert_eq!(code, 0, "{out}{err}");
    let sysroot = Command::new("rustc")
        .args(["--print", "sysroot"])
        .output()
        .expect("rustc");
    let rustc = Path::new(String::from_utf8_lossy(&sysroot.stdout).trim()).join("bin/rustc");
    let toml = book.root().join("book.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    let text = text.replace(
        "after = [\"links\"]\n",
        "after = [\"links\"]\ncc = \"/bin/false\"\n",
    );
    std::fs::write(&toml, text).unwrap();
    let (out, err, code) = run(&[&"drift", &book.root(), &"--toolchain", &rustc]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains(
            "the compiler `/bin/false` could not be run, so drift could not compare every claim"
        ),
        "{err}"
    );
}

#[test]
fn quiz_answers_and_explanations_stay_out_of_the_search_index() {
    let chapter = "# Quiz\n\n`````quiz\n## Which quokkaprompt word declares a variable?\n\n- [ ] wombatwrong\n- [x] let\n  > Bindings zanzibaroption are immutable.\n- [ ] const\n\n> The keyword kumquatexplained is `let`.\n\n## Name the keyword.\n\nanswer: marmosetaccepted\n\n## What does it print?\n\n```rust\nfn main() { println!(\"{}{}\", \"platy\", \"pusprinted\"); }\n```\n\n```output\nplatypusprinted\n```\n`````\n";
    let toml = "[[questions]]\ntype = \"ShortAnswer\"\nprompt.prompt = \"Which narwhalprompt keyword?\"\nanswer.answer = \"ocelotanswer\"\ncontext = \"Because pangolincontext.\"\n";
    let book = TestBook::new()
        .chapter("quiz.md", chapter)
        .chapter("file.md", "# File\n\n{{#quiz q.toml}}\n")
        .file("src/q.toml", toml)
        .toml("[output.html.search]\nenable = true");
    book.build().expect("build");
    let out = book.output_dir("html");
    let index: String = std::fs::read_dir(&out)
        .expect("output")
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("searchindex"))
        .map(|e| std::fs::read_to_string(e.path()).expect("index"))
        .collect();
    assert!(!index.is_empty(), "no search index in {}", out.display());
    for asked in ["quokkaprompt", "wombatwrong", "narwhalprompt"] {
        assert!(index.contains(asked), "{asked} is not searchable");
    }
    for key in [
        "zanzibaroption",
        "kumquatexplained",
        "marmosetaccepted",
        "platypusprinted",
        "ocelotanswer",
        "pangolincontext",
    ] {
        assert!(
            !index.contains(key),
            "the search index shows the key: {key}"
        );
    }
    // The page still holds the key, for the script to show after a check.
    let page = book.page("quiz.md").answers_shown();
    let answers: String = page
        .all("details.companion-quiz-answer")
        .iter()
        .map(|d| crate::support::Page::text(*d))
        .collect();
    for key in [
        "zanzibaroption",
        "kumquatexplained",
        "marmosetaccepted",
        "platypusprinted",
    ] {
        assert!(answers.contains(key), "{key}: {answers}");
    }
}

#[test]
fn a_quiz_link_follows_mdbooks_rules_for_links_in_code_and_escaped() {
    let toml = "[[questions]]\ntype = \"ShortAnswer\"\nprompt.prompt = \"Which keyword?\"\nanswer.answer = \"let\"\n";
    // Escaped anywhere: shown without the backslash, no quiz, no error.
    let escaped = "# Q\n\n\\{{#quiz q.toml}}\n\nIn a span: `\\{{#quiz q.toml}}`.\n\n```text\n\\{{#quiz q.toml}}\n```\n";
    let book = TestBook::new()
        .chapter("ch.md", escaped)
        .file("src/q.toml", toml);
    book.write();
    let (out, err, code) = run(&[&"check", &book.root()]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(out.lines().last(), Some("0 passed, 0 failed"), "{out}");
    let page = book.html("ch.md");
    assert!(page.all("div.companion-quiz").is_empty());
    let main = crate::support::Page::text(page.one("main"));
    assert_eq!(
        main,
        "Q {{#quiz q.toml}} In a span: {{#quiz q.toml}}. {{#quiz q.toml}}"
    );
    // Unescaped inside code (a fence or a span), where mdBook reads a
    // link too: a located error saying how to show it.
    for (chapter, at) in [
        ("# Q\n\n```text\n{{#quiz q.toml}}\n```\n", "src/ch.md:4:1"),
        ("# Q\n\nSee `{{#quiz q.toml}}`.\n", "src/ch.md:3:6"),
    ] {
        let book = TestBook::new()
            .chapter("ch.md", chapter)
            .file("src/q.toml", toml);
        book.write();
        let (out, err, code) = run(&[&"check", &book.root()]);
        assert_eq!(code, 1, "{out}{err}");
        let want = format!(
            "FAILED  {at}: found {{{{#quiz q.toml}}}} inside code or among other words on its line; mdBook's `links` reads a link there too"
        );
        assert!(out.contains(&want), "{want}\n{out}");
        assert!(
            out.contains("expected `\\{{#quiz q.toml}}` to show the link as written"),
            "{out}"
        );
        let err = book.build_in_process().unwrap_err();
        let want = want
            .replace("FAILED  ", "")
            .replace("invalid directive: ", "");
        assert!(err.contains(&want), "{err}");
    }
}
