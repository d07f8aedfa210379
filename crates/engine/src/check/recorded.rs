//! The run a reader's Run button replays: what the build saw a Rust
//! claim's program, or a C or C++ side's, do, taken from this run's
//! observations, the cache or `companion.lock`, never from a compiler run
//! of its own. Only a claim that passed is recorded (the page shows
//! verified output), and only one whose program runs or fails to compile
//! (a `no-run` claim has no run to show); never a plain block's, which
//! has no Run button. A C or C++ run keeps how the
//! program ended and its checker's report, with what changes from run to
//! run (ids, addresses, the temporary folder) written `…`.

use super::{CACHE_NAMESPACE, Checker, Observation, Verdict, pattern, sanitizer};
use crate::exec;
use crate::lock;
use mdbook_companion_core::claim::Stated;
use mdbook_companion_core::expect::Expect;
use mdbook_companion_core::run::RecordedRun;

impl Checker {
    /// The recorded run of `claim`, when the build knows it: an
    /// observation of this run or of the cache (whose verdict is
    /// `passed`), else the lock's entry for it. A run names the toolchain
    /// that made it, so the lock's serves whatever compiler is at hand.
    /// A book with no cache is never given one (the compiler's version,
    /// which the cache's keys need, is not even asked).
    pub fn recorded(&self, claim: &Stated<'_>) -> Option<RecordedRun> {
        let runs = super::backend::of(claim.program.lang).records_run(claim.expectation.expect);
        // A plain block has no Run button (mdBook renders it): the lock
        // records its verdict, not a run, and its diagnostics need not
        // be its compile alone's word for word ([`Observation::inexact`]).
        if claim.expectation.ignore || !runs || claim.program.doctest.is_some() {
            return None;
        }
        let tool = self.tool(claim.program.lang).to_owned();
        let version = match self.cache.exists() {
            true => exec::tool_version_cached(&tool, &self.cache),
            false => None,
        };
        if let Some(version) = &version
            && let Ok((_, key)) = self.job_and_key(claim, &tool, version, &self.used(claim))
            && let Some(obs) = self.observed(&key)
        {
            return match self.verdict_of(claim, &obs) {
                Verdict::Passed => {
                    of_observation(claim, &obs, lock::toolchain(version)).map(|mut run| {
                        if let Some(lines) = &claim.program.lines {
                            run.stderr = lines.tell(&run.stderr);
                        }
                        run
                    })
                }
                _ => None,
            };
        }
        let entry = self.lock.as_ref()?.block(&self.claim_key(claim))?;
        entry.run.clone()
    }

    /// Whether `run`, a recorded run of `claim` (the lock's), is one the
    /// claim accepts as this check's run of it: the run this check saw,
    /// or one that differs from it only where the claim lets runs differ
    /// (`[..]`, `...`, `unordered`: an address, a time). A run the claim
    /// does not accept (a forged one) is not, nor one of another compiler,
    /// nor one that differs in anything the output block does not judge
    /// (the stderr of a program that runs, the stdout of one that panics).
    pub fn accepts_recorded(&self, claim: &Stated<'_>, run: &RecordedRun) -> bool {
        let Some(seen) = self.recorded(claim) else {
            return false;
        };
        if seen == *run {
            return true;
        }
        if run.status != seen.status {
            return false;
        }
        if let (Some(locked), Some(now)) = (&run.report, &seen.report)
            && locked != now
        {
            // ThreadSanitizer's report of a race names the threads in
            // the order the schedule gave: another order is the same
            // report, and nothing else of the run may differ.
            let thread = claim
                .expectation
                .sanitize
                .effective(claim.expectation.expect)
                .has(mdbook_companion_core::sanitize::Sanitizer::Thread);
            let same = RecordedRun {
                report: Some(now.clone()),
                ..run.clone()
            };
            return thread && sanitizer::same_but_schedule(locked, now) && same == seen;
        }
        if !varies_only_where_claimed(claim, &seen, run) || run.report != seen.report {
            return false;
        }
        let tool = self.tool(claim.program.lang).to_owned();
        let Some(version) = exec::tool_version_cached(&tool, &self.cache) else {
            return false;
        };
        let Ok((_, key)) = self.job_and_key(claim, &tool, &version, &self.used(claim)) else {
            return false;
        };
        let Some(mut obs) = self.observed(&key) else {
            return false;
        };
        match (&mut obs.run, run.compiled) {
            (_, false) => obs.diagnostics = run.stderr.clone(),
            (Some(r), true) => {
                r.stdout = run.stdout.clone();
                r.stderr = run.stderr.clone();
            }
            (None, true) => return false,
        }
        matches!(self.verdict_of(claim, &obs), Verdict::Passed)
    }

    /// The verdict on `claim` from `obs` (`output-filters` applied), as
    /// the language's judge gives it.
    fn verdict_of(&self, claim: &Stated<'_>, obs: &Observation) -> Verdict {
        let filtered = self.filtered(obs);
        let obs = filtered.as_ref().unwrap_or(obs);
        super::backend::of(claim.program.lang)
            .judge(claim, obs, self.timeout)
            .0
    }

    /// What this run, or the cache, saw the job with `key` do.
    fn observed(&self, key: &str) -> Option<Observation> {
        let memo = self.memo.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(Some((obs, _))) = memo.get(key).and_then(|cell| cell.get()) {
            return Some(obs.clone());
        }
        drop(memo);
        self.cache
            .get(CACHE_NAMESPACE, key)
            .and_then(|b| serde_json::from_slice::<Observation>(&b).ok())
    }
}

/// Whether the lock's `run` differs from the `seen` one only where the
/// claim lets runs differ: in the one stream its output block judges, when
/// the block lets text vary (`[..]`, `...`, `unordered`). The judge then
/// holds the stream to the whole block (a program's output); a stream the
/// block need only be found in (a panic message, the compiler's
/// diagnostics) may differ only in lines that a `[..]` line of the block
/// matches whole, both as locked and as seen. Every other fact of the run
/// is the one this check saw.
fn varies_only_where_claimed(claim: &Stated<'_>, seen: &RecordedRun, run: &RecordedRun) -> bool {
    let RecordedRun {
        compiled,
        stdout,
        stderr,
        toolchain,
        status: _,
        report: _,
    } = run;
    if *compiled != seen.compiled || *toolchain != seen.toolchain {
        return false;
    }
    let Some(output) = claim
        .expectation
        .output
        .as_deref()
        .filter(|o| claim.expectation.unordered || pattern::has_pattern(o))
    else {
        return false;
    };
    match (claim.expectation.expect, compiled) {
        (Expect::Run, true) => *stderr == seen.stderr,
        (Expect::Panic, true) | (Expect::CompileFail, false) => {
            *stdout == seen.stdout && lines_vary_within(output, stderr, &seen.stderr)
        }
        _ => false,
    }
}

/// Whether `locked` and `seen` have the same lines but where a `[..]`
/// line of `output` matches both whole.
fn lines_vary_within(output: &str, locked: &str, seen: &str) -> bool {
    let patterns: Vec<&str> = output
        .lines()
        .map(str::trim_end)
        .filter(|l| l.contains("[..]"))
        .collect();
    let (a, b): (Vec<&str>, Vec<&str>) = (locked.split('\n').collect(), seen.split('\n').collect());
    a.len() == b.len()
        && a.iter().zip(&b).all(|(x, y)| {
            x == y
                || patterns
                    .iter()
                    .any(|p| pattern::matches(p, x.trim_end()) && pattern::matches(p, y.trim_end()))
        })
}

/// The run as the page shows it: the program's streams, or the
/// compiler's error when it did not compile; for C and C++, how the
/// program ended and its checker's report too.
fn of_observation(claim: &Stated<'_>, obs: &Observation, toolchain: String) -> Option<RecordedRun> {
    if !obs.compiled {
        return Some(RecordedRun {
            compiled: false,
            stdout: String::new(),
            stderr: obs.diagnostics.clone(),
            toolchain,
            status: None,
            report: None,
        });
    }
    let run = obs.run.as_ref()?;
    if !super::backend::of(claim.program.lang).tells_ending() {
        return Some(RecordedRun {
            compiled: true,
            stdout: run.stdout.clone(),
            stderr: without_thread_ids(&run.stderr),
            toolchain,
            status: None,
            report: None,
        });
    }
    let sanitize = claim
        .expectation
        .sanitize
        .effective(claim.expectation.expect);
    Some(RecordedRun {
        compiled: true,
        stdout: run.stdout.clone(),
        stderr: sanitizer::normalise(&run.stderr),
        toolchain,
        status: Some(match run.code {
            Some(code) => format!("exited with code {code}"),
            None => "was killed by a signal".to_owned(),
        }),
        report: run
            .report
            .as_deref()
            .and_then(|log| sanitizer::shown_report(log, sanitize)),
    })
}

/// Panic messages without the thread's id (`thread 'main' (31897)
/// panicked at`), which differs from run to run: the lock stays the
/// same for the same book.
fn without_thread_ids(stderr: &str) -> String {
    static ID: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let id = ID.get_or_init(|| {
        regex::Regex::new(r"(?m)^thread '([^'\n]*)' \(\d+\) panicked").expect("a valid pattern")
    });
    id.replace_all(stderr, "thread '$1' panicked").into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thread_ids_are_left_out_of_panic_messages() {
        assert_eq!(
            without_thread_ids("before\nthread 'main' (31897) panicked at main.rs:2:5:\nboom\n"),
            "before\nthread 'main' panicked at main.rs:2:5:\nboom\n"
        );
        assert_eq!(
            without_thread_ids("thread 'main' panicked at a.rs:1:1:\n"),
            "thread 'main' panicked at a.rs:1:1:\n"
        );
    }
}
