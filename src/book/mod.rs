//! The book layer: chapters ([`chapter`]), the walk over a book's chapters
//! ([`walk`]), whole chapters remembered across builds ([`memo`]), the
//! lazily decoded protocol input ([`lazy`]), mdBook's protocol
//! ([`protocol`]), and a book loaded as mdBook loads it, for `check`
//! ([`load`]) with its plain code blocks as `mdbook test` sees them
//! ([`plain`]) and what mdBook's HTML renderer would fail on
//! ([`renderer`]).

pub mod chapter;
pub mod lazy;
pub mod load;
pub mod memo;
pub mod plain;
pub mod protocol;
pub mod renderer;
pub mod resolve;
pub mod session;
pub mod tally;
pub mod translate;
pub mod verify;
pub mod walk;

pub use walk::{BookOutcome, Slot, book, build_says, chapters, chapters_among};
