//! `verify = true`: the claims of a chapter checked during the build, a
//! false one marked on the page above its block; and what the engine
//! tells in a block's lines placed in the chapter's ([`placed`]), for
//! every command that checks claims.

use super::resolve::BookContext;
use mdbook_companion_core::claim::{Claim, Origin};
use mdbook_companion_core::config::{Config, OnFailure};
use mdbook_companion_core::markdown;
use mdbook_companion_core::offsets::LineIndex;
use mdbook_companion_core::problem::{Located, MissingTool, Problem, Purpose};
use mdbook_companion_directives as directive;
use mdbook_companion_engine::check;

/// `verify = true`: checks the claims the directives made when they
/// rendered, each with the index of its block (from the cache when
/// unchanged); a false claim fails the build or, under `on-failure =
/// "continue"`, is warned about and marked on the page above its block.
/// The claims not checked for want of a compiler (told once for the
/// book), and the false ones, located (for the caller to route as
/// `on-failure` says).
pub(super) fn verify(
    config: &Config,
    run: &BookContext,
    file: &str,
    text: &str,
    claims: &[(usize, Claim)],
    outs: &mut [markdown::Out],
) -> (Vec<MissingTool<Located>>, Vec<Located>) {
    let (mut unchecked, mut failed) = (Vec::new(), Vec::new());
    if claims.is_empty() {
        return (unchecked, failed);
    }
    let checker = check::Checker::new(config)
        .with_lock(run.lock.clone())
        .with_crates(run.crates(config));
    // Cold claims compile together, as `check` does.
    let stated: Vec<_> = (claims.iter().enumerate())
        .map(|(i, (_, c))| c.stated().numbered(i))
        .collect();
    checker.name_claims(Some(namer(claims.iter().map(|(_, c)| c))));
    checker.prepare(&stated);
    let results = checker.check_all(&stated);
    // The marks of a block's false claims, in the block's order.
    let mut marks: std::collections::BTreeMap<usize, Vec<String>> = Default::default();
    let mut index = None;
    for ((i, claim), result) in claims.iter().zip(results) {
        if !result.verdict.is_failure() {
            continue;
        }
        let index = index.get_or_insert_with(|| LineIndex::new(text));
        // Directives leave a claim's line 0 (only `check` counts lines);
        // its block's line is that of its info string in this text.
        let origin = Origin {
            line: index.line0(claim.origin.offset) + 1,
            ..claim.origin.clone()
        };
        let result = placed(result, &origin);
        let full = result.verdict.to_string();
        let short = full.lines().next().unwrap_or_default().to_owned();
        let how = match result.verdict {
            check::Verdict::Unchecked { .. } => "was not checked",
            _ => "does not hold",
        };
        let head = format!(
            "{} (expect={}) {how}",
            claim.origin.what,
            claim.expectation.expect.name()
        );
        let problem = Problem::at(claim.origin.offset, format!("{head}: {full}"));
        let located = Located::indexed(file, text, index, &problem);
        // A missing compiler is reported once for the book, not per block.
        let missing = match &result.verdict {
            check::Verdict::Unchecked { tool, key } => Some(MissingTool {
                tool: tool.clone(),
                key: key.unwrap_or(claim.program.lang.key()),
                purpose: Purpose::Check,
                at: located.clone(),
            }),
            _ => None,
        };
        if config.on_failure == OnFailure::Continue {
            let message = format!("{head}: {short}");
            (marks.entry(*i).or_default()).push(directive::alert(
                " companion-verify",
                &located.place(),
                &message,
            ));
        }
        match missing {
            Some(m) => unchecked.push(m),
            None => failed.push(located),
        }
    }
    for (i, lines) in marks {
        let mut marked = markdown::Out::new();
        for line in lines {
            marked.line(line);
        }
        marked.append(std::mem::take(&mut outs[i]));
        outs[i] = marked;
    }
    (unchecked, failed)
}

/// An outcome as the book tells it: a failure the engine told at a line
/// of the claim's block starts with the chapter's `file:line:` (and the
/// column), as the book's located messages do. The engine never knows
/// where the block stands; the claim's origin does.
pub fn placed(mut outcome: check::Outcome, origin: &Origin) -> check::Outcome {
    if let check::Verdict::Failed { message, at, .. } = &mut outcome.verdict
        && let Some(at) = at.take()
    {
        let column = at.column.map(|c| format!(":{c}")).unwrap_or_default();
        let line = origin.line + at.line;
        *message = format!("{}:{line}{column}: {message}", origin.file);
    }
    outcome
}

/// How the engine's traces name the claims of a list, numbered by their
/// place in it ([`check::Stated::numbered`]): `src/intro.md:12`.
pub fn namer<'a>(claims: impl Iterator<Item = &'a Claim>) -> check::Namer {
    let names: Vec<String> = claims
        .map(|c| format!("{}:{}", c.origin.file, c.origin.line))
        .collect();
    std::sync::Arc::new(move |id| {
        names
            .get(id)
            .cloned()
            .unwrap_or_else(|| format!("claim {id}"))
    })
}
