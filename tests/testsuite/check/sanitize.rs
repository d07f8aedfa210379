//! `sanitize=` without Valgrind: gcc's ThreadSanitizer run again without
//! address-space randomisation, `memory` under the sanitizers, a checker
//! the language does not take, and a missing Valgrind. The claims that
//! run under Valgrind (each checker proving its claims, the checker named
//! in every report format, in the lock and on the page, a report the
//! program prints) are in the Valgrind target, `tests/valgrind/`.

use crate::support::BookTest;
use snapbox::str;

#[test]
fn a_missing_valgrind_is_one_message_naming_it_and_its_key() {
    // Not a verdict about the code: the sides say "not checked".
    BookTest::from_dir("check/sanitized")
        .companion("valgrind = \"/nonexistent/valgrind\"")
        .run(&["check"], |cmd| {
            cmd.expect_code(1).expect_stdout(str![[r#"
ok      src/s.md:4: compare side "use after free" under AddressSanitizer (expect=ub)
FAILED  src/s.md:14: compare side "double free, said to be use after free" under AddressSanitizer (expect=ub): the report of AddressSanitizer does not contain the output block
    --- expected
    +++ actual
    @@ -1 +1,3 @@
    -heap-use-after-free
    +ERROR: AddressSanitizer: attempting double-free[..]
    +...
    +    #1 0x[..] in main [..]main.c:2
    | the output block (> the first line not found in the report):
    | > heap-use-after-free
    | the report:
...
FAILED  src/s.md:23: compare side "a leak under expect=run" under AddressSanitizer and UndefinedBehaviorSanitizer (expect=run): the program stopped with a report of AddressSanitizer and UndefinedBehaviorSanitizer: LeakSanitizer: detected memory leaks
...
FAILED  src/s.md:28: compare side "Rust under Memcheck" under Memcheck (expect=run): not checked, `/nonexistent/valgrind` could not be run
ok      src/s.md:38: compare side "racy counter" under ThreadSanitizer (expect=ub)
FAILED  src/s.md:49: compare side "one thread" under ThreadSanitizer (expect=ub): ThreadSanitizer reported nothing (the program exited successfully); the side says `expect=ub`
ok      src/s.md:53: compare side "clean under two" under ThreadSanitizer and UndefinedBehaviorSanitizer (expect=run)
ok      src/s.md:62: compare side "overflow" under UndefinedBehaviorSanitizer (expect=ub)
FAILED  src/s.md:73: compare side "uninitialised read" under Memcheck (expect=ub): not checked, `/nonexistent/valgrind` could not be run
FAILED  src/s.md:84: compare side "nothing uninitialised" under Memcheck (expect=ub): not checked, `/nonexistent/valgrind` could not be run
FAILED  src/s.md:88: compare side "said to be clean" under Memcheck (expect=run): not checked, `/nonexistent/valgrind` could not be run
ok      src/s.md:93: compare side "a pointer into a vector that grew" under AddressSanitizer (expect=ub)
error: the checker `/nonexistent/valgrind` could not be run (install Valgrind (`apt-get install valgrind`), or set `valgrind` in [preprocessor.companion] to its path); 4 blocks not checked: src/s.md:28, src/s.md:73, src/s.md:84, src/s.md:88
compiler runs: 8, program runs: 8, from cache: 0
5 passed, 7 failed

"#]]);
        });
}

#[test]
fn sanitize_on_a_rust_example_takes_memcheck_only() {
    let book = BookTest::new().chapter(
        "r.md",
        "# R\n\n```rust example sanitize=address\nfn main() {}\n```\n",
    );
    book.run(&["check"], |cmd| {
        cmd.expect_code(1).expect_stdout(str![[r#"
FAILED  src/r.md:3:17: found `sanitize=address` on Rust code; expected `memcheck` (the sanitizers need a nightly Rust compiler)
compiler runs: 0, program runs: 0, from cache: 0
0 passed, 1 failed

"#]]);
    });
}

/// The fixture `check/mapping`: a program that behaves as ThreadSanitizer
/// does on a kernel whose address-space layout defeats it, the mapping
/// error while the layout is randomised, a clean run once it is not
/// (`setarch -R`).
#[test]
fn thread_sanitizer_runs_again_without_address_space_randomisation() {
    BookTest::from_dir("check/mapping").run(&["check"], |cmd| {
        cmd.expect_stdout(str![[r#"
ok      src/m.md:4: compare side "needs a fixed layout" under ThreadSanitizer (expect=run)
compiler runs: 1, program runs: 1, from cache: 0
1 passed, 0 failed

"#]]);
    });

    // When the layout defeats it even then, ThreadSanitizer could not be
    // run: one message naming its runtime, no verdict on the code.
    let always = BookTest::fixture_chapter("check/mapping", "m.md").replace(
        "if (!(personality(0xffffffff) & ADDR_NO_RANDOMIZE))",
        "if (personality(0xffffffff) != -1)",
    );
    BookTest::new()
        .chapter("m.md", &always)
        .run(&["check"], |cmd| {
            cmd.expect_code(1).expect_stdout(str![[r#"
FAILED  src/m.md:4: compare side "needs a fixed layout" under ThreadSanitizer (expect=run): not checked, `libtsan` could not be run
error: the sanitizer runtime `libtsan` could not be run (install `libtsan` for the C compiler, or set `cc` in [preprocessor.companion] to a compiler that has it); 1 block not checked: src/m.md:4
compiler runs: 1, program runs: 1, from cache: 0
0 passed, 1 failed

"#]]);
        });
}

/// The fixture `check/greedy`: programs that touch 256 MiB, and 4 MiB,
/// under the checkers that get no address-space limit, in a book whose
/// `memory` is 64 MiB.
#[test]
fn memory_limits_resident_memory_under_the_sanitizers_that_reserve_address_space() {
    BookTest::from_dir("check/greedy")
        .companion("memory = \"64 MiB\"")
        .run(&["check"], |cmd| {
            cmd.expect_code(1).expect_stdout(str![[r#"
FAILED  src/g.md:4: compare side "256 MiB under ThreadSanitizer" under ThreadSanitizer (expect=run): the program used more than its 64 MiB of memory and was killed (config `memory`)
FAILED  src/g.md:15: compare side "256 MiB under AddressSanitizer" under AddressSanitizer (expect=run): the program used more than its 64 MiB of memory and was killed (config `memory`)
ok      src/g.md:28: compare side "4 MiB under ThreadSanitizer" under ThreadSanitizer (expect=run)
ok      src/g.md:39: compare side "4 MiB under AddressSanitizer" under AddressSanitizer (expect=run)
compiler runs: 4, program runs: 4, from cache: 0
2 passed, 2 failed

"#]]);
        });
}
