//! mdbook-companion: an mdBook preprocessor for companion books.
//!
//! Authors write fenced directives, each a row of the registry
//! (`directive::KINDS`): runnable Rust examples (```` ```rust example ````),
//! comparison blocks (```` ````compare ````), reading-list cards
//! (```` ```reading-list ````), talk cards (```` ```talk ````) and the claims
//! page (```` ```claims ````). The preprocessor finds them with
//! pulldown-cmark's offset iterator, renders each for the renderer at hand,
//! and splices the result into the chapter, leaving every other byte as it
//! was. `check` proves what they claim, and what every plain Rust block
//! `mdbook test` would test claims.
//!
//! The crate is built in layers, each using only those below it (see
//! `ARCHITECTURE.md`): [`core`] (pure models: languages, outcomes, claims,
//! problems, attributes, the Markdown scan, links, config), `engine`
//! (running compilers, the cache, assembly, checking a claim),
//! `directive` (one folder per directive and the registry of them),
//! [`book`] (chapters, the chapter memo, lazy decoding, the protocol) and
//! [`commands`] (preprocess, check, install, build). The binary speaks
//! mdBook's preprocessor protocol ([`commands::preprocess`]); the
//! [`Companion`] type plugs the same engine into mdBook as a library
//! ([`commands::build`]).

pub mod book;
pub mod commands;

pub use book::protocol::{Error, NAME};
pub use commands::preprocess::Companion;
