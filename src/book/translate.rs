//! The book's catalog for the language it is built in: `book.language`
//! and the PO directory of `[preprocessor.gettext]` (`po-dir`, default
//! `po`) name `po/LANG.po`, which is checked line by line (a malformed
//! file is an error naming its line) and read with polib once per run.
//! The directives look their strings up through [`mdbook_companion_directives::Env`].
//! Also the warning for a book whose `mdbook-gettext` would run after us.

use mdbook_companion_core::config::Config;
use mdbook_companion_core::i18n::{Translations, check_po};
use mdbook_companion_core::problem::Located;
use mdbook_companion_directives::Target;
use std::path::PathBuf;

/// The PO file of the book's language, when the book has a language.
pub fn po_file(config: &Config) -> Option<PathBuf> {
    let language = config.language.as_deref()?;
    Some(
        config
            .root
            .join(&config.po_dir)
            .join(format!("{language}.po")),
    )
}

/// The catalog for a build for `target`: none for the source language
/// (no `book.language`, or no PO file for it, as `mdbook-gettext` does),
/// for `mdbook-xgettext` (which extracts the source) and for `mdbook
/// test` (which shows no prose).
pub fn load(config: &Config, target: Target) -> Result<Option<Translations>, Located> {
    if matches!(target, Target::Xgettext | Target::Test) {
        return Ok(None);
    }
    let (Some(path), Some(language)) = (po_file(config), config.language.clone()) else {
        return Ok(None);
    };
    if !path.is_file() {
        return Ok(None);
    }
    let shown = path
        .strip_prefix(&config.root)
        .unwrap_or(&path)
        .to_string_lossy()
        .replace('\\', "/");
    let fault = |line: usize, message: String| Located {
        file: shown.clone(),
        line,
        column: 1,
        message,
    };
    let text = std::fs::read_to_string(&path).map_err(|e| {
        fault(
            1,
            format!("found a PO file that cannot be read as UTF-8 text ({e}); expected the catalog of `{language}`"),
        )
    })?;
    check_po(&text).map_err(|(line, message)| fault(line, message))?;
    let parsed = std::panic::catch_unwind(|| polib::po_file::parse(&path));
    let catalog = match parsed {
        Ok(Ok(catalog)) => catalog,
        Ok(Err(e)) => {
            return Err(fault(
                1,
                format!("found a PO file polib cannot read ({e}); expected a gettext catalog"),
            ));
        }
        Err(_) => {
            return Err(fault(
                1,
                "found a PO file polib cannot read; expected a gettext catalog".into(),
            ));
        }
    };
    Ok(Some(Translations::new(language, shown, catalog)))
}

/// A warning when the book translates with `mdbook-gettext` but mdBook
/// would run it after us: it would then see our rendered pages instead of
/// the chapters' source, and neither it nor we would translate them.
pub fn order_warning(config: &Config, target: Target) -> Option<String> {
    if matches!(target, Target::Xgettext | Target::Test) || config.language.is_none() {
        return None;
    }
    match config.gettext_first {
        Some(false) => Some(
            "[preprocessor.gettext] runs after mdbook-companion, so the translated pages would keep the source text; \
             add \"gettext\" to `after` in [preprocessor.companion] of book.toml (after = [\"links\", \"gettext\"]), \
             or run `mdbook-companion install`, which does it"
                .to_owned(),
        ),
        _ => None,
    }
}
