//! Plain blocks of a book, checked as `mdbook test` checks them.
//!
//! rustdoc compiles a block's program with `#![allow(unused)]` on top
//! (here `-A unused`, see [`mdbook_companion_core::doctest::ALLOW`]), stops after
//! analysis (`--emit=metadata`) for `no_run` but compiles a
//! `compile_fail` block fully (so an error only code generation finds,
//! such as a constant that panics when evaluated, counts), builds
//! `test_harness` blocks with `--test`,
//! and judges by exit status alone: `should_panic` passes on any failing
//! exit, a run on success. A `compile_fail` block passes when it does not
//! compile; its error codes are checked on stable too (rustdoc checks them
//! only on nightly), which is the one verdict that may differ from
//! `mdbook test`'s, on purpose.

use super::judge::exits_cleanly;
use super::rustc::{error_codes, first_error, panic_message};
use super::verdict::{Job, Observation, Verdict};
use mdbook_companion_core::claim::Stated;
use mdbook_companion_core::doctest::{ALLOW, Doctest};
use mdbook_companion_core::expect::Expect;
use std::time::Duration;

/// The job of a plain block: a Rust claim's ([`super::rustc::job`],
/// which already stops `no_run` after analysis) with rustdoc's
/// `#![allow(unused)]` and `--test` for `test_harness`, linked without
/// debug information (`-C strip=debuginfo`): a plain block's verdict is
/// its exit status, which the line tables of the standard library and
/// of the book's crates in its program do not change (only a backtrace
/// it prints itself shows fewer lines), and linking them was most of the
/// link of a block that uses the Rust book's trpl, whose libraries carry
/// full debug information (Listing 17-25's figures are on the guide's
/// Performance page).
pub(super) fn job(claim: &Stated<'_>, doctest: &Doctest, rustc: &str) -> Job {
    let mut job = super::rustc::job(claim, rustc);
    let mut extra: Vec<String> = ALLOW.iter().map(|s| (*s).to_owned()).collect();
    extra.extend(["-C".to_owned(), "strip=debuginfo".to_owned()]);
    if doctest.test_harness {
        if let Some(i) = job.args.iter().position(|a| a == "--crate-type") {
            job.args.drain(i..(i + 2).min(job.args.len()));
        }
        extra.push("--test".to_owned());
    }
    // Before `-o main main.rs`.
    let at = job.args.len().saturating_sub(3);
    job.args.splice(at..at, extra);
    job
}

/// What compiling a plain block would show when rustc's lexer stops in
/// it (a bracket, a string or a block comment left open:
/// [`mdbook_companion_core::tokens::lexer_stop`]): rustc stops there,
/// so the block fails to compile, as certainly as a compile would tell.
/// Told without one where the verdict needs no error code (a
/// `compile_fail` block that names none holds; any other plain block
/// fails), with the lexer's words for it ([`Observation::inexact`]);
/// `None` otherwise (a compile tells).
pub(super) fn lexed(claim: &Stated<'_>) -> Option<Observation> {
    let doctest = claim.program.doctest.as_ref()?;
    // Guarded strings (`#"…"#`) are lexed by edition (one token from
    // 2024, three before), which the lexer is not told: a compile tells
    // (the RFCs' `demo!(#"foo"#)` compiles in 2015).
    if claim.expectation.expect == Expect::CompileFail && !doctest.error_codes.is_empty()
        || claim.program.source.contains("#\"")
    {
        return None;
    }
    let (at, what) = mdbook_companion_core::tokens::lexer_stop(&claim.program.source)?;
    let (line, column) = mdbook_companion_core::markdown::line_col(&claim.program.source, at);
    Some(Observation {
        compiled: false,
        diagnostics: format!(
            "error: {what}\n --> main.rs:{line}:{column}\n\nerror: aborting due to 1 previous error\n\n"
        ),
        compile_timed_out: false,
        run: None,
        inexact: true,
        inert: false,
    })
}

/// What compiling a plain block whose crate declares `#![feature(…)]`
/// would show on a stable or beta compiler (`version`, rustc's `-vV`):
/// rustc refuses the attribute outside nightly (E0554), so the block
/// fails to compile, as certainly as a compile would tell. Told without
/// one, as [`lexed`] tells, where the verdict needs no error code;
/// `None` otherwise, on a nightly or dev compiler, and under
/// `RUSTC_BOOTSTRAP` (which lifts the gate).
pub(super) fn gated(claim: &Stated<'_>, version: &str) -> Option<Observation> {
    let doctest = claim.program.doctest.as_ref()?;
    if claim.expectation.expect == Expect::CompileFail && !doctest.error_codes.is_empty()
        || std::env::var_os("RUSTC_BOOTSTRAP").is_some()
    {
        return None;
    }
    let release = version.lines().find_map(|l| l.strip_prefix("release: "))?;
    let channel = match release.split_once('-') {
        None => "stable",
        Some((_, pre)) if pre.starts_with("beta") => "beta",
        Some(_) => return None,
    };
    let source = &claim.program.source;
    if !mdbook_companion_core::tokens::crate_attributes(source)
        .iter()
        .any(|a| a.starts_with("feature(") || a == "feature")
    {
        return None;
    }
    // Where the attribute is, for the report's location (the first
    // `#!` followed by `[feature`).
    let at = source
        .match_indices("#!")
        .map(|(i, _)| i)
        .find(|&i| {
            let rest = source[i + 2..].trim_start();
            rest.strip_prefix('[')
                .is_some_and(|r| r.trim_start().starts_with("feature"))
        })
        .unwrap_or(0);
    let (line, column) = mdbook_companion_core::markdown::line_col(source, at);
    Some(Observation {
        compiled: false,
        diagnostics: format!(
            "error[E0554]: `#![feature]` may not be used on the {channel} release channel\n --> main.rs:{line}:{column}\n\nerror: aborting due to 1 previous error\n\nFor more information about this error, try `rustc --explain E0554`.\n"
        ),
        compile_timed_out: false,
        run: None,
        inexact: true,
        inert: false,
    })
}

/// The verdict on a plain block, and what it printed (its stdout, its
/// panic message, or its first error line), for `adopt`.
pub(super) fn judge(
    claim: &Stated<'_>,
    doctest: &Doctest,
    obs: &Observation,
    timeout: Duration,
) -> (Verdict, Option<String>) {
    if obs.compile_timed_out {
        return (
            Verdict::fail("rustc did not finish within its time limit and was stopped"),
            None,
        );
    }
    match claim.expectation.expect {
        Expect::CompileFail => {
            if obs.compiled {
                return (
                    Verdict::fail("compiled, but the block is marked compile_fail"),
                    None,
                );
            }
            let actual = first_error(&obs.diagnostics);
            let found = error_codes(&obs.diagnostics);
            let missing: Vec<&str> = doctest
                .error_codes
                .iter()
                .filter(|c| !found.contains(c))
                .map(String::as_str)
                .collect();
            if !missing.is_empty() {
                let found = if found.is_empty() {
                    "no error code".to_owned()
                } else {
                    found.join(", ")
                };
                return (
                    Verdict::fail_with(
                        format!(
                            "does not compile, but with {found} instead of {} (rustdoc checks error codes only on nightly; mdbook test on stable would pass this block)",
                            missing.join(", ")
                        ),
                        &obs.diagnostics,
                    ),
                    actual,
                );
            }
            (Verdict::Passed, actual)
        }
        _ if !obs.compiled => (
            Verdict::fail_with("does not compile", &obs.diagnostics),
            None,
        ),
        // A plain block never claims assembly; it compiled.
        Expect::NoRun | Expect::Compile | Expect::Asm => (Verdict::Passed, None),
        Expect::Panic => {
            let Some(run) = obs.run.as_ref() else {
                return (Verdict::fail("the program was not run"), None);
            };
            if run.timed_out {
                return (
                    Verdict::fail(format!(
                        "the program ran longer than the {} s time limit and was killed (config `{}`)",
                        timeout.as_secs(),
                        super::judge::limit_key(claim)
                    )),
                    None,
                );
            }
            if run.code == Some(0) {
                return (
                    Verdict::fail_with(
                        "the program exited successfully; the block is marked should_panic",
                        &run.stdout,
                    ),
                    None,
                );
            }
            (Verdict::Passed, panic_message(&run.stderr))
        }
        // Not run: its run was certain ([`Observation::inert`]).
        Expect::Run if obs.inert && obs.run.is_none() => (Verdict::Passed, None),
        Expect::Run | Expect::Ub => exits_cleanly(claim, obs.run.as_ref(), timeout, |run| {
            panic_message(&run.stderr).map(|m| format!("panicked: {m}"))
        }),
        // An exercise's claims are judged by the harness, never here.
        Expect::StarterCompiles | Expect::StarterFails | Expect::SolutionPasses => (
            Verdict::fail("an exercise's claim is not a plain block's"),
            None,
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::tests::claim;
    use crate::check::verdict::RunResult;
    use mdbook_companion_core::claim::Claim;

    fn plain(expect: Expect, codes: &[&str], harness: bool) -> Claim {
        let mut c = claim(expect, "fn main() {}");
        c.program.doctest = Some(Doctest {
            test_harness: harness,
            error_codes: codes.iter().map(|s| (*s).to_owned()).collect(),
            test_line: 1,
        });
        c
    }

    fn failed(diagnostics: &str) -> Observation {
        Observation {
            compiled: false,
            inexact: false,
            inert: false,
            diagnostics: diagnostics.into(),
            compile_timed_out: false,
            run: None,
        }
    }

    fn ran(code: Option<i32>, stderr: &str) -> Observation {
        Observation {
            compiled: true,
            inexact: false,
            inert: false,
            diagnostics: String::new(),
            compile_timed_out: false,
            run: Some(RunResult {
                code,
                stdout: "out\n".into(),
                stderr: stderr.into(),
                timed_out: false,
                truncated: false,
                report: None,
                over_memory: None,
            }),
        }
    }

    /// A program compiled and not run for its certain run passes a clean
    /// run's claim only: not one that claims a panic, nor a program that
    /// did not compile.
    #[test]
    fn a_certain_run_passes_a_clean_runs_claim_only() {
        let certain = Observation {
            inert: true,
            run: None,
            ..ran(None, "")
        };
        let judged = |expect, obs: &Observation| {
            let c = plain(expect, &[], false);
            let d = c.program.doctest.clone().unwrap();
            judge(&c.stated(), &d, obs, Duration::from_secs(1)).0
        };
        assert_eq!(judged(Expect::Run, &certain), Verdict::Passed);
        assert!(judged(Expect::Panic, &certain).is_failure());
        let not_compiled = Observation {
            inert: true,
            ..failed("error")
        };
        assert!(judged(Expect::Run, &not_compiled).is_failure());
        let not_run = Observation {
            run: None,
            ..ran(None, "")
        };
        assert!(judged(Expect::Run, &not_run).is_failure());
    }

    /// Where the lexer stops, told in characters as rustc tells it (a
    /// byte count put the column after a wide character too far right).
    #[test]
    fn a_lexer_stop_is_located_as_rustc_locates_it() {
        let source = "fn main() {}\nconst \u{c9}: &str = \"\u{e9}\"; )\n";
        let mut c = plain(Expect::CompileFail, &[], false);
        c.program.source = source.to_owned();
        let ours = lexed(&c.stated()).expect("a lexer stop").diagnostics;
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("main.rs"), source).unwrap();
        let out = std::process::Command::new("rustc")
            .args(["--edition", "2021", "main.rs"])
            .current_dir(dir.path())
            .output()
            .expect("rustc runs");
        let located = |text: &str| {
            text.lines()
                .find_map(|l| l.trim_start().strip_prefix("--> "))
                .map(str::to_owned)
        };
        let theirs = located(&String::from_utf8_lossy(&out.stderr));
        assert_eq!(located(&ours), theirs);
        assert_eq!(theirs.as_deref(), Some("main.rs:2:22"));
    }

    #[test]
    fn flags_are_rustdocs() {
        let args = |c: &Stated<'_>| {
            job(c, c.program.doctest.as_ref().unwrap(), "rustc")
                .args
                .join(" ")
        };
        let cf = args(&plain(Expect::CompileFail, &[], false).stated());
        // Compiled fully, as rustdoc does.
        assert!(
            cf.ends_with("-A unused -C strip=debuginfo -o main main.rs"),
            "{cf}"
        );
        let harness = args(&plain(Expect::Run, &[], true).stated());
        assert!(
            harness.ends_with("-A unused -C strip=debuginfo --test -o main main.rs"),
            "{harness}"
        );
        assert!(!harness.contains("--crate-type"), "{harness}");
        let no_run = args(&plain(Expect::NoRun, &[], false).stated());
        assert!(
            no_run.ends_with("--emit=metadata -A unused -C strip=debuginfo -o main main.rs"),
            "{no_run}"
        );
        let run = args(&plain(Expect::Run, &[], false).stated());
        assert!(
            run.ends_with("-A unused -C strip=debuginfo -o main main.rs"),
            "{run}"
        );
    }

    #[test]
    fn verdicts_are_rustdocs() {
        let t = Duration::from_secs(10);
        let verdict =
            |c: &Stated<'_>, o: &Observation| judge(c, c.program.doctest.as_ref().unwrap(), o, t).0;
        let e0382 = "error[E0382]: borrow of moved value\n";
        // compile_fail: any error; codes when written.
        assert_eq!(
            verdict(
                &plain(Expect::CompileFail, &[], false).stated(),
                &failed(e0382)
            ),
            Verdict::Passed
        );
        assert_eq!(
            verdict(
                &plain(Expect::CompileFail, &["E0382"], false).stated(),
                &failed(e0382)
            ),
            Verdict::Passed
        );
        assert!(
            verdict(
                &plain(Expect::CompileFail, &["E0499"], false).stated(),
                &failed(e0382)
            )
            .is_failure()
        );
        assert!(
            verdict(
                &plain(Expect::CompileFail, &[], false).stated(),
                &ran(Some(0), "")
            )
            .is_failure()
        );
        // should_panic: any failing exit, as rustdoc.
        let panic = plain(Expect::Panic, &[], false);
        assert_eq!(verdict(&panic.stated(), &ran(Some(1), "")), Verdict::Passed);
        assert_eq!(verdict(&panic.stated(), &ran(None, "")), Verdict::Passed);
        assert!(verdict(&panic.stated(), &ran(Some(0), "")).is_failure());
        // A run: success, whatever it prints.
        let run = plain(Expect::Run, &[], false);
        assert_eq!(verdict(&run.stated(), &ran(Some(0), "")), Verdict::Passed);
        assert!(verdict(&run.stated(), &ran(Some(101), "")).is_failure());
        assert!(verdict(&run.stated(), &failed("error: x")).is_failure());
        assert_eq!(
            verdict(&plain(Expect::NoRun, &[], false).stated(), &ran(None, "")),
            Verdict::Passed
        );
    }
}
