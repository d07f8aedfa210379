//! `mdbook-companion build [BOOK]`: builds a book with this preprocessor
//! registered in-process through `mdbook-driver`, so that a fresh checkout
//! builds its book with no separately installed `mdbook` or plugin binary.

use super::preprocess::Companion;
use std::path::Path;

/// Builds the book at `root` with every renderer its book.toml names.
/// The in-process preprocessor takes the place of the
/// `[preprocessor.companion]` command, keeping its position in the order.
pub fn build(root: &Path) -> anyhow::Result<()> {
    let mut book = mdbook_driver::MDBook::load(root)?;
    book.with_preprocessor(Companion);
    book.build()?;
    Ok(())
}
