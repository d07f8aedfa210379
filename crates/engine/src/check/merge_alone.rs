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
