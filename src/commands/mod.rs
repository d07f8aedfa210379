//! The commands: [`preprocess`] (mdBook's protocol on stdin and stdout),
//! [`check`], [`adopt`], [`init`], [`install`], [`build`] and
//! [`exercises`], and the
//! guard every command that writes an author's file goes through
//! ([`author`]). `main.rs` only parses arguments
//! and calls these.

pub mod adopt;
pub mod author;
pub mod build;
pub mod check;
pub mod drift;
pub mod exercises;
pub mod init;
pub mod install;
pub mod preprocess;
