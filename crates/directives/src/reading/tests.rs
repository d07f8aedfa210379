use super::*;
use crate::note::render_note;
use crate::testing::{book, config_at, env};
use crate::{Shared, Target, scan};
use mdbook_companion_core::config::Config;
use mdbook_companion_core::escape::link_ok as note_link_ok;
use mdbook_companion_core::markdown;
use pretty_assertions::assert_eq;
use serde_json::json;
use std::path::Path;

const SAMPLE: &str = include_str!("../../../../tests/testsuite/reading-list.toml");

const ENTRY: &str = "[[entry]]\ntitle = \"T\"\nurl = \"https://example.org/\"\n";

fn config() -> Config {
    config_at(Path::new("/nonexistent-book"), json!({}))
}

/// A book directory holding `src/reading-list.toml`.
fn book_with(data: &str) -> tempfile::TempDir {
    book(&[("src/reading-list.toml", data)])
}

fn render_with(cfg: &Config, text: &str, target: Target) -> Result<String, Problem> {
    render_in_run(cfg, &Shared::disabled(), text, target)
}

/// Renders the first block of `text` as part of the run `shared`.
fn render_in_run(
    cfg: &Config,
    shared: &Shared,
    text: &str,
    target: Target,
) -> Result<String, Problem> {
    let block = scan(text).into_iter().next().expect("a block");
    render(&block, &env(cfg, shared, target, text, "src/intro.md"))
        .map(|r| r.out.lines().join("\n"))
}

/// Renders the first block of `text` against the sample data.
fn sample_render(text: &str, target: Target) -> Result<String, Problem> {
    let dir = book_with(SAMPLE);
    render_with(&config_at(dir.path(), json!({})), text, target)
}

fn titles(html: &str) -> Vec<String> {
    html.lines()
        .filter_map(|l| l.strip_prefix("<p class=\"companion-card-title\">"))
        .map(|l| {
            let start = l.find("\">").unwrap() + 2;
            l[start..l.find("</a>").unwrap()].to_owned()
        })
        .collect()
}

#[test]
fn sample_data_parses_into_entries() {
    let entries = parse_entries(SAMPLE).unwrap();
    assert_eq!(entries.len(), 7);
    let trpl = &entries[0];
    assert_eq!(trpl.id.as_deref(), Some("trpl"));
    assert_eq!(trpl.title, "The Rust Programming Language");
    assert_eq!(trpl.authors, ["Steve Klabnik", "Carol Nichols"]);
    assert_eq!(
        trpl.badges(),
        [
            ("free", "Free"),
            ("recommended", "Recommended"),
            ("beginner", "Beginner"),
            ("book", "Book")
        ]
    );
    assert_eq!(
        trpl.note_html.as_deref(),
        Some(
            "<p>The definitive introduction. Kernel developers can skip parts, such as most of the <em>concurrency</em> chapters.</p>"
        )
    );
    let nomicon = &entries[3];
    assert_eq!(
        nomicon.badges(),
        [
            ("free", "Free"),
            ("incomplete", "Incomplete"),
            ("advanced", "Advanced"),
            ("book", "Book")
        ]
    );
    assert_eq!(entries[1].access, Some(Access::Paid));
    assert_eq!(entries[6].kind, Some(EntryKind::Tool));
    // Optional fields may all be left out.
    let minimal = parse_entries(ENTRY).unwrap();
    assert_eq!(minimal[0].badges(), []);
    assert_eq!(minimal[0].note_html, None);
}

#[test]
fn validation_errors_are_located_and_name_what_was_expected() {
    let cases: &[(&str, (usize, usize), &str)] = &[
        (
            "[[entry]]\ntitle = \"T\"\nurl = \"https://x.org\"\nautor = \"me\"\n",
            (4, 1),
            "found unknown field `autor`; expected one of id, title, url, authors, kind, access, audience, level, status, recommended, tags, note",
        ),
        (
            "[[entries]]\ntitle = \"T\"\n",
            (1, 3),
            "found unknown field `entries`; expected [[entry]] tables",
        ),
        (
            "[[entry]]\nurl = \"https://x.org\"\n",
            (1, 1),
            "found an [[entry]] without `title`; expected `title` in every entry (required: title, url)",
        ),
        (
            "[[entry]]\ntitle = \"A\"\nurl = \"https://x.org\"\n\n[[entry]]\ntitle = \"B\"\n",
            (5, 1),
            "found an [[entry]] without `url`; expected `url` in every entry",
        ),
        (
            "[[entry]]\ntitle = 3\nurl = \"https://x.org\"\n",
            (2, 9),
            "found integer `3`; expected a string",
        ),
        (
            "[[entry]]\ntitle = \"T\"\nurl = \"https://x.org\"\nauthors = \"Me\"\n",
            (4, 11),
            "found string \"Me\"; expected an array",
        ),
        (
            "[[entry]]\ntitle = \"T\"\nurl = \"https://x.org\"\nrecommended = \"yes\"\n",
            (4, 15),
            "found string \"yes\"; expected a boolean",
        ),
        (
            "[[entry]]\ntitle = \"T\"\nurl = \"https://x.org\"\ntags = [\"a\", 2]\n",
            (4, 14),
            "found integer `2`; expected a string",
        ),
        (
            "[[entry]]\ntitle = \"T\"\nurl = \"https://x.org\"\nkind = \"bok\"\n",
            (4, 8),
            "found unknown value `bok`; expected one of book, web, video, paper, talk, tool",
        ),
        (
            "[[entry]]\ntitle = \"T\"\nurl = \"https://x.org\"\naccess = \"cheap\"\n",
            (4, 10),
            "found unknown value `cheap`; expected free or paid",
        ),
        (
            "[[entry]]\ntitle = \"T\"\nurl = \"https://x.org\"\nlevel = \"expert\"\n",
            (4, 9),
            "found unknown value `expert`; expected one of beginner, intermediate, advanced",
        ),
        (
            "[[entry]]\ntitle = \"T\"\nurl = \"https://x.org\"\nstatus = \"done\"\n",
            (4, 10),
            "found unknown value `done`; expected complete or incomplete",
        ),
        (
            "[[entry]]\nid = \"a\"\ntitle = \"A\"\nurl = \"https://x.org\"\n\n[[entry]]\nid = \"a\"\ntitle = \"B\"\nurl = \"https://y.org\"\n",
            (7, 6),
            "found id `a` a second time (first on line 2); expected each id once",
        ),
        (
            "[[entry]]\nid = \"two words\"\ntitle = \"T\"\nurl = \"https://x.org\"\n",
            (2, 6),
            "found id `two words`; expected a word without spaces",
        ),
        (
            "[[entry]]\ntitle = \"T\"\nurl = \"javascript:alert(1)\"\n",
            (3, 7),
            "found url `javascript:alert(1)`; expected an http:// or https:// address",
        ),
        (
            "[[entry]]\ntitle = \"T\"\nurl = \"ftp://x.org/\"\n",
            (3, 7),
            "found url `ftp://x.org/`; expected an http:// or https:// address",
        ),
        (
            "[[entry]]\ntitle = \"T\"\nurl = \"https://x.org/a b\"\n",
            (3, 7),
            "found a space, quote or angle bracket in url `https://x.org/a b`; expected them percent-encoded",
        ),
        (
            "[[entry]]\ntitle = \" \"\nurl = \"https://x.org\"\n",
            (2, 9),
            "found an empty title; expected the resource's title",
        ),
        (
            "[[entry]]\ntitle = \"T\"\nurl = \"https://x.org\"\nnote = \"see [this](javascript:alert(1))\"\n",
            (4, 8),
            "found a link to `javascript:alert(1)` in the note; expected an http(s) or relative link",
        ),
        (
            "[[entry]]\ntitle = \"T\nurl = \"https://x.org\"\n",
            (2, 11),
            "found invalid TOML (",
        ),
    ];
    for (text, (line, col), msg) in cases {
        let f = parse_entries(text).unwrap_err();
        assert!(f.message.starts_with(msg), "{text}\ngot: {}", f.message);
        assert_eq!(
            markdown::line_col(text, f.offset),
            (*line, *col),
            "{text}\n{}",
            f.message
        );
    }
}

#[test]
fn notes_render_inline_markdown_and_show_raw_html_as_text() {
    let (html, md) =
        render_note("*Read* `unsafe` [docs](https://x.org/) and <script>alert(1)</script>\nmore.")
            .unwrap();
    assert_eq!(
        html,
        "<p><em>Read</em> <code>unsafe</code> <a href=\"https://x.org/\">docs</a> and &lt;script&gt;alert(1)&lt;/script&gt; more.</p>"
    );
    assert_eq!(
        md,
        r"*Read* `unsafe` [docs](https://x.org/) and \<script\>alert(1)\</script\> more."
    );
    // Block HTML, headings and code blocks are flattened, never raw.
    let (html, _) = render_note("<div onclick=\"x\">hi</div>\n\n# Big\n\n    code\n").unwrap();
    assert_eq!(
        html,
        "&lt;div onclick=\"x\"&gt;hi&lt;/div&gt; <p>Big</p> <p><code>code</code></p>"
    );
    assert!(!html.contains("<div") && !html.contains("<h1"), "{html}");
}

#[test]
fn note_links_must_be_http_or_relative() {
    for (dest, ok) in [
        ("https://x.org/", true),
        ("HTTP://x.org/", true),
        ("../ch1.md#part", true),
        ("#part", true),
        ("page.html?a=b:c", true),
        ("javascript:alert(1)", false),
        (" JavaScript:alert(1)", false),
        ("data:text/html,x", false),
        ("vbscript:x", false),
        ("mailto:a@b.org", false),
    ] {
        assert_eq!(note_link_ok(dest), ok, "{dest}");
    }
    assert!(render_note("![x](javascript:alert(1))").is_err());
    assert!(render_note("<javascript:alert(1)>").is_err());
}

#[test]
fn filters_select_and_order_entries() {
    let cases: &[(&str, &[&str])] = &[
        (
            "```reading-list\n```\n",
            &[
                "The Rust Programming Language",
                "Programming Rust",
                "Rust by Example",
                "The Rustonomicon",
                "The Rust Reference",
                "Rust Playground",
                "Compiler Explorer",
            ],
        ),
        (
            "```reading-list tags=[\"kernel\"]\n```\n",
            &["Programming Rust", "The Rustonomicon", "Compiler Explorer"],
        ),
        (
            "```reading-list tags=kernel kind=book\n```\n",
            &["Programming Rust", "The Rustonomicon"],
        ),
        (
            "```reading-list tags=[\"start\", \"tools\"] sort=title\n```\n",
            &[
                "Compiler Explorer",
                "Rust by Example",
                "Rust Playground",
                "The Rust Programming Language",
            ],
        ),
        (
            "```reading-list ids=[\"reference\", \"trpl\", \"playground\"]\n```\n",
            &[
                "The Rust Reference",
                "The Rust Programming Language",
                "Rust Playground",
            ],
        ),
        (
            "```reading-list ids=[\"reference\", \"trpl\"] sort=title\n```\n",
            &["The Rust Programming Language", "The Rust Reference"],
        ),
        ("```reading-list access=paid\n```\n", &["Programming Rust"]),
        (
            "```reading-list kind=[\"tool\"] access=\"free\"\n```\n",
            &["Rust Playground", "Compiler Explorer"],
        ),
        (
            "```reading-list,kind=tool,sort=file\n```\n",
            &["Rust Playground", "Compiler Explorer"],
        ),
    ];
    for (text, want) in cases {
        let html = sample_render(text, Target::Html).unwrap();
        assert_eq!(titles(&html), *want, "{text}");
    }
}

#[test]
fn selection_and_attribute_errors_are_located_in_the_chapter() {
    let cases: &[(&str, (usize, usize), &str)] = &[
        (
            "Text\n\n```reading-list ids=[\"trpl\", \"nope\"]\n```\n",
            (3, 17),
            "found unknown id `nope`; expected one of trpl, programming-rust, rust-by-example, nomicon, reference, playground, compiler-explorer",
        ),
        (
            "```reading-list tags=[\"gpu\"]\n```\n",
            (1, 4),
            "found no entry matching tags=[\"gpu\"] among 7 entries of src/reading-list.toml; expected a filter that selects at least one (tags in use: exercises, kernel, language, start, tools, unsafe)",
        ),
        (
            "```reading-list kind=video\n```\n",
            (1, 4),
            "found no entry matching kind=[\"video\"] among 7 entries",
        ),
        (
            "```reading-list ids=[\"trpl\", \"nomicon\", \"trpl\"]\n```\n",
            (1, 17),
            "found id `trpl` twice in `ids`; expected each id once",
        ),
        (
            "```reading-list colour=red\n```\n",
            (1, 17),
            "found unknown attribute `colour`; expected one of tags, ids, kind, access, sort, title",
        ),
        (
            "```reading-list kind=[\"book\", \"blog\"]\n```\n",
            (1, 17),
            "found `blog` for `kind`; expected one of book, web, video, paper, talk, tool",
        ),
        (
            "```reading-list access=gratis\n```\n",
            (1, 17),
            "found `gratis` for `access`; expected one of free, paid",
        ),
        (
            "```reading-list sort=year\n```\n",
            (1, 17),
            "found `year` for `sort`; expected one of file, title",
        ),
        (
            "```reading-list tags=3\n```\n",
            (1, 17),
            "found integer for `tags`; expected a string or an array of strings",
        ),
        (
            "```reading-list tags=[]\n```\n",
            (1, 17),
            "found array for `tags`; expected a string or an array of strings",
        ),
        (
            "```reading-list tags=a tags=b\n```\n",
            (1, 24),
            "found `tags` a second time; expected each attribute once",
        ),
    ];
    for (text, (line, col), msg) in cases {
        let p = sample_render(text, Target::Html).unwrap_err();
        assert!(p.message.starts_with(msg), "{text}\ngot: {}", p.message);
        assert_eq!(markdown::line_col(text, p.offset), (*line, *col), "{text}");
        assert_eq!(p.file, None);
    }
}

#[test]
fn inline_entries_are_used_and_their_errors_point_into_the_chapter() {
    let text = format!("# Ch\n\n```reading-list\n{ENTRY}```\n");
    let html = render_with(&config(), &text, Target::Html).unwrap();
    assert_eq!(titles(&html), ["T"]);
    let cases: &[(&str, (usize, usize))] = &[
        (
            "Intro\n\n```reading-list\n[[entry]]\ntitle = \"T\"\nurl = \"https://x.org\"\nautor = 1\n```\n",
            (7, 1),
        ),
        (
            "- item\n\n  > ```reading-list\n  > [[entry]]\n  > title = \"T\"\n  > url = \"ftp://x.org\"\n  > ```\n",
            (6, 11),
        ),
        (
            "```reading-list\r\n[[entry]]\r\ntitle = 5\r\n```\r\n",
            (3, 9),
        ),
    ];
    for (text, want) in cases {
        let p = render_with(&config(), text, Target::Html).unwrap_err();
        assert_eq!(
            markdown::line_col(text, p.offset),
            *want,
            "{text}: {}",
            p.message
        );
        assert_eq!(p.file, None);
    }
    // A body with no entry at all selects nothing.
    let p = render_with(
        &config(),
        "```reading-list\n# just a comment\n```\n",
        Target::Html,
    )
    .unwrap_err();
    assert_eq!(
        p.message,
        "found no [[entry]] tables in this block's body; expected at least one entry"
    );
}

#[test]
fn missing_or_outside_data_files_are_errors_at_the_block() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("src")).unwrap();
    let text = "```reading-list\n```\n";
    let p = render_with(&config_at(dir.path(), json!({})), text, Target::Html).unwrap_err();
    assert_eq!(p.offset, 3);
    assert!(
        p.message
            .starts_with("found no readable reading-list data file at src/reading-list.toml ("),
        "{}",
        p.message
    );
    assert!(
        p.message
            .contains("or [[entry]] tables in this block's body"),
        "{}",
        p.message
    );
    for bad in ["../outside.toml", "/etc/passwd", "a/../../x.toml"] {
        let cfg = config_at(dir.path(), json!({"reading-list": bad}));
        let p = render_with(&cfg, text, Target::Html).unwrap_err();
        assert!(
            p.message.starts_with(&format!(
                "found `reading-list = \"{bad}\"` in book.toml; expected a path inside"
            )),
            "{}",
            p.message
        );
    }
    #[cfg(unix)]
    {
        std::fs::write(dir.path().join("secret.toml"), ENTRY).unwrap();
        std::os::unix::fs::symlink(
            dir.path().join("secret.toml"),
            dir.path().join("src/reading-list.toml"),
        )
        .unwrap();
        let p = render_with(&config_at(dir.path(), json!({})), text, Target::Html).unwrap_err();
        assert!(
            p.message.starts_with(
                "found src/reading-list.toml pointing outside the book's source directory"
            ),
            "{}",
            p.message
        );
    }
}

#[test]
fn configured_data_file_in_a_subdirectory_is_read() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("src/data")).unwrap();
    std::fs::write(dir.path().join("src/data/books.toml"), SAMPLE).unwrap();
    let cfg = config_at(dir.path(), json!({"reading-list": "data/books.toml"}));
    let html = render_with(&cfg, "```reading-list ids=nomicon\n```\n", Target::Html).unwrap();
    assert_eq!(titles(&html), ["The Rustonomicon"]);
}

#[test]
fn data_file_is_read_once_per_run() {
    let dir = book_with(ENTRY);
    let cfg = config_at(dir.path(), json!({}));
    let text = "```reading-list\n```\n";
    let run = Shared::disabled();
    assert_eq!(
        titles(&render_in_run(&cfg, &run, text, Target::Html).unwrap()),
        ["T"]
    );
    // Changed on disk mid-run: this run keeps what it read ...
    std::fs::write(
        dir.path().join("src/reading-list.toml"),
        ENTRY.replace("\"T\"", "\"U\""),
    )
    .unwrap();
    assert_eq!(
        titles(&render_in_run(&cfg, &run, text, Target::Html).unwrap()),
        ["T"]
    );
    // ... and the next run (a fresh one, as `mdbook serve` makes) sees the edit.
    assert_eq!(
        titles(&render_in_run(&cfg, &Shared::disabled(), text, Target::Html).unwrap()),
        ["U"]
    );
}

const HOSTILE: &str = r#"```reading-list title="<b>List</b>"
[[entry]]
title = "<script>alert('t')</script>"
url = "https://x.org/?a=1&b='2'"
authors = ["<img src=x onerror=alert(1)>", "O'Brien \"Bob\" & co"]
audience = "<i>everyone</i>"
note = "Read *ok* <script>alert(1)</script> and [x](https://y.org/\"onmouseover=\"alert(1))"
```
"#;

#[test]
fn hostile_strings_are_escaped_in_html() {
    let html = render_with(&config(), HOSTILE, Target::Html).unwrap();
    assert_eq!(
            html,
            [
                "<div class=\"companion-reading-list\">",
                "<p class=\"companion-reading-list-title\">&lt;b&gt;List&lt;/b&gt;</p>",
                "<div class=\"companion-cards\">",
                "<article class=\"companion-card\">",
                "<p class=\"companion-card-title\"><a class=\"companion-card-link\" href=\"https://x.org/?a=1&amp;b=&#x27;2&#x27;\">&lt;script&gt;alert(&#x27;t&#x27;)&lt;/script&gt;</a></p>",
                "<p class=\"companion-card-authors\">&lt;img src=x onerror=alert(1)&gt;, O&#x27;Brien &quot;Bob&quot; &amp; co</p>",
                "<p class=\"companion-card-audience\"><span class=\"companion-card-label\">Audience:</span> &lt;i&gt;everyone&lt;/i&gt;</p>",
                "<div class=\"companion-card-note\"><p>Read <em>ok</em> &lt;script&gt;alert(1)&lt;/script&gt; and <a href=\"https://y.org/%22onmouseover=%22alert(1)\">x</a></p></div>",
                "</article>",
                "</div>",
                "</div>",
            ]
            .join("\n")
        );
}

#[test]
fn hostile_strings_are_escaped_in_markdown() {
    let md = render_with(&config(), HOSTILE, Target::Markdown).unwrap();
    assert_eq!(
            md,
            [
                r"**\<b\>List\</b\>**",
                "",
                r#"- [\<script\>alert('t')\</script\>](<https://x.org/?a=1&b='2'>) — \<img src=x onerror=alert(1)\>, O'Brien "Bob" \& co — for \<i\>everyone\</i\> — Read *ok* \<script\>alert(1)\</script\> and [x](https://y.org/"onmouseover="alert(1))"#,
            ]
            .join("\n")
        );
}

#[test]
fn markdown_target_is_a_list_with_badges_as_words() {
    let md = sample_render(
        "```reading-list ids=[\"trpl\", \"playground\"]\n```\n",
        Target::Markdown,
    )
    .unwrap();
    assert_eq!(
            md,
            [
                "- [The Rust Programming Language](<https://doc.rust-lang.org/book/>) — Steve Klabnik, Carol Nichols — *Free · Recommended · Beginner · Book* — for Programmers new to Rust — The definitive introduction. Kernel developers can skip parts, such as most of the *concurrency* chapters.",
                "- [Rust Playground](<https://play.rust-lang.org/>) — *Free · Tool* — Builds and runs code in the browser, runs linters such as Clippy, and shows the assembly.",
            ]
            .join("\n")
        );
}

#[test]
fn translations_are_escaped_and_their_links_checked() {
    use mdbook_companion_core::i18n::Translations;
    use polib::{catalog::Catalog, message::Message, metadata::CatalogMetadata};
    let mut catalog = Catalog::new(CatalogMetadata::new());
    for (id, s) in [
        ("Everyone", "<b>Tous</b>"),
        ("Read _this_.", "Lisez [ceci](javascript:alert(1))."),
    ] {
        catalog.append_or_update(
            Message::build_singular()
                .with_msgid(id.into())
                .with_msgstr(s.into())
                .done(),
        );
    }
    let mut shared = Shared::disabled();
    shared.translations = Some(std::sync::Arc::new(Translations::new(
        "fr".into(),
        "po/fr.po".into(),
        catalog,
    )));
    let entry = "[[entry]]\ntitle = \"T\"\nurl = \"https://x.org/\"\naudience = \"Everyone\"\n";
    let text = format!("```reading-list\n{entry}```\n");
    let html = render_in_run(&config(), &shared, &text, Target::Html).unwrap();
    assert!(
        html.contains("Audience:</span> &lt;b&gt;Tous&lt;/b&gt;</p>"),
        "{html}"
    );
    let text = format!("```reading-list\n{entry}note = \"Read *this*.\"\n```\n");
    let p = render_in_run(&config(), &shared, &text, Target::Html).unwrap_err();
    assert_eq!(p.offset, 3);
    assert_eq!(
        p.message,
        "found a link to `javascript:alert(1)` in the note; expected an http(s) or relative link, in its translation in po/fr.po"
    );
}

#[test]
fn xgettext_puts_each_string_on_its_line_in_the_block() {
    let text = "Intro\n\n```reading-list title=\"Mine\"\n[[entry]]\ntitle = \"T\"\nurl = \"https://x.org/\"\naudience = \"Everyone\"\nnote = \"Read *this*.\"\n```\nAfter\n";
    assert_eq!(
        render_with(&config(), text, Target::Xgettext).unwrap(),
        ["# Mine", "", "", "", "# Everyone", "Read *this*.", ""].join("\n")
    );
}

#[test]
fn test_target_drops_the_cards_but_still_checks_them() {
    assert_eq!(
        sample_render("```reading-list\n```\n", Target::Test).unwrap(),
        ""
    );
    assert!(sample_render("```reading-list ids=nope\n```\n", Target::Test).is_err());
}

#[test]
fn every_badge_of_a_card_is_offered_to_translators() {
    // Every badge a reading-list card can show.
    let mut entries = String::new();
    for (kind, access, level) in [
        ("book", "free", "beginner"),
        ("web", "paid", "intermediate"),
        ("video", "free", "advanced"),
        ("paper", "free", "beginner"),
        ("talk", "free", "beginner"),
        ("tool", "free", "beginner"),
    ] {
        entries.push_str(&format!(
                "[[entry]]\ntitle = \"T\"\nurl = \"https://x.org/{kind}\"\nkind = \"{kind}\"\naccess = \"{access}\"\nlevel = \"{level}\"\nrecommended = true\nstatus = \"incomplete\"\n"
            ));
    }
    let entries = parse_entries(&entries).unwrap();
    let mut seen = 0;
    for e in &entries {
        for (_, word) in e.badges() {
            assert!(crate::ui::WORDS.contains(&word), "{word}");
            seen += 1;
        }
    }
    assert_eq!(seen, 6 * 5);
}
