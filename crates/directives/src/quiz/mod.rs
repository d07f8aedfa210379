//! Quizzes: ````` ````quiz title="…" id=… `````.
//!
//! A quiz block holds questions, each a `##` heading with Markdown under it
//! and one answer: a task list (`- [x]` right, `- [ ]` wrong; several
//! `[x]` ask for all that apply; a `>` quote under an option explains it),
//! an `answer:` line (accepted answers separated by ` | `, compared
//! trimmed and case-insensitively), or a program: a Rust, C or C++ fence
//! with an example's or a side's attributes and its ```` ```output ````.
//! A `>` quote after the answer explains the question.
//!
//! A program question is an example whose claim the reader predicts: its
//! key is the fence's claim (runs and prints its output, panics, does not
//! compile with the first error on `line=`, undefined behaviour), which
//! `check`, `verify`, the lock and the claims page prove like any other
//! ("Quiz 4.1, question 3"). The page asks with real inputs and keeps the
//! answers out of its visible text until the reader checks (`quiz.js`).
//!
//! A choice or short-answer question with a proof (a ```` ```rust proof
//! ```` template after its answer, `proof.rs`) makes a claim per option:
//! the options marked right compile (or run), the others do not.

mod parse;
mod program;
mod proof;
mod render;
mod shown;
mod text;
mod toml;

use super::asmspec::{AsmSpec, CSnippet};
use super::contract::{Env, Kind, Parsed, Target};
use super::facts::Need;
use super::runnable::Example;
use mdbook_companion_core::claim::{Claim, ErrorLine};
use mdbook_companion_core::code;
use mdbook_companion_core::config::Key;
use mdbook_companion_core::expect::Expect;
use mdbook_companion_core::lang::Lang;
use mdbook_companion_core::markdown::{Block, Pattern};
use mdbook_companion_core::problem::{FileLocation, Problem};
use std::ops::Range;

/// The quiz's row of the registry.
pub(crate) const KIND: Kind = Kind {
    name: "quiz",
    pattern: PATTERN,
    parse,
    makes_claims: true,
    lists_the_book: false,
    publishes: &[],
    stylesheet: include_str!("quiz.css"),
    script: include_str!("quiz.js"),
    keys: &[Key::Flag(PRINT_ANSWERS)],
};

/// `print-answers = true`: answers and explanations on the print page
/// too (the quiz's key of `[preprocessor.companion]`).
pub(crate) const PRINT_ANSWERS: &str = "print-answers";

/// The word of a quiz's number (`Quiz 4.1`).
pub const WHAT: &str = "Quiz";

/// How a quiz block starts.
pub const PATTERN: Pattern = Pattern {
    words: &["quiz"],
    takes_output: false,
};

/// mdbook-quiz's link: a line `{{#quiz FILE}}` is a quiz block that reads
/// FILE (as ```` ```quiz src="FILE" ````).
pub(crate) const LINK: &str = "quiz";

/// Parses a quiz block into its model; its Rust programs need the book's
/// crates they use known (as an example's do).
fn parse(block: &Block, env: &Env<'_>) -> Result<Parsed, Problem> {
    let quiz = Quiz::parse(block, env)?;
    let needs = match env.target {
        Target::Xgettext => Vec::new(),
        _ => quiz
            .questions
            .iter()
            .flat_map(|q| match (&q.answer, &q.proof) {
                (Answer::Program(p), _) if p.lang.follows_rustdoc() => vec![p.source.clone()],
                (Answer::Choices(c), Some(proof)) => c
                    .iter()
                    .map(|c| code::rust_source(&proof.program(&c.text.text)))
                    .collect(),
                (Answer::Text { accepted, .. }, Some(proof)) => accepted
                    .iter()
                    .map(|a| code::rust_source(&proof.program(a)))
                    .collect(),
                _ => Vec::new(),
            })
            .map(Need::Crates)
            .chain(
                // The recorded compile of a "does not compile" key: the
                // lines its first error labels are right answers too.
                quiz.claims(env)
                    .into_iter()
                    .filter(|(_, c)| {
                        c.expectation.error_line.is_some() && c.program.lang.follows_rustdoc()
                    })
                    .filter(|_| matches!(env.target, Target::Html | Target::Markdown))
                    .map(|(_, c)| Need::Recorded(Box::new(c))),
            )
            .collect(),
    };
    Ok(Parsed {
        model: Box::new(quiz),
        needs,
    })
}

/// Whether a chapter may hold a quiz that reads a file (```` ```quiz
/// src="…" ````): the chapter memo, which watches only the configured
/// data files, must not remember such a chapter.
pub(crate) fn reads_a_file(text: &str) -> bool {
    text.lines().any(|l| {
        let t = l
            .trim_start_matches([' ', '\t', '>', '-', '*'])
            .trim_start();
        let rest = t.trim_start_matches(['`', '~']);
        rest.len() + 3 <= t.len() && rest.trim_start().starts_with("quiz") && rest.contains("src=")
    })
}

/// Some of the author's Markdown and where it starts in the chapter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prose {
    /// The Markdown as written (block-quote markers removed).
    pub text: String,
    /// Its offset in the chapter (for a quiz file's string: where the
    /// chapter asks for the file).
    pub at: usize,
    /// Where it stands when it was written in a quiz file: its string
    /// there.
    pub file: Option<FileLocation>,
}

impl Prose {
    /// Its Markdown made safe for the page (`body::safe_markdown`),
    /// a problem told where it was written: the one reading of a
    /// question's body prose, for pages and for text.
    pub(crate) fn safe(&self, env: &crate::contract::Env<'_>) -> Result<String, Problem> {
        crate::body::safe_markdown(&env.markdown(&self.text), self.at, "the question")
            .map_err(|p| self.told(p))
    }

    /// A problem of this Markdown (a link that is not http(s)), told
    /// where it was written: at its string in a quiz file, else at
    /// `problem`'s offset of the chapter.
    pub fn told(&self, problem: Problem) -> Problem {
        match &self.file {
            Some(at) if problem.file.is_none() => {
                Problem::in_file(problem.offset, at.clone(), problem.message)
            }
            _ => problem,
        }
    }
}

/// One option of a choice question.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    /// Its text (inline Markdown).
    pub text: Prose,
    /// `[x]`: a right answer.
    pub right: bool,
    /// The `>` quote under it.
    pub why: Option<Prose>,
}

/// What a program question's program does, as its key says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Behaviour {
    /// Runs and prints its output block.
    Prints,
    /// Panics (Rust).
    Panics,
    /// Does not compile.
    DoesNotCompile,
    /// Undefined behaviour, under UBSan (C, C++).
    Undefined,
}

impl Behaviour {
    /// Its value in the page's key and inputs.
    pub fn name(self) -> &'static str {
        match self {
            Behaviour::Prints => "prints",
            Behaviour::Panics => "panics",
            Behaviour::DoesNotCompile => "compile-fail",
            Behaviour::Undefined => "ub",
        }
    }

    /// The outcome a claim's expectation means to the reader.
    fn of(expect: Expect) -> Behaviour {
        match expect {
            Expect::Panic => Behaviour::Panics,
            Expect::CompileFail => Behaviour::DoesNotCompile,
            Expect::Ub => Behaviour::Undefined,
            _ => Behaviour::Prints,
        }
    }
}

/// What a program question's fence is, by language.
#[derive(Debug, Clone, PartialEq)]
pub enum Role {
    /// A Rust program: an example (its attributes, outcome and output).
    Rust(Box<Example>),
    /// A C or C++ program.
    Compiled {
        /// Its expected outcome (`run`, `ub` or `compile-fail`).
        expect: Expect,
        /// Its compiler attributes (`flags=`, `warnings=`).
        spec: AsmSpec,
        /// `sanitize=`: the checker that proves the outcome.
        sanitize: mdbook_companion_core::sanitize::Sanitize,
    },
}

/// A program question: the reader predicts what it does.
#[derive(Debug, Clone, PartialEq)]
pub struct Program {
    /// Its language.
    pub lang: Lang,
    /// Its attributes read as an example's or a side's.
    pub role: Role,
    /// The code as written, hidden-line markers included.
    pub code: String,
    /// What the reader sees.
    pub shown: String,
    /// What the compiler gets (hidden lines included, `fn main` added
    /// where Rust needs it).
    pub source: String,
    /// The output block's text.
    pub output: Option<String>,
    /// The output block's range in the chapter.
    pub output_range: Option<Range<usize>>,
    /// `line=`: the line the reader sees the first error on.
    pub line: Option<usize>,
    /// For each line the reader sees, its line in `source`.
    pub shown_lines: Vec<usize>,
    /// The offset in the chapter of its info string.
    pub info_offset: usize,
    /// Where its claim is told when it was written in another file (a
    /// quiz file's `Tracing` question): that file and line.
    pub placed: Option<(String, usize)>,
    /// Where `--bless` writes its answer when it was written in a quiz
    /// file: its `[[questions]]` table there.
    pub bless: Option<mdbook_companion_core::claim::BlessTarget>,
    /// For a program written in another file: its text as written there
    /// and its first line, so that what the compiler says names that
    /// file's lines (`src/q.toml:25:5`).
    pub placed_code: Option<(String, usize)>,
}

impl Program {
    /// The same program, its claim told at `line` of `file`.
    pub fn placed(mut self, file: &str, line: usize) -> Program {
        self.placed = Some((file.to_owned(), line));
        self
    }

    /// The expected outcome.
    pub fn expect(&self) -> Expect {
        match &self.role {
            Role::Rust(ex) => ex.expect,
            Role::Compiled { expect, .. } => *expect,
        }
    }

    /// What the reader must choose.
    pub fn outcome(&self) -> Behaviour {
        Behaviour::of(self.expect())
    }

    /// Its claim (the `n`-th question of `quiz`).
    pub fn claim(&self, env: &Env<'_>, quiz: &Quiz, n: usize) -> Claim {
        let mut claim = match &self.role {
            Role::Rust(ex) => ex.claim(env, self.info_offset, self.output_range.clone()),
            Role::Compiled {
                expect,
                spec,
                sanitize,
            } => spec.c_claim(
                env,
                CSnippet {
                    lang: self.lang,
                    info_offset: self.info_offset,
                    source: &self.source,
                    output: self.output.as_deref().zip(self.output_range.as_ref()),
                },
                *expect,
                *sanitize,
            ),
        };
        if let Some((file, line)) = &self.placed {
            claim.origin.file = file.clone();
            claim.origin.line = *line;
            claim.origin.bless = self.bless.clone();
            claim.program.lines = self.placed_code.as_ref().and_then(|(code, first)| {
                mdbook_companion_core::lines::ProgramLines::of_lines(
                    code,
                    *first,
                    &claim.program.source,
                    file,
                )
            });
        }
        claim.origin.what = match &quiz.title {
            Some(t) => format!("quiz \"{t}\" (question {n})"),
            None => format!("quiz (question {n})"),
        };
        claim.expectation.error_line = self.line.and_then(|l| {
            Some(ErrorLine {
                line: *self.shown_lines.get(l.checked_sub(1)?)?,
                shown: self.shown_lines.clone(),
            })
        });
        claim
    }
}

/// A line the reader sees that the compiler's first error labels.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Labelled {
    /// The line as the reader counts it (from 1).
    pub line: usize,
    /// rustc's words for it ("immutable borrow later used here"; empty
    /// when its marker has none).
    pub text: String,
}

impl Program {
    /// The lines the reader sees that the first error of the build's
    /// recorded run labels (primary first), when the build knows one:
    /// each is a right answer to "the first error is on line …". Empty
    /// without a recording (the key's own line is then the answer).
    ///
    /// A recorded run tells its diagnostics in the author's file when the
    /// claim knows where its program's lines stand (`lines`): they are
    /// read there, and told as lines of the program again.
    pub fn labelled(
        &self,
        recorded: Option<&mdbook_companion_core::run::RecordedRun>,
        lines: Option<&mdbook_companion_core::lines::ProgramLines>,
    ) -> Vec<Labelled> {
        let Some(run) = recorded.filter(|r| !r.compiled && self.lang.follows_rustdoc()) else {
            return Vec::new();
        };
        let mut labels = mdbook_companion_core::labels::program_labels(&run.stderr, lines);
        labels.sort_by_key(|l| !l.primary);
        let mut out: Vec<Labelled> = Vec::new();
        for l in labels {
            let Some(i) = self.shown_lines.iter().position(|&s| s == l.line) else {
                continue;
            };
            match out.iter_mut().find(|o| o.line == i + 1) {
                Some(o) if o.text.is_empty() => o.text = l.text,
                Some(_) => {}
                None => out.push(Labelled {
                    line: i + 1,
                    text: l.text,
                }),
            }
        }
        out
    }
}

/// How `check` proves a choice or short-answer question's key (`proof.rs`).
#[derive(Debug, Clone, PartialEq)]
pub struct Proof {
    /// The template read as an example: its code (with `{}`), edition,
    /// mode, and the output a right option prints under `expect=run`.
    pub example: Box<Example>,
    /// `expect=run`: right options run (to the output, when stated) and
    /// wrong ones panic; else right options compile and wrong ones do not.
    pub runs: bool,
    /// Where its claims are told when it was written in a quiz file (its
    /// template's line there), unless an option's own string is placed.
    pub placed: Option<(String, usize)>,
}

/// What a question asks for.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// Options from a task list: one right (radio buttons) or several
    /// (checkboxes: all that apply).
    Choices(Vec<Choice>),
    /// An `answer:` line: the accepted answers.
    Text {
        /// The answers, trimmed.
        accepted: Vec<String>,
        /// Where the line stands in the chapter.
        at: usize,
    },
    /// A program whose outcome the reader predicts.
    Program(Box<Program>),
}

/// One `##` question.
#[derive(Debug, Clone, PartialEq)]
pub struct Question {
    /// The heading's text (inline Markdown).
    pub prompt: Prose,
    /// The Markdown under the heading, before the answer.
    pub body: Vec<Prose>,
    /// What it asks for.
    pub answer: Answer,
    /// The `>` quote after the answer (a quiz file's `context`).
    pub why: Option<Prose>,
    /// A quiz file's question `id`: the question's anchor on the page.
    pub id: Option<String>,
    /// How `check` proves a choice or short answer's key, when the
    /// question gives a template.
    pub proof: Option<Proof>,
}

impl Question {
    /// Whether several options are right ("all that apply").
    pub(crate) fn all_that_apply(&self) -> bool {
        match &self.answer {
            Answer::Choices(c) => c.iter().filter(|c| c.right).count() > 1,
            _ => false,
        }
    }
}

/// A parsed quiz block.
#[derive(Debug, Clone, PartialEq)]
pub struct Quiz {
    /// `title=`.
    pub title: Option<String>,
    /// `id=`: its anchor, with where it stands.
    pub id: Option<(String, usize)>,
    /// The questions, in order.
    pub questions: Vec<Question>,
    /// The hash of its text: where the page keeps the reader's answers (an
    /// edited quiz starts fresh).
    pub hash: String,
    /// The offset in the chapter of its info string.
    pub info_offset: usize,
}

impl Quiz {
    /// The claims of its program questions and of its proven options,
    /// with the question's number (1-based) of each.
    pub fn claims(&self, env: &Env<'_>) -> Vec<(usize, Claim)> {
        let mut out = Vec::new();
        for (i, q) in self.questions.iter().enumerate() {
            match (&q.answer, &q.proof) {
                (Answer::Program(p), _) => out.push((i + 1, p.claim(env, self, i + 1))),
                (_, Some(proof)) => out.extend(
                    proof
                        .claims(env, self, i + 1, q)
                        .into_iter()
                        .map(|c| (i + 1, c)),
                ),
                (_, None) => {}
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::reads_a_file;

    #[test]
    fn a_quiz_reading_a_file_is_seen_in_any_container() {
        assert!(reads_a_file("# A\n\n```quiz src=\"q.toml\"\n```\n"));
        assert!(reads_a_file(
            "- ````quiz title=\"T\" src=\"q.toml\"\n  ````\n"
        ));
        assert!(reads_a_file("> ~~~quiz src=q.toml\n> ~~~\n"));
        assert!(!reads_a_file("````quiz\n## Q\n\nanswer: a\n````\n"));
        assert!(!reads_a_file("<img src=\"quiz.png\">\n"));
    }
}
