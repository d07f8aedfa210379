//! Issue 57: a merged binary whose members can act outside their own
//! `main` is not run merged (read from the binary, not from words).

use crate::support::BookTest;
use snapbox::str;

/// Issue 57: a merged binary runs every member's constructors in every
/// member's program. Example A's hidden function pointer in
/// `.init_array` printed `42` and ended each program of the binary, so
/// example B (printing 41, claiming 42) passed merged and failed alone.
/// Decided by the binary, not by the words: A runs alone (where its
/// constructor is its own), and B with it.
#[test]
fn a_constructor_of_one_merged_example_runs_in_no_other_program() {
    let chapter = "```rust example\n# #[used]\n# #[link_section = \".init_array\"]\n# static AT_START: extern \"C\" fn() = at_start;\n# extern \"C\" fn at_start() {\n#     println!(\"42\");\n#     std::process::exit(0);\n# }\nfn main() {\n    println!(\"43\");\n}\n```\n\n```output\n42\n```\n\n```rust example\nfn main() {\n    println!(\"41\");\n}\n```\n\n```output\n42\n```\n";
    let book = BookTest::new().chapter("ch.md", chapter);
    let merged = book
        .run(&["check"], |cmd| {
            cmd.expect_failure();
        })
        .stdout;
    book.check_text(
        verdicts(&merged),
        str![[r#"
ok      src/ch.md:1: rust example (expect=run)
FAILED  src/ch.md:18: rust example (expect=run): the output differs from the output block
    --- expected
    +++ actual
    @@ -1 +1 @@
    -42
    +41
1 passed, 1 failed

"#]],
    );
    // The lock records B failed (not passed, printing 42), and a cold
    // `check --locked` agrees with it; each compiled alone says the same.
    let lock = book.read("companion.lock");
    let b = lock.split("line = 18\n").nth(1).unwrap_or_default();
    assert!(b.contains("verdict = \"failed\""), "{lock}");
    for args in [&["check", "--locked"][..], &["check", "--no-merge"]] {
        std::fs::remove_dir_all(book.root().join(".companion-cache")).unwrap();
        let again = book
            .run(args, |cmd| {
                cmd.expect_failure();
            })
            .stdout;
        assert_eq!(verdicts(&again), verdicts(&merged), "{args:?}");
    }
}

/// A report's verdict lines, without its counters.
fn verdicts(report: &str) -> String {
    report
        .lines()
        .filter(|l| !l.starts_with("compiler runs:"))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// A constructor a `macro_rules!` macro makes (here an exit hook, in
/// `.fini_array`), invoked with none of the words a merged build once
/// refused: example B printed A's `bye` after its own line.
#[test]
fn a_constructor_a_macro_makes_runs_in_no_other_program() {
    let chapter = "```rust example\nmacro_rules! at_exit {\n    ($f:ident) => {\n        #[used]\n        #[link_section = \".fini_array\"]\n        static AT_EXIT: extern \"C\" fn() = $f;\n    };\n}\nextern \"C\" fn bye() {\n    println!(\"bye\");\n}\nat_exit!(bye);\nfn main() {\n    println!(\"hello\");\n}\n```\n\n```output\nhello\nbye\n```\n\n```rust example\nfn main() {\n    println!(\"41\");\n}\n```\n\n```output\n41\nbye\n```\n";
    let book = BookTest::new().chapter("ch.md", chapter);
    book.run(&["check"], |cmd| {
        cmd.expect_failure().expect_stdout(str![[r#"
ok      src/ch.md:1: rust example (expect=run)
FAILED  src/ch.md:23: rust example (expect=run): the output differs from the output block
    --- expected
    +++ actual
    @@ -1,2 +1 @@
     41
    -bye
compiler runs: 4, program runs: 3, from cache: 0
1 passed, 1 failed

"#]]);
    });
}

/// A symbol a crate's macro defines without a name of Rust's (`getpid`
/// here, as `#[unsafe(no_mangle)]` in the crate) stands for the C
/// library's in the whole merged binary: example B saw A's process id.
/// No symbol of the C library's says which example made it, so the
/// group's examples all run alone.
#[test]
fn a_symbol_a_crates_macro_defines_sends_its_group_alone() {
    let lib = "//! Hooks.\n\n/// A name to use.\npub const NAME: &str = \"hooks\";\n\n/// Defines `getpid` for the whole program.\n#[macro_export]\nmacro_rules! fixed_pid {\n    ($pid:expr) => {\n        #[unsafe(no_mangle)]\n        pub extern \"C\" fn getpid() -> i32 {\n            $pid\n        }\n    };\n}\n";
    let chapter = "```rust example\nhooks::fixed_pid!(4242424);\nfn main() {\n    println!(\"{}\", std::process::id());\n}\n```\n\n```output\n4242424\n```\n\n```rust example\nfn main() {\n    println!(\"{} {}\", hooks::NAME, std::process::id() == 4242424);\n}\n```\n\n```output\nhooks true\n```\n\n```rust example\nfn main() {\n    println!(\"{}\", hooks::NAME);\n}\n```\n\n```output\nhooks\n```\n";
    let book = BookTest::new()
        .chapter("ch.md", chapter)
        .toml("[preprocessor.companion.dependencies]\nhooks = { path = \"crates/hooks\" }\n")
        .file(
            "crates/hooks/Cargo.toml",
            "[package]\nname = \"hooks\"\nversion = \"0.1.0\"\nedition = \"2021\"\npublish = false\n",
        )
        .file("crates/hooks/src/lib.rs", lib);
    book.run(&["check"], |cmd| {
        cmd.expect_failure().expect_stdout(str![[r#"
ok      src/ch.md:1: rust example (expect=run)
FAILED  src/ch.md:12: rust example (expect=run): the output differs from the output block
    --- expected
    +++ actual
    @@ -1 +1 @@
    -hooks true
    +hooks false
ok      src/ch.md:22: rust example (expect=run)
note: the book's crates are built in [ROOT]/.companion-cache/crates/lib-debug; `mdbook test -L [ROOT]/.companion-cache/crates/lib-debug` finds them
compiler runs: 5, program runs: 4, from cache: 0, dependency builds: 1
2 passed, 1 failed

"#]]);
    });
}

/// A symbol of the C library's made by `global_asm!` in one example of a
/// group without crates (`getpid`, which `std::process::id` calls) names
/// no example: the group is built again in halves, each read again, so
/// the half without it still runs merged and the other runs alone.
#[cfg(target_arch = "x86_64")]
#[test]
fn a_symbol_global_asm_defines_is_found_by_halves() {
    let example = |code: &str, output: &str| {
        format!("```rust example\n{code}\n```\n\n```output\n{output}\n```\n\n")
    };
    let chapter = [
        example(
            "std::arch::global_asm!(\".globl getpid\", \"getpid:\", \"mov eax, 4242424\", \"ret\");\nfn main() {\n    println!(\"{}\", std::process::id());\n}",
            "4242424",
        ),
        example(
            "fn main() {\n    println!(\"{}\", std::process::id() == 4242424);\n}",
            "true",
        ),
        example("fn main() {\n    println!(\"c\");\n}", "c"),
        example("fn main() {\n    println!(\"d\");\n}", "d"),
    ]
    .concat();
    let book = BookTest::new().chapter("ch.md", &chapter);
    // One worker: the four examples are one group.
    book.run(&["check", "--jobs", "1"], |cmd| {
        cmd.expect_failure().expect_stdout(str![[r#"
ok      src/ch.md:1: rust example (expect=run)
FAILED  src/ch.md:12: rust example (expect=run): the output differs from the output block
    --- expected
    +++ actual
    @@ -1 +1 @@
    -true
    +false
ok      src/ch.md:22: rust example (expect=run)
ok      src/ch.md:32: rust example (expect=run)
compiler runs: 6, program runs: 5, from cache: 0
3 passed, 1 failed

"#]]);
    });
}
