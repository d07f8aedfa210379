//! The directives the README and the guide show (in ````markdown blocks)
//! and the books they make: shared by `readme` and the Valgrind target
//! (`tests/valgrind/`, the guide with every shown block checked), which
//! includes this file.

use crate::support::BIN;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The info strings that open a directive.
pub const DIRECTIVES: [&str; 7] = [
    "rust example",
    "compare",
    "exercise",
    "quiz",
    "reading-list",
    "talk",
    "claims",
];

/// A fence line's backticks and info string (`None` for other lines), by
/// CommonMark's rule: at most three spaces before three backticks or more,
/// and no backtick in the info string (a line that begins with a code span
/// of backticks is text).
pub fn fence(line: &str) -> Option<(&str, &str)> {
    let t = line.trim_start_matches(' ');
    let ticks = t.len() - t.trim_start_matches('`').len();
    let info = t[ticks..].trim();
    (line.len() - t.len() <= 3 && ticks >= 3 && !info.contains('`')).then(|| (&t[..ticks], info))
}

/// Whether `line` closes a fence opened with `ticks`: as many backticks
/// or more, and nothing else.
fn closes(line: &str, ticks: &str) -> bool {
    fence(line).is_some_and(|(t, info)| t.len() >= ticks.len() && info.is_empty())
}

/// Whether an info string opens a directive.
pub fn is_directive(info: &str) -> bool {
    DIRECTIVES.iter().any(|d| {
        info.strip_prefix(d)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with([' ', ',']))
    })
}

/// What a page shows: the bodies of its ````markdown blocks that hold a
/// directive (a line `{{#include FILE}}` in one replaced by FILE, relative
/// to `dir`, as mdBook's `links` does), and the directives it shows in any
/// other code block, as `line: text`.
pub fn shown(text: &str, dir: &Path) -> (Vec<String>, Vec<String>) {
    let (mut bodies, mut stray) = (Vec::new(), Vec::new());
    let mut lines = text.lines().enumerate();
    while let Some((_, line)) = lines.next() {
        let Some((ticks, info)) = fence(line) else {
            continue;
        };
        let body: Vec<(usize, &str)> = lines
            .by_ref()
            .take_while(|(_, l)| !closes(l, ticks))
            .collect();
        if is_directive(info) {
            continue; // a live directive: `check` checks it
        }
        let mut expanded = String::new();
        for (n, l) in &body {
            let include = l
                .trim()
                .strip_prefix("{{#include ")
                .and_then(|r| r.strip_suffix("}}"));
            match include {
                Some(file) => {
                    let path = dir.join(file.trim());
                    let text = std::fs::read_to_string(&path)
                        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                    expanded.push_str(&text);
                }
                None => {
                    expanded.push_str(l);
                    expanded.push('\n');
                }
            }
            if info != "markdown" && fence(l).is_some_and(|(_, i)| is_directive(i)) {
                stray.push(format!("{}: {l}", n + 1));
            }
        }
        let holds_directive = expanded
            .lines()
            .any(|l| fence(l).is_some_and(|(_, i)| is_directive(i)));
        if info == "markdown" && ticks.len() >= 4 && holds_directive {
            bodies.push(expanded);
        }
    }
    (bodies, stray)
}

/// Runs `check --format json` on a book; its report, after asserting
/// that it passed with nothing failed.
pub fn check_passes(root: &Path) -> serde_json::Value {
    let out = Command::new(BIN)
        .args(["check", "--format", "json"])
        .arg(root)
        .output()
        .expect("run check");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_str(&stdout).expect("check's JSON");
    assert_eq!(report["failed"], 0, "{stdout}");
    assert_eq!(
        report["invalid"].as_array().map(Vec::len),
        Some(0),
        "{stdout}"
    );
    report
}

/// The guide's root.
pub fn guide() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("guide")
}

/// Copies a book, leaving out its build output and cache.
pub fn copy_book(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).expect("read_dir") {
        let entry = entry.expect("entry");
        let name = entry.file_name();
        if name == "book" || name == ".companion-cache" {
            continue;
        }
        let target = to.join(&name);
        if entry.file_type().expect("file type").is_dir() {
            std::fs::create_dir_all(&target).expect("mkdir");
            copy_book(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

/// Every Markdown file under `dir`, with its path.
pub fn pages(dir: &Path, out: &mut Vec<(PathBuf, String)>) {
    for entry in std::fs::read_dir(dir).expect("read_dir") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            pages(&path, out);
        } else if path.extension().is_some_and(|e| e == "md") {
            let text = std::fs::read_to_string(&path).expect("page");
            out.push((path, text));
        }
    }
}

/// A line that begins with a code span of backticks is text, not a
/// fence, and a fence closes only on backticks alone.
#[test]
fn code_spans_are_not_fences() {
    let page = "````` ```` ````` opens nothing.\n\n````markdown\n```quiz\nx\n```\n````\n";
    let (bodies, stray) = shown(page, Path::new("."));
    assert_eq!(bodies, ["```quiz\nx\n```\n"]);
    assert!(stray.is_empty(), "{stray:?}");
    assert_eq!(fence("    ```rust"), None);
    assert_eq!(fence("```rust ignore"), Some(("```", "rust ignore")));
}
