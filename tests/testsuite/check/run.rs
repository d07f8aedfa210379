//! `check` run on a case book and its report read: shared by the
//! testsuite's `check` modules and the Valgrind target (`tests/valgrind/`),
//! which includes this file.

use crate::support::{BIN, TestBook};
use serde_json::Value;
use std::process::Command;

/// Runs `check` on the book as written; (stdout, stderr, exit code).
pub fn check(book: &TestBook, args: &[&str]) -> (String, String, i32) {
    let out = Command::new(BIN)
        .arg("check")
        .arg(book.root())
        .args(args)
        .output()
        .expect("run check");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

pub fn check_json(book: &TestBook, args: &[&str]) -> (Value, i32) {
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
