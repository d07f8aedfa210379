//! `mdbook-companion check`: prove what every example claims.
//!
//! The book is loaded once, as mdBook loads it, into a
//! [`Session`]; every directive's claims
//! are collected from its rendering, and each claim is checked by the
//! session's checker in parallel, from the cache when nothing changed.
//! `check` is a policy over the session (bless, then write or compare
//! `companion.lock`); `adopt` and `drift` are others, over
//! [`checked_book`]. The [`report`] says what held ([`formats`]: for CI
//! systems); [`bless`] writes actual
//! outputs back into the chapters when asked.

pub mod bless;
pub mod bless_toml;
pub mod formats;
pub mod locking;
pub mod observed;
pub mod partition;
pub mod report;
mod workers;

pub use observed::Observed;
pub use partition::Partition;
pub use report::{Checked, Report};
pub use workers::pool;

use crate::book::BookOutcome;
use crate::book::load;
use crate::book::plain;
use crate::book::session::Session;
use mdbook_companion_core::claim::Claim;
use mdbook_companion_core::config::{Isolation, Warnings};
use mdbook_companion_core::links::Mode;
use mdbook_companion_core::problem::{Located, MissingTool, Purpose};
use mdbook_companion_directives::Target;
use mdbook_companion_engine::check::Verdict;
use mdbook_companion_engine::crates::Crates;
use mdbook_companion_engine::lock;
use mdbook_companion_engine::toolchain::Toolchain;
use std::collections::BTreeMap;
use std::path::Path;

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
    /// Every failing plain block's diagnostics as rustc words them for
    /// the block alone, not a merged build's or our lexer's (`--exact`;
    /// `--bless` and `--no-merge` too).
    pub exact: bool,
    /// Check only this share of the blocks (and report and cache only it).
    pub partition: Option<Partition>,
    /// Directories of compiled crates (`mdbook test -L`): a crate a Rust
    /// block names that is found there is passed with `--extern`.
    pub library_path: Vec<std::path::PathBuf>,
    /// Check only this chapter, by its title or its path under `src`
    /// (`mdbook test --chapter`).
    pub chapter: Option<String>,
    /// Compile and run every Rust claim with this toolchain instead of
    /// the book's `rustc` (`--toolchain`).
    pub toolchain: Option<Toolchain>,
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
            c.claim.program.lang.follows_rustdoc()
                && !c.claim.expectation.ignore
                && !crates.used_by(&c.claim.program.source).is_empty()
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
        let directives = claims.iter().any(|c| c.program.doctest.is_none());
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

/// What a command checks of a session's book: every chapter, one
/// (`--chapter`) or a share (`--partition`), rendered for the page or for
/// `mdbook test`.
struct Scope {
    /// The files of the chapters `--chapter` chose.
    only: Option<Vec<String>>,
    partition: Option<Partition>,
    /// What the claims are rendered for.
    target: Target,
}

impl Scope {
    fn of(session: &Session, options: &Options) -> anyhow::Result<Scope> {
        let only = options
            .chapter
            .as_deref()
            .map(|c| chosen_chapter(&session.loaded, c))
            .transpose()?;
        // A whole-book run renders as for a page, so the assembly panels
        // the lock keeps are made too; so does a share of the book under
        // `--locked`, which compares its own blocks' panels (and makes no
        // other). A share without `--locked` makes none: it leaves the
        // lock alone and caches only its own blocks.
        let partial = options.partition.is_some() || only.is_some();
        let target = match partial && !options.locked {
            false => Target::Html,
            true => Target::Test,
        };
        Ok(Scope {
            only,
            partition: options.partition,
            target,
        })
    }

    /// Whether this is a share of the book (`--chapter`, `--partition`).
    fn partial(&self) -> bool {
        self.only.is_some() || self.partition.is_some()
    }

    /// Whether the chapter `file` is one this scope renders.
    fn renders(&self, file: &str) -> bool {
        (self.only.as_ref()).is_none_or(|files| files.iter().any(|o| o == file))
    }

    /// Whether the block at `file:line` (a claim's place, an assembly
    /// panel's) is one this scope judges.
    fn holds(&self, file: &str, line: usize) -> bool {
        self.renders(file) && self.partition.is_none_or(|p| p.holds(file, line))
    }

    /// The one walk over the chapters of `session` `keep` keeps
    /// ([`Session::walk`]), with the claims within the scope, in book
    /// order. The build of the whole book fails on code whose assembly
    /// panel cannot be made; a share judges the panels of its own blocks
    /// only under `--locked`, and fails on none.
    fn walk(&self, session: &mut Session, keep: impl Fn(&str) -> bool) -> BookOutcome {
        let panels = |file: &str, line| self.holds(file, line);
        let mut walked = session.walk(self.target, keep, &panels, !self.partial());
        walked.claims.retain(|(f, c)| {
            self.renders(f)
                && self
                    .partition
                    .is_none_or(|p| p.holds(&c.origin.file, c.origin.line))
        });
        walked
    }

    /// The entries of the committed lock this scope judges under
    /// `--locked` (`new`: this run's lock): all of them for the whole
    /// book; for a share, those of its chapters (and of the quiz files
    /// they read) within its partition, and the panels this run made.
    fn judged(&self, old: &lock::Read, new: &lock::Lock) -> lock::Read {
        if !self.partial() {
            return locking::same(old);
        }
        let files: std::collections::HashSet<&str> = (new.blocks.iter())
            .map(|e| e.chapter.as_str())
            .chain(self.only.iter().flatten().map(String::as_str))
            .collect();
        locking::share(old, new, |e| {
            (self.only.is_none() || files.contains(e.chapter.as_str()))
                && self.partition.is_none_or(|p| p.holds(&e.chapter, e.line))
        })
    }

    /// What a share says of the lock: that `--locked` judged its blocks
    /// only, or that it left the lock alone.
    fn lock_note(&self, locked: bool) -> Option<String> {
        let share = match (&self.only, self.partition) {
            (_, Some(_)) => "a partitioned run",
            (Some(_), None) => "a run of one chapter",
            (None, None) => return None,
        };
        Some(match locked {
            true => format!(
                "note: --locked in {share} compares companion.lock's entries for its own blocks only"
            ),
            false => format!("note: {share} leaves companion.lock alone"),
        })
    }
}

/// Checks the book at `root`: load it as mdBook does, collect the claims,
/// check them in parallel, bless if asked, then write `companion.lock` or
/// compare with it (`--locked`).
pub fn run(root: &Path, options: &Options) -> anyhow::Result<Report> {
    let mut session = Session::open(root, options.toolchain.as_ref(), &options.library_path)?;
    let scope = Scope::of(&session, options)?;
    // `--no-merge` compiles every block, for rustc's words as well.
    if options.exact || options.bless || options.no_merge {
        session.checker.exact_diagnostics();
    }
    let mut report = checked(&mut session, &scope, options)?;
    if options.bless {
        bless_in(&mut session, &scope, &mut report)?;
        report.counters = session.checker.counters();
    }
    let keys = locking::claim_keys(&report, &session.checker);
    let lock = lock_of(&session, &report, &keys);
    let claims: std::collections::HashMap<&str, &Claim> = (keys.iter())
        .map(String::as_str)
        .zip(report.checked.iter().map(|c| &c.claim))
        .collect();
    let accepts = |hash: &str, run: &mdbook_companion_core::run::RecordedRun| {
        claims
            .get(hash)
            .is_some_and(|c| session.checker.accepts_recorded(&c.stated(), run))
    };
    let mut lock_notes: Vec<String> = scope.lock_note(options.locked).into_iter().collect();
    let mut lock_errors = Vec::new();
    if options.locked {
        // Under `--chapter` or `--partition`, the chosen blocks' entries
        // (a missing lock fails as for the whole book).
        let places: Vec<(String, String)> = (session.run.placed.lock())
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .map(|p| (p.hash.clone(), format!("{}:{}", p.file, p.line)))
            .collect();
        let judged = scope.judged(&session.lock, &lock);
        lock_errors = locking::differences(&judged, &lock, &places, accepts);
        report.lock_unread = match judged {
            lock::Read::Lock(_) => None,
            lock::Read::Missing => Some("is missing"),
            lock::Read::Invalid(_) => Some("does not parse"),
        };
    } else if scope.partial() {
        // Leaves the lock alone: the note says so.
    } else {
        let lock = locking::keep_accepted_runs(&session.lock, lock, accepts);
        locking::write(&session.loaded.root, &session.lock, &lock, &mut lock_notes)?;
    }
    report.lock_notes.extend(lock_notes);
    report.lock_errors = lock_errors;
    Ok(report)
}

/// The lock this session's report makes (not written): its claims'
/// entries (`keys`: their hashes, in the report's order), the assembly
/// the run recorded, and the committed lock's verdicts for claims about
/// another architecture.
fn lock_of(session: &Session, report: &Report, keys: &[String]) -> lock::Lock {
    let assembly = (session.run.assembly.as_ref())
        .map(|m| m.lock().unwrap_or_else(|e| e.into_inner()).clone())
        .unwrap_or_default();
    let lock = locking::of_run(report, &session.checker, keys, assembly);
    locking::keep_other_arch(&session.lock, lock)
}

/// What `drift` keeps of a session: the lock it would write and the
/// session's checker, configuration and assembly places; `companion.lock`
/// is left alone.
pub fn observed(session: Session, report: &Report) -> Observed {
    let lock = lock_of(
        &session,
        report,
        &locking::claim_keys(report, &session.checker),
    );
    Observed {
        placed: std::mem::take(&mut *session.run.placed.lock().unwrap_or_else(|e| e.into_inner())),
        lock,
        checker: session.checker,
        config: session.loaded.config,
        book_rustc: session.book_rustc,
    }
}

/// `--bless`: the actual outputs written into the chapters and quiz
/// files, then the claims of the chapters that may have changed (those
/// with a claim that did not hold or an output block to add) read again, so the lock describes the
/// blessed book: new outputs, and lines moved by them. No other chapter
/// is loaded or rendered again.
fn bless_in(session: &mut Session, scope: &Scope, report: &mut Report) -> anyhow::Result<()> {
    // The chapters bless may write: a claim that did not hold, or an
    // example that printed with no output block (bless adds one, which
    // moves every block after it).
    let mut touched: Vec<String> = report
        .checked
        .iter()
        .filter(|c| c.outcome.verdict != Verdict::Passed || report::unclaimed_output(c).is_some())
        .map(|c| c.chapter.clone())
        .collect();
    touched.dedup();
    let src = session.loaded.root.join(&session.loaded.config.src);
    report.bless_notes = bless::bless(&src, &mut report.checked)?;
    report.bless_notes.extend(bless_toml::bless(
        &session.loaded.root,
        &session.checker,
        &mut report.checked,
    )?);
    session.reload(&touched)?;
    let again = scope
        .walk(session, |f| touched.iter().any(|t| t == f))
        .claims;
    if let Some(note) = rebless(&mut report.checked, again, &touched) {
        report.bless_notes.push(note);
    }
    Ok(())
}

/// Every claim of the session within `scope` checked (merged builds
/// first, what they do not take beside them), with what `mdbook build`
/// would fail with and warn of, and the notes about the book's setup. The
/// lock is neither written nor compared: that is the caller's policy.
pub fn checked_book(session: &mut Session, options: &Options) -> anyhow::Result<Report> {
    let scope = Scope::of(session, options)?;
    checked(session, &scope, options)
}

fn checked(session: &mut Session, scope: &Scope, options: &Options) -> anyhow::Result<Report> {
    use mdbook_companion_engine::exec::Confinement;
    let isolation = session.loaded.config.isolation;
    let confinement = mdbook_companion_engine::exec::confinement(isolation);
    if let (Confinement::Landlock(why) | Confinement::None(why), Isolation::Required) =
        (&confinement, isolation)
    {
        anyhow::bail!(
            "book.toml sets `isolation = \"required\"`, but the book's programs cannot run in a box on this machine: {why}"
        );
    }
    // One walk: the claims, and what `mdbook build` fails with and warns
    // of on the same parse, resolve and render.
    let walked = scope.walk(session, |_| true);
    let loaded = &session.loaded;
    let checker = &session.checker;
    let (chapters, claims): (Vec<String>, Vec<Claim>) = walked.claims.into_iter().unzip();
    let (invalid, warnings) =
        scoped_problems(loaded, scope, walked.errors, walked.warnings, walked.typos);
    let outcomes = workers::check_all(
        checker,
        &claims,
        options.jobs,
        options.progress,
        options.no_merge,
    )?;
    let (errors, preprocessors) = preprocessor_notes(loaded, &claims);
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
    let mut checked: Vec<Checked> = claims
        .into_iter()
        .zip(chapters)
        .zip(outcomes)
        .map(|((claim, chapter), outcome)| Checked {
            claim,
            chapter,
            outcome,
            others: Vec::new(),
            shown_after: None,
        })
        .collect();
    shown_after(loaded, &mut checked);
    let mut report = Report {
        notes,
        errors,
        deny_warnings: loaded.config.warnings == Warnings::Deny,
        checked,
        invalid,
        chapters: loaded.chapters.iter().map(|c| c.file.clone()).collect(),
        ..Report::default()
    };
    finish_report(session, &confinement, &mut report);
    Ok(report)
}

/// The problems the walk found, as check tells them: a fence one edit
/// from ours (a typo) is an error here (the build only warns of it), the
/// errors in book order, both lists kept to the chapters of `scope`.
fn scoped_problems(
    loaded: &load::Loaded,
    scope: &Scope,
    mut invalid: Vec<Located>,
    mut warnings: Vec<Located>,
    typos: Vec<Located>,
) -> (Vec<Located>, Vec<Located>) {
    // A fence one edit from ours is a plain block whose claim nobody
    // checks: the build warns, check fails.
    warnings.retain(|w| !typos.contains(w));
    invalid.extend(typos.into_iter().map(|t| Located {
        message: format!("the block was not checked: {}", t.message),
        ..t
    }));
    let chapter_of = |file: &str| loaded.chapters.iter().position(|c| c.file == file);
    invalid.sort_by_key(|i| (chapter_of(&i.file), i.line, i.column));
    for list in [&mut invalid, &mut warnings] {
        if let Some(p) = scope.partition {
            list.retain(|i| p.holds(&i.file, i.line));
        }
        if let Some(files) = &scope.only {
            // A data file's fault goes with the chapter that asked for it;
            // one of a file no chapter asked for (book.toml, the theme)
            // fails the build of every chapter, this one's too.
            list.retain(|i| {
                files.contains(&i.file)
                    || match i.asked_for_by() {
                        Some(c) => files.iter().any(|f| f == c),
                        None => chapter_of(&i.file).is_none(),
                    }
            });
        }
    }
    (invalid, warnings)
}

/// The checked claims' report completed: the tools that were missing,
/// the checker's counters, how the programs were boxed (and a note when
/// less than fully) and what the lock says of the libraries.
fn finish_report(
    session: &Session,
    confinement: &mdbook_companion_engine::exec::Confinement,
    report: &mut Report,
) {
    use mdbook_companion_engine::exec::Confinement;
    let loaded = &session.loaded;
    let mut missing: BTreeMap<(String, &'static str), Vec<String>> = BTreeMap::new();
    for c in &report.checked {
        if let Verdict::Unchecked { tool, key } = &c.outcome.verdict {
            missing
                .entry((tool.clone(), key.unwrap_or(c.claim.program.lang.key())))
                .or_default()
                .push(format!("{}:{}", c.claim.origin.file, c.claim.origin.line));
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
    report.counters = session.checker.counters();
    report.isolation = confinement.name();
    match (confinement, loaded.config.isolation) {
        (Confinement::Box, _) => {}
        (Confinement::None(_), Isolation::Off) => report.notes.push("note: the book's programs ran without a box (`isolation = \"off\"` in book.toml): they could reach the checker, each other and the book".to_owned()),
        (Confinement::None(why), _) => report.notes.push(format!("note: the book's programs ran without a box on this machine ({why}): they could reach the checker, each other and the book; `isolation = \"required\"` in book.toml makes this an error")),
        (Confinement::Landlock(why), _) => report.notes.push(format!("note: the book's programs ran in a lesser box on this machine (no namespaces: {why}): Landlock kept each from writing outside its folder and from signalling or tracing the checker and each other, but they could see each other's processes, and compilers ran outside it; `isolation = \"required\"` in book.toml makes this an error")),
    }
    if let Some(note) = library_note(&session.crates, report) {
        report.lock_notes.push(note);
    }
}

/// Marks each example that printed with no output block whose output the
/// chapter's next block shows already (a "will print" fence, as `adopt`
/// leaves it): no output block is asked for, nor added by `--bless`.
fn shown_after(loaded: &load::Loaded, checked: &mut [Checked]) {
    for c in checked {
        let shown = match (report::unclaimed_output(c), &c.claim.origin.bless) {
            (Some(printed), Some(t)) => (loaded.chapters.iter())
                .find(|ch| ch.path == t.path)
                .and_then(|ch| {
                    let next = (plain::code_blocks(&ch.raw).into_iter())
                        .find(|b| b.range.start >= t.range.end);
                    plain::shows_output(next.as_ref(), &ch.raw, printed)
                }),
            _ => None,
        };
        c.shown_after = shown;
    }
}

/// After `--bless`: each checked claim of the chapters `touched` names
/// becomes the claim its block makes now (`again`, read from the
/// rewritten chapters, in book order), keeping its outcome, so the lock
/// holds the blessed text's entries at their lines. When those chapters
/// no longer give the same blocks (one was edited meanwhile), a note says
/// to check again.
fn rebless(
    checked: &mut [Checked],
    again: Vec<(String, Claim)>,
    touched: &[String],
) -> Option<String> {
    let mut mine: Vec<&mut Checked> = checked
        .iter_mut()
        .filter(|c| touched.contains(&c.chapter))
        .collect();
    let same = mine.len() == again.len()
        && mine.iter().zip(&again).all(|(c, (_, a))| {
            c.claim.origin.file == a.origin.file && c.claim.origin.what == a.origin.what
        });
    if !same {
        return Some(
            "note: the chapters changed while blessing; run `mdbook-companion check` again before committing companion.lock".to_owned(),
        );
    }
    for (c, (_, a)) in mine.iter_mut().zip(again) {
        c.claim = a;
    }
    None
}
