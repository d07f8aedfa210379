//! `mdbook-companion drift BOOK --toolchain NAME`: what in the book
//! changes with another compiler.
//!
//! `companion.lock` records, per claim, the verdict, the toolchain that
//! gave it and what the program did (its output, its panic message, the
//! compiler's error), and the text of every assembly panel. `drift`
//! checks the book as `check --toolchain NAME` does, without writing the
//! lock (or any file of the author's), and compares claim by claim: a
//! verdict that flips, an output, a panic message, an error code or
//! compiler message, or an assembly listing that differs while the claim
//! still holds, and warnings that appear (the lock keeps no warnings, so
//! they are compared with the book's own compiler's). [`report`] tells it
//! as text, JSON, GitHub annotations or JUnit XML.

pub mod report;

use super::check::{self, Checked, Observed, Report};
use crate::book::session::Session;
use mdbook_companion_core::claim::{Claim, Recorded};
use mdbook_companion_core::lang::Lang;
use mdbook_companion_core::run::RecordedRun;
use mdbook_companion_engine::check::{Checker, Verdict, rustc};
use mdbook_companion_engine::crates;
use mdbook_companion_engine::lock::{self, Lock, Read};
use mdbook_companion_engine::toolchain::Toolchain;
use rayon::prelude::*;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;
use std::sync::Arc;

/// How `drift` runs.
#[derive(Debug, Clone)]
pub struct Options {
    /// The toolchain to compare with the lock.
    pub toolchain: Toolchain,
    /// Worker threads; `None` means one per core.
    pub jobs: Option<usize>,
    /// Show a progress bar (on a terminal).
    pub progress: bool,
}

/// What about a claim changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Aspect {
    /// The verdict flipped (held, now fails, or the reverse).
    Verdict,
    /// The program's standard output.
    Output,
    /// Its panic message.
    Panic,
    /// Its standard error (not a panic message).
    Stderr,
    /// The error codes of code that does not compile.
    ErrorCode,
    /// The compiler's message for code that does not compile.
    Message,
    /// The assembly listing.
    Assembly,
    /// Warnings that appear.
    Warnings,
}

impl Aspect {
    /// The words the text report uses.
    pub fn name(self) -> &'static str {
        match self {
            Aspect::Verdict => "verdict",
            Aspect::Output => "output",
            Aspect::Panic => "panic message",
            Aspect::Stderr => "stderr",
            Aspect::ErrorCode => "error code",
            Aspect::Message => "compiler message",
            Aspect::Assembly => "assembly listing",
            Aspect::Warnings => "new warnings",
        }
    }
}

/// One change of one claim.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Change {
    /// What changed.
    pub kind: Aspect,
    /// In one line.
    pub message: String,
    /// The text before (the lock's), when there is text.
    pub before: Option<String>,
    /// The text now.
    pub after: Option<String>,
}

/// A claim whose observation changed.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Drifted {
    /// The chapter file.
    pub file: String,
    /// The block's line.
    pub line: usize,
    /// What the block is.
    pub what: String,
    /// The claimed outcome.
    pub expect: String,
    /// The toolchain the lock names for it.
    pub from: String,
    /// The toolchain of this run.
    pub to: String,
    /// Its verdict flipped.
    pub flipped: bool,
    /// Every change, the verdict's first.
    pub changes: Vec<Change>,
}

/// The result of `drift`.
#[derive(Debug, Clone, Default)]
pub struct Drift {
    /// Claims compared with the lock.
    pub claims: usize,
    /// The claims whose observation changed, in book order.
    pub drifted: Vec<Drifted>,
    /// Claims the lock has no entry for (`file:line: what`): not compared.
    pub unlocked: Vec<String>,
    /// The Rust toolchain the lock names (the most common).
    pub from: String,
    /// The Rust toolchain of this run.
    pub to: String,
    /// Notes (the book's compiler that warnings are compared with, …).
    pub notes: Vec<String>,
    /// The check run behind it (its counters, missing compilers).
    pub report: Report,
}

impl Drift {
    /// Claims whose verdict flipped.
    pub fn flipped(&self) -> usize {
        self.drifted.iter().filter(|d| d.flipped).count()
    }

    /// `N claims: M the same, K changed (rustc A → rustc B)`.
    pub fn summary(&self) -> String {
        let changed = self.drifted.len();
        let mut s = format!(
            "{} claims: {} the same, {changed} changed",
            self.claims,
            self.claims.saturating_sub(changed)
        );
        let flipped = self.flipped();
        if flipped > 0 {
            s.push_str(&format!(", {flipped} of them flipped"));
        }
        if !self.unlocked.is_empty() {
            s.push_str(&format!(
                "; {} not in {} (not compared)",
                self.unlocked.len(),
                lock::FILE
            ));
        }
        s.push_str(&format!(" ({} → {})", short(&self.from), short(&self.to)));
        s
    }
}

/// `rustc 1.95.0` of `rustc 1.95.0 (59807616e 2026-04-14)`.
pub fn short(toolchain: &str) -> &str {
    let mut words = toolchain.split_whitespace();
    match (words.next(), words.next()) {
        (Some(a), Some(b)) => &toolchain[..a.len() + 1 + b.len()],
        _ if toolchain.is_empty() => "no compiler",
        _ => toolchain,
    }
}

/// Checks the book at `root` with the toolchain and compares with its
/// lock; writes nothing.
pub fn run(root: &Path, options: &Options) -> anyhow::Result<Drift> {
    let mut session = Session::open(root, Some(&options.toolchain), &[])?;
    let old = match &session.lock {
        Read::Lock(l) => l.clone(),
        Read::Missing => anyhow::bail!(
            "{} has no {}: drift compares a toolchain with what `mdbook-companion check` recorded; run `mdbook-companion check {}` first",
            root.display(),
            lock::FILE,
            root.display()
        ),
        Read::Invalid(why) => {
            anyhow::bail!("{why}; run `mdbook-companion check` to rewrite it")
        }
    };
    let report = check::checked_book(
        &mut session,
        &check::Options {
            jobs: options.jobs,
            progress: options.progress,
            toolchain: Some(options.toolchain.clone()),
            ..check::Options::default()
        },
    )?;
    let observed = Arc::new(check::observed(session, &report));
    let pool = check::pool(options.jobs)?;
    Ok(pool.install(|| compare(&old, report, &observed)))
}

/// The claims of `report` compared with the lock `old`.
fn compare(old: &Lock, report: Report, observed: &Arc<Observed>) -> Drift {
    let checker = &observed.checker;
    let old_blocks: HashMap<&str, &lock::Entry> =
        old.blocks.iter().map(|e| (e.hash.as_str(), e)).collect();
    let new_blocks: HashMap<&str, &lock::Entry> = observed
        .lock
        .blocks
        .iter()
        .map(|e| (e.hash.as_str(), e))
        .collect();
    let to = checker.version(Lang::Rust).unwrap_or_default();
    let from = most_common(
        old.blocks
            .iter()
            .filter(|e| e.toolchain.starts_with("rustc")),
    )
    .unwrap_or_else(|| to.clone());
    // Warnings are compared with the book's own compiler, asked only for
    // the claims that warn now.
    let mut book_config = observed.config.clone();
    book_config.rustc = observed.book_rustc.clone();
    let book = Checker::new(&book_config).with_crates(crates::for_book(&book_config));
    let book_version = book.version(Lang::Rust);
    let mut drift = Drift {
        from,
        to,
        ..Drift::default()
    };
    // The warnings first, in parallel: each is a compile of its own.
    let warned: Vec<Option<Change>> = report
        .checked
        .par_iter()
        .map(|c| {
            let hash = checker.claim_key(&c.claim.stated());
            let passes = new_blocks
                .get(hash.as_str())
                .is_some_and(|e| e.verdict == Recorded::Passed);
            match passes && old_blocks.contains_key(hash.as_str()) {
                true => warnings_change(checker, &book, &c.claim),
                false => None,
            }
        })
        .collect();
    let mut by_place: BTreeMap<(String, usize), usize> = BTreeMap::new();
    for (c, warned) in report.checked.iter().zip(warned) {
        let hash = checker.claim_key(&c.claim.stated());
        let (Some(new), Some(was)) = (new_blocks.get(hash.as_str()), old_blocks.get(hash.as_str()))
        else {
            drift.unlocked.push(format!(
                "{}:{}: {}",
                c.claim.origin.file, c.claim.origin.line, c.claim.origin.what
            ));
            continue;
        };
        drift.claims += 1;
        let entry = drifted(c, was, new, warned);
        by_place
            .entry((entry.file.clone(), entry.line))
            .or_insert(drift.drifted.len());
        drift.drifted.push(entry);
    }
    assembly_changes(old, observed, &mut drift, &by_place);
    drift.drifted.retain(|d| !d.changes.is_empty());
    in_book_order(&mut drift.drifted, &report.checked);
    if let Some(v) = book_version.filter(|v| lock::toolchain(v) != drift.from) {
        drift.notes.push(format!(
            "note: warnings are compared with the book's compiler here ({}), not with {} that the lock names",
            short(&lock::toolchain(&v)),
            short(&drift.from)
        ));
    }
    drift.report = report;
    // The work of the whole comparison: the check, and the warnings
    // asked of both compilers.
    let (mut counters, asked) = (checker.counters(), book.counters());
    counters.compiler_runs += asked.compiler_runs;
    counters.cache_hits += asked.cache_hits;
    drift.report.counters = counters;
    drift
}

/// What changed for one claim `c` between its lock entry `was` and this
/// run's `new`: its verdict, its run (when it passed both times) and its
/// warnings (`warned`).
fn drifted(c: &Checked, was: &lock::Entry, new: &lock::Entry, warned: Option<Change>) -> Drifted {
    let mut changes = verdict_change(was, new, &c.outcome.verdict);
    // Held, now fails, or the reverse (not checked here is a change,
    // not a flip: the machine's, not the compiler's).
    let flipped = matches!(
        (was.verdict, new.verdict),
        (Recorded::Passed, Recorded::Failed) | (Recorded::Failed, Recorded::Passed)
    );
    if let (Recorded::Passed, Recorded::Passed, Some(a), Some(b)) =
        (was.verdict, new.verdict, &was.run, &new.run)
    {
        changes.extend(run_changes(a, b));
    }
    changes.extend(warned);
    Drifted {
        file: c.claim.origin.file.clone(),
        line: c.claim.origin.line,
        what: c.claim.origin.what.clone(),
        expect: c.claim.expectation.expect.name().to_owned(),
        from: was.toolchain.clone(),
        to: new.toolchain.clone(),
        flipped,
        changes,
    }
}

/// `drifted` in book order: chapters as `checked` names them, lines
/// within each.
fn in_book_order(drifted: &mut [Drifted], checked: &[Checked]) {
    let mut chapters: Vec<&str> = Vec::new();
    for c in checked {
        if !chapters.contains(&c.claim.origin.file.as_str()) {
            chapters.push(&c.claim.origin.file);
        }
    }
    drifted.sort_by_key(|d| {
        (
            chapters
                .iter()
                .position(|f| *f == d.file)
                .unwrap_or(usize::MAX),
            d.line,
        )
    });
}

/// The most common toolchain of `entries`.
fn most_common<'a>(entries: impl Iterator<Item = &'a lock::Entry>) -> Option<String> {
    let mut count: BTreeMap<&str, usize> = BTreeMap::new();
    for e in entries {
        *count.entry(e.toolchain.as_str()).or_default() += 1;
    }
    count
        .into_iter()
        .max_by_key(|(_, n)| *n)
        .map(|(t, _)| t.to_owned())
}

/// A verdict that changed: a flip between held and fails (or any other
/// change of the recorded verdict), with what the check says now.
fn verdict_change(was: &lock::Entry, new: &lock::Entry, now: &Verdict) -> Vec<Change> {
    if was.verdict == new.verdict {
        return Vec::new();
    }
    let mut message = format!(
        "{} with {}, {} with {}",
        was.verdict,
        short(&was.toolchain),
        new.verdict,
        short(&new.toolchain)
    );
    let (mut before, mut after) = (None, None);
    if let Verdict::Failed {
        message: why,
        expected,
        actual,
        detail,
        ..
    } = now
    {
        message.push_str(&format!(": {why}"));
        before = expected.clone();
        after = actual.clone().or_else(|| detail.clone());
    }
    vec![Change {
        kind: Aspect::Verdict,
        message,
        before,
        after,
    }]
}

/// rustc's text with the places in the standard library's sources made
/// alike, as rustc's own UI tests make them (`$SRC_DIR/core/src/…:LL:COL`):
/// they name the compiler's commit and move with every release.
fn scrub(text: &str) -> String {
    static SRC: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let re = SRC.get_or_init(|| {
        regex::Regex::new(r"/rustc/[0-9a-f]{7,40}/library/([^\s:]+):\d+:\d+")
            .expect("a valid pattern")
    });
    re.replace_all(text, "$$SRC_DIR/$1:LL:COL").into_owned()
}

/// What differs between two recorded runs of a claim that still holds.
fn run_changes(was: &RecordedRun, now: &RecordedRun) -> Vec<Change> {
    let (was, now) = (
        &RecordedRun {
            stderr: scrub(&was.stderr),
            ..was.clone()
        },
        &RecordedRun {
            stderr: scrub(&now.stderr),
            ..now.clone()
        },
    );
    let mut out = Vec::new();
    let change = |kind: Aspect, message: String, a: &str, b: &str| Change {
        kind,
        message,
        before: Some(a.to_owned()),
        after: Some(b.to_owned()),
    };
    match (was.compiled, now.compiled) {
        (true, true) => {
            if was.stdout != now.stdout {
                out.push(change(
                    Aspect::Output,
                    "the output differs".into(),
                    &was.stdout,
                    &now.stdout,
                ));
            }
            if was.stderr != now.stderr {
                match (
                    rustc::panic_message(&was.stderr),
                    rustc::panic_message(&now.stderr),
                ) {
                    (Some(a), Some(b)) if a != b => out.push(change(
                        Aspect::Panic,
                        "the panic message differs".into(),
                        &a,
                        &b,
                    )),
                    (Some(_), Some(_)) => {}
                    _ => out.push(change(
                        Aspect::Stderr,
                        "what the program writes to stderr differs".into(),
                        &was.stderr,
                        &now.stderr,
                    )),
                }
            }
        }
        (false, false) if was.stderr != now.stderr => {
            let (a, b) = (
                rustc::error_codes(&was.stderr),
                rustc::error_codes(&now.stderr),
            );
            if a != b {
                let list = |c: &[String]| match c.is_empty() {
                    true => "no error code".to_owned(),
                    false => c.join(", "),
                };
                out.push(change(
                    Aspect::ErrorCode,
                    format!("the error codes differ: {} → {}", list(&a), list(&b)),
                    &was.stderr,
                    &now.stderr,
                ));
            } else {
                out.push(change(
                    Aspect::Message,
                    "the compiler's message differs".into(),
                    &was.stderr,
                    &now.stderr,
                ));
            }
        }
        (false, false) => {}
        _ => {
            // Held both times, compiled once (a plain block's outcome
            // that both meet).
            out.push(Change {
                kind: Aspect::Message,
                message: match now.compiled {
                    true => "compiles now".into(),
                    false => "does not compile now".into(),
                },
                before: Some(was.stderr.clone()),
                after: Some(now.stderr.clone()),
            });
        }
    }
    out
}

/// Warnings the toolchain gives that the book's compiler does not.
fn warnings_change(checker: &Checker, book: &Checker, claim: &Claim) -> Option<Change> {
    let now = checker.warnings(&claim.stated())?;
    if now.is_empty() {
        return None;
    }
    let before = book.warnings(&claim.stated()).unwrap_or_default();
    let had: BTreeSet<&String> = before.iter().collect();
    let new: Vec<&String> = now.iter().filter(|w| !had.contains(w)).collect();
    let first = new.first()?;
    Some(Change {
        kind: Aspect::Warnings,
        message: format!(
            "{} new warning(s): {}",
            new.len(),
            first.lines().next().unwrap_or_default()
        ),
        before: Some(before.join("\n")),
        after: Some(now.join("\n")),
    })
}

/// Assembly panels whose listing differs from the lock's, each told at
/// its block (with the claim there when there is one).
fn assembly_changes(
    old: &Lock,
    observed: &Observed,
    drift: &mut Drift,
    by_place: &BTreeMap<(String, usize), usize>,
) {
    let was: HashMap<&str, &lock::Assembly> =
        old.assembly.iter().map(|a| (a.hash.as_str(), a)).collect();
    let mut seen = BTreeSet::new();
    for panel in &observed.lock.assembly {
        let Some(before) = was.get(panel.hash.as_str()) else {
            continue;
        };
        if !seen.insert(panel.hash.as_str()) {
            continue;
        }
        let place = observed.placed.iter().find(|p| p.hash == panel.hash);
        let at = place.and_then(|p| by_place.get(&(p.file.clone(), p.line)));
        if at.is_none() {
            // A panel no claim stands at is compared on its own.
            drift.claims += 1;
        }
        if before.listing == panel.listing {
            continue;
        }
        let change = Change {
            kind: Aspect::Assembly,
            message: "the assembly listing differs".into(),
            before: Some(before.listing.clone()),
            after: Some(panel.listing.clone()),
        };
        match at.and_then(|&i| drift.drifted.get_mut(i)) {
            Some(d) => d.changes.push(change),
            None => {
                drift.drifted.push(Drifted {
                    file: place.map(|p| p.file.clone()).unwrap_or_default(),
                    line: place.map_or(0, |p| p.line),
                    what: "assembly panel".into(),
                    expect: "asm".into(),
                    from: before.toolchain.clone(),
                    to: panel.toolchain.clone(),
                    flipped: false,
                    changes: vec![change],
                });
            }
        }
    }
}

#[cfg(test)]
mod tests;
