//! Nothing injected: hostile author strings go through every directive and
//! every field that reaches HTML, and the page a reader gets has no element
//! or attribute that the author did not get from us, only text.

use crate::support::{BookTest, Page, inside};
use snapbox::str;

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
    // Every hostile string is still there, as text: the standalone
    // example's title (the first: compare sides are examples too), the
    // comparison, the reading list, the talks and the claims table's rows.
    let mut texts = format!(
        "example title: {}\n",
        Page::text(page.all(".companion-example .companion-title")[0])
    );
    for (name, css) in [
        ("compare", ".companion-compare"),
        ("reading list", ".companion-reading-list"),
        ("talks", ".companion-talks"),
    ] {
        texts.push_str(&format!("{name}: {}\n", Page::text(page.one(css))));
    }
    for row in page.all(".companion-claims-table tbody tr") {
        texts.push_str(&format!("claim: {}\n", Page::text(row)));
    }
    book.check_text(texts, str![[r#"
example title: <script>alert(1)</script>"><img src=x onerror=alert(2)>
compare: <script>alert(1)</script>"><img src=x onerror=alert(2)> Example 1.2"><img src=x onerror=alert(2)>Compiles int f(void) { return 1; } Compiler Explorer A note with <script>alert(1)</script> and <img src=x onerror=alert(4)> and <div>. Example 1.3' onmouseover='alert(3)Runs pub fn f() -> i32 { 1 } Playground Compiler Explorer Compare in Compiler Explorer
reading list: <script>alert(1)</script>"><img src=x onerror=alert(2)> "><img src=x onerror=alert(2)>, ' onmouseover='alert(3) Audience: <script>alert(1)</script> See <script>alert(1)</script> and <img src=x onerror=alert(5)>
talks: <script>alert(1)</script> <script>alert(1)</script>"><img src=x onerror=alert(2)> "><img src=x onerror=alert(2)>, ' onmouseover='alert(3) <script>alert(1)</script> · "><img src=x onerror=alert(2)> · 10 min Video <script>alert(1)</script> See <script>alert(1)</script> and <img src=x onerror=alert(6)> 1:00 <script>alert(1)</script>"><img src=x onerror=alert(2)>
claim: Example 1.1<script>alert(1)</script>"><img src=x onerror=alert(2)> Rust exampleRunsNot in companion.lock
claim: Example 1.2"><img src=x onerror=alert(2)> C sideCompilesNot in companion.lock
claim: Example 1.3' onmouseover='alert(3) Rust sideRunsNot in companion.lock

"#]]);
    // The URL keeps its characters, escaped in the attribute, not broken out.
    let links: Vec<_> = inside(page.one(".companion-reading-list"), "a[href]")
        .into_iter()
        .filter_map(|a| a.value().attr("href"))
        .collect();
    assert!(links.contains(&"https://a.example/?q=1&r='x'"), "{links:?}");
    let times: Vec<_> = page
        .all(".companion-talks a.companion-talk-time")
        .into_iter()
        .filter_map(|a| a.value().attr("href"))
        .collect();
    assert_eq!(times, ["https://v.example/?a=1&b='x'#t=60"]);
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
    book.check_file("book/markdown/hostile.md", str![[r##"
# Hostile

Example 1.1 — **\<script\>alert(1)\</script\>"\>\<img src=x onerror=alert(2)\>** — *Runs*

```rust,edition2021
fn main() { println!("{}", "<b>x</b>"); }
```

Output:

```text
<script>alert(1)</script>
```

[Playground](<https://play.rust-lang.org/?version=stable&mode=debug&edition=2021&code=fn+main()+%7B+println!(%22%7B%7D%22,+%22%3Cb%3Ex%3C/b%3E%22);+%7D%0A>) · [Compiler Explorer](<https://godbolt.org/clientstate/[..]>)

**\<script\>alert(1)\</script\>"\>\<img src=x onerror=alert(2)\>**

Example 1.2 — **"\>\<img src=x onerror=alert(2)\>** — *Compiles*

```c
int f(void) { return 1; }
```

A note with &lt;script&gt;alert(1)&lt;/script&gt; and &lt;img src=x onerror=alert(4)&gt; and &lt;div&gt;.

Example 1.3 — **' onmouseover='alert(3)** — *Runs*

```rust,edition2021
pub fn f() -> i32 { 1 }
```

[Playground](<https://play.rust-lang.org/?version=stable&mode=debug&edition=2021&code=fn+main()+%7B%0Apub+fn+f()+-%3E+i32+%7B+1+%7D%0A%7D%0A>) · [Compiler Explorer](<https://godbolt.org/clientstate/[..]>)

[Compare in Compiler Explorer](<https://godbolt.org/clientstate/[..]>)

- [\<script\>alert(1)\</script\>"\>\<img src=x onerror=alert(2)\>](<https://a.example/?q=1&r='x'>) — "\>\<img src=x onerror=alert(2)\>, ' onmouseover='alert(3) — for \<script\>alert(1)\</script\> — See \<script\>alert(1)\</script\> and \<img src=x onerror=alert(5)\>

**\<script\>alert(1)\</script\>**

**\<script\>alert(1)\</script\>"\>\<img src=x onerror=alert(2)\>** — "\>\<img src=x onerror=alert(2)\>, ' onmouseover='alert(3)\
\<script\>alert(1)\</script\> · "\>\<img src=x onerror=alert(2)\> · 10 min\
[Video](<https://v.example/?a=1&b='x'>) · [\<script\>alert(1)\</script\>](<https://s.example/>)

See \<script\>alert(1)\</script\> and \<img src=x onerror=alert(6)\>

- [1:00](<https://v.example/?a=1&b='x'#t=60>) \<script\>alert(1)\</script\>"\>\<img src=x onerror=alert(2)\>


3 blocks: 3 not in companion.lock.

**[1. hostile.md](<hostile.md>)**

- Example 1.1: [\<script\>alert(1)\</script\>"\>\<img src=x onerror=alert(2)\>](<hostile.md#example-1-1>) — Runs — Not in companion.lock
- Example 1.2: ["\>\<img src=x onerror=alert(2)\>](<hostile.md#example-1-2>) — Compiles — Not in companion.lock
- Example 1.3: [' onmouseover='alert(3)](<hostile.md#example-1-3>) — Runs — Not in companion.lock

"##]]);
}

#[test]
fn non_http_links_are_refused_everywhere() {
    let mut table = String::new();
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
        let err = BookTest::new().chapter("ch.md", text).build_error();
        table.push_str(&format!("{what}\n{err}"));
    }
    BookTest::new().check_text(table, str![[r#"
entry url
 INFO Book building has started
mdbook-companion: error: src/ch.md:4:7: found url `javascript:alert(1)`; expected an http:// or https:// address
data: url
 INFO Book building has started
mdbook-companion: error: src/ch.md:4:7: found url `data:text/html,<script>`; expected an http:// or https:// address
link in a note
 INFO Book building has started
mdbook-companion: error: src/ch.md:5:8: found a link to `javascript:alert(1)` in the note; expected an http(s) or relative link
talk video
 INFO Book building has started
mdbook-companion: error: src/ch.md:4:9: found url `javascript:alert(1)`; expected an http:// or https:// address
talk link
 INFO Book building has started
mdbook-companion: error: src/ch.md:4:31: found url `data:text/html,x`; expected an http:// or https:// address
link in an abstract
 INFO Book building has started
mdbook-companion: error: src/ch.md:4:12: found a link to `javascript:alert(1)` in the abstract; expected an http(s) or relative link
link in a compare note
 INFO Book building has started
mdbook-companion: error: src/ch.md:5:1: found a link to `javascript:alert(1)` in this side's note; expected an http(s) or relative link

"#]]);
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
    let boxes: String = page
        .all(".companion-error")
        .into_iter()
        .map(|b| Page::text(b) + "\n")
        .collect();
    book.check_text(boxes, str![[r#"
mdbook-companion: src/errors.md:1:17 found `<script>alert(1)</script>` for `expect`; expected one of run, panic, compile-fail, no-run
mdbook-companion: src/errors.md:5:4 found no entry matching tags=["\"><img src=x onerror=alert(2)>"] among 1 entries of this block's body; expected a filter that selects at least one (tags in use: none)
mdbook-companion: src/errors.md:12:4 found a `<script>alert(1)</script>` code block; expected a side in one of c, cpp, rust, python, go

"#]]);
}
