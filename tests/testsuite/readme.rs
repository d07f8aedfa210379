//! The README's examples are true: every ````markdown block of the README
//! that holds a `rust example` or a `compare` block is a chapter of one
//! book, and `check` passes on it (and the book builds).

use crate::support::{BIN, TestBook};
use std::process::Command;

/// The bodies of the README's `markdown` fences that hold examples or
/// comparisons.
fn readme_examples() -> Vec<String> {
    let readme = include_str!("../../README.md");
    let mut out = Vec::new();
    let mut lines = readme.lines();
    while let Some(line) = lines.next() {
        let ticks = line.len() - line.trim_start_matches('`').len();
        if ticks < 4 || line[ticks..].trim() != "markdown" {
            continue;
        }
        let fence = &line[..ticks];
        let body: Vec<&str> = lines
            .by_ref()
            .take_while(|l| l.trim_end() != fence)
            .collect();
        let body = body.join("\n") + "\n";
        if body.contains(" example") || body.contains("compare") {
            out.push(body);
        }
    }
    out
}

#[test]
fn every_example_in_the_readme_holds() {
    let examples = readme_examples();
    assert!(
        examples.len() >= 4,
        "found {} README examples",
        examples.len()
    );
    let mut book = TestBook::new();
    for (i, body) in examples.iter().enumerate() {
        book = book.chapter(&format!("readme-{i}.md"), body);
    }
    book.write();
    let out = Command::new(BIN)
        .arg("check")
        .arg(book.root())
        .output()
        .expect("run check");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!stdout.contains("FAILED"), "{stdout}");
    let passed: usize = stdout
        .lines()
        .last()
        .and_then(|l| l.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    assert!(passed >= 5, "{stdout}");
    book.build().expect("the README's examples build");
}
