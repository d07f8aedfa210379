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
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    fn set(t: &str) -> Sanitize {
        Sanitize::parse(t).unwrap()
    }

    #[test]
    fn headlines_drop_what_changes_between_runs() {
        let asan = "=================================================================\n==17745==ERROR: AddressSanitizer: attempting double-free on 0x602000000010 in thread T0:\n    #0 0x7fd315cb76a8 in __interceptor_free\n";
        assert_eq!(
            parse(asan, set("address")).map(|r| r.0).as_deref(),
            Some("AddressSanitizer: attempting double-free")
        );
        let uaf = "==1==ERROR: AddressSanitizer: heap-use-after-free on address 0x6020 at pc 0x5 bp 0x7 sp 0x7\nREAD of size 4";
        assert_eq!(
            parse(uaf, set("address,undefined")).map(|r| r.0).as_deref(),
            Some("AddressSanitizer: heap-use-after-free")
        );
        let leak = "\n=================================================================\n==9==ERROR: LeakSanitizer: detected memory leaks\n";
        assert_eq!(
            parse(leak, set("address")).map(|r| r.0).as_deref(),
            Some("LeakSanitizer: detected memory leaks")
        );
        let tsan = "==================\nWARNING: ThreadSanitizer: data race (pid=13135)\n  Read of size 4 at 0x55c2 by thread T2:\n";
        assert_eq!(
            parse(tsan, set("thread")).map(|r| r.0).as_deref(),
            Some("ThreadSanitizer: data race")
        );
        // Another checker's report is not this one's.
        assert_eq!(parse(tsan, set("address")), None);
        let ub = "main.c:3:12: runtime error: signed integer overflow: 2147483647 + 1 cannot be represented in type 'int'\n";
        assert_eq!(
            parse(ub, set("undefined")).map(|r| r.0).as_deref(),
            Some(
                "runtime error: signed integer overflow: 2147483647 + 1 cannot be represented in type 'int'"
            )
        );
        let vg = "==17754== Conditional jump or move depends on uninitialised value(s)\n==17754==    at 0x48B8027: __vfprintf_internal (vfprintf-process-arg.c:58)\n==17754== \n";
        let (shown, searched) = parse(vg, set("memcheck")).unwrap();
        assert_eq!(
            shown,
            "Conditional jump or move depends on uninitialised value(s)"
        );
        assert!(
            searched.starts_with(
                "Conditional jump or move depends on uninitialised value(s)\n   at 0x48B8027"
            ),
            "{searched}"
        );
        assert_eq!(parse("Aborted\n", set("memcheck")), None);
        assert_eq!(parse("==12== \n", set("memcheck")), None);
    }

    const ASAN_LOG: &str = "=================================================================\n==4687==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x602000000020 at pc 0x560b30f141ca bp 0x7ffc202203b0 sp 0x7ffc202203a8\nREAD of size 4 at 0x602000000020 thread T0\n    #0 0x560b30f141c9 in main /tmp/companion-Ab12Cd/main.c:2\n    #1 0x7fa54be45249 in __libc_start_call_main ../sysdeps/nptl/libc_start_call_main.h:58\n\nSUMMARY: AddressSanitizer: heap-buffer-overflow /tmp/companion-Ab12Cd/main.c:2 in main\nShadow bytes around the buggy address:\n  0x0c047fff7fb0: 00 00 00 00\n==4687==ABORTING\n";

    #[test]
    fn the_report_shown_is_the_report_itself_with_what_varies_written_as_dots() {
        assert_eq!(
            shown_report(ASAN_LOG, set("address")).as_deref(),
            Some(
                "==…==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x… at pc 0x… bp 0x… sp 0x…\nREAD of size 4 at 0x… thread T0\n    #0 0x… in main main.c:2\n    #1 0x… in __libc_start_call_main ../sysdeps/nptl/libc_start_call_main.h:58\n\nSUMMARY: AddressSanitizer: heap-buffer-overflow main.c:2 in main\n"
            )
        );
        let vg = "==17754== Conditional jump or move depends on uninitialised value(s)\n==17754==    at 0x109145: main (main.c:3)\n==17754== \n==17754== Exit program on first error (--exit-on-first-error=yes)\n";
        assert_eq!(
            shown_report(vg, set("memcheck")).as_deref(),
            Some(
                "Conditional jump or move depends on uninitialised value(s)\n   at 0x…: main (main.c:3)\n"
            )
        );
        assert_eq!(
            normalise(
                "WARNING: ThreadSanitizer: data race (pid=13135)\n  Thread T1 (tid=13137, running)"
            ),
            "WARNING: ThreadSanitizer: data race (pid=…)\n  Thread T1 (tid=…, running)"
        );
        // A scratch folder named by its owner (`companion-PID-START-…`).
        assert_eq!(
            normalise("#0 work /dev/shm/companion-32331-418358-MzFB1s/main.c:9"),
            "#0 work main.c:9"
        );
        assert_eq!(shown_report("nothing\n", set("address")), None);
    }

    #[test]
    fn a_race_reported_in_another_order_is_the_same_report() {
        let a = "WARNING: ThreadSanitizer: data race (pid=…)\n  Read of size 8 at 0x… by thread T2:\n  Previous write of size 8 at 0x… by thread T1:\n  Thread T2 (tid=…, running) created by main thread at:\n";
        let b = "WARNING: ThreadSanitizer: data race (pid=…)\n  Write of size 8 at 0x… by thread T1:\n  Previous read of size 8 at 0x… by thread T2:\n  Thread T1 (tid=…, finished) created by main thread at:\n";
        assert!(same_but_schedule(a, b));
        assert!(!same_but_schedule(
            a,
            &a.replace("data race", "heap-use-after-free")
        ));
    }

    #[test]
    fn bless_writes_the_headline_and_the_first_frame_in_the_authors_code() {
        let pattern = bless_pattern(ASAN_LOG, set("address"), "main.c").unwrap();
        assert_eq!(
            pattern,
            "ERROR: AddressSanitizer: heap-buffer-overflow[..]\n...\n    #0 0x[..] in main [..]main.c:2"
        );
        let (_, searched) = parse(ASAN_LOG, set("address")).unwrap();
        assert!(super::super::verdict::contains_normalized(
            &searched, &pattern
        ));
        let tsan = "WARNING: ThreadSanitizer: data race (pid=13135)\n  Read of size 8 at 0x55c2 by thread T2:\n    #0 work /tmp/companion-Ab12Cd/main.c:3 (prog+0x12a9)\n";
        assert_eq!(
            bless_pattern(tsan, set("thread"), "main.c").as_deref(),
            Some(
                "WARNING: ThreadSanitizer: data race[..]\n...\n    #0 work [..]main.c:3 (prog+0x[..])"
            )
        );
        let ub = "/tmp/companion-Ab12Cd/main.c:3:12: runtime error: load of misaligned address 0x55d1 for type 'int'\n";
        assert_eq!(
            bless_pattern(ub, set("undefined"), "main.c").as_deref(),
            Some("runtime error: load of misaligned address 0x[..] for type 'int'")
        );
    }

    #[test]
    fn a_mismatch_marks_the_first_line_not_found_beside_the_report() {
        let (_, searched) = parse(ASAN_LOG, set("address")).unwrap();
        let report = shown_report(ASAN_LOG, set("address")).unwrap();
        let detail = mismatch_detail(
            "AddressSanitizer: heap-buffer-overflow [..]\nWRITE of size 4 [..]\n...",
            &searched,
            &report,
        );
        assert_eq!(
            detail,
            "the output block (> the first line not found in the report):\n  AddressSanitizer: heap-buffer-overflow [..]\n> WRITE of size 4 [..]\n  ...\nthe report:\n  ==…==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x… at pc 0x… bp 0x… sp 0x…\n  READ of size 4 at 0x… thread T0\n      #0 0x… in main main.c:2\n      #1 0x… in __libc_start_call_main ../sysdeps/nptl/libc_start_call_main.h:58\n  \n  SUMMARY: AddressSanitizer: heap-buffer-overflow main.c:2 in main\n"
        );
    }

    #[test]
    fn shadow_memory_checkers_get_a_resident_limit_instead_of_an_address_space_limit() {
        let memory = Some(2 << 30);
        assert_eq!(
            memory_limits(&env(set("undefined")), memory),
            (memory, None)
        );
        assert_eq!(memory_limits(&env(set("memcheck")), memory), (memory, None));
        for checker in ["address", "thread", "thread,undefined"] {
            assert_eq!(memory_limits(&env(set(checker)), memory), (None, memory));
        }
    }

    #[test]
    fn each_checker_writes_to_a_log_of_the_runs_own() {
        let options = |cmd: &Command, key: &str| {
            cmd.get_envs()
                .find(|(k, _)| *k == key)
                .and_then(|(_, v)| v.map(|v| v.to_string_lossy().into_owned()))
        };
        let dir = Path::new("/tmp/logs");
        let job = |sanitize: Sanitize, memcheck: bool| Job {
            tool: "cc".into(),
            source_file: "main.c",
            args: Vec::new(),
            run: Some("prog"),
            run_with: Vec::new(),
            env: env(sanitize),
            memcheck,
            timeout: None,
        };
        let asan = command(
            &job(set("address,undefined"), false),
            Path::new("prog"),
            "valgrind",
            Some(dir),
            false,
        );
        assert_eq!(
            options(&asan, "ASAN_OPTIONS").as_deref(),
            Some("detect_leaks=1:abort_on_error=0:exitcode=99:log_path=\"/tmp/logs/report\"")
        );
        assert_eq!(
            options(&asan, "UBSAN_OPTIONS").as_deref(),
            Some("print_stacktrace=0:exitcode=99:log_path=\"/tmp/logs/report\"")
        );
        let vg = command(
            &job(set("memcheck"), true),
            Path::new("prog"),
            "valgrind",
            Some(dir),
            false,
        );
        let args: Vec<_> = vg
            .get_args()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            args.join(" "),
            "-q --error-exitcode=99 --exit-on-first-error=yes --log-file=/tmp/logs/memcheck.%p prog"
        );
        let tsan = command(
            &job(set("thread"), false),
            Path::new("prog"),
            "valgrind",
            Some(dir),
            true,
        );
        assert_eq!(tsan.get_program(), "setarch");
        // Nothing to log for a Rust program outside Memcheck.
        let mut rust = job(Sanitize::NONE, false);
        rust.env = vec![("RUST_BACKTRACE", "0")];
        assert!(!logs(&rust));
        assert!(logs(&job(set("memcheck"), true)));
        assert!(logs(&job(set("thread"), false)));
    }

    #[test]
    fn a_report_is_read_from_the_log_alone() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(read_log(dir.path()), None);
        std::fs::write(
            dir.path().join("report.12"),
            "==12==ERROR: AddressSanitizer: attempting double-free on 0x1\n",
        )
        .unwrap();
        let log = read_log(dir.path());
        assert_eq!(
            log.as_deref(),
            Some("==12==ERROR: AddressSanitizer: attempting double-free on 0x1\n")
        );
        let mut run = RunResult {
            code: Some(1),
            stdout: String::new(),
            stderr: "==1==ERROR: AddressSanitizer: heap-use-after-free on address 0x1\n".into(),
            timed_out: false,
            truncated: false,
            report: None,
            over_memory: None,
        };
        assert_eq!(report(&run, set("address")), None);
        run.report = log;
        assert_eq!(
            report(&run, set("address")).map(|r| r.0).as_deref(),
            Some("AddressSanitizer: attempting double-free")
        );
    }

    #[test]
    fn flags_and_environment_per_checker() {
        assert_eq!(
            compile_args(set("address,undefined")).join(" "),
            "-g -fsanitize=address,undefined -fno-sanitize-recover=all -static-libasan -static-libubsan"
        );
        assert_eq!(compile_args(set("memcheck")).join(" "), "-g");
        assert_eq!(compile_args(Sanitize::NONE), Vec::<String>::new());
        // Every checker compiled in exits with ours, and only those.
        assert_eq!(
            env(set("undefined")),
            [("UBSAN_OPTIONS", "print_stacktrace=0:exitcode=99")]
        );
        assert_eq!(
            env(set("thread")),
            [
                ("UBSAN_OPTIONS", "print_stacktrace=0"),
                ("TSAN_OPTIONS", "halt_on_error=1:exitcode=99")
            ]
        );
        assert_eq!(
            env(Sanitize::NONE),
            [("UBSAN_OPTIONS", "print_stacktrace=0")]
        );
        assert_eq!(
            env(set("memcheck")),
            [("UBSAN_OPTIONS", "print_stacktrace=0")]
        );
        assert!(MEMCHECK_ARGS.contains(&format!("--error-exitcode={CHECKER_EXIT}").as_str()));
        for (_, options) in env(set("address,undefined")) {
            assert!(
                options.ends_with(&format!(":exitcode={CHECKER_EXIT}")),
                "{options}"
            );
        }
        assert_eq!(
            compile_args(set("thread,undefined")).join(" "),
            "-g -fsanitize=thread,undefined -fno-sanitize-recover=all -static-libtsan -static-libubsan"
        );
    }

    #[test]
    fn a_runtime_that_cannot_link_is_no_verdict_on_the_code() {
        let obs = Observation {
            compiled: false,
            inexact: false,
            diagnostics: "/usr/bin/ld: cannot find libtsan_preinit.o: No such file or directory\n/usr/bin/ld: cannot find -ltsan: No such file or directory\n".into(),
            compile_timed_out: false,
            run: None,
        };
        assert_eq!(
            unavailable(&obs, set("thread"), "valgrind"),
            Some(Verdict::Unchecked {
                tool: "libtsan".into(),
                key: Some("cc")
            })
        );
        assert_eq!(unavailable(&obs, set("address"), "valgrind"), None);
        let obs = Observation {
            compiled: true,
            inexact: false,
            diagnostics: String::new(),
            compile_timed_out: false,
            run: Some(RunResult {
                code: Some(66),
                stdout: String::new(),
                stderr: "FATAL: ThreadSanitizer: unexpected memory mapping 0x7f-0x7f\n".into(),
                timed_out: false,
                truncated: false,
                report: None,
                over_memory: None,
            }),
        };
        assert!(unavailable(&obs, set("thread,undefined"), "valgrind").is_some());
    }
}
