//! The runnable Rust example: ```` ```rust example title="…" expect=panic ````.
//!
//! On an HTML page the code stays a real mdBook Rust block (play button,
//! hidden lines, edition), framed by a title, its expected outcome, the
//! expected output from a following ```` ```output ```` block, and links
//! that open the same program in the Playground and Compiler Explorer.
//! `mdbook test` gets a plain fence with rustdoc's attributes, so the
//! book's own test run checks what the example claims.

use super::asmspec;
use super::contract::{Env, Kind, Model, Parsed, Rendered, Target};
use super::facts::{AsmAnswer, Facts};
pub(crate) use super::runnable::{Context, Example};
use super::xgettext::{self, Piece};
use mdbook_companion_core::expect::Expect;
use mdbook_companion_core::markdown::{Block, Pattern};
use mdbook_companion_core::problem::Problem;

/// The example's row of the registry.
pub(crate) const KIND: Kind = Kind {
    name: "example",
    pattern: Pattern {
        words: &["rust", "example"],
        takes_output: true,
    },
    parse,
    makes_claims: true,
    lists_the_book: false,
    publishes: &[],
    keys: &[],
    stylesheet: include_str!("example.css"),
    script: "",
};

/// Parses an example block into its model, with what it needs.
fn parse(block: &Block, env: &Env<'_>) -> Result<Parsed, Problem> {
    let attrs = KIND.attributes(block)?;
    let asm = block
        .asm
        .as_ref()
        .map(|f| asmspec::parse_block(env.text, f, &env.config.asm_arch))
        .transpose()?;
    let ex = Example::parse(
        &block.fence,
        &attrs,
        block.output.as_ref(),
        asm,
        env.config,
        Context::Standalone,
    )?;
    let needs = ex.needs(env, block.fence.info_offset);
    Ok(Parsed {
        model: Box::new(ex),
        needs,
    })
}

impl Model for Example {
    /// Renders an example block from its facts, with its claim.
    fn render(&self, block: &Block, env: &Env<'_>, facts: &Facts) -> Result<Rendered, Problem> {
        let ex = self;
        let moment = match &ex.at {
            Some(r) => facts.moment(r)?,
            None => None,
        };
        let at = block.fence.info_offset;
        let mut claim = ex.claim(env, at, block.output.as_ref().map(|o| o.range.clone()));
        if block.output.is_none()
            && claim.expectation.expect == mdbook_companion_core::expect::Expect::Run
        {
            // No output block: `--bless` adds one after the code block.
            claim.origin.bless = env.place.bless(&block.fence.range);
        }
        let asm_claim = ex.asm_claim(env, &claim);
        if env.target == Target::Xgettext {
            let mut pieces = Vec::new();
            if let Some(title) = &ex.title {
                pieces.push(Piece::Text { at, text: title });
            }
            pieces.push(Piece::Code {
                at: block.fence.range.start,
                info: "rust",
                code: &ex.code,
            });
            return Ok(Rendered {
                out: xgettext::write(env, &block.range, &pieces),
                claims: [Some(claim), asm_claim].into_iter().flatten().collect(),
                ..Rendered::default()
            });
        }
        let listing = match ex.asm_request(env, at) {
            Some(req) => facts.assembly(&req)?,
            None => AsmAnswer::default(),
        };
        let number = ex.number(env, 0);
        let mut r = ex.render_with(env, facts, at, &listing, Some(&number), moment.as_ref());
        r.warnings.extend(listing.warnings);
        r.missing.extend(listing.missing);
        r.claims.push(claim);
        let entry = ex.entry(env, number, "Rust example", 0);
        let asm_entry = asm_claim
            .as_ref()
            .map(|_| entry.assembly(env.ui(Expect::Asm.badge()).into_owned(), 1));
        r.entries.push(entry);
        r.entries.extend(asm_entry);
        r.claims.extend(asm_claim);
        Ok(r)
    }
}

#[cfg(test)]
mod tests;
