//! A claim's language as the checker meets it: one backend per kind of
//! language, behind one trait, found by [`of`]: Rust (rustc, or rustdoc's
//! meaning of a plain block), C and C++ (`cc`, its sanitizers and
//! Memcheck), and a language of programs described by a row of data
//! (Python, Go, a book's own: [`mdbook_companion_core::languages`]),
//! compiled and run by the row's commands.

use super::cc;
use super::doctest;
use super::judge::{SoughtReport, compile_verdict, exits_cleanly, stops_with_report};
use super::rustc;
use super::verdict::{Job, Observation, Verdict};
use mdbook_companion_core::claim::Stated;
use mdbook_companion_core::expect::Expect;
use mdbook_companion_core::lang::Lang;
use mdbook_companion_core::languages::{EXE, Language};
use mdbook_companion_core::tokens::{hashes_randomly, starts_threads};
use std::time::Duration;

/// What the checker asks of a language.
pub(super) trait Backend: Sync {
    /// The compile (and run) of `claim`, with `tool` as its compiler.
    fn job(&self, claim: &Stated<'_>, tool: &str) -> Job;

    /// The verdict on `claim` from what happened, and its actual output
    /// in the output block's terms; `run_limit` is the time its program
    /// was given.
    fn judge(
        &self,
        claim: &Stated<'_>,
        obs: &Observation,
        run_limit: Duration,
    ) -> (Verdict, Option<String>);

    /// Whether a run of `claim` is recorded for its Run button.
    fn records_run(&self, expect: Expect) -> bool;

    /// Whether its programs may use the book's crates.
    fn uses_crates(&self) -> bool {
        false
    }

    /// Whether runs of `source` may print differently each time (it
    /// starts threads, or hashes with a random key): `adopt` then runs
    /// it more than once.
    fn runs_may_differ(&self, _source: &str) -> bool {
        false
    }

    /// Whether its compiler's warnings are listed for a claim.
    fn lists_warnings(&self) -> bool {
        false
    }

    /// Whether a recorded run tells how its program ended (its status,
    /// its checker's report): not Rust's, whose panic message says it.
    fn tells_ending(&self) -> bool {
        true
    }
}

/// The backend of `lang`.
pub(super) fn of(lang: Lang) -> &'static dyn Backend {
    match lang {
        Lang::Rust => &Rust,
        Lang::C | Lang::Cpp => &C,
        Lang::Program(row) => row,
    }
}

/// Rust: rustc for a directive's claim, rustdoc's meaning for a plain
/// block.
struct Rust;

impl Backend for Rust {
    fn job(&self, claim: &Stated<'_>, tool: &str) -> Job {
        match &claim.program.doctest {
            Some(d) => doctest::job(claim, d, tool),
            None => rustc::job(claim, tool),
        }
    }

    fn judge(
        &self,
        claim: &Stated<'_>,
        obs: &Observation,
        run_limit: Duration,
    ) -> (Verdict, Option<String>) {
        match &claim.program.doctest {
            Some(d) => doctest::judge(claim, d, obs, run_limit),
            None => rustc::judge(claim, obs, run_limit),
        }
    }

    fn records_run(&self, expect: Expect) -> bool {
        matches!(expect, Expect::Run | Expect::Panic | Expect::CompileFail)
    }

    fn uses_crates(&self) -> bool {
        true
    }

    fn runs_may_differ(&self, source: &str) -> bool {
        starts_threads(source) || hashes_randomly(source)
    }

    fn lists_warnings(&self) -> bool {
        true
    }

    fn tells_ending(&self) -> bool {
        false
    }
}

/// C and C++, through `cc`.
struct C;

impl Backend for C {
    fn job(&self, claim: &Stated<'_>, tool: &str) -> Job {
        cc::job(claim, tool)
    }

    fn judge(
        &self,
        claim: &Stated<'_>,
        obs: &Observation,
        run_limit: Duration,
    ) -> (Verdict, Option<String>) {
        cc::judge(claim, obs, run_limit)
    }

    fn records_run(&self, expect: Expect) -> bool {
        matches!(expect, Expect::Run | Expect::Ub)
    }
}

/// A language of programs: its row's compile command (if any), then its
/// run command, in the program's folder. The compiler's `tool` is the
/// row's own (its first word).
impl Backend for Language {
    fn job(&self, claim: &Stated<'_>, _tool: &str) -> Job {
        let runs = matches!(claim.expectation.expect, Expect::Run | Expect::Panic);
        let compile = self.command(self.compile, ".");
        let (tool, args) = match compile.split_first() {
            Some((tool, args)) => (tool.clone(), args.to_vec()),
            None => (String::new(), Vec::new()),
        };
        Job {
            tool,
            source_file: self.file,
            args,
            run: runs.then_some(EXE),
            run_with: match runs {
                true => self.command(self.run, "."),
                false => Vec::new(),
            },
            env: Vec::new(),
            memcheck: false,
            timeout: None,
        }
    }

    fn judge(
        &self,
        claim: &Stated<'_>,
        obs: &Observation,
        run_limit: Duration,
    ) -> (Verdict, Option<String>) {
        let failed = || {
            let message = obs.diagnostics.trim_end();
            let first = message
                .lines()
                .find(|l| !l.trim().is_empty())
                .map(str::to_owned);
            match &claim.expectation.error {
                Some(words) if !message.contains(words.as_str()) => (
                    Verdict::fail_with(
                        format!("does not compile, but its message does not say `{words}`"),
                        message,
                    ),
                    first,
                ),
                _ => (Verdict::Passed, first),
            }
        };
        if let Some(told) = compile_verdict(claim, obs, self.label, failed) {
            return told;
        }
        match claim.expectation.expect {
            Expect::Run => exits_cleanly(claim, obs.run.as_ref(), run_limit, |run| {
                stopped(self, run).map(|(shown, _)| format!("stopped: {shown}"))
            }),
            Expect::Panic => {
                let label = self.label;
                stops_with_report(
                    claim,
                    obs.run.as_ref(),
                    run_limit,
                    &SoughtReport {
                        find: &|run| stopped(self, run),
                        missing: &|how| {
                            format!(
                                "the program {how}, not with an uncaught error; the side says `expect=panic`"
                            )
                        },
                        mismatch: &format!("the {label} error does not contain the output block"),
                    },
                )
            }
            _ => (Verdict::Passed, None),
        }
    }

    fn records_run(&self, expect: Expect) -> bool {
        matches!(expect, Expect::Run | Expect::Panic)
    }
}

/// The uncaught error that stopped `run`, when `row` says how one ends a
/// program (its exit status, the line its standard error then starts
/// with): that line and what follows up to a blank line, and the whole
/// standard error.
fn stopped(row: &Language, run: &super::verdict::RunResult) -> Option<(String, String)> {
    {
        let (status, marker) = row.panic?;
        if run.code != Some(status) {
            return None;
        }
        let at = run.stderr.find(marker)?;
        let shown: Vec<&str> = run.stderr[at..]
            .lines()
            .take_while(|l| !l.trim().is_empty())
            .collect();
        Some((shown.join("\n"), run.stderr.clone()))
    }
}
