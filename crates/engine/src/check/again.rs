//! Running a program again: a second run when its output differs from
//! the book's (output that varies from run to run is told so, not as a
//! mismatch), and the further runs `adopt` makes to keep only what every
//! run agrees on.

use super::verdict::{Observation, Verdict, normalize};
use super::{Checker, judge};
use crate::cache::Cache;
use crate::exec;
use mdbook_companion_core::claim::Stated;
use std::time::Duration;

/// The cache namespace of second runs (output that may vary), by the
/// first run's key.
const AGAIN_NAMESPACE: &str = "check-again";

/// The cache namespace of the further runs of a program that starts
/// threads ([`THREAD_RUNS`]), by the first run's key.
const RUNS_NAMESPACE: &str = "check-runs";

/// How many times `adopt` runs a program that starts threads or hashes
/// with a random key: their output can change from run to run while two
/// runs agree (Rust by Example's `std_misc/channels.md` prints its
/// channel's messages in another order on about one run in five, and
/// `std/hash.md` its three `HashMap` entries in the same order on one
/// pair of runs in six), so one compile is run this many times, or for 5
/// seconds if that comes first.
pub(super) const THREAD_RUNS: usize = 24;

/// How long the further runs of a program that starts threads may take
/// together before no more are started.
const THREAD_RUNS_TIME: Duration = Duration::from_secs(5);

impl Checker {
    /// `verdict` on `claim`, whose program printed `actual`, or, when
    /// its output differs from the book's, the failure of an output that
    /// varies if a second run (once per program: it is cached too) prints
    /// something else.
    pub(super) fn judged_again(
        &self,
        claim: &Stated<'_>,
        verdict: Verdict,
        actual: Option<&str>,
    ) -> Verdict {
        if is_output_mismatch(&verdict)
            && let Some(second) = self.again(claim)
        {
            let (_, again) = self.judge(claim, &second);
            if again.as_deref() != actual {
                return varies(claim, actual, again.as_deref());
            }
        }
        verdict
    }

    /// A second observation of `claim`'s program, compiled and run again
    /// (from the cache when it was made before); `None` when the claim
    /// cannot be compiled here.
    pub fn again(&self, claim: &Stated<'_>) -> Option<Observation> {
        let tool = self.tool(claim.program.lang).to_owned();
        let version = exec::tool_version_cached(&tool, &self.cache)?;
        let used = self.used(claim);
        let (mut job, key) = self.job_and_key(claim, &tool, &version, &used).ok()?;
        if let Some(obs) = self.cached(AGAIN_NAMESPACE, &key) {
            return Some(obs);
        }
        if !used.is_empty() {
            self.link_crates(&mut job, claim.program.mode, &used).ok()?;
        }
        let obs = self.execute(&job, &claim.program.source)?;
        self.store(AGAIN_NAMESPACE, &key, &obs);
        Some(obs)
    }

    /// What `claim`'s program printed on further runs, in the terms of
    /// its verdict's `actual` (for `adopt`, which keeps only what is the
    /// same on all): one run, or `THREAD_RUNS` of one compile for a
    /// program that starts threads or hashes with a random key.
    pub fn other_actuals(&self, claim: &Stated<'_>) -> Vec<String> {
        let backend = super::backend::of(claim.program.lang);
        let runs = match backend.runs_may_differ(&claim.program.source) {
            true => self.runs(claim, THREAD_RUNS),
            false => self.again(claim).into_iter().collect(),
        };
        runs.iter()
            .filter_map(|obs| self.judge(claim, obs).1)
            .collect()
    }

    /// `runs` observations of `claim`'s program, compiled once (from the
    /// cache when they were made before).
    fn runs(&self, claim: &Stated<'_>, runs: usize) -> Vec<Observation> {
        let tool = self.tool(claim.program.lang).to_owned();
        let Some(version) = exec::tool_version_cached(&tool, &self.cache) else {
            return Vec::new();
        };
        let used = self.used(claim);
        let Ok((mut job, key)) = self.job_and_key(claim, &tool, &version, &used) else {
            return Vec::new();
        };
        let key = Cache::key(&[key.as_bytes(), b"runs", runs.to_string().as_bytes()]);
        if let Some(cached) = self
            .cache
            .get(RUNS_NAMESPACE, &key)
            .and_then(|b| serde_json::from_slice::<Vec<Observation>>(&b).ok())
        {
            return cached;
        }
        if !used.is_empty()
            && self
                .link_crates(&mut job, claim.program.mode, &used)
                .is_err()
        {
            return Vec::new();
        }
        let observed = self.execute_runs(&job, &claim.program.source, runs, THREAD_RUNS_TIME);
        if let Ok(bytes) = serde_json::to_vec(&observed) {
            self.cache.put(RUNS_NAMESPACE, &key, &bytes);
        }
        observed
    }
}

/// Whether `verdict` is an output block's mismatch (what a second run
/// may tell apart from output that varies).
fn is_output_mismatch(verdict: &Verdict) -> bool {
    matches!(verdict, Verdict::Failed { message, .. } if message == judge::OUTPUT_DIFFERS)
}

/// The failure of a program whose two runs printed different things.
fn varies(claim: &Stated<'_>, first: Option<&str>, second: Option<&str>) -> Verdict {
    let first = first.unwrap_or_default();
    let second = second.unwrap_or_default();
    Verdict::Failed {
        message: "the output varies between runs (it was run twice); write the lines that come in any order as ```output unordered, a varying span as [..]".into(),
        expected: claim.expectation.output.as_deref().map(normalize),
        actual: Some(first.to_owned()),
        detail: Some(format!(
            "first run:\n{first}\n\nsecond run:\n{second}"
        )),
        at: None,
    }
}
