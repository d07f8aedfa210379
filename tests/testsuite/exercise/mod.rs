//! Exercises: the three claims checked with the real `rustc` (merged and
//! alone), `check`'s report, the page through real mdBook, and the
//! `exercises` command's Cargo workspace run with the real `cargo`.

mod check;
mod engine;
mod page;
mod workspace;
