//! `companion.lock`: written by `check` (deterministic, atomic), read by
//! builds that lack compilers, and enforced by `check --locked`.

use super::*;
use crate::support::BookTest;
use pretty_assertions::assert_eq;
use snapbox::str;

/// The fixture book `check/locked/`: an example and a compare block, all
/// three with assembly panels.
const LOCKED: &str = "check/locked";

/// The text of the fixture's one chapter.
fn locked_chapter() -> String {
    BookTest::fixture_chapter(LOCKED, "locked.md")
}

fn lock_text(book: &BookTest) -> String {
    std::fs::read_to_string(book.root().join("companion.lock")).expect("companion.lock")
}

#[test]
fn check_writes_the_same_lock_twice_and_locked_passes_on_it() {
    let book = BookTest::from_dir(LOCKED);
    book.run(&["check"], |cmd| {
        cmd.expect_stdout(str![[r#"
ok      src/locked.md:3: rust example "prints" (expect=run)
ok      src/locked.md:13: compare side "C" (expect=ub)
ok      src/locked.md:21: compare side "Rust" (expect=panic)
compiler runs: 2, program runs: 3, from cache: 0
3 passed, 0 failed

"#]]);
    });
    let first = lock_text(&book);
    let lock: toml::Value = toml::from_str(&first).expect("the lock is TOML");
    let blocks = lock["block"].as_array().expect("blocks");
    let summary: Vec<(String, i64, String, String)> = blocks
        .iter()
        .map(|b| {
            (
                b["chapter"].as_str().unwrap().to_owned(),
                b["line"].as_integer().unwrap(),
                b["expect"].as_str().unwrap().to_owned(),
                b["verdict"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let at = |s| line_of(&locked_chapter(), s) as i64;
    assert_eq!(
        summary,
        [
            (
                "src/locked.md".into(),
                at("title=\"prints\""),
                "run".into(),
                "passed".into()
            ),
            (
                "src/locked.md".into(),
                at("caption=\"C\""),
                "ub".into(),
                "passed".into()
            ),
            (
                "src/locked.md".into(),
                at("caption=\"Rust\""),
                "panic".into(),
                "passed".into()
            ),
        ]
    );
    for b in blocks {
        let t = b["toolchain"].as_str().unwrap();
        assert!(t.starts_with("rustc ") || t.starts_with("cc "), "{t}");
        assert_eq!(b["hash"].as_str().unwrap().len(), 64);
    }
    let panels = lock["assembly"].as_array().expect("assembly panels");
    assert_eq!(panels.len(), 3, "every asm panel: {first}");
    assert!(
        panels
            .iter()
            .any(|p| p["listing"].as_str().unwrap().contains("twice"))
    );
    // Cold again: byte for byte the same lock.
    std::fs::remove_dir_all(book.root().join(".companion-cache")).unwrap();
    book.run(&["check"], |_| {});
    assert_eq!(lock_text(&book), first);
    book.run(&["check", "--locked"], |cmd| {
        cmd.expect_stdout(str![[r#"
ok      src/locked.md:3: rust example "prints" (expect=run)
ok      src/locked.md:13: compare side "C" (expect=ub)
ok      src/locked.md:21: compare side "Rust" (expect=panic)
compiler runs: 0, program runs: 0, from cache: 3
3 passed, 0 failed

"#]]);
    });
    assert_eq!(lock_text(&book), first);
}

#[test]
fn locked_fails_naming_each_block_when_the_lock_is_missing_or_stale() {
    let book = BookTest::from_dir(LOCKED);
    book.run(&["check", "--locked"], |cmd| {
        cmd.expect_code(1).expect_stdout(str![[r#"
ok      src/locked.md:3: rust example "prints" (expect=run)
ok      src/locked.md:13: compare side "C" (expect=ub)
ok      src/locked.md:21: compare side "Rust" (expect=panic)
FAILED  --locked: companion.lock is missing; run `mdbook-companion check` and commit it
compiler runs: 2, program runs: 3, from cache: 0
3 passed, 0 failed; companion.lock is missing

"#]]);
    });
    assert!(
        !book.root().join("companion.lock").exists(),
        "--locked writes no lock"
    );
    book.run(&["check"], |_| {});
    let locked = lock_text(&book);
    // An edited example, not re-checked.
    std::fs::write(
        book.root().join("src/locked.md"),
        locked_chapter()
            .replace("twice(21)", "twice(20)")
            .replace("\n42\n", "\n40\n"),
    )
    .unwrap();
    // One block changed: one line, saying what changed and what to do.
    book.run(&["check", "--locked"], |cmd| {
        cmd.expect_code(1).expect_stdout(str![[r#"
ok      src/locked.md:3: rust example "prints" (expect=run)
ok      src/locked.md:13: compare side "C" (expect=ub)
ok      src/locked.md:21: compare side "Rust" (expect=panic)
FAILED  --locked: src/locked.md:3: rust example "prints": hash: its code, what it claims or how this version of mdbook-companion builds it changed since companion.lock was written (it printed "42\n" then, "40\n" now); assembly.hash: its assembly panel has no entry in companion.lock; run `mdbook-companion check` and commit companion.lock
compiler runs: 1, program runs: 1, from cache: 2
3 passed, 0 failed; 1 lock entry differs

"#]]);
    });
    assert_eq!(lock_text(&book), locked, "--locked leaves the lock alone");
    // A plain check brings it up to date; --locked agrees again.
    book.run(&["check"], |_| {});
    assert_ne!(lock_text(&book), locked);
    book.run(&["check", "--locked"], |_| {});
}

#[test]
fn a_lock_that_does_not_parse_is_a_warning_and_is_rewritten() {
    let book = BookTest::from_dir(LOCKED);
    book.write();
    std::fs::write(
        book.root().join("companion.lock"),
        "<<<<<<< HEAD\nversion = 1\n",
    )
    .unwrap();
    // A bad lock fails nothing but --locked.
    book.run(&["check"], |cmd| {
        cmd.expect_stdout(str![[r#"
ok      src/locked.md:3: rust example "prints" (expect=run)
ok      src/locked.md:13: compare side "C" (expect=ub)
ok      src/locked.md:21: compare side "Rust" (expect=panic)
warning: ./companion.lock:1:1: found a merge conflict marker; expected a lock whose conflict is resolved; it does not parse as a lock, so it was rewritten
compiler runs: 2, program runs: 3, from cache: 0
3 passed, 0 failed

"#]]);
    });
    assert!(lock_text(&book).starts_with("# companion.lock"));
    // A build with a bad lock is not failed by it either.
    std::fs::write(book.root().join("companion.lock"), "nonsense").unwrap();
    book.build_in_process()
        .expect("a bad lock never fails a build");
}

/// An environment whose PATH holds no compiler at all.
fn no_compilers() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    for tool in ["cc", "gcc", "rustc", "rustdoc", "cargo", "c++"] {
        assert!(!dir.path().join(tool).exists());
    }
    dir
}

#[test]
fn without_any_compiler_a_verified_build_takes_everything_from_the_lock() {
    let book = BookTest::from_dir(LOCKED).companion("verify = true");
    book.run(&["check"], |_| {});
    // The pages with compilers at hand.
    book.run(&["build"], |_| {});
    let page = |b: &BookTest| std::fs::read_to_string(b.root().join("book/locked.html")).unwrap();
    let with_page = page(&book);
    assert!(
        with_page.contains("companion-asm"),
        "the panels are on the page"
    );
    // A fresh machine: no cache, no compilers on PATH.
    std::fs::remove_dir_all(book.root().join(".companion-cache")).unwrap();
    std::fs::remove_dir_all(book.root().join("book")).unwrap();
    let empty = no_compilers();
    // No compiler was needed: nothing could not be run.
    book.run(&["build"], |cmd| {
        cmd.env("PATH", empty.path()).expect_stderr(str![[r#"
 INFO Book building has started
 INFO Running the html backend
 INFO HTML book written to `./book`

"#]]);
    });
    assert_eq!(page(&book), with_page, "the same pages without compilers");
    // And without the lock, the same machine cannot show or verify them.
    std::fs::remove_file(book.root().join("companion.lock")).unwrap();
    std::fs::remove_dir_all(book.root().join(".companion-cache")).ok();
    book.run(&["build"], |cmd| {
        cmd.env("PATH", empty.path())
            .expect_code(1)
            .expect_stderr(str![[r#"
 INFO Book building has started
 WARN src/locked.md:3:4: the compiler `rustc` could not be run, so the assembly of 2 blocks is not shown (the first is here); set `rustc` in [preprocessor.companion] to a compiler that runs
 WARN src/locked.md:13:4: the compiler `cc` could not be run, so the assembly of 1 block is not shown (the first is here); set `cc` in [preprocessor.companion] to a compiler that runs
mdbook-companion: error: src/locked.md:3:4: the compiler `rustc` could not be run, so 2 blocks were not checked (the first is here); set `rustc` in [preprocessor.companion] to a compiler that runs
src/locked.md:13:4: the compiler `cc` could not be run, so 1 block was not checked (the first is here); set `cc` in [preprocessor.companion] to a compiler that runs
2 directives have errors

"#]]);
    });
}

#[test]
fn two_checks_at_once_both_finish_with_the_right_verdicts_and_one_whole_lock() {
    let book = BookTest::from_dir(LOCKED);
    book.write();
    std::thread::scope(|s| {
        let a = s.spawn(|| book.run(&["check"], |_| {}));
        let b = s.spawn(|| book.run(&["check"], |_| {}));
        a.join().expect("first check");
        b.join().expect("second check");
    });
    book.run(&["check", "--locked"], |_| {});
    let leftovers: Vec<_> = std::fs::read_dir(book.root())
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn code_that_does_not_compile_under_asm_is_a_failed_claim_not_a_lost_block() {
    let chapter = "````compare asm\n```c\nint f(void) { return missing; }\n```\n```rust\npub fn f() -> i32 { 1 }\n```\n````\n";
    let book = BookTest::new().chapter("bad.md", chapter);
    // The other side is still checked; the build fails on the panel
    // (`on-failure = "bail"`), and check says so where the build does.
    book.run(&["check"], |cmd| {
        cmd.expect_code(1).expect_stdout(str![[r#"
FAILED  src/bad.md:2: compare side C (expect=compile): does not compile
...
FAILED  src/bad.md:2:4: cannot show the assembly: `cc` rejected the code: [..]
...
ok      src/bad.md:5: compare side Rust (expect=run)
compiler runs: 2, program runs: 1, from cache: 0
1 passed, 2 failed

"#]]);
    });
}

#[test]
fn check_records_what_each_passing_rust_program_did_for_the_run_button() {
    // Every kind of recorded run: output on both streams, a panic, a
    // compile error; and blocks with no run to record.
    let book = BookTest::from_dir("check/runs").companion("on-failure = \"continue\"");
    // The wrong example fails.
    book.run(&["check"], |cmd| {
        cmd.expect_code(1);
    });
    let lock: toml::Value = toml::from_str(&lock_text(&book)).unwrap();
    let run = |what: &str| -> Option<toml::Value> {
        let entry = lock["block"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["what"].as_str() == Some(&format!("rust example \"{what}\"")))
            .unwrap_or_else(|| panic!("no entry for {what}"));
        entry.get("run").cloned()
    };
    let streams = run("streams").expect("a run");
    assert_eq!(streams["compiled"].as_bool(), Some(true));
    assert_eq!(streams["stdout"].as_str(), Some("out\n"));
    assert_eq!(streams["stderr"].as_str(), Some("err\n"));
    assert!(
        streams["toolchain"].as_str().unwrap().starts_with("rustc "),
        "{streams}"
    );
    let panics = run("panics").expect("a run");
    assert!(
        panics["stderr"]
            .as_str()
            .unwrap()
            .contains("attempt to divide by zero"),
        "{panics}"
    );
    let mismatched = run("mismatched").expect("a run");
    assert_eq!(mismatched["compiled"].as_bool(), Some(false));
    assert!(
        mismatched["stderr"]
            .as_str()
            .unwrap()
            .contains("error[E0308]"),
        "{mismatched}"
    );
    assert_eq!(run("compiles"), None, "no-run: nothing ran");
    assert_eq!(run("wrong"), None, "only verified output is recorded");
    // Deterministic: a second check writes the same lock.
    let before = lock_text(&book);
    book.run(&["check"], |cmd| {
        cmd.expect_code(1);
    });
    assert_eq!(lock_text(&book), before);
}
