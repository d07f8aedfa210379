//! `mdbook-companion check`: the real binary on case books, the C/C++
//! checker through the library with the real `cc`, and `verify = true` in
//! real mdBook builds. One module per part of the feature; the shared
//! helpers and the book of every kind of claim are here.

mod agree;
mod authoring;
mod batched;
mod bless;
mod cc;
mod claims;
mod compare;
mod crates;
mod dropin;
mod exact;
mod hints;
mod lock;
mod merge;
mod merge_phases;
mod programs;
mod recorded;
mod run;
mod sanitize;
mod toolchain;
mod totals;
mod verify;
mod vouched;

use crate::support::{BookTest, Page, inside};
use mdbook_companion_core::claim::Claim;
use mdbook_companion_core::config::Config;
use mdbook_companion_engine::check::{Checker, Expect, Lang, Verdict};
use pretty_assertions::assert_eq;
use run::{check, check_json, line_of, verdicts};
use serde_json::Value;
use snapbox::str;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The binary run on `book` with `args` (the book's root after the
/// command), whatever its exit code, with the engine's debug log on its
/// stderr (what it built, what it compiled alone, in order).
pub(super) fn logged(book: &BookTest, args: &[&str]) -> crate::support::book_test::Ran {
    let root = book.root().to_str().expect("a UTF-8 path");
    let (command, rest) = args.split_first().expect("a command");
    book.run(&[&[*command, root], rest].concat(), |cmd| {
        cmd.env("MDBOOK_LOG", "mdbook_companion_engine=debug")
            .expect_any_status();
    })
}

/// The chapter of every kind of example claim (the fixture
/// `check/kinds`, whose `inc.md` is [`INCLUDED`]).
const KINDS: &str = include_str!("kinds/src/kinds.md");

/// A chapter whose example comes through `{{#include}}`.
const INCLUDED: &str = include_str!("kinds/src/inc.md");

/// The fixture `check/kinds`: [`KINDS`], then [`INCLUDED`] and its code.
fn kinds_book() -> BookTest {
    BookTest::from_dir("check/kinds")
}

#[test]
fn case_book_reports_every_kind_with_locations_and_fails() {
    let book = kinds_book();
    // The output difference is shown as a diff, the broken no-run
    // example's diagnostics (rustc's own words: a wildcard but for the
    // first line).
    book.run(&["check", "--jobs", "2"], |cmd| {
        cmd.expect_code(1).expect_stdout(str![[r#"
ok      src/kinds.md:3: rust example "run ok" (expect=run)
FAILED  src/kinds.md:11: rust example "run wrong output" (expect=run): the output differs from the output block
    --- expected
    +++ actual
    @@ -1 +1 @@
    -hello
    +hullo
ok      src/kinds.md:19: rust example "panic ok" (expect=panic)
FAILED  src/kinds.md:28: rust example "panic none" (expect=panic): the program exited successfully; the example says it panics
ok      src/kinds.md:32: rust example "compile-fail ok" (expect=compile-fail)
FAILED  src/kinds.md:40: rust example "compile-fail compiles" (expect=compile-fail): compiled, but the example says it does not compile
FAILED  src/kinds.md:44: rust example "compile-fail other code" (expect=compile-fail): does not compile, but with E0381 instead of E0308
...
ok      src/kinds.md:48: rust example "no-run ok" (expect=no-run)
FAILED  src/kinds.md:52: rust example "no-run broken" (expect=no-run): does not compile
    | error[E0308]: mismatched types
...
ignored src/kinds.md:56: rust example "ignored": not checked
ok      src/inc.md:3: rust example "included" (expect=run)
compiler runs: 8, program runs: 6, from cache: 0
5 passed, 5 failed, 1 ignored

"#]]);
    });
}

#[test]
fn json_format_lists_each_verdict() {
    let book = kinds_book();
    book.write();
    let (json, code) = check_json(&book, &[]);
    assert_eq!(code, 1);
    let statuses: Vec<(String, String)> = json["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["what"].as_str().unwrap().to_owned(),
                r["status"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let want: Vec<(String, String)> = [
        ("run ok", "passed"),
        ("run wrong output", "failed"),
        ("panic ok", "passed"),
        ("panic none", "failed"),
        ("compile-fail ok", "passed"),
        ("compile-fail compiles", "failed"),
        ("compile-fail other code", "failed"),
        ("no-run ok", "passed"),
        ("no-run broken", "failed"),
        ("ignored", "ignored"),
        ("included", "passed"),
    ]
    .iter()
    .map(|(t, s)| (format!("rust example \"{t}\""), (*s).to_owned()))
    .collect();
    assert_eq!(statuses, want);
    let wrong = &json["results"][1];
    assert_eq!(
        (wrong["file"].as_str(), wrong["line"].as_u64()),
        (
            Some("src/kinds.md"),
            Some(line_of(KINDS, "run wrong output") as u64)
        )
    );
    assert_eq!(
        (wrong["expected"].as_str(), wrong["actual"].as_str()),
        (Some("hello"), Some("hullo"))
    );
    assert_eq!(json["summary"], "5 passed, 5 failed, 1 ignored");
}

#[test]
fn a_missing_chapter_is_an_error_and_is_not_created() {
    let book = BookTest::new().chapter("a.md", "# A\n");
    book.write();
    std::fs::write(
        book.root().join("src/SUMMARY.md"),
        "# Summary\n\n- [A](a.md)\n- [Gone](gone.md)\n",
    )
    .unwrap();
    book.run(&["check"], |cmd| {
        cmd.expect_code(1).expect_stderr(str![[r#"
mdbook-companion: error: loading the book at .: failed to read chapter `gone.md`: No such file or directory (os error 2)

"#]]);
    });
    assert!(!book.root().join("src/gone.md").exists());
}

/// A compiler wrapper that logs each call's arguments, one line each.
fn logging_wrapper(dir: &Path, name: &str, real: &str) -> (String, std::path::PathBuf) {
    use std::os::unix::fs::PermissionsExt as _;
    let log = dir.join(format!("{name}.log"));
    let script = dir.join(name);
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\necho \"$*\" >> '{}'\nexec {real} \"$@\"\n",
            log.display()
        ),
    )
    .expect("write the wrapper");
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755))
        .expect("make the wrapper executable");
    (script.display().to_string(), log)
}

fn compile_calls(log: &Path) -> usize {
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        // Queries, not compiles: the version, and where the toolchain's
        // own libraries are (for programs linked to them dynamically).
        .filter(|l| !matches!(*l, "-vV" | "--version" | "--print target-libdir"))
        .count()
}

#[test]
fn unchanged_book_rechecks_without_compiling() {
    let tools = tempfile::tempdir().unwrap();
    let (rustc, log) = logging_wrapper(tools.path(), "logging-rustc", "rustc");
    let book = BookTest::new()
        .companion(&format!("rustc = {rustc:?}"))
        .chapter("kinds.md", KINDS);
    book.write();
    // Each alone, to count programs (merged builds: `merge.rs`); the warm
    // runs below are merged ones, which share the cache keys.
    let (cold, code) = check_json(&book, &["--no-merge"]);
    assert_eq!(code, 1);
    let compiled = compile_calls(&log);
    // Nine checked examples, eight distinct jobs: the two E0381 examples
    // share one program and its compile; the example whose output differs
    // from its block is compiled and run a second time (output that
    // varies between runs would be told apart).
    assert_eq!(compiled, 9, "one rustc run per distinct program and flags");
    assert_eq!(cold["compiler_runs"], 9);
    // The second E0381 example shares the first's compile: not a cache
    // hit (nothing came from an earlier run).
    assert_eq!(cold["cache_hits"], 0);
    assert!(book.root().join(".companion-cache/.gitignore").is_file());
    let start = Instant::now();
    let (warm, code) = check_json(&book, &[]);
    let warm_time = start.elapsed();
    assert_eq!(code, 1);
    assert_eq!(
        compile_calls(&log),
        compiled,
        "no compiler run the second time"
    );
    assert_eq!(
        (
            &warm["compiler_runs"],
            &warm["program_runs"],
            &warm["cache_hits"]
        ),
        (&Value::from(0), &Value::from(0), &Value::from(9))
    );
    assert_eq!(warm["summary"], cold["summary"]);
    assert!(warm_time < Duration::from_secs(5), "{warm_time:?}");
    // Changing the code (not only the output) checks that block again.
    let edited = KINDS.replace("println!(\"hullo\");", "println!(\"{}\", \"hello\");");
    std::fs::write(book.root().join("src/kinds.md"), edited).unwrap();
    let (after, _) = check_json(&book, &[]);
    assert_eq!(after["compiler_runs"], 1);
    assert_eq!(after["summary"], "5 passed, 4 failed, 1 ignored");
}

/// A plain block that claims no output runs to completion under `mdbook
/// test`: it gets `hang-guard`, not `timeout`, which an example with the
/// same body keeps.
#[test]
fn a_plain_block_runs_past_timeout_under_its_hang_guard() {
    let sleeps = "std::thread::sleep(std::time::Duration::from_millis(2500));";
    let chapter = format!(
        "```rust example title=\"sleeps\"\n{sleeps}\n```\n\n```rust\n{sleeps}\n```\n\n```rust,should_panic\n{sleeps}\npanic!(\"late\");\n```\n"
    );
    let book = BookTest::new()
        .companion("timeout = 1\nhang-guard = 20")
        .chapter("slow.md", &chapter);
    book.run(&["check"], |cmd| {
        cmd.expect_code(1).expect_stdout(str![[r#"
FAILED  src/slow.md:1: rust example "sleeps" (expect=run): the program ran longer than the 1 s time limit and was killed (config `timeout`)
ok      src/slow.md:5: rust block (expect=run)
ok      src/slow.md:9: rust block (should_panic) (expect=panic)
compiler runs: 2, program runs: 3, from cache: 0
2 passed, 1 failed

"#]]);
    });
    // The guard still stops a block that hangs, naming its key.
    edit_toml(&book, "hang-guard = 20", "hang-guard = 1");
    book.run(&["check"], |cmd| {
        cmd.expect_code(1).expect_stdout(str![[r#"
FAILED  src/slow.md:1: rust example "sleeps" (expect=run): the program ran longer than the 1 s time limit and was killed (config `timeout`)
FAILED  src/slow.md:5: rust block (expect=run): the program ran longer than the 1 s time limit and was killed (config `hang-guard`)
FAILED  src/slow.md:9: rust block (should_panic) (expect=panic): the program ran longer than the 1 s time limit and was killed (config `hang-guard`)
compiler runs: 1, program runs: 2, from cache: 1
0 passed, 3 failed

"#]]);
    });
}

#[test]
fn a_loop_times_out_and_leaves_nothing_running() {
    let dir = tempfile::tempdir().unwrap();
    let pids = dir.path().join("pids");
    let program = format!(
        "```rust example title=\"spins\"\nfn main() {{\n    let child = std::process::Command::new(\"sleep\").arg(\"60\").spawn().unwrap();\n    std::fs::write({:?}, format!(\"{{}} {{}}\", std::process::id(), child.id())).unwrap();\n    loop {{}}\n}}\n```\n",
        pids.display().to_string()
    );
    // The program tells the test its pids through a file, as it can only
    // outside a box (hostile::boxed tests the box).
    let book = BookTest::new()
        .companion("timeout = 1\nisolation = \"off\"")
        .chapter("loop.md", &program);
    let start = Instant::now();
    book.run(&["check"], |cmd| {
        cmd.expect_code(1).expect_stdout(str![[r#"
FAILED  src/loop.md:1: rust example "spins" (expect=run): the program ran longer than the 1 s time limit and was killed (config `timeout`)
note: the book's programs ran without a box (`isolation = "off"` in book.toml): they could reach the checker, each other and the book
compiler runs: 1, program runs: 1, from cache: 0
0 passed, 1 failed

"#]]);
    });
    assert!(
        start.elapsed() < Duration::from_secs(30),
        "{:?}",
        start.elapsed()
    );
    let text = std::fs::read_to_string(&pids).expect("the program ran");
    for pid in text.split_whitespace() {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        let state = stat.rsplit(") ").next().and_then(|s| s.chars().next());
        assert!(
            matches!(state, None | Some('Z' | 'X')),
            "process {pid} still running: {stat}"
        );
    }
    // A time-out is cached like any other verdict: the next check runs
    // nothing and says the same (issue 35).
    let (json, _) = check_json(&book, &[]);
    assert_eq!(
        (
            json["compiler_runs"].as_u64(),
            json["program_runs"].as_u64()
        ),
        (Some(0), Some(0)),
        "{json:#}"
    );
    assert_eq!(json["results"][0]["status"], "failed", "{json:#}");
    // A raised limit runs it again.
    let toml = book.root().join("book.toml");
    let text = std::fs::read_to_string(&toml).expect("book.toml");
    std::fs::write(&toml, text.replace("timeout = 1", "timeout = 2")).expect("book.toml");
    let (json, _) = check_json(&book, &[]);
    assert_eq!(json["program_runs"], 1, "{json:#}");
}

/// Replaces `from` with `to` in the book's `book.toml`.
fn edit_toml(book: &BookTest, from: &str, to: &str) {
    let toml = book.root().join("book.toml");
    let text = std::fs::read_to_string(&toml).expect("book.toml");
    assert!(text.contains(from), "{text}");
    std::fs::write(&toml, text.replace(from, to)).expect("book.toml");
}

#[test]
fn a_lowered_timeout_runs_the_claim_again_and_fails() {
    let book = BookTest::new().companion("timeout = 10").chapter(
        "slow.md",
        "```rust example title=\"slow\"\nfn main() {\n    std::thread::sleep(std::time::Duration::from_millis(1500));\n    println!(\"done\");\n}\n```\n\n```output\ndone\n```\n",
    );
    book.write();
    let (cold, code) = check_json(&book, &[]);
    assert_eq!(code, 0, "{cold:#}");
    assert_eq!(cold["program_runs"], 1, "{cold:#}");
    let (warm, code) = check_json(&book, &[]);
    assert_eq!(code, 0, "{warm:#}");
    assert_eq!(warm["program_runs"], 0, "cached: {warm:#}");
    // The program takes longer than the new limit: run again, it fails.
    edit_toml(&book, "timeout = 10", "timeout = 1");
    let (stdout, _, code) = check(&book, &[]);
    assert_eq!(code, 1, "{stdout}");
    assert!(
        stdout.contains("FAILED  src/slow.md:1: rust example \"slow\" (expect=run): the program ran longer than the 1 s time limit"),
        "{stdout}"
    );
    // Raised again: the first run's observation answers.
    edit_toml(&book, "timeout = 1", "timeout = 10");
    let (json, code) = check_json(&book, &[]);
    assert_eq!(code, 0, "{json:#}");
    assert_eq!(json["program_runs"], 0, "{json:#}");
}

#[test]
fn a_lowered_memory_limit_runs_the_claim_again_and_fails() {
    // calloc'd pages are not touched: 3 GiB of address space, no real memory.
    let book = BookTest::new().companion("memory = \"4 GiB\"").chapter(
        "big.md",
        "```rust example\nfn main() {\n    let v = vec![0u8; 3 << 30];\n    println!(\"{}\", v[12345]);\n}\n```\n\n```output\n0\n```\n",
    );
    book.write();
    let (cold, code) = check_json(&book, &[]);
    assert_eq!(code, 0, "{cold:#}");
    let (warm, code) = check_json(&book, &[]);
    assert_eq!(code, 0, "{warm:#}");
    assert_eq!(warm["program_runs"], 0, "cached: {warm:#}");
    edit_toml(&book, "memory = \"4 GiB\"", "memory = \"1 GiB\"");
    let (json, code) = check_json(&book, &[]);
    assert_eq!(code, 1, "{json:#}");
    assert_eq!(json["program_runs"], 1, "{json:#}");
    assert!(
        json.to_string()
            .contains("memory allocation of 3221225472 bytes failed"),
        "{json:#}"
    );
}

#[test]
fn a_flood_is_capped_and_fails_clearly() {
    let book = BookTest::new().companion("timeout = 2").chapter(
        "flood.md",
        "```rust example title=\"finite\"\nlet s = \"flood\\n\".repeat(2_000_000);\nprint!(\"{s}\");\n```\n\n```rust example title=\"endless\"\nloop { println!(\"flood\"); }\n```\n",
    );
    book.write();
    let (stdout, _, code) = check(&book, &[]);
    assert_eq!(code, 1);
    assert!(
        stdout.contains("FAILED  src/flood.md:1: rust example \"finite\" (expect=run): the program printed more than 1048576 bytes on stdout or stderr (output is capped)\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("FAILED  src/flood.md:6: rust example \"endless\" (expect=run): the program printed more than 1048576 bytes on stdout or stderr (output is capped) and ran longer than the 2 s time limit"),
        "{stdout}"
    );
    assert!(
        stdout.len() < 20_000,
        "the report does not repeat the flood"
    );
}

#[test]
fn missing_compiler_is_reported_once_with_its_blocks() {
    let book = BookTest::new()
        .companion("rustc = \"/nonexistent/rustc\"")
        .chapter(
            "m.md",
            "```rust example\nfn main() {}\n```\n\n```rust example expect=panic\nfn main() { panic!() }\n```\n",
        );
    book.write();
    let (stdout, _, code) = check(&book, &[]);
    assert_eq!(code, 1);
    let lines: Vec<&str> = stdout.lines().filter(|l| l.starts_with("error:")).collect();
    assert_eq!(
        lines,
        [
            "error: the compiler `/nonexistent/rustc` could not be run (set `rustc` in [preprocessor.companion] to a compiler that runs); 2 blocks not checked: src/m.md:1, src/m.md:5"
        ]
    );
    assert!(!stdout.contains("ok "), "{stdout}");
    assert_eq!(stdout.lines().last(), Some("0 passed, 2 failed"));
    let (json, code) = check_json(&book, &[]);
    assert_eq!(code, 1);
    assert_eq!(
        json["missing_compilers"],
        serde_json::json!([{
            "tool": "/nonexistent/rustc",
            "key": "rustc",
            "blocks": ["src/m.md:1", "src/m.md:5"]
        }])
    );
}

#[test]
fn more_jobs_than_examples_gives_the_same_verdicts() {
    let book = kinds_book();
    book.write();
    let (one, code1) = check_json(&book, &["--jobs", "1"]);
    std::fs::remove_dir_all(book.root().join(".companion-cache")).unwrap();
    let (many, code64) = check_json(&book, &["--jobs", "64"]);
    assert_eq!((code1, code64), (1, 1));
    assert_eq!(one["summary"], many["summary"]);
    assert_eq!(verdicts(&one), verdicts(&many));
    assert!(
        many["compiler_runs"].as_u64().unwrap() > 0,
        "the second run was cold"
    );
}

#[test]
fn corrupt_or_deleted_check_cache_falls_back_to_compiling() {
    let book = kinds_book();
    book.write();
    let (cold, _) = check_json(&book, &[]);
    // Change the content of every cached observation (and second run of
    // a wrong output), each a record of the namespace's pack: a MAC that
    // no longer holds.
    let mut corrupted = 0;
    for namespace in ["check", "check-again"] {
        let cache = book.root().join(".companion-cache").join(namespace);
        for pack in std::fs::read_dir(&cache).unwrap() {
            let path = pack.unwrap().path();
            let text = std::fs::read_to_string(&path).unwrap();
            corrupted += text.matches("\"compiled\":").count();
            std::fs::write(&path, text.replace("\"compiled\":", "\"compilex\":")).unwrap();
        }
    }
    assert!(corrupted > 5, "{corrupted}");
    let (again, _) = check_json(&book, &[]);
    assert_eq!(verdicts(&again), verdicts(&cold), "never a wrong verdict");
    assert_eq!(
        again["compiler_runs"], cold["compiler_runs"],
        "corrupt entries are compiled again"
    );
    std::fs::remove_dir_all(book.root().join(".companion-cache")).unwrap();
    let (rebuilt, _) = check_json(&book, &[]);
    assert_eq!(verdicts(&rebuilt), verdicts(&cold));
    assert_eq!(rebuilt["compiler_runs"], cold["compiler_runs"]);
}
