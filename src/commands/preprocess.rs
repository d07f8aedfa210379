//! The preprocessor itself: mdBook's `[context, book]` JSON on stdin, the
//! book on stdout ([`run`]), or the same work as an mdBook library plugin
//! ([`Companion`]).

use crate::book::lazy;
use crate::book::protocol::{Error, NAME, context, parse_input, start};
use crate::book::{self, BookOutcome};
use mdbook_companion_directives::Target;
use mdbook_preprocessor::book::Book;
use mdbook_preprocessor::{Preprocessor, PreprocessorContext};
use std::io::{Read, Write};

/// Logs a book's warnings and turns its errors into [`Error::Directives`].
pub fn report(outcome: BookOutcome) -> Result<(), Error> {
    for w in &outcome.warnings {
        tracing::warn!("{w}");
    }
    for n in &outcome.notes {
        tracing::warn!("{n}");
    }
    if outcome.errors.is_empty() {
        Ok(())
    } else {
        Err(Error::Directives(outcome.errors))
    }
}

/// Runs the preprocessor over mdBook's stdin/stdout protocol.
pub fn run(mut input: impl Read, output: impl Write) -> Result<(), Error> {
    // One growing buffer: its unused capacity is never touched, so it costs
    // address space, not memory, and the input is copied once.
    let mut bytes = Vec::new();
    input
        .read_to_end(&mut bytes)
        .map_err(|e| Error::Input(format!("could not read standard input: {e}")))?;
    let mut out = std::io::BufWriter::with_capacity(1 << 16, output);
    // The usual case: the book decoded only where a directive may be
    // (see [`crate::book::lazy`]).
    // (`mdbook-xgettext` takes the decoded path: it may get pages added.)
    if let Ok((ctx, mut book)) = lazy::parse(&bytes)
        && lazy::has_items(&book)
        && ctx.get("renderer").and_then(serde_json::Value::as_str) != Some("xgettext")
    {
        let ctx = context(&ctx)?;
        let target = start(&ctx);
        let src = book::walk::src_prefix(&ctx.config);
        let files = lazy::chapter_files(&book, &src);
        let slots = lazy::slots(&mut book, &src);
        report(book::chapters_among(&ctx.config, target, slots, files))?;
        serde_json::to_writer(&mut out, &book).map_err(|e| Error::Output(e.into()))?;
        return out.flush().map_err(Error::Output);
    }
    // Anything else (an odd shape, or input that is not what mdBook
    // sends): fully decoded, which handles every shape the protocol allows
    // and names exactly what is wrong.
    let text = std::str::from_utf8(&bytes)
        .map_err(|e| Error::Input(format!("expected UTF-8 JSON on standard input; {e}")))?;
    let (ctx, mut book) = parse_input(text)?;
    drop(bytes);
    let target = start(&ctx);
    report(book::book(&ctx.config, target, &mut book))?;
    serde_json::to_writer(&mut out, &book).map_err(|e| Error::Output(e.into()))?;
    out.flush().map_err(Error::Output)
}

/// The preprocessor as an mdBook library plugin, for
/// [`mdbook_driver::MDBook::with_preprocessor`].
#[derive(Debug, Default, Clone, Copy)]
pub struct Companion;

impl Preprocessor for Companion {
    fn name(&self) -> &str {
        NAME
    }

    fn run(
        &self,
        ctx: &PreprocessorContext,
        book: Book,
    ) -> mdbook_preprocessor::errors::Result<Book> {
        let config_json = serde_json::to_value(&ctx.config)?;
        let config = crate::book::protocol::config(ctx.root.clone(), &config_json)?;
        let mut book_json = serde_json::to_value(&book)?;
        let target = Target::for_renderer(&ctx.renderer);
        report(book::book(&config, target, &mut book_json))?;
        Ok(serde_json::from_value(book_json)?)
    }

    fn supports_renderer(&self, _renderer: &str) -> mdbook_preprocessor::errors::Result<bool> {
        Ok(true)
    }
}
