//! mdbook-companion: an mdBook preprocessor for companion books.
//!
//! Authors write three kinds of fenced directives: runnable Rust examples
//! (```` ```rust example ````), comparison blocks (```` ````compare ````) and
//! reading-list cards (```` ```reading-list ````). The preprocessor finds
//! them with pulldown-cmark's offset iterator, renders each for the
//! renderer at hand, and splices the result into the chapter, leaving every
//! other byte as it was.
//!
//! The binary speaks mdBook's preprocessor protocol ([`protocol`]); the
//! [`Companion`] type plugs the same engine into mdBook as a library
//! ([`build`]).

pub mod asm;
pub mod assets;
pub mod attrs;
pub mod build;
pub mod cache;
pub mod check;
pub mod code;
pub mod config;
pub mod directive;
pub mod exec;
pub mod expect;
pub mod install;
pub mod lazy;
pub mod links;
pub mod markdown;
pub mod memo;
pub mod process;
pub mod protocol;

use mdbook_preprocessor::book::Book;
use mdbook_preprocessor::{Preprocessor, PreprocessorContext};
use process::Located;

/// The preprocessor's name in book.toml: `[preprocessor.companion]`.
pub const NAME: &str = "companion";

/// Everything that can stop the preprocessor.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// mdBook's input could not be read or had the wrong shape.
    #[error("{0}")]
    Input(String),
    /// The book's configuration is wrong.
    #[error(transparent)]
    Config(#[from] config::ConfigError),
    /// One or more directives are wrong.
    #[error("{}", format_located(.0))]
    Directives(Vec<Located>),
    /// Writing the book back failed (for example, mdBook closed the pipe).
    #[error("could not write the book to standard output: {0}")]
    Output(#[source] std::io::Error),
}

fn format_located(errors: &[Located]) -> String {
    let mut s = String::new();
    for (i, e) in errors.iter().enumerate() {
        if i > 0 {
            s.push('\n');
        }
        s.push_str(&e.to_string());
    }
    if errors.len() > 1 {
        s.push_str(&format!("\n{} directives have errors", errors.len()));
    }
    s
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
        let config = config::Config::from_json(ctx.root.clone(), &config_json)?;
        let mut book_json = serde_json::to_value(&book)?;
        let target = directive::Target::for_renderer(&ctx.renderer);
        protocol::report(process::book(&config, target, &mut book_json))?;
        Ok(serde_json::from_value(book_json)?)
    }

    fn supports_renderer(&self, _renderer: &str) -> mdbook_preprocessor::errors::Result<bool> {
        Ok(true)
    }
}
