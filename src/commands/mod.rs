//! The commands: [`preprocess`] (mdBook's protocol on stdin and stdout),
//! [`check`], [`adopt`], [`install`], [`build`] and [`exercises`]. `main.rs` only parses arguments
//! and calls these.

pub mod adopt;
pub mod build;
pub mod check;
pub mod drift;
pub mod exercises;
pub mod install;
pub mod preprocess;
