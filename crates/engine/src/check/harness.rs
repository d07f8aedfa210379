//! Exercise claims: a test crate (`rustc --test`) run by libtest's
//! harness, and what its report means for the three claims an exercise
//! makes: the starter compiles with the tests, at least one test fails on
//! the starter, every test passes on the solution.
//!
//! The harness runs one test at a time (`RUST_TEST_THREADS=1`), so its
//! report lists the tests in one order and each failure's captured output
//! (`---- tests::name stdout ----`) is that test's alone. A failure names
//! the tests and shows those sections, as `cargo test` does.

use super::judge::abnormal;
use super::verdict::{Observation, RunResult, Verdict};
use mdbook_companion_core::claim::Claim;
use mdbook_companion_core::expect::Expect;
use std::time::Duration;

/// What the harness reported: the tests that passed and those that
/// failed, each failure with its captured output.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Report {
    /// Names of the tests that passed (`tests::adds`).
    pub passed: Vec<String>,
    /// Names of the tests that failed, with their output section.
    pub failed: Vec<(String, String)>,
}

impl Report {
    /// The failures as `cargo test` shows them: each test's output under
    /// its name.
    pub fn failures(&self) -> String {
        let mut out = String::new();
        for (name, output) in &self.failed {
            out.push_str(&format!("---- {name} ----\n"));
            let output = output.trim_matches('\n');
            if !output.is_empty() {
                out.push_str(output);
                out.push('\n');
            }
        }
        out
    }

    /// The failed tests' names, in backticks, joined for a message.
    fn failed_names(&self) -> String {
        names(self.failed.iter().map(|(n, _)| n.as_str()))
    }
}

/// Names in backticks, joined with commas.
fn names<'a>(names: impl Iterator<Item = &'a str>) -> String {
    names
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Reads libtest's report from the harness's stdout.
pub fn parse(stdout: &str) -> Report {
    let mut report = Report::default();
    let mut sections: Vec<(String, String)> = Vec::new();
    let mut current: Option<(String, String)> = None;
    for line in stdout.lines() {
        if let Some(rest) = line.strip_prefix("---- ")
            && let Some(name) = rest
                .strip_suffix(" stdout ----")
                .or_else(|| rest.strip_suffix(" stderr ----"))
        {
            sections.extend(current.take());
            current = Some((name.to_owned(), String::new()));
            continue;
        }
        if current.is_some() && (line == "failures:" || line.starts_with("test result: ")) {
            sections.extend(current.take());
            continue;
        }
        if let Some((_, text)) = &mut current {
            text.push_str(line);
            text.push('\n');
            continue;
        }
        let Some(rest) = line.strip_prefix("test ") else {
            continue;
        };
        let name = |r: &str| r.strip_suffix(" - should panic").unwrap_or(r).to_owned();
        if let Some(r) = rest.strip_suffix(" ... ok") {
            report.passed.push(name(r));
        } else if let Some(r) = rest.strip_suffix(" ... FAILED") {
            report.failed.push((name(r), String::new()));
        }
    }
    sections.extend(current);
    for (name, output) in sections {
        if let Some((_, o)) = report.failed.iter_mut().find(|(n, _)| *n == name) {
            o.push_str(&output);
        }
    }
    report
}

/// The verdict on an exercise claim from what happened; a failure's
/// detail ends with where the code and the tests stand in `main.rs`, the
/// test crate that compiler and harness messages name, unless they are
/// told in the chapter's lines ([`Claim::lines`]).
pub fn judge(claim: &Claim, obs: &Observation, timeout: Duration) -> (Verdict, Option<String>) {
    let (verdict, actual) = judged(claim, obs, timeout);
    let layout = match claim.lines {
        Some(_) => None,
        None => layout(&claim.source),
    };
    let verdict = match (verdict, layout) {
        (
            Verdict::Failed {
                message,
                expected,
                actual,
                detail: Some(detail),
            },
            Some(layout),
        ) => Verdict::Failed {
            message,
            expected,
            actual,
            detail: Some(format!("{}\n{layout}", detail.trim_end())),
        },
        (verdict, _) => verdict,
    };
    (verdict, actual)
}

/// Where the code and the tests stand in a test crate's `main.rs`.
fn layout(source: &str) -> Option<String> {
    let lines: Vec<&str> = source.lines().collect();
    let module = lines
        .windows(2)
        .rposition(|w| w[0] == "#[cfg(test)]" && w[1] == "mod tests {")?;
    Some(format!(
        "(main.rs is the test crate: the code on lines 1-{}, the tests from line {})",
        module.saturating_sub(1).max(1),
        module + 5
    ))
}

/// [`judge`], before the layout note.
fn judged(claim: &Claim, obs: &Observation, timeout: Duration) -> (Verdict, Option<String>) {
    let code = match claim.expect {
        Expect::SolutionPasses => "the solution",
        _ => "the starter",
    };
    if obs.compile_timed_out {
        return (
            Verdict::fail("rustc did not finish within its time limit and was stopped"),
            None,
        );
    }
    if !obs.compiled {
        return (
            Verdict::fail_with(
                format!("{code} does not compile with the tests"),
                &obs.diagnostics,
            ),
            None,
        );
    }
    if claim.expect == Expect::StarterCompiles {
        return (Verdict::Passed, None);
    }
    let Some(run) = obs.run.as_ref() else {
        return (Verdict::fail("the tests were not run"), None);
    };
    if let Some(v) = abnormal(run, timeout) {
        return (v, None);
    }
    let report = parse(&run.stdout);
    let verdict = match claim.expect {
        Expect::StarterFails => starter_fails(&report, run),
        _ => solution_passes(&report, run),
    };
    (verdict, None)
}

/// At least one test fails on the starter.
fn starter_fails(report: &Report, run: &RunResult) -> Verdict {
    // A harness that failed with no failure listed crashed (a stack
    // overflow aborts it): a test failed all the same.
    if !report.failed.is_empty() || (run.code != Some(0) && !no_tests(report, run)) {
        return Verdict::Passed;
    }
    if report.passed.is_empty() {
        return Verdict::fail("the tests hold no #[test] function");
    }
    Verdict::fail(format!(
        "every test passes on the starter ({}); the tests must fail on it, or they test nothing the reader writes",
        names(report.passed.iter().map(String::as_str))
    ))
}

/// Every test passes on the solution.
fn solution_passes(report: &Report, run: &RunResult) -> Verdict {
    if !report.failed.is_empty() {
        let n = report.failed.len();
        let s = if n == 1 { "" } else { "s" };
        return Verdict::fail_with(
            format!(
                "{n} test{s} fail{} on the solution: {}",
                if n == 1 { "s" } else { "" },
                report.failed_names()
            ),
            report.failures(),
        );
    }
    if run.code != Some(0) {
        let how = match run.code {
            Some(c) => format!("exited with code {c}"),
            None => "was killed by a signal".to_owned(),
        };
        return Verdict::fail_with(
            format!("the test harness {how} on the solution"),
            format!("{}{}", run.stdout, run.stderr),
        );
    }
    if report.passed.is_empty() {
        return Verdict::fail("the tests hold no #[test] function");
    }
    Verdict::Passed
}

/// Whether the harness ran no test at all.
fn no_tests(report: &Report, run: &RunResult) -> bool {
    report.passed.is_empty() && report.failed.is_empty() && run.stdout.contains("running 0 tests")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::tests::claim;
    use pretty_assertions::assert_eq;

    const STARTER: &str = "\nrunning 3 tests\ntest tests::a ... ok\ntest tests::b ... FAILED\ntest tests::c - should panic ... FAILED\n\nfailures:\n\n---- tests::b stdout ----\n\nthread 'tests::b' panicked at main.rs:3:5:\nnot yet implemented\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n---- tests::c stdout ----\nnote: test did not panic as expected at main.rs:9:8\n\nfailures:\n    tests::b\n    tests::c\n\ntest result: FAILED. 1 passed; 2 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n\n";

    const PASSING: &str = "\nrunning 2 tests\ntest tests::a ... ok\ntest tests::b ... ok\n\ntest result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n\n";

    fn run(code: i32, stdout: &str) -> Observation {
        Observation {
            compiled: true,
            inexact: false,
            diagnostics: String::new(),
            compile_timed_out: false,
            run: Some(RunResult {
                code: Some(code),
                stdout: stdout.into(),
                stderr: String::new(),
                timed_out: false,
                truncated: false,
                report: None,
                over_memory: None,
            }),
        }
    }

    #[test]
    fn the_report_names_each_test_and_keeps_each_failures_output() {
        let r = parse(STARTER);
        assert_eq!(r.passed, ["tests::a"]);
        let names: Vec<&str> = r.failed.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["tests::b", "tests::c"]);
        assert_eq!(
            r.failures(),
            "---- tests::b ----\nthread 'tests::b' panicked at main.rs:3:5:\nnot yet implemented\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n---- tests::c ----\nnote: test did not panic as expected at main.rs:9:8\n"
        );
    }

    #[test]
    fn each_claim_reads_the_same_report_its_own_way() {
        let t = Duration::from_secs(10);
        let verdict = |expect, obs: &Observation| judge(&claim(expect, ""), obs, t).0;
        let failing = run(101, STARTER);
        let passing = run(0, PASSING);
        assert_eq!(verdict(Expect::StarterCompiles, &failing), Verdict::Passed);
        assert_eq!(verdict(Expect::StarterFails, &failing), Verdict::Passed);
        assert_eq!(
            verdict(Expect::StarterFails, &passing).to_string(),
            "every test passes on the starter (`tests::a`, `tests::b`); the tests must fail on it, or they test nothing the reader writes"
        );
        assert_eq!(verdict(Expect::SolutionPasses, &passing), Verdict::Passed);
        let Verdict::Failed {
            message, detail, ..
        } = verdict(Expect::SolutionPasses, &failing)
        else {
            panic!("a failing solution passed");
        };
        assert_eq!(
            message,
            "2 tests fail on the solution: `tests::b`, `tests::c`"
        );
        let detail = detail.unwrap();
        assert!(detail.contains("not yet implemented"), "{detail}");
        assert!(
            !detail.contains("main.rs is the test crate"),
            "no layout without a crate"
        );
        let mut krate = claim(
            Expect::SolutionPasses,
            &mdbook_companion_core::code::test_crate(
                "fn a() {}\nfn b() {}\n",
                "#[test]\nfn t() {}\n",
            ),
        );
        krate.file = "src/a.md".into();
        let Verdict::Failed { detail, .. } = judge(&krate, &failing, t).0 else {
            panic!("passed");
        };
        assert!(detail.unwrap().ends_with(
            "\n(main.rs is the test crate: the code on lines 1-2, the tests from line 8)"
        ),);
        let none = run(
            0,
            "\nrunning 0 tests\n\ntest result: ok. 0 passed; 0 failed\n",
        );
        for e in [Expect::StarterFails, Expect::SolutionPasses] {
            assert_eq!(
                verdict(e, &none).to_string(),
                "the tests hold no #[test] function"
            );
        }
        let broken = Observation {
            compiled: false,
            inexact: false,
            diagnostics: "error[E0425]: cannot find function `f`".into(),
            compile_timed_out: false,
            run: None,
        };
        for (e, what) in [
            (Expect::StarterCompiles, "the starter"),
            (Expect::StarterFails, "the starter"),
            (Expect::SolutionPasses, "the solution"),
        ] {
            assert_eq!(
                verdict(e, &broken).to_string(),
                format!("{what} does not compile with the tests")
            );
        }
    }
}
