//! The pages in a real browser: headless Chromium renders built books and
//! `browser.js` measures the rendered DOM (boxes, computed colours per
//! theme, what print media shows), so the stylesheet is tested as readers
//! get it, not as HTML source. Needs Debian's `chromium` (`.ci/run` installs
//! it; `CHROMIUM=/path` picks another): without it these tests fail, loudly.
//!
//! Two books: a case book holding every directive kind, for the layout
//! checks, and a copy of `example-book/`, for themes, print, overflow and
//! the screenshots saved to `target/screenshots/`.

use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// The measuring script injected into each page.
const MEASURE: &str = include_str!("browser.js");

/// mdBook's five built-in themes.
const THEMES: [&str; 5] = ["light", "rust", "coal", "navy", "ayu"];

/// Desktop and phone viewports.
const DESKTOP: (u32, u32) = (1280, 900);
const PHONE: (u32, u32) = (390, 844);

/// WCAG AA for body text.
const MIN_CONTRAST: f64 = 4.5;

/// A chapter with every directive kind.
const CASE: &str = r#"# Every directive

## An example

```rust example title="Prints a greeting"
fn main() {
    println!("hello from the case book");
}
```

```output
hello from the case book
```

## Columns

`````compare title="Integer division" asm
```c caption="C: undefined for b == 0"
int divide(int a, int b) { return a / b; }
```
C leaves `b == 0` undefined.
```rust caption="Rust: panics instead"
pub fn divide(a: i32, b: i32) -> i32 { a / b }
```

Rust checks the divisor.
`````

## Tabs

`````compare title="Adding one" layout=tabs
```c caption="C"
int add_one(int a) { return a + 1; }
```
```rust caption="Rust"
pub fn add_one(a: i32) -> i32 { a + 1 }
```
`````

## Cards

```reading-list title="Books"
[[entry]]
title = "The Rust Programming Language"
url = "https://doc.rust-lang.org/book/"
authors = ["Steve Klabnik", "Carol Nichols"]
access = "free"
kind = "book"
level = "beginner"
recommended = true
note = "The `book` most people start with."

[[entry]]
title = "Programming Rust"
url = "https://www.oreilly.com/library/view/programming-rust-2nd/9781492052586/"
authors = ["Jim Blandy", "Jason Orendorff", "Leonora F. S. Tindall"]
access = "paid"
kind = "book"
level = "intermediate"
audience = "Experienced programmers"

[[entry]]
title = "The Rustonomicon"
url = "https://doc.rust-lang.org/nomicon/"
access = "free"
kind = "book"
status = "incomplete"
level = "advanced"
```

## A mistake, shown as an error box

```rust example colour=red
fn main() {}
```
"#;

// ---- Chromium ---------------------------------------------------------

/// Chromium's executable: `$CHROMIUM`, else `chromium` or
/// `chromium-browser` on PATH. On a fresh Debian machine where the tests
/// run as root, Debian's `chromium` is installed once (the README's test
/// command needs nothing but a Rust toolchain). Panics when there is none.
fn chromium() -> PathBuf {
    if let Some(p) = std::env::var_os("CHROMIUM") {
        return PathBuf::from(p);
    }
    let find = || {
        let path = std::env::var_os("PATH").unwrap_or_default();
        std::env::split_paths(&path)
            .flat_map(|dir| ["chromium", "chromium-browser"].map(|n| dir.join(n)))
            .find(|exe| exe.is_file())
    };
    if let Some(exe) = find() {
        return exe;
    }
    static INSTALL: std::sync::Mutex<bool> = std::sync::Mutex::new(false);
    let mut tried = INSTALL.lock().unwrap_or_else(|e| e.into_inner());
    if !*tried {
        *tried = true;
        let root = Command::new("id")
            .arg("-u")
            .output()
            .is_ok_and(|o| o.stdout.starts_with(b"0"));
        if root && Path::new("/usr/bin/apt-get").exists() {
            eprintln!("browser tests: installing Debian's chromium (apt-get)");
            let ok = Command::new("sh")
                .arg("-c")
                .arg("apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium")
                .status()
                .is_ok_and(|s| s.success());
            eprintln!(
                "browser tests: apt-get install chromium {}",
                if ok { "done" } else { "failed" }
            );
        }
    }
    if let Some(exe) = find() {
        return exe;
    }
    panic!(
        "the browser tests need Chromium and found none on PATH: install it \
         (`apt-get install chromium`, as .ci/run does) or set CHROMIUM=/path/to/chromium"
    );
}

/// Runs headless Chromium on a local page with a fresh profile and no
/// network (every host name fails to resolve); stdout on success.
fn run_chromium(page: &Path, size: (u32, u32), extra: &[String]) -> String {
    let profile = tempfile::tempdir().expect("profile dir");
    let mut cmd = Command::new(chromium());
    cmd.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--allow-file-access-from-files",
        "--host-resolver-rules=MAP * ~NOTFOUND",
        "--hide-scrollbars",
        "--virtual-time-budget=3000",
    ])
    .arg(format!("--user-data-dir={}", profile.path().display()))
    .arg(format!("--window-size={},{}", size.0, size.1))
    .args(extra)
    .arg(format!("file://{}", page.display()))
    .stdin(Stdio::null())
    .stdout(Stdio::piped())
    .stderr(Stdio::piped());
    let child = cmd
        .spawn()
        .unwrap_or_else(|e| panic!("starting Chromium: {e}"));
    let pid = child.id();
    // A watchdog: a hung browser fails the test instead of hanging it.
    let done = Arc::new(Mutex::new(false));
    let flag = Arc::clone(&done);
    std::thread::spawn(move || {
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(90) {
            std::thread::sleep(Duration::from_millis(200));
            if *flag.lock().expect("flag") {
                return;
            }
        }
        let _ = Command::new("kill").arg("-9").arg(pid.to_string()).status();
    });
    let out = child.wait_with_output().expect("waiting for Chromium");
    *done.lock().expect("flag") = true;
    assert!(
        out.status.success(),
        "Chromium failed on {} ({}): {}",
        page.display(),
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("Chromium's DOM is UTF-8")
}

/// Writes `page` with `script` run first in `<head>` and the measuring
/// script at the end of `<body>`, next to the original (so its relative
/// links hold), as `<stem>-<tag>.html`.
fn variant(page: &Path, tag: &str, edit: impl Fn(String) -> String) -> PathBuf {
    let html =
        std::fs::read_to_string(page).unwrap_or_else(|e| panic!("reading {}: {e}", page.display()));
    let out = page.with_file_name(format!(
        "{}-{tag}.html",
        page.file_stem().expect("stem").to_string_lossy()
    ));
    std::fs::write(&out, edit(html)).expect("writing the page variant");
    out
}

fn inject(html: String, before: &str, what: &str) -> String {
    assert!(
        html.contains(before),
        "mdBook's page has no `{before}` to put the {what} before"
    );
    html.replacen(before, &format!("{what}{before}"), 1)
}

/// Loads `page` at `size` in `mode` ("screen" or "print") and returns what
/// `browser.js` measured. Measurements are shared between the tests.
fn measure(page: &Path, mode: &str, size: (u32, u32), variant: Variant) -> Arc<Value> {
    type Slot = Arc<OnceLock<Arc<Value>>>;
    static DONE: OnceLock<Mutex<HashMap<String, Slot>>> = OnceLock::new();
    let key = format!("{}|{mode}|{size:?}|{variant:?}", page.display());
    let slot = {
        let mut map = DONE
            .get_or_init(Default::default)
            .lock()
            .expect("measurements");
        Arc::clone(map.entry(key).or_default())
    };
    Arc::clone(slot.get_or_init(|| Arc::new(measure_now(page, mode, size, variant))))
}

/// The page as built, or changed to show what our part does.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Variant {
    AsBuilt,
    /// Without the companion stylesheet.
    NoCss,
    /// Without any of mdBook's scripts (a reader with JavaScript off).
    NoJs,
}

fn measure_now(page: &Path, mode: &str, size: (u32, u32), v: Variant) -> Value {
    let tag = format!("measure-{mode}-{}-{v:?}", size.0);
    let file = variant(page, &tag, |html| {
        let html = match v {
            Variant::AsBuilt => html,
            Variant::NoCss => without_companion_css(html),
            Variant::NoJs => without_scripts(html),
        };
        let script = format!(
            "<script>window.companionTest = {{ mode: \"{mode}\" }};</script>\n<script>\n{MEASURE}\n</script>\n"
        );
        inject(html, "</body>", &script)
    });
    let dom = run_chromium(&file, size, &["--dump-dom".to_owned()]);
    let doc = scraper::Html::parse_document(&dom);
    let sel = scraper::Selector::parse("pre#companion-test-result").expect("selector");
    let pre = doc.select(&sel).next().unwrap_or_else(|| {
        panic!(
            "no measurement in the DOM of {}; did the script run?",
            file.display()
        )
    });
    let text: String = pre.text().collect();
    let value: Value = serde_json::from_str(&text).expect("the measurement is JSON");
    if let Some(err) = value.get("error") {
        panic!("the measuring script failed on {}: {err}", file.display());
    }
    value
}

/// The page without any `<script>` element.
fn without_scripts(mut html: String) -> String {
    let mut removed = 0;
    while let Some(start) = html.find("<script") {
        let end = start
            + html[start..]
                .find("</script>")
                .expect("a closed script element")
            + "</script>".len();
        html.replace_range(start..end, "");
        removed += 1;
    }
    assert!(removed > 3, "expected mdBook's scripts, removed {removed}");
    html
}

/// The page without the `<link>` to the companion stylesheet.
fn without_companion_css(html: String) -> String {
    let lines: Vec<&str> = html.lines().collect();
    let kept: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| !(l.contains("<link") && l.contains("companion")))
        .collect();
    assert_eq!(
        kept.len() + 1,
        lines.len(),
        "expected one <link> to the companion stylesheet"
    );
    kept.join("\n")
}

/// Screenshots `page` in `theme` at `size` into `png`. mdBook picks the
/// theme from localStorage, else from its `default_light_theme` /
/// `default_dark_theme` constants: a fresh profile has no localStorage, so
/// the copy sets both constants.
fn screenshot(page: &Path, theme: &str, size: (u32, u32), png: &Path) {
    let file = variant(page, &format!("shot-{theme}-{}", size.0), |html| {
        let mut html = html;
        for var in ["default_light_theme", "default_dark_theme"] {
            let start = html
                .find(&format!("const {var} = \""))
                .unwrap_or_else(|| panic!("mdBook's page no longer sets `{var}`"));
            let end = start + html[start..].find(';').expect("end of the constant");
            html.replace_range(start..end, &format!("const {var} = \"{theme}\""));
        }
        html
    });
    let _ = std::fs::remove_file(png);
    run_chromium(&file, size, &[format!("--screenshot={}", png.display())]);
}

// ---- the books ------------------------------------------------------------

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("browser")
        .join(name);
    if dir.exists() {
        std::fs::remove_dir_all(&dir).expect("clearing the scratch book");
    }
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// The case book, built once (in-process, as `mdbook-companion build`).
fn case_book() -> &'static Path {
    static BOOK: OnceLock<PathBuf> = OnceLock::new();
    BOOK.get_or_init(|| {
        let root = scratch("case");
        std::fs::create_dir_all(root.join("src")).expect("src");
        std::fs::create_dir_all(root.join("theme")).expect("theme");
        std::fs::write(
            root.join("book.toml"),
            "[book]\ntitle = \"Case\"\n\n[preprocessor.companion]\nafter = [\"links\"]\non-failure = \"continue\"\n\n\
             [output.html]\nadditional-css = [\"theme/companion.css\"]\n",
        )
        .expect("book.toml");
        std::fs::write(
            root.join("theme/companion.css"),
            mdbook_companion::directive::assets::stamped_stylesheet(),
        )
        .expect("css");
        std::fs::write(
            root.join("src/SUMMARY.md"),
            "# Summary\n\n- [Every directive](all.md)\n",
        )
        .expect("summary");
        std::fs::write(root.join("src/all.md"), CASE).expect("chapter");
        mdbook_companion::commands::build::build(&root)
            .unwrap_or_else(|e| panic!("building the case book: {e:#}"));
        root
    })
}

/// A copy of `example-book/` (its cache included, its output left out),
/// built once.
fn example_book() -> &'static Path {
    static BOOK: OnceLock<PathBuf> = OnceLock::new();
    BOOK.get_or_init(|| {
        let root = scratch("example-book");
        let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("example-book");
        copy_tree(&from, &root);
        mdbook_companion::commands::build::build(&root)
            .unwrap_or_else(|e| panic!("building the example book: {e:#}"));
        root
    })
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read_dir") {
        let entry = entry.expect("entry");
        let name = entry.file_name();
        let kind = entry.file_type().expect("file type");
        if kind.is_dir() {
            if name != "book" {
                copy_tree(&entry.path(), &to.join(&name));
            }
        } else if kind.is_file() {
            std::fs::copy(entry.path(), to.join(&name)).expect("copy");
        }
    }
}

fn case_page() -> PathBuf {
    case_book().join("book/all.html")
}

fn example_print_page() -> PathBuf {
    example_book().join("book/print.html")
}

// ---- reading the measurements ------------------------------------------

fn num(v: &Value, key: &str) -> f64 {
    v[key]
        .as_f64()
        .unwrap_or_else(|| panic!("no number `{key}` in {v}"))
}

fn array<'a>(v: &'a Value, key: &str) -> &'a Vec<Value> {
    v[key]
        .as_array()
        .unwrap_or_else(|| panic!("no array `{key}` in {v}"))
}

fn ints(v: &Value) -> Vec<i64> {
    v.as_array()
        .unwrap_or_else(|| panic!("not an array: {v}"))
        .iter()
        .map(|x| x.as_i64().expect("integer"))
        .collect()
}

fn compare_named<'a>(m: &'a Value, title: &str) -> &'a Value {
    array(m, "compares")
        .iter()
        .find(|c| c["title"] == title)
        .unwrap_or_else(|| panic!("no comparison titled {title:?} in {}", m["compares"]))
}

// ---- the tests ------------------------------------------------------------

#[test]
fn runnable_examples_keep_mdbooks_play_button_markup() {
    let m = measure(&case_page(), "screen", DESKTOP, Variant::AsBuilt);
    let examples = array(&m, "examples");
    let summary: Vec<(String, bool, bool)> = examples
        .iter()
        .map(|e| {
            (
                e["title"].as_str().expect("title").to_owned(),
                e["playground"].as_bool().expect("bool"),
                e["playButton"].as_bool().expect("bool"),
            )
        })
        .collect();
    // Rust blocks are mdBook playgrounds whose play button book.js added
    // (hidden until the Playground answers, which it never does offline);
    // C sides are plain code.
    let expected: Vec<(String, bool, bool)> = [
        ("Prints a greeting", true, true),
        ("C: undefined for b == 0", false, false),
        ("Rust: panics instead", true, true),
        ("C", false, false),
        ("Rust", true, true),
    ]
    .into_iter()
    .map(|(t, a, b)| (t.to_owned(), a, b))
    .collect();
    assert_eq!(summary, expected);
}

#[test]
fn comparison_sides_stand_side_by_side_on_desktop_and_stack_on_phone() {
    let desktop = measure(&case_page(), "screen", DESKTOP, Variant::AsBuilt);
    let cmp = compare_named(&desktop, "Integer division");
    assert_eq!(cmp["layout"], "columns");
    let sides = array(cmp, "sides");
    assert_eq!(sides.len(), 2);
    let (a, b) = (&sides[0], &sides[1]);
    assert!(
        (num(a, "top") - num(b, "top")).abs() < 1.0,
        "desktop: sides at different heights: {a} {b}"
    );
    assert!(
        num(b, "left") >= num(a, "right"),
        "desktop: second side not right of the first: {a} {b}"
    );
    assert!(num(a, "width") > 250.0, "desktop: sides too narrow: {a}");

    let phone = measure(&case_page(), "screen", PHONE, Variant::AsBuilt);
    let sides = array(compare_named(&phone, "Integer division"), "sides");
    let (a, b) = (&sides[0], &sides[1]);
    assert!(
        num(b, "top") >= num(a, "bottom"),
        "phone: second side not below the first: {a} {b}"
    );
    assert!(
        (num(a, "left") - num(b, "left")).abs() < 1.0,
        "phone: stacked sides not aligned: {a} {b}"
    );
}

#[test]
fn tabs_are_focusable_radios_and_show_one_side_at_a_time() {
    let m = measure(&case_page(), "screen", DESKTOP, Variant::AsBuilt);
    let cmp = compare_named(&m, "Adding one");
    assert_eq!(cmp["layout"], "tabs");
    assert_eq!(ints(&cmp["visible"]), [0], "first tab shown at first");
    let tabs = array(cmp, "tabs");
    let labels: Vec<&str> = tabs
        .iter()
        .map(|t| t["label"].as_str().expect("label"))
        .collect();
    assert_eq!(labels, ["C", "Rust"]);
    for (i, tab) in tabs.iter().enumerate() {
        // Native radios in one group: Tab reaches the group, arrow keys
        // move between its tabs, no script involved.
        assert_eq!(tab["type"], "radio", "{tab}");
        assert_eq!(tab["name"], tabs[0]["name"], "one group: {tab}");
        assert_eq!(tab["focusable"], true, "keyboard focus: {tab}");
        assert_eq!(tab["labelShown"], true, "{tab}");
        assert_eq!(tab["checkedAfterClick"], true, "{tab}");
        assert_eq!(ints(&tab["visibleAfterClick"]), [i as i64], "{tab}");
    }
}

#[test]
fn cards_lay_out_in_a_grid_and_in_one_column_on_phone() {
    let desktop = measure(&case_page(), "screen", DESKTOP, Variant::AsBuilt);
    let grids = array(&desktop, "cards");
    assert_eq!(grids.len(), 1);
    let grid = &grids[0];
    assert_eq!(grid["display"], "grid");
    assert!(num(grid, "columns") >= 2.0, "desktop columns: {grid}");
    let cards = array(grid, "cards");
    assert_eq!(cards.len(), 3);
    assert!(
        (num(&cards[0], "top") - num(&cards[1], "top")).abs() < 1.0
            && num(&cards[1], "left") > num(&cards[0], "right"),
        "desktop: first two cards not in one row: {grid}"
    );

    let phone = measure(&case_page(), "screen", PHONE, Variant::AsBuilt);
    let grid = &array(&phone, "cards")[0];
    assert_eq!(num(grid, "columns"), 1.0, "phone columns: {grid}");
    let cards = array(grid, "cards");
    assert!(
        num(&cards[1], "top") >= num(&cards[0], "bottom"),
        "phone: cards not stacked: {grid}"
    );
}

#[test]
fn nothing_overflows_the_content_column() {
    let pages = [case_page(), example_print_page()];
    for page in &pages {
        for size in [DESKTOP, PHONE] {
            let m = measure(page, "screen", size, Variant::AsBuilt);
            let o = &m["overflow"];
            assert_eq!(
                num(o, "count"),
                0.0,
                "{} at {size:?}: elements outside the content column: {}",
                page.display(),
                o["outside"]
            );
            assert!(
                num(o, "pageScrollWidth") <= num(o, "viewport"),
                "{} at {size:?}: the page scrolls sideways: {o}",
                page.display()
            );
        }
    }
}

#[test]
fn stylesheet_moves_none_of_mdbooks_own_elements() {
    for size in [DESKTOP, PHONE] {
        let with = measure(&case_page(), "screen", size, Variant::AsBuilt);
        let without = measure(&case_page(), "screen", size, Variant::NoCss);
        assert!(
            with["furniture"].as_object().is_some_and(|f| f.len() >= 3),
            "measured too little of mdBook: {}",
            with["furniture"]
        );
        assert_eq!(
            with["furniture"], without["furniture"],
            "at {size:?}, mdBook's menu bar, sidebar, content column or title moved"
        );
    }
}

#[test]
fn links_have_text_and_directives_keep_the_heading_outline() {
    for page in [case_page(), example_print_page()] {
        let m = measure(&page, "screen", DESKTOP, Variant::AsBuilt);
        let links = array(&m, "links");
        assert!(!links.is_empty(), "{}: no links measured", page.display());
        for link in links {
            let text = link["text"].as_str().unwrap_or_default();
            assert!(
                text.chars().any(char::is_alphanumeric),
                "{}: a link without discernible text: {link}",
                page.display()
            );
            let href = link["href"].as_str().unwrap_or_default();
            assert!(href.starts_with("https://"), "{link}");
        }
        assert_eq!(
            array(&m, "headings").len(),
            0,
            "{}: directives must not add headings: {}",
            page.display(),
            m["headings"]
        );
    }
    // The case chapter's outline is its Markdown headings, in order.
    let m = measure(&case_page(), "screen", DESKTOP, Variant::AsBuilt);
    assert_eq!(ints(&m["outline"]), [1, 2, 2, 2, 2, 2]);
}

#[test]
fn directives_work_without_javascript() {
    let js = measure(&case_page(), "screen", DESKTOP, Variant::AsBuilt);
    let nojs = measure(&case_page(), "screen", DESKTOP, Variant::NoJs);
    assert_eq!(array(&nojs, "examples").len(), array(&js, "examples").len());
    // Columns, tabs (pure CSS radios) and cards behave the same.
    for title in ["Integer division", "Adding one"] {
        let (a, b) = (compare_named(&js, title), compare_named(&nojs, title));
        assert_eq!(a["visible"], b["visible"], "{title}");
        assert_eq!(a["tabs"], b["tabs"], "{title}");
        // mdBook hides its sidebar and shows hidden lines without
        // JavaScript, so compare sizes and relative places, not positions.
        let (sa, sb) = (array(a, "sides"), array(b, "sides"));
        for (x, y) in sa.iter().zip(sb) {
            assert_eq!(x["width"], y["width"], "{title}: {x} vs {y}");
        }
        let gap = |s: &Vec<Value>| num(&s[1], "left") - num(&s[0], "left");
        let rise = |s: &Vec<Value>| num(&s[1], "top") - num(&s[0], "top");
        if a["layout"] == "columns" {
            assert_eq!(gap(sa), gap(sb), "{title}");
            assert_eq!(rise(sa), rise(sb), "{title}");
        }
    }
    assert_eq!(nojs["cards"][0]["columns"], js["cards"][0]["columns"]);
    assert_eq!(num(&nojs["overflow"], "count"), 0.0, "{}", nojs["overflow"]);
    // Without JavaScript mdBook shows its light colours.
    let light = &nojs["contrast"]["light"];
    assert!(
        num(&array(light, "worst")[0], "ratio") >= MIN_CONTRAST,
        "{light}"
    );
}

#[test]
fn every_theme_gives_readable_text_in_our_components() {
    for page in [case_page(), example_print_page()] {
        let m = measure(&page, "screen", DESKTOP, Variant::AsBuilt);
        for theme in THEMES {
            let t = &m["contrast"][theme];
            assert!(
                num(t, "count") >= 20.0,
                "{} in {theme}: too few text elements measured: {t}",
                page.display()
            );
            let worst = &array(t, "worst")[0];
            assert!(
                num(worst, "ratio") >= MIN_CONTRAST,
                "{} in {theme}: contrast below {MIN_CONTRAST}:1: {}",
                page.display(),
                t["worst"]
            );
        }
    }
}

#[test]
fn print_page_shows_every_directives_content() {
    for page in [case_book().join("book/print.html"), example_print_page()] {
        let m = measure(&page, "print", DESKTOP, Variant::AsBuilt);
        assert!(
            num(&m, "printRules") >= 3.0,
            "{}: print rules not applied: {}",
            page.display(),
            m["printRules"]
        );
        let contents = array(&m, "contents");
        assert!(!contents.is_empty());
        for d in contents {
            assert!(num(d, "pieces") > 0.0, "{d}");
            assert_eq!(
                array(d, "missing").len(),
                0,
                "{}: printed without some of its content: {d}",
                page.display()
            );
        }
        assert_eq!(num(&m, "tabsShown"), 0.0, "tab labels are not printed");
        for cmp in array(&m, "compares") {
            let sides = array(cmp, "sides");
            assert_eq!(
                ints(&cmp["visible"]).len(),
                sides.len(),
                "every side printed: {cmp}"
            );
            for pair in sides.windows(2) {
                assert!(
                    num(&pair[1], "top") >= num(&pair[0], "bottom"),
                    "printed sides stacked: {cmp}"
                );
            }
        }
        for link in array(&m, "linkAfter") {
            let href = link["href"].as_str().expect("href");
            let after = link["after"].as_str().expect("content");
            assert!(after.contains(href), "link URL printed: {link}");
        }
        for shown in array(&m, "asm") {
            assert_eq!(shown, true, "assembly panels print open: {}", m["asm"]);
        }
    }
    // The case book proves the print rules matter: on screen its second
    // tab and its closed assembly panels are not shown; in print they are.
    let m = measure(
        &case_book().join("book/print.html"),
        "print",
        DESKTOP,
        Variant::AsBuilt,
    );
    let hidden_on_screen: usize = array(&m, "contentsScreen")
        .iter()
        .map(|d| array(d, "missing").len())
        .sum();
    assert!(hidden_on_screen >= 2, "{}", m["contentsScreen"]);
    let kinds: Vec<&str> = array(&m, "contents")
        .iter()
        .map(|d| d["what"].as_str().expect("what"))
        .collect();
    for kind in [
        "div.companion-example",
        "div.companion-compare",
        "div.companion-reading-list",
        "div.companion-error",
    ] {
        assert!(
            kinds.iter().any(|k| k.starts_with(kind)),
            "{kind} printed: {kinds:?}"
        );
    }
    assert!(array(&m, "asm").len() >= 2, "assembly panels: {}", m["asm"]);
}

/// The built chapter with the most of our elements (mdBook's own pages
/// and our page variants left out).
fn richest_chapter(out: &Path) -> PathBuf {
    let mut best: Option<(usize, PathBuf)> = None;
    let mut entries: Vec<PathBuf> = std::fs::read_dir(out)
        .expect("book output")
        .map(|e| e.expect("entry").path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path
            .file_name()
            .expect("name")
            .to_string_lossy()
            .into_owned();
        let skip = ["print.html", "index.html", "toc.html", "404.html"].contains(&name.as_str())
            || name.contains("-measure-")
            || name.contains("-shot-");
        if skip || !name.ends_with(".html") {
            continue;
        }
        let html = std::fs::read_to_string(&path).expect("page");
        let n = html.matches("class=\"companion-").count();
        if best.as_ref().is_none_or(|(m, _)| n > *m) {
            best = Some((n, path));
        }
    }
    let (n, path) = best.expect("a chapter page");
    assert!(n > 0, "no chapter of the example book uses a directive");
    path
}

/// Screenshots for people: each theme at desktop width, light and coal at
/// phone width, of the case chapter and of the example book's chapter
/// with the most directives. Saved under `target/screenshots/` (CI keeps
/// them as artefacts).
#[test]
fn screenshots_of_each_theme() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("target dir")
        .join("screenshots");
    if dir.exists() {
        std::fs::remove_dir_all(&dir).expect("clearing old screenshots");
    }
    std::fs::create_dir_all(&dir).expect("screenshot dir");
    let example = richest_chapter(&example_book().join("book"));
    let stem = example
        .file_stem()
        .expect("stem")
        .to_string_lossy()
        .into_owned();
    let mut jobs: Vec<(PathBuf, &str, (u32, u32), PathBuf)> = Vec::new();
    for theme in THEMES {
        jobs.push((
            case_page(),
            theme,
            (1280, 1900),
            dir.join(format!("case-{theme}.png")),
        ));
        jobs.push((
            example.clone(),
            theme,
            (1280, 1600),
            dir.join(format!("{stem}-{theme}.png")),
        ));
    }
    for theme in ["light", "coal"] {
        jobs.push((
            case_page(),
            theme,
            (PHONE.0, 2400),
            dir.join(format!("case-phone-{theme}.png")),
        ));
    }
    let queue = Mutex::new(jobs.clone());
    std::thread::scope(|s| {
        for _ in 0..3 {
            s.spawn(|| {
                loop {
                    let job = queue.lock().expect("queue").pop();
                    let Some((page, theme, size, png)) = job else {
                        break;
                    };
                    screenshot(&page, theme, size, &png);
                }
            });
        }
    });
    let case_themes: Vec<Vec<u8>> = THEMES
        .iter()
        .map(|t| std::fs::read(dir.join(format!("case-{t}.png"))).expect("screenshot"))
        .collect();
    for (i, a) in case_themes.iter().enumerate() {
        for b in &case_themes[i + 1..] {
            assert_ne!(a, b, "two themes gave the same picture");
        }
    }
    for (_, _, size, png) in &jobs {
        let bytes = std::fs::read(png).unwrap_or_else(|e| panic!("{}: {e}", png.display()));
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "{}", png.display());
        let width = u32::from_be_bytes(bytes[16..20].try_into().expect("width"));
        assert_eq!(width, size.0, "{}", png.display());
    }
}
