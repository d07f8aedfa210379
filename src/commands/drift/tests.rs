use super::*;
use pretty_assertions::assert_eq;

fn ran(compiled: bool, stdout: &str, stderr: &str) -> RecordedRun {
    RecordedRun {
        compiled,
        stdout: stdout.into(),
        stderr: stderr.into(),
        toolchain: "rustc 1.95.0".into(),
        status: None,
        report: None,
    }
}

fn kinds(changes: &[Change]) -> Vec<(Aspect, &str)> {
    changes
        .iter()
        .map(|c| (c.kind, c.message.as_str()))
        .collect()
}

#[test]
fn runs_differ_in_output_panic_message_error_codes_or_message() {
    let panic = |m: &str| {
        format!(
            "\nthread 'main' panicked at main.rs:2:5:\n{m}\nnote: run with `RUST_BACKTRACE=1`\n"
        )
    };
    let same = ran(true, "1\n", &panic("boom"));
    assert!(run_changes(&same, &same.clone()).is_empty());
    assert_eq!(
        kinds(&run_changes(&same, &ran(true, "2\n", &panic("bang")))),
        [
            (Aspect::Output, "the output differs"),
            (Aspect::Panic, "the panic message differs")
        ]
    );
    let e = |code: &str, path: &str| {
        ran(
            false,
            "",
            &format!("error[{code}]: no\n --> /rustc/{path}/library/core/src/ops/arith.rs:490:8\n"),
        )
    };
    let a = "59807616e1fa2540724bfbac14d7976d7e4a3860";
    let b = "e50aa6fba4e63ab34c72bf9acfd2c307c1155d1a";
    assert!(
        run_changes(&e("E0277", a), &e("E0277", b)).is_empty(),
        "the standard library's place is no change"
    );
    assert_eq!(
        kinds(&run_changes(&e("E0277", a), &e("E0308", b))),
        [(Aspect::ErrorCode, "the error codes differ: E0277 → E0308")]
    );
    assert_eq!(
        kinds(&run_changes(
            &e("E0277", a),
            &ran(false, "", "error[E0277]: yes\n")
        )),
        [(Aspect::Message, "the compiler's message differs")]
    );
}

#[test]
fn a_verdict_change_says_both_toolchains_and_why() {
    let entry = |verdict, toolchain: &str| lock::Entry {
        chapter: "src/a.md".into(),
        line: 3,
        what: "rust example".into(),
        hash: "h".into(),
        expect: mdbook_companion_core::expect::Expect::CompileFail,
        verdict,
        toolchain: toolchain.into(),
        missing: None,
        run: None,
    };
    let was = entry(Recorded::Passed, "rustc 1.95.0 (59807616e 2026-04-14)");
    let now = entry(
        Recorded::Failed,
        "rustc 1.97.0-nightly (e50aa6fba 2026-05-19)",
    );
    assert!(verdict_change(&was, &was, &Verdict::Passed).is_empty());
    let c = verdict_change(&was, &now, &Verdict::fail("compiled"));
    assert_eq!(
        kinds(&c),
        [(
            Aspect::Verdict,
            "passed with rustc 1.95.0, failed with rustc 1.97.0-nightly: compiled"
        )]
    );
}

#[test]
fn toolchains_are_named_by_their_first_two_words() {
    assert_eq!(short("rustc 1.95.0 (59807616e 2026-04-14)"), "rustc 1.95.0");
    assert_eq!(short("rustc"), "rustc");
    assert_eq!(short(""), "no compiler");
}
