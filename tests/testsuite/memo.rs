//! Whole chapters remembered across builds (`src/memo.rs`), through real
//! mdBook: the same pages from one entry per chapter, and a fresh render
//! whenever anything the chapter's rendering reads has changed.

use crate::support::{BookTest, Page, logging_wrapper};
use mdbook_driver::MDBook;
use pretty_assertions::assert_eq;

const DATA: &str = "[[entry]]\nid = \"rb\"\ntitle = \"The Rust Book\"\nurl = \"https://doc.rust-lang.org/book/\"\n";

const CLEAN: &str = "# Clean\n\n```rust example title=\"Add\"\nfn main() { println!(\"{}\", 1 + 2); }\n```\n\n```output\n3\n```\n\n```reading-list ids=[\"rb\"]\n```\n";

const FALSE: &str = "# False\n\n```rust example title=\"Wrong\"\nfn main() { println!(\"4\"); }\n```\n\n```output\n5\n```\n";

/// A book with `verify` on, its rustc wrapped to log every start.
fn book(on_failure: &str, chapters: &[(&str, &str)]) -> BookTest {
    let mut book = BookTest::new().file("src/reading-list.toml", DATA);
    for (file, text) in chapters {
        book = book.chapter(file, text);
    }
    let rustc = logging_wrapper(&book, "rustc-log", "rustc");
    let book = book.companion(&format!(
        "verify = true\non-failure = \"{on_failure}\"\nrustc = \"{rustc}\""
    ));
    book.write();
    book
}

/// Builds the book as it is on disk (edits included), with the command
/// preprocessor.
fn rebuild(book: &BookTest) {
    let md = MDBook::load(book.root()).expect("load");
    md.build().expect("build");
}

fn html(book: &BookTest, chapter: &str) -> String {
    std::fs::read_to_string(
        book.output_dir("html")
            .join(chapter.replace(".md", ".html")),
    )
    .expect("page")
}

fn entries(book: &BookTest) -> usize {
    let dir = book.root().join(".companion-cache/chapter");
    std::fs::read_dir(dir).map_or(0, |d| {
        d.filter_map(Result::ok)
            .map(|sub| std::fs::read_dir(sub.path()).map_or(0, Iterator::count))
            .sum()
    })
}

fn starts(book: &BookTest) -> usize {
    std::fs::read_to_string(crate::support::compiler_log(book.root()))
        .unwrap_or_default()
        .lines()
        .filter(|l| !l.contains("--version") && !l.contains(" -V"))
        .count()
}

fn edit(book: &BookTest, path: &str, from: &str, to: &str) {
    let p = book.root().join(path);
    let text = std::fs::read_to_string(&p).expect("read");
    assert!(text.contains(from), "{from:?} not in {path}");
    std::fs::write(&p, text.replace(from, to)).expect("write");
}

#[test]
fn a_warm_build_gives_the_same_pages_from_one_entry_per_chapter() {
    let book = book("bail", &[("a.md", CLEAN), ("b.md", CLEAN)]);
    rebuild(&book);
    // The first build made the cache; chapters are remembered from the next.
    assert_eq!(entries(&book), 0);
    let cold = (html(&book, "a.md"), html(&book, "b.md"));
    rebuild(&book);
    assert_eq!(entries(&book), 2);
    assert_eq!((html(&book, "a.md"), html(&book, "b.md")), cold);
    // With the per-block results gone, a remembered chapter still needs no
    // compiler: it came from its one entry.
    std::fs::remove_dir_all(book.root().join(".companion-cache/check")).expect("rm");
    let before = starts(&book);
    rebuild(&book);
    assert_eq!(starts(&book), before);
    assert_eq!((html(&book, "a.md"), html(&book, "b.md")), cold);
}

#[test]
fn any_changed_input_renders_the_chapter_afresh() {
    let book = book("bail", &[("a.md", CLEAN)]);
    rebuild(&book);
    rebuild(&book);
    assert_eq!(entries(&book), 1);
    let title = |book: &BookTest| {
        Page::text(
            Page(scraper::Html::parse_document(&html(book, "a.md"))).one("a.companion-card-link"),
        )
    };
    assert_eq!(title(&book), "The Rust Book");

    // The chapter's text.
    edit(&book, "src/a.md", "1 + 2", "2 + 1");
    rebuild(&book);
    assert!(html(&book, "a.md").contains("2 + 1"));

    // The configuration.
    edit(
        &book,
        "book.toml",
        "verify = true",
        "verify = true\nplayground-url = \"https://play.example.org/\"",
    );
    rebuild(&book);
    assert!(html(&book, "a.md").contains("https://play.example.org/?version=stable"));

    // The reading-list data file.
    edit(&book, "src/reading-list.toml", "The Rust Book", "The Book");
    rebuild(&book);
    assert_eq!(title(&book), "The Book");

    // The compiler's file: replaced, it is asked its version again.
    let wrapper = book.root().join("rustc-log");
    let script = std::fs::read_to_string(&wrapper).expect("wrapper");
    std::fs::write(&wrapper, format!("{script}# replaced\n")).expect("rewrite");
    let before = entries(&book);
    rebuild(&book);
    assert_eq!(entries(&book), before + 1);
}

#[test]
fn chapters_with_problems_are_never_remembered() {
    let book = book("continue", &[("a.md", CLEAN), ("f.md", FALSE)]);
    for _ in 0..3 {
        rebuild(&book);
        // The false claim is marked on every build, never replayed.
        assert!(html(&book, "f.md").contains("companion-verify"));
    }
    assert_eq!(entries(&book), 1);
}

#[test]
fn a_book_without_a_cache_gets_none() {
    let book = BookTest::new().chapter("a.md", "# A\n\n```rust example\nfn main() {}\n```\n");
    book.write();
    rebuild(&book);
    rebuild(&book);
    assert!(!book.root().join(".companion-cache").exists());
}

#[test]
fn chapters_holding_braces_are_rendered_every_time() {
    // `{{` may be an include mdBook left as text, whose warning depends on
    // files outside the key: such a chapter is never stored.
    let braces =
        "# B\n\n```rust example\nfn main() { println!(\"{{}}\"); }\n```\n\n```output\n{}\n```\n";
    let book = book("bail", &[("a.md", CLEAN), ("b.md", braces)]);
    rebuild(&book);
    rebuild(&book);
    assert_eq!(entries(&book), 1);
    assert!(html(&book, "b.md").contains("companion-example"));
}
