use super::*;
use pretty_assertions::assert_eq;
use serde_json::{Value, json};
use std::path::PathBuf;

fn config(table: Value) -> Config {
    Config::from_json(
        PathBuf::from("/b"),
        &json!({"preprocessor": {"companion": table}}),
    )
    .unwrap()
}

#[test]
fn text_outside_directives_is_unchanged() {
    let text = "# Title\r\n\r\nSome *text* with `code`.\r\n\r\n```rust example\r\nfn main() {}\r\n```\r\n\r\n| a | b |\r\n|---|---|\r\n";
    let out = chapter(
        &config(json!({})),
        &BookContext::disabled(),
        Target::Html,
        "src/a.md",
        text,
    );
    let new = out.text.unwrap();
    assert!(new.starts_with("# Title\r\n\r\nSome *text* with `code`.\r\n\r\n<div"));
    assert!(new.ends_with("</div>\r\n\r\n| a | b |\r\n|---|---|\r\n"));
}

#[test]
fn chapters_without_directives_are_left_alone() {
    let out = chapter(
        &config(json!({})),
        &BookContext::disabled(),
        Target::Html,
        "src/a.md",
        "```rust\nfn main() {}\n```\n",
    );
    assert!(out.text.is_none() && out.errors.is_empty());
}

#[test]
fn bail_reports_located_errors_and_keeps_the_text() {
    let text = "Intro\n\n```rust example bogus\nfn main() {}\n```\n";
    let out = chapter(
        &config(json!({})),
        &BookContext::disabled(),
        Target::Html,
        "src/a.md",
        text,
    );
    assert!(out.text.is_none());
    let error = out.errors[0].to_string();
    assert!(
        error.starts_with(
            "src/a.md:3:17: found unknown attribute `bogus`; expected one of title, id, expect,"
        ),
        "{error}"
    );
}

#[test]
fn continue_renders_an_error_box_and_warns() {
    let text = "```rust example bogus\nfn main() {}\n```\n";
    let out = chapter(
        &config(json!({"on-failure": "continue"})),
        &BookContext::disabled(),
        Target::Html,
        "src/a.md",
        text,
    );
    assert!(out.errors.is_empty());
    assert_eq!(out.warnings.len(), 1);
    let new = out.text.unwrap();
    assert!(
        new.starts_with("<div class=\"companion-error\" role=\"alert\">"),
        "{new}"
    );
    assert!(
        new.contains("<code>src/a.md:1:17</code> found unknown attribute `bogus`"),
        "{new}"
    );
    assert!(new.contains("```rust\nfn main() {}\n```"), "{new}");
}

#[test]
fn data_file_errors_name_the_file_and_the_asking_chapter() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("src")).unwrap();
    std::fs::write(
        dir.path().join("src/reading-list.toml"),
        "[[entry]]\ntitle = \"T\"\nurl = \"https://x.org\"\nautor = \"me\"\n",
    )
    .unwrap();
    let cfg = Config::from_json(
        dir.path().to_path_buf(),
        &json!({"book": {"src": "src"}, "preprocessor": {"companion": {}}}),
    )
    .unwrap();
    let text = "# Ch\n\n```reading-list\n```\n";
    let out = chapter(
        &cfg,
        &BookContext::disabled(),
        Target::Html,
        "src/intro.md",
        text,
    );
    let error = out.errors[0].to_string();
    assert!(
        error.starts_with(
            "src/reading-list.toml:4:1: found unknown field `autor`; expected one of id, title,"
        ),
        "{error}"
    );
    assert!(
        error.ends_with(" (asked for by src/intro.md:3:4)"),
        "{error}"
    );
}
