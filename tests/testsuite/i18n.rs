//! Translated books through the real tools: `mdbook-xgettext` extracts
//! every string of ours as a message at its line, and a book built in
//! French through `mdbook-gettext` shows the catalog's strings in our
//! frames and cards, code and outputs untouched (`tests/i18n-book`).

use crate::support::{BookTest, Page, logging_wrapper_in};
use crate::tools::{path_with, tool};
use snapbox::str;
use std::path::Path;
use std::process::{Command, Output};

/// A copy of the fixture book `tests/i18n-book` in a fresh directory.
fn fixture() -> BookTest {
    BookTest::from_dir("../i18n-book")
}

/// Runs the real `mdbook` CLI in `book` with our binary, `mdbook-gettext`
/// and `mdbook-xgettext` on `PATH`.
fn mdbook(book: &Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mdbook = tool("mdbook");
    let path = path_with(&["mdbook-gettext", "mdbook-xgettext"]);
    let mut cmd = Command::new(mdbook);
    cmd.current_dir(book).args(args).env("PATH", path);
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("run mdbook")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Builds the book's HTML in `lang` (`None`: the source language).
fn build(book: &Path, lang: Option<&str>) -> Output {
    let mut env = Vec::new();
    if let Some(l) = lang {
        env.push(("MDBOOK_BOOK__LANGUAGE", l));
    }
    let out = mdbook(book, &["build", "-d", "out"], &env);
    assert!(
        out.status.success(),
        "mdbook build failed:\n{}",
        stderr(&out)
    );
    out
}

fn page(book: &Path, name: &str) -> Page {
    let text = std::fs::read_to_string(book.join("out").join(name)).expect("page");
    Page(scraper::Html::parse_document(&text))
}

fn texts(page: &Page, css: &str) -> Vec<String> {
    page.all(css).into_iter().map(Page::text).collect()
}

#[test]
fn xgettext_extracts_every_string_of_ours_at_its_line() {
    let book = fixture();
    let out = mdbook(
        book.root(),
        &["build", "-d", "po-out"],
        &[("MDBOOK_OUTPUT", "{\"xgettext\": {}}")],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let catalog =
        polib::po_file::parse(&book.root().join("po-out/messages.pot")).expect("the POT parses");
    let found = |id: &str| {
        let m = catalog
            .find_message(None, id, None)
            .unwrap_or_else(|| panic!("no message {id:?} in the template"));
        (m.source().to_owned(), m.comments().to_owned())
    };
    let chapter = |source: &str| (source.to_owned(), String::new());
    for (id, want) in [
        (
            "Integer division can go wrong.",
            chapter("src/division.md:3"),
        ),
        ("Dividing by zero", chapter("src/division.md:5")),
        ("Integer division", chapter("src/division.md:15")),
        ("C: undefined behaviour", chapter("src/division.md:16")),
        (
            "A _note_ about C, over two lines.",
            chapter("src/division.md:19"),
        ),
        (
            "A second paragraph with a [link](https://example.org/c).",
            chapter("src/division.md:22"),
        ),
        ("Rust: a panic", chapter("src/division.md:23")),
        ("Rust checks the divisor.", chapter("src/division.md:26")),
        // The text after the directives keeps its lines.
        ("The end of the chapter.", chapter("src/division.md:29")),
        ("Books to start with", chapter("src/reading.md:3")),
        // Data files' strings are referenced by the file's lines, and the
        // chapter showing them keeps its lines.
        ("Last words.", chapter("src/reading.md:9")),
        (
            "Programmers new to Rust",
            chapter("src/reading-list.toml:5"),
        ),
        (
            "The _definitive_ introduction.",
            chapter("src/reading-list.toml:6"),
        ),
        (
            "Key Rust concepts for the kernel",
            chapter("src/talks.toml:3"),
        ),
        ("Why Rust _fits_ the kernel.", chapter("src/talks.toml:6")),
        ("Uninitialized variables", chapter("src/talks.toml:10")),
    ] {
        assert_eq!(found(id), want, "{id}");
    }
    // Our own words, on a page of their own.
    assert_eq!(found("Example"), chapter("src/mdbook-companion:1"));
    assert_eq!(found("Panics with"), chapter("src/mdbook-companion:12"));
    // The code is extracted as mdbook-i18n-helpers extracts any Rust block
    // (its comments and string literals); outputs are never messages.
    // After the title on its line, the code is one line down.
    assert_eq!(
        found("// Panics when b is zero.\n"),
        chapter("src/division.md:7")
    );
    let ids: Vec<String> = catalog.messages().map(|m| m.msgid().to_owned()).collect();
    assert!(
        !ids.iter()
            .any(|id| id.contains("attempt to divide") || id.contains("caption=")),
        "{ids:#?}"
    );
}

#[test]
fn a_french_build_shows_the_catalog_inside_frames_and_cards() {
    let book = fixture();
    build(book.root(), None);
    let en = page(book.root(), "division.html");
    let en_links: Vec<String> = en
        .all(".companion-links a")
        .iter()
        .filter_map(|a| a.value().attr("href").map(str::to_owned))
        .collect();
    let en_code = texts(&en, "pre code");
    assert_eq!(
        texts(&en, ".companion-title"),
        [
            "Dividing by zero",
            "Integer division",
            "C: undefined behaviour",
            "Rust: a panic"
        ]
    );
    build(book.root(), Some("fr"));
    let fr = page(book.root(), "division.html");
    assert_eq!(
        texts(&fr, ".companion-title"),
        [
            // Escaped: the translation is an author's string too.
            "Diviser par <zéro> & co",
            "Division entière",
            "C : comportement indéfini",
            // Untranslated (empty msgstr): the source text.
            "Rust: a panic",
        ]
    );
    assert!(
        fr.all(".companion-title b, .companion-note script")
            .is_empty()
    );
    assert_eq!(
        texts(&fr, ".companion-note p"),
        [
            "Une note sur C, <script>alert(1)</script>.",
            // Fuzzy: the source text.
            "A second paragraph with a link.",
            "Rust vérifie le diviseur.",
        ]
    );
    // Our own words, from the same catalog (escaped); those it leaves
    // out stay in English.
    assert_eq!(
        texts(&en, ".companion-number"),
        ["Example 1.1", "Example 1.2", "Example 1.3"]
    );
    assert_eq!(
        texts(&fr, ".companion-number"),
        ["Exemple 1.1", "Exemple 1.2", "Exemple 1.3"]
    );
    assert_eq!(texts(&en, ".companion-badge")[0], "Panics");
    assert_eq!(texts(&fr, ".companion-badge")[0], "Panique");
    assert_eq!(texts(&fr, ".companion-output-label")[0], "Panique avec <b>");
    assert!(fr.all(".companion-output-label b").is_empty());
    let fr_labels = texts(&fr, ".companion-links a");
    assert_eq!(fr_labels[0], "Bac à sable");
    assert!(
        fr_labels.contains(&"Compiler Explorer".to_owned()),
        "{fr_labels:?}"
    );
    // Code, outputs and links are the source's.
    assert_eq!(texts(&fr, "pre code"), en_code);
    assert!(
        texts(&fr, ".companion-output")
            .iter()
            .any(|o| o.contains("attempt to divide by zero"))
    );
    let fr_links: Vec<String> = fr
        .all(".companion-links a")
        .iter()
        .filter_map(|a| a.value().attr("href").map(str::to_owned))
        .collect();
    assert_eq!(fr_links, en_links);
    assert!(!fr_links.is_empty());
    let cards = page(book.root(), "reading.html");
    for (css, want) in [
        (".companion-reading-list-title", "Livres pour commencer"),
        (
            ".companion-card-audience",
            "Public : Programmeurs débutant en Rust",
        ),
        (".companion-card-note", "L'introduction de référence."),
        (
            ".companion-talk-title",
            "Concepts clés de Rust pour le noyau",
        ),
        (
            ".companion-talk-abstract",
            "Pourquoi Rust convient au noyau.",
        ),
        (".companion-talk-moment-title", "Variables non initialisées"),
    ] {
        assert_eq!(texts(&cards, css), [want], "{css}");
    }
    // The card's own words, from the catalog too.
    assert!(
        texts(&cards, ".companion-card .companion-badge").contains(&"Livre".to_owned()),
        "{:?}",
        texts(&cards, ".companion-card .companion-badge")
    );
    // The moment's link still points at the chapter.
    assert_eq!(
        cards
            .one(".companion-talk-moment-title")
            .value()
            .attr("href"),
        Some("division.html")
    );
}

#[test]
fn a_malformed_catalog_is_an_error_naming_file_and_line() {
    let book = fixture();
    let po = book.root().join("po/fr.po");
    let text = std::fs::read_to_string(&po).expect("po");
    let broken = text.replacen(
        "msgstr \"Division entière\"",
        "msgstr \"Division entière",
        1,
    );
    let line = broken[..broken.find("msgstr \"Division entière").expect("entry")]
        .matches('\n')
        .count()
        + 1;
    std::fs::write(&po, broken).expect("write");
    let out = mdbook(
        book.root(),
        &["build", "-d", "out"],
        &[("MDBOOK_BOOK__LANGUAGE", "fr")],
    );
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(
        err.contains(&format!(
            "po/fr.po:{line}:1: found an unterminated string; expected a closing `\"`"
        )),
        "{err}"
    );
}

#[test]
fn gettext_running_after_us_is_warned_with_the_fix() {
    let book = fixture();
    let toml = book.root().join("book.toml");
    let text = std::fs::read_to_string(&toml).expect("toml");
    std::fs::write(
        &toml,
        text.replace("after = [\"links\", \"gettext\"]", "after = [\"links\"]"),
    )
    .expect("write");
    let out = build(book.root(), Some("fr"));
    let err = stderr(&out);
    assert!(
        err.contains("[preprocessor.gettext] runs after mdbook-companion")
            && err.contains("after = [\"links\", \"gettext\"]"),
        "{err}"
    );
    // In the right order there is no such warning.
    std::fs::write(&toml, text).expect("write");
    assert!(!stderr(&build(book.root(), Some("fr"))).contains("runs after mdbook-companion"));
}

fn compiler_starts(book: &Path) -> usize {
    std::fs::read_to_string(crate::support::compiler_log(book))
        .unwrap_or_default()
        .lines()
        .count()
}

#[test]
fn check_and_a_french_build_share_verdicts_and_cache() {
    let book = fixture();
    let rustc = logging_wrapper_in(book.root(), "rustc-logged", "rustc");
    let cc = logging_wrapper_in(book.root(), "cc-logged", "cc");
    let toml = book.root().join("book.toml");
    let text = std::fs::read_to_string(&toml).expect("toml");
    std::fs::write(
        &toml,
        text.replace(
            "after = [\"links\", \"gettext\"]",
            &format!(
                "after = [\"links\", \"gettext\"]\nverify = true\nrustc = {rustc:?}\ncc = {cc:?}"
            ),
        ),
    )
    .expect("write");
    let report = book
        .run(&["check"], |cmd| {
            cmd.expect_stdout(str![[r#"
ok      src/division.md:5: rust example "Dividing by zero" (expect=panic)
ok      src/division.md:16: compare side "C: undefined behaviour" (expect=compile)
ok      src/division.md:23: compare side "Rust: a panic" (expect=run)
ok      src/exercise.md:6: exercise "Safe division" (starter) (expect=starter-compiles)
ok      src/exercise.md:12: exercise "Safe division" (tests) (expect=starter-fails)
ok      src/exercise.md:23: exercise "Safe division" (solution) (expect=solution-passes)
ok      src/quiz.md:18: quiz "Halves" (question 3) (expect=run)
note: book.toml lists the preprocessor `gettext`; check does not run it, and checks the chapters as mdBook's `links` preprocessor leaves them
compiler runs: 3, program runs: 5, from cache: 0
7 passed, 0 failed

"#]]);
        })
        .stdout;
    let starts = compiler_starts(book.root());
    assert!(starts > 0);
    // check in French: the same verdicts, from the same cache.
    let fr_report = book
        .run(&["check"], |cmd| {
            cmd.env("MDBOOK_BOOK__LANGUAGE", "fr")
                .expect_stdout(str![[r#"
ok      src/division.md:5: rust example "Dividing by zero" (expect=panic)
ok      src/division.md:16: compare side "C: undefined behaviour" (expect=compile)
ok      src/division.md:23: compare side "Rust: a panic" (expect=run)
ok      src/exercise.md:6: exercise "Safe division" (starter) (expect=starter-compiles)
ok      src/exercise.md:12: exercise "Safe division" (tests) (expect=starter-fails)
ok      src/exercise.md:23: exercise "Safe division" (solution) (expect=solution-passes)
ok      src/quiz.md:18: quiz "Halves" (question 3) (expect=run)
note: book.toml lists the preprocessor `gettext`; check does not run it, and checks the chapters as mdBook's `links` preprocessor leaves them
compiler runs: 0, program runs: 0, from cache: 7
7 passed, 0 failed

"#]]);
        })
        .stdout;
    let verdicts = |r: &str| -> Vec<String> {
        r.lines()
            .filter(|l| !l.starts_with("compiler runs:"))
            .map(str::to_owned)
            .collect()
    };
    assert_eq!(verdicts(&fr_report), verdicts(&report));
    assert_eq!(compiler_starts(book.root()), starts);
    // The French build verifies every claim from check's cache: the
    // translated prose is in no claim's key, so no compiler runs again.
    std::fs::remove_file(book.root().join("companion.lock")).ok();
    let out = build(book.root(), Some("fr"));
    assert_eq!(compiler_starts(book.root()), starts, "{}", stderr(&out));
    let fr = page(book.root(), "division.html");
    assert!(fr.all(".companion-verify").is_empty());
    assert_eq!(texts(&fr, ".companion-title")[0], "Diviser par <zéro> & co");
}

#[test]
fn an_exercise_is_extracted_and_translated_as_every_directive() {
    let book = fixture();
    let out = mdbook(
        book.root(),
        &["build", "-d", "po-out"],
        &[("MDBOOK_OUTPUT", "{\"xgettext\": {}}")],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let catalog =
        polib::po_file::parse(&book.root().join("po-out/messages.pot")).expect("the POT parses");
    let source = |id: &str| {
        catalog
            .find_message(None, id, None)
            .unwrap_or_else(|| panic!("no message {id:?} in the template"))
            .source()
            .to_owned()
    };
    // The title, the task and the hints, each at its line; the code's
    // comments as in any Rust block.
    for (id, at) in [
        ("Safe division", "src/exercise.md:3"),
        (
            "Write `divide`, which returns `None` for a zero divisor.",
            "src/exercise.md:4",
        ),
        ("Look for a `checked_` method.", "src/exercise.md:20"),
        ("// Your code here.\n", "src/exercise.md:8"),
    ] {
        assert_eq!(source(id), at, "{id}");
    }
    build(book.root(), Some("fr"));
    let fr = page(book.root(), "exercise.html");
    assert_eq!(texts(&fr, ".companion-title"), ["Division sûre"]);
    assert_eq!(texts(&fr, ".companion-number"), ["Exercice 3.1"]);
    assert_eq!(
        texts(&fr, ".companion-exercise-task"),
        ["Écrivez divide, qui rend None pour un diviseur nul."]
    );
    assert_eq!(
        texts(&fr, ".companion-exercise-hints"),
        ["Indices Cherchez une méthode checked_."]
    );
    // The code is the source's.
    let code = texts(&fr, ".companion-exercise-solution code");
    assert!(code[0].contains("a.checked_div(b)"), "{code:?}");
}

#[test]
fn a_quiz_is_extracted_and_translated_code_untouched() {
    let book = fixture();
    let out = mdbook(
        book.root(),
        &["build", "-d", "po-out"],
        &[("MDBOOK_OUTPUT", "{\"xgettext\": {}}")],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let catalog =
        polib::po_file::parse(&book.root().join("po-out/messages.pot")).expect("the POT parses");
    let source = |id: &str| {
        catalog
            .find_message(None, id, None)
            .unwrap_or_else(|| panic!("no message {id:?} in the template"))
            .source()
            .to_owned()
    };
    // The title, each question, option, accepted answer and explanation
    // at its line; the program's comment as in any Rust block.
    for (id, at) in [
        ("Halves", "src/quiz.md:3"),
        ("What does `7 / 2` evaluate to?", "src/quiz.md:4"),
        ("\\`3.5\\`", "src/quiz.md:6"),
        ("Integer division truncates.", "src/quiz.md:8"),
        ("Which keyword declares a variable?", "src/quiz.md:10"),
        ("let", "src/quiz.md:12"),
        ("A binding is immutable by default.", "src/quiz.md:14"),
        ("What does this program print?", "src/quiz.md:16"),
        ("// Seven halves.\n", "src/quiz.md:20"),
    ] {
        assert_eq!(source(id), at, "{id}");
    }
    build(book.root(), Some("fr"));
    let fr = page(book.root(), "quiz.html").answers_shown();
    assert_eq!(texts(&fr, ".companion-quiz .companion-title"), ["Moitiés"]);
    let legends: Vec<String> = texts(&fr, ".companion-quiz-question legend")
        .iter()
        .map(|l| l.replace('\u{2019}', "'"))
        .collect();
    assert_eq!(
        legends,
        [
            "Question 1 Que vaut 7 / 2 ?",
            "Question 2 Quel mot-clé déclare une variable ?",
            "Question 3 Qu'affiche ce programme ?",
        ]
    );
    let why = texts(&fr, ".companion-quiz-why");
    assert!(
        why.iter()
            .any(|w| w.contains("La division entière tronque.")),
        "{why:?}"
    );
    assert!(
        why.iter()
            .any(|w| w.contains("Une liaison est immuable par défaut.")),
        "{why:?}"
    );
    assert_eq!(texts(&fr, ".companion-quiz-check"), ["Vérifier"]);
    // The code and its output are the source's.
    let code = texts(&fr, ".companion-quiz pre code");
    assert!(
        code.iter().any(|c| c.contains("println!(\"{}\", 7 / 2);")),
        "{code:?}"
    );
    let keys = texts(&fr, ".companion-quiz-key");
    assert!(keys.iter().any(|k| k == "Il affiche : 3"), "{keys:?}");
}
