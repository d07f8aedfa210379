//! A stand-in for the registry's `rand`: the same names, no randomness.

/// A source of numbers.
pub trait Rng {
    /// The next number, in `low..high`.
    fn gen_range(&mut self, low: u32, high: u32) -> u32;
}

/// A generator that always says the middle of the range.
pub struct Middle;

impl Rng for Middle {
    fn gen_range(&mut self, low: u32, high: u32) -> u32 {
        low + (high - low) / 2
    }
}

/// The generator of this thread.
pub fn thread_rng() -> Middle {
    Middle
}

/// Whether the `small` feature is on (the book turns it on).
pub const SMALL: bool = cfg!(feature = "small");
