//! A claim in `companion.lock`: the hash that names it there (everything
//! compiled and expected, not the compiler's version), and the verdict
//! the lock holds for it, for a build whose compiler is missing or is the
//! lock's.

use super::verdict::{Outcome, Verdict, normalize};
use super::{Checker, backend};
use crate::lock;
use mdbook_companion_core::claim::{Expectation, Program, Recorded, Stated};
use mdbook_companion_core::lang::Compiler;
use std::sync::atomic::Ordering;

impl Checker {
    /// The hash that names `claim` in the lock: everything compiled and
    /// expected, but not the compiler's version (a machine without the
    /// compiler must find it). Every field of the program and of the
    /// expectation is named here (one added and left out does not
    /// compile): in the key, in the job's part of it, or left out and
    /// why. The parts and their order are those of every lock written.
    pub fn claim_key(&self, claim: &Stated<'_>) -> String {
        let Stated {
            program,
            expectation,
            // The caller's number for the claim decides nothing.
            id: _,
        } = *claim;
        let Program {
            lang,
            source,
            // In the job's part: edition, mode and flags are its
            // arguments, a plain block's shape its flags and file.
            edition: _,
            mode: _,
            flags: _,
            doctest,
            // Where the program stands in the file, and the wrapping
            // that places its errors there, decide no verdict.
            wrapped: _,
            lines: _,
        } = program;
        let Expectation {
            expect,
            output,
            unordered,
            error,
            error_line,
            no_warnings,
            sanitize,
            asm,
            ignore,
        } = expectation;
        // The compiler by its key (not the configured command), so the
        // key is the same on every machine.
        let tool = lang.compiler().map_or("", Compiler::key);
        let job = backend::of(*lang).job(claim, tool);
        let used = self.used(claim);
        let crates = match used.is_empty() {
            true => String::new(),
            false => match self.crates.link_key(&used, true) {
                Ok(fp) => format!("{}\u{0}{fp}", used.join(",")),
                Err(_) => used.join(","),
            },
        };
        let mut parts: Vec<String> = vec![
            "claim-v1".into(),
            lang.fence().into(),
            job.key_parts(),
            source.clone(),
            expect.name().into(),
            output
                .as_deref()
                .map(normalize)
                .unwrap_or_else(|| "\u{0}".into()),
            error.clone().unwrap_or_default(),
            ignore.to_string(),
        ];
        // Parts that only newer claims have: absent, a key stays the same.
        if *no_warnings {
            parts.push("warnings=none".into());
        }
        if !sanitize.is_empty() {
            parts.push(format!("sanitize={}", sanitize.value()));
        }
        if *unordered {
            parts.push(mdbook_companion_core::claim::UNORDERED.into());
        }
        if let Some(a) = asm {
            parts.push(self.asm_key(a));
        }
        if let Some(d) = doctest {
            parts.push(d.error_codes.join(","));
        }
        if let Some(e) = error_line {
            parts.push(format!("error-line={}", e.line));
        }
        if !crates.is_empty() {
            parts.push(crates);
        }
        for f in &self.filters {
            parts.push(format!("{}\u{0}{}", f.pattern.as_str(), f.replacement));
        }
        let bytes: Vec<&[u8]> = parts.iter().map(|p| p.as_bytes()).collect();
        lock::hash(&bytes)
    }

    /// The verdict the lock holds for `claim`, when it holds one and
    /// `version` (the compiler's, if it answered) allows trusting it.
    pub(super) fn locked_outcome(
        &self,
        claim: &Stated<'_>,
        version: Option<&str>,
    ) -> Option<Outcome> {
        let entry = self.lock.as_ref()?.block(&self.claim_key(claim))?.clone();
        if version.is_some_and(|v| lock::toolchain(v) != entry.toolchain) {
            return None;
        }
        let verdict = match entry.verdict {
            Recorded::Passed => Verdict::Passed,
            Recorded::Ignored => Verdict::Ignored,
            Recorded::Unchecked | Recorded::OtherArch => return None,
            Recorded::Failed => Verdict::fail(format!(
                "companion.lock records that this failed ({}); run `mdbook-companion check` for the details",
                entry.toolchain
            )),
        };
        self.cache_hits.fetch_add(1, Ordering::Relaxed);
        Some(Outcome {
            verdict,
            actual: None,
            cached: true,
            merged: false,
        })
    }
}
