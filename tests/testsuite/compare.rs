//! Comparison blocks, through real mdBook: columns and tabs, real mdBook
//! code blocks inside, the Compiler Explorer session, build-time assembly
//! and its cache.

use crate::support::{BookTest, Page, client_state, inside, logging_wrapper};
use pretty_assertions::assert_eq;
use scraper::ElementRef;

const DIVISION: &str = include_str!("compare/division/src/div.md");

fn href(el: ElementRef<'_>) -> String {
    el.value().attr("href").expect("href").to_owned()
}

fn classes(el: ElementRef<'_>) -> Vec<String> {
    el.value().classes().map(str::to_owned).collect()
}

#[test]
fn columns_hold_real_mdbook_code_blocks_with_captions_and_notes() {
    let book = BookTest::new().chapter("div.md", DIVISION);
    let page = book.html("div.md");
    let cmp = page.one("main div.companion-compare");
    assert!(classes(cmp).contains(&"companion-layout-columns".to_owned()));
    assert_eq!(
        Page::text(inside(cmp, ":scope > .companion-header .companion-title")[0]),
        "Integer division"
    );
    let sides = inside(cmp, ".companion-side");
    assert_eq!(sides.len(), 2);

    // C: highlighted by mdBook as C, hidden lines gone, prefix never shown.
    let c = sides[0];
    assert_eq!(
        Page::text(inside(c, ".companion-title")[0]),
        "C: undefined for b == 0"
    );
    assert_eq!(
        Page::text(inside(c, ".companion-badge")[0]),
        "Undefined behaviour"
    );
    let c_code = inside(c, "pre > code.language-c");
    assert_eq!(c_code.len(), 1);
    assert_eq!(
        c_code[0].text().collect::<String>(),
        "int divide(int a, int b) { return a / b; }\n"
    );
    assert_eq!(
        Page::text(inside(c, ".companion-note p")[0]),
        "A note about the C side."
    );
    assert_eq!(
        inside(c, ".companion-note p em").len(),
        1,
        "the note is Markdown"
    );
    assert_eq!(
        Page::text(inside(c, ".companion-output-label")[0]),
        "Sanitizer reports"
    );
    assert_eq!(
        Page::text(inside(c, ".companion-output code")[0]),
        "runtime error: division of -2147483648 by -1 cannot be represented"
    );
    let c_links = inside(c, ".companion-links a");
    assert_eq!(c_links.len(), 1);
    assert_eq!(Page::text(c_links[0]), "Compiler Explorer");
    assert_eq!(
        client_state(&href(c_links[0]))["sessions"][0]["language"],
        "c"
    );

    // Rust: the example directive's frame, a runnable mdBook block.
    let rust = sides[1];
    assert_eq!(
        Page::text(inside(rust, ".companion-title")[0]),
        "Rust: both cases panic"
    );
    assert_eq!(Page::text(inside(rust, ".companion-badge")[0]), "Panics");
    // Our Run button takes it: mdBook makes no playground of it.
    assert_eq!(inside(rust, "[data-companion-run]").len(), 1);
    assert!(inside(rust, "pre.playground").is_empty());
    let pre = inside(rust, ".companion-example > pre");
    assert_eq!(pre.len(), 1, "one code block");
    let code = inside(pre[0], "code.language-rust")[0];
    assert!(classes(code).contains(&"should_panic".to_owned()));
    assert_eq!(inside(code, ".boring").len(), 1, "the hidden main line");
    let labels: Vec<String> = inside(rust, ".companion-links a")
        .into_iter()
        .map(Page::text)
        .collect();
    assert_eq!(labels, ["Playground", "Compiler Explorer"]);
    assert_eq!(
        Page::text(inside(rust, ".companion-note p")[0]),
        "Rust never has undefined behaviour here."
    );

    // One link for the whole block, after the sides.
    let compare = inside(cmp, ":scope > .companion-compare-links a");
    assert_eq!(compare.len(), 1);
    assert_eq!(Page::text(compare[0]), "Compare in Compiler Explorer");
    // No assembly unless asked for.
    assert!(inside(cmp, ".companion-asm").is_empty());

    let paras: Vec<String> = page.all("main > p").into_iter().map(Page::text).collect();
    assert_eq!(paras, ["Before the block.", "After the block."]);
}

#[test]
fn compare_link_opens_every_compiled_side_in_one_session() {
    let text = r#"````compare
```c
~ #include <stdio.h>
int twice(int x) { return 2 * x; }
~ int main(void) { printf("%d\n", twice(2)); }
```
```cpp caption="C++"
//~ #include <vector>
int twice(int x) { return x << 1; }
```
```rust edition=2018
pub fn twice(x: i32) -> i32 { 2 * x }
# fn main() { println!("{}", twice(2)); }
```
```python
def twice(x): return 2 * x
```
````
"#;
    let book = BookTest::new()
        .companion("c-compiler = \"cg141\"\ncpp-compiler = \"g141\"\nrust-compiler = \"r1900\"\nc-hidden-prefix = \"//~ \"")
        .chapter("a.md", &text.replace("\n~ ", "\n//~ "));
    let page = book.html("a.md");
    let link = page.one(".companion-compare-links a");
    let state = client_state(&href(link));
    assert_eq!(
        state,
        serde_json::json!({"sessions": [
            {"id": 1, "language": "c",
             "source": "#include <stdio.h>\nint twice(int x) { return 2 * x; }\nint main(void) { printf(\"%d\\n\", twice(2)); }\n",
             "compilers": [{"id": "cg141", "options": "-O2"}]},
            {"id": 2, "language": "c++",
             "source": "#include <vector>\nint twice(int x) { return x << 1; }\n",
             "compilers": [{"id": "g141", "options": "-O2"}]},
            {"id": 3, "language": "rust",
             "source": "pub fn twice(x: i32) -> i32 { 2 * x }\nfn main() { println!(\"{}\", twice(2)); }\n",
             "compilers": [{"id": "r1900", "options": "-C opt-level=2 --edition=2018"}]},
        ]})
    );
    // The reader never sees the hidden-line prefix.
    let main = Page::text(page.one("main"));
    assert!(
        !main.contains("//~") && !main.contains("#include"),
        "{main}"
    );
    // Python is highlighted by mdBook, not linked.
    let py = page.one(".companion-side-python");
    assert_eq!(inside(py, "code.language-python").len(), 1);
    assert_eq!(
        inside(py, "a")
            .iter()
            .map(|a| a.value().attr("class").unwrap_or_default())
            .collect::<Vec<_>>(),
        ["companion-number"]
    );
    assert_eq!(
        inside(page.one(".companion-side-cpp"), "code.language-cpp").len(),
        1
    );
}

#[test]
fn tabs_work_without_javascript_and_ids_are_unique_on_the_print_page() {
    let chapter = "# T\n\n````compare layout=tabs\n```c caption=\"C\"\nint f(void);\n```\n```rust\nfn f() {}\n```\n```python\nf = 1\n```\n````\n\n````compare layout=tabs\n```c\nint g(void);\n```\n```cpp\nint g();\n```\n````\n";
    let book = BookTest::new()
        .chapter("a.md", chapter)
        .chapter("b.md", chapter);
    let page = book.html("a.md");
    let blocks = page.all("div.companion-compare.companion-layout-tabs");
    assert_eq!(blocks.len(), 2);
    let mut names = Vec::new();
    for (block, labels) in blocks
        .iter()
        .zip([["C", "Rust", "Python"].as_slice(), &["C", "C++"]])
    {
        let sides = inside(*block, ".companion-sides")[0];
        let inputs = inside(sides, ":scope > input.companion-tab-input");
        let tabs = inside(sides, ":scope > label.companion-tab");
        assert_eq!(inputs.len(), labels.len());
        let texts: Vec<String> = tabs.iter().map(|t| Page::text(*t)).collect();
        assert_eq!(texts, labels);
        for (i, (input, tab)) in inputs.iter().zip(&tabs).enumerate() {
            assert_eq!(input.value().attr("type"), Some("radio"));
            assert_eq!(input.value().attr("checked").is_some(), i == 0);
            assert_eq!(input.value().attr("id"), tab.value().attr("for"));
        }
        let name = inputs[0].value().attr("name").expect("name");
        assert!(inputs.iter().all(|i| i.value().attr("name") == Some(name)));
        names.push(name.to_owned());
        // Each radio is followed by its label, then come the sides, in
        // the order the stylesheet's `:nth-of-type` rules expect.
        let kids: Vec<&str> = sides
            .children()
            .filter_map(ElementRef::wrap)
            .map(|e| e.value().name())
            .collect();
        let n = labels.len();
        let mut expected = Vec::new();
        for _ in 0..n {
            expected.extend(["input", "label"]);
        }
        expected.extend(std::iter::repeat_n("div", n));
        assert_eq!(kids, expected);
    }
    assert_ne!(names[0], names[1]);
    // The print page joins both chapters: every id stays unique.
    let print = book.page("print.md");
    let ids: Vec<&str> = print
        .all("input.companion-tab-input")
        .iter()
        .filter_map(|i| i.value().attr("id"))
        .collect();
    assert_eq!(ids.len(), 10);
    let mut unique = ids.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), ids.len(), "{ids:?}");
}

/// A wrapper around a real compiler that logs each call's arguments.
fn compiles_logged(book: &BookTest) -> usize {
    std::fs::read_to_string(crate::support::compiler_log(book.root()))
        .unwrap_or_default()
        .lines()
        .filter(|l| l.contains(" -S ") || l.contains("--emit asm"))
        .count()
}

fn listing(el: ElementRef<'_>) -> String {
    let details = inside(el, "details.companion-asm");
    assert_eq!(details.len(), 1, "one assembly panel");
    assert!(Page::text(inside(details[0], "summary")[0]).starts_with("Assembly"));
    // The listing tied to the source (the compilers' line tables); an
    // x86asm fence when a listing has no line table.
    let tied = inside(details[0], "pre.companion-asm-listing");
    let code = match tied.is_empty() {
        false => tied,
        true => inside(details[0], "pre > code.language-x86asm"),
    };
    assert_eq!(code.len(), 1, "one listing");
    code[0].text().collect()
}

#[test]
fn asm_is_built_once_filtered_and_cached() {
    let book = BookTest::new();
    let cc = logging_wrapper(&book, "cc-wrapper", "cc");
    let rustc = logging_wrapper(&book, "rustc-wrapper", "rustc");
    let text = DIVISION.replace(
        "compare title=\"Integer division\"",
        "compare title=\"Integer division\" asm",
    );
    let book = book
        .companion(&format!("cc = {cc:?}\nrustc = {rustc:?}"))
        .chapter("div.md", &text);
    let page = book.html("div.md");
    let sides = page.all(".companion-side");
    let c = listing(sides[0]);
    assert!(c.starts_with("divide:\n"), "{c}");
    assert!(c.contains("idiv"), "{c}");
    assert!(
        !c.contains("main:"),
        "the hidden main is not the reader's: {c}"
    );
    assert!(
        !c.contains(".cfi") && !c.contains(".size") && !c.contains(".LFB"),
        "{c}"
    );
    let rust = listing(sides[1]);
    assert!(rust.starts_with("divide:\n"), "{rust}");
    assert!(rust.contains("panic_const_div_by_zero"), "{rust}");
    assert!(!rust.contains("_ZN") && !rust.contains("main:"), "{rust}");
    // The panel sits in the side's frame, before its links.
    let kids: Vec<String> = inside(sides[0], ".companion-example")[0]
        .children()
        .filter_map(ElementRef::wrap)
        .map(|e| e.value().name().to_owned())
        .collect();
    assert_eq!(kids, ["div", "pre", "div", "details", "div"]);
    assert_eq!(compiles_logged(&book), 2, "one compile per side");

    // The second build runs no compiler and shows the same listings.
    book.build().expect("second build");
    assert_eq!(compiles_logged(&book), 2, "served from the cache");
    let again = book.page("div.md");
    assert_eq!(listing(again.all(".companion-side")[0]), c);
    assert!(book.root().join(".companion-cache/asm").is_dir());

    // Changing the code compiles that side only.
    let changed = text.replace("return a / b;", "return a / b + 0;");
    std::fs::write(book.root().join("src/div.md"), changed).expect("edit");
    let md = mdbook_driver::MDBook::load(book.root()).expect("load");
    md.build().expect("third build");
    assert_eq!(compiles_logged(&book), 3);
}

#[test]
fn asm_on_a_single_rust_example() {
    let text = "# E\n\n```rust example title=\"Sum\" asm\npub fn sum(v: &[u32]) -> u32 { v.iter().sum() }\n# fn main() { println!(\"{}\", sum(&[1, 2])); }\n```\n\n```output\n3\n```\n";
    let book = BookTest::new().chapter("e.md", text);
    let page = book.html("e.md");
    let ex = page.one("div.companion-example");
    let asm = listing(ex);
    assert!(asm.starts_with("sum:\n"), "{asm}");
    assert!(!asm.contains("main:"), "{asm}");
    // Panel between the output and the links.
    let kids: Vec<String> = ex
        .children()
        .filter_map(ElementRef::wrap)
        .map(|e| {
            e.value()
                .attr("class")
                .unwrap_or(e.value().name())
                .to_owned()
        })
        .collect();
    assert_eq!(
        kids,
        [
            "companion-header",
            "pre",
            "companion-output",
            "companion-asm",
            "companion-links"
        ]
    );
}

#[test]
fn build_fails_with_location_for_a_bad_side() {
    let text = "# A\n\nText.\n\n````compare\n```c\nint x;\n```\n```kotlin\nval x = 1\n```\n````\n";
    let book = BookTest::new().chapter("a.md", text);
    let err = book.build_in_process().unwrap_err();
    assert!(
        err.contains("src/a.md:9:4: found a `kotlin` code block; expected a side in one of c, cpp, rust, python, go"),
        "{err}"
    );
}

#[test]
fn asm_of_code_that_does_not_compile_fails_the_build_under_bail() {
    let text =
        "# A\n\n````compare asm\n```c\nint f(void) { return }\n```\n```python\nx = 1\n```\n````\n";
    let book = BookTest::new().chapter("a.md", text);
    let err = book.build_in_process().unwrap_err();
    assert!(
        err.contains("src/a.md:4:4: cannot show the assembly: `cc` rejected the code"),
        "{err}"
    );
}

#[test]
fn missing_compiler_keeps_the_page_and_its_links() {
    let book = BookTest::new()
        .companion("cc = \"/nonexistent/cc\"\nrustc = \"/nonexistent/rustc\"")
        .chapter(
            "div.md",
            &DIVISION.replace("title=\"Integer division\"", "asm"),
        );
    let page = book.html("div.md");
    assert!(page.all(".companion-asm").is_empty());
    assert_eq!(page.all(".companion-compare-links a").len(), 1);
    assert_eq!(page.all(".companion-side").len(), 2);
}

#[test]
fn a_missing_compiler_for_assembly_is_told_once_per_build() {
    // Per chapter: a comparison with a C and a Rust side, and a Rust example,
    // all asking for assembly.
    let text = "# A\n\n````compare asm\n```c\nint one(void) { return 1; }\n```\n```rust\npub fn one() -> i32 { 1 }\n```\n````\n\n```rust example asm\npub fn two() -> i32 { 2 }\n# fn main() { two(); }\n```\n";
    let book = BookTest::new()
        .companion("cc = \"/nonexistent/cc\"\nrustc = \"/nonexistent/rustc\"")
        .chapter("a.md", text)
        .chapter("b.md", text);
    book.write();
    let out = BookTest::run_bin(&["build", &book.root().display().to_string()], b"");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let told: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains("/nonexistent/"))
        .map(|l| l.split_once("src/").map_or(l, |(_, rest)| rest))
        .collect();
    assert_eq!(
        told,
        [
            "a.md:4:4: the compiler `/nonexistent/cc` could not be run, so the assembly of 2 blocks is not shown (the first is here); set `cc` in [preprocessor.companion] to a compiler that runs",
            "a.md:7:4: the compiler `/nonexistent/rustc` could not be run, so the assembly of 4 blocks is not shown (the first is here); set `rustc` in [preprocessor.companion] to a compiler that runs",
        ],
        "{stderr}"
    );
    for chapter in ["a.md", "b.md"] {
        let page = book.page(chapter);
        assert!(page.all(".companion-asm").is_empty());
        assert_eq!(page.all(".companion-compare-links a").len(), 1);
        assert_eq!(page.all(".companion-example .companion-links a").len(), 5);
    }
}

#[test]
fn other_renderers_get_plain_fences_with_captions_and_notes() {
    let book = BookTest::new()
        .toml("[output.html]\n[output.markdown]")
        .chapter("div.md", DIVISION);
    book.build().expect("build");
    let md = std::fs::read_to_string(book.output_dir("markdown").join("div.md")).expect("md");
    assert!(
        md.contains("**Integer division**\n\nExample 1.1 — **C: undefined for b == 0** — *Undefined behaviour*\n\n```c\nint divide(int a, int b) { return a / b; }\n```\n"),
        "{md}"
    );
    assert!(md.contains("\nA *note* about the C side.\n"), "{md}");
    assert!(
        md.contains("Example 1.2 — **Rust: both cases panic** — *Panics*"),
        "{md}"
    );
    assert!(
        md.contains("[Compare in Compiler Explorer](<https://godbolt.org/clientstate/"),
        "{md}"
    );
    assert!(!md.contains("<div") && !md.contains("~ "), "{md}");
}

#[test]
fn mdbook_test_runs_only_the_rust_sides() {
    let good = "````compare\n```c\nint f(void) { return *(int *)0; }\n```\n```rust expect=panic\nfn main() { let v: Vec<i32> = Vec::new(); v[0]; }\n```\n````\n";
    let book = BookTest::new().chapter("t.md", good);
    book.write();
    let mut md = mdbook_driver::MDBook::load(book.root()).expect("load");
    md.test(vec![]).expect("the Rust side passes mdbook test");

    let wrong = good.replace("expect=panic", "expect=run");
    let book = BookTest::new().chapter("t.md", &wrong);
    book.write();
    let mut md = mdbook_driver::MDBook::load(book.root()).expect("load");
    assert!(
        md.test(vec![]).is_err(),
        "a panicking `expect=run` side fails"
    );
}

#[test]
fn a_side_owns_free_form_notes_and_its_output_in_either_order() {
    let text = "# Notes\n\n- In a list:\n\n  ````compare title=\"Free-form\"\n  ```c expect=run\n  #include <stdio.h>\n  int main(void) { puts(\"c\"); return 0; }\n  ```\n  ```output\n  c\n  ```\n  First paragraph, with a [link](https://example.com/) and `code`.\n\n  - a list item\n  - *another*\n  ```cpp caption=\"A fragment\" ignore\n  std::transform(v.begin(), v.end(), v.begin(), f);\n  ```\n  ```rust\n  fn main() { println!(\"rust\"); }\n  ```\n  Before the output.\n  ```output\n  rust\n  ```\n  After the output.\n  ````\n";
    let book = BookTest::new().chapter("notes.md", text);
    let page = book.html("notes.md");
    let sides = page.all("main div.companion-compare .companion-side");
    assert_eq!(sides.len(), 3);
    let notes: Vec<Vec<String>> = sides
        .iter()
        .map(|s| {
            inside(*s, ".companion-note > *")
                .into_iter()
                .map(|el| el.value().name().to_owned())
                .collect()
        })
        .collect();
    assert_eq!(
        notes,
        [vec!["p", "ul"], vec![], vec!["p", "p"]],
        "each side's note is real Markdown"
    );
    assert_eq!(
        href(inside(sides[0], ".companion-note a")[0]),
        "https://example.com/"
    );
    for (side, want) in [(sides[0], "c\n"), (sides[2], "rust\n")] {
        let out = inside(side, ".companion-output pre code");
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].text().collect::<String>(), want);
    }
    let fragment = sides[1];
    assert_eq!(
        Page::text(inside(fragment, ".companion-badge")[0]),
        "Not checked"
    );
    assert!(
        classes(inside(fragment, ".companion-example")[0])
            .contains(&"companion-expect-ignore".to_owned())
    );
    // The whole book still checks: the fragment is never compiled.
    book.run(&["check"], |cmd| {
        cmd.expect_stdout(snapbox::str![[r#"
ok      src/notes.md:6: compare side C (expect=run)
ignored src/notes.md:17: compare side "A fragment": not checked
ok      src/notes.md:20: compare side Rust (expect=run)
compiler runs: 2, program runs: 2, from cache: 0
2 passed, 0 failed, 1 ignored

"#]]);
    });
}

#[test]
fn an_unclosed_side_and_a_stray_output_are_located() {
    for (text, want) in [
        (
            "# A\n\n````compare\n```c\nint x;\n```\n```rust\nfn f() {}\n````\n",
            "src/a.md:7:1: found a `rust` block whose fence never closes; expected a closing fence before the end of the compare block",
        ),
        (
            "# A\n\n> ````compare\n> ```output\n> x\n> ```\n> ```c\n> int y;\n> ```\n> ````\n",
            "src/a.md:4:3: found an ```output block before the first side; expected a fenced code block",
        ),
    ] {
        let err = BookTest::new()
            .chapter("a.md", text)
            .build_in_process()
            .unwrap_err();
        assert!(err.contains(want), "{err}");
    }
}

// Issue 58 (round 10): languages as data.
mod languages;
