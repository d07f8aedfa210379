//! Numbered frames, `id=` anchors and the ```` ```claims ```` page, whose
//! verdicts come from the `companion.lock` that `check` writes.

use super::*;
use pretty_assertions::assert_eq;

const FIRST: &str = include_str!("claims/src/first.md");

const SECOND: &str = include_str!("claims/src/second.md");

const CLAIMS: &str = "# Claims\n\n```claims\n```\n";

fn book() -> BookTest {
    BookTest::new()
        .chapter("first.md", FIRST)
        .chapter("second.md", SECOND)
        .chapter("claims.md", CLAIMS)
}

fn numbers(page: &Page) -> Vec<(String, String)> {
    page.all(".companion-example")
        .into_iter()
        .map(|frame| {
            let number = inside(frame, ".companion-header a.companion-number");
            let label = number.first().map(|a| Page::text(*a)).unwrap_or_default();
            let href = number
                .first()
                .and_then(|a| a.value().attr("href"))
                .unwrap_or_default();
            let id = frame.value().attr("id").unwrap_or_default();
            assert_eq!(href, format!("#{id}"), "a number links to its own frame");
            (label, id.to_owned())
        })
        .collect()
}

/// The claims page as rows of cell texts, with each title's link.
fn rows(page: &Page) -> Vec<Vec<String>> {
    page.all(".companion-claims-table tbody tr")
        .into_iter()
        .map(|tr| {
            let mut cells: Vec<String> = inside(tr, "td").into_iter().map(Page::text).collect();
            let link = inside(tr, "td a");
            cells.push(
                link.first()
                    .and_then(|a| a.value().attr("href"))
                    .unwrap_or_default()
                    .to_owned(),
            );
            cells
        })
        .collect()
}

#[test]
fn frames_are_numbered_per_chapter_with_stable_anchors_in_both_paths() {
    let book = book();
    for build in [BookTest::build, BookTest::build_in_process] {
        build(&book).expect("build");
        assert_eq!(
            numbers(&book.page("first.md")),
            [
                ("Example 1.1".to_owned(), "example-1-1".to_owned()),
                ("Example 1.2".to_owned(), "example-1-2".to_owned()),
                ("Example 1.3".to_owned(), "rust-add".to_owned()),
            ]
        );
        // The compare block's sides go on counting after the example; a
        // plain fence (not ours) is not numbered.
        assert_eq!(
            numbers(&book.page("second.md")),
            [
                ("Example 2.1".to_owned(), "moved".to_owned()),
                ("Example 2.2".to_owned(), "example-2-2".to_owned()),
                ("Example 2.3".to_owned(), "example-2-3".to_owned()),
            ]
        );
    }
}

#[test]
fn the_claims_page_lists_every_frame_with_the_verdicts_of_the_lock() {
    let book = book();
    book.build().expect("build");
    // Before any check, nothing is claimed to hold.
    let before = rows(&book.page("claims.md"));
    assert_eq!(before.len(), 6, "{before:?}");
    assert!(
        before
            .iter()
            .filter(|r| r[2] != "—")
            .all(|r| r[3] == "Not in companion.lock"),
        "{before:?}"
    );
    let (stdout, stderr, code) = check(&book, &[]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    book.build().expect("build");
    let page = book.page("claims.md");
    let toolchain = |r: &[String]| r[4].split(' ').next().unwrap_or_default().to_owned();
    let got: Vec<(String, String, String, String, String, String)> = rows(&page)
        .iter()
        .map(|r| {
            (
                r[0].clone(),
                r[1].clone(),
                r[2].clone(),
                r[3].clone(),
                toolchain(r),
                r[5].clone(),
            )
        })
        .collect();
    let row = |a: &str, b: &str, c: &str, d: &str, e: &str, f: &str| {
        (a.into(), b.into(), c.into(), d.into(), e.into(), f.into())
    };
    assert_eq!(
        got,
        [
            row(
                "Example 1.1",
                "Adds Rust example",
                "Runs",
                "Holds",
                "rustc",
                "first.html#example-1-1"
            ),
            row(
                "Example 1.2",
                "C add C side",
                "Undefined behaviour",
                "Holds",
                "cc",
                "first.html#example-1-2"
            ),
            row(
                "Example 1.3",
                "Rust add Rust side",
                "Panics",
                "Holds",
                "rustc",
                "first.html#rust-add"
            ),
            row(
                "Example 2.1",
                "Rust example",
                "Does not compile · E0382",
                "Holds",
                "rustc",
                "second.html#moved"
            ),
            row(
                "Example 2.2",
                "Python Python side",
                "—",
                "Shown only",
                "",
                "second.html#example-2-2"
            ),
            row(
                "Example 2.3",
                "Rust side",
                "Not checked",
                "Not checked (ignore)",
                "",
                "second.html#example-2-3"
            ),
        ]
    );
    // Every title links to an anchor that exists on its page.
    for (file, id) in [
        ("first.md", "rust-add"),
        ("second.md", "moved"),
        ("second.md", "example-2-3"),
    ] {
        assert_eq!(
            book.page(file).all(&format!("#{id}")).len(),
            1,
            "{file}#{id}"
        );
    }
    let captions: Vec<String> = page
        .all(".companion-claims-table caption")
        .into_iter()
        .map(Page::text)
        .collect();
    assert_eq!(captions, ["1. first.md", "2. second.md"]);
    assert_eq!(
        Page::text(page.one(".companion-claims-summary")),
        "6 blocks: 4 passed, 1 shown only, 1 ignored."
    );

    // An edit after the check: that block alone is no longer vouched for,
    // on a build that recalls the other chapters from the memo.
    let mut book = book;
    book.set_chapter("first.md", &FIRST.replace("1 + 1", "2 + 0"));
    book.build().expect("build");
    let after = rows(&book.page("claims.md"));
    let verdicts: Vec<&str> = after.iter().map(|r| r[3].as_str()).collect();
    assert_eq!(
        verdicts,
        [
            "Not in companion.lock",
            "Holds",
            "Holds",
            "Holds",
            "Shown only",
            "Not checked (ignore)"
        ]
    );
}

#[test]
fn duplicate_and_malformed_ids_are_located_errors() {
    let twice = BookTest::new()
        .chapter(
            "a.md",
            "# A\n\n```rust example id=\"same\"\nfn main() {}\n```\n",
        )
        .chapter(
            "b.md",
            "# B\n\n````compare\n```c id=\"same\"\nint x;\n```\n```rust\nfn f() {}\n```\n````\n",
        );
    // The table of errors: each case, and what the build said.
    let mut table = String::new();
    let err = twice
        .build_in_process()
        .expect_err("a duplicate id fails the build");
    table.push_str(&format!("an id used twice\n{err}\n"));
    // An id may not take the shape of an anchor made from a number.
    let mut book = BookTest::new();
    for (case, chapter) in [
        (
            "an id shaped like a numbered anchor",
            "# A\n\n```rust example\nfn main() {}\n```\n\n```rust example id=\"example-1-1\"\nfn main() {}\n```\n",
        ),
        (
            "an id of two words",
            "```rust example id=\"two words\"\nfn main() {}\n```\n",
        ),
        ("a claims block with a body", "```claims\nnot empty\n```\n"),
    ] {
        book.set_chapter("a.md", chapter);
        let err = book.build_in_process().expect_err(case);
        table.push_str(&format!("{case}\n{err}\n"));
    }
    book.check_text(table, str![[r#"
an id used twice
src/b.md:4:6: found `id="same"` already used at src/a.md:3:17; expected an id used once in the book
an id shaped like a numbered anchor
src/a.md:7:17: found `example-1-1` for `id`; expected a name of your own (`example-` and numbers are the anchors made from block numbers)
an id of two words
src/a.md:1:17: found `two words` for `id`; expected a letter followed by letters, digits, `-` or `_`
a claims block with a body
src/a.md:1:4: found text inside a claims block; expected an empty block (the page is made from the book)

"#]]);
}

#[test]
fn other_renderers_get_a_plain_list() {
    let book = book().toml("[output.html]\n[output.markdown]");
    book.build().expect("build");
    let md = std::fs::read_to_string(book.output_dir("markdown").join("claims.md")).expect("md");
    assert!(
        md.contains("6 blocks: 5 not in companion.lock, 1 shown only."),
        "{md}"
    );
    assert!(md.contains("**[1. first.md](<first.md>)**"), "{md}");
    assert!(
        md.contains(
            "- Example 1.3: [Rust add](<first.md#rust-add>) — Panics — Not in companion.lock"
        ),
        "{md}"
    );
    let first = std::fs::read_to_string(book.output_dir("markdown").join("first.md")).expect("md");
    assert!(first.contains("Example 1.1 — **Adds** — *Runs*"), "{first}");
}
