//! Merged builds (`check` compiles cold Rust examples together) against
//! `--no-merge` (each alone): the same report on every check fixture and
//! on a book of examples that break a merged build; fewer compiler
//! starts; `--partition` shares that add up to the book. The example book
//! (which runs Memcheck) is compared in the Valgrind target.

use super::{INCLUDED, KINDS, check, check_json, verdicts};
use crate::support::BookTest;
use pretty_assertions::assert_eq;
use serde_json::Value;

/// Examples that a shared crate would change or break: each must be
/// judged as when compiled alone.
const HAZARDS: &str = r#"# Hazards

```rust example title="args and env as alone"
println!("{} {}", std::env::args().count(), std::env::var("__COMPANION_EXAMPLE").is_err());
```

```output
1 true
```

```rust example title="main nested in a module"
mod inner {
    pub fn main() {}
}
```

```rust example title="same item names as the next"
struct Point { x: i32 }
fn helper() -> i32 { Point { x: 2 }.x }
fn main() { println!("{}", helper()); }
```

```output
2
```

```rust example title="same item names as the last"
#[derive(Debug)]
struct Point { x: i32 }
fn helper() -> Point { Point { x: 3 } }
fn main() { println!("{:?}", helper()); }
```

```output
Point { x: 3 }
```

```rust example title="crate attribute"
#![allow(dead_code)]
fn unused() {}
fn main() { println!("attr"); }
```

```output
attr
```

```rust example title="macro in an example"
macro_rules! twice { ($e:expr) => { $e * 2 } }
fn main() { println!("{}", twice!(21)); }
```

```output
42
```

```rust example title="does not compile in a run"
fn main() { let s: String = 5; println!("{s}"); }
```

```rust example title="deny lint"
fn main() { let a = [1, 2]; println!("{}", a[5]); }
```

```rust example title="panics with a location" expect=panic
# fn check(n: u32) -> u32 {
#     if n > 2 { panic!("too big: {n}") }
#     n
# }
println!("{}", check(7));
```

```output
too big: 7
```

```rust example title="run that panics"
let v: Vec<u8> = Vec::new();
dbg!(v.len());
println!("{}", v[1]);
```

```rust example title="error from main"
fn main() -> Result<(), String> {
    println!("before");
    Err("bad".into())
}
```

```rust example title="exit code"
fn main() { std::process::exit(3) }
```

```rust example title="2024" edition=2024
fn main() { let r#gen = 1; println!("{gen}", gen = r#gen); }
```

```output
1
```

```rust example title="release" mode=release
fn main() { let x: u8 = 255; let y = x.wrapping_add(std::env::args().count() as u8); println!("{y}"); }
```

```output
0
```

```rust example title="no-run broken" expect=no-run
fn main() { undefined(); }
```

```rust example title="no-run fine" expect=no-run
fn main() { loop {} }
```

```rust example title="unused warnings"
fn main() { let unused = 1; }
```
"#;

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
fn same_both_ways(book: &BookTest) -> Value {
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
    let book = BookTest::new().chapter("hazards.md", HAZARDS);
    book.write();
    let report = same_both_ways(&book);
    assert_eq!(report["summary"], "10 passed, 7 failed");
    let (text, _, _) = check(&book, &[]);
    for title in [
        "main nested in a module",
        "does not compile in a run",
        "deny lint",
    ] {
        let line = format!(
            "FAILED  src/hazards.md:{}: rust example \"{title}\" (expect=run): does not compile\n",
            super::line_of(HAZARDS, &format!("\"{title}\""))
        );
        assert!(text.contains(&line), "{line}\n{text}");
    }
    let _ = std::fs::remove_dir_all(book.root().join(".companion-cache"));
    let (alone, _) = check_json(&book, &["--no-merge"]);
    assert!(
        report["compiler_runs"].as_u64() < alone["compiler_runs"].as_u64(),
        "merged {} vs alone {}",
        report["compiler_runs"],
        alone["compiler_runs"]
    );
}

/// Examples with paths from the crate's root, which a merged build tells
/// from each example's module at the same lines and columns.
const CRATE_PATHS: &str = r#"# Crate paths

```rust example title="use crate"
mod shapes {
    pub struct Square(pub u32);
    impl Square { pub fn area(&self) -> u32 { self.0 * self.0 } }
}
use crate::shapes::Square;
fn main() { println!("{}", Square(3).area()); }
```

```output
9
```

```rust example title="crate path in a module" expect=panic
mod a {
    pub fn f() -> u8 { crate::b(9) }
}
fn b(n: u8) -> u8 { [1u8, 2][n as usize] }
fn main() { println!("{}", crate::a::f()); }
```

```output
index out of bounds: the len is 2 but the index is 9
```

```rust example title="panics after a crate path"
mod a { pub fn get(n: u32) -> Option<u32> { (n < 3).then_some(n) } }
fn main() { let v = crate::a::get(7); println!("{}", v.unwrap()); }
```
"#;

#[test]
fn crate_paths_merge_and_panics_name_the_authors_line_and_column() {
    let book = BookTest::new().chapter("crate.md", CRATE_PATHS);
    book.write();
    let report = same_both_ways(&book);
    assert_eq!(report["summary"], "2 passed, 1 failed", "{report:#}");
    // One build per worker, nothing alone.
    assert!(
        report["compiler_runs"].as_u64().unwrap_or(99) <= 2,
        "{report:#}"
    );
    // `unwrap` panics at its call, after the path on the same line.
    let detail = report["results"][2]["detail"].as_str().unwrap_or_default();
    let line = super::line_of(CRATE_PATHS, "v.unwrap()");
    let column = CRATE_PATHS
        .lines()
        .nth(line - 1)
        .and_then(|l| l.find("v.unwrap()"))
        .map_or(0, |c| c + 3);
    assert!(
        detail.contains(&format!("panicked at src/crate.md:{line}:{column}:")),
        "{detail}"
    );
}

#[test]
fn warm_merged_check_starts_no_compiler_and_an_edit_recompiles_one_example() {
    let book = BookTest::new().chapter("hazards.md", HAZARDS);
    book.write();
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
    book.write();
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
    let (_, stderr, code) = check(&book, &["--partition", "hash:4/3"]);
    assert_eq!(code, 1);
    assert!(stderr.contains("expected hash:K/N"), "{stderr}");
}
