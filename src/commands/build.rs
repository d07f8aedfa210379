//! `mdbook-companion build [BOOK]`: builds a book with this preprocessor
//! registered in-process through `mdbook-driver`, so that a fresh checkout
//! builds its book with no separately installed `mdbook` or plugin binary.

use super::preprocess::Companion;
use std::path::Path;

/// Builds the book at `root` with every renderer its book.toml names.
/// The in-process preprocessor takes the place of the
/// `[preprocessor.companion]` command, keeping its position in the order.
/// Where there is no book, it says so and what to pass, as `check` does
/// ([`crate::book::load::not_a_book`]).
pub fn build(root: &Path) -> anyhow::Result<()> {
    if let Some(why) = crate::book::load::not_a_book(root) {
        anyhow::bail!("{why}");
    }
    let mut book = mdbook_driver::MDBook::load(root)?;
    book.with_preprocessor(Companion);
    book.build()?;
    Ok(())
}
