//! A failing plain block's verdict from a merged build, rustc's own words
//! for it alone only under `--exact` (issue 60): the same verdicts and
//! the same lock either way, fewer compiler starts without it, and the
//! merged build's words marked as such in every report format.

use super::run::{check, check_json};
use crate::support::BookTest;
use pretty_assertions::assert_eq;
use serde_json::Value;

/// Failing blocks of every kind beside blocks that hold: `compile_fail`
/// blocks that fail as claimed (two whose types a merged build names
/// with its modules' paths), one that compiles, one with another error
/// code; `should_panic` blocks that panic and that do not; plain blocks
/// that fail in different phases (a type error with a name another block
/// defines too, a use after move), blocks rustc's lexer stops in (a
/// bracket, a string left open; not a guarded string, three tokens
/// before 2024, which the lexer cannot tell), and an example whose
/// output is wrong.
const FAILING: &str = r##"# Failing

```rust,compile_fail,E0308
let x: u32 = "a";
```

```rust,compile_fail,E0599
struct Meters(u32);
Meters(3).double();
```

```rust,compile_fail,E0599
struct Meters(u64);
Meters(3).halve();
```

```rust,compile_fail
fn main() {}
```

```rust,compile_fail,E0382
let x: u32 = "b";
```

```rust,should_panic
panic!("boom");
```

```rust,should_panic
let _quiet = 1;
```

```rust
struct Meters(u8);
let m: Meters = 3;
```

```rust
let v = vec![1];
drop(v);
println!("{:?}", v);
```

```rust
println!("fine");
```

```rust
let unclosed = (1;
```

```rust,compile_fail
let s = "never closed;
```

```rust
macro_rules! three { ($a:tt $b:tt $c:tt) => {}; }
three!(#"a guarded string before 2024"#);
```

```rust example title="wrong output"
println!("hullo");
```

```output
hello
```
"##;

fn failing_book() -> BookTest {
    let book = BookTest::new()
        .toml("[rust]\nedition = \"2021\"\n")
        .chapter("failing.md", FAILING);
    book.write();
    book
}

/// Each block's place and verdict (`status`), nothing of its words.
fn statuses(report: &Value) -> Vec<(u64, String)> {
    super::run::verdicts(report)
        .iter()
        .map(|r| {
            let line = r["line"].as_u64().unwrap_or(0);
            (line, r["status"].as_str().unwrap_or("?").to_owned())
        })
        .collect()
}

/// Cold `check` with `args`: its JSON report and the lock it wrote.
fn cold(book: &BookTest, args: &[&str]) -> (Value, String) {
    let _ = std::fs::remove_dir_all(book.root().join(".companion-cache"));
    let (report, code) = check_json(book, args);
    assert_eq!(code, 1, "{report:#}");
    let lock = std::fs::read_to_string(book.root().join("companion.lock")).expect("the lock");
    (report, lock)
}

#[test]
fn failing_blocks_have_the_same_verdicts_and_lock_with_and_without_exact() {
    let book = failing_book();
    let (merged, merged_lock) = cold(&book, &[]);
    let (exact, exact_lock) = cold(&book, &["--exact"]);
    let (alone, _) = cold(&book, &["--no-merge"]);
    assert_eq!(statuses(&merged), statuses(&exact));
    assert_eq!(statuses(&exact), statuses(&alone));
    assert_eq!(merged["summary"], "7 passed, 7 failed", "{merged:#}");
    assert_eq!(merged_lock, exact_lock);
    let runs = |r: &Value| r["compiler_runs"].as_u64().unwrap_or(0);
    assert!(
        runs(&merged) < runs(&exact),
        "{} compiler runs without --exact, {} with",
        runs(&merged),
        runs(&exact)
    );
    // Told by a merged build: marked in the JSON and in the message.
    let told: Vec<&Value> = merged["results"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|r| r["merged_diagnostics"] == true)
        .collect();
    assert!(!told.is_empty(), "{merged:#}");
    for r in &told {
        assert_eq!(r["status"], "failed", "{r:#}");
        let message = r["message"].as_str().unwrap_or_default();
        assert!(
            message.ends_with(mdbook_companion_engine::check::MERGED_NOTE),
            "{r:#}"
        );
    }
    // The lexer's words for a block rustc's lexer stops in, no compile.
    let unclosed = FAILING
        .lines()
        .position(|l| l == "let unclosed = (1;")
        .expect("the block");
    let lexed = told.iter().find(|r| r["line"] == unclosed as u64);
    let detail = lexed.and_then(|r| r["detail"].as_str()).unwrap_or_default();
    assert!(
        detail.starts_with("error: mismatched closing delimiter: `}` closes `(`"),
        "{merged:#}"
    );
    // `--exact`: rustc's words for each block alone, as `--no-merge`.
    let text =
        |r: &Value| serde_json::to_string_pretty(&super::run::verdicts(r)).unwrap_or_default();
    assert!(!text(&exact).contains("merged_diagnostics"), "{exact:#}");
    assert_eq!(text(&exact), text(&alone));
}

#[test]
fn a_merged_builds_words_are_marked_in_every_report_format() {
    let book = failing_book();
    check(&book, &[]);
    let line = FAILING
        .lines()
        .position(|l| l == "let m: Meters = 3;")
        .expect("the block")
        - 1;
    let note = mdbook_companion_engine::check::MERGED_NOTE;
    // Each format: where it names the block, the note it adds.
    let formats = [
        ("text", format!("src/failing.md:{line}"), note.to_owned()),
        (
            "github",
            format!("file=src/failing.md,line={line},"),
            note.to_owned(),
        ),
        (
            "junit",
            "<failure message=\"does not compile (".to_owned(),
            note.replace('\'', "&apos;"),
        ),
    ];
    for (format, at, note) in formats {
        let (out, _, code) = check(&book, &["--format", format]);
        assert_eq!(code, 1);
        let marked = out.lines().any(|l| l.contains(&at) && l.contains(&note));
        assert!(marked, "{format}: no note at {at}\n{out}");
    }
    let (out, _, _) = check(&book, &["--format", "text", "--exact"]);
    assert!(!out.contains(note), "{out}");
}

/// Plain blocks whose `main` holds only items (rustdoc's wrapper of a
/// block of definitions, an empty `main` of a block's own), one that
/// exits from a constructor before `main` (a `.init_array` entry), and
/// one that prints.
const DEFINITIONS: &str = r#"# Definitions

```rust
struct Meters(u32);
impl Meters {
    fn double(&self) -> Meters { Meters(self.0 * 2) }
}
```

```rust
fn main() {}
trait Shape { fn area(&self) -> f64; }
```

```rust
#[used]
#[unsafe(link_section = ".init_array")]
static EARLY: extern "C" fn() = early;
extern "C" fn early() { std::process::exit(3); }
```

```rust
println!("runs");
```
"#;

#[test]
fn blocks_of_definitions_compile_and_are_not_run_unless_exact() {
    let book = BookTest::new()
        .toml("[rust]\nedition = \"2021\"\n")
        .chapter("definitions.md", DEFINITIONS);
    book.write();
    let line_of = |text: &str| {
        DEFINITIONS
            .lines()
            .position(|l| l == text)
            .expect("the block") as u64
    };
    let early = line_of("#[used]");
    let (told, told_lock) = cold(&book, &[]);
    let (exact, exact_lock) = cold(&book, &["--exact"]);
    let count = |r: &Value, k: &str| r[k].as_u64().unwrap_or(u64::MAX);
    // Two not run; the constructor's block and the printing one run.
    assert_eq!(count(&told, "runs_certain"), 2, "{told:#}");
    assert_eq!(count(&told, "program_runs"), 2, "{told:#}");
    assert_eq!(count(&exact, "runs_certain"), 0, "{exact:#}");
    assert_eq!(count(&exact, "program_runs"), 4, "{exact:#}");
    // The same verdicts and lock: the constructor's exit fails its block.
    assert_eq!(statuses(&told), statuses(&exact));
    assert_eq!(told_lock, exact_lock);
    let failed: Vec<u64> = statuses(&told)
        .into_iter()
        .filter(|(_, s)| s == "failed")
        .map(|(l, _)| l)
        .collect();
    assert_eq!(failed, [early], "{told:#}");
    let _ = std::fs::remove_dir_all(book.root().join(".companion-cache"));
    let (text, _, _) = check(&book, &["--format", "text"]);
    assert!(
        text.contains(
            "program runs: 2 (not run, their main holding only items: 2; --exact runs them)"
        ),
        "{text}"
    );
    // `mdbook test` runs every block: it fails the constructor's alone.
    let out = std::process::Command::new(crate::tools::tool("mdbook"))
        .arg("test")
        .arg(book.root())
        .output()
        .expect("mdbook test");
    let said =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    let failing: Vec<&str> = said
        .lines()
        .filter(|l| l.starts_with("test ") && l.ends_with("FAILED"))
        .collect();
    assert_eq!(failing.len(), 1, "{said}");
    assert!(
        failing[0].contains(&format!("(line {})", early + 1))
            || failing[0].contains(&format!("(line {early})")),
        "{said}"
    );
}
