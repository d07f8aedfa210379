//! The runnable Rust example, through real mdBook.

use crate::support::{BookTest, Page, client_state, inside};
use pretty_assertions::assert_eq;

const DIVIDE: &str = include_str!("example/divide/src/div.md");

fn query(url: &str, key: &str) -> String {
    let q = url.split_once('?').expect("query").1;
    // The Playground reads its query as `qs` does: form-urlencoded.
    form_urlencoded::parse(q.as_bytes())
        .find_map(|(k, v)| (k == key).then(|| v.into_owned()))
        .unwrap_or_else(|| panic!("no {key} in {url}"))
}

#[test]
fn example_stays_a_runnable_mdbook_block_with_title_outcome_and_output() {
    let book = BookTest::new().chapter("div.md", DIVIDE);
    let page = book.html("div.md");
    let ex = page.one("main div.companion-example");
    assert_eq!(
        Page::text(inside(ex, ".companion-title")[0]),
        "Dividing by zero"
    );
    assert_eq!(Page::text(inside(ex, ".companion-badge")[0]), "Panics");
    // A real mdBook Rust block (edition class, hidden lines) that our
    // Run button takes: mdBook makes no playground of it.
    assert!(ex.value().attr("data-companion-run").is_some());
    assert!(inside(ex, "pre.playground").is_empty());
    let pre = inside(ex, ":scope > pre");
    assert_eq!(pre.len(), 1, "one code block");
    let code = inside(pre[0], "code.language-rust")[0];
    let classes: Vec<&str> = code.value().classes().collect();
    assert!(
        classes.contains(&"should_panic") && classes.contains(&"edition2021"),
        "{classes:?}"
    );
    assert_eq!(inside(code, ".boring").len(), 1, "the hidden main line");
    // The output block is joined below the code.
    let output = inside(ex, ".companion-output")[0];
    assert_eq!(
        Page::text(inside(output, ".companion-output-label")[0]),
        "Panics with"
    );
    assert_eq!(
        Page::text(inside(output, "code")[0]),
        "attempt to divide by zero"
    );
    // The text around the directive is intact.
    let paras: Vec<String> = page.all("main p").into_iter().map(Page::text).collect();
    assert!(paras.contains(&"Some text before.".to_owned()), "{paras:?}");
    assert!(paras.contains(&"Text after.".to_owned()), "{paras:?}");
}

#[test]
fn links_open_the_full_program_in_playground_and_compiler_explorer() {
    let book = BookTest::new().chapter(
        "div.md",
        &DIVIDE.replace("expect=panic", "expect=panic mode=release edition=2018"),
    );
    let page = book.html("div.md");
    let links = page.all("div.companion-links a");
    let labels: Vec<String> = links.iter().map(|a| Page::text(*a)).collect();
    assert_eq!(labels, ["Playground", "Compiler Explorer"]);
    let full = "fn divide(a: i32, b: i32) -> i32 { a / b }\nfn main() { divide(1, 0); }\n";

    let play = links[0].value().attr("href").expect("href");
    assert!(
        play.starts_with("https://play.rust-lang.org/?version=stable&"),
        "{play}"
    );
    assert_eq!(query(play, "mode"), "release");
    assert_eq!(query(play, "edition"), "2018");
    assert_eq!(query(play, "code"), full);

    let ce = links[1].value().attr("href").expect("href");
    let state = client_state(ce);
    assert_eq!(
        state,
        serde_json::json!({"sessions": [{"id": 1, "language": "rust", "source": full,
            "compilers": [{"id": "r1950", "options": "-C opt-level=3 --edition=2018"}]}]})
    );
}

#[test]
fn links_follow_the_config() {
    let book = BookTest::new()
        .companion("playground-url = false\ncompiler-explorer-url = \"https://ce.example.org\"\nrust-compiler = \"nightly\"")
        .chapter("div.md", DIVIDE);
    let page = book.html("div.md");
    let links = page.all("div.companion-links a");
    assert_eq!(links.len(), 1);
    let href = links[0].value().attr("href").expect("href");
    assert!(
        href.starts_with("https://ce.example.org/clientstate/"),
        "{href}"
    );
    let per_example = BookTest::new().chapter(
        "div.md",
        &DIVIDE.replace(
            "expect=panic",
            "expect=panic playground=false compiler-explorer=false",
        ),
    );
    assert!(
        per_example
            .html("div.md")
            .all("div.companion-links")
            .is_empty()
    );
}

#[test]
fn examples_in_lists_and_block_quotes_render_in_place() {
    let text = "1. First step:\n\n   ```rust example title=\"In a list\"\n   fn main() { println!(\"hi\"); }\n   ```\n   ```output\n   hi\n   ```\n2. Second step.\n\n> A quote:\n>\n> ```rust example title=\"In a quote\" editable\n> fn main() {}\n> ```\n> Still quoted.\n";
    let page = BookTest::new().chapter("nest.md", text).html("nest.md");
    let li = page.one("main ol > li:first-child");
    let ex = inside(li, "div.companion-example");
    assert_eq!(ex.len(), 1, "example inside the list item");
    assert_eq!(Page::text(inside(ex[0], ".companion-output code")[0]), "hi");
    assert_eq!(page.all("main ol > li").len(), 2, "the list is not split");
    let quote = page.one("main blockquote");
    let ex = inside(quote, "div.companion-example");
    assert_eq!(ex.len(), 1, "example inside the quote");
    assert!(inside(ex[0], "code.language-rust.editable").len() == 1);
    let quoted: Vec<String> = inside(quote, "p").into_iter().map(Page::text).collect();
    assert_eq!(quoted, ["A quote:", "Still quoted."]);
}

#[test]
fn lookalikes_are_left_alone() {
    let text = "````markdown\n```rust example\nfn main() {}\n```\n````\n\nUse `` ```rust example `` in a chapter.\n\n```output\nnot joined\n```\n\n```rust\nfn main() {}\n```\n";
    let page = BookTest::new().chapter("plain.md", text).html("plain.md");
    assert!(page.all("div.companion-example").is_empty());
    let md = Page::text(page.one("code.language-markdown"));
    assert!(md.contains("```rust example fn main() {} ```"), "{md}");
    assert_eq!(Page::text(page.one("code.language-output")), "not joined");
}

#[test]
fn unknown_attribute_fails_the_build_with_its_location() {
    let book = BookTest::new().chapter(
        "a.md",
        "# A\n\n```rust example colour=red\nfn main() {}\n```\n",
    );
    let err = book.build().unwrap_err();
    assert!(err.contains("companion"), "{err}");
    let err = book.build_in_process().unwrap_err();
    assert!(
        err.contains(
            "src/a.md:3:17: found unknown attribute `colour`; expected one of title, id, expect, error"
        ),
        "{err}"
    );
}

#[test]
fn on_failure_continue_shows_an_error_box_and_builds() {
    let book = BookTest::new()
        .companion("on-failure = \"continue\"")
        .chapter(
            "a.md",
            "```rust example expect=maybe\nfn main() {}\n```\n\nAfter.\n",
        );
    let page = book.html("a.md");
    let err = page.one("div.companion-error");
    assert_eq!(err.value().attr("role"), Some("alert"));
    assert_eq!(
        Page::text(err),
        "mdbook-companion: src/a.md:1:17 found `maybe` for `expect`; expected one of run, panic, compile-fail, no-run"
    );
    assert_eq!(
        Page::text(page.one("main code.language-rust")),
        "fn main() {}"
    );
    assert!(
        page.all("main p")
            .iter()
            .any(|p| Page::text(*p) == "After.")
    );
}

#[test]
fn markdown_renderer_gets_plain_markdown() {
    let book = BookTest::new()
        .toml("[output.html]\n[output.markdown]")
        .chapter("div.md", DIVIDE);
    book.build().expect("build");
    let md = std::fs::read_to_string(book.output_dir("markdown").join("div.md")).expect("md");
    assert!(
        md.contains(
            "**Dividing by zero** — *Panics*\n\n```rust,should_panic,edition2021\nfn divide"
        ),
        "{md}"
    );
    assert!(
        md.contains("Panics with:\n\n```text\nattempt to divide by zero\n```"),
        "{md}"
    );
    assert!(
        md.contains("[Playground](<https://play.rust-lang.org/?"),
        "{md}"
    );
    assert!(!md.contains("<div"), "{md}");
}

#[test]
fn mdbook_test_checks_the_outcomes() {
    let good = "```rust example expect=panic\nfn main() { let v: Vec<i32> = Vec::new(); v[0]; }\n```\n\n```rust example expect=compile-fail error=E0381\nfn main() { let x: i32; println!(\"{x}\"); }\n```\n\n```rust example expect=no-run\nfn main() { loop {} }\n```\n";
    let book = BookTest::new().chapter("t.md", good);
    book.write();
    let mut md = mdbook_driver::MDBook::load(book.root()).expect("load");
    md.test(vec![])
        .expect("the book's examples pass mdbook test");

    let wrong = "```rust example\nfn main() { panic!(\"not expected\"); }\n```\n";
    let book = BookTest::new().chapter("t.md", wrong);
    book.write();
    let mut md = mdbook_driver::MDBook::load(book.root()).expect("load");
    assert!(
        md.test(vec![]).is_err(),
        "a panicking `expect=run` example fails mdbook test"
    );
}

#[test]
fn parts_drafts_and_plain_chapters_survive() {
    let book = BookTest::new()
        .chapter("a.md", DIVIDE)
        .chapter("b.md", "# B\n\nPlain.\n");
    book.write();
    let summary = "# Summary\n\n[Intro](b.md)\n\n# Part one\n\n- [A](a.md)\n- [Draft]()\n\n---\n\n- [Plain](plain.md)\n";
    std::fs::write(book.root().join("src/SUMMARY.md"), summary).expect("summary");
    std::fs::write(book.root().join("src/plain.md"), "Plain *text*.\n").expect("plain");
    let md = mdbook_driver::MDBook::load(book.root()).expect("load");
    md.build().expect("build");
    let toc = std::fs::read_to_string(book.root().join("book/toc.js")).unwrap_or_default()
        + &std::fs::read_to_string(book.root().join("book/toc.html")).unwrap_or_default();
    for needle in ["Part one", "Draft", "Plain", "Intro"] {
        assert!(
            toc.contains(needle),
            "{needle} missing from the table of contents"
        );
    }
    assert_eq!(book.page("a.md").all("div.companion-example").len(), 1);
    assert_eq!(
        Page::text(book.page("plain.md").one("main p")),
        "Plain text."
    );
}

/// The Run button as the guide's run-button page tells it: a never-checked
/// book shows Run, which goes to the Playground (`run = "auto"`); with
/// `run = "recorded"` a block with nothing recorded has no button at all,
/// neither ours nor mdBook's (which would ask play.rust-lang.org); once
/// `check` has verified it, the button carries the recorded output.
#[test]
fn run_button_follows_the_guide_with_and_without_a_recorded_run() {
    let chapter = "# R\n\n```rust example title=\"Greets\"\nfn main() { println!(\"hi\"); }\n```\n\n```output\nhi\n```\n\n```rust example title=\"Ignored\" ignore\nfn main() {}\n```\n";
    let spec = |page: &Page, title: &str| {
        let frame = page
            .all("main div.companion-example")
            .into_iter()
            .find(|f| Page::text(inside(*f, ".companion-title")[0]) == title)
            .expect("frame");
        assert!(
            inside(frame, "pre.playground").is_empty(),
            "no mdBook button"
        );
        frame
            .value()
            .attr("data-companion-run")
            .map(|j| serde_json::from_str::<serde_json::Value>(j).expect("json"))
    };
    let never = BookTest::new().chapter("r.md", chapter);
    let page = never.html("r.md");
    let run = spec(&page, "Greets").expect("a never-checked book shows Run");
    assert_eq!(run["mode"], "auto");
    assert_eq!(run["playground"], "https://play.rust-lang.org/");
    assert!(run.get("recorded").is_none(), "{run}");
    assert_eq!(spec(&page, "Ignored"), None);

    let recorded = BookTest::new()
        .companion("run = \"recorded\"")
        .chapter("r.md", chapter);
    let page = recorded.html("r.md");
    assert_eq!(spec(&page, "Greets"), None, "nothing recorded: no button");
    assert_eq!(spec(&page, "Ignored"), None);

    recorded.run(&["check"], |cmd| {
        cmd.expect_stdout(snapbox::str![[r#"
ok      src/r.md:3: rust example "Greets" (expect=run)
ignored src/r.md:11: rust example "Ignored": not checked
compiler runs: 1, program runs: 1, from cache: 0
1 passed, 0 failed, 1 ignored

"#]]);
    });
    let page = recorded.html("r.md");
    let run = spec(&page, "Greets").expect("checked: Run shows the recorded output");
    assert_eq!(run["mode"], "recorded");
    assert_eq!(run["recorded"]["stdout"], "hi\n");
}
