//! The box a book's program runs in (Linux): what it may see and touch.
//!
//! A box is made by the program's supervisor (module `supervise`), which
//! stays outside it:
//!
//! - **its own PID namespace**: the supervisor forks the box's `init`,
//!   which forks the program; neither the checker, the spawner, the
//!   supervisor nor another block has a pid inside, so none can be
//!   signalled, traced or opened through `/proc` (a fresh one, read-only,
//!   shows only the box). When `init` ends (the program ended, or the
//!   supervisor killed it at a limit) the kernel kills everything left in
//!   the box, however it detached. A compiler's box has no `init`: the
//!   compiler is its pid 1, the supervisor's own child;
//! - **its own mount namespace**: every file system read-only; the cache
//!   (and whatever else the checker names) hidden under an empty one; the
//!   scratch folders' base (`/dev/shm` or `TMPDIR`) replaced by a fresh
//!   memory file system of bounded size that holds the program's folder
//!   (its files seen through an overlay: what it writes goes to the
//!   bounded one and is dropped with the box), its checker's log folder
//!   (the only folder of the host it can write) and the box's `/tmp` and
//!   `/dev/shm`;
//! - **a network namespace no running program shares, and its own IPC
//!   namespace**: a loopback interface and nothing else (the spawner
//!   keeps one namespace a slot and a program takes a free slot: another
//!   program's, once that one's box ended), no System V objects of
//!   anyone else's;
//! - **no privileges**: the program runs with no capabilities, none to
//!   gain (`no_new_privs`, an empty bounding set, root's exec rules
//!   locked off), and `init` is not dumpable, so the program can neither
//!   trace it nor open its descriptors (the pipe on which `init` tells the
//!   supervisor how the program ended).
//!
//! As root these are the kernel's namespaces; otherwise the box starts
//! with a user namespace of its own that maps the user to itself. Where
//! the kernel refuses, the box cannot be made: the checker says so once
//! and runs programs as before (`isolation = "required"` makes it an
//! error). Everything here runs in the single-threaded supervisor or its
//! forks (the spawner's, or our binary started as the supervisor), so it
//! may allocate.

use std::ffi::{CString, OsString};
use std::io;
use std::os::unix::ffi::OsStrExt as _;
use std::path::{Path, PathBuf};

/// What a box holds besides the program's own folder (its working
/// directory), as the checker asks for it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Sandbox {
    /// Bytes the box's memory file system may hold (the program's folder,
    /// `/tmp`, `/dev/shm`).
    pub size: u64,
    /// The folder under which scratch folders are made (replaced in the
    /// box by its own memory file system).
    pub base: PathBuf,
    /// Folders of the host the program may write (its checker's log
    /// folder), seen at their own paths.
    pub writable: Vec<PathBuf>,
    /// Folders hidden under an empty, read-only file system (the cache).
    pub hidden: Vec<PathBuf>,
    /// Folders inside hidden ones seen again, read-only (the book's
    /// built crates a compiler links against).
    pub shown: Vec<PathBuf>,
    /// Folders made read-only, with everything under them: `/` for a
    /// program; the book's folder for a compiler (which may keep caches
    /// of its own elsewhere: a wrapper's, ccache's).
    pub read_only: Vec<PathBuf>,
    /// A lesser box, for a machine whose kernel makes no namespaces for
    /// us (GitHub's runners): no namespace, the program itself confined
    /// by Landlock (its `landlock`).
    pub lesser: bool,
    /// A compiler's box rather than a program's: its folder written in
    /// place (its output), not through an overlay, and the host's `/tmp`
    /// and `/dev/shm` kept, so the paths it is given are there.
    pub compiler: bool,
}

impl Sandbox {
    /// The box as the spawner's request carries it: fields separated by
    /// NUL (size, base, then counted lists), in `fields`.
    pub(crate) fn encode(&self, fields: &mut Vec<Vec<u8>>) {
        fields.push(self.size.to_string().into_bytes());
        fields.push(self.base.as_os_str().as_bytes().to_vec());
        fields.push(vec![b'0' + u8::from(self.compiler)]);
        fields.push(vec![b'0' + u8::from(self.lesser)]);
        for list in [&self.writable, &self.hidden, &self.shown, &self.read_only] {
            fields.push(list.len().to_string().into_bytes());
            fields.extend(list.iter().map(|p| p.as_os_str().as_bytes().to_vec()));
        }
    }

    /// The box [`Sandbox::encode`] wrote, read from `fields`.
    pub(crate) fn decode(fields: &mut impl Iterator<Item = OsString>) -> Option<Sandbox> {
        let size = fields.next()?.to_str()?.parse().ok()?;
        let base = PathBuf::from(fields.next()?);
        let mut flag = || match fields.next()?.as_bytes() {
            b"0" => Some(false),
            b"1" => Some(true),
            _ => None,
        };
        let compiler = flag()?;
        let lesser = flag()?;
        let mut list = || -> Option<Vec<PathBuf>> {
            let n: usize = fields.next()?.to_str()?.parse().ok()?;
            (0..n).map(|_| fields.next().map(PathBuf::from)).collect()
        };
        // (Fields are read in the order written.)
        Some(Sandbox {
            size,
            base,
            writable: list()?,
            hidden: list()?,
            shown: list()?,
            read_only: list()?,
            lesser,
            compiler,
        })
    }
}

/// The box's own folders on its memory file system, under the base.
const INSIDE: &str = ".companion-box";

#[cfg(target_os = "linux")]
/// In the supervisor, before it forks the box's `init`: a PID namespace
/// for its next child (and, unless we are root, a user namespace first,
/// the user mapped to itself).
pub(crate) fn new_namespaces() -> io::Result<()> {
    // SAFETY: getuid reads our id; unshare(2) changes only this
    // single-threaded process's namespaces.
    unsafe {
        if libc::getuid() != 0 {
            new_user()?;
        }
        check(libc::unshare(libc::CLONE_NEWPID))
    }
}

/// A network namespace of nothing but its loopback (up), made once by the
/// spawner, that every compiler's box joins rather than making one of its
/// own (making one, and the kernel's undoing of it, cost CPU a start: the
/// guide's Performance page). A compile still reaches no network; its
/// loopback is the run's other compiles'. A program's box joins one made
/// the same way for its slot (`spawner::NetSlot`): no program that runs
/// beside it has it, so two examples can each listen on the same port.
/// With it, where we are not root, the user namespace that owns it, which
/// the box's own user namespace is made in.
#[cfg(target_os = "linux")]
pub(crate) struct SharedNet {
    user: Option<std::os::fd::OwnedFd>,
    net: std::os::fd::OwnedFd,
}

/// Set in a supervisor that joined the [`SharedNet`]: its box makes no
/// network namespace.
#[cfg(target_os = "linux")]
static JOINED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

#[cfg(target_os = "linux")]
impl SharedNet {
    /// Made in a child of ours that enters the namespaces, brings the
    /// loopback up and waits until we hold them (`/proc/PID/ns/…`).
    ///
    /// # Safety
    /// In a single-threaded process (the spawner).
    pub(crate) unsafe fn make() -> io::Result<SharedNet> {
        use std::os::fd::{FromRawFd as _, OwnedFd};
        // SAFETY: see the function's contract; pipes, fork, unshare,
        // writes of our own maps, waitpid, on values of this frame.
        unsafe {
            let (mut ready, mut go) = ([0i32; 2], [0i32; 2]);
            check(libc::pipe2(ready.as_mut_ptr(), libc::O_CLOEXEC))?;
            check(libc::pipe2(go.as_mut_ptr(), libc::O_CLOEXEC))?;
            let [ready_r, ready_w, go_r, go_w] =
                [ready[0], ready[1], go[0], go[1]].map(|fd| OwnedFd::from_raw_fd(fd));
            use std::os::fd::AsRawFd as _;
            let root = libc::getuid() == 0;
            let pid = libc::fork();
            if pid == 0 {
                drop((ready_r, go_w));
                let made = (root || new_user().is_ok()) && libc::unshare(libc::CLONE_NEWNET) == 0;
                if made {
                    loopback_up();
                    libc::write(ready_w.as_raw_fd(), b"1".as_ptr().cast(), 1);
                    let mut byte = 0u8;
                    libc::read(go_r.as_raw_fd(), (&raw mut byte).cast(), 1);
                }
                libc::_exit(0);
            }
            check(pid)?;
            drop((ready_w, go_r));
            let mut byte = 0u8;
            let told = libc::read(ready_r.as_raw_fd(), (&raw mut byte).cast(), 1) == 1;
            let open =
                |ns: &str| std::fs::File::open(format!("/proc/{pid}/ns/{ns}")).map(OwnedFd::from);
            let shared = match told {
                true => (|| -> io::Result<SharedNet> {
                    Ok(SharedNet {
                        user: if root { None } else { Some(open("user")?) },
                        net: open("net")?,
                    })
                })(),
                false => Err(io::Error::other("no network namespace")),
            };
            drop(go_w);
            libc::waitpid(pid, std::ptr::null_mut(), 0);
            shared
        }
    }

    /// In a compiler box's supervisor, before it makes the box: joins
    /// the shared namespace (else the box makes its own).
    ///
    /// # Safety
    /// In a single-threaded process.
    pub(crate) unsafe fn join(&self) {
        use std::os::fd::AsRawFd as _;
        // SAFETY: setns(2) of this single-threaded process into
        // namespaces whose descriptors we hold.
        unsafe {
            let user = self
                .user
                .as_ref()
                .is_none_or(|u| libc::setns(u.as_raw_fd(), libc::CLONE_NEWUSER) == 0);
            if user && libc::setns(self.net.as_raw_fd(), libc::CLONE_NEWNET) == 0 {
                JOINED.store(true, std::sync::atomic::Ordering::SeqCst);
            }
        }
    }
}

#[cfg(target_os = "linux")]
/// A user namespace for this process, the user mapped to itself.
fn new_user() -> io::Result<()> {
    // SAFETY: getuid/getgid read our ids; unshare(2) changes only this
    // single-threaded process's namespaces.
    unsafe {
        let (uid, gid) = (libc::getuid(), libc::getgid());
        check(libc::unshare(libc::CLONE_NEWUSER))?;
        write_file("/proc/self/setgroups", b"deny")?;
        write_file("/proc/self/uid_map", format!("{uid} {uid} 1").as_bytes())?;
        write_file("/proc/self/gid_map", format!("{gid} {gid} 1").as_bytes())
    }
}

#[cfg(target_os = "linux")]
/// In the box's `init` (pid 1 of the new namespace) before it forks the
/// program, or in a compiler (its box's pid 1) before its exec: the
/// mount, network and IPC namespaces and the file systems
/// described above, then `work` (the program's folder) as the working
/// directory again (through the overlay).
pub(crate) fn enter(sandbox: &Sandbox, work: &Path) -> io::Result<()> {
    // SAFETY: namespace, mount and file calls of this single-threaded
    // process, on paths and buffers it owns.
    unsafe {
        let net = match JOINED.load(std::sync::atomic::Ordering::SeqCst) {
            true => 0,
            false => libc::CLONE_NEWNET,
        };
        check(libc::unshare(libc::CLONE_NEWNS | net | libc::CLONE_NEWIPC))?;
        check(libc::mount(
            std::ptr::null(),
            c"/".as_ptr(),
            std::ptr::null(),
            libc::MS_REC | libc::MS_PRIVATE,
            std::ptr::null(),
        ))?;
    }
    // Taken before anything is hidden: the program's folder, to be seen
    // through the overlay; the folders it may write.
    let lower = open_tree(work)?;
    fn trees(list: &[PathBuf]) -> io::Result<Vec<(std::os::fd::OwnedFd, &Path)>> {
        list.iter()
            .filter(|p| p.is_dir())
            .map(|p| Ok((open_tree(p)?, p.as_path())))
            .collect()
    }
    let writable = trees(&sandbox.writable)?;
    let shown = trees(&sandbox.shown)?;
    for hidden in sandbox.hidden.iter().filter(|h| h.is_dir()) {
        mount_tmpfs(hidden, 4096)?;
    }
    for (tree, path) in &shown {
        std::fs::create_dir_all(path)?;
        move_mount(tree, path)?;
    }
    // Where a writable folder will be, while a hidden one may be written.
    for (_, path) in &writable {
        std::fs::create_dir_all(path)?;
    }
    for path in &sandbox.read_only {
        // A folder that is not a mount's root made one (with what is
        // mounted under it), to be made read-only as a whole.
        if path != Path::new("/") {
            bind(path, path)?;
        }
        read_only(None, &c_path(path)?, true)?;
    }
    // The box's own memory file system over the scratch base: the other
    // blocks' folders are gone, and everything written is bounded.
    mount_tmpfs(&sandbox.base, sandbox.size.max(1 << 20))?;
    let inside = sandbox.base.join(INSIDE);
    // (A compiler's box writes in place and keeps the host's `/tmp`.)
    for dir in ["lower", "upper", "work", "tmp", "shm"] {
        if !sandbox.compiler {
            std::fs::create_dir_all(inside.join(dir))?;
        }
    }
    std::fs::create_dir_all(work)?;
    if sandbox.compiler {
        move_mount(&lower, work)?;
    } else {
        read_only(Some(&lower), c"", false)?;
        move_mount(&lower, &inside.join("lower"))?;
        let options = format!(
            "lowerdir={},upperdir={},workdir={}",
            option_path(&inside.join("lower"))?,
            option_path(&inside.join("upper"))?,
            option_path(&inside.join("work"))?,
        );
        mount(c"overlay", work, c"overlay", libc::MS_NOSUID, &options)?;
    }
    for (tree, path) in &writable {
        std::fs::create_dir_all(path)?;
        move_mount(tree, path)?;
    }
    for (own, at) in [("tmp", "/tmp"), ("shm", "/dev/shm")] {
        let at = Path::new(at);
        if sandbox.compiler {
            break;
        }
        // (Not where the base is, nor above it: that would hide it.)
        if !sandbox.base.starts_with(at) && at.is_dir() {
            bind(&inside.join(own), at)?;
        }
    }
    mount(
        c"proc",
        Path::new("/proc"),
        c"proc",
        libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC | libc::MS_RDONLY,
        "",
    )?;
    if !JOINED.load(std::sync::atomic::Ordering::SeqCst) {
        loopback_up();
    }
    std::env::set_current_dir(work)
}

#[cfg(target_os = "linux")]
/// In the program's process, just before its exec, where no box can be
/// made ([`Sandbox::lesser`]): Landlock confines it to reading the
/// machine's files and writing only its own folder (also its `TMPDIR`:
/// the machine's `/tmp` may hold the book), the folders it may write and
/// the character devices programs write (`/dev/null`, …), never another
/// block's folder or the book; it may not signal anything outside
/// its own domain (the checker, the spawner, its supervisor, another
/// block) nor reach their abstract sockets, and, being confined, it may
/// not trace them (Landlock's own rule). Fails unless all of that holds
/// (Landlock ABI 6, Linux 6.12).
pub(crate) fn landlock(sandbox: &Sandbox, work: &Path) -> io::Result<()> {
    use landlock::{
        ABI, Access, AccessFs, CompatLevel, Compatible as _, Ruleset, RulesetAttr as _,
        RulesetCreatedAttr as _, RulesetStatus, Scope, path_beneath_rules,
    };
    let abi = ABI::V6;
    let mut writable: Vec<PathBuf> = vec![work.to_owned()];
    writable.extend(sandbox.writable.iter().cloned());
    // SAFETY: this process is the single-threaded fork that execs the
    // program next.
    unsafe { std::env::set_var("TMPDIR", work) };
    let devices =
        ["null", "zero", "full", "tty", "random", "urandom"].map(|d| Path::new("/dev").join(d));
    let error = |e: &dyn std::fmt::Display| io::Error::other(e.to_string());
    let status = Ruleset::default()
        .set_compatibility(CompatLevel::HardRequirement)
        .handle_access(AccessFs::from_all(abi))
        .and_then(|r| r.scope(Scope::Signal | Scope::AbstractUnixSocket))
        .and_then(|r| r.create())
        .and_then(|r| r.add_rules(path_beneath_rules(["/"], AccessFs::from_read(abi))))
        .and_then(|r| r.add_rules(path_beneath_rules(&writable, AccessFs::from_all(abi))))
        .and_then(|r| {
            r.add_rules(path_beneath_rules(
                devices.iter().filter(|d| d.exists()),
                AccessFs::from_file(abi),
            ))
        })
        .and_then(|r| r.restrict_self())
        .map_err(|e| error(&e))?;
    match status.ruleset {
        RulesetStatus::FullyEnforced => Ok(()),
        other => Err(error(&format!("Landlock: {other:?}"))),
    }
}

#[cfg(target_os = "linux")]
/// In the program's process, just before its exec: no capabilities, and
/// none to gain.
pub(crate) fn drop_privileges() -> io::Result<()> {
    // SAFETY: prctl(2) and capset(2) on this process, with values and a
    // struct on this frame.
    unsafe {
        // Root's exec rules (full capabilities for uid 0) off for good,
        // while we may still set them.
        let bits = 0x01 | 0x02 | 0x04 | 0x08 | 0x10 | 0x20; // NOROOT, NO_SETUID_FIXUP, KEEP_CAPS, each locked
        libc::prctl(libc::PR_SET_SECUREBITS, bits, 0, 0, 0);
        for cap in 0..64 {
            if libc::prctl(libc::PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 {
                break;
            }
        }
        libc::prctl(
            libc::PR_CAP_AMBIENT,
            libc::PR_CAP_AMBIENT_CLEAR_ALL,
            0,
            0,
            0,
        );
        #[repr(C)]
        struct Header {
            version: u32,
            pid: i32,
        }
        let header = Header {
            version: 0x2008_0522, // _LINUX_CAPABILITY_VERSION_3
            pid: 0,
        };
        let data = [0u32; 6];
        check(libc::syscall(libc::SYS_capset, &header, data.as_ptr()) as i32)?;
        check(libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
    }
}

#[cfg(target_os = "linux")]
/// A detached copy of the mount at `path` (`open_tree(OPEN_TREE_CLONE)`),
/// to be attached elsewhere once `path` itself is hidden.
fn open_tree(path: &Path) -> io::Result<std::os::fd::OwnedFd> {
    use std::os::fd::FromRawFd as _;
    let path = c_path(path)?;
    // SAFETY: open_tree(2) reads the path; the descriptor is ours.
    unsafe {
        let fd = libc::syscall(
            libc::SYS_open_tree,
            libc::AT_FDCWD,
            path.as_ptr(),
            libc::OPEN_TREE_CLONE | libc::OPEN_TREE_CLOEXEC,
        );
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(std::os::fd::OwnedFd::from_raw_fd(fd as i32))
    }
}

#[cfg(target_os = "linux")]
/// Attaches a detached tree at `to`.
fn move_mount(tree: &std::os::fd::OwnedFd, to: &Path) -> io::Result<()> {
    use std::os::fd::AsRawFd as _;
    let to = c_path(to)?;
    // SAFETY: move_mount(2) of a tree we own onto a path we pass.
    check(unsafe {
        libc::syscall(
            libc::SYS_move_mount,
            tree.as_raw_fd(),
            c"".as_ptr(),
            libc::AT_FDCWD,
            to.as_ptr(),
            libc::MOVE_MOUNT_F_EMPTY_PATH,
        )
    } as i32)
}

#[cfg(target_os = "linux")]
/// Makes the mount at `path` (or the detached `tree`) read-only, with
/// everything under it when `recursive`.
fn read_only(
    tree: Option<&std::os::fd::OwnedFd>,
    path: &std::ffi::CStr,
    recursive: bool,
) -> io::Result<()> {
    use std::os::fd::AsRawFd as _;
    /// `struct mount_attr`.
    #[repr(C)]
    struct MountAttr {
        attr_set: u64,
        attr_clr: u64,
        propagation: u64,
        userns_fd: u64,
    }
    const MOUNT_ATTR_RDONLY: u64 = 0x1;
    const MOUNT_ATTR_NOSUID: u64 = 0x2;
    let attr = MountAttr {
        attr_set: MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID,
        attr_clr: 0,
        propagation: 0,
        userns_fd: 0,
    };
    let (fd, mut flags) = match tree {
        Some(t) => (t.as_raw_fd(), libc::AT_EMPTY_PATH),
        None => (libc::AT_FDCWD, 0),
    };
    if recursive {
        flags |= libc::AT_RECURSIVE;
    }
    // SAFETY: mount_setattr(2) reads the path and the struct we pass.
    check(unsafe {
        libc::syscall(
            libc::SYS_mount_setattr,
            fd,
            path.as_ptr(),
            flags,
            &attr,
            std::mem::size_of::<MountAttr>(),
        )
    } as i32)
}

#[cfg(target_os = "linux")]
/// A memory file system of `size` bytes at `at`.
fn mount_tmpfs(at: &Path, size: u64) -> io::Result<()> {
    mount(
        c"tmpfs",
        at,
        c"tmpfs",
        libc::MS_NOSUID | libc::MS_NODEV,
        &format!("size={size},mode=0755"),
    )
}

#[cfg(target_os = "linux")]
/// A bind mount of `from` (and what is mounted under it) at `to`.
fn bind(from: &Path, to: &Path) -> io::Result<()> {
    let from = c_path(from)?;
    let to = c_path(to)?;
    // SAFETY: mount(2) reads the paths we pass.
    check(unsafe {
        libc::mount(
            from.as_ptr(),
            to.as_ptr(),
            std::ptr::null(),
            libc::MS_BIND | libc::MS_REC,
            std::ptr::null(),
        )
    })
}

#[cfg(target_os = "linux")]
/// mount(2) of a file system `kind` from `source` at `at`, with `options`.
fn mount(
    source: &std::ffi::CStr,
    at: &Path,
    kind: &std::ffi::CStr,
    flags: libc::c_ulong,
    options: &str,
) -> io::Result<()> {
    let at = c_path(at)?;
    let options =
        CString::new(options).map_err(|_| io::Error::from(io::ErrorKind::InvalidInput))?;
    // SAFETY: mount(2) reads the strings we pass.
    check(unsafe {
        libc::mount(
            source.as_ptr(),
            at.as_ptr(),
            kind.as_ptr(),
            flags,
            options.as_ptr().cast(),
        )
    })
}

/// A path as an overlay's option takes it: refused when it holds a
/// character the option syntax gives a meaning (`,`, `:`, `\`).
fn option_path(path: &Path) -> io::Result<String> {
    let text = path
        .to_str()
        .filter(|t| !t.contains([',', ':', '\\']))
        .ok_or_else(|| io::Error::from(io::ErrorKind::InvalidInput))?;
    Ok(text.to_owned())
}

#[cfg(target_os = "linux")]
#[cfg(target_os = "linux")]
/// Brings the box's loopback interface up, so a program may talk to
/// itself over 127.0.0.1 as it could before (nothing else is there).
fn loopback_up() {
    // SAFETY: socket(2) and ioctl(2) with an ifreq on this frame.
    unsafe {
        let socket = libc::socket(libc::AF_INET, libc::SOCK_DGRAM | libc::SOCK_CLOEXEC, 0);
        if socket < 0 {
            return;
        }
        let mut request: libc::ifreq = std::mem::zeroed();
        for (to, from) in request.ifr_name.iter_mut().zip(b"lo\0") {
            *to = *from as libc::c_char;
        }
        if libc::ioctl(socket, libc::SIOCGIFFLAGS, &mut request) == 0 {
            request.ifr_ifru.ifru_flags |= libc::IFF_UP as libc::c_short;
            libc::ioctl(socket, libc::SIOCSIFFLAGS, &request);
        }
        libc::close(socket);
    }
}

#[cfg(target_os = "linux")]
fn write_file(path: &str, bytes: &[u8]) -> io::Result<()> {
    std::fs::write(path, bytes)
}

#[cfg(target_os = "linux")]
fn c_path(path: &Path) -> io::Result<CString> {
    CString::new(path.as_os_str().as_bytes().to_vec())
        .map_err(|_| io::Error::from(io::ErrorKind::InvalidInput))
}

fn check(result: i32) -> io::Result<()> {
    match result {
        0.. => Ok(()),
        _ => Err(io::Error::last_os_error()),
    }
}

/// The paths of a NUL-separated list, for tests.
#[cfg(test)]
fn fields_of(sandbox: &Sandbox) -> Vec<OsString> {
    let mut fields = Vec::new();
    sandbox.encode(&mut fields);
    {
        use std::os::unix::ffi::OsStringExt as _;
        fields.into_iter().map(OsString::from_vec).collect()
    }
}

#[cfg(test)]
mod tests;
