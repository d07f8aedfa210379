//! The languages a block can be written in, and everything that follows
//! from the language: its fence name, the name a reader sees, the compiler
//! that builds it, how its hidden lines are marked, and its Compiler
//! Explorer language and compiler. One enum, read by the directives,
//! `check`, `verify` and `asm` alike: Rust, C and C++ by name, the
//! languages of programs as rows of data ([`crate::languages`]).

use crate::code;
use crate::config::Config;
use crate::languages::{self, Language};
use crate::sanitize::Sanitizer;

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

/// The kind of block a language's code makes: what a side in it is.
/// A new language falls into one of them; the places that read its
/// kind need no change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    /// Rust: rustdoc's rules (hidden `# ` lines, doctest attributes, the
    /// Playground, the book's crates, rustc's diagnostics); a side is an
    /// example.
    Rustdoc,
    /// C and C++: compiled by the book's `cc`, with its flags and
    /// sanitizers; hidden lines marked with `c-hidden-prefix`.
    Native,
    /// A language of programs, a row of data ([`Language`]).
    Program,
}

/// How a language's functions are named in its shown code and in its
/// assembly listing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Symbols {
    /// C and a language of programs: a function is `name(` in the code
    /// and `name` in the listing.
    Plain,
    /// C++: `name(` in the code, Itanium-mangled in the listing.
    Itanium,
    /// Rust: `fn name` in the code, rustc's mangling (legacy or v0) in
    /// the listing, operands included.
    Rust,
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

    /// The kind of block its code makes.
    pub fn family(self) -> Family {
        match self {
            Lang::Rust => Family::Rustdoc,
            Lang::C | Lang::Cpp => Family::Native,
            Lang::Program(_) => Family::Program,
        }
    }

    /// Whether its blocks follow rustdoc's rules: hidden `# ` lines,
    /// doctest attributes, the Playground, the book's crates, rustc's
    /// diagnostics; a side in it is an example.
    pub fn follows_rustdoc(self) -> bool {
        self.family() == Family::Rustdoc
    }

    /// The file its program is written to for a check, which its
    /// compiler's messages name (`cc` picks C++ by the `.cpp` name).
    pub fn source_file(self) -> &'static str {
        match self {
            Lang::C => "main.c",
            Lang::Cpp => "main.cpp",
            Lang::Rust => "main.rs",
            Lang::Program(l) => l.file,
        }
    }

    /// The file its assembly listing is compiled from (the compile
    /// command names it, so it is part of the listing's cache key).
    pub fn asm_file(self) -> &'static str {
        match self {
            Lang::C => "block.c",
            Lang::Cpp => "block.cpp",
            Lang::Rust => "block.rs",
            Lang::Program(l) => l.file,
        }
    }

    /// Whether `line` of its code is hidden from the reader: rustdoc's
    /// `# ` (not `##`), the book's `c-hidden-prefix`; a row hides none.
    pub fn hides(self, line: &str, config: &Config) -> bool {
        let rest = line.trim_start();
        let prefix = &config.c_hidden_prefix;
        match self.family() {
            Family::Rustdoc => code::rust_hides(line),
            Family::Native => rest.starts_with(prefix) || rest.trim_end() == prefix.trim_end(),
            Family::Program => false,
        }
    }

    /// How its functions are named in its code and its assembly.
    pub fn symbols(self) -> Symbols {
        match self {
            Lang::Rust => Symbols::Rust,
            Lang::Cpp => Symbols::Itanium,
            Lang::C | Lang::Program(_) => Symbols::Plain,
        }
    }

    /// The sanitizers its programs may take: every one for C and C++,
    /// Memcheck alone for Rust (the others need a nightly compiler), none
    /// for a row.
    pub fn sanitizers(self) -> &'static [Sanitizer] {
        match self.family() {
            Family::Native => &Sanitizer::ALL,
            Family::Rustdoc => &[Sanitizer::Memcheck],
            Family::Program => &[],
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
    fn hidden_lines_follow_each_family_s_rule() {
        let config = Config::from_json("/b".into(), &serde_json::json!({})).unwrap();
        let hidden = |lang: Lang| {
            [
                "# let x = 1;",
                "#",
                "  # y",
                "##[derive]",
                "#[derive]",
                "~ int x;",
                "x",
            ]
            .into_iter()
            .filter(|l| lang.hides(l, &config))
            .collect::<Vec<_>>()
        };
        assert_eq!(hidden(Lang::Rust), ["# let x = 1;", "#", "  # y"]);
        assert_eq!(hidden(Lang::Cpp), ["~ int x;"]);
        assert_eq!(hidden(Lang::GO), Vec::<&str>::new());
        assert_eq!(Lang::Cpp.source_file(), "main.cpp");
        assert_eq!(Lang::GO.asm_file(), "main.go");
    }

    #[test]
    fn go_shows_its_assembly_and_python_does_not() {
        assert!(Lang::C.has_asm() && Lang::Rust.has_asm() && Lang::GO.has_asm());
        assert!(!Lang::PYTHON.has_asm());
    }
}
