//! The supervisor between us and a child on Linux (see
//! [`exec`](super::exec)): a child subreaper
//! (`prctl(PR_SET_CHILD_SUBREAPER)`), which waits for the program, kills
//! everything left under it when the program exits, the time limit passes
//! or (when it is given one) the tree's resident memory goes over its
//! limit, and ends as the program did.
//!
//! It is started one of three ways. In a binary that runs the spawner's
//! hook first thing (ours), the spawner (module `spawner`, this binary
//! started once) forks it from its own small process; when the spawner cannot
//! take a request, this binary is started again as the supervisor
//! ([`SUPERVISE`]), a `posix_spawn` of a small new process. Either way
//! the supervisor forks the program. Forking ourselves instead copies our
//! page tables (threads, allocator arenas) twice a program, and after
//! each fork our own writes fault; starting the binary each time costs
//! more than the spawner (both measured on the Reference's cold check:
//! the figures are on the guide's Performance page).
//! Otherwise (the engine's own tests) it is forked in the child's
//! `pre_exec` hook. Everything here that runs in a process forked from a
//! multithreaded one is async-signal-safe and allocates nothing.

use std::ffi::{CString, OsString};
use std::io;
use std::os::unix::ffi::OsStrExt as _;
use std::process::Command;
use std::sync::OnceLock;
use std::time::Duration;

use crate::sandbox::Sandbox;

mod tree;
use tree::{each_child, tree_resident};

/// The first argument that starts a binary that runs the spawner's hook
/// as the supervisor of the program named after it ([`serve`]).
pub(crate) const SUPERVISE: &str = "__companion_supervise";

/// The binary to start as the supervisor ([`set_program`]); unset, the
/// supervisor is forked from us.
static PROGRAM: OnceLock<std::path::PathBuf> = OnceLock::new();

/// A memory limit as [`serve`] reads it: bytes, or `-` for none.
pub(crate) fn limit_arg(bytes: Option<u64>) -> String {
    bytes.map_or_else(|| "-".to_owned(), |b| b.to_string())
}

/// The binary the spawner's hook made the supervisor's, if any.
pub(crate) fn program() -> Option<&'static std::path::Path> {
    PROGRAM.get().map(std::path::PathBuf::as_path)
}

/// Makes `binary` (one whose `main` runs the spawner's hook first) the
/// one started as a supervisor from now on.
pub(crate) fn set_program(binary: std::path::PathBuf) {
    let _ = PROGRAM.set(binary);
}

/// How long the first wait for a child's end lasts; each next one twice
/// as long, up to [`LONGEST_PAUSE`]: a program that ends within a
/// millisecond (most of a book's) is seen to end then, not at the next
/// 2 ms tick, and a long one costs a wake-up every 2 ms.
pub(super) const FIRST_PAUSE: Duration = Duration::from_micros(50);

/// The longest wait between two looks at a child.
pub(super) const LONGEST_PAUSE: Duration = Duration::from_millis(2);

/// A limit the supervisor stopped a program at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Limit {
    /// The time limit passed (`T` on the status pipe).
    Time,
    /// The tree's resident memory went over its limit (`M`).
    Memory,
    /// The program could not be started (`E` and the error's number).
    Start(i32),
}

/// The limit the supervisor wrote on its status pipe, if it stopped the
/// program at one. Closes the read end.
pub(super) fn read_status(fd: i32) -> Option<Limit> {
    let mut bytes = [0u8; 5];
    // SAFETY: a non-blocking read into a local buffer, from a pipe we own,
    // then closing it.
    let n = unsafe {
        let n = libc::read(fd, bytes.as_mut_ptr().cast(), bytes.len());
        libc::close(fd);
        n
    };
    match (n, bytes[0]) {
        (1.., b'T') => Some(Limit::Time),
        (1.., b'M') => Some(Limit::Memory),
        (5, b'E') => Some(Limit::Start(i32::from_le_bytes([
            bytes[1], bytes[2], bytes[3], bytes[4],
        ]))),
        _ => None,
    }
}

/// Puts the supervisor between us and the child `cmd` would start.
/// With a binary to start as the supervisor ([`set_program`]): returns the
/// command to start instead of `cmd`, that binary with [`SUPERVISE`],
/// the limits and `cmd`'s program and arguments, in `cmd`'s directory and
/// environment (its standard streams and group are the caller's to set).
/// Otherwise: a `pre_exec` hook on `cmd` that forks. The forked-off
/// grandchild goes on to become the program (with its address-space
/// limit, `memory`); the hook's own process never returns: it is the
/// supervisor ([`supervisor`]), which also holds the tree to `resident`
/// bytes of resident memory. Either way, also returns the status pipe
/// (read end, write end).
pub(super) fn supervise(
    cmd: &mut Command,
    limit: Duration,
    memory: Option<u64>,
    resident: Option<u64>,
    sandbox: Option<&Sandbox>,
) -> io::Result<((i32, i32), Option<Command>)> {
    use std::os::unix::process::CommandExt as _;
    // SAFETY: sysconf(3) reads a constant of the system.
    let page = u64::try_from(unsafe { libc::sysconf(libc::_SC_PAGESIZE) })
        .unwrap_or(4096)
        .max(1);
    let resident_pages = resident.map(|bytes| bytes / page);
    let mut fds = [0i32; 2];
    // SAFETY: pipe2(2) writes two descriptors into the array we pass.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC | libc::O_NONBLOCK) } != 0 {
        return Err(io::Error::last_os_error());
    }
    let (read_end, write_end) = (fds[0], fds[1]);
    if let Some(program) = PROGRAM.get() {
        // The write end is the supervisor's to keep across its exec. Any
        // other child started meanwhile gets a copy too: the supervisors
        // close theirs first thing, and a copy held elsewhere only keeps
        // the pipe open, which the non-blocking read after the
        // supervisor's end does not wait for.
        // SAFETY: fcntl(2) on a descriptor we own.
        if unsafe { libc::fcntl(write_end, libc::F_SETFD, 0) } != 0 {
            let e = io::Error::last_os_error();
            // SAFETY: closing the descriptors we just made.
            unsafe {
                libc::close(read_end);
                libc::close(write_end);
            }
            return Err(e);
        }
        let mut sup = Command::new(program);
        sup.arg(SUPERVISE)
            .arg(limit.as_nanos().min(i64::MAX as u128).to_string())
            .arg(limit_arg(memory))
            .arg(limit_arg(resident))
            .arg(write_end.to_string())
            .args(box_args(sandbox))
            .arg(cmd.get_program())
            .args(cmd.get_args());
        if let Some(dir) = cmd.get_current_dir() {
            sup.current_dir(dir);
        }
        for (key, value) in cmd.get_envs() {
            match value {
                Some(value) => sup.env(key, value),
                None => sup.env_remove(key),
            };
        }
        return Ok(((read_end, write_end), Some(sup)));
    }
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
                program => supervisor(program, limit, resident_pages, write_end, false),
            }
        });
    }
    Ok(((read_end, write_end), None))
}

/// A box as [`serve`] takes it among its arguments: `-` for none, else
/// `box` and its fields.
pub(crate) fn box_args(sandbox: Option<&Sandbox>) -> Vec<OsString> {
    use std::os::unix::ffi::OsStringExt as _;
    match sandbox {
        None => vec![OsString::from("-")],
        Some(sandbox) => {
            let mut fields = vec![b"box".to_vec()];
            sandbox.encode(&mut fields);
            fields.into_iter().map(OsString::from_vec).collect()
        }
    }
}

/// The supervisor started as a binary of its own ([`SUPERVISE`]), `args`
/// being the time limit in nanoseconds, the address-space and resident
/// limits in bytes (`-` for none), the status pipe's descriptor, then the
/// program and its arguments: forks the program (in a group of its own,
/// with its address-space limit) and supervises it ([`supervisor`]).
/// Never returns. Its standard streams, directory and environment are
/// the program's.
pub(crate) fn serve(args: Vec<OsString>) -> ! {
    let number = |a: Option<&OsString>| a.and_then(|a| a.to_str()?.parse::<u64>().ok());
    let status = number(args.get(3)).and_then(|fd| i32::try_from(fd).ok());
    let mut rest = args.iter().skip(4).cloned();
    let sandbox = match rest.next() {
        Some(flag) if flag == "box" => Sandbox::decode(&mut rest).map(Some),
        Some(flag) if flag == "-" => Some(None),
        _ => None,
    };
    let program: Vec<CString> = rest
        .filter_map(|a| CString::new(a.as_bytes()).ok())
        .collect();
    let (Some(limit), Some(status), Some(sandbox), false) =
        (number(args.first()), status, sandbox, program.is_empty())
    else {
        eprintln!(
            "{SUPERVISE}: TIMEOUT_NS MEMORY RESIDENT STATUS_FD (-|box BOX...) PROGRAM [ARGS...]"
        );
        std::process::exit(125);
    };
    let (memory, resident) = (number(args.get(1)), number(args.get(2)));
    // SAFETY: sysconf(3) reads a constant of the system.
    let page = u64::try_from(unsafe { libc::sysconf(libc::_SC_PAGESIZE) })
        .unwrap_or(4096)
        .max(1);
    let mut argv: Vec<*const libc::c_char> = program.iter().map(|a| a.as_ptr()).collect();
    argv.push(std::ptr::null());
    // SAFETY: a single-threaded process (this binary's `main` ran the
    // spawner's hook first): descriptors, prctl, fork, exec on buffers made
    // above; the child writes only to the status pipe before `_exit`.
    unsafe {
        // Copies of other supervisors' status pipes, started beside us.
        if status > 3 {
            libc::syscall(libc::SYS_close_range, 3u32, (status - 1) as u32, 0u32);
        }
        libc::syscall(libc::SYS_close_range, (status + 1) as u32, u32::MAX, 0u32);
        // Closed on the program's exec: open only if that fails.
        libc::fcntl(status, libc::F_SETFD, libc::FD_CLOEXEC);
        let subreaper = libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0;
        if let Some(sandbox) = sandbox.as_ref().filter(|s| !s.lesser) {
            boxed(
                sandbox,
                &argv,
                memory,
                status,
                (limit, resident.map(|b| b / page)),
            );
        }
        let work = std::env::current_dir().unwrap_or_else(|_| "/".into());
        let pid = match subreaper {
            true => libc::fork(),
            // No supervisor possible: run the program directly.
            false => 0,
        };
        match pid {
            -1 => start_failed(status),
            0 => {
                if subreaper {
                    libc::setpgid(0, 0);
                }
                if limit_memory(memory).is_err() {
                    start_failed(status);
                }
                if let Some(lesser) = &sandbox
                    && crate::sandbox::landlock(lesser, &work).is_err()
                {
                    start_failed(status);
                }
                // As `std::process::Command` starts a child: SIGPIPE back to
                // its default (this binary's runtime ignores it, and an
                // ignored signal stays ignored across exec).
                libc::signal(libc::SIGPIPE, libc::SIG_DFL);
                libc::execvp(argv[0], argv.as_ptr());
                start_failed(status)
            }
            program => {
                // The program has the streams; the supervisor keeps only
                // its status pipe.
                if status > 0 {
                    libc::syscall(libc::SYS_close_range, 0u32, (status - 1) as u32, 0u32);
                }
                let limit = Duration::from_nanos(limit);
                supervisor(program, limit, resident.map(|b| b / page), status, false)
            }
        }
    }
}

/// [`serve`]'s work for a program in a box ([`crate::sandbox`]): the
/// supervisor forks the box's `init` (pid 1 of a namespace of its own),
/// which makes the box and forks the program, waits for it and writes its
/// wait status on a pipe only the supervisor reads (the program cannot
/// reach `init`: it has no pid for the supervisor, `init` is not dumpable
/// and the program has no capabilities). The supervisor ends as the
/// program did. A compiler's box has no `init`: the compiler is its pid 1
/// ([`compiler_boxed`]). Never returns.
///
/// # Safety
/// As [`serve`]'s body: a single-threaded process.
unsafe fn boxed(
    sandbox: &Sandbox,
    argv: &[*const libc::c_char],
    memory: Option<u64>,
    status: i32,
    (limit, resident): (u64, Option<u64>),
) -> ! {
    // SAFETY: see the function's contract.
    unsafe {
        let work = std::env::current_dir().unwrap_or_else(|_| "/".into());
        if sandbox.compiler {
            compiler_boxed(sandbox, &work, argv, memory, status, (limit, resident));
        }
        let mut result = [0i32; 2];
        if libc::pipe2(result.as_mut_ptr(), libc::O_CLOEXEC) != 0
            || crate::sandbox::new_namespaces().is_err()
        {
            start_failed(status);
        }
        match libc::fork() {
            -1 => start_failed(status),
            0 => {
                libc::close(result[0]);
                libc::setpgid(0, 0);
                if crate::sandbox::enter(sandbox, &work).is_err() {
                    start_failed(status);
                }
                libc::prctl(libc::PR_SET_DUMPABLE, 0, 0, 0, 0);
                match libc::fork() {
                    -1 => start_failed(status),
                    0 => {
                        if crate::sandbox::drop_privileges().is_err()
                            || limit_memory(memory).is_err()
                        {
                            start_failed(status);
                        }
                        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
                        libc::execvp(argv[0], argv.as_ptr());
                        start_failed(status)
                    }
                    program => {
                        libc::close(status);
                        init(program, result[1])
                    }
                }
            }
            init => {
                libc::close(result[1]);
                // The result pipe's read end just after the status pipe,
                // which the supervisor keeps open with it.
                if libc::dup2(result[0], status + 1) < 0 {
                    start_failed(status);
                }
                let limit = Duration::from_nanos(limit);
                supervisor(init, limit, resident, status, true)
            }
        }
    }
}

/// [`boxed`] for a compiler: the compiler is pid 1 of its box and the
/// supervisor's own child, so how it ended is the kernel's word (no
/// `init` to tell it), and when it ends the kernel kills what is left in
/// the box. It is started by [`spawn_sharing`]: the box is made, and the
/// compiler exec'd, in a process that shares the supervisor's memory
/// until its exec, so a compile costs one copy of the spawner's page
/// tables (the supervisor's), not three (also `init`'s and the
/// compiler's), and one process's end fewer (the figures: the guide's
/// Performance page). Never returns.
///
/// # Safety
/// As [`serve`]'s body: a single-threaded process.
unsafe fn compiler_boxed(
    sandbox: &Sandbox,
    work: &std::path::Path,
    argv: &[*const libc::c_char],
    memory: Option<u64>,
    status: i32,
    (limit, resident): (u64, Option<u64>),
) -> ! {
    // SAFETY: see the function's contract; the child runs while we are
    // suspended and ends in its exec or `_exit`.
    unsafe {
        if crate::sandbox::new_namespaces().is_err() {
            start_failed(status);
        }
        let compiler = spawn_sharing(&mut || {
            libc::setpgid(0, 0);
            if crate::sandbox::enter(sandbox, work).is_err()
                || crate::sandbox::drop_privileges().is_err()
                || limit_memory(memory).is_err()
            {
                start_failed(status);
            }
            libc::signal(libc::SIGPIPE, libc::SIG_DFL);
            libc::execvp(argv[0], argv.as_ptr());
            start_failed(status)
        });
        if compiler < 0 {
            start_failed(status);
        }
        supervisor(
            compiler,
            Duration::from_nanos(limit),
            resident,
            status,
            false,
        )
    }
}

/// Starts `child` in a new process that shares our memory until it execs
/// or ends (`clone(CLONE_VM | CLONE_VFORK)`, as `posix_spawn` starts a
/// program), on a stack of its own; we are suspended until then. No copy
/// of our page tables is made, and its exec unmaps nothing of ours.
/// Returns its pid, or -1.
///
/// # Safety
/// In a single-threaded process. `child` runs in the new process with our
/// memory: what it allocates stays allocated here, and it ends in an
/// exec or `_exit` (should it return, the process exits with 127).
unsafe fn spawn_sharing(child: &mut dyn FnMut()) -> i32 {
    /// The child's stack, above a page it may not touch.
    const STACK: usize = 1 << 20;
    extern "C" fn entry(arg: *mut libc::c_void) -> libc::c_int {
        // SAFETY: `arg` is the `&mut dyn FnMut` of `spawn_sharing`'s
        // frame, which is suspended (and so alive) until we exec or end.
        let child = unsafe { &mut *arg.cast::<&mut dyn FnMut()>() };
        child();
        // SAFETY: _exit(2), should `child` have returned.
        unsafe { libc::_exit(127) }
    }
    // SAFETY: mmap(2), mprotect(2) and munmap(2) of a mapping of our own;
    // clone(2) runs `entry` on its top, while we wait.
    unsafe {
        let page = usize::try_from(libc::sysconf(libc::_SC_PAGESIZE)).unwrap_or(4096);
        let stack = libc::mmap(
            std::ptr::null_mut(),
            STACK + page,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE | libc::MAP_STACK,
            -1,
            0,
        );
        if stack == libc::MAP_FAILED {
            return -1;
        }
        libc::mprotect(stack, page, libc::PROT_NONE);
        let mut child = child;
        let pid = libc::clone(
            entry,
            stack.cast::<u8>().add(STACK + page).cast(),
            libc::CLONE_VM | libc::CLONE_VFORK | libc::SIGCHLD,
            (&raw mut child).cast(),
        );
        libc::munmap(stack, STACK + page);
        pid
    }
}

/// The box's `init`: reaps whatever ends in the box until `program` does,
/// then writes its wait status on `result` and exits, upon which the
/// kernel kills everything left in the box. Never returns.
///
/// # Safety
/// In the box's single-threaded `init`.
unsafe fn init(program: i32, result: i32) -> ! {
    // SAFETY: waitpid(2), write(2) and _exit(2) on values of this frame.
    unsafe {
        loop {
            let mut st = 0;
            let pid = libc::waitpid(-1, &mut st, 0);
            if pid == program {
                let bytes = st.to_le_bytes();
                libc::write(result, bytes.as_ptr().cast(), bytes.len());
                libc::_exit(0);
            }
            if pid < 0 && io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
                libc::_exit(125);
            }
        }
    }
}

/// Writes `E` and the last error's number on the status pipe and ends.
///
/// # Safety
/// As [`supervisor`].
pub(crate) unsafe fn start_failed(status: i32) -> ! {
    let errno = io::Error::last_os_error()
        .raw_os_error()
        .unwrap_or(libc::ENOENT);
    let mut bytes = [b'E', 0, 0, 0, 0];
    bytes[1..].copy_from_slice(&errno.to_le_bytes());
    // SAFETY: write(2) of a local buffer, then _exit(2).
    unsafe {
        libc::write(status, bytes.as_ptr().cast(), bytes.len());
        libc::_exit(127)
    }
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
/// to it), kills the rest of the tree when the program exits, `limit`
/// passes or the tree holds more than `resident` pages of memory (looked
/// at each time it wakes, every 2 ms at most), writes `T` on `status`
/// for a time-out and `M` for memory, and ends as the program did (its
/// exit code, or its signal). Never returns.
///
/// # Safety
/// Runs in a forked child of a multithreaded process: async-signal-safe
/// calls only, no allocation.
unsafe fn supervisor(
    program: i32,
    limit: Duration,
    resident: Option<u64>,
    status: i32,
    boxed: bool,
) -> ! {
    // SAFETY: every call below is async-signal-safe and works on values
    // and buffers local to this function.
    unsafe {
        // Nothing of our parent's is kept open here: not the pipes of the
        // program (it has them), nor those of other programs our parent
        // was starting at the same time, which would never see their end.
        // A box's `init` tells how the program ended on the pipe after
        // the status pipe.
        let result = if boxed { status + 1 } else { -1 };
        close_all_but(status, result);
        let no_core = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        libc::setrlimit(libc::RLIMIT_CORE, &no_core);
        let start = now();
        let limit_ns = limit.as_nanos().min(i64::MAX as u128) as i64;
        let me = libc::getpid();
        // Readable once the program has ended: one sleep until then (or
        // the next look at the tree's memory, or at what else ended).
        let ended = libc::syscall(libc::SYS_pidfd_open, program, 0) as i32;
        let mut how: Option<i32> = None;
        let mut timed_out = false;
        let mut over_memory = false;
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
            if let Some(max) = resident
                && tree_resident(me) > max
            {
                over_memory = true;
                break;
            }
            match (ended >= 0, resident) {
                (true, None) => wait_ns(ended, REAP_PAUSE.min(limit_ns - (now() - start))),
                _ => wait_ns(-1, pause),
            }
            pause = (pause * 2).min(longest);
        }
        kill_tree(program);
        // In a box, how the program ended is what `init` wrote, when it
        // ended as we expect (exit 0 after writing); otherwise `init`'s
        // own end (a start that failed: 127 and its `E` record).
        if boxed
            && let Some(st) = how.filter(|st| libc::WIFEXITED(*st) && libc::WEXITSTATUS(*st) == 0)
        {
            let mut bytes = [0u8; 4];
            let n = libc::read(result, bytes.as_mut_ptr().cast(), bytes.len());
            how = match n {
                4 => Some(i32::from_le_bytes(bytes)),
                _ => Some(st | (125 << 8)),
            };
        }
        if timed_out {
            libc::write(status, b"T".as_ptr().cast(), 1);
            libc::_exit(124);
        }
        if over_memory {
            libc::write(status, b"M".as_ptr().cast(), 1);
            libc::_exit(137);
        }
        end_as(how)
    }
}

/// Closes every descriptor but `status` and `result` (-1 for none), with
/// `close_range(2)` where the kernel has it, one by one where not.
///
/// # Safety
/// As [`supervisor`].
unsafe fn close_all_but(status: i32, result: i32) {
    let kept = status.max(result);
    // SAFETY: close_range(2) and close(2) on descriptor numbers only.
    unsafe {
        let closed = status > 0
            && libc::syscall(libc::SYS_close_range, 0u32, (status - 1) as u32, 0u32) == 0
            && libc::syscall(libc::SYS_close_range, (kept + 1) as u32, u32::MAX, 0u32) == 0;
        if !closed {
            for fd in 0..4096 {
                if fd != status && fd != result {
                    libc::close(fd);
                }
            }
        }
    }
}

/// Ends the supervisor as the program ended: its exit code, or the same
/// signal (its default action restored and unblocked); 125 if unknown.
///
/// # Safety
/// As [`supervisor`].
unsafe fn end_as(how: Option<i32>) -> ! {
    // SAFETY: sigaction(2), sigprocmask(2), kill(2) and _exit(2) on
    // values local to this function.
    unsafe {
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

/// The longest a supervisor that watches no memory waits for its program
/// to end without looking at what else ended under it (orphans handed to
/// it, reaped).
const REAP_PAUSE: i64 = 50_000_000;

/// Waits `ns` nanoseconds at most, or until `fd` (a pidfd; none when
/// negative) is readable.
fn wait_ns(fd: i32, ns: i64) {
    let ts = libc::timespec {
        tv_sec: ns.max(0) / 1_000_000_000,
        tv_nsec: ns.max(0) % 1_000_000_000,
    };
    let mut entry = libc::pollfd {
        fd,
        events: libc::POLLIN,
        revents: 0,
    };
    // SAFETY: ppoll(2) of one entry of this frame (none when `fd` is
    // negative: a sleep), reading the timeout we pass.
    unsafe {
        libc::ppoll(&mut entry, 1, &ts, std::ptr::null());
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
        let me = libc::getpid();
        let give_up = now() + 5_000_000_000;
        loop {
            let mut st = 0;
            while libc::waitpid(-1, &mut st, libc::WNOHANG) > 0 {}
            let mut any = false;
            let listed = each_child(me, |pid| {
                libc::kill(pid, libc::SIGKILL);
                any = true;
            });
            if !listed || !any {
                // No children file, or nobody alive under us: reap what
                // the kills ended, briefly, and go.
                if libc::waitpid(-1, &mut st, libc::WNOHANG) < 0 || now() > give_up {
                    return;
                }
                wait_ns(-1, 1_000_000);
            } else if now() > give_up {
                return;
            }
        }
    }
}
