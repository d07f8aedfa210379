//! Directives wherever an author puts them (list items, block quotes,
//! `<details>`, table cells): readable in every theme and on the print page; and tabbed
//! comparisons that choose together, with JavaScript on and off.

use super::*;

/// Every text element and link of ours, measured against its effective
/// background, in every theme: the worst must reach WCAG AA.
fn assert_readable(m: &Value, what: &str) {
    for theme in THEMES {
        let t = &m["contrast"][theme];
        assert!(
            num(t, "count") >= 30.0,
            "{what} in {theme}: too few text elements measured: {t}"
        );
        let worst = &array(t, "worst")[0];
        assert!(
            num(worst, "ratio") >= MIN_CONTRAST,
            "{what} in {theme}: contrast below {MIN_CONTRAST}:1: {}",
            t["worst"]
        );
    }
}

#[test]
fn text_and_links_reach_aa_in_every_container_and_theme() {
    let m = measure(&containers_page(), "screen", DESKTOP, Variant::AsBuilt);
    let places: Vec<&str> = array(&m, "containers")
        .iter()
        .map(|c| c.as_str().expect("a container name"))
        .collect();
    for place in ["top", "li", "blockquote", "details", "td"] {
        assert!(
            places.contains(&place),
            "no directive measured in {place}: {places:?}"
        );
    }
    // Every container shows up among the measured elements too, links
    // included.
    let worst = array(&m["contrast"]["coal"], "worst");
    for place in ["li", "blockquote", "details"] {
        assert!(
            worst
                .iter()
                .any(|w| w["where"] == place && w["what"].as_str().unwrap_or("").starts_with("a.")),
            "no link of ours measured in {place}: {worst:?}"
        );
    }
    assert_readable(&m, "the containers page");
    let print = measure(
        &case_book().join("book/print.html"),
        "print",
        DESKTOP,
        Variant::AsBuilt,
    );
    assert_readable(&print, "the print page");
}

/// Loads the containers page, maybe with a choice left by an earlier page
/// in localStorage, clicks the tab labelled `click`, and reads which tab
/// each tabbed comparison shows.
fn choose_tab(click: &str, remembered: Option<&str>, js: bool) -> Value {
    let tag = format!("tabs-{click}-{}-{js}", remembered.unwrap_or("none"));
    let file = variant(&containers_page(), &tag, |html| {
        let html = if js { html } else { without_scripts(html) };
        let html = match remembered {
            Some(label) => inject(
                html,
                "</head>",
                &format!(
                    "<script>localStorage.setItem(\"mdbook-companion-tab\", {label:?});</script>\n"
                ),
            ),
            None => html,
        };
        let script = format!(
            "<script>window.companionTest = {{ mode: \"tabs\", click: {click:?} }};</script>\n<script>\n{MEASURE}\n</script>\n"
        );
        inject(html, "</body>", &script)
    });
    let dom = dump_dom(&file, DESKTOP, "companion-test-result");
    let doc = scraper::Html::parse_document(&dom);
    let sel = scraper::Selector::parse("pre#companion-test-result").expect("selector");
    let text: String = doc
        .select(&sel)
        .next()
        .unwrap_or_else(|| panic!("no result in the DOM of {}", file.display()))
        .text()
        .collect();
    let value: Value = serde_json::from_str(&text).expect("JSON");
    assert!(value.get("error").is_none(), "{value}");
    value
}

#[test]
fn choosing_a_language_selects_it_in_every_tabbed_comparison_and_is_remembered() {
    let m = choose_tab("Rust", None, true);
    assert_eq!(m["clicked"], true, "{m}");
    assert_eq!(m["before"], serde_json::json!(["C", "C"]), "{m}");
    assert_eq!(m["after"], serde_json::json!(["Rust", "Rust"]), "{m}");
    // Each shows its Rust side, and only that.
    assert_eq!(m["visible"], serde_json::json!([[1], [1]]), "{m}");
    assert_eq!(m["stored"], "Rust", "{m}");
    // A later page starts from the remembered choice.
    let later = choose_tab("none", Some("Rust"), true);
    assert_eq!(
        later["before"],
        serde_json::json!(["Rust", "Rust"]),
        "{later}"
    );
    // A remembered language a comparison lacks leaves it alone.
    let other = choose_tab("none", Some("Python"), true);
    assert_eq!(other["before"], serde_json::json!(["C", "C"]), "{other}");
}

#[test]
fn without_javascript_the_tabs_still_switch_one_block_at_a_time() {
    let m = choose_tab("Rust", Some("Rust"), false);
    assert_eq!(m["before"], serde_json::json!(["C", "C"]), "{m}");
    // CSS alone: the clicked block switches, the other keeps its choice.
    assert_eq!(m["after"], serde_json::json!(["Rust", "C"]), "{m}");
    assert_eq!(m["visible"], serde_json::json!([[1], [0]]), "{m}");
}
