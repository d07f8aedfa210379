//! One pipeline: every command scans, parses and resolves each chapter
//! once (issue 58, item 4), as the debug log counts them (`parsed chapter
//! src/x.md (1 of N)`, then `chapters parsed: N, scans: N`). The book has
//! an example, a plain block `mdbook test` would test, a near-miss fence
//! in a chapter of its own, an exercise and a claims page (which renders
//! again once every chapter's frames are known, from the same parse).

use crate::support::BookTest;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

const EXAMPLE: &str = "# A\n\n```rust example\nfn main() { println!(\"hi\"); }\n```\n\n```output\nhi\n```\n\nPlain:\n\n```rust\nlet x = 1;\nassert_eq!(x, 1);\n```\n";

/// An example whose output block `--bless` rewrites.
const STALE: &str =
    "# B\n\n```rust example\nfn main() { println!(\"new\"); }\n```\n\n```output\nold\n```\n";

const EXERCISE: &str = "# C\n\n````exercise title=\"Double\"\nDouble it.\n\n```rust starter\npub fn double(x: i32) -> i32 {\n    todo!()\n}\n```\n\n```rust tests\n#[test]\nfn doubles() {\n    assert_eq!(double(2), 4);\n}\n```\n\n```rust solution\npub fn double(x: i32) -> i32 {\n    x * 2\n}\n```\n````\n";

const CLAIMS: &str = "# D\n\n```claims\n```\n";

fn book() -> BookTest {
    let book = BookTest::new()
        .chapter("a.md", EXAMPLE)
        .chapter("b.md", STALE)
        .chapter("c.md", EXERCISE)
        .chapter("d.md", CLAIMS);
    book.write();
    book
}

/// What the debug log of `args` says: how many times each chapter was
/// parsed, the `of N` each parse names, and the summary line.
fn parses(book: &BookTest, args: &[&str]) -> (BTreeMap<String, usize>, Vec<usize>, String) {
    let ran = book.run(args, |cmd| {
        cmd.env("MDBOOK_LOG", "mdbook_companion=debug")
            .expect_any_status();
    });
    let mut counts = BTreeMap::new();
    let mut of = Vec::new();
    let mut summary = String::new();
    for line in ran.stderr.lines() {
        if let Some(rest) = line.split("parsed chapter ").nth(1) {
            let (file, n) = rest.split_once(" (").expect("(i of N)");
            *counts.entry(file.to_owned()).or_default() += 1;
            let n = n.trim_end_matches(')').rsplit(' ').next().expect("N");
            of.push(n.parse().expect("a number"));
        }
        if let Some(rest) = line.split("chapters parsed: ").nth(1) {
            summary = format!("chapters parsed: {rest}");
        }
    }
    assert!(!summary.is_empty(), "no summary in {}", ran.stderr);
    (counts, of, summary)
}

/// Each of the book's four chapters parsed once but those `twice` names.
fn expected(twice: &[&str]) -> BTreeMap<String, usize> {
    ["a", "b", "c", "d"]
        .iter()
        .map(|c| {
            let file = format!("src/{c}.md");
            let n = if twice.contains(&file.as_str()) { 2 } else { 1 };
            (file, n)
        })
        .collect()
}

#[test]
fn check_bless_and_build_parse_each_chapter_once() {
    let book = book();
    // `check`: the claims, the plain block, the near-miss fences and what
    // the build says, from one parse; two Markdown passes a chapter (the
    // directives', and rustdoc's for the plain blocks).
    let (counts, of, summary) = parses(&book, &["check"]);
    assert_eq!(counts, expected(&[]));
    assert!(of.iter().all(|&n| n == 4), "{of:?}");
    assert_eq!(summary, "chapters parsed: 4, scans: 8");
    // `--bless` reads the chapter it rewrote once more, as written.
    let (counts, _, summary) = parses(&book, &["check", "--bless"]);
    assert_eq!(counts, expected(&["src/b.md"]));
    assert_eq!(summary, "chapters parsed: 5, scans: 10");
    assert!(book.read("src/b.md").contains("```output\nnew\n```"));
    // Nothing left to bless: once each.
    let (counts, _, _) = parses(&book, &["check", "--bless"]);
    assert_eq!(counts, expected(&[]));
    let (counts, _, summary) = parses(&book, &["build"]);
    assert_eq!(counts, expected(&[]));
    assert_eq!(summary, "chapters parsed: 4, scans: 4");
    let (counts, _, _) = parses(&book, &["exercises", ".", "--out", "ws"]);
    assert_eq!(counts, expected(&[]));
    let (counts, _, _) = parses(&book, &["adopt"]);
    assert_eq!(counts, expected(&[]));
}

#[test]
fn drift_parses_each_chapter_once() {
    let book = book();
    book.run(&["check", "--bless"], |_| {});
    let out = Command::new("rustc")
        .args(["--print", "sysroot"])
        .output()
        .expect("rustc runs");
    let sysroot = String::from_utf8(out.stdout).expect("utf-8");
    let rustc = Path::new(sysroot.trim()).join("bin/rustc");
    let rustc = rustc.to_string_lossy();
    let (counts, _, _) = parses(&book, &["drift", "--toolchain", &rustc]);
    assert_eq!(counts, expected(&[]));
}
