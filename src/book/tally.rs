//! The debug log's proof that every command reads each chapter once:
//! how many chapters this process parsed (`parsed chapter src/x.md (1 of
//! N)`) and how many Markdown passes it made over one (for directives, or
//! for the code blocks `mdbook test` finds), told at the end as
//! `chapters parsed: N, scans: N` (`MDBOOK_LOG=debug`).

use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// Chapters parsed, Markdown passes.
static TALLY: [AtomicUsize; 2] = [const { AtomicUsize::new(0) }; 2];

/// Counts a pass of the Markdown parser over a chapter (for directives,
/// or for the code blocks `mdbook test` finds).
pub fn scanned() {
    TALLY[1].fetch_add(1, Relaxed);
}

/// Counts the parse of chapter `file` of a book of `of` chapters, in the
/// debug log.
pub fn parsed(file: &str, of: usize) {
    let n = TALLY[0].fetch_add(1, Relaxed) + 1;
    tracing::debug!("parsed chapter {file} ({n} of {of})");
}

/// The tally of this process in the debug log: `chapters parsed: N,
/// scans: N`.
pub fn log_tally() {
    let [parsed, scans] = TALLY.each_ref().map(|t| t.load(Relaxed));
    tracing::debug!("chapters parsed: {parsed}, scans: {scans}");
}
