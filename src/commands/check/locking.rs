//! `check` and `companion.lock`: the lock a run makes, writing it, and
//! `--locked`, which compares the book with the committed lock instead.

use super::report::Report;
use mdbook_companion_core::claim::{Origin, Recorded};
use mdbook_companion_core::diff;
use mdbook_companion_core::run::RecordedRun;
use mdbook_companion_engine::check::{Checker, Verdict};
use mdbook_companion_engine::lock::{self, Assembly, Entry, Lock, Read};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::path::Path;

/// The hash that names each claim of `report` in the lock
/// ([`Checker::claim_key`]), in its order.
pub fn claim_keys(report: &Report, checker: &Checker) -> Vec<String> {
    use rayon::prelude::*;
    (report.checked.par_iter())
        .map(|c| checker.claim_key(&c.claim.stated()))
        .collect()
}

/// The lock this run's results make (`keys`: the claims' hashes,
/// [`claim_keys`]).
pub fn of_run(
    report: &Report,
    checker: &Checker,
    keys: &[String],
    assembly: Vec<Assembly>,
) -> Lock {
    let mut versions: HashMap<&'static str, String> = HashMap::new();
    let blocks = (report.checked.iter().zip(keys))
        .map(|(c, hash)| {
            let claim = &c.claim;
            let verdict = c.outcome.verdict.recorded();
            let toolchain = match c.outcome.verdict {
                Verdict::Passed | Verdict::Failed { .. } => versions
                    .entry(claim.program.lang.fence())
                    .or_insert_with(|| checker.version(claim.program.lang).unwrap_or_default())
                    .clone(),
                Verdict::Ignored | Verdict::Unchecked { .. } | Verdict::OtherArch { .. } => {
                    String::new()
                }
            };
            // What the lock tells of where the claim came from; the rest
            // of it is named by its hash ([`Checker::claim_key`] names
            // every field of the program and the expectation).
            let Origin {
                file,
                line,
                what,
                // Where the chapter's text and `--bless` put it: no fact.
                offset: _,
                output_range: _,
                bless: _,
            } = &claim.origin;
            Entry {
                chapter: file.clone(),
                line: *line,
                what: what.clone(),
                hash: hash.clone(),
                expect: claim.expectation.expect,
                verdict,
                toolchain,
                missing: match &c.outcome.verdict {
                    Verdict::Unchecked { tool, .. } => Some(tool.clone()),
                    _ => None,
                },
                run: match c.outcome.verdict {
                    Verdict::Passed => checker.recorded(&claim.stated()),
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
pub fn keep_other_arch(old: &Read, mut new: Lock) -> Lock {
    let Read::Lock(old) = old else {
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
    old: &Read,
    mut new: Lock,
    accepts: impl Fn(&str, &RecordedRun) -> bool,
) -> Lock {
    let Read::Lock(old) = old else {
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

/// Writes `new` at `root` over `old` (the lock as read when the book was
/// loaded); notes say what happened to an unreadable or other-toolchain
/// lock.
pub fn write(root: &Path, old: &Read, new: &Lock, notes: &mut Vec<String>) -> anyhow::Result<()> {
    match old {
        Read::Invalid(why) => notes.push(format!(
            "warning: {why}; it does not parse as a lock, so it was rewritten"
        )),
        Read::Lock(old) => notes.extend(toolchain_changes(old, new)),
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

/// The lock as read, again (a [`Read`] is not cloned elsewhere).
pub fn same(old: &Read) -> Read {
    match old {
        Read::Lock(l) => Read::Lock(l.clone()),
        Read::Missing => Read::Missing,
        Read::Invalid(why) => Read::Invalid(why.clone()),
    }
}

/// The part of the committed lock a run of a share of the book judges:
/// the entries `judged` keeps, and the assembly panels this run's lock
/// (`new`) holds, which are those of the share's blocks. A missing or
/// unreadable lock stays so: `--locked` fails on it whatever the share.
pub fn share(old: &Read, new: &Lock, judged: impl Fn(&Entry) -> bool) -> Read {
    let Read::Lock(l) = old else {
        return same(old);
    };
    let made: HashSet<&str> = new.assembly.iter().map(|a| a.hash.as_str()).collect();
    Read::Lock(Lock {
        version: l.version,
        blocks: l.blocks.iter().filter(|e| judged(e)).cloned().collect(),
        assembly: (l.assembly.iter())
            .filter(|a| made.contains(a.hash.as_str()))
            .cloned()
            .collect(),
    })
}

/// What `--locked` tells the author to do about a stale entry (the block
/// holds, but the lock does not say so as it now is).
pub const HINT: &str = "run `mdbook-companion check` and commit companion.lock";

/// What `--locked` tells the author to do when the block's claim fails
/// now: a new lock would only record the failure.
pub const FIX: &str = "the block fails now: fix it (or accept what it does with `mdbook-companion check --bless`), then commit the companion.lock `check` writes";

/// The advice for a block whose entry in this run is `n`: by its cause.
fn advice(n: &Entry) -> &'static str {
    match n.verdict {
        Recorded::Failed => FIX,
        _ => HINT,
    }
}

/// `check --locked`: every difference between the committed lock and the
/// one this run makes, one line per block (where it is, what differs, what
/// to do). `places` says where each assembly panel of this run stands
/// (its hash, `src/a.md:3`). Empty when they agree.
///
/// Every fact the lock records ([`Entry::facts`], [`Assembly::facts`]:
/// where the block is, what it is, its hash, claimed outcome, verdict,
/// toolchain, each field of its recorded run, each field of its assembly
/// panel) is compared with what this run observed, and each that differs
/// is named with its first differing line. An entry is the block's only
/// when it stands at the block's place: one copied to a place where no
/// block is, is stale.
///
/// `accepts(hash, run)` says whether the claim with `hash` accepts the
/// lock's recorded `run` as what its program did (the same run, or one
/// that differs only where the claim lets runs differ).
pub fn differences(
    old: &Read,
    new: &Lock,
    places: &[(String, String)],
    accepts: impl Fn(&str, &RecordedRun) -> bool,
) -> Vec<String> {
    let old = match old {
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
    let Panels {
        faults: panel_faults,
        diffs: panel_diffs,
        stale: stale_panels,
        unplaced: unplaced_panels,
    } = panels(old, new, places);
    let pairs = pair(&old.blocks, &new.blocks);
    let mut out = Vec::new();
    let mut told: BTreeSet<String> = BTreeSet::new();
    for (o, n) in &pairs.matched {
        let place = format!("{}:{}", n.chapter, n.line);
        let (mut faults, mut diffs) = entry_differences(o, n, &accepts);
        if let Some(p) = panel_faults.get(place.as_str()) {
            faults.extend(p.iter().cloned());
        }
        if let Some(d) = panel_diffs.get(place.as_str()) {
            diffs.push_str(d);
        }
        if !faults.is_empty() {
            out.push(format!(
                "{place}: {}: {}; {}{diffs}",
                n.what,
                faults.join("; "),
                advice(n)
            ));
            told.insert(place);
        }
    }
    for n in &pairs.new {
        let place = format!("{}:{}", n.chapter, n.line);
        out.push(format!(
            "{place}: {} has no entry in {} (a new block); {}",
            n.what,
            lock::FILE,
            advice(n)
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
            let diffs = panel_diffs.get(place).map_or("", String::as_str);
            out.push(format!("{place}: {}; {HINT}{diffs}", faults.join("; ")));
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

/// What the lock says of the assembly panels against this run's.
struct Panels<'p> {
    /// The faults of the panels at each place (`chapter:line`).
    faults: BTreeMap<&'p str, Vec<String>>,
    /// Their differing lines, shown, at each place.
    diffs: BTreeMap<&'p str, String>,
    /// The lock's panels this run has none of.
    stale: usize,
    /// This run's changed or new panels at no block's place.
    unplaced: usize,
}

/// The assembly panels of the lock `old` and of this run (`new`,
/// standing at `places`) compared: by hash, each that differs told at
/// its place.
fn panels<'p>(old: &Lock, new: &Lock, places: &'p [(String, String)]) -> Panels<'p> {
    // The assembly panels: by hash, and where this run's stand.
    let old_asm: HashMap<&str, &Assembly> =
        old.assembly.iter().map(|a| (a.hash.as_str(), a)).collect();
    let new_asm: HashMap<&str, &Assembly> =
        new.assembly.iter().map(|a| (a.hash.as_str(), a)).collect();
    let mut panel_faults: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    let mut panel_diffs: BTreeMap<&str, String> = BTreeMap::new();
    for (hash, place) in places {
        let Some(a) = new_asm.get(hash.as_str()) else {
            continue;
        };
        let (found, diffs) = match old_asm.get(hash.as_str()) {
            None => (
                vec!["assembly.hash: its assembly panel has no entry in companion.lock".to_owned()],
                String::new(),
            ),
            Some(o) if o == a => continue,
            Some(o) => {
                let changes = lock::changes(&o.facts(), &a.facts());
                (
                    changes.iter().map(difference).collect(),
                    changes.iter().filter_map(shown).collect(),
                )
            }
        };
        let faults = panel_faults.entry(place.as_str()).or_default();
        for fault in found {
            if !faults.contains(&fault) {
                faults.push(fault);
            }
        }
        let shown = panel_diffs.entry(place.as_str()).or_default();
        if !shown.contains(&diffs) {
            shown.push_str(&diffs);
        }
    }
    let stale_panels = old_asm.keys().filter(|h| !new_asm.contains_key(*h)).count();
    let placed: HashSet<&str> = places.iter().map(|(h, _)| h.as_str()).collect();
    let unplaced_panels = new_asm
        .iter()
        .filter(|(h, a)| old_asm.get(*h) != Some(*a) && !placed.contains(*h))
        .count();
    Panels {
        faults: panel_faults,
        diffs: panel_diffs,
        stale: stale_panels,
        unplaced: unplaced_panels,
    }
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
/// its place whatever its hash, then the same block moved, nearest first
/// (a tie to the line above); last, an entry that differs from a block
/// only in its description or only in its chapter (edited in the lock:
/// the field is named).
///
/// Each rule files the lock's unpaired entries under the fields it
/// compares, by line, so that a block finds its candidates and the
/// nearest of them without a walk over the whole lock: a chapter of many
/// blocks pairs in n log n, not n².
fn pair<'a>(old: &'a [Entry], new: &'a [Entry]) -> Pairs<'a> {
    // The fields a rule compares: chapter, line, description, hash.
    const RULES: [(bool, bool, bool, bool); 6] = [
        (true, true, true, true),
        (true, false, true, true),
        (true, true, true, false),
        (true, false, true, false),
        (true, true, false, true),
        (false, true, true, true),
    ];
    type Key<'e> = (
        Option<&'e str>,
        Option<usize>,
        Option<&'e str>,
        Option<&'e str>,
    );
    let key = |rule: (bool, bool, bool, bool), e: &'a Entry| -> Key<'a> {
        (
            rule.0.then_some(e.chapter.as_str()),
            rule.1.then_some(e.line),
            rule.2.then_some(e.what.as_str()),
            rule.3.then_some(e.hash.as_str()),
        )
    };
    let mut old_left = vec![true; old.len()];
    let mut new_left = vec![true; new.len()];
    let mut matched = Vec::new();
    for rule in RULES {
        // The unpaired entries of the lock under this rule's key, by
        // line, each line's in the lock's order.
        let mut filed: HashMap<Key<'a>, BTreeMap<usize, VecDeque<usize>>> = HashMap::new();
        for (i, o) in old.iter().enumerate().filter(|(i, _)| old_left[*i]) {
            filed
                .entry(key(rule, o))
                .or_default()
                .entry(o.line)
                .or_default()
                .push_back(i);
        }
        for (j, n) in new.iter().enumerate() {
            if !new_left[j] {
                continue;
            }
            let Some(lines) = filed.get_mut(&key(rule, n)) else {
                continue;
            };
            let above = lines.range(..=n.line).next_back().map(|(l, _)| *l);
            let below = lines.range(n.line..).next().map(|(l, _)| *l);
            let nearest = match (above, below) {
                (Some(a), Some(b)) if n.line - a <= b - n.line => a,
                (_, Some(b)) => b,
                (Some(a), None) => a,
                (None, None) => continue,
            };
            let Some(at) = lines.get_mut(&nearest) else {
                continue;
            };
            let Some(i) = at.pop_front() else { continue };
            if at.is_empty() {
                lines.remove(&nearest);
            }
            matched.push((&old[i], n));
            old_left[i] = false;
            new_left[j] = false;
        }
    }
    matched.sort_by_key(|(_, n)| (&n.chapter, n.line));
    let left = |entries: &'a [Entry], left: &[bool]| -> Vec<&'a Entry> {
        entries
            .iter()
            .zip(left)
            .filter_map(|(e, &l)| l.then_some(e))
            .collect()
    };
    Pairs {
        matched,
        new: left(new, &new_left),
        old: left(old, &old_left),
    }
}

/// What differs between a block's entry in the lock (`o`) and this run's
/// (`n`): one phrase per field ([`Entry::facts`]), naming it, and the
/// changed fields of more than one line as small diffs ([`shown`]).
fn entry_differences(
    o: &Entry,
    n: &Entry,
    accepts: &impl Fn(&str, &RecordedRun) -> bool,
) -> (Vec<String>, String) {
    let (run, rest): (Vec<_>, Vec<_>) = lock::changes(&o.facts(), &n.facts())
        .into_iter()
        .partition(|c| c.field == "run" || c.field.starts_with("run."));
    let mut told: Vec<&lock::Change> = rest.iter().collect();
    // A recorded run is compared only where the rest agrees: a changed
    // block's run changes with it. One the claim accepts (an address
    // under `[..]`) is the same run.
    let accepted = o.run.as_ref().is_some_and(|run| accepts(&n.hash, run));
    if told.is_empty() && !accepted {
        told.extend(run.iter());
    }
    let out = told.iter().map(|c| change(c, o, n)).collect();
    let mut diffs: String = told.iter().filter_map(|c| shown(c)).collect();
    // A changed code's output, as the hash's phrase quotes it.
    if told.iter().any(|c| c.field == "hash")
        && let (Some(a), Some(b)) = (&o.run, &n.run)
    {
        diffs.extend(shown(&lock::Change {
            field: "run.stdout",
            locked: a.stdout.clone(),
            now: b.stdout.clone(),
        }));
    }
    (out, diffs)
}

/// A changed field of more than one line as a unified diff from the
/// lock's value to this run's, three lines of context around each change
/// ([`diff::unified`]), indented under the report's line (`    | `) and
/// headed by the field; `None` for values of one line at most, which the
/// field's phrase quotes whole.
fn shown(c: &lock::Change) -> Option<String> {
    let lines = |t: &str| t.split_inclusive('\n').count();
    if lines(&c.locked).max(lines(&c.now)) < 2 {
        return None;
    }
    let diff = diff::unified(
        &c.locked,
        &c.now,
        &format!("{} in companion.lock", c.field),
        &format!("{} now", c.field),
    );
    let mut out = String::new();
    for line in diff.lines() {
        out.push_str("\n    | ");
        out.push_str(line);
    }
    (!out.is_empty()).then_some(out)
}

/// A changed fact in words: its field, and its first line that differs
/// as the lock has it and as this check found it.
fn change(c: &lock::Change, o: &Entry, n: &Entry) -> String {
    if c.field == "hash" {
        let ran = match (&o.run, &n.run) {
            (Some(a), Some(b)) if a.stdout != b.stdout => {
                let (a, b) = first_difference(&a.stdout, &b.stdout);
                format!(" (it printed {a} then, {b} now)")
            }
            _ => String::new(),
        };
        return format!(
            "hash: its code, what it claims or how this version of mdbook-companion builds it changed since companion.lock was written{ran}"
        );
    }
    difference(c)
}

/// `field: "locked" in companion.lock, "now" now`, at the first line
/// that differs (`field line 3: …`) when either value has more than one.
fn difference(c: &lock::Change) -> String {
    let (old, new) = first_difference(&c.locked, &c.now);
    let lines = |t: &str| t.split_inclusive('\n').count();
    let field = match lines(&c.locked).max(lines(&c.now)) {
        0 | 1 => c.field.to_owned(),
        _ => {
            let at = c
                .locked
                .split_inclusive('\n')
                .zip(c.now.split_inclusive('\n'))
                .take_while(|(a, b)| a == b)
                .count();
            format!("{} line {}", c.field, at + 1)
        }
    };
    format!("{field}: {old} in companion.lock, {new} now")
}

/// The first line that differs between `a` and `b`, each as a report
/// shows it: quoted with control characters escaped (its newline too),
/// `nothing` where one has no such line, and a long line cut to a
/// stretch that holds the first character that differs.
fn first_difference(a: &str, b: &str) -> (String, String) {
    let (mut la, mut lb) = (a.split_inclusive('\n'), b.split_inclusive('\n'));
    let (la, lb) = loop {
        match (la.next(), lb.next()) {
            (Some(x), Some(y)) if x == y => continue,
            pair => break pair,
        }
    };
    let at = match (la, lb) {
        (Some(x), Some(y)) => x.chars().zip(y.chars()).take_while(|(p, q)| p == q).count(),
        _ => 0,
    };
    let show = |l: Option<&str>| l.map_or_else(|| "nothing".to_owned(), |l| excerpt(l, at));
    (show(la), show(lb))
}

/// A line as a report shows it: quoted, control characters escaped, at
/// most 60 characters, the cut keeping the character at `at` in sight.
fn excerpt(line: &str, at: usize) -> String {
    const MAX: usize = 60;
    let len = line.chars().count();
    let start = match len > MAX {
        true => at.saturating_sub(MAX / 3).min(len - MAX),
        false => 0,
    };
    let cut: String = line.chars().skip(start).take(MAX).collect();
    let before = if start > 0 { "…" } else { "" };
    let after = if start + MAX < len { "…" } else { "" };
    format!("{before}{cut:?}{after}")
}

#[cfg(test)]
mod tests;
