//! The three claims of an exercise, parsed from a chapter and checked by
//! the engine with the real `rustc`: verdicts, failures that name the
//! tests and show their output, merged builds that agree with compiles
//! alone, and a warm check with no compiler start.

use mdbook_companion_core::claim::Claim;
use mdbook_companion_core::config::Config;
use mdbook_companion_core::markdown;
use mdbook_companion_directives::contract::Unplaced;
use mdbook_companion_directives::exercise::{Exercise, PATTERN};
use mdbook_companion_directives::{Env, Shared, Target};
use mdbook_companion_engine::check::{Checker, Verdict};
use pretty_assertions::assert_eq;
use std::path::Path;

/// The chapter of four exercises: one good, three broken each their way.
pub(super) const VERDICTS: &str = include_str!("verdicts.md");

fn config(root: &Path) -> Config {
    Config::from_json(root.to_path_buf(), &serde_json::json!({})).expect("config")
}

/// The claims of `ex`, in the chapter `file` of `text`.
fn claims_of(ex: &Exercise, file: &str, text: &str, config: &Config) -> Vec<Claim> {
    let shared = Shared::disabled();
    let env = Env {
        config,
        target: Target::Test,
        text,
        file,
        shared: &shared,
        numbers: Default::default(),
        place: &Unplaced,
    };
    ex.claims(&env)
}

/// The claims of every exercise of `text`, as `check` collects them.
pub(super) fn claims(text: &str, config: &Config) -> Vec<Claim> {
    markdown::scan(text, &[PATTERN])
        .iter()
        .flat_map(|b| {
            let ex = Exercise::parse(b, text, config).expect("a valid exercise");
            claims_of(&ex, "src/verdicts.md", text, config)
        })
        .collect()
}

/// `what: verdict` for each claim, the verdict's message when it failed.
fn verdicts(claims: &[Claim], checker: &Checker, merge: bool) -> Vec<String> {
    if merge {
        checker.prepare(&claims.iter().map(Claim::stated).collect::<Vec<_>>());
    }
    claims
        .iter()
        .zip(checker.check_all(&claims.iter().map(Claim::stated).collect::<Vec<_>>()))
        .map(|(c, o)| match o.verdict {
            Verdict::Passed => format!("{} {}: ok", c.origin.what, c.expectation.expect.name()),
            Verdict::Failed { message, .. } => {
                format!(
                    "{} {}: {message}",
                    c.origin.what,
                    c.expectation.expect.name()
                )
            }
            other => format!("{} {}: {other}", c.origin.what, c.expectation.expect.name()),
        })
        .collect()
}

#[test]
fn each_claim_gets_its_own_verdict_and_merged_builds_agree() {
    let dir = tempfile::tempdir().unwrap();
    let alone_dir = tempfile::tempdir().unwrap();
    let cfg = config(dir.path());
    let claims = claims(VERDICTS, &cfg);
    assert_eq!(claims.len(), 12);
    let merged = Checker::new(&cfg);
    let got = verdicts(&claims, &merged, true);
    assert_eq!(
        got,
        [
            "exercise \"Safe division\" (starter) starter-compiles: ok",
            "exercise \"Safe division\" (tests) starter-fails: ok",
            "exercise \"Safe division\" (solution) solution-passes: ok",
            "exercise \"Tests that test nothing\" (starter) starter-compiles: ok",
            "exercise \"Tests that test nothing\" (tests) starter-fails: every test passes on the starter (`tests::doubles`); the tests must fail on it, or they test nothing the reader writes",
            "exercise \"Tests that test nothing\" (solution) solution-passes: ok",
            "exercise \"A wrong solution\" (starter) starter-compiles: ok",
            "exercise \"A wrong solution\" (tests) starter-fails: ok",
            "exercise \"A wrong solution\" (solution) solution-passes: 1 test fails on the solution: `tests::negative`",
            "exercise \"A starter the tests cannot use\" (starter) starter-compiles: the starter does not compile with the tests",
            "exercise \"A starter the tests cannot use\" (tests) starter-fails: the starter does not compile with the tests",
            "exercise \"A starter the tests cannot use\" (solution) solution-passes: ok",
        ]
    );
    // Eight programs (a starter's two claims share one); the good ones
    // build together, the one that does not compile alone.
    let runs = merged.counters().compiler_runs;
    assert!(runs < 8, "{runs} compiler starts for 8 test crates");
    let alone = Checker::new(&config(alone_dir.path()));
    assert_eq!(verdicts(&claims, &alone, false), got, "as compiled alone");
    assert_eq!(alone.counters().compiler_runs, 8);
    // Warm: the same claims again, no compiler start.
    let warm = Checker::new(&cfg);
    assert_eq!(verdicts(&claims, &warm, true), got);
    assert_eq!(warm.counters().compiler_runs, 0);
}

#[test]
fn a_failure_names_the_tests_and_shows_their_output() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = config(dir.path());
    let claims = claims(VERDICTS, &cfg);
    let checker = Checker::new(&cfg);
    checker.prepare(&claims.iter().map(Claim::stated).collect::<Vec<_>>());
    let wrong = checker.check(&claims[8].stated());
    let Verdict::Failed { detail, .. } = wrong.verdict else {
        panic!("the wrong solution passed");
    };
    let detail = detail.expect("the failing tests' output");
    assert!(
        detail.starts_with("---- tests::negative ----\n"),
        "{detail}"
    );
    assert!(detail.contains("abs(-5)"), "{detail}");
    assert!(!detail.contains("tests::positive"), "{detail}");
    assert!(!detail.contains("__companion"), "{detail}");
    let mismatch = checker.check(&claims[9].stated());
    let Verdict::Failed { detail, .. } = mismatch.verdict else {
        panic!("a starter that does not compile passed");
    };
    let detail = detail.expect("rustc's diagnostics");
    assert!(detail.contains("error[E0061]"), "{detail}");
}

/// The program mdBook's Run button (and `mdbook test`) gets for an
/// exercise: its code, then the tests run by a stand-in for libtest.
fn runner_program(code: &str, tests: &str) -> String {
    format!(
        "{code}\n{}",
        mdbook_companion_core::code::test_runner(tests)
    )
}

#[test]
fn the_run_button_program_runs_the_tests_as_libtest_would_report_them() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = config(dir.path());
    let text = include_str!("course.md")
        .replace("mylib::double(p.x)", "p.x * 2")
        .replace("mylib::double(p.y)", "p.y * 2")
        .replace(
            "use mylib::Point;",
            "#[derive(Debug, PartialEq)] pub struct Point { pub x: i32, pub y: i32 }",
        );
    let checker = Checker::new(&cfg);
    for block in markdown::scan(&text, &[PATTERN]) {
        let ex = Exercise::parse(&block, &text, &cfg).unwrap();
        let mut claim = claims_of(&ex, "src/course.md", &text, &cfg).remove(0);
        claim.expectation.expect = mdbook_companion_engine::check::Expect::Run;
        claim.program.source = runner_program(&ex.solution.source, &ex.tests.source);
        let solved = checker.check(&claim.stated());
        assert_eq!(solved.verdict, Verdict::Passed, "{}", claim.program.source);
        let out = solved.actual.unwrap();
        assert!(
            out.contains("test tests::") && out.ends_with("test result: ok. 0 failed"),
            "{out}"
        );
        claim.program.source = runner_program(&ex.starter.source, &ex.tests.source);
        let starter = checker.check(&claim.stated());
        let Verdict::Failed { message, .. } = starter.verdict else {
            panic!("the starter passed: {}", claim.program.source);
        };
        // The first panic a test met is named (the runner goes on).
        assert_eq!(message, "the program panicked: not yet implemented");
        let out = starter.actual.unwrap();
        assert!(
            out.contains(" ... FAILED") && out.ends_with(" failed"),
            "{out}"
        );
    }
}
