//! Layout and markup: play buttons, columns and tabs, cards, overflow,
//! mdBook's own elements, links and headings, pages without JavaScript.

use super::*;

#[test]
fn runnable_examples_get_our_run_button_and_not_mdbooks() {
    let m = measure(&case_page(), "screen", DESKTOP, Variant::AsBuilt);
    let examples = array(&m, "examples");
    let summary: Vec<(String, bool, bool, bool)> = examples
        .iter()
        .map(|e| {
            (
                e["title"].as_str().expect("title").to_owned(),
                e["playground"].as_bool().expect("bool"),
                e["playButton"].as_bool().expect("bool"),
                e["runButton"].as_bool().expect("bool"),
            )
        })
        .collect();
    // Rust blocks get our Run button (shown at once, offline too; the
    // book sends their code to its Playground), and mdBook makes no
    // playground of them, so it asks no server; C sides are plain code.
    let expected: Vec<(String, bool, bool, bool)> = [
        ("Prints a greeting", false, false, true),
        ("C: undefined for b == 0", false, false, false),
        ("Rust: panics instead", false, false, true),
        ("C", false, false, false),
        ("Rust", false, false, true),
    ]
    .into_iter()
    .map(|(t, a, b, c)| (t.to_owned(), a, b, c))
    .collect();
    assert_eq!(summary, expected);
}

#[test]
fn comparison_sides_stand_side_by_side_on_desktop_and_stack_on_phone() {
    let desktop = measure(&case_page(), "screen", DESKTOP, Variant::AsBuilt);
    let cmp = compare_named(&desktop, "Integer division");
    assert_eq!(cmp["layout"], "columns");
    let sides = array(cmp, "sides");
    assert_eq!(sides.len(), 2);
    let (a, b) = (&sides[0], &sides[1]);
    assert!(
        (num(a, "top") - num(b, "top")).abs() < 1.0,
        "desktop: sides at different heights: {a} {b}"
    );
    assert!(
        num(b, "left") >= num(a, "right"),
        "desktop: second side not right of the first: {a} {b}"
    );
    assert!(num(a, "width") > 250.0, "desktop: sides too narrow: {a}");

    let phone = measure(&case_page(), "screen", PHONE, Variant::AsBuilt);
    let sides = array(compare_named(&phone, "Integer division"), "sides");
    let (a, b) = (&sides[0], &sides[1]);
    assert!(
        num(b, "top") >= num(a, "bottom"),
        "phone: second side not below the first: {a} {b}"
    );
    assert!(
        (num(a, "left") - num(b, "left")).abs() < 1.0,
        "phone: stacked sides not aligned: {a} {b}"
    );
}

#[test]
fn tabs_are_focusable_radios_and_show_one_side_at_a_time() {
    let m = measure(&case_page(), "screen", DESKTOP, Variant::AsBuilt);
    let cmp = compare_named(&m, "Adding one");
    assert_eq!(cmp["layout"], "tabs");
    assert_eq!(ints(&cmp["visible"]), [0], "first tab shown at first");
    let tabs = array(cmp, "tabs");
    let labels: Vec<&str> = tabs
        .iter()
        .map(|t| t["label"].as_str().expect("label"))
        .collect();
    assert_eq!(labels, ["C", "Rust"]);
    for (i, tab) in tabs.iter().enumerate() {
        // Native radios in one group: Tab reaches the group, arrow keys
        // move between its tabs, no script involved.
        assert_eq!(tab["type"], "radio", "{tab}");
        assert_eq!(tab["name"], tabs[0]["name"], "one group: {tab}");
        assert_eq!(tab["focusable"], true, "keyboard focus: {tab}");
        assert_eq!(tab["labelShown"], true, "{tab}");
        assert_eq!(tab["checkedAfterClick"], true, "{tab}");
        assert_eq!(ints(&tab["visibleAfterClick"]), [i as i64], "{tab}");
    }
}

#[test]
fn cards_lay_out_in_a_grid_and_in_one_column_on_phone() {
    let desktop = measure(&case_page(), "screen", DESKTOP, Variant::AsBuilt);
    let grids = array(&desktop, "cards");
    assert_eq!(grids.len(), 1);
    let grid = &grids[0];
    assert_eq!(grid["display"], "grid");
    assert!(num(grid, "columns") >= 2.0, "desktop columns: {grid}");
    let cards = array(grid, "cards");
    assert_eq!(cards.len(), 3);
    assert!(
        (num(&cards[0], "top") - num(&cards[1], "top")).abs() < 1.0
            && num(&cards[1], "left") > num(&cards[0], "right"),
        "desktop: first two cards not in one row: {grid}"
    );

    let phone = measure(&case_page(), "screen", PHONE, Variant::AsBuilt);
    let grid = &array(&phone, "cards")[0];
    assert_eq!(num(grid, "columns"), 1.0, "phone columns: {grid}");
    let cards = array(grid, "cards");
    assert!(
        num(&cards[1], "top") >= num(&cards[0], "bottom"),
        "phone: cards not stacked: {grid}"
    );
}

#[test]
fn nothing_overflows_the_content_column() {
    let pages = [case_page(), example_print_page()];
    for page in &pages {
        for size in [DESKTOP, PHONE] {
            let m = measure(page, "screen", size, Variant::AsBuilt);
            let o = &m["overflow"];
            assert_eq!(
                num(o, "count"),
                0.0,
                "{} at {size:?}: elements outside the content column: {}",
                page.display(),
                o["outside"]
            );
            assert!(
                num(o, "pageScrollWidth") <= num(o, "viewport"),
                "{} at {size:?}: the page scrolls sideways: {o}",
                page.display()
            );
        }
    }
}

#[test]
fn stylesheet_moves_none_of_mdbooks_own_elements() {
    for size in [DESKTOP, PHONE] {
        let with = measure(&case_page(), "screen", size, Variant::AsBuilt);
        let without = measure(&case_page(), "screen", size, Variant::NoCss);
        assert!(
            with["furniture"].as_object().is_some_and(|f| f.len() >= 3),
            "measured too little of mdBook: {}",
            with["furniture"]
        );
        assert_eq!(
            with["furniture"], without["furniture"],
            "at {size:?}, mdBook's menu bar, sidebar, content column or title moved"
        );
    }
}

#[test]
fn links_have_text_and_directives_keep_the_heading_outline() {
    for page in [case_page(), example_print_page()] {
        let m = measure(&page, "screen", DESKTOP, Variant::AsBuilt);
        let links = array(&m, "links");
        assert!(!links.is_empty(), "{}: no links measured", page.display());
        for link in links {
            let text = link["text"].as_str().unwrap_or_default();
            assert!(
                text.chars().any(char::is_alphanumeric),
                "{}: a link without discernible text: {link}",
                page.display()
            );
            // External links are https; a talk's moments link to chapters
            // of the book (relative, no scheme); a frame's number links to
            // its own anchor, and on the print page mdBook turns links
            // between chapters into anchors of the page.
            let href = link["href"].as_str().unwrap_or_default();
            assert!(
                href.starts_with("https://")
                    || (!href.contains(':') && href.contains(".html"))
                    || href.starts_with('#'),
                "{link}"
            );
        }
        assert_eq!(
            array(&m, "headings").len(),
            0,
            "{}: directives must not add headings: {}",
            page.display(),
            m["headings"]
        );
    }
    // The case chapter's outline is its Markdown headings, in order.
    let m = measure(&case_page(), "screen", DESKTOP, Variant::AsBuilt);
    assert_eq!(ints(&m["outline"]), [1, 2, 2, 2, 2, 2, 2, 2]);
}

#[test]
fn directives_work_without_javascript() {
    let js = measure(&case_page(), "screen", DESKTOP, Variant::AsBuilt);
    let nojs = measure(&case_page(), "screen", DESKTOP, Variant::NoJs);
    assert_eq!(array(&nojs, "examples").len(), array(&js, "examples").len());
    // Columns, tabs (pure CSS radios) and cards behave the same.
    for title in ["Integer division", "Adding one"] {
        let (a, b) = (compare_named(&js, title), compare_named(&nojs, title));
        assert_eq!(a["visible"], b["visible"], "{title}");
        assert_eq!(a["tabs"], b["tabs"], "{title}");
        // mdBook hides its sidebar and shows hidden lines without
        // JavaScript, so compare sizes and relative places, not positions.
        let (sa, sb) = (array(a, "sides"), array(b, "sides"));
        for (x, y) in sa.iter().zip(sb) {
            assert_eq!(x["width"], y["width"], "{title}: {x} vs {y}");
        }
        let gap = |s: &Vec<Value>| num(&s[1], "left") - num(&s[0], "left");
        let rise = |s: &Vec<Value>| num(&s[1], "top") - num(&s[0], "top");
        if a["layout"] == "columns" {
            assert_eq!(gap(sa), gap(sb), "{title}");
            assert_eq!(rise(sa), rise(sb), "{title}");
        }
    }
    assert_eq!(nojs["cards"][0]["columns"], js["cards"][0]["columns"]);
    assert_eq!(num(&nojs["overflow"], "count"), 0.0, "{}", nojs["overflow"]);
    // Without JavaScript mdBook shows its light colours.
    let light = &nojs["contrast"]["light"];
    assert!(
        num(&array(light, "worst")[0], "ratio") >= MIN_CONTRAST,
        "{light}"
    );
}
