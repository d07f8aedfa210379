//! The checkers of `sanitize=` ([`Sanitize`]) as the engine runs them:
//! the compiler flags of each sanitizer, how Valgrind's Memcheck runs a
//! program, the report found in a run's stderr, and a checker that could
//! not be run (a missing runtime, no Valgrind) told apart from a report
//! about the code.
//!
//! Each is run as its documentation asks: the sanitizers compiled in with
//! `-g -fsanitize=…` and stopped at their first report
//! (`-fno-sanitize-recover=all`, `halt_on_error=1`); Memcheck on a build
//! without sanitizers, `-q` (only errors), exiting at the first error with
//! its own exit code; ThreadSanitizer run again without address-space
//! randomisation (`setarch -R`) when the kernel's layout defeats it.

use super::verdict::{Observation, RunResult, Verdict};
use crate::core::sanitize::{Checker, Sanitize};

/// The exit code Memcheck gives a program it found an error in.
pub const MEMCHECK_EXIT: i32 = 99;

/// Valgrind's arguments before the program.
pub const MEMCHECK_ARGS: [&str; 3] = ["-q", "--error-exitcode=99", "--exit-on-first-error=yes"];

/// What ThreadSanitizer prints when the address space is laid out in a
/// way it cannot work with (newer kernels' randomisation).
pub const TSAN_MAPPING: &str = "ThreadSanitizer: unexpected memory mapping";

/// The compiler arguments of the sanitizers compiled into the program
/// (none for Memcheck, which wants debug information only).
pub fn compile_args(sanitize: Sanitize) -> Vec<String> {
    let fs = sanitize.fsanitize();
    if fs.is_empty() {
        return match sanitize.has(Checker::Memcheck) {
            true => vec!["-g".into()],
            false => Vec::new(),
        };
    }
    vec![
        "-g".into(),
        format!("-fsanitize={fs}"),
        "-fno-sanitize-recover=all".into(),
    ]
}

/// The run's environment: the reports short and the first one final.
pub fn env(sanitize: Sanitize) -> Vec<(&'static str, &'static str)> {
    // UBSan's alone, as every `expect=ub` claim had it before `sanitize=`.
    let mut env = vec![("UBSAN_OPTIONS", "print_stacktrace=0")];
    if sanitize.has(Checker::Address) {
        env.push(("ASAN_OPTIONS", "detect_leaks=1:abort_on_error=0"));
    }
    if sanitize.has(Checker::Thread) {
        env.push(("TSAN_OPTIONS", "halt_on_error=1"));
    }
    env
}

/// How a program's memory is limited. AddressSanitizer and
/// ThreadSanitizer reserve terabytes of address space for their shadow
/// memory, so an address-space limit (`RLIMIT_AS`) would stop every such
/// program before `main`: they get the sanitizers' own resident-memory
/// limit (`hard_rss_limit_mb`, added to their options in `cmd`) and no
/// `RLIMIT_AS`. Every other program keeps `memory` as its address-space
/// limit, which this returns.
pub fn limit_memory(
    cmd: &mut std::process::Command,
    env: &[(&'static str, &'static str)],
    memory: Option<u64>,
) -> Option<u64> {
    let shadow: Vec<_> = env
        .iter()
        .filter(|(k, _)| matches!(*k, "ASAN_OPTIONS" | "TSAN_OPTIONS"))
        .collect();
    if shadow.is_empty() {
        return memory;
    }
    if let Some(bytes) = memory {
        let mb = (bytes >> 20).max(1);
        for (key, value) in shadow {
            cmd.env(key, format!("{value}:hard_rss_limit_mb={mb}"));
        }
    }
    None
}

/// The first report of one of `sanitize`'s checkers in a run's stderr:
/// its headline as shown and blessed (`AddressSanitizer:
/// heap-use-after-free`, `runtime error: signed integer overflow: …`,
/// `Conditional jump or move depends on uninitialised value(s)`), and the
/// text an output block is looked for in (stderr; Memcheck's without its
/// `==pid==` prefixes).
pub fn report(stderr: &str, sanitize: Sanitize) -> Option<(String, String)> {
    let shown = stderr.lines().find_map(|l| headline(l, sanitize))?;
    let searched = match sanitize.has(Checker::Memcheck) {
        true => stderr
            .lines()
            .map(|l| memcheck_line(l).unwrap_or(l))
            .collect::<Vec<_>>()
            .join("\n"),
        false => stderr.to_owned(),
    };
    Some((shown, searched))
}

/// A line's report headline, if it is the first line of a report of one
/// of the checkers.
fn headline(line: &str, sanitize: Sanitize) -> Option<String> {
    if sanitize.has(Checker::Undefined)
        && let Some((_, msg)) = line.split_once("runtime error: ")
    {
        return Some(format!("runtime error: {}", msg.trim_end()));
    }
    if sanitize.has(Checker::Address) {
        for name in ["AddressSanitizer: ", "LeakSanitizer: "] {
            if let Some((_, rest)) = line.split_once(&format!("ERROR: {name}")) {
                return Some(format!("{name}{}", kind(rest)));
            }
        }
    }
    if sanitize.has(Checker::Thread)
        && let Some((_, rest)) = line.split_once("WARNING: ThreadSanitizer: ")
    {
        return Some(format!("ThreadSanitizer: {}", kind(rest)));
    }
    if sanitize.has(Checker::Memcheck)
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

/// Whether the run is ThreadSanitizer's refusal of the address-space
/// layout (to be run again without randomisation).
pub fn tsan_mapping(run: &RunResult) -> bool {
    run.stderr.contains(TSAN_MAPPING)
}

/// The verdict when a checker could not be run at all, whatever the code
/// does: a sanitizer's runtime the compiler cannot link or start, Valgrind
/// unable to start its tool. Never cached (installing it must help).
pub fn unavailable(obs: &Observation, sanitize: Sanitize, valgrind: &str) -> Option<Verdict> {
    let runtime = |tool: &str| Verdict::Unchecked {
        tool: tool.to_owned(),
        key: Some("cc"),
    };
    let libs = [
        (Checker::Address, "asan", "libasan"),
        (Checker::Thread, "tsan", "libtsan"),
        (Checker::Undefined, "ubsan", "libubsan"),
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
    if sanitize.has(Checker::Thread) && tsan_mapping(run) {
        return Some(runtime("libtsan"));
    }
    if sanitize.has(Checker::Address)
        && (run.stderr.contains("ASan runtime does not come first")
            || run.stderr.contains("Shadow memory range interleaves"))
    {
        return Some(runtime("libasan"));
    }
    if sanitize.has(Checker::Memcheck)
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
            report(asan, set("address")).map(|r| r.0).as_deref(),
            Some("AddressSanitizer: attempting double-free")
        );
        let uaf = "==1==ERROR: AddressSanitizer: heap-use-after-free on address 0x6020 at pc 0x5 bp 0x7 sp 0x7\nREAD of size 4";
        assert_eq!(
            report(uaf, set("address,undefined"))
                .map(|r| r.0)
                .as_deref(),
            Some("AddressSanitizer: heap-use-after-free")
        );
        let leak = "\n=================================================================\n==9==ERROR: LeakSanitizer: detected memory leaks\n";
        assert_eq!(
            report(leak, set("address")).map(|r| r.0).as_deref(),
            Some("LeakSanitizer: detected memory leaks")
        );
        let tsan = "==================\nWARNING: ThreadSanitizer: data race (pid=13135)\n  Read of size 4 at 0x55c2 by thread T2:\n";
        assert_eq!(
            report(tsan, set("thread")).map(|r| r.0).as_deref(),
            Some("ThreadSanitizer: data race")
        );
        // Another checker's report is not this one's.
        assert_eq!(report(tsan, set("address")), None);
        let ub = "main.c:3:12: runtime error: signed integer overflow: 2147483647 + 1 cannot be represented in type 'int'\n";
        assert_eq!(
            report(ub, set("undefined")).map(|r| r.0).as_deref(),
            Some(
                "runtime error: signed integer overflow: 2147483647 + 1 cannot be represented in type 'int'"
            )
        );
        let vg = "==17754== Conditional jump or move depends on uninitialised value(s)\n==17754==    at 0x48B8027: __vfprintf_internal (vfprintf-process-arg.c:58)\n==17754== \n";
        let (shown, searched) = report(vg, set("memcheck")).unwrap();
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
        assert_eq!(report("Aborted\n", set("memcheck")), None);
        assert_eq!(report("==12== \n", set("memcheck")), None);
    }

    #[test]
    fn shadow_memory_checkers_get_an_rss_limit_instead_of_an_address_space_limit() {
        let options = |cmd: &std::process::Command, key: &str| {
            cmd.get_envs()
                .find(|(k, _)| *k == key)
                .and_then(|(_, v)| v.map(|v| v.to_string_lossy().into_owned()))
        };
        let mut cmd = std::process::Command::new("prog");
        let memory = Some(2 << 30);
        assert_eq!(
            limit_memory(&mut cmd, &env(set("undefined")), memory),
            memory
        );
        assert_eq!(options(&cmd, "UBSAN_OPTIONS"), None);
        for (checker, key) in [("address", "ASAN_OPTIONS"), ("thread", "TSAN_OPTIONS")] {
            let mut cmd = std::process::Command::new("prog");
            assert_eq!(limit_memory(&mut cmd, &env(set(checker)), memory), None);
            let value = options(&cmd, key).unwrap_or_default();
            assert!(value.ends_with(":hard_rss_limit_mb=2048"), "{value}");
        }
    }

    #[test]
    fn flags_and_environment_per_checker() {
        assert_eq!(
            compile_args(set("address,undefined")).join(" "),
            "-g -fsanitize=address,undefined -fno-sanitize-recover=all"
        );
        assert_eq!(compile_args(set("memcheck")).join(" "), "-g");
        assert_eq!(compile_args(Sanitize::NONE), Vec::<String>::new());
        assert_eq!(
            env(set("undefined")),
            [("UBSAN_OPTIONS", "print_stacktrace=0")]
        );
        assert!(env(set("thread")).contains(&("TSAN_OPTIONS", "halt_on_error=1")));
    }

    #[test]
    fn a_runtime_that_cannot_link_is_no_verdict_on_the_code() {
        let obs = Observation {
            compiled: false,
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
            diagnostics: String::new(),
            compile_timed_out: false,
            run: Some(RunResult {
                code: Some(66),
                stdout: String::new(),
                stderr: "FATAL: ThreadSanitizer: unexpected memory mapping 0x7f-0x7f\n".into(),
                timed_out: false,
                truncated: false,
            }),
        };
        assert!(unavailable(&obs, set("thread,undefined"), "valgrind").is_some());
    }
}
