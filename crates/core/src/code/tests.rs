use super::*;

#[test]
fn an_exercises_tests_are_its_test_functions_after_the_module_opens() {
    let tests = "#[test]\nfn a() {}\n\n#[test] #[should_panic(expected = \"x\")]\nfn b() {}\n\n#[test]\n#[ignore = \"slow\"]\npub fn c() {}\n\nfn helper() {}\n";
    let krate = test_crate("#[test]\nfn not_a_test_of_the_exercise() {}\n", tests);
    let found = exercise_tests(&krate).map(test_functions).unwrap();
    let test = |name: &str, should_panic, ignored| TestFn {
        name: name.into(),
        should_panic,
        ignored,
    };
    assert_eq!(
        found,
        [
            test("a", false, false),
            test("b", true, false),
            test("c", false, true)
        ]
    );
    assert_eq!(exercise_tests("fn main() {}\n"), None);
}

#[test]
fn the_runner_finds_each_test_and_drops_only_harness_attributes() {
    let tests = "#[test]\nfn plain() { assert!(one() == 1); }\n\n#[test]\n#[should_panic(expected = \"a]b\")]\nfn panics() { panic!(\"a]b\") }\n\n#[test] #[ignore]\nfn later() {}\n\n#[derive(Debug)]\nstruct Helper;\n\n#[test]\nfn fallible() -> Result<(), String> { Ok(()) }\n";
    let runner = test_runner(tests);
    for want in [
        "(\"plain\", false, false, || __companion_ok(plain())),",
        "(\"panics\", true, false, || __companion_ok(panics())),",
        "(\"later\", false, true, || __companion_ok(later())),",
        "(\"fallible\", false, false, || __companion_ok(fallible())),",
        "#[derive(Debug)]\nstruct Helper;",
        "fn main() {\n    tests::__companion_run();\n}",
    ] {
        assert!(runner.contains(want), "{want}\n{runner}");
    }
    assert!(!runner.contains("#[test]"), "{runner}");
    assert!(!runner.contains("should_panic"), "{runner}");
    assert!(!runner.contains("#[ignore]"), "{runner}");
    assert_eq!(hidden("a\n\n  b\n"), "# a\n#\n#   b\n");
    assert_eq!(rust_shown(&hidden("fn main() {}\n")), "");
    assert_eq!(rust_source(&hidden("  x\n")), "  x\n");
}

#[test]
fn a_test_crate_holds_the_tests_in_a_module_that_sees_the_code() {
    let code = "pub fn one() -> i32 { 1 }";
    let tests = "#[test]\nfn is_one() { assert_eq!(one(), 1); }\n";
    let krate = test_crate(code, tests);
    assert_eq!(
        krate,
        "pub fn one() -> i32 { 1 }\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n\n#[test]\nfn is_one() { assert_eq!(one(), 1); }\n}\n"
    );
    assert_eq!(krate.lines().nth(test_crate_offset(code)), Some("#[test]"));
}
use pretty_assertions::assert_eq;

#[test]
fn rust_hidden_lines_are_unhidden() {
    let code =
        "# fn main() {\n    # let x = 1;\nlet y = 2;\n## not hidden\n#\n#[derive(Debug)]\n# }\n";
    assert_eq!(
        rust_source(code),
        "fn main() {\n    let x = 1;\nlet y = 2;\n# not hidden\n\n#[derive(Debug)]\n}\n"
    );
}

#[test]
fn rust_shown_drops_hidden_lines() {
    let code =
        "# fn main() {\n    # let x = 1;\nlet y = 2;\n## not hidden\n#\n#[derive(Debug)]\n# }\n";
    assert_eq!(
        rust_shown(code),
        "let y = 2;\n# not hidden\n#[derive(Debug)]\n"
    );
}

#[test]
fn program_wraps_code_without_main() {
    assert_eq!(
        rust_program("#![allow(unused)]\nlet x = 1;\n"),
        "#![allow(unused)]\nfn main() {\nlet x = 1;\n}\n"
    );
    assert_eq!(rust_program("fn main() {}\n"), "fn main() {}\n");
}

#[test]
fn c_prefix_hides_lines_from_the_reader_only() {
    let code = "~ #include <stdio.h>\nint f(void) { return 1; }\n  ~ int g;\n~\n";
    let (shown, full) = c_split(code, "~ ");
    assert_eq!(shown, "int f(void) { return 1; }\n");
    assert_eq!(
        full,
        "#include <stdio.h>\nint f(void) { return 1; }\n  int g;\n\n"
    );
}

#[test]
fn relocate_rewrites_only_whole_places_it_knows() {
    let to = |l: usize, c: usize| (l < 10).then(|| format!("src/c.md:{}:{c}", l + 2));
    assert_eq!(
        relocate(
            " --> main.rs:4:12\nat main.rs:40:1 xmain.rs:1:1 main.rs:2 main.rs:",
            "main.rs:",
            to
        ),
        " --> src/c.md:6:12\nat main.rs:40:1 xmain.rs:1:1 main.rs:2 main.rs:"
    );
}

#[test]
fn hidden_ends_are_cut_off_and_hidden_lines_between_stay() {
    let code = "# use std::fmt;\n#\npub fn f() {}\n# fn g() {}\n## not hidden\n# fn h() {}\n";
    assert_eq!(
        rust_hidden_ends(code),
        (
            "use std::fmt;\n\n".to_owned(),
            "pub fn f() {}\n# fn g() {}\n## not hidden\n".to_owned(),
            "fn h() {}\n".to_owned()
        )
    );
    assert_eq!(
        rust_hidden_ends("fn f() {}"),
        (String::new(), "fn f() {}".to_owned(), String::new())
    );
    assert_eq!(
        rust_hidden_ends("# fn f() {}\n"),
        ("fn f() {}\n".to_owned(), String::new(), String::new())
    );
}

#[test]
fn renumbered_gutter_widens_when_it_must() {
    let text = " --> x:2:5\n  |\n2 | let x;\n  |     ^\n  = note: n\n";
    assert_eq!(
        renumber_gutter(text, |n| Some(n + 100)),
        "   --> x:2:5\n    |\n102 | let x;\n    |     ^\n    = note: n\n"
    );
    assert_eq!(
        renumber_gutter("13 | a\n40 | b\n", |n| (n < 20).then(|| n - 11)),
        " 2 | a\n40 | b\n"
    );
}

#[test]
fn a_students_tests_are_indented_unless_a_string_spans_lines() {
    assert_eq!(
        student_crate(
            "pub fn f() {}",
            "#[test]\nfn t() {\n    f();\n}\n\nfn g() {}",
            true
        ),
        "// The starter is yours to finish: its unused names are not warned about.\n#![allow(unused)]\n\npub fn f() {}\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n    fn t() {\n        f();\n    }\n\n    fn g() {}\n}\n"
    );
    let raw = "#[test]\nfn t() {\n    let s = r#\"a\nb\"#;\n}\n";
    assert_eq!(student_crate("", raw, false), test_crate("", raw));
    for (code, spans) in [
        ("let s = \"a\\\"b\"; // \"\nlet c = '\"';", false),
        ("let c = '\\''; let s = \"x\";", false),
        ("fn f<'a>(x: &'a str) {}\nlet s = \"x\";", false),
        ("let s = \"a\nb\";", true),
        ("let s = br\"a\nb\";", true),
    ] {
        assert_eq!(spans_lines(code), spans, "{code}");
    }
}
