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
