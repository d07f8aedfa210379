//! The runnable Rust snippet: what an ```` ```rust example ```` block and
//! the Rust side of a ```` ````compare ```` block share (and, soon, an
//! exercise's code): its attributes read into [`Example`] (code, expected
//! outcome, expected output, edition and mode, assembly request, links),
//! its claim, and its frame rendered from its facts. It is no directive of
//! its own: the directives that show a runnable snippet use it, so no
//! directive folder imports another.

use super::asmspec::{AsmBlock, AsmSpec, asm_claim, asm_panel};
use super::attributes::{self, BlockKind, Given};
use super::contract::{Env, Rendered, Target};
use super::facts::{AsmAnswer, AsmNeed, Facts, MomentLink, Need, Reference};
use super::frame::{self, Frame, FrameClaim};
use super::numbering::{Number, Numbered};
use super::reader::Reader;
use mdbook_companion_core::asm::Request;
use mdbook_companion_core::attrs::Attr;
use mdbook_companion_core::claim::{Claim, UNORDERED};
use mdbook_companion_core::code;
use mdbook_companion_core::config::{Config, RunMode};
use mdbook_companion_core::expect::Expect;
use mdbook_companion_core::lang::Lang;
use mdbook_companion_core::links::{self, Mode};
use mdbook_companion_core::markdown::Fence;
use mdbook_companion_core::problem::Problem;
use mdbook_companion_core::run::RunButton;
use mdbook_companion_core::sanitize::Sanitize;
use mdbook_companion_core::tie;
use std::ops::Range;

/// Where an example stands: a block of its own, or a side of a
/// comparison (which takes `at` for the whole block, and `caption`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Context {
    /// An ```` ```rust example ```` block.
    Standalone,
    /// The Rust side of a ```` ````compare ```` block.
    Side,
    /// A quiz's program question (which takes `line`, the line of the
    /// first error the reader predicts).
    Quiz,
}

impl Context {
    /// The kind of block it is: the attributes it takes.
    pub fn kind(self) -> &'static BlockKind {
        match self {
            Context::Standalone => &attributes::RUST_EXAMPLE,
            Context::Side => &attributes::RUST_SIDE,
            Context::Quiz => &attributes::QUIZ_RUST,
        }
    }
}

/// A parsed example.
#[derive(Debug, Clone, PartialEq)]
pub struct Example {
    /// Title shown above the code.
    pub title: Option<String>,
    /// The expected outcome.
    pub expect: Expect,
    /// A rustc error code the compile failure must carry.
    pub error: Option<String>,
    /// The Rust edition.
    pub edition: u16,
    /// Debug or release.
    pub mode: Mode,
    /// Show the assembly (asked for, or implied by an ```` ```asm ````
    /// block).
    pub asm: bool,
    /// Its assembly attributes and the claims of its ```` ```asm ````
    /// block.
    pub spec: AsmSpec,
    /// Link to the Playground.
    pub playground: bool,
    /// Link to Compiler Explorer.
    pub compiler_explorer: bool,
    /// mdBook's `ignore`: shown, not run, not checked.
    pub ignore: bool,
    /// mdBook flags passed through as they are.
    pub mdbook_flags: Vec<String>,
    /// The code as written (hidden lines marked with `# `).
    pub code: String,
    /// The expected output, if an output block follows.
    pub output: Option<String>,
    /// ```` ```output unordered ````: its lines in any order.
    pub unordered: bool,
    /// `at="12:30"`: the talk's moment the example comes from.
    pub at: Option<Reference>,
    /// `id=`: its anchor, with where it stands in the chapter.
    pub id: Option<(String, usize)>,
    /// `sanitize=memcheck`: the run is watched by Memcheck.
    pub sanitize: Sanitize,
}

impl Example {
    /// Parses an example from its fence, the output block after it and
    /// its ```` ```asm ```` block's claims, as a block of its own or a
    /// comparison's side (`context`: which attributes it takes).
    pub fn parse(
        fence: &Fence,
        attrs: &[Attr],
        output: Option<&Fence>,
        asm_block: Option<AsmBlock>,
        config: &Config,
        context: Context,
    ) -> Result<Example, Problem> {
        let given = Reader::read(fence, attrs, context.kind(), "rust")?;
        Example::from_given(fence, given, output, asm_block, config)
    }

    /// An example from what its fence's attributes said (`given`), the
    /// output block after it and its ```` ```asm ```` block's claims.
    pub(crate) fn from_given(
        fence: &Fence,
        given: Given,
        output: Option<&Fence>,
        asm_block: Option<AsmBlock>,
        config: &Config,
    ) -> Result<Example, Problem> {
        let expect = given.expect.map_or(Expect::Run, |(e, _)| e);
        if let Some((_, at)) = &given.error
            && expect != Expect::CompileFail
        {
            return Err(Problem::at(
                *at,
                format!(
                    "found an error code with expect={}; expected `expect=compile-fail` alongside `error`",
                    expect.name()
                ),
            ));
        }
        let (sanitize, sanitize_at) = given
            .sanitize
            .unwrap_or((Sanitize::NONE, fence.info_offset));
        sanitize.fits(expect, sanitize_at)?;
        let spec = AsmSpec {
            block: asm_block,
            ..given.spec
        };
        if fence.body.trim().is_empty() {
            let what = match expect {
                Expect::CompileFail => "`expect=compile-fail` needs code that fails to compile",
                _ => "an example needs code",
            };
            return Err(Problem::at(
                fence.info_offset,
                format!("found an empty example; {what}"),
            ));
        }
        Ok(Example {
            title: given.title,
            expect,
            error: given.error.map(|(e, _)| e),
            edition: given.edition.unwrap_or(config.edition),
            mode: given.mode.unwrap_or(Mode::Debug),
            asm: spec.shows(),
            spec,
            playground: given.playground.unwrap_or(true),
            compiler_explorer: given.compiler_explorer.unwrap_or(true),
            ignore: given.ignore.unwrap_or(false),
            mdbook_flags: given.mdbook_flags,
            code: fence.body.clone(),
            output: output.map(|o| o.body.clone()),
            unordered: output
                .is_some_and(|o| o.info.split([' ', ',', '\t']).any(|w| w == UNORDERED)),
            at: given.at,
            id: given.id,
            sanitize,
        })
    }

    /// The program the compiler gets: hidden lines un-hidden.
    pub fn source(&self) -> String {
        code::rust_source(&self.code)
    }

    /// The rustdoc/mdBook attributes of the Rust fence.
    fn fence_info(&self, target: Target) -> String {
        let mut info = vec!["rust".to_owned()];
        if self.ignore {
            info.push("ignore".into());
        } else if let Some(a) = self.expect.rustdoc() {
            info.push(a.into());
            if let (Expect::CompileFail, Some(code)) = (self.expect, &self.error) {
                info.push(code.clone());
            }
        }
        info.push(format!("edition{}", self.edition));
        if target != Target::Test {
            info.extend(self.mdbook_flags.iter().cloned());
        }
        info.join(",")
    }

    /// The outcome badge: "Panics", "Does not compile · E0381", ….
    pub fn badge(&self, env: &Env<'_>) -> String {
        if self.ignore {
            return env.ui("Not checked").into_owned();
        }
        let badge = env.ui(self.expect.badge());
        match (&self.expect, &self.error) {
            (Expect::CompileFail, Some(code)) => format!("{badge} · {code}"),
            _ => self.sanitize.badge(&badge),
        }
    }

    /// The links to the Playground and Compiler Explorer, with warnings
    /// for links that had to fall back; a link that could not work (the
    /// example needs a crate the site does not offer) is a note instead.
    fn links(
        &self,
        env: &Env<'_>,
        at: usize,
        crates: &Crates<'_>,
        warnings: &mut Vec<Problem>,
        notes: &mut Vec<String>,
    ) -> Vec<(&'static str, String)> {
        let mut out = Vec::new();
        let source = self.source();
        if self.playground && env.config.playground_url.is_some() {
            if let Some(needs) = crates.not_on_playground() {
                notes.push(format!("needs {needs}, not on the Playground"));
            } else {
                let program = code::rust_program(&source);
                if let Some(url) =
                    frame::playground_link(env, &program, self.edition, self.mode, at, warnings)
                {
                    out.push(("Playground", url));
                }
            }
        }
        if self.compiler_explorer && env.config.compiler_explorer_url.is_some() {
            if !crates.used.is_empty() {
                // Our links hand Compiler Explorer the code alone, with no
                // libraries: code that needs a crate would not compile.
                notes.push(format!(
                    "needs {}, not on Compiler Explorer",
                    frame::quoted(&crates.used)
                ));
            } else {
                let options = links::rust_options(self.edition, self.mode.opt_level());
                let session: Vec<_> = frame::session(env, Lang::Rust, &source, options)
                    .into_iter()
                    .collect();
                if let Some(url) = frame::compiler_explorer_link(env, &session, at, warnings) {
                    out.push(("Compiler Explorer", url));
                }
            }
        }
        out
    }

    /// True when the assembly panel applies: asked for, and the code is
    /// meant to compile.
    pub(crate) fn wants_asm(&self) -> bool {
        self.asm && !self.ignore && self.expect != Expect::CompileFail
    }

    /// The assembly panel's request for an HTML page, when it applies;
    /// `at` is where a problem with it is reported.
    pub(crate) fn asm_request(&self, env: &Env<'_>, at: usize) -> Option<AsmNeed> {
        if env.target != Target::Html {
            return None;
        }
        self.asm_program(at)
    }

    /// What its assembly is made of, on any target, when it applies.
    fn asm_program(&self, at: usize) -> Option<AsmNeed> {
        if !self.wants_asm() {
            return None;
        }
        // The program mdBook would run (wrapped in `fn main` when it has
        // none); its visible functions are the ones kept.
        Some(AsmNeed {
            request: Request {
                lang: Lang::Rust,
                source: code::rust_program(&self.source()),
                shown: code::rust_shown(&self.code),
                edition: self.edition,
                syntax: self.spec.syntax,
                flags: Vec::new(),
            },
            graph: self.spec.graph(),
            at,
        })
    }

    /// What rendering it needs resolved (its info string at `at`): the
    /// crates its code uses, its assembly, its talk's moment.
    pub fn needs(&self, env: &Env<'_>, at: usize) -> Vec<Need> {
        let mut needs = Vec::new();
        if let Some(r) = &self.at {
            needs.push(Need::Reference(r.clone()));
        }
        if env.target != Target::Xgettext {
            needs.push(Need::Crates(self.source()));
        }
        needs.extend(self.asm_request(env, at).map(Need::Assembly));
        needs.extend(self.run_need(env, at));
        needs.extend(frame::on_a_page(env).then(|| self.vouch_need(env, at)));
        needs
    }

    /// Whether the lock vouches for its claim (its info string at `at`):
    /// its frame's badge says so.
    pub(crate) fn vouch_need(&self, env: &Env<'_>, at: usize) -> Need {
        Need::Vouched(Box::new(self.claim(env, at, None)))
    }

    /// Whether the frame gets our Run button: a page (HTML), a book that
    /// did not keep mdBook's own (`run = "playground"`), and code that
    /// runs as mdBook would run it (not `ignore`, `no-run` or
    /// `noplayground`).
    fn takes_run_button(&self, env: &Env<'_>) -> bool {
        env.target == Target::Html
            && env.config.run != RunMode::Playground
            && !self.ignore
            && matches!(
                self.expect,
                Expect::Run | Expect::Panic | Expect::CompileFail
            )
            && !self
                .mdbook_flags
                .iter()
                .any(|f| f == "noplayground" || f == "noplaypen")
    }

    /// The recorded run its Run button needs (its info string at `at`).
    pub(crate) fn run_need(&self, env: &Env<'_>, at: usize) -> Option<Need> {
        self.takes_run_button(env)
            .then(|| Need::Recorded(Box::new(self.claim(env, at, None))))
    }

    /// The claim of this example, whose info string is at `offset` of the
    /// chapter and whose output block (if any) spans `output_range`.
    pub fn claim(&self, env: &Env<'_>, offset: usize, output_range: Option<Range<usize>>) -> Claim {
        let what = match &self.title {
            Some(t) => format!("rust example \"{t}\""),
            None => "rust example".to_owned(),
        };
        let what = under(what, self.sanitize);
        let bless = output_range.as_ref().and_then(|r| env.place.bless(r));
        let shown = self.source();
        let source = code::rust_program(&shown);
        let lines = env.program_lines(offset, &source);
        let mut claim = Claim::new(env.file, offset, what, Lang::Rust, source, self.expect);
        claim.origin.line = env.place.line(offset);
        claim.program.lines = lines;
        claim.program.wrapped = !code::has_main(&shown);
        claim.expectation.output = self.output.clone();
        claim.origin.output_range = output_range;
        claim.program.edition = self.edition;
        claim.program.mode = self.mode;
        claim.expectation.error = self.error.clone();
        claim.expectation.ignore = self.ignore;
        claim.origin.bless = bless;
        claim.expectation.no_warnings = self.spec.no_warnings;
        claim.expectation.sanitize = self.sanitize;
        claim.expectation.unordered = self.unordered;
        claim
    }

    /// The claim of its ```` ```asm ```` block, made beside `claim` (the
    /// example's own), when it has one and its code is meant to compile.
    pub fn asm_claim(&self, env: &Env<'_>, claim: &Claim) -> Option<Claim> {
        asm_claim(
            env,
            claim,
            &self.spec,
            self.asm_program(claim.origin.offset)?,
        )
    }

    /// Its frame's number (the `k`-th of its block) and anchor.
    pub fn number(&self, env: &Env<'_>, k: usize) -> Number {
        env.numbers
            .number(k, self.id.as_ref().map(|(id, _)| id.as_str()))
    }

    /// Its entry for the claims page, as `what` (`Rust example`), whose
    /// claim is the block's `claim`-th.
    pub fn entry(&self, env: &Env<'_>, number: Number, what: &str, claim: usize) -> Numbered {
        Numbered {
            number,
            id_at: self.id.as_ref().map(|(_, at)| *at),
            title: env.text_opt(self.title.as_deref()).map(|t| t.into_owned()),
            what: what.to_owned(),
            badge: Some(self.badge(env)),
            claim: Some(claim),
        }
    }

    /// Renders the example for `env.target` as frame `number`, with its
    /// assembly `listing` (HTML only, when one was made) shown in a
    /// collapsible panel under the code. The result carries no claim: the
    /// caller knows where the output is.
    pub(crate) fn render_with(
        &self,
        env: &Env<'_>,
        facts: &Facts,
        at: usize,
        listing: &AsmAnswer,
        number: Option<&Number>,
        moment: Option<&MomentLink>,
    ) -> Rendered {
        let mut r = Rendered::default();
        let mut info = self.fence_info(env.target);
        let crates = Crates::of(env, facts, &self.source());
        if env.target == Target::Test {
            r.out.fence(&info, &crates.for_rustdoc(&self.code));
            return r;
        }
        let needs = crates.not_on_playground();
        let button = self
            .takes_run_button(env)
            .then(|| {
                let claim = self.claim(env, at, None);
                RunButton::new(
                    env.config.run,
                    env.config.playground_url.as_deref(),
                    needs.clone(),
                    self.edition,
                    self.mode == Mode::Release,
                    facts.recorded(&claim),
                    claim.program.lines.as_ref(),
                )
            })
            .flatten();
        if self.takes_run_button(env) || (needs.is_some() && !self.ignore) {
            // Our Run button takes the block (or would, and has nothing
            // to do: nothing recorded and no Playground to ask), or
            // mdBook's play button would send it to a Playground that
            // cannot run it: mdBook makes no button (and asks no server)
            // for it.
            info = info.replace(",mdbook-runnable", "");
            info.push_str(",noplayground");
        }
        let run = button.map(|b| b.attribute());
        let mut notes = Vec::new();
        let links = self.links(env, at, &crates, &mut r.warnings, &mut notes);
        let vouched = facts.vouched(&self.claim(env, at, None));
        let badge = frame::vouched_badge(env, self.badge(env), &vouched);
        let title = env.text_opt(self.title.as_deref());
        let shown = code::rust_shown(&self.code);
        let panel = asm_panel(
            listing,
            "rustc -C opt-level=2",
            &shown,
            &tie::rust_lines(&self.code),
            &self.spec,
            number,
        );
        Frame {
            report: None,
            outcome: FrameClaim::of(Some(self.expect), self.ignore),
            title: title.as_deref(),
            badge: Some(&badge),
            info: &info,
            code: &self.code,
            output: self
                .output
                .as_deref()
                .map(|o| (self.expect.output_label(), o)),
            assembly: panel.as_ref(),
            links: &links,
            notes: &notes,
            at: moment,
            number,
            run: run.as_deref(),
        }
        .write(env, &mut r.out);
        r
    }
}

/// The declared crates an example uses, and what the sites offer.
struct Crates<'a> {
    used: Vec<String>,
    playground: &'a [String],
}

impl<'a> Crates<'a> {
    fn of(env: &Env<'a>, facts: &Facts, source: &str) -> Crates<'a> {
        Crates {
            used: facts.crates(source).to_vec(),
            playground: &env.config.playground_crates,
        }
    }

    /// The crates used that the Playground does not offer, as
    /// "`a` and `b`", when there are some.
    fn not_on_playground(&self) -> Option<String> {
        let missing: Vec<String> = self
            .used
            .iter()
            .filter(|c| !self.playground.contains(c))
            .cloned()
            .collect();
        (!missing.is_empty()).then(|| frame::quoted(&missing))
    }

    /// The code for `mdbook test`: rustdoc finds a crate of `-L DIR` only
    /// through `extern crate`, so each crate used gets a hidden one (after
    /// the crate's inner attributes, unless the code has its own).
    fn for_rustdoc(&self, code: &str) -> String {
        let externs: Vec<String> = self
            .used
            .iter()
            .filter(|c| !code.contains(&format!("extern crate {c}")))
            .map(|c| format!("# extern crate {c};\n"))
            .collect();
        if externs.is_empty() {
            return code.to_owned();
        }
        let mut out = String::with_capacity(code.len() + 64);
        let mut placed = false;
        for line in code.split_inclusive('\n') {
            let bare = line.trim_start().trim_start_matches("# ").trim_start();
            if !placed && !bare.starts_with("#![") {
                out.push_str(&externs.concat());
                placed = true;
            }
            out.push_str(line);
        }
        if !placed {
            out.push_str(&externs.concat());
        }
        out
    }
}

/// What a claim is, with the checkers that watch its run
/// (`compare side "C" under AddressSanitizer`): how `check`'s reports and
/// the lock name them.
pub(crate) fn under(what: String, sanitize: Sanitize) -> String {
    match sanitize.is_empty() {
        true => what,
        false => format!("{what} under {}", sanitize.names()),
    }
}
