//! The stylesheet and the script, embedded in the binary and written into books by
//! `install`. The rules every directive shares are in `base.css`; each
//! directive keeps its own beside its code and names them in its row of
//! [`KINDS`]. The installed copy starts with a version stamp so the
//! preprocessor can tell a stale copy.

use super::KINDS;
use std::sync::OnceLock;

/// The rules every directive's frame shares.
const BASE: &str = include_str!("base.css");

/// The Run button of every frame whose code runs (examples and Rust
/// comparison sides), and its output: the frame's, so no directive's own.
const RUN_CSS: &str = include_str!("run.css");

/// The page as a keyboard and a screen reader reach it, mdBook's parts
/// too (see `page.js`).
const PAGE_JS: &str = include_str!("page.js");

/// The Run button's script (see `run.js` for what it does).
const RUN_JS: &str = include_str!("run.js");

/// The assembly panel of every frame whose code compiles (examples and
/// compiled comparison sides): the tied view, claims, graphs.
const ASM_CSS: &str = include_str!("asm.css");

/// Partners highlighted both ways in a tied view (see `asm.js`).
const ASM_JS: &str = include_str!("asm.js");

/// The whole stylesheet, without the stamp: the shared rules (the frame's,
/// the Run button's, the assembly panel's), then each directive's in the order of [`KINDS`].
pub fn stylesheet() -> &'static str {
    static CSS: OnceLock<String> = OnceLock::new();
    CSS.get_or_init(|| {
        [BASE, RUN_CSS, ASM_CSS]
            .into_iter()
            .chain(KINDS.iter().map(|k| k.stylesheet))
            .collect::<Vec<_>>()
            .join("\n")
    })
}

/// The whole script: the page's, the Run button's, the assembly panel's, then each directive's part, in the
/// order of [`KINDS`].
pub fn script() -> &'static str {
    static JS: OnceLock<String> = OnceLock::new();
    JS.get_or_init(|| {
        [PAGE_JS, RUN_JS, ASM_JS]
            .into_iter()
            .chain(KINDS.iter().map(|k| k.script))
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>()
            .join("\n")
    })
}

/// The script as `install` writes it: a version stamp, then the code.
pub fn stamped_script() -> String {
    format!(
        "/* mdbook-companion {} (written by `mdbook-companion install`; run it again after upgrading) */\n{}",
        env!("CARGO_PKG_VERSION"),
        script()
    )
}

/// The first line of an installed stylesheet, before the version.
pub(crate) const STAMP_PREFIX: &str = "/* mdbook-companion ";

/// The stylesheet as `install` writes it: a version stamp, then the rules.
pub fn stamped_stylesheet() -> String {
    format!(
        "{STAMP_PREFIX}{} (written by `mdbook-companion install`; run it again after upgrading) */\n{}",
        env!("CARGO_PKG_VERSION"),
        stylesheet()
    )
}

/// The version in an installed stylesheet's stamp.
pub(crate) fn stamp_version(css: &str) -> Option<semver::Version> {
    let rest = css.strip_prefix(STAMP_PREFIX)?;
    let version = rest.split_whitespace().next()?;
    semver::Version::parse(version).ok()
}

/// Why the book's pages would not get the binary's styles, if they would
/// not: no installed stylesheet among `additional_css`, or an older one.
pub fn stylesheet_warning(
    root: &std::path::Path,
    additional_css: &[std::path::PathBuf],
) -> Option<String> {
    let ours = semver::Version::parse(env!("CARGO_PKG_VERSION")).ok()?;
    let mut found = None;
    for css in additional_css {
        if let Ok(text) = std::fs::read_to_string(root.join(css))
            && let Some(v) = stamp_version(&text)
        {
            found = Some((css, v));
            break;
        }
    }
    match found {
        None => Some(
            "this book uses mdbook-companion directives but its pages have no companion stylesheet \
             (none of output.html.additional-css is one); run `mdbook-companion install` in the book"
                .to_owned(),
        ),
        Some((css, v)) if v < ours => Some(format!(
            "{} was written by mdbook-companion {v}, older than this {ours}; run `mdbook-companion install` to update it",
            css.display()
        )),
        Some(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stamp_round_trips() {
        let v = stamp_version(&stamped_stylesheet()).unwrap();
        assert_eq!(v.to_string(), env!("CARGO_PKG_VERSION"));
        assert_eq!(stamp_version(".x { }"), None);
    }

    #[test]
    fn missing_or_stale_stylesheet_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let css = std::path::PathBuf::from("theme/companion.css");
        let w = stylesheet_warning(dir.path(), std::slice::from_ref(&css)).unwrap();
        assert!(w.contains("run `mdbook-companion install`"), "{w}");
        std::fs::create_dir_all(dir.path().join("theme")).unwrap();
        std::fs::write(
            dir.path().join(&css),
            "/* mdbook-companion 0.0.1 (old) */\n",
        )
        .unwrap();
        let w = stylesheet_warning(dir.path(), std::slice::from_ref(&css)).unwrap();
        assert!(
            w.contains("written by mdbook-companion 0.0.1, older than"),
            "{w}"
        );
        std::fs::write(dir.path().join(&css), stamped_stylesheet()).unwrap();
        assert_eq!(stylesheet_warning(dir.path(), &[css]), None);
    }

    #[test]
    fn colours_come_from_the_theme() {
        // Outside the feature query `@supports (color: color-mix(...))`,
        // no colour literal: every colour is one of mdBook's theme
        // variables or mixed from them.
        // The one exception: mdBook's own highlighting colours, repaired
        // for contrast in a section of their own.
        let css = stylesheet();
        let begin = css
            .find(REPAIRED_BEGIN)
            .expect("the repaired section begins");
        let end = css.find(REPAIRED_END).expect("the repaired section ends");
        let ours = format!("{}{}", &css[..begin], &css[end..]);
        let rules: String = ours
            .lines()
            .filter(|l| !l.trim_start().starts_with("@supports"))
            .collect::<Vec<_>>()
            .join("\n");
        assert!(
            !rules.contains('#'),
            "a #colour or id selector in the stylesheet"
        );
        for f in [
            "rgb(", "rgba(", "hsl(", "hsla(", "hwb(", "lab(", "lch(", "oklch(", "color(",
        ] {
            assert!(
                !rules.contains(&format!(" {f}")) && !rules.contains(&format!(":{f}")),
                "hard-coded {f}...) in the stylesheet"
            );
        }
        for named in [" white", " black", " red", " blue", " gray", " grey"] {
            for line in rules
                .lines()
                .filter(|l| l.contains(':') && !l.trim_start().starts_with("/*"))
            {
                assert!(
                    !line.contains(&format!("{named};")),
                    "named colour in: {line}"
                );
            }
        }
    }

    /// Where the stylesheet repairs mdBook's own palette (its classes and
    /// colour literals, for WCAG AA contrast).
    const REPAIRED_BEGIN: &str = "/* mdBook's palette repaired: begin.";
    const REPAIRED_END: &str = "/* mdBook's palette repaired: end. */";

    /// mdBook's classes the stylesheet names on purpose: headings' anchors
    /// keep their look beside underlined links, and a diff's added lines
    /// get a colour with enough contrast.
    const MDBOOK_CLASSES: [&str; 2] = ["header)", "hljs-addition "];

    #[test]
    fn every_class_is_prefixed() {
        let css = stylesheet();
        for (i, _) in css.match_indices('.') {
            let rest = &css[i + 1..];
            if rest.starts_with(|c: char| c.is_ascii_alphabetic()) {
                let prev = css[..i].chars().last().unwrap_or(' ');
                if prev.is_whitespace() || matches!(prev, ',' | '>' | '(' | '}' | '{' | '~' | '+') {
                    assert!(
                        rest.starts_with("companion-")
                            || MDBOOK_CLASSES.iter().any(|c| rest.starts_with(c)),
                        "unprefixed class at: {}",
                        &rest[..rest.len().min(40)]
                    );
                }
            }
        }
    }
}
