//! The supervisor between us and a child on Linux (see
//! [`exec`](super::exec)): a process forked in the child's `pre_exec`
//! hook, a child subreaper (`prctl(PR_SET_CHILD_SUBREAPER)`), which waits
//! for the program, kills everything left under it when the program exits
//! or the time limit passes, and ends as the program did. Everything here
//! that runs in the forked process is async-signal-safe and allocates
//! nothing.

use std::io;
use std::process::Command;
use std::time::Duration;

/// How long the first wait for a child's end lasts; each next one twice
/// as long, up to [`LONGEST_PAUSE`]: a program that ends within a
/// millisecond (most of a book's) is seen to end then, not at the next
/// 2 ms tick, and a long one costs a wake-up every 2 ms.
pub(super) const FIRST_PAUSE: Duration = Duration::from_micros(50);

/// The longest wait between two looks at a child.
pub(super) const LONGEST_PAUSE: Duration = Duration::from_millis(2);

/// The byte the supervisor wrote on its status pipe: `T` when the time
/// limit was reached. Closes the read end.
pub(super) fn read_flag(fd: i32) -> bool {
    let mut byte = 0u8;
    // SAFETY: a non-blocking read of one byte into a local, from a pipe we
    // own, then closing it.
    unsafe {
        let n = libc::read(fd, (&raw mut byte).cast(), 1);
        libc::close(fd);
        n == 1 && byte == b'T'
    }
}

/// Puts the supervisor between us and the child `cmd` will start: a
/// `pre_exec` hook that forks. The forked-off grandchild goes on to become
/// the program (with its memory limit); the hook's own process never
/// returns: it is the supervisor ([`supervisor`]). Returns the status
/// pipe (read end, write end).
pub(super) fn supervise(
    cmd: &mut Command,
    limit: Duration,
    memory: Option<u64>,
) -> io::Result<(i32, i32)> {
    use std::os::unix::process::CommandExt as _;
    let mut fds = [0i32; 2];
    // SAFETY: pipe2(2) writes two descriptors into the array we pass.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC | libc::O_NONBLOCK) } != 0 {
        return Err(io::Error::last_os_error());
    }
    let (read_end, write_end) = (fds[0], fds[1]);
    // SAFETY: the hook runs in the forked child before exec and calls only
    // async-signal-safe functions (prctl, fork, setrlimit, waitpid, kill,
    // open, read, close, clock_gettime, nanosleep, sigaction, _exit); it
    // allocates nothing.
    unsafe {
        cmd.pre_exec(move || {
            libc::close(read_end);
            if libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0 {
                // No supervisor possible: run the program directly.
                libc::close(write_end);
                return limit_memory(memory);
            }
            match libc::fork() {
                -1 => Err(io::Error::last_os_error()),
                0 => {
                    libc::close(write_end);
                    // A group of its own, which the supervisor kills first.
                    libc::setpgid(0, 0);
                    limit_memory(memory)
                }
                program => supervisor(program, limit, write_end),
            }
        });
    }
    Ok((read_end, write_end))
}

/// Caps the address space of the process (the book's program).
fn limit_memory(memory: Option<u64>) -> io::Result<()> {
    if let Some(bytes) = memory {
        let limit = libc::rlimit {
            rlim_cur: bytes,
            rlim_max: bytes,
        };
        // SAFETY: setrlimit(2) reads the struct we pass.
        if unsafe { libc::setrlimit(libc::RLIMIT_AS, &limit) } != 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

/// The supervisor: waits for `program` (reaping whatever else is handed
/// to it), kills the rest of the tree when the program exits or `limit`
/// passes, writes `T` on `status` for a time-out, and ends as the program
/// did (its exit code, or its signal). Never returns.
///
/// # Safety
/// Runs in a forked child of a multithreaded process: async-signal-safe
/// calls only, no allocation.
unsafe fn supervisor(program: i32, limit: Duration, status: i32) -> ! {
    // SAFETY: every call below is async-signal-safe and works on values
    // and buffers local to this function.
    unsafe {
        // Nothing of our parent's is kept open here: not the pipes of the
        // program (it has them), nor those of other programs our parent
        // was starting at the same time, which would never see their end.
        let closed = status > 0
            && libc::syscall(libc::SYS_close_range, 0u32, (status - 1) as u32, 0u32) == 0
            && libc::syscall(libc::SYS_close_range, (status + 1) as u32, u32::MAX, 0u32) == 0;
        if !closed {
            for fd in 0..4096 {
                if fd != status {
                    libc::close(fd);
                }
            }
        }
        let no_core = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        libc::setrlimit(libc::RLIMIT_CORE, &no_core);
        let start = now();
        let limit_ns = limit.as_nanos().min(i64::MAX as u128) as i64;
        let mut how: Option<i32> = None;
        let mut timed_out = false;
        let mut pause = FIRST_PAUSE.as_nanos() as i64;
        let longest = LONGEST_PAUSE.as_nanos() as i64;
        loop {
            let mut st = 0;
            let pid = libc::waitpid(-1, &mut st, libc::WNOHANG);
            if pid == program {
                how = Some(st);
                break;
            }
            if pid > 0 {
                continue;
            }
            if pid < 0 {
                break;
            }
            if now() - start >= limit_ns {
                timed_out = true;
                break;
            }
            sleep_ns(pause);
            pause = (pause * 2).min(longest);
        }
        kill_tree(program);
        if timed_out {
            libc::write(status, b"T".as_ptr().cast(), 1);
            libc::_exit(124);
        }
        match how {
            Some(st) if libc::WIFEXITED(st) => libc::_exit(libc::WEXITSTATUS(st)),
            Some(st) if libc::WIFSIGNALED(st) => {
                let sig = libc::WTERMSIG(st);
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = libc::SIG_DFL;
                libc::sigaction(sig, &action, std::ptr::null_mut());
                let mut set: libc::sigset_t = std::mem::zeroed();
                libc::sigemptyset(&mut set);
                libc::sigaddset(&mut set, sig);
                libc::sigprocmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut());
                libc::kill(libc::getpid(), sig);
                libc::_exit(128 + sig)
            }
            _ => libc::_exit(125),
        }
    }
}

/// Monotonic nanoseconds.
fn now() -> i64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime(2) writes the struct we pass.
    unsafe {
        libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts);
    }
    ts.tv_sec
        .saturating_mul(1_000_000_000)
        .saturating_add(ts.tv_nsec)
}

fn sleep_ns(ns: i64) {
    let ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: ns,
    };
    // SAFETY: nanosleep(2) reads the struct we pass.
    unsafe {
        libc::nanosleep(&ts, std::ptr::null_mut());
    }
}

/// Kills every process left under the supervisor: the program's group
/// first, then, over and over, the supervisor's own children (a killed
/// process's children become ours, as we are their subreaper) until none
/// is left. Without `/proc/<pid>/task/<pid>/children` only the group is
/// killed.
///
/// # Safety
/// As [`supervisor`].
unsafe fn kill_tree(program: i32) {
    // SAFETY: async-signal-safe calls on local buffers.
    unsafe {
        libc::kill(-program, libc::SIGKILL);
        // "/proc/<pid>/task/<pid>/children", built without allocating.
        let mut path = [0u8; 64];
        let mut len = 0;
        let me = libc::getpid();
        for part in [
            &b"/proc/"[..],
            &digits(me).0[..digits(me).1],
            b"/task/",
            &digits(me).0[..digits(me).1],
            b"/children\0",
        ] {
            path[len..len + part.len()].copy_from_slice(part);
            len += part.len();
        }
        let give_up = now() + 5_000_000_000;
        loop {
            let mut st = 0;
            while libc::waitpid(-1, &mut st, libc::WNOHANG) > 0 {}
            let fd = libc::open(path.as_ptr().cast(), libc::O_RDONLY | libc::O_CLOEXEC);
            if fd < 0 {
                // No children file: reap what the group kill ended, briefly.
                if libc::waitpid(-1, &mut st, libc::WNOHANG) < 0 || now() > give_up {
                    return;
                }
                sleep_ns(1_000_000);
                continue;
            }
            let mut buf = [0u8; 4096];
            let n = libc::read(fd, buf.as_mut_ptr().cast(), buf.len());
            libc::close(fd);
            let mut any = false;
            let mut pid: i32 = 0;
            for &b in &buf[..n.max(0) as usize] {
                if b.is_ascii_digit() {
                    pid = pid.saturating_mul(10).saturating_add(i32::from(b - b'0'));
                } else {
                    if pid > 0 {
                        libc::kill(pid, libc::SIGKILL);
                        any = true;
                    }
                    pid = 0;
                }
            }
            if pid > 0 {
                libc::kill(pid, libc::SIGKILL);
                any = true;
            }
            if !any {
                // Nobody alive under us: reap the last ones and go.
                if libc::waitpid(-1, &mut st, libc::WNOHANG) < 0 || now() > give_up {
                    return;
                }
                sleep_ns(1_000_000);
            } else if now() > give_up {
                return;
            }
        }
    }
}

/// The decimal digits of a pid, in a fixed buffer, and how many.
fn digits(mut n: i32) -> ([u8; 12], usize) {
    let mut rev = [0u8; 12];
    let mut len = 0;
    loop {
        rev[len] = b'0' + (n % 10) as u8;
        len += 1;
        n /= 10;
        if n == 0 || len == rev.len() {
            break;
        }
    }
    let mut out = [0u8; 12];
    for i in 0..len {
        out[i] = rev[len - 1 - i];
    }
    (out, len)
}
