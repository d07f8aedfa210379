//! Any book, unchanged: `check` on a book that never heard of us checks
//! every block `mdbook test` would, with rustdoc's meaning and verdicts
//! (the case book `anybook/plain/`, one block per chapter, so that real
//! `mdbook test` of one chapter is that block's verdict); expected
//! compile failures in merged builds give the verdicts of `--no-merge`.

use crate::support::BIN;
use pretty_assertions::assert_eq;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A copy of the case book `anybook/NAME` in a temporary directory.
pub fn case_book(name: &str) -> tempfile::TempDir {
    let from = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/testsuite/anybook")
        .join(name);
    let dir = tempfile::tempdir().expect("tempdir");
    copy_dir(&from, dir.path());
    dir
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read_dir") {
        let path = entry.expect("entry").path();
        let target = to.join(path.file_name().expect("name"));
        if path.is_dir() {
            copy_dir(&path, &target);
        } else {
            std::fs::copy(&path, &target).expect("copy");
        }
    }
}

/// `check --format json ARGS` on a book: the report and the exit code.
pub fn check_json(root: &Path, args: &[&str]) -> (Value, i32) {
    let out = Command::new(BIN)
        .arg("check")
        .arg(root)
        .args(["--format", "json"])
        .args(args)
        .output()
        .expect("run check");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let json = serde_json::from_str(&stdout).unwrap_or_else(|e| {
        panic!(
            "json: {e}\nstdout: {stdout}\nstderr: {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (json, out.status.code().unwrap_or(-1))
}

/// `(file, line, status)` of every result.
pub fn verdicts(json: &Value) -> Vec<(String, u64, String)> {
    json["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| {
            (
                r["file"].as_str().unwrap_or_default().to_owned(),
                r["line"].as_u64().unwrap_or_default(),
                r["status"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect()
}

/// What the case book's blocks must give: chapter name, file, line of
/// the fence in the file, and check's verdict.
const PLAIN: [(&str, &str, u64, &str); 22] = [
    ("run", "run.md", 3, "passed"),
    ("loose", "loose.md", 5, "passed"),
    ("hidden", "hidden.md", 3, "passed"),
    ("panics", "panics.md", 3, "passed"),
    ("no panic", "no_panic.md", 3, "failed"),
    ("fails", "fails.md", 3, "failed"),
    ("no run", "no_run.md", 3, "passed"),
    ("compile fail", "compile_fail.md", 3, "passed"),
    ("compile fail code", "compile_fail_code.md", 3, "passed"),
    // The one intended difference: rustdoc on stable ignores the code.
    ("wrong code", "wrong_code.md", 3, "failed"),
    ("compiles", "compiles.md", 3, "failed"),
    ("ignore", "ignore.md", 3, "ignored"),
    ("edition 2015", "edition2015.md", 3, "passed"),
    ("book edition", "book_edition.md", 3, "passed"),
    ("crate name", "crate_name.md", 3, "passed"),
    ("harness", "harness.md", 3, "passed"),
    ("harness fails", "harness_fails.md", 3, "failed"),
    ("result", "result.md", 3, "passed"),
    // The fence is on line 5 of the file; `mdbook test` counts line 7,
    // after the three included lines.
    ("include", "include.md", 5, "passed"),
    ("indented", "indented.md", 5, "passed"),
    ("not rust", "not_rust.md", 0, "none"),
    ("nested", "sub/nested.md", 3, "passed"),
];

#[test]
fn plain_blocks_get_the_verdicts_of_mdbook_test() {
    let book = case_book("plain");
    let (json, code) = check_json(book.path(), &[]);
    assert_eq!(code, 1, "{json:#}");
    let want: Vec<(String, u64, String)> = PLAIN
        .iter()
        .filter(|(_, _, _, v)| *v != "none")
        .map(|(_, f, l, v)| (format!("src/{f}"), *l, (*v).to_owned()))
        .collect();
    assert_eq!(verdicts(&json), want);
    let results = json["results"].as_array().expect("results");
    let include = results
        .iter()
        .find(|r| r["file"] == "src/include.md")
        .expect("include");
    assert_eq!(include["test_line"], 7);
    let wrong = results
        .iter()
        .find(|r| r["file"] == "src/wrong_code.md")
        .expect("wrong code");
    let message = wrong["message"].as_str().unwrap_or_default();
    assert!(message.contains("E0308 instead of E0382"), "{message}");
    let notes = json["notes"].to_string();
    assert!(notes.contains("`not-installed`"), "{notes}");

    // Real `mdbook test`, chapter by chapter: the same verdicts, but for
    // the error code rustdoc checks only on nightly.
    for (name, file, _, ours) in PLAIN {
        let mut md = mdbook_driver::MDBook::load(book.path()).expect("load");
        let rustdoc = match md.test_chapter(Vec::new(), Some(name)) {
            Ok(()) if file == "ignore.md" => "ignored",
            Ok(()) if ours == "none" => "none",
            Ok(()) => "passed",
            Err(_) => "failed",
        };
        let want = if file == "wrong_code.md" {
            "passed"
        } else {
            ours
        };
        assert_eq!(rustdoc, want, "mdbook test of {file}");
    }

    // Warm: no compiler start, the same report.
    let (warm, _) = check_json(book.path(), &[]);
    assert_eq!(warm["compiler_runs"], 0, "{warm:#}");
    assert_eq!(verdicts(&warm), verdicts(&json));
}

#[test]
fn compile_fail_blocks_merged_give_the_verdicts_of_no_merge() {
    let book = case_book("compile-fail");
    let alone = case_book("compile-fail");
    let (merged, _) = check_json(book.path(), &[]);
    let (single, _) = check_json(alone.path(), &["--no-merge"]);
    assert_eq!(verdicts(&merged), verdicts(&single));
    let statuses: Vec<String> = verdicts(&merged).into_iter().map(|v| v.2).collect();
    assert!(statuses.iter().any(|s| s == "failed"), "{statuses:?}");
    assert!(
        statuses.iter().filter(|s| *s == "passed").count() >= 8,
        "{statuses:?}"
    );
    let runs = |j: &Value| j["compiler_runs"].as_u64().unwrap_or_default();
    assert!(
        runs(&merged) < runs(&single),
        "merged {} vs alone {}",
        runs(&merged),
        runs(&single)
    );
    // Each failure's message is told at the block's own lines.
    for r in merged["results"].as_array().expect("results") {
        if let Some(detail) = r["detail"].as_str() {
            assert!(!detail.contains("__companion_ex"), "{detail}");
        }
    }
}
