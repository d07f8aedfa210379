//! Reading-list cards, through real mdBook.

use crate::support::{BookTest, Page, inside};
use pretty_assertions::assert_eq;
use snapbox::str;

/// The example book's data: the talk's five books and two tools.
const DATA: &str = include_str!("reading-list.toml");

fn book_with_data(chapter: &str) -> BookTest {
    BookTest::new()
        .file("src/reading-list.toml", DATA)
        .chapter("intro.md", chapter)
}

fn card_titles(page: &Page) -> Vec<String> {
    page.all("main article.companion-card .companion-card-title a")
        .into_iter()
        .map(Page::text)
        .collect()
}

#[test]
fn cards_from_the_data_file_render_as_articles() {
    let book = book_with_data(
        "# Reading\n\nBefore.\n\n```reading-list tags=[\"kernel\"] title=\"For kernel developers\"\n```\n\nAfter.\n",
    );
    let page = book.html("intro.md");
    let list = page.one("main div.companion-reading-list");
    assert_eq!(
        Page::text(inside(list, ".companion-reading-list-title")[0]),
        "For kernel developers"
    );
    assert_eq!(
        card_titles(&page),
        ["Programming Rust", "The Rustonomicon", "Compiler Explorer"]
    );
    let cards = inside(list, "div.companion-cards > article.companion-card");
    assert_eq!(cards.len(), 3);
    // Programming Rust: link, authors, badges as words, audience, note.
    let pr = cards[0];
    assert!(
        pr.value()
            .classes()
            .any(|c| c == "companion-card-recommended")
    );
    let link = inside(pr, "p.companion-card-title > a")[0];
    assert_eq!(
        link.value().attr("href"),
        Some("https://www.oreilly.com/library/view/programming-rust-2nd/9781492052586/")
    );
    assert_eq!(
        Page::text(inside(pr, ".companion-card-authors")[0]),
        "Jim Blandy, Jason Orendorff, Leonora F. S. Tindall"
    );
    let badges: Vec<String> = inside(pr, "ul.companion-badges > li.companion-badge")
        .into_iter()
        .map(Page::text)
        .collect();
    assert_eq!(badges, ["Paid", "Recommended", "Intermediate", "Book"]);
    assert_eq!(
        inside(pr, "ul.companion-badges")[0]
            .value()
            .attr("aria-label"),
        Some("Properties")
    );
    assert_eq!(
        Page::text(inside(pr, ".companion-card-audience")[0]),
        "Audience: Experienced programmers, such as kernel developers"
    );
    // The Rustonomicon: incomplete, and its note's code span is real code.
    let nomicon = cards[1];
    assert!(
        nomicon
            .value()
            .classes()
            .any(|c| c == "companion-card-incomplete")
    );
    let note = inside(nomicon, ".companion-card-note")[0];
    assert_eq!(Page::text(inside(note, "code")[0]), "unsafe");
    // Compiler Explorer: the note's link is a real link.
    let ce_note = inside(cards[2], ".companion-card-note a")[0];
    assert_eq!(ce_note.value().attr("href"), Some("https://godbolt.org/"));
    // No heading inside the cards (the outline stays the chapter's), and
    // the text around the block is intact.
    assert!(inside(list, "h1, h2, h3, h4, h5, h6").is_empty());
    let headings: Vec<String> = page.all("main h1").into_iter().map(Page::text).collect();
    assert_eq!(headings, ["Reading"]);
    let paras: Vec<String> = page.all("main > p").into_iter().map(Page::text).collect();
    assert!(
        paras.contains(&"Before.".to_owned()) && paras.contains(&"After.".to_owned()),
        "{paras:?}"
    );
}

#[test]
fn ids_keep_their_order_and_sort_by_title_reorders() {
    let book = book_with_data(
        "```reading-list ids=[\"reference\", \"trpl\"]\n```\n\n```reading-list kind=tool sort=title\n```\n\n```reading-list access=paid\n```\n",
    );
    let page = book.html("intro.md");
    assert_eq!(
        card_titles(&page),
        [
            "The Rust Reference",
            "The Rust Programming Language",
            "Compiler Explorer",
            "Rust Playground",
            "Programming Rust",
        ]
    );
    assert_eq!(page.all("main div.companion-reading-list").len(), 3);
}

#[test]
fn cards_in_list_items_and_block_quotes_render_in_place() {
    let book = book_with_data(
        "1. Start with:\n\n   ```reading-list ids=\"trpl\"\n   ```\n2. Then practise.\n\n> Tools:\n>\n> ```reading-list kind=tool\n> ```\n> Still quoted.\n",
    );
    let page = book.html("intro.md");
    let in_list = page.all("main ol > li div.companion-reading-list article");
    assert_eq!(in_list.len(), 1);
    assert_eq!(page.all("main ol > li").len(), 2);
    let quoted = page.all("main blockquote div.companion-reading-list article");
    assert_eq!(quoted.len(), 2);
    let quote_paras: Vec<String> = page
        .all("main blockquote > p")
        .into_iter()
        .map(Page::text)
        .collect();
    assert_eq!(quote_paras, ["Tools:", "Still quoted."]);
}

#[test]
fn inline_entries_with_hostile_strings_stay_text() {
    let chapter = r#"# Hostile

```reading-list
[[entry]]
title = "<script>alert('title')</script>"
url = "https://example.org/?q=1&r='2'"
authors = ["<img src=x onerror=alert(1)>", "O'Brien \"Bob\""]
audience = "<b>bold</b>"
note = "Plain <script>alert(2)</script> <a href=\"javascript:alert(3)\">x</a> *fine*"
```

After.
"#;
    let book = BookTest::new().chapter("intro.md", chapter);
    let page = book.html("intro.md");
    assert!(page.all("main script").is_empty(), "no script element");
    assert!(page.all("main img, main b, main [onerror]").is_empty());
    let card = page.one("main article.companion-card");
    let link = inside(card, ".companion-card-title a")[0];
    assert_eq!(Page::text(link), "<script>alert('title')</script>");
    assert_eq!(
        link.value().attr("href"),
        Some("https://example.org/?q=1&r='2'")
    );
    assert_eq!(
        Page::text(inside(card, ".companion-card-authors")[0]),
        "<img src=x onerror=alert(1)>, O'Brien \"Bob\""
    );
    let note = inside(card, ".companion-card-note")[0];
    // Raw HTML in the note is shown as text; only the Markdown emphasis is markup.
    assert!(inside(note, "a").is_empty(), "no raw link survives");
    assert_eq!(Page::text(inside(note, "em")[0]), "fine");
    assert!(Page::text(note).contains("<script>alert(2)</script>"));
    assert!(
        page.all("main p")
            .iter()
            .any(|p| Page::text(*p) == "After."),
        "the paragraph after the block is not swallowed"
    );
}

#[test]
fn javascript_urls_fail_the_build_with_their_location() {
    let mut table = String::new();
    for chapter in [
        "# A\n\n```reading-list\n[[entry]]\ntitle = \"T\"\nurl = \"javascript:alert(1)\"\n```\n",
        "```reading-list\n[[entry]]\ntitle = \"T\"\nurl = \"https://x.org\"\nnote = \"[x](javascript:alert(1))\"\n```\n",
    ] {
        table.push_str(&BookTest::new().chapter("a.md", chapter).build_error());
    }
    BookTest::new().check_text(table, str![[r#"
 INFO Book building has started
mdbook-companion: error: src/a.md:6:7: found url `javascript:alert(1)`; expected an http:// or https:// address
 INFO Book building has started
mdbook-companion: error: src/a.md:5:8: found a link to `javascript:alert(1)` in the note; expected an http(s) or relative link

"#]]);
}

#[test]
fn data_file_errors_name_the_file_line_column_and_asking_chapter() {
    let data = DATA.replacen("authors = [\"Jim Blandy\"", "autors = [\"Jim Blandy\"", 1);
    let book = BookTest::new()
        .file("src/reading-list.toml", data)
        .chapter("intro.md", "# Intro\n\nText.\n\n```reading-list\n```\n");
    book.run(&["build"], |cmd| {
        cmd.expect_failure().expect_stderr(str![[r#"
 INFO Book building has started
mdbook-companion: error: src/reading-list.toml:22:1: found unknown field `autors`; expected one of id, title, url, authors, kind, access, audience, level, status, recommended, tags, note (asked for by src/intro.md:5:4)

"#]]);
    });
    // Through the command preprocessor too, the build fails.
    assert!(book.build().is_err());
}

#[test]
fn missing_data_file_and_empty_selection_are_errors_at_the_block() {
    let book = BookTest::new().chapter("intro.md", "```reading-list\n```\n");
    let mut table = book.build_error();
    for chapter in [
        "Text\n\n```reading-list tags=[\"gpu\"]\n```\n",
        "```reading-list ids=[\"trpl\", \"tlpr\"]\n```\n",
    ] {
        table.push_str(&book_with_data(chapter).build_error());
    }
    book.check_text(table, str![[r#"
 INFO Book building has started
mdbook-companion: error: src/intro.md:1:4: found no readable reading-list data file at src/reading-list.toml (No such file or directory (os error 2)); expected a TOML file of [[entry]] tables there, or a `reading-list` path in [preprocessor.companion] of book.toml, or [[entry]] tables in this block's body
 INFO Book building has started
mdbook-companion: error: src/intro.md:3:4: found no entry matching tags=["gpu"] among 7 entries of src/reading-list.toml; expected a filter that selects at least one (tags in use: exercises, kernel, language, start, tools, unsafe)
 INFO Book building has started
mdbook-companion: error: src/intro.md:1:17: found unknown id `tlpr`; expected one of trpl, programming-rust, rust-by-example, nomicon, reference, playground, compiler-explorer

"#]]);
}

#[test]
fn configured_data_file_is_used_and_must_stay_in_src() {
    let book = BookTest::new()
        .companion("reading-list = \"data/books.toml\"")
        .file("src/data/books.toml", DATA)
        .chapter("intro.md", "```reading-list ids=\"nomicon\"\n```\n");
    assert_eq!(card_titles(&book.html("intro.md")), ["The Rustonomicon"]);
    let book = BookTest::new()
        .companion("reading-list = \"../reading-list.toml\"")
        .file("reading-list.toml", DATA)
        .chapter("intro.md", "```reading-list\n```\n");
    book.run(&["build"], |cmd| {
        cmd.expect_failure().expect_stderr(str![[r#"
 INFO Book building has started
mdbook-companion: error: src/intro.md:1:4: found `reading-list = "../reading-list.toml"` in book.toml; expected a path inside the book's source directory, without `..`

"#]]);
    });
}

#[test]
fn on_failure_continue_shows_the_error_in_the_card_area() {
    let data = DATA.replacen("kind = \"tool\"", "kind = \"gadget\"", 1);
    let book = BookTest::new()
        .companion("on-failure = \"continue\"")
        .file("src/reading-list.toml", data)
        .chapter("intro.md", "```reading-list\n```\n\nAfter.\n");
    let page = book.html("intro.md");
    let err = page.one("main div.companion-error");
    assert_eq!(
        Page::text(err),
        "mdbook-companion: src/reading-list.toml:75:8 found unknown value `gadget`; expected one of book, web, video, paper, talk, tool (asked for by src/intro.md:1:4)"
    );
    assert!(page.all("main article").is_empty());
    assert!(
        page.all("main p")
            .iter()
            .any(|p| Page::text(*p) == "After.")
    );
}

#[test]
fn print_page_carries_the_cards() {
    let book = book_with_data("```reading-list ids=\"trpl\"\n```\n");
    book.build().expect("build");
    let print = book.page("print.md");
    let link = print.one("article.companion-card .companion-card-link");
    assert_eq!(
        link.value().attr("href"),
        Some("https://doc.rust-lang.org/book/")
    );
    let css = mdbook_companion_directives::assets::stylesheet();
    // Each directive keeps its own print rules; the reading list's are one
    // of the `@media print` blocks.
    assert!(
        css.split("@media print")
            .skip(1)
            .any(|r| r.contains(".companion-card-link::after") && r.contains("attr(href)")),
        "the print stylesheet prints card URLs"
    );
}

#[test]
fn markdown_renderer_gets_a_linked_list() {
    let book =
        book_with_data("# R\n\n```reading-list ids=[\"programming-rust\", \"playground\"]\n```\n")
            .toml("[output.html]\n[output.markdown]");
    book.build().expect("build");
    let md = std::fs::read_to_string(book.output_dir("markdown").join("intro.md")).expect("md");
    assert_eq!(
        md,
        "# R\n\n- [Programming Rust](<https://www.oreilly.com/library/view/programming-rust-2nd/9781492052586/>) — Jim Blandy, Jason Orendorff, Leonora F. S. Tindall — *Paid · Recommended · Intermediate · Book* — for Experienced programmers, such as kernel developers — The only resource on this list that is not free; written for people who already know C or C++.\n- [Rust Playground](<https://play.rust-lang.org/>) — *Free · Tool* — Builds and runs code in the browser, runs linters such as Clippy, and shows the assembly.\n"
    );
}

#[test]
fn test_renderer_drops_the_cards() {
    let chapter = "Intro.\n\n```reading-list ids=\"trpl\"\n```\n\n```rust\nfn main() { assert_eq!(1 + 1, 2); }\n```\n";
    let book = book_with_data(chapter);
    book.write();
    let root = book.root().to_str().expect("utf-8 temp path");
    let input = serde_json::json!([
        {"root": root, "renderer": "test", "mdbook_version": "0.5.4",
         "config": {"book": {"title": "x", "src": "src"}, "preprocessor": {"companion": {"after": ["links"]}}}},
        {"items": [{"Chapter": {"name": "A", "content": chapter, "number": [1], "sub_items": [],
            "path": "intro.md", "source_path": "intro.md", "parent_names": []}}]}
    ]);
    let out = BookTest::run_bin(&[], input.to_string().as_bytes());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let got: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(
        got["items"][0]["Chapter"]["content"].as_str(),
        Some("Intro.\n\n\n\n```rust\nfn main() { assert_eq!(1 + 1, 2); }\n```\n")
    );
    // And `mdbook test` itself runs the chapter's Rust with the cards gone.
    let mut md = mdbook_driver::MDBook::load(book.root()).expect("load");
    md.test(vec![])
        .expect("mdbook test passes with cards in the chapter");
}
