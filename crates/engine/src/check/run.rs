//! Compiling a job and running its program: once for a verdict, or
//! several times from one compile (`adopt`'s runs of a program that
//! starts threads), under the time, output and memory limits.

use super::{COMPILE_TIMEOUT, Checker, Job, MAX_OUTPUT, Observation, RunResult, sanitizer};
use crate::exec::{self, Limits};
use crate::sandbox::Sandbox;

use std::path::Path;
use std::process::Command;
use std::sync::atomic::Ordering;
use std::time::Duration;

impl Checker {
    /// Compiles (and runs) a job in a fresh temporary directory; `None`
    /// when the compiler cannot be started at all.
    pub(super) fn execute(&self, job: &Job, source: &str) -> Option<Observation> {
        self.execute_at(job, source, None)
    }

    /// [`Checker::execute`] without the run, for a program whose run is
    /// certain ([`Checker::inert`]): compiled as it would be, and marked
    /// [`Observation::inert`] when it compiled.
    pub(super) fn compile_only(&self, job: &Job, source: &str) -> Option<Observation> {
        let mut obs = (self.compile_and_run(job, source, 0, Duration::ZERO, None))
            .into_iter()
            .next()?;
        obs.inert = obs.compiled;
        self.runs_certain
            .fetch_add(usize::from(obs.inert), Ordering::Relaxed);
        Some(obs)
    }

    /// [`Checker::execute`], its compile going first at `first` when it
    /// is given one ([`super::programs::Programs::compile`]).
    pub(super) fn execute_at(
        &self,
        job: &Job,
        source: &str,
        first: Option<usize>,
    ) -> Option<Observation> {
        self.compile_and_run(job, source, 1, Duration::ZERO, first)
            .into_iter()
            .next()
    }

    /// Compiles `job` once and runs the program up to `runs` times (the
    /// first always, the others while they have taken less than `time`
    /// together): an observation per run, all with the same compile
    /// (the compile's alone when `runs` is 0).
    pub(super) fn execute_runs(
        &self,
        job: &Job,
        source: &str,
        runs: usize,
        time: Duration,
    ) -> Vec<Observation> {
        self.compile_and_run(job, source, runs, time, None)
    }

    /// [`Checker::execute_runs`], its compile going first at `first`.
    fn compile_and_run(
        &self,
        job: &Job,
        source: &str,
        runs: usize,
        time: Duration,
        first: Option<usize>,
    ) -> Vec<Observation> {
        let failed = |diagnostics: String| {
            vec![Observation {
                compiled: false,
                inexact: false,
                inert: false,
                diagnostics,
                compile_timed_out: false,
                run: None,
            }]
        };
        let dir = match exec::scratch_dir() {
            Ok(d) => d,
            Err(e) => return failed(format!("cannot create a temporary directory: {e}")),
        };
        if let Err(e) = std::fs::write(dir.path().join(job.source_file), source) {
            return failed(format!("cannot write the program: {e}"));
        }
        let compile_limit = Limits::with_timeout(self.timeout.max(COMPILE_TIMEOUT));
        self.compiler_runs.fetch_add(1, Ordering::Relaxed);
        // Where and how the version in the cache key was asked.
        let mut cmd = exec::compiler_command(&job.tool, dir.path());
        cmd.args(&job.args);
        if let Some(libdir) = dynamic_std(job) {
            let at = job.args.len().saturating_sub(3);
            let mut args = job.args.clone();
            args.splice(
                at..at,
                [
                    "-C".to_owned(),
                    "prefer-dynamic".to_owned(),
                    "-C".to_owned(),
                    format!("link-arg=-Wl,-rpath,{}", libdir.display()),
                ],
            );
            cmd = exec::compiler_command(&job.tool, dir.path());
            cmd.args(args);
        }
        let sandbox = self.compiler_box();
        // A language of programs that nothing compiles: its program is
        // its source.
        let compiled = match job.tool.is_empty() {
            true => Ok(exec::Finished {
                code: Some(0),
                stdout: String::new(),
                stderr: String::new(),
                timed_out: false,
                truncated: false,
                over_memory: false,
            }),
            false => self.programs.compile(first, || {
                exec::run_in(&mut cmd, b"", compile_limit, sandbox.as_ref())
            }),
        };
        let Ok(compiled) = compiled else {
            return Vec::new();
        };
        let obs = Observation {
            compiled: compiled.success(),
            inexact: false,
            inert: false,
            diagnostics: compiled.stderr,
            compile_timed_out: compiled.timed_out,
            run: None,
        };
        let program = match (obs.compiled, job.run) {
            (true, Some(program)) if runs > 0 => dir.path().join(program),
            _ => return vec![obs],
        };
        let started = std::time::Instant::now();
        let mut observed = Vec::with_capacity(runs);
        while observed.is_empty() || (observed.len() < runs && started.elapsed() < time) {
            observed.push(Observation {
                run: Some(self.run_compiled(job, &program, dir.path())),
                ..obs.clone()
            });
        }
        observed
    }

    /// One run of a compiled program, under the job's checker.
    fn run_compiled(&self, job: &Job, path: &Path, dir: &Path) -> RunResult {
        self.program_runs.fetch_add(1, Ordering::Relaxed);
        // A command runs once: a run again alone builds its own.
        let run = self
            .programs
            .run(|| self.run_checked(job, path, dir, false));
        // ThreadSanitizer cannot work with some kernels' randomised
        // layout: once more without randomisation, as its docs advise.
        if !sanitizer::tsan_mapping(&run) {
            return run;
        }
        self.programs.run(|| self.run_checked(job, path, dir, true))
    }

    /// A run of a compiled program under the job's checker, with the
    /// checker's log (in a directory of the run's own) as its report.
    fn run_checked(&self, job: &Job, path: &Path, dir: &Path, fixed_layout: bool) -> RunResult {
        let logs = match sanitizer::logs(job) {
            true => match exec::scratch_dir() {
                Ok(d) => Some(d),
                Err(e) => return not_run(format!("cannot create a temporary directory: {e}")),
            },
            false => None,
        };
        let logs_dir = logs.as_ref().map(|d| d.path());
        let mut cmd = sanitizer::command(job, path, &self.config.valgrind, logs_dir, fixed_layout);
        cmd.current_dir(dir);
        let (memory, resident) = sanitizer::memory_limits(&job.env, self.config.memory);
        let mut run = self.run_program(&mut cmd, job.timeout, memory, resident, logs_dir);
        run.report = logs.and_then(|d| sanitizer::read_log(d.path()));
        run
    }

    /// Runs a compiled program with its time limit (the job's, else `timeout`), the output cap and a
    /// memory limit: `memory` on its address space, or `resident` on its
    /// tree's resident memory for a sanitizer that reserves address space
    /// ([`sanitizer::memory_limits`]); compilers get none.
    pub(super) fn run_program(
        &self,
        cmd: &mut Command,
        timeout: Option<Duration>,
        memory: Option<u64>,
        resident: Option<u64>,
        logs: Option<&Path>,
    ) -> RunResult {
        let limits = Limits {
            timeout: timeout.unwrap_or(self.timeout),
            max_output: MAX_OUTPUT,
            memory,
            resident,
        };
        let sandbox = self.sandbox(memory.or(resident), logs);
        match exec::run_in(cmd, b"", limits, sandbox.as_ref()) {
            Ok(f) => RunResult {
                code: f.code,
                stdout: f.stdout,
                stderr: f.stderr,
                timed_out: f.timed_out,
                truncated: f.truncated,
                report: None,
                over_memory: f.over_memory.then_some(resident).flatten(),
            },
            Err(e) => not_run(format!("cannot start the compiled program: {e}")),
        }
    }
}

impl Checker {
    /// The box a program runs in ([`crate::sandbox`]), `None` where none
    /// can be made or `isolation = "off"`: its memory file system holds as much as the program
    /// may use (`memory`, else the default limit), it may write `logs`
    /// (its checker's log folder), and the book's cache is hidden.
    fn sandbox(&self, memory: Option<u64>, logs: Option<&Path>) -> Option<Sandbox> {
        // The cache made now if it is not there yet (a disabled one is
        // not): a folder made after the box would be seen in it, the file
        // system being shared (read-only).
        let _ = self.cache.ensure_dir();
        let cache = self.config.root.join(crate::cache::DIR);
        let mut sandbox = exec::book_box(self.config.isolation, &cache, memory)?;
        sandbox.writable = logs.map(Path::to_owned).into_iter().collect();
        Some(sandbox)
    }

    /// The box a compiler runs in for the book ([`crate::crates::compiler_box`]).
    pub(super) fn compiler_box(&self) -> Option<Sandbox> {
        let _ = self.cache.ensure_dir();
        crate::crates::compiler_box(self.config.isolation, &self.config.root)
    }
}

impl super::programs::TimedOut for RunResult {
    fn timed_out(&self) -> bool {
        self.timed_out
    }
}

/// A run that did not happen, saying why on stderr.
fn not_run(why: String) -> RunResult {
    RunResult {
        code: None,
        stdout: String::new(),
        stderr: why,
        timed_out: false,
        truncated: false,
        report: None,
        over_memory: None,
    }
}

/// Where a Rust program compiled alone finds the standard library it is
/// linked to dynamically (`-C prefer-dynamic`, the toolchain's own
/// `libstd-*.so` by its path, so no environment changes): the linker then
/// has no copy of the standard library to write into each program, which
/// every example compiled alone pays, while the program's start only adds
/// the loading of one shared library. The program does what it does linked statically; `None` (a static
/// link, as rustdoc's) for what is not a plain Rust program: one that
/// links the book's crates (built against a static standard library),
/// runs under Memcheck, or is not linked at all.
fn dynamic_std(job: &Job) -> Option<std::path::PathBuf> {
    let plain = job.source_file == "main.rs"
        && job.run.is_some()
        && !job.memcheck
        && !job
            .args
            .iter()
            .any(|a| a == "--extern" || a.starts_with("--emit") || a == "-L");
    plain.then(|| exec::target_libdir(&job.tool)).flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(
        args: &[&str],
        source_file: &'static str,
        run: Option<&'static str>,
        memcheck: bool,
    ) -> Job {
        Job {
            tool: "rustc".to_owned(),
            source_file,
            args: args.iter().map(|a| (*a).to_owned()).collect(),
            run,
            run_with: Vec::new(),
            env: Vec::new(),
            memcheck,
            timeout: None,
        }
    }

    #[test]
    fn only_plain_rust_programs_link_the_standard_library_dynamically() {
        let bin = ["--crate-type", "bin", "-o", "main", "main.rs"];
        let libdir = dynamic_std(&job(&bin, "main.rs", Some("main"), false))
            .expect("rustup's toolchains ship libstd-*.so");
        let shared = std::fs::read_dir(&libdir)
            .expect("the target libdir")
            .flatten()
            .any(|e| e.file_name().to_string_lossy().starts_with("libstd-"));
        assert!(shared, "{}", libdir.display());
        // Under Memcheck, with the book's crates, not linked, not run, or
        // not Rust: statically, as rustdoc links.
        assert_eq!(dynamic_std(&job(&bin, "main.rs", Some("main"), true)), None);
        let with_crates = ["--extern", "mylib=libmylib.rlib", "-o", "main", "main.rs"];
        assert_eq!(
            dynamic_std(&job(&with_crates, "main.rs", Some("main"), false)),
            None
        );
        let metadata = ["--emit=metadata", "-o", "main", "main.rs"];
        assert_eq!(
            dynamic_std(&job(&metadata, "main.rs", Some("main"), false)),
            None
        );
        assert_eq!(dynamic_std(&job(&bin, "main.rs", None, false)), None);
        assert_eq!(dynamic_std(&job(&bin, "main.c", Some("main"), false)), None);
    }
}
