//! One headless Chromium for the whole test process, driven over its
//! DevTools pipe (`--remote-debugging-pipe`: JSON messages ended by NUL,
//! commands on its fd 3, answers on its fd 4). Starting Chromium was most
//! of what a page cost, and a new renderer process for each page half of
//! the rest, so the tests open pages in tabs of this one browser, each
//! tab in a browser context of its own (no storage, cookies or cache
//! shared with another tab), and a tab done with a page is kept for the
//! next one with what the page stored cleared: every page starts as in a
//! fresh profile, as with a new Chromium. The launch flags are those each
//! Chromium had (no network: every host name fails to resolve); a tab
//! waits for a condition on the page (the measuring script's result, the
//! load and settled animations for a screenshot) instead of a
//! virtual-time budget.

use serde_json::{Value, json};
use std::collections::HashMap;
use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Sender, channel};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// How long one command, or one wait for a page, may take before the
/// test fails instead of hanging.
const LIMIT: Duration = Duration::from_secs(90);

/// A promise (JavaScript) that resolves once the page has settled: its
/// fonts loaded, every finite animation (CSS transitions included)
/// finished and two frames drawn. What a virtual-time budget gave.
pub(super) const SETTLED: &str = "document.fonts.ready\
    .then(() => Promise.all(document.getAnimations()\
      .filter((a) => a.effect && a.effect.getComputedTiming().endTime !== Infinity)\
      .map((a) => a.finished.catch(() => null))))\
    .then(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true)))))";

/// Tabs of [`browser`] given back by the pages they showed.
static IDLE: Mutex<Vec<Tab>> = Mutex::new(Vec::new());

type Waiting = Mutex<Option<HashMap<u64, Sender<Value>>>>;

/// The running browser.
pub(super) struct Browser {
    to: Mutex<File>,
    next: AtomicU64,
    /// Callers waiting for an answer, by command id; `None` once the
    /// browser's pipe closed.
    waiting: &'static Waiting,
    child: Mutex<Child>,
}

/// The process's browser, started on first use. It exits when the test
/// process does (its command pipe closes).
pub(super) fn browser() -> &'static Browser {
    static BROWSER: OnceLock<Browser> = OnceLock::new();
    BROWSER.get_or_init(|| Browser::launch("pages", "MAP * ~NOTFOUND", &["--hide-scrollbars"]))
}

/// The browser for pages that talk to a stand-in server on 127.0.0.1
/// (every other host name still fails to resolve), with the flags those
/// pages' own Chromium had (scrollbars shown).
pub(super) fn standin_browser() -> &'static Browser {
    static BROWSER: OnceLock<Browser> = OnceLock::new();
    BROWSER.get_or_init(|| Browser::launch("standin", "MAP * ~NOTFOUND, EXCLUDE 127.0.0.1", &[]))
}

/// A pipe whose two ends are closed on exec (the child gets dups) and
/// numbered 10 or above, so that neither is the 3 or 4 it is copied to.
fn pipe() -> (OwnedFd, OwnedFd) {
    let mut fds = [0; 2];
    // SAFETY: `fds` has room for the two descriptors pipe2 writes.
    let rc = unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) };
    assert_eq!(rc, 0, "pipe2: {}", std::io::Error::last_os_error());
    let high = |fd: i32| {
        // SAFETY: `fd` is open and ours; the copy is a new descriptor we
        // own, and the original is closed once copied.
        unsafe {
            let copy = libc::fcntl(fd, libc::F_DUPFD_CLOEXEC, 10);
            assert!(copy >= 10, "F_DUPFD: {}", std::io::Error::last_os_error());
            libc::close(fd);
            OwnedFd::from_raw_fd(copy)
        }
    };
    (high(fds[0]), high(fds[1]))
}

/// The profile directory of this process's browser `name`, under the
/// target's scratch space; those of processes that are gone are removed.
fn profile_dir(name: &str) -> PathBuf {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser");
    std::fs::create_dir_all(&root).expect("scratch dir");
    for entry in std::fs::read_dir(&root).expect("scratch dir").flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if let Some(rest) = name.strip_prefix("chromium-profile-")
            && let Some((pid, _)) = rest.split_once('-')
            && !Path::new("/proc").join(pid).exists()
        {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
    root.join(format!("chromium-profile-{}-{name}", std::process::id()))
}

impl Browser {
    /// Starts Chromium with host names resolved by `resolver` and the
    /// `extra` flags.
    fn launch(name: &str, resolver: &str, extra: &[&str]) -> Browser {
        let (cmd_read, cmd_write) = pipe();
        let (ans_read, ans_write) = pipe();
        let (child_in, child_out) = (cmd_read.as_raw_fd(), ans_write.as_raw_fd());
        let mut cmd = Command::new(super::chromium());
        cmd.args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--allow-file-access-from-files",
            "--remote-debugging-pipe",
        ])
        .arg(format!("--host-resolver-rules={resolver}"))
        .args(extra)
        .arg(format!("--user-data-dir={}", profile_dir(name).display()))
        .arg("about:blank")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
        // SAFETY: only dup2 between fork and exec (async-signal-safe);
        // the pipe ends are 10 or above, so each dup2 copies, and the
        // copy does not close on exec.
        unsafe {
            cmd.pre_exec(move || {
                if libc::dup2(child_in, 3) < 0 || libc::dup2(child_out, 4) < 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let child = cmd
            .spawn()
            .unwrap_or_else(|e| panic!("starting Chromium: {e}"));
        drop((cmd_read, ans_write));
        let waiting: &'static Waiting = Box::leak(Box::new(Mutex::new(Some(HashMap::new()))));
        std::thread::spawn(move || {
            let mut from = BufReader::new(File::from(ans_read));
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match from.read_until(0, &mut buf) {
                    Ok(n) if n > 0 && buf.last() == Some(&0) => {}
                    _ => break,
                }
                buf.pop();
                let Ok(msg) = serde_json::from_slice::<Value>(&buf) else {
                    continue;
                };
                // Events (no id) are not used: tabs poll the page.
                if let Some(id) = msg["id"].as_u64() {
                    let mut map = waiting.lock().expect("waiting");
                    if let Some(tx) = map.as_mut().and_then(|m| m.remove(&id)) {
                        let _ = tx.send(msg);
                    }
                }
            }
            // The browser is gone: every caller learns it.
            *waiting.lock().expect("waiting") = None;
        });
        Browser {
            to: Mutex::new(File::from(cmd_write)),
            next: AtomicU64::new(1),
            waiting,
            child: Mutex::new(child),
        }
    }

    /// Sends one command (to a tab's `session`, or to the browser) and
    /// returns its result, or the error Chromium answered.
    fn call(&self, session: Option<&str>, method: &str, params: Value) -> Result<Value, String> {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let (tx, rx) = channel();
        match self.waiting.lock().expect("waiting").as_mut() {
            Some(map) => map.insert(id, tx),
            None => panic!(
                "Chromium exited: {:?}",
                self.child.lock().expect("child").try_wait()
            ),
        };
        let mut msg = json!({"id": id, "method": method, "params": params});
        if let Some(s) = session {
            msg["sessionId"] = json!(s);
        }
        let mut bytes = serde_json::to_vec(&msg).expect("a command is JSON");
        bytes.push(0);
        self.to
            .lock()
            .expect("pipe")
            .write_all(&bytes)
            .unwrap_or_else(|e| panic!("sending {method} to Chromium: {e}"));
        let answer = rx
            .recv_timeout(LIMIT)
            .unwrap_or_else(|e| panic!("no answer from Chromium to {method} ({e})"));
        match answer.get("error") {
            Some(err) => Err(format!("{method}: {err}")),
            None => Ok(answer["result"].clone()),
        }
    }
}

/// A tab in a browser context of its own; closed (context and all) when
/// dropped.
pub(super) struct Tab {
    browser: &'static Browser,
    context: String,
    session: String,
}

impl Tab {
    /// Opens `page` at `size` (CSS pixels, device scale 1) in the
    /// process's [`browser`].
    pub(super) fn open(page: &Path, size: (u32, u32)) -> Tab {
        Tab::open_in(browser(), page, size)
    }

    /// Opens `page` at `size` in browser `b`.
    pub(super) fn open_in(b: &'static Browser, page: &Path, size: (u32, u32)) -> Tab {
        let must = |r: Result<Value, String>| r.unwrap_or_else(|e| panic!("Chromium: {e}"));
        let context =
            must(b.call(None, "Target.createBrowserContext", json!({})))["browserContextId"]
                .as_str()
                .expect("a context id")
                .to_owned();
        let target = must(b.call(
            None,
            "Target.createTarget",
            json!({"url": "about:blank", "browserContextId": context, "width": size.0, "height": size.1}),
        ))["targetId"]
            .as_str()
            .expect("a target id")
            .to_owned();
        let session = must(b.call(
            None,
            "Target.attachToTarget",
            json!({"targetId": target, "flatten": true}),
        ))["sessionId"]
            .as_str()
            .expect("a session id")
            .to_owned();
        let tab = Tab {
            browser: b,
            context,
            session,
        };
        tab.goto(page, size);
        tab
    }

    /// A tab of [`browser`] showing `page` at `size`: one a page before
    /// gave back ([`Tab::done`]), its renderer process and compiled
    /// scripts kept and its storage cleared, or a new one. A new renderer
    /// for every page was about half of what a page cost.
    pub(super) fn reuse(page: &Path, size: (u32, u32)) -> Tab {
        let idle = IDLE.lock().expect("idle tabs").pop();
        match idle {
            Some(tab) => {
                tab.goto(page, size);
                tab
            }
            None => Tab::open(page, size),
        }
    }

    /// Clears what the page stored (local and session storage, all a
    /// `file://` page keeps) and keeps the tab for the next page, which
    /// thus starts as in a fresh profile.
    pub(super) fn done(self) {
        let left = self.eval("localStorage.clear(); sessionStorage.clear(); localStorage.length + sessionStorage.length");
        assert_eq!(left, Ok(json!(0)), "clearing the page's storage");
        IDLE.lock().expect("idle tabs").push(self);
    }

    /// Shows `page` at `size` in this tab.
    fn goto(&self, page: &Path, size: (u32, u32)) {
        // The page this tab showed is marked, so that waiting for the new
        // one never reads the old one (it may be the same file).
        let _ = self.eval("window.companionStale = true");
        self.call(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": size.0, "height": size.1, "deviceScaleFactor": 1, "mobile": false}),
        );
        let url = format!("file://{}", page.display());
        let nav = self.call("Page.navigate", json!({"url": url}));
        if let Some(err) = nav.get("errorText") {
            panic!("Chromium could not open {}: {err}", page.display());
        }
    }

    fn call(&self, method: &str, params: Value) -> Value {
        self.browser
            .call(Some(&self.session), method, params)
            .unwrap_or_else(|e| panic!("Chromium: {e}"))
    }

    /// The value of `expr` (a promise is awaited), or the exception it
    /// threw.
    fn eval(&self, expr: &str) -> Result<Value, String> {
        let r = self.browser.call(
            Some(&self.session),
            "Runtime.evaluate",
            json!({"expression": expr, "returnByValue": true, "awaitPromise": true}),
        )?;
        if let Some(e) = r.get("exceptionDetails") {
            return Err(e.to_string());
        }
        Ok(r["result"]["value"].clone())
    }

    /// Waits until `expr` is true on the loaded page (not on the blank one
    /// it replaces); panics after [`LIMIT`] naming `what`.
    pub(super) fn wait_for(&self, expr: &str, what: &str) {
        let check = format!(
            "location.protocol === 'file:' && !window.companionStale && document.readyState === 'complete' && !!({expr})"
        );
        let start = Instant::now();
        loop {
            // An error while the page is replaced is "not yet".
            if self.eval(&check) == Ok(Value::Bool(true)) {
                return;
            }
            assert!(start.elapsed() < LIMIT, "{what}: not within {LIMIT:?}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The document as HTML, as `--dump-dom` printed it.
    pub(super) fn dom(&self) -> String {
        let v = self
            .eval("document.documentElement.outerHTML")
            .unwrap_or_else(|e| panic!("reading the DOM: {e}"));
        v.as_str().expect("the DOM is a string").to_owned()
    }

    /// Waits for the page to settle ([`SETTLED`]), then saves the
    /// viewport as a PNG.
    pub(super) fn screenshot(&self, png: &Path) {
        self.wait_for("true", "the page's load event");
        self.eval(SETTLED)
            .unwrap_or_else(|e| panic!("settling {}: {e}", png.display()));
        let shot = self.call("Page.captureScreenshot", json!({"format": "png"}));
        let data = shot["data"].as_str().expect("base64 PNG");
        use base64::Engine as _;
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(data)
            .expect("Chromium's PNG is base64");
        std::fs::write(png, bytes).unwrap_or_else(|e| panic!("{}: {e}", png.display()));
    }
}

impl Drop for Tab {
    fn drop(&mut self) {
        // Closing the context closes its page too.
        let _ = self.browser.call(
            None,
            "Target.disposeBrowserContext",
            json!({"browserContextId": self.context}),
        );
    }
}
