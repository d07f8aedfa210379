//! An exercise in a book with `[output.html.playground] editable = true`
//! (issue 59): mdBook's editor (Ace), which shows every line of a block,
//! holds the starter as the reader sees it, at desktop and phone widths;
//! pressing Run sends the book's Playground (a stand-in on 127.0.0.1) the
//! starter as edited, joined to the lines the page does not show: the
//! starter's hidden lines, the tests and their runner.

use super::standin::{Answer, SCENARIO, StandIn};
use super::*;
use serde_json::json;

/// The chapter: the exercise first (so that screenshots show it), its
/// starter with a hidden line above what the reader sees.
const CHAPTER: &str = r#"# Exercises

`````exercise title="Halve without overflow" id=halve
Write `halve`, which halves a number and rounds **up**, for every `u32`.

```rust starter
# pub const TOP: u32 = u32::MAX;
pub fn halve(n: u32) -> u32 {
    todo!()
}
```

```rust tests
#[test]
fn rounds_up() {
    assert_eq!(halve(3), 2);
}

#[test]
fn never_overflows() {
    assert_eq!(halve(TOP), 1 << 31);
}
```

```rust solution
# pub const TOP: u32 = u32::MAX;
pub fn halve(n: u32) -> u32 {
    n.div_ceil(2)
}
```
`````
"#;

/// What the reader sees of the starter.
const SHOWN: &str = "pub fn halve(n: u32) -> u32 {\n    todo!()\n}";

/// The book, its Playground at `playground`, mdBook's editor on or off,
/// built.
fn built(name: &str, playground: &str, editable: bool) -> PathBuf {
    let root = scratch(&format!("exercise-{name}"));
    std::fs::create_dir_all(root.join("src")).expect("src");
    std::fs::create_dir_all(root.join("theme")).expect("theme");
    std::fs::write(
        root.join("book.toml"),
        format!(
            "[book]\ntitle = \"Exercises\"\n\n[preprocessor.companion]\nafter = [\"links\"]\nplayground-url = \"{playground}\"\n\n\
             [output.html]\nadditional-css = [\"theme/companion.css\"]\nadditional-js = [\"theme/companion.js\"]\n\n\
             [output.html.playground]\neditable = {editable}\n",
        ),
    )
    .expect("book.toml");
    std::fs::write(
        root.join("theme/companion.css"),
        mdbook_companion_directives::assets::stamped_stylesheet(),
    )
    .expect("css");
    std::fs::write(
        root.join("theme/companion.js"),
        mdbook_companion_directives::assets::stamped_script(),
    )
    .expect("js");
    std::fs::write(
        root.join("src/SUMMARY.md"),
        "# Summary\n\n- [Exercises](exercises.md)\n",
    )
    .expect("summary");
    std::fs::write(root.join("src/exercises.md"), CHAPTER).expect("chapter");
    mdbook_companion::commands::build::build(&root)
        .unwrap_or_else(|e| panic!("building the exercise book: {e:#}"));
    root.join("book/exercises.html")
}

#[test]
fn the_editor_holds_the_starter_and_run_joins_the_tests_and_runner() {
    let server = StandIn::start(Answer::Runs);
    let page = built("standin", &server.url(), true);
    let edited = "pub fn halve(n: u32) -> u32 {\n    n / 2 + n % 2\n}\n";
    for size in [DESKTOP, PHONE] {
        let before = server.requests().len();
        let report = server.drive_at(
            &page,
            &json!({
                "describe": ["Halve without overflow"],
                "steps": [
                    {"frame": "Halve without overflow"},
                    {"frame": "Halve without overflow", "edit": edited},
                ],
            }),
            SCENARIO,
            size,
        );
        let frame = &array(&report, "frames")[0];
        assert_eq!(
            frame["button"], true,
            "at {size:?}: our Run button: {frame}"
        );
        assert_eq!(
            frame["editorPlay"], false,
            "at {size:?}: mdBook's button: {frame}"
        );
        // The editor holds the starter as the reader sees it, nothing of
        // the tests, their runner or the hidden line; Ace draws it so.
        let editor = frame["editor"].as_str().expect("an Ace editor");
        assert_eq!(editor.trim_end(), SHOWN, "at {size:?}");
        let drawn: Vec<&str> = array(frame, "editorLines")
            .iter()
            .map(|l| l.as_str().expect("a line"))
            .collect();
        assert_eq!(drawn.join("\n").trim_end(), SHOWN, "at {size:?}");
        // Both runs went to the stand-in, which answered.
        for i in 0..2 {
            let r = &report["steps"][i]["result"];
            assert_eq!(
                r["stdout"],
                json!(["stand-in ran it\n"]),
                "at {size:?}: {r}"
            );
        }
        // The one other request is mdBook's own, for the solution's play
        // button (play.rust-lang.org's crate list, blocked here).
        let others: Vec<&Value> = array(&report, "requests")
            .iter()
            .filter(|r| !r["url"].as_str().unwrap_or("").starts_with(&server.url()))
            .collect();
        assert_eq!(
            others,
            [&json!({"method": "POST", "url": "https://play.rust-lang.org/meta/crates"})],
            "{report}"
        );
        assert_eq!(
            array(&report, "errors"),
            &[json!("unhandled rejection: Failed to fetch")],
            "{report}"
        );
        let runs: Vec<Value> = server.requests()[before..]
            .iter()
            .map(|r| {
                assert_eq!(
                    (r.method.as_str(), r.path.as_str()),
                    ("POST", "/evaluate.json")
                );
                serde_json::from_str(&r.body).expect("JSON")
            })
            .collect();
        assert_eq!(runs.len(), 2, "at {size:?}: {runs:?}");
        for (run, starter) in runs.iter().zip([SHOWN, edited]) {
            let code = run["code"].as_str().expect("code");
            // The hidden line above, the starter as sent, then the tests
            // in their module and the runner's `main`.
            let at = code.find(starter).unwrap_or_else(|| panic!("{code}"));
            assert_eq!(&code[..at], "pub const TOP: u32 = u32::MAX;\n", "{code}");
            let rest = &code[at + starter.len()..];
            let tests = rest.find("mod tests {").expect("the tests' module");
            assert!(
                rest[tests..].contains("fn rounds_up()")
                    && rest[tests..].contains("assert_eq!(halve(TOP), 1 << 31);")
                    && rest.ends_with("fn main() {\n    tests::__companion_run();\n}\n"),
                "{code}"
            );
            assert!(!code.contains("div_ceil"), "the solution was sent: {code}");
            assert_eq!(run["tests"], false);
            assert_eq!(run["edition"], "2021");
        }
    }
}

/// Without `editable`, the page is as it was: the starter's block holds
/// the tests and their runner as hidden lines for mdBook's play button.
#[test]
fn without_editable_mdbooks_button_keeps_the_hidden_runner() {
    let page = built("plain", "https://play.example.org/", false);
    let html = std::fs::read_to_string(&page).expect("page");
    assert!(!html.contains("data-companion-run"), "our button on it");
    assert!(
        html.contains("__companion_run"),
        "the runner is not in the block"
    );
}

#[test]
fn screenshots_of_the_editor_in_light_and_dark_at_390_px() {
    let page = built("shots", "https://play.example.org/", true);
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/screenshots");
    std::fs::create_dir_all(&dir).expect("screenshots dir");
    for theme in ["light", "coal"] {
        for size in [PHONE, DESKTOP] {
            let png = dir.join(format!("exercise-editable-{theme}-{}.png", size.0));
            screenshot(&page, theme, size, &png);
            assert!(
                std::fs::metadata(&png).is_ok_and(|m| m.len() > 10_000),
                "{}",
                png.display()
            );
        }
    }
}
