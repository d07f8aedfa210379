//! The report of `check`: what was checked and how it went, as text for people (a line per claim, failures
//! with their location and a diff, the summary line last), JSON for tools,
//! and the progress bar shown meanwhile on a terminal.

use mdbook_companion_core::claim::Claim;
use mdbook_companion_core::problem::{Located, MissingTool, blocks};
use mdbook_companion_engine::check::{Counters, Outcome, Verdict, diff};
use serde::Serialize;
use std::fmt::Write as _;

/// One checked claim in the report.
#[derive(Debug, Clone)]
pub struct Checked {
    /// The claim.
    pub claim: Claim,
    /// The file of the chapter whose block makes the claim (for a quiz
    /// file's question, the chapter that links the file).
    pub chapter: String,
    /// What checking it gave.
    pub outcome: Outcome,
    /// What the program printed on further runs, when asked for
    /// (`adopt` asks for them).
    pub others: Vec<String>,
    /// The fence after the example that shows what it printed already
    /// (a "will print" block, ```` ```text ````): no output block is
    /// asked for, nor added by `--bless`.
    pub shown_after: Option<String>,
}

/// The whole result of `check`.
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// Every claim with its outcome, in book order.
    pub checked: Vec<Checked>,
    /// What `mdbook build` fails with (directives that could not be
    /// read, ids used twice, data files…), located as the build locates
    /// it.
    pub invalid: Vec<Located>,
    /// Compilers that could not be run (the command and the config key that
    /// names it), with the blocks they left unchecked.
    /// Each is placed at the list of its blocks (`file:line`), sorted by
    /// command.
    pub missing: Vec<MissingTool<Vec<String>>>,
    /// What `--bless` did or refused, one line each.
    pub bless_notes: Vec<String>,
    /// What happened to `companion.lock`, one line each.
    pub lock_notes: Vec<String>,
    /// `--locked`: how the book differs from its lock (each a failure).
    pub lock_errors: Vec<String>,
    /// `--locked` with no lock to compare with: what is wrong with the
    /// file (`is missing`, `does not parse`), its one difference.
    pub lock_unread: Option<&'static str>,
    /// The work done.
    pub counters: Counters,
    /// Other notes (preprocessors `check` does not run) and warnings
    /// (`warning: …`, what the build warns about), one line each.
    pub notes: Vec<String>,
    /// `warnings = "deny"`: every warning is a failure.
    pub deny_warnings: bool,
    /// What is wrong with the book as a whole (a misspelled
    /// `[preprocessor.companion]`), each a failure.
    pub errors: Vec<String>,
    /// The chapter files in book order, so that unreadable directives
    /// are told among the claims of their chapter.
    pub chapters: Vec<String>,
    /// How the book's programs were kept apart: `box`, `landlock` (a
    /// lesser box) or `none` (a note says why).
    pub isolation: &'static str,
}

impl Report {
    /// Claims that held (blessed ones included).
    pub fn passed(&self) -> usize {
        self.checked
            .iter()
            .filter(|c| c.outcome.verdict == Verdict::Passed)
            .count()
    }

    /// Claims that failed or could not be checked, and what the build
    /// fails with in a chapter's block (a directive it cannot read, an id
    /// used twice, a data file a block asked for): each a block. Not the
    /// lock's differences ([`Report::lock_differences`]) nor what fails
    /// the book as a whole ([`Report::book_errors`]).
    pub fn failed(&self) -> usize {
        self.checked
            .iter()
            .filter(|c| c.outcome.verdict.is_failure())
            .count()
            + self.invalid.iter().filter(|i| self.in_block(i)).count()
    }

    /// Whether what the build fails with is in a block: in a chapter, or
    /// in a data file a chapter's block asked for (not book.toml, the
    /// theme).
    fn in_block(&self, i: &Located) -> bool {
        self.chapters.contains(&i.file) || i.asked_for_by().is_some()
    }

    /// What fails the book as a whole, outside its blocks: the build's
    /// faults in book.toml or the theme, a misspelled
    /// `[preprocessor.companion]`, warnings under `warnings = "deny"`.
    pub fn book_errors(&self) -> usize {
        self.invalid.iter().filter(|i| !self.in_block(i)).count()
            + self.errors.len()
            + self.denied().count()
    }

    /// `--locked`: the entries of `companion.lock` that differ from the
    /// book (one per block, stale entry or panel; the lock missing or
    /// unreadable is one).
    pub fn lock_differences(&self) -> usize {
        self.lock_errors.len()
    }

    /// The blocks the report tells: passed, failed, ignored and those
    /// about another architecture add up to it.
    pub fn blocks(&self) -> usize {
        self.checked.len() + self.invalid.iter().filter(|i| self.in_block(i)).count()
    }

    /// Whether the run fails: a block failed, the lock differs, or the
    /// book as a whole fails.
    pub fn fails(&self) -> bool {
        self.failed() + self.lock_differences() + self.book_errors() > 0
    }

    /// The warnings that fail the run (all of them under `warnings =
    /// "deny"`, else none), without their `warning: `.
    pub fn denied(&self) -> impl Iterator<Item = &str> {
        self.lock_notes
            .iter()
            .chain(&self.notes)
            .filter(|_| self.deny_warnings)
            .filter_map(|n| n.strip_prefix("warning: "))
    }

    /// Ignored examples.
    pub fn ignored(&self) -> usize {
        self.checked
            .iter()
            .filter(|c| c.outcome.verdict == Verdict::Ignored)
            .count()
    }

    /// Claims about another architecture's machine code.
    pub fn other_arch(&self) -> usize {
        self.checked
            .iter()
            .filter(|c| matches!(c.outcome.verdict, Verdict::OtherArch { .. }))
            .count()
    }

    /// The last line: `N passed, M failed` (`, K ignored` when some were,
    /// `, K not checked on ARCH` for claims about another architecture),
    /// which add up to the blocks; then, each its own count, `; N lock
    /// entries differ` and `; N book errors` when there are.
    pub fn summary(&self) -> String {
        let mut s = format!("{} passed, {} failed", self.passed(), self.failed());
        if self.ignored() > 0 {
            s.push_str(&format!(", {} ignored", self.ignored()));
        }
        if self.other_arch() > 0 {
            s.push_str(&format!(
                ", {} not checked on {}",
                self.other_arch(),
                mdbook_companion_core::machine::host_arch()
            ));
        }
        match (self.lock_unread, self.lock_differences()) {
            (Some(why), _) => s.push_str(&format!("; companion.lock {why}")),
            (None, 0) => {}
            (None, 1) => s.push_str("; 1 lock entry differs"),
            (None, n) => s.push_str(&format!("; {n} lock entries differ")),
        }
        match self.book_errors() {
            0 => {}
            1 => s.push_str("; 1 book error"),
            n => s.push_str(&format!("; {n} book errors")),
        }
        s
    }
}

fn indent(text: &str, by: &str) -> String {
    let mut s = String::new();
    for line in text.trim_end().lines() {
        s.push_str(by);
        s.push_str(line);
        s.push('\n');
    }
    s
}

/// What an example printed that no output block claims: a passing
/// `expect=run` directive (not a plain block, which claims no output)
/// without an output block whose program wrote to stdout.
pub fn unclaimed_output(c: &Checked) -> Option<&str> {
    let claim = &c.claim;
    let unclaimed = c.outcome.verdict == Verdict::Passed
        && claim.expectation.expect == mdbook_companion_core::expect::Expect::Run
        && claim.expectation.output.is_none()
        && claim.origin.output_range.is_none()
        && claim.program.doctest.is_none()
        && !claim.expectation.ignore
        && c.shown_after.is_none();
    if !unclaimed {
        return None;
    }
    c.outcome.actual.as_deref().filter(|a| !a.trim().is_empty())
}

/// Detail text beyond this many lines is cut in the text report.
const DETAIL_LINES: usize = 30;

/// The text report; its last line is the summary. Characters that would
/// act on a terminal (escape sequences a program printed) are shown as
/// `\u{…}`.
pub fn text(report: &Report) -> String {
    let mut s = String::new();
    // Unreadable directives stand where they are in the book, among the
    // claims.
    let order = |file: &str, line: usize| {
        let chapter = report.chapters.iter().position(|f| f == file);
        (chapter.unwrap_or(usize::MAX), line)
    };
    let mut invalid = report.invalid.iter().peekable();
    let invalid_line = |s: &mut String, located: &Located| {
        let _ = writeln!(s, "FAILED  {located}");
    };
    for c in &report.checked {
        let claim = &c.claim;
        while let Some(i) = invalid
            .next_if(|i| order(&i.file, i.line) < order(&claim.origin.file, claim.origin.line))
        {
            invalid_line(&mut s, i);
        }
        claim_lines(&mut s, c);
    }
    for i in invalid {
        invalid_line(&mut s, i);
    }
    closing_lines(&mut s, report);
    // What programs printed is shown, never obeyed by the terminal.
    mdbook_companion_core::escape::terminal(&s).into_owned()
}

/// The lines of one checked claim: its verdict, where it is and what it
/// claims, and for a failure the diff and the tool's words.
fn claim_lines(s: &mut String, c: &Checked) {
    let claim = &c.claim;
    let head = format!(
        "{}:{}: {} (expect={})",
        claim.origin.file,
        claim.origin.line,
        claim.origin.what,
        claim.expectation.expect.name()
    );
    match &c.outcome.verdict {
        Verdict::Passed => {
            let _ = write!(s, "ok      {head}");
            if unclaimed_output(c).is_some() {
                let bless = if claim.origin.bless.is_some() {
                    ", or --bless adds it"
                } else {
                    ""
                };
                let _ = write!(s, " (output not claimed: add an output block{bless})");
            }
            s.push('\n');
        }
        Verdict::Ignored => {
            // An ignored block claims nothing: no `(expect=…)`.
            let _ = writeln!(
                s,
                "ignored {}:{}: {}: not checked",
                claim.origin.file, claim.origin.line, claim.origin.what
            );
        }
        Verdict::Unchecked { tool, .. } => {
            let _ = writeln!(s, "FAILED  {head}: not checked, `{tool}` could not be run");
        }
        Verdict::OtherArch { claimed, here } => {
            let _ = writeln!(
                s,
                "other   {head}: not checked on {here} (the claim is about {claimed} code)"
            );
        }
        Verdict::Failed {
            message,
            expected,
            actual,
            detail,
            ..
        } => {
            let _ = writeln!(s, "FAILED  {head}: {message}");
            if let (Some(e), Some(a)) = (expected, actual) {
                s.push_str(&indent(&diff(e, a), "    "));
            }
            if let Some(d) = detail {
                let lines: Vec<&str> = d.trim_end().lines().collect();
                let shown = lines[..lines.len().min(DETAIL_LINES)].join("\n");
                s.push_str(&indent(&shown, "    | "));
                if lines.len() > DETAIL_LINES {
                    let _ = writeln!(s, "    | … {} more lines", lines.len() - DETAIL_LINES);
                }
            }
        }
    }
}

/// The lines after the claims: the lock's failures, the book's errors,
/// the notes, the tools that were missing, what `--bless` did, the
/// counters and the summary.
fn closing_lines(s: &mut String, report: &Report) {
    for e in &report.lock_errors {
        let _ = writeln!(s, "FAILED  --locked: {e}");
    }
    for e in &report.errors {
        let _ = writeln!(s, "FAILED  {e}");
    }
    for n in report.lock_notes.iter().chain(&report.notes) {
        match n.strip_prefix("warning: ") {
            Some(w) if report.deny_warnings => {
                let _ = writeln!(s, "FAILED  {w} (warnings = \"deny\")");
            }
            _ => {
                let _ = writeln!(s, "{n}");
            }
        }
    }
    for m in &report.missing {
        let _ = writeln!(
            s,
            "error: {} ({}); {} not checked: {}",
            m.cannot_run(),
            m.remedy(),
            blocks(m.at.len()),
            m.at.join(", ")
        );
    }
    for note in &report.bless_notes {
        let _ = writeln!(s, "bless: {note}");
    }
    let Counters {
        compiler_runs,
        program_runs,
        runs_certain,
        cache_hits,
        dependency_builds,
        ..
    } = report.counters;
    let _ = write!(
        s,
        "compiler runs: {compiler_runs}, program runs: {program_runs}"
    );
    // Programs compiled and not run: their `main` does nothing.
    if runs_certain > 0 {
        let _ = write!(
            s,
            " (not run, their main holding only items: {runs_certain}; --exact runs them)"
        );
    }
    let _ = write!(s, ", from cache: {cache_hits}");
    if dependency_builds > 0 {
        let _ = write!(s, ", dependency builds: {dependency_builds}");
    }
    s.push('\n');
    s.push_str(&report.summary());
    s.push('\n');
}

#[derive(Serialize)]
struct JsonReport<'a> {
    results: Vec<JsonResult<'a>>,
    invalid: Vec<JsonInvalid<'a>>,
    missing_compilers: Vec<JsonMissing<'a>>,
    bless: &'a [String],
    lock_errors: &'a [String],
    lock_notes: &'a [String],
    notes: &'a [String],
    errors: &'a [String],
    denied_warnings: Vec<&'a str>,
    /// `passed + failed + ignored + other_arch`.
    blocks: usize,
    passed: usize,
    failed: usize,
    ignored: usize,
    other_arch: usize,
    /// Counted apart from the blocks.
    lock_differences: usize,
    book_errors: usize,
    compiler_runs: usize,
    program_runs: usize,
    /// Programs compiled and not run: a plain block's `main` that holds
    /// only items (`--exact` runs them).
    runs_certain: usize,
    cache_hits: usize,
    dependency_builds: usize,
    programs_at_once: usize,
    runs_again_alone: usize,
    /// `box`: the book's programs ran in boxes; `none`: they could not.
    isolation: &'static str,
    summary: String,
}

#[derive(Serialize)]
struct JsonResult<'a> {
    file: &'a str,
    line: usize,
    what: &'a str,
    lang: mdbook_companion_core::lang::Lang,
    expect: mdbook_companion_core::expect::Expect,
    /// `sanitize=`: the checkers that watched the run.
    #[serde(skip_serializing_if = "Option::is_none")]
    sanitize: Option<String>,
    #[serde(flatten)]
    verdict: &'a Verdict,
    cached: bool,
    /// A failure whose diagnostics a merged build told (its verdict
    /// holds; `check --exact` gives rustc's words for the block alone).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    merged_diagnostics: bool,
    /// A plain block: the line `mdbook test` names it by.
    #[serde(skip_serializing_if = "Option::is_none")]
    test_line: Option<usize>,
}

#[derive(Serialize)]
struct JsonInvalid<'a> {
    file: &'a str,
    line: usize,
    column: usize,
    message: &'a str,
}

#[derive(Serialize)]
struct JsonMissing<'a> {
    tool: &'a str,
    key: &'a str,
    blocks: &'a [String],
}

/// The JSON report (one object).
pub fn json(report: &Report) -> String {
    let r = JsonReport {
        results: report
            .checked
            .iter()
            .map(|c| JsonResult {
                file: &c.claim.origin.file,
                line: c.claim.origin.line,
                what: &c.claim.origin.what,
                lang: c.claim.program.lang,
                expect: c.claim.expectation.expect,
                sanitize: (!c.claim.expectation.sanitize.is_empty())
                    .then(|| c.claim.expectation.sanitize.value()),
                verdict: &c.outcome.verdict,
                cached: c.outcome.cached,
                merged_diagnostics: c.outcome.merged,
                test_line: c.claim.program.doctest.as_ref().map(|d| d.test_line),
            })
            .collect(),
        invalid: report
            .invalid
            .iter()
            .map(|i| JsonInvalid {
                file: &i.file,
                line: i.line,
                column: i.column,
                message: &i.message,
            })
            .collect(),
        missing_compilers: report
            .missing
            .iter()
            .map(|m| JsonMissing {
                tool: &m.tool,
                key: m.key,
                blocks: &m.at,
            })
            .collect(),
        bless: &report.bless_notes,
        lock_errors: &report.lock_errors,
        lock_notes: &report.lock_notes,
        notes: &report.notes,
        errors: &report.errors,
        denied_warnings: report.denied().collect(),
        blocks: report.blocks(),
        passed: report.passed(),
        failed: report.failed(),
        ignored: report.ignored(),
        other_arch: report.other_arch(),
        lock_differences: report.lock_differences(),
        book_errors: report.book_errors(),
        compiler_runs: report.counters.compiler_runs,
        program_runs: report.counters.program_runs,
        runs_certain: report.counters.runs_certain,
        cache_hits: report.counters.cache_hits,
        dependency_builds: report.counters.dependency_builds,
        programs_at_once: report.counters.programs_at_once,
        runs_again_alone: report.counters.runs_again_alone,
        isolation: report.isolation,
        summary: report.summary(),
    };
    serde_json::to_string_pretty(&r).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
}

/// A progress bar on stderr when `show` (stderr is a terminal).
pub fn progress_bar(show: bool, len: usize) -> Option<indicatif::ProgressBar> {
    if !show {
        return None;
    }
    let bar = indicatif::ProgressBar::new(len as u64);
    if let Ok(style) =
        indicatif::ProgressStyle::with_template("checking {bar:30} {pos}/{len} blocks")
    {
        bar.set_style(style);
    }
    Some(bar)
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    #[test]
    fn diff_is_unified_with_headers() {
        assert_eq!(
            diff("a\nb", "a\nc"),
            "--- expected\n+++ actual\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n"
        );
    }
}
