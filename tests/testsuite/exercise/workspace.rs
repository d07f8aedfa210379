//! `mdbook-companion exercises`: the workspace a student gets, run with
//! the real `cargo test --offline` (a path crate, no network): it fails on
//! the starters and passes on the solutions; a re-run rewrites only its
//! own files; a broken exercise is located and nothing is written.

use crate::support::BookTest;
use std::path::Path;
use std::process::Command;

/// The fixture's path crate.
const MYLIB: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/crates-book/crates/mylib"
);

fn course_book(chapter: &str) -> BookTest {
    let mut book = BookTest::new()
        .chapter("course.md", chapter)
        .toml("[preprocessor.companion.dependencies]\nmylib = { path = \"crates/mylib\" }\n");
    for file in ["Cargo.toml", "src/lib.rs"] {
        let text = std::fs::read_to_string(Path::new(MYLIB).join(file)).expect("the fixture crate");
        book = book.file(&format!("crates/mylib/{file}"), text);
    }
    book.write();
    book
}

/// Runs `exercises` on the book; (stderr, success).
fn exercises(book: &BookTest, out: &Path, solutions: bool) -> (String, bool) {
    let ran = book.run(&["exercises"], |cmd| {
        cmd.arg(book.root())
            .arg("--out")
            .arg(out)
            .expect_any_status();
        if solutions {
            cmd.arg("--solutions");
        }
    });
    (ran.stderr, ran.code == 0)
}

/// `cargo test --offline` in the workspace; (stdout and stderr, success).
fn cargo_test(ws: &Path) -> (String, bool) {
    let o = Command::new("cargo")
        .args(["test", "--offline", "--quiet"])
        .current_dir(ws)
        .env("CARGO_TARGET_DIR", ws.join("target"))
        .env_remove("RUSTFLAGS")
        .output()
        .expect("run cargo");
    (
        format!(
            "{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        ),
        o.status.success(),
    )
}

#[test]
fn starters_fail_their_tests_and_solutions_pass() {
    let book = course_book(include_str!("course.md"));
    let ws = tempfile::tempdir().unwrap();
    let out = ws.path().join("exercises");
    let (said, ok) = exercises(&book, &out, false);
    assert!(ok, "{said}");
    assert!(said.contains("2 exercise(s) (starters)"), "{said}");
    assert!(said.contains("safe-division, double-point"), "{said}");
    let lib = std::fs::read_to_string(out.join("double-point/src/lib.rs")).unwrap();
    assert!(
        lib.starts_with("//! Doubling a point (src/course.md)\n"),
        "{lib}"
    );
    assert!(
        lib.contains("todo!()") && lib.contains("fn doubles_both()"),
        "{lib}"
    );
    // The tests stand indented in their module; the starter's unused
    // argument is not warned about.
    assert!(
        lib.contains("mod tests {\n    use super::*;\n\n    #[test]\n    fn doubles_both() {\n        assert_eq!("),
        "{lib}"
    );
    let manifest = std::fs::read_to_string(out.join("double-point/Cargo.toml")).unwrap();
    assert!(
        manifest.contains("[dependencies]\n\"mylib\" = { workspace = true }"),
        "{manifest}"
    );
    let (output, passed) = cargo_test(&out);
    assert!(!passed, "the starters pass their tests:\n{output}");
    assert!(output.contains("not yet implemented"), "{output}");
    assert!(!output.contains("warning"), "{output}");
    // A file of the student's own, beside ours, survives every run.
    let notes = out.join("safe-division/src/notes.rs");
    std::fs::write(&notes, "// mine\n").unwrap();
    let (said, ok) = exercises(&book, &out, true);
    assert!(ok, "{said}");
    let (output, passed) = cargo_test(&out);
    assert!(passed, "the solutions fail their tests:\n{output}");
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "// mine\n");
    // The student's edit of a starter is kept, and named.
    let lib = out.join("safe-division/src/lib.rs");
    std::fs::write(
        &lib,
        "pub fn divide(a: i32, b: i32) -> Option<i32> { None }\n",
    )
    .unwrap();
    let (said, ok) = exercises(&book, &out, false);
    assert!(ok, "{said}");
    assert!(
        said.contains("kept safe-division/src/lib.rs: changed since it was written"),
        "{said}"
    );
    assert!(
        std::fs::read_to_string(&lib)
            .unwrap()
            .ends_with("{ None }\n")
    );
}

#[test]
fn a_broken_exercise_is_located_and_nothing_is_written() {
    let chapter = include_str!("course.md").replace(
        "```rust solution\nuse mylib",
        "```rust solutions\nuse mylib",
    );
    let book = course_book(&chapter);
    let ws = tempfile::tempdir().unwrap();
    let out = ws.path().join("exercises");
    let (said, ok) = exercises(&book, &out, false);
    assert!(!ok);
    let line = chapter
        .lines()
        .position(|l| l == "```rust solutions")
        .unwrap()
        + 1;
    assert!(
        said.contains(&format!(
            "src/course.md:{line}:4: found a ```rust solutions block; expected one of"
        )),
        "{said}"
    );
    assert!(!out.exists());
}

#[test]
fn a_directory_with_files_not_ours_is_left_alone() {
    let book = course_book(include_str!("course.md"));
    let ws = tempfile::tempdir().unwrap();
    std::fs::write(ws.path().join("Cargo.toml"), "[package]\nname = \"mine\"\n").unwrap();
    let (said, ok) = exercises(&book, ws.path(), false);
    assert!(!ok);
    assert!(
        said.contains("already holds Cargo.toml, not written by"),
        "{said}"
    );
    assert!(!ws.path().join("safe-division").exists());
}

/// The workspace's manifest names the book by its `[book] title`, not by
/// the folder it is in; a title with a line break stays one comment line,
/// so the manifest is still the workspace Cargo reads.
#[test]
fn the_workspace_is_named_after_the_books_title() {
    let book = course_book(include_str!("course.md"));
    let toml = book.root().join("book.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    let ws = tempfile::tempdir().unwrap();
    for (title, shown) in [
        ("\"Case\"", "Case"),
        (
            "\"Rust for\\nLecturers\\r\\n[x]\"",
            "Rust for Lecturers [x]",
        ),
    ] {
        let titled = text.replacen("title = \"Case\"", &format!("title = {title}"), 1);
        assert_ne!(titled.contains("Rust for"), title == "\"Case\"");
        std::fs::write(&toml, titled).unwrap();
        let out = ws.path().join(shown.replace(' ', "-"));
        let (said, ok) = exercises(&book, &out, false);
        assert!(ok, "{said}");
        let manifest = std::fs::read_to_string(out.join("Cargo.toml")).unwrap();
        let first = manifest.lines().next().unwrap();
        assert_eq!(
            first,
            format!(
                "# The exercises of the book `{shown}` (starters), written by `mdbook-companion exercises`."
            )
        );
        let parsed: toml::Table = manifest.parse().expect("the manifest is TOML");
        assert_eq!(
            parsed["workspace"]["members"].as_array().map(Vec::len),
            Some(2),
            "{manifest}"
        );
    }
}
