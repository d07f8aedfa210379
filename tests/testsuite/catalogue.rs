//! The bad-input catalogue: one test per way an author can get a directive
//! or the book wrong, each pinning the exact located message the author
//! reads (`file:line:column: found …; expected …`), through real mdBook with
//! the preprocessor in-process (which surfaces our error text).

use crate::support::BookTest;
use pretty_assertions::assert_eq;

/// Builds a one-chapter book and returns the error text, which must exist.
fn error_of(book: BookTest) -> String {
    match book.build_in_process() {
        Ok(()) => panic!("the build succeeded; expected an error"),
        Err(e) => e,
    }
}

/// Our located message, from where it starts in mdBook's error chain.
fn located(book: BookTest) -> String {
    let e = error_of(book);
    let at = e
        .find("src/")
        .unwrap_or_else(|| panic!("no located message in {e:?}"));
    e[at..].to_owned()
}

fn chapter(text: &str) -> BookTest {
    BookTest::new().chapter("ch.md", text)
}

/// A bad book and the located message its build fails with.
struct Case {
    book: BookTest,
    message: String,
    /// What must outlive the book (a directory it links to).
    keep: Option<tempfile::TempDir>,
}

/// The build of the case's book fails with exactly its message.
fn pinned(case: Case) {
    assert_eq!(located(case.book), case.message);
}

/// The catalogue's bad books, each with the located message its build
/// fails with (`check` must fail with it too).
mod case {
    use super::{Case, chapter};

    /// A case's book, made afresh.
    type Make = fn() -> Case;

    /// Every case, by name.
    pub const ALL: &[(&str, Make)] = &[
        ("unknown_directive_attribute", unknown_directive_attribute),
        ("bad_attribute_value", bad_attribute_value),
        ("unterminated_quote", unterminated_quote),
        ("compile_fail_without_code", compile_fail_without_code),
        (
            "error_code_without_compile_fail",
            error_code_without_compile_fail,
        ),
        ("bad_error_code", bad_error_code),
        ("compare_with_one_side", compare_with_one_side),
        ("compare_with_five_sides", compare_with_five_sides),
        (
            "compare_with_unknown_language",
            compare_with_unknown_language,
        ),
        ("missing_data_file", missing_data_file),
        ("unreadable_data_file", unreadable_data_file),
        ("invalid_toml_in_data_file", invalid_toml_in_data_file),
        ("invalid_toml_inline", invalid_toml_inline),
        ("duplicate_ids", duplicate_ids),
        ("non_http_url", non_http_url),
        ("filter_matching_nothing", filter_matching_nothing),
        ("data_file_outside_the_book", data_file_outside_the_book),
        (
            "data_file_symlinked_out_of_the_book",
            data_file_symlinked_out_of_the_book,
        ),
        ("duplicate_block_ids", duplicate_block_ids),
        ("unknown_talk_id", unknown_talk_id),
        ("unknown_reading_list_kind", unknown_reading_list_kind),
    ];

    /// Two blocks with one `id=` (the book's check, after every chapter).
    pub fn duplicate_block_ids() -> Case {
        Case {
            book: chapter(
                "```rust example id=dup\nfn main() {}\n```\n\n```rust example id=dup\nfn main() {}\n```\n",
            ),
            message: "src/ch.md:5:17: found `id=\"dup\"` already used at src/ch.md:1:17; expected an id used once in the book".to_owned(),
            keep: None,
        }
    }

    /// A talk block asking for an id talks.toml does not have (a
    /// directive that makes no claims).
    pub fn unknown_talk_id() -> Case {
        Case {
            book: chapter("# T\n\n```talk ids=\"nope\"\n```\n")
                .file("src/talks.toml", "[[talk]]\nid = \"a\"\ntitle = \"A\"\n"),
            message: "src/ch.md:3:9: found unknown talk id `nope`; expected one of a".to_owned(),
            keep: None,
        }
    }

    /// A reading-list entry of a kind the list does not know.
    pub fn unknown_reading_list_kind() -> Case {
        Case {
            book: chapter(
                "```reading-list\n[[entry]]\ntitle = \"A\"\nurl = \"https://a.example/\"\nkind = \"website\"\n```\n",
            ),
            message: "src/ch.md:5:8: found unknown value `website`; expected one of book, web, video, paper, talk, tool".to_owned(),
            keep: None,
        }
    }

    pub fn unknown_directive_attribute() -> Case {
        Case {
            book: chapter(
                "# T\n\n```rust example colour=red\nfn main() {}\n```\n"
            ),
            // Spelled out: every attribute the parser accepts, `noplaypen`
            // included (the list is the parser's own table).
            message: "src/ch.md:3:17: found unknown attribute `colour`; expected one of title, id, expect, error, edition, mode, asm, asm-syntax, warnings, playground, compiler-explorer, editable, ignore, noplayground, noplaypen, mdbook-runnable, hidelines, should_panic, compile_fail, no_run, sanitize, edition2015/2018/2021/2024, at".to_owned(),
            keep: None,
        }
    }

    pub fn bad_attribute_value() -> Case {
        Case {
            book: chapter(
                "```rust example expect=sometimes\nfn main() {}\n```\n"
            ),
            message: "src/ch.md:1:17: found `sometimes` for `expect`; expected one of run, panic, compile-fail, no-run".to_owned(),
            keep: None,
        }
    }

    pub fn unterminated_quote() -> Case {
        Case {
            book: chapter("```rust example title=\"Half a title\nfn main() {}\n```\n"),
            message: "src/ch.md:1:23: found an unterminated string; expected a closing `\"`"
                .to_owned(),
            keep: None,
        }
    }

    pub fn compile_fail_without_code() -> Case {
        Case {
            book: chapter(
                "Text.\n\n```rust example expect=compile-fail\n```\n"
            ),
            message: "src/ch.md:3:4: found an empty example; `expect=compile-fail` needs code that fails to compile".to_owned(),
            keep: None,
        }
    }

    pub fn error_code_without_compile_fail() -> Case {
        Case {
            book: chapter("```rust example error=E0381\nfn main() {}\n```\n"),
            message: "src/ch.md:1:17: found an error code with expect=run; expected `expect=compile-fail` alongside `error`".to_owned(),
            keep: None,
        }
    }

    pub fn bad_error_code() -> Case {
        Case {
            book: chapter(
                "```rust example expect=compile-fail error=oops\nfn main() { let x: i32; x; }\n```\n"
            ),
            message: "src/ch.md:1:37: found `oops` for `error`; expected a rustc error code such as E0381".to_owned(),
            keep: None,
        }
    }

    pub fn compare_with_one_side() -> Case {
        Case {
            book: chapter("````compare\n```c\nint f(void);\n```\n````\n"),
            message:
                "src/ch.md:1:5: found 1 side; expected 2 to 4 fenced code blocks in a compare block"
                    .to_owned(),
            keep: None,
        }
    }

    pub fn compare_with_five_sides() -> Case {
        let side = "```c\nint f(void);\n```\n";
        let text = format!("````compare\n{}````\n", side.repeat(5));
        Case {
            book: chapter(&text),
            message: "src/ch.md:14:1: found a 5th side; expected 2 to 4 sides in a compare block"
                .to_owned(),
            keep: None,
        }
    }

    pub fn compare_with_unknown_language() -> Case {
        Case {
            book: chapter(
                "````compare\n```c\nint f(void);\n```\n```java\nclass A {}\n```\n````\n"
            ),
            message: "src/ch.md:5:4: found a `java` code block; expected a side in one of c, cpp, rust, python, go".to_owned(),
            keep: None,
        }
    }

    pub fn missing_data_file() -> Case {
        Case {
            book: chapter("```reading-list\n```\n"),
            message: "src/ch.md:1:4: found no readable reading-list data file at src/reading-list.toml (No such file or directory (os error 2)); expected a TOML file of [[entry]] tables there, or a `reading-list` path in [preprocessor.companion] of book.toml, or [[entry]] tables in this block's body".to_owned(),
            keep: None,
        }
    }

    pub fn unreadable_data_file() -> Case {
        // A directory where the file should be: unreadable for root too.
        let book = chapter("```reading-list\n```\n").file("src/reading-list.toml/x", "");
        Case {
            book,
            message: "src/ch.md:1:4: found src/reading-list.toml, which is not a regular file (a directory); expected the reading-list data file as a TOML file of [[entry]] tables".to_owned(),
            keep: None,
        }
    }

    pub fn invalid_toml_in_data_file() -> Case {
        let book = chapter("Intro.\n\n```reading-list\n```\n")
            .file("src/reading-list.toml", "[[entry]]\ntitle = \"A\nurl = 1\n");
        Case {
            book,
            message: "src/reading-list.toml:2:11: found invalid TOML (invalid basic string, expected `\"`); expected [[entry]] tables of fields id, title, url, authors, kind, access, audience, level, status, recommended, tags, note (asked for by src/ch.md:3:4)".to_owned(),
            keep: None,
        }
    }

    pub fn invalid_toml_inline() -> Case {
        Case {
            book: chapter(
                "```reading-list\n[[entry]]\ntitle = = \"A\"\n```\n"
            ),
            message: "src/ch.md:3:9: found invalid TOML (extra `=`, expected nothing); expected [[entry]] tables of fields id, title, url, authors, kind, access, audience, level, status, recommended, tags, note".to_owned(),
            keep: None,
        }
    }

    pub fn duplicate_ids() -> Case {
        let entry = "[[entry]]\nid = \"trpl\"\ntitle = \"A\"\nurl = \"https://a.example/\"\n";
        let text = format!("```reading-list\n{entry}{entry}```\n");
        Case {
            book: chapter(&text),
            message: "src/ch.md:7:6: found id `trpl` a second time (first on line 2); expected each id once".to_owned(),
            keep: None,
        }
    }

    pub fn non_http_url() -> Case {
        Case {
            book: chapter(
                "```reading-list\n[[entry]]\ntitle = \"A\"\nurl = \"javascript:alert(1)\"\n```\n"
            ),
            message: "src/ch.md:4:7: found url `javascript:alert(1)`; expected an http:// or https:// address".to_owned(),
            keep: None,
        }
    }

    pub fn filter_matching_nothing() -> Case {
        let book = chapter("```reading-list tags=[\"gpu\"]\n```\n").file(
            "src/reading-list.toml",
            "[[entry]]\ntitle = \"A\"\nurl = \"https://a.example/\"\ntags = [\"kernel\"]\n",
        );
        Case {
            book,
            message: "src/ch.md:1:4: found no entry matching tags=[\"gpu\"] among 1 entries of src/reading-list.toml; expected a filter that selects at least one (tags in use: kernel)".to_owned(),
            keep: None,
        }
    }

    pub fn data_file_outside_the_book() -> Case {
        let book =
            chapter("```reading-list\n```\n").companion("reading-list = \"../../etc/passwd\"");
        Case {
            book,
            message: "src/ch.md:1:4: found `reading-list = \"../../etc/passwd\"` in book.toml; expected a path inside the book's source directory, without `..`".to_owned(),
            keep: None,
        }
    }

    pub fn data_file_symlinked_out_of_the_book() -> Case {
        let outside = tempfile::tempdir().expect("tempdir");
        std::fs::write(outside.path().join("list.toml"), "").expect("write");
        let book = chapter("```reading-list\n```\n");
        std::fs::create_dir_all(book.root().join("src")).expect("src");
        std::os::unix::fs::symlink(
            outside.path().join("list.toml"),
            book.root().join("src/reading-list.toml"),
        )
        .expect("symlink");
        let real = outside
            .path()
            .canonicalize()
            .expect("real")
            .join("list.toml");
        Case {
            book,
            message: format!(
                "src/ch.md:1:4: found src/reading-list.toml pointing outside the book's source directory (to {}); expected the data file inside it",
                real.display()
            ),
            keep: Some(outside),
        }
    }
}

#[test]
fn unknown_directive_attribute() {
    pinned(case::unknown_directive_attribute());
}

#[test]
fn bad_attribute_value() {
    pinned(case::bad_attribute_value());
}

#[test]
fn unterminated_quote() {
    pinned(case::unterminated_quote());
}

#[test]
fn compile_fail_without_code() {
    pinned(case::compile_fail_without_code());
}

#[test]
fn error_code_without_compile_fail() {
    pinned(case::error_code_without_compile_fail());
}

#[test]
fn bad_error_code() {
    pinned(case::bad_error_code());
}

#[test]
fn compare_with_one_side() {
    pinned(case::compare_with_one_side());
}

#[test]
fn compare_with_five_sides() {
    pinned(case::compare_with_five_sides());
}

#[test]
fn compare_with_unknown_language() {
    pinned(case::compare_with_unknown_language());
}

#[test]
fn missing_data_file() {
    pinned(case::missing_data_file());
}

#[test]
fn unreadable_data_file() {
    pinned(case::unreadable_data_file());
}

#[test]
fn invalid_toml_in_data_file() {
    pinned(case::invalid_toml_in_data_file());
}

#[test]
fn invalid_toml_inline() {
    pinned(case::invalid_toml_inline());
}

#[test]
fn duplicate_ids() {
    pinned(case::duplicate_ids());
}

#[test]
fn non_http_url() {
    pinned(case::non_http_url());
}

#[test]
fn filter_matching_nothing() {
    pinned(case::filter_matching_nothing());
}

#[test]
fn data_file_outside_the_book() {
    pinned(case::data_file_outside_the_book());
}

#[test]
fn data_file_symlinked_out_of_the_book() {
    pinned(case::data_file_symlinked_out_of_the_book());
}

#[test]
fn duplicate_block_ids() {
    pinned(case::duplicate_block_ids());
}

#[test]
fn unknown_talk_id() {
    pinned(case::unknown_talk_id());
}

#[test]
fn unknown_reading_list_kind() {
    pinned(case::unknown_reading_list_kind());
}

/// `check` fails wherever the build fails, at the place the build names:
/// every book of the catalogue is checked (which writes its lock where
/// it can), checked `--locked` as CI does, and built. A `--locked` run
/// that passes means a book that builds; each failing one prints the
/// build's own located message.
#[test]
fn check_fails_wherever_the_build_fails() {
    for (name, make) in case::ALL {
        let case = make();
        let built = case.book.build_in_process();
        let root = case.book.root().display().to_string();
        let _ = BookTest::run_bin(&["check", &root], b"");
        let out = BookTest::run_bin(&["check", "--locked", &root], b"");
        let stdout = String::from_utf8_lossy(&out.stdout);
        if out.status.success() {
            assert!(
                built.is_ok(),
                "{name}: check --locked passed, the build failed: {built:?}"
            );
        }
        let Err(error) = built else { continue };
        let at = error
            .find("src/")
            .unwrap_or_else(|| panic!("{name}: no located message in {error:?}"));
        let message = error[at..].lines().next().unwrap_or_default();
        assert_eq!(out.status.code(), Some(1), "{name}: {stdout}");
        assert!(
            stdout.lines().any(|l| l == format!("FAILED  {message}")),
            "{name}: the build says {message:?}; check says:\n{stdout}"
        );
    }
}

/// mdBook's `links` preprocessor cannot read a file that is not UTF-8: it
/// logs `Error updating "{{#include bad.rs}}"` with the cause ("stream did
/// not contain valid UTF-8") and builds on, leaving the link as text. The
/// directive then names the unexpanded link with its place.
#[test]
fn invalid_utf8_in_an_included_file() {
    let text = "Intro.\n\n```rust example\n{{#include bad.rs}}\n```\n";
    let book = chapter(text).file("src/bad.rs", b"fn main() { let s = \"\xff\xfe\"; }\n");
    book.build_in_process().expect("mdBook builds on");
    let page = book.page("ch.md");
    let code = crate::support::Page::text(page.one(".companion-example code"));
    assert!(code.contains("{{#include bad.rs}}"), "{code}");
    // What the preprocessor receives from mdBook is that text; it warns.
    let input = serde_json::json!([
        {"root": book.root(), "config": {"book": {"src": "src"}}, "renderer": "html", "mdbook_version": "0.5.4"},
        {"items": [{"Chapter": {"name": "C", "content": text, "number": [1], "sub_items": [],
            "path": "ch.md", "source_path": "ch.md", "parent_names": []}}]}
    ]);
    let out = BookTest::run_bin(&[], input.to_string().as_bytes());
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("src/ch.md:4:1: found `{{#include bad.rs}}` left as text: mdBook could not expand it (see mdBook's error above: a missing file or a file that is not UTF-8); expected the included text"),
        "{stderr}"
    );
}

/// Builds with `mdbook-companion build` (real mdBook, the preprocessor
/// in-process) and returns our lines of its log about includes.
fn include_warnings(book: &BookTest) -> Vec<String> {
    book.write();
    let out = BookTest::run_bin(&["build", &book.root().display().to_string()], b"");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    stderr
        .lines()
        .filter(|l| l.contains("left as text"))
        .map(|l| l.trim_start_matches(" WARN ").to_owned())
        .collect()
}

/// mdBook's documented escape `\{{#include file.rs}}` reaches us as the
/// literal `{{#include file.rs}}`, exactly like a link mdBook failed to
/// expand; the chapter's source tells them apart, so the escape is shown
/// as written and not warned about.
#[test]
fn escaped_include_is_shown_without_a_warning() {
    let text = "Intro.\n\n```rust example\n// Write \\{{#include file.rs}} to include a file.\nfn main() {}\n```\n";
    let book = chapter(text).file("src/file.rs", "fn included() {}\n");
    assert_eq!(include_warnings(&book), Vec::<String>::new());
    let page = book.page("ch.md");
    let code = crate::support::Page::text(page.one(".companion-example code"));
    assert!(
        code.contains("// Write {{#include file.rs}} to include a file."),
        "{code}"
    );
    assert!(!code.contains("fn included"), "{code}");
}

/// A link mdBook could not expand is still named, with its place, even
/// next to an escaped one.
#[test]
fn missing_include_is_still_warned_about() {
    let text = "Intro.\n\n```rust example\n// Write \\{{#include file.rs}} to include a file.\n{{#include missing.rs}}\n```\n";
    let book = chapter(text);
    assert_eq!(
        include_warnings(&book),
        [
            "src/ch.md:5:1: found `{{#include missing.rs}}` left as text: mdBook could not expand it (see mdBook's error above: a missing file or a file that is not UTF-8); expected the included text"
        ]
    );
    let page = book.page("ch.md");
    let code = crate::support::Page::text(page.one(".companion-example code"));
    assert!(code.contains("{{#include missing.rs}}"), "{code}");
}

#[test]
fn not_json_input() {
    let out = BookTest::run_bin(&[], b"this is not JSON");
    assert!(!out.status.success());
    assert!(out.stdout.is_empty());
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "mdbook-companion: error: expected mdBook's JSON `[context, book]` on standard input, but it is not JSON (expected ident at line 1 column 2); run mdbook-companion through mdBook, or use `mdbook-companion build`\n"
    );
}

#[test]
fn wrong_shape_input() {
    let out = BookTest::run_bin(&[], b"[{\"root\": 1}, {\"items\": []}]");
    assert!(!out.status.success());
    assert!(out.stdout.is_empty());
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "mdbook-companion: error: expected the context to have `root` and `renderer` strings; found it without them\n"
    );
}

/// A 50 MB chapter of prose with a directive every 100 KB: the engine
/// renders every directive and keeps every byte (the dev profile
/// optimises pulldown-cmark, or a debug build spends most of a minute
/// in it).
#[test]
fn fifty_megabyte_chapter() {
    use mdbook_companion::book::{chapter as process, resolve::BookContext};
    use mdbook_companion_core::config::Config;
    use mdbook_companion_directives::Target;
    let config = Config::from_json("/nonexistent".into(), &serde_json::json!({})).expect("config");
    let para = "Prose with *emphasis*, `code`, a [link](https://example.org) and ünïcödé.\n\n";
    let example = "```rust example title=\"T\"\nfn main() {}\n```\n\n";
    let mut text = String::with_capacity(50 << 20);
    let mut directives = 0;
    while text.len() < 50 << 20 {
        for _ in 0..(100_000 / para.len()) {
            text.push_str(para);
        }
        text.push_str(example);
        directives += 1;
    }
    let start = std::time::Instant::now();
    let out = process::chapter(
        &config,
        &BookContext::disabled(),
        Target::Html,
        "src/big.md",
        &text,
    );
    let took = start.elapsed();
    eprintln!("50 MB chapter, {directives} directives: {took:?}");
    assert!(out.errors.is_empty(), "{:?}", out.errors);
    let new = out.text.expect("rewritten");
    assert_eq!(
        new.matches("<div class=\"companion-example").count(),
        directives
    );
    assert_eq!(new.matches(para).count(), text.matches(para).count());
    // How long it takes is `benches/preprocess.rs`'s to measure, as a
    // ratio in one run; a clock here would fail on a busy machine.
}

/// A directive under 1,000 levels of block quotes: rendered (with its
/// prefix on every line) or refused, never a stack overflow.
#[test]
fn directive_nested_a_thousand_block_quotes_deep() {
    use mdbook_companion::book::{chapter as process, resolve::BookContext};
    use mdbook_companion_core::config::Config;
    use mdbook_companion_directives::Target;
    let config = Config::from_json("/nonexistent".into(), &serde_json::json!({})).expect("config");
    let prefix = "> ".repeat(1000);
    let text = format!("{prefix}```rust example\n{prefix}fn main() {{}}\n{prefix}```\n");
    for target in [Target::Html, Target::Test, Target::Markdown] {
        let out = process::chapter(
            &config,
            &BookContext::disabled(),
            target,
            "src/deep.md",
            &text,
        );
        assert_eq!(out.errors, vec![]);
        assert_eq!(out.directives, 1);
        let new = out.text.expect("rewritten");
        assert!(
            new.lines()
                .all(|l| l.starts_with(&prefix) || l.trim_end() == prefix.trim_end()),
            "{new}"
        );
    }
    // And through mdBook.
    BookTest::new()
        .chapter("deep.md", &text)
        .build()
        .expect("build");
}
