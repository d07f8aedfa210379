//! `mdbook-companion install [BOOK]`: puts the stylesheet (and, beside it,
//! the script that keeps tabbed comparisons in step) into a book and
//! registers the preprocessor and both files in its book.toml.
//!
//! book.toml is edited with toml_edit, so comments, key order and
//! formatting survive; files are written only when their content changes,
//! so running it twice changes nothing, and running it after an upgrade
//! replaces an outdated stylesheet. The stylesheet's first line carries the
//! version that wrote it, which lets the preprocessor warn about a stale
//! copy.

use super::author;
use mdbook_companion_directives::assets;
use std::path::{Component, Path};
use toml_edit::{Array, DocumentMut, Item, Table, Value};

/// Where the stylesheet goes by default, relative to the book root.
pub const DEFAULT_CSS: &str = "theme/companion.css";

/// What `install` changed.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Installed {
    /// book.toml was rewritten.
    pub book_toml: bool,
    /// The stylesheet was written (new or upgraded).
    pub stylesheet: bool,
    /// The script was written (new or upgraded).
    pub script: bool,
}

/// The script's path for the stylesheet at `css`: beside it, `.js`.
pub fn script_path(css: &str) -> String {
    match css.strip_suffix(".css") {
        Some(stem) => format!("{stem}.js"),
        None => format!("{css}.js"),
    }
}

/// Errors of `install`.
#[derive(Debug, thiserror::Error)]
pub enum InstallError {
    /// There is no book.toml: not a book (yet).
    #[error(
        "found no book.toml in {root}; expected an mdBook book's root directory: pass the root of an existing book, or run `mdbook-companion init {root}` to start a new book there"
    )]
    NoBook {
        /// The folder given.
        root: String,
    },
    /// book.toml is unreadable.
    #[error("cannot read {path}: {source}; expected an mdBook book root (a folder with book.toml)")]
    Read {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// book.toml is not valid TOML or has an unexpected shape.
    #[error("{path}: {message}")]
    Toml {
        /// The file.
        path: String,
        /// What is wrong.
        message: String,
    },
    /// The stylesheet path leaves the book.
    #[error(
        "the stylesheet path `{0}` must be relative and stay inside the book (no `..`, no symbolic link leading out)"
    )]
    Path(String),
    /// The guard refused to write a file (outside the book, read-only...).
    /// Not a `#[source]`: the message says it all, and an error chain
    /// would say it twice.
    #[error("not written: {0}")]
    Refused(super::author::Refused),
    /// Writing failed.
    #[error("cannot write {path}: {source}")]
    Write {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
}

/// Installs into the book at `root`, with the stylesheet at `css` (relative
/// to the root, `/`-separated).
pub fn install(root: &Path, css: &str) -> Result<Installed, InstallError> {
    if Path::new(css)
        .components()
        .any(|c| !matches!(c, Component::Normal(_)))
        || css.contains('\\')
    {
        return Err(InstallError::Path(css.to_owned()));
    }
    // No book there: reading book.toml reports that.
    if root.is_dir() && author::target(root, "the book", &root.join(css)).is_err_and(|r| r.leaves) {
        return Err(InstallError::Path(css.to_owned()));
    }
    let toml_path = root.join("book.toml");
    let display = toml_path.display().to_string();
    let text = std::fs::read_to_string(&toml_path).map_err(|source| {
        if source.kind() == std::io::ErrorKind::NotFound {
            InstallError::NoBook {
                root: root.display().to_string(),
            }
        } else {
            InstallError::Read {
                path: display.clone(),
                source,
            }
        }
    })?;
    let new_text = edit_book_toml(&text, css).map_err(|message| InstallError::Toml {
        path: display.clone(),
        message,
    })?;
    let mut done = Installed::default();
    if new_text != text {
        guarded_write(root, &toml_path, new_text.as_bytes())?;
        done.book_toml = true;
    }
    for (path, wanted, written) in [
        (
            root.join(css),
            assets::stamped_stylesheet(),
            &mut done.stylesheet,
        ),
        (
            root.join(script_path(css)),
            assets::stamped_script(),
            &mut done.script,
        ),
    ] {
        if std::fs::read_to_string(&path).ok().as_deref() == Some(wanted.as_str()) {
            continue;
        }
        guarded_write(root, &path, wanted.as_bytes())?;
        *written = true;
    }
    Ok(done)
}

/// Writes one of the book's files through the guard every command that
/// writes an author's file goes through ([`author`]).
fn guarded_write(root: &Path, path: &Path, bytes: &[u8]) -> Result<(), InstallError> {
    let real = author::target(root, "the book", path).map_err(InstallError::Refused)?;
    author::write(&real, bytes).map_err(|source| InstallError::Write {
        path: path.display().to_string(),
        source,
    })
}

/// Adds `[preprocessor.companion]` (with `after = ["links"]`, and
/// `"gettext"` too when the book has `[preprocessor.gettext]`), the
/// stylesheet to `output.html.additional-css` and the script beside it to
/// `additional-js`, keeping everything else.
pub fn edit_book_toml(text: &str, css: &str) -> Result<String, String> {
    let mut doc: DocumentMut = text
        .parse()
        .map_err(|e: toml_edit::TomlError| e.to_string())?;
    // A translated book: mdbook-gettext must translate the chapters
    // before we read them.
    let gettext = doc
        .get("preprocessor")
        .and_then(|p| p.get("gettext"))
        .is_some();
    let names: &[&str] = if gettext {
        &["links", "gettext"]
    } else {
        &["links"]
    };
    let companion = table(doc.as_table_mut(), &["preprocessor", "companion"])?;
    match companion.get_mut("after") {
        None => {
            let mut value = Value::Array(names.iter().copied().collect());
            // Why, in the words the guide shows it with.
            value.decor_mut().set_suffix(match gettext {
                true => "   # translate the chapters first, then render them",
                false => "          # so {{#include}} works inside directives",
            });
            companion.insert("after", Item::Value(value));
        }
        Some(Item::Value(Value::Array(a))) => {
            for n in names {
                if !a.iter().any(|v| v.as_str() == Some(n)) {
                    push_in_layout(a, n);
                }
            }
        }
        Some(_) => return Err("preprocessor.companion.after should be an array of names".into()),
    }
    let html = table(doc.as_table_mut(), &["output", "html"])?;
    for (key, path) in [
        ("additional-css", css.to_owned()),
        ("additional-js", script_path(css)),
    ] {
        match html.get_mut(key) {
            None => {
                let a = Array::from_iter([path.as_str()]);
                html.insert(key, Item::Value(Value::Array(a)));
            }
            Some(Item::Value(Value::Array(a))) => {
                if !a.iter().any(|v| v.as_str() == Some(path.as_str())) {
                    push_in_layout(a, &path);
                }
            }
            Some(_) => return Err(format!("output.html.{key} should be an array of paths")),
        }
    }
    Ok(doc.to_string())
}

/// Appends `entry` to an array of the author's in the array's own layout.
/// An array with one entry per line (some entry starts a line) gets the
/// new entry on a line of its own, indented as the last such entry, and a
/// trailing comma only when it had one; a comment after the last entry
/// stays on that entry's line. Any other array gets `, "entry"` on the
/// line it is on (toml_edit's own `push`).
fn push_in_layout(a: &mut Array, entry: &str) {
    let raw = |r: Option<&toml_edit::RawString>| r.and_then(|r| r.as_str()).map(str::to_owned);
    let indent = a
        .iter()
        .filter_map(|v| raw(v.decor().prefix()))
        .filter_map(|p| p.rfind('\n').map(|at| p[at + 1..].to_owned()))
        .last();
    let Some(indent) = indent else {
        a.push(entry);
        return;
    };
    // What stands between the last entry and `]`: a comment and the line
    // break that stay on the last entry's line (after its comma), then
    // the indentation of `]`.
    let mut between = String::new();
    let comma = a.trailing_comma();
    if let Some(last) = a.get_mut(a.len().saturating_sub(1)) {
        let suffix = raw(last.decor().suffix()).unwrap_or_default();
        if !comma || suffix.contains('\n') {
            between = suffix;
            last.decor_mut().set_suffix("");
        }
    }
    between.push_str(&raw(Some(a.trailing())).unwrap_or_default());
    let (mut after_last, trailing) = match between.rfind('\n') {
        Some(at) => (
            between[..at].to_owned(),
            format!("\n{}", &between[at + 1..]),
        ),
        None => (String::new(), between),
    };
    after_last.push('\n');
    let mut value = Value::from(entry);
    value
        .decor_mut()
        .set_prefix(format!("{after_last}{indent}"));
    value.decor_mut().set_suffix("");
    a.push_formatted(value);
    a.set_trailing(trailing);
}

/// The table at `path`, created (as a real `[a.b]` table) when missing.
fn table<'a>(root: &'a mut Table, path: &[&str]) -> Result<&'a mut Table, String> {
    let mut t = root;
    for (i, key) in path.iter().enumerate() {
        let entry = t.entry(key).or_insert_with(|| {
            let mut new = Table::new();
            new.set_implicit(i + 1 < path.len());
            Item::Table(new)
        });
        t = match entry {
            Item::Table(t) => t,
            _ => return Err(format!("`{}` should be a table", path[..=i].join("."))),
        };
    }
    Ok(t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    const BEFORE: &str = r#"# My book
[book]
title = "Mine" # keep this comment
authors = ["A"]

[output.html]
# extra styles
additional-css = ["theme/custom.css"]
mathjax-support = true
"#;

    #[test]
    fn edit_keeps_comments_order_and_existing_css() {
        let after = edit_book_toml(BEFORE, DEFAULT_CSS).unwrap();
        assert_eq!(
            after,
            r#"# My book
[book]
title = "Mine" # keep this comment
authors = ["A"]

[output.html]
# extra styles
additional-css = ["theme/custom.css", "theme/companion.css"]
mathjax-support = true
additional-js = ["theme/companion.js"]

[preprocessor.companion]
after = ["links"]          # so {{#include}} works inside directives
"#
        );
        assert_eq!(
            edit_book_toml(&after, DEFAULT_CSS).unwrap(),
            after,
            "idempotent"
        );
    }

    /// The `after` install writes says why, as the guide's getting
    /// started and translations pages show it.
    #[test]
    fn a_new_after_says_why() {
        let plain = edit_book_toml("", DEFAULT_CSS).unwrap();
        let translated = edit_book_toml("[preprocessor.gettext]\n", DEFAULT_CSS).unwrap();
        let guide = |page: &str| {
            std::fs::read_to_string(format!("{}/guide/src/{page}", env!("CARGO_MANIFEST_DIR")))
                .unwrap()
        };
        for (written, page) in [
            (plain, "getting-started.md"),
            (translated, "translations.md"),
        ] {
            let line = written.lines().find(|l| l.starts_with("after = ")).unwrap();
            assert!(line.contains(" # "), "{line}");
            assert!(guide(page).lines().any(|l| l == line), "{page}: {line}");
        }
    }

    #[test]
    fn edit_fills_an_empty_book_toml_and_extends_after() {
        let after = edit_book_toml(
            "[preprocessor.companion]\nafter = [\"index\"]\n",
            DEFAULT_CSS,
        )
        .unwrap();
        assert_eq!(
            after,
            "[preprocessor.companion]\nafter = [\"index\", \"links\"]\n\n[output.html]\nadditional-css = [\"theme/companion.css\"]\nadditional-js = [\"theme/companion.js\"]\n"
        );
    }

    /// A multi-line array gets the new entry on a line of its own, as
    /// indented as the others, with the array's own trailing-comma
    /// style; a comment after the last entry stays on its line; a
    /// one-line array stays on one line.
    #[test]
    fn multi_line_arrays_keep_one_entry_per_line() {
        for (before, after) in [
            (
                "[preprocessor.companion]\nafter = [\n  \"index\",\n]\n",
                "[preprocessor.companion]\nafter = [\n  \"index\",\n  \"links\",\n]\n",
            ),
            (
                "[preprocessor.companion]\nafter = [\n    \"index\"\n]\n",
                "[preprocessor.companion]\nafter = [\n    \"index\",\n    \"links\"\n]\n",
            ),
            (
                "[preprocessor.companion]\nafter = [\n  \"index\", # first\n]\n",
                "[preprocessor.companion]\nafter = [\n  \"index\", # first\n  \"links\",\n]\n",
            ),
            (
                "[preprocessor.companion]\nafter = [\n  \"index\" # first\n]\n",
                "[preprocessor.companion]\nafter = [\n  \"index\", # first\n  \"links\"\n]\n",
            ),
            (
                "[preprocessor.companion]\nafter = [\"a\",\n\t\"index\"]\n",
                "[preprocessor.companion]\nafter = [\"a\",\n\t\"index\",\n\t\"links\"]\n",
            ),
        ] {
            let written = edit_book_toml(before, DEFAULT_CSS).unwrap();
            let (head, rest) = written.split_once("\n\n[output.html]").unwrap();
            assert_eq!(format!("{head}\n"), after, "{before}");
            assert!(rest.starts_with("\nadditional-css = [\"theme/companion.css\"]\n"));
            assert_eq!(edit_book_toml(&written, DEFAULT_CSS).unwrap(), written);
        }
        let html = "[preprocessor.companion]\nafter = [\"links\"]\n\n[output.html]\nadditional-css = [\n  \"a.css\",\n]\nadditional-js = [\"a.js\"]\n";
        assert_eq!(
            edit_book_toml(html, DEFAULT_CSS).unwrap(),
            "[preprocessor.companion]\nafter = [\"links\"]\n\n[output.html]\nadditional-css = [\n  \"a.css\",\n  \"theme/companion.css\",\n]\nadditional-js = [\"a.js\", \"theme/companion.js\"]\n"
        );
    }

    #[test]
    fn a_translated_book_runs_gettext_first() {
        let after = edit_book_toml(
            "[preprocessor.gettext]\nafter = [\"links\"]\n\n[preprocessor.companion]\nafter = [\"links\"]\n",
            DEFAULT_CSS,
        )
        .unwrap();
        assert!(
            after.contains("[preprocessor.companion]\nafter = [\"links\", \"gettext\"]\n"),
            "{after}"
        );
        assert_eq!(edit_book_toml(&after, DEFAULT_CSS).unwrap(), after);
    }

    #[test]
    fn edit_rejects_wrong_shapes() {
        assert!(edit_book_toml("output = 3\n", DEFAULT_CSS).is_err());
        assert!(
            edit_book_toml("[output.html]\nadditional-css = \"x.css\"\n", DEFAULT_CSS).is_err()
        );
        assert!(edit_book_toml("[output.html]\nadditional-js = 1\n", DEFAULT_CSS).is_err());
        assert!(edit_book_toml("not toml =", DEFAULT_CSS).is_err());
    }

    #[test]
    fn install_writes_once_and_upgrades_a_stale_copy() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("book.toml"), BEFORE).unwrap();
        let first = install(dir.path(), DEFAULT_CSS).unwrap();
        assert_eq!(
            first,
            Installed {
                book_toml: true,
                stylesheet: true,
                script: true
            }
        );
        let css = std::fs::read_to_string(dir.path().join(DEFAULT_CSS)).unwrap();
        assert_eq!(css, assets::stamped_stylesheet());
        let js = std::fs::read_to_string(dir.path().join("theme/companion.js")).unwrap();
        assert_eq!(js, assets::stamped_script());
        assert!(js.contains("localStorage"), "{js}");
        assert_eq!(
            install(dir.path(), DEFAULT_CSS).unwrap(),
            Installed::default()
        );
        std::fs::write(
            dir.path().join(DEFAULT_CSS),
            "/* mdbook-companion 0.0.1 */\n",
        )
        .unwrap();
        assert_eq!(
            install(dir.path(), DEFAULT_CSS).unwrap(),
            Installed {
                book_toml: false,
                stylesheet: true,
                script: false
            }
        );
    }

    #[test]
    fn install_refuses_paths_leaving_the_book() {
        let dir = tempfile::tempdir().unwrap();
        for bad in ["../x.css", "/etc/x.css", "a/../../x.css"] {
            assert!(
                matches!(install(dir.path(), bad), Err(InstallError::Path(_))),
                "{bad}"
            );
        }
        assert!(matches!(
            install(dir.path(), "ok.css"),
            Err(InstallError::NoBook { .. })
        ));
    }

    #[test]
    fn install_refuses_symlinks_leading_out_of_the_book() {
        let outside = tempfile::tempdir().unwrap();
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("book.toml"), "[book]\n").unwrap();
        std::os::unix::fs::symlink(outside.path(), dir.path().join("theme")).unwrap();
        std::os::unix::fs::symlink(
            outside.path().join("x.css"),
            dir.path().join("dangling.css"),
        )
        .unwrap();
        for bad in [DEFAULT_CSS, "theme/deeper/x.css", "dangling.css"] {
            let e = install(dir.path(), bad).unwrap_err();
            assert_eq!(
                e.to_string(),
                format!(
                    "the stylesheet path `{bad}` must be relative and stay inside the book (no `..`, no symbolic link leading out)"
                )
            );
        }
        assert_eq!(std::fs::read_dir(outside.path()).unwrap().count(), 0);
        assert_eq!(
            std::fs::read_to_string(dir.path().join("book.toml")).unwrap(),
            "[book]\n"
        );
        // A link that stays inside the book is fine.
        std::fs::create_dir(dir.path().join("styles")).unwrap();
        std::os::unix::fs::symlink(dir.path().join("styles"), dir.path().join("css")).unwrap();
        install(dir.path(), "css/companion.css").unwrap();
        assert!(dir.path().join("styles/companion.css").is_file());
    }
}
