//! Exercises: ````` ````exercise title="…" id=… `````.
//!
//! An exercise block holds the task (Markdown), then three fences:
//! ```` ```rust starter ```` (what the reader starts from, usually with
//! `todo!()`), ```` ```rust solution ```` and ```` ```rust tests ````
//! (`#[test]` functions that see the code's items, as inside
//! `mod tests { use super::*; … }`), and optionally ```` ```hints ````
//! (Markdown). It makes three claims, each at its own fence: the starter
//! compiles with the tests; at least one test fails on the starter (the
//! tests test something); every test passes on the solution. They are
//! checked like any other claim (merged builds, the cache, the lock).
//!
//! `parse` reads the block ([`Exercise::parse`]); the claims come from the
//! model ([`Exercise::claims`]), and so does the package the `exercises`
//! command writes ([`super::contract::Model::package`]).

mod parse;
mod render;

use super::contract::{Env, Kind, Package, Parsed, Target};
use super::facts::Need;
use mdbook_companion_core::claim::Claim;
use mdbook_companion_core::code;
use mdbook_companion_core::config::Key;
use mdbook_companion_core::expect::Expect;
use mdbook_companion_core::lang::Lang;
use mdbook_companion_core::links::Mode;
use mdbook_companion_core::markdown::{Block, Pattern};
use mdbook_companion_core::problem::Problem;

/// The exercise's row of the registry.
pub(crate) const KIND: Kind = Kind {
    name: "exercise",
    pattern: PATTERN,
    parse,
    makes_claims: true,
    lists_the_book: false,
    publishes: &[],
    stylesheet: include_str!("exercise.css"),
    script: "",
    keys: &[Key::Flag(PRINT_SOLUTIONS)],
};

/// `print-solutions = true`: solutions on the print page too (the
/// exercise's key of `[preprocessor.companion]`).
pub(crate) const PRINT_SOLUTIONS: &str = "print-solutions";

/// What a claims-page row of an exercise is.
pub const WHAT: &str = "Exercise";

/// Parses an exercise block into its model; on a page it needs to know
/// the book's crates its starter uses (the Playground link's note).
fn parse(block: &Block, env: &Env<'_>) -> Result<Parsed, Problem> {
    let ex = Exercise::parse(block, env.text, env.config)?;
    let needs = match env.target {
        Target::Html => vec![Need::Crates(ex.test_crate(false))],
        _ => Vec::new(),
    };
    Ok(Parsed {
        model: Box::new(ex),
        needs,
    })
}

/// How an exercise block starts.
pub const PATTERN: Pattern = Pattern {
    words: &["exercise"],
    takes_output: false,
};

/// The parts a block holds, for messages.
pub(crate) const PARTS: &str =
    "```rust starter, ```rust solution, ```rust tests and, optionally, ```hints";

/// Some of the author's Markdown (the task, the hints) and where it
/// starts in the chapter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prose {
    /// The Markdown as written.
    pub text: String,
    /// Its offset in the chapter.
    pub at: usize,
}

/// One Rust part of an exercise (the starter, the solution, the tests).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Code {
    /// The code as written, hidden-line markers included.
    pub code: String,
    /// What the reader sees: hidden lines dropped.
    pub shown: String,
    /// What the compiler gets: hidden lines included, markers stripped.
    pub source: String,
    /// The offset in the chapter of its info string.
    pub info_offset: usize,
}

/// A parsed exercise block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exercise {
    /// The title.
    pub title: String,
    /// `id=`: the exercise's anchor and package name, with where it
    /// stands (without it: the anchor of its number, the package named
    /// after its title).
    pub id: Option<(String, usize)>,
    /// The Rust edition (the book's unless `edition=` says).
    pub edition: u16,
    /// Debug or release.
    pub mode: Mode,
    /// The task: the Markdown before the first fence.
    pub task: Option<Prose>,
    /// The hints, from a ```` ```hints ```` fence.
    pub hints: Option<Prose>,
    /// What the reader starts from.
    pub starter: Code,
    /// A solution.
    pub solution: Code,
    /// The tests.
    pub tests: Code,
    /// The offset in the chapter of the block's info string.
    pub info_offset: usize,
}

impl Exercise {
    /// The name of its package in the `exercises` workspace: its `id`, else
    /// its title in lower case, runs of other characters as one `-`
    /// (`Safe division` is `safe-division`).
    pub fn package(&self) -> String {
        if let Some((id, _)) = &self.id {
            return id.clone();
        }
        let mut name = String::new();
        for c in self.title.chars() {
            match c.is_ascii_alphanumeric() {
                true => name.push(c.to_ascii_lowercase()),
                false if !name.is_empty() && !name.ends_with('-') => name.push('-'),
                false => {}
            }
        }
        let name = name.trim_end_matches('-');
        match name.starts_with(|c: char| c.is_ascii_alphabetic()) {
            true => name.to_owned(),
            false => format!("exercise-{name}").trim_end_matches('-').to_owned(),
        }
    }

    /// The test crate of the starter (`solution = false`) or of the
    /// solution: the code with the tests in `mod tests`.
    pub fn test_crate(&self, solution: bool) -> String {
        let code = match solution {
            true => &self.solution.source,
            false => &self.starter.source,
        };
        code::test_crate(code, &self.tests.source)
    }

    /// Its package for the `exercises` workspace.
    pub(crate) fn to_package(&self, solutions: bool) -> Package {
        Package {
            name: self.package(),
            title: self.title.clone(),
            about: self.task.as_ref().map(|t| t.text.clone()),
            edition: self.edition,
            code: {
                let code = match solutions {
                    true => &self.solution.source,
                    false => &self.starter.source,
                };
                code::student_crate(code, &self.tests.source, !solutions)
            },
        }
    }

    /// The three claims, each at its own fence: the starter compiles with
    /// the tests (at the starter), a test fails on the starter (at the
    /// tests), every test passes on the solution (at the solution). The
    /// first two share one program, so one build and one run serve both.
    pub fn claims(&self, env: &Env<'_>) -> Vec<Claim> {
        // The test crate's own lines: a blank line and the tests' module
        // (three lines, a blank one, its closing brace).
        const TEST_CRATE_LINES: usize = 6;
        let claim = |expect: Expect, at: &Code, part: &str, solution: bool| {
            let mut claim = Claim::new(
                env.file,
                at.info_offset,
                format!("exercise \"{}\" ({part})", self.title),
                Lang::Rust,
                self.test_crate(solution),
                expect,
            );
            claim.origin.line = env.place.line(at.info_offset);
            claim.program.lines = env.joined_program_lines(
                &[
                    match solution {
                        true => &self.solution,
                        false => &self.starter,
                    }
                    .info_offset,
                    self.tests.info_offset,
                ],
                &self.test_crate(solution),
                TEST_CRATE_LINES,
            );
            claim.program.edition = self.edition;
            claim.program.mode = self.mode;
            claim
        };
        vec![
            claim(Expect::StarterCompiles, &self.starter, "starter", false),
            claim(Expect::StarterFails, &self.tests, "tests", false),
            claim(Expect::SolutionPasses, &self.solution, "solution", true),
        ]
    }
}
