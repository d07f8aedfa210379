//! Accessibility as axe-core sees it: every page of the example book and
//! of the guide, built with the current binary, checked in Chromium
//! against WCAG 2.0 and 2.1, levels A and AA, in mdBook's default theme;
//! a few pages in the other four themes too. axe-core is obtained once by
//! the test suite (`npm pack`, pinned, under `target/tmp/tools/`).

use super::cdp::SETTLED;
use super::{DESKTOP, PHONE, copy_tree, dump_dom, example_book, inject, scratch, variant};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The rules' tags axe runs: WCAG 2.0 and 2.1, A and AA.
const TAGS: &str = "['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']";

/// A copy of `guide/`, built once.
fn guide() -> &'static Path {
    static BOOK: OnceLock<PathBuf> = OnceLock::new();
    BOOK.get_or_init(|| {
        let root = scratch("guide");
        copy_tree(&Path::new(env!("CARGO_MANIFEST_DIR")).join("guide"), &root);
        mdbook_companion::commands::build::build(&root)
            .unwrap_or_else(|e| panic!("building the guide: {e:#}"));
        root
    })
}

/// The pages a reader opens: every chapter's page (not the print page,
/// which repeats them, nor mdBook's 404 and table-of-contents pages).
fn pages(book: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(book.join("book"))
        .expect("the built book")
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            let name = p.file_name().map(|n| n.to_string_lossy().into_owned());
            let name = name.unwrap_or_default();
            name.ends_with(".html")
                && !name.contains("-variant-")
                && !["print.html", "404.html", "toc.html"].contains(&name.as_str())
        })
        .collect();
    out.sort();
    assert!(out.len() > 5, "too few pages in {}", book.display());
    out
}

/// What axe reports on `page` in `theme` at `size`: one line per
/// violation (`rule: targets: why`); empty when it found nothing.
fn violations(page: &Path, theme: &str, size: (u32, u32)) -> Vec<String> {
    let axe = std::fs::read_to_string(crate::tools::axe_core()).expect("reading axe.min.js");
    let tag = format!("axe-{theme}-{}", size.0);
    let file = variant(page, &tag, |html| {
        // The theme as a reader's choice, read by mdBook's own script in
        // <head>.
        let choose = format!(
            "<script>try {{ localStorage.setItem('mdbook-theme', '{theme}'); }} catch (e) {{}}</script>\n"
        );
        let html = inject(html, "<meta charset", &choose);
        let run = format!(
            "<script>\n{axe}\n</script>\n<script>\n\
             window.addEventListener('load', () => ({SETTLED}).then(() => axe.run(document, {{ runOnly: {{ type: 'tag', values: {TAGS} }}, resultTypes: ['violations'] }}))\
             .then((r) => {{ const p = document.createElement('pre'); p.id = 'companion-axe-result';\
             p.textContent = JSON.stringify(r.violations.map((v) => v.id + ': ' + v.nodes.slice(0, 3).map((n) => n.target.join(' ') + ' (' + n.any.concat(n.all).map((c) => c.message).join('; ') + ')').join(', ')));\
             document.body.appendChild(p); }}));\n</script>\n"
        );
        inject(html, "</body>", &run)
    });
    let dom = dump_dom(&file, size, "companion-axe-result");
    let _ = std::fs::remove_file(&file);
    let doc = scraper::Html::parse_document(&dom);
    let sel = scraper::Selector::parse("pre#companion-axe-result").expect("selector");
    let pre = doc
        .select(&sel)
        .next()
        .unwrap_or_else(|| panic!("axe wrote no result in {}; did it run?", page.display()));
    let text: String = pre.text().collect();
    serde_json::from_str(&text).expect("axe's result is JSON")
}

/// `check` on every job, three at a time (tabs of the one browser: a
/// page mostly waits for its renderer), the results in the jobs' order.
fn in_parallel<J: Sync, R: Send>(jobs: &[J], check: impl Fn(&J) -> R + Sync) -> Vec<R> {
    let next = AtomicUsize::new(0);
    let done: Vec<Mutex<Option<R>>> = jobs.iter().map(|_| Mutex::new(None)).collect();
    std::thread::scope(|s| {
        for _ in 0..3 {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(job) = jobs.get(i) else { break };
                    *done[i].lock().expect("result") = Some(check(job));
                }
            });
        }
    });
    done.into_iter()
        .map(|r| r.into_inner().expect("result").expect("every job ran"))
        .collect()
}

/// Every page of `book`, in the default theme, at desktop width.
fn every_page_clean(book: &Path) {
    let found: Vec<String> = in_parallel(&pages(book), |page| {
        let name = page
            .file_name()
            .expect("name")
            .to_string_lossy()
            .into_owned();
        violations(page, "light", DESKTOP)
            .into_iter()
            .map(|v| format!("{name}: {v}"))
            .collect::<Vec<_>>()
    })
    .concat();
    assert!(found.is_empty(), "axe-core found:\n{}", found.join("\n"));
}

#[test]
fn axe_finds_nothing_on_any_page_of_the_example_book() {
    every_page_clean(example_book());
}

#[test]
fn axe_finds_nothing_on_any_page_of_the_guide() {
    every_page_clean(guide());
}

#[test]
fn axe_finds_nothing_in_every_theme_and_at_phone_width() {
    let book = example_book();
    let mut jobs = Vec::new();
    for name in ["division.html", "further-reading.html", "verified.html"] {
        for theme in ["rust", "coal", "navy", "ayu"] {
            jobs.push((name, theme, DESKTOP, format!("{name} ({theme})")));
        }
        jobs.push((name, "light", PHONE, format!("{name} (390 px)")));
    }
    let found: Vec<String> = in_parallel(&jobs, |(name, theme, size, what)| {
        violations(&book.join("book").join(name), theme, *size)
            .into_iter()
            .map(|v| format!("{what}: {v}"))
            .collect::<Vec<_>>()
    })
    .concat();
    assert!(found.is_empty(), "axe-core found:\n{}", found.join("\n"));
}
