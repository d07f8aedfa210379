//! Green means true (issue 44, items 6 and 7): a quiz key the reader's
//! page can match, answers kept out of the search index, and every
//! command failing, located and escaped, when it could not do its work.

use crate::support::BookTest;
use crate::support::book_test::Ran;
use snapbox::str;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

/// Runs the binary in `book` with `args`, killed after a minute (a hang
/// is a failure, not a stuck suite); `code` is the exit code it must end
/// with.
fn run(book: &BookTest, args: &[&str], code: i32) -> Ran {
    book.run(args, |cmd| {
        cmd.timeout(Duration::from_secs(60)).expect_code(code);
    })
}

fn mkfifo(path: &Path) {
    let status = Command::new("mkfifo").arg(path).status().expect("mkfifo");
    assert!(status.success());
}

#[test]
fn a_data_file_that_is_not_a_regular_file_is_a_located_error_not_a_wait() {
    let cases = [
        ("```quiz src=\"q.toml\"\n```\n", "q.toml", 1),
        ("{{#quiz q.toml}}\n", "q.toml", 1),
        ("```reading-list\n```\n", "reading-list.toml", 1),
        ("```talk\n```\n", "talks.toml", 1),
    ];
    // The table of errors: each chapter, what `check` reported (it reads
    // the quiz files, for their claims; it never waits) and what `build`
    // said.
    let mut book = BookTest::new();
    let mut table = String::new();
    for (chapter, data, check_code) in cases {
        book.set_chapter("ch.md", chapter);
        book.write();
        let fifo = book.root().join("src").join(data);
        if !fifo.exists() {
            mkfifo(&fifo);
        }
        let checked = run(&book, &["check"], check_code);
        let built = run(&book, &["build"], 1);
        table.push_str(&format!(
            "{chapter}--- check\n{}--- build\n{}\n",
            checked.stdout, built.stderr
        ));
    }
    book.check_text(table, str![[r#"
```quiz src="q.toml"
```
--- check
FAILED  src/ch.md:1:9: found src/q.toml, which is not a regular file (a FIFO); expected the mdbook-quiz file as a TOML file of [[questions]] tables
compiler runs: 0, program runs: 0, from cache: 0
0 passed, 1 failed
--- build
 INFO Book building has started
mdbook-companion: error: src/ch.md:1:9: found src/q.toml, which is not a regular file (a FIFO); expected the mdbook-quiz file as a TOML file of [[questions]] tables

{{#quiz q.toml}}
--- check
FAILED  src/ch.md:1:6: found src/q.toml, which is not a regular file (a FIFO); expected the mdbook-quiz file as a TOML file of [[questions]] tables
compiler runs: 0, program runs: 0, from cache: 0
0 passed, 1 failed
--- build
 INFO Book building has started
mdbook-companion: error: src/ch.md:1:6: found src/q.toml, which is not a regular file (a FIFO); expected the mdbook-quiz file as a TOML file of [[questions]] tables

```reading-list
```
--- check
FAILED  src/ch.md:1:4: found src/reading-list.toml, which is not a regular file (a FIFO); expected the reading-list data file as a TOML file of [[entry]] tables
compiler runs: 0, program runs: 0, from cache: 0
0 passed, 1 failed
--- build
 INFO Book building has started
mdbook-companion: error: src/ch.md:1:4: found src/reading-list.toml, which is not a regular file (a FIFO); expected the reading-list data file as a TOML file of [[entry]] tables

```talk
```
--- check
FAILED  src/ch.md:1:4: found src/talks.toml, which is not a regular file (a FIFO); expected the talk data file as a TOML file of [[talk]] tables
compiler runs: 0, program runs: 0, from cache: 0
0 passed, 1 failed
--- build
 INFO Book building has started
mdbook-companion: error: src/ch.md:1:4: found src/talks.toml, which is not a regular file (a FIFO); expected the talk data file as a TOML file of [[talk]] tables


"#]]);
}

#[test]
fn a_fault_of_a_quiz_file_is_located_in_the_file_by_every_report() {
    let toml = "[[questions]]\ntype = \"ShortAnswer\"\nprompt.prompt = \"Which keyword?\"\nanswer.answer = \"let\"\n\n[[questions]]\ntype = \"Essay\"\n";
    let book = BookTest::new()
        .chapter("ch/quiz.md", "# Quiz\n\nBefore.\n\n{{#quiz q.toml}}\n")
        .file("src/ch/q.toml", toml);
    book.run(&["check"], |cmd| {
        cmd.expect_code(1).expect_stdout(str![[r#"
FAILED  src/ch/q.toml:7:1: found a question of type `Essay`; expected MultipleChoice, ShortAnswer or Tracing (asked for by src/ch/quiz.md:5:6)
compiler runs: 0, program runs: 0, from cache: 0
0 passed, 1 failed

"#]]);
    });
    book.run(&["check", "--format", "github"], |cmd| {
        cmd.expect_code(1).expect_stdout(str![[r#"
::error file=src/ch/q.toml,line=7,col=1,title=the build fails::found a question of type `Essay`; expected MultipleChoice, ShortAnswer or Tracing (asked for by src/ch/quiz.md:5:6)
0 passed, 1 failed

"#]]);
    });
    let json = run(&book, &["check", "--format", "json"], 1).json();
    let i = &json["invalid"][0];
    assert_eq!(
        (i["file"].as_str(), i["line"].as_u64(), i["column"].as_u64()),
        (Some("src/ch/q.toml"), Some(7), Some(1)),
        "{json}"
    );
    // --chapter keeps the fault of the file the chapter asked for.
    book.run(&["check", "--chapter", "ch/quiz.md"], |cmd| {
        cmd.expect_code(1).expect_stdout(str![[r#"
FAILED  src/ch/q.toml:7:1: found a question of type `Essay`; expected MultipleChoice, ShortAnswer or Tracing (asked for by src/ch/quiz.md:5:6)
note: a run of one chapter leaves companion.lock alone
compiler runs: 0, program runs: 0, from cache: 0
0 passed, 1 failed

"#]]);
    });
}

/// The characters a terminal would act on (and XML forbids).
const ACTING: [char; 4] = ['\u{1b}', '\u{7}', '\u{9b}', '\u{fffe}'];

#[test]
fn every_report_format_and_message_escapes_control_characters() {
    let chapter = "```rust example\nfn main() {\n    println!(\"\\u{1b}[2J\\u{1b}]0;owned\\u{7}\\u{9b}31m\");\n}\n```\n\n```output\nquiet\n```\n";
    let book = BookTest::new().chapter("ch.md", chapter);
    book.write();
    // A chapter title that would reset the terminal and ring its bell.
    std::fs::write(
        book.root().join("src/SUMMARY.md"),
        "# Summary\n\n- [Bad \u{1b}c\u{7} title](ch.md)\n",
    )
    .unwrap();
    for format in ["text", "github", "junit"] {
        let out = run(&book, &["check", "--format", format], 1).stdout;
        assert!(
            !out.contains(ACTING),
            "{format}: raw control characters: {out:?}"
        );
        assert!(out.contains("\\u{1b}[2J"), "{format}: {out}");
    }
    let err = book
        .run(&["check", "--chapter", "nope"], |cmd| {
            cmd.expect_code(1).expect_stderr(str![[r#"
mdbook-companion: error: --chapter "nope": no chapter has this title or path; expected one of the book's chapters:
  Bad \u{1b}c\u{7} title (src/ch.md)

"#]]);
        })
        .stderr;
    assert!(!err.contains(ACTING), "raw control characters: {err:?}");
}

#[test]
fn drift_and_check_with_a_toolchain_that_cannot_run_fail_naming_it() {
    let book = BookTest::new().chapter(
        "ch.md",
        "```rust example\nfn main() { println!(\"hi\"); }\n```\n\n```output\nhi\n```\n",
    );
    run(&book, &["check"], 0);
    // The table of errors: each command, and what it said.
    let mut table = String::new();
    for command in ["drift", "check"] {
        let err = run(&book, &[command, "--toolchain", "/bin/false"], 2).stderr;
        table.push_str(&format!("{command}: {err}"));
        let xml = run(
            &book,
            &[command, "--toolchain", "/bin/false", "--format", "junit"],
            2,
        )
        .stdout;
        assert!(xml.contains("errors=\"1\""), "{command}: {xml}");
        assert!(
            xml.contains(
                "<error message=\"--toolchain /bin/false: the compiler /bin/false could not be run"
            ),
            "{command}: {xml}"
        );
    }
    book.check_text(table, str![[r#"
drift: mdbook-companion: error: --toolchain /bin/false: the compiler /bin/false could not be run (`-vV` exited with exit status: 1); expected a rustup toolchain name (`beta`, `nightly`, `1.95.0`) or the path of a `rustc` that runs
check: mdbook-companion: error: --toolchain /bin/false: the compiler /bin/false could not be run (`-vV` exited with exit status: 1); expected a rustup toolchain name (`beta`, `nightly`, `1.95.0`) or the path of a `rustc` that runs

"#]]);
}

#[test]
fn drift_fails_when_a_compiler_the_book_needs_cannot_run() {
    let chapter = "````compare\n```c\n~ #include <stdio.h>\nint main(void) { printf(\"2\\n\"); }\n```\n```output\n2\n```\n```rust\nfn main() { println!(\"2\"); }\n```\n```output\n2\n```\n````\n";
    let book = BookTest::new().chapter("ch.md", chapter);
    run(&book, &["check"], 0);
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
    book.run(&["drift", "--toolchain"], |cmd| {
        cmd.arg(&rustc).expect_code(2).expect_stderr(str![[r#"
mdbook-companion: error: the compiler `/bin/false` could not be run, so drift could not compare every claim (set `cc` in [preprocessor.companion] to a compiler that runs)

"#]]);
    });
}

#[test]
fn quiz_answers_and_explanations_stay_out_of_the_search_index() {
    let chapter = "# Quiz\n\n`````quiz\n## Which quokkaprompt word declares a variable?\n\n- [ ] wombatwrong\n- [x] let\n  > Bindings zanzibaroption are immutable.\n- [ ] const\n\n> The keyword kumquatexplained is `let`.\n\n## Name the keyword.\n\nanswer: marmosetaccepted\n\n## What does it print?\n\n```rust\nfn main() { println!(\"{}{}\", \"platy\", \"pusprinted\"); }\n```\n\n```output\nplatypusprinted\n```\n`````\n";
    let toml = "[[questions]]\ntype = \"ShortAnswer\"\nprompt.prompt = \"Which narwhalprompt keyword?\"\nanswer.answer = \"ocelotanswer\"\ncontext = \"Because pangolincontext.\"\n";
    let book = BookTest::new()
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
    let book = BookTest::new()
        .chapter("ch.md", escaped)
        .file("src/q.toml", toml);
    book.run(&["check"], |cmd| {
        cmd.expect_stdout(str![[r#"
compiler runs: 0, program runs: 0, from cache: 0
0 passed, 0 failed

"#]]);
    });
    let page = book.html("ch.md");
    assert!(page.all("div.companion-quiz").is_empty());
    let main = crate::support::Page::text(page.one("main"));
    assert_eq!(
        main,
        "Q {{#quiz q.toml}} In a span: {{#quiz q.toml}}. {{#quiz q.toml}}"
    );
    // Unescaped inside code (a fence or a span), where mdBook reads a
    // link too: a located error saying how to show it.
    // The table of errors: each chapter, what check reported and what
    // the build said.
    let mut book = BookTest::new().file("src/q.toml", toml);
    let mut table = String::new();
    for chapter in [
        "# Q\n\n```text\n{{#quiz q.toml}}\n```\n",
        "# Q\n\nSee `{{#quiz q.toml}}`.\n",
    ] {
        book.set_chapter("ch.md", chapter);
        book.write();
        let checked = run(&book, &["check"], 1).stdout;
        let err = book.build_in_process().unwrap_err();
        table.push_str(&format!("{chapter}--- check\n{checked}--- build\n{err}\n"));
    }
    book.check_text(table, str![[r#"
# Q

```text
{{#quiz q.toml}}
```
--- check
FAILED  src/ch.md:4:1: found {{#quiz q.toml}} inside code or among other words on its line; mdBook's `links` reads a link there too (it expands {{#include}} inside code), and a quiz cannot be placed there; expected `\{{#quiz q.toml}}` to show the link as written, or the link alone on its line outside code
compiler runs: 0, program runs: 0, from cache: 0
0 passed, 1 failed
--- build
src/ch.md:4:1: found {{#quiz q.toml}} inside code or among other words on its line; mdBook's `links` reads a link there too (it expands {{#include}} inside code), and a quiz cannot be placed there; expected `\{{#quiz q.toml}}` to show the link as written, or the link alone on its line outside code
# Q

See `{{#quiz q.toml}}`.
--- check
FAILED  src/ch.md:3:6: found {{#quiz q.toml}} inside code or among other words on its line; mdBook's `links` reads a link there too (it expands {{#include}} inside code), and a quiz cannot be placed there; expected `\{{#quiz q.toml}}` to show the link as written, or the link alone on its line outside code
compiler runs: 0, program runs: 0, from cache: 0
0 passed, 1 failed
--- build
src/ch.md:3:6: found {{#quiz q.toml}} inside code or among other words on its line; mdBook's `links` reads a link there too (it expands {{#include}} inside code), and a quiz cannot be placed there; expected `\{{#quiz q.toml}}` to show the link as written, or the link alone on its line outside code

"#]]);
}
