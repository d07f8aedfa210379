//! The cache key of an observation: one function over one struct that
//! holds everything that decides what a claim's program was seen to do,
//! and so its verdict. Every place that looks an observation up (a check,
//! a merged build, a second run, the further runs of `adopt`, the
//! warnings of `adopt`) gets its key from [`Decides::key`], and that
//! function names every field of [`Decides`] and of its [`Job`] (a field
//! added to either and left out of the key does not compile), so no input
//! can be forgotten.

use super::verdict::{COMPILE_TIMEOUT, Job};
use crate::cache::Cache;
use std::time::Duration;

/// Everything that decides a claim's observation.
#[derive(Debug, Clone, Copy)]
pub(super) struct Decides<'a> {
    /// The compile and the run: the compiler's command, the source file,
    /// the flags (edition, mode, `flags=`, a sanitizer's), the program
    /// run, its environment (a sanitizer's options) and whether Memcheck
    /// runs it.
    pub(super) job: &'a Job,
    /// The program as compiled.
    pub(super) source: &'a str,
    /// The compiler's version, as it tells it (`rustc -vV`, `cc
    /// --version`).
    pub(super) compiler: &'a str,
    /// The checker that runs the program, when one does: Memcheck's
    /// version and its options. (A sanitizer is compiled in: its flags
    /// are the job's, its runtime the compiler's.)
    pub(super) checker: Option<&'a str>,
    /// `timeout`: the time the program may run (and the compiler, at
    /// least [`COMPILE_TIMEOUT`]).
    pub(super) timeout: Duration,
    /// `memory`: the address space the program may use.
    pub(super) memory: Option<u64>,
    /// What names the crates the program links ([`crate::crates::Crates::link_key`]),
    /// empty when it links none.
    pub(super) crates: &'a str,
    /// How the program is kept apart from the others
    /// ([`crate::exec::Confinement::name`]): what a program was seen to do
    /// without a box may be another block's doing, so a result seen
    /// before boxes (or with `isolation = "off"`) is not taken for a
    /// boxed run.
    pub(super) confinement: &'static str,
}

impl Decides<'_> {
    /// The cache key: a hash of every field, each length-prefixed.
    pub(super) fn key(&self) -> String {
        let Decides {
            job,
            source,
            compiler,
            checker,
            timeout,
            memory,
            crates,
            confinement,
        } = *self;
        let Job {
            tool,
            source_file,
            args,
            run,
            run_with,
            env,
            memcheck,
            timeout: run_limit,
        } = job;
        let mut limits = format!(
            "timeout={}ms compile-timeout={}ms memory={}",
            timeout.as_millis(),
            timeout.max(COMPILE_TIMEOUT).as_millis(),
            memory.map_or_else(|| "none".to_owned(), |m| m.to_string()),
        );
        // Absent for a job with `timeout`, so its key stays the same.
        if let Some(limit) = run_limit {
            limits.push_str(&format!(" run-limit={}ms", limit.as_millis()));
        }
        let env: Vec<String> = env.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let mut parts: Vec<&[u8]> = vec![
            b"check-v2",
            tool.as_bytes(),
            compiler.as_bytes(),
            source_file.as_bytes(),
            source.as_bytes(),
            run.unwrap_or("\u{0}").as_bytes(),
            if *memcheck { b"memcheck" } else { b"" },
            checker.unwrap_or("\u{0}").as_bytes(),
            limits.as_bytes(),
            crates.as_bytes(),
        ];
        // Absent without a box, so keys made before boxes stay those of
        // runs without one.
        match confinement {
            "box" => parts.push(b"boxed"),
            "landlock" => parts.push(b"landlock"),
            _ => {}
        }
        // The lists last, each behind its length.
        let counts = format!("{} args, {} env", args.len(), env.len());
        parts.push(counts.as_bytes());
        parts.extend(args.iter().map(|a| a.as_bytes()));
        parts.extend(env.iter().map(|e| e.as_bytes()));
        // Absent for a job that runs its program itself, so its key
        // stays the same.
        let run_count = format!("{} run words", run_with.len());
        if !run_with.is_empty() {
            parts.push(run_count.as_bytes());
            parts.extend(run_with.iter().map(|w| w.as_bytes()));
        }
        Cache::key(&parts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_change_with_every_input() {
        let job = Job {
            tool: "rustc".into(),
            source_file: "main.rs",
            args: vec!["--edition".into(), "2021".into()],
            run: Some("main"),
            run_with: Vec::new(),
            env: vec![("RUST_BACKTRACE", "0")],
            memcheck: false,
            timeout: None,
        };
        let base = Decides {
            job: &job,
            source: "fn main() {}",
            compiler: "rustc 1.95",
            checker: None,
            timeout: Duration::from_secs(10),
            memory: Some(2 << 30),
            crates: "",
            confinement: "none",
        };
        let key = base.key();
        assert_eq!(
            key,
            Decides { ..base }.key(),
            "the same inputs, the same key"
        );
        let mut jobs: Vec<(&str, Job)> = Vec::new();
        let mut other = job.clone();
        other.tool = "/opt/rust/bin/rustc".into();
        jobs.push(("compiler command", other));
        let mut other = job.clone();
        other.source_file = "main.c";
        jobs.push(("source file", other));
        let mut other = job.clone();
        other.args[1] = "2024".into();
        jobs.push(("a flag", other));
        let mut other = job.clone();
        other.args.push("-Zsanitizer=address".into());
        jobs.push(("a sanitizer's flag", other));
        let mut other = job.clone();
        other.run = None;
        jobs.push(("no run", other));
        let mut other = job.clone();
        other.env.push(("ASAN_OPTIONS", "detect_leaks=1"));
        jobs.push(("a checker's options", other));
        let mut other = job.clone();
        other.memcheck = true;
        jobs.push(("Memcheck", other));
        let mut other = job.clone();
        other.timeout = Some(Duration::from_secs(120));
        jobs.push(("a hang guard", other));
        let mut keys = vec![("base", key.clone())];
        for (what, job) in &jobs {
            keys.push((what, Decides { job, ..base }.key()));
        }
        let others = [
            (
                "source",
                Decides {
                    source: "fn main() { }",
                    ..base
                },
            ),
            (
                "compiler version",
                Decides {
                    compiler: "rustc 1.96",
                    ..base
                },
            ),
            (
                "checker",
                Decides {
                    checker: Some("valgrind-3.22.0 -q"),
                    ..base
                },
            ),
            (
                "checker version",
                Decides {
                    checker: Some("valgrind-3.23.0 -q"),
                    ..base
                },
            ),
            (
                "timeout lowered",
                Decides {
                    timeout: Duration::from_secs(1),
                    ..base
                },
            ),
            (
                "timeout raised",
                Decides {
                    timeout: Duration::from_secs(11),
                    ..base
                },
            ),
            (
                "timeout by a millisecond",
                Decides {
                    timeout: Duration::from_millis(10_001),
                    ..base
                },
            ),
            (
                "memory lowered",
                Decides {
                    memory: Some(1 << 30),
                    ..base
                },
            ),
            (
                "no memory limit",
                Decides {
                    memory: None,
                    ..base
                },
            ),
            (
                "in a box",
                Decides {
                    confinement: "box",
                    ..base
                },
            ),
            (
                "under Landlock",
                Decides {
                    confinement: "landlock",
                    ..base
                },
            ),
            (
                "crates",
                Decides {
                    crates: "fingerprint",
                    ..base
                },
            ),
        ];
        for (what, d) in &others {
            keys.push((what, d.key()));
        }
        for (i, (a, ka)) in keys.iter().enumerate() {
            for (b, kb) in &keys[i + 1..] {
                assert_ne!(ka, kb, "{a} and {b} have one key");
            }
        }
        // An argument moved into the environment is another key.
        let mut split = job.clone();
        split.args.pop();
        split.env.insert(0, ("2021", ""));
        assert_ne!(
            Decides {
                job: &split,
                ..base
            }
            .key(),
            key
        );
    }
}
