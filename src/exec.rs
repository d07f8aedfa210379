//! Running compilers and compiled programs safely: in a directory of their
//! own, with a time limit, with capped output, and leaving nothing behind.
//!
//! Each child gets its own process group, so on a timeout everything it
//! started is killed with it. Output beyond the cap is read and dropped,
//! so a program that floods its pipes can neither block nor fill memory.

use std::collections::HashMap;
use std::io::{self, Read, Write as _};
use std::process::{Command, Stdio};
use std::sync::{Mutex, OnceLock};
use std::thread;
use std::time::{Duration, Instant};

/// Limits for one child process.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Wall-clock time limit.
    pub timeout: Duration,
    /// Bytes kept of stdout and of stderr each.
    pub max_output: usize,
}

impl Limits {
    /// A time limit with the default output cap (1 MiB per stream).
    pub fn with_timeout(timeout: Duration) -> Limits {
        Limits {
            timeout,
            max_output: 1 << 20,
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
    /// The time limit was reached and the process group was killed.
    pub timed_out: bool,
    /// Some output was dropped because of the cap.
    pub truncated: bool,
}

impl Finished {
    /// Exited with code 0.
    pub fn success(&self) -> bool {
        self.code == Some(0)
    }
}

/// Runs `cmd` to completion under `limits`, feeding it `stdin`.
pub fn run(cmd: &mut Command, stdin: &[u8], limits: Limits) -> io::Result<Finished> {
    cmd.stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt as _;
        cmd.process_group(0);
    }
    let mut child = cmd.spawn()?;
    let cap = limits.max_output;
    let out = child
        .stdout
        .take()
        .map(|s| thread::spawn(move || read_capped(s, cap)));
    let err = child
        .stderr
        .take()
        .map(|s| thread::spawn(move || read_capped(s, cap)));
    if let Some(mut input) = child.stdin.take() {
        let data = stdin.to_vec();
        thread::spawn(move || {
            let _ = input.write_all(&data);
        });
    }
    let start = Instant::now();
    let mut timed_out = false;
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break Some(status);
        }
        if start.elapsed() >= limits.timeout {
            timed_out = true;
            kill_group(&mut child);
            break child.wait().ok();
        }
        thread::sleep(Duration::from_millis(2));
    };
    // The group may hold the pipes open after the leader exits: kill it so
    // the readers finish and nothing is left running.
    kill_group(&mut child);
    let (stdout, t1) = out.and_then(|h| h.join().ok()).unwrap_or_default();
    let (stderr, t2) = err.and_then(|h| h.join().ok()).unwrap_or_default();
    Ok(Finished {
        code: if timed_out {
            None
        } else {
            status.and_then(|s| s.code())
        },
        stdout,
        stderr,
        timed_out,
        truncated: t1 || t2,
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

fn read_capped(mut r: impl Read, cap: usize) -> (String, bool) {
    let mut kept = Vec::new();
    let mut buf = [0u8; 8192];
    let mut truncated = false;
    loop {
        match r.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                let room = cap.saturating_sub(kept.len());
                if n > room {
                    truncated = true;
                }
                kept.extend_from_slice(&buf[..n.min(room)]);
            }
        }
    }
    (String::from_utf8_lossy(&kept).into_owned(), truncated)
}

/// The version line of a compiler (`rustc -vV`, `cc --version`), asked once
/// per process; `None` when the program cannot be run.
pub fn tool_version(program: &str) -> Option<String> {
    static SEEN: OnceLock<Mutex<HashMap<String, Option<String>>>> = OnceLock::new();
    let seen = SEEN.get_or_init(Default::default);
    if let Some(v) = seen.lock().ok().and_then(|m| m.get(program).cloned()) {
        return v;
    }
    let flag = if program.contains("rustc") {
        "-vV"
    } else {
        "--version"
    };
    let version = run(
        Command::new(program).arg(flag),
        b"",
        Limits::with_timeout(Duration::from_secs(30)),
    )
    .ok()
    .filter(Finished::success)
    .map(|f| f.stdout.trim().to_owned());
    if let Ok(mut m) = seen.lock() {
        m.insert(program.to_owned(), version.clone());
    }
    version
}

#[cfg(test)]
#[cfg(unix)]
mod tests {
    use super::*;

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
    fn a_flood_is_capped() {
        let f = sh(
            "yes flood | head -c 5000000",
            Limits {
                timeout: Duration::from_secs(20),
                max_output: 1000,
            },
        );
        assert!(f.truncated);
        assert_eq!(f.stdout.len(), 1000);
    }

    #[test]
    fn versions_are_read_once_and_missing_tools_are_none() {
        assert!(tool_version("rustc").unwrap().contains("rustc"));
        assert_eq!(tool_version("/nonexistent/compiler"), None);
    }
}
