//! Programs run beside each other, more than the workers at once, and a
//! time-out judged only from a run alone (issue 47): compared by the
//! counters `check` reports, never by the clock.

use super::{check_json, verdicts};
use crate::support::{BIN, BookTest};
use pretty_assertions::assert_eq;
use serde_json::Value;
use std::fmt::Write as _;

/// A chapter of `n` blocks (plain when `example` is false), block `i`'s
/// body `body(i)`.
fn chapter(n: usize, example: bool, body: impl Fn(usize) -> String) -> String {
    let mut text = String::new();
    for i in 0..n {
        let fence = match example {
            true => format!("```rust example title=\"p{i}\"\n"),
            false => "```rust\n".to_owned(),
        };
        let _ = write!(text, "{fence}{}\n```\n\n", body(i));
    }
    text
}

/// A cold `check --format json --jobs 1` pinned to one CPU (`taskset`),
/// so that programs beside each other share it for certain.
fn check_on_one_cpu(book: &BookTest) -> Value {
    let root = book.root().to_str().expect("a UTF-8 path");
    let out = std::process::Command::new("taskset")
        .args([
            "-c", "0", BIN, "check", root, "--format", "json", "--jobs", "2",
        ])
        .output()
        .expect("taskset runs");
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "json: {e}\nstdout: {}\nstderr: {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// Programs that sleep run beside each other, more of them at once than
/// there are workers (so a book of such programs takes about its
/// longest one, not their sum divided by the workers); none times out.
#[test]
fn sleeping_programs_run_more_at_once_than_the_workers() {
    let book = BookTest::new().chapter(
        "sleep.md",
        &chapter(8, false, |i| {
            format!("// {i}\nstd::thread::sleep(std::time::Duration::from_millis(1500));")
        }),
    );
    book.write();
    let (json, code) = check_json(&book, &["--jobs", "1"]);
    assert_eq!(
        (code, json["summary"].as_str()),
        (0, Some("8 passed, 0 failed"))
    );
    assert_eq!(json["compiler_runs"], 1, "one merged build");
    assert_eq!(json["program_runs"], 8);
    assert_eq!(
        json["programs_at_once"], 8,
        "all beside each other, on one worker"
    );
    assert_eq!(json["runs_again_alone"], 0);
}

/// A CPU-bound program that ends within its limit alone may time out
/// beside fifteen others on one CPU: it runs again alone, and that run is
/// judged, so none is reported as timed out.
#[test]
fn a_cpu_bound_program_near_its_limit_is_judged_from_a_run_alone() {
    // 0.6 s of CPU (the kernel's count for this process), then done:
    // alone it ends within the 5 s limit even on a CPU shared with seven
    // other busy processes; sixteen at once on one CPU (two workers,
    // eight each) get a sixteenth of it each, 0.31 s in 5 s. The last to
    // start runs alone for as long as it started after the first (the
    // others stopped at their limit): with 0.25 s in 3 s, 60 ms of that
    // let it end in time.
    let book = BookTest::new().companion("timeout = 5").chapter(
        "cpu.md",
        &chapter(16, true, |i| {
            format!(
                "fn cpu() -> u64 {{\n    let s = std::fs::read_to_string(\"/proc/self/schedstat\").unwrap();\n    s.split_whitespace().next().unwrap().parse().unwrap()\n}}\nfn main() {{\n    let start = cpu();\n    while cpu() - start < 600_000_000 {{}}\n    println!(\"{i}\");\n}}"
            )
        }),
    );
    book.write();
    let json = check_on_one_cpu(&book);
    assert_eq!(
        json["summary"],
        "16 passed, 0 failed",
        "{:#?}",
        verdicts(&json)
    );
    assert_eq!(json["programs_at_once"], 16);
    assert_eq!(
        json["runs_again_alone"], 16,
        "each timed out beside the others"
    );
    assert_eq!(json["program_runs"], 16, "runs again are not counted twice");
}

/// A program that hangs still fails with the time-out, from its run
/// alone after the run beside others.
#[test]
fn a_real_hang_times_out_in_its_run_alone() {
    let book = BookTest::new().companion("timeout = 1").chapter(
        "hang.md",
        &chapter(3, true, |i| match i {
            0 => "fn main() { loop {} }".to_owned(),
            _ => format!(
                "fn main() {{ std::thread::sleep(std::time::Duration::from_millis(500)); println!(\"{i}\"); }}"
            ),
        }),
    );
    book.write();
    let (json, code) = check_json(&book, &["--jobs", "1"]);
    assert_eq!(
        (code, json["summary"].as_str()),
        (1, Some("2 passed, 1 failed"))
    );
    let hang = &verdicts(&json)[0];
    assert_eq!(hang["status"], "failed");
    assert!(
        hang["message"]
            .as_str()
            .is_some_and(|m| m.contains("the 1 s time limit") && m.contains("config `timeout`")),
        "{hang}"
    );
    assert_eq!(json["programs_at_once"], 3);
    assert_eq!(json["runs_again_alone"], 1);
}

/// A merged build whose programs run does not keep the next from
/// building: with one worker, a plain block's group and an example's
/// group (built apart: other flags) run their sleeping programs at once.
#[test]
fn a_group_whose_programs_run_does_not_keep_the_next_from_building() {
    let sleeps = "std::thread::sleep(std::time::Duration::from_millis(2000));";
    let book = BookTest::new().chapter(
        "two.md",
        &format!(
            "```rust\n{sleeps}\n```\n\n```rust example title=\"e\"\nfn main() {{ {sleeps} }}\n```\n\n```rust\n// 2\n{sleeps}\n```\n\n```rust example title=\"f\"\nfn main() {{ {sleeps} // 2\n}}\n```\n"
        ),
    );
    book.write();
    let (json, code) = check_json(&book, &["--jobs", "1"]);
    assert_eq!(
        (code, json["summary"].as_str()),
        (0, Some("4 passed, 0 failed"))
    );
    assert_eq!(json["compiler_runs"], 2, "two merged builds");
    assert_eq!(json["programs_at_once"], 4, "both groups' programs at once");
}

/// A few programs that sleep get a small merged build of their own,
/// built first (their runs start while the rest builds): one sleeping
/// block among seven is built with one other, the six others together.
#[test]
fn a_few_sleeping_programs_get_a_small_build_of_their_own() {
    let book = BookTest::new().chapter(
        "few.md",
        &chapter(8, false, |i| match i {
            5 => "std::thread::sleep(std::time::Duration::from_millis(200));".to_owned(),
            _ => format!("println!(\"{i}\");"),
        }),
    );
    book.write();
    let (sizes, summary) = super::merge_phases::merged_builds(&book);
    assert_eq!(summary, "8 passed, 0 failed");
    assert_eq!(sizes, [2, 6]);
}

/// A program whose code says it sleeps for seconds (five here, in a
/// branch it never takes, so the test does not wait) is compiled alone,
/// first, rather than in the build of the others: the book waits for its
/// end, so it starts as early as it can. The reports are those of
/// `--no-merge`.
#[test]
fn a_program_that_says_it_sleeps_for_seconds_is_compiled_alone_first() {
    let book = BookTest::new().chapter(
        "long.md",
        &chapter(5, false, |i| match i {
            0 => "if std::env::args().count() > 99 {\n    std::thread::sleep(std::time::Duration::from_secs(5));\n}\nprintln!(\"long\");".to_owned(),
            _ => format!("println!(\"{i}\");"),
        }),
    );
    book.write();
    let ran = super::logged(&book, &["check", "--format", "json", "--jobs", "1"]);
    let log = &ran.stderr;
    assert!(
        log.contains("sleeps 5000 ms: compiled alone first"),
        "{log}"
    );
    assert!(log.contains("compiled alone: src/long.md:1"), "{log}");
    assert!(log.contains("merged build of 4 blocks"), "{log}");
    assert_eq!(ran.json()["summary"], "5 passed, 0 failed");
    super::merge::same_both_ways(&book);
}

/// A block its merged build cannot tell word for word (a failing program
/// whose error names its own type with the merged module's path), under
/// `--exact`, which asks for rustc's words for it alone, is compiled alone
/// as soon as its group is built, not once every group is done: with two
/// workers, its compile alone comes before the end of a group whose
/// program sleeps 3 s (the debug log's order, not a time).
#[test]
fn a_block_left_to_compile_alone_does_not_wait_for_a_sleeping_group() {
    let book = BookTest::new()
        .toml("[rust]\nedition = \"2021\"\n")
        .chapter(
            "lone.md",
            "```rust\nstd::thread::sleep(std::time::Duration::from_secs(3));\n```\n\n```rust\nprintln!(\"beside\");\n```\n\n```rust\nstruct Meters(u32);\nMeters(3).double();\n```\n\n```rust\nstruct Meters(u64);\nMeters(3).halve();\n```\n",
        );
    book.write();
    let ran = super::logged(
        &book,
        &["check", "--format", "json", "--jobs", "2", "--exact"],
    );
    let json = ran.json();
    assert_eq!(json["summary"], "2 passed, 2 failed", "{json:#}");
    let log = &ran.stderr;
    let at = |what: &str| {
        log.find(what)
            .unwrap_or_else(|| panic!("{what:?} in {log}"))
    };
    let slept = at("the programs of a merged group of 2 blocks ran");
    assert!(at("compiled alone: src/lone.md:9") < slept, "{log}");
    assert!(at("compiled alone: src/lone.md:14") < slept, "{log}");
}

/// The merged builds are planned before anything compiles, those whose
/// programs sleep first: with one worker, they are made (and their
/// programs run) before the blocks no merged build takes are compiled.
/// Here the sleeping block writes a file its program's first line, and a
/// block that never merges (`line!()` shows the crate's shape) finds it.
#[test]
fn with_one_worker_the_merged_builds_come_before_the_blocks_alone() {
    let book = BookTest::new();
    let mark = book.root().join("mark");
    let mark = mark.to_str().expect("a UTF-8 path");
    // The blocks share a file, as they can only outside a box.
    let book = book
        .toml("[rust]\nedition = \"2021\"\n")
        .companion("isolation = \"off\"")
        .chapter(
        "first.md",
        &format!(
            "```rust\nstd::fs::write({mark:?}, \"\").unwrap();\nstd::thread::sleep(std::time::Duration::from_millis(300));\n```\n\n```rust\nprintln!(\"beside\");\n```\n\n```rust\nassert!(std::path::Path::new({mark:?}).exists(), \"alone before the merged builds, at line {{}}\", line!());\n```\n"
        ),
    );
    book.write();
    // Within a minute: with the merged builds waited for on the worker
    // that should make them, it would never end.
    let ran = book.run(&["check", "--format", "json", "--jobs", "1"], |cmd| {
        cmd.timeout(std::time::Duration::from_secs(60));
    });
    let json: Value = serde_json::from_str(&ran.stdout).expect("json");
    assert_eq!(json["summary"], "3 passed, 0 failed", "{json:#}");
}
