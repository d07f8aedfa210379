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

use std::fmt;
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
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
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

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` {}; the search stood at line {} of the listing: `{}`",
            self.written,
            self.reason,
            self.stood.line,
            self.stood.text.trim()
        )
    }
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
mod tests {
    use super::matcher::find_words;
    use super::*;
    use pretty_assertions::assert_eq;
    use regex::Regex;

    const DIVIDE: &str = "divide:\n    mov eax, edi\n    cdq\n    idiv esi\n    ret\n";

    fn run(checks: &str, listing: &str) -> Result<(), Failure> {
        parse(checks)
            .unwrap_or_else(|e| panic!("{e:?}"))
            .run(listing)
    }

    fn err(checks: &str) -> SyntaxError {
        parse(checks).unwrap_err()
    }

    #[test]
    fn holding_claims_pass() {
        for checks in [
            "CHECK: idiv",
            "CHECK-LABEL: divide:\nCHECK: mov eax, edi\nCHECK-NEXT: cdq\nCHECK-NEXT: idiv",
            "CHECK: mov\nCHECK-SAME: edi",
            "CHECK-NOT: call\nCHECK: idiv\nCHECK-NOT: call",
            "CHECK: mov   eax,\tedi",
            "CHECK: idiv {{e[sd]i}}",
            "CHECK-COUNT-2: {{^ +[a-z]+ e}}",
            "  CHECK: cdq\n\n   CHECK-NEXT: idiv",
            "CHECK-NOT: call",
        ] {
            assert_eq!(run(checks, DIVIDE), Ok(()), "{checks}");
        }
    }

    #[test]
    fn false_claims_fail_at_their_line_showing_where_the_search_stood() {
        let f = run("CHECK: cdq\nCHECK: call", DIVIDE).unwrap_err();
        assert_eq!(
            f.to_string(),
            "`CHECK: call` was not found; the search stood at line 3 of the listing: `cdq`"
        );
        assert_eq!((f.directive, f.line), (1, 2));

        let f = run("CHECK: mov\nCHECK-NEXT: idiv", DIVIDE).unwrap_err();
        assert_eq!(
            f.to_string(),
            "`CHECK-NEXT: idiv` is on line 4, not on the line after line 2 (the last match); the search stood at line 3 of the listing: `cdq`"
        );

        let f = run("CHECK: mov\nCHECK-NOT: cdq\nCHECK: ret", DIVIDE).unwrap_err();
        assert_eq!(
            f.to_string(),
            "`CHECK-NOT: cdq` was found on line 3, where it must not be; the search stood at line 3 of the listing: `cdq`"
        );
        assert_eq!(f.line, 2);

        let f = run("CHECK: cdq\nCHECK-SAME: idiv", DIVIDE).unwrap_err();
        assert_eq!(f.reason, "is not on line 3 (the last match's line)");

        let f = run("CHECK-COUNT-3: {{e[sd]i}}", DIVIDE).unwrap_err();
        assert_eq!(f.reason, "was found 2 of 3 times");

        let f = run("CHECK-LABEL: divide:\nCHECK-LABEL: other:", DIVIDE).unwrap_err();
        assert_eq!((f.line, f.stood.line), (2, 1));
    }

    #[test]
    fn order_matters_and_matches_do_not_go_back() {
        assert!(run("CHECK: idiv\nCHECK: cdq", DIVIDE).is_err());
        assert!(run("CHECK: idiv\nCHECK-NOT: ret", DIVIDE).is_err());
        // `CHECK-NOT` before the first match covers the start.
        assert!(run("CHECK-NOT: mov\nCHECK: idiv", DIVIDE).is_err());
        // A trailing `CHECK-NOT` covers up to the end.
        assert!(run("CHECK: mov\nCHECK-NOT: ret", DIVIDE).is_err());
        // Whitespace runs match whitespace, not nothing.
        assert!(run("CHECK: mo v", DIVIDE).is_err());
    }

    #[test]
    fn labels_cut_the_listing_into_regions() {
        let two = "f:\n    call g\n    ret\n\ng:\n    xor eax, eax\n    ret\n";
        // `call` is in f's region, not g's.
        assert_eq!(run("CHECK-LABEL: f:\nCHECK: call", two), Ok(()));
        let f = run("CHECK-LABEL: g:\nCHECK: call", two).unwrap_err();
        assert_eq!(f.stood.line, 5);
        // A CHECK-NOT in f's region stops at g's label.
        assert_eq!(
            run(
                "CHECK-LABEL: f:\nCHECK-NOT: xor\nCHECK-LABEL: g:\nCHECK: xor",
                two
            ),
            Ok(())
        );
        assert!(run("CHECK-LABEL: f:\nCHECK: xor\nCHECK-LABEL: g:", two).is_err());
        // CHECK-NEXT right after a label is the label's next line.
        assert_eq!(run("CHECK-LABEL: g:\nCHECK-NEXT: xor", two), Ok(()));
    }

    #[test]
    fn lines_that_are_not_directives_are_located_errors() {
        let cases: [(&str, usize, &str); 9] = [
            (
                "CHECK: a\nCHECK-NXT: b",
                9,
                "found `CHECK-NXT:`; expected `CHECK:`, `CHECK-NEXT:`, `CHECK-SAME:`, `CHECK-NOT:`, `CHECK-LABEL:` or `CHECK-COUNT-n:` and a pattern",
            ),
            (
                "  idiv",
                2,
                "found `idiv`; expected `CHECK:`, `CHECK-NEXT:`, `CHECK-SAME:`, `CHECK-NOT:`, `CHECK-LABEL:` or `CHECK-COUNT-n:` and a pattern",
            ),
            (
                "CHECK:   ",
                6,
                "found `CHECK:` with nothing after it; expected a pattern to look for",
            ),
            (
                "CHECK-COUNT-0: x",
                0,
                "found `CHECK-COUNT-0:`; expected a count of at least 1 (`CHECK-COUNT-2:`)",
            ),
            (
                "CHECK-NEXT: x",
                0,
                "found `CHECK-NEXT:` before any line was matched; expected it after a `CHECK:`, `CHECK-LABEL:` or another directive that matches a line",
            ),
            (
                "CHECK-NOT: b\nCHECK-SAME: c",
                13,
                "found `CHECK-SAME:` before any line was matched; expected it after a `CHECK:`, `CHECK-LABEL:` or another directive that matches a line",
            ),
            (
                "CHECK: a {{b",
                9,
                "found `{{` without its closing `}}`; expected `{{regex}}`",
            ),
            (
                "CHECK: [[REG:e.x]]",
                7,
                "found `[[`, a FileCheck variable; expected literal text or `{{regex}}` (variables are not supported)",
            ),
            ("CHECK: {{}}", 7, "found `{{}}`; expected a regex inside"),
        ];
        for (text, offset, message) in cases {
            assert_eq!(
                err(text),
                SyntaxError {
                    offset,
                    message: message.into()
                },
                "{text}"
            );
        }
        let bad = err("CHECK: x {{a(}}");
        assert_eq!(bad.offset, 11);
        assert!(
            bad.message
                .starts_with("found `{{a(}}`, which is not a valid regex ("),
            "{}",
            bad.message
        );
    }

    #[test]
    fn regex_braces_and_lines_are_read_as_written() {
        let c = parse("\nCHECK: {{a{2}}}b\r\n  CHECK-NOT: c").unwrap();
        let d = &c.directives;
        assert_eq!(
            (d[0].line, d[0].offset, d[0].pattern.as_str()),
            (2, 1, "{{a{2}}}b")
        );
        assert_eq!((d[1].line, d[1].offset, d[1].kind), (3, 21, Rule::Not));
        assert_eq!(c.run("xaab\n"), Ok(()));
        assert!(c.run("xab\n").is_err());
        assert_eq!(parse("").unwrap().directives.len(), 0);
    }

    #[test]
    fn claims_in_words() {
        let c = parse(
            "CHECK-LABEL: divide:\nCHECK-NOT: call\nCHECK: idiv\nCHECK-NEXT: ret\nCHECK-SAME: x\nCHECK-COUNT-2: y\nCHECK-NOT: call\nCHECK-LABEL: g:\nCHECK-NOT: z",
        )
        .unwrap();
        let phrases: Vec<(Phrase, &str, usize)> = c
            .describe()
            .iter()
            .map(|s| (s.phrase, Phrase::words(s.phrase), s.count))
            .collect();
        assert_eq!(
            phrases,
            [
                (Phrase::Label, "In {pattern}:", 1),
                (Phrase::NotBefore, "no {pattern} before the next match", 1),
                (Phrase::Appears, "{pattern} appears", 1),
                (Phrase::Next, "on the next line, {pattern}", 1),
                (Phrase::Same, "on the same line, {pattern}", 1),
                (Phrase::Times, "then {pattern}, {n} times", 2),
                (Phrase::NotAfter, "no {pattern} after that", 1),
                (Phrase::Label, "In {pattern}:", 1),
                (Phrase::Nowhere, "no {pattern} anywhere", 1),
            ]
        );
        assert_eq!(c.describe()[2].pattern, "idiv");
    }

    /// `fuzz/` filecheck target: `CHECK-COUNT-n` of a pattern that
    /// matches nothing (`{{x*}}`) found the same empty match n times, so a
    /// large n hung the check.
    #[test]
    fn fuzz_filecheck_count_of_an_empty_match_is_not_a_loop() {
        let c = parse("CHECK-COUNT-1000000: {{x*}}").unwrap();
        WORK.with(|w| w.set(0));
        assert_eq!(c.run("a\n"), Ok(()));
        assert!(WORK.with(|w| w.get()) < 10, "one step per distinct match");
        let c = parse("CHECK-COUNT-18446744073709551615: {{x*}}").unwrap();
        assert_eq!(c.run("a\nb\n"), Ok(()));
        // Matches that move on are still each counted.
        assert!(run("CHECK-COUNT-3: {{x*}}a", "aa\n").is_err());
        assert_eq!(run("CHECK-COUNT-2: {{x*}}a", "aa\n"), Ok(()));
    }

    #[test]
    fn equal_blocks_are_equal_checks() {
        assert_eq!(parse("CHECK: a").unwrap(), parse("CHECK: a").unwrap());
        assert_ne!(parse("CHECK: a").unwrap(), parse("CHECK: b").unwrap());
    }

    #[test]
    fn literal_patterns_match_where_their_regex_would() {
        let lines = [
            "    mov eax, edi",
            "\tmov\t\teax, edi",
            "  movl  eax,edi mov eax, edi",
            "aaab aab ab",
            "call  \t qword ptr [rip + f@GOTPCREL]",
            "é mov  é eax",
            "",
        ];
        let patterns = [
            "mov eax, edi",
            "mov eax,",
            "eax, edi",
            "aab",
            "a ab",
            "aab ab",
            "call qword ptr [rip + f@GOTPCREL]",
            "é eax",
            "mov",
            "ab a",
        ];
        for pattern in patterns {
            let Matcher::Words(words) = compile(pattern).unwrap() else {
                panic!("{pattern} is literal");
            };
            let mut re = String::new();
            for (i, w) in words.iter().enumerate() {
                if i > 0 {
                    re.push_str("[ \\t]+");
                }
                re.push_str(&regex::escape(w));
            }
            let re = Regex::new(&re).unwrap();
            for line in lines {
                for begin in (0..=line.len()).filter(|b| line.is_char_boundary(*b)) {
                    let want = re.find_at(line, begin).map(|m| (m.start(), m.end()));
                    assert_eq!(
                        find_words(&words, line, begin),
                        want,
                        "{pattern:?} in {line:?} from {begin}"
                    );
                }
            }
        }
    }

    /// Matching counts its steps (lines looked at, candidates tried):
    /// linear in the directives and the listing, not timed.
    #[test]
    fn matching_is_linear_in_the_lines() {
        let steps = |n: usize| {
            let mut listing = String::from("f:\n");
            let mut checks = String::from("CHECK-LABEL: f:\n");
            for i in 0..n {
                listing.push_str(&format!("\tmov\tDWORD PTR {}[rdi], {i}\n", 4 * i));
                checks.push_str(&format!("CHECK: mov DWORD PTR {}[rdi], {i}\n", 4 * i));
                if i % 100 == 0 {
                    checks.push_str("CHECK-NOT: call\n");
                }
            }
            listing.push_str("\tret\n");
            checks.push_str("CHECK-NEXT: ret\n");
            let checks = parse(&checks).unwrap();
            WORK.with(|w| w.set(0));
            checks.run(&listing).unwrap();
            WORK.with(std::cell::Cell::get)
        };
        let (small, large) = (steps(1_000), steps(16_000));
        assert!(
            large <= small * 16 + 16 && large >= 16_000,
            "{small} steps for 1,000 lines, {large} for 16,000"
        );
    }

    #[test]
    fn a_regex_is_built_on_first_use_once_per_text() {
        let text = "CHECK: {{i?div}} esi\nCHECK: ret\nCHECK-NOT: {{i?div}} esi";
        let checks = parse(text).unwrap();
        let Matcher::Regex(_, built) = &checks.directives[0].matcher else {
            panic!("a regex pattern");
        };
        assert!(built.get().is_none(), "built before use");
        assert!(matches!(checks.directives[1].matcher, Matcher::Words(_)));
        WORK.with(|w| w.set(0));
        assert_eq!(checks.run(DIVIDE), Ok(()));
        let first = WORK.with(std::cell::Cell::get);
        assert!(built.get().is_some());
        // The same block read again: the same search, nothing built (the
        // first run built the regex once, for both its directives).
        let again = parse(text).unwrap();
        WORK.with(|w| w.set(0));
        assert_eq!(again.run(DIVIDE), Ok(()));
        assert_eq!(WORK.with(std::cell::Cell::get), first - 1);
    }
}
