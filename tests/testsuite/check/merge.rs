//! Merged builds (`check` compiles cold Rust examples together) against
//! `--no-merge` (each alone): the same report on every check fixture and
//! on a book of examples that break a merged build; fewer compiler
//! starts; `--partition` shares that add up to the book. The example book
//! (which runs Memcheck) is compared in the Valgrind target.

use super::{INCLUDED, KINDS, check, check_json, verdicts};
use crate::support::BookTest;
use pretty_assertions::assert_eq;
use serde_json::Value;
use snapbox::str;

/// Examples that a shared crate would change or break, each to be judged
/// as when compiled alone: the chapter of the fixture `check/hazards`.
const HAZARDS: &str = include_str!("hazards/src/hazards.md");

/// `check`'s text report without the counters line, and with thread ids
/// (`thread 'main' (1234)`), which differ from run to run, blanked.
fn judged(text: &str) -> String {
    let ids = regex::Regex::new(r"\(\d+\) panicked").expect("regex");
    text.lines()
        .filter(|l| !l.starts_with("compiler runs:"))
        .map(|l| ids.replace_all(l, "(N) panicked").into_owned())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Cold `check` merged and with `--no-merge` on the book: the same text
/// report, the same verdicts; the merged run's JSON report.
pub(super) fn same_both_ways(book: &BookTest) -> Value {
    let cache = book.root().join(".companion-cache");
    let fresh = |args: &[&str]| {
        let _ = std::fs::remove_dir_all(&cache);
        check(book, args)
    };
    let (merged, _, merged_code) = fresh(&[]);
    let (alone, _, alone_code) = fresh(&["--no-merge"]);
    assert_eq!(judged(&merged), judged(&alone));
    assert_eq!(merged_code, alone_code);
    let _ = std::fs::remove_dir_all(&cache);
    let (merged_json, _) = check_json(book, &[]);
    let _ = std::fs::remove_dir_all(&cache);
    let (alone_json, _) = check_json(book, &["--no-merge"]);
    let blank = |v: &Value| judged(&serde_json::to_string_pretty(&verdicts(v)).unwrap_or_default());
    assert_eq!(blank(&merged_json), blank(&alone_json));
    assert_eq!(merged_json["summary"], alone_json["summary"]);
    merged_json
}

#[test]
fn merged_and_alone_report_the_same_on_every_fixture() {
    let books = [
        BookTest::new()
            .chapter("kinds.md", KINDS)
            .chapter("inc.md", INCLUDED)
            .file("src/code/hi.rs", "fn main() { println!(\"hi\"); }\n"),
        BookTest::new().chapter("bless.md", super::bless::BLESS),
        BookTest::new().chapter("compare.md", super::bless::BLESS_COMPARE),
        BookTest::new().chapter("two.md", super::bless::TWO_COMPARES),
        BookTest::new().chapter("verify.md", super::verify::VERIFY),
        BookTest::new().chapter("c.md", super::verify::TWO_C),
    ];
    for book in &books {
        book.write();
        same_both_ways(book);
    }
}

#[test]
fn examples_that_break_a_merged_build_are_judged_as_alone() {
    let book = BookTest::from_dir("check/hazards");
    let report = same_both_ways(&book);
    assert_eq!(report["summary"], "10 passed, 7 failed");
    // Warm, the merged run's report (rustc's diagnostics and the panics'
    // text are the toolchain's words).
    book.run(&["check"], |cmd| {
        cmd.expect_code(1).expect_stdout(str![[r#"
ok      src/hazards.md:3: rust example "args and env as alone" (expect=run)
FAILED  src/hazards.md:11: rust example "main nested in a module" (expect=run): does not compile
    | error[E0601]: [..]
...
ok      src/hazards.md:17: rust example "same item names as the next" (expect=run)
ok      src/hazards.md:27: rust example "same item names as the last" (expect=run)
ok      src/hazards.md:38: rust example "crate attribute" (expect=run)
ok      src/hazards.md:48: rust example "macro in an example" (expect=run)
FAILED  src/hazards.md:57: rust example "does not compile in a run" (expect=run): does not compile
    | error[E0308]: [..]
...
FAILED  src/hazards.md:61: rust example "deny lint" (expect=run): does not compile
    | error: [..]
...
ok      src/hazards.md:65: rust example "panics with a location" (expect=panic)
FAILED  src/hazards.md:77: rust example "run that panics" (expect=run): the program panicked: index out of bounds: the len is 0 but the index is 1
    | [src/hazards.md:79:1] v.len() = 0
    | 
    | thread 'main' ([THREAD_ID]) panicked at src/hazards.md:80:17:
    | index out of bounds: the len is 0 but the index is 1
    | note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace
FAILED  src/hazards.md:83: rust example "error from main" (expect=run): the program exited with code 1
    | Error: "bad"
FAILED  src/hazards.md:90: rust example "exit code" (expect=run): the program exited with code 3
ok      src/hazards.md:94: rust example "2024" (expect=run)
ok      src/hazards.md:102: rust example "release" (expect=run)
FAILED  src/hazards.md:110: rust example "no-run broken" (expect=no-run): does not compile
    | error[E0425]: [..]
...
ok      src/hazards.md:114: rust example "no-run fine" (expect=no-run)
ok      src/hazards.md:118: rust example "unused warnings" (expect=run)
compiler runs: 0, program runs: 0, from cache: 17
10 passed, 7 failed

"#]]);
    });
    let _ = std::fs::remove_dir_all(book.root().join(".companion-cache"));
    let (alone, _) = check_json(&book, &["--no-merge"]);
    assert!(
        report["compiler_runs"].as_u64() < alone["compiler_runs"].as_u64(),
        "merged {} vs alone {}",
        report["compiler_runs"],
        alone["compiler_runs"]
    );
}

/// The fixture `check/crate-paths`: examples with paths from the crate's
/// root, which a merged build tells from each example's module at the same
/// lines and columns.
#[test]
fn crate_paths_merge_and_panics_name_the_authors_line_and_column() {
    let book = BookTest::from_dir("check/crate-paths");
    let report = same_both_ways(&book);
    assert_eq!(report["summary"], "2 passed, 1 failed", "{report:#}");
    // One build per worker, nothing alone.
    assert!(
        report["compiler_runs"].as_u64().unwrap_or(99) <= 2,
        "{report:#}"
    );
    // `unwrap` panics at its call, after the path on the same line.
    let detail = report["results"][2]["detail"].as_str().unwrap_or_default();
    book.check_text(
        detail,
        str![[r#"

thread 'main' ([THREAD_ID]) panicked at src/crate.md:30:56:
called `Option::unwrap()` on a `None` value
note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace

"#]],
    );
}

#[test]
fn warm_merged_check_starts_no_compiler_and_an_edit_recompiles_one_example() {
    let book = BookTest::from_dir("check/hazards");
    let (cold, _) = check_json(&book, &[]);
    assert!(cold["compiler_runs"].as_u64().unwrap_or(0) > 0);
    let (warm, _) = check_json(&book, &[]);
    assert_eq!(warm["compiler_runs"], 0);
    assert_eq!(warm["program_runs"], 0);
    assert_eq!(verdicts(&warm), verdicts(&cold));
    let edited = HAZARDS.replace("twice!(21)", "twice!(20) + 2");
    std::fs::write(book.root().join("src/hazards.md"), edited).expect("edit");
    let (after, _) = check_json(&book, &[]);
    assert_eq!(after["compiler_runs"], 1, "the edited example alone");
    assert_eq!(after["summary"], cold["summary"]);
}

#[test]
fn partition_shares_together_are_exactly_the_whole_book() {
    let book = BookTest::new()
        .chapter("kinds.md", KINDS)
        .chapter("hazards.md", HAZARDS);
    let cache = book.root().join(".companion-cache");
    let located = |v: &Value| -> Vec<String> {
        v["results"]
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|r| format!("{}:{}", r["file"], r["line"]))
                    .collect()
            })
            .unwrap_or_default()
    };
    let (whole, _) = check_json(&book, &[]);
    let mut all = located(&whole);
    all.sort();
    let mut shares = Vec::new();
    for k in 1..=3 {
        let _ = std::fs::remove_dir_all(&cache);
        let (share, _) = check_json(&book, &["--partition", &format!("hash:{k}/3")]);
        let blocks = located(&share);
        // A partitioned run caches its share only (one observation per
        // block at most; this book has no two blocks with one program).
        let cached: usize = std::fs::read_dir(cache.join("check"))
            .map(|shards| {
                shards
                    .filter_map(Result::ok)
                    .filter_map(|s| std::fs::read_dir(s.path()).ok())
                    .map(|d| d.count())
                    .sum()
            })
            .unwrap_or(0);
        assert!(cached <= blocks.len(), "share {k}: {cached} cached");
        shares.extend(blocks);
    }
    shares.sort();
    assert_eq!(shares, all, "each block in exactly one share");
    book.run(&["check", "--partition", "hash:4/3"], |cmd| {
        cmd.expect_code(1)
            .expect_stdout(str![])
            .expect_stderr(str![[r#"
mdbook-companion: error: --partition "hash:4/3": expected hash:K/N with 1 <= K <= N (for example hash:1/3)

"#]]);
    });
}

/// A 2015-edition book (no `[rust] edition`): `use` paths and paths
/// that start with `::` are read from the crate root there.
const PATHS_2015: &str = r#"# Paths in 2015

```rust
use std::collections::HashMap;
fn main() { let mut m = HashMap::new(); m.insert(1, 2); assert_eq!(m[&1], 2); }
```

```rust
use std::fmt;
struct P;
impl fmt::Display for P {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result { write!(f, "p") }
}
fn main() { assert_eq!(P.to_string(), "p"); }
```

```rust
mod shapes { pub fn area() -> u32 { 9 } }
use shapes::area;
fn main() { assert_eq!(area(), 9); }
```

```rust
fn main() { let v: ::std::vec::Vec<u8> = ::std::vec::Vec::new(); assert!(v.is_empty()); }
```

```rust
use std::fmt::Write;
fn main() { let x: u32 = "a"; }
```
"#;

/// 2015-edition blocks whose paths from the crate root name a standard
/// crate share a merged build; one whose `use` names its own module
/// (`use shapes::area`, which inside a module of ours would name nothing)
/// compiles alone and passes, as with `--no-merge`.
#[test]
fn blocks_of_2015_merge_when_their_paths_from_the_root_name_a_standard_crate() {
    let book = BookTest::new().chapter("paths.md", PATHS_2015);
    book.write();
    let report = same_both_ways(&book);
    assert_eq!(report["summary"], "4 passed, 1 failed", "{report:#}");
    let _ = std::fs::remove_dir_all(book.root().join(".companion-cache"));
    let (sizes, _) = super::merge_phases::merged_builds(&book);
    // The four with standard paths built together, the failing one
    // with them first; `use shapes::area` never.
    assert_eq!(sizes, [3, 4], "{report:#}");
}

/// Two `compile_fail` plain blocks that each define a `Meters`: merged,
/// rustc names each with its merged module's path
/// (`__companion_ex_0::main::_doctest_main::Meters`), alone as `Meters`.
const SAME_NAMES: &str = r#"# Same names

```rust,compile_fail,E0599
struct Meters(u32);
Meters(3).double();
```

```rust,compile_fail,E0599
struct Meters(u64);
Meters(3).halve();
```
"#;

/// A `compile_fail` plain block's report is its verdict: a merged build
/// that words its own errors otherwise than its compile alone still
/// tells it (one compiler start, not three), and the lock, which records
/// no run for a plain block, is the same merged and `--no-merge`.
/// `adopt`, which writes a failing block's first error code into the
/// book, compiles such a block alone all the same.
#[test]
fn compile_fail_blocks_a_merged_build_words_otherwise_are_told_by_it() {
    let book = BookTest::new()
        .toml("[rust]\nedition = \"2021\"\n")
        .chapter("names.md", SAME_NAMES);
    book.write();
    let report = same_both_ways(&book);
    assert_eq!(report["summary"], "2 passed, 0 failed", "{report:#}");
    assert_eq!(report["compiler_runs"], 1, "{report:#}");
    let cache = book.root().join(".companion-cache");
    let lock = |args: &[&str]| {
        let _ = std::fs::remove_dir_all(&cache);
        check(&book, args);
        std::fs::read_to_string(book.root().join("companion.lock")).expect("the lock")
    };
    let merged = lock(&[]);
    assert_eq!(merged, lock(&["--no-merge"]));
    assert!(merged.contains("expect = \"compile-fail\""), "{merged}");
    assert!(!merged.contains("[block.run]"), "{merged}");
    // The cache holds the merged build's words; `adopt` does not take them.
    lock(&[]);
    let ran = super::logged(&book, &["adopt"]);
    let log = &ran.stderr;
    assert_eq!(
        log.matches("compiled alone: src/names.md").count(),
        2,
        "{log}"
    );
    let diff = &ran.stdout;
    assert_eq!(diff.matches("error=E0599").count(), 2, "{diff}");
}

/// Plain blocks that fail on stable with feature gates (the Reference's
/// C-variadic functions), two errors each, in one build with a block
/// that compiles.
const GATED: &str = r#"# Gated

```rust
unsafe extern "C" fn first(_: u8, _args: ...) {}
unsafe extern "C" fn second(_: u8, _args: ...) {}
```

```rust
unsafe extern "C" fn third(_: u8, _args: ...) {}
fn main() {}
unsafe extern "C" fn fourth(_: u8, _args: ...) {}
```

```rust
fn main() { println!("fine"); }
```
"#;

/// Blocks whose several errors are all feature gates are told by the
/// merged build they fail in together (the gate pass goes through the
/// modules in order, so each block's errors come in its own order): two
/// compiler starts (the build that finds them, the one that runs the
/// third), not four, and the same reports as `--no-merge`.
#[test]
fn blocks_failing_on_feature_gates_together_are_told_by_their_merged_build() {
    let book = BookTest::new().chapter("gated.md", GATED);
    book.write();
    let report = same_both_ways(&book);
    assert_eq!(report["summary"], "1 passed, 2 failed", "{report:#}");
    assert_eq!(report["compiler_runs"], 2, "{report:#}");
    let diagnostics = report.to_string();
    assert_eq!(diagnostics.matches("error[E0658]").count(), 4, "{report:#}");
}

/// Blocks that compile, and two that use syntax a compiler refuses
/// without a feature (a C-variadic definition, an unstable ABI).
const LIKELY_TO_FAIL: &str = r#"# Likely to fail

```rust
println!("1");
```

```rust
unsafe extern "C" fn sum(n: usize, mut args: ...) -> usize {
    (0..n).map(|_| unsafe { args.arg::<usize>() }).sum()
}
```

```rust
println!("2");
```

```rust
#[unsafe(naked)]
unsafe extern "custom" fn f() { core::arch::naked_asm!("ret") }
```

```rust
println!("3");
```
"#;

/// Blocks whose syntax a compiler refuses without a feature are built
/// apart from those expected to compile like them: the blocks that
/// compile are built once, not once with them (failing) and once again
/// without; the same verdicts as `--no-merge`.
#[test]
fn blocks_likely_to_fail_are_built_apart_from_the_blocks_that_compile() {
    let book = BookTest::new()
        .toml("[rust]\nedition = \"2024\"\n")
        .chapter("likely.md", LIKELY_TO_FAIL);
    book.write();
    let report = same_both_ways(&book);
    assert_eq!(report["summary"], "3 passed, 2 failed", "{report:#}");
    let _ = std::fs::remove_dir_all(book.root().join(".companion-cache"));
    let (sizes, _) = super::merge_phases::merged_builds(&book);
    assert_eq!(sizes, [2, 3], "{report:#}");
}

/// `test_harness` plain blocks: test crates, each run filtered to its own
/// module when merged.
const HARNESSES: &str = r#"# Harnesses

```rust,test_harness
#[test]
fn adds() { assert_eq!(1 + 1, 2); }
```

```rust,test_harness
#[test]
fn fails() { assert_eq!(1 + 1, 3); }
```

```rust,test_harness
pub fn no_test_at_all() {}
```
"#;

/// `test_harness` blocks share a merged test crate (they have no `main`
/// for a selector to call): one compiler start for the three, and the
/// reports of `--no-merge`, a failing test included.
#[test]
fn test_harness_blocks_share_a_merged_test_crate() {
    let book = BookTest::new()
        .toml("[rust]\nedition = \"2021\"\n")
        .chapter("harness.md", HARNESSES);
    book.write();
    let report = same_both_ways(&book);
    assert_eq!(report["summary"], "2 passed, 1 failed", "{report:#}");
    assert_eq!(report["compiler_runs"], 1, "{report:#}");
}

/// A chapter of plain blocks that print, fail, pass, fail to compile
/// as claimed and panic as claimed, `n[i]` making block `i`'s program
/// its own (a cache key apart).
fn plain_blocks(n: [u32; 5]) -> String {
    let [a, b, c, d, e] = n;
    format!(
        "# Plain\n\n```rust\nprintln!(\"a {a}\");\n```\n\n```rust\nlet x: u32 = \"b {b}\";\n```\n\n\
         ```rust\nassert_eq!(1 + {c}, {c} + 1);\n```\n\n```rust,compile_fail\nlet y = {d}; y = 2;\n```\n\n\
         ```rust,should_panic\npanic!(\"e {e}\");\n```\n"
    )
}

/// `(line, status)` of every result, in the report's order.
fn statuses(report: &Value) -> Vec<(u64, String)> {
    verdicts(report)
        .iter()
        .map(|r| {
            let line = r["line"].as_u64().unwrap_or_default();
            (line, r["status"].as_str().unwrap_or_default().to_owned())
        })
        .collect()
}

#[test]
fn a_half_warm_check_answers_from_the_cache_and_checks_the_rest_in_book_order() {
    // Blocks 2 and 4 changed since the last check: warm, the others
    // come from the cache, these two are compiled, and every result
    // stands where a cold check puts it.
    let mut book = BookTest::new().chapter("a.md", &plain_blocks([1; 5]));
    let (first, _) = check_json(&book, &[]);
    assert_eq!(first["cache_hits"], 0, "{first:#}");
    book.set_chapter("a.md", &plain_blocks([1, 2, 1, 2, 1]));
    let (half, half_code) = check_json(&book, &[]);
    assert_eq!(half["cache_hits"], 3, "{half:#}");
    assert!(half["compiler_runs"].as_u64() > Some(0), "{half:#}");
    let _ = std::fs::remove_dir_all(book.root().join(".companion-cache"));
    let (cold, cold_code) = check_json(&book, &[]);
    assert_eq!(cold["cache_hits"], 0, "{cold:#}");
    assert_eq!(statuses(&half), statuses(&cold));
    assert_eq!(
        statuses(&half)
            .iter()
            .map(|(_, s)| s.as_str())
            .collect::<Vec<_>>(),
        ["passed", "failed", "passed", "passed", "passed"]
    );
    assert_eq!(half_code, cold_code);
}

/// Blocks that put names at their crate's root: exported macros
/// (`warn` twice), linker symbols (`companion_answer` twice, with two
/// values), crate attributes a binary makes nothing of; a block that
/// reaches its exported macro by path, one that calls a macro with
/// `$crate`, and a crate type rustc refuses.
const AT_THE_ROOT: &str = r#"# At the root

```rust
#[macro_export]
macro_rules! warn {
    ($m:expr) => { eprintln!("WARN: {}", $m) };
}
```

```rust
#[macro_export]
macro_rules! warn {
    ($m:expr) => { eprintln!("warn: {}", $m) };
}
```

```rust
#[unsafe(no_mangle)]
pub extern "C" fn companion_answer() -> u32 { 42 }
fn main() { assert_eq!(companion_answer(), 42); }
```

```rust
#[unsafe(export_name = "companion_answer")]
pub extern "C" fn answer() -> u32 { 7 }
fn main() { assert_eq!(answer(), 7); }
```

```rust
#![crate_name = "projx"]
#![crate_type = "lib"]
pub fn f() {}
```

```rust
#[macro_export]
macro_rules! m { () => {}; }
self::m!();
crate::m!();
fn main() {}
```

```rust
macro_rules! call_foo { () => { $crate::foo() }; }
fn foo() {}
fn main() { call_foo!(); }
```

```rust
#![crate_type = "bogus"]
fn main() {}
```
"#;

/// What a block puts at its crate's root by name does not keep it from
/// a merged build: two that share a name go to two builds (the same
/// symbol twice in one binary would not link, or would give one block
/// the other's function); blocks that reach their root's names from
/// their own code, and a refused crate type, compile alone. The same
/// verdicts as `--no-merge`.
#[test]
fn blocks_that_put_names_at_their_root_merge_when_no_other_takes_them() {
    let book = BookTest::new()
        .toml("[rust]\nedition = \"2024\"\n")
        .chapter("root.md", AT_THE_ROOT);
    book.write();
    let report = same_both_ways(&book);
    assert_eq!(report["summary"], "7 passed, 1 failed", "{report:#}");
    let _ = std::fs::remove_dir_all(book.root().join(".companion-cache"));
    let (sizes, _) = super::merge_phases::merged_builds(&book);
    // `warn`, `companion_answer` and the crate attributes in one; the
    // second `warn` and `companion_answer` in another.
    assert_eq!(sizes, [2, 3], "{report:#}");
    // Each binary runs its members: a member's own symbol is no code
    // outside their `main`s. Alone: the three that must be.
    let _ = std::fs::remove_dir_all(book.root().join(".companion-cache"));
    let log = super::logged(&book, &["check", "--jobs", "1"]).stderr;
    assert!(!log.contains("outside their main"), "{log}");
    let alone: Vec<&str> = log
        .lines()
        .filter_map(|l| l.split("compiled alone: ").nth(1))
        .collect();
    assert_eq!(
        alone,
        ["src/root.md:35", "src/root.md:43", "src/root.md:49"],
        "{log}"
    );
}
