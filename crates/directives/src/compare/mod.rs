//! Comparison blocks: ```` ````compare title="…" layout=tabs asm ````.
//!
//! A compare block holds two to four fenced code blocks (`c`, `cpp`,
//! `rust`, `python`), each optionally followed by a note paragraph and an
//! ```` ```output ```` block. On an HTML page the sides stand in columns
//! (stacking on narrow screens) or in tabs made of radio inputs, so neither
//! needs JavaScript; each side stays a real mdBook code block in the same
//! frame as an example ([`super::frame`]), the Rust side rendered by the
//! example directive (play button, outcome, links). One "Compare in
//! Compiler Explorer" link opens every compiled side in one session. With
//! `asm`, each side's assembly is made at build time and shown in a
//! collapsible panel.
//!
//! `parse` reads the body with pulldown-cmark, as the chapter is read,
//! mapping every offset back to the chapter so that errors point at the
//! exact line and column; `render` writes the block for the target; the
//! claims of the compiled sides come from the same parse.

mod parse;
mod render;

use super::asmspec::{self, AsmSpec, CSnippet, Panel};
use super::contract::{Env, Kind, Model, Parsed, Rendered, Target};
use super::facts::{AsmNeed, Facts, Need, Reference, Vouched};
use super::frame;
use super::numbering::{Number, Numbered};
use super::runnable::{self, Example};
use mdbook_companion_core::asm::Request;
use mdbook_companion_core::claim::Claim;
use mdbook_companion_core::expect::Expect;
use mdbook_companion_core::lang::{Family, Lang};
use mdbook_companion_core::links::{self, Pane};
use mdbook_companion_core::markdown::{Block, Pattern};
use mdbook_companion_core::problem::Problem;
use mdbook_companion_core::run::RecordedRun;
use mdbook_companion_core::sanitize::Sanitize;

/// The comparison's row of the registry.
pub(crate) const KIND: Kind = Kind {
    name: "compare",
    pattern: Pattern {
        words: &["compare"],
        takes_output: false,
    },
    parse,
    makes_claims: true,
    lists_the_book: false,
    publishes: &[],
    keys: &[],
    stylesheet: include_str!("compare.css"),
    script: include_str!("tabs.js"),
};

pub(crate) use crate::attributes::Layout;

/// One side of a comparison.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Side {
    /// Its language.
    pub lang: Lang,
    /// The caption above the code.
    pub caption: Option<String>,
    /// The code as written, hidden-line markers included.
    pub code: String,
    /// What the reader sees: hidden lines dropped.
    pub shown: String,
    /// The full source for compiling, checking and links: hidden lines
    /// included, their markers stripped.
    pub source: String,
    /// The expected output, from an ```` ```output ```` block.
    pub output: Option<String>,
    /// Byte range in the chapter of that ```` ```output ```` block, fences
    /// included (where `check --bless` writes).
    pub output_range: Option<std::ops::Range<usize>>,
    /// The note paragraph after the side's fence, as Markdown.
    pub note: Option<String>,
    /// The note as written, and where it starts in the chapter (what is
    /// translated: `note` made safe is for the source language).
    pub note_source: Option<(String, usize)>,
    /// What it is, and so what it claims.
    pub role: Role,
    /// Byte offset in the chapter of the side's fence.
    pub offset: usize,
    /// Byte offset in the chapter of the side's info string.
    pub info_offset: usize,
    /// `id=`: the side's anchor, with where it stands in the chapter.
    pub id: Option<(String, usize)>,
}

/// What a side is: each kind keeps its outcome, `ignore` and assembly
/// attributes in one place.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Role {
    /// A Rust side: an example (its outcome, assembly and `ignore`).
    Rust(Example),
    /// A C or C++ side: compiled, and run or not as `expect` says.
    Compiled {
        /// The expected outcome (`compile` unless the side says).
        expect: Expect,
        /// Its assembly and compiler attributes and its ```` ```asm ````
        /// block.
        spec: AsmSpec,
        /// `ignore`: shown with a "Not checked" marker, never compiled,
        /// run or disassembled.
        ignore: bool,
        /// `sanitize=`: the checkers that watch its run.
        sanitize: Sanitize,
    },
    /// A side in a language of programs (Python, Go, the book's own)
    /// that says what it does (`expect=`): compiled by its row's command
    /// (or not) and run as it says.
    Program {
        /// The expected outcome.
        expect: Expect,
        /// `ignore`.
        ignore: bool,
        /// `error=`: words the compiler's message holds, for
        /// `expect=compile-fail`.
        error: Option<String>,
        /// Its assembly panel (`asm`) and ```` ```asm ```` block, for a
        /// language whose row says how its assembly is made.
        spec: AsmSpec,
    },
    /// A side in a language of programs that says nothing of what it
    /// does: only shown, marked "Not checked" when `ignore`.
    Shown {
        /// `ignore`.
        ignore: bool,
    },
}

/// A parsed comparison block.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Compare {
    /// The block's title.
    pub title: Option<String>,
    /// The talk's moment the block comes from (`at="12:30"`).
    pub at: Option<Reference>,
    /// Columns or tabs.
    pub layout: Layout,
    /// Show every side's assembly (`asm`), with graphs (`asm=graph`).
    pub asm: Panel,
    /// The sides, in order.
    pub sides: Vec<Side>,
    /// `id=`: the whole comparison's anchor, with where it stands.
    pub id: Option<(String, usize)>,
}

impl Side {
    /// The Rust side's example model.
    pub(crate) fn example(&self) -> Option<&Example> {
        match &self.role {
            Role::Rust(ex) => Some(ex),
            _ => None,
        }
    }

    /// The expected outcome; `None` for a side that is only shown.
    pub(crate) fn expect(&self) -> Option<Expect> {
        match &self.role {
            Role::Rust(ex) => Some(ex.expect),
            Role::Compiled { expect, .. } | Role::Program { expect, .. } => Some(*expect),
            Role::Shown { .. } => None,
        }
    }

    /// `ignore`: shown with a "Not checked" marker, never compiled, run
    /// or disassembled.
    pub(crate) fn ignore(&self) -> bool {
        match &self.role {
            Role::Rust(ex) => ex.ignore,
            Role::Compiled { ignore, .. }
            | Role::Program { ignore, .. }
            | Role::Shown { ignore } => *ignore,
        }
    }

    /// Shows its assembly (the side's or the block's `asm`, or an
    /// ```` ```asm ```` block's claims), unless ignored.
    pub(crate) fn asm(&self) -> bool {
        match &self.role {
            Role::Rust(ex) => ex.asm && !ex.ignore,
            Role::Compiled { spec, ignore, .. } | Role::Program { spec, ignore, .. } => {
                spec.shows() && !ignore
            }
            Role::Shown { .. } => false,
        }
    }

    /// Its assembly attributes: the Rust side's example's, a C or C++
    /// side's own; none for a side that is only shown.
    pub(crate) fn spec(&self) -> Option<&AsmSpec> {
        match &self.role {
            Role::Rust(ex) => Some(&ex.spec),
            Role::Compiled { spec, .. } | Role::Program { spec, .. } => Some(spec),
            Role::Shown { .. } => None,
        }
    }

    /// The Rust edition of the side (the book's for C and C++).
    fn edition(&self, env: &Env<'_>) -> u16 {
        self.example().map_or(env.config.edition, |e| e.edition)
    }

    /// This side's Compiler Explorer session (compiled sides only),
    /// optimised as `-O2` / `opt-level=2` so the sides compare fairly.
    pub(crate) fn session(&self, env: &Env<'_>) -> Option<Pane> {
        let options = match (&self.role, self.lang.family()) {
            (_, Family::Rustdoc) => links::rust_options(self.edition(env), 2),
            // A language of programs: its compiler's own defaults.
            (_, Family::Program) => String::new(),
            (Role::Compiled { sanitize, .. }, _) => links::c_options(*sanitize),
            _ => "-O2".to_owned(),
        };
        frame::session(env, self.lang, &self.source, options)
    }

    /// The outcome badge of its header: "Not checked", "Undefined
    /// behaviour", … (empty for a side that is only shown).
    pub(crate) fn badge(&self, env: &Env<'_>) -> String {
        match &self.role {
            Role::Rust(ex) => ex.badge(env),
            _ if self.ignore() => env.ui("Not checked").into_owned(),
            Role::Compiled {
                expect, sanitize, ..
            } => sanitize.badge(&env.ui(expect.badge())),
            Role::Program { expect, .. } => env.ui(expect.badge()).into_owned(),
            Role::Shown { .. } => String::new(),
        }
    }

    /// Whether its recorded run is replayed by a Run button: a side
    /// other than Rust whose program runs (`expect=run`, `ub`, `panic`),
    /// on an HTML page of a book whose `run` is not `playground`.
    fn takes_run_button(&self, env: &Env<'_>) -> bool {
        env.target == Target::Html
            && env.config.run != mdbook_companion_core::config::RunMode::Playground
            && !self.lang.follows_rustdoc()
            && !self.ignore()
            && matches!(
                self.expect(),
                Some(Expect::Run | Expect::Ub | Expect::Panic)
            )
    }

    /// The recorded run its Run button needs, when it takes one.
    fn run_need(&self, env: &Env<'_>) -> Option<Need> {
        match self.takes_run_button(env) {
            true => self.claim(env).map(|c| Need::Recorded(Box::new(c))),
            false => None,
        }
    }

    /// What the check saw its program do, when its Run button replays it.
    pub(super) fn recorded<'f>(&self, env: &Env<'_>, facts: &'f Facts) -> Option<&'f RecordedRun> {
        match self.takes_run_button(env) {
            true => facts.recorded(&self.claim(env)?),
            false => None,
        }
    }

    /// What the lock says of its claim (none for a side only shown).
    fn vouched(&self, env: &Env<'_>, facts: &Facts) -> Vouched {
        self.claim(env)
            .map_or(Vouched::NoLock, |c| facts.vouched(&c))
    }

    /// The title of the side's header.
    fn heading(&self) -> String {
        self.caption
            .clone()
            .unwrap_or_else(|| self.lang.label().to_owned())
    }

    /// The side as a compiled snippet.
    fn snippet(&self) -> CSnippet<'_> {
        CSnippet {
            lang: self.lang,
            info_offset: self.info_offset,
            source: &self.source,
            output: self.output.as_deref().zip(self.output_range.as_ref()),
        }
    }

    /// The claim of a side that says what it does (every C, C++ and
    /// Rust side; a side in a language of programs with `expect=`).
    fn claim(&self, env: &Env<'_>) -> Option<Claim> {
        let mut claim = match &self.role {
            Role::Rust(ex) => ex.claim(env, self.info_offset, self.output_range.clone()),
            Role::Compiled {
                expect,
                spec,
                ignore,
                sanitize,
            } => {
                let mut claim = spec.c_claim(env, self.snippet(), *expect, *sanitize);
                claim.expectation.ignore = *ignore;
                claim
            }
            Role::Program {
                expect,
                ignore,
                error,
                spec,
            } => {
                let mut claim = spec.c_claim(env, self.snippet(), *expect, Sanitize::NONE);
                claim.expectation.ignore = *ignore;
                claim.expectation.error = error.clone();
                claim
            }
            Role::Shown { .. } => return None,
        };
        let what = match &self.caption {
            Some(c) => format!("compare side \"{c}\""),
            None => format!("compare side {}", self.lang.label()),
        };
        claim.origin.what = runnable::under(what, claim.expectation.sanitize);
        Some(claim)
    }

    /// The claim of its ```` ```asm ```` block, made beside `claim`, its
    /// own.
    fn asm_claim(&self, env: &Env<'_>, claim: &Claim) -> Option<Claim> {
        let mut program = self.asm_program(env)?;
        program.at = claim.origin.offset;
        asmspec::asm_claim(env, claim, self.spec()?, program)
    }
}

/// Parses a compare block into its model, with what its sides need.
fn parse(block: &Block, env: &Env<'_>) -> Result<Parsed, Problem> {
    let cmp = Compare::parse(block, env)?;
    let needs = cmp.needs(env);
    Ok(Parsed {
        model: Box::new(cmp),
        needs,
    })
}

impl Compare {
    /// What rendering needs resolved: the talk's moment, the crates of
    /// the Rust sides, each side's assembly.
    fn needs(&self, env: &Env<'_>) -> Vec<Need> {
        let mut needs: Vec<Need> = self.at.iter().cloned().map(Need::Reference).collect();
        let mut push = |n: Need| {
            if !needs.contains(&n) {
                needs.push(n);
            }
        };
        for s in &self.sides {
            if env.target != Target::Xgettext && s.lang.follows_rustdoc() {
                push(Need::Crates(s.source.clone()));
                if let Some(ex) = s.example() {
                    push(Need::Crates(ex.source()));
                    if let Some(n) = ex.run_need(env, s.info_offset) {
                        push(n);
                    }
                    if frame::on_a_page(env) {
                        push(ex.vouch_need(env, s.info_offset));
                    }
                }
            } else if frame::on_a_page(env)
                && let Some(claim) = s.claim(env)
            {
                push(Need::Vouched(Box::new(claim)));
                if let Some(n) = s.run_need(env) {
                    push(n);
                }
            }
            if let Some(req) = s.asm_request(env) {
                push(Need::Assembly(req));
            }
        }
        needs
    }
}

impl Side {
    /// The side's assembly request, when its panel is shown (an HTML page,
    /// `asm`, code meant to compile).
    fn asm_request(&self, env: &Env<'_>) -> Option<AsmNeed> {
        if env.target != Target::Html {
            return None;
        }
        self.asm_program(env)
    }

    /// What its assembly is made of, on any target, when its panel is
    /// shown.
    fn asm_program(&self, env: &Env<'_>) -> Option<AsmNeed> {
        if !self.asm() {
            return None;
        }
        if !self.lang.has_asm() {
            return None;
        }
        let source = match &self.role {
            Role::Rust(ex) if ex.wants_asm() => {
                mdbook_companion_core::code::rust_program(&self.source)
            }
            Role::Rust(_) | Role::Shown { .. } => return None,
            Role::Compiled { .. } | Role::Program { .. } => self.source.clone(),
        };
        let spec = self.spec()?;
        Some(AsmNeed {
            request: Request {
                lang: self.lang,
                source,
                shown: self.shown.clone(),
                edition: self.edition(env),
                syntax: spec.syntax,
                flags: spec.flags.clone(),
            },
            graph: spec.graph(),
            at: self.info_offset,
        })
    }
}

impl Model for Compare {
    /// Renders a compare block from its facts, with the claims of its
    /// sides and an entry per side for the claims page.
    fn render(&self, block: &Block, env: &Env<'_>, facts: &Facts) -> Result<Rendered, Problem> {
        let cmp = self;
        let moment = match &cmp.at {
            Some(r) => facts.moment(r)?,
            None => None,
        };
        let numbers: Vec<Number> = cmp
            .sides
            .iter()
            .enumerate()
            .map(|(k, s)| {
                env.numbers
                    .number(k, s.id.as_ref().map(|(id, _)| id.as_str()))
            })
            .collect();
        let mut r = match env.target {
            Target::Xgettext => cmp.render_xgettext(env, block),
            _ => cmp.render_for_target(
                env,
                facts,
                moment.as_ref(),
                block.fence.info_offset,
                &numbers,
            )?,
        };
        for (s, number) in cmp.sides.iter().zip(numbers) {
            let claim = s.claim(env);
            let asm = claim.as_ref().and_then(|c| s.asm_claim(env, c));
            let entry = Numbered {
                number,
                id_at: s.id.as_ref().map(|(_, at)| *at),
                title: env
                    .text_opt(s.caption.as_deref())
                    .or_else(|| env.text_opt(s.example()?.title.as_deref()))
                    .map(|t| t.into_owned()),
                what: format!("{} side", s.lang.label()),
                badge: claim.as_ref().map(|_| s.badge(env)),
                claim: claim.as_ref().map(|_| r.claims.len()),
            };
            r.claims.extend(claim);
            let asm = asm.map(|a| {
                (
                    entry.assembly(env.ui(Expect::Asm.badge()).into_owned(), r.claims.len()),
                    a,
                )
            });
            r.entries.push(entry);
            if let Some((e, a)) = asm {
                r.entries.push(e);
                r.claims.push(a);
            }
        }
        Ok(r)
    }
}

#[cfg(test)]
mod tests;
