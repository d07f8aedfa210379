use super::*;
use crate::check::tests::claim;
use pretty_assertions::assert_eq;

const STARTER: &str = "\nrunning 3 tests\ntest tests::a ... ok\ntest tests::b ... FAILED\ntest tests::c - should panic ... FAILED\n\nfailures:\n\n---- tests::b stdout ----\n\nthread 'tests::b' panicked at main.rs:3:5:\nnot yet implemented\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n---- tests::c stdout ----\nnote: test did not panic as expected at main.rs:9:8\n\nfailures:\n    tests::b\n    tests::c\n\ntest result: FAILED. 1 passed; 2 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n\n";

const PASSING: &str = "\nrunning 2 tests\ntest tests::a ... ok\ntest tests::b ... ok\n\ntest result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n\n";

/// A test crate whose tests are `a` and `b`.
fn two_tests() -> String {
    code::test_crate(
        "pub fn f() {}\n",
        "#[test]\nfn a() {}\n\n#[test]\nfn b() {\n    f();\n}\n",
    )
}

#[test]
fn a_passing_solution_needs_the_harness_whole_report() {
    let t = Duration::from_secs(10);
    let two = claim(Expect::SolutionPasses, &two_tests());
    let verdict = |stdout: &str| judge(&two.stated(), &run(0, stdout), t).0;
    let summary = |passed: usize| {
        format!(
            "\ntest result: ok. {passed} passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n"
        )
    };
    let cases: [(&str, String, &str); 6] = [
            (
                "left inside a test, exiting 0",
                "\nrunning 2 tests\ntest tests::a ... ok\ntest tests::b ... ".into(),
                "the test harness ended without its summary (`test result: …`) after 1 of 2 tests: `tests::b` did not finish",
            ),
            (
                "a summary that counts a test not listed",
                format!("\nrunning 2 tests\ntest tests::a ... ok\n{}", summary(2)),
                "the test harness's summary (`test result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out`) does not agree with the results it listed (1 passed, 0 ignored, of 2 said to run)",
            ),
            (
                "a test listed twice",
                format!("\nrunning 2 tests\ntest tests::a ... ok\ntest tests::a ... ok\n{}", summary(2)),
                "the test harness reported `tests::a` 2 times",
            ),
            (
                "fewer tests than the exercise has",
                format!("\nrunning 1 test\ntest tests::a ... ok\n{}", summary(1)),
                "the test harness reported 1 passed and 0 ignored; the exercise's tests are 2 (`tests::a`, `tests::b`)",
            ),
            (
                "another test in place of one of them",
                format!("\nrunning 2 tests\ntest tests::a ... ok\ntest tests::c ... ok\n{}", summary(2)),
                "the test harness reported 2 passed and 0 ignored; the exercise's tests are 2 (`tests::a`, `tests::b`)",
            ),
            (
                "tests filtered out",
                "\nrunning 2 tests\ntest tests::a ... ok\ntest tests::b ... ok\n\ntest result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 1 filtered out; finished in 0.00s\n".into(),
                "the test harness's summary (`test result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 1 filtered out`) does not agree with the results it listed (2 passed, 0 ignored, of 2 said to run)",
            ),
        ];
    for (what, stdout, message) in cases {
        assert_eq!(verdict(&stdout).to_string(), message, "{what}");
    }
    // What a test writes straight to stdout between its name and its
    // result, and a test in a module of the tests', are read.
    assert_eq!(
        verdict(&format!(
            "\nrunning 2 tests\ntest tests::a ... written\nok\ntest tests::inner::b ... ok\n{}",
            summary(2)
        )),
        Verdict::Passed
    );
    // An ignored test is reported ignored.
    let ignoring = claim(
        Expect::SolutionPasses,
        &code::test_crate("", "#[test]\nfn a() {}\n#[test]\n#[ignore]\nfn b() {}\n"),
    );
    let stdout = "\nrunning 2 tests\ntest tests::a ... ok\ntest tests::b ... ignored\n\ntest result: ok. 1 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.00s\n";
    assert_eq!(
        judge(&ignoring.stated(), &run(0, stdout), t).0,
        Verdict::Passed
    );
}

#[test]
fn what_a_failing_test_printed_is_never_the_report() {
    // A failing test that printed (captured by the harness) a result
    // and a summary of its own: its output, shown under its name.
    let stdout = "\nrunning 2 tests\ntest tests::a ... ok\ntest tests::b ... FAILED\n\nfailures:\n\n---- tests::b stdout ----\ntest tests::b ... ok\n\ntest result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n\nfailures:\n    tests::b\n\ntest result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n";
    let report = parse(stdout);
    assert!(!report.summary.is_some_and(|s| s.ok), "{report:?}");
    let two = claim(Expect::SolutionPasses, &two_tests());
    for code in [0, 101] {
        let verdict = judge(&two.stated(), &run(code, stdout), Duration::from_secs(10)).0;
        assert!(
            verdict
                .to_string()
                .starts_with("1 test fails on the solution: `tests::b`"),
            "{verdict}"
        );
    }
}

fn run(code: i32, stdout: &str) -> Observation {
    Observation {
        compiled: true,
        inexact: false,
        inert: false,
        diagnostics: String::new(),
        compile_timed_out: false,
        run: Some(RunResult {
            code: Some(code),
            stdout: stdout.into(),
            stderr: String::new(),
            timed_out: false,
            truncated: false,
            report: None,
            over_memory: None,
        }),
    }
}

#[test]
fn the_report_names_each_test_and_keeps_each_failures_output() {
    let r = parse(STARTER);
    assert_eq!(r.passed, ["tests::a"]);
    let names: Vec<&str> = r.failed.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["tests::b", "tests::c"]);
    assert_eq!(
        r.failures(),
        "---- tests::b ----\nthread 'tests::b' panicked at main.rs:3:5:\nnot yet implemented\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n---- tests::c ----\nnote: test did not panic as expected at main.rs:9:8\n"
    );
}

#[test]
fn each_claim_reads_the_same_report_its_own_way() {
    let t = Duration::from_secs(10);
    let verdict = |expect, obs: &Observation| judge(&claim(expect, "").stated(), obs, t).0;
    let failing = run(101, STARTER);
    let passing = run(0, PASSING);
    assert_eq!(verdict(Expect::StarterCompiles, &failing), Verdict::Passed);
    assert_eq!(verdict(Expect::StarterFails, &failing), Verdict::Passed);
    assert_eq!(
        verdict(Expect::StarterFails, &passing).to_string(),
        "every test passes on the starter (`tests::a`, `tests::b`); the tests must fail on it, or they test nothing the reader writes"
    );
    let two = claim(Expect::SolutionPasses, &two_tests());
    assert_eq!(judge(&two.stated(), &passing, t).0, Verdict::Passed);
    let Verdict::Failed {
        message, detail, ..
    } = verdict(Expect::SolutionPasses, &failing)
    else {
        panic!("a failing solution passed");
    };
    assert_eq!(
        message,
        "2 tests fail on the solution: `tests::b`, `tests::c`"
    );
    let detail = detail.unwrap();
    assert!(detail.contains("not yet implemented"), "{detail}");
    assert!(
        !detail.contains("main.rs is the test crate"),
        "no layout without a crate"
    );
    let mut krate = claim(
        Expect::SolutionPasses,
        &mdbook_companion_core::code::test_crate("fn a() {}\nfn b() {}\n", "#[test]\nfn t() {}\n"),
    );
    krate.origin.file = "src/a.md".into();
    let Verdict::Failed { detail, .. } = judge(&krate.stated(), &failing, t).0 else {
        panic!("passed");
    };
    assert!(
        detail.unwrap().ends_with(
            "\n(main.rs is the test crate: the code on lines 1-2, the tests from line 8)"
        ),
    );
    let none = run(
        0,
        "\nrunning 0 tests\n\ntest result: ok. 0 passed; 0 failed\n",
    );
    for e in [Expect::StarterFails, Expect::SolutionPasses] {
        assert_eq!(
            verdict(e, &none).to_string(),
            "the tests hold no #[test] function"
        );
    }
    let broken = Observation {
        compiled: false,
        inexact: false,
        inert: false,
        diagnostics: "error[E0425]: cannot find function `f`".into(),
        compile_timed_out: false,
        run: None,
    };
    for (e, what) in [
        (Expect::StarterCompiles, "the starter"),
        (Expect::StarterFails, "the starter"),
        (Expect::SolutionPasses, "the solution"),
    ] {
        assert_eq!(
            verdict(e, &broken).to_string(),
            format!("{what} does not compile with the tests")
        );
    }
}
