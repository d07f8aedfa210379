//! What a `check` run observed, kept when it leaves `companion.lock`
//! alone ([`super::observed()`], for `drift`): the lock it would have written,
//! its checker (whose cache and memo hold every observation), and where
//! each assembly panel stands. `drift` compares it with the committed
//! lock.

use crate::book::resolve::Placed;
use mdbook_companion_core::config::Config;
use mdbook_companion_engine::check::Checker;
use mdbook_companion_engine::lock::Lock;

/// What a run observed.
#[derive(Debug)]
pub struct Observed {
    /// The lock this run's results make (not written).
    pub lock: Lock,
    /// The run's checker: its observations, versions and counters.
    pub checker: Checker,
    /// Where each assembly panel of the run stands.
    pub placed: Vec<Placed>,
    /// The configuration the run checked with (`rustc` is the
    /// toolchain's, when one was given).
    pub config: Config,
    /// The book's own `rustc` (before `--toolchain`).
    pub book_rustc: String,
}
