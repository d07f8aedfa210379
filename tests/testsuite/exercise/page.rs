//! An exercise on the page, through real mdBook: number and title, the
//! task, the starter runnable with the tests behind it, a Playground link
//! with the starter and the tests and never the solution, the tests,
//! hints and solution in closed disclosures; print and other renderers.

use crate::support::{BookTest, Page, inside};
use pretty_assertions::assert_eq;

/// The fixture's path crate.
const MYLIB: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/crates-book/crates/mylib"
);

fn course(companion: &str) -> BookTest {
    let hints = include_str!("course.md").replace(
        "```rust solution\npub fn divide",
        "```hints\nTry `i32::checked_div` <b>now</b>.\n```\n\n```rust solution\npub fn divide",
    );
    let mut book = BookTest::new()
        .companion(companion)
        .chapter("course.md", &hints)
        .toml("[preprocessor.companion.dependencies]\nmylib = { path = \"crates/mylib\" }\n");
    for file in ["Cargo.toml", "src/lib.rs"] {
        let text = std::fs::read_to_string(std::path::Path::new(MYLIB).join(file))
            .expect("the fixture crate");
        book = book.file(&format!("crates/mylib/{file}"), text);
    }
    book
}

/// The code the Playground link of `url` carries.
fn playground_code(url: &str) -> String {
    let q = url.split_once('?').expect("query").1;
    form_urlencoded::parse(q.as_bytes())
        .find_map(|(k, v)| (k == "code").then(|| v.into_owned()))
        .expect("code")
}

#[test]
fn an_exercise_shows_its_task_a_runnable_starter_and_closed_parts() {
    let book = course("");
    let page = book.html("course.md");
    let all = page.all("main div.companion-exercise");
    assert_eq!(all.len(), 2);
    let ex = all[0];
    assert_eq!(ex.value().attr("id"), Some("safe-division"));
    assert_eq!(
        Page::text(inside(ex, ".companion-header")[0]),
        "Exercise 1.1Safe division"
    );
    assert_eq!(
        Page::text(inside(all[1], ".companion-number")[0]),
        "Exercise 1.2",
        "exercises number on from each other"
    );
    assert_eq!(
        Page::text(inside(ex, ".companion-exercise-task")[0]),
        "Write divide, which returns None where / would panic."
    );
    // The starter: an editable, runnable mdBook block whose hidden lines
    // are the tests and their runner.
    let pre = inside(ex, ":scope > pre.playground");
    assert_eq!(pre.len(), 1, "the starter is runnable");
    let code = inside(pre[0], "code.language-rust")[0];
    let classes: Vec<&str> = code.value().classes().collect();
    assert!(
        classes.contains(&"editable") && classes.contains(&"edition2021"),
        "{classes:?}"
    );
    let shown: String = code.text().collect();
    assert!(
        shown.contains("todo!()") && shown.contains("__companion_run"),
        "{shown}"
    );
    assert!(!shown.contains("checked_div"), "no solution in the starter");
    assert!(!inside(code, ".boring").is_empty(), "the runner is hidden");
    // The Playground link: the starter and the tests, never the solution.
    let link = inside(ex, ".companion-links a.companion-link")[0];
    assert_eq!(Page::text(link), "Playground");
    let sent = playground_code(link.value().attr("href").unwrap());
    assert!(
        sent.contains("todo!()")
            && sent.contains("#[cfg(test)]\nmod tests {")
            && sent.contains("fn by_zero_is_none()"),
        "{sent}"
    );
    assert!(!sent.contains("checked_div"), "{sent}");
    // Tests, hints and solution: closed disclosures, in that order.
    let parts: Vec<(String, bool)> = inside(ex, ":scope > details")
        .iter()
        .map(|d| {
            (
                Page::text(inside(*d, "summary")[0]),
                d.value().attr("open").is_some(),
            )
        })
        .collect();
    assert_eq!(
        parts,
        [
            ("Tests".into(), false),
            ("Hints".into(), false),
            ("Solution".into(), false)
        ]
    );
    let hints = inside(ex, ".companion-exercise-hints")[0];
    assert!(inside(hints, "b").is_empty(), "raw HTML in hints is text");
    assert!(
        Page::text(hints).contains("<b>now</b>"),
        "{}",
        Page::text(hints)
    );
    let solution = inside(ex, ".companion-exercise-solution")[0];
    assert!(Page::text(solution).contains("checked_div"));
    assert!(
        !solution
            .value()
            .classes()
            .any(|c| c == "companion-exercise-printed")
    );
    // An exercise that needs a crate the Playground lacks: a note, and no
    // play button that could not work.
    let crates = all[1];
    assert_eq!(
        Page::text(inside(crates, ".companion-link-note")[0]),
        "needs mylib, not on the Playground"
    );
    assert!(inside(crates, ":scope > pre.playground").is_empty());
}

#[test]
fn solutions_print_only_when_the_book_says_so() {
    let book = course("print-solutions = true");
    let page = book.html("course.md");
    for solution in page.all(".companion-exercise-solution") {
        assert!(
            solution
                .value()
                .classes()
                .any(|c| c == "companion-exercise-printed")
        );
    }
    let css = mdbook_companion_directives::assets::stamped_stylesheet();
    assert!(
        css.contains(".companion-exercise-solution:not(.companion-exercise-printed)"),
        "the print rule"
    );
}

#[test]
fn other_renderers_get_markdown_without_the_solution() {
    let book = course("").toml("[output.html]\n[output.markdown]\n");
    book.build().unwrap();
    let md = std::fs::read_to_string(book.output_dir("markdown").join("course.md")).unwrap();
    assert!(md.contains("**Exercise 1.1 — Safe division**"), "{md}");
    assert!(
        md.contains("Tests:\n\n```rust,edition2021\n#[test]\nfn divides()"),
        "{md}"
    );
    assert!(md.contains("Hints:"), "{md}");
    assert!(!md.contains("checked_div(b)"), "{md}");
    assert!(!md.contains("Solution:"), "{md}");
}

#[test]
fn mdbook_test_compiles_the_starter_and_runs_the_solutions_tests() {
    let verdicts = include_str!("verdicts.md");
    let good = &verdicts[..verdicts
        .find("````exercise title=\"Tests that")
        .expect("second")];
    let book = BookTest::new().chapter("t.md", good);
    book.write();
    let mut md = mdbook_driver::MDBook::load(book.root()).expect("load");
    md.test(vec![])
        .expect("a sound exercise passes mdbook test");
    // A solution that fails its tests fails `mdbook test`.
    let start = verdicts
        .find("````exercise title=\"A wrong")
        .expect("wrong");
    let end = verdicts
        .find("````exercise title=\"A starter")
        .expect("next");
    let book = BookTest::new().chapter("t.md", &verdicts[start..end]);
    book.write();
    let mut md = mdbook_driver::MDBook::load(book.root()).expect("load");
    assert!(
        md.test(vec![]).is_err(),
        "a wrong solution fails mdbook test"
    );
}
