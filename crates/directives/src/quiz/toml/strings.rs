//! Where the strings of an mdbook-quiz file stand in it, for faults told
//! at their line and column of the file.

use mdbook_companion_core::problem::FileLocation;

/// Where the strings of a quiz file stand in it (the file read again for
/// its spans, which the questions' tables lose), so that a fault of an
/// author's Markdown in one is told at its line and column of the file.
pub(super) struct Strings<'t> {
    text: &'t str,
    shown: &'t str,
    doc: Option<toml::Spanned<toml::de::DeTable<'t>>>,
}

impl<'t> Strings<'t> {
    pub(super) fn of(text: &'t str, shown: &'t str) -> Strings<'t> {
        Strings {
            text,
            shown,
            doc: toml::de::DeTable::parse(text).ok(),
        }
    }

    /// The place of a byte offset of the file.
    fn place(&self, offset: usize) -> FileLocation {
        let (line, column) = mdbook_companion_core::markdown::line_col(self.text, offset);
        FileLocation {
            path: self.shown.to_owned(),
            line,
            column,
        }
    }

    /// Where question `n`'s string at `path` (`["prompt", "prompt"]`),
    /// or its `index`-th item when it is a list, starts.
    pub(super) fn at(&self, n: usize, path: &[&str], index: Option<usize>) -> Option<FileLocation> {
        use toml::de::DeValue;
        let questions = self.doc.as_ref()?.get_ref().get("questions")?;
        let DeValue::Array(questions) = questions.get_ref() else {
            return None;
        };
        let mut value = questions.get(n)?;
        for key in path {
            let DeValue::Table(table) = value.get_ref() else {
                return None;
            };
            value = table.get(*key)?;
        }
        if let (Some(i), DeValue::Array(items)) = (index, value.get_ref()) {
            value = items.get(i)?;
        }
        Some(self.place(value.span().start))
    }

    /// Where the `[multipart]` table's string `key` starts.
    pub(super) fn multipart(&self, key: &str) -> Option<FileLocation> {
        let table = self.doc.as_ref()?.get_ref().get("multipart")?;
        let toml::de::DeValue::Table(table) = table.get_ref() else {
            return None;
        };
        Some(self.place(table.get(key)?.span().start))
    }
}
