//! `mdbook-companion adopt`: a book's passing plain blocks become
//! examples with the output they printed; the diff, `--write` (nothing
//! else changes, a second run changes nothing), the blocks left as they
//! are, and the book afterwards (check passes on every adopted block, the
//! play buttons stay).

use crate::anybook::{case_book, check_json, verdicts};
use crate::support::BIN;
use pretty_assertions::assert_eq;
use similar::{DiffOp, TextDiff};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

/// `adopt BOOK ARGS`: (stdout, stderr).
fn adopt(root: &Path, args: &[&str]) -> (String, String) {
    let out = Command::new(BIN)
        .arg("adopt")
        .arg(root)
        .args(args)
        .output()
        .expect("run adopt");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Every file of the book (but the cache, the lock and the build), by path.
fn files(root: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("read_dir") {
            let path = entry.expect("entry").path();
            let rel = path
                .strip_prefix(root)
                .expect("inside")
                .to_string_lossy()
                .into_owned();
            if [".companion-cache", "companion.lock", "book"].contains(&rel.as_str()) {
                continue;
            }
            if path.is_dir() {
                stack.push(path);
            } else {
                out.insert(rel, std::fs::read(&path).expect("read"));
            }
        }
    }
    out
}

/// Play buttons per page of the built book.
fn play_buttons(root: &Path) -> BTreeMap<String, usize> {
    let out = Command::new(BIN)
        .arg("build")
        .arg(root)
        .output()
        .expect("build");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // mdBook's play button, or ours (a frame with a recorded run: its
    // fence is then noplayground, so mdBook leaves it to us).
    let selector =
        scraper::Selector::parse("pre.playground, [data-companion-run]").expect("selector");
    let mut counts = BTreeMap::new();
    for (file, bytes) in files(&root.join("book")) {
        if file.ends_with(".html") && !file.ends_with("print.html") {
            let html = scraper::Html::parse_document(&String::from_utf8_lossy(&bytes));
            counts.insert(file, html.select(&selector).count());
        }
    }
    let _ = std::fs::remove_dir_all(root.join("book"));
    counts
}

#[test]
fn adopt_prints_a_diff_and_writes_only_the_info_strings_and_outputs() {
    let book = case_book("plain");
    let root = book.path();
    let original = files(root);
    let buttons = play_buttons(root);
    let (before, _) = check_json(root, &[]);

    // The diff, and nothing written.
    let (diff, left) = adopt(root, &[]);
    assert_eq!(files(root), original);
    for want in [
        "--- a/src/panics.md\n+++ b/src/panics.md\n",
        "-```should_panic\n+```rust example expect=panic\n panic!(\"boom\");\n ```\n+\n+```output\n+boom\n+```\n",
        "-```rust\n+```rust example\n fn main() {\n     println!(\"hi\");\n }\n ```\n+\n+```output\n+hi\n+```\n",
        "-```compile_fail\n+```rust example expect=compile-fail error=E0308\n",
        "-```rust,edition2015\n+```rust example edition=2015\n",
    ] {
        assert!(diff.contains(want), "{want}\nnot in\n{diff}");
    }
    // Left as they are, and listed: includes, failures, what examples
    // cannot say.
    for want in [
        "src/include.md:5: comes from {{#include}}",
        "src/fails.md:3: fails (the program panicked",
        "src/compiles.md:3: fails (compiled, but the block is marked compile_fail)",
        "src/harness.md:3: test_harness",
        "src/ignore.md:3: ignored",
        "src/indented.md:5: an indented block",
        "11 block(s) would become examples; 12 left as they are",
        "src/stray_semicolon.md:3: `fn main` is found differently by rustdoc and mdBook",
    ] {
        assert!(left.contains(want), "{want}\nnot in\n{left}");
    }

    // --write: the same change, and nothing else in any file.
    let (written, _) = adopt(root, &["--write"]);
    assert_eq!(written, diff);
    let after = files(root);
    for (file, old) in &original {
        let new = &after[file];
        if file.ends_with("book.toml") {
            assert!(new.starts_with(old), "book.toml keeps its text");
            assert!(String::from_utf8_lossy(new).contains("[preprocessor.companion]"));
            continue;
        }
        let (old, new) = (String::from_utf8_lossy(old), String::from_utf8_lossy(new));
        let lines = TextDiff::from_lines(&*old, &*new);
        let (old_lines, new_lines): (Vec<&str>, Vec<&str>) = (
            old.split_inclusive('\n').collect(),
            new.split_inclusive('\n').collect(),
        );
        for op in lines.ops() {
            match *op {
                DiffOp::Equal { .. } => {}
                DiffOp::Replace {
                    old_index,
                    old_len,
                    new_index,
                    new_len,
                } => {
                    assert_eq!((old_len, new_len), (1, 1), "{file}: one info line");
                    let (o, n) = (old_lines[old_index], new_lines[new_index]);
                    assert!(
                        o.starts_with("```") && n.starts_with("```rust example"),
                        "{file}: {o:?} -> {n:?}"
                    );
                }
                DiffOp::Insert {
                    new_index, new_len, ..
                } => {
                    let inserted: String = new_lines[new_index..new_index + new_len].concat();
                    assert!(
                        inserted.starts_with("\n```output\n") && inserted.ends_with("```\n"),
                        "{file}: {inserted:?}"
                    );
                }
                DiffOp::Delete { .. } => panic!("{file}: a line was deleted"),
            }
        }
    }

    // A second run changes nothing.
    let (again, _) = adopt(root, &[]);
    assert_eq!(again, "");
    let (_, _) = adopt(root, &["--write"]);
    assert_eq!(files(root), after);

    // check: every adopted block passes, the same blocks fail as before.
    let (json, _) = check_json(root, &[]);
    let failing = |j: &serde_json::Value| -> Vec<(String, u64)> {
        verdicts(j)
            .into_iter()
            .filter(|v| v.2 == "failed")
            .map(|v| (v.0, v.1))
            .collect()
    };
    assert_eq!(failing(&json), failing(&before));
    let examples: Vec<&serde_json::Value> = json["results"]
        .as_array()
        .expect("results")
        .iter()
        .filter(|r| {
            r["what"]
                .as_str()
                .is_some_and(|w| w.starts_with("rust example"))
        })
        .collect();
    assert_eq!(examples.len(), 11);
    assert!(examples.iter().all(|r| r["status"] == "passed"), "{json:#}");

    // Every play button the book had is still there.
    let now = play_buttons(root);
    for (page, n) in &buttons {
        assert!(
            now.get(page).copied().unwrap_or(0) >= *n,
            "{page}: {n} before, {now:?} after"
        );
    }
}

/// A plain block whose run N (counted in a file under `dir`) prints `body`
/// (Rust code that may read `n`).
fn counting_block(dir: &Path, name: &str, body: &str) -> String {
    let file = dir.join(format!("runs-{name}"));
    format!(
        "```rust\nuse std::io::Write;\nlet path = {path:?};\nlet mut f = std::fs::OpenOptions::new().create(true).append(true).open(path).unwrap();\nwriteln!(f, \"run\").unwrap();\nlet n = std::fs::read_to_string(path).unwrap().lines().count();\n{body}\n```\n",
        path = file.display().to_string()
    )
}

#[test]
fn adopt_runs_each_program_again_and_records_only_what_is_stable() {
    let counts = tempfile::tempdir().expect("tempdir");
    let dir = counts.path();
    let book = crate::support::TestBook::new()
        .chapter(
            "order.md",
            &format!(
                "# Order\n\n{}",
                counting_block(
                    dir,
                    "order",
                    "let words = [\"alpha\", \"beta\", \"gamma\"];\nfor i in 0..3 {\n    println!(\"{}\", words[(i + n) % 3]);\n}"
                )
            ),
        )
        .chapter(
            "span.md",
            &format!(
                "# Span\n\n{}",
                counting_block(dir, "span", "println!(\"run {n} of the program\");\nprintln!(\"done\");")
            ),
        )
        .chapter(
            "lines.md",
            &format!(
                "# Lines\n\n{}",
                counting_block(dir, "lines", "for _ in 0..n {\n    println!(\"tick\");\n}")
            ),
        )
        .chapter(
            "steady.md",
            "# Steady\n\n```rust\nprintln!(\"always\");\n```\n",
        )
        .chapter(
            "channel.md",
            &format!(
                "# Channel\n\n{}",
                counting_block(
                    dir,
                    "channel",
                    "// The fourth run sends in another order.\nlet n = std::thread::spawn(move || n).join().unwrap();\nlet ids = if n <= 3 { [0, 1] } else { [1, 0] };\nprintln!(\"sent\");\nprintln!(\"{:?}\", ids.map(Ok::<i32, ()>));"
                )
            ),
        )
        .chapter(
            "hash.md",
            &format!(
                "# Hash\n\n{}",
                counting_block(
                    dir,
                    "hash",
                    "// A HashMap's order is the process's own; here the fourth run's.\nlet _m: std::collections::HashMap<u8, u8> = Default::default();\nlet keys = if n <= 3 { [\"a\", \"b\"] } else { [\"b\", \"a\"] };\nfor k in keys {\n    println!(\"{k}\");\n}"
                )
            ),
        )
        .chapter(
            "threads.md",
            "# Threads\n\n```rust\nfor i in 0..2 {\n    std::thread::spawn(move || println!(\"thread {i}\")).join().unwrap();\n}\n```\n",
        );
    book.write();
    let root = book.root();
    let (_, said) = adopt(root, &["--write"]);
    for want in [
        "output that varies between runs (each program was run twice, one that starts threads or hashes with a random key up to 24 times):",
        "src/order.md:3: its lines come in another order: recorded as ```output unordered",
        "src/span.md:3: parts of its lines change: recorded with [..] for them",
        "src/lines.md:3: it changes otherwise: no output block recorded",
        "src/threads.md:3: it starts threads, whose lines may come in any order: recorded as ```output unordered",
        "src/channel.md:3: parts of its lines change: recorded with [..] for them",
        // Two runs agreed; a program that uses a HashMap is run until
        // the order changes.
        "src/hash.md:3: its lines come in another order: recorded as ```output unordered",
        "7 block(s) became examples; 0 left as they are",
    ] {
        assert!(said.contains(want), "{want}\nnot in\n{said}");
    }
    let chapter = |f: &str| std::fs::read_to_string(root.join("src").join(f)).expect("chapter");
    assert!(
        chapter("order.md").contains("```output unordered\nbeta\ngamma\nalpha\n```"),
        "{}",
        chapter("order.md")
    );
    assert!(
        chapter("span.md").contains("```output\nrun [..] of the program\ndone\n```"),
        "{}",
        chapter("span.md")
    );
    assert!(
        !chapter("lines.md").contains("```output"),
        "{}",
        chapter("lines.md")
    );
    assert!(chapter("steady.md").contains("```output\nalways\n```"));
    assert!(chapter("threads.md").contains("```output unordered\nthread 0\nthread 1\n```"));
    // Two runs agreed; the fourth did not, and a program that starts
    // threads is run until it shows.
    assert!(
        chapter("hash.md").contains("```output unordered\na\nb\n```"),
        "{}",
        chapter("hash.md")
    );
    assert!(
        chapter("channel.md").contains("```output\nsent\n[Ok([..])]\n```"),
        "{}",
        chapter("channel.md")
    );
    // check then passes, cold, run after run (each run counts on).
    for _ in 0..3 {
        let _ = std::fs::remove_dir_all(root.join(".companion-cache"));
        let (json, code) = check_json(root, &[]);
        assert_eq!(code, 0, "{json:#}");
        let statuses: Vec<String> = verdicts(&json).into_iter().map(|v| v.2).collect();
        assert_eq!(statuses, ["passed"; 7], "{json:#}");
    }
}
