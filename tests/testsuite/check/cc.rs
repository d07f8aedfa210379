//! The C and C++ checker through the library, with the real `cc`.

use super::*;
use pretty_assertions::assert_eq;

fn c_claim(lang: Lang, expect: Expect, source: &str, output: Option<&str>) -> Claim {
    let mut claim = Claim::new(
        "src/c.md",
        0,
        format!("{} side", lang.fence()),
        lang,
        source,
        expect,
    );
    claim.origin.line = 1;
    claim.expectation.output = output.map(str::to_owned);
    claim
}

fn config(root: &Path, table: Value) -> Config {
    Config::from_json(
        root.to_path_buf(),
        &serde_json::json!({"preprocessor": {"companion": table}}),
    )
    .expect("config")
}

fn status(v: &Verdict) -> String {
    match v {
        Verdict::Passed => "passed".into(),
        Verdict::Failed { message, .. } => format!("failed: {message}"),
        Verdict::Ignored => "ignored".into(),
        Verdict::Unchecked { tool, .. } => format!("unchecked: {tool}"),
        Verdict::OtherArch { here, .. } => format!("other-arch: {here}"),
    }
}

const OVERFLOW: &str = "#include <limits.h>\nint main(void) {\n    volatile int x = INT_MAX;\n    x += 1;\n    return 0;\n}\n";

fn c_claims() -> Vec<Claim> {
    use Expect::*;
    use Lang::*;
    vec![
        c_claim(
            C,
            Compile,
            "int divide(int a, int b) { return a / b; }\n",
            None,
        ),
        c_claim(C, Compile, "int f(void) { return undeclared; }\n", None),
        c_claim(
            C,
            Run,
            "#include <stdio.h>\nint main(void) { printf(\"%d\\n\", 6 * 7); return 0; }\n",
            Some("42\n"),
        ),
        c_claim(
            C,
            Run,
            "#include <stdio.h>\nint main(void) { printf(\"%d\\n\", 6 * 7); return 0; }\n",
            Some("43\n"),
        ),
        c_claim(C, Ub, OVERFLOW, Some("signed integer overflow")),
        c_claim(C, Ub, "int main(void) { return 0; }\n", None),
        c_claim(
            Cpp,
            Run,
            "#include <iostream>\nint main() { std::cout << \"hi\" << std::endl; }\n",
            Some("hi"),
        ),
        c_claim(
            Cpp,
            Compile,
            "template <typename T> T twice(T x) { return x + x; }\nint f() { return twice(nullptr); }\n",
            None,
        ),
    ]
}

#[test]
fn c_and_cpp_claims_are_checked_with_the_real_cc() {
    let dir = tempfile::tempdir().unwrap();
    let checker = Checker::new(&config(dir.path(), serde_json::json!({})));
    let got: Vec<String> = checker
        .check_all(&c_claims().iter().map(Claim::stated).collect::<Vec<_>>())
        .iter()
        .map(|o| status(&o.verdict))
        .collect();
    assert_eq!(
        got,
        [
            "passed",
            "failed: does not compile",
            "passed",
            "failed: the output differs from the output block",
            "passed",
            "failed: UndefinedBehaviorSanitizer reported nothing (the program exited successfully); the side says `expect=ub`",
            "passed",
            "failed: does not compile",
        ]
    );
    let ub = checker.check(&c_claims()[4].stated());
    assert_eq!(
        ub.actual.as_deref(),
        Some(
            "runtime error: signed integer overflow: 2147483647 + 1 cannot be represented in type 'int'"
        )
    );
}

#[test]
fn c_claims_are_cached_and_a_missing_cc_is_unchecked() {
    let dir = tempfile::tempdir().unwrap();
    let (cc, log) = logging_wrapper(dir.path(), "logging-cc", "cc");
    let cfg = config(dir.path(), serde_json::json!({ "cc": cc }));
    let first = Checker::new(&cfg);
    let before: Vec<Verdict> = first
        .check_all(&c_claims().iter().map(Claim::stated).collect::<Vec<_>>())
        .into_iter()
        .map(|o| o.verdict)
        .collect();
    // Eight claims, seven distinct programs: the two `run` claims of the
    // same program share one compile and run; the one whose output
    // differs from its block is run a second time (output that varies).
    assert_eq!(first.counters().compiler_runs, 8);
    assert_eq!(compile_calls(&log), 8);
    let second = Checker::new(&cfg);
    let after: Vec<Verdict> = second
        .check_all(&c_claims().iter().map(Claim::stated).collect::<Vec<_>>())
        .into_iter()
        .map(|o| o.verdict)
        .collect();
    assert_eq!(after, before);
    assert_eq!(
        (
            second.counters().compiler_runs,
            second.counters().cache_hits
        ),
        (0, 8)
    );
    assert_eq!(compile_calls(&log), 8, "no cc run the second time");

    let missing = Checker::new(&config(
        dir.path(),
        serde_json::json!({"cc": "/nonexistent/cc"}),
    ));
    for o in missing.check_all(&c_claims().iter().map(Claim::stated).collect::<Vec<_>>()) {
        assert_eq!(
            o.verdict,
            Verdict::Unchecked {
                tool: "/nonexistent/cc".into(),
                key: None,
            }
        );
        assert!(o.verdict.is_failure());
    }
}

#[test]
fn warnings_none_is_checked_with_the_sides_flags() {
    let dir = tempfile::tempdir().unwrap();
    let checker = Checker::new(&config(dir.path(), serde_json::json!({})));
    let unused_param = "int f(int a, int b) { return a; }\n";
    let mut quiet = c_claim(Lang::C, Expect::Compile, unused_param, None);
    quiet.expectation.no_warnings = true;
    // `-Wall` alone says nothing of an unused parameter.
    assert_eq!(status(&checker.check(&quiet.stated()).verdict), "passed");
    // `-Wextra` does, and the claim quotes it.
    let mut loud = quiet.clone();
    loud.program.flags = vec!["-Wextra".into()];
    let v = status(&checker.check(&loud.stated()).verdict);
    // (gcc quotes the name with the locale's quotation marks.)
    assert!(
        v.starts_with("failed: the compiler warned: main.c:1:18: warning: unused parameter ")
            && v.ends_with(" [-Wunused-parameter]; the block says `warnings=none`"),
        "{v}"
    );
    // Without the claim, a warning is no failure.
    loud.expectation.no_warnings = false;
    assert_eq!(status(&checker.check(&loud.stated()).verdict), "passed");
    // A Rust example may claim it too.
    let mut rust = c_claim(Lang::Rust, Expect::Run, "fn main() { let x = 1; }\n", None);
    rust.expectation.no_warnings = true;
    let v = status(&checker.check(&rust.stated()).verdict);
    assert!(v.contains("warning: unused variable: `x`"), "{v}");
    rust.program.source = "fn main() { let _x = 1; }\n".into();
    assert_eq!(status(&checker.check(&rust.stated()).verdict), "passed");
}
