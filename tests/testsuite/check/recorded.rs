//! The run of a C side as `check` records it, without Valgrind:
//! `--bless` on `expect=ub`, a failing claim's report beside its block.
//! The recorded runs and reports in `companion.lock`, `--locked` on them
//! and the page that shows them run Memcheck among the checkers: they are
//! in the Valgrind target, `tests/valgrind/recorded.rs`.

use super::*;
use pretty_assertions::assert_eq;

const BLESSED: &str = include_str!("blessed/src/b.md");

#[test]
fn bless_writes_the_headline_and_the_authors_frame_and_the_claim_then_passes() {
    let book = BookTest::new().chapter("b.md", BLESSED);
    book.write();
    let (stdout, _, code) = check(&book, &["--bless"]);
    assert_eq!(code, 0, "{stdout}");
    let after = std::fs::read_to_string(book.root().join("src/b.md")).expect("chapter");
    assert_eq!(
        after,
        BLESSED.replace(
            "heap-use-after-free\n",
            "ERROR: AddressSanitizer: attempting double-free[..]\n...\n    #1 0x[..] in main [..]main.c:2\n"
        )
    );
    std::fs::remove_dir_all(book.root().join(".companion-cache")).expect("cache");
    let (stdout, _, code) = check(&book, &[]);
    assert_eq!(code, 0, "the blessed pattern passes at once: {stdout}");
}

#[test]
fn a_failing_claim_shows_the_report_beside_the_block_with_the_line_not_found_marked() {
    let book = BookTest::new().chapter(
        "m.md",
        "# M\n\n````compare\n```c caption=\"overflow\" expect=ub\n~ #include <limits.h>\nint main(void) { volatile int x = INT_MAX; x += 1; return 0; }\n```\n\n```output\nruntime error: signed integer overflow\nin function main\n```\n\n```rust\nfn main() {}\n```\n````\n",
    );
    book.write();
    let (stdout, _, code) = check(&book, &[]);
    assert_eq!(code, 1, "{stdout}");
    let failed: String = stdout
        .lines()
        .skip_while(|l| !l.starts_with("FAILED"))
        .take_while(|l| !l.starts_with("ok "))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(
        failed,
        "FAILED  src/m.md:4: compare side \"overflow\" (expect=ub): the report of UndefinedBehaviorSanitizer does not contain the output block
    --- expected
    +++ actual
    @@ -1,2 +1 @@
    -runtime error: signed integer overflow
    -in function main
    +runtime error: signed integer overflow: 2147483647 + 1 cannot be represented in type 'int'
    | the output block (> the first line not found in the report):
    |   runtime error: signed integer overflow
    | > in function main
    | the report:
    |   main.c:2:46: runtime error: signed integer overflow: 2147483647 + 1 cannot be represented in type 'int'
"
    );
}
