//! The guide checks and builds with every directive it shows added as a
//! chapter (its comparisons run Memcheck, hence this target), and shows
//! no directive outside a ````markdown block, where it would go unchecked.

use crate::shown::{check_passes, copy_book, guide, pages, shown};
use crate::support::Page;

#[test]
fn every_directive_in_the_guide_builds_and_checks() {
    crate::tools::valgrind();
    let src = guide().join("src");
    let mut all = Vec::new();
    pages(&src, &mut all);
    let mut shown_blocks = Vec::new();
    let mut stray = Vec::new();
    for (path, text) in &all {
        let (bodies, s) = shown(text, path.parent().expect("page dir"));
        shown_blocks.extend(bodies);
        stray.extend(s.into_iter().map(|s| format!("{}:{s}", path.display())));
    }
    assert!(
        stray.is_empty(),
        "directives outside ````markdown: {stray:?}"
    );
    assert!(
        shown_blocks.len() >= 15,
        "found {} shown blocks",
        shown_blocks.len()
    );

    // The guide as it is, plus a chapter for each block it shows.
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    copy_book(&guide(), root);
    let mut summary = std::fs::read_to_string(root.join("src/SUMMARY.md")).expect("SUMMARY");
    summary.push_str("\n# Shown\n\n");
    for (i, body) in shown_blocks.iter().enumerate() {
        std::fs::write(root.join(format!("src/shown-{i}.md")), body).expect("chapter");
        summary.push_str(&format!("- [Shown {i}](shown-{i}.md)\n"));
    }
    std::fs::write(root.join("src/SUMMARY.md"), summary).expect("SUMMARY");

    let report = check_passes(root);
    assert!(report["passed"].as_u64() >= Some(20), "{report}");
    mdbook_companion::commands::build::build(root).expect("the guide builds");
    let page = |name: &str| {
        let text = std::fs::read_to_string(root.join("book").join(name)).expect("page");
        Page(scraper::Html::parse_document(&text))
    };
    assert!(!page("examples.html").all(".companion-example").is_empty());
    assert!(
        !page("comparisons.html")
            .all(".companion-compare")
            .is_empty()
    );
    assert!(
        !page("further-reading.html")
            .all("article.companion-card")
            .is_empty()
    );
    assert!(!page("talks.html").all("article.companion-talk").is_empty());
}
