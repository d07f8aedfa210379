//! Rust claims: how `rustc` is called, and what its result means for
//! `expect=run | panic | compile-fail | no-run`.
//!
//! Flags mirror Cargo's profiles, which is what the Playground's modes are:
//! `mode=debug` is `-C opt-level=0 -C debug-assertions=on -C
//! overflow-checks=on` (the dev profile), `mode=release` is `-C
//! opt-level=3 -C debug-assertions=off -C overflow-checks=off`. Debug info
//! is off in both: it changes no behaviour and costs link time. Programs
//! run with `RUST_BACKTRACE=0`, so a panic's stderr is its message.
//! `expect=no-run` stops after analysis (`--emit=metadata`), as rustdoc
//! does for `no_run`; `compile-fail` compiles fully, so an error that only
//! code generation finds still counts.

use super::judge::{SoughtReport, exits_cleanly, fitted, stops_with_report, wrong_error_line};
use super::verdict::{Job, Observation, Verdict, contains_normalized, normalize};
use mdbook_companion_core::claim::Stated;
use mdbook_companion_core::expect::Expect;
use mdbook_companion_core::links::Mode;
use std::time::Duration;

/// The compile (and run) job of a Rust claim: an exercise's claims
/// compile a test crate (`--test`) and run its harness one test at a time.
pub fn job(claim: &Stated<'_>, rustc: &str) -> Job {
    let crate_type: &[&str] = match claim.expectation.expect.tests() {
        true => &["--test"],
        false => &["--crate-type", "bin"],
    };
    let (opt, checks) = match claim.program.mode {
        Mode::Debug => ("0", "on"),
        Mode::Release => ("3", "off"),
    };
    let edition = claim.program.edition.to_string();
    let args = ["--edition", &edition]
        .iter()
        .chain(crate_type)
        .chain(&[
            "--crate-name",
            "main",
            "-C",
            &format!("opt-level={opt}"),
            "-C",
            &format!("debug-assertions={checks}"),
            "-C",
            &format!("overflow-checks={checks}"),
            "-C",
            "debuginfo=0",
            "--color",
            "never",
            "-o",
            "main",
            "main.rs",
        ])
        .map(|s| (*s).to_owned())
        .collect::<Vec<String>>();
    let mut args = args;
    // `#![crate_name = "..."]` must match `--crate-name`; the file's name
    // gives the same `main` otherwise.
    if claim.program.source.contains("crate_name")
        && let Some(i) = args.iter().position(|a| a == "--crate-name")
    {
        args.drain(i..i + 2);
    }
    if claim.expectation.expect == Expect::NoRun {
        // As rustdoc does for `no_run`: type-check and borrow-check the
        // program, skip code generation and linking.
        args.insert(args.len() - 3, "--emit=metadata".to_owned());
    }
    Job {
        tool: rustc.to_owned(),
        source_file: "main.rs",
        args,
        run: claim.expectation.expect.runs().then_some("main"),
        run_with: Vec::new(),
        env: match claim.expectation.expect.tests() {
            true => vec![("RUST_BACKTRACE", "0"), ("RUST_TEST_THREADS", "1")],
            false => vec![("RUST_BACKTRACE", "0")],
        },
        memcheck: claim.expectation.expect.runs()
            && claim
                .expectation
                .sanitize
                .has(mdbook_companion_core::sanitize::Sanitizer::Memcheck),
        timeout: None,
    }
}

/// The panic message in a panicking program's stderr: the text after
/// `thread '…' panicked at file:line:col:` up to the `note:` line.
pub fn panic_message(stderr: &str) -> Option<String> {
    let start = stderr.find("panicked at ")?;
    let rest = &stderr[start..];
    let body = rest.split_once('\n').map_or("", |(_, b)| b);
    let mut lines = Vec::new();
    for line in body.lines() {
        if line.starts_with("note: ") {
            break;
        }
        lines.push(line);
    }
    Some(normalize(&lines.join("\n")))
}

/// The first error line of rustc's diagnostics (`error[E0381]: …`).
pub(crate) fn first_error(diagnostics: &str) -> Option<String> {
    diagnostics
        .lines()
        .find(|l| l.starts_with("error"))
        .map(|l| l.trim_end().to_owned())
}

/// The error codes in rustc's diagnostics.
pub fn error_codes(diagnostics: &str) -> Vec<String> {
    diagnostics
        .lines()
        .filter_map(|l| l.strip_prefix("error["))
        .filter_map(|l| l.split_once(']'))
        .map(|(code, _)| code.to_owned())
        .collect()
}

/// The verdict on a Rust claim from what happened, and the actual output
/// in the output block's terms.
pub fn judge(
    claim: &Stated<'_>,
    obs: &Observation,
    timeout: Duration,
) -> (Verdict, Option<String>) {
    if claim.expectation.expect.tests() {
        return super::harness::judge(claim, obs, timeout);
    }
    if obs.compile_timed_out {
        return (
            Verdict::fail("rustc did not finish within its time limit and was stopped"),
            None,
        );
    }
    match claim.expectation.expect {
        Expect::CompileFail => {
            let actual = first_error(&obs.diagnostics);
            if obs.compiled {
                return (
                    Verdict::fail("compiled, but the example says it does not compile"),
                    None,
                );
            }
            if let Some(code) = &claim.expectation.error {
                let codes = error_codes(&obs.diagnostics);
                if !codes.contains(code) {
                    let found = if codes.is_empty() {
                        "no error code".to_owned()
                    } else {
                        codes.join(", ")
                    };
                    return (
                        Verdict::fail_with(
                            format!("does not compile, but with {found} instead of {code}"),
                            &obs.diagnostics,
                        ),
                        actual,
                    );
                }
            }
            if let Some(v) = wrong_error_line(claim, &obs.diagnostics, "main.rs") {
                return (v, actual);
            }
            if let Some(expected) = &claim.expectation.output
                && !contains_normalized(&obs.diagnostics, expected)
            {
                let actual = actual.map(|a| fitted(Some(expected), a));
                return (
                    Verdict::Failed {
                        message: "the compiler's diagnostics do not contain the output block"
                            .into(),
                        expected: Some(normalize(expected)),
                        actual: actual.clone(),
                        detail: Some(obs.diagnostics.clone()),
                        at: None,
                    },
                    actual,
                );
            }
            (Verdict::Passed, actual)
        }
        _ if !obs.compiled => (
            Verdict::fail_with("does not compile", &obs.diagnostics),
            None,
        ),
        Expect::NoRun | Expect::Compile | Expect::Asm => (Verdict::Passed, None),
        Expect::Run
        | Expect::Ub
        | Expect::StarterCompiles
        | Expect::StarterFails
        | Expect::SolutionPasses => exits_cleanly(claim, obs.run.as_ref(), timeout, |run| {
            panic_message(&run.stderr).map(|m| format!("panicked: {m}"))
        }),
        Expect::Panic => stops_with_report(
            claim,
            obs.run.as_ref(),
            timeout,
            &SoughtReport {
                find: &|run| {
                    panic_message(&run.stderr)
                        .filter(|_| run.code == Some(101))
                        .map(|m| (m.clone(), m))
                },
                missing: &|how| format!("the program {how}; the example says it panics"),
                mismatch: "the panic message does not contain the output block",
            },
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn panic_message_is_the_text_after_the_location() {
        let stderr = "\nthread 'main' (123) panicked at main.rs:2:5:\nattempt to divide by zero\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n";
        assert_eq!(
            panic_message(stderr).as_deref(),
            Some("attempt to divide by zero")
        );
        let multi = "thread 'main' panicked at main.rs:1:1:\nline one\nline two\n";
        assert_eq!(panic_message(multi).as_deref(), Some("line one\nline two"));
        assert_eq!(panic_message("Segmentation fault"), None);
    }

    #[test]
    fn error_codes_and_first_error() {
        let d = "warning: unused\nerror[E0381]: used binding `x` isn't initialized\n --> main.rs:3:5\nerror[E0384]: cannot assign twice\nerror: aborting due to 2 previous errors\n";
        assert_eq!(error_codes(d), ["E0381", "E0384"]);
        assert_eq!(
            first_error(d).as_deref(),
            Some("error[E0381]: used binding `x` isn't initialized")
        );
    }

    #[test]
    fn flags_mirror_cargo_profiles() {
        let mut claim = crate::check::tests::claim(Expect::Run, "fn main() {}");
        let debug = job(&claim.stated(), "rustc").args.join(" ");
        assert!(
            debug.contains(
                "-C opt-level=0 -C debug-assertions=on -C overflow-checks=on -C debuginfo=0"
            ),
            "{debug}"
        );
        claim.program.mode = Mode::Release;
        claim.program.edition = 2024;
        let release = job(&claim.stated(), "rustc");
        let release_args = release.args.join(" ");
        assert!(
            release_args.starts_with("--edition 2024 --crate-type bin"),
            "{release_args}"
        );
        assert!(
            release_args.contains("-C opt-level=3 -C debug-assertions=off -C overflow-checks=off"),
            "{release_args}"
        );
        assert_eq!(release.run, Some("main"));
        claim.expectation.expect = Expect::NoRun;
        let no_run = job(&claim.stated(), "rustc");
        assert_eq!(no_run.run, None);
        assert!(
            no_run
                .args
                .join(" ")
                .ends_with("--emit=metadata -o main main.rs"),
            "{:?}",
            no_run.args
        );
    }
}
