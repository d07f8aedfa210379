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
            inert: false,
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
        inert: false,
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
