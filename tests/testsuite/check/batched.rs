//! Blocks batched where they once were not (issue 60, item 2): each
//! shown to take fewer compiler starts, with the verdicts and messages of
//! `--no-merge` (each block compiled alone), a failing block among them.

use super::merge::same_both_ways;
use crate::support::BookTest;
use pretty_assertions::assert_eq;

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
