use super::*;

#[test]
fn a_template_takes_its_option_where_no_block_stands() {
    fn slots(source: &str) -> Vec<&str> {
        let mut shown = Vec::new();
        let mut from = 0;
        for r in template_slots(source) {
            shown.push(&source[from..r.start]);
            from = r.end;
        }
        shown
    }
    let cases: [(&str, &[&str]); 6] = [
        (
            "fn assert_copy<T: Copy>() {}\nfn main() { assert_copy::<{}>(); }",
            &["fn assert_copy<T: Copy>() {}\nfn main() { assert_copy::<"],
        ),
        ("{}\nfn main() {}", &[""]),
        (
            "fn main() { let a = {}; println!(\"{}\", a); loop {} }",
            &["fn main() { let a = "],
        ),
        (
            "fn f() -> {} { match 1 { _ => {} } }\nimpl X for {} {}",
            &["fn f() -> ", " { match 1 { _ => {} } }\nimpl X for "],
        ),
        ("struct S {}\n// {}\nimpl<T> X for Vec<T> {}", &[]),
        (
            "fn main() { let _: &mut {} = &mut {}; }",
            &["fn main() { let _: &mut ", " = &mut "],
        ),
    ];
    for (source, want) in cases {
        assert_eq!(slots(source), want, "{source}");
    }
}

#[test]
fn crate_paths_are_told_from_the_module_at_the_same_columns() {
    let source = "use crate::a::f;\nmod a {\n    pub fn f() -> u8 { crate::b() }\n}\nfn b() -> u8 { 1 }\nfn main() { let s = \"crate::x\"; crate::a::f(); }\n";
    assert_eq!(
        crate_paths_from_module(source).as_deref(),
        Some(
            "use self:: a::f;\nmod a {\n    pub fn f() -> u8 { super::b() }\n}\nfn b() -> u8 { 1 }\nfn main() { let s = \"crate::x\"; self:: a::f(); }\n"
        )
    );
    // Not a macro's `$crate` (what it names is told by `root_names`).
    for source in [
        "pub(crate) fn f() {}",
        "macro_rules! m { () => { $crate::g() } }",
    ] {
        assert_eq!(crate_paths_from_module(source).as_deref(), Some(source));
    }
    // Two modules deep, inside a macro's tokens, or spaced out.
    for source in [
        "mod a { mod b { fn f() { crate::g() } } }",
        "fn main() { assert!(crate::ok()); }",
        "macro_rules! m { () => { crate::g() } }",
        "fn main() { crate :: g() }",
    ] {
        assert_eq!(crate_paths_from_module(source), None, "{source}");
    }
}

#[test]
fn crate_attributes_are_the_ones_outside_braces() {
    assert_eq!(
        crate_attributes(
            "// lints\n#![deny(unused_must_use)]\n#![feature(never_type)]\nfn f() {\n    #![doc = \"x\"]\n}\nconst S: &str = \"#![no_std]\";"
        ),
        ["deny(unused_must_use)", "feature(never_type)"]
    );
    assert!(crate_attributes("fn main() {}").is_empty());
}

#[test]
fn super_counts_only_outside_the_programs_modules() {
    assert!(super_outside_modules("use super::x;"));
    assert!(super_outside_modules("pub(super) fn f() {}"));
    assert!(super_outside_modules("fn f() { super::g() }"));
    assert!(!super_outside_modules(
        "mod a { fn f() {} mod b { fn g() { super::f() } } }"
    ));
    assert!(!super_outside_modules("// super::x\nlet s = \"super\";"));
}

#[test]
fn paths_from_the_root_in_2015_are_told_apart_from_the_standard_crates() {
    for standard in [
        "use std::fmt;\nfn main() {}",
        "pub use std::{fmt, io};",
        "use ::std::mem;",
        "use core::mem; use alloc::vec::Vec;",
        "mod a { pub fn f() {} }\nuse self::a::f;",
        "mod a { use super::b; }",
        "fn main() { let x: ::std::vec::Vec<u8> = ::std::vec::Vec::new(); }",
        "fn main() { let v = Vec::<u8>::new(); let _ = <u8 as Default>::default(); }",
        "fn main() { std::mem::drop(1); }",
        // Not code: comments and strings.
        "// use foo::bar;\nfn main() { let _ = \"use foo::bar; ::x\"; }",
    ] {
        assert!(!paths_from_the_root_2015(standard), "{standard}");
    }
    for from_the_root in [
        "mod foo { pub fn f() {} }\nuse foo::f;",
        "mod a { use b::c; }",
        "fn main() { use foo::bar; }",
        "use {std::fmt, foo::x};",
        "use ::foo::x;",
        "fn main() { ::foo::bar(); }",
        "fn f(x: ::foo::T) {}",
        "mod core { pub fn f() {} }\nuse core::f;",
        "enum std { A }",
        "use std::fmt as core;\nuse core::Debug;",
        "m! { use x::y; }",
        "use",
    ] {
        assert!(paths_from_the_root_2015(from_the_root), "{from_the_root}");
    }
}

#[test]
fn threads_are_started_by_their_paths() {
    assert!(starts_threads("std::thread::spawn(|| {})"));
}

#[test]
fn how_long_a_program_sleeps_is_read_from_its_literal_durations() {
    // The Rust book's Listing 17-25: a second, ten times.
    let listing = "use std::{thread, time::Duration};\nfn main() {\n    thread::spawn(move || {\n        for i in 1..11 {\n            tx.send(i).unwrap();\n            thread::sleep(Duration::from_secs(1));\n        }\n    });\n}\n";
    assert_eq!(sleep_millis(listing), 10_000);
    // Summed; `..=` counts its end; nested loops multiply; a loop
    // over anything else counts once.
    let several = "fn main() { sleep(Duration::from_secs(5)); timeout(f, Duration::from_millis(2_000)); for _ in 0..=1 { for _ in 0..3 { sleep(Duration::from_millis(10)); } } for x in v { sleep(Duration::from_millis(7)); } }";
    assert_eq!(sleep_millis(several), 5_000 + 2_000 + 2 * 3 * 10 + 7);
    // A loop's factor ends with its body; a duration named otherwise
    // (a variable, a float, a comment) is not read.
    let after = "fn main() { for _ in 0..100 { f(); } sleep(Duration::from_secs(1)); sleep(Duration::from_millis(ms)); sleep(Duration::from_secs_f64(1.5)); // from_secs(9)\n }";
    assert_eq!(sleep_millis(after), 1_000);
    assert_eq!(sleep_millis("fn main() {}"), 0);
    assert!(starts_threads("thread::scope(|s| {})"));
    assert!(!starts_threads("let spawn = 1;"));
    assert!(hashes_randomly("use std::collections::HashMap;"));
    assert!(!hashes_randomly("use std::collections::BTreeMap;"));
}

#[test]
fn tokens_are_rustcs() {
    // A raw identifier is one token, a byte literal holding a quote
    // and a raw string holding a brace are no brackets, a label is
    // its name: rustc's lexer, not a guess.
    let code = "let r#type = b'\"'; 'outer: loop { break 'outer; } let s = r#\"}\"#; /* /* } */ */";
    let tokens: Vec<&str> = Tokens::new(code).collect();
    assert_eq!(
        tokens,
        [
            "let", "r#type", "=", ";", "outer", ":", "loop", "{", "break", "outer", ";", "}",
            "let", "s", "=", "r#\"}\"#", ";"
        ]
    );
    assert_eq!(block_comment_len("/* /* } */ */ x"), 13);
}

#[test]
fn non_ascii_identifiers_are_told_from_text() {
    assert!(non_ascii_identifiers("fn main() { let ε = 1; }"));
    assert!(non_ascii_identifiers("Γ ⊢ e"));
    assert!(!non_ascii_identifiers(
        "// ε — “quoted”\nfn main() { let s = \"ε\"; let c = 'é'; }"
    ));
}

#[test]
fn where_rustcs_lexer_stops_is_told() {
    fn at(code: &str) -> Option<(&str, String)> {
        lexer_stop(code).map(|(at, what)| (&code[at..], what))
    }
    assert_eq!(
        at("fn main() { let x = (1; }"),
        Some((
            "(1; }",
            "mismatched closing delimiter: `}` closes `(`".to_owned()
        ))
    );
    assert_eq!(
        at("fn main() {\n let s = \"a;\n}"),
        Some(("\"a;\n}", "unterminated double quote string".to_owned()))
    );
    assert_eq!(
        at("fn main() {\n f(x)\n"),
        Some((
            " f(x)\n",
            "this file contains an unclosed delimiter".to_owned()
        ))
    );
    assert_eq!(
        at("fn main() {} }"),
        Some(("}", "unexpected closing delimiter: `}`".to_owned()))
    );
    assert_eq!(at("fn main() { let s = \"(\"; }"), None);
}

#[test]
fn what_stops_rustcs_lexer_is_told() {
    assert!(lexes_whole(
        "fn main() { let s = \"(\"; let c = '}'; let r = r#\"[\"#; /* { */ }"
    ));
    // An unknown character or a lone quote is an error rustc recovers from.
    assert!(lexes_whole("fn main() { let x = 1 \u{2026} 2; }"));
    for fatal in [
        "fn main() { let x = (1; }",
        "fn main() {",
        "fn main() { } }",
        "fn main() { let s = \"abc; }",
        "fn main() { /* abc }",
        "fn main() { let s = r#\"abc; }",
        "fn main() { let b = b'a; }",
    ] {
        assert!(!lexes_whole(fatal), "{fatal}");
        assert!(lexer_stop(fatal).is_some(), "{fatal}");
    }
}

#[test]
fn gated_syntax_is_c_variadic_definitions_and_unstable_abis() {
    for (source, defines) in [
        ("unsafe extern \"C\" fn f(ap: ...) {}", true),
        (
            "unsafe extern \"C\" fn f(mut ap: ...) -> f64 {\n    0.0\n}",
            true,
        ),
        (
            "unsafe extern \"C\" {\n    unsafe fn f1(...);\n    unsafe fn f2(ap: ...);\n}",
            false,
        ),
        (
            "trait Tr {\n    unsafe extern \"C\" fn f4(ap: ...);\n}",
            false,
        ),
        ("fn main() { let r = 0..=3; let _ = [1; 3]; }", false),
        ("fn f(x: u8) { let _ = x; } // (ap: ...)", false),
        (
            "#[unsafe(naked)]\nunsafe extern \"custom\" fn increment() {}",
            true,
        ),
        ("extern \"rust-call\" fn f(_: ()) {}", true),
        (
            "extern \"C-unwind\" fn f() {}\nunsafe extern \"system\" { fn g(); }",
            false,
        ),
        ("extern crate core;\nextern fn f() {}", false),
    ] {
        assert_eq!(uses_gated_syntax(source), defines, "{source}");
    }
}
