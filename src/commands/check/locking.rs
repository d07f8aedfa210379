//! `check` and `companion.lock`: the lock a run makes, writing it, and
//! `--locked`, which compares the book with the committed lock instead.

use super::report::Report;
use crate::core::claim::Recorded;
use crate::core::run::RecordedRun;
use crate::engine::check::{Checker, Verdict};
use crate::engine::lock::{self, Assembly, Entry, Lock, Read};
use std::collections::{BTreeMap, BTreeSet, HashMap};
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
                missing: match &c.outcome.verdict {
                    Verdict::Unchecked { tool, .. } => Some(tool.clone()),
                    _ => None,
                },
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

/// `new` with the committed lock's recorded runs kept where this run's
/// differ only where the claim lets runs differ (`accepts`: an address
/// under `[..]`, lines in another order under `unordered`): the same book
/// keeps the same lock, and `check` leaves nothing to commit.
pub fn keep_accepted_runs(
    root: &Path,
    mut new: Lock,
    accepts: impl Fn(&str, &RecordedRun) -> bool,
) -> Lock {
    let Some(old) = Lock::load(root) else {
        return new;
    };
    let recorded: HashMap<(&str, &str, usize), &RecordedRun> = old
        .blocks
        .iter()
        .filter_map(|e| {
            Some((
                (e.hash.as_str(), e.chapter.as_str(), e.line),
                e.run.as_ref()?,
            ))
        })
        .collect();
    for e in &mut new.blocks {
        let Some(run) = &e.run else { continue };
        if let Some(kept) = recorded.get(&(e.hash.as_str(), e.chapter.as_str(), e.line))
            && *kept != run
            && e.toolchain == kept.toolchain
            && accepts(&e.hash, kept)
        {
            e.run = Some((*kept).clone());
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

/// What `--locked` tells the author to do about any difference.
pub const HINT: &str = "run `mdbook-companion check` and commit companion.lock";

/// `check --locked`: every difference between the committed lock and the
/// one this run makes, one line per block (where it is, what differs, what
/// to do). `places` says where each assembly panel of this run stands
/// (its hash, `src/a.md:3`). Empty when they agree.
///
/// Every fact the lock records is compared with what this run observed:
/// where the block is, what it is, its hash, claimed outcome, verdict,
/// toolchain, recorded run, and its assembly panel's listing. An entry is
/// the block's only when it stands at the block's place: one copied to a
/// place where no block is, is stale.
///
/// `accepts(hash, run)` says whether the claim with `hash` accepts the
/// lock's recorded `run` as what its program did (the same run, or one
/// that differs only where the claim lets runs differ).
pub fn differences(
    root: &Path,
    new: &Lock,
    places: &[(String, String)],
    accepts: impl Fn(&str, &RecordedRun) -> bool,
) -> Vec<String> {
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
    // The assembly panels: by hash, and where this run's stand.
    let old_asm: HashMap<&str, &Assembly> =
        old.assembly.iter().map(|a| (a.hash.as_str(), a)).collect();
    let new_asm: HashMap<&str, &Assembly> =
        new.assembly.iter().map(|a| (a.hash.as_str(), a)).collect();
    let mut panel_faults: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for (hash, place) in places {
        let Some(a) = new_asm.get(hash.as_str()) else {
            continue;
        };
        let fault = match old_asm.get(hash.as_str()) {
            None => "its assembly panel has no entry in companion.lock".to_owned(),
            Some(o) if o != a => panel_difference(o, a),
            Some(_) => continue,
        };
        let faults = panel_faults.entry(place.as_str()).or_default();
        if !faults.contains(&fault) {
            faults.push(fault);
        }
    }
    let stale_panels = old_asm.keys().filter(|h| !new_asm.contains_key(*h)).count();
    let unplaced_panels = new_asm
        .iter()
        .filter(|(h, a)| old_asm.get(*h) != Some(*a) && !places.iter().any(|(ph, _)| ph == *h))
        .count();

    let pairs = pair(&old.blocks, &new.blocks);
    let mut out = Vec::new();
    let mut told: BTreeSet<String> = BTreeSet::new();
    for (o, n) in &pairs.matched {
        let place = format!("{}:{}", n.chapter, n.line);
        let mut faults = entry_differences(o, n, &accepts);
        if let Some(p) = panel_faults.get(place.as_str()) {
            faults.extend(p.iter().cloned());
        }
        if !faults.is_empty() {
            out.push(format!(
                "{place}: {}: {}; {HINT}",
                n.what,
                faults.join("; ")
            ));
            told.insert(place);
        }
    }
    for n in &pairs.new {
        let place = format!("{}:{}", n.chapter, n.line);
        out.push(format!(
            "{place}: {} has no entry in {} (a new block); {HINT}",
            n.what,
            lock::FILE
        ));
        told.insert(place);
    }
    for o in &pairs.old {
        out.push(format!(
            "{} holds a stale entry for {}:{}: {} (no such block there: changed, moved or gone); {HINT}",
            lock::FILE,
            o.chapter,
            o.line,
            o.what
        ));
    }
    // Panels of blocks whose entries agree (or that make no entry).
    for (place, faults) in &panel_faults {
        if !told.contains(*place) {
            out.push(format!("{place}: {}; {HINT}", faults.join("; ")));
            told.insert((*place).to_owned());
        }
    }
    // A changed block's old panel is stale too: told with the block.
    if out.is_empty() && stale_panels + unplaced_panels > 0 {
        out.push(format!(
            "{}: {unplaced_panels} assembly panel(s) missing or changed, {stale_panels} that no block shows; {HINT}",
            lock::FILE
        ));
    }
    out
}

/// The lock's entries and this run's, paired block by block.
struct Pairs<'a> {
    /// An entry of the lock and this run's for the same block.
    matched: Vec<(&'a Entry, &'a Entry)>,
    /// This run's entries the lock has none for.
    new: Vec<&'a Entry>,
    /// The lock's entries no block of this run is.
    old: Vec<&'a Entry>,
}

/// Pairs the lock's entries with this run's: first those that stand at
/// the same place with the same hash, then the same hash moved to another
/// line of the chapter, then the same block (chapter and description) at
/// its place whatever its hash, then the same block moved, nearest first.
fn pair<'a>(old: &'a [Entry], new: &'a [Entry]) -> Pairs<'a> {
    type Same = fn(&Entry, &Entry) -> bool;
    let rules: [Same; 4] = [
        |o, n| o.chapter == n.chapter && o.line == n.line && o.what == n.what && o.hash == n.hash,
        |o, n| o.chapter == n.chapter && o.what == n.what && o.hash == n.hash,
        |o, n| o.chapter == n.chapter && o.line == n.line && o.what == n.what,
        |o, n| o.chapter == n.chapter && o.what == n.what,
    ];
    let mut old_left: Vec<Option<&Entry>> = old.iter().map(Some).collect();
    let mut new_left: Vec<Option<&Entry>> = new.iter().map(Some).collect();
    let mut matched = Vec::new();
    for same in rules {
        for slot in new_left.iter_mut() {
            let Some(n) = *slot else { continue };
            let found = old_left
                .iter()
                .enumerate()
                .filter_map(|(i, o)| o.filter(|o| same(o, n)).map(|o| (i, o)))
                .min_by_key(|(_, o)| o.line.abs_diff(n.line));
            if let Some((i, o)) = found {
                matched.push((o, n));
                old_left[i] = None;
                *slot = None;
            }
        }
    }
    matched.sort_by_key(|(_, n)| (&n.chapter, n.line));
    Pairs {
        matched,
        new: new_left.into_iter().flatten().collect(),
        old: old_left.into_iter().flatten().collect(),
    }
}

/// What differs between a block's entry in the lock (`o`) and this run's
/// (`n`), in words.
fn entry_differences(
    o: &Entry,
    n: &Entry,
    accepts: &impl Fn(&str, &RecordedRun) -> bool,
) -> Vec<String> {
    let mut out = Vec::new();
    if o.line != n.line {
        out.push(format!("companion.lock records it at line {}", o.line));
    }
    if o.hash != n.hash {
        let ran = match (&o.run, &n.run) {
            (Some(a), Some(b)) if a.stdout != b.stdout => format!(
                " (it printed {} then, {} now)",
                excerpt(&a.stdout),
                excerpt(&b.stdout)
            ),
            _ => String::new(),
        };
        out.push(format!(
            "its code or what it claims changed since companion.lock was written{ran}"
        ));
    }
    if o.expect != n.expect {
        out.push(format!(
            "companion.lock records expect={}, the block says expect={}",
            o.expect.name(),
            n.expect.name()
        ));
    }
    if o.verdict != n.verdict {
        out.push(format!(
            "companion.lock records {}, this check found it {}",
            o.verdict, n.verdict
        ));
    }
    let toolchain = |t: &str| match t {
        "" => "no compiler".to_owned(),
        t => t.to_owned(),
    };
    if o.toolchain != n.toolchain {
        out.push(format!(
            "companion.lock was verified with {}, this check with {}",
            toolchain(&o.toolchain),
            toolchain(&n.toolchain)
        ));
    }
    // A recorded run is compared only where the rest agrees: a changed
    // block's run changes with it.
    let accepted = match &o.run {
        Some(run) => accepts(&n.hash, run),
        None => n.run.is_none(),
    };
    if out.is_empty() && o.run != n.run && !accepted {
        out.push(run_difference(o.run.as_ref(), n.run.as_ref()));
    }
    out
}

/// How a recorded run differs from the one this check saw.
fn run_difference(o: Option<&RecordedRun>, n: Option<&RecordedRun>) -> String {
    let (o, n) = match (o, n) {
        (Some(o), Some(n)) => (o, n),
        (Some(_), None) => {
            return "companion.lock records a run this check did not see".into();
        }
        (None, Some(_)) => return "companion.lock records no run of it".into(),
        (None, None) => return String::new(),
    };
    let fact = if o.compiled != n.compiled {
        format!(
            "compiled: {} in companion.lock, {} now",
            o.compiled, n.compiled
        )
    } else if o.stdout != n.stdout {
        format!(
            "stdout {} in companion.lock, {} now",
            excerpt(&o.stdout),
            excerpt(&n.stdout)
        )
    } else if o.stderr != n.stderr {
        format!(
            "stderr {} in companion.lock, {} now",
            excerpt(&o.stderr),
            excerpt(&n.stderr)
        )
    } else {
        format!(
            "made with {} in companion.lock, {} now",
            o.toolchain, n.toolchain
        )
    };
    format!("its recorded run differs from what the program did ({fact})")
}

/// How a panel in the lock differs from the one this check made.
fn panel_difference(o: &Assembly, n: &Assembly) -> String {
    if o.toolchain != n.toolchain {
        format!(
            "its assembly panel was made with {} in companion.lock, {} now",
            o.toolchain, n.toolchain
        )
    } else if o.listing != n.listing {
        let first = o
            .listing
            .lines()
            .zip(n.listing.lines())
            .position(|(a, b)| a != b)
            .unwrap_or_else(|| o.listing.lines().count().min(n.listing.lines().count()));
        format!(
            "its assembly listing differs from companion.lock's from line {} ({} in companion.lock, {} now)",
            first + 1,
            excerpt(o.listing.lines().nth(first).unwrap_or("")),
            excerpt(n.listing.lines().nth(first).unwrap_or(""))
        )
    } else {
        "its assembly panel's source lines differ from companion.lock's".into()
    }
}

/// A stream or line as a report shows it: quoted with control characters
/// escaped, cut at 60 characters.
fn excerpt(text: &str) -> String {
    const MAX: usize = 60;
    let cut: String = text.chars().take(MAX).collect();
    let more = if text.chars().nth(MAX).is_some() {
        "…"
    } else {
        ""
    };
    format!("{cut:?}{more}")
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
            missing: None,
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
        assert_eq!(differences(dir.path(), &kept, &[], |_, _| false).len(), 2);
    }
}
