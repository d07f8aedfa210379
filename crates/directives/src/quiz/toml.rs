//! mdbook-quiz's quiz files, read at the edge into our model: a book that
//! used mdbook-quiz keeps its TOML files (```` ```quiz src="FILE" ````, or
//! `{{#quiz FILE}}` in a chapter). Its schema (mdbook-quiz-schema):
//! `[[questions]]` with `type` = `MultipleChoice` (`prompt.prompt`,
//! `prompt.distractors`, `answer.answer` a string or a list,
//! `prompt.answerIndex`, `prompt.sortAnswers`), `ShortAnswer`
//! (`answer.answer`, `answer.alternatives`) or `Tracing`
//! (`prompt.program`, `answer.doesCompile`, `answer.lineNumber`,
//! `answer.stdout`); `context`, `id`, `multipart` and a top-level
//! `[multipart]` table. A `Tracing` answer becomes a program question's
//! claim, placed at its line in the file. A `MultipleChoice` or
//! `ShortAnswer` question may add a key of our own that mdbook-quiz does
//! not read, `companion` (`companion.template`, `companion.expect`,
//! `companion.stdout`): its proof (`proof.rs`), each option's claim placed
//! at the option's string. An unknown type or key is a located error,
//! never a skipped question.

use super::{Answer, Choice, Program, Proof, Prose, Question};
use crate::contract::Env;
use mdbook_companion_core::claim::BlessTarget;
use mdbook_companion_core::config::Config;
use mdbook_companion_core::markdown::Fence;
use mdbook_companion_core::problem::{Fault, FileLocation, Problem};
use serde::Deserialize;
use std::collections::BTreeMap;

mod strings;
use strings::Strings;

/// The question types the schema has.
const TYPES: &str = "MultipleChoice, ShortAnswer or Tracing";

/// The keys every question may have.
const COMMON: [&str; 8] = [
    "type",
    "id",
    "multipart",
    "prompt",
    "answer",
    "context",
    "promptExplanation",
    "companion",
];

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    questions: Vec<toml::Spanned<toml::Table>>,
    #[serde(default)]
    multipart: BTreeMap<String, String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Fields<P, A> {
    #[serde(rename = "type")]
    _kind: String,
    id: Option<String>,
    multipart: Option<String>,
    prompt: P,
    answer: A,
    context: Option<String>,
    #[serde(rename = "promptExplanation")]
    _prompt_explanation: Option<bool>,
    companion: Option<Companion>,
}

/// Our own key of a question: the proof of its options (`proof.rs`).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Companion {
    template: String,
    expect: Option<String>,
    stdout: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct ChoicePrompt {
    prompt: String,
    distractors: Vec<String>,
    answer_index: Option<usize>,
    sort_answers: Option<bool>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ChoiceAnswer {
    answer: OneOrMany,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ShortPrompt {
    prompt: String,
    #[serde(rename = "response")]
    _response: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ShortAnswer {
    answer: String,
    alternatives: Option<Vec<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TracingPrompt {
    program: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct TracingAnswer {
    does_compile: bool,
    stdout: Option<String>,
    line_number: Option<usize>,
}

impl super::Quiz {
    /// Reads the text of an mdbook-quiz file (what the fuzz target
    /// drives): its questions, or a fault at a byte offset of `text`.
    pub fn read_quiz_file(text: &str, config: &Config) -> Result<Vec<Question>, Fault> {
        questions(text, "quiz.toml", 0, config)
    }
}

/// The questions of a quiz file's `text`, shown as `shown` (its path from
/// the book root) in claims; `at` is the chapter offset of the block that
/// reads it (where prose problems are told).
pub(super) fn questions(
    text: &str,
    shown: &str,
    at: usize,
    config: &Config,
) -> Result<Vec<Question>, Fault> {
    let file: File = toml::from_str(text).map_err(|e| {
        Fault::at(
            e.span().map_or(0, |s| s.start),
            format!(
                "found {}; expected an mdbook-quiz file: [[questions]] tables",
                e.message().trim_end()
            ),
        )
    })?;
    if file.questions.is_empty() {
        return Err(Fault::at(
            0,
            "found no [[questions]] in the quiz file; expected at least one".to_owned(),
        ));
    }
    let strings = Strings::of(text, shown);
    let mut out = Vec::new();
    for (n, q) in file.questions.iter().enumerate() {
        let start = q.span().start;
        // A table's span may be its header alone: its keys stand up to
        // the next question's.
        let end = file
            .questions
            .get(n + 1)
            .map_or(text.len(), |next| next.span().start);
        let one = OneQuestion {
            text,
            shown,
            at,
            config,
            file: &file,
            strings: &strings,
            n,
            range: start..end,
        };
        out.push(one.read(q.get_ref())?);
    }
    Ok(out)
}

/// One question of a quiz file as it is read: the file around it, and
/// where it stands (`range`, up to the next question).
struct OneQuestion<'a> {
    text: &'a str,
    shown: &'a str,
    at: usize,
    config: &'a Config,
    file: &'a File,
    strings: &'a Strings<'a>,
    n: usize,
    range: std::ops::Range<usize>,
}

impl OneQuestion<'_> {
    /// The question of its `table`, by its type.
    fn read(&self, table: &toml::Table) -> Result<Question, Fault> {
        for key in table.keys() {
            if !COMMON.contains(&key.as_str()) {
                return Err(Fault::at(
                    self.where_key(key),
                    format!(
                        "found unknown key `{key}` in a question; expected one of {}",
                        COMMON.join(", ")
                    ),
                ));
            }
        }
        let kind = match table.get("type") {
            Some(toml::Value::String(s)) => s.as_str(),
            _ => {
                return Err(Fault::at(
                    self.range.start,
                    format!("found a question without a `type`; expected type = {TYPES}"),
                ));
            }
        };
        let value = toml::Value::Table(table.clone());
        let bad = |e: toml::de::Error| {
            Fault::at(
                self.range.start,
                format!(
                    "found a {kind} question that does not fit mdbook-quiz's schema ({}); expected its prompt.* and answer.* keys",
                    e.message().trim_end()
                ),
            )
        };
        match kind {
            "MultipleChoice" => self.multiple_choice(value.try_into().map_err(bad)?),
            "ShortAnswer" => self.short_answer(value.try_into().map_err(bad)?),
            "Tracing" => self.tracing(value.try_into().map_err(bad)?),
            other => Err(Fault::at(
                self.where_key("type"),
                format!("found a question of type `{other}`; expected {TYPES}"),
            )),
        }
    }

    /// Where a string of this question stands in the file: a fault of
    /// its Markdown is told there, not at the chapter's link.
    fn string_at(&self, path: &[&str], index: Option<usize>) -> Option<FileLocation> {
        self.strings.at(self.n, path, index)
    }

    /// Where `key` stands in the question's table (else its start).
    fn where_key(&self, key: &str) -> usize {
        let start = self.range.start;
        self.text
            .get(self.range.clone())
            .and_then(|t| t.find(key))
            .map_or(start, |i| start + i)
    }

    fn prose(&self, text: &str, file: Option<FileLocation>) -> Prose {
        Prose {
            text: text.trim_end().to_owned(),
            at: self.at,
            file,
        }
    }

    /// The body of a question: its `multipart` context, then `prompt`
    /// (at `prompt_at` in the file).
    fn body(
        &self,
        part: &Option<String>,
        prompt: &str,
        prompt_at: Option<FileLocation>,
    ) -> Result<Vec<Prose>, Fault> {
        let mut body = match part {
            None => Vec::new(),
            Some(p) => match self.file.multipart.get(p) {
                Some(c) => vec![self.prose(c, self.strings.multipart(p))],
                None => {
                    return Err(Fault::at(
                        self.where_key("multipart"),
                        format!(
                            "found multipart = \"{p}\" with no `{p}` in the file's [multipart] table; expected a key of it"
                        ),
                    ));
                }
            },
        };
        body.push(self.prose(prompt, prompt_at));
        Ok(body)
    }

    fn context(&self, c: &Option<String>) -> Option<Prose> {
        c.as_deref()
            .map(|c| self.prose(c, self.string_at(&["context"], None)))
    }

    /// A question's proof, placed at its template's line.
    fn companion(&self, c: &Option<Companion>) -> Result<Option<Proof>, Fault> {
        let Some(c) = c else { return Ok(None) };
        let key_at = self.where_key("companion");
        let mut proof = Proof::from_file(
            &c.template,
            c.expect.as_deref(),
            c.stdout.as_deref(),
            self.config,
            self.at,
        )
        .map_err(|m| Fault::at(key_at, m))?;
        let line = self
            .string_at(&["companion", "template"], None)
            .map_or_else(
                || mdbook_companion_core::markdown::line_col(self.text, key_at).0,
                |l| l.line,
            );
        proof.placed = Some((self.shown.to_owned(), line));
        Ok(Some(proof))
    }

    fn multiple_choice(&self, f: Fields<ChoicePrompt, ChoiceAnswer>) -> Result<Question, Fault> {
        let right: Vec<(String, Option<FileLocation>)> = match &f.answer.answer {
            OneOrMany::One(a) => vec![(a.clone(), self.string_at(&["answer", "answer"], None))],
            OneOrMany::Many(a) => (a.iter().enumerate())
                .map(|(i, a)| (a.clone(), self.string_at(&["answer", "answer"], Some(i))))
                .collect(),
        };
        if right.is_empty() {
            return Err(Fault::at(
                self.where_key("answer"),
                "found an empty answer.answer; expected the right option (a string) or options (a list)".to_owned(),
            ));
        }
        let one_right = right.len() == 1;
        let distractors = (f.prompt.distractors.iter().enumerate()).map(|(i, d)| {
            let at = self.string_at(&["prompt", "distractors"], Some(i));
            (d.clone(), false, at)
        });
        let mut options: Vec<(String, bool, Option<FileLocation>)> = right
            .into_iter()
            .map(|(a, at)| (a, true, at))
            .chain(distractors)
            .collect();
        match (f.prompt.answer_index, f.prompt.sort_answers) {
            (Some(i), _) if one_right => {
                if i > f.prompt.distractors.len() {
                    return Err(Fault::at(
                        self.where_key("answerIndex"),
                        format!(
                            "found prompt.answerIndex = {i} with {} distractors; expected at most {}",
                            f.prompt.distractors.len(),
                            f.prompt.distractors.len()
                        ),
                    ));
                }
                let answer = options.remove(0);
                options.insert(i, answer);
            }
            (_, Some(true)) => options.sort_by(|a, b| a.0.cmp(&b.0)),
            // mdbook-quiz shuffles on every visit; a stable order
            // that does not put the answers first.
            _ => options.sort_by_key(|o| mdbook_companion_core::hash::key(&[o.0.as_bytes()])),
        }
        let answer = Answer::Choices(
            options
                .into_iter()
                .map(|(text, right, file)| Choice {
                    text: self.prose(&text, file),
                    right,
                    why: None,
                })
                .collect(),
        );
        let prompt_at = self.string_at(&["prompt", "prompt"], None);
        self.question(&f, &f.prompt.prompt, prompt_at, answer)
    }

    fn short_answer(&self, f: Fields<ShortPrompt, ShortAnswer>) -> Result<Question, Fault> {
        let mut accepted = vec![f.answer.answer.trim().to_owned()];
        let alternatives = f.answer.alternatives.as_deref().unwrap_or_default();
        accepted.extend(alternatives.iter().map(|a| a.trim().to_owned()));
        let answer = Answer::Text {
            accepted,
            at: self.at,
        };
        let prompt_at = self.string_at(&["prompt", "prompt"], None);
        self.question(&f, &f.prompt.prompt, prompt_at, answer)
    }

    fn tracing(&self, f: Fields<TracingPrompt, TracingAnswer>) -> Result<Question, Fault> {
        if f.companion.is_some() {
            return Err(Fault::at(
                self.where_key("companion"),
                "found `companion` on a Tracing question; expected it on a MultipleChoice or ShortAnswer question (a Tracing answer is proven as it is)".to_owned(),
            ));
        }
        if let Some(stdout) = &f.answer.stdout {
            super::program::literal_output(stdout, false)
                .map_err(|m| Fault::at(self.where_key("stdout"), m))?;
        }
        let key_at = self.where_key("doesCompile");
        let line = mdbook_companion_core::markdown::line_col(self.text, key_at).0;
        let mut program = tracing(&f, self.at, self.config)
            .map_err(|m| Fault::at(key_at, m))?
            .placed(self.shown, line);
        let range = self.range.clone();
        // `--bless` writes its answer into this table of the file.
        program.bless = self.text.get(range.clone()).map(|block| BlessTarget {
            path: self.config.root.join(self.shown),
            range: range.clone(),
            block: block.to_owned(),
            quiz_file: true,
        });
        program.placed_code = program_string(self.text, range);
        let answer = Answer::Program(Box::new(program));
        // No proof: `companion` was refused above.
        self.question(&f, "What does this program do?", None, answer)
    }

    /// The question of `f` that `answer` answers: its body (`prompt`, at
    /// `prompt_at` in the file, after its `multipart` context), its proof,
    /// its explanation and its anchor.
    fn question<P, A>(
        &self,
        f: &Fields<P, A>,
        prompt: &str,
        prompt_at: Option<FileLocation>,
        answer: Answer,
    ) -> Result<Question, Fault> {
        let body = self.body(&f.multipart, prompt, prompt_at)?;
        Ok(Question {
            prompt: self.prose("", None),
            body,
            proof: self.companion(&f.companion)?,
            answer,
            why: self.context(&f.context),
            id: f.id.as_deref().and_then(anchor),
        })
    }
}

/// A question's `id` as the anchor of its page element. mdbook-quiz
/// takes any string (its ids key a reader's answers, they were never
/// links), so a file with `id = "ownership 1"` must keep working; but an
/// HTML id holds no whitespace. Each whitespace character becomes `-`,
/// as mdBook makes a heading's anchor (`#ownership-1`, which an author
/// can guess); an id of whitespace alone is no anchor.
fn anchor(id: &str) -> Option<String> {
    let id = id.trim();
    (!id.is_empty()).then(|| {
        id.chars()
            .map(|c| if c.is_whitespace() { '-' } else { c })
            .collect()
    })
}

/// The questions of the quiz file at `path` (relative to the chapter's
/// file, anywhere inside the book's root, as mdBook's `{{#include}}`
/// reads; `at` is where the attribute stands), its faults located in it.
pub(super) fn read_file(
    env: &Env<'_>,
    path: &str,
    at: usize,
    block_at: usize,
) -> Result<(Vec<Question>, String), Problem> {
    let config = env.config;
    let dir = std::path::Path::new(env.file)
        .parent()
        .unwrap_or(std::path::Path::new(""));
    let mut rel = std::path::PathBuf::new();
    for c in dir.join(path).components() {
        match c {
            std::path::Component::Normal(n) => rel.push(n),
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir if rel.pop() => {}
            _ => {
                return Err(Problem::at(
                    at,
                    format!(
                        "found src=\"{path}\", a path outside the book's root; expected a quiz file inside the book (relative to this chapter)"
                    ),
                ));
            }
        }
    }
    let file = crate::datafile::DataFile {
        key: "src",
        rel,
        tables: "[[questions]]",
        what: "mdbook-quiz file",
    };
    let shown = file.rel.to_string_lossy().replace('\\', "/");
    // Where the page keeps the reader's answers: the file's text, as a
    // quiz in a block is keyed by its own.
    file.load_in_root(config, |text| {
        let hash = mdbook_companion_core::hash::key(&[b"quiz-file", text.as_bytes()]);
        questions(text, &shown, block_at, config).map(|q| (q, hash[..16].to_owned()))
    })
    .map_err(|e| e.at(at))
}

/// A `Tracing` question's program, as a Rust program question would
/// state it: `doesCompile = false` with `lineNumber` is `expect=compile-fail
/// line=N`, `doesCompile = true` with `stdout` is `expect=run` and its
/// output.
fn tracing(
    f: &Fields<TracingPrompt, TracingAnswer>,
    at: usize,
    config: &Config,
) -> Result<Program, String> {
    let info = match (
        f.answer.does_compile,
        f.answer.line_number,
        &f.answer.stdout,
    ) {
        (false, Some(n), _) => format!("rust expect=compile-fail line={n}"),
        (false, None, _) => {
            return Err("found doesCompile = false without answer.lineNumber; expected the line of the first error".to_owned());
        }
        (true, _, Some(_)) => "rust".to_owned(),
        (true, _, None) => {
            return Err(
                "found doesCompile = true without answer.stdout; expected what the program prints"
                    .to_owned(),
            );
        }
    };
    let fence = |info: String, body: String| Fence {
        info,
        info_offset: at,
        body,
        body_offset: at,
        range: at..at,
    };
    let mut body = f.prompt.program.clone();
    if !body.ends_with('\n') {
        body.push('\n');
    }
    let output = f.answer.stdout.clone().filter(|_| f.answer.does_compile);
    let output = output.map(|o| fence("output".to_owned(), o));
    let mut p =
        super::program::program(fence(info, body), output, config).map_err(|p| p.message)?;
    p.output_range = None;
    Ok(p)
}

/// Where a question's `program` string stands in the file (`text`'s
/// `range` holds the question): its text as written and its first line,
/// for a multi-line string (`"""` or `'''`) opened on the key's line.
fn program_string(text: &str, range: std::ops::Range<usize>) -> Option<(String, usize)> {
    let within = text.get(range.clone())?;
    let mut from = 0;
    while let Some(i) = within[from..].find("program") {
        let at = from + i + "program".len();
        let rest = within[at..].trim_start_matches([' ', '\t']);
        if let Some(value) = rest.strip_prefix('=') {
            let value = value.trim_start_matches([' ', '\t']);
            for quotes in ["\"\"\"", "'''"] {
                if let Some(body) = value.strip_prefix(quotes) {
                    let body = (body.strip_prefix("\r\n"))
                        .or_else(|| body.strip_prefix('\n'))
                        .unwrap_or(body);
                    let end = body.find(quotes)?;
                    let offset = range.start + (within.len() - body.len());
                    let line = mdbook_companion_core::markdown::line_col(text, offset).0;
                    return Some((body[..end].to_owned(), line));
                }
            }
        }
        from = at;
    }
    None
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod robustness;
