//! Reading a quiz block: its attributes, then its body as Markdown, piece
//! by piece: each `##` heading opens a question; the first task list or
//! `answer:` line under it is its answer, else its last Rust, C or C++
//! fence (with the ```` ```output ```` after it) is a program question; a
//! `>` quote after the answer explains it. Every offset is mapped back to
//! the chapter, so an author's mistake is located at its line and column.

use super::{Answer, Choice, PATTERN, Prose, Question, Quiz};
use crate::attributes;
use crate::body::{Item, Mapper, closes, items};
use crate::contract::Env;
use crate::reader::Reader;
use mdbook_companion_core::config::Config;
use mdbook_companion_core::lang::Lang;
use mdbook_companion_core::markdown::{self, Block, Fence};
use mdbook_companion_core::problem::Problem;
use pulldown_cmark::{Event, Parser, Tag, TagEnd};
use std::ops::Range;

/// What a question may be answered with, for messages.
const ANSWERS: &str = "a task list (`- [x]` right, `- [ ]` wrong), an `answer:` line, or a ```rust, ```c or ```cpp program with its ```output";

/// A top-level piece of a question, as met.
enum Part {
    /// Markdown of the prompt (a paragraph, a list, a fence shown as is):
    /// what it is, its range in the body.
    Prose(&'static str, Range<usize>),
    /// A task list: its options.
    Choices(Vec<Choice>, Range<usize>),
    /// An `answer:` line.
    Line(Vec<String>, Range<usize>),
    /// A fence: as it stands in the body, and mapped to the chapter.
    Fence(Fence, Fence),
    /// A block quote.
    Quote(Range<usize>),
}

impl Part {
    fn start(&self) -> usize {
        match self {
            Part::Prose(_, r) | Part::Choices(_, r) | Part::Line(_, r) | Part::Quote(r) => r.start,
            Part::Fence(f, _) => f.range.start,
        }
    }

    fn what(&self) -> String {
        match self {
            Part::Prose(what, _) => (*what).to_owned(),
            Part::Choices(..) => "a second task list".to_owned(),
            Part::Line(..) => "a second `answer:` line".to_owned(),
            Part::Fence(f, _) => match f.info.is_empty() {
                true => "a code block".to_owned(),
                false => format!("a ```{} block", markdown::first_word(&f.info)),
            },
            Part::Quote(_) => "a second block quote".to_owned(),
        }
    }
}

/// A question as it is read: its heading and its parts.
struct Pending {
    prompt: Prose,
    heading_at: usize,
    parts: Vec<Part>,
}

impl Quiz {
    /// Parses every quiz block of a chapter `text` (what the fuzz target
    /// drives; a block with `src` reads no file here): each block's model,
    /// or its problem at an offset of `text`.
    pub fn parse_chapter(text: &str, config: &Config) -> Vec<Result<Quiz, Problem>> {
        markdown::scan(text, &[PATTERN])
            .iter()
            .map(|b| parse_body(b, text, config))
            .collect()
    }

    /// Parses a quiz block of the chapter; with `src="FILE"` its
    /// questions come from an mdbook-quiz file (FILE relative to the
    /// chapter's file, inside the book's source directory).
    pub fn parse(block: &Block, env: &Env<'_>) -> Result<Quiz, Problem> {
        let (mut quiz, src) = parse_with_src(block, env.text, env.config)?;
        if let Some((path, at)) = src {
            quiz.questions = super::toml::read_file(env, &path, at, block.fence.info_offset)?;
            quiz.hash = mdbook_companion_core::hash::key(&[
                b"quiz-file",
                format!("{:?}", quiz.questions).as_bytes(),
            ])[..16]
                .to_owned();
        }
        Ok(quiz)
    }
}

/// [`Quiz::parse`] of a block whose questions are in its body (a block
/// with `src` reads no file here: its questions stay empty).
pub(super) fn parse_body(block: &Block, text: &str, config: &Config) -> Result<Quiz, Problem> {
    parse_with_src(block, text, config).map(|(q, _)| q)
}

/// A quiz block's attributes and the questions of its body, with its
/// `src=` (the file its questions are in instead, and where it stands).
#[allow(clippy::type_complexity)]
fn parse_with_src(
    block: &Block,
    text: &str,
    config: &Config,
) -> Result<(Quiz, Option<(String, usize)>), Problem> {
    let fence = &block.fence;
    let list = markdown::attributes(fence, PATTERN.words.len())
        .map_err(|e| Problem::from_attr(fence, e))?;
    let mut reader = Reader::new(fence, &attributes::QUIZ, "quiz");
    for attr in &list {
        // A `{{#quiz FILE}}` inside code or among other words (the
        // scanner marks it): mdBook's `links` would treat it as a link
        // there, and a quiz cannot stand inside a line.
        if let ("link", Some((file, _))) = (attr.key.as_str(), &reader.given.src) {
            return Err(Problem::at(
                fence.info_offset,
                format!(
                    "found {{{{#quiz {file}}}}} inside code or among other words on its line; mdBook's `links` reads a link there too (it expands {{{{#include}}}} inside code), and a quiz cannot be placed there; expected `\\{{{{#quiz {file}}}}}` to show the link as written, or the link alone on its line outside code"
                ),
            ));
        }
        reader.take(attr)?;
    }
    let given = reader.finish()?;
    let (title, id, src) = (given.title, given.id, given.src);
    let body = &fence.body;
    if let Some(src) = src {
        if !body.trim().is_empty() {
            return Err(Problem::at(
                fence.body_offset,
                "found questions in a quiz with `src`; expected its questions in the file, or in the block without `src`",
            ));
        }
        let quiz = Quiz {
            title,
            id,
            questions: Vec::new(),
            hash: String::new(),
            info_offset: fence.info_offset,
        };
        return Ok((quiz, Some(src)));
    }
    let mapper = Mapper::for_block(text, fence);
    let pending = pending_questions(body, &mapper)?;
    if pending.is_empty() {
        return Err(Problem::at(
            fence.info_offset,
            format!("found no question in the quiz; expected `##` headings, each with {ANSWERS}"),
        ));
    }
    let questions = pending
        .into_iter()
        .map(|q| question(q, body, &mapper, config))
        .collect::<Result<Vec<_>, _>>()?;
    let hash = mdbook_companion_core::hash::key(&[b"quiz", fence.info.as_bytes(), body.as_bytes()]);
    let quiz = Quiz {
        title,
        id,
        questions,
        hash: hash[..16].to_owned(),
        info_offset: fence.info_offset,
    };
    Ok((quiz, None))
}

/// The questions of a quiz's `body` as they are met: each `##` heading
/// and the parts under it.
fn pending_questions(body: &str, mapper: &Mapper) -> Result<Vec<Pending>, Problem> {
    let mut pending: Vec<Pending> = Vec::new();
    for item in items(body) {
        let part = match item {
            Item::Markdown("a heading", range) => {
                let heading = &body[range.clone()];
                let hashes = heading.len() - heading.trim_start_matches('#').len();
                if hashes != 2 {
                    return Err(Problem::at(
                        mapper.map(range.start),
                        "found a heading that is not `##`; expected `## ` and the question (a quiz's questions are its level-2 headings)",
                    ));
                }
                let after = &heading[2..];
                let lead = after.len() - after.trim_start().len();
                let prompt = after.trim().trim_end_matches('#').trim_end();
                pending.push(Pending {
                    prompt: Prose {
                        text: prompt.to_owned(),
                        at: mapper.map(range.start + 2 + lead),
                        file: None,
                    },
                    heading_at: mapper.map(range.start),
                    parts: Vec::new(),
                });
                continue;
            }
            Item::Markdown("a list", range) => match choices(body, range.clone(), mapper)? {
                Some(c) => Part::Choices(c, range),
                None => Part::Prose("a list", range),
            },
            Item::Markdown("a paragraph", range)
                if body[range.clone()].trim_start().starts_with("answer:") =>
            {
                Part::Line(answer_line(body, range.clone(), mapper)?, range)
            }
            Item::Markdown("a block quote", range) => Part::Quote(range),
            Item::Markdown(what, range) => Part::Prose(what, range),
            Item::Fence(f) => {
                let mapped = mapper.fence(&f);
                if !closes(body, &f.range) {
                    return Err(Problem::at(
                        mapped.range.start,
                        "found a code block whose fence never closes; expected a closing fence before the end of the quiz",
                    ));
                }
                Part::Fence(f, mapped)
            }
        };
        match pending.last_mut() {
            Some(q) => q.parts.push(part),
            None => {
                return Err(Problem::at(
                    mapper.map(part.start()),
                    format!(
                        "found {} before the first question; expected a `##` heading that asks it",
                        match &part {
                            Part::Choices(..) => "a task list".to_owned(),
                            Part::Line(..) => "an `answer:` line".to_owned(),
                            Part::Quote(_) => "a block quote".to_owned(),
                            other => other.what(),
                        }
                    ),
                ));
            }
        }
    }
    Ok(pending)
}

/// A question from its parts: its answer, the prose before it, the quote
/// after it.
fn question(q: Pending, body: &str, mapper: &Mapper, config: &Config) -> Result<Question, Problem> {
    let prose = |r: &Range<usize>| Prose {
        text: body[r.clone()].trim_end().to_owned(),
        at: mapper.map(r.start),
        file: None,
    };
    let is_program = |p: &Part| match p {
        Part::Fence(f, _) => matches!(
            Lang::from_fence(markdown::first_word(&f.info)),
            Some(Lang::Rust | Lang::C | Lang::Cpp)
        ),
        _ => false,
    };
    let mut parts = q.parts;
    // The answer: the first task list or `answer:` line, else the last
    // program (its output block and a quote may follow it).
    let at = match parts
        .iter()
        .position(|p| matches!(p, Part::Choices(..) | Part::Line(..)))
    {
        Some(i) => Some(i),
        None => parts.iter().rposition(is_program),
    };
    let Some(at) = at else {
        return Err(Problem::at(
            q.heading_at,
            format!("found a question with nothing to answer; expected {ANSWERS} under it"),
        ));
    };
    let mut after: Vec<Part> = parts.split_off(at + 1);
    let answer_part = parts.pop();
    let mut output = None;
    if matches!(answer_part, Some(Part::Fence(..)))
        && after.first().is_some_and(is_output)
        && let Part::Fence(_, mapped) = after.remove(0)
    {
        output = Some(mapped);
    }
    let proof = match answer_part {
        Some(Part::Choices(..) | Part::Line(..)) => proof(&mut after, config)?,
        _ => None,
    };
    let why = why(after, body, mapper)?;
    let answer = match answer_part {
        Some(Part::Choices(c, _)) => Answer::Choices(c),
        Some(Part::Line(accepted, r)) => Answer::Text {
            accepted,
            at: mapper.map(r.start),
        },
        Some(Part::Fence(_, mapped)) => {
            Answer::Program(Box::new(super::program::program(mapped, output, config)?))
        }
        _ => {
            return Err(Problem::at(
                q.heading_at,
                format!("found a question with nothing to answer; expected {ANSWERS} under it"),
            ));
        }
    };
    let body_parts = parts
        .iter()
        .map(|p| match p {
            Part::Prose(_, r) | Part::Quote(r) => Ok(prose(r)),
            Part::Fence(f, _) => Ok(prose(&f.range)),
            other => Err(Problem::at(
                mapper.map(other.start()),
                format!("found {} before the question's answer", other.what()),
            )),
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Question {
        prompt: q.prompt,
        body: body_parts,
        answer,
        why,
        id: None,
        proof,
    })
}

/// Whether a part is an ```output block.
fn is_output(p: &Part) -> bool {
    matches!(p, Part::Fence(f, _) if markdown::first_word(&f.info) == "output")
}

/// A choice or short answer's proof: a ```rust proof fence first `after`
/// the answer, with the ```output its right options print (both taken).
fn proof(after: &mut Vec<Part>, config: &Config) -> Result<Option<super::Proof>, Problem> {
    if !matches!(after.first(), Some(Part::Fence(f, _)) if super::proof::is_proof(&f.info)) {
        return Ok(None);
    }
    let Part::Fence(_, fence) = after.remove(0) else {
        return Ok(None);
    };
    let output = match after.first().is_some_and(is_output) {
        true => match after.remove(0) {
            Part::Fence(_, mapped) => Some(mapped),
            _ => None,
        },
        false => None,
    };
    super::Proof::from_fence(&fence, output.as_ref(), config).map(Some)
}

/// What stands after a question's answer: at most the `>` quote that
/// explains it.
fn why(after: Vec<Part>, body: &str, mapper: &Mapper) -> Result<Option<Prose>, Problem> {
    let mut why = None;
    for part in after {
        match part {
            Part::Quote(r) if why.is_none() => why = Some(quote(body, r, mapper)),
            other => {
                return Err(Problem::at(
                    mapper.map(other.start()),
                    format!(
                        "found {} after the question's answer; expected at most a `>` quote that explains it, then the next `##` question",
                        other.what()
                    ),
                ));
            }
        }
    }
    Ok(why)
}

/// A block quote's Markdown without its `>` markers.
fn quote(body: &str, r: Range<usize>, mapper: &Mapper) -> Prose {
    let text: Vec<&str> = body[r.clone()]
        .lines()
        .map(|l| {
            let l = l.trim_start();
            let l = l.strip_prefix('>').unwrap_or(l);
            l.strip_prefix(' ').unwrap_or(l)
        })
        .collect();
    let text = text.join("\n").trim().to_owned();
    let inner = body[r.clone()].find('>').map_or(0, |i| i + 1);
    let at = r.start + inner + usize::from(body[r.start + inner..].starts_with(' '));
    Prose {
        text,
        at: mapper.map(at.min(r.end)),
        file: None,
    }
}

/// The accepted answers of an `answer:` line.
fn answer_line(body: &str, r: Range<usize>, mapper: &Mapper) -> Result<Vec<String>, Problem> {
    let text = body[r.clone()].trim();
    if text.contains('\n') {
        return Err(Problem::at(
            mapper.map(r.start),
            "found an `answer:` paragraph of several lines; expected one line, its accepted answers separated by ` | `",
        ));
    }
    let rest = text.trim_start_matches("answer:");
    let accepted: Vec<String> = rest.split(" | ").map(|a| a.trim().to_owned()).collect();
    if accepted.iter().any(String::is_empty) {
        return Err(Problem::at(
            mapper.map(r.start),
            "found an empty answer on the `answer:` line; expected answers separated by ` | `, none empty",
        ));
    }
    Ok(accepted)
}

/// The options of a task list (`None` when the list is not one: it is
/// then part of the prompt).
fn choices(body: &str, r: Range<usize>, mapper: &Mapper) -> Result<Option<Vec<Choice>>, Problem> {
    let src = &body[r.clone()];
    struct Opt {
        item: Range<usize>,
        marker: Option<(bool, usize)>,
        quote: Option<Range<usize>>,
    }
    let mut opts: Vec<Opt> = Vec::new();
    let mut depth = 0usize;
    let mut quote_depth = 0usize;
    for (event, range) in Parser::new_ext(src, markdown::options()).into_offset_iter() {
        match event {
            Event::Start(Tag::Item) => {
                depth += 1;
                if depth == 1 {
                    opts.push(Opt {
                        item: range,
                        marker: None,
                        quote: None,
                    });
                }
            }
            Event::End(TagEnd::Item) => depth = depth.saturating_sub(1),
            Event::TaskListMarker(checked) if depth == 1 && quote_depth == 0 => {
                if let Some(o) = opts.last_mut()
                    && o.marker.is_none()
                {
                    o.marker = Some((checked, range.end));
                }
            }
            Event::Start(Tag::BlockQuote(_)) => {
                quote_depth += 1;
                if depth == 1
                    && quote_depth == 1
                    && let Some(o) = opts.last_mut()
                    && o.quote.is_none()
                {
                    o.quote = Some(range);
                }
            }
            Event::End(TagEnd::BlockQuote(_)) => quote_depth = quote_depth.saturating_sub(1),
            _ => {}
        }
    }
    if opts.iter().all(|o| o.marker.is_none()) {
        return Ok(None);
    }
    let mut out = Vec::new();
    for o in &opts {
        let Some((right, text_start)) = o.marker else {
            return Err(Problem::at(
                mapper.map(r.start + o.item.start),
                "found an option without `[ ]` or `[x]` in a task list; expected every option to say whether it is right",
            ));
        };
        let end = o.quote.as_ref().map_or(o.item.end, |q| q.start);
        let raw = &src[text_start..end.max(text_start)];
        let lead = raw.len() - raw.trim_start().len();
        let text = raw.trim();
        if text.is_empty() {
            return Err(Problem::at(
                mapper.map(r.start + o.item.start),
                "found an empty option; expected its text after `[ ]` or `[x]`",
            ));
        }
        out.push(Choice {
            text: Prose {
                text: text.to_owned(),
                at: mapper.map(r.start + text_start + lead),
                file: None,
            },
            right,
            why: o
                .quote
                .as_ref()
                .map(|q| quote(body, r.start + q.start..r.start + q.end, mapper)),
        });
    }
    if out.len() < 2 {
        return Err(Problem::at(
            mapper.map(r.start),
            "found a task list of one option; expected at least two to choose from",
        ));
    }
    if !out.iter().any(|c| c.right) {
        return Err(Problem::at(
            mapper.map(r.start),
            "found a choice question with no `[x]`; expected at least one right option marked `- [x]`",
        ));
    }
    Ok(Some(out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quiz::Behaviour;
    use mdbook_companion_core::problem::Located;
    use pretty_assertions::assert_eq;

    const GOOD: &str = r#"# Chapter

`````quiz title="Division" id=div
## What does `7 / 2` evaluate to?

Think of the types.

- [ ] `3.5`
- [x] `3`
  > Integer division truncates toward zero.
- [ ] It does not compile.

> Both operands are integers.

## Which keyword declares a variable?

answer: let | let mut

## Which are integer types?

- [x] `i32`
- [ ] `f64`
- [x] `u8`

## What does this program do?

```rust expect=panic
fn main() { let v = vec![1, 2, 3]; println!("{}", v[v.len()]); }
```

```output
index out of bounds: the len is 3 but the index is 3
```

## Does this compile?

```rust expect=compile-fail line=2
# #![allow(unused)]
let s = String::from("hi"); let t = s;
println!("{s}");
```

> A moved value cannot be used.

## What does this C do?

```c expect=ub
#include <limits.h>
~ #include <stdio.h>
int main(void) { int x = INT_MAX; x += 1; printf("%d\n", x); }
```

```output
signed integer overflow
```
`````
"#;

    fn config() -> Config {
        Config::from_json("/b".into(), &serde_json::json!({})).unwrap()
    }

    fn parsed(text: &str) -> Result<Quiz, String> {
        let blocks = markdown::scan(text, &[PATTERN]);
        let block = blocks.first().expect("a quiz block");
        parse_body(block, text, &config()).map_err(|p| {
            let l = Located::new("src/a.md", text, &p);
            format!("{}: {}", l.place(), l.message)
        })
    }

    #[test]
    fn every_kind_of_question_fills_the_model() {
        let quiz = parsed(GOOD).unwrap();
        assert_eq!(quiz.title.as_deref(), Some("Division"));
        assert_eq!(quiz.id.as_ref().unwrap().0, "div");
        assert_eq!(quiz.questions.len(), 6);
        let q = &quiz.questions[0];
        assert_eq!(q.prompt.text, "What does `7 / 2` evaluate to?");
        assert_eq!(&GOOD[q.prompt.at..][..9], "What does");
        assert_eq!(q.body[0].text, "Think of the types.");
        let Answer::Choices(c) = &q.answer else {
            panic!("choices")
        };
        let got: Vec<(&str, bool, Option<&str>)> = c
            .iter()
            .map(|c| {
                (
                    c.text.text.as_str(),
                    c.right,
                    c.why.as_ref().map(|w| w.text.as_str()),
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                ("`3.5`", false, None),
                ("`3`", true, Some("Integer division truncates toward zero.")),
                ("It does not compile.", false, None),
            ]
        );
        assert_eq!(&GOOD[c[1].text.at..][..3], "`3`");
        assert_eq!(&GOOD[c[1].why.as_ref().unwrap().at..][..7], "Integer");
        assert_eq!(q.why.as_ref().unwrap().text, "Both operands are integers.");
        assert!(!q.all_that_apply());
        assert_eq!(
            quiz.questions[1].answer,
            Answer::Text {
                accepted: vec!["let".into(), "let mut".into()],
                at: GOOD.find("answer: let").unwrap(),
            }
        );
        assert!(quiz.questions[2].all_that_apply());
        let program = |i: usize| match &quiz.questions[i].answer {
            Answer::Program(p) => p.clone(),
            other => panic!("not a program: {other:?}"),
        };
        let panics = program(3);
        assert_eq!(panics.outcome(), Behaviour::Panics);
        assert_eq!(
            panics.output.as_deref(),
            Some("index out of bounds: the len is 3 but the index is 3\n")
        );
        let fails = program(4);
        assert_eq!(fails.outcome(), Behaviour::DoesNotCompile);
        assert_eq!(fails.line, Some(2));
        // The hidden attribute line stays on top; `fn main` opens line 2.
        assert_eq!(fails.shown_lines, [3, 4]);
        assert_eq!(
            quiz.questions[4].why.as_ref().unwrap().text,
            "A moved value cannot be used."
        );
        let ub = program(5);
        assert_eq!((ub.lang, ub.outcome()), (Lang::C, Behaviour::Undefined));
        assert_eq!(ub.shown_lines, [1, 3]);
        assert!(ub.source.contains("#include <stdio.h>"));
        assert!(!ub.shown.contains("stdio"));
        assert_eq!(quiz.hash.len(), 16);
    }

    #[test]
    fn a_quiz_edited_gets_another_hash() {
        let a = parsed(GOOD).unwrap().hash;
        let b = parsed(&GOOD.replace("let mut", "mut")).unwrap().hash;
        assert_ne!(a, b);
    }

    #[test]
    fn author_errors_are_located_and_name_what_was_expected() {
        let cases = [
            (
                GOOD.replace("- [x] `3`", "- [ ] `3`"),
                "src/a.md:8:1: found a choice question with no `[x]`; expected at least one right option marked `- [x]`",
            ),
            (
                GOOD.replace("answer: let | let mut", "Just text."),
                "src/a.md:15:1: found a question with nothing to answer; expected a task list (`- [x]` right, `- [ ]` wrong), an `answer:` line, or a ```rust, ```c or ```cpp program with its ```output under it",
            ),
            (
                GOOD.replace("title=\"Division\"", "title=\"Division\" colour=red"),
                "src/a.md:3:28: found unknown attribute `colour` on the quiz; expected one of title, id",
            ),
            (
                GOOD.replace("```rust expect=panic", "```rust expect=panic colour=red"),
                "src/a.md:27:22: found unknown attribute `colour`; expected one of title, id, expect, error, edition, mode",
            ),
            (
                GOOD.replace("```rust expect=panic", "```rust expect=no-run"),
                "src/a.md:27:9: found `expect` on a quiz's program; expected expect=run, expect=panic or expect=compile-fail (what the reader predicts, and the build proves)",
            ),
            (
                GOOD.replace(" line=2", ""),
                "src/a.md:37:4: found `expect=compile-fail` without `line`; expected `line=N`, the line (from 1, as the reader sees the code) of the compiler's first error",
            ),
            (
                GOOD.replace("line=2", "line=9"),
                "src/a.md:37:29: found line=9 in a program the reader sees 2 lines of; expected a line the reader can see",
            ),
            (
                GOOD.replace("```c expect=ub", "```c expect=ub line=1"),
                "src/a.md:47:16: found `line` on a program that compiles; expected it only with expect=compile-fail",
            ),
            (
                GOOD.replace(
                    "answer: let | let mut",
                    "answer: let | let mut\n\nMore text.",
                ),
                "src/a.md:19:1: found a paragraph after the question's answer; expected at most a `>` quote that explains it, then the next `##` question",
            ),
            (
                GOOD.replace("## What does `7 / 2`", "Intro.\n\n## What does `7 / 2`"),
                "src/a.md:4:1: found a paragraph before the first question; expected a `##` heading that asks it",
            ),
            (
                GOOD.replace("## Which keyword", "### Which keyword"),
                "src/a.md:15:1: found a heading that is not `##`; expected `## ` and the question (a quiz's questions are its level-2 headings)",
            ),
            (
                GOOD.replace("- [ ] `f64`", "- `f64`"),
                "src/a.md:22:1: found an option without `[ ]` or `[x]` in a task list; expected every option to say whether it is right",
            ),
            (
                GOOD.replace("```c expect=ub", "```c expect=ub colour=red"),
                "src/a.md:47:16: found unknown attribute `colour` on a quiz's `c` program; expected one of expect, line, sanitize, asm, asm-syntax, flags, warnings",
            ),
            (
                GOOD.replace("```output\nsignal", "x")
                    .replace("```rust expect=panic", "```rust")
                    .replace(
                        "```output\nindex out of bounds: the len is 3 but the index is 3\n```\n",
                        "",
                    ),
                "src/a.md:27:4: found a program question with no ```output block; expected what the program prints right after it (the reader's answer is compared with it, and the build proves it)",
            ),
            (
                "`````quiz\n`````\n".to_owned(),
                "src/a.md:1:6: found no question in the quiz; expected `##` headings, each with a task list (`- [x]` right, `- [ ]` wrong), an `answer:` line, or a ```rust, ```c or ```cpp program with its ```output",
            ),
        ];
        for (text, want) in cases {
            let got = parsed(&text).unwrap_err();
            assert!(got.starts_with(want), "{text}\ngot:  {got}\nwant: {want}");
        }
    }

    #[test]
    fn a_printed_output_the_reader_predicts_is_literal() {
        let prints = GOOD.replace("```rust expect=panic", "```rust");
        let cases = [
            (
                prints.replace("the len is 3 but", "the len is [..] but"),
                "src/a.md:31:4: found a pattern (`[..]` or a `...` line) in the output a quiz's reader predicts; expected the exact output (the reader's page compares the reader's answer with it literally",
            ),
            (
                prints.replace(
                    "```output\nindex out of bounds",
                    "```output\n...\nindex out of bounds",
                ),
                "src/a.md:31:4: found a pattern",
            ),
            (
                prints.replace(
                    "```output\nindex out of bounds",
                    "```output unordered\nindex out of bounds",
                ),
                "src/a.md:31:4: found ```output unordered on a quiz's program; expected its output in the one order it is printed",
            ),
        ];
        for (text, want) in cases {
            let got = parsed(&text).unwrap_err();
            assert!(got.starts_with(want), "got:  {got}\nwant: {want}");
        }
        // A panic's message is found in what the program wrote, as the
        // build finds it; the page compares only the outcome.
        let panics = GOOD.replace("the len is 3 but", "the len is [..] but");
        assert!(parsed(&panics).is_ok());
    }

    #[test]
    fn a_rust_fence_before_a_task_list_is_part_of_the_prompt() {
        let text = "`````quiz\n## What does it print?\n\n```rust\nfn main() { print!(\"1\"); }\n```\n\n- [x] 1\n- [ ] 2\n`````\n";
        let quiz = parsed(text).unwrap();
        assert!(matches!(quiz.questions[0].answer, Answer::Choices(_)));
        assert!(quiz.questions[0].body[0].text.starts_with("```rust"));
    }

    #[test]
    fn inside_a_list_offsets_keep_the_indent() {
        let text: String = GOOD
            .lines()
            .enumerate()
            .map(|(i, l)| match (i, l.is_empty()) {
                (0..=1, _) => format!("{l}\n"),
                (2, _) => format!("- {l}\n"),
                (_, true) => "\n".to_owned(),
                _ => format!("  {l}\n"),
            })
            .collect();
        let quiz = parsed(&text).unwrap();
        let Answer::Choices(c) = &quiz.questions[0].answer else {
            panic!("choices")
        };
        assert_eq!(&text[c[1].text.at..][..3], "`3`");
        let bad = text.replace("line=2", "line=9");
        assert!(
            parsed(&bad)
                .unwrap_err()
                .starts_with("src/a.md:37:31: found line=9")
        );
    }
}

#[cfg(test)]
mod robustness {
    use super::*;

    /// Every prefix of a chapter with a quiz, and the chapter with Markdown
    /// dropped in at every line start: no panic, every problem inside the
    /// text (the fuzz target's property, on a fixed corpus).
    #[test]
    fn mangled_quizzes_fail_inside_the_text_without_panicking() {
        let config = Config::from_json("/b".into(), &serde_json::json!({})).unwrap();
        let chapter = include_str!("../../../../tests/testsuite/quiz/claims.md");
        let mut cases: Vec<String> = (0..=chapter.len())
            .filter(|i| chapter.is_char_boundary(*i))
            .map(|i| format!("{}\n`````\n", &chapter[..i]))
            .collect();
        for (i, _) in chapter.match_indices('\n') {
            for junk in ["> ", "- [x] ", "## ", "```\n", "answer:", "  - [ ] "] {
                cases.push(format!("{}{junk}{}", &chapter[..=i], &chapter[i + 1..]));
            }
        }
        for text in &cases {
            for r in Quiz::parse_chapter(text, &config) {
                if let Err(p) = r {
                    assert!(p.offset <= text.len(), "{}\n{text}", p.message);
                    assert!(p.message.starts_with("found "), "{}", p.message);
                }
            }
        }
    }
}
