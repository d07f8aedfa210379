//! `mdbook-companion check`: the real binary on case books, the C/C++
//! checker through the library with the real `cc`, and `verify = true` in
//! real mdBook builds.

use crate::support::{BIN, Page, TestBook, inside};
use mdbook_companion::core::config::Config;
use mdbook_companion::core::links::Mode;
use mdbook_companion::engine::check::{Checker, Claim, Expect, Lang, Verdict};
use pretty_assertions::assert_eq;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// Runs `check` on the book as written; (stdout, stderr, exit code).
fn check(book: &TestBook, args: &[&str]) -> (String, String, i32) {
    let out = Command::new(BIN)
        .arg("check")
        .arg(book.root())
        .args(args)
        .output()
        .expect("run check");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

fn check_json(book: &TestBook, args: &[&str]) -> (Value, i32) {
    let mut all = vec!["--format", "json"];
    all.extend_from_slice(args);
    let (stdout, stderr, code) = check(book, &all);
    let json = serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("json: {e}\nstdout: {stdout}\nstderr: {stderr}"));
    (json, code)
}

/// 1-based line of the first line containing `needle`.
fn line_of(text: &str, needle: &str) -> usize {
    text.lines()
        .position(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("{needle} not in text"))
        + 1
}

const KINDS: &str = r#"# Every kind

```rust example title="run ok"
println!("hello");
```

```output
hello
```

```rust example title="run wrong output"
println!("hullo");
```

```output
hello
```

```rust example title="panic ok" expect=panic
let v: Vec<i32> = Vec::new();
let _ = v[3];
```

```output
index out of bounds
```

```rust example title="panic none" expect=panic
fn main() {}
```

```rust example title="compile-fail ok" expect=compile-fail error=E0381
fn main() { let x: i32; println!("{x}"); }
```

```output
used binding `x` isn't initialized
```

```rust example title="compile-fail compiles" expect=compile-fail
fn main() {}
```

```rust example title="compile-fail other code" expect=compile-fail error=E0308
fn main() { let x: i32; println!("{x}"); }
```

```rust example title="no-run ok" expect=no-run
fn main() { loop {} }
```

```rust example title="no-run broken" expect=no-run
fn main() { let x: u8 = "s"; }
```

```rust example title="ignored" ignore
fn main() { loop {} }
```
"#;

const INCLUDED: &str = "# Included\n\n```rust example title=\"included\"\n{{#include code/hi.rs}}\n```\n\n```output\nhi\n```\n";

fn kinds_book() -> TestBook {
    TestBook::new()
        .chapter("kinds.md", KINDS)
        .chapter("inc.md", INCLUDED)
        .file("src/code/hi.rs", "fn main() { println!(\"hi\"); }\n")
}

#[test]
fn case_book_reports_every_kind_with_locations_and_fails() {
    let book = kinds_book();
    book.write();
    let (stdout, stderr, code) = check(&book, &["--jobs", "2"]);
    assert_eq!(code, 1, "{stdout}\n{stderr}");
    let at = |title: &str| format!("src/kinds.md:{}", line_of(KINDS, &format!("\"{title}\"")));
    for (title, expect) in [
        ("run ok", "run"),
        ("panic ok", "panic"),
        ("compile-fail ok", "compile-fail"),
        ("no-run ok", "no-run"),
    ] {
        let line = format!(
            "ok      {}: rust example \"{title}\" (expect={expect})",
            at(title)
        );
        assert!(stdout.lines().any(|l| l == line), "{line}\n{stdout}");
    }
    assert!(
        stdout
            .lines()
            .any(|l| l == "ok      src/inc.md:3: rust example \"included\" (expect=run)"),
        "{stdout}"
    );
    for (title, expect, message) in [
        (
            "run wrong output",
            "run",
            "the output differs from the output block",
        ),
        (
            "panic none",
            "panic",
            "the program exited successfully; the example says it panics",
        ),
        (
            "compile-fail compiles",
            "compile-fail",
            "compiled, but the example says it does not compile",
        ),
        (
            "compile-fail other code",
            "compile-fail",
            "does not compile, but with E0381 instead of E0308",
        ),
        ("no-run broken", "no-run", "does not compile"),
    ] {
        let line = format!(
            "FAILED  {}: rust example \"{title}\" (expect={expect}): {message}",
            at(title)
        );
        assert!(stdout.lines().any(|l| l == line), "{line}\n{stdout}");
    }
    // The output difference is shown as a diff.
    let diff = "    --- expected\n    +++ actual\n    @@ -1 +1 @@\n    -hello\n    +hullo\n";
    assert!(stdout.contains(diff), "{stdout}");
    // Compiler diagnostics of the broken no-run example are shown.
    assert!(
        stdout.contains("    | error[E0308]: mismatched types"),
        "{stdout}"
    );
    assert!(
        stdout.lines().any(|l| l
            == format!(
                "skipped {}: rust example \"ignored\" (expect=run): ignore",
                at("ignored")
            )),
        "{stdout}"
    );
    assert_eq!(stdout.lines().last(), Some("5 passed, 5 failed, 1 skipped"));
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
        ("ignored", "skipped"),
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
    assert_eq!(json["summary"], "5 passed, 5 failed, 1 skipped");
}

const BLESS: &str = "\u{feff}# Bless\r\n\r\n```rust example\r\nprintln!(\"new one\");\r\nprintln!(\"new two\");\r\n```\r\n\r\n```output\r\nold\r\n```\r\n\r\nText *between*.  \r\n\r\n> ```rust example expect=panic\r\n> panic!(\"real reason\");\r\n> ```\r\n>\r\n> ```output\r\n> imagined reason\r\n> ```\r\n\r\n```rust example\r\nprintln!(\"same\");\r\n```\r\n\r\n```output\r\nsame\r\n```\r\n";

#[test]
fn bless_rewrites_only_output_blocks_and_then_passes() {
    let book = TestBook::new().chapter("bless.md", BLESS);
    book.write();
    let (stdout, _, code) = check(&book, &[]);
    assert_eq!(code, 1, "{stdout}");
    assert_eq!(stdout.lines().last(), Some("1 passed, 2 failed"));
    let (stdout, _, code) = check(&book, &["--bless"]);
    assert_eq!(code, 0, "{stdout}");
    assert!(
        stdout.contains("bless: src/bless.md:3: blessed the output block"),
        "{stdout}"
    );
    assert!(
        stdout.contains("bless: src/bless.md:14: blessed the output block"),
        "{stdout}"
    );
    assert_eq!(stdout.lines().last(), Some("3 passed, 0 failed"));
    let after = std::fs::read_to_string(book.root().join("src/bless.md")).unwrap();
    let want = BLESS
        .replace(
            "```output\r\nold\r\n```",
            "```output\r\nnew one\r\nnew two\r\n```",
        )
        .replace("> imagined reason", "> real reason");
    assert_eq!(after, want);
    let (stdout, _, code) = check(&book, &[]);
    assert_eq!(
        (code, stdout.lines().last()),
        (0, Some("3 passed, 0 failed"))
    );
    assert!(
        stdout.contains("compiler runs: 0, program runs: 0, from cache: 3"),
        "{stdout}"
    );
}

#[test]
fn bless_leaves_included_outputs_and_files_outside_src_alone() {
    let outside = tempfile::tempdir().unwrap();
    let chapter = "```rust example\nprintln!(\"new\");\n```\n\n```output\nold\n```\n";
    std::fs::write(outside.path().join("real.md"), chapter).unwrap();
    let book = TestBook::new()
        .chapter(
            "inc.md",
            "```rust example\nprintln!(\"new\");\n```\n\n{{#include out.md}}\n",
        )
        .chapter("link.md", "placeholder")
        .file("src/out.md", "```output\nold\n```\n");
    book.write();
    let link = book.root().join("src/link.md");
    std::fs::remove_file(&link).unwrap();
    std::os::unix::fs::symlink(outside.path().join("real.md"), &link).unwrap();
    let (stdout, _, code) = check(&book, &["--bless"]);
    assert_eq!(code, 1, "{stdout}");
    assert!(
        stdout.contains(
            "bless: src/inc.md:1: not blessed: the output block comes through {{#include}}"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("bless: src/link.md:1: not blessed:"),
        "{stdout}"
    );
    assert!(stdout.contains("outside the book's src"), "{stdout}");
    assert_eq!(
        std::fs::read_to_string(book.root().join("src/out.md")).unwrap(),
        "```output\nold\n```\n"
    );
    assert_eq!(
        std::fs::read_to_string(outside.path().join("real.md")).unwrap(),
        chapter
    );
    assert_eq!(stdout.lines().last(), Some("0 passed, 2 failed"));
}

#[test]
fn a_missing_chapter_is_an_error_and_is_not_created() {
    let book = TestBook::new().chapter("a.md", "# A\n");
    book.write();
    std::fs::write(
        book.root().join("src/SUMMARY.md"),
        "# Summary\n\n- [A](a.md)\n- [Gone](gone.md)\n",
    )
    .unwrap();
    let (stdout, stderr, code) = check(&book, &[]);
    assert_eq!(code, 1, "{stdout}");
    assert!(
        stderr.contains("failed to read chapter `gone.md`"),
        "{stderr}"
    );
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
        .filter(|l| *l != "-vV" && *l != "--version")
        .count()
}

#[test]
fn unchanged_book_rechecks_without_compiling() {
    let tools = tempfile::tempdir().unwrap();
    let (rustc, log) = logging_wrapper(tools.path(), "logging-rustc", "rustc");
    let book = TestBook::new()
        .companion(&format!("rustc = {rustc:?}"))
        .chapter("kinds.md", KINDS);
    book.write();
    let (cold, code) = check_json(&book, &[]);
    assert_eq!(code, 1);
    let compiled = compile_calls(&log);
    // Nine checked examples, eight distinct jobs: the two E0381 examples
    // share one program and its compile.
    assert_eq!(compiled, 8, "one rustc run per distinct program and flags");
    assert_eq!(cold["compiler_runs"], 8);
    assert_eq!(cold["cache_hits"], 1);
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
    assert_eq!(after["summary"], "5 passed, 4 failed, 1 skipped");
}

#[test]
fn a_loop_times_out_and_leaves_nothing_running() {
    let dir = tempfile::tempdir().unwrap();
    let pids = dir.path().join("pids");
    let program = format!(
        "```rust example title=\"spins\"\nfn main() {{\n    let child = std::process::Command::new(\"sleep\").arg(\"60\").spawn().unwrap();\n    std::fs::write({:?}, format!(\"{{}} {{}}\", std::process::id(), child.id())).unwrap();\n    loop {{}}\n}}\n```\n",
        pids.display().to_string()
    );
    let book = TestBook::new()
        .companion("timeout = 1")
        .chapter("loop.md", &program);
    book.write();
    let start = Instant::now();
    let (stdout, _, code) = check(&book, &[]);
    assert!(
        start.elapsed() < Duration::from_secs(30),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(code, 1);
    assert!(
        stdout.contains("FAILED  src/loop.md:1: rust example \"spins\" (expect=run): the program ran longer than the 1 s time limit and was killed (config `timeout`)"),
        "{stdout}"
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
    // A time-out is not cached: the next check runs the program again.
    let (json, _) = check_json(&book, &[]);
    assert_eq!(json["program_runs"], 1);
}

#[test]
fn a_flood_is_capped_and_fails_clearly() {
    let book = TestBook::new().companion("timeout = 2").chapter(
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
    let book = TestBook::new()
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

fn c_claim(lang: Lang, expect: Expect, source: &str, output: Option<&str>) -> Claim {
    Claim {
        file: "src/c.md".into(),
        line: 1,
        offset: 0,
        what: format!("{} side", lang.fence()),
        lang,
        source: source.into(),
        expect,
        output: output.map(str::to_owned),
        output_range: None,
        edition: 2021,
        mode: Mode::Debug,
        error: None,
        ignore: false,
        bless: None,
    }
}

fn config(root: &Path, table: Value) -> Config {
    Config::from_json(
        root.to_path_buf(),
        &serde_json::json!({"preprocessor": {"companion": table}}),
    )
    .expect("config")
}

fn status(v: &Verdict) -> String {
    match v {
        Verdict::Passed => "passed".into(),
        Verdict::Failed { message, .. } => format!("failed: {message}"),
        Verdict::Skipped => "skipped".into(),
        Verdict::Unchecked { tool } => format!("unchecked: {tool}"),
    }
}

const OVERFLOW: &str = "#include <limits.h>\nint main(void) {\n    volatile int x = INT_MAX;\n    x += 1;\n    return 0;\n}\n";

fn c_claims() -> Vec<Claim> {
    use Expect::*;
    use Lang::*;
    vec![
        c_claim(
            C,
            Compile,
            "int divide(int a, int b) { return a / b; }\n",
            None,
        ),
        c_claim(C, Compile, "int f(void) { return undeclared; }\n", None),
        c_claim(
            C,
            Run,
            "#include <stdio.h>\nint main(void) { printf(\"%d\\n\", 6 * 7); return 0; }\n",
            Some("42\n"),
        ),
        c_claim(
            C,
            Run,
            "#include <stdio.h>\nint main(void) { printf(\"%d\\n\", 6 * 7); return 0; }\n",
            Some("43\n"),
        ),
        c_claim(C, Ub, OVERFLOW, Some("signed integer overflow")),
        c_claim(C, Ub, "int main(void) { return 0; }\n", None),
        c_claim(
            Cpp,
            Run,
            "#include <iostream>\nint main() { std::cout << \"hi\" << std::endl; }\n",
            Some("hi"),
        ),
        c_claim(
            Cpp,
            Compile,
            "template <typename T> T twice(T x) { return x + x; }\nint f() { return twice(nullptr); }\n",
            None,
        ),
    ]
}

#[test]
fn c_and_cpp_claims_are_checked_with_the_real_cc() {
    let dir = tempfile::tempdir().unwrap();
    let checker = Checker::new(&config(dir.path(), serde_json::json!({})));
    let got: Vec<String> = checker
        .check_all(&c_claims())
        .iter()
        .map(|o| status(&o.verdict))
        .collect();
    assert_eq!(
        got,
        [
            "passed",
            "failed: does not compile",
            "passed",
            "failed: the output differs from the output block",
            "passed",
            "failed: the undefined behaviour sanitizer reported nothing (the program exited successfully); the side says `expect=ub`",
            "passed",
            "failed: does not compile",
        ]
    );
    let ub = checker.check(&c_claims()[4]);
    assert_eq!(
        ub.actual.as_deref(),
        Some(
            "runtime error: signed integer overflow: 2147483647 + 1 cannot be represented in type 'int'"
        )
    );
}

#[test]
fn c_claims_are_cached_and_a_missing_cc_is_unchecked() {
    let dir = tempfile::tempdir().unwrap();
    let (cc, log) = logging_wrapper(dir.path(), "logging-cc", "cc");
    let cfg = config(dir.path(), serde_json::json!({ "cc": cc }));
    let first = Checker::new(&cfg);
    let before: Vec<Verdict> = first
        .check_all(&c_claims())
        .into_iter()
        .map(|o| o.verdict)
        .collect();
    // Eight claims, seven distinct programs: the two `run` claims of the
    // same program share one compile and run.
    assert_eq!(first.counters().compiler_runs, 7);
    assert_eq!(compile_calls(&log), 7);
    let second = Checker::new(&cfg);
    let after: Vec<Verdict> = second
        .check_all(&c_claims())
        .into_iter()
        .map(|o| o.verdict)
        .collect();
    assert_eq!(after, before);
    assert_eq!(
        (
            second.counters().compiler_runs,
            second.counters().cache_hits
        ),
        (0, 8)
    );
    assert_eq!(compile_calls(&log), 7, "no cc run the second time");

    let missing = Checker::new(&config(
        dir.path(),
        serde_json::json!({"cc": "/nonexistent/cc"}),
    ));
    for o in missing.check_all(&c_claims()) {
        assert_eq!(
            o.verdict,
            Verdict::Unchecked {
                tool: "/nonexistent/cc".into()
            }
        );
        assert!(o.verdict.is_failure());
    }
}

const VERIFY: &str = "# Verify\n\n```rust example title=\"right\"\nprintln!(\"yes\");\n```\n\n```output\nyes\n```\n\n```rust example title=\"wrong\"\nprintln!(\"no\");\n```\n\n```output\nyes\n```\n";

#[test]
fn verify_fails_the_build_under_bail() {
    let book = TestBook::new()
        .companion("verify = true")
        .chapter("v.md", VERIFY);
    let err = book.build_in_process().unwrap_err();
    assert!(
        err.contains("src/v.md:11:4: rust example \"wrong\" (expect=run) does not hold: the output differs from the output block"),
        "{err}"
    );
    assert!(err.contains("-yes\n+no"), "{err}");
    assert!(!err.contains("\"right\""), "{err}");
    // The real command preprocessor fails the build too.
    assert!(book.build().is_err());
}

#[test]
fn verify_marks_the_block_under_continue() {
    let book = TestBook::new()
        .companion("verify = true\non-failure = \"continue\"")
        .chapter("v.md", VERIFY);
    let page = book.html("v.md");
    let marks = page.all("main div.companion-verify");
    assert_eq!(marks.len(), 1);
    assert_eq!(
        Page::text(marks[0]),
        "mdbook-companion: src/v.md:11:4 rust example \"wrong\" (expect=run) does not hold: the output differs from the output block"
    );
    let next = marks[0]
        .next_siblings()
        .find_map(scraper::ElementRef::wrap)
        .expect("the example after the mark");
    assert_eq!(Page::text(inside(next, ".companion-title")[0]), "wrong");
    assert_eq!(page.all("main div.companion-example").len(), 2);
    // Verified from the cache: the check results are stored under the book.
    assert!(book.root().join(".companion-cache/check").is_dir());
}

#[test]
fn verify_without_a_compiler_says_so() {
    let book = TestBook::new()
        .companion("verify = true\non-failure = \"continue\"\nrustc = \"/nonexistent/rustc\"")
        .chapter("v.md", VERIFY);
    let page = book.html("v.md");
    let marks: Vec<String> = page
        .all("main div.companion-verify")
        .into_iter()
        .map(Page::text)
        .collect();
    assert_eq!(
        marks,
        [
            "mdbook-companion: src/v.md:3:4 rust example \"right\" (expect=run) was not checked: the compiler `/nonexistent/rustc` could not be run",
            "mdbook-companion: src/v.md:11:4 rust example \"wrong\" (expect=run) was not checked: the compiler `/nonexistent/rustc` could not be run",
        ]
    );
    let err = TestBook::new()
        .companion("verify = true\nrustc = \"/nonexistent/rustc\"")
        .chapter("v.md", VERIFY)
        .build_in_process()
        .unwrap_err();
    assert_eq!(
        err,
        "src/v.md:3:4: the compiler `/nonexistent/rustc` could not be run, so 2 blocks were not checked (the first is here); set `rustc` in [preprocessor.companion] to a compiler that runs"
    );
}

#[test]
fn verify_is_off_by_default() {
    let book = TestBook::new().chapter("v.md", VERIFY);
    let page = book.html("v.md");
    assert!(page.all("div.companion-verify").is_empty());
    assert!(!book.root().join(".companion-cache").exists());
}

const COMPARE: &str = r#"# Compare

`````compare title="Overflow"
```c caption="C: UB" expect=ub
~ #include <limits.h>
int main(void) { volatile int x = INT_MAX; x += 1; return 0; }
```

```output
signed integer overflow
```

```c caption="C: no UB after all" expect=ub
int main(void) { return 0; }
```

```cpp caption="C++: prints" expect=run
~ #include <iostream>
int main() { std::cout << 41 << std::endl; }
```

```output
42
```

```c caption="C: compiles"
int add(int a, int b) { return a + b; }
```
`````

`````compare title="Rust and Python"
```rust caption="Rust: panics" expect=panic
let x = i32::MAX;
let _ = x + std::env::args().count() as i32;
```

```output
attempt to add with overflow
```

```python caption="Python"
print(2**31)
```
`````
"#;

#[test]
fn comparison_sides_are_checked_with_locations() {
    let book = TestBook::new().chapter("cmp.md", COMPARE);
    book.write();
    let (stdout, stderr, code) = check(&book, &[]);
    assert_eq!(code, 1, "{stdout}\n{stderr}");
    let at = |caption: &str| {
        format!(
            "src/cmp.md:{}: compare side \"{caption}\"",
            line_of(COMPARE, &format!("caption=\"{caption}\""))
        )
    };
    let want = [
        format!("ok      {} (expect=ub)", at("C: UB")),
        format!(
            "FAILED  {} (expect=ub): the undefined behaviour sanitizer reported nothing (the program exited successfully); the side says `expect=ub`",
            at("C: no UB after all")
        ),
        format!(
            "FAILED  {} (expect=run): the output differs from the output block",
            at("C++: prints")
        ),
        format!("ok      {} (expect=compile)", at("C: compiles")),
        format!("ok      {} (expect=panic)", at("Rust: panics")),
    ];
    let got: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("ok ") || l.starts_with("FAILED "))
        .collect();
    assert_eq!(got, want);
    assert!(stdout.contains("    -42\n    +41\n"), "{stdout}");
    assert_eq!(stdout.lines().last(), Some("3 passed, 2 failed"));
    // --bless rewrites the C++ side's output; a side that does not
    // behave as it says (no UB after all) is not an output to bless.
    let (stdout, _, code) = check(&book, &["--bless"]);
    assert_eq!(code, 1, "{stdout}");
    let blessed: Vec<&str> = stdout.lines().filter(|l| l.starts_with("bless:")).collect();
    assert_eq!(
        blessed,
        [format!(
            "bless: src/cmp.md:{}: blessed the output block",
            line_of(COMPARE, "caption=\"C++: prints\"")
        )]
    );
    assert_eq!(stdout.lines().last(), Some("4 passed, 1 failed"));
    assert_eq!(
        std::fs::read_to_string(book.root().join("src/cmp.md")).unwrap(),
        COMPARE.replace("```output\n42\n```", "```output\n41\n```")
    );
}

/// Checks with `--bless`, then again without; returns the first run's
/// stdout and the second's last line, asserting it passed from the cache.
fn bless_then_recheck(book: &TestBook, blessed_code: i32) -> (String, String) {
    let (stdout, stderr, code) = check(book, &["--bless"]);
    assert_eq!(code, blessed_code, "{stdout}\n{stderr}");
    let (again, _, _) = check(book, &[]);
    assert!(
        again.contains("compiler runs: 0, program runs: 0"),
        "{again}"
    );
    (stdout, again.lines().last().unwrap_or("").to_owned())
}

const BLESS_COMPARE: &str = "\u{feff}# Both sides wrong\r\n\r\nText *before*.  \r\n\r\n````compare title=\"Sums\"\r\n```c caption=\"C\" expect=run\r\n~ #include <stdio.h>\r\nint main(void) { printf(\"c one\\n\\nc three\\n\"); return 0; }\r\n```\r\nThe C note.\r\n```output\r\nc old\r\n```\r\n```rust caption=\"Rust\"\r\nfn main() { println!(\"rust new\"); }\r\n```\r\n\r\n```output\r\nrust old\r\nsecond old line\r\n```\r\n\r\n```c caption=\"C: UB\" expect=ub\r\n~ #include <limits.h>\r\nint main(void) { volatile int x = INT_MAX; x += 1; return 0; }\r\n```\r\n```output\r\nsome other report\r\n```\r\n````\r\n\r\n```rust example\r\nprintln!(\"untouched\");\r\n```\r\n\r\n```output\r\nuntouched\r\n```\r\n\r\nText *after*.\r\n";

#[test]
fn bless_rewrites_both_sides_of_a_comparison() {
    let book = TestBook::new().chapter("both.md", BLESS_COMPARE);
    book.write();
    let (stdout, _, code) = check(&book, &[]);
    assert_eq!(code, 1, "{stdout}");
    assert_eq!(stdout.lines().last(), Some("1 passed, 3 failed"));
    let (stdout, after) = bless_then_recheck(&book, 0);
    let notes: Vec<&str> = stdout.lines().filter(|l| l.starts_with("bless:")).collect();
    let want: Vec<String> = ["caption=\"C\"", "caption=\"Rust\"", "caption=\"C: UB\""]
        .iter()
        .map(|c| {
            format!(
                "bless: src/both.md:{}: blessed the output block",
                line_of(BLESS_COMPARE, c)
            )
        })
        .collect();
    assert_eq!(notes, want, "{stdout}");
    assert_eq!(stdout.lines().last(), Some("4 passed, 0 failed"));
    // Only the lines between the three output blocks' fences changed: the
    // byte-order mark, CRLF line ends, notes and text around are as written.
    let written = std::fs::read_to_string(book.root().join("src/both.md")).unwrap();
    let expected = BLESS_COMPARE
        .replace(
            "```output\r\nc old\r\n```",
            "```output\r\nc one\r\n\r\nc three\r\n```",
        )
        .replace(
            "```output\r\nrust old\r\nsecond old line\r\n```",
            "```output\r\nrust new\r\n```",
        )
        .replace(
            "some other report",
            "runtime error: signed integer overflow: 2147483647 + 1 cannot be represented in type 'int'",
        );
    assert_ne!(expected, BLESS_COMPARE);
    assert_eq!(written, expected);
    assert_eq!(after, "4 passed, 0 failed");
}

#[test]
fn bless_reports_a_comparison_output_that_comes_through_an_include() {
    let chapter = "# Inc\n\n````compare\n```c expect=run\n~ #include <stdio.h>\nint main(void) { puts(\"c new\"); return 0; }\n```\n{{#include c-out.md}}\n```rust\nfn main() { println!(\"rust new\"); }\n```\n```output\nrust old\n```\n````\n";
    let book = TestBook::new()
        .chapter("inc.md", chapter)
        .file("src/c-out.md", "```output\nc old\n```\n");
    book.write();
    let (stdout, after) = bless_then_recheck(&book, 1);
    let notes: Vec<&str> = stdout.lines().filter(|l| l.starts_with("bless:")).collect();
    assert_eq!(
        notes,
        [
            "bless: src/inc.md:4: not blessed: the output block comes through {{#include}}, not from the chapter file; update the included file",
            "bless: src/inc.md:9: blessed the output block",
        ]
    );
    assert_eq!(
        std::fs::read_to_string(book.root().join("src/c-out.md")).unwrap(),
        "```output\nc old\n```\n"
    );
    assert_eq!(
        std::fs::read_to_string(book.root().join("src/inc.md")).unwrap(),
        chapter.replace("rust old", "rust new")
    );
    assert_eq!(after, "1 passed, 1 failed");
}

const TWO_COMPARES: &str = r#"# Two

````compare title="First"
```c caption="1c" expect=run
~ #include <stdio.h>
int main(void) { puts("first c, now much longer than before"); puts("and two lines"); return 0; }
```
```output
1c
```
```rust caption="1r"
fn main() { println!("first rust"); }
```
```output
old first rust output, longer than the new one
```
````

```rust example
println!("between");
```

```output
not between
```

- A list item holding a comparison:

  ````compare title="Second"
  ```cpp caption="2cpp" expect=run
  ~ #include <cstdio>
  int main() { std::puts("second cpp"); }
  ```
  ```output
  2cpp
  ```
  ```c caption="2c" expect=run
  int main(void) { return missing; }
  ```
  ```output
  kept: this side does not compile
  ```
  ````

~~~~compare title="Third"
```c caption="3c" expect=run
~ #include <stdio.h>
int main(void) { puts("~~~~"); return 0; }
```
```output
tildes
```
```rust caption="3r"
fn main() { println!("third rust"); }
```
```output
3r
```
~~~~
"#;

#[test]
fn bless_composes_several_comparisons_in_one_chapter() {
    let book = TestBook::new().chapter("two.md", TWO_COMPARES);
    book.write();
    let (stdout, after) = bless_then_recheck(&book, 1);
    let at = |caption: &str| {
        format!(
            "bless: src/two.md:{}:",
            line_of(TWO_COMPARES, &format!("caption=\"{caption}\""))
        )
    };
    let notes: Vec<&str> = stdout.lines().filter(|l| l.starts_with("bless:")).collect();
    assert_eq!(
        notes,
        [
            format!("{} blessed the output block", at("1c")),
            format!("{} blessed the output block", at("1r")),
            format!(
                "bless: src/two.md:{}: blessed the output block",
                line_of(TWO_COMPARES, "rust example")
            ),
            format!("{} blessed the output block", at("2cpp")),
            format!(
                "{} not blessed: the actual output contains `~~~~`, which would close the comparison around the block; use a longer fence for the comparison",
                at("3c")
            ),
            format!("{} blessed the output block", at("3r")),
        ],
        "{stdout}"
    );
    let written = std::fs::read_to_string(book.root().join("src/two.md")).unwrap();
    let expected = TWO_COMPARES
        .replace(
            "```output
1c
```",
            "```output
first c, now much longer than before
and two lines
```",
        )
        .replace(
            "old first rust output, longer than the new one",
            "first rust",
        )
        .replace("not between", "between")
        .replace(
            "  ```output
  2cpp
  ```",
            "  ```output
  second cpp
  ```",
        )
        .replace(
            "```output
3r
```",
            "```output
third rust
```",
        );
    assert_eq!(written, expected);
    // Left failing: the C side that does not compile (nothing to bless)
    // and the one whose output would close its comparison.
    assert_eq!(after, "5 passed, 2 failed");
}

#[test]
fn missing_cc_is_reported_once_for_comparison_sides() {
    let book = TestBook::new()
        .companion("cc = \"/nonexistent/cc\"")
        .chapter("cmp.md", COMPARE);
    book.write();
    let (stdout, _, code) = check(&book, &[]);
    assert_eq!(code, 1);
    let errors: Vec<&str> = stdout.lines().filter(|l| l.starts_with("error:")).collect();
    let lines: Vec<String> = ["C: UB", "C: no UB after all", "C++: prints", "C: compiles"]
        .iter()
        .map(|c| {
            format!(
                "src/cmp.md:{}",
                line_of(COMPARE, &format!("caption=\"{c}\""))
            )
        })
        .collect();
    assert_eq!(
        errors,
        [format!(
            "error: the compiler `/nonexistent/cc` could not be run (set `cc` in [preprocessor.companion] to a compiler that runs); 4 blocks not checked: {}",
            lines.join(", ")
        )]
    );
    // The Rust side still ran: a missing cc does not hide Rust results.
    assert_eq!(stdout.lines().last(), Some("1 passed, 4 failed"));
}

#[test]
fn verify_marks_a_false_comparison_side() {
    let book = TestBook::new()
        .companion("verify = true\non-failure = \"continue\"")
        .chapter("cmp.md", COMPARE);
    let page = book.html("cmp.md");
    let marks: Vec<String> = page
        .all("main div.companion-verify")
        .into_iter()
        .map(Page::text)
        .collect();
    assert_eq!(marks.len(), 2, "{marks:?}");
    assert!(
        marks[1].ends_with(
            "compare side \"C++: prints\" (expect=run) does not hold: the output differs from the output block"
        ),
        "{marks:?}"
    );
}

/// The results without `cached`, which depends on which of two identical
/// jobs ran first.
fn verdicts(report: &Value) -> Vec<Value> {
    let mut results = report["results"].as_array().cloned().unwrap_or_default();
    for r in &mut results {
        if let Some(o) = r.as_object_mut() {
            o.remove("cached");
        }
    }
    assert!(!results.is_empty(), "no results in {report}");
    results
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
    let cache = book.root().join(".companion-cache/check");
    // Flip the content of every cached observation: a checksum mismatch.
    let mut corrupted = 0;
    for shard in std::fs::read_dir(&cache).unwrap() {
        for entry in std::fs::read_dir(shard.unwrap().path()).unwrap() {
            let path = entry.unwrap().path();
            let mut bytes = std::fs::read(&path).unwrap();
            let last = bytes.len() - 2;
            bytes[last] ^= 0x55;
            std::fs::write(&path, bytes).unwrap();
            corrupted += 1;
        }
    }
    assert!(corrupted > 0);
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

/// Two C sides per chapter, for the missing-compiler tests.
const TWO_C: &str = "# Two C sides\n\n`````compare title=\"Two\"\n```c caption=\"one\"\nint one(void) { return 1; }\n```\n\n```c caption=\"two\"\nint two(void) { return 2; }\n```\n`````\n";

fn two_chapters_without_cc(on_failure: &str) -> TestBook {
    TestBook::new()
        .companion(&format!(
            "verify = true\non-failure = \"{on_failure}\"\ncc = \"/nonexistent/cc\""
        ))
        .chapter("a.md", TWO_C)
        .chapter("b.md", TWO_C)
}

/// The message the build gives for a missing `cc`, at the first C side.
fn missing_cc_message() -> String {
    format!(
        "src/a.md:{}:4: the compiler `/nonexistent/cc` could not be run, so 4 blocks were not checked (the first is here); set `cc` in [preprocessor.companion] to a compiler that runs",
        line_of(TWO_C, "caption=\"one\"")
    )
}

#[test]
fn verify_reports_a_missing_compiler_once_per_build_under_bail() {
    let err = two_chapters_without_cc("bail")
        .build_in_process()
        .unwrap_err();
    let about: Vec<&str> = err
        .lines()
        .filter(|l| l.contains("/nonexistent/cc"))
        .collect();
    assert_eq!(about, [missing_cc_message()], "{err}");
}

#[test]
fn verify_reports_a_missing_compiler_once_per_build_under_continue() {
    let book = two_chapters_without_cc("continue");
    book.write();
    let out = TestBook::run_bin(&["build", &book.root().display().to_string()], b"");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let about: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains("/nonexistent/cc"))
        .collect();
    assert_eq!(about.len(), 1, "{stderr}");
    assert!(about[0].ends_with(&missing_cc_message()), "{stderr}");
    // The page still marks every unchecked side.
    for chapter in ["a.md", "b.md"] {
        let marks: Vec<String> = book
            .page(chapter)
            .all("main div.companion-verify")
            .into_iter()
            .map(Page::text)
            .collect();
        let file = format!("src/{chapter}");
        let want: Vec<String> = ["one", "two"]
            .iter()
            .map(|c| {
                format!(
                    "mdbook-companion: {file}:{}:4 compare side \"{c}\" (expect=compile) was not checked: the compiler `/nonexistent/cc` could not be run",
                    line_of(TWO_C, &format!("caption=\"{c}\""))
                )
            })
            .collect();
        assert_eq!(marks, want);
    }
}

/// A fake `rustc` that picks its toolchain as a rustup proxy does (from a
/// `rust-toolchain.toml` in its working directory or above) and logs which
/// one each version query and each compile got.
fn toolchain_book(companion: &str) -> (TestBook, PathBuf) {
    use std::os::unix::fs::PermissionsExt as _;
    let book = TestBook::new()
        .companion(companion)
        .chapter(
            "t.md",
            "# T\n\n```rust example expect=no-run\nfn main() {}\n```\n",
        )
        .file("rust-toolchain.toml", "[toolchain]\nchannel = \"pinned\"\n");
    let log = book.root().join("fake.log");
    let rustc = book.root().join("fake-rustc");
    let script = format!(
        r#"#!/bin/sh
tc=default
d=$PWD
while :; do
  if [ -f "$d/rust-toolchain.toml" ]; then tc=pinned; break; fi
  [ "$d" = / ] && break
  d=$(dirname "$d")
done
if [ "$1" = -vV ]; then
  echo "version $tc" >> '{log}'
  echo "rustc 1.0.0 ($tc)"
  exit 0
fi
echo "compile $tc" >> '{log}'
exit 0
"#,
        log = log.display()
    );
    std::fs::write(&rustc, script).expect("write the fake rustc");
    std::fs::set_permissions(&rustc, std::fs::Permissions::from_mode(0o755))
        .expect("make it executable");
    let book = book.companion(&format!("rustc = {:?}", rustc.display().to_string()));
    (book, log)
}

/// Each logged run's toolchain, and that both a version query and a
/// compile were logged.
fn toolchains(log: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(log).expect("the fake rustc ran");
    assert!(
        text.contains("version ") && text.contains("compile "),
        "{text}"
    );
    text.lines()
        .map(|l| l.split_once(' ').map_or(l, |(_, tc)| tc).to_owned())
        .collect()
}

/// The version in the cache key must be the version of the compiler that
/// compiles: a `rust-toolchain.toml` in the book's folder (mdBook runs
/// preprocessors there, authors run `check` there) must not make the
/// version query pick another toolchain than the compile.
#[test]
fn check_asks_the_version_where_it_compiles() {
    let (book, log) = toolchain_book("");
    book.write();
    let out = Command::new(BIN)
        .arg("check")
        .arg(book.root())
        .current_dir(book.root())
        .output()
        .expect("run check");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    let seen = toolchains(&log);
    assert!(seen.iter().all(|t| *t == seen[0]), "{seen:?}");
}

#[test]
fn verify_asks_the_version_where_it_compiles() {
    let (book, log) = toolchain_book("verify = true");
    // Real mdBook runs the command preprocessor in the book's folder.
    book.build().expect("build");
    let seen = toolchains(&log);
    assert!(seen.iter().all(|t| *t == seen[0]), "{seen:?}");
}
