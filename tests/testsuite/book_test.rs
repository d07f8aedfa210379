//! [`BookTest`]'s fixture books and commands: a book copied from a
//! directory under `tests/testsuite/`, the binary run in it with
//! expectations on its exit status, stdout and stderr as snapbox data
//! (`str![]`, `file![]`), and the files it writes checked the same way.
//! `SNAPSHOTS=overwrite cargo test --test testsuite NAME` writes what the
//! binary printed into the expectations; what varies from run to run is
//! redacted (the book's path to `[ROOT]`, the binary's to `[BIN]`,
//! durations to `[ELAPSED]`, a panicking thread's id to `[THREAD_ID]`, the toolchain's versions to `[RUSTC]`,
//! `[RUSTC_RELEASE]` (`rustc 1.95.0`) and `[CC]`).

use super::{BIN, BookTest};
use snapbox::{Data, IntoData};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The directory the fixtures live in.
fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/testsuite")
}

impl BookTest {
    /// A copy of the fixture `tests/testsuite/{dir}` in a temporary
    /// directory (`dir` may lead out of it, as `../../guide` does; a
    /// book's build output `book/` and cache `.companion-cache/` are left
    /// behind). A fixture with its own `book.toml` is a whole book, used
    /// as it is; one without is the chapters (`src/*.md`, in the order of
    /// the fixture's `src/SUMMARY.md` links if it has one, else by name)
    /// and files of a book whose `book.toml` is written as for
    /// [`BookTest::new`], so `.companion(...)`, `.toml(...)` and
    /// `.chapter(...)` add to it.
    pub fn from_dir(dir: &str) -> BookTest {
        let from = fixtures().join(dir);
        assert!(from.is_dir(), "no fixture {}", from.display());
        let mut book = BookTest::new();
        for path in walk(&from) {
            let rel = path.strip_prefix(&from).expect("inside the fixture");
            if rel.starts_with("book") || rel.starts_with(".companion-cache") {
                continue;
            }
            let to = book.root().join(rel);
            std::fs::create_dir_all(to.parent().expect("parent")).expect("mkdir");
            std::fs::copy(&path, &to).unwrap_or_else(|e| panic!("copying {}: {e}", path.display()));
        }
        book.whole = book.root().join("book.toml").exists();
        if !book.whole {
            let src = book.root().join("src");
            let mut chapters: Vec<(String, String)> = Vec::new();
            for path in walk(&src) {
                let file = path
                    .strip_prefix(&src)
                    .expect("inside src")
                    .to_string_lossy()
                    .replace('\\', "/");
                if file.ends_with(".md") && file != "SUMMARY.md" {
                    let text = std::fs::read_to_string(&path).expect("chapter");
                    chapters.push((file, text));
                }
            }
            let order = summary_order(&src.join("SUMMARY.md"));
            chapters.sort_by_key(|(file, _)| {
                (
                    order.iter().position(|o| o == file).unwrap_or(usize::MAX),
                    file.clone(),
                )
            });
            book.chapters = chapters;
        }
        book
    }

    /// The text of chapter `src/{file}` of fixture `{dir}`: for a test
    /// that shares one chapter but writes its book otherwise.
    pub fn fixture_chapter(dir: &str, file: &str) -> String {
        let path = fixtures().join(dir).join("src").join(file);
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    }

    /// Runs the binary with `args` in the book's root (the book is
    /// written first if it has not been). `f` sets the expectations; with
    /// none, the command must succeed. What it printed comes back for
    /// what the expectations do not say (a JSON report to walk).
    #[track_caller]
    pub fn run(&self, args: &[&str], f: impl FnOnce(&mut BookCommand)) -> Ran {
        if !self.written.load(std::sync::atomic::Ordering::Relaxed) {
            self.write();
        }
        let mut cmd = BookCommand {
            args: args.iter().map(OsString::from).collect(),
            env: Vec::new(),
            stdin: None,
            dir: PathBuf::new(),
            timeout: None,
            close_stdout: false,
            hook: None,
            status: Status::Success,
            stdout: None,
            stderr: None,
        };
        f(&mut cmd);
        cmd.run(self.root(), &self.assert)
    }

    /// What `build` printed on stderr when it failed, as it must: one
    /// row of a table of errors checked with [`BookTest::check_text`].
    #[track_caller]
    pub fn build_error(&self) -> String {
        self.run(&["build"], |cmd| {
            cmd.expect_failure();
        })
        .stderr
    }

    /// Checks the text of the file at `path` (from the book's root).
    #[track_caller]
    pub fn check_file(&self, path: &str, expected: impl IntoData) -> &Self {
        let text = self.read(path);
        self.assert.eq(text, expected);
        self
    }

    /// The text of the file at `path` (from the book's root).
    #[track_caller]
    pub fn read(&self, path: &str) -> String {
        let full = self.root().join(path);
        std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{}: {e}", full.display()))
    }

    /// Checks text the test made (a report walked, a table of errors)
    /// with the book's redactions.
    #[track_caller]
    pub fn check_text(&self, actual: impl IntoData, expected: impl IntoData) -> &Self {
        self.assert.eq(actual, expected);
        self
    }
}

/// The files a SUMMARY.md links to, in its order (none if it is missing).
fn summary_order(summary: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(summary).unwrap_or_default();
    text.lines()
        .filter_map(|l| {
            let start = l.find("](")? + 2;
            let end = start + l[start..].find(')')?;
            Some(l[start..end].to_owned())
        })
        .collect()
}

/// Every file under `dir`, recursively.
fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for entry in entries {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path);
        }
    }
    out
}

/// Reads a child's pipe to its end on a thread of its own.
fn drain<R: std::io::Read + Send + 'static>(pipe: Option<R>) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        if let Some(mut p) = pipe {
            p.read_to_end(&mut buf).ok();
        }
        buf
    })
}

/// The exit status a command is expected to end with.
#[derive(Clone, Copy, Debug)]
enum Status {
    Success,
    Failure,
    Code(i32),
    Any,
}

/// What a test sets on the process of a [`BookCommand`] before it starts.
type Hook = Box<dyn FnOnce(&mut Command)>;

/// One run of the binary in a [`BookTest`]: its arguments, environment
/// and stdin, and what it must print and end with.
pub struct BookCommand {
    args: Vec<OsString>,
    env: Vec<(OsString, Option<OsString>)>,
    stdin: Option<Vec<u8>>,
    /// Where it runs, from the book's root.
    dir: PathBuf,
    /// How long it may take before it is killed and the test fails.
    timeout: Option<Duration>,
    /// Its stdout is closed as it starts: a reader that went away.
    close_stdout: bool,
    /// What the test sets on the process itself (a terminal for stdin).
    hook: Option<Hook>,
    status: Status,
    stdout: Option<Data>,
    stderr: Option<Data>,
}

impl BookCommand {
    /// The command must fail (any code but 0).
    pub fn expect_failure(&mut self) -> &mut Self {
        self.status = Status::Failure;
        self
    }

    /// Any exit status will do: for a helper whose callers check
    /// [`Ran::code`] themselves.
    pub fn expect_any_status(&mut self) -> &mut Self {
        self.status = Status::Any;
        self
    }

    /// The command must end with exit code `code`.
    pub fn expect_code(&mut self, code: i32) -> &mut Self {
        self.status = Status::Code(code);
        self
    }

    /// What stdout must be (`str![]`, `file![]`; `...` and `[..]` match
    /// what varies).
    pub fn expect_stdout(&mut self, expected: impl IntoData) -> &mut Self {
        self.stdout = Some(expected.into_data());
        self
    }

    /// What stderr must be.
    pub fn expect_stderr(&mut self, expected: impl IntoData) -> &mut Self {
        self.stderr = Some(expected.into_data());
        self
    }

    /// More arguments (paths and other values that are not `&str`).
    pub fn arg(&mut self, arg: impl Into<OsString>) -> &mut Self {
        self.args.push(arg.into());
        self
    }

    /// Sets an environment variable for the command.
    pub fn env(&mut self, key: impl Into<OsString>, value: impl Into<OsString>) -> &mut Self {
        self.env.push((key.into(), Some(value.into())));
        self
    }

    /// Removes an environment variable for the command.
    pub fn env_remove(&mut self, key: impl Into<OsString>) -> &mut Self {
        self.env.push((key.into(), None));
        self
    }

    /// Runs the command in `dir` (from the book's root) instead.
    pub fn current_dir(&mut self, dir: impl AsRef<Path>) -> &mut Self {
        self.dir = dir.as_ref().to_path_buf();
        self
    }

    /// Kills the command and fails the test if it runs longer than
    /// `limit` (a hang is a failure, not a stuck test run).
    pub fn timeout(&mut self, limit: Duration) -> &mut Self {
        self.timeout = Some(limit);
        self
    }

    /// Closes the command's stdout as it starts, as a reader that went
    /// away does: what it writes there fails (stdout is then empty).
    pub fn close_stdout(&mut self) -> &mut Self {
        self.close_stdout = true;
        self
    }

    /// Sets up the process itself, last before it starts: for what the
    /// builder has no word for, such as a terminal as stdin
    /// (`c.stdin(Stdio::from(pty))`).
    pub fn command(&mut self, f: impl FnOnce(&mut Command) + 'static) -> &mut Self {
        self.hook = Some(Box::new(f));
        self
    }

    /// Gives the command this stdin (else it reads nothing).
    pub fn stdin(&mut self, input: impl Into<Vec<u8>>) -> &mut Self {
        self.stdin = Some(input.into());
        self
    }

    #[track_caller]
    fn run(mut self, root: &Path, assert: &snapbox::Assert) -> Ran {
        let mut cmd = Command::new(BIN);
        cmd.current_dir(root.join(&self.dir))
            .args(&self.args)
            .stdin(if self.stdin.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        for (key, value) in &self.env {
            match value {
                Some(v) => cmd.env(key, v),
                None => cmd.env_remove(key),
            };
        }
        if let Some(hook) = self.hook.take() {
            hook(&mut cmd);
        }
        let mut child = cmd.spawn().expect("spawn the binary");
        if self.close_stdout {
            drop(child.stdout.take());
        }
        let writer = self.stdin.take().map(|data| {
            use std::io::Write as _;
            let mut input = child.stdin.take().expect("stdin");
            std::thread::spawn(move || {
                let _ = input.write_all(&data);
            })
        });
        if let Some(limit) = self.timeout {
            // Stdout and stderr are read as it runs, so a full pipe
            // cannot stall it.
            let start = Instant::now();
            let (out, err) = (child.stdout.take(), child.stderr.take());
            let (out_reader, err_reader) = (drain(out), drain(err));
            while child.try_wait().expect("wait for the binary").is_none() {
                if start.elapsed() > limit {
                    child.kill().ok();
                    child.wait().ok();
                    panic!(
                        "`{}` did not end within {limit:?}",
                        self.args
                            .iter()
                            .map(|a| a.to_string_lossy())
                            .collect::<Vec<_>>()
                            .join(" ")
                    );
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            let status = child.wait().expect("wait for the binary");
            let out = std::process::Output {
                status,
                stdout: out_reader.join().unwrap_or_default(),
                stderr: err_reader.join().unwrap_or_default(),
            };
            return self.judge(out, writer, assert);
        }
        let out = child.wait_with_output().expect("wait for the binary");
        self.judge(out, writer, assert)
    }

    /// Checks what the command did against the expectations.
    #[track_caller]
    fn judge(
        self,
        out: std::process::Output,
        writer: Option<std::thread::JoinHandle<()>>,
        assert: &snapbox::Assert,
    ) -> Ran {
        if let Some(w) = writer {
            w.join().ok();
        }
        let ran = Ran {
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
            code: out.status.code().unwrap_or(-1),
        };
        let shown = || {
            format!(
                "`{}` ended with {:?}\n--- stdout\n{}\n--- stderr\n{}",
                self.args
                    .iter()
                    .map(|a| a.to_string_lossy())
                    .collect::<Vec<_>>()
                    .join(" "),
                out.status.code(),
                ran.stdout,
                ran.stderr
            )
        };
        match (self.status, ran.code) {
            (Status::Success, 0) => {}
            (Status::Failure, c) if c != 0 => {}
            (Status::Code(want), c) if want == c => {}
            (Status::Any, _) => {}
            (want, _) => panic!("expected {want:?}: {}", shown()),
        }
        for (name, actual, expected) in [
            ("stdout", &ran.stdout, self.stdout),
            ("stderr", &ran.stderr, self.stderr),
        ] {
            if let Some(expected) = expected
                && let Err(e) = assert.try_eq(Some(&name), actual.clone().into_data(), expected)
            {
                panic!("{e}");
            }
        }
        ran
    }
}

/// What a command printed and its exit code.
#[derive(Debug)]
pub struct Ran {
    /// Its stdout, as text.
    pub stdout: String,
    /// Its stderr, as text.
    pub stderr: String,
    /// Its exit code (-1 when a signal ended it).
    pub code: i32,
}

impl Ran {
    /// Stdout as JSON (`--format json`).
    #[track_caller]
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| {
            panic!(
                "json: {e}\nstdout: {}\nstderr: {}",
                self.stdout, self.stderr
            )
        })
    }
}

/// The first line `tool --version` prints, once per test binary.
fn version(tool: &str, cell: &'static OnceLock<String>) -> &'static str {
    cell.get_or_init(|| {
        Command::new(tool)
            .arg("--version")
            .output()
            .ok()
            .and_then(|o| String::from_utf8(o.stdout).ok())
            .and_then(|s| s.lines().next().map(str::to_owned))
            .unwrap_or_default()
    })
}

/// The assertions of a book at `root`: `SNAPSHOTS=overwrite` rewrites
/// expectations, and what varies is redacted.
pub(super) fn assert(root: &Path) -> snapbox::Assert {
    static RUSTC: OnceLock<String> = OnceLock::new();
    static CC: OnceLock<String> = OnceLock::new();
    let mut subs = snapbox::Redactions::new();
    subs.insert("[ROOT]", root.to_path_buf()).expect("[ROOT]");
    if let Ok(real) = root.canonicalize()
        && real != root
    {
        subs.insert("[ROOT]", real).expect("[ROOT]");
    }
    subs.insert("[BIN]", PathBuf::from(BIN)).expect("[BIN]");
    // A duration, not a value set with `=` (a video's `&t=750s`).
    let elapsed = regex::Regex::new(r"(?m)(?:^|[^=\w])(?<redacted>[0-9]+(\.[0-9]+)?(ms|s|µs))\b")
        .expect("regex");
    subs.insert("[ELAPSED]", elapsed).expect("[ELAPSED]");
    // Rust names a panicking thread with its id: `thread 'main' (2072)`.
    let thread = regex::Regex::new(r"thread '[^']*' \((?<redacted>[0-9]+)\)").expect("regex");
    subs.insert("[THREAD_ID]", thread).expect("[THREAD_ID]");
    for (placeholder, tool, cell) in [("[RUSTC]", "rustc", &RUSTC), ("[CC]", "cc", &CC)] {
        let v = version(tool, cell);
        if !v.is_empty() {
            subs.insert(placeholder, v).expect(placeholder);
        }
    }
    // `rustc 1.95.0`: how reports name a compiler in a line.
    let release = version("rustc", &RUSTC)
        .split_whitespace()
        .take(2)
        .collect::<Vec<_>>()
        .join(" ");
    if !release.is_empty() {
        subs.insert("[RUSTC_RELEASE]", release)
            .expect("[RUSTC_RELEASE]");
    }
    // Paths are not normalised: `\` in a chapter or a report is itself.
    snapbox::Assert::new()
        .action_env(snapbox::assert::DEFAULT_ACTION_ENV)
        .normalize_paths(false)
        .redact_with(subs)
}
