//! The run of a C side as `check` records it, without Valgrind:
//! `--bless` on `expect=ub`, a failing claim's report beside its block.
//! The recorded runs and reports in `companion.lock`, `--locked` on them
//! and the page that shows them run Memcheck among the checkers: they are
//! in the Valgrind target, `tests/valgrind/recorded.rs`.

use crate::support::BookTest;
use pretty_assertions::assert_eq;
use snapbox::str;

#[test]
fn bless_writes_the_headline_and_the_authors_frame_and_the_claim_then_passes() {
    let book = BookTest::from_dir("check/blessed");
    book.run(&["check", "--bless"], |cmd| {
        cmd.expect_stdout(str![[r#"
ok      src/b.md:4: compare side "double free" under AddressSanitizer (expect=ub)
ok      src/b.md:15: compare side Rust (expect=run)
bless: src/b.md:4: blessed the output block
compiler runs: 2, program runs: 2, from cache: 0
2 passed, 0 failed

"#]]);
    });
    // The blessed pattern's `[..]` and `...` are the chapter's text: an
    // expectation would read them as wildcards.
    assert_eq!(
        book.read("src/b.md"),
        BookTest::fixture_chapter("check/blessed", "b.md").replace(
            "heap-use-after-free\n",
            "ERROR: AddressSanitizer: attempting double-free[..]\n...\n    #1 0x[..] in main [..]main.c:2\n"
        )
    );
    std::fs::remove_dir_all(book.root().join(".companion-cache")).expect("cache");
    // The blessed pattern passes at once.
    book.run(&["check"], |cmd| {
        cmd.expect_stdout(str![[r#"
ok      src/b.md:4: compare side "double free" under AddressSanitizer (expect=ub)
ok      src/b.md:15: compare side Rust (expect=run)
compiler runs: 2, program runs: 2, from cache: 0
2 passed, 0 failed

"#]]);
    });
}

#[test]
fn a_failing_claim_shows_the_report_beside_the_block_with_the_line_not_found_marked() {
    let book = BookTest::new().chapter(
        "m.md",
        "# M\n\n````compare\n```c caption=\"overflow\" expect=ub\n~ #include <limits.h>\nint main(void) { volatile int x = INT_MAX; x += 1; return 0; }\n```\n\n```output\nruntime error: signed integer overflow\nin function main\n```\n\n```rust\nfn main() {}\n```\n````\n",
    );
    book.run(&["check"], |cmd| {
        cmd.expect_code(1).expect_stdout(str![[r#"
FAILED  src/m.md:4: compare side "overflow" (expect=ub): the report of UndefinedBehaviorSanitizer does not contain the output block
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
ok      src/m.md:14: compare side Rust (expect=run)
compiler runs: 2, program runs: 2, from cache: 0
1 passed, 1 failed

"#]]);
    });
}
