//! mdbook-companion: an mdBook preprocessor for companion books.
//!
//! Authors write three kinds of fenced directives: runnable Rust examples
//! (```` ```rust example ````), comparison blocks (```` ````compare ````) and
//! reading-list cards (```` ```reading-list ````). The preprocessor finds
//! them with pulldown-cmark's offset iterator, renders each for the
//! renderer at hand, and splices the result into the chapter, leaving every
//! other byte as it was.
//!
//! The crate is built in layers, each using only those below it (see
//! `ARCHITECTURE.md`): [`core`] (pure models: languages, outcomes, claims,
//! problems, attributes, the Markdown scan, links, config), [`engine`]
//! (running compilers, the cache, assembly, checking a claim),
//! [`directive`] (one folder per directive and the registry of them),
//! [`book`] (chapters, the chapter memo, lazy decoding, the protocol) and
//! [`commands`] (preprocess, check, install, build). The binary speaks
//! mdBook's preprocessor protocol ([`commands::preprocess`]); the
//! [`Companion`] type plugs the same engine into mdBook as a library
//! ([`commands::build`]).

pub mod book;
pub mod commands;
pub mod core;
pub mod directive;
pub mod engine;

pub use book::protocol::{Error, NAME};
pub use commands::preprocess::Companion;
