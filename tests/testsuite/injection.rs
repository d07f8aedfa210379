//! Nothing injected: hostile author strings go through every directive and
//! every field that reaches HTML, and the page a reader gets has no element
//! or attribute that the author did not get from us, only text.

use crate::support::{BookTest, Page, inside};

/// Strings that would inject markup or script if they reached the page raw.
const SCRIPT: &str = "<script>alert(1)</script>";
const IMG: &str = "\"><img src=x onerror=alert(2)>";
const QUOTE: &str = "' onmouseover='alert(3)";

fn hostile_book() -> BookTest {
    // TOML literal strings ('...') hold `"` and `<` as they are; the
    // single-quote payload goes in a basic string.
    let example = format!(
        "```rust example title='{SCRIPT}{IMG}'\nfn main() {{ println!(\"{{}}\", \"<b>x</b>\"); }}\n```\n```output\n{SCRIPT}\n```\n"
    );
    let compare = format!(
        "````compare title='{SCRIPT}{IMG}'\n```c caption='{IMG}'\nint f(void) {{ return 1; }}\n```\nA note with {SCRIPT} and <img src=x onerror=alert(4)> and <div>.\n```rust caption=\"{QUOTE}\"\npub fn f() -> i32 {{ 1 }}\n```\n````\n"
    );
    let reading = format!(
        "```reading-list\n[[entry]]\ntitle = '{SCRIPT}{IMG}'\nurl = \"https://a.example/?q=1&r='x'\"\nauthors = ['{IMG}', \"{QUOTE}\"]\naudience = '{SCRIPT}'\nnote = 'See {SCRIPT} and <img src=x onerror=alert(5)>'\n```\n"
    );
    let talk = format!(
        "```talk title='{SCRIPT}'\n[[talk]]\ntitle = '{SCRIPT}{IMG}'\nspeakers = ['{IMG}', \"{QUOTE}\"]\nevent = '{SCRIPT}'\nplace = '{IMG}'\nduration = \"10:00\"\nvideo = \"https://v.example/?a=1&b='x'\"\nlinks = [{{ label = '{SCRIPT}', url = \"https://s.example/\" }}]\nabstract = 'See {SCRIPT} and <img src=x onerror=alert(6)>'\n[[talk.moment]]\nat = \"1:00\"\ntitle = '{SCRIPT}{IMG}'\n```\n"
    );
    BookTest::new().chapter(
        "hostile.md",
        &format!("# Hostile\n\n{example}\n{compare}\n{reading}\n{talk}\n```claims\n```\n"),
    )
}

/// No script, image or event-handler attribute inside the chapter body,
/// and no `javascript:` link.
fn assert_nothing_injected(page: &Page) {
    let main = page.one("main");
    assert_eq!(inside(main, "script").len(), 0, "a <script> got in");
    assert_eq!(inside(main, "img").len(), 0, "an <img> got in");
    for el in inside(main, "*") {
        for (name, value) in el.value().attrs() {
            assert!(
                !name.starts_with("on"),
                "attribute {name}={value:?} on <{}>",
                el.value().name()
            );
            if name == "href" {
                let v = value.trim().to_ascii_lowercase();
                assert!(!v.starts_with("javascript:"), "href {value:?}");
            }
        }
    }
}

#[test]
fn hostile_strings_in_every_directive_stay_text() {
    let book = hostile_book();
    let page = book.html("hostile.md");
    assert_nothing_injected(&page);
    // Every hostile string is still there, as text.
    // The first example title is the standalone example's (compare sides
    // are examples too).
    let example_title = Page::text(page.all(".companion-example .companion-title")[0]);
    assert!(example_title.contains(SCRIPT), "{example_title}");
    assert!(example_title.contains(IMG.trim()), "{example_title}");
    let compare = page.one(".companion-compare");
    let text = Page::text(compare);
    assert!(text.contains(SCRIPT), "{text}");
    assert!(text.contains("<img src=x onerror=alert(4)>"), "{text}");
    assert!(text.contains(QUOTE), "{text}");
    let card = Page::text(page.one(".companion-reading-list"));
    for s in [SCRIPT, "<img src=x onerror=alert(5)>", QUOTE] {
        assert!(card.contains(s), "{s} missing from {card}");
    }
    // The URL keeps its characters, escaped in the attribute, not broken out.
    let links: Vec<_> = inside(page.one(".companion-reading-list"), "a[href]")
        .into_iter()
        .filter_map(|a| a.value().attr("href"))
        .collect();
    assert!(links.contains(&"https://a.example/?q=1&r='x'"), "{links:?}");
    let talk = Page::text(page.one(".companion-talks"));
    for s in [SCRIPT, IMG.trim(), QUOTE, "<img src=x onerror=alert(6)>"] {
        assert!(talk.contains(s), "{s} missing from {talk}");
    }
    let times: Vec<_> = page
        .all(".companion-talks a.companion-talk-time")
        .into_iter()
        .filter_map(|a| a.value().attr("href"))
        .collect();
    assert_eq!(times, ["https://v.example/?a=1&b='x'#t=60"]);
    // The claims page repeats the titles and captions, as text.
    let claims: Vec<String> = page
        .all(".companion-claims-table tbody tr")
        .into_iter()
        .map(Page::text)
        .collect();
    assert_eq!(claims.len(), 3, "{claims:?}");
    assert!(
        claims[0].contains(SCRIPT) && claims[0].contains(IMG.trim()),
        "{claims:?}"
    );
    assert!(
        claims[1].contains(IMG.trim()) && claims[2].contains(QUOTE),
        "{claims:?}"
    );
}

#[test]
fn hostile_strings_with_other_renderers_stay_text() {
    // The `markdown` renderer gets Markdown; the `html` renderer next to it
    // still gets a clean page.
    let book = hostile_book().toml("[output.html]\n[output.markdown]\n");
    book.build().expect("build");
    assert_nothing_injected(&book.page("hostile.md"));
    let md = std::fs::read_to_string(book.output_dir("markdown").join("hostile.md"))
        .expect("markdown output");
    // Raw HTML in the Markdown would be markup for whatever reads it next;
    // hostile strings may only be text or code.
    let raw: Vec<String> = pulldown_cmark::Parser::new(&md)
        .filter_map(|e| match e {
            pulldown_cmark::Event::Html(h) | pulldown_cmark::Event::InlineHtml(h) => {
                Some(h.into_string())
            }
            _ => None,
        })
        .collect();
    assert_eq!(raw, Vec::<String>::new(), "{md}");
    assert!(md.contains("\\<script\\>alert(1)\\</script\\>"), "{md}");
}

#[test]
fn non_http_links_are_refused_everywhere() {
    for (what, text) in [
        (
            "entry url",
            "```reading-list\n[[entry]]\ntitle = \"A\"\nurl = \"javascript:alert(1)\"\n```\n",
        ),
        (
            "data: url",
            "```reading-list\n[[entry]]\ntitle = \"A\"\nurl = \"data:text/html,<script>\"\n```\n",
        ),
        (
            "link in a note",
            "```reading-list\n[[entry]]\ntitle = \"A\"\nurl = \"https://a.example/\"\nnote = \"[x](javascript:alert(1))\"\n```\n",
        ),
        (
            "talk video",
            "```talk\n[[talk]]\ntitle = \"T\"\nvideo = \"javascript:alert(1)\"\n```\n",
        ),
        (
            "talk link",
            "```talk\n[[talk]]\ntitle = \"T\"\nlinks = [{ label = \"S\", url = \"data:text/html,x\" }]\n```\n",
        ),
        (
            "link in an abstract",
            "```talk\n[[talk]]\ntitle = \"T\"\nabstract = \"[x](javascript:alert(1))\"\n```\n",
        ),
        (
            "link in a compare note",
            "````compare\n```c\nint x;\n```\nSee [this](javascript:alert(1)).\n```python\nx = 1\n```\n````\n",
        ),
    ] {
        let e = BookTest::new()
            .chapter("ch.md", text)
            .build_in_process()
            .expect_err(what);
        assert!(e.contains("src/ch.md:"), "{what}: {e}");
        assert!(e.contains("expected an http"), "{what}: {e}");
    }
}

#[test]
fn hostile_values_in_error_boxes_stay_text() {
    let text = format!(
        "```rust example expect='{SCRIPT}'\nfn main() {{}}\n```\n\n```reading-list tags=['{IMG}']\n[[entry]]\ntitle = \"A\"\nurl = \"https://a.example/\"\n```\n\n````compare\n```{SCRIPT}\nx\n```\n````\n"
    );
    let book = BookTest::new()
        .companion("on-failure = \"continue\"")
        .chapter("errors.md", &text);
    let page = book.html("errors.md");
    assert_nothing_injected(&page);
    let boxes: Vec<String> = page
        .all(".companion-error")
        .into_iter()
        .map(Page::text)
        .collect();
    assert_eq!(boxes.len(), 3, "{boxes:?}");
    assert!(
        boxes[0].contains(&format!("found `{SCRIPT}` for `expect`")),
        "{boxes:?}"
    );
    assert!(boxes[1].contains(IMG.trim()), "{boxes:?}");
}
