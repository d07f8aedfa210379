//! Cold Rust claims compiled together, as rustdoc's merged doctests are
//! (how a failed build's diagnostics are told block by block:
//! [`super::merge_fail`]).
//!
//! One `rustc` start and one link per example is what a cold `check`
//! costs. Before the claims are checked one by one, [`Checker::prepare`]
//! takes the Rust claims that are not in the cache and can share a crate
//! (same flags; no crate-level attribute, nothing that sees the crate's
//! shape; 2015-edition code only when its paths from the crate root, which
//! a module would change, start with a standard crate
//! ([`paths_from_the_root_2015`]); `extern crate` only for a crate
//! linked with `--extern`), puts each in a module of its own, in a file of
//! its own (`#[path]`, so that rustc's locations name the block, at its
//! own lines and columns), with a wrapper that calls its `main` after its
//! last line, and compiles one binary per group: examples, plain blocks
//! and `compile_fail` plain blocks alike, crates that use the book's
//! crates with the `--extern`s of every crate their members use. Each
//! example then runs in its own process, chosen by an environment
//! variable the selector removes before the example starts (an argument
//! would change `std::env::args()`), with its own time limit and output
//! cap; locations in its output name `main.rs`, so panics read as when
//! compiled alone.
//!
//! The observation is stored under the example's own cache key, the one a
//! compile alone would have: the warm path is unchanged and a one-example
//! edit recompiles that example alone. A merged build that fails is one
//! loop, not a compile per block: rustc's error recovery reports the
//! errors of many blocks in one run; the blocks with errors of their own
//! are decided by it (a plain block's report is its diagnostics as its
//! compile alone tells them, or, where they could read otherwise, one
//! compile alone; an example's is always its compile alone), and the
//! others are built together again, since rustc stops some analyses for
//! the whole crate after an error (code rustc's lexer stops at, where
//! rustc stops the whole crate at once, never shares one). An error outside every block splits
//! the group in two (up to [`SPLITS`] times); a time-out, or more than
//! [`BUILDS`] deciding builds, leaves
//! the rest to compiles of their own, so verdicts are always those of
//! compiling alone.
//! Exercises' test crates merge the same way, into a test crate
//! (`--test`) whose modules are the exercises' code with their tests;
//! each runs in its own process too, the harness filtered to its module,
//! and its report is told as the test crate alone would tell it.
//!
//! Warnings are allowed in a merged build of examples (`-A warnings`, as
//! rustdoc's `#![allow(unused)]`): a compiled example's diagnostics are
//! never judged, and deny-by-default lints still fail the build, and so
//! the example. Plain blocks keep rustdoc's `-A unused` only, so that a
//! failing block's warnings are in its report as when alone.

use super::merge_fail::{attribute, codes, from_json, member_file};
use super::programs;
use super::rustc::error_codes;
use super::verdict::{Job, Observation};
use super::{COMPILE_TIMEOUT, Checker};
use crate::exec::{self, Limits};
use mdbook_companion_core::claim::Claim;
use mdbook_companion_core::expect::Expect;
use mdbook_companion_core::lang::Lang;
use mdbook_companion_core::tokens::{crate_paths_from_module, sleep_millis};
use std::collections::{BTreeMap, HashSet};
use std::process::Command;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// The environment variable that selects the example a merged binary runs.
pub(super) const SELECT: &str = "__COMPANION_EXAMPLE";

/// One example of a group: its cache key, its claim and its job alone.
struct Member<'a> {
    key: String,
    claim: &'a Claim,
    job: Job,
    /// The declared crates it uses.
    used: Vec<String>,
}

/// A merged crate: its root, and per member its file (in
/// [`member_file`]), how many lines of it are the member's own, and
/// whether its `crate::` paths were rewritten (so that a diagnostic may
/// show a line otherwise than the author wrote it).
struct Merged {
    root: String,
    files: Vec<String>,
    lines: Vec<usize>,
    rewritten: Vec<bool>,
}

/// The merged crate of `members`: a binary with a selector, or, for
/// exercises, a test crate (the harness is the selector). Each member is
/// a module in a file of its own, so that rustc's locations name it and
/// its lines and columns are its own.
fn merged_source(members: &[Member<'_>]) -> Merged {
    let tests = members.first().is_some_and(|m| harnessed(m.claim));
    let mut root = String::new();
    let mut files = Vec::new();
    let mut lines = Vec::new();
    let mut rewritten = Vec::new();
    for (i, m) in members.iter().enumerate() {
        root.push_str(&format!(
            "#[path = \"{}\"]\nmod __companion_ex_{i};\n",
            member_file(i)
        ));
        // Paths from the crate's root, from the member's module instead,
        // at the same lines and columns ([`super::mergeable::mergeable_code`] took only
        // code where they can be).
        let source = match m.claim.source.contains("crate::") {
            true => crate_paths_from_module(&m.claim.source),
            false => None,
        };
        rewritten.push(source.as_ref().is_some_and(|s| *s != m.claim.source));
        let body = source
            .as_deref()
            .unwrap_or(&m.claim.source)
            .trim_end_matches('\n');
        let mut file = format!("{body}\n");
        if !tests {
            file.push_str(
                "pub fn __companion_run() -> impl ::std::process::Termination { main() }\n",
            );
        }
        files.push(file);
        lines.push(body.lines().count().max(1));
    }
    if !tests {
        root.push_str(&format!(
            "fn main() -> ::std::process::ExitCode {{\n    let which = ::std::env::var(\"{SELECT}\").unwrap_or_default();\n    #[allow(unused_unsafe)]\n    unsafe {{ ::std::env::remove_var(\"{SELECT}\"); }}\n    match which.as_str() {{\n"
        ));
        for i in 0..members.len() {
            root.push_str(&format!(
                "        \"{i}\" => ::std::process::Termination::report(__companion_ex_{i}::__companion_run()),\n"
            ));
        }
        root.push_str("        _ => ::std::process::ExitCode::from(254),\n    }\n}\n");
        if members.first().is_some_and(|m| m.claim.doctest.is_some()) {
            root.push_str(super::merge_alone::PROBE);
        }
    }
    Merged {
        root,
        files,
        lines,
        rewritten,
    }
}

/// `text` with member `i`'s file told as the file of the example alone.
pub(super) fn remap(text: &str, i: usize) -> String {
    text.replace(&format!("{}:", member_file(i)), "main.rs:")
}

/// Merged builds that decide members a group gets at most: a build
/// decides the members with errors of their own, the next builds the
/// rest.
const BUILDS: usize = 8;

/// How long a program must say it sleeps ([`sleep_millis`]) for its
/// build to have the machine to itself ([`programs::Programs::sole`]):
/// longer than the rest of most books' checks.
const LONG_SLEEP_MS: u64 = 5_000;

/// Times a group is split in two at most (a group of 4,096 down to one
/// block).
const SPLITS: usize = 12;

/// What a merged build decided of a group.
enum Built<'a> {
    /// Observations, the members left to be built again together, and
    /// failing members whose reports the build may have cut short (see
    /// [`super::merge_alone`]), to be built again in halves.
    /// The failing members are in parts, each built again on its own.
    /// Last, the members no build can tell, to compile alone.
    Decided(
        Vec<(String, Observation)>,
        Vec<Member<'a>>,
        Vec<Vec<Member<'a>>>,
        Vec<Member<'a>>,
    ),
    /// Errors outside every member: the group is to be split.
    Split(Vec<Member<'a>>),
    /// Nothing more to learn together: the rest compile alone.
    Done,
}

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
    pub fn prepare(&self, claims: &[Claim]) {
        self.build(self.plan(claims));
    }

    /// The merged builds [`Checker::build`] is to make of `claims`, those
    /// whose programs sleep first. Their compiles go before any other
    /// compile of this checker's from now on (a compile alone included),
    /// until each has started: the book waits for their programs' end. So
    /// [`Checker::build`] must follow, on a thread no compile it makes
    /// waits for.
    pub fn plan<'a>(&self, claims: &'a [Claim]) -> Plan<'a> {
        let tool = self.tool(Lang::Rust).to_owned();
        let Some(version) = exec::tool_version_cached(&tool, &self.cache) else {
            return Plan::default();
        };
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
        let mut groups: BTreeMap<(String, bool, bool), Vec<Member<'_>>> = BTreeMap::new();
        for claim in claims.iter().filter(|c| self.merges(c)) {
            let used = self.used(claim);
            let Ok((job, key)) = self.job_and_key(claim, &tool, &version, &used) else {
                continue;
            };
            if !seen.insert(key.clone())
                || self.cache.get(super::CACHE_NAMESPACE, &key).is_some()
                || self.locked_outcome(claim, Some(&version)).is_some()
            {
                continue;
            }
            groups
                .entry((
                    job.args.join(" "),
                    !used.is_empty(),
                    claim.expect == Expect::CompileFail,
                ))
                .or_default()
                .push(Member {
                    key,
                    claim,
                    job,
                    used,
                });
        }
        // As many builds as workers, so that front ends run side by side.
        let workers = rayon::current_num_threads().max(1);
        let mut chunks = Vec::new();
        for (_, mut members) in groups {
            // A program that says it sleeps for seconds ([`sleep_millis`])
            // is compiled alone, first, with the machine to itself: the
            // longest program is a book's floor (the Rust book's Listing
            // 17-25, ten seconds, would otherwise wait for a build of ten
            // blocks that link an async runtime).
            let longest = members
                .iter()
                .enumerate()
                .map(|(i, m)| (sleep_millis(&m.claim.source), i))
                .max();
            if let Some((ms, i)) = longest.filter(|(ms, _)| *ms >= LONG_SLEEP_MS) {
                tracing::debug!("sleeps {ms} ms: compiled alone first");
                chunks.push(vec![members.remove(i)]);
            }
            // A few programs that sleep get a small build of their own,
            // built first, so that their runs start while the rest builds.
            let sleepers = members
                .iter()
                .filter(|m| programs::sleeps(&m.claim.source))
                .count();
            if sleepers > 0 && sleepers * 4 <= members.len() {
                members.sort_by_key(|m| !programs::sleeps(&m.claim.source));
                let rest = members.split_off(sleepers.max(2));
                chunks.push(std::mem::replace(&mut members, rest));
            }
            let size = members.len().div_ceil(workers).max(2);
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
                    [one] => sleep_millis(&one.claim.source) >= LONG_SLEEP_MS,
                    _ => c.iter().any(|m| programs::sleeps(&m.claim.source)),
                };
                (sleeps, c)
            })
            .collect();
        // The longest sleeper's first, each sleeping group's compile
        // reserved in that order.
        chunks.sort_by_cached_key(|(sleeps, c)| {
            let longest = c.iter().map(|m| sleep_millis(&m.claim.source)).max();
            (!sleeps, std::cmp::Reverse(longest.unwrap_or(0)))
        });
        let sleeping = chunks.iter().filter(|(sleeps, _)| *sleeps).count();
        let at = self.programs.reserve_first(sleeping);
        // A program that sleeps for seconds is what the book waits for:
        // its build has the machine to itself.
        let longest = chunks
            .first()
            .filter(|(sleeps, _)| *sleeps)
            .and_then(|(_, c)| c.iter().map(|m| sleep_millis(&m.claim.source)).max());
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
                && !baselines.iter().any(|(j, _)| j.args == m.job.args)
            {
                baselines.push((m.job.clone(), harnessed(m.claim)));
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

    /// Builds one group in one scratch directory, again and again while
    /// builds decide members (see [`super::merge_fail`]); what they leave
    /// compiles alone.
    /// `first`: the place its first compile was reserved to go at
    /// ([`Checker::plan`]); the reservation goes with that compile, or
    /// when the first build ends without one.
    fn build_merged(&self, mut members: Vec<Member<'_>>, first: Option<usize>) {
        // A program that sleeps for seconds, compiled alone first.
        // (Its reservation given back if no compile took it.)
        if let (1, Some(place)) = (members.len(), first) {
            if let Some(member) = members.pop() {
                self.compile_alone(member, first);
            }
            self.programs.release_first(place);
            return;
        }
        let mut first = first;
        let dir = exec::scratch_dir();
        let Ok(dir) = dir else {
            if let Some(place) = first {
                self.programs.release_first(place);
            }
            return;
        };
        // Each part: its members, the builds it has had, and how many
        // times it was split (each half goes on with its own builds, so
        // that one block whose error names no block costs a few builds,
        // not the group).
        let mut queue = vec![(members, 0, 0)];
        while let Some((members, builds, splits)) = queue.pop() {
            if members.len() < 2 || builds == BUILDS {
                continue;
            }
            let built = self.build_once(dir.path(), members, &mut first);
            if let Some(place) = first.take() {
                self.programs.release_first(place);
            }
            match built {
                Built::Decided(observed, rest, parts, lone) => {
                    (self.merged.lock().unwrap_or_else(|e| e.into_inner())).extend(observed);
                    // Compiled alone now, on this group's thread, rather
                    // than once every group is done (after the longest
                    // sleeping program).
                    for m in lone {
                        self.compile_alone(m, None);
                    }
                    queue.push((rest, builds + 1, splits));
                    if splits < SPLITS {
                        for part in parts {
                            queue.push((part, builds, splits + 1));
                        }
                    }
                }
                Built::Split(mut members) if splits < SPLITS => {
                    let second = members.split_off(members.len() / 2);
                    queue.push((second, builds, splits + 1));
                    queue.push((members, builds, splits + 1));
                }
                Built::Split(_) | Built::Done => {}
            }
        }
        // A group that never compiled gives its reservation back.
        if let Some(place) = first {
            self.programs.release_first(place);
        }
    }

    /// One merged build of `members` in `dir`, and what it decided.
    /// `first`: the compile goes first, at that place, and takes the
    /// reservation ([`Checker::plan`]; set to `None` once it has).
    fn build_once<'a>(
        &self,
        dir: &std::path::Path,
        members: Vec<Member<'a>>,
        first: &mut Option<usize>,
    ) -> Built<'a> {
        let merged = merged_source(&members);
        let written = std::fs::write(dir.join("main.rs"), &merged.root).is_ok()
            && merged
                .files
                .iter()
                .enumerate()
                .all(|(i, text)| std::fs::write(dir.join(member_file(i)), text).is_ok());
        if !written {
            return Built::Done;
        }
        let per = Duration::from_secs(2) * u32::try_from(members.len()).unwrap_or(u32::MAX);
        let limit = Limits::with_timeout(self.timeout.max(COMPILE_TIMEOUT) + per);
        let mut job = members[0].job.clone();
        let mut used: Vec<String> = members.iter().flat_map(|m| m.used.clone()).collect();
        used.sort();
        used.dedup();
        if !used.is_empty()
            && self
                .link_crates(&mut job, members[0].claim.mode, &used)
                .is_err()
        {
            return Built::Done;
        }
        self.compiler_runs.fetch_add(1, Ordering::Relaxed);
        let mut cmd = exec::compiler_command(&job.tool, dir);
        cmd.args(&job.args);
        // An example's diagnostics are never judged when it compiles; a
        // plain block's are its report when it does not, warnings with
        // them (its `-A unused` is rustdoc's).
        // JSON for plain blocks, to know each diagnostic's lint.
        let plain = members[0].claim.doctest.is_some();
        match plain {
            true => cmd.arg("--error-format=json"),
            false => cmd.args(["-A", "warnings"]),
        };
        let sandbox = self.compiler_box();
        let Ok(compiled) = self.programs.compile(first.take(), || {
            exec::run_in(&mut cmd, b"", limit, sandbox.as_ref())
        }) else {
            return Built::Done;
        };
        tracing::debug!(
            "merged build of {} blocks ({}): {}",
            members.len(),
            job.args.join(" "),
            if compiled.success() {
                "built"
            } else {
                "failed"
            }
        );
        if compiled.timed_out {
            return Built::Done;
        }
        if compiled.success() {
            // Code that runs outside the members' `main`s runs in every
            // program of the binary: its members run alone
            // ([`super::merge_reach`]).
            if let Some(program) = members.iter().find_map(|m| m.job.run) {
                let tests = harnessed(members[0].claim);
                // The baseline has the members' own flags, without the
                // book's crates (an empty program links none of them).
                match self.baselines.outside_mains(
                    &self.cache,
                    dir,
                    program,
                    &members[0].job,
                    tests,
                    members.len(),
                ) {
                    Some(found) if found.none() => {}
                    Some(found) if found.unattributed.is_empty() => {
                        tracing::debug!(
                            "a merged binary runs members {:?} outside their main: they run alone",
                            found.members
                        );
                        let (lone, rest) = members
                            .into_iter()
                            .enumerate()
                            .partition::<Vec<_>, _>(|(i, _)| found.members.contains(i));
                        let strip = |v: Vec<(usize, Member<'a>)>| v.into_iter().map(|(_, m)| m);
                        return Built::Decided(
                            Vec::new(),
                            strip(rest).collect(),
                            Vec::new(),
                            strip(lone).collect(),
                        );
                    }
                    found => {
                        // Code from the members' own source (`global_asm!`,
                        // a macro) is found by halves, each built and read
                        // again; a crate's follows each member that uses
                        // it, so a group that links crates runs alone.
                        let halves = found.is_some() && members.len() > 2 && used.is_empty();
                        tracing::debug!(
                            "a merged binary of {} blocks runs code outside their main that names none of them ({}): {}",
                            members.len(),
                            found.map_or_else(
                                || "it cannot be read".to_owned(),
                                |f| f.unattributed.join("; ")
                            ),
                            if halves {
                                "built again in halves"
                            } else {
                                "each runs alone"
                            }
                        );
                        return match halves {
                            true => Built::Split(members),
                            false => Built::Done,
                        };
                    }
                }
            }
            // An expected failure that compiled is left to its own compile.
            // On threads of their own, more than the workers at once
            // ([`super::programs`]).
            let width = programs::width(members.len(), self.programs.workers());
            let observed: Vec<(String, Observation)> = programs::each(
                &members,
                width,
                |m| programs::sleeps(&m.claim.source),
                |i, m| {
                    (m.claim.expect != Expect::CompileFail)
                        .then(|| (m.key.clone(), self.run_member(dir, i, m)))
                },
            )
            .into_iter()
            .flatten()
            .collect();
            tracing::debug!(
                "the programs of a merged group of {} blocks ran",
                members.len()
            );
            (self.merged.lock().unwrap_or_else(|e| e.into_inner())).extend(observed);
            return Built::Done;
        }
        let json = plain.then(|| from_json(&compiled.stderr));
        let attributed = match &json {
            Some(Some((human, lints))) => attribute(human, Some(lints), &merged.lines),
            // Not rustc's JSON throughout (a crash): nothing attributed.
            Some(None) => None,
            None => attribute(&compiled.stderr, None, &merged.lines),
        };
        let Some(own) = attributed else {
            tracing::debug!(
                "merged build failed outside its blocks: split\n{}",
                compiled.stderr
            );
            return Built::Split(members);
        };
        let reached =
            matches!(json, Some(Some(_))) && super::merge_alone::reached_the_end(&compiled.stderr);
        let words = super::merge_alone::Words::new(members.iter().map(|m| m.claim.source.as_str()));
        let mut observed = Vec::new();
        let mut rest = Vec::new();
        let mut alone = Vec::new();
        let mut cut = Vec::new();
        let mut stopped = 0;
        for ((m, own), rewritten) in members.into_iter().zip(own).zip(merged.rewritten) {
            if own.errors == 0 {
                rest.push(m);
                continue;
            }
            let codes = codes(m.claim);
            let found = error_codes(&own.diagnostics);
            tracing::debug!(
                "failing in the merged build: {}:{} ({:?}) {found:?}",
                m.claim.file,
                m.claim.line,
                m.claim.expect
            );
            // An example's report is its whole diagnostics, warnings
            // with them; a block whose diagnostics alone could read
            // otherwise (or shows a line with its paths rewritten)
            // compiles alone, once.
            // A `compile_fail` block's verdict is its codes, all among
            // its first errors: its report is those, as before batches.
            // A `compile_fail` plain block's report is its verdict: its
            // own diagnostics hold that, however its compile alone words
            // them (its types named with the merged module's path), unless
            // what shows them asks for the words.
            let verdict_only =
                m.claim.expect == Expect::CompileFail && !own.foreign && !self.exact();
            let told = m.claim.doctest.is_some()
                && (!own.differs || verdict_only)
                && !rewritten
                && codes.iter().all(|c| found.contains(c));
            // Its verdict, whatever the words: taken unless they are
            // asked for (`--exact`, `--bless`, `adopt`).
            let certain = !self.exact()
                && super::merge_alone::verdict_certain(m.claim, &own, rewritten, &codes, &found);
            let crowded = own.crowded && m.claim.expect != Expect::CompileFail;
            // With other blocks failing too, only errors rustc reports
            // in the block's own order (measured on the RFCs).
            let in_order = super::merge_alone::in_its_order(&own.diagnostics, own.errors);
            // Other blocks' errors may have stopped rustc before this
            // block's later ones: built again with fewer of them.
            if told && crowded && in_order && !reached && !certain {
                match super::merge_alone::stops_the_crate(&own.diagnostics) {
                    true => {
                        alone.push(m);
                        stopped += 1;
                    }
                    false => cut.push((super::merge_alone::syntax_only(&own.diagnostics), m)),
                }
                continue;
            }
            let trusted = told
                && (!crowded || in_order)
                && super::merge_alone::stands_alone(&own.diagnostics, &m.claim.source, |w| {
                    words.by_others(w, &m.claim.source)
                });
            if let Some(obs) = self.compared(m.claim, &m.job, &own, trusted, reached) {
                observed.push((m.key, obs));
                continue;
            }
            if !trusted && !certain {
                alone.push(m);
                continue;
            }
            observed.push((
                m.key,
                Observation {
                    compiled: false,
                    inexact: own.differs || !trusted,
                    diagnostics: own.diagnostics,
                    compile_timed_out: false,
                    run: None,
                },
            ));
        }
        tracing::debug!(
            "{} failing blocks told by the merged build, {} left to compile alone, {} built again, {} failing blocks built again in halves (the build {} its end)",
            observed.len(),
            alone.len(),
            rest.len(),
            cut.len(),
            if reached { "reached" } else { "stopped before" }
        );
        if observed.is_empty() && alone.is_empty() && cut.is_empty() {
            return Built::Done;
        }
        let parts = super::merge_alone::parts(cut, stopped > 0);
        Built::Decided(observed, rest, parts, alone)
    }

    /// Compiles (and runs) `member` alone, as [`Checker::check`] would,
    /// leaving its observation for it; one whose crates cannot be linked
    /// is left to it (which says why).
    fn compile_alone(&self, member: Member<'_>, first: Option<usize>) {
        let mut job = member.job;
        if !member.used.is_empty()
            && self
                .link_crates(&mut job, member.claim.mode, &member.used)
                .is_err()
        {
            return;
        }
        tracing::debug!(
            "compiled alone: {}:{}",
            member.claim.file,
            member.claim.line
        );
        if let Some(obs) = self.execute_at(&job, &member.claim.source, first) {
            (self.merged.lock().unwrap_or_else(|e| e.into_inner())).insert(member.key, obs);
        }
    }

    /// Runs member `i` of a built merged binary in its own process.
    fn run_member(&self, dir: &std::path::Path, i: usize, member: &Member<'_>) -> Observation {
        let mut obs = Observation {
            compiled: true,
            inexact: false,
            diagnostics: String::new(),
            compile_timed_out: false,
            run: None,
        };
        let Some(program) = member.job.run else {
            return obs;
        };
        self.program_runs.fetch_add(1, Ordering::Relaxed);
        let module = format!("__companion_ex_{i}::");
        // A command runs once: a run again alone builds its own.
        let mut run = self.programs.run(|| {
            let mut cmd = Command::new(dir.join(program));
            cmd.current_dir(dir).envs(member.job.env.iter().copied());
            match harnessed(member.claim) {
                true => cmd.arg(&module),
                false => cmd.env(SELECT, i.to_string()),
            };
            self.run_program(&mut cmd, member.job.timeout, self.config.memory, None, None)
        });
        run.stdout = remap(&run.stdout, i);
        run.stderr = remap(&run.stderr, i);
        if harnessed(member.claim) {
            run.stdout = alone(&run.stdout, &module);
            run.stderr = run.stderr.replace(&module, "");
        }
        obs.run = Some(run);
        obs
    }
}

/// Whether a claim's program is a test harness (an exercise's test
/// crate, a plain block's `test_harness`, both compiled with `--test`):
/// merged, its module is the harness's filter, and it has no `main` for
/// the selector to call.
fn harnessed(claim: &Claim) -> bool {
    claim.expect.tests() || claim.doctest.as_ref().is_some_and(|d| d.test_harness)
}

/// A merged test crate's report as the exercise's test crate alone
/// gives it: test names without the module, and nothing filtered out.
fn alone(report: &str, module: &str) -> String {
    let mut out = String::with_capacity(report.len());
    for line in report.split_inclusive('\n') {
        let line = line.replace(module, "");
        match (line.find("; "), line.find(" filtered out;")) {
            (Some(_), Some(end)) if line.starts_with("test result: ") => {
                let start = line[..end].rfind("; ").map_or(end, |s| s + 2);
                out.push_str(&line[..start]);
                out.push('0');
                out.push_str(&line[end..]);
            }
            _ => out.push_str(&line),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::rustc;
    use crate::check::tests::claim;

    #[test]
    fn locations_map_back_to_the_example_alone() {
        assert_eq!(
            remap(
                "panicked at __companion_ex_3.rs:2:5:\nboom at __companion_ex_13.rs:3:1 main.rs:",
                3
            ),
            "panicked at main.rs:2:5:\nboom at __companion_ex_13.rs:3:1 main.rs:"
        );
    }

    #[test]
    fn a_merged_test_report_reads_as_the_crate_alone() {
        let merged = "running 1 test\ntest __companion_ex_3::tests::adds ... FAILED\n\n---- __companion_ex_3::tests::adds stdout ----\n\ntest result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 7 filtered out; finished in 0.00s\n";
        assert_eq!(
            alone(merged, "__companion_ex_3::"),
            "running 1 test\ntest tests::adds ... FAILED\n\n---- tests::adds stdout ----\n\ntest result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n"
        );
    }

    #[test]
    fn every_member_gets_a_module_and_a_selector_arm() {
        let a = claim(Expect::Run, "fn main() {\n    println!(\"a\");\n}\n");
        let b = claim(Expect::Run, "fn main() {}");
        let members: Vec<Member<'_>> = [&a, &b]
            .into_iter()
            .map(|c| Member {
                key: String::new(),
                claim: c,
                job: rustc::job(c, "rustc"),
                used: Vec::new(),
            })
            .collect();
        let m = merged_source(&members);
        assert_eq!(m.lines, [3, 1]);
        assert!(
            m.root
                .starts_with("#[path = \"__companion_ex_0.rs\"]\nmod __companion_ex_0;\n")
        );
        // The example's lines are its own, the wrapper after them.
        let lines: Vec<&str> = m.files[0].lines().collect();
        assert_eq!(lines[1], "    println!(\"a\");");
        assert!(lines[3].contains("__companion_run"));
        assert_eq!(m.files[1].lines().next(), Some("fn main() {}"));
        assert!(m.root.contains(
            "\"1\" => ::std::process::Termination::report(__companion_ex_1::__companion_run())"
        ));
    }
}
