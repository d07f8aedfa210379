//! `check` and `companion.lock`: the lock a run makes, writing it, and
//! `--locked`, which compares the book with the committed lock instead.

use super::report::Report;
use crate::core::claim::Recorded;
use crate::engine::check::{Checker, Verdict};
use crate::engine::lock::{self, Assembly, Entry, Lock, Read};
use std::collections::{BTreeSet, HashMap};
use std::path::Path;

/// The lock this run's results make.
pub fn of_run(report: &Report, checker: &Checker, assembly: Vec<Assembly>) -> Lock {
    let mut versions: HashMap<&'static str, String> = HashMap::new();
    let blocks = report
        .checked
        .iter()
        .map(|c| {
            let claim = &c.claim;
            let verdict = c.outcome.verdict.recorded();
            let toolchain = match c.outcome.verdict {
                Verdict::Passed | Verdict::Failed { .. } => versions
                    .entry(claim.lang.fence())
                    .or_insert_with(|| checker.version(claim.lang).unwrap_or_default())
                    .clone(),
                Verdict::Ignored | Verdict::Unchecked { .. } | Verdict::OtherArch { .. } => {
                    String::new()
                }
            };
            Entry {
                chapter: claim.file.clone(),
                line: claim.line,
                what: claim.what.clone(),
                hash: checker.claim_key(claim),
                expect: claim.expect,
                verdict,
                toolchain,
                run: match c.outcome.verdict {
                    Verdict::Passed => checker.recorded(claim),
                    _ => None,
                },
            }
        })
        .collect();
    let mut lock = Lock {
        version: lock::VERSION,
        blocks,
        assembly,
    };
    lock.normalize();
    lock
}

/// `new` with the committed lock's entries kept for claims this machine
/// could not check (another architecture's code): a run on such a machine
/// neither loses nor overrules the verdict the lock records.
pub fn keep_other_arch(root: &Path, mut new: Lock) -> Lock {
    let Some(old) = Lock::load(root) else {
        return new;
    };
    let recorded: HashMap<&str, &Entry> = old.blocks.iter().map(|e| (e.hash.as_str(), e)).collect();
    for e in &mut new.blocks {
        if e.verdict == Recorded::OtherArch
            && let Some(o) = recorded.get(e.hash.as_str())
        {
            e.verdict = o.verdict;
            e.toolchain = o.toolchain.clone();
        }
    }
    new
}

/// Writes `new` at `root`; notes say what happened to an unreadable or
/// other-toolchain lock.
pub fn write(root: &Path, new: &Lock, notes: &mut Vec<String>) -> anyhow::Result<()> {
    match Lock::read(root) {
        Read::Invalid(why) => notes.push(format!(
            "warning: {why}; it does not parse as a lock, so it was rewritten"
        )),
        Read::Lock(old) => notes.extend(toolchain_changes(&old, new)),
        Read::Missing => {}
    }
    new.write(root)?;
    Ok(())
}

/// Toolchains the old lock names that this run did not use.
fn toolchain_changes(old: &Lock, new: &Lock) -> Vec<String> {
    let names = |l: &Lock| -> BTreeSet<String> {
        l.blocks
            .iter()
            .map(|e| e.toolchain.clone())
            .filter(|t| !t.is_empty())
            .collect()
    };
    let (before, now) = (names(old), names(new));
    before
        .difference(&now)
        .map(|t| {
            format!(
                "note: companion.lock was made with {t}, not used by this run; its entries are replaced"
            )
        })
        .collect()
}

/// `check --locked`: every difference between the committed lock and the
/// one this run makes, naming each block. Empty when they agree.
pub fn differences(root: &Path, new: &Lock) -> Vec<String> {
    let old = match Lock::read(root) {
        Read::Lock(old) => old,
        Read::Missing => {
            return vec![format!(
                "{} is missing; run `mdbook-companion check` and commit it",
                lock::FILE
            )];
        }
        Read::Invalid(why) => {
            return vec![format!("{why}; run `mdbook-companion check` to rewrite it")];
        }
    };
    let mut out = Vec::new();
    let old_blocks: HashMap<&str, &Entry> =
        old.blocks.iter().map(|e| (e.hash.as_str(), e)).collect();
    let new_hashes: BTreeSet<&str> = new.blocks.iter().map(|e| e.hash.as_str()).collect();
    for e in &new.blocks {
        match old_blocks.get(e.hash.as_str()) {
            None => out.push(format!(
                "{}:{}: {} has no entry in {} (new or changed since the lock was written)",
                e.chapter,
                e.line,
                e.what,
                lock::FILE
            )),
            Some(o) if o.verdict != e.verdict => out.push(format!(
                "{}:{}: {} is {} in {} but {} now",
                e.chapter,
                e.line,
                e.what,
                o.verdict,
                lock::FILE,
                e.verdict
            )),
            Some(o) if o.toolchain != e.toolchain => out.push(format!(
                "{}:{}: {} was verified with {} in {}, with {} now",
                e.chapter,
                e.line,
                e.what,
                if o.toolchain.is_empty() {
                    "no compiler"
                } else {
                    &o.toolchain
                },
                lock::FILE,
                if e.toolchain.is_empty() {
                    "no compiler"
                } else {
                    &e.toolchain
                },
            )),
            Some(_) => {}
        }
    }
    for o in &old.blocks {
        if !new_hashes.contains(o.hash.as_str()) {
            out.push(format!(
                "{} holds a stale entry for {}:{}: {} (the block changed or is gone)",
                lock::FILE,
                o.chapter,
                o.line,
                o.what
            ));
        }
    }
    let old_asm: BTreeSet<(&str, &str)> = old
        .assembly
        .iter()
        .map(|a| (a.hash.as_str(), a.listing.as_str()))
        .collect();
    let new_asm: BTreeSet<(&str, &str)> = new
        .assembly
        .iter()
        .map(|a| (a.hash.as_str(), a.listing.as_str()))
        .collect();
    let (missing, stale) = (
        new_asm.difference(&old_asm).count(),
        old_asm.difference(&new_asm).count(),
    );
    if missing + stale > 0 {
        out.push(format!(
            "{}: {missing} assembly panel(s) missing or changed, {stale} stale",
            lock::FILE
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(hash: &str, verdict: Recorded, toolchain: &str) -> Entry {
        Entry {
            chapter: "src/a.md".into(),
            line: 3,
            what: "asm of rust example".into(),
            hash: hash.into(),
            expect: crate::core::expect::Expect::Asm,
            verdict,
            toolchain: toolchain.into(),
            run: None,
        }
    }

    #[test]
    fn claims_about_another_architecture_keep_the_recorded_verdict() {
        let dir = tempfile::tempdir().unwrap();
        let old = Lock {
            version: lock::VERSION,
            blocks: vec![
                entry("a", Recorded::Passed, "rustc 1.95.0"),
                entry("b", Recorded::Failed, "rustc 1.95.0"),
            ],
            assembly: Vec::new(),
        };
        old.write(dir.path()).unwrap();
        let new = Lock {
            version: lock::VERSION,
            blocks: vec![
                entry("a", Recorded::OtherArch, ""),
                entry("b", Recorded::Passed, "rustc 1.96.0"),
                entry("c", Recorded::OtherArch, ""),
            ],
            assembly: Vec::new(),
        };
        let kept = keep_other_arch(dir.path(), new);
        let got: Vec<(Recorded, &str)> = kept
            .blocks
            .iter()
            .map(|e| (e.verdict, e.toolchain.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                (Recorded::Passed, "rustc 1.95.0"),
                (Recorded::Passed, "rustc 1.96.0"),
                (Recorded::OtherArch, "")
            ]
        );
        // `b` changed and `c` is new; `a` agrees with the lock.
        assert_eq!(differences(dir.path(), &kept).len(), 2);
    }
}
