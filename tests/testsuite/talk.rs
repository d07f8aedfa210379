//! Talk cards and schedules, through real mdBook, checked on the HTML.

use crate::support::{BookTest, Page, inside};
use pretty_assertions::assert_eq;
use snapbox::str;

/// A talk data file with every field (the values are the tests' own).
const TALKS: &str = include_str!("talk/talks.toml");

fn texts(els: Vec<scraper::ElementRef<'_>>) -> Vec<String> {
    els.into_iter().map(Page::text).collect()
}

fn href(el: scraper::ElementRef<'_>) -> String {
    el.value().attr("href").unwrap_or("").to_owned()
}

/// A book with `TALKS` (the too-late moment dropped, so it builds) and the
/// chapter the first moment points at.
fn book(chapter: &str) -> BookTest {
    let data = TALKS.replace(
        "\n[[talk.moment]]\nat = \"1:02:03\"\ntitle = \"Too late\"\n",
        "",
    );
    BookTest::new()
        .file("src/talks.toml", data)
        .chapter("talk.md", chapter)
        .chapter("deep/uninit.md", "# Uninit\n")
}

#[test]
fn a_card_shows_the_talk_and_its_moments_open_the_video() {
    let page =
        book("# Talk\n\nBefore.\n\n```talk ids=\"concepts\"\n```\n\nAfter.\n").html("talk.md");
    let card = page.one("main article.companion-talk");
    assert_eq!(
        Page::text(inside(card, ".companion-talk-title")[0]),
        "Key Rust concepts for the kernel"
    );
    assert_eq!(
        Page::text(inside(card, ".companion-talk-speakers")[0]),
        "Ada Lovelace, Alan Turing"
    );
    assert_eq!(
        Page::text(inside(card, ".companion-talk-event")[0]),
        "Example Conf 2026"
    );
    let time = inside(card, "time")[0];
    assert_eq!(time.value().attr("datetime"), Some("2026-12-03"));
    assert_eq!(Page::text(time), "3 December 2026");
    assert_eq!(
        Page::text(inside(card, ".companion-talk-place")[0]),
        "online"
    );
    assert_eq!(
        Page::text(inside(card, ".companion-talk-duration")[0]),
        "1 h"
    );
    assert_eq!(
        inside(card, "time.companion-talk-duration")[0]
            .value()
            .attr("datetime"),
        Some("PT3600S")
    );
    // Links: the video, then the data's links.
    let links = inside(card, "ul.companion-talk-links a");
    assert_eq!(texts(links.clone()), ["Video", "Slides"]);
    assert_eq!(
        links.iter().map(|a| href(*a)).collect::<Vec<_>>(),
        [
            "https://www.youtube.com/watch?v=abc123",
            "https://example.org/slides.pdf"
        ]
    );
    // The abstract is Markdown; its raw HTML is text.
    let abs = inside(card, ".companion-talk-abstract")[0];
    assert_eq!(Page::text(inside(abs, "em")[0]), "ownership");
    assert_eq!(Page::text(inside(abs, "code")[0]), "unsafe");
    assert!(Page::text(abs).contains("<script>alert(1)</script>"));
    assert!(page.all("main script").is_empty());
    // The moment's time opens the video at 750 s; its title links to the
    // chapter's page, relative to this one.
    let moments = inside(card, "ol.companion-talk-moments > li.companion-talk-moment");
    assert_eq!(moments.len(), 1);
    let time = inside(moments[0], "a.companion-talk-time")[0];
    assert_eq!(Page::text(time), "12:30");
    assert_eq!(href(time), "https://www.youtube.com/watch?v=abc123&t=750s");
    let chapter = inside(moments[0], "a.companion-talk-moment-title")[0];
    assert_eq!(Page::text(chapter), "Uninitialized variables");
    assert_eq!(href(chapter), "deep/uninit.html");
    // No heading inside a single card, and the text around it is intact.
    assert!(inside(card, "h1, h2, h3, h4, h5, h6").is_empty());
    assert_eq!(texts(page.all("main h1")), ["Talk"]);
    let paras = texts(page.all("main > p"));
    assert!(paras.contains(&"Before.".to_owned()) && paras.contains(&"After.".to_owned()));
}

#[test]
fn chapter_links_climb_out_of_nested_pages() {
    let data = TALKS.replace(
        "\n[[talk.moment]]\nat = \"1:02:03\"\ntitle = \"Too late\"\n",
        "",
    );
    let book = BookTest::new()
        .file("src/talks.toml", data)
        .chapter("deep/uninit.md", "# Uninit\n")
        .chapter("a/b/notes.md", "```talk\n```\n");
    let page = book.html("a/b/notes.md");
    let chapter = page.one("main a.companion-talk-moment-title");
    assert_eq!(href(chapter), "../../deep/uninit.html");
}

#[test]
fn moments_open_vimeo_youtu_be_and_other_hosts_at_the_second() {
    let chapter = r#"```talk
[[talk]]
title = "On Vimeo"
date = 2026-12-01
video = "https://vimeo.com/12345"
[[talk.moment]]
at = "0:05"
title = "Start"

[[talk]]
title = "Short link"
date = 2026-12-01
video = "https://youtu.be/xyz"
[[talk.moment]]
at = "1:00:00"
title = "An hour in"

[[talk]]
title = "Self-hosted"
date = 2026-12-01
video = "https://media.example.org/talk.webm"
[[talk.moment]]
at = "2:03"
title = "Two minutes in"
```
"#;
    let page = BookTest::new().chapter("t.md", chapter).html("t.md");
    let times: Vec<String> = page
        .all("main a.companion-talk-time")
        .into_iter()
        .map(href)
        .collect();
    assert_eq!(
        times,
        [
            "https://vimeo.com/12345#t=5s",
            "https://youtu.be/xyz?t=3600s",
            "https://media.example.org/talk.webm#t=123",
        ]
    );
    // Without a video a moment's time is plain text.
    let page = BookTest::new()
        .chapter(
            "t.md",
            "```talk\n[[talk]]\ntitle = \"T\"\n[[talk.moment]]\nat = \"3:00\"\ntitle = \"M\"\n```\n",
        )
        .html("t.md");
    let time = page.one("main .companion-talk-time");
    assert_eq!(time.value().name(), "span");
    assert_eq!(Page::text(time), "3:00");
}

#[test]
fn several_talks_are_a_schedule_grouped_by_date_in_order() {
    let chapter = r#"# Schedule

```talk
[[talk]]
title = "Day two, afternoon"
date = 2026-12-04T14:00:00

[[talk]]
title = "Day one"
date = 2026-12-03

[[talk]]
title = "Day two, morning"
date = 2026-12-04T09:30:00
[[talk.moment]]
at = "20:00"
title = "Later"
[[talk.moment]]
at = "5:00"
title = "Earlier"
```
"#;
    let page = BookTest::new().chapter("s.md", chapter).html("s.md");
    let schedule = page.one("main div.companion-schedule");
    let days = inside(schedule, ".companion-schedule-day");
    assert_eq!(days.len(), 2);
    let day_times: Vec<(String, String)> = days
        .iter()
        .map(|d| {
            let t = inside(*d, ".companion-schedule-date time")[0];
            (
                t.value().attr("datetime").unwrap_or("").to_owned(),
                Page::text(t),
            )
        })
        .collect();
    assert_eq!(
        day_times,
        [
            ("2026-12-03".to_owned(), "3 December 2026".to_owned()),
            ("2026-12-04".to_owned(), "4 December 2026".to_owned()),
        ]
    );
    assert_eq!(texts(inside(days[0], ".companion-talk-title")), ["Day one"]);
    assert_eq!(
        texts(inside(days[1], ".companion-talk-title")),
        ["Day two, morning", "Day two, afternoon"]
    );
    // Moments in time order.
    assert_eq!(
        texts(inside(days[1], ".companion-talk-moment-title")),
        ["Earlier", "Later"]
    );
}

#[test]
fn filters_select_by_event_and_tag() {
    let chapter = r#"```talk event="B"
```

```talk tags=["x"]
```
"#;
    let data = "[[talk]]\ntitle = \"One\"\nevent = \"A\"\ntags = [\"x\"]\n\n[[talk]]\ntitle = \"Two\"\nevent = \"B\"\n";
    let page = BookTest::new()
        .file("src/talks.toml", data)
        .chapter("f.md", chapter)
        .html("f.md");
    assert_eq!(
        texts(page.all("main .companion-talk-title")),
        ["Two", "One"]
    );
}

/// The book whose talks.toml is `data`, with a chapter that shows them.
fn data_book(data: &str) -> BookTest {
    BookTest::new()
        .file("src/talks.toml", data)
        .chapter("deep/uninit.md", "# U\n")
        .chapter("talk.md", "# T\n\n```talk\n```\n")
}

#[test]
fn bad_data_is_an_error_at_its_file_and_line() {
    let data = TALKS.replace(
        "\n[[talk.moment]]\nat = \"1:02:03\"\ntitle = \"Too late\"\n",
        "",
    );
    let cases: &[(&str, &str)] = &[
        ("abstract", "abstrakt"),
        ("date = 2026-12-03", "date = \"3 December 2026\""),
        ("at = \"12:30\"", "at = \"12:3\""),
        (
            "video = \"https://www.youtube.com/watch?v=abc123\"",
            "video = \"javascript:alert(1)\"",
        ),
        (
            "url = \"https://example.org/slides.pdf\"",
            "url = \"ftp://example.org/slides.pdf\"",
        ),
        ("date = 2026-12-03", "date = \"2026-12-03\""),
    ];
    let mut table = String::new();
    for (from, to) in cases {
        let err = data_book(&data.replacen(from, to, 1)).build_error();
        table.push_str(&format!("{to}\n{err}"));
    }
    // A moment past the talk's duration.
    table.push_str(&format!(
        "at = \"1:02:03\"\n{}",
        data_book(TALKS).build_error()
    ));
    BookTest::new().check_text(table, str![[r#"
abstrakt
 INFO Book building has started
mdbook-companion: error: src/talks.toml:11:1: found unknown field `abstrakt`; expected one of id, title, speakers, event, date, duration, place, video, links, abstract, tags, moment (asked for by src/talk.md:3:4)
date = "3 December 2026"
 INFO Book building has started
mdbook-companion: error: src/talks.toml:6:8: found the string "3 December 2026" for `date`; expected a TOML date, such as 2021-09-14 (no quotes) (asked for by src/talk.md:3:4)
at = "12:3"
 INFO Book building has started
mdbook-companion: error: src/talks.toml:15:6: found at `12:3`; expected a time as m:ss or h:mm:ss, such as 12:30 or 1:02:03 (asked for by src/talk.md:3:4)
video = "javascript:alert(1)"
 INFO Book building has started
mdbook-companion: error: src/talks.toml:9:9: found url `javascript:alert(1)`; expected an http:// or https:// address (asked for by src/talk.md:3:4)
url = "ftp://example.org/slides.pdf"
 INFO Book building has started
mdbook-companion: error: src/talks.toml:10:36: found url `ftp://example.org/slides.pdf`; expected an http:// or https:// address (asked for by src/talk.md:3:4)
date = "2026-12-03"
 INFO Book building has started
mdbook-companion: error: src/talks.toml:6:8: found the string "2026-12-03" for `date`; expected a TOML date, such as 2021-09-14 (no quotes) (asked for by src/talk.md:3:4)
at = "1:02:03"
 INFO Book building has started
mdbook-companion: error: src/talks.toml:20:6: found at = "1:02:03" past the talk's duration 1:00:00; expected a time within the talk (asked for by src/talk.md:3:4)

"#]]);
}

#[test]
fn block_errors_name_the_chapter_and_line() {
    let mut table = String::new();
    let book = book("# T\n\n```talk ids=[\"concepts\", \"nope\"]\n```\n");
    table.push_str(&book.build_error());
    for chapter in [
        "# T\n\n```talk\n[[talk]]\ntitle = \"T\"\nspeaker = \"A\"\n```\n",
        "```talk\n[[talk]]\ntitle = \"T\"\nvideo = \"data:text/html,x\"\n```\n",
        "```talk\n```\n",
    ] {
        table.push_str(&BookTest::new().chapter("i.md", chapter).build_error());
    }
    book.check_text(table, str![[r#"
 INFO Book building has started
mdbook-companion: error: src/talk.md:3:9: found unknown talk id `nope`; expected one of concepts
 INFO Book building has started
mdbook-companion: error: src/i.md:6:1: found unknown field `speaker`; expected one of id, title, speakers, event, date, duration, place, video, links, abstract, tags, moment
 INFO Book building has started
mdbook-companion: error: src/i.md:4:9: found url `data:text/html,x`; expected an http:// or https:// address
 INFO Book building has started
mdbook-companion: error: src/i.md:1:4: found no readable talk data file at src/talks.toml (No such file or directory (os error 2)); expected a TOML file of [[talk]] tables there, or a `talks` path in [preprocessor.companion] of book.toml, or [[talk]] tables in this block's body

"#]]);
}

#[test]
fn on_failure_continue_shows_the_error_in_place() {
    let page = BookTest::new()
        .companion("on-failure = \"continue\"")
        .chapter(
            "i.md",
            "```talk\n[[talk]]\ntitle = \"T\"\ndate = 2026-13-01\n```\n\nAfter.\n",
        )
        .html("i.md");
    let err = page.one("main div.companion-error");
    assert!(
        Page::text(err).starts_with("mdbook-companion: src/i.md:4:"),
        "{}",
        Page::text(err)
    );
    assert!(page.all("main article.companion-talk").is_empty());
    assert!(texts(page.all("main p")).contains(&"After.".to_owned()));
}

#[test]
fn hostile_strings_stay_text() {
    let chapter = r#"```talk title="<b>Talks</b>"
[[talk]]
title = "<script>alert('t')</script>"
speakers = ["<img src=x onerror=alert(1)>"]
event = "O'Brien \"Conf\" & co"
place = "<i>here</i>"
links = [{ label = "<u>Slides</u>", url = "https://x.org/?a=1&b='2'" }]
abstract = "See [bad](javascript:alert(1)) <div onclick=\"x\">hi</div>"
[[talk.moment]]
at = "1:00"
title = "<em>moment</em>"
```
"#;
    BookTest::new().chapter("h.md", chapter).run(&["build"], |cmd| {
        cmd.expect_failure().expect_stderr(str![[r#"
 INFO Book building has started
mdbook-companion: error: src/h.md:8:12: found a link to `javascript:alert(1)` in the abstract; expected an http(s) or relative link

"#]]);
    });
    let chapter = chapter.replace("[bad](javascript:alert(1)) ", "");
    let page = BookTest::new().chapter("h.md", &chapter).html("h.md");
    assert!(
        page.all("main script, main img, main b, main i, main u, main [onclick], main [onerror]")
            .is_empty()
    );
    let card = page.one("main article.companion-talk");
    assert_eq!(
        Page::text(inside(card, ".companion-talk-title")[0]),
        "<script>alert('t')</script>"
    );
    assert_eq!(
        Page::text(inside(card, ".companion-talk-event")[0]),
        "O'Brien \"Conf\" & co"
    );
    let link = inside(card, "ul.companion-talk-links a")[0];
    assert_eq!(Page::text(link), "<u>Slides</u>");
    assert_eq!(href(link), "https://x.org/?a=1&b='2'");
    assert!(inside(card, ".companion-talk-moment em").is_empty());
    assert_eq!(
        Page::text(inside(card, ".companion-talk-moment-title")[0]),
        "<em>moment</em>"
    );
}

#[test]
fn markdown_renderer_gets_plain_markdown() {
    let book = book("# T\n\n```talk\n```\n").toml("[output.html]\n[output.markdown]");
    book.build().expect("build");
    book.check_file("book/markdown/talk.md", str![[r#"
# T

**Key Rust concepts for the kernel** — Ada Lovelace, Alan Turing\
Example Conf 2026 · 3 December 2026 · online · 1 h\
[Video](<https://www.youtube.com/watch?v=abc123>) · [Slides](<https://example.org/slides.pdf>)

Why *ownership* matters, with `unsafe` \<script\>alert(1)\</script\>

- [12:30](<https://www.youtube.com/watch?v=abc123&t=750s>) [Uninitialized variables](<deep/uninit.md>)


"#]]);
}

#[test]
fn test_renderer_drops_the_cards_and_mdbook_test_passes() {
    let book =
        book("Intro.\n\n```talk\n```\n\n```rust\nfn main() { assert_eq!(1 + 1, 2); }\n```\n");
    book.write();
    let mut md = mdbook_driver::MDBook::load(book.root()).expect("load");
    md.test(vec![])
        .expect("mdbook test passes with a talk in the chapter");
}

#[test]
fn print_page_carries_the_cards_and_the_stylesheet_styles_them() {
    let book = book("```talk\n```\n");
    book.build().expect("build");
    let print = book.page("print.md");
    assert_eq!(print.all("article.companion-talk").len(), 1);
    let css = mdbook_companion_directives::assets::stylesheet();
    assert!(css.contains(".companion-talk {") || css.contains(".companion-talk{"));
    let print_rules = css.rsplit("@media print").next().unwrap_or("");
    assert!(
        print_rules.contains("attr(href)"),
        "print shows link targets"
    );
}

/// The guide's talk page: its data, its blocks and its error line.
fn guide_talks() -> (String, String, String) {
    let section = include_str!("../../guide/src/talks.md");
    let fenced = |open: &str, close: &str| {
        section
            .split(open)
            .nth(1)
            .and_then(|s| s.split(close).next())
            .unwrap_or_else(|| panic!("a {open} fence"))
            .to_owned()
    };
    (
        fenced("```toml\n", "```\n"),
        fenced("````markdown\n", "````\n"),
        fenced("```text\n", "\n```\n"),
    )
}

#[test]
fn the_guide_example_holds() {
    let (data, blocks, error) = guide_talks();
    let page = BookTest::new()
        .file("src/talks.toml", &data)
        .chapter("notes.md", &format!("# Notes\n\n{blocks}"))
        .chapter("moves.md", "# Moves\n")
        .html("notes.md");
    assert_eq!(
        texts(page.all("main .companion-talk-title")),
        ["Ownership in ten minutes", "Ownership in ten minutes"]
    );
    let time = page.all("main a.companion-talk-time")[0];
    assert_eq!(href(time), "https://video.example.org/ownership.webm#t=150");
    assert_eq!(
        href(page.all("main a.companion-talk-moment-title")[0]),
        "moves.html"
    );
    // The error the guide shows is the one a build gives.
    let book = BookTest::new()
        .file("src/talks.toml", data.replace("\"2:30\"", "\"12:00\""))
        .chapter("notes.md", "# Notes\n\n```talk ids=\"ownership\"\n```\n")
        .chapter("moves.md", "# Moves\n");
    let err = book.build_error();
    book.check_text(
        err,
        format!(" INFO Book building has started\nmdbook-companion: error: {error}\n"),
    );
}
