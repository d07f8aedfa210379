//! The stylesheet reaches books: `install` through the binary, the warning
//! for books without it, and the example book's copy kept current.

use crate::support::BookTest;
use mdbook_companion_directives::assets;
use pretty_assertions::assert_eq;
use serde_json::json;

#[test]
fn example_book_stylesheet_is_current() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("example-book");
    let css = std::fs::read_to_string(root.join("theme/companion.css"))
        .expect("example-book/theme/companion.css");
    assert!(
        css == assets::stamped_stylesheet(),
        "example-book/theme/companion.css is stale: run `cargo run -- install example-book`"
    );
    let js = std::fs::read_to_string(root.join("theme/companion.js"))
        .expect("example-book/theme/companion.js");
    assert!(
        js == assets::stamped_script(),
        "example-book/theme/companion.js is stale: run `cargo run -- install example-book`"
    );
}

#[test]
fn install_through_the_binary_is_idempotent() {
    let book = BookTest::new().no_stylesheet();
    book.write();
    let toml_before = std::fs::read_to_string(book.root().join("book.toml")).expect("toml");
    let out = BookTest::run_bin(&["install", &book.root().display().to_string()], b"");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let toml_after = std::fs::read_to_string(book.root().join("book.toml")).expect("toml");
    assert_eq!(
        toml_after.trim_end(),
        format!(
            "{toml_before}[output.html]\nadditional-css = [\"theme/companion.css\"]\nadditional-js = [\"theme/companion.js\"]"
        )
    );
    assert_eq!(
        std::fs::read_to_string(book.root().join("theme/companion.js")).expect("js"),
        assets::stamped_script()
    );
    let out = BookTest::run_bin(&["install", &book.root().display().to_string()], b"");
    assert!(String::from_utf8_lossy(&out.stderr).contains("nothing changed"));
    assert_eq!(
        std::fs::read_to_string(book.root().join("book.toml")).expect("toml"),
        toml_after
    );
}

#[test]
fn a_book_without_the_stylesheet_gets_one_warning_naming_the_fix() {
    let dir = tempfile::tempdir().expect("tmp");
    let chapter = |n: &str| {
        json!({"Chapter": {"name": n, "content": "```rust example\nfn main() {}\n```\n",
        "number": null, "sub_items": [], "path": format!("{n}.md"), "source_path": format!("{n}.md"), "parent_names": []}})
    };
    let input = json!([
        {"root": dir.path(), "config": {}, "renderer": "html", "mdbook_version": "0.5.4"},
        {"items": [chapter("a"), chapter("b")]}
    ]);
    let out = BookTest::run_bin(&[], input.to_string().as_bytes());
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        stderr.matches("run `mdbook-companion install`").count(),
        1,
        "{stderr}"
    );
    // Other renderers do not use the stylesheet: no warning.
    let input = input.to_string().replace("\"html\"", "\"markdown\"");
    let out = BookTest::run_bin(&[], input.as_bytes());
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `install` through the binary on a book whose arrays are written one
/// entry per line: each new entry gets a line of its own, indented as
/// the others, and the book still builds with the stylesheet.
#[test]
fn install_keeps_multi_line_arrays_one_entry_per_line() {
    let book = BookTest::new().chapter("a.md", "```rust example\nfn main() {}\n```\n");
    book.write();
    let toml = book.root().join("book.toml");
    let text = std::fs::read_to_string(&toml).expect("toml");
    let (head, _) = text
        .split_once("\n[output.html]")
        .expect("an [output.html]");
    let head = head.replace("after = [\"links\"]", "after = [\n    \"index\",\n]");
    std::fs::write(
        &toml,
        format!("{head}\n[output.html]\nadditional-css = [\n  \"theme/mine.css\"\n]\n"),
    )
    .expect("toml");
    std::fs::write(book.root().join("theme/mine.css"), "p { }\n").expect("css");
    let out = BookTest::run_bin(&["install", &book.root().display().to_string()], b"");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let after = std::fs::read_to_string(&toml).expect("toml");
    assert!(
        after.contains("after = [\n    \"index\",\n    \"links\",\n]\n"),
        "{after}"
    );
    assert!(
        after.contains(
            "additional-css = [\n  \"theme/mine.css\",\n  \"theme/companion.css\"\n]\nadditional-js = [\"theme/companion.js\"]\n"
        ),
        "{after}"
    );
    // mdBook reads it (not BookTest's build, which writes its own
    // book.toml): the preprocessor runs, the stylesheets are linked.
    let md = mdbook_driver::MDBook::load(book.root()).expect("the book loads");
    md.build().expect("the book builds");
    let page = book.page("a.md");
    assert_eq!(page.all("main div.companion-example").len(), 1);
    assert_eq!(page.all("link[href^='theme/mine']").len(), 1);
    assert_eq!(page.all("link[href^='theme/companion']").len(), 1);
}
