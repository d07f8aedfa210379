//! `mdbook-companion init`: a start from nothing. A new book in an empty
//! folder passes `check` (and `check --locked` after it) and builds, its
//! example rendered with the output it printed; a folder that holds a
//! book is refused and left as it was; `install` where there is no book
//! points to `init`.

use crate::support::{BIN, BookTest, Page};
use scraper::Html;
use std::path::Path;
use std::process::Command;

/// Runs the binary with `args` in `dir`; (success, stdout, stderr).
fn run(dir: &Path, args: &[&str]) -> (bool, String, String) {
    let out = Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run the binary");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_new_book_checks_locks_and_builds() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (ok, _, said) = run(
        dir.path(),
        &["init", "course", "--title", "Rust for lecturers"],
    );
    assert!(ok, "{said}");
    assert!(said.contains("mdbook-companion check course"), "{said}");
    let root = dir.path().join("course");
    let toml = std::fs::read_to_string(root.join("book.toml")).expect("book.toml");
    assert!(toml.contains("title = \"Rust for lecturers\""), "{toml}");
    // `--locked` before any check: there is no lock yet.
    let (ok, _, _) = run(dir.path(), &["check", "--locked", "course"]);
    assert!(!ok, "--locked passed without a lock");
    let (ok, report, said) = run(dir.path(), &["check", "course"]);
    assert!(ok, "{report}{said}");
    assert!(report.ends_with("1 passed, 0 failed\n"), "{report}");
    assert!(root.join("companion.lock").is_file());
    let (ok, report, said) = run(dir.path(), &["check", "--locked", "course"]);
    assert!(ok, "{report}{said}");
    let (ok, _, said) = run(dir.path(), &["build", "course"]);
    assert!(ok, "{said}");
    let html = std::fs::read_to_string(root.join("book/chapter_1.html")).expect("the page");
    let page = Page(Html::parse_document(&html));
    let example = page.one("main div.companion-example");
    assert_eq!(
        Page::text(page.one("main div.companion-example .companion-title")),
        "Hello"
    );
    assert!(
        example.value().attr("data-companion-run").is_some(),
        "{}",
        example.html()
    );
    assert_eq!(
        Page::text(page.one("main div.companion-output code")),
        "Hello from mdbook-companion!"
    );
    // The stylesheet install wrote is the one the page links.
    assert!(
        html.contains("href=\"theme/companion-"),
        "no stylesheet link"
    );
}

#[test]
fn init_refuses_a_folder_with_a_book() {
    let book = BookTest::new().chapter("a.md", "# A\n");
    book.write();
    let toml = std::fs::read_to_string(book.root().join("book.toml")).expect("book.toml");
    let (ok, _, said) = run(book.root(), &["init"]);
    assert!(!ok);
    assert_eq!(
        said,
        "mdbook-companion: error: ./book.toml already exists: found a book there; expected a folder without book.toml (to add the preprocessor to that book, run `mdbook-companion install .`)\n"
    );
    assert_eq!(
        std::fs::read_to_string(book.root().join("book.toml")).expect("book.toml"),
        toml
    );
    assert!(!book.root().join("src/chapter_1.md").exists());
    // A chapter of its own where init would write one: nothing written.
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir(dir.path().join("src")).expect("src");
    std::fs::write(dir.path().join("src/SUMMARY.md"), "# Mine\n").expect("summary");
    let (ok, _, said) = run(dir.path(), &["init", "."]);
    assert!(!ok);
    assert!(
        said.contains("found src/SUMMARY.md already in .; expected a folder without them"),
        "{said}"
    );
    assert!(!dir.path().join("book.toml").exists());
}

#[test]
fn install_without_a_book_points_to_init() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir(dir.path().join("notes")).expect("mkdir");
    let (ok, _, said) = run(dir.path(), &["install", "notes"]);
    assert!(!ok);
    assert_eq!(
        said,
        "mdbook-companion: error: found no book.toml in notes; expected an mdBook book's root directory: pass the root of an existing book, or run `mdbook-companion init notes` to start a new book there\n"
    );
    assert_eq!(
        std::fs::read_dir(dir.path().join("notes"))
            .expect("ls")
            .count(),
        0
    );
}
