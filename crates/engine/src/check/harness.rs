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
use mdbook_companion_core::claim::Stated;
use mdbook_companion_core::code::{self, TestFn};
use mdbook_companion_core::expect::Expect;
use std::time::Duration;

/// What the harness reported: the tests that passed, were ignored and
/// failed (each failure with its captured output), how many it said it
/// runs, its summary, and a test it started and never finished.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TestReport {
    /// Names of the tests that passed (`tests::adds`).
    pub passed: Vec<String>,
    /// Names of the tests that failed, with their output section.
    pub failed: Vec<(String, String)>,
    /// Names of the tests the harness ignored (`#[ignore]`).
    pub ignored: Vec<String>,
    /// Each `running N tests` line's N, in order (the harness prints one).
    pub running: Vec<usize>,
    /// The last summary line (`test result: ok. 2 passed; …`), read.
    pub summary: Option<Summary>,
    /// The test the harness started last and reported no result of (the
    /// run stopped inside it).
    pub unfinished: Option<String>,
}

/// libtest's summary line: `test result: ok. 2 passed; 0 failed; 0
/// ignored; 0 measured; 0 filtered out; finished in 0.00s`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Summary {
    /// `ok`, not `FAILED`.
    pub ok: bool,
    /// Tests passed.
    pub passed: usize,
    /// Tests failed.
    pub failed: usize,
    /// Tests ignored.
    pub ignored: usize,
    /// Benchmarks measured.
    pub measured: usize,
    /// Tests filtered out.
    pub filtered: usize,
}

impl Summary {
    /// Reads a summary line; `None` for anything else.
    fn parse(line: &str) -> Option<Summary> {
        let rest = line.strip_prefix("test result: ")?;
        let (ok, rest) = match (rest.strip_prefix("ok. "), rest.strip_prefix("FAILED. ")) {
            (Some(r), _) => (true, r),
            (_, Some(r)) => (false, r),
            _ => return None,
        };
        let mut counts = rest.split("; ");
        let mut count = |word: &str| -> Option<usize> {
            counts.next()?.strip_suffix(word)?.trim_end().parse().ok()
        };
        Some(Summary {
            ok,
            passed: count("passed")?,
            failed: count("failed")?,
            ignored: count("ignored")?,
            measured: count("measured")?,
            filtered: count("filtered out")?,
        })
    }
}

impl TestReport {
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

    /// Records a test's result word (`ok`, `FAILED`, `ignored`, `ignored,
    /// reason`); false for another word.
    fn record(&mut self, name: &str, result: &str) -> bool {
        match result {
            "ok" => self.passed.push(name.to_owned()),
            "FAILED" => self.failed.push((name.to_owned(), String::new())),
            r if r == "ignored" || r.starts_with("ignored, ") => self.ignored.push(name.to_owned()),
            _ => return false,
        }
        true
    }
}

/// Names in backticks, joined with commas.
fn names<'a>(names: impl Iterator<Item = &'a str>) -> String {
    names
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Reads libtest's report from the harness's stdout. What a failing
/// test printed (its `---- name stdout ----` section, captured by the
/// harness) is that test's output, never part of the report: a forged
/// result or summary printed there counts for nothing.
pub fn parse(stdout: &str) -> TestReport {
    let mut report = TestReport::default();
    let mut sections: Vec<(String, String)> = Vec::new();
    let mut current: Option<(String, String)> = None;
    // A test started whose result is still to come (the harness prints
    // the name first, one test at a time; what the test writes straight
    // to stdout may come between).
    let mut started: Option<String> = None;
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
        }
        if let Some((_, text)) = &mut current {
            text.push_str(line);
            text.push('\n');
            continue;
        }
        if let Some(summary) = Summary::parse(line) {
            report.summary = Some(summary);
            continue;
        }
        if let Some(n) = line
            .strip_prefix("running ")
            .and_then(|r| r.strip_suffix(" tests").or_else(|| r.strip_suffix(" test")))
            .and_then(|n| n.parse().ok())
        {
            report.running.push(n);
            continue;
        }
        if let Some((name, result)) = line
            .strip_prefix("test ")
            .and_then(|rest| rest.split_once(" ... "))
        {
            let name = name.strip_suffix(" - should panic").unwrap_or(name);
            started = (!report.record(name, result.trim_end())).then(|| name.to_owned());
            continue;
        }
        if let Some(name) = started.take()
            && !report.record(&name, line.trim())
        {
            started = Some(name);
        }
    }
    sections.extend(current);
    for (name, output) in sections {
        if let Some((_, o)) = report.failed.iter_mut().find(|(n, _)| *n == name) {
            o.push_str(&output);
        }
    }
    report.unfinished = started;
    report
}

/// The verdict on an exercise claim from what happened; a failure's
/// detail ends with where the code and the tests stand in `main.rs`, the
/// test crate that compiler and harness messages name, unless they are
/// told in the chapter's lines
/// ([`Program::lines`](mdbook_companion_core::claim::Program::lines)).
pub fn judge(
    claim: &Stated<'_>,
    obs: &Observation,
    timeout: Duration,
) -> (Verdict, Option<String>) {
    let (verdict, actual) = judged(claim, obs, timeout);
    let layout = match claim.program.lines {
        Some(_) => None,
        None => layout(&claim.program.source),
    };
    let verdict = match (verdict, layout) {
        (
            Verdict::Failed {
                message,
                expected,
                actual,
                detail: Some(detail),
                at,
            },
            Some(layout),
        ) => Verdict::Failed {
            message,
            expected,
            actual,
            detail: Some(format!("{}\n{layout}", detail.trim_end())),
            at,
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
fn judged(claim: &Stated<'_>, obs: &Observation, timeout: Duration) -> (Verdict, Option<String>) {
    let code = match claim.expectation.expect {
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
    if claim.expectation.expect == Expect::StarterCompiles {
        return (Verdict::Passed, None);
    }
    let Some(run) = obs.run.as_ref() else {
        return (Verdict::fail("the tests were not run"), None);
    };
    if let Some(v) = abnormal(run, timeout) {
        return (v, None);
    }
    let report = parse(&run.stdout);
    let verdict = match claim.expectation.expect {
        Expect::StarterFails => starter_fails(&report, run),
        _ => solution_passes(&report, run, &claim.program.source),
    };
    (verdict, None)
}

/// At least one test fails on the starter.
fn starter_fails(report: &TestReport, run: &RunResult) -> Verdict {
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

/// Every test passes on the solution: the harness ran to its end, listed
/// no failure and exited 0, and its whole report says so: its summary,
/// agreeing with the results it listed, and each of the exercise's tests
/// (the `#[test]` functions of the test crate's `source`) named once,
/// passed (or ignored, as `#[ignore]` asks). The harness runs in the
/// program's process and writes to its stdout, so a solution that leaves
/// early (`process::exit(0)` inside a failing test) leaves a report
/// without its end; what it prints inside a test is the harness's to
/// capture.
fn solution_passes(report: &TestReport, run: &RunResult, source: &str) -> Verdict {
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
    let expected = exercise_tests(source);
    if report.passed.is_empty() && expected.iter().all(|t| t.ignored) {
        return Verdict::fail("the tests hold no #[test] function");
    }
    match incomplete(report, &expected) {
        Some(message) => Verdict::fail_with(message, format!("{}{}", run.stdout, run.stderr)),
        None => Verdict::Passed,
    }
}

/// The `#[test]` functions of an exercise's test crate.
fn exercise_tests(source: &str) -> Vec<TestFn> {
    code::exercise_tests(source)
        .map(code::test_functions)
        .unwrap_or_default()
}

/// What a report that lists no failure lacks to prove that every one of
/// `expected` passed, if anything: the harness's summary, a summary that
/// agrees with the results listed (every test run, none filtered out),
/// each test named once, and the tests the exercise has.
fn incomplete(report: &TestReport, expected: &[TestFn]) -> Option<String> {
    let listed = report.passed.len() + report.ignored.len();
    let Some(summary) = report.summary else {
        let total = report.running.first().copied().unwrap_or(expected.len());
        let stopped = match &report.unfinished {
            Some(name) => format!(": `{name}` did not finish"),
            None => String::new(),
        };
        return Some(format!(
            "the test harness ended without its summary (`test result: …`) after {listed} of {total} tests{stopped}"
        ));
    };
    let agrees = summary.ok
        && summary.passed == report.passed.len()
        && summary.failed == 0
        && summary.ignored == report.ignored.len()
        && summary.measured == 0
        && summary.filtered == 0
        && report.running == [listed];
    if !agrees {
        return Some(format!(
            "the test harness's summary ({}) does not agree with the results it listed ({} passed, {} ignored, of {} said to run)",
            summary_text(&summary),
            report.passed.len(),
            report.ignored.len(),
            report
                .running
                .iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(" and ")
        ));
    }
    let mut seen = std::collections::BTreeMap::<&str, usize>::new();
    for name in report.passed.iter().chain(&report.ignored) {
        *seen.entry(name.as_str()).or_default() += 1;
    }
    if let Some((name, n)) = seen.iter().find(|(_, n)| **n > 1) {
        return Some(format!("the test harness reported `{name}` {n} times"));
    }
    // A test reported under its module's path (`tests::inner::t`) is the
    // `fn t` the scan found.
    let last = |n: &String| n.rsplit("::").next().unwrap_or(n).to_owned();
    let sorted = |mut v: Vec<String>| {
        v.sort();
        v
    };
    let want = |ignored: bool| {
        sorted(
            expected
                .iter()
                .filter(|t| t.ignored == ignored)
                .map(|t| t.name.clone())
                .collect(),
        )
    };
    let passed = sorted(report.passed.iter().map(last).collect());
    let ignored = sorted(report.ignored.iter().map(last).collect());
    if passed != want(false) || ignored != want(true) {
        let full: Vec<String> = expected
            .iter()
            .map(|t| format!("tests::{}", t.name))
            .collect();
        let tests = names(full.iter().map(String::as_str));
        return Some(format!(
            "the test harness reported {} passed and {} ignored; the exercise's tests are {} ({tests})",
            report.passed.len(),
            report.ignored.len(),
            expected.len(),
        ));
    }
    None
}

/// A summary as libtest writes it, without its time.
fn summary_text(s: &Summary) -> String {
    format!(
        "`test result: {}. {} passed; {} failed; {} ignored; {} measured; {} filtered out`",
        if s.ok { "ok" } else { "FAILED" },
        s.passed,
        s.failed,
        s.ignored,
        s.measured,
        s.filtered
    )
}

/// Whether the harness ran no test at all.
fn no_tests(report: &TestReport, run: &RunResult) -> bool {
    report.passed.is_empty() && report.failed.is_empty() && run.stdout.contains("running 0 tests")
}

#[cfg(test)]
mod tests;
