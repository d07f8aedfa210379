//! The stylesheet, embedded in the binary and written into books by
//! `install`. Each directive keeps its rules in its own file under
//! `assets/`; they are joined here at compile time.

/// The whole stylesheet.
pub const STYLESHEET: &str = concat!(
    include_str!("../assets/base.css"),
    "\n",
    include_str!("../assets/example.css"),
    "\n",
    include_str!("../assets/reading.css"),
);
