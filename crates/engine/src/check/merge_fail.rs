//! Cold `compile_fail` blocks (plain blocks, as `mdbook test` sees them)
//! compiled together.
//!
//! rustdoc compiles every `compile_fail` block alone; on a book like the
//! Reference they are most of the compiler starts. Here the cold ones
//! that can share a crate (same flags, nothing that sees the crate's
//! shape, see [`super::merge::mergeable_code`]) are put each in a module
//! of its own, with nothing around them that could fail, and compiled as
//! one crate. A block is taken as failing only where the merged run shows
//! an error inside the block's own lines, carrying every error code the
//! block names; its observation is those errors, told at the block's own
//! lines. Blocks with no error of their own are compiled together again
//! without the others (rustc stops some analyses for the whole crate after
//! an early error), while a round decides some, up to six rounds. Whatever the merged runs cannot
//! decide — a block with no error of its own, or with other codes than it
//! names, or a merged build that compiled — is left to a compile of its
//! own, so the verdicts are those of compiling alone (`--no-merge`).

use super::merge::{mergeable, mergeable_code, remap};
use super::rustc::error_codes;
use super::verdict::{Job, Observation};
use super::{CACHE_NAMESPACE, COMPILE_TIMEOUT, Checker};
use crate::exec::{self, Limits};
use mdbook_companion_core::claim::Claim;
use mdbook_companion_core::expect::Expect;
use mdbook_companion_core::lang::Lang;
use rayon::prelude::*;
use std::collections::{BTreeMap, HashSet};
use std::sync::atomic::Ordering;
use std::time::Duration;

/// Merged rounds a group gets at most; a round that decides nothing ends
/// them (each phase of rustc that stops the crate early is one round).
const ROUNDS: usize = 6;

/// One expected failure of a group.
struct Member<'a> {
    key: String,
    claim: &'a Claim,
    job: Job,
    used: Vec<String>,
}

/// Whether a claim is an expected compile failure a merged build may take.
/// Only plain blocks: an example's report shows its compiler's whole
/// diagnostics, which a merged build tells differently (no warnings, no
/// closing summary), so examples keep their own compile.
fn candidate(claim: &Claim) -> bool {
    claim.doctest.is_some()
        && claim.lang == Lang::Rust
        && !claim.ignore
        && claim.expect == Expect::CompileFail
        && claim.edition >= 2018
        && mergeable_code(&claim.source)
}

/// The codes a claim's failure must carry.
fn codes(claim: &Claim) -> Vec<String> {
    match &claim.doctest {
        Some(d) => d.error_codes.clone(),
        None => claim.error.iter().cloned().collect(),
    }
}

/// The merged crate: each member in a module, and per member the
/// 1-based lines its own code spans (first, last).
fn merged_source(members: &[Member<'_>]) -> (String, Vec<(usize, usize)>) {
    let mut source = String::new();
    let mut line = 1;
    let mut spans = Vec::new();
    for (i, m) in members.iter().enumerate() {
        source.push_str(&format!("mod __companion_ex_{i} {{\n"));
        line += 1;
        let body = m.claim.source.trim_end_matches('\n');
        source.push_str(body);
        source.push_str("\n}\n");
        let n = body.lines().count().max(1);
        spans.push((line, line + n - 1));
        line += n + 1;
    }
    source.push_str("fn main() {}\n");
    (source, spans)
}

/// rustc's diagnostics cut into messages, each with the line of its
/// primary location in `main.rs` (none for a message without one).
fn messages(stderr: &str) -> Vec<(bool, Option<usize>, String)> {
    let mut out: Vec<(bool, Option<usize>, String)> = Vec::new();
    for line in stderr.split_inclusive('\n') {
        let starts = line.starts_with("error") || line.starts_with("warning");
        if starts || out.is_empty() {
            out.push((line.starts_with("error"), None, String::new()));
        }
        let Some(last) = out.last_mut() else { continue };
        if last.1.is_none()
            && let Some(at) = line.trim_start().strip_prefix("--> main.rs:")
        {
            last.1 = at.split(':').next().and_then(|n| n.parse().ok());
        }
        last.2.push_str(line);
    }
    out
}

/// `text` with the line numbers of rustc's source snippets (`12 | code`)
/// in `first..=last` told as lines of the block alone.
fn gutter(text: &str, first: usize, last: usize) -> String {
    mdbook_companion_core::code::renumber_gutter(text, |n| {
        (first..=last).contains(&n).then(|| n + 1 - first)
    })
}

impl Checker {
    /// Whether [`Checker::prepare`] may take `claim` into a merged build
    /// (a claim it takes is best checked after it).
    pub fn merges(&self, claim: &Claim) -> bool {
        mergeable(claim) || candidate(claim)
    }

    /// Compiles the cold expected failures of `claims` together (see the
    /// module's comment); called by [`Checker::prepare`].
    pub(super) fn prepare_failures(&self, claims: &[Claim], tool: &str, version: &str) {
        let mut seen = HashSet::new();
        let mut groups: BTreeMap<(String, bool), Vec<Member<'_>>> = BTreeMap::new();
        for claim in claims.iter().filter(|c| candidate(c)) {
            let used = self.used(claim);
            let Ok((job, key)) = self.job_and_key(claim, tool, version, &used) else {
                continue;
            };
            if !seen.insert(key.clone())
                || self.cache.get(CACHE_NAMESPACE, &key).is_some()
                || self.locked_outcome(claim, Some(version)).is_some()
            {
                continue;
            }
            let group = (job.args.join(" "), !used.is_empty());
            groups.entry(group).or_default().push(Member {
                key,
                claim,
                job,
                used,
            });
        }
        let workers = rayon::current_num_threads().max(1);
        let mut chunks = Vec::new();
        for (_, members) in groups {
            let size = members.len().div_ceil(workers).max(2);
            let mut members = members.into_iter().peekable();
            while members.peek().is_some() {
                chunks.push(members.by_ref().take(size).collect::<Vec<_>>());
            }
        }
        chunks.into_par_iter().for_each(|c| self.build_failures(c));
    }

    /// Merged rounds of one group; decided members' observations
    /// go where [`Checker::check`] takes them.
    fn build_failures(&self, mut members: Vec<Member<'_>>) {
        for _round in 0..ROUNDS {
            if members.len() < 2 {
                return;
            }
            let Ok(dir) = exec::scratch_dir() else { return };
            let (source, spans) = merged_source(&members);
            if std::fs::write(dir.path().join("main.rs"), &source).is_err() {
                return;
            }
            let mut job = members[0].job.clone();
            let mut used: Vec<String> = members.iter().flat_map(|m| m.used.clone()).collect();
            used.sort();
            used.dedup();
            if !used.is_empty()
                && self
                    .link_crates(&mut job, members[0].claim.mode, &used)
                    .is_err()
            {
                return;
            }
            let per = Duration::from_secs(1) * u32::try_from(members.len()).unwrap_or(u32::MAX);
            let limit = Limits::with_timeout(self.timeout.max(COMPILE_TIMEOUT) + per);
            self.compiler_runs.fetch_add(1, Ordering::Relaxed);
            let mut cmd = exec::compiler_command(&job.tool, dir.path());
            cmd.args(&job.args).args(["-A", "warnings"]);
            let Ok(compiled) = exec::run(&mut cmd, b"", limit) else {
                return;
            };
            tracing::debug!(
                "merged build of {} expected failures: {}",
                members.len(),
                if compiled.success() {
                    "built"
                } else {
                    "failed"
                }
            );
            if compiled.timed_out || compiled.success() {
                return;
            }
            let mut own: Vec<String> = vec![String::new(); members.len()];
            for (is_error, line, text) in messages(&compiled.stderr) {
                let Some(line) = line.filter(|_| is_error) else {
                    continue;
                };
                if let Some(i) = spans.iter().position(|&(a, b)| (a..=b).contains(&line)) {
                    let (first, last) = spans[i];
                    own[i].push_str(&gutter(&remap(&text, (first, last, first)), first, last));
                }
            }
            let mut decided = Vec::new();
            let mut rest = Vec::new();
            for (m, errors) in members.into_iter().zip(own) {
                if errors.is_empty() {
                    rest.push(m);
                    continue;
                }
                let found = error_codes(&errors);
                if codes(m.claim).iter().all(|c| found.contains(c)) {
                    decided.push((
                        m.key,
                        Observation {
                            compiled: false,
                            diagnostics: errors,
                            compile_timed_out: false,
                            run: None,
                        },
                    ));
                }
                // Other codes than the block names: left to its own compile.
            }
            tracing::debug!("{} decided, {} left", decided.len(), rest.len());
            if decided.is_empty() {
                return;
            }
            (self.merged.lock().unwrap_or_else(|e| e.into_inner())).extend(decided);
            members = rest;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::rustc;
    use crate::check::tests::claim;

    #[test]
    fn members_get_modules_and_their_own_lines() {
        let a = claim(
            Expect::CompileFail,
            "fn main() {\n    let x: i32 = \"a\";\n}\n",
        );
        let b = claim(Expect::CompileFail, "fn main() {}");
        let members: Vec<Member<'_>> = [&a, &b]
            .into_iter()
            .map(|c| Member {
                key: String::new(),
                claim: c,
                job: rustc::job(c, "rustc"),
                used: Vec::new(),
            })
            .collect();
        let (source, spans) = merged_source(&members);
        assert_eq!(spans, [(2, 4), (7, 7)]);
        let lines: Vec<&str> = source.lines().collect();
        assert_eq!(lines[2], "    let x: i32 = \"a\";");
        assert_eq!(lines[6], "fn main() {}");
        assert_eq!(lines.last(), Some(&"fn main() {}"));
    }

    #[test]
    fn messages_carry_their_primary_line() {
        let stderr = "error[E0308]: mismatched types\n --> main.rs:3:18\n  |\nnote: x\n --> main.rs:9:1\n\nerror: aborting due to 1 previous error\n\nFor more information about this error, try `rustc --explain E0308`.\n";
        let m = messages(stderr);
        assert_eq!(m.len(), 2);
        assert_eq!((m[0].0, m[0].1), (true, Some(3)));
        assert!(m[0].2.contains("note: x"));
        assert_eq!((m[1].0, m[1].1), (true, None));
    }

    #[test]
    fn snippet_lines_are_the_blocks_own() {
        let text = "error[E0308]: x\n --> main.rs:2:1\n   |\n13 | let x: i32 = \"a\";\n   |        ^\n40 | other\n";
        assert_eq!(
            gutter(text, 12, 14),
            "error[E0308]: x\n --> main.rs:2:1\n   |\n 2 | let x: i32 = \"a\";\n   |        ^\n40 | other\n"
        );
    }

    #[test]
    fn only_cold_plain_compile_failures_of_2018_on_merge() {
        let plain = |expect, source: &str| {
            let mut c = claim(expect, source);
            c.doctest = Some(mdbook_companion_core::doctest::Doctest {
                test_harness: false,
                error_codes: Vec::new(),
                test_line: 1,
            });
            c
        };
        let wrong = "fn main() { let x: i32 = \"a\"; }";
        assert!(candidate(&plain(Expect::CompileFail, wrong)));
        assert!(
            !candidate(&claim(Expect::CompileFail, wrong)),
            "an example compiles alone"
        );
        assert!(!candidate(&plain(Expect::Run, "fn main() {}")));
        assert!(!candidate(&plain(
            Expect::CompileFail,
            "#![recursion_limit = \"4\"]\nfn main() {}"
        )));
        // A lint level is the block's module's too.
        assert!(candidate(&plain(
            Expect::CompileFail,
            "#![deny(unused_must_use)]\nfn main() { let x: i32 = \"a\"; }"
        )));
        let mut old = plain(Expect::CompileFail, wrong);
        old.edition = 2015;
        assert!(!candidate(&old));
    }
}
