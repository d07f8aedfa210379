//! The Run button in a real browser: a book checked (its `companion.lock`
//! written), then built on a machine with no compiler, shows each
//! example's recorded output at once with the network blocked; edited
//! code goes to the book's Playground (a stand-in on 127.0.0.1); a
//! Playground that fails or stays silent gives a plain message;
//! `run = "recorded"` makes no request at all; `run = "playground"`
//! leaves mdBook's button alone.

use super::standin::{Answer, StandIn};
use super::*;
use serde_json::json;

/// The chapter: one frame per kind of recorded run.
const CHAPTER: &str = r#"# Runs

```rust example title="Greets"
fn main() {
    println!("hello from a recorded run");
    eprintln!("a note on stderr");
}
```

```output
hello from a recorded run
```

```rust example title="Divides by zero" expect=panic
fn main() {
    let d = std::env::args().count() - 1;
    println!("before the division");
    println!("{}", 1 / d);
}
```

```output
attempt to divide by zero
```

```rust example title="Mismatched" expect=compile-fail error=E0308
fn main() {
    let x: i32 = "one";
}
```

```rust example title="Editable" editable
fn main() {
    println!("as the book shows it");
}
```

```output
as the book shows it
```

````compare title="Side by side"
```c caption="C side"
int main(void) { return 0; }
```
```rust caption="Rust side"
fn main() { println!("from the Rust side"); }
```
```output
from the Rust side
```
````

````compare title="Freed memory, in columns"
```c caption="C reads freed memory" expect=ub sanitize=address
~ #include <stdio.h>
~ #include <stdlib.h>
int main(void) { int *p = malloc(sizeof *p); *p = 1; free(p); printf("freed\n"); fflush(stdout); return *p; }
```
```output
AddressSanitizer: heap-use-after-free
```
```rust caption="Rust refuses to compile it" expect=compile-fail error=E0382
fn main() { let v = vec![1]; drop(v); println!("{}", v[0]); }
```
````

````compare title="Overflow, in tabs" layout=tabs
```c caption="C overflows" expect=ub
~ #include <limits.h>
int main(void) { volatile int x = INT_MAX; x += 1; return 0; }
```
```output
signed integer overflow
```
```rust caption="Rust panics" expect=panic
fn main() { let x = std::hint::black_box(i32::MAX); println!("{}", x + 1); }
```
````
"#;

/// The book with nothing added to its table, checked and built once:
/// the tests that only read its page share it.
fn shared() -> PathBuf {
    static PAGE: OnceLock<PathBuf> = OnceLock::new();
    PAGE.get_or_init(|| built("shared", "")).clone()
}

/// A book with `companion` lines added to its table, checked (with the
/// compilers) and then built with none on PATH, in a fresh directory.
fn built(name: &str, companion: &str) -> PathBuf {
    let root = scratch(&format!("run-{name}"));
    std::fs::create_dir_all(root.join("src")).expect("src");
    std::fs::create_dir_all(root.join("theme")).expect("theme");
    std::fs::write(
        root.join("book.toml"),
        format!(
            "[book]\ntitle = \"Runs\"\n\n[preprocessor.companion]\ncommand = {:?}\nafter = [\"links\"]\n{companion}\n\n\
             [output.html]\nadditional-css = [\"theme/companion.css\"]\nadditional-js = [\"theme/companion.js\"]\n\n\
             [output.html.playground]\neditable = true\n",
            env!("CARGO_BIN_EXE_mdbook-companion")
        ),
    )
    .expect("book.toml");
    std::fs::write(
        root.join("theme/companion.css"),
        mdbook_companion_directives::assets::stamped_stylesheet(),
    )
    .expect("css");
    std::fs::write(
        root.join("theme/companion.js"),
        mdbook_companion_directives::assets::stamped_script(),
    )
    .expect("js");
    std::fs::write(
        root.join("src/SUMMARY.md"),
        "# Summary\n\n- [Runs](runs.md)\n",
    )
    .expect("summary");
    std::fs::write(root.join("src/runs.md"), CHAPTER).expect("chapter");
    // The examples are the same in every such book: a check after the
    // first compiles nothing again, it finds them in the cache it copied.
    static WARM: Mutex<Option<PathBuf>> = Mutex::new(None);
    let warm = WARM.lock().expect("warm cache").clone();
    if let Some(cache) = warm {
        copy_tree(&cache, &root.join(".companion-cache"));
    }
    let bin = env!("CARGO_BIN_EXE_mdbook-companion");
    let check = Command::new(bin)
        .arg("check")
        .arg(&root)
        .output()
        .expect("check");
    assert!(
        check.status.success(),
        "check: {}{}",
        String::from_utf8_lossy(&check.stdout),
        String::from_utf8_lossy(&check.stderr)
    );
    let mut warm = WARM.lock().expect("warm cache");
    if warm.is_none() {
        let keep = scratch("run-warm-cache");
        copy_tree(&root.join(".companion-cache"), &keep);
        *warm = Some(keep);
    }
    drop(warm);
    // A fresh machine: no cache, no compiler on PATH; only the lock.
    std::fs::remove_dir_all(root.join(".companion-cache")).expect("the cache");
    let empty = tempfile::tempdir().expect("empty PATH");
    let build = Command::new(bin)
        .arg("build")
        .arg(&root)
        .env("PATH", empty.path())
        .output()
        .expect("build");
    assert!(
        build.status.success(),
        "build: {}",
        String::from_utf8_lossy(&build.stderr)
    );
    root.join("book/runs.html")
}

fn step(report: &Value, i: usize) -> &Value {
    &report["steps"][i]
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap_or_else(|| panic!("not an array: {v}"))
        .iter()
        .map(|s| s.as_str().expect("a string").to_owned())
        .collect()
}

const TITLES: [&str; 5] = [
    "Greets",
    "Divides by zero",
    "Mismatched",
    "Editable",
    "Rust side",
];

#[test]
fn recorded_output_shows_at_once_with_the_network_blocked() {
    let page = shared();
    // The report goes to a local server; the page's Playground is the
    // public one, which cannot be reached.
    let server = StandIn::start(Answer::Runs);
    let report = server.drive(
        &page,
        &json!({
            "describe": TITLES,
            "steps": [
                {"frame": "Greets"},
                {"frame": "Divides by zero"},
                {"frame": "Mismatched"},
                {"frame": "Rust side"},
            ],
        }),
    );
    for f in array(&report, "frames") {
        assert_eq!(
            f["button"], true,
            "a Run button on every recorded frame: {f}"
        );
        assert_eq!(f["focusable"], true, "{f}");
        assert_eq!(f["visible"], true, "{f}");
        assert_eq!(f["live"], "polite", "the result is announced: {f}");
        assert_eq!(f["playgroundPre"], false, "mdBook does not take it: {f}");
    }
    let greets = &step(&report, 0)["immediate"];
    assert_eq!(strings(&greets["stdout"]), ["hello from a recorded run\n"]);
    assert_eq!(strings(&greets["stderr"]), ["a note on stderr\n"]);
    let source = strings(&greets["source"]).join("");
    assert!(
        source.starts_with("Output recorded by the book's build (rustc 1."),
        "{source}"
    );
    let panics = &step(&report, 1)["immediate"];
    assert_eq!(strings(&panics["stdout"]), ["before the division\n"]);
    let stderr = strings(&panics["stderr"]).join("");
    assert!(stderr.contains("attempt to divide by zero"), "{stderr}");
    let fails = &step(&report, 2)["immediate"];
    assert_eq!(strings(&fails["labels"]), ["Compiler error"]);
    assert!(
        strings(&fails["stderr"]).join("").contains("error[E0308]"),
        "{fails}"
    );
    let side = &step(&report, 3)["immediate"];
    assert_eq!(strings(&side["stdout"]), ["from the Rust side\n"]);
    assert_eq!(
        array(&report, "requests").len(),
        0,
        "no request at all: {report}"
    );
    assert_eq!(array(&report, "errors").len(), 0, "{report}");
    assert!(server.requests().is_empty());
}

#[test]
fn edited_code_goes_to_the_books_playground_and_a_failing_one_is_told() {
    let server = StandIn::start(Answer::Runs);
    let page = built("standin", &format!("playground-url = \"{}\"", server.url()));
    let edited = "fn main() {\n    println!(\"edited by the reader\");\n}\n";
    let report = server.drive(
        &page,
        &json!({
            "describe": ["Editable"],
            "steps": [
                {"frame": "Editable"},
                {"frame": "Editable", "edit": edited},
                {"frame": "Editable", "edit": "extern crate rand;\nfn main() {}\n", "keyboard": true},
                {"frame": "Editable", "edit": "extern crate nowhere;\nfn main() {}\n"},
            ],
        }),
    );
    // Unedited: recorded, no request.
    assert_eq!(
        strings(&step(&report, 0)["immediate"]["stdout"]),
        ["as the book shows it\n"]
    );
    // Edited: the stand-in ran it.
    let ran = &step(&report, 1)["result"];
    assert_eq!(strings(&ran["stdout"]), ["stand-in ran it\n"], "{ran}");
    assert!(
        strings(&ran["source"])[0].starts_with("Output from the Playground at 127.0.0.1:"),
        "{ran}"
    );
    // A crate the Playground offers runs (Ctrl-Enter in the editor); one
    // it does not is named without a run.
    assert_eq!(
        strings(&step(&report, 2)["result"]["stdout"]),
        ["stand-in ran it\n"]
    );
    let missing = strings(&step(&report, 3)["result"]["notes"]).join("");
    assert!(
        missing.contains("does not offer the crate nowhere"),
        "{missing}"
    );
    let got: Vec<(String, String)> = server
        .requests()
        .iter()
        .map(|r| (r.method.clone(), r.path.clone()))
        .collect();
    assert_eq!(
        got,
        [
            ("POST".into(), "/evaluate.json".into()),
            ("GET".into(), "/meta/crates".into()),
            ("POST".into(), "/evaluate.json".into()),
        ],
        "the crate list asked once, only for code that names a crate"
    );
    let body: Value = serde_json::from_str(&server.requests()[0].body).expect("JSON");
    assert_eq!(body["code"], edited);
    assert_eq!(body["edition"], "2021");
    assert_eq!(body["version"], "stable");
    assert_eq!(body["optimize"], "0");
    assert_eq!(array(&report, "errors").len(), 0, "{report}");

    for (answer, said) in [
        (Answer::Fails, "answered with an error (HTTP 500)"),
        (Answer::Silent, "did not answer within 6 seconds"),
    ] {
        let server = StandIn::start(answer);
        let page = built(
            &format!("{answer:?}"),
            &format!("playground-url = \"{}\"", server.url()),
        );
        let report = server.drive(
            &page,
            &json!({"steps": [{"frame": "Editable", "edit": edited}]}),
        );
        let r = &step(&report, 0)["result"];
        let notes = strings(&r["notes"]).join("");
        assert!(notes.contains(said), "{answer:?}: {r}");
        // The recorded output of the code as the book shows it, below.
        assert_eq!(strings(&r["stdout"]), ["as the book shows it\n"], "{r}");
        assert_eq!(array(&report, "errors").len(), 0, "{report}");
    }
}

#[test]
fn run_recorded_sends_nothing_and_says_why_edited_code_cannot_run() {
    let server = StandIn::start(Answer::Runs);
    let page = built(
        "recorded",
        &format!("run = \"recorded\"\nplayground-url = \"{}\"", server.url()),
    );
    let report = server.drive(
        &page,
        &json!({
            "describe": TITLES,
            "steps": [
                {"frame": "Greets"},
                {"frame": "Editable", "edit": "fn main() {}\n"},
            ],
        }),
    );
    assert!(array(&report, "frames").iter().all(|f| f["button"] == true));
    assert_eq!(
        strings(&step(&report, 0)["immediate"]["stdout"]),
        ["hello from a recorded run\n"]
    );
    let why = strings(&step(&report, 1)["immediate"]["notes"]).join("");
    assert!(
        why.starts_with(
            "Edited code cannot run here: this book shows only the output its build recorded"
        ),
        "{why}"
    );
    assert_eq!(array(&report, "requests").len(), 0, "{report}");
    assert!(server.requests().is_empty(), "{:?}", server.requests());
    assert_eq!(array(&report, "errors").len(), 0, "{report}");
}

#[test]
fn run_playground_keeps_mdbooks_own_button() {
    let server = StandIn::start(Answer::Runs);
    let page = built("playground", "run = \"playground\"");
    let report = server.drive(&page, &json!({"describe": TITLES, "steps": []}));
    for f in array(&report, "frames") {
        assert_eq!(f["button"], false, "{f}");
        assert_eq!(f["playgroundPre"], true, "{f}");
        assert_eq!(f["mdbookPlay"], true, "{f}");
    }
}

#[test]
fn recorded_output_is_readable_in_every_theme() {
    let page = shared();
    let m = measure(&page, "screen", DESKTOP, Variant::Ran);
    for theme in THEMES {
        let t = &m["contrast"][theme];
        let worst = array(t, "worst");
        for kind in [
            "companion-run-button",
            "companion-run-source",
            "companion-run-label",
        ] {
            assert!(
                worst
                    .iter()
                    .any(|w| w["what"].as_str().unwrap_or("").contains(kind)),
                "{theme}: no {kind} measured: {t}"
            );
        }
        assert!(
            num(&worst[0], "ratio") >= MIN_CONTRAST,
            "{theme}: contrast below {MIN_CONTRAST}:1: {worst:?}"
        );
    }
}

#[test]
fn a_c_side_replays_its_recorded_run_and_report_with_the_network_blocked() {
    let page = shared();
    let server = StandIn::start(Answer::Runs);
    let report = server.drive(
        &page,
        &json!({
            "describe": ["C reads freed memory", "C overflows"],
            "steps": [{"frame": "C reads freed memory"}],
        }),
    );
    for f in array(&report, "frames") {
        assert_eq!(f["button"], true, "a Run button on the C side: {f}");
        assert_eq!(f["focusable"], true, "{f}");
        assert_eq!(f["live"], "polite", "{f}");
    }
    let c = &step(&report, 0)["immediate"];
    assert_eq!(strings(&c["stdout"]), ["freed\n"], "{c}");
    let shown = strings(&c["report"]).join("");
    assert!(
        shown.starts_with(
            "==…==ERROR: AddressSanitizer: heap-use-after-free on address 0x… at pc 0x… bp 0x… sp 0x…\nREAD of size 4 at 0x… thread T0\n"
        ) && shown.ends_with("SUMMARY: AddressSanitizer: heap-use-after-free main.c:1 in main\n"),
        "the checker's own report, trimmed: {shown}"
    );
    assert_eq!(strings(&c["labels"]), ["Output", "Sanitizer report"], "{c}");
    assert_eq!(
        strings(&c["notes"]),
        ["The program exited with code 99."],
        "{c}"
    );
    assert!(
        strings(&c["source"])
            .join("")
            .starts_with("Output recorded by the book's build (cc "),
        "{c}"
    );
    assert_eq!(array(&report, "requests").len(), 0, "no request: {report}");
    assert_eq!(array(&report, "errors").len(), 0, "{report}");
    assert!(server.requests().is_empty());
}

#[test]
fn run_panels_keep_long_lines_whole_and_scroll_inside_their_column() {
    let page = shared();
    for size in [DESKTOP, PHONE] {
        let m = measure(&page, "screen", size, Variant::Ran);
        let o = &m["overflow"];
        assert_eq!(
            num(o, "count"),
            0.0,
            "at {size:?}: elements outside the content column: {}",
            o["outside"]
        );
        assert!(
            num(o, "pageScrollWidth") <= num(o, "viewport"),
            "at {size:?}: the page scrolls sideways: {o}"
        );
        let streams = array(&m, "runStreams");
        assert!(streams.len() >= 6, "at {size:?}: {streams:?}");
        for s in streams {
            assert_eq!(s["whiteSpace"], "pre", "at {size:?}: {s}");
            assert_eq!(s["overflowX"], "auto", "at {size:?}: {s}");
            assert_eq!(s["rows"], s["lines"], "at {size:?}: a line wrapped: {s}");
            assert_eq!(s["inside"], true, "at {size:?}: {s}");
        }
        assert!(
            streams.iter().any(|s| s["what"]
                .as_str()
                .unwrap_or("")
                .contains("AddressSanitizer")
                && s["scrolls"] == true),
            "at {size:?}: the sanitizer's long lines scroll: {streams:?}"
        );
    }
}

#[test]
fn run_panel_screenshots_in_every_theme_at_390_px() {
    let page = shared();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/screenshots");
    std::fs::create_dir_all(&dir).expect("screenshots dir");
    for (title, tag) in [
        ("Freed memory, in columns", "columns"),
        ("Overflow, in tabs", "tabs"),
    ] {
        let ran = variant(&page, &format!("ran-{tag}"), |html| {
            inject(
                html,
                "</body>",
                &format!(
                    "<script>window.addEventListener(\"load\", () => {{ document.querySelectorAll(\".companion-run-button:not(.companion-run-undo)\").forEach((b) => b.click()); const c = Array.from(document.querySelectorAll(\".companion-compare\")).find((c) => c.textContent.includes({title:?})); Array.from(c.parentElement.children).forEach((e) => {{ if (e !== c) e.remove(); }}); }});</script>\n"
                ),
            )
        });
        for theme in THEMES {
            for size in [PHONE, DESKTOP] {
                let png = dir.join(format!("run-{tag}-{theme}-{}.png", size.0));
                screenshot(&ran, theme, size, &png);
                assert!(
                    std::fs::metadata(&png).is_ok_and(|m| m.len() > 10_000),
                    "{}",
                    png.display()
                );
            }
        }
    }
}
