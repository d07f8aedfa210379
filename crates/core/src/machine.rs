//! What an assembly listing is about: the architecture a claim about it
//! holds for and the syntax it is written in.
//!
//! A listing is the machine code of the machine that builds the book, so
//! a claim about it (`CHECK: idiv`) holds for one architecture: x86_64
//! unless the block or the book names another. On any other machine it is
//! not checked there, never passed or failed. The syntax is Intel unless
//! a book or a block asks for AT&T, as Compiler Explorer shows it.

use std::fmt;

/// The architecture claims are written for unless a block or the book
/// says otherwise.
pub(crate) const DEFAULT_ARCH: &str = "x86_64";

/// The architecture of this machine, as Rust names it (`x86_64`,
/// `aarch64`).
pub fn host_arch() -> &'static str {
    std::env::consts::ARCH
}

/// True for the architectures whose assemblers take Intel or AT&T syntax.
pub fn is_x86(arch: &str) -> bool {
    matches!(arch, "x86" | "x86_64")
}

/// The assembler syntax of a listing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Syntax {
    /// `mov eax, edi` (the default, as Compiler Explorer shows it).
    #[default]
    Intel,
    /// `movl %edi, %eax`.
    Att,
}

impl Syntax {
    /// The values `asm-syntax` takes.
    pub const KNOWN: &'static str = "`\"intel\"` or `\"att\"`";

    /// The syntax named `value` (`intel`, `att`).
    pub fn parse(value: &str) -> Option<Syntax> {
        match value {
            "intel" => Some(Syntax::Intel),
            "att" => Some(Syntax::Att),
            _ => None,
        }
    }

    /// Its name as `asm-syntax` writes it.
    pub fn name(self) -> &'static str {
        match self {
            Syntax::Intel => "intel",
            Syntax::Att => "att",
        }
    }
}

impl fmt::Display for Syntax {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Known architecture names (Rust's `target_arch` values), for messages
/// and for checking `asm-arch`.
pub const ARCHES: [&str; 8] = [
    "x86_64",
    "x86",
    "aarch64",
    "arm",
    "riscv64",
    "powerpc64",
    "s390x",
    "loongarch64",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn syntax_names_round_trip() {
        for s in [Syntax::Intel, Syntax::Att] {
            assert_eq!(Syntax::parse(s.name()), Some(s));
        }
        assert_eq!(Syntax::parse("masm"), None);
        assert_eq!(Syntax::default(), Syntax::Intel);
        assert!(is_x86("x86_64") && !is_x86("aarch64"));
        assert!(ARCHES.contains(&host_arch()), "{}", host_arch());
    }
}
