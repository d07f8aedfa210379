//! A stand-in Playground on 127.0.0.1 for the Run button's tests: it
//! answers `/meta/crates` and `/evaluate.json` as play.rust-lang.org does
//! (or fails, or never answers), logs every request it gets, and takes
//! the scenario's report (`/report`). A tab of a Chromium with every
//! host name unresolvable but this one runs a page, reports, and is closed.

use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How the stand-in answers a run.
#[derive(Clone, Copy, Debug)]
pub(super) enum Answer {
    /// `{"result": "stand-in ran it\n", "error": null}`.
    Runs,
    /// HTTP 500.
    Fails,
    /// Never answers (holds the connection for 30 s).
    Silent,
}

/// One request the stand-in got: method, path, body.
#[derive(Clone, Debug)]
pub(super) struct Request {
    pub(super) method: String,
    pub(super) path: String,
    pub(super) body: String,
}

/// The running stand-in.
pub(super) struct StandIn {
    pub(super) port: u16,
    requests: Arc<Mutex<Vec<Request>>>,
    report: Arc<Mutex<Option<String>>>,
}

impl StandIn {
    pub(super) fn start(answer: Answer) -> StandIn {
        let listener = TcpListener::bind("127.0.0.1:0").expect("binding the stand-in");
        let port = listener.local_addr().expect("its address").port();
        let requests: Arc<Mutex<Vec<Request>>> = Arc::default();
        let report: Arc<Mutex<Option<String>>> = Arc::default();
        let (log, rep) = (Arc::clone(&requests), Arc::clone(&report));
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let (log, rep) = (Arc::clone(&log), Arc::clone(&rep));
                std::thread::spawn(move || serve(stream, answer, &log, &rep));
            }
        });
        StandIn {
            port,
            requests,
            report,
        }
    }

    /// The Playground address pages are built with.
    pub(super) fn url(&self) -> String {
        format!("http://127.0.0.1:{}/", self.port)
    }

    /// Every request but the report and CORS preflights.
    pub(super) fn requests(&self) -> Vec<Request> {
        self.requests.lock().expect("log").clone()
    }

    /// Loads `page` in Chromium (network blocked but for this server),
    /// runs `scenario` (JSON for `run-scenario.js`) and returns the
    /// report.
    pub(super) fn drive(&self, page: &Path, scenario: &Value) -> Value {
        self.drive_with(page, scenario, SCENARIO)
    }

    /// [`StandIn::drive`] with another scenario script (`script` reads
    /// `window.companionScenario` and reports through
    /// `window.companionRecorder.send`).
    pub(super) fn drive_with(&self, page: &Path, scenario: &Value, script: &str) -> Value {
        self.drive_at(page, scenario, script, super::DESKTOP)
    }

    /// [`StandIn::drive_with`] in a window of `size`.
    pub(super) fn drive_at(
        &self,
        page: &Path,
        scenario: &Value,
        script: &str,
        size: (u32, u32),
    ) -> Value {
        *self.report.lock().expect("report") = None;
        let recorder = RECORDER.replace("REPORT_URL", &format!("{}report", self.url()));
        // A name of its own: tests that share a page drive it at once.
        static DRIVES: AtomicUsize = AtomicUsize::new(0);
        let tag = format!("run{}", DRIVES.fetch_add(1, Ordering::Relaxed));
        let file = super::variant(page, &tag, |html| {
            let html = super::inject(
                html,
                "<meta charset=\"UTF-8\">",
                &format!("<script>\n{recorder}\n</script>\n"),
            );
            super::inject(
                html,
                "</body>",
                &format!(
                    "<script>window.companionScenario = {scenario};</script>\n<script>\n{script}\n</script>\n"
                ),
            )
        });
        let tab = super::cdp::Tab::open_in(super::cdp::standin_browser(), &file, size);
        let start = Instant::now();
        let report = loop {
            if let Some(r) = self.report.lock().expect("report").take() {
                break Some(r);
            }
            if start.elapsed() > Duration::from_secs(90) {
                break None;
            }
            std::thread::sleep(Duration::from_millis(100));
        };
        drop(tab);
        let report = report.unwrap_or_else(|| {
            panic!(
                "no report from the page {} within 90 s; did the scenario run?",
                file.display()
            )
        });
        let value: Value = serde_json::from_str(&report).expect("the report is JSON");
        if let Some(f) = value.get("failure") {
            panic!("the scenario failed on {}: {f}", file.display());
        }
        value
    }
}

/// Logs the page's requests and console errors from the first script on.
const RECORDER: &str = r#"window.companionRecorder = (function () {
  var requests = [], errors = [];
  var realFetch = window.fetch.bind(window);
  window.fetch = function (input, init) {
    requests.push({ url: typeof input === "string" ? input : input.url, method: (init && init.method) || "GET" });
    return realFetch(input, init);
  };
  var open = XMLHttpRequest.prototype.open;
  XMLHttpRequest.prototype.open = function (method, url) {
    requests.push({ url: String(url), method: method });
    return open.apply(this, arguments);
  };
  var consoleError = console.error;
  console.error = function () {
    errors.push(Array.prototype.join.call(arguments, " "));
    return consoleError.apply(console, arguments);
  };
  window.addEventListener("error", function (e) { errors.push("uncaught: " + e.message); });
  window.addEventListener("unhandledrejection", function (e) {
    errors.push("unhandled rejection: " + (e.reason && e.reason.message ? e.reason.message : e.reason));
  });
  return {
    requests: requests,
    errors: errors,
    send: function (body) { realFetch("REPORT_URL", { method: "POST", mode: "no-cors", body: body }); },
  };
})();"#;

pub(super) const SCENARIO: &str = include_str!("run-scenario.js");

const CRATES: &str = r#"{"crates":[{"name":"rand","version":"0.8.5","id":"rand"}]}"#;

fn serve(
    stream: TcpStream,
    answer: Answer,
    log: &Mutex<Vec<Request>>,
    report: &Mutex<Option<String>>,
) {
    let mut reader = BufReader::new(match stream.try_clone() {
        Ok(s) => s,
        Err(_) => return,
    });
    let mut line = String::new();
    if reader.read_line(&mut line).is_err() {
        return;
    }
    let mut parts = line.split_whitespace();
    let method = parts.next().unwrap_or("").to_owned();
    let path = parts.next().unwrap_or("").to_owned();
    let mut length = 0;
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header).is_err() || header.trim().is_empty() {
            break;
        }
        if let Some((k, v)) = header.split_once(':')
            && k.eq_ignore_ascii_case("content-length")
        {
            length = v.trim().parse().unwrap_or(0);
        }
    }
    let mut body = vec![0; length];
    if reader.read_exact(&mut body).is_err() {
        return;
    }
    let body = String::from_utf8_lossy(&body).into_owned();
    let mut stream = stream;
    if method == "OPTIONS" {
        return respond(&mut stream, 204, "");
    }
    if path == "/report" {
        *report.lock().expect("report") = Some(body);
        return respond(&mut stream, 204, "");
    }
    log.lock().expect("log").push(Request {
        method,
        path: path.clone(),
        body,
    });
    match (path.as_str(), answer) {
        ("/meta/crates", _) => respond(&mut stream, 200, CRATES),
        ("/evaluate.json", Answer::Runs) => respond(
            &mut stream,
            200,
            r#"{"result":"stand-in ran it\n","error":null}"#,
        ),
        ("/evaluate.json", Answer::Fails) => respond(&mut stream, 500, "{}"),
        ("/evaluate.json", Answer::Silent) => std::thread::sleep(Duration::from_secs(30)),
        _ => respond(&mut stream, 404, ""),
    }
}

fn respond(stream: &mut TcpStream, status: u16, body: &str) {
    let _ = write!(
        stream,
        "HTTP/1.1 {status} X\r\nAccess-Control-Allow-Origin: *\r\nAccess-Control-Allow-Methods: GET, POST\r\nAccess-Control-Allow-Headers: Content-Type\r\nAccess-Control-Allow-Private-Network: true\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
}
