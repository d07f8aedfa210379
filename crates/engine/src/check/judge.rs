//! Verdicts shared by every language: how a run that should exit cleanly
//! and print the output block is judged, how a run that should stop with a
//! report (a panic message, a sanitizer report) is judged, a checker's
//! report that came without its exit status, and time-outs and floods.

use super::pattern;
use super::sanitizer;
use super::verdict::{MAX_OUTPUT, Observation, RunResult, Verdict, contains_normalized, normalize};
use mdbook_companion_core::sanitize::Sanitize;

/// The message of an output block the program's output does not match
/// (which a second run may tell apart from output that varies).
pub(super) const OUTPUT_DIFFERS: &str = "the output differs from the output block";
use mdbook_companion_core::claim::Stated;
use mdbook_companion_core::expect::Expect;
use std::time::Duration;

/// What its compile alone decides of a claim compiled by `compiler`
/// (named in the message): stopped at its time limit, compiled though it
/// claims not to, or not compiled though it must; a `compile_fail` claim
/// that failed is told by `failed` (its verdict and the first line of
/// its message). `None` when its run decides.
pub(super) fn compile_verdict(
    claim: &Stated<'_>,
    obs: &Observation,
    compiler: &str,
    failed: impl FnOnce() -> (Verdict, Option<String>),
) -> Option<(Verdict, Option<String>)> {
    if obs.compile_timed_out {
        return Some((
            Verdict::fail(format!(
                "the {compiler} compiler did not finish within its time limit and was stopped"
            )),
            None,
        ));
    }
    match (claim.expectation.expect, obs.compiled) {
        (Expect::CompileFail, false) => Some(failed()),
        (Expect::CompileFail, true) => Some((
            Verdict::fail("compiled, but the block says it does not compile"),
            None,
        )),
        (_, false) => Some((
            Verdict::fail_with("does not compile", &obs.diagnostics),
            None,
        )),
        (_, true) => None,
    }
}

/// A time-out, a flood or a program over its memory, shared by every
/// kind of run.
pub(super) fn abnormal(run: &RunResult, timeout: Duration) -> Option<Verdict> {
    abnormal_under(run, timeout, "timeout")
}

/// Whether a plain block's program runs under `hang-guard` rather than
/// `timeout`: it claims no output, so `mdbook test` would run it to
/// completion with no limit; the guard only stops a program that hangs.
pub(super) fn hang_guarded(claim: &Stated<'_>) -> bool {
    claim.program.doctest.is_some() && claim.expectation.output.is_none()
}

/// The config key that sets `claim`'s time limit.
pub(super) fn limit_key(claim: &Stated<'_>) -> &'static str {
    match hang_guarded(claim) {
        true => "hang-guard",
        false => "timeout",
    }
}

/// [`abnormal`] under the limit set by the config key `key` (`timeout`,
/// or a plain block's `hang-guard`).
pub(super) fn abnormal_under(run: &RunResult, timeout: Duration, key: &str) -> Option<Verdict> {
    if let Some(limit) = run.over_memory {
        return Some(Verdict::fail(format!(
            "the program used more than its {} of memory and was killed (config `memory`)",
            size(limit)
        )));
    }
    let flood = format!(
        "printed more than {} bytes on stdout or stderr (output is capped)",
        MAX_OUTPUT
    );
    let message = match (run.timed_out, run.truncated) {
        (false, false) => return None,
        (true, false) => format!(
            "the program ran longer than the {} s time limit and was killed (config `{key}`)",
            timeout.as_secs()
        ),
        (true, true) => format!(
            "the program {flood} and ran longer than the {} s time limit; it was killed (config `{key}`)",
            timeout.as_secs()
        ),
        (false, true) => format!("the program {flood}"),
    };
    Some(Verdict::fail(message))
}

/// A size as `memory` is written: `64 MiB`, `2 GiB`.
fn size(bytes: u64) -> String {
    match bytes % (1 << 30) {
        0 => format!("{} GiB", bytes >> 30),
        _ => format!("{} MiB", bytes >> 20),
    }
}

/// What a failed run's detail shows: its stderr, then its checker's
/// report (kept apart from it, in the checker's log), if there is one.
pub(super) fn streams(run: &RunResult) -> String {
    // The checker's log as every run of it writes it (no process ids,
    // addresses or temporary folders), as pages and the lock show it.
    match run.report.as_deref().map(sanitizer::normalise) {
        Some(report) if run.stderr.is_empty() => report,
        Some(report) => format!("{}\n{report}", run.stderr.trim_end()),
        None => run.stderr.clone(),
    }
}

/// `actual` in the terms of the output block's patterns, if it has any
/// (what a diff shows and `--bless` writes).
pub(super) fn fitted(expected: Option<&str>, actual: String) -> String {
    match expected {
        Some(e) => pattern::fit(&normalize(e), &actual),
        None => actual,
    }
}

/// Compares stdout (fitted to the block's patterns) with the output
/// block, if there is one.
pub(super) fn output_verdict(expected: Option<&str>, actual: &str) -> Verdict {
    match expected {
        Some(e) if normalize(e) != actual => Verdict::Failed {
            message: OUTPUT_DIFFERS.into(),
            expected: Some(normalize(e)),
            actual: Some(actual.to_owned()),
            detail: None,
            at: None,
        },
        _ => Verdict::Passed,
    }
}

/// How a run ended, in words.
fn how_it_ended(code: Option<i32>) -> String {
    match code {
        Some(0) => "exited successfully".to_owned(),
        Some(c) => format!("exited with code {c}"),
        None => "was killed by a signal".to_owned(),
    }
}

/// The verdict on a run whose checker's log holds a report that came
/// without the checker's exit status ([`sanitizer::CHECKER_EXIT`]): no
/// proof of anything (the program may have written it into the log, which
/// it can find), so the claim fails, saying so. `None` when the log holds
/// no report of `sanitize`'s checkers, or the checker stopped the program.
pub(super) fn unproven_report(run: &RunResult, sanitize: Sanitize) -> Option<Verdict> {
    if sanitizer::stopped_by_checker(run) {
        return None;
    }
    sanitizer::report(run, sanitize)?;
    Some(Verdict::fail_with(
        format!(
            "the log of {} holds a report, but the program {}, not with the checker's exit status ({}): a report counts only with it",
            sanitize.names(),
            how_it_ended(run.code),
            sanitizer::CHECKER_EXIT
        ),
        streams(run),
    ))
}

/// A program that should exit 0 and print the output block. `stop` names
/// an abnormal stop from the run ("panicked: …", a checker's report),
/// when it can.
pub(super) fn exits_cleanly(
    claim: &Stated<'_>,
    run: Option<&RunResult>,
    timeout: Duration,
    stop: impl FnOnce(&RunResult) -> Option<String>,
) -> (Verdict, Option<String>) {
    let Some(run) = run else {
        return (Verdict::fail("the program was not run"), None);
    };
    if let Some(v) = abnormal_under(run, timeout, limit_key(claim)) {
        return (v, None);
    }
    let actual = normalize(&run.stdout);
    if run.code != Some(0) {
        let why = stop(run).unwrap_or_else(|| how_it_ended(run.code));
        return (
            Verdict::fail_with(format!("the program {why}"), streams(run)),
            Some(actual),
        );
    }
    let actual = match claim.expectation.output.as_deref() {
        Some(expected) if claim.expectation.unordered => in_any_order(expected, actual),
        expected => fitted(expected, actual),
    };
    (
        output_verdict(claim.expectation.output.as_deref(), &actual),
        Some(actual),
    )
}

/// `actual` as the output block writes it when it has the block's lines
/// in some order (each line equal, or matching the line's `[..]`
/// patterns); else `actual` as it is.
pub(super) fn in_any_order(expected: &str, actual: String) -> String {
    let expected = normalize(expected);
    let want: Vec<&str> = expected.lines().collect();
    let mut got: Vec<Option<&str>> = actual.lines().map(Some).collect();
    if want.len() != got.len() {
        return actual;
    }
    for line in &want {
        let found = got.iter_mut().find(|g| {
            g.is_some_and(|g| {
                g == *line || (pattern::has_pattern(line) && pattern::matches(line, g))
            })
        });
        match found {
            Some(slot) => *slot = None,
            None => return actual,
        }
    }
    expected
}

/// What a run that should stop with a report is looking for.
pub(super) struct SoughtReport<'a> {
    /// The report found in a run: what is shown and blessed, and the text
    /// the output block must be found in.
    pub(super) find: &'a dyn Fn(&RunResult) -> Option<(String, String)>,
    /// The message when there is no report, given how the run ended.
    pub(super) missing: &'a dyn Fn(&str) -> String,
    /// The message when the report lacks the output block.
    pub(super) mismatch: &'a str,
}

/// A program that should stop with a report containing the output block.
pub(super) fn stops_with_report(
    claim: &Stated<'_>,
    run: Option<&RunResult>,
    timeout: Duration,
    report: &SoughtReport<'_>,
) -> (Verdict, Option<String>) {
    let Some(run) = run else {
        return (Verdict::fail("the program was not run"), None);
    };
    if let Some(v) = abnormal(run, timeout) {
        return (v, None);
    }
    let Some((shown, searched)) = (report.find)(run) else {
        return (
            Verdict::fail_with((report.missing)(&how_it_ended(run.code)), streams(run)),
            None,
        );
    };
    if let Some(expected) = &claim.expectation.output
        && !contains_normalized(&searched, expected)
    {
        let shown = fitted(Some(expected), shown);
        return (
            Verdict::Failed {
                message: report.mismatch.into(),
                expected: Some(normalize(expected)),
                actual: Some(shown.clone()),
                detail: None,
                at: None,
            },
            Some(shown),
        );
    }
    (Verdict::Passed, Some(shown))
}

/// The verdict on a `warnings=none` claim whose program compiled: a
/// failure quoting the first warning, if the compiler printed one.
pub(super) fn warned(diagnostics: &str) -> Option<Verdict> {
    let first = diagnostics.lines().find(|l| {
        l.contains("warning:") && !l.contains("warning emitted") && !l.contains("warnings emitted")
    })?;
    Some(Verdict::fail_with(
        format!(
            "the compiler warned: {}; the block says `warnings=none`",
            first.trim()
        ),
        diagnostics,
    ))
}

/// The line of `source_file` the compiler's first error stands on: rustc's
/// `--> main.rs:3:5` under its first `error`, gcc's and clang's
/// `main.c:3:5: error:`.
pub(super) fn first_error_line(diagnostics: &str, source_file: &str) -> Option<usize> {
    let mut lines = diagnostics.lines();
    let located = format!("{source_file}:");
    while let Some(line) = lines.next() {
        if let Some(rest) = line.strip_prefix(&located)
            && (rest.contains(": error:") || rest.contains(": fatal error:"))
        {
            return rest.split(':').next()?.parse().ok();
        }
        if line.starts_with("error") {
            return lines
                .take_while(|l| !l.starts_with("error") && !l.starts_with("warning"))
                .find_map(|l| l.trim_start().strip_prefix(&format!("--> {located}")))
                .and_then(|at| at.split(':').next()?.parse().ok());
        }
    }
    None
}

/// The verdict on a claim that its compile fails with the first error on
/// a given line, when it says so and the error labels another: its
/// primary line, or any line a secondary label of its snippet names
/// (rustc's "immutable borrow later used here"), holds. A failure names
/// the lines the error labels.
pub(super) fn wrong_error_line(
    claim: &Stated<'_>,
    diagnostics: &str,
    source_file: &str,
) -> Option<Verdict> {
    let want = claim.expectation.error_line.as_ref()?;
    let found = first_error_line(diagnostics, source_file);
    if found == Some(want.line) {
        return None;
    }
    let labels = mdbook_companion_core::labels::first_error_labels(diagnostics, source_file);
    if labels.iter().any(|l| l.line == want.line) {
        return None;
    }
    // The other labelled lines, each once with its labels' words.
    let mut lines: Vec<(usize, Vec<String>)> = Vec::new();
    for l in labels
        .iter()
        .filter(|l| Some(l.line) != found && !l.text.is_empty())
    {
        let words = format!("\"{}\"", l.text);
        match lines.iter_mut().find(|(n, _)| *n == l.line) {
            Some((_, w)) => w.push(words),
            None => lines.push((l.line, vec![words])),
        }
    }
    let others: Vec<String> = lines
        .iter()
        .map(|(n, w)| format!("{} ({})", want.told(*n), w.join(", ")))
        .collect();
    let found = match (found, others.is_empty()) {
        (Some(l), true) => format!("its first error is on {}", want.told(l)),
        (Some(l), false) => format!(
            "its first error is on {} and labels {}",
            want.told(l),
            others.join(", ")
        ),
        (None, _) => "the compiler named no line for its first error".to_owned(),
    };
    Some(Verdict::fail_with(
        format!(
            "does not compile, but {found}; the block says {}",
            want.told(want.line)
        ),
        diagnostics,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unordered_lines_match_in_any_order() {
        let a = "thread 2\nthread 1\nmain\n";
        assert_eq!(
            in_any_order("thread 1\nthread 2\nmain\n", a.into()),
            "thread 1\nthread 2\nmain"
        );
        assert_eq!(
            in_any_order("thread [..]\nthread [..]\nmain", a.into()),
            "thread [..]\nthread [..]\nmain"
        );
        // A line missing or repeated is a difference.
        assert_eq!(in_any_order("thread 1\nthread 1\nmain", a.into()), a);
        assert_eq!(in_any_order("thread 1\nmain", a.into()), a);
    }

    #[test]
    fn a_failed_runs_checker_log_is_shown_as_every_run_writes_it() {
        let run = RunResult {
            code: Some(1),
            stderr: "oops\n".into(),
            report: Some("==4884== Invalid read of size 4\n==4884==    at 0x10914A: main (/tmp/companion-Ab12Cd/main.c:3)\n".into()),
            ..RunResult::default()
        };
        assert_eq!(
            streams(&run),
            "oops\n==…== Invalid read of size 4\n==…==    at 0x…: main (main.c:3)\n"
        );
    }

    #[test]
    fn warnings_are_quoted() {
        let gcc = "main.c: In function 'f':\nmain.c:3:9: warning: unused variable 'y' [-Wunused-variable]\n    3 |     int y;\n";
        let Some(Verdict::Failed {
            message, detail, ..
        }) = warned(gcc)
        else {
            panic!("a warning fails the claim");
        };
        assert_eq!(
            message,
            "the compiler warned: main.c:3:9: warning: unused variable 'y' [-Wunused-variable]; the block says `warnings=none`"
        );
        assert_eq!(detail.as_deref(), Some(gcc));
        let rustc =
            "warning: unused variable: `x`\n --> main.rs:2:9\n\nwarning: 1 warning emitted\n";
        assert!(warned(rustc).is_some_and(|v| v.to_string().contains("unused variable: `x`")));
        assert_eq!(warned(""), None);
        assert_eq!(warned("note: something\n"), None);
    }

    #[test]
    fn the_first_errors_line_is_read_from_rustc_and_cc() {
        let rustc = "warning: unused\n --> main.rs:1:5\n\nerror[E0382]: borrow of moved value: `v`\n --> main.rs:4:20\n  |\nerror: aborting\n";
        assert_eq!(first_error_line(rustc, "main.rs"), Some(4));
        let gcc = "main.c: In function 'main':\nmain.c:2:9: warning: unused\nmain.c:5:3: error: expected ';' before '}' token\n";
        assert_eq!(first_error_line(gcc, "main.c"), Some(5));
        assert_eq!(first_error_line("error: linking failed\n", "main.rs"), None);
    }
}
