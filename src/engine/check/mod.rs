//! Checking one claim: prove what a block says its program does.
//!
//! A book says "this prints `hello`", "this panics with `attempt to divide
//! by zero`", "this does not compile (E0381)", "this C is undefined
//! behaviour". Each such statement is a [`Claim`]. Checking one means
//! compiling (and maybe running) its program in a temporary directory, with
//! a time limit and capped output ([`crate::engine::exec`]), and comparing what
//! happened with what the book says.
//!
//! What happened (an [`Observation`]) depends only on the program, the
//! compiler's version and its flags, so it is cached under the book
//! ([`crate::engine::cache`], namespace `check`): an unchanged book re-checks with
//! no compiler run, and the verdict is recomputed from the observation, so
//! editing an output block never needs a compiler either.
//!
//! The same [`Checker`] serves the `check` command
//! ([`crate::commands::check`]) and the build with `verify = true`
//! ([`crate::book::chapter`]).

pub mod cc;
mod judge;
pub mod rustc;

pub use crate::core::claim::Claim;
pub use crate::core::expect::Expect;
pub use crate::core::lang::Lang;

use crate::core::config::Config;
use crate::core::lang::Compiler;
use crate::engine::cache::Cache;
use crate::engine::exec::{self, Limits};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fmt;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

/// The cache namespace of observations.
pub const CACHE_NAMESPACE: &str = "check";

/// Bytes kept of a program's stdout and of its stderr each.
pub const MAX_OUTPUT: usize = 1 << 20;

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
    /// Environment of the run.
    pub env: Vec<(&'static str, &'static str)>,
}

/// How a run ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
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
    },
    /// `ignore`: not checked.
    Skipped,
    /// The compiler could not be run: the claim is unproven.
    Unchecked {
        /// The compiler command that is missing.
        tool: String,
    },
}

impl Verdict {
    /// A failure with a message only.
    pub fn fail(message: impl Into<String>) -> Verdict {
        Verdict::Failed {
            message: message.into(),
            expected: None,
            actual: None,
            detail: None,
        }
    }

    /// A failure with more detail below the message.
    pub fn fail_with(message: impl Into<String>, detail: impl Into<String>) -> Verdict {
        let detail = detail.into();
        Verdict::Failed {
            message: message.into(),
            expected: None,
            actual: None,
            detail: (!detail.trim().is_empty()).then_some(detail),
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
            Verdict::Skipped => f.write_str("skipped (ignore)"),
            Verdict::Unchecked { tool } => write!(f, "the compiler `{tool}` could not be run"),
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
    /// The observation came from the cache.
    pub cached: bool,
}

/// Compiles and runs claims, with a cache and counters.
#[derive(Debug)]
pub struct Checker {
    rustc: String,
    cc: String,
    timeout: Duration,
    cache: Cache,
    compiler_runs: AtomicUsize,
    program_runs: AtomicUsize,
    cache_hits: AtomicUsize,
    memo: Mutex<HashMap<String, Arc<OnceLock<Option<Observation>>>>>,
}

/// Counters of work done.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Counters {
    /// Compiler processes started (version queries not counted).
    pub compiler_runs: usize,
    /// Compiled programs run.
    pub program_runs: usize,
    /// Claims answered without a compiler run: from the cache, or from an
    /// identical job of the same run.
    pub cache_hits: usize,
}

impl Checker {
    /// A checker for the book configured by `config`, caching under its root.
    pub fn new(config: &Config) -> Checker {
        Checker::with_cache(config, Cache::for_book(&config.root))
    }

    /// A checker with a given cache.
    pub fn with_cache(config: &Config, cache: Cache) -> Checker {
        Checker {
            rustc: config.rustc.clone(),
            cc: config.cc.clone(),
            timeout: config.timeout,
            cache,
            compiler_runs: AtomicUsize::new(0),
            program_runs: AtomicUsize::new(0),
            cache_hits: AtomicUsize::new(0),
            memo: Mutex::default(),
        }
    }

    /// The work done so far.
    pub fn counters(&self) -> Counters {
        Counters {
            compiler_runs: self.compiler_runs.load(Ordering::Relaxed),
            program_runs: self.program_runs.load(Ordering::Relaxed),
            cache_hits: self.cache_hits.load(Ordering::Relaxed),
        }
    }

    /// The compiler command a claim needs (`cc` for anything not Rust).
    pub fn tool(&self, lang: Lang) -> &str {
        match lang.compiler() {
            Some(Compiler::Rustc) => &self.rustc,
            Some(Compiler::Cc) | None => &self.cc,
        }
    }

    /// Checks one claim.
    pub fn check(&self, claim: &Claim) -> Outcome {
        if claim.ignore {
            return Outcome {
                verdict: Verdict::Skipped,
                actual: None,
                cached: false,
            };
        }
        let tool = self.tool(claim.lang).to_owned();
        let unchecked = || Outcome {
            verdict: Verdict::Unchecked { tool: tool.clone() },
            actual: None,
            cached: false,
        };
        let Some(version) = exec::tool_version_cached(&tool, &self.cache) else {
            return unchecked();
        };
        let job = match claim.lang {
            Lang::Rust => rustc::job(claim, &tool),
            Lang::C | Lang::Cpp | Lang::Python => cc::job(claim, &tool),
        };
        let key = job_key(&job, &version, &claim.source);
        // Claims with the same job (same program, flags and compiler) share
        // one observation: the first computes it, the others wait for it.
        let cell = {
            let mut memo = self.memo.lock().unwrap_or_else(|e| e.into_inner());
            Arc::clone(memo.entry(key.clone()).or_default())
        };
        let mut computed = false;
        let obs = cell.get_or_init(|| {
            if let Some(obs) = self
                .cache
                .get(CACHE_NAMESPACE, &key)
                .and_then(|b| serde_json::from_slice::<Observation>(&b).ok())
            {
                return Some(obs);
            }
            computed = true;
            let obs = self.execute(&job, &claim.source)?;
            let timed_out = obs.compile_timed_out || obs.run.as_ref().is_some_and(|r| r.timed_out);
            if !timed_out && let Ok(bytes) = serde_json::to_vec(&obs) {
                self.cache.put(CACHE_NAMESPACE, &key, &bytes);
            }
            Some(obs)
        });
        let Some(obs) = obs else {
            return unchecked();
        };
        let cached = !computed;
        if cached {
            self.cache_hits.fetch_add(1, Ordering::Relaxed);
        }
        let (verdict, actual) = match claim.lang {
            Lang::Rust => rustc::judge(claim, obs, self.timeout),
            Lang::C | Lang::Cpp | Lang::Python => cc::judge(claim, obs, self.timeout),
        };
        Outcome {
            verdict,
            actual,
            cached,
        }
    }

    /// Checks claims in parallel on the current rayon pool, in order.
    pub fn check_all(&self, claims: &[Claim]) -> Vec<Outcome> {
        claims.par_iter().map(|c| self.check(c)).collect()
    }

    /// Compiles (and runs) a job in a fresh temporary directory; `None`
    /// when the compiler cannot be started at all.
    fn execute(&self, job: &Job, source: &str) -> Option<Observation> {
        let dir = match exec::scratch_dir() {
            Ok(d) => d,
            Err(e) => {
                return Some(Observation {
                    compiled: false,
                    diagnostics: format!("cannot create a temporary directory: {e}"),
                    compile_timed_out: false,
                    run: None,
                });
            }
        };
        if let Err(e) = std::fs::write(dir.path().join(job.source_file), source) {
            return Some(Observation {
                compiled: false,
                diagnostics: format!("cannot write the program: {e}"),
                compile_timed_out: false,
                run: None,
            });
        }
        let compile_limit = Limits::with_timeout(self.timeout.max(COMPILE_TIMEOUT));
        self.compiler_runs.fetch_add(1, Ordering::Relaxed);
        // Where and how the version in the cache key was asked.
        let mut cmd = exec::compiler_command(&job.tool, dir.path());
        cmd.args(&job.args);
        let compiled = exec::run(&mut cmd, b"", compile_limit).ok()?;
        let mut obs = Observation {
            compiled: compiled.success(),
            diagnostics: compiled.stderr,
            compile_timed_out: compiled.timed_out,
            run: None,
        };
        if let (true, Some(program)) = (obs.compiled, job.run) {
            self.program_runs.fetch_add(1, Ordering::Relaxed);
            let mut cmd = Command::new(dir.path().join(program));
            cmd.current_dir(dir.path()).envs(job.env.iter().copied());
            let limits = Limits {
                timeout: self.timeout,
                max_output: MAX_OUTPUT,
            };
            obs.run = Some(match exec::run(&mut cmd, b"", limits) {
                Ok(f) => RunResult {
                    code: f.code,
                    stdout: f.stdout,
                    stderr: f.stderr,
                    timed_out: f.timed_out,
                    truncated: f.truncated,
                },
                Err(e) => RunResult {
                    code: None,
                    stdout: String::new(),
                    stderr: format!("cannot start the compiled program: {e}"),
                    timed_out: false,
                    truncated: false,
                },
            });
        }
        Some(obs)
    }
}

/// The time a compiler gets at least (the configured `timeout` applies to
/// programs; compilers get this much or the timeout, whichever is longer).
pub const COMPILE_TIMEOUT: Duration = Duration::from_secs(120);

/// The cache key of a job: everything that decides its observation.
fn job_key(job: &Job, version: &str, source: &str) -> String {
    let mut parts: Vec<&[u8]> = vec![
        b"check-v1",
        version.as_bytes(),
        job.source_file.as_bytes(),
        source.as_bytes(),
        job.run.unwrap_or("").as_bytes(),
    ];
    for a in &job.args {
        parts.push(a.as_bytes());
    }
    let env: Vec<String> = job.env.iter().map(|(k, v)| format!("{k}={v}")).collect();
    for e in &env {
        parts.push(e.as_bytes());
    }
    Cache::key(&parts)
}

/// A unified diff from the expected to the actual text.
pub fn diff(expected: &str, actual: &str) -> String {
    let mut e = expected.to_owned();
    e.push('\n');
    let mut a = actual.to_owned();
    a.push('\n');
    similar::TextDiff::from_lines(&e, &a)
        .unified_diff()
        .context_radius(3)
        .header("expected", "actual")
        .to_string()
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

/// Whether `needle` (normalized) occurs in `haystack` (normalized); an
/// empty needle always does.
pub fn contains_normalized(haystack: &str, needle: &str) -> bool {
    let needle = normalize(needle);
    let needle = needle.trim_start();
    needle.is_empty() || normalize(haystack).contains(needle)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::core::links::Mode;

    /// A Rust claim for unit tests.
    pub(crate) fn claim(expect: Expect, source: &str) -> Claim {
        Claim {
            file: "src/a.md".into(),
            line: 1,
            offset: 0,
            what: "rust example".into(),
            lang: Lang::Rust,
            source: source.into(),
            expect,
            output: None,
            output_range: None,
            edition: 2021,
            mode: Mode::Debug,
            error: None,
            ignore: false,
            bless: None,
        }
    }

    #[test]
    fn normalize_drops_trailing_whitespace_only() {
        for (input, want) in [
            ("a  \nb\t\n\n\n", "a\nb"),
            ("  lead\r\nx \r\n", "  lead\nx"),
            ("", ""),
            ("\n\n", ""),
        ] {
            assert_eq!(normalize(input), want, "{input:?}");
        }
    }

    #[test]
    fn contains_ignores_trailing_whitespace() {
        assert!(contains_normalized(
            "thread 'main' panicked\nattempt to divide by zero  \n",
            "attempt to divide by zero\n"
        ));
        assert!(contains_normalized("anything", "\n"));
        assert!(!contains_normalized("abc", "abd"));
    }

    #[test]
    fn keys_change_with_every_input() {
        let job = Job {
            tool: "rustc".into(),
            source_file: "main.rs",
            args: vec!["--edition".into(), "2021".into()],
            run: Some("main"),
            env: vec![("RUST_BACKTRACE", "0")],
        };
        let base = job_key(&job, "rustc 1.95", "fn main() {}");
        assert_ne!(base, job_key(&job, "rustc 1.96", "fn main() {}"));
        assert_ne!(base, job_key(&job, "rustc 1.95", "fn main() { }"));
        let mut other = job.clone();
        other.args[1] = "2024".into();
        assert_ne!(base, job_key(&other, "rustc 1.95", "fn main() {}"));
        let mut no_run = job.clone();
        no_run.run = None;
        assert_ne!(base, job_key(&no_run, "rustc 1.95", "fn main() {}"));
        assert_eq!(base, job_key(&job.clone(), "rustc 1.95", "fn main() {}"));
    }
}
