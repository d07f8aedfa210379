//! The run of a C or C++ side as `check` records it and a page shows it:
//! the program's output, how it ended and its checker's real report in
//! `companion.lock` (ids, addresses and temporary paths written `…`, so
//! two cold checks write the same lock), vouched for by `--locked`; the
//! report under the side's claim and in its Run button. Its sides run
//! under Memcheck among the other checkers.

use crate::run::{check, line_of};
use crate::support::{BookTest, Page, inside};
use pretty_assertions::assert_eq;
use serde_json::Value;

/// C and C++ sides whose reports do not depend on a thread schedule.
const RECORDED: &str = include_str!("../testsuite/check/recorded/src/r.md");

/// The book of every checker (`sanitize=`), the fixture `check/sanitized`.
const SANITIZED: &str = include_str!("../testsuite/check/sanitized/src/s.md");

fn lock_of(book: &BookTest) -> String {
    std::fs::read_to_string(book.root().join("companion.lock")).expect("the lock")
}

/// The recorded run of the block whose `what` is `what`, from the lock.
fn run_of(lock: &str, what: &str) -> toml::Value {
    let lock: toml::Value = toml::from_str(lock).expect("the lock is TOML");
    lock["block"]
        .as_array()
        .expect("blocks")
        .iter()
        .find(|b| b["what"].as_str() == Some(what))
        .unwrap_or_else(|| panic!("no block {what:?} in {lock}"))
        .get("run")
        .cloned()
        .unwrap_or_else(|| panic!("no recorded run for {what:?}"))
}

#[test]
fn c_sides_record_their_run_and_report_and_two_cold_checks_write_the_same_lock() {
    crate::tools::valgrind();
    let book = BookTest::new().chapter("r.md", RECORDED);
    book.write();
    let (stdout, _, code) = check(&book, &[]);
    assert_eq!(code, 0, "{stdout}");
    let first = lock_of(&book);
    let uaf = run_of(
        &first,
        "compare side \"use after free\" under AddressSanitizer",
    );
    assert_eq!(uaf["stdout"].as_str(), Some("freed\n"));
    // The checker's exit status, ours (`exitcode=99`), as Memcheck's.
    assert_eq!(uaf["status"].as_str(), Some("exited with code 99"));
    let report = uaf["report"].as_str().expect("the checker's report");
    assert!(
        report.starts_with("==…==ERROR: AddressSanitizer: heap-use-after-free on address 0x… at pc 0x… bp 0x… sp 0x…\nREAD of size 4 at 0x… thread T0\n    #0 0x… in main main.c:3\n"),
        "{report}"
    );
    assert!(
        report.ends_with("SUMMARY: AddressSanitizer: heap-use-after-free main.c:3 in main\n"),
        "trimmed to the report itself: {report}"
    );
    let ub = run_of(&first, "compare side \"overflow\"");
    assert_eq!(
        ub["report"].as_str(),
        Some(
            "main.c:2:46: runtime error: signed integer overflow: 2147483647 + 1 cannot be represented in type 'int'\n"
        )
    );
    let vg = run_of(&first, "compare side \"uninitialised read\" under Memcheck");
    assert_eq!(vg["status"].as_str(), Some("exited with code 99"));
    assert_eq!(
        vg["report"].as_str(),
        Some(
            "Conditional jump or move depends on uninitialised value(s)\n   at 0x…: main (main.c:3)\n"
        )
    );
    let cpp = run_of(&first, "compare side \"prints\"");
    assert_eq!(cpp["stdout"].as_str(), Some("from C++\n"));
    assert_eq!(cpp["status"].as_str(), Some("exited with code 0"));
    assert!(cpp.get("report").is_none(), "{cpp}");
    assert!(!first.contains("/companion-"), "no temporary path: {first}");
    // Cold, with no lock: byte for byte the same lock.
    std::fs::remove_dir_all(book.root().join(".companion-cache")).expect("cache");
    std::fs::remove_file(book.root().join("companion.lock")).expect("lock");
    let (stdout, _, code) = check(&book, &[]);
    assert_eq!(code, 0, "{stdout}");
    assert_eq!(lock_of(&book), first);
    std::fs::remove_dir_all(book.root().join(".companion-cache")).expect("cache");
    let (stdout, _, code) = check(&book, &["--locked"]);
    assert_eq!(code, 0, "{stdout}");
}

#[test]
fn a_forged_c_run_in_the_lock_fails_locked_naming_the_field() {
    crate::tools::valgrind();
    let book = BookTest::new().chapter("r.md", RECORDED);
    book.write();
    let (stdout, _, code) = check(&book, &[]);
    assert_eq!(code, 0, "{stdout}");
    let honest = lock_of(&book);
    let line = line_of(RECORDED, "caption=\"use after free\"");
    for (field, from, to) in [
        ("run.report", "READ of size 4", "WRITE of size 4"),
        (
            "run.status",
            "status = \"exited with code 99\"",
            "status = \"exited with code 0\"",
        ),
        (
            "run.stdout",
            "stdout = \"\"\"\nfreed\n",
            "stdout = \"\"\"\nnot freed\n",
        ),
    ] {
        assert!(honest.contains(from), "{from:?} not in {honest}");
        std::fs::write(
            book.root().join("companion.lock"),
            honest.replacen(from, to, 1),
        )
        .expect("forging");
        let (stdout, _, code) = check(&book, &["--locked"]);
        assert_eq!(code, 1, "{field}: {stdout}");
        let failed: Vec<&str> = stdout
            .lines()
            .filter(|l| l.starts_with("FAILED  --locked"))
            .collect();
        assert_eq!(failed.len(), 1, "{stdout}");
        assert!(
            failed[0].starts_with(&format!(
                "FAILED  --locked: src/r.md:{line}: compare side \"use after free\" under AddressSanitizer: {field}"
            )),
            "{field}: {stdout}"
        );
    }
}

#[test]
fn a_race_reported_in_another_order_keeps_the_lock() {
    crate::tools::valgrind();
    let book = BookTest::new().chapter("t.md", SANITIZED);
    book.write();
    check(&book, &[]);
    let first = lock_of(&book);
    let racy = run_of(
        &first,
        "compare side \"racy counter\" under ThreadSanitizer",
    );
    assert!(
        racy["report"]
            .as_str()
            .is_some_and(|r| r.starts_with("WARNING: ThreadSanitizer: data race (pid=…)\n")),
        "{racy}"
    );
    for _ in 0..3 {
        std::fs::remove_dir_all(book.root().join(".companion-cache")).expect("cache");
        let (stdout, _, _) = check(&book, &["--locked"]);
        assert!(!stdout.contains("FAILED  --locked"), "{stdout}");
        std::fs::remove_dir_all(book.root().join(".companion-cache")).expect("cache");
        check(&book, &[]);
        assert_eq!(lock_of(&book), first);
    }
}

#[test]
fn the_page_shows_the_recorded_report_under_the_claim_and_a_run_button_replays_it() {
    crate::tools::valgrind();
    let book = BookTest::new().chapter("r.md", RECORDED);
    book.write();
    let (stdout, _, code) = check(&book, &[]);
    assert_eq!(code, 0, "{stdout}");
    book.build().expect("build");
    let page = book.page("r.md");
    let sides = page.all(".companion-side");
    let labels = |i: usize| -> Vec<String> {
        inside(sides[i], ".companion-output-label")
            .into_iter()
            .map(Page::text)
            .collect()
    };
    assert_eq!(
        labels(0),
        [
            "Claimed: the report contains",
            "Sanitizer report recorded by the check"
        ]
    );
    let report = Page::text(inside(sides[0], ".companion-report pre")[0]);
    assert!(
        report.starts_with("==…==ERROR: AddressSanitizer: heap-use-after-free on address 0x…"),
        "{report}"
    );
    let run = |i: usize| -> Value {
        let frame = inside(sides[i], ".companion-example")[0];
        let attr = frame
            .value()
            .attr("data-companion-run")
            .unwrap_or_else(|| panic!("no Run button on side {i}"));
        serde_json::from_str(attr).expect("JSON")
    };
    let uaf = run(0);
    assert_eq!(uaf["recorded"]["status"], "exited with code 99");
    let recorded = uaf["recorded"]["report"].as_str().expect("the report");
    assert!(
        recorded.contains("\nREAD of size 4 at 0x… thread T0\n    #0 0x… in main main.c:1\n"),
        "the first line the reader sees (the lock's third, after two hidden ones): {recorded}"
    );
    assert_eq!(
        recorded.split_whitespace().collect::<Vec<_>>().join(" "),
        report,
        "the button replays the report the page shows"
    );
    // A side that runs cleanly: its output block, no report, a Run button.
    assert_eq!(labels(3), ["Output"]);
    let cpp = run(3);
    assert_eq!(cpp["recorded"]["stdout"], "from C++\n");
    assert_eq!(cpp["recorded"]["status"], "exited with code 0");
    assert!(cpp["recorded"].get("report").is_none(), "{cpp}");
}
