//! What the supervisor reads of the tree under it, in `/proc`, without
//! allocating (it runs in a fork of a multithreaded process): each
//! process's children, and their resident memory.

/// Calls `f` with each child of `pid` (its main thread's, as
/// `/proc/<pid>/task/<pid>/children` lists them); false when the file
/// cannot be read.
///
/// # Safety
/// As `supervisor`; `f` too.
pub(super) unsafe fn each_child(pid: i32, mut f: impl FnMut(i32)) -> bool {
    let (path, _) = proc_path(pid, true);
    let mut buf = [0u8; 4096];
    // SAFETY: reads a file into a local buffer.
    let Some(n) = (unsafe { read_file(&path, &mut buf) }) else {
        return false;
    };
    let mut child: i32 = 0;
    for &b in &buf[..n] {
        if b.is_ascii_digit() {
            child = child.saturating_mul(10).saturating_add(i32::from(b - b'0'));
        } else {
            if child > 0 {
                f(child);
            }
            child = 0;
        }
    }
    if child > 0 {
        f(child);
    }
    true
}

/// The resident pages of the supervisor's tree: every process under
/// `me` (followed through each one's children, up to 4096 processes),
/// from the second field of `/proc/<pid>/statm`.
///
/// # Safety
/// As `supervisor`.
pub(super) unsafe fn tree_resident(me: i32) -> u64 {
    let mut stack = [0i32; 256];
    let mut len = 0;
    let push = |stack: &mut [i32; 256], len: &mut usize, pid: i32| {
        if *len < stack.len() {
            stack[*len] = pid;
            *len += 1;
        }
    };
    let mut pages = 0u64;
    let mut visited = 0;
    // SAFETY: async-signal-safe reads of /proc into local buffers.
    unsafe {
        each_child(me, |pid| push(&mut stack, &mut len, pid));
        while len > 0 && visited < 4096 {
            len -= 1;
            let pid = stack[len];
            visited += 1;
            pages = pages.saturating_add(resident_pages(pid));
            each_child(pid, |child| push(&mut stack, &mut len, child));
        }
    }
    pages
}

/// The resident pages of one process (0 once it is gone).
///
/// # Safety
/// As `supervisor`.
unsafe fn resident_pages(pid: i32) -> u64 {
    let (path, _) = proc_path(pid, false);
    let mut buf = [0u8; 128];
    // SAFETY: reads a file into a local buffer.
    let Some(n) = (unsafe { read_file(&path, &mut buf) }) else {
        return 0;
    };
    // "size resident shared text lib data dt": the second number.
    buf[..n]
        .split(|&b| b == b' ')
        .nth(1)
        .map(|field| {
            field
                .iter()
                .take_while(|b| b.is_ascii_digit())
                .fold(0u64, |n, &b| {
                    n.saturating_mul(10).saturating_add(u64::from(b - b'0'))
                })
        })
        .unwrap_or(0)
}

/// `/proc/<pid>/task/<pid>/children` (or `/proc/<pid>/statm`), NUL
/// terminated, built without allocating; and its length.
fn proc_path(pid: i32, children: bool) -> ([u8; 64], usize) {
    let mut path = [0u8; 64];
    let mut len = 0;
    let (id, id_len) = digits(pid);
    let parts: [&[u8]; 5] = match children {
        true => [
            b"/proc/",
            &id[..id_len],
            b"/task/",
            &id[..id_len],
            b"/children\0",
        ],
        false => [b"/proc/", &id[..id_len], b"/statm\0", b"", b""],
    };
    for part in parts {
        path[len..len + part.len()].copy_from_slice(part);
        len += part.len();
    }
    (path, len)
}

/// Reads up to `buf.len()` bytes of the file at `path` (NUL terminated):
/// how many, or `None` when it cannot be opened.
///
/// # Safety
/// As `supervisor`.
unsafe fn read_file(path: &[u8; 64], buf: &mut [u8]) -> Option<usize> {
    // SAFETY: open(2), read(2) and close(2) on a path and a buffer of ours.
    unsafe {
        let fd = libc::open(path.as_ptr().cast(), libc::O_RDONLY | libc::O_CLOEXEC);
        if fd < 0 {
            return None;
        }
        let n = libc::read(fd, buf.as_mut_ptr().cast(), buf.len());
        libc::close(fd);
        Some(usize::try_from(n).unwrap_or(0))
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
