//! `mdbook-companion check`: prove what every example claims.
//!
//! The book is loaded as mdBook loads it ([`crate::book::load`]), every
//! directive's claims are collected from its rendering, and each claim is
//! checked by the engine's [`Checker`] in parallel, from the cache when
//! nothing changed. The [`report`] says what held ([`formats`]: for CI
//! systems); [`bless`] writes actual
//! outputs back into the chapters when asked.

pub mod bless;
pub mod formats;
pub mod locking;
pub mod observed;
pub mod partition;
pub mod report;

pub use observed::Observed;
pub use partition::Partition;
pub use report::{Checked, Report};

use crate::book::resolve::Run;
use crate::book::{load, plain};
use crate::core::claim::Claim;
use crate::core::config::{OnFailure, Warnings};
use crate::core::expect::Expect;
use crate::core::lang::Lang;
use crate::core::links::Mode;
use crate::core::problem::{Located, MissingTool, Purpose};
use crate::directive::Target;
use crate::engine::cache::Cache;
use crate::engine::check::{Checker, Outcome, Verdict};
use crate::engine::crates::{self, Crates};
use crate::engine::toolchain::Toolchain;
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

/// How `check` runs.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Worker threads; `None` means one per core.
    pub jobs: Option<usize>,
    /// Write actual outputs into the chapters' output blocks.
    pub bless: bool,
    /// Show a progress bar (on a terminal).
    pub progress: bool,
    /// Compare with `companion.lock` instead of writing it; differences
    /// fail the run.
    pub locked: bool,
    /// Compile every Rust example alone (no merged builds).
    pub no_merge: bool,
    /// Check only this share of the blocks (and report and cache only it).
    pub partition: Option<Partition>,
    /// Directories of compiled crates (`mdbook test -L`): a crate a Rust
    /// block names that is found there is passed with `--extern`.
    pub library_path: Vec<std::path::PathBuf>,
    /// Check only this chapter, by its title or its path under `src`
    /// (`mdbook test --chapter`).
    pub chapter: Option<String>,
    /// Run each passing plain block that printed something again (once,
    /// or many times when it starts threads), and keep what it printed in
    /// [`Checked::others`] (for `adopt`).
    pub second_runs: bool,
    /// Compile and run every Rust claim with this toolchain instead of
    /// the book's `rustc` (`--toolchain`).
    pub toolchain: Option<Toolchain>,
    /// Leave `companion.lock` alone and keep what the run observed in
    /// [`Report::observed`] (`drift`).
    pub observe: bool,
}

/// The files of the chapters `wanted` names (by title, by path under the
/// book's source directory, or as `check` shows it), or an error listing
/// the chapters.
fn chosen_chapter(loaded: &load::Loaded, wanted: &str) -> anyhow::Result<Vec<String>> {
    let src = loaded.config.src.to_string_lossy().replace('\\', "/");
    let wanted_path = wanted.replace('\\', "/");
    let files: Vec<String> = loaded
        .chapters
        .iter()
        .filter(|c| {
            let rel = c.file.strip_prefix(&format!("{src}/")).unwrap_or(&c.file);
            c.name == wanted || rel == wanted_path || c.file == wanted_path
        })
        .map(|c| c.file.clone())
        .collect();
    if files.is_empty() {
        let list: Vec<String> = loaded
            .chapters
            .iter()
            .map(|c| format!("  {} ({})", c.name, c.file))
            .collect();
        anyhow::bail!(
            "--chapter {wanted:?}: no chapter has this title or path; expected one of the book's chapters:\n{}",
            list.join("\n")
        );
    }
    Ok(files)
}

/// Where the libraries of the book's crates are, for `mdbook test -L`,
/// when an example uses one.
fn library_note(crates: &Crates, report: &Report) -> Option<String> {
    report
        .checked
        .iter()
        .any(|c| {
            c.claim.lang == Lang::Rust
                && !c.claim.ignore
                && !crates.used_by(&c.claim.source).is_empty()
        })
        .then_some(())?;
    let dir = [Mode::Debug, Mode::Release]
        .into_iter()
        .map(|m| crates.lib_dir(m))
        .find(|d| d.is_dir())?;
    Some(format!(
        "note: the book's crates are built in {0}; `mdbook test -L {0}` finds them",
        dir.display()
    ))
}

/// What check says of book.toml's preprocessors: a table whose name is
/// a misspelling of ours when there is no `[preprocessor.companion]` (an
/// error: the author meant ours, and `mdbook build` will not run it); a
/// book with directives that does not register ours (a note); other
/// preprocessors, which `check` does not run (notes). Errors, then notes.
fn preprocessor_notes(loaded: &load::Loaded, claims: &[Claim]) -> (Vec<String>, Vec<String>) {
    let misspelled = |name: &str| strsim::osa_distance(name, "companion") <= 2;
    let mut errors = Vec::new();
    let mut notes = Vec::new();
    if !loaded.registered {
        let near = loaded.other_preprocessors.iter().find(|n| misspelled(n));
        let directives = claims.iter().any(|c| c.doctest.is_none());
        if let Some(n) = near {
            errors.push(format!("book.toml does not register [preprocessor.companion]; mdbook build will not expand these directives (did you mean `companion`?): it has `[preprocessor.{n}]`"));
        } else if directives {
            notes.push("note: book.toml does not register [preprocessor.companion], so `mdbook build` will not expand the examples; `mdbook-companion install` adds it".to_owned());
        }
    }
    notes.extend(
        loaded
            .other_preprocessors
            .iter()
            .filter(|name| loaded.registered || !misspelled(name))
            .map(|name| format!("note: book.toml lists the preprocessor `{name}`; check does not run it, and checks the chapters as mdBook's `links` preprocessor leaves them")),
    );
    (errors, notes)
}

/// Checks the book at `root`: load it as mdBook does, collect the claims,
/// check them in parallel, bless if asked.
pub fn run(root: &Path, options: &Options) -> anyhow::Result<Report> {
    let mut loaded = load::load(root)?;
    let book_rustc = loaded.config.rustc.clone();
    if let Some(t) = &options.toolchain {
        loaded.config.rustc = t.rustc.to_string_lossy().into_owned();
    }
    let only = options
        .chapter
        .as_deref()
        .map(|c| chosen_chapter(&loaded, c))
        .transpose()?;
    let libraries = crates::Libraries::scan(&options.library_path).map_err(anyhow::Error::msg)?;
    // One value of the book's crates for the run: rendering (assembly
    // panels) and checking read and build them once.
    let crates = crates::for_check(&loaded.config, libraries);
    let mut run = Run::new(Cache::for_book(&loaded.root))
        .recording_assembly()
        .with_crates(Arc::clone(&crates));
    run.shared.chapters = loaded.chapters.iter().map(|c| c.file.clone()).collect();
    // A whole-book run renders as for a page, so the assembly panels the
    // lock keeps are made too; a share of the book makes none (it leaves
    // the lock alone and caches only its own blocks).
    let partial = options.partition.is_some() || only.is_some();
    let target = match partial {
        false => Target::Html,
        true => Target::Test,
    };
    let mut claims = book_claims(&loaded, &run, target, options.partition);
    // What `mdbook build` fails with, found by the build's own walk (after
    // the claims' render, so that their assembly is in the cache). What
    // it would fail with does not depend on the lock, so it reads none
    // (and hashes no claim for it).
    let build_run = Run::new(Cache::for_book(&loaded.root)).with_crates(Arc::clone(&crates));
    let (mut invalid, mut warnings) = load::build_says(&loaded, build_run, target);
    // A fence one edit from ours is a plain block whose claim nobody
    // checks: the build warns, check fails.
    let typos: Vec<Located> = loaded.chapters.iter().flat_map(load::typos).collect();
    warnings.retain(|w| !typos.contains(w));
    invalid.extend(typos.into_iter().map(|t| Located {
        message: format!("the block was not checked: {}", t.message),
        ..t
    }));
    let chapter_of = |file: &str| loaded.chapters.iter().position(|c| c.file == file);
    invalid.sort_by_key(|i| (chapter_of(&i.file), i.line, i.column));
    for list in [&mut invalid, &mut warnings] {
        if let Some(p) = options.partition {
            list.retain(|i| p.holds(&i.file, i.line));
        }
        if let Some(files) = &only {
            // A data file's fault goes with the chapter that asked for it.
            list.retain(|i| {
                files.contains(&i.file)
                    || i.asked_for_by()
                        .is_some_and(|c| files.iter().any(|f| f == c))
            });
        }
    }
    if let Some(files) = &only {
        claims.retain(|c| files.contains(&c.file));
    }
    let checker = Checker::new(&loaded.config).with_crates(Arc::clone(&crates));
    let jobs = options
        .jobs
        .filter(|&j| j > 0)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let pool = rayon::ThreadPoolBuilder::new().num_threads(jobs).build()?;
    let bar = report::progress_bar(options.progress, claims.len());
    let check = |c: &Claim| {
        let o = checker.check(c);
        if let Some(bar) = &bar {
            bar.inc(1);
        }
        o
    };
    let outcomes: Vec<Outcome> = pool.install(|| {
        if options.no_merge {
            return claims.par_iter().map(check).collect();
        }
        // What no merged build takes is checked while they are built, so
        // that no worker waits for the last of them.
        let (alone, ()) = rayon::join(
            || {
                claims
                    .par_iter()
                    .map(|c| (!checker.merges(c)).then(|| check(c)))
                    .collect::<Vec<Option<Outcome>>>()
            },
            || checker.prepare(&claims),
        );
        claims
            .par_iter()
            .zip(alone)
            .map(|(c, o)| o.unwrap_or_else(|| check(c)))
            .collect()
    });
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let others: Vec<Vec<String>> = pool.install(|| {
        claims
            .par_iter()
            .zip(&outcomes)
            .map(|(c, o)| {
                let printed = c.doctest.is_some()
                    && o.verdict == Verdict::Passed
                    && matches!(c.expect, Expect::Run | Expect::Panic)
                    && o.actual.is_some();
                match options.second_runs && printed {
                    true => checker.other_actuals(c),
                    false => Vec::new(),
                }
            })
            .collect()
    });
    let (errors, preprocessors) = preprocessor_notes(&loaded, &claims);
    // The toolchain the book's file chose, unless `--toolchain` says
    // otherwise.
    let toolchain = match (&options.toolchain, &loaded.config.rustc_from) {
        (None, Some(from)) => Some(format!("note: Rust is checked with {from}")),
        _ => None,
    };
    let notes = toolchain
        .into_iter()
        .chain(warnings.iter().map(|w| format!("warning: {w}")))
        .chain(preprocessors)
        .collect();
    let checked: Vec<Checked> = claims
        .into_iter()
        .zip(outcomes)
        .zip(others)
        .map(|((claim, outcome), others)| Checked {
            claim,
            outcome,
            others,
        })
        .collect();
    let mut report = Report {
        notes,
        errors,
        deny_warnings: loaded.config.warnings == Warnings::Deny,
        checked,
        invalid,
        chapters: loaded.chapters.iter().map(|c| c.file.clone()).collect(),
        ..Report::default()
    };
    let mut missing: BTreeMap<(String, &'static str), Vec<String>> = BTreeMap::new();
    for c in &report.checked {
        if let (Verdict::Unchecked { tool, key }, Some(compiler)) =
            (&c.outcome.verdict, c.claim.lang.compiler())
        {
            missing
                .entry((tool.clone(), key.unwrap_or(compiler.key())))
                .or_default()
                .push(format!("{}:{}", c.claim.file, c.claim.line));
        }
    }
    report.missing = missing
        .into_iter()
        .map(|((tool, key), blocks)| MissingTool {
            tool,
            key,
            purpose: Purpose::Check,
            at: blocks,
        })
        .collect();
    if options.bless {
        let src = loaded.root.join(&loaded.config.src);
        report.bless_notes = bless::bless(&src, &mut report.checked)?;
        // The lock describes the blessed book: its claims as read from
        // the rewritten chapters (new outputs, and lines moved by them).
        let reloaded = load::load(root)?;
        let again = book_claims(&reloaded, &run, target, options.partition);
        if let Some(note) = rebless(&mut report.checked, again) {
            report.bless_notes.push(note);
        }
    }
    report.counters = checker.counters();
    if let Some(note) = library_note(&crates, &report) {
        report.lock_notes.push(note);
    }
    let assembly = run
        .assembly
        .take()
        .map(|m| m.into_inner().unwrap_or_else(|e| e.into_inner()))
        .unwrap_or_default();
    let lock = locking::of_run(&report, &checker, assembly);
    let lock = locking::keep_other_arch(&loaded.root, lock);
    if options.observe {
        report.observed = Some(Arc::new(Observed {
            placed: std::mem::take(&mut *run.placed.lock().unwrap_or_else(|e| e.into_inner())),
            lock,
            checker,
            config: loaded.config,
            book_rustc,
        }));
        return Ok(report);
    }
    let claims: std::collections::HashMap<String, &Claim> = report
        .checked
        .iter()
        .map(|c| (checker.claim_key(&c.claim), &c.claim))
        .collect();
    let accepts = |hash: &str, run: &crate::core::run::RecordedRun| {
        claims
            .get(hash)
            .is_some_and(|c| checker.accepts_recorded(c, run))
    };
    if options.partition.is_some() {
        report
            .lock_notes
            .push("note: a partitioned run leaves companion.lock alone".to_owned());
    } else if only.is_some() {
        report
            .lock_notes
            .push("note: a run of one chapter leaves companion.lock alone".to_owned());
    } else if options.locked {
        let places: Vec<(String, String)> = (run.placed.lock())
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .map(|p| (p.hash.clone(), format!("{}:{}", p.file, p.line)))
            .collect();
        report.lock_errors = locking::differences(&loaded.root, &lock, &places, accepts);
    } else {
        let lock = locking::keep_accepted_runs(&loaded.root, lock, accepts);
        locking::write(&loaded.root, &lock, &mut report.lock_notes)?;
    }
    Ok(report)
}

/// The claims of every chapter of `loaded` (directives and plain blocks,
/// in book order), within the partition if any. The blocks that cannot
/// be read are the build's errors ([`load::build_errors`]).
fn book_claims(
    loaded: &load::Loaded,
    run: &Run,
    target: Target,
    partition: Option<Partition>,
) -> Vec<Claim> {
    // Code that does not compile is the claim's failure, told by its
    // verdict: its assembly panel must not turn the block into an
    // unreadable directive (and hide its claims), as it does under `bail`.
    let mut render_config = loaded.config.clone();
    render_config.on_failure = OnFailure::Continue;
    let triple = crate::core::doctest::host_triple();
    let mut claims = Vec::new();
    for chapter in &loaded.chapters {
        let mut c = load::claims(chapter, &render_config, run, target);
        c.extend(plain::claims(chapter, loaded.test_edition, &triple));
        c.sort_by_key(|c| c.offset);
        claims.extend(c);
    }
    if let Some(p) = partition {
        claims.retain(|c| p.holds(&c.file, c.line));
    }
    claims
}

/// After `--bless`: each checked claim becomes the claim its block makes
/// now (`again`, read from the rewritten chapters), keeping its outcome,
/// so the lock holds the blessed text's entries at their lines. When the
/// chapters no longer give the same blocks (one was edited meanwhile), a
/// note says to check again.
fn rebless(checked: &mut [Checked], again: Vec<Claim>) -> Option<String> {
    let same = checked.len() == again.len()
        && checked
            .iter()
            .zip(&again)
            .all(|(c, a)| c.claim.file == a.file && c.claim.what == a.what);
    if !same {
        return Some(
            "note: the chapters changed while blessing; run `mdbook-companion check` again before committing companion.lock".to_owned(),
        );
    }
    for (c, a) in checked.iter_mut().zip(again) {
        c.claim = a;
    }
    None
}
