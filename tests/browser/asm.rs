//! Assembly panels in a real browser: the source and listing tied by
//! colour with AA contrast in every theme, partners highlighted both ways
//! (mouse and keyboard focus), colours without JavaScript and in print,
//! claims in words, and control-flow graphs that scroll at phone width
//! instead of widening the page. Screenshots go to `target/screenshots/`.

use super::*;

/// Its measuring script.
const ASM_MEASURE: &str = include_str!("asm.js");

/// A chapter with tied panels, claims and graphs.
const ASM: &str = r#"# Assembly

````compare title="Division" asm=graph
```c caption="C"
int divide(int n, int d)
{
    return n / d;
}
```
```asm
CHECK-LABEL: divide:
CHECK-NOT: call
CHECK: idiv
```
```rust caption="Rust"
pub fn divide(n: i32, d: i32) -> i32 {
    if d == 0 {
        return 0;
    }
    n.wrapping_div(d)
}
```
```asm
CHECK-LABEL: divide:
CHECK: idiv
```
````

```rust example title="A loop" asm=graph
pub fn sum(v: &[u32]) -> u32 {
    let mut s = 0u32;
    for x in v {
        if *x > 3 {
            s = s.wrapping_add(*x);
        }
    }
    s
}
# fn main() { println!("{}", sum(&[1, 5, 9])); }
```

```output
14
```
"#;

/// The case book, built once.
fn asm_book() -> &'static Path {
    static BOOK: OnceLock<PathBuf> = OnceLock::new();
    BOOK.get_or_init(|| {
        let root = scratch("asm");
        std::fs::create_dir_all(root.join("src")).expect("src");
        std::fs::create_dir_all(root.join("theme")).expect("theme");
        std::fs::write(
            root.join("book.toml"),
            "[book]\ntitle = \"Asm\"\n\n[preprocessor.companion]\nafter = [\"links\"]\nverify = true\n\n\
             [output.html]\nadditional-css = [\"theme/companion.css\"]\nadditional-js = [\"theme/companion.js\"]\n",
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
        std::fs::write(root.join("src/SUMMARY.md"), "# Summary\n\n- [Assembly](asm.md)\n")
            .expect("summary");
        std::fs::write(root.join("src/asm.md"), ASM).expect("chapter");
        mdbook_companion::commands::build::build(&root)
            .unwrap_or_else(|e| panic!("building the asm book: {e:#}"));
        root
    })
}

fn asm_measure(size: (u32, u32), v: Variant, partners: bool, print: bool) -> Value {
    let page = asm_book().join("book/asm.html");
    let tag = format!("asm-{}-{v:?}-{partners}-{print}", size.0);
    let file = variant(&page, &tag, |html| {
        let html = match v {
            Variant::AsBuilt | Variant::Ran | Variant::Answered => html,
            Variant::NoCss => without_companion_css(html),
            Variant::NoJs => without_scripts(html),
        };
        let script = format!(
            "<script>window.companionTest = {{ partners: {partners}, print: {print} }};</script>\n<script>\n{ASM_MEASURE}\n</script>\n"
        );
        inject(html, "</body>", &script)
    });
    let dom = dump_dom(&file, size, "companion-test-result");
    let doc = scraper::Html::parse_document(&dom);
    let sel = scraper::Selector::parse("pre#companion-test-result").expect("selector");
    let text: String = doc
        .select(&sel)
        .next()
        .unwrap_or_else(|| panic!("no measurement in {}", file.display()))
        .text()
        .collect();
    let value: Value = serde_json::from_str(&text).expect("JSON");
    if let Some(err) = value.get("error") {
        panic!("the measuring script failed on {}: {err}", file.display());
    }
    value
}

#[test]
fn tied_lines_are_readable_in_every_theme_with_and_without_script() {
    for v in [Variant::AsBuilt, Variant::NoJs] {
        let m = asm_measure(DESKTOP, v, false, false);
        assert_eq!(num(&m, "ties"), 3.0, "{m}");
        for theme in THEMES {
            let t = &m["contrast"][theme];
            assert!(num(t, "count") >= 40.0, "{theme}: {t}");
            assert!(
                num(&t["worst"], "ratio") >= MIN_CONTRAST,
                "{theme} ({v:?}): contrast below {MIN_CONTRAST}:1: {t}"
            );
            assert!(num(t, "colours") >= 3.0, "{theme}: lines coloured: {t}");
        }
        // Light and dark themes colour differently (the colours are the
        // theme's own; without scripts mdBook shows every page light).
        if v == Variant::AsBuilt {
            assert_ne!(
                m["contrast"]["light"]["edge"], m["contrast"]["coal"]["edge"],
                "{v:?}"
            );
        }
    }
}

#[test]
fn pointing_at_a_line_highlights_its_partners_both_ways() {
    let m = asm_measure(DESKTOP, Variant::AsBuilt, true, false);
    for case in ["srcMouse", "listingMouse", "srcFocus", "listingFocus"] {
        let p = &m["partners"][case];
        assert!(num(p, "expected") >= 1.0, "{case}: {p}");
        assert_eq!(
            num(p, "lit"),
            num(p, "expected"),
            "{case}: every partner lit: {p}"
        );
        assert_eq!(p["outline"], "solid", "{case}: {p}");
        assert_eq!(
            num(p, "after"),
            0.0,
            "{case}: unlit when the pointer leaves: {p}"
        );
    }
}

#[test]
fn claims_are_told_and_graphs_scroll_inside_the_page_at_phone_width() {
    let m = asm_measure(PHONE, Variant::AsBuilt, false, false);
    let claims: Vec<&str> = array(&m, "claims")
        .iter()
        .map(|c| c.as_str().expect("text"))
        .collect();
    assert_eq!(claims.len(), 2, "{claims:?}");
    assert!(
        claims[0].contains("idiv") && claims[0].contains("Holds"),
        "{claims:?}"
    );
    assert!(num(&m, "graphs") >= 3.0, "{m}");
    assert!(
        num(&m, "pageWidth") <= num(&m, "width"),
        "the page scrolls sideways at phone width: {m}"
    );
    for b in array(&m, "graphBoxes") {
        assert!(num(b, "right") <= num(&m, "width") + 0.5, "{b}");
        assert_eq!(b["overflowX"], "auto");
    }
}

#[test]
fn print_keeps_the_colours() {
    let m = asm_measure(DESKTOP, Variant::AsBuilt, false, true);
    assert!(num(&m, "printRules") >= 1.0, "{m}");
    assert_eq!(m["printColorAdjust"], "exact", "{m}");
    assert!(num(&m["contrast"]["light"], "colours") >= 3.0);
}

#[test]
fn asm_screenshots_in_a_light_and_a_dark_theme() {
    let page = asm_book().join("book/asm.html");
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/screenshots");
    std::fs::create_dir_all(&dir).expect("screenshots dir");
    // The panels open, as a reader opens them.
    let open = variant(&page, "asm-open", |html| {
        html.replace(
            "<details class=\"companion-asm\">",
            "<details class=\"companion-asm\" open>",
        )
    });
    for (theme, size) in [("light", DESKTOP), ("coal", DESKTOP), ("navy", PHONE)] {
        let png = dir.join(format!("asm-{theme}-{}.png", size.0));
        screenshot(&open, theme, size, &png);
        assert!(
            std::fs::metadata(&png).is_ok_and(|m| m.len() > 10_000),
            "{}",
            png.display()
        );
    }
}
