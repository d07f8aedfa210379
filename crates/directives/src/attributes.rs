//! The attributes a runnable Rust snippet knows (an example, a comparison
//! side, a quiz's program): one table, in the order messages list them,
//! that the parser in `runnable.rs` dispatches through and the hints for
//! near-miss fences (`hint.rs`) read.

/// What one of an example's attributes sets: the parser's dispatch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Slot {
    Title,
    Id,
    /// The talk's moment (an example of its own: a comparison takes it
    /// for all its sides).
    At,
    /// `expect`, or one of rustdoc's outcome flags.
    Outcome,
    Error,
    Edition,
    Mode,
    /// The assembly attributes ([`super::asmspec::AsmSpec::attribute`]).
    Asm,
    Playground,
    CompilerExplorer,
    Ignore,
    /// mdBook's flags, passed through.
    MdBook,
    HideLines,
    /// `sanitize=memcheck` ([`mdbook_companion_core::sanitize::Sanitize`]).
    Sanitize,
}

/// The attributes an example knows, in the order messages list them. The
/// parser finds an attribute's meaning here, so the message names every
/// attribute it accepts (besides the `edition2021` and `E0381` forms).
pub(super) const ATTRIBUTES: [(&str, Slot); 22] = [
    ("title", Slot::Title),
    ("id", Slot::Id),
    ("expect", Slot::Outcome),
    ("error", Slot::Error),
    ("edition", Slot::Edition),
    ("mode", Slot::Mode),
    ("asm", Slot::Asm),
    ("asm-syntax", Slot::Asm),
    ("warnings", Slot::Asm),
    ("playground", Slot::Playground),
    ("compiler-explorer", Slot::CompilerExplorer),
    ("editable", Slot::MdBook),
    ("ignore", Slot::Ignore),
    ("noplayground", Slot::MdBook),
    ("noplaypen", Slot::MdBook),
    ("mdbook-runnable", Slot::MdBook),
    ("hidelines", Slot::HideLines),
    ("should_panic", Slot::Outcome),
    ("compile_fail", Slot::Outcome),
    ("no_run", Slot::Outcome),
    ("sanitize", Slot::Sanitize),
    ("at", Slot::At),
];

/// Whether `key=value` is one of an example's own attributes (not one
/// of mdBook's flags): what a fence that is almost an example holds.
pub(super) fn takes_value(key: &str) -> bool {
    ATTRIBUTES.iter().any(|(name, slot)| {
        *name == key && !matches!(slot, Slot::MdBook | Slot::HideLines | Slot::Ignore)
    }) && !["should_panic", "compile_fail", "no_run"].contains(&key)
}

/// Whether `word` names one of an example's attributes (`asm`, `title`).
pub(super) fn is_attribute(word: &str) -> bool {
    ATTRIBUTES.iter().any(|(name, _)| *name == word)
}
