//! The attributes of every kind of block, each declared once (as ripgrep
//! declares each flag once in `flags/defs.rs`): an [`Attribute`] is a
//! name, the type of its value (a flag, a string, a choice from a typed
//! table such as [`Expect::RUST_CHOICES`], …) and its default; a
//! [`BlockKind`] lists the attributes it takes, in the order messages list
//! them. The parsers read a fence's attributes through that declaration
//! (`reader::Reader`: each value read and checked once, by its type, into
//! [`Given`]) and act on the typed values; "expected one of", "did
//! you mean", the hints for near-miss fences (`hint.rs`) and the check of
//! the guide's attribute tables read the same declaration.

use mdbook_companion_core::config::EDITIONS;
use mdbook_companion_core::expect::Expect;
use mdbook_companion_core::lang::Lang;
use mdbook_companion_core::links::Mode;
use mdbook_companion_core::machine::Syntax;

pub use crate::given::{Given, Layout};

/// The values `layout=` takes.
pub const LAYOUTS: [(&str, Layout); 2] = [("columns", Layout::Columns), ("tabs", Layout::Tabs)];

/// The values `mode=` takes.
pub const MODES: [(&str, Mode); 2] = [("debug", Mode::Debug), ("release", Mode::Release)];

/// The values `expect=` takes on a quiz's C or C++ program.
pub const QUIZ_C_CHOICES: [(&str, Expect); 3] = [
    ("run", Expect::Run),
    ("ub", Expect::Ub),
    ("compile-fail", Expect::CompileFail),
];

/// The value an attribute takes, and so how it is read
/// (`reader::Reader`) and where it goes in [`Given`].
#[derive(Clone, Copy)]
pub enum Value {
    /// `name`, `name=true` or `name=false`, into the field given.
    Flag(fn(&mut Given) -> &mut Option<bool>),
    /// A string, into the field given.
    Text(fn(&mut Given) -> &mut Option<String>),
    /// A quiz's file (a string, with where it stands).
    Src,
    /// An anchor (`numbering::parse_id`).
    Id,
    /// A talk's moment (`at="12:30"`), resolved by the book.
    Moment,
    /// One of the outcomes of a typed table.
    Expect(&'static [(&'static str, Expect)]),
    /// One of rustdoc's outcome flags (`should_panic`), setting `expect`.
    Outcome(Expect),
    /// A rustc error code (`E0381`).
    ErrorCode,
    /// Words a compiler's message holds (a program side's `error`).
    Pattern,
    /// A Rust edition ([`EDITIONS`]).
    Edition,
    /// Debug or release ([`MODES`]).
    Mode,
    /// A comparison's layout ([`LAYOUTS`]).
    Layout,
    /// The assembly panel (`asm`, `asm=false`, `asm=graph`).
    Panel,
    /// The assembly's syntax.
    Syntax,
    /// A C or C++ snippet's own compiler flags.
    CcFlags,
    /// `warnings=none`.
    Warnings,
    /// The checkers that watch the run, those the snippet's language
    /// takes ([`Lang::sanitizers`]).
    Sanitize(Lang),
    /// One of mdBook's flags, passed through.
    MdBook,
    /// mdBook's `hidelines=`, passed through.
    HideLines,
    /// A line number from 1 (a quiz program's first error).
    Line,
}

impl Value {
    /// The words it takes, for the guide's tables (none: any value of its
    /// type).
    pub fn words(&self) -> Vec<String> {
        fn words<T>(choices: &[(&str, T)]) -> Vec<String> {
            choices.iter().map(|(w, _)| (*w).to_owned()).collect()
        }
        let names = |names: &[&str]| names.iter().map(|n| (*n).to_owned()).collect();
        match self {
            Value::Expect(choices) => words(choices),
            Value::Mode => words(&MODES),
            Value::Layout => words(&LAYOUTS),
            Value::Edition => EDITIONS.map(|e| e.to_string()).to_vec(),
            Value::Panel => names(&["true", "false", "graph"]),
            Value::Syntax => names(&[Syntax::Intel, Syntax::Att].map(Syntax::name)),
            Value::Warnings => names(&["none"]),
            Value::Sanitize(lang) => lang
                .sanitizers()
                .iter()
                .map(|c| c.value().to_owned())
                .collect(),
            _ => Vec::new(),
        }
    }
}

/// Who an attribute belongs to: ours, or mdBook's and rustdoc's, which a
/// Rust example accepts so that an existing book keeps working.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Owner {
    /// One of ours (`title`, `asm`).
    Ours,
    /// mdBook's (`editable`, `ignore`, `hidelines`).
    MdBook,
    /// rustdoc's outcome flags (`should_panic`).
    Rustdoc,
}

/// One attribute: its name, its value's type and its default.
#[derive(Clone, Copy)]
pub struct Attribute {
    /// The name in the info string (`sanitize`).
    pub name: &'static str,
    /// What its value is.
    pub value: Value,
    /// The value without the attribute, where it is one of its words:
    /// `reader::Reader::finish` reads it as the author's word would be,
    /// and the guide marks it "(default)".
    pub default: Option<&'static str>,
    /// Whose attribute it is.
    pub owner: Owner,
}

impl std::fmt::Debug for Attribute {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

const fn ours(name: &'static str, value: Value) -> Attribute {
    Attribute {
        name,
        value,
        default: None,
        owner: Owner::Ours,
    }
}

const fn mdbook(name: &'static str, value: Value) -> Attribute {
    Attribute {
        owner: Owner::MdBook,
        ..ours(name, value)
    }
}

const fn rustdoc(name: &'static str, expect: Expect) -> Attribute {
    Attribute {
        owner: Owner::Rustdoc,
        ..ours(name, Value::Outcome(expect))
    }
}

const fn defaults(default: &'static str, a: Attribute) -> Attribute {
    Attribute {
        default: Some(default),
        ..a
    }
}

const TITLE: Attribute = ours("title", Value::Text(|g| &mut g.title));
const CAPTION: Attribute = ours("caption", Value::Text(|g| &mut g.caption));
const SRC: Attribute = ours("src", Value::Src);
const ID: Attribute = ours("id", Value::Id);
const AT: Attribute = ours("at", Value::Moment);
const LAYOUT: Attribute = defaults("columns", ours("layout", Value::Layout));
const EXPECT_RUST: Attribute =
    defaults("run", ours("expect", Value::Expect(&Expect::RUST_CHOICES)));
const EXPECT_C: Attribute = defaults("compile", ours("expect", Value::Expect(&Expect::C_CHOICES)));
const EXPECT_PROGRAM: Attribute = ours("expect", Value::Expect(&Expect::PROGRAM_CHOICES));
const EXPECT_QUIZ_C: Attribute = defaults("run", ours("expect", Value::Expect(&QUIZ_C_CHOICES)));
const ERROR_CODE: Attribute = ours("error", Value::ErrorCode);
const ERROR_WORDS: Attribute = ours("error", Value::Pattern);
const EDITION: Attribute = ours("edition", Value::Edition);
const MODE: Attribute = defaults("debug", ours("mode", Value::Mode));
const ASM: Attribute = ours("asm", Value::Panel);
const ASM_SYNTAX: Attribute = ours("asm-syntax", Value::Syntax);
const WARNINGS: Attribute = ours("warnings", Value::Warnings);
const FLAGS: Attribute = ours("flags", Value::CcFlags);
const PLAYGROUND: Attribute = ours("playground", Value::Flag(|g| &mut g.playground));
const COMPILER_EXPLORER: Attribute = ours(
    "compiler-explorer",
    Value::Flag(|g| &mut g.compiler_explorer),
);
const IGNORE: Attribute = mdbook("ignore", Value::Flag(|g| &mut g.ignore));
const EDITABLE: Attribute = mdbook("editable", Value::MdBook);
const NOPLAYGROUND: Attribute = mdbook("noplayground", Value::MdBook);
const NOPLAYPEN: Attribute = mdbook("noplaypen", Value::MdBook);
const MDBOOK_RUNNABLE: Attribute = mdbook("mdbook-runnable", Value::MdBook);
const HIDELINES: Attribute = mdbook("hidelines", Value::HideLines);
const SHOULD_PANIC: Attribute = rustdoc("should_panic", Expect::Panic);
const COMPILE_FAIL: Attribute = rustdoc("compile_fail", Expect::CompileFail);
const NO_RUN: Attribute = rustdoc("no_run", Expect::NoRun);
const SANITIZE_RUST: Attribute = ours("sanitize", Value::Sanitize(Lang::Rust));
const SANITIZE: Attribute = ours("sanitize", Value::Sanitize(Lang::C));
const LINE: Attribute = ours("line", Value::Line);

/// A Rust snippet's attributes, followed by the one its kind adds.
macro_rules! rust_snippet {
    ($extra:expr) => {
        &[
            &TITLE,
            &ID,
            &EXPECT_RUST,
            &ERROR_CODE,
            &EDITION,
            &MODE,
            &ASM,
            &ASM_SYNTAX,
            &WARNINGS,
            &PLAYGROUND,
            &COMPILER_EXPLORER,
            &EDITABLE,
            &IGNORE,
            &NOPLAYGROUND,
            &NOPLAYPEN,
            &MDBOOK_RUNNABLE,
            &HIDELINES,
            &SHOULD_PANIC,
            &COMPILE_FAIL,
            &NO_RUN,
            &SANITIZE_RUST,
            $extra,
        ]
    };
}

/// How a message lists the attributes a kind of block takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Listing {
    /// "expected one of a, b, c".
    OneOf,
    /// "expected a, b or c".
    Or,
    /// A Rust snippet's: its attributes but the last, rustdoc's edition
    /// spellings, then the words given (the last attribute, told where it
    /// applies). A Rust snippet also takes rustdoc's `edition2021` and
    /// `E0381`, and one outcome however it is spelled.
    Rustdoc(&'static str),
}

/// One kind of block and the attributes it takes.
#[derive(Debug, Clone, Copy)]
pub struct BlockKind {
    /// The kind of block, as the guide's tables name it (`c side`).
    pub name: &'static str,
    /// The guide's page whose table lists its attributes.
    pub page: &'static str,
    /// Its attributes, in the order messages list them.
    pub attributes: &'static [&'static Attribute],
    /// Where an unknown attribute was found, after "found unknown
    /// attribute `x`" (`{lang}`: the fence's language).
    pub on: &'static str,
    /// How the message lists the attributes it takes.
    pub listing: Listing,
}

/// A Rust example.
pub const RUST_EXAMPLE: BlockKind = BlockKind {
    name: "rust example",
    page: "examples.md",
    attributes: rust_snippet!(&AT),
    on: "",
    listing: Listing::Rustdoc(", at"),
};

/// A compare block (its sides are kinds of their own).
pub const COMPARE: BlockKind = BlockKind {
    name: "compare",
    page: "comparisons.md",
    attributes: &[&TITLE, &ID, &AT, &LAYOUT, &ASM],
    on: "",
    listing: Listing::OneOf,
};

/// A comparison's Rust side.
pub const RUST_SIDE: BlockKind = BlockKind {
    name: "rust side",
    page: "comparisons.md",
    attributes: rust_snippet!(&CAPTION),
    on: "",
    listing: Listing::Rustdoc(", and caption on a compare side"),
};

/// A comparison's C or C++ side.
pub const C_SIDE: BlockKind = BlockKind {
    name: "c side",
    page: "comparisons.md",
    attributes: &[
        &CAPTION,
        &ID,
        &EXPECT_C,
        &IGNORE,
        &SANITIZE,
        &ASM,
        &ASM_SYNTAX,
        &FLAGS,
        &WARNINGS,
    ],
    on: " on a `{lang}` side",
    listing: Listing::OneOf,
};

/// A comparison's side in a language of programs (Python, Go, one the
/// book declares).
pub const PROGRAM_SIDE: BlockKind = BlockKind {
    name: "program side",
    page: "comparisons.md",
    attributes: &[&CAPTION, &ID, &EXPECT_PROGRAM, &ERROR_WORDS, &ASM, &IGNORE],
    on: " on a `{lang}` side",
    listing: Listing::Or,
};

/// A quiz block.
pub const QUIZ: BlockKind = BlockKind {
    name: "quiz",
    page: "quizzes.md",
    attributes: &[&TITLE, &ID, &SRC],
    on: " on the quiz",
    listing: Listing::OneOf,
};

/// A quiz's Rust program question.
pub const QUIZ_RUST: BlockKind = BlockKind {
    name: "quiz's rust program",
    page: "quizzes.md",
    attributes: rust_snippet!(&LINE),
    on: "",
    listing: Listing::Rustdoc(", and line on a quiz's program"),
};

/// A quiz's C or C++ program question.
pub const QUIZ_C: BlockKind = BlockKind {
    name: "quiz's c program",
    page: "quizzes.md",
    attributes: &[
        &EXPECT_QUIZ_C,
        &LINE,
        &SANITIZE,
        &ASM,
        &ASM_SYNTAX,
        &FLAGS,
        &WARNINGS,
    ],
    on: " on a quiz's `{lang}` program",
    listing: Listing::OneOf,
};

/// An exercise block.
pub const EXERCISE: BlockKind = BlockKind {
    name: "exercise",
    page: "exercises.md",
    attributes: &[&TITLE, &ID, &EDITION, &MODE],
    on: "",
    listing: Listing::OneOf,
};

/// Every kind of block that takes attributes: the messages for an unknown
/// attribute list them from here, and the guide's attribute tables are
/// checked against it.
pub const KINDS: [&BlockKind; 9] = [
    &RUST_EXAMPLE,
    &COMPARE,
    &RUST_SIDE,
    &C_SIDE,
    &PROGRAM_SIDE,
    &QUIZ,
    &QUIZ_RUST,
    &QUIZ_C,
    &EXERCISE,
];

impl BlockKind {
    /// The attribute `name`, if this kind takes it.
    pub fn get(&self, name: &str) -> Option<&'static Attribute> {
        self.attributes.iter().copied().find(|a| a.name == name)
    }

    /// The names it takes, in order.
    pub fn names(&self) -> Vec<&'static str> {
        self.attributes.iter().map(|a| a.name).collect()
    }

    /// `; did you mean `NAME`?` when `key` is a few edits from an
    /// attribute it takes (`sanitise` for `sanitize`), else nothing.
    pub fn hint(&self, key: &str) -> String {
        mdbook_companion_core::values::did_you_mean(key, &self.names())
    }

    /// What it takes, as "expected …" lists it.
    pub fn known(&self) -> String {
        let names = self.names();
        match self.listing {
            Listing::OneOf => format!("one of {}", names.join(", ")),
            Listing::Or => match names.split_last() {
                Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
                None => String::new(),
            },
            Listing::Rustdoc(last) => format!(
                "one of {}, edition2015/2018/2021/2024{last}",
                names[..names.len().saturating_sub(1)].join(", ")
            ),
        }
    }

    /// The message for `key`, which it does not take, on a fence in `lang`.
    pub fn unknown(&self, key: &str, lang: &str) -> String {
        format!(
            "found unknown attribute `{key}`{}; expected {}{}",
            self.on.replace("{lang}", lang),
            self.known(),
            self.hint(key)
        )
    }

    /// Whether it is a Rust snippet, which takes rustdoc's spellings.
    pub fn rustdoc(&self) -> bool {
        matches!(self.listing, Listing::Rustdoc(_))
    }
}

/// Whether `key=value` is one of an example's own attributes (not one
/// of mdBook's or rustdoc's): what a fence that is almost an example holds.
pub(super) fn takes_value(key: &str) -> bool {
    RUST_EXAMPLE
        .get(key)
        .is_some_and(|a| a.owner == Owner::Ours)
}

/// Whether `word` names one of an example's attributes (`asm`, `title`).
pub(super) fn is_attribute(word: &str) -> bool {
    RUST_EXAMPLE.get(word).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_near_name_is_suggested() {
        assert_eq!(C_SIDE.hint("sanitise"), "; did you mean `sanitize`?");
        assert_eq!(EXERCISE.hint("titel"), "; did you mean `title`?");
        assert_eq!(PROGRAM_SIDE.hint("colour"), "");
        assert_eq!(PROGRAM_SIDE.hint("expext"), "; did you mean `expect`?");
    }

    #[test]
    fn each_kind_lists_what_it_takes_as_its_messages_say() {
        assert_eq!(COMPARE.known(), "one of title, id, at, layout, asm");
        assert_eq!(
            PROGRAM_SIDE.known(),
            "caption, id, expect, error, asm or ignore"
        );
        assert!(
            RUST_SIDE.known().ends_with(
                "no_run, sanitize, edition2015/2018/2021/2024, and caption on a compare side"
            ),
            "{}",
            RUST_SIDE.known()
        );
        assert_eq!(
            C_SIDE.unknown("volatile", "c"),
            "found unknown attribute `volatile` on a `c` side; expected one of caption, id, expect, ignore, sanitize, asm, asm-syntax, flags, warnings"
        );
    }

    #[test]
    fn a_default_is_one_of_the_words() {
        for kind in KINDS {
            for a in kind.attributes {
                if let Some(d) = a.default {
                    assert!(
                        a.value.words().iter().any(|w| w == d),
                        "{}: {}",
                        kind.name,
                        a.name
                    );
                }
            }
        }
    }
}
