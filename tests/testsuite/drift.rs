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

use crate::support::{BIN, TestBook};
use pretty_assertions::assert_eq;
use serde_json::Value;
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

/// The first line of the real compiler's `-vV`: the lock's toolchain.
fn real_version() -> String {
    let out = Command::new(real_rustc())
        .arg("-vV")
        .output()
        .expect("rustc -vV");
    String::from_utf8(out.stdout)
        .expect("utf-8")
        .lines()
        .next()
        .expect("a version line")
        .to_owned()
}

/// `rustc 1.95.0`: how reports name the real compiler.
fn short_version() -> String {
    real_version()
        .split_whitespace()
        .take(2)
        .collect::<Vec<_>>()
        .join(" ")
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

const CHAPTER: &str = r#"# Drift

```rust example title="Same everywhere"
fn main() { println!("{}", 6 * 7); }
```

```output
42
```

```rust example title="Names its compiler"
fn main() { println!("{:?}", option_env!("COMPANION_STANDIN")); }
```

```output
[..]
```

```rust example title="Needs a nightly" expect=compile-fail error=E0554
#![feature(never_type)]
fn main() { let v: Option<!> = None; println!("{}", v.is_none()); }
```

```rust example title="Drops a result"
fn answer() -> i32 { 42 }
fn main() { answer(); }
```

```rust example title="Doubling" asm
pub fn double(x: i32) -> i32 { x.wrapping_mul(2) }
# fn main() { println!("{}", double(21)); }
```

```output
42
```

````compare title="C stays C"
```c expect=run
#include <stdio.h>
int main(void) { printf("%d\n", 7); return 0; }
```
```output
7
```
```rust
fn main() { println!("{}", 7); }
```
```output
7
```
````

A plain block, as `mdbook test` tests it:

```rust
let v = vec![1, 2, 3];
assert_eq!(v.len(), 3);
```
"#;

fn book() -> TestBook {
    let book = TestBook::new().chapter("drift.md", CHAPTER);
    book.write();
    book
}

/// Runs the binary: (stdout, stderr, exit code).
fn run(args: &[&str]) -> (String, String, i32) {
    let out = Command::new(BIN)
        .args(args)
        .output()
        .expect("run the binary");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

fn json(stdout: &str, stderr: &str) -> Value {
    serde_json::from_str(stdout).unwrap_or_else(|e| panic!("{e}\n{stdout}\n{stderr}"))
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
    let root = book.root().display().to_string();
    let (out, err, code) = run(&["check", &root, "--toolchain", &rustc.display().to_string()]);
    // Only the stand-in accepts `#![feature]`: that claim fails with it.
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("FAILED  src/drift.md:19: rust example \"Needs a nightly\""),
        "{out}"
    );
    assert!(out.ends_with("7 passed, 1 failed\n"), "{out}");
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
    let root = book.root().display().to_string();
    let runs = |args: &[&str]| -> (u64, u64) {
        let mut all = vec!["check", root.as_str(), "--format", "json"];
        all.extend_from_slice(args);
        let (out, err, _) = run(&all);
        let j = json(&out, &err);
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
    let root = book.root().display().to_string();
    let (out, err, code) = run(&["check", &root]);
    assert_eq!(code, 0, "{out}{err}");
    let lock = std::fs::read(book.root().join("companion.lock")).expect("lock");
    let chapter = std::fs::read(book.root().join("src/drift.md")).expect("chapter");
    let dir = tempfile::tempdir().expect("tmp");
    let rustc = stand_in(dir.path()).display().to_string();
    let (out, err, code) = run(&["drift", &root, "--toolchain", &rustc]);
    assert_eq!(code, 1, "a verdict flips: {out}{err}");
    let short_from = short_version();
    let lines: Vec<&str> = out
        .lines()
        .filter(|l| !l.starts_with(' ') && !l.starts_with("compiler runs"))
        .collect();
    let via = format!("({short_from} → rustc 9.99.0-nightly)");
    assert_eq!(
        lines,
        [
            format!(
                "changed src/drift.md:11: rust example \"Names its compiler\" (expect=run) {via}: output: the output differs"
            ),
            format!(
                "FLIPPED src/drift.md:19: rust example \"Needs a nightly\" (expect=compile-fail) {via}: verdict: passed with {short_from}, failed with rustc 9.99.0-nightly: compiled, but the example says it does not compile"
            ),
            format!(
                "changed src/drift.md:24: rust example \"Drops a result\" (expect=run) {via}: new warnings: 1 new warning(s): warning: unused result of type `i32`"
            ),
            format!(
                "changed src/drift.md:29: rust example \"Doubling\" (expect=run) {via}: assembly listing: the assembly listing differs"
            ),
            format!("8 claims: 4 the same, 4 changed, 1 of them flipped {via}"),
        ]
    );
    // A diff where there is text, headed by both toolchains.
    assert!(
        out.contains(&format!(
            "    --- {short_from}\n    +++ rustc 9.99.0-nightly\n    @@ -1 +1 @@\n    -None\n    +Some(\"nightly\")\n"
        )),
        "{out}"
    );
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
    let root = book.root().display().to_string();
    assert_eq!(run(&["check", &root]).2, 0);
    let dir = tempfile::tempdir().expect("tmp");
    let rustc = stand_in(dir.path()).display().to_string();
    let drift = |format: &str| run(&["drift", &root, "--toolchain", &rustc, "--format", format]);
    let (out, err, code) = drift("json");
    assert_eq!(code, 1);
    let j = json(&out, &err);
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
    let (out, _, code) = drift("github");
    assert_eq!(code, 1);
    let short = short_version();
    let annotations: Vec<&str> = out.lines().filter(|l| l.starts_with("::")).collect();
    let heads = [
        "::warning file=src/drift.md,line=11,title=rust example \"Names its compiler\" drifts",
        "::error file=src/drift.md,line=19,title=rust example \"Needs a nightly\" drifts",
        "::warning file=src/drift.md,line=24,title=rust example \"Drops a result\" drifts",
        "::warning file=src/drift.md,line=29,title=rust example \"Doubling\" drifts",
    ];
    assert_eq!(annotations.len(), heads.len(), "{out}");
    for (a, head) in annotations.iter().zip(heads) {
        assert!(
            a.starts_with(&format!("{head} ({short} → rustc 9.99.0-nightly)::")),
            "{a}"
        );
    }
    assert!(
        out.ends_with(&format!(
            "1 of them flipped ({short} → rustc 9.99.0-nightly)\n"
        )),
        "{out}"
    );
    let (out, _, code) = drift("junit");
    assert_eq!(code, 1);
    assert!(
        out.contains(r#"<testsuites name="mdbook-companion drift: 8 claims: 4 the same, 4 changed, 1 of them flipped"#),
        "{out}"
    );
    assert_eq!(out.matches("<testcase ").count(), 4, "{out}");
    assert_eq!(out.matches("<failure ").count(), 1, "{out}");
    assert_eq!(out.matches("<system-out>").count(), 3, "{out}");
}

#[test]
fn drift_with_the_lock_toolchain_finds_nothing_and_exits_zero() {
    let book = book();
    let root = book.root().display().to_string();
    assert_eq!(run(&["check", &root]).2, 0);
    let (out, err, code) = run(&[
        "drift",
        &root,
        "--toolchain",
        &real_rustc().display().to_string(),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let short = short_version();
    assert!(
        out.ends_with(&format!(
            "8 claims: 8 the same, 0 changed ({short} → {short})\n"
        )),
        "{out}"
    );
}

#[test]
fn drift_without_a_lock_says_to_run_check_first() {
    let book = book();
    let root = book.root().display().to_string();
    let (_, err, code) = run(&[
        "drift",
        &root,
        "--toolchain",
        &real_rustc().display().to_string(),
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("has no companion.lock"), "{err}");
    assert!(err.contains("run `mdbook-companion check"), "{err}");
}

#[test]
fn an_unknown_toolchain_is_an_error_listing_the_installed_ones() {
    let book = book();
    let root = book.root().display().to_string();
    let installed = Command::new("rustup")
        .args(["toolchain", "list"])
        .output()
        .expect("rustup runs (the tests need it to name toolchains)");
    let installed = String::from_utf8_lossy(&installed.stdout).into_owned();
    for command in ["check", "drift"] {
        let (out, err, code) = run(&[command, &root, "--toolchain", "no-such-toolchain-0.1"]);
        // The run could not do its work: 2, as for every --toolchain
        // that names no compiler that runs.
        assert_eq!(code, 2, "{out}{err}");
        assert!(
            err.contains("rustup has no toolchain `no-such-toolchain-0.1` installed; installed: "),
            "{err}"
        );
        for t in installed.lines().filter(|l| !l.trim().is_empty()) {
            assert!(err.contains(t.trim()), "{t} in {err}");
        }
        assert!(
            !book.root().join("companion.lock").exists(),
            "nothing checked"
        );
    }
    let (_, err, code) = run(&["check", &root, "--toolchain", "./no/such/rustc"]);
    assert_eq!(code, 2);
    assert!(err.contains("no compiler at ./no/such/rustc"), "{err}");
}

/// The fixture book whose examples use path crates (`tests/crates-book`),
/// copied into a case book.
fn crates_book() -> TestBook {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/crates-book");
    let read = |p: &str| std::fs::read_to_string(fixture.join(p)).expect("fixture file");
    let mut book = TestBook::new().chapter("crates.md", &read("src/crates.md")).toml(
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
    let root = book.root().display().to_string();
    let check = |args: &[&str]| {
        let mut all = vec!["check", root.as_str(), "--format", "json"];
        all.extend_from_slice(args);
        let (out, err, code) = run(&all);
        let j = json(&out, &err);
        assert_eq!(code, 0, "{out}{err}");
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
    let root = book.root().display().to_string();
    let dir = tempfile::tempdir().expect("tmp");
    let rustc = stand_in(dir.path()).display().to_string();
    // The lock as the stand-in sees the book: its nightly claim fails.
    assert_eq!(run(&["check", &root, "--toolchain", &rustc]).2, 1);
    let real = real_rustc().display().to_string();
    let (out, err, code) = run(&["drift", &root, "--toolchain", &real]);
    assert_eq!(code, 1, "failed, now holds: a flip too: {out}{err}");
    let short = short_version();
    assert!(
        out.contains(&format!(
            "FLIPPED src/drift.md:19: rust example \"Needs a nightly\" (expect=compile-fail) (rustc 9.99.0-nightly → {short}): verdict: failed with rustc 9.99.0-nightly, passed with {short}\n"
        )),
        "{out}"
    );
    assert!(
        out.contains(&format!(
            "note: warnings are compared with the book's compiler here ({short}), not with rustc 9.99.0-nightly that the lock names\n"
        )),
        "{out}"
    );
}
