use super::*;

#[test]
fn only_a_memory_file_system_with_room_is_a_memory_dir() {
    assert!(!memory_dir(std::path::Path::new("/nonexistent/dir")));
    let file = tempfile::NamedTempFile::new().unwrap();
    assert!(!memory_dir(file.path()));
    // /proc is no tmpfs.
    assert!(!memory_dir(std::path::Path::new("/proc")));
}

fn sh(script: &str, limits: Limits) -> Finished {
    run(Command::new("sh").arg("-c").arg(script), b"", limits).unwrap()
}

#[test]
fn output_and_exit_code_are_captured() {
    let f = sh(
        "echo out; echo err >&2; exit 3",
        Limits::with_timeout(Duration::from_secs(10)),
    );
    assert_eq!(
        (f.code, f.stdout.as_str(), f.stderr.as_str()),
        (Some(3), "out\n", "err\n")
    );
    assert!(!f.timed_out && !f.truncated);
}

#[test]
fn a_loop_is_killed_with_its_children() {
    let marker = tempfile::NamedTempFile::new().unwrap();
    let path = marker.path().display().to_string();
    let start = Instant::now();
    let f = sh(
        &format!("(sleep 1; echo alive > {path}) & while :; do :; done"),
        Limits::with_timeout(Duration::from_millis(300)),
    );
    assert!(f.timed_out);
    assert_eq!(f.code, None);
    assert!(start.elapsed() < Duration::from_secs(5));
    std::thread::sleep(Duration::from_millis(1500));
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "",
        "the background child was killed too"
    );
}

#[test]
fn a_detached_grandchild_is_killed_at_the_limit_and_reading_stops() {
    // `setsid` leaves the process group; the sleeper also holds stdout.
    let marker = tempfile::NamedTempFile::new().unwrap();
    let path = marker.path().display().to_string();
    let start = Instant::now();
    let f = sh(
        &format!("setsid sh -c 'sleep 3; echo alive > {path}' & sleep 30"),
        Limits::with_timeout(Duration::from_millis(500)),
    );
    assert!(f.timed_out, "{f:?}");
    assert_eq!(f.code, None);
    assert!(
        start.elapsed() < Duration::from_secs(3),
        "{:?}",
        start.elapsed()
    );
    std::thread::sleep(Duration::from_millis(3500));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "", "killed too");
}

#[test]
fn what_a_program_leaves_running_is_ended_when_it_exits() {
    let marker = tempfile::NamedTempFile::new().unwrap();
    let path = marker.path().display().to_string();
    let start = Instant::now();
    let f = sh(
        &format!("setsid sh -c 'sleep 2; echo alive > {path}' >/dev/null 2>&1 & echo done"),
        Limits::with_timeout(Duration::from_secs(20)),
    );
    assert_eq!(
        (f.code, f.stdout.as_str(), f.timed_out),
        (Some(0), "done\n", false)
    );
    assert!(start.elapsed() < Duration::from_secs(2));
    std::thread::sleep(Duration::from_millis(2500));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "", "killed too");
}

#[test]
fn exit_codes_and_signals_come_through_the_supervisor() {
    let limits = Limits::with_timeout(Duration::from_secs(10));
    assert_eq!(sh("exit 42", limits).code, Some(42));
    let killed = sh("kill -SEGV $$", limits);
    assert_eq!((killed.code, killed.timed_out), (None, false));
    let missing = run(&mut Command::new("/nonexistent/program"), b"", limits);
    assert!(missing.is_err());
    let fed = run(Command::new("cat").arg("-"), b"fed", limits).unwrap();
    assert_eq!(fed.stdout, "fed");
}

#[test]
fn the_memory_limit_stops_a_program_that_grows() {
    let limits = Limits {
        memory: Some(64 << 20),
        ..Limits::with_timeout(Duration::from_secs(20))
    };
    // Allocate 256 MiB through the shell's memory: `head -c` into a
    // variable would take long; python or perl may be missing; dd into
    // a pipe does not grow. A program that maps more than it may:
    let f = run(
        Command::new("sh")
            .arg("-c")
            .arg("x=$(head -c 200000000 /dev/zero | tr '\\0' a); echo ${#x}"),
        b"",
        limits,
    )
    .unwrap();
    assert_ne!(f.stdout.trim(), "200000000", "{f:?}");
    let unlimited = run(
        Command::new("sh")
            .arg("-c")
            .arg("x=$(head -c 2000000 /dev/zero | tr '\\0' a); echo ${#x}"),
        b"",
        limits,
    )
    .unwrap();
    assert_eq!(unlimited.stdout.trim(), "2000000", "{unlimited:?}");
}

#[test]
fn the_resident_limit_stops_a_tree_that_grows() {
    let limits = Limits {
        resident: Some(64 << 20),
        ..Limits::with_timeout(Duration::from_secs(20))
    };
    // The memory is held by a child of the program the supervisor
    // started (an inner shell), not by the program itself.
    let script = |bytes: u64| {
        format!("sh -c 'x=$(head -c {bytes} /dev/zero | tr \"\\0\" a); echo ${{#x}}'; echo done")
    };
    let f = sh(&script(200_000_000), limits);
    assert!(f.over_memory, "{f:?}");
    assert_eq!(f.code, None, "{f:?}");
    assert!(!f.timed_out, "{f:?}");
    let small = sh(&script(2_000_000), limits);
    assert!(!small.over_memory, "{small:?}");
    assert_eq!(small.stdout, "2000000\ndone\n", "{small:?}");
}

#[test]
fn a_flood_is_capped() {
    let f = sh(
        "yes flood | head -c 5000000",
        Limits {
            timeout: Duration::from_secs(20),
            max_output: 1000,
            memory: None,
            resident: None,
        },
    );
    assert!(f.truncated);
    assert_eq!(f.stdout.len(), 1000);
}
