//! The spawner (Linux): one small process, our binary started once with
//! [`SPAWNER`], that forks each child's supervisor for us, so that a
//! compiler or program start costs a fork of a small single-threaded
//! process, not a start of our binary ([`crate::supervise`]'s `serve`,
//! which pays its loading and linking each time: the figure is on the
//! guide's Performance page) nor a fork of ours.
//!
//! The supervisors it forks are our children (`CLONE_PARENT`): we wait
//! for each, so how a child ended comes from the kernel, and its time
//! counts as ours; we wait for the spawner at our exit.
//!
//! A request is one message on a `SOCK_SEQPACKET` socket: the limits, the
//! directory, the environment's changes, the program and its arguments,
//! NUL-separated, with four descriptors (the child's stdin, stdout and
//! stderr, and the status pipe's write end). The reply is the
//! supervisor's pid, which is also its process group. The caller waits
//! for the supervisor, which ends as the program did, and reads on the
//! status pipe whether it stopped the program at a limit (`T`, `M`) or
//! could not start it (`E` and the error number).

use std::ffi::OsString;
use std::fs::File;
use std::io;
use std::os::fd::{AsRawFd as _, FromRawFd as _, OwnedFd};
use std::os::unix::ffi::{OsStrExt as _, OsStringExt};
use std::process::Command;
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

/// The first argument that starts a binary that calls [`hook`] as the
/// spawner, its socket's descriptor after it.
pub(crate) const SPAWNER: &str = "__companion_spawner";

/// The most program boxes' network namespaces the spawner keeps (a slot
/// past it makes its own): more than programs ever run at once.
const MAX_SLOTS: usize = 256;

/// The largest request: a compiler's command line with its `--extern`s
/// and environment fits many times over.
const REQUEST: usize = 256 << 10;

/// For a binary's `main`, first thing: started as the spawner
/// ([`SPAWNER`]) or as a supervisor (`supervise::SUPERVISE`), does that
/// and exits; otherwise makes this binary the one started as the spawner
/// and, when the spawner cannot take a request, as a supervisor.
pub(crate) fn hook() {
    let mut args = std::env::args_os().skip(1);
    match args.next() {
        Some(a) if a == crate::supervise::SUPERVISE => crate::supervise::serve(args.collect()),
        Some(a) if a == SPAWNER => {
            let socket = args.next().and_then(|s| s.to_str()?.parse().ok());
            serve(socket.unwrap_or(-1))
        }
        _ => {}
    }
    // `/proc/self/exe` names this binary even if its file is replaced.
    let me = std::path::PathBuf::from("/proc/self/exe");
    if me.exists() {
        crate::supervise::set_program(me);
    }
}

/// Our end of the spawner's socket; requests and replies one at a time.
struct Spawner {
    socket: OwnedFd,
    turn: Mutex<()>,
    /// A request or its reply failed (the spawner stopped answering in
    /// time): a late reply would answer the next request, so none is
    /// sent again.
    broken: std::sync::atomic::AtomicBool,
}

/// A child the spawner started: its supervisor's pid (and group), the
/// status pipe's read end, and our ends of its standard streams.
pub(crate) struct Spawned {
    pub pid: i32,
    pub status: OwnedFd,
    pub stdin: File,
    pub stdout: File,
    pub stderr: File,
    /// The network namespace its program's box took, held until the
    /// supervisor has been waited for.
    pub net: Option<NetSlot>,
}

/// A program box's network namespace, one program at a time: a number
/// the spawner keeps one under (made as the compilers' is), free again
/// when dropped, once the supervisor (so everything in the box) ended.
/// No program shares it with one that runs (two may each listen on one
/// port, none reach another's), yet the kernel makes one per slot, not
/// per program (the cost: the guide's Performance page).
pub(crate) struct NetSlot(u32);

/// The slots free to take, and how many were made.
static NET_SLOTS: Mutex<(Vec<u32>, u32)> = Mutex::new((Vec::new(), 0));

impl NetSlot {
    fn take() -> NetSlot {
        let (free, made) = &mut *NET_SLOTS.lock().unwrap_or_else(|e| e.into_inner());
        *made += u32::from(free.is_empty());
        NetSlot(free.pop().unwrap_or(*made - 1))
    }
}

impl Drop for NetSlot {
    fn drop(&mut self) {
        (NET_SLOTS.lock().unwrap_or_else(|e| e.into_inner()).0).push(self.0);
    }
}

/// The spawner, started the first time it is asked for (`None` when this
/// binary cannot be started as one, as in the engine's own tests).
fn spawner() -> Option<&'static Spawner> {
    static SPAWNER_: OnceLock<Option<Spawner>> = OnceLock::new();
    SPAWNER_
        .get_or_init(|| {
            let program = crate::supervise::program()?;
            let [ours, theirs] = socket_pair().ok()?;
            // No wait on it without a limit: a spawner that stops
            // answering (stopped, or gone) costs a request its time, and
            // the binary is started as the supervisor instead.
            let limit = libc::timeval {
                tv_sec: 10,
                tv_usec: 0,
            };
            for option in [libc::SO_RCVTIMEO, libc::SO_SNDTIMEO] {
                // SAFETY: setsockopt(2) on our socket, reading the struct.
                unsafe {
                    libc::setsockopt(
                        ours.as_raw_fd(),
                        libc::SOL_SOCKET,
                        option,
                        (&raw const limit).cast(),
                        std::mem::size_of::<libc::timeval>() as u32,
                    );
                }
            }
            // Its end stays open across its exec (another child started
            // meanwhile gets a copy, which only keeps the socket open).
            // SAFETY: fcntl(2) on a descriptor we own.
            if unsafe { libc::fcntl(theirs.as_raw_fd(), libc::F_SETFD, 0) } != 0 {
                return None;
            }
            let started = Command::new(program)
                .arg(SPAWNER)
                .arg(theirs.as_raw_fd().to_string())
                .stdin(std::process::Stdio::null())
                .stdout(std::process::Stdio::null())
                .spawn();
            drop(theirs);
            let child = started.ok()?;
            // At our exit its socket closes and it ends; we wait for it,
            // so that its time counts as ours (as a `time` of the check
            // shows it).
            ENDING.store(ours.as_raw_fd(), std::sync::atomic::Ordering::SeqCst);
            CHILD.store(
                i32::try_from(child.id()).unwrap_or(-1),
                std::sync::atomic::Ordering::SeqCst,
            );
            // SAFETY: atexit(3) with a function that only calls
            // shutdown(2) and waitpid(2).
            unsafe {
                libc::atexit(wait_at_exit);
            }
            Some(Spawner {
                socket: ours,
                turn: Mutex::new(()),
                broken: std::sync::atomic::AtomicBool::new(false),
            })
        })
        .as_ref()
}

/// Our end of the spawner's socket, and the spawner's pid, for
/// [`wait_at_exit`].
static ENDING: std::sync::atomic::AtomicI32 = std::sync::atomic::AtomicI32::new(-1);
static CHILD: std::sync::atomic::AtomicI32 = std::sync::atomic::AtomicI32::new(-1);

/// At our exit: closes our end of the spawner's socket and waits for the
/// spawner (2 s at most: then it is killed).
extern "C" fn wait_at_exit() {
    let socket = ENDING.load(std::sync::atomic::Ordering::SeqCst);
    let child = CHILD.load(std::sync::atomic::Ordering::SeqCst);
    if socket >= 0 && child > 0 {
        // SAFETY: shutdown(2) of our socket; waitpid(2), nanosleep(2) and
        // kill(2) of our child.
        unsafe {
            libc::shutdown(socket, libc::SHUT_RDWR);
            // It ends when its socket closes; one that does not (stopped)
            // is killed after 2 s, so no exit waits for it forever.
            for _ in 0..200 {
                if libc::waitpid(child, std::ptr::null_mut(), libc::WNOHANG) != 0 {
                    return;
                }
                let pause = libc::timespec {
                    tv_sec: 0,
                    tv_nsec: 10_000_000,
                };
                libc::nanosleep(&pause, std::ptr::null_mut());
            }
            libc::kill(child, libc::SIGKILL);
            libc::waitpid(child, std::ptr::null_mut(), 0);
        }
    }
}

/// Two connected `SOCK_SEQPACKET` sockets, closed on exec.
fn socket_pair() -> io::Result<[OwnedFd; 2]> {
    let mut fds = [0i32; 2];
    // SAFETY: socketpair(2) writes two descriptors into the array we pass;
    // we own them from then on.
    unsafe {
        if libc::socketpair(
            libc::AF_UNIX,
            libc::SOCK_SEQPACKET | libc::SOCK_CLOEXEC,
            0,
            fds.as_mut_ptr(),
        ) != 0
        {
            return Err(io::Error::last_os_error());
        }
        Ok([OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])])
    }
}

/// A pipe (read end, write end), closed on exec.
fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0i32; 2];
    // SAFETY: pipe2(2) writes two descriptors into the array we pass.
    unsafe {
        if libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok((OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])))
    }
}

/// Starts `cmd`'s program through the spawner, under a supervisor with
/// these limits, in `cmd`'s directory and environment; `None` when there
/// is no spawner, or it could not take the request (the caller starts
/// the child itself).
pub(crate) fn spawn(
    cmd: &Command,
    limit: Duration,
    memory: Option<u64>,
    resident: Option<u64>,
    sandbox: Option<&crate::sandbox::Sandbox>,
) -> Option<io::Result<Spawned>> {
    let spawner = spawner()?;
    let streams = (|| Ok::<_, io::Error>((pipe()?, pipe()?, pipe()?, pipe()?)))();
    if let Ok((_, _, _, (status, _))) = &streams {
        // Read once the supervisor has ended, without waiting.
        // SAFETY: fcntl(2) on a descriptor we own.
        unsafe {
            libc::fcntl(status.as_raw_fd(), libc::F_SETFL, libc::O_NONBLOCK);
        }
    }
    let ((in_r, in_w), (out_r, out_w), (err_r, err_w), (st_r, st_w)) = match streams {
        Ok(s) => s,
        Err(e) => return Some(Err(e)),
    };
    let net = sandbox
        .is_some_and(|s| !s.compiler && !s.lesser)
        .then(NetSlot::take);
    let limits = [
        limit
            .as_nanos()
            .min(i64::MAX as u128)
            .to_string()
            .into_bytes(),
        crate::supervise::limit_arg(memory).into_bytes(),
        crate::supervise::limit_arg(resident).into_bytes(),
    ];
    let message = request(cmd, limits, sandbox, net.as_ref())?;
    let pid = {
        let _turn = spawner.turn.lock().unwrap_or_else(|e| e.into_inner());
        if spawner.broken.load(std::sync::atomic::Ordering::SeqCst) {
            return None;
        }
        let passed = [&in_r, &out_w, &err_w, &st_w].map(|fd| fd.as_raw_fd());
        if send(&spawner.socket, &message, &passed).is_err() {
            spawner
                .broken
                .store(true, std::sync::atomic::Ordering::SeqCst);
            return None;
        }
        let mut reply = [0u8; 4];
        // SAFETY: recv(2) into a local buffer.
        let n = unsafe {
            libc::recv(
                spawner.socket.as_raw_fd(),
                reply.as_mut_ptr().cast(),
                reply.len(),
                0,
            )
        };
        if n != 4 {
            spawner
                .broken
                .store(true, std::sync::atomic::Ordering::SeqCst);
            return None;
        }
        i32::from_le_bytes(reply)
    };
    drop((in_r, out_w, err_w, st_w));
    if pid <= 0 {
        return Some(Err(io::Error::from_raw_os_error(-pid)));
    }
    Some(Ok(Spawned {
        pid,
        status: st_r,
        stdin: File::from(in_w),
        stdout: File::from(out_r),
        stderr: File::from(err_r),
        net,
    }))
}

/// The request for `cmd` as the spawner reads it ([`parse`]): its limits
/// (time, memory, resident), directory, box and network slot,
/// environment, program and arguments, separated by NUL; `None` when a
/// field holds a NUL or it is too long.
fn request(
    cmd: &Command,
    limits: [Vec<u8>; 3],
    sandbox: Option<&crate::sandbox::Sandbox>,
    net: Option<&NetSlot>,
) -> Option<Vec<u8>> {
    let [time, memory, resident] = limits;
    let mut fields: Vec<Vec<u8>> = vec![
        time,
        memory,
        resident,
        cmd.get_current_dir()
            .map(|d| d.as_os_str().as_bytes().to_vec())
            .unwrap_or_default(),
    ];
    fields.extend(
        crate::supervise::box_args(sandbox)
            .into_iter()
            .map(OsStringExt::into_vec),
    );
    fields.push(net.map_or_else(|| b"-".to_vec(), |n| n.0.to_string().into_bytes()));
    let envs: Vec<Vec<u8>> = cmd
        .get_envs()
        .map(|(key, value)| match value {
            Some(value) => [b"+", key.as_bytes(), b"=", value.as_bytes()].concat(),
            None => [b"-", key.as_bytes()].concat(),
        })
        .collect();
    fields.push(envs.len().to_string().into_bytes());
    fields.extend(envs);
    fields.push(cmd.get_program().as_bytes().to_vec());
    fields.extend(cmd.get_args().map(|a| a.as_bytes().to_vec()));
    if fields.iter().any(|f| f.contains(&0)) {
        return None;
    }
    let message = fields.join(&0u8);
    (message.len() <= REQUEST).then_some(message)
}

/// Sends `message` with the descriptors `fds` on `socket`.
fn send(socket: &OwnedFd, message: &[u8], fds: &[i32; 4]) -> io::Result<()> {
    let size = std::mem::size_of_val(fds) as u32;
    // SAFETY: sendmsg(2) of a message whose buffers (the data, and a
    // control buffer sized by CMSG_SPACE for the descriptors) live on this
    // stack frame; the CMSG_* macros only compute offsets into it.
    unsafe {
        let mut control = vec![0u8; libc::CMSG_SPACE(size) as usize];
        let mut iov = libc::iovec {
            iov_base: message.as_ptr().cast_mut().cast(),
            iov_len: message.len(),
        };
        let mut msg: libc::msghdr = std::mem::zeroed();
        msg.msg_iov = &mut iov;
        msg.msg_iovlen = 1;
        msg.msg_control = control.as_mut_ptr().cast();
        msg.msg_controllen = control.len() as _;
        let header = libc::CMSG_FIRSTHDR(&msg);
        if header.is_null() {
            return Err(io::Error::other("no room for the descriptors"));
        }
        (*header).cmsg_level = libc::SOL_SOCKET;
        (*header).cmsg_type = libc::SCM_RIGHTS;
        (*header).cmsg_len = libc::CMSG_LEN(size) as _;
        std::ptr::copy_nonoverlapping(
            fds.as_ptr().cast::<u8>(),
            libc::CMSG_DATA(header),
            size as usize,
        );
        if libc::sendmsg(socket.as_raw_fd(), &msg, libc::MSG_NOSIGNAL) < 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

/// The spawner's loop, on the socket `socket`: a request at a time, a
/// supervisor forked for each ([`crate::supervise`]'s `serve`, in the
/// directory and environment asked for, the streams and status pipe
/// received as its own); ends when the socket closes. Never returns.
pub(crate) fn serve(socket: i32) -> ! {
    // SAFETY: a single-threaded process (the binary's `main` called the
    // hook first): signal disposition, recvmsg into buffers of this frame,
    // fork; the child only sets up its descriptors, directory and
    // environment before becoming the supervisor.
    unsafe {
        let mut buffer = vec![0u8; REQUEST + 1];
        // Made at the first compiler's box asked for (`None` after: the
        // kernel refused, each box makes its own).
        let mut shared: Option<Option<crate::sandbox::SharedNet>> = None;
        // A program box's, by its slot ([`NetSlot`]), made at its first
        // use (`None` after: the kernel refused, the box makes its own).
        let mut slots: Vec<Option<Option<crate::sandbox::SharedNet>>> = Vec::new();
        let mut control = vec![0u8; libc::CMSG_SPACE(16) as usize];
        loop {
            let mut iov = libc::iovec {
                iov_base: buffer.as_mut_ptr().cast(),
                iov_len: buffer.len(),
            };
            let mut msg: libc::msghdr = std::mem::zeroed();
            msg.msg_iov = &mut iov;
            msg.msg_iovlen = 1;
            msg.msg_control = control.as_mut_ptr().cast();
            msg.msg_controllen = control.len() as _;
            let n = libc::recvmsg(socket, &mut msg, libc::MSG_CMSG_CLOEXEC);
            if n == 0 {
                libc::_exit(0);
            }
            if n < 0 {
                match io::Error::last_os_error().kind() {
                    io::ErrorKind::Interrupted => continue,
                    _ => libc::_exit(1),
                }
            }
            let mut fds = [-1i32; 4];
            let header = libc::CMSG_FIRSTHDR(&msg);
            if !header.is_null()
                && (*header).cmsg_type == libc::SCM_RIGHTS
                && (*header).cmsg_len as usize >= libc::CMSG_LEN(16) as usize
            {
                std::ptr::copy_nonoverlapping(
                    libc::CMSG_DATA(header),
                    fds.as_mut_ptr().cast::<u8>(),
                    16,
                );
            }
            let request = parse(&buffer[..n as usize]);
            let make = || crate::sandbox::SharedNet::make().ok();
            let net = match &request {
                Some(r) if r.compiler => shared.get_or_insert_with(make).as_ref(),
                Some(Request { slot: Some(n), .. }) if *n < MAX_SLOTS => {
                    if slots.len() <= *n {
                        slots.resize_with(n + 1, || None);
                    }
                    slots[*n].get_or_insert_with(make).as_ref()
                }
                _ => None,
            };
            let pid = match (fds.iter().all(|fd| *fd >= 0), request) {
                // A fork whose parent is our caller (`CLONE_PARENT`): it
                // waits for the supervisor as its own child, so how the
                // child ended comes from the kernel, never from a pipe
                // the program could write to.
                (true, Some(request)) => match libc::syscall(
                    libc::SYS_clone,
                    libc::CLONE_PARENT | libc::SIGCHLD,
                    0,
                    0,
                    0,
                    0,
                ) {
                    0 => start(socket, fds, request, net),
                    -1 => -io::Error::last_os_error()
                        .raw_os_error()
                        .unwrap_or(libc::EAGAIN),
                    pid => i32::try_from(pid).unwrap_or(-libc::EINVAL),
                },
                _ => -libc::EINVAL,
            };
            for fd in fds.into_iter().filter(|fd| *fd >= 0) {
                libc::close(fd);
            }
            let reply = pid.to_le_bytes();
            libc::send(
                socket,
                reply.as_ptr().cast(),
                reply.len(),
                libc::MSG_NOSIGNAL,
            );
        }
    }
}

/// A request as the spawner reads it.
struct Request {
    /// The limits, as `serve` takes them: time, memory, resident.
    limits: [OsString; 3],
    dir: Option<OsString>,
    /// The box, as [`crate::supervise::serve`] takes it (`-` for none).
    sandbox: Vec<OsString>,
    /// It is a compiler's box (that joins the shared network namespace).
    compiler: bool,
    /// A program's box: the slot of the network namespace it joins.
    slot: Option<usize>,
    /// `(key, Some(value))` to set, `(key, None)` to remove.
    env: Vec<(OsString, Option<OsString>)>,
    /// The program, then its arguments.
    command: Vec<OsString>,
}

fn parse(request: &[u8]) -> Option<Request> {
    let mut fields = request
        .split(|b| *b == 0)
        .map(|f| OsString::from_vec(f.to_vec()));
    let limits = [fields.next()?, fields.next()?, fields.next()?];
    let dir = fields.next().filter(|d| !d.is_empty());
    let mut sandbox = vec![fields.next()?];
    let mut compiler = false;
    if sandbox[0] == "box" {
        let decoded = crate::sandbox::Sandbox::decode(&mut fields)?;
        compiler = decoded.compiler && !decoded.lesser;
        sandbox = crate::supervise::box_args(Some(&decoded));
    }
    let slot = fields.next()?.to_str()?.parse().ok();
    let count: usize = fields.next()?.to_str()?.parse().ok()?;
    let mut env = Vec::with_capacity(count);
    for _ in 0..count {
        let entry = fields.next()?.into_vec();
        let (op, rest) = entry.split_first()?;
        env.push(match op {
            b'+' => {
                let at = rest.iter().position(|b| *b == b'=')?;
                (
                    OsString::from_vec(rest[..at].to_vec()),
                    Some(OsString::from_vec(rest[at + 1..].to_vec())),
                )
            }
            _ => (OsString::from_vec(rest.to_vec()), None),
        });
    }
    let command: Vec<OsString> = fields.collect();
    (!command.is_empty()).then_some(Request {
        limits,
        dir,
        sandbox,
        compiler,
        slot,
        env,
        command,
    })
}

/// The forked child: takes the received streams as its own, in a group of
/// its own, in the request's directory and environment, and becomes the
/// supervisor (in the shared network namespace `net`, for a compiler's
/// box). Never returns.
///
/// # Safety
/// Runs in a child forked from the single-threaded spawner.
unsafe fn start(
    socket: i32,
    fds: [i32; 4],
    request: Request,
    net: Option<&crate::sandbox::SharedNet>,
) -> ! {
    // SAFETY: see the function's contract.
    unsafe {
        libc::setpgid(0, 0);
        if let Some(net) = net {
            net.join();
        }
        libc::close(socket);
        for (fd, target) in fds.iter().take(3).zip(0..) {
            libc::dup2(*fd, target);
        }
        for fd in fds.iter().take(3) {
            if *fd > 2 {
                libc::close(*fd);
            }
        }
        let status = fds[3];
        if let Some(dir) = &request.dir
            && std::env::set_current_dir(dir).is_err()
        {
            crate::supervise::start_failed(status);
        }
        for (key, value) in &request.env {
            match value {
                Some(value) => std::env::set_var(key, value),
                None => std::env::remove_var(key),
            }
        }
        let [time, memory, resident] = request.limits;
        let mut args = vec![time, memory, resident, OsString::from(status.to_string())];
        args.extend(request.sandbox);
        args.extend(request.command);
        crate::supervise::serve(args)
    }
}
