//! Expected compile failures are merged apart from the blocks that
//! compile (issue 47): rustc tells a crate's errors phase by phase, so a
//! merged build holding failures is built again once per phase, and the
//! blocks that compile are not built again with them.

use crate::support::BookTest;
use pretty_assertions::assert_eq;

/// Four blocks that compile; a `compile_fail` block whose error (a
/// macro's local ambiguity) stops rustc before any later phase; two whose
/// errors (use after move) only the borrow checker, a later phase, finds.
const PHASES: &str = r#"```rust
println!("1");
```

```rust
println!("2");
```

```rust
println!("3");
```

```rust
println!("4");
```

```rust,compile_fail
macro_rules! ambiguity {
    ($($i:ident)* $j:ident) => { };
}
ambiguity!(error);
```

```rust,compile_fail,E0382
let s = String::new();
drop(s);
drop(s);
```

```rust,compile_fail,E0382
let v = vec![1];
let w = v;
println!("{v:?} {w:?}");
```
"#;

/// The sizes of the merged builds a cold `check --jobs 1` made (its
/// debug log), smallest first, and its summary.
pub(super) fn merged_builds(book: &BookTest) -> (Vec<usize>, String) {
    let ran = super::logged(book, &["check", "--format", "json", "--jobs", "1"]);
    let log = &ran.stderr;
    let size = regex::Regex::new(r"merged build of (\d+) blocks").expect("regex");
    let mut sizes: Vec<usize> = size
        .captures_iter(log)
        .filter_map(|c| c[1].parse().ok())
        .collect();
    sizes.sort_unstable();
    let json = ran.json();
    (
        sizes,
        json["summary"].as_str().unwrap_or_default().to_owned(),
    )
}

#[test]
fn blocks_that_compile_are_built_once_beside_failures_found_phase_by_phase() {
    let book = BookTest::new()
        .toml("[rust]\nedition = \"2021\"\n")
        .chapter("phases.md", PHASES);
    book.write();
    let (sizes, summary) = merged_builds(&book);
    assert_eq!(summary, "7 passed, 0 failed");
    // The four that compile once; the three failures, then the two
    // the borrow checker finds once the macro's error is gone.
    assert_eq!(sizes, [2, 3, 4]);
}
