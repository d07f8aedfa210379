//! mdBook's stdin/stdout protocol, both shapes, driven through the binary.

use crate::support::BookTest;
use pretty_assertions::assert_eq;
use serde_json::{Value, json};

fn chapter(content: &str) -> Value {
    json!({"Chapter": {"name": "A", "content": content, "number": [1], "sub_items": [],
        "path": "a.md", "source_path": "a.md", "parent_names": []}})
}

fn context(version: &str, config: Value) -> Value {
    json!({"root": "/tmp/book", "config": config, "renderer": "html", "mdbook_version": version})
}

const EXAMPLE: &str = "Intro.\n\n```rust example title=\"T\"\nfn main() {}\n```\n";

#[test]
fn mdbook_0_5_input_gets_0_5_output() {
    let input = json!([
        context("0.5.4", json!({"book": {"title": "x", "src": "src"}, "preprocessor": {"companion": {"after": ["links"]}}})),
        {"items": [chapter(EXAMPLE), "Separator", {"PartTitle": "P"}]}
    ]);
    let out = BookTest::run_bin(&[], input.to_string().as_bytes());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let book: Value = serde_json::from_slice(&out.stdout).expect("json out");
    let items = book["items"].as_array().expect("items");
    assert_eq!(items.len(), 3);
    assert_eq!(items[1], "Separator");
    assert_eq!(items[2], json!({"PartTitle": "P"}));
    let content = items[0]["Chapter"]["content"].as_str().expect("content");
    assert!(
        content.starts_with("Intro.\n\n<div class=\"companion-example"),
        "{content}"
    );
    assert!(book.get("sections").is_none());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("ERROR"), "{stderr}");
}

#[test]
fn mdbook_0_4_input_with_nulls_gets_0_4_output() {
    let input = json!([
        context("0.4.40", json!({"book": {"authors": [], "language": "en", "multilingual": false,
            "src": "src", "title": null}, "preprocessor": {"companion": {"verify": null, "on-failure": null}},
            "rust": {"edition": null}})),
        {"sections": [chapter(EXAMPLE)], "__non_exhaustive": null}
    ]);
    let out = BookTest::run_bin(&[], input.to_string().as_bytes());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let book: Value = serde_json::from_slice(&out.stdout).expect("json out");
    assert!(book.get("items").is_none());
    assert_eq!(book["__non_exhaustive"], Value::Null);
    let content = book["sections"][0]["Chapter"]["content"]
        .as_str()
        .expect("content");
    assert!(content.contains("companion-example"), "{content}");
}

#[test]
fn untested_mdbook_version_warns_on_stderr_and_still_works() {
    let input = json!([context("0.7.1", json!({})), {"items": [chapter(EXAMPLE)]}]);
    let out = BookTest::run_bin(&[], input.to_string().as_bytes());
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(
            "is tested with mdBook >=0.4.36, <0.6.0, but is being called by mdBook 0.7.1"
        ),
        "{stderr}"
    );
    let book: Value = serde_json::from_slice(&out.stdout).expect("stdout stays the book");
    assert!(
        book["items"][0]["Chapter"]["content"]
            .as_str()
            .expect("c")
            .contains("companion-example")
    );
}

#[test]
fn bad_input_is_a_clear_error_with_nothing_on_stdout() {
    let cases: [(&[u8], &str); 4] = [
        (b"this is not json", "it is not JSON"),
        (b"{\"items\": []}", "expected a JSON array `[context, book]`"),
        (b"[{\"root\": \"/\", \"renderer\": \"html\"}, {\"chapters\": []}]", "found neither"),
        (b"[{\"root\": \"/\", \"renderer\": \"html\", \"config\": {\"preprocessor\": {\"companion\": {\"colour\": 1}}}}, {\"items\": []}]", "unknown field `colour`"),
    ];
    for (input, want) in cases {
        let out = BookTest::run_bin(&[], input);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{stderr}");
        assert!(out.stdout.is_empty(), "nothing on stdout");
        assert!(stderr.contains(want), "{stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}

#[test]
fn directive_error_exits_non_zero_with_location() {
    let input = json!([context("0.5.4", json!({})), {"items": [chapter("x\n\n```rust example expect=maybe\nfn main() {}\n```\n")]}]);
    let out = BookTest::run_bin(&[], input.to_string().as_bytes());
    assert!(!out.status.success());
    assert!(out.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("src/a.md:3:17: found `maybe` for `expect`"),
        "{stderr}"
    );
}

#[test]
fn supports_every_renderer() {
    for r in ["html", "markdown", "test", "epub"] {
        let out = BookTest::run_bin(&["supports", r], b"");
        assert!(out.status.success(), "{r}");
    }
}

#[test]
fn closed_stdout_is_an_error_not_a_panic() {
    use std::process::{Command, Stdio};
    let big = "```rust example\nfn main() {}\n```\n".repeat(2_000);
    let input = json!([context("0.5.4", json!({})), {"items": [chapter(&big)]}]).to_string();
    let mut child = Command::new(crate::support::BIN)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    drop(child.stdout.take());
    {
        use std::io::Write as _;
        let mut stdin = child.stdin.take().expect("stdin");
        let _ = stdin.write_all(input.as_bytes());
    }
    let out = child.wait_with_output().expect("wait");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(stderr.contains("could not write the book"), "{stderr}");
}

#[test]
fn decoding_only_flagged_chapters_answers_as_decoding_all() {
    // Chapters with and without directives, nested, with a tab-indented
    // info string and text that looks like a fence but is not ours; the
    // binary's answer must equal the fully decoded path's, as JSON.
    let ch = |name: &str, content: &str, subs: Value| {
        json!({"Chapter": {"name": name, "content": content, "number": null, "sub_items": subs,
            "path": format!("{name}.md"), "source_path": format!("{name}.md"), "parent_names": []}})
    };
    let tabbed = "# T\n\n```\trust example\nfn main() {}\n```\n";
    let book = json!({"items": [
        ch("plain", "# Plain\n\n```rust\nfn main() {}\n```\n", json!([])),
        ch("ex", EXAMPLE, json!([ch("tab", tabbed, json!([])), ch("plain2", "no fences", json!([]))])),
        "Separator",
        ch("cmp", "````compare\n```c\nint x;\n```\n```python\nx = 1\n```\n````\n", json!([])),
    ]});
    let ctx = context(
        "0.5.4",
        json!({"book": {"src": "src"}, "preprocessor": {"companion": {}}}),
    );
    let out = BookTest::run_bin(&[], json!([ctx, book]).to_string().as_bytes());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lazy: Value = serde_json::from_slice(&out.stdout).expect("json out");
    let config =
        mdbook_companion_core::config::Config::from_json("/tmp/book".into(), &ctx["config"])
            .expect("config");
    let mut decoded = book.clone();
    let outcome = mdbook_companion::book::book(
        &config,
        mdbook_companion_directives::Target::Html,
        &mut decoded,
    );
    assert!(outcome.errors.is_empty(), "{:?}", outcome.errors);
    assert_eq!(lazy, decoded);
    // And the directives were really rendered, the tabbed one included.
    for (at, name) in [
        ("/items/1/Chapter/content", "ex"),
        ("/items/1/Chapter/sub_items/0/Chapter/content", "tab"),
    ] {
        let text = lazy.pointer(at).and_then(Value::as_str).expect(name);
        assert!(text.contains("companion-example"), "{name}: {text}");
    }
    assert_eq!(lazy["items"][0], book["items"][0]);
}

/// With no arguments on a terminal (a pseudo-terminal here) the binary
/// does not wait for JSON nobody types: it says what to do, at once.
#[test]
fn no_arguments_on_a_terminal_says_what_to_do_instead_of_waiting() {
    use std::os::fd::{FromRawFd as _, OwnedFd};
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};
    let (mut master, mut slave) = (-1, -1);
    // SAFETY: openpty writes two descriptors into the given integers; the
    // other arguments may be null.
    let rc = unsafe {
        libc::openpty(
            &mut master,
            &mut slave,
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            std::ptr::null_mut(),
        )
    };
    assert_eq!(rc, 0, "openpty: {}", std::io::Error::last_os_error());
    // SAFETY: both descriptors are fresh and owned here alone.
    let (master, slave) = unsafe { (OwnedFd::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) };
    let mut child = Command::new(crate::support::BIN)
        .stdin(Stdio::from(slave))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let start = Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if start.elapsed() > Duration::from_secs(20) {
            child.kill().ok();
            panic!("still waiting on a terminal after 20 s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().expect("output");
    drop(master);
    assert!(!out.status.success());
    assert!(out.stdout.is_empty());
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!(
            "mdbook-companion: error: {}\n",
            mdbook_companion::book::protocol::terminal_input()
        )
    );
    assert!(
        mdbook_companion::book::protocol::terminal_input()
            .contains("run mdbook-companion through mdBook, or use `mdbook-companion build`")
    );
}
