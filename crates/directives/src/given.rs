//! What a fence's attributes said, typed ([`Given`]), as
//! `reader::Reader` reads them through their declaration: what
//! ripgrep's `LowArgs` is to its flags.

use crate::asmspec::AsmSpec;
use crate::facts::Reference;
use mdbook_companion_core::expect::Expect;
use mdbook_companion_core::links::Mode;
use mdbook_companion_core::sanitize::Sanitize;

/// How the sides of a comparison are laid out on an HTML page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// Side by side, stacking on narrow screens.
    Columns,
    /// One side at a time, chosen by tabs.
    Tabs,
}

/// What a fence's attributes said, typed; `None` where it said nothing
/// (the parser knows its default). Offsets are the chapter's, at the
/// attribute, for messages about how attributes combine.
#[derive(Debug, Default)]
pub struct Given {
    /// `title=`.
    pub title: Option<String>,
    /// `caption=` (a comparison's side).
    pub caption: Option<String>,
    /// `src=` (a quiz's file).
    pub src: Option<(String, usize)>,
    /// `id=`: the anchor, where it stands.
    pub id: Option<(String, usize)>,
    /// `at=`: the talk's moment.
    pub at: Option<Reference>,
    /// `expect=`, or one of rustdoc's outcome flags.
    pub expect: Option<(Expect, usize)>,
    /// `error=` (or rustdoc's `E0381`).
    pub error: Option<(String, usize)>,
    /// `edition=` (or rustdoc's `edition2021`).
    pub edition: Option<u16>,
    /// `mode=`.
    pub mode: Option<Mode>,
    /// `layout=`.
    pub layout: Option<Layout>,
    /// `asm`, `asm-syntax=`, `flags=`, `warnings=`.
    pub spec: AsmSpec,
    /// `playground=`.
    pub playground: Option<bool>,
    /// `compiler-explorer=`.
    pub compiler_explorer: Option<bool>,
    /// `ignore`.
    pub ignore: Option<bool>,
    /// mdBook's flags, passed through as they are.
    pub mdbook_flags: Vec<String>,
    /// `sanitize=`.
    pub sanitize: Option<(Sanitize, usize)>,
    /// `line=`.
    pub line: Option<(usize, usize)>,
}
