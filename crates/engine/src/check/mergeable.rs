//! Which claims a merged build may take ([`super::merge`]): Rust code
//! with no crate-level attribute and nothing that sees the crate's shape,
//! whose `crate::` paths can be read from its module, 2015-edition code
//! only when its paths from the crate root start with a standard crate,
//! and `extern crate` items only for crates linked with `--extern`.

use super::Checker;
use super::merge_crate::SELECT;
use mdbook_companion_core::claim::{Program, Stated};
use mdbook_companion_core::code;
use mdbook_companion_core::expect::Expect;
use mdbook_companion_core::lang::Lang;
use mdbook_companion_core::tokens::root::{RootNames, root_names};
use mdbook_companion_core::tokens::{
    crate_attributes, crate_paths_from_module, lexes_whole, paths_from_the_root_2015,
    super_outside_modules,
};

/// Words that make an example unfit for a shared crate: crate-level
/// attributes, items that live at the crate root, and macros whose value
/// shows the crate's shape. (What a program puts at the root by name,
/// exported macros and linker symbols, is told by [`at_the_root`].) A cheap pre-filter of
/// what would not compile or would read otherwise in a shared crate, no
/// more: what a merged binary runs outside its members' `main`s (which a
/// macro can make without these words) is read from the binary itself
/// ([`super::merge_reach`]).
const UNMERGEABLE: [&str; 10] = [
    "global_allocator",
    "panic_handler",
    "extern crate",
    "line!",
    "file!",
    "module_path!",
    "type_name",
    "env::vars",
    "env::var_os",
    SELECT,
];

/// Whether a claim may be compiled with others. Not code rustc's lexer
/// cannot read whole (a bracket or a string left open): rustc stops the
/// whole crate there, and every other block's diagnostics with it.
pub(super) fn mergeable(claim: &Stated<'_>) -> bool {
    claim.program.lang == Lang::Rust
        && !claim.expectation.ignore
        && !claim.expectation.no_warnings
        && claim.expectation.sanitize.is_empty()
        && (claim.program.edition >= 2018 || !paths_from_the_root_2015(&claim.program.source))
        && lexes_whole(&claim.program.source)
        && matches!(
            claim.expectation.expect,
            Expect::Run
                | Expect::Panic
                | Expect::NoRun
                | Expect::Ub
                | Expect::StarterCompiles
                | Expect::StarterFails
                | Expect::SolutionPasses
        )
        && match claim.expectation.expect.tests() {
            // An exercise's `use super::*;` is ours, and inside a member's
            // module it means what it means alone.
            true => mergeable_code(&claim.program.source.replacen(code::TESTS_OPEN, "", 1)),
            false => mergeable_code(&claim.program.source),
        }
}

/// Whether a program's code may share a crate with others (no
/// crate-level attribute, nothing that sees the crate's shape).
pub(super) fn mergeable_code(source: &str) -> bool {
    // A shebang, blanked as rustc reads it, in a member's file as alone
    // ([`super::merge_crate::member_source`]).
    let blanked = mdbook_companion_core::doctest::shebang_blanked(source);
    let source = blanked.as_deref().unwrap_or(source);
    !UNMERGEABLE.iter().any(|w| source.contains(w))
        && (!source.contains("crate::") || crate_paths_from_module(source).is_some())
        && !mdbook_companion_core::doctest::shebang(source)
        && !mdbook_companion_core::doctest::foreign_main(source)
        && crate_attributes(source)
            .iter()
            .all(|a| module_lint(a) || inert(a))
        && !super_outside_modules(source)
        && at_the_root(source).is_some()
}

/// The words that put a name at a crate's root ([`root_names`]).
const ROOT_WORDS: [&str; 4] = ["macro_export", "$crate", "no_mangle", "export_name"];

/// What a program's code puts at its crate's root by name
/// ([`root_names`]: exported macros, linker symbols), when a shared crate
/// may take it: it reaches none of them from its own code, and no symbol
/// is one a library the binary links defines (`malloc`, which every other
/// program of the binary would call) or is kept for the runtime
/// (`main`, `rust_…`, a leading underscore); `None` otherwise. Names that
/// two programs share are kept apart by the groups
/// ([`super::merge_plan`]). Empty for code with none of [`ROOT_WORDS`].
pub(super) fn at_the_root(source: &str) -> Option<RootNames> {
    if !ROOT_WORDS.iter().any(|w| source.contains(w)) {
        return Some(RootNames::default());
    }
    let names = root_names(source)?;
    names
        .symbols
        .iter()
        .all(|s| !super::merge_reach::foreign(s))
        .then_some(names)
}

/// Whether a crate attribute does nothing in a binary built with its
/// type and name given on the command line, on Linux: `crate_type` (of
/// the types rustc knows) and `crate_name` (a plain name) give way to
/// the command line, `windows_subsystem` is Windows', and `no_builtins`
/// changes no program's behaviour. In a module they are warned of as
/// unused (rustdoc's `-A unused` allows it); a value rustc refuses stays
/// at a root of its own, where it fails.
fn inert(attribute: &str) -> bool {
    let value = |key: &str| {
        attribute
            .strip_prefix(key)
            .and_then(|v| v.strip_prefix("=\""))
            .and_then(|v| v.strip_suffix('"'))
    };
    let plain = |v: &str| {
        v.starts_with(|c: char| c == '_' || c.is_ascii_alphabetic())
            && v.chars().all(|c| c == '_' || c.is_ascii_alphanumeric())
    };
    const TYPES: [&str; 7] = [
        "bin",
        "lib",
        "rlib",
        "dylib",
        "cdylib",
        "staticlib",
        "proc-macro",
    ];
    attribute == "no_builtins"
        || value("crate_type").is_some_and(|v| TYPES.contains(&v))
        || value("crate_name").is_some_and(plain)
        || value("windows_subsystem").is_some_and(|v| v == "windows" || v == "console")
}

/// A claim's code without its `extern crate NAME;` items for crates
/// linked with `--extern` (`linked`), when it has any (`None` otherwise):
/// such a crate is in every module's extern prelude already, so inside
/// an example's module the item means what it means at a crate's root
/// (the Rust book's `extern crate trpl; // required for mdbook test`).
/// Not so with `#[macro_use]` (only at a root) or `as` (at the root, a
/// name for the whole crate), nor in 2015, where the item is how paths
/// find the crate.
pub(super) fn without_linked_externs(claim: &Stated<'_>, linked: &[String]) -> Option<String> {
    static ITEM: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"^\s*extern\s+crate\s+(\w+)\s*;\s*(?://.*)?$").expect("a valid pattern")
    });
    if claim.program.edition < 2018
        || linked.is_empty()
        || !claim.program.source.contains("extern crate")
    {
        return None;
    }
    let mut out = String::with_capacity(claim.program.source.len());
    let mut previous = "";
    let mut blanked = false;
    for line in claim.program.source.split_inclusive('\n') {
        let linked_item = ITEM
            .captures(line.trim_end())
            .is_some_and(|c| linked.iter().any(|l| l == &c[1]))
            && !previous.trim_end().ends_with(']');
        match linked_item {
            true => {
                out.push('\n');
                blanked = true;
            }
            false => out.push_str(line),
        }
        if !line.trim().is_empty() {
            previous = line;
        }
    }
    blanked.then_some(out)
}

/// Whether a crate-level attribute means the same as the first inner
/// attribute of the example's module: a lint level (`allow`, `warn`,
/// `deny`, `forbid`, `expect`) for lints that look at items, not at the
/// crate itself (its docs, its dependencies). Anything else (`feature`,
/// `no_std`, `crate_name`, `recursion_limit` …) belongs to a crate.
fn module_lint(attribute: &str) -> bool {
    const CRATE_LINTS: [&str; 4] = [
        "missing_docs",
        "unused_crate_dependencies",
        "unused_extern_crates",
        "missing_crate_level_docs",
    ];
    ["allow(", "warn(", "deny(", "forbid(", "expect("]
        .iter()
        .any(|l| attribute.starts_with(l))
        && !CRATE_LINTS.iter().any(|c| attribute.contains(c))
}

/// Whether a claim is an expected compile failure a merged build may take.
/// Only plain blocks: an example's report shows its compiler's whole
/// diagnostics with warnings, which the merged build of examples does not
/// show (`-A warnings`), so examples keep their own compile.
pub(super) fn candidate(claim: &Stated<'_>) -> bool {
    claim.program.doctest.is_some()
        && claim.program.lang == Lang::Rust
        && !claim.expectation.ignore
        && claim.expectation.expect == Expect::CompileFail
        && claim.program.edition >= 2018
        && lexes_whole(&claim.program.source)
        && mergeable_code(&claim.program.source)
}

impl Checker {
    /// Whether [`Checker::prepare`] may take `claim` into a merged
    /// build (a claim it takes is best checked after it).
    pub fn merges(&self, claim: &Stated<'_>) -> bool {
        let linked = self.used(claim);
        match without_linked_externs(claim, &linked) {
            Some(source) => {
                let program = Program {
                    source,
                    ..claim.program.clone()
                };
                let bare = Stated {
                    program: &program,
                    ..*claim
                };
                mergeable(&bare) || candidate(&bare)
            }
            None => mergeable(claim) || candidate(claim),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::tests::claim;

    #[test]
    fn crate_level_and_shape_revealing_examples_stay_alone() {
        for (source, expect, merge) in [
            ("fn main() {}", Expect::Run, true),
            ("fn main() {}", Expect::NoRun, true),
            ("fn main() {}", Expect::CompileFail, false),
            // What stops rustc's lexer stops the whole merged crate.
            ("fn main() { let x = (1; }", Expect::Run, false),
            ("fn main() { let s = \"open; }", Expect::NoRun, false),
            // A lint level is the module's as well as the crate's; other
            // crate attributes, or lints about the crate itself, are not.
            ("#![allow(unused)]\nfn main() {}", Expect::Run, true),
            (
                "// lints\n#![deny(unused_must_use)]\n#![warn(clippy::pedantic)]\nfn main() {}",
                Expect::Run,
                true,
            ),
            ("#![deny(missing_docs)]\nfn main() {}", Expect::Run, false),
            ("#![feature(never_type)]\nfn main() {}", Expect::Run, false),
            ("#![no_std]\nfn main() {}", Expect::Run, false),
            (
                "#![recursion_limit = \"256\"]\nfn main() {}",
                Expect::Run,
                false,
            ),
            // What a binary's command line or Linux makes nothing of
            // does the same in a module; a value rustc refuses does not.
            (
                "#![crate_name = \"projx\"]\n#![crate_type = \"lib\"]\nfn main() {}",
                Expect::Run,
                true,
            ),
            (
                "#![windows_subsystem = \"windows\"]\n#![no_builtins]\nfn main() {}",
                Expect::Run,
                true,
            ),
            (
                "#![crate_name = \"my-crate\"]\nfn main() {}",
                Expect::Run,
                false,
            ),
            (
                "#![crate_type = \"bogus\"]\nfn main() {}",
                Expect::Run,
                false,
            ),
            (
                "#![windows_subsystem = \"bogus\"]\nfn main() {}",
                Expect::Run,
                false,
            ),
            // An inner attribute of a function is not the crate's.
            ("fn main() {\n    #![doc = \"x\"]\n}", Expect::Run, true),
            // An exported macro the program does not reach by path, a
            // symbol no library defines; not one it calls by path, nor
            // the C library's `malloc`.
            (
                "#[macro_export]\nmacro_rules! m { () => {} }\nfn main() {}",
                Expect::Run,
                true,
            ),
            (
                "#[macro_export]\nmacro_rules! m { () => {} }\nfn main() { crate::m!() }",
                Expect::Run,
                false,
            ),
            (
                "#[unsafe(no_mangle)]\nextern \"C\" fn foo() {}",
                Expect::Run,
                true,
            ),
            (
                "#[unsafe(no_mangle)]\nextern \"C\" fn malloc(_: usize) -> *mut u8 { std::ptr::null_mut() }",
                Expect::Run,
                false,
            ),
            (
                "#[unsafe(export_name = \"rust_eh_personality\")]\nfn f() {}",
                Expect::Run,
                false,
            ),
            ("extern crate core;\nfn main() {}", Expect::Run, false),
            (
                "fn main() { println!(\"{}\", line!()); }",
                Expect::Run,
                false,
            ),
            // Paths from the crate's root are told from the module's,
            // where they can be at the same columns.
            ("use crate::x;\nfn main() {}", Expect::Run, true),
            (
                "mod a { mod b { pub fn f() { crate::g() } } }\nfn g() {}\nfn main() {}",
                Expect::Run,
                false,
            ),
            ("fn main() { assert!(crate::ok()); }", Expect::Run, false),
            ("use super::x;\nfn main() {}", Expect::Run, false),
            ("fn f() { super::g() }\nfn main() {}", Expect::Run, false),
            // Inside the example's own modules, `super` is the example's.
            (
                "mod a {\n    pub fn f() {}\n    pub mod b {\n        pub fn g() { super::f() }\n    }\n}\nfn main() { a::b::g() }",
                Expect::Run,
                true,
            ),
            // An exercise's own `use super::*;` keeps it mergeable; the
            // author's `super::` does not.
            (
                &code::test_crate("pub fn f() {}", "#[test]\nfn t() { f() }"),
                Expect::SolutionPasses,
                true,
            ),
            (
                &code::test_crate("pub fn f() { super::g() }", "#[test]\nfn t() { f() }"),
                Expect::SolutionPasses,
                false,
            ),
        ] {
            assert_eq!(
                mergeable(&claim(expect, source).stated()),
                merge,
                "{source}"
            );
        }
        // 2015: only code whose paths a module does not change (paths
        // from the root that name a standard crate mean the same in one).
        for (source, merge) in [
            (
                "fn main() { let v = vec![1]; println!(\"{:?}\", v); }",
                true,
            ),
            ("fn main() { std::process::exit(0) }", true),
            ("fn main() { let v = Vec::<u8>::new(); }", true),
            (
                "mod m { pub fn f() {} }\nuse m::f;\nfn main() { f() }",
                false,
            ),
            ("fn main() { ::std::process::exit(0) }", true),
            (
                "fn main() { let x = <::std::string::String>::new(); }",
                true,
            ),
            ("use std::fmt;\nfn main() {}", true),
            ("mod m { pub fn f() {} }\nfn main() { ::m::f() }", false),
            (
                "mod core { pub fn f() {} }\nuse core::f;\nfn main() { f() }",
                false,
            ),
        ] {
            let mut old = claim(Expect::Run, source);
            old.program.edition = 2015;
            assert_eq!(mergeable(&old.stated()), merge, "{source}");
        }
    }

    #[test]
    fn extern_crate_items_of_linked_crates_merge() {
        let linked = ["trpl".to_owned()];
        let merges = |source: &str, edition: u16| {
            let mut c = claim(Expect::Run, source);
            c.program.edition = edition;
            without_linked_externs(&c.stated(), &linked)
                .map(|s| {
                    let program = Program {
                        source: s,
                        ..c.program.clone()
                    };
                    mergeable(&Stated {
                        program: &program,
                        ..c.stated()
                    })
                })
                .unwrap_or(false)
        };
        assert!(merges(
            "extern crate trpl; // required for mdbook test\n\nfn main() { trpl::run(async {}); }",
            2021
        ));
        // Not a linked crate, a root-only attribute, a rename, 2015.
        assert!(!merges("extern crate other;\nfn main() {}", 2021));
        assert!(!merges(
            "#[macro_use]\nextern crate trpl;\nfn main() {}",
            2021
        ));
        assert!(!merges("extern crate trpl as t;\nfn main() {}", 2021));
        assert!(!merges("extern crate trpl;\nfn main() {}", 2015));
        assert!(!merges(
            "extern crate trpl;\nextern crate std;\nfn main() {}",
            2021
        ));
    }
}
