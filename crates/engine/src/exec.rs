//! Running compilers and compiled programs safely: in a directory of their
//! own, with a time limit, with capped output, with a memory limit for the
//! book's programs, and leaving nothing behind.
//!
//! On Linux each child runs under a small supervisor: a process forked
//! between us and the child that makes itself a child subreaper
//! (`prctl(PR_SET_CHILD_SUBREAPER)`), so everything the child starts stays
//! its descendant however it detaches (`setsid`, double forks): when the
//! child exits or the time limit comes, the supervisor kills what is left of
//! the tree (its own children, again and again, as the killed ones' children
//! are handed to it) and only then exits; it reports a time-out to us on a
//! pipe of its own. Elsewhere the child gets its own process group, killed
//! at the limit. Reading the output stops at the limit too, even if
//! something still holds the pipes open. Output beyond the cap is read and
//! dropped, so a program that floods its pipes can neither block nor fill
//! memory.

use std::collections::HashMap;
use std::io::{self, Read, Write as _};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex, OnceLock, mpsc};
use std::thread;
use std::time::{Duration, Instant};

use super::supervise;

/// Limits for one child process.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Wall-clock time limit.
    pub timeout: Duration,
    /// Bytes kept of stdout and of stderr each.
    pub max_output: usize,
    /// The address space the child may use (`RLIMIT_AS`), in bytes: set for
    /// the book's programs, `None` for compilers (a large crate may need
    /// more, and the compiler is not the book's to limit).
    pub memory: Option<u64>,
    /// The resident memory the child's process tree may hold, in bytes,
    /// watched by the supervisor (Linux only): for programs an address-space
    /// limit cannot hold (the sanitizers that reserve terabytes of it).
    pub resident: Option<u64>,
}

impl Limits {
    /// A time limit with the default output cap (1 MiB per stream) and no
    /// memory limit (for compilers).
    pub fn with_timeout(timeout: Duration) -> Limits {
        Limits {
            timeout,
            max_output: 1 << 20,
            memory: None,
            resident: None,
        }
    }
}

/// How a child process ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finished {
    /// Exit code, or `None` when killed by a signal (or by the time limit).
    pub code: Option<i32>,
    /// Standard output (lossy UTF-8), capped.
    pub stdout: String,
    /// Standard error (lossy UTF-8), capped.
    pub stderr: String,
    /// The time limit was reached and everything the child started was
    /// killed.
    pub timed_out: bool,
    /// Some output was dropped because of the cap.
    pub truncated: bool,
    /// The tree went over its resident-memory limit and was killed.
    pub over_memory: bool,
}

impl Finished {
    /// Exited with code 0.
    pub fn success(&self) -> bool {
        self.code == Some(0)
    }
}

/// How long after the limit we wait for the supervisor (or the readers)
/// before giving up on them.
const GRACE: Duration = Duration::from_secs(2);

/// What one reader thread has read so far: the bytes kept, and whether some
/// were dropped.
type Captured = Arc<Mutex<(Vec<u8>, bool)>>;

/// Runs `cmd` to completion under `limits`, feeding it `stdin`. A
/// command is run once: this adds its supervisor hook to `cmd`.
pub fn run(cmd: &mut Command, stdin: &[u8], limits: Limits) -> io::Result<Finished> {
    cmd.stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt as _;
        cmd.process_group(0);
    }
    #[cfg(target_os = "linux")]
    let status_pipe = supervise::supervise(cmd, limits.timeout, limits.memory, limits.resident)?;
    let start = Instant::now();
    let spawned = cmd.spawn();
    // Our copy of the status pipe's write end goes (the supervisor holds
    // its own); the read end goes too if nothing started.
    #[cfg(target_os = "linux")]
    // SAFETY: closing descriptors we created and nobody else uses.
    unsafe {
        libc::close(status_pipe.1);
        if spawned.is_err() {
            libc::close(status_pipe.0);
        }
    }
    let mut child = spawned?;
    let cap = limits.max_output;
    let (done_tx, done_rx) = mpsc::channel::<()>();
    let mut readers = 0;
    let mut capture = |stream: Option<Box<dyn Read + Send>>| -> Captured {
        let kept: Captured = Arc::default();
        if let Some(s) = stream {
            readers += 1;
            let into = Arc::clone(&kept);
            let done = done_tx.clone();
            thread::spawn(move || {
                read_capped(s, cap, &into);
                let _ = done.send(());
            });
        }
        kept
    };
    let out = capture(
        child
            .stdout
            .take()
            .map(|s| Box::new(s) as Box<dyn Read + Send>),
    );
    let err = capture(
        child
            .stderr
            .take()
            .map(|s| Box::new(s) as Box<dyn Read + Send>),
    );
    drop(done_tx);
    if let Some(mut input) = child.stdin.take() {
        let data = stdin.to_vec();
        thread::spawn(move || {
            let _ = input.write_all(&data);
        });
    }
    let mut timed_out = false;
    let mut pause = supervise::FIRST_PAUSE;
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break Some(status);
        }
        let elapsed = start.elapsed();
        // Under the supervisor, the limit is its to enforce (it kills the
        // whole tree first); we step in only if it does not.
        #[cfg(target_os = "linux")]
        let ours = elapsed >= limits.timeout + GRACE;
        #[cfg(not(target_os = "linux"))]
        let ours = elapsed >= limits.timeout;
        if ours {
            timed_out = true;
            kill_group(&mut child);
            break child.wait().ok();
        }
        thread::sleep(pause);
        pause = (pause * 2).min(supervise::LONGEST_PAUSE);
    };
    // The group may hold the pipes open after the leader exits: kill it so
    // the readers finish and nothing is left running.
    kill_group(&mut child);
    #[cfg(target_os = "linux")]
    let (time_up, over_memory) = {
        let stopped = supervise::read_status(status_pipe.0);
        (
            stopped == Some(supervise::Limit::Time),
            stopped == Some(supervise::Limit::Memory),
        )
    };
    #[cfg(not(target_os = "linux"))]
    let (time_up, over_memory) = (false, false);
    timed_out |= time_up;
    // Reading stops at the limit, even if something still holds a pipe.
    let stop = start + limits.timeout + GRACE;
    for _ in 0..readers {
        let left = stop.saturating_duration_since(Instant::now());
        if done_rx.recv_timeout(left).is_err() {
            break;
        }
    }
    let take = |c: &Captured| {
        let kept = c.lock().map(|g| g.clone()).unwrap_or_default();
        (String::from_utf8_lossy(&kept.0).into_owned(), kept.1)
    };
    let (stdout, t1) = take(&out);
    let (stderr, t2) = take(&err);
    Ok(Finished {
        code: if timed_out || over_memory {
            None
        } else {
            status.and_then(|s| s.code())
        },
        stdout,
        stderr,
        timed_out,
        truncated: t1 || t2,
        over_memory,
    })
}

fn kill_group(child: &mut std::process::Child) {
    #[cfg(unix)]
    {
        if let Ok(pid) = i32::try_from(child.id()) {
            // SAFETY: kill(2) with a negative pid signals a process group we
            // created for this child; it touches no memory of ours.
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
            }
        }
    }
    let _ = child.kill();
}

fn read_capped(mut r: impl Read, cap: usize, into: &Mutex<(Vec<u8>, bool)>) {
    let mut buf = [0u8; 8192];
    loop {
        match r.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                let Ok(mut kept) = into.lock() else { break };
                let room = cap.saturating_sub(kept.0.len());
                if n > room {
                    kept.1 = true;
                }
                kept.0.extend_from_slice(&buf[..n.min(room)]);
            }
        }
    }
}

/// A fresh, empty directory for one compiler run.
///
/// Every compile (`check`, `verify`, `asm`) and every version query whose
/// answer keys their cache entries runs in one of these: siblings under the
/// system's temporary directory, never the book's folder or the process's
/// working directory. A rustup proxy picks its toolchain from the working
/// directory (a `rust-toolchain(.toml)` file in it or above it), so asking
/// the version anywhere else could name another toolchain than the one
/// that compiles.
pub fn scratch_dir() -> io::Result<tempfile::TempDir> {
    tempfile::Builder::new().prefix("companion-").tempdir()
}

/// The command that starts the compiler `program` in `dir` (made by
/// [`scratch_dir`]), with this process's environment: the one way compiles
/// and version queries are started, so they see the same directory and
/// environment.
pub fn compiler_command(program: &str, dir: &Path) -> Command {
    let mut cmd = match unproxied(program) {
        Some(file) => Command::new(file),
        None => Command::new(program),
    };
    cmd.current_dir(dir);
    cmd
}

/// What a compiler says of itself (`rustc --print WHAT`), asked through
/// `cmd` in a scratch directory like a compile; `None` when it cannot be
/// asked.
fn print(mut cmd: Command, dir: &Path, what: &str) -> Option<std::path::PathBuf> {
    cmd.current_dir(dir).args(["--print", what]);
    let out = run(&mut cmd, b"", Limits::with_timeout(Duration::from_secs(30)))
        .ok()
        .filter(Finished::success)?;
    Some(std::path::PathBuf::from(out.stdout.trim()))
}

/// Paths found once per process, by the program they are about.
type Found = std::sync::LazyLock<Mutex<HashMap<String, Option<std::path::PathBuf>>>>;

/// `find()` for `program`, asked the first time only (the answer kept in
/// `found`).
fn remembered(
    found: &Found,
    program: &str,
    find: impl FnOnce() -> Option<std::path::PathBuf>,
) -> Option<std::path::PathBuf> {
    let mut found = found.lock().unwrap_or_else(|e| e.into_inner());
    found.entry(program.to_owned()).or_insert_with(find).clone()
}

/// The directory of a `rustc`'s own target libraries (`rustc --print
/// target-libdir`, where `libstd-*.so` is), asked once per process in a
/// scratch directory like a compile; `None` when it cannot be asked or
/// holds no shared standard library.
pub fn target_libdir(program: &str) -> Option<std::path::PathBuf> {
    static FOUND: Found = std::sync::LazyLock::new(Default::default);
    remembered(&FOUND, program, || {
        let dir = scratch_dir().ok()?;
        let libdir = print(
            compiler_command(program, dir.path()),
            dir.path(),
            "target-libdir",
        )?;
        // A toolchain without its shared standard library (some
        // distributions ship only the rlibs) links statically.
        let shared_std = std::fs::read_dir(&libdir).ok()?.flatten().any(|e| {
            let name = e.file_name();
            let name = name.to_string_lossy();
            name.starts_with("libstd-") && name.ends_with(std::env::consts::DLL_SUFFIX)
        });
        shared_std.then_some(libdir)
    })
}

/// The compiler a rustup proxy `rustc` starts in a scratch directory (its
/// toolchain's own `bin/rustc`, from `rustc --print sysroot` asked there
/// through the proxy), found once per process; `None` for anything that
/// is not a rustup proxy of `rustc`. Started directly, a compile skips the
/// proxy's own start (it resolves the toolchain and execs the real
/// compiler), which a cold check would otherwise pay on every one of its
/// compiler starts.
fn unproxied(program: &str) -> Option<std::path::PathBuf> {
    static FOUND: Found = std::sync::LazyLock::new(Default::default);
    remembered(&FOUND, program, || {
        let path = resolve(program)?;
        let real = std::fs::canonicalize(&path).ok()?;
        let proxy = real.file_name().is_some_and(|n| n == "rustup");
        if !proxy || path.file_name().is_none_or(|n| n != "rustc") {
            return None;
        }
        let dir = scratch_dir().ok()?;
        let sysroot = print(Command::new(&path), dir.path(), "sysroot")?;
        let file = sysroot.join("bin").join("rustc");
        file.is_file().then_some(file)
    })
}

/// The version line of a compiler (`rustc -vV`, `cc --version`), asked once
/// per process, in a [`scratch_dir`] like a compile; `None` when the
/// program cannot be run.
pub fn tool_version(program: &str) -> Option<String> {
    if let Some(v) = known_version(program) {
        return v;
    }
    let flag = if program.contains("rustc") {
        "-vV"
    } else {
        "--version"
    };
    let dir = scratch_dir().ok()?;
    let version = run(
        compiler_command(program, dir.path()).arg(flag),
        b"",
        Limits::with_timeout(Duration::from_secs(30)),
    )
    .ok()
    .filter(Finished::success)
    .map(|f| f.stdout.trim().to_owned());
    remember_version(program, version.clone());
    version
}

/// Versions already known to this process, by program name.
fn versions() -> &'static Mutex<HashMap<String, Option<String>>> {
    static SEEN: OnceLock<Mutex<HashMap<String, Option<String>>>> = OnceLock::new();
    SEEN.get_or_init(Default::default)
}

fn known_version(program: &str) -> Option<Option<String>> {
    versions().lock().ok().and_then(|m| m.get(program).cloned())
}

fn remember_version(program: &str, version: Option<String>) {
    if let Ok(mut m) = versions().lock() {
        m.insert(program.to_owned(), version);
    }
}

/// [`tool_version`], remembered in the book's cache under a fingerprint of
/// the compiler's file (resolved path, size, modification time; for a
/// rustup proxy also the installed toolchains' compilers and
/// `RUSTUP_TOOLCHAIN`), so that a warm build starts no compiler at all, not
/// even for a version query. Replacing or updating the compiler changes the
/// fingerprint, and the version is asked again.
pub fn tool_version_cached(program: &str, cache: &crate::cache::Cache) -> Option<String> {
    if let Some(v) = known_version(program) {
        return v;
    }
    let Some(fingerprint) = tool_fingerprint(program) else {
        return tool_version(program);
    };
    let key = crate::cache::Cache::key(&[b"tool-version", fingerprint.as_bytes()]);
    if let Some(v) = cache
        .get("tools", &key)
        .and_then(|b| String::from_utf8(b).ok())
        .filter(|v| !v.is_empty())
    {
        remember_version(program, Some(v.clone()));
        return Some(v);
    }
    let version = tool_version(program)?;
    cache.put("tools", &key, version.as_bytes());
    Some(version)
}

/// Identifies the file a program name runs, without running it.
pub fn tool_fingerprint(program: &str) -> Option<String> {
    let path = resolve(program)?;
    let real = std::fs::canonicalize(&path).ok()?;
    // The name matters to a rustup proxy (rustc and cargo are one file).
    let name = path.file_name()?.to_string_lossy().into_owned();
    let mut parts = vec![name, describe(&real)?];
    let is_rustup_proxy = real.file_name().is_some_and(|n| n == "rustup")
        || path.parent().is_some_and(|d| d.ends_with(".cargo/bin"));
    if is_rustup_proxy {
        parts.push(std::env::var("RUSTUP_TOOLCHAIN").unwrap_or_default());
        let home = std::env::var_os("RUSTUP_HOME")
            .map(std::path::PathBuf::from)
            .or_else(|| {
                std::env::var_os("HOME").map(|h| std::path::Path::new(&h).join(".rustup"))
            })?;
        parts.push(describe(&home.join("settings.toml")).unwrap_or_default());
        let mut toolchains: Vec<_> = std::fs::read_dir(home.join("toolchains"))
            .ok()?
            .filter_map(Result::ok)
            .map(|e| {
                e.path()
                    .join("bin")
                    .join(path.file_name().unwrap_or_default())
            })
            .collect();
        toolchains.sort();
        parts.extend(toolchains.iter().filter_map(|t| describe(t)));
        // A rust-toolchain file in the compiler's working directory (a
        // scratch directory) or above it picks the toolchain.
        for dir in std::env::temp_dir().ancestors() {
            for f in ["rust-toolchain", "rust-toolchain.toml"] {
                parts.push(std::fs::read_to_string(dir.join(f)).unwrap_or_default());
            }
        }
    }
    Some(parts.join("\n"))
}

/// A file as path, size and modification time (nanoseconds): changes
/// when the file is replaced or rewritten.
pub fn describe(path: &std::path::Path) -> Option<String> {
    let meta = std::fs::metadata(path).ok()?;
    let modified = meta
        .modified()
        .ok()
        .and_then(|m| m.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos());
    Some(format!("{} {} {modified}", path.display(), meta.len()))
}

/// The file a program name refers to: a path as given, else the first match
/// on `PATH`.
fn resolve(program: &str) -> Option<std::path::PathBuf> {
    let p = std::path::Path::new(program);
    if p.components().count() > 1 {
        return p.is_file().then(|| p.to_path_buf());
    }
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join(program))
        .find(|c| c.is_file())
}

#[cfg(test)]
#[cfg(unix)]
mod tests {
    use super::*;

    #[test]
    fn a_rustup_proxy_is_skipped_for_the_compiler_it_would_start() {
        let Some(real) = resolve("rustc").and_then(|p| std::fs::canonicalize(p).ok()) else {
            panic!("rustc is not on PATH");
        };
        let direct = unproxied("rustc");
        match real.file_name().is_some_and(|n| n == "rustup") {
            // The toolchain's own file, which says what the proxy says.
            true => {
                let direct = direct.expect("the proxy's toolchain");
                assert!(
                    !direct.ends_with(".cargo/bin/rustc"),
                    "{}",
                    direct.display()
                );
                let dir = scratch_dir().expect("scratch");
                let version = |mut cmd: Command| {
                    cmd.current_dir(dir.path()).arg("-vV");
                    run(&mut cmd, b"", Limits::with_timeout(Duration::from_secs(30)))
                        .expect("rustc -vV")
                        .stdout
                };
                assert_eq!(
                    version(Command::new(&direct)),
                    version(Command::new("rustc"))
                );
            }
            false => assert_eq!(direct, None),
        }
        assert_eq!(unproxied("cc"), None);
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
        thread::sleep(Duration::from_millis(1500));
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
        thread::sleep(Duration::from_millis(3500));
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
        thread::sleep(Duration::from_millis(2500));
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
            format!(
                "sh -c 'x=$(head -c {bytes} /dev/zero | tr \"\\0\" a); echo ${{#x}}'; echo done"
            )
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

    #[test]
    fn cached_version_needs_no_run_until_the_tool_changes() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("log");
        let tool = dir.path().join("fakecc");
        let script = |v: &str| {
            format!(
                "#!/bin/sh\necho run >> {}\necho 'fakecc {v}'\n",
                log.display()
            )
        };
        std::fs::write(&tool, script("1.0")).unwrap();
        std::fs::set_permissions(&tool, std::fs::Permissions::from_mode(0o755)).unwrap();
        let cache = crate::cache::Cache::at(dir.path().join("cache"));
        let name = tool.display().to_string();
        let runs = || {
            std::fs::read_to_string(&log)
                .unwrap_or_default()
                .lines()
                .count()
        };
        assert_eq!(
            tool_version_cached(&name, &cache).as_deref(),
            Some("fakecc 1.0")
        );
        assert_eq!(runs(), 1);
        // A new process would not have the in-memory answer: clear it by
        // asking through a different spelling of the same file.
        let other = format!("{}/./fakecc", dir.path().display());
        assert_eq!(
            tool_version_cached(&other, &cache).as_deref(),
            Some("fakecc 1.0")
        );
        assert_eq!(runs(), 1, "served from the cache");
        std::thread::sleep(Duration::from_millis(20));
        std::fs::write(&tool, script("2.0 (updated)")).unwrap();
        let third = format!("{}/././fakecc", dir.path().display());
        assert_eq!(
            tool_version_cached(&third, &cache).as_deref(),
            Some("fakecc 2.0 (updated)")
        );
        assert_eq!(runs(), 2, "a changed compiler is asked again");
        assert_eq!(tool_version_cached("/nonexistent/cc", &cache), None);
    }

    #[test]
    fn versions_are_read_once_and_missing_tools_are_none() {
        assert!(tool_version("rustc").unwrap().contains("rustc"));
        assert_eq!(tool_version("/nonexistent/compiler"), None);
    }

    #[test]
    fn versions_are_asked_in_a_scratch_directory_like_compiles() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = tempfile::tempdir().unwrap();
        let tool = dir.path().join("pwdcc");
        std::fs::write(&tool, "#!/bin/sh\necho \"$PWD\"\n").unwrap();
        std::fs::set_permissions(&tool, std::fs::Permissions::from_mode(0o755)).unwrap();
        let asked = std::path::PathBuf::from(tool_version(&tool.display().to_string()).unwrap());
        let scratch = scratch_dir().unwrap();
        let compiled = run(
            compiler_command(&tool.display().to_string(), scratch.path()).arg("x.c"),
            b"",
            Limits::with_timeout(Duration::from_secs(10)),
        )
        .unwrap();
        let compiled = std::path::PathBuf::from(compiled.stdout.trim());
        assert_eq!(compiled, scratch.path());
        assert_eq!(
            asked.parent(),
            compiled.parent(),
            "{asked:?} vs {compiled:?}"
        );
        assert_ne!(
            Some(asked.as_path()),
            std::env::current_dir().ok().as_deref()
        );
        assert!(!asked.exists(), "the version query's directory is removed");
    }
}
