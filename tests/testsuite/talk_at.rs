//! `at="12:30"` on examples and comparisons, through real mdBook: the
//! header's "12:30 in the talk" opens the talk's video at that second.

use crate::support::{BookTest, Page};
use pretty_assertions::assert_eq;

/// One talk with a YouTube video and a duration (the tests' own values).
const ONE: &str = "[[talk]]\nid = \"main\"\ntitle = \"T\"\nduration = \"30:00\"\nvideo = \"https://www.youtube.com/watch?v=abc\"\n";

/// Two talks: one on Vimeo, one without a video.
const TWO: &str = "[[talk]]\nid = \"a\"\ntitle = \"A\"\nvideo = \"https://vimeo.com/42\"\n\n[[talk]]\nid = \"b\"\ntitle = \"B\"\n";

const EXAMPLE: &str =
    "# E\n\n```rust example at=\"12:30\" title=\"From the talk\"\nfn main() {}\n```\n";

fn href(el: scraper::ElementRef<'_>) -> String {
    el.value().attr("href").unwrap_or("").to_owned()
}

#[test]
fn an_example_links_to_its_moment_of_the_talk() {
    let page = BookTest::new()
        .file("src/talks.toml", ONE)
        .chapter("e.md", EXAMPLE)
        .html("e.md");
    let link = page.one("main .companion-example > .companion-header a.companion-talk-at");
    assert_eq!(Page::text(link), "12:30 in the talk");
    assert_eq!(href(link), "https://www.youtube.com/watch?v=abc&t=750s");
    let title = page.one("main .companion-example > .companion-header .companion-title");
    assert_eq!(Page::text(title), "From the talk");
}

#[test]
fn a_comparison_names_its_talk_in_a_book_of_several() {
    let chapter = "````compare at=\"a@1:02:03\"\n```c\nint x;\n```\n```python\nx = 1\n```\n````\n\n```rust example at=\"b@0:10\"\nfn main() {}\n```\n";
    let page = BookTest::new()
        .file("src/talks.toml", TWO)
        .chapter("c.md", chapter)
        .html("c.md");
    let link = page.one("main .companion-compare > .companion-header a.companion-talk-at");
    assert_eq!(Page::text(link), "1:02:03 in the talk");
    assert_eq!(href(link), "https://vimeo.com/42#t=3723s");
    // A talk without a video: the moment is plain text.
    let plain = page.one("main .companion-example > .companion-header .companion-talk-at");
    assert_eq!(plain.value().name(), "span");
    assert_eq!(Page::text(plain), "0:10 in the talk");
}

#[test]
fn bad_moments_are_errors_at_the_attribute() {
    let cases: &[(&str, &str, &str)] = &[
        (
            ONE,
            "at=\"12:3\"",
            "src/e.md:3:17: found at=\"12:3\"; expected a time of the talk as m:ss or h:mm:ss",
        ),
        (
            ONE,
            "at=\"31:00\"",
            "src/e.md:3:17: found at=\"31:00\" past the talk's duration 30:00",
        ),
        (
            ONE,
            "at=\"zz@1:00\"",
            "src/e.md:3:17: found unknown talk id `zz` in at=\"zz@1:00\"; expected one of main",
        ),
        (
            TWO,
            "at=\"1:00\"",
            "src/e.md:3:17: found at=\"1:00\" in a book of 2 talks; expected the talk's id, such as at=\"ID@1:00\" with ID one of a, b",
        ),
    ];
    for (data, attr, want) in cases {
        let err = BookTest::new()
            .file("src/talks.toml", *data)
            .chapter("e.md", &EXAMPLE.replace("at=\"12:30\"", attr))
            .build_in_process()
            .expect_err("the build fails");
        assert!(err.contains(want), "{want}\ngot: {err}");
    }
    // No talk data at all.
    let err = BookTest::new()
        .chapter("e.md", EXAMPLE)
        .build_in_process()
        .expect_err("the build fails");
    assert!(
        err.contains("src/e.md:3:17: found no readable talk data file at src/talks.toml"),
        "{err}"
    );
    // A comparison side does not take `at`: it belongs to the block.
    let err = BookTest::new()
        .file("src/talks.toml", ONE)
        .chapter(
            "e.md",
            "````compare\n```c\nint x;\n```\n```rust at=\"1:00\"\nfn main() {}\n```\n````\n",
        )
        .build_in_process()
        .expect_err("the build fails");
    assert!(err.contains("found unknown attribute `at`"), "{err}");
}

#[test]
fn other_renderers_get_the_moment_as_a_markdown_link() {
    let book = BookTest::new()
        .file("src/talks.toml", ONE)
        .chapter("e.md", EXAMPLE)
        .toml("[output.html]\n[output.markdown]");
    book.build().expect("build");
    let md = std::fs::read_to_string(book.output_dir("markdown").join("e.md")).expect("md");
    assert!(
        md.contains("**From the talk** — *Runs* — [12:30 in the talk](<https://www.youtube.com/watch?v=abc&t=750s>)"),
        "{md}"
    );
}

#[test]
fn check_knows_the_chapters_moments_point_at() {
    // `check` renders the example, whose `at` reads the talk data, whose
    // moment names a chapter: the chapter list must be the book's.
    let data = format!("{ONE}[[talk.moment]]\nat = \"12:30\"\ntitle = \"M\"\nchapter = \"e.md\"\n");
    let book = BookTest::new()
        .file("src/talks.toml", data)
        .chapter("e.md", EXAMPLE);
    // Nothing is "not in the book".
    book.run(&["check"], |cmd| {
        cmd.expect_stdout(snapbox::str![[r#"
ok      src/e.md:3: rust example "From the talk" (expect=run)
compiler runs: 1, program runs: 1, from cache: 0
1 passed, 0 failed

"#]])
            .expect_stderr(snapbox::str![]);
    });
}
