//! What a block states about its program: "this prints `hello`", "this
//! panics", "this does not compile (E0381)", "this C is undefined
//! behaviour". A directive makes its claims when it renders (one parse);
//! `check` and `verify` check those claims and never read the block again.

use crate::doctest::Doctest;
use crate::expect::Expect;
use crate::filecheck::Checks;
use crate::lang::Lang;
use crate::lines::ProgramLines;
use crate::links::Mode;
use crate::machine::Syntax;
use crate::sanitize::Sanitize;
use std::ops::Range;
use std::path::PathBuf;

/// Where `--bless` may write a claim's actual output: a literal
/// ```` ```output ```` block of a chapter file, or, for an example that
/// has no output block, its literal code block, after which `--bless`
/// adds one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlessTarget {
    /// The chapter file on disk.
    pub path: PathBuf,
    /// The byte range of the whole output block (fences included) in the
    /// file as read.
    pub range: Range<usize>,
    /// The block's text at `range` as read, so that a file edited while
    /// checking is noticed and left alone.
    pub block: String,
    /// The target is a question of an mdbook-quiz file (its
    /// `[[questions]]` table at `range` of the file at `path`): `--bless`
    /// writes its `answer.*` keys, not an output block.
    pub quiz_file: bool,
}

/// A claim's verdict as `companion.lock` records it and the claims page
/// shows it (the engine's verdict, without its evidence).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Recorded {
    /// The claim holds.
    Passed,
    /// The claim does not hold.
    Failed,
    /// `ignore`: not checked, on purpose.
    Ignored,
    /// Not checked: the compiler could not be run.
    Unchecked,
    /// Not checked: a claim about another architecture's machine code.
    #[serde(rename = "other-arch")]
    OtherArch,
}

impl Recorded {
    /// Its word in the lock: `passed`, `failed`, `ignored`, `unchecked`.
    pub fn name(self) -> &'static str {
        match self {
            Recorded::Passed => "passed",
            Recorded::Failed => "failed",
            Recorded::Ignored => "ignored",
            Recorded::Unchecked => "unchecked",
            Recorded::OtherArch => "other-arch",
        }
    }
}

impl std::fmt::Display for Recorded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The word of an output block's info string that lets its lines come in
/// any order: ```` ```output unordered ````.
pub const UNORDERED: &str = "unordered";

/// True when expected output uses a pattern token: `[..]` (any text
/// within a line) or a line `...` (any number of lines).
pub fn has_pattern(expected: &str) -> bool {
    expected.contains("[..]") || expected.lines().any(|l| l.trim() == "...")
}

/// One statement of the book to check, in three parts: what runs (the
/// [`Program`]), what is claimed of it (the [`Expectation`]) and where it
/// came from (the [`Origin`]). The engine checks the first two
/// ([`Claim::stated`]); the origin stays with the book layer, which
/// places, reports and blesses claims.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claim {
    /// What runs.
    pub program: Program,
    /// What is claimed of it.
    pub expectation: Expectation,
    /// Where it came from.
    pub origin: Origin,
}

/// What a claim runs: the program, its language and how it is built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Program {
    /// The language (one that compiles).
    pub lang: Lang,
    /// The full program (hidden lines un-hidden, `fn main` added).
    pub source: String,
    /// Whether `source` is the block's code wrapped in `fn main() {`, one
    /// line above the code's own (for placing compiler errors).
    pub wrapped: bool,
    /// The Rust edition.
    pub edition: u16,
    /// Debug or release (Rust).
    pub mode: Mode,
    /// A C or C++ side's own compiler flags (`flags="-Wall -Wextra"`),
    /// after ours.
    pub flags: Vec<String>,
    /// A plain code block of the book (no directive), checked as `mdbook
    /// test` checks it; `None` for a directive's claim.
    pub doctest: Option<Doctest>,
    /// Where the lines of `source` stand in the author's file, so that
    /// what the compiler and the program say names them (`None`: a block
    /// that is not literally in the file keeps `main.rs`). Not part of
    /// what decides a verdict: the cache keys leave it out.
    pub lines: Option<ProgramLines>,
}

/// What a claim states of its program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expectation {
    /// The expected outcome.
    pub expect: Expect,
    /// The expected output (the output block's text), if any.
    pub output: Option<String>,
    /// ```` ```output unordered ````: the output's lines may come in any
    /// order (threads).
    pub unordered: bool,
    /// A rustc error code the compile failure must carry.
    pub error: Option<String>,
    /// The line the compiler's first error must stand on (a quiz's key
    /// "does not compile, on line 3"), when the block says.
    pub error_line: Option<ErrorLine>,
    /// `warnings=none`: the compiler prints no warning.
    pub no_warnings: bool,
    /// `sanitize=`: the checkers that watch the run (none: UBSan for
    /// `expect=ub`, nothing otherwise).
    pub sanitize: Sanitize,
    /// For [`Expect::Asm`]: what the listing must hold.
    pub asm: Option<AsmClaim>,
    /// mdBook's `ignore`: shown, never checked (counted as ignored).
    pub ignore: bool,
}

/// Where a claim came from: its chapter, its block, where `--bless`
/// writes. The engine never sees it: the book layer places what the
/// engine tells in the block's lines (a failure's
/// `mdbook_companion_engine::check::BlockLine`) in the chapter file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    /// The chapter file as shown to the author (`src/intro.md`).
    pub file: String,
    /// 1-based line of the block's info string in the chapter file (for a
    /// block that came through `{{#include}}`, the line of the include).
    /// Directives leave it 0 (counting lines is a scan of the chapter, and
    /// only `check` reports lines: it places each claim in its file).
    pub line: usize,
    /// Byte offset of the info string in the processed chapter text.
    pub offset: usize,
    /// What the block is, for messages: `rust example "Title"`.
    pub what: String,
    /// Byte range in the processed chapter text of the output block
    /// (fences included), where `--bless` would write.
    pub output_range: Option<Range<usize>>,
    /// Where `--bless` may write, when the output block is literal in the
    /// chapter file (set by `check`, which knows the file).
    pub bless: Option<BlessTarget>,
}

/// A claim as the engine checks it: its program and what is claimed of
/// it, never where it came from (its chapter, its block, its output
/// range, where `--bless` writes). What the engine tells of a line names
/// it in the block's own lines; the book layer, which knows the origin,
/// turns that into the chapter's.
#[derive(Debug, Clone, Copy)]
pub struct Stated<'a> {
    /// What runs.
    pub program: &'a Program,
    /// What is claimed of it.
    pub expectation: &'a Expectation,
    /// The caller's number for the claim (its index in the caller's
    /// list; 0 unless [`Stated::numbered`]), by which the engine names it
    /// to its caller in what it traces. Not a place, and no key holds it.
    pub id: usize,
}

impl Stated<'_> {
    /// The same claim, numbered `id` by its caller.
    pub fn numbered(self, id: usize) -> Self {
        Stated { id, ..self }
    }
}

impl Claim {
    /// The claim that `source`, a whole program in `lang` written at
    /// `offset` of `file` (the block `what` names), has the outcome
    /// `expect`, and nothing more: no output, no flags, no checker, no
    /// error code or line, a debug build, edition 2021, placed on no line
    /// yet (`check` places claims). A maker states the rest on the value
    /// (`claim.expectation.output = …`), so every claim is made in one
    /// place and a new field has one default.
    pub fn new(
        file: impl Into<String>,
        offset: usize,
        what: impl Into<String>,
        lang: Lang,
        source: impl Into<String>,
        expect: Expect,
    ) -> Claim {
        Claim {
            program: Program {
                lang,
                source: source.into(),
                wrapped: false,
                edition: 2021,
                mode: Mode::Debug,
                flags: Vec::new(),
                doctest: None,
                lines: None,
            },
            expectation: Expectation {
                expect,
                output: None,
                unordered: false,
                error: None,
                error_line: None,
                no_warnings: false,
                sanitize: Sanitize::NONE,
                asm: None,
                ignore: false,
            },
            origin: Origin {
                file: file.into(),
                line: 0,
                offset,
                what: what.into(),
                output_range: None,
                bless: None,
            },
        }
    }

    /// The claim as the engine checks it.
    pub fn stated(&self) -> Stated<'_> {
        Stated {
            program: &self.program,
            expectation: &self.expectation,
            id: 0,
        }
    }
}

/// Where a compile failure's first error must be: a line of the program
/// the compiler gets, told to the author as a line the reader sees.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ErrorLine {
    /// The 1-based line in [`Program::source`].
    pub line: usize,
    /// For each line the reader sees (1-based, in order), its line in
    /// [`Program::source`] (hidden lines and a wrapping `fn main` shift them).
    pub shown: Vec<usize>,
}

impl ErrorLine {
    /// A line of the source as the reader counts it: `line 3`, or `a
    /// hidden line (line 5 of the program)`.
    pub fn told(&self, source_line: usize) -> String {
        match self.shown.iter().position(|&l| l == source_line) {
            Some(i) => format!("line {}", i + 1),
            None => format!("a hidden line (line {source_line} of the program)"),
        }
    }
}

/// A claim about a block's assembly (an ```` ```asm ```` block): the
/// listing of the functions the reader sees matches its directives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AsmClaim {
    /// The code the reader sees (its functions are the ones listed).
    pub shown: String,
    /// The listing's syntax.
    pub syntax: Syntax,
    /// The architecture the claim holds for.
    pub arch: String,
    /// The directives.
    pub checks: Checks,
}
