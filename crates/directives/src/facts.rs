//! What a directive needs before it renders, and what it is given.
//!
//! A directive parses its block into a model and states its [`Need`]s:
//! the assembly of some code, the declared crates some Rust code uses, a
//! moment of a talk that another directive publishes. The book layer
//! resolves every need of the book once (through the engine, the cache,
//! `companion.lock` and the directives that publish references) and hands
//! each block its [`Facts`]. Rendering is then a pure function of the
//! model and the facts: no process, no file, no cache.
//!
//! A new kind of result (assembly claims' verdicts, line tables, a
//! control-flow graph, the recorded output of a Run button) is a new
//! [`Need`] variant, the [`Fact`] variant that answers it, and one arm in
//! the book layer's resolver; nothing else changes shape.

use mdbook_companion_core::asm::{Listing, Request};
use mdbook_companion_core::claim::{Claim, Recorded};
use mdbook_companion_core::flowgraph::Drawing;
use mdbook_companion_core::problem::{MissingTool, Problem};
use mdbook_companion_core::run::RecordedRun;

/// Something a block needs resolved before it renders.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Need {
    /// The declared crates this Rust source uses (`-L`/`--extern` for
    /// checks, notes on links, `extern crate` for `mdbook test`).
    Crates(String),
    /// The build-time assembly listing of some code.
    Assembly(AsmNeed),
    /// A reference to an item another directive publishes, such as a
    /// talk's moment (`at="12:30"`).
    Reference(Reference),
    /// What `companion.lock` records for the claim with this hash.
    Locked(String),
    /// What the build saw this claim's program do (the Run button's
    /// recorded run), from the cache or the lock; never a compiler run.
    Recorded(Box<Claim>),
    /// Whether `companion.lock` vouches for this claim (its frame's badge
    /// says the claim only where a check proved it).
    Vouched(Box<Claim>),
}

/// An assembly panel's need: what to compile (the engine's own
/// [`Request`]), whether to draw graphs, and where a problem with it is
/// told.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AsmNeed {
    /// What to compile.
    pub request: Request,
    /// Draw each function's control-flow graph too (`asm=graph`).
    pub graph: bool,
    /// Where in the chapter a problem with it is reported.
    pub at: usize,
}

/// A reference to another directive's item, as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reference {
    /// What kind of item it names.
    pub topic: Topic,
    /// The value as written (`12:30`, `concepts@12:30`).
    pub value: String,
    /// Where it stands in the chapter.
    pub at: usize,
}

/// The kinds of item directives publish for others to refer to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Topic {
    /// A moment of a talk (`at=` on an example or a comparison).
    Moment,
}

/// An item another directive published.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Published {
    /// A talk's moment.
    Moment(MomentLink),
}

/// The moment a block points at: the label and, when the talk has a
/// video, its address at that second.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MomentLink {
    /// "12:30 in the talk".
    pub label: String,
    /// The video opened at the moment.
    pub href: Option<String>,
}

/// An assembly panel's listing, or why there is none: what the engine
/// gave, already judged against `on-failure`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AsmAnswer {
    /// The filtered listing, each line with its program line, when one
    /// was made.
    pub listing: Option<Listing>,
    /// Each function's control-flow graph, when asked for (`asm=graph`).
    pub graphs: Vec<Drawing>,
    /// Things to tell the author (a listing that could not be made under
    /// `on-failure = "continue"`).
    pub warnings: Vec<Problem>,
    /// The compiler could not be run (told once for the whole book).
    pub missing: Vec<MissingTool>,
}

/// The answer to one [`Need`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fact {
    /// The declared crates the source uses.
    Crates(Vec<String>),
    /// The assembly, or the problem that stops the block.
    Assembly(Result<AsmAnswer, Problem>),
    /// The item referred to, or why it cannot be found.
    Item(Result<Published, Problem>),
    /// The lock's entry for a claim, when it has one.
    Locked(Option<Locked>),
    /// The recorded run of a claim, when the build knows it.
    Recorded(Option<RecordedRun>),
    /// What the lock says of a claim.
    Vouched(Vouched),
}

/// What `companion.lock` says of a claim, for the badge of its frame.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Vouched {
    /// The book has no lock it can read and the build checks nothing
    /// (no `verify`): the badge states the claim as written.
    #[default]
    NoLock,
    /// The verdict (the lock's, or under `verify` the build's own), with
    /// the tool that could not be run when the claim was not checked.
    Verdict(Recorded, Option<String>),
    /// The lock has no entry for the claim: it changed since the last
    /// `check`.
    Stale,
}

/// A claim's entry in `companion.lock`, as a page shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Locked {
    /// The verdict.
    pub verdict: Recorded,
    /// The compiler's version that gave it (empty when none ran).
    pub toolchain: String,
}

/// The facts of one block: each need with its answer.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Facts(Vec<(Need, Fact)>);

impl Facts {
    /// Facts made up of pairs (the resolver's answers, or a test's).
    pub fn new(pairs: Vec<(Need, Fact)>) -> Facts {
        Facts(pairs)
    }

    fn get(&self, need: &Need) -> Option<&Fact> {
        self.0.iter().find(|(n, _)| n == need).map(|(_, f)| f)
    }

    /// The declared crates `source` uses (none when not resolved).
    pub fn crates(&self, source: &str) -> &[String] {
        match self.get(&Need::Crates(source.to_owned())) {
            Some(Fact::Crates(c)) => c,
            _ => &[],
        }
    }

    /// The assembly listing of `req` (an empty answer when not resolved).
    pub fn assembly(&self, req: &AsmNeed) -> Result<AsmAnswer, Problem> {
        match self.get(&Need::Assembly(req.clone())) {
            Some(Fact::Assembly(a)) => a.clone(),
            _ => Ok(AsmAnswer::default()),
        }
    }

    /// The talk's moment `reference` names.
    pub fn moment(&self, reference: &Reference) -> Result<Option<MomentLink>, Problem> {
        match self.get(&Need::Reference(reference.clone())) {
            Some(Fact::Item(Ok(Published::Moment(m)))) => Ok(Some(m.clone())),
            Some(Fact::Item(Err(p))) => Err(p.clone()),
            _ => Ok(None),
        }
    }

    /// What the build saw `claim`'s program do (none when not resolved).
    pub fn recorded(&self, claim: &Claim) -> Option<&RecordedRun> {
        match self.get(&Need::Recorded(Box::new(claim.clone()))) {
            Some(Fact::Recorded(r)) => r.as_ref(),
            _ => None,
        }
    }

    /// What the lock says of `claim` ([`Vouched::NoLock`] when not
    /// resolved).
    pub fn vouched(&self, claim: &Claim) -> Vouched {
        match self.get(&Need::Vouched(Box::new(claim.clone()))) {
            Some(Fact::Vouched(v)) => v.clone(),
            _ => Vouched::NoLock,
        }
    }

    /// What the lock records for the claim with `hash`.
    pub fn locked(&self, hash: &str) -> Option<&Locked> {
        match self.get(&Need::Locked(hash.to_owned())) {
            Some(Fact::Locked(l)) => l.as_ref(),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mdbook_companion_core::lang::Lang;

    #[test]
    fn facts_answer_the_needs_they_hold() {
        let req = AsmNeed {
            request: Request {
                lang: Lang::C,
                source: "int f(void) { return 1; }".into(),
                shown: "int f(void) { return 1; }".into(),
                edition: 2021,
                syntax: None,
                flags: Vec::new(),
            },
            graph: false,
            at: 3,
        };
        let moment = Reference {
            topic: Topic::Moment,
            value: "1:00".into(),
            at: 9,
        };
        let listing = AsmAnswer {
            listing: Some(Listing {
                text: "f:\n  ret".into(),
                lines: Vec::new(),
            }),
            ..AsmAnswer::default()
        };
        let facts = Facts::new(vec![
            (
                Need::Crates("use a;".into()),
                Fact::Crates(vec!["a".into()]),
            ),
            (
                Need::Assembly(req.clone()),
                Fact::Assembly(Ok(listing.clone())),
            ),
            (
                Need::Reference(moment.clone()),
                Fact::Item(Err(Problem::at(9, "no talk"))),
            ),
        ]);
        assert_eq!(facts.crates("use a;"), ["a"]);
        assert!(facts.crates("use b;").is_empty());
        assert_eq!(facts.assembly(&req), Ok(listing));
        assert_eq!(facts.moment(&moment).unwrap_err().message, "no talk");
        let other = Reference {
            value: "2:00".into(),
            ..moment
        };
        assert_eq!(facts.moment(&other), Ok(None));
    }
}
