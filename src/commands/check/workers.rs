//! The claims checked on a pool of workers: merged builds made while the
//! claims none of them takes are checked, a progress bar on the way.

use super::report::progress_bar;
use crate::book::verify::{namer, placed};
use mdbook_companion_core::claim::Claim;
use mdbook_companion_engine::check::{Checker, Outcome};
use rayon::prelude::*;

/// The worker pool: `jobs` threads, or one per core.
pub fn pool(jobs: Option<usize>) -> anyhow::Result<rayon::ThreadPool> {
    let jobs = jobs
        .filter(|&j| j > 0)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    Ok(rayon::ThreadPoolBuilder::new().num_threads(jobs).build()?)
}

/// Every claim checked on a pool of `jobs` workers, merged builds made
/// while the claims no merged build takes are checked (unless
/// `no_merge`), a progress bar when `progress`.
pub(super) fn check_all(
    checker: &Checker,
    claims: &[Claim],
    jobs: Option<usize>,
    progress: bool,
    no_merge: bool,
) -> anyhow::Result<Vec<Outcome>> {
    let pool = pool(jobs)?;
    let bar = progress_bar(progress, claims.len());
    // The engine knows each claim by its index here, and names it in its
    // traces as the namer says; its failures are placed in the chapter.
    checker.name_claims(Some(namer(claims.iter())));
    let check = |(i, c): (usize, &Claim)| {
        let o = placed(checker.check(&c.stated().numbered(i)), &c.origin);
        if let Some(bar) = &bar {
            bar.inc(1);
        }
        o
    };
    let outcomes: Vec<Outcome> = pool.install(|| {
        if no_merge {
            return claims.par_iter().enumerate().map(check).collect();
        }
        // What no merged build takes is checked while they are built, so
        // that no worker waits for the last of them; the builds whose
        // programs sleep compile first (planned before anything starts;
        // the builds on this worker, whose compiles the others' wait for:
        // with one worker, the builds are made before the rest).
        let stated: Vec<_> = (claims.iter().enumerate())
            .map(|(i, c)| c.stated().numbered(i))
            .collect();
        let plan = checker.plan(&stated);
        let ((), alone) = rayon::join(
            || checker.build(plan),
            || {
                (claims.par_iter().enumerate())
                    .map(|(i, c)| (!checker.merges(&c.stated())).then(|| check((i, c))))
                    .collect::<Vec<Option<Outcome>>>()
            },
        );
        (claims.par_iter().enumerate())
            .zip(alone)
            .map(|(ic, o)| o.unwrap_or_else(|| check(ic)))
            .collect()
    });
    checker.name_claims(None);
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    Ok(outcomes)
}
