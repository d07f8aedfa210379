//! Whether a program's run is certain before it runs: a `main` that holds
//! only items (rustdoc's wrapper of a block of definitions) does nothing,
//! and a program that starts, does nothing and returns exits with
//! success, unless something of its own runs before `main` or links it
//! to what may not load. Read from tokens, conservatively: whatever this
//! cannot read as such is not.

use super::{Tokens, group_end};
use crate::doctest::items::{Statement, attributes, statement};

/// Words that, anywhere in a program, may make it run code of its own
/// before `main` or fail to start: a static placed in a section the
/// loader runs (`link_section`, `used`), a symbol the C library or the
/// loader looks up (`no_mangle`, `export_name`, a weak one's `linkage`),
/// an allocator of its own, a foreign library to load (`link`), its own
/// entry point (`start`, `no_main`, `no_std`, `no_core`, `lang`),
/// assembly or a file included (what they hold is not read here); with
/// any of the compiler's own attributes (`rustc_…`).
const MAY_RUN_FIRST: [&str; 17] = [
    "link_section",
    "used",
    "no_mangle",
    "export_name",
    "linkage",
    "global_allocator",
    "link",
    "link_name",
    "start",
    "no_main",
    "no_std",
    "no_core",
    "lang",
    "global_asm",
    "naked_asm",
    "include",
    "include_bytes",
];

/// Attributes a `main` may carry and still be the program's entry point,
/// doing what its body does.
const MAIN_ATTRIBUTES: [&str; 6] = ["allow", "warn", "deny", "forbid", "expect", "doc"];

/// rustdoc's name for the function that holds a wrapped block's code,
/// which its `main` calls.
const DOCTEST_MAIN: &str = "_doctest_main";

/// Whether `source`'s run is certain to end at once with success: its
/// top-level `fn main()` (no return type, no attribute but lint levels
/// and docs) holds only items, or items and a call of rustdoc's
/// `_doctest_main` defined among them that holds only items; and nothing
/// in the program may run before `main` or keep it from starting
/// (a `link_section` or `used` static, `no_mangle`, a global allocator
/// and the like, a foreign block, `extern crate` of a crate other
/// than `std`, `core` or `alloc`). Items in a body are never run by
/// themselves (a `const` or `static`'s value is the compiler's to
/// compute). Anything else, or anything this cannot read, is `false`.
pub fn main_does_nothing(source: &str) -> bool {
    let tokens: Vec<&str> = Tokens::new(source).collect();
    let may_run_first = |t: &&str| MAY_RUN_FIRST.contains(t) || t.starts_with("rustc_");
    if tokens.iter().any(may_run_first) || links_foreign(&tokens) {
        return false;
    }
    let Some(body) = top_level_main(&tokens) else {
        return false;
    };
    body_does_nothing(&tokens, body)
}

/// Whether the program declares foreign items (`extern { … }`,
/// `extern "C" { … }`, `unsafe extern "C" { … }`) or another's crate.
fn links_foreign(tokens: &[&str]) -> bool {
    tokens.iter().enumerate().any(|(i, t)| {
        *t == "extern"
            && match tokens.get(i + 1) {
                Some(&"{") => true,
                Some(&"crate") => !matches!(tokens.get(i + 2), Some(&("std" | "core" | "alloc"))),
                Some(abi) if abi.starts_with('"') => tokens.get(i + 2) == Some(&"{"),
                _ => false,
            }
    })
}

/// The index of the `{` of the program's top-level `fn main()` with no
/// return type and no outer attribute but [`MAIN_ATTRIBUTES`], if it has
/// one: its items read as rustdoc reads them
/// ([`crate::doctest::items::statement`]).
fn top_level_main(tokens: &[&str]) -> Option<usize> {
    let mut at = 0;
    while at < tokens.len() {
        let start = at;
        at = attributes(tokens, at)?;
        if at >= tokens.len() {
            break;
        }
        let (next, what) = statement(tokens, at)?;
        if what == (Statement::Item { main: true }) {
            let plain = tokens.get(at..at + 5) == Some(&["fn", "main", "(", ")", "{"][..]);
            return (plain && plain_attributes(&tokens[start..at])).then_some(at + 4);
        }
        at = next;
    }
    None
}

/// Whether the outer attributes among `tokens` (`#[…]`, not a crate's
/// `#![…]`) are only [`MAIN_ATTRIBUTES`].
fn plain_attributes(tokens: &[&str]) -> bool {
    tokens
        .windows(3)
        .all(|w| !(w[0] == "#" && w[1] == "[") || MAIN_ATTRIBUTES.contains(&w[2]))
}

/// Whether the body opening at `tokens[open]` (a `{`) holds only items
/// (attributes, `macro_rules!` definitions and `;`s among them), and at
/// most calls of a [`DOCTEST_MAIN`] defined in it that does nothing.
fn body_does_nothing(tokens: &[&str], open: usize) -> bool {
    let end = group_end(tokens, open).saturating_sub(1);
    let mut inner_main = None;
    let mut at = open + 1;
    while at < end {
        let Some(after) = attributes(tokens, at) else {
            return false;
        };
        at = after;
        if at >= end {
            break;
        }
        match tokens[at] {
            ";" => at += 1,
            DOCTEST_MAIN if tokens.get(at + 1..at + 3) == Some(&["(", ")"][..]) => {
                if !inner_main.is_some_and(|body| body_does_nothing(tokens, body)) {
                    return false;
                }
                at += 3;
            }
            _ => match statement(tokens, at) {
                Some((next, Statement::Item { .. })) if next <= end => {
                    if tokens.get(at..at + 5) == Some(&["fn", DOCTEST_MAIN, "(", ")", "{"][..]) {
                        inner_main = Some(at + 4);
                    }
                    at = next;
                }
                _ => return false,
            },
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::main_does_nothing;
    use crate::doctest::program;

    fn wrapped(code: &str) -> bool {
        main_does_nothing(&program(code, false).source)
    }

    #[test]
    fn a_block_of_definitions_does_nothing() {
        for code in [
            "struct S;\nimpl S { fn f(&self) { println!(\"never\"); } }",
            "#[derive(Debug)]\npub enum E { A(u8), B { x: [u8; 2] } }\ntrait T: Sized { fn g() {} }",
            "use std::fmt;\nconst N: usize = 3;\nstatic S: [u8; N] = [0; N];\ntype A = fn() -> u8;",
            "mod m { pub fn main() { panic!() } }\nmacro_rules! m { () => { panic!() } }",
            "extern crate core;\nunsafe fn u() {}\npub(crate) async fn a() {}\nextern \"C\" fn c() {}",
            "fn main() {}",
            "#[allow(dead_code)]\nfn main() {\n    struct Inner;\n}",
            "const P: Point = Point { x: 1 };\nstruct Point { x: u8 }",
        ] {
            assert!(wrapped(code), "{code}");
        }
    }

    #[test]
    fn a_block_that_does_anything_or_may_run_first_does_not() {
        for code in [
            "let x = 1;",
            "println!(\"hi\");",
            "struct S;\nS;",
            "fn f() {}\nf();",
            "fn main() { f() }\nfn f() {}",
            "fn main() -> Result<(), ()> { Ok(()) }",
            "thread_local! { static X: u8 = 0; }",
            "const { assert!(true) };",
            "#[unsafe(link_section = \".init_array\")]\n#[used]\nstatic F: extern \"C\" fn() = f;\nextern \"C\" fn f() {}",
            "#[unsafe(no_mangle)]\npub extern \"C\" fn malloc() {}",
            "extern \"C\" { fn abs(x: i32) -> i32; }",
            "unsafe extern \"C\" { fn abs(x: i32) -> i32; }",
            "extern crate rand;",
            "#[global_allocator]\nstatic A: std::alloc::System = std::alloc::System;",
            "#![feature(linkage)]\n#[linkage = \"weak\"]\npub static X: u8 = 0;",
            "#![feature(rustc_attrs)]\n#[rustc_std_internal_symbol]\nfn f() {}",
            "#[tokio::main]\nasync fn main() {}",
            "std::arch::global_asm!(\"\");",
            "fn f() -> Result<(), ()> { Ok(()) }\nf()?;",
            "loop {}",
            "if true {}",
            "x!();",
        ] {
            assert!(!wrapped(code), "{code}");
        }
        // Unwrapped programs: none without a `main`, nor with one in a
        // module only.
        assert!(!main_does_nothing("struct S;"));
        assert!(!main_does_nothing("mod m { fn main() {} }"));
    }
}
