//! `check` run on a case book and its report read: shared by the
//! testsuite's `check` modules and the Valgrind target (`tests/valgrind/`),
//! which includes this file.

use crate::support::BookTest;
use serde_json::Value;

/// Runs `check` on the book as written; (stdout, stderr, exit code),
/// for the caller to check.
pub fn check(book: &BookTest, args: &[&str]) -> (String, String, i32) {
    let root = book.root().to_str().expect("a UTF-8 path");
    let ran = book.run(&[&["check", root], args].concat(), |cmd| {
        cmd.expect_any_status();
    });
    (ran.stdout, ran.stderr, ran.code)
}

pub fn check_json(book: &BookTest, args: &[&str]) -> (Value, i32) {
    let mut all = vec!["--format", "json"];
    all.extend_from_slice(args);
    let (stdout, stderr, code) = check(book, &all);
    let json = serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("json: {e}\nstdout: {stdout}\nstderr: {stderr}"));
    (json, code)
}

/// 1-based line of the first line containing `needle`.
pub fn line_of(text: &str, needle: &str) -> usize {
    text.lines()
        .position(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("{needle} not in text"))
        + 1
}

/// The results without `cached`, which depends on which of two identical
/// jobs ran first.
pub fn verdicts(report: &Value) -> Vec<Value> {
    let mut results = report["results"].as_array().cloned().unwrap_or_default();
    for r in &mut results {
        if let Some(o) = r.as_object_mut() {
            o.remove("cached");
        }
    }
    assert!(!results.is_empty(), "no results in {report}");
    results
}
