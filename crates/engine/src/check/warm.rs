//! A claim answered from the cache alone: what [`Checker::check`] gives
//! a claim whose observation an earlier run left in the cache, without
//! planning a merged build, compiling or running anything. `check` asks
//! this of every claim first, so a warm check plans no merged build.

use super::{CACHE_NAMESPACE, Checker, Expect, Outcome, Stated, exec};
use mdbook_companion_core::sanitize::Sanitizer;
use std::sync::Arc;
use std::sync::atomic::Ordering;

impl Checker {
    /// The outcome of `claim` when an earlier run left its observation
    /// in the cache (or this run made it already): what
    /// [`Checker::check`] gives it, without planning, building or running
    /// anything; `None` when it would need any of those. A warm check
    /// answers every claim this way before it plans a merged build.
    pub fn check_cached(&self, claim: &Stated<'_>) -> Option<Outcome> {
        if claim.expectation.ignore {
            return Some(self.check(claim));
        }
        if claim.expectation.expect == Expect::Asm
            || (claim.expectation.sanitize.has(Sanitizer::Memcheck)
                && claim.expectation.expect.runs())
        {
            return None;
        }
        let tool = self.tool(claim.program.lang);
        let version = exec::tool_version_cached(tool, &self.cache)?;
        let used = self.used(claim);
        let (_, key) = self.job_and_key(claim, tool, &version, &used).ok()?;
        let cell = {
            let mut memo = self.memo.lock().unwrap_or_else(|e| e.into_inner());
            Arc::clone(memo.entry(key.clone()).or_default())
        };
        let seen = match cell.get() {
            Some(seen) => seen,
            None => {
                let obs = self
                    .cached(CACHE_NAMESPACE, &key)
                    .filter(|obs| !(obs.told() && self.exact()))?;
                cell.get_or_init(|| Some((obs, true)))
            }
        };
        let (obs, cached) = seen.as_ref()?;
        if *cached {
            self.cache_hits.fetch_add(1, Ordering::Relaxed);
        }
        Some(self.outcome(claim, obs, *cached))
    }
}
