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
//! ([`mdbook_companion_core::tokens::paths_from_the_root_2015`]); `extern crate` only for a crate
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

use super::merge_crate::{Member, Merged, SELECT, alone, harnessed, merged_source, remap};
use super::merge_fail::{Own, attribute, codes, from_json, member_file};
use super::programs;
use super::rustc::error_codes;
use super::verdict::Observation;
use super::{COMPILE_TIMEOUT, Checker};
use crate::exec::{self, Limits};
use mdbook_companion_core::expect::Expect;
use std::process::Command;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// Merged builds that decide members a group gets at most: a build
/// decides the members with errors of their own, the next builds the
/// rest.
const BUILDS: usize = 8;

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

/// A merged build that ran to its end: its crate, how it ended, whether
/// its members are plain blocks (rustc's JSON), and whether it links the
/// book's crates.
struct Compiled {
    merged: Merged,
    finished: exec::Finished,
    plain: bool,
    links: bool,
}

/// Where a failed merged build's members go ([`Built::Decided`]): told,
/// built again together, built again in halves (with whether each stopped
/// only at syntax), compiled alone; and how many of those alone stop the
/// whole crate.
#[derive(Default)]
struct Failing<'a> {
    observed: Vec<(String, Observation)>,
    rest: Vec<Member<'a>>,
    cut: Vec<(bool, Member<'a>)>,
    alone: Vec<Member<'a>>,
    stopped: usize,
}

impl Checker {
    /// Builds one group in one scratch directory, again and again while
    /// builds decide members (see [`super::merge_fail`]); what they leave
    /// compiles alone.
    /// `first`: the place its first compile was reserved to go at
    /// ([`Checker::plan`]); the reservation goes with that compile, or
    /// when the first build ends without one.
    pub(super) fn build_merged(&self, mut members: Vec<Member<'_>>, first: Option<usize>) {
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
        let Some(Compiled {
            merged,
            finished,
            plain,
            links,
        }) = self.compile_merged(dir, &members, first)
        else {
            return Built::Done;
        };
        if finished.success() {
            return self.run_merged(dir, members, links);
        }
        self.decide_failures(members, &merged, &finished, plain)
    }

    /// Writes the merged crate of `members` into `dir` and compiles it;
    /// `None` when it could not be written, linked or compiled, or its
    /// compile timed out.
    fn compile_merged(
        &self,
        dir: &std::path::Path,
        members: &[Member<'_>],
        first: &mut Option<usize>,
    ) -> Option<Compiled> {
        let merged = merged_source(members);
        let written = std::fs::write(dir.join("main.rs"), &merged.root).is_ok()
            && merged
                .files
                .iter()
                .enumerate()
                .all(|(i, text)| std::fs::write(dir.join(member_file(i)), text).is_ok());
        if !written {
            return None;
        }
        let per = Duration::from_secs(2) * u32::try_from(members.len()).unwrap_or(u32::MAX);
        let limit = Limits::with_timeout(self.timeout.max(COMPILE_TIMEOUT) + per);
        let mut job = super::merge_crate::merged_job(&members[0].job);
        let mut used: Vec<String> = members.iter().flat_map(|m| m.used.clone()).collect();
        used.sort();
        used.dedup();
        if !used.is_empty()
            && self
                .link_crates(&mut job, members[0].claim.program.mode, &used)
                .is_err()
        {
            return None;
        }
        self.compiler_runs.fetch_add(1, Ordering::Relaxed);
        let mut cmd = exec::compiler_command(&job.tool, dir);
        cmd.args(&job.args);
        // An example's diagnostics are never judged when it compiles; a
        // plain block's are its report when it does not, warnings with
        // them (its `-A unused` is rustdoc's).
        // JSON for plain blocks, to know each diagnostic's lint.
        let plain = members[0].claim.program.doctest.is_some();
        match plain {
            true => cmd.arg("--error-format=json"),
            false => cmd.args(["-A", "warnings"]),
        };
        let sandbox = self.compiler_box();
        let finished = self
            .programs
            .compile(first.take(), || {
                exec::run_in(&mut cmd, b"", limit, sandbox.as_ref())
            })
            .ok()?;
        tracing::debug!(
            "merged build of {} blocks ({}): {}",
            members.len(),
            job.args.join(" "),
            if finished.success() {
                "built"
            } else {
                "failed"
            }
        );
        (!finished.timed_out).then_some(Compiled {
            merged,
            finished,
            plain,
            links: !used.is_empty(),
        })
    }

    /// What a merged binary that built decides: each member's run, in
    /// its own process, unless code runs outside the members' `main`s.
    fn run_merged<'a>(
        &self,
        dir: &std::path::Path,
        members: Vec<Member<'a>>,
        links: bool,
    ) -> Built<'a> {
        // Code that runs outside the members' `main`s runs in every
        // program of the binary: its members run alone
        // ([`super::merge_reach`]).
        let members = match members.iter().find_map(|m| m.job.run) {
            Some(program) => match self.outside_mains(dir, program, members, links) {
                Ok(members) => members,
                Err(built) => return built,
            },
            None => members,
        };
        self.run_members(dir, members)
    }

    /// What code run outside the members' `main`s (read from the binary
    /// `program` in `dir`) decides: the members it names run alone, code
    /// that names none splits the group or leaves each to run alone; the
    /// members back when there is none.
    fn outside_mains<'a>(
        &self,
        dir: &std::path::Path,
        program: &str,
        members: Vec<Member<'a>>,
        links: bool,
    ) -> Result<Vec<Member<'a>>, Built<'a>> {
        let tests = harnessed(members[0].claim);
        let sources: Vec<&str> = members
            .iter()
            .map(|m| m.claim.program.source.as_str())
            .collect();
        // The baseline has the members' own flags, without the
        // book's crates (an empty program links none of them).
        match self.baselines.outside_mains(
            &self.cache,
            dir,
            program,
            &super::merge_crate::merged_job(&members[0].job),
            tests,
            &sources,
        ) {
            Some(found) if found.none() => Ok(members),
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
                let built = Built::Decided(
                    Vec::new(),
                    strip(rest).collect(),
                    Vec::new(),
                    strip(lone).collect(),
                );
                Err(built)
            }
            found => {
                // Code from the members' own source (`global_asm!`,
                // a macro) is found by halves, each built and read
                // again; a crate's follows each member that uses
                // it, so a group that links crates runs alone.
                let halves = found.is_some() && members.len() > 2 && !links;
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
                Err(match halves {
                    true => Built::Split(members),
                    false => Built::Done,
                })
            }
        }
    }

    /// Runs each member of a merged binary that built, its observation
    /// left for its check.
    fn run_members<'a>(&self, dir: &std::path::Path, members: Vec<Member<'a>>) -> Built<'a> {
        // An expected failure that compiled is left to its own compile.
        // On threads of their own, more than the workers at once
        // ([`super::programs`]).
        let width = programs::width(members.len(), self.programs.workers());
        let observed: Vec<(String, Observation)> = programs::each(
            &members,
            width,
            |m| programs::sleeps(&m.claim.program.source),
            |i, m| {
                (m.claim.expectation.expect != Expect::CompileFail)
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
        Built::Done
    }

    /// What a failed merged build decides: each member with errors of its
    /// own is told by it, compiled alone, or built again with fewer
    /// others; the members without are built again together; errors
    /// outside every member split the group.
    fn decide_failures<'a>(
        &self,
        members: Vec<Member<'a>>,
        merged: &Merged,
        compiled: &exec::Finished,
        plain: bool,
    ) -> Built<'a> {
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
        let words =
            super::merge_alone::Words::new(members.iter().map(|m| m.claim.program.source.as_str()));
        let mut failing = Failing::default();
        for ((m, own), rewritten) in members.into_iter().zip(own).zip(&merged.rewritten) {
            if own.errors == 0 {
                failing.rest.push(m);
                continue;
            }
            self.decide_failing(m, own, *rewritten, reached, &words, &mut failing);
        }
        let Failing {
            observed,
            rest,
            alone,
            cut,
            stopped,
        } = failing;
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

    /// Where a member with errors of its own in a failed merged build
    /// goes: told by it, compiled alone, or built again with fewer others.
    fn decide_failing<'a>(
        &self,
        m: Member<'a>,
        own: Own,
        rewritten: bool,
        reached: bool,
        words: &super::merge_alone::Words,
        failing: &mut Failing<'a>,
    ) {
        let codes = codes(m.claim);
        let found = error_codes(&own.diagnostics);
        tracing::debug!(
            "failing in the merged build: {} ({:?}) {found:?}",
            self.names.of(m.claim.id),
            m.claim.expectation.expect
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
            m.claim.expectation.expect == Expect::CompileFail && !own.foreign && !self.exact();
        let told = m.claim.program.doctest.is_some()
            && (!own.differs || verdict_only)
            && !rewritten
            && codes.iter().all(|c| found.contains(c));
        // Its verdict, whatever the words: taken unless they are
        // asked for (`--exact`, `--bless`, `adopt`).
        let certain = !self.exact()
            && super::merge_alone::verdict_certain(m.claim, &own, rewritten, &codes, &found);
        let crowded = own.crowded && m.claim.expectation.expect != Expect::CompileFail;
        // With other blocks failing too, only errors rustc reports
        // in the block's own order (measured on the RFCs).
        let in_order = super::merge_alone::in_its_order(&own.diagnostics, own.errors);
        // Other blocks' errors may have stopped rustc before this
        // block's later ones: built again with fewer of them.
        if told && crowded && in_order && !reached && !certain {
            match super::merge_alone::stops_the_crate(&own.diagnostics) {
                true => {
                    failing.alone.push(m);
                    failing.stopped += 1;
                }
                false => failing
                    .cut
                    .push((super::merge_alone::syntax_only(&own.diagnostics), m)),
            }
            return;
        }
        let trusted = told
            && (!crowded || in_order)
            && super::merge_alone::stands_alone(&own.diagnostics, &m.claim.program.source, |w| {
                words.by_others(w, &m.claim.program.source)
            });
        if let Some(obs) = self.compared(m.claim, &m.job, &own, trusted, reached) {
            failing.observed.push((m.key, obs));
            return;
        }
        if !trusted && !certain {
            failing.alone.push(m);
            return;
        }
        failing.observed.push((
            m.key,
            Observation {
                compiled: false,
                inexact: own.differs || !trusted,
                inert: false,
                diagnostics: own.diagnostics,
                compile_timed_out: false,
                run: None,
            },
        ));
    }

    /// Compiles (and runs) `member` alone, as [`Checker::check`] would,
    /// leaving its observation for it; one whose crates cannot be linked
    /// is left to it (which says why).
    fn compile_alone(&self, member: Member<'_>, first: Option<usize>) {
        let mut job = member.job;
        if !member.used.is_empty()
            && self
                .link_crates(&mut job, member.claim.program.mode, &member.used)
                .is_err()
        {
            return;
        }
        tracing::debug!("compiled alone: {}", self.names.of(member.claim.id));
        if let Some(obs) = self.execute_at(&job, &member.claim.program.source, first) {
            (self.merged.lock().unwrap_or_else(|e| e.into_inner())).insert(member.key, obs);
        }
    }

    /// Runs member `i` of a built merged binary in its own process.
    fn run_member(&self, dir: &std::path::Path, i: usize, member: &Member<'_>) -> Observation {
        let mut obs = Observation {
            compiled: true,
            inexact: false,
            inert: false,
            diagnostics: String::new(),
            compile_timed_out: false,
            run: None,
        };
        let Some(program) = member.job.run else {
            return obs;
        };
        if self.inert(member.claim, &member.job, || !member.used.is_empty()) {
            self.runs_certain.fetch_add(1, Ordering::Relaxed);
            obs.inert = true;
            return obs;
        }
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
