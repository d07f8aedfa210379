//! Any book, unchanged: `check` on a book that never heard of us checks
//! every block `mdbook test` would, with rustdoc's meaning and verdicts
//! (the case book `anybook/plain/`, one block per chapter, so that real
//! `mdbook test` of one chapter is that block's verdict); expected
//! compile failures in merged builds give the verdicts of `--no-merge`.

use crate::support::BookTest;
use pretty_assertions::assert_eq;
use serde_json::Value;
use snapbox::str;
use std::process::Command;

/// `check --format json ARGS` on a book: the report and the exit code.
pub fn check_json(book: &BookTest, args: &[&str]) -> (Value, i32) {
    let ran = book.run(&[&["check", "--format", "json"], args].concat(), |cmd| {
        cmd.expect_any_status();
    });
    (ran.json(), ran.code)
}

/// Every result of a JSON report, without whether it came from the cache.
pub fn reports(report: &Value) -> Value {
    let mut results = report["results"].clone();
    for r in results.as_array_mut().into_iter().flatten() {
        r["cached"] = Value::Null;
    }
    results
}

/// The compiler starts a JSON report counts.
pub fn runs(report: &Value) -> u64 {
    report["compiler_runs"].as_u64().unwrap_or_default()
}

/// A cold `check --format json` of the fixture `dir` (its book, kept for
/// a warm run) and of a second copy with `--no-merge`: the book and both
/// reports, once the merged run has failed (exit code 1) with the same
/// verdicts as `--no-merge`, and a cold `check --exact` of a third copy
/// with the same results word for word (a failing block's diagnostics
/// as rustc gives them for the block alone).
pub fn merged_and_alone(dir: &str) -> (BookTest, Value, Value) {
    let book = BookTest::from_dir(dir);
    let (merged, code) = check_json(&book, &[]);
    assert_eq!(code, 1, "{merged:#}");
    let (single, _) = check_json(&BookTest::from_dir(dir), &["--no-merge"]);
    assert_eq!(verdicts(&merged), verdicts(&single));
    let (exact, _) = check_json(&BookTest::from_dir(dir), &["--exact"]);
    assert_eq!(reports(&exact), reports(&single));
    (book, merged, single)
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
    let book = BookTest::from_dir("anybook/plain");
    let (json, code) = check_json(&book, &[]);
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
    book.check_text(
        format!("{}\n{:#}\n", wrong["message"], json["notes"]),
        str![[r#"
"does not compile, but with E0308 instead of E0382 (rustdoc checks error codes only on nightly; mdbook test on stable would pass this block)"
[
  "note: book.toml lists the preprocessor `not-installed`; check does not run it, and checks the chapters as mdBook's `links` preprocessor leaves them"
]

"#]],
    );

    // Real `mdbook test`, chapter by chapter: the same verdicts, but for
    // the error code rustdoc checks only on nightly.
    for (name, file, _, ours) in PLAIN {
        let mut md = mdbook_driver::MDBook::load(book.root()).expect("load");
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
    let (warm, _) = check_json(&book, &[]);
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
    let book = BookTest::from_dir("anybook/rustdoc-rules");
    let (json, code) = check_json(&book, &[]);
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
        let mut md = mdbook_driver::MDBook::load(book.root()).expect("load");
        let rustdoc = match md.test_chapter(Vec::new(), Some(name)) {
            Ok(()) if ours == "none" => "none",
            Ok(()) => "passed",
            Err(_) => "failed",
        };
        assert_eq!(rustdoc, ours, "mdbook test of {file}");
    }
    // Compiled alone, as each would be, the same verdicts.
    let alone = BookTest::from_dir("anybook/rustdoc-rules");
    let (single, _) = check_json(&alone, &["--no-merge"]);
    assert_eq!(verdicts(&single), verdicts(&json));
}

#[test]
fn compile_fail_blocks_merged_give_the_verdicts_of_no_merge() {
    let book = BookTest::from_dir("anybook/compile-fail");
    let alone = BookTest::from_dir("anybook/compile-fail");
    let (merged, _) = check_json(&book, &[]);
    let (single, _) = check_json(&alone, &["--no-merge"]);
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
/// error recovery reporting many blocks in one run, each failing block's
/// verdict taken from them (its own errors, in its own lines), its
/// diagnostics the merged build's (marked so), and under `--exact` its
/// compile alone's, word for word (the merged text where it is the only
/// failing block of its build, or where the build ran to its end and no
/// other block could change the block's diagnostics, else a compile of
/// its own).
#[test]
fn failing_blocks_are_found_in_batches_with_their_diagnostics_as_alone() {
    let (book, merged, single) = merged_and_alone("anybook/failing");
    assert_eq!(merged["summary"], "3 passed, 18 failed", "{merged:#}");
    // Fewer starts than blocks: most failing blocks are told by the
    // builds they share (23 before, when each failing block whose build
    // held other failures compiled alone once).
    assert_eq!(runs(&single), 21);
    assert!(runs(&merged) <= 16, "{} compiler runs", runs(&merged));
    // Warm: nothing compiled, the same reports.
    let (warm, _) = check_json(&book, &[]);
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
    let (_book, merged, single) = merged_and_alone("anybook/unclosed");
    assert_eq!(merged["summary"], "10 passed, 40 failed", "{merged:#}");
    assert_eq!(runs(&single), 50);
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get() as u64);
    assert!(
        runs(&merged) <= 40 + workers,
        "{} compiler runs for 40 blocks alone and {workers} merged builds",
        runs(&merged)
    );
}

#[test]
fn github_annotations_and_junit_xml_name_every_failing_block() {
    let book = BookTest::from_dir("anybook/plain");
    // `::error file=F,line=L,title=T::MESSAGE`, one line per failing
    // block (rustc's words and a panic's text are the compiler's).
    book.run(&["check", "--format", "github"], |cmd| {
        cmd.expect_code(1).expect_stdout(str![[r#"
::error file=src/no_panic.md,line=3,title=rust block (should_panic) (expect=panic)::the program exited successfully; the block is marked should_panic
::error file=src/fails.md,line=3,title=rust block (expect=run)::the program panicked: assertion `left == right` failed%0A  left: 1%0A right: 2%0A%0A[..]
::error file=src/wrong_code.md,line=3,title=rust block (compile_fail%2CE0382) (expect=compile-fail)::does not compile, but with E0308 instead of E0382 (rustdoc checks error codes only on nightly; mdbook test on stable would pass this block)%0Aerror[E0308]: [..]
::error file=src/compiles.md,line=3,title=rust block (compile_fail) (expect=compile-fail)::compiled, but the block is marked compile_fail
::error file=src/harness_fails.md,line=3,title=rust block (test_harness) (expect=run)::the program exited with code 101
::notice::note: book.toml lists the preprocessor `not-installed`; check does not run it, and checks the chapters as mdBook's `links` preprocessor leaves them
17 passed, 5 failed, 1 ignored

"#]]);
    });
    // JUnit XML: well-formed (read back with an XML parser), and the
    // whole report.
    let xml = book
        .run(&["check", "--format", "junit"], |cmd| {
            cmd.expect_code(1);
        })
        .stdout;
    let mut reader = quick_xml::Reader::from_str(&xml);
    while !matches!(
        reader.read_event().expect("well-formed XML"),
        quick_xml::events::Event::Eof
    ) {}
    book.check_text(xml, snapbox::file!["anybook/plain.junit.xml"]);
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
    // The book in `book/`, the file above its root, as the Reference
    // keeps it at the repository's root. `check` runs in `book/` with
    // RUSTUP_TOOLCHAIN unset (cargo sets it for the tests).
    let book = BookTest::new()
        .file("rust-toolchain.toml", "[toolchain]\nchannel = \"nightly\"\n")
        .file("book/book.toml", "[book]\ntitle = \"t\"\n")
        .file("book/src/SUMMARY.md", "# Summary\n\n- [A](a.md)\n")
        .file(
            "book/src/a.md",
            "# A\n\n```rust\n#![feature(never_type)]\nfn main() {\n    let _x: Option<!> = None;\n}\n```\n",
        );
    book.run(&["check"], |cmd| {
        cmd.current_dir("book")
            .env_remove("RUSTUP_TOOLCHAIN")
            .expect_stdout(str![[r#"
ok      src/a.md:3: rust block (expect=run)
note: Rust is checked with nightly-[..], selected by [ROOT]/rust-toolchain.toml
compiler runs: 1, program runs: 1, from cache: 0
1 passed, 0 failed

"#]])
            .expect_stderr(str![]);
    });
    // `--toolchain` says otherwise: stable refuses `#![feature]`, which
    // its version tells without a compile.
    book.run(&["check", "--toolchain", "stable"], |cmd| {
        cmd.current_dir("book")
            .env_remove("RUSTUP_TOOLCHAIN")
            .expect_code(1)
            .expect_stdout(str![[r#"
FAILED  src/a.md:3: rust block (expect=run): does not compile (told by a merged build or our lexer; --exact for rustc's own words)
    | error[E0554]: `#![feature]` may not be used on the stable release channel
...
note: companion.lock was made with rustc [..], not used by this run; its entries are replaced
compiler runs: 0, program runs: 0, from cache: 0
0 passed, 1 failed

"#]])
            .expect_stderr(str![]);
    });
    // rustup puts RUSTUP_TOOLCHAIN before the file.
    book.run(&["check"], |cmd| {
        cmd.current_dir("book")
            .env("RUSTUP_TOOLCHAIN", "stable")
            .expect_code(1)
            .expect_stdout(str![[r#"
FAILED  src/a.md:3: rust block (expect=run): does not compile (told by a merged build or our lexer; --exact for rustc's own words)
    | error[E0554]: `#![feature]` may not be used on the stable release channel
...
note: Rust is checked with stable-[..], selected by RUSTUP_TOOLCHAIN, which rustup puts before [ROOT]/rust-toolchain.toml
compiler runs: 0, program runs: 0, from cache: 1
0 passed, 1 failed

"#]])
            .expect_stderr(str![]);
    });

    // A toolchain that is not installed: an error naming the file.
    std::fs::write(
        book.root().join("rust-toolchain.toml"),
        "[toolchain]\nchannel = \"0.1.0\"\n",
    )
    .expect("toolchain file");
    book.run(&["check"], |cmd| {
        cmd.current_dir("book")
            .env_remove("RUSTUP_TOOLCHAIN")
            .expect_code(1)
            .expect_stdout(str![])
            .expect_stderr(str![[r#"
mdbook-companion: error: [ROOT]/rust-toolchain.toml selects the book's toolchain, and rustup cannot give its compiler ([..]); install it with `rustup toolchain install`, or pass --toolchain

"#]]);
    });
}
