//! What `drift` asks of a checker beyond verdicts: the warnings the
//! compiler gives a Rust claim's program.
//!
//! A check's observation cannot tell: merged builds compile with `-A
//! warnings` and store what they saw under each claim's own key. So the
//! warnings are asked for on their own: the claim's compile stopped after
//! analysis (`--emit=metadata`, where rustc's lints run), nothing run,
//! cached under the `warnings` namespace by the claim's key (which holds
//! the compiler's version), so a warm `drift` starts no compiler.

use super::{Checker, Expect, Stated};
use crate::cache::Cache;
use crate::exec;

/// The cache namespace of warnings.
const NAMESPACE: &str = "warnings";

impl Checker {
    /// The warnings the compiler gives `claim`'s program, each as its
    /// first line and its location (`warning: unused variable: `x`` and
    /// ` --> main.rs:2:9`); `None` for a claim that is not a Rust program
    /// meant to compile, or when the compiler cannot be run.
    pub fn warnings(&self, claim: &Stated<'_>) -> Option<Vec<String>> {
        if !super::backend::of(claim.program.lang).lists_warnings()
            || claim.expectation.ignore
            || matches!(claim.expectation.expect, Expect::CompileFail | Expect::Asm)
        {
            return None;
        }
        let tool = self.tool(claim.program.lang).to_owned();
        let version = exec::tool_version_cached(&tool, &self.cache)?;
        let used = self.used(claim);
        let (mut job, key) = self.job_and_key(claim, &tool, &version, &used).ok()?;
        let key = Cache::key(&[b"warnings-v1", key.as_bytes()]);
        if let Some(text) = self
            .cache
            .get(NAMESPACE, &key)
            .and_then(|b| String::from_utf8(b).ok())
        {
            return Some(parse(&text));
        }
        if !used.is_empty() {
            self.link_crates(&mut job, claim.program.mode, &used).ok()?;
        }
        if !job.args.iter().any(|a| a == "--emit=metadata") {
            let at = job.args.len().saturating_sub(3);
            job.args.insert(at, "--emit=metadata".to_owned());
        }
        job.run = None;
        let obs = self.execute(&job, &claim.program.source)?;
        if obs.compile_timed_out {
            return None;
        }
        self.cache.put(NAMESPACE, &key, obs.diagnostics.as_bytes());
        Some(parse(&obs.diagnostics))
    }
}

/// The warnings of rustc's diagnostics: each warning's first line and
/// the line of its location, without the count at the end.
fn parse(diagnostics: &str) -> Vec<String> {
    let lines: Vec<&str> = diagnostics.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let is_warning = line.starts_with("warning:") || line.starts_with("warning[");
        if !is_warning || line.contains("warning emitted") || line.contains("warnings emitted") {
            continue;
        }
        let at = lines
            .get(i + 1)
            .filter(|l| l.trim_start().starts_with("--> "))
            .map(|l| format!("\n{}", l.trim_end()))
            .unwrap_or_default();
        out.push(format!("{}{at}", line.trim_end()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn warnings_are_their_first_lines_and_locations() {
        let text = "warning: unused variable: `x`\n --> main.rs:2:9\n  |\n2 |     let x = 1;\n  |         ^\n\nwarning[E0170]: pattern binding\n\nwarning: 2 warnings emitted\n\nerror: not a warning\n";
        assert_eq!(
            parse(text),
            [
                "warning: unused variable: `x`\n --> main.rs:2:9",
                "warning[E0170]: pattern binding"
            ]
        );
        assert!(parse("").is_empty());
    }
}
