//! What an assembly panel asks for and what it is given, one type each
//! for the directives that ask, the book layer that resolves and the
//! engine that compiles: a [`Request`] (the program, the code the reader
//! sees, the syntax and flags) and the [`Listing`] made from it (each
//! line with the line of the program it came from).

use crate::lang::{Compiler, Lang};
use crate::languages::Assembler;
use crate::machine::Syntax;
use serde::{Deserialize, Serialize};

/// What to compile for an assembly panel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// The language: C, C++, Rust, or a language of programs whose row
    /// says how its assembly is made ([`Lang::has_asm`]).
    pub lang: Lang,
    /// The whole program, hidden lines included.
    pub source: String,
    /// The code the reader sees; its functions are the ones kept.
    pub shown: String,
    /// The Rust edition (ignored for other languages).
    pub edition: u16,
    /// The snippet's own syntax, else the book's (`asm-syntax`; x86
    /// only: other machines have one syntax).
    pub syntax: Option<Syntax>,
    /// A C or C++ side's own compiler flags (`flags="-Wall -Wextra"`),
    /// after ours.
    pub flags: Vec<String>,
}

impl Request {
    /// The configured compiler that makes the assembly (`cc` for
    /// anything that is not Rust).
    pub fn compiler(&self) -> Compiler {
        self.lang.compiler().unwrap_or(Compiler::Cc)
    }

    /// The row's assembler, for a language of programs that has one.
    pub fn assembler(&self) -> Option<&'static Assembler> {
        self.lang.program().and_then(|row| row.asm.as_ref())
    }

    /// The name of its compiler in a lock key: the configured compiler's
    /// key, a language of programs' fence name.
    pub fn compiler_key(&self) -> &'static str {
        match self.lang.program() {
            Some(row) => row.name,
            None => self.compiler().key(),
        }
    }
}

/// A listing as the panel shows it, each line with the line of the
/// compiled program its instruction came from (0: a label, a blank line,
/// or code of no line of the block).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Listing {
    /// The text, one instruction or label per line.
    pub text: String,
    /// One source line per line of `text`, 1-based.
    pub lines: Vec<u32>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_requests_compiler_is_named_by_its_key_or_its_row() {
        let req = |lang| Request {
            lang,
            source: String::new(),
            shown: String::new(),
            edition: 2021,
            syntax: None,
            flags: Vec::new(),
        };
        assert_eq!(req(Lang::C).compiler_key(), "cc");
        assert_eq!(req(Lang::Cpp).compiler_key(), "cc");
        assert_eq!(req(Lang::Rust).compiler_key(), "rustc");
        assert_eq!(req(Lang::GO).compiler_key(), "go");
        assert!(req(Lang::GO).assembler().is_some() && req(Lang::C).assembler().is_none());
    }
}
