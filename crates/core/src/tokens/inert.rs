//! Whether a program's run is certain before it runs: a `main` that holds
//! only items (rustdoc's wrapper of a block of definitions) does nothing,
//! and a program that starts, does nothing and returns exits with
//! success, unless something of its own runs before `main` or links it
//! to what may not load. Read from tokens, conservatively: whatever this
//! cannot read as such is not.

use super::{Tokens, group_end, is_ident};

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

/// Words before an item's kind (`pub(crate) unsafe extern "C" fn`).
const QUALIFIERS: [&str; 7] = [
    "pub", "unsafe", "async", "const", "extern", "default", "safe",
];

/// Item kinds that end at their body (`{…}`) or at a `;`.
const ITEMS: [&str; 13] = [
    "fn", "struct", "enum", "union", "trait", "impl", "mod", "type", "const", "static", "use",
    "auto", "crate",
];

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
/// return type and only [`MAIN_ATTRIBUTES`], if it has one.
fn top_level_main(tokens: &[&str]) -> Option<usize> {
    let mut i = 0;
    let mut attributes_ok = true;
    while i < tokens.len() {
        match tokens[i] {
            "#" if tokens.get(i + 1) == Some(&"[") => {
                attributes_ok &= tokens
                    .get(i + 2)
                    .is_some_and(|a| MAIN_ATTRIBUTES.contains(a));
                i = group_end(tokens, i + 1);
                continue;
            }
            "fn" if tokens.get(i + 1) == Some(&"main") => {
                let plain = tokens.get(i + 2..i + 5) == Some(&["(", ")", "{"][..])
                    && (i == 0 || matches!(tokens[i - 1], "}" | "]" | ";"));
                return (plain && attributes_ok).then_some(i + 4);
            }
            "(" | "[" | "{" => i = group_end(tokens, i),
            _ => i += 1,
        }
        attributes_ok = true;
    }
    None
}

/// Whether the body opening at `tokens[open]` (a `{`) holds only items,
/// `;`s and inner attributes, and at most one call of a
/// [`DOCTEST_MAIN`] defined in it that does nothing.
fn body_does_nothing(tokens: &[&str], open: usize) -> bool {
    let end = group_end(tokens, open).saturating_sub(1);
    let mut inner_main = None;
    let mut i = open + 1;
    while i < end {
        match tokens[i] {
            ";" => i += 1,
            "#" => {
                let at = i + usize::from(tokens.get(i + 1) == Some(&"!")) + 1;
                if tokens.get(at) != Some(&"[") {
                    return false;
                }
                i = group_end(tokens, at);
            }
            "macro_rules" if tokens.get(i + 1) == Some(&"!") => {
                let Some(group) = (i + 2..end).find(|&j| matches!(tokens[j], "{" | "(" | "["))
                else {
                    return false;
                };
                i = group_end(tokens, group);
            }
            DOCTEST_MAIN if tokens.get(i + 1..i + 3) == Some(&["(", ")"][..]) => {
                if !inner_main.is_some_and(|body| body_does_nothing(tokens, body)) {
                    return false;
                }
                i += 3;
            }
            "fn" if tokens.get(i + 1..i + 5) == Some(&[DOCTEST_MAIN, "(", ")", "{"][..]) => {
                inner_main = Some(i + 4);
                i = group_end(tokens, i + 4);
            }
            _ => match item_end(tokens, i, end) {
                Some(next) => i = next,
                None => return false,
            },
        }
    }
    true
}

/// The index after the item starting at `tokens[at]` (qualifiers, a kind
/// of [`ITEMS`], then everything up to its body or its `;`), or `None`
/// where no item starts.
fn item_end(tokens: &[&str], at: usize, end: usize) -> Option<usize> {
    let mut i = at;
    while i < end && QUALIFIERS.contains(&tokens[i]) {
        // `pub(crate)`, `extern "C"`; `const NAME` is an item's kind,
        // `const {` an expression.
        match tokens.get(i + 1) {
            Some(&"(") if tokens[i] == "pub" => i = group_end(tokens, i + 1),
            Some(abi) if tokens[i] == "extern" && abi.starts_with('"') => i += 2,
            Some(&"{") => return None,
            Some(next)
                if tokens[i] == "const"
                    && is_ident(next)
                    && !QUALIFIERS.contains(next)
                    && *next != "fn" =>
            {
                break;
            }
            _ => i += 1,
        }
    }
    let kind = tokens.get(i)?;
    let named = matches!(*kind, "impl" | "use") || tokens.get(i + 1).is_some_and(|n| is_ident(n));
    if !ITEMS.contains(kind) || !named {
        return None;
    }
    i += 1;
    while i < end {
        match tokens[i] {
            ";" => return Some(i + 1),
            // A body ends the item, unless a `;` follows a `const`'s or
            // `static`'s value in braces (`= S { … };`), read as the
            // item's end too.
            "{" => {
                let after = group_end(tokens, i);
                return Some(match tokens.get(after) {
                    Some(&";") => after + 1,
                    _ => after,
                });
            }
            "(" | "[" => i = group_end(tokens, i),
            _ => i += 1,
        }
    }
    None
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
