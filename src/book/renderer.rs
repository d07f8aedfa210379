//! What `mdbook build`'s HTML renderer fails on that no chapter shows,
//! for `check` ([`super::walk::build_says`]): the files `[output.html]`
//! names and the theme it reads. mdBook 0.5.4's rules (`mdbook-html`):
//!
//! - `additional-css` and `additional-js`: each file is copied into the
//!   output (`static_files.rs`), a `.css` or `.js` one read as UTF-8 text
//!   first; a path with no file, or not a regular file, fails the build;
//! - `theme`: a directory book.toml names must be one ("theme dir … does
//!   not exist", `hbs_renderer.rs`); the default `theme/` may be absent;
//! - the theme's templates (`index.hbs`, `head.hbs`, …), when present,
//!   are read as UTF-8 text;
//! - `input-404`: the file it names under `src` is read as text.
//!
//! Each fault is told at the value of book.toml that names the file (its
//! line and column), a template's at its first byte that is not UTF-8.
//! Only the HTML renderer is judged, and only when `mdbook build` runs
//! it: another renderer is a program `check` does not run.

use mdbook_companion_core::config::Config;
use mdbook_companion_core::markdown::line_col;
use mdbook_companion_core::problem::Located;
use std::path::{Path, PathBuf};

/// The theme's templates mdBook reads as UTF-8 text.
const TEMPLATES: [&str; 6] = [
    "index.hbs",
    "head.hbs",
    "redirect.hbs",
    "header.hbs",
    "toc.js.hbs",
    "toc.html.hbs",
];

/// What the HTML renderer would fail on, each located (none when
/// `mdbook build` does not run the HTML renderer).
pub fn faults(config: &Config) -> Vec<Located> {
    if !config.renders_html {
        return Vec::new();
    }
    let root = &config.root;
    let text = std::fs::read_to_string(root.join("book.toml")).unwrap_or_default();
    let toml = BookToml::new(&text);
    let mut out = Vec::new();
    for (key, files) in [
        ("additional-css", &config.additional_css),
        ("additional-js", &config.additional_js),
    ] {
        for (i, rel) in files.iter().enumerate() {
            if let Some(why) = unusable(&root.join(rel), "mdbook build fails copying it") {
                let path = shown(rel);
                out.push(toml.at(
                    &["output", "html", key],
                    Some((i, &path)),
                    format!("found {path}, which [output.html] {key} names, {why}"),
                ));
            }
        }
    }
    if let Some(theme) = &config.theme
        && !root.join(theme).is_dir()
    {
        let path = shown(theme);
        out.push(toml.at(
            &["output", "html", "theme"],
            None,
            format!(
                "found no directory {path}, which [output.html] theme names; expected the theme's directory there (mdbook build fails: the theme dir does not exist)"
            ),
        ));
    }
    if let Some(page) = config.input_404.as_deref().filter(|p| !p.is_empty()) {
        let rel = config.src.join(page);
        if let Some(why) = unusable(&root.join(&rel), "mdbook build fails reading it") {
            out.push(toml.at(
                &["output", "html", "input-404"],
                None,
                format!(
                    "found {}, which [output.html] input-404 names, {why}",
                    shown(&rel)
                ),
            ));
        }
    }
    let theme = config
        .theme
        .clone()
        .unwrap_or_else(|| PathBuf::from("theme"));
    if root.join(&theme).is_dir() {
        out.extend(
            TEMPLATES
                .iter()
                .filter_map(|t| not_utf8(root, &theme.join(t))),
        );
    }
    out
}

/// A path as messages show it, with forward slashes.
fn shown(path: &Path) -> String {
    path.to_string_lossy().replace('\\', "/")
}

/// Why the file at `path` cannot be copied or read as mdBook does (`does`
/// says what the build then fails doing); `None` when it can. A `.css`,
/// `.js` or `.md` file must be UTF-8 text. Only a regular file is read:
/// a FIFO at the path fails here instead of making `check` wait.
fn unusable(path: &Path, does: &str) -> Option<String> {
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Some(format!(
                "but there is no such file; expected a file at that path from the book's root ({does})"
            ));
        }
        Err(e) => {
            return Some(format!(
                "but it cannot be read ({e}); expected a file ({does})"
            ));
        }
    };
    if !meta.is_file() {
        return Some(format!(
            "but it is not a regular file (a directory, a FIFO or a device); expected a file ({does})"
        ));
    }
    let text = matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("css" | "js" | "md")
    );
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) => {
            return Some(format!(
                "but it cannot be read ({e}); expected a file ({does})"
            ));
        }
    };
    match std::str::from_utf8(&bytes) {
        Err(e) if text => Some(format!(
            "but its byte {} is not UTF-8; expected UTF-8 text ({does})",
            e.valid_up_to() + 1
        )),
        _ => None,
    }
}

/// A template of the theme (`rel` from the book's root) that is not
/// UTF-8, told at its first byte that is not.
fn not_utf8(root: &Path, rel: &Path) -> Option<Located> {
    let path = root.join(rel);
    // Only a regular file: mdBook keeps its own template for anything else.
    if !path.is_file() {
        return None;
    }
    let bytes = std::fs::read(&path).ok()?;
    let e = std::str::from_utf8(&bytes).err()?;
    let valid = std::str::from_utf8(bytes.get(..e.valid_up_to())?).ok()?;
    let (line, column) = line_col(valid, valid.len());
    Some(Located {
        file: shown(rel),
        line,
        column,
        message: "found bytes that are not UTF-8 in a template of the theme; expected UTF-8 text (mdbook build fails reading it)".to_owned(),
    })
}

/// book.toml's text, for the place of a value.
struct BookToml<'t> {
    text: &'t str,
    doc: Option<toml::Spanned<toml::de::DeTable<'t>>>,
}

impl<'t> BookToml<'t> {
    fn new(text: &'t str) -> BookToml<'t> {
        BookToml {
            text,
            doc: toml::de::DeTable::parse(text).ok(),
        }
    }

    /// `message` at the value of `key` (`["output", "html", "theme"]`),
    /// or at a list's item: the `index`-th when it is `path`, else the
    /// first that is. A value book.toml does not hold (set through the
    /// environment) is told at book.toml's start.
    fn at(&self, key: &[&str], item: Option<(usize, &str)>, message: String) -> Located {
        let offset = self.offset(key, item);
        let (line, column) = line_col(self.text, offset.unwrap_or(0));
        let message = match offset {
            Some(_) => message,
            None => format!("{message} (set in the environment: book.toml does not hold it)"),
        };
        Located {
            file: "book.toml".to_owned(),
            line,
            column,
            message,
        }
    }

    fn offset(&self, key: &[&str], item: Option<(usize, &str)>) -> Option<usize> {
        use toml::de::DeValue;
        let mut table = self.doc.as_ref()?.get_ref();
        let (last, tables) = key.split_last()?;
        for k in tables {
            match table.get(*k)?.get_ref() {
                DeValue::Table(t) => table = t,
                _ => return None,
            }
        }
        let value = table.get(*last)?;
        let Some((index, path)) = item else {
            return Some(value.span().start);
        };
        let DeValue::Array(items) = value.get_ref() else {
            return Some(value.span().start);
        };
        let is = |v: &toml::Spanned<DeValue<'_>>| matches!(v.get_ref(), DeValue::String(s) if s.replace('\\', "/") == path);
        let found = (items.get(index).filter(|v| is(v))).or_else(|| items.iter().find(|v| is(v)));
        found.map(|v| v.span().start)
    }
}
