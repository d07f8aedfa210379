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

/// Every claim checked on a pool of `jobs` workers: those the cache
/// answers first, then the rest, merged builds made while the claims no
/// merged build takes are checked (unless `no_merge`), a progress bar
/// when `progress`.
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
    let outcomes: Option<Vec<Outcome>> = pool.install(|| {
        // What the cache answers first (a warm check: all of it), so that
        // nothing is planned for claims that need no compiler.
        let cached: Vec<Option<Outcome>> = (claims.par_iter().enumerate())
            .map(|(i, c)| {
                let o = checker
                    .check_cached(&c.stated().numbered(i))
                    .map(|o| placed(o, &c.origin));
                if let (Some(bar), Some(_)) = (&bar, &o) {
                    bar.inc(1);
                }
                o
            })
            .collect();
        let cold: Vec<(usize, &Claim)> = (claims.iter().enumerate().zip(&cached))
            .filter_map(|(ic, o)| o.is_none().then_some(ic))
            .collect();
        let mut checked = match no_merge {
            true => cold.par_iter().map(|&ic| check(ic)).collect(),
            false => merged_and_alone(checker, &cold, &check),
        }
        .into_iter();
        cached
            .into_iter()
            .map(|o| o.or_else(|| checked.next()))
            .collect()
    });
    checker.name_claims(None);
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    outcomes.ok_or_else(|| anyhow::anyhow!("internal error: a claim was left unchecked"))
}

/// `claims` checked, merged builds made while the claims no merged build
/// takes are checked: what no merged build takes is checked while they
/// are built, so that no worker waits for the last of them; the builds
/// whose programs sleep compile first (planned before anything starts,
/// their compiles reserved before any other). The builds go on a thread
/// of their own, not a worker's: a worker waiting for them would leave
/// the claims no merged build takes to the others (with two workers, one
/// compile at a time while the merged programs run; the Reference's
/// cold check had a core a quarter idle for two of its three seconds).
/// With one worker, the builds are made (and their programs run) before
/// the rest, as `--jobs 1` promises: one thing at a time, in that order.
fn merged_and_alone(
    checker: &Checker,
    claims: &[(usize, &Claim)],
    check: &(impl Fn((usize, &Claim)) -> Outcome + Sync),
) -> Vec<Outcome> {
    let stated: Vec<_> = (claims.iter())
        .map(|(i, c)| c.stated().numbered(*i))
        .collect();
    let plan = checker.plan(&stated);
    let rest = || {
        (claims.par_iter())
            .with_max_len(1)
            .map(|&(i, c)| (!checker.merges(&c.stated())).then(|| check((i, c))))
            .collect::<Vec<Option<Outcome>>>()
    };
    let alone = match rayon::current_num_threads() {
        1 => {
            checker.build(plan);
            rest()
        }
        _ => std::thread::scope(|s| {
            s.spawn(|| checker.build(plan));
            rest()
        }),
    };
    (claims.par_iter())
        .zip(alone)
        .with_max_len(1)
        .map(|(&ic, o)| o.unwrap_or_else(|| check(ic)))
        .collect()
}
