//! Checking one claim: prove what a block says its program does.
//!
//! A book says "this prints `hello`", "this panics with `attempt to divide
//! by zero`", "this does not compile (E0381)", "this C is undefined
//! behaviour". Each such statement is a [`Stated`] claim: its program
//! and what is claimed of it (where it came from stays with the book
//! layer). Checking one means compiling (and maybe running) its program
//! in a temporary directory, with a time limit and capped output
//! ([`crate::exec`]), and comparing what happened with what the book
//! says.
//!
//! What happened (an [`Observation`]) depends only on what `key::Decides`
//! holds (the program, the compiler and its version, the flags, the
//! checker and its options, `timeout` and `memory`, the crates linked), so
//! it is cached under the book ([`crate::cache`], namespace
//! `check`) by the key made of those: an unchanged book re-checks with no
//! compiler run, a changed limit runs the program again, and the verdict
//! is recomputed from the observation, so editing an output block never
//! needs a compiler either.
//!
//! The same [`Checker`] serves the `check` command
//! (`mdbook_companion::commands::check`) and the build with `verify = true`
//! (`mdbook_companion::book::chapter`).

mod again;
mod asm;
mod backend;
pub mod cc;
mod doctest;
pub mod harness;
mod judge;
mod key;
mod locked;
mod merge;
mod merge_alone;
mod merge_crate;
mod merge_fail;
mod merge_plan;
mod merge_reach;
mod mergeable;
mod names;
mod observe;
pub mod pattern;
mod programs;
mod recorded;
mod run;
pub mod rustc;
pub mod sanitizer;
pub mod verdict;
mod warm;

pub use verdict::{
    BlockLine, COMPILE_TIMEOUT, Job, MAX_OUTPUT, MERGED_NOTE, Observation, Outcome, RunResult,
    Verdict, contains_normalized, diff, normalize,
};

pub use mdbook_companion_core::claim::Stated;
pub use mdbook_companion_core::expect::Expect;
pub use mdbook_companion_core::lang::Lang;
pub use names::Namer;

use crate::cache::Cache;
use crate::crates::{self, Crates};
use crate::exec;
use crate::lock;
use key::Decides;
use mdbook_companion_core::config::{Config, OutputFilter};
use mdbook_companion_core::lang::Compiler;
use mdbook_companion_core::links::Mode;
use mdbook_companion_core::sanitize::Sanitizer;
use rayon::prelude::*;
use serde::Serialize;
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

/// The cache namespace of observations.
pub const CACHE_NAMESPACE: &str = "check";

/// Compiles and runs claims, with a cache and counters.
#[derive(Debug)]
pub struct Checker {
    config: Config,
    rustc: String,
    cc: String,
    timeout: Duration,
    filters: Vec<OutputFilter>,
    cache: Cache,
    lock: Option<Arc<lock::Index>>,
    crates: Arc<Crates>,
    compiler_runs: AtomicUsize,
    program_runs: AtomicUsize,
    /// Programs compiled and not run: their run was certain
    /// ([`Observation::inert`]).
    runs_certain: AtomicUsize,
    cache_hits: AtomicUsize,
    /// Each job's observation in this run, shared by the claims with the
    /// same job.
    memo: Mutex<HashMap<String, Arc<OnceLock<Option<Seen>>>>>,
    /// Observations made by merged builds ([`Checker::prepare`]), taken by
    /// the first check of their key.
    merged: Mutex<HashMap<String, Observation>>,
    /// The programs running, and their runs again alone.
    programs: programs::Programs,
    /// Whether every failing block's diagnostics must be its compile
    /// alone's, word for word ([`Checker::exact_diagnostics`]).
    exact: std::sync::atomic::AtomicBool,
    /// What empty programs run outside `main`, by compiler and flags: what
    /// a merged binary is compared with ([`merge_reach`]).
    baselines: merge_reach::Baselines,
    /// How the caller names its claims in traces ([`Checker::name_claims`]).
    names: names::Names,
}

/// A job's observation in this run, and whether it came from the cache
/// as an earlier run left it (`true`) or was made now.
type Seen = (Observation, bool);

/// Counters of work done.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Counters {
    /// Compiler processes started (not counted: version queries, and the
    /// empty programs merged binaries are compared with, tool facts both).
    pub compiler_runs: usize,
    /// Compiled programs run.
    pub program_runs: usize,
    /// Compiled programs not run, their run certain to end at once with
    /// success ([`Observation::inert`]).
    pub runs_certain: usize,
    /// Claims answered from what an earlier run left in the cache (not
    /// those answered by an identical job of this run, which a cold run
    /// has too: they are neither a compiler run nor a cache hit).
    pub cache_hits: usize,
    /// `cargo build`s of the book's dependencies.
    pub dependency_builds: usize,
    /// The most programs that ran at once.
    pub programs_at_once: usize,
    /// Programs that timed out beside others and were run again alone.
    pub runs_again_alone: usize,
}

impl Checker {
    /// A checker for the book configured by `config`, caching under its root.
    pub fn new(config: &Config) -> Checker {
        Checker::with_cache(config, Cache::for_book(&config.root))
    }

    /// A checker with a given cache.
    pub fn with_cache(config: &Config, cache: Cache) -> Checker {
        Checker {
            config: config.clone(),
            rustc: config.rustc.clone(),
            cc: config.cc.clone(),
            timeout: config.timeout,
            filters: config.output_filters.clone(),
            cache,
            lock: None,
            crates: crates::for_book(config),
            compiler_runs: AtomicUsize::new(0),
            program_runs: AtomicUsize::new(0),
            runs_certain: AtomicUsize::new(0),
            cache_hits: AtomicUsize::new(0),
            memo: Mutex::default(),
            merged: Mutex::default(),
            programs: programs::Programs::default(),
            exact: std::sync::atomic::AtomicBool::new(false),
            baselines: merge_reach::Baselines::default(),
            names: names::Names::default(),
        }
    }

    /// From now on, every observation this checker gives has its
    /// compile alone's diagnostics, word for word: none a merged build
    /// could only vouch for the verdict of ([`Observation::inexact`]),
    /// from a merged build or the cache. For what writes them into the
    /// book (`adopt` names a failing block's first error code).
    pub fn exact_diagnostics(&self) {
        self.exact.store(true, Ordering::Relaxed);
    }

    /// From now on, what this checker traces names a claim by `namer`,
    /// the caller's name for the number it gave the claim
    /// ([`Stated::numbered`]); `None`: by its number.
    pub fn name_claims(&self, namer: Option<Namer>) {
        self.names.set(namer);
    }

    /// Whether [`Checker::exact_diagnostics`] was asked for.
    fn exact(&self) -> bool {
        self.exact.load(Ordering::Relaxed)
    }

    /// Whether `claim`'s program (`job`) is compiled and not run, its run
    /// certain to end at once with success: a plain block that claims a
    /// clean run of a `main` that holds only items
    /// ([`mdbook_companion_core::tokens::inert`]), linking none of the
    /// book's crates (whose code may run before `main`; `uses_crates`,
    /// asked last, from what the caller already read), unless every run
    /// is asked for ([`Checker::exact_diagnostics`]).
    fn inert(&self, claim: &Stated<'_>, job: &Job, uses_crates: impl FnOnce() -> bool) -> bool {
        !self.exact()
            && claim.expectation.expect == Expect::Run
            && (claim.program.doctest.as_ref()).is_some_and(|d| !d.test_harness)
            && claim.expectation.output.is_none()
            && claim.expectation.sanitize.is_empty()
            && job.run.is_some()
            && job.run_with.is_empty()
            && !job.memcheck
            && !uses_crates()
            && mdbook_companion_core::tokens::inert::main_does_nothing(&claim.program.source)
    }

    /// A checker that, when its cache misses, takes verdicts from the
    /// book's lock: with no compiler at all, or with the very toolchain
    /// the lock names (builds; `check` itself always compiles).
    pub fn with_lock(mut self, lock: Option<Arc<lock::Index>>) -> Checker {
        self.lock = lock;
        self
    }

    /// The same checker, using `crates`: the run's one value, so the
    /// dependencies are read and built once for all who compile in it.
    pub fn with_crates(mut self, crates: Arc<Crates>) -> Checker {
        self.crates = crates;
        self
    }

    /// The work done so far.
    pub fn counters(&self) -> Counters {
        Counters {
            compiler_runs: self.compiler_runs.load(Ordering::Relaxed),
            program_runs: self.program_runs.load(Ordering::Relaxed),
            runs_certain: self.runs_certain.load(Ordering::Relaxed),
            cache_hits: self.cache_hits.load(Ordering::Relaxed),
            dependency_builds: self.crates.builds(),
            programs_at_once: self.programs.peak(),
            runs_again_alone: self.programs.again_alone(),
        }
    }

    /// The version of the compiler `lang` needs, if it answers.
    pub fn version(&self, lang: Lang) -> Option<String> {
        exec::tool_version_cached(self.tool(lang), &self.cache).map(|v| lock::toolchain(&v))
    }

    /// The compiler command a claim needs: the configured one, or the
    /// first command of a language of programs.
    pub fn tool(&self, lang: Lang) -> &str {
        match (lang.compiler(), lang.program()) {
            (Some(Compiler::Rustc), _) => &self.rustc,
            (Some(Compiler::Cc), _) | (None, None) => &self.cc,
            (None, Some(row)) => row.tool(),
        }
    }

    /// Checks one claim.
    pub fn check(&self, claim: &Stated<'_>) -> Outcome {
        if claim.expectation.ignore {
            return Outcome {
                verdict: Verdict::Ignored,
                actual: None,
                cached: false,
                merged: false,
            };
        }
        if let (Expect::Asm, Some(a)) = (claim.expectation.expect, &claim.expectation.asm) {
            return self.check_asm(claim, a);
        }
        let tool = self.tool(claim.program.lang).to_owned();
        let unchecked = || Outcome {
            verdict: Verdict::Unchecked {
                tool: tool.clone(),
                key: None,
            },
            actual: None,
            cached: false,
            merged: false,
        };
        let Some(version) = exec::tool_version_cached(&tool, &self.cache) else {
            return self.locked_outcome(claim, None).unwrap_or_else(unchecked);
        };
        let (job, key) = match self.prepared(claim, &tool, &version) {
            Ok(jk) => jk,
            Err(outcome) => return *outcome,
        };
        // Claims with the same job (same program, flags and compiler) share
        // one observation: the first computes it, the others wait for it.
        let cell = {
            let mut memo = self.memo.lock().unwrap_or_else(|e| e.into_inner());
            Arc::clone(memo.entry(key.clone()).or_default())
        };
        let seen = cell.get_or_init(|| self.observe(claim, &job, &key));
        let Some((obs, cached)) = seen else {
            return unchecked();
        };
        // From the cache: what an earlier run observed, whichever claim of
        // this run read it first.
        let cached = *cached;
        if cached {
            self.cache_hits.fetch_add(1, Ordering::Relaxed);
        }
        self.outcome(claim, obs, cached)
    }

    /// The job and cache key of `claim`, its crates linked; the outcome
    /// instead when the claim cannot be checked here (Memcheck or the
    /// book's crates missing) or the lock answers for it.
    fn prepared(
        &self,
        claim: &Stated<'_>,
        tool: &str,
        version: &str,
    ) -> Result<(Job, String), Box<Outcome>> {
        let used = self.used(claim);
        if claim.expectation.sanitize.has(Sanitizer::Memcheck)
            && claim.expectation.expect.runs()
            && exec::tool_version_cached(&self.config.valgrind, &self.cache).is_none()
        {
            return Err(Box::new(self.locked_outcome(claim, None).unwrap_or(
                Outcome {
                    verdict: Verdict::Unchecked {
                        tool: self.config.valgrind.clone(),
                        key: Some("valgrind"),
                    },
                    actual: None,
                    cached: false,
                    merged: false,
                },
            )));
        }
        let (mut job, key) = match self.job_and_key(claim, tool, version, &used) {
            Ok(jk) => jk,
            Err(e) => {
                return Err(Box::new(
                    self.locked_outcome(claim, Some(version))
                        .unwrap_or_else(|| dependency_failure(e)),
                ));
            }
        };
        if self.lock.is_some()
            && self.cache.get(CACHE_NAMESPACE, &key).is_none()
            && let Some(outcome) = self.locked_outcome(claim, Some(version))
        {
            return Err(Box::new(outcome));
        }
        // A claim to compile against the book's crates needs them built
        // (once: the build is shared by every claim and the merged builds).
        if !used.is_empty()
            && self.cache.get(CACHE_NAMESPACE, &key).is_none()
            && let Err(e) = self.link_crates(&mut job, claim.program.mode, &used)
        {
            return Err(Box::new(dependency_failure(e)));
        }
        Ok((job, key))
    }

    /// What `claim`'s program (`job`, cached under `key`) was seen to do,
    /// and whether an earlier run left it in the cache; `None` when it
    /// could not be compiled. Made once per key in this run
    /// ([`Checker::check`] shares it through the memo).
    fn observe(&self, claim: &Stated<'_>, job: &Job, key: &str) -> Option<Seen> {
        if let Some(obs) = self.cached(CACHE_NAMESPACE, key)
            && !(obs.told() && self.exact())
        {
            return Some((obs, true));
        }
        let merged = (self.merged.lock().unwrap_or_else(|e| e.into_inner())).remove(key);
        // What rustc would stop at before any compile: its lexer, or a
        // `#![feature]` on a stable compiler.
        let lexed = || {
            let gated = || {
                let version = exec::tool_version_cached(&job.tool, &self.cache)?;
                doctest::gated(claim, &version)
            };
            (!self.exact())
                .then(|| doctest::lexed(claim).or_else(gated))
                .flatten()
        };
        let obs = match merged.or_else(lexed) {
            Some(obs) => obs,
            None => {
                tracing::debug!("compiled alone: {}", self.names.of(claim.id));
                // (A job that links the book's crates names them.)
                let linked = || job.args.iter().any(|a| a == "--extern");
                match self.inert(claim, job, linked) {
                    true => self.compile_only(job, &claim.program.source)?,
                    false => self.execute(job, &claim.program.source)?,
                }
            }
        };
        let sanitize = claim
            .expectation
            .sanitize
            .effective(claim.expectation.expect);
        if sanitizer::unavailable(&obs, sanitize, &self.config.valgrind).is_none() {
            self.store(CACHE_NAMESPACE, key, &obs);
        }
        Some((obs, false))
    }

    /// The outcome of `claim` from what its program was seen to do: its
    /// verdict (a differing output run again once), told in the
    /// chapter's lines.
    fn outcome(&self, claim: &Stated<'_>, obs: &Observation, cached: bool) -> Outcome {
        let sanitize = claim
            .expectation
            .sanitize
            .effective(claim.expectation.expect);
        if let Some(verdict) = sanitizer::unavailable(obs, sanitize, &self.config.valgrind) {
            return Outcome {
                verdict,
                actual: None,
                cached,
                merged: false,
            };
        }
        let (verdict, actual) = self.judge(claim, obs);
        let mut verdict = self.judged_again(claim, verdict, actual.as_deref());
        // Diagnostics a merged build told: the verdict holds, the words
        // may be another's; said in every report.
        let merged = obs.inexact && matches!(verdict, Verdict::Failed { .. });
        if merged && let Verdict::Failed { message, .. } = &mut verdict {
            message.push(' ');
            message.push_str(verdict::MERGED_NOTE);
        }
        Outcome {
            verdict: in_chapter(claim, verdict),
            actual,
            cached,
            merged,
        }
    }

    /// The verdict on `claim` from what its program did (`output-filters`
    /// applied), and what it printed.
    fn judge(&self, claim: &Stated<'_>, obs: &Observation) -> (Verdict, Option<String>) {
        let filtered = self.filtered(obs);
        let obs = filtered.as_ref().unwrap_or(obs);
        let backend = backend::of(claim.program.lang);
        let (mut verdict, actual) = backend.judge(claim, obs, self.run_limit(claim));
        if backend.uses_crates() && verdict.is_failure() && !obs.compiled {
            verdict = self.undeclared(claim, obs).unwrap_or(verdict);
        }
        if claim.expectation.no_warnings && obs.compiled && !verdict.is_failure() {
            verdict = judge::warned(&obs.diagnostics).unwrap_or(verdict);
        }
        // Any other outcome under a checker: the claim holds *and* the
        // checker is silent (its log holds no report; one that came
        // without its exit status is no proof of a bug, nor of silence).
        if !claim.expectation.sanitize.is_empty()
            && claim.expectation.expect != Expect::Ub
            && !verdict.is_failure()
            && let Some(run) = &obs.run
        {
            if let Some(unproven) = judge::unproven_report(run, claim.expectation.sanitize) {
                verdict = unproven;
            } else if let Some((report, _)) = sanitizer::report(run, claim.expectation.sanitize) {
                verdict = Verdict::fail_with(
                    format!(
                        "{} reported: {report}; the block says the program is clean under it",
                        claim.expectation.sanitize.names()
                    ),
                    judge::streams(run),
                );
            }
        }
        (verdict, actual)
    }

    /// The observation cached under `key` (whose limits are part of the
    /// key: a time-out is kept too, and a changed `timeout` runs the
    /// program again).
    fn cached(&self, namespace: &str, key: &str) -> Option<Observation> {
        self.cache
            .get(namespace, key)
            .and_then(|b| serde_json::from_slice::<Observation>(&b).ok())
    }

    /// Caches `obs` under `key`, a time-out too, so that a warm check
    /// runs nothing.
    fn store(&self, namespace: &str, key: &str, obs: &Observation) {
        if let Ok(bytes) = serde_json::to_vec(obs) {
            self.cache.put(namespace, key, &bytes);
        }
    }

    /// The time `claim`'s program may run: `hang-guard` for a plain block
    /// that claims no output, `timeout` otherwise.
    fn run_limit(&self, claim: &Stated<'_>) -> Duration {
        match judge::hang_guarded(claim) {
            true => self.config.hang_guard,
            false => self.timeout,
        }
    }

    /// The declared crates a Rust claim uses.
    fn used(&self, claim: &Stated<'_>) -> Vec<String> {
        match backend::of(claim.program.lang).uses_crates() {
            true => self.crates.used_with_libraries(&claim.program.source),
            false => Vec::new(),
        }
    }

    /// The job of a claim and its cache key: a Rust claim that uses
    /// declared crates compiles against their libraries, and its key holds
    /// their fingerprint.
    fn job_and_key(
        &self,
        claim: &Stated<'_>,
        tool: &str,
        version: &str,
        used: &[String],
    ) -> Result<(Job, String), String> {
        let mut job = backend::of(claim.program.lang).job(claim, tool);
        if judge::hang_guarded(claim) {
            job.timeout = Some(self.config.hang_guard);
        }
        // Memcheck's version and options are part of what decides the
        // observation.
        let checker = job.memcheck.then(|| {
            let valgrind =
                exec::tool_version_cached(&self.config.valgrind, &self.cache).unwrap_or_default();
            format!("{valgrind}\u{0}{}", sanitizer::MEMCHECK_ARGS.join(" "))
        });
        let crates = match used.is_empty() {
            true => String::new(),
            false => self.crates.link_key(used, false)?,
        };
        let key = Decides {
            job: &job,
            source: &claim.program.source,
            compiler: version,
            checker: checker.as_deref(),
            timeout: self.timeout,
            memory: self.config.memory,
            crates: &crates,
            confinement: exec::confinement(self.config.isolation).name(),
        }
        .key();
        Ok((job, key))
    }

    /// `job` compiled against the libraries of `used` (built first, once).
    fn link_crates(&self, job: &mut Job, mode: Mode, used: &[String]) -> Result<(), String> {
        let args = self.crates.args(mode, used)?;
        // Before `-o main main.rs`.
        let at = job.args.len().saturating_sub(3);
        job.args.splice(at..at, args);
        Ok(())
    }

    /// The verdict on a Rust claim that failed because it names a crate
    /// the book does not declare: where, and the table to add it to.
    fn undeclared(&self, claim: &Stated<'_>, obs: &Observation) -> Option<Verdict> {
        let names = self.crates.names();
        let missing: Vec<_> = mdbook_companion_core::crates::undeclared(&obs.diagnostics)
            .into_iter()
            .filter(|u| !names.contains(&u.name))
            .collect();
        let first = missing.first()?;
        // The program's lines are the block's, below its info string,
        // less the `fn main() {` a wrapped one starts with.
        let at = BlockLine {
            line: first
                .line
                .saturating_sub(usize::from(claim.program.wrapped)),
            column: Some(first.column),
        };
        let list: Vec<String> = missing.iter().map(|u| format!("`{}`", u.name)).collect();
        let (it, crates) = if list.len() == 1 {
            ("it", format!("the crate {}", list[0]))
        } else {
            ("them", format!("the crates {}", list.join(", ")))
        };
        Some(Verdict::fail_at(
            format!(
                "uses {crates}, which the book does not declare; add {it} to [preprocessor.companion.dependencies] in book.toml, such as `{name} = \"1\"` or `{name} = {{ path = \"../{name}\" }}`",
                name = first.name,
            ),
            &obs.diagnostics,
            at,
        ))
    }

    /// The observation with `output-filters` applied to what the compiler
    /// and the program wrote; `None` when there are no filters. The cache
    /// keeps what really happened, so changing a filter needs no compiler.
    fn filtered(&self, obs: &Observation) -> Option<Observation> {
        if self.filters.is_empty() {
            return None;
        }
        let scrub = |text: &str| OutputFilter::apply_all(&self.filters, text).into_owned();
        let mut obs = obs.clone();
        obs.diagnostics = scrub(&obs.diagnostics);
        if let Some(run) = &mut obs.run {
            run.stdout = scrub(&run.stdout);
            run.stderr = scrub(&run.stderr);
            run.report = run.report.as_deref().map(scrub);
        }
        Some(obs)
    }

    /// Checks claims in parallel on the current rayon pool, in order.
    pub fn check_all(&self, claims: &[Stated<'_>]) -> Vec<Outcome> {
        claims.par_iter().map(|c| self.check(c)).collect()
    }
}

/// A failure told in the chapter's lines: the places rustc and a panic
/// name in `main.rs` named in the author's file, where the claim knows
/// them ([`mdbook_companion_core::lines`]).
fn in_chapter(claim: &Stated<'_>, mut verdict: Verdict) -> Verdict {
    if let (
        Some(lines),
        Verdict::Failed {
            message, detail, ..
        },
    ) = (&claim.program.lines, &mut verdict)
    {
        *message = lines.tell(message);
        if let Some(d) = detail {
            *d = lines.tell(d);
        }
    }
    verdict
}

/// The outcome of a claim whose crates could not be built.
fn dependency_failure(message: String) -> Outcome {
    Outcome {
        verdict: Verdict::fail_with("uses the book's dependencies, which did not build", message),
        actual: None,
        cached: false,
        merged: false,
    }
}

#[cfg(test)]
pub(crate) mod tests;
