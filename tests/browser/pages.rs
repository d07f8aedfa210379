//! Themes, the print page and the screenshots of the example book.

use super::*;

#[test]
fn every_theme_gives_readable_text_in_our_components() {
    for page in [case_page(), example_print_page()] {
        let m = measure(&page, "screen", DESKTOP, Variant::AsBuilt);
        for theme in THEMES {
            let t = &m["contrast"][theme];
            assert!(
                num(t, "count") >= 20.0,
                "{} in {theme}: too few text elements measured: {t}",
                page.display()
            );
            let worst = &array(t, "worst")[0];
            assert!(
                num(worst, "ratio") >= MIN_CONTRAST,
                "{} in {theme}: contrast below {MIN_CONTRAST}:1: {}",
                page.display(),
                t["worst"]
            );
        }
    }
}

#[test]
fn print_page_shows_every_directives_content() {
    for page in [case_book().join("book/print.html"), example_print_page()] {
        let m = measure(&page, "print", DESKTOP, Variant::AsBuilt);
        assert!(
            num(&m, "printRules") >= 3.0,
            "{}: print rules not applied: {}",
            page.display(),
            m["printRules"]
        );
        let contents = array(&m, "contents");
        assert!(!contents.is_empty());
        for d in contents {
            assert!(num(d, "pieces") > 0.0, "{d}");
            assert_eq!(
                array(d, "missing").len(),
                0,
                "{}: printed without some of its content: {d}",
                page.display()
            );
        }
        assert_eq!(num(&m, "tabsShown"), 0.0, "tab labels are not printed");
        for cmp in array(&m, "compares") {
            let sides = array(cmp, "sides");
            assert_eq!(
                ints(&cmp["visible"]).len(),
                sides.len(),
                "every side printed: {cmp}"
            );
            for pair in sides.windows(2) {
                assert!(
                    num(&pair[1], "top") >= num(&pair[0], "bottom"),
                    "printed sides stacked: {cmp}"
                );
            }
        }
        for link in array(&m, "linkAfter") {
            let href = link["href"].as_str().expect("href");
            let after = link["after"].as_str().expect("content");
            assert!(after.contains(href), "link URL printed: {link}");
        }
        for shown in array(&m, "asm") {
            assert_eq!(shown, true, "assembly panels print open: {}", m["asm"]);
        }
    }
    // The case book proves the print rules matter: on screen its second
    // tab and its closed assembly panels are not shown; in print they are.
    let m = measure(
        &case_book().join("book/print.html"),
        "print",
        DESKTOP,
        Variant::AsBuilt,
    );
    let hidden_on_screen: usize = array(&m, "contentsScreen")
        .iter()
        .map(|d| array(d, "missing").len())
        .sum();
    assert!(hidden_on_screen >= 2, "{}", m["contentsScreen"]);
    let kinds: Vec<&str> = array(&m, "contents")
        .iter()
        .map(|d| d["what"].as_str().expect("what"))
        .collect();
    for kind in [
        "div.companion-example",
        "div.companion-compare",
        "div.companion-reading-list",
        "div.companion-talks",
        "div.companion-error",
    ] {
        assert!(
            kinds.iter().any(|k| k.starts_with(kind)),
            "{kind} printed: {kinds:?}"
        );
    }
    assert!(array(&m, "asm").len() >= 2, "assembly panels: {}", m["asm"]);
}

/// The built chapter with the most of our elements (mdBook's own pages
/// and our page variants left out).
fn richest_chapter(out: &Path) -> PathBuf {
    let mut best: Option<(usize, PathBuf)> = None;
    let mut entries: Vec<PathBuf> = std::fs::read_dir(out)
        .expect("book output")
        .map(|e| e.expect("entry").path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path
            .file_name()
            .expect("name")
            .to_string_lossy()
            .into_owned();
        let skip = ["print.html", "index.html", "toc.html", "404.html"].contains(&name.as_str())
            || name.contains("-measure-")
            || name.contains("-shot-");
        if skip || !name.ends_with(".html") {
            continue;
        }
        let html = std::fs::read_to_string(&path).expect("page");
        let n = html.matches("class=\"companion-").count();
        if best.as_ref().is_none_or(|(m, _)| n > *m) {
            best = Some((n, path));
        }
    }
    let (n, path) = best.expect("a chapter page");
    assert!(n > 0, "no chapter of the example book uses a directive");
    path
}

/// Screenshots for people: each theme at desktop width, light and coal at
/// phone width, of the case chapter and of the example book's chapter
/// with the most directives. Saved under `target/screenshots/` (CI keeps
/// them as artefacts).
#[test]
fn screenshots_of_each_theme() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("target dir")
        .join("screenshots");
    // Not cleared: other tests write theirs here at the same time (the
    // assembly panels'); each file is overwritten, and CI starts clean.
    std::fs::create_dir_all(&dir).expect("screenshot dir");
    let example = richest_chapter(&example_book().join("book"));
    let stem = example
        .file_stem()
        .expect("stem")
        .to_string_lossy()
        .into_owned();
    let mut jobs: Vec<(PathBuf, &str, (u32, u32), PathBuf)> = Vec::new();
    for theme in THEMES {
        jobs.push((
            case_page(),
            theme,
            (1280, 1900),
            dir.join(format!("case-{theme}.png")),
        ));
        jobs.push((
            example.clone(),
            theme,
            (1280, 1600),
            dir.join(format!("{stem}-{theme}.png")),
        ));
    }
    for theme in ["light", "coal"] {
        jobs.push((
            case_page(),
            theme,
            (PHONE.0, 2400),
            dir.join(format!("case-phone-{theme}.png")),
        ));
    }
    let queue = Mutex::new(jobs.clone());
    std::thread::scope(|s| {
        for _ in 0..3 {
            s.spawn(|| {
                loop {
                    let job = queue.lock().expect("queue").pop();
                    let Some((page, theme, size, png)) = job else {
                        break;
                    };
                    screenshot(&page, theme, size, &png);
                }
            });
        }
    });
    let case_themes: Vec<Vec<u8>> = THEMES
        .iter()
        .map(|t| std::fs::read(dir.join(format!("case-{t}.png"))).expect("screenshot"))
        .collect();
    for (i, a) in case_themes.iter().enumerate() {
        for b in &case_themes[i + 1..] {
            assert_ne!(a, b, "two themes gave the same picture");
        }
    }
    for (_, _, size, png) in &jobs {
        let bytes = std::fs::read(png).unwrap_or_else(|e| panic!("{}: {e}", png.display()));
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "{}", png.display());
        let width = u32::from_be_bytes(bytes[16..20].try_into().expect("width"));
        assert_eq!(width, size.0, "{}", png.display());
    }
}
