//! Whether a failing block's report from a merged build stands for its
//! compile alone, and a way to see it ([`COMPARE`]).
//!
//! [`super::merge_fail::attribute`] gives each failing member its own
//! diagnostics; this module decides which of them a cold `check` may
//! report without compiling the block alone.

use super::Checker;
use super::merge_fail::Own;
use super::verdict::{Job, Observation};
use mdbook_companion_core::claim::Claim;
use std::io::Write;

/// The environment variable that, set to a file, makes every failing
/// plain block of a merged build compile alone as well, and appends to
/// that file (one JSON object a line) its merged report, its report
/// alone, and whether `check` would have taken the merged one. For
/// measuring the rule, not for users: it costs a compile per failing
/// block.
pub(super) const COMPARE: &str = "COMPANION_COMPARE_MERGED";

/// The probe a merged build of plain blocks ends with: a function after
/// every block, whose `unused_mut` warning rustc gives only when it
/// borrow-checks it, after every body before it. Seen in the output, it
/// says rustc went through every phase up to borrow checking for the
/// whole crate (no error stopped it early); a warning from the crate's
/// root is no block's ([`super::merge_fail::attribute`]), and it changes
/// nothing a build of blocks that compile does.
pub(super) const PROBE: &str =
    "#[warn(unused_mut)]\nfn __companion_probe() { let mut x = 0; let _ = x; }\n";

/// Whether a merged build's output (human, rendered) holds the warning of
/// [`PROBE`].
pub(super) fn reached_the_end(stderr: &str) -> bool {
    stderr.contains("fn __companion_probe() { let mut x")
}

/// Whether a failing block's own diagnostics in a merged build that
/// reached its end (with other blocks failing too) are those of its
/// compile alone.
pub(super) fn stands_alone(_diagnostics: &str) -> bool {
    true
}

/// Whether a block's own diagnostics hold an error after which rustc
/// stops the whole crate before type checking: a trait path it cannot
/// resolve (E0405 "cannot find trait", E0404 "expected trait, found …").
/// Such a block compiles alone; the others of its build are built again
/// without it.
pub(super) fn stops_the_crate(diagnostics: &str) -> bool {
    diagnostics
        .lines()
        .any(|l| l.starts_with("error[E0405]") || l.starts_with("error[E0404]"))
}

impl Checker {
    /// Under [`COMPARE`], `claim`'s compile alone (its observation), with
    /// its report compared with `own`'s, which the merged build would
    /// have given it when `trusted`; `None` otherwise.
    pub(super) fn compared(
        &self,
        claim: &Claim,
        job: &Job,
        own: &Own,
        trusted: bool,
        reached: bool,
    ) -> Option<Observation> {
        let path = std::env::var_os(COMPARE)?;
        claim.doctest.as_ref()?;
        let alone = self.execute(job, &claim.source)?;
        let record = serde_json::json!({
            "file": claim.file,
            "line": claim.line,
            "expect": format!("{:?}", claim.expect),
            "crowded": own.crowded,
            "differs": own.differs,
            "trusted": trusted,
            "reached": reached,
            "same": alone.diagnostics == own.diagnostics,
            "compiled": alone.compiled,
            "merged": own.diagnostics,
            "alone": alone.diagnostics,
        });
        let line = format!("{record}\n");
        if let Ok(mut f) = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
        {
            // One write per record, so that parallel builds do not mix lines.
            let _ = f.write_all(line.as_bytes());
        }
        Some(alone)
    }
}
