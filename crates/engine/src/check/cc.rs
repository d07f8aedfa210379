//! C and C++ claims: how `cc` is called, and what its result means for
//! `expect=compile | run | ub`.
//!
//! Every side compiles with `-Wall`, then the side's own `flags=`. `compile` stops at an object file (a
//! side need not have `main`); `run` links and runs; `ub` adds
//! `-fsanitize=undefined -fno-sanitize-recover=all` (or the side's
//! `sanitize=` checkers, [`super::sanitizer`]), so the first undefined
//! behaviour the checker sees stops the program with its report. C++ goes through the same `cc` driver as `main.cpp`, linked with
//! `-lstdc++`, so one `cc` setting serves both languages.

use super::judge::{
    SoughtReport, abnormal, compile_verdict, exits_cleanly, stops_with_report, unproven_report,
};
use super::sanitizer;
use super::verdict::{Job, Observation, Verdict};
use mdbook_companion_core::claim::Stated;
use mdbook_companion_core::expect::Expect;
use mdbook_companion_core::lang::Lang;
use std::time::Duration;

/// The compile (and run) job of a C or C++ claim.
pub fn job(claim: &Stated<'_>, cc: &str) -> Job {
    let cpp = claim.program.lang == Lang::Cpp;
    let source_file = claim.program.lang.source_file();
    let mut args: Vec<String> = vec!["-Wall".into()];
    args.extend(claim.program.flags.iter().cloned());
    let run = match claim.expectation.expect {
        Expect::Run
        | Expect::Panic
        | Expect::StarterCompiles
        | Expect::StarterFails
        | Expect::SolutionPasses => Some("prog"),
        Expect::Ub => Some("prog"),
        Expect::Compile | Expect::NoRun | Expect::CompileFail | Expect::Asm => {
            args.push("-c".into());
            None
        }
    };
    let sanitize = claim
        .expectation
        .sanitize
        .effective(claim.expectation.expect);
    if run.is_some() {
        args.extend(sanitizer::compile_args(sanitize));
    }
    let output = if run.is_some() { "prog" } else { "prog.o" };
    args.extend(["-o", output, source_file].map(String::from));
    if run.is_some() {
        if cpp {
            args.push("-lstdc++".into());
        }
        args.push("-lm".into());
    }
    Job {
        tool: cc.to_owned(),
        source_file,
        args,
        run,
        run_with: Vec::new(),
        env: sanitizer::env(sanitize),
        memcheck: run.is_some()
            && sanitize.has(mdbook_companion_core::sanitize::Sanitizer::Memcheck),
        timeout: None,
    }
}

/// UBSan's report in a program's stderr: the text after `runtime error: `
/// on the first line that has it.
pub(crate) fn sanitizer_report(stderr: &str) -> Option<String> {
    stderr
        .lines()
        .find_map(|l| l.split_once("runtime error: "))
        .map(|(_, msg)| msg.trim_end().to_owned())
}

/// The verdict on a C or C++ claim from what happened, and the actual
/// output in the output block's terms.
pub fn judge(
    claim: &Stated<'_>,
    obs: &Observation,
    timeout: Duration,
) -> (Verdict, Option<String>) {
    let source_file = claim.program.lang.source_file();
    let failed = || {
        // A quiz's C question may say the program does not compile.
        let first = obs
            .diagnostics
            .lines()
            .find(|l| l.contains(": error:") || l.contains(": fatal error:"))
            .map(str::to_owned);
        match super::judge::wrong_error_line(claim, &obs.diagnostics, source_file) {
            Some(v) => (v, first),
            None => (Verdict::Passed, first),
        }
    };
    if let Some(told) = compile_verdict(claim, obs, "C", failed) {
        return told;
    }
    let sanitize = claim
        .expectation
        .sanitize
        .effective(claim.expectation.expect);
    let names = sanitize.names();
    match claim.expectation.expect {
        Expect::Compile | Expect::NoRun | Expect::CompileFail | Expect::Asm => {
            (Verdict::Passed, None)
        }
        Expect::Run
        | Expect::Panic
        | Expect::StarterCompiles
        | Expect::StarterFails
        | Expect::SolutionPasses => exits_cleanly(claim, obs.run.as_ref(), timeout, |run| {
            match sanitize.is_empty() {
                // A sanitizer the side's own `flags=` compiled in: no log
                // of ours, so only a likely reason for a failure.
                true => sanitizer_report(&run.stderr)
                    .map(|r| format!("stopped with a sanitizer report: {r}")),
                false => sanitizer::report(run, sanitize)
                    .filter(|_| sanitizer::stopped_by_checker(run))
                    .map(|(r, _)| format!("stopped with a report of {names}: {r}")),
            }
        }),
        Expect::Ub => {
            // A report is the checker's only with its exit status.
            if let Some(run) = obs.run.as_ref()
                && abnormal(run, timeout).is_none()
                && let Some(verdict) = unproven_report(run, sanitize)
            {
                return (verdict, None);
            }
            let judged = stops_with_report(
                claim,
                obs.run.as_ref(),
                timeout,
                &SoughtReport {
                    // Shown and blessed as the book writes it: `runtime error: …`;
                    // read from the checker's log, never the program's stderr.
                    find: &|run| sanitizer::report(run, sanitize),
                    missing: &|how| {
                        format!(
                            "{names} reported nothing (the program {how}); the side says `expect=ub`"
                        )
                    },
                    mismatch: &format!("the report of {names} does not contain the output block"),
                },
            );
            beside_the_report(judged, obs, sanitize, source_file)
        }
    }
}

/// A report that lacks the output block, told with the whole report
/// beside the block (its first line not found marked), and the short
/// pattern `--bless` writes in its place ([`sanitizer::bless_pattern`]).
fn beside_the_report(
    judged: (Verdict, Option<String>),
    obs: &Observation,
    sanitize: mdbook_companion_core::sanitize::Sanitize,
    source_file: &str,
) -> (Verdict, Option<String>) {
    let (
        Verdict::Failed {
            message,
            expected: Some(expected),
            actual: Some(_),
            detail: None,
            at: None,
        },
        _,
    ) = &judged
    else {
        return judged;
    };
    let Some(run) = obs.run.as_ref() else {
        return judged;
    };
    let (Some(log), Some((_, searched))) =
        (run.report.as_deref(), sanitizer::report(run, sanitize))
    else {
        return judged;
    };
    let (Some(pattern), Some(shown)) = (
        sanitizer::bless_pattern(log, sanitize, source_file),
        sanitizer::shown_report(log, sanitize),
    ) else {
        return judged;
    };
    (
        Verdict::Failed {
            message: message.clone(),
            expected: Some(expected.clone()),
            actual: Some(pattern.clone()),
            detail: Some(sanitizer::mismatch_detail(expected, &searched, &shown)),
            at: None,
        },
        Some(pattern),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::tests::claim;
    use pretty_assertions::assert_eq;

    #[test]
    fn flags_per_outcome() {
        let mut c = claim(Expect::Compile, "int f(void) { return 1; }");
        c.program.lang = Lang::C;
        let j = job(&c.stated(), "cc");
        assert_eq!(j.args.join(" "), "-Wall -c -o prog.o main.c");
        assert_eq!(j.run, None);
        c.expectation.expect = Expect::Ub;
        assert_eq!(
            job(&c.stated(), "cc").args.join(" "),
            "-Wall -g -fsanitize=undefined -fno-sanitize-recover=all -o prog main.c -lm"
        );
        c.program.lang = Lang::Cpp;
        c.expectation.expect = Expect::Run;
        let j = job(&c.stated(), "cc");
        assert_eq!(j.args.join(" "), "-Wall -o prog main.cpp -lstdc++ -lm");
        assert_eq!((j.source_file, j.run), ("main.cpp", Some("prog")));
        c.program.flags = vec!["-Wextra".into(), "-std=c++17".into()];
        assert_eq!(
            job(&c.stated(), "cc").args.join(" "),
            "-Wall -Wextra -std=c++17 -o prog main.cpp -lstdc++ -lm"
        );
    }

    use crate::check::verdict::RunResult;
    use mdbook_companion_core::sanitize::Sanitize;
    use proptest::prelude::*;

    /// Lines a program may print to pass for a checker's report.
    const FORGERIES: [&str; 6] = [
        "==1==ERROR: AddressSanitizer: heap-use-after-free on address 0x602000000010 at pc 0x1 bp 0x2 sp 0x3",
        "==1==ERROR: LeakSanitizer: detected memory leaks",
        "main.c:2:5: runtime error: signed integer overflow: 2147483647 + 1 cannot be represented in type 'int'",
        "WARNING: ThreadSanitizer: data race (pid=1)",
        "==1== Invalid read of size 4",
        "==1== Conditional jump or move depends on uninitialised value(s)",
    ];

    fn forged_text() -> impl Strategy<Value = String> {
        prop::collection::vec(
            prop_oneof![
                prop::sample::select(FORGERIES.to_vec()).prop_map(String::from),
                ".{0,30}"
            ],
            0..6,
        )
        .prop_map(|lines| lines.join("\n"))
    }

    proptest! {
        /// Whatever a program writes on stdout and stderr, and however it
        /// ends, `expect=ub` never holds without the checker's own report.
        #[test]
        fn what_a_program_prints_never_passes_expect_ub(
            stdout in forged_text(),
            stderr in forged_text(),
            code in prop::option::of(0i32..256),
            checker in prop::sample::select(vec!["undefined", "address", "thread", "memcheck", "address,undefined", "thread,undefined"]),
            output in prop::option::of(prop_oneof![prop::sample::select(FORGERIES.to_vec()).prop_map(String::from), ".{0,20}"]),
        ) {
            let mut c = claim(Expect::Ub, "int main(void) { return 0; }");
            c.program.lang = Lang::C;
            c.expectation.sanitize = Sanitize::parse(checker).expect("a valid set");
            c.expectation.output = output;
            let obs = Observation {
                compiled: true,
                inexact: false,
                inert: false,
                diagnostics: String::new(),
                compile_timed_out: false,
                run: Some(RunResult {
                    code,
                    stdout,
                    stderr,
                    timed_out: false,
                    truncated: false,
                    report: None,
                    over_memory: None,
                }),
            };
            let (verdict, _) = judge(&c.stated(), &obs, Duration::from_secs(10));
            prop_assert!(verdict.is_failure(), "{:?}", verdict);
        }
    }

    proptest! {
        /// Whatever a program writes into its checker's log, `expect=ub`
        /// holds only with the checker's exit status: with any other, the
        /// claim fails.
        #[test]
        fn a_report_in_the_log_needs_the_checkers_exit_status(
            log in forged_text(),
            code in prop::option::of(0i32..256).prop_filter("not the checker's", |c| *c != Some(sanitizer::CHECKER_EXIT)),
            checker in prop::sample::select(vec!["undefined", "address", "thread", "memcheck", "address,undefined", "thread,undefined"]),
        ) {
            let mut c = claim(Expect::Ub, "int main(void) { return 0; }");
            c.program.lang = Lang::C;
            c.expectation.sanitize = Sanitize::parse(checker).expect("a valid set");
            let (verdict, _) = judge(&c.stated(), &logged(code, &log), Duration::from_secs(10));
            prop_assert!(verdict.is_failure(), "{:?}", verdict);
        }
    }

    /// A run that wrote `log` to its checker's log and ended with `code`.
    fn logged(code: Option<i32>, log: &str) -> Observation {
        Observation {
            compiled: true,
            inexact: false,
            inert: false,
            diagnostics: String::new(),
            compile_timed_out: false,
            run: Some(RunResult {
                code,
                stdout: String::new(),
                stderr: String::new(),
                timed_out: false,
                truncated: false,
                report: Some(log.to_owned()),
                over_memory: None,
            }),
        }
    }

    #[test]
    fn a_report_counts_with_the_checkers_exit_status_only() {
        let mut c = claim(Expect::Ub, "int main(void) { return 0; }");
        c.program.lang = Lang::C;
        c.expectation.sanitize = Sanitize::parse("memcheck").expect("a valid set");
        c.expectation.output = Some("Invalid read of size 4".into());
        let log = "==7== Invalid read of size 4\n==7==    at 0x1: main (main.c:3)\n";
        let t = Duration::from_secs(10);
        assert_eq!(
            judge(&c.stated(), &logged(Some(99), log), t).0,
            Verdict::Passed
        );
        for (code, how) in [
            (Some(0), "exited successfully"),
            (Some(1), "exited with code 1"),
            (None, "was killed by a signal"),
        ] {
            assert_eq!(
                judge(&c.stated(), &logged(code, log), t).0.to_string(),
                format!(
                    "the log of Memcheck holds a report, but the program {how}, not with the checker's exit status (99): a report counts only with it"
                )
            );
        }
        // The checker's exit status with nothing in its log proves nothing.
        assert!(judge(&c.stated(), &logged(Some(99), ""), t).0.is_failure());
    }

    #[test]
    fn sanitizer_report_is_the_message() {
        let stderr = "main.c:3:12: runtime error: signed integer overflow: 2147483647 + 1 cannot be represented in type 'int'\n";
        assert_eq!(
            sanitizer_report(stderr).as_deref(),
            Some("signed integer overflow: 2147483647 + 1 cannot be represented in type 'int'")
        );
        assert_eq!(sanitizer_report("Aborted\n"), None);
    }
}
