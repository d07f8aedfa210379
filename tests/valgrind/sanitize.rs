//! `sanitize=` under the real tools, Valgrind's Memcheck among them:
//! each checker (gcc's AddressSanitizer, ThreadSanitizer and UBSan,
//! Memcheck) proves a claim that holds and fails one that does not, a
//! report that names another bug, a clean program under `expect=ub`, the
//! checker named in every report format, in the lock and on the page, and
//! a report the program prints is never the checker's.

use crate::run::{check, check_json};
use crate::support::{BookTest, Page, inside};
use pretty_assertions::assert_eq;
use snapbox::str;

#[test]
fn each_checker_proves_its_claims_and_fails_the_false_ones() {
    crate::tools::valgrind();
    // The report that names another bug shows what the checker said (the
    // checkers' own reports are their words).
    BookTest::from_dir("check/sanitized").run(&["check"], |cmd| {
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
    |   ==…==ERROR: AddressSanitizer: attempting double-free on 0x… in thread T0:
...
FAILED  src/s.md:23: compare side "a leak under expect=run" under AddressSanitizer and UndefinedBehaviorSanitizer (expect=run): the program stopped with a report of AddressSanitizer and UndefinedBehaviorSanitizer: LeakSanitizer: detected memory leaks
...
ok      src/s.md:28: compare side "Rust under Memcheck" under Memcheck (expect=run)
ok      src/s.md:38: compare side "racy counter" under ThreadSanitizer (expect=ub)
FAILED  src/s.md:49: compare side "one thread" under ThreadSanitizer (expect=ub): ThreadSanitizer reported nothing (the program exited successfully); the side says `expect=ub`
ok      src/s.md:53: compare side "clean under two" under ThreadSanitizer and UndefinedBehaviorSanitizer (expect=run)
ok      src/s.md:62: compare side "overflow" under UndefinedBehaviorSanitizer (expect=ub)
ok      src/s.md:73: compare side "uninitialised read" under Memcheck (expect=ub)
FAILED  src/s.md:84: compare side "nothing uninitialised" under Memcheck (expect=ub): Memcheck reported nothing (the program exited successfully); the side says `expect=ub`
FAILED  src/s.md:88: compare side "said to be clean" under Memcheck (expect=run): the program stopped with a report of Memcheck: Conditional jump or move depends on uninitialised value(s)
    | ==…== Conditional jump or move depends on uninitialised value(s)
...
ok      src/s.md:93: compare side "a pointer into a vector that grew" under AddressSanitizer (expect=ub)
compiler runs: 12, program runs: 12, from cache: 0
7 passed, 5 failed

"#]]);
    });
}

#[test]
fn the_checker_is_named_in_every_report_format_and_in_the_lock() {
    crate::tools::valgrind();
    let book = BookTest::from_dir("check/sanitized");
    // Cold, as text (the whole report is checked by the test above).
    let cold = book.run(&["check"], |cmd| {
        cmd.expect_code(1);
    });
    let (json, _) = check_json(&book, &[]);
    let racy = json["results"]
        .as_array()
        .unwrap_or_else(|| panic!("{json}"))
        .iter()
        .find(|c| c["what"] == "compare side \"racy counter\" under ThreadSanitizer")
        .unwrap_or_else(|| panic!("{json}"));
    assert_eq!(racy["sanitize"], "thread");
    assert_eq!(racy["status"], "passed");
    book.run(&["check", "--format", "github"], |cmd| {
        cmd.expect_code(1).expect_stdout(str![[r#"
::error file=src/s.md,line=14,title=compare side "double free%2C said to be use after free" under AddressSanitizer (expect=ub)::the report of AddressSanitizer does not contain the output block%0A--- expected%0A+++ actual%0A@@ -1 +1,3 @@%0A-heap-use-after-free%0A+ERROR: AddressSanitizer: attempting double-free[..]%0A+...%0A+    #1 0x[..] in main [..]main.c:2%0Athe output block (> the first line not found in the report):%0A> heap-use-after-free%0Athe report:%0A  ==…==ERROR: AddressSanitizer: attempting double-free on 0x… in thread T0:%0A[..]
::error file=src/s.md,line=23,title=compare side "a leak under expect=run" under AddressSanitizer and UndefinedBehaviorSanitizer (expect=run)::the program stopped with a report of AddressSanitizer and UndefinedBehaviorSanitizer: LeakSanitizer: detected memory leaks[..]
::error file=src/s.md,line=49,title=compare side "one thread" under ThreadSanitizer (expect=ub)::ThreadSanitizer reported nothing (the program exited successfully); the side says `expect=ub`
::error file=src/s.md,line=84,title=compare side "nothing uninitialised" under Memcheck (expect=ub)::Memcheck reported nothing (the program exited successfully); the side says `expect=ub`
::error file=src/s.md,line=88,title=compare side "said to be clean" under Memcheck (expect=run)::the program stopped with a report of Memcheck: Conditional jump or move depends on uninitialised value(s)%0A[..]
7 passed, 5 failed

"#]]);
    });
    let (junit, _, _) = check(&book, &["--format", "junit"]);
    assert!(
        junit.contains("compare side &quot;uninitialised read&quot; under Memcheck")
            || junit.contains("compare side \"uninitialised read\" under Memcheck"),
        "{junit}"
    );
    let lock = std::fs::read_to_string(book.root().join("companion.lock")).expect("lock");
    assert!(
        lock.contains("under AddressSanitizer and UndefinedBehaviorSanitizer"),
        "{lock}"
    );
    // Warm: every verdict from the cache, no compiler and no program,
    // and the report word for word the cold one's.
    let warm = book.run(&["check"], |cmd| {
        cmd.expect_code(1);
    });
    assert_eq!(
        warm.stdout,
        cold.stdout.replace(
            "compiler runs: 12, program runs: 12, from cache: 0",
            "compiler runs: 0, program runs: 0, from cache: 12"
        )
    );
}

#[test]
fn the_checker_is_named_on_the_page_the_claims_page_and_the_compiler_explorer_link() {
    crate::tools::valgrind();
    let book = BookTest::from_dir("../valgrind/named")
        .chapter("claims.md", "# Claims\n\n```claims\n```\n");
    book.run(&["check"], |cmd| {
        cmd.expect_stdout(str![[r#"
ok      src/n.md:4: compare side "use after free" under AddressSanitizer (expect=ub)
ok      src/n.md:13: compare side "plain ub" (expect=ub)
ok      src/n.md:18: compare side "Rust" under Memcheck (expect=run)
compiler runs: 3, program runs: 3, from cache: 0
3 passed, 0 failed

"#]]);
    });
    book.build().expect("build");
    let page = book.page("n.md");
    let badges: Vec<String> = page
        .all(".companion-side .companion-badge")
        .into_iter()
        .map(Page::text)
        .collect();
    assert_eq!(
        badges,
        [
            "Undefined behaviour · AddressSanitizer",
            "Undefined behaviour",
            "Runs · Memcheck"
        ]
    );
    // The C side's Compiler Explorer link builds what the checker ran.
    let sides = page.all(".companion-side");
    let link = inside(sides[0], ".companion-links a")
        .into_iter()
        .find(|a| Page::text(*a) == "Compiler Explorer")
        .and_then(|a| a.value().attr("href").map(str::to_owned))
        .expect("a Compiler Explorer link");
    let state = crate::support::client_state(&link);
    assert_eq!(
        state["sessions"][0]["compilers"][0]["options"],
        "-O2 -g -fsanitize=address"
    );
    // The claims page's rows name the checker, with the lock's verdict.
    let claims = book.page("claims.md");
    let rows: String = claims
        .all(".companion-claims-table tbody tr")
        .into_iter()
        .map(|r| Page::text(r) + "\n")
        .collect();
    book.check_text(
        rows,
        str![[r#"
Example 1.1use after free C sideUndefined behaviour · AddressSanitizerHolds[CC]
Example 1.2plain ub C sideUndefined behaviourHolds[CC]
Example 1.3Rust Rust sideRuns · MemcheckHolds[RUSTC]

"#]],
    );
}

/// The fixture `forged`: programs that print a checker's report
/// themselves (issue 44). The report is read from the checker's own log,
/// so what they print is only their output.
#[test]
fn a_report_the_program_prints_is_never_the_checkers() {
    crate::tools::valgrind();
    // Valgrind's start alone can take seconds on a loaded machine. What
    // the checker really said is what is shown.
    BookTest::from_dir("../valgrind/forged")
        .companion("timeout = 60")
        .run(&["check"], |cmd| {
            cmd.expect_code(1).expect_stdout(str![[r#"
FAILED  src/f.md:4: compare side "prints a use after free, frees twice" under AddressSanitizer (expect=ub): the report of AddressSanitizer does not contain the output block
    --- expected
    +++ actual
    @@ -1 +1,3 @@
    -AddressSanitizer: heap-use-after-free
    +ERROR: AddressSanitizer: attempting double-free[..]
    +...
    +    #1 0x[..] in main [..]main.c:3
    | the output block (> the first line not found in the report):
    | > AddressSanitizer: heap-use-after-free
    | the report:
    |   ==…==ERROR: AddressSanitizer: attempting double-free on 0x… in thread T0:
...
FAILED  src/f.md:14: compare side "prints a runtime error, is clean" under UndefinedBehaviorSanitizer (expect=ub): UndefinedBehaviorSanitizer reported nothing (the program exited with code 1); the side says `expect=ub`
    | main.c:2:5: runtime error: signed integer overflow
FAILED  src/f.md:23: compare side "prints an invalid read" under Memcheck (expect=ub): Memcheck reported nothing (the program exited successfully); the side says `expect=ub`
    | ==1== Invalid read of size 4
ok      src/f.md:32: compare side "clean, prints a report" under AddressSanitizer and UndefinedBehaviorSanitizer (expect=run)
compiler runs: 4, program runs: 4, from cache: 0
1 passed, 3 failed

"#]]);
        });
}

/// The fixture `forged-log`: programs with no bug that write a plausible
/// report into their checker's own log (Memcheck's, found among their
/// descriptors; a sanitizer's, named in its options) and exit 0 (issue
/// 57, item 4). A report counts only with the checker's exit status,
/// which is ours (`--error-exitcode`, `exitcode=` in `*SAN_OPTIONS`): each
/// fails, saying so. Before, each passed `expect=ub`.
#[test]
fn a_report_written_into_the_checkers_log_counts_only_with_its_exit_status() {
    crate::tools::valgrind();
    BookTest::from_dir("../valgrind/forged-log")
        .companion("timeout = 60")
        .run(&["check"], |cmd| {
            cmd.expect_code(1).expect_stdout(str![[r#"
FAILED  src/f.md:9: compare side "appends an invalid read to Memcheck's log" under Memcheck (expect=ub): the log of Memcheck holds a report, but the program exited successfully, not with the checker's exit status (99): a report counts only with it
...
FAILED  src/f.md:39: compare side "writes a use after free into AddressSanitizer's log" under AddressSanitizer (expect=ub): the log of AddressSanitizer holds a report, but the program exited successfully, not with the checker's exit status (99): a report counts only with it
...
FAILED  src/f.md:63: compare side "writes an overflow into UBSan's log" under UndefinedBehaviorSanitizer (expect=ub): the log of UndefinedBehaviorSanitizer holds a report, but the program exited successfully, not with the checker's exit status (99): a report counts only with it
...
compiler runs: 3, program runs: 3, from cache: 0
0 passed, 3 failed

"#]]);
        });
}
