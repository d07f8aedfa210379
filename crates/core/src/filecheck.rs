//! Claims about assembly, in FileCheck's words.
//!
//! An ```` ```asm ```` block after an example or a comparison side holds
//! the directives of LLVM's FileCheck, the convention of rustc's own
//! `tests/assembly`: `CHECK:`, `CHECK-NEXT:`, `CHECK-SAME:`, `CHECK-NOT:`,
//! `CHECK-LABEL:` and `CHECK-COUNT-n:`, with `{{regex}}` inside a pattern
//! and runs of whitespace matching any run of spaces or tabs. [`parse`]
//! reads a block into [`Checks`] (a line that is not a directive is a
//! located [`SyntaxError`]); [`Checks::run`] matches them against the
//! listing the panel shows, and a false claim is a [`Failure`] naming its
//! directive and where in the listing the search stood, as FileCheck
//! tells it; [`Checks::describe`] says in words what must appear, in what
//! order, and what must not, for the page.
//!
//! The matcher is ours: the `filecheck` crate speaks Cranelift's dialect
//! (`check:`, `nextln:`), not LLVM's. As in FileCheck, a match never spans
//! lines, `CHECK-LABEL` lines are found first and cut the listing into
//! regions that the other directives stay in, and a `CHECK-NOT` holds
//! between the matches before and after it.

use std::sync::OnceLock;

mod matcher;
mod search;
use matcher::Matcher;
pub use matcher::{WORK, work};

/// What a directive asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    /// `CHECK:` the pattern appears at or after the last match.
    Check,
    /// `CHECK-NEXT:` on the line after the last match.
    Next,
    /// `CHECK-SAME:` on the line of the last match, after it.
    Same,
    /// `CHECK-NOT:` not between the matches around it.
    Not,
    /// `CHECK-LABEL:` found first; cuts the listing into regions.
    Label,
    /// `CHECK-COUNT-n:` the pattern `n` times, one after the other.
    Count(usize),
}

impl Rule {
    /// The directive as written, without its colon: `CHECK-NEXT`.
    pub fn name(self) -> String {
        match self {
            Rule::Check => "CHECK".into(),
            Rule::Next => "CHECK-NEXT".into(),
            Rule::Same => "CHECK-SAME".into(),
            Rule::Not => "CHECK-NOT".into(),
            Rule::Label => "CHECK-LABEL".into(),
            Rule::Count(n) => format!("CHECK-COUNT-{n}"),
        }
    }
}

/// The directives an `asm` block may hold, for messages.
pub const KNOWN: &str =
    "`CHECK:`, `CHECK-NEXT:`, `CHECK-SAME:`, `CHECK-NOT:`, `CHECK-LABEL:` or `CHECK-COUNT-n:`";

/// One directive line.
#[derive(Debug, Clone)]
pub struct Directive {
    /// What it asks.
    pub kind: Rule,
    /// The pattern as written (trimmed).
    pub pattern: String,
    /// 1-based line in the block.
    pub line: usize,
    /// Byte offset of the directive's first character in the block.
    pub offset: usize,
    matcher: Matcher,
}

/// The directives of one `asm` block, in order.
#[derive(Debug, Clone, Default)]
pub struct Checks {
    /// The directives.
    pub directives: Vec<Directive>,
}

/// Equal when their directives are, as written: a total equivalence.
impl Eq for Checks {}

impl PartialEq for Checks {
    fn eq(&self, other: &Checks) -> bool {
        let key = |c: &Checks| -> Vec<(Rule, String, usize, usize)> {
            c.directives
                .iter()
                .map(|d| (d.kind, d.pattern.clone(), d.line, d.offset))
                .collect()
        };
        key(self) == key(other)
    }
}

/// A line of the block that is not a directive, or a bad pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    /// Byte offset in the block.
    pub offset: usize,
    /// What was found and what was expected.
    pub message: String,
}

/// Where the search stood when a directive failed: a line of the listing.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Stood {
    /// 1-based line of the listing.
    pub line: usize,
    /// Its text (empty past the end).
    pub text: String,
}

/// A false claim: which directive, why, and where the search stood.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize, thiserror::Error)]
#[error("`{written}` {reason}; the search stood at line {} of the listing: `{}`", .stood.line, .stood.text.trim())]
pub struct Failure {
    /// Index of the directive in [`Checks::directives`].
    pub directive: usize,
    /// The directive as written: `CHECK-NEXT: idiv`.
    pub written: String,
    /// 1-based line of the directive in the block.
    pub line: usize,
    /// What went wrong.
    pub reason: String,
    /// Where the search stood.
    pub stood: Stood,
}

/// Reads an `asm` block: one directive per line, blank lines allowed.
pub fn parse(text: &str) -> Result<Checks, SyntaxError> {
    let mut directives: Vec<Directive> = Vec::new();
    let mut start = 0;
    // A directive that matches a line came before (not only `CHECK-NOT`s).
    let mut matched = false;
    for (i, raw) in text.split_inclusive('\n').enumerate() {
        work(1);
        let line_start = start;
        start += raw.len();
        let line = raw.trim_end_matches(['\n', '\r']);
        let indent = line.len() - line.trim_start().len();
        let body = &line[indent..];
        if body.is_empty() {
            continue;
        }
        let at = line_start + indent;
        let (kind, pattern_at) = directive_kind(body).map_err(|message| SyntaxError {
            offset: at,
            message,
        })?;
        let raw_pattern = &body[pattern_at..];
        let pattern = raw_pattern.trim();
        let pattern_offset = at + pattern_at + (raw_pattern.len() - raw_pattern.trim_start().len());
        if pattern.is_empty() {
            return Err(SyntaxError {
                offset: at + pattern_at,
                message: format!(
                    "found `{}:` with nothing after it; expected a pattern to look for",
                    kind.name()
                ),
            });
        }
        if matches!(kind, Rule::Next | Rule::Same) && !matched {
            return Err(SyntaxError {
                offset: at,
                message: format!(
                    "found `{}:` before any line was matched; expected it after a `CHECK:`, `CHECK-LABEL:` or another directive that matches a line",
                    kind.name(),
                ),
            });
        }
        let matcher = compile(pattern).map_err(|(offset, message)| SyntaxError {
            offset: pattern_offset + offset,
            message,
        })?;
        matched |= kind != Rule::Not;
        directives.push(Directive {
            kind,
            pattern: pattern.to_owned(),
            line: i + 1,
            offset: at,
            matcher,
        });
    }
    Ok(Checks { directives })
}

/// The kind of the directive `body` starts with, and where its pattern
/// starts.
fn directive_kind(body: &str) -> Result<(Rule, usize), String> {
    let head_len = body
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
        .unwrap_or(body.len());
    let head = &body[..head_len];
    let found = || {
        let word: String = body.chars().take(30).take_while(|c| *c != ' ').collect();
        format!("found `{word}`; expected {KNOWN} and a pattern")
    };
    if body[head_len..].starts_with(':') {
        let kind = match head {
            "CHECK" => Some(Rule::Check),
            "CHECK-NEXT" => Some(Rule::Next),
            "CHECK-SAME" => Some(Rule::Same),
            "CHECK-NOT" => Some(Rule::Not),
            "CHECK-LABEL" => Some(Rule::Label),
            _ => match head.strip_prefix("CHECK-COUNT-") {
                Some(n) => match n.parse::<usize>() {
                    Ok(n) if n > 0 => Some(Rule::Count(n)),
                    _ => {
                        return Err(format!(
                            "found `{head}:`; expected a count of at least 1 (`CHECK-COUNT-2:`)"
                        ));
                    }
                },
                None => None,
            },
        };
        return kind.map(|k| (k, head_len + 1)).ok_or_else(found);
    }
    Err(found())
}

/// How `pattern` is looked for: literal text with runs of whitespace
/// matching any run of spaces and tabs, `{{regex}}` as written. Literal
/// text needs nothing built; a regex is checked here (parsed, which is
/// linear and builds no automaton) and built on first use. An error is an
/// offset in the pattern and a message.
fn compile(pattern: &str) -> Result<Matcher, (usize, String)> {
    let variable = |at: usize| {
        (
            at,
            "found `[[`, a FileCheck variable; expected literal text or `{{regex}}` (variables are not supported)".to_owned(),
        )
    };
    let literal = |text: &str, re: &mut String| {
        let mut in_space = false;
        for c in text.chars() {
            if c == ' ' || c == '\t' {
                if !in_space {
                    re.push_str("[ \\t]+");
                }
                in_space = true;
            } else {
                in_space = false;
                re.push_str(&regex::escape(c.encode_utf8(&mut [0; 4])));
            }
        }
    };
    if !pattern.contains("{{") {
        if let Some(v) = pattern.find("[[") {
            return Err(variable(v));
        }
        let words = pattern
            .split([' ', '\t'])
            .filter(|w| !w.is_empty())
            .map(str::to_owned)
            .collect();
        return Ok(Matcher::Words(words));
    }
    let mut re = String::new();
    let mut rest = pattern;
    let mut at = 0;
    while let Some(open) = rest.find("{{").or_else(|| rest.find("[[")) {
        if rest[open..].starts_with("[[") {
            return Err(variable(at + open));
        }
        literal(&rest[..open], &mut re);
        let inner_start = open + 2;
        let Some(close) = rest[inner_start..].find("}}") else {
            return Err((
                at + open,
                "found `{{` without its closing `}}`; expected `{{regex}}`".into(),
            ));
        };
        // `{{a{2}}}`: the regex ends before the last two braces of a run.
        let mut end = inner_start + close;
        while rest[end + 2..].starts_with('}') {
            end += 1;
        }
        let inner = &rest[inner_start..end];
        if inner.is_empty() {
            return Err((at + open, "found `{{}}`; expected a regex inside".into()));
        }
        regex_syntax::Parser::new().parse(inner).map_err(|e| {
            (
                at + inner_start,
                format!(
                    "found `{{{{{inner}}}}}`, which is not a valid regex ({}); expected a regex in Rust's `regex` syntax",
                    e.to_string().lines().last().unwrap_or("").trim()
                ),
            )
        })?;
        re.push_str(&format!("(?:{inner})"));
        at += end + 2;
        rest = &rest[end + 2..];
    }
    // A `[[` in the literal part after the last regex.
    if let Some(v) = rest.find("[[") {
        return Err(variable(at + v));
    }
    literal(rest, &mut re);
    Ok(Matcher::Regex(re, OnceLock::new()))
}

impl Checks {
    /// The directives as written, with their lines in the block: all that
    /// decides what [`Checks::run`] answers for a listing (a key of its
    /// answer).
    pub fn written(&self) -> String {
        let mut out = String::new();
        for d in &self.directives {
            out.push_str(&format!("{} {}: {}\n", d.line, d.kind.name(), d.pattern));
        }
        out
    }

    /// The claims in words, one step per directive, for the page. Two
    /// passes over the directives (linear in their number).
    pub fn describe(&self) -> Vec<Step> {
        let n = self.directives.len();
        // For each directive: a positive one (not `CHECK-NOT`) follows it
        // before the next label; a positive one precedes it since the last.
        let mut positive_follows = vec![false; n];
        let mut seen = false;
        for (i, d) in self.directives.iter().enumerate().rev() {
            work(1);
            positive_follows[i] = seen;
            match d.kind {
                Rule::Label => seen = false,
                Rule::Not => {}
                _ => seen = true,
            }
        }
        let mut steps = Vec::with_capacity(n);
        let mut positive_before = false;
        for (i, d) in self.directives.iter().enumerate() {
            work(1);
            let first_in_region = !positive_before;
            let phrase = match d.kind {
                Rule::Label => Phrase::Label,
                Rule::Check if first_in_region => Phrase::Appears,
                Rule::Check => Phrase::Then,
                Rule::Next => Phrase::Next,
                Rule::Same => Phrase::Same,
                Rule::Count(_) => Phrase::Times,
                Rule::Not => match (positive_follows[i], first_in_region) {
                    (true, _) => Phrase::NotBefore,
                    (false, false) => Phrase::NotAfter,
                    (false, true) => Phrase::Nowhere,
                },
            };
            match d.kind {
                Rule::Label => positive_before = false,
                Rule::Not => {}
                _ => positive_before = true,
            }
            steps.push(Step {
                phrase,
                pattern: d.pattern.clone(),
                count: match d.kind {
                    Rule::Count(n) => n,
                    _ => 1,
                },
            });
        }
        steps
    }
}

/// What a step says, in words a page translates (see [`Phrase::words`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phrase {
    /// `CHECK-LABEL`.
    Label,
    /// The first `CHECK` of a region.
    Appears,
    /// A later `CHECK`.
    Then,
    /// `CHECK-NEXT`.
    Next,
    /// `CHECK-SAME`.
    Same,
    /// `CHECK-COUNT-n`.
    Times,
    /// A `CHECK-NOT` before another match.
    NotBefore,
    /// A `CHECK-NOT` after the last match of its region.
    NotAfter,
    /// A `CHECK-NOT` in a region with no match.
    Nowhere,
}

impl Phrase {
    /// Every phrase, for the translators' list.
    pub const ALL: [Phrase; 9] = [
        Phrase::Label,
        Phrase::Appears,
        Phrase::Then,
        Phrase::Next,
        Phrase::Same,
        Phrase::Times,
        Phrase::NotBefore,
        Phrase::NotAfter,
        Phrase::Nowhere,
    ];

    /// The English words, with `{pattern}` (and `{n}`) to fill in.
    pub fn words(self) -> &'static str {
        match self {
            Phrase::Label => "In {pattern}:",
            Phrase::Appears => "{pattern} appears",
            Phrase::Then => "then {pattern}",
            Phrase::Next => "on the next line, {pattern}",
            Phrase::Same => "on the same line, {pattern}",
            Phrase::Times => "then {pattern}, {n} times",
            Phrase::NotBefore => "no {pattern} before the next match",
            Phrase::NotAfter => "no {pattern} after that",
            Phrase::Nowhere => "no {pattern} anywhere",
        }
    }
}

/// One directive in words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// What it says.
    pub phrase: Phrase,
    /// The pattern as written.
    pub pattern: String,
    /// How many times (`CHECK-COUNT-n`; else 1).
    pub count: usize,
}

#[cfg(test)]
mod tests;
