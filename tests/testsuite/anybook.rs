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
const PLAIN: [(&str, &str, u64, &str); 24] = [
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
    // Code that is not only items is wrapped in `fn main`, its own `main`
    // then unused (rustdoc reads the code as a function's statements).
    ("stray semicolon", "stray_semicolon.md", 3, "passed"),
    ("main then code", "main_then_code.md", 3, "passed"),
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

/// rustdoc's rules that rustc alone does not have: outer attributes and
/// doc comments that attach to nothing at a block's end are dropped, and
/// a block that starts with a shebang goes to rustc as it is (the case
/// book `anybook/rustdoc-rules/`, one block per chapter). Then those a
/// sweep of old-edition books found: an info string rustdoc's tokenizer
/// refuses is no Rust; only `# ` hides a line (not `#` and a tab); plain
/// comments after `Ok(())` still make a `Result`-returning wrapper, an
/// attribute there does not; inner attributes and inner doc comments at
/// the end are dropped too; `extern crate` items (with `#[macro_use]`)
/// go to the crate's root wherever they are written; an `extern "C" fn
/// main` is refused at the root (E0580) even where a module takes it.
const RULES: [(&str, &str, &str); 16] = [
    ("dangling attribute", "dangling_attribute.md", "passed"),
    ("dangling doc", "dangling_doc.md", "passed"),
    ("stray attribute", "stray_attribute.md", "passed"),
    // Without its dangling attribute the block compiles: `compile_fail`
    // fails.
    ("dangling compiles", "dangling_compiles.md", "failed"),
    ("shebang", "shebang.md", "passed"),
    // Unwrapped, `let` is no item.
    ("shebang loose", "shebang_loose.md", "failed"),
    // `rust,ignore=foo`: not tested at all.
    ("info error", "info_error.md", "none"),
    ("tab hash", "tab_hash.md", "failed"),
    ("ok comment", "ok_comment.md", "passed"),
    // Wrapped in a function returning `()`: the `Ok` is a type error.
    ("ok attribute", "ok_attribute.md", "failed"),
    ("inner dangling", "inner_dangling.md", "passed"),
    ("inner doc dangling", "inner_doc_dangling.md", "passed"),
    ("extern crate late", "extern_crate_late.md", "passed"),
    ("macro use", "macro_use.md", "passed"),
    ("foreign main", "foreign_main.md", "failed"),
    // With its doc comment, and a comment inside it.
    ("extern crate doc", "extern_crate_doc.md", "passed"),
];

#[test]
fn dangling_attributes_doc_comments_and_shebangs_as_rustdoc_reads_them() {
    let book = case_book("rustdoc-rules");
    let (json, code) = check_json(book.path(), &[]);
    assert_eq!(code, 1, "{json:#}");
    let want: Vec<(String, u64, String)> = RULES
        .iter()
        .filter(|(_, _, v)| *v != "none")
        .map(|(_, f, v)| (format!("src/{f}"), 3, (*v).to_owned()))
        .collect();
    assert_eq!(verdicts(&json), want, "{json:#}");
    // Real `mdbook test`, chapter by chapter, agrees (a chapter with no
    // test passes).
    for (name, file, ours) in RULES {
        let mut md = mdbook_driver::MDBook::load(book.path()).expect("load");
        let rustdoc = match md.test_chapter(Vec::new(), Some(name)) {
            Ok(()) if ours == "none" => "none",
            Ok(()) => "passed",
            Err(_) => "failed",
        };
        assert_eq!(rustdoc, ours, "mdbook test of {file}");
    }
    // Compiled alone, as each would be, the same verdicts.
    let alone = case_book("rustdoc-rules");
    let (single, _) = check_json(alone.path(), &["--no-merge"]);
    assert_eq!(verdicts(&single), verdicts(&json));
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
    // A constant only code generation evaluates fails the block, as in
    // rustdoc, which compiles `compile_fail` blocks fully.
    let last_of_types = verdicts(&merged)
        .into_iter()
        .filter(|v| v.0 == "src/types.md")
        .max_by_key(|v| v.1)
        .expect("types.md");
    assert_eq!(last_of_types.2, "passed", "{last_of_types:?}");
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

/// A book of fragments, most of which do not compile (as an RFC's or a
/// guideline's): the failing blocks are found by merged builds, rustc's
/// error recovery reporting many blocks in one run, and each failing
/// block's report is its compile alone's, word for word (the merged text
/// where it is the only failing block of its build, or where the build
/// ran to its end and no other block could change the block's
/// diagnostics, else a compile of its own).
#[test]
fn failing_blocks_are_found_in_batches_with_their_diagnostics_as_alone() {
    let book = case_book("failing");
    let alone = case_book("failing");
    let (merged, code) = check_json(book.path(), &[]);
    assert_eq!(code, 1);
    let (single, _) = check_json(alone.path(), &["--no-merge"]);
    let reports = |j: &Value| {
        let mut results = j["results"].clone();
        for r in results.as_array_mut().into_iter().flatten() {
            r["cached"] = Value::Null;
        }
        results
    };
    assert_eq!(reports(&merged), reports(&single));
    assert_eq!(merged["summary"], "3 passed, 18 failed", "{merged:#}");
    // Fewer starts than blocks: most failing blocks are told by the
    // builds they share (23 before, when each failing block whose build
    // held other failures compiled alone once).
    let runs = |j: &Value| j["compiler_runs"].as_u64().unwrap_or_default();
    assert_eq!(runs(&single), 21);
    assert!(runs(&merged) <= 16, "{} compiler runs", runs(&merged));
    // Warm: nothing compiled, the same reports.
    let (warm, _) = check_json(book.path(), &[]);
    assert_eq!(runs(&warm), 0);
    assert_eq!(reports(&warm), reports(&merged));
}

/// Blocks rustc's lexer stops at (a bracket or a string left open) among
/// blocks that compile: rustc stops a whole crate at such an error, so
/// they never share a merged build, where each would have cost a build
/// of its own and, past the builds a group gets, left the blocks after it
/// to compiles of their own. Each compiles alone; the blocks that compile
/// share one build per worker.
#[test]
fn blocks_the_lexer_stops_at_compile_alone_and_the_rest_together() {
    let book = case_book("unclosed");
    let alone = case_book("unclosed");
    let (merged, code) = check_json(book.path(), &[]);
    assert_eq!(code, 1);
    let (single, _) = check_json(alone.path(), &["--no-merge"]);
    let reports = |j: &Value| {
        let mut results = j["results"].clone();
        for r in results.as_array_mut().into_iter().flatten() {
            r["cached"] = Value::Null;
        }
        results
    };
    assert_eq!(reports(&merged), reports(&single));
    assert_eq!(merged["summary"], "10 passed, 40 failed", "{merged:#}");
    let runs = |j: &Value| j["compiler_runs"].as_u64().unwrap_or_default();
    assert_eq!(runs(&single), 50);
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get() as u64);
    assert!(
        runs(&merged) <= 40 + workers,
        "{} compiler runs for 40 blocks alone and {workers} merged builds",
        runs(&merged)
    );
}

/// `check --format FORMAT` on a book: stdout and the exit code.
fn check_format(root: &Path, format: &str) -> (String, i32) {
    let out = Command::new(BIN)
        .arg("check")
        .arg(root)
        .args(["--format", format])
        .output()
        .expect("run check");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

#[test]
fn github_annotations_and_junit_xml_name_every_failing_block() {
    let book = case_book("plain");
    let (json, _) = check_json(book.path(), &[]);
    let failing: Vec<(String, u64)> = verdicts(&json)
        .into_iter()
        .filter(|v| v.2 == "failed")
        .map(|v| (v.0, v.1))
        .collect();
    assert_eq!(failing.len(), 5);

    // `::error file=F,line=L,title=T::MESSAGE`, one per failing block.
    let (github, code) = check_format(book.path(), "github");
    assert_eq!(code, 1);
    let re =
        regex::Regex::new(r"^::error file=([^,]+),line=(\d+),title=([^:]+)::(.+)$").expect("regex");
    let annotated: Vec<(String, u64)> = github
        .lines()
        .filter(|l| l.starts_with("::error"))
        .map(|l| {
            let c = re
                .captures(l)
                .unwrap_or_else(|| panic!("not an annotation: {l}"));
            assert!(!c[4].contains('\n'));
            (c[1].to_owned(), c[2].parse().expect("line"))
        })
        .collect();
    assert_eq!(annotated, failing);
    assert!(
        github.contains("title=rust block (compile_fail%2CE0382)"),
        "{github}"
    );
    assert!(
        github.lines().any(|l| l.starts_with("::notice::")),
        "{github}"
    );
    assert_eq!(github.lines().last(), json["summary"].as_str());

    // JUnit XML, read back with an XML parser.
    let (xml, _) = check_format(book.path(), "junit");
    let mut reader = quick_xml::Reader::from_str(&xml);
    let mut cases = Vec::new();
    let mut failures = Vec::new();
    let mut skipped = 0;
    let mut current = String::new();
    let mut totals = None;
    loop {
        match reader.read_event().expect("well-formed XML") {
            quick_xml::events::Event::Start(e) | quick_xml::events::Event::Empty(e) => {
                let attr = |name: &str| {
                    e.try_get_attribute(name).expect("attribute").map(|a| {
                        a.normalized_value(quick_xml::XmlVersion::Explicit1_0)
                            .expect("value")
                            .into_owned()
                    })
                };
                match std::str::from_utf8(e.name().into_inner().as_ref()).unwrap_or_default() {
                    "testsuites" => {
                        totals = Some((attr("tests"), attr("failures"), attr("skipped")))
                    }
                    "testcase" => {
                        current = attr("name").expect("name");
                        cases.push(current.clone());
                    }
                    "failure" => {
                        failures.push((current.clone(), attr("message").expect("message")))
                    }
                    "skipped" => skipped += 1,
                    _ => {}
                }
            }
            quick_xml::events::Event::Eof => break,
            _ => {}
        }
    }
    assert_eq!(cases.len(), 23);
    assert_eq!(skipped, 1);
    let failed_cases: Vec<String> = failures.iter().map(|f| f.0.clone()).collect();
    let want: Vec<String> = failing
        .iter()
        .map(|(f, l)| {
            let r = json["results"]
                .as_array()
                .and_then(|rs| {
                    rs.iter()
                        .find(|r| r["file"] == f.as_str() && r["line"] == *l)
                })
                .expect("result");
            format!("{f}:{l} {}", r["what"].as_str().unwrap_or_default())
        })
        .collect();
    assert_eq!(failed_cases, want);
    assert!(failures[0].1.contains("should_panic"), "{failures:?}");
    assert_eq!(
        totals,
        Some((Some("23".into()), Some("5".into()), Some("1".into())))
    );
}

/// `check BOOK ARGS` with `envs` set and `RUSTUP_TOOLCHAIN` unset (cargo
/// sets it for the tests): stdout and stderr together, and the exit code.
fn check_with(root: &Path, args: &[&str], envs: &[(&str, &str)]) -> (String, i32) {
    let out = Command::new(BIN)
        .arg("check")
        .arg(root)
        .args(args)
        .env_remove("RUSTUP_TOOLCHAIN")
        .envs(envs.iter().copied())
        .output()
        .expect("run check");
    (
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
        out.status.code().unwrap_or(-1),
    )
}

#[test]
fn the_books_toolchain_file_is_used_as_rustup_uses_it() {
    let nightly = Command::new("rustup")
        .args(["which", "rustc", "--toolchain", "nightly"])
        .output()
        .expect("rustup runs");
    assert!(
        nightly.status.success(),
        "this test needs rustup's nightly toolchain: `rustup toolchain install nightly --profile minimal`"
    );
    // The file above the book's root, as the Reference keeps it at the
    // repository's root.
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        dir.path().join("rust-toolchain.toml"),
        "[toolchain]\nchannel = \"nightly\"\n",
    )
    .expect("toolchain file");
    let root = dir.path().join("book");
    std::fs::create_dir_all(root.join("src")).expect("src");
    std::fs::write(root.join("book.toml"), "[book]\ntitle = \"t\"\n").expect("book.toml");
    std::fs::write(root.join("src/SUMMARY.md"), "# Summary\n\n- [A](a.md)\n").expect("summary");
    std::fs::write(
        root.join("src/a.md"),
        "# A\n\n```rust\n#![feature(never_type)]\nfn main() {\n    let _x: Option<!> = None;\n}\n```\n",
    )
    .expect("chapter");

    let (out, code) = check_with(&root, &[], &[]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("note: Rust is checked with nightly-") && out.contains("rust-toolchain.toml"),
        "{out}"
    );
    // `--toolchain` says otherwise: stable refuses `#![feature]`.
    let (out, code) = check_with(&root, &["--toolchain", "stable"], &[]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("E0554"), "{out}");
    assert!(!out.contains("checked with nightly"), "{out}");
    // rustup puts RUSTUP_TOOLCHAIN before the file.
    let (out, code) = check_with(&root, &[], &[("RUSTUP_TOOLCHAIN", "stable")]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("selected by RUSTUP_TOOLCHAIN"), "{out}");

    // A toolchain that is not installed: an error naming the file.
    std::fs::write(
        dir.path().join("rust-toolchain.toml"),
        "[toolchain]\nchannel = \"0.1.0\"\n",
    )
    .expect("toolchain file");
    let (out, code) = check_with(&root, &[], &[]);
    assert_eq!(code, 1, "{out}");
    assert!(!out.contains("[preprocessor.companion]"), "{out}");
    assert!(
        out.contains(
            "rust-toolchain.toml selects the book's toolchain, and rustup cannot give its compiler"
        ),
        "{out}"
    );
}
