//! A library a course book teaches with.

/// Twice `x`; panics on overflow in debug builds, as `*` does.
pub fn double(x: i32) -> i32 {
    x * 2
}

/// A point on a grid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Point {
    /// Across.
    pub x: i32,
    /// Down.
    pub y: i32,
}
