//! What checking a claim deals in: the job a claim becomes, what running
//! it was seen to do ([`Observation`], what the cache keeps), and the
//! [`Verdict`] on the claim, with the output comparison rules.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::time::Duration;

/// Bytes kept of a program's stdout and of its stderr each.
pub const MAX_OUTPUT: usize = 1 << 20;

/// The time a compiler gets at least (the configured `timeout` applies to
/// programs; compilers get this much or the timeout, whichever is longer).
pub const COMPILE_TIMEOUT: Duration = Duration::from_secs(120);

/// A compiler invocation and, maybe, a run of what it made: the unit of
/// work and of caching.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Job {
    /// The compiler command (`rustc`, `cc`).
    pub tool: String,
    /// The source file name inside the temporary directory.
    pub source_file: &'static str,
    /// The compiler's arguments (file names relative to the directory).
    pub args: Vec<String>,
    /// The program to run after a successful compile, if any.
    pub run: Option<&'static str>,
    /// The command that runs it, when it is not the program itself (a
    /// language of programs: `python3 main.py`); empty otherwise.
    pub run_with: Vec<String>,
    /// Environment of the run.
    pub env: Vec<(&'static str, &'static str)>,
    /// The program runs under Valgrind's Memcheck (`sanitize=memcheck`).
    pub memcheck: bool,
    /// The program's time limit when it is not `timeout`: a plain block
    /// that claims no output gets `hang-guard`.
    pub timeout: Option<Duration>,
}

impl Job {
    /// The job's flags and run, without the compiler's name, in one
    /// string (part of a claim's lock hash).
    pub(crate) fn key_parts(&self) -> String {
        let Job {
            // The compiler is named by its key beside these parts, and a
            // hang guard is a limit, not part of what is claimed.
            tool: _,
            timeout: _,
            source_file,
            args,
            run,
            run_with,
            env,
            memcheck,
        } = self;
        let env: Vec<String> = env.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let mut parts = format!(
            "{}\u{0}{}\u{0}{}\u{0}{}",
            source_file,
            args.join("\u{1}"),
            run.unwrap_or(""),
            env.join("\u{1}")
        );
        // Absent for a job without Memcheck, so older keys stay the same.
        if *memcheck {
            parts.push_str("\u{0}memcheck");
        }
        // Absent for a job that runs its program itself, likewise.
        if !run_with.is_empty() {
            parts.push('\u{0}');
            parts.push_str(&run_with.join("\u{1}"));
        }
        parts
    }
}

/// How a run ended.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunResult {
    /// Exit code, `None` when killed by a signal or the time limit.
    pub code: Option<i32>,
    /// Standard output, capped.
    pub stdout: String,
    /// Standard error, capped.
    pub stderr: String,
    /// The time limit was reached and the program was killed.
    pub timed_out: bool,
    /// Output beyond the cap was dropped.
    pub truncated: bool,
    /// What the run's checker (a sanitizer, Memcheck) wrote to its own
    /// log, when it wrote anything: the only place a report is read from
    /// (never the program's stdout or stderr).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub report: Option<String>,
    /// The resident-memory limit (bytes) the program went over and was
    /// killed at, when it did: `memory` under a checker that gets no
    /// address-space limit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub over_memory: Option<u64>,
}

/// What happened when a job ran: what the cache stores.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Observation {
    /// The compiler exited with success.
    pub compiled: bool,
    /// The compiler's stderr.
    pub diagnostics: String,
    /// The compiler itself hit the time limit.
    pub compile_timed_out: bool,
    /// The program's run, when it was run.
    pub run: Option<RunResult>,
    /// The diagnostics are a merged build's, which hold the verdict (the
    /// block fails to compile, with these error codes) but may read
    /// otherwise than its compile alone (a type printed with its merged
    /// module's path): kept for a plain block whose verdict the merged
    /// build decides ([`Outcome::merged`] says so in its report). What
    /// asks for rustc's own words ([`super::Checker::exact_diagnostics`]:
    /// `check --exact`, `--bless`, `adopt`) compiles the block alone instead.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub inexact: bool,
    /// The program compiled and was not run: its run is certain to end at
    /// once with success (a plain block whose `main` holds only items:
    /// [`mdbook_companion_core::tokens::inert`]). What asks for every run
    /// (`check --exact`, `--bless`, `adopt`) runs it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub inert: bool,
}

impl Observation {
    /// Whether this holds a verdict made without rustc's own words or
    /// without a run ([`Observation::inexact`], [`Observation::inert`]):
    /// what `check --exact` makes again.
    pub fn told(&self) -> bool {
        self.inexact || self.inert
    }
}

/// The verdict on one claim.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "status", rename_all = "kebab-case")]
pub enum Verdict {
    /// The claim holds.
    Passed,
    /// The claim is false.
    Failed {
        /// What went wrong, in one line.
        message: String,
        /// The expected text, when outputs differ.
        expected: Option<String>,
        /// The actual text, when outputs differ.
        actual: Option<String>,
        /// More detail (diagnostics, stderr).
        detail: Option<String>,
        /// Where in its block the failure stands, when the message names
        /// a line: the book layer, which knows where the block is, puts
        /// the chapter's `file:line:` before the message.
        #[serde(skip)]
        at: Option<BlockLine>,
    },
    /// `ignore`: shown, never compiled or run, and never counted as passed.
    Ignored,
    /// The compiler could not be run: the claim is unproven.
    Unchecked {
        /// The compiler command that is missing.
        tool: String,
        /// The `[preprocessor.companion]` key that names it, when it is no
        /// compiler (`valgrind`), or the compiler's key when what is
        /// missing is a part of it (a sanitizer's runtime).
        #[serde(skip_serializing_if = "Option::is_none")]
        key: Option<&'static str>,
    },
    /// A claim about another architecture's machine code, on this
    /// machine: neither passed nor failed.
    OtherArch {
        /// The architecture the claim holds for.
        claimed: String,
        /// This machine's.
        here: String,
    },
}

/// A line of a claim's block, counted from the line of its info string
/// (0), as the engine tells it: it never knows the chapter, nor where
/// the block stands in it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlockLine {
    /// Lines below the info string.
    pub line: usize,
    /// The 1-based column, when the message names one.
    pub column: Option<usize>,
}

impl Verdict {
    /// The verdict as `companion.lock` records it.
    pub fn recorded(&self) -> mdbook_companion_core::claim::Recorded {
        use mdbook_companion_core::claim::Recorded;
        match self {
            Verdict::Passed => Recorded::Passed,
            Verdict::Failed { .. } => Recorded::Failed,
            Verdict::Ignored => Recorded::Ignored,
            Verdict::Unchecked { .. } => Recorded::Unchecked,
            Verdict::OtherArch { .. } => Recorded::OtherArch,
        }
    }

    /// A failure with a message only.
    pub fn fail(message: impl Into<String>) -> Verdict {
        Verdict::Failed {
            message: message.into(),
            expected: None,
            actual: None,
            detail: None,
            at: None,
        }
    }

    /// A failure with more detail below the message.
    pub(crate) fn fail_with(message: impl Into<String>, detail: impl Into<String>) -> Verdict {
        Verdict::failed(message.into(), detail.into(), None)
    }

    /// A failure with more detail below the message, which names line
    /// `at` of the claim's block.
    pub(crate) fn fail_at(
        message: impl Into<String>,
        detail: impl Into<String>,
        at: BlockLine,
    ) -> Verdict {
        Verdict::failed(message.into(), detail.into(), Some(at))
    }

    fn failed(message: String, detail: String, at: Option<BlockLine>) -> Verdict {
        Verdict::Failed {
            message,
            expected: None,
            actual: None,
            detail: (!detail.trim().is_empty()).then_some(detail),
            at,
        }
    }

    /// Counts as a failure (failed or unchecked).
    pub fn is_failure(&self) -> bool {
        matches!(self, Verdict::Failed { .. } | Verdict::Unchecked { .. })
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::Passed => f.write_str("ok"),
            Verdict::Ignored => f.write_str("ignored (not checked)"),
            Verdict::Unchecked { tool, key } => f.write_str(
                &mdbook_companion_core::problem::cannot_run(tool, key.unwrap_or("")),
            ),
            Verdict::OtherArch { here, .. } => write!(f, "not checked on {here}"),
            Verdict::Failed {
                message,
                expected,
                actual,
                ..
            } => {
                f.write_str(message)?;
                if let (Some(e), Some(a)) = (expected, actual) {
                    write!(f, "\n{}", diff(e, a))?;
                }
                Ok(())
            }
        }
    }
}

/// The result of checking one claim.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// The verdict.
    pub verdict: Verdict,
    /// The actual output in the output block's terms (stdout, panic
    /// message, first compiler error, sanitizer report), for `--bless`.
    pub actual: Option<String>,
    /// The observation came from the cache, as an earlier run left it.
    pub cached: bool,
    /// The failure's diagnostics are a merged build's
    /// ([`Observation::inexact`]): they hold its verdict, not rustc's
    /// words for the block compiled alone (`check --exact` gives those).
    pub merged: bool,
}

/// What a failure told by a merged build adds to its message.
pub const MERGED_NOTE: &str =
    "(told by a merged build or our lexer; --exact for rustc's own words)";

/// A unified diff from the expected to the actual text.
pub fn diff(expected: &str, actual: &str) -> String {
    let mut e = expected.to_owned();
    e.push('\n');
    let mut a = actual.to_owned();
    a.push('\n');
    mdbook_companion_core::diff::unified(&e, &a, "expected", "actual")
}

/// Output as compared: trailing whitespace of each line and trailing blank
/// lines dropped, line ends as `\n`.
pub fn normalize(text: &str) -> String {
    let mut lines: Vec<&str> = text.lines().map(str::trim_end).collect();
    while lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    lines.join("\n")
}

/// Whether `needle` (normalized, maybe a pattern) occurs in `haystack`
/// (normalized); an empty needle always does.
pub fn contains_normalized(haystack: &str, needle: &str) -> bool {
    let needle = normalize(needle);
    let needle = needle.trim_start();
    needle.is_empty() || super::pattern::found_in(&normalize(haystack), needle)
}
