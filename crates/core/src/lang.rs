//! The languages a block can be written in, and everything that follows
//! from the language: its fence name, the name a reader sees, the compiler
//! that builds it, how its hidden lines are marked, and its Compiler
//! Explorer language and compiler. One enum, read by the directives,
//! `check`, `verify` and `asm` alike: Rust, C and C++ by name, the
//! languages of programs as rows of data ([`crate::languages`]).

use crate::code;
use crate::config::Config;
use crate::languages::{self, Language};

/// A language of a code block.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Lang {
    /// Rust, compiled with `rustc`; hidden lines marked `# `, as in mdBook.
    Rust,
    /// C, compiled with `cc`; hidden lines marked with `c-hidden-prefix`.
    C,
    /// C++, compiled with `cc` as C++ (`.cpp`, linked with libstdc++);
    /// hidden lines as in C.
    Cpp,
    /// A language of programs described by a row: Python and Go built
    /// in, others declared by the book.
    Program(&'static Language),
}

impl serde::Serialize for Lang {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.fence())
    }
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
    /// Python, a built-in row.
    pub const PYTHON: Lang = Lang::Program(&languages::PYTHON);
    /// Go, a built-in row.
    pub const GO: Lang = Lang::Program(&languages::GO);

    /// Every built-in language, in the order messages list them.
    pub const ALL: [Lang; 5] = [Lang::C, Lang::Cpp, Lang::Rust, Lang::PYTHON, Lang::GO];

    /// The fence name (`cpp`), which is also highlight.js's name and the
    /// name reports use.
    pub fn fence(self) -> &'static str {
        match self {
            Lang::C => "c",
            Lang::Cpp => "cpp",
            Lang::Rust => "rust",
            Lang::Program(l) => l.name,
        }
    }

    /// The built-in language a fence name names.
    pub fn from_fence(word: &str) -> Option<Lang> {
        Lang::ALL.into_iter().find(|l| l.fence() == word)
    }

    /// The language a fence name names in a book: built in, or declared
    /// by it.
    pub fn in_book(word: &str, config: &Config) -> Option<Lang> {
        Lang::from_fence(word).or_else(|| {
            config
                .languages
                .iter()
                .find(|l| l.name == word)
                .map(|l| Lang::Program(l))
        })
    }

    /// The fence names of every language of a book, for messages: `c,
    /// cpp, rust, python, go` and the book's own.
    pub fn known(config: &Config) -> String {
        Lang::ALL
            .map(Lang::fence)
            .into_iter()
            .chain(config.languages.iter().map(|l| l.name))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The name a reader sees.
    pub fn label(self) -> &'static str {
        match self {
            Lang::C => "C",
            Lang::Cpp => "C++",
            Lang::Rust => "Rust",
            Lang::Program(l) => l.label,
        }
    }

    /// The row of a language of programs.
    pub fn program(self) -> Option<&'static Language> {
        match self {
            Lang::Program(l) => Some(l),
            Lang::C | Lang::Cpp | Lang::Rust => None,
        }
    }

    /// Whether its code can show its assembly: C, C++ and Rust, and a
    /// language of programs whose row says how ([`Language::asm`]).
    pub fn has_asm(self) -> bool {
        self.program().is_none_or(|l| l.asm.is_some())
    }

    /// The configured compiler that compiles it (a language of programs
    /// names its own commands).
    pub fn compiler(self) -> Option<Compiler> {
        match self {
            Lang::Rust => Some(Compiler::Rustc),
            Lang::C | Lang::Cpp => Some(Compiler::Cc),
            Lang::Program(_) => None,
        }
    }

    /// The key of book.toml that names the command a claim in it needs
    /// (`rustc`, `cc`, `languages.js.run`; empty for a built-in row).
    pub fn key(self) -> &'static str {
        match (self.compiler(), self.program()) {
            (Some(c), _) => c.key(),
            (None, Some(l)) => l.key,
            (None, None) => "",
        }
    }

    /// The command whose version decides a claim's verdict: the
    /// configured compiler, or the first word of a row's commands.
    pub fn tool(self, config: &Config) -> &str {
        match (self.compiler(), self.program()) {
            (Some(c), _) => c.command(config),
            (None, Some(l)) => l.tool(),
            (None, None) => "",
        }
    }

    /// The code as written split into what the reader sees and the whole
    /// source (hidden lines included, their markers removed): `(shown, full)`.
    pub fn split_hidden(self, code: &str, config: &Config) -> (String, String) {
        match self {
            Lang::Rust => (code::rust_shown(code), code::rust_source(code)),
            Lang::C | Lang::Cpp => code::c_split(code, &config.c_hidden_prefix),
            Lang::Program(_) => (code.to_owned(), code.to_owned()),
        }
    }

    /// Compiler Explorer's language id and the configured compiler id, for
    /// the languages Compiler Explorer sessions are made for.
    pub fn compiler_explorer(self, config: &Config) -> Option<(&'static str, &str)> {
        match self {
            Lang::C => Some(("c", &config.c_compiler)),
            Lang::Cpp => Some(("c++", &config.cpp_compiler)),
            Lang::Rust => Some(("rust", &config.rust_compiler)),
            Lang::Program(l) => l.explorer,
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
        let config = Config::from_json("/b".into(), &serde_json::json!({})).unwrap();
        assert_eq!(Lang::known(&config), "c, cpp, rust, python, go");
    }

    #[test]
    fn compiled_languages_name_their_config_key() {
        assert_eq!(Lang::Rust.compiler().map(Compiler::key), Some("rustc"));
        assert_eq!(Lang::C.compiler().map(Compiler::key), Some("cc"));
        assert_eq!(Lang::Cpp.compiler().map(Compiler::key), Some("cc"));
        assert_eq!(Lang::PYTHON.compiler(), None);
    }

    #[test]
    fn go_shows_its_assembly_and_python_does_not() {
        assert!(Lang::C.has_asm() && Lang::Rust.has_asm() && Lang::GO.has_asm());
        assert!(!Lang::PYTHON.has_asm());
    }
}
