//! Which merged builds a check makes ([`super::merge`]): the cold Rust
//! claims a merged build may take, grouped by flags, cut into as many
//! builds as workers, those whose programs sleep first (the longest
//! sleeper compiled alone, with the machine to itself).

use super::Checker;
use super::merge_crate::{Member, harnessed, merged_job};
use super::programs;
use super::verdict::Job;
use crate::exec;
use mdbook_companion_core::claim::Stated;
use mdbook_companion_core::expect::Expect;
use mdbook_companion_core::lang::Lang;
use mdbook_companion_core::tokens::{sleep_millis, uses_gated_syntax};
use std::collections::{BTreeMap, HashMap, HashSet};

/// How long a program must say it sleeps ([`sleep_millis`]) for its
/// build to have the machine to itself ([`programs::Programs::sole`]):
/// longer than the rest of most books' checks.
const LONG_SLEEP_MS: u64 = 5_000;

/// What a group's members share: their flags (`rustc`'s arguments),
/// whether they link the book's crates, whether they are expected to
/// fail, whether their code is likely to fail though it is not expected
/// to ([`uses_gated_syntax`]: one such block in a group of blocks that
/// compile makes the whole group build again, a cost kept to its like);
/// and the group's number among groups that share those, whose
/// members' names at the crate's root differ ([`Checker::plan`]).
type GroupKey = (String, bool, bool, bool, usize);

/// The merged builds a check is to make ([`Checker::plan`]): each group
/// of members, and, when its programs sleep, the place of its compile
/// among those that go first (the longest sleeper's at 0).
#[derive(Default)]
pub struct Plan<'a> {
    chunks: Vec<(Option<usize>, Vec<Member<'a>>)>,
}

impl Checker {
    /// Compiles the cold Rust claims of `claims` that can share a crate
    /// together (examples and plain blocks, expected failures among them),
    /// so that [`Checker::check`] finds their observations computed.
    /// Claims in the cache or answered by the lock (a build's checker), and
    /// claims a merged build cannot take, are left to it.
    pub fn prepare(&self, claims: &[Stated<'_>]) {
        self.build(self.plan(claims));
    }

    /// The merged builds [`Checker::build`] is to make of `claims`, those
    /// whose programs sleep first. Their compiles go before any other
    /// compile of this checker's from now on (a compile alone included),
    /// until each has started: the book waits for their programs' end. So
    /// [`Checker::build`] must follow, on a thread no compile it makes
    /// waits for.
    pub fn plan<'a>(&self, claims: &'a [Stated<'a>]) -> Plan<'a> {
        let tool = self.tool(Lang::Rust).to_owned();
        let Some(version) = exec::tool_version_cached(&tool, &self.cache) else {
            return Plan::default();
        };
        let groups = self.groups(claims, &tool, &version);
        // As many builds as workers, so that front ends run side by side.
        let workers = rayon::current_num_threads().max(1);
        let chunks = chunks(groups, workers);
        self.ordered(chunks, workers)
    }

    /// The members of `claims` a merged build may take, not in the cache
    /// nor answered by the lock, grouped by what a build must share.
    fn groups<'a>(
        &self,
        claims: &'a [Stated<'a>],
        tool: &str,
        version: &str,
    ) -> BTreeMap<GroupKey, Vec<Member<'a>>> {
        let mut seen = HashSet::new();
        // Same flags (edition, mode, emit, test crate or binary, a plain
        // block's or an example's), and whether the book's crates are
        // linked (a crate for those that use any, with the `--extern`s of
        // every crate its members use; one for those that use none).
        // Expected failures apart from the rest: rustc tells a crate's
        // errors phase by phase (what the lexer and macro expansion stop
        // at; then name resolution and item checks; then type and borrow
        // checks; then late lints; then errors found while generating
        // code), each only once the earlier phases had none, so a group
        // whose failing members fail in k phases is built k + 1 times:
        // the blocks that compile are better not built again with them.
        // Each group's names at the crate's root (exported macros, linker
        // symbols: [`super::mergeable::at_the_root`]), which two members
        // may not share: a member whose name is taken goes to the next
        // group of the same flags (the number last in the key).
        let mut groups: BTreeMap<GroupKey, Vec<Member<'_>>> = BTreeMap::new();
        let mut taken: HashMap<GroupKey, HashSet<(bool, String)>> = HashMap::new();
        for claim in claims.iter().filter(|c| self.merges(c)) {
            let used = self.used(claim);
            let Ok((job, key)) = self.job_and_key(claim, tool, version, &used) else {
                continue;
            };
            if !seen.insert(key.clone())
                || self.cache.get(super::CACHE_NAMESPACE, &key).is_some()
                || self.locked_outcome(claim, Some(version)).is_some()
            {
                continue;
            }
            let names = super::mergeable::at_the_root(&claim.program.source).unwrap_or_default();
            let names: Vec<(bool, String)> = (names.macros.into_iter().map(|m| (true, m)))
                .chain(names.symbols.into_iter().map(|s| (false, s)))
                .collect();
            let flags = (
                merged_job(&job).args.join(" "),
                !used.is_empty(),
                claim.expectation.expect == Expect::CompileFail,
                claim.expectation.expect != Expect::CompileFail
                    && uses_gated_syntax(&claim.program.source),
            );
            let group = (0..)
                .map(|n| (flags.0.clone(), flags.1, flags.2, flags.3, n))
                .find(|g| {
                    taken
                        .get(g)
                        .is_none_or(|t| names.iter().all(|n| !t.contains(n)))
                })
                .unwrap_or_default();
            taken.entry(group.clone()).or_default().extend(names);
            groups.entry(group).or_default().push(Member {
                key,
                claim,
                job,
                used,
            });
        }
        groups
    }

    /// The merged builds of `chunks`, those whose programs sleep first
    /// (the longest sleeper's first), their compiles reserved in that
    /// order.
    fn ordered<'a>(&self, chunks: Vec<Vec<Member<'a>>>, workers: usize) -> Plan<'a> {
        // Groups whose programs sleep first: their runs are the longest,
        // and go on while the others build. Each group on a thread of its
        // own, compilers one per worker ([`programs::Programs::compile`]):
        // a group whose programs run does not keep the next from building.
        self.programs.set_workers(workers);
        // (A member alone is compiled alone, by the check that takes it.)
        let mut chunks: Vec<(bool, Vec<Member<'a>>)> = chunks
            .into_iter()
            .map(|c| {
                let sleeps = match c.as_slice() {
                    [one] => sleep_millis(&one.claim.program.source) >= LONG_SLEEP_MS,
                    _ => c.iter().any(|m| programs::sleeps(&m.claim.program.source)),
                };
                (sleeps, c)
            })
            .collect();
        // The longest sleeper's first, each sleeping group's compile
        // reserved in that order.
        chunks.sort_by_cached_key(|(sleeps, c)| {
            let longest = c
                .iter()
                .map(|m| sleep_millis(&m.claim.program.source))
                .max();
            (!sleeps, std::cmp::Reverse(longest.unwrap_or(0)))
        });
        let sleeping = chunks.iter().filter(|(sleeps, _)| *sleeps).count();
        let at = self.programs.reserve_first(sleeping);
        // A program that sleeps for seconds is what the book waits for:
        // its build has the machine to itself.
        let longest = chunks
            .first()
            .filter(|(sleeps, _)| *sleeps)
            .and_then(|(_, c)| {
                c.iter()
                    .map(|m| sleep_millis(&m.claim.program.source))
                    .max()
            });
        if longest.is_some_and(|ms| ms >= LONG_SLEEP_MS) {
            self.programs.sole(at);
        }
        let chunks = chunks
            .into_iter()
            .enumerate()
            .map(|(n, (sleeps, c))| (sleeps.then_some(at + n), c))
            .collect();
        Plan { chunks }
    }

    /// Makes the merged builds of `plan`, each group on a thread of its
    /// own, compilers one per worker: a
    /// group whose programs run does not keep the next from building.
    pub fn build(&self, plan: Plan<'_>) {
        let workers = self.programs.workers();
        let threads = plan.chunks.len().min(workers * programs::PER_WORKER);
        // The empty programs the groups' binaries are read against
        // ([`super::merge_reach`]), one per compiler and flags, built
        // beside the groups' first compiles rather than after them (a
        // fifth of a second's compile, outside the workers' slots).
        let mut baselines: Vec<(Job, bool)> = Vec::new();
        for (_, c) in &plan.chunks {
            if let [m, _, ..] = c.as_slice()
                && c.iter().any(|m| m.job.run.is_some())
                && !baselines
                    .iter()
                    .any(|(j, _)| j.args == merged_job(&m.job).args)
            {
                baselines.push((merged_job(&m.job), harnessed(m.claim)));
            }
        }
        let queue = std::sync::Mutex::new(plan.chunks.into_iter());
        std::thread::scope(|s| {
            for (job, tests) in &baselines {
                s.spawn(|| self.baselines.prepare(&self.cache, job, *tests));
            }
            for _ in 0..threads {
                s.spawn(|| {
                    loop {
                        let next = (queue.lock().unwrap_or_else(|e| e.into_inner())).next();
                        match next {
                            Some((first, c)) => self.build_merged(c, first),
                            None => break,
                        }
                    }
                });
            }
        });
    }
}

/// The groups cut into builds of about equal size, as many as `workers`
/// per group; a program that sleeps for seconds alone, a few that sleep
/// in a small build of their own.
fn chunks(groups: BTreeMap<GroupKey, Vec<Member<'_>>>, workers: usize) -> Vec<Vec<Member<'_>>> {
    let mut chunks = Vec::new();
    for (key, mut members) in groups {
        // A program that says it sleeps for seconds ([`sleep_millis`])
        // is compiled alone, first, with the machine to itself: the
        // longest program is a book's floor (the Rust book's Listing
        // 17-25, ten seconds, would otherwise wait for a build of ten
        // blocks that link an async runtime).
        let longest = members
            .iter()
            .enumerate()
            .map(|(i, m)| (sleep_millis(&m.claim.program.source), i))
            .max();
        if let Some((ms, i)) = longest.filter(|(ms, _)| *ms >= LONG_SLEEP_MS) {
            tracing::debug!("sleeps {ms} ms: compiled alone first");
            chunks.push(vec![members.remove(i)]);
        }
        // A few programs that sleep get a small build of their own,
        // built first, so that their runs start while the rest builds.
        let sleepers = members
            .iter()
            .filter(|m| programs::sleeps(&m.claim.program.source))
            .count();
        if sleepers > 0 && sleepers * 4 <= members.len() {
            members.sort_by_key(|m| !programs::sleeps(&m.claim.program.source));
            let rest = members.split_off(sleepers.max(2));
            chunks.push(std::mem::replace(&mut members, rest));
        }
        // Blocks likely to fail, in one build: most fail, each told by
        // it, so a build per worker would tell them no sooner.
        let size = match key.3 {
            true => members.len().max(2),
            false => members.len().div_ceil(workers).max(2),
        };
        let first = chunks.len();
        let mut members = members.into_iter().peekable();
        while members.peek().is_some() {
            chunks.push(members.by_ref().take(size).collect::<Vec<_>>());
        }
        // A last member alone goes with the others rather than alone.
        if chunks.len() > first + 1 && chunks.last().is_some_and(|c| c.len() == 1) {
            let last = chunks.pop().unwrap_or_default();
            if let Some(previous) = chunks.last_mut() {
                previous.extend(last);
            }
        }
    }
    chunks
}
