//! The checkers of `sanitize=` ([`Sanitize`]) as the engine runs them:
//! the compiler flags of each sanitizer, how Valgrind's Memcheck runs a
//! program, the checker's own log a report is read from (never the
//! program's stdout or stderr), how `memory` limits a program under each,
//! and a checker that could not be run (a missing runtime, no Valgrind)
//! told apart from a report about the code.
//!
//! Each is run as its documentation asks: the sanitizers compiled in with
//! `-g -fsanitize=…` and stopped at their first report
//! (`-fno-sanitize-recover=all`, `halt_on_error=1`), writing to
//! `log_path`; Memcheck on a build without sanitizers, `-q` (only
//! errors), exiting at the first error, writing to `--log-file`;
//! ThreadSanitizer run again without address-space randomisation
//! (`setarch -R`) when the kernel's layout defeats it.
//!
//! Every checker that stops a program for a report exits with the same
//! status of ours, [`CHECKER_EXIT`] (Memcheck's `--error-exitcode`, the
//! sanitizers' `exitcode`), and a report counts only with it
//! ([`stopped_by_checker`]): the log is a file the program can find and write (its
//! descriptor is the program's, its path in the program's environment),
//! so a report there that came with another exit status was not the
//! checker's to give.

use super::verdict::{Job, MAX_OUTPUT, Observation, RunResult, Verdict};
use mdbook_companion_core::sanitize::{Sanitize, Sanitizer};
use std::path::Path;
use std::process::Command;

/// The exit status every checker gives a program it stopped for a report
/// (Memcheck's `--error-exitcode`, the sanitizers' `exitcode`): the one
/// a report counts with. Not a status of the checkers' own choosing
/// (AddressSanitizer's and UBSan's 1 is any failing program's).
pub const CHECKER_EXIT: i32 = 99;

/// Valgrind's arguments before the program.
pub(crate) const MEMCHECK_ARGS: [&str; 3] =
    ["-q", "--error-exitcode=99", "--exit-on-first-error=yes"];

/// What ThreadSanitizer prints when the address space is laid out in a
/// way it cannot work with (newer kernels' randomisation).
pub(crate) const TSAN_MAPPING: &str = "ThreadSanitizer: unexpected memory mapping";

/// The compiler arguments of the sanitizers compiled into the program
/// (none for Memcheck, which wants debug information only). UBSan with
/// another sanitizer links both runtimes statically: GCC's shared
/// `libubsan` and `libasan` (or `libtsan`) each keep their own log, and
/// the one `log_path` reaches is whichever's `__sanitizer_set_report_path`
/// the loader binds first, so the other's reports would go to stderr;
/// linked into the program they share one.
pub(crate) fn compile_args(sanitize: Sanitize) -> Vec<String> {
    let fs = sanitize.fsanitize();
    if fs.is_empty() {
        return match sanitize.has(Sanitizer::Memcheck) {
            true => vec!["-g".into()],
            false => Vec::new(),
        };
    }
    let mut args = vec![
        "-g".into(),
        format!("-fsanitize={fs}"),
        "-fno-sanitize-recover=all".into(),
    ];
    if sanitize.has(Sanitizer::Undefined) {
        for (other, lib) in [
            (Sanitizer::Address, "-static-libasan"),
            (Sanitizer::Thread, "-static-libtsan"),
        ] {
            if sanitize.has(other) {
                args.extend([lib.to_owned(), "-static-libubsan".to_owned()]);
            }
        }
    }
    args
}

/// The run's environment: the reports short, the first one final, and
/// each checker's exit status [`CHECKER_EXIT`] (`exitcode=99`: the
/// options of the checkers compiled in say it, GCC's `libubsan` and
/// `libasan` sharing one when linked together).
pub fn env(sanitize: Sanitize) -> Vec<(&'static str, &'static str)> {
    // UBSan's alone on every C run, as every `expect=ub` claim had it
    // before `sanitize=`; its exit status only where it is compiled in
    // (a key that would change for every C block otherwise).
    let mut env = vec![(
        "UBSAN_OPTIONS",
        match sanitize.has(Sanitizer::Undefined) {
            true => "print_stacktrace=0:exitcode=99",
            false => "print_stacktrace=0",
        },
    )];
    if sanitize.has(Sanitizer::Address) {
        env.push((
            "ASAN_OPTIONS",
            "detect_leaks=1:abort_on_error=0:exitcode=99",
        ));
    }
    if sanitize.has(Sanitizer::Thread) {
        env.push(("TSAN_OPTIONS", "halt_on_error=1:exitcode=99"));
    }
    env
}

/// Whether a job's run is watched by a checker that writes a log:
/// Memcheck, or a sanitizer whose options it sets.
pub fn logs(job: &Job) -> bool {
    job.memcheck || job.env.iter().any(|(k, _)| k.ends_with("SAN_OPTIONS"))
}

/// The command that runs `program` under the job's checker, each
/// checker's log written in `logs` (a directory of this run's own, for a
/// job whose checker [`logs`]): Memcheck's `--log-file=`, each
/// sanitizer's `log_path` (the runtime adds `.PID` to the name). `setarch
/// -R` before it when `fixed_layout`.
pub fn command(
    job: &Job,
    program: &Path,
    valgrind: &str,
    logs: Option<&Path>,
    fixed_layout: bool,
) -> Command {
    let mut cmd = match (job.memcheck, fixed_layout) {
        (true, _) => {
            let mut c = Command::new(valgrind);
            c.args(MEMCHECK_ARGS);
            if let Some(logs) = logs {
                c.arg(format!("--log-file={}", logs.join("memcheck.%p").display()));
            }
            c.arg(program);
            c
        }
        (false, true) => {
            let mut c = Command::new("setarch");
            c.arg("-R").arg(program);
            c
        }
        (false, false) => match job.run_with.split_first() {
            Some((first, rest)) => {
                let mut c = Command::new(first);
                c.args(rest);
                c
            }
            None => Command::new(program),
        },
    };
    cmd.envs(job.env.iter().copied());
    for (key, value) in &job.env {
        if let Some(logs) = logs
            && key.ends_with("SAN_OPTIONS")
        {
            // Quoted: a temporary directory's path may hold a `:`.
            cmd.env(
                key,
                format!("{value}:log_path=\"{}\"", logs.join("report").display()),
            );
        }
    }
    cmd
}

/// What the checkers wrote in `logs`: every file there, in the order of
/// their names (one per process that reported), up to [`MAX_OUTPUT`]
/// bytes; `None` when they wrote nothing.
pub(crate) fn read_log(logs: &Path) -> Option<String> {
    let mut files: Vec<_> = std::fs::read_dir(logs)
        .ok()?
        .flatten()
        .map(|e| e.path())
        .collect();
    files.sort();
    let mut log = Vec::new();
    for file in files {
        use std::io::Read as _;
        let room = MAX_OUTPUT.saturating_sub(log.len()) as u64;
        if let Ok(f) = std::fs::File::open(&file) {
            let _ = f.take(room).read_to_end(&mut log);
        }
    }
    (!log.is_empty()).then(|| String::from_utf8_lossy(&log).into_owned())
}

/// How `memory` limits a program run with `env`: as its address space
/// (`RLIMIT_AS`, the first), or as its tree's resident memory (the
/// second, which the supervisor watches). AddressSanitizer and
/// ThreadSanitizer reserve terabytes of address space for their shadow
/// memory, so an address-space limit would stop every such program
/// before `main` (and ThreadSanitizer does not enforce its own
/// `hard_rss_limit_mb`): they get the resident limit. Every other program
/// keeps the address-space limit.
pub(crate) fn memory_limits(
    env: &[(&'static str, &'static str)],
    memory: Option<u64>,
) -> (Option<u64>, Option<u64>) {
    let shadow = env
        .iter()
        .any(|(k, _)| matches!(*k, "ASAN_OPTIONS" | "TSAN_OPTIONS"));
    match shadow {
        true => (None, memory),
        false => (memory, None),
    }
}

/// The first report of one of `sanitize`'s checkers in a run, read from
/// the checker's own log ([`RunResult::report`]) and nowhere else: what
/// the program printed is its output, whatever it says. Whether the
/// checker gave it is [`stopped_by_checker`]'s question.
pub fn report(run: &RunResult, sanitize: Sanitize) -> Option<(String, String)> {
    parse(run.report.as_deref()?, sanitize)
}

/// Whether the run stopped with the checker's exit status
/// ([`CHECKER_EXIT`]), which a report counts only with.
pub fn stopped_by_checker(run: &RunResult) -> bool {
    run.code == Some(CHECKER_EXIT)
}

/// The first report of one of `sanitize`'s checkers in a checker's log:
/// its headline as shown and blessed (`AddressSanitizer:
/// heap-use-after-free`, `runtime error: signed integer overflow: …`,
/// `Conditional jump or move depends on uninitialised value(s)`), and the
/// text an output block is looked for in (the log; Memcheck's without its
/// `==pid==` prefixes).
fn parse(log: &str, sanitize: Sanitize) -> Option<(String, String)> {
    let shown = log.lines().find_map(|l| headline(l, sanitize))?;
    let searched = match sanitize.has(Sanitizer::Memcheck) {
        true => log
            .lines()
            .map(|l| memcheck_line(l).unwrap_or(l))
            .collect::<Vec<_>>()
            .join("\n"),
        false => log.to_owned(),
    };
    Some((shown, searched))
}

/// A line's report headline, if it is the first line of a report of one
/// of the checkers.
fn headline(line: &str, sanitize: Sanitize) -> Option<String> {
    if sanitize.has(Sanitizer::Undefined)
        && let Some((_, msg)) = line.split_once("runtime error: ")
    {
        return Some(format!("runtime error: {}", msg.trim_end()));
    }
    if sanitize.has(Sanitizer::Address) {
        for name in ["AddressSanitizer: ", "LeakSanitizer: "] {
            if let Some((_, rest)) = line.split_once(&format!("ERROR: {name}")) {
                return Some(format!("{name}{}", kind(rest)));
            }
        }
    }
    if sanitize.has(Sanitizer::Thread)
        && let Some((_, rest)) = line.split_once("WARNING: ThreadSanitizer: ")
    {
        return Some(format!("ThreadSanitizer: {}", kind(rest)));
    }
    if sanitize.has(Sanitizer::Memcheck)
        && let Some(msg) = memcheck_line(line)
        && !msg.trim().is_empty()
        && !msg.starts_with(' ')
    {
        return Some(msg.trim_end().to_owned());
    }
    None
}

/// The kind of bug a sanitizer's headline names, without the address,
/// thread or process that changes from run to run: `heap-use-after-free`
/// of `heap-use-after-free on address 0x… at pc …`.
fn kind(rest: &str) -> String {
    let mut end = rest.len();
    for cut in [" on ", " at ", " (pid=", " in thread"] {
        if let Some(i) = rest.find(cut) {
            end = end.min(i);
        }
    }
    rest[..end].trim_end().trim_end_matches(':').to_owned()
}

/// A line of Valgrind's: the text after `==1234== `.
fn memcheck_line(line: &str) -> Option<&str> {
    let rest = line.strip_prefix("==")?;
    let (pid, text) = rest.split_once("==")?;
    if pid.is_empty() || !pid.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(text.strip_prefix(' ').unwrap_or(text))
}

/// `text` (a C program's streams, its checker's report) as every run of
/// it writes it: process ids (`==4687==`, `pid=4687`), thread ids
/// (`tid=4711`), addresses (`0x602000000010`) and the temporary folder a
/// program was built in (`/tmp/companion-Ab12Cd/main.c`) written `…` (the
/// folder left out), so that two checks of a book record the same run.
pub(crate) fn normalise(text: &str) -> String {
    static RULES: std::sync::OnceLock<Vec<(regex::Regex, &'static str)>> =
        std::sync::OnceLock::new();
    let rules = RULES.get_or_init(|| {
        [
            (
                r#"(?:/[^\s/():'"]+)*/companion-(?:\d+-\d+-)?[A-Za-z0-9]{6}/"#,
                "",
            ),
            (r"==\d+==", "==…=="),
            (r"\b(pid|tid)=\d+", "$1=…"),
            (r"0x[0-9a-fA-F]+", "0x…"),
        ]
        .into_iter()
        .map(|(re, to)| (regex::Regex::new(re).expect("a valid pattern"), to))
        .collect()
    });
    let mut text = text.to_owned();
    for (re, to) in rules {
        text = re.replace_all(&text, *to).into_owned();
    }
    text
}

/// The report in a checker's log as a page shows it: from the first
/// report's headline to its `SUMMARY:` line (the banner before it and the
/// shadow-memory dump after it left out), [`normalise`]d; `None` when the
/// log holds no report of `sanitize`'s checkers.
pub(crate) fn shown_report(log: &str, sanitize: Sanitize) -> Option<String> {
    let lines: Vec<&str> = log.lines().collect();
    let start = lines.iter().position(|l| headline(l, sanitize).is_some())?;
    let report = match sanitize.has(Sanitizer::Memcheck) {
        // Memcheck's report ends at its first blank line; its lines
        // without their `==pid==`.
        true => lines[start..]
            .iter()
            .map(|l| memcheck_line(l).unwrap_or(l))
            .take_while(|l| !l.trim().is_empty())
            .collect::<Vec<_>>(),
        false => {
            let end = lines[start..]
                .iter()
                .position(|l| l.starts_with("SUMMARY: "))
                .map_or(lines.len(), |i| start + i + 1);
            lines[start..end].to_vec()
        }
    };
    Some(format!("{}\n", normalise(report.join("\n").trim_end())))
}

/// Whether two [`shown_report`]s of ThreadSanitizer's differ only in
/// what the threads' schedule decides: which thread's access came first
/// (`Read`/`Write` by `T1`/`T2`) and whether a thread had finished.
pub(crate) fn same_but_schedule(a: &str, b: &str) -> bool {
    static RULES: std::sync::OnceLock<Vec<regex::Regex>> = std::sync::OnceLock::new();
    let rules = RULES.get_or_init(|| {
        [
            r"\bT\d+\b",
            r"\b(?:Atomic )?(?:[Rr]ead|[Ww]rite)\b",
            r"\b(?:running|finished)\)",
        ]
        .into_iter()
        .map(|re| regex::Regex::new(re).expect("a valid pattern"))
        .collect()
    });
    let plain = |t: &str| {
        let mut t = t.to_owned();
        for re in rules {
            t = re.replace_all(&t, "…").into_owned();
        }
        t
    };
    plain(a) == plain(b)
}

/// The short output block `--bless` writes for an `expect=ub` claim from
/// the checker's log: the report's headline up to the kind of bug
/// (`ERROR: AddressSanitizer: heap-buffer-overflow[..]`), then the first
/// stack frame in the author's code (`main.c`, `main.cpp`), with `[..]`
/// for what changes from run to run (addresses, ids, the temporary
/// folder). It is found in the log it was made from.
pub(crate) fn bless_pattern(log: &str, sanitize: Sanitize, source_file: &str) -> Option<String> {
    let plain = |l: &str| match sanitize.has(Sanitizer::Memcheck) {
        true => memcheck_line(l).unwrap_or(l).to_owned(),
        false => l.to_owned(),
    };
    let lines: Vec<String> = log.lines().map(plain).collect();
    let start = lines.iter().position(|l| headline(l, sanitize).is_some())?;
    let head = &lines[start];
    let mut pattern = vec![head_pattern(head, sanitize)];
    let frame = lines[start + 1..].iter().find(|l| {
        let t = l.trim_start();
        (t.starts_with('#') || t.starts_with("at 0x") || t.starts_with("by 0x"))
            && (t.contains(&format!("/{source_file}:")) || t.contains(&format!("({source_file}:")))
    });
    if let Some(frame) = frame {
        pattern.push("...".to_owned());
        pattern.push(varying(frame.trim_end()));
    }
    Some(pattern.join("\n"))
}

/// A headline as a pattern: the checker's words to the kind of bug
/// (`ERROR: AddressSanitizer: heap-buffer-overflow[..]`); UBSan's whole
/// message after its location; Memcheck's line.
fn head_pattern(line: &str, sanitize: Sanitize) -> String {
    for marker in [
        "ERROR: AddressSanitizer: ",
        "ERROR: LeakSanitizer: ",
        "WARNING: ThreadSanitizer: ",
    ] {
        if let Some((_, rest)) = line.split_once(marker) {
            let kind = kind(rest);
            let more = if rest.len() > kind.len() { "[..]" } else { "" };
            return format!("{marker}{kind}{more}");
        }
    }
    if sanitize.has(Sanitizer::Undefined)
        && let Some((_, msg)) = line.split_once("runtime error: ")
    {
        return varying(&format!("runtime error: {}", msg.trim_end()));
    }
    varying(line.trim_end())
}

/// A line of a report with `[..]` where runs differ: addresses, process
/// and thread ids, and the folder before the source file.
fn varying(line: &str) -> String {
    static RULES: std::sync::OnceLock<Vec<(regex::Regex, &'static str)>> =
        std::sync::OnceLock::new();
    let rules = RULES.get_or_init(|| {
        [
            (r"0x[0-9a-fA-F]+", "0x[..]"),
            (r"\b(pid|tid)=\d+", "$1=[..]"),
            (r#"(?:/[^\s/():'"]+)+/(main\.c(?:pp)?:)"#, "[..]$1"),
        ]
        .into_iter()
        .map(|(re, to)| (regex::Regex::new(re).expect("a valid pattern"), to))
        .collect()
    });
    let mut line = line.to_owned();
    for (re, to) in rules {
        line = re.replace_all(&line, *to).into_owned();
    }
    line
}

/// The output block of an `expect=ub` claim beside the report it was not
/// found in: each line of the block, the first one not found (with the
/// lines before it) marked `>`, then the report.
pub(crate) fn mismatch_detail(expected: &str, searched: &str, report: &str) -> String {
    let lines: Vec<&str> = expected.trim_end().lines().collect();
    let missing = (1..=lines.len()).find(|&k| {
        let line = lines[k - 1].trim();
        line != "..."
            && !line.is_empty()
            && !super::verdict::contains_normalized(searched, &lines[..k].join("\n"))
    });
    let mut out = String::from("the output block (> the first line not found in the report):\n");
    for (i, line) in lines.iter().enumerate() {
        let mark = if Some(i + 1) == missing { "> " } else { "  " };
        out.push_str(&format!("{mark}{line}\n"));
    }
    out.push_str("the report:\n");
    for line in report.trim_end().lines() {
        out.push_str(&format!("  {line}\n"));
    }
    out
}

/// Whether the run is ThreadSanitizer's refusal of the address-space
/// layout (to be run again without randomisation).
pub(crate) fn tsan_mapping(run: &RunResult) -> bool {
    runtime_said(run, TSAN_MAPPING)
}

/// Whether a runtime that could not start said `what`: on stderr (before
/// its options, and so its log, are set up) or in its log.
fn runtime_said(run: &RunResult, what: &str) -> bool {
    run.stderr.contains(what) || run.report.as_deref().is_some_and(|r| r.contains(what))
}

/// The verdict when a checker could not be run at all, whatever the code
/// does: a sanitizer's runtime the compiler cannot link or start, Valgrind
/// unable to start its tool. Never cached (installing it must help).
pub(crate) fn unavailable(
    obs: &Observation,
    sanitize: Sanitize,
    valgrind: &str,
) -> Option<Verdict> {
    let runtime = |tool: &str| Verdict::Unchecked {
        tool: tool.to_owned(),
        key: Some("cc"),
    };
    let libs = [
        (Sanitizer::Address, "asan", "libasan"),
        (Sanitizer::Thread, "tsan", "libtsan"),
        (Sanitizer::Undefined, "ubsan", "libubsan"),
    ];
    if !obs.compiled {
        for (c, short, lib) in libs {
            if sanitize.has(c)
                && obs.diagnostics.lines().any(|l| {
                    l.contains("cannot find")
                        && (l.contains(&format!("-l{short}")) || l.contains(lib))
                })
            {
                return Some(runtime(lib));
            }
        }
        return None;
    }
    let run = obs.run.as_ref()?;
    if sanitize.has(Sanitizer::Thread) && tsan_mapping(run) {
        return Some(runtime("libtsan"));
    }
    if sanitize.has(Sanitizer::Address)
        && (runtime_said(run, "ASan runtime does not come first")
            || runtime_said(run, "Shadow memory range interleaves"))
    {
        return Some(runtime("libasan"));
    }
    if sanitize.has(Sanitizer::Memcheck)
        && run.stderr.lines().any(|l| {
            l.starts_with("valgrind: ")
                && (l.contains("failed to start tool") || l.contains("Bad option"))
        })
    {
        return Some(Verdict::Unchecked {
            tool: valgrind.to_owned(),
            key: Some("valgrind"),
        });
    }
    None
}

#[cfg(test)]
mod tests;
