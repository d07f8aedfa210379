use super::*;
use pretty_assertions::assert_eq;

#[test]
fn rust_blocks_as_rustdoc_tells_them() {
    for (info, rust) in [
        ("", true),
        ("rust", true),
        ("ignore", true),
        ("should_panic", true),
        ("compile_fail,E0382", true),
        ("rust,compile_fail,", true),
        ("rust ignore", true),
        ("rust, ignore", true),
        ("rust,edition2024,compile_fail", true),
        ("edition2021", true),
        ("text", false),
        ("grammar,expressions", false),
        ("rust example", true),
        ("sh", false),
        ("console,ignore", false),
        ("ignore,console", true),
        ("rust,custom", false),
        ("rust,ignore (not a test)", true),
        ("rust,ignore(unclosed", false),
        ("rust {.class}", true),
        ("E12", false),
        // rustdoc's tokenizer: an error makes the block not Rust.
        ("rust,ignore=foo", false),
        ("rust a=b", false),
        ("rust,=", false),
        ("rust,@", false),
        ("rust,{x}", false),
        ("rust,{a=b", false),
        ("rust,{.x", false),
        ("rust,\"x", false),
        ("rust,x\"y\"", false),
        ("rust,x{y}", false),
        ("rust,{a=b}", true),
        ("rust,{ .x }", true),
        ("rust,{.x}y", true),
        ("rust,\"x\"", true),
        ("rust,x(y)z", true),
        ("rust,foo:bar", true),
        ("rust,a.b!", true),
        ("rust,{\"k\"=\"v\"}", true),
        ("rust,{\"\"=v}", false),
        ("rust,{a=\"\"}", false),
        ("rust,{a=}", false),
        ("{", false),
        ("\"", false),
        ("(", false),
        ("rust,ñ", false),
        ("rust,{.é}", false),
    ] {
        assert_eq!(LangString::parse(info).rust, rust, "{info:?}");
    }
}

#[test]
fn flags_and_outcomes() {
    let l = LangString::parse("rust,compile_fail,E0382,E0499,edition2018");
    assert_eq!(
        (l.compile_fail, l.no_run, l.error_codes.clone(), l.edition),
        (
            true,
            true,
            vec!["E0382".to_owned(), "E0499".to_owned()],
            Some(2018)
        )
    );
    assert_eq!(l.expect(), Expect::CompileFail);
    assert_eq!(l.flags(), "compile_fail,E0382,E0499,edition2018");
    assert_eq!(LangString::parse("should_panic").expect(), Expect::Panic);
    assert_eq!(
        LangString::parse("should_panic,no_run").expect(),
        Expect::NoRun
    );
    assert_eq!(LangString::parse("rust").expect(), Expect::Run);
    assert!(LangString::parse("test_harness").test_harness);
    assert_eq!(LangString::parse("edition2019").edition, None);
}

#[test]
fn ignore_targets_override_ignore() {
    let linux = "x86_64-unknown-linux-gnu";
    assert!(LangString::parse("ignore").ignored_on(linux));
    assert!(LangString::parse("ignore-x86_64").ignored_on(linux));
    assert!(!LangString::parse("ignore-windows").ignored_on(linux));
    assert!(!LangString::parse("ignore,ignore-windows").ignored_on(linux));
    assert!(!LangString::parse("rust").ignored_on(linux));
}

#[test]
fn hidden_lines_as_rustdoc_hides_them() {
    assert_eq!(
        unhidden(
            "# fn main() {\n    # let x = 1;\nlet y = 2;\n## not hidden\n#\n#[derive(Debug)]\n#\tz\n# }\n"
        ),
        "fn main() {\nlet x = 1;\nlet y = 2;\n# not hidden\n\n#[derive(Debug)]\n#\tz\n}"
    );
}

#[test]
fn loose_code_is_wrapped_in_main() {
    let p = program("let x = 1;\nassert_eq!(x, 1);", false);
    assert!(p.wrapped);
    assert_eq!(
        p.source,
        "fn main() { #[allow(non_snake_case)] fn _doctest_main() {\nlet x = 1;\nassert_eq!(x, 1);\n} _doctest_main() }\n"
    );
}

#[test]
fn crate_attributes_and_extern_crates_stay_on_top() {
    let code = "// a comment\n#![crate_name = \"foo\"]\n#![feature(\n    never_type,\n)]\n\nextern crate core;\nlet x = 1;";
    let p = program(code, false);
    assert_eq!(
        p.source,
        "// a comment\n#![crate_name = \"foo\"]\n#![feature(\n    never_type,\n)]\n\nextern crate core;\nfn main() { #[allow(non_snake_case)] fn _doctest_main() {\nlet x = 1;\n} _doctest_main() }\n"
    );
}

#[test]
fn extern_crates_anywhere_go_to_the_root() {
    let wrap = |items: &str, body: &str| {
        format!(
            "{items}fn main() {{ #[allow(non_snake_case)] fn _doctest_main() {{\n{body}\n}} _doctest_main() }}\n"
        )
    };
    for (code, items, body) in [
        (
            "let x = 1;\nextern crate core;\nuse core::mem;",
            "extern crate core ; ",
            "let x = 1;\n                  \nuse core::mem;",
        ),
        (
            "#[macro_use]\nextern crate std as s;\nlet v = vec![1];",
            "# [ macro_use ] extern crate std as s ; ",
            "            \n                      \nlet v = vec![1];",
        ),
        (
            "let v = S { a: 1 };\n#[allow(unused)] extern crate core;",
            "# [ allow ( unused ) ] extern crate core ; ",
            "let v = S { a: 1 };\n                                   ",
        ),
        // Doc comments above go with it, a comment inside does not
        // hide the wrapper.
        (
            "let x = 1;\n/// doc\n#[macro_use] // c\nextern crate std as s;",
            "# [ macro_use ] extern crate std as s ; ",
            "let x = 1;\n       \n                 \n                      ",
        ),
        // Not a statement of the code's own: left where it is.
        (
            "fn f() {\n    extern crate core;\n}\nf();",
            "",
            "fn f() {\n    extern crate core;\n}\nf();",
        ),
        ("#[cfg(unix)]\nlet x = 1;", "", "#[cfg(unix)]\nlet x = 1;"),
    ] {
        assert_eq!(program(code, false).source, wrap(items, body), "{code:?}");
    }
}

#[test]
fn a_main_of_another_abi_is_told() {
    for (code, foreign) in [
        ("extern \"C\" fn main() {}", true),
        ("pub extern fn main() {}", true),
        ("extern \"Rust\" fn main() {}", false),
        ("fn main() {}", false),
        ("mod m { extern \"C\" fn main() {} }\nfn main() {}", false),
        ("extern \"C\" fn f() {}\nfn main() {}", false),
    ] {
        assert_eq!(foreign_main(code), foreign, "{code:?}");
    }
}

#[test]
fn code_ending_in_ok_returns_a_result() {
    let p = program(
        "let n: i32 = \"1\".parse()?;\nOk::<(), std::num::ParseIntError>(())",
        false,
    );
    assert!(
        p.source
            .contains("-> core::result::Result<(), impl core::fmt::Debug>")
    );
    assert!(p.source.ends_with("} _doctest_main().unwrap() }\n"));
    // Plain comments after `(())` do not count, a doc comment or an
    // attribute (even one dropped as dangling) does; `(())` in a
    // comment is no code.
    for (code, result) in [
        ("Ok::<(), E>(()) // done", true),
        ("Ok::<(), E>(())\n/* c */", true),
        ("Ok::<(), E>(())\n/// doc", false),
        ("Ok::<(), E>(())\n// c\n#[allow(unused)]", false),
        ("Ok::<(), E>(())\n#![allow(unused)]", false),
        ("let s = 1; // (())", false),
        ("", false),
    ] {
        assert_eq!(returns_result(code), result, "{code:?}");
    }
}

#[test]
fn dangling_attributes_and_doc_comments_become_blanks() {
    for (code, want) in [
        ("#[cfg(unix)]", "            "),
        ("/// Panics\n/// if", "          \n      "),
        (
            "let x = 1;\n#[allow(unused)]\n// end",
            "let x = 1;\n                \n      ",
        ),
        ("let x = 1; /// doc", "let x = 1;        "),
        (
            "fn f() {}\n#[doc = \"a ] b\"]",
            "fn f() {}\n                ",
        ),
        ("let x = 1;\n/** block */", "let x = 1;\n            "),
        // Attributes that attach to something stay.
        ("#[cfg(unix)]\nfn f() {}", "#[cfg(unix)]\nfn f() {}"),
        (
            "let x = 1;\n#[cfg(unix)]\n{ 2; }",
            "let x = 1;\n#[cfg(unix)]\n{ 2; }",
        ),
        // Inner attributes and inner doc comments after the last
        // statement too (rustdoc passes `let x = 1;\n#![no_std]`).
        (
            "let x = 1;\n#![allow(unused)]",
            "let x = 1;\n                 ",
        ),
        (
            "fn f() {}\n//! doc\n/*! d */",
            "fn f() {}\n       \n        ",
        ),
        // Plain comments alone, something the tokens skip (a
        // number): left as they are.
        ("let x = 1; // c", "let x = 1; // c"),
        ("x + 1 #[a]", "x + 1 #[a]"),
        ("impl S {\n    #[inline]\n}", "impl S {\n    #[inline]\n}"),
        ("let x = 1;\n#[cfg(unix", "let x = 1;\n#[cfg(unix"),
    ] {
        assert_eq!(without_dangling(code), want, "{code:?}");
    }
    let p = program("fn main() {}\n#[cfg(unix)]", false);
    assert_eq!(p.source, "fn main() {}\n");
    assert!(!p.wrapped);
}

#[test]
fn a_shebang_goes_to_rustc_as_it_is() {
    let code = "#!/usr/bin/env cargo\nlet x = 1;";
    assert_eq!(
        program(code, false),
        Program {
            source: format!("{code}\n"),
            wrapped: false
        }
    );
    for (code, want) in [
        ("#!/usr/bin/env cargo\nfn main() {}", true),
        ("#! /bin/sh", true),
        ("#![allow(unused)]", false),
        ("#! [allow(unused)]", false),
        ("#!/*c*/[allow(unused)]", false),
        ("fn main() {}\n#!/x", false),
    ] {
        assert_eq!(shebang(code), want, "{code:?}");
    }
}

#[test]
fn a_shebang_is_blanked_in_place_unless_frontmatter_follows() {
    assert_eq!(
        shebang_blanked("#!/usr/bin/env cargo\nfn main() {}\n").as_deref(),
        Some("                    \nfn main() {}\n")
    );
    assert_eq!(shebang_blanked("#! /bin/sh").as_deref(), Some("          "));
    for code in [
        "#![allow(unused)]\nfn main() {}",
        "fn main() {}\n#!/x",
        "#!/usr/bin/env cargo\n---\n[dependencies]\n---\nfn main() {}",
    ] {
        assert_eq!(shebang_blanked(code), None, "{code:?}");
    }
}

#[test]
fn main_is_found_as_rustdoc_finds_it() {
    for (code, has) in [
        ("fn main() {}", true),
        (
            "use std::fmt;\n#[derive(Debug)]\nstruct S;\nfn main() {}",
            true,
        ),
        ("pub(crate) async fn main() {}", true),
        ("fn helper() { fn main() {} }", false),
        ("let x = 1; fn main() {}", false),
        ("// fn main\nlet x = 1;", false),
        ("const S: &str = \"fn main() {}\";", false),
        ("impl S { fn main() {} }", false),
        // A macro's own tokens `fn main (` count, not its expansion
        // nor a string (rustdoc 1.95).
        ("macro_rules! m { () => { fn main() {} } }\nm!();", false),
        ("println!(\"fn main\");", false),
        ("m! { fn main() {} }", true),
        // A macro called by its path is an item too (the Reference's
        // `core::arch::global_asm!` next to `fn main`).
        (
            "fn main() {}\n#[cfg(target_arch = \"x86_64\")]\ncore::arch::global_asm!(\"/* {} */\", const 0);",
            true,
        ),
        ("fn main() {}\n::m!();", true),
        ("fn main() {}\na::b::c;", false),
        ("fn main() {}\nprintln!(\"x\");", true),
        // A statement that is not an item wraps the whole code, even
        // after `fn main` or as a stray `;` after an item.
        ("struct S { a: i32 };\npub fn main() {}", false),
        ("fn main() {}\nlet x = 1;", false),
        ("fn main() {};", false),
        ("unsafe { f() }\nfn main() {}", false),
        ("crate::f();\nfn main() {}", false),
        ("extern crate core;\nfn main() {}", true),
        ("extern \"C\" { fn f(); }\nfn main() {}", true),
        (
            "struct T(u8);\nconst X: [u8; 2] = [1, 2];\n#[derive(Debug)]\nenum E { A }\nfn main() {}",
            true,
        ),
        (
            "struct S { a: u8 }\nstatic X: S = S { a: 1 };\nfn main() {}",
            true,
        ),
        ("/* fn main() {} */ let x = 1;", false),
        ("let c = '{'; fn main() {}", false),
        ("fn f<'a>(x: &'a str) {}\nfn main() {}", true),
        ("extern \"C\" fn main() {}", true),
    ] {
        assert_eq!(program(code, false).wrapped, !has, "{code}");
    }
    assert!(!program("#[test]\nfn t() {}", true).wrapped);
    assert!(!program("#![no_std]\nlet x = 1;", false).wrapped);
}
