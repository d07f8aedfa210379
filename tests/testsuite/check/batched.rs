//! Blocks batched where they once were not (issue 60, item 2): each
//! shown to take fewer compiler starts, with the verdicts and messages of
//! `--no-merge` (each block compiled alone), a failing block among them.

use super::merge::same_both_ways;
use crate::support::BookTest;
use pretty_assertions::assert_eq;
use serde_json::Value;

/// Five blocks, one calling into the C library's maths (its program needs
/// `libm.so.6`, which an empty program does not), one panicking.
const MATHS: &str = r#"# Maths

```rust
println!("one");
```

```rust
let x: f64 = std::hint::black_box(0.5);
println!("{:.3}", x.sin().cbrt());
```

```rust
println!("three");
```

```rust
assert_eq!(1 + 1, 3, "arithmetic");
```

```rust
println!("five");
```
"#;

/// A merged binary that needs the C library's `libm.so.6` runs nothing
/// outside its members' `main`s: one build for the five blocks, not a
/// build again in halves down to the block that calls `sin`.
#[test]
fn a_block_needing_the_c_librarys_maths_stays_merged() {
    let book = BookTest::new()
        .toml("[rust]\nedition = \"2021\"\n")
        .chapter("maths.md", MATHS);
    book.write();
    let report = same_both_ways(&book);
    assert_eq!(report["summary"], "4 passed, 1 failed", "{report:#}");
    let _ = std::fs::remove_dir_all(book.root().join(".companion-cache"));
    let (sizes, _) = super::merge_phases::merged_builds(&book);
    assert_eq!(sizes, [5], "{report:#}");
}

/// Plain blocks whose crates declare `#![feature(…)]` (one in a hidden
/// line), which a stable compiler refuses (E0554): a run, a
/// `should_panic` and a `compile_fail` block told without a compile; a
/// `compile_fail` block naming another error code still compiled (rustc
/// goes on past E0554); a block without a feature.
const GATED: &str = r#"# Gated

```rust
#![feature(never_type)]
let x: ! = panic!();
```

```rust,compile_fail
# #![feature(never_type)]
let x: u8 = 1;
```

```rust,should_panic
#![ feature(never_type) ]
panic!("boom");
```

```rust,compile_fail,E0308
#![feature(never_type)]
let x: u32 = "a";
```

```rust
println!("fine");
```
"#;

/// Cold `check --format json` with `args` on the stable toolchain.
fn stable(book: &BookTest, args: &[&str]) -> Value {
    let _ = std::fs::remove_dir_all(book.root().join(".companion-cache"));
    let root = book.root().to_str().expect("a UTF-8 path");
    let all = [&["check", root, "--format", "json"], args].concat();
    book.run(&all, |cmd| {
        cmd.env("RUSTUP_TOOLCHAIN", "stable").expect_any_status();
    })
    .json()
}

/// On a stable compiler, a block declaring a feature fails to compile
/// whatever else it holds: told without a compile (the lexer's stops'
/// way), with rustc's first error line and the verdicts of `--exact`,
/// which compiles each.
#[test]
fn feature_gated_blocks_on_stable_are_told_without_a_compile() {
    let book = BookTest::new()
        .toml("[rust]\nedition = \"2021\"\n")
        .chapter("gated.md", GATED);
    book.write();
    let told = stable(&book, &[]);
    let exact = stable(&book, &["--exact"]);
    let alone = stable(&book, &["--no-merge", "--exact"]);
    let statuses = |r: &Value| -> Vec<(u64, String)> {
        super::run::verdicts(r)
            .iter()
            .map(|v| (v["line"].as_u64().unwrap_or(0), v["status"].to_string()))
            .collect()
    };
    assert_eq!(statuses(&told), statuses(&exact), "{told:#}");
    assert_eq!(statuses(&exact), statuses(&alone), "{exact:#}");
    assert_eq!(told["summary"], "3 passed, 2 failed", "{told:#}");
    // The E0308 block and the one without a feature; --exact all five.
    assert_eq!(told["compiler_runs"], 2, "{told:#}");
    assert_eq!(exact["compiler_runs"], 5, "{exact:#}");
    let first = |r: &Value, line: u64| -> String {
        let found = super::run::verdicts(r)
            .into_iter()
            .find(|v| v["line"] == line)
            .and_then(|v| v["detail"].as_str().map(str::to_owned))
            .unwrap_or_default();
        found.lines().next().unwrap_or_default().to_owned()
    };
    for line in [3, 13] {
        assert_eq!(
            first(&told, line),
            "error[E0554]: `#![feature]` may not be used on the stable release channel"
        );
        assert_eq!(first(&told, line), first(&exact, line), "{exact:#}");
    }
}

/// Blocks starting with a shebang, which rustdoc hands to rustc as they
/// are (one passing, one whose assertion fails, one with an inner doc
/// comment), beside a plain block; one with frontmatter after its
/// shebang, which rustc reads only at a crate root's start.
const SHEBANGS: &str = r#"# Shebangs

```rust
#!/usr/bin/env rust-script
fn main() { println!("one"); }
```

```rust
#!/usr/bin/env rust-script
fn main() { assert_eq!(2 + 2, 5, "sums"); }
```

```rust
#!/usr/bin/env -S cargo +nightly -Zscript
//! A script.
fn main() { println!("three"); }
```

```rust
println!("plain");
```

```rust
#!/usr/bin/env cargo
---
[dependencies]
---
fn main() {}
```
"#;

/// A shebang is blanked in a member's file, lines and columns kept: the
/// three blocks with one share the plain block's merged build; the one
/// with frontmatter compiles alone. Verdicts and messages as each alone.
#[test]
fn blocks_with_a_shebang_share_a_merged_build() {
    let book = BookTest::new()
        .toml("[rust]\nedition = \"2021\"\n")
        .chapter("shebangs.md", SHEBANGS);
    book.write();
    let report = same_both_ways(&book);
    assert_eq!(report["summary"], "3 passed, 2 failed", "{report:#}");
    let failed: Vec<u64> = super::run::verdicts(&report)
        .iter()
        .filter(|r| r["status"] == "failed")
        .filter_map(|r| r["line"].as_u64())
        .collect();
    assert_eq!(failed, [8, 23], "{report:#}");
    let _ = std::fs::remove_dir_all(book.root().join(".companion-cache"));
    let (sizes, _) = super::merge_phases::merged_builds(&book);
    assert_eq!(sizes, [4], "{report:#}");
    // The merged build, the empty program its binary is read against,
    // the block with frontmatter: not five compiles.
    assert_eq!(report["compiler_runs"], 3, "{report:#}");
}
