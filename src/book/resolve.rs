//! Resolve, then render: what a run keeps for the engine ([`BookContext`]: the
//! cache, the lock, the assembly panels it records) and the answers to
//! what directives need ([`resolve`]). This is the only place where a
//! directive's [`Need`] meets the engine or another directive: assembly
//! through [`asm::made`] (cache, then `companion.lock`, then the
//! compiler), crates through the run's one [`Crates`], references through
//! the directive that publishes their topic.

use mdbook_companion_core::claim::{Claim, Recorded};
use mdbook_companion_core::config::{Config, OnFailure};
use mdbook_companion_core::problem::{Located, MissingTool, Problem, Purpose};
use mdbook_companion_directives::facts::{
    AsmAnswer, AsmNeed, Fact, Facts, Locked, Need, Published, Reference, Vouched,
};
use mdbook_companion_directives::{self as directive, Env, Shared};
use mdbook_companion_engine::asm::{self, AsmError};
use mdbook_companion_engine::cache::Cache;
use mdbook_companion_engine::check::{Checker, Verdict};
use mdbook_companion_engine::crates::{self, Crates};
use mdbook_companion_engine::lock;
use std::sync::{Arc, Mutex, OnceLock};

/// One run over a book: what directives see ([`Shared`]) and what only
/// the book layer and the engine touch.
#[derive(Debug)]
pub struct BookContext {
    /// What every chapter shares and a directive may read.
    pub shared: Shared,
    /// The content-addressed cache (assembly listings, observations).
    pub cache: Cache,
    /// The book's `companion.lock`, when it has a valid one: results for
    /// cache misses.
    pub lock: Option<Arc<lock::Index>>,
    /// Why the book's `companion.lock` could not be read, when it is
    /// there but is not a lock (builds say so once).
    pub lock_invalid: Option<String>,
    /// Every assembly panel made in this run, when recorded (what
    /// `check` locks; builds record nothing).
    pub assembly: Option<Mutex<Vec<lock::Assembly>>>,
    /// Where each recorded panel stands (`drift` names the block whose
    /// listing changed), when recorded.
    pub placed: Mutex<Vec<Placed>>,
    /// In `check`'s walk: code whose assembly panel cannot be made because
    /// it does not compile, told as the build fails on it, while its block
    /// is kept (shown with the links only) so that its claims are checked.
    pub faults: Option<Mutex<Vec<Located>>>,
    /// The checker that answers recorded runs (made on first use; it
    /// reads the cache and the lock and never compiles).
    checker: OnceLock<Checker>,
    /// The book's crates, read on first use: one value for the run, shared
    /// with its checkers (so they are read and built once).
    crates: OnceLock<Arc<Crates>>,
}

impl BookContext {
    /// A run with the given cache.
    pub fn new(cache: Cache) -> BookContext {
        BookContext {
            shared: Shared::default(),
            cache,
            lock: None,
            lock_invalid: None,
            assembly: None,
            placed: Mutex::default(),
            faults: None,
            checker: OnceLock::new(),
            crates: OnceLock::new(),
        }
    }

    /// The run's crates of the book `config` describes.
    pub fn crates(&self, config: &Config) -> Arc<Crates> {
        Arc::clone(self.crates.get_or_init(|| crates::for_book(config)))
    }

    /// The same run, using `crates` (a command that also checks shares its
    /// own with the run).
    pub fn with_crates(self, crates: Arc<Crates>) -> BookContext {
        let _ = self.crates.set(crates);
        self
    }

    /// A checker of this run: its cache, its lock and its crates.
    pub fn new_checker(&self, config: &Config) -> Checker {
        Checker::with_cache(config, self.cache.handle())
            .with_lock(self.lock.clone())
            .with_crates(self.crates(config))
    }

    /// The checker of this run's cache and lock, for recorded runs.
    fn checker(&self, config: &Config) -> &Checker {
        self.checker.get_or_init(|| self.new_checker(config))
    }

    /// A run without a cache.
    pub fn disabled() -> BookContext {
        BookContext::new(Cache::disabled())
    }

    /// The same run, reading results from `lock` when the cache misses.
    pub fn with_lock(mut self, lock: Option<lock::Lock>) -> BookContext {
        self.lock = lock.map(|l| Arc::new(l.index()));
        self
    }

    /// The same run, with the book's lock as [`lock::Lock::read`] found
    /// it: a lock to read results from, or why the file is not one.
    pub fn with_lock_read(self, read: lock::Read) -> BookContext {
        match read {
            lock::Read::Lock(l) => self.with_lock(Some(l)),
            lock::Read::Missing => self,
            lock::Read::Invalid(why) => BookContext {
                lock_invalid: Some(why),
                ..self
            },
        }
    }

    /// The same run, keeping every assembly panel it makes.
    pub fn recording_assembly(mut self) -> BookContext {
        self.assembly = Some(Mutex::default());
        self
    }

    /// Records an assembly panel made in this run, and where it stands,
    /// if it records them.
    fn record_assembly(&self, made: &asm::Made, file: &str, line: usize) {
        let Some(assembly) = &self.assembly else {
            return;
        };
        (self.placed.lock().unwrap_or_else(|e| e.into_inner())).push(Placed {
            hash: made.hash.clone(),
            file: file.to_owned(),
            line,
        });
        let mut all = assembly.lock().unwrap_or_else(|e| e.into_inner());
        all.push(lock::Assembly {
            hash: made.hash.clone(),
            toolchain: made.toolchain.clone(),
            listing: made.listing.text.clone(),
            lines: made.listing.lines.clone(),
        });
    }
}

/// Where a recorded assembly panel stands in the book.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placed {
    /// The panel's hash in the lock.
    pub hash: String,
    /// The chapter file.
    pub file: String,
    /// The line of its block in the chapter file.
    pub line: usize,
}

/// Under `verify`, compiles the cold recorded runs among `needs` together
/// (one merged build, as `check` and the verify pass do), before
/// [`resolve`] checks each: the first build shows what it checks without
/// a compiler start per example.
pub fn prepare<'a>(run: &BookContext, config: &Config, needs: impl IntoIterator<Item = &'a Need>) {
    if !config.verify {
        return;
    }
    let claims: Vec<Claim> = needs
        .into_iter()
        .filter_map(|n| match n {
            Need::Recorded(claim) => Some(Claim::clone(claim)),
            _ => None,
        })
        .collect();
    if !claims.is_empty() {
        let stated: Vec<_> = claims.iter().map(Claim::stated).collect();
        run.checker(config).prepare(&stated);
    }
}

/// The facts that answer `needs`, for a block of the chapter `env` is in.
pub fn resolve(run: &BookContext, env: &Env<'_>, needs: &[Need]) -> Facts {
    Facts::new(
        needs
            .iter()
            .map(|n| (n.clone(), answer(run, env, n)))
            .collect(),
    )
}

fn answer(run: &BookContext, env: &Env<'_>, need: &Need) -> Fact {
    match need {
        Need::Crates(source) => Fact::Crates(run.crates(env.config).used_by(source)),
        Need::Assembly(req) => Fact::Assembly(assembly(run, env, req)),
        Need::Reference(r) => Fact::Item(reference(env, r)),
        Need::Locked(hash) => Fact::Locked(run.lock.as_ref().and_then(|l| {
            l.block(hash).map(|e| Locked {
                verdict: e.verdict,
                toolchain: e.toolchain.clone(),
            })
        })),
        Need::Vouched(claim) => Fact::Vouched(vouched(run, env, claim)),
        Need::Recorded(claim) => {
            let checker = run.checker(env.config);
            if env.config.verify {
                // The build checks it anyway: the first build shows what
                // it saw, as later ones do (its observation is cached and
                // the check after rendering finds it; [`prepare`] compiled
                // the cold ones together).
                checker.check(&claim.stated());
            }
            Fact::Recorded(checker.recorded(&claim.stated()))
        }
    }
}

/// What vouches for a claim on its page: under `verify`, this build's
/// own check (cached; the build checks it anyway); else the lock's entry,
/// none (the code changed since), or no lock at all.
fn vouched(run: &BookContext, env: &Env<'_>, claim: &Claim) -> Vouched {
    let checker = run.checker(env.config);
    if env.config.verify {
        let verdict = checker.check(&claim.stated()).verdict;
        let missing = match &verdict {
            Verdict::Unchecked { tool, .. } => Some(tool.clone()),
            _ => None,
        };
        return Vouched::Verdict(verdict.recorded(), missing);
    }
    match &run.lock {
        None => Vouched::NoLock,
        Some(lock) => match lock.block(&checker.claim_key(&claim.stated())) {
            Some(e) => Vouched::Verdict(e.verdict, e.missing.clone()),
            None => Vouched::Stale,
        },
    }
}

/// A claim of a chapter as the lock knows it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Claimed {
    /// The line of its block in the chapter's text.
    pub line: usize,
    /// What it is (`rust example "Dividing by zero"`).
    pub what: String,
    /// Its hash ([`Checker::claim_key`]).
    pub hash: String,
}

/// What a build tells the author, once, when the lock does not vouch for
/// the claims on its pages (`claimed`: each with its chapter file, in book
/// order): a lock file that is not a lock, claims the lock records as
/// failed or not checked (a tool was missing), and claims it has no
/// entry for (it is stale). Each names the
/// count and the first block; nothing is compiled.
pub fn lock_warnings(run: &BookContext, claimed: &[(String, Claimed)]) -> Vec<String> {
    let Some((file, first)) = claimed.first() else {
        return Vec::new();
    };
    let blocks = |n: usize| match n {
        1 => "1 block".to_owned(),
        n => format!("{n} blocks"),
    };
    let mut out = Vec::new();
    if let Some(why) = &run.lock_invalid {
        out.push(format!(
            "{why}; it is not used, so the verdicts and recorded runs of {} are not shown from it (the first: {file}:{}: {}); run `mdbook-companion check` to rewrite it",
            blocks(claimed.len()),
            first.line,
            first.what
        ));
    }
    let Some(lock) = &run.lock else {
        return out;
    };
    let recorded = |verdict: Recorded| -> Vec<(&String, &Claimed, &lock::Entry)> {
        claimed
            .iter()
            .filter_map(|(file, c)| Some((file, c, lock.block(&c.hash)?)))
            .filter(|(_, _, e)| e.verdict == verdict)
            .collect()
    };
    let failed = recorded(Recorded::Failed);
    if let Some((file, c, _)) = failed.first() {
        out.push(format!(
            "companion.lock records {} failed claim{} (the first: {file}:{}: {}); run `mdbook-companion check` for the details",
            failed.len(),
            if failed.len() == 1 { "" } else { "s" },
            c.line,
            c.what
        ));
    }
    let unchecked = recorded(Recorded::Unchecked);
    if let Some((file, c, e)) = unchecked.first() {
        let why = e
            .missing
            .as_ref()
            .map_or(String::new(), |tool| format!(": `{tool}` could not be run"));
        out.push(format!(
            "companion.lock records {} claim{} not checked (the first: {file}:{}: {}{why}); their pages say so; install what is missing and run `mdbook-companion check`",
            unchecked.len(),
            if unchecked.len() == 1 { "" } else { "s" },
            c.line,
            c.what
        ));
    }
    let missing: Vec<&(String, Claimed)> = claimed
        .iter()
        .filter(|(_, c)| lock.block(&c.hash).is_none())
        .collect();
    if let Some((file, c)) = missing.first() {
        out.push(format!(
            "companion.lock is stale: {} {} no entry in it (the first: {file}:{}: {}); run `mdbook-companion check` and commit companion.lock",
            blocks(missing.len()),
            if missing.len() == 1 { "has" } else { "have" },
            c.line,
            c.what
        ));
    }
    out
}

/// A reference, resolved by the directive that publishes its topic.
fn reference(env: &Env<'_>, r: &Reference) -> Result<Published, Problem> {
    match directive::publisher(r.topic) {
        Some(p) => (p.resolve)(env, &r.value, r.at),
        None => Err(Problem::at(
            r.at,
            format!(
                "found a reference `{}` no directive resolves; expected one the book's directives publish",
                r.value
            ),
        )),
    }
}

/// The assembly panel of `req`: the listing, or, when none can be made,
/// the missing compiler (told once for the book), a warning, or under
/// `on-failure = "bail"` the problem that stops the block when its code
/// does not compile.
fn assembly(run: &BookContext, env: &Env<'_>, req: &AsmNeed) -> Result<AsmAnswer, Problem> {
    let config = env.config;
    let mut listing = AsmAnswer::default();
    match asm::made(
        &req.request,
        config,
        &run.cache,
        run.lock.as_deref(),
        &run.crates(config),
    ) {
        Ok(made) => {
            if run.assembly.is_some() {
                run.record_assembly(&made, env.file, env.place.line(req.at));
            }
            if req.graph {
                listing.graphs = asm::graphs(&made.listing.text, &run.cache);
            }
            listing.listing = Some(made.listing);
        }
        Err(AsmError::Missing { program, .. }) => listing.missing.push(MissingTool {
            tool: program,
            key: req.request.lang.key(),
            purpose: Purpose::Assembly,
            at: req.at,
        }),
        Err(e) if e.is_code_error() && config.on_failure == OnFailure::Bail => {
            let p = Problem::at(
                req.at,
                format!("cannot show the assembly: {e}; expected code that compiles"),
            );
            let Some(faults) = &run.faults else {
                return Err(p);
            };
            let located = Located::new(env.file, env.text, &p);
            faults
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(located);
        }
        Err(e) => listing.warnings.push(Problem::at(
            req.at,
            format!("cannot show the assembly: {e}; showing the links only"),
        )),
    }
    Ok(listing)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::chapter::chapter;
    use mdbook_companion_directives::Target;
    use std::path::PathBuf;

    fn config() -> Config {
        Config::from_json(PathBuf::from("/b"), &serde_json::json!({})).unwrap()
    }

    #[test]
    fn missing_compiler_is_a_located_warning_and_keeps_the_links() {
        let text = "# T\n\n````compare asm\n```c\nint f(void) { return 1; }\n```\n```rust\npub fn f() -> i32 { 1 }\n```\n````\n";
        let mut cfg = config();
        cfg.cc = "/nonexistent/cc".into();
        cfg.rustc = "/nonexistent/rustc".into();
        let out = chapter(
            &cfg,
            &BookContext::disabled(),
            Target::Html,
            "src/a.md",
            text,
        );
        assert!(out.errors.is_empty(), "{:?}", out.errors);
        // Left to the book layer, which tells each missing compiler once.
        assert!(out.warnings.is_empty(), "{:?}", out.warnings);
        let told: Vec<String> = mdbook_companion_core::problem::missing_compilers(&out.unchecked)
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(
            told,
            [
                "src/a.md:4:4: the compiler `/nonexistent/cc` could not be run, so the assembly of 1 block is not shown (the first is here); set `cc` in [preprocessor.companion] to a compiler that runs",
                "src/a.md:7:4: the compiler `/nonexistent/rustc` could not be run, so the assembly of 1 block is not shown (the first is here); set `rustc` in [preprocessor.companion] to a compiler that runs",
            ]
        );
        let page = out.text.unwrap();
        assert!(!page.contains("companion-asm"), "{page}");
        assert_eq!(page.matches("Compiler Explorer</a>").count(), 3, "{page}");
    }

    #[test]
    fn code_that_does_not_compile_fails_under_bail_and_warns_under_continue() {
        let text =
            "````compare\n```c asm\nint f(void) { return }\n```\n```python\nx = 1\n```\n````\n";
        let mut cfg = config();
        let out = chapter(
            &cfg,
            &BookContext::disabled(),
            Target::Html,
            "src/a.md",
            text,
        );
        assert_eq!(out.errors.len(), 1);
        let e = out.errors[0].to_string();
        assert!(
            e.starts_with("src/a.md:2:4: cannot show the assembly: `cc` rejected the code"),
            "{e}"
        );
        cfg.on_failure = mdbook_companion_core::config::OnFailure::Continue;
        let out = chapter(
            &cfg,
            &BookContext::disabled(),
            Target::Html,
            "src/a.md",
            text,
        );
        assert!(out.errors.is_empty());
        assert_eq!(out.warnings.len(), 1);
        assert!(out.text.unwrap().contains("companion-compare"));
    }
}
