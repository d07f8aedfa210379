//! The languages a block can be written in, and everything that follows
//! from the language: its fence name, the name a reader sees, the compiler
//! that builds it, how its hidden lines are marked, and its Compiler
//! Explorer language and compiler. One enum, read by the directives,
//! `check`, `verify` and `asm` alike.

use crate::code;
use crate::config::Config;
use serde::Serialize;

/// A language of a code block.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    /// Rust, compiled with `rustc`; hidden lines marked `# `, as in mdBook.
    Rust,
    /// C, compiled with `cc`; hidden lines marked with `c-hidden-prefix`.
    C,
    /// C++, compiled with `cc` as C++ (`.cpp`, linked with libstdc++);
    /// hidden lines as in C.
    Cpp,
    /// Python: shown and highlighted, never compiled.
    Python,
}

/// The compilers a book configures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Compiler {
    /// `rustc` (key `rustc`).
    Rustc,
    /// The C and C++ compiler (key `cc`).
    Cc,
}

impl Compiler {
    /// The `[preprocessor.companion]` key that names it.
    pub fn key(self) -> &'static str {
        match self {
            Compiler::Rustc => "rustc",
            Compiler::Cc => "cc",
        }
    }

    /// The command the book configured for it.
    pub fn command(self, config: &Config) -> &str {
        match self {
            Compiler::Rustc => &config.rustc,
            Compiler::Cc => &config.cc,
        }
    }
}

impl Lang {
    /// Every language, in the order messages list them.
    pub const ALL: [Lang; 4] = [Lang::C, Lang::Cpp, Lang::Rust, Lang::Python];

    /// The fence name (`cpp`), which is also highlight.js's name and the
    /// name reports use.
    pub fn fence(self) -> &'static str {
        match self {
            Lang::C => "c",
            Lang::Cpp => "cpp",
            Lang::Rust => "rust",
            Lang::Python => "python",
        }
    }

    /// The language a fence name names.
    pub fn from_fence(word: &str) -> Option<Lang> {
        Lang::ALL.into_iter().find(|l| l.fence() == word)
    }

    /// The fence names of every language, for messages: `c, cpp, rust, python`.
    pub fn known() -> String {
        Lang::ALL.map(Lang::fence).join(", ")
    }

    /// The name a reader sees.
    pub fn label(self) -> &'static str {
        match self {
            Lang::C => "C",
            Lang::Cpp => "C++",
            Lang::Rust => "Rust",
            Lang::Python => "Python",
        }
    }

    /// What compiles it, if anything does.
    pub fn compiler(self) -> Option<Compiler> {
        match self {
            Lang::Rust => Some(Compiler::Rustc),
            Lang::C | Lang::Cpp => Some(Compiler::Cc),
            Lang::Python => None,
        }
    }

    /// The code as written split into what the reader sees and the whole
    /// source (hidden lines included, their markers removed): `(shown, full)`.
    pub fn split_hidden(self, code: &str, config: &Config) -> (String, String) {
        match self {
            Lang::Rust => (code::rust_shown(code), code::rust_source(code)),
            Lang::C | Lang::Cpp => code::c_split(code, &config.c_hidden_prefix),
            Lang::Python => (code.to_owned(), code.to_owned()),
        }
    }

    /// Compiler Explorer's language id and the configured compiler id, for
    /// the languages Compiler Explorer sessions are made for.
    pub fn compiler_explorer(self, config: &Config) -> Option<(&'static str, &str)> {
        match self {
            Lang::C => Some(("c", &config.c_compiler)),
            Lang::Cpp => Some(("c++", &config.cpp_compiler)),
            Lang::Rust => Some(("rust", &config.rust_compiler)),
            Lang::Python => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fence_names_round_trip_and_are_listed() {
        for lang in Lang::ALL {
            assert_eq!(Lang::from_fence(lang.fence()), Some(lang));
        }
        assert_eq!(Lang::from_fence("java"), None);
        assert_eq!(Lang::known(), "c, cpp, rust, python");
    }

    #[test]
    fn compiled_languages_name_their_config_key() {
        assert_eq!(Lang::Rust.compiler().map(Compiler::key), Some("rustc"));
        assert_eq!(Lang::C.compiler().map(Compiler::key), Some("cc"));
        assert_eq!(Lang::Cpp.compiler().map(Compiler::key), Some("cc"));
        assert_eq!(Lang::Python.compiler(), None);
    }
}
