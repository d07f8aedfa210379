//! The pages in a real browser: headless Chromium renders built books and
//! `browser.js` measures the rendered DOM (boxes, computed colours per
//! theme, what print media shows), so the stylesheet is tested as readers
//! get it, not as HTML source. Needs Debian's `chromium` (`.ci/run` installs
//! it; `CHROMIUM=/path` picks another): without it these tests fail, loudly.
//!
//! Two books: a case book holding every directive kind, for the layout
//! checks, and a copy of `example-book/`, for themes, print, overflow and
//! the screenshots saved to `target/screenshots/`. The harness is here;
//! [`layout`] holds the layout and markup checks, [`pages`] the themes,
//! print and screenshots.
//!
//! A test target of its own (`cargo test --test browser`), beside
//! `testsuite`, so the suite that needs no browser runs without one; it
//! shares `testsuite`'s support and tools.

#![allow(unreachable_pub, missing_docs, dead_code)]

#[path = "../testsuite/support.rs"]
mod support;
#[path = "../testsuite/tools.rs"]
mod tools;

mod a11y;
mod asm;
mod cdp;
mod containers;
mod exercise;
mod layout;
mod pages;
mod quiz;
mod run;
mod standin;

use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex, OnceLock};

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

## Talks

```talk title="Schedule"
[[talk]]
title = "Ownership in ten minutes"
speakers = ["Ada Example"]
event = "Example Conf 2026"
date = 2026-12-03T10:30:00
duration = "10:00"
place = "Room 1"
video = "https://www.youtube.com/watch?v=example"
links = [{ label = "Slides", url = "https://example.org/ownership.pdf" }]
abstract = "Why *moves* make `free` safe, and what the borrow checker proves."
[[talk.moment]]
at = "2:30"
title = "Moves"
[[talk.moment]]
at = "7:05"
title = "Borrows"

[[talk]]
title = "Unsafe, carefully"
speakers = ["Alan Example", "Grace Example"]
event = "Example Conf 2026"
date = 2026-12-04
place = "online"
video = "https://vimeo.com/123456"
[[talk.moment]]
at = "1:00"
title = "The five superpowers of unsafe Rust"
```

## An exercise

`````exercise title="Halve without overflow" id=halve
Write `halve`, which halves a number and rounds **up**, for every `u32`.

```rust starter
pub fn halve(n: u32) -> u32 {
    todo!()
}
```

```rust tests
#[test]
fn rounds_up() {
    assert_eq!(halve(3), 2);
    assert_eq!(halve(u32::MAX), 1 << 31);
}
```

```hints
`n.div_ceil(2)`, or `n / 2 + n % 2`.
```

```rust solution
pub fn halve(n: u32) -> u32 {
    n.div_ceil(2)
}
```
`````

## A mistake, shown as an error box

```rust example colour=red
fn main() {}
```
"#;

/// Every directive in every container a chapter can put it in: a list
/// item, a block quote, `<details>`, an HTML table's cell; two tabbed comparisons to keep in
/// step, one of them nested.
const CONTAINERS: &str = r#"# Containers

`````compare title="Top-level tabs" layout=tabs
```c
int one(void) { return 1; }
```
A C note with [a link](https://example.com/c) and `code`.
```rust
pub fn one() -> i32 { 1 }
```
`````

- In a list item, an example with a [link](https://example.com/list):

  ```rust example title="Listed"
  fn main() { println!("listed"); }
  ```

  ```output
  listed
  ```

- And tabs in a list:

  `````compare title="Listed tabs" layout=tabs
  ```c
  int two(void) { return 2; }
  ```
  ```rust
  pub fn two() -> i32 { 2 }
  ```
  A Rust note with [a link](https://example.com/rust).

  A second paragraph.
  `````

> A quote with a [link](https://example.com/quote), then an example:
>
> ```rust example title="Quoted" expect=panic
> fn main() { panic!("quoted"); }
> ```
>
> ```output
> quoted
> ```
>
> `````compare title="Quoted columns"
> ```c caption="A C fragment" ignore
> not a whole program
> ```
> A note in a quote, with [a link](https://example.com/q2).
> ```rust
> pub fn three() -> i32 { 3 }
> ```
> `````
>
> ```reading-list
> [[entry]]
> title = "Quoted card"
> url = "https://example.com/card"
> access = "free"
> kind = "web"
> note = "A note with [a link](https://example.com/note)."
> ```

<details>
<summary>Details</summary>

```rust example title="In details"
fn main() {}
```

`````compare title="Detailed columns"
```cpp caption="C++"
int four() { return 4; }
```
```rust
pub fn four() -> i32 { 4 }
```
`````

```reading-list
[[entry]]
title = "Detailed card"
url = "https://example.com/details"
access = "paid"
kind = "book"
level = "advanced"
```

</details>

<table>
<tr>
<td>

```rust example title="In a table" expect=no-run
fn main() { loop {} }
```

</td>
<td>

A cell with [a link](https://example.com/cell).

</td>
</tr>
</table>
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
    let found = ["chromium", "chromium-browser"]
        .into_iter()
        .find_map(|bin| crate::tools::debian(bin, "chromium"));
    if let Some(exe) = found {
        return exe;
    }
    panic!(
        "the browser tests need Chromium and found none on PATH: install it \
         (`apt-get install chromium`, as .ci/run does) or set CHROMIUM=/path/to/chromium"
    );
}

/// Opens `page` at `size` in the process's headless Chromium (a fresh
/// profile, no network: [`cdp`]) and returns its DOM once the element
/// with id `id`, which the page's script writes when it is done, exists.
fn dump_dom(page: &Path, size: (u32, u32), id: &str) -> String {
    let tab = cdp::Tab::reuse(page, size);
    tab.wait_for(
        &format!("document.getElementById({id:?})"),
        &format!("#{id} in {}", page.display()),
    );
    let dom = tab.dom();
    tab.done();
    dom
}

/// Writes `page` with `script` run first in `<head>` and the measuring
/// script at the end of `<body>`, next to the original (so its relative
/// links hold), as `<stem>-variant-<tag>.html` (which [`a11y`]'s page
/// list leaves out).
fn variant(page: &Path, tag: &str, edit: impl Fn(String) -> String) -> PathBuf {
    let html =
        std::fs::read_to_string(page).unwrap_or_else(|e| panic!("reading {}: {e}", page.display()));
    let out = page.with_file_name(format!(
        "{}-variant-{tag}.html",
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
    /// After a click on every Run button (recorded runs show at once).
    Ran,
    /// After a reader chose the first option of every quiz question and
    /// pressed Check (verdicts, explanations and right answers shown).
    Answered,
}

fn measure_now(page: &Path, mode: &str, size: (u32, u32), v: Variant) -> Value {
    let tag = format!("measure-{mode}-{}-{v:?}", size.0);
    let file = variant(page, &tag, |html| {
        let html = match v {
            Variant::AsBuilt | Variant::Ran | Variant::Answered => html,
            Variant::NoCss => without_companion_css(html),
            Variant::NoJs => without_scripts(html),
        };
        let clicks = match v {
            Variant::Ran => {
                "<script>document.querySelectorAll(\".companion-run-button:not(.companion-run-undo)\").forEach((b) => b.click());</script>\n"
            }
            Variant::Answered => {
                "<script>window.addEventListener(\"load\", () => { document.querySelectorAll(\".companion-quiz-question\").forEach((q) => { const i = q.querySelector(\"input\"); if (i && i.type !== \"text\") i.checked = true; else if (i) i.value = \"a wrong answer\"; }); document.querySelectorAll(\".companion-quiz-check\").forEach((b) => b.click()); });</script>\n"
            }
            _ => "",
        };
        let script = format!(
            "{clicks}<script>window.companionTest = {{ mode: \"{mode}\" }};</script>\n<script>\n{MEASURE}\n</script>\n"
        );
        inject(html, "</body>", &script)
    });
    let dom = dump_dom(&file, size, "companion-test-result");
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
    let tab = cdp::Tab::reuse(&file, size);
    tab.screenshot(png);
    tab.done();
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
             [output.html]\nadditional-css = [\"theme/companion.css\"]\nadditional-js = [\"theme/companion.js\"]\n",
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
            "# Summary\n\n- [Every directive](all.md)\n- [Containers](containers.md)\n",
        )
        .expect("summary");
        std::fs::write(root.join("src/all.md"), CASE).expect("chapter");
        std::fs::write(root.join("src/containers.md"), CONTAINERS).expect("chapter");
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

fn containers_page() -> PathBuf {
    case_book().join("book/containers.html")
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
