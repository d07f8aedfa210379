//! Choice and short-answer questions whose key the compiler proves.
//!
//! A question's proof is a Rust template: its code with `{}` where an
//! option goes (a template of `{}` alone makes each option its own
//! program); an empty block (`fn f() {}`, `=> {}`) and a `{}` in a string
//! stay as they are (`tokens::template_slots`). Each option inserted makes one program and one claim, made
//! as an example's: an option marked right compiles (`expect=no-run`, the
//! default) or runs, printing the stated output when there is one
//! (`expect=run`); an option marked wrong does not compile, or under
//! `expect=run` panics (the template's `assert!` says what "right" is).
//! A short answer's accepted answers are all right. In a quiz block the
//! template is a ```` ```rust proof ```` fence after the answer (its
//! ```` ```output ```` after it); in an mdbook-quiz file it is the
//! question's `companion` table, which mdbook-quiz does not read.

use super::{Answer, Proof, Question, Quiz};
use crate::contract::Env;
use crate::runnable::{Context, Example};
use mdbook_companion_core::attrs::Attr;
use mdbook_companion_core::claim::Claim;
use mdbook_companion_core::config::Config;
use mdbook_companion_core::expect::Expect;
use mdbook_companion_core::markdown::{self, Fence};
use mdbook_companion_core::problem::Problem;
use mdbook_companion_core::tokens::template_slots;
use mdbook_companion_core::values::Attrs;

/// The word of a proof's fence (```` ```rust proof ````).
pub(super) const WORD: &str = "proof";

/// The attributes a proof's fence takes.
const KNOWN: &str = "expect, edition, mode";

/// Whether a fence (its info string) is a question's proof.
pub(super) fn is_proof(info: &str) -> bool {
    markdown::first_word(info) == "rust" && info.split([' ', ',', '\t']).any(|w| w == WORD)
}

impl Proof {
    /// A proof from its fence (```` ```rust proof expect=run ````, mapped to
    /// the chapter) and the ```` ```output ```` after it.
    pub(super) fn from_fence(
        fence: &Fence,
        output: Option<&Fence>,
        config: &Config,
    ) -> Result<Proof, Problem> {
        let list = markdown::attributes(fence, 1).map_err(|e| Problem::from_attr(fence, e))?;
        let a = Attrs::new(fence);
        let rest: Vec<Attr> = list.into_iter().filter(|at| at.key != WORD).collect();
        if let Some(attr) = rest
            .iter()
            .find(|at| !matches!(at.key.as_str(), "expect" | "edition" | "mode"))
        {
            return Err(a.problem(
                attr,
                format!(
                    "found unknown attribute `{}` on a question's proof; expected one of {KNOWN}",
                    attr.key
                ),
            ));
        }
        let said = rest.iter().find(|at| at.key == "expect");
        let mut ex = Example::parse(fence, &rest, output, None, config, Context::Quiz)?;
        let runs = match (said, ex.expect) {
            (None, _) => false,
            (Some(_), Expect::NoRun) => false,
            (Some(_), Expect::Run) => true,
            (Some(attr), _) => {
                return Err(a.problem(
                    attr,
                    "found an `expect` a proof cannot take; expected expect=no-run (right options compile, the default) or expect=run (right options run, wrong ones panic)",
                ));
            }
        };
        if template_slots(&fence.body).is_empty() {
            return Err(Problem::at(
                fence.info_offset,
                "found a proof with no `{}` where an option goes; expected `{}` in its code where each option goes (an empty block such as `fn f() {}` is not one; a proof of `{}` alone makes each option its own program)",
            ));
        }
        if !runs && let Some(o) = output {
            return Err(Problem::at(
                o.info_offset,
                "found an ```output block after a proof that only compiles; expected it only after `rust proof expect=run`",
            ));
        }
        ex.expect = if runs { Expect::Run } else { Expect::NoRun };
        Ok(Proof {
            example: Box::new(ex),
            runs,
            placed: None,
        })
    }

    /// A proof written in a quiz file's `companion` table: its
    /// `template`, `expect` and `stdout` (placed by the caller).
    pub(super) fn from_file(
        template: &str,
        expect: Option<&str>,
        stdout: Option<&str>,
        config: &Config,
        at: usize,
    ) -> Result<Proof, String> {
        let fence = |info: String, body: &str| Fence {
            info,
            info_offset: at,
            body: match body.ends_with('\n') {
                true => body.to_owned(),
                false => format!("{body}\n"),
            },
            body_offset: at,
            range: at..at,
        };
        let info = match expect {
            None => format!("rust {WORD}"),
            Some(e @ ("run" | "no-run")) => format!("rust {WORD} expect={e}"),
            Some(other) => {
                return Err(format!(
                    "found companion.expect = \"{other}\"; expected \"no-run\" (right options compile, the default) or \"run\" (right options run, wrong ones panic)"
                ));
            }
        };
        let output = stdout.map(|s| fence("output".to_owned(), s));
        if template_slots(template).is_empty() {
            return Err("found a companion.template with no `{}` where an option goes; expected `{}` where each option goes (an empty block such as `fn f() {}` is not one; a template of `{}` alone makes each option its own program)".to_owned());
        }
        Proof::from_fence(&fence(info, template), output.as_ref(), config).map_err(|p| {
            p.message
                .replace("```output block", "companion.stdout")
                .replace("`rust proof expect=run`", "companion.expect = \"run\"")
        })
    }

    /// The program of one option: the template with the option's code
    /// inserted at every `{}`.
    pub fn program(&self, option: &str) -> String {
        let code = &self.example.code;
        let option = option_code(option);
        let mut out = String::with_capacity(code.len() + option.len());
        let mut from = 0;
        for slot in template_slots(code) {
            out.push_str(code.get(from..slot.start).unwrap_or(""));
            out.push_str(&option);
            from = slot.end;
        }
        out.push_str(code.get(from..).unwrap_or(""));
        out
    }

    /// The claim that option `text` (at `at` of the chapter) is `right`
    /// (or wrong), for question `n` of `quiz`.
    fn claim(&self, env: &Env<'_>, what: &str, text: &str, at: usize, right: bool) -> Claim {
        let mut ex = (*self.example).clone();
        ex.code = self.program(text);
        (ex.expect, ex.output) = match (right, self.runs) {
            (true, false) => (Expect::NoRun, None),
            (false, false) => (Expect::CompileFail, None),
            (true, true) => (Expect::Run, self.example.output.clone()),
            (false, true) => (Expect::Panic, None),
        };
        let mut claim = ex.claim(env, at, None);
        // The program is not the chapter's text: what the compiler says
        // names its own lines.
        claim.program.lines = None;
        let marked = if right { "right" } else { "wrong" };
        claim.origin.what = format!("{what}, option \"{}\" marked {marked})", named(text));
        if let Some((file, line)) = &self.placed {
            claim.origin.file = file.clone();
            claim.origin.line = *line;
        }
        claim
    }

    /// The claims of question `n` (from 1) of `quiz`: one per option.
    pub(super) fn claims(&self, env: &Env<'_>, quiz: &Quiz, n: usize, q: &Question) -> Vec<Claim> {
        let what = match &quiz.title {
            Some(t) => format!("quiz \"{t}\" (question {n}"),
            None => format!("quiz (question {n}"),
        };
        match &q.answer {
            Answer::Choices(choices) => choices
                .iter()
                .map(|c| {
                    let mut claim = self.claim(env, &what, &c.text.text, c.text.at, c.right);
                    if let Some(file) = &c.text.file {
                        claim.origin.file = file.path.clone();
                        claim.origin.line = file.line;
                    }
                    claim
                })
                .collect(),
            Answer::Text { accepted, at } => accepted
                .iter()
                .map(|a| self.claim(env, &what, a, *at, true))
                .collect(),
            Answer::Program(_) => Vec::new(),
        }
    }
}

/// An option as a report names it: on one line, whitespace collapsed,
/// cut after 60 characters (an option may be a whole program).
fn named(text: &str) -> String {
    let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match words.char_indices().nth(60) {
        Some((i, _)) => format!("{}…", &words[..i]),
        None => words,
    }
}

/// The code an option puts into a template: the body of its code block,
/// or the contents of the code span it is, else its text as written.
pub(super) fn option_code(text: &str) -> String {
    let text = text.trim();
    if let Some(f) = markdown::fences(text).first() {
        return f.body.clone();
    }
    let ticks = text.len() - text.trim_start_matches('`').len();
    if ticks > 0 && text.len() > 2 * ticks && text.ends_with(&"`".repeat(ticks)) {
        let inner = &text[ticks..text.len() - ticks];
        if !inner.contains(&"`".repeat(ticks)) {
            // CommonMark strips one space from each end of a code span
            // that has one at both.
            return match inner.strip_prefix(' ').and_then(|i| i.strip_suffix(' ')) {
                Some(i) if !i.trim().is_empty() => i.to_owned(),
                _ => inner.to_owned(),
            };
        }
    }
    text.to_owned()
}

#[cfg(test)]
mod tests {
    use super::option_code;
    use crate::quiz::{PATTERN, parse::parse_body};
    use crate::testing::{config, located};
    use mdbook_companion_core::markdown;

    const QUIZ: &str = "````quiz\n## Which are `Copy`?\n\n- [x] `i32`\n- [ ] `String`\n\n```rust proof\nfn is_copy<T: Copy>() {}\nfn main() { is_copy::<{}>(); }\n```\n\n> Why.\n````\n";

    fn parsed(text: &str) -> Result<super::super::Quiz, String> {
        let blocks = markdown::scan(text, &[PATTERN]);
        parse_body(&blocks[0], text, &config()).map_err(|p| located(text, &p))
    }

    #[test]
    fn a_proof_fills_each_option_into_its_template() {
        let quiz = parsed(QUIZ).unwrap();
        let q = &quiz.questions[0];
        let proof = q.proof.as_ref().expect("a proof");
        assert!(!proof.runs);
        assert_eq!(
            proof.program("`String`"),
            "fn is_copy<T: Copy>() {}\nfn main() { is_copy::<String>(); }\n"
        );
        assert_eq!(q.why.as_ref().unwrap().text, "Why.");
    }

    #[test]
    fn a_proofs_mistakes_are_located() {
        let cases = [
            (
                QUIZ.replace("```rust proof", "```rust proof colour=red"),
                "src/a.md:7:15: found unknown attribute `colour` on a question's proof; expected one of expect, edition, mode",
            ),
            (
                QUIZ.replace("```rust proof", "```rust proof expect=panic"),
                "src/a.md:7:15: found an `expect` a proof cannot take; expected expect=no-run (right options compile, the default) or expect=run (right options run, wrong ones panic)",
            ),
            (
                QUIZ.replace("\n\n> Why.", "\n\n```output\n1\n```\n\n> Why."),
                "src/a.md:12:4: found an ```output block after a proof that only compiles; expected it only after `rust proof expect=run`",
            ),
            (
                QUIZ.replace("<{}>", "<u8>"),
                "src/a.md:7:4: found a proof with no `{}` where an option goes",
            ),
        ];
        for (text, want) in cases {
            let got = parsed(&text).unwrap_err();
            assert!(got.starts_with(want), "got:  {got}\nwant: {want}");
        }
    }

    #[test]
    fn an_option_puts_its_code_into_the_template() {
        let cases = [
            ("`Vec<u8>`", "Vec<u8>"),
            ("`` `a` ``", "`a`"),
            ("3", "3"),
            ("`a` and `b`", "`a` and `b`"),
            ("```rust\nfn main() {}\n```", "fn main() {}\n"),
        ];
        for (option, code) in cases {
            assert_eq!(option_code(option), code, "{option}");
        }
        assert_eq!(
            super::named("```rust\nfn main() {\n    let x = 1;\n}\n```"),
            "```rust fn main() { let x = 1; } ```"
        );
        assert_eq!(
            super::named(&"a".repeat(70)),
            format!("{}…", "a".repeat(60))
        );
    }
}
