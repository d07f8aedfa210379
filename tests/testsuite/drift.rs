//! `check --toolchain` and `drift` (issue 38): a book checked with
//! another compiler, and what changes against its `companion.lock`.
//!
//! CI machines may have one toolchain only, so the "other" toolchain is a
//! stand-in made here: a `rustc` script that runs the real compiler, says
//! it is `9.99.0-nightly`, accepts `#![feature]` as a nightly does
//! (`RUSTC_BOOTSTRAP=1`), warns about unused results (a lint the real one
//! leaves off by default), compiles assembly panels without optimisation,
//! and hands programs an environment variable they can print: the changes
//! a new release brings, each one on purpose.

use crate::support::BookTest;
use pretty_assertions::assert_eq;
use serde_json::Value;
use snapbox::str;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The real compiler's file (the stand-in must not go through a rustup
/// proxy, which would pick its toolchain from the working directory).
fn real_rustc() -> PathBuf {
    let out = Command::new("rustc")
        .args(["--print", "sysroot"])
        .output()
        .expect("rustc runs");
    assert!(out.status.success(), "rustc --print sysroot failed");
    let sysroot = String::from_utf8(out.stdout).expect("utf-8");
    let rustc = Path::new(sysroot.trim()).join("bin").join("rustc");
    assert!(rustc.is_file(), "no compiler at {}", rustc.display());
    rustc
}

/// The stand-in toolchain: `DIR/bin/rustc`, logging each compile to
/// `DIR/compiles.log`.
fn stand_in(dir: &Path) -> PathBuf {
    use std::os::unix::fs::PermissionsExt as _;
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).expect("mkdir");
    let rustc = bin.join("rustc");
    let script = format!(
        r#"#!/bin/sh
real='{real}'
if [ "$1" = -vV ]; then
  "$real" -vV | sed -e 's/^rustc [^ ]*/rustc 9.99.0-nightly/' -e 's/^release: .*/release: 9.99.0-nightly/'
  exit
fi
echo "$*" >> '{log}'
extra=
case " $* " in *" --emit asm "*) extra="-C opt-level=0";; esac
COMPANION_STANDIN=nightly RUSTC_BOOTSTRAP=1 exec "$real" "$@" -W unused-results $extra
"#,
        real = real_rustc().display(),
        log = dir.join("compiles.log").display()
    );
    std::fs::write(&rustc, script).expect("write the stand-in");
    std::fs::set_permissions(&rustc, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    rustc
}

/// The fixture `drift/book`: one chapter with a claim of each kind a
/// new compiler can change.
fn book() -> BookTest {
    BookTest::from_dir("drift/book")
}

/// The lock's `(what, toolchain)` of every block.
fn locked(root: &Path) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(root.join("companion.lock")).expect("a lock");
    let lock: toml::Table = toml::from_str(&text).expect("toml");
    lock["block"]
        .as_array()
        .expect("blocks")
        .iter()
        .map(|b| {
            (
                b["what"].as_str().unwrap_or_default().to_owned(),
                b["toolchain"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect()
}

#[test]
fn check_with_a_toolchain_compiles_every_rust_claim_with_it_and_c_with_cc() {
    // Examples, Rust sides, plain blocks and assembly panels: the
    // stand-in's; the C side: cc's.
    let book = book();
    let dir = tempfile::tempdir().expect("tmp");
    let rustc = stand_in(dir.path());
    // Only the stand-in accepts `#![feature]`: that claim fails with it.
    book.run(&["check", "--toolchain"], |cmd| {
        cmd.arg(&rustc).expect_code(1).expect_stdout(str![[r#"
ok      src/drift.md:3: rust example "Same everywhere" (expect=run)
ok      src/drift.md:11: rust example "Names its compiler" (expect=run)
FAILED  src/drift.md:19: rust example "Needs a nightly" (expect=compile-fail): compiled, but the example says it does not compile
ok      src/drift.md:24: rust example "Drops a result" (expect=run)
ok      src/drift.md:29: rust example "Doubling" (expect=run)
ok      src/drift.md:39: compare side C (expect=run)
ok      src/drift.md:46: compare side Rust (expect=run)
ok      src/drift.md:56: rust block (expect=run)
compiler runs: 5, program runs: 7, from cache: 0
7 passed, 1 failed

"#]]);
    });
    let compiles = std::fs::read_to_string(dir.path().join("compiles.log")).expect("it compiled");
    assert!(
        compiles.contains("--emit asm"),
        "the assembly panel too: {compiles}"
    );
    for (what, toolchain) in locked(book.root()) {
        let want = if what == "compare side C" {
            "cc "
        } else {
            "rustc 9.99.0-nightly"
        };
        assert!(toolchain.starts_with(want), "{what}: {toolchain}");
    }
}

#[test]
fn results_are_kept_per_toolchain_so_switching_back_is_warm() {
    let book = book();
    let dir = tempfile::tempdir().expect("tmp");
    let rustc = stand_in(dir.path()).display().to_string();
    let runs = |args: &[&str]| -> (u64, u64) {
        let mut all = vec!["check", "--format", "json"];
        all.extend_from_slice(args);
        // The stand-in fails the nightly claim; the real one passes it.
        let code = i32::from(args.contains(&"--toolchain"));
        let j = book
            .run(&all, |cmd| {
                cmd.expect_code(code);
            })
            .json();
        (
            j["compiler_runs"].as_u64().expect("runs"),
            j["cache_hits"].as_u64().expect("hits"),
        )
    };
    assert!(
        runs(&["--toolchain", &rustc]).0 > 0,
        "cold with the stand-in"
    );
    assert!(runs(&[]).0 > 0, "another toolchain: cold again");
    assert_eq!(runs(&["--toolchain", &rustc]), (0, 8), "back: warm");
    assert_eq!(runs(&[]), (0, 8), "and back again: warm");
}

#[test]
fn drift_reports_each_changed_claim_and_leaves_the_files_alone() {
    let book = book();
    book.run(&["check"], |_| {});
    let lock = std::fs::read(book.root().join("companion.lock")).expect("lock");
    let chapter = std::fs::read(book.root().join("src/drift.md")).expect("chapter");
    let dir = tempfile::tempdir().expect("tmp");
    let rustc = stand_in(dir.path()).display().to_string();
    // A verdict flips; a diff where there is text, headed by both
    // toolchains.
    book.run(&["drift", "--toolchain", &rustc], |cmd| {
        cmd.expect_code(1).expect_stdout(str![[r#"
changed src/drift.md:11: rust example "Names its compiler" (expect=run) ([RUSTC_RELEASE] → rustc 9.99.0-nightly): output: the output differs
    --- [RUSTC_RELEASE]
    +++ rustc 9.99.0-nightly
    @@ -1 +1 @@
    -None
    +Some("nightly")
FLIPPED src/drift.md:19: rust example "Needs a nightly" (expect=compile-fail) ([RUSTC_RELEASE] → rustc 9.99.0-nightly): verdict: passed with [RUSTC_RELEASE], failed with rustc 9.99.0-nightly: compiled, but the example says it does not compile
changed src/drift.md:24: rust example "Drops a result" (expect=run) ([RUSTC_RELEASE] → rustc 9.99.0-nightly): new warnings: 1 new warning(s): warning: unused result of type `i32`
    --- [RUSTC_RELEASE]
    +++ rustc 9.99.0-nightly
    @@ -0,0 +1,2 @@
    +warning: unused result of type `i32`
    + --> main.rs:2:13
changed src/drift.md:29: rust example "Doubling" (expect=run) ([RUSTC_RELEASE] → rustc 9.99.0-nightly): assembly listing: the assembly listing differs
    --- [RUSTC_RELEASE]
    +++ rustc 9.99.0-nightly
    @@ [..] @@
...
compiler runs: 11, program runs: 6, from cache: 1
8 claims: 4 the same, 4 changed, 1 of them flipped ([RUSTC_RELEASE] → rustc 9.99.0-nightly)

"#]]);
    });
    assert_eq!(
        std::fs::read(book.root().join("companion.lock")).expect("lock"),
        lock,
        "drift writes no lock"
    );
    assert_eq!(
        std::fs::read(book.root().join("src/drift.md")).expect("chapter"),
        chapter
    );
}

#[test]
fn drift_speaks_json_github_and_junit() {
    let book = book();
    book.run(&["check"], |_| {});
    let dir = tempfile::tempdir().expect("tmp");
    let rustc = stand_in(dir.path()).display().to_string();
    let drift = ["drift", "--toolchain", &rustc, "--format"];
    let j = book
        .run(&[&drift[..], &["json"]].concat(), |cmd| {
            cmd.expect_code(1);
        })
        .json();
    assert_eq!(
        (&j["claims"], &j["same"], &j["changed"], &j["flipped"]),
        (
            &Value::from(8),
            &Value::from(4),
            &Value::from(4),
            &Value::from(1)
        )
    );
    let flipped = &j["drifted"][1];
    assert_eq!(flipped["flipped"], true);
    assert_eq!(flipped["changes"][0]["kind"], "verdict");
    assert!(
        flipped["to"]
            .as_str()
            .is_some_and(|t| t.starts_with("rustc 9.99.0-nightly"))
    );
    book.run(&[&drift[..], &["github"]].concat(), |cmd| {
        cmd.expect_code(1).expect_stdout(str![[r#"
::warning file=src/drift.md,line=11,title=rust example "Names its compiler" drifts ([RUSTC_RELEASE] → rustc 9.99.0-nightly)::src/drift.md:11: rust example "Names its compiler" (expect=run) ([RUSTC_RELEASE] → rustc 9.99.0-nightly): output: the output differs%0A--- [RUSTC_RELEASE]%0A+++ rustc 9.99.0-nightly%0A@@ -1 +1 @@%0A-None%0A+Some("nightly")
::error file=src/drift.md,line=19,title=rust example "Needs a nightly" drifts ([RUSTC_RELEASE] → rustc 9.99.0-nightly)::src/drift.md:19: rust example "Needs a nightly" (expect=compile-fail) ([RUSTC_RELEASE] → rustc 9.99.0-nightly): verdict: passed with [RUSTC_RELEASE], failed with rustc 9.99.0-nightly: compiled, but the example says it does not compile
::warning file=src/drift.md,line=24,title=rust example "Drops a result" drifts ([RUSTC_RELEASE] → rustc 9.99.0-nightly)::src/drift.md:24: rust example "Drops a result" (expect=run) ([RUSTC_RELEASE] → rustc 9.99.0-nightly): new warnings: 1 new warning(s): warning: unused result of type `i32`%0A--- [RUSTC_RELEASE]%0A+++ rustc 9.99.0-nightly%0A@@ -0,0 +1,2 @@%0A+warning: unused result of type `i32`%0A+ --> main.rs:2:13
::warning file=src/drift.md,line=29,title=rust example "Doubling" drifts ([RUSTC_RELEASE] → rustc 9.99.0-nightly)::src/drift.md:29: rust example "Doubling" (expect=run) ([RUSTC_RELEASE] → rustc 9.99.0-nightly): assembly listing: the assembly listing differs%0A--- [RUSTC_RELEASE]%0A+++ rustc 9.99.0-nightly%0A[..]
8 claims: 4 the same, 4 changed, 1 of them flipped ([RUSTC_RELEASE] → rustc 9.99.0-nightly)

"#]]);
    });
    let junit = book
        .run(&[&drift[..], &["junit"]].concat(), |cmd| {
            cmd.expect_code(1);
        })
        .stdout;
    assert!(
        junit.contains(r#"<testsuites name="mdbook-companion drift: 8 claims: 4 the same, 4 changed, 1 of them flipped"#),
        "{junit}"
    );
    assert_eq!(junit.matches("<testcase ").count(), 4, "{junit}");
    assert_eq!(junit.matches("<failure ").count(), 1, "{junit}");
    assert_eq!(junit.matches("<system-out>").count(), 3, "{junit}");
}

#[test]
fn drift_with_the_lock_toolchain_finds_nothing_and_exits_zero() {
    let book = book();
    book.run(&["check"], |_| {});
    book.run(&["drift", "--toolchain"], |cmd| {
        cmd.arg(real_rustc()).expect_stdout(str![[r#"
compiler runs: 10, program runs: 6, from cache: 1
8 claims: 8 the same, 0 changed ([RUSTC_RELEASE] → [RUSTC_RELEASE])

"#]]);
    });
}

#[test]
fn drift_without_a_lock_says_to_run_check_first() {
    let book = book();
    book.run(&["drift", "--toolchain"], |cmd| {
        cmd.arg(real_rustc()).expect_code(1).expect_stderr(str![[r#"
mdbook-companion: error: . has no companion.lock: drift compares a toolchain with what `mdbook-companion check` recorded; run `mdbook-companion check .` first

"#]]);
    });
}

#[test]
fn an_unknown_toolchain_is_an_error_listing_the_installed_ones() {
    let book = book();
    let installed = Command::new("rustup")
        .args(["toolchain", "list"])
        .output()
        .expect("rustup runs (the tests need it to name toolchains)");
    let installed = String::from_utf8_lossy(&installed.stdout).into_owned();
    // The run could not do its work: 2, as for every --toolchain that
    // names no compiler that runs. The toolchains installed are this
    // machine's: each is looked for below.
    let mut table = String::new();
    for command in ["check", "drift"] {
        let err = book
            .run(&[command, "--toolchain", "no-such-toolchain-0.1"], |cmd| {
                cmd.expect_code(2);
            })
            .stderr;
        let (head, _) = err.split_once("installed: ").unwrap_or((&err, ""));
        table.push_str(&format!("{command}: {head}installed: ...\n"));
        for t in installed.lines().filter(|l| !l.trim().is_empty()) {
            assert!(err.contains(t.trim()), "{t} in {err}");
        }
        assert!(
            !book.root().join("companion.lock").exists(),
            "nothing checked"
        );
    }
    let err = book
        .run(&["check", "--toolchain", "./no/such/rustc"], |cmd| {
            cmd.expect_code(2);
        })
        .stderr;
    table.push_str(&format!("check ./no/such/rustc: {err}"));
    book.check_text(table, str![[r#"
check: mdbook-companion: error: --toolchain no-such-toolchain-0.1: rustup has no toolchain `no-such-toolchain-0.1` installed; installed: ...
drift: mdbook-companion: error: --toolchain no-such-toolchain-0.1: rustup has no toolchain `no-such-toolchain-0.1` installed; installed: ...
check ./no/such/rustc: mdbook-companion: error: --toolchain ./no/such/rustc: no compiler at ./no/such/rustc; expected a rustup toolchain name (`beta`, `nightly`, `1.95.0`) or the path of a `rustc`

"#]]);
}

/// The fixture book whose examples use path crates (`tests/crates-book`),
/// copied into a case book.
fn crates_book() -> BookTest {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/crates-book");
    let read = |p: &str| std::fs::read_to_string(fixture.join(p)).expect("fixture file");
    let mut book = BookTest::new().chapter("crates.md", &read("src/crates.md")).toml(
        "[preprocessor.companion.dependencies]\nmylib = { path = \"crates/mylib\" }\nrand = { path = \"crates/rand\", features = [\"small\"] }\n",
    );
    for file in [
        "crates/mylib/Cargo.toml",
        "crates/mylib/src/lib.rs",
        "crates/rand/Cargo.toml",
        "crates/rand/src/lib.rs",
    ] {
        book = book.file(file, read(file));
    }
    book.write();
    book
}

#[test]
fn the_books_crates_are_built_by_the_toolchain_beside_the_books_own() {
    let book = crates_book();
    let dir = tempfile::tempdir().expect("tmp");
    let rustc = stand_in(dir.path()).display().to_string();
    let check = |args: &[&str]| {
        let mut all = vec!["check", "--format", "json"];
        all.extend_from_slice(args);
        let j = book.run(&all, |_| {}).json();
        (
            j["compiler_runs"].as_u64().expect("runs"),
            j["dependency_builds"].as_u64().expect("builds"),
        )
    };
    let (_, builds) = check(&["--toolchain", &rustc]);
    assert!(builds > 0);
    let compiles = std::fs::read_to_string(dir.path().join("compiles.log")).expect("log");
    assert!(
        compiles.contains("--crate-name mylib"),
        "cargo built the crates with the toolchain's rustc: {compiles}"
    );
    let crates = book.root().join(".companion-cache/crates");
    assert!(
        !crates.join("lib-debug").exists(),
        "the libraries `mdbook test -L` reads are not the toolchain's"
    );
    // The book's own compiler builds its own; neither replaces the other.
    assert!(check(&[]).1 > 0);
    assert!(crates.join("lib-debug").is_dir());
    assert_eq!(check(&["--toolchain", &rustc]), (0, 0), "back: warm");
    assert_eq!(check(&[]), (0, 0), "and back again: warm");
}

#[test]
fn a_flip_back_counts_and_warnings_name_the_compiler_they_are_compared_with() {
    let book = book();
    let dir = tempfile::tempdir().expect("tmp");
    let rustc = stand_in(dir.path()).display().to_string();
    // The lock as the stand-in sees the book: its nightly claim fails.
    book.run(&["check", "--toolchain", &rustc], |cmd| {
        cmd.expect_code(1);
    });
    // Failed, now holds: a flip too.
    book.run(&["drift", "--toolchain"], |cmd| {
        cmd.arg(real_rustc()).expect_code(1).expect_stdout(str![[r#"
changed src/drift.md:11: rust example "Names its compiler" (expect=run) (rustc 9.99.0-nightly → [RUSTC_RELEASE]): output: the output differs
    --- rustc 9.99.0-nightly
    +++ [RUSTC_RELEASE]
    @@ -1 +1 @@
    -Some("nightly")
    +None
FLIPPED src/drift.md:19: rust example "Needs a nightly" (expect=compile-fail) (rustc 9.99.0-nightly → [RUSTC_RELEASE]): verdict: failed with rustc 9.99.0-nightly, passed with [RUSTC_RELEASE]
changed src/drift.md:29: rust example "Doubling" (expect=run) (rustc 9.99.0-nightly → [RUSTC_RELEASE]): assembly listing: the assembly listing differs
    --- rustc 9.99.0-nightly
    +++ [RUSTC_RELEASE]
    @@ [..] @@
...
note: warnings are compared with the book's compiler here ([RUSTC_RELEASE]), not with rustc 9.99.0-nightly that the lock names
compiler runs: 10, program runs: 6, from cache: 1
8 claims: 5 the same, 3 changed, 1 of them flipped (rustc 9.99.0-nightly → [RUSTC_RELEASE])

"#]]);
    });
}
