//! Checking a claim about assembly: make the listing the panel shows
//! (cache, then `companion.lock`, then the compiler, as a build makes
//! it) and match the block's FileCheck directives against it. A claim
//! about another architecture's code is not checked on this machine.

use super::verdict::{BlockLine, Outcome, Verdict};
use super::{Checker, Stated};
use crate::asm::{self, AsmError, Request};
use crate::cache::Cache;
use mdbook_companion_core::claim::AsmClaim;
use mdbook_companion_core::filecheck::Failure;
use mdbook_companion_core::machine;

/// The cache namespace of what assembly claims' directives answered, by
/// listing and directives.
const MATCHED_NAMESPACE: &str = "check-asm";

/// The part of a claim's lock hash that the assembly claim adds.
fn key_part(a: &AsmClaim) -> String {
    let checks: Vec<String> = a
        .checks
        .directives
        .iter()
        .map(|d| format!("{}: {}", d.kind.name(), d.pattern))
        .collect();
    format!(
        "asm\u{0}{}\u{0}{}\u{0}{}\u{0}{}",
        a.syntax,
        a.arch,
        a.shown,
        checks.join("\u{1}")
    )
}

/// The listing with a marker at the line where the search stood, as
/// FileCheck shows its input.
fn annotated(listing: &str, failure: &Failure) -> String {
    let mut out = String::new();
    let lines: Vec<&str> = listing.lines().collect();
    for (i, l) in lines.iter().enumerate() {
        let mark = if i + 1 == failure.stood.line {
            ">"
        } else {
            " "
        };
        out.push_str(&format!("{mark}{:>4} | {l}\n", i + 1));
    }
    if lines.is_empty() {
        out.push_str("(the listing is empty)\n");
    }
    out
}

impl Checker {
    /// The part of a claim's lock hash that its assembly claim adds.
    pub(super) fn asm_key(&self, a: &AsmClaim) -> String {
        key_part(a)
    }

    /// Checks an assembly claim.
    pub(super) fn check_asm(&self, claim: &Stated<'_>, a: &AsmClaim) -> Outcome {
        let here = machine::host_arch();
        let outcome = |verdict| Outcome {
            verdict,
            actual: None,
            cached: false,
            merged: false,
        };
        if a.arch != here {
            return outcome(Verdict::OtherArch {
                claimed: a.arch.clone(),
                here: here.to_owned(),
            });
        }
        let req = Request {
            lang: claim.program.lang,
            source: claim.program.source.clone(),
            shown: a.shown.clone(),
            edition: claim.program.edition,
            syntax: Some(a.syntax),
            flags: claim.program.flags.clone(),
        };
        let made = match asm::made(
            &req,
            &self.config,
            &self.cache,
            self.lock.as_deref(),
            &self.crates,
        ) {
            Ok(m) => m,
            Err(AsmError::Missing { program, .. }) => {
                return outcome(Verdict::Unchecked {
                    tool: program,
                    key: None,
                });
            }
            Err(e) => {
                return outcome(Verdict::fail(format!(
                    "no assembly to check the claims against: {e}"
                )));
            }
        };
        let listing = &made.listing.text;
        let (matched, cached) = self.matched(a, listing);
        let verdict = match matched {
            Ok(()) => Verdict::Passed,
            Err(f) => Verdict::fail_at(
                f.to_string(),
                annotated(listing, &f),
                BlockLine {
                    line: f.line,
                    column: None,
                },
            ),
        };
        Outcome {
            verdict,
            actual: None,
            cached,
            merged: false,
        }
    }

    /// What `a`'s directives answer for `listing`, and whether the answer
    /// came from the cache: it is kept under the listing and the
    /// directives as written, so a warm check matches nothing again.
    fn matched(&self, a: &AsmClaim, listing: &str) -> (Result<(), Failure>, bool) {
        let key = Cache::key(&[
            b"asm-claim-v1",
            listing.as_bytes(),
            a.checks.written().as_bytes(),
        ]);
        if let Some(hit) = self
            .cache
            .get(MATCHED_NAMESPACE, &key)
            .and_then(|b| serde_json::from_slice::<Result<(), Failure>>(&b).ok())
        {
            return (hit, true);
        }
        let matched = a.checks.run(listing);
        if let Ok(bytes) = serde_json::to_vec(&matched) {
            self.cache.put(MATCHED_NAMESPACE, &key, &bytes);
        }
        (matched, false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mdbook_companion_core::claim::Claim;
    use mdbook_companion_core::expect::Expect;
    use mdbook_companion_core::filecheck;
    use mdbook_companion_core::lang::Lang;
    use mdbook_companion_core::machine::Syntax;
    use pretty_assertions::assert_eq;

    fn asm_claim(lang: Lang, source: &str, checks: &str, arch: &str) -> Claim {
        let mut c = crate::check::tests::claim(Expect::Asm, source);
        c.program.lang = lang;
        c.expectation.asm = Some(AsmClaim {
            shown: source.into(),
            syntax: Syntax::Intel,
            arch: arch.into(),
            checks: filecheck::parse(checks).unwrap(),
        });
        c
    }

    fn checker(dir: &std::path::Path) -> Checker {
        let config = mdbook_companion_core::config::Config::from_json(
            dir.to_path_buf(),
            &serde_json::json!({}),
        )
        .unwrap();
        Checker::new(&config)
    }

    #[test]
    fn claims_about_the_listing_pass_or_fail_at_their_line() {
        let dir = tempfile::tempdir().unwrap();
        let checker = checker(dir.path());
        let c = "int divide(int a, int b) { return a / b; }\n";
        let holds = asm_claim(
            Lang::C,
            c,
            "CHECK-LABEL: divide:\nCHECK-NOT: call\nCHECK: idiv\nCHECK-NOT: call",
            "x86_64",
        );
        let rust = "pub fn divide(a: i32, b: i32) -> i32 { a / b }\n";
        let both = asm_claim(
            Lang::Rust,
            rust,
            "CHECK-LABEL: divide:\nCHECK: idiv\nCHECK: panic_const_div_by_zero\nCHECK: panic_const_div_overflow",
            "x86_64",
        );
        if machine::host_arch() != "x86_64" {
            let v = checker.check(&holds.stated()).verdict;
            assert!(
                matches!(v, Verdict::OtherArch { .. }) && !v.is_failure(),
                "{v:?}"
            );
            return;
        }
        assert_eq!(checker.check(&holds.stated()).verdict, Verdict::Passed);
        assert_eq!(checker.check(&both.stated()).verdict, Verdict::Passed);
        let false_claim = asm_claim(Lang::C, c, "CHECK: idiv\nCHECK: call", "x86_64");
        let Verdict::Failed {
            message,
            detail,
            at,
            ..
        } = checker.check(&false_claim.stated()).verdict
        else {
            panic!("a call is not there");
        };
        // Told in the `asm` block's lines: its second directive; the book
        // layer names the chapter's line.
        assert!(
            message.starts_with("`CHECK: call` was not found; the search stood at line "),
            "{message}"
        );
        assert_eq!(
            at,
            Some(BlockLine {
                line: 2,
                column: None
            })
        );
        let detail = detail.unwrap();
        assert!(detail.lines().any(|l| l.starts_with('>')), "{detail}");
        // The claim's lock name changes with its directives.
        assert_ne!(
            checker.claim_key(&holds.stated()),
            checker.claim_key(&false_claim.stated())
        );
    }

    #[test]
    fn other_architectures_are_not_checked_here() {
        let dir = tempfile::tempdir().unwrap();
        let other = if machine::host_arch() == "aarch64" {
            "x86_64"
        } else {
            "aarch64"
        };
        let c = asm_claim(
            Lang::C,
            "int f(void) { return 1; }\n",
            "CHECK: nothing-like-this",
            other,
        );
        let v = checker(dir.path()).check(&c.stated()).verdict;
        assert_eq!(
            v,
            Verdict::OtherArch {
                claimed: other.into(),
                here: machine::host_arch().into()
            }
        );
        assert!(!v.is_failure());
        assert_eq!(
            v.to_string(),
            format!("not checked on {}", machine::host_arch())
        );
    }

    #[test]
    fn a_warm_check_of_an_assembly_claim_matches_nothing_again() {
        if machine::host_arch() != "x86_64" {
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let c = "int divide(int a, int b) { return a / b; }\n";
        let holds = asm_claim(
            Lang::C,
            c,
            "CHECK-LABEL: divide:\nCHECK: idiv\nCHECK: ret",
            "x86_64",
        );
        let false_claim = asm_claim(Lang::C, c, "CHECK: idiv\nCHECK: call", "x86_64");
        let work = || filecheck::WORK.with(|w| w.replace(0));
        let cold = checker(dir.path());
        let mut verdicts = Vec::new();
        for claim in [&holds, &false_claim] {
            work();
            let outcome = cold.check(&claim.stated());
            assert!(!outcome.cached);
            assert!(work() > 0, "the directives were matched");
            verdicts.push(outcome.verdict);
        }
        assert_eq!(verdicts[0], Verdict::Passed);
        assert!(verdicts[1].is_failure());
        // Another run: the same verdicts, from the cache, nothing matched.
        let warm = checker(dir.path());
        for (claim, verdict) in [&holds, &false_claim].into_iter().zip(&verdicts) {
            work();
            let outcome = warm.check(&claim.stated());
            assert_eq!(work(), 0, "matched again");
            assert!(outcome.cached);
            assert_eq!(&outcome.verdict, verdict);
        }
        // Other directives against the same listing are matched.
        let other = asm_claim(Lang::C, c, "CHECK: idiv", "x86_64");
        work();
        assert_eq!(warm.check(&other.stated()).verdict, Verdict::Passed);
        assert!(work() > 0);
    }
}
