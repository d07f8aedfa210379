//! The attributes of every kind of block: [`TABLE`] (names and values,
//! for messages with "did you mean", checked against the guide's tables),
//! and the runnable Rust snippet's (an example, a comparison side, a
//! quiz's program) `ATTRIBUTES`, in the order messages list them, that
//! the parser in `runnable.rs` dispatches through and the hints for
//! near-miss fences (`hint.rs`) read; and the one reader of a C or C++
//! snippet's attributes (`c_code`), a comparison side's and a quiz
//! program's.

use crate::asmspec::AsmSpec;
use mdbook_companion_core::attrs::Attr;
use mdbook_companion_core::expect::Expect;
use mdbook_companion_core::lang::Lang;
use mdbook_companion_core::markdown::Fence;
use mdbook_companion_core::problem::Problem;
use mdbook_companion_core::sanitize::Sanitize;
use mdbook_companion_core::values::Attrs;

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

/// One attribute of a kind of block: its name and the values it takes
/// (none listed: any value of its type, a string or a flag).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Attribute {
    /// The name in the info string (`sanitize`).
    pub name: &'static str,
    /// The words it takes (`address`, `thread`, …), or none for any.
    pub values: &'static [&'static str],
}

/// The attributes of one kind of block.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Block {
    /// The kind of block, as messages and the guide name it (`c side`).
    pub block: &'static str,
    /// The guide's page whose table lists them.
    pub page: &'static str,
    /// Its attributes, in the order messages list them.
    pub attributes: &'static [Attribute],
}

const fn a(name: &'static str, values: &'static [&'static str]) -> Attribute {
    Attribute { name, values }
}

const RUST_EXPECT: &[&str] = &["run", "panic", "compile-fail", "no-run"];
const C_EXPECT: &[&str] = &["compile", "run", "ub"];
const PROGRAM_EXPECT: &[&str] = &["run", "panic", "compile", "compile-fail"];
const QUIZ_C_EXPECT: &[&str] = &["run", "compile-fail", "ub"];
const EDITIONS: &[&str] = &["2015", "2018", "2021", "2024"];
const MODES: &[&str] = &["debug", "release"];
const SANITIZE: &[&str] = &["address", "thread", "undefined", "memcheck"];
const ASM: &[&str] = &["true", "false", "graph"];
const ASM_SYNTAX: &[&str] = &["intel", "att"];
const WARNINGS: &[&str] = &["none"];

/// A Rust snippet's attributes ([`ATTRIBUTES`], with their values).
macro_rules! rust_snippet {
    ($($extra:expr),*) => {
        &[
            a("title", &[]),
            a("id", &[]),
            a("expect", RUST_EXPECT),
            a("error", &[]),
            a("edition", EDITIONS),
            a("mode", MODES),
            a("asm", ASM),
            a("asm-syntax", ASM_SYNTAX),
            a("warnings", WARNINGS),
            a("playground", &[]),
            a("compiler-explorer", &[]),
            a("editable", &[]),
            a("ignore", &[]),
            a("noplayground", &[]),
            a("noplaypen", &[]),
            a("mdbook-runnable", &[]),
            a("hidelines", &[]),
            a("should_panic", &[]),
            a("compile_fail", &[]),
            a("no_run", &[]),
            a("sanitize", &["memcheck"]),
            $($extra),*
        ]
    };
}

/// A C or C++ snippet's own attributes (a side's and a quiz program's).
const C_CODE: [Attribute; 5] = [
    a("sanitize", SANITIZE),
    a("asm", ASM),
    a("asm-syntax", ASM_SYNTAX),
    a("flags", &[]),
    a("warnings", WARNINGS),
];

/// Every kind of block that takes attributes, and what each takes: the
/// messages for an unknown attribute ([`names`], [`hint`]) list them from here,
/// and the guide's attribute tables are checked against it.
pub const TABLE: &[Block] = &[
    Block {
        block: "rust example",
        page: "examples.md",
        attributes: rust_snippet!(a("at", &[])),
    },
    Block {
        block: "compare",
        page: "comparisons.md",
        attributes: &[
            a("title", &[]),
            a("id", &[]),
            a("at", &[]),
            a("layout", &["columns", "tabs"]),
            a("asm", ASM),
        ],
    },
    Block {
        block: "rust side",
        page: "comparisons.md",
        attributes: rust_snippet!(a("caption", &[])),
    },
    Block {
        block: "c side",
        page: "comparisons.md",
        attributes: &[
            a("caption", &[]),
            a("id", &[]),
            a("expect", C_EXPECT),
            a("ignore", &[]),
            C_CODE[0],
            C_CODE[1],
            C_CODE[2],
            C_CODE[3],
            C_CODE[4],
        ],
    },
    Block {
        block: "program side",
        page: "comparisons.md",
        attributes: &[
            a("caption", &[]),
            a("id", &[]),
            a("expect", PROGRAM_EXPECT),
            a("error", &[]),
            a("asm", &["true", "false"]),
            a("ignore", &[]),
        ],
    },
    Block {
        block: "quiz",
        page: "quizzes.md",
        attributes: &[a("title", &[]), a("id", &[]), a("src", &[])],
    },
    Block {
        block: "quiz's rust program",
        page: "quizzes.md",
        attributes: rust_snippet!(a("line", &[])),
    },
    Block {
        block: "quiz's c program",
        page: "quizzes.md",
        attributes: &[
            a("expect", QUIZ_C_EXPECT),
            a("line", &[]),
            C_CODE[0],
            C_CODE[1],
            C_CODE[2],
            C_CODE[3],
            C_CODE[4],
        ],
    },
    Block {
        block: "exercise",
        page: "exercises.md",
        attributes: &[
            a("title", &[]),
            a("id", &[]),
            a("edition", EDITIONS),
            a("mode", MODES),
        ],
    },
];

/// The attributes of `block` (a name of [`TABLE`]).
pub fn of(block: &str) -> &'static [Attribute] {
    TABLE
        .iter()
        .find(|b| b.block == block)
        .map_or(&[], |b| b.attributes)
}

/// The names `block` takes, joined for "expected one of".
pub fn names(block: &str) -> String {
    let names: Vec<&str> = of(block).iter().map(|a| a.name).collect();
    names.join(", ")
}

/// `; did you mean `NAME`?` when `key` is a few edits from an attribute
/// `block` takes (`sanitise` for `sanitize`), else nothing.
pub fn hint(block: &str, key: &str) -> String {
    let names: Vec<&str> = of(block).iter().map(|a| a.name).collect();
    mdbook_companion_core::values::did_you_mean(key, &names)
}

/// A kind of C or C++ snippet: a comparison's side or a quiz's program.
#[derive(Debug, Clone, Copy)]
pub(crate) struct CKind {
    /// Its name in [`TABLE`] (`c side`): the attributes it takes.
    pub(crate) block: &'static str,
    /// What messages call it, around the fence's language: ("a ", " side")
    /// says "on a `c` side".
    pub(crate) called: (&'static str, &'static str),
    /// The values `expect=` takes, and what each means.
    pub(crate) expects: &'static [(&'static str, Expect)],
    /// The outcome without `expect=`.
    pub(crate) default: Expect,
}

/// What a C or C++ snippet's own attributes say.
#[derive(Debug, Clone)]
pub(crate) struct CCode {
    /// `expect=`, or the kind's default.
    pub(crate) expect: Expect,
    /// `ignore` (only where the kind takes it).
    pub(crate) ignore: bool,
    /// The assembly attributes and `flags`.
    pub(crate) spec: AsmSpec,
    /// `sanitize=`, checked against the outcome.
    pub(crate) sanitize: Sanitize,
}

/// Reads the attributes `list` of a C or C++ snippet of `kind` (those
/// it shares with other snippets, `caption`, `id`, `line`, already taken
/// out): each value once, read and checked as every C or C++ snippet
/// reads it, located at its attribute; an attribute `kind` does not take
/// names those it does. `spec` starts with what was read before (an
/// ```asm block).
pub(crate) fn c_code(
    fence: &Fence,
    list: &[Attr],
    lang: Lang,
    kind: CKind,
    mut spec: AsmSpec,
) -> Result<CCode, Problem> {
    let mut a = Attrs::new(fence);
    let mut expect = kind.default;
    let mut ignore = false;
    let mut sanitize = Sanitize::NONE;
    let mut sanitize_at = fence.info_offset;
    let takes_ignore = of(kind.block).iter().any(|at| at.name == "ignore");
    for attr in list {
        let key = attr.key.as_str();
        a.once(attr, key)?;
        match key {
            "expect" => expect = a.choice(attr, kind.expects)?,
            "ignore" if takes_ignore => ignore = a.boolean(attr)?,
            "sanitize" => {
                sanitize = Sanitize::read(&a, attr, lang)?;
                sanitize_at = fence.info_offset + attr.offset;
            }
            _ if spec.attribute(&a, attr, true)? => {}
            _ => {
                let (before, after) = kind.called;
                return Err(a.problem(
                    attr,
                    format!(
                        "found unknown attribute `{key}` on {before}`{}`{after}; expected one of {}{}",
                        lang.fence(),
                        names(kind.block),
                        hint(kind.block, key)
                    ),
                ));
            }
        }
    }
    sanitize.fits(expect, sanitize_at)?;
    Ok(CCode {
        expect,
        ignore,
        spec,
        sanitize,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table's Rust snippets take what the parser dispatches through.
    #[test]
    fn the_table_holds_what_the_parsers_take() {
        let rust: Vec<&str> = ATTRIBUTES
            .iter()
            .filter(|(_, s)| *s != Slot::At)
            .map(|(n, _)| *n)
            .collect();
        for (block, extra) in [
            ("rust example", "at"),
            ("rust side", "caption"),
            ("quiz's rust program", "line"),
        ] {
            let names: Vec<&str> = of(block).iter().map(|a| a.name).collect();
            assert_eq!(names, [rust.clone(), vec![extra]].concat(), "{block}");
        }
        let words = |c: &[(&'static str, Expect)]| c.iter().map(|(w, _)| *w).collect::<Vec<_>>();
        assert_eq!(RUST_EXPECT, words(&Expect::RUST_CHOICES));
        assert_eq!(C_EXPECT, words(&Expect::C_CHOICES));
        assert_eq!(PROGRAM_EXPECT, words(&Expect::PROGRAM_CHOICES));
        let sanitizers: Vec<&str> = mdbook_companion_core::sanitize::Sanitizer::ALL
            .iter()
            .map(|c| c.value())
            .collect();
        assert_eq!(SANITIZE, sanitizers);
    }

    #[test]
    fn a_near_name_is_suggested() {
        assert_eq!(hint("c side", "sanitise"), "; did you mean `sanitize`?");
        assert_eq!(hint("exercise", "titel"), "; did you mean `title`?");
        assert_eq!(hint("program side", "colour"), "");
        assert_eq!(hint("program side", "expext"), "; did you mean `expect`?");
    }
}
