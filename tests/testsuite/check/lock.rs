//! `companion.lock`: written by `check` (deterministic, atomic), read by
//! builds that lack compilers, and enforced by `check --locked`.

use super::*;
use pretty_assertions::assert_eq;

const LOCKED: &str = r#"# Locked

```rust example title="prints" asm
pub fn twice(x: u32) -> u32 { x * 2 }
fn main() { println!("{}", twice(21)); }
```

```output
42
```

````compare title="Overflow" asm
```c caption="C" expect=ub
~ #include <limits.h>
int add(int a, int b) { return a + b; }
~ int main(void) { volatile int x = INT_MAX; return add(x, 1); }
```
```output
signed integer overflow
```
```rust caption="Rust" expect=panic mode=debug
pub fn add(a: i32, b: i32) -> i32 { a + b }
# fn main() { let x = std::hint::black_box(i32::MAX); add(x, 1); }
```
```output
attempt to add with overflow
```
````
"#;

fn lock_text(book: &TestBook) -> String {
    std::fs::read_to_string(book.root().join("companion.lock")).expect("companion.lock")
}

#[test]
fn check_writes_the_same_lock_twice_and_locked_passes_on_it() {
    let book = TestBook::new().chapter("locked.md", LOCKED);
    book.write();
    let (stdout, _, code) = check(&book, &[]);
    assert_eq!(code, 0, "{stdout}");
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
    let at = |s| line_of(LOCKED, s) as i64;
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
    let (_, _, code) = check(&book, &[]);
    assert_eq!(code, 0);
    assert_eq!(lock_text(&book), first);
    let (stdout, _, code) = check(&book, &["--locked"]);
    assert_eq!(code, 0, "{stdout}");
    assert_eq!(lock_text(&book), first);
}

#[test]
fn locked_fails_naming_each_block_when_the_lock_is_missing_or_stale() {
    let book = TestBook::new().chapter("locked.md", LOCKED);
    book.write();
    let (stdout, _, code) = check(&book, &["--locked"]);
    assert_eq!(code, 1, "{stdout}");
    assert!(
        stdout.contains("FAILED  --locked: companion.lock is missing; run `mdbook-companion check` and commit it"),
        "{stdout}"
    );
    assert!(
        !book.root().join("companion.lock").exists(),
        "--locked writes no lock"
    );
    let (_, _, code) = check(&book, &[]);
    assert_eq!(code, 0);
    let locked = lock_text(&book);
    // An edited example, not re-checked.
    let chapter = book.root().join("src/locked.md");
    std::fs::write(
        &chapter,
        LOCKED
            .replace("twice(21)", "twice(20)")
            .replace("\n42\n", "\n40\n"),
    )
    .unwrap();
    let (stdout, _, code) = check(&book, &["--locked"]);
    assert_eq!(code, 1, "{stdout}");
    // One block changed: one line, saying what changed and what to do.
    let line = line_of(LOCKED, "title=\"prints\"");
    let failures: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("FAILED  --locked"))
        .collect();
    assert_eq!(
        failures,
        [format!(
            "FAILED  --locked: src/locked.md:{line}: rust example \"prints\": hash: its code or what it claims changed since companion.lock was written (it printed \"42\\n\" then, \"40\\n\" now); assembly.hash: its assembly panel has no entry in companion.lock; run `mdbook-companion check` and commit companion.lock"
        )],
        "{stdout}"
    );
    assert_eq!(lock_text(&book), locked, "--locked leaves the lock alone");
    // A plain check brings it up to date; --locked agrees again.
    let (_, _, code) = check(&book, &[]);
    assert_eq!(code, 0);
    assert_ne!(lock_text(&book), locked);
    let (stdout, _, code) = check(&book, &["--locked"]);
    assert_eq!(code, 0, "{stdout}");
}

#[test]
fn a_lock_that_does_not_parse_is_a_warning_and_is_rewritten() {
    let book = TestBook::new().chapter("locked.md", LOCKED);
    book.write();
    std::fs::write(
        book.root().join("companion.lock"),
        "<<<<<<< HEAD\nversion = 1\n",
    )
    .unwrap();
    let (stdout, _, code) = check(&book, &[]);
    assert_eq!(code, 0, "a bad lock fails nothing but --locked: {stdout}");
    assert!(
        stdout.contains("warning: ")
            && stdout.contains("companion.lock")
            && stdout.contains("rewritten"),
        "{stdout}"
    );
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
    let book = TestBook::new()
        .companion("verify = true")
        .chapter("locked.md", LOCKED);
    book.write();
    let (_, _, code) = check(&book, &[]);
    assert_eq!(code, 0);
    // The pages with compilers at hand.
    let with = Command::new(BIN)
        .arg("build")
        .arg(book.root())
        .output()
        .unwrap();
    assert!(
        with.status.success(),
        "{}",
        String::from_utf8_lossy(&with.stderr)
    );
    let page = |b: &TestBook| std::fs::read_to_string(b.root().join("book/locked.html")).unwrap();
    let with_page = page(&book);
    assert!(
        with_page.contains("companion-asm"),
        "the panels are on the page"
    );
    // A fresh machine: no cache, no compilers on PATH.
    std::fs::remove_dir_all(book.root().join(".companion-cache")).unwrap();
    std::fs::remove_dir_all(book.root().join("book")).unwrap();
    let empty = no_compilers();
    let without = Command::new(BIN)
        .arg("build")
        .arg(book.root())
        .env("PATH", empty.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&without.stderr);
    assert!(without.status.success(), "{stderr}");
    assert!(
        !stderr.contains("could not be run"),
        "no compiler was needed: {stderr}"
    );
    assert_eq!(page(&book), with_page, "the same pages without compilers");
    // And without the lock, the same machine cannot show or verify them.
    std::fs::remove_file(book.root().join("companion.lock")).unwrap();
    std::fs::remove_dir_all(book.root().join(".companion-cache")).ok();
    let bare = Command::new(BIN)
        .arg("build")
        .arg(book.root())
        .env("PATH", empty.path())
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&bare.stderr).contains("could not be run"),
        "{}",
        String::from_utf8_lossy(&bare.stderr)
    );
}

#[test]
fn two_checks_at_once_both_finish_with_the_right_verdicts_and_one_whole_lock() {
    let book = TestBook::new().chapter("locked.md", LOCKED);
    book.write();
    let run = || {
        Command::new(BIN)
            .arg("check")
            .arg(book.root())
            .stdout(std::process::Stdio::null())
            .spawn()
            .expect("check")
    };
    let (mut a, mut b) = (run(), run());
    assert!(a.wait().unwrap().success());
    assert!(b.wait().unwrap().success());
    let text = lock_text(&book);
    let (stdout, _, code) = check(&book, &["--locked"]);
    assert_eq!(code, 0, "{stdout}\n{text}");
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
    let book = TestBook::new().chapter("bad.md", chapter);
    book.write();
    let (stdout, _, code) = check(&book, &[]);
    assert_eq!(code, 1, "{stdout}");
    assert!(
        stdout.contains("FAILED  src/bad.md:2: compare side C (expect=compile): does not compile"),
        "{stdout}"
    );
    assert!(
        stdout.contains("ok      src/bad.md:5: compare side Rust"),
        "the other side is still checked: {stdout}"
    );
    // The build fails on the panel (`on-failure = "bail"`), and check
    // says so where the build does.
    assert!(
        stdout.contains("FAILED  src/bad.md:2:4: cannot show the assembly: `cc` rejected the code"),
        "{stdout}"
    );
}

/// Every kind of recorded run: output on both streams, a panic, a
/// compile error; and blocks with no run to record.
const RUNS: &str = r#"# Runs

```rust example title="streams"
fn main() { println!("out"); eprintln!("err"); }
```

```output
out
```

```rust example title="panics" expect=panic
fn main() { let d = std::env::args().count() - 1; println!("{}", 1 / d); }
```

```output
attempt to divide by zero
```

```rust example title="mismatched" expect=compile-fail error=E0308
fn main() { let x: i32 = "one"; }
```

```rust example title="compiles" expect=no-run
fn main() { loop {} }
```

```rust example title="wrong" expect=run
fn main() { println!("not what it says"); }
```

```output
something else
```
"#;

#[test]
fn check_records_what_each_passing_rust_program_did_for_the_run_button() {
    let book = TestBook::new()
        .companion("on-failure = \"continue\"")
        .chapter("runs.md", RUNS);
    book.write();
    let (_, _, code) = check(&book, &[]);
    assert_eq!(code, 1, "the wrong example fails");
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
    check(&book, &[]);
    assert_eq!(lock_text(&book), before);
}
