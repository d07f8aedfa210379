//! One child process run to its end ([`run`]): in a scratch directory,
//! under its supervisor, with its time limit, output cap and memory
//! limit (see the module `exec`).

use std::io::{self, Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::supervise;

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
    pub(crate) fn with_timeout(timeout: Duration) -> Limits {
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

/// Runs `cmd` to completion under `limits`, feeding it `stdin`. A
/// command is run once: this adds its supervisor hook to `cmd`. On Linux
/// the spawner (module `spawner`) starts it when there is one.
pub fn run(cmd: &mut Command, stdin: &[u8], limits: Limits) -> io::Result<Finished> {
    run_in(cmd, stdin, limits, None)
}

/// [`run`], in `sandbox` when it is given one ([`crate::sandbox`]; `cmd`'s
/// directory is the program's folder): on Linux, where the spawner or
/// this binary supervises it (not when the supervisor is forked from us,
/// as in the engine's own tests: [`boxes`] says so).
pub fn run_in(
    cmd: &mut Command,
    stdin: &[u8],
    limits: Limits,
    sandbox: Option<&crate::sandbox::Sandbox>,
) -> io::Result<Finished> {
    let start = Instant::now();
    #[cfg(target_os = "linux")]
    if let Some(spawned) =
        crate::spawner::spawn(cmd, limits.timeout, limits.memory, limits.resident, sandbox)
    {
        let s = spawned?;
        let streams = Streams {
            stdout: Some(s.stdout),
            stderr: Some(s.stderr),
            stdin: Some(s.stdin),
        };
        let waiter = Waiter::Spawned {
            pid: s.pid,
            status: s.status,
            _net: s.net,
        };
        return collect(waiter, streams, stdin, limits, start);
    }
    cmd.stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt as _;
        cmd.process_group(0);
    }
    #[cfg(target_os = "linux")]
    let (status_pipe, mut instead) =
        supervise::supervise(cmd, limits.timeout, limits.memory, limits.resident, sandbox)?;
    #[cfg(not(target_os = "linux"))]
    let mut instead: Option<Command> = None;
    // The supervisor started as a binary of its own: the streams and the
    // group it passes on to the program.
    let cmd = match instead.as_mut() {
        Some(supervisor) => {
            supervisor
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped());
            #[cfg(unix)]
            {
                use std::os::unix::process::CommandExt as _;
                supervisor.process_group(0);
            }
            supervisor
        }
        None => cmd,
    };
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
    let file = |fd: std::os::fd::OwnedFd| std::fs::File::from(fd);
    let streams = Streams {
        stdout: child.stdout.take().map(|s| file(s.into())),
        stderr: child.stderr.take().map(|s| file(s.into())),
        stdin: child.stdin.take().map(|s| file(s.into())),
    };
    let waiter = Waiter::Own {
        child,
        #[cfg(target_os = "linux")]
        status: status_pipe.0,
    };
    collect(waiter, streams, stdin, limits, start)
}

/// Our ends of a child's standard streams.
struct Streams {
    stdout: Option<std::fs::File>,
    stderr: Option<std::fs::File>,
    stdin: Option<std::fs::File>,
}

/// A started child, as [`collect`] waits for it.
enum Waiter {
    /// Started by us: waited for as our child; `status`, the read end of
    /// its supervisor's status pipe.
    Own {
        child: std::process::Child,
        #[cfg(target_os = "linux")]
        status: i32,
    },
    /// Started by the spawner: its supervisor (pid and group `pid`) is
    /// our child all the same (`CLONE_PARENT`), waited for by pid;
    /// `status`, the read end of its status pipe.
    #[cfg(target_os = "linux")]
    Spawned {
        pid: i32,
        status: std::os::fd::OwnedFd,
        /// Its program's network namespace, free again when this drops
        /// (after the supervisor was waited for).
        _net: Option<crate::spawner::NetSlot>,
    },
}

impl Waiter {
    /// A descriptor that polls readable once the child has ended
    /// (`pidfd_open(2)`, Linux 5.3), so that waiting for its end is one
    /// sleep, not a wake-up every 2 ms; `None` where there is none.
    fn pidfd(&self) -> Option<std::os::fd::OwnedFd> {
        #[cfg(target_os = "linux")]
        {
            use std::os::fd::FromRawFd as _;
            let pid = match self {
                Waiter::Own { child, .. } => i32::try_from(child.id()).ok()?,
                Waiter::Spawned { pid, .. } => *pid,
            };
            // SAFETY: pidfd_open(2) (always closed on exec) of our own child (not yet waited
            // for, so its pid is its own); the descriptor is ours.
            let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) };
            let fd = i32::try_from(fd).ok().filter(|fd| *fd >= 0)?;
            // SAFETY: a descriptor just made for us.
            Some(unsafe { std::os::fd::OwnedFd::from_raw_fd(fd) })
        }
        #[cfg(not(target_os = "linux"))]
        None
    }

    /// `Some` once the child has ended, with its exit code if it exited.
    fn try_wait(&mut self) -> io::Result<Option<Option<i32>>> {
        match self {
            Waiter::Own { child, .. } => Ok(child.try_wait()?.map(|s| s.code())),
            #[cfg(target_os = "linux")]
            Waiter::Spawned { pid, .. } => {
                let mut st = 0;
                // SAFETY: waitpid(2) of our child (the spawner forked it
                // with `CLONE_PARENT`), into a local.
                match unsafe { libc::waitpid(*pid, &mut st, libc::WNOHANG) } {
                    0 => Ok(None),
                    -1 => Err(io::Error::last_os_error()),
                    _ => Ok(Some(exit_code(st))),
                }
            }
        }
    }

    /// Kills the child's group (and, ours, the child), and waits for it:
    /// its exit code if it exited after all.
    fn kill_and_wait(&mut self) -> Option<i32> {
        match self {
            Waiter::Own { child, .. } => {
                kill_group(child);
                child.wait().ok().and_then(|s| s.code())
            }
            #[cfg(target_os = "linux")]
            Waiter::Spawned { pid, .. } => {
                let mut st = 0;
                // SAFETY: kill(2) of the group the spawner made for it,
                // then waitpid(2) of our child into a local.
                unsafe {
                    libc::kill(-*pid, libc::SIGKILL);
                    (libc::waitpid(*pid, &mut st, 0) == *pid).then(|| exit_code(st))?
                }
            }
        }
    }

    /// After its end: kills what is left of its group, so that the
    /// readers finish and nothing is left running (the spawner's
    /// supervisor did that itself before it ended).
    fn end(&mut self) {
        if let Waiter::Own { child, .. } = self {
            kill_group(child);
        }
    }

    /// The limit the supervisor stopped it at, if any.
    #[cfg(target_os = "linux")]
    fn stopped(self) -> Option<supervise::Limit> {
        match self {
            Waiter::Own { status, .. } => supervise::read_status(status),
            Waiter::Spawned { status, .. } => {
                use std::os::fd::IntoRawFd as _;
                supervise::read_status(status.into_raw_fd())
            }
        }
    }
}

/// Reads a started child's output (capped), feeds it `stdin`, waits for
/// its end (stepping in only past its limit and [`GRACE`]) and tells how
/// it ended. All of it in this thread, with `poll(2)`: the streams, room
/// in the child's stdin, and the child's end ([`Waiter::pidfd`]) wake it
/// (no thread started per child, no wake-up while nothing happens).
fn collect(
    mut waiter: Waiter,
    streams: Streams,
    stdin: &[u8],
    limits: Limits,
    start: Instant,
) -> io::Result<Finished> {
    let mut pump = Pump {
        out: Captured::new(streams.stdout),
        err: Captured::new(streams.stderr),
        input: streams.stdin.filter(|_| !stdin.is_empty()),
        fed: 0,
        cap: limits.max_output,
    };
    if let Some(input) = &pump.input {
        nonblocking(input);
    }
    let ended = waiter.pidfd();
    // Under the supervisor, the limit is its to enforce (it kills the
    // whole tree first); we step in only if it does not.
    #[cfg(target_os = "linux")]
    let ours = start + limits.timeout + GRACE;
    #[cfg(not(target_os = "linux"))]
    let ours = start + limits.timeout;
    let mut timed_out = false;
    let mut pause = supervise::FIRST_PAUSE;
    let code = loop {
        if let Some(code) = waiter.try_wait()? {
            break code;
        }
        let left = ours.saturating_duration_since(Instant::now());
        if left.is_zero() {
            timed_out = true;
            break waiter.kill_and_wait();
        }
        match &ended {
            Some(ended) => pump.wait(stdin, Some(ended), left),
            None => {
                pump.wait(stdin, None, pause.min(left));
                pause = (pause * 2).min(supervise::LONGEST_PAUSE);
            }
        }
    };
    waiter.end();
    pump.input = None;
    #[cfg(target_os = "linux")]
    let (time_up, over_memory) = {
        let stopped = waiter.stopped();
        // (Only as the supervisor's program child reports it: it ends with
        // 127 after writing it; a program that writes it itself and
        // exits otherwise is judged by its exit.)
        if let Some(supervise::Limit::Start(errno)) = stopped
            && code == Some(127)
        {
            return Err(io::Error::from_raw_os_error(errno));
        }
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
    while pump.out.from.is_some() || pump.err.from.is_some() {
        let left = stop.saturating_duration_since(Instant::now());
        if left.is_zero() {
            break;
        }
        pump.wait(stdin, None, left);
    }
    let (stdout, t1) = pump.out.text();
    let (stderr, t2) = pump.err.text();
    Ok(Finished {
        code: if timed_out || over_memory { None } else { code },
        stdout,
        stderr,
        timed_out,
        truncated: t1 || t2,
        over_memory,
    })
}

/// One of a child's output streams, read until its end: the bytes kept
/// (up to the cap), and whether some were dropped.
struct Captured {
    from: Option<std::fs::File>,
    kept: Vec<u8>,
    dropped: bool,
}

impl Captured {
    fn new(from: Option<std::fs::File>) -> Captured {
        Captured {
            from,
            kept: Vec::new(),
            dropped: false,
        }
    }

    /// Reads what the stream holds now (after `poll(2)` said it may be
    /// read: this does not block); at its end (or an error) it is closed.
    fn read(&mut self, cap: usize) {
        let Some(from) = self.from.as_mut() else {
            return;
        };
        let mut buf = [0u8; 8192];
        match from.read(&mut buf) {
            Ok(0) => self.from = None,
            Ok(n) => {
                let room = cap.saturating_sub(self.kept.len());
                self.dropped |= n > room;
                self.kept.extend_from_slice(&buf[..n.min(room)]);
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => self.from = None,
        }
    }

    /// What was kept, as (lossy UTF-8) text, and whether some was dropped.
    fn text(&self) -> (String, bool) {
        (
            String::from_utf8_lossy(&self.kept).into_owned(),
            self.dropped,
        )
    }
}

/// A child's streams as [`collect`] serves them.
struct Pump {
    out: Captured,
    err: Captured,
    /// The child's stdin, non-blocking, while some of its input is left.
    input: Option<std::fs::File>,
    /// How much of the input was written.
    fed: usize,
    cap: usize,
}

impl Pump {
    /// Waits up to `wait` for output, room in the child's stdin or (with
    /// `ended`, a pidfd) the child's end, and serves the streams that are
    /// ready.
    fn wait(&mut self, stdin: &[u8], ended: Option<&std::os::fd::OwnedFd>, wait: Duration) {
        use std::os::fd::AsRawFd as _;
        let fd = |f: &Option<std::fs::File>| f.as_ref().map_or(-1, |f| f.as_raw_fd());
        let entry = |fd: i32, events: libc::c_short| libc::pollfd {
            fd,
            events,
            revents: 0,
        };
        // (A negative descriptor is left out by poll(2).)
        let mut fds = [
            entry(fd(&self.out.from), libc::POLLIN),
            entry(fd(&self.err.from), libc::POLLIN),
            entry(fd(&self.input), libc::POLLOUT),
            entry(ended.map_or(-1, |e| e.as_raw_fd()), libc::POLLIN),
        ];
        let timeout = libc::timespec {
            tv_sec: wait.as_secs().min(i64::MAX as u64) as libc::time_t,
            tv_nsec: libc::c_long::from(wait.subsec_nanos() as i32),
        };
        // SAFETY: ppoll(2) on an array of this frame, with a timeout of
        // this frame and no signal mask.
        let n = unsafe {
            libc::ppoll(
                fds.as_mut_ptr(),
                fds.len() as libc::nfds_t,
                &timeout,
                std::ptr::null(),
            )
        };
        if n <= 0 {
            return;
        }
        if fds[0].revents != 0 {
            self.out.read(self.cap);
        }
        if fds[1].revents != 0 {
            self.err.read(self.cap);
        }
        if fds[2].revents != 0
            && let Some(input) = self.input.as_mut()
        {
            match input.write(&stdin[self.fed..]) {
                Ok(n) => self.fed += n,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => self.fed = stdin.len(),
            }
            if self.fed >= stdin.len() {
                // Closed: the child reads its end.
                self.input = None;
            }
        }
    }
}

/// Makes writes to `file` return at once when its pipe is full.
fn nonblocking(file: &std::fs::File) {
    use std::os::fd::AsRawFd as _;
    // SAFETY: fcntl(2) on a descriptor we own.
    unsafe {
        let flags = libc::fcntl(file.as_raw_fd(), libc::F_GETFL);
        if flags >= 0 {
            libc::fcntl(file.as_raw_fd(), libc::F_SETFL, flags | libc::O_NONBLOCK);
        }
    }
}

/// A wait status's exit code (`None` when a signal ended the process).
#[cfg(target_os = "linux")]
fn exit_code(status: i32) -> Option<i32> {
    libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status))
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

/// For a binary's `main`, first thing (before any thread starts): when
/// the binary was started as a supervisor of a child [`run`] starts, it
/// does that and exits; otherwise [`run`] starts this binary as each
/// child's supervisor from now on, rather than forking this process for
/// it (see the supervisor's module, `supervise`). Does nothing off Linux.
pub fn supervisor_hook() {
    #[cfg(target_os = "linux")]
    crate::spawner::hook();
}

/// Whether the book's programs run in a box here, probed once per
/// process (a box made for a shell that does nothing): `Err` says why
/// not (the kernel's refusal, or no supervisor of ours to make one, as
/// in the engine's own tests, or not Linux).
pub fn boxes() -> Result<(), String> {
    static PROBED: std::sync::OnceLock<Result<(), String>> = std::sync::OnceLock::new();
    PROBED.get_or_init(|| probe_with(false)).clone()
}

/// How the book's programs are kept apart on this machine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Confinement {
    /// Each in a box of its own ([`crate::sandbox`]).
    Box,
    /// The kernel makes no namespaces for us: each confined by Landlock
    /// (`sandbox::landlock`), why the box could not be made.
    Landlock(String),
    /// Not at all: `isolation = "off"`, or neither can be made here, and
    /// why.
    None(String),
}

impl Confinement {
    /// Its name in reports and cache keys.
    pub fn name(&self) -> &'static str {
        match self {
            Confinement::Box => "box",
            Confinement::Landlock(_) => "landlock",
            Confinement::None(_) => "none",
        }
    }
}

/// How the book's programs are kept apart under `isolation` (asked of
/// the kernel once).
pub fn confinement(isolation: mdbook_companion_core::config::Isolation) -> Confinement {
    if isolation == mdbook_companion_core::config::Isolation::Off {
        return Confinement::None("`isolation = \"off\"` in book.toml".to_owned());
    }
    static LESSER: std::sync::OnceLock<Result<(), String>> = std::sync::OnceLock::new();
    match boxes() {
        Ok(()) => Confinement::Box,
        Err(why) => match LESSER.get_or_init(|| probe_with(true)) {
            Ok(()) => Confinement::Landlock(why),
            Err(also) => Confinement::None(format!("{why}; Landlock: {also}")),
        },
    }
}

/// The box for a program or compiler of the book whose cache is `cache`
/// (hidden in it), its memory file system `size` bytes (2 GiB when
/// none is given): a lesser one where the kernel makes no namespaces
/// ([`Confinement::Landlock`]); `None` under `isolation = "off"`, or
/// where neither can be made.
pub fn book_box(
    isolation: mdbook_companion_core::config::Isolation,
    cache: &std::path::Path,
    size: Option<u64>,
) -> Option<crate::sandbox::Sandbox> {
    let lesser = match confinement(isolation) {
        Confinement::Box => false,
        Confinement::Landlock(_) => true,
        Confinement::None(_) => return None,
    };
    Some(crate::sandbox::Sandbox {
        size: size.unwrap_or(2 << 30),
        base: scratch_base().to_owned(),
        hidden: vec![std::path::absolute(cache).ok()?],
        read_only: vec!["/".into()],
        lesser,
        ..crate::sandbox::Sandbox::default()
    })
}

/// Whether a program can run in a box here, or in a lesser one.
#[cfg(target_os = "linux")]
fn probe_with(lesser: bool) -> Result<(), String> {
    if crate::supervise::program().is_none() {
        return Err("no supervisor binary to make one".to_owned());
    }
    let dir = scratch_dir().map_err(|e| e.to_string())?;
    let sandbox = crate::sandbox::Sandbox {
        size: 1 << 20,
        base: scratch_base().to_owned(),
        lesser,
        ..crate::sandbox::Sandbox::default()
    };
    let mut cmd = std::process::Command::new("/bin/sh");
    cmd.args(["-c", "exit 0"]).current_dir(dir.path());
    let limits = Limits::with_timeout(std::time::Duration::from_secs(10));
    match run_in(&mut cmd, b"", limits, Some(&sandbox)) {
        Ok(f) if f.success() => Ok(()),
        Ok(f) => Err(format!("a program in a box ended with {:?}", f.code)),
        Err(e) => Err(format!("the kernel refused to make one: {e}")),
    }
}

#[cfg(not(target_os = "linux"))]
fn probe_with(_lesser: bool) -> Result<(), String> {
    Err("boxes are made on Linux only".to_owned())
}

/// A fresh, empty directory for one compiler run.
///
/// Every compile (`check`, `verify`, `asm`) and every version query whose
/// answer keys their cache entries runs in one of these: siblings under
/// [`scratch_base`], never the book's folder or the process's working
/// directory. A rustup proxy picks its toolchain from the working
/// directory (a `rust-toolchain(.toml)` file in it or above it), so asking
/// the version anywhere else could name another toolchain than the one
/// that compiles.
///
/// Their names say whose they are (`companion-PID-START-…`, this
/// process's pid and start time): a check that was killed leaves its
/// folders, which the next check removes (`sweep`) once no living
/// process is their owner.
pub fn scratch_dir() -> io::Result<tempfile::TempDir> {
    static PREFIX: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    let prefix = PREFIX.get_or_init(|| {
        sweep(scratch_base());
        let me = std::process::id();
        format!("companion-{me}-{}-", start_time(me).unwrap_or(0))
    });
    tempfile::Builder::new()
        .prefix(prefix.as_str())
        .tempdir_in(scratch_base())
}

/// Removes the folders of dead checks under `base` ([`scratch_dir`]'s
/// `companion-PID-START-…`): those whose process is gone, or is another
/// process now (another start time).
fn sweep(base: &std::path::Path) {
    let Ok(entries) = std::fs::read_dir(base) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some((pid, start)) = name
            .to_str()
            .and_then(|n| n.strip_prefix("companion-"))
            .and_then(|n| {
                let mut parts = n.splitn(3, '-');
                let pid = parts.next()?.parse::<u32>().ok()?;
                let start = parts.next()?.parse::<u64>().ok()?;
                parts.next().map(|_| (pid, start))
            })
        else {
            continue;
        };
        if start_time(pid) != Some(start) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// When the process `pid` started, in clock ticks since boot (the 22nd
/// field of `/proc/PID/stat`); `None` when it is gone (or off Linux).
fn start_time(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // After the command's closing parenthesis: state is field 3, start 22.
    stat.rsplit_once(") ")?.1.split(' ').nth(19)?.parse().ok()
}

/// Where scratch directories go: `TMPDIR` when it is set; otherwise, on
/// Linux, `/dev/shm` when it is a memory file system (tmpfs) whose
/// programs may run (not `noexec`) with at least [`MEMORY_ROOM`] free;
/// otherwise the system's temporary directory. A check makes and removes
/// a file per block and build, and rustc and the linker write their
/// objects and programs there: on a disk's file system each costs more
/// than in memory (the Reference's cold check, measured both ways, is on
/// the guide's Performance page). Chosen once per process.
pub fn scratch_base() -> &'static std::path::Path {
    static BASE: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
    BASE.get_or_init(|| {
        let shm = std::path::Path::new("/dev/shm");
        match std::env::var_os("TMPDIR").is_none() && memory_dir(shm) {
            true => shm.to_owned(),
            false => std::env::temp_dir(),
        }
    })
}

/// The free space a memory file system needs for scratch directories.
pub const MEMORY_ROOM: u64 = 2 << 30;

/// Whether `dir` is a directory on a memory file system (tmpfs) that we
/// may write in and run programs from, with [`MEMORY_ROOM`] free.
pub fn memory_dir(dir: &std::path::Path) -> bool {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::ffi::OsStrExt as _;
        let Ok(path) = std::ffi::CString::new(dir.as_os_str().as_bytes()) else {
            return false;
        };
        // SAFETY: statfs(2), statvfs(3) and access(2) read the path we
        // pass and write only the structs we pass.
        unsafe {
            let mut fs: libc::statfs = std::mem::zeroed();
            let mut vfs: libc::statvfs = std::mem::zeroed();
            libc::statfs(path.as_ptr(), &mut fs) == 0
                && fs.f_type == libc::TMPFS_MAGIC
                && libc::statvfs(path.as_ptr(), &mut vfs) == 0
                && vfs.f_flag & libc::ST_NOEXEC == 0
                && vfs.f_flag & libc::ST_RDONLY == 0
                && vfs.f_bavail.saturating_mul(vfs.f_frsize) >= MEMORY_ROOM
                && libc::access(path.as_ptr(), libc::W_OK | libc::X_OK) == 0
        }
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = dir;
        false
    }
}

#[cfg(unix)]
#[cfg(test)]
mod tests;
