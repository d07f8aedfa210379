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
use mdbook_companion_core::lang::{Family, Lang};
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
            (quiz.questions, quiz.hash) =
                super::toml::read_file(env, &path, at, block.fence.info_offset)?;
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
        Part::Fence(f, _) => Lang::from_fence(markdown::first_word(&f.info))
            .is_some_and(|l| l.family() != Family::Program),
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
mod tests;

#[cfg(test)]
mod robustness;
