//! The example book checked merged and with `--no-merge` (each example
//! alone): the same report, with at most half the compiler starts. Its
//! comparisons run Memcheck, hence this target.

use crate::run::verdicts;
use serde_json::Value;
use std::path::Path;

/// A copy of the example book with no cache.
fn example_book_copy(to: &Path) {
    crate::tools::valgrind();
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("example-book");
    let status = std::process::Command::new("cp")
        .arg("-r")
        .arg(&from)
        .arg(to)
        .status()
        .expect("cp");
    assert!(status.success());
    let _ = std::fs::remove_dir_all(to.join(".companion-cache"));
    let _ = std::fs::remove_dir_all(to.join("book"));
}

#[test]
fn merged_and_alone_report_the_same_on_the_example_book() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path().join("book");
    example_book_copy(&root);
    let run = |args: &[&str]| {
        let _ = std::fs::remove_dir_all(root.join(".companion-cache"));
        let out = std::process::Command::new(crate::support::BIN)
            .arg("check")
            .arg(&root)
            .args(["--format", "json"])
            .args(args)
            .output()
            .expect("check");
        serde_json::from_slice::<Value>(&out.stdout).expect("json")
    };
    let merged = run(&[]);
    let alone = run(&["--no-merge"]);
    assert_eq!(verdicts(&merged), verdicts(&alone));
    assert_eq!(merged["summary"], alone["summary"]);
    let starts = |v: &Value| v["compiler_runs"].as_u64().unwrap_or(0);
    assert!(
        starts(&merged) * 2 <= starts(&alone),
        "merged {} vs alone {} compiler starts",
        starts(&merged),
        starts(&alone)
    );
}
